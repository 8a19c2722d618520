"""Study: is the advisor calibrated? (issue 15; notebooks/article_calibration.ipynb)

A value that "means what it says" should, over many positions, predict the result: among the
positions the advisor values at +10, the round should on average end 10 points up. The study:

1. Self-play rounds by a named pair of agents (default ``heuristic`` against ``heuristic``; round
   ``k`` is dealt by ``tournaments.specs.deal_seed(seed, k)`` and played by
   ``tournaments.runner.play_round``, ``agents[0]`` in seat ``k % 2``).
2. Positions across the whole round: every ``every``-th turn, from an offset that turns with the
   round (``(k // 2) % every``), so that the early, middle and end of a round, and both seats,
   are all represented. Each row records the cards left in the draw pile.
3. At each sampled position the mover's ``View`` is advised by ``lcanalysis.advise`` at its
   default budget (``time_budget=None``: 1 s of play-outs as a count, and up to 10 s of endgame
   search with 3 cards or fewer left), with a seed from ``(seed, round, turn)``. The row keeps
   the advisor's value and standard error of the turn actually played (and of its best turn).
4. The realized result: the round's final score difference, mover minus opponent. The same
   agents played the round on from the position, so this is the outcome the played turn led to.

**Which way the regression goes.** Issue 15 asks for "the advisor's value of the turn actually
played, regressed on the final score difference realized". Read literally (value on result),
even a perfect advisor would miss the target: the result is the value plus the luck still to
come, so that slope is var(value) / var(result), far below 1. Calibration is the other direction,
the usual one for forecasts: **the realized result (y) regressed on the advisor's value (x)**;
slope 1 and intercept 0 mean "a value of v predicts a result of v on average". That is the fit
reported (``calibration_fit``); the literal direction is reported beside it for the record.

Rows are read by ``load_calibration``; the fit's intervals come from a bootstrap over rounds
(the positions of one round share its deal and its result, so they are not independent); the
fit is also given by phase of the round (``calibration_by_phase``) and by how the played turn
was valued (``calibration_by_sample``). ``hands="both"`` advises the same positions from the
full position (both hands known), and ``compare_hands`` sets the two side by side: a check on
what the view's random deal of the opponent's unknown cards does to the values. Where the endgame
search answered (4 cards left or fewer), ``endgame_gap`` gives the mean result less the value by
cards left, and ``endgame_shift`` how far one run's values moved from another's on the same
positions (every split of the unseen cards alike against the splits weighted by the opponent-hand
model).

The published data are written by ``python -m lcanalysis.studies.calibration`` (``main``;
data/README.md names the command). The file is written row by row as the positions are
advised, and a run given the same file plays only what is missing (a torn last line, from a run
killed while writing, is dropped and recomputed); a file made with other settings is refused.
"""

from __future__ import annotations

import argparse
import contextlib
import math
import os
import shlex
import sys
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import Any

import numpy as np
import pandas as pd

from lcanalysis.clusters import cluster_totals, ratio_stderr
from lcanalysis.game.moves import Move
from lcanalysis.game.position import Position
from lcanalysis.game.rules import Rules
from lcanalysis.options import CommandParser, run_script
from lcanalysis.studies.estimate import Estimate, target_verdict
from lcanalysis.studies.estimate import clustered_mean as estimated_mean  # (an Estimate; ours gives a tuple)
from lcanalysis.studies.study_file import (
    ADVICE_CODE,
    ALLOW_CODE_CHANGE_HELP,
    StudyFile,
    add_endgame_splits_option,
    add_playout_policy_option,
)

#: the agents that play the rounds, by default
AGENTS = ("heuristic", "heuristic")
#: a position every this many turns
EVERY = 8
#: issue 15's targets for the calibration line (realized on predicted)
SLOPE_TARGET = (0.9, 1.1)
INTERCEPT_TARGET = (-1.0, 1.0)
#: phases of the round by cards left in the draw pile (5 colours: 44 after the deal); the last is
#: where the advisor answered by the endgame search, not by play-outs, when the published studies
#: were made (3 cards; since ``advisor.ENDGAME_CARDS`` is 4 the search answers at 4 too, in "late")
PHASES = ((30, 10_000, "early (30+ cards left)"), (15, 29, "middle (29-15)"), (4, 14, "late (14-4)"),
          (1, 3, "end (3-1, endgame search)"))
PHASE_NAMES = [name for _, _, name in PHASES]
#: the first line of a study file holds the settings it was made with, after this mark
HEADER_MARK = "# lcanalysis calibration study "
#: the settings that must match for a run to resume a file
IDENTITY_KEYS = ("agents", "seed", "every", "time_budget", "colors", "hands", "hand_model", "streams", "schedule",
                 "endgame_cards", "playout_rate", "playout_policy", "endgame_splits", "hand_model_weights")
#: what the advisor is given: the mover's view (what a player knows), or the full position ("both":
#: both hands known, only the order of the draw pile left to chance; a check on the view's worlds)
HANDS = ("view", "both")

COLUMNS = ["round", "deal_seed", "turn", "mover", "mover_agent", "opponent_agent", "cards_left", "phase", "played",
           "played_value", "played_stderr", "played_worlds", "first_stage_worlds", "played_bound", "best",
           "best_value", "best_stderr", "played_is_best", "loss", "loss_stderr", "kind", "exact", "max_stalls",
           "advisor_seed", "cpu_seconds", "final_mover", "final_opponent", "realized", "round_turns", "capped",
           "view"]


def phase_of(cards_left: int) -> str:
    """The phase of the round (``PHASES``) with ``cards_left`` cards in the draw pile."""
    for low, high, name in PHASES:
        if low <= cards_left <= high:
            return name
    raise ValueError(f"{cards_left} cards left: no turn is played with an empty draw pile")


def advisor_seed(seed: int, round_index: int, turn: int) -> int:
    """The advisor's seed at one position: from (seed, round, turn) only, so a resumed run and an
    uninterrupted one advise every position alike."""
    ss = np.random.SeedSequence([int(seed), int(round_index), int(turn), 15])
    return int(ss.generate_state(1, dtype=np.uint64)[0] >> np.uint64(1))


