"""Whose values are honest near the end? Rollouts by an agent against the endgame search's values.

The hint's play-outs value a turn by how the heuristic plays the round out; with 4 cards left they
were 6.7 points off the deep endgame search's values on average (docs/endgame.md, "At 4 cards"),
with standard errors of a few tenths. A rollout (``lcanalysis.studies.rollout``) plays the turn out
with a real agent in both seats instead. This measures, on the views of a reference file of
``bench_endgame_trust.py`` (``tests/helpers.played_down``, the mover's view; the reference: the
endgame search with 80 M nodes, two stalls each in 15 of 16), the value each method gives the
reference's best turn against the reference's value of it:

- ``playouts``: the advisor's play-outs (``advise(view, endgame_cards=2)``, 1 s counted), played by the plain
  heuristic; ``playouts:stalling``: the same with ``playout_policy="stalling"`` (the best agent's play-out
  policy); ``--playouts`` names which of the hint's play-out policies to measure (default: plain);
- one row per ``--agents`` name: ``rollout(view, turns=[best], agent=NAME, trials=--trials)``.

Printed per view and in total: each method's value and standard error, its error against the
reference, the share within 2 points and the mean absolute error (all views, and the views where
the reference converged). Rows go to ``--out`` as they finish (a first line of the settings, then
CSV; the same command resumes; a file of other settings is refused).

    python benchmarks/bench_rollout_honesty.py --trials 100 --out data/simulated/rollout_honesty_4cards.csv
    python benchmarks/bench_rollout_honesty.py --playouts plain stalling --agents \
        --out data/simulated/rollout_honesty_4cards_stalling.csv
"""

from __future__ import annotations

import argparse
import contextlib
import math
import os
import shlex
import statistics
import sys
import time
from pathlib import Path

from lcanalysis.options import PLAYOUT_POLICIES
from lcanalysis.studies.study_file import ALLOW_CODE_CHANGE_HELP, PLAY_CODE, StudyFile

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))

FIELDS = ["seed", "deck", "method", "turn", "ref_value", "ref_converged", "value", "stderr", "error", "seconds"]
ROWS_FILE = StudyFile("rollout honesty benchmark", "# lcanalysis bench_rollout_honesty ", FIELDS,
                      keys=("seed", "method"), text_keys=("method",),
                      identity_keys=("reference", "trials", "agents", "playouts"), defaults={"playouts": ["plain"]},
                      bools=("ref_converged",), code=((*PLAY_CODE[0], "advisor", "studies/rollout.py"),
                                                      "the agents, the engine, the advisor or the rollouts"),
                      ).made_by(str(ROOT / "tests" / "helpers.py")).made_by(__file__)


#: the method of the hint's play-outs, and "playouts:POLICY" for a play-out policy other than the plain one
PLAYOUTS = "playouts"


def playouts_method(policy: str) -> str:
    """The method name of the hint's play-outs by ``policy`` ("playouts" for the plain one, as before)."""
    return PLAYOUTS if policy == "plain" else f"{PLAYOUTS}:{policy}"


def measure(seed: int, deck: int, method: str, turn: str, trials: int) -> tuple[float, float, float]:
    """(value, standard error, seconds) of ``turn`` in view ``seed`` by ``method``."""
    from helpers import played_down

    from lcanalysis.advisor import advise
    from lcanalysis.studies.rollout import rollout

    pos = played_down(seed, deck)
    view = pos.view(pos.to_move)
    t0 = time.perf_counter()
    if method.startswith(PLAYOUTS):
        answer = advise(view, endgame_cards=2, playout_policy=method.partition(":")[2] or "plain")
    else:
        answer = rollout(view, turns=[turn], agent=method, trials=trials)
    m = next(m for m in answer.moves if m.move == turn)
    return m.value, m.stderr, time.perf_counter() - t0


