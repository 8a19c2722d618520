"""Play-outs where each player draws from a deck stream of their own (``core.policy.stream_move``):
the same chance law as one shuffled pile, and less noisy paired differences between turns."""

from __future__ import annotations

from collections import Counter
from itertools import permutations

import numpy as np
import pytest
from helpers import played_down
from scipy import stats

from lcanalysis.core import kernel as K
from lcanalysis.core import policy as P
from lcanalysis.core.playout import _seed
from lcanalysis.rollouts import Rollouts, policy_ranking
from lcanalysis.studies.consistency import study_positions


def _deck_draw(s):
    """A legal whole turn of the mover that draws from the deck."""
    nc = int(s[K.H_NC])
    buf = np.empty(K.MAX_MOVES, np.int32)
    n = K.gen_moves(s, buf)
    return next(int(m) for m in buf[:n] if m % (nc + 1) == 0)


def test_three_stream_draws_in_a_row_are_uniform_over_the_ordered_cards_of_the_pile():
    """Mover, opponent, mover each draw from the deck: every ordered triple of the pile's physical
    cards is equally likely, as when the pile is shuffled once (chi-square over all triples)."""
    pos = played_down(3, 5)
    base = pos.state.copy()
    od = K.off_deck(int(base[K.H_NC]))
    deck = [int(t) for t in base[od + base[K.H_DECK_POS]:od + base[K.H_DECK_END]]]
    assert len(deck) == 5
    keys = np.empty((2, len(base)), np.float64)
    counts: Counter = Counter()
    trials = 24_000
    for i in range(trials):
        s = base.copy()
        _seed(i)
        P.stream_keys(s, keys)
        counts[tuple(int(P.stream_move(s, _deck_draw(s), keys)) for _ in range(3))] += 1
    expected: Counter = Counter()
    for triple in permutations(range(len(deck)), 3):  # physical cards: equal types add up
        expected[tuple(deck[j] for j in triple)] += trials / 60
    assert set(counts) == set(expected)
    cells = sorted(expected)
    chi2 = sum((counts[c] - expected[c]) ** 2 / expected[c] for c in cells)
    assert stats.chi2.sf(chi2, len(cells) - 1) > 1e-4


def test_the_stream_draw_takes_the_first_card_of_the_movers_stream_and_moves_its_keys_along():
    pos = played_down(5, 6)
    s = pos.state.copy()
    od = K.off_deck(int(s[K.H_NC]))
    p, top = int(s[K.H_TO_MOVE]), int(s[K.H_DECK_POS])
    end = int(s[K.H_DECK_END])
    keys = np.zeros((2, len(s)))
    keys[p, top:end] = [5, 4, 3, 0.5, 2, 1][: end - top]
    keys[1 - p, top:end] = np.arange(end - top)
    want = int(s[od + top + 3])  # the lowest key of the mover
    mover_key_of_old_top = keys[p, top]
    assert P.stream_move(s, _deck_draw(s), keys) == want
    assert int(s[K.H_DECK_POS]) == top + 1
    assert keys[p, top + 3] == mover_key_of_old_top and keys[1 - p, top + 3] == 0  # the old top's keys moved


def test_play_outs_with_streams_estimate_the_same_values():
    """Both ways of drawing are the same chance law: each turn's mean outcome agrees within four
    standard errors over 3,000 worlds."""
    _, _, _, view = study_positions(3)[2]
    codes, scores = policy_ranking(view)
    cands = codes[np.argsort(-scores, kind="stable")[:3]]
    plain, streamed = Rollouts(view, cands, seed=4), Rollouts(view, cands, seed=4, streams=True)
    plain.sample(3000)
    streamed.sample(3000)
    for a, b in zip(plain.samples, streamed.samples):
        se = np.hypot(a.std(ddof=1), b.std(ddof=1)) / np.sqrt(len(a))
        assert abs(a.mean() - b.mean()) < 4 * se


def test_streams_make_the_paired_differences_between_turns_less_noisy():
    """Over the first positions of the consistency set, the variance of the per-world difference
    between each turn and the best falls by more than a third with streams (measured: about half)."""
    plain_var, stream_var = [], []
    for _, _, _, view in study_positions(6):
        codes, scores = policy_ranking(view)
        cands = codes[np.argsort(-scores, kind="stable")[:5]]
        for streams, out in ((False, plain_var), (True, stream_var)):
            r = Rollouts(view, cands, seed=8, hand_model=True, streams=streams)
            r.sample(300)
            x = np.array(r.samples)
            d = x - x[int(np.argmax(x.mean(axis=1)))]
            out.append(d.var(axis=1, ddof=1).sum())
    assert sum(plain_var) / sum(stream_var) > 1.5


def test_the_advisor_says_how_the_worlds_draw_and_streams_false_draws_as_before():
    import lcanalysis as lc

    on = lc.advise("example:midround", time_budget=0.05, seed=2)
    assert "deck stream of their own" in on.method
    off = lc.advise("example:midround", time_budget=0.05, seed=2, streams=False)
    assert "deck stream" not in off.method
    assert [m.value for m in on.moves] != pytest.approx([m.value for m in off.moves])
