"""Game records (docs/spec/interchange.md "Game records"): written from played rounds, read back the
same, replayed step by step to the positions and views the game really went through, and refused,
with the turn index, the line and the reason, when they do not hold together."""

from __future__ import annotations

import json

import pytest

from lcanalysis.agents import make_agent
from lcanalysis.game.match import Match
from lcanalysis.game.position import Position, PositionError
from lcanalysis.game.records import (
    MatchRecord,
    RecordError,
    RoundRecord,
    read_record,
    record_match,
    record_round,
    replay,
    write_record,
)
from lcanalysis.game.rules import Rules


def played_round(seed: int, rules: Rules | None = None, starter: int = 0, agents=("heuristic", "random")):
    """A round dealt with ``seed`` and played by two agents: the start, the end, every position on the way."""
    pos = Position.deal(seed, rules or Rules(), starter)
    start = pos.copy()
    players = [make_agent(a) for a in agents]
    positions = [pos.copy()]
    while not pos.is_over():
        pos.push(players[pos.to_move].choose(pos.view(pos.to_move), seed * 1000 + pos.turn))
        positions.append(pos.copy())
    return start, pos, positions


@pytest.fixture(scope="module")
def game():
    return played_round(5)


def test_a_full_deal_record_round_trips_through_json_and_the_text_form(game, tmp_path):
    start, end, _ = game
    rec = record_round(start, end.history, players=["heuristic", "random"])
    assert rec.is_full and rec.viewer is None and rec.is_finished() and len(rec) == end.turn
    data = json.loads(json.dumps(rec.to_json()))
    assert set(data) == {"rules", "start", "turns", "players"}
    assert data["turns"] == [str(m) for m in end.history]
    assert read_record(data) == rec
    path = tmp_path / "round.json"
    write_record(rec, path)
    assert read_record(str(path)) == rec
    text_path = tmp_path / "round.lcr"
    write_record(rec, text_path, form="text")
    assert read_record(text_path).to_json()["turns"] == data["turns"]
    assert rec.final() == end
    assert rec.scores() == end.scores()


def test_replay_yields_the_position_before_every_turn(game):
    start, end, positions = game
    rec = record_round(start, end.history)
    steps = list(replay(rec.to_json()))
    assert [s.index for s in steps] == list(range(end.turn))
    for step, pos in zip(steps, positions):
        assert step.before == pos
        assert step.player == pos.to_move
        assert str(step.turn) == str(end.history[step.index])
        assert step.drawn == (pos.deck[0] if step.turn.move.draws_from_deck else None)


def test_a_one_player_record_replays_to_that_players_real_views(game):
    start, end, positions = game
    for player in (0, 1):
        rec = record_round(start, end.history).seen_by(player)
        assert not rec.is_full and rec.viewer == player
        turns = rec.to_json()["turns"]
        for turn, pos, move in zip(turns, positions, end.history):
            if pos.to_move == player and move.draws_from_deck:
                assert turn == f"{move}:{pos.deck[0]}"  # the card this player saw drawn
            else:
                assert turn == str(move)  # the opponent's deck draws stay unknown
        again = read_record(write_record(rec))
        assert again == rec
        assert read_record(rec.to_text()) == rec
        for step, pos in zip(again.steps(), positions):
            assert step.before == pos.view(player)  # the reference: the real game's view
        assert again.final() == end.view(player)
        assert again.scores() == end.scores()


def test_a_round_played_with_chosen_draws_is_recorded_in_the_order_drawn():
    pos = Position.deal(8)
    start = pos.copy()
    moves, drawn = [], []
    while not pos.is_over() and pos.turn < 12:
        move = next(m for m in pos.legal_moves() if m.draws_from_deck)
        card = pos.deck[-1]  # a chance outcome other than the pile's top
        pos.push(move, drawn=card)
        moves.append(move)
        drawn.append(card)
    rec = record_round(start, moves, drawn=drawn)
    assert [s.drawn for s in rec.steps()] == drawn
    assert rec.final().hand(0) == pos.hand(0) and rec.final().hand(1) == pos.hand(1)


def _played_match(rules: Rules, first_seed: int):
    """A match under ``rules``, heuristic against greedy, round r dealt by ``first_seed + r``: the
    match and the record of each round."""
    match = Match(rules)
    rounds = []
    for r in range(rules.rounds):
        pos = match.new_round(seed=first_seed + r)
        start = pos.copy()
        agents = [make_agent("heuristic"), make_agent("greedy")]
        while not pos.is_over():
            pos.push(agents[pos.to_move].choose(pos.view(pos.to_move), r))
        match.record(pos.scores())
        rounds.append(record_round(start, pos.history))
    return match, rounds


def test_a_match_record_round_trips_and_its_totals_add_up(tmp_path):
    rules = Rules(rounds=3)
    match, rounds = _played_match(rules, first_seed=40)
    rec = record_match(rounds, rules, players=["heuristic", "greedy"])
    assert isinstance(rec, MatchRecord)
    assert rec.totals() == tuple(match.totals)
    text = write_record(rec, tmp_path / "match.json")
    assert read_record(text) == rec
    assert read_record(rec.to_text()).to_json()["rounds"][2]["turns"] == rec.to_json()["rounds"][2]["turns"]
    assert [s.round for s in rec.steps()][-1] == 3
    bad = rec.to_json()
    bad["rounds"][1]["start"]["match"]["totals"] = [0, 999]
    with pytest.raises(RecordError, match=r"round 2.*running totals"):
        read_record(bad)


