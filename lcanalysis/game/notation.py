"""Reading positions: the JSON format of docs/spec/interchange.md, the one-line position string,
files, ``example:NAME``, and the validation every entry point shares (``formats.py`` writes them).

The one-line string (our design, for pasting into a notebook, an article or a shell)
carries exactly what the JSON carries, as ``;``-separated fields, cards joined by ``.``::

    LC1;c5;h8;nr;m0;p0=R7.Bw.B4.G10.Y3.Y5.W8.R9;p1=G2.G3.Yw.W2.W9.B8.R2.Y10;e0=Rw.R3.R5;e1=B2;x=G6.W4.W6;d=Y2.W5

=================  ==============================================================
``LC1``            format tag and version (required, first)
``c5`` ``h8``      colours, hand size; ``nr`` no-redraw rule on, ``r`` off
``rounds=3``       other rules options, only when not the default
``cap=200``        (``turn_cap``), ``tie=alternate`` (``tied_start``)
``m0``             player to move; ``v1`` viewer of a view (default: the mover)
``p0=...``         a hand; in a view the opponent's is ``?COUNT`` then known cards: ``p1=?8.G9``
``e0=`` ``e1=``    expeditions, cards in the order placed (colours may be mixed)
``x=``             discard piles, each colour's cards bottom first
``d=``             the draw pile top first (a full position) or its size (a view)
``draw=R``         the draw step; ``R`` is the blocked colour, ``-`` for none
``hist=``          the round so far, oldest first (moves joined by ``.``)
``match=2:35,10``  round number and running totals
=================  ==============================================================
Keys are case-insensitive on input; output is canonical, so a string round-trips exactly.

Every reader is bounded before it parses (the limits below): text longer than
``MAX_TEXT_CHARS`` is refused unread, JSON nested deeper than ``MAX_JSON_DEPTH``, holding more
than ``MAX_JSON_CONTAINERS`` lists and objects or ``MAX_JSON_ITEMS`` items (a game record: more for
each round after its first, ``record_rounds``), a number longer than
``MAX_NUMBER_CHARS`` characters, ``NaN``/``Infinity`` and a key twice in one object are refused
with a ``PositionError``. No valid position comes near a limit: a history is at most the turn
cap (``rules.MAX_TURN_CAP`` turns, about 100 kB), the rest of a position a few hundred bytes. So
reading costs at most a few bytes of memory per byte of input (tests/test_fuzz.py measures it).
"""

from __future__ import annotations

import json
import math
import os
import re
from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any

from lcanalysis.game.cards import CARDS_PER_COLOR, COLOR_LETTERS, COLOR_NAMES, Buried, Card, brief, sixth_colour_hint
from lcanalysis.game.examples import EXAMPLES, PREFIX, example_text
from lcanalysis.game.formats import RECORD_TAG, STRING_TAG
from lcanalysis.game.position import (
    Position,
    PositionError,
    as_cards,
    check_match,
    parse_history,
    player_number,
)
from lcanalysis.game.rules import MAX_ROUNDS, MAX_TURN_CAP, Rules, RulesError
from lcanalysis.game.view import View

JSON_KEYS = {"rules", "to_move", "hands", "expeditions", "discards", "deck", "phase", "blocked",
             "viewer", "history", "match"}

#: The longest text (JSON, a one-line string, a file, a bot request line) any reader accepts.
MAX_TEXT_CHARS = 1_000_000
#: JSON nesting: a position nests 4 deep, a bot request or a record 5.
MAX_JSON_DEPTH = 16
#: Lists and objects in one JSON text: a position has a few dozen.
MAX_JSON_CONTAINERS = 1_000
#: Items (commas) in one JSON text: a history of MAX_TURN_CAP turns and a record's moves fit.
MAX_JSON_ITEMS = 2 * MAX_TURN_CAP + 1_000
#: Lists and objects one round of a game record adds, at most: a round holds 36 (itself, its rules,
#: players and turns; its start: itself, rules, hands 4, expeditions 15, discards 7, deck, history,
#: match 2), and a colour written twice (``"R"`` and ``"r"``) is refused only after reading.
RECORD_ROUND_CONTAINERS = 64
#: Characters of one JSON number: the numbers of a position are small.
MAX_NUMBER_CHARS = 24
#: ``;``-separated fields of a one-line string: it has about a dozen.
MAX_STRING_FIELDS = 64
#: what to do with a game record given where a position was meant
REVIEW_IT = ("review it with 'lcanalysis review FILE' (lc.review in Python), or read it with "
             "lcanalysis.game.records.read_record")


# --- bounded JSON ---------------------------------------------------------------------------



def unreadable(path: str, exc: OSError) -> str:
    """Why the file at ``path`` could not be read, in words: a folder is named as one (Python's
    message was "[Errno 21] Is a directory: 'path'"), anything else by the system's reason."""
    if isinstance(exc, IsADirectoryError):
        return f"{path} is a folder, not a file"
    return f"cannot read {path}: {exc.strerror or exc}"

