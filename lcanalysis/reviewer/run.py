"""Running a review: the record's turns handed out as jobs to an executor, judgements kept and
resumed, and the answer assembled and reconciled."""

from __future__ import annotations

import copy
import hashlib
import json
import math
import os
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from concurrent.futures import FIRST_COMPLETED, Executor, Future, wait
from typing import Any

import numpy as np

from lcanalysis.core.pool import worker_pool
from lcanalysis.game.cards import Card
from lcanalysis.game.position import Position
from lcanalysis.game.records import MatchRecord, RoundRecord, read_record
from lcanalysis.game.view import View
from lcanalysis.match_equity import MatchEquity, table_caveat
from lcanalysis.options import MAX_WORKERS, brief, check_seed  # worker processes (as a tournament's)
from lcanalysis.progress import progress_bar, ticking
from lcanalysis.reviewer.judge import Job, review_turn, round_codes
from lcanalysis.reviewer.report import Decision, Draw, PlayerSummary, Review
from lcanalysis.reviewer.settings import (
    ADVISOR_PLAYOUT_POLICY,
    AHEAD_PER_WORKER,
    DEFAULT_TIME,
    HAND_MODEL,
    IN_FLIGHT,
    LUCK_HAND_MODEL,
    MARKS,
    MAX_TIME,
    MIN_RATED,
    PLAYOUT_POLICY,
    PLAYOUT_RATE,
    REVIEW_VERSION,
    SCHEDULE,
    SEARCH_FLOOR,
    STREAMS,
    TICK_SECONDS,
    ReviewError,
    mark_for,
    rating_for,
)
from lcanalysis.reviewer.words import match_note_text

# --- the review ------------------------------------------------------------------------------------


