"""``lcanalysis bot NAME [--seed N] [KEY=VALUE ...]``: one agent over the JSON-lines bot protocol."""

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
                                "measured) or match")
    p.add_argument("--seed", type=nonneg("--seed", MAX_SEED), default=0, help="the agent's random seed (default 0)")
    p.add_argument("options", nargs="*", default=[], metavar="KEY=VALUE",
                   help="agent options, numbers only, e.g. time_ms=50 (the milliseconds a turn may take "
                        "when a request gives none); an option the agent does not take is refused, naming "
                        "those it takes")
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

    agent, colon, spec = name.partition(":")
    if colon and agent in AGENTS:  # NAME:OPTION=VALUE,... as a tournament takes it: the bot's options are words
        words = " ".join(["lcanalysis bot", agent, *(o for o in spec.split(",") if o)])
        return _refuse(f"unknown agent {name!r}: the bot takes an agent's options as KEY=VALUE words after "
                       f"its name: {words}")
    if name not in AGENTS:  # 'external' is a seat for another program, not a bot this one can serve
        return _refuse(f"unknown agent {name!r}; choose one of {', '.join(AGENTS)}")
    seed = 0
    options: dict[str, Any] = {}
    while args:
        a = args.pop(0)
        if a == "--seed":
            value = args.pop(0) if args else ""
            try:
                seed = whole_text(value)
            except ValueError:
                return _refuse(f"--seed must be a whole number, got {value!r}{digits_note(value)}")
        elif "=" in a:
            k, v = a.split("=", 1)
            if k == "seed":  # (serve's own seed: any other unknown option is the agent's to refuse)
                return _refuse("the seed is given as --seed N, not as an agent option")
            if k in options:
                return _refuse(f"option {k!r} is given twice")
            number = _option_value(v)
            if number is None:
                return _refuse(f"option {a!r}: the value must be a finite number, like time_ms=50{digits_note(v)}")
            options[k] = number
        else:
            return _refuse(f"unknown argument {a!r}: agent options are KEY=VALUE, e.g. time_ms=50")
    if sys.stdin.isatty():  # a person, not a referee: say what the silence waits for (standard error: the
        # answers on standard output stay JSON lines only)
        print(f"lcanalysis bot: serving {name} over the JSON-lines bot protocol: one request a line, like "
              '{"type": "turn", "position": VIEW} (docs/spec/interchange.md, "Bots over standard input and '
              'output"); {"type": "quit"} or Ctrl-D ends. To play against it yourself: lcanalysis play --agent '
              f"{name}", file=sys.stderr, flush=True)
    return serve(name, sys.stdin, sys.stdout, True, seed=seed, **options)  # True: warm up first
