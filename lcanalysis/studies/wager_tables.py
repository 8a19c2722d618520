"""Tables a strategy writer can cite, regenerated into ``data/`` by one command.

    lcanalysis studies wager-tables            # writes data/wager_*.csv (about 20 seconds, a progress bar)
    lcanalysis studies wager-tables --out DIR  # somewhere else

Every table is the canonical wager model (``wager.py``), exact (no sampling), for one colour
of the 5-colour game from one player's view, the colour's expedition still empty, and these
stated conventions:

- ``draws`` is the player's useful draws ``k``; the unseen cards then number ``U = 2k + 10``:
  with ``k`` useful draws the player has ``k + 1`` turns, the draw pile about ``2k + 2`` cards,
  and the opponent holds 8 unknown cards. At the deal (44 cards, player to move) ``k = 21`` and
  ``U = 52``, exactly the start of a round.
- every number of the colour not held is unseen (none discarded or on the opponent's side yet);
- ``held`` are the numbers of the colour in hand; wagers are placed now or never.

Each CSV starts with ``#`` comment lines naming the command that regenerates it and the
model; read it with ``pandas.read_csv(path, comment="#")``.

Tables:

``wager_breakeven_by_count.csv``
    P(score >= 0) and P(score > 0) with no wager, by the count of numbers held and the draws,
    averaged over every holding of that many numbers (each equally likely), and the mean.
``wager_breakeven_by_holding.csv``
    The same chances for each of the 511 holdings, at selected draws.
``wager_ev_by_wagers.csv``
    The mean score with 0, 1, 2, 3 wagers by the count and sum of the numbers held (the mean
    depends on nothing else), at selected draws, and the best number of wagers; beside it the
    turn model's means (``turns_mean_wJ``, Monte Carlo, each with its standard error ``turns_stderr_wJ``).
``wager_min_holding.csv``
    The minimum holding worth opening: for each count of numbers held and draws, the smallest sum
    of the held numbers at which opening pays (mean >= 0), and at which a 1st, 2nd, 3rd wager
    adds to the mean; ``min_sum_open_turns`` the same under the turn model, with the turn model's
    mean at that sum (best number of wagers) and its standard error (``turns_mean_at_min_sum``,
    ``turns_stderr_at_min_sum``: how far above 0 the estimate that decided it lies).

The canonical columns are exact. The ``turns_*`` columns are the turn-counting model of
``wager_models.py`` (hold and start late, the colour gets a third of the player's ``draws + 1``
turns), by Monte Carlo with 2,000 draw orders per holding and a fixed seed, so a rerun gives the
same file.
"""

from __future__ import annotations

import itertools
import math
import os
import time
from collections.abc import Callable

import pandas as pd

from lcanalysis.wagers.canonical import ColorState, analyze, mean_score, round_unseen
from lcanalysis.wagers.models import turn_model

COMMAND = "lcanalysis studies wager-tables"
SELECTED_DRAWS = (0, 3, 6, 10, 15, 21)
ALL_DRAWS = tuple(range(22))
TURN_SHARE = 1 / 3  # the turn-model columns: the colour gets a third of the player's turns
TURN_SAMPLES = 2000


def _turn_means(h, k: int, seed: int = 0):
    """Turn-model means (late policy, share 1/3, k + 1 turns) for 0..3 wagers and their standard errors;
    NaN for more wagers than turns (each wager takes a turn, so the model cannot place them)."""
    st = ColorState.make(hand=h, hand_wagers=3, unseen_total=unseen_for(k))
    r = turn_model(st, k + 1, share=TURN_SHARE, n=TURN_SAMPLES, seed=seed, progress=False)
    means, errors = [math.nan] * 4, [math.nan] * 4
    for o in r.by_wagers:
        means[o.wagers], errors[o.wagers] = float(o.mean), o.stderr
    return means, errors


def _bar(items, progress: bool, what: str = "holding sizes", unit: str = "size"):
    """``items``, with a progress bar on standard error when ``progress``."""
    from lcanalysis.progress import progress_bar

    return progress_bar(items, desc=what, unit=unit, progress=progress, leave=False)  # inner bars: gone when done


def unseen_for(draws: int) -> int:
    """The unseen cards the tables assume for ``draws`` useful draws: ``2 * draws + 10``
    (``wagers.canonical.round_unseen``, which ``break_even_draws(..., unseen="round")`` uses too)."""
    return round_unseen(draws)


