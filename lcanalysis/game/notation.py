"""Writing positions down and reading them back: the JSON format of docs/spec/interchange.md, the
one-line position string, game records, and the validation every entry point shares.

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
"""

from __future__ import annotations

import json
import os
from collections.abc import Mapping, Sequence
from typing import Any

from lcanalysis.game.cards import COLOR_LETTERS, COLOR_NAMES, Card
from lcanalysis.game.examples import PREFIX, example_text
from lcanalysis.game.formats import STRING_TAG, position_to_json
from lcanalysis.game.position import (
    Position,
    PositionError,
    as_cards,
)
from lcanalysis.game.rules import Rules, RulesError
from lcanalysis.game.view import View

JSON_KEYS = {"rules", "to_move", "hands", "expeditions", "discards", "deck", "phase", "blocked",
             "viewer", "history", "match"}


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
            for card in as_cards(_card_list(lst, f"expedition {letter} of player {p}"), nc,
                                  f"expedition {letter} of player {p}"):
                if card.color_letter != letter.upper():
                    raise PositionError(f"expedition {letter.upper()} of player {p} holds {card} of another colour")
                cards.append(card)
        out.append(cards)
    return out


def _discard_list(data: Any, nc: int) -> list[Card]:
    if data is None:
        return []
    if not isinstance(data, Mapping):
        raise PositionError("discards must be an object colour -> cards, like {\"G\": [\"G6\"]}")
    cards = []
    for letter, lst in data.items():
        _check_color_key(letter, nc, "discards")
        for card in as_cards(_card_list(lst, f"discard pile {letter}"), nc, f"discard pile {letter}"):
            if card.color_letter != letter.upper():
                raise PositionError(f"discard pile {letter.upper()} holds {card} of another colour")
            cards.append(card)
    return cards


def _check_color_key(letter: Any, nc: int, where: str) -> None:
    if not isinstance(letter, str) or len(letter) != 1 or letter.upper() not in COLOR_LETTERS[:nc]:
        raise PositionError(f"{where}: {letter!r} is not a colour of the {nc}-colour game; the colour letters "
                            f"are {' '.join(COLOR_LETTERS[:nc])} ({', '.join(COLOR_NAMES[:nc])})")


def _card_list(lst: Any, where: str) -> list[Any]:
    if not isinstance(lst, list):
        raise PositionError(f"{where} must be a list of cards, got {type(lst).__name__}")
    return lst


def _int_field(d: Mapping[str, Any], key: str, default: Any, allowed: Sequence[int] | None = None) -> Any:
    v = d.get(key, default)
    if v is None:
        return v
    if isinstance(v, bool) or not isinstance(v, int) or (allowed is not None and v not in allowed):
        want = f" one of {list(allowed)}" if allowed is not None else " a whole number"
        raise PositionError(f"{key} must be{want}, got {v!r}")
    return v


def _match_field(m: Any) -> dict[str, Any] | None:
    if m is None:
        return None
    if not isinstance(m, Mapping) or set(m) - {"round", "totals"}:
        raise PositionError("match must be an object {\"round\": n, \"totals\": [a, b]}")
    r = m.get("round", 1)
    totals = m.get("totals", [0, 0])
    if isinstance(r, bool) or not isinstance(r, int) or r < 1:
        raise PositionError(f"match round must be a whole number >= 1, got {r!r}")
    if (not isinstance(totals, list) or len(totals) != 2
            or any(isinstance(t, bool) or not isinstance(t, int) for t in totals)):
        raise PositionError(f"match totals must be two whole numbers, got {totals!r}")
    return {"round": r, "totals": list(totals)}


