"""Tournaments: single rounds and matches, duplicate deals, round robins, on any executor.

    >>> from lcanalysis.tournaments.runner import run_tournament, summarize
    >>> df = run_tournament(["heuristic", "greedy"], deals=4, executor="serial", progress=False)
    >>> len(df)          # 4 deals, each played twice with the seats swapped
    8

Every round is a row of a pandas DataFrame (``RESULT_COLUMNS``): the deal's seed, both agents,
both scores, turns, capped or not; then the time per move (``TIMING_COLUMNS``) and what each seat
did (``PLAY_COLUMNS``: expeditions opened, wager cards and cards played to expeditions, cards
discarded; ``lcanalysis.tournaments.play_counts``). With ``out=PATH`` rows are appended to a JSON-lines file as
they arrive, and a run given the same file again resumes where it stopped (finished work is read
back, the rest is played) and returns the same table as an uninterrupted run: every deal, seat and
agent seed is derived from ``seed`` and the deal number, never from the order of completion.
The file names its tournament, is written by one run at a time, and every line is checked
before it counts (``lcanalysis.tournaments.results``); ``load_results`` reads one back.

The work runs on ``executor``: by default a ``ProcessPoolExecutor`` on every core; any
``concurrent.futures.Executor`` works, for example a dask cluster's ``client.get_executor()``;
``"serial"`` runs in this process.

With ``luck_adjusted=True`` the workers also rate the luck of every deck draw as it is played
(``lcanalysis.tournaments.luck``: the drawer's evaluator value after the draw minus its mean over
the cards of the pile, so zero on average by construction) and each row holds each seat's sum
(``luck0``, ``luck1``); ``summarize`` reports the luck-adjusted mean difference, the actual one
less the luck difference, beside the raw one. With ``records=DIR`` each played deal-seating is
also written as a game record (``record_name``) that ``lcanalysis review`` reads.
"""

from __future__ import annotations

import contextlib
import math
import os
import time
import warnings
from collections.abc import Callable, Sequence
from concurrent.futures import FIRST_COMPLETED, BrokenExecutor, Executor, Future, wait
from dataclasses import dataclass
from itertools import combinations
from typing import Any

import numpy as np
import pandas as pd

from lcanalysis.agents import Agent
from lcanalysis.core.pool import worker_pool
from lcanalysis.game.match import Match
from lcanalysis.game.position import Position
from lcanalysis.game.rules import Rules
from lcanalysis.options import check_flag, check_seed
from lcanalysis.progress import progress_bar, ticking
from lcanalysis.tournaments.command import MAX_DEALS, MAX_ROUNDS, MAX_TURN_CAP, MAX_WORKERS
from lcanalysis.tournaments.play_counts import PLAY_COLUMNS, PLAY_COUNTS, play_counts
from lcanalysis.tournaments.results import (
    LUCK_COLUMNS,
    RESULT_COLUMNS,
    TIMING_COLUMNS,
    ResultsFile,
    ResultsFileError,
    ResultsLockedError,
    ResultsMismatchError,
    ResultsWarning,
    Schema,
    _Invalid,
    default_results_dir,
    read_results,
    tournament_identity,
)
from lcanalysis.tournaments.specs import AgentSpec, TournamentError, check_agent, check_labels, deal_seed
from lcanalysis.tournaments.stats import (
    bradley_terry,
    bradley_terry_points,
    head_to_head,
    mean_interval,
    mean_stderr,
    points_table,
    samples_needed,
    variance_ratio,
)

__all__ = ["EDGE", "LUCK_COLUMNS", "PLAY_COLUMNS", "RESULT_COLUMNS", "TIMING_COLUMNS", "AgentSpec", "FailedTurn",
           "PlayError", "ResultsFileError", "ResultsLockedError", "ResultsMismatchError", "ResultsWarning",
           "TournamentError", "auto_path", "deal_seed", "load_results", "luck_adjusted_diffs", "play_match",
           "play_round", "play_summary", "ratings", "record_name", "round_robin", "run_tournament", "summarize",
           "time_per_move", "turn_seed"]


def turn_seed(seed: int, turn: int, player: int) -> int:
    """The seed an agent gets for the position's turn ``turn`` in seat ``player`` of a round seeded
    ``seed``: the same whatever else the agents did, so a deal is played alike wherever it is played
    (a tournament's duplicate seatings, a rollout's turns in one world)."""
    return (seed * 7919 + turn * 2 + player) % (2**31 - 1)


def play_round(agents: Sequence[Agent], seed: int, rules: Rules | None = None, starter: int = 0,
               match: dict[str, Any] | None = None, record: list[str] | None = None, luck: bool = False,
               draws: list[tuple[int, int, float]] | None = None, value: str = "turns") -> dict[str, Any]:
    """Deal with ``seed`` and play one round: ``agents[p]`` sits in seat p and sees only
    ``position.view(p)``. Returns scores, turns, capped, time per move and what each seat did
    (``PLAY_COLUMNS``, counted off the final position: ``play_counts``).

    ``record``: a list that receives every turn played (``str(move)``). ``luck``: also rate the
    luck of every deck draw (``lcanalysis.tournaments.luck``) and return each seat's sum as
    ``luck0`` and ``luck1``, from that seat's side. ``draws``: a list that receives
    ``(player, cards left in the pile before the draw, luck)`` for every deck draw. ``value``: the
    value function of the luck (``luck.VALUES``; tournaments use the default)."""
    rules = rules or Rules()
    pos = Position.deal(seed, rules, starter)
    if match is not None:
        pos.match = dict(match)
    think: list[list[float]] = [[], []]
    cpu: list[list[float]] = [[], []]
    rate = luck or draws is not None
    lucks = [0.0, 0.0]
    if rate:
        from lcanalysis.tournaments.luck import turn_luck
    while not pos.is_over():
        p = pos.to_move
        view = pos.view(p)
        t0 = time.perf_counter()
        c0 = time.process_time()
        try:
            move = agents[p].choose(view, turn_seed(seed, pos.turn, p))
        except Exception as exc:
            _at_turn(exc, p, pos.turn, match)
            raise
        cpu[p].append(time.process_time() - c0)
        think[p].append(time.perf_counter() - t0)
        before, left = (pos.state.copy(), pos.deck_count) if rate else (None, 0)
        try:
            pos.push(move)  # raises IllegalMoveError on an illegal turn (or something not a turn)
        except Exception as exc:
            _at_turn(exc, p, pos.turn, match)
            raise
        if before is not None:  # rated on the state before the turn, now known to be legal
            amount = turn_luck(before, move, p, value)
            if amount is not None:  # (a deck draw)
                lucks[p] += amount
                if draws is not None:
                    draws.append((p, left, amount))
        if record is not None:
            record.append(str(move))
    s0, s1 = pos.scores()
    row = {"seed": seed, "colors": rules.colors, "starter": starter, "score0": s0, "score1": s1,
           "turns": pos.turn, "capped": pos.is_capped(),
           "ms_per_move0": 1000 * float(np.mean(think[0])) if think[0] else 0.0,
           "ms_per_move1": 1000 * float(np.mean(think[1])) if think[1] else 0.0,
           "max_ms0": 1000 * float(np.max(think[0])) if think[0] else 0.0,
           "max_ms1": 1000 * float(np.max(think[1])) if think[1] else 0.0,
           "cpu_ms_per_move0": 1000 * float(np.mean(cpu[0])) if cpu[0] else 0.0,
           "cpu_ms_per_move1": 1000 * float(np.mean(cpu[1])) if cpu[1] else 0.0,
           "max_cpu_ms0": 1000 * float(np.max(cpu[0])) if cpu[0] else 0.0,
           "max_cpu_ms1": 1000 * float(np.max(cpu[1])) if cpu[1] else 0.0,
           **play_counts(pos, starter)}
    if luck:
        row.update(luck0=lucks[0], luck1=lucks[1])
    return row


