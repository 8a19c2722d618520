"""``lcanalysis rollout POSITION [--turn MOVE ...] [--top N] [--agent AGENT] [--trials N] [--precision P]
[--seconds S] [--hand-model] [--out FILE] [--json]``.

Each turn (``--turn``, repeated; by default ``--top`` of the hint's, those it gives a value before
those it only bounds) played out to the end of the round ``--trials`` times by one agent in both
seats (``--agent``, default ``best``, written as for a tournament: ``search:time_ms=50``), in the
same dealt worlds with the same seeds, so the turns' differences are paired; each result less the
luck of its deck draws (``--no-luck-adjustment`` keeps it raw). Prints every turn's mean final score
difference with its standard error and its loss against the best (``lcanalysis.studies.rollout``);
on a position in a match, its chance to win the match instead, ranked by it, with its points beside
it. Slow by design (with ``best``, about a second a turn played out mid-round): a bar shows the
trials; ``--seconds S`` plays trials for S seconds (at most ``--trials``, if given; a trial being
played when the time runs out is abandoned) and answers from the first ones all played, as that many
``--trials`` would; ``--out FILE`` keeps each trial as it finishes, and the same command again plays
only the trials missing (Ctrl-C keeps what is done, and says how many; without ``--out`` it is lost,
and says so). On a view the worlds deal the opponent's unseen cards uniformly, where the hint deals
them by its opponent-hand model: the answer says so, and that the two can differ where the model has
a say; ``--hand-model`` deals them as the hint does.
"""

from __future__ import annotations

import argparse
import os
import shlex
import sys
from typing import TYPE_CHECKING

from lcanalysis.cli.common import check_rollout_agent, describe, emit, legal_turns, load, stage_progress
from lcanalysis.options import (
    FEWEST_TRIALS,
    MAX_ROLLOUT_TOP,
    MAX_SEED,
    MAX_TRIALS,
    MAX_WORKERS,
    ONE_TRIAL,
    OptionError,
    check_output_file,
    nonblank,
    nonneg,
    number,
    path_name,
    seconds,
)

if TYPE_CHECKING:  # (not at run time: 'lcanalysis --help' stays fast)
    from lcanalysis.game.position import Position
    from lcanalysis.game.view import View
    from lcanalysis.studies.rollout import RolloutStopped
    from lcanalysis.tournaments.specs import AgentSpec


def _max_seconds() -> float:
    from lcanalysis.studies.rollout import MAX_SECONDS

    return MAX_SECONDS


def add_parser(sub: argparse._SubParsersAction, pos_help: str) -> None:
    p = sub.add_parser("rollout", help="play each turn out to the end of the round with a strong agent in both "
                                       "seats, many times: values of strong play, with standard errors",
                       description=describe(__doc__))
    p.add_argument("position", help=pos_help)
    p.add_argument("--turn", action="append", metavar="MOVE", dest="turns",
                   help="a turn to roll out, like +B7/D or -G3/R (repeat for more, each once: a turn given twice "
                        "is refused; default: --top of the hint's turns)")
    # (the defaults are the library's, lcanalysis.studies.rollout's: not imported here, 'lcanalysis --help' stays fast)
    p.add_argument("--top", type=nonneg("--top", MAX_ROLLOUT_TOP, minimum=1), default=None,
                   help="without --turn: how many of the hint's turns to roll out (default 3): its best, then those "
                        "it gives a value, exact or estimated, in its order, then, near the end of a round, turns "
                        "its endgame search only bounded (at most: no better than the best) to fill up; the answer "
                        "names any it passed over (on a position in a match, its best turn for the match too)")
    p.add_argument("--agent", default=None, type=nonblank("--agent", "an agent name"),
                   help="the agent in both seats, NAME or NAME:OPTION=VALUE,... as a tournament takes it (default "
                        "best, the strongest), or python:FILE:CLASS[,OPTION=VALUE...], an Agent class of your own "
                        "(not with --out, which records the code of our agents, not of FILE)")
    p.add_argument("--trials", type=nonneg("--trials", MAX_TRIALS, minimum=FEWEST_TRIALS, why=ONE_TRIAL), default=None,
                   help="worlds each turn is played out in (default 100; the standard errors shrink as one over "
                        "its square root)")
    p.add_argument("--precision", type=number("--precision", "points", above=True), default=None, metavar="P",
                   help="stop before --trials once every turn's loss against the best has a standard error of at "
                        "most P points (after 10 trials at least; in points on a match position too; default: "
                        "play every trial)")
    p.add_argument("--seconds", type=seconds(_max_seconds), default=None, metavar="S",
                   help="a time budget: play trials for S seconds in all (the turns' choice included: the hint "
                        "that chooses them gets a tenth of it at most; a trial being played when it runs out is "
                        "abandoned) and answer from the first trials all played, as that many --trials would, "
                        "saying where the time went (default: none; with it and no --trials, as many trials as "
                        "the time allows)")
    p.add_argument("--seed", type=nonneg("--seed", MAX_SEED), default=0,
                   help="the seed of the worlds and the agents (default 0: the same answer every time)")
    p.add_argument("--workers", type=nonneg("--workers", MAX_WORKERS, 1), default=None,
                   help="processes to play trials on (default: every core)")
    p.add_argument("--out", type=path_name("--out"), default=None,
                   help="also write each trial to this file as it finishes; the same command again resumes it "
                        "(default: none, the trials kept in memory only)")
    p.add_argument("--allow-code-change", action="store_true",
                   help="resume a --out file though other code played its trials (the change is recorded in it)")
    p.add_argument("--no-luck-adjustment", action="store_true",
                   help="raw results: do not subtract the luck of the deck draws (the same mean, more noise)")
    p.add_argument("--hand-model", action="store_true",
                   help="on a view, deal each trial's opponent cards by the learned opponent-hand model, as the "
                        "hint deals them (default: uniformly, each unseen card as likely in the opponent's hand as "
                        "in the draw pile; a --out file holds the trials of one deal)")
    p.add_argument("--json", action="store_true", help="print the answer as JSON (Analysis.to_json)")
    p.set_defaults(func=run, precheck=precheck)


