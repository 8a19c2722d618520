"""Can a player trust the hint near the end of a round? The advisor against a deep reference.

A fixed set of views with few cards left in the draw pile (``tests/helpers.played_down``: a
dealt round played down by a seeded policy that sometimes draws from the piles, the player to
move's view). For each view:

- ``rollouts``: the advisor's play-outs (``advise(..., endgame_cards=2, playout_policy="plain")``, the heuristic plays
  the round out, 1 s budget), as it answered before the endgame search took over at 3 cards
  (and at 4 since);
- ``hint``: the advisor at its default settings (from ``advisor.ENDGAME_CARDS`` cards: the
  endgame search, deepened on the stall budget until two budgets agree, up to 10 s);
  ``--endgame-cards K`` hands over from ``K`` cards instead; ``--hint-time S`` gives it a
  counted budget of ``S`` seconds (its nodes: the same on any machine) instead of the clock;
- ``reference``: the endgame search with a large node budget (``--ref-nodes``) and a wider
  margin, so that it reaches two or more stalls each.

Printed per view and in total: whether each pick is the reference's best or within half a
point of it (under the reference's values; a pick the reference only bounds counts its loss
as at least that bound), its loss, the error of the value it states, the time it took, and
whether the hint and the reference converged. Rows are appended to ``--out`` as they finish
(``ROWS_FILE``: a first line of the settings, then CSV), so an interrupted run resumes where it
stopped; a file made with another ``--ref-nodes``, ``--hint-time`` or ``--endgame-cards`` is refused.

    python benchmarks/bench_endgame_trust.py --deck 3 --positions 12 --out /tmp/endgame_trust.csv
    python benchmarks/bench_endgame_trust.py --deck 4 --positions 16 --endgame-cards 4 --out /tmp/trust4.csv
"""

from __future__ import annotations

import argparse
import contextlib
import math
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

FIELDS = ["seed", "deck", "ref_best", "ref_value", "ref_stalls", "ref_converged", "ref_seconds",
          "rollouts_pick", "rollouts_value", "rollouts_loss", "rollouts_seconds",
          "hint_pick", "hint_value", "hint_loss", "hint_stalls", "hint_converged", "hint_seconds"]
#: ``--out``: a first line of the settings, then a row a view (keyed by its cards left and seed), resumed
ROWS_FILE = StudyFile("endgame trust benchmark", "# lcanalysis bench_endgame_trust ", FIELDS, keys=("deck", "seed"),
                      identity_keys=("ref_nodes", "hint_time", "endgame_cards"), bools=("ref_converged",),
                      code=ADVICE_CODE).made_by(str(ROOT / "tests" / "helpers.py")).made_by(__file__)


def loss_under(reference, move: str) -> float:
    """The pick's loss under the reference's values (a lower bound where the reference bounds it);
    NaN when the reference does not value it (a discard-pile draw, when the reference finished no
    stall budget above 0)."""
    values = {m.move: m.value for m in reference.moves}
    return reference.value - values[move] if move in values else float("nan")


def run_one(seed: int, deck: int, ref_nodes: int, endgame_cards: int | None = None,
            hint_time: float | None = None) -> dict:
    from helpers import played_down

    from lcanalysis.advisor import ENDGAME_CARDS, advise
    from lcanalysis.search import endgame as E

    pos = played_down(seed, deck)
    view = pos.view(pos.to_move)
    t = time.perf_counter()
    saved = E.MARGIN
    E.MARGIN = 10.0
    try:
        ref = E.converged_endgame(view, max_nodes=ref_nodes, seed=1)
    finally:
        E.MARGIN = saved
    ref_s = time.perf_counter() - t
    t = time.perf_counter()
    # the plain heuristic's play-outs, as the published rows were made (the hint's default plays the
    # stalling ones at these cards since docs/agents.md "Which play-outs from 15 cards down")
    old = advise(view, time_budget=1.0, seed=0, endgame_cards=2, playout_policy="plain")
    old_s = time.perf_counter() - t
    t = time.perf_counter()
    cards = ENDGAME_CARDS if endgame_cards is None else endgame_cards
    if hint_time is None:
        new = advise(view, seed=0, wall_clock=True, endgame_cards=cards, endgame_splits=SPLITS)
    else:  # a counted budget: the same answer on any machine (the review's way of judging a turn)
        new = advise(view, time_budget=hint_time, seed=0, endgame_cards=cards, endgame_splits=SPLITS)
    new_s = time.perf_counter() - t
    return {
        "seed": seed, "deck": deck, "ref_best": ref.best.move, "ref_value": round(ref.value, 3),
        "ref_stalls": ref.bounds["max_stalls"], "ref_converged": ref.bounds["converged"],
        "ref_seconds": round(ref_s, 2),
        "rollouts_pick": old.best.move, "rollouts_value": round(old.value, 3),
        "rollouts_loss": round(loss_under(ref, old.best.move), 3), "rollouts_seconds": round(old_s, 2),
        "hint_pick": new.best.move, "hint_value": round(new.value, 3),
        "hint_loss": round(loss_under(ref, new.best.move), 3), "hint_stalls": new.bounds.get("max_stalls"),
        "hint_converged": new.bounds.get("converged"), "hint_seconds": round(new_s, 2),
    }