def review(record: Any, *, player: int | None = None, time_budget: float = DEFAULT_TIME, seed: int = 0,
           executor: str | Executor | None = None, workers: int | None = None, progress: bool = True,
           search_floor: float = SEARCH_FLOOR, judged: Mapping[tuple[int, int], Mapping[str, Any]] | None = None,
           on_judged: Callable[[dict[str, Any]], None] | None = None) -> Review:
    """Review a record (anything ``records.read_record`` reads): every decision of ``player`` (0, 1,
    or None for both; a one-player record reviews its recording player), the luck of every deck
    draw the record shows. ``time_budget``: seconds a decision (rollout counts, module docstring).
    ``executor``: None for a process pool of ``workers`` (default: every core), ``"serial"``, or
    any ``concurrent.futures.Executor`` (a dask cluster's ``client.get_executor()`` too; a seeded
    review is the same on every executor). ``search_floor``: the advisor's least budget (seconds
    of its node count) with ``SEARCH_CARDS`` cards or fewer left (0: none, as before it existed).
    ``progress``: a bar on standard error over the turns (True or False).

    Returns a ``Review`` (``print`` gives it in words, ``to_json`` as plain values): each
    ``Decision``'s loss against the best turn, in points of the round's final score difference,
    an estimate with its standard error (``loss_stderr``), exact where the endgame solver judged it
    (``exact``), or a lower bound where the endgame search only bounded it (``loss_bound``); the luck
    of each deck draw, with its standard error; and each player's totals, error rate and rating.

    Resuming: ``on_judged`` is called with each turn's judgement (a dict of JSON values, keyed by
    its ``"round"`` and ``"index"``) as soon as it is made, in the order the turns finish;
    ``judged`` maps ``(round, index)`` to judgements an earlier review with the same record and
    settings (``keep_settings``) made, and those turns are not judged again. A seeded review
    resumed so is the one made in one go; its ``seconds`` count the earlier runs' time too, as far
    as their kept turns (each judgement's ``"elapsed"``: the seconds its run took from the turn
    judged before it, or from its start), not what a stopped run spent after its last one."""
    if not isinstance(progress, (bool, np.bool_)):  # "no" would show the bar
        raise ReviewError(f"progress must be True or False, got {progress!r}")
    rec = read_record(record, progress=progress)
    if player is not None and (isinstance(player, bool) or not isinstance(player, (int, np.integer))
                               or player not in (0, 1)):  # (1.0 == 1, but indexes nothing)
        raise ReviewError(f"player must be 0, 1 or None, got {player!r}")
    player = None if player is None else int(player)
    real = (int, float, np.integer, np.floating)  # numpy's too (a slider's, an array's), as advise's
    if (isinstance(time_budget, bool) or not isinstance(time_budget, real)
            or not 0 < time_budget <= MAX_TIME):  # (nan, inf, an int past a float's range: math.isfinite raised)
        raise ReviewError(f"time_budget must be seconds above 0 and at most {MAX_TIME:g}, got {brief(time_budget)}")
    seed = check_seed("seed", seed, ReviewError)  # an int (numpy's too): written as JSON by keep_settings
    if (isinstance(search_floor, bool) or not isinstance(search_floor, real)
            or not 0 <= search_floor <= MAX_TIME):
        raise ReviewError(f"search_floor must be seconds from 0 to {MAX_TIME:g}, got {brief(search_floor)}")
    if workers is not None and (isinstance(workers, bool) or not isinstance(workers, (int, np.integer))
                                or not 1 <= workers <= MAX_WORKERS):
        raise ReviewError(f"workers must be a whole number from 1 to {MAX_WORKERS}, got {workers!r}")
    workers = None if workers is None else int(workers)
    if executor is not None and executor != "serial" and not isinstance(executor, Executor):
        raise ReviewError(f"executor must be None, 'serial' or a concurrent.futures.Executor, got {executor!r}")
    if on_judged is not None and not callable(on_judged):  # (else refused only once the first turn was judged)
        raise ReviewError(f"on_judged must be a function taking a turn's judgement (a dict), or None, "
                          f"got {on_judged!r}")
    if judged is not None and not isinstance(judged, Mapping):
        raise ReviewError(f"judged must map (round, index) to the judgements on_judged was given, or be None, "
                          f"got {type(judged).__name__}")
    rounds = rec.rounds if isinstance(rec, MatchRecord) else [rec]
    viewer = rounds[0].viewer
    for r, other in enumerate(rounds[1:], start=2):
        if other.viewer != viewer:  # the totals would mix what one player saw with what another did
            raise ReviewError(f"round {r} is {_kept_by(other.viewer)} but round 1 is {_kept_by(viewer)}: a match is "
                              f"reviewed from records kept alike in every round; review its rounds one by one")
    if viewer is not None and player is not None and player != viewer:
        raise ReviewError(f"this is player {viewer}'s record: player {player}'s cards are unknown")
    reviewed = {viewer} if viewer is not None else ({0, 1} if player is None else {player})
    turns = {(r, i): mover in reviewed for r, rec in enumerate(rounds, start=1)
             for i, (mover, drawn) in enumerate(rec.movers_and_draws()) if _judged(rec, mover, drawn, reviewed)}
    if not turns:
        raise ReviewError("the record holds no turn to review")
    kept = _kept(judged or {}, turns, rec)
    t0 = time.perf_counter()
    jobs = _jobs(rounds, reviewed, float(time_budget), seed, float(search_floor), skip=kept,
                 matches=_match_scores(rec))
    results, used = _run(jobs, len(turns), executor, workers, progress, kept=list(kept.values()), on_judged=on_judged,
                         started=t0)
    # this run's time, and the earlier runs' up to the last turn each of them kept
    earlier = sum(float(x.get("elapsed", 0.0)) for x in kept.values())
    seconds = time.perf_counter() - t0 + earlier
    rv = _assemble(rounds, results, reviewed, float(time_budget), seed, seconds, used,
                   "a match" if isinstance(rec, MatchRecord) else "a round", viewer)
    rv.earlier_turns, rv.earlier_seconds = len(kept), earlier
    rv.search_floor = float(search_floor)
    rv.match_rounds = rec.rules.rounds if isinstance(rec, MatchRecord) else None
    if isinstance(rec, MatchRecord) or any(rounds[r - 1].start.match for r in {d.round for d in rv.decisions}):
        rules = rounds[0].rules  # (a round's views share its start's match; a 6-colour match: a rough guide)
        rv.match_note = match_note_text(table_caveat(MatchEquity.load(rules=rules), rules))
    names = rec.players or rounds[0].players
    rv.names = list(names) if names else None
    for summary in rv.players:
        summary.name = names[summary.player] if names else None  # (a record names both players or none)
    return rv


