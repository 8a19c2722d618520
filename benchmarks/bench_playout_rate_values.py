"""Does the hint's higher count of play-outs move its values? The calibration study's positions again.

    python benchmarks/bench_playout_rate_values.py --positions 1000 --out data/simulated/calibration_rate_check.csv

The published calibration of today's advisor (``data/simulated/calibration_halving.csv``) was made at
6,000 play-outs a second of budget; the hint now plays ``advisor.ROLLOUTS_PER_SECOND``. This draws
``--positions`` of its rows answered by play-outs (5 cards or more left; a fixed sample, numpy's
``default_rng(0)``), advises each view again with the same seed and settings at the new rate, and
writes the turn played's value at both rates beside the round's realized result. Rows go to
``--out`` as they finish (``ROWS_FILE``: a first line of the settings, then CSV) and a second run
resumes; a file made at another rate is refused. It prints the mean shift of the value (a
standard error over rounds, the positions of one round being correlated) and the calibration line
of the realized result on each.
"""

from __future__ import annotations

import argparse
import contextlib
import shlex
import sys
from pathlib import Path

import numpy as np

from lcanalysis.studies import calibration
from lcanalysis.studies.study_file import ADVICE_CODE, ALLOW_CODE_CHANGE_HELP, StudyFile

ROOT = Path(__file__).resolve().parents[1]

FIELDS = ["round", "turn", "cards_left", "phase", "played", "value_before", "value_now", "stderr_now", "realized",
          "playout_rate"]
#: ``--out``: a first line of the settings (the play-outs a second now), then a row a position, resumed
ROWS_FILE = StudyFile("playout-rate check", "# lcanalysis bench_playout_rate_values ", FIELDS,
                      keys=("round", "turn"), identity_keys=("playout_rate",),
                      code=ADVICE_CODE).made_by(calibration.__file__).made_by(__file__)


def sample(positions: int):
    from lcanalysis.studies.calibration import load_calibration

    d = load_calibration(ROOT / "data" / "simulated" / "calibration_halving.csv")
    d = d[d.cards_left >= 5]
    pick = np.sort(np.random.default_rng(0).choice(len(d), size=min(positions, len(d)), replace=False))
    return d.iloc[pick]


def summary(path: Path) -> str:
    d = ROWS_FILE.load(path)
    shift = d.value_now - d.value_before
    per_round = shift.groupby(d["round"]).sum()
    count = d.groupby("round").size()
    m = shift.mean()
    se = float(np.sqrt(((per_round - m * count) ** 2).sum())) / len(d)
    lines = [f"{len(d)} positions from {d['round'].nunique()} rounds: the turn played's value moved by "
             f"{m:+.2f} ± {se:.2f} points (now minus before; mean absolute change {shift.abs().mean():.2f})"]
    for col, name in (("value_before", "6,000 a second"), ("value_now", f"{int(d.playout_rate.iloc[0]):,} a second")):
        slope, intercept = np.polyfit(d[col], d.realized, 1)
        lines.append(f"  realized on the value at {name}: slope {slope:.3f}, intercept {intercept:+.2f}, "
                     f"mean result minus value {(d.realized - d[col]).mean():+.2f}")
    by_phase = shift.groupby(d.phase).agg(["size", "mean"])
    lines += [f"  {phase}: {int(r['size'])} positions, shift {r['mean']:+.2f}" for phase, r in by_phase.iterrows()]
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--positions", type=int, default=1000, help="rows of the published study (default 1000)")
    ap.add_argument("--out", type=Path, required=True, help="CSV of rows, written as they finish and resumed")
    ap.add_argument("--allow-code-change", action="store_true", help=ALLOW_CODE_CHANGE_HELP)
    args = ap.parse_args(argv)
    if args.positions < 1:
        ap.error(f"--positions must be at least 1, got {args.positions}")
    from lcanalysis.advisor import ROLLOUTS_PER_SECOND
    from lcanalysis.game.notation import read_position
    from lcanalysis.studies.calibration import advise_position, read_identity

    made = read_identity(ROOT / "data" / "simulated" / "calibration_halving.csv")
    argv = sys.argv[1:] if argv is None else argv
    command = f"python benchmarks/bench_playout_rate_values.py {shlex.join(argv)}"
    rows = sample(args.positions)
    with contextlib.ExitStack() as stack:
        # the rows are of the advisor's default rate: a file of another would mix two measurements
        write, done = ROWS_FILE.open_or_exit(
            stack, args.out, {"playout_rate": ROLLOUTS_PER_SECOND}, command, args.allow_code_change,
            units=[(int(r["round"]), int(r.turn)) for _, r in rows.iterrows()])
        for n, (_, r) in enumerate(rows.iterrows(), 1):
            if (int(r["round"]), int(r.turn)) in done:
                continue
            got = advise_position(read_position(r.view), r.played, int(r.advisor_seed), made["time_budget"],
                                  made["hand_model"], made["streams"], made["schedule"], made["endgame_cards"],
                                  ROLLOUTS_PER_SECOND)
            write({"round": int(r["round"]), "turn": int(r.turn), "cards_left": int(r.cards_left),
                   "phase": r.phase, "played": r.played, "value_before": float(r.played_value),
                   "value_now": got["played_value"], "stderr_now": got["played_stderr"],
                   "realized": float(r.realized), "playout_rate": ROLLOUTS_PER_SECOND})
            if n % 50 == 0:
                print(f"{n}/{len(rows)} positions", file=sys.stderr, flush=True)
    print(summary(args.out))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