@dataclass(frozen=True)
class FailedTurn:
    """Where a round stopped: the seat whose agent failed, the turns played before (the failing turn
    is the next), and the match's round (None outside a match). ``play_round`` sets it on the
    exception as ``failed_turn``, beside a note in its traceback."""

    seat: int
    turns_played: int
    round: int | None = None

    def words(self, name: str) -> str:
        at = f"round {self.round}, " if self.round is not None else ""
        return f"{at}turn {self.turns_played + 1} ({self.turns_played} played), {name} to move"


def _at_turn(exc: Exception, seat: int, turns: int, match: dict[str, Any] | None) -> None:
    """``exc`` marked with where it happened (``FailedTurn``): a failing agent's error named no turn."""
    if not isinstance(getattr(exc, "failed_turn", None), FailedTurn):  # (the innermost round's, once)
        where = FailedTurn(seat, turns, match.get("round") if match else None)
        exc.failed_turn = where  # type: ignore[attr-defined]
        exc.add_note(f"(in play_round: {where.words(f'seat {seat}')})")


def play_match(agents: Sequence[Agent], seed: int, deal: int, rules: Rules, luck: bool = False,
               turns: list[list[str]] | None = None) -> list[dict[str, Any]]:
    """A match of ``rules.rounds`` rounds (docs/spec/rules.md "A match"): seat 0 starts round 1; later
    rounds are started by the higher running total, ties by ``rules.tied_start``. ``luck`` and
    ``turns`` (a list that receives each round's list of turns) as in ``play_round``."""
    rows = []
    m = Match(rules=rules, first_starter=0)  # the starting rule lives there, once
    for r in range(1, rules.rounds + 1):
        starter = m.next_starter()
        record: list[str] | None = None
        if turns is not None:
            record = []
            turns.append(record)
        row = play_round(agents, deal_seed(seed, deal, r), rules, starter,
                         match={"round": r, "totals": list(m.totals)}, record=record, luck=luck)
        m.record((row["score0"], row["score1"]), starter)
        row["round"] = r
        rows.append(row)
    return rows


@dataclass(frozen=True)
class Job:
    pairing: int
    a: AgentSpec
    b: AgentSpec
    deal: int
    swap: int

    @property
    def key(self) -> str:
        return f"{self.pairing}:{self.deal}:{self.swap}"


def _warm_up(agent: Agent, rules: Rules) -> None:
    """One untimed turn, so that compiling (numba loads or builds its code) is not counted as thinking;
    for an outside program, its start (a Python bot's imports: a second), which was its first turn's
    time (a bot answering in 1 ms was said to take 50 ms a move, at most 1,100 ms)."""
    pos = Position.deal(0, rules)
    if getattr(agent, "name", "") in ("external", "python"):  # a bot author's code: its failure here is named
        from lcanalysis.agents.protocol import BotError
        from lcanalysis.tournaments.python_seat import PythonAgentError

        try:
            agent.choose(pos.view(pos.to_move), 0)
        except (BotError, PythonAgentError) as exc:  # (not a turn of the round: say which)
            raise type(exc)(f"{exc} (on the untimed turn that starts it, a view of deal 0 given before the "
                            "round's first turn)") from None
        return
    agent.choose(pos.view(pos.to_move), 0)
    if getattr(agent, "endgame", 0):  # the endgame solver compiles on its first call
        while pos.deck_count > agent.endgame:  # type: ignore[attr-defined]
            pos.push(pos.legal_moves()[0] if pos.deck_count > 10 else _first_deck_move(pos))
        agent.choose(pos.view(pos.to_move), 0)


def _first_deck_move(pos: Position) -> Any:
    return next(m for m in pos.legal_moves() if m.draws_from_deck)


@dataclass(frozen=True)
class PlayOptions:
    """What a worker does besides playing: rate the luck of every deck draw, keep each round's record."""

    luck: bool = False
    records: bool = False


def record_name(pairing: int, deal: int, swap: int, player0: str, player1: str) -> str:
    """The file a tournament's ``records`` folder holds a deal-seating's record in: named after
    the pairing, the deal and the seating, with the seat-0 and seat-1 agents' labels."""
    import re

    def safe(label: str) -> str:
        return re.sub(r"[^A-Za-z0-9=.,-]+", "-", label).strip("-") or "agent"

    return f"pairing{pairing}_deal{deal}_seating{swap}_{safe(player0)}_vs_{safe(player1)}.json"


