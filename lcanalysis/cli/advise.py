"""``lcanalysis advise [POSITION] [--time S] [--seed N] [--top N] [--json]``: every turn ranked."""

from __future__ import annotations

import argparse

from lcanalysis.cli.common import emit, load, nonneg, positive_float


def add_parser(sub: argparse._SubParsersAction, pos_help: str) -> None:
    p = sub.add_parser("advise", help="rank every legal turn of a view by expected value")
    p.add_argument("position", nargs="?", default="example:midround", help=pos_help)
    p.add_argument("--time", type=positive_float, default=1.0, help="thinking time in seconds (sets the number of play-outs; at most 3600)")
    p.add_argument("--seed", type=nonneg("--seed"), default=0, help="the seed of the sampled worlds (same seed, same answer)")
    p.add_argument("--top", type=nonneg("--top"), default=None, help="print only the best N turns")
    p.add_argument("--json", action="store_true", help="print the JSON answer of docs/spec/interchange.md")
    p.set_defaults(func=run)



def run(args: argparse.Namespace) -> int:
    from lcanalysis.advisor import advise  # loaded on use: 'lcanalysis --help' stays fast

    pos = load(args.position)
    analysis = advise(pos, time_budget=args.time, seed=args.seed)
    if args.json:
        emit(analysis.to_json())
    else:
        print(pos.to_text())
        print()
        print(analysis.to_text(limit=args.top))
    return 0