def keep_settings(record: Any, *, player: int | None = None, time_budget: float = DEFAULT_TIME, seed: int = 0,
                  search_floor: float = SEARCH_FLOOR) -> dict[str, Any]:
    """What decides a review's judgement of a turn, as JSON values: the record (a SHA-256 of its
    compact JSON form, ``to_json(compact=True)``, unchanged since judgements were first kept), the
    options of ``review``, the method's settings (the advisor's hand model, streams, schedule and
    play-out rate, the policy that measures the losses and the one the advisor that names the best turn plays,
    the luck's hand model) and the review's version
    (``REVIEW_VERSION``). Judgements
    kept for ``review``'s ``judged`` are reused only under the same settings (``lcanalysis review
    --out`` refuses a file made with others, naming them, and one another version of the review
    kept, naming both): a turn judged under others would be another review's."""
    rec = read_record(record, progress=False)
    viewer = (rec.rounds[0] if isinstance(rec, MatchRecord) else rec).viewer
    player = viewer if player is None else player  # (a one-player record reviews its player either way)
    text = json.dumps(rec.to_json(compact=True), sort_keys=True, separators=(",", ":"))  # (the form kept files hashed)
    return {"record_sha256": hashlib.sha256(text.encode("utf-8")).hexdigest(), "player": player,
            "time": float(time_budget), "seed": seed, "search_floor": float(search_floor),
            "hand_model": HAND_MODEL, "streams": STREAMS, "schedule": SCHEDULE, "playout_rate": PLAYOUT_RATE,
            "playout_policy": PLAYOUT_POLICY, "advisor_playout_policy": ADVISOR_PLAYOUT_POLICY,
            "luck_hand_model": LUCK_HAND_MODEL, "review_version": REVIEW_VERSION}


def judgement_text(result: Mapping[str, Any]) -> str:
    """A turn's judgement (what ``review``'s ``on_judged`` is given) as one line of JSON that
    ``judgement_of`` reads back equal: every float in full (``repr``), numpy numbers as Python's."""
    def plain(x: Any) -> Any:
        if isinstance(x, np.bool_):
            return bool(x)
        if isinstance(x, np.integer):
            return int(x)
        if isinstance(x, np.floating):
            return float(x)
        raise TypeError(f"a turn's judgement holds {type(x).__name__}, which JSON cannot keep")

    return json.dumps(result, default=plain, separators=(",", ":"))


def judgement_of(text: str) -> dict[str, Any]:
    """A judgement written by ``judgement_text``; raises ``ValueError`` for text that is not one."""
    x = json.loads(text)
    if not isinstance(x, dict) or not all(isinstance(x.get(k), int) for k in ("round", "index")) \
            or not isinstance(x.get("analysed"), bool):
        raise ValueError(f"not a turn's judgement: {text[:60]!r}")
    return x


def kept_turn_misfit(record: RoundRecord | MatchRecord, judgement: Mapping[str, Any]) -> str | None:
    """Why a kept judgement is not of the turn the record played at its round and index, both
    turns named (a kept file edited by hand, or another record's rows pasted in); None when it is,
    or when the record has no such turn (``review`` says that)."""
    rounds = record.rounds if isinstance(record, MatchRecord) else [record]
    r, i, played = judgement.get("round"), judgement.get("index"), judgement.get("played")
    if not (isinstance(r, int) and isinstance(i, int) and 1 <= r <= len(rounds) and 0 <= i < len(rounds[r - 1].turns)):
        return None
    turn = str(rounds[r - 1].turns[i].move)
    if played == turn:
        return None
    return (f"the judgement of round {r} turn {i} is of the turn {brief(played)} played, "
            f"but the record's turn {i} is {turn}")


