"""The one-ply agents: a turn chosen by the compiled policy (``core.policy``) with a parameter
vector: ``greedy``, ``heuristic`` (with its weights as options) and ``stalling``."""

from __future__ import annotations

from typing import Any

import numpy as np

from lcanalysis.agents.base import Agent, AgentError, _as_seed, _check_budget, _check_view, checked_number
from lcanalysis.core import first_compile
from lcanalysis.core import policy as P
from lcanalysis.game.moves import Move
from lcanalysis.game.view import View
from lcanalysis.rollouts import some_state


class PolicyAgent(Agent):
    """One ply on the fast expedition estimate with a parameter vector (``core.policy``'s docstring)."""

    def __init__(self, params: np.ndarray) -> None:
        first_compile.ready(first_compile.POLICIES)  # at construction, not inside a timed move
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
