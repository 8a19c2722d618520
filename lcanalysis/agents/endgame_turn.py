"""The search agent's turn in the round's last cards: the exact endgame solver's best turn, or the
advisor's endgame search deepened within a node budget; None where they refuse, stop or fall
short, and the play-outs decide. The search loads on first use: agents that never search start
without it."""

from __future__ import annotations

import time

from lcanalysis.analysis import Analysis
from lcanalysis.game.moves import Move
from lcanalysis.game.view import View


def _solver_move(view: View, seed: int, deck_only: bool = False, deadline: float | None = None) -> Move | None:
    """The exact endgame solver's best turn (``deck_only``: its best that draws from the deck), or
    None for a position the solver refuses, or that it did not finish by ``deadline`` (a
    ``time.perf_counter()``, None: no clock; the compiled search stops there, ``common.abort_at``)."""
    from lcanalysis.search import endgame_analysis  # on first use: the agents that never search start without it

    seconds = None if deadline is None else deadline - time.perf_counter()
    if seconds is not None and seconds <= 0:  # no time left to start it: the play-outs, at once
        return None
    try:
        analysis = endgame_analysis(view, seed=seed, seconds=seconds)
    except (ValueError, RuntimeError):  # refused, or stopped by the clock (SearchBudgetExceeded): sampling
        return None
    return _best_listed(analysis, view, deck_only)


def _best_listed(analysis: Analysis, view: View, deck_only: bool) -> Move | None:
    """The first listed turn (``deck_only``: of those that draw from the deck), the answer's ranking
    being best first with ties in the canonical order (``analysis.ranked``; a max over the values
    named another of two turns that tie to rounding), leaving out a turn valued only from above
    (beaten by the best in some world); None if none."""
    moves = [m for m in analysis.moves if (not deck_only or m.move.endswith("/D")) and not m.upper_bound]
    if not moves:
        return None
    return Move.parse(moves[0].move, view.colors)


def _deepened_move(view: View, seed: int, nodes: int, min_stalls: int = 1, deck_only: bool = False,
                   deadline: float | None = None) -> Move | None:
    """The best turn of the advisor's endgame search within ``nodes`` and by ``deadline`` (a
    ``time.perf_counter()``, None: no clock) (``deck_only``: its best that draws from the deck, if its
    value is exact), or None when it did not reach ``min_stalls`` stalls each."""
    from lcanalysis.search.common import SearchError
    from lcanalysis.search.endgame import converged_endgame

    try:
        analysis = converged_endgame(view, max_nodes=nodes, seed=seed, runner_ups=False, min_stalls=min_stalls,
                                     deadline=deadline)
    except (SearchError, ValueError, RuntimeError):  # out of budget, or a position it refuses
        return None
    if analysis.bounds["max_stalls"] < min_stalls:  # (only called with 3 cards or more: stalls always matter)
        return None  # too few stalls to trust: blind to drawing from a pile to gain turns
    return _best_listed(analysis, view, deck_only)
