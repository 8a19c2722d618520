"""``advise``, the hint's entry point: the view the advice is for, the checks of its arguments, and
the answer: the exact solver or the endgame search near the end of the round, else the play-outs."""

from __future__ import annotations

import time
from collections.abc import Callable

import numpy as np

from lcanalysis.advisor.match_notes import add_match_endgame_note, add_match_ranking
from lcanalysis.advisor.notes import (
    BOTH_HANDS_NOTE,
    budget_text,
    dealing_in_words,
    near_end_misjudgment,
    play_outs_in_words,
    played_by,
    playout_policy_in_words,
    stall_bound_in_words,
    view_value_note,
)
from lcanalysis.advisor.playouts import clock_fit, halving, rank_through_best, reporting, two_stages
from lcanalysis.advisor.reasons import add_reasons
from lcanalysis.advisor.settings import (
    ENDGAME_AUTO_THREADS,
    ENDGAME_NODES_PER_SECOND,
    HAND_MODEL_DEFAULT,
    MAX_ENDGAME_CARDS,
    MAX_PLAYOUT_RATE,
    SCHEDULE_DEFAULT,
    SCHEDULES,
    STREAMS_DEFAULT,
)
from lcanalysis.analysis import Analysis
from lcanalysis.game.notation import hint_view, mover_view, read_position
from lcanalysis.game.position import Position
from lcanalysis.game.view import View
from lcanalysis.hand_model import FEATURES, N_FEATURES, best_play_weights
from lcanalysis.options import (  # the hint's numbers: there, so that advise --help says them without loading this
    ENDGAME_CARDS,
    ENDGAME_DEFAULT_SECONDS,
    ENDGAME_SPLITS,
    ENDGAME_SPLITS_DEFAULT,
    EXACT_ENDGAME_CARDS,
    FULL_POSITION_ENDGAME_CARDS,
    MAX_TIME_BUDGET,
    MORE_NODES,
    MORE_TIME,
    PLAYOUT_DEFAULT_SECONDS,
    PLAYOUT_POLICY_CHOICES,
    PLAYOUT_POLICY_DEFAULT,
    PLAYOUT_RESERVE,
    ROLLOUTS_PER_SECOND,
    brief,
    check_flag,
    check_seed,
    playout_policy_at,
)
from lcanalysis.rollouts import Rollouts, playout_params, policy_ranking
from lcanalysis.search import endgame_analysis
from lcanalysis.search.common import MAX_NODES, SearchError, SearchMemoryError, check_max_nodes
from lcanalysis.search.endgame import converged_endgame
from lcanalysis.search.view_value import check_hand_model, check_workers


def example_view() -> View:
    """The built-in mid-round example, seen by the player to move."""
    return mover_view("example:midround")


class AdviceError(ValueError):
    """An ``advise`` argument it cannot use (a budget, a seed, a switch), or a round with no turn to choose."""


