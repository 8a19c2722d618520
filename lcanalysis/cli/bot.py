"""``lcanalysis bot NAME [--seed N] [KEY=VALUE ...]``: one agent over the JSON-lines bot protocol, ours by
name or a bot author's ``Agent`` class by ``python:FILE:CLASS``."""

from __future__ import annotations

import argparse
import math
import sys
from collections.abc import Sequence
from typing import Any

from lcanalysis.options import MAX_SEED, digits_note, error_line, nonneg, number_or_none, whole_text


def add_parser(sub: argparse._SubParsersAction, pos_help: str) -> None:
    p = sub.add_parser("bot", help="play an agent over the JSON-lines bot protocol",
                       description="lcanalysis bot NAME [KEY=VALUE ...]: one agent for a referee program. It reads "
                                   "one JSON request a line on standard input, {\"type\": \"turn\", \"position\": "
                                   "VIEW} or {\"type\": \"quit\"}, and answers each turn with one line, like "
                                   "{\"move\": \"+R7/D\"}; it prints nothing until a request comes. The protocol, "
                                   "with a whole example session: docs/spec/interchange.md, \"Bots over standard "
                                   "input and output\". To play an agent yourself: lcanalysis play.")
    p.add_argument("name", help="an agent: random, greedy, heuristic, stalling, search, best (the strongest "
                                "measured) or match; or python:FILE:CLASS[,OPTION=VALUE...], an Agent class of "
                                "your own loaded from its file (lcanalysis bot python:mine.py:Eager: each turn "
                                "answered as protocol.answer answers it, an error it raises or a turn that is not "
                                "legal answered as an error; docs/agents.md, \"Your own agent\")")
    p.add_argument("--seed", type=nonneg("--seed", MAX_SEED), default=0, help="the agent's random seed (default 0)")
    p.add_argument("options", nargs="*", default=[], metavar="KEY=VALUE",
                   help="agent options, numbers only, e.g. time_ms=50 (the milliseconds a turn may take "
                        "when a request gives none); an option the agent does not take is refused, naming "
                        "those it takes. A class of your own takes numbers or words, passed to its constructor")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    return int(main([args.name, "--seed", str(args.seed), *args.options]) or 0)


def _option_value(text: str) -> int | float | None:
    """An option's value: a whole number, else a finite float; None for anything else (nan,
    inf, 1e400 and 1_0 included)."""
    x = number_or_none(text)
    return x if x is None or math.isfinite(x) else None


def _refuse(message: str) -> int:
    """A bad argument: one line naming the command and the problem, exit status 2 (as every command's)."""
    print(error_line("lcanalysis bot", message), file=sys.stderr)
    return 2


def main(argv: Sequence[str] | None = None) -> int:
    """``lcanalysis bot NAME [--seed N] [KEY=VALUE ...]``: serve one agent."""
    from lcanalysis.agents.protocol import serve  # loaded on use: 'lcanalysis --help' stays fast

    args = list(sys.argv[1:] if argv is None else argv)
    if not args:
        return _refuse("give the agent to serve, e.g. lcanalysis bot heuristic")
    name = args.pop(0)
    from lcanalysis.agents import AGENTS

    label, equals, rest = name.partition("=")
    if equals and ":" not in label and (rest.split(":")[0] in AGENTS or rest.startswith("python:")):
        # a tournament's LABEL=AGENT, pasted: a label names an agent in a tournament's tables, the bot has none
        return _refuse(f"unknown agent {name!r}: a label ({label}=) names an agent in a tournament; the bot serves "
                       f"one agent and takes none: lcanalysis bot {rest}")
    agent, colon, spec = name.partition(":")
    if agent == "python":  # a bot author's Agent class, from its file: its options are words too
        return _serve_python(name, args)
    if colon and agent in AGENTS:  # NAME:OPTION=VALUE,... as a tournament takes it: the bot's options are words
        words = " ".join(["lcanalysis bot", agent, *(o for o in spec.split(",") if o)])
        return _refuse(f"unknown agent {name!r}: the bot takes an agent's options as KEY=VALUE words after "
                       f"its name: {words}")
    if name not in AGENTS:  # 'external' is a seat for another program, not a bot this one can serve
        return _refuse(f"unknown agent {name!r}; choose one of {', '.join(AGENTS)}, or python:FILE:CLASS for an "
                       "Agent class of your own")
    read = _seed_and_options(args)
    if isinstance(read, str):
        return _refuse(read)
    seed, given = read
    options: dict[str, Any] = {}
    for k, v in given:
        if k in options:
            return _refuse(f"option {k!r} is given twice")
        number = _option_value(v)
        if number is None:
            return _refuse(f"option '{k}={v}': the value must be a finite number, like time_ms=50{digits_note(v)}")
        options[k] = number
    _greet(name)
    return serve(name, sys.stdin, sys.stdout, True, seed=seed, **options)  # True: warm up first