def holdings(count: int | None = None):
    """Every set of numbers of one colour (face values), optionally of one size."""
    values = range(2, 11)
    sizes = range(10) if count is None else [count]
    for n in sizes:
        yield from itertools.combinations(values, n)


def breakeven_by_count(draws=ALL_DRAWS, progress: bool = False) -> pd.DataFrame:
    rows = []
    for n in _bar(range(10), progress):
        hs = list(holdings(n))
        for k in draws:
            u = unseen_for(k)
            pb = pp = mean = 0.0
            for h in hs:
                o = analyze(ColorState.make(hand=h, unseen_total=u), k, exact=False).outcome(0)
                pb += o.p_break_even
                pp += o.p_positive
                mean += o.mean
            rows.append({"held_count": n, "draws": k, "unseen": u, "holdings": len(hs),
                         "p_break_even": pb / len(hs), "p_positive": pp / len(hs), "mean": mean / len(hs)})
    return pd.DataFrame(rows)


def breakeven_by_holding(draws=SELECTED_DRAWS, progress: bool = False) -> pd.DataFrame:
    rows = []
    for h in _bar(list(holdings()), progress, "holdings", "holding"):
        if not h:
            continue
        row = {"held": " ".join(map(str, h)), "held_count": len(h), "held_sum": sum(h)}
        for k in draws:
            o = analyze(ColorState.make(hand=h, unseen_total=unseen_for(k)), k, exact=False).outcome(0)
            row[f"p_break_even_d{k}"] = o.p_break_even
        for k in draws:
            o = analyze(ColorState.make(hand=h, unseen_total=unseen_for(k)), k, exact=False).outcome(0)
            row[f"mean_d{k}"] = o.mean
        rows.append(row)
    return pd.DataFrame(rows)


def _representative(n: int, total: int) -> tuple[int, ...]:
    """The first holding of ``n`` numbers summing to ``total`` (the canonical mean depends on no more)."""
    for h in holdings(n):
        if sum(h) == total:
            return h
    raise ValueError(f"no holding of {n} numbers sums to {total}")


def ev_by_wagers(draws=SELECTED_DRAWS, turns: bool = True, progress: bool = False) -> pd.DataFrame:
    """The canonical mean depends on the held numbers only through their count and sum (closed form).

    With ``turns``: also the turn model (late policy, a third of the turns, ``k + 1`` turns),
    averaged over every holding of that count and sum (Monte Carlo: ``turns_mean_wJ``, each with
    its standard error ``turns_stderr_wJ``; both empty for more wagers than turns).
    """
    rows = []
    for n in _bar(range(10), progress):
        sums = sorted({sum(h) for h in holdings(n)})
        for total in sums:
            h = _representative(n, total)
            for k in draws:
                st = ColorState.make(hand=h, hand_wagers=3, unseen_total=unseen_for(k))
                means = [mean_score(st, k, j) for j in range(4)]
                best = max(range(4), key=lambda j: (round(means[j], 9), -j))
                row = {"held_count": n, "held_sum": total, "draws": k,
                       **{f"mean_w{j}": means[j] for j in range(4)}, "best_wagers": best}
                if turns:
                    group = [h2 for h2 in holdings(n) if sum(h2) == total]
                    tm = [0.0] * 4
                    var = [0.0] * 4
                    for i, h2 in enumerate(group):
                        m, se = _turn_means(h2, k, seed=i)
                        for j in range(4):
                            tm[j] += m[j] / len(group)
                            var[j] += (se[j] / len(group)) ** 2
                    for j in range(4):
                        row[f"turns_mean_w{j}"] = tm[j]
                    for j in range(4):
                        row[f"turns_stderr_w{j}"] = var[j] ** 0.5  # (NaN with its mean)
                    placeable = [j for j in range(4) if not math.isnan(tm[j])]  # (NaN: more wagers than turns)
                    row["turns_best_wagers"] = max(placeable, key=lambda j: (round(tm[j], 9), -j))
                rows.append(row)
    return pd.DataFrame(rows)


