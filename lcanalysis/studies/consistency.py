"""Study: is the hint's top turn the one a much longer think picks? (issue 15's consistency target)

On a fixed set of views (the heuristic agent plays both seats of dealt rounds for 8 to 30 turns;
views with more than 2 cards in the draw pile), the advisor at its default budget (1 s of
play-outs, counted, seed 1) is set against a reference run with ``reference`` times the budget
(seed 2, other worlds). A position counts as consistent when the hint's top turn is the
reference's top turn, or its loss in the reference is at most two of the reference's standard
errors of that loss. The target: at least 90% of 200 positions, and a mean loss against the
reference of at most 0.3 points.

    python -m lcanalysis.studies.consistency --positions 200 --reference 30 --workers 2 --out FILE

The file is written a position at a time and resumed (``study_file.StudyFile``).
"""

from __future__ import annotations

import argparse
import contextlib
import math
import os
import shlex
import sys
import time
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np
import pandas as pd

from lcanalysis.options import CommandParser, run_script
from lcanalysis.studies.estimate import target_verdict
from lcanalysis.studies.study_file import ADVICE_CODE, ALLOW_CODE_CHANGE_HELP, StudyFile, add_playout_policy_option

#: issue 15's targets: the share of consistent positions, and the mean loss against the reference
SHARE_TARGET = 0.90
LOSS_TARGET = 0.3
COLUMNS = ["index", "deal_seed", "turns_in", "cards_left", "hint", "hint_value", "reference", "reference_value",
           "loss", "loss_stderr", "consistent", "hint_worlds", "reference_worlds", "cpu_seconds", "view"]
STUDY_FILE = StudyFile("consistency study", "# lcanalysis consistency study ", COLUMNS, keys=("index",),
                       identity_keys=("seed", "reference", "budget", "hand_model", "streams", "schedule",
                                      "playout_rate", "playout_policy"),
                       bools=("consistent",),
                       # files made before the draw streams name none, those before successive halving no
                       # schedule, those before the advisor's play-outs a second were raised no rate, those
                       # before the play-out policy could be chosen none (they played the plain heuristic's)
                       defaults={"streams": False, "schedule": "two-stage", "playout_rate": 6000,
                                 "playout_policy": "plain"},
                       code=ADVICE_CODE).made_by(__file__)
#: ``benchmarks/bench_schedules.py``'s rows: the hint with each schedule against one reference a
#: position; a row a position and schedule, resumed row by row. Its settings: the reference's budget
#: (in multiples) and schedule, the hints' schedules, the play-outs a second (files made before
#: the ``playout_rate`` column have no such column, and their settings name the rate) and the play-outs'
#: policy, the hints' and the references' (files made before it could be chosen name none: "plain").
SCHEDULE_COLUMNS = ["index", "schedule", "cards_left", "hint", "reference", "loss", "loss_stderr", "consistent",
                    "hint_worlds", "cpu_seconds", "playout_rate"]
SCHEDULE_FILE = StudyFile("schedule comparison", "# lcanalysis schedule comparison ", SCHEDULE_COLUMNS,
                          keys=("index", "schedule"), text_keys=("schedule",),
                          identity_keys=("reference", "reference_schedule", "schedules", "playout_rate",
                                         "playout_policy"),
                          defaults={"playout_policy": "plain"}, code=ADVICE_CODE).made_by(__file__)


def load_consistency(path: str | os.PathLike[str]) -> pd.DataFrame:
    """A study file as a table, one row a position (``COLUMNS``), its settings in ``attrs["identity"]``."""
    return STUDY_FILE.load(path)


def study_position(index: int, seed: int = 0) -> tuple[int, int, Any] | None:
    """Position ``index`` of the fixed set: ``(deal seed, turns in, view)``, or None when the
    round has 2 cards or fewer left after those turns (left out of the set)."""
    from lcanalysis.agents import make_agent
    from lcanalysis.game.position import Position

    agent = make_agent("heuristic")
    deal = seed + index
    pos = Position.deal(seed=deal)
    turns = 8 + (index * 7) % 23
    for _ in range(turns):
        pos.push(agent.choose(pos.view(pos.to_move), index))
    if pos.deck_count <= 2:
        return None
    return deal, turns, pos.view(pos.to_move)


