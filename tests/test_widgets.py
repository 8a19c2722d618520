"""The explorers without a browser: set widget values, press buttons, read the analysis."""

from __future__ import annotations

import dataclasses
import html

import numpy as np
import pytest

from lcanalysis.advisor import advise
from lcanalysis.agents import make_agent
from lcanalysis.game.examples import example_text
from lcanalysis.game.notation import read_position
from lcanalysis.game.position import Position
from lcanalysis.game.records import record_match, record_round, write_record
from lcanalysis.game.rules import Rules
from lcanalysis.game.view import View
from lcanalysis.show.widgets import DecisionExplorer, RecordReplay, WagerExplorer
from lcanalysis.studies.explorer import analyze, legal_moves, move_outcomes, played_turn
from lcanalysis.studies.skill_and_luck import play_recorded_round
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
    losses = [m.loss for m in res.moves]  # best first, then by the loss against it
    assert losses[0] == 0 and losses == sorted(losses)
    assert all(m.stderr > 0 for m in res.moves)  # estimates carry their standard error
    assert "<th>vs best</th>" in explorer.table.value
    for m in res.moves:
        assert f"<code>{m.move}</code>" in explorer.table.value
        assert f"<td style='white-space: nowrap'>{m.loss_text()}</td>" in explorer.table.value
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
    known = [str(c) for c in full.known_cards(1 - me)]
    assert known == ["B4"] and ex.opp_known.value == "B4"  # the history shows B4 taken back (+B5/B)
    card = str(next(c for c in full.hand(1 - me) if str(c) not in known))
    ex.opp_known.value = f"B4 {card}"  # any edit turns it into the mover's view (here: one more known card)
    assert isinstance(ex.position, View) and ex.position.viewer == me
    assert sorted(str(c) for c in ex.position.opponent_known) == sorted(["B4", card])


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
    assert "Best: 3 wager(s), mean +16.0 (exact, canonical model)." in wx.message.value  # (24 - 20) * 4, by hand
    wx.held.value = (2, 3)
    assert wx.result.best_wagers == 0
    assert "<table>" in wx.table.value


def test_wager_explorer_takes_wagers_already_placed_and_a_6_colour_rounds_draws():
    """Found by a review: a wager already on the expedition could not be entered (the question "I placed
    one, should I add another?"), and draws stopped at 44, short of the 6-colour game's 56."""
    wx = WagerExplorer(held=(7, 8, 9), hand_wagers=1, draws=0)
    wx.placed_wagers.value = 1
    # 7 8 9 = 24: one wager placed scores (24 - 20) x 2 = 8, adding the held one (24 - 20) x 3 = 12
    assert [float(o.mean) for o in wx.result.by_wagers] == [8.0, 12.0]
    wx.placed_wagers.value = 3  # with the one held, four wagers of a colour: refused in words
    assert wx.result is None and "lc-error" in wx.message.value and "3 wagers" in wx.message.value
    wx.placed_wagers.value = 0
    wx.unseen_total.value = 64
    wx.draws.value = 56
    assert wx.result.draws == 56
    # made with a 6-colour round's draws, as the slider takes them (was refused: "from 0 to 44, got 50")
    made = WagerExplorer(held=(7, 8, 9), hand_wagers=1, draws=50, unseen_total=64)
    assert made.draws.value == 50 and made.result.draws == 50



def test_the_explorers_take_numpys_numbers_as_their_options():
    """``WagerExplorer(draws=np.int64(10))`` (a number from an array) was refused: "draws must be a
    whole number from 0 to 44, got np.int64(10)"; the decision explorer's seed too."""
    import numpy as np

    wx = WagerExplorer(held=np.arange(2, 11), hand_wagers=np.int64(1), draws=np.int64(5), unseen_total=np.int64(40))
    assert wx.draws.value == 5 and wx.hand_wagers.value == 1 and wx.unseen_total.value == 40
    # every number of the colour held (54, ten cards with the wager): 54 - 20 + 20 with no wager,
    # (54 - 20) x 2 + 20 with one, by hand, whatever is drawn
    assert [float(o.mean) for o in wx.result.by_wagers] == [54.0, 88.0]
    assert DecisionExplorer("example:opening", time_budget=np.float64(0.2), seed=np.int64(3)).seed.value == 3

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


def _watch(widget, button):
    """Every value ``widget`` (an HTML message) takes, with whether ``button`` was disabled then."""
    shown = []
    widget.observe(lambda ch: shown.append((ch["new"], button.disabled)), names="value")
    return shown