def _job_record(job: Job, rows: list[dict[str, Any]], turns: list[list[str]], rules: Rules, seed: int) -> str:
    """The deal-seating as a full-deal game record (``lcanalysis.game.records``): a round record,
    or a match record for a match; replayed (so checked) as it is built."""
    from lcanalysis.game.records import record_match, record_round, write_record

    players = [rows[0]["player0"], rows[0]["player1"]]
    rounds = []
    totals = [0, 0]
    for row, played in zip(rows, turns):
        start = Position.deal(row["seed"], rules, row["starter"])
        if rules.rounds > 1:
            start.match = {"round": row["round"], "totals": list(totals)}
        comment = (f"tournament seed {seed}, pairing {job.pairing}, deal {job.deal}, seating {job.swap}"
                   + (f", round {row['round']} of {rules.rounds}" if rules.rounds > 1 else "")
                   + f": {players[0]} (seat 0) {row['score0']}, {players[1]} (seat 1) {row['score1']}"
                   + (" (capped)" if row["capped"] else ""))
        rounds.append(record_round(start, played, players=players, comment=comment))
        totals = [totals[0] + row["score0"], totals[1] + row["score1"]]
    rec = rounds[0] if rules.rounds == 1 else record_match(rounds, rules, players=players,
                                                           comment=f"tournament seed {seed}, pairing {job.pairing}, "
                                                                   f"deal {job.deal}, seating {job.swap}")
    return write_record(rec)


def _run_job(job: Job, seed: int, rules: Rules, cache: dict[AgentSpec, Agent],
             options: PlayOptions | None = None) -> tuple[list[dict[str, Any]], str | None]:
    options = options or PlayOptions()
    for spec in (job.a, job.b):
        if spec not in cache:
            cache[spec] = spec.make()
            _warm_up(cache[spec], rules)
    first, second = (job.a, job.b) if job.swap == 0 else (job.b, job.a)
    agents = [cache[first], cache[second]]
    turns: list[list[str]] | None = [] if options.records else None
    if rules.rounds == 1:
        record: list[str] | None = None
        if turns is not None:
            record = []
            turns.append(record)
        rows = [play_round(agents, deal_seed(seed, job.deal, 1), rules, 0, record=record, luck=options.luck)]
        rows[0]["round"] = 1
    else:
        rows = play_match(agents, seed, job.deal, rules, luck=options.luck, turns=turns)
    for row in rows:
        row.update(pairing=job.pairing, deal=job.deal, swap=job.swap, player0=first.label, player1=second.label)
    text = _job_record(job, rows, turns, rules, seed) if turns is not None else None
    return rows, text


class PlayError(TournamentError):
    """A round could not be played: an agent failed (an external program that died, an illegal turn...)."""


Finished = tuple[str, list[dict[str, Any]], str | None]  # job key, its rows, its record (or None)


def _run_batch(jobs: list[Job], seed: int, rules: Rules, options: PlayOptions | None = None,
               cache: dict[AgentSpec, Agent] | None = None) -> tuple[list[Finished], str | None]:
    """The finished jobs, and what stopped the batch (None if nothing did): the jobs finished
    before a failure are kept. ``cache``: the agents made so far, kept open for the caller to close
    (``_close``); without it the batch makes its own and closes them."""
    own = cache is None
    cache = {} if cache is None else cache
    out: list[Finished] = []
    try:
        for job in jobs:
            try:
                rows, record = _run_job(job, seed, rules, cache, options)
                out.append((job.key, rows, record))
            except (OSError, ValueError, RuntimeError) as exc:  # an agent failed; a bug still raises
                where = getattr(exc, "failed_turn", None)
                at = ""
                seated = (job.a, job.b) if job.swap == 0 else (job.b, job.a)
                if isinstance(where, FailedTurn):  # which agent failed, at which turn: the seat's label
                    at = ", " + where.words(seated[where.seat].label)
                # the seating as seated, player 0 first, as its rows and record name it
                return out, (f"deal {job.deal}, seating {job.swap} ({seated[0].label} vs {seated[1].label}){at}: "
                             f"{type(exc).__name__}: {exc}")
        return out, None
    finally:
        if own:
            _close(cache)


def _close(cache: dict[AgentSpec, Agent]) -> None:
    """Stop the agents that hold a process (an outside program's)."""
    for agent in cache.values():
        close = getattr(agent, "close", None)
        if close:
            close()


def _timed_batch(jobs: list[Job], seed: int, rules: Rules,
                 options: PlayOptions | None = None) -> tuple[tuple[list[Finished], str | None], float]:
    """``_run_batch`` and the seconds it took on its worker."""
    start = time.perf_counter()
    done = _run_batch(jobs, seed, rules, options)
    return done, time.perf_counter() - start


#: a batch of jobs sent to a worker at once is sized to take about this long: long enough that
#: fast agents are not slowed by the hand-over, short enough that the results file and the
#: progress bar move every few seconds and a stopped run loses little
BATCH_SECONDS = 2.0
MAX_BATCH = 16


class BatchSizes:
    """How many jobs to send to a worker at once: ``fixed`` if given, else one job until one of the
    same pairing (``key``) has been timed, then as many as take about ``BATCH_SECONDS`` at the
    mean time that pairing's jobs have taken so far (1 to ``MAX_BATCH``). Timed by pairing, since
    a round robin's pairings differ in pace by hundreds of times. Before, every batch was 16 jobs:
    with agents at 1 s a move that was 7 minutes before the first result was written or shown."""

    def __init__(self, fixed: int | None = None) -> None:
        self.fixed = fixed
        self.jobs: dict[int, int] = {}
        self.seconds: dict[int, float] = {}

    def measured(self, jobs: int, seconds: float, key: int = 0) -> None:
        self.jobs[key] = self.jobs.get(key, 0) + jobs
        self.seconds[key] = self.seconds.get(key, 0.0) + max(0.0, seconds)

    def next(self, key: int = 0) -> int:
        if self.fixed:
            return self.fixed
        if not self.jobs.get(key):
            return 1
        per_job = self.seconds[key] / self.jobs[key]
        return max(1, min(MAX_BATCH, int(BATCH_SECONDS / per_job) if per_job > 0 else MAX_BATCH))


#: batches in flight at once on an executor given by the caller (a cluster may have far more
#: workers than this machine has cores), unless ``workers`` says how many it has
MAX_IN_FLIGHT = 256


