"""Every reader fuzzed with hypothesis, structure-aware: strategies build nearly-valid input
(JSON positions and views, one-line ``LC1;...`` strings, card and move strings, game records,
bot request lines, ``Rules`` keyword sets, ``from_parts`` calls) from real positions, then
mutate it: wrong types, huge numbers, deep nesting, unknown and repeated keys, duplicated or
moved cards, edited histories, unicode, empty strings, cut or spliced text. Two more readers at
the end: tournament results files (valid, torn, wrong-shape, duplicated, conflicting and
foreign-identity lines) and the command line (every subcommand's real options with bad, missing
and repeated values, called in-process through ``lcanalysis.cli.main``), and before them the library's
time budgets (``seconds``, ``time_budget``, ``time_ms``, ``search_floor``) given what no clock keeps.

The property, for every input: either a clean error of our own type with a message
(``PositionError``, ``RulesError``, ``CardError``, ``MoveError``: all ``ValueError``; the bot
answers ``{"error": ...}``), or a valid object that round-trips (object -> JSON / one-line
string -> read back -> equal, and the string is canonical). Never another exception.

Memory: reading costs at most ``MEMORY_BYTES_PER_BYTE`` bytes per input byte plus
``MEMORY_CONSTANT`` (peak, measured with tracemalloc below on the worst shapes we know: many
short items, one long string, a long valid history); text over
``notation.MAX_TEXT_CHARS`` (1,000,000 characters) is refused before it is read, so a 50 MB
history costs nothing but the caller's own copy, and the bot skips an over-long line in
bounded pieces.

CI runs a fixed budget, derandomized: the same inputs every run, the whole file in about 20 s
on an idle machine (under 50 s with four other test runs on two cores). A longer, random
run of any size (each test gets that many examples; 100000 takes hours):

    LCANALYSIS_FUZZ_EXAMPLES=100000 .venv/bin/python -m pytest tests/test_fuzz.py -q

(the long run caps each test process's address space at LCANALYSIS_FUZZ_MEMORY_GB, default 4, so
an input that made memory run away would show up as a MemoryError with the input, not take the
machine down).
"""

from __future__ import annotations

import copy
import io
import itertools
import json
import os
import random
import tracemalloc
from typing import Any

import numpy as np
import pytest
from helpers import random_round_positions
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from lcanalysis.agents.protocol import MAX_LINE_CHARS, serve
from lcanalysis.game.cards import Card, CardError
from lcanalysis.game.moves import Move, MoveError
from lcanalysis.game.notation import (
    MAX_TEXT_CHARS,
    from_json,
    loads_json,
    read_position,
    string_to_json,
)
from lcanalysis.game.position import Position, PositionError
from lcanalysis.game.records import RecordError, read_record, record_round
from lcanalysis.game.rules import Rules, RulesError
from lcanalysis.game.view import View

LONG_RUN = int(os.environ.get("LCANALYSIS_FUZZ_EXAMPLES", "0") or 0)
if LONG_RUN:  # a long run on a shared machine: a runaway input is a MemoryError hypothesis reports, not an OOM kill
    import resource

    _soft, _hard = resource.getrlimit(resource.RLIMIT_AS)
    _cap = int(os.environ.get("LCANALYSIS_FUZZ_MEMORY_GB", "4")) << 30
    resource.setrlimit(resource.RLIMIT_AS, (_cap if _hard == resource.RLIM_INFINITY else min(_cap, _hard), _hard))

#: The stated bound on reading: peak memory <= MEMORY_CONSTANT + MEMORY_BYTES_PER_BYTE * input bytes.
MEMORY_BYTES_PER_BYTE = 4
MEMORY_CONSTANT = 2_000_000


def budget(examples: int) -> settings:
    """``examples`` in CI (derandomized: the same inputs every run); LCANALYSIS_FUZZ_EXAMPLES for a long run."""
    return settings(max_examples=LONG_RUN or examples, deadline=None, derandomize=not LONG_RUN, database=None,
                    suppress_health_check=list(HealthCheck))


# --- real objects to start from -----------------------------------------------------------------


def _played(seed: int, rules: Rules, stop: int | None, deck_bias: float = 0.6) -> Position:
    positions = random_round_positions(seed, rules, deck_bias=deck_bias)
    pos = next(positions)
    if stop != 0:
        for i, pos in enumerate(positions, 1):  # noqa: B007 - the last one is wanted
            if i == stop:
                break
    return pos.copy()


def _draw_step(pos: Position, seed: int) -> Position | None:
    """The same turn with its card placed and the draw still to make."""
    if pos.is_over():
        return None
    rng = random.Random(seed)
    move = rng.choice([m for m in pos.legal_moves() if m.card is not None])
    data = pos.to_json()
    data["hands"][pos.to_move].remove(str(move.card))
    letter = move.card.color_letter
    if move.play:
        data["expeditions"][pos.to_move].setdefault(letter, []).append(str(move.card))
        data["phase"], data["blocked"] = "draw", None
    else:
        data["discards"].setdefault(letter, []).append(str(move.card))
        data["phase"], data["blocked"] = "draw", letter
    step = from_json(data)
    assert isinstance(step, Position)
    return step


def _bases() -> list[Position | View]:
    variants = [
        (1, Rules(), 0), (2, Rules(), 9), (3, Rules(colors=6, no_redraw=False), 17), (4, Rules(), 33),
        (5, Rules(colors=6), 41), (6, Rules(hand_size=6, turn_cap=60, rounds=5, tied_start="same"), 25),
        (7, Rules(no_redraw=False), None),
    ]
    out: list[Position | View] = []
    for seed, rules, stop in variants:
        pos = _played(seed, rules, stop, deck_bias=0.5)
        if seed % 2:
            pos.match = {"round": 2, "totals": [35, -10]}
        out += [pos, pos.view(0), pos.view(1)]
        step = _draw_step(pos, seed)
        if step is not None:
            out += [step, step.view(step.to_move)]
            after = step.copy()
            after.push(after.legal_moves()[0])  # a history holding a draw half alone: '/D'
            out.append(after)
        table_only = pos.to_json()
        table_only.pop("history", None)  # the history is optional
        out.append(from_json(table_only))
    return out


BASES = _bases()
CARD_TEXTS = ["R7", "r7", "Rw", "RW", "B10", "b10", "Gw", "Y2", "W5", "P9", "Pw", "G6", "Y10"]
MOVE_TEXTS = ["+R7/D", "-Bw/G", "/D", "/G", "+P10/P", "-Y2/R", "+Y3/Y", "-W4/D", "+Gw/B", "-R9/R", "/Y"]
ODD_TEXTS = ["", " ", "\t", "R", "R1", "R11", "R07", "R 7", "7R", "X7", "YB", "ß", "ﬀ", "\u0660", "R\u0667", "R１０",
             "\ud800", "\x00", "\ufeff", "null", "NaN", "-", "?", "?8", "draw", "place", "LC1;", "{", "[", "💥",
             "+R7", "R7/D", "+R7/X", "*R7/D", "+R1/D", "//D", "+R7/D/D", "+R7 / d", " -bw/g "]

class Huge(int):
    """A number of 5,000 digits that hypothesis can print (Python refuses to print one over 4300 digits)."""

    def __repr__(self) -> str:
        return "Huge(10**5000)"


