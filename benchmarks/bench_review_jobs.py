"""The bytes a review sends its worker processes (``review --workers N``): each turn's job as it is
pickled today (the view's history as kernel move codes, 2 bytes a turn, rebuilt in the worker)
against the job before (the history as one pickled ``Move`` object a turn), in the same process.

    python benchmarks/bench_review_jobs.py [--turns 1000 4000 10000]

Each record is a round that stalls on the discard piles to its turn cap (``bench_records``), both
players reviewed, so every turn is a job. For each record: the bytes of every job pickled both ways
(their sum: what a review on workers sends; and the last job's), the seconds this process spends
pickling them, and the ratios before / today. Each job pickled today must unpickle to the same view,
which it checks. (A job's history still grows with its turn, so the sum still grows with the square
of the record's length, ten times slower.)

Measured (a shared 2-core machine; sum of every job's bytes, last job's, pickling seconds):

| turns | before | today | ratio (sum / last / time) |
|---|---|---|---|
| 1,000 | 12.1 MB, last 22.7 KB, 0.9 s | 2.7 MB, last 3.7 KB, 0.1 s | 4.5 / 6.1 / 6.5 |
| 4,000 | 176.0 MB, last 87.0 KB, 13.9 s | 22.9 MB, last 9.8 KB, 0.8 s | 7.7 / 8.9 / 18.1 |
| 10,000 | 1,095.7 MB, last 218.0 KB, 70.8 s | 117.6 MB, last 21.8 KB, 2.1 s | 9.3 / 10.0 / 33.1 |

Since then ``Move.from_code`` hands out one shared object a move, so a history of ``Move``s pickles as
references to the few distinct ones, and "before" is nearly as small as today (2026-12-05,
``--turns 1000 4000``: 3.0 MB against 2.7 MB, 25.7 MB against 22.9 MB; x1.1 in bytes).
"""

from __future__ import annotations

import argparse
import dataclasses
import pickle
import sys
import time

from bench_records import stalling_round


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--turns", type=int, nargs="+", default=[1000, 4000, 10000],
                    help="turns of each stalling round (its turn cap), 2..10000 (default 1000 4000 10000)")
    args = ap.parse_args()
    if not all(2 <= n <= 10_000 for n in args.turns):
        ap.error("--turns must be 2..10000 each")
    from lcanalysis.game.records import record_round
    from lcanalysis.reviewer import run as R

    print("| turns | before | today | ratio (sum / last / time) |")
    print("|---|---|---|---|")
    for n in args.turns:
        start, end = stalling_round(n)
        rec = record_round(start, end.history)
        old = new = old_last = new_last = 0
        old_s = new_s = 0.0
        for job in R._jobs([rec], {0, 1}, 0.4, 0):
            t = time.perf_counter()
            today = pickle.dumps(job)
            new_s += time.perf_counter() - t
            before = dataclasses.replace(job, history_codes=None)  # the same job, its history sent whole
            t = time.perf_counter()
            whole = pickle.dumps(before)
            old_s += time.perf_counter() - t
            new, old, new_last, old_last = new + len(today), old + len(whole), len(today), len(whole)
            if job.index % 997 == 0 or job.index == len(rec) - 1:  # the worker's view is the job's
                back = pickle.loads(today)
                if back.view != job.view or back.view.history != job.view.history:
                    print(f"{n} turns: turn {job.index}'s view differs once sent", file=sys.stderr)
                    return 1
        print(f"| {len(rec):,} | {old / 1e6:,.1f} MB, last {old_last / 1e3:.1f} KB, {old_s:.1f} s "
              f"| {new / 1e6:,.1f} MB, last {new_last / 1e3:.1f} KB, {new_s:.1f} s "
              f"| {old / new:.1f} / {old_last / new_last:.1f} / {old_s / new_s:.1f} |", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
