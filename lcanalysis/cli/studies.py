"""``lcanalysis studies ...``: regenerate the data behind the notebooks and articles.

- ``data``: the files in ``data/`` the notebooks read (``studies.data``);
- ``wager-tables``: the wager tables (``studies.wager_tables``);
- ``wager-claims``: the literature's wager claims tested (``studies.wager_claims``);
- ``wager-sim``: the wager models against simulated play (``wagers.simulation``);
- ``match-table``: the match equity table of a 3-round match (``studies.match_table``).
"""

from __future__ import annotations

import argparse
import contextlib
import os
import sys
from collections.abc import Iterator

from lcanalysis.cli.common import describe
from lcanalysis.options import (
    MAX_BOOTSTRAP,
    MAX_SEED,
    MAX_STUDY_UNITS,
    MAX_WAGER_SAMPLES,
    MAX_WAGER_SIM_ROUNDS,
    check_output_file,
    check_output_folder,
    nonneg,
    path_name,
)

#: a round of 5 colours lasts 44 turns and more by stalls; no bot's round goes past this
MAX_SNAP_TURN = 1000


def _no_check_or_two(text: str) -> int:
    value = nonneg("--matches", MAX_STUDY_UNITS)(text)
    if value == 1:  # one match has no spread: the check's standard errors would be nan
        raise argparse.ArgumentTypeError("--matches must be 0 (no check) or 2 or more, got 1")
    return value


def add_parser(sub: argparse._SubParsersAction, pos_help: str = "") -> None:
    p = sub.add_parser("studies", help="regenerate the data behind the notebooks and articles",
                       description=describe(__doc__))
    studies = p.add_subparsers(dest="study", required=True)

    d = studies.add_parser("data", help="regenerate the files in data/ that the notebooks read",
                           description="lcanalysis studies data: regenerate the files in data/ that the notebooks "
                                       "read (data/README.md lists each with its command); a stopped simulation "
                                       "keeps what it made in FILE.partial and the same command goes on from there.")
    d.add_argument("--root", default="data", type=path_name("--root", "a folder name"),
                   help="folder to write into (default: data)")
    d.add_argument("--only", nargs="+", action="extend", metavar="NAME",
                   help="only these files: positions, wager_grid, first_player_rounds, matches, colours, "
                        "wager_models, stalling (default: all of them; --only may be given more than once)")
    d.add_argument("--deals", type=nonneg("--deals", MAX_STUDY_UNITS, minimum=2), default=20000,
                   help="first-player study: deals (default 20000)")
    d.add_argument("--matches", type=nonneg("--matches", MAX_STUDY_UNITS, minimum=2), default=10000,
                   help="match study: matches (default 10000)")
    d.add_argument("--rounds", type=nonneg("--rounds", MAX_WAGER_SIM_ROUNDS, minimum=2), default=None,
                   help="rounds for colours or wager_models (default: 20000 for colours, 2000 for wager_models)")
    d.add_argument("--mc", type=nonneg("--mc", MAX_WAGER_SAMPLES, minimum=2), default=2000,
                   help="Monte Carlo samples per wager-model prediction (default 2000)")
    d.add_argument("--positions", type=nonneg("--positions", MAX_STUDY_UNITS, minimum=5), default=400,
                   help="stalling: endgames with 2 and 3 cards left (a fifth as many with 4; default 400)")
    d.add_argument("--seed", type=nonneg("--seed", MAX_SEED), default=0, help="random seed (default 0)")
    d.add_argument("--allow-code-change", action="store_true",
                   help="go on with the rows a stopped run kept (FILE.partial) though other code made them (after a "
                        "change that cannot move their numbers; the codes are recorded in FILE.earlier_code.json)")
    d.set_defaults(func=cmd_data)

    t = studies.add_parser("wager-tables", help="write the wager tables (CSV) into a folder",
                           description="lcanalysis studies wager-tables: write the wager tables (CSV: the canonical "
                                       "model's columns exact, the turn model's Monte Carlo estimates with their "
                                       "standard errors) into a folder; docs/wagers.md, \"Tables in data/\".")
    t.add_argument("--out", default="data", type=path_name("--out", "a folder name"),
                   help="folder to write into (default: data)")
    t.add_argument("names", nargs="*", help="only these tables (file names)")
    t.set_defaults(func=cmd_wager_tables)

    c = studies.add_parser("wager-claims", help="test the strategy literature's wager claims",
                           description="lcanalysis studies wager-claims: test the strategy literature's wager "
                                       "claims on simulated bot rounds and print the report; docs/wagers.md, "
                                       "\"Claims from the strategy literature\".")
    c.add_argument("--rounds", type=nonneg("--rounds", MAX_WAGER_SIM_ROUNDS, minimum=10), default=4000,
                   help=f"simulated rounds (10 to {MAX_WAGER_SIM_ROUNDS:,}; default 4000)")
    c.add_argument("--seed", type=nonneg("--seed", MAX_SEED), default=0, help="random seed (default 0)")
    _kept_as_it_goes(c, "every simulated round in FILE as it is played", "plays only the rounds missing",
                     "the report", "played its rounds")
    c.set_defaults(func=cmd_wager_claims)

    s = studies.add_parser("wager-sim", help="the wager models against simulated play",
                           description="lcanalysis studies wager-sim: each wager model's predictions against the "
                                       "scores of simulated play, as tables; docs/wagers.md, \"Checked against "
                                       "simulated play\".")
    s.add_argument("--rounds", type=nonneg("--rounds", MAX_WAGER_SIM_ROUNDS, minimum=2), default=2000,
                   help=f"simulated rounds (default 2000, at most {MAX_WAGER_SIM_ROUNDS:,})")
    s.add_argument("--snap-turn", type=nonneg("--snap-turn", MAX_SNAP_TURN), nargs="+", action="extend", default=None,
                   help=f"turns at which to predict (0 to {MAX_SNAP_TURN}; rounds that end before it give no row; "
                        "default 4 20)")
    s.add_argument("--seed", type=nonneg("--seed", MAX_SEED), default=0, help="random seed (default 0)")
    s.add_argument("--mc", type=nonneg("--mc", MAX_WAGER_SAMPLES, minimum=2), default=2000,
                   help="Monte Carlo samples per prediction (default 2000)")
    _kept_as_it_goes(s, "every row's predictions in FILE as they are made", "makes only the rows missing",
                     "the tables", "made its rows")
    s.set_defaults(func=cmd_wager_sim)

    m = studies.add_parser("match-table", help="simulate rounds and write the match equity table "
                                               "(lcanalysis/data/match_equity.json and data/match_equity.json)",
                           description="lcanalysis studies match-table: simulate rounds and write the match equity "
                                       "table, the chance to win a 3-round match by lead, rounds left and starter "
                                       "(lcanalysis/data/match_equity.json and data/match_equity.json).")
    m.add_argument("--deals", type=nonneg("--deals", MAX_STUDY_UNITS, minimum=2), default=100_000,
                   help="duplicate deals to simulate, each played twice with the hands swapped (default: 100000, "
                        "about 1.5 CPU-minutes)")
    m.add_argument("--matches", type=_no_check_or_two, default=20_000,
                   help="directly simulated 3-round matches to check the table against (default: 20000; 0: no "
                        "check; else 2 or more)")
    m.add_argument("--bootstrap", type=nonneg("--bootstrap", MAX_BOOTSTRAP, minimum=2), default=200,
                   help="bootstrap resamples of the deals for the table's standard errors (default: 200)")
    m.add_argument("--seed", type=nonneg("--seed", MAX_SEED), default=0, help="random seed (default: 0)")
    m.add_argument("--colors", type=int, default=5, choices=(5, 6), help="5 or 6 expeditions (default: 5)")
    m.add_argument("--out", nargs="+", action="extend", default=None, metavar="FILE", type=path_name("--out"),
                   help="files to write (default: the package's lcanalysis/data/match_equity.json and "
                        "data/match_equity.json with its .cmd sidecar); the deals and the check's matches are kept "
                        "as they are played in the last of them + .deals.partial and + .matches.partial, and the "
                        "same command again after a stop (Ctrl-C) plays only those missing")
    m.add_argument("--allow-code-change", action="store_true",
                   help="resume the kept deals and matches though other code played them (after a change that "
                        "cannot move their numbers; the change is recorded in the file)")
    m.set_defaults(func=cmd_match_table)


