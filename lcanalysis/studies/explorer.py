"""The decision explorer's questions: rollout tables, outcome distributions of one turn, the
Analyze button and the endgame solver's principal lines."""

from __future__ import annotations

from typing import Any

import numpy as np

from lcanalysis.advisor import advise
from lcanalysis.analysis import Analysis
from lcanalysis.game.moves import Move
from lcanalysis.game.notation import mover_view
from lcanalysis.game.position import Position, PositionError
from lcanalysis.game.view import View
from lcanalysis.rollouts import Rollouts
from lcanalysis.search import solve

Source = str | dict | Position | View

# --- the decision explorer's analysis ----------------------------------------------------------


def _check_playable(view: View) -> None:
    if view.deck_count == 0:
        raise PositionError("the draw pile is empty: the round is over, there is no turn to analyze")
    if view.phase != "place":
        raise PositionError("the position is in the draw step: give a position where a whole turn is to be played")


def legal_moves(view: View) -> list[Move]:
    """Legal whole turns of the mover in a view (they do not depend on the hidden cards)."""
    _check_playable(view)
    unseen = view.unseen()
    u = view.opponent_unknown
    return view.complete(unseen[:u], unseen[u:]).legal_moves()


def rollout_analysis(source: Source, worlds: int = 100, seed: int = 0, keep_samples: bool = True) -> Analysis:
    """Every legal turn of the mover ranked by the mean final score difference over ``worlds``
    sampled deals of the unseen cards, both sides then played out by the heuristic agent.

    The same worlds are used for every turn (common random numbers). ``stderr`` is the standard
    error over worlds; ``extra["samples"]`` holds the per-world outcomes when ``keep_samples``.
    """
    if worlds < 2:
        raise ValueError(f"worlds must be at least 2 to give a standard error, got {worlds}")
    view = mover_view(source)
    moves = legal_moves(view)
    r = Rollouts(view, [m.code(view.colors) for m in moves], seed)
    r.sample(worlds)
    return r.analysis("rollout estimate (heuristic play-outs)",
                      method=f"flat Monte Carlo, {worlds} worlds, seed {seed}",
                      reason=f"heuristic rollouts over {worlds} worlds", keep_samples=keep_samples)


def move_outcomes(source: Source, move: str | Move, worlds: int = 200, seed: int = 0) -> np.ndarray:
    """Final score differences (mover minus opponent) after ``move`` in ``worlds`` sampled worlds."""
    view = mover_view(source)
    mv = move if isinstance(move, Move) else Move.parse(str(move), view.colors)
    legal = legal_moves(view)
    if mv not in legal:
        unseen = view.unseen()
        u = view.opponent_unknown
        reason = view.complete(unseen[:u], unseen[u:]).why_illegal(mv)
        raise PositionError(f"{mv} is not legal here: {reason}")
    r = Rollouts(view, [mv.code(view.colors)], seed)
    r.sample(worlds)
    return r.samples[0]


def analyze(source: Source, time_budget: float = 1.0, seed: int = 0, worlds: int | None = None) -> Analysis:
    """The explorer's Analyze button: the advisor when installed (``lcanalysis.advisor.advise``),
    otherwise heuristic rollouts (``rollout_analysis``) with ``worlds`` sampled worlds
    (default: about 60 worlds per second of ``time_budget``, at least 20)."""
    view = mover_view(source)
    _check_playable(view)
    if worlds is None:
        return advise(view, time_budget=time_budget, seed=seed)
    n = worlds if worlds is not None else max(20, int(60 * time_budget))
    return rollout_analysis(view, worlds=n, seed=seed)


def endgame_lines(position: Position, move: str | Move, max_stalls: int = 0, limit: int = 6) -> list[dict[str, Any]]:
    """The solver's principal lines after ``move`` in a full position: one line per card the
    move can draw (with its probability), each continued by both players' best turns, later
    draws taken from the top of the remaining pile. Needs ``lcanalysis.search.solve``.

    Returns dicts ``{"draw", "probability", "value", "line"}`` (value for the original mover).
    """
    if not isinstance(position, Position):
        raise PositionError("principal lines need a full position (both hands and the deck's cards)")
    mv = move if isinstance(move, Move) else Move.parse(str(move), position.colors)
    why = position.why_illegal(mv)
    if why:
        raise PositionError(f"{mv} is not legal here: {why}")
    me = position.to_move
    if mv.draws_from_deck:
        draws = [(str(c), float(p)) for c, p in position.deck_draw_outcomes()]
    else:
        draws = [("", 1.0)]
    out = []
    for card, p in draws:
        pos = position.copy()
        pos.push(mv, drawn=card or None)
        line = [str(mv) + (f" (draws {card})" if card else "")]
        value = float(pos.value_for_mover()) * (1 if pos.to_move == me else -1)
        first = True
        while not pos.is_over() and len(line) < limit:
            ana = solve(pos, max_stalls=max_stalls)
            if ana.best is None:
                break
            v = ana.best.value * (1 if pos.to_move == me else -1)
            if first:
                value, first = v, False
            top = pos.deck[0] if pos.deck else None
            line.append(ana.best.move + (f" (draws {top})" if top is not None and ana.best.move.endswith("/D") else ""))
            pos.push(ana.best.move)
        out.append({"draw": card, "probability": p, "value": value, "line": " ".join(line)})
    return out
