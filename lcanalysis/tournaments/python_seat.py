"""A bot author's own ``Agent`` class seated directly in a tournament, from its file:
``python:FILE:CLASS[,OPTION=VALUE...]`` on the command line, ``{"name": "python", "file": FILE,
"class": CLASS, OPTION: VALUE...}`` in Python.

``seat_python_agent`` loads the file by its path, in whichever process makes the seat (each
worker of a pool, or this one), checks that ``CLASS`` is an ``Agent`` class that takes the
options, and builds it. Each problem is an ``AgentError`` naming it: no such file, a file that
fails to load, no such class, a class that is not an ``Agent``, options its constructor refuses.
The agent is seated behind ``SeatedAgent``, which turns anything its ``choose`` raises into a
``PythonAgentError`` naming the class and the line of its file, so that the tournament stops on
it as on any failing agent, with its deal, seating and turn (``runner.FailedTurn``); an illegal
answer is refused by the round itself (``Position.push``), as every agent's is.

The file is run afresh each time a seat is made, with the modules beside it that it imports
(those a seat brought in are forgotten first), so that an edit between two runs in one Python
session plays the edited code, which is what the results file's hash of the file records.
"""

from __future__ import annotations

import contextlib
import importlib.util
import inspect
import sys
import traceback
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from lcanalysis.agents import Agent, AgentError

#: ``python:FILE:CLASS`` as the command line and the errors write it
FORM = "python:FILE:CLASS[,OPTION=VALUE...], e.g. python:mine.py:Eager"

#: the modules a seat's file brought into ``sys.modules`` (its own and those beside it that it
#: imported), forgotten before the next seat is loaded so that they are read again
_loaded_by_seats: set[str] = set()


class PythonAgentError(RuntimeError):
    """A seated class's ``choose`` raised: its error, named with the class and its file's line."""


class SeatedAgent(Agent):
    """A bot author's agent as the runner seats it: its turns as it chooses them, its errors named."""

    name = "python"

    def __init__(self, agent: Agent, where: str, folder: Path) -> None:
        self.agent = agent
        self.where = where  # "Eager of mine.py"
        self.folder = folder

    def choose(self, view: Any, rng_or_seed: Any = None, time_ms: float | None = None) -> Any:
        # called as the runner calls every agent, (view, seed): a choose(self, view, seed) of its own works too
        args = (view, rng_or_seed) if time_ms is None else (view, rng_or_seed, time_ms)
        try:
            return self.agent.choose(*args)
        except Exception as exc:  # any error of the author's code fails the turn; Ctrl-C still stops the run
            raise PythonAgentError(f"{self.where}: choose raised {type(exc).__name__}: {exc}"
                                   f"{_line_of(exc, self.folder)}") from exc

    def close(self) -> None:
        """The author's own ``close``, if the class has one (the runner closes every agent it seated)."""
        close = getattr(self.agent, "close", None)
        if callable(close):
            close()

    def __repr__(self) -> str:
        return f"<SeatedAgent {self.where}: {self.agent!r}>"


def _line_of(exc: BaseException, folder: Path) -> str:
    """`` (at FILE line N)``: the innermost frame of the traceback in the seat's folder, or ''."""
    inside = [f for f in traceback.extract_tb(exc.__traceback__)
              if f.filename and Path(f.filename).resolve().parent == folder]
    return f" (at {Path(inside[-1].filename).name} line {inside[-1].lineno})" if inside else ""


def check_seat_file(file: Any) -> Path:
    """``file`` as a path once it names a Python file that exists; else an ``AgentError`` saying which
    folder a relative path was read from."""
    if not isinstance(file, str) or not file.strip():
        raise AgentError(f"python: 'file' must be the path of a Python file, got {file!r}; write {FORM}")
    path = Path(file)
    if path.suffix != ".py":
        raise AgentError(f"python: {file} is not a Python file (a name ending .py); write {FORM}")
    if not path.is_file():
        where = "" if path.is_absolute() else f" (read from the folder {Path.cwd()})"
        what = "is a folder, not a file" if path.is_dir() else "no such file"
        raise AgentError(f"python: {file}: {what}{where}")
    return path


def load_agent_class(file: Any, class_name: Any) -> type[Agent]:
    """The class ``class_name`` of the Python file ``file``, run afresh (see the module's docstring)."""
    path = check_seat_file(file)
    with _folder_first(path.resolve().parent):
        return _class_of(path, file, class_name)


