"""The ``lcanalysis`` command: the parser, the commands ``show`` and ``deal``, and the wiring of
the other commands (one module each). Every command reads positions through
``notation.read_position`` (``common.load``: one that cannot be read is refused as a bad argument,
``lcanalysis show: error: argument position: ...``) and answers other bad input with ``error: ...`` on
standard error; exit status 2 either way.

Start-up is kept short: nothing is imported before the command is known. ``show``, ``deal`` and
``wager`` (the canonical wager model is plain Python) need no compiled code, so they run the rules
kernel as plain Python (numba's ``NUMBA_DISABLE_JIT``; the tests check that both ways give the
same answers) and never wait for the engine to compile. Commands that
need the engine first make sure it is compiled (``warmup.engine_ready``), saying so when it
is not. When an ``lcanalysis server`` of this version runs, the commands it serves are handed to
it (``server.forward``) and answer without loading anything.
"""

from __future__ import annotations

import argparse
import difflib
import os
import sys
from collections.abc import Sequence

from lcanalysis import __version__
from lcanalysis.cli import advise, bot, play, review, rollout, server, shell, solve, studies, wager, warmup
from lcanalysis.cli.common import emit, load, meant_command, write_output_file
from lcanalysis.options import (
    MAX_SEED,
    CommandParser,
    OptionError,
    UsageError,
    check_output_file,
    error_line,
    nonneg,
    path_name,
)

#: commands that need no compiled code: they start in a fraction of a second
LIGHT_COMMANDS = ("show", "deal", "wager")
#: commands that run the compiled engine: compiled first, with a notice, if this version never was
ENGINE_COMMANDS = ("solve", "advise", "rollout", "play", "bot", "tournament", "studies", "review", "shell",
                   "server")


# --- subcommands ----------------------------------------------------------------------


def _print_position(pos, args: argparse.Namespace) -> None:
    """As --json, --string or (by default) the text drawing."""
    if args.json:
        emit(pos.to_json())
    elif args.string:
        print(pos.to_string())
    else:
        print(pos.to_text())


def cmd_show(args: argparse.Namespace) -> int:
    if args.svg:
        check_output_file("--svg", args.svg, {"the position shown": args.position},
                          replaces=("an SVG picture", ("<svg", "<?xml")))  # (over its own kind only)
    pos = load(args.position)
    if args.svg:
        write_output_file("--svg", args.svg, str(pos._repr_svg_()))
    _print_position(pos, args)
    return 0


def cmd_deal(args: argparse.Namespace) -> int:
    from lcanalysis.game.position import Position
    from lcanalysis.game.rules import Rules

    rules = Rules(colors=args.colors, no_redraw=not args.redraw)
    _print_position(Position.deal(seed=args.seed, rules=rules, starter=args.starter), args)
    return 0


# --- the parser -----------------------------------------------------------------------


