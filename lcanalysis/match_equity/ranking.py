"""The candidate turns of a view's play-outs in the match's terms: per-world match equities
(``match_values``) and the turns ranked by match-winning chance beside points (``match_analysis``)."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol

import numpy as np

from lcanalysis.match_equity.errors import MatchEquityError
from lcanalysis.match_equity.paired import favourite, paired_difference, standard_error, worst_paired
from lcanalysis.match_equity.state import MatchState, match_state
from lcanalysis.match_equity.table import MatchEquity
from lcanalysis.match_equity.verdict import as_sentence, match_verdict, table_caveat

if TYPE_CHECKING:
    from lcanalysis.game.view import View


def match_values(samples: Any, view: View, equity: MatchEquity | None = None) -> Any:
    """Per-world round outcomes turned into per-world match equities for the player to move.

    ``samples``: final round score differences, mover minus opponent, one per sampled world (an
    array), or a list of such arrays (``Rollouts.samples``, one per candidate turn). Each world's
    outcome ``d`` gives the running lead ``lead + d`` at the end of this round (``lead`` = own
    total minus the opponent's, from ``view.match``); the rules give the next starter (the higher
    total; level totals by ``rules.tied_start`` and who started this round); the table gives the
    chance to win from there with the rounds that remain. In the last round the values are 1, 1/2
    and 0 (win, draw, loss). A turn's match-winning chance is the mean over the same worlds, and
    its difference from another turn's is paired like the points (common random numbers).
    """
    eq = equity or MatchEquity.load(rules=view.rules)
    return eq.match_values(samples, view)


@dataclass
class MatchMoveValue:
    """One candidate turn by points and by match-winning chance. The losses are the best turn's
    value minus this one's (best by that measure), with the standard error of that difference
    paired over the worlds both were played in."""

    move: str
    worlds: int
    points: float
    points_stderr: float
    points_loss: float
    points_loss_stderr: float
    match: float
    match_stderr: float
    match_loss: float
    match_loss_stderr: float
    points_rank: int = 0
    match_rank: int = 0

    def to_dict(self) -> dict[str, Any]:
        return {k: (None if isinstance(v, float) and not math.isfinite(v) else v) for k, v in self.__dict__.items()}

    def match_extra(self) -> dict[str, float]:
        """The keys an answer's turn carries for its match (``MoveValue.extra``, the JSON's extras): its
        chance to win the match, its loss against the best turn by that chance, each with its error."""
        return {"match_win": self.match, "match_win_stderr": self.match_stderr, "match_loss": self.match_loss,
                "match_loss_stderr": self.match_loss_stderr}


@dataclass
class MatchAnalysis:
    """Candidate turns ranked by match-winning chance (``moves``, best first), the best by points
    and by match, whether they differ, the match state, and the verdict a player reads: ``said``, its
    words begun in lower case; ``verdict``, said on its own (a capital first); ``note``, as an answer's
    note ("match: " and the words)."""

    moves: list[MatchMoveValue]
    state: MatchState
    best_points: str
    best_match: str
    disagree: bool
    said: str

    @property
    def verdict(self) -> str:
        """The verdict said on its own: "Behind by 60 in the last round, the match ranking prefers ..."."""
        return as_sentence(self.said)

    @property
    def note(self) -> str:
        """The verdict as an answer's note (the hint's, a rollout's): "match: behind by 60 in the last round, ..."."""
        return f"match: {self.said}"

    def to_dict(self) -> dict[str, Any]:
        return {"state": dict(self.state.__dict__), "best_points": self.best_points, "best_match": self.best_match,
                "disagree": self.disagree, "verdict": self.verdict, "moves": [m.to_dict() for m in self.moves]}


class Sampled(Protocol):
    """What ``match_analysis`` reads of its play-outs (``lcanalysis.rollouts.Rollouts``, or a rollout's
    trials, ``studies.rollout``): each candidate turn's final round score differences, mover minus
    opponent, one per world (``samples[k]``), and the turn itself (``move(k)``, printed by ``str``)."""

    @property
    def samples(self) -> Sequence[Any]: ...

    def move(self, k: int) -> object: ...


