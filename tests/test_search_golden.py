"""The endgame search's exact values, bit for bit, on 124 questions at 2-4 cards left.

``tests/data/search_golden.json`` (written by ``scripts/record_search_golden.py``) holds every turn's
value, as ``float.hex``, of: full positions (``solve_perfect``) with two stalls each at 2 cards and one
at 3 and 4, views over every split (``solve_view``) with one stall each at 2 cards, and the advisor's
deepening (``endgame.converged_endgame`` up to two stalls each, the best turn exact, the others upper
bounds) at 2 and 3 cards; all on the played-down rounds of ``helpers.played_down``. These values are
exact, so a faster search must give the same numbers to the last bit (the exact ones; the upper
bounds of the deepening too, as long as the search walks the same tree). The values themselves are
checked against the brute-force reference in ``test_search_perfect.py`` (``search_reference``: every
root turn of random small endgames, stall budgets up to two each) and against each split solved
alone in ``test_search_view.py``; these questions are too large for the reference.

The recorded node counts pin the tree the search walks: a change meant only to make each node
cheaper keeps them. A change to the search itself (ordering, pruning, the tables) may change them
(re-record them then, after checking that the values did not move); never the exact values. (A view's
value is a weighted sum over its worlds, so grouping the worlds otherwise may move its last bit: when
splits that differ only in cards dead for both players became one world, every exact value stayed
within 1.5e-14 of the recorded one, and the file was re-recorded.)

The order of the turns is the answer's ranking (``analysis.ranked``): values that tie to rounding
(within ``analysis.TIE``) are ranked exact first, then in the canonical order of turns. The file was
recorded when ties kept the search's order (so ``-0x1.bffffffffffffp+3`` came before the same value
summed as ``-0x1.c000000000000p+3``): the recorded turns are ranked by that rule before comparing."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "scripts"))

from record_search_golden import answer  # noqa: E402

from lcanalysis.analysis import MoveValue, ranked  # noqa: E402

GOLDEN = json.loads((ROOT / "tests" / "data" / "search_golden.json").read_text())
QUICK = GOLDEN[::6]  # 21 questions of every kind, a few seconds; the slow run asks all 124


def _ranked(moves: list) -> list:
    """Recorded turns (move, value as float.hex, exact) in the order an answer ranks them; a turn not
    exact is an upper bound (the deepening's; the other questions have none)."""
    values = [MoveValue(m, float.fromhex(v), extra={} if e else {"bound": "upper"}) for m, v, e in moves]
    by_move = {m: [m, v, e] for m, v, e in moves}
    return [by_move[m.move] for m in ranked(values)]


def _check(row: dict, got: dict) -> None:
    where = f"{row['what']} with {row['deck']} card(s) left, {row['stalls']} stall(s) each, seed {row['seed']}"
    exact = {m: v for m, v, e in row["moves"] if e}
    got_exact = {m: v for m, v, e in got["moves"] if e}
    assert got_exact == exact, where  # every exact value, bit for bit (float.hex)
    assert got["nodes"] == row["nodes"], f"{where}: the search walked another tree"
    assert got["moves"] == _ranked(row["moves"]), where  # and so the same bounds, ranked by the rule for ties


@pytest.mark.parametrize("row", QUICK, ids=lambda r: f"{r['what']}-{r['deck']}-{r['stalls']}-{r['seed']}")
def test_the_exact_values_are_the_recorded_ones_bit_for_bit(row):
    _check(row, answer(row["what"], row["deck"], row["stalls"], row["seed"]))


@pytest.mark.slow
def test_every_recorded_question_gives_the_same_values_bit_for_bit():
    assert len(GOLDEN) >= 100
    for row in GOLDEN:
        _check(row, answer(row["what"], row["deck"], row["stalls"], row["seed"]))
