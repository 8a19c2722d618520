"""How far out does the endgame search answer, and how often is its answer settled?

Issue 15 asks for a report "on a fixed set at 2, 3, 4, 5 cards [of] how often the answer
converged and how often the bracket closed". For each number of cards left in the draw pile and
each of a fixed set of positions (``tests/helpers.played_down``: a dealt round played down by a
seeded policy that sometimes draws from the piles):

- the **view** of the player to move goes to ``search.endgame.converged_endgame`` with the
  hint's default budget (``advisor.ENDGAME_DEFAULT_SECONDS`` of nodes at
  ``advisor.ENDGAME_NODES_PER_SECOND``; the node budget only, not the clock, so the answer is
  the same on any machine, and the seconds are what this machine took): the deepest stall
  budget it finished, whether two budgets agreed (converged), whether every split of the unseen
  cards was solved (exact) or worlds were sampled, and the time;
- the **full position** (both hands) goes to ``search.bracket`` with the same node budget for
  each of its two games: whether ``W_me <= V <= W_opp`` closed (pinned: the unbounded game's
  value is known whatever endless stalling is worth), stayed open, or did not finish.

Rows are appended to ``--out`` as they finish (``ROWS_FILE``: a first line of the settings, then
CSV), so an interrupted run resumes (a file of another budget is refused); the summary counts per
number of cards. ``--nodes`` measures another budget (a judged turn's floor, say) and
``--no-bracket`` leaves the bracket out. ``--clock`` asks the hint itself, as on the command line
(``advise(view, wall_clock=True)``: its default 10 s on the clock, one thread per core, at most 4),
instead of a node count: what a player gets on this machine, which depends on its speed and load.

    python benchmarks/bench_endgame_reach.py --decks 2 3 4 5 --positions 10 --out /tmp/endgame_reach.csv
    python benchmarks/bench_endgame_reach.py --decks 3 --positions 16 --nodes 1200000 --no-bracket --out /tmp/r.csv
    python benchmarks/bench_endgame_reach.py --decks 3 4 --positions 16 --clock --no-bracket --out /tmp/clock.csv
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
#: the hint's endgame search is measured on the view value of the specification (every split alike), the
#: quantity its references solve, whatever the hint's default weighting (``options.ENDGAME_SPLITS_DEFAULT``)
SPLITS = "uniform"
sys.path.insert(0, str(ROOT / "tests"))

FIELDS = ["deck", "seed", "stalls", "converged", "exact", "view_seconds", "bracket", "bracket_low",
          "bracket_high", "bracket_seconds"]
#: ``--out``: a first line of the settings (the budget: a node count or the clock; whether the
#: bracket is tried), then a row a view (keyed by its cards left and seed), resumed
ROWS_FILE = StudyFile("endgame reach benchmark", "# lcanalysis bench_endgame_reach ", FIELDS, keys=("deck", "seed"),
                      identity_keys=("clock", "nodes", "no_bracket"), bools=("converged", "exact"),
                      code=ADVICE_CODE).made_by(str(ROOT / "tests" / "helpers.py")).made_by(__file__)


def run_one(seed: int, deck: int, nodes: int | None = None, with_bracket: bool = True, clock: bool = False) -> dict:
    from helpers import played_down

    from lcanalysis.advisor import ENDGAME_DEFAULT_SECONDS, ENDGAME_NODES_PER_SECOND, advise
    from lcanalysis.search import SearchBudgetExceeded, SearchError, bracket
    from lcanalysis.search.endgame import converged_endgame

    if nodes is None:
        nodes = int(ENDGAME_DEFAULT_SECONDS * ENDGAME_NODES_PER_SECOND)
    pos = played_down(seed, deck)
    view = pos.view(pos.to_move)
    t = time.perf_counter()
    try:
        if clock:  # the hint as on the command line; play-outs when no stall level fitted (stalls -1)
            answer = advise(view, seed=0, wall_clock=True, endgame_splits=SPLITS)
            if "max_stalls" not in answer.bounds:
                raise SearchError("the hint answered by play-outs")
        else:
            answer = converged_endgame(view, max_nodes=nodes, seed=0)  # nodes only: the same on any machine
        row = {"stalls": answer.bounds["max_stalls"], "converged": bool(answer.bounds.get("converged")),
               "exact": bool(answer.exact)}
    except SearchError:  # not even no stalls at all finished: the hint falls back to play-outs
        row = {"stalls": -1, "converged": False, "exact": False}
    row.update(deck=deck, seed=seed, view_seconds=round(time.perf_counter() - t, 2))
    if not with_bracket:
        row.update(bracket="not tried", bracket_low="", bracket_high="", bracket_seconds=0.0)
        return row
    t = time.perf_counter()
    try:
        b = bracket(pos, max_nodes=nodes)
        low, high = b.value_range
        row.update(bracket="pinned" if b.pinned else "open", bracket_low=low, bracket_high=high)
    except SearchBudgetExceeded:  # the node budget ran out before one of the two games was solved
        row.update(bracket="unfinished", bracket_low="", bracket_high="")
    row["bracket_seconds"] = round(time.perf_counter() - t, 2)
    return row


def summary(rows: list[dict]) -> str:
    out = []
    for deck in sorted({int(r["deck"]) for r in rows}):
        mine = [r for r in rows if int(r["deck"]) == deck]
        n = len(mine)
        conv = sum(str(r["converged"]) == "True" for r in mine)
        exact = sum(str(r["exact"]) == "True" for r in mine)
        none = sum(int(r["stalls"]) < 0 for r in mine)
        stalls = sorted(int(r["stalls"]) for r in mine)
        secs = sorted(float(r["view_seconds"]) for r in mine)
        kinds = {k: sum(r["bracket"] == k for r in mine) for k in ("pinned", "open", "unfinished")}
        one = sum(int(r["stalls"]) >= 1 for r in mine)
        out.append(f"{deck} card(s) left, {n} positions: view value converged {conv}/{n}, every split solved "
                   f"{exact}/{n}, one stall each or more {one}/{n}, no stall budget finished {none}/{n} (stalls "
                   f"reached {stalls}; median {statistics.median(secs):.1f} s, max {secs[-1]:.1f} s); bracket pinned "
                   f"{kinds['pinned']}/{n}, open {kinds['open']}/{n}, unfinished {kinds['unfinished']}/{n}")
    return "\n".join(out) if out else "no rows"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--decks", type=int, nargs="+", default=[2, 3, 4, 5],
                    help="cards left in the draw pile (default 2 3 4 5)")
    ap.add_argument("--positions", type=int, default=10,
                    help="positions per number of cards (seeds 0..N-1; default 10)")
    ap.add_argument("--out", type=Path, default=Path("endgame_reach.csv"),
                    help="rows appended here as they finish (default endgame_reach.csv)")
    ap.add_argument("--allow-code-change", action="store_true", help=ALLOW_CODE_CHANGE_HELP)
    ap.add_argument("--nodes", type=int, default=None,
                    help="the node budget of each search (default: the hint's, 10 s at 1.2 M nodes a second); "
                         "a file holds one budget: give another --out for another")
    ap.add_argument("--clock", action="store_true",
                    help="the view's answer is the hint's on the clock, as on the command line (not --nodes)")
    ap.add_argument("--no-bracket", action="store_true", help="the view's search only, not the full position's bracket")
    args = ap.parse_args(argv)
    if args.nodes is not None and args.nodes < 1:
        ap.error(f"--nodes must be at least 1, got {args.nodes}")
    if args.clock and args.nodes is not None:
        ap.error("--clock and --nodes: give one budget, the clock or a node count")
    from lcanalysis.advisor import ENDGAME_DEFAULT_SECONDS, ENDGAME_NODES_PER_SECOND

    nodes = int(ENDGAME_DEFAULT_SECONDS * ENDGAME_NODES_PER_SECOND) if args.nodes is None else args.nodes
    identity = {"clock": args.clock, "nodes": None if args.clock else nodes, "no_bracket": args.no_bracket}
    command = f"python benchmarks/bench_endgame_reach.py {shlex.join(sys.argv[1:] if argv is None else argv)}"
    with contextlib.ExitStack() as stack:
        # what a row depends on, besides its deck and seed: a file of another budget is refused
        units = [(deck, seed) for deck in args.decks for seed in range(args.positions)]
        write, done = ROWS_FILE.open_or_exit(stack, args.out, identity, command, args.allow_code_change, units=units)
        for deck in args.decks:
            for seed in range(args.positions):
                if (deck, seed) in done:
                    continue
                row = run_one(seed, deck, args.nodes, not args.no_bracket, args.clock)
                write(row)
                print(f"{deck} cards, seed {seed}: {row['stalls']} stall(s) each, converged {row['converged']}, "
                      f"exact {row['exact']}, {row['view_seconds']:.1f} s; bracket {row['bracket']} "
                      f"({row['bracket_seconds']:.1f} s)", file=sys.stderr, flush=True)
    rows = ROWS_FILE.load(args.out).to_dict("records")
    print(summary([r for r in rows if r["deck"] in args.decks and r["seed"] < args.positions]))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