def cmd_data(args: argparse.Namespace) -> int:
    from lcanalysis.options import OptionError
    from lcanalysis.studies.data import DATA_COMMANDS, write_data

    unknown = sorted(set(args.only or ()) - set(DATA_COMMANDS))
    if unknown:
        raise OptionError(f"argument --only: unknown data file(s) {unknown}; known: {sorted(DATA_COMMANDS)}")
    check_output_folder("--root", args.root)  # (a file there was "[Errno 20] Not a directory", once work began)
    try:
        for path in write_data(args.root, args.only, args.deals, args.matches, args.seed, args.rounds, args.mc,
                               args.positions, args.allow_code_change):
            print(path)
    except KeyboardInterrupt:
        simulated = os.path.join(args.root, "simulated")
        kept = [os.path.join(simulated, name) for name in sorted(os.listdir(simulated)) if name.endswith(".partial")
                ] if os.path.isdir(simulated) else []
        if kept:
            print(f"stopped: the rows made so far are kept in {', '.join(kept)}; run the same command again to "
                  "resume", file=sys.stderr)
        else:
            print("stopped: the file being made is not written (the files listed above are)", file=sys.stderr)
        return 130
    return 0


def cmd_wager_tables(args: argparse.Namespace) -> int:
    from lcanalysis.options import OptionError
    from lcanalysis.studies.wager_tables import TABLES, write_tables

    unknown = [n for n in args.names if n not in TABLES]
    if unknown:
        raise OptionError(f"unknown table(s) {unknown}; known: {sorted(TABLES)}")
    check_output_folder("--out", args.out)
    write_tables(args.out, args.names or None, file=sys.stdout)
    return 0


