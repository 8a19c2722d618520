"""The note of an answer in points of the round on a position with a match score: that the values
are not chances to win the match (the hint's endgame search, solve, the review, the tutor)."""

from __future__ import annotations

from typing import Any

#: how every note that a match score was not weighed begins (``points_only_note``)
POINTS_ONLY = "match: not taken into account"


def points_only_note(subject: str, why: str = "") -> str:
    """The note, said once, of an answer in points of the round on a position with a match score
    (advise's endgame search, solve, the review's and the tutor's judgements): one place for the
    words. ``subject`` leads into "points of this round" ("the values are"); ``why``, when given,
    follows in brackets."""
    return (f"{POINTS_ONLY}: {subject} points of this round, not chances to win the match"
            + (f" ({why})" if why else "") + "; the points favourite may not be the best turn for the match")


def solve_match_note(position: Any) -> str | None:
    """The note of an exact endgame answer (``lc.solve``, ``lcanalysis solve``) on ``position``: with a
    match score on it, that the values are points of this round, not chances to win the match; None
    without one (a lone round)."""
    return points_only_note("the values are") if getattr(position, "match", None) else None