def match_analysis(view: View, rollouts: Sampled, equity: MatchEquity | None = None,
                   min_z: float = 2.0) -> MatchAnalysis | None:
    """Rank the candidate turns of ``rollouts`` by match-winning chance as well as by points.

    ``rollouts``: a ``lcanalysis.rollouts.Rollouts`` of ``view`` already sampled (any number of
    worlds per turn; a turn needs 2 or more for a standard error), or anything with its ``samples``
    and ``move`` (``Sampled``: a rollout's trials, ``lcanalysis.studies.rollout``). ``view`` must carry the match
    score (``view.match``: round and running totals; ``Position.match``/``match=2:35,10`` in the
    one-line form); without one the function returns None (there is only the points ranking).
    ``equity``: the table (default: ``MatchEquity.load(rules=view.rules)``).

    Every turn's match-winning chance is the mean, over its worlds, of the match equity at the
    end of the round (``match_values``: P(win the match) + half P(draw)), with its standard
    error; its *match loss* is the best turn's chance minus its own, with the standard error of
    that paired difference (the worlds are shared). The points columns are the same for the
    final score difference. The best turn by either measure is chosen by paired differences, as
    the losses are, never by comparing means over different worlds (a turn played in 8 worlds
    against one played in 40): it is the turn whose worst paired difference against any other
    turn, over the worlds the two were played in, is the largest, so it is no worse than any
    other there whenever one such turn exists; on equal match chances the points favourite is
    kept. ``moves`` is sorted by match loss, the best first, and each row carries its rank in
    both orders (each after the best by its paired loss against it).

    ``verdict`` says in one sentence whether the two rankings agree and, when they do not, by
    how much and why in the match's terms, e.g. "Behind by 60 in the last round, the match
    ranking prefers -Y4/D to the points favourite +R7/D: 14.0% against 11.5% to win the match
    (+2.5 ± 0.6 percentage points) for 1.9 ± 0.5 points less on average: it gambles more (a
    wider spread of scores)." The two chances are over the worlds both turns were played in, as
    the gain is (so they differ by it), and when one turn was played in more worlds than the other
    the verdict says so ("... to win the match in the 10 worlds both were played in"); each turn's
    own average over all its worlds is its row's ``match``. A disagreement smaller than ``min_z``
    paired standard errors is called a matter of noise. A paired difference that was the same in every world both turns
    were played in has no standard error to give: it is printed without ±, saying so ("+0.0
    percentage points in each of the 8 worlds both were played in"), and a turn no better there
    is called a matter of taste. When the table was simulated from rounds of another number of
    colours than ``view.rules``, the verdict says so (``table_caveat``).
    """
    if not view.match:
        return None
    state = match_state(view)
    eq = equity or MatchEquity.load(rules=view.rules)
    pts = [np.asarray(x, dtype=np.float64) for x in rollouts.samples]
    if not pts or any(len(x) == 0 for x in pts):
        raise MatchEquityError("every candidate turn needs sampled worlds (Rollouts.sample) first")
    mv = [np.asarray(eq.after_round(state.lead + x, state.rounds_left_after, state.i_started), dtype=np.float64)
          for x in pts]
    pm = np.array([x.mean() for x in pts])
    mm = np.array([x.mean() for x in mv])
    worst_p = worst_paired(pts)
    worst_m = worst_paired(mv)
    bp = favourite(worst_p, [-len(x) for x in pts])
    # ties by match (a decided match, or the same match outcome in every shared world): the points
    # favourite if it is among them, else the points decide
    bm = favourite(worst_m, [(k != bp, -worst_p[k], -len(pts[k])) for k in range(len(pts))])
    names = [str(rollouts.move(k)) for k in range(len(pts))]
    rows = []
    ploss = [paired_difference(pts[bp], pts[k]) if k != bp else (0.0, 0.0) for k in range(len(pts))]
    mloss = [paired_difference(mv[bm], mv[k]) if k != bm else (0.0, 0.0) for k in range(len(pts))]
    for k in range(len(pts)):
        rows.append(MatchMoveValue(names[k], len(pts[k]), float(pm[k]), standard_error(pts[k]), *ploss[k],
                                   float(mm[k]), standard_error(mv[k]), *mloss[k]))
    # after the favourite, by the paired loss against it (the order of the losses printed)
    porder = sorted(range(len(rows)), key=lambda k: (k != bp, ploss[k][0]))
    for rank, k in enumerate(porder, 1):
        rows[k].points_rank = rank
    morder = sorted(range(len(rows)), key=lambda k: (k != bm, mloss[k][0], ploss[k][0]))
    for rank, k in enumerate(morder, 1):
        rows[k].match_rank = rank
    said = match_verdict(state, names, pts, mv, bp, bm, min_z) + table_caveat(eq, view.rules)
    return MatchAnalysis([rows[k] for k in morder], state, names[bp], names[bm], bp != bm, said)