def precheck(args: argparse.Namespace) -> None:
    """What ``rollout`` can refuse from its input alone, refused before the engine is compiled (``main`` calls
    this first): options that do not go together, the agent's name and options, the position, each
    ``--turn`` read against the position's rules, named as typed, and ``--out``'s file (not a rollout's, or
    made with other settings: without ``--turn``, all but the turns). Keeps what it read for ``run`` (``args.read``:
    the position, the turns, the agent's checked spec)."""
    if args.turns and args.top is not None:
        raise OptionError("--turn names the turns to roll out: give --turn or --top, not both")
    # the agent's name and options, checked once (None: the default, good, and checking it would load the
    # rollout before the compile); run hands this spec to the library, whose check makes it
    spec = None if args.agent is None else check_rollout_agent("--agent", args.agent, make=False,
                                                                kept_in=f"--out's {args.out}" if args.out else None)
    source = load(args.position)
    turns = legal_turns(source, args.turns) or None
    if args.out is not None:
        check_output_file("--out", args.out, keep={"the position": args.position},
                          replaces=("a rollout file", ("# lcanalysis rollout",)))
        # a file of other settings refused now, not after a minute's compile; without --turn all but the
        # turns, known only once the hint has chosen them (run: after the compile, up to 10 s of thinking)
        _refuse_other_file(args, source, turns, spec)
    args.read = (source, turns, spec)


def _refuse_other_file(args: argparse.Namespace, source: Position | View, turns: list[str] | None,
                       spec: AgentSpec | None) -> None:
    """``--out``'s file refused as ``run`` would refuse it, from what the arguments name alone (``turns``
    None: the hint's, not chosen yet, so every setting but the turns; ``spec`` None: the default agent)."""
    from lcanalysis.studies.rollout import DEFAULT_AGENT, RolloutFileError, file_identity, refuse_other_file
    from lcanalysis.studies.study_file import OtherSettingsError

    spec = spec or check_rollout_agent("--agent", DEFAULT_AGENT, make=False)
    try:
        refuse_other_file(args.out, file_identity(source, turns, spec, args.seed, args.hand_model), source.rules)
    except (OtherSettingsError, RolloutFileError) as exc:  # as run words them
        raise OptionError(f"argument --out: {exc}") from None


