"""Rollouts: a position's turns each played out to the end of the round by a chosen agent.

The hint (``lcanalysis.advise``) values a turn by play-outs of the compiled heuristic policy:
thousands a second, but their values are the heuristic's (docs/endgame.md: in some positions it
misjudges a turn by 20 points, in every world alike, so the standard error cannot show it). A
rollout, as GNU Backgammon's, plays each candidate turn out with a real agent in both seats
(``best`` by default: the strongest, which plays its own play-outs and its exact endgame at every
turn), each seeing only its own view. It is slow (about a second a turn played out with ``best``
mid-round) and an estimate, but of how the round goes between strong players, not between two
heuristics: the reference to hold the hint's values against, and a value to quote in an article.

How it is made (``rollout``):

- **Worlds.** Trial ``i`` deals one world consistent with what the player to move knows
  (``View.sample_positions``: the opponent's unknown cards and the draw pile's order, uniformly);
  for a full position, both hands as given and the draw pile shuffled (the order is chance). The
  hint deals the opponent's unknown cards by its opponent-hand model instead (``lcanalysis.hand_model``),
  so on a view the two can differ beyond their standard errors: every answer says how its worlds
  were dealt, and warns where the model weighs the unseen cards unequally (``dealing_note``).
  ``hand_model=True`` deals them as the hint does (``model_world``: the opponent's unknown cards
  drawn exactly from the model, ``hand_model.sample_hand``; the rest shuffled into the pile); a
  file of trials is kept under one deal (its setting ``hand_model``).
- **Duplicate play.** Every candidate turn is played in the same worlds, and from it both seats by
  the same agents with the same seeds (``tournaments.runner.turn_seed``), so two turns differ only by what the turn
  itself changes: their difference is paired, with far less noise than either value alone.
- **Values.** Each turn's value is the mean final score difference of the round (the player to move
  minus the opponent) over the trials, with its standard error; its loss is the mean paired
  difference from the best turn, with that difference's standard error. All are estimates.
- **Nothing lost.** With ``out`` each trial's results are written as it finishes
  (``study_file.StudyFile``); the same call on the same file plays only the trials missing.
- **Stopping early.** A ``precision`` or a time budget (``seconds``) stops the rollout before
  ``trials``; either way the answer is that of the first ``n`` trials, all played, so the same ``n``
  trials give the same numbers whatever stopped them (and on any number of workers). Under a time
  budget the hint that chooses the turns gets at most a tenth of it, and the answer says where the
  time went.

- **A match.** On a position that carries the match score (``match``) the answer is each turn's
  chance to win the match instead (P(win) + P(draw) / 2), with its standard error, the turns ranked
  by it: each trial's final score difference turned into the chance to win from there by the match
  equity table, as the hint's play-outs are (``match_equity.match_analysis``), paired over the
  trials like the points. The chances are of the actual results (the luck adjustment is a points
  device); each turn's points stay beside its chance, and a note says whether the two rankings agree.
"""

from __future__ import annotations

import contextlib
import math
import os
import time
from collections import deque
from collections.abc import Callable, Iterator, Sequence
from itertools import islice, takewhile
from typing import Any

import numpy as np
import pandas as pd

from lcanalysis.analysis import Analysis, MoveValue
from lcanalysis.game.cards import whole_number
from lcanalysis.game.moves import Move
from lcanalysis.game.notation import read_position
from lcanalysis.game.position import Position, round_score_range
from lcanalysis.game.view import View
from lcanalysis.options import (
    EXTERNAL_CANNOT_ROLL_OUT,
    FEWEST_TRIALS,
    MAX_WORKERS,
    ONE_TRIAL,
    UsageError,
    check_flag,
    check_output_file,
    check_seed,
    number_text,
)
from lcanalysis.options import MAX_ROLLOUT_TOP as MAX_TOP
from lcanalysis.options import MAX_TRIALS as MAX_TRIALS  # re-exported: the library's bound, the options' too
from lcanalysis.progress import ticking
from lcanalysis.studies.study_file import PLAY_CODE, StudyFile

DEFAULT_AGENT = "best"
DEFAULT_TRIALS = 100
DEFAULT_TOP = 3  # how many of the hint's turns, when no turns are named (candidate_turns)
MAX_SECONDS = 7 * 24 * 3600.0  # a time budget of a week at most
MIN_TRIALS = 10  # the fewest trials a precision is judged on: fewer give standard errors too rough to stop by
#: with a time budget, the hint that chooses the turns gets at most this share of it (``hint_budget``): its
#: default, a second of play-outs and near the end 10 s of endgame search, ate a small budget whole
HINT_SHARE = 0.1

#: the rows of a rollout: one per trial and turn (a trial's rows are written together; a trial with a row for
#: every turn is whole, so a resumed file keeps its last trial, and one cut short is played again)
ROLLOUT_FILE = StudyFile("rollout", "# lcanalysis rollout: ", ["trial", "turn", "result", "luck", "turns_played"],
                         keys=["trial"], identity_keys=("position", "turns", "agent", "seed", "hand_model"),
                         defaults={"hand_model": False},  # (a file from before the option: dealt uniformly)
                         many_rows=True, code=PLAY_CODE,
                         unit_rows=lambda settings, trial: len(settings["turns"])).made_by(__file__)


class RolloutError(ValueError):
    """A rollout that cannot be made as asked; the message names the argument and what is wrong."""


class RolloutFileError(RolloutError):
    """A rollout file (``out``) with rows this rollout cannot have written: ``check_rows``."""


class RolloutAgentError(RolloutError):
    """An agent (``agent``) that cannot play out trials: one that cannot be made, or an outside program."""


