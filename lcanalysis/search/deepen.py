"""Answers under a time or node budget, and a bracket on the unbounded game's value.

``solve_deepening`` solves with stall budget 0, 1, 2, ... (or horizon 1, 2, 3, ...) and
returns the deepest level that finished within the budget: exact under the bounds it names.

``bracket`` holds the value of the game *without any bound* between two finite games, under
any convention for endless play: ``W_me``, the value when the player to move must always draw
from the draw pile after this turn (the opponent may draw from discard piles without limit),
and ``W_opp``, the value when only the opponent must. Either player can end the round within
about ``2d`` turns by drawing from the pile, so both are finite; the player to move can
secure ``W_me`` and the opponent can hold them to ``W_opp``, so ``W_me <= V <= W_opp`` for every
turn, and where the two meet the value is pinned.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Any

from lcanalysis.analysis import Analysis
from lcanalysis.core import first_compile
from lcanalysis.game.notation import read_position
from lcanalysis.options import check_flag
from lcanalysis.search.common import MAX_NODES, MAX_TL, SearchError, check_budget, check_seconds
from lcanalysis.search.perfect import SearchBudgetExceeded, Tables, solve_perfect


def solve_deepening(target, seconds=None, nodes=None, *, on="stalls", max_stalls=None, max_turns=None,
                    max_level=30, leaf="as-is", tables=None, with_bracket=True, progress=None) -> Analysis:
    """The deepest exact answer reached within ``seconds`` and/or ``nodes``.

    ``on="stalls"``: stall budgets 0, 1, 2, ... up to ``max_level`` (with the fixed horizon
    ``max_turns`` if given: within T turns the player to move takes ceil(T/2) of them, so no player
    can stall more often, and that level is the horizon alone, with no stall cap, named so in
    ``bounds``; no deeper level is tried). ``on="turns"``: horizons 1, 2, 3, ... up to ``max_level`` (with the
    fixed stall budget ``max_stalls``, or none). The answer's ``bounds`` say which level it
    is; ``notes`` list every level tried with its nodes and seconds, and ``nodes`` is their sum (the
    level stopped by the budget and the bracket included). A full position gives
    perfect-information values, a view gives view values (all splits enumerated).
    ``with_bracket``: for a full position, spend what is left of the budget on ``bracket``;
    when it finishes, ``bounds["bracket"]`` holds ``[W_me, W_opp]`` around the unbounded value.
    Deepening on stalls tries the bracket early, once the level with as many stalls each as cards
    in the pile has finished: every stall budget of 1 or more values each turn within it, so where
    it pins every turn no deeper level can differ, and the deepening stops there (``bounds`` without
    ``max_stalls``; a note says why).
    ``progress``: called with a line of text as each level starts and ends (the command line
    prints them on standard error). Every level and the bracket are stopped inside the search when
    ``nodes`` or ``seconds`` run out; when not even the first level finishes within them,
    ``SearchBudgetExceeded`` is raised (its ``seconds`` set when it was the clock).
    """
    from lcanalysis.game.view import View

    pos = read_position(target)
    if seconds is None and nodes is None:
        raise SearchError("give a budget: seconds, nodes, or both")
    seconds = check_seconds(seconds)
    nodes = check_budget("nodes", nodes, 1, MAX_NODES)
    max_level = check_budget("max_level", max_level, 0, 1000)
    if on not in ("stalls", "turns"):
        raise SearchError(f"on must be 'stalls' or 'turns', got {on!r}")
    with_bracket = check_flag("with_bracket", with_bracket, SearchError)  # ("no" would spend the budget on it)
    if progress is not None and not callable(progress):  # (else Python's "not callable" as a level starts)
        raise SearchError(f"progress must be a function taking a line of text (print will do), got {progress!r}")
    # the question itself (the leaf, the mover's view, a round not over) before the first progress line
    from lcanalysis.search.view_value import check_question

    check_question(pos, max_stalls if on == "turns" else None, max_turns if on == "stalls" else 1, leaf,
                   deepening=True)
    uncapped = None  # the stall level from which no stall cap binds within the horizon
    if on == "stalls" and max_turns is not None:
        turns = check_budget("max_turns", max_turns, 1, MAX_TL)
        assert turns is not None
        uncapped = (turns + 1) // 2  # the mover's turns in it
        max_level = min(max_level, uncapped)
    # after the checks: a bad argument is refused at once, not after a first compile of 1-2 minutes
    first_compile.ready(first_compile.SOLVER)  # (compiled once, saying so: core.first_compile)

    def stall_cap(level: int) -> int | None:
        return None if uncapped is not None and level >= uncapped else level

    def name(level: int) -> str:
        if on == "stalls" and stall_cap(level) is None:
            return f"stalls={level} (no cap; in {max_turns} turns nobody stalls more often)"
        return f"{on}={level}"
    if isinstance(pos, View):
        from lcanalysis.search.view_value import solve_buried_view, solve_view

        def run(level: int, budget: int, clock: float | None) -> Analysis:
            stalls, turns = (stall_cap(level), max_turns) if on == "stalls" else (max_stalls, level)
            if pos.buried_count:  # every fill of the buried pile cards, with its probability
                return solve_buried_view(pos, stalls, turns, leaf, max_nodes=budget, seconds=clock)
            return solve_view(pos, stalls, turns, leaf, max_nodes=budget, seconds=clock)
    else:
        if tables is None:
            tables = Tables(bits=22, solo_bits=20)

        def run(level: int, budget: int, clock: float | None) -> Analysis:
            if on == "stalls":
                return solve_perfect(pos, stall_cap(level), max_turns, leaf, tables=tables, max_nodes=budget,
                                     seconds=clock)
            return solve_perfect(pos, max_stalls, level, leaf, tables=tables, max_nodes=budget, seconds=clock)

    start = time.perf_counter()
    used = 0
    best: Analysis | None = None
    notes: list[str] = []
    first = 0 if on == "stalls" else 1
    with_bracket = with_bracket and not isinstance(pos, View) and leaf == "as-is" and max_turns is None
    b: Bracket | None = None  # the bracket, once finished
    # The bracket early, once: every stall budget s >= 1 gives each turn a value within its
    # W_me..W_opp, so where it pins every turn no deeper level can differ. Its two games are
    # sub-games of the level with as many stalls each as cards in the pile (whoever must draw from
    # the pile ends the round within that many of their turns), so it is tried after that level.
    early = pos.deck_count if with_bracket and on == "stalls" else None
    for level in range(first, max_level + 1):
        budget = 0 if nodes is None else nodes - used
        left = None if seconds is None else seconds - (time.perf_counter() - start)
        if best is not None and ((nodes is not None and budget <= 0) or (left is not None and left <= 0)):
            break
        if progress is not None:
            progress(f"{name(level)}: solving")
        try:  # every level, the first too, is stopped by the clock inside the search
            a = run(level, max(budget, 1) if nodes is not None else 0, left)
        except SearchBudgetExceeded as exc:
            if best is None:  # not even the first level finished within the budget: there is no answer
                raise SearchBudgetExceeded(used + exc.nodes, None if exc.seconds is None else seconds) from None
            used += exc.nodes
            notes.append(f"{name(level)}: stopped by the budget after {exc.nodes} nodes")
            if tables is not None:
                tables.clear()  # entries written by an unfinished search are not trusted
            break
        used += a.nodes
        notes.append(f"{name(level)}: {a.nodes} nodes, {a.seconds:.3f} s")
        if progress is not None:
            # the level's value says what it is: exact, or an estimate with its error (a sampled view's splits)
            how = "" if a.best is None else f" ({a.best.uncertainty(3)})"
            progress(f"{name(level)}: done, best {a.best.move if a.best else '-'} {a.value:+.3f}{how}, "
                     f"{a.nodes} nodes, {a.seconds:.2f} s")
        best = a
        if early is not None and level >= max(1, early):
            early = None  # tried once
            cap = EARLY_BRACKET_SCALE * a.nodes + EARLY_BRACKET_FLOOR
            b, spent = _try_bracket(pos, nodes, used, seconds, start, progress, cap=cap)
            used += spent or 0
            if b is None and spent is not None:
                notes.append(f"bracket W_me..W_opp after stalls={level}: not finished within {cap} nodes a game "
                             f"({spent} nodes); deepening on")
            if b is not None and all(pinned(lo, hi) for lo, hi in b.by_move().values()):
                why = ("the bracket pins every turn (W_me = W_opp) and every stall budget of 1 or more lies within "
                       "it, so these values hold with no cap on discard-pile draws" + (
                           f"; stalls={level + 1} and deeper not searched: none can differ" if level < max_level
                           else ""))
                notes.append(why)
                if progress is not None:
                    progress(f"stopped: {why}")
                best.bounds.pop("max_stalls", None)  # these values hold with no cap on discard-pile draws
                break
        if seconds is not None and time.perf_counter() - start >= seconds:
            break
    assert best is not None
    if with_bracket and b is None:
        b, spent = _try_bracket(pos, nodes, used, seconds, start, progress)
        used += spent or 0
        if b is None and spent is not None:
            notes.append("bracket W_me..W_opp: not reached within the budget")
    if b is not None:
        best.bounds["bracket"] = [b.low.value, b.high.value]
        notes.append(f"the unbounded game's value lies in [{b.low.value:.4f}, {b.high.value:.4f}]"
                     f" (W_me, W_opp){'; pinned' if b.pinned else ''}")
    best.notes = notes + best.notes
    best.nodes = used  # every node searched, in the levels and the bracket alike (``notes`` give each level's)
    best.seconds = time.perf_counter() - start
    best.method = f"iterative deepening on {on}; " + best.method
    return best


#: the early bracket's node cap for each of its two games: this many times the nodes of the level
#: after which it is tried (a level that contains both games; they took 0.04-0.6x its nodes with 1
#: and 2 cards left), plus ``EARLY_BRACKET_FLOOR``; one that does not finish within it is tried
#: again after the deepest level, with what is left of the budget, as without it
EARLY_BRACKET_SCALE = 2
EARLY_BRACKET_FLOOR = 100_000


def _try_bracket(pos, nodes, used, seconds, start, progress, cap=None) -> tuple[Bracket | None, int | None]:
    """``bracket(pos)`` within what is left of the deepening's budget (each game at most ``cap``
    nodes, when given): the bracket (None when it did not finish) and the nodes spent (None when
    nothing was left to try it with)."""
    left_nodes = (nodes - used) if nodes is not None else None
    left = None if seconds is None else seconds - (time.perf_counter() - start)
    if (left_nodes is not None and left_nodes <= 0) or (left is not None and left <= 0):
        return None, None
    per_game = 0 if left_nodes is None else max(left_nodes // 2, 1)
    if cap is not None:
        per_game = cap if per_game == 0 else min(per_game, cap)
    if progress is not None:
        progress("bracket W_me..W_opp around the unbounded value: solving")
    try:
        b = bracket(pos, max_nodes=per_game, seconds=left)
    except SearchBudgetExceeded as exc:
        if progress is not None:
            progress(f"bracket W_me..W_opp: not finished after {exc.nodes} nodes")
        return None, exc.nodes
    return b, b.low.nodes + b.high.nodes


def pinned(low: float, high: float) -> bool:
    """Whether ``W_me`` and ``W_opp`` meet, fixing the value with no cap on stalling (``Bracket.pinned``;
    the command line's headline reads a JSON answer's ``bounds["bracket"]`` with it)."""
    return abs(high - low) < 1e-9


@dataclass
class Bracket:
    """``low`` (W_me) and ``high`` (W_opp) per turn: the unbounded game's value lies between."""

    low: Analysis
    high: Analysis
    notes: list[str] = field(default_factory=list)

    @property
    def value_range(self) -> tuple[float, float]:
        return (self.low.value, self.high.value)

    @property
    def pinned(self) -> bool:
        """True when the bracket fixes the position's value with no cap on stalling."""
        return pinned(self.low.value, self.high.value)

    def by_move(self) -> dict[str, tuple[float, float]]:
        lows = {m.move: m.value for m in self.low.moves}
        return {m.move: (lows[m.move], m.value) for m in self.high.moves if m.move in lows}

    def to_json(self) -> dict[str, Any]:
        return {
            "low": self.low.value,
            "high": self.high.value,
            "pinned": self.pinned,
            "moves": [{"move": k, "low": lo, "high": hi} for k, (lo, hi) in
                      sorted(self.by_move().items(), key=lambda kv: -kv[1][1])],
        }


