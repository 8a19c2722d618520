"""The variant options of docs/spec/rules.md, legality reasons in words, and scoring.

The rules themselves live once, in ``core/kernel.py``; this module names the options and
turns the kernel's reason codes into sentences a player understands.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import asdict, dataclass
from typing import Any

from lcanalysis.core import kernel
from lcanalysis.game.cards import Card

TIED_START_CHOICES = ("alternate", "same")


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
        if self.colors not in (5, 6):
            raise RulesError(f"rules: colors must be 5 or 6, got {self.colors!r}")
        if not isinstance(self.hand_size, int) or not 1 <= self.hand_size <= 12:
            raise RulesError(f"rules: hand_size must be a whole number 1..12, got {self.hand_size!r}")
        if 2 * self.hand_size >= 12 * self.colors:
            raise RulesError("rules: hand_size leaves no draw pile")
        if not isinstance(self.no_redraw, bool):
            raise RulesError(f"rules: no_redraw must be true or false, got {self.no_redraw!r}")
        if not isinstance(self.rounds, int) or self.rounds < 1:
            raise RulesError(f"rules: rounds must be a whole number >= 1, got {self.rounds!r}")
        if not isinstance(self.turn_cap, int) or self.turn_cap < 1:
            raise RulesError(f"rules: turn_cap must be a whole number >= 1, got {self.turn_cap!r}")
        if self.tied_start not in TIED_START_CHOICES:
            raise RulesError(f"rules: tied_start must be one of {TIED_START_CHOICES}, got {self.tied_start!r}")

    @property
    def deck_size(self) -> int:
        return 12 * self.colors

    @property
    def draw_pile_after_deal(self) -> int:
        return self.deck_size - 2 * self.hand_size

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Rules:
        if not isinstance(data, Mapping):
            raise RulesError(f"rules must be an object, got {type(data).__name__}")
        known = set(cls.__dataclass_fields__)
        unknown = set(data) - known
        if unknown:
            raise RulesError(f"rules: unknown key(s) {sorted(unknown)}; known keys are {sorted(known)}")
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
