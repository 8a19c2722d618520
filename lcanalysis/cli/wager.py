"""``lcanalysis wager POSITION --color C --draws K [--json]``: the canonical wager model of one colour."""

from __future__ import annotations

import argparse

from lcanalysis.cli.common import emit, load, nonneg
from lcanalysis.game.position import Position


def add_parser(sub: argparse._SubParsersAction, pos_help: str) -> None:
    p = sub.add_parser("wager", help="canonical wager model for one colour")
    p.add_argument("position", help=pos_help)
    p.add_argument("--color", required=True)
    p.add_argument("--draws", type=nonneg("--draws"), required=True)
    p.add_argument("--json", action="store_true")
    p.set_defaults(func=run)



def run(args: argparse.Namespace) -> int:
    from lcanalysis.wagers.canonical import wager_answer  # loaded on use: 'lcanalysis --help' stays fast

    pos = load(args.position)
    view = pos.view() if isinstance(pos, Position) else pos
    answer = wager_answer(view, args.color, args.draws)
    if args.json:
        emit(answer)
    else:
        print(f"colour {answer['color']}, {answer['draws']} draws (canonical wager model, exact)")
        for row in answer["by_wagers"]:
            print(f"  {row['wagers']} wager(s): mean {row['mean']:+.2f}, P(score > 0) {row['p_positive']:.3f}")
    return 0