def bracket(position, max_nodes=0, tables=None, seconds=None) -> Bracket:
    """W_me <= V <= W_opp for every turn of a full position, with no bound on stalling.

    W_me: after this turn the player to move never draws from a discard pile again, the
    opponent may as often as they like; W_opp: the other way round. The root turn itself may
    draw from a discard pile in both. ``max_nodes`` caps each of the two searches, ``seconds``
    (None: none) both together, by the clock; ``SearchBudgetExceeded`` when either runs out.
    """
    pos = read_position(position)
    from lcanalysis.game.view import View

    if isinstance(pos, View):
        raise SearchError("bracket needs a full position")
    me = pos.to_move
    low_st = (0, -1) if me == 0 else (-1, 0)
    high_st = (-1, 0) if me == 0 else (0, -1)
    seconds = check_seconds(seconds)  # a float: the clock's timer thread takes no numpy number
    end = None if seconds is None else time.perf_counter() + seconds

    def left() -> float | None:
        return None if end is None else max(end - time.perf_counter(), 1e-6)

    low = solve_perfect(pos, stalls=low_st, root_free=True, tables=tables or Tables(bits=22), max_nodes=max_nodes,
                        seconds=left())
    try:
        high = solve_perfect(pos, stalls=high_st, root_free=True, tables=tables or Tables(bits=22),
                             max_nodes=max_nodes, seconds=left())
    except SearchBudgetExceeded as exc:  # the nodes of both searches, as a finished bracket counts them
        raise SearchBudgetExceeded(low.nodes + exc.nodes, exc.seconds) from None
    low.kind = "perfect-information value (W_me: only the player to move must draw from the pile)"
    high.kind = "perfect-information value (W_opp: only the opponent must draw from the pile)"
    return Bracket(low, high)