def summary(rows: list[dict], methods: list[str]) -> list[str]:
    lines = []
    for method in methods:
        mine = [r for r in rows if r["method"] == method]
        for label, chosen in (("all", mine), ("converged", [r for r in mine if r["ref_converged"]])):
            if not chosen:
                continue
            errors = [abs(float(r["error"])) for r in chosen]
            near = sum(e <= 2 for e in errors)
            se = statistics.mean(float(r["stderr"]) for r in chosen)
            lines.append(f"{method:>17} ({label}, {len(chosen)} views): within 2 points {near}/{len(chosen)}; mean "
                         f"absolute error {statistics.mean(errors):.2f} (worst {max(errors):.2f}); mean stated "
                         f"standard error {se:.2f}; median "
                         f"{statistics.median(float(r['seconds']) for r in chosen):.1f} s")
    return lines


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--reference", default=str(ROOT / "data" / "simulated" / "endgame_trust_4cards.csv"),
                    help="a bench_endgame_trust.py rows file: its views and reference values (default: "
                         "data/simulated/endgame_trust_4cards.csv)")
    ap.add_argument("--agents", nargs="*", default=["heuristic", "best"],
                    help="agents to roll out with (default: heuristic best; none given: no rollouts)")
    ap.add_argument("--playouts", nargs="*", choices=PLAYOUT_POLICIES, default=["plain"],
                    help="the hint's play-out policies to measure (default: plain; none given: no play-outs)")
    ap.add_argument("--trials", type=int, default=100, help="rollouts a view (default 100)")
    ap.add_argument("--positions", type=int, default=None,
                    help="only the first N views of the reference (default: all)")
    ap.add_argument("--out", default=None, help="rows file, resumed by the same command (default: none)")
    ap.add_argument("--allow-code-change", action="store_true", help=ALLOW_CODE_CHANGE_HELP)
    args = ap.parse_args(argv)
    if args.positions is not None and args.positions < 1:
        ap.error(f"--positions must be at least 1, got {args.positions}")
    if args.trials < 2:
        ap.error(f"--trials must be at least 2, got {args.trials}")
    if not args.playouts and not args.agents:
        ap.error("nothing to measure: give --playouts or --agents")
    sys.path.insert(0, str(ROOT / "benchmarks"))
    from bench_endgame_trust import ROWS_FILE as REFERENCE_FILE

    reference = REFERENCE_FILE.load(args.reference).head(args.positions)
    methods = [*(playouts_method(p) for p in dict.fromkeys(args.playouts)), *args.agents]
    identity = {"reference": os.path.basename(args.reference), "trials": args.trials, "agents": list(args.agents),
                "playouts": list(dict.fromkeys(args.playouts))}
    rows: list[dict] = []
    with contextlib.ExitStack() as stack:
        units = [(int(seed), method) for seed in reference["seed"] for method in methods]
        write, done = (ROWS_FILE.open_or_exit(stack, args.out, identity, shlex.join(["python", *sys.argv]),
                                              args.allow_code_change, units=units)
                       if args.out else (None, set()))
        if args.out:
            rows += ROWS_FILE.load(args.out).to_dict("records")
        for ref in reference.to_dict("records"):
            for method in methods:
                if (int(ref["seed"]), method) in done:
                    continue
                value, se, seconds = measure(int(ref["seed"]), int(ref["deck"]), method, ref["ref_best"], args.trials)
                row = {"seed": int(ref["seed"]), "deck": int(ref["deck"]), "method": method, "turn": ref["ref_best"],
                       "ref_value": float(ref["ref_value"]), "ref_converged": bool(ref["ref_converged"]),
                       "value": round(value, 3), "stderr": round(se, 3), "error": round(value - ref["ref_value"], 3),
                       "seconds": round(seconds, 2)}
                if write is not None:
                    write(row)
                rows.append(row)
                print(f"seed {row['seed']:2d} {method:>17}: {row['turn']:<7} {value:+7.2f} ± {se:.2f} against "
                      f"{row['ref_value']:+7.2f}{'' if row['ref_converged'] else ' (not converged)'}: error "
                      f"{row['error']:+.2f} ({seconds:.1f} s)", flush=True)
    print("\n".join(summary(rows, methods)))
    return 0 if not any(math.isnan(float(r["value"])) for r in rows) else 1


if __name__ == "__main__":
    sys.exit(main())
