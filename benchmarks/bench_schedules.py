"""Two schedules of the advisor's play-outs against one yardstick (issue 15's consistency target).

``python -m lcanalysis.studies.consistency`` compares the hint with a reference made by the same
advisor, so a change of the advisor moves the yardstick too. Here every position of the study's
fixed set gets one reference (the advisor at ``--reference`` times the budget, seed 2, with
``--reference-schedule``) and the hint at the default budget (seed 1) with each schedule of
``--schedules``; each hint's top turn is looked up in that one reference, as the study does (its
loss there, consistent when the top turn or within two of the reference's standard errors).
Budgets are rollout counts, so the numbers are the same on any machine: ``--playout-rate`` a second
(default the advisor's, ``advisor.ROLLOUTS_PER_SECOND``; the runs published before it was raised
used 6000, and references made at one rate are never used for hints at another). ``--playout-policy``:
the play-outs' policy, the references' and the hints' alike (default the advisor's, "staged"; the runs
published before that default played the plain heuristic's throughout, and references made with one
policy are never used for hints with another).

Rows go to ``--out`` as each position finishes (``consistency.SCHEDULE_FILE``: a first line of the
settings, then CSV), and a second run with the same settings resumes it (one with another reference,
schedules or rate is refused: the file's first line says which it was made with). The references
(``--refs``, JSON lines) each name the code that made them (``references_code``: the rows file's), and
a run with references to add refuses a file of another code's (or of unversioned ones, from before),
as the rows file is refused, unless ``--allow-code-change``; one that finds every reference it needs
there reads them as they are. The summary prints,
per schedule, the study's share of consistent positions and mean loss (95% intervals), and the
change in loss position by position (paired: the same views and the same reference).

    python benchmarks/bench_schedules.py --positions 100 --reference 30 --refs /tmp/refs.jsonl --out /tmp/schedules.csv
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import shlex
import sys
import time
from pathlib import Path

import lcanalysis as lc
from lcanalysis.advisor import (
    EARLIER_ROLLOUTS_PER_SECOND,
    PLAYOUT_POLICY_DEFAULT,
    ROLLOUTS_PER_SECOND,
    SCHEDULES,
    check_playout_policy,
    check_playout_rate,
)
from lcanalysis.studies.consistency import (
    SCHEDULE_FILE,
    before_and_after,
    consistency_summary,
    load_schedule_comparison,
    study_positions,
)
from lcanalysis.studies.study_file import ALLOW_CODE_CHANGE_HELP, add_playout_policy_option, other_code_error
from lcanalysis.tournaments.results import code_version

FIELDS = SCHEDULE_FILE.columns
#: the rows file: the study's format, its rows made by this script too (an edit of it is changed code)
ROWS_FILE = SCHEDULE_FILE.made_by(__file__)
#: the play-outs a second of the runs made before the column (and the references' key) was added
EARLIER_RATE = EARLIER_ROLLOUTS_PER_SECOND
#: the seed of every reference
REFERENCE_SEED = 2
#: the play-outs' policy of the references made before they named one (before the hint's default was "staged")
EARLIER_POLICY = "plain"


def load_references(refs: Path | None, repair: bool = False) -> dict[tuple, dict]:
    """The references kept in ``refs`` (JSON lines), keyed by what makes one: position, budget,
    schedule, seed, play-outs a second (``EARLIER_RATE`` for lines that name none) and the play-outs'
    policy (``EARLIER_POLICY`` for lines that name none). A last line
    cut short (a run killed as it wrote it) is left out, and with ``repair`` (the run that appends
    to the file) cut off the file too: its reference is made again."""
    if refs is None or not refs.exists():
        return {}
    text = refs.read_text()
    whole = text[: text.rfind("\n") + 1]
    if whole != text:
        print(f"warning: {refs}: a torn last line (an unfinished reference) is "
              + ("dropped and made again" if repair else "left out"), file=sys.stderr, flush=True)
        if repair:
            with refs.open("r+") as fh:
                fh.truncate(len(whole.encode()))
    rows = (json.loads(line) for line in whole.splitlines())
    return {(r["index"], r["reference"], r["schedule"], r["seed"], r.get("playout_rate", EARLIER_RATE),
             r.get("playout_policy", EARLIER_POLICY)): r for r in rows}


def references_code() -> dict[str, str]:
    """The code behind a reference made today (``code_version``): the rows file's (the advisor, the
    views' module and this script), which each line of ``--refs`` names."""
    assert ROWS_FILE.code is not None
    return code_version(ROWS_FILE.code[0])


