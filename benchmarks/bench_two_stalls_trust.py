"""How far to trust the endgame search's answer at two stalls each when three did not fit.

With 4 cards left the hint counts a level as converged only from three stalls each (``endgame.trusted_stalls``),
and on the 10 s clock most views get no further than two: the answer then shows two stalls each's values and
says "not converged". This measures what a player loses by following it. For the view of the player to move
in each of ``tests/helpers.played_down(seed, --deck)``, the hint's search is run up to three stalls each in
full (``converged_endgame(view, --nodes, runner_ups=False, min_stalls=3, max_stalls=3)``, one thread, counted
nodes), both levels are kept, and two stalls each's best turn is then solved exactly at three stalls each in
the third level's worlds (it may have only bounds there once the reference moved on). Per view: each level's
best turn and value, whether they name the same turn, the loss at three stalls each of two's best turn
(paired over the same worlds, with its standard error when the level was sampled), and the value's shift.

Rows go to ``--out`` as each view finishes, in the studies' format (``ROWS_FILE``: a first line of the
settings, then CSV), so an interrupted run resumes where it stopped; a file made with another ``--nodes`` is
refused. A view whose third level does not finish within ``--nodes`` gets a row with ``finished`` False.

    python benchmarks/bench_two_stalls_trust.py --deck 4 --positions 16 --out data/simulated/two_stalls_trust_4cards.csv
"""

from __future__ import annotations

import argparse
import contextlib
import shlex
import sys
import time
from pathlib import Path

import numpy as np

from lcanalysis.studies.study_file import ADVICE_CODE, ALLOW_CODE_CHANGE_HELP, StudyFile

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))

FIELDS = ["deck", "seed", "finished", "splits", "worlds2", "every_split2", "best2", "value2", "stderr2", "nodes2",
          "worlds3", "every_split3", "best3", "value3", "stderr3", "nodes3", "same_best", "loss_of_best2",
          "loss_stderr", "value_shift", "seconds"]
ROWS_FILE = StudyFile("two stalls' trust benchmark", "# lcanalysis bench_two_stalls_trust ", FIELDS,
                      keys=("deck", "seed"), identity_keys=("nodes",),
                      bools=("finished", "every_split2", "every_split3", "same_best"),
                      code=ADVICE_CODE).made_by(str(ROOT / "tests" / "helpers.py")).made_by(__file__)


