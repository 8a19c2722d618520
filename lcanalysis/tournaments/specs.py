"""What a tournament is made of, checked before any round is played: agents by name and options
(``AgentSpec``, and the command line's ``NAME:OPTION=VALUE,...`` syntax), the deal seeds, and the
tournament's own error type.

    >>> AgentSpec.of(parse_agent("search:time_ms=50,width=8")).label
    'search:time_ms=50,width=8'
    >>> check_agent(parse_agent("search:width=abc"))
    Traceback (most recent call last):
    ...
    lcanalysis.tournaments.specs.TournamentError: agent 'search:width=abc': width must be a whole number, got 'abc'
"""

from __future__ import annotations

import math
import os
import re
import shlex
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np

from lcanalysis.options import GROUPED_DIGITS, grouped_digits, number_or_none

if TYPE_CHECKING:
    from lcanalysis.agents import Agent


class TournamentError(ValueError):
    """A tournament that cannot be run as asked: a bad argument, or a results file that belongs
    to another tournament, is broken, or is being written by another run. The message says what
    is wrong and how to go on."""


def deal_seed(seed: int, deal: int, round_number: int = 1) -> int:
    """The shuffle seed of a deal (and of each round of a match): the same for every pairing."""
    ss = np.random.SeedSequence([int(seed), int(deal), int(round_number)])
    return int(ss.generate_state(1, dtype=np.uint32)[0])


@dataclass(frozen=True)
class AgentSpec:
    """An agent by name and options, cheap to send to another process; ``label`` names it in tables."""

    name: str
    options: tuple[tuple[str, Any], ...] = ()
    label: str = ""

    @classmethod
    def of(cls, spec: str | AgentSpec | dict[str, Any] | Agent) -> AgentSpec:
        """``spec`` as an ``AgentSpec``: a name, the command line's ``NAME:OPTION=VALUE,...`` or
        ``external:CMD``, either after a ``LABEL=`` (``parse_agent``), a dict with ``name`` (and
        ``label``) and the options, an ``AgentSpec``, or an agent ``make_agent`` made (its name and
        options)."""
        if isinstance(spec, AgentSpec):
            return spec
        if isinstance(spec, str) and (":" in spec or "=" in spec):  # as the command line writes it: same agent, label
            return cls.of(parse_agent(spec))
        if isinstance(spec, str):
            return cls(spec, (), spec)
        if isinstance(spec, dict):
            d = dict(spec)
            if "name" not in d:
                raise TournamentError(f"an agent given as a dict needs a 'name', got {spec!r}")
            name = d.pop("name")
            label = d.pop("label", "")
            if name == "python" and isinstance(d.get("file"), os.PathLike):  # a Path: recorded as its text
                d["file"] = os.fspath(d["file"])
            opts = tuple(sorted((k, tuple(v) if isinstance(v, list) else v) for k, v in d.items()))
            if not label and name == "python":  # as the command line writes it: python:mine.py:Eager,depth=2
                given = dict(opts)
                named = "".join(f",{k}={v}" for k, v in opts if k not in ("file", "class"))
                label = f"python:{given.get('file')}:{given.get('class')}{named}"
            if not label:  # as the command line writes it: search:time_ms=50,width=8
                named = ",".join(f"{k}={v}" for k, v in opts if k != "cmd")
                label = f"{name}:{named}" if named else name
            return cls(name, opts, label)
        from lcanalysis.agents import Agent

        if isinstance(spec, Agent):  # each worker makes its own: by the name and options it was made with
            if spec.made_with is None:
                raise TournamentError(f"{spec!r} was not made by make_agent, so it cannot be made again in each "
                                      "worker process: give its name and options, like 'greedy' or "
                                      "{'name': 'search', 'time_ms': 50}, or, for a class of your own, its file "
                                      f"and name, {_python_seat_of(spec)!r}")
            return cls.of({"name": spec.name, **spec.made_with})
        raise TournamentError(f"an agent is a name, a dict with 'name', an AgentSpec, or an agent make_agent made; "
                              f"got {spec!r}")

    def make(self) -> Agent:
        opts = {k: (list(v) if isinstance(v, tuple) else v) for k, v in self.options}
        if self.name == "python":  # a bot author's class, loaded from its file in the process that seats it
            from lcanalysis.tournaments.python_seat import seat_python_agent

            return seat_python_agent(opts.pop("file", None), opts.pop("class", None), opts)
        from lcanalysis.agents import make_agent  # the engine loads on use: 'tournament --help' stays fast

        return make_agent(self.name, **opts)

    def to_identity(self) -> dict[str, Any]:
        """The agent as a results file records it: name, options (JSON values) and label."""
        return {"name": self.name, "options": {k: (list(v) if isinstance(v, tuple) else v) for k, v in self.options},
                "label": self.label}


