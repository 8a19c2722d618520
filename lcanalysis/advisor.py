""""What should I play here?": every legal turn of a view ranked by expected value.

    >>> from lcanalysis.advisor import advise, example_view
    >>> analysis = advise(example_view(), time_budget=0.2, seed=1)
    >>> analysis.kind
    'advisor estimate'

The value of a turn is the expected final score difference of the round (mover minus opponent),
as for the endgame solver (docs/spec/interchange.md "Endgame values"), estimated by sampling: each
turn is played in the same sampled worlds (the opponent's unknown cards, dealt from the cards the
viewer cannot see by the learned opponent-hand model of ``lcanalysis.hand_model``, which keeps
for the opponent the cards it would want; and the order of the draw pile, the rest shuffled
uniformly), and both sides then play the round out with the heuristic policy, each seeing only
its own cards. Each player draws from a deck stream of their own (``core.policy.stream_move``):
the same chance law as one shuffled pile, but a turn that takes a discard-pile card no longer
shifts every later deck card to the other player, and the variance of the paired differences
between turns is about halved (``streams=False``: one deck order per world, as before).
``hand_model=False`` deals the opponent's cards uniformly, as before (the values
were then about 7 points too high mid-round: docs/agents.md "Calibration"). The standard error
is over worlds.
Successive halving (``schedule``): every turn gets a first sample, then round by round the better
half of the turns still in gets more worlds, until one turn is left: the best, with the largest
sample. The list is best first, then by the loss against it, which is never below zero.

The time budget sets the number of rollouts (``ROLLOUTS_PER_SECOND`` per second, a constant, not a
clock), so the same view, budget and seed give the same answer on any machine; ``playout_rate``
gives another count a second (the published studies made before the count was raised pass
``EARLIER_ROLLOUTS_PER_SECOND``). With
``ENDGAME_CARDS`` cards or fewer in the draw pile (``FULL_POSITION_ENDGAME_CARDS`` for a full
position, both hands known) the endgame search answers instead
(``search.endgame.converged_endgame``: view values deepened on the stall budget until two stall
budgets agree), and the analysis says so in ``kind``, ``exact`` and ``notes``: whether every
split was solved or worlds were sampled, and whether the answer converged. Play-outs near the
end mislead (the heuristic never stalls just to gain turns), so without a budget given the
endgame search may take up to ``ENDGAME_DEFAULT_SECONDS``; with one, it keeps to it, and when
not even one stall each fits, the play-outs answer and the notes say why. On the clock
(``wall_clock``) the whole answer keeps to the budget: the search stops at the budget less a
reserve (``PLAYOUT_RESERVE``), which the play-outs get should the search not reach one stall each.

Each turn carries a reason in words: what it does to the expected value of the expedition it
touches (the fast expedition estimate of ``core.policy``), what it hands the opponent, and what it does to
the number of turns left.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from dataclasses import replace

import numpy as np

from lcanalysis.analysis import Analysis, ranked, stalls_in_words
from lcanalysis.core import kernel as K
from lcanalysis.core import policy as P
from lcanalysis.game.cards import COLOR_LETTERS, COLOR_NAMES, Card
from lcanalysis.game.moves import Move
from lcanalysis.game.notation import mover_view, read_position
from lcanalysis.game.position import Position
from lcanalysis.game.view import View
from lcanalysis.match_equity import match_analysis, points_only_note
from lcanalysis.options import (  # the hint's numbers: there, so that advise --help says them without loading this
    ENDGAME_CARDS,
    ENDGAME_DEFAULT_SECONDS,
    EXACT_ENDGAME_CARDS,
    FULL_POSITION_ENDGAME_CARDS,
    MAX_TIME_BUDGET,
    PLAYOUT_DEFAULT_SECONDS,
    PLAYOUT_RESERVE,
    ROLLOUTS_PER_SECOND,
    check_flag,
    check_seed,
)
from lcanalysis.rollouts import ROLLOUTS_PER_MS, Rollouts, policy_ranking, some_state
from lcanalysis.search import endgame_analysis
from lcanalysis.search.common import MAX_NODES, SearchError, SearchMemoryError, check_max_nodes
from lcanalysis.search.endgame import converged_endgame
from lcanalysis.search.view_value import check_workers

EARLIER_ROLLOUTS_PER_SECOND = int(1000 * ROLLOUTS_PER_MS)
MAX_PLAYOUT_RATE = 1_000_000
#: the most cards left for ``endgame_cards``: a bound that catches a typo (40 would send every
#: mid-round hint into an endgame search that only spends its budget; the reach measured in
#: docs/endgame.md ends at 5 cards)
MAX_ENDGAME_CARDS = 8
#: the most threads the endgame search takes by itself on the command line: a sampled level hands out
#: 4 worlds at a time (``search.endgame.CHUNK``)
ENDGAME_AUTO_THREADS = 4
ENDGAME_NODES_PER_SECOND = 1_200_000  # the endgame budget as a node count: the same answer on any machine
#: judging a turn already played (the review, the tutor): with this many cards left or fewer the
#: endgame search judges with at least ``JUDGE_SEARCH_FLOOR`` seconds of budget (its node count,
#: 1.2 M nodes), times ``JUDGE_FLOOR_SCALE`` at 4 cards, however little the time per turn. At 3
#: cards, on 16 played-down views, 1 s reached one stall each in 16 (at 0.2 s, 13, 7 before the
#: levels were settled with a margin of 0; at 0.05 s, 2, none before: ``benchmarks/
#: bench_endgame_reach.py --decks 3 --positions 16 --nodes N --no-bracket``, docs/endgame.md), where
#: play-outs pick a turn half a point or more worse in about half the views (issue 15). At 4 cards
#: 2 s picked the deep reference's turn (or one within half a point) in 14 of 16 views, the play-outs
#: in 9 (mean loss 0.65 against 2.81 points; ``data/simulated/endgame_judge_4cards.csv``). About
#: 1-2 s for each of the two to four such turns of a round. The floor is the advisor's whole budget
#: there: should the search still not reach one stall each, its play-outs get it too
JUDGE_SEARCH_CARDS = 4
JUDGE_SEARCH_FLOOR = 1.0
JUDGE_FLOOR_SCALE = {4: 2.0}  # cards left -> the floor's multiple (1 otherwise): one stall each costs more there
#: how the play-outs are spread over the turns: "halving" (successive halving: every turn gets a
#: first sample, then each round the better half of the turns still in gets more, so the best
#: turn named always carries the largest sample and no turn listed beats it on the worlds they
#: share) or "two-stage" (as before: a first sample for every turn, a larger one for the best few)
SCHEDULES = ("halving", "two-stage")
SCHEDULE_DEFAULT = "halving"
MIN_WORLDS = 8  # the first sample of every turn, whatever the budget: a turn needs some worlds to be compared
FIRST_STAGE = 0.4  # two-stage: share of the budget spread over every turn; the rest goes to the best few
FINALISTS = 6
#: the play-outs deal the opponent's unknown cards from the learned opponent-hand model
#: (``lcanalysis.hand_model``); measured on the calibration study's positions (docs/agents.md)
HAND_MODEL_DEFAULT = True
#: each player draws from a deck stream of their own in the play-outs (``core.policy.stream_move``):
#: the same chance law, and about half the variance in the paired differences between turns (docs/agents.md)
STREAMS_DEFAULT = True


def dealing_in_words(hand_model: bool, streams: bool) -> str:
    """How the play-outs deal the unseen cards, as an answer says it (``Rollouts``'s
    ``hand_model`` and ``streams``)."""
    dealt = ("the opponent's unknown cards dealt by the learned opponent-hand model" if hand_model
             else "the unseen cards dealt uniformly")
    return dealt + (", each player drawing from a deck stream of their own" if streams else "")


def play_outs_in_words(r: Rollouts) -> str:
    """How many play-outs, over how many sampled worlds: "1,500 play-outs over 163 sampled worlds, every
    turn in the first 8 and the turns kept longer in more". The turns share the worlds, and the schedule
    gives those it keeps more of them: the play-outs (``Rollouts.worlds``, every turn's) are not worlds."""
    sizes = [len(x) for x in r.samples]
    if min(sizes) == max(sizes):
        return f"{r.worlds:,} play-outs, every turn in the same {max(sizes):,} sampled worlds"
    return (f"{r.worlds:,} play-outs over {max(sizes):,} sampled worlds, every turn in the first "
            f"{min(sizes):,} and the turns kept longer in more")


def example_view() -> View:
    """The built-in mid-round example, seen by the player to move."""
    return mover_view("example:midround")


def hint_view(source: View | Position | str | dict) -> tuple[View, bool]:
    """The view the advice is for, and whether both hands are known. A full position is advised
    with both hands used: the opponent's whole hand counts as known, and only the order of the
    draw pile is sampled (as in the perfect-information value, where it is chance)."""
    obj = read_position(source)
    if isinstance(obj, Position):
        view = obj.view(obj.to_move)
        return replace(view, opponent_known=sorted(obj.hand(1 - obj.to_move))), True
    return mover_view(obj), False


class AdviceError(ValueError):
    """An ``advise`` argument it cannot use (a budget, a seed, a switch), or a round with no turn to choose."""


def advise(view_or_position: View | Position | str | dict, time_budget: float | None = None, seed: int = 0,
           endgame_cards: int | None = None, wall_clock: bool = False, max_nodes: int = 0,
           progress: Callable[[str], None] | None = None, hand_model: bool | None = None,
           streams: bool | None = None, schedule: str | None = None,
           playout_rate: int | None = None, workers: int | str | None = None) -> Analysis:
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
    uniformly (``None``: ``HAND_MODEL_DEFAULT``, on); the endgame search is not affected.
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
    run, which threads sharing their tables do not; 0 or "auto": one per core).
    """
    view, both_hands = hint_view(view_or_position)
    endgame_cards = _check_endgame_cards(endgame_cards, both_hands)
    _check_switches(progress, wall_clock=wall_clock, hand_model=hand_model, streams=streams)
    if view.is_over():
        raise AdviceError(f"the round is over ({view.over_reason()}): there is no turn to choose")
    given = time_budget is not None
    time_budget = _check_time_budget(time_budget)
    max_nodes = check_max_nodes(max_nodes)
    rate = check_playout_rate(playout_rate)
    seed = check_seed("seed", seed, AdviceError)
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
        _add_reasons(view, exact)
        exact.notes.insert(0, f"{view.deck_count} card(s) left in the draw pile: exact endgame solver "
                              f"({exact.kind}, {_stalls_in_words(exact.bounds)})")
        exact.notes.insert(0, BOTH_HANDS_NOTE)
        _add_match_endgame_note(view, exact)
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
            return "give a larger max_nodes (--max-nodes)" if by_count else "give more time"

        if progress is not None:  # how long to wait, as the play-outs say (the search's default is 10 s, not 1)
            progress(f"endgame: {view.deck_count} card(s) in the draw pile: endgame search, "
                     + (f"up to {_budget_text(seconds)}" if wall_clock else f"up to {nodes:,} nodes"))
        try:
            exact = converged_endgame(view, max_nodes=nodes, seed=seed, deadline=deadline, progress=progress,
                                      workers=threads)
        except SearchMemoryError as exc:  # (more nodes or time would not help)
            exact, fallback_note = None, str(exc)
        except SearchError as exc:
            exact, fallback_note = None, f"{exc}; {more()}"
        if exact is not None and exact.bounds["max_stalls"] >= 1:
            _add_reasons(view, exact)
            if both_hands:
                exact.notes.insert(0, BOTH_HANDS_NOTE)
            _add_match_endgame_note(view, exact)
            return exact
        if exact is not None:
            fallback_note = f"the endgame search fitted only its level with no stalls; {more()}"
        fallback_note += (". The values are play-outs' estimates: this near the end they can be many points off "
                          "either way (the play-out policy misjudges drawing from a discard pile to gain turns), "
                          "and their ± counts the sampling only")
        if wall_clock:  # the play-outs get what is left of the time (at most their own default when none was given)
            time_budget = max(min(seconds if given else time_budget, seconds - (time.perf_counter() - t0)), 0.05)
            t0 = time.perf_counter()
    use_model = HAND_MODEL_DEFAULT if hand_model is None else bool(hand_model)
    codes, _ = policy_ranking(view)
    n_moves = len(codes)
    use_streams = STREAMS_DEFAULT if streams is None else bool(streams)
    r = Rollouts(view, codes, seed, hand_model=use_model and not both_hands, streams=use_streams)
    budget = max(1, int(time_budget * rate))
    fit = _clock_fit(t0, time_budget) if wall_clock else None
    if progress is not None:  # the play-outs' rounds too, so a long answer is never silent
        progress(f"play-outs: {n_moves} legal turns to compare, " + (f"up to {_budget_text(time_budget)}" if wall_clock
                                                    else f"{budget:,} play-outs"))
        fit = _reporting(fit, progress)
    if use_schedule == "halving":
        best, sampled = _halving(r, budget, fit)
    else:
        best, sampled = _two_stages(r, budget, fit)
    dealt = dealing_in_words(r.theta is not None, use_streams)
    notes = [f"value = expected final score difference of the round (you minus opponent), estimated by "
             f"play-outs: both sides play the round out with the heuristic policy, {play_outs_in_words(r)} "
             f"({dealt}); ± is one standard error of that sampling, not of the policy's misjudgments; "
             f"{view.deck_count} cards in the draw pile"]
    if both_hands:
        notes.insert(0, BOTH_HANDS_NOTE)
    if fallback_note:
        notes.insert(0, fallback_note)
    analysis = r.analysis("advisor estimate", seconds=time.perf_counter() - started,
                          method=f"determinized rollouts: {sampled}, heuristic play to the end, seed {seed}; "
                                 f"{dealt}", notes=notes)
    _rank_through_best(r, best, analysis)
    _add_match_ranking(view, r, analysis)
    _add_reasons(view, analysis)
    return analysis


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
            or not math.isfinite(time_budget) or not 0 < time_budget <= MAX_TIME_BUDGET):
        raise AdviceError(f"time_budget must be a number of seconds above 0 and at most {MAX_TIME_BUDGET}, "
                         f"got {time_budget!r}")
    return float(time_budget)  # numpy's too (a slider's, an array's), as solve's seconds


def _rank_through_best(r: Rollouts, best: int, analysis: Analysis) -> None:
    """The play-outs' answer ranked: every turn's loss against the best (paired over the worlds they
    share), every other turn's value through the best's worlds, the best first, then by loss."""
    by_move = {str(r.move(k)): k for k in range(len(r.codes))}
    for m in analysis.moves:
        k = by_move[m.move]
        m.loss, m.loss_stderr = r.difference(best, k)
        if k != best:  # through the best's worlds: its value minus the paired loss (docs/agents.md)
            m.extra.update(own_mean=m.value, own_stderr=m.stderr)
            m.value, m.stderr = r.value_through(best, k)
    named = str(r.move(best))  # best first, then by the loss against it, which is the order of the values
    first = next(m for m in analysis.moves if m.move == named)  # (losses that tie: analysis.ranked's rule)
    analysis.moves[:] = [first] + ranked((m for m in analysis.moves if m is not first), lambda m: -(m.loss or 0.0))


def judging_budget(deck_count: int, time_budget: float, floor: float = JUDGE_SEARCH_FLOOR) -> float:
    """The advisor's budget for judging a turn already played with ``deck_count`` cards in the draw
    pile: ``time_budget``, raised to ``floor`` (times ``JUDGE_FLOOR_SCALE`` for that many cards)
    with ``JUDGE_SEARCH_CARDS`` cards or fewer."""
    if deck_count > JUDGE_SEARCH_CARDS:
        return time_budget
    return max(time_budget, floor * JUDGE_FLOOR_SCALE.get(deck_count, 1.0))


def check_playout_rate(rate: int | None) -> int:
    """The play-outs a second of budget: ``rate``, or ``ROLLOUTS_PER_SECOND`` for ``None``; a
    ValueError for anything but a whole number from 1 to ``MAX_PLAYOUT_RATE``."""
    if rate is None:
        return ROLLOUTS_PER_SECOND
    if isinstance(rate, bool) or not isinstance(rate, (int, np.integer)) or not 1 <= rate <= MAX_PLAYOUT_RATE:
        raise AdviceError(f"playout_rate must be a whole number of play-outs a second from 1 to "
                         f"{MAX_PLAYOUT_RATE:,}, got {rate!r}")
    return int(rate)


def check_schedule(schedule: str) -> str:
    """``schedule`` if it names one of ``SCHEDULES``, else a ValueError naming them."""
    if schedule not in SCHEDULES:
        raise AdviceError(f"schedule must be one of {', '.join(SCHEDULES)}, got {schedule!r}")
    return schedule


def _clock_fit(t0: float, time_budget: float) -> Callable[[Rollouts, int], int]:
    """With a wall clock: the budget cut to what the time left allows at the speed measured so far."""
    def fit(r: Rollouts, budget: int) -> int:
        spent = time.perf_counter() - t0
        rate = r.worlds / max(spent, 1e-3)
        return min(budget, r.worlds + int(max(time_budget * 0.95 - spent, 0.0) * rate))
    return fit


def _reporting(fit: Callable[[Rollouts, int], int] | None,
               progress: Callable[[str], None]) -> Callable[[Rollouts, int], int]:
    """``fit`` (None: the budget as it is) that also reports the play-outs so far, at most once a second."""
    said = [time.perf_counter()]

    def report(r: Rollouts, budget: int) -> int:
        budget = budget if fit is None else fit(r, budget)
        now = time.perf_counter()
        if now - said[0] >= 1.0:
            said[0] = now
            means = r.means()
            lead = int(np.argmax(means))
            progress(f"play-outs: {r.worlds:,} so far; leading {r.move(lead)} {means[lead]:+.1f}")
        return budget
    return report


def _halving(r: Rollouts, budget: int, fit: Callable[[Rollouts, int], int] | None) -> tuple[int, str]:
    """Successive halving over the turns of ``r`` (``Rollouts.halve``): the last turn in is the
    best and carries the largest sample, and no other turn's loss against it is below zero.
    Returns the best's index and the schedule in words."""
    best, sizes = r.halve(budget, fit, min_worlds=MIN_WORLDS)
    if len(sizes) == 1:
        return best, f"{sizes[0]} worlds per turn"
    steps = ", ".join(str(n) for n in sizes[1:])
    return best, (f"successive halving: {sizes[0]} worlds per turn, then the better half of the turns "
                  f"extended round by round to {steps} worlds")