# --- refusals -----------------------------------------------------------------------------


@pytest.fixture(scope="module")
def record_text(game):
    start, end, _ = game
    return write_record(record_round(start, end.history))


def _edit_turn(text: str, index: int, new: str) -> tuple[str, int]:
    """Replace the ``index``-th turn of a JSON record written one turn a line; returns the text and the line."""
    lines = text.splitlines()
    first = next(i for i, line in enumerate(lines) if '"turns"' in line) + 1
    lines[first + index] = f'    "{new}"' + ("," if lines[first + index].rstrip().endswith(",") else "")
    return "\n".join(lines), first + index + 1


def test_an_illegal_turn_is_refused_with_its_index_line_and_rule(game, record_text):
    _, _, positions = game
    pos = positions[7]
    held = set(pos.hand(1 - pos.to_move)) - set(pos.hand(pos.to_move))
    card = sorted(held)[0]  # the opponent's card: not in the mover's hand
    text, line = _edit_turn(record_text, 7, f"-{card}/D")
    with pytest.raises(RecordError) as err:
        read_record(text)
    assert err.value.index == 7 and err.value.line == line
    assert "not in the hand of the player to move" in err.value.reason
    assert f"turn index 7 ('-{card}/D'), line {line}" in str(err.value)


def test_an_unknown_card_is_refused(record_text):
    text, line = _edit_turn(record_text, 3, "+Y11/D")
    with pytest.raises(RecordError, match=r"turn index 3.*unknown card 'Y11'") as err:
        read_record(text)
    assert err.value.line == line


def test_impossible_draws_are_refused(game):
    start, end, positions = game
    full = record_round(start, end.history).to_json()
    first_deck = next(i for i, m in enumerate(end.history) if m.draws_from_deck)
    wrong = next(c for c in positions[first_deck].deck[1:] if c != positions[first_deck].deck[0])
    data = json.loads(json.dumps(full))
    data["turns"][first_deck] += f":{wrong}"
    with pytest.raises(RecordError, match=rf"turn index {first_deck}.*impossible draw.*top of the draw pile is "
                                          rf"{positions[first_deck].deck[0]}"):
        read_record(data)
    one = record_round(start, end.history).seen_by(0).to_json()
    mine = next(i for i, (m, p) in enumerate(zip(end.history, positions)) if p.to_move == 0 and m.draws_from_deck)
    visible = positions[mine].hand(0)[0]  # a card player 0 holds cannot come from the draw pile
    data = json.loads(json.dumps(one))
    data["turns"][mine] = data["turns"][mine].split(":")[0] + f":{visible}"
    with pytest.raises(RecordError, match=rf"turn index {mine}.*impossible draw: {visible} cannot be in the draw pile"):
        read_record(data)
    data["turns"][mine] = data["turns"][mine].split(":")[0]
    with pytest.raises(RecordError, match=rf"turn index {mine}.*impossible draw.*name the card drawn"):
        read_record(data)
    theirs = next(i for i, (m, p) in enumerate(zip(end.history, positions)) if p.to_move == 1 and m.draws_from_deck)
    data = json.loads(json.dumps(one))
    data["turns"][theirs] += ":B4"
    with pytest.raises(RecordError, match=rf"turn index {theirs}.*opponent's deck draws are unknown"):
        read_record(data)