def check_references_code(refs: Path, known: dict[tuple, dict], mine: dict[str, str], allow: bool) -> None:
    """Refuse (SystemExit) to add references of code ``mine`` to ``refs`` when it holds references
    other code made, or unversioned ones (from before each line named its code), as a rows file
    is refused (``study_file.other_code_error``), unless ``allow`` (``--allow-code-change``: then
    each reference still names the code that made it). Called only by a run that has references to
    add: one that finds every reference it needs in the file reads them whatever code made them."""
    others = [r.get("code") for r in known.values() if r.get("code") != mine]
    if not others:
        return
    if not allow:
        assert ROWS_FILE.code is not None
        error = other_code_error(os.fspath(refs), others[0], mine, ROWS_FILE.code[1], named="its references name",
                                 recorded="each reference names the code that made it")
        raise SystemExit(f"error: {error}")
    print(f"note: {refs}: {len(others)} of its references were made by other code, the ones added from here on by "
          "this code (--allow-code-change; each line names its code)", file=sys.stderr, flush=True)


def cached_reference(view, index: int, reference: float, ref_schedule: str, refs: Path | None,
                     known: dict[tuple, dict], rate: int = ROLLOUTS_PER_SECOND,
                     code: dict[str, str] | None = None, policy: str = PLAYOUT_POLICY_DEFAULT) -> dict:
    """The reference's turns with their losses (``{move: (loss, loss_stderr)}``) and its top turn,
    from ``known`` (``load_references``) when it holds the position with these settings, else
    computed with the play-outs' ``policy`` and added to it and to ``refs`` (naming ``code``, the code that
    made it): a new schedule is then compared on the same references in seconds a position."""
    key = {"index": index, "reference": reference, "schedule": ref_schedule, "seed": REFERENCE_SEED,
           "playout_rate": rate, "playout_policy": policy}
    found = known.get(tuple(key.values()))
    if found is not None:
        return found
    ref = lc.advise(view, time_budget=reference, seed=REFERENCE_SEED, schedule=ref_schedule, playout_rate=rate,
                    playout_policy=policy)
    row = {**key, "top": ref.moves[0].move, "moves": {m.move: [m.loss, m.loss_stderr] for m in ref.moves},
           **({"code": code} if code is not None else {})}
    known[tuple(key.values())] = row
    if refs is not None:
        with refs.open("a") as fh:
            fh.write(json.dumps(row) + "\n")
    return row


