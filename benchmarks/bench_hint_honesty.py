"""Does the hint say so when it may be wrong? Its own error bars against a reference 30 times longer.

Issue 15's consistency target asks whether the hint's top turn is the reference's (or within the
reference's error of it). When it is not, a player is still served honestly if the hint itself
showed the reference's turn as a near tie: its loss against the hint's top turn within two of the
hint's own standard errors of that paired loss. This benchmark reads, for each view of the
consistency study's fixed set, the stored reference (``--refs``: the JSON lines of
``bench_schedules.py``, the advisor at 30 s of play-outs, seed 2) and advises the view at the
default budget (1 s, counted, seed 1, today's advisor, ``--playout-rate`` play-outs a second: the
advisor's by default, and the references must have been made at the same rate; its play-outs played by
``--playout-policy``: the advisor's by default, "staged", and the references must have been made with the
same policy, those that name none with "plain"), and records both sides:

- ``ref_loss``, ``ref_loss_stderr``: the hint's top turn in the reference (the study's rule:
  consistent when 0 or at most two of these standard errors);
- ``hint_loss``, ``hint_loss_stderr``: the reference's top turn in the hint's own list, and
  ``covered``: the hint showed it within two of its standard errors (or named it).

Rows go to ``--out`` as each position finishes (``ROWS_FILE``: a first line of the settings, then
CSV); a second run resumes, one at another ``--playout-rate`` or ``--playout-policy`` is refused (a file
whose settings name no policy was made with "plain"). Budgets are rollout counts,
so the numbers are the same on any machine.

    python benchmarks/bench_hint_honesty.py --positions 200 \
        --refs data/simulated/schedule_consistency.jsonl --out /tmp/honesty.csv
"""

from __future__ import annotations

import argparse
import contextlib
import shlex
import sys
from pathlib import Path

from bench_schedules import EARLIER_POLICY, EARLIER_RATE, load_references

from lcanalysis.studies import consistency
from lcanalysis.studies.study_file import ADVICE_CODE, ALLOW_CODE_CHANGE_HELP, StudyFile, add_playout_policy_option

FIELDS = ["index", "cards_left", "hint", "reference", "ref_loss", "ref_loss_stderr", "consistent",
          "hint_loss", "hint_loss_stderr", "covered"]
#: ``--out``: a first line of the settings (the play-outs a second and their policy: "plain" in a file made
#: before the policy could be chosen), then a row a view, resumed
ROWS_FILE = StudyFile("hint honesty benchmark", "# lcanalysis bench_hint_honesty ", FIELDS, keys=("index",),
                      identity_keys=("playout_rate", "playout_policy"), bools=("consistent", "covered"),
                      defaults={"playout_policy": EARLIER_POLICY},
                      code=ADVICE_CODE).made_by(consistency.__file__).made_by(__file__)
SIGMAS = 2.0  # the study's rule: within two standard errors
REFERENCE, REFERENCE_SCHEDULE, REFERENCE_SEED = 30.0, "halving", 2  # the stored references used


def honesty_row(index: int, view, ref: dict, rate: int | None = None, policy: str | None = None) -> dict:
    """One view: the hint (1 s, seed 1, ``rate`` play-outs a second played by ``policy``; None: the
    advisor's defaults) against its stored reference ``ref`` (``top`` and ``moves``: each turn's loss
    and standard error)."""
    import lcanalysis as lc

    hint = lc.advise(view, time_budget=1.0, seed=1, playout_rate=rate, playout_policy=policy)
    top = hint.moves[0].move
    ref_loss, ref_se = (float(x or 0.0) for x in ref["moves"][top])
    mine = {m.move: m for m in hint.moves}[ref["top"]]
    hint_loss, hint_se = float(mine.loss or 0.0), float(mine.loss_stderr or 0.0)
    return {"index": index, "cards_left": view.deck_count, "hint": top, "reference": ref["top"],
            "ref_loss": round(ref_loss, 4), "ref_loss_stderr": round(ref_se, 4),
            "consistent": ref_loss == 0 or ref_loss <= SIGMAS * ref_se,
            "hint_loss": round(hint_loss, 4), "hint_loss_stderr": round(hint_se, 4),
            "covered": top == ref["top"] or hint_loss <= SIGMAS * hint_se}