def build_parser() -> argparse.ArgumentParser:
    parser = CommandParser(prog="lcanalysis", description="Lost Cities analysis: positions, "
                                           "exact endgames, wagers, advice, bots and tournaments.")
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}",
                        help="print the version of lcanalysis and exit")
    sub = parser.add_subparsers(dest="command", required=True)
    pos_help = ("a JSON file, '-' for standard input, 'example:NAME' (midround, endgame, opening) "
                "or a one-line 'LC1;...' string")

    p = sub.add_parser("show", help="draw a position or view as text (validates it)",
                       description="lcanalysis show POSITION [--json|--string] [--svg FILE]: the board, the hands, "
                                   "the draw pile and the one-line string of a position or a view; a position that "
                                   "breaks the rules is refused with an error naming the problem (exit status 2).")
    p.add_argument("position", help=pos_help)
    g = p.add_mutually_exclusive_group()
    g.add_argument("--json", action="store_true", help="print the canonical JSON instead")
    g.add_argument("--string", action="store_true", help="print the one-line string instead")
    p.add_argument("--svg", metavar="FILE", type=path_name("--svg"), help="also write an SVG picture to FILE")
    p.set_defaults(func=cmd_show)

    p = sub.add_parser("deal", help="deal a new round",
                       description="lcanalysis deal --seed N [--colors 5|6] [--json|--string]: a new round dealt "
                                   "from numpy's default_rng(N), drawn as 'lcanalysis show' draws a position; the "
                                   "same seed deals the same round.")
    p.add_argument("--seed", type=nonneg("--seed", MAX_SEED), required=True,
                   help="the shuffle (numpy default_rng(seed)); 'lcanalysis play --seed N', with the same --colors, "
                        "plays this deal")
    p.add_argument("--colors", type=int, choices=(5, 6), default=5, help="5 or 6 expeditions (default 5)")
    p.add_argument("--redraw", action="store_true", help="allow drawing back the card just discarded")
    p.add_argument("--starter", type=int, choices=(0, 1), default=0, help="the player who moves first (default 0)")
    g = p.add_mutually_exclusive_group()
    g.add_argument("--json", action="store_true", help="print the canonical JSON")
    g.add_argument("--string", action="store_true", help="print the one-line string")
    p.set_defaults(func=cmd_deal)

    for command in (solve, wager, advise, rollout, play, review, bot, studies, warmup):
        command.add_parser(sub, pos_help)
    shell.add_parser(sub, run_command)
    server.add_parser(sub, run_command)
    # listed for the help text only: main() hands "tournament ..." to cli.tournament's own parser
    sub.add_parser("tournament", help="run a tournament (see 'lcanalysis tournament --help')", add_help=False)
    return parser


def _prepare_engine(command: str, argv: Sequence[str], plain_kernel: bool) -> None:
    """Plain-Python kernel for the light commands of a one-shot process (``plain_kernel``); a
    compiled engine, announced, for the rest."""
    if command in LIGHT_COMMANDS:
        if plain_kernel and "numba" not in sys.modules:
            os.environ.setdefault("NUMBA_DISABLE_JIT", "1")
        from lcanalysis.core.jit import jit_disabled

        if not jit_disabled():  # a program's call, or NUMBA_DISABLE_JIT=0: the rules kernel compiled, saying so
            warmup.rules_ready()
    elif command in ENGINE_COMMANDS and not any(a in ("-h", "--help") for a in argv):
        warmup.engine_ready()
        # every command answers as a fresh process does, node counts included (the shell's, the
        # server's and a program's calls of main in one process too); a process that never loaded
        # the search has no tables to forget, and a command that needs no search (a bot, a
        # tournament of agents that do not search) does not load it (0.4 s) for nothing
        perfect = sys.modules.get("lcanalysis.search.perfect")
        if perfect is not None:
            perfect.clear_shared_tables()


def _check_command(parser: argparse.ArgumentParser, argv: list[str]) -> None:
    """``lcanalysis`` alone prints what it can do (argparse said only "the following arguments are
    required: command"); a command that is not one is refused naming the command meant, when one is
    close (``advice``, ``hint``: "did you mean 'advise'?")."""
    sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    if not argv:
        parser.print_help(sys.stderr)
        parser.exit(2, "\nlcanalysis: error: give a command, like 'lcanalysis advise example:midround' ('lcanalysis "
                       "COMMAND --help' for its options)\n")
    word = argv[0]
    if word.startswith("-") or word in sub.choices:
        return
    meant = meant_command(word, list(sub.choices))
    hint = f" (did you mean '{meant}'?)" if meant else ""
    parser.error(f"unknown command '{word}'{hint}; the commands are {', '.join(sub.choices)}")