def advise(view_or_position: View | Position | str | dict, time_budget: float | None = None, seed: int = 0,
           endgame_cards: int | None = None, wall_clock: bool = False, max_nodes: int = 0,
           progress: Callable[[str], None] | None = None, hand_model: bool | np.ndarray | None = None,
           streams: bool | None = None, schedule: str | None = None,
           playout_rate: int | None = None, workers: int | str | None = None,
           playout_policy: str | None = None, endgame_splits: str | None = None) -> Analysis:
    """Every legal turn for the player to move, best first, each with its value, its loss against
    the best turn (paired over the shared worlds, with the standard error of that difference)
    and a reason in words.

    Returns an ``Analysis``; values and losses are in points of the round's final score difference
    (the player to move's score less the opponent's). By play-outs they are estimates (``kind``
    "advisor estimate", ``exact`` False): ``stderr`` and ``loss_stderr`` are one standard error of the
    sampling, not of the play-out policy's misjudgments. Near the end (``endgame_cards``) the endgame
    search answers instead: exact view values under the stall budget it states (``bounds``), sampled
    worlds with their standard errors, or for a turn searched only far enough to show it is worse an
    upper bound on its value (``MoveValue.upper_bound``); ``kind`` and ``notes`` say which.

    ``view_or_position`` is anything ``read_position`` reads. A view is advised from what its
    viewer knows; a full ``Position`` with both hands used (``hint_view``), and the answer says
    so. ``time_budget`` (seconds) sets the number of play-outs: by default as a count
    (``ROLLOUTS_PER_SECOND``), so the same view, budget and seed give the same answer on any
    machine; with ``wall_clock=True`` (the command line) the endgame search runs until the
    clock (less the play-outs' reserve) rather than for a node count, and the play-outs after the
    first stage are fitted to the time left, so the answer keeps to the budget on a slow or busy
    machine. ``None``: 1 s of play-outs, and near the end ``ENDGAME_DEFAULT_SECONDS`` for the
    endgame search (on the clock: in all, the play-outs' reserve included; as a count: its nodes,
    then 1 s of play-outs should it not reach one stall each).
    ``max_nodes`` (0: none) also caps the endgame search near the end of the round (for a full
    position ``lcanalysis.search.SearchBudgetExceeded`` when it runs out); the play-outs are
    bounded by ``time_budget``. ``progress`` receives a line of text as each stage of the
    endgame search starts and ends (None: no lines; ``lc.advise``, the front door, says them on
    standard error by default once the answer has taken ``progress.PROGRESS_DELAY``).
    ``hand_model``: deal the opponent's unknown cards in the play-outs from the learned
    opponent-hand model (``lcanalysis.hand_model``) instead of
    uniformly (``None``: ``HAND_MODEL_DEFAULT``, on); an array of weights (``hand_model.FEATURES`` order,
    as ``hand_model.weights_from_json`` reads a weights file) deals them from the model with those weights
    instead of the shipped ones. ``endgame_splits``: how the endgame search weighs the ways the
    unseen cards may lie (``options.ENDGAME_SPLITS``; ``None``: ``ENDGAME_SPLITS_DEFAULT``): "uniform", every
    split alike (the view value), or "model", each by the opponent-hand model, with ``hand_model``'s weights
    when it gives some, else those fitted on the best agent's self-play (``hand_model.best_play_weights``;
    the play-outs deal by the shipped ones, fitted on the heuristic's); a full position has nothing to weigh.
    ``streams``: in each world every player draws from a deck stream of their own, so a turn
    that takes a discard-pile card does not hand the later deck cards to the other player
    (``None``: ``STREAMS_DEFAULT``, on; ``False``: one deck order per world, as before).
    ``schedule``: how the play-outs are spread over the turns (``SCHEDULES``; ``None``:
    ``SCHEDULE_DEFAULT``, successive halving). ``playout_rate``: play-outs a second of
    ``time_budget`` (``None``: ``ROLLOUTS_PER_SECOND``). ``endgame_cards``: with this many cards
    left or fewer the endgame search answers (``None``: ``ENDGAME_CARDS`` for a view,
    ``FULL_POSITION_ENDGAME_CARDS`` for a full position). ``workers``: threads of the endgame
    search (``None``: one per core with ``wall_clock``, at most ``ENDGAME_AUTO_THREADS``, so more of it
    fits in the time; else one, so that a node budget gives the same answer and node count on every
    run, which threads sharing their tables do not; 0 or "auto": one per core). ``playout_policy``:
    the policy both sides play the play-outs with (``options.PLAYOUT_POLICY_CHOICES``: "plain", the tuned
    heuristic, or "stalling", the heuristic that also draws from a discard pile to gain turns, the best
    agent's and the game review's, or "tuned", or "staged": the plain one while the draw pile holds more
    than ``options.STALLING_FROM_CARDS`` cards and the stalling one from there, ``options.playout_policy_at``;
    ``None``: ``PLAYOUT_POLICY_DEFAULT``, "staged"); the notes, ``method`` and ``playout_policy`` name the
    policy played; the endgame search is not affected.
    """
    view, both_hands = hint_view(view_or_position)
    endgame_cards = _check_endgame_cards(endgame_cards, both_hands)
    theta = _check_hand_model(hand_model)
    splits = check_endgame_splits(endgame_splits)
    _check_switches(progress, wall_clock=wall_clock, streams=streams)
    if view.is_over():
        raise AdviceError(f"the round is over ({view.over_reason()}): there is no turn to choose")
    given = time_budget is not None
    time_budget = _check_time_budget(time_budget)
    max_nodes = check_max_nodes(max_nodes)
    rate = check_playout_rate(playout_rate)
    seed = check_seed("seed", seed, AdviceError)
    policy = played_policy(playout_policy, view.deck_count)
    use_schedule = SCHEDULE_DEFAULT if schedule is None else check_schedule(schedule)
    auto = min(check_workers("auto"), ENDGAME_AUTO_THREADS) if wall_clock else 1
    threads = auto if workers is None else check_workers(workers)
    t0 = started = time.perf_counter()  # t0: the play-outs' clock; started: the whole answer's
    fallback_note = ""
    # a full position with 2 cards or fewer: the exact solver, one stall each; with 3, the endgame
    # search below on the view with the opponent's whole hand known (one split: perfect information)
    if view.deck_count <= min(endgame_cards, EXACT_ENDGAME_CARDS) and both_hands:
        full = read_position(view_or_position)
        exact = endgame_analysis(full, seed=seed, max_nodes=max_nodes)
        exact.set_exact_losses()
        add_reasons(view, exact)
        exact.notes.insert(0, f"{view.deck_count} card(s) left in the draw pile: exact endgame solver "
                              f"({exact.kind}, {stall_bound_in_words(exact.bounds)})")
        exact.notes.insert(0, BOTH_HANDS_NOTE)
        add_match_endgame_note(view, exact)
        return exact
    if view.deck_count <= endgame_cards:
        seconds = time_budget if given else max(time_budget, ENDGAME_DEFAULT_SECONDS)
        if wall_clock:  # bounded by the clock (and by max_nodes when given), the play-outs' reserve kept
            reserve = min(PLAYOUT_DEFAULT_SECONDS, PLAYOUT_RESERVE * seconds)  # (at most the play-outs' default)
            nodes, deadline = max_nodes or MAX_NODES, t0 + seconds - reserve
        else:  # a count: the same answer on any machine
            nodes = int(seconds * ENDGAME_NODES_PER_SECOND)
            nodes, deadline = min(nodes, max_nodes) if max_nodes else nodes, None

        def more() -> str:  # what to give more of: the caller's node count when it, not the clock, stopped the search
            clock = deadline is not None and time.perf_counter() >= deadline
            by_count = bool(max_nodes) and nodes == max_nodes and not clock
            return MORE_NODES if by_count else MORE_TIME

        if progress is not None:  # how long to wait, as the play-outs say (the search's default is 10 s, not 1)
            progress(f"endgame: {view.deck_count} card(s) in the draw pile: endgame search, "
                     + (f"up to {budget_text(seconds)}" if wall_clock else f"up to {nodes:,} nodes"))
        try:
            weights = None if splits == "uniform" or both_hands else (best_play_weights() if theta is None else theta)
            exact = converged_endgame(view, max_nodes=nodes, seed=seed, deadline=deadline, progress=progress,
                                      workers=threads, more=more, hand_model=weights)
        except SearchMemoryError as exc:  # (more nodes or time would not help)
            exact, fallback_note = None, str(exc)
        except SearchError as exc:
            exact, fallback_note = None, f"{exc}; give {more()}"
        if exact is not None and exact.bounds["max_stalls"] >= 1:
            add_reasons(view, exact)
            if both_hands:
                exact.notes.insert(0, BOTH_HANDS_NOTE)
            elif _splits_hidden_cards(view):  # after the notes that name the view value and whether it converged
                exact.notes.insert(2, view_value_note(exact.exact, weighted=splits == "model",
                                                      own_weights=theta is not None))
            add_match_endgame_note(view, exact)
            return exact
        if exact is not None:
            fallback_note = f"the endgame search fitted only its level with no stalls; give {more()}"
        fallback_note += (". The values are play-outs' estimates: this near the end they can be many points off "
                          f"either way ({near_end_misjudgment(policy)}), and their ± counts the sampling only")
        if wall_clock:  # the play-outs get what is left of the time (at most their own default when none was given)
            time_budget = max(min(seconds if given else time_budget, seconds - (time.perf_counter() - t0)), 0.05)
            t0 = time.perf_counter()
    use_model = HAND_MODEL_DEFAULT if hand_model is None else (theta is not None or bool(hand_model))
    codes, _ = policy_ranking(view)
    n_moves = len(codes)
    use_streams = STREAMS_DEFAULT if streams is None else bool(streams)
    dealer = False if both_hands or not use_model else (True if theta is None else theta)
    r = Rollouts(view, codes, seed, params=playout_params(policy), hand_model=dealer, streams=use_streams)
    budget = max(1, int(time_budget * rate))
    fit = clock_fit(t0, time_budget) if wall_clock else None
    if progress is not None:  # the play-outs' rounds too, so a long answer is never silent
        progress(f"play-outs: {n_moves} legal turns to compare, " + (f"up to {budget_text(time_budget)}" if wall_clock
                                                    else f"{budget:,} play-outs"))
        fit = reporting(fit, progress)
    if use_schedule == "halving":
        best, sampled = halving(r, budget, fit)
    else:
        best, sampled = two_stages(r, budget, fit)
    dealt = dealing_in_words(r.theta is not None, use_streams)
    notes = [f"value = expected final score difference of the round (you minus opponent), estimated by "
             f"play-outs: both sides play the round out with {playout_policy_in_words(policy, explained=True)}, "
             f"{play_outs_in_words(r)} "
             f"({dealt}); ± is one standard error of that sampling, not of the policy's misjudgments; "
             f"{view.deck_count} cards in the draw pile"]
    if both_hands:
        notes.insert(0, BOTH_HANDS_NOTE)
    if fallback_note:
        notes.insert(0, fallback_note)
    analysis = r.analysis("advisor estimate", seconds=time.perf_counter() - started,
                          method=f"determinized rollouts: {sampled}, {played_by(policy)} play to the end, "
                                 f"seed {seed}; "
                                 f"{dealt}", notes=notes)
    rank_through_best(r, best, analysis)
    add_match_ranking(view, r, analysis)
    add_reasons(view, analysis)
    return analysis


