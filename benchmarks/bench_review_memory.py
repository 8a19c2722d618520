"""The game review's own memory and time on long records: today's review (each turn's view and
job built when it is judged, then dropped; on an executor a few turns out at once) against the
review before it (every turn's view and job built first and kept to the end, every job handed to
the executor at once), in the same process.

    python benchmarks/bench_review_memory.py [--turns 1000 4000 10000] [--workers 1] [--judge]

Each record is a round that stalls on the discard piles to its turn cap (``bench_records``), both
players reviewed. By default a turn is judged by a stand-in that costs nothing and keeps nothing of
the turn (``judged_cheaply``): judging a turn costs the same both ways and keeps nothing either
way, so what is measured is what changed, the review's keeping of turns; ``--judge`` judges for
real (0.01 s a decision: a 10,000-turn record then takes minutes each way). ``--workers N`` (N > 1)
hands the turns to a process pool of N workers. Prints, for each record and each way, the peak
memory the review allocated in this process (tracemalloc, beyond the record itself) and its wall
seconds (a separate run, without tracemalloc), and the ratios before / today. Both ways must give
the same decisions, which it checks.

Measured (a shared 2-core machine, the stand-in, serial; peak MB / wall s):

| turns | before | today | ratio (memory / time) |
|---|---|---|---|
| 1,000 | 9.7 MB / 0.8 s | 2.8 MB / 0.8 s | 3.4 / 0.9 |
| 4,000 | 89.2 MB / 4.1 s | 11.0 MB / 3.5 s | 8.1 / 1.2 |
| 10,000 | 473.6 MB / 28.7 s | 27.4 MB / 18.3 s | 17.3 / 1.6 |

With ``--workers 2`` (the machine loaded, 8 processes running on its 2 cores): 1,000 turns 12.2 MB /
3.7 s before, 4.7 MB / 0.5 s today; 4,000 turns 99.8 MB / 128 s before, 18.9 MB / 4.0 s today. The
time before goes on pickling each turn's history to the workers, one ``Move`` object a turn; today's
jobs carry it as move codes, 2 bytes a turn (``bench_review_jobs.py``; with one ``Move`` a turn
today's review took 7.6 s and 150 s here too). Judging for real (``--workers 2 --judge``), 1,000 turns:
14.2 MB / 63 s before, 6.6 MB / 45 s today with one ``Move`` a turn; with move codes, another time,
14.2 MB / 15.0 s before, 6.7 MB / 26.1 s today. The seconds are one run each on the loaded machine
and swing by half: today's review run alternately with and without move codes in one process took
23 and 33 s with them, 36 and 43 s without.
"""

from __future__ import annotations

import argparse
import sys
import time
import tracemalloc
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from typing import Any

from bench_records import stalling_round

TIME = 0.01  # seconds a decision with --judge


def judged_cheaply(job: Any) -> dict[str, Any]:
    """A stand-in for judging a turn (``reviewer.run.review_turn``) that costs nothing and keeps
    nothing of the job: a forced decision with loss 0, and luck 0 for a draw the record knows."""
    out: dict[str, Any] = {"round": job.round, "index": job.index, "player": job.player, "played": job.played,
                           "deck": job.view.deck_count, "analysed": job.analyse, "seconds": 0.0}
    if job.analyse:
        out.update(best=job.played, advisor_best=job.played, loss=0.0, loss_stderr=0.0, forced=True, exact=True,
                   method="stand-in", legal=1, value_best=0.0, value_best_stderr=0.0, value_played=0.0,
                   value_played_stderr=0.0, reference=job.played, value_reference=None, value_reference_stderr=None,
                   gain_vs_reference=None, gain_vs_reference_stderr=None, alternatives=[], worlds=0,
                   advisor_rollouts=0)
    if job.drawn is not None:
        out.update(drawn=job.drawn, luck=0.0, luck_stderr=0.0, luck_worlds=0, value_before_draw=0.0,
                   value_after_draw=0.0)
    return out


