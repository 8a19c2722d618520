"""The hint on a full position (both hands known) near the end: the endgame search or the play-outs?

    python benchmarks/bench_full_position_hint.py [--decks 5 6] [--positions 8]

For each played-down position (``tests/helpers.played_down(seed, d)``, seeds 0..N-1) the full
position is advised twice at the library's default budget (counted, so the same on any machine):
with the endgame search from ``d`` cards (``endgame_cards=d``) and by play-outs alone
(``endgame_cards=0``). It prints what the search reached (the stall budget each, converged or not,
or the play-outs when not even one stall each fitted) and, where the search answered, the loss of
the play-outs' pick by the search's exact values under that stall budget, then a line a deck size:
how often one stall each was reached and how often the play-outs' pick lost more than half a point.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))

from helpers import played_down

import lcanalysis as lc


def one(seed: int, deck: int) -> dict:
    pos = played_down(seed, deck)
    t = time.process_time()
    search = lc.advise(pos, endgame_cards=deck)
    cpu = time.process_time() - t
    plays = lc.advise(pos, endgame_cards=0)
    pick = plays.moves[0].move
    reached = search.bounds.get("max_stalls")
    row = {"seed": seed, "deck": deck, "stalls": reached, "converged": search.bounds.get("converged"),
           "search_best": search.moves[0].move, "playouts_best": pick, "cpu": cpu, "loss": None}
    if reached is not None:
        values = {m.move: m for m in search.moves}
        m = values[pick]
        row["loss"] = (search.moves[0].value - m.value, m.upper_bound)
    return row


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--decks", type=int, nargs="+", default=[5, 6], help="cards left in the draw pile (default 5 6)")
    ap.add_argument("--positions", type=int, default=8, help="played-down positions a deck size (default 8)")
    args = ap.parse_args()
    for deck in args.decks:
        rows = []
        for seed in range(args.positions):
            r = one(seed, deck)
            rows.append(r)
            if r["loss"] is None:
                what = "play-outs (not even one stall each fitted)"
            else:
                loss, bound = r["loss"]
                what = (f"{r['stalls']} stall(s) each, {'converged' if r['converged'] else 'not converged'}; "
                        f"the play-outs' pick {r['playouts_best']} loses {'at least ' if bound else ''}{loss:.1f} "
                        f"against {r['search_best']}")
            print(f"{deck} cards, seed {seed}: {what} ({r['cpu']:.1f} CPU s)", flush=True)
        searched = [r for r in rows if r["loss"] is not None]
        worse = sum(1 for r in searched if r["loss"][0] > 0.5)
        print(f"{deck} cards: one stall each reached in {len(searched)} of {len(rows)}; the play-outs' pick lost "
              f"more than half a point by the search's values in {worse} of those {len(searched)}\n", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
