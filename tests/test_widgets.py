"""The explorers without a browser: set widget values, press buttons, read the analysis."""

from __future__ import annotations

import numpy as np
import pytest

from lcanalysis.game.examples import example_text
from lcanalysis.game.notation import read_position
from lcanalysis.game.position import Position
from lcanalysis.game.view import View
from lcanalysis.show.widgets import DecisionExplorer, WagerExplorer
from lcanalysis.studies.explorer import analyze, legal_moves, move_outcomes
from lcanalysis.wagers.canonical import wager_distribution

OPENING_HAND = " ".join(str(c) for c in read_position(example_text("opening")).hand)


@pytest.fixture
def explorer():
    return DecisionExplorer("example:opening", time_budget=0.2, seed=1)


def test_loading_an_example_fills_every_widget_and_builds_the_view(explorer):
    assert explorer.hand.value == OPENING_HAND
    assert explorer.deck.value == 44
    assert explorer.my_expeditions.value == explorer.discards.value == ""
    assert isinstance(explorer.position, View)
    assert "44 cards in the draw pile" in explorer.message.value
    assert "<svg" in explorer.picture.value
    assert explorer.result is None and explorer.table.value == ""


def test_analyze_button_ranks_every_legal_turn_with_the_same_numbers_as_the_library(explorer):
    explorer.analyze_button.click()
    res = explorer.result
    assert res is not None, explorer.message.value
    view = read_position(example_text("opening"))
    assert sorted(m.move for m in res.moves) == sorted(str(m) for m in legal_moves(view))
    assert [m.value for m in res.moves] == sorted((m.value for m in res.moves), reverse=True)
    assert all(m.stderr > 0 for m in res.moves)  # estimates carry their standard error
    for m in res.moves:
        assert f"<code>{m.move}</code>" in explorer.table.value
    direct = analyze(view, time_budget=0.2, seed=1)
    assert [(m.move, m.value, m.stderr) for m in direct.moves] == [(m.move, m.value, m.stderr) for m in res.moves]
    assert list(explorer.turn.options) == [m.move for m in res.moves]
    assert explorer.turn.value == res.moves[0].move
    assert explorer.outcomes is not None and len(explorer.outcomes) >= 20


def test_editing_a_widget_updates_the_position_and_the_next_analysis(explorer):
    explorer.analyze_button.click()
    assert not any("R10" in m.move for m in explorer.result.moves)
    explorer.hand.value = OPENING_HAND.replace("R4", "R10")
    assert explorer.result is None and explorer.table.value == ""  # stale answers are cleared
    assert "Valid view" in explorer.message.value
    explorer.analyze_button.click()
    moves = {m.move for m in explorer.result.moves}
    assert "+R10/D" in moves and "+R4/D" not in moves


def test_picking_a_turn_shows_the_distribution_of_its_outcomes(explorer):
    explorer.analyze_button.click()
    pick = explorer.turn.options[-1]
    explorer.turn.value = pick
    assert explorer.outcomes is not None
    direct = move_outcomes(explorer.position, pick, worlds=len(explorer.outcomes), seed=1)
    assert np.array_equal(np.asarray(explorer.outcomes), direct)


@pytest.mark.parametrize("field, value, words", [
    ("hand", OPENING_HAND.replace("R4", "R99"), "unknown card"),
    ("hand", OPENING_HAND.replace("R4", ""), "7 cards"),
    ("deck", 40, "counts do not add up"),
    ("discards", OPENING_HAND.split()[0], "two places"),
    ("my_expeditions", "R5 R3", ""),
    ("my_expeditions", "R5 Rw", ""),
])
def test_bad_input_shows_a_message_not_a_traceback(explorer, field, value, words):
    getattr(explorer, field).value = value
    msg = explorer.message.value
    assert "lc-error" in msg and "not valid" in msg and "Traceback" not in msg
    assert words in msg
    assert explorer.position is None
    explorer.analyze_button.click()
    assert explorer.result is None
    assert "Nothing to analyze" in explorer.message.value


def test_pasting_a_one_line_string_or_json_loads_it(explorer):
    pos = Position.deal(seed=11)
    explorer.paste.value = pos.view(0).to_string()
    explorer.load_button.click()
    assert explorer.hand.value == " ".join(str(c) for c in pos.view(0).hand)
    mid = read_position(example_text("midround"))
    explorer.paste.value = example_text("midround")
    explorer.load_button.click()
    assert explorer.deck.value == mid.deck_count
    assert explorer.my_expeditions.value == " ".join(str(c) for pile in mid.expeditions[mid.viewer] for c in pile)
    explorer.paste.value = "LC1;nonsense"
    explorer.load_button.click()
    assert "Cannot load" in explorer.message.value
    assert explorer.deck.value == mid.deck_count  # the last good position stays


def test_a_full_position_keeps_its_hidden_cards_and_is_analyzed_for_the_player_to_move():
    ex = DecisionExplorer("example:endgame", time_budget=0.2)
    full = read_position(example_text("endgame"))
    me = full.to_move
    assert isinstance(ex.position, Position) and ex.position == full
    assert "full position" in ex.message.value
    assert ex.hand.value == " ".join(str(c) for c in full.view(me).hand)
    ex.analyze_button.click()
    assert ex.result is not None and len(ex.result.moves) == len(full.legal_moves())
    card = str(full.hand(1 - me)[0])
    ex.opp_known.value = card  # any edit turns it into the mover's view (here: a card known in the other hand)
    assert isinstance(ex.position, View) and ex.position.viewer == me
    assert [str(c) for c in ex.position.opponent_known] == [card]


def test_the_example_dropdown_loads_a_built_in_position(explorer):
    explorer.example.value = "midround"
    mid = read_position(example_text("midround"))
    assert explorer.deck.value == mid.deck_count
    assert explorer.hand.value == " ".join(str(c) for c in mid.hand)


def test_wager_explorer_sliders_update_the_exact_distribution():
    wx = WagerExplorer(held=(7, 8, 9), hand_wagers=1, draws=10)
    direct = wager_distribution(hand=[7, 8, 9], hand_wagers=1, draws=10, exact=False)
    assert [float(o.mean) for o in wx.result.by_wagers] == pytest.approx([float(o.mean) for o in direct.by_wagers])
    wx.draws.value = 0
    assert wx.result.draws == 0
    assert float(wx.result.outcome(1).mean) == pytest.approx((24 - 20) * 2)
    wx.hand_wagers.value = 3
    assert [o.wagers for o in wx.result.by_wagers] == [0, 1, 2, 3]
    assert "Best: 3 wager(s)" in wx.message.value
    wx.held.value = (2, 3)
    assert wx.result.best_wagers == 0
    assert "<table>" in wx.table.value


def test_wager_explorer_shows_a_message_for_an_impossible_holding():
    wx = WagerExplorer()
    wx.placed.value = (7,)  # 7 both placed and held
    assert wx.result is None
    assert "lc-error" in wx.message.value and "both" in wx.message.value
    wx.placed.value = ()
    assert wx.result is not None


def test_in_the_endgame_a_picked_turn_shows_the_solvers_principal_lines():
    ex = DecisionExplorer("example:endgame", time_budget=0.2)
    ex.analyze_button.click()
    assert ex.result is not None
    pick = [m.move for m in ex.result.moves if m.move.endswith("/D")][-1]  # not the one shown first
    ex.turn.value = pick
    assert ex.lines and sum(ln["probability"] for ln in ex.lines) == pytest.approx(1)
    assert "principal lines" in ex.detail_text.value and pick in ex.detail_text.value
