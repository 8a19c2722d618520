"""The note of an answer in points of the round on a position with a match score: that the values
are not chances to win the match (the hint's endgame search, solve, the review, the tutor); and a
turn's loss of the chance to win the match in words (the tutor's and the review's)."""

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


def match_loss_said(played: str, best_for_match: str, loss: float, stderr: float, whose: str = "your") -> str:
    """What a turn gives up of the chance to win the match, as a sentence: "For the match: 1.5 ± 0.4
    percentage points less chance to win it than -B3/D, the best turn for the match (by the play-outs)",
    ``loss`` and ``stderr`` in percentage points (an estimate paired over the play-outs' worlds, against
    ``best_for_match``); for the best turn itself "For the match: the best turn for your chance to win it
    (by the play-outs)", ``whose`` naming the player ("your": the tutor's; "the mover's": the review's).
    One place for the words of the tutor and the game review."""
    by = "(by the play-outs)"
    if played == best_for_match:
        return f"For the match: the best turn for {whose} chance to win it {by}"
    if loss == 0.0 and stderr == 0.0:  # the same match outcome in every world: no spread to give a ± of
        return (f"For the match: as good as {best_for_match}, the best turn for the match, in every world "
                f"{by}")
    return (f"For the match: {loss:.1f} ± {stderr:.1f} percentage points less chance to win it than "
            f"{best_for_match}, the best turn for the match {by}")
