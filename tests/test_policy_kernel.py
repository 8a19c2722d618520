"""The play-out policy scores each placement once for all of its draw sources: it must give the
very scores, to the bit, of the move-by-move loop it replaced (``tests/policy_reference.py``),
so every agent, hint and published measurement plays the same turns."""

from __future__ import annotations

import numpy as np
import pytest
from policy_reference import reference_scores, reference_self_play

from lcanalysis.core import kernel as K
from lcanalysis.core import policy as P
from lcanalysis.game.position import Position
from lcanalysis.game.rules import Rules

PARAMS = {"heuristic": P.HEURISTIC_PARAMS, "stalling": P.STALLING_PARAMS, "greedy": P.GREEDY_PARAMS}


def scores_of(fn, s, params):
    moves = np.empty(K.MAX_MOVES, np.int32)
    scores = np.empty(K.MAX_MOVES, np.float64)
    n = fn(s, params, moves, scores)
    return moves[:n].copy(), scores[:n].copy()


@pytest.mark.parametrize("rules", [Rules(), Rules(colors=6), Rules(no_redraw=False)], ids=["5c", "6c", "redraw"])
@pytest.mark.parametrize("name", sorted(PARAMS))
def test_scores_equal_the_move_by_move_loop_at_every_turn(rules, name):
    """Rounds played half by the policy and half at random (odd tables too: wagers late, piles
    deep, the draw step after a discard); every turn's scores compared exactly."""
    params = PARAMS[name]
    rng = np.random.default_rng(7)
    compared = 0
    for deal in range(6):
        s = Position.deal(deal, rules).state.copy()
        while not K.is_over(s):
            got = scores_of(P.policy_scores, s, params)
            want = scores_of(reference_scores, s, params)
            assert np.array_equal(got[0], want[0])
            assert np.array_equal(got[1], want[1]), f"deal {deal}, turn {s[K.H_TURN]}"
            compared += 1
            moves = got[0]
            m = moves[int(np.argmax(got[1]))] if rng.random() < 0.5 else moves[rng.integers(len(moves))]
            K.apply_move(s, int(m))
    assert compared > 150


@pytest.mark.parametrize("deal", range(4))
def test_play_outs_end_where_the_reference_policy_ends(deal):
    """Whole rounds of the heuristic against the stalling policy: the same final table."""
    s = Position.deal(deal, Rules()).state.copy()
    ref = s.copy()
    kinds = np.array([1, 1], np.int64)
    turns = P.self_play_round(s, kinds, P.HEURISTIC_PARAMS, P.STALLING_PARAMS, 0)
    assert reference_self_play(ref, P.HEURISTIC_PARAMS, P.STALLING_PARAMS) == turns
    assert np.array_equal(s, ref)