def test_a_truncated_file_is_refused_with_its_line(record_text, tmp_path):
    cut = record_text[: len(record_text) * 2 // 3]
    path = tmp_path / "cut.json"
    path.write_text(cut)
    with pytest.raises(RecordError, match="truncated") as err:
        read_record(str(path))
    assert err.value.line == len(cut.splitlines())
    assert str(path) in str(err.value)


def test_other_bad_records_are_refused_never_repaired(game, record_text):
    start, end, _ = game
    data = json.loads(record_text)
    with pytest.raises(RecordError, match=f"turn index {end.turn}.*the round is over"):
        read_record({**data, "turns": data["turns"] + ["+R7/D"]})
    with pytest.raises(RecordError, match="unknown key"):
        read_record({**data, "moves": []})
    with pytest.raises(RecordError, match=r"the start's rules .* differ from the record's"):
        read_record({**data, "start": {**data["start"], "rules": {"colors": 5, "no_redraw": False}}})
    with pytest.raises(RecordError, match="start"):
        read_record({"rules": data["rules"], "turns": []})
    with pytest.raises(RecordError, match="line 3"):
        read_record("LCR1\n" + "start " + start.to_string() + "\n+Q7/D\n")
    assert isinstance(RecordError("x"), PositionError)  # every reader's callers catch PositionError


def test_a_text_record_may_open_with_comments_and_a_position_or_a_list_is_named_as_not_a_record(game, tmp_path):
    """The text form's reader skips comments before ``LCR1``, but the sniffing before it refused such
    a file as "neither a JSON record nor the text form"; a position file given as a record was
    "unknown key(s) ['deck', ...]", a JSON list "neither a JSON record ... nor a file"."""
    start, end, _ = game
    text = "# played on Tuesday\n\nLCR1\nstart " + start.to_string() + "\n" + str(end.history[0]) + "\n"
    assert len(read_record(text).turns) == 1
    path = tmp_path / "commented.lcr"
    path.write_text(text)
    assert len(read_record(str(path)).turns) == 1
    with pytest.raises(RecordError, match="this is a position, not a game record"):
        read_record(json.dumps(start.to_json()))
    with pytest.raises(RecordError, match="a JSON list is not a record"):
        read_record("[1, 2]")



def test_the_text_form_without_its_lcr1_line_or_with_another_tag_says_so_not_no_such_file(game, tmp_path):
    """A text record whose 'LCR1' line was left out (it opens with 'start LC1;...') was taken for a
    file's name, its turns holding '/': "no such file: start LC1;...". Given as text, piped in or in
    a file, it is now named as the text form missing its first line; another tag ('LCR2') as a text
    form this version does not read. Put back the line, and the same text reads."""
    from lcanalysis.game.records import read_record_text

    start, end, _ = game
    body = "# a comment first\nstart " + start.to_string() + "\n" + str(end.history[0]) + "\n"
    path = tmp_path / "untagged.lcr"
    path.write_text(body)
    for read, source, who in ((read_record, body, "this text"), (read_record_text, body, "this text"),
                              (read_record, str(path), str(path))):
        with pytest.raises(RecordError) as refused:
            read(source)
        assert f"{who} has no 'LCR1' line: the text form of a record begins with it" in str(refused.value)
        assert "no such file" not in str(refused.value)
    with pytest.raises(RecordError, match="this text begins with 'LCR2', a text form this version does not read"):
        read_record("LCR2\n" + body)
    assert len(read_record("LCR1\n" + body).turns) == 1

def test_an_example_name_given_as_a_record_is_named_a_position_and_an_unknown_one_no_example():
    """``review example:nosuch`` said "this is a position, not a game record": a name that is no
    example is no position either. A built-in example is still named a position."""
    from lcanalysis.game.examples import EXAMPLES

    with pytest.raises(RecordError) as unknown:
        read_record("example:nosuch")
    assert "no example 'nosuch'" in str(unknown.value) and "this is a position" not in str(unknown.value)
    assert all(name in str(unknown.value) for name in EXAMPLES)
    for name in EXAMPLES:
        with pytest.raises(RecordError, match="this is a position, not a game record"):
            read_record(f"example:{name}")


def test_the_text_form_keeps_the_players_names_and_the_comments():
    """The text form wrote them as comment lines and dropped them when read: a record read back
    from its own text was not the record (docs/spec/interchange.md: the keys are "kept")."""
    rules = Rules(rounds=2)
    _, rounds = _played_match(rules, first_seed=60)
    rounds[0].players, rounds[0].comment = ["ann", "bob"], "first round\nplayed fast"
    rec = record_match(rounds, rules, players=["ann", "bob"], comment="club night")
    back = read_record(rec.to_text())
    assert back == rec and back.players == ["ann", "bob"] and back.rounds[0].comment == "first round\nplayed fast"
    one = record_round(rounds[1].start, rounds[1].turns, players=["cat", "dan"], comment="a # in it")
    assert read_record(write_record(one, form="text")) == one


def test_the_text_form_refuses_names_and_comments_it_could_not_give_back(game):
    """A player's name with ' vs ' in it, an empty one, one with spaces around it or a line break
    came back from the text form lost (folded into the comment) or made a file its own reader
    refused; a comment with a line break other than \\n lost what followed it. Writing the text
    form now refuses them, naming the name; the JSON form keeps them all."""
    start, end, _ = game
    for names in (["a vs b", "c"], ["", "bob"], [" ann", "bob"], ["x\ny", "z"], ["ann", "b\u2028ob"]):
        rec = record_round(start, end.history[:3], players=names)
        with pytest.raises(RecordError, match="the text form cannot hold the player name"):
            write_record(rec, form="text")
        assert read_record(write_record(rec)) == rec and read_record(write_record(rec)).players == names
    rec = record_round(start, end.history[:3], players=["ann", "bob"], comment="one\rtwo")
    with pytest.raises(RecordError, match="the text form cannot hold a comment"):
        write_record(rec, form="text")
    assert read_record(write_record(rec)).comment == "one\rtwo"
    fine = record_round(start, end.history[:3], players=["Ann Lee", "vs"], comment="line 1\nline 2")
    assert read_record(write_record(fine, form="text")) == fine


def test_the_text_form_keeps_a_comments_trailing_spaces_or_refuses_a_line_break_at_its_end(game):
    """A comment line's trailing spaces (and tabs) were stripped when the text form was read back,
    so "to do: " came back "to do:" and the record was not the one written. They are kept now; a
    comment part ending in a line break other than \n (a vertical tab, \u2028), which would end its
    comment line early and be lost, is refused when writing, as one in the middle already was."""
    start, end, _ = game
    for comment in ("to do: ", "two  \nlines\t", "  ", "a\n \nb ", "x #  "):
        rec = record_round(start, end.history[:3], comment=comment)
        back = read_record(write_record(rec, form="text"))
        assert back.comment == comment and back == rec
    match = record_match([record_round(start, end.history, comment="round one ")], start.rules,
                         comment="club night  ")
    back = read_record(match.to_text())
    assert back.comment == "club night  " and back.rounds[0].comment == "round one " and back == match
    for comment in ("ends in a vertical tab\x0b", "ends in\u2028", "two\x1c\nlines"):
        rec = record_round(start, end.history[:3], comment=comment)
        with pytest.raises(RecordError, match="the text form cannot hold a comment"):
            write_record(rec, form="text")
        assert read_record(write_record(rec)).comment == comment  # the JSON form keeps it


def test_a_second_players_line_is_kept_as_a_comment_not_put_in_place_of_the_first(game):
    """Found by fuzzing the text form: '# players: ann vs bob' then '# players: cat vs dan' read
    as players cat and dan, the first line lost without a word. The first names the players; a
    second is kept as a comment, as a players line that names no two is."""
    text = f"LCR1\n# players: ann vs bob\n# players: cat vs dan\nstart {game[0].to_string()}\n"
    rec = read_record(text)
    assert rec.players == ["ann", "bob"] and rec.comment == "players: cat vs dan"
    again = write_record(rec, form="text")
    assert "ann vs bob" in again and "cat vs dan" in again and read_record(again) == rec


def test_a_record_larger_than_any_input_or_not_utf8_is_refused_unread(game, tmp_path):
    """The limit of every reader (docs/spec "Limits and budgets"), for records too: text, a file,
    a device that never ends; and a file that is not UTF-8 is named as such."""
    start = game[0]
    padded = "LCR1\n#" + "x" * 1_000_000 + "\nstart " + start.to_string() + "\n"
    with pytest.raises(RecordError, match=r"1,0[0-9,]+ characters long: the limit of any input is 1,000,000"):
        read_record(padded)
    big = tmp_path / "big.lcr"
    big.write_text(padded)
    with pytest.raises(RecordError, match=r"big\.lcr is longer than 1,000,000 characters"):
        read_record(str(big))
    with pytest.raises(RecordError, match="/dev/zero is longer than 1,000,000 characters"):
        read_record("/dev/zero")  # read no further than the limit
    latin = tmp_path / "latin.lcr"
    latin.write_bytes(b"\xff\xfeLCR1\n")
    with pytest.raises(RecordError, match=r"latin\.lcr: it is not UTF-8 text"):
        read_record(str(latin))
    assert read_record(padded[:7] + padded[1_000_001:]).start.to_string() == start.to_string()  # (the rest is valid)


def test_an_unfinished_round_is_a_valid_record_that_says_so(game):
    start, end, _ = game
    rec = RoundRecord(start, [str(m) for m in end.history[:10]])
    assert not rec.is_finished() and len(list(rec.steps())) == 10


def test_rules_that_leave_keys_out_inherit_the_enclosing_records_not_the_defaults():
    """A round of a 2-round match giving only the position format's three rules, or a start without
    the record's turn cap, was refused as "differing" (the keys left out were read as defaults);
    a key given and different is still refused."""
    rules = Rules(rounds=2, turn_cap=150)
    _, rounds = _played_match(rules, first_seed=60)
    data = record_match(rounds, rules).to_json()
    for rd in data["rounds"]:
        rd["rules"] = {"colors": 5, "hand_size": 8, "no_redraw": True}
        rd["start"]["rules"] = {"colors": 5}
    assert read_record(data).rules == rules and read_record(data).rounds[1].start.rules == rules
    data["rounds"][1]["rules"] = {"turn_cap": 200}
    with pytest.raises(RecordError, match=r"round 2.*the round's rules .* differ from the match's"):
        read_record(data)


def test_a_record_that_gives_no_rules_says_so_when_its_start_or_round_has_others(tmp_path, capsys):
    """A record without ``rules`` and a 6-colour start was refused as "the start's rules {...} differ
    from the record's {...}", rules the record never gave. It now says the record gives none, so it
    has the defaults, and what to write at its top (a match's: the rounds share them); following
    that advice reads the record. Where the record gave rules, only their keys are named as given."""
    from lcanalysis.cli.main import main

    six = Position.deal(seed=3, rules=Rules(colors=6)).to_json()
    defaults = 'default rules ("colors": 5, "hand_size": 8, "no_redraw": true, "rounds": 3'
    cases = [({"start": six, "turns": []}, "the record gives no rules", "the start's rules give",
              'write "rules": {"colors": 6} at the top of the record'),
             ({"rounds": [{"start": six, "turns": []}]}, "round 1: the match gives no rules", "the start's rules give",
              'write "rules": {"colors": 6} at the top of the match record'),
             ({"rounds": [{"rules": {"colors": 6}, "start": six, "turns": []}]}, "round 1: the match gives no rules",
              "the round's rules give", 'write "rules": {"colors": 6} at the top of the match record')]
    for data, gives_none, part, advice in cases:
        with pytest.raises(RecordError) as refused:
            read_record(data)
        message = str(refused.value)
        assert gives_none in message and defaults in message and part in message and advice in message, message
        assert read_record({**data, "rules": {"colors": 6}}).rules.colors == 6  # the advice, followed
    path = tmp_path / "six.json"
    path.write_text(json.dumps(cases[0][0]))
    assert main(["review", str(path), "--no-progress"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("lcanalysis review: error: argument record: the record gives no rules") and cases[0][3] in err
    # rules given, but not the key that differs: it is named as left out, and where to add it
    partial = {"rules": {"rounds": 2}, "rounds": [{"start": six, "turns": []}]}
    with pytest.raises(RecordError) as refused:
        read_record(partial)
    message = str(refused.value)
    assert "gives no rules" not in message and '"colors": 5 (left out: the default)' in message
    assert 'add "colors": 6 to the rules at the top of the match record' in message
    assert read_record({**partial, "rules": {"rounds": 2, "colors": 6}}).rules == Rules(colors=6, rounds=2)
    # a key given and different is named as given, with no advice to add it
    with pytest.raises(RecordError) as refused:
        read_record({"rules": {"colors": 5}, "start": six, "turns": []})
    message = str(refused.value)
    assert "the start's rules (\"colors\": 6) differ from the record's (\"colors\": 5):" in message, message
    assert "gives no rules" not in message and "left out" not in message


def test_a_turn_that_names_two_cards_drawn_is_refused_saying_a_turn_draws_one():
    """'-Yw/D:B4:B5' was refused as "unknown card 'B4:B5': value '4:B5' is not 2..10 or w"."""
    view = Position.deal(seed=3).view(0).to_json()
    with pytest.raises(RecordError, match=r"turn index 0 .*names more than one card drawn: a turn draws one card, "
                                          r"written once after ':'") as refused:
        read_record({"start": view, "turns": ["-Yw/D:B4:B5"]})
    assert "2..10 or w" not in str(refused.value)


def test_a_one_player_record_drawing_the_card_its_turn_placed_says_so():
    """Player 0 discarding B4 (their only copy) and drawing B4 was refused as "B4 cannot be in the draw
    pile: it is in player 0's hand", true only before the turn was played."""
    view = Position.deal(seed=3).view(0).to_json()
    assert "B4" in view["hands"][0]
    for turn, verb in (("-B4/D:B4", "discards"), ("+B4/D:B4", "plays")):
        with pytest.raises(RecordError, match=rf"impossible draw: B4 cannot be in the draw pile: this turn {verb} it$"):
            read_record({"start": view, "turns": [turn]})


def test_a_json_start_written_as_the_one_line_string_points_to_the_text_form():
    """A JSON record whose start was the one-line string was refused as "start must be a position
    object", with no word on where that string is read; following the advice reads the record."""
    deal = Position.deal(seed=3)
    with pytest.raises(RecordError, match=r"start must be a position object.*got str; a start as the one-line string "
                                          r"belongs in the text form: the line 'LCR1'"):
        read_record({"start": deal.to_string(), "turns": ["-B4/D"]})
    assert read_record(f"LCR1\nstart {deal.to_string()}\n-B4/D\n") == read_record(
        {"start": deal.to_json(), "turns": ["-B4/D"]})


def test_a_match_whose_rounds_have_other_rules_names_the_keys_that_differ():
    """The text form's "the rounds of a match must share their rules" named no rule, and a
    ``MatchRecord`` built in Python printed both rules in full (six keys each) for one that differs."""
    five, six = Position.deal(seed=3), Position.deal(seed=4, rules=Rules(colors=6))
    with pytest.raises(RecordError, match=r'round 2, line 3: the rounds of a match must share their rules: this '
                                          r'round\'s start gives "colors": 6, round 1\'s "colors": 5$'):
        read_record(f"LCR1\nstart {five.to_string()}\nstart {six.to_string()}\n")
    with pytest.raises(RecordError, match=r'round 1: the round\'s rules \("colors": 5\) differ from the match\'s '
                                          r'\("colors": 6\): a match\'s rounds share its rules$'):
        MatchRecord(Rules(colors=6), [read_record({"start": five.to_json(), "turns": []})])


def test_a_match_record_whose_later_round_has_the_wrong_starter_is_refused():
    """The rules say who starts each later round (the higher total; on a tie, tied_start): a record
    in which the trailing player started round 2 was reviewed as if it were a real match."""
    from lcanalysis.game.match import next_starter

    rules = Rules(rounds=2)
    match, rounds = _played_match(rules, first_seed=40)
    assert record_match(rounds, rules).totals() == tuple(match.totals)
    want = match.starters[1]
    assert match.totals != [0, 0] and want == next_starter(rounds[0].scores(), match.starters[0], rules)
    wrong = Position.deal(seed=41, rules=rules, starter=1 - want)
    wrong.match = dict(rounds[1].start.match)
    start = wrong.copy()
    agents = [make_agent("heuristic"), make_agent("greedy")]
    while not wrong.is_over():
        wrong.push(agents[wrong.to_move].choose(wrong.view(wrong.to_move), 1))
    with pytest.raises(RecordError, match=rf"round 2.*player {1 - want} starts round 2, but the totals are "
                                          rf"-?\d+--?\d+, so player {want} \(the higher total\) starts it"):
        record_match([rounds[0], record_round(start, wrong.history)], rules)
    # ties, by hand: the previous starter again under 'same', the other player under 'alternate'
    assert [next_starter((10, 10), p, Rules(tied_start="same")) for p in (0, 1)] == [0, 1]
    assert [next_starter((10, 10), p, Rules(tied_start="alternate")) for p in (0, 1)] == [1, 0]
    assert [next_starter(t, 1, rules) for t in ((11, 10), (10, 11))] == [0, 1]


def test_records_made_in_code_are_checked_as_records_read_are():
    """Found by a review: record_round(pos, moves, players=[1, 2, 3], comment=5) was taken, and then
    could not be written as text nor read back; state(100) was an IndexError and state(-1) the last
    state; record_match numbered the caller's own records; None as a start or rounds was Python's."""
    from lcanalysis.game.records import RecordError, read_record, record_match, record_round, write_record

    pos = Position.deal(seed=7)
    moves = ["-Yw/D", "+Y3/Y", "-Bw/D"]
    for kw, said in (({"players": [1, 2, 3]}, "players must be a list of two names"),
                     ({"comment": 5}, "comment must be a string"), ({"drawn": 5}, "drawn must list a card")):
        with pytest.raises(RecordError, match=said):
            record_round(pos, moves, **kw)
    with pytest.raises(RecordError, match="start must be a Position or a View, got None"):
        record_round(None, moves)
    rec = record_round(pos, moves, players=("ann", "bo"))
    assert read_record(write_record(rec)).players == ["ann", "bo"]  # a tuple of names kept as the list
    assert "# players: ann vs bo" in write_record(rec, form="text")  # (names of another type failed here)
    for bad in (100, -1, 1.5, None):
        with pytest.raises(RecordError, match="index must be a turn number from 0 to 3"):
            rec.state(bad)
    assert rec.state(3) == rec.final() and rec.state(0) == pos
    match = record_match([rec], rules=Rules(rounds=3))
    assert [r.round for r in match.rounds] == [1] and rec.round is None
    for bad in (None, [5]):
        with pytest.raises(RecordError, match="rounds must be a list of round records"):
            record_match(bad)


@pytest.mark.parametrize("path", ["nosuch.json", "games/round1.lcr", "nosuch.txt"])
def test_a_record_file_that_does_not_exist_is_named_as_missing(path):
    """'lcanalysis review nosuch.json' said "'nosuch.json' is neither a JSON record, the text form
    'LCR1 ...' nor a file", where 'lcanalysis show nosuch.json' says "no such file"."""
    with pytest.raises(RecordError, match=f"^record: no such file: {path}$|^no such file: {path}$"):
        read_record(path)
    with pytest.raises(RecordError, match="is neither a JSON record"):
        read_record("nosuch")  # no path, no file suffix: it may have been meant as a record


def _stalling_round(turns: int, seed: int = 5) -> tuple[Position, Position]:
    """A real round that stalls on the discard piles (no_redraw off, a high turn cap), ``turns`` long."""
    import random

    pos = Position.deal(seed=seed, rules=Rules(no_redraw=False, turn_cap=turns))
    start = pos.copy()
    rng = random.Random(seed)
    while not pos.is_over():
        moves = pos.legal_moves()
        stalls = [m for m in moves if not m.draws_from_deck]
        pos.push(rng.choice(stalls if stalls and rng.random() < 0.99 else moves))
    return start, pos


def test_reading_a_long_record_plays_its_turns_on_one_state_not_a_copy_a_turn(monkeypatch):
    """Reading a 10,000-turn record took 9 to 14 s (a one-player record minutes): the replay copied
    the whole position, history and all, at every turn, and a one-player record completed its view
    into a new position at every turn, reading its whole history again. The turns are now played
    on one state, with a copy kept every ``CHECKPOINT`` turns (what ``state(i)`` starts from), and a
    one-player record completes its view once. Counted here, not timed; the states are checked
    against the turns pushed one by one and against the full record's views."""
    from lcanalysis.game import records
    from lcanalysis.game.view import View

    start, end = _stalling_round(1_000)
    assert end.turn == 1_000 and end.is_capped()
    copies, completions = [0], [0]
    copy, complete = Position.copy, View.complete

    def counted_copy(self):
        copies[0] += 1
        return copy(self)

    def counted_complete(self, *args):
        completions[0] += 1
        return complete(self, *args)

    full_text = record_round(start, end.history).to_text()
    mine_text = write_record(record_round(start, end.history).seen_by(1))
    monkeypatch.setattr(Position, "copy", counted_copy)
    monkeypatch.setattr(View, "complete", counted_complete)
    full = read_record(full_text)
    assert copies[0] <= 1_000 // 50  # one every CHECKPOINT turns and a few (before: 1,001)
    mine = read_record(mine_text)
    assert completions[0] == 1  # (before: one a turn)
    monkeypatch.undo()
    assert full.final() == end and mine.final() == end.view(1) and full.is_capped() and mine.is_capped()
    pos = start.copy()
    checkpoint = getattr(records, "CHECKPOINT", 64)
    wanted = {0, 1, checkpoint - 1, checkpoint, checkpoint + 1, 2 * checkpoint, 777, 999, 1_000}
    for i in range(1_001):
        if i in wanted:
            assert full.state(i) == pos and mine.state(i) == pos.view(1)
        if i < 1_000:
            pos.push(end.history[i])
    steps = list(mine.steps())
    assert [s.index for s in steps] == list(range(1_000))
    pos = start.copy()
    for step in steps:
        assert step.before == pos.view(1) and step.player == pos.to_move
        drawn = pos.push(step.turn.move)
        assert step.drawn == (drawn if step.player == 1 and step.turn.move.draws_from_deck else None)


def _kept_by_a_read(text: str) -> tuple[int, RoundRecord]:
    """(bytes still allocated while the record read from ``text`` is kept, the record)."""
    import gc
    import tracemalloc

    gc.collect()
    tracemalloc.start()
    try:
        base = tracemalloc.get_traced_memory()[0]
        rec = read_record(text)
        gc.collect()
        kept = tracemalloc.get_traced_memory()[0] - base
    finally:
        tracemalloc.stop()
    assert isinstance(rec, RoundRecord)
    return kept, rec


def test_a_read_record_keeps_memory_that_grows_with_its_length_not_its_square():
    """A record kept its replay's state every ``CHECKPOINT`` turns as a whole copy, each with the
    round's history so far and its undo entries: 4,000 turns kept 8 times what 1,000 did (10,000
    turns 15 MB, 13 of them the checkpoints). The checkpoints now keep the table alone and the record
    the history once, so each turn more keeps about as much memory, however long the record; every state is still the
    round's (checked against the turns pushed one by one), with its whole history, and can take its
    turns back."""
    rules = Rules(no_redraw=False, turn_cap=10_000)
    start = Position.deal(seed=3, rules=rules)  # player 0 holds Yw, player 1 B10: both stall on a pile

    def text(turns: int) -> str:
        return "LCR1\nstart " + start.to_string() + "\n" + "\n".join(["-Yw/Y", "-B10/B"] * (turns // 2)) + "\n"

    kept = {}
    for turns in (1_000, 4_000, 7_000):
        kept[turns], rec = _kept_by_a_read(text(turns))
    # 3,000 more turns keep as much more memory after 4,000 turns as after 1,000 (measured 1.3 times as
    # much, for lists that grow by steps); memory that grows with the square keeps 33/15 = 2.2 times (2.0)
    more, then = kept[4_000] - kept[1_000], kept[7_000] - kept[4_000]
    assert 0 < then < 1.6 * more, kept
    rec = _kept_by_a_read(text(4_000))[1]
    pos = start.copy()
    for i in range(4_001):
        if i in {0, 1, 63, 64, 65, 1_000, 2_049, 3_999, 4_000}:
            got = rec.state(i)
            assert got == pos and got.history == pos.history and len(got.history) == i
        if i < 4_000:
            pos.push(rec.turns[i].move)
    a = rec.state(2_049)
    assert str(a.pop()) == "-Yw/Y" and a == rec.state(2_048) and a.history == rec.state(2_048).history
    assert rec.state(2_049).history[-1] == "-Yw/Y"  # the record's own history is untouched


def test_reading_a_record_shows_a_progress_bar_when_asked_and_it_takes_long(monkeypatch, capsys):
    """Reading a long record showed nothing while it was replayed. ``read_record(source, progress=True)``
    now shows a bar on standard error over the turns replayed, once reading has taken
    ``PROGRESS_DELAY`` seconds (set to 0 here, so that the bar of a quick read shows); without
    ``progress`` (the default) nothing is printed."""
    from lcanalysis import progress

    start, end = _stalling_round(300)
    rec = record_round(start, end.history)
    match = record_match([rec], rec.rules, comment="a match of one round so far")
    forms = (rec.to_text(), write_record(rec), rec.to_json(), match.to_text(), write_record(match))
    monkeypatch.setattr(progress, "PROGRESS_DELAY", 0.0, raising=False)
    for form, want in zip(forms, (rec, rec, rec, match, match)):
        assert read_record(form) == read_record(form, progress=False) == want
        assert capsys.readouterr().err == ""
        assert read_record(form, progress=True) == want
        err = capsys.readouterr().err
        assert "reading the record" in err and "300/300" in err, err
    monkeypatch.setattr(progress, "PROGRESS_DELAY", 3600.0)  # the read ends before the bar would show
    read_record(forms[0], progress=True)
    assert "reading the record" not in capsys.readouterr().err


def test_a_written_record_s_start_is_a_position_of_the_shared_format_on_its_own():
    """docs/spec/interchange.md: a record is {"rules", "start": POSITION, "turns"}, and a POSITION that
    leaves out `rules` has the default rules. The start was written without its rules, so a tool reading
    it as the position the spec says it is read a 6-colour start as a 5-colour one (and refused its
    purple cards), and a start without the no-redraw rule as one with it. Each start, a match's rounds'
    too, now carries its rules, and reads back alone as the record's own start."""
    from lcanalysis.game.notation import read_position

    for rules in (Rules(colors=6), Rules(no_redraw=False, hand_size=6)):
        pos = Position.deal(seed=3, rules=rules)
        start = pos.copy()
        agent = make_agent("greedy")
        for _ in range(4):
            pos.push(agent.choose(pos.view(pos.to_move), 0))
        record = record_round(start, pos.history)
        for rec in (record, record.seen_by(0)):
            data = json.loads(write_record(rec))
            assert read_position(data["start"]) == rec.start and data["start"]["rules"] == data["rules"]
            assert read_record(data) == rec
    rules = Rules(rounds=2, turn_cap=150)
    _, rounds = _played_match(rules, first_seed=60)
    data = json.loads(write_record(record_match(rounds, rules)))
    for rd, rec in zip(data["rounds"], rounds, strict=True):
        assert rd["start"]["rules"] == data["rules"] and read_position(rd["start"]) == rec.start
    assert read_record(data) == record_match(rounds, rules)


def test_a_one_player_record_from_a_view_with_buried_pile_cards_is_refused_in_words_a_player_reads(tmp_path, capsys):
    """A one-player record whose start is a view remembered with buried pile cards (``W?``) was
    refused with "cannot complete the view: this view has buried pile cards (G?): fill them first
    (View.fills, View.filled)": Python methods, at the command line, and no reason. It now says
    why a record cannot be replayed from one and what to write instead; a record with no turn still
    reads (nothing to replay)."""
    from lcanalysis.cli.main import main

    view = ("LC1;c5;h8;nr;m0;v0;p0=Y9.Bw.B4.W8.W9.G6.G10.R10;p1=?8;e0=Y3.Y5.Bw.B6.B8.B9.W3.Gw.Gw.G2.G5;"
            "e1=B3.B5.B7.G4.G7;x=Yw.W?.W?.Ww.R?.R2;d=22")
    text = f"LCR1\nstart {view}\n+W8/D:Y2 -R3/D\n"
    said = ("start: player 0's view has buried pile cards (G?), and a record cannot be replayed from one: a pile "
            "taken down to a buried card shows a card no turn names; write the start's pile cards in full")
    with pytest.raises(RecordError) as refused:
        read_record(text)
    assert said in str(refused.value) and "View.fills" not in str(refused.value)
    assert len(read_record(f"LCR1\nstart {view}\n")) == 0
    path = tmp_path / "remembered.lcr"
    path.write_text(text)
    assert main(["review", str(path), "--no-progress"]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"lcanalysis review: error: argument record: {path}: {said}") and "Traceback" not in err, err


def _long_match(rounds: int) -> MatchRecord:
    """A match of ``rounds`` real rounds, built fast: one deal played once from each seat (heuristic
    against random), then each round of the match is that deal with the starter the running totals
    name, carrying its match score; replayed, so checked, as it is built."""
    rules = Rules(rounds=rounds)
    played = {p: played_round(11, rules, starter=p) for p in (0, 1)}
    match = Match(rules)
    recs = []
    for r in range(1, rounds + 1):
        starter = match.next_starter()
        start, end, _ = played[starter]
        start = start.copy()
        start.match = {"round": r, "totals": list(match.totals)}
        recs.append(record_round(start, end.history))
        match.record(end.scores(), starter)
    rec = record_match(recs, rules, players=["ann", "bob"])
    assert rec.totals() == tuple(match.totals)
    return rec


def test_a_200_round_match_record_reads_back_from_json_as_from_the_text_form(tmp_path):
    """A JSON match record held only about 70 rounds: its reader refused more than 1,000 lists and
    objects (a round spends 14), so ``lcanalysis review`` could not read a 200-round match the tool
    had written itself, while the text form read it. The count limits now scale with the rounds the
    record holds: every legal record reads, hostile padding is still refused."""
    rec = _long_match(200)
    text = write_record(rec, tmp_path / "long.json")
    assert text.count("[") + text.count("{") > 2_000 and text.count(",") > 21_000  # past both old limits
    for form in (str(tmp_path / "long.json"), json.dumps(rec.to_json(compact=True)), write_record(rec, form="text")):
        back = read_record(form)
        assert back == rec and len(back.rounds) == 200 and back.totals() == rec.totals()
    # a guard remains: lists and objects beyond what the rounds can hold are refused, in words
    padded = json.dumps(rec.to_json()).replace('"players"', '"pad": [' + ",".join(["[]"] * 13_000) + '], "players"')
    with pytest.raises(RecordError, match=r"15,805 lists and objects; a record of 200 rounds has at most 64 per "
                                          r"round \(the limit is 13,736\)"):
        read_record(padded)
    with pytest.raises(RecordError, match=r"lists and objects"):
        read_record('{"rules": {}, "rounds": [' + ",".join(["{}"] * 2_000) + "]}")


def test_a_match_record_seen_by_one_player_is_each_round_as_that_player_kept_it():
    """``seen_by`` was a round's only: ``MatchRecord.seen_by`` was an AttributeError, so the record a
    player could have kept of a whole match had to be put together round by round."""
    rules = Rules(rounds=3)
    _, rounds = _played_match(rules, first_seed=40)
    rec = record_match(rounds, rules, players=["heuristic", "greedy"], comment="club night")
    for player in (0, 1):
        mine = rec.seen_by(player)
        assert isinstance(mine, MatchRecord) and mine.players == rec.players and mine.comment == rec.comment
        assert [r.to_json() for r in mine.rounds] == [r.seen_by(player).to_json() for r in rounds]
        assert all(r.viewer == player for r in mine.rounds) and mine.totals() == rec.totals()
        assert read_record(write_record(mine)) == mine and read_record(write_record(mine, form="text")) == mine
        assert mine.seen_by(player) is not mine and mine.seen_by(player) == mine
        with pytest.raises(RecordError, match=f"this is player {player}'s record"):
            mine.seen_by(1 - player)


def test_a_record_refused_for_its_size_is_not_parsed_first():
    """The record reader parsed every JSON text the limits refused with json.loads, only to look for a
    syntax error's line, so 330,000 empty lists cost 21 bytes of memory per byte of input before the
    refusal (a position's reader: none). A refusal by the limits now costs nothing; a syntax error
    still names its line."""
    import tracemalloc

    text = '{"rules": {}, "rounds": [' + ",".join(["[]"] * 330_000) + "]}"
    tracemalloc.start()
    try:
        with pytest.raises(RecordError, match="330,003 lists and objects"):
            read_record(text)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 100_000, f"{peak:,} bytes"
    with pytest.raises(RecordError, match=r"line 2: malformed JSON: Expecting .,. delimiter \(column 2\)") as refused:
        read_record('{"rules": {}\n "start": {}}')
    assert refused.value.line == 2
    with pytest.raises(RecordError, match="the JSON ends early"):
        read_record('{"rules": {}, "start": {')