def _assert_progress_shown(shown, stages):
    """While the advisor worked, the message named each stage of the endgame search as it was
    reported (the k-th progress message lists the first k stages), the button disabled."""
    assert stages and any("stall(s) each" in line for line in stages)
    working = [(text, off) for text, off in shown if "lc-progress" in text]
    assert len(working) == len(stages) + 1  # the first says what is being done, before any stage
    assert "endgame search" in working[0][0] and "<li>" not in working[0][0]
    for k, (text, off) in enumerate(working):
        assert off
        assert all(html.escape(line) in text for line in stages[:k])
        assert all(html.escape(line) not in text for line in stages[k:])


def test_analyze_shows_the_endgame_searchs_stages_while_it_works():
    from helpers import played_down

    pos = played_down(15, 2)  # 2 cards left: the advisor answers with the endgame search
    view = pos.view(pos.to_move)
    stages = []
    direct = advise(view, time_budget=0.2, seed=0, progress=stages.append)
    ex = DecisionExplorer(view, time_budget=0.2, seed=0)
    shown = _watch(ex.message, ex.analyze_button)
    ex.analyze_button.click()
    assert ex.result is not None, ex.message.value
    _assert_progress_shown(shown, stages)
    assert ex.progress_lines == stages
    assert "legal turns ranked" in ex.message.value and not ex.analyze_button.disabled
    assert [(m.move, m.value) for m in ex.result.moves] == [(m.move, m.value) for m in direct.moves]


def test_analyze_says_it_is_working_before_the_play_outs_too(explorer):
    shown = _watch(explorer.message, explorer.analyze_button)
    explorer.analyze_button.click()
    assert explorer.result is not None
    first, off = shown[0]
    assert off and "lc-progress" in first and "sampled worlds" in first
    # the play-outs report too: what they will do first (then their count, at most once a second)
    first_line = explorer.progress_lines[0]
    assert first_line.startswith("play-outs: ") and " legal turns to compare, " in first_line
    assert all(line.startswith("play-outs: ") for line in explorer.progress_lines)
    assert not explorer.analyze_button.disabled


# --- the position builder: clicks only ----------------------------------------------------------

# A real position (the README's "hint, as it prints"): W and R piles with forgotten cards beneath.
REMEMBERED = ("LC1;c5;h8;nr;m0;v0;p0=Y9.Bw.B4.W8.W9.G6.G10.R10;p1=?8;e0=Y3.Y5.Bw.B6.B8.B9.W3.Gw.Gw.G2.G5;"
              "e1=B3.B5.B7.G4.G7;x=Yw.W?.W?.Ww.R?.R2;d=22")


def _click(builder, target, cards):
    builder.target.value = target
    for card in cards.split():
        builder.palette[card].click()


def _build_remembered(builder):
    builder.clear_button.click()
    _click(builder, "hand", "Y9 Bw B4 W8 W9 G6 G10 R10")
    _click(builder, "mine", "Y3 Y5 Bw B6 B8 B9 W3 Gw Gw G2 G5")
    _click(builder, "theirs", "B3 B5 B7 G4 G7")
    _click(builder, "discards", "Yw Ww R2")
    builder.buried["W"].value = 2
    builder.buried["R"].value = 1


def test_the_builder_makes_by_clicks_the_view_of_the_one_line_string(explorer):
    b = explorer.builder
    _build_remembered(b)
    assert b.view is not None, b.message.value
    assert b.view == read_position(REMEMBERED)
    assert b.deck.value == 22 and "Valid view: 22 cards" in b.message.value
    assert "opponent is to move" not in b.message.value
    assert [str(c) for c in b.view.discards[2]] == ["W?", "W?", "Ww"]  # the buried cards lie beneath


def test_the_builder_knows_seats_who_moves_known_cards_and_six_colours(explorer):
    b = explorer.builder
    b.clear_button.click()
    b.colors.value = 6
    assert {"P7", "Pw"} <= set(b.palette) and len(b.palette) == 60
    b.seat.value = 1
    b.to_move.value = "opp"
    _click(b, "hand", "Yw Y4 B9 W2 G5 R3 P7 P10")
    _click(b, "mine", "R2")
    _click(b, "theirs", "Pw P4")
    _click(b, "discards", "G9")
    _click(b, "known", "G9")  # ... then picked up: not possible, both are the one G9
    assert b.view is None and "G9 appears in two places" in b.message.value
    assert "in the opponent's known cards and the discard piles" in html.unescape(b.message.value)  # where
    b.undo_button.click()
    _click(b, "known", "Bw")
    b.deck_auto.value = False
    assert b.deck.value == 52  # what adds up: 72 cards, 16 in hands, 4 on the table
    b.deck.value = 52
    expected = read_position("LC1;c6;h8;nr;m0;v1;p0=?8.Bw;p1=Yw.Y4.B9.W2.G5.R3.P7.P10;e0=Pw.P4;e1=R2;x=G9;d=52")
    assert b.view == expected, b.message.value
    assert "the opponent is to move: it can be shown, not advised" in b.message.value  # (it said only "Valid view")
    b.deck.value = 51
    assert b.view is None and "counts do not add up" in b.message.value