class RolloutStopped(KeyboardInterrupt):
    """Ctrl-C during a rollout, with how far it got, so a caller can say what is lost and what is kept:
    ``played``, the trials this call played out whole; ``whole``, the trials whole in all (with ``out``,
    those in the file, from before too); ``trials``, how many were asked (None: as many as a time budget
    allows); ``out``, the file they are kept in (None: nothing is kept); ``choosing``: stopped while the
    hint chose the turns, before any trial."""

    def __init__(self, played: int, whole: int, trials: int | None, out: str | None, choosing: bool = False) -> None:
        self.played, self.whole, self.trials, self.out, self.choosing = played, whole, trials, out, choosing
        of = "" if trials is None else f" of {trials:,}"
        if choosing:
            super().__init__("stopped while the hint chose the turns, before any trial"
                             + ("" if out is None else f": {out} is left as it was"))
        else:
            where = "nothing is kept" if out is None else f"{whole:,} whole trial(s) are kept in {out}"
            super().__init__(f"stopped after {played:,} trial(s){of} played by this call: {where}")


def trial_seed(seed: int, trial: int) -> int:
    """The seed of trial ``trial``'s world and agents: independent of how many trials are asked."""
    ss = np.random.SeedSequence([int(seed), int(trial), 0x5EED])
    return int(ss.generate_state(1, dtype=np.uint32)[0])


def world(source: Position | View, trial: int, seed: int, hand_model: bool = False) -> Position:
    """Trial ``trial``'s world: a full position the player to move cannot tell from ``source``. A
    view's unseen cards are split and ordered at random (uniformly; with ``hand_model`` the opponent's
    unknown cards dealt by the opponent-hand model, as the hint deals them, ``model_world``); a full
    position keeps both hands and its cards known to each player, and only its draw pile is shuffled."""
    s = trial_seed(seed, trial)
    if isinstance(source, View) and hand_model:
        return model_world(source, s)
    if isinstance(source, View):  # (replayed: the opponent knows the mover's cards taken from the piles)
        return source.sample_positions(1, s, replay=True)[0]
    deck = source.deck
    order = np.random.default_rng(s).permutation(len(deck))
    return Position.from_parts([source.hand(0), source.hand(1)], [source.expeditions(0), source.expeditions(1)],
                               source.discards(), [deck[k] for k in order], rules=source.rules,
                               to_move=source.to_move, phase=source.phase, blocked=source.blocked,
                               history=source.history, match=source.match,
                               known=[source.known_cards(0), source.known_cards(1)], check_history=False)


def model_world(view: View, seed: int) -> Position:
    """A world of ``view`` dealt as the hint's play-outs deal it: buried pile cards filled at random, the
    opponent's unknown cards drawn exactly from the opponent-hand model (``hand_model.sample_hand`` on
    ``hand_weights``), the rest of the unseen cards shuffled uniformly into the draw pile; replayed, as
    ``View.sample_positions(replay=True)``'s worlds are."""
    from lcanalysis.hand_model import hand_weights, sample_hand

    rng = np.random.default_rng(seed)
    filled = view.random_fill(rng) if view.buried_count else view
    unseen = filled.unseen()
    held = sample_hand(hand_weights(filled), filled.opponent_unknown, rng)
    taken = set(held.tolist())
    rest = [unseen[i] for i in range(len(unseen)) if i not in taken]
    return filled.complete([unseen[i] for i in held], [rest[k] for k in rng.permutation(len(rest))], replay=True)


def play_trial(source: Position | View, turns: Sequence[str], agent: Any, trial: int, seed: int,
               deadline: float | None = None, hand_model: bool = False) -> list[dict[str, Any]]:
    """One trial: each of ``turns`` played in the trial's world, then the round played out by
    ``agent`` (an ``Agent``, or its spec) in both seats; a row per turn: the final score difference
    for the player to move (``result``) and how many turns the round took from there. With a
    ``deadline`` (on ``_clock``: a time budget's end) the trial is abandoned, no rows, once it has
    passed before an agent's turn: no turn of a trial is kept without the others. ``hand_model``: the
    world's opponent cards dealt by the opponent-hand model (``world``)."""
    from lcanalysis.tournaments.luck import turn_luck
    from lcanalysis.tournaments.runner import turn_seed  # (as a tournament seeds its agents' turns)
    from lcanalysis.tournaments.specs import AgentSpec

    if deadline is not None and _clock() >= deadline:
        return []
    player = agent if hasattr(agent, "choose") else _agent(AgentSpec.of(agent))
    start = world(source, trial, seed, hand_model)
    mover = start.to_move
    s = trial_seed(seed, trial)
    rows = []
    nc = start.colors
    # a bot author's class (the python seat) is refereed: its answer checked before it is played, so a turn
    # that is no turn is named with the agent, not met as an unexplained error of the notation
    refereed = getattr(player, "name", "") == "python"
    for turn in turns:
        pos = start.copy()
        luck = 0.0  # the luck of every deck draw, the mover's side (``tournaments.luck``): zero on average
        move: Any = turn
        while True:
            move = move if isinstance(move, Move) else Move.parse(str(move), nc)
            luck += turn_luck(pos.state, move, mover) or 0.0
            pos.push(move)
            if pos.is_over():
                break
            if deadline is not None and _clock() >= deadline:
                return []
            p = pos.to_move
            move = player.choose(pos.view(p), turn_seed(s, pos.turn, p))
            if refereed:
                _check_answer(player, move, pos, trial)
        mine, theirs = pos.score(mover), pos.score(1 - mover)
        rows.append({"trial": trial, "turn": turn, "result": mine - theirs, "luck": luck,
                     "turns_played": pos.turn - start.turn})
    return rows


def _check_answer(player: Any, answer: Any, pos: Position, trial: int) -> None:
    """A bot author's class (``tournaments.python_seat``) whose ``answer`` is not a legal turn of ``pos``: its
    ``PythonAgentError``, naming the class, the trial and the turn, as one it raised is named."""
    from lcanalysis.agents.base import refused_answer
    from lcanalysis.tournaments.python_seat import PythonAgentError

    who = str(getattr(player, "where", None) or getattr(player, "name", type(player).__name__))
    refusal = refused_answer(answer, pos, who, here=f", in trial {trial} at turn {pos.turn}")
    if refusal is not None:
        raise PythonAgentError(refusal)


