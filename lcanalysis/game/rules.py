"""The variant options of docs/spec/rules.md, legality reasons in words, and scoring.

The rules themselves live once, in ``core/kernel.py``; this module names the options and
turns the kernel's reason codes into sentences a player understands.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import asdict, dataclass
from typing import Any

from lcanalysis.core import kernel
from lcanalysis.game.cards import CARDS_PER_COLOR, Card, brief, whole_number
from lcanalysis.options import MAX_MATCH_ROUNDS

TIED_START_CHOICES = ("alternate", "same")
#: The allowed ranges of the whole-number options (the kernel stores them as 32-bit integers;
#: a round without stalling lasts about 50 turns, a match a handful of rounds).
HAND_SIZES = (1, 12)
MAX_ROUNDS = MAX_MATCH_ROUNDS
MAX_TURN_CAP = 10_000


class RulesError(ValueError):
    """A rules option with a value the game does not have."""


class IllegalMoveError(ValueError):
    """A turn the rules forbid here; the message names the rule it breaks."""


@dataclass(frozen=True)
class Rules:
    """Every named convention of docs/spec/rules.md, with its default.

    ``tied_start``: who starts a later round when the running totals are tied:
    "alternate" (default: the player who did not start the previous round) or "same".
    """

    colors: int = 5
    hand_size: int = 8
    no_redraw: bool = True
    rounds: int = 3
    turn_cap: int = 200
    tied_start: str = "alternate"

    def __post_init__(self) -> None:
        self._whole("colors", 5, 6, "5 or 6 (a whole number)")
        self._whole("hand_size", *HAND_SIZES)
        if 2 * self.hand_size >= self.deck_size:
            raise RulesError("rules: hand_size leaves no draw pile")
        if not isinstance(self.no_redraw, bool):
            raise RulesError(f"rules: no_redraw must be true or false, got {brief(self.no_redraw)}")
        self._whole("rounds", 1, MAX_ROUNDS)
        self._whole("turn_cap", 1, MAX_TURN_CAP)
        if not isinstance(self.tied_start, str) or self.tied_start not in TIED_START_CHOICES:
            raise RulesError(f"rules: tied_start must be one of {TIED_START_CHOICES}, got {brief(self.tied_start)}")

    def _whole(self, name: str, lo: int, hi: int, allowed: str = "") -> None:
        """Refuse an option that is not a whole number in lo..hi (a bool or 5.0 is not); keep it as an int."""
        value = getattr(self, name)
        number = whole_number(value)
        if number is None or not lo <= number <= hi:
            raise RulesError(f"rules: {name} must be {allowed or f'a whole number {lo}..{hi}'}, got {brief(value)}")
        if type(value) is not int:
            object.__setattr__(self, name, number)

    @property
    def deck_size(self) -> int:
        """Cards in the whole deck: 12 a colour (60, or 72 with six colours)."""
        return CARDS_PER_COLOR * self.colors

    @property
    def draw_pile_after_deal(self) -> int:
        """Cards in the draw pile once both hands are dealt: the deck less two hands (44 with five
        colours and hands of 8)."""
        return self.deck_size - 2 * self.hand_size

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Rules:
        """Rules from a JSON object (the ``rules`` of docs/spec/interchange.md); keys left out take
        their defaults, an unknown key or a bad value raises ``RulesError`` naming it."""
        if not isinstance(data, Mapping):
            raise RulesError(f"rules must be an object, got {type(data).__name__}")
        known = set(cls.__dataclass_fields__)
        unknown = [key for key in data if key not in known]
        if unknown:
            names = ", ".join(brief(key) for key in unknown[:5]) + (", ..." if len(unknown) > 5 else "")
            raise RulesError(f"rules: unknown key(s) {names}; known keys are {sorted(known)}")
        return cls(**dict(data))

    def to_dict(self, full: bool = False) -> dict[str, Any]:
        """The options; by default only the three the position format names plus any changed ones."""
        d = asdict(self)
        if full:
            return d
        default = Rules()
        return {k: v for k, v in d.items() if k in ("colors", "hand_size", "no_redraw") or v != getattr(default, k)}


# Kernel reason codes (core.kernel.place_code_error / source_error) in words.
REASONS = {
    1: "the card for this turn has already been placed; only the draw is left",
    2: "no such card in this game",
    3: "that card is not in the hand of the player to move",
    4: "a wager can only go on an expedition that holds no number yet",
    5: "a number must be higher than every number already on that expedition",
    6: "no such draw source",
    7: "the draw pile is empty: the round is over",
    8: "that discard pile is empty",
    9: "you may not draw back the card you discarded this turn (no-redraw rule)",
}


def expedition_score(cards: Iterable[Card]) -> int:
    """Score one expedition from its cards (in any order): see docs/spec/rules.md "Scoring a round"."""
    wagers = 0
    mask = 0
    for card in cards:
        if card.is_wager:
            wagers += 1
        else:
            mask |= 1 << (card.rank - 1)
    return int(kernel.expedition_score(wagers, mask))
