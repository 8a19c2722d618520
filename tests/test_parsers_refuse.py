"""Regression tests for the readers (issue 16): each input that crashed or was wrongly accepted
is refused with our own error naming the problem, and a history is checked against the table
it claims to lead to. The broad, generated version of these is tests/test_fuzz.py."""

from __future__ import annotations

import io
import json
import subprocess
import sys

import pytest
from helpers import random_round_positions

from lcanalysis.agents.protocol import BotError, ExternalAgent, serve
from lcanalysis.game.cards import Card, CardError
from lcanalysis.game.moves import Move, MoveError
from lcanalysis.game.notation import from_json, read_position, string_to_json
from lcanalysis.game.position import Position, PositionError
from lcanalysis.game.records import RecordError, read_record, record_round
from lcanalysis.game.rules import IllegalMoveError, Rules, RulesError
from lcanalysis.game.view import View


def _round(seed: int = 3, turns: int = 20, rules: Rules | None = None) -> Position:
    pos = None
    for i, pos in enumerate(random_round_positions(seed, rules or Rules(), deck_bias=0.6)):  # noqa: B007
        if i == turns:
            break
    assert pos is not None and pos.history
    return pos.copy()


DEEP = "[" * 2000 + "]" * 2000


# --- crashes that are now errors ---------------------------------------------------------


@pytest.mark.parametrize("text", [
    '{"to_move": ' + DEEP + "}",
    "{" + '"a": {' * 2000 + "}" * 2001,
    '{"to_move": ' + "[" * 100_000 + "]" * 100_000 + "}",
    '{"to_move": ' + "9" * 5000 + "}",
    '{"to_move": 0, "hands": [[], []], "deck": 1e999}',
    '{"to_move": NaN}',
    '{"to_move": 0, "to_move": 1}',
])
def test_json_nested_deep_huge_numbers_and_repeated_keys_are_refused(text, tmp_path):
    with pytest.raises(PositionError) as err:
        read_position(text)
    assert str(err.value)
    path = tmp_path / "position.json"
    path.write_text(text)
    with pytest.raises(PositionError):
        read_position(str(path))


@pytest.mark.parametrize("text", ["[1, 2]", DEEP])
def test_a_json_list_is_named_as_a_list_not_a_position(text, tmp_path):
    """Found by a review: 5,000 nested '[' read as "neither a JSON position nor a one-line 'LC1;...'
    string", though it is JSON: a list, where a position is an object."""
    with pytest.raises(PositionError, match=r"the input holds a JSON list .*a JSON position is an object"):
        read_position(text)
    path = tmp_path / "list.json"
    path.write_text(text)
    with pytest.raises(PositionError, match=r"the file holds a JSON list .*a JSON position is an object"):
        read_position(str(path))


def test_a_command_given_deeply_nested_json_says_so_without_a_traceback(tmp_path):
    path = tmp_path / "deep.json"
    path.write_text('{"to_move": ' + DEEP + "}")
    proc = subprocess.run([sys.executable, "-m", "lcanalysis", "show", str(path)], capture_output=True, text=True,
                          timeout=120, check=False)
    assert proc.returncode == 2 and "nested" in proc.stderr and "Traceback" not in proc.stderr


def _bot(lines: list[str]) -> list[dict]:
    out = io.StringIO()
    assert serve("random", io.StringIO("".join(x + "\n" for x in lines)), out) == 0
    return [json.loads(x) for x in out.getvalue().splitlines()]


def test_the_bot_answers_a_deep_line_and_a_huge_number_with_an_error_and_keeps_serving():
    pos = _round()
    good = json.dumps({"type": "turn", "position": pos.to_json()})
    replies = _bot(["[" * 100_000 + "]" * 100_000, '{"type": "turn", "time_ms": ' + "9" * 5000 + "}", good,
                    '{"type": "turn", "time_ms": 1e999, "position": {}}', "x" * 2_000_000, good, '{"type": "quit"}',
                    good])
    assert len(replies) == 6
    for i in (0, 1, 3, 4):
        assert set(replies[i]) == {"error"} and replies[i]["error"]
    assert "nested" in replies[0]["error"] and "5,000 digits" in replies[1]["error"]
    assert "longer than" in replies[4]["error"]
    assert pos.can_play(replies[2]["move"]) and replies[5] == replies[2]


def test_the_bot_program_survives_bad_bytes_and_nasty_lines():
    pos = _round()
    good = json.dumps({"type": "turn", "position": pos.to_json()}).encode()
    feed = (b"\xff\xfe not utf-8\n" + b"[" * 100_000 + b"\n" + b'{"time_ms": ' + b"9" * 5000 + b"}\n" + good
            + b'\n{"type": "quit"}\n')
    proc = subprocess.run([sys.executable, "-m", "lcanalysis", "bot", "greedy"], input=feed, capture_output=True,
                          timeout=120, check=False)
    assert proc.returncode == 0, proc.stderr
    replies = [json.loads(x) for x in proc.stdout.splitlines()]
    assert [set(r) for r in replies] == [{"error"}, {"error"}, {"error"}, {"move"}]


def test_a_bot_error_is_a_value_error_too():
    assert issubclass(BotError, ValueError) and issubclass(BotError, RuntimeError)


@pytest.mark.parametrize("answer", ["[" * 100_000, '{"move": ' + "9" * 5000 + "}", '{"move": ["+R7/D"]}', "null",
                                    b"\xff\xfe"])
def test_an_external_bot_answering_nasty_lines_raises_bot_error(answer):
    pos = _round()
    write = (f"sys.stdout.buffer.write({answer!r} + b'\\n'); sys.stdout.flush()" if isinstance(answer, bytes)
             else f"print({answer!r}, flush=True)")
    script = f"import sys\nfor line in sys.stdin:\n    if 'quit' in line: break\n    {write}"
    bot = ExternalAgent([sys.executable, "-c", script])
    try:
        with pytest.raises(BotError):
            bot.choose(pos.view(pos.to_move))
    finally:
        bot.close()


