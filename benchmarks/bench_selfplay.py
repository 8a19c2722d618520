"""Self-play speed: greedy against greedy, rounds per second, and the parallel runner's speed-up.

    python benchmarks/bench_selfplay.py [--deals 200] [--workers N]

Prints, measured in the same run:
- the compiled kernel loop (both policies inside numba, no Python per turn);
- the tournament runner in one process (agents see a View each turn, every turn checked);
- the tournament runner on a process pool of N workers (default: all cores), and its speed-up
  over the one-process run.
"""

from __future__ import annotations

import argparse
import os
import time

import numpy as np

from lcanalysis.core import policy as F
from lcanalysis.game.position import Position
from lcanalysis.game.rules import Rules
from lcanalysis.tournaments.runner import run_tournament


def kernel_rounds_per_second(rounds: int) -> float:
    kinds = np.array([1, 1], np.int64)
    deals = [Position.deal(i, Rules()).state.copy() for i in range(rounds)]
    s = deals[0].copy()
    F.self_play_round(s, kinds, F.GREEDY_PARAMS, F.GREEDY_PARAMS, 0)  # compile
    t0 = time.perf_counter()
    for i, d in enumerate(deals):
        s = d.copy()
        F.self_play_round(s, kinds, F.GREEDY_PARAMS, F.GREEDY_PARAMS, i)
    return rounds / (time.perf_counter() - t0)


def runner_rounds_per_second(deals: int, workers: int) -> float:
    agents = ["greedy", {"name": "greedy", "label": "greedy2"}]
    t0 = time.perf_counter()
    df = run_tournament(agents, deals=deals, executor="serial" if workers == 1 else None, workers=workers,
                        progress=False)
    return len(df) / (time.perf_counter() - t0)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--deals", type=int, default=200, help="duplicate deals per runner measurement (default 200)")
    ap.add_argument("--workers", type=int, default=os.cpu_count() or 1,
                    help=f"processes of the parallel run (default: the cores, {os.cpu_count() or 1} here)")
    args = ap.parse_args()
    if args.deals < 1 or args.workers < 1:
        ap.error(f"--deals and --workers must be at least 1, got {args.deals} and {args.workers}")
    runner_rounds_per_second(2, 1)  # warm up: compile and import
    k = kernel_rounds_per_second(20 * args.deals)
    one = runner_rounds_per_second(args.deals, 1)
    many = runner_rounds_per_second(args.deals, args.workers)
    print(f"greedy vs greedy, 5 colours, {2 * args.deals} rounds per runner measurement")
    print(f"  compiled kernel loop      : {k:10.0f} rounds/s")
    print(f"  runner, 1 process         : {one:10.1f} rounds/s")
    print(f"  runner, {args.workers} processes       : {many:10.1f} rounds/s")
    print(f"  parallel speed-up         : {many / one:10.2f}x on {args.workers} workers "
          f"({os.cpu_count()} cores on this machine)")


if __name__ == "__main__":
    main()