def review_before(rec: Any, time_budget: float, judge: Callable[[Any], dict[str, Any]], workers: int) -> Any:
    """The review before: every job and every view built first (the replay of the whole record),
    kept to the end; on a pool, every job submitted at once."""
    from lcanalysis.game.position import Position
    from lcanalysis.reviewer import run as R

    jobs, views = [], {}
    reviewed = {0, 1}
    for step in rec.steps():
        before = step.before
        view = before.view(step.player) if isinstance(before, Position) else before
        drawn = str(step.drawn) if step.drawn is not None else None
        pile = list(before.deck) if isinstance(before, Position) else None
        jobs.append(R.Job(1, step.index, step.player, view, str(step.turn.move), drawn, time_budget, 0,
                           step.player in reviewed, pile, R.SEARCH_FLOOR))
        views[(1, step.index)] = view
    results = [judge(jobs[0])]
    if workers == 1:
        results += [judge(job) for job in jobs[1:]]
    else:
        with ProcessPoolExecutor(workers) as ex:
            results += [f.result() for f in [ex.submit(judge, job) for job in jobs[1:]]]
    return R._assemble([rec], results, reviewed, time_budget, 0, 0.0, workers, "a round", None), views


def review_today(rec: Any, time_budget: float, workers: int) -> Any:
    from lcanalysis.reviewer import run as R

    return R.review(rec, time_budget=time_budget, seed=0, workers=workers,
                    executor="serial" if workers == 1 else None, progress=False)


def measured(fn: Callable[[], Any]) -> tuple[float, float, Any]:
    """(peak MB allocated beyond what was held before, wall seconds, the answer): the seconds from
    a run of its own, without tracemalloc (which slows Python down several times)."""
    t = time.perf_counter()
    out = fn()
    seconds = time.perf_counter() - t
    del out
    tracemalloc.start()
    try:
        base = tracemalloc.get_traced_memory()[0]
        out = fn()
        peak = tracemalloc.get_traced_memory()[1] - base
    finally:
        tracemalloc.stop()
    return peak / 1e6, seconds, out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--turns", type=int, nargs="+", default=[1000, 4000, 10000],
                    help="turns of each stalling round (its turn cap), 2..10000 (default 1000 4000 10000)")
    ap.add_argument("--workers", type=int, default=1,
                    help="1: judge in this process; more: a process pool of that many (default 1)")
    ap.add_argument("--judge", action="store_true",
                    help=f"judge each turn for real ({TIME:g} s a decision) instead of the stand-in (default: off)")
    args = ap.parse_args()
    if not all(2 <= n <= 10_000 for n in args.turns) or not 1 <= args.workers <= 64:
        ap.error("--turns must be 2..10000 each and --workers 1..64")
    from lcanalysis.game.records import record_round
    from lcanalysis.reviewer import run as R

    judge = R.review_turn if args.judge else judged_cheaply
    R.review_turn = judge  # today's review judges with the same function as the one before
    how = f"for real, {TIME:g} s a decision" if args.judge else "the stand-in"
    where = "serial" if args.workers == 1 else f"{args.workers} worker processes"
    print(f"judging: {how}; {where}")
    print("| turns | before | today | ratio (memory / time) |")
    print("|---|---|---|---|")
    for n in args.turns:
        start, end = stalling_round(n)
        rec = record_round(start, end.history)
        old_mb, old_s, (old, _views) = measured(lambda: review_before(rec, TIME, judge, args.workers))  # noqa: B023
        new_mb, new_s, new = measured(lambda: review_today(rec, TIME, args.workers))  # noqa: B023
        strip = ("seconds",)
        if [{k: v for k, v in d.items() if k not in strip} for d in old.to_json()["decisions"]] != \
                [{k: v for k, v in d.items() if k not in strip} for d in new.to_json()["decisions"]]:
            print(f"{n} turns: the two reviews differ", file=sys.stderr)
            return 1
        print(f"| {len(rec):,} | {old_mb:.1f} MB / {old_s:.1f} s | {new_mb:.1f} MB / {new_s:.1f} s | "
              f"{old_mb / new_mb:.1f} / {old_s / new_s:.1f} |", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