def _frame(rows: list[dict[str, Any]]) -> pd.DataFrame:
    columns = RESULT_COLUMNS + TIMING_COLUMNS
    if any(PLAY_COLUMNS[0] in r for r in rows):  # (none in a file written before they were kept)
        columns = columns + PLAY_COLUMNS
    if any(LUCK_COLUMNS[0] in r for r in rows):
        columns = columns + LUCK_COLUMNS
    df = pd.DataFrame(rows, columns=columns)
    if len(df):
        df = df.sort_values(["pairing", "deal", "swap", "round"], kind="stable").reset_index(drop=True)
        df["capped"] = df["capped"].astype(bool)
    return df


def _whole(name: str, value: Any, low: int, high: int) -> int:
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)):
        raise TournamentError(f"{name} must be a whole number, got {value!r}")
    if not low <= int(value) <= high:
        raise TournamentError(f"{name} must be {low}..{high}, got {value}")
    return int(value)


def _check_rules(rules: Any) -> Rules:
    if rules is None:
        return Rules(rounds=1)
    if not isinstance(rules, Rules):
        raise TournamentError(f"rules must be a Rules, got {type(rules).__name__}")
    _whole("rules.rounds", rules.rounds, 1, MAX_ROUNDS)
    _whole("rules.turn_cap", rules.turn_cap, 1, MAX_TURN_CAP)
    return rules


def _path_text(value: Any, what: str) -> str:
    """A file or folder name given as text or a path; ``what`` says what was expected."""
    path = os.fspath(value) if isinstance(value, (str, os.PathLike)) else None
    if not isinstance(path, str) or not path.strip():
        raise TournamentError(f"{what}, got {value!r}")
    return path


def _check_out(out: Any) -> str | None:
    if out is None or out == "auto":
        return out
    path = _path_text(out, "out must be a file name, 'auto' or None")
    if os.path.isdir(path):
        raise ResultsFileError(f"{path} is a directory; give a file name, e.g. {os.path.join(path, 'results.jsonl')}")
    return path


def _check_records(records: Any) -> str | None:
    """The records folder, created if need be; None for no records."""
    if records is None:
        return None
    path = _path_text(records, "records must be a folder name or None")
    if os.path.exists(path) and not os.path.isdir(path):
        raise TournamentError(f"records: {path} is not a folder; give a folder to write the rounds' records to")
    try:
        os.makedirs(path, exist_ok=True)
    except OSError as exc:
        raise TournamentError(f"cannot make the records folder {path}: {exc.strerror or exc}") from None
    if not os.access(path, os.W_OK | os.X_OK):
        raise TournamentError(f"cannot write to the records folder {path}")
    return path


def _check_records_of(folder: str, todo: list[Job], seed: int, rules: Rules) -> None:
    """Refuse, before anything is played, a records folder where a deal-seating of ``todo`` would
    write over a record of another tournament: the names say pairing, deal, seating and agents,
    not the seed or the rules, so another seed or rules once replaced a folder's records unsaid; and
    two agents' labels can share a name (``external:python my_bot.py`` and ``external:python
    my-bot.py`` are both ``external-python-my-bot.py``), so the players are compared too."""
    from lcanalysis.game.records import MatchRecord, read_record

    for job in todo:
        first, second = (job.a, job.b) if job.swap == 0 else (job.b, job.a)
        path = os.path.join(folder, record_name(job.pairing, job.deal, job.swap, first.label, second.label))
        if not os.path.lexists(path):
            continue
        try:
            rec = read_record(path)
            start = rec.rounds[0].start if isinstance(rec, MatchRecord) else rec.start
            dealt = {k: v for k, v in start.to_json().items() if k != "match"}  # (a match's round 1 says so)
            ours = (rec.rules == rules and rec.players == [first.label, second.label]
                    and dealt == Position.deal(deal_seed(seed, job.deal, 1), rules, 0).to_json())
        except ValueError:  # not a record at all (RecordError is a ValueError)
            ours = False
        if not ours:
            raise TournamentError(f"records: {path} is not a record of this tournament (another seed, rules or "
                                  "players, or not a record), and this run would write over it; give another folder "
                                  "(--records OTHER, records= in Python) or move that file away")


def _write_text(folder: str, name: str, text: str) -> None:
    """Write a file whole or not at all (a temporary file renamed into place)."""
    path = os.path.join(folder, name)
    tmp = f"{path}.{os.getpid()}.tmp"
    try:
        with open(tmp, "w", encoding="utf-8") as fh:
            fh.write(text)
        os.replace(tmp, path)
    except OSError as exc:
        with contextlib.suppress(OSError):
            os.remove(tmp)
        raise TournamentError(f"cannot write the record {path}: {exc.strerror or exc}") from None


