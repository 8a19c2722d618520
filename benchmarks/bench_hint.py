"""The hint's speed and the stability of its ranking.

Speed: wall time of ``advise`` at the default budget (1 s) on mid-round views, against the
budget itself (the ratio should stay near 1 on an idle core).

Stability: on a fixed set of positions (the heuristic agent plays both seats from dealt rounds
for 8 to 30 turns), is the default-budget top turn the top turn of a reference run with
``--reference`` times the budget (20 by default), or within the reference's error of it (the
reference's paired loss of that turn at most two standard errors)? Prints the share and the mean
loss against the reference, with a 95% interval. The published figure, resumable and on worker
processes, is ``python -m lcanalysis.studies.consistency`` (the same positions).

    python benchmarks/bench_hint.py [--positions 50] [--reference 20] [--budget 1.0]
"""

from __future__ import annotations

import argparse
import math
import statistics
import sys
import time

import lcanalysis as lc
from lcanalysis.studies.consistency import study_positions


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--positions", type=int, default=50, help="fixed positions to compare on (default 50)")
    ap.add_argument("--reference", type=float, default=20.0,
                    help="the reference's budget, in multiples of --budget (default 20)")
    ap.add_argument("--budget", type=float, default=1.0, help="the hint's budget in seconds (default 1)")
    args = ap.parse_args()
    views = [f[3] for f in study_positions(args.positions)]
    lc.advise(views[0], time_budget=0.05)  # compiled before timing
    same, losses, walls = 0, [], []
    for i, view in enumerate(views):
        t0 = time.perf_counter()
        hint = lc.advise(view, time_budget=args.budget, seed=1, wall_clock=True)
        walls.append(time.perf_counter() - t0)
        ref = lc.advise(view, time_budget=args.budget * args.reference, seed=2)
        by_move = {m.move: m for m in ref.moves}
        mine = by_move[hint.best.move]
        ok = mine.loss == 0 or mine.loss <= 2 * (mine.loss_stderr or 0)
        same += ok
        losses.append(mine.loss)
        print(f"{i:3d} deck {view.deck_count:2d}  hint {hint.best.move:<8} ref {ref.best.move:<8} "
              f"loss {mine.loss:5.2f} ± {mine.loss_stderr:4.2f}  {'ok' if ok else 'DIFFERENT'}  "
              f"{walls[-1]:.2f} s", flush=True)
    n = len(views)
    p = same / n
    half = 1.96 * math.sqrt(max(p * (1 - p), 1e-12) / n)
    m = statistics.fmean(losses)
    se = statistics.stdev(losses) / math.sqrt(n) if n > 1 else 0.0
    print(f"top turn equals the {args.reference:g}x reference's or lies within its error: {same}/{n} = {p:.2f} "
          f"[{max(0, p - half):.2f}, {min(1, p + half):.2f}]")
    print(f"mean loss against the reference: {m:.2f} ± {1.96 * se:.2f} points (95%)")
    print(f"hint wall time at {args.budget:g} s: median {statistics.median(walls):.2f} s, max {max(walls):.2f} s "
          f"(ratio to the budget {statistics.median(walls) / args.budget:.2f})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
