"""Playing agents: each sees one player's ``View`` (and the public history in it), never hidden cards.

Pick one by name::

    >>> from lcanalysis.agents import make_agent, AGENTS
    >>> AGENTS
    ('random', 'greedy', 'heuristic', 'stalling', 'search', 'best', 'match')
    >>> agent = make_agent("heuristic")

``agent.choose(view, seed, time_ms=None)`` returns a ``Move`` legal in the view. The same view
and seed give the same move. See docs/agents.md for the designs and their measured strength.
"""

from __future__ import annotations

import importlib
import inspect
import math
import time
from collections.abc import Callable
from typing import Any

import numpy as np

from lcanalysis.analysis import Analysis
from lcanalysis.core import policy as P
from lcanalysis.game.cards import whole_number
from lcanalysis.game.moves import Move
from lcanalysis.game.view import View
from lcanalysis.rollouts import FAST_ROLLOUTS_PER_MS, ROLLOUTS_PER_MS, Rollouts, policy_ranking, some_state

MAX_ENDGAME_NODES = 10**9
#: the most cards left for the ``endgame`` option: the solver enumerates every split of the unseen
#: cards, with no budget; at 6 cards that takes at most about 0.2 s, at 8 several seconds, and at
#: 20 it did not finish (a bot asked for ``endgame=100`` never answered)
MAX_ENDGAME_CARDS = 6
MAX_RATE = 1000.0  # play-outs a millisecond of budget: far above any machine's
MAX_TIME_MS = 3_600_000.0  # an hour a turn: no referee's clock allows more, and the play-outs grow with it
AGENTS = ("random", "greedy", "heuristic", "stalling", "search", "best", "match")

class AgentError(ValueError):
    """An unknown agent name or option."""


def _as_seed(rng_or_seed: Any) -> int:
    if rng_or_seed is None:
        return 0
    if isinstance(rng_or_seed, np.random.Generator):
        return int(rng_or_seed.integers(2**31 - 1))
    number = whole_number(rng_or_seed)
    if number is None:
        raise AgentError(f"the seed must be a whole number, a numpy Generator or None, got {rng_or_seed!r}")
    return number % (2**31 - 1)


def checked_number(agent: str, key: str, value: Any, low: float, high: float, above: bool = False) -> float:
    """``value`` as a float once it is a finite number from ``low`` (excluded with ``above``) to
    ``high``; else an ``AgentError`` naming the agent, the option and the range."""
    try:  # a string is refused, not read: "5" and "1e3" would pass float(), as whole options refuse them
        x = math.nan if isinstance(value, (str, bytes)) else float(value)
    except (TypeError, ValueError):
        x = math.nan
    if isinstance(value, bool) or not math.isfinite(x) or x > high or (x <= low if above else x < low):
        bound = f"above {low:,.10g}" if above else f"from {low:,.10g}"
        raise AgentError(f"{agent}: {key} must be a number {bound} to {high:,.10g}, got {value!r}")
    return x


def checked_whole(agent: str, key: str, value: Any, low: int, high: int) -> int:
    """``value`` once it is a whole number from ``low`` to ``high`` (2.5 is refused, not cut to 2);
    else an ``AgentError`` naming the agent, the option and the range."""
    number = whole_number(value)
    if number is None and isinstance(value, (float, np.floating)) and math.isfinite(value) and value == int(value):
        number = int(value)  # 8.0 (a number read back from JSON) is 8
    if number is None or not low <= number <= high:
        raise AgentError(f"{agent}: {key} must be a whole number from {low:,} to {high:,}, got {value!r}")
    return number


def checked_switch(agent: str, key: str, value: Any) -> bool:
    """An on/off option: 0 or 1 (``False``/``True``); anything else is an ``AgentError`` (a 7 or a 0.5
    read as "on" would hide a typo)."""
    if isinstance(value, bool) or (isinstance(value, (int, float)) and value in (0, 1)):
        return bool(value)
    raise AgentError(f"{agent}: {key} is a switch: 0 (off) or 1 (on), got {value!r}")