@pytest.mark.parametrize("clicks, words", [
    ([("hand", "R7 R7")], "R7 appears 2 times in my hand; the deck has one"),
    ([("mine", "R5 R3")], "R3"),
    ([("discards", "")], "buried card(s) but no top card"),
    ([("hand", "Yw Y2 Y3 Y4 Y5 Y6 Y7")], "hand of player 0 has 7 cards; it must have 8"),
])
def test_the_builder_says_in_words_what_is_wrong_and_hands_nothing_over(explorer, clicks, words):
    b = explorer.builder
    b.clear_button.click()
    assert b.message.value and "lc-error" in b.message.value  # an empty table is not a position yet
    for target, cards in clicks:
        _click(b, target, cards)
    if words.startswith("buried"):
        b.buried["G"].value = 1
    assert b.view is None
    assert "lc-error" in b.message.value and words in html.unescape(b.message.value), b.message.value
    assert "draw=" not in b.message.value  # the builder has no draw step to write
    before = explorer.position
    b.use_button.click()
    assert explorer.position is before and explorer.result is None
    assert "Not a valid position yet" in b.message.value


def test_a_placed_card_is_taken_back_by_a_click_and_undo_takes_back_the_last_pick(explorer):
    b = explorer.builder
    _build_remembered(b)
    _click(b, "discards", "Y4")
    assert b.view is not None and [str(c) for c in b.view.discards[0]] == ["Yw", "Y4"]
    b.undo_button.click()
    assert b.view == read_position(REMEMBERED)
    hand_buttons = b.shown["hand"].children
    assert [w.description for w in hand_buttons] == ["Y9", "Bw", "B4", "W8", "W9", "G6", "G10", "R10"]
    hand_buttons[2].click()  # B4 back out of the hand
    assert b.cards["hand"] == ["Y9", "Bw", "W8", "W9", "G6", "G10", "R10"]
    assert b.view is None and "7 cards" in b.message.value
    _click(b, "hand", "B4")
    assert b.view == read_position(REMEMBERED)


def test_the_builders_button_hands_the_view_to_the_advisor(explorer):
    b = explorer.builder
    _build_remembered(b)
    b.use_button.click()
    assert explorer.position == read_position(REMEMBERED)
    assert explorer.discards.value == "Yw W? W? Ww R? R2"
    res = explorer.result
    assert res is not None, explorer.message.value
    direct = analyze(read_position(REMEMBERED), time_budget=0.2, seed=1)
    assert [(m.move, m.value, m.stderr) for m in res.moves] == [(m.move, m.value, m.stderr) for m in direct.moves]


def test_a_loaded_position_fills_the_builder_with_its_table():
    ex = DecisionExplorer("example:midround", time_budget=0.2)
    text = example_text("midround")
    without_history = ";".join(f for f in read_position(text).to_string().split(";") if not f.startswith("hist="))
    assert ex.builder.view == read_position(without_history)
    assert ex.builder.cards["hand"] == [str(c) for c in read_position(text).hand]


# --- replaying a game record -------------------------------------------------------------------


@pytest.fixture(scope="module")
def played():
    """A round dealt with seed 5, greedy (player 0) against heuristic: the start and the turns."""
    pos = Position.deal(seed=5)
    start = pos.copy()
    agents = [make_agent("greedy"), make_agent("heuristic")]
    while not pos.is_over():
        pos.push(agents[pos.to_move].choose(pos.view(pos.to_move), pos.turn))
    return start, list(pos.history)


def _by_hand(start, turns, k):
    pos = start.copy()
    for move in turns[:k]:
        pos.push(move)
    return pos


def test_replay_steps_through_a_record_file_and_each_step_is_the_position_replayed_by_hand(played, tmp_path):
    start, turns = played
    path = tmp_path / "round.lcr"
    write_record(record_round(start, turns), path, form="text")
    rp = RecordReplay(time_budget=0.2, seed=1)
    rp.paste.value = str(path)
    rp.load_button.click()
    assert f"Loaded a full-deal record: 1 round(s), {len(turns)} turns" in rp.message.value
    assert rp.step.max == len(turns) and rp.position == start
    for k in range(1, 13):
        rp.forward_button.click()
        assert rp.step.value == k and rp.position == _by_hand(start, turns, k)
    assert f"12 of {len(turns)} turns played" in rp.status.value and f"<code>{turns[12]}</code>" in rp.status.value
    rp.back_button.click()
    rp.back_button.click()
    assert rp.position == _by_hand(start, turns, 10)
    rp.step.value = 30
    assert rp.position == _by_hand(start, turns, 30)
    rp.last_button.click()
    final = _by_hand(start, turns, len(turns))
    assert rp.position == final and final.is_over()
    assert f"scores {final.score(0)} to {final.score(1)}" in rp.status.value
    assert rp.forward_button.disabled and rp.analyze_button.disabled
    rp.first_button.click()
    assert rp.position == start and rp.back_button.disabled
    assert "<svg" in rp.picture.value