HUGE = Huge(10**5000)
nested = st.integers(1, 60).map(lambda depth: json.loads("[" * depth + "0" + "]" * depth))
nasty = st.one_of(
    st.none(), st.booleans(), st.integers(-3, 80),
    st.sampled_from([2**31, 2**63, -(2**63), 10**30, -1, HUGE, 5.0, 0.5, 1e308, float("inf"), float("nan")]),
    st.floats(), st.text(max_size=8), st.sampled_from(CARD_TEXTS + MOVE_TEXTS + ODD_TEXTS),
    st.lists(st.sampled_from(CARD_TEXTS + ODD_TEXTS + [3, None]), max_size=6),
    st.dictionaries(st.sampled_from(["R", "r", "Q", "YB", "", "known", "count", "round", "totals", "x"]),
                    st.one_of(st.integers(-2, 9), st.lists(st.sampled_from(CARD_TEXTS), max_size=3)), max_size=3),
    nested,
)
json_nasty = nasty.filter(lambda v: not isinstance(v, Huge))  # json cannot print it: text gets digit runs instead


def _nodes(obj: Any, path: tuple = ()) -> list[tuple]:
    """Every path into a JSON tree (keys and indexes), the root excluded."""
    out = []
    if isinstance(obj, dict):
        for k, v in obj.items():
            out.append(path + (k,))
            out += _nodes(v, path + (k,))
    elif isinstance(obj, list):
        for i, v in enumerate(obj):
            out.append(path + (i,))
            out += _nodes(v, path + (i,))
    return out


def _get(obj: Any, path: tuple) -> Any:
    for k in path:
        obj = obj[k]
    return obj


@st.composite
def mutated_tree(draw: Any, base: Any, values: Any = nasty) -> Any:
    """A copy of a JSON tree with one to three structural mutations."""
    data = copy.deepcopy(base)
    for _ in range(draw(st.integers(1, 3))):
        paths = _nodes(data)
        op = draw(st.sampled_from(["replace", "delete", "add_key", "copy_card", "move_card", "swap", "history",
                                   "number", "string", "deepen"]))
        if not paths or not isinstance(data, dict):
            data = {"to_move": 0, "hands": draw(values), "deck": draw(values)} if op == "add_key" else draw(values)
            continue
        path = draw(st.sampled_from(paths))
        parent, key = _get(data, path[:-1]), path[-1]
        strings = [p for p in paths if isinstance(_get(data, p), str)]
        lists = [p for p in paths if isinstance(_get(data, p), list)] + [()]
        if op == "replace":
            parent[key] = draw(values)
        elif op == "delete":
            del parent[key]
        elif op == "add_key":
            target = _get(data, draw(st.sampled_from([p for p in paths if isinstance(_get(data, p), dict)] + [()])))
            name = draw(st.one_of(st.sampled_from(["rules", "to_move", "viewer", "phase", "blocked", "history",
                                                   "match", "colour", "known", "count", "R", "Q", "turn_cap",
                                                   "colors", ""]), st.text(max_size=4)))
            target[name] = draw(values)
        elif op in ("copy_card", "move_card") and strings:
            source = draw(st.sampled_from(strings))
            target = _get(data, draw(st.sampled_from(lists)))
            if isinstance(target, list):
                target.append(_get(data, source))
                if op == "move_card":
                    del _get(data, source[:-1])[source[-1]]
        elif op == "swap" and isinstance(parent, list) and len(parent) > 1:
            j = draw(st.integers(0, len(parent) - 1))
            parent[key], parent[j] = parent[j], parent[key]
        elif op == "history" and isinstance(data.get("history"), list):
            hist = data["history"]
            edit = draw(st.sampled_from(["insert", "drop", "drop_last", "swap", "replace", "clear", "repeat"]))
            i = draw(st.integers(0, max(0, len(hist) - 1)))
            if edit == "insert":
                hist.insert(i, draw(st.sampled_from(MOVE_TEXTS + ODD_TEXTS)))
            elif edit == "drop" and hist:
                del hist[i]
            elif edit == "drop_last" and hist:
                hist.pop()
            elif edit == "swap" and len(hist) > 1:
                hist[i], hist[-1] = hist[-1], hist[i]
            elif edit == "replace" and hist:
                hist[i] = draw(st.sampled_from(MOVE_TEXTS))
            elif edit == "clear":
                hist.clear()
            elif edit == "repeat":
                hist.extend(hist[-2:] * draw(st.integers(1, 300)))
        elif op == "number":
            ints = [p for p in paths if isinstance(_get(data, p), int) and not isinstance(_get(data, p), bool)]
            if ints:
                where = draw(st.sampled_from(ints))
                change = draw(st.sampled_from([1, -1, 2**31, -(2**31), 10**20]))
                _get(data, where[:-1])[where[-1]] = _get(data, where) + change
        elif op == "string" and strings:
            where = draw(st.sampled_from(strings))
            text = _get(data, where)
            how = draw(st.sampled_from(["lower", "upper", "pad", "append", "cut", "unicode"]))
            text = {"lower": text.lower(), "upper": text.upper(), "pad": f" {text}\t", "append": text + "0",
                    "cut": text[:-1], "unicode": text + draw(st.sampled_from(["\u0301", "ß", "\ud800", "\x00"]))}[how]
            _get(data, where[:-1])[where[-1]] = text
        elif op == "deepen":
            depth = draw(st.integers(1, 40))
            value = parent[key]
            for _ in range(depth):
                value = [value]
            parent[key] = value
    return data


@st.composite
def mutated_text(draw: Any, text: str) -> str:
    """A text with zero to three edits: inserts, cuts, splices, long digit runs, deep brackets, odd characters."""
    for _ in range(draw(st.integers(0, 3))):
        i = draw(st.integers(0, len(text)))
        j = draw(st.integers(i, min(len(text), i + 40)))
        op = draw(st.sampled_from(["insert", "delete", "duplicate", "digits", "brackets", "bom", "char"]))
        if op == "insert":
            piece = draw(st.sampled_from([",", ":", "\"", ";", ".", "=", " ", "\n", "{}", "[]", "null", "-1",
                                          "1e999", "NaN", "Infinity", "\\u0000", "\\ud800"]))
        elif op == "duplicate":
            piece = text[i:j] * 2
        elif op == "digits":
            piece = "9" * draw(st.sampled_from([25, 400, 5000]))
        elif op == "brackets":
            piece = "[" * draw(st.sampled_from([17, 2000, 100_000]))
        elif op == "bom":
            piece = "\ufeff"
        elif op == "char":
            piece = draw(st.characters())
        else:
            piece = ""
        text = text[:i] + piece + text[j if op in ("delete", "duplicate") else i:]
    return text


# --- the property ----------------------------------------------------------------------------------


def _refused(exc: BaseException, kind: type) -> None:
    assert type(exc) is kind or isinstance(exc, kind), f"{type(exc).__name__} instead of {kind.__name__}: {exc}"
    assert str(exc).strip(), f"{type(exc).__name__} without a message"