def check_text_size(text: str, what: str = "the input") -> None:
    """Refuse text over ``MAX_TEXT_CHARS`` characters, before anything else reads it."""
    if len(text) > MAX_TEXT_CHARS:
        raise PositionError(f"{what} is {len(text):,} characters long: the limit is {MAX_TEXT_CHARS:,} (a "
                            f"position, even with a history as long as the longest turn cap, is far shorter)")


_BRACKETS = re.compile(r"[\[\]{}]")


def _check_json_shape(text: str, rounds: int = 1) -> None:
    """Nesting depth, lists and objects, and items, from a scan that allocates nothing per character
    (``str.count`` over the text, then a walk over at most twice the limit of brackets).
    Brackets and commas inside strings count too: no valid position has any there. ``rounds``: the
    round records a game record's text holds (``record_rounds``); each adds what a round can hold."""
    extra = max(rounds, 1) - 1
    max_containers = MAX_JSON_CONTAINERS + RECORD_ROUND_CONTAINERS * extra
    max_items = MAX_JSON_ITEMS * (extra + 1)  # each round: a start and turns as long as the turn cap
    depth = 0
    for i, bracket in enumerate(_BRACKETS.finditer(text)):
        if i >= 2 * max_containers:
            break  # too many: refused just below
        depth += 1 if bracket.group() in "[{" else -1
        if depth > MAX_JSON_DEPTH:
            raise PositionError(f"the JSON is nested more than {MAX_JSON_DEPTH} deep; a "
                                f"position nests 4 deep")
    what = "a position has a few dozen" if not extra else \
        f"a record of {rounds:,} rounds has at most {RECORD_ROUND_CONTAINERS} per round"
    containers = max(text.count("[") + text.count("{"), text.count("]") + text.count("}"))
    if containers > max_containers:
        raise PositionError(f"the JSON has {containers:,} lists and objects; {what} (the limit is "
                            f"{max_containers:,})")
    items = text.count(",")
    if items > max_items:
        what = "a position (a history as long as the longest turn cap included)" if not extra else \
            f"a record of {rounds:,} rounds (each with turns as long as the longest turn cap)"
        raise PositionError(f"the JSON has {items:,} items; {what} has fewer than {max_items:,}")


def record_rounds(text: str) -> int:
    """How many round records a game record's JSON text can hold, for ``loads_json``: each has one
    ``"start"`` key, and a match has at most ``rules.MAX_ROUNDS`` rounds."""
    return min(max(text.count('"start"'), 1), MAX_ROUNDS)


