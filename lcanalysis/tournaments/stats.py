"""Statistics for tournaments: win rates with Wilson intervals over rounds and t intervals over
deals, mean score differences with t intervals (per deal for duplicate play), and Bradley-Terry
ratings on the Elo scale.

Conventions: a drawn round (equal scores) counts as half a win in a win rate and in the
ratings; intervals are two-sided at ``conf`` (default 95%).
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
from scipy import stats as st


def wilson_interval(wins: float, n: int, conf: float = 0.95) -> tuple[float, float]:
    """Wilson score interval for a proportion ``wins / n`` (``wins`` may hold half wins for draws).

    >>> lo, hi = wilson_interval(60, 100)
    >>> print(f"{lo:.4f} {hi:.4f}")
    0.5020 0.6906
    """
    if n <= 0:
        return (0.0, 1.0)
    z = float(st.norm.ppf(0.5 + conf / 2))
    p = wins / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return (max(0.0, centre - half), min(1.0, centre + half))


def mean_interval(values: Iterable[float], conf: float = 0.95) -> tuple[float, float, float]:
    """Mean and Student-t interval ``(mean, low, high)``; the interval is infinite for one value."""
    x = np.asarray(list(values), dtype=float)
    n = len(x)
    if n == 0:
        return (math.nan, math.nan, math.nan)
    m = float(x.mean())
    if n == 1:
        return (m, -math.inf, math.inf)
    se = float(x.std(ddof=1)) / math.sqrt(n)
    t = float(st.t.ppf(0.5 + conf / 2, n - 1))
    return (m, m - t * se, m + t * se)


def mean_stderr(values: Iterable[float]) -> float:
    """The standard error of the mean of ``values``, independent samples (NaN for fewer than two):
    the ``se`` behind ``mean_interval``'s interval."""
    x = np.asarray(list(values), dtype=float)
    return float(x.std(ddof=1)) / math.sqrt(len(x)) if len(x) > 1 else math.nan


def unit_means(values: Sequence[float] | np.ndarray, units: Iterable[Any]) -> np.ndarray:
    """The mean of ``values`` in each unit (``units``: each value's unit, a duplicate deal say), in the
    order the units first appear: one sample per unit, where a unit's values are not independent."""
    groups: dict[Any, list[float]] = {}
    for k, v in zip(units, values):
        groups.setdefault(k, []).append(float(v))
    return np.array([np.mean(v) for v in groups.values()])


def unit_rate_interval(scores: Sequence[float] | np.ndarray, units: Sequence[Any], conf: float = 0.95
                       ) -> tuple[float, float]:
    """The interval of a win rate over independent *units* rather than rounds: ``scores`` are the
    rounds' results (1 win, 0.5 draw, 0 loss), ``units`` each round's unit (a duplicate deal: its
    two seatings share the cards, so their results are not independent). Each unit's mean result
    is one sample, and the interval is Student's t over the units (``mean_interval``), the same as
    the mean score difference's, kept inside 0-1. Where it has nothing to go on (one unit, or
    every unit's mean the same, all won say), Wilson's interval counting each unit as one trial
    instead: a unit's mean lies in 0-1, so its variance is at most that of one win or loss, and
    that interval is the widest the units allow (never the zero width of a spread of 0).

    >>> deals = [d for d in range(8) for seating in (0, 1)]
    >>> lo, hi = unit_rate_interval([1, 0] * 4 + [1, 1] * 4, deals)  # 4 deals split, 4 won twice
    >>> print(f"{lo:.3f} {hi:.3f}")
    0.527 0.973
    """
    x = np.asarray(scores, dtype=float)
    if len(x) != len(units):
        raise ValueError(f"one unit per round: {len(x)} results, {len(units)} units")
    means = unit_means(x, units)
    k = len(means)
    if k == 0:
        return (0.0, 1.0)
    if k < 2 or float(means.std()) == 0.0:
        return wilson_interval(float(means.sum()), k, conf)
    _, lo, hi = mean_interval(means, conf)
    return (max(0.0, lo), min(1.0, hi))