def _seed_and_options(args: list[str]) -> tuple[int, list[tuple[str, str]]] | str:
    """The words after the agent: ``--seed N`` and the ``KEY=VALUE`` options as written; or the problem."""
    seed = 0
    words: list[tuple[str, str]] = []
    while args:
        a = args.pop(0)
        if a == "--seed":
            value = args.pop(0) if args else ""
            try:
                seed = whole_text(value)
            except ValueError:
                return f"--seed must be a whole number, got {value!r}{digits_note(value)}"
        elif "=" in a:
            k, v = a.split("=", 1)
            if k == "seed":  # (serve's own seed: any other unknown option is the agent's to refuse)
                return "the seed is given as --seed N, not as an agent option"
            words.append((k, v))
        else:
            return f"unknown argument {a!r}: agent options are KEY=VALUE, e.g. time_ms=50"
    return seed, words


def _serve_python(name: str, args: list[str]) -> int:
    """``lcanalysis bot python:FILE:CLASS[,OPTION=VALUE...] [OPTION=VALUE ...]``: a bot author's class,
    loaded and built as a tournament seats it (``tournaments.python_seat``), each turn ``protocol.answer``'s
    reply to it, as the loop of a bot script of its own would give (docs/agents.md, "Your own agent")."""
    from lcanalysis.agents import AgentError
    from lcanalysis.agents.protocol import serve
    from lcanalysis.tournaments.python_seat import SeatedAgent
    from lcanalysis.tournaments.specs import TournamentError, check_agent, parse_agent

    read = _seed_and_options(args)
    if isinstance(read, str):
        return _refuse(read)
    seed, words = read
    text = name + "".join(f",{k}={v}" for k, v in words)  # the words are the spec's own options, as it reads them
    try:
        spec = check_agent(parse_agent(text), make=False)  # (the file and the options as values, not yet loaded)
        seated = spec.make()
        assert isinstance(seated, SeatedAgent)
    except TournamentError as exc:
        return _refuse(str(exc))
    except AgentError as exc:  # (as a tournament says it: no such class, an option refused, ...)
        return _refuse(f"agent {text!r}: {str(exc).removeprefix('python: ')}")
    try:
        _greet(name)
        return serve(seated.agent, sys.stdin, sys.stdout, True, seed=seed)  # (the author's agent is not warmed)
    finally:
        seated.close()


def _greet(name: str) -> None:
    if sys.stdin.isatty():  # a person, not a referee: say what the silence waits for (standard error: the
        # answers on standard output stay JSON lines only)
        print(f"lcanalysis bot: serving {name} over the JSON-lines bot protocol: one request a line, like "
              '{"type": "turn", "position": VIEW} (docs/spec/interchange.md, "Bots over standard input and '
              'output"); {"type": "quit"} or Ctrl-D ends. To play against it yourself: lcanalysis play --agent '
              f"{name}", file=sys.stderr, flush=True)
