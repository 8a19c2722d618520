"""What every agent shares: the ``Agent`` base class, ``AgentError``, and the checks of what a turn is
given (the view, the seed, the budget) and of an agent's options, each refusal naming the problem."""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any

import numpy as np

from lcanalysis.game.cards import whole_number
from lcanalysis.game.moves import Move
from lcanalysis.game.view import View
from lcanalysis.options import brief

if TYPE_CHECKING:
    from lcanalysis.game.position import Position

MAX_TIME_MS = 3_600_000.0  # an hour a turn: no referee's clock allows more, and the play-outs grow with it


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
    except (TypeError, ValueError, OverflowError):  # (OverflowError: an int past a float's range, 10**400)
        x = math.nan
    if isinstance(value, bool) or not math.isfinite(x) or x > high or (x <= low if above else x < low):
        bound = f"above {low:,.10g}" if above else f"from {low:,.10g}"
        raise AgentError(f"{agent}: {key} must be a number {bound} to {high:,.10g}, got {brief(value)}")
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


def refused_answer(answer: Any, table: View | Position, who: str, at: str = "", here: str = "") -> str | None:
    """The refusal of an agent's answer that is not a legal turn of ``table`` (its ``View``, or the
    ``Position`` it was given the view of): "``who`` answered ``answer`` ``at``, not a legal turn ``here``:
    the rule it breaks" (anything that is no turn, None say, breaks "not a move"), or None when it is a
    legal turn. The one check of a bot author's answer: the bot protocol's (``protocol.answer``), ``play``'s
    referee (``cli.play_referee``) and a rollout's (``studies.rollout``), each saying where in its own
    words (``at``, ``here``); a tournament leaves it to the round (``Position.push`` refuses the turn)."""
    reason = table.why_illegal(answer)
    if reason is None:
        return None
    return f"{who} answered {brief(answer)}{at}, not a legal turn{here}: {reason}"


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