def _kept(judged: Mapping[tuple[int, int], Mapping[str, Any]], turns: Mapping[tuple[int, int], bool],
          record: RoundRecord | MatchRecord) -> dict[tuple[int, int], dict[str, Any]]:
    """The judgements of ``judged`` to reuse, checked against the turns the review judges (``turns``:
    (round, index) -> whether its decision is judged, not only its luck) and the turns ``record`` played."""
    kept = {}
    for key, x in judged.items():
        if not isinstance(key, tuple) or len(key) != 2 or not isinstance(x, Mapping):
            raise ReviewError(f"judged must map (round, index) to the judgements on_judged was given, got "
                              f"{str(key)[:40]} -> {type(x).__name__}")
        r, i = key
        if turns.get(key) is None:
            raise ReviewError(f"a kept judgement is of round {r} turn {i}, which this review does not judge: "
                              "it was made for another record or player")
        if (x.get("round"), x.get("index")) != key or x.get("analysed") is not turns[key]:
            raise ReviewError(f"the kept judgement of round {r} turn {i} does not fit that turn "
                              f"(round {x.get('round')!r}, index {x.get('index')!r}, analysed {x.get('analysed')!r})")
        misfit = kept_turn_misfit(record, x)
        if misfit:
            raise ReviewError(f"a kept judgement does not fit the record: {misfit}")
        elapsed = x.get("elapsed", 0.0)
        if isinstance(elapsed, bool) or not isinstance(elapsed, (int, float)) or not 0 <= elapsed < math.inf:
            raise ReviewError(f"the kept judgement of round {r} turn {i} gives its run's seconds as {elapsed!r}, "
                              "not a number of seconds >= 0")
        kept[key] = dict(x)
    return kept


def _kept_by(viewer: int | None) -> str:
    return "a full-deal record" if viewer is None else f"player {viewer}'s record"


class TurnViews(Mapping[tuple[int, int], View]):
    """The view before each reviewed decision, ``(round, index)`` -> ``View``, replayed from the
    record when asked (``RoundRecord.state``: fewer than ``records.CHECKPOINT`` turns from a kept
    state). A review keeps no view per turn: each holds the round's history so far, so all of them
    grew with the square of a record's length (470 MB for 10,000 turns)."""

    def __init__(self, rounds: Sequence[RoundRecord], keys: Sequence[tuple[int, int]]) -> None:
        self._rounds = list(rounds)
        self._keys = dict.fromkeys(keys)

    def __getitem__(self, key: tuple[int, int]) -> View:
        if key not in self._keys:
            raise KeyError(key)
        r, index = key
        before = self._rounds[r - 1].state(index)
        return before.view(before.to_move) if isinstance(before, Position) else before

    def __iter__(self) -> Iterator[tuple[int, int]]:
        return iter(self._keys)

    def __len__(self) -> int:
        return len(self._keys)


def _judged(rec: RoundRecord, mover: int, drawn: Card | None, reviewed: set[int]) -> bool:
    """Whether the review judges a turn of ``rec`` (its decision, the luck of its deck draw, or both):
    not the opponent's turns in a one-player record (their cards are unknown), nor a turn of a player
    not under review that draws no card the record knows. (A record holds no turn after the draw
    pile is empty: its replay refuses one.)"""
    if rec.viewer is not None and mover != rec.viewer:
        return False
    return mover in reviewed or drawn is not None