def test_rules_refuse_absurd_numbers_and_floats_naming_the_allowed_range():
    with pytest.raises(RulesError, match=r"turn_cap must be a whole number 1\.\.10000, got 1099511627776"):
        Rules(turn_cap=2**40)
    with pytest.raises(RulesError, match=r"colors must be 5 or 6 \(a whole number\), got 5\.0"):
        Rules(colors=5.0)
    with pytest.raises(RulesError, match="rounds"):
        Rules(rounds=10**5000)
    with pytest.raises(RulesError, match="hand_size"):
        Rules(hand_size=True)
    data = Position.deal(1).to_json()
    for key, value in (("turn_cap", 2**40), ("colors", 5.0), ("colors", True), ("hand_size", 8.0)):
        with pytest.raises(PositionError, match=key):
            from_json({**data, "rules": {**data["rules"], key: value}})
    with pytest.raises(PositionError, match="turn_cap"):
        read_position(Position.deal(1).to_string() + ";cap=1099511627776")


def test_library_constructors_refuse_none_and_wrong_types_with_our_errors():
    with pytest.raises(PositionError, match="hands must be a list of two"):
        Position.from_parts(None)
    with pytest.raises(PositionError, match="rules must be a Rules, a dict of its options or None"):
        Position.from_parts([[], []], rules="c5")  # (a dict of the options is taken, as Position.deal takes it)
    with pytest.raises(PositionError, match="to_move"):
        Position.from_parts([[], []], to_move=True)
    with pytest.raises(PositionError, match="list of cards"):
        Position.from_parts(["R7", []])
    with pytest.raises(PositionError, match="more than 60 cards"):
        Position.from_parts([iter(lambda: "R7", None), []])  # endless: stopped, not read to the end
    with pytest.raises(PositionError, match="expeditions"):
        View.from_parts([], 8, 44, expeditions=None)
    with pytest.raises(PositionError, match="viewer"):
        View.from_parts([], 8, 44, viewer=1.0)
    with pytest.raises(CardError):
        Card("R", 7)
    with pytest.raises(CardError):
        Card.parse("R" + "7" * 5000)
    with pytest.raises(MoveError):
        Move(Card(0, 1), "yes", "D")
    with pytest.raises(MoveError):
        Move.from_code(3.5, 5)


def test_cards_given_as_numbers_are_refused_in_json():
    pos = _round()
    data = pos.to_json()
    data["hands"][0][0] = Card.parse(data["hands"][0][0]).type
    with pytest.raises(PositionError, match="a card is a string like 'R7'"):
        from_json(data)
    data = pos.view(0).to_json()
    data["deck"] = [3]
    with pytest.raises(PositionError):
        from_json(data)
    data = pos.to_json()
    data["history"][0] = 17
    with pytest.raises(PositionError, match="history move 1: a move is a string"):
        from_json(data)


@pytest.mark.parametrize("blocked", ["", "YB", "ß", 0, ["R"], "Q"])
def test_blocked_must_be_one_colour_letter_or_null(blocked):
    data = Position.deal(1).to_json()
    data["hands"][0].pop()
    data["discards"] = {"R": ["R9"]} if "R9" not in data["deck"] else {}
    data["phase"], data["blocked"] = "draw", blocked
    with pytest.raises(PositionError):
        from_json(data)


@pytest.mark.parametrize("key", ["YB", "", "ß", "RR", "Rw"])
def test_colour_keys_are_single_letters(key):
    data = _round().to_json()
    data["discards"][key] = data["discards"].pop(next(iter(data["discards"])))
    with pytest.raises(PositionError, match="not a colour"):
        from_json(data)


def test_a_file_with_a_byte_order_mark_reads(tmp_path):
    pos = _round()
    path = tmp_path / "bom.json"
    path.write_bytes(b"\xef\xbb\xbf" + json.dumps(pos.to_json()).encode())
    assert read_position(str(path)) == pos
    assert read_position("\ufeff" + pos.to_string()) == pos


def test_a_match_state_that_cannot_arise_is_refused():
    data = _round().to_json()
    for match in ({"round": 4, "totals": [0, 0]}, {"round": 1, "totals": [35, 10]}, {"round": 2, "totals": [5000, 0]},
                  {"round": 2, "totals": [1, 2, 3]}, {"round": True}, {"rounds": 2}):
        with pytest.raises(PositionError, match="match"):
            from_json({**data, "match": match})
    ok = from_json({**data, "match": {"round": 2, "totals": [35, -10]}})
    assert ok.match == {"round": 2, "totals": [35, -10]}


@pytest.mark.parametrize("match, missing", [({"round": 2}, "'totals' missing"), ({"totals": [0, 0]}, "'round' missing"),
                                            ({}, "'round' and 'totals' missing")])
def test_a_match_state_without_its_round_or_totals_is_refused_not_filled_in(match, missing):
    """Found by a review: {"round": 2} read as a level match ({"totals": [0, 0]}), so every match
    chance was for a tied score the user never gave; the string form 'match=2' was refused."""
    with pytest.raises(PositionError, match=f"match must give both the round and the running totals.*{missing}"):
        from_json({**_round().to_json(), "match": match})
    with pytest.raises(PositionError, match="match"):
        read_position(_round().to_string() + ";match=2")


# --- a history against the table ------------------------------------------------------------


