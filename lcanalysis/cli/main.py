"""The ``lcanalysis`` command. Each subcommand reads positions through ``notation.read_position``
and answers bad input with ``error: ...`` on standard error and exit status 2."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from lcanalysis.cli import advise, bot, solve, studies, wager
from lcanalysis.cli.common import UsageError, emit, load, nonneg
from lcanalysis.game.position import Position, PositionError
from lcanalysis.game.rules import Rules, RulesError
from lcanalysis.game.view import View

# --- subcommands ----------------------------------------------------------------------


def _print_position(pos: Position | View, args: argparse.Namespace) -> None:
    """As --json, --string or (by default) the text drawing."""
    if args.json:
        emit(pos.to_json())
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


# --- the parser -----------------------------------------------------------------------


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
    p.add_argument("--seed", type=nonneg("seed"), required=True)
    p.add_argument("--colors", type=int, choices=(5, 6), default=5)
    p.add_argument("--redraw", action="store_true", help="allow drawing back the card just discarded")
    p.add_argument("--starter", type=int, choices=(0, 1), default=0)
    g = p.add_mutually_exclusive_group()
    g.add_argument("--json", action="store_true")
    g.add_argument("--string", action="store_true")
    p.set_defaults(func=cmd_deal)

    for command in (solve, wager, advise, bot, studies):
        command.add_parser(sub, pos_help)
    # listed for the help text only: main() hands "tournament ..." to cli.tournament's own parser
    sub.add_parser("tournament", help="run a tournament (see 'lcanalysis tournament --help')", add_help=False)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    if argv[:1] == ["tournament"]:
        # the tournament has a parser of its own; argparse would keep its leading options
        # (``--help``, ``--colors``) for the top-level parser
        from lcanalysis.cli.tournament import tournament_main

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