#: the clock of a time budget (``rollout``'s ``seconds``): monotonic, and on Linux one clock for every
#: process, so a pool's worker reads the same deadline; tests put a clock of their own here
_clock = time.monotonic

_AGENTS: dict[Any, Any] = {}  # each process's agents, made once (a pool's worker plays many trials)


def _agent(spec: Any) -> Any:
    if spec not in _AGENTS:
        _AGENTS[spec] = spec.make()
    return _AGENTS[spec]


def _job(text: dict[str, Any], turns: Sequence[str], spec: Any, trial: int, seed: int,
         deadline: float | None = None, hand_model: bool = False) -> list[dict[str, Any]]:
    """A trial in a worker process: the position as its JSON (``to_json``), read back there. No rows
    (the trial dropped) once the time budget's ``deadline`` has passed (``play_trial``): a trial
    queued for a worker, or being played, when the clock runs out is not played on."""
    source = read_position(text)
    return play_trial(source, turns, spec, trial, seed, deadline, hand_model)


#: trials handed to the pool ahead of the one awaited, a worker: enough to keep every worker busy,
#: few enough that a million trials asked are not a million jobs queued at once
AHEAD = 4


def _in_order(pool: Any, jobs: Iterator[tuple[Any, ...]], ahead: int,
              stop: Callable[[], bool] | None = None) -> Iterator[Any]:
    """Each job's result (``job[0](*job[1:])`` on ``pool``) in the jobs' order, ``ahead`` in flight.
    Once ``stop()`` is true (checked after each result), no job is submitted and those not begun
    are cancelled: only the results of the jobs already running follow."""
    pending: deque[Any] = deque(pool.submit(*job) for job in islice(jobs, ahead))
    while pending:
        future = pending.popleft()
        if future.cancelled():
            continue
        done = future.result()
        if stop is not None and stop():
            for waiting in pending:
                waiting.cancel()
        else:
            for job in islice(jobs, 1):
                pending.append(pool.submit(*job))
        yield done


def _checked(value: Any, name: str, low: int, high: int, why: str | None = None) -> int:
    n = whole_number(value)
    if n is None or not low <= n <= high:
        raise RolloutError(f"{name} must be a whole number from {low:,} to {high:,}{f' ({why})' if why else ''}, "
                           f"got {value!r}")
    return n


def hint_budget(seconds: float | None) -> float | None:
    """The hint's budget (``advise``'s ``time_budget``, a count of play-outs and nodes, so that the same
    command chooses the same turns and resumes its file) for choosing the turns under a time budget of
    ``seconds``: None (its default: a second of play-outs, near the end of a round 10 s of endgame
    search) without one, or while ``HINT_SHARE`` of it covers that default; else that share, at most a
    second. So the hint is never given more than ``HINT_SHARE`` of the time budget, and from 10 s on
    its play-outs are the default's."""
    from lcanalysis.advisor import ENDGAME_DEFAULT_SECONDS

    if seconds is None or seconds * HINT_SHARE >= ENDGAME_DEFAULT_SECONDS:
        return None
    return min(seconds * HINT_SHARE, 1.0)


def _hint_in_words(budget: float | None) -> str:
    if budget is None:
        return "a second of play-outs; near the end of a round, up to about 10 s of endgame search"
    return (f"{budget:.2g} s of play-outs, or of endgame search near the end, counted: at most a tenth of the time "
            "budget")


def trusted_first(hint: Sequence[MoveValue], top: int) -> tuple[list[str], list[MoveValue]]:
    """The ``top`` turns of ``hint`` (an answer's turns, best first, as ``advise`` ranks them) most
    likely to be best: its best turn (the one it advises), then the turns it gives a value, exact or
    estimated, in its order, then turns it only bounds (``MoveValue.upper_bound``) to fill up.

    Why not the hint's order: near the end of a round its endgame search proves most turns only no
    better than the best (an upper bound, often the best's own value) and ranks them by that bound,
    so a bounded turn is listed above every turn with a lower value whatever its true value, which
    may be far lower (on ``example:endgame``, two such turns listed at the best's value were 13.85
    points worse in ``best``'s rollouts). A rule that took a bound only when above the next value
    would change nothing: the hint lists a bound above a value only when it is. A bound says how good a
    turn can be, not how good it is; a value says how good it is. Returns the turns chosen and the
    bounded turns of the hint's first ``top`` passed over (``passed_over_note`` says them)."""
    first, rest = list(hint[:1]), list(hint[1:])
    ordered = first + [m for m in rest if not m.upper_bound] + [m for m in rest if m.upper_bound]
    chosen = [m.move for m in ordered[:top]]
    return chosen, [m for m in hint[:top] if m.move not in chosen]


def _value_in_words(m: MoveValue) -> str:
    """A hint's value as the note on the turns passed over says it: "-12.00, exact", "-12.00 ± 0.31,
    an estimate", "at most -11.98" (a bound; "± s" when sampled)."""
    error = f" ± {m.stderr:.2f}" if m.stderr else ""
    if m.upper_bound:
        return f"at most {m.value:+.2f}{error}"
    return f"{m.value:+.2f}, exact" if m.exact else f"{m.value:+.2f}{error}, an estimate"


def _ordinal(n: int) -> str:
    """1st, 2nd, 3rd, 4th, ..., 11th, 12th, 13th, ..., 21st."""
    tail = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{tail}"