def test_the_issues_example_a_one_turn_history_under_a_table_that_is_not_its_end():
    table = Position.deal(1)
    played = table.copy()
    played.push(next(m for m in played.legal_moves() if m.draws_from_deck))
    played.push(next(m for m in played.legal_moves() if m.draws_from_deck))
    assert played.deck_count == 42
    text = played.to_string().split(";hist=")[0]
    with pytest.raises(PositionError, match="history does not lead to this table"):
        read_position(text + ";hist=+R7/D")
    with pytest.raises(PositionError, match="history does not lead to this table"):
        read_position(played.view(played.to_move).to_string().split(";hist=")[0] + ";hist=+R7/D")


def test_every_real_history_is_accepted_and_a_history_may_be_left_out():
    for seed in range(12):
        rules = Rules(colors=5 + seed % 2, no_redraw=seed % 3 > 0)
        for pos in random_round_positions(seed, rules, deck_bias=0.4):
            if pos.turn % 5 == 0 or pos.is_over():
                assert read_position(pos.to_string()) == pos
                for p in (0, 1):
                    assert read_position(pos.view(p).to_string()) == pos.view(p)
        data = pos.to_json()
        del data["history"]
        assert from_json(data).history == []


def _refused(data: dict, match: str | None = None) -> None:
    with pytest.raises(PositionError, match=match):
        from_json(data)


