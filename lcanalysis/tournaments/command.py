"""The options of ``lcanalysis tournament``, in one place: the command line parses them here,
and so does the reader of a legacy results file's ``.cmd`` (the command that wrote it), so both
read a command the same way, defaults included. Every option is checked as it is parsed: a bad
value is a ``UsageError`` saying what is allowed."""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING, Any

from lcanalysis.options import MAX_SEED, MAX_WORKERS, CommandParser, nonneg, number, path_name
from lcanalysis.tournaments.specs import AgentSpec, TournamentError, check_agent, check_labels, parse_agent

if TYPE_CHECKING:
    from lcanalysis.game.rules import Rules

#: bounds of the tournament's settings (the library's run_tournament checks the same)
MAX_DEALS = 1_000_000
MAX_ROUNDS = 100
MAX_TURN_CAP = 10_000


class UsageError(TournamentError):
    """A command-line option that cannot be read."""


class _Parser(CommandParser):
    def error(self, message: str) -> Any:  # raised, not printed: the reader of a legacy '.cmd' file parses with it too
        raise UsageError(message)


def _most_bot_timeout() -> float:
    """The longest ``--bot-timeout``: the seconds of ``ExternalAgent``'s ``timeout`` (read when parsing:
    the agents load on use)."""
    from lcanalysis.agents import MAX_TIME_MS

    return MAX_TIME_MS / 1000


def build_parser() -> argparse.ArgumentParser:
    ap = _Parser(prog="lcanalysis tournament",
                 description="Play agents against each other on duplicate deals. Results go to a JSON-lines "
                             "file that names its tournament (agents, rules, seed, code version) and that "
                             "running the same command again resumes.")
    ap.add_argument("agents", nargs="+", help="two or more agents: random, greedy, heuristic, stalling, search, best "
                                              "(the strongest measured) or match, with options after a colon, "
                                              "e.g. heuristic greedy search:time_ms=50, or an outside program "
                                              "speaking the bot protocol, 'external:python mybot.py', or an "
                                              "Agent class of your own, python:FILE:CLASS[,OPTION=VALUE...], "
                                              "'python:mine.py:Eager'; LABEL=AGENT names it in the tables and the "
                                              "results file, 'mine=python:mine.py:Eager'")
    ap.add_argument("--deals", type=nonneg("--deals", MAX_DEALS, minimum=1), default=100,
                    help="deals per pairing (default 100; each played twice with the seats swapped unless "
                         "--no-duplicate)")
    ap.add_argument("--first-deal", type=nonneg("--first-deal", 2**31 - 1), default=0,
                    help="number of the first deal (default 0; deals are numbered; a file may hold several ranges)")
    ap.add_argument("--colors", type=int, default=5, choices=(5, 6), help="5 or 6 expeditions (default 5)")
    ap.add_argument("--rounds", type=nonneg("--rounds", MAX_ROUNDS, minimum=1), default=1,
                    help="1 for single rounds (the default), 3 for matches")
    ap.add_argument("--turn-cap", type=nonneg("--turn-cap", MAX_TURN_CAP, minimum=1), default=200,
                    help="a round stops (scored as it stands, counted as capped) after this many turns (default 200)")
    ap.add_argument("--bot-timeout", type=number("--bot-timeout", "seconds", above=True, most=_most_bot_timeout),
                    default=None,
                    metavar="S", help="seconds an outside program (external:CMD) may take to answer a turn before "
                                      "it is stopped and its round fails (default: 120 plus ten times the turn's "
                                      "time_ms, the first answer's start-up included)")
    ap.add_argument("--no-duplicate", action="store_true", help="play each deal once, not twice with seats swapped")
    ap.add_argument("--seed", type=nonneg("--seed", MAX_SEED), default=0,
                    help="the seed every deal derives from (default 0)")
    ap.add_argument("--workers", type=nonneg("--workers", MAX_WORKERS, minimum=1), default=None,
                    help="worker processes (default: one per core; 1 plays in this process)")
    ap.add_argument("--out", default="auto", type=path_name("--out", "a file name, 'auto' or 'none'"),
                    help="JSON-lines results file to append to and resume from (default: a file named after "
                         "the agents and settings in $XDG_DATA_HOME/lcanalysis/tournaments, "
                         "~/.local/share/lcanalysis/tournaments if unset, made if missing; 'none' to keep "
                         "nothing; a FILE given goes in a folder that exists)")
    ap.add_argument("--wait", action="store_true",
                    help="if another run is writing the results file, wait for it instead of refusing")
    ap.add_argument("--allow-code-change", action="store_true",
                    help="go on with a results file played by another version of the agents' code "
                         "(the change is recorded in the file)")
    ap.add_argument("--luck-adjusted", action="store_true",
                    help="also rate the luck of every deck draw as it is played (value after the draw minus the "
                         "mean over the cards of the pile, by the hand evaluator) and report the luck-adjusted "
                         "mean score difference beside the raw one: the same mean, less noise, so fewer deals "
                         "answer a strength question. Part of the results file's tournament")
    ap.add_argument("--records", metavar="DIR", default=None, type=path_name("--records", "a folder name"),
                    help="write each played deal-seating to DIR (made if missing, in a folder that exists) as a "
                         "full-deal game record (a match record for matches), named after the pairing, deal and "
                         "seating, for 'lcanalysis review FILE'")
    ap.add_argument("--csv", default=None, type=path_name("--csv"),
                    help="also write every round played as CSV, one row a round (deal, seats, scores, turns, "
                         "time per move in ms to 0.01, what each seat did: expeditions opened, wager cards and "
                         "cards played to expeditions, cards discarded), the results file's rounds included; the "
                         "summary printed is not in it (redirect the text, or take --json's 'summary'), and it "
                         "writes over an earlier such table only: any other file there is refused")
    ap.add_argument("--no-progress", action="store_true", help="no progress bar")
    ap.add_argument("--json", action="store_true", help="print the summary as JSON")
    return ap


def settings(ns: argparse.Namespace, make: bool = True) -> tuple[list[AgentSpec], Rules, int, bool, bool]:
    """The tournament a parsed command names: ``(agents, rules, seed, duplicate, round_robin)``,
    every agent checked (``check_agent``, ``make`` as it takes it) and each under a label of its own
    (``check_labels``); an agent that cannot be made is a ``UsageError``, a bad argument as any other
    (checked here, not as parsed: an outside program's takes --bot-timeout)."""
    timeout = getattr(ns, "bot_timeout", None)
    try:
        parsed = [parse_agent(a) for a in ns.agents]
        if timeout is not None:  # the outside programs' limit a turn (a hung bot otherwise takes 120 s to fail)
            parsed = [{**p, "timeout": timeout} if isinstance(p, dict) and p.get("name") == "external" else p
                      for p in parsed]
        specs = [check_agent(p, make) for p in parsed]
        check_labels(specs)  # (the run would refuse them, but after the compile)
    except UsageError:
        raise
    except TournamentError as exc:
        raise UsageError(str(exc)) from None
    if len(specs) < 2:
        raise UsageError("a tournament needs at least two agents")
    from lcanalysis.game.rules import Rules  # the game (and its kernel) when a tournament runs: --help at once

    rules = Rules(colors=ns.colors, rounds=ns.rounds, turn_cap=ns.turn_cap)
    return specs, rules, ns.seed, not ns.no_duplicate, len(specs) > 2