def study_positions(n: int, seed: int = 0) -> list[tuple[int, int, int, Any]]:
    """The first ``n`` positions of the fixed set: ``(index, deal seed, turns in, view)`` each
    (cheap to find: a few heuristic turns a position)."""
    out: list[tuple[int, int, int, Any]] = []
    index = 0
    while len(out) < n:
        found = study_position(index, seed)
        if found is not None:
            out.append((index, *found))
        index += 1
    return out


def compare(index: int, deal: int, turns: int, view: Any, reference: float, budget: float,
            hand_model: bool, streams: bool = False, schedule: str = "two-stage",
            playout_rate: int | None = None, playout_policy: str | None = None) -> dict[str, Any]:
    """One row: the hint and the reference on one position of the set (``study_positions``), both
    playing their play-outs with ``playout_policy`` (None: the advisor's default)."""
    from lcanalysis.advisor import advise

    c0 = time.process_time()
    hint = advise(view, time_budget=budget, seed=1, hand_model=hand_model, streams=streams, schedule=schedule,
                  playout_rate=playout_rate, playout_policy=playout_policy)
    ref = advise(view, time_budget=budget * reference, seed=2, hand_model=hand_model, streams=streams,
                 schedule=schedule, playout_rate=playout_rate, playout_policy=playout_policy)
    top, ref_top = hint.moves[0], ref.moves[0]  # each list is ranked best first
    mine = {m.move: m for m in ref.moves}[top.move]
    loss, se = float(mine.loss or 0.0), float(mine.loss_stderr or 0.0)
    return {"index": index, "deal_seed": deal, "turns_in": turns, "cards_left": view.deck_count,
            "hint": top.move, "hint_value": top.value, "reference": ref_top.move,
            "reference_value": ref_top.value, "loss": loss, "loss_stderr": se,
            "consistent": loss == 0 or loss <= 2 * se,
            "hint_worlds": hint.moves[0].extra.get("worlds", ""), "reference_worlds": mine.extra.get("worlds", ""),
            "cpu_seconds": round(time.process_time() - c0, 3), "view": view.to_string()}


def consistency_study(positions: int, reference: float = 30.0, budget: float = 1.0, seed: int = 0,
                      hand_model: bool | None = None, out: str | os.PathLike[str] | None = None, workers: int = 1,
                      progress: Callable[[str], None] | None = None, streams: bool | None = None,
                      schedule: str | None = None, command: str | None = None,
                      playout_rate: int | None = None, allow_code_change: bool = False,
                      playout_policy: str | None = None) -> pd.DataFrame:
    """Compare the hint with the reference on the first ``positions`` positions of the set (the
    ``study_positions``); one row a position, written to ``out`` as each finishes
    (a run given the same file does only what is missing). ``workers`` > 1 spreads the positions
    over processes. ``hand_model``, ``streams`` and ``schedule``: the advisor's (None: its
    defaults); a file made before the draw streams names none and reads as made without them, one
    made before successive halving reads as made with the two-stage schedule. ``playout_rate``: the
    advisor's play-outs a second of budget (None: ``advisor.ROLLOUTS_PER_SECOND``; files made before
    it was raised read as 6,000). ``playout_policy``: the advisor's play-out policy, the hint's and the
    reference's (``advisor.PLAYOUT_POLICY_CHOICES``; None: its default, ``advisor.PLAYOUT_POLICY_DEFAULT``,
    "staged": the stalling heuristic from ``advisor.STALLING_FROM_CARDS`` cards down, the plain one before);
    files made before the choice read as "plain". ``command``: the
    command line, written to ``out`` + ".cmd" once ``out`` is open and its settings match. A file
    whose rows other code wrote (the agents', the engine's or the advisor's: ``study_file.ADVICE_CODE``),
    or an unversioned one, is refused unless ``allow_code_change``."""
    if positions < 1 or reference <= 1 or budget <= 0 or workers < 1:
        raise ValueError("positions and workers must be at least 1, reference above 1 and budget above 0")
    if hand_model is None:
        from lcanalysis.advisor import HAND_MODEL_DEFAULT

        hand_model = HAND_MODEL_DEFAULT
    if streams is None:
        from lcanalysis.advisor import STREAMS_DEFAULT

        streams = STREAMS_DEFAULT
    from lcanalysis.advisor import SCHEDULE_DEFAULT, check_playout_rate, check_schedule

    schedule = SCHEDULE_DEFAULT if schedule is None else check_schedule(schedule)
    playout_rate = check_playout_rate(playout_rate)
    from lcanalysis.advisor import PLAYOUT_POLICY_DEFAULT, check_playout_policy

    playout_policy = PLAYOUT_POLICY_DEFAULT if playout_policy is None else check_playout_policy(playout_policy)
    identity = {"seed": int(seed), "reference": float(reference), "budget": float(budget),
                "hand_model": bool(hand_model), "streams": bool(streams), "schedule": schedule,
                "playout_rate": playout_rate, "playout_policy": playout_policy}
    found = study_positions(positions, seed)
    wanted = [f[0] for f in found]
    rows: list[dict[str, Any]] = []
    with contextlib.ExitStack() as stack:
        write, done = (stack.enter_context(STUDY_FILE.open(os.fspath(out), identity, command, allow_code_change,
                                                           units=[(i,) for i in wanted])) if out is not None
                       else (None, set()))
        todo = [f for f in found if (f[0],) not in done]
        if progress is not None and len(todo) < len(wanted):
            progress(f"{len(wanted) - len(todo)} of {len(wanted)} position(s) already in the file")
        if progress is not None and todo:
            progress(f"{len(todo)} position(s) to compare, each {budget:g} s + {budget * reference:g} s of "
                     f"play-outs (counted), on {min(workers, len(todo))} process(es); a line as each finishes")
        args = [(*f, reference, budget, bool(hand_model), bool(streams), schedule, playout_rate, playout_policy)
                for f in todo]
        if workers > 1 and len(todo) > 1:
            from lcanalysis.core.pool import cancelling_pool

            pool = stack.enter_context(cancelling_pool(min(workers, len(todo))))
            results = (f.result() for f in [pool.submit(compare, *a) for a in args])
        else:
            results = (compare(*a) for a in args)
        for n, row in enumerate(results, 1):
            if write is not None:
                write(row)
            rows.append(row)
            if progress is not None:
                progress(f"{n}/{len(todo)}: position {row['index']} ({row['cards_left']} cards left) hint "
                         f"{row['hint']} reference {row['reference']} loss {row['loss']:.2f} ± "
                         f"{row['loss_stderr']:.2f} {'consistent' if row['consistent'] else 'DIFFERENT'}")
    if out is not None:
        df = load_consistency(out)
        return df[df["index"].isin(wanted)].reset_index(drop=True)
    return STUDY_FILE.frame(rows, identity)


