"""Estimates with their uncertainty: a sample mean with its standard error, and a table of them."""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from lcanalysis.clusters import cluster_totals, ratio_stderr

# --- a study's arguments ----------------------------------------------------------------------


def whole_argument(where: str, name: str, value: Any, minimum: int = 0, maximum: int | None = None) -> int:
    """``value`` when it is a whole number ``minimum`` or more (and ``maximum`` or less, if given); else a
    ValueError naming the study function and the argument (a negative count gave an empty study, a
    float a bare TypeError, a negative seed a refusal naming the derived deal seed, not the one given,
    and 10**11 deals a list of them that filled the memory before the first was played)."""
    from lcanalysis.game.cards import whole_number

    v = whole_number(value)
    if v is None or v < minimum:
        raise ValueError(f"{where}: {name} must be a whole number, {minimum} or more, got {value!r}")
    if maximum is not None and v > maximum:
        raise ValueError(f"{where}: {name} must be at most {maximum:,}, got {value!r}")
    return v


def study_table(where: str, table: Any, columns: Sequence[str], made_by: str) -> Any:
    """``table`` when it is a table (a pandas DataFrame) with ``columns``; else a ValueError naming
    the function, what is wrong and the function whose rows it reads (another study's table, or a
    file's path, met a bare KeyError or TypeError)."""
    import pandas as pd

    if not isinstance(table, pd.DataFrame):
        raise ValueError(f"{where}: needs the table {made_by} returns (a pandas DataFrame, or pd.read_csv of the "
                         f"file it wrote), got {type(table).__name__} {table!r:.60}")
    missing = [c for c in columns if c not in table.columns]
    if missing:
        names = ("columns " if len(missing) > 1 else "column ") + ", ".join(map(repr, missing))
        raise ValueError(f"{where}: the table has no {names}: it reads the rows of "
                         f"{made_by}, and this table's columns are {', '.join(map(str, table.columns))}")
    return table


# --- estimates with their uncertainty ----------------------------------------------------------


def target_verdict(low: float, high: float, target: tuple[float, float]) -> str:
    """Where a 95% interval lies against a target range: inside it, outside it, or across its edge."""
    if target[0] <= low and high <= target[1]:
        return "met (the whole 95% interval is inside)"
    if high < target[0] or low > target[1]:
        return "not met (the whole 95% interval is outside)"
    return "undecided (the 95% interval crosses the target's edge)"


def t_interval(mean: float, stderr: float, df: int, conf: float = 0.95) -> tuple[float, float]:
    """``mean`` ± Student's t quantile (``df`` degrees of freedom) × ``stderr``: the interval of a mean
    of ``df + 1`` independent samples (for 5 samples, ± 2.78 s.e. at 95%, where ± 1.96 would be too
    narrow). NaN at both ends when ``df`` is below 1 or ``stderr`` is NaN: one sample says nothing of
    its spread."""
    if not df >= 1 or math.isnan(stderr):
        return (math.nan, math.nan)
    from scipy import stats  # (imported here: most users of this module never draw an interval)

    half = float(stats.t.ppf(0.5 + conf / 2, df)) * stderr
    return (mean - half, mean + half)


def welch_t(se_a: float, n_a: int, se_b: float, n_b: int, conf: float = 0.95) -> tuple[float, float, float]:
    """A difference of two independent means, ``se_a`` the standard error of one over ``n_a`` samples and
    ``se_b`` of the other over ``n_b``: (its standard error, its Welch-Satterthwaite degrees of freedom, the
    half width of its ``conf`` Student's t interval). With no spread on either side, or under two samples on
    one, the degrees of freedom and the width are NaN: no interval, where a width of 0 would claim the
    difference exact."""
    se = math.hypot(se_a, se_b)
    if n_a < 2 or n_b < 2 or not math.isfinite(se) or se == 0:
        return se, math.nan, math.nan
    va, vb = se_a**2, se_b**2
    dof = (va + vb) ** 2 / (va**2 / (n_a - 1) + vb**2 / (n_b - 1))
    from scipy import stats  # (imported here, as in t_interval)

    return se, dof, float(stats.t.ppf(0.5 + conf / 2, dof)) * se


