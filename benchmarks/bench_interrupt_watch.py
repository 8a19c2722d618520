"""What the Ctrl-C watch costs a search (``search.common.abort_at``): two-card endgames, each
solved (``lc.solve``, one stall each) and played by the search agent, timed with the watch and
with it replaced by nothing, in the same process; the best of ``--repeat`` runs each, and the
ratio (with / without; the machine is shared and noisy, the ratio is what to compare).

    python benchmarks/bench_interrupt_watch.py [--positions 12] [--repeat 3]

Measured when the watch started a thread and two pipes a search: ratio 1.22. With one watcher
thread for the process: 0.92 to 1.10 over six runs (noise).
"""

from __future__ import annotations

import argparse
import contextlib
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))


def main() -> int:
    from helpers import played_down

    import lcanalysis as lc
    from lcanalysis.agents import make_agent
    from lcanalysis.search import common

    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--positions", type=int, default=12, help="two-card views (seeds 0..N-1; default 12)")
    ap.add_argument("--repeat", type=int, default=3, help="runs of each kind; the best counts (default 3)")
    args = ap.parse_args()
    if args.positions < 1 or args.repeat < 1:
        ap.error("--positions and --repeat must be at least 1")
    positions = [played_down(seed, 2) for seed in range(args.positions)]
    views = [p.view(p.to_move) for p in positions]
    agent = make_agent("search")

    def run() -> float:
        t = time.perf_counter()
        for view in views:
            lc.solve(view, max_stalls=1)
            agent.choose(view, 0)
        return time.perf_counter() - t

    run()  # compiled code loaded, tables allocated
    watched = min(run() for _ in range(args.repeat))
    kept = common._interrupt_watch
    common._interrupt_watch = contextlib.nullcontext  # the baseline: no watch at all
    try:
        bare = min(run() for _ in range(args.repeat))
    finally:
        common._interrupt_watch = kept
    print(f"{args.positions} two-card views, solved and played: with the Ctrl-C watch {watched * 1e3:.1f} ms, "
          f"without {bare * 1e3:.1f} ms, ratio {watched / bare:.3f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