def consistency_summary(study: pd.DataFrame) -> dict[str, Any]:
    """The share of consistent positions with its 95% Wilson interval, the mean loss against the
    reference with its 95% t interval, and each against its target in words."""
    from lcanalysis.tournaments.stats import mean_interval, wilson_interval

    n = len(study)
    if n == 0:
        raise ValueError("no positions in the study")
    k = int(study["consistent"].sum())
    lo, hi = wilson_interval(k, n)
    m, mlo, mhi = mean_interval(study["loss"].astype(float))

    return {"positions": n, "consistent": k, "share": k / n, "share_low": lo, "share_high": hi,
            "share_verdict": target_verdict(lo, hi, (SHARE_TARGET, 1.0)),
            "mean_loss": m, "loss_low": mlo, "loss_high": mhi,
            "loss_verdict": target_verdict(mlo if math.isfinite(mlo) else m, mhi if math.isfinite(mhi) else m,
                                           (-math.inf, LOSS_TARGET)),
            "median_cpu_seconds": float(np.median(study["cpu_seconds"].astype(float)))}


def before_and_after(before: pd.DataFrame, after: pd.DataFrame) -> pd.DataFrame:
    """Two runs of the study on the positions both hold (say, the advisor before and after a
    change): per run the ``consistency_summary`` and the positions with the same top turn as its
    reference; and a last row, the change in loss position by position (after minus before) with
    its 95% t interval, paired since both runs saw the same views."""
    from lcanalysis.tournaments.stats import mean_interval

    common = sorted(set(before["index"]) & set(after["index"]))
    if not common:
        raise ValueError("the two runs share no position")
    rows = {}
    by_index = {}
    for name, study in (("before", before), ("after", after)):
        part = study[study["index"].isin(common)].sort_values("index")
        by_index[name] = part["loss"].astype(float).to_numpy()
        s = consistency_summary(part)
        rows[name] = {k: s[k] for k in ("positions", "consistent", "share", "share_low", "share_high",
                                        "mean_loss", "loss_low", "loss_high")}
        rows[name]["same_top_turn"] = int((part["hint"] == part["reference"]).sum())
    m, lo, hi = mean_interval(by_index["after"] - by_index["before"])
    rows["change in loss, paired"] = {"positions": len(common), "mean_loss": m, "loss_low": lo, "loss_high": hi}
    return pd.DataFrame(rows).T