def run_tournament(agents: Sequence[Any], deals: int = 100, *, rules: Rules | None = None,
                   duplicate: bool = True, round_robin: bool = False, seed: int = 0,
                   executor: str | Executor | None = None, workers: int | None = None,
                   out: str | os.PathLike[str] | None = None, progress: bool = True, batch: int | None = None,
                   first_deal: int = 0, wait: bool = False, allow_code_change: bool = False,
                   log: Callable[[str], None] | None = None, luck_adjusted: bool = False,
                   records: str | os.PathLike[str] | None = None) -> pd.DataFrame:
    """Play ``deals`` deals for each pairing and return one row per round (``RESULT_COLUMNS``).

    ``agents``: two agents (names like ``"greedy"``, dicts like ``{"name": "search", "time_ms": 50}``,
    ``AgentSpec``, or agents ``make_agent`` made, each played by its name and options; an ``Agent``
    class of your own by its file, ``{"name": "python", "file": "mine.py", "class": "Eager"}``,
    ``tournaments.python_seat``), or more
    with ``round_robin=True`` (every pair). ``duplicate``: each deal is played twice with the seats
    swapped. ``rules.rounds`` > 1 plays matches (a row per round).
    ``out``: a JSON-lines results file to append to and resume from (a header naming the
    tournament, then one line per finished deal and seating; ``lcanalysis.tournaments.results``);
    ``"auto"`` names one after the agents and settings in ``default_results_dir()``. A file of
    another tournament is refused (``ResultsMismatchError``), and so is new work by changed agent
    code unless ``allow_code_change``; a file another run is writing is refused
    (``ResultsLockedError``) unless ``wait``. Lines that do not count are reported as
    ``ResultsWarning`` and their jobs played again. ``log`` receives notes (where the results go,
    how much was done, waiting for another run).
    ``executor``: ``None`` for a process pool of ``workers`` (default: all cores; its workers exit
    if this process dies), ``"serial"``, or any ``concurrent.futures`` executor (a dask
    ``client.get_executor()`` works unchanged). Jobs go to the workers in batches sized to take
    about ``BATCH_SECONDS`` each (``BatchSizes``; ``batch=N``: always N), so results are written
    and shown every few seconds whatever the agents' pace.
    ``luck_adjusted``: also rate the luck of every deck draw as it is played
    (``lcanalysis.tournaments.luck``; about a millisecond a round) and keep each seat's sum in the
    rows (``luck0``, ``luck1``); ``summarize`` then reports the luck-adjusted mean difference
    beside the raw one. It is part of the tournament's identity (a results file holds rounds
    with luck or rounds without).
    ``records``: a folder to write each played deal-seating to as a full-deal game record
    (``lcanalysis.game.records``; a match record for matches), named by ``record_name`` after
    the pairing, deal and seating, so any round can be reviewed (``lcanalysis review FILE``).
    Rounds a resumed run finds already played are not played again, so get no record. A record
    of another tournament (another seed or rules) where this run would write one is refused.

    Every argument is checked before anything is played; a bad one raises ``TournamentError``
    (a ``ValueError``).
    """
    rules = _check_rules(rules)
    deals = _whole("deals", deals, 1, MAX_DEALS)
    first_deal = _whole("first_deal", first_deal, 0, 2**31 - 1)
    seed = check_seed("seed", seed, TournamentError)
    if workers is not None:
        workers = _whole("workers", workers, 1, MAX_WORKERS)
    if batch is not None:
        batch = _whole("batch", batch, 1, 1_000_000)
    duplicate, round_robin, wait, allow_code_change, luck_adjusted = (
        check_flag(name, flag, TournamentError) for name, flag in (
            ("duplicate", duplicate), ("round_robin", round_robin), ("wait", wait),
            ("allow_code_change", allow_code_change), ("luck_adjusted", luck_adjusted)))
    if not isinstance(progress, (bool, np.bool_)):
        raise TournamentError(f"progress must be True or False, got {progress!r}")
    if log is not None and not callable(log):
        raise TournamentError(f"log must be a function that takes a line of text, or None, got {log!r}")
    _check_executor(executor)
    specs = _checked_agents(agents, round_robin)
    out = _check_out(out)
    records = _check_records(records)
    options = PlayOptions(luck=bool(luck_adjusted), records=records is not None)
    pairs = list(combinations(range(len(specs)), 2)) if round_robin else [(0, 1)]
    jobs = [Job(k, specs[i], specs[j], d, s)
            for k, (i, j) in enumerate(pairs)
            for d in range(first_deal, first_deal + deals)
            for s in ((0, 1) if duplicate else (0,))]
    if out == "auto":
        out = auto_path(specs, rules, seed, first_deal, deals, duplicate, round_robin,
                        luck_adjusted=bool(luck_adjusted))
    identity = tournament_identity(specs, rules, seed, duplicate, round_robin, luck_adjusted=bool(luck_adjusted))
    schema = Schema(identity)
    results = ResultsFile(out, identity, wait=wait, log=log).open() if out else None
    try:
        done = results.done if results is not None else {}
        if results is not None:
            for problem in results.problems:
                warnings.warn(problem, ResultsWarning, stacklevel=2)
        rows = [r for job in jobs if job.key in done for r in done[job.key]]
        todo = [job for job in jobs if job.key not in done]
        if results is not None:
            results.check_code(allow_code_change, will_write=bool(todo))
            if log:
                log(f"results: {out}: {len(jobs) - len(todo)} of {len(jobs)} deal-seatings already played, "
                    f"{len(todo)} to play" + ("" if todo else results.older_code()))
        if records is not None:
            _check_records_of(records, todo, seed, rules)
        if records is not None and log:
            log(f"records: {records}: one file per deal-seating played"
                + (f" ({len(jobs) - len(todo)} already played get none)" if len(todo) < len(jobs) else ""))
        try:
            _play(todo, jobs, rows, seed, rules, schema, results, executor, workers, batch, progress, options,
                  records)
        except KeyboardInterrupt:  # Ctrl-C: say what is kept and how to go on, then stop as asked
            if results is not None and log:
                log(f"stopped: the deal-seatings finished so far are kept in {out} ({len(rows)} round(s)); run the "
                    "same command again to resume")
            raise
    finally:
        if results is not None:
            results.close()
    return _frame(rows)


def _check_executor(executor: Any) -> None:
    """A ``TournamentError`` unless ``executor`` is None, "serial" or a ``concurrent.futures.Executor``."""
    if isinstance(executor, str) and executor != "serial":
        raise TournamentError(f"executor must be None, 'serial' or a concurrent.futures.Executor, got {executor!r}")
    if executor is not None and not isinstance(executor, (str, Executor)):
        raise TournamentError(f"executor must be None, 'serial' or a concurrent.futures.Executor, got {executor!r}")


def _checked_agents(agents: Any, round_robin: bool) -> list[AgentSpec]:
    """``run_tournament``'s agents as specs: a list of two or more (more only in a round robin), each
    under a label of its own."""
    if isinstance(agents, (str, bytes, dict, AgentSpec)) or not isinstance(agents, Sequence):
        raise TournamentError(f"agents must be a list of agents, got {agents!r}")
    specs = [check_agent(a) for a in agents]
    check_labels(specs)
    if len(specs) < 2:
        raise TournamentError("a tournament needs at least two agents")
    if len(specs) > 2 and not round_robin:
        raise TournamentError("more than two agents: pass round_robin=True")
    return specs


#: seconds between redraws of the progress bar while no job finishes (its elapsed time moves on; a
#: bar redraws only when a job finishes, so a slow first round, a hung bot is given 120 s, showed a
#: frozen 0/N and no time): ``records.ticking``
TICK_SECONDS = 1.0