def _json_object(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    obj = dict(pairs)
    if len(obj) != len(pairs):
        seen: set[str] = set()
        twice = next(key for key, _ in pairs if key in seen or seen.add(key))  # type: ignore[func-returns-value]
        raise PositionError(f"invalid JSON: the key {brief(twice)} appears twice in one object")
    return obj


def _json_int(text: str) -> int:
    if len(text) > MAX_NUMBER_CHARS:
        raise PositionError(f"a number of {len(text):,} digits (numbers in a position are "
                            f"small; the limit is {MAX_NUMBER_CHARS} characters)")
    return int(text)


def _json_float(text: str) -> float:
    value = float(text) if len(text) <= MAX_NUMBER_CHARS else math.inf
    if not math.isfinite(value):
        raise PositionError(f"the number {brief(text)} is too large")
    return value


def _json_constant(name: str) -> Any:
    raise PositionError(f"invalid JSON: {name} is not a number JSON has")


#: what a JSON syntax error at the end of the text means to a reader
ENDS_EARLY = "the JSON ends early (a truncated file?)"


def json_ends_early(exc: json.JSONDecodeError, text: str) -> bool:
    """Whether the parser ran off the end of ``text``: it was cut off (a truncated file, a paste that
    lost its end), not malformed. (On one line, every error is on the last, so the line cannot tell.)"""
    return exc.pos >= len(text.rstrip()) or exc.msg.startswith("Unterminated string")


class InvalidJSON(PositionError):
    """Text that is not JSON: ``error`` is json's ``JSONDecodeError`` (its message, line and column);
    the message says when the text ends early (``json_ends_early``)."""

    def __init__(self, error: json.JSONDecodeError, text: str) -> None:
        super().__init__(f"invalid JSON: {ENDS_EARLY + ': ' if json_ends_early(error, text) else ''}{error}")
        self.error = error


def loads_json(text: str, rounds: int = 1) -> Any:
    """``json.loads`` within the limits above: a ``PositionError`` for anything else, never a
    ``RecursionError``, a ``ValueError`` about a long number, or memory out of proportion.
    ``rounds``: for a game record, the rounds it holds (``record_rounds``): the limits on lists and
    objects and on items grow with them, so that a legal match record of any length reads."""
    if not isinstance(text, str):
        raise PositionError(f"JSON must be text, got {type(text).__name__}")
    check_text_size(text)
    _check_json_shape(text, rounds)
    try:
        return json.loads(text, object_pairs_hook=_json_object, parse_int=_json_int, parse_float=_json_float,
                          parse_constant=_json_constant)
    except json.JSONDecodeError as exc:
        raise InvalidJSON(exc, text) from None
    except RecursionError:  # not reached within MAX_JSON_DEPTH, kept as a guard
        raise PositionError("the JSON is nested too deep") from None


# --- JSON in --------------------------------------------------------------------------


def _expedition_lists(data: Any, nc: int) -> list[list[Any]]:
    if data is None:
        return [[], []]
    if not isinstance(data, list) or len(data) != 2:
        raise PositionError("expeditions must be a list of two objects (one per player), like [{\"R\": [\"R3\"]}, {}]")
    out = []
    for p, per in enumerate(data):
        if not isinstance(per, Mapping):
            raise PositionError(f"expeditions of player {p} must be an object colour -> cards")
        cards: list[Any] = []
        for letter, lst in per.items():
            _check_color_key(letter, nc, f"expeditions of player {p}")
            for card in as_cards(_card_list(lst, f"expedition {letter} of player {p}", CARDS_PER_COLOR), nc,
                                  f"expedition {letter} of player {p}"):
                if card.color_letter != letter.upper():
                    raise PositionError(f"expedition {letter.upper()} of player {p} holds {card} of another colour")
                cards.append(card)
        out.append(cards)
    return out


def _discard_list(data: Any, nc: int) -> list[Card | Buried]:
    if data is None:
        return []
    if not isinstance(data, Mapping):
        raise PositionError("discards must be an object colour -> cards, like {\"G\": [\"G6\"]}")
    cards = []
    for letter, lst in data.items():
        _check_color_key(letter, nc, "discards")
        items = _card_list(lst, f"discard pile {letter}", CARDS_PER_COLOR)
        known = iter(as_cards([x for x in items if Buried.parse(x, nc) is None], nc, f"discard pile {letter}"))
        for item in items:  # a card not remembered, "G?", keeps its place in the pile
            card = Buried.parse(item, nc) or next(known)
            if COLOR_LETTERS[card.color] != letter.upper():
                raise PositionError(f"discard pile {letter.upper()} holds {card} of another colour")
            cards.append(card)
    return cards


def _check_color_key(letter: Any, nc: int, where: str) -> None:
    upper = letter.upper() if isinstance(letter, str) and len(letter) == 1 else ""
    if len(upper) != 1 or upper not in COLOR_LETTERS[:nc]:
        raise PositionError(f"{where}: {brief(letter)} is not a colour of the {nc}-colour game; the colour letters "
                            f"are {' '.join(COLOR_LETTERS[:nc])} ({', '.join(COLOR_NAMES[:nc])})"
                            f"{sixth_colour_hint(letter, nc)}")


def _card_list(lst: Any, where: str, limit: int = CARDS_PER_COLOR * len(COLOR_LETTERS)) -> list[Any]:
    """A JSON list of card strings (a number is not a card here), at most ``limit`` long."""
    if not isinstance(lst, list):
        raise PositionError(f"{where} must be a list of cards, got {type(lst).__name__}")
    if len(lst) > limit:
        raise PositionError(f"{where}: {len(lst):,} cards, but at most {limit} can be there")
    for card in lst:
        if not isinstance(card, str):
            raise PositionError(f"{where}: a card is a string like 'R7' or 'Gw', got {brief(card)}")
    return lst


def _int_field(d: Mapping[str, Any], key: str, default: Any, allowed: Sequence[int] | None = None) -> Any:
    v = d.get(key, default)
    if v is None:
        return v
    if isinstance(v, bool) or not isinstance(v, int) or (allowed is not None and v not in allowed):
        want = f" one of {list(allowed)}" if allowed is not None else " a whole number"
        raise PositionError(f"{key} must be{want}, got {brief(v)}")
    return v


def _key_names(keys: Sequence[Any]) -> str:
    return ", ".join(brief(k) for k in keys[:5]) + (", ..." if len(keys) > 5 else "")


def from_json(data: Mapping[str, Any]) -> Position | View:
    """A ``Position`` (both hands and the deck as lists) or a ``View`` (the opponent's hand as
    ``{"known": [...], "count": n}`` and the deck as a number). Raises ``PositionError``."""
    if not isinstance(data, Mapping):
        raise PositionError(f"a position must be a JSON object, got {type(data).__name__}")
    unknown = [key for key in data if key not in JSON_KEYS]
    if "turns" in unknown or "rounds" in unknown:  # a game record's keys (game/records.py)
        raise PositionError(f"this is a game record (it has 'turns' or 'rounds'), not a position: {REVIEW_IT}")
    if unknown:
        raise PositionError(f"unknown key(s) {_key_names(unknown)}; a position has {sorted(JSON_KEYS)}")
    try:
        rules = Rules.from_dict(data.get("rules", {}))
    except RulesError as exc:
        raise PositionError(str(exc)) from None
    nc = rules.colors
    to_move = _int_field(data, "to_move", None, (0, 1))
    if to_move is None:
        raise PositionError("to_move is missing: 0 or 1")
    if "hands" not in data or "deck" not in data:
        raise PositionError("a position needs 'hands' and 'deck'")
    hands = data["hands"]
    if not isinstance(hands, list) or len(hands) != 2:
        raise PositionError("hands must be a list of two hands")
    phase = data.get("phase", "place")
    blocked = data.get("blocked")
    if phase == "draw" and "blocked" not in data:
        # left out, the pile just discarded onto would silently open for the draw
        raise PositionError("phase 'draw' needs 'blocked': the colour just discarded onto (e.g. \"R\"), "
                            "or null after a play")
    exps = _expedition_lists(data.get("expeditions"), nc)
    discards = _discard_list(data.get("discards"), nc)
    history = data.get("history", [])
    if not isinstance(history, list):
        raise PositionError("history must be a list of moves")
    if len(history) > rules.turn_cap:
        raise PositionError(f"history has {len(history):,} turns, but a round ends at the turn cap of "
                            f"{rules.turn_cap} turns (rules turn_cap)")
    for i, move in enumerate(history):
        if not isinstance(move, str):
            raise PositionError(f"history move {i + 1}: a move is a string like '+R7/D', got {brief(move)}")
    match = check_match(data.get("match"), rules)
    deck = data["deck"]
    is_view = not isinstance(deck, list) or any(isinstance(h, Mapping) for h in hands)
    if not is_view:
        if "viewer" in data:
            raise PositionError("viewer belongs to a view: give the opponent's hand as {\"known\", \"count\"} "
                                "and the deck as a number")
        if any(isinstance(card, Buried) for card in discards):
            raise PositionError("buried pile cards (G?) belong to a player's view: a full position knows every "
                                "card (give the opponent's hand as {\"known\", \"count\"} and the deck as a number)")
        for p in range(2):
            _card_list(hands[p], f"hand of player {p}")
        _card_list(deck, "deck")
        return Position.from_parts(hands, exps, discards, deck, rules=rules, to_move=to_move, phase=phase,
                                   blocked=blocked, history=history, match=match)
    viewer = _int_field(data, "viewer", to_move, (0, 1))
    if viewer is None:
        raise PositionError("viewer must be 0 or 1 (or left out: the player to move), got null")
    if isinstance(deck, bool) or not isinstance(deck, int):
        raise PositionError(f"in a view the deck is a whole number (cards left in the draw pile), got "
                            f"{brief(deck)}; in a full position both hands and the deck are lists")
    own = hands[viewer]
    if isinstance(own, list):
        _card_list(own, f"hand of player {viewer}")
    else:
        hint = ""
        if "viewer" not in data and isinstance(hands[1 - viewer], list):
            hint = (f"; this view belongs to player {viewer} because player {viewer} is to move: if you are "
                    f"player {1 - viewer}, say so with \"viewer\": {1 - viewer} (in the one-line string: "
                    f"v{1 - viewer})")
        raise PositionError(f"hand of player {viewer} (the viewer) must be a list of cards{hint}")
    opp = hands[1 - viewer]
    if isinstance(opp, list):
        known, count = _card_list(opp, f"hand of player {1 - viewer}"), len(opp)
    elif isinstance(opp, Mapping):
        if set(opp) - {"known", "count"} or "count" not in opp:
            wrong = sorted(map(str, set(opp) - {"known", "count"}))  # a typo is named, not only the shape
            what = (f"unknown key(s) {', '.join(map(repr, wrong))}" if wrong else "'count' is missing")
            raise PositionError(f"hand of player {1 - viewer}: {what}; it must be "
                                f"{{\"known\": [cards], \"count\": n}}")
        known, count = opp.get("known", []), opp["count"]
        _card_list(known, f"known cards of player {1 - viewer}")
    else:
        raise PositionError(f"hand of player {1 - viewer} must be a list or {{\"known\", \"count\"}}")
    return View.from_parts(own, opponent_count=count, deck_count=deck, opponent_known=known, expeditions=exps,
                      discards=discards, rules=rules, viewer=viewer, to_move=to_move, phase=phase,
                      blocked=blocked, history=history, match=match)


# --- the one-line string ----------------------------------------------------------------


_NUMBER = re.compile(r"-?[0-9]{1,18}")


def _split_cards(text: str, what: str, limit: int = CARDS_PER_COLOR * len(COLOR_LETTERS)) -> list[str]:
    if text.count(".") >= limit + 1:  # counted before splitting: a long field costs nothing
        raise PositionError(f"position string: {what} lists more than {limit} items")
    items = [c for c in text.split(".") if c]
    wrong = next((sep for sep in (",", " ") if any(sep in c.strip() for c in items)), None)
    if wrong is not None:  # 'p0=Y3 Y4 Ww', 'p0=Y3,Y4': a card list typed as one would write it by hand
        sample, inside = _retyped(text)
        shown = f"{what}={sample[:60]}{'...' if len(sample) > 60 else ''}"
        if inside:  # 'e0=R 3': a space within a card, not between two ('write e0=R.3' would be no card)
            raise PositionError(f"position string: {what}= has a space inside a card or turn: write {shown}")
        raise PositionError(f"position string: {what}= separates its items with '.', not {wrong!r}: write {shown}")
    return items


#: a piece of a card or turn typed with a space inside it: a colour letter alone ('R 3', '+R 3/D') or
#: the '?' of a hand not seen ('? 8'), and what follows it, a value alone ('3', 'w', the '?' of a
#: buried card, a hand's size) or a pile to draw from ('/D')
_LONE_COLOUR = re.compile(r"[+-]?[A-Za-z]|\?")
_LONE_VALUE = re.compile(r"(?:[0-9]+|[wW]|\?)(?:/.*)?")


def _retyped(text: str) -> tuple[str, bool]:
    """A card list typed by hand with spaces or commas, written as the string writes it (items joined
    by '.'), and whether a space was inside a card or turn ('R 3', '+R3 /D') rather than between two."""
    out: list[str] = []
    inside = False
    for piece in (p for p in re.split(r"[.,\s]+", text) if p):
        joins = bool(out) and (piece.startswith("/") or (_LONE_COLOUR.fullmatch(out[-1]) is not None
                                                         and _LONE_VALUE.fullmatch(piece) is not None))
        if joins:
            out[-1] += piece
            inside = True
        else:
            out.append(piece)
    return ".".join(out), inside


def _number(text: str, what: str, signed: bool = False) -> int:
    """A whole number of at most 18 ASCII digits (a sign only where ``signed``); its range is checked later."""
    t = text.strip()
    if not _NUMBER.fullmatch(t) or (t.startswith("-") and not signed):
        raise PositionError(f"position string: {what} must be a whole number, got {brief(text)}")
    return int(t)


def string_to_json(text: str) -> dict[str, Any]:
    """Parse the one-line string into the JSON object it stands for (then validated by ``from_json``)."""
    if not isinstance(text, str):
        raise PositionError(f"a position string must be text, got {type(text).__name__}")
    check_text_size(text, "the position string")
    body = text.strip().lstrip("\ufeff").strip()
    if body.count(";") > MAX_STRING_FIELDS:
        raise PositionError(f"position string: more than {MAX_STRING_FIELDS} fields; a position has about a dozen")
    fields = [f.strip() for f in body.split(";") if f.strip()]
    if not fields or fields[0].upper() != STRING_TAG:
        raise PositionError(f"a position string starts with '{STRING_TAG};', got {brief(text[:20])}")
    if len(fields) == 1:  # 'lcanalysis show LC1;c5;...' unquoted: the shell ran 'lcanalysis show LC1', then 'c5', ...
        raise PositionError(f"the position string is '{fields[0]}' alone, with no fields after it: on a command "
                            f"line put the whole string in quotes, \"{STRING_TAG};c5;h8;...\", since the shell "
                            "ends a command at the first ';'")
    rules: dict[str, Any] = {}
    d: dict[str, Any] = {}
    hands: list[Any] = [None, None]
    exps: list[dict[str, list[str]]] = [{}, {}]
    discards: dict[str, list[str]] = {}
    seen: dict[str, str] = {}
    for f in fields[1:]:
        key, sep, val = f.partition("=")
        k = key.lower()
        bare = not sep and k[:1] in "chmv" and k[1:].isdigit()  # c5, h8, m0, v0: the key is their letter
        name = "redraw" if not sep and k in ("nr", "r") else (k[:1] if bare else k)
        if name in seen:
            raise PositionError(f"position string: field {brief(f)} repeats {brief(seen[name])}")
        seen[name] = f
        try:
            if not sep and k in ("nr", "r"):
                rules["no_redraw"] = k == "nr"
            elif not sep and k[0] in "chmv" and k[1:].isdigit():
                target, option = {"c": (rules, "colors"), "h": (rules, "hand_size"),
                                  "m": (d, "to_move"), "v": (d, "viewer")}[k[0]]
                target[option] = _number(k[1:], f"field {k[0]}")
            elif k == "rounds":
                rules["rounds"] = _number(val, "rounds", True)  # (a sign: refused naming the range)
            elif k == "cap":
                rules["turn_cap"] = _number(val, "cap", True)
            elif k == "tie":
                rules["tied_start"] = val
            elif k in ("p0", "p1"):
                cards = _split_cards(val, k)
                if cards and cards[0].isdigit():  # a count without its mark: "p1=8" for "p1=?8"
                    raise PositionError(f"{k}={val}: a hand of cards not seen is written with ?, like {k}=?"
                                        f"{cards[0]} ({cards[0]} cards, none known) or {k}=?{cards[0]}.R7 (R7 known)")
                if cards and cards[0].startswith("?"):
                    hands[int(k[1])] = {"known": cards[1:],
                                        "count": _number(cards[0][1:], f"the hand size in {k} (the number "
                                                                       f"after '?', like {k}=?8)")}
                else:
                    hands[int(k[1])] = cards
            elif k in ("e0", "e1"):
                for c in _split_cards(val, k):
                    exps[int(k[1])].setdefault(c[0].upper(), []).append(c)
            elif k == "x":
                for c in _split_cards(val, "x"):
                    discards.setdefault(c[0].upper(), []).append(c)
            elif k == "d":
                digits = val.strip()
                signed = digits[:1] in ("+", "-") and digits[1:].isdigit()
                word = digits[:1].isalpha() and digits[:1].upper() not in COLOR_LETTERS and "." not in digits
                if signed or (digits[:1].isdigit() and not digits.isdigit()) or word:
                    # a signed count, one like 44.0 or 1e3, or a word ('forty'): never cards (a card starts
                    # with its colour)
                    raise PositionError("position string: d= is the number of cards in the draw pile (0 or more) "
                                        f"or the pile's cards, got {brief(val)}")
                d["deck"] = _number(digits, "d") if digits.isascii() and digits.isdigit() else _split_cards(val, "d")
            elif k == "draw":
                if not val:  # as "blocked" in JSON: an empty value would silently open the pile discarded onto
                    raise PositionError("position string: draw= names the colour just discarded onto (draw=R), "
                                        "or - after a play (draw=-)")
                d["phase"] = "draw"
                d["blocked"] = None if val == "-" else val.upper()
            elif k == "hist":
                d["history"] = _split_cards(val, "hist", MAX_TURN_CAP)
            elif k == "match":
                r, colon, tot = val.partition(":")
                if not colon or tot.count(",") != 1:  # "match=2", "match=2:35": say the form, not "cannot read"
                    raise PositionError(f"position string: match= is the round and the running totals of "
                                        f"players 0 and 1 before it, ROUND:TOTAL0,TOTAL1 (like match=2:35,10), "
                                        f"got {brief(val)}")
                a, b = tot.split(",")
                d["match"] = {"round": _number(r, "the match round", True),
                              "totals": [_number(a, "a match total", True), _number(b, "a match total", True)]}
            else:
                raise PositionError(f"position string: unknown field {brief(f)}{_meant(f)}")
        except (ValueError, IndexError) as exc:
            if isinstance(exc, PositionError):
                raise
            raise PositionError(f"position string: cannot read field {brief(f)}") from None
    if hands[0] is None or hands[1] is None:
        raise PositionError("position string: both hands p0= and p1= are needed" + _hand_missing(rules, hands))
    if "deck" not in d:
        raise PositionError("position string: the draw pile d= is missing" + _deck_fit(rules, hands, exps, discards))
    if "to_move" not in d:
        raise PositionError("position string: the player to move (m0 or m1) is missing")
    if d["deck"] == [] and ("viewer" in d or any(isinstance(h, dict) for h in hands)):
        # 'd' or 'd=' alone is a full position's empty pile; a view's said "got []", naming no field
        raise PositionError(f"position string: {brief(seen['d'])} has no number: in a view d= is the number of "
                            "cards left in the draw pile, like d=37 (d=0 once it is empty)")
    _short_hand_of_a_view(rules, hands, d)
    d["rules"] = rules
    d["hands"] = hands
    d["expeditions"] = exps
    d["discards"] = discards
    return d


#: the fields written KEY=VALUE, longest first (so 'draw-' is read as draw=, not d=)
VALUE_FIELDS = ("rounds", "match", "hist", "draw", "cap", "tie", "p0", "p1", "e0", "e1", "x", "d")


def _meant(field: str) -> str:
    """For a field the format does not have, the one it looks like a typo of, said as a suggestion
    ("d27" for d=27, "m=0" for m0); else ''."""
    key, sep, val = field.partition("=")
    k = key.strip().lower()
    if sep and k in ("c", "h", "m", "v") and val.strip().isdigit():  # m=0: these take their number directly
        return f" (did you mean {k}{val.strip()}?)"
    if sep:
        return ""
    for name in VALUE_FIELDS:  # "d27", "d 27", "d:27", "p0Y6.B4": the '=' left out
        rest = field.strip()[len(name):].lstrip(" :")
        # (what follows must be able to start a value: a count, a card, a turn; not the rest of a word)
        if field.strip().lower().startswith(name) and rest[:1].upper() in "0123456789?+-" + COLOR_LETTERS:
            return f" (did you mean {name}={rest}?)"
    return ""


def _hand_missing(rules: dict[str, Any], hands: list[Any]) -> str:
    """For a string with one hand missing: how to write the other, the opponent's hand of a view
    written as its size after '?' (a player at the table does not see it); else ''."""
    given = [i for i in (0, 1) if hands[i] is not None]
    if len(given) != 1:
        return ""
    other = 1 - given[0]
    if isinstance(hands[given[0]], dict):  # the hand given is one not seen: the missing one is the viewer's own
        return f": p{other}= lists the cards of your own hand, like p{other}=Y3.B4.W8"
    size = rules.get("hand_size", Rules().hand_size)
    return (f": in a view, the opponent's hand is its size after '?', p{other}=?{size}, with any cards of it you "
            f"know after that, like p{other}=?{size}.G5")


def _short_hand_of_a_view(rules: dict[str, Any], hands: list[Any], d: dict[str, Any]) -> None:
    """Refuse the opponent's hand written as the few cards of it the viewer knows ('p1=G5' for
    p1=?8.G5) in a view (the draw pile a count), saying how it is written; it was refused as a hand
    "of 1 card; it must have 8", with no word on the '?'."""
    size = rules.get("hand_size", Rules().hand_size)
    other = 1 - d["to_move"] if d["to_move"] in (0, 1) else None
    if other is None or not isinstance(d["deck"], int) or not isinstance(hands[other], list):
        return
    cards = [c[:1].upper() + c[1:].lower() for c in hands[other]]  # as written back: G5, Yw
    if 0 < len(cards) < size:
        raise PositionError(f"hand of player {other} has {len(cards)} card{'' if len(cards) == 1 else 's'}; it must "
                            f"have {size}: in a view, a hand of which you know only some cards is its size after "
                            f"'?', then the cards you know: p{other}=?{size}.{'.'.join(cards)}")


def _deck_fit(rules: dict[str, Any], hands: list[Any], exps: list[dict[str, list[str]]],
              discards: dict[str, list[str]]) -> str:
    """For a view string with no ``d=``: the count that accounts for every other card of the deck,
    said as a suggestion (the view's own check then tells whether the rest adds up); else ''."""
    colors = rules.get("colors", 5)
    if not any(isinstance(h, dict) for h in hands) or colors not in (5, 6):
        return ""
    held = sum(h["count"] if isinstance(h, dict) else len(h) for h in hands)
    placed = sum(len(cards) for e in exps for cards in e.values()) + sum(len(cards) for cards in discards.values())
    left = colors * CARDS_PER_COLOR - held - placed
    if left < 0:
        return ""
    return (f": give how many cards it holds; d={left} accounts for every card not in the hands, on the "
            f"expeditions or in the discard piles")


def read_position(source: str | os.PathLike | Mapping[str, Any] | Position | View) -> Position | View:
    """A position or view from a JSON object, a JSON text, the one-line string, a path to a
    JSON file, or ``example:NAME`` for a built-in example (``lcanalysis.game.examples``).
    This is the one place every entry point reads positions. Raises ``PositionError`` naming
    the problem."""
    return _read(source, from_file=False)


#: what standard input (``-`` on the command line) holds, and what it does not
STDIN_HOLDS = ("standard input holds the position itself (a JSON position, a one-line 'LC1;...' string or "
               "'example:NAME'), not a file name")


def read_position_text(text: str) -> Position | View:
    """The position a text holds as it is (what ``-`` reads from standard input): a JSON object,
    the one-line string or ``example:NAME``. A file's path there is refused, never followed: piped
    text is the position's, and a path in it (``printf /etc/passwd | lcanalysis show -``) would
    read a file the command line never named."""
    if not isinstance(text, str):
        raise PositionError(f"cannot read a position's text from {type(text).__name__}")
    return _read(text, from_file=False, text_only=True)


def read_view(source: Any, player: int | None = None) -> View:
    """What ``read_position`` reads, as one player's ``View``: a full position is seen by
    ``player`` (default: the player to move); a view is returned as it is (and must be
    ``player``'s, when one is named). A ``View`` object is checked again, as it may have been
    changed since it was made, and a fresh copy returned."""
    if player is not None:
        player = player_number(player, "player")
    obj = read_position(source)
    if isinstance(obj, Position):
        return obj.view(obj.to_move if player is None else player)
    if player is not None and obj.viewer != player:
        raise PositionError(f"this is player {obj.viewer}'s view, not player {player}'s")
    return _checked_view(obj) if isinstance(source, View) else obj


def mover_view(source: Any) -> View:
    """The view of the player to move, for the question "what should I play here?"."""
    view = read_view(source)
    if view.viewer != view.to_move and view.is_over():  # (not "say it is your turn": no turn is left)
        raise PositionError(f"the round is over ({view.over_reason()}): there is no turn to choose")
    if view.viewer != view.to_move:
        raise PositionError(f"this is player {view.viewer}'s view, but player {view.to_move} is to move: "
                            "only the player to move can be advised (if it is your turn, say so: "
                            f"m{view.viewer} in the one-line string, \"to_move\": {view.viewer} in JSON)")
    return view


def hint_view(source: Any) -> tuple[View, bool]:
    """The view the advice (``lcanalysis.advisor``) is for, and whether both hands are known. A full
    position is advised with both hands used: the opponent's whole hand counts as known, and only
    the order of the draw pile is sampled (as in the perfect-information value, where it is chance).
    Here, not in the advisor, so that ``advise`` reads its input before the engine is loaded."""
    obj = read_position(source)
    if isinstance(obj, Position):
        view = obj.view(obj.to_move)
        return replace(view, opponent_known=sorted(obj.hand(1 - obj.to_move))), True
    return mover_view(obj), False


def source_or_text(source: Any, ready: tuple[type, ...], from_mapping: Any, what: str,
                   error: type[Exception] = PositionError) -> tuple[Any, str | None]:
    """What every reader accepts: an object already read (``ready`` types), a JSON object
    (``from_mapping``), a path or text. Returns ``(object, None)`` or ``(None, text)``."""
    if isinstance(source, ready):
        return source, None
    if isinstance(source, Mapping):
        return from_mapping(source), None
    if isinstance(source, os.PathLike):
        source = os.fspath(source)
    if not isinstance(source, str):
        raise error(f"cannot read {what} from {type(source).__name__}")
    return None, source


def _checked_view(view: View) -> View:
    """A ``View`` object checked again, as a fresh copy: a view's fields are plain lists anyone can
    change after it was made (``view.hand.append(...)``), and a view that no longer adds up would
    otherwise be answered as if it did (a card twice, a draw pile of the wrong size). The table,
    the hands and the counts are checked as ``View.from_parts`` checks them; the history only
    move by move (the package's own views may hold a history that starts after the deal)."""
    try:
        checked = View.from_parts(
            view.hand, view.opponent_count, view.deck_count, opponent_known=view.opponent_known,
            expeditions=[[card for cards in view.expeditions[p] for card in cards] for p in range(2)],
            discards=[card for pile in view.discards for card in pile], rules=view.rules, viewer=view.viewer,
            to_move=view.to_move, phase=view.phase, blocked=view.blocked, match=view.match)
        history = parse_history(view.history, checked.colors, checked.rules.turn_cap)
    except PositionError as exc:
        raise PositionError(f"this View no longer adds up (was it changed after it was made?): {exc}") from None
    except Exception as exc:  # a field replaced by something that is no list of cards, no rule set, ...
        raise PositionError(f"this View no longer reads as one (was it changed after it was made?): "
                            f"{type(exc).__name__}: {exc}") from None
    return replace(checked, history=history)


def _read(source: Any, from_file: bool, text_only: bool = False) -> Position | View:
    done, source = source_or_text(source, (Position, View), from_json, "a position")
    if source is None:
        return done
    check_text_size(source, "the file" if from_file else "the input")
    text = source.strip().lstrip("\ufeff").lstrip()  # a byte-order mark is no part of the text
    if text[:len(STRING_TAG)].upper() == STRING_TAG:
        return from_json(string_to_json(text))
    if text[:len(RECORD_TAG)].upper() == RECORD_TAG:  # a record's text form, where a position was meant
        raise PositionError(f"this is a game record (the text form '{RECORD_TAG} ...'), not a position: {REVIEW_IT}")
    if not from_file and text.startswith(PREFIX):
        return read_position(example_text(text[len(PREFIX):]))
    if text.startswith("{"):
        return from_json(loads_json(text))
    if text.startswith("["):  # JSON, but not an object
        raise PositionError(f"{'the file' if from_file else 'the input'} holds a JSON list ({brief(text[:40])}), "
                            "not a position: a JSON position is an object, {\"hands\": ..., ...}")
    if text_only and (os.path.exists(text) or _looks_like_path(text)):
        raise PositionError(f"{STDIN_HOLDS}: got {brief(text[:40])}; give a file's path as the argument instead of '-'")
    if not from_file and os.path.exists(text):
        try:
            with open(text, encoding="utf-8") as fh:
                content = fh.read(MAX_TEXT_CHARS + 1)  # never more: a huge file or a device costs nothing
        except OSError as exc:
            raise PositionError(unreadable(text, exc)) from None
        except UnicodeDecodeError as exc:
            raise PositionError(f"cannot read {text}: it is not UTF-8 text (byte {exc.start}: {exc.reason})") from None
        if len(content) > MAX_TEXT_CHARS:
            raise PositionError(f"{text} is longer than {MAX_TEXT_CHARS:,} characters: a position is far shorter")
        if not content.strip():
            raise PositionError(f"{text} is empty")
        return _read(content, from_file=True)
    if from_file:  # a file's content is never followed as another path
        raise PositionError(f"the file's content {brief(text[:40])} is neither a JSON position "
                            "nor a one-line 'LC1;...' string")
    name = text.split(":", 1)[-1].strip().lower()  # 'midround', 'examples:midround': an example's name
    meant = f" (did you mean '{PREFIX}{name}'?)" if name in EXAMPLES else ""
    if ";" in text and "=" in text:  # the fields of a one-line string without its tag: 'c5;h8;...;d=37'
        tag = text.split(";", 1)[0].strip()
        meant = (f" (a one-line string starts with '{STRING_TAG};', not {brief(tag[:10] + ';')})"
                 if tag[:2].upper() == "LC"
                 else f" (a one-line string starts with '{STRING_TAG};': write '{STRING_TAG};' in front of it)")
    elif _looks_like_path(text):  # meant as a file
        raise PositionError(f"no such file: {text}")
    kinds = ("a JSON position, a one-line 'LC1;...' string nor 'example:NAME'" if text_only else
             "a JSON position, a one-line 'LC1;...' string, 'example:NAME' nor a file")
    raise PositionError(f"{brief(text[:40])} is neither {kinds}{meant}")


def _looks_like_path(text: str) -> bool:
    """Whether a text that is no position was meant as a file's path (a one-line string's fields
    without its tag, 'c5;h8;...;d=37', are not: its history may hold '/')."""
    return not (";" in text and "=" in text) and (
        os.sep in text or os.path.splitext(text)[1].lower() in (".json", ".txt", ".lc"))