def summary(rows: list[dict]) -> str:
    n = len(rows)
    if not n:
        return "no rows"
    out = [f"{n} views, {rows[0]['deck']} card(s) in the draw pile"]
    for who in ("rollouts", "hint"):
        valued = [float(r[f"{who}_loss"]) for r in rows if not math.isnan(float(r[f"{who}_loss"]))]
        good = sum(x <= 0.5 for x in valued)
        loss = sum(valued) / max(len(valued), 1)
        worst = max(valued, default=math.nan)
        if len(valued) < n:
            out.append(f"  {who}: {n - len(valued)} pick(s) the reference does not value (left out of the losses)")
        err = sum(abs(float(r[f"{who}_value"]) - float(r["ref_value"])) for r in rows) / n
        close = sum(abs(float(r[f"{who}_value"]) - float(r["ref_value"])) <= 2 for r in rows)
        secs = sorted(float(r[f"{who}_seconds"]) for r in rows)
        out.append(f"  {who:<9} pick within 0.5 of the reference's best: {good}/{n}; mean loss {loss:.2f} "
                   f"(worst {worst:.1f}); value within 2 points: {close}/{n} (mean error {err:.2f}); "
                   f"median {statistics.median(secs):.1f} s, max {secs[-1]:.1f} s")
    conv = sum(str(r["hint_converged"]) == "True" for r in rows)
    ref_conv = sum(str(r["ref_converged"]) == "True" for r in rows)
    out.append(f"  the hint converged in {conv}/{n}; the reference in {ref_conv}/{n} "
               f"(stalls each: {sorted(int(r['ref_stalls']) for r in rows)})")
    return "\n".join(out)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--deck", type=int, default=3, help="cards left in the draw pile (default 3)")
    ap.add_argument("--positions", type=int, default=12, help="how many views (seeds 0..N-1; default 12)")
    ap.add_argument("--ref-nodes", type=float, default=8e7, help="node budget of the reference (default 8e7)")
    ap.add_argument("--out", type=Path, default=Path("endgame_trust.csv"),
                    help="rows appended here as they finish (default endgame_trust.csv)")
    ap.add_argument("--allow-code-change", action="store_true", help=ALLOW_CODE_CHANGE_HELP)
    ap.add_argument("--endgame-cards", type=int, default=None,
                    help="the hint hands over to the endgame search from this many cards (default: the advisor's)")
    ap.add_argument("--hint-time", type=float, default=None,
                    help="the hint's budget in seconds, counted as nodes (default: its own, on the clock)")
    args = ap.parse_args(argv)
    from lcanalysis.advisor import ENDGAME_CARDS

    identity = {"ref_nodes": int(args.ref_nodes), "hint_time": args.hint_time,
                "endgame_cards": ENDGAME_CARDS if args.endgame_cards is None else args.endgame_cards}
    command = f"python benchmarks/bench_endgame_trust.py {shlex.join(sys.argv[1:] if argv is None else argv)}"
    with contextlib.ExitStack() as stack:
        # what a row depends on, besides its deck and seed: another file is refused
        write, done = ROWS_FILE.open_or_exit(stack, args.out, identity, command, args.allow_code_change,
                                             units=[(args.deck, seed) for seed in range(args.positions)])
        for seed in range(args.positions):
            if (args.deck, seed) in done:
                continue
            row = run_one(seed, args.deck, int(args.ref_nodes), args.endgame_cards, args.hint_time)
            write(row)
            print(f"seed {seed}: reference {row['ref_best']} {row['ref_value']:+.1f} ({row['ref_stalls']} stalls); "
                  f"rollouts {row['rollouts_pick']} loss {row['rollouts_loss']:.1f}; hint {row['hint_pick']} "
                  f"loss {row['hint_loss']:.1f} ({row['hint_seconds']:.1f} s)", file=sys.stderr, flush=True)
    rows = ROWS_FILE.load(args.out).to_dict("records")
    print(summary([r for r in rows if r["deck"] == args.deck and r["seed"] < args.positions]))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
