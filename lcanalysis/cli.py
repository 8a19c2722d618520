"""The ``lcanalysis`` command. Each subcommand reads positions through ``notation.read_position``
and answers bad input with ``error: ...`` on standard error and exit status 2."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable, Sequence
from importlib import resources
from typing import Any

from .notation import read_position
from .position import Position, PositionError
from .rules import Rules, RulesError
from .view import View

EXAMPLES = ("midround", "endgame", "opening")


class UsageError(ValueError):
    """Bad command-line input; printed as ``error: ...``."""


def example_text(name: str) -> str:
    """A built-in example position shipped with the package (``lcanalysis/examples/NAME.json``)."""
    if name not in EXAMPLES:
        raise UsageError(f"no example {name!r}; built-in examples: {', '.join(EXAMPLES)}")
    return resources.files("lcanalysis").joinpath("examples", f"{name}.json").read_text(encoding="utf-8")


def load(source: str) -> Position | View:
    """POSITION argument: a JSON file, ``-`` for standard input, ``example:NAME``, or the one-line string."""
    if source == "-":
        text = sys.stdin.read()
        if not text.strip():
            raise UsageError("standard input is empty: expected a JSON position or an 'LC1;...' string")
        return read_position(text)
    if source.startswith("example:"):
        return read_position(example_text(source.split(":", 1)[1]))
    return read_position(source)


def _emit(obj: Any) -> None:
    print(json.dumps(obj, indent=None))


# --- subcommands ----------------------------------------------------------------------


def _print_position(pos: Position | View, args: argparse.Namespace) -> None:
    """As --json, --string or (by default) the text drawing."""
    if args.json:
        _emit(pos.to_json())
    elif args.string:
        print(pos.to_string())
    else:
        print(pos.to_text())


def cmd_show(args: argparse.Namespace) -> int:
    pos = load(args.position)
    if args.svg:
        with open(args.svg, "w", encoding="utf-8") as fh:
            fh.write(str(pos._repr_svg_()))
    _print_position(pos, args)
    return 0


def cmd_deal(args: argparse.Namespace) -> int:
    rules = Rules(colors=args.colors, no_redraw=not args.redraw)
    _print_position(Position.deal(seed=args.seed, rules=rules, starter=args.starter), args)
    return 0


def cmd_solve(args: argparse.Namespace) -> int:
    from .search.cli_solve import solve_json

    pos = load(args.position)
    answer = solve_json(pos, max_stalls=args.max_stalls, max_turns=args.max_turns, leaf=args.leaf,
                        samples=args.samples, seed=args.seed, workers=args.workers)
    if args.json:
        _emit(answer)
    else:
        _print_moves(answer)
    return 0


def cmd_wager(args: argparse.Namespace) -> int:
    from .wager import wager_answer

    pos = load(args.position)
    view = pos.view() if isinstance(pos, Position) else pos
    answer = wager_answer(view, args.color, args.draws)
    if args.json:
        _emit(answer)
    else:
        print(f"colour {answer['color']}, {answer['draws']} draws (canonical wager model, exact)")
        for row in answer["by_wagers"]:
            print(f"  {row['wagers']} wager(s): mean {row['mean']:+.2f}, P(score > 0) {row['p_positive']:.3f}")
    return 0


def cmd_advise(args: argparse.Namespace) -> int:
    from .advisor import advise

    pos = load(args.position)
    analysis = advise(pos, time_budget=args.time, seed=args.seed)
    if args.json:
        _emit(analysis.to_json())
    else:
        print(pos.to_text())
        print()
        print(analysis.to_text(limit=args.top))
    return 0


def cmd_bot(args: argparse.Namespace) -> int:
    from .agents.protocol import main as serve_main

    return int(serve_main([args.name, "--seed", str(args.seed), *args.options]) or 0)


def _print_moves(answer: dict[str, Any]) -> None:
    kind = answer.get("kind", "value")
    print(f"{kind}: {answer['value']:+.3f} ({'exact' if answer['exact'] else 'estimate'})"
          + (f" under {answer['bounds']}" if answer.get("bounds") else ""))
    model = kind == "depth-limited estimate"  # a heuristic leaf: no sampling error to state
    for i, m in enumerate(answer["moves"]):
        err = "" if answer["exact"] else (" (heuristic)" if model and m["stderr"] == 0 else f" ± {m['stderr']:.3f}")
        print(f"{i + 1:3d}. {m['move']:<9} {m['value']:+9.3f}{err}")
    print(f"nodes {answer.get('nodes', 0)}, {answer.get('seconds', 0):.3f} s")


# --- the parser -----------------------------------------------------------------------


def _nonneg(name: str) -> Callable[[str], int]:
    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{name} must be a whole number, got {text!r}") from None
        if value < 0:
            raise argparse.ArgumentTypeError(f"{name} must be >= 0, got {value}")
        return value

    return parse


def _positive_float(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"time must be a number of seconds, got {text!r}") from None
    if not value > 0:
        raise argparse.ArgumentTypeError(f"time must be > 0 seconds, got {text}")
    return value


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="lcanalysis", description="Lost Cities analysis: positions, "
                                     "exact endgames, wagers, advice, bots and tournaments.")
    sub = parser.add_subparsers(dest="command", required=True)
    pos_help = "a JSON file, '-' for standard input, 'example:NAME' or a one-line 'LC1;...' string"

    p = sub.add_parser("show", help="draw a position or view as text (validates it)")
    p.add_argument("position", help=pos_help)
    g = p.add_mutually_exclusive_group()
    g.add_argument("--json", action="store_true", help="print the canonical JSON instead")
    g.add_argument("--string", action="store_true", help="print the one-line string instead")
    p.add_argument("--svg", metavar="FILE", help="also write an SVG picture to FILE")
    p.set_defaults(func=cmd_show)

    p = sub.add_parser("deal", help="deal a new round")
    p.add_argument("--seed", type=_nonneg("seed"), required=True)
    p.add_argument("--colors", type=int, choices=(5, 6), default=5)
    p.add_argument("--redraw", action="store_true", help="allow drawing back the card just discarded")
    p.add_argument("--starter", type=int, choices=(0, 1), default=0)
    g = p.add_mutually_exclusive_group()
    g.add_argument("--json", action="store_true")
    g.add_argument("--string", action="store_true")
    p.set_defaults(func=cmd_deal)

    p = sub.add_parser("solve", help="exact endgame values of every turn (spec: Endgame values)")
    p.add_argument("position", help=pos_help)
    p.add_argument("--max-stalls", type=_nonneg("--max-stalls"), default=None)
    p.add_argument("--max-turns", type=_nonneg("--max-turns"), default=None)
    p.add_argument("--leaf", default="as-is", help="leaf value at the horizon: as-is (exact), heuristic (the hand evaluator: an estimate) or simple")
    p.add_argument("--samples", type=_nonneg("--samples"), default=None,
                   help="for a view: sample this many splits instead of enumerating them all")
    p.add_argument("--seed", type=_nonneg("--seed"), default=0)
    p.add_argument("--workers", type=_nonneg("--workers"), default=None,
                   help="for a view: solve the splits on this many threads (0: one per core)")
    p.add_argument("--json", action="store_true")
    p.set_defaults(func=cmd_solve)

    p = sub.add_parser("wager", help="canonical wager model for one colour")
    p.add_argument("position", help=pos_help)
    p.add_argument("--color", required=True)
    p.add_argument("--draws", type=_nonneg("--draws"), required=True)
    p.add_argument("--json", action="store_true")
    p.set_defaults(func=cmd_wager)

    p = sub.add_parser("advise", help="rank every legal turn of a view by expected value")
    p.add_argument("position", nargs="?", default="example:midround", help=pos_help)
    p.add_argument("--time", type=_positive_float, default=1.0, help="time budget in seconds")
    p.add_argument("--seed", type=_nonneg("--seed"), default=0)
    p.add_argument("--top", type=_nonneg("--top"), default=None, help="print only the best N turns")
    p.add_argument("--json", action="store_true")
    p.set_defaults(func=cmd_advise)

    p = sub.add_parser("bot", help="play an agent over the JSON-lines bot protocol")
    p.add_argument("name", help="random, greedy, heuristic or search")
    p.add_argument("--seed", type=_nonneg("--seed"), default=0)
    p.add_argument("options", nargs="*", metavar="KEY=VALUE", help="agent options, e.g. time_ms=50")
    p.set_defaults(func=cmd_bot)

    # listed for the help text only: main() hands "tournament ..." to lcanalysis.tournament's own parser
    sub.add_parser("tournament", help="run a tournament (see 'lcanalysis tournament --help')", add_help=False)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    if argv[:1] == ["tournament"]:
        # the tournament has a parser of its own; argparse would keep its leading options
        # (``--help``, ``--colors``) for the top-level parser
        from .tournament import tournament_main

        return int(tournament_main(argv[1:]) or 0)
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        return int(args.func(args))
    except (PositionError, RulesError, UsageError, ValueError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    except BrokenPipeError:  # output piped into `head` and the like: not an error
        sys.stderr.close()
        return 0
    except OSError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130


if __name__ == "__main__":
    sys.exit(main())
