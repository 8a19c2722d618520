"""Review a recorded round or match: every decision scored for skill, every deck draw for luck.

``lcanalysis review RECORD [--json] [--html FILE] [--out FILE] [--player 0|1] [--time S] [--workers N]
[--check N [--check-seconds S] [--check-top K] [--check-agent AGENT]]``.

``--out FILE`` keeps each turn's judgement in FILE as it is made (a results file, as
``tournament --out`` and the studies keep theirs: a line of settings, then one CSV row a turn,
each on the disk before the next); the same command run again resumes from it, judging only the
turns missing there, and prints the review an uninterrupted run prints. A file made for another
record or with other settings (player, time, seed, the method's) is refused, naming them, and so
is one another version of the review kept (``reviewer.REVIEW_VERSION``), naming both versions.

``--check N`` then checks the marked decisions by rollouts, worst first, as GNU Backgammon rolls
out a doubtful move: the played and the review's best turn each played out N times by ``best``
(``--check-agent``) in both seats, paired and luck-adjusted (``lcanalysis rollout``'s), each
check's loss and verdict ("confirmed", "overturned", "too close to call") beside the review's,
and each player's totals and rating made again with the checked losses
(``lcanalysis.studies.review_check``); ``--check-seconds S`` is a time budget for all checks
(the marks not reached keep the review's losses), ``--check-top K`` checks the K worst at most.
With ``--out FILE`` each check's trials are kept in ``FILE.checks/`` and resumed from there.

The record is a game record of docs/spec/interchange.md (JSON or the ``LCR1`` text form of
``lcanalysis.game.records``); a bad record is refused in the parser's one line (``lcanalysis review:
error: argument record: ...``) naming the turn index, the line and the reason. The method, the marks and the
rating bands are those of ``lcanalysis.reviewer``.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import shlex
import sys
from typing import Any

from lcanalysis.cli.common import (
    argument_refused,
    check_rollout_agent,
    describe,
    emit,
    read_stdin,
    stage_progress,
    unwritable,
    write_output_file,
)
from lcanalysis.options import (
    FEWEST_TRIALS,
    MAX_CHECK_TOP,
    MAX_SEED,
    MAX_TRIALS,
    MAX_WORKERS,
    ONE_TRIAL,
    OptionError,
    check_output_file,
    nonblank,
    nonneg,
    path_name,
    seconds,
)

RECORD_HELP = ("a game record: a JSON file ({\"rules\", \"start\", \"turns\"} or a match {\"rules\", \"rounds\"}), "
               "the LCR1 text form, or '-' for standard input")


def _max_time() -> float:
    from lcanalysis.reviewer import MAX_TIME  # read when parsing: 'lcanalysis --help' stays fast

    return MAX_TIME


def add_parser(sub: argparse._SubParsersAction, pos_help: str = "") -> None:
    p = sub.add_parser("review", help="review a recorded round or match: skill of every decision, luck of every draw",
                       description=describe(__doc__))
    p.add_argument("record", help=RECORD_HELP)
    p.add_argument("--json", action="store_true",
                   help="print the JSON answer of docs/spec/interchange.md (decisions and players, plus extras)")
    p.add_argument("--html", metavar="FILE", type=path_name("--html"),
                   help="also write a self-contained HTML report (value graph, critical positions) to FILE")
    p.add_argument("--out", metavar="FILE", type=path_name("--out"),
                   help="keep each turn's judgement in FILE as it is made (CSV after a line of settings) and "
                        "resume from it: the same command run again judges only the turns missing there and "
                        "prints the same review; a file made for another record, with other settings or by "
                        "another version of the review is refused")
    p.add_argument("--player", type=int, choices=(0, 1), default=None,
                   help="review only this player's decisions (default: both; a one-player record: its player)")
    p.add_argument("--time", type=seconds(_max_time, "seconds a decision"), default=None,
                   help="seconds of analysis a decision, as rollout counts (default 0.4; reproducible, "
                        "not a clock)")
    p.add_argument("--seed", type=nonneg("--seed", MAX_SEED), default=0,
                   help="the seed of the sampled worlds (default 0; same seed, same review)")
    p.add_argument("--workers", type=nonneg("--workers", MAX_WORKERS, minimum=1), default=None,
                   help="processes to run decisions on (default: every core; 1 runs in this process)")
    p.add_argument("--no-progress", action="store_true", help="no progress bar on standard error")
    p.add_argument("--check", type=nonneg("--check", MAX_TRIALS, minimum=FEWEST_TRIALS, why=ONE_TRIAL), default=None,
                   metavar="N",
                   help="check the marked decisions by rollouts, worst first: the played and the review's best "
                        "turn each played out N times by --check-agent in both seats (paired, luck-adjusted), "
                        "each with its verdict, and the totals made again with the checked losses (default: no "
                        "checks; slow: about a second a turn played out mid-round)")
    p.add_argument("--check-seconds", type=seconds(_max_check_seconds), default=None, metavar="S",
                   help="with --check: a time budget for all the checks, worst mark first (the marks not reached "
                        "keep the review's losses, and the text says which; default: none, every check plays its N "
                        "trials)")
    p.add_argument("--check-top", type=nonneg("--check-top", MAX_CHECK_TOP, minimum=1), default=None, metavar="K",
                   help="with --check: check only the K worst marks (default: every mark)")
    p.add_argument("--check-agent", default=None, metavar="AGENT", type=nonblank("--check-agent", "an agent name"),
                   help="with --check: the agent in both seats of the checks' rollouts, NAME or "
                        "NAME:OPTION=VALUE,... as a tournament takes it (default best, the strongest), or "
                        "python:FILE:CLASS, an Agent class of your own (not with --out, whose checks record the "
                        "code of our agents, not of FILE)")
    p.set_defaults(func=run, precheck=precheck)


def _max_check_seconds() -> float:
    from lcanalysis.studies.rollout import MAX_SECONDS

    return MAX_SECONDS


def precheck(args: argparse.Namespace) -> None:
    """What ``review`` can refuse from its arguments alone, refused before the engine is compiled (``main``
    calls this first: on a fresh install the compile takes a minute): a check's option without ``--check``,
    the checks' agent's name and options, the output files (``--html``, ``--out`` and its ``.checks``
    folder: where they cannot be written or would destroy another file), then the record, read and
    replayed, and a ``--out`` file made for another record or with other settings. Keeps the record for
    ``run`` (``args.read``)."""
    if args.check is None:  # (refused before the review, which can take minutes)
        for option in ("check_seconds", "check_top", "check_agent"):
            if getattr(args, option) is not None:
                raise OptionError(f"--{option.replace('_', '-')} needs --check N (the trials of each check)")
    elif args.check_agent is not None:
        check_rollout_agent("--check-agent", args.check_agent, make=False,
                            kept_in=f"--out's {args.out}.checks" if args.out else None)
    if args.html:
        check_output_file("--html", args.html, {"the record": args.record,
                                                "the file of judged turns (--out)": args.out},
                          replaces=("an HTML file", ("<!doctype html", "<html")))
    if args.out:
        check_output_file("--out", args.out, {"the record": args.record})
        folder = f"{args.out}.checks"
        if args.check is not None and os.path.exists(folder) and not os.path.isdir(folder):
            raise OptionError(f"--check keeps its trials in {folder} (--out's name and .checks), which is a file: "
                              "move it, or give --out another name")
    from lcanalysis.game.records import read_record, read_record_text

    # a RecordError refused in the parser's line ('argument record: turn index 2 ...', its 'record: ' said by
    # the argument's name); a long record shows a bar after a second
    with argument_refused("record", "record: "):
        args.read = (read_record_text(read_stdin("a game record"), progress=not args.no_progress)
                     if args.record == "-"  # '-': the record's text, never a path
                     else read_record(args.record, progress=not args.no_progress))
    if args.out:
        _refuse_other_file(args)


def _refuse_other_file(args: argparse.Namespace) -> None:
    """``--out``'s file refused as ``_kept`` refuses it on opening, from the arguments alone: one made for
    another record or with other settings (its settings line; the review's version, whose refusal depends
    on the turns there, is left to ``_kept``)."""
    from lcanalysis.reviewer import DEFAULT_TIME, keep_settings

    identity = keep_settings(args.read, player=args.player, time_budget=args.time or DEFAULT_TIME, seed=args.seed)
    try:
        _kept_file().refuse_other_settings(args.out, identity)
    except ValueError as exc:  # other settings, or not a review's file: in _kept's words
        raise OptionError(f"argument --out: {exc}") from None


def run(args: argparse.Namespace) -> int:
    if getattr(args, "read", None) is None:  # (called without main's precheck)
        precheck(args)
    record = args.read  # (the output files checked by precheck, before the review and the compile)
    folder = _check_folder(args) if args.check is not None else None
    from lcanalysis.reviewer import DEFAULT_TIME, review  # the engine: loaded once the record is read

    time_budget = args.time or DEFAULT_TIME
    with contextlib.ExitStack() as stack:
        judged, on_judged = (_kept(stack, args.out, record, args.player, time_budget, args.seed, _command(args))
                             if args.out else (None, None))
        try:
            rv = review(record, player=args.player, time_budget=time_budget, seed=args.seed,
                        workers=args.workers, executor="serial" if args.workers == 1 else None,
                        progress=not args.no_progress,  # a log file too: never 20 s of silence
                        judged=judged, on_judged=on_judged)
        except KeyboardInterrupt:  # Ctrl-C: say what is kept and how to go on, then stop as asked
            if args.out:
                print(f"stopped: the turns judged so far are kept in {args.out}; run the same command again "
                      "to judge the rest and print the review", file=sys.stderr)
            else:
                print(f"stopped: a review is printed{', and its HTML report written,' if args.html else ''} only "
                      "once every turn is judged, so the turns judged so far are not kept (--out FILE keeps "
                      "them); run the same command again (the same seed gives the same review)", file=sys.stderr)
            raise
    if args.check is not None:
        _check(args, rv, folder)
    if args.html:
        write_output_file("--html", args.html, rv.to_html())
    if args.json:
        emit(rv.to_json())
    else:
        print(rv.to_text())
        if args.html:
            print(f"HTML report written to {args.html}")
    return 0


def _check_folder(args: argparse.Namespace) -> str | None:
    """The checks' options checked, and the folder their trials are kept in (``--out``'s FILE.checks), or None."""
    from lcanalysis.studies.review_check import DEFAULT_AGENT, check_options

    args.check_agent = args.check_agent or DEFAULT_AGENT
    check_rollout_agent("--check-agent", args.check_agent,  # (made: refused as the option, not as the library's)
                        kept_in=f"--out's {args.out}.checks" if args.out else None)
    check_options(args.check, args.check_seconds, args.check_top, args.check_agent, _workers(args))
    return f"{args.out}.checks" if args.out else None  # (a file in its place: refused by precheck)


def _workers(args: argparse.Namespace) -> int:
    return args.workers or os.cpu_count() or 1


def _check(args: argparse.Namespace, rv: Any, folder: str | None) -> None:
    """The review's marks checked by rollouts (``--check``), kept in ``rv.checks``."""
    from lcanalysis.agents import AgentError
    from lcanalysis.studies.review_check import check_marks
    from lcanalysis.tournaments.python_seat import PythonAgentError

    try:
        # a check's trials play whole rounds out, for many seconds: its last line is said again while they run
        with stage_progress() as say:
            check_marks(rv, args.check, seconds=args.check_seconds, top=args.check_top, agent=args.check_agent,
                        workers=_workers(args), folder=folder,
                        progress=False if args.no_progress else (sys.stderr.isatty() or say),
                        command=_command(args) if folder else None)
    except PythonAgentError as exc:  # a class of your own raised in a check's trial: one line naming it
        raise AgentError(f"the agent {args.check_agent} failed in a check's trial: {exc}") from None
    except KeyboardInterrupt as stop:
        print(_check_stopped(args.out, folder, stop), file=sys.stderr, flush=True)
        raise


