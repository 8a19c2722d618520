"""The view value with two stalls each: the search with probes in the game without the opponent's
stalls against the plain search, in the same process.

Issue 15 asks for the view value with two stalls each at 3 cards left within 1 s. For each of a
fixed set of views (``tests/helpers.played_down``: a dealt round played down by a seeded policy
that sometimes draws from the piles, the view of the player to move), this settles the best turn
the way the hint does (``search.endgame.converged_endgame``: no stalls, one stall each, then two,
each level against the last one's best turn, every split of the unseen cards when it fits) and
stops at two stalls each (``max_stalls=2``, ``runner_ups=False``), twice: with the plain search
(``Tables.plain``: every turn searched in the whole game) and with today's (a turn is first
searched in the game where the opponent may not stall; the turns that game refutes need no more).
Both must name the same value (they are exact); the ratio of their nodes and seconds is the gain.
With ``--workers N`` (N > 1) today's search also runs on one thread, the baseline of the threads'
gain (they share one table, ``Tables.sibling``).

Rows are appended to ``--out`` as they finish (``ROWS_FILE``: a first line of the settings, then
CSV), so an interrupted run resumes; a file of another ``--nodes`` or ``--workers`` is refused.

    python benchmarks/bench_stall_probes.py --deck 3 --positions 8
    python benchmarks/bench_stall_probes.py --deck 4 --positions 8 --nodes 300000000 --out /tmp/probes4.csv
    python benchmarks/bench_stall_probes.py --deck 3 --workers 2 --out /tmp/probes3_two_threads.csv
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

FIELDS = ["deck", "seed", "mode", "seconds", "nodes", "stalls", "exact", "best", "value"]
#: ``--out``: a first line of the settings, then a row a view and mode (keyed by its cards left, seed
#: and mode), resumed
ROWS_FILE = StudyFile("stall probes benchmark", "# lcanalysis bench_stall_probes ", FIELDS,
                      keys=("deck", "seed", "mode"), text_keys=("mode",), identity_keys=("nodes", "workers"),
                      bools=("exact",), code=ADVICE_CODE).made_by(str(ROOT / "tests" / "helpers.py")).made_by(__file__)
MODES = ("plain", "probes", "one-thread")  # one-thread: today's search on one thread (with --workers > 1)


def settle(seed: int, deck: int, nodes: int, mode: str, workers: int = 1) -> dict:
    """The best turn with two stalls each on one view, by the plain search or with probes (``one-thread``:
    with probes, on one thread whatever ``workers`` says)."""
    from helpers import played_down

    from lcanalysis.search import SearchError
    from lcanalysis.search.endgame import converged_endgame
    from lcanalysis.search.perfect import Tables

    pos = played_down(seed, deck)
    view = pos.view(pos.to_move)
    Tables.plain = mode == "plain"
    try:
        t = time.perf_counter()
        answer = converged_endgame(view, max_nodes=nodes, seed=0, runner_ups=False, max_stalls=2,
                                   workers=1 if mode == "one-thread" else workers)
        seconds = time.perf_counter() - t
    except SearchError:
        return {"deck": deck, "seed": seed, "mode": mode, "seconds": "", "nodes": nodes, "stalls": -1,
                "exact": False, "best": "", "value": ""}
    finally:
        Tables.plain = False
    best = answer.moves[0]
    return {"deck": deck, "seed": seed, "mode": mode, "seconds": round(seconds, 3), "nodes": answer.nodes,
            "stalls": answer.bounds["max_stalls"], "exact": bool(answer.exact), "best": best.move,
            "value": round(best.value, 6)}


def summary(rows: list[dict]) -> list[str]:
    """Per mode: how many views reached two stalls each over every split, the median seconds and the
    ratios view by view (plain, and one thread, over probes) where both did."""
    by = {(int(r["seed"]), r["mode"]): r for r in rows}
    seeds = sorted({int(r["seed"]) for r in rows})
    out = []
    for mode in MODES:
        done = [by[(s, mode)] for s in seeds if (s, mode) in by]
        if not done:
            continue
        full = [r for r in done if int(r["stalls"]) == 2 and str(r["exact"]) == "True"]
        secs = [float(r["seconds"]) for r in full]
        med = f"{statistics.median(secs):.2f} s" if secs else "-"
        within = sum(1 for x in secs if x <= 1.0)
        out.append(f"{mode}: {len(full)} of {len(done)} views reached the exact two-stall value; median {med}, "
                   f"within 1 s {within}; seconds {sorted(round(x, 2) for x in secs)}")
    for base in ("plain", "one-thread"):
        out += _ratios(by, seeds, base)
    return out


def _ratios(by: dict, seeds: list[int], base: str) -> list[str]:
    """``base`` over probes, view by view, where both reached the exact two-stall value."""
    pairs = [(by[(s, base)], by[(s, "probes")]) for s in seeds if (s, base) in by and (s, "probes") in by]
    both = [(a, b) for a, b in pairs if str(a["exact"]) == str(b["exact"]) == "True"
            and int(a["stalls"]) == int(b["stalls"]) == 2]
    if not both:
        return []
    node_ratio = [int(a["nodes"]) / max(1, int(b["nodes"])) for a, b in both]
    time_ratio = [float(a["seconds"]) / max(1e-6, float(b["seconds"])) for a, b in both]
    same = sum(1 for a, b in both if abs(float(a["value"]) - float(b["value"])) < 1e-9)
    return [f"{base} over probes, {len(both)} views both exact: nodes x{statistics.median(node_ratio):.2f} "
            f"(median; {min(node_ratio):.2f}-{max(node_ratio):.2f}), seconds "
            f"x{statistics.median(time_ratio):.2f} (median; {min(time_ratio):.2f}-{max(time_ratio):.2f}); "
            f"the same value in {same} of {len(both)}"]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--deck", type=int, default=3, help="cards left in the draw pile (default 3)")
    ap.add_argument("--positions", type=int, default=8, help="views: played_down seeds 0..N-1 (default 8)")
    ap.add_argument("--nodes", type=int, default=100_000_000, help="node budget of each answer (default 100 M)")
    ap.add_argument("--workers", type=int, default=1,
                    help="threads for the worlds (default 1; sharing one table); more than 1 also runs today's "
                         "search on one thread, the baseline of their gain")
    ap.add_argument("--out", type=Path,
                    help="CSV to append rows to as they finish, and resume from (default: none, the rows are "
                         "only printed)")
    ap.add_argument("--allow-code-change", action="store_true", help=ALLOW_CODE_CHANGE_HELP)
    args = ap.parse_args(argv)

    identity = {"nodes": args.nodes, "workers": args.workers}
    command = f"python benchmarks/bench_stall_probes.py {shlex.join(sys.argv[1:] if argv is None else argv)}"
    rows: list[dict] = []
    with contextlib.ExitStack() as stack:
        write, done = None, set()
        if args.out is not None:
            # what a row depends on, besides its deck, seed and mode: another file is refused
            write, done = ROWS_FILE.open_or_exit(
                stack, args.out, identity, command, args.allow_code_change,
                units=[(args.deck, seed, mode) for seed in range(args.positions) for mode in MODES
                       if not (mode == "one-thread" and args.workers == 1)])
        from lcanalysis.cli.warmup import engine_ready

        engine_ready()
        settle(0, 2, 1_000_000, "probes")  # load the compiled code outside the timings
        for seed in range(args.positions):
            for mode in MODES:
                if (args.deck, seed, mode) in done or (mode == "one-thread" and args.workers == 1):
                    continue
                row = settle(seed, args.deck, args.nodes, mode, args.workers)
                rows.append(row)
                print(f"deck {args.deck} seed {seed} {mode:6s}: {row['seconds']} s, "
                      f"{int(row['nodes']) / 1e6:.2f} M nodes, {row['stalls']} stall(s) each, exact {row['exact']}, "
                      f"best {row['best']} {row['value']}", flush=True)
                if write is not None:
                    write(row)
    if args.out is not None:
        rows = [r for r in ROWS_FILE.load(args.out).to_dict("records") if r["deck"] == args.deck]
    for line in summary(rows):
        print(line)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