def load_schedule_comparison(path: str | os.PathLike[str]) -> dict[str, pd.DataFrame]:
    """The rows of ``benchmarks/bench_schedules.py`` (several schedules of the hint against one
    reference a position), one table a schedule in the shape ``consistency_summary``,
    ``before_and_after`` and ``figures.consistency_chart`` read; only positions every schedule
    finished; its settings in each table's ``attrs["identity"]``."""
    rows = SCHEDULE_FILE.load(path)
    missing = {"index", "schedule", "hint", "reference", "loss", "loss_stderr", "consistent"} - set(rows.columns)
    if missing:
        raise ValueError(f"{os.fspath(path)} is no schedule comparison: it has no {', '.join(sorted(missing))}")
    rows["consistent"] = rows["consistent"].astype(str) == "True"
    schedules = list(dict.fromkeys(rows["schedule"]))
    whole = rows.groupby("index")["schedule"].nunique() == len(schedules)
    rows = rows[rows["index"].isin(whole[whole].index)]
    return {s: rows[rows["schedule"] == s].sort_values("index").reset_index(drop=True) for s in schedules}


def report(study: pd.DataFrame) -> str:
    s = consistency_summary(study)
    ref = study.attrs.get("identity", {}).get("reference", float("nan"))
    return (f"{s['positions']} positions: the hint's top turn is the {ref:g}x reference's, or within two of its "
            f"standard errors, in {s['consistent']} = {s['share']:.2f} [{s['share_low']:.2f}, {s['share_high']:.2f}] "
            f"(target {SHARE_TARGET:.0%}: {s['share_verdict']})\n"
            f"mean loss against the reference {s['mean_loss']:.2f} [{s['loss_low']:.2f}, {s['loss_high']:.2f}] "
            f"points (target at most {LOSS_TARGET}: {s['loss_verdict']})")


def main(argv: Sequence[str] | None = None) -> int:
    from lcanalysis.advisor import ROLLOUTS_PER_SECOND, SCHEDULES

    args_list = list(sys.argv[1:] if argv is None else argv)
    ap = CommandParser(prog="python -m lcanalysis.studies.consistency",
                       description="The hint's top turn against a reference with more budget (issue 15).")
    ap.add_argument("--positions", type=int, default=200, help="positions of the fixed set (default 200)")
    ap.add_argument("--reference", type=float, default=30.0, help="the reference's budget in multiples (default 30)")
    ap.add_argument("--budget", type=float, default=1.0, help="the hint's budget in seconds of play-outs (default 1)")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--hand-model", action=argparse.BooleanOptionalAction, default=None,
                    help="the advisor's opponent-hand model (default: as the advisor does, on)")
    ap.add_argument("--streams", action=argparse.BooleanOptionalAction, default=None,
                    help="the advisor's draw streams in the play-outs (default: as the advisor does, on)")
    ap.add_argument("--schedule", choices=SCHEDULES, default=None,
                    help="how the advisor spreads its play-outs over the turns (default: as the advisor does, "
                         "halving)")
    ap.add_argument("--playout-rate", type=int, default=None, metavar="N",
                    help="the advisor's play-outs a second of budget (default: as the advisor does, "
                         f"{ROLLOUTS_PER_SECOND:,}; the studies published before it was raised: 6000)")
    add_playout_policy_option(ap)
    ap.add_argument("--workers", type=int, default=1, help="processes (default 1)")
    ap.add_argument("--out", required=True, help="the CSV file, written a position at a time and resumed")
    ap.add_argument("--allow-code-change", action="store_true", help=ALLOW_CODE_CHANGE_HELP)
    args = ap.parse_args(args_list)
    try:
        study = consistency_study(args.positions, args.reference, args.budget, args.seed, args.hand_model,
                                  args.out, args.workers, progress=lambda line: print(line, file=sys.stderr,
                                                                                      flush=True),
                                  streams=args.streams, schedule=args.schedule, playout_rate=args.playout_rate,
                                  allow_code_change=args.allow_code_change, playout_policy=args.playout_policy,
                                  command="python -m lcanalysis.studies.consistency " + shlex.join(args_list))
    except (ValueError, RuntimeError, OSError) as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    print(report(study))
    return 0


if __name__ == "__main__":  # pragma: no cover
    run_script(main)
