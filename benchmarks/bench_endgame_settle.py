"""Settle first, then fill in: the endgame search's levels at a margin of 0 against a margin of 4.

The advisor's endgame search (``search.endgame.converged_endgame``) settles each stall level with
``SETTLE_MARGIN`` (0): every turn other than the reference is only proved no better than it in a
world, which is the cheap part; the turns close to the best get exact values at the end, with what
is left of the budget (``MARGIN``, 4 points), and a stall level that cannot finish in what is left
(``LEVEL_GROWTH``) is not started. Before, every level was solved with ``MARGIN`` and the next
level always tried; ``--before`` is that (``SETTLE_MARGIN = MARGIN``, ``LEVEL_GROWTH = 0``). This
runs both on the same views (``tests/helpers.played_down``, the mover's view) with the same node
budget, in this process, and prints for each: the deepest stall level, whether it converged,
whether it solved every split, the worlds of the last level, the best turn's standard error and
how many turns have exact values. The budget is a node count, so the answer is the same on any
machine; only the seconds are this one's. The stored files predate ``endgame.trusted_stalls`` (no
stalls and one stall each agreeing counted as converged at 3 cards too): ``--min-stalls 1`` runs
that rule again. They also predate budgets kept to the node: a view that ran out shows 12,000,001
nodes there, 12,000,000 when run again. And they predate the last pass that solves every turn
exactly when ``FILL_GROWTH`` times the margin pass's cost is left: ``--no-fill-every-turn`` leaves
it out again.

    python benchmarks/bench_endgame_settle.py --deck 3 --positions 16
    python benchmarks/bench_endgame_settle.py --deck 4 --positions 16 --out /tmp/settle4.csv
"""

from __future__ import annotations

import argparse
import contextlib
import shlex
import statistics
import sys
import time
from pathlib import Path

from lcanalysis.studies.study_file import ADVICE_CODE, ALLOW_CODE_CHANGE_HELP, StudyFile

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))

FIELDS = ["deck", "seed", "version", "stalls", "converged", "exact", "worlds", "best_stderr", "exact_turns",
          "turns", "nodes", "seconds"]
#: ``--out``: a first line of the settings, then a row a view and version (keyed by its cards left,
#: seed and version), resumed
ROWS_FILE = StudyFile("endgame settle benchmark", "# lcanalysis bench_endgame_settle ", FIELDS,
                      keys=("deck", "seed", "version"), text_keys=("version",),
                      identity_keys=("nodes", "min_stalls", "no_fill_every_turn"), bools=("converged", "exact"),
                      code=ADVICE_CODE).made_by(str(ROOT / "tests" / "helpers.py")).made_by(__file__)


def run_one(seed: int, deck: int, before: bool, nodes: int, min_stalls: int | None = None,
            fill_every_turn: bool = True) -> dict:
    from helpers import played_down

    from lcanalysis.search import endgame as E

    pos = played_down(seed, deck)
    view = pos.view(pos.to_move)
    today = E.SETTLE_MARGIN, E.LEVEL_GROWTH, E.FILL_GROWTH
    if before:
        E.SETTLE_MARGIN, E.LEVEL_GROWTH = E.MARGIN, 0.0
    if not fill_every_turn:
        E.FILL_GROWTH = float("inf")
    try:
        t = time.perf_counter()
        a = E.converged_endgame(view, max_nodes=nodes, seed=0, min_stalls=min_stalls)
        seconds = time.perf_counter() - t
    finally:
        E.SETTLE_MARGIN, E.LEVEL_GROWTH, E.FILL_GROWTH = today
    return {"deck": deck, "seed": seed, "version": "before" if before else "today", "stalls": a.bounds["max_stalls"],
            "converged": bool(a.bounds["converged"]), "exact": bool(a.exact), "worlds": a.splits,
            "best_stderr": round(a.best.stderr, 3),
            "exact_turns": sum(m.extra.get("bound") != "upper" for m in a.moves), "turns": len(a.moves),
            "nodes": a.nodes, "seconds": round(seconds, 2)}