def _play(todo: list[Job], jobs: list[Job], rows: list[dict[str, Any]], seed: int, rules: Rules, schema: Schema,
          results: ResultsFile | None, executor: str | Executor | None, workers: int | None, batch: int | None,
          progress: bool, options: PlayOptions | None = None, records: str | None = None) -> None:
    options = options or PlayOptions()
    bar = None
    if progress:
        bar = progress_bar(total=len(jobs), initial=len(jobs) - len(todo),
                           desc="rounds" if rules.rounds == 1 else "matches", unit="deal-seat")
    wanted = {job.key for job in todo}

    kept = f"; the results finished so far are kept in {results.path}: run again to resume" if results else ""

    def collect(finished: tuple[list[Finished], str | None]) -> None:
        batch_results, failure = finished
        for key, job_rows, record in batch_results:
            if key not in wanted:
                raise TournamentError(f"job {key} came back twice or was never asked for")  # an executor's bug
            wanted.discard(key)
            try:
                schema.record({"job": key, "rows": job_rows})
            except _Invalid as exc:  # a bug in playing, never written
                raise TournamentError(f"a played job does not fit the results schema: {exc}") from None
            rows.extend(job_rows)
            if records is not None and record is not None:  # the record first: a counted job has its record
                first = job_rows[0]
                _write_text(records, record_name(first["pairing"], first["deal"], first["swap"], first["player0"],
                                                 first["player1"]), record)
            if results is not None:
                results.append(key, job_rows)
            if bar is not None:
                bar.update(1)
        if failure is not None:
            raise PlayError(f"a round could not be played: {failure}{kept}")

    stop_ticking = ticking(bar, TICK_SECONDS)
    try:
        if executor == "serial" or (executor is None and (workers == 1 or len(todo) <= 1)):
            # one job at a time, so each is written as it ends, with the agents kept between them: an
            # outside program was started again for every deal-seating (a second each, a Python bot's)
            agents: dict[AgentSpec, Agent] = {}
            try:
                for job in todo:
                    collect(_run_batch([job], seed, rules, options, cache=agents))
            finally:
                _close(agents)
        elif todo:
            own = executor is None
            n_workers = min(workers or os.cpu_count() or 1, len(todo))  # each worker is a fork: no idle ones
            fds = (results.fileno(),) if results is not None else ()
            ex: Executor = worker_pool(n_workers, close_fds=fds) if executor is None else executor  # type: ignore[assignment]
            pending = list(reversed(todo))  # popped from the end: the jobs in order
            in_flight: dict[Future[Any], tuple[int, int]] = {}  # a batch's future -> (its pairing, its jobs)
            sizes = BatchSizes(batch)
            # a short queue, two batches a worker, so that the sizes adapt
            queue = 2 * n_workers if own or workers else MAX_IN_FLIGHT
            died = f"a worker process died (killed, or out of memory?){kept}"
            try:
                while pending or in_flight:
                    while pending and len(in_flight) < queue:
                        pairing, size = pending[-1].pairing, sizes.next(pending[-1].pairing)
                        chunk: list[Job] = []
                        while pending and len(chunk) < size and pending[-1].pairing == pairing:
                            chunk.append(pending.pop())
                        try:
                            in_flight[ex.submit(_timed_batch, chunk, seed, rules, options)] = (pairing, len(chunk))
                        except BrokenExecutor:
                            raise PlayError(died) from None
                    done, _ = wait(in_flight, return_when=FIRST_COMPLETED)
                    errors: list[PlayError] = []
                    for fut in done:  # every finished batch is kept before a failure is raised
                        pairing, n = in_flight.pop(fut)
                        try:
                            batch_done, seconds = fut.result()
                        except BrokenExecutor:
                            errors.append(PlayError(died))
                            continue
                        sizes.measured(n, seconds, pairing)
                        try:
                            collect(batch_done)
                        except PlayError as exc:
                            errors.append(exc)
                    if errors:
                        raise errors[0]
            finally:
                if own:
                    ex.shutdown(cancel_futures=True)  # (waits for the batches running)
                for fut in in_flight:  # stopped by a failure or Ctrl-C: what finished meanwhile is kept
                    if fut.done() and not fut.cancelled() and fut.exception() is None:
                        with contextlib.suppress(PlayError):
                            collect(fut.result()[0])
    finally:
        stop_ticking()
        if bar is not None:
            bar.close()


def load_results(path: str | os.PathLike[str]) -> pd.DataFrame:
    """The rows of a results file, every line checked against the tournament its header (or, for
    a legacy file, its ``.cmd``) names; lines that do not count are reported as ``ResultsWarning``.
    The tournament itself is in ``df.attrs["identity"]``. Reads as the file is, without a lock."""
    if not isinstance(path, (str, os.PathLike)):
        raise ResultsFileError(f"load_results takes the path of a results file, got {type(path).__name__}")
    if not os.path.isfile(path):
        raise ResultsFileError(f"{os.fspath(path)}: no such results file"
                               + (" (a folder)" if os.path.isdir(path) else ""))
    identity, done, problems = read_results(os.fspath(path))
    for problem in problems:
        warnings.warn(problem, ResultsWarning, stacklevel=2)
    df = _frame([r for job_rows in done.values() for r in job_rows])
    df.attrs["identity"] = identity
    return df


def auto_path(specs: Sequence[AgentSpec], rules: Rules, seed: int, first_deal: int, deals: int,
              duplicate: bool, robin: bool, folder: str | None = None, luck_adjusted: bool = False) -> str:
    """The results file ``out="auto"`` uses: named after the agents and settings, in ``folder``
    (default: ``default_results_dir()``, a user data folder), so that running the same command
    again resumes it."""
    import re

    names = "_".join(re.sub(r"[^A-Za-z0-9=.,-]+", "-", s.label) for s in specs)
    tag = f"{rules.colors}c_{rules.rounds}r_cap{rules.turn_cap}_seed{seed}_deals{first_deal}-{first_deal + deals - 1}"
    tag += ("" if duplicate else "_single") + ("_rr" if robin else "") + ("_luck" if luck_adjusted else "")
    return os.path.join(default_results_dir() if folder is None else folder, f"tournament_{names}_{tag}.jsonl")


def round_robin(agents: Sequence[Any], deals: int = 100, **kwargs: Any) -> pd.DataFrame:
    """Every pair of ``agents`` plays ``deals`` duplicate deals; see ``run_tournament``."""
    return run_tournament(agents, deals, round_robin=True, **kwargs)


