"""Cards, colours and decks: the notation of docs/spec/interchange.md and the integer codes of the core.

A card *type* is a small integer shared by the whole package:
``type = colour * 10 + rank`` where rank 0 is the wager and ranks 1..9 are the
numbers 2..10 (``number = rank + 1``). The three wagers of a colour are three
physical cards of one type, so every multiset of cards is a count per type.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

COLOR_LETTERS = "YBWGRP"
COLOR_NAMES = ("yellow", "blue", "white", "green", "red", "purple")
RANKS_PER_COLOR = 10  # wager + numbers 2..10
WAGER = 0
WAGER_COPIES = 3
CARDS_PER_COLOR = 12


class CardError(ValueError):
    """A card string or code that names no card of the game."""


def color_index(letter: str, colors: int = 6) -> int:
    """The colour number of a colour letter (case-insensitive)."""
    if not isinstance(letter, str) or len(letter) != 1 or letter.upper() not in COLOR_LETTERS[:colors]:
        allowed = " ".join(COLOR_LETTERS[:colors])
        raise CardError(f"unknown colour {letter!r}: expected one of {allowed}")
    return COLOR_LETTERS.index(letter.upper())


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
    """

    color: int
    rank: int

    def __post_init__(self) -> None:
        if not (0 <= self.color < len(COLOR_LETTERS)) or not (0 <= self.rank < RANKS_PER_COLOR):
            raise CardError(f"no such card: colour {self.color}, rank {self.rank}")

    @classmethod
    def parse(cls, text: str, colors: int = 6) -> Card:
        """Read ``R7``, ``b10``, ``Gw`` (case-insensitive)."""
        if not isinstance(text, str):
            raise CardError(f"a card must be a string like 'R7' or 'Gw', got {text!r}")
        s = text.strip()
        if len(s) < 2:
            raise CardError(f"unknown card {text!r}: expected a colour letter and 2..10 or w, like 'R7' or 'Gw'")
        try:
            color = color_index(s[0], colors)
        except CardError:
            raise CardError(
                f"unknown card {text!r}: colour {s[0]!r} is not one of {' '.join(COLOR_LETTERS[:colors])}"
            ) from None
        value = s[1:]
        if value.lower() == "w":
            return cls(color, WAGER)
        if value.isdigit() and 2 <= int(value) <= 10 and str(int(value)) == value:
            return cls(color, int(value) - 1)
        raise CardError(f"unknown card {text!r}: value {value!r} is not 2..10 or w")

    @classmethod
    def from_type(cls, card_type: int) -> Card:
        return cls(color_of(card_type), rank_of(card_type))

    @property
    def type(self) -> int:
        return type_of(self.color, self.rank)

    @property
    def is_wager(self) -> bool:
        return self.rank == WAGER

    @property
    def number(self) -> int:
        """The face value 2..10, or 0 for a wager."""
        return 0 if self.rank == WAGER else self.rank + 1

    @property
    def color_letter(self) -> str:
        return COLOR_LETTERS[self.color]

    def __str__(self) -> str:
        return self.color_letter + ("w" if self.is_wager else str(self.number))

    def __repr__(self) -> str:
        return f"Card.parse({str(self)!r})"

    def _repr_svg_(self) -> str:
        from lcanalysis.show.render import card_svg

        return card_svg(self)


def card_str(card_type: int) -> str:
    return str(Card.from_type(card_type))


def parse_card(text: str, colors: int = 6) -> int:
    """The type code of a card string."""
    return Card.parse(text, colors).type


def parse_cards(texts: Iterable[str], colors: int = 6) -> list[int]:
    return [parse_card(t, colors) for t in texts]


def full_deck(colors: int = 5) -> list[int]:
    """Every physical card of the variant as type codes (wagers three times), in a fixed order."""
    if colors not in (5, 6):
        raise CardError(f"colors must be 5 or 6, got {colors!r}")
    deck: list[int] = []
    for c in range(colors):
        for r in range(RANKS_PER_COLOR):
            deck.extend([type_of(c, r)] * copies(type_of(c, r)))
    return deck


def counts_of(card_types: Sequence[int], colors: int) -> list[int]:
    """The count per type of a list of type codes."""
    out = [0] * number_types(colors)
    for t in card_types:
        out[t] += 1
    return out


def types_from_counts(counts: Sequence[int]) -> list[int]:
    """The sorted list of type codes a count vector holds."""
    return [t for t, n in enumerate(counts) for _ in range(int(n))]
