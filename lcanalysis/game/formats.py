"""Writing positions and views down: the JSON of docs/spec/interchange.md and the one-line
``LC1;...`` string (its fields are listed in ``notation``). Reading them back, with validation,
is ``notation``'s job; this module only writes, so ``Position`` and ``View`` can use it without
an import circle.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from lcanalysis.game.cards import COLOR_LETTERS, Card
from lcanalysis.game.rules import Rules

if TYPE_CHECKING:
    from lcanalysis.game.position import Position
    from lcanalysis.game.view import View

STRING_TAG = "LC1"
#: the first line of a game record's text form (``records.py``), named here so that the position reader
#: can tell a record given where a position was meant
RECORD_TAG = "LCR1"


def _cards(cards: Sequence[Card]) -> list[str]:
    return [str(c) for c in cards]


def _table_json(rules: Rules, to_move: int, expeditions: Any, discards: Any, phase: str,
                blocked: str | None, history: Sequence[Any], match: dict | None) -> dict[str, Any]:
    d: dict[str, Any] = {"rules": rules.to_dict(), "to_move": to_move}
    d["expeditions"] = [
        {COLOR_LETTERS[c]: _cards(cards) for c, cards in enumerate(expeditions[p]) if cards} for p in range(2)
    ]
    d["discards"] = {COLOR_LETTERS[c]: _cards(cards) for c, cards in enumerate(discards) if cards}
    if phase == "draw":
        d["phase"] = "draw"
        d["blocked"] = blocked
    if history:
        d["history"] = [str(m) for m in history]
    if match:
        d["match"] = match
    return d


def position_to_json(pos: Position) -> dict[str, Any]:
    nc = pos.colors
    d = _table_json(pos.rules, pos.to_move, [[pos.expedition(p, c) for c in range(nc)] for p in range(2)],
                    [pos.discard_pile(c) for c in range(nc)], pos.phase, pos.blocked, pos.history, pos.match)
    d["hands"] = [_cards(pos.hand(0)), _cards(pos.hand(1))]
    d["deck"] = _cards(pos.deck)
    return _ordered(d)


def view_to_json(view: View) -> dict[str, Any]:
    d = _table_json(view.rules, view.to_move, view.expeditions, view.discards, view.phase, view.blocked,
                    view.history, view.match)
    hands: list[Any] = [None, None]
    hands[view.viewer] = _cards(sorted(view.hand))
    hands[view.opponent] = {"known": _cards(sorted(view.opponent_known)), "count": view.opponent_count}
    d["hands"] = hands
    d["deck"] = view.deck_count
    d["viewer"] = view.viewer
    return _ordered(d)


def _ordered(d: dict[str, Any]) -> dict[str, Any]:
    order = ["rules", "to_move", "viewer", "phase", "blocked", "hands", "expeditions", "discards", "deck",
             "history", "match"]
    return {k: d[k] for k in order if k in d}


def json_to_string(d: Mapping[str, Any]) -> str:
    """The one-line string of a JSON position (full or view); canonical output."""
    rules = Rules.from_dict(d.get("rules", {}))
    parts = [STRING_TAG, f"c{rules.colors}", f"h{rules.hand_size}", "nr" if rules.no_redraw else "r"]
    if rules.rounds != Rules.rounds:
        parts.append(f"rounds={rules.rounds}")
    if rules.turn_cap != Rules.turn_cap:
        parts.append(f"cap={rules.turn_cap}")
    if rules.tied_start != Rules.tied_start:
        parts.append(f"tie={rules.tied_start}")
    parts.append(f"m{d['to_move']}")
    if "viewer" in d:
        parts.append(f"v{d['viewer']}")
    for p, hand in enumerate(d["hands"]):
        if isinstance(hand, Mapping):
            parts.append(f"p{p}=" + ".".join([f"?{hand['count']}"] + list(hand.get("known", []))))
        else:
            parts.append(f"p{p}=" + ".".join(hand))
    for p, per in enumerate(d.get("expeditions", [{}, {}])):
        cards = [c for lst in per.values() for c in lst]
        if cards:
            parts.append(f"e{p}=" + ".".join(cards))
    piles = [c for lst in d.get("discards", {}).values() for c in lst]
    if piles:
        parts.append("x=" + ".".join(piles))
    deck = d["deck"]
    parts.append("d=" + (str(deck) if isinstance(deck, int) else ".".join(deck)))
    if d.get("phase") == "draw":
        parts.append("draw=" + (d.get("blocked") or "-"))
    if d.get("history"):
        parts.append("hist=" + ".".join(d["history"]))
    if d.get("match"):
        m = d["match"]
        parts.append(f"match={m['round']}:{m['totals'][0]},{m['totals'][1]}")
    return ";".join(parts)


# --- one reader for every entry point -----------------------------------------------------


class Notated:
    """What a ``Position`` and a ``View`` share: they print as the one-line string, compare by
    their JSON, and draw themselves as text or SVG (the renderer is loaded on first use)."""

    def to_json(self) -> dict[str, Any]:
        raise NotImplementedError

    def to_string(self) -> str:
        """The one-line string (``LC1;...``, docs/spec/interchange.md); ``read_position`` reads it back."""
        return json_to_string(self.to_json())

    def __str__(self) -> str:
        return self.to_string()

    def __repr__(self) -> str:
        return f"read_position({self.to_string()!r})"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, type(self)) and self.to_json() == other.to_json()

    __hash__ = None  # type: ignore[assignment]  # mutable, compared by value

    _picture = ""  # "position" or "view": which drawing of show.render fits

    def to_text(self) -> str:
        """The table drawn as text (hands, expeditions, discard piles, the draw pile), for a terminal."""
        from lcanalysis.show import render  # pictures load lazily, from above

        return str(getattr(render, f"{self._picture}_text")(self))

    def _repr_svg_(self) -> str:
        from lcanalysis.show import render

        return str(getattr(render, f"{self._picture}_svg")(self))