@dataclass
class HeadToHead:
    """One agent against another, from ``agent``'s side."""

    agent: str
    opponent: str
    rounds: int
    wins: int
    draws: int
    losses: int
    win_rate: float
    win_low: float
    win_high: float
    mean_diff: float
    diff_low: float
    diff_high: float
    diff_sd: float
    units: int
    capped: int
    mean_turns: float
    #: the win rate's interval over the units (``unit_rate_interval``: each duplicate deal one sample);
    #: ``win_low``/``win_high`` are Wilson's over rounds, as if the rounds were independent
    win_unit_low: float = math.nan
    win_unit_high: float = math.nan
    #: the standard error of ``mean_diff`` over the units, the one its interval is built on (``diff_sd``
    #: is the spread of single rounds: divided by the square root of the rounds or the deals it gave
    #: 1.2 or 1.7 points for a mean known to 0.96, the seatings of a deal being correlated)
    diff_stderr: float = math.nan

    def to_dict(self) -> dict[str, Any]:
        return dict(self.__dict__)

    def flipped(self) -> HeadToHead:
        """The same rounds from the opponent's side."""
        return HeadToHead(self.opponent, self.agent, self.rounds, self.losses, self.draws, self.wins,
                          1 - self.win_rate, 1 - self.win_high, 1 - self.win_low, -self.mean_diff, -self.diff_high,
                          -self.diff_low, self.diff_sd, self.units, self.capped, self.mean_turns,
                          1 - self.win_unit_high, 1 - self.win_unit_low, self.diff_stderr)

    def describe(self) -> str:
        return (f"{self.agent} vs {self.opponent}: {self.rounds} rounds, win rate {self.win_rate:.3f} "
                f"[{self.win_low:.3f}, {self.win_high:.3f}], mean score difference {self.mean_diff:+.2f} "
                f"[{self.diff_low:+.2f}, {self.diff_high:+.2f}], {self.capped} capped")


def head_to_head(diffs: Sequence[float], units: Sequence[Any] | None = None, *, agent: str = "A",
                 opponent: str = "B", capped: int = 0, turns: Sequence[float] | None = None,
                 conf: float = 0.95) -> HeadToHead:
    """Summary of score differences ``agent - opponent``, one per round.

    ``units`` groups rounds that are not independent (the two seatings of a duplicate deal, the
    rounds of a match): the mean-difference interval and its standard error (``diff_stderr``)
    are then computed over the group means, as the groups are the independent samples. The win
    rate counts rounds (draws as half) with a Wilson interval over rounds (``win_low``,
    ``win_high``), which treats the rounds as independent; ``win_unit_low``, ``win_unit_high`` is
    its interval over the groups (``unit_rate_interval``), the one that respects the pairing
    (without ``units``: Wilson's, the rounds being the units).
    """
    d = np.asarray(diffs, dtype=float)
    n = len(d)
    wins = int((d > 0).sum())
    draws = int((d == 0).sum())
    losses = n - wins - draws
    rate = (wins + 0.5 * draws) / n if n else math.nan
    lo, hi = wilson_interval(wins + 0.5 * draws, n, conf)
    if units is None:
        groups = d
        ulo, uhi = lo, hi
    else:
        keys = list(units)
        sums: dict[Any, list[float]] = {}
        for k, v in zip(keys, d):
            sums.setdefault(k, []).append(v)
        groups = np.array([np.mean(v) for v in sums.values()])
        ulo, uhi = unit_rate_interval(np.where(d > 0, 1.0, np.where(d == 0, 0.5, 0.0)), keys, conf)
    m, mlo, mhi = mean_interval(groups, conf)
    return HeadToHead(agent, opponent, n, wins, draws, losses, rate, lo, hi, m, mlo, mhi,
                      float(d.std(ddof=1)) if n > 1 else math.nan, len(groups), int(capped),
                      float(np.mean(turns)) if turns is not None and len(turns) else math.nan, ulo, uhi,
                      mean_stderr(groups))


