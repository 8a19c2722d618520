"""How much noise does subtracting the deck draws' luck take out of a rollout?

A rollout (``lcanalysis.studies.rollout``) subtracts from each trial's result the luck of its deck
draws (``tournaments.luck``: zero on average, so the mean is unchanged). This plays ``--trials``
trials of the hint's ``--top`` best turns of ``--position`` with ``--agent`` in both seats and
prints, for each turn's value and for each turn's difference from the first, the variance of the
raw results over that of the luck-adjusted ones (``tournaments.stats.variance_ratio``, with a 95%
bootstrap interval over trials): how many times fewer trials the adjusted rollout needs for the same
standard error. Counts, not times: the same on any machine.

    python benchmarks/bench_rollout_luck.py --trials 300
"""

from __future__ import annotations

import argparse
import sys

import numpy as np


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--position", default="example:midround", help="the position (default example:midround)")
    ap.add_argument("--agent", default="heuristic", help="the agent in both seats (default heuristic)")
    ap.add_argument("--trials", type=int, default=300, help="trials (default 300)")
    ap.add_argument("--top", type=int, default=3, help="the hint's best turns rolled out (default 3)")
    args = ap.parse_args(argv)
    if args.trials < 3 or args.top < 2:
        ap.error(f"--trials must be at least 3 and --top at least 2, got {args.trials} and {args.top}")
    from lcanalysis.agents import make_agent
    from lcanalysis.game.notation import read_position
    from lcanalysis.studies.rollout import candidate_turns, play_trial
    from lcanalysis.tournaments.stats import variance_ratio

    source = read_position(args.position)
    turns = candidate_turns(source, None, args.top, 0)
    agent = make_agent(args.agent)
    played = [play_trial(source, turns, agent, i, 0) for i in range(args.trials)]
    raw = np.array([[row["result"] for row in trial] for trial in played], dtype=float)
    adjusted = raw - np.array([[row["luck"] for row in trial] for trial in played])
    print(f"{args.trials} trials of {args.position}'s {len(turns)} best turns by {args.agent}; variance raw / "
          "luck-adjusted [95% bootstrap over trials]:")
    for k, turn in enumerate(turns):
        r, lo, hi = variance_ratio(raw[:, k], adjusted[:, k])
        print(f"  value of {turn:<7}: {r:.2f} [{lo:.2f}, {hi:.2f}] (means {raw[:, k].mean():+.2f} raw, "
              f"{adjusted[:, k].mean():+.2f} adjusted)")
    for k in range(1, len(turns)):
        r, lo, hi = variance_ratio(raw[:, 0] - raw[:, k], adjusted[:, 0] - adjusted[:, k])
        print(f"  {turns[0]} less {turns[k]:<7}: {r:.2f} [{lo:.2f}, {hi:.2f}]")
    return 0


if __name__ == "__main__":
    sys.exit(main())