def _match_scores(record: RoundRecord | MatchRecord) -> dict[int, dict[str, Any]]:
    """A match record's score before each of its rounds, as a view carries it (``{"round": r, "totals": [a, b]}``,
    the running totals of the rounds before), so that the turns played out are ranked by their chance to win
    the match too; {} for a round record (whose start carries its own match score, if any)."""
    if not isinstance(record, MatchRecord):
        return {}
    scores, totals = {}, [0, 0]
    for r, rec in enumerate(record.rounds, start=1):
        scores[r] = {"round": r, "totals": list(totals)}
        a, b = rec.scores()
        totals = [totals[0] + a, totals[1] + b]
    return scores


def _jobs(rounds: Sequence[RoundRecord], reviewed: set[int], time_budget: float, seed: int,
          search_floor: float = SEARCH_FLOOR, skip: Mapping[tuple[int, int], Any] | None = None,
          matches: Mapping[int, dict[str, Any]] | None = None) -> Iterator[Job]:
    """The turns to judge (``_judged``), oldest first, each job built only when it is asked for;
    not those of ``skip`` (judged already). ``matches``: a match record's score before each round
    (``_match_scores``), given to a view whose round's start carries none."""
    for r, rec in enumerate(rounds, start=1):
        moves, codes = round_codes(rec)
        for step in rec.steps():
            if not _judged(rec, step.player, step.drawn, reviewed) or (skip and (r, step.index) in skip):
                continue
            before = step.before
            view = before.view(step.player) if isinstance(before, Position) else before
            if matches and r in matches and view.match is None:
                view = copy.copy(view)  # (a one-player record's kept view is left as it was)
                view.match = {"round": r, "totals": list(matches[r]["totals"])}
            drawn = str(step.drawn) if step.drawn is not None else None
            pile = list(before.deck) if isinstance(before, Position) else None
            n = len(view.history)  # the round's history so far (checked at its last turn, else sent whole)
            same = n <= len(moves) and (n == 0 or view.history[n - 1] == moves[n - 1])
            yield Job(r, step.index, step.player, view, str(step.turn.move), drawn, time_budget, seed,
                       step.player in reviewed, pile, search_floor, codes[:n] if same else None)


def _run(jobs: Iterator[Job], total: int, executor: str | Executor | None, workers: int | None,
         progress: bool, kept: Sequence[dict[str, Any]] = (),
         on_judged: Callable[[dict[str, Any]], None] | None = None,
         started: float | None = None) -> tuple[list[dict[str, Any]], int | str]:
    """Judge the turns of ``jobs`` (``total`` with the ``kept`` ones, judged before), each built when
    it is handed out and dropped once judged: on an executor, at most ``IN_FLIGHT`` (or
    ``AHEAD_PER_WORKER`` a worker) are out at once; each judgement goes to ``on_judged`` as it comes,
    with its ``"elapsed"``: the seconds of ``time.perf_counter`` since the judgement before it came,
    or since ``started`` (default: now), so that a run's judgements add up to its time so far.
    The bar counts turns judged, the kept ones first."""
    bar = None
    if progress:
        bar = progress_bar(total=total, initial=len(kept), desc="review", unit="turn")
    # redrawn every second meanwhile: a decision the endgame search judges takes seconds, and the bar
    # (its time too) stood still through them
    stop_ticking = ticking(bar, TICK_SECONDS)
    results: list[dict[str, Any]] = list(kept)
    last = [time.perf_counter() if started is None else started]

    def done(result: dict[str, Any]) -> None:
        now = time.perf_counter()
        result["elapsed"], last[0] = now - last[0], now
        if on_judged is not None:
            on_judged(result)
        results.append(result)
        if bar is not None:
            bar.update(1)

    try:
        left = total - len(kept)
        # never more processes than turns left to hand out: each is a fork of this one
        n_workers = max(1, min(workers or os.cpu_count() or 1, left - 1))
        serial = executor == "serial" or (executor is None and n_workers == 1)
        first = next(jobs, None)
        if first is None:  # every turn was judged before
            return results, 1 if serial or executor is None else type(executor).__name__
        # the first turn runs here: the engine is then loaded before a pool forks its workers
        done(review_turn(first))
        if serial:
            for job in jobs:
                done(review_turn(job))
            return results, 1
        own = executor is None
        if own:
            ex: Executor = worker_pool(n_workers)  # (killed, even by SIGKILL, the review leaves none behind)
        else:
            assert isinstance(executor, Executor)
            ex = executor
        try:
            ahead = max(IN_FLIGHT, AHEAD_PER_WORKER * n_workers)
            pending: set[Future[dict[str, Any]]] = set()
            for job in jobs:
                pending.add(ex.submit(review_turn, job))
                if len(pending) >= ahead:
                    pending = _collect(pending, done)
            while pending:
                pending = _collect(pending, done)
        finally:
            if own:
                ex.shutdown(cancel_futures=True)
        return results, (n_workers if own else type(executor).__name__)
    finally:
        stop_ticking()
        if bar is not None:
            bar.close()