def summary(rows: list[dict]) -> str:
    from lcanalysis.tournaments.stats import wilson_interval

    n = len(rows)
    if not n:
        return "no rows"
    truth = [str(r["consistent"]) == "True" for r in rows]
    covered = [str(r["covered"]) == "True" for r in rows]
    missed = [c for t, c in zip(truth, covered) if not t]
    lo, hi = wilson_interval(sum(covered), n)
    out = [f"{n} views: consistent with the reference (its rule) {sum(truth)}; the hint named the reference's "
           f"turn or showed it within {SIGMAS:g} of its own standard errors in {sum(covered)} = "
           f"{sum(covered) / n:.2f} [{lo:.2f}, {hi:.2f}]",
           f"of the {len(missed)} inconsistent views, the hint showed the reference's turn as a near tie in "
           f"{sum(missed)}"]
    return "\n".join(out)


def main(argv: list[str] | None = None) -> int:
    from lcanalysis.advisor import PLAYOUT_POLICY_DEFAULT
    from lcanalysis.studies.consistency import study_positions

    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--positions", type=int, default=200, help="views of the study's fixed set (default 200)")
    ap.add_argument("--refs", type=Path, required=True,
                    help="the references: JSON lines of bench_schedules.py (30 s, halving, seed 2)")
    ap.add_argument("--out", type=Path, required=True, help="CSV of rows, written as they finish and resumed")
    ap.add_argument("--allow-code-change", action="store_true", help=ALLOW_CODE_CHANGE_HELP)
    ap.add_argument("--playout-rate", type=int, default=None, metavar="N",
                    help=f"the hint's play-outs a second, and the references' (default: the advisor's; "
                         f"the published run: {EARLIER_RATE})")
    add_playout_policy_option(ap, ", the hint's, and the references' it reads")
    args = ap.parse_args(argv)
    from lcanalysis.advisor import check_playout_rate

    try:
        rate = check_playout_rate(args.playout_rate)
    except ValueError as e:
        ap.error(str(e))
    policy = PLAYOUT_POLICY_DEFAULT if args.playout_policy is None else args.playout_policy
    if args.positions < 1:
        ap.error(f"--positions must be at least 1, got {args.positions}")
    if not args.refs.is_file():
        ap.error(f"--refs {args.refs}: no such file (the references of bench_schedules.py --refs)")
    argv = sys.argv[1:] if argv is None else argv
    command = f"python benchmarks/bench_hint_honesty.py {shlex.join(argv)}"
    known = load_references(args.refs)  # bench_schedules' reader: by (index, budget, schedule, seed, rate, policy)
    positions = study_positions(args.positions)
    with contextlib.ExitStack() as stack:
        write, done = ROWS_FILE.open_or_exit(stack, args.out, {"playout_rate": rate, "playout_policy": policy}, command,
                                             args.allow_code_change, units=[(index,) for index, *_ in positions])
        for index, _deal, _turns, view in positions:
            if (index,) in done:
                continue
            ref = known.get((index, REFERENCE, REFERENCE_SCHEDULE, REFERENCE_SEED, rate, policy))
            if ref is None:
                print(f"error: {args.refs} holds no reference for view {index} at {rate} play-outs a second "
                      f"played by the {policy} policy (--playout-policy; references that name none played the "
                      f"{EARLIER_POLICY} one)", file=sys.stderr)
                return 2
            row = honesty_row(index, view, ref, rate, policy)
            write(row)
            print(f"{index:3d} hint {row['hint']:<8} ref {row['reference']:<8} "
                  f"{'' if row['consistent'] else 'DIFFERENT'} hint's own loss of the reference's turn "
                  f"{row['hint_loss']:.2f} ± {row['hint_loss_stderr']:.2f}", file=sys.stderr, flush=True)
    print(summary(ROWS_FILE.load(args.out).to_dict("records")))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
