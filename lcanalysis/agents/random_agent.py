"""The random agent: every legal whole turn equally likely."""

from __future__ import annotations

from typing import Any

from lcanalysis.agents.base import Agent, _as_seed, _check_budget, _check_view
from lcanalysis.core import policy as P
from lcanalysis.game.moves import Move
from lcanalysis.game.view import View
from lcanalysis.rollouts import some_state


class RandomAgent(Agent):
    """Every legal whole turn equally likely (discard-pile draws included: it stalls)."""

    name = "random"

    def choose(self, view: View, rng_or_seed: Any = None, time_ms: float | None = None) -> Move:
        view = _check_view(view)
        _check_budget(self.name, time_ms)
        return Move.from_code(int(P.random_move(some_state(view), _as_seed(rng_or_seed))), view.colors)