def from_json(data: Mapping[str, Any]) -> Position | View:
    """A ``Position`` (both hands and the deck as lists) or a ``View`` (the opponent's hand as
    ``{"known": [...], "count": n}`` and the deck as a number). Raises ``PositionError``."""
    if not isinstance(data, Mapping):
        raise PositionError(f"a position must be a JSON object, got {type(data).__name__}")
    unknown = set(data) - JSON_KEYS
    if unknown:
        raise PositionError(f"unknown key(s) {sorted(unknown)}; a position has {sorted(JSON_KEYS)}")
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
    exps = _expedition_lists(data.get("expeditions"), nc)
    discards = _discard_list(data.get("discards"), nc)
    history = data.get("history", [])
    if not isinstance(history, list):
        raise PositionError("history must be a list of moves")
    match = _match_field(data.get("match"))
    deck = data["deck"]
    is_view = not isinstance(deck, list) or any(isinstance(h, Mapping) for h in hands)
    if not is_view:
        if "viewer" in data:
            raise PositionError("viewer belongs to a view: give the opponent's hand as {\"known\", \"count\"} "
                                "and the deck as a number")
        for p in range(2):
            _card_list(hands[p], f"hand of player {p}")
        return Position.from_parts(hands, exps, discards, deck, rules=rules, to_move=to_move, phase=phase,
                                   blocked=blocked, history=history, match=match)
    viewer = _int_field(data, "viewer", to_move, (0, 1))
    if isinstance(deck, bool) or not isinstance(deck, int):
        raise PositionError("in a view the deck is a number (cards left in the draw pile); "
                            "in a full position both hands and the deck are lists")
    own = hands[viewer]
    if not isinstance(own, list):
        hint = ""
        if "viewer" not in data and isinstance(hands[1 - viewer], list):
            hint = (f"; this view belongs to player {viewer} because player {viewer} is to move: if you are "
                    f"player {1 - viewer}, say so with \"viewer\": {1 - viewer} (in the one-line string: "
                    f"v{1 - viewer})")
        raise PositionError(f"hand of player {viewer} (the viewer) must be a list of cards{hint}")
    opp = hands[1 - viewer]
    if isinstance(opp, list):
        known, count = opp, len(opp)
    elif isinstance(opp, Mapping):
        if set(opp) - {"known", "count"} or "count" not in opp:
            raise PositionError(f"hand of player {1 - viewer} must be {{\"known\": [cards], \"count\": n}}")
        known, count = opp.get("known", []), opp["count"]
        _card_list(known, f"known cards of player {1 - viewer}")
    else:
        raise PositionError(f"hand of player {1 - viewer} must be a list or {{\"known\", \"count\"}}")
    return View.from_parts(own, opponent_count=count, deck_count=deck, opponent_known=known, expeditions=exps,
                      discards=discards, rules=rules, viewer=viewer, to_move=to_move, phase=phase,
                      blocked=blocked, history=history, match=match)


# --- the one-line string ----------------------------------------------------------------


def _split_cards(text: str) -> list[str]:
    return [c for c in text.split(".") if c]


def string_to_json(text: str) -> dict[str, Any]:
    """Parse the one-line string into the JSON object it stands for (then validated by ``from_json``)."""
    fields = [f.strip() for f in text.strip().split(";") if f.strip()]
    if not fields or fields[0].upper() != STRING_TAG:
        raise PositionError(f"a position string starts with '{STRING_TAG};', got {text[:20]!r}")
    rules: dict[str, Any] = {}
    d: dict[str, Any] = {}
    hands: list[Any] = [None, None]
    exps: list[dict[str, list[str]]] = [{}, {}]
    discards: dict[str, list[str]] = {}
    for f in fields[1:]:
        key, sep, val = f.partition("=")
        k = key.lower()
        try:
            if not sep and k in ("nr", "r"):
                rules["no_redraw"] = k == "nr"
            elif not sep and k[0] in "chmv" and k[1:].isdigit():
                target, name = {"c": (rules, "colors"), "h": (rules, "hand_size"),
                                "m": (d, "to_move"), "v": (d, "viewer")}[k[0]]
                target[name] = int(k[1:])
            elif k == "rounds":
                rules["rounds"] = int(val)
            elif k == "cap":
                rules["turn_cap"] = int(val)
            elif k == "tie":
                rules["tied_start"] = val
            elif k in ("p0", "p1"):
                cards = _split_cards(val)
                if cards and cards[0].startswith("?"):
                    hands[int(k[1])] = {"known": cards[1:],
                                        "count": int(cards[0][1:])}
                else:
                    hands[int(k[1])] = cards
            elif k in ("e0", "e1"):
                for c in _split_cards(val):
                    exps[int(k[1])].setdefault(c[0].upper(), []).append(c)
            elif k == "x":
                for c in _split_cards(val):
                    discards.setdefault(c[0].upper(), []).append(c)
            elif k == "d":
                d["deck"] = int(val) if val.strip().isdigit() else _split_cards(val)
            elif k == "draw":
                d["phase"] = "draw"
                d["blocked"] = None if val in ("-", "") else val.upper()
            elif k == "hist":
                d["history"] = _split_cards(val)
            elif k == "match":
                r, _colon, tot = val.partition(":")
                a, b = tot.split(",")
                d["match"] = {"round": int(r), "totals": [int(a), int(b)]}
            else:
                raise PositionError(f"position string: unknown field {f!r}")
        except (ValueError, IndexError) as exc:
            if isinstance(exc, PositionError):
                raise
            raise PositionError(f"position string: cannot read field {f!r}") from None
    if hands[0] is None or hands[1] is None:
        raise PositionError("position string: both hands p0= and p1= are needed")
    if "deck" not in d:
        raise PositionError("position string: the draw pile d= is missing")
    if "to_move" not in d:
        raise PositionError("position string: the player to move (m0 or m1) is missing")
    d["rules"] = rules
    d["hands"] = hands
    d["expeditions"] = exps
    d["discards"] = discards
    return d