def bradley_terry(results: Iterable[tuple[str, str, float]], prior: float = 0.5, iterations: int = 2000,
                  tol: float = 1e-10) -> dict[str, float]:
    """Bradley-Terry strengths from ``(a, b, score_of_a)`` results (1 win, 0.5 draw, 0 loss),
    fitted by the minorization-maximization algorithm (Hunter 2004), returned as Elo-scale ratings
    (400 log10 of the strength) centred on a mean of 0.

    ``prior`` adds that many virtual draws of every player against every other, so an unbeaten
    player keeps a finite rating (set 0 for the plain maximum-likelihood fit).
    """
    res = list(results)
    names = sorted({r[0] for r in res} | {r[1] for r in res})
    if not names:
        return {}
    r = bradley_terry_points(points_table(res, names), prior, iterations, tol)
    return {n: float(r[i]) for i, n in enumerate(names)}


def points_table(results: Iterable[tuple[str, str, float]], names: Sequence[str]) -> np.ndarray:
    """``w[i, j]``: the points ``names[i]`` scored against ``names[j]`` in ``results``."""
    idx = {n: i for i, n in enumerate(names)}
    w = np.zeros((len(names), len(names)))
    for a, b, s in results:
        w[idx[a], idx[b]] += s
        w[idx[b], idx[a]] += 1 - s
    return w


def bradley_terry_points(w: np.ndarray, prior: float = 0.5, iterations: int = 2000, tol: float = 1e-10) -> np.ndarray:
    """``bradley_terry`` from a table of points (``points_table``): the ratings in its order."""
    k = len(w)
    w = np.array(w, dtype=float)
    if prior:
        w += prior * (1 - np.eye(k))
    games = w + w.T
    wins = w.sum(axis=1)
    p = np.ones(k)
    for _ in range(iterations):
        denom = (games / (p[:, None] + p[None, :])).sum(axis=1)  # (games is 0 on the diagonal)
        new = np.where(denom > 0, wins / np.where(denom > 0, denom, 1), p)
        new = new / np.exp(np.mean(np.log(np.maximum(new, 1e-300))))
        if np.max(np.abs(np.log(np.maximum(new, 1e-300)) - np.log(np.maximum(p, 1e-300)))) < tol:
            p = new
            break
        p = new
    r = 400 * np.log10(np.maximum(p, 1e-300))
    return r - r.mean()


def elo_expected(rating_a: float, rating_b: float) -> float:
    """The expected score of a against b on the Elo scale."""
    return 1.0 / (1.0 + 10 ** ((rating_b - rating_a) / 400))


def samples_needed(sd: float, edge: float, alpha: float = 0.05, power: float = 0.8) -> float:
    """How many independent samples of standard deviation ``sd`` a two-sided test at level
    ``alpha`` needs to detect a mean of ``edge`` with probability ``power``:
    ``((z_{1-alpha/2} + z_power) sd / edge)^2`` (the normal approximation).

    >>> round(samples_needed(43.0, 2.5))   # KNOWLEDGE.md: about 2,300 rounds for a 2.5-point edge
    2322
    """
    if not edge or not math.isfinite(sd):
        return math.nan
    z = float(st.norm.ppf(1 - alpha / 2) + st.norm.ppf(power))
    return (z * sd / edge) ** 2


def variance_ratio(raw: Sequence[float], adjusted: Sequence[float], conf: float = 0.95, boot: int = 2000,
                   seed: int = 0) -> tuple[float, float, float]:
    """``var(raw) / var(adjusted)`` over paired samples (one per independent unit, say a duplicate
    deal), with a percentile bootstrap interval (units resampled in pairs): how many times fewer
    samples the adjusted measure needs for the same precision."""
    x = np.asarray(raw, dtype=float)
    y = np.asarray(adjusted, dtype=float)
    if x.shape != y.shape or x.ndim != 1:
        raise ValueError("raw and adjusted must be paired: one value of each per unit")
    n = len(x)
    if n < 3:
        return (math.nan, math.nan, math.nan)
    vy = float(y.var(ddof=1))
    ratio = float(x.var(ddof=1)) / vy if vy > 0 else math.inf
    rng = np.random.default_rng(seed)
    idx = rng.integers(0, n, size=(boot, n))
    bx = x[idx].var(axis=1, ddof=1)
    by = y[idx].var(axis=1, ddof=1)
    ok = by > 0
    ratios = bx[ok] / by[ok]
    if not len(ratios):
        return (ratio, math.nan, math.nan)
    lo, hi = np.quantile(ratios, [(1 - conf) / 2, (1 + conf) / 2])
    return (ratio, float(lo), float(hi))
