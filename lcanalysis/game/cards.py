"""Cards, colours and decks: the notation of docs/spec/interchange.md and the integer codes of the core.

A card *type* is a small integer shared by the whole package:
``type = colour * 10 + rank`` where rank 0 is the wager and ranks 1..9 are the
numbers 2..10 (``number = rank + 1``). The three wagers of a colour are three
physical cards of one type, so every multiset of cards is a count per type.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

# the deck's numbers are the compiled kernel's too: written once, in core.constants
from lcanalysis.core.constants import CARDS_PER_COLOR, RANKS_PER_COLOR, WAGER, WAGER_COPIES

# how every reader quotes what it was given, and what a whole number is: written once, in options
from lcanalysis.options import brief, whole_number

COLOR_LETTERS = "YBWGRP"  # one per colour: core.constants.MAX_COLORS of them
COLOR_NAMES = ("yellow", "blue", "white", "green", "red", "purple")
_NAME_OF_LETTER = dict(zip(COLOR_LETTERS, COLOR_NAMES, strict=True))


def color_name(letter: str) -> str:
    """The name of the colour written ``letter`` ('R': 'red'); text that is no colour's letter comes
    back as it was given ('?'), so that a message still shows what it met."""
    return _NAME_OF_LETTER.get(letter, letter)


#: The longest text a card string can be, surrounding spaces included; longer text is refused unread.
MAX_CARD_TEXT = 32


class CardError(ValueError):
    """A card string or code that names no card of the game."""


def named_color(text: Any, colors: int = 6) -> tuple[int, str] | None:
    """``(colour, what follows the name)`` when ``text`` starts with a colour's name ('red 7',
    'Green10', 'green'), which the notation writes as its letter; otherwise None."""
    if not isinstance(text, str):
        return None
    s = text.strip()
    for c, name in enumerate(COLOR_NAMES[:colors]):
        if s[:len(name)].lower() == name:
            return c, s[len(name):].strip()
    return None


def color_name_hint(text: Any, colors: int = 6) -> str:
    """For an error message: how to write a colour given by its name ('green': G), else ''."""
    named = named_color(text, colors)
    if named is None or named[1]:
        return ""
    return f"; a colour is written as its letter: {COLOR_LETTERS[named[0]]} for {COLOR_NAMES[named[0]]}"


#: How to ask for the six-colour game, in each notation, for a message that meets a purple card or
#: a count off by one colour's cards.
SIX_COLOUR_GAME = ("c6 in the one-line string (LC1;c6;...), \"rules\": {\"colors\": 6} in JSON, "
                   "Rules(colors=6) in Python, --colors 6 to lcanalysis play or deal")
FIVE_COLOUR_GAME = "c5 in the one-line string, \"rules\": {\"colors\": 5} in JSON"


def sixth_colour_hint(text: Any, colors: int) -> str:
    """For an error message: when ``text`` (a card, a colour letter) starts with the purple letter
    and the game has five colours, that purple exists only in the six-colour game and how to ask
    for it; else ''."""
    if colors >= len(COLOR_LETTERS) or not isinstance(text, str) or not text.strip():
        return ""
    letter = text.strip()[0].upper()
    if letter not in COLOR_LETTERS[colors:]:
        return ""
    c = COLOR_LETTERS.index(letter)
    try:
        what = f"{Card.parse(text)} is a card"
    except CardError:  # a colour letter alone, or no card of it
        what = f"{letter} ({COLOR_NAMES[c]}) is a colour"
    return (f"; {what} of the {c + 1}-colour game only, and this is the {colors}-colour game: "
            f"to play with six colours, give {SIX_COLOUR_GAME}")


def colour_count_hint(colors: int, unaccounted: int) -> str:
    """For a message on counts that do not add up: when they are off by exactly one colour's cards,
    the count of colours may be what is wrong (a six-colour game counted as a five-colour one, or
    the other way round): say how the two games differ and how to ask for the other; else ''.
    ``unaccounted`` is the cards nowhere (positive) or too many (negative)."""
    six, five = len(COLOR_LETTERS), len(COLOR_LETTERS) - 1
    if colors == six and unaccounted == CARDS_PER_COLOR:
        return (f"; {CARDS_PER_COLOR} cards are one colour's: the 6-colour game (72 cards) has "
                f"{CARDS_PER_COLOR} more in its draw pile than the 5-colour game (56 after the deal, not 44), "
                f"so count the draw pile for six colours, or for the 5-colour game give {FIVE_COLOUR_GAME}")
    if colors == five and unaccounted == -CARDS_PER_COLOR:
        return (f"; {CARDS_PER_COLOR} cards are one colour's: the 5-colour game (60 cards) has "
                f"{CARDS_PER_COLOR} fewer in its draw pile than the 6-colour game (44 after the deal, not 56), "
                f"so count the draw pile for five colours, or for the 6-colour game give {SIX_COLOUR_GAME}")
    return ""


def color_index(letter: str, colors: int = 6) -> int:
    """The colour number of a colour letter, read as a card is: case-insensitive, spaces around it
    ignored (``" g "`` is green, as ``" b10 "`` is a card)."""
    upper = letter.strip().upper() if isinstance(letter, str) and len(letter.strip()) == 1 else ""
    if len(upper) != 1 or upper not in COLOR_LETTERS[:colors]:
        allowed = " ".join(COLOR_LETTERS[:colors])
        raise CardError(f"unknown colour {brief(letter)}: expected one of {allowed}{color_name_hint(letter, colors)}"
                        f"{sixth_colour_hint(letter, colors)}")
    return COLOR_LETTERS.index(upper)


def type_of(color: int, rank: int) -> int:
    return color * RANKS_PER_COLOR + rank


def color_of(card_type: int) -> int:
    return card_type // RANKS_PER_COLOR


def rank_of(card_type: int) -> int:
    return card_type % RANKS_PER_COLOR


def copies(card_type: int) -> int:
    """How many physical cards of this type the deck holds."""
    return WAGER_COPIES if rank_of(card_type) == WAGER else 1


def number_types(colors: int) -> int:
    return colors * RANKS_PER_COLOR


@dataclass(frozen=True, order=True)
class Card:
    """One card: a colour (0..5) and a rank (0 = wager, 1..9 = numbers 2..10).

    ``str(card)`` is the notation (``R7``, ``Gw``); ``repr`` pastes back into Python.

    A card equals its canonical text, ``str(card)``, as a ``Move`` does: ``"R7" in pos.hand(0)``
    works, and a card hashes as that text, so sets and dicts agree with ``==``. Another spelling
    that ``parse`` reads (``"r7"``, ``" R7"``) is not equal: compare it read,
    ``Card.parse(text) == card``. A card equals no other card's text, and no type code.
    """

    color: int
    rank: int

    def __post_init__(self) -> None:
        color, rank = self.color, self.rank
        if type(color) is not int or type(rank) is not int:  # numpy integers become ints; others are refused
            whole_color, whole_rank = whole_number(color), whole_number(rank)
            if whole_color is None or whole_rank is None:
                raise CardError(f"a card's colour and rank are whole numbers, got {brief(color)}, {brief(rank)}")
            color, rank = whole_color, whole_rank
            object.__setattr__(self, "color", color)
            object.__setattr__(self, "rank", rank)
        if not (0 <= color < len(COLOR_LETTERS)) or not (0 <= rank < RANKS_PER_COLOR):
            raise CardError(f"no such card: colour {brief(color)}, rank {brief(rank)}")

    @classmethod
    def parse(cls, text: str, colors: int = 6) -> Card:
        """Read ``R7``, ``b10``, ``Gw`` (case-insensitive)."""
        if not isinstance(text, str):
            raise CardError(f"a card must be a string like 'R7' or 'Gw', got {brief(text)}")
        nc = colors if type(colors) is int else whole_number(colors)
        if nc is None:
            raise CardError(f"colors must be a whole number, got {brief(colors)}")
        if len(text) > MAX_CARD_TEXT:
            raise CardError(f"unknown card {brief(text)}: a card is a colour letter and 2..10 or w, like 'R7'")
        s = text.strip()
        card = _PARSED.get(s)
        if card is None:
            card = cls._read(text, s, nc)
            if cls is Card:
                _PARSED[s] = card  # only spellings that name a card: a few hundred at most
        if card.color >= nc:
            raise CardError(
                f"unknown card {brief(text)}: colour {s[0]!r} is not one of {' '.join(COLOR_LETTERS[:nc])}"
                f"{sixth_colour_hint(s, nc)}"
            )
        return card

    @classmethod
    def _read(cls, text: str, s: str, colors: int) -> Card:
        try:
            return cls._read_letters(text, s, colors)
        except CardError:
            named = named_color(s, colors)
            if named is None:
                raise
        # 'red 7' was read as colour 'r' and value 'ed 7': say how the card is written instead
        color, rest = named
        try:
            example = str(cls._read_letters(text, COLOR_LETTERS[color] + rest, colors))
        except CardError:
            example = f"{COLOR_LETTERS[color]}7"
        raise CardError(f"unknown card {brief(text)}: a card is its colour's letter and 2..10 or w, "
                        f"like {example!r} ({COLOR_LETTERS[color]} for {COLOR_NAMES[color]})") from None

    @classmethod
    def _read_letters(cls, text: str, s: str, colors: int) -> Card:
        if len(s) < 2:
            raise CardError(f"unknown card {brief(text)}: expected a colour letter and 2..10 or w, like 'R7' or 'Gw'")
        try:
            color = color_index(s[0], colors)
        except CardError:
            raise CardError(
                f"unknown card {brief(text)}: colour {brief(s[0])} is not one of {' '.join(COLOR_LETTERS[:colors])}"
                f"{sixth_colour_hint(s, colors)}"
            ) from None
        value = s[1:]
        if value.lower() == "w":
            return cls(color, WAGER)
        if value == "?":  # the buried card of a view's discard pile, met where a card must be named
            raise CardError(f"{brief(text)} is a buried card (a {COLOR_NAMES[color]} card whose value is not "
                            f"remembered), and X? may stand only below the top card of a discard pile in a view "
                            f"(docs/spec/interchange.md, \"Buried discard cards\"): here name the card, like "
                            f"'{COLOR_LETTERS[color]}7'")
        digits = value.isascii() and value.isdigit() and len(value) <= 2 and str(int(value)) == value
        if digits and 2 <= int(value) <= 10:
            return cls(color, int(value) - 1)
        raise CardError(f"unknown card {brief(text)}: value {brief(value)} is not 2..10 or w")

    @classmethod
    def from_type(cls, card_type: int) -> Card:
        """The card of an integer type code (``color * 10 + rank``; ``Card.type``)."""
        t = card_type if type(card_type) is int else whole_number(card_type)
        if t is None:
            raise CardError(f"a card type is a whole number, got {brief(card_type)}")
        card = _BY_TYPE.get(t) if cls is Card else None
        return card if card is not None else cls(color_of(t), rank_of(t))

    @property
    def type(self) -> int:
        """The card's integer type code, ``color * 10 + rank`` (the index into count vectors)."""
        return type_of(self.color, self.rank)

    @property
    def is_wager(self) -> bool:
        """Whether it is a wager (investment) card, rank 0."""
        return self.rank == WAGER

    @property
    def number(self) -> int:
        """The face value 2..10, or 0 for a wager."""
        return 0 if self.rank == WAGER else self.rank + 1

    @property
    def color_letter(self) -> str:
        """The colour's letter: Y B W G R P."""
        return COLOR_LETTERS[self.color]

    def __str__(self) -> str:
        return self.color_letter + ("w" if self.is_wager else str(self.number))

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Card):
            return self.color == other.color and self.rank == other.rank
        if isinstance(other, str):  # its canonical text only: the one spelling that hashes as it does
            return str(self) == other
        return NotImplemented

    def __hash__(self) -> int:
        return hash(str(self))  # as its text, which it equals (computed each time: string hashes differ
        # from process to process, and cards travel to worker processes)

    def __repr__(self) -> str:
        return f"Card.parse({str(self)!r})"

    def _repr_svg_(self) -> str:
        from lcanalysis.show.render import card_svg

        return card_svg(self)