def round_trips(obj: Position | View) -> None:
    """JSON and the one-line string of ``obj`` read back to an equal object; the string is canonical."""
    assert isinstance(obj, (Position, View))
    data = obj.to_json()
    back = read_position(json.dumps(data))
    assert back == obj and back.to_json() == data
    text = obj.to_string()
    again = read_position(text)
    assert again == obj and again.to_string() == text
    assert from_json(string_to_json(text)) == obj
    assert type(back) is type(obj)


def read_or_refuse(read: Any, *args: Any) -> Any:
    try:
        obj = read(*args)
    except PositionError as exc:
        _refused(exc, PositionError)
        return None
    round_trips(obj)
    return obj


base_objects = st.sampled_from(BASES)


@budget(200)
@given(st.data())
def test_json_positions_with_mutations_are_refused_or_round_trip(data):
    base = data.draw(base_objects)
    tree = data.draw(mutated_tree(base.to_json()))
    read_or_refuse(from_json, tree)


def _read_both_ways(text: str, to_tree: Any) -> None:
    """``text`` read whole (``read_position``) and in two steps (``to_tree``, then ``from_json``):
    each way a clean refusal or a position that round-trips."""
    read_or_refuse(read_position, text)
    try:
        tree = to_tree(text)
    except PositionError as exc:
        _refused(exc, PositionError)
    else:
        read_or_refuse(from_json, tree)


@budget(150)
@given(st.data())
def test_json_text_with_mutations_is_refused_or_round_trips(data):
    base = data.draw(base_objects)
    tree = data.draw(mutated_tree(base.to_json(), json_nasty))
    text = data.draw(mutated_text(json.dumps(tree, indent=data.draw(st.sampled_from([None, 1])))))
    _read_both_ways(text, loads_json)


@st.composite
def mutated_string(draw: Any, text: str) -> str:
    fields = text.split(";")
    for _ in range(draw(st.integers(0, 3))):
        i = draw(st.integers(0, len(fields) - 1))
        op = draw(st.sampled_from(["drop", "repeat", "swap", "value", "cards", "add", "case"]))
        if op == "drop" and len(fields) > 1:
            del fields[i]
        elif op == "repeat":
            fields.insert(i, fields[i])
        elif op == "swap":
            j = draw(st.integers(0, len(fields) - 1))
            fields[i], fields[j] = fields[j], fields[i]
        elif op == "value":
            key = fields[i].partition("=")[0]
            fields[i] = key + "=" + draw(st.one_of(st.sampled_from(CARD_TEXTS + MOVE_TEXTS + ODD_TEXTS + [
                "9" * 30, "-5", "+5", "5_0", "1:2,3", "2:a,b", "?99", "?-1", "R7.R7", "R7..R7", ".", "0"]),
                st.text(max_size=6)))
        elif op == "cards" and "=" in fields[i]:
            key, _, value = fields[i].partition("=")
            cards = value.split(".")
            cards.insert(draw(st.integers(0, len(cards))), draw(st.sampled_from(CARD_TEXTS + MOVE_TEXTS + ODD_TEXTS)))
            fields[i] = key + "=" + ".".join(cards)
        elif op == "add":
            fields.insert(i + 1, draw(st.sampled_from(["nr", "r", "c5", "c6", "c7", "h8", "h0", "m0", "m1", "m2",
                                                       "v0", "v1", "cap=0", "cap=99999999999", "rounds=5",
                                                       "tie=same", "tie=", "draw=R", "draw=", "draw=ß", "hist=",
                                                       "match=2:1,1", "zz=1", "=", "p2=R7", "d=5", "x=Q7"])))
        elif op == "case":
            fields[i] = fields[i].lower() if draw(st.booleans()) else fields[i].upper()
    return ";".join(fields)


@budget(200)
@given(st.data())
def test_one_line_strings_with_mutations_are_refused_or_round_trip(data):
    base = data.draw(base_objects)
    text = data.draw(mutated_text(data.draw(mutated_string(base.to_string()))))
    _read_both_ways(text, string_to_json)


cards_text = st.one_of(st.sampled_from(CARD_TEXTS + ODD_TEXTS), st.text(max_size=5),
                       st.sampled_from(CARD_TEXTS).flatmap(mutated_text), nasty)


@budget(300)
@given(cards_text, st.sampled_from([5, 6, 6, 5.0, 0, -1, None, "6"]))
def test_card_strings_are_refused_or_read_canonically(text, colors):
    try:
        card = Card.parse(text, colors)
    except CardError as exc:
        _refused(exc, CardError)
        return
    assert isinstance(card, Card) and 0 <= card.color < colors
    assert Card.parse(str(card), colors) == card and str(Card.parse(str(card))) == str(card)
    assert Card.from_type(card.type) == card and eval(repr(card)) == card


@budget(300)
@given(nasty, nasty)
def test_cards_built_from_numbers_are_refused_or_valid(color, rank):
    for build in (lambda: Card(color, rank), lambda: Card.from_type(color)):
        try:
            card = build()
        except CardError as exc:
            _refused(exc, CardError)
            continue
        assert type(card.color) is int and type(card.rank) is int
        assert Card.parse(str(card)) == card and Card.from_type(card.type) == card


moves_text = st.one_of(st.sampled_from(MOVE_TEXTS + ODD_TEXTS), st.text(max_size=7),
                       st.sampled_from(MOVE_TEXTS).flatmap(mutated_text), nasty)


@budget(300)
@given(moves_text, st.sampled_from([5, 6]))
def test_move_strings_are_refused_or_read_canonically(text, colors):
    try:
        move = Move.parse(text, colors)
    except MoveError as exc:
        _refused(exc, MoveError)
        return
    assert Move.parse(str(move), colors) == move
    assert Move.from_code(move.code(colors), colors) == move


@budget(300)
@given(st.one_of(st.integers(-5, 1000), nasty), st.sampled_from([5, 6, 7, 5.0, None, True]),
       st.one_of(st.sampled_from([Card(4, 6), Card(5, 0), None]), nasty), nasty, nasty)
def test_move_codes_and_fields_are_refused_or_valid(code, colors, card, play, source):
    try:
        move = Move.from_code(code, colors)
    except MoveError as exc:
        _refused(exc, MoveError)
    else:
        assert move.code(colors) == code and Move.parse(str(move), colors) == move
    try:
        move = Move(card, play, source)
    except MoveError as exc:
        _refused(exc, MoveError)
    else:
        assert Move.parse(str(move)) == move


rules_values = {
    "colors": st.one_of(st.sampled_from([5, 6]), nasty),
    "hand_size": st.one_of(st.integers(0, 14), nasty),
    "no_redraw": st.one_of(st.booleans(), nasty),
    "rounds": st.one_of(st.integers(0, 1001), nasty),
    "turn_cap": st.one_of(st.integers(0, 10_001), st.sampled_from([2**31, 2**40, HUGE]), nasty),
    "tied_start": st.one_of(st.sampled_from(["alternate", "same", "Same", ""]), nasty),
}


@budget(300)
@given(st.fixed_dictionaries({}, optional=rules_values),
       st.dictionaries(st.one_of(st.text(max_size=3), st.integers()), nasty, max_size=2))