def _check_budget(agent: str, time_ms: Any) -> None:
    """A turn's ``time_ms`` checked as the search agents check theirs, by an agent that does not need one:
    a budget of -5 or "fast" is a caller's mistake whichever agent it reaches."""
    if time_ms is not None:
        checked_number(agent, "time_ms", time_ms, 0.0, MAX_TIME_MS, above=True)


def _check_view(view: Any) -> View:
    if not isinstance(view, View):
        hint = " (a full Position: give position.view(position.to_move))" if hasattr(view, "view") else ""
        raise AgentError(f"an agent takes a View (what one player knows), got {type(view).__name__}{hint}")
    if view.viewer != view.to_move:
        raise AgentError("the view is not the view of the player to move")
    if view.is_over():
        raise AgentError(f"the round is over ({view.over_reason()}): no turn to choose")
    return view


class Agent:
    """Base class: ``choose(view, seed, time_ms=None) -> Move``."""

    name = "agent"
    #: the options ``make_agent`` built the agent with, which its repr names; None when built otherwise
    made_with: dict[str, Any] | None = None

    def choose(self, view: View, rng_or_seed: Any = None, time_ms: float | None = None) -> Move:
        raise NotImplementedError

    def __repr__(self) -> str:
        # make_agent('search') for an agent of other options, or for a class make_agent does not build
        # (a user's own agent said make_agent('agent')), would name another agent
        if self.made_with is None:
            return f"<{type(self).__name__} {self.name!r}>"
        return f"make_agent({self.name!r}{''.join(f', {k}={v!r}' for k, v in self.made_with.items())})"


class RandomAgent(Agent):
    """Every legal whole turn equally likely (discard-pile draws included: it stalls)."""

    name = "random"

    def choose(self, view: View, rng_or_seed: Any = None, time_ms: float | None = None) -> Move:
        view = _check_view(view)
        _check_budget(self.name, time_ms)
        return Move.from_code(int(P.random_move(some_state(view), _as_seed(rng_or_seed))), view.colors)


class PolicyAgent(Agent):
    """One ply on the fast expedition estimate with a parameter vector (``core.policy``'s docstring)."""

    def __init__(self, params: np.ndarray) -> None:
        self.params = np.asarray(params, dtype=np.float64)

    def choose(self, view: View, rng_or_seed: Any = None, time_ms: float | None = None) -> Move:
        view = _check_view(view)
        _as_seed(rng_or_seed)  # unused (the policy is deterministic), but a bad one is still an error
        _check_budget(self.name, time_ms)  # the same
        return Move.from_code(int(P.policy_move(some_state(view), self.params)), view.colors)


class GreedyAgent(PolicyAgent):
    """Plays what improves its own hand's expeditions most this turn; knows only its hand and
    the table (no card counting, no thought for the opponent); draws from the deck unless a
    discard-pile card improves a colour at once."""

    name = "greedy"

    def __init__(self) -> None:
        super().__init__(P.GREEDY_PARAMS)


class HeuristicAgent(PolicyAgent):
    """One ply on the expedition evaluator with card counting, the pressure of too many cards for
    the turns left, what a discard hands the opponent, denial draws, and a value for the deck."""

    name = "heuristic"

    def __init__(self, **params: float) -> None:
        p = P.HEURISTIC_PARAMS.copy()
        names = ("A", "QF", "B", "DANGER", "DANGER_NEW", "DENY", "DECK", "STALL", "CROWD", "PILE_MIN", "TURN")
        for key, value in params.items():
            if key not in names:
                raise AgentError(f"{self.name}: unknown parameter {key!r}; known: {', '.join(names)}")
            p[names.index(key)] = checked_number(self.name, key, value, -1e6, 1e6)
        super().__init__(p)