def _parse(argv: list[str]) -> argparse.Namespace:
    """``parse_args``, but an unknown option is refused by the command's own parser (argparse
    refuses it at the top, whose usage names no option of the command), with the closest option
    of the command when one is close: "unrecognized arguments: --maxstalls 0; did you mean --max-stalls?"."""
    parser = build_parser()
    _check_command(parser, argv)
    args, extras = parser.parse_known_args(argv)
    command = parser
    while subs := [a for a in command._actions if isinstance(a, argparse._SubParsersAction)]:
        chosen = getattr(args, subs[0].dest or "", None)
        if chosen not in subs[0].choices:
            break
        command = subs[0].choices[chosen]
    args.prog = command.prog  # the command an argument refused after the parse names ('lcanalysis play')
    if not extras:
        return args
    options = [o for a in command._actions for o in a.option_strings if o.startswith("--")]
    close = [m for e in extras if e.startswith("-")
             for m in difflib.get_close_matches(e.split("=")[0], options, n=1, cutoff=0.7)]
    # a clause, not brackets: error_line ends the line with its own "(see ... --help)"
    hint = f"; did you mean {close[0]}?" if close else ""
    command.error(f"unrecognized arguments: {' '.join(extras)}{hint}")
    raise AssertionError("unreachable: ArgumentParser.error exits")


def run_command(argv: Sequence[str], plain_kernel: bool = False) -> int:
    """One command, in this process: its exit status, bad input printed as ``error: ...`` (status
    2). argparse's own exits (a bad option, ``--help``) leave as ``SystemExit``; a broken output
    pipe and Ctrl-C leave as ``BrokenPipeError`` and ``KeyboardInterrupt``. ``main`` and the
    shell's every line run through here; ``plain_kernel``: this process is the one-shot command
    alone (see ``main``)."""
    argv = list(argv)
    prog = "lcanalysis"
    if argv[:1] == ["help"]:  # 'lcanalysis help [COMMAND]', as in the shell: the command's --help
        argv = [*argv[1:2], "--help"]
    try:
        if argv[:1] == ["tournament"]:
            # the tournament has a parser of its own; argparse would keep its leading options
            # (``--help``, ``--colors``) for the top-level parser
            from lcanalysis.cli.tournament import tournament_main

            # compiled once its agents are known good: a mistyped one is refused at once, not after a compile
            return int(tournament_main(argv[1:], lambda: _prepare_engine("tournament", argv, plain_kernel)) or 0)
        if argv[:1] in (["rollout"], ["advise"]):  # '--turn -W2/G': a discard begins with '-'
            argv = rollout.joined_turns(argv)
        args = _parse(argv)
        prog = args.prog
        precheck = getattr(args, "precheck", None)
        if precheck is not None:  # input a command can refuse by reading it (a bad --turn) refused before the compile
            precheck(args)
        compiled = getattr(args, "compiled", None)  # a light command asked for work it runs compiled ('wager --models')
        _prepare_engine(args.command, argv, plain_kernel and not (compiled is not None and compiled(args)))
        return int(args.func(args))
    except OptionError as exc:  # an argument refused once read (an agent): the line of the parser's refusals
        print(error_line(prog, str(exc)), file=sys.stderr)
        return 2
    except (UsageError, ValueError) as exc:  # PositionError, RulesError, SearchError... are ValueErrors
        print(f"error: {exc}", file=sys.stderr)
        return 2
    except BrokenPipeError:
        raise
    except OSError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    except MemoryError:  # a line, not a traceback: the machine, not the input, set the limit
        print("error: out of memory: this needs more memory than the machine gives (a search's tables: "
              "--max-memory; a record: a shorter one)", file=sys.stderr)
        return 1


def main(argv: Sequence[str] | None = None) -> int:
    # only a process started as 'lcanalysis ...' may run a light command's kernel as plain Python:
    # the switch holds for the whole process, so a program calling main(argv), and all it computes
    # after, keeps the compiled engine
    plain_kernel = argv is None
    argv = sys.argv[1:] if argv is None else list(argv)
    try:
        status = server.forward(argv)  # a running 'lcanalysis server' answers at once
        return run_command(argv, plain_kernel) if status is None else status
    except BrokenPipeError:  # output piped into `head` and the like: not an error
        sys.stderr.close()
        return 0
    except KeyboardInterrupt:
        return 130


if __name__ == "__main__":
    sys.exit(main())