def test_rules_keyword_sets_are_refused_or_round_trip(options, extra):
    try:
        rules = Rules(**options)
    except RulesError as exc:
        _refused(exc, RulesError)
    else:
        assert Rules.from_dict(rules.to_dict(full=True)) == rules == Rules.from_dict(rules.to_dict())
        assert all(type(getattr(rules, k)) is int for k in ("colors", "hand_size", "rounds", "turn_cap"))
        pos = Position.deal(seed=1, rules=rules)  # the kernel takes every allowed value
        round_trips(pos)
        round_trips(pos.view(1))
    try:
        rules = Rules.from_dict({**options, **extra})
    except RulesError as exc:
        _refused(exc, RulesError)
    else:
        assert Rules.from_dict(rules.to_dict(full=True)) == rules


@budget(100)
@given(st.data())
def test_game_records_with_mutations_are_refused_or_replay(data):
    seed = data.draw(st.integers(0, 50))
    rules = Rules(colors=data.draw(st.sampled_from([5, 6])), no_redraw=data.draw(st.booleans()))
    start = Position.deal(seed=seed, rules=rules, starter=seed % 2)
    end = start.copy()
    rng = random.Random(seed)
    for _ in range(data.draw(st.integers(0, 30))):
        if end.is_over():
            break
        end.push(rng.choice(end.legal_moves()))
    record = data.draw(mutated_tree(record_round(start, end.history).to_json(), json_nasty))
    text = data.draw(mutated_text(json.dumps(record)))
    for load in (lambda: record, lambda: loads_json(text)):
        try:
            written = load()
            rec = read_record(written)
            pos = rec.final()
        except (PositionError, RecordError) as exc:
            _refused(exc, PositionError if isinstance(exc, PositionError) else RecordError)
            continue
        round_trips(pos)
        first = rec.start  # the record's rules (they may differ from its start's) are the ones played
        again = read_record(json.loads(json.dumps(record_round(first, pos.history[len(first.history):]).to_json())))
        assert again.final() == pos


NASTY_LINES = [
    "[" * 100_000 + "]" * 100_000,
    '{"type": "turn", "time_ms": ' + "9" * 5000 + "}",
    '{"type": "turn", "position": ' + "[" * 2000 + "]" * 2000 + "}",
    '{"type": "turn", "time_ms": NaN, "position": {}}',
    '{"type": "turn", "time_ms": 1e999, "position": {}}',
    '{"type": "turn", "type": "quit"}',
    "\ud800", "\x00", "null", "[]", "\"turn\"", "{", "{}", '{"type": null}', '{"type": ["quit"]}',
    '{"type": "turn", "position": "LC1;c5;h8;nr;m0;p0=R7"}',
    '{"type": "turn", "position": "/etc/passwd"}',
]


def _answer_lines(lines: list[str]) -> list[dict]:
    out = io.StringIO()
    assert serve("random", io.StringIO("".join(line + "\n" for line in lines)), out) == 0
    replies = [json.loads(x) for x in out.getvalue().splitlines()]
    for reply in replies:
        assert isinstance(reply, dict) and len(reply) == 1 and set(reply) <= {"move", "error"}
        if "error" in reply:
            assert isinstance(reply["error"], str) and reply["error"].strip()
            assert not reply["error"].startswith("internal error"), reply["error"]
    return replies


@budget(80)
@given(st.data())
def test_bot_lines_with_mutations_get_one_answer_each_and_the_bot_keeps_serving(data):
    lines = []
    for _ in range(data.draw(st.integers(1, 4))):
        base = data.draw(base_objects)
        request: Any = {"type": "turn", "position": base.to_json(), "time_ms": 50}
        if data.draw(st.booleans()):
            request = data.draw(mutated_tree(request, json_nasty))
        line = data.draw(st.one_of(st.sampled_from(NASTY_LINES), mutated_text(json.dumps(request))))
        lines.append(line.replace("\n", " ").replace("\r", " "))
    lines.append(json.dumps({"type": "turn", "position": BASES[0].to_json()}))  # still serving at the end
    replies = _answer_lines(lines)
    assert len(replies) == len(lines)
    assert "move" in replies[-1] and BASES[0].can_play(replies[-1]["move"])


def _parts(obj: Position | View, draw: Any) -> dict[str, Any]:
    """The keyword arguments of from_parts for ``obj``, as strings, Card objects or type codes."""
    form = draw(st.sampled_from([str, lambda c: c, lambda c: c.type]))
    nc = obj.colors
    if isinstance(obj, Position):
        return {"hands": [[form(c) for c in obj.hand(p)] for p in range(2)],
                "expeditions": [[form(card) for c in range(nc) for card in obj.expedition(p, c)] for p in range(2)],
                "discards": [form(card) for c in range(nc) for card in obj.discard_pile(c)],
                "deck": [form(c) for c in obj.deck], "rules": obj.rules, "to_move": obj.to_move,
                "phase": obj.phase, "blocked": obj.blocked, "history": [str(m) for m in obj.history],
                "match": obj.match}
    return {"hand": [form(c) for c in obj.hand], "opponent_count": obj.opponent_count, "deck_count": obj.deck_count,
            "opponent_known": [form(c) for c in obj.opponent_known],
            "expeditions": [[form(c) for cards in obj.expeditions[p] for c in cards] for p in range(2)],
            "discards": [form(c) for cards in obj.discards for c in cards], "rules": obj.rules,
            "viewer": obj.viewer, "to_move": obj.to_move, "phase": obj.phase, "blocked": obj.blocked,
            "history": list(obj.history), "match": obj.match}


@budget(150)
@given(st.data())
def test_library_constructors_refuse_bad_arguments_or_round_trip(data):
    base = data.draw(base_objects)
    kwargs = _parts(base, data.draw)
    build = Position.from_parts if isinstance(base, Position) else View.from_parts
    assert build(**kwargs) == base
    for _ in range(data.draw(st.integers(1, 3))):
        key = data.draw(st.sampled_from(sorted(kwargs)))
        endless = st.builds(itertools.repeat, st.sampled_from(["R7", 3, None]))  # never read to the end
        kwargs[key] = data.draw(st.one_of(nasty, endless, mutated_tree(kwargs[key])
                                          if isinstance(kwargs[key], list) else nasty))
    read_or_refuse(lambda: build(**kwargs))


def test_none_and_wrong_types_are_our_errors():
    with pytest.raises(PositionError, match="hands"):
        Position.from_parts(None)
    with pytest.raises(PositionError, match="hand of player 0"):
        Position.from_parts([None, None])
    with pytest.raises(PositionError, match="rules"):
        Position.from_parts([[], []], rules="c5")
    with pytest.raises(PositionError, match="rules: unknown key"):  # (a dict of the options is taken)
        Position.from_parts([[], []], rules={"colours": 5})
    with pytest.raises(PositionError, match="viewer"):
        View.from_parts([], 8, 44, viewer=True)
    with pytest.raises(RulesError, match="5 or 6"):
        Rules(colors=5.0)
    with pytest.raises(RulesError, match=r"1\.\.10000"):
        Rules(turn_cap=2**40)


# --- time budgets ------------------------------------------------------------------------------------

