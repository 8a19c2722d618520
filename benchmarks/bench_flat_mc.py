"""The flat Monte Carlo play-outs' speed since they share their deal and each candidate's start
(``core.policy.deal_world``, ``core.policy.start_candidate``), against the loops before, which each
did it on their own (``tests/flat_mc_reference.py``), in the same process.

    python benchmarks/bench_flat_mc.py [--views 10] [--worlds 200] [--repeat 5]

On the first views of the consistency study's set, the heuristic's best 8 turns each played out in
``--worlds`` worlds: the advisor's play-outs (``flat_mc_weighted``: the hand model, draw streams), the
plain ones (``flat_mc``: a uniform deal, no streams) and the exact tail's (``search.tail.flat_mc_tail``,
tail 3, as the search agent's option plays them; a tenth of the worlds). Checks that each gives the
numbers of its reference, takes the best of ``--repeat`` runs of each, the two interleaved, and prints
the ratio reference seconds / today's seconds (1.00: no cost).
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))

from flat_mc_reference import reference_flat_mc, reference_flat_mc_tail, reference_flat_mc_weighted

from lcanalysis.core import policy as P
from lcanalysis.hand_model import hand_weights
from lcanalysis.rollouts import policy_ranking, view_state
from lcanalysis.search.perfect import ZOBRIST
from lcanalysis.search.tail import TailTables, flat_mc_tail

H = P.HEURISTIC_PARAMS


def cases(views: int) -> list[tuple]:
    from lcanalysis.studies.consistency import study_positions

    out = []
    for *_, v in study_positions(views):
        base, pool, unknown, opp = view_state(v)
        out.append((base, pool, unknown, opp, hand_weights(v), policy_ranking(v)[0][:8].copy()))
    return out


def runner(play, share: int = 1):
    """A run over the cases: ``play(base, pool, unknown, opp, w, cands, values)`` on each, in a ``share``-th
    of the worlds; returns every case's values."""
    def run(cs, worlds):
        got = []
        for *case, cands in cs:
            values = np.empty((len(cands), max(1, worlds // share)))
            play(*case, cands, values)
            got.append(values)
        return got
    return run


def advisor(weighted):
    return runner(lambda base, pool, unknown, opp, w, cands, values:
                  weighted(base, pool, unknown, opp, cands, 0, values.shape[1], 1, H, H, values, w, True))


def plain(flat):
    return runner(lambda base, pool, unknown, opp, w, cands, values:
                  flat(base, pool, unknown, opp, cands, 0, values.shape[1], 1, H, H, values, 1.0, False))


def tail(play):
    def one(base, pool, unknown, opp, w, cands, values):
        t = TailTables().tables
        play(base, pool, unknown, opp, cands, 0, values.shape[1], 1, H, values, w, True, 1.0, True, 3, 0,
             ZOBRIST, t.tt, t.so, t.buf, t.stats)
    return runner(one, share=10)


def best_of(runs: dict[str, object], cs: list[tuple], worlds: int, repeat: int) -> dict[str, float]:
    best = {name: float("inf") for name in runs}
    for _ in range(repeat):
        for name, fn in runs.items():  # interleaved: a slower stretch of the machine falls on both
            t = time.process_time()
            fn(cs, worlds)  # type: ignore[operator]
            best[name] = min(best[name], time.process_time() - t)
    return best


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--views", type=int, default=10, help="views of the consistency study's set (default 10)")
    ap.add_argument("--worlds", type=int, default=200, help="worlds each turn is played out in (default 200)")
    ap.add_argument("--repeat", type=int, default=5, help="runs of each, the best kept (default 5)")
    args = ap.parse_args()
    if min(args.views, args.worlds, args.repeat) < 1:
        ap.error(f"--views, --worlds and --repeat must be at least 1, got {args.views}, {args.worlds} and "
                 f"{args.repeat}")
    cs = cases(args.views)
    kinds = {
        "advisor's (flat_mc_weighted, hand model, streams)": (advisor(P.flat_mc_weighted),
                                                              advisor(reference_flat_mc_weighted)),
        "plain (flat_mc, uniform deal)": (plain(P.flat_mc), plain(reference_flat_mc)),
        "exact tail's (flat_mc_tail, tail 3)": (tail(flat_mc_tail), tail(reference_flat_mc_tail)),
    }
    for label, (today, reference) in kinds.items():
        if not all(np.array_equal(x, y) for x, y in zip(today(cs, 4), reference(cs, 4))):  # (compiles both too)
            print(f"{label}: today's numbers differ from the reference's", file=sys.stderr)
            return 1
        got = best_of({"today": today, "reference": reference}, cs, args.worlds, args.repeat)
        print(f"{label}: {args.views} views x 8 turns, best of {args.repeat}: before {got['reference']:.3f} s, "
              f"today {got['today']:.3f} s, ratio {got['reference'] / got['today']:.3f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