def passed_over_note(hint: Sequence[MoveValue], chosen: Sequence[str], passed: Sequence[MoveValue]) -> str:
    """The note of a rollout whose turns are not the hint's first few (``trusted_first``): which turns
    were passed over, for which, and why."""
    place = {m.move: i + 1 for i, m in enumerate(hint)}
    by_move = {m.move: m for m in hint}
    taken = [by_move[t] for t in chosen if place[t] > len(chosen)]

    def listed(moves: Sequence[MoveValue], whose: str) -> str:
        said = [f"{m.move} ({whose} {_ordinal(place[m.move])}, {_value_in_words(m)})" for m in moves]
        return said[0] if len(said) == 1 else f"{', '.join(said[:-1])} and {said[-1]}"

    hints = "the hint's"
    return (f"turns passed over: {listed(passed, hints)} for {listed(taken, 'its')}: the hint's "
            f"endgame search gave {'it' if len(passed) == 1 else 'them'} only an upper bound, which says how good a "
            "turn can be, not how good it is (it may be far worse); a rollout takes the hint's best, then the turns it "
            "gives a value in its order, then bounded ones to fill up (--turn, or turns=[...], rolls out any turn)")


def candidate_turns(source: Position | View, turns: Sequence[Any] | None, top: int, seed: int,
                    progress: Callable[[str], None] | None = None, seconds: float | None = None,
                    notes: list[str] | None = None) -> list[str]:
    """The turns to roll out: ``turns`` as given (each checked legal, in its canonical notation), or
    ``top`` of the hint's turns (``advise`` at its default budget, a second's play-outs counted, or with a
    time budget of ``seconds`` a share of it, ``hint_budget``; near the end of a round its endgame search's
    node count: the same turns on any machine): its best, then those it gives a value, exact or
    estimated, in its order, then those it only bounds to fill up (``trusted_first``: a bound says only how
    good a turn can be), so not always its first ``top``; on a position in a match, where the rollout ranks
    by the chance to win it, also the hint's best turn by that chance when it is not among them
    (``match_loss`` 0: the first such in the hint's order). ``notes``: a list the note naming the turns
    passed over is added to, when some were (``passed_over_note``)."""
    legal = source.legal_moves()
    if not legal:
        raise RolloutError("the round is over: there is no turn to roll out")
    if turns is None:
        from lcanalysis.advisor import advise

        budget = hint_budget(seconds)
        if progress is not None:
            progress(f"choosing the {top} best turn(s) to roll out: the hint's ({_hint_in_words(budget)})"
                     + ("; in a match, and its best for the match" if source.match else ""))
        hint = advise(source, seed=seed, time_budget=budget).moves
        chosen, passed = trusted_first(hint, top)
        if passed and notes is not None:
            notes.append(passed_over_note(hint, chosen, passed))
        for_match = next((m.move for m in hint if m.extra.get("match_loss") == 0.0), None) if source.match else None
        return chosen + ([for_match] if for_match is not None and for_match not in chosen else [])
    if isinstance(turns, (str, Move)) or not isinstance(turns, Sequence) or not turns:
        raise RolloutError(f"turns must be a non-empty list of turns (like ['+B7/D', '-G3/D']), got {turns!r}")
    named = []
    for turn in turns:
        try:
            move = Move.parse(str(turn), source.colors)
        except ValueError as exc:
            raise RolloutError(f"turn {turn!r} cannot be read: {exc}") from None
        if move not in legal:
            raise RolloutError(f"turn {move} is not legal here: {source.why_illegal(move)}")
        if str(move) in named:
            raise RolloutError(f"turn {move} is named twice")
        named.append(str(move))
    return named


