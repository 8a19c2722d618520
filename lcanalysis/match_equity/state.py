"""The match state of a view: the mover's lead, the round, the rounds to come and who started it."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from lcanalysis.match_equity.errors import MatchEquityError

if TYPE_CHECKING:
    from lcanalysis.game.view import View


@dataclass(frozen=True)
class MatchState:
    """The match seen by the player to move: ``lead`` (own total minus the opponent's before this
    round), ``round`` (1-based), ``rounds`` in the match, ``rounds_left_after`` (rounds still to
    come once this one ends) and ``i_started`` (whether the mover started this round; None when
    the view cannot tell: a hand-entered position without its history)."""

    lead: int
    round: int
    rounds: int
    rounds_left_after: int
    i_started: bool | None

    def describe(self) -> str:
        """"behind by 45 in the last round", "ahead by 12 with 2 rounds to come", ..."""
        if self.lead > 0:
            where = f"ahead by {self.lead}"
        elif self.lead < 0:
            where = f"behind by {-self.lead}"
        else:
            where = "level"
        if self.rounds_left_after == 0:
            return f"{where} in the last round"
        more = self.rounds_left_after
        return f"{where} in round {self.round} of {self.rounds} ({more} round{'s' if more > 1 else ''} to come)"


def round_starter(view: View) -> int | None:
    """Who started the round of ``view`` (0 or 1), or None when the view cannot tell. The
    history tells when it goes back to the deal (its draws from the draw pile account for every
    card drawn from it); a view at the deal is started by its player to move."""
    rules = view.rules
    drawn = rules.draw_pile_after_deal - view.deck_count
    history = list(view.history)
    if not history:
        return view.to_move if drawn == 0 and view.phase == "place" else None
    from_deck = sum(1 for m in history if m.source == "D")
    if from_deck != drawn:
        return None
    return view.to_move if len(history) % 2 == 0 else 1 - view.to_move


def match_state(view: View) -> MatchState:
    """The match state of the player to move in ``view`` (from ``view.match``: round and totals).
    Raises ``MatchEquityError`` when the view carries no match score or a round past the last."""
    from lcanalysis.game.position import Position
    from lcanalysis.game.view import View

    if not isinstance(view, (View, Position)):
        raise MatchEquityError(f"the match state is read from a View or a Position, got {type(view).__name__}")
    m = view.match
    if not m:
        raise MatchEquityError("the position carries no match score (match=ROUND:TOTAL0,TOTAL1)")
    rnd = int(m.get("round", 1))
    totals = m.get("totals", [0, 0])
    rounds = view.rules.rounds
    if not 1 <= rnd <= rounds:
        raise MatchEquityError(f"round {rnd} of a {rounds}-round match (rules.rounds): no such round")
    me = view.to_move
    lead = int(totals[me]) - int(totals[1 - me])
    starter = round_starter(view)
    return MatchState(lead, rnd, rounds, rounds - rnd, None if starter is None else starter == me)
