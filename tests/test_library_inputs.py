"""The library as a programmer calls it: a view changed after it was made, numpy integers where a
whole number is asked for, and a Position where a View is needed are answered with an error that
names the problem (or, for a whole number, accepted), never a silent wrong answer."""

from __future__ import annotations

import numpy as np
import pytest

import lcanalysis as lc
from lcanalysis.evaluator import evaluate_position, evaluate_view
from lcanalysis.game.cards import Card
from lcanalysis.game.notation import read_view
from lcanalysis.game.position import PositionError
from lcanalysis.wagers.canonical import wager_distribution


def _view() -> lc.View:
    return lc.Position.deal(seed=5).view(0)


@pytest.mark.parametrize("ask", [
    lc.evaluate,
    lambda v: lc.wager(v, "R", 3),
    lambda v: lc.advise(v, time_budget=0.05),
    lambda v: lc.solve(v, max_stalls=0),  # (it said "the draw pile has 44 cards, got 45")
])
def test_a_view_changed_after_it_was_made_is_refused_not_answered(ask):
    """A view's fields are plain lists: R5 put into the hand twice gave the hand evaluator 10 cards
    (53.9 points for a hand worth 35.2) and the advisor a draw pile of the wrong size."""
    view = _view()
    view.hand += [Card.parse("R5"), Card.parse("R5")]
    with pytest.raises(PositionError, match=r"changed after it was made.*hand of player 0 has 10 cards"):
        ask(view)


def test_a_view_whose_draw_pile_was_changed_is_refused():
    view = _view()
    view.deck_count = 3  # the evaluator answered 0.0 for it
    with pytest.raises(PositionError, match=r"changed after it was made.*counts do not add up"):
        lc.evaluate(view)


def test_a_view_holding_something_that_is_no_card_is_refused_naming_it():
    view = _view()
    view.hand[0] = None  # type: ignore[call-overload]  # was an AttributeError inside the evaluator
    with pytest.raises(PositionError, match=r"changed after it was made.*hand of player 0"):
        lc.evaluate(view)


def test_an_unchanged_view_is_read_as_an_equal_copy():
    pos = lc.Position.deal(seed=5)
    for _ in range(5):
        pos.push(pos.legal_moves()[-1])
    for view in (_view(), pos.view(1)):  # the deal, and 5 turns in (a history, cards in piles)
        read = read_view(view)
        assert read == view and read is not view and read.history == view.history
    assert repr(lc.evaluate(view)) == repr(lc.evaluate(view.to_string()))


def test_numpy_integers_are_whole_numbers_for_the_evaluator_and_the_wager_model():
    """``for k in np.arange(...)`` fed the draws: both refused np.int64(3) as 'not a whole number'."""
    view = _view()
    assert repr(lc.evaluate(view, draws=np.int64(3))) == repr(lc.evaluate(view, draws=3))
    assert lc.wager(view, "R", np.int64(3)).to_json() == lc.wager(view, "R", 3).to_json()
    assert lc.wager(view, np.int64(4), 3).to_json() == lc.wager(view, "R", 3).to_json()
    by_array = wager_distribution(hand=np.array([7, 8, 9, 10]), hand_wagers=np.int64(1), draws=np.int64(0))
    assert [(w.wagers, float(w.mean)) for w in by_array.by_wagers] == [(0, 14.0), (1, 28.0)]  # 7+8+9+10-20
    with pytest.raises(ValueError, match=r"draws must be a whole number 0\.\.44"):
        lc.evaluate(view, draws=np.float64(3.0))


def test_the_evaluators_functions_name_a_position_given_for_a_view_and_the_reverse():
    pos = lc.Position.deal(seed=5)
    with pytest.raises(PositionError, match=r"evaluate_view takes a View .* got Position: give position.view"):
        evaluate_view(pos)  # was AttributeError: 'Position' object has no attribute 'unseen_counts'
    with pytest.raises(PositionError, match="evaluate_position takes a Position, got View"):
        evaluate_position(pos.view(0), 0)