def test_the_replays_last_step_says_whether_the_round_is_over_or_the_record_stops_early(played):
    """At the end of a record the replay says which end it is: the round over, the turn cap, or a
    record that stops before the end of the round (before: "the record ends here" for all three)."""
    start, turns = played
    rp = RecordReplay(record_round(start, turns[:10]))
    rp.last_button.click()
    early = _by_hand(start, turns, 10)
    assert (f"the record stops here, before the end of the round (scores so far {early.score(0)} to "
            f"{early.score(1)})") in rp.status.value
    rp = RecordReplay(record_round(start, turns))
    rp.last_button.click()
    assert "the round is over (scores" in rp.status.value
    capped = Position.deal(seed=3, rules=Rules(turn_cap=4))
    first = capped.copy()
    for _ in range(4):
        capped.push(capped.legal_moves()[0])
    rp = RecordReplay(record_round(first, list(capped.history)))
    rp.last_button.click()
    assert (f"the turn cap ended the round here: scored as it stands, scores {capped.score(0)} to "
            f"{capped.score(1)}") in rp.status.value


def test_replay_analyzes_a_decision_on_demand_from_the_movers_view(played):
    start, turns = played
    rp = RecordReplay(record_round(start, turns), time_budget=0.2, seed=1)
    k = 9
    rp.go(k)
    assert rp.result is None and rp.table.value == ""  # only on demand
    rp.analyze_button.click()
    res = rp.result
    assert res is not None, rp.message.value
    pos = _by_hand(start, turns, k)
    assert sorted(m.move for m in res.moves) == sorted(str(m) for m in pos.legal_moves())
    direct = analyze(pos.view(pos.to_move), time_budget=0.2, seed=1)
    assert [(m.move, m.value) for m in res.moves] == [(m.move, m.value) for m in direct.moves]
    rank = [m.move for m in direct.moves].index(str(turns[k])) + 1
    played_value = direct.moves[rank - 1]
    if rank == 1:
        assert f"Played {turns[k]}: the best of {len(direct.moves)} turns" in rp.verdict.value
    else:
        assert (f"Played {turns[k]}: ranked {rank} of {len(direct.moves)}, a loss of "
                f"{'at least ' if played_value.upper_bound else ''}{played_value.loss:.1f}" in rp.verdict.value)
        assert direct.moves[0].move in rp.verdict.value
    rp.forward_button.click()
    assert rp.result is None and rp.verdict.value == ""  # a step clears the old answer


def test_replay_shows_the_endgame_searchs_stages_while_it_works(played):
    start, turns = played
    k = next(k for k in range(len(turns)) if _by_hand(start, turns, k).deck_count == 2)
    pos = _by_hand(start, turns, k)
    stages = []
    direct = advise(pos.view(pos.to_move), time_budget=0.2, seed=1, progress=stages.append)
    rp = RecordReplay(record_round(start, turns), time_budget=0.2, seed=1)
    rp.go(k)
    shown = _watch(rp.message, rp.analyze_button)
    rp.analyze_button.click()
    assert rp.result is not None, rp.message.value
    _assert_progress_shown(shown, stages)
    assert "legal turns ranked" in rp.message.value and not rp.analyze_button.disabled
    assert [(m.move, m.value) for m in rp.result.moves] == [(m.move, m.value) for m in direct.moves]


def test_a_one_player_record_replays_that_players_views_and_only_their_decisions(played):
    start, turns = played
    rp = RecordReplay(record_round(start, turns).seen_by(0), time_budget=0.2)
    assert "Loaded player 0's record" in html.unescape(rp.message.value)
    for k in (0, 1, 2, 7, len(turns)):
        rp.go(k)
        assert isinstance(rp.position, View) and rp.position == _by_hand(start, turns, k).view(0)
    rp.go(1)  # player 1's turn: their hand is unknown
    rp.analyze_button.click()
    assert rp.result is None and "only player 0's decisions" in html.unescape(rp.message.value)
    rp.go(2)
    rp.analyze_button.click()
    assert rp.result is not None


def test_a_match_record_is_replayed_round_by_round():
    # round 1 (seed 6) ends 15-9: player 0 leads, so player 0 starts round 2 as its deal has it
    rounds = [play_recorded_round([make_agent("greedy"), make_agent("greedy")], seed=s) for s in (6, 4)]
    rp = RecordReplay(record_match(rounds))
    assert list(rp.round.options) == [("round 1", 1), ("round 2", 2)]
    rp.round.value = 2
    assert rp.step.value == 0 and rp.step.max == len(rounds[1])
    rp.go(5)
    assert rp.position == _by_hand(Position.deal(4), [t.move for t in rounds[1].turns], 5)


