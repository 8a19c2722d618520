"""Pictures of cards, hands, positions, views and analyses: SVG for notebooks, text for terminals.

Modelled on python-chess's ``chess.svg``: no dependency beyond the standard library, every
function returns a plain string. The SVG functions return an ``SvgImage`` (a ``str``
subclass whose ``_repr_svg_`` is itself), so a notebook cell ending in
``position_svg(pos)`` draws the table, and ``Card``, ``Position`` and ``View`` draw
themselves. The SVGs are self-contained: no fonts, images or links beyond the SVG namespace.

The table is drawn as it lies: the player at the bottom (the player to move for a position,
the viewer for a view; choose with ``bottom=``) and the other player on top, each with a hand
and one expedition column per colour, the cards overlapped so every index shows. The
middle strip holds the discard piles (top card, pile size) with each expedition's current
score above and below, then the draw pile with its count. In a view the opponent's unknown
cards are face-down backs (``class="card back"``) and the cards known from discard piles are
face up.

``position_text`` and ``view_text`` draw the same table as plain text for ``lcanalysis show``.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any
from xml.sax.saxutils import escape

from lcanalysis.game.cards import COLOR_LETTERS, COLOR_NAMES, Card, CardError, brief, whole_number
from lcanalysis.game.rules import expedition_score
from lcanalysis.show.palette import BY_LETTER, LOOKS

if TYPE_CHECKING:
    from lcanalysis.analysis import Analysis
    from lcanalysis.game.position import Position
    from lcanalysis.game.view import View

__all__ = [
    "COLORS",
    "SvgImage",
    "analysis_svg",
    "card_svg",
    "expedition_svg",
    "hand_svg",
    "position_svg",
    "position_text",
    "view_svg",
    "view_text",
]

CardLike = Card | str | None


class SvgImage(str):
    """An SVG document as a ``str`` that Jupyter renders as a picture."""

    def _repr_svg_(self) -> SvgImage:
        return self


# --- look --------------------------------------------------------------------------

#: fill, outline, ink (text on the card) per colour, in COLOR_LETTERS order (``show.palette``)
COLORS: tuple[tuple[str, str, str], ...] = tuple((look.fill, look.edge, look.ink) for look in LOOKS)
FONT = "DejaVu Sans, Helvetica, Arial, sans-serif"
BACK_FILL = "#6b4a2f"
BACK_EDGE = "#3e2a19"
BOARD_FILL = "#efe8d8"
BOARD_EDGE = "#cdbf9f"
TEXT = "#2b2b2b"
MUTED = "#7a7263"
ACCENT = "#c0392b"

CW, CH = 40, 58  # card width, height
PITCH = 48  # expedition column pitch
SY = 16  # vertical step of an expedition stack
SX = 24  # horizontal step of a hand
MARGIN = 10
PANEL = 132  # width of the right-hand panel (player labels, deck)


def _card(c: CardLike, colors: int = 6) -> Card | None:
    if c is None or isinstance(c, Card):
        return c
    return Card.parse(str(c), colors)


def _index(card: Card) -> str:
    return "W" if card.is_wager else str(card.number)


def _card_group(card: Card | None, x: float, y: float, extra_class: str = "", covered: bool = False) -> str:
    """One card (``None``: a face-down back) with its top-left corner at (x, y). A ``covered``
    card (under another in a hand or stack) leaves out its centre so nothing peeks out."""
    cls = ("card back" if card is None else f"card {card}") + (f" {extra_class}" if extra_class else "")
    if card is None:
        return (
            f'<g class="{cls}" transform="translate({x:g},{y:g})"><title>unknown card</title>'
            f'<rect width="{CW}" height="{CH}" rx="4" fill="{BACK_FILL}" stroke="{BACK_EDGE}" stroke-width="1.2"/>'
            f'<rect x="4" y="4" width="{CW - 8}" height="{CH - 8}" rx="2" fill="none" stroke="#c9a46a" '
            f'stroke-width="1" stroke-dasharray="3 2"/>'
            + (
                ""
                if covered
                else f'<text x="{CW / 2:g}" y="{CH / 2 + 5:g}" text-anchor="middle" font-size="13" '
                f'font-weight="bold" fill="#c9a46a">LC</text>'
            )
            + "</g>"
        )
    fill, edge, ink = COLORS[card.color]
    edge_w = 1.6 if card.color == 2 else 1.2
    parts = [
        f'<g class="{cls}" transform="translate({x:g},{y:g})"><title>{card}</title>',
        f'<rect width="{CW}" height="{CH}" rx="4" fill="{fill}" stroke="{edge}" stroke-width="{edge_w}"/>',
        f'<text x="4" y="13" font-size="12" font-weight="bold" fill="{ink}">{_index(card)}</text>',
    ]
    if covered:
        pass
    elif card.is_wager:
        parts.append(_handshake(CW / 2, CH / 2 + 8, ink, fill))
    else:
        parts.append(
            f'<text x="{CW / 2:g}" y="{CH / 2 + 11:g}" text-anchor="middle" font-size="20" '
            f'font-weight="bold" fill="{ink}">{card.number}</text>'
        )
    parts.append("</g>")
    return "".join(parts)


def _handshake(cx: float, cy: float, ink: str, fill: str) -> str:
    """A small clasped-hands mark for wager cards: two sleeves meeting in a handshake."""
    fingers = "".join(
        f'<rect x="{x:g}" y="-6" width="3.6" height="9" rx="1.8" fill="{ink}" stroke="{fill}" stroke-width="0.9"/>'
        for x in (-6.5, -3.2, 0.1, 3.4)
    )
    return (
        f'<g class="handshake" transform="translate({cx:g},{cy:g})">'
        f'<path d="M-14,6 L-9,2 M14,6 L9,2" stroke="{ink}" stroke-width="7" stroke-linecap="round" fill="none"/>'
        f'<path d="M-11,-2 L-11,4 M11,-2 L11,4" stroke="{fill}" stroke-width="1.2"/>'
        f'<path d="M-10,-3 L5,-3 C9,-3 9,4 5,4 L-10,4 Z" fill="{ink}" stroke="{fill}" stroke-width="0.9"/>'
        f'<path d="M10,-1 C8,-6 3,-8 -1,-7" stroke="{ink}" stroke-width="3" stroke-linecap="round" fill="none"/>'
        + fingers
        + "</g>"
    )


def _svg(
    width: float,
    height: float,
    body: Iterable[str],
    title: str,
    size: int | None = None,
    cls: str = "lcanalysis",
) -> SvgImage:
    w, h = math.ceil(width), math.ceil(height)
    if size is not None:
        size = _checked_size(size)
        dims = f'width="{size}" height="{math.ceil(size * h / w)}"'
    else:
        dims = f'width="{w}" height="{h}"'
    return SvgImage(
        f'<svg xmlns="http://www.w3.org/2000/svg" class="{cls}" viewBox="0 0 {w} {h}" {dims} '
        f'font-family="{FONT}"><title>{escape(title)}</title>' + "".join(body) + "</svg>"
    )


def _checked_size(size: Any) -> int:
    """A picture's ``size`` (its width in pixels), refused by name when it is no whole number from 1
    (0 and -5 drew an SVG of no or negative width, "big" met Python's "unsupported operand")."""
    px = whole_number(size)
    if px is None or px < 1:
        raise ValueError(f"size must be a whole number of pixels, 1 or more (None: the picture's own size), "
                         f"got {brief(size)}")
    return px


def _text(
    x: float,
    y: float,
    s: str,
    size: float = 11,
    anchor: str = "start",
    fill: str = TEXT,
    weight: str = "normal",
    cls: str = "",
) -> str:
    c = f' class="{cls}"' if cls else ""
    w = f' font-weight="{weight}"' if weight != "normal" else ""
    return (
        f'<text{c} x="{x:g}" y="{y:g}" font-size="{size:g}" text-anchor="{anchor}" fill="{fill}"{w}>'
        f"{escape(s)}</text>"
    )


# --- small pictures -----------------------------------------------------------------


def card_svg(card: Card | str, size: int | None = None) -> SvgImage:
    """One card, face up (``Card._repr_svg_``)."""
    c = _card(card)
    if c is None:  # (a bare AssertionError)
        raise CardError("card_svg draws a card like 'R7', got None (hand_svg draws None as a face-down back)")
    return _svg(CW + 4, CH + 4, [_card_group(c, 2, 2)], str(c), size, "lcanalysis card")


def hand_svg(cards: Iterable[CardLike], size: int | None = None) -> SvgImage:
    """A hand as an overlapped row, in the order given (``None`` entries are face-down backs)."""
    if isinstance(cards, (str, bytes)) or not isinstance(cards, Iterable):  # (a string was read letter by letter)
        raise CardError(f"hand_svg draws a list of cards like ['R7', 'Gw'], got {brief(cards)}")
    cs = [_card(c) for c in cards]
    n = len(cs)
    width = (n - 1) * SX + CW + 4 if n else CW + 4
    body = [_card_group(c, 2 + i * SX, 2, covered=i < n - 1) for i, c in enumerate(cs)]
    if not n:
        body.append(_text(width / 2, CH / 2 + 4, "no cards", 10, "middle", MUTED))
    title = " ".join("??" if c is None else str(c) for c in cs) or "empty hand"
    return _svg(width, CH + 4, body, title, size, "lcanalysis hand")


def expedition_svg(cards: Iterable[Card | str], size: int | None = None) -> SvgImage:
    """One expedition as an overlapped column in the order placed, with its score below."""
    if isinstance(cards, (str, bytes)) or not isinstance(cards, Iterable):  # (Python's "not iterable")
        raise CardError(f"expedition_svg draws a list of cards like ['R2', 'R7'], got {brief(cards)}")
    cs = [c for c in (_card(x) for x in cards) if c is not None]
    n = len(cs)
    stack = (n - 1) * SY + CH if n else CH
    body = [_card_group(c, 2, 2 + i * SY) for i, c in enumerate(cs)]
    score = expedition_score(cs) if cs else 0
    body.append(
        _text(
            2 + CW / 2,
            stack + 16,
            _signed(score) if cs else "empty",
            11,
            "middle",
            TEXT if cs else MUTED,
            "bold",
            "score",
        )
    )
    title = " ".join(str(c) for c in cs) + f" ({_signed(score)})" if cs else "empty expedition"
    return _svg(CW + 4, stack + 22, body, title, size, "lcanalysis expedition")


# --- the table, from a Position or a View ----------------------------------------------------


@dataclass
class _Table:
    """What both the SVG and the text drawing show, read from a Position or a View."""

    colors: int
    bottom: int
    to_move: int
    hands: list[list[Card | None]]  # None = a card the picture's owner cannot see
    hand_labels: list[str]
    expeditions: list[list[list[Card]]]
    discards: list[list[Card]]
    deck_count: int
    phase: str
    blocked: str | None
    turn: int
    over: bool
    capped: bool
    notation: str
    names: list[str]
    short_names: list[str]
    last_move: str = ""
    last_placed: tuple[str, int] | None = None  # ("exp", colour) or ("pile", colour) of the last turn's card
    notes: list[str] = field(default_factory=list)

    def turn_text(self) -> str:
        """"turn N"; a table with cards on it but no history (a position typed without ``hist``)
        says its turn is unknown rather than "turn 0"."""
        on_table = any(e for side in self.expeditions for e in side) or any(self.discards)
        return f"turn {self.turn}" if self.turn or not on_table else "turn unknown (no history given)"

    def exp_score(self, p: int, c: int) -> int | None:
        cards = self.expeditions[p][c]
        return expedition_score(cards) if cards else None

    def score(self, p: int) -> int:
        return sum(expedition_score(cards) for cards in self.expeditions[p] if cards)

    @property
    def top(self) -> int:
        return 1 - self.bottom

    def status(self) -> str:
        if self.over:
            return "round over" + (" (turn cap)" if self.capped else "")
        step = "draw a card" if self.phase == "draw" else "place a card"
        s = f"{self.names[self.to_move]} to move: {step}"
        if self.phase == "draw" and self.blocked:
            s += f" (not from {self.blocked})"
        return s


def _match_note(match: dict[str, Any] | None, names: Sequence[str] = ("player 0", "player 1")) -> list[str]:
    if not match:
        return []
    parts = []
    if "round" in match:
        parts.append(f"round {match['round']}")
    if "totals" in match:
        parts.append(f"match totals {totals_text(match['totals'], names)}")
    return [", ".join(parts)] if parts else []


def seat_names(viewer: int) -> list[str]:
    """The seats as a player's view names them: "you (player 1)", "opponent (player 0)"."""
    return [f"you (player {p})" if p == viewer else f"opponent (player {p})" for p in range(2)]


def totals_text(totals: Sequence[int], names: Sequence[str] = ("player 0", "player 1")) -> str:
    """A match's running totals by seat ("player 0 -5, player 1 110": "-5-110" reads as a range); in a
    view, by the names its board uses ("opponent (player 0) -5, you (player 1) 110")."""
    return f"{names[0]} {totals[0]}, {names[1]} {totals[1]}"


def _last_placed(
    history: Sequence[Any],
    expeditions: Sequence[Sequence[list[Card]]],
    discards: Sequence[list[Card]],
    to_move: int,
) -> tuple[str, int] | None:
    """Where the card placed by the last whole turn lies, if it is still on top there."""
    if not history or history[-1].card is None:
        return None
    move = history[-1]
    card: Card = move.card
    if move.play:
        cards = expeditions[1 - to_move][card.color]
        return ("exp", card.color) if cards and cards[-1] == card else None
    pile = discards[card.color]
    return ("pile", card.color) if pile and pile[-1] == card else None


def _checked_table(obj: Any, kind: str, bottom: Any) -> int | None:
    """``bottom`` as 0, 1 or None once ``obj`` is what ``kind``'s drawings draw ("position": a full
    ``Position``, "view": a ``View``); else a ``PositionError`` naming the problem (they were an
    IndexError for ``bottom=2`` and an AttributeError or TypeError for the other kind or a string)."""
    from lcanalysis.game.position import Position, PositionError, player_number
    from lcanalysis.game.view import View

    want, other = (Position, "view") if kind == "position" else (View, "position")
    if not isinstance(obj, want):
        hint = (f": a {other} is drawn by {other}_svg or {other}_text" if isinstance(obj, (Position, View))
                else ": read one with read_position" if isinstance(obj, str) else "")
        raise PositionError(f"{kind}_svg and {kind}_text draw a {want.__name__}, got {type(obj).__name__}{hint}")
    return None if bottom is None else player_number(bottom, "bottom")


def _from_position(position: Position, bottom: int | None) -> _Table:
    bottom = _checked_table(position, "position", bottom)
    nc = position.colors
    b = position.to_move if bottom is None else bottom
    hands: list[list[Card | None]] = [list(position.hand(p)) for p in range(2)]
    return _Table(
        colors=nc,
        bottom=b,
        to_move=position.to_move,
        hands=hands,
        hand_labels=[f"{len(h)} cards" for h in hands],
        expeditions=[[position.expedition(p, c) for c in range(nc)] for p in range(2)],
        discards=[position.discard_pile(c) for c in range(nc)],
        deck_count=position.deck_count,
        phase=position.phase,
        blocked=position.blocked,
        turn=position.turn,
        over=position.is_over(),
        capped=position.is_capped(),
        notation=position.to_string(),
        names=["player 0", "player 1"],
        short_names=["player 0", "player 1"],
        last_move=str(position.history[-1]) if position.history else "",
        last_placed=_last_placed(
            position.history,
            [[position.expedition(p, c) for c in range(nc)] for p in range(2)],
            [position.discard_pile(c) for c in range(nc)],
            position.to_move,
        ),
        notes=_match_note(position.match),
    )


def _from_view(view: View, bottom: int | None) -> _Table:
    bottom = _checked_table(view, "view", bottom)
    nc = view.colors
    me, opp = view.viewer, 1 - view.viewer
    unknown = view.opponent_count - len(view.opponent_known)
    hands: list[list[Card | None]] = [[], []]
    hands[me] = list(view.hand)
    hands[opp] = [None] * unknown + sorted(view.opponent_known)
    labels = ["", ""]
    labels[me] = f"{len(view.hand)} cards"
    labels[opp] = f"{view.opponent_count} cards, {len(view.opponent_known)} known"
    names = seat_names(me)
    return _Table(
        colors=nc,
        bottom=me if bottom is None else bottom,
        to_move=view.to_move,
        hands=hands,
        hand_labels=labels,
        expeditions=[[list(view.expeditions[p][c]) for c in range(nc)] for p in range(2)],
        discards=[list(pile) for pile in view.discards],
        deck_count=view.deck_count,
        phase=view.phase,
        blocked=view.blocked,
        turn=len(view.history),
        over=view.is_over(),  # (the turn cap too: it read "to move: place a card" with no turn left)
        capped=view.is_over() and view.deck_count > 0,
        notation=view.to_string(),
        names=names,
        short_names=[f"you (P{p})" if p == me else f"opponent (P{p})" for p in range(2)],
        last_move=str(view.history[-1]) if view.history else "",
        last_placed=_last_placed(view.history, view.expeditions, view.discards, view.to_move),
        notes=_match_note(view.match, names) + [f"unseen cards: {int(view.unseen_counts().sum())}"],
    )


def _last_mark(x: float, y: float, move: str) -> str:
    """A gold outline around the card the last turn placed."""
    return (
        f'<rect class="last-move" x="{x - 2.5:g}" y="{y - 2.5:g}" width="{CW + 5}" height="{CH + 5}" rx="6" '
        f'fill="none" stroke="#f0a500" stroke-width="2.5"><title>last turn: {escape(move)}</title></rect>'
    )


def _table_svg(t: _Table, size: int | None) -> SvgImage:
    nc = t.colors
    top, bot = t.top, t.bottom
    cols_w = nc * PITCH - (PITCH - CW)
    board_x = MARGIN
    panel_x = board_x + cols_w + 14
    width = panel_x + PANEL

    def stack_h(p: int) -> int:
        longest = max((len(e) for e in t.expeditions[p]), default=0)
        return (longest - 1) * SY + CH if longest else CH // 2

    hand_w = max(len(h) for h in t.hands)
    hand_rows_w = (hand_w - 1) * SX + CW if hand_w else CW
    # widen when a hand is longer than the board columns
    width = max(width, board_x + hand_rows_w + 14 + PANEL)

    y = MARGIN
    top_hand_y = y
    y += CH + 10
    top_stack_y = y
    y += stack_h(top) + 6
    mid_y = y
    mid_h = 16 + CH + 18
    y += mid_h + 6
    bot_stack_y = y
    y += stack_h(bot) + 10
    bot_hand_y = y
    height = y + CH + MARGIN

    body: list[str] = []
    body.append(f'<rect width="{width}" height="{height}" fill="#fbf9f4"/>')
    # middle strip (the board)
    body.append(
        f'<rect class="board" x="{board_x - 5}" y="{mid_y}" width="{width - 2 * board_x + 10}" '
        f'height="{mid_h}" rx="6" fill="{BOARD_FILL}" stroke="{BOARD_EDGE}"/>'
    )

    for c in range(nc):
        x = board_x + c * PITCH
        fill, edge, _ = COLORS[c]
        # expedition columns
        st = t.expeditions[top][c]
        base = top_stack_y + stack_h(top) - ((len(st) - 1) * SY + CH) if st else 0
        for i, card in enumerate(st):
            body.append(_card_group(card, x, base + i * SY))
        for i, card in enumerate(t.expeditions[bot][c]):
            body.append(_card_group(card, x, bot_stack_y + i * SY))
        if t.last_placed == ("exp", c):
            p = 1 - t.to_move
            n = len(t.expeditions[p][c])
            body.append(_last_mark(x, (base if p == top else bot_stack_y) + (n - 1) * SY, t.last_move))
        # expedition scores around the discard slot
        for p, yy in ((top, mid_y + 12), (bot, mid_y + mid_h - 5)):
            s = t.exp_score(p, c)
            if s is not None:
                body.append(
                    _text(
                        x + CW / 2,
                        yy,
                        _signed(s),
                        10.5,
                        "middle",
                        ACCENT if s < 0 else TEXT,
                        "bold",
                        "exp-score",
                    )
                )
        # discard pile
        pile = t.discards[c]
        py = mid_y + 16
        if pile:
            for k in range(min(len(pile) - 1, 2), 0, -1):
                body.append(
                    f'<rect x="{x + 2 * k}" y="{py - 2 * k}" width="{CW}" height="{CH}" rx="4" '
                    f'fill="{fill}" stroke="{edge}" stroke-width="1" opacity="0.55"/>'
                )
            body.append(_card_group(pile[-1], x, py, "discard"))
            if t.last_placed == ("pile", c):
                body.append(_last_mark(x, py, t.last_move))
            body.append(
                f'<g class="pile-count"><title>{len(pile)} card(s) in the {COLOR_NAMES[c]} discard pile'
                f'</title><circle cx="{x + CW - 3}" cy="{py + CH - 3}" r="7.5" fill="#333" '
                f'stroke="#fff" stroke-width="1"/>'
                + _text(x + CW - 3, py + CH + 0.8, str(len(pile)), 9.5, "middle", "#fff", "bold")
                + "</g>"
            )
        else:
            body.append(
                f'<g class="pile empty"><title>empty {COLOR_NAMES[c]} discard pile</title>'
                f'<rect x="{x}" y="{py}" width="{CW}" height="{CH}" rx="4" fill="{fill}" fill-opacity="0.18" '
                f'stroke="{edge}" stroke-opacity="0.6" stroke-dasharray="4 3"/>'
                + _text(x + CW / 2, py + CH / 2 + 5, COLOR_LETTERS[c], 14, "middle", edge, "bold")
                + "</g>"
            )
        if t.phase == "draw" and t.blocked == COLOR_LETTERS[c]:
            bx, by = x + CW - 4, py + 4
            body.append(
                f'<g class="blocked"><title>just discarded onto: may not be drawn back this turn</title>'
                f'<rect x="{x - 2}" y="{py - 2}" width="{CW + 4}" height="{CH + 4}" rx="5" fill="none" '
                f'stroke="{ACCENT}" stroke-width="2.5"/>'
                f'<circle cx="{bx}" cy="{by}" r="7" fill="#fff" stroke="{ACCENT}" stroke-width="2.2"/>'
                f'<path d="M{bx - 4.5},{by + 4.5} L{bx + 4.5},{by - 4.5}" stroke="{ACCENT}" '
                f'stroke-width="2.2"/></g>'
            )

    # draw pile
    dx, dy = panel_x + 6, mid_y + 16
    if t.deck_count:
        for k in (2, 1):
            body.append(
                f'<rect x="{dx + 2 * k}" y="{dy - 2 * k}" width="{CW}" height="{CH}" rx="4" '
                f'fill="{BACK_FILL}" stroke="{BACK_EDGE}" opacity="0.6"/>'
            )
        body.append(
            f'<g class="deck"><title>{t.deck_count} card(s) in the draw pile</title>'
            f'<rect x="{dx}" y="{dy}" width="{CW}" height="{CH}" rx="4" fill="{BACK_FILL}" '
            f'stroke="{BACK_EDGE}" stroke-width="1.2"/>'
            + _text(
                dx + CW / 2, dy + CH / 2 + 6, str(t.deck_count), 17, "middle", "#fff", "bold", "deck-count"
            )
            + "</g>"
        )
    else:
        body.append(
            f'<g class="deck empty"><title>the draw pile is empty</title>'
            f'<rect x="{dx}" y="{dy}" width="{CW}" height="{CH}" rx="4" fill="none" stroke="{MUTED}" '
            f'stroke-dasharray="4 3"/>'
            + _text(dx + CW / 2, dy + CH / 2 + 5, "0", 15, "middle", MUTED, "bold", "deck-count")
            + "</g>"
        )
    ix = dx + CW + 10
    info = ["draw pile", t.turn_text()]
    if t.last_move:
        info.append(f"last {t.last_move}")
    if t.phase == "draw" and not t.over:
        info.append("draw step")
    for i, line in enumerate(info):
        body.append(_text(ix, dy + 10 + i * 13, line, 10, "start", ACCENT if line == "draw step" else MUTED))
    if t.over:
        body.append(_text(ix, dy + 10 + len(info) * 13, "round over", 10, "start", ACCENT, "bold"))

    # hands and player labels
    for p, hy in ((top, top_hand_y), (bot, bot_hand_y)):
        hand = t.hands[p]
        for i, held in enumerate(hand):
            body.append(_card_group(held, board_x + i * SX, hy, "hand", covered=i < len(hand) - 1))
        lx = max(panel_x, board_x + hand_rows_w + 14)
        mover = p == t.to_move and not t.over
        if mover:
            body.append(
                f'<rect class="to-move" x="{lx - 16}" y="{hy + 1}" width="{width - lx + 8}" height="{CH - 2}" '
                f'rx="5" fill="#fff4d6" stroke="#e0b84a"/>'
            )
        body.append(_text(lx, hy + 14, t.short_names[p], 11, "start", TEXT, "bold"))
        body.append(
            _text(
                lx,
                hy + 31,
                f"score {_signed(t.score(p))}",
                12,
                "start",
                ACCENT if t.score(p) < 0 else TEXT,
                "bold",
                "score",
            )
        )
        if mover:
            body.append(
                _text(
                    lx,
                    hy + 46,
                    "to move" if t.phase == "place" else "to draw",
                    10,
                    "start",
                    "#9a6b00",
                    "bold",
                    "to-move-label",
                )
            )
        else:
            body.append(_text(lx, hy + 46, t.hand_labels[p], 9.5, "start", MUTED))
        if mover:
            body.append(
                f'<path class="to-move-mark" d="M{lx - 13},{hy + 6} L{lx - 7},{hy + 10} L{lx - 13},{hy + 14} Z" '
                f'fill="#c08a00"><title>{escape(t.status())}</title></path>'
            )
    return _svg(width, height, body, t.notation, size, "lcanalysis board")


def position_svg(position: Position, bottom: int | None = None, size: int | None = None) -> SvgImage:
    """The whole table of a full position, both hands face up.

    ``bottom`` is the player drawn at the bottom (default: the player to move);
    ``size`` sets the picture's width in pixels (default: natural size).
    """
    return _table_svg(_from_position(position, bottom), size)


def view_svg(view: View, bottom: int | None = None, size: int | None = None) -> SvgImage:
    """The table as one player knows it: the viewer at the bottom (by default), the opponent's
    unknown cards as face-down backs (``class="card back"``), known ones face up."""
    return _table_svg(_from_view(view, bottom), size)


# --- text ---------------------------------------------------------------------------------


def _cards_str(cards: Sequence[Card | None]) -> str:
    return " ".join("??" if c is None else str(c) for c in cards)


def _table_text(t: _Table) -> str:
    nc = t.colors
    top, bot = t.top, t.bottom
    cols = [
        [_cards_str(t.expeditions[bot][c]) for c in range(nc)],
        [_fmt_score(t.exp_score(bot, c)) for c in range(nc)],
        [_cards_str(t.discards[c]) for c in range(nc)],
        [_cards_str(t.expeditions[top][c]) for c in range(nc)],
        [_fmt_score(t.exp_score(top, c)) for c in range(nc)],
    ]
    heads = [t.names[bot], "pts", "discards (top last)", t.names[top], "pts"]
    widths = [max(len(heads[i]), *(len(s) for s in cols[i])) for i in range(5)]
    right = {1, 4}

    def row(label: str, cells: Sequence[str]) -> str:
        out = [f"{label:<10}"]
        for i, s in enumerate(cells):
            out.append(s.rjust(widths[i]) if i in right else s.ljust(widths[i]))
        return (out[0] + " | ".join([out[1] + " " + out[2], out[3], out[4] + " " + out[5]])).rstrip()

    lines = [f"Lost Cities, {nc} colours, {t.turn_text()}: {t.status()}"]
    lines.extend(t.notes)
    lines.append(row("", heads))
    lines.append("-" * len(row("", [("-" * w) for w in widths])))
    for c in range(nc):
        lines.append(row(f"{COLOR_LETTERS[c]} {COLOR_NAMES[c]:<6}", [cols[i][c] for i in range(5)]))
    lines.append("-" * len(lines[-1 - nc]))
    lines.append(row("score", ["", _signed(t.score(bot)), "", "", _signed(t.score(top))]))
    lines.append("")
    for p in (bot, top):
        lines.append(f"hand of {t.names[p]}: {_cards_str(t.hands[p]) or '-'} ({t.hand_labels[p]})")
    deck = f"draw pile: {t.deck_count} card(s)"
    if t.last_move:
        deck += f"; last turn {t.last_move}"
    lines.append(deck)
    lines.append(f"round score: {t.names[0]} {_signed(t.score(0))}, {t.names[1]} {_signed(t.score(1))}")
    lines.append(t.notation)
    return "\n".join(lines)


def _fmt_score(s: int | None) -> str:
    return "" if s is None else _signed(s)


def _signed(s: int) -> str:
    """A score with its sign: +12, -40, 0."""
    return f"{s:+d}" if s else "0"


def position_text(position: Position, bottom: int | None = None, you: int | None = None) -> str:
    """A plain-text drawing of a full position (``lcanalysis show``): one row per colour with
    both expeditions and their scores and the discard pile, then hands, draw pile, scores and
    the one-line string. ``you``: the seat to name "you" and draw at the bottom (unless ``bottom``),
    the other "opponent", as a view of that seat names them: the board of a round that is over,
    every card face up (``lcanalysis play``)."""
    from lcanalysis.game.position import player_number

    seat = None if you is None else player_number(you, "you")
    table = _from_position(position, seat if bottom is None else bottom)
    if seat is not None:
        names = seat_names(seat)
        table.names, table.notes = names, _match_note(position.match, names)
        table.short_names = [name.replace("player ", "P") for name in names]  # "you (P1)", as a view's
    return _table_text(table)


def view_text(view: View, bottom: int | None = None) -> str:
    """A plain-text drawing of a player's view; the opponent's unknown cards print as ``??``."""
    return _table_text(_from_view(view, bottom))


# --- analyses --------------------------------------------------------------------------------


def analysis_svg(analysis: Analysis, limit: int | None = 20, size: int | None = None) -> SvgImage:
    """A bar chart of the turns' values, best first, with error bars of one standard error; the
    first ``limit`` turns (None: all)."""
    from lcanalysis.analysis import Analysis

    if not isinstance(analysis, Analysis):  # (else "'NoneType' object has no attribute 'moves'")
        raise ValueError(f"analysis_svg draws an Analysis (what solve and advise answer), got {brief(analysis)}")
    if limit is not None:  # as Analysis.to_text checks it (0 drew every turn, 'a' met "slice indices must be")
        whole = whole_number(limit)
        if whole is None or whole < 1:
            raise ValueError(f"limit must be a whole number of turns, 1 or more (None: all), got {brief(limit)}")
        limit = whole
    moves = analysis.moves[:limit] if limit else list(analysis.moves)
    row_h, label_w, bar_w, value_w = 18, 62, 280, 84
    top_y = 30
    width = MARGIN + label_w + bar_w + value_w + MARGIN
    height = top_y + max(1, len(moves)) * row_h + 26
    lows = [m.value - (0 if m.exact else m.stderr) for m in moves] + [0.0]
    highs = [m.value + (0 if m.exact else m.stderr) for m in moves] + [0.0]
    lo, hi = min(lows), max(highs)
    if hi - lo < 1e-9:
        lo, hi = lo - 1, hi + 1
    x0 = MARGIN + label_w

    def sx(v: float) -> float:
        return x0 + (v - lo) / (hi - lo) * bar_w

    head = f"{analysis.kind} ({'exact' if analysis.exact else 'estimate'})"
    body = [
        f'<rect width="{width}" height="{height}" fill="#ffffff"/>',
        _text(MARGIN, 16, head, 11.5, "start", TEXT, "bold"),
    ]
    if analysis.bounds:
        body.append(
            _text(
                width - MARGIN,
                16,
                ", ".join(f"{k}={v}" for k, v in analysis.bounds.items()),
                10,
                "end",
                MUTED,
            )
        )
    zx = sx(0.0)
    best = analysis.value
    for i, m in enumerate(moves):
        y = top_y + i * row_h
        x1, x2 = sorted((zx, sx(m.value)))
        is_best = abs(m.value - best) < 1e-12
        # the best green, a turn that still wins blue, one that loses red: the palette's, apart for colour-blind eyes
        color = BY_LETTER["G" if is_best else "B" if m.value >= 0 else "R"].fill
        body.append(f'<g class="move"><title>{escape(m.describe())}</title>')
        body.append(_text(x0 - 6, y + 12.5, m.move, 11, "end", TEXT, "bold" if is_best else "normal"))
        body.append(
            f'<rect x="{x1:.2f}" y="{y + 3}" width="{max(x2 - x1, 1):.2f}" height="{row_h - 6}" '
            f'fill="{color}" opacity="0.85"/>'
        )
        if not m.exact and m.stderr > 0:
            a, b = sx(m.value - m.stderr), sx(m.value + m.stderr)
            cy = y + row_h / 2
            body.append(
                f'<path class="errorbar" d="M{a:.2f},{cy} L{b:.2f},{cy} M{a:.2f},{cy - 4} L{a:.2f},{cy + 4} '
                f'M{b:.2f},{cy - 4} L{b:.2f},{cy + 4}" stroke="#222" stroke-width="1.2" fill="none"/>'
            )
        err = f" ±{m.stderr:.2f}" if not m.exact and (m.stderr > 0 or not m.reason) else ""
        body.append(_text(x0 + bar_w + 6, y + 12.5, f"{m.value:+.2f}{err}", 10.5, "start", TEXT))
        body.append("</g>")
    if not moves:
        body.append(_text(width / 2, top_y + 12, "no legal turn", 11, "middle", MUTED))
    axis_y = top_y + max(1, len(moves)) * row_h
    body.append(f'<path d="M{zx:.2f},{top_y - 2} L{zx:.2f},{axis_y + 2}" stroke="#555" stroke-width="1"/>')
    for v in _ticks(lo, hi):
        body.append(f'<path d="M{sx(v):.2f},{axis_y} L{sx(v):.2f},{axis_y + 4}" stroke="#555"/>')
        body.append(_text(sx(v), axis_y + 15, f"{v:g}", 9.5, "middle", MUTED))
    if analysis.exact:
        note = ""
    elif analysis.kind == "depth-limited estimate" and not any(m.stderr > 0 for m in moves):
        note = "heuristic leaf: estimates without a standard error"
    else:
        note = "error bars: ±1 standard error"
    if note:
        body.append(_text(width - MARGIN, axis_y + 15, note, 9, "end", MUTED))
    return _svg(width, height, body, analysis.to_text(limit or None), size, "lcanalysis analysis")


def _ticks(lo: float, hi: float, n: int = 5) -> list[float]:
    span = hi - lo
    raw = span / n
    mag = 10 ** math.floor(math.log10(raw))
    step = min((s * mag for s in (1, 2, 2.5, 5, 10) if s * mag >= raw), default=raw)
    first = math.ceil(lo / step) * step
    out = []
    v = first
    while v <= hi + 1e-9:
        out.append(round(v, 10))
        v += step
    return out
