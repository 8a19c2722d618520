"""Random playouts on the kernel: the hot loop of the benchmark and of random-round tests."""

from __future__ import annotations

import numpy as np

from lcanalysis.core.jit import njit
from lcanalysis.core.kernel import (
    MAX_MOVES,
    apply_draw,
    apply_place,
    gen_placements,
    is_over,
    player_score,
)


@njit(cache=True)
def _seed(seed):
    np.random.seed(seed)


@njit(cache=True)
def random_playout(s, buf):
    """Play the round out: each turn a uniformly random legal placement, then a draw from the deck.

    Mutates ``s``; returns the score difference player 0 minus player 1.
    """
    while not is_over(s):
        n = gen_placements(s, buf)
        apply_place(s, buf[np.random.randint(n)])
        apply_draw(s, 0)
    return player_score(s, 0) - player_score(s, 1)


@njit(cache=True)
def random_playouts(s0, rounds, seed):
    """Play ``rounds`` random playouts from copies of ``s0``; return the total turns played."""
    np.random.seed(seed)
    buf = np.empty(MAX_MOVES, dtype=np.int32)
    s = s0.copy()
    turns = 0
    for _ in range(rounds):
        s[:] = s0
        random_playout(s, buf)
        turns += s[4] - s0[4]
    return turns