def _two_stages(r: Rollouts, budget: int, fit: Callable[[Rollouts, int], int] | None) -> tuple[int, str]:
    """The schedule before successive halving: every turn a first sample, the best few a larger
    one, and a turn that leads on its first sample alone the larger one too while the budget lasts."""
    n_moves = len(r.codes)
    n1 = max(MIN_WORLDS, int(budget * FIRST_STAGE) // n_moves)
    r.sample(n1)
    if fit is not None:  # fit what is left of the budget to the speed just measured
        budget = fit(r, budget)
    k2 = min(FINALISTS, n_moves)
    n2 = max(n1, n1 + int(budget * (1 - FIRST_STAGE)) // (2 * k2))  # room for the best k2 and k2 late risers
    # refine the best few; if a turn left out overtakes them, refine it too (at most 3 rounds),
    # so the turns at the top of the list all carry the larger sample
    left = budget - n1 * n_moves
    for _ in range(3):
        if n_moves <= 1 or n2 <= n1 or left < n2 - n1:
            break
        top = [int(k) for k in np.argsort(-r.means(), kind="stable")[:k2] if len(r.samples[k]) < n2]
        top = top[: max(0, left // (n2 - n1))]
        if not top:
            break
        left -= len(top) * (n2 - n1)
        r.sample(n2, top)
    # a turn that leads on a first-stage sample only may lead by luck: give it the larger sample
    # too, so the best turn named carries it (at most FINALISTS more turns), while the budget lasts
    # (it took 1,904 play-outs of a budget of 1,500 before: a budget given is kept)
    for _ in range(FINALISTS if n2 > n1 else 0):
        lead = int(np.argmax(r.means()))
        more = n2 - len(r.samples[lead])
        if more <= 0 or more > left:
            break
        left -= more
        r.sample(n2, [lead])
    best = int(np.argmax(r.means()))  # the first of equal means, as the ranking's stable sort
    return best, f"{n1} worlds per turn, {n2} for the best {k2}"


def _add_match_ranking(view: View, rollouts: Rollouts, analysis: Analysis) -> None:
    """With a match score on the position: every turn's chance to win the match (same worlds,
    through the match equity table), and a note saying whether the two rankings agree."""
    ranking = match_analysis(view, rollouts)
    if ranking is None:
        return
    by_move = {m.move: m for m in ranking.moves}
    for m in analysis.moves:
        m.extra.update(by_move[m.move].match_extra())
    analysis.notes.append(f"match: {ranking.verdict}")


#: said near the end of a round of a match: the endgame search ranks by points only
MATCH_ENDGAME_NOTE = points_only_note("near the end of the round the endgame search ranks the turns by expected",
                                      "it gives no spread of scores to read the chances from")


def _add_match_endgame_note(view: View, analysis: Analysis) -> None:
    """With a match score on the position, say that the endgame search's answer is by points only."""
    if view.match:
        analysis.notes.append(MATCH_ENDGAME_NOTE)


BOTH_HANDS_NOTE = ("a full position: both hands are used (the opponent's cards count as known); only the "
                   "order of the draw pile is left to chance")


def _stalls_in_words(bounds: dict) -> str:
    s = bounds.get("max_stalls")
    return "no stall bound" if s is None else stalls_in_words(s)


# --- reasons in words ---------------------------------------------------------------------


def _pile_top(view: View, move: Move) -> Card | None:
    if move.source == "D":
        return None
    pile = view.discards[COLOR_LETTERS.index(move.source)]
    return pile[-1] if pile else None


def in_words(view: View, move: Move | str) -> str:
    """A turn as a player says it: "play B6 and draw from the deck", "discard W10 and take G5 from
    the green pile" (naming the pile card taken, which the view shows)."""
    mv = move if isinstance(move, Move) else Move.parse(move, view.colors)
    place = "" if mv.card is None else f"{'play' if mv.play else 'discard'} {mv.card} and "
    if mv.source == "D":
        return place + "draw from the deck"
    name = COLOR_NAMES[COLOR_LETTERS.index(mv.source)]
    top = _pile_top(view, mv)
    return place + (f"take {top} from the {name} pile" if top else f"draw from the {name} pile")


def _colour_values(s: np.ndarray, p: int) -> np.ndarray:
    out = np.zeros(int(s[K.H_NC]), np.float64)
    P.colour_values(s, p, P.HEURISTIC_PARAMS, out)
    return out


def _expected(name: str, before: float, after: float) -> str:
    """A colour's expected score before and after a turn, as the reasons give it: "-> " only for a
    change that shows at whole points (not "yellow expected +0 -> +0")."""
    was, now = round(before), round(after)  # (whole points: -0.3 reads +0, not -0)
    if was == now:
        return f"{name} expected {was:+d}, unchanged"
    return f"{name} expected {was:+d} -> {now:+d}"


def _budget_text(seconds: float) -> str:
    """A time budget as the progress lines give it: "1.0 s", "0.25 s", "0.001 s" (one decimal showed
    --time 0.001 as "up to 0.0 s")."""
    return f"{seconds:.1f} s" if seconds >= 0.1 else f"{seconds:.2g} s"


def _cap_left(view: View) -> int:
    """The turns the turn cap (docs/spec/rules.md, ``turn_cap``: the round stops after that many turns,
    both players' counted) leaves after this one: the cap less the turns of the view's history (as the
    engine counts them: a view typed without its history counts from 0), less this turn."""
    return view.rules.turn_cap - len(view.history) - 1


def _time_left(cards: int, cap_left: int, cap: int) -> str:
    """What ``cards`` left in the draw pile, the opponent to move next, leave of the round, in words
    (docs/spec/rules.md: the round ends the moment the last card of the draw pile is taken). Drawn from
    the deck, the cards last ``cards`` more turns, so when the turn cap (``cap`` turns a round) leaves
    fewer (``cap_left``, after this turn) it ends the round first, whatever is drawn, and the words
    say so instead."""
    if cap_left < cards:
        rule = f"the turn cap ({cap} turns a round) ends the round"
        if cap_left <= 0:
            return f", but {rule} with this turn (cards still in the hands score nothing)"
        if cap_left == 1:
            return f", but {rule} after the opponent's next turn, whatever is drawn: this is your last turn"
        return (f", but {rule} after {cap_left} more turns, whatever is drawn: {cap_left - cap_left // 2} the "
                f"opponent's and {cap_left // 2} yours")
    if cards == 1:
        return (": the opponent's next turn takes the last card and ends the round, so this is your last "
                "turn unless they draw from a discard pile instead")
    if cards == 2:
        return (": one more turn each if both draw from the deck, the opponent's and then your last, which "
                "takes the last card and ends the round")
    return f", about {cards / 2:.1f} turns each left"


def reason(view: View, move: Move | str, state: np.ndarray | None = None) -> str:
    """A short explanation of a turn for a player: expedition value, what the opponent gets, time.
    ``state``: ``some_state(view)`` when the caller has it (filling in the view costs more than the
    explanation: a list of 64 turns took 0.13 s when each filled it in anew)."""
    if isinstance(move, str):
        move = Move.parse(move, view.colors)
    base = some_state(view) if state is None else state
    s = base.copy()
    me = view.viewer
    before = _colour_values(s, me)
    parts = []
    nc = view.colors
    if move.card is not None:
        card = move.card
        c = card.color
        name = COLOR_NAMES[c]
        place = card.type * 2 + (0 if move.play else 1)
        K.apply_place(s, place)
        after = _colour_values(s, me)
        K.undo_place(s, place)
        if move.play:
            opened = not view.expeditions[me][c]
            what = "opens" if opened else "extends"
            parts.append(f"{what} {name} with {card}: {_expected(name, before[c], after[c])}")
        else:
            opp_cards = view.expeditions[1 - me][c]
            opp_top = max((x.number for x in opp_cards if not x.is_wager), default=0)
            if card.is_wager:
                gift = "harmless to the opponent" if opp_cards and opp_top else "a wager the opponent may take"
            elif opp_cards and card.number > opp_top:
                gift = f"hands the opponent {card} for their {name} expedition"
            elif opp_cards:
                gift = f"safe: the opponent's {name} is past {card.number}"
            else:
                gift = f"{card} lies open for the opponent (they have no {name} expedition yet)"
            my_top = max((x.number for x in view.expeditions[me][c] if not x.is_wager), default=0)
            dead = ""  # a card the player can no longer play: the first thing to say of its discard
            if my_top and (card.is_wager or card.number < my_top):
                dead = f"; you can no longer play it (your {name} is at {my_top})"
            parts.append(f"discards {card} ({_expected(name, before[c], after[c])}){dead}; {gift}")
    if move.source == "D":
        d = view.deck_count
        if d == 1:
            parts.append("takes the last card of the draw pile: the round ends with this turn (cards still in "
                         "the hands score nothing)")
        else:
            parts.append(f"draws from the deck: {d} -> {d - 1} card{'s' if d > 2 else ''}"
                         f"{_time_left(d - 1, _cap_left(view), view.rules.turn_cap)}")
    else:
        c = COLOR_LETTERS.index(move.source)
        pile = view.discards[c]
        if move.card is not None and not move.play and move.card.color == c:
            top: Card | None = move.card
        else:
            top = pile[-1] if pile else None
        d, left, cap = view.deck_count, _cap_left(view), view.rules.turn_cap
        # not a turn more for both: one turn more in all, the opponent's with an odd count, else yours
        gains = "you" if d % 2 == 0 else "the opponent"
        if left < d:  # the turn cap ends the round before the deck can: a pile draw gains no turn
            tail = f"the deck stays at {d}" + _time_left(d, left, cap) + "; no turn gained over a deck draw"
        else:
            tail = f"the deck stays at {d}" + (_time_left(d, left, cap) if d <= 2 else
                                               f" (one turn more for {gains} than after a deck draw, if both "
                                               f"then draw from the deck)")
        if top is not None:
            s2 = base.copy()
            v0 = _colour_values(s2, me)[c]
            s2[K.off_hand(nc, me) + top.type] += 1
            v1 = _colour_values(s2, me)[c]
            parts.append(f"takes {top} from the {COLOR_NAMES[c]} pile ({_expected(COLOR_NAMES[c], v0, v1)}); {tail}")
        else:
            parts.append(f"draws from the {COLOR_NAMES[c]} pile; {tail}")
    return "; ".join(parts)


def _add_reasons(view: View, analysis: Analysis) -> None:
    state = some_state(view)
    for m in analysis.moves:
        if not m.reason:
            try:
                m.reason = reason(view, m.move, state)
            except (ValueError, IndexError):  # a draw-step answer or a move we cannot describe
                m.reason = ""