def _splits_hidden_cards(view: View) -> bool:
    """Whether the endgame search's view value of ``view`` averages over splits of hidden cards, as far as it
    was measured to matter (each split alike or weighted by a model, where a real opponent's hand is neither):
    something is hidden (the opponent's unknown cards, a buried pile card) and 2 cards or more are left. With
    1 card left every turn measured drew it and ended the round, whose result its view value is
    (docs/endgame.md, "The view value against real play")."""
    return view.deck_count >= 2 and (view.opponent_unknown > 0 or view.buried_count > 0)


def _check_hand_model(hand_model: object) -> np.ndarray | None:
    """``advise``'s ``hand_model`` as the model's weights when it gives some (an array of
    ``hand_model.N_FEATURES`` finite numbers), else None; a switch (True, False, 1, 0, None) passes, anything
    else is an ``AdviceError`` naming the problem."""
    if isinstance(hand_model, (list, tuple, np.ndarray)):
        try:
            return check_hand_model(np.asarray(hand_model, dtype=np.float64))
        except (SearchError, TypeError, ValueError):
            raise AdviceError(f"hand_model: weights of the opponent-hand model must be {N_FEATURES} finite numbers, "
                              f"one per feature {list(FEATURES)}, got {brief(hand_model)}") from None
    check_flag("hand_model", hand_model, AdviceError, none="the default")  # ("no" would read as on)
    return None


