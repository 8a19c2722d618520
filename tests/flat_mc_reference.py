"""The flat Monte Carlo loops as they were before they shared their deal and each candidate's start
(``core.policy.deal_world``, ``core.policy.start_candidate``; commit 2f4cfb0): each seeded its world and
played its candidates on its own. The reference for the play-outs' tests and benchmark
(``tests/test_flat_mc_worlds.py``, ``benchmarks/bench_flat_mc.py``): the same seeds must give the same
numbers, to the bit, at the same speed."""

from __future__ import annotations

import numpy as np
from numba import njit

from lcanalysis.core import kernel as K
from lcanalysis.core import policy as P
from lcanalysis.search.tail import rollout_tail


@njit(cache=True)
def reference_play_candidates(w, cands, params_me, params_opp, me, values, col, streams, keys0, keys):
    s = np.empty_like(w)
    if streams:
        P.stream_keys(w, keys0)
    for k in range(len(cands)):
        s[:] = w
        if streams:
            keys[:, :] = keys0
            P.stream_move(s, cands[k], keys)
            values[k, col] = P.rollout_streams(s, params_me, params_opp, me, keys)
        else:
            K.apply_move(s, cands[k])
            values[k, col] = P.rollout(s, params_me, params_opp, me)


@njit(cache=True)
def reference_flat_mc(base, pool, n_unknown, opp, cands, first, last, seed, params_me, params_opp, values, bias=1.0,
                      streams=False):
    me = base[K.H_TO_MOVE]
    w = np.empty_like(base)
    keys0 = np.empty((2, len(base)), np.float64)
    keys = np.empty_like(keys0)
    for i in range(first, last):
        np.random.seed((seed * 1000003 + i * 7919 + 12345) % 4294967291)
        P.determinize(base, pool, n_unknown, opp, w, bias)
        reference_play_candidates(w, cands, params_me, params_opp, me, values, i - first, streams, keys0, keys)


@njit(cache=True)
def reference_flat_mc_weighted(base, pool, n_unknown, opp, cands, first, last, seed, params_me, params_opp, values,
                               w, streams=False):
    me = base[K.H_TO_MOVE]
    table = P.esp_table(w, n_unknown)
    ws = np.empty_like(base)
    keys0 = np.empty((2, len(base)), np.float64)
    keys = np.empty_like(keys0)
    for i in range(first, last):
        np.random.seed((seed * 1000003 + i * 7919 + 12345) % 4294967291)
        P.determinize_weighted(base, pool, n_unknown, opp, ws, w, table)
        reference_play_candidates(ws, cands, params_me, params_opp, me, values, i - first, streams, keys0, keys)


@njit(cache=True)
def reference_flat_mc_tail(base, pool, n_unknown, opp, cands, first, last, seed, params, values, w, weighted, bias,
                           streams, tail, stalls, Z, tt, so, buf, stats):
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
    for i in range(first, last):
        np.random.seed((seed * 1000003 + i * 7919 + 12345) % 4294967291)
        if weighted:
            P.determinize_weighted(base, pool, n_unknown, opp, ws, w, table)
        else:
            P.determinize(base, pool, n_unknown, opp, ws, bias)
        if streams:
            P.stream_keys(ws, keys0)
        for k in range(len(cands)):
            s[:] = ws
            if streams:
                keys[:, :] = keys0
                P.stream_move(s, cands[k], keys)
            else:
                K.apply_move(s, cands[k])
            values[k, i - first] = rollout_tail(s, params, params, me, tail, stalls, Z, tt, so, buf, stats, dc,
                                                sh, sw, sm, streams, keys)
