"""The opponent of ``lcanalysis play`` when it is a bot author's own class (``--agent python:FILE:CLASS``):
its turns checked as a referee checks a bot's (kept apart from ``play``, which loads no agent until the
game starts: ``lcanalysis --help`` stays fast)."""

from __future__ import annotations

from typing import Any

from lcanalysis.agents import Agent, AgentError
from lcanalysis.agents.base import refused_answer
from lcanalysis.game.moves import Move
from lcanalysis.game.view import View
from lcanalysis.tournaments.python_seat import PythonAgentError


class RefereedAgent(Agent):
    """A bot author's agent (``python:FILE:CLASS``, seated as a tournament seats it) at the table: a turn
    it answers that is not legal, or an error it raises, ends the game with an ``AgentError`` naming the
    opponent, its turn and the problem, as the bot protocol's referee names them (``protocol.answer``),
    not a bare "a move must be a string" or a traceback."""

    def __init__(self, agent: Agent) -> None:
        self.agent = agent
        self.name = agent.name

    def choose(self, view: View, rng_or_seed: Any = None, time_ms: float | None = None) -> Move:
        at = f"at turn {len(view.history)}"
        try:
            move = self.agent.choose(view, rng_or_seed, time_ms)
        except PythonAgentError as exc:
            raise AgentError(f"the opponent ({self.name}) failed {at}: {exc}; the game stops here") from None
        refusal = refused_answer(move, view, f"the opponent ({self.name})", at=f" {at}")
        if refusal is not None:
            raise AgentError(f"{refusal}; the game stops here")
        return move

    def close(self) -> None:
        close = getattr(self.agent, "close", None)
        if callable(close):
            close()