def test_evaluate_position_refuses_a_player_or_draws_out_of_range():
    """Player 2 and -1 answered 0.0 (the compiled code read another part of the state), 1,000 draws
    were cut to the unseen cards (406 points)."""
    pos = lc.Position.deal(seed=5)
    for player in (2, -1, True):
        with pytest.raises(PositionError, match="player must be 0 or 1"):
            evaluate_position(pos, player)
    for draws in (1000, -1, 2.5):
        with pytest.raises(ValueError, match=r"draws must be a whole number 0\.\.44"):
            evaluate_position(pos, 0, draws=draws)
    assert evaluate_position(pos, 1, draws=np.int64(5)) == pytest.approx(evaluate_view(pos.view(1), draws=5).total)


HAND = ["R7", "Bw", "B4", "G10", "Y3", "Y5", "W8", "R9"]


def test_from_parts_takes_numpy_counts_and_rules_as_a_dict_as_deal_does():
    """View.from_parts(hand, np.int64(8), np.int64(44)) was refused ("hand count of player 1 must be
    a whole number, got np.int64(8)") and rules={"colors": 6} in both from_parts ("rules must be a
    Rules object"), where Position.deal takes the dict and numpy's whole numbers pass elsewhere."""
    plain = lc.View.from_parts(HAND, 8, 44)
    assert lc.View.from_parts(HAND, np.int64(8), np.int32(44)) == plain
    assert lc.View.from_parts(HAND, 8, 44, rules={"colors": 5}) == plain
    six = lc.View.from_parts(HAND, 8, 56, rules={"colors": 6})
    assert six.colors == 6 and six == lc.View.from_parts(HAND, 8, 56, rules=lc.Rules(colors=6))
    for bad, words in ((8.0, "hand count of player 1 must be a whole number, got 8.0"),
                       (True, "hand count of player 1 must be a whole number, got True")):
        with pytest.raises(PositionError, match=words):
            lc.View.from_parts(HAND, bad, 44)
    with pytest.raises(PositionError, match=r"deck must be a number of cards 0\.\.60 in a view, got 44\.0"):
        lc.View.from_parts(HAND, 8, 44.0)
    pos = lc.Position.deal(seed=3, rules={"colors": 6})
    again = lc.Position.from_parts([pos.hand(0), pos.hand(1)], deck=pos.deck, rules={"colors": 6})
    assert again == pos


def test_from_parts_takes_piles_and_expeditions_by_colour_as_json_and_the_position_give_them():
    """discards={"G": ["G6"], ...} (the JSON form, and what Position.discards() returns) read the
    dict's keys as cards, "discards: unknown card 'G'"; piles and expeditions by colour letter are now
    read colour by colour, each card checked to be of its colour, so a position's own parts rebuild it."""
    flat = lc.View.from_parts(HAND, 8, 37, discards=["W4", "W6", "G?", "G6"],
                              expeditions=[["G2", "G3"], ["W2"]])
    by_colour = lc.View.from_parts(HAND, 8, 37, discards={"W": ["W4", "W6"], "G": ["G?", "G6"]},
                                   expeditions=[{"G": ["G2", "G3"]}, {"W": ["W2"]}])
    assert by_colour == flat and by_colour.to_string().endswith("e0=G2.G3;e1=W2;x=W4.W6.G?.G6;d=37")
    with pytest.raises(PositionError, match="discards: pile G holds W6, a card of another colour"):
        lc.View.from_parts(HAND, 8, 41, discards={"G": ["W6"]})
    with pytest.raises(PositionError, match=r"discards: pile G must be a list of cards like \['R7', 'Gw'\], got 'G6'"):
        lc.View.from_parts(HAND, 8, 41, discards={"G": "G6"})
    pos = lc.read_position("example:endgame")
    parts = lc.Position.from_parts([pos.hand(0), pos.hand(1)], [pos.expeditions(0), pos.expeditions(1)],
                                   pos.discards(), pos.deck, to_move=pos.to_move)
    assert parts.to_string() == pos.to_string().split(";hist=")[0]  # the same table, without the history
