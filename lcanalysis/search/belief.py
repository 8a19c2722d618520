"""The belief-optimal value (E3): the best a player can do with what they actually know,
when nobody draws from a discard pile any more.

With no more discard-pile draws, turn ``t`` draws the ``t``-th card of the pile whatever
anyone plays, and a player's final score depends only on their own placements and the cards
they draw. From the viewer's side the cards they will draw are a uniformly random ordered
sample of the unseen cards (the opponent's unknown cards and the pile together), so their
problem is a one-player expectimax: place a card, draw a uniformly random unseen card, place
again, ... for as many turns as they have left (``ceil(d / 2)`` of the ``d`` remaining turns
when they move first). The opponent's score does not depend on the viewer's turns.

The belief-optimal value of a turn is the viewer's **expected final round score** (their own
score, not a difference) when they play that turn and then play optimally given only their
own draws. It ignores what the opponent's later placements might reveal. Only turns that
draw from the draw pile are valued.
"""

from __future__ import annotations

import time
from typing import Any

import numpy as np
from numba import njit

from lcanalysis.analysis import Analysis, MoveValue
from lcanalysis.core import first_compile
from lcanalysis.core.features import turns_left
from lcanalysis.core.kernel import RANKS, fits_on, lay_card
from lcanalysis.game.cards import number_types
from lcanalysis.game.notation import read_position
from lcanalysis.search.common import SearchError, check_budget, check_max_nodes, move_text
from lcanalysis.search.perfect import (
    SOLO_DRAW,
    ZOBRIST,
    SearchBudgetExceeded,
    _solo,
    _solo_score,
    shared_tables,
)
from lcanalysis.search.view_value import check_mover_view


@njit(cache=True)
def _belief_root(hand, w, mask, unseen, placements, draw_step, nc, Z, so, stats, out_place,
                 out_vals):
    """Values of each placement (or of the draw alone in the draw step)."""
    nt = RANKS * nc
    left = 0
    for t in range(nt):
        left += unseen[t]
    k = 0
    if draw_step:
        # the placement is made: draw, then ``placements`` more turns of mine
        total = 0.0
        if placements == 0 or left == 0:
            total = _solo_score(w, mask, nc)
        else:
            total = _solo(hand, w, mask, unseen, np.int64(left), np.int64(SOLO_DRAW), np.int64(0),
                          np.int64(placements), np.int64(nc), -np.inf, Z, so, stats)
        out_place[0] = -1
        out_vals[0] = total
        return 1
    for t in range(nt):
        if hand[t] <= 0:
            continue
        playable = fits_on(mask[t // RANKS], t % RANKS)
        for d in range(2):
            if d == 0 and not playable:
                continue
            lay_card(hand, 0, w, 0, mask, 0, t * 2 + d, 1)
            if placements <= 1 or left == 0:
                x = _solo_score(w, mask, nc)
            else:
                x = _solo(hand, w, mask, unseen, np.int64(left), np.int64(SOLO_DRAW), np.int64(0),
                          np.int64(placements - 1), np.int64(nc), -np.inf, Z, so, stats)
            lay_card(hand, 0, w, 0, mask, 0, t * 2 + d, -1)
            out_place[k] = t * 2 + d
            out_vals[k] = x
            k += 1
    return k


def my_placements(deck: int, draw_step: bool, max_turns: int | None) -> int:
    """How many more cards the player to move places (this turn's included in the place step)."""
    d = deck if max_turns is None else min(deck, max_turns)
    if draw_step:
        return turns_left(d - 1, False)  # this turn's draw takes the first card, then the opponent moves
    return turns_left(d, True)


def solve_belief(target, max_turns=None, *, tables=None, max_nodes=0):
    """Every draw-pile turn's belief-optimal value (E3) for the player to move: the points of their
    own expected final score (not a difference), exact; an ``Analysis``.

    ``target``: a View of the player to move, or a full Position (read as the mover's view,
    so the opponent's hand counts as unseen except for the cards known to be there).
    ``max_turns``: optional horizon (the round is scored as it stands after that many turns).
    ``max_nodes`` (0: none) caps the search (``SearchBudgetExceeded`` when reached).
    """
    from lcanalysis.game.position import Position
    from lcanalysis.game.view import View

    v = read_position(target)
    if isinstance(v, Position):
        if v.is_over():
            raise SearchError(f"the round is over ({v.over_reason()}): there is no turn to value")
        v = v.view(v.to_move)
    if not isinstance(v, View):
        raise SearchError("solve_belief needs a position or a player's view")
    t_ = check_budget("max_turns", max_turns, 1, 1000)
    max_nodes = check_max_nodes(max_nodes)  # (-1 and "100" were searched with no budget, 1.5 and True with 1 node)
    check_mover_view(v)  # the mover's own view, of a round not over
    # after the checks: a bad argument is refused at once, not after a first compile of 1-2 minutes
    first_compile.ready(first_compile.SOLVER)  # (compiled once, saying so: core.first_compile)
    nc = v.rules.colors
    nt = number_types(nc)
    hand = np.zeros(nt, dtype=np.int32)
    for card in v.hand:
        hand[card.type] += 1
    w = np.zeros(nc, dtype=np.int32)
    mask = np.zeros(nc, dtype=np.int32)
    for c in range(nc):
        for card in v.expeditions[v.viewer][c]:
            if card.is_wager:
                w[c] += 1
            else:
                mask[c] |= 1 << (card.rank - 1)
    unseen = np.array(v.unseen_counts(), dtype=np.int32)
    draw_step = v.phase == "draw"
    k = my_placements(v.deck_count, draw_step, t_)
    if tables is None:
        tables = shared_tables(4, min(22, max(12, 8 + v.deck_count)))
    tables.reset(max_nodes)
    out_place = np.zeros(2 * nt + 1, dtype=np.int32)
    out_vals = np.zeros(2 * nt + 1, dtype=np.float64)
    t0 = time.perf_counter()
    n = _belief_root(hand, w, mask, unseen, k, draw_step, nc, ZOBRIST, tables.so, tables.stats,
                     out_place, out_vals)
    seconds = time.perf_counter() - t0
    if tables.stats[3]:
        tables.clear()
        raise SearchBudgetExceeded(int(tables.stats[1]))
    base = nc + 1
    moves = []
    for i in range(n):
        place = int(out_place[i])
        code = (2 * nt if place < 0 else place) * base  # draw from the draw pile
        moves.append(MoveValue(move_text(code, nc), float(out_vals[i]), 0.0, True))
    bounds: dict[str, Any] = {"max_stalls": 0}
    if t_ is not None:
        bounds["max_turns"] = t_
        bounds["leaf"] = "as-is"
    return Analysis(
        moves=moves,
        kind="belief-optimal value",
        exact=True,
        bounds=bounds,
        nodes=int(tables.stats[1]),
        seconds=seconds,
        method=f"one-player expectimax over the unseen cards ({k} placements left to the player to move)",
        notes=[("value = expected final round score of the player to move (their own score, not a difference); "
                "nobody draws from a discard pile; only the player's own draws are observed")],
    )
