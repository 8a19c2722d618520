"""lcanalysis: the analysis and solver toolkit for Lost Cities.

The front door. ``import lcanalysis as lc`` is cheap: nothing compiled is loaded until a name
is first used (the pattern of Scientific Python's SPEC 1)::

    >>> import lcanalysis as lc
    >>> pos = lc.Position.deal(seed=7)
    >>> lc.Card.parse("r7")
    Card.parse('R7')
    >>> view = lc.read_position("example:midround")

The public API, by layer (docs/ARCHITECTURE.md):

- the game: ``Card``, ``Move``, ``Rules``, ``Position``, ``View``, ``read_position``,
  ``PositionError``, ``Match``;
- answers: ``Analysis`` (ranked turns with values, standard errors and how exact each is);
- questions: ``solve`` (exact endgame values: ``lcanalysis.search.solve``, its answer on a
  position in a match noting that its values are points of the round), ``advise`` (every turn
  ranked by play-outs), ``wager`` (the canonical wager model of one colour), ``evaluate`` (the hand evaluator),
  ``review`` (a game record's decisions and draws; defined in ``lcanalysis.reviewer``: no
  module bears a public function's name, so no import can put a module in its place),
  ``rollout`` (turns played out by an agent in both seats, ``lcanalysis.studies.rollout``);
- play: ``make_agent``, ``run_tournament``, ``summarize``;
- subpackages one attribute away: ``lc.search``, ``lc.wagers``, ``lc.agents``,
  ``lc.studies``, ``lc.show``, ``lc.tournaments``, ``lc.core``, ``lc.game``.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

__version__ = "0.2.0"

# public name -> module that defines it; loaded on first use
_NAMES = {
    "Card": "lcanalysis.game.cards",
    "Move": "lcanalysis.game.moves",
    "Rules": "lcanalysis.game.rules",
    "Position": "lcanalysis.game.position",
    "PositionError": "lcanalysis.game.position",
    "View": "lcanalysis.game.view",
    "read_position": "lcanalysis.game.notation",
    "Match": "lcanalysis.game.match",
    "Analysis": "lcanalysis.analysis",
    "advise": "lcanalysis.advisor",
    "review": "lcanalysis.reviewer",
    "rollout": "lcanalysis.studies.rollout",
    "wager": "lcanalysis.wagers",
    "evaluate": "lcanalysis.evaluator",
    "make_agent": "lcanalysis.agents",
    "run_tournament": "lcanalysis.tournaments",
    "summarize": "lcanalysis.tournaments",
}
_SUBPACKAGES = ("core", "game", "search", "wagers", "agents", "tournaments", "studies", "show", "cli")

__all__ = [
    "Analysis",
    "Card",
    "Match",
    "Move",
    "Position",
    "PositionError",
    "Rules",
    "View",
    "advise",
    "agents",
    "cli",
    "core",
    "evaluate",
    "game",
    "make_agent",
    "read_position",
    "review",
    "rollout",
    "run_tournament",
    "search",
    "show",
    "solve",
    "studies",
    "summarize",
    "tournaments",
    "wager",
    "wagers",
]


def _solve_with_match_note() -> Any:
    """``lc.solve``: ``lcanalysis.search.solve`` (same signature, same answer) whose answer on a
    position or view in a match also carries the note ``lcanalysis solve`` prints, that its values
    are points of the round (``match_equity.solve_match_note``). Here, at the front door, because
    the search sits below ``match_equity`` and may not import it."""
    import functools

    exact = importlib.import_module("lcanalysis.search").solve
    read = importlib.import_module("lcanalysis.game.notation").read_position
    match_note = importlib.import_module("lcanalysis.match_equity").solve_match_note

    reporting = _reporting(exact)

    @functools.wraps(exact)
    def solve(target: Any, *args: Any, **kwargs: Any) -> Any:
        position = read(target)  # read once: the search takes it as read, and the note needs its match
        answer = reporting(position, *args, **kwargs)
        note = match_note(position)
        if note and note not in answer.notes:
            answer.notes.append(note)
        return answer

    solve.__doc__ = (exact.__doc__ or "").rstrip() + (
        "\n\n    On a position or view in a match (with a ``match`` score), ``notes`` says once that the\n"
        "    values are points of this round, not chances to win the match, as ``lcanalysis solve`` does.\n"
        + _PROGRESS_NOTE.replace("NAME", "solve"))
    # found by name where it lives, so that it pickles (a process pool can be handed lc.solve)
    solve.__module__, solve.__qualname__ = __name__, "solve"
    return solve


#: what the front door's long questions add to their docstrings
_PROGRESS_NOTE = (
    "\n    At the front door (``lc.NAME``) ``progress=None``, the default, reports a long answer on standard\n"
    "    error once it has taken ``lcanalysis.progress.PROGRESS_DELAY`` seconds, as the command line does\n"
    "    (a quick answer prints nothing); ``progress=False``: nothing.\n")


def _reporting(inner: Any, bar: bool = False) -> Any:
    """``inner`` called as the front door calls it: ``progress=None`` (or not given) reports on standard
    error once the work has taken ``PROGRESS_DELAY`` (lines as they come, ``progress.delayed_lines``,
    or with ``bar`` its own bar: ``progress=True``); ``progress=False`` nothing (``None`` to the
    functions that take lines); anything else as given. A ``lc.advise(view, time_budget=30)`` was
    30 s of silence: the functions behind the front door report only when given a ``progress``."""
    import functools
    import inspect

    signature = inspect.signature(inner)

    @functools.wraps(inner)
    def call(*args: Any, **kwargs: Any) -> Any:
        bound = signature.bind(*args, **kwargs)
        progress = bound.arguments.get("progress")
        if progress is None and bar:
            bound.arguments["progress"] = True
        elif progress is False and not bar:
            bound.arguments["progress"] = None
        elif progress is None:
            with importlib.import_module("lcanalysis.progress").delayed_lines() as say:
                bound.arguments["progress"] = say
                return inner(*bound.args, **bound.kwargs)
        return inner(*bound.args, **bound.kwargs)

    if bar:  # the default the front door gives it
        call.__signature__ = signature.replace(parameters=[  # type: ignore[attr-defined]
            q.replace(default=None) if q.name == "progress" else q for q in signature.parameters.values()])
    return call


def _reported(name: str, bar: bool = False) -> Any:
    """``lc.NAME``: the function of ``_NAMES[name]`` reporting by default (``_reporting``), found by name
    where it lives so that it pickles (a process pool can be handed it)."""
    call = _reporting(getattr(importlib.import_module(_NAMES[name]), name), bar)
    call.__doc__ = (call.__doc__ or "").rstrip() + "\n" + _PROGRESS_NOTE.replace("NAME", name)
    call.__module__, call.__qualname__ = __name__, name
    return call


#: front-door names built here on first use, from the functions behind them
_BUILT = {"solve": _solve_with_match_note, "advise": lambda: _reported("advise"),
          "rollout": lambda: _reported("rollout", bar=True)}


#: front-door names whose first use runs compiled code: before the first of them, the engine is made
#: ready as a command makes it (``cli.warmup.engine_ready``): compiled once per version, saying so with
#: a bar; a fresh install's first ``lc.advise`` compiled for minutes in silence
_ENGINE_NAMES = frozenset({"advise", "solve", "evaluate", "make_agent", "run_tournament", "review", "rollout"})


#: front-door names that run the rules kernel only (the game's types): before the first of them, that
#: part is made ready (``cli.warmup.rules_ready``), saying so; a fresh install's first ``lc.Position``
#: compiled for 5-12 s in silence
_RULES_NAMES = frozenset({"Position", "View", "read_position", "Match"})


def _engine_ready() -> None:
    if not importlib.import_module("lcanalysis.core.jit").jit_disabled():  # (plain Python compiles nothing)
        importlib.import_module("lcanalysis.cli.warmup").engine_ready()


def _rules_ready() -> None:
    if not importlib.import_module("lcanalysis.core.jit").jit_disabled():
        importlib.import_module("lcanalysis.cli.warmup").rules_ready()


def _part_ready(part: str) -> None:
    """One part of the engine made ready (``cli.warmup.part_ready``), asked for by a module's entry
    point before its first compiled call (``core.first_compile.ready``): the modules below cannot
    reach the warm-up, which sits in the command-line layer; the front door, always loaded first, can."""
    importlib.import_module("lcanalysis.cli.warmup").part_ready(part)


def _compiling_at_import(part: str, module: str) -> bool:
    """The notice and bar of a part compiling as its module is imported (``cli.warmup.compiling_at_import``),
    for ``core.first_compile.compiling_at_import``, as ``_part_ready``."""
    return bool(importlib.import_module("lcanalysis.cli.warmup").compiling_at_import(part, module))


def _compiled_at_import(part: str) -> None:
    importlib.import_module("lcanalysis.cli.warmup").compiled_at_import(part)


def __getattr__(name: str) -> Any:
    if name in _ENGINE_NAMES:
        _engine_ready()  # (a file check once compiled; the warm-up's own steps are let through)
    elif name in _RULES_NAMES:
        _rules_ready()
    if name in _BUILT:
        value = _BUILT[name]()
        globals()[name] = value
        return value
    if name in _NAMES:
        value = getattr(importlib.import_module(_NAMES[name]), name)
        globals()[name] = value  # later look-ups skip this function
        return value
    if name in _SUBPACKAGES:
        return importlib.import_module(f"lcanalysis.{name}")
    raise AttributeError(f"module 'lcanalysis' has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__))


if TYPE_CHECKING:  # static checkers and IDEs see the real names
    from lcanalysis.advisor import advise
    from lcanalysis.agents import make_agent
    from lcanalysis.analysis import Analysis
    from lcanalysis.evaluator import evaluate
    from lcanalysis.game.cards import Card
    from lcanalysis.game.match import Match
    from lcanalysis.game.moves import Move
    from lcanalysis.game.notation import read_position
    from lcanalysis.game.position import Position, PositionError
    from lcanalysis.game.rules import Rules
    from lcanalysis.game.view import View
    from lcanalysis.reviewer import review
    from lcanalysis.search import solve
    from lcanalysis.tournaments import run_tournament, summarize
    from lcanalysis.wagers import wager