class StallingAgent(HeuristicAgent):
    """The heuristic that also draws from a discard pile to gain turns when its hand holds more
    wanted cards than the turns left (``TURN`` = 0.5, ``core.policy.STALLING_PARAMS``)."""

    name = "stalling"

    def __init__(self, **params: float) -> None:
        super().__init__(**{"TURN": float(P.STALLING_PARAMS[P.P_TURN]), **params})


class SearchAgent(Agent):
    """Determinized flat Monte Carlo with heuristic rollouts, common random numbers, and caution.

    Each turn: the heuristic ranks every legal turn and keeps the best ``width``; each kept turn
    is played in the same sampled worlds (the opponent's unknown cards and the deck order drawn
    from the view: uniformly, or with ``bias`` > 1 favouring cards the opponent can still use),
    and both sides play the round out with the heuristic policy, each seeing only its own cards.
    Half the budget goes to every kept turn, half to the best ``finalists`` plus the heuristic's
    own choice; with ``halving`` (non-zero), the budget is spread by successive halving instead
    (``Rollouts.halve``, as the advisor does), the heuristic's choice kept to the end. The agent
    leaves the heuristic's choice only for a turn whose paired difference
    (same worlds) beats it by more than ``caution`` standard errors: picking the largest of
    several noisy means otherwise favours lucky estimates over the heuristic's sound default.
    With ``endgame`` cards or fewer in the deck (at most ``MAX_ENDGAME_CARDS``) it plays the exact
    endgame solver's best turn
    (view value, one discard-pile draw each, ``search.endgame_analysis``); with
    ``endgame_nodes`` > 0 and more than 2 cards left, the advisor's endgame search instead
    (``search.endgame.converged_endgame``: deepened on the stall budget within that many nodes,
    a count, so the same view and seed give the same move), falling back to the play-outs when
    that search did not reach ``endgame_stalls`` (default 1) stalls each (at 3 cards one stall
    each is not always enough: docs/agents.md, "Screening a change"). ``stall`` (0: today's
    ``search``) is the policy's ``TURN`` weight: with it, the rollouts (and the ranking of the
    candidates) draw from a discard pile to gain turns when the hand is crowded.
    ``break_loops`` (non-zero): after ``LOOP_TURNS`` turns in a row with no card played and no
    deck draw (both sides shuffling cards between the piles, which can go on until the turn
    cap), only turns that draw from the deck are considered.
    ``hand_model`` (non-zero): the worlds deal the opponent's unknown cards from the learned
    opponent-hand model (``lcanalysis.hand_model``, which reads only the view) instead of uniformly.
    ``streams`` (non-zero): in each world every player draws from a deck stream of their own
    (``core.policy.stream_move``), so a candidate that takes a discard-pile card does not hand
    the later deck cards to the other player, and the paired differences between candidates
    are less noisy (the same chance law of the draws).
    ``cap`` (0: off) compares turns by the final score difference capped at ``±cap`` points in
    each world, not by the difference itself: a round is won or lost, and a margin beyond the
    cap buys nothing more (small caps approach the winning chance, large ones the points).

    ``time_ms`` sets the number of rollouts (``rate`` per ms, default ``ROLLOUTS_PER_MS``; not a
    wall clock), so the same view and seed give the same move on any machine. ``rate`` is the
    agent's speed in play-outs a millisecond of budget: the default is the rate of the original
    ``search``, kept as the reference; ``best`` uses the faster play-outs of today's policy.
    ``choose(..., deadline=t)`` also keeps to the wall clock: the play-outs stop at
    ``time.perf_counter()`` ``t`` even short of that count (after ``min_worlds`` worlds a turn at
    least), as the bot protocol's ``time_ms`` asks (the time allowed, ``agents.protocol``), and so
    does the exact endgame solver (of ``endgame`` cards or fewer) and the advisor's endgame search of
    ``endgame_nodes``: stopped there unfinished, they fall back to the play-outs (``min_worlds``
    worlds each, the deadline being past); where they finish, the move is theirs, as without one.
    """

    name = "search"

    def __init__(self, width: int = 8, time_ms: float = 100.0, endgame: int = 2, min_worlds: int = 8,
                 max_worlds: int = 2000, bias: float = 1.0, caution: float = 2.0, finalists: int = 3,
                 stall: float = 0.0, break_loops: float = 0, hand_model: float = 0,
                 endgame_nodes: int = 0, endgame_stalls: int = 1, cap: float = 0, streams: float = 0,
                 halving: float = 0, rate: float = ROLLOUTS_PER_MS) -> None:
        from lcanalysis.search.endgame import MAX_LEVEL  # the search loads with the first agent that uses it

        self.width = checked_whole(self.name, "width", width, 1, 1000)
        self.time_ms = checked_number(self.name, "time_ms", time_ms, 0.0, MAX_TIME_MS, above=True)
        self.rate = checked_number(self.name, "rate (play-outs a millisecond)", rate, 0.0, MAX_RATE, above=True)
        self.endgame = checked_whole(self.name, "endgame", endgame, 0, MAX_ENDGAME_CARDS)
        self.endgame_nodes = checked_whole(self.name, "endgame_nodes", endgame_nodes, 0, MAX_ENDGAME_NODES)
        self.endgame_stalls = checked_whole(self.name, "endgame_stalls", endgame_stalls, 1, MAX_LEVEL)
        self.cap = checked_number(self.name, "cap", cap, 0.0, 1000.0)  # points; 0 is off
        self.streams = checked_switch(self.name, "streams", streams)
        self.halving = checked_switch(self.name, "halving", halving)
        if self.halving and self.cap:
            raise AgentError(f"{self.name}: halving ranks turns by their mean points, cap by capped points: give one")
        self.min_worlds = checked_whole(self.name, "min_worlds", min_worlds, 1, 10**7)
        self.max_worlds = checked_whole(self.name, "max_worlds", max_worlds, self.min_worlds, 10**7)
        self.bias = checked_number(self.name, "bias", bias, 0.0, 1000.0, above=True)
        self.caution = checked_number(self.name, "caution", caution, 0.0, 1000.0)
        self.finalists = checked_whole(self.name, "finalists", finalists, 1, 1000)
        self.params = P.HEURISTIC_PARAMS.copy()
        self.params[P.P_TURN] = checked_number(self.name, "stall", stall, 0.0, 10.0)  # a weight
        self.break_loops = checked_switch(self.name, "break_loops", break_loops)
        self.hand_model = checked_switch(self.name, "hand_model", hand_model)
        if self.hand_model and self.bias != 1.0:
            raise AgentError(f"{self.name}: hand_model and bias are two ways to deal the opponent's cards: give one")

    def candidates(self, view: View) -> np.ndarray:
        codes, scores = policy_ranking(view, self.params)
        order = np.argsort(-scores, kind="stable")
        if self.break_loops and _stalling_loop(view):  # both sides only discard and take pile cards: draw
            deck = [k for k in order if codes[k] % (view.colors + 1) == 0]
            order = np.array(deck or list(order), dtype=np.int64)
        return codes[order[: self.width]].copy()

    def choose(self, view: View, rng_or_seed: Any = None, time_ms: float | None = None, *,
               deadline: float | None = None) -> Move:
        view = _check_view(view)
        seed = _as_seed(rng_or_seed)
        looping = self.break_loops and _stalling_loop(view)
        if self.endgame and view.deck_count <= self.endgame:
            if view.deck_count <= 2 or not self.endgame_nodes:
                move = _solver_move(view, seed, deck_only=looping, deadline=deadline)
            else:
                move = _deepened_move(view, seed, self.endgame_nodes, self.endgame_stalls, deck_only=looping,
                                      deadline=deadline)
            if move is not None:
                return move
        cands = self.candidates(view)
        if len(cands) == 1:
            return Move.from_code(int(cands[0]), view.colors)
        r = self.rollouts(view, cands, seed)

        def outcomes(j: int) -> np.ndarray:  # candidate j's per-world outcomes, capped if asked
            x = r.samples[int(j)]
            return np.clip(x, -self.cap, self.cap) if self.cap else x

        if self.halving:
            top = self.halving_finalists(r, time_ms, deadline)
        else:
            top = self.two_stages(r, time_ms, lambda: np.argsort([-outcomes(j).mean() for j in range(len(cands))],
                                                                 kind="stable"), deadline)
        pick = cautious_pick([outcomes(j) for j in top], self.caution)
        return Move.from_code(int(cands[int(top[pick])]), view.colors)

    def rollouts(self, view: View, cands: np.ndarray, seed: int) -> Rollouts:
        """The candidates' play-outs in this agent's worlds (uniform, biased or by the hand model)."""
        return Rollouts(view, cands, seed, self.params, self.bias, hand_model=self.hand_model or None,
                        streams=self.streams)

    def budget(self, time_ms: float | None) -> float:
        """Play-outs for one decision: ``rate`` per ms of ``time_ms`` (default: the agent's)."""
        if time_ms is None:
            return self.time_ms * self.rate
        return checked_number(self.name, "time_ms", time_ms, 0.0, MAX_TIME_MS, above=True) * self.rate

    def halving_finalists(self, r: Rollouts, time_ms: float | None, deadline: float | None = None) -> np.ndarray:
        """The schedule with ``halving``: successive halving of the budget over the candidates
        (``Rollouts.halve``), the heuristic's own choice (index 0) extended with the survivors every
        round, so it shares every world of the winner. Returns ``[0, winner]`` (``[0]`` when the
        heuristic's choice is the only candidate). With a ``deadline`` the budget is cut after each
        round to what the time left allows at the speed so far."""
        started = time.perf_counter()

        def fit(rollouts: Rollouts, budget: int) -> int:
            assert deadline is not None
            now = time.perf_counter()
            rate = rollouts.worlds / max(now - started, 1e-6)
            return min(budget, rollouts.worlds + int(max(deadline - now, 0.0) * rate))

        winner, _ = r.halve(int(self.budget(time_ms)), fit=None if deadline is None else fit, keep=[0],
                            min_worlds=self.min_worlds, max_worlds=self.max_worlds)
        return np.array(sorted({0, winner}), dtype=np.int64)

    def two_stages(self, r: Rollouts, time_ms: float | None, ranking: Callable[[], np.ndarray],
                   deadline: float | None = None) -> np.ndarray:
        """The budget's schedule: half of it on every candidate, then half on the best
        ``finalists`` by ``ranking()`` (candidate indexes, best first, read after the first
        stage) plus the heuristic's own choice (index 0, always kept). Returns the finalists'
        indexes, 0 first. With a ``deadline`` both stages stop when it comes (``min_worlds``
        worlds each at least, so that every candidate has a mean). The second stage gets no more
        than the first left of the budget: a small budget whose first half cannot give every
        candidate ``min_worlds`` worlds is spent on that floor (the advisor's ``_two_stages``
        keeps its budget the same way); it took 124 play-outs of a budget of 120 before."""
        budget = self.budget(time_ms)
        k = len(r.codes)
        n1 = int(min(self.max_worlds, max(self.min_worlds, budget * 0.5 // k)))
        if deadline is not None:
            r.sample(min(n1, self.min_worlds))
        extend_until(r, n1, None, deadline)
        top = np.union1d([0], ranking()[: min(self.finalists, k)])
        left = max(0.0, min(budget * 0.5, budget - r.worlds))  # (at larger budgets, exactly half as before)
        n2 = int(min(self.max_worlds, len(r.samples[0]) + left // len(top)))
        extend_until(r, n2, top, deadline)
        return top


def extend_until(r: Rollouts, worlds: int, which: Any, deadline: float | None) -> None:
    """``r.sample(worlds, which)``, stopped at ``deadline`` (a ``time.perf_counter()``; None: never):
    the worlds are sampled in pieces, and a piece that the speed so far says would end past the
    deadline is cut to fit. A world's play-outs depend on its index only, so on a machine fast
    enough the outcomes are those of one piece."""
    if deadline is None:
        r.sample(worlds, which)
        return
    members = list(range(len(r.codes))) if which is None else [int(k) for k in which]
    have = first = len(r.samples[members[0]])
    step = max(1, (worlds - have) // 16)
    started = time.perf_counter()
    while have < worlds:
        now = time.perf_counter()
        if have > first:  # no piece longer than the time left at the speed so far
            step = min(step, int((deadline - now) / max(now - started, 1e-9) * (have - first)))
        if now >= deadline or step < 1:
            return
        have = min(worlds, have + step)
        r.sample(have, members)


def cautious_pick(values: list[np.ndarray], caution: float) -> int:
    """Index of the turn to play among ``values`` (per-world outcomes in shared worlds, index 0 the
    heuristic's own choice): another turn only when its paired mean difference from turn 0
    exceeds ``caution`` standard errors, the largest such margin winning; 0 otherwise. Picking
    the largest of several noisy means would favour lucky estimates over the sound default."""
    best, best_score = 0, 0.0
    ref = values[0]
    for j in range(1, len(values)):
        d = values[j] - ref[: len(values[j])]
        if len(d) < 2:
            continue
        score = d.mean() - caution * d.std(ddof=1) / np.sqrt(len(d))
        if score > best_score:
            best, best_score = j, score
    return best


LOOP_TURNS = 8


def _stalling_loop(view: View) -> bool:
    """The last ``LOOP_TURNS`` turns of the round all discarded a card and took one from a pile."""
    last = view.history[-LOOP_TURNS:]
    return len(last) == LOOP_TURNS and all(m.card is not None and not m.play and m.source != "D" for m in last)


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


class BestAgent(SearchAgent):
    """The strongest agent measured (docs/agents.md "Measured strength"), at its default budget:
    outside referees that ask for ``best`` always meet it. Today: the search agent with stalling
    rollouts, that breaks stalling loops, deals the opponent's unknown cards from the learned
    opponent-hand model, gives each player a deck stream of their own in the play-outs, and plays
    the faster policy's 15 play-outs a millisecond of budget, 1,500 in its default 100 ms, and
    takes another turn than the heuristic's own only when it leads by one standard error, not two
    (``search:stall=0.5,break_loops=1,hand_model=1,streams=1,rate=15,caution=1``)."""

    name = "best"

    def __init__(self, **options: Any) -> None:
        super().__init__(**{**BEST_OPTIONS, **options})


#: ``rate``: 1,500 play-outs in the default 100 ms (as ``search:time_ms=250`` would play), the faster
#: policy's rate; measured against ``search`` as ``best:time_ms=250`` (docs/agents.md, "More play-outs
#: in the same time")
#: ``caution``: one standard error, screened against the ``best`` of caution 2 on the same deals
#: (docs/agents.md, "Screening a change")
BEST_OPTIONS: dict[str, Any] = {"stall": 0.5, "break_loops": 1, "hand_model": 1, "streams": 1,
                                "rate": FAST_ROLLOUTS_PER_MS, "caution": 1}

_FACTORIES: dict[str, Callable[..., Agent]] = {
    "random": RandomAgent,
    "greedy": GreedyAgent,
    "heuristic": HeuristicAgent,
    "stalling": StallingAgent,
    "search": SearchAgent,
    "best": BestAgent,
    # the search agent choosing by match-winning chance (agents/match_aware.py, imported when asked for)
    "match": lambda **options: importlib.import_module("lcanalysis.agents.match_aware").MatchAwareAgent(**options),
}


def make_agent(name: str, **options: Any) -> Agent:
    """An agent by name (``AGENTS``), with its options; ``external`` seats a program speaking the
    JSON-lines bot protocol: ``make_agent("external", cmd=["lcanalysis", "bot", "greedy"])``.

    Returns an ``Agent``: ``agent.choose(view, seed, time_ms=None)`` gives its ``Move`` for the view
    of the player to move (a ``View`` only: an agent never sees the hidden cards); the same view and
    seed give the same move. ``time_ms`` (else the agent's ``time_ms`` option) sets how long the search
    agents think, as a count of play-outs a millisecond, not the wall clock, so that it repeats on any
    machine (``choose(..., deadline=t)`` also keeps to the clock). An unknown name or option, or an
    option's value out of its range, raises ``AgentError`` (a ``ValueError``) naming it."""
    if not isinstance(name, str):  # (a list was Python's "unhashable type")
        raise AgentError(f"an agent's name must be text, one of {', '.join(AGENTS)} or 'external', got {name!r}")
    if name == "external":
        from lcanalysis.agents.protocol import ExternalAgent

        if "cmd" not in options:
            raise AgentError("external: give the program to run, cmd=[...], e.g. cmd=['python', 'mybot.py']")
        return ExternalAgent(**options)
    if name not in _FACTORIES:
        raise AgentError(f"unknown agent {name!r}; choose one of {', '.join(AGENTS)} or 'external' "
                         "(cmd=[...]: a program speaking the bot protocol)")
    try:
        agent = _FACTORIES[name](**options)
    except TypeError as exc:
        # in a user's words, not Python's "__init__() got an unexpected keyword argument"
        raise AgentError(f"{name}: {unknown_option(name, options) or exc}") from None
    agent.made_with = dict(options)
    return agent


def unknown_option(name: str, keys: Any) -> str | None:
    """The first of ``keys`` that agent ``name`` does not take, in words with the options it does
    take; None when it takes them all."""
    named, rest = agent_options(name)
    unknown = [key for key in keys if key not in named] if rest is None else []
    if not unknown:
        return None
    takes = f"known options: {', '.join(named)}" if named else "it takes no options"
    return f"unknown option {unknown[0]!r}; {takes}"


def agent_class(name: str) -> type[Agent]:
    """The class ``make_agent(name)`` builds (``external``: the bot-protocol seat), without building one."""
    if name == "external":
        from lcanalysis.agents.protocol import ExternalAgent

        return ExternalAgent
    if name == "match":
        return importlib.import_module("lcanalysis.agents.match_aware").MatchAwareAgent
    if name not in _FACTORIES:
        raise AgentError(f"unknown agent {name!r}; choose one of {', '.join(AGENTS)} or 'external'")
    return _FACTORIES[name]  # type: ignore[return-value]


def agent_options(name: str) -> tuple[dict[str, inspect.Parameter], inspect.Parameter | None]:
    """The options agent ``name`` takes: each named one with its parameter (and so its annotation),
    and the ``**`` parameter that takes any other name, or None. A class whose ``**options`` are
    annotated ``Any`` passes them on to its parent (``best`` and ``match`` to ``search``), so the
    parent's names are its options too; a ``**`` of another type takes names of its own
    (``heuristic``'s weights, ``**params: float``, checked by the class)."""
    named: dict[str, inspect.Parameter] = {}
    for cls in agent_class(name).__mro__:
        if cls is object or "__init__" not in vars(cls):
            continue
        params = list(inspect.signature(vars(cls)["__init__"]).parameters.values())[1:]  # after self
        named.update((p.name, p) for p in params
                     if p.kind in (p.POSITIONAL_OR_KEYWORD, p.KEYWORD_ONLY) and p.name not in named)
        rest = next((p for p in params if p.kind is p.VAR_KEYWORD), None)
        if rest is None or rest.annotation not in ("Any", Any):
            return named, rest
    return named, None  # no class on the way defines __init__ (random)
