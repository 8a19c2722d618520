"""``lcanalysis bot NAME [--seed N] [KEY=VALUE ...]``: one agent over the JSON-lines bot protocol."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from typing import Any

from lcanalysis.cli.common import nonneg


def add_parser(sub: argparse._SubParsersAction, pos_help: str) -> None:
    p = sub.add_parser("bot", help="play an agent over the JSON-lines bot protocol")
    p.add_argument("name", help="random, greedy, heuristic or search")
    p.add_argument("--seed", type=nonneg("--seed"), default=0, help="the agent's random seed")
    p.add_argument("options", nargs="*", metavar="KEY=VALUE", help="agent options, e.g. time_ms=50")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    return int(main([args.name, "--seed", str(args.seed), *args.options]) or 0)


def main(argv: Sequence[str] | None = None) -> int:
    """``lcanalysis bot NAME [--seed N] [key=value ...]``: serve one agent."""
    from lcanalysis.agents.protocol import serve  # loaded on use: 'lcanalysis --help' stays fast

    args = list(sys.argv[1:] if argv is None else argv)
    if not args:
        print("usage: lcanalysis bot AGENT [--seed N] [option=value ...]", file=sys.stderr)
        return 2
    name = args.pop(0)
    seed = 0
    options: dict[str, Any] = {}
    while args:
        a = args.pop(0)
        if a == "--seed":
            seed = int(args.pop(0))
        elif "=" in a:
            k, v = a.split("=", 1)
            try:
                options[k] = int(v)
            except ValueError:
                options[k] = float(v)
        else:
            print(f"unknown argument {a!r}", file=sys.stderr)
            return 2
    return serve(name, sys.stdin, sys.stdout, seed=seed, **options)