def _class_of(path: Path, file: str, class_name: Any) -> type[Agent]:
    if not isinstance(class_name, str) or not class_name.isidentifier():
        raise AgentError(f"python: 'class' must be the name of a class in {file}, got {class_name!r}; write {FORM}")
    module = _load(path)
    found = getattr(module, class_name, None)
    if found is None:
        theirs = sorted(n for n, v in vars(module).items()
                        if inspect.isclass(v) and issubclass(v, Agent) and v.__module__ == module.__name__)
        named = f"; its Agent classes: {', '.join(theirs)}" if theirs else "; it defines no Agent class"
        raise AgentError(f"python: {file} has no class {class_name!r}{named}")
    if not inspect.isclass(found):
        raise AgentError(f"python: {class_name!r} in {file} is not a class but {type(found).__name__}")
    if not issubclass(found, Agent):
        raise AgentError(f"python: class {class_name!r} of {file} is not an Agent: a seat is a subclass of "
                         "lcanalysis.agents.Agent with choose(view, rng_or_seed=None, time_ms=None) (docs/agents.md, "
                         "\"Your own agent\")")
    if found.choose is Agent.choose:  # (Agent itself, imported there, or a subclass whose choose is misspelt)
        raise AgentError(f"python: class {class_name!r} of {file} has no choose of its own, only Agent's, which "
                         "plays nothing: a seat writes choose(self, view, rng_or_seed=None, time_ms=None) "
                         "(docs/agents.md, \"Your own agent\")")
    return found


def seat_python_agent(file: Any, class_name: Any, options: dict[str, Any]) -> SeatedAgent:
    """``class_name`` of ``file`` built with ``options``, seated (``SeatedAgent``)."""
    path = check_seat_file(file)
    folder = path.resolve().parent
    where = f"{class_name} of {file}"
    with _folder_first(folder):  # (its constructor may import from beside it too)
        cls = _class_of(path, file, class_name)
        try:
            params = inspect.signature(cls).parameters.values()
        except (TypeError, ValueError):  # (a constructor without a readable signature: it says itself)
            params = None
        if params is not None and not any(p.kind is p.VAR_KEYWORD for p in params):
            takes = [p.name for p in params if p.kind in (p.POSITIONAL_OR_KEYWORD, p.KEYWORD_ONLY)]
            unknown = [k for k in options if k not in takes]
            if unknown:
                known = f"its options: {', '.join(takes)}" if takes else "it takes no options"
                raise AgentError(f"python: {where} takes no option {unknown[0]!r}; {known}")
        try:
            agent = cls(**options)
        except Exception as exc:  # the author's constructor: whatever it raises, it refused these options
            given = ", ".join(f"{k}={v!r}" for k, v in options.items())
            raise AgentError(f"python: {where} refused its options ({given or 'none'}): "
                             f"{type(exc).__name__}: {exc}{_line_of(exc, folder)}") from None
    return SeatedAgent(agent, where, folder)


@contextlib.contextmanager
def _folder_first(folder: Path) -> Iterator[None]:
    """Load a seat as Python runs a script: its folder first on the path, and its modules read again
    (those an earlier seat brought in, and any beside it imported otherwise: an edit is played). After,
    the folder goes to the end of the path, for imports its code makes later, so that it shadows
    nothing this package imports after it."""
    for name in sorted(_loaded_by_seats | {n for n, m in list(sys.modules.items()) if _beside(m, folder)}):
        sys.modules.pop(name, None)
    _loaded_by_seats.clear()
    before = set(sys.modules)
    sys.path.insert(0, str(folder))
    try:
        yield
    finally:
        sys.path.remove(str(folder))
        if str(folder) not in sys.path:
            sys.path.append(str(folder))
        _loaded_by_seats.update(n for n in set(sys.modules) - before if _beside(sys.modules.get(n), folder))


def _load(path: Path) -> Any:
    """The module of ``path`` (in ``_folder_first``), named after it (``mine`` for ``mine.py``, so that
    a module beside it importing ``mine`` shares its classes; a private name if that name is another
    module's, ``json`` say, or no Python name)."""
    folder = path.resolve().parent
    name = path.stem
    if (name in sys.modules and not _beside(sys.modules[name], folder)) or not name.isidentifier():
        name = "_lcanalysis_seat_" + "".join(c if c.isalnum() else "_" for c in path.stem)
    spec = importlib.util.spec_from_file_location(name, path)
    if spec is None or spec.loader is None:  # (a .py path always has a loader)
        raise AgentError(f"python: {path} cannot be loaded as a module")
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module  # (dataclasses and pickle look a class's module up here)
    try:
        spec.loader.exec_module(module)
    except Exception as exc:
        sys.modules.pop(name, None)
        raise AgentError(f"python: {path} could not be loaded: {type(exc).__name__}: {exc}"
                         f"{_line_of(exc, folder)}") from None
    return module


def _beside(module: Any, folder: Path) -> bool:
    """Whether ``module`` is a seat's own code: a module in ``folder`` or in a package there (not one
    installed in a folder below it, a virtual environment's, say; never this package, though a seat's
    file may sit beside it)."""
    file = getattr(module, "__file__", None)
    top = str(getattr(module, "__name__", "")).split(".")[0]
    if not isinstance(file, str) or top == "lcanalysis":
        return False
    path = Path(file).resolve()
    return path.parent == folder or folder / top in path.parents