def _check_stopped(out: str | None, folder: str | None, stop: KeyboardInterrupt) -> str:
    """The one line Ctrl-C in the checks leaves (the rollout's file says nothing of its own): what is
    kept, where, and how to go on. ``stop``: a rollout's ``RolloutStopped`` (with its counts) when it
    came in a check's trials."""
    from lcanalysis.studies.rollout import RolloutStopped

    if not folder:
        return ("stopped: a review is printed only once its checks are played, and without --out FILE neither its "
                "judged turns nor the checks' trials are kept; run the same command again with --out FILE to keep "
                "them (in FILE and FILE.checks/; the same seed gives the same review and checks)")
    where = f"the checks' trials in {folder}"
    if isinstance(stop, RolloutStopped) and stop.out:  # (the check being played: how far it got)
        of = "" if stop.trials is None else f" of {stop.trials:,}"
        where += f" ({stop.whole:,}{of} whole trial(s) of the check stopped, in {stop.out})"
    return (f"stopped: the review's judged turns are kept in {out} and {where}; run the same command again "
            f"(it is in {out}.cmd) to play the rest and print the review")


def _kept_file() -> Any:
    from lcanalysis.game.records import REVIEW_KEPT_MARK
    from lcanalysis.studies.study_file import StudyFile

    #: one row a judged turn: its round, index and judgement (``reviewer.judgement_text``, JSON); every
    #: setting ``keep_settings`` writes must match to resume (the version apart: refused in its own words).
    #: A file kept before the play-out policy was written (review version 5 or earlier) was judged by
    #: the plain heuristic's play-outs, and says so when refused; the advisor that names the best turn has
    #: played the plain heuristic throughout, named from version 16 (``reviewer.ADVISOR_PLAYOUT_POLICY``)
    return StudyFile("review", REVIEW_KEPT_MARK, ["round", "index", "judgement"], keys=("round", "index"),
                     identity_keys=("record_sha256", "player", "time", "seed", "search_floor", "hand_model",
                                    "streams", "schedule", "playout_rate", "playout_policy", "advisor_playout_policy",
                                    "luck_hand_model"),
                     defaults={"playout_policy": "plain", "advisor_playout_policy": "plain"},
                     version=("review_version", "review"))


