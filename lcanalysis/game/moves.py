"""Turns in the notation of docs/spec/interchange.md (``+R7/D``, ``-Bw/G``, ``/D``) and their kernel codes."""

from __future__ import annotations

from dataclasses import dataclass

from lcanalysis.game.cards import (
    COLOR_LETTERS,
    RANKS_PER_COLOR,
    Card,
    CardError,
    brief,
    color_index,
    sixth_colour_hint,
    whole_number,
)

DRAW_PILE = "D"
#: The longest text a move string can be, surrounding spaces included; longer text is refused unread.
MAX_MOVE_TEXT = 32


class MoveError(ValueError):
    """A move string that does not parse, or a code that names no move."""


@dataclass(frozen=True)
class Move:
    """A whole turn: place ``card`` (``play=True`` onto the own expedition, else the discard
    pile), then draw from ``source`` ('D' or a colour letter). ``card is None`` is the draw
    half alone, for a position in its draw step.

    A move equals another ``Move`` of the same turn and its own canonical text, ``str(move)``:
    ``Move.parse("+r7/d") == "+R7/D"``, so ``"+R7/D" in pos.legal_moves()`` and
    ``legal_moves().index("+R7/D")`` work, and a move hashes as that text, so it finds the text in a
    set or a dict and the text finds it. Another spelling that ``parse`` reads ("+r7/d", " +R7/D")
    is not equal: it hashes differently, and a set would then disagree with ``==``; compare it
    read, ``Move.parse(text) == move``. A move equals no other move's text, and no card or code.
    """

    card: Card | None
    play: bool
    source: str

    def __post_init__(self) -> None:
        if self.card is not None and not isinstance(self.card, Card):
            raise MoveError(f"a move's card is a Card or None (the draw half alone), got {brief(self.card)}")
        if not isinstance(self.play, bool) or (self.card is None and self.play):
            raise MoveError(f"a move's play is True (onto the expedition) or False (discard; always False "
                            f"for the draw half alone), got {brief(self.play)}")
        source = self.source
        if not isinstance(source, str) or len(source) != 1 or source not in DRAW_PILE + COLOR_LETTERS:
            raise MoveError(f"a move's source is 'D' or a colour letter, got {brief(self.source)}")

    @classmethod
    def parse(cls, text: str, colors: int = 6) -> Move:
        """Read a turn: ``+R7/D`` (play R7, draw from the draw pile), ``-Bw/G`` (discard Bw, take
        the green pile's top), ``/D`` (the draw half alone); case-insensitive. Raises ``MoveError``
        saying how to write it."""
        if not isinstance(text, str):
            raise MoveError(f"a move must be a string like '+R7/D', got {brief(text)}")
        if whole_number(colors) not in (5, 6):
            raise MoveError(f"colors must be 5 or 6, got {brief(colors)}")
        if len(text) > MAX_MOVE_TEXT:
            raise MoveError(f"move {brief(text)} is too long: a move is like '+R7/D', '-Bw/G' or '/D'")
        s = text.strip()
        if "/" not in s:
            if s[:1] in ("+", "-"):  # '+R4': a placement without its draw, the common slip; show it mended
                try:
                    turn = f"{s[0]}{Card.parse(s[1:], colors)}"
                except CardError:
                    pass
                else:
                    raise MoveError(f"move {text!r} has no '/<source>', the pile to draw from: write '{turn}/D' "
                                    f"(the draw pile) or '{turn}/' and a discard pile's colour letter")
            try:  # 'R4': a card alone, as one says "R4" at the table; show both turns it could be
                card = Card.parse(s, colors)
            except CardError:
                pass
            else:
                raise MoveError(f"move {text!r} is a card, not a turn: write '+{card}/D' to play it or '-{card}/D' to "
                                "discard it, then draw from the deck ('/' and a colour letter takes that discard "
                                "pile's top instead)")
            raise MoveError(f"move {text!r} has no '/<source>': write e.g. '+R7/D' or '-Bw/G'")
        head, typed = s.split("/", 1)
        src = typed.strip().upper()
        if src != DRAW_PILE:
            try:
                src = COLOR_LETTERS[color_index(src, colors)]
            except CardError:  # (the source quoted as typed: 'd x', not 'D X')
                raise MoveError(
                    f"move {text!r}: source {typed.strip()!r} is neither D (draw pile) nor a colour letter of this "
                    f"game ({' '.join(COLOR_LETTERS[:colors])}){sixth_colour_hint(src, colors)}"
                ) from None
        if head == "":
            return cls(None, False, src)
        if head[0] not in "+-":
            raise MoveError(f"move {text!r} must start with '+' (play) or '-' (discard)")
        try:
            card = Card.parse(head[1:], colors)
        except CardError as exc:
            raise MoveError(f"move {text!r}: {exc}") from None
        return cls(card, head[0] == "+", src)

    @classmethod
    def from_code(cls, code: int, colors: int) -> Move:
        """The turn of a kernel move code (``Position.legal_codes``) in a game of ``colors`` colours.
        A move is immutable and a game has few (847 with six colours), so each is made once and
        shared: the same code gives the same object, and a long history holds a pointer a turn."""
        if type(code) is int and type(colors) is int and cls is Move:  # (bools and numpy integers below)
            shared = _BY_CODE.get((colors, code))
            if shared is not None:
                return shared
        number = code if type(code) is int else whole_number(code)
        nc = whole_number(colors)
        if number is None or nc not in (5, 6):
            raise MoveError(f"a move code and the colours (5 or 6) are whole numbers, got {brief(code)}, "
                            f"{brief(colors)}")
        shared = _BY_CODE.get((nc, number)) if cls is Move else None
        if shared is not None:
            return shared
        base = nc + 1
        place, src = divmod(number, base)
        source = DRAW_PILE if src == 0 else COLOR_LETTERS[src - 1]
        if place == 2 * RANKS_PER_COLOR * nc:
            move = cls(None, False, source)
        elif not 0 <= place < 2 * RANKS_PER_COLOR * nc:
            raise MoveError(f"move code {code} is out of range for {colors} colours")
        else:
            t, discard = divmod(place, 2)
            move = cls(Card.from_type(t), not discard, source)
        if cls is Move:
            _BY_CODE[(nc, number)] = move  # a valid code only: the table holds at most 606 + 847 moves
        return move

    def code(self, colors: int) -> int:
        """The kernel's integer for this turn in a game of ``colors`` colours (5 or 6)."""
        if (colors if type(colors) is int else whole_number(colors)) not in (5, 6):  # (7 gave a code of no game)
            raise MoveError(f"colors must be 5 or 6, got {brief(colors)}")
        colors = int(colors)
        base = colors + 1
        src = 0 if self.source == DRAW_PILE else COLOR_LETTERS.index(self.source) + 1
        if self.card is None:
            place = 2 * RANKS_PER_COLOR * colors
        else:
            if self.card.color >= colors:
                raise MoveError(f"move {self}: colour {self.card.color_letter} is not in the {colors}-colour game")
            place = self.card.type * 2 + (0 if self.play else 1)
        if src > colors:
            raise MoveError(f"move {self}: source {self.source} is not in the {colors}-colour game")
        return place * base + src

    @property
    def draws_from_deck(self) -> bool:
        """Whether the turn draws from the draw pile (not from a discard pile)."""
        return self.source == DRAW_PILE

    def __str__(self) -> str:
        if self.card is None:
            return "/" + self.source
        return ("+" if self.play else "-") + str(self.card) + "/" + self.source

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Move):
            return self.card == other.card and self.play == other.play and self.source == other.source
        if isinstance(other, str):  # its canonical text only: the one spelling that hashes as it does
            return str(self) == other
        return NotImplemented

    def __hash__(self) -> int:
        return hash(str(self))  # as its text, which it equals (the text is one to a move)

    def __repr__(self) -> str:
        return f"Move.parse({str(self)!r})"


#: The moves ``Move.from_code`` has made, by (colours, code): one shared object a move.
_BY_CODE: dict[tuple[int, int], Move] = {}
