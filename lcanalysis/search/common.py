"""Input checks and the translation from positions to the searchers' kernel states."""

from __future__ import annotations

from functools import lru_cache
from typing import Any

import numpy as np

from lcanalysis.core import kernel as K
from lcanalysis.game.moves import Move

LEAF_AS_IS = 0
LEAF_SIMPLE = 1
LEAF_EVALUATOR = 2
MAX_STALLS = 31  # the key holds stall budgets -1..31
MAX_TL = 1000  # and horizons -1..1000


class SearchError(ValueError):
    """A question the endgame searcher cannot answer as asked; the message says why."""


# "heuristic" is the hand evaluator of lcanalysis.evaluator; "simple" a cruder count kept for comparison
LEAVES = {"as-is": LEAF_AS_IS, "heuristic": LEAF_EVALUATOR, "evaluator": LEAF_EVALUATOR, "simple": LEAF_SIMPLE}
LEAF_NAMES = {LEAF_AS_IS: "as-is", LEAF_EVALUATOR: "heuristic (hand evaluator)", LEAF_SIMPLE: "simple"}


def check_budget(name: str, value: Any, minimum: int, maximum: int) -> int | None:
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)):
        raise SearchError(f"{name} must be a whole number, got {value!r}")
    if value < minimum:
        raise SearchError(f"{name} must be at least {minimum}, got {value}")
    if value > maximum:
        raise SearchError(f"{name} must be at most {maximum}, got {value}")
    return int(value)


def check_bounds(max_stalls: Any, max_turns: Any, leaf: Any,
                 need_bound: bool = True) -> tuple[int | None, int | None, int]:
    """Validated (max_stalls, max_turns, leaf code)."""
    s = check_budget("max_stalls", max_stalls, 0, MAX_STALLS)
    t = check_budget("max_turns", max_turns, 1, MAX_TL)
    if leaf not in LEAVES:
        raise SearchError(f"leaf must be one of {', '.join(map(repr, LEAVES))}, got {leaf!r}")
    if need_bound and s is None and t is None:
        raise SearchError(
            "no bound: drawing from discard piles can go on forever, so give max_stalls (--max-stalls S: "
            "discard-pile draws left to each player), max_turns (--max-turns T: a horizon, scored as it "
            "stands), or both"
        )
    if LEAVES[leaf] != LEAF_AS_IS and t is None:
        raise SearchError("a heuristic leaf is applied at the horizon: give max_turns (--max-turns T) too")
    return s, t, LEAVES[leaf]


def check_state(state: np.ndarray) -> None:
    """Refuse a finished round."""
    if K.deck_left(state) <= 0:
        raise SearchError("the round is over (the draw pile is empty): there is no turn to value")


def bounds_dict(max_stalls: int | None, max_turns: int | None, leaf: str) -> dict[str, Any]:
    out: dict[str, Any] = {}
    if max_stalls is not None:
        out["max_stalls"] = max_stalls
    if max_turns is not None:
        out["max_turns"] = max_turns
        out["leaf"] = LEAF_NAMES[LEAVES[leaf]]
    return out


@lru_cache(maxsize=4)
def move_texts(colors: int) -> list[str]:
    """Every turn's notation for the kernel's move codes of a variant (made once)."""
    n = (2 * 10 * colors + 1) * (colors + 1)
    return [str(Move.from_code(code, colors)) for code in range(n)]


def move_text(code: int, colors: int) -> str:
    return move_texts(int(colors))[int(code)]
