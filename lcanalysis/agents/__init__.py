"""Playing agents: each sees one player's ``View`` (and the public history in it), never hidden cards.

Pick one by name::

    >>> from lcanalysis.agents import make_agent, AGENTS
    >>> AGENTS
    ('random', 'greedy', 'heuristic', 'stalling', 'search', 'best', 'match')
    >>> agent = make_agent("heuristic")

``agent.choose(view, seed, time_ms=None)`` returns a ``Move`` legal in the view. The same view
and seed give the same move. See docs/agents.md for the designs and their measured strength.

This module is the registry (``AGENTS``, ``make_agent``, the options each agent takes) and the
names to import; each agent lives in a module of its own: ``base`` (the ``Agent`` class, its
checks), ``random_agent``, ``policy_agents`` (greedy, heuristic, stalling), ``search_agent``
(with ``endgame_turn``, its last cards), ``best``, ``match_aware``, and ``protocol`` (the bot
protocol and ``ExternalAgent``).
"""

from __future__ import annotations

import importlib
import inspect
from collections.abc import Callable
from typing import Any

from lcanalysis.agents.base import (
    MAX_TIME_MS,
    Agent,
    AgentError,
    checked_number,
    checked_switch,
    checked_whole,
)
from lcanalysis.agents.best import BEST_OPTIONS, BestAgent
from lcanalysis.agents.policy_agents import GreedyAgent, HeuristicAgent, PolicyAgent, StallingAgent
from lcanalysis.agents.random_agent import RandomAgent
from lcanalysis.agents.search_agent import (
    LOOP_TURNS,
    MAX_ENDGAME_CARDS,
    MAX_ENDGAME_NODES,
    MAX_RATE,
    SearchAgent,
    cautious_pick,
    extend_until,
)
from lcanalysis.agents.search_agent import _stalling_loop as _stalling_loop  # (the tests' loop check)

__all__ = [
    "AGENTS", "BEST_OPTIONS", "LOOP_TURNS", "MAX_ENDGAME_CARDS", "MAX_ENDGAME_NODES", "MAX_RATE", "MAX_TIME_MS",
    "Agent", "AgentError", "BestAgent", "GreedyAgent", "HeuristicAgent", "PolicyAgent", "RandomAgent",
    "SearchAgent", "StallingAgent", "agent_class", "agent_options", "cautious_pick", "checked_number",
    "checked_switch", "checked_whole", "extend_until", "make_agent", "unknown_option",
]

AGENTS = ("random", "greedy", "heuristic", "stalling", "search", "best", "match")

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