@dataclass(frozen=True)
class Estimate:
    """A sample mean with its standard error and sample size; ``interval``: its 95% interval when
    that is not Student's t with ``n`` - 1 degrees of freedom (a share's: Wilson's; a tournament's
    score difference: Student's t over its deals; a ratio's: t over its clusters; a fitted line's
    coefficient: t with ``n`` - 2)."""

    mean: float
    stderr: float
    n: int
    interval: tuple[float, float] | None = None

    @classmethod
    def of(cls, values: Iterable[float]) -> Estimate:
        x = np.asarray(list(values) if not isinstance(values, np.ndarray) else values, dtype=float)
        if x.size == 0:
            return cls(math.nan, math.nan, 0)
        se = float(x.std(ddof=1) / math.sqrt(x.size)) if x.size > 1 else math.nan
        return cls(float(x.mean()), se, int(x.size))

    @classmethod
    def score_difference(cls, summary: Any) -> Estimate:
        """A tournament's mean score difference a round as an estimate, from one row of
        ``tournaments.runner.summarize`` (or an entry of ``lcanalysis tournament --json``'s
        ``"summary"``): its standard error over deals, ``n`` the deals, and the interval the
        tournament printed, Student's t over deals (kept as printed, so a chart draws the very
        interval the tournament's table gave)."""
        keys = ("mean_diff", "diff_stderr", "units", "diff_low", "diff_high")
        missing = [k for k in keys if k not in summary]
        if missing:
            raise ValueError(f"Estimate.score_difference: the summary has no {', '.join(map(repr, missing))}: give "
                             f"a row of summarize(load_results(FILE)) or an entry of 'lcanalysis tournament --json''s "
                             f"\"summary\"")
        return cls(float(summary["mean_diff"]), float(summary["diff_stderr"]), int(summary["units"]),
                   (float(summary["diff_low"]), float(summary["diff_high"])))

    @classmethod
    def proportion(cls, hits: Iterable[bool], units: Iterable[Any] | None = None) -> Estimate:
        """The share of ``hits``. Independent hits: the binomial standard error and Wilson's
        interval. ``units``: each hit's unit, when hits of one unit are not independent (the two
        playings of a duplicate deal): the share is still over the hits, but each unit's share is
        one sample, ``n`` counts the units, the standard error is that of the units' shares and the
        interval ``tournaments.stats.unit_rate_interval``'s."""
        x = np.asarray(list(hits) if not isinstance(hits, np.ndarray) else hits, dtype=float)
        if x.size == 0:
            return cls(math.nan, math.nan, 0)
        from lcanalysis.tournaments.stats import unit_means, unit_rate_interval, wilson_interval

        p = float(x.mean())
        if units is None:
            n = int(x.size)
            low, high = wilson_interval(float(x.sum()), n)
            se = math.sqrt(max(p * (1 - p), 0.0) / n)
        else:
            keys = list(units)
            low, high = unit_rate_interval(x, keys)
            means = unit_means(x, keys)
            n = len(means)
            se = float(means.std(ddof=1) / math.sqrt(n)) if n > 1 else 0.0
        if se == 0.0:  # a spread of 0 claims certainty from a sample (p at 0 or 1, or no unit varies):
            se = (high - low) / (2 * 1.96)  # say the uncertainty of the interval instead
        return cls(p, se, n, (low, high))

    @property
    def ci95(self) -> tuple[float, float]:
        """The 95% interval: ``interval`` when given (Wilson's for a share: it stays inside 0-1 and is
        not empty at 0 or 1 hits), else Student's t with ``n`` - 1 degrees of freedom, the mean of ``n``
        independent samples (mean ± 2.78 s.e. for 5 samples, ± 1.96 in the limit; NaN for one)."""
        if self.interval is not None:
            return self.interval
        return t_interval(self.mean, self.stderr, self.n - 1)

    def __str__(self) -> str:
        return f"{self.mean:+.2f} ± {self.stderr:.2f} (n={self.n})"

    def __format__(self, spec: str) -> str:
        if not spec:
            return str(self)
        return f"{format(self.mean, spec)} ± {format(self.stderr, spec.lstrip('+'))}"


def ratio_estimate(totals: np.ndarray, counts: np.ndarray) -> Estimate:
    """sum(totals) / sum(counts) with the standard error of a ratio estimator over clusters, ``totals``
    and ``counts`` one entry a cluster (one cluster a round: the decisions of a round, the expeditions of a
    simulated round, are not independent; ``lcanalysis.clusters.ratio_stderr``). ``n`` is the items counted
    (decisions, draws, expeditions); the 95% interval is Student's t over the clusters, the independent
    samples."""
    r, se = ratio_stderr(totals, counts)
    return Estimate(r, se, int(counts.sum()), t_interval(r, se, len(totals) - 1))


def clustered_mean(values: Sequence[float] | np.ndarray, clusters: Sequence[Any] | np.ndarray) -> Estimate:
    """The mean of ``values`` (one an item) whose ``clusters`` (one label an item) are the independent samples
    (the expeditions of one simulated round, the decisions or views of one deal): ``ratio_estimate`` over the
    clusters' sums and counts, its interval Student's t over the clusters."""
    return ratio_estimate(*cluster_totals(values, clusters))


def estimates_frame(estimates: dict[str, Estimate], digits: int = 3) -> Any:
    """A table of named estimates: mean, standard error, 95% interval (``Estimate.ci95``: Student's t
    for a mean, Wilson's for a share), sample size."""
    import pandas as pd

    def shown(x: float) -> float:  # rounded, and a value that rounds to zero from below is 0, not -0
        return round(x, digits) + 0.0

    return pd.DataFrame([{"quantity": k, "estimate": shown(e.mean), "s.e.": shown(e.stderr),
                          "95% low": shown(e.ci95[0]), "95% high": shown(e.ci95[1]), "n": e.n}
                         for k, e in estimates.items()]).set_index("quantity")