_PARSED: dict[str, Card] = {}
_BY_TYPE: dict[int, Card] = {type_of(c, r): Card(c, r)
                             for c in range(len(COLOR_LETTERS)) for r in range(RANKS_PER_COLOR)}


def card_str(card_type: int) -> str:
    return str(Card.from_type(card_type))


@dataclass(frozen=True)
class Buried:
    """A card buried in a discard pile whose rank the viewer does not remember: only its colour is
    known (written ``G?``). Views may hold them below the top of a pile (docs/spec/interchange.md,
    "Buried discard cards"); a full position never does."""

    color: int

    @classmethod
    def parse(cls, text: Any, colors: int = 6) -> Buried | None:
        """``G?`` (any case) as a buried card of that colour; None for anything else."""
        if isinstance(text, Buried):
            return text
        if isinstance(text, str) and len(text) == 2 and text[1] == "?" and text[0].upper() in COLOR_LETTERS[:colors]:
            return cls(COLOR_LETTERS.index(text[0].upper()))
        return None

    def __str__(self) -> str:
        return COLOR_LETTERS[self.color] + "?"

    def __repr__(self) -> str:
        return f"Buried.parse({str(self)!r})"


def full_deck(colors: int = 5) -> list[int]:
    """Every physical card of the variant as type codes (wagers three times), in a fixed order."""
    if whole_number(colors) not in (5, 6):
        raise CardError(f"colors must be 5 or 6, got {brief(colors)}")
    deck: list[int] = []
    for c in range(colors):
        for r in range(RANKS_PER_COLOR):
            deck.extend([type_of(c, r)] * copies(type_of(c, r)))
    return deck


def types_from_counts(counts: Sequence[int]) -> list[int]:
    """The sorted list of type codes a count vector holds."""
    return [t for t, n in enumerate(counts) for _ in range(int(n))]