def summary(rows: list[dict]) -> str:
    """Each version's counts, then the two paired view by view: a deeper stall level, or at the
    same level more (or fewer) worlds, and the best turn's standard error where both sampled."""
    out = []
    by = {v: {int(r["seed"]): r for r in rows if r["version"] == v} for v in ("before", "today")}
    for v, mine in by.items():
        levels = sorted(int(r["stalls"]) for r in mine.values())
        out.append(f"{v}: {len(mine)} views; converged {sum(str(r['converged']) == 'True' for r in mine.values())}, "
                   f"every split solved {sum(str(r['exact']) == 'True' for r in mine.values())}, stall levels "
                   f"reached {levels}; turns with exact values, median "
                   f"{statistics.median(int(r['exact_turns']) for r in mine.values()):g} of "
                   f"{statistics.median(int(r['turns']) for r in mine.values()):g}")
    seeds = sorted(by["before"].keys() & by["today"].keys())
    deeper = [s for s in seeds if int(by["today"][s]["stalls"]) > int(by["before"][s]["stalls"])]
    shallower = [s for s in seeds if int(by["today"][s]["stalls"]) < int(by["before"][s]["stalls"])]
    same = [s for s in seeds if s not in deeper and s not in shallower]
    more = [s for s in same if int(by["today"][s]["worlds"]) > int(by["before"][s]["worlds"])]
    fewer = [s for s in same if int(by["today"][s]["worlds"]) < int(by["before"][s]["worlds"])]
    both = [s for s in same if str(by["today"][s]["exact"]) != "True" and str(by["before"][s]["exact"]) != "True"]
    se = [(float(by["before"][s]["best_stderr"]), float(by["today"][s]["best_stderr"])) for s in both]
    out.append(f"today against before, view by view: a deeper stall level in {len(deeper)}, a shallower one in "
               f"{len(shallower)}; at the same level more worlds in {len(more)}, fewer in {len(fewer)}, as many in "
               f"{len(same) - len(more) - len(fewer)}"
               + (f"; sampled at the same level in both ({len(both)}): the best turn's standard error, median "
                  f"{statistics.median(b for b, _ in se):.2f} before, {statistics.median(t for _, t in se):.2f} today"
                  if se else ""))
    return "\n".join(out)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--deck", type=int, default=3, help="cards left in the draw pile (default 3)")
    ap.add_argument("--positions", type=int, default=16, help="views, seeds 0..N-1 (default 16)")
    ap.add_argument("--nodes", type=int, default=None, help="node budget (default: the hint's, 12 M)")
    ap.add_argument("--out", type=Path, default=None,
                    help="CSV the rows are appended to as they finish, a stopped run resumes from it "
                         "(default: none, the rows are only printed)")
    ap.add_argument("--allow-code-change", action="store_true", help=ALLOW_CODE_CHANGE_HELP)
    ap.add_argument("--min-stalls", type=int, default=None,
                    help="the fewest stalls each at which agreeing levels count as converged "
                         "(default: the search's own rule, endgame.trusted_stalls)")
    ap.add_argument("--no-fill-every-turn", action="store_true",
                    help="leave out the last pass that solves every turn exactly (as the stored files did)")
    args = ap.parse_args(argv)
    from lcanalysis.advisor import ENDGAME_DEFAULT_SECONDS, ENDGAME_NODES_PER_SECOND
    from lcanalysis.search.endgame import MAX_LEVEL

    if args.min_stalls is not None and not 0 <= args.min_stalls <= MAX_LEVEL:
        ap.error(f"--min-stalls must be from 0 to {MAX_LEVEL}, got {args.min_stalls}")
    nodes = args.nodes or int(ENDGAME_DEFAULT_SECONDS * ENDGAME_NODES_PER_SECOND)

    identity = {"nodes": nodes, "min_stalls": args.min_stalls, "no_fill_every_turn": args.no_fill_every_turn}
    command = f"python benchmarks/bench_endgame_settle.py {shlex.join(sys.argv[1:] if argv is None else argv)}"
    rows: list[dict] = []
    with contextlib.ExitStack() as stack:
        write, done = None, set()
        if args.out is not None:
            # what a row depends on, besides its deck, seed and version: another file is refused
            write, done = ROWS_FILE.open_or_exit(
                stack, args.out, identity, command, args.allow_code_change,
                units=[(args.deck, seed, v) for seed in range(args.positions) for v in ("before", "today")])
        for seed in range(args.positions):
            for before in (True, False):
                if (args.deck, seed, "before" if before else "today") in done:
                    continue
                r = run_one(seed, args.deck, before, nodes, args.min_stalls, not args.no_fill_every_turn)
                rows.append(r)
                print(", ".join(f"{k} {r[k]}" for k in FIELDS[1:]), flush=True)
                if write is not None:
                    write(r)
    if args.out is not None:
        rows = [r for r in ROWS_FILE.load(args.out).to_dict("records") if r["deck"] == args.deck]
    print(summary([r for r in rows if int(r["seed"]) < args.positions]))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
