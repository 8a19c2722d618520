"""The search agent: the heuristic's best turns played out in shared sampled worlds, chosen with
caution; the exact endgame's turn in the round's last cards (``endgame_turn``)."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

import numpy as np

from lcanalysis.agents.base import (
    MAX_TIME_MS,
    Agent,
    AgentError,
    _as_seed,
    _check_view,
    checked_number,
    checked_switch,
    checked_whole,
)
from lcanalysis.agents.endgame_turn import _deepened_move, _solver_move
from lcanalysis.core import first_compile
from lcanalysis.core import policy as P
from lcanalysis.game.moves import Move
from lcanalysis.game.view import View
from lcanalysis.rollouts import ROLLOUTS_PER_MS, Rollouts, policy_ranking

MAX_ENDGAME_NODES = 10**9
#: the most cards left for the ``endgame`` option: the solver enumerates every split of the unseen
#: cards, with no budget; at 6 cards that takes at most about 0.2 s, at 8 several seconds, and at
#: 20 it did not finish (a bot asked for ``endgame=100`` never answered)
MAX_ENDGAME_CARDS = 6
MAX_RATE = 1000.0  # play-outs a millisecond of budget: far above any machine's
#: the most cards left at which a play-out may end in the exact search (``tail``), and with one stall each
#: (``tail_stalls``): beyond them one tail costs as much as hundreds of play-outs
MAX_TAIL = 4
MAX_TAIL_WITH_STALLS = 2


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
    (same worlds) beats it by more than ``caution`` standard errors, and by more than ``min_lead``
    points (0: no floor): picking the largest of several noisy means otherwise favours lucky
    estimates over the heuristic's sound default, and a lead of a fraction of a point, however well
    measured, may be the play-outs' own misjudgment rather than the turn's.
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
    ``tail`` (0: off; at most ``MAX_TAIL``): each play-out ends where ``tail`` cards are left in the
    draw pile, valued there by the exact endgame search with ``tail_stalls`` (0 or 1) discard-pile
    draws left to each player (``search.tail``; screened, no gain shown: docs/agents.md). With no
    stalls the tail costs a play-out little; one stall each costs about 8 times a play-out at 2 cards,
    and milliseconds from 3 cards, so it is refused there, and without ``tail``, where it would do nothing.
    ``tuned`` (non-zero): the play-outs and the ranking of the candidates use the one-ply weights tuned
    again on self-play (``core.policy.TUNED_PARAMS``, ``studies.policy_tune``) for every weight but
    ``TURN``, which ``stall`` sets as before (``best:tuned=1,stall=0.725`` plays the tuned policy whole;
    screened, no gain shown at 100 ms: docs/agents.md).

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
                 halving: float = 0, rate: float = ROLLOUTS_PER_MS, min_lead: float = 0.0, tail: int = 0,
                 tail_stalls: int = 0, tuned: float = 0) -> None:
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
        self.min_lead = checked_number(self.name, "min_lead", min_lead, 0.0, 1000.0)  # points
        self.finalists = checked_whole(self.name, "finalists", finalists, 1, 1000)
        self.tail = checked_whole(self.name, "tail", tail, 0, MAX_TAIL)
        self.tail_stalls = checked_whole(self.name, "tail_stalls", tail_stalls, 0, 1)
        if self.tail_stalls and not self.tail:  # it would be taken and do nothing: the run would not be what it says
            raise AgentError(f"{self.name}: tail_stalls=1 gives stalls to the exact search that ends each play-out, "
                             f"and there is none without tail: give tail=1 to {MAX_TAIL_WITH_STALLS} with it")
        if self.tail_stalls and self.tail > MAX_TAIL_WITH_STALLS:
            raise AgentError(f"{self.name}: tail_stalls=1 ends each play-out in a search of milliseconds from "
                             f"{MAX_TAIL_WITH_STALLS + 1} cards on: give tail={MAX_TAIL_WITH_STALLS} or less with it")
        self.tuned = checked_switch(self.name, "tuned", tuned)
        self.params = (P.TUNED_PARAMS if self.tuned else P.HEURISTIC_PARAMS).copy()
        self.params[P.P_TURN] = checked_number(self.name, "stall", stall, 0.0, 10.0)  # a weight
        self.break_loops = checked_switch(self.name, "break_loops", break_loops)
        self.hand_model = checked_switch(self.name, "hand_model", hand_model)
        if self.hand_model and self.bias != 1.0:
            raise AgentError(f"{self.name}: hand_model and bias are two ways to deal the opponent's cards: give one")
        # compiled once, saying so (core.first_compile), at construction, not inside a timed move
        first_compile.ready(first_compile.PLAYOUTS)
        if self.endgame:
            first_compile.ready(first_compile.SOLVER)

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
        pick = cautious_pick([outcomes(j) for j in top], self.caution, self.min_lead)
        return Move.from_code(int(cands[int(top[pick])]), view.colors)

    def rollouts(self, view: View, cands: np.ndarray, seed: int) -> Rollouts:
        """The candidates' play-outs in this agent's worlds (uniform, biased or by the hand model)."""
        return Rollouts(view, cands, seed, self.params, self.bias, hand_model=self.hand_model or None,
                        streams=self.streams, tail=self.tail, tail_stalls=self.tail_stalls)

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


def cautious_pick(values: list[np.ndarray], caution: float, min_lead: float = 0.0) -> int:
    """Index of the turn to play among ``values`` (per-world outcomes in shared worlds, index 0 the
    heuristic's own choice): another turn only when its paired mean difference from turn 0
    exceeds ``caution`` standard errors and ``min_lead`` points, the largest such margin winning;
    0 otherwise. Picking the largest of several noisy means would favour lucky estimates over the
    sound default."""
    best, best_score = 0, 0.0
    ref = values[0]
    for j in range(1, len(values)):
        d = values[j] - ref[: len(values[j])]
        if len(d) < 2:
            continue
        score = d.mean() - max(caution * d.std(ddof=1) / np.sqrt(len(d)), min_lead)
        if score > best_score:
            best, best_score = j, score
    return best


LOOP_TURNS = 8


def _stalling_loop(view: View) -> bool:
    """The last ``LOOP_TURNS`` turns of the round all discarded a card and took one from a pile."""
    last = view.history[-LOOP_TURNS:]
    return len(last) == LOOP_TURNS and all(m.card is not None and not m.play and m.source != "D" for m in last)
