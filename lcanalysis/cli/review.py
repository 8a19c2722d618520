"""Review a recorded round or match: every decision scored for skill, every deck draw for luck.

``lcanalysis review RECORD [--json] [--html FILE] [--player 0|1] [--time S] [--workers N]``.

The record is a game record of docs/spec/interchange.md (JSON or the ``LCR1`` text form of
``lcanalysis.game.records``); a bad record is refused with ``error: ...`` naming the turn index,
the line and the reason. The method, the marks and the rating bands are those of
``lcanalysis.reviewer``.
"""

from __future__ import annotations

import argparse
import sys

from lcanalysis.cli.common import describe, emit, read_stdin, write_output_file
from lcanalysis.options import MAX_WORKERS, check_output_file, nonneg, path_name, seconds

RECORD_HELP = ("a game record: a JSON file ({\"rules\", \"start\", \"turns\"} or a match {\"rules\", \"rounds\"}), "
               "the LCR1 text form, or '-' for standard input")


def _max_time() -> float:
    from lcanalysis.reviewer import MAX_TIME  # read when parsing: 'lcanalysis --help' stays fast

    return MAX_TIME


def add_parser(sub: argparse._SubParsersAction, pos_help: str = "") -> None:
    p = sub.add_parser("review", help="review a recorded round or match: skill of every decision, luck of every draw",
                       description=describe(__doc__))
    p.add_argument("record", help=RECORD_HELP)
    p.add_argument("--json", action="store_true",
                   help="print the JSON answer of docs/spec/interchange.md (decisions and players, plus extras)")
    p.add_argument("--html", metavar="FILE", type=path_name("--html"),
                   help="also write a self-contained HTML report (value graph, critical positions) to FILE")
    p.add_argument("--player", type=int, choices=(0, 1), default=None,
                   help="review only this player's decisions (default: both; a one-player record: its player)")
    p.add_argument("--time", type=seconds(_max_time, "seconds a decision"), default=None,
                   help="seconds of analysis a decision, as rollout counts (default 0.4; reproducible, "
                        "not a clock)")
    p.add_argument("--seed", type=nonneg("--seed"), default=0,
                   help="the seed of the sampled worlds (default 0; same seed, same review)")
    p.add_argument("--workers", type=nonneg("--workers", MAX_WORKERS, minimum=1), default=None,
                   help="processes to run decisions on (default: every core; 1 runs in this process)")
    p.add_argument("--no-progress", action="store_true", help="no progress bar on standard error")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from lcanalysis.game.records import read_record

    source = args.record
    if source == "-":
        source = read_stdin("a game record")
    # a RecordError (a ValueError) becomes 'error: ...', exit 2; a long record shows a bar after a second
    record = read_record(source, progress=not args.no_progress)
    if args.html:
        check_output_file("--html", args.html, {"the record": args.record},  # before the review, not after it
                          replaces=("an HTML file", ("<!doctype html", "<html")))
    from lcanalysis.reviewer import DEFAULT_TIME, review  # the engine: loaded once the record is read

    try:
        rv = review(record, player=args.player, time_budget=args.time or DEFAULT_TIME, seed=args.seed,
                    workers=args.workers, executor="serial" if args.workers == 1 else None,
                    progress=not args.no_progress)  # a log file too: never 20 s of silence
    except KeyboardInterrupt:  # Ctrl-C: say what is kept (nothing) and how to go on, then stop as asked
        print(f"stopped: a review is printed{', and its HTML report written,' if args.html else ''} only once "
              "every turn is judged, so the turns judged so far are not kept; run the same command again "
              "(the same seed gives the same review)", file=sys.stderr)
        raise
    if args.html:
        write_output_file("--html", args.html, rv.to_html())
    if args.json:
        emit(rv.to_json())
    else:
        print(rv.to_text())
        if args.html:
            print(f"HTML report written to {args.html}")
    return 0
