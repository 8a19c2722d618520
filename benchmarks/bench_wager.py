"""Wager calculations per second against a straightforward enumeration measured in the same run.

    python benchmarks/bench_wager.py          # about half a minute; no options

The straightforward way: list every k-subset of the unseen cards (itertools.combinations),
score each final expedition, and tally the distribution for every number of wagers. The
library's way: a hypergeometric law on the live cards times subset-sum counts (``wager.analyze``),
or the closed-form mean alone (``wager.mean_score``, compiled ``evaluate.colour_mean``). Also
times the hand evaluator on kernel states and the generation of the ``data/`` tables.
"""

from __future__ import annotations

import argparse
import itertools
import math
import sys
import tempfile
import time
from pathlib import Path

import numpy as np
from numba import njit

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from lcanalysis.evaluator import colour_mean, evaluate_state
from lcanalysis.game.position import Position
from lcanalysis.studies import wager_tables as tables
from lcanalysis.wagers.canonical import ColorState, analyze, expedition_score_values, mean_score


def enumerate_straight(hand, hand_wagers, unseen_total, k):
    """Every k-subset of the unseen cards, scored, for every number of wagers."""
    unseen = [v for v in range(2, 11) if v not in hand]
    pool = unseen + [None] * (unseen_total - len(unseen))
    dists: list[dict[int, int]] = [{} for _ in range(hand_wagers + 1)]
    n = 0
    for sub in itertools.combinations(range(len(pool)), k):
        nums = list(hand) + [pool[i] for i in sub if pool[i] is not None]
        n += 1
        for j in range(hand_wagers + 1):
            s = expedition_score_values(j, nums)
            dists[j][s] = dists[j].get(s, 0) + 1
    return [{s: c / n for s, c in d.items()} for d in dists], n


def rate(fn, min_time=0.5):
    """Calls per second of ``fn()`` (repeats until ``min_time`` has passed)."""
    fn()
    n = 0
    t = time.perf_counter()
    while True:
        fn()
        n += 1
        el = time.perf_counter() - t
        if el >= min_time:
            return n / el


@njit(cache=True)
def _many_colour_means(reps, hm, um, u, k):
    acc = 0.0
    for i in range(reps):
        acc += colour_mean(0, 0, i % 4, hm, um, u, k)
    return acc


@njit(cache=True)
def _many_evaluations(s, reps):
    out = np.empty(s[0])
    acc = 0.0
    for i in range(reps):
        acc += evaluate_state(s, i & 1, -1, out)
    return acc


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.parse_args()  # no options: --help says what it does, anything else is refused
    hand, hw = (5, 7), 2
    enumerate_straight(hand, hw, 10, 3)  # the first call pays for imports and compiled scoring: not timed
    print("Wager calculator: one colour, the full distribution for 0..2 wagers")
    print(f"{'case':<26}{'subsets':>12}{'enumerate/s':>14}{'exact/s':>11}{'float/s':>11}{'mean/s':>11}"
          f"{'float vs enum':>15}")
    for u, k in ((14, 5), (18, 7), (22, 9)):
        state = ColorState.make(hand=hand, hand_wagers=hw, unseen_total=u)
        t = time.perf_counter()
        brute, n = enumerate_straight(hand, hw, u, k)
        enum_rate = 1 / (time.perf_counter() - t)
        got = analyze(state, k, exact=False)
        for j, d in enumerate(brute):  # same answer, or the timing means nothing
            assert all(abs(got.outcome(j).distribution[s] - p) < 1e-12 for s, p in d.items())
        exact_rate = rate(lambda state=state, k=k: analyze(state, k, exact=True))
        float_rate = rate(lambda state=state, k=k: analyze(state, k, exact=False))
        mean_rate = rate(lambda state=state, k=k: [mean_score(state, k, j) for j in range(hw + 1)])
        print(f"U={u}, k={k:<20}{n:>12,}{enum_rate:>14.2f}{exact_rate:>11.0f}{float_rate:>11.0f}{mean_rate:>11.0f}"
              f"{float_rate / enum_rate:>14.0f}x")
    u, k = 52, 21
    state = ColorState.make(hand=hand, hand_wagers=hw, unseen_total=u)
    subsets = math.comb(u, k)
    per_subset = 1 / (enum_rate * n)
    float_rate = rate(lambda: analyze(state, k, exact=False))
    exact_rate = rate(lambda: analyze(state, k, exact=True))
    print(f"U=52, k=21 (start of round): {subsets:.3g} subsets; enumeration would take about "
          f"{subsets * per_subset / 86400 / 365:.3g} years at the rate above; exact {exact_rate:.0f}/s, "
          f"float {float_rate:.0f}/s")

    hm = (1 << 3) | (1 << 5)
    um = 511 & ~hm
    _many_colour_means(10, hm, um, 52, 21)
    reps = 2_000_000
    t = time.perf_counter()
    _many_colour_means(reps, hm, um, 52, 21)
    per = (time.perf_counter() - t) / reps
    print(f"compiled closed-form mean (evaluate.colour_mean): {1 / per:,.0f} per second")

    pos = Position.deal(seed=1)
    s = pos.state
    _many_evaluations(s, 10)
    reps = 200_000
    t = time.perf_counter()
    _many_evaluations(s, reps)
    per = (time.perf_counter() - t) / reps
    out = np.empty(5)
    py_rate = rate(lambda: evaluate_state(s, 0, -1, out))
    print(f"hand evaluator (evaluate_state, 5 colours) inside compiled code: {1 / per:,.0f} per second; "
          f"called from Python: {py_rate:,.0f} per second")

    print("Tables (canonical columns, exact):")
    for name, fn in (("breakeven_by_count (22 draws x 10 counts, 11,264 distributions)", tables.breakeven_by_count),
                     ("breakeven_by_holding (511 holdings x 6 draws)", tables.breakeven_by_holding),
                     ("ev_by_wagers, canonical only", lambda: tables.ev_by_wagers(turns=False)),
                     ("min_holding, canonical only", lambda: tables.min_holding(turn_draws=()))):
        t = time.perf_counter()
        fn()
        print(f"  {name}: {time.perf_counter() - t:.2f} s")
    t = time.perf_counter()
    with tempfile.TemporaryDirectory(prefix="lcanalysis_bench_tables") as folder:  # not a fixed path in /tmp
        tables.write_tables(folder)
    print(f"  all four tables with the turn-model columns (Monte Carlo): {time.perf_counter() - t:.1f} s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
