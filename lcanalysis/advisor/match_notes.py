"""The advisor on a position with a match score: every turn's chance to win the match beside its
points, and the notes saying whether the two rankings agree (or that the endgame search ranks by
points only)."""

from __future__ import annotations

from lcanalysis.analysis import Analysis
from lcanalysis.game.view import View
from lcanalysis.match_equity import match_analysis, points_only_note
from lcanalysis.rollouts import Rollouts


def add_match_ranking(view: View, rollouts: Rollouts, analysis: Analysis) -> None:
    """With a match score on the position: every turn's chance to win the match (same worlds,
    through the match equity table), and a note saying whether the two rankings agree."""
    ranking = match_analysis(view, rollouts)
    if ranking is None:
        return
    by_move = {m.move: m for m in ranking.moves}
    for m in analysis.moves:
        m.extra.update(by_move[m.move].match_extra())
    analysis.notes.append(ranking.note)


#: said near the end of a round of a match: the endgame search ranks by points only
MATCH_ENDGAME_NOTE = points_only_note("near the end of the round the endgame search ranks the turns by expected",
                                      "it gives no spread of scores to read the chances from")


def add_match_endgame_note(view: View, analysis: Analysis) -> None:
    """With a match score on the position, say that the endgame search's answer is by points only."""
    if view.match:
        analysis.notes.append(MATCH_ENDGAME_NOTE)