def _diffs(df: pd.DataFrame, a: str, b: str) -> tuple[Any, list[Any], pd.DataFrame]:
    sub = df[((df.player0 == a) & (df.player1 == b)) | ((df.player0 == b) & (df.player1 == a))]
    sign = np.where(sub.player0 == a, 1, -1)
    diffs = sign * (sub.score0 - sub.score1).to_numpy()
    units = list(zip(sub.pairing, sub.deal))
    return diffs, units, sub


def _has_counts(df: pd.DataFrame) -> bool:
    return all(c in df.columns for c in PLAY_COLUMNS) and len(df) > 0 and bool(df[PLAY_COLUMNS].notna().all().all())


def play_summary(df: pd.DataFrame, a: str, b: str) -> dict[str, float]:
    """For each count of ``PLAY_COUNTS`` in the rounds of ``a`` against ``b``: ``a``'s mean a round
    (``opened``; the mean of the deals' means, as ``mean_diff`` is), ``b``'s (``opponent_opened``),
    and the standard errors over deals of each and of their difference (``opened_stderr``,
    ``opponent_opened_stderr``, ``opened_diff_stderr``). The deals are taken as the score
    difference's are: a deal's seatings (and a match's rounds) are averaged into one sample, the
    deals are the independent samples, and the error is their standard deviation over the square
    root of their number. The difference is paired by deal (both agents played the same cards), so
    its error is that of the per-deal differences, not the two errors combined."""
    sub = df[((df.player0 == a) & (df.player1 == b)) | ((df.player0 == b) & (df.player1 == a))]
    first = (sub.player0 == a).to_numpy()
    units = list(zip(sub.pairing, sub.deal))
    out: dict[str, float] = {}
    for name in PLAY_COUNTS:
        seat0, seat1 = sub[f"{name}0"].to_numpy(dtype=float), sub[f"{name}1"].to_numpy(dtype=float)
        mine, theirs = np.where(first, seat0, seat1), np.where(first, seat1, seat0)
        per_deal, their_deal = _unit_means(mine, units), _unit_means(theirs, units)
        out.update({name: float(per_deal.mean()), f"{name}_stderr": mean_stderr(per_deal),
                    f"opponent_{name}": float(their_deal.mean()), f"opponent_{name}_stderr": mean_stderr(their_deal),
                    f"{name}_diff_stderr": mean_stderr(per_deal - their_deal)})
    return out


def _has_luck(df: pd.DataFrame) -> bool:
    return all(c in df.columns for c in LUCK_COLUMNS) and len(df) > 0 and bool(df[LUCK_COLUMNS].notna().all().all())


def luck_adjusted_diffs(df: pd.DataFrame, a: str, b: str) -> Any:
    """Per round of ``a`` against ``b`` (in ``_diffs`` order), the luck-adjusted score difference
    from ``a``'s side: ``(own score - opponent's) - (own luck - opponent's luck)``."""
    sub = df[((df.player0 == a) & (df.player1 == b)) | ((df.player0 == b) & (df.player1 == a))]
    sign = np.where(sub.player0 == a, 1, -1)
    return sign * ((sub.score0 - sub.score1) - (sub.luck0 - sub.luck1)).to_numpy(dtype=float)


def _unit_means(values: Any, units: list[Any]) -> Any:
    sums: dict[Any, list[float]] = {}
    for k, v in zip(units, values):
        sums.setdefault(k, []).append(float(v))
    return np.array([np.mean(v) for v in sums.values()])


#: the edge a strength question asks about in ``summarize``'s deals-needed columns, in points a round
EDGE = 2.5


def summarize(df: pd.DataFrame, conf: float = 0.95) -> pd.DataFrame:
    """One row per pairing, from the first-named agent's side: rounds, wins/draws/losses, win rate
    (draws count half) with its Wilson interval over rounds (``win_low``, ``win_high``: as if the
    rounds were independent, which the two seatings of a duplicate deal are not) and its t interval
    over deals (``win_unit_low``, ``win_unit_high``: ``stats.unit_rate_interval``), mean score
    difference with a t interval over deals (the two seatings of a duplicate deal and the rounds of
    a match are one sample) and its standard error over deals (``diff_stderr``; not ``diff_sd``, the
    standard deviation per round, over the square root of anything), mean turns, and the capped rounds,
    counted separately. A tournament of matches adds the matches won, drawn and lost (``match_wins``,
    ``match_draws``, ``match_losses``) and the match-winning rate with both intervals (``match_win_low``/
    ``_high`` over matches, ``match_win_unit_low``/``_high`` over deals).
    Capped rounds are scored as they stand and included; ``summarize(df[~df.capped])`` leaves them out.

    With the luck of the draws in ``df`` (a luck-adjusted tournament, ``LUCK_COLUMNS``), also:
    the luck-adjusted mean difference with its t interval and standard error over deals (``adj_mean``,
    ``adj_low``, ``adj_high``, ``adj_stderr``) and its standard deviation per round (``adj_sd``); the
    variance ratio raw / adjusted over deals with a bootstrap interval (``var_ratio``, ``var_ratio_low``,
    ``var_ratio_high``); and the deals a test needs to detect an ``EDGE``-point edge (5% level,
    80% power) with each measure (``deals_needed``, ``adj_deals_needed``).

    With what each seat did in every round (``PLAY_COLUMNS``, kept in every round played since
    they existed), also each agent's mean count a round with its standard error over deals, and the
    error of their difference paired by deal (``play_summary``); ``play_counted`` says whether the
    pairing has them (False when some of its rounds were played before they were kept).
    """
    _check_rounds("summarize", df)
    if isinstance(conf, bool) or not isinstance(conf, (int, float)) or not 0 < conf < 1:
        raise TournamentError(f"conf must be a confidence level between 0 and 1, like 0.95, got {conf!r}")
    out = []
    for pairing, sub in df.groupby("pairing", sort=True):
        first = sub.iloc[0]
        a = first.player0 if first.swap == 0 else first.player1
        b = first.player1 if first.swap == 0 else first.player0
        diffs, units, s = _diffs(sub, a, b)
        h = head_to_head(diffs, units, agent=a, opponent=b, capped=int(s.capped.sum()),
                         turns=s.turns.to_numpy(), conf=conf)
        row = {"pairing": pairing, **h.to_dict()}
        if (s["round"] > 1).any():
            totals = s.assign(diff=diffs).groupby(["deal", "swap"])["diff"].sum()
            mh = head_to_head(totals.to_numpy(), list(totals.index.get_level_values("deal")), agent=a, opponent=b,
                              conf=conf)
            row.update(matches=mh.rounds, match_wins=mh.wins, match_draws=mh.draws, match_losses=mh.losses,
                       match_win_rate=mh.win_rate, match_win_low=mh.win_low,
                       match_win_high=mh.win_high, match_win_unit_low=mh.win_unit_low,
                       match_win_unit_high=mh.win_unit_high)
        if any(c in s.columns for c in PLAY_COLUMNS):
            row["play_counted"] = _has_counts(s)
            if row["play_counted"]:
                row.update(play_summary(s, a, b))
        if _has_luck(s):
            adjusted = luck_adjusted_diffs(s, a, b)
            raw_units, adj_units = _unit_means(diffs, units), _unit_means(adjusted, units)
            m, lo, hi = mean_interval(adj_units, conf)
            ratio, rlo, rhi = variance_ratio(raw_units, adj_units, conf)
            sd = float(raw_units.std(ddof=1)) if len(raw_units) > 1 else math.nan
            adj_sd = float(adj_units.std(ddof=1)) if len(adj_units) > 1 else math.nan
            row.update(adj_mean=m, adj_low=lo, adj_high=hi, adj_stderr=mean_stderr(adj_units),
                       adj_sd=float(adjusted.std(ddof=1)) if len(adjusted) > 1 else math.nan,
                       var_ratio=ratio, var_ratio_low=rlo, var_ratio_high=rhi,
                       deals_needed=samples_needed(sd, EDGE), adj_deals_needed=samples_needed(adj_sd, EDGE))
        out.append(row)
    return pd.DataFrame(out)


