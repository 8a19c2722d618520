"""The heuristic policy's turn scores computed move by move: the reference for the play-out
kernel's tests and benchmark (``tests/test_policy_kernel.py``, ``benchmarks/bench_policy.py``).

``core.policy.policy_scores`` scores the part of a turn that places a card once for all of its
draw sources (``gen_moves`` lists them together). This is the loop as it was before that
(commit 0ca6406): the same formula for every move on its own, so the two must agree to the bit.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from lcanalysis.core import features as F
from lcanalysis.core import kernel as K
from lcanalysis.core import policy as P


@njit(cache=True)
def reference_scores(s, params, moves, scores):
    """``policy.policy_scores`` as it was before its moves were scored by placement: every
    move's score computed on its own. Returns the number of turns."""
    n = K.gen_moves(s, moves)
    if n == 0:
        return 0
    nc = s[K.H_NC]
    p = s[K.H_TO_MOVE]
    base = nc + 1
    block = np.empty((F.N_FEATURES, nc), np.int64)
    unseen = F.colour_features(s, p, block)
    hmask, hw, emask, ew, omask, ow, umask, ptop = block
    my_turns = F.turns_left(K.deck_left(s), True)
    base_v = np.zeros(nc, np.float64)
    a, q = P._pressured_values(hmask, hw, emask, ew, umask, unseen, my_turns, params, base_v)
    b = params[P.P_B]
    # what one more turn is worth to a crowded hand: a discard-pile draw leaves the deck as it is
    turn_gain = 0.0
    if params[P.P_TURN] > 0.0 and a < params[P.P_A]:
        more = np.zeros(nc, np.float64)
        P._pressured_values(hmask, hw, emask, ew, umask, unseen, my_turns + 1, params, more)
        for c in range(nc):
            turn_gain += more[c] - base_v[c]
        turn_gain = params[P.P_TURN] * max(turn_gain, 0.0)
    # value of a card drawn from a discard pile, per colour, for the current tops
    pile_gain = np.zeros(nc, np.float64)
    for c in range(nc):
        t = ptop[c]
        if t < 0:
            continue
        if t == 0:
            g = P.heuristic_colour_estimate(ew[c], emask[c], hmask[c], hw[c] + 1, umask[c], a, q, b) - base_v[c]
        else:
            g = P.heuristic_colour_estimate(ew[c], emask[c], hmask[c] | (1 << (t - 1)), hw[c], umask[c], a, q,
                                          b) - base_v[c]
        if g < params[P.P_PILE_MIN]:
            g = -1e9 if params[P.P_STALL] <= 0.0 else g - 2.0
        else:
            if t > 0 and F.still_fits(ow[c], omask[c], t):
                g += params[P.P_DENY] * (t + 1.0) * (1.0 + ow[c])
        pile_gain[c] = g
    deck_v = params[P.P_DECK]
    ntypes = K.RANKS * nc
    for i in range(n):
        m = moves[i]
        place = m // base
        src = m % base
        sc = 0.0
        pc = -1
        plays = False  # a stall is credited only with a play: the turn gained goes to progress, so no endless loop
        if place < 2 * ntypes:
            t = place // 2
            c = t // K.RANKS
            r = t % K.RANKS
            disc = place % 2
            nhm = hmask[c]
            nhw = hw[c]
            if r == 0:
                nhw -= 1
            else:
                nhm &= ~(1 << (r - 1))
            if disc == 0:
                plays = True
                nem = emask[c]
                new = ew[c]
                if r == 0:
                    new += 1
                else:
                    nem |= 1 << (r - 1)
                v = P.heuristic_colour_estimate(new, nem, nhm, nhw, umask[c], a, q, b)
            else:
                v = P.heuristic_colour_estimate(ew[c], emask[c], nhm, nhw, umask[c], a, q, b)
                v -= P._danger(c, r, omask, ow, params)
                pc = c
            sc = v - base_v[c]
            if disc == 1 and r > 0:
                sc -= 0.01 * r  # among equals, give away the lowest
        if src == 0:
            sc += deck_v
        else:
            c2 = src - 1
            stall = turn_gain if plays else 0.0
            if c2 == pc:  # drawing from the pile just discarded onto (allowed without no_redraw)
                sc += stall
            else:
                sc += pile_gain[c2] + stall
        scores[i] = sc
    return n


@njit(cache=True)
def reference_move(s, params):
    """``policy.policy_move`` on ``reference_scores``: the first of the best-scored turns."""
    moves = np.empty(K.MAX_MOVES, np.int32)
    scores = np.empty(K.MAX_MOVES, np.float64)
    n = reference_scores(s, params, moves, scores)
    best = 0
    for i in range(1, n):
        if scores[i] > scores[best]:
            best = i
    return moves[best]


@njit(cache=True)
def reference_self_play(s, params0, params1):
    """Both seats played by ``reference_move`` to the end of the round; returns the turns played."""
    t0 = s[K.H_TURN]
    while not K.is_over(s):
        K.apply_move(s, reference_move(s, params0 if s[K.H_TO_MOVE] == 0 else params1))
    return s[K.H_TURN] - t0