def test_a_bad_record_is_refused_with_its_reason_and_the_last_good_one_stays(played):
    start, turns = played
    rp = RecordReplay(record_round(start, turns))
    rp.go(4)
    bad = write_record(record_round(start, turns[:3]), form="text").replace(str(turns[2]), "+R99/D")
    rp.paste.value = bad
    rp.load_button.click()
    msg = html.unescape(rp.message.value)
    assert "Cannot load the record" in msg and "turn index 2" in msg and "line" in msg
    assert rp.step.max == len(turns) and rp.position == _by_hand(start, turns, 4)


def test_the_explorer_opens_a_replayed_step_for_analysis(played):
    start, turns = played
    ex = DecisionExplorer("example:opening", time_budget=0.2, record=record_round(start, turns))
    ex.replay.go(6)
    ex.replay.open_button.click()
    assert ex.position == _by_hand(start, turns, 6)
    assert "full position" in ex.message.value


def test_the_builders_button_never_analyzes_the_previous_position_when_the_built_one_cannot_be_loaded(explorer):
    b = explorer.builder
    _build_remembered(b)
    b.to_move.value = "opp"  # a valid view, but the opponent moves: nothing to advise
    assert b.view is not None
    before = explorer.position
    b.use_button.click()
    assert explorer.result is None and explorer.table.value == ""  # not the previous position's answer
    msg = html.unescape(explorer.message.value)
    assert "Cannot load" in msg and "player 1 is to move" in msg
    assert explorer.position is before


def test_a_full_position_is_analyzed_with_both_hands_as_the_advisor_does():
    ex = DecisionExplorer("example:endgame", time_budget=0.2)
    full = read_position(example_text("endgame"))
    assert full.deck_count == 5  # the advisor's endgame search answers a full position here
    assert "endgame search" in _watch_text(ex)
    res = ex.result
    assert res is not None, ex.message.value
    direct = advise(full, time_budget=0.2, seed=0)
    assert [(m.move, m.value) for m in res.moves] == [(m.move, m.value) for m in direct.moves]
    assert any("both hands are used" in note for note in res.notes)
    assert analyze(full, time_budget=0.2).moves[0].move == direct.moves[0].move


def _watch_text(ex):
    """Press Analyze; the first note shown while it works."""
    shown = []
    ex.message.observe(lambda change: shown.append(change["new"]), names="value")
    ex.analyze_button.click()
    return html.unescape(shown[0]) if shown else ""


def test_the_replay_thinks_as_long_as_the_explorers_time_and_seed_say(played):
    start, turns = played
    ex = DecisionExplorer("example:opening", time_budget=0.2, record=record_round(start, turns))
    ex.time_budget.value = 0.3
    ex.seed.value = 4
    ex.replay.go(9)
    ex.replay.analyze_button.click()
    pos = _by_hand(start, turns, 9)
    direct = analyze(pos.view(pos.to_move), time_budget=0.3, seed=4)
    assert ex.replay.result is not None, ex.replay.message.value
    assert [(m.move, m.value) for m in ex.replay.result.moves] == [(m.move, m.value) for m in direct.moves]


def test_the_example_menu_names_only_the_example_shown_and_picks_it_again_after_another_load(explorer):
    explorer.example.value = "endgame"
    assert isinstance(explorer.position, Position)
    explorer.load(example_text("midround"))
    assert explorer.example.value == "(choose)"  # not "endgame": that is no longer what is shown
    explorer.example.value = "endgame"  # picked again: loads it again
    assert explorer.position == read_position(example_text("endgame"))
    explorer.load("example:opening")
    assert explorer.example.value == "opening" and explorer.deck.value == 44


def test_an_edited_example_is_no_longer_named_by_the_menu_and_picking_it_again_restores_it(explorer):
    explorer.example.value = "midround"
    hand = explorer.hand.value
    explorer.deck.value = explorer.deck.value - 1  # an edit: no longer the example
    assert explorer.example.value == "(choose)"
    explorer.example.value = "midround"  # picked again: loaded again
    assert explorer.hand.value == hand and explorer.position == read_position(example_text("midround"))