def _collect(pending: set[Future[dict[str, Any]]],
             done: Callable[[dict[str, Any]], None]) -> set[Future[dict[str, Any]]]:
    """Wait for one turn or more of ``pending`` to be judged, hand each result to ``done``; the rest."""
    finished, rest = wait(pending, return_when=FIRST_COMPLETED)
    for fut in finished:
        done(fut.result())
    return rest


def _assemble(rounds: Sequence[RoundRecord], results: list[dict[str, Any]], reviewed: set[int], time_budget: float,
              seed: int, seconds: float, workers: int | str, kind: str, viewer: int | None) -> Review:
    results.sort(key=lambda x: (x["round"], x["index"]))
    decisions: list[Decision] = []
    draws: list[Draw] = []
    fields = set(Decision.__dataclass_fields__)
    for x in results:
        if x["analysed"]:
            d = Decision(**{k: v for k, v in x.items() if k in fields}, mark=None)
            d.mark = mark_for(d.loss, d.loss_stderr, d.forced)
            decisions.append(d)
        else:
            draws.append(Draw(**{k: v for k, v in x.items() if k in Draw.__dataclass_fields__}))
    scores = [rec.scores() for rec in rounds]
    finished = all(rec.is_finished() for rec in rounds)
    players = []
    for p in sorted(reviewed):
        mine = [d for d in decisions if d.player == p]
        unforced = [d for d in mine if not d.forced]
        total = float(sum(d.loss for d in unforced))
        total_se = math.sqrt(sum(d.loss_stderr ** 2 for d in unforced))
        luck, luck_se, n_draws = _luck(decisions, draws, p)
        result = sum(s[p] - s[1 - p] for s in scores)
        if viewer is None:
            opp_luck, opp_se, _ = _luck(decisions, draws, 1 - p)
            adjusted = None if luck is None or opp_luck is None else result - (luck - opp_luck)
            adjusted_se = None if adjusted is None else math.hypot(luck_se or 0.0, opp_se or 0.0)
        else:
            adjusted = None if luck is None else result - luck
            adjusted_se = luck_se if adjusted is not None else None
        rate = total / len(unforced) if unforced else None
        marks = {name: sum(1 for d in mine if d.mark == name) for name, _ in MARKS}
        for_match = [d for d in mine if d.match_loss is not None]  # judged by play-outs, in a match
        # the chance to win the match given up: their sum, the standard errors in quadrature (each its own worlds)
        match_loss = float(sum(d.match_loss or 0.0 for d in for_match)) if for_match else None
        match_se = math.sqrt(sum((d.match_loss_stderr or 0.0) ** 2 for d in for_match)) if for_match else None
        players.append(PlayerSummary(p, len(mine), len(unforced), rate, total, total_se, luck, luck_se, n_draws,
                                     result, adjusted, rating_for(rate) if len(unforced) >= MIN_RATED else None,
                                     marks, adjusted_se, None if rate is None else total_se / len(unforced),
                                     bounded=sum(d.loss_bound == "lower" for d in unforced),
                                     match_loss=match_loss, match_loss_stderr=match_se,
                                     match_decisions=len(for_match)))
    recon = []
    if viewer is None and reviewed == {0, 1}:
        for r, rec in enumerate(rounds, start=1):
            recon.append(_reconcile(r, rec, [d for d in decisions if d.round == r]))
    return Review(decisions, draws, players, [x for x in recon if x],
                  ("a full-deal record" if viewer is None else f"player {viewer}'s record") + f" of {kind}",
                  len(rounds), time_budget, seed, seconds, workers, finished, viewer,
                  TurnViews(rounds, [(d.round, d.index) for d in decisions]), scores,
                  capped=[r for r, rec in enumerate(rounds, start=1) if rec.is_capped()],
                  turn_cap=rounds[0].rules.turn_cap)


