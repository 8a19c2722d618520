"""Exact endgame search: expectiminimax over the known remainder of the deck.

Three values, each named by what it is (docs/spec/interchange.md "Endgame values", KNOWLEDGE E1-E3):

- ``solve_perfect`` — **perfect-information value** (E1) of every turn of a full position:
  E[score of the player to move - score of the opponent], both hands known, the draw pile's
  order random; exact under a stall budget (``max_stalls``) and/or a horizon (``max_turns``).
- ``solve_view`` — **view value** (E2) of every turn from a player's view: E1 averaged over
  every split of the unseen cards (enumerated exactly, or sampled with a seed and a
  standard error).
- ``solve_belief`` — **belief-optimal value** (E3): the player's expected final score playing
  on what they actually know, with no more discard-pile draws.

``solve`` picks E1 for a ``Position`` and E2 for a ``View``. ``solve_deepening`` answers under a
time or node budget (iterative deepening on the stall budget or the horizon) and ``bracket``
holds the unbounded game's value between W_me and W_opp. Every answer is an ``Analysis``
with the turns best first.
"""

from __future__ import annotations

from lcanalysis.core import first_compile
from lcanalysis.game.notation import read_position, read_view
from lcanalysis.options import SOLVE_MAX_SPLITS, check_seed
from lcanalysis.search.belief import solve_belief
from lcanalysis.search.common import (
    SearchError,
    check_max_nodes,
    check_max_splits,
    check_seconds,
    check_tables,
    heartbeat,
)
from lcanalysis.search.deepen import Bracket, bracket, solve_deepening
from lcanalysis.search.perfect import SearchBudgetExceeded, Tables, solve_perfect
from lcanalysis.search.view_value import solve_buried_view, solve_view


def solve(target, max_stalls=None, max_turns=None, leaf="as-is", *, samples=None, seed=0, max_splits=SOLVE_MAX_SPLITS,
          tables=None, workers=None, max_nodes=0, seconds=None, progress=None):
    """Every legal turn's value: perfect-information value for a full position, view value for a view.

    Returns an ``Analysis``, the turns best first: each value in points of the round's final score
    difference (the player to move's score less the opponent's), exact under the bounds it states
    (``bounds``; ``exact`` True, ``stderr`` 0) when the whole position is searched or, for a view,
    every split of the unseen cards is solved; an estimate with its standard error when a view's
    splits are sampled (``samples``, or more than ``max_splits``); a depth-limited estimate, with no
    standard error, with ``leaf="heuristic"``. ``kind`` names which value it is.

    ``target``: a ``Position``, a ``View``, or anything ``notation.read_position`` reads (JSON
    text or dict, the one-line string, a path). Bounds as in ``solve_perfect``; ``samples``,
    ``seed`` and ``workers`` (threads for the splits) apply to a view (see ``solve_view``);
    with a full position they are not used, but a bad one is refused all the same.
    ``max_nodes`` (0 or None: none) caps the search nodes of the whole answer and ``seconds``
    (None: none) its time, by the clock; when either runs out the search stops and raises
    ``SearchBudgetExceeded`` (its ``nodes``: how many were searched). ``progress``: called with a
    line of text after a second of searching and every few seconds after (``print`` will do), so
    that a long solve is never silent: the nodes searched so far (of ``max_nodes``) and, for a view,
    the samples, splits or fills solved of their total; ``solve_deepening`` answers within a budget instead.
    (None: no lines; ``lc.solve``, the front door, says them on standard error by default, and takes
    ``progress=False`` for none.)
    """
    from lcanalysis.game.view import View
    from lcanalysis.search.view_value import check_question, check_workers
    from lcanalysis.search.view_value import solve_view as _view

    # a View object is checked again (read_view): it may have been changed since it was made
    pos = read_view(target) if isinstance(target, View) else read_position(target)
    max_nodes = check_max_nodes(max_nodes)
    seconds = check_seconds(seconds)  # a float: the clock's timer thread takes no numpy number
    if progress is not None and not callable(progress):
        raise SearchError(f"progress must be a function taking a line of text (print will do), got {progress!r}")
    if samples is not None and not isinstance(pos, View):
        raise SearchError("samples applies to a player's view; a full position is solved exactly")
    check_workers(workers)
    check_tables(tables, Tables)
    # a view's options, checked for a full position too (where they are not used): a bad one is a mistake
    check_seed("seed", seed, SearchError)
    check_max_splits(max_splits)
    check_question(pos, max_stalls, max_turns, leaf, samples=samples, max_splits=max_splits)
    # after the checks: a bad argument is refused at once, not after a first compile of 1-2 minutes
    first_compile.ready(first_compile.SOLVER)  # (compiled once, saying so: core.first_compile)
    # each line: the bounds, the worlds solved of their total (a view's), the nodes searched (of max_nodes)
    with heartbeat(progress, lambda: f"solving (max_stalls={max_stalls}, max_turns={max_turns})", budget=max_nodes):
        if isinstance(pos, View) and pos.buried_count:
            return solve_buried_view(pos, max_stalls, max_turns, leaf, samples=samples, seed=seed,
                                     max_splits=max_splits, tables=tables, workers=workers, max_nodes=max_nodes,
                                     seconds=seconds)
        if isinstance(pos, View):
            return _view(pos, max_stalls, max_turns, leaf, samples=samples, seed=seed, max_splits=max_splits,
                         tables=tables, workers=workers, max_nodes=max_nodes, seconds=seconds)
        return solve_perfect(pos, max_stalls, max_turns, leaf, tables=tables, max_nodes=max_nodes, seconds=seconds)


def endgame_analysis(view, seed=0, max_stalls=None, max_nodes=0, seconds=None):
    """The exact answer the advisor and the search agent hand over to near the end of a round: the
    view value (every split of the unseen cards enumerated), each player allowed ``max_stalls``
    more discard-pile draws (default: 1 with two cards or fewer in the draw pile, where it costs
    well under a second, else 0: then only the turns that draw from the deck are listed).
    ``max_nodes`` and ``seconds`` as in ``solve``, which checks them all before the solver's first
    compile (``first_compile.ready``)."""
    if max_stalls is None:
        max_stalls = 1 if view.deck_count <= 2 else 0
    return solve(view, max_stalls=max_stalls, seed=seed, max_nodes=max_nodes, seconds=seconds)


__all__ = [
    "Bracket",
    "SearchBudgetExceeded",
    "SearchError",
    "Tables",
    "bracket",
    "endgame_analysis",
    "solve",
    "solve_belief",
    "solve_deepening",
    "solve_perfect",
    "solve_view",
]