def _command(args: argparse.Namespace) -> str:
    """The command that makes (and resumes) ``--out``'s file, for its ``.cmd`` sidecar."""
    words = ["lcanalysis", "review", args.record, "--out", args.out, "--seed", str(args.seed)]
    if args.time is not None:
        words += ["--time", f"{args.time:g}"]
    if args.player is not None:
        words += ["--player", str(args.player)]
    if args.check is not None:
        words += ["--check", str(args.check), "--check-agent", args.check_agent]
        words += ["--check-seconds", f"{args.check_seconds:g}"] if args.check_seconds is not None else []
        words += ["--check-top", str(args.check_top)] if args.check_top is not None else []
    return shlex.join(words)


def _kept(stack: contextlib.ExitStack, path: str, record: Any, player: int | None, time_budget: float,
          seed: int, command: str) -> tuple[dict[tuple[int, int], dict[str, Any]], Any]:
    """Open ``--out``'s file (refusing one made for another record or settings, or one another run
    is writing) and read the turns judged there; the judgements to pass on and the function that
    writes each new one."""
    from lcanalysis.reviewer import judgement_of, judgement_text, keep_settings, kept_turn_misfit

    kept_file = _kept_file()
    identity = keep_settings(record, player=player, time_budget=time_budget, seed=seed)
    try:
        write, _ = stack.enter_context(kept_file.open(path, identity, command, says_stopped=False))  # (says it: main)
    except (RuntimeError, ValueError) as exc:  # another run is writing it; another record or settings
        raise OptionError(f"argument --out: {exc}") from None
    except OSError as exc:  # a folder it may not write in
        raise unwritable("--out", path, exc) from None
    judged: dict[tuple[int, int], dict[str, Any]] = {}
    lines: dict[tuple[int, int], int] = {}  # (each turn's line, for a turn kept twice)
    for n, row in enumerate(kept_file.load(path).to_dict("records"), start=3):
        try:
            x = judgement_of(str(row["judgement"]))
        except ValueError as exc:
            raise OptionError(f"argument --out: {path} line {n}: {exc}") from None
        key, said = (int(row["round"]), int(row["index"])), (x["round"], x["index"])
        if said != key:  # (the row's turn is its columns; a judgement of another would be that turn's)
            raise OptionError(f"argument --out: {path} line {n}: the row is of round {key[0]} turn {key[1]}, but its "
                              f"judgement is of round {said[0]} turn {said[1]}: a row no review wrote (was the file "
                              "edited?); write to another file")
        misfit = kept_turn_misfit(record, x)
        if misfit:  # (the file is this record's by its hash: a row edited, or pasted from another file)
            raise OptionError(f"argument --out: {path} line {n}: {misfit}: a row no review wrote (was the file "
                              "edited?); write to another file")
        if judged.setdefault(key, x) != x:
            raise OptionError(f"argument --out: {path} line {n}: round {key[0]} turn {key[1]} is judged twice, "
                              f"otherwise (lines {lines[key]} and {n}): a row no review wrote (was the file edited?); "
                              "write to another file")
        lines.setdefault(key, n)
    if judged:
        print(f"resuming from {path}: {len(judged)} turn(s) judged there are kept", file=sys.stderr)
    else:
        print(f"keeping each judged turn in {path} as it is made (run the same command again to resume)",
              file=sys.stderr)

    def on_judged(result: dict[str, Any]) -> None:
        write({"round": result["round"], "index": result["index"], "judgement": judgement_text(result)})

    return judged, on_judged