def test_the_replays_verdict_says_whether_the_played_turns_loss_is_exact_an_estimate_or_a_bound(played, monkeypatch):
    # every split alike: with this budget this round's end then has all three kinds of answer (weighted by the
    # opponent-hand model, the hint's default, no answer there is left a sampled estimate)
    import lcanalysis.advisor.advice as A

    monkeypatch.setattr(A, "ENDGAME_SPLITS_DEFAULT", "uniform")
    start, turns = played
    rp = RecordReplay(record_round(start, turns), time_budget=0.2, seed=1)
    seen = set()
    for k in range(len(turns)):
        pos = _by_hand(start, turns, k)
        if pos.deck_count > 4:
            continue
        rp.go(k)
        rp.analyze_button.click()
        rank, mv = played_turn(rp.result, str(turns[k]))
        verdict = html.unescape(rp.verdict.value)
        if rank == 1:
            continue
        if mv.upper_bound:
            kind = "bound"
            error = f" ± {mv.loss_stderr:.1f}" if mv.loss_stderr else ""  # a sampled bound keeps its error
            assert f"a loss of at least {mv.loss:.1f}{error} against the best" in verdict, verdict
            assert "showed only that it is worse" in verdict
        elif mv.exact:
            kind = "exact"
            assert f"a loss of {mv.loss:.1f} (exact) against" in verdict, verdict
        else:
            kind = "estimate"
            assert f"a loss of {mv.loss:.1f} ± {mv.loss_stderr:.1f} against" in verdict, verdict
        seen.add(kind)
    assert seen == {"bound", "exact", "estimate"}  # this round has all three near its end


def test_a_full_positions_outcomes_keep_the_opponents_hand_as_its_analysis_does():
    ex = DecisionExplorer("example:endgame", time_budget=0.2)
    full = read_position(example_text("endgame"))
    ex.analyze_button.click()
    pick = ex.turn.options[-1]
    ex.turn.value = pick
    known = dataclasses.replace(full.view(full.to_move), opponent_known=sorted(full.hand(1 - full.to_move)))
    direct = move_outcomes(known, pick, worlds=len(ex.outcomes), seed=0)
    assert np.array_equal(np.asarray(ex.outcomes), direct)


def test_the_explorers_message_counts_the_turns_the_endgame_search_only_bounded():
    """With 3 cards left the endgame search proves most turns worse than the best without their
    values: the message must not call those values (exact or estimates)."""
    from helpers import played_down

    pos = played_down(2, 3)
    ex = DecisionExplorer(pos.view(pos.to_move))
    ex.time_budget.value = 2
    ex.analyze()
    bounded = [m for m in ex.result.moves if m.upper_bound]
    assert bounded  # the case this test is about
    assert f"; {len(bounded)} turn(s) only shown worse than the best: a bound (≤), not a value" in ex.message.value


def test_the_replays_message_says_whether_the_ranked_values_are_exact_or_estimates(played):
    """As the explorer's: the replay's ranked turns are called exact, or estimates with their
    standard error, and the turns the endgame search only bounded are counted."""
    start, turns = played
    rp = RecordReplay(record_round(start, turns), time_budget=0.2, seed=1)
    rp.go(9)  # mid-round: play-outs
    rp.analyze_button.click()
    assert not rp.result.exact
    assert "legal turns ranked (advisor estimate, estimates ± standard error)." in html.unescape(rp.message.value)
    k = next(k for k in range(len(turns)) if _by_hand(start, turns, k).deck_count == 1)
    rp.go(k)  # the last card: every split solved
    rp.analyze_button.click()
    assert rp.result.exact and not any(m.upper_bound for m in rp.result.moves)
    assert f"{len(rp.result.moves)} legal turns ranked ({rp.result.kind}, exact)." in rp.message.value


def test_a_turns_play_out_distribution_says_so_when_the_table_holds_the_endgame_searchs_values(explorer, monkeypatch):
    """The distribution shown under a picked turn is of the advisor's own play-outs in the first of
    its worlds when the table holds the advisor's estimates (their mean estimates the table's value),
    and of the advisor's default play-outs (with 3 cards left the stalling heuristic's: it plays them from
    15 cards down), not the table's numbers, when it holds the endgame search's: the note and the
    figure's title say which."""
    from helpers import played_down

    from lcanalysis.show import figures

    titles = []
    drawn = figures.outcome_histogram
    monkeypatch.setattr(figures, "outcome_histogram",
                        lambda samples, move, title=None: titles.append(title) or drawn(samples, move, title=title))
    explorer.analyze()  # the opening: the advisor's estimates
    note = html.unescape(explorer.detail_text.value)
    n = len(explorer.outcomes)
    assert (f"the advisor's own play-outs after {explorer.turn.value}, in the first {n} of the worlds it sampled: "
            "their mean estimates the table's value of the turn") in note
    assert titles == [f"What follows {explorer.turn.value}: the advisor's play-outs in {n} of its sampled worlds"]

    pos = played_down(2, 3)
    ex = DecisionExplorer(pos.view(pos.to_move), time_budget=0.5)
    ex.analyze()
    assert ex.result.kind.startswith("view value") and "samples" not in ex.result.moves[0].extra
    note = html.unescape(ex.detail_text.value)
    assert (f"play-outs of the stalling heuristic policy after {ex.turn.value}, not the {ex.result.kind} the "
            "table gives") in note
    assert "draws from a discard pile to gain turns by a rule of thumb" in note
    assert titles[-1] == (f"What follows {ex.turn.value}: play-outs of the stalling heuristic policy over "
                          f"{len(ex.outcomes)} sampled worlds")