def rollout(position: Any, turns: Sequence[Any] | None = None, agent: Any = DEFAULT_AGENT,
            trials: int | None = None, top: int = DEFAULT_TOP, seed: int = 0, workers: int = 1,
            out: str | os.PathLike[str] | None = None, progress: bool | Callable[[str], None] = False,
            command: str | None = None, allow_code_change: bool = False, luck_adjusted: bool = True,
            precision: float | None = None, seconds: float | None = None, hand_model: bool = False) -> Analysis:
    """Each of ``turns`` (default: ``top`` of the hint's turns, its valued ones first: ``candidate_turns``)
    played out ``trials`` times (default ``DEFAULT_TRIALS``; with ``seconds``, ``MAX_TRIALS``: as many
    as the time allows) to the end of the round by ``agent`` in both seats (a name or
    ``NAME:OPTION=VALUE,...``, as a tournament takes it; default ``best``), in the same dealt worlds
    with the same agent seeds (module docstring). When the hint chose the turns and passed over some of
    its first ``top`` (turns it only bounds), a note names them (``passed_over_note``).

    Returns an ``Analysis`` (an estimate): each turn's mean final score difference for the player to
    move with its standard error, and its loss against the best turn, paired over the trials; on a
    position in a match, each turn's chance to win the match instead, ranked by it (``match_answer``).
    ``position``: anything ``read_position`` reads (a view, a position, JSON, ``example:NAME``).
    ``workers``: processes to play trials on. ``out``: a file each trial is written to as it
    finishes; the same call with it again plays only the trials missing (``command``: what its
    ``.cmd`` sidecar records). ``progress``: True for a bar on standard error, or a function given
    a line at each stage. ``luck_adjusted``: each result less the luck of the round's deck draws
    (``tournaments.luck``): the same mean, about half the variance of a loss (measured on the hint's
    three best turns of ``example:midround``, 300 trials by ``heuristic``: 1.9-2.4 times less).
    ``precision`` (points, on a match position too): stop before ``trials`` once every turn's loss
    against the best has a standard error of at most this (a single turn: its value's), after
    ``MIN_TRIALS`` at least; the trials are taken in order, so the answer is the same on any number
    of workers. ``seconds``: a time budget for the whole call (choosing the turns included: the hint
    gets at most a tenth of it, ``hint_budget``): once it has run out no trial is begun and a trial
    being played is abandoned (each agent's turn is finished: the budget is kept to within one of
    them), and the answer is that of the first trials all played, as a call with that many ``trials``
    gives; its notes say how many, that the clock stopped it, and where the time went (the hint, the
    trials, the whole; past the budget, by how much and why). Fewer than 2 trials (``FEWEST_TRIALS``),
    asked or played within ``seconds``, are refused (``RolloutError``): one trial gives no standard error.
    ``hand_model``: on a view, each trial's opponent cards dealt by the opponent-hand model, as the hint
    deals them (``model_world``), instead of uniformly; a full position keeps both hands either way. A
    file of ``out`` holds the trials of one deal: resuming it with the other is refused. Ctrl-C
    raises ``RolloutStopped`` (a ``KeyboardInterrupt``) saying how many trials were played and kept."""
    luck_adjusted = check_flag("luck_adjusted", luck_adjusted, RolloutError)
    hand_model = check_flag("hand_model", hand_model, RolloutError)
    if precision is not None and (isinstance(precision, bool) or not isinstance(precision, (int, float))
                                  or not 0 < precision < math.inf):
        raise RolloutError(f"precision must be a number of points above 0 (or None), got {precision!r}")
    if seconds is not None and (isinstance(seconds, bool) or not isinstance(seconds, (int, float))
                                or not 0 < seconds <= MAX_SECONDS):
        raise RolloutError(f"seconds must be a number of seconds above 0 and at most {MAX_SECONDS:,.0f} "
                           f"(or None: no time budget), got {seconds!r}")
    if out is not None:  # (before the hint chooses the turns: a folder, or a missing one, was an OSError after)
        if not isinstance(out, (str, os.PathLike)):
            raise RolloutError(f"out must be a file name (or None: the trials kept in memory only), got {out!r}")
        try:
            check_output_file("out", os.fspath(out))
        except UsageError as exc:
            raise RolloutError(str(exc)) from None
    started = _clock()
    deadline = None if seconds is None else started + float(seconds)
    from lcanalysis.tournaments.specs import TournamentError, check_agent

    source = read_position(position)
    asked = trials is not None
    trials = _checked(trials if asked else DEFAULT_TRIALS if seconds is None else MAX_TRIALS, "trials",
                      FEWEST_TRIALS, MAX_TRIALS, why=ONE_TRIAL)
    top = _checked(top, "top", 1, MAX_TOP)
    seed = check_seed("seed", seed, RolloutError)
    workers = _checked(workers, "workers", 1, MAX_WORKERS)
    try:
        spec = check_agent(agent)
    except TournamentError as exc:
        raise RolloutAgentError(str(exc)) from None
    if spec.name == "external":
        raise RolloutAgentError(EXTERNAL_CANNOT_ROLL_OUT)
    if out is not None:  # (the settings the turns do not change: refused before the hint's seconds)
        refuse_other_file(os.fspath(out), file_identity(source, None, spec, seed, hand_model), source.rules)
    say = progress if callable(progress) else None
    passed_over: list[str] = []  # (the note on the hint's turns passed over, when some were)
    try:
        chosen = candidate_turns(source, turns, top, seed, say, seconds, passed_over)
    except KeyboardInterrupt:  # (the hint's search, stopped at once: say so, as in the trials)
        raise RolloutStopped(0, 0, trials if asked else None, None if out is None else os.fspath(out),
                             choosing=True) from None
    chosen_at = _clock()
    by_model = deals_by_model(source, hand_model)
    identity = file_identity(source, chosen, spec, seed, hand_model)
    t0 = time.perf_counter()
    # the rows (trials x turns) so far: grown as trials come, not a million rows made for a time budget
    results = np.full((min(trials, 1024), len(chosen)), np.nan)
    lucks = np.full_like(results, np.nan)
    first = 0  # the first trial not played yet: trials 0 .. first - 1 are all played
    new = 0  # trials played out by this call (not read from the file)
    clock_stopped = False

    def keep(rows: Sequence[dict[str, Any]]) -> None:
        nonlocal results, lucks, first
        for row in rows:
            i, k = int(row["trial"]), chosen.index(row["turn"])
            if i >= len(results):
                more = np.full((min(max(2 * len(results), i + 1), trials) - len(results), len(chosen)), np.nan)
                results, lucks = np.vstack([results, more]), np.vstack([lucks, more])
            results[i, k], lucks[i, k] = row["result"], row["luck"]
        while first < len(results) and not np.isnan(results[first]).any():
            first += 1

    def answer(n: int) -> Analysis:  # from the first n trials
        return rollout_analysis(results[:n], lucks[:n] if luck_adjusted else None, chosen, spec.label)

    def enough() -> int:
        """The trials that reach ``precision`` (the first n, all played), or 0 while none do."""
        if precision is None or first < MIN_TRIALS:  # (nothing to look at after each trial)
            return 0
        moves = answer(first).moves
        errors = [m.stderr for m in moves] if len(moves) == 1 else [m.loss_stderr or 0.0 for m in moves]
        return first if max(errors) <= precision else 0

    def time_up() -> bool:
        nonlocal clock_stopped
        clock_stopped = clock_stopped or (deadline is not None and _clock() >= deadline)
        return clock_stopped

    try:
        with contextlib.ExitStack() as stack:
            if out is not None:
                refuse_other_file(os.fspath(out), identity, source.rules)
                write, done = stack.enter_context(ROLLOUT_FILE.open(os.fspath(out), identity, command,
                                                                    allow_code_change,
                                                                    units=((i,) for i in range(trials)),
                                                                    says_stopped=False))  # (said below)
                keep([row for row in ROLLOUT_FILE.load(out).to_dict("records") if row["trial"] < trials])
            else:
                write, done = None, set()
            # (the trials to play, one at a time: a time budget's million trials are not listed first)
            held = {key[0] for key in done if key[0] < trials}
            left = 0 if enough() else trials - len(held)
            todo = (i for i in range(trials if left else 0) if i not in held)
            bar = _bar(progress, trials, len(chosen), trials - left, spec.label, seconds, started,
                       open_ended=not asked, kept=out is not None)
            stack.callback(bar.close)
            if not isinstance(bar, _Lines):  # (a bar redraws only as it moves: a trial of seconds froze it)
                stack.callback(ticking(bar))
            begun = takewhile(lambda _: not time_up(), todo)  # (no trial begun once the time is up)
            pooled = min(workers, left) if workers > 1 and left > 1 else 0
            if pooled:
                from lcanalysis.core.pool import cancelling_pool

                pool = stack.enter_context(cancelling_pool(pooled))
                text = source.to_json()
                finished = _in_order(pool, ((_job, text, chosen, spec, i, seed, deadline, by_model) for i in begun),
                                     AHEAD * workers, stop=time_up)
            else:
                player = spec.make()
                finished = (play_trial(source, chosen, player, i, seed, deadline, by_model) for i in begun)
            for rows in finished:
                if not rows:  # (abandoned, or dropped before it began: the time ran out)
                    continue
                if write is not None:
                    write(rows)
                keep(rows)
                bar.update(1)
                new += 1
                if enough():
                    break
    except KeyboardInterrupt:  # Ctrl-C: how far it got, for the caller to say what is kept (RolloutStopped)
        whole = int((~np.isnan(results).any(axis=1)).sum())
        raise RolloutStopped(new, whole, trials if asked else None,
                             None if out is None else os.fspath(out)) from None
    played = enough() or first
    if clock_stopped and played < FEWEST_TRIALS:  # (no standard error without 2 trials)
        when = "before a trial was played out" if played == 0 else "after 1 trial, and a standard error needs 2"
        spent = [f"choosing the turns took {chosen_at - started:.1f} s of it (name them to skip that)"] \
            if turns is None else []
        spent += [f"the {pooled} worker processes start by loading the engine, a second or more (--workers 1 "
                  "skips that)"] if pooled else []
        spent.append(f"a trial plays {len(chosen)} turn(s) out to the end of the round by {spec.label}")
        kept = f" (the trial is kept in {os.fspath(out)})" if played and out is not None else ""
        raise RolloutError(f"the time budget of {seconds:g} s (seconds) ran out {when} ({'; '.join(spent)}): give "
                           f"more seconds{kept}")
    rolled = answer(played)
    rolled.notes.append(dealing_note(source, by_model))
    rolled.notes += passed_over
    if source.match:  # the chances to win the match, ranked by them
        rolled = match_answer(source, results[:played], chosen, rolled, spec.label)
    rolled.hand_model = by_model  # (the JSON says it too: how the worlds' opponent cards were dealt)
    if seconds is not None:
        rolled.notes.append(_time_spent(seconds, started, chosen_at, _clock(), new, turns is None, pooled))
    if enough():
        if played < trials:
            rolled.notes.append(f"stopped after {played:,} of at most {trials:,} trials: every turn's "
                                f"{'value' if len(chosen) == 1 else 'loss'} in points has a standard error of at "
                                f"most {precision:g} (precision)")
    elif clock_stopped and played < trials:
        rolled.notes.append(f"stopped by the clock after {played:,} trials"
                            + (f" of the {trials:,} asked" if asked else "")
                            + f": the time budget of {seconds:g} s (seconds) ran out; the answer is that of the "
                            f"first {played:,} trials, as {played:,} trials asked for give")
    rolled.seconds = time.perf_counter() - t0
    return rolled