def _python_seat_of(agent: Agent) -> dict[str, Any]:
    """The seat ``{"name": "python", "file": ..., "class": ...}`` of an agent's class, as far as it is known."""
    import inspect

    cls = type(agent)
    try:
        file = inspect.getsourcefile(cls)
    except (TypeError, OSError):  # (a class defined at the prompt has no file)
        file = None
    if file is None or not os.path.isfile(file):  # (a notebook's cell is no file to load either)
        file = "FILE.py"
    return {"name": "python", "file": file, "class": cls.__name__}


_SPEC_HELP = "write NAME or NAME:OPTION=VALUE[,OPTION=VALUE...], e.g. search:time_ms=50,width=8"
#: ``python:FILE:CLASS[,OPTION=VALUE...]``: the file is all before the first ':CLASS' followed by ',' or the end
PYTHON_SEAT = re.compile(r"(?P<file>.+?):(?P<cls>[A-Za-z_][A-Za-z0-9_]*)(?:,(?P<opts>.*))?", re.DOTALL)
_PYTHON_HELP = "write python:FILE:CLASS[,OPTION=VALUE...], e.g. python:mine.py:Eager or python:mine.py:Eager,depth=2"


#: a label given on the command line, ``LABEL=AGENT``: a word (no ':' or '=', which the agent's own syntax uses)
_LABEL = re.compile(r"([A-Za-z0-9_.+-]+)=(.*)", re.DOTALL)


def parse_agent(text: str) -> str | dict[str, Any]:
    """The command line's agent syntax: ``search``, ``search:time_ms=50,width=8`` or
    ``external:CMD ...`` (a program speaking the bot protocol; CMD split as a shell splits it, so a
    path with spaces is quoted) or ``python:FILE:CLASS[,OPTION=VALUE...]`` (a bot author's ``Agent``
    class, loaded from its file, built with the options), each optionally after ``LABEL=``
    (``mine=external:python mybot.py``, ``mine=python:mine.py:Eager``, ``h2=heuristic``): the name
    the tables, the summary and the results file give it, where it is the text itself. Values are whole numbers,
    numbers (written without '_' between digits) or words. A malformed spec raises ``TournamentError``."""
    if not isinstance(text, str) or not text.strip():
        raise TournamentError(f"an agent name is empty; {_SPEC_HELP}")
    before = text.split(":", 1)[0]
    if "=" in before:  # LABEL=AGENT: an agent's name has no '=', and its options come after its ':'
        labelled = _LABEL.fullmatch(text)
        if labelled is None:
            raise TournamentError(f"agent {text!r}: a label before '=' is a word of letters, digits and _ . + -, "
                                  "e.g. mine=external:python mybot.py")
        label, rest = labelled.groups()
        if "=" in rest.split(":", 1)[0]:
            raise TournamentError(f"agent {text!r}: give one label, LABEL=AGENT")
        spec = parse_agent(rest)
        return {**({"name": spec} if isinstance(spec, str) else spec), "label": label}
    if text.startswith("external:"):
        cmd = text.split(":", 1)[1]
        try:
            words = shlex.split(cmd)  # as a shell splits it: a path with spaces can be quoted
        except ValueError as exc:
            raise TournamentError(f"agent {text!r}: the command cannot be read ({exc})") from None
        if not words:
            raise TournamentError("agent 'external:' names no program; write e.g. 'external:python mybot.py'")
        return {"name": "external", "cmd": words, "label": "external:" + cmd}
    if text.startswith("python:"):
        seat = PYTHON_SEAT.fullmatch(text.split(":", 1)[1])
        if seat is None:
            raise TournamentError(f"agent {text!r} names no class after its file; {_PYTHON_HELP}")
        d: dict[str, Any] = {"name": "python", "file": seat["file"], "class": seat["cls"]}
        if seat["opts"] is not None:
            _read_options(text, seat["opts"], d, ("file", "class"), _PYTHON_HELP)
        d["label"] = text
        return d
    if ":" not in text:
        return text
    name, opts = text.split(":", 1)
    if not name:
        raise TournamentError(f"agent {text!r} has no name before ':'; {_SPEC_HELP}")
    d = {"name": name}
    _read_options(text, opts, d, (), _SPEC_HELP)
    d["label"] = text
    return d


