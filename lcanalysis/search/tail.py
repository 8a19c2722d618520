"""Play-outs that end in the exact endgame search (the search agent's ``tail`` option): the
heuristic plays a sampled world until ``tail`` cards are left in the draw pile, then the
perfect-information search values the rest (both hands known, as they are in the world; the
pile's order averaged over, not the world's; ``stalls`` discard-pile draws left to each player).

Why: the heuristic misjudges the round's last turns most (it does not stall to gain turns, and
plays its last cards by a rule of thumb); an exact tail takes those errors out of every play-out's
outcome. Screened against today's ``best`` (docs/agents.md, "Screening a change"): no gain shown,
so no agent uses it by default.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from lcanalysis.core import kernel as K
from lcanalysis.core import policy as P
from lcanalysis.search.common import LEAF_AS_IS
from lcanalysis.search.perfect import INF, ZOBRIST, Tables, _search


@njit(cache=True)
def tail_value(s, player_a, stalls, Z, tt, so, buf, stats, dc, sh, sw, sm):
    """The exact value for ``player_a`` of state ``s`` (mutated: its turn cap is lifted)."""
    s[K.H_TURN_CAP] = 1 << 30
    K.deck_counts(s, dc)
    stats[0] = 0
    stats[1] = 0
    v = _search(s, dc, np.int64(stalls), np.int64(stalls), np.int64(-1), np.int64(LEAF_AS_IS), -INF, INF,
                np.int64(0), np.int64(-1), np.int64(0), Z, tt, so, buf, stats, sh, sw, sm)
    return v if s[K.H_TO_MOVE] == player_a else -v


@njit(cache=True)
def rollout_tail(s, params_a, params_b, player_a, tail, stalls, Z, tt, so, buf, stats, dc, sh, sw, sm,
                 streams, keys):
    """``policy.rollout`` (``rollout_streams`` with ``streams``) until ``tail`` cards are left, then
    ``tail_value``."""
    moves = np.empty(K.MAX_MOVES, np.int32)
    scores = np.empty(K.MAX_MOVES, np.float64)
    while not K.is_over(s):
        if K.deck_left(s) <= tail:
            return tail_value(s, player_a, stalls, Z, tt, so, buf, stats, dc, sh, sw, sm)
        m = P.best_scored(s, params_a if s[K.H_TO_MOVE] == player_a else params_b, moves, scores)
        if streams:
            P.stream_move(s, m, keys)
        else:
            K.apply_move(s, m)
    return K.player_score(s, player_a) - K.player_score(s, 1 - player_a)


@njit(cache=True)
def flat_mc_tail(base, pool, n_unknown, opp, cands, first, last, seed, params, values, w, weighted, bias, streams,
                 tail, stalls, Z, tt, so, buf, stats):
    """``policy.flat_mc`` (``flat_mc_weighted`` when ``weighted``): the same worlds (``policy.deal_world``),
    each play-out ending in ``rollout_tail``."""
    me = base[K.H_TO_MOVE]
    nc = base[K.H_NC]
    table = P.esp_table(w, n_unknown)
    ws = np.empty_like(base)
    s = np.empty_like(base)
    keys0 = np.empty((2, len(base)), np.float64)
    keys = np.empty_like(keys0)
    dc = np.zeros(K.RANKS * nc, np.int32)
    sh = np.zeros(K.RANKS * nc, np.int32)
    sw = np.zeros(nc, np.int32)
    sm = np.zeros(nc, np.int32)
    # the world and each candidate's start are the plain play-outs' own (``policy.deal_world``,
    # ``policy.start_candidate``); only the play-out differs: ``rollout_tail`` takes the search's tables
    for i in range(first, last):
        P.deal_world(base, pool, n_unknown, opp, ws, seed, i, weighted, w, table, bias)
        if streams:
            P.stream_keys(ws, keys0)
        for k in range(len(cands)):
            P.start_candidate(s, ws, cands[k], streams, keys0, keys)
            values[k, i - first] = rollout_tail(s, params, params, me, tail, stalls, Z, tt, so, buf, stats, dc,
                                                sh, sw, sm, streams, keys)


class TailTables:
    """One search memory for a run of tail play-outs (entries are facts about states under their
    bounds, true in every world, so the worlds share them)."""

    def __init__(self) -> None:
        self.tables = Tables(16, 16)
        self.tables.reset(0)

    def run(self, base, pool, n_unknown, opp, cands, first, last, seed, params, values, w, bias, streams, tail,
            stalls) -> None:
        """``flat_mc_tail`` into ``values`` (``w`` None: the worlds dealt uniformly, or by ``bias``)."""
        t = self.tables
        weighted = w is not None
        w = np.ones(len(pool), np.float64) if w is None else w
        flat_mc_tail(base, pool, n_unknown, opp, cands, first, last, seed, params, values, w, weighted, float(bias),
                     streams, tail, stalls, ZOBRIST, t.tt, t.so, t.buf, t.stats)


_SHARED: list[TailTables] = []


def shared_tail_tables() -> TailTables:
    """One ``TailTables`` a process: fresh tables each decision would cost more than the tails."""
    if not _SHARED:
        _SHARED.append(TailTables())
    return _SHARED[0]