def model_has_a_say(view: View) -> bool:
    """Whether the opponent-hand model (``hand_model.hand_weights``) would deal ``view``'s unseen cards
    otherwise than uniformly: the opponent holds unknown cards and their weights are not all equal (a
    view with buried pile cards judged on one fill of them, ``View.random_fill`` with seed 0)."""
    from lcanalysis.hand_model import hand_weights

    if not view.opponent_unknown:
        return False
    filled = view.random_fill(np.random.default_rng(0)) if view.buried_count else view
    w = hand_weights(filled)
    return bool(len(w)) and not np.allclose(w, w[0], rtol=1e-9, atol=0.0)


def dealing_note(source: Position | View, by_model: bool = False) -> str:
    """How the rollout dealt its worlds, in words, and whether the hint deals them alike (it deals the
    opponent's unknown cards by its opponent-hand model): said on every answer, the warning that the
    two can differ only where the model has something to infer (``model_has_a_say``). ``by_model``: the
    worlds were dealt by the model (``model_world``), as the hint deals them."""
    if not isinstance(source, View):
        return ("worlds: a full position, both hands as given and only the draw pile shuffled (the hint too "
                "keeps both hands)")
    if by_model:
        return ("worlds dealt as the hint deals them: the opponent's unknown cards by the learned opponent-hand "
                "model (lcanalysis.hand_model), the rest of the unseen cards shuffled uniformly into the draw pile")
    said = ("worlds dealt uniformly: the opponent's unseen cards as likely in its hand as in the draw pile "
            "(View.sample_positions)")
    if model_has_a_say(source):
        return (f"{said}; the hint (lcanalysis advise) deals them by its learned opponent-hand model "
                "(lcanalysis.hand_model), which here finds some cards likelier in the opponent's hand than others, "
                "so its values can differ from these by more than their standard errors (--hand-model, "
                "hand_model=True: deal them as the hint does)")
    return (f"{said}; the hint's opponent-hand model weighs every unseen card alike here, so it deals them as "
            "this rollout does")


def _time_spent(seconds: float, started: float, chosen_at: float, ended: float, played: int, hinted: bool,
                pooled: int) -> str:
    """What a time budget of ``seconds`` allowed, in words: the hint's choice of the turns (``hinted``),
    the ``played`` trials played out by the call (on ``pooled`` worker processes, 0: this one), the
    whole; and, past the budget, by how much and why (on ``_clock``, the budget's clock)."""
    parts = [f"the turns chosen by the hint in {chosen_at - started:.1f} s"] if hinted else []
    workers = f" on {pooled} worker processes (each loads the engine before its first trial)" if pooled else ""
    parts.append(f"{played:,} trial(s) played out in {ended - chosen_at:.1f} s{workers}")
    text = f"time budget of {seconds:g} s: {', '.join(parts)}; {ended - started:.1f} s in all"
    if round(ended - started, 1) <= seconds:  # (as said: 30.04 s is "30.0 s in all", not over)
        return text
    why = ("choosing the turns alone took longer than the budget (name the turns to skip that)"
           if chosen_at - started > seconds else
           "an agent's turn being played when the time ran out is finished before its trial is left (a turn "
           "cut short would play another move than the same trial unhurried, and the trials kept must be those "
           "of an unhurried run)" + (", and the worker processes stop after it" if pooled else ""))
    return f"{text}, {ended - started - seconds:.1f} s over it: {why}"