def _read_options(text: str, opts: str, d: dict[str, Any], taken: tuple[str, ...], how: str) -> None:
    """The ``OPTION=VALUE,...`` of agent ``text`` into ``d``; ``taken``: names the spec itself uses."""
    for item in opts.split(","):
        if "=" not in item:
            what = f"option {item!r} has no value" if item else "an option is empty"
            raise TournamentError(f"agent {text!r}: {what}; {how}")
        k, v = item.split("=", 1)
        if not re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", k):
            raise TournamentError(f"agent {text!r}: {k!r} is not an option name; {how}")
        if k in ("name", "label", *taken):
            raise TournamentError(f"agent {text!r}: {k!r} cannot be set as an option")
        if k in d:
            raise TournamentError(f"agent {text!r}: option {k!r} is given twice")
        if not v:
            raise TournamentError(f"agent {text!r}: option {k!r} has no value; {how}")
        d[k] = _option_value(text, k, v)


def _option_value(spec: str, key: str, text: str) -> int | float | str:
    """An option's value as written: a whole number, a number, or else a word; a number written with
    '_' between its digits is refused (Python reads time_ms=1_0 as 10: a typo, another budget)."""
    number = number_or_none(text)
    if number is not None:
        return number
    if grouped_digits(text):
        raise TournamentError(f"agent {spec!r}: option {key}={text}: {GROUPED_DIGITS}")
    return text


def _is_json_value(v: Any) -> bool:
    if v is None or isinstance(v, (bool, str)):
        return True
    if isinstance(v, int):
        return True
    if isinstance(v, float):
        return math.isfinite(v)
    if isinstance(v, (tuple, list)):
        return all(_is_json_value(x) for x in v)
    return False


def _check_type(annotation: Any, key: str, value: Any) -> str | None:
    """What is wrong with ``value`` for a parameter annotated ``annotation`` (a string: the agents
    module uses postponed annotations), or None."""
    ann = str(annotation)
    if value is None:
        return None if "None" in ann else f"{key} must be given a value"
    if ann.startswith("int"):
        if isinstance(value, bool) or not isinstance(value, (int, np.integer)):
            return f"{key} must be a whole number, got {value!r}"
    elif ann.startswith("float"):
        if isinstance(value, bool) or not isinstance(value, (int, float, np.integer, np.floating)):
            return f"{key} must be a number, got {value!r}"
        if not math.isfinite(float(value)):
            return f"{key} must be a finite number, got {value!r}"
    return None


