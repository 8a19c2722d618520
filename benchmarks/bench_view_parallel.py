"""Benchmark of the view value's split loop on threads: ``solve_view(view, max_stalls=0)`` serial
against ``workers=2``, same process, same positions.

Run:  python benchmarks/bench_view_parallel.py                           (d = 6 and 7 cards left)
      python benchmarks/bench_view_parallel.py --max-stalls 1 --sizes 3   (heavier splits)

Positions: those of ``bench_search.py`` (``played_down(seed, d)``, its five seeds). Each time
is the best of 3 runs (``--repeat``), every run from empty tables (``fresh_tables``; the extra
workers' tables are new on every call). The values of every turn are checked equal (1e-9).
Serial and parallel runs alternate. Prints per position the serial and parallel seconds,
serial / parallel, the parallel run's nodes over the serial run's (the threads share one table,
so near 1; which thread proves an entry first varies) and its cores (CPU seconds of the process
per wall second: near 1 when the threads did not run at once, because another job held the other core or the GIL-bound
Python part of each split dominated); per size and overall the median ratio and the ratio
of the summed seconds. Wall time: on a shared machine, expect less than the number of workers.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))

from bench_search import SEEDS, fresh_tables
from helpers import played_down

from lcanalysis.search import solve_view


def timed(view, stalls, workers):
    fresh_tables()
    t0, c0 = time.perf_counter(), time.process_time()
    a = solve_view(view, max_stalls=stalls, workers=workers)
    return a, time.perf_counter() - t0, time.process_time() - c0


def best_of(view, stalls, workers, repeat):
    """Serial and parallel runs alternate, so a load that comes and goes hits both alike;
    the best (least disturbed) of each, and the parallel run's CPU seconds per wall second."""
    ser, par = [], []
    for _ in range(repeat):
        ser.append(timed(view, stalls, None))
        par.append(timed(view, stalls, workers))
    a, ts, _ = min(ser, key=lambda r: r[1])
    b, tp, cp = min(par, key=lambda r: r[1])
    return a, ts, b, tp, cp / tp


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--sizes", type=int, nargs="+", default=[6, 7], help="cards left in the draw pile (default 6 7)")
    ap.add_argument("--workers", type=int, default=2, help="threads of the parallel run (default 2)")
    ap.add_argument("--repeat", type=int, default=3, help="runs of each, the best counts (default 3)")
    ap.add_argument("--max-stalls", type=int, default=0, help="stalls each in the search (default 0)")
    args = ap.parse_args()
    for name in ("repeat", "workers"):
        if getattr(args, name) < 1:  # after the compiling, a traceback
            ap.error(f"--{name} must be at least 1, got {getattr(args, name)}")
    if min(args.sizes) < 1 or args.max_stalls < 0:
        ap.error(f"--sizes must be at least 1 card and --max-stalls at least 0, got {args.sizes} and {args.max_stalls}")
    warm = played_down(1, 3).view()  # compile (or load the cached code) before timing
    solve_view(warm, max_stalls=0)
    solve_view(warm, max_stalls=0, workers=args.workers)
    print(f"{'size':>4}{'seed':>6}{'splits':>8}{'serial s':>10}{f'{args.workers} workers s':>14}"
          f"{'ratio':>8}{'nodes':>8}{'cores':>7}")
    all_ratios, all_serial, all_par = [], 0.0, 0.0
    for d in args.sizes:
        ratios, ser_sum, par_sum = [], 0.0, 0.0
        for seed in SEEDS:
            view = played_down(seed, d).view()
            a, ts, b, tp, cores = best_of(view, args.max_stalls, args.workers, args.repeat)
            want = {m.move: m.value for m in a.moves}
            assert all(abs(m.value - want[m.move]) < 1e-9 for m in b.moves), "serial and parallel disagree"
            ratios.append(ts / tp)
            ser_sum += ts
            par_sum += tp
            print(f"{d:>4}{seed:>6}{a.splits:>8}{ts:>10.3f}{tp:>14.3f}{ts / tp:>7.2f}x{b.nodes / a.nodes:>7.2f}x"
                  f"{cores:>7.2f}", flush=True)
        print(f"{d:>4}  median ratio {statistics.median(ratios):.2f}x, summed seconds {ser_sum:.3f} / {par_sum:.3f}"
              f" = {ser_sum / par_sum:.2f}x")
        all_ratios += ratios
        all_serial += ser_sum
        all_par += par_sum
    print(f"all   median ratio {statistics.median(all_ratios):.2f}x (min {min(all_ratios):.2f}x, "
          f"max {max(all_ratios):.2f}x), summed seconds {all_serial / all_par:.2f}x")


if __name__ == "__main__":
    main()
