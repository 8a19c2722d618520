"""A match of N rounds: who starts each round, running totals, and who won (docs/spec/rules.md "A match")."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from lcanalysis.game.cards import brief, whole_number
from lcanalysis.game.position import Position, as_rules, player_number, round_score_range
from lcanalysis.game.rules import Rules


class MatchError(ValueError):
    """A match state that cannot be, or a step the match does not allow (a round after the last)."""


def next_starter(totals: Sequence[int], previous: int, rules: Rules) -> int:
    """Who starts the next round of a match: the player with the higher total; on a tie the
    previous round's starter again, or the other player under ``tied_start = "alternate"``."""
    a, b = totals
    if a != b:
        return 0 if a > b else 1
    return 1 - previous if rules.tied_start == "alternate" else previous


def wrong_starter(totals: Sequence[int], previous: int, began: int, rules: Rules, round: int) -> str | None:
    """Why player ``began`` cannot have started round ``round`` after a round started by
    ``previous``, with running ``totals`` before it (``next_starter``'s rule), in words; None when
    they could."""
    want = next_starter(totals, previous, rules)
    if began == want:
        return None
    why = (f"the totals are {totals[0]}-{totals[1]}, so player {want} (the higher total) starts it"
           if totals[0] != totals[1] else f"the totals are tied, so under tied_start '{rules.tied_start}' "
           f"player {want} starts it")
    return f"player {began} starts round {round}, but {why}"


@dataclass
class Match:
    """Running state of a match. ``first_starter`` starts round 1 (the box: the oldest player).

    From round 2 the player with the higher running total starts; on a tie the convention
    ``rules.tied_start`` decides: "alternate" (the player who did not start the previous
    round) or "same" (the previous starter again).
    """

    rules: Rules = field(default_factory=Rules)
    first_starter: int = 0
    totals: list[int] = None  # type: ignore[assignment]  # None: the sums of round_scores
    round_scores: list[tuple[int, int]] = field(default_factory=list)
    starters: list[int] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.rules = as_rules(self.rules)
        self.first_starter = player_number(self.first_starter, "first_starter")
        # a match given mid-way: its rounds so far, their starters and the totals they add up to
        rounds = self.round_scores
        if not isinstance(rounds, (list, tuple)) or len(rounds) > self.rules.rounds:
            raise MatchError(f"round_scores must be a list of at most {self.rules.rounds} rounds' scores, "
                             f"got {brief(rounds)}")
        self.round_scores = [_round_scores(x, self.rules) for x in rounds]
        starters = self.starters
        if not isinstance(starters, (list, tuple)) or len(starters) != len(self.round_scores):
            raise MatchError(f"starters must list who started each of the {len(self.round_scores)} round(s) "
                             f"played, got {brief(starters)}")
        self.starters = [player_number(x, "starters") for x in starters]
        running = [0, 0]
        for r, (scores, began) in enumerate(zip(self.round_scores, self.starters), start=1):
            if r > 1:  # the first round's starter is chosen; the rules name every later one
                wrong = wrong_starter(running, self.starters[r - 2], began, self.rules, r)
                if wrong:
                    raise MatchError(f"starters: {wrong}")
            running = [running[0] + scores[0], running[1] + scores[1]]
        played = [sum(x[p] for x in self.round_scores) for p in (0, 1)]
        if self.totals is not None and (not isinstance(self.totals, (list, tuple))
                                        or [whole_number(x) for x in self.totals] != played):
            raise MatchError(f"totals must be the sums of the round scores, {played}, got {brief(self.totals)}")
        self.totals = played

    @property
    def round_number(self) -> int:
        """The round about to be played (1-based); ``rules.rounds + 1`` once the match is over."""
        return len(self.round_scores) + 1

    def is_over(self) -> bool:
        """Whether every round of the match (``rules.rounds``) has been recorded."""
        return len(self.round_scores) >= self.rules.rounds

    def next_starter(self) -> int:
        """Who starts the next round (the module's ``next_starter``: the higher total, ties by ``tied_start``)."""
        if not self.starters:
            return self.first_starter
        return next_starter(self.totals, self.starters[-1], self.rules)

    def new_round(self, seed: int | None = None) -> Position:
        """Deal the next round with the right starter; the position carries the match state."""
        if self.is_over():
            raise MatchError(f"the match is over after {self.rules.rounds} round(s)")
        pos = Position.deal(seed=seed, rules=self.rules, starter=self.next_starter())
        pos.match = {"round": self.round_number, "totals": list(self.totals)}
        return pos

    def record(self, scores: tuple[int, int], starter: int | None = None) -> None:
        """Add a finished round's scores (player 0, player 1)."""
        if self.is_over():
            raise MatchError(f"the match is over after {self.rules.rounds} round(s)")
        a, b = _round_scores(scores, self.rules)
        began = self.next_starter() if starter is None else player_number(starter, "starter")
        if self.starters:  # the first round's starter is chosen; the rules name every later one
            wrong = wrong_starter(self.totals, self.starters[-1], began, self.rules, self.round_number)
            if wrong:
                raise MatchError(wrong)
        self.starters.append(began)
        self.round_scores.append((a, b))
        self.totals = [self.totals[0] + a, self.totals[1] + b]

    def winner(self) -> int | None:
        """0 or 1, or None for a draw (a tied total: spec convention). Only once the match is over."""
        if not self.is_over():
            raise MatchError("the match is not over yet")
        a, b = self.totals
        return None if a == b else (0 if a > b else 1)


def _round_scores(scores: object, rules: Rules) -> tuple[int, int]:
    """A finished round's two scores (player 0, player 1), checked against what a round can score."""
    least, most = round_score_range(rules)
    points = [whole_number(x) for x in scores] if isinstance(scores, (tuple, list)) else []
    checked = [x for x in points if x is not None and least <= x <= most]
    if len(checked) != 2 or len(points) != 2:
        raise MatchError(f"scores must be the round's two scores, whole numbers from {least} to {most} "
                         f"(player 0, player 1; what a round of {rules.colors} colours can score), got {brief(scores)}")
    return checked[0], checked[1]