class _Lines:
    """Progress as lines (standard error is not a terminal): one as each trial finishes, at most one a
    second, and the last; with a time budget (``seconds``, from ``started`` on ``_clock``), the time
    spent of it too."""

    def __init__(self, say: Callable[[str], None], total: int, done: int, seconds: float | None = None,
                 started: float = 0.0) -> None:
        self.say, self.total, self.done, self.last = say, total, done, time.monotonic()
        self.seconds, self.started = seconds, started

    def update(self, n: int) -> None:
        self.done += n
        if self.done == self.total or time.monotonic() - self.last >= 1.0:
            self.last = time.monotonic()
            if self.seconds is None:
                self.say(f"{self.done} of {self.total} trials played")
            else:
                self.say(f"{self.done} trials played, {min(_clock() - self.started, self.seconds):.0f} of "
                         f"{self.seconds:g} s")

    def close(self) -> None:
        pass


def _bar(progress: bool | Callable[[str], None], trials: int, turns: int, done: int, label: str,
         seconds: float | None = None, started: float = 0.0, open_ended: bool = False, kept: bool = True) -> Any:
    """A bar over the trials (``progress`` True), lines (a function), or nothing. ``open_ended``: with
    a time budget and no trials asked, a count with no total (a bar to ``MAX_TRIALS`` would say the
    time budget's rollout takes days). ``kept``: the trials are kept in a file (the lines say how
    many were there already)."""
    from lcanalysis.progress import progress_bar

    if callable(progress):
        todo = f"{trials - done} trial(s) to play" if seconds is None else \
            f"trials to play for {seconds:g} s in all (at most {trials - done:,})"
        there = f" ({done} already in the file)" if kept else ""
        progress(f"{todo}{there}, each of {turns} turn(s) played out by {label} in both seats")
        return _Lines(progress, trials, done, seconds, started)
    return progress_bar(total=None if open_ended and seconds is not None else trials, initial=done,
                        progress=progress is True, unit="trial",
                        desc="rollout" if seconds is None else f"rollout (for {seconds:g} s)")


def rollout_analysis(results: np.ndarray, lucks: np.ndarray | None, turns: Sequence[str], label: str) -> Analysis:
    """The rollout's answer from its results (trials x turns, the mover's final score difference):
    means, standard errors and losses paired over the trials. With ``lucks`` (the same shape, the
    sum of each trial's deck-draw luck from the mover's side) each result less its luck: the same
    mean (the luck is zero on average, ``tournaments.luck``), with less noise."""
    n = len(results)
    adjusted = results - lucks if lucks is not None else results
    means = adjusted.mean(axis=0)
    best = int(np.argmax(means))

    def stderr(x: np.ndarray) -> float:
        return float(x.std(ddof=1) / math.sqrt(n)) if n > 1 else math.nan

    moves = []
    for k, turn in enumerate(turns):
        d = adjusted[:, best] - adjusted[:, k]
        moves.append(MoveValue(turn, float(means[k]), stderr(adjusted[:, k]), exact=False,
                               reason=f"mean of {n:,} rollouts", extra={"raw_mean": float(results[:, k].mean())},
                               loss=float(d.mean()), loss_stderr=0.0 if k == best else stderr(d)))
    notes = [f"each turn played out {n:,} times to the end of the round by {label} in both seats, each seeing only "
             "its own view, in the same dealt worlds with the same seeds: the losses are paired"]
    if lucks is not None:
        notes.append("each result less the luck of its deck draws (zero on average, so the same mean with less "
                     "noise; tournaments.luck)")
    notes.append("values: the mover's final score difference of the round (mover minus opponent), in points, "
                 "averaged over the trials; ± is one standard error of the sampling; the values are the agents' "
                 "play, not exact")
    return Analysis(moves, kind=f"rollout value ({label} in both seats)", exact=False,
                    method=f"rollouts: {n:,} trials of {len(turns)} turn(s) by {label}", notes=notes,
                    playouts=n * len(turns))


class _Trials:
    """A rollout's trials as ``match_equity.match_analysis`` reads play-outs (``Sampled``): each turn's
    final score differences (mover minus opponent), one per trial, and the turn."""

    def __init__(self, results: np.ndarray, turns: Sequence[str]) -> None:
        self.samples = [results[:, k] for k in range(len(turns))]
        self.turns = list(turns)

    def move(self, k: int) -> str:
        return self.turns[k]


def match_answer(source: Position | View, results: np.ndarray, turns: Sequence[str], points: Analysis,
                 label: str) -> Analysis:
    """The rollout's answer on a position in a match: each turn's chance to win the match (``value``,
    P(win) + P(draw) / 2, from ``results``: trials x ``turns``, the actual final score differences)
    with its standard error, and its loss against the best turn by that chance paired over the
    trials, the turns ranked by it; the ranking and the sentence saying whether it agrees with the
    points' are ``match_equity.match_analysis``'s, as the hint's. Each turn's points (``points``:
    the answer in points) stay in its ``extra`` and its reason."""
    from lcanalysis.match_equity import match_analysis

    view = source if isinstance(source, View) else source.view()
    ranking = match_analysis(view, _Trials(results, turns))
    assert ranking is not None  # (the position carries the match score)
    by_move = {m.move: m for m in points.moves}
    n = len(results)
    moves = []
    for mm in ranking.moves:  # (best first by the chance, ties by the points)
        p = by_move[mm.move]
        moves.append(MoveValue(
            mm.move, mm.match, mm.match_stderr, exact=False,
            reason=f"win match {100 * mm.match:.1f}% ± {100 * mm.match_stderr:.1f} (mean of {n:,} rollouts); points "
                   f"{p.value:+.2f} ± {p.stderr:.2f}",
            extra={**mm.match_extra(), "points": p.value, "points_stderr": p.stderr, "points_loss": p.loss,
                   "points_loss_stderr": p.loss_stderr, **p.extra},
            loss=mm.match_loss, loss_stderr=mm.match_loss_stderr))
    notes = [*points.notes,
             "the values are chances to win the match (P(win) + P(draw) / 2, by the match equity table, "
             "lcanalysis.match_equity), from each trial's actual final score difference: the luck adjustment is "
             "of the points beside them only", ranking.note]
    answer = Analysis(moves, kind=f"rollout chance to win the match ({label} in both seats)", exact=False,
                      method=points.method, notes=notes, playouts=points.playouts)
    answer.moves[:] = moves  # (the ranking's order: equal chances go by the points, not by the turns' order)
    return answer