#: values no time budget of the library takes (none allows more than 10**7 units, or a negative one):
#: ints past a float's range and past 64 bits, nan, inf, numpy's numbers, strings, switches, lists
not_a_budget = st.one_of(
    st.integers(max_value=-1), st.integers(min_value=10**7),
    st.sampled_from([2**63, 2**64, 10**30, 10**400, -(10**400), float("nan"), float("inf"), -float("inf")]),
    st.floats().filter(lambda v: not 0 <= v <= 10**7),
    st.floats(allow_nan=True).filter(lambda v: not 0 <= v <= 10**7).map(np.float64),
    st.integers(min_value=10**7, max_value=2**63 - 1).map(np.int64),
    st.booleans(), st.text(max_size=6), st.lists(st.integers(0, 5), max_size=2),
)


@budget(60)
@given(st.sampled_from(["solve", "advise", "agent", "tutor", "review", "review floor"]), not_a_budget)
def test_a_time_budget_out_of_range_or_of_the_wrong_type_is_refused_naming_it(call, value):
    """Every time budget of the library refuses what no clock can keep with its own error naming it
    (10**400 raised OverflowError, 2**64 numpy's TypeError), its message short."""
    import lcanalysis as lc
    from lcanalysis.advisor import AdviceError
    from lcanalysis.agents.base import AgentError
    from lcanalysis.reviewer.settings import ReviewError
    from lcanalysis.search.common import SearchError
    from lcanalysis.tutor import TutorSession

    ask, error, name = {
        "solve": (lambda: lc.solve(_ENDGAME, max_stalls=0, seconds=value, progress=False), SearchError, "seconds"),
        "advise": (lambda: lc.advise(_ENDGAME, time_budget=value, progress=False), AdviceError, "time_budget"),
        "agent": (lambda: lc.make_agent("best", time_ms=value), AgentError, "time_ms"),
        "tutor": (lambda: TutorSession(time_budget=value), ValueError, "time_budget"),
        "review": (lambda: lc.review(_RECORD, time_budget=value, progress=False), ReviewError, "time_budget"),
        "review floor": (lambda: lc.review(_RECORD, search_floor=value, progress=False), ReviewError, "search_floor"),
    }[call]
    with pytest.raises(error) as err:
        ask()
    assert name in str(err.value) and len(str(err.value)) < 300, str(err.value)


_ENDGAME = read_position("example:endgame")
_RECORD = read_record({"start": Position.deal(seed=3).to_json(), "turns": ["-Yw/D"]})


# --- memory per input byte ------------------------------------------------------------------------


def _peak(read: Any, text: str) -> tuple[int, BaseException | None]:
    tracemalloc.start()
    try:
        read(text)
        error = None
    except ValueError as exc:
        error = exc
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    return peak, error


