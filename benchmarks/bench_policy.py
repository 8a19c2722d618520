"""The play-out policy's speed: placements scored once for all their draw sources, against the
move-by-move loop before it (``tests/policy_reference.py``), in the same process.

    python benchmarks/bench_policy.py [--rounds 3000] [--repeat 5]

Plays the same dealt rounds, the heuristic against the stalling policy, to the end with each
scorer (both compiled; the two give the same turns, which it checks), best of ``--repeat`` runs,
and prints the ratio reference seconds / today's seconds. It also prints how many play-outs a
CPU second the advisor's play-outs run (their count per second of budget is set from this).
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))

from policy_reference import reference_self_play

from lcanalysis.core import policy as P
from lcanalysis.game.position import Position
from lcanalysis.game.rules import Rules

KINDS = np.array([1, 1], np.int64)


def today(deals: list[np.ndarray]) -> list[np.ndarray]:
    out = []
    for d in deals:
        s = d.copy()
        P.self_play_round(s, KINDS, P.HEURISTIC_PARAMS, P.STALLING_PARAMS, 0)
        out.append(s)
    return out


def reference(deals: list[np.ndarray]) -> list[np.ndarray]:
    out = []
    for d in deals:
        s = d.copy()
        reference_self_play(s, P.HEURISTIC_PARAMS, P.STALLING_PARAMS)
        out.append(s)
    return out


def best_seconds(fn, deals: list[np.ndarray], repeat: int) -> float:
    times = []
    for _ in range(repeat):
        t = time.process_time()
        fn(deals)
        times.append(time.process_time() - t)
    return min(times)


def advisor_rate(positions: int) -> float:
    """Play-outs a CPU second of the advisor (hand model, draw streams) on the first views of the
    consistency study's set, the heuristic's best 8 turns each, 100 worlds."""
    from lcanalysis.rollouts import Rollouts, policy_ranking
    from lcanalysis.studies.consistency import study_positions

    views = [v for *_, v in study_positions(positions)]
    t = time.process_time()
    for v in views:
        codes, _ = policy_ranking(v)
        Rollouts(v, codes[:8], 1, hand_model=True, streams=True).sample(100)
    return positions * 8 * 100 / (time.process_time() - t)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rounds", type=int, default=3000, help="dealt rounds played to the end per run (default 3000)")
    ap.add_argument("--repeat", type=int, default=5, help="runs of each, the best kept (default 5)")
    ap.add_argument("--positions", type=int, default=20, help="views for the advisor's play-out rate (default 20)")
    args = ap.parse_args()
    deals = [Position.deal(i, Rules()).state.copy() for i in range(args.rounds)]
    today(deals[:2]), reference(deals[:2])  # compile both outside the clock
    if not all(np.array_equal(x, y) for x, y in zip(today(deals), reference(deals))):
        print("the two scorers ended a round differently: not the same policy", file=sys.stderr)
        return 1
    ref = best_seconds(reference, deals, args.repeat)
    new = best_seconds(today, deals, args.repeat)
    print(f"{args.rounds} rounds, heuristic vs stalling, best of {args.repeat}: move by move {ref:.3f} s, "
          f"by placement {new:.3f} s, ratio {ref / new:.2f}")
    advisor_rate(2)  # compile
    print(f"advisor play-outs: {advisor_rate(args.positions):,.0f} a CPU second "
          f"({args.positions} views, 8 turns x 100 worlds)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