def file_identity(source: Position | View, turns: Sequence[str] | None, spec: Any, seed: int,
                  hand_model: bool) -> dict[str, Any]:
    """The settings a rollout's file (``out``) is kept under: the position, the turns (in their canonical
    notation, in order; None: not chosen yet), the agent (``spec``, a checked ``AgentSpec``), the seed and
    how a view's worlds are dealt (``hand_model``: by the opponent-hand model; a full position has no card
    to deal)."""
    return {"position": source.to_json(), "turns": None if turns is None else list(turns),
            "agent": spec.to_identity(), "seed": seed, "hand_model": deals_by_model(source, hand_model)}


def deals_by_model(source: Position | View, hand_model: bool) -> bool:
    """Whether the worlds of ``source`` are dealt by the opponent-hand model (``hand_model`` asked, on a
    view: a full position has no unknown card to deal): what the answer says and its file is kept under."""
    return bool(hand_model) and isinstance(source, View)


def refuse_other_file(path: str, identity: dict[str, Any], rules: Any) -> None:
    """Before any trial: refuse a rollout file at ``path`` made with other settings than ``identity``
    (``file_identity``; ``OtherSettingsError``, in its words first) or holding rows this rollout cannot
    have written (``check_rows``). Cheap, and loads no engine: ``lcanalysis rollout`` calls it before the
    compile. With the turns None (the hint has not chosen them yet) every other setting is checked, so
    a file of another seed, agent or position is refused before the hint's seconds; the turns and the
    rows are checked again once they are known."""
    turns = identity["turns"]
    ROLLOUT_FILE.refuse_other_settings(path, identity, unknown=("turns",) if turns is None else ())
    if turns is not None:
        check_rows(path, turns, rules)


def check_rows(path: str, turns: Sequence[str], rules: Any) -> None:
    """Refuse (``RolloutFileError``, naming the file's line and what is wrong) a rollout file whose rows this
    rollout cannot have written, before it is resumed: each row a trial (a whole number 0 or more), one of
    ``turns``, a result (a whole number of points within what the colours allow, ``round_score_range``), a
    luck (finite, within ``luck_bound``) and the turns played (0 to the turn cap); a trial's turn in two
    rows is refused when the rows differ, counted once when they are the same (as in a tournament's file).
    A missing file, a torn last line (``StudyFile.open`` does it again) and a file of other settings or
    columns (``open`` refuses it in its words) are left alone."""
    import csv

    from lcanalysis.tournaments.results import luck_bound

    try:
        with open(path, encoding="utf-8", newline="") as fh:
            lines = fh.read().split("\n")[:-1]  # (the last is empty, or a torn line)
    except (FileNotFoundError, UnicodeDecodeError):
        return  # (nothing to check, or not this study's file: open says so)
    if lines[1:2] != [",".join(ROLLOUT_FILE.columns)]:
        return
    low, high = round_score_range(rules)
    points, bound = high - low, luck_bound(rules)
    seen: dict[tuple[int, str], tuple[int, list[str]]] = {}
    for number, line in enumerate(lines[2:], start=3):
        fields = next(csv.reader([line]), [])
        trial, turn, result, luck, played = (fields + [""] * 5)[:5]
        why = None
        if len(fields) != len(ROLLOUT_FILE.columns):
            why = f"{len(fields)} fields, not {len(ROLLOUT_FILE.columns)} ({', '.join(ROLLOUT_FILE.columns)})"
        elif (t := _whole(trial)) is None or t < 0:
            why = f"trial {trial!r} is not a whole number 0 or more"
        elif turn not in turns:
            why = f"turn {turn!r} is not one of this rollout's turns ({', '.join(turns)})"
        elif (r := _whole(result)) is None or not -points <= r <= points:
            why = f"result {result!r} is not a whole number of points from {-points} to {points}"
        elif not -bound <= _number(luck) <= bound:  # (NaN is not within either)
            why = f"luck {luck!r} is not a finite number of points from {-bound:,} to {bound:,}"
        elif (n := _whole(played)) is None or not 0 <= n <= rules.turn_cap:
            why = f"turns_played {played!r} is not a whole number from 0 to {rules.turn_cap}"
        elif (twice := seen.setdefault((t, turn), (number, fields)))[1] != fields:
            why = (f"trial {t}, turn {turn} is in the file twice with different results (lines "
                   f"{twice[0]} and {number})")
        if why is not None:
            raise RolloutFileError(f"{path}, line {number}: {why}: a rollout writes no such row (was the file edited, "
                               "or rows of another added?); write to another file")


def _whole(text: str) -> int | None:
    """A field that is a whole number (digits, a '-' before them or not) as one; None when it is not."""
    digits = text[1:] if text[:1] == "-" else text
    return int(text) if digits.isascii() and digits.isdigit() else None


def _number(text: str) -> float:
    """A field as a number; NaN when it is none (refused by every check it is given to), '1_0' too."""
    try:
        return number_text(text)
    except ValueError:
        return math.nan


def load_rollout(path: str | os.PathLike[str]) -> pd.DataFrame:
    """A rollout file's rows: trial, turn, result, turns_played."""
    return ROLLOUT_FILE.load(path)
