"""Where the hint's endgame search spends its nodes, stall level by stall level.

For the view of the player to move in each of ``tests/helpers.played_down(seed, --deck)``, seeds
0..``--positions``-1, the hint's search (``endgame.converged_endgame(view, --nodes, runner_ups=False)``,
one thread, the node budget only: the same answer on any machine) is run as the hint runs it, and each
stall level it solves is recorded as it finishes or runs out: the worlds it solved (every split, or a
sample), its nodes (two-player and one-player together, the search's own count), the two-player
search's share, the table hits, and its seconds (which depend on the machine and its load). A last
line per view says which level it reached, whether it converged, and its total nodes; the summary counts
the views that converged. ``--min-stalls``/``--max-stalls`` pass through (``--max-stalls 3 --min-stalls 3
--nodes 300000000``: what the third level costs in full).

Rows go to ``--out`` as CSV (a view a level, ``level`` -1 for the view's total) when given.

    python benchmarks/bench_endgame_levels.py --deck 4 --positions 16
    python benchmarks/bench_endgame_levels.py --deck 4 --seeds 0 4 --nodes 12000000 --out /tmp/levels.csv
"""

from __future__ import annotations

import argparse
import csv
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))

FIELDS = ["deck", "seed", "level", "worlds", "every_split", "finished", "nodes", "two_player_nodes",
          "table_hits", "seconds", "converged"]


def levels_of(seed: int, deck: int, nodes: int, min_stalls: int | None, max_stalls: int | None) -> list[dict]:
    """The rows of one view: one per stall level the search started, then its total (level -1)."""
    from helpers import played_down

    from lcanalysis.search import endgame
    from lcanalysis.search.common import SearchError

    pos = played_down(seed, deck)
    view = pos.view(pos.to_move)
    rows: list[dict] = []
    solve_level = endgame._solve_level
    solve = endgame._solve
    counts = {"two": 0, "hits": 0}

    def counted_solve(worlds, chosen, stalls, tables, max_nodes, ref=-1, margin=float("inf"), raise_bar=False):
        """``endgame._solve``, adding up its tables' counters (each call resets them)."""
        found = solve(worlds, chosen, stalls, tables, max_nodes, ref, margin, raise_bar)
        counts["two"] += sum(int(t.stats[0]) for t in tables)
        counts["hits"] += sum(int(t.stats[2]) for t in tables)
        return found

    def recorded(worlds, stalls, tables, budget, ref, margin, stone=None, baseline=None):
        counts["two"] = counts["hits"] = 0
        t = time.perf_counter()
        level, used = solve_level(worlds, stalls, tables, budget, ref, margin, stone, baseline)
        rows.append({"deck": deck, "seed": seed, "level": stalls,
                     "worlds": 0 if level is None else len(level.rows),
                     "every_split": level is not None and level.exact, "finished": level is not None,
                     "nodes": used, "two_player_nodes": counts["two"], "table_hits": counts["hits"],
                     "seconds": round(time.perf_counter() - t, 3), "converged": ""})
        return level, used

    endgame._solve_level, endgame._solve = recorded, counted_solve
    t = time.perf_counter()
    try:
        kwargs = {} if max_stalls is None else {"max_stalls": max_stalls}
        answer = endgame.converged_endgame(view, nodes, runner_ups=False, min_stalls=min_stalls, **kwargs)
        reached, converged, used = answer.bounds["max_stalls"], bool(answer.bounds.get("converged")), answer.nodes
    except SearchError:
        reached, converged, used = -1, False, sum(r["nodes"] for r in rows)
    finally:
        endgame._solve_level, endgame._solve = solve_level, solve
    rows.append({"deck": deck, "seed": seed, "level": -1, "worlds": reached, "every_split": "", "finished": "",
                 "nodes": used, "two_player_nodes": sum(r["two_player_nodes"] for r in rows),
                 "table_hits": sum(r["table_hits"] for r in rows), "seconds": round(time.perf_counter() - t, 3),
                 "converged": converged})
    return rows


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--deck", type=int, default=4, help="cards left in the draw pile (default 4)")
    ap.add_argument("--positions", type=int, default=16, help="views: played_down seeds 0..N-1 (default 16)")
    ap.add_argument("--seeds", type=int, nargs="+", default=None, help="these seeds (default: 0..N-1 of --positions)")
    ap.add_argument("--nodes", type=int, default=None,
                    help="the node budget (default: the hint's, advisor.ENDGAME_DEFAULT_SECONDS of nodes)")
    ap.add_argument("--min-stalls", type=int, default=None, help="passed to converged_endgame (default its own)")
    ap.add_argument("--max-stalls", type=int, default=None, help="passed to converged_endgame (default its own)")
    ap.add_argument("--out", type=Path, default=None, help="the rows as CSV here (default: none, printed only)")
    args = ap.parse_args(argv)
    if not 1 <= args.deck <= 8 or not 1 <= args.positions <= 1000:
        ap.error("--deck must be 1..8 and --positions 1..1000")
    from lcanalysis.advisor import ENDGAME_DEFAULT_SECONDS, ENDGAME_NODES_PER_SECOND
    from lcanalysis.core import first_compile

    first_compile.ready(first_compile.SOLVER)  # compiled (and warmed up) before anything is recorded
    nodes = int(ENDGAME_DEFAULT_SECONDS * ENDGAME_NODES_PER_SECOND) if args.nodes is None else args.nodes
    if nodes < 1:
        ap.error(f"--nodes must be at least 1, got {nodes}")
    seeds = args.seeds if args.seeds is not None else list(range(args.positions))
    out = None if args.out is None else args.out.open("w", newline="")
    writer = None if out is None else csv.DictWriter(out, FIELDS)
    if writer is not None:
        writer.writeheader()
    print(f"{args.deck} card(s) left, {nodes:,} nodes, one thread; per level: worlds (all: every split), nodes "
          "(two-player), table hits, seconds", flush=True)
    converged = 0
    for seed in seeds:
        rows = levels_of(seed, args.deck, nodes, args.min_stalls, args.max_stalls)
        if writer is not None:
            writer.writerows(rows)
            assert out is not None
            out.flush()
        parts = [f"L{r['level']} {r['worlds']}{' all' if r['every_split'] else ''} {r['nodes'] / 1e6:.2f}M "
                 f"({r['two_player_nodes'] / 1e6:.2f}M) {r['table_hits'] / 1e6:.2f}M {r['seconds']:.1f}s"
                 + ("" if r["finished"] else " unfinished") for r in rows[:-1]]
        total = rows[-1]
        converged += bool(total["converged"])
        print(f"seed {seed:2}: {' | '.join(parts)} => {total['worlds']} stall(s) each, "
              f"{'converged' if total['converged'] else 'not converged'}, {total['nodes'] / 1e6:.2f}M nodes, "
              f"{total['seconds']:.1f}s", flush=True)
    print(f"converged {converged}/{len(seeds)}")
    if out is not None:
        out.close()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
