"""Draw streams in the play-outs: how much noise they take out of the comparison of turns, at what cost.

For each of the first ``--positions`` views of the consistency set
(``studies.consistency.study_positions``: heuristic self-play, 8-30 turns in), the heuristic's
best ``--candidates`` turns are played out in ``--worlds`` shared worlds (opponent's cards from
the hand model, as the advisor deals them), once with one deck order per world and once with a
deck stream per player (``core.policy.stream_move``). Printed per view and in total:

- the variance of the per-world difference between each turn and the best one (what the
  advisor's losses and the search agent's caution rule are made of), plain over streams: how
  many times more worlds the plain play-outs need for the same standard error;
- the raw variance of a turn's outcome, plain over streams (the draws' chance law is the same,
  so this should stay near 1);
- the CPU seconds of the two, as a ratio measured in this process (plain first, then streams,
  per view, so both see the same machine load).

    python benchmarks/bench_streams.py --positions 30 --worlds 400
"""

from __future__ import annotations

import argparse
import time

import numpy as np

from lcanalysis.rollouts import Rollouts, policy_ranking
from lcanalysis.studies.consistency import study_positions


def measure(view, candidates: int, worlds: int, streams: bool, seed: int = 5) -> tuple[float, float, float]:
    """(summed variance of the differences from the best turn, mean raw variance, CPU seconds)."""
    codes, scores = policy_ranking(view)
    cands = codes[np.argsort(-scores, kind="stable")[:candidates]]
    r = Rollouts(view, cands, seed=seed, hand_model=True, streams=streams)
    c0 = time.process_time()
    r.sample(worlds)
    cpu = time.process_time() - c0
    x = np.array(r.samples)
    d = x - x[int(np.argmax(x.mean(axis=1)))]
    return float(d.var(axis=1, ddof=1).sum()), float(x.var(axis=1, ddof=1).mean()), cpu


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--positions", type=int, default=30, help="views of the consistency set (default 30)")
    ap.add_argument("--worlds", type=int, default=400, help="shared worlds each turn is played out in (default 400)")
    ap.add_argument("--candidates", type=int, default=8, help="the heuristic's best turns compared (default 8)")
    args = ap.parse_args()
    if args.positions < 1 or args.worlds < 2 or args.candidates < 2:  # a variance needs 2 worlds, a difference 2 turns
        ap.error(f"--positions must be at least 1, --worlds and --candidates at least 2; got {args.positions}, "
                 f"{args.worlds} and {args.candidates}")
    views = study_positions(args.positions)
    measure(views[0][3], 2, 8, False)  # compile both paths before timing
    measure(views[0][3], 2, 8, True)
    print(f"{'view':>4} {'cards':>5} {'paired var plain/streams':>25} {'raw var plain/streams':>22} "
          f"{'CPU streams/plain':>18}")
    totals = np.zeros((2, 3))
    for index, _, _, view in views:
        plain = measure(view, args.candidates, args.worlds, False)
        streamed = measure(view, args.candidates, args.worlds, True)
        totals += [plain, streamed]
        print(f"{index:>4} {view.deck_count:>5} {plain[0] / streamed[0]:>25.2f} {plain[1] / streamed[1]:>22.2f} "
              f"{streamed[2] / plain[2]:>18.2f}")
    print(f"all {len(views)} views: paired variance plain/streams {totals[0, 0] / totals[1, 0]:.2f}, raw variance "
          f"{totals[0, 1] / totals[1, 1]:.2f}, CPU streams/plain {totals[1, 2] / totals[0, 2]:.2f}")


if __name__ == "__main__":
    main()