def trust_row(seed: int, deck: int, nodes: int) -> dict:
    """One view's row (``finished`` False, the rest blank, when the third level did not finish within ``nodes``)."""
    from helpers import played_down

    from lcanalysis.search import endgame
    from lcanalysis.search.common import move_text

    pos = played_down(seed, deck)
    view = pos.view(pos.to_move)
    kept: dict[int, tuple] = {}
    solve_level = endgame._solve_level

    def keeping(worlds, stalls, tables, budget, ref, margin, stone=None, baseline=None):
        """``endgame._solve_level``, keeping each level with its worlds and tables."""
        level, used = solve_level(worlds, stalls, tables, budget, ref, margin, stone, baseline)
        if level is not None:
            kept[stalls] = (level, worlds, tables)
        return level, used

    t0 = time.perf_counter()
    endgame._solve_level = keeping
    try:
        # each level's start and end as it goes (a view's third level can take minutes)
        endgame.converged_endgame(view, nodes, runner_ups=False, min_stalls=3, max_stalls=3,
                                  progress=lambda line: print(f"  seed {seed}: {line}", flush=True))
    finally:
        endgame._solve_level = solve_level
    if 2 not in kept or 3 not in kept:
        return {**dict.fromkeys(FIELDS, ""), "deck": deck, "seed": seed, "finished": False,
                "seconds": round(time.perf_counter() - t0, 1)}
    two = kept[2][0]
    three, worlds, tables = kept[3]
    b2, b3 = two.best(), three.best()
    code2 = two.codes[b2]
    k = three.codes.index(code2)
    column = three.rows[:, k].copy()
    again = np.flatnonzero(three.bounded[:, k])
    if len(again):
        # two's best has only bounds in these worlds: its exact value there, every other turn bounded at once
        picks, src = worlds.picks_of(three)
        c, r, _, _, done = endgame._solve(worlds, (picks[again], src[again]), 3, tables, 1 << 40, code2, -np.inf)
        assert done
        column[again] = r[:, c.index(code2)]
    d = three.rows[:, b3] - column
    if three.exact:
        loss, loss_se = float(three.weights @ d), 0.0
    else:
        loss, loss_se = float(d.mean()), float(d.std(ddof=1) / np.sqrt(len(d)))
    return {"deck": deck, "seed": seed, "finished": True, "splits": worlds.splits,
            "worlds2": len(two.rows), "every_split2": two.exact, "best2": move_text(code2, view.colors),
            "value2": round(float(two.means()[b2]), 4), "stderr2": round(two.stderr(b2), 4), "nodes2": two.nodes,
            "worlds3": len(three.rows), "every_split3": three.exact,
            "best3": move_text(three.codes[b3], view.colors), "value3": round(float(three.means()[b3]), 4),
            "stderr3": round(three.stderr(b3), 4), "nodes3": three.nodes,
            "same_best": code2 == three.codes[b3], "loss_of_best2": round(loss, 4), "loss_stderr": round(loss_se, 4),
            "value_shift": round(float(three.means()[b3] - two.means()[b2]), 4),
            "seconds": round(time.perf_counter() - t0, 1)}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--deck", type=int, default=4, help="cards left in the draw pile (default 4)")
    ap.add_argument("--positions", type=int, default=16, help="views: played_down seeds 0..N-1 (default 16)")
    ap.add_argument("--nodes", type=int, default=300_000_000, help="the node budget of each view (default 300 M)")
    ap.add_argument("--out", type=Path, required=True, help="the rows, written as each view finishes; resumed")
    ap.add_argument("--allow-code-change", action="store_true", help=ALLOW_CODE_CHANGE_HELP)
    args = ap.parse_args(argv)
    if not 2 <= args.deck <= 8 or not 1 <= args.positions <= 1000 or args.nodes < 1:
        ap.error("--deck must be 2..8, --positions 1..1000 and --nodes at least 1")
    from lcanalysis.core import first_compile

    first_compile.ready(first_compile.SOLVER)
    command = f"python benchmarks/bench_two_stalls_trust.py {shlex.join(sys.argv[1:] if argv is None else argv)}"
    print(f"{args.deck} card(s) left, up to {args.nodes:,} nodes a view, one thread", flush=True)
    with contextlib.ExitStack() as stack:
        # what a row depends on, besides its deck and seed: another file is refused
        write, done = ROWS_FILE.open_or_exit(stack, args.out, {"nodes": int(args.nodes)}, command,
                                             args.allow_code_change,
                                             units=[(args.deck, seed) for seed in range(args.positions)])
        for seed in range(args.positions):
            if (args.deck, seed) in done:
                continue
            row = trust_row(seed, args.deck, args.nodes)
            write(row)
            if not row["finished"]:
                print(f"seed {seed:2}: three stalls each did not finish within {args.nodes:,} nodes", flush=True)
                continue
            se = f" ± {row['loss_stderr']:.2f}" if row["loss_stderr"] else ""
            print(f"seed {seed:2}: two {row['best2']} {row['value2']:+.2f}, three {row['best3']} "
                  f"{row['value3']:+.2f}; two's best loses {row['loss_of_best2']:.2f}{se} at three; value shift "
                  f"{row['value_shift']:+.2f} ({row['nodes3'] / 1e6:.1f} M nodes at three, {row['seconds']:.0f} s)",
                  flush=True)
    rows = ROWS_FILE.load(args.out)
    print(summary(rows[(rows["deck"] == args.deck) & (rows["seed"] < args.positions)]))
    return 0


def summary(rows) -> str:
    """The views that finished: how often two stalls each named three's best turn, and what following it lost."""
    ok = rows[rows["finished"]]
    if not len(ok):
        return "no view finished"
    losses = ok["loss_of_best2"].astype(float)
    shifts = ok["value_shift"].astype(float).abs()
    return (f"{len(ok)} of {len(rows)} view(s) finished: two stalls each named three's best turn in "
            f"{int(ok['same_best'].sum())}; two's best lost {losses.mean():.2f} on average at three (at most "
            f"{losses.max():.2f}); the best value moved {shifts.mean():.2f} on average (at most {shifts.max():.2f})")


if __name__ == "__main__":
    raise SystemExit(main())
