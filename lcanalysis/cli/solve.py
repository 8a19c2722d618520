"""``lcanalysis solve POSITION [--max-stalls S] [--max-turns T --leaf as-is] [--workers N] --json``.

Prints the object of docs/spec/interchange.md: ``{"value", "exact", "moves": [{"move", "value",
"stderr"}], "nodes", "seconds"}`` with the moves best first, plus the labelled extras of
``Analysis.to_json`` (kind, bounds, method, splits). The bounds are checked once, by the
search itself (``search.common.check_bounds``); its ``SearchError`` is printed as ``error: ...``.
"""

from __future__ import annotations

import argparse
from typing import Any

from lcanalysis.cli.common import emit, load, nonneg


def add_parser(sub: argparse._SubParsersAction, pos_help: str) -> None:
    p = sub.add_parser("solve", help="exact endgame values of every turn (spec: Endgame values)")
    p.add_argument("position", help=pos_help)
    p.add_argument("--max-stalls", type=nonneg("--max-stalls"), default=None)
    p.add_argument("--max-turns", type=nonneg("--max-turns"), default=None)
    p.add_argument("--leaf", default="as-is", help="leaf value at the horizon: as-is (exact), heuristic (the hand evaluator: an estimate) or simple")
    p.add_argument("--samples", type=nonneg("--samples"), default=None,
                   help="for a view: sample this many splits instead of enumerating them all")
    p.add_argument("--seed", type=nonneg("--seed"), default=0)
    p.add_argument("--workers", type=nonneg("--workers"), default=None,
                   help="for a view: solve the splits on this many threads (0: one per core)")
    p.add_argument("--json", action="store_true")
    p.set_defaults(func=run)



def run(args: argparse.Namespace) -> int:
    pos = load(args.position)
    answer = solve_json(pos, max_stalls=args.max_stalls, max_turns=args.max_turns, leaf=args.leaf,
                        samples=args.samples, seed=args.seed, workers=args.workers)
    if args.json:
        emit(answer)
    else:
        _print_moves(answer)
    return 0


def _print_moves(answer: dict[str, Any]) -> None:
    kind = answer.get("kind", "value")
    print(f"{kind}: {answer['value']:+.3f} ({'exact' if answer['exact'] else 'estimate'})"
          + (f" under {answer['bounds']}" if answer.get("bounds") else ""))
    model = kind == "depth-limited estimate"  # a heuristic leaf: no sampling error to state
    for i, m in enumerate(answer["moves"]):
        err = "" if answer["exact"] else (" (heuristic)" if model and m["stderr"] == 0 else f" ± {m['stderr']:.3f}")
        print(f"{i + 1:3d}. {m['move']:<9} {m['value']:+9.3f}{err}")
    print(f"nodes {answer.get('nodes', 0)}, {answer.get('seconds', 0):.3f} s")


def solve_json(position: Any, max_stalls: int | None = None, max_turns: int | None = None, leaf: str | None = "as-is",
               samples: int | None = None, seed: int = 0, workers: Any = None) -> dict[str, Any]:
    from lcanalysis.search import solve  # loaded on use: 'lcanalysis --help' stays fast

    return solve(position, max_stalls, max_turns, leaf or "as-is", samples=samples, seed=seed,
                 workers=workers).to_json()