def run(positions: int, reference: float, schedules: list[str], ref_schedule: str, out: Path,
        refs: Path | None = None, rate: int = ROLLOUTS_PER_SECOND, command: str | None = None,
        allow_code_change: bool = False, policy: str = PLAYOUT_POLICY_DEFAULT) -> None:
    """The reference and the hints of each position (their play-outs played by ``policy``), a row a
    schedule, written to ``out``
    (``consistency.SCHEDULE_FILE``; ``command`` to its ``.cmd`` sidecar) as each position finishes.
    A file begun with these settings is resumed (only the rows missing from it are made), one made
    with others is refused (the exit names them), and so is one other code wrote unless
    ``allow_code_change``."""
    identity = {"reference": float(reference), "reference_schedule": ref_schedule, "schedules": list(schedules),
                "playout_rate": int(rate), "playout_policy": policy}
    found = study_positions(positions)
    with contextlib.ExitStack() as stack:
        write, done = ROWS_FILE.open_or_exit(stack, out, identity, command, allow_code_change,
                                             units=[(f[0], s) for f in found for s in schedules])
        todo = [(f, [s for s in schedules if (f[0], s) not in done]) for f in found]
        todo = [(f, left) for f, left in todo if left]
        print(f"{positions - len(todo)} positions already in {out}, {len(todo)} to go (each: one reference at "
              f"{reference:g}x the budget, then {len(schedules)} hints)", file=sys.stderr, flush=True)
        known = load_references(refs, repair=True)  # (this run appends to it)
        code = references_code()
        missing = [f[0] for f, _ in todo
                   if (f[0], reference, ref_schedule, REFERENCE_SEED, rate, policy) not in known]
        if refs is not None and missing:
            check_references_code(refs, known, code, allow_code_change)  # (before any reference is made)
        for (index, _deal, _turns, view), left in todo:
            c0 = time.process_time()
            ref = cached_reference(view, index, reference, ref_schedule, refs, known, rate, code, policy)
            rows = []
            for sch in left:
                c1 = time.process_time()
                hint = lc.advise(view, time_budget=1.0, seed=1, schedule=sch, playout_rate=rate, playout_policy=policy)
                loss, se = (float(x or 0.0) for x in ref["moves"][hint.moves[0].move])
                rows.append({"index": index, "schedule": sch, "cards_left": view.deck_count,
                             "hint": hint.moves[0].move, "reference": ref["top"], "loss": loss,
                             "loss_stderr": se, "consistent": loss == 0 or loss <= 2 * se,
                             "hint_worlds": hint.moves[0].extra.get("worlds", ""),
                             "cpu_seconds": round(time.process_time() - c1, 3), "playout_rate": rate})
            write(rows)  # a row a schedule; a run stopped between them does the missing ones again
            print(f"{index:3d} deck {view.deck_count:2d} ref {ref['top']:<8} "
                  + "  ".join(f"{r['schedule']} {r['hint']:<8} loss {r['loss']:5.2f} ± {r['loss_stderr']:4.2f}"
                              f"{'' if r['consistent'] else ' DIFFERENT'}" for r in rows)
                  + f"  ({time.process_time() - c0:.0f} CPU s)", file=sys.stderr, flush=True)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--positions", type=int, default=100, help="positions of the study's fixed set (default 100)")
    ap.add_argument("--reference", type=float, default=30.0, help="the reference's budget in seconds (default 30)")
    ap.add_argument("--schedules", nargs="+", default=["two-stage", "halving"], choices=SCHEDULES,
                    help="the hints to compare, the first as \"before\" (default: two-stage halving)")
    ap.add_argument("--reference-schedule", default="halving", choices=SCHEDULES,
                    help="the reference's schedule (default halving)")
    ap.add_argument("--out", type=Path, required=True, help="CSV of rows, written as they finish and resumed")
    ap.add_argument("--refs", type=Path, default=None,
                    help="JSON lines of the references, kept and reused (a new schedule then costs only its hints; "
                         "each names the code that made it, and references of other code are not added to; "
                         "default: none, every reference made again)")
    ap.add_argument("--allow-code-change", action="store_true", help=ALLOW_CODE_CHANGE_HELP)
    ap.add_argument("--playout-rate", type=int, default=None, metavar="N",
                    help=f"the advisor's play-outs a second of budget (default {ROLLOUTS_PER_SECOND:,}; "
                         f"the published runs before it was raised: {EARLIER_RATE})")
    add_playout_policy_option(ap, ", the references' and the hints'")
    argv = sys.argv[1:] if argv is None else argv
    args = ap.parse_args(argv)
    try:
        rate = check_playout_rate(args.playout_rate)
    except ValueError as e:
        ap.error(str(e))
    policy = PLAYOUT_POLICY_DEFAULT if args.playout_policy is None else check_playout_policy(args.playout_policy)

    run(args.positions, args.reference, args.schedules, args.reference_schedule, args.out, args.refs, rate,
        command=f"python benchmarks/bench_schedules.py {shlex.join(argv)}", allow_code_change=args.allow_code_change,
        policy=policy)
    by_schedule = load_schedule_comparison(args.out)
    print(f"reference: the advisor at {args.reference:g} s ({args.reference_schedule}), seed 2; hints at 1 s, seed 1; "
          f"{rate:,} play-outs a second, played by the {policy} policy")
    for sch in args.schedules:
        s = consistency_summary(by_schedule[sch])
        print(f"{sch:>10}: consistent {s['consistent']}/{s['positions']} = {s['share']:.2f} "
              f"[{s['share_low']:.2f}, {s['share_high']:.2f}]; mean loss {s['mean_loss']:.2f} "
              f"[{s['loss_low']:.2f}, {s['loss_high']:.2f}]; median hint CPU {s['median_cpu_seconds']:.2f} s")
    if len(args.schedules) == 2:
        a, b = args.schedules
        table = before_and_after(by_schedule[a], by_schedule[b])
        print(f"\nbefore = {a}, after = {b}:")
        print(table.to_string(float_format=lambda x: f"{x:.3f}"))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