def _luck(decisions: list[Decision], draws: list[Draw], p: int) -> tuple[float | None, float | None, int]:
    events: list[Decision | Draw] = [*decisions, *draws]
    items = [(x.luck, x.luck_stderr) for x in events if x.player == p and x.luck is not None]
    if not items:  # no deck draw of this player's in the record: a sum over none (the spec's luck is a number)
        return 0.0, 0.0, 0
    return float(sum(a or 0.0 for a, _ in items)), math.sqrt(sum((b or 0.0) ** 2 for _, b in items)), len(items)


def _reconcile(r: int, rec: RoundRecord, decisions: list[Decision]) -> dict[str, Any] | None:
    """actual = start + skill + luck + hidden, player 0's points (module docstring)."""
    if not decisions or not rec.is_finished() or len(decisions) != len(rec.turns):
        return None
    if any(d.value_reference is None for d in decisions):
        return None
    s0, s1 = rec.scores()
    actual = s0 - s1

    def sign(d: Decision) -> int:
        return 1 if d.player == 0 else -1

    first = decisions[0]
    start = sign(first) * float(first.value_reference)  # type: ignore[arg-type]
    start_var = float(first.value_reference_stderr or 0.0) ** 2
    skill_var = luck_var = 0.0
    skill = [0.0, 0.0]
    luck = [0.0, 0.0]
    hidden = 0.0
    bounded = 0
    for t, d in enumerate(decisions):
        gain = d.gain_vs_reference
        if gain is None:  # the endgame search only bounded the played or the reference turn: its values stand
            gain = float(d.value_played) - float(d.value_reference)  # type: ignore[arg-type]
            bounded += 1
        skill[d.player] += float(gain)
        skill_var += float(d.gain_vs_reference_stderr or 0.0) ** 2
        after = d.value_played  # the value after the turn, the mover's points
        if d.luck is not None:
            luck[d.player] += d.luck
            luck_var += float(d.luck_stderr or 0.0) ** 2
            after += d.luck
        if t + 1 < len(decisions):
            nxt = sign(decisions[t + 1]) * float(decisions[t + 1].value_reference or 0.0)
        else:
            nxt = float(actual)
        hidden += nxt - sign(d) * after
    return {"round": r, "actual": actual, "start": start, "skill": skill, "luck": luck, "hidden": hidden,
            "explained": start + skill[0] - skill[1] + luck[0] - luck[1],
            "stderr": math.sqrt(start_var + skill_var + luck_var), "start_stderr": math.sqrt(start_var),
            "skill_stderr": math.sqrt(skill_var), "luck_stderr": math.sqrt(luck_var),
            "bounded": bounded,
            "note": "player 0's points; skill = value of the played turn minus the reference (heuristic) turn's; "
                    "hidden = what each player's view could not see, zero on average"
                    + (f"; {bounded} decision(s) near the end carry a value the endgame search only bounded "
                       f"(more than its margin below the best), so their skill and hidden shares are bounds"
                       if bounded else "")}