def check_endgame_splits(endgame_splits: str | None) -> str:
    """``advise``'s ``endgame_splits``: one of ``options.ENDGAME_SPLITS`` (``None``: ``ENDGAME_SPLITS_DEFAULT``),
    else an ``AdviceError`` naming them (the studies check theirs here too)."""
    if endgame_splits is None:
        return ENDGAME_SPLITS_DEFAULT
    if isinstance(endgame_splits, str) and endgame_splits in ENDGAME_SPLITS:
        return endgame_splits
    raise AdviceError(f"endgame_splits: how the endgame search weighs the splits must be one of "
                      f"{', '.join(ENDGAME_SPLITS)}, got {brief(endgame_splits)}")


def _check_endgame_cards(endgame_cards: int | None, both_hands: bool) -> int:
    """``advise``'s ``endgame_cards``, its default (``None``) filled in for a view or a full position."""
    if endgame_cards is None:
        endgame_cards = FULL_POSITION_ENDGAME_CARDS if both_hands else ENDGAME_CARDS
    if isinstance(endgame_cards, bool) or not isinstance(endgame_cards, (int, np.integer)) \
            or not 0 <= endgame_cards <= MAX_ENDGAME_CARDS:
        raise AdviceError(f"endgame_cards must be a whole number of cards from 0 (never) to {MAX_ENDGAME_CARDS}, "
                          f"got {endgame_cards!r}")
    return endgame_cards