def _stopped(out: str | None, what: str) -> int:
    """Ctrl-C of a study that keeps its ``what`` in ``out`` (or in memory, lost): say so, exit 130."""
    if out is not None and os.path.exists(out):
        print(f"stopped: the {what} made so far are kept in {out}; run the same command again to resume",
              file=sys.stderr)
    else:
        print(f"stopped: nothing is kept (--out FILE keeps the {what} as they are made)", file=sys.stderr)
    return 130


@contextlib.contextmanager
def _out_refused(out: str | None) -> Iterator[None]:
    """A study's ``--out FILE`` made with other settings or by other code (``StudyFile.open``): refused
    as a bad argument is, one line naming the command and the option."""
    from lcanalysis.options import OptionError
    from lcanalysis.studies.study_file import OtherCodeError, OtherSettingsError

    try:
        yield
    except (OtherSettingsError, OtherCodeError) as exc:
        if out is None or exc.path != out:  # (another file's: said as it is)
            raise
        raise OptionError(f"argument --out: {exc}") from None


def cmd_wager_claims(args: argparse.Namespace) -> int:
    from lcanalysis.studies.wager_claims import report

    if args.out is not None:
        check_output_file("--out", args.out)
    try:  # (40,000 rounds ran 10 s showing nothing: a bar)
        with _out_refused(args.out):
            report(args.rounds, args.seed, file=sys.stdout, progress=True, out=args.out,
                   allow_code_change=args.allow_code_change)
    except KeyboardInterrupt:
        return _stopped(args.out, "rounds")
    return 0


def _kept_as_it_goes(parser: argparse.ArgumentParser, kept: str, again: str, answer: str, made: str) -> None:
    """A study's ``--out FILE`` kept as it goes (``StudyFile.kept_table``) and its ``--allow-code-change``."""
    parser.add_argument("--out", type=path_name("--out"), metavar="FILE",
                        help=f"keep {kept}: the same command again after a stop (Ctrl-C) {again}, to {answer} an "
                             "unbroken run prints (a FILE made with other settings is refused, naming them)")
    parser.add_argument("--allow-code-change", action="store_true",
                        help=f"resume a --out file though other code {made} (after a change that cannot move their "
                             "numbers; the change is recorded in it)")


def cmd_wager_sim(args: argparse.Namespace) -> int:
    from lcanalysis.studies.wager_sim import wager_sim

    turns = args.snap_turn or [4, 20]  # (a default list would be extended by --snap-turn, not replaced)
    if args.out is not None:
        check_output_file("--out", args.out)
    try:
        with _out_refused(args.out):
            wager_sim(args.rounds, turns, args.seed, args.mc, file=sys.stdout, progress=True, out=args.out,
                      allow_code_change=args.allow_code_change)
    except KeyboardInterrupt:
        return _stopped(args.out, "predictions")
    return 0


def cmd_match_table(args: argparse.Namespace) -> int:
    from lcanalysis.game.records import MATCH_TABLE_WHAT
    from lcanalysis.match_equity import TABLE_PATH
    from lcanalysis.options import OptionError
    from lcanalysis.studies import match_table

    if args.colors != 5 and not args.out:
        raise OptionError("the shipped table is for 5 colours: give --out FILE for a 6-colour table")
    # how a table the study wrote begins (lowercased, as check_output_file compares; indented as
    # match_table.dumps writes it, or compact): the only file its --out writes over
    begins = tuple(f'{{{space}"what": "{MATCH_TABLE_WHAT.lower()}' for space in ("\n  ", ""))
    for path in args.out or ():  # before the simulation: a folder was refused by a raw errno after it
        check_output_file("--out", path, replaces=("a match equity table", begins))  # (over its own only)
    outs = args.out or [TABLE_PATH, "data/match_equity.json"]
    kept = f"{outs[-1]}.deals.partial"  # the deals as they are played (a million are 15 CPU-minutes): resumed
    kept_matches = f"{outs[-1]}.matches.partial"  # and the check's matches (20,000 are 2 CPU-minutes)
    os.makedirs(os.path.dirname(os.path.abspath(kept)), exist_ok=True)
    try:
        payload = match_table.build(args.deals, args.matches, args.seed, args.bootstrap, args.colors,
                                    progress=lambda text: print(text, file=sys.stderr), bars=True, kept=kept,
                                    allow_code_change=args.allow_code_change, kept_matches=kept_matches)
    except KeyboardInterrupt:
        held = [f"the {what} played so far are kept in {path}" for what, path in (("deals", kept),
                                                                                  ("matches", kept_matches))
                if os.path.exists(path)]
        if held:
            print(f"stopped: {'; '.join(held)}; run the same command again to resume", file=sys.stderr)
        return 130
    match_table.report(payload)
    for path in match_table.write(payload, outs):
        print(path)
    for path in (kept, kept_matches):  # (written: the table holds every deal, its check every match)
        if os.path.exists(path):
            os.remove(path)
    return 0
