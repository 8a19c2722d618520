"""core/features.py, the facts every compiled player reads, against references written from the rules
with the object layer's card lists (no kernel arithmetic)."""

from __future__ import annotations

import numpy as np
import pytest
from helpers import random_round_positions

from lcanalysis.core import features as F
from lcanalysis.game.position import Position
from lcanalysis.game.rules import Rules


def _alternating_turns(deck: int, to_move: bool) -> int:
    """Deal the pile out one card a turn, players alternating, and count the player's turns."""
    mine = 0
    my_turn = to_move
    for _ in range(deck):
        mine += my_turn
        my_turn = not my_turn
    return mine


def test_turns_left_and_useful_draws_count_alternating_turns():
    for deck in range(61):
        for to_move in (True, False):
            turns = _alternating_turns(deck, to_move)
            assert F.turns_left(deck, to_move) == turns
            # the card drawn on the last turn is never placed
            assert F.useful_draws(deck, to_move) == max(turns - 1, 0)
    assert F.turns_left(44, True) == 22  # from the deal, the starter
    assert F.useful_draws(4, False) == 1  # opponent, me, opponent, me: only my first draw can be placed


def test_still_fits_says_what_a_started_expedition_can_still_take():
    for wagers in range(4):
        for mask in range(512):
            ranks = [r for r in range(1, 10) if mask >> (r - 1) & 1]
            for r in range(10):
                started = wagers > 0 or bool(ranks)
                # a wager only before any number, a number only above the highest one
                fits = not ranks if r == 0 else r > max(ranks, default=0)
                assert bool(F.still_fits(wagers, mask, r)) == (started and fits)


def _mask(cards) -> int:
    m = 0
    for card in cards:
        if not card.is_wager:
            m |= 1 << (card.rank - 1)
    return m


def _wagers(cards) -> int:
    return sum(1 for card in cards if card.is_wager)


def _reference(pos: Position, p: int) -> tuple[np.ndarray, int]:
    """Player ``p``'s side of the table from the card lists; unseen = the draw pile and the
    opponent's whole hand."""
    nc = pos.colors
    unseen = pos.deck + pos.hand(1 - p)
    out = np.zeros((F.N_FEATURES, nc), dtype=np.int64)
    for c in range(nc):
        hand = [card for card in pos.hand(p) if card.color == c]
        out[F.HAND_MASK, c] = _mask(hand)
        out[F.HAND_WAGERS, c] = _wagers(hand)
        out[F.OWN_MASK, c] = _mask(pos.expedition(p, c))
        out[F.OWN_WAGERS, c] = _wagers(pos.expedition(p, c))
        out[F.OPP_MASK, c] = _mask(pos.expedition(1 - p, c))
        out[F.OPP_WAGERS, c] = _wagers(pos.expedition(1 - p, c))
        out[F.UNSEEN_MASK, c] = _mask([card for card in unseen if card.color == c])
        pile = pos.discard_pile(c)
        out[F.PILE_TOP, c] = pile[-1].rank if pile else -1
    return out, len(unseen)


@pytest.mark.parametrize("rules", [Rules(), Rules(colors=6), Rules(no_redraw=False)])
def test_colour_features_match_the_card_lists_through_whole_rounds(rules):
    checked = 0
    for seed in range(6):
        for pos in random_round_positions(seed, rules, deck_bias=0.7):
            for p in (0, 1):
                block = np.full((F.N_FEATURES, pos.colors), -99, dtype=np.int64)
                unseen = F.colour_features(pos.state, p, block)
                expect, expect_unseen = _reference(pos, p)
                assert unseen == expect_unseen
                np.testing.assert_array_equal(block, expect)
                checked += 1
    assert checked > 500
