"""Record the exact endgame values (and the nodes searched) that tests/test_search_golden.py pins.

Each value is stored as ``float.hex`` (bit for bit): the solver's values are exact, so a faster
search must give the very same numbers. Run it on the code whose answers are the reference, and only
when the values are meant to change (never, for an exact solver) or the tree the search walks is:

    PYTHONPATH=. python scripts/record_search_golden.py > tests/data/search_golden.json
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

from helpers import played_down

from lcanalysis.search import solve_perfect, solve_view
from lcanalysis.search.endgame import converged_endgame
from lcanalysis.search.perfect import Tables

#: (what, cards left in the draw pile, stall budget each, played_down seeds): 124 questions at 2-4 cards
CASES = [
    ("perfect", 2, 2, range(40)),
    ("perfect", 3, 1, range(40)),
    ("perfect", 4, 1, range(20)),
    ("view", 2, 1, range(16)),
    ("endgame", 3, 2, (0, 5, 11, 15)),
    ("endgame", 2, 2, (1, 3, 6, 9)),
]


def answer(what: str, deck: int, stalls: int, seed: int) -> dict:
    """One question's turns (move, value as float.hex, exact) in the answer's order, and its nodes."""
    pos = played_down(seed, deck)
    if what == "perfect":
        a = solve_perfect(pos, max_stalls=stalls, tables=Tables(20, 16))
    elif what == "view":
        a = solve_view(pos.view(pos.to_move), max_stalls=stalls, tables=Tables(20, 18))
    else:
        a = converged_endgame(pos.view(pos.to_move), 100_000_000, runner_ups=False, max_stalls=stalls)
    return {"what": what, "deck": deck, "stalls": stalls, "seed": seed, "nodes": int(a.nodes),
            "moves": [[m.move, float(m.value).hex(), bool(m.exact)] for m in a.moves]}


def main() -> int:
    rows = [answer(what, deck, stalls, seed) for what, deck, stalls, seeds in CASES for seed in seeds]
    sys.stdout.write("[\n" + ",\n".join(json.dumps(r, separators=(",", ":")) for r in rows) + "\n]\n")  # a line each
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
