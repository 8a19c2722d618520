"""The flat Monte Carlo play-outs (``core.policy.flat_mc``, ``flat_mc_weighted``) and the exact tail's
(``search.tail.flat_mc_tail``) deal their worlds and start their candidates through one function each
(``policy.deal_world``, ``policy.start_candidate``): the same seeds give the same numbers, to the bit, as
the loops that each did it on their own (``tests/flat_mc_reference.py``)."""

from __future__ import annotations

import numpy as np
import pytest
from flat_mc_reference import reference_flat_mc, reference_flat_mc_tail, reference_flat_mc_weighted

from lcanalysis import Position, Rules
from lcanalysis.agents import make_agent
from lcanalysis.core import policy as P
from lcanalysis.hand_model import hand_weights, shipped_weights
from lcanalysis.rollouts import policy_ranking, view_state
from lcanalysis.search.perfect import ZOBRIST
from lcanalysis.search.tail import TailTables, flat_mc_tail

HEURISTIC = make_agent("heuristic")
WORLDS = 12


def _case(seed: int, deck: int):
    """A dealt round played by the heuristic until ``deck`` cards are left: the mover's view as the
    play-outs take it (``view_state``), its card weights by the shipped hand model, its heuristic's best
    four turns."""
    pos = Position.deal(seed=seed, rules=Rules(colors=5))
    while pos.deck_count > deck and not pos.is_over():
        pos.push(HEURISTIC.choose(pos.view(pos.to_move), seed))
    view = pos.view(pos.to_move)
    base, pool, unknown, opp = view_state(view)
    return base, pool, unknown, opp, hand_weights(view, shipped_weights()), policy_ranking(view)[0][:4].copy()


@pytest.mark.parametrize("streams", [False, True])
@pytest.mark.parametrize(("seed", "deck"), [(0, 30), (3, 12)])
def test_the_plain_play_outs_give_the_numbers_they_gave_before(seed, deck, streams):
    base, pool, unknown, opp, w, cands = _case(seed, deck)
    params = P.HEURISTIC_PARAMS
    for bias in (1.0, 3.0):
        got, want = np.empty((len(cands), WORLDS)), np.empty((len(cands), WORLDS))
        P.flat_mc(base, pool, unknown, opp, cands, 5, 5 + WORLDS, 17, params, params, got, bias, streams)
        reference_flat_mc(base, pool, unknown, opp, cands, 5, 5 + WORLDS, 17, params, params, want, bias, streams)
        assert np.array_equal(got, want)
    got, want = np.empty((len(cands), WORLDS)), np.empty((len(cands), WORLDS))
    P.flat_mc_weighted(base, pool, unknown, opp, cands, 5, 5 + WORLDS, 17, params, params, got, w, streams)
    reference_flat_mc_weighted(base, pool, unknown, opp, cands, 5, 5 + WORLDS, 17, params, params, want, w, streams)
    assert np.array_equal(got, want)


@pytest.mark.parametrize("streams", [False, True])
@pytest.mark.parametrize("weighted", [False, True])
def test_the_exact_tails_play_outs_give_the_numbers_they_gave_before(weighted, streams):
    base, pool, unknown, opp, w, cands = _case(2, 9)
    weights = w if weighted else np.ones(len(pool), np.float64)
    bias = 1.0 if weighted else 2.0
    runs = []
    for play in (flat_mc_tail, reference_flat_mc_tail):
        t = TailTables().tables  # (fresh tables each: one run's entries do not help the other's)
        values = np.empty((len(cands), WORLDS))
        play(base, pool, unknown, opp, cands, 0, WORLDS, 23, P.HEURISTIC_PARAMS, values, weights, weighted, bias,
             streams, 3, 1, ZOBRIST, t.tt, t.so, t.buf, t.stats)
        runs.append(values)
    assert np.array_equal(runs[0], runs[1])
    assert len(np.unique(runs[0])) > 1  # (worlds that differ, not one outcome repeated)