def read_position(source: str | os.PathLike | Mapping[str, Any] | Position | View) -> Position | View:
    """A position or view from a JSON object, a JSON text, the one-line string, a path to a
    JSON file, or ``example:NAME`` for a built-in example (``lcanalysis.game.examples``).
    This is the one place every entry point reads positions. Raises ``PositionError`` naming
    the problem."""
    return _read(source, from_file=False)


def read_view(source: Any, player: int | None = None) -> View:
    """What ``read_position`` reads, as one player's ``View``: a full position is seen by
    ``player`` (default: the player to move); a view is returned as it is (and must be
    ``player``'s, when one is named)."""
    obj = read_position(source)
    if isinstance(obj, Position):
        return obj.view(obj.to_move if player is None else player)
    if player is not None and obj.viewer != player:
        raise PositionError(f"this is player {obj.viewer}'s view, not player {player}'s")
    return obj


def mover_view(source: Any) -> View:
    """The view of the player to move, for the question "what should I play here?"."""
    view = read_view(source)
    if view.viewer != view.to_move:
        raise PositionError(f"this is player {view.viewer}'s view, but player {view.to_move} is to move: "
                            "only the player to move can be advised")
    return view


def _read(source: Any, from_file: bool) -> Position | View:
    if isinstance(source, (Position, View)):
        return source
    if isinstance(source, Mapping):
        return from_json(source)
    if isinstance(source, os.PathLike):
        source = os.fspath(source)
    if not isinstance(source, str):
        raise PositionError(f"cannot read a position from {type(source).__name__}")
    text = source.strip()
    if text.upper().startswith(STRING_TAG):
        return from_json(string_to_json(text))
    if not from_file and text.startswith(PREFIX):
        return read_position(example_text(text[len(PREFIX):]))
    if text.startswith("{"):
        try:
            data = json.loads(text)
        except json.JSONDecodeError as exc:
            raise PositionError(f"invalid JSON: {exc}") from None
        return from_json(data)
    if not from_file and os.path.exists(text):
        try:
            with open(text, encoding="utf-8") as fh:
                content = fh.read()
        except OSError as exc:
            raise PositionError(f"cannot read {text}: {exc}") from None
        if not content.strip():
            raise PositionError(f"{text} is empty")
        return _read(content.lstrip("\ufeff"), from_file=True)
    if from_file:  # a file's content is never followed as another path
        raise PositionError(f"the file's content {text[:40]!r} is neither a JSON position "
                            "nor a one-line 'LC1;...' string")
    raise PositionError(f"{text[:40]!r} is neither a JSON position, a one-line 'LC1;...' string, "
                        f"'example:NAME' nor a file")





# --- game records ---------------------------------------------------------------------------


def game_record(start: Position, moves: Sequence[Any]) -> dict[str, Any]:
    """A round as its deal (a full position) and the turns played, oldest first."""
    return {"start": position_to_json(start), "moves": [str(m) for m in moves]}


def replay(record: Mapping[str, Any]) -> Position:
    """Play a game record from its start; each move is checked against the rules."""
    if not isinstance(record, Mapping) or "start" not in record or "moves" not in record:
        raise PositionError("a game record is {\"start\": POSITION, \"moves\": [...]}")
    pos = from_json(record["start"])
    if not isinstance(pos, Position):
        raise PositionError("a game record starts from a full position, not a view")
    for i, m in enumerate(record["moves"]):
        reason = pos.why_illegal(m)
        if reason:
            raise PositionError(f"record move {i + 1} ({m}): {reason}")
        pos.push(m)
    return pos