def sampled_turns(round_index: int, turns: int, every: int = EVERY) -> list[int]:
    """The turns of round ``round_index`` (``turns`` turns long) whose positions are advised."""
    return list(range((round_index // 2) % every, turns, every))


# --- playing and advising -----------------------------------------------------------------------


def play_calibration_round(round_index: int, agents: Sequence[str] = AGENTS, seed: int = 0,
                           rules: Rules | None = None) -> dict[str, Any]:
    """Round ``round_index`` of the study, played out: ``agents[0]`` in seat ``round_index % 2``,
    dealt by ``deal_seed(seed, round_index)``, by ``tournaments.runner.play_round`` (each agent
    sees only its view). Returns the deal seed, the seats' agent names, the turns played, the
    final scores, the turn count and whether the round hit the turn cap."""
    from lcanalysis.tournaments.specs import deal_seed

    names = list(agents) if round_index % 2 == 0 else list(agents)[::-1]
    return play_recorded_round(names, deal_seed(seed, round_index), rules)


def play_recorded_round(names: Sequence[str], deal: int, rules: Rules | None = None,
                        start: int = 0) -> dict[str, Any]:
    """One round of ``names`` (one agent a seat, ``agents.make_agent`` names) on deal ``deal`` with seat
    ``start`` to move first, by ``tournaments.runner.play_round`` (each agent sees only its view), its turns
    recorded: the deal seed, the seats, the turns, the final scores, whether the turn cap ended it and the
    starting seat (``positions_of`` replays it)."""
    from lcanalysis.agents import make_agent
    from lcanalysis.tournaments.runner import play_round

    rules = rules or Rules()
    turns: list[str] = []
    row = play_round([make_agent(n) for n in names], deal, rules, start, record=turns)
    return {"deal_seed": deal, "seats": list(names), "turns": turns,
            "scores": (int(row["score0"]), int(row["score1"])), "capped": bool(row["capped"]), "start": start}


def positions_of(played: dict[str, Any], rules: Rules | None = None) -> Iterator[tuple[int, Position]]:
    """Every position of a played round (``play_recorded_round``) before each turn: (turn, position)."""
    rules = rules or Rules()
    pos = Position.deal(played["deal_seed"], rules, played["start"])
    for t, move in enumerate(played["turns"]):
        yield t, pos.copy()
        pos.push(Move.parse(move, rules.colors))


def advise_position(view: Any, played: str, seed: int, time_budget: float | None = None,
                    hand_model: bool | np.ndarray | None = None, streams: bool | None = None,
                    schedule: str | None = None, endgame_cards: int | None = None,
                    playout_rate: int | None = None, playout_policy: str | None = None,
                    endgame_splits: str | None = None) -> dict[str, Any]:
    """``lcanalysis.advise(view, time_budget, seed, hand_model=...)`` (``view`` may also be a full ``Position``,
    advised with both hands known) and what it says of the turn ``played`` and
    of its best turn: value, standard error, worlds (play-outs; ``first_stage_worlds``, the
    fewest any turn got, is the first stage's sample, which every turn gets), whether the value is only an
    upper bound (the endgame search bounds a turn it shows to be worse), the loss of the played
    turn, what kind of answer it was, and the CPU seconds it took."""
    from lcanalysis.advisor import ENDGAME_CARDS, advise

    c0 = time.process_time()
    an = advise(view, time_budget=time_budget, seed=seed, hand_model=hand_model, streams=streams, schedule=schedule,
                endgame_cards=ENDGAME_CARDS if endgame_cards is None else endgame_cards, playout_rate=playout_rate,
                playout_policy=playout_policy, endgame_splits=endgame_splits)
    cpu = time.process_time() - c0
    mine = next((m for m in an.moves if m.move == played), None)
    if mine is None:
        raise ValueError(f"the advisor lists no turn {played!r} for {view.to_string()}")
    best = an.moves[0]
    worlds = [m.extra["worlds"] for m in an.moves if "worlds" in m.extra]
    return {"played": played, "played_value": mine.value, "played_stderr": mine.stderr,
            "played_worlds": mine.extra.get("worlds", ""), "first_stage_worlds": min(worlds) if worlds else "",
            "played_bound": mine.upper_bound,
            "best": best.move, "best_value": best.value, "best_stderr": best.stderr,
            # the best turn, or one with the very same outcomes (successive halving's best need not hold the top mean)
            "played_is_best": mine.move == best.move or (mine.value, mine.stderr) == (best.value, best.stderr),
            "loss": mine.loss, "loss_stderr": mine.loss_stderr,
            "kind": an.kind, "exact": an.exact, "max_stalls": an.bounds.get("max_stalls", ""),
            "advisor_seed": seed, "cpu_seconds": cpu}


# --- the study file: written row by row, resumed ------------------------------------------------


def _identity(agents: Sequence[str], seed: int, every: int, time_budget: float | None, colors: int,
              hands: str = "view", hand_model: bool = False, streams: bool = False,
              schedule: str = "two-stage", endgame_cards: int = 3, playout_rate: int = 6000,
              playout_policy: str = "plain", endgame_splits: str = "uniform",
              hand_model_weights: list[float] | None = None) -> dict[str, Any]:
    from lcanalysis import __version__

    return {"agents": list(agents), "seed": int(seed), "every": int(every), "time_budget": time_budget,
            "colors": int(colors), "hands": hands, "hand_model": bool(hand_model), "streams": bool(streams),
            "schedule": schedule, "endgame_cards": int(endgame_cards), "playout_rate": int(playout_rate),
            "playout_policy": playout_policy, "endgame_splits": endgame_splits,
            "hand_model_weights": hand_model_weights, "lcanalysis": __version__}


#: the study's results file (``study_file.StudyFile``): one row a position, keyed by (round, turn)
STUDY_FILE = StudyFile("calibration study", HEADER_MARK, COLUMNS, keys=("round", "turn"),
                       identity_keys=IDENTITY_KEYS, bools=("played_bound", "played_is_best", "exact", "capped"),
                       defaults={"hands": "view", "hand_model": False, "streams": False, "schedule": "two-stage",
                                 "endgame_cards": 3, "playout_rate": 6000, "playout_policy": "plain",
                                 "endgame_splits": "uniform", "hand_model_weights": None},
                       code=ADVICE_CODE).made_by(__file__)


def read_identity(path: str | os.PathLike[str]) -> dict[str, Any]:
    """The settings a study file was made with (its first line; ``hands`` is "view", ``hand_model``
    and ``streams`` false, ``schedule`` "two-stage", ``endgame_cards`` 3, ``playout_rate`` 6000 and
    ``playout_policy`` "plain" unless it says otherwise)."""
    return STUDY_FILE.read_identity(path)


def load_calibration(path: str | os.PathLike[str]) -> pd.DataFrame:
    """A study file as a table, one row a position (``COLUMNS``), its settings in ``attrs["identity"]``.
    A torn last line (a run killed while writing it) is left out."""
    return STUDY_FILE.load(path)


def _round_turns(path: str) -> dict[int, int]:
    """How many turns each round of a study file lasted, as its rows say (``round_turns``): a
    round's positions (``sampled_turns``) are known from it without playing the round again. Empty
    when ``path`` is missing or does not read (``StudyFile.open`` says why)."""
    if not os.path.exists(path):
        return {}
    try:
        rows = load_calibration(path)
        return dict(zip(rows["round"].astype(int), rows["round_turns"].astype(int), strict=True))
    except (ValueError, KeyError, OSError):
        return {}


def _units_held(turns: dict[int, int], rounds: int, every: int) -> list[tuple[int, int]] | None:
    """The positions (round, turn) a run of ``rounds`` rounds advises, when a file whose rounds
    lasted ``turns`` (``_round_turns``) shows them all without a round played. None when it lacks a
    round (work is left, or with ``every`` above a round's length the round had no position: either
    way resuming is judged as for work left)."""
    if any(k not in turns for k in range(rounds)):
        return None
    return [(k, t) for k in range(rounds) for t in sampled_turns(k, turns[k], every)]


def calibration_study(rounds: int, agents: Sequence[str] = AGENTS, seed: int = 0, every: int = EVERY,
                      time_budget: float | None = None, out: str | os.PathLike[str] | None = None,
                      colors: int = 5, hands: str = "view", hand_model: bool | None = None,
                      progress: Callable[[str], None] | None = None, streams: bool | None = None,
                      schedule: str | None = None, endgame_cards: int | None = None,
                      command: str | None = None, playout_rate: int | None = None,
                      allow_code_change: bool = False, playout_policy: str | None = None,
                      endgame_splits: str | None = None, hand_model_weights: Sequence[float] | None = None
                      ) -> pd.DataFrame:
    """Play ``rounds`` rounds (``play_calibration_round``), advise every ``every``-th position
    (``sampled_turns``, ``advise_position``) and return one row a position (``COLUMNS``).

    ``time_budget``: the advisor's (None: its default, 1 s of play-outs and up to 10 s of endgame
    search). ``out``: a CSV file written row by row (on the disk before the next position is
    advised); given an existing file made with the same settings, only the positions missing
    from it are advised (more ``rounds`` extend it), and the table returned is the whole file.
    ``hands="both"`` advises the full position instead of the mover's view (both hands known,
    only the order of the draw pile sampled): not what a player can ask, but it shows what the
    view's sampled worlds of the opponent's hand cost. ``hand_model``: whether the advisor deals
    the opponent's unknown cards by the learned model (``advise(..., hand_model=...)``; ``None``:
    the advisor's default, ``advisor.HAND_MODEL_DEFAULT``); recorded in the file's settings (false
    with ``hands="both"``, where the opponent's hand is known and the model is not used).
    ``streams``: the advisor's draw streams (``None``: ``advisor.STREAMS_DEFAULT``); recorded
    too, files made before them read as made without. ``schedule``: the advisor's
    (``advisor.SCHEDULES``; ``None``: its default), files made before successive halving read as
    "two-stage". ``endgame_cards``: from how many cards left the endgame search answers
    (``None``: ``advisor.ENDGAME_CARDS``); files made before the hand-over moved to 4 read as 3.
    ``playout_rate``: the advisor's play-outs a second of budget (``None``:
    ``advisor.ROLLOUTS_PER_SECOND``); files made before it was raised read as 6,000.
    ``playout_policy``: the advisor's play-out policy (``advisor.PLAYOUT_POLICY_CHOICES``; ``None``: its
    default, ``advisor.PLAYOUT_POLICY_DEFAULT``, "staged": the stalling heuristic from
    ``advisor.STALLING_FROM_CARDS`` cards down, the plain one before); files made before the choice read
    as "plain". ``endgame_splits``: how the advisor's endgame search weighs the splits of the unseen cards
    (``options.ENDGAME_SPLITS``; ``None``: ``options.ENDGAME_SPLITS_DEFAULT``); files made before the choice
    read as "uniform" (with ``hands="both"`` nothing is hidden: recorded as "uniform").
    ``hand_model_weights``: the opponent-hand model's weights the advisor uses (``hand_model.FEATURES`` order,
    as ``hand_model.weights_from_json`` reads a file; ``None``: the shipped ones), recorded in the settings.
    ``progress`` receives a line of text after each round. ``command``: the command line, written
    to ``out`` + ".cmd" once ``out`` is open and its settings match. A file whose rows other code
    wrote (the agents', the engine's or the advisor's: ``study_file.ADVICE_CODE``), or an
    unversioned one, is refused unless ``allow_code_change``, or unless it holds every position
    the run would advise (nothing to write, nothing can mix): then it is read as it is."""
    if hands not in HANDS:
        raise ValueError(f"hands must be one of {HANDS}, got {hands!r}")
    rules = Rules(colors=colors)
    if hand_model is None:
        from lcanalysis.advisor import HAND_MODEL_DEFAULT

        hand_model = HAND_MODEL_DEFAULT
    hand_model = bool(hand_model) and hands == "view"
    if streams is None:
        from lcanalysis.advisor import STREAMS_DEFAULT

        streams = STREAMS_DEFAULT
    from lcanalysis.advisor import SCHEDULE_DEFAULT, check_playout_rate, check_schedule

    schedule = SCHEDULE_DEFAULT if schedule is None else check_schedule(schedule)
    if endgame_cards is None:
        from lcanalysis.advisor import ENDGAME_CARDS

        endgame_cards = ENDGAME_CARDS
    if isinstance(endgame_cards, bool) or not isinstance(endgame_cards, int) or endgame_cards < 0:
        raise ValueError(f"endgame_cards must be a whole number of cards, 0 or more, got {endgame_cards!r}")
    playout_rate = check_playout_rate(playout_rate)
    from lcanalysis.advisor import PLAYOUT_POLICY_DEFAULT, check_playout_policy

    playout_policy = PLAYOUT_POLICY_DEFAULT if playout_policy is None else check_playout_policy(playout_policy)
    from lcanalysis.advisor import check_endgame_splits

    endgame_splits = check_endgame_splits(endgame_splits) if hands == "view" else "uniform"
    weights = None if hand_model_weights is None or not hand_model else [float(w) for w in hand_model_weights]
    identity = _identity(agents, seed, every, time_budget, colors, hands, hand_model, bool(streams), schedule,
                         endgame_cards, playout_rate, playout_policy, endgame_splits, weights)
    dealer: bool | np.ndarray = hand_model if weights is None else np.array(weights)
    rows: list[dict[str, Any]] = []
    turns = _round_turns(os.fspath(out)) if out is not None else {}
    with contextlib.ExitStack() as stack:
        write, done = (stack.enter_context(STUDY_FILE.open(
            os.fspath(out), identity, command, allow_code_change,
            units=_units_held(turns, rounds, every))) if out is not None else (None, set()))
        for k in range(rounds):
            c0 = time.process_time()
            held = sampled_turns(k, turns[k], every) if k in turns else None
            if held is not None and all((k, t) in done for t in held):
                if progress is not None:  # (every position of the round in the file: it is not played again)
                    progress(f"round {k + 1}/{rounds}: 0 position(s) advised, {len(held)} already in the file")
                continue
            played = play_calibration_round(k, agents, seed, rules)
            sampled = sampled_turns(k, len(played["turns"]), every)
            wanted = {t for t in sampled if (k, t) not in done}
            s = played["scores"]
            for t, pos in positions_of(played, rules) if wanted else ():
                if t not in wanted:
                    continue
                me = pos.to_move
                view = pos.view(me)
                row: dict[str, Any] = {
                    "round": k, "deal_seed": played["deal_seed"], "turn": t, "mover": me,
                    "mover_agent": played["seats"][me], "opponent_agent": played["seats"][1 - me],
                    "cards_left": pos.deck_count, "phase": phase_of(pos.deck_count)}
                row.update(advise_position(view if hands == "view" else pos, played["turns"][t],
                                           advisor_seed(seed, k, t), time_budget, dealer, bool(streams),
                                           schedule, endgame_cards, playout_rate, playout_policy, endgame_splits))
                row.update({"final_mover": s[me], "final_opponent": s[1 - me], "realized": s[me] - s[1 - me],
                            "round_turns": len(played["turns"]), "capped": played["capped"],
                            "view": view.to_string()})
                if write is not None:
                    write(row)
                rows.append(row)
            if progress is not None:
                progress(f"round {k + 1}/{rounds}: {len(wanted)} position(s) advised, "
                         f"{len(sampled) - len(wanted)} already in the file; {time.process_time() - c0:.1f} s CPU")
    if out is not None:
        return load_calibration(out)
    return STUDY_FILE.frame(rows, identity)


# --- the fit --------------------------------------------------------------------------------------


def ols(x: Sequence[float] | np.ndarray, y: Sequence[float] | np.ndarray) -> dict[str, float]:
    """Ordinary least squares of ``y`` on ``x``: slope, intercept, their textbook standard errors
    (independent residuals, which positions of one round are not: see ``round_bootstrap``),
    R² and n."""
    xa, ya = np.asarray(x, float), np.asarray(y, float)
    n = xa.size
    if n < 3 or np.ptp(xa) == 0:
        return {"slope": math.nan, "intercept": math.nan, "slope_se": math.nan, "intercept_se": math.nan,
                "r2": math.nan, "n": n}
    xm, ym = xa.mean(), ya.mean()
    sxx = float(((xa - xm) ** 2).sum())
    slope = float(((xa - xm) * (ya - ym)).sum() / sxx)
    intercept = float(ym - slope * xm)
    resid = ya - intercept - slope * xa
    s2 = float((resid**2).sum() / (n - 2))
    syy = float(((ya - ym) ** 2).sum())
    return {"slope": slope, "intercept": intercept, "slope_se": math.sqrt(s2 / sxx),
            "intercept_se": math.sqrt(s2 * (1 / n + xm**2 / sxx)),
            "r2": 1 - float((resid**2).sum()) / syy if syy > 0 else math.nan, "n": n}


def round_bootstrap(x: Sequence[float] | np.ndarray, y: Sequence[float] | np.ndarray,
                    clusters: Sequence[Any] | np.ndarray, samples: int = 2000, seed: int = 0) -> np.ndarray:
    """The OLS line of ``y`` on ``x`` refitted on ``samples`` bootstrap samples of whole clusters
    (rounds) drawn with replacement: an array of (slope, intercept) rows, the same for the same
    ``seed``. Each resample draws as many clusters as there are, from ``numpy.random.default_rng(seed)``."""
    xa, ya = np.asarray(x, float), np.asarray(y, float)
    _, inverse = np.unique(np.asarray(clusters), return_inverse=True)
    k = int(inverse.max()) + 1 if inverse.size else 0
    # per-cluster sums: n, Σx, Σy, Σxx, Σxy; a resample's sums are the counts times these
    sums = np.stack([np.bincount(inverse, weights=w, minlength=k)
                     for w in (np.ones_like(xa), xa, ya, xa * xa, xa * ya)], axis=1)
    rng = np.random.default_rng(seed)
    picks = rng.integers(0, k, size=(samples, k))
    counts = np.stack([np.bincount(row, minlength=k) for row in picks]).astype(float)
    n, sx, sy, sxx, sxy = (counts @ sums).T
    with np.errstate(invalid="ignore", divide="ignore"):
        slope = (n * sxy - sx * sy) / (n * sxx - sx * sx)
    intercept = (sy - slope * sx) / n
    return np.column_stack([slope, intercept])


def calibration_fit(study: pd.DataFrame, value: str = "played_value", samples: int = 2000,
                    seed: int = 0) -> dict[str, Any]:
    """The calibration line of a study table: the realized result (y, ``realized``) regressed on
    the advisor's value (x, ``value``) by OLS; slope 1 and intercept 0 mean calibrated.

    Returns the positions and rounds; slope and intercept with their OLS standard errors and
    with standard errors and 95% percentile intervals from ``round_bootstrap`` (``samples``
    resamples of whole rounds, ``seed``); R²; whether each meets issue 15's target
    (``SLOPE_TARGET``, ``INTERCEPT_TARGET``), by the point estimate and by the interval; the mean
    of realized minus value (the bias) with its standard error over rounds; the attenuation the
    advisor's own sampling noise alone would cause, 1 - mean(stderr²) / var(value) (the slope a
    perfectly calibrated advisor with these standard errors would show); and the literal
    direction of the issue's wording, the value regressed on the result, whose slope even a
    perfect advisor keeps near var(value) / var(result)."""
    d = study[np.isfinite(study[value].astype(float))]
    x = d[value].to_numpy(float)
    y = d["realized"].to_numpy(float)
    rounds = d["round"].to_numpy()
    line = ols(x, y)
    boot = round_bootstrap(x, y, rounds, samples, seed)
    ok = np.isfinite(boot).all(axis=1)
    boot = boot[ok]
    lo_s, hi_s = (np.percentile(boot[:, 0], [2.5, 97.5]) if len(boot) else (math.nan, math.nan))
    lo_i, hi_i = (np.percentile(boot[:, 1], [2.5, 97.5]) if len(boot) else (math.nan, math.nan))
    bias, bias_se, nr = clustered_mean(y - x, rounds)
    se_col = value.replace("_value", "_stderr")
    noise = float((d[se_col].astype(float) ** 2).mean()) if se_col in d else math.nan
    reverse = ols(y, x)
    boot_se = [float(boot[:, j].std(ddof=1)) if len(boot) > 1 else math.nan for j in (0, 1)]
    return {
        "value": value, "positions": len(x), "rounds": int(nr),
        "slope": line["slope"], "slope_se_ols": line["slope_se"], "slope_se": boot_se[0],
        "slope_low": float(lo_s), "slope_high": float(hi_s),
        "intercept": line["intercept"], "intercept_se_ols": line["intercept_se"],
        "intercept_se": boot_se[1], "intercept_low": float(lo_i), "intercept_high": float(hi_i),
        "r2": line["r2"], "bootstrap_samples": len(boot), "bootstrap_seed": seed,
        "slope_in_target": bool(SLOPE_TARGET[0] <= line["slope"] <= SLOPE_TARGET[1]),
        "intercept_in_target": bool(INTERCEPT_TARGET[0] <= line["intercept"] <= INTERCEPT_TARGET[1]),
        "slope_verdict": target_verdict(float(lo_s), float(hi_s), SLOPE_TARGET),
        "intercept_verdict": target_verdict(float(lo_i), float(hi_i), INTERCEPT_TARGET),
        "bias": bias, "bias_se": bias_se,
        "value_sd": float(x.std(ddof=1)) if len(x) > 1 else math.nan,
        "realized_sd": float(y.std(ddof=1)) if len(y) > 1 else math.nan,
        "noise_attenuation": 1 - noise / float(x.var(ddof=1)) if len(x) > 1 else math.nan,
        "reverse_slope": reverse["slope"], "reverse_intercept": reverse["intercept"],
    }


SAMPLE_GROUPS = ("played turn refined (larger sample)", "played turn on the first-stage sample only",
                 "endgame search")


def sample_group(study: pd.DataFrame) -> pd.Series:
    """How the advisor valued the played turn at each position: by play-outs with the larger
    sample of the turns it refined, by play-outs on the first-stage sample only (the turns that
    looked worse at first, whose values are chosen for looking low), or by the endgame search."""
    worlds = pd.to_numeric(study["played_worlds"], errors="coerce")
    first = pd.to_numeric(study["first_stage_worlds"], errors="coerce")
    out = np.where(worlds.isna(), SAMPLE_GROUPS[2], np.where(worlds > first, SAMPLE_GROUPS[0], SAMPLE_GROUPS[1]))
    return pd.Series(out, index=study.index)


def calibration_by(study: pd.DataFrame, groups: pd.Series | np.ndarray, order: Sequence[str],
                   value: str = "played_value", samples: int = 2000, seed: int = 0,
                   whole: str | None = "whole round") -> pd.DataFrame:
    """``calibration_fit`` for each group of positions (``groups``: a label a row, in ``order``)
    and, named ``whole``, for all of them, as a table: positions, rounds, slope and intercept with
    bootstrap standard errors and 95% intervals, R², bias (realized minus value) with its
    standard error, the value's spread, and how many values are only upper bounds."""
    labels = np.asarray(groups)
    parts = [(name, study[labels == name]) for name in order]
    if whole is not None:
        parts.append((whole, study))
    rows = []
    for name, part in parts:
        if part.empty:
            continue
        f = calibration_fit(part, value, samples, seed)
        rows.append({"group": name, "positions": f["positions"], "rounds": f["rounds"],
                     "slope": f["slope"], "slope s.e.": f["slope_se"], "slope 95% low": f["slope_low"],
                     "slope 95% high": f["slope_high"], "intercept": f["intercept"],
                     "intercept s.e.": f["intercept_se"], "intercept 95% low": f["intercept_low"],
                     "intercept 95% high": f["intercept_high"], "R²": f["r2"], "bias": f["bias"],
                     "bias s.e.": f["bias_se"], "value s.d.": f["value_sd"],
                     "upper bounds": int(part["played_bound"].sum()) if value == "played_value" else 0})
    return pd.DataFrame(rows).set_index("group")


def calibration_by_phase(study: pd.DataFrame, value: str = "played_value", samples: int = 2000,
                         seed: int = 0) -> pd.DataFrame:
    """``calibration_by`` the phase of the round (``PHASES``: cards left in the draw pile), and
    the whole round."""
    return calibration_by(study, study["phase"], PHASE_NAMES, value, samples, seed).rename_axis("phase")


#: the columns of ``calibration_by_phase`` that ``phase_table`` keeps: the fit with its 95% intervals and the bias
PHASE_COLUMNS = ["positions", "slope", "slope 95% low", "slope 95% high", "intercept", "intercept 95% low",
                 "intercept 95% high", "bias", "bias s.e."]


def phase_table(studies: pd.DataFrame | Mapping[str, pd.DataFrame], samples: int = 2000,
                seed: int = 0) -> pd.DataFrame:
    """``calibration_by_phase`` of one study, or of several one above the other (``{"before": ...,
    "after": ...}``: the names the outer level of the index), in ``PHASE_COLUMNS``: the table the
    calibration article compares runs by."""
    if isinstance(studies, pd.DataFrame):
        return calibration_by_phase(studies, samples=samples, seed=seed)[PHASE_COLUMNS]
    if not isinstance(studies, Mapping) or not studies:
        raise ValueError(f"phase_table: give a study (a DataFrame) or a dict of named studies, got {studies!r}")
    return pd.concat({name: calibration_by_phase(study, samples=samples, seed=seed)[PHASE_COLUMNS]
                      for name, study in studies.items()})


def fits_table(fits: Mapping[str, dict[str, Any]]) -> pd.DataFrame:
    """Named ``calibration_fit`` answers one above the other, each as ``summary_table`` gives it
    (slope and intercept, their errors, targets and verdicts): ``{"before": fit, "after": fit}``."""
    if not isinstance(fits, Mapping) or not fits:
        raise ValueError(f"fits_table: give a dict of named fits (calibration_fit's answers), got {fits!r}")
    return pd.concat({name: summary_table(fit) for name, fit in fits.items()})


def calibration_by_sample(study: pd.DataFrame, samples: int = 2000, seed: int = 0) -> pd.DataFrame:
    """``calibration_by`` how the played turn was valued (``sample_group``), and the whole round."""
    return calibration_by(study, sample_group(study), SAMPLE_GROUPS, "played_value", samples, seed)


def clustered_mean(values: np.ndarray, rounds: np.ndarray) -> tuple[float, float, int]:
    """The mean of ``values``, its standard error with a round's positions counted as one
    cluster (they share a deal and a result), and the number of rounds; the error is nan with
    fewer than two rounds (``lcanalysis.clusters``)."""
    if not len(values):
        return math.nan, math.nan, 0
    totals, counts = cluster_totals(values, rounds)
    mean, se = ratio_stderr(totals, counts)
    return mean, se, len(totals)


def binned_means(study: pd.DataFrame, value: str = "played_value", bins: int = 10) -> pd.DataFrame:
    """The positions in ``bins`` groups of about equal size by the advisor's value: in each, the
    mean value, the mean realized result and its standard error over the group's rounds (a
    round's positions in one group count as one sample), and the positions and rounds. The
    points of a calibration plot: calibrated means on the line y = x."""
    d = study[np.isfinite(study[value].astype(float))].sort_values(value, kind="stable")
    groups = np.array_split(np.arange(len(d)), min(bins, len(d))) if len(d) else []
    rows = []
    for g in groups:
        part = d.iloc[g]
        mean, se, k = clustered_mean(part["realized"].to_numpy(float), part["round"].to_numpy())
        rows.append({"value": float(part[value].mean()), "realized": mean, "realized s.e.": se,
                     "positions": len(part), "rounds": k})
    return pd.DataFrame(rows)


def _matched(first: pd.DataFrame, second: pd.DataFrame) -> tuple[pd.DataFrame, pd.DataFrame, pd.Index]:
    """Two studies indexed by (round, turn), and the positions both hold; a ValueError when they
    played different turns at one of them (not the same rounds)."""
    key = ["round", "turn"]
    a, b = first.set_index(key), second.set_index(key)
    common = a.index.intersection(b.index)
    if len(common) and (a.loc[common, "played"] != b.loc[common, "played"]).any():
        raise ValueError("the two studies played different turns at the same (round, turn): not the same rounds")
    return a, b, common


def same_positions(study: pd.DataFrame, other: pd.DataFrame) -> pd.DataFrame:
    """The rows of ``study`` at the positions, (round, turn), that ``other`` holds too: two runs
    compared on the same positions (a ValueError when they played different turns at one)."""
    a, _, common = _matched(study, other)
    return a.loc[common].reset_index()[study.columns]


def same_rounds(study: pd.DataFrame, other: pd.DataFrame) -> pd.DataFrame:
    """The rows of ``study`` from the rounds ``other`` holds (a run on fewer rounds against a published one)."""
    return study[study["round"].isin(set(other["round"]))]


def compare_hands(view_study: pd.DataFrame, both_study: pd.DataFrame, samples: int = 2000,
                  seed: int = 0) -> pd.DataFrame:
    """The same positions advised from the mover's view and with both hands known (a study run
    with ``hands="both"`` on the same seed and ``every``: its rounds are the first rounds of the
    view study), matched on (round, turn). For each: positions, rounds, the mean value of the
    turn played (with its standard error over rounds) and the mean result, the bias (result
    minus value) with its standard error over rounds, slope and intercept with their 95%
    intervals; and a last row, the paired difference of the two values (view minus both hands)
    on each position, whose mean (``mean value``, its standard error beside it) is what the
    view's sampled worlds add to the value."""
    a, b, common = _matched(view_study, both_study)
    rows = []
    for name, part in (("mover's view (what a player knows)", a.loc[common]),
                       ("both hands known (only the pile's order sampled)", b.loc[common])):
        part = part.reset_index()
        f = calibration_fit(part, samples=samples, seed=seed)
        mv, mv_se, _ = clustered_mean(part["played_value"].to_numpy(float), part["round"].to_numpy())
        rows.append({"advised": name, "positions": f["positions"], "rounds": f["rounds"],
                     "mean value": mv, "mean value s.e.": mv_se, "mean result": float(part["realized"].mean()),
                     "bias": f["bias"], "bias s.e.": f["bias_se"], "slope": f["slope"], "slope 95% low": f["slope_low"],
                     "slope 95% high": f["slope_high"], "intercept": f["intercept"],
                     "intercept 95% low": f["intercept_low"], "intercept 95% high": f["intercept_high"]})
    diff = (a.loc[common, "played_value"] - b.loc[common, "played_value"]).to_numpy(float)
    m, se, _ = clustered_mean(diff, np.asarray(common.get_level_values("round")))
    rows.append({"advised": "view minus both hands, same position", "positions": len(diff),
                 "rounds": int(common.get_level_values("round").nunique()), "mean value": m, "mean value s.e.": se})
    return pd.DataFrame(rows).set_index("advised")


def value_shift(before: pd.DataFrame, after: pd.DataFrame, value: str = "played_value") -> pd.DataFrame:
    """How far ``after``'s values moved from ``before``'s on the same positions (two studies of the
    same rounds, matched on round and turn; they must have played the same turns): for each
    stage of the round (``PHASE_NAMES``) and ``whole``, the positions, the rounds and the mean of
    after minus before with its standard error over rounds (``clustered_mean``)."""
    a, b, common = _matched(before, after)
    diff = (b.loc[common, value] - a.loc[common, value]).to_numpy(float)
    rounds = np.asarray(common.get_level_values("round"))
    phase = a.loc[common, "phase"].to_numpy()
    groups = [(name, np.ones(len(diff), bool) if name == "whole" else phase == name)
              for name in [*PHASE_NAMES, "whole"]]
    return _shift_rows(diff, rounds, groups, "phase")


def _shift_rows(diff: np.ndarray, rounds: np.ndarray, groups: Sequence[tuple[Any, np.ndarray]],
                label: str) -> pd.DataFrame:
    """A paired shift's table: for each (name, mask) of ``groups``, the positions, the rounds and the
    mean of ``diff`` with its standard error over rounds (``clustered_mean``), indexed by ``label``."""
    rows = []
    for name, keep in groups:
        mean, se, k = clustered_mean(diff[keep], rounds[keep])
        rows.append({label: name, "positions": int(keep.sum()), "rounds": k, "shift": mean, "shift s.e.": se})
    return pd.DataFrame(rows).set_index(label)


# --- the endgame search's answers against real play ---------------------------------------------

#: the cards left in the draw pile at which the hint's endgame search answers (``advisor.ENDGAME_CARDS``: 4)
ENDGAME_GAP_CARDS = (1, 2, 3, 4)
#: the kind of a row the play-outs valued, not the endgame search
PLAYOUT_KIND = "advisor estimate"


def _checked_cards(where: str, cards: Sequence[int]) -> list[int]:
    """``cards`` as a list of whole numbers of cards left, at least 1; else a ValueError naming ``where``."""
    if isinstance(cards, (str, bytes)) or not isinstance(cards, Sequence) or not cards or not all(
            isinstance(c, (int, np.integer)) and not isinstance(c, bool) and c >= 1 for c in cards):
        raise ValueError(f"{where}: cards must be a list of cards left in the draw pile, whole numbers from 1 "
                         f"(the endgame search's: {list(ENDGAME_GAP_CARDS)}), got {cards!r}")
    return [int(c) for c in cards]


def _named_studies(where: str, studies: Any) -> Mapping[str, pd.DataFrame]:
    """``studies`` as a dict of named study tables; a ValueError naming ``where`` otherwise."""
    if not isinstance(studies, Mapping) or not studies or not all(
            isinstance(d, pd.DataFrame) for d in studies.values()):
        raise ValueError(f"{where}: give a dict of named study tables ({{'every split alike': study, 'weighted': "
                         f"other}}, as load_calibration reads them), got {type(studies).__name__}")
    return studies


def _searched_gap(study: pd.DataFrame, cards: int) -> tuple[pd.DataFrame, np.ndarray]:
    """The rows of ``study`` with ``cards`` cards left that the endgame search answered, and each one's
    realized result less the value of the turn played."""
    part = study[(study["cards_left"] == cards) & (study["kind"] != PLAYOUT_KIND)]
    return part, (part["realized"] - part["played_value"]).to_numpy(float)


def endgame_gap(studies: Mapping[str, pd.DataFrame], cards: Sequence[int] = ENDGAME_GAP_CARDS) -> pd.DataFrame:
    """How far real play came out from the endgame search's values: for each named study and each
    number of cards left in ``cards``, over the positions the endgame search answered (kind not
    ``PLAYOUT_KIND``), the mean of the realized result less the value of the turn played (``gap``:
    negative, the results fell below the values) with its standard error clustered by round
    (``clustered_mean``: a round's positions share its result), the positions, the rounds, and how
    many of the values are only upper bounds of the turn played (a bound makes the gap look
    larger). Indexed by (study, cards left); a ValueError for anything but a dict of study tables."""
    studies, cards = _named_studies("endgame_gap", studies), _checked_cards("endgame_gap", cards)
    rows = []
    for name, study in studies.items():
        for c in cards:
            part, gap = _searched_gap(study, c)
            mean, se, k = clustered_mean(gap, part["round"].to_numpy())
            rows.append({"study": name, "cards left": c, "positions": len(part), "rounds": k, "gap": mean,
                         "gap s.e.": se, "upper bounds": int(part["played_bound"].astype(bool).sum())})
    return pd.DataFrame(rows).set_index(["study", "cards left"])


def endgame_gap_estimates(studies: Mapping[str, pd.DataFrame],
                          cards: Sequence[int] = ENDGAME_GAP_CARDS) -> dict[str, dict[str, Estimate]]:
    """``endgame_gap`` as estimates for ``figures.grouped_estimates_chart``: ``{"2 cards left": {study:
    Estimate}}``, each the mean gap with its standard error over rounds, ``n`` its positions and its 95%
    interval Student's t over the rounds (``estimate.clustered_mean``)."""
    studies, cards = _named_studies("endgame_gap_estimates", studies), _checked_cards("endgame_gap_estimates", cards)
    out: dict[str, dict[str, Estimate]] = {}
    for c in cards:
        out[f"{c} card{'s' if c > 1 else ''} left"] = group = {}
        for name, study in studies.items():
            part, gap = _searched_gap(study, c)
            group[name] = (estimated_mean(gap, part["round"].to_numpy()) if len(part)
                           else Estimate(math.nan, math.nan, 0))
    return out


def endgame_shift(pairs: Mapping[str, tuple[pd.DataFrame, pd.DataFrame]],
                  cards: Sequence[int] = ENDGAME_GAP_CARDS, value: str = "played_value") -> pd.DataFrame:
    """How far the endgame search's value of the turn played moved between two runs on the same
    positions, e.g. every split alike (before) and the splits weighted by the opponent-hand model
    (after): for each named pair ``(before, after)`` (two studies of the same rounds, matched on
    round and turn by ``_matched``, a ValueError when they played different turns) and each number
    of cards left, over the positions both answered by the endgame search, the positions, the
    rounds and the mean of after less before with its standard error over rounds. Indexed by
    (pair, cards left)."""
    cards = _checked_cards("endgame_shift", cards)
    if not isinstance(pairs, Mapping) or not pairs or not all(
            isinstance(p, tuple) and len(p) == 2 and all(isinstance(d, pd.DataFrame) for d in p)
            for p in pairs.values()):
        raise ValueError("endgame_shift: give a dict of named pairs of study tables ({'best': (every split alike, "
                         f"weighted)}}), got {pairs!r:.200}")
    tables = {}
    for name, (before, after) in pairs.items():
        a, b, common = _matched(before, after)
        a, b = a.loc[common], b.loc[common]
        searched = ((a["kind"] != PLAYOUT_KIND) & (b["kind"] != PLAYOUT_KIND)).to_numpy()
        left = a["cards_left"].to_numpy()
        tables[name] = _shift_rows((b[value] - a[value]).to_numpy(float), np.asarray(common.get_level_values("round")),
                                   [(c, searched & (left == c)) for c in cards], "cards left")
    return pd.concat(tables, names=["pair"])


def summary_table(fit: dict[str, Any]) -> pd.DataFrame:
    """``calibration_fit`` as a small table: slope and intercept (estimate, bootstrap s.e., 95%
    interval, OLS s.e., target, verdict), for a notebook."""
    rows = []
    for key, target in (("slope", SLOPE_TARGET), ("intercept", INTERCEPT_TARGET)):
        rows.append({"": key, "estimate": fit[key], "s.e. (rounds bootstrap)": fit[f"{key}_se"],
                     "95% low": fit[f"{key}_low"], "95% high": fit[f"{key}_high"],
                     "s.e. (OLS, positions independent)": fit[f"{key}_se_ols"],
                     "target": f"[{target[0]:g}, {target[1]:g}]", "verdict": fit[f"{key}_verdict"]})
    return pd.DataFrame(rows).set_index("")


def report(study: pd.DataFrame, samples: int = 2000, seed: int = 0, file: Any = None) -> dict[str, Any]:
    """Print the calibration of a study table (``calibration_fit``, ``calibration_by_phase``) and
    return the whole-round fit."""
    out = file or sys.stdout
    fit = calibration_fit(study, samples=samples, seed=seed)
    cpu = float(study["cpu_seconds"].sum()) if "cpu_seconds" in study else math.nan
    pairs = sorted({" v ".join(sorted(p)) for p in zip(study["mover_agent"], study["opponent_agent"])})
    hands = study.attrs.get("identity", {}).get("hands", "view")
    what = "the mover's view" if hands == "view" else "the full position (both hands known)"
    if hands == "view" and study.attrs.get("identity", {}).get("hand_model"):
        what += " (the opponent's unknown cards dealt by the learned hand model)"
    print(f"calibration of lcanalysis.advise on {what}: {fit['positions']} positions from {fit['rounds']} "
          f"self-play rounds ({', '.join(pairs) or '-'}); the advisor took {cpu / 60:.1f} CPU-minutes", file=out)
    print("fit: realized final score difference (mover - opponent) = intercept + slope x the advisor's value of "
          "the turn played (OLS; 95% intervals from a bootstrap over rounds, "
          f"{fit['bootstrap_samples']} resamples, seed {seed})", file=out)
    print(f"  slope     {fit['slope']:+.3f}  s.e. {fit['slope_se']:.3f}  95% [{fit['slope_low']:+.3f}, "
          f"{fit['slope_high']:+.3f}]  (OLS s.e. {fit['slope_se_ols']:.3f}); target [0.9, 1.1]: "
          f"{fit['slope_verdict']}", file=out)
    print(f"  intercept {fit['intercept']:+.2f}  s.e. {fit['intercept_se']:.2f}  95% [{fit['intercept_low']:+.2f}, "
          f"{fit['intercept_high']:+.2f}]  (OLS s.e. {fit['intercept_se_ols']:.2f}); target [-1, +1]: "
          f"{fit['intercept_verdict']}", file=out)
    print(f"  R² {fit['r2']:.3f}; mean realized - value {fit['bias']:+.2f} ± {fit['bias_se']:.2f}; s.d. of the "
          f"value {fit['value_sd']:.1f}, of the result {fit['realized_sd']:.1f}; the advisor's sampling noise "
          f"alone would bring the slope to {fit['noise_attenuation']:.3f}", file=out)
    ratio = fit["value_sd"] ** 2 / fit["realized_sd"] ** 2 if fit["realized_sd"] > 0 else math.nan
    print(f"  the issue's literal direction (value on result): slope {fit['reverse_slope']:+.3f}, intercept "
          f"{fit['reverse_intercept']:+.2f} (a perfect advisor would give about var(value)/var(result) = "
          f"{ratio:.3f})", file=out)
    bounded = study["played_bound"].astype(bool)
    if bounded.any():
        f2 = calibration_fit(study[~bounded], samples=samples, seed=seed)
        print(f"  without the {int(bounded.sum())} value(s) the endgame search gave only as upper bounds: slope "
              f"{f2['slope']:+.3f} [{f2['slope_low']:+.3f}, {f2['slope_high']:+.3f}], intercept "
              f"{f2['intercept']:+.2f} [{f2['intercept_low']:+.2f}, {f2['intercept_high']:+.2f}]", file=out)
    best = calibration_fit(study, "best_value", samples=samples, seed=seed)
    print(f"  the advisor's best turn's value instead (not the turn played): slope {best['slope']:+.3f} "
          f"[{best['slope_low']:+.3f}, {best['slope_high']:+.3f}], intercept {best['intercept']:+.2f} "
          f"[{best['intercept_low']:+.2f}, {best['intercept_high']:+.2f}], mean realized - value "
          f"{best['bias']:+.2f} ± {best['bias_se']:.2f}", file=out)
    cols = ["positions", "rounds", "slope", "slope 95% low", "slope 95% high", "intercept", "intercept 95% low",
            "intercept 95% high", "R²", "bias", "bias s.e.", "upper bounds"]
    with pd.option_context("display.width", 250, "display.max_columns", 30):
        print("by phase (cards left in the draw pile):", file=out)
        print(calibration_by_phase(study, samples=samples, seed=seed)[cols].round(3).to_string(), file=out)
        print("by how the played turn was valued:", file=out)
        print(calibration_by_sample(study, samples=samples, seed=seed)[cols].round(3).to_string(), file=out)
    return fit


# --- the published data -------------------------------------------------------------------------


def read_weights(path: str | None) -> list[float] | None:
    """The weights of an opponent-hand model weights file (``hand_model.read_weights_file``), as the study's
    settings record them, or None for no file; a ValueError naming the file and the problem."""
    if path is None:
        return None
    from lcanalysis.hand_model import read_weights_file

    return [float(w) for w in read_weights_file(path)]


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m lcanalysis.studies.calibration --rounds N --out FILE``: play and advise, row by
    row (resuming FILE), write the command to ``FILE.cmd`` and print the calibration."""
    from lcanalysis.advisor import ROLLOUTS_PER_SECOND, SCHEDULES

    args_list = list(sys.argv[1:] if argv is None else argv)
    ap = CommandParser(prog="python -m lcanalysis.studies.calibration", description=main.__doc__)
    ap.add_argument("--rounds", type=int, default=40, help="self-play rounds (default 40)")
    ap.add_argument("--every", type=int, default=EVERY, help=f"advise every K-th turn (default {EVERY})")
    ap.add_argument("--agents", nargs=2, default=list(AGENTS), metavar=("A", "B"),
                    help="the two agents that play (default heuristic heuristic)")
    ap.add_argument("--time", type=float, default=None,
                    help="the advisor's time budget in seconds (default: its own default)")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--hands", choices=HANDS, default="view",
                    help="advise the mover's view (default) or the full position, both hands known (a check)")
    ap.add_argument("--hand-model", action=argparse.BooleanOptionalAction, default=None,
                    help="deal the opponent's unknown cards in the advisor's play-outs from the learned model "
                         "(default: as the advisor does, on); --no-hand-model deals them uniformly")
    ap.add_argument("--streams", action=argparse.BooleanOptionalAction, default=None,
                    help="the advisor's draw streams in the play-outs (default: as the advisor does, on)")
    ap.add_argument("--schedule", choices=SCHEDULES, default=None,
                    help="how the advisor spreads its play-outs over the turns (default: as the advisor does, "
                         "halving)")
    ap.add_argument("--endgame-cards", type=int, default=None,
                    help="the endgame search answers from this many cards left (default: as the advisor does, 4)")
    ap.add_argument("--playout-rate", type=int, default=None, metavar="N",
                    help="the advisor's play-outs a second of budget (default: as the advisor does, "
                         f"{ROLLOUTS_PER_SECOND:,}; the studies published before it was raised: 6000)")
    add_playout_policy_option(ap)
    add_endgame_splits_option(ap)
    ap.add_argument("--hand-model-weights", default=None, metavar="FILE",
                    help="a weights file of the opponent-hand model for the advisor (as "
                         "'python -m lcanalysis.studies.hand_model train' writes; default: the shipped weights); "
                         "its weights are recorded in the file's settings")
    ap.add_argument("--bootstrap", type=int, default=2000, help="bootstrap resamples of rounds (default 2000)")
    ap.add_argument("--out", required=True, help="the CSV file, written row by row and resumed")
    ap.add_argument("--no-progress", action="store_true")
    ap.add_argument("--allow-code-change", action="store_true", help=ALLOW_CODE_CHANGE_HELP)
    args = ap.parse_args(args_list)
    if args.rounds < 1 or args.every < 1:
        ap.error("--rounds and --every must be at least 1")
    if args.endgame_cards is not None and args.endgame_cards < 0:
        ap.error(f"--endgame-cards must be 0 or more, got {args.endgame_cards}")

    def say(line: str) -> None:
        print(line, file=sys.stderr, flush=True)

    try:
        study = calibration_study(args.rounds, args.agents, args.seed, args.every, args.time, args.out,
                                  hands=args.hands, hand_model=args.hand_model,
                                  progress=None if args.no_progress else say, streams=args.streams,
                                  schedule=args.schedule, endgame_cards=args.endgame_cards,
                                  playout_rate=args.playout_rate, allow_code_change=args.allow_code_change,
                                  playout_policy=args.playout_policy, endgame_splits=args.endgame_splits,
                                  hand_model_weights=read_weights(args.hand_model_weights),
                                  command="python -m lcanalysis.studies.calibration " + shlex.join(args_list))
    except (ValueError, RuntimeError, OSError) as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    report(study, samples=args.bootstrap, seed=args.seed)
    return 0


if __name__ == "__main__":  # pragma: no cover
    run_script(main)