def _shapes() -> dict[str, str]:
    base = BASES[1].to_json()
    room = MAX_TEXT_CHARS - 2_000

    def history_of(item: str) -> str:
        return json.dumps({**base, "history": ["@"]}).replace('["@"]', "[" + ",".join([item] * (room // (len(item)
                                                                                                    + 1))) + "]")
    string = BASES[1].to_string()
    return {
        "items up to the limit": json.dumps({**base, "history": ["+R7/D"] * 20_500}),
        "short strings over the limit": history_of('"ab"'),
        "small numbers": history_of("1234"),
        "empty lists": history_of("[]"),
        "one long string": json.dumps({**base, "history": ["x" * room]}),
        "one long non-ASCII string": json.dumps({**base, "history": ["\U0001f600" * (room // 2)]},
                                                ensure_ascii=False),
        "whitespace": json.dumps(base) + " " * room,
        "a long one-line history": string + ";hist=" + ".".join(["+R7/D"] * 9_999),
        "a one-line field as long as allowed": string + ";hist=" + "x" * (room - len(string)),
    }


@pytest.mark.parametrize("shape", list(_shapes()))
def test_reading_costs_at_most_the_stated_memory_per_input_byte(shape):
    text = _shapes()[shape]
    assert len(text) <= MAX_TEXT_CHARS + 10_000
    size = len(text.encode("utf-8"))
    peak, error = _peak(read_position, text)
    assert error is None or isinstance(error, PositionError)
    assert peak <= MEMORY_CONSTANT + MEMORY_BYTES_PER_BYTE * size, f"{peak / size:.1f} bytes per input byte"


def _long_valid_history() -> Position:
    """A real round of 10,000 turns (the longest turn cap): players stall on the discard piles."""
    pos = Position.deal(seed=5, rules=Rules(no_redraw=False, turn_cap=10_000))
    rng = random.Random(0)
    while not pos.is_over():
        moves = pos.legal_moves()
        stalls = [m for m in moves if not m.draws_from_deck]
        pos.push(rng.choice(stalls if stalls and rng.random() < 0.995 else moves))
    return pos


def test_the_longest_valid_history_reads_within_the_bound_and_round_trips():
    pos = _long_valid_history()
    assert pos.turn == 10_000
    for text in (json.dumps(pos.to_json()), json.dumps(pos.to_json(), indent=4), pos.to_string(),
                 json.dumps(pos.view(0).to_json())):
        assert len(text) < MAX_TEXT_CHARS
        peak, error = _peak(read_position, text)
        assert error is None
        assert peak <= MEMORY_CONSTANT + MEMORY_BYTES_PER_BYTE * len(text)
    round_trips(pos)
    round_trips(pos.view(1))


def test_a_50_megabyte_history_costs_nothing_and_names_the_limit(tmp_path):
    head, tail = json.dumps({**BASES[1].to_json(), "history": ["@"]}).split('"@"')
    text = head + '"+R7/D", ' * 6_000_000 + '"+R7/D"' + tail  # 54 MB, built without a list of 6 million
    assert len(text) > 50_000_000
    peak, error = _peak(read_position, text)
    assert isinstance(error, PositionError) and "1,000,000" in str(error)
    assert peak < 100_000
    path = tmp_path / "huge.json"
    path.write_text(text)
    peak, error = _peak(read_position, str(path))
    assert isinstance(error, PositionError) and "longer than" in str(error)
    assert peak <= MEMORY_CONSTANT + MEMORY_BYTES_PER_BYTE * MAX_TEXT_CHARS
    del text
    peak, error = _peak(read_position, BASES[1].to_string() + ";hist=" + "+R7/D." * 9_000_000)
    assert isinstance(error, PositionError) and peak < 100_000


def test_the_bot_skips_a_50_megabyte_line_in_bounded_memory_and_keeps_serving():
    good = json.dumps({"type": "turn", "position": BASES[0].to_json()})
    raw = b"[" * 50_000_000 + b"\n" + good.encode() + b"\n"
    stream = io.TextIOWrapper(io.BytesIO(raw), encoding="utf-8")
    out = io.StringIO()
    tracemalloc.start()
    serve("random", stream, out)
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    replies = [json.loads(x) for x in out.getvalue().splitlines()]
    assert "error" in replies[0] and "move" in replies[1]
    assert peak <= MEMORY_CONSTANT + MEMORY_BYTES_PER_BYTE * MAX_LINE_CHARS


# --- tournament results files ------------------------------------------------------------------------


@pytest.fixture(scope="module")
def results_material(tmp_path_factory: Any) -> dict[str, Any]:
    """The lines of two real finished tournaments, random against greedy over 3 deals: ours (seed 0)
    and a foreign one (seed 1: the same job keys, other deals, so none of its lines is ours)."""
    from lcanalysis.tournaments.results import TIMING_COLUMNS
    from lcanalysis.tournaments.runner import run_tournament

    folder = tmp_path_factory.mktemp("results")
    out: dict[str, Any] = {"folder": folder}
    for name, seed in (("ours", 0), ("theirs", 1)):
        path = folder / f"{name}.jsonl"
        run_tournament(["random", "greedy"], deals=3, seed=seed, out=str(path), executor="serial", progress=False)
        header, *jobs = path.read_text().splitlines()
        records = [json.loads(line) for line in jobs]
        for rec in records:  # the times per move are optional and differ from run to run: the same lines every run
            rec["rows"] = [{k: v for k, v in row.items() if k not in TIMING_COLUMNS} for row in rec["rows"]]
        out[name] = {"header": json.dumps({**json.loads(header), "created": "2026-01-01T00:00:00+00:00"}),
                     "identity": json.loads(header)["identity"],
                     "jobs": [(rec["job"], rec["rows"], json.dumps(rec)) for rec in records]}
    mine = {key: rows for key, rows, _ in out["ours"]["jobs"]}
    assert len(mine) == 6  # 3 deals, both seatings
    for key, rows, _ in out["theirs"]["jobs"]:  # a foreign line differs from ours in the deal it was played on
        assert [r["seed"] for r in rows] != [r["seed"] for r in mine[key]]
    return out


#: lines of a results file that are never a valid job line of any tournament
NOT_A_JOB = [b"[1, 2]", b'"hello"', b"null", b"42", b"{}", b"NaN", b'{"job": "0:1:0"}', b'{"rows": []}',
             b'{"job": "0:1:0", "rows": []}', b'{"job": "0:1:0", "rows": NaN}', b'{"job": 5, "rows": [{}]}',
             b'{"job": "0:1:0", "rows": [' + b"9" * 5000 + b"]}", b"[" * 100_000, b"\xff\xfe{", b"{\"job\": \"0:",
             b'{"job": "9:0:0", "rows": [{}]}', b'{"job": "0:1:0", "rows": [{}], "rows2": 1}']
#: values no field of a row can hold (every field is a whole number, a bool, a label or a time)
IMPOSSIBLE = [None, "x", [1], {"a": 1}, 1.5, float("nan"), -1e300]


@st.composite
def results_file(draw: Any, material: dict[str, Any]) -> tuple[bytes, str, list[tuple[int, str, Any]]]:
    """A results file: a header (ours mostly; a foreign one, none, or one cut short) and lines of
    every kind, with what each line is: ``(line number, kind, (key, rows) of a valid job or None)``."""
    ours, theirs = material["ours"], material["theirs"]
    header = draw(st.sampled_from(["ours"] * 6 + ["theirs", "none", "torn"]))
    lines: list[bytes] = []
    meta: list[tuple[int, str, Any]] = []
    if header != "none":
        text = (ours if header != "theirs" else theirs)["header"]
        lines.append((text[:draw(st.integers(1, len(text) - 1))] if header == "torn" else text).encode())
    for _ in range(draw(st.integers(0, 14))):
        kind = draw(st.sampled_from(["valid", "valid", "valid", "again", "conflict", "torn", "shape", "shape", "field",
                                     "foreign", "code", "blank", "junk"]))
        key, rows, raw = draw(st.sampled_from(ours["jobs"]))
        job: Any = None
        if kind == "valid":
            line, job = raw.encode(), (key, rows)
        elif kind == "again" and meta:
            n = draw(st.sampled_from([m[0] for m in meta]))
            line, job = lines[n - 1], meta[[m[0] for m in meta].index(n)][2]
        elif kind == "conflict":  # the same job, valid, with another result
            other = copy.deepcopy(rows)
            other[0]["score0"] += 1
            line, job = json.dumps({"job": key, "rows": other}).encode(), (key, other)
        elif kind == "torn":
            line = raw[:draw(st.integers(1, len(raw) - 1))].encode()
        elif kind == "shape":
            line = draw(st.sampled_from(NOT_A_JOB))
        elif kind == "field":
            rec = json.loads(raw)
            row = rec["rows"][0]
            how = draw(st.sampled_from(["replace", "delete", "add"]))
            field = draw(st.sampled_from(sorted(row)))
            if how == "replace":
                row[field] = draw(st.sampled_from(IMPOSSIBLE))
            elif how == "delete" and field in ("pairing", "deal", "swap", "round", "seed", "colors", "player0",
                                               "player1", "starter", "score0", "score1", "turns", "capped"):
                del row[field]
            else:
                row["bonus"] = 1
            line = json.dumps(rec).encode()
        elif kind == "foreign":
            line = draw(st.sampled_from(theirs["jobs"]))[2].encode()
        elif kind == "code":
            line = json.dumps({"lcanalysis_code": ours["identity"]["code"]}).encode()
        elif kind == "blank":
            line = draw(st.sampled_from([b"", b"   ", b"\t"]))
        else:
            line = draw(st.binary(max_size=40)).replace(b"\n", b"")
            kind = "blank" if not line.strip() else "junk"
        lines.append(line)
        meta.append((len(lines), kind if job is None else "job", job))
    end = b"\n" if draw(st.booleans()) or not lines else b""
    return b"\n".join(lines) + end, header, meta


@budget(150)
@given(data=st.data())
def test_results_files_are_refused_naming_the_line_or_count_exactly_the_valid_jobs(results_material, data):
    """The property: the reader (``ResultsFile.open``, which a resumed tournament uses, and
    ``read_results``, which ``load_results`` uses) either refuses the file with our own error (a
    ``TournamentError``; a job twice with different results names both lines), or counts exactly the
    valid jobs of this tournament, each once, and reports every other non-blank line by number."""
    from lcanalysis.tournaments.results import ResultsFile, read_results
    from lcanalysis.tournaments.specs import TournamentError

    content, header, meta = data.draw(results_file(results_material))
    path = results_material["folder"] / "fuzzed.jsonl"
    identity = results_material["ours"]["identity"]
    expected: dict[str, Any] = {}
    first: dict[str, int] = {}
    conflict = None
    for n, kind, job in meta:
        if kind == "job" and conflict is None:
            key, rows = job
            if key not in expected:
                expected[key], first[key] = rows, n
            elif expected[key] != rows:
                conflict = (first[key], n)
    split = content.split(b"\n")
    if split[-1] == b"":
        split.pop()
    header_cut_short = split[:1] and split[0].startswith(b'{"lcanalysis_tournament') and len(split) == 1
    for read in ("open", "read_results"):
        # what the reader must answer: an error holding these words, or exactly these jobs
        refusal: str | None = None
        jobs: dict[str, Any] | None = {}
        if header == "ours":
            refusal = None if conflict is None else (f"recorded twice with different results (lines {conflict[0]} "
                                                     f"and {conflict[1]})")
            jobs = expected
        elif header == "theirs":
            refusal = "seed (--seed): 1 in the file, 0 in this run" if read == "open" else None
            jobs = None  # read with the file's own identity: not this tournament's jobs
        elif read == "read_results" or not ((header == "none" and not any(x.strip() for x in split))
                                            or (header == "torn" and header_cut_short)):
            # a file of no tournament (no header, no .cmd): nothing counts; one whose first line is
            # not even a JSON object (a CSV, junk) is no results file at all, and is told so
            start = split[0] if split else b""
            refusal = ("is not a tournament results file" if start.strip() and not start.lstrip().startswith(b"{")
                       else "has no header line")
        path.write_bytes(content)
        try:
            if read == "open":
                rf = ResultsFile(str(path), identity).open()
                rf.close()
                done, problems = rf.done, rf.problems
            else:
                _, done, problems = read_results(str(path))
        except TournamentError as exc:
            assert refusal is not None and refusal in str(exc), (read, header, str(exc))
            continue
        assert refusal is None, f"{read} should have refused the file ({refusal})"
        if jobs is None:
            continue
        assert done == jobs
        if header != "ours":
            continue
        for n, kind, job in meta:  # every line that does not count is reported by its number
            if kind in ("torn", "shape", "field", "foreign", "junk") or (kind == "job" and n != first[job[0]]):
                assert any(p.startswith(f"{path} line {n}: ") for p in problems), (n, kind, problems)


# --- command-line options ----------------------------------------------------------------------------

#: values that are wrong for most options, and the odd shapes an argument list can take
BAD_VALUES = ["", " ", "-1", "0", "nan", "inf", "-inf", "1e400", "1e30", "abc", "2.5", "9" * 40, "--json", "=",
              "\x00", "ß", "-", "--", "0x10", "1_000", "+3"]
ENDGAME_VIEW = "LC1;c5;h8;nr;m0;v0;p0=B10.W2.W3.W6.G9.G10.Rw.R5;p1=?8;e0=Y3.Y4.Y6.Y7.Y10.W4.W7.W10.R3.R4.R8.R9.R10;" \
               "e1=B5.B8.B9.Ww.Ww.Gw.G4.G6.G7.G8;x=Yw.Yw.Y5.Y2.Yw.Y8.B2.Bw.Bw.Ww.Gw.G3.Gw.R2.Rw.Rw;d=5"
POSITION_ARGS = ["example:endgame", ENDGAME_VIEW, "example:midround", "-", "example:nope", "nonexistent.json", ".",
                 "LC1;c5", "{", '{"to_move": 0}', ""]
SMALL_POSITIONS = ["example:endgame", ENDGAME_VIEW, "-", "example:nope", "nonexistent.json", ".", "LC1;c5", "{"]
NODES = ["1", "100", "20000", "0", "-5", "nan", "inf", "1e30", "lots", "1e3"]
MEMORY = ["16", "0.01", "0", "-1", "nan", "inf", "1e9", "big"]
INTS = ["0", "1", "3", "-1", "x", "9" * 30, "2.5"]

#: per command: positionals (each a list of choices), flags, options with their values; the values
#: that are valid are small, so that whatever the fuzz builds stays quick
COMMANDS: dict[str, dict[str, Any]] = {
    "show": {"pos": [POSITION_ARGS], "flags": ["--json", "--string"],
             "opts": {"--svg": ["out.svg", ".", "/nonexistent/dir/x.svg", ""]}},
    "deal": {"pos": [], "flags": ["--json", "--string", "--redraw"],
             "opts": {"--seed": INTS, "--colors": ["5", "6", "7", "x"], "--starter": ["0", "1", "2", "x"]}},
    "solve": {"pos": [SMALL_POSITIONS], "flags": ["--json"],
              "opts": {"--max-stalls": ["0", "1", "31", "32", "-1", "x"], "--max-turns": ["1", "3", "0", "1001", "x"],
                       "--leaf": ["as-is", "heuristic", "simple", "bogus", ""],
                       "--time": ["0.05", "0", "-1", "nan", "inf", "1e9", "86401", "x"],
                       "--samples": ["2", "30", "1", "0", "100001", "x"], "--seed": INTS,
                       "--workers": ["0", "1", "2", "-1", "5000", "x"], "--max-nodes": NODES, "--max-memory": MEMORY}},
    "wager": {"pos": [SMALL_POSITIONS], "flags": ["--json", "--models"],  # --models alone: every model
              "opts": {"--color": ["R", "G", "P", "X", "", "RG", "r"], "--colour": ["B", "Q"],
                       "--draws": ["0", "3", "5", "6", "-1", "x", "9" * 30],
                       "--models": ["all", "canonical", "turns,opponent", "turns_opponent", "canonical,,turns",
                                    "ALL", "bogus", "example:endgame", ","],
                       "--samples": ["2", "30", "1", "0", "1000001", "x"], "--seed": INTS,
                       "--share": ["0", "0.5", "1", "1.5", "-0.1", "nan", "x"],
                       "--p-pickup": ["0", "0.1", "1", "2", "nan", "x"],
                       "--keep-unopened": ["0", "0.5", "1", "-1", "inf", "x"]}},
    "advise": {"pos": [SMALL_POSITIONS + ["example:midround"]], "flags": ["--all", "--board", "--json"],
               "opts": {"--time": ["0.01", "0.02", "0", "-1", "nan", "inf", "1e9", "3601", "x"], "--seed": INTS,
                        "--top": INTS, "--max-nodes": NODES, "--max-memory": MEMORY}},
    "bot": {"pos": [["random", "greedy", "nosuchagent", ""]], "flags": [], "opts": {"--seed": INTS},
            "extra": ["time_ms=5", "time_ms=abc", "x=1", "noequals", "=", "width=nan"]},
}
#: commands fuzzed only with a bad argument among them (valid ones run for minutes or write data)
REFUSED_ONLY: dict[str, dict[str, Any]] = {
    "review": {"pos": [["nonexistent.rec", "-", "{}", "LCR1", ""]], "flags": ["--json", "--no-progress"],
               "opts": {"--time": ["0", "-1", "nan", "inf", "1e9", "x"], "--workers": ["0", "-1", "x"],
                        "--player": ["2", "-1", "x"], "--seed": ["-1", "x"]}},
    "studies": {"pos": [["data", "wager-tables", "wager-claims", "wager-sim", "match-table", "nope"]], "flags": [],
                "opts": {"--rounds": ["x", "2.5", ""], "--seed": ["x", ""], "--only": ["bogus"], "--colors": ["7"]}},
    "tournament": {"pos": [["random", "greedy", "nosuchagent", "search:width=abc", "heuristic:A=x", "random"]],
                   "flags": ["--no-duplicate", "--json", "--no-progress", "--wait", "--luck-adjusted"],
                   "opts": {"--deals": ["1", "0", "-3", "x", "2000000"], "--workers": ["1", "-1", "0", "5000", "x"],
                            "--turn-cap": ["0", "20001", "x"], "--colors": ["5", "7"], "--rounds": ["0", "101"],
                            "--seed": ["-1", "x"], "--out": ["none", ".", "/nonexistent/dir/r.jsonl"],
                            "--csv": [".", "/nonexistent/dir/r.csv"], "--first-deal": ["-1", "x"]}},
}
#: one argument each that makes these commands refuse before any work, put last so that it wins
CERTAINLY_BAD = {"review": [["--time", "0"], ["--player", "2"], ["--workers", "0"], ["--bogus"]],
                 "studies": [["--bogus"], ["--rounds", "x"]],
                 "tournament": [["--deals", "0"], ["--workers", "-1"], ["--turn-cap", "0"], ["--colors", "7"],
                                ["--rounds", "0"], ["--bogus"], ["--deals"]]}


@st.composite
def command_lines(draw: Any) -> list[str]:
    """An argument list for a subcommand: its real options with good, bad, missing or repeated values,
    unknown options, positionals left out or doubled, ``--opt=value`` forms, tokens shuffled."""
    command = draw(st.sampled_from(sorted(COMMANDS) + sorted(REFUSED_ONLY) + ["warm-up", "", "nosuchcommand"]))
    if command not in COMMANDS and command not in REFUSED_ONLY:
        return draw(st.sampled_from([[command], [command, "--help"], ["--help"], [], ["-x"], ["warm-up", "--bogus"]]))
    spec = COMMANDS.get(command) or REFUSED_ONLY[command]
    args: list[list[str]] = [[draw(st.sampled_from(choices))] for choices in spec["pos"]]
    for _ in range(draw(st.integers(0, 5))):
        what = draw(st.sampled_from(["opt", "opt", "opt", "flag", "bad", "missing", "unknown", "extra", "pos", "drop"]))
        options = sorted(spec["opts"])
        if what in ("opt", "bad", "missing") and options:
            name = draw(st.sampled_from(options))
            value = draw(st.sampled_from(spec["opts"][name] if what == "opt" else BAD_VALUES))
            if what == "missing":
                args.append([name])
            elif draw(st.booleans()):
                args.append([f"{name}={value}"])
            else:
                args.append([name, value])
        elif what == "flag" and spec["flags"]:
            args.append([draw(st.sampled_from(spec["flags"]))])
        elif what == "unknown":
            args.append([draw(st.sampled_from(["--bogus", "-q", "--max", "--jsonx", "---json"]))])
        elif what == "extra" and spec.get("extra"):
            args.append([draw(st.sampled_from(spec["extra"]))])
        elif what == "pos" and spec["pos"]:
            args.append([draw(st.sampled_from(spec["pos"][0]))])
        elif what == "drop" and args:
            args.pop(draw(st.integers(0, len(args) - 1)))
    if draw(st.booleans()):
        args = draw(st.permutations(args))
    if command in REFUSED_ONLY:
        args.append(draw(st.sampled_from(CERTAINLY_BAD[command])))
    if command == "wager" and draw(st.booleans()):  # the required option, and often the models: else they seldom run
        args.append(["--color", draw(st.sampled_from(["R", "G", "B", "Y"]))])
        if draw(st.booleans()):
            args.append(["--models"] + draw(st.sampled_from([[], ["turns,opponent"], ["turns_opponent"]])))
    if command in ("solve", "advise") and draw(st.booleans()):
        args.append(["--max-nodes", draw(st.sampled_from(NODES))])  # often the last word on the budget
    return [command] + [token for group in args for token in group]


@budget(300)
@given(argv=command_lines(), stdin=st.sampled_from(["", "LC1;c5", "{", "example:endgame", ENDGAME_VIEW, "\x00\n"]))
def test_command_line_options_are_refused_with_an_error_or_run(argv, stdin, capsys, monkeypatch, tmp_path):
    """The property, for every argument list of every subcommand: exit status 0 (it ran, or printed
    its help) or 2 with ``error:`` on standard error, and never a traceback. In-process
    (``lcanalysis.cli.main``); work stays small: tiny endgames, a node budget of 20,000 unless the
    list names its own, advice for at most 0.02 s, wager models sampled 30 times a row unless the list
    says --samples, and the commands that would run long only with an
    argument that refuses them before any work."""
    from lcanalysis.cli import common, main, wager_models

    monkeypatch.chdir(tmp_path)  # --svg, --out and --csv land here
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    monkeypatch.setattr(common, "DEFAULT_MAX_NODES", 20_000)
    monkeypatch.setattr(wager_models, "WAGER_SAMPLES_DEFAULT", 30)  # 'wager --models' without --samples
    monkeypatch.setattr("sys.stdin", io.StringIO(stdin))
    capsys.readouterr()
    try:
        code = main(list(argv))
    except SystemExit as exc:  # argparse: a usage error (2) or --help (0)
        code = exc.code
    out = capsys.readouterr()
    assert code in (0, 2), f"exit status {code!r} for {argv}"
    assert "Traceback" not in out.err, f"{argv}: {out.err}"
    if code == 2:
        assert "error:" in out.err, f"{argv}: exit status 2 with no error message: {out.err!r}"


#: the wager models, as docs/wagers.md names them, in its order
WAGER_MODELS = ["canonical", "decline_at_end", "turns", "turns_eager", "opponent", "turns_opponent"]


@pytest.mark.parametrize("models, asked", [(["--models"], WAGER_MODELS),
                                           (["--models", "turns,opponent"], ["turns", "opponent"]),
                                           (["--models", "opponent,canonical"], ["canonical", "opponent"])])
@pytest.mark.parametrize("as_json", [True, False])
def test_wager_models_run_to_an_answer_with_a_row_per_model_asked(models, asked, as_json, capsys, monkeypatch,
                                                                     tmp_path):
    """The fixed set of the property above refuses every ``wager --models`` list it builds (some other
    option of each is bad), so these run ``--models`` to its answer, in-process as there, at 2 samples a
    row. Green in ENDGAME_VIEW: G9 G10 in hand, no green card down, no green wager unseen, G2 and G5
    among the 13 unseen cards, 3 turns left and so 2 draws. Canonical: -1 + 7 * 2/13 = 1/13; declining
    at the end, max(0, S): S is +1 (G2 alone drawn), +4 (G5 alone), +6 (both) in 11, 11 and 1 of the
    78 pairs of draws, so 61/78. No green wager is held: one row (no wager) per model."""
    from lcanalysis.cli import main

    monkeypatch.chdir(tmp_path)
    argv = ["wager", ENDGAME_VIEW, "--color", "G", *models, "--samples", "2"] + (["--json"] if as_json else [])
    capsys.readouterr()
    assert main(argv) == 0
    out = capsys.readouterr()
    assert "Traceback" not in out.err
    if not as_json:
        block = out.out.split("\n\n")[1].splitlines()  # the header, a row per model, why no wager row
        table = [row.split() for row in block[1:] if not row.strip().startswith("no row with a wager")]
        assert [row[0] for row in table] == asked
        by_hand = {"canonical": "+0.08", "decline_at_end": "+0.78"}
        for name, wagers, how, mean, *rest in table:  # exact: the hand's value; else an estimate ± its error
            assert wagers == "0" and how == ("exact" if name in by_hand else "estimate")
            assert mean == by_hand[name] if name in by_hand else rest[0] == "±"
        return
    answer = json.loads(out.out)
    assert list(answer["models"]) == asked and answer["samples"] == 2 and (answer["turns"], answer["draws"]) == (3, 2)
    expected = {"canonical": 1 / 13, "decline_at_end": 61 / 78}
    for name, model in answer["models"].items():
        (row,) = model["by_wagers"]
        assert row["wagers"] == 0 and model["marginals"] == []
        if name in expected:
            assert model["exact"] and row["mean"] == pytest.approx(expected[name], abs=1e-12)
        else:  # sampled: an estimate with its standard error, from the 2 samples asked
            assert not model["exact"] and row["samples"] == 2 and row["stderr"] >= 0 and row["p_positive_stderr"] >= 0