def run(args: argparse.Namespace) -> int:
    from lcanalysis.agents import AgentError
    from lcanalysis.studies.rollout import (
        DEFAULT_AGENT,
        DEFAULT_TOP,
        DEFAULT_TRIALS,
        RolloutAgentError,
        RolloutFileError,
        RolloutStopped,
        rollout,
    )
    from lcanalysis.studies.study_file import OtherCodeError, OtherSettingsError
    from lcanalysis.tournaments.python_seat import PythonAgentError

    if getattr(args, "read", None) is None:  # (called without main's precheck)
        precheck(args)
    source, turns, spec = args.read
    args.agent = args.agent or DEFAULT_AGENT  # (as the .cmd sidecar names it)
    if args.trials is None and args.seconds is None:
        args.trials = DEFAULT_TRIALS
    workers = args.workers or os.cpu_count() or 1
    try:
        # the agent as precheck checked it; made by the library's check (its constructor, which loads the
        # engine: search:time_ms=-5), whose refusal names --agent below; a trial plays a whole round out,
        # for seconds: the last line is said again while it runs
        with stage_progress() as say:
            analysis = rollout(source, turns=turns, agent=spec or args.agent, trials=args.trials,
                               top=args.top or DEFAULT_TOP, seed=args.seed, workers=workers, out=args.out,
                               progress=sys.stderr.isatty() or say, luck_adjusted=not args.no_luck_adjustment,
                               command=_command(args) if args.out else None,
                               allow_code_change=args.allow_code_change, precision=args.precision,
                               seconds=args.seconds, hand_model=args.hand_model)
    except RolloutAgentError as exc:  # as a bad option is
        raise OptionError(f"argument --agent: {exc}") from None
    except (OtherSettingsError, OtherCodeError, RolloutFileError) as exc:  # --out's file: as a bad option is
        raise OptionError(f"argument --out: {exc}") from None
    except RolloutStopped as stop:  # Ctrl-C: say how far it got, what is kept and how to go on
        print(stopped(stop), file=sys.stderr, flush=True)
        raise
    except PythonAgentError as exc:  # a class of your own raised in a trial: one line naming it, not a traceback
        raise AgentError(f"the agent {args.agent} failed in a trial: {exc}") from None
    if args.json:  # (each turn with its labelled extras: on a match position its points beside its chance)
        answer = analysis.to_json()
        for row, move in zip(answer["moves"], analysis.moves, strict=True):
            row.update(move.extra)
        emit(answer)
    else:
        print(analysis.to_text())
    return 0


def stopped(stop: RolloutStopped) -> str:
    """What Ctrl-C in a rollout (``studies.rollout.RolloutStopped``) leaves: the trials played, whether
    they are kept (only with ``--out``), and how to go on."""
    if stop.choosing:
        done = "stopped (Ctrl-C) while the hint chose the turns to roll out, before any trial was played"
    else:
        of = "" if stop.trials is None else f" of {stop.trials:,}"
        done = f"stopped (Ctrl-C) after {stop.played:,}{of} trial(s)"
    if stop.out is None:
        return (f"{done}: the answer is printed only once the trials are played, and without --out FILE they are "
                "not kept; run the same command again with --out FILE to keep each trial as it finishes (the same "
                "seed plays the same trials), or for an answer sooner give fewer --trials, --seconds S or "
                "--precision P")
    if stop.choosing:  # (the file not opened yet: what it held is there still)
        return f"{done}: {stop.out} is left as it was; run the same command again to roll out"
    return (f"{done}: {stop.whole:,} whole trial(s) are kept in {stop.out}; run the same command again (it is in "
            f"{stop.out}.cmd) to play the rest and print the answer")


def joined_turns(argv: list[str]) -> list[str]:
    """``--turn -G3/R`` as ``--turn=-G3/R``: argparse takes a word after an option that begins with
    '-' for another option ("expected one argument"), and a discard is written with '-'."""
    out: list[str] = []
    for word in argv:
        if out and out[-1] == "--turn" and word.startswith("-") and not word.startswith("--"):
            out[-1] = f"--turn={word}"
        else:
            out.append(word)
    return out


def _command(args: argparse.Namespace) -> str:
    """The command that makes (and resumes) ``--out``'s file, for its ``.cmd`` sidecar."""
    words = ["lcanalysis", "rollout", args.position, "--agent", args.agent]
    words += ["--trials", str(args.trials)] if args.trials is not None else []
    words += ["--seconds", f"{args.seconds:g}"] if args.seconds is not None else []
    words += ["--seed", str(args.seed), "--out", args.out]
    words += [w for turn in args.turns or () for w in ("--turn", turn)]
    words += ["--top", str(args.top)] if args.top is not None else []
    words += ["--precision", f"{args.precision:g}"] if args.precision is not None else []
    words += ["--hand-model"] if args.hand_model else []
    return shlex.join(words)
