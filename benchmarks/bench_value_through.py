"""Values through the best's worlds against each turn's own mean: how wide is each standard error?

    python benchmarks/bench_value_through.py --positions 40

The hint values a turn after the best through the best's worlds (``Rollouts.value_through``: the
best's mean minus the paired loss), so that its ``loss`` is exactly the best's value minus the
turn's, as docs/spec/interchange.md defines it. Both estimates have the same expectation; this
prints how their standard errors compare, turn by turn, on mid-round views (the heuristic agent
plays both seats of dealt rounds for 10 to 30 turns), at a counted budget of ``--time`` seconds
of play-outs (the same answer on any machine), played by ``--playout-policy`` (the advisor's default,
"staged", the stalling heuristic from 15 cards down; "plain" as before that default): the ratio of
the new error to the own mean's, in quantiles, overall and by how many worlds the turn was played in.
"""

from __future__ import annotations

import argparse

import numpy as np

from lcanalysis.studies.study_file import add_playout_policy_option


def views(positions: int):
    from lcanalysis.agents import make_agent
    from lcanalysis.game.position import Position

    agent = make_agent("heuristic")
    for seed in range(positions):
        pos = Position.deal(seed)
        for _ in range(10 + seed % 21):
            pos.push(agent.choose(pos.view(pos.to_move), seed))
        yield pos.view(pos.to_move)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--positions", type=int, default=40, help="mid-round views, dealt seeds 0..N-1 (default 40)")
    ap.add_argument("--time", type=float, default=1.0, help="the hint's budget in seconds, counted (default 1)")
    add_playout_policy_option(ap, recorded=False)
    args = ap.parse_args()
    import lcanalysis as lc

    ratio, worlds = [], []
    for view in views(args.positions):
        for m in lc.advise(view, time_budget=args.time, seed=0, playout_policy=args.playout_policy).moves[1:]:
            ratio.append(m.stderr / m.extra["own_stderr"])
            worlds.append(m.extra["worlds"])
    r, w = np.array(ratio), np.array(worlds)
    q = np.percentile(r, [10, 25, 50, 75, 90])
    print(f"{len(r)} turns after the best in {args.positions} views, {args.time:g} s of play-outs each")
    print("standard error through the best / own: quantiles 10/25/50/75/90% = " + " ".join(f"{x:.2f}" for x in q)
          + f"; wider in {(r > 1).mean():.0%} of the turns")
    for lo, hi in ((0, 100), (100, 400), (400, 10**9)):
        k = (w >= lo) & (w < hi)
        if k.any():
            print(f"  played in {lo}-{hi if hi < 10**9 else 'more'} worlds: {k.sum()} turns, median ratio "
                  f"{np.median(r[k]):.2f}")


if __name__ == "__main__":
    main()