def _check_rounds(what: str, df: Any) -> None:
    """A ``TournamentError`` unless ``df`` holds a tournament's rounds."""
    if not isinstance(df, pd.DataFrame) or not {"pairing", "deal", "player0", "player1", "score0",
                                                "score1"} <= set(df.columns):
        raise TournamentError(f"{what} takes the rounds of a tournament (the DataFrame run_tournament() returns, or "
                              f"lcanalysis.tournaments.runner.load_results(path) of its results file), "
                              f"got {type(df).__name__}")


def _check_prior(what: str, prior: Any) -> None:
    """A ``TournamentError`` unless ``prior`` (virtual draws of every pair) is a number >= 0."""
    if isinstance(prior, bool) or not isinstance(prior, (int, float)) or not 0 <= prior < math.inf:
        raise TournamentError(f"{what}: prior must be a number of virtual draws >= 0, got {prior!r}")


def ratings(df: pd.DataFrame, prior: float = 0.5) -> pd.Series:
    """Bradley-Terry ratings on the Elo scale (mean 0) from every round in ``df``."""
    _check_rounds("ratings", df)
    _check_prior("ratings", prior)
    r = bradley_terry(_results(df), prior=prior)
    return pd.Series(r, name="rating").sort_values(ascending=False)


def rating_errors(df: pd.DataFrame, prior: float = 0.5, resamples: int = 200, seed: int = 0) -> pd.Series:
    """The standard error of each of ``ratings(df)``: the spread of the ratings refitted on the deals
    drawn again with replacement (a deal's rounds, every pairing and seating of it, stay together,
    since they share its cards). NaN with fewer than two deals."""
    _check_rounds("rating_errors", df)
    _check_prior("rating_errors", prior)
    if isinstance(resamples, bool) or not isinstance(resamples, int) or not 2 <= resamples <= 100_000:
        raise TournamentError(f"rating_errors: resamples must be a whole number from 2 to 100,000, got {resamples!r}")
    seed = check_seed("rating_errors: seed", seed, TournamentError, most=None)
    deals, which = np.unique(df["deal"].to_numpy(), return_inverse=True)
    names = sorted(set(df.player0) | set(df.player1))
    if len(deals) < 2:
        return pd.Series(np.nan, index=names, name="rating_stderr")
    results = _results(df)
    by_deal = np.array([points_table([results[i] for i in np.flatnonzero(which == d)], names)
                        for d in range(len(deals))])
    rng = np.random.default_rng(seed)
    fits = [bradley_terry_points(np.tensordot(np.bincount(rng.integers(0, len(deals), len(deals)),
                                                          minlength=len(deals)), by_deal, axes=1), prior)
            for _ in range(resamples)]
    return pd.Series(np.std(fits, axis=0, ddof=1), index=names, name="rating_stderr")


def _results(df: pd.DataFrame) -> list[tuple[str, str, float]]:
    """Every round as (player 0, player 1, player 0's score: 1 win, 0.5 draw, 0 loss)."""
    return [(row.player0, row.player1, 1.0 if row.score0 > row.score1 else 0.5 if row.score0 == row.score1 else 0.0)
            for row in df.itertuples()]


def time_per_move(df: pd.DataFrame) -> pd.DataFrame:
    """Per agent: mean and max thinking time per move, wall clock and CPU (the CPU time of this
    process, which leaves out waiting for a busy machine; an external bot's CPU is not counted)."""
    _check_rounds("time_per_move", df)
    out: dict[str, dict[str, list[float]]] = {}
    for seat in (0, 1):
        for name, sub in df.groupby(f"player{seat}"):
            d = out.setdefault(name, {"ms": [], "cpu_ms": [], "max_ms": [], "max_cpu_ms": []})
            d["ms"].extend(sub[f"ms_per_move{seat}"].dropna())
            d["cpu_ms"].extend(sub[f"cpu_ms_per_move{seat}"].dropna())
            d["max_ms"].extend(sub[f"max_ms{seat}"].dropna())
            d["max_cpu_ms"].extend(sub[f"max_cpu_ms{seat}"].dropna())
    rows = {name: {"ms": np.mean(d["ms"]) if d["ms"] else np.nan,
                   "cpu_ms": np.mean(d["cpu_ms"]) if d["cpu_ms"] else np.nan,
                   "max_ms": np.max(d["max_ms"]) if d["max_ms"] else np.nan,
                   "max_cpu_ms": np.max(d["max_cpu_ms"]) if d["max_cpu_ms"] else np.nan}
            for name, d in out.items()}
    return pd.DataFrame.from_dict(rows, orient="index")