def test_a_turns_distribution_from_15_cards_down_is_of_the_stalling_play_outs_the_advisor_played():
    """With 12 cards left the advisor's default plays the stalling heuristic's play-outs; the distribution
    under a picked turn is of those, in the advisor's worlds (not of the plain heuristic's, whose mean
    is another value), so its mean estimates the table's value as the note says."""
    from helpers import played_down

    pos = played_down(2, 12)
    view = pos.view(pos.to_move)
    ex = DecisionExplorer(view, time_budget=0.2, seed=0)
    ex.analyze()
    assert ex.result.kind == "advisor estimate" and ex.result.playout_policy == "stalling"
    n = max(20, int(60 * ex.time_budget.value))  # the worlds the explorer shows

    def outcomes(turn, policy):
        return move_outcomes(view, turn, worlds=n, seed=0, playout_policy=policy)

    # a turn whose outcomes the two policies play otherwise (in many turns they agree)
    pick = next(t for t in ex.turn.options if not np.array_equal(outcomes(t, "stalling"), outcomes(t, "plain")))
    ex.turn.value = pick
    assert np.array_equal(np.asarray(ex.outcomes), outcomes(pick, "stalling"))
    assert "their mean estimates the table's value of the turn" in html.unescape(ex.detail_text.value)


@pytest.mark.parametrize("options, words", [
    ({"time_budget": 100}, "time_budget must be seconds from 0.2 to 10, got 100"),
    ({"time_budget": 0.01}, "time_budget must be seconds from 0.2 to 10, got 0.01"),
    ({"time_budget": True}, "time_budget must be seconds"),
    ({"seed": -5}, "seed must be a whole number from 0 to 2,147,483,647, got -5"),
    ({"seed": 2**40}, "seed must be a whole number from 0 to 2,147,483,647"),
    ({"seed": 1.5}, "seed must be a whole number"),
])
def test_the_explorers_time_and_seed_outside_their_widgets_are_refused_not_clamped(options, words):
    """The slider and the box would show a clamped value while the replay thought with the one
    given (100 s for a slider at 10): refused, naming the option and its range."""
    with pytest.raises(ValueError) as refused:
        DecisionExplorer("example:midround", **options)
    assert words in str(refused.value)


@pytest.mark.parametrize("options, words", [
    ({"held": (1,)}, "held must be numbers of the colour, 2 to 10, got (1,)"),
    ({"held": (11, 7)}, "held must be numbers of the colour, 2 to 10"),
    ({"held": "789"}, "held must be numbers of the colour"),
    ({"hand_wagers": 5}, "hand_wagers must be a whole number from 0 to 3, got 5"),
    ({"draws": 57}, "draws must be a whole number from 0 to 56, got 57"),
    ({"unseen_total": 0}, "unseen_total must be a whole number from 1 to 64, got 0"),
])
def test_the_wager_explorers_options_outside_its_widgets_are_refused_not_clamped(options, words):
    """The sliders would show 3 wagers for 5 and 44 draws for 50, and a number outside 2..10
    stopped in a widget library's 'Invalid selection': refused, naming the option and its range."""
    with pytest.raises(ValueError) as refused:
        WagerExplorer(**options)
    assert words in str(refused.value)


def test_a_sixth_colour_card_in_a_five_colour_widget_names_the_widgets_colour_choice(explorer):
    """A purple card typed into the explorer's 5-colour game was answered with how to ask for six
    colours in the one-line string, JSON, Python and the command line, none of which the widget
    takes; the explorer now names its colours menu, the builder its '6 colours' button, and a deck
    count off by one colour's cards the same. Following the advice makes the position valid."""
    from lcanalysis.game.cards import FIVE_COLOUR_GAME, SIX_COLOUR_GAME

    explorer.hand.value = OPENING_HAND.replace(OPENING_HAND.split()[0], "P3")
    said = html.unescape(explorer.message.value)
    assert "P3 is a card of the 6-colour game only" in said and "choose 6 in the colours menu above" in said
    assert SIX_COLOUR_GAME not in said and "LC1;c6" not in said and "--colors" not in said
    explorer.colors.value = 6  # as told: now P3 is a card, and the draw pile is counted for six colours
    explorer.deck.value = 56
    assert isinstance(explorer.position, View), explorer.message.value
    explorer.deck.value = 44  # counted for five colours in a 6-colour game
    said = html.unescape(explorer.message.value)
    assert "12 cards are one colour's" in said and "choose 5 in the colours menu above" in said
    assert FIVE_COLOUR_GAME not in said

    b = explorer.builder
    b.load(read_position(example_text("opening")))
    b.add("P3", "hand")
    said = html.unescape(b.message.value)
    assert b.view is None and "P3 is a card of the 6-colour game only" in said
    assert "press '6 colours' beside 'game' above" in said and SIX_COLOUR_GAME not in said