def check_agent(spec: Any, make: bool = True) -> AgentSpec:
    """``spec`` as an ``AgentSpec`` once it is known to make an agent: a known name, known options
    of the right types (JSON values, since a results file records them), and a constructor that
    accepts them. Raises ``TournamentError`` naming the agent and what is wrong. ``make=False``
    checks all but the constructor, which loads (on a fresh install compiles) the engine: what a
    command refuses before it compiles."""
    s = AgentSpec.of(spec)
    label = s.label or s.name
    if not isinstance(s.name, str) or not s.name:
        raise TournamentError(f"agent {label!r}: the name must be a non-empty string")
    if not isinstance(s.label, str) or not s.label:
        raise TournamentError(f"agent {s.name!r}: the label must be a non-empty string")
    if s.name == "python":
        return _check_python(s, label, make)
    from lcanalysis.agents import AGENTS, agent_options, unknown_option

    if s.name != "external" and s.name not in AGENTS:
        raise TournamentError(f"unknown agent {s.name!r}; choose one of {', '.join(AGENTS)}, "
                              "'external:COMMAND' for a program speaking the bot protocol or 'python:FILE:CLASS' "
                              "for an Agent class of your own")
    named, any_kw = agent_options(s.name)
    for key, value in s.options:
        if not isinstance(key, str) or not key:
            raise TournamentError(f"agent {label!r}: option names are strings, got {key!r}")
        if isinstance(value, float) and not math.isfinite(value):
            raise TournamentError(f"agent {label!r}: {key} must be a finite number, got {value!r}")
        if not _is_json_value(value):
            raise TournamentError(f"agent {label!r}: option {key}={value!r} is not a plain value "
                                  "(a number, a word, true/false, or a list of them)")
        p = named.get(key) or any_kw
        if p is None:
            raise TournamentError(f"agent {label!r}: {unknown_option(s.name, [key])}")
        problem = _check_type(p.annotation, key, value)
        if problem:
            raise TournamentError(f"agent {label!r}: {problem}")
    if s.name == "external":
        cmd = dict(s.options).get("cmd")
        if not cmd or (isinstance(cmd, str) and not cmd.split()):
            raise TournamentError(f"agent {label!r}: an external agent needs a command ('cmd')")
    if not make:
        return s
    try:
        agent = s.make()  # builds only: an external program is started on its first turn
    except (TypeError, ValueError) as exc:  # AgentError is a ValueError
        raise TournamentError(f"agent {label!r}: {exc}") from None
    close = getattr(agent, "close", None)
    if close:
        close()
    return s


def _check_python(s: AgentSpec, label: str, make: bool) -> AgentSpec:
    """``check_agent`` of a bot author's class (``python:FILE:CLASS``): its file and class named, its
    options plain values; ``make``: the file loaded and the class built with them, each problem named
    (``python_seat``)."""
    from lcanalysis.agents import AgentError
    from lcanalysis.tournaments.python_seat import check_seat_file

    given = dict(s.options)
    if isinstance(given.get("options"), dict):  # (options written as one dict: they are the seat's own keys)
        raise TournamentError(f"agent {label!r}: give the class's options beside 'file' and 'class', as every "
                              "agent's are: {'name': 'python', 'file': 'mine.py', 'class': 'Eager', 'depth': 2}")
    if isinstance(given.get("class"), type):  # (the class itself: it is found by name in its file, in each worker)
        raise TournamentError(f"agent {label!r}: give the class by its name, 'class': "
                              f"{given['class'].__name__!r}, beside its 'file'")
    missing = [k for k in ("file", "class") if not given.get(k)]
    if missing:
        raise TournamentError(f"agent {label!r}: a python seat needs its {' and '.join(repr(k) for k in missing)}: "
                              "{'name': 'python', 'file': 'mine.py', 'class': 'Eager'}; " + _PYTHON_HELP)
    for key, value in s.options:
        if not isinstance(key, str) or not key:
            raise TournamentError(f"agent {label!r}: option names are strings, got {key!r}")
        if not _is_json_value(value) or (isinstance(value, float) and not math.isfinite(value)):
            raise TournamentError(f"agent {label!r}: option {key}={value!r} is not a plain value "
                                  "(a number, a word, true/false, or a list of them)")
    try:
        check_seat_file(given["file"])
        agent = s.make() if make else None
    except AgentError as exc:
        raise TournamentError(f"agent {label!r}: {str(exc).removeprefix('python: ')}") from None
    close = getattr(agent, "close", None)
    if close:
        close()
    return s


def check_labels(specs: Sequence[AgentSpec]) -> None:
    """A ``TournamentError`` unless every agent of a tournament has a label of its own: the results
    are kept and summed by label."""
    labels = [s.label for s in specs]
    if len(set(labels)) != len(labels):
        raise TournamentError(
            f"agents need distinct labels, got {labels}: a tournament measures agents against each other. The "
            "same agent on both seats, to measure a seat (the first player's edge), is the first-player study "
            "(lcanalysis studies data --only first_player_rounds; lcanalysis.studies.first_player); in Python, "
            "two copies of an agent may also play under labels of their own: h2=heuristic on the command line, "
            "{'name': 'heuristic', 'label': 'h2'} in Python")