def min_holding(draws=ALL_DRAWS, turn_draws=SELECTED_DRAWS, progress: bool = False) -> pd.DataFrame:
    """Smallest sum of ``held_count`` numbers at which opening pays, by draws.

    Canonical columns (exact): ``min_sum_open`` (mean >= 0 with no wager) and ``min_sum_wagerJ``
    (the J-th wager raises the mean and the mean is >= 0). ``min_sum_open_turns`` (at
    ``turn_draws`` only): the same under the turn model (late policy, a third of the turns),
    averaged over the holdings of that sum, best number of wagers, Monte Carlo; beside it that
    estimated mean at the sum found, ``turns_mean_at_min_sum``, and its standard error,
    ``turns_stderr_at_min_sum`` (empty when no sum pays).
    """
    rows = []
    for n in _bar(range(1, 10), progress):
        sums = sorted({sum(h) for h in holdings(n)})
        for k in draws:
            row = {"held_count": n, "draws": k, "unseen": unseen_for(k)}
            for label, j in (("open", 0), ("wager1", 1), ("wager2", 2), ("wager3", 3)):
                found = None
                for total in sums:
                    st = ColorState.make(hand=_representative(n, total), hand_wagers=3, unseen_total=unseen_for(k))
                    if j == 0:
                        ok = mean_score(st, k, 0) >= 0
                    else:
                        ok = mean_score(st, k, j) > mean_score(st, k, j - 1) and mean_score(st, k, j) >= 0
                    if ok:
                        found = total
                        break
                row[f"min_sum_{label}"] = found
            found, at, error = None, math.nan, math.nan
            if k in turn_draws:
                for total in sums:
                    group = [h for h in holdings(n) if sum(h) == total]
                    made = [_turn_means(h, k, seed=i) for i, h in enumerate(group)]
                    # each number of wagers the turns allow: the mean over the holdings, its standard error
                    # (the holdings' draw orders independent: their seeds differ)
                    best, best_se = max(((sum(m[j] for m, _ in made) / len(group),
                                          sum(se[j] ** 2 for _, se in made) ** 0.5 / len(group))
                                         for j in range(4) if not math.isnan(made[0][0][j])),  # (NaN: too few turns)
                                        key=lambda mean_se: mean_se[0])
                    if best >= 0:
                        found, at, error = total, best, best_se
                        break
            row["min_sum_open_turns"] = found
            row["turns_mean_at_min_sum"], row["turns_stderr_at_min_sum"] = at, error
            rows.append(row)
    out = pd.DataFrame(rows)
    for c in ("min_sum_open", "min_sum_wager1", "min_sum_wager2", "min_sum_wager3", "min_sum_open_turns"):
        out[c] = out[c].astype("Int64")
    return out


#: file name: (the function that makes the table, what it holds)
TABLES: dict[str, tuple[Callable[..., pd.DataFrame], str]] = {
    "wager_breakeven_by_count.csv": (breakeven_by_count,
                                     ("P(score>=0), P(score>0) and mean with no wager, by numbers held and "
                                      "useful draws, averaged over holdings")),
    "wager_breakeven_by_holding.csv": (breakeven_by_holding,
                                       "P(score>=0) and mean with no wager for every holding, at selected draws"),
    "wager_ev_by_wagers.csv": (ev_by_wagers, "mean score with 0..3 wagers by count and sum of numbers held"),
    "wager_min_holding.csv": (min_holding,
                              ("smallest sum of the held numbers at which opening (mean>=0) and each wager "
                               "(raises the mean, mean>=0) pay")),
}


def write_tables(out_dir: str = "data", names=None, file=None) -> dict[str, float]:
    """Write every table (or ``names``) into ``out_dir``; return the seconds each took."""
    os.makedirs(out_dir, exist_ok=True)
    timings = {}
    for name, (fn, what) in TABLES.items():
        if names and name not in names:
            continue
        path = os.path.join(out_dir, name)
        if file is not None:  # a table takes up to several seconds: say which one is being made
            print(f"{path}: computing ...", file=file, flush=True)
        t = time.perf_counter()
        df = fn(progress=file is not None)
        timings[name] = time.perf_counter() - t
        turns = any(c.startswith("turns_") or c.endswith("_turns") for c in df.columns)
        with open(path, "w", newline="") as f:
            f.write(f"# {what}\n")
            f.write(f"# regenerate: {COMMAND} (lcanalysis.studies.wager_tables.{fn.__name__}); "
                    + ("canonical wager model, exact, but the turn model's columns\n" if turns else
                       "canonical wager model, exact\n"))
            f.write("# one colour, 5 colours, empty expedition, unseen = 2*draws + 10, no wager unless named;\n")
            if turns:
                f.write("# turns_* and *_turns columns: turn model, late policy, a third of draws+1 turns, Monte Carlo "
                        "2000/holding: estimates, each mean with its standard error (turns_stderr_*); empty: more "
                        "wagers than turns (each takes one)\n")
            df.to_csv(f, index=False, float_format="%.6f")
        if file is not None:
            print(f"{path}: {len(df)} rows in {timings[name]:.2f} s", file=file)
    return timings