@pytest.mark.parametrize("options, words", [
    ({"time_budget": 100}, "time_budget must be seconds from 0.2 to 10, got 100"),
    ({"time_budget": "abc"}, "time_budget must be seconds from 0.2 to 10, got 'abc'"),
    ({"seed": -5}, "seed must be a whole number from 0 to 2,147,483,647, got -5"),
])
def test_the_replays_time_and_seed_are_checked_as_the_explorers_are(played, options, words):
    """The replay alone took any budget: a string met "could not convert string to float: 'abc'"
    only when Analyze was pressed, and 100 s thought for 100 s where the explorer's slider stops
    at 10. Refused as the explorer refuses them, naming the option and its range; set later
    (``rp.time_budget = ...``), Analyze says the same in the widget, not a traceback."""
    start, turns = played
    with pytest.raises(ValueError) as refused:
        RecordReplay(record_round(start, turns), **options)
    assert words in str(refused.value)
    rp = RecordReplay(record_round(start, turns), time_budget=0.2, seed=1)
    rp.go(3)
    for name, value in options.items():
        setattr(rp, name, value)
    rp.analyze_button.click()
    assert rp.result is None
    said = html.unescape(rp.message.value)
    assert f"Cannot analyze this decision: {words}" in said and "lc-error" in said


def test_a_record_pasted_into_the_explorers_load_box_is_replayed(played):
    """A game record pasted where a position goes was refused with the command line's advice
    ("review it with 'lcanalysis review FILE'..."), which the widget does not take: it is now
    loaded into the explorer's own record replay, opened, and the message says so. The position
    shown stays; a bad record is still refused as a position."""
    start, turns = played
    ex = DecisionExplorer("example:opening", time_budget=0.2)
    before = ex.position
    for text in (write_record(record_round(start, turns), form="text"), write_record(record_round(start, turns))):
        ex.paste.value = text
        ex.load_button.click()
        said = html.unescape(ex.message.value)
        assert "a game record, not a position" in said and "Replay a game record, turn by turn" in said, said
        assert "lcanalysis review" not in said
        assert ex.sections.selected_index == 1 and ex.replay.step.max == len(turns)
        assert ex.position == before
    ex.paste.value = "LC1;nonsense"
    ex.load_button.click()
    assert "Cannot load" in ex.message.value and ex.position == before


def test_a_position_pasted_into_the_replays_load_box_goes_to_the_explorer(played):
    """The reverse of a record in the position box: a position pasted into the replay was refused
    with "a position is analysed with 'lcanalysis solve' or 'advise'", the command line's words.
    Inside the explorer it is now handed to it and loaded there; a replay on its own names the explorer's Load box.
    The record being replayed stays."""
    start, turns = played
    ex = DecisionExplorer("example:opening", time_budget=0.2, record=record_round(start, turns))
    ex.replay.go(5)
    mid = read_position(example_text("midround"))
    for text in (mid.to_string(), example_text("midround")):
        ex.replay.paste.value = text
        ex.replay.load_button.click()
        said = html.unescape(ex.replay.message.value)
        assert "a position, not a game record" in said and "handed to the explorer above" in said, said
        assert "lcanalysis solve" not in said
        assert ex.position == mid and ex.replay.step.value == 5 and ex.replay.step.max == len(turns)
    alone = RecordReplay(record_round(start, turns))
    alone.paste.value = mid.to_string()
    alone.load_button.click()
    said = html.unescape(alone.message.value)
    assert "a position, not a game record" in said and "the decision explorer's Load box" in said, said
    assert "lcanalysis solve" not in said and alone.step.max == len(turns)


def test_replay_says_a_turn_tied_with_the_best_is_tied_not_ranked_with_a_loss():
    """An exact tie is listed after the best in the canonical order; the verdict read 'ranked 2 of N, a
    loss of 0.0 (exact) against the best turn', as if it lost something."""
    from helpers import played_down

    pos = played_down(0, 1)  # the endgame search values -Yw/D and -Yw/B both at exactly +25
    answer = analyze(pos.view(pos.to_move), time_budget=0.2, seed=1)
    best, tied = answer.moves[0], answer.moves[1]
    assert answer.exact and tied.value == best.value and tied.loss == 0
    start = Position.deal(seed=0, rules=pos.rules)
    rp = RecordReplay(record_round(start, [*pos.history, tied.move]), time_budget=0.2, seed=1)
    rp.go(len(pos.history))
    rp.analyze_button.click()
    assert f"Played {tied.move}: tied with the best, {best.move}: worth exactly as much" in rp.verdict.value
    assert "a loss of" not in rp.verdict.value