def _check_switches(progress: Callable[[str], None] | None, **switches: object) -> None:
    """An ``AdviceError`` for a switch that is not True, False, 1, 0 or None, or a ``progress`` that
    is not a function."""
    for name, switch in switches.items():
        check_flag(name, switch, AdviceError, none="the default")  # ("no" would read as on)
    if progress is not None and not callable(progress):
        raise AdviceError(f"progress must be a function that takes a line of text, or None, got {progress!r}")


def _check_time_budget(time_budget: float | None) -> float:
    """``advise``'s ``time_budget`` in seconds (``None``: 1 s of play-outs)."""
    if time_budget is None:
        time_budget = PLAYOUT_DEFAULT_SECONDS
    if (isinstance(time_budget, bool) or not isinstance(time_budget, (int, float, np.integer, np.floating))
            or not 0 < time_budget <= MAX_TIME_BUDGET):  # (nan, inf, and an int past a float's range, fail it)
        raise AdviceError(f"time_budget must be a number of seconds above 0 and at most {MAX_TIME_BUDGET}, "
                         f"got {brief(time_budget)}")
    return float(time_budget)  # numpy's too (a slider's, an array's), as solve's seconds


def check_playout_rate(rate: int | None) -> int:
    """The play-outs a second of budget: ``rate``, or ``ROLLOUTS_PER_SECOND`` for ``None``; a
    ValueError for anything but a whole number from 1 to ``MAX_PLAYOUT_RATE``."""
    if rate is None:
        return ROLLOUTS_PER_SECOND
    if isinstance(rate, bool) or not isinstance(rate, (int, np.integer)) or not 1 <= rate <= MAX_PLAYOUT_RATE:
        raise AdviceError(f"playout_rate must be a whole number of play-outs a second from 1 to "
                         f"{MAX_PLAYOUT_RATE:,}, got {rate!r}")
    return int(rate)


def check_playout_policy(policy: str) -> str:
    """``policy`` if it names one of ``options.PLAYOUT_POLICY_CHOICES`` (a play-out policy, or "staged"), else
    an ``AdviceError`` naming them."""
    if isinstance(policy, str) and policy in PLAYOUT_POLICY_CHOICES:
        return policy
    raise AdviceError(f"playout_policy: the play-out policy must be one of {', '.join(PLAYOUT_POLICY_CHOICES)}, "
                      f"got {brief(policy)}")


def played_policy(playout_policy: str | None, cards_left: int) -> str:
    """The play-out policy (``options.PLAYOUT_POLICIES``) the hint plays when asked for ``playout_policy``
    (``options.PLAYOUT_POLICY_CHOICES``; ``None``: ``PLAYOUT_POLICY_DEFAULT``) with ``cards_left`` cards in the
    draw pile: "staged" resolved by ``options.playout_policy_at``; a name it does not know is an ``AdviceError``
    (``check_playout_policy``). The one place the hint, the tutor and the explorer resolve it."""
    asked = PLAYOUT_POLICY_DEFAULT if playout_policy is None else check_playout_policy(playout_policy)
    return playout_policy_at(asked, cards_left)


def check_schedule(schedule: str) -> str:
    """``schedule`` if it names one of ``SCHEDULES``, else a ValueError naming them."""
    if schedule not in SCHEDULES:
        raise AdviceError(f"schedule must be one of {', '.join(SCHEDULES)}, got {schedule!r}")
    return schedule