@pytest.mark.parametrize("seed", range(6))
def test_a_history_one_turn_short_or_long_or_reordered_is_refused(seed):
    pos = _round(seed, 25)
    for obj in (pos, pos.view(0), pos.view(1)):
        data = obj.to_json()
        hist = data["history"]
        _refused({**data, "history": hist[:-1]})  # one turn short: the last card placed is unaccounted for
        _refused({**data, "history": hist[1:]})
        _refused({**data, "history": hist + [hist[-1]]})
        plays = [i for i, m in enumerate(hist) if m.startswith("+")]
        i, j = next((i, j) for i in plays for j in plays if j > i and (j - i) % 2 and hist[i] != hist[j])
        swapped = list(hist)
        swapped[i], swapped[j] = hist[j], hist[i]  # each card now played by the other player
        _refused({**data, "history": swapped}, "history")
        deck_draws = [i for i, m in enumerate(hist) if m.endswith("/D")]
        i = deck_draws[len(deck_draws) // 2]
        _refused({**data, "history": hist[:i] + hist[i + 1:]}, "history")


def test_a_history_longer_than_the_turn_cap_or_the_deck_allows_is_refused():
    pos = _round(4, 30, Rules(turn_cap=30))
    assert pos.turn == 30
    data = pos.to_json()
    with pytest.raises(PositionError, match="turn cap"):
        from_json({**data, "history": data["history"] * 2})
    with pytest.raises(PositionError, match="turn cap"):
        from_json({**data, "history": ["+R7/D"] * 5000})
    end = _round(5, 10_000)
    assert end.deck_count == 0
    data = end.to_json()
    with pytest.raises(PositionError):
        from_json({**data, "history": data["history"] + ["-Y2/D"]})


def test_a_card_played_in_the_history_must_be_where_the_history_put_it():
    pos = _round(7, 30)
    data = pos.to_json()
    plays = [i for i, m in enumerate(data["history"]) if m.startswith("+")]
    i = plays[0]
    move = Move.parse(data["history"][i])
    for other in (f"-{move.card}/{move.source}", f"+{Card(move.card.color, 9 if move.card.rank != 9 else 8)}/"
                  f"{move.source}"):
        changed = list(data["history"])
        changed[i] = other
        with pytest.raises(PositionError):
            from_json({**data, "history": changed})


def test_a_card_taken_from_a_pile_must_still_be_in_that_hand():
    rules = Rules(no_redraw=True)
    pos = Position.deal(seed=8, rules=rules)
    pos.push(next(m for m in pos.legal_moves() if not m.play and m.draws_from_deck))
    taken = pos.discard_pile(pos.history[-1].card.color)[-1]
    pos.push(next(m for m in pos.legal_moves() if m.source == taken.color_letter and m.card != taken))
    taker = 1 - pos.to_move
    assert taken in pos.hand(taker)
    data = pos.to_json()
    hands = data["hands"]
    other = next(c for c in data["deck"] if c != str(taken))
    hands[taker][hands[taker].index(str(taken))] = other
    data["deck"][data["deck"].index(other)] = str(taken)
    with pytest.raises(PositionError, match=f"took {taken} from a discard pile"):
        from_json(data)
    view = pos.view(1 - taker).to_json()  # the other player sees the card taken, and holds it: impossible
    assert read_position(json.dumps(view)) == pos.view(1 - taker)


def test_a_draw_step_history_is_checked_and_its_draw_half_reads_back():
    pos = _round(9, 12)
    move = next(m for m in pos.legal_moves() if m.card is not None and not m.play)
    data = pos.to_json()
    data["hands"][pos.to_move].remove(str(move.card))
    data["discards"].setdefault(move.card.color_letter, []).append(str(move.card))
    data["phase"], data["blocked"] = "draw", move.card.color_letter
    step = from_json(data)
    other = next(c for c in "YBWGR" if c != move.card.color_letter and data["discards"].get(c))
    with pytest.raises(PositionError, match="blocked"):
        from_json({**data, "blocked": other})
    with pytest.raises(PositionError):
        from_json({**data, "history": data["history"][:-1]})
    after = step.copy()
    after.push(after.legal_moves()[0])
    assert str(after.history[-1]).startswith("/")
    assert read_position(after.to_string()) == after
    for p in (0, 1):
        assert read_position(after.view(p).to_string()) == after.view(p)


# --- records and strings ------------------------------------------------------------------------


def test_game_records_refuse_bad_turn_lists_and_unknown_keys():
    start = Position.deal(seed=99)
    record = record_round(start, []).to_json()
    for change, message in (({"turns": 5}, "list"), ({"turns": [3]}, "turn index 0"),
                            ({"turns": ["+R7/D"] * 300}, "turn index 0"), ({"moves": []}, "unknown key"),
                            ({"start": 7}, "position object")):
        with pytest.raises(RecordError, match=message):
            read_record({**record, **change}).final()
    assert read_record(record).final() == start


@pytest.mark.parametrize("field", ["c" + "5" * 5000, "cap=" + "9" * 5000, "m\u0660", "d=\u0663", "p1=?" + "8" * 40,
                                   "match=2:1_0,0", "c5;c6", "nr;r", "hist=" + "." * 20_000, "draw=ß"])
def test_one_line_string_fields_that_are_not_plain_numbers_or_repeat_are_refused(field):
    text = Position.deal(1).to_string()
    with pytest.raises(PositionError):
        read_position(text + ";" + field)
    with pytest.raises(PositionError):
        from_json(string_to_json(text + ";" + field))


# --- the second fuzzing pass (stop 31): records, standard input ----------------------------


@pytest.mark.parametrize("env", [{"LC_ALL": "C.UTF-8"}, {"PYTHONIOENCODING": "utf-8"}])
@pytest.mark.parametrize("command", [["review", "-"], ["show", "-"]])
def test_standard_input_that_is_not_utf8_is_named_as_such(command, env):
    """(On a strict standard input, PYTHONIOENCODING=utf-8, it was Python's "'utf-8' codec can't decode".)"""
    import os

    proc = subprocess.run([sys.executable, "-m", "lcanalysis", *command], input=b"\xff\xfe{}", capture_output=True,
                          timeout=120, check=False, env={**os.environ, **env})
    prog, argument = f"lcanalysis {command[0]}", "record" if command[0] == "review" else "position"
    assert proc.returncode == 2 and proc.stderr.decode() == (f"{prog}: error: argument {argument}: standard input is "
                                                             f"not UTF-8 text (see {prog} --help)\n")


def test_a_long_record_replays_in_memory_that_grows_with_its_length_not_its_square():
    """A 32 KB record of 5,000 stalling turns (turn cap 10,000) stored a copy of every earlier
    turn's known-card counts in each state: gigabytes, then a MemoryError traceback. The copies now
    share the undo entries (never changed once pushed); taking a turn back on one copy leaves
    every other as it was."""
    rules = Rules(no_redraw=False, turn_cap=10_000)
    start = Position.deal(seed=3, rules=rules)
    rec = read_record("LCR1\nstart " + start.to_string() + "\n" + "\n".join(["-Yw/Y", "-B10/B"] * 2_500) + "\n")
    a, b = rec.state(4_000), rec.state(4_001)
    assert a._stack[100] is b._stack[100]  # shared, not copied
    assert str(b.pop()) == "-Yw/Y" and b.to_string() == a.to_string()
    assert rec.state(4_001).to_string() != a.to_string()  # the record's own state is untouched
    before, after = a.copy(), a.copy()
    after.pop()
    after.push("-B10/B")  # the turn taken back, played again: the shared entries stay the originals
    assert a.to_string() == before.to_string() and len(a.history) == 4_000
    assert str(a.pop()) == "-B10/B" and a.to_string() == rec.state(3_999).to_string()


def test_running_out_of_memory_is_an_error_line_not_a_traceback(monkeypatch, capsys):
    from lcanalysis.cli.main import main

    def greedy(*args, **kwargs):
        raise MemoryError

    monkeypatch.setattr("lcanalysis.reviewer.review", greedy)
    record = "LCR1\nstart " + Position.deal(seed=3).to_string() + "\n"
    monkeypatch.setattr("sys.stdin", io.StringIO(record))
    assert main(["review", "-", "--no-progress"]) == 1
    assert capsys.readouterr().err.startswith("error: out of memory")


@pytest.mark.parametrize(("call", "error", "words"), [
    (lambda: Move.parse("+R7/P", 5.0), MoveError, "colors must be 5 or 6, got 5.0"),
    (lambda: Position.deal(seed=3).push(10**30), IllegalMoveError,
     "move code 1e+30 is out of range: a move code is 0..605"),
    (lambda: Position.deal(seed=3).push(-1), IllegalMoveError, "move code -1 is out of range"),
    # a plain number is a move code: the message says so, and which turn it stands for
    (lambda: Position.deal(seed=7).push(5), IllegalMoveError,
     "illegal move code 5 (+Yw/R): that discard pile is empty"),
    (lambda: Position.deal(seed=1.5), PositionError, "seed must be a whole number 0 or above"),
    (lambda: Position.deal(seed="x"), PositionError, "seed must be a whole number 0 or above"),
    (lambda: Position.deal(seed=-1), PositionError, "seed must be a whole number 0 or above"),
    (lambda: Position.deal(starter=True), PositionError, "starter must be 0 or 1, got True"),
])
def test_library_calls_refuse_bad_arguments_with_our_errors(call, error, words):
    """Found by fuzzing: a TypeError from a slice, an OverflowError from numpy, numpy's own
    messages, and a bool taken for a seat."""
    with pytest.raises(error) as err:
        call()
    assert words in str(err.value)


def test_a_move_code_out_of_range_is_an_illegal_turn_not_an_overflow():
    pos = Position.deal(seed=3)
    assert "out of range" in pos.why_illegal(10**30) and "out of range" in pos.why_illegal(2**63)
    # past a float's range: formatting the code as one raised OverflowError
    assert "move code <a number of about 401 digits> is out of range" in pos.why_illegal(10**400)
    assert not pos.can_play(-(10**400))
    with pytest.raises(IllegalMoveError, match="out of range"):
        pos.push(10**400)
    assert pos.can_play(int(pos.legal_codes()[0]))


@pytest.mark.parametrize("draws", [[], ["--draws", "0"], ["--draws", "3"]])
def test_a_wager_question_on_a_round_ended_by_the_turn_cap_is_refused(draws, capsys):
    """It answered as if 21 draws were left: the canonical model plays the hand's cards, and no
    turn is left to play them."""
    from lcanalysis.cli.main import main

    pos = Position.deal(seed=3, rules=Rules(turn_cap=6))
    while not pos.is_over():
        pos.push(next(m for m in pos.legal_moves() if m.draws_from_deck))
    assert pos.is_capped() and pos.deck_count > 0
    assert main(["wager", pos.to_string(), "--color", "B", *draws]) == 2
    assert "error: the round is over (the turn cap is reached): no turn is left" in capsys.readouterr().err
    assert main(["solve", pos.to_string(), "--max-stalls", "0"]) == 2
    assert capsys.readouterr().err.startswith("error: the round is over")  # no 'this may run long' note first


def test_record_messages_stay_short_and_name_the_real_fault():
    """A 900 KB turn was quoted in full (twice), a 5,000-item list as a turn in 29 KB, and on one
    line every JSON syntax error was called a truncated file."""
    start = Position.deal(seed=3)
    text = json.dumps({"start": start.to_json(), "turns": []})
    for turns in (["x" * 900_000], [list(range(5_000))]):
        with pytest.raises(RecordError) as err:
            read_record(json.dumps({"start": start.to_json(), "turns": turns}))
        assert len(str(err.value)) < 400
    with pytest.raises(RecordError, match="malformed JSON"):
        read_record(text[:-1] + ",}")  # a trailing comma
    for cut in (text[: len(text) * 2 // 3], text[:-1]):
        with pytest.raises(RecordError, match="ends early"):
            read_record(cut)


@pytest.mark.parametrize(("field", "value"), [("deck", 44.0), ("deck", "44"), ("d=", "44.0"), ("d=", "1e3")])
def test_a_view_whose_deck_count_is_not_a_whole_number_is_refused_quoting_it(field, value):
    view = read_position("example:midround")
    if field == "deck":
        data = view.to_json()
        data["deck"] = value
        source = data
    else:
        source = view.to_string().replace(f"d={view.deck_count}", f"d={value}")
    with pytest.raises(PositionError, match=r"whole number|number of cards") as err:
        read_position(source)
    assert repr(value) in str(err.value) or f"'{value}'" in str(err.value)


@pytest.mark.parametrize("claim", ["?8.Bw.Rw", "?8.Yw.Yw"])
def test_a_view_cannot_claim_opponent_cards_its_history_does_not_show_taken(claim):
    """The history shows player 1 taking one Yw from a pile; a view that says player 1 is known to
    hold Bw and Rw, or two Yw, was accepted, and the advisor then dealt worlds from it."""
    base = "LC1;c5;h8;nr;m0;v0;p0=Yw.Y2.Y10.B4.B9.Gw.Gw.G2;p1={};x=B10;d=43;hist=-Yw/D.-B10/Y"
    assert [str(c) for c in read_position(base.format("?8.Yw")).opponent_known] == ["Yw"]
    with pytest.raises(PositionError, match=r"player 1 is known to hold (Bw|Yw \(2 copies\)), but the history"):
        read_position(base.format(claim))


def test_playing_several_turns_is_all_or_none_and_a_single_turn_is_not_read_letter_by_letter():
    """Found by a review: after play(["+Y3/D", "bad"]) failed, +Y3/D stayed played; play("+Yw/D")
    walked through the string's characters ("illegal move +")."""
    pos = Position.deal(seed=7)
    before = pos.to_string()
    with pytest.raises(IllegalMoveError, match=r"turn 2 of 2: illegal move bad: .*\(none of them was played\)"):
        pos.play(["+Yw/D", "bad"])
    assert pos.to_string() == before and not pos.history
    assert [str(m) for m in pos.play("+Yw/D").history] == ["+Yw/D"]
    with pytest.raises(MoveError, match="moves must be a list of turns"):
        pos.play(None)


def test_a_string_of_several_turns_plays_them_as_the_text_form_writes_them():
    """play("+Yw/D -Bw/D") read the string as one turn, "source 'D -BW/D' is neither D (draw pile)
    nor a colour letter"; several turns separated by spaces, as a line of the LCR1 text form holds
    them, are now those turns, all or none, and a single turn may still hold a space."""
    by_list = Position.deal(seed=7).play(["+Yw/D", "-Ww/D"])
    assert Position.deal(seed=7).play(" +Yw/D  -Ww/D\n") == by_list
    assert [str(m) for m in Position.deal(seed=7).play("+Yw/D -Ww/D").history] == ["+Yw/D", "-Ww/D"]
    assert [str(m) for m in Position.deal(seed=7).play("+Yw /D").history] == ["+Yw/D"]
    pos = Position.deal(seed=7)
    with pytest.raises(IllegalMoveError, match=r"turn 2 of 2: illegal move \+R7/D: .*\(none of them was played\)"):
        pos.play("+Yw/D +R7/D")
    assert not pos.history


@pytest.mark.parametrize(("call", "words"), [
    (lambda: __import__("lcanalysis.studies.stalling").studies.stalling.stall_values(None),
     "stall_values needs a full position"),
    (lambda: __import__("lcanalysis.studies.opening").studies.opening.holding_with_sum(-1, 5),
     "cards must be a whole number >= 0"),
    (lambda: __import__("lcanalysis.studies.opening").studies.opening.holding_with_sum("3", 24),
     "cards must be a whole number >= 0"),
    (lambda: __import__("lcanalysis.studies.explorer").studies.explorer.built_view(hand=None),
     "my hand must be a list of cards"),
    (lambda: __import__("lcanalysis.studies.explorer").studies.explorer.built_view(hand="R7 B4"),
     "my hand must be a list of cards"),
    (lambda: __import__("lcanalysis.studies.explorer").studies.explorer.built_view(buried=[1]),
     "buried cards: a mapping of colour letter to count"),
])
def test_study_helpers_refuse_bad_arguments_naming_them(call, words):
    """They were an AttributeError, math.comb's 'r must be non-negative', 'NoneType object is not
    iterable', a hand read letter by letter and dict()'s own TypeError."""
    with pytest.raises(ValueError) as err:
        call()
    assert words in str(err.value)


def test_an_answer_with_no_legal_turn_is_valid_json():
    from lcanalysis.analysis import Analysis

    answer = Analysis([], "perfect-information value", True).to_json()
    assert answer["value"] is None and answer["moves"] == []
    json.dumps(answer, allow_nan=False)


@pytest.mark.parametrize(("above", "text", "said"), [
    (False, "x", "--n must be a number of points, got 'x'"),
    (False, "-0.5", "--n must be 0 or more points, got -0.5"),
    (False, "nan", "--n must be 0 or more points, got nan"),
    (False, "inf", "--n must be 0 or more points, got inf"),
    (True, "0", "--n must be a positive number of points, got 0"),
    (True, "-1", "--n must be a positive number of points, got -1"),
])
def test_a_number_option_refuses_what_is_no_finite_number_in_its_range_naming_it(above, text, said):
    import argparse

    from lcanalysis.options import number

    with pytest.raises(argparse.ArgumentTypeError) as exc:
        number("--n", "points", above=above)(text)
    assert str(exc.value) == said
    assert number("--n", "points", above=above)("2.5") == 2.5
    assert number("--n", "points")("0") == 0.0


@pytest.mark.parametrize("field", ["match=2", "match=2:35", "match=2:35,10,5", "match=x"])
def test_a_match_field_of_the_wrong_form_is_refused_saying_the_form(field):
    """'match=2:10' said only "cannot read field": the error now gives the form and an example."""
    with pytest.raises(PositionError, match=r"match= is the round and the running totals .*ROUND:TOTAL0,TOTAL1 "
                                            r"\(like match=2:35,10\)"):
        read_position(_round().to_string() + ";" + field)


def test_a_game_record_given_as_a_position_is_named_as_one(tmp_path):
    """'lcanalysis show game.json' on a record said "unknown key(s) 'start', 'turns'; a position
    has [...]", leaving the user to guess that records go to 'review'."""
    from lcanalysis.game.notation import PositionError, from_json
    from lcanalysis.game.position import Position
    from lcanalysis.game.records import record_round, write_record

    for data in ({"start": {}, "turns": []}, {"rounds": []}):
        with pytest.raises(PositionError, match=r"this is a game record .* not a position: review it with "
                                                r"'lcanalysis review FILE'"):
            from_json(data)
    start = Position.deal(seed=3)
    path = tmp_path / "game.json"
    write_record(record_round(start, [start.legal_moves()[0]]), path)
    done = subprocess.run([sys.executable, "-m", "lcanalysis", "show", str(path)], capture_output=True,
                          text=True, timeout=300, check=False)
    assert done.returncode == 2 and done.stderr.startswith("lcanalysis show: error: argument position: this is a "
                                                           "game record"), done.stderr


def test_a_folder_given_as_a_position_or_a_record_is_named_as_one(tmp_path, capsys):
    """A folder where a file was meant read "cannot read DIR: [Errno 21] Is a directory: 'DIR'"."""
    from lcanalysis.cli import main

    for command in (["show"], ["advise"], ["review"]):
        assert main([*command, str(tmp_path)]) == 2
        err = capsys.readouterr().err
        assert f"{tmp_path} is a folder, not a file" in err and "Errno" not in err, err


def _time_budget_calls():
    import lcanalysis as lc
    from lcanalysis.advisor import AdviceError
    from lcanalysis.agents.base import AgentError
    from lcanalysis.game.records import read_record
    from lcanalysis.reviewer.settings import ReviewError
    from lcanalysis.search.common import SearchError
    from lcanalysis.tutor import TutorSession

    end = read_position("example:endgame")
    record = read_record({"start": Position.deal(seed=3).to_json(), "turns": ["-Yw/D"]})
    return {
        "lc.solve seconds": (lambda v: lc.solve(end, max_stalls=0, seconds=v, progress=False), SearchError, "seconds"),
        "lc.advise time_budget": (lambda v: lc.advise("example:midround", time_budget=v, progress=False),
                                  AdviceError, "time_budget"),
        "make_agent time_ms": (lambda v: lc.make_agent("search", time_ms=v), AgentError, "time_ms"),
        "TutorSession time_budget": (lambda v: TutorSession(time_budget=v), ValueError, "time_budget"),
        "lc.review time_budget": (lambda v: lc.review(record, time_budget=v, progress=False), ReviewError,
                                  "time_budget"),
        "lc.review search_floor": (lambda v: lc.review(record, search_floor=v, progress=False), ReviewError,
                                   "search_floor"),
    }


@pytest.mark.parametrize("value", [2**64, 10**30, 10**400, -(10**400)], ids=["2**64", "10**30", "10**400", "-10**400"])
@pytest.mark.parametrize("call", ["lc.solve seconds", "lc.advise time_budget", "make_agent time_ms",
                                  "TutorSession time_budget", "lc.review time_budget", "lc.review search_floor"])
def test_a_time_budget_too_large_for_a_float_is_refused_naming_it(call, value):
    """Found by trying huge numbers at the library: math.isfinite raised OverflowError on an int beyond
    a float (10**400), numpy's isfinite a TypeError on one beyond 64 bits (2**64), instead of our
    error naming the budget and its range; the message quotes the number briefly."""
    ask, error, name = _time_budget_calls()[call]
    with pytest.raises(error) as err:
        ask(value)
    assert name in str(err.value) and len(str(err.value)) < 200


@pytest.mark.parametrize("command", [["show", "-"], ["advise", "-"], ["solve", "-"], ["wager", "-", "--color", "Y"],
                                     ["rollout", "-"], ["review", "-", "--no-progress"]])
def test_standard_input_holding_a_file_path_is_refused_not_followed(command, tmp_path, monkeypatch, capsys):
    """Found by a review of the entry points: '-' read standard input, then followed a file path
    there (`printf /etc/passwd | lcanalysis show -` read /etc/passwd). Standard input holds the
    position (or record) itself; a path there, even of a good file, is refused, saying so."""
    from lcanalysis.cli.main import main
    from lcanalysis.game.records import write_record

    start = Position.deal(seed=3)
    good = tmp_path / "good.json"
    if command[0] == "review":
        write_record(record_round(start, ["-Yw/D"]), good)
    else:
        good.write_text(read_position("example:endgame").to_string() + "\n")  # (5 cards left: quick to answer)
    monkeypatch.setattr("sys.stdin", io.StringIO(f"{good}\n"))
    assert main(command) == 2
    err = capsys.readouterr().err
    what = "record" if command[0] == "review" else "position"
    assert f"standard input holds the {what} itself" in err and "not a file name" in err, err


def test_the_text_readers_read_a_position_or_record_text_and_refuse_any_path(tmp_path):
    from lcanalysis.game.notation import read_position_text
    from lcanalysis.game.records import read_record_text, write_record

    start = Position.deal(seed=3)
    path = tmp_path / "start.txt"
    path.write_text(start.to_string())
    assert read_position(str(path)).to_string() == start.to_string()  # a path argument is still read
    assert read_position_text(start.to_string() + "\n").to_string() == start.to_string()
    assert read_position_text("example:endgame").to_string() == read_position("example:endgame").to_string()
    for text in (str(path), "no/such/file", "missing.json"):
        with pytest.raises(PositionError, match=r"standard input holds the position itself .* not a file name"):
            read_position_text(text)
    with pytest.raises(PositionError, match=r"'nothing' is neither a JSON position, a one-line 'LC1;\.\.\.' string "
                                            r"nor 'example:NAME'$"):
        read_position_text("nothing")
    rec = tmp_path / "round.json"
    write_record(record_round(start, ["-Yw/D"]), rec)
    assert read_record_text(rec.read_text()).to_json() == read_record(str(rec)).to_json()
    for text in (str(rec), "round.lcr"):
        with pytest.raises(ValueError, match=r"standard input holds the record itself .* not a file name"):
            read_record_text(text)


def test_review_given_its_own_json_or_a_tournaments_files_says_what_the_file_is_and_what_it_takes(
        tmp_path, monkeypatch, capsys):
    """Found by a review of the entry points: `review` given its own --json output said "unknown
    key(s) ['decisions', ...]", a tournament's results file "the JSON has 1,800 lists and objects; a
    position has a few dozen", its table "holds neither a JSON record nor the text form". Each is
    now named as what it is (the files made here by the commands that write them), with what
    review takes: a game record."""
    from lcanalysis.cli.main import main
    from lcanalysis.game.records import write_record

    rec = tmp_path / "round.json"
    write_record(record_round(Position.deal(seed=3), ["-Yw/D", "-B10/Y"]), rec)
    assert main(["review", str(rec), "--json", "--time", "0.05", "--workers", "1", "--no-progress"]) == 0
    review_json = tmp_path / "review.json"
    review_json.write_text(capsys.readouterr().out)
    results, table = tmp_path / "results.jsonl", tmp_path / "table.csv"
    assert main(["tournament", "random", "greedy", "--deals", "1", "--workers", "1", "--out", str(results),
                 "--csv", str(table)]) == 0
    legacy = tmp_path / "legacy.jsonl"
    legacy.write_text(results.read_text().split("\n", 1)[1])  # its job lines alone (as a legacy file is)
    capsys.readouterr()
    wanted = "review takes a game record, the turns of a round or a match as they were played"
    for path, what in ((review_json, "the output of 'lcanalysis review --json'"), (results, "a tournament's results "
                       "file"), (legacy, "a tournament's results file"), (table, "a tournament's table of rounds")):
        assert main(["review", str(path), "--no-progress"]) == 2
        err = capsys.readouterr().err
        said = f"lcanalysis review: error: argument record: {path} is {what}"
        assert err.startswith(said) and wanted in err and "Game records" in err, err
        monkeypatch.setattr("sys.stdin", io.StringIO(path.read_text()))
        assert main(["review", "-", "--no-progress"]) == 2
        err = capsys.readouterr().err
        assert err.startswith(f"lcanalysis review: error: argument record: this is {what}") and wanted in err, err
    with pytest.raises(RecordError, match=r"this is the output of 'lcanalysis review --json'.*review takes a game"):
        read_record(dict(reversed(json.loads(review_json.read_text()).items())))  # its keys in any order


def test_review_given_the_match_equity_table_or_its_own_kept_judgements_says_what_the_file_is(
        tmp_path, monkeypatch, capsys):
    """`review` given the match equity table (``data/match_equity.json``) said "unknown key(s)
    ['agent', 'assumption', ...]; a match record has ...", and given the file its own --out keeps
    "holds neither a JSON record nor the text form": each is now named as what it is, with what
    review takes (the kept file made here by the command that writes it)."""
    from pathlib import Path

    from lcanalysis.cli.main import main
    from lcanalysis.game.records import write_record

    table = Path(__file__).resolve().parents[1] / "data" / "match_equity.json"
    rec, kept = tmp_path / "round.json", tmp_path / "kept.csv"
    write_record(record_round(Position.deal(seed=3), ["-Yw/D", "-B10/Y"]), rec)
    assert main(["review", str(rec), "--out", str(kept), "--time", "0.05", "--workers", "1", "--no-progress"]) == 0
    capsys.readouterr()
    wanted = "review takes a game record, the turns of a round or a match as they were played"
    for path, what in ((table, "a match equity table (the file 'lcanalysis studies match-table' writes)"),
                       (kept, "the judgements 'lcanalysis review --out' keeps")):
        assert main(["review", str(path), "--no-progress"]) == 2
        err = capsys.readouterr().err
        assert err.startswith(f"lcanalysis review: error: argument record: {path} is {what}") and wanted in err, err
        monkeypatch.setattr("sys.stdin", io.StringIO(path.read_text()))
        assert main(["review", "-", "--no-progress"]) == 2
        err = capsys.readouterr().err
        assert err.startswith(f"lcanalysis review: error: argument record: this is {what}") and wanted in err, err
    assert "give the record it was made from" in err and ".cmd" in err
    with pytest.raises(RecordError, match=r"this is a match equity table .*review takes a game record"):
        read_record(json.loads(table.read_text()))  # read back as JSON first


# --- numbers as a person writes them: no '_' between digits ----------------------------------


def test_a_number_with_an_underscore_between_its_digits_is_refused_not_read_as_another():
    """Python's int() and float() read '1_0' as 10: 'search:time_ms=1_0', a typo, was a budget of 10."""
    from lcanalysis.options import number_text, whole_text
    from lcanalysis.tournaments.specs import TournamentError, parse_agent

    assert int("1_0") == 10 and float("2_5.0") == 25.0  # what Python makes of them
    for text in ("1_0", "2_5.0", "1_000", "1e1_0"):
        with pytest.raises(ValueError, match="'_' between digits is not read"):
            number_text(text)
    with pytest.raises(ValueError, match="'_' between digits is not read"):
        whole_text("1_0")
    assert whole_text("10") == 10 and whole_text("-3") == -3 and number_text("1e3") == 1000.0
    with pytest.raises(TournamentError, match=r"agent 'search:time_ms=1_0': option time_ms=1_0: '_' between"):
        parse_agent("search:time_ms=1_0")
    assert parse_agent("search:time_ms=10,width=8") == {"name": "search", "time_ms": 10, "width": 8,
                                                         "label": "search:time_ms=10,width=8"}
    assert parse_agent("x:policy=plain_old")["policy"] == "plain_old"  # a word with '_' stays a word


@pytest.mark.parametrize(("argv", "option", "value"), [
    (["tournament", "greedy", "search:time_ms=1_0", "--deals", "1", "--out", "none"], "time_ms", "1_0"),
    (["rollout", "example:midround", "--agent", "search:time_ms=1_0", "--top", "1", "--trials", "2"], "time_ms",
     "1_0"),
    (["bot", "search", "time_ms=1_0"], "time_ms", "1_0"),
    (["bot", "greedy", "--seed", "1_0"], "--seed", "1_0"),
    (["solve", "example:endgame", "--max-stalls", "1_0"], "--max-stalls", "1_0"),
    (["solve", "example:endgame", "--max-stalls", "0", "--max-nodes", "1_000"], "--max-nodes", "1_000"),
    (["solve", "example:endgame", "--max-stalls", "0", "--max-memory", "1_0"], "--max-memory", "1_0"),
    (["advise", "example:midround", "--time", "0_5"], "--time", "0_5"),
    (["tournament", "greedy", "heuristic", "--bot-timeout", "1_0"], "--bot-timeout", "1_0"),
    (["deal", "--seed", "1", "--colors", "0_5"], "--colors", "0_5"),  # type=int: int('0_5') is 5, a choice
    (["play", "--seat", "0_1"], "--seat", "0_1"),
])
def test_a_number_written_with_an_underscore_is_refused_naming_the_option_and_the_value(argv, option, value,
                                                                                       capsys):
    from lcanalysis.cli.main import main

    try:
        code = main(argv)
    except SystemExit as exc:
        code = exc.code
    err = capsys.readouterr().err
    assert code == 2 and option in err and repr(value)[1:-1] in err and "'_' between digits is not read" in err, err
    assert err.count("\n") == 1, err


def test_a_study_scripts_float_option_refuses_an_underscore_too(capsys, tmp_path):
    from lcanalysis.studies.skill_and_luck import main

    with pytest.raises(SystemExit) as exc:
        main(["reviews", "--search-floor", "0_5", "--rounds", "1", "--out", str(tmp_path / "reviews.csv")])
    err = capsys.readouterr().err
    assert exc.value.code == 2 and "--search-floor" in err and "'0_5'" in err and "'_' between digits" in err


@pytest.mark.parametrize(("module", "argv"), [
    ("policy_tune", ["--deals", "10"]),
    ("hand_model", ["train", "--rounds", "5"]),
    ("skill_and_luck", ["reviews", "--rounds", "1"]),
])
def test_a_study_scripts_output_file_in_no_folder_is_refused_in_one_line_before_its_work(module, argv, capsys,
                                                                                         tmp_path):
    """Each study script checks its --out through its parser (``CommandParser.check_output``): the folder
    is missing, so nothing is computed, and the refusal is the parser's one line with exit status 2."""
    import importlib

    main = importlib.import_module(f"lcanalysis.studies.{module}").main
    out = tmp_path / "NOFOLDER" / "out.json"
    with pytest.raises(SystemExit) as exc:
        main([*argv, "--out", str(out)])
    err = capsys.readouterr().err
    assert exc.value.code == 2 and err.count("\n") == 1, err
    assert err.startswith(f"python -m lcanalysis.studies.{module}: error: argument --out: ") and "NOFOLDER" in err, err
    assert "does not exist" in err and not out.parent.exists()
