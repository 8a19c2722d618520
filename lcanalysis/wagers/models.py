"""Richer wager models: turns, declining a colour, and the opponent's cards.

The canonical model (``canonical.py``) places every live number the player ever holds. Real play
differs in three ways, each a model here, each documented with its assumptions and each
checked against simulated rounds (``lcanalysis.wagers.simulation`` and docs/wagers.md):

``turn_model`` (turn counting)
    The player has ``turns`` turns left (``turns_left(deck, to_move)`` when both players draw from
    the pile). Each turn places one card, then draws one; the round ends with the pile, so the
    card drawn on the last turn is never placed. Wagers placed now take the first ``j`` turns (so
    ``j`` runs only up to ``turns``). The colour may use at most ``ceil(share * turns)``
    placements (the other colours need turns too; ``share = 1`` gives it every turn it wants). Two
    placement policies. ``late`` (default), the best order without foresight when numbers must
    rise: *hold and start as late as possible*: keep the live cards of the colour (at most as many
    as the budget and the turns left, the highest), and place the lowest held card only when the
    turns left are no more than the cards held. ``eager``: keep the same best cards, and place the
    lowest of them on every turn the budget allows (play as you go). Either way a card that arrives below the
    expedition's top is dead.
    Estimated by Monte Carlo over the draw order, with a standard error.

``decline`` (``decline_now`` exact, ``decline_at_end`` exact)
    An unopened colour need not be opened. ``decline_now``: decide now from the means
    (``max(0, best mean)``); ``decline_at_end``: open with no wagers only if the cards collected
    by the end make a profit (the value of waiting with the option; an upper bound, since in
    play the first card must go down while turns remain).

``opponent_model`` (the cards the opponent holds or needs)
    The unseen cards split at random into the player's ``draws``, the opponent's unknown hand
    and the opponent's ``opp_draws``; the opponent's known cards are in its hand. A live card
    (for the player) on the opponent's side is *kept* when the opponent needs it (its own
    expedition of the colour is open and below the card), kept with probability
    ``keep_unopened`` when the opponent has not opened the colour, and otherwise discarded;
    a discarded live card is picked up by the player with probability ``p_pickup`` (a
    pick-up replaces a draw from the pile, so the player's number of pile draws is unchanged).
    With ``turns`` given, the turn-counting rules above apply too (a pick-up arrives on the
    player's next draw after the opponent drew it). Monte Carlo with a standard error.

All Monte Carlo answers carry ``exact=False`` and the standard error of each mean; the exact
ones carry ``exact=True``, and so does a Monte Carlo model's answer where every sample would be the
same world (``one_world``: no draw to come for the player, or no card of the colour that could come):
that world is played once and its score is the answer, exactly.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, replace
from fractions import Fraction
from numbers import Real
from typing import Any

import numpy as np
from numba import njit

from lcanalysis.core import first_compile
from lcanalysis.core.constants import RANKS_PER_COLOR, WAGER_COPIES
from lcanalysis.core.features import turns_left, useful_draws
from lcanalysis.core.kernel import BONUS, EXPEDITION_COST, expedition_points, mask_sum_count, top_rank
from lcanalysis.game.cards import COLOR_LETTERS, whole_number
from lcanalysis.game.rules import Rules
from lcanalysis.options import MAX_WAGER_SAMPLES, WAGER_SAMPLES_DEFAULT, WAGER_VIEW_MODELS, check_flag, check_seed
from lcanalysis.progress import check_progress, progress_bar
from lcanalysis.wagers.canonical import (
    BREAK_EVEN_CRITERIA,
    MAX_VALUE,
    MIN_VALUE,
    UNSEEN_CHOICES,
    ColorState,
    Number,
    WagerAnalysis,
    WagerError,
    WagerOutcome,
    _check_values,
    _whole_draws,
    analyze,
    check_state,
    most_round_draws,
    round_unseen,
)

#: the numbers of a colour (9): the ranks but the wager's
NUMBERS_PER_COLOR = RANKS_PER_COLOR - 1
#: scores run from -80 (every wager, no number: the expedition's cost, multiplied) to 156 (every
#: number and wager, and the bonus): ``hist[score + SCORE_OFFSET]`` counts a score
SCORE_OFFSET = EXPEDITION_COST * (1 + WAGER_COPIES)
SCORE_SLOTS = SCORE_OFFSET + (sum(range(MIN_VALUE, MAX_VALUE + 1)) - EXPEDITION_COST) * (1 + WAGER_COPIES) + BONUS + 1
MAX_TURNS = 1000  # far beyond a round's (28 turns a player with 6 colours, drawing from the pile)
MAX_OPPONENT_CARDS = 10_000  # a bound on the opponent's hidden cards and draws taken (its sum is checked too)
MC_SEEDS = 2**32  # the compiled generator's seed is 32 bits: a bigger seed is taken modulo this, as numba did


def _whole_in(name: str, value: object, low: int, high: int) -> int:
    number = whole_number(value)
    if number is None or not low <= number <= high:
        raise WagerError(f"{name} must be a whole number from {low:,} to {high:,}, got {value!r}")
    return number


def _check_sampling(n: object, seed: object, share: object) -> tuple[int, int, float]:
    """The Monte Carlo options, checked: ``n`` samples, the ``seed``, the colour's ``share`` of the turns."""
    n = _whole_in("n (the number of samples)", n, 1, MAX_WAGER_SAMPLES)
    seed = check_seed("seed", seed, WagerError, most=2**64) % MC_SEEDS  # (the studies add a row's index to theirs)
    if isinstance(share, bool) or not isinstance(share, Real) or not 0.0 <= float(share) <= 1.0:
        raise WagerError(f"share must be the fraction of the turns the colour may use, from 0 to 1, got {share!r}")
    return n, seed, float(share)


def share_text(share: float) -> str:
    """A colour's share of the turns as a model's name writes it: as given when short ("1", "0.5",
    "0.25"), a simple fraction when it is one ("1/3", where it was "0.333333"), else three figures."""
    short = f"{share:g}"
    if len(short) <= 4:
        return short
    simple = Fraction(share).limit_denominator(16)  # (halves to sixteenths: the fractions a writer gives)
    if abs(float(simple) - share) < 1e-9:
        return str(simple)
    return f"{share:.3g}"


def _turns_name(turns: int, share: float, policy: str) -> str:
    return f"{turns} turns, share {share_text(share)}, {policy}"


def _bar(progress: object, total: int, desc: str, unit: str) -> Any:
    """The bar over ``total`` steps (``lcanalysis.progress``: shown once the work has taken
    ``PROGRESS_DELAY``); ``progress`` checked first. At the largest ``n`` a row of a model takes about
    half a second, and a model or a break-even search runs many: seconds, not to be waited for in silence."""
    return progress_bar(total=total, desc=desc, unit=unit, progress=check_progress(progress, WagerError))


def _mask(values) -> int:
    m = 0
    for v in values:
        m |= 1 << (v - MIN_VALUE)  # the kernel's rank mask: bit r-1 for rank r, the number r+1
    return m


@njit(cache=True)
def _ranks_above(mask, top):
    """The ranks in ``mask`` above ``top``, lowest first: an array of 9 and how many of it are used."""
    out = np.empty(NUMBERS_PER_COLOR, np.int64)
    k = 0
    for r in range(top + 1, RANKS_PER_COLOR):
        if mask & (1 << (r - 1)):
            out[k] = r
            k += 1
    return out, k


@njit(cache=True)
def _simulate(placed_w, placed_mask, j, hand_mask, live_unseen_mask, unseen_total, my_draws,
              opp_hidden, opp_draws, opp_known_mask, opp_opened, opp_top, keep_unopened, p_pickup,
              turns, budget, decline_end, n, seed, hist, eager=False):
    """Monte Carlo over the split of the unseen cards and the draw order. Fills ``hist``; returns (mean, sd).

    ``turns < 0``: no turn counting (every live card arrives in time and is placed).
    """
    np.random.seed(seed)
    top = top_rank(placed_mask)
    psum, pn = mask_sum_count(placed_mask, 0)
    live, nl = _ranks_above(live_unseen_mask, top)
    hand_live, nh = _ranks_above(hand_mask, top)
    known, nk = _ranks_above(opp_known_mask, top)
    # arrival[r]: the draw index after which rank r is in the player's hand (-1: from the start,
    # 1000: never)
    arrival = np.empty(RANKS_PER_COLOR, np.int64)
    pos = np.empty(NUMBERS_PER_COLOR, np.int64)
    w = placed_w + j
    s1 = 0.0
    s2 = 0.0
    for _ in range(n):
        for r in range(RANKS_PER_COLOR):
            arrival[r] = 1000
        for i in range(nh):
            arrival[hand_live[i]] = -1
        # distinct positions in a random order of the unseen cards for each live card
        for i in range(nl):
            while True:
                q = np.random.randint(unseen_total)
                ok = True
                for t in range(i):
                    if pos[t] == q:
                        ok = False
                        break
                if ok:
                    break
            pos[i] = q
        for i in range(nl + nk):
            if i < nl:
                q = pos[i]
                r = live[i]
            else:
                q = my_draws  # a known opponent card: in its hand from the start
                r = known[i - nl]
            if q < my_draws:
                arrival[r] = q
                continue
            q -= my_draws
            if i < nl and q >= opp_hidden + opp_draws:
                continue  # stays in the draw pile
            if opp_opened:
                if r > opp_top:
                    continue  # the opponent needs it
            elif np.random.random() < keep_unopened:
                continue
            if np.random.random() >= p_pickup:
                continue
            if i >= nl or q < opp_hidden:
                # held from the start: discarded at a random time of the round
                arrival[r] = np.random.randint(max(my_draws, 1)) if my_draws > 0 else 1000
            else:
                arrival[r] = q - opp_hidden  # picked up on the player's draw after the opponent's
                if arrival[r] >= my_draws:
                    arrival[r] = 1000
        total = psum
        cnt = pn
        if turns < 0:
            for r in range(top + 1, RANKS_PER_COLOR):
                if arrival[r] < 1000:
                    total += r + 1
                    cnt += 1
        else:
            cur = top
            b = budget - j
            held = 0
            for t in range(j + 1, turns + 1):
                # cards available at turn t arrived on draws 0 .. t-2 (draw i ends turn i+1)
                held = 0
                for r in range(cur + 1, RANKS_PER_COLOR):
                    if arrival[r] <= t - 2:
                        held += 1
                if held == 0 or b <= 0:
                    continue
                # keep the best min(b, turns left): the lowest held cards beyond that are never placed
                room = min(b, turns - t + 1)
                if held > room:
                    drop = held - room
                    for r in range(cur + 1, RANKS_PER_COLOR):
                        if drop == 0:
                            break
                        if arrival[r] <= t - 2:
                            arrival[r] = 1000
                            drop -= 1
                    held = room
                if eager or held >= turns - t + 1:
                    for r in range(cur + 1, RANKS_PER_COLOR):
                        if arrival[r] <= t - 2:
                            cur = r
                            total += r + 1
                            cnt += 1
                            b -= 1
                            break
        sc = expedition_points(w, total, cnt)
        if decline_end and w == 0 and pn == 0 and sc < 0:
            sc = 0
        hist[sc + SCORE_OFFSET] += 1
        s1 += sc
        s2 += sc * sc
    mean = s1 / n
    var = s2 / n - mean * mean
    return mean, math.sqrt(max(var, 0.0) * n / max(n - 1, 1))


@dataclass
class OpponentInfo:
    """What the player knows of the opponent in this colour."""

    hidden: int = Rules().hand_size  # the opponent's unknown hand cards: a whole hand by default
    draws: int = 0  # the opponent's draws from the pile still to come
    known: tuple[int, ...] = ()  # numbers of the colour known to be in its hand
    opened: bool = False  # whether its expedition of the colour holds a card
    top: int = 0  # the highest number on it (0: none)

    def __post_init__(self) -> None:
        self.hidden = _whole_in("OpponentInfo.hidden (its unknown hand cards)", self.hidden, 0, MAX_OPPONENT_CARDS)
        self.draws = _whole_in("OpponentInfo.draws (its draws from the pile)", self.draws, 0, MAX_OPPONENT_CARDS)
        if isinstance(self.known, (str, bytes)) or not hasattr(self.known, "__iter__"):
            raise WagerError(f"OpponentInfo.known: the numbers (2..10) known in its hand, got {self.known!r}")
        self.known = tuple(sorted(_check_values("OpponentInfo.known", list(self.known))))
        self.opened = check_flag("OpponentInfo.opened", self.opened, WagerError)
        top = whole_number(self.top)
        if top is None or not (top == 0 or MIN_VALUE <= top <= MAX_VALUE):
            raise WagerError(f"OpponentInfo.top: the highest number on its expedition (2..10, or 0: none), "
                             f"got {self.top!r}")
        self.top = top


def _mc(state: ColorState, draws: int, *, turns: int = -1, share: float = 1.0,
        opponent: OpponentInfo | None = None, keep_unopened: float = 0.5, p_pickup: float = 0.0,
        decline_end: bool = False, n: int = 20_000, seed: int = 0, model: str = "",
        eager: bool = False, only: int | None = None, progress: bool = False) -> WagerAnalysis:
    """The Monte Carlo rows, one per number of wagers placed now (``only``: that one alone, the same
    numbers as among all); ``progress``: a bar over the rows (``_bar``)."""
    state = check_state(state, model.split(" (")[0] or "the wager model")
    draws = _whole_draws(draws, state.unseen_total, "the unseen cards")
    n, seed, share = _check_sampling(n, seed, share)
    if opponent is not None and not isinstance(opponent, OpponentInfo):
        raise WagerError(f"the opponent must be an OpponentInfo, got {type(opponent).__name__}")
    opp = opponent or OpponentInfo(hidden=0, draws=0)
    for where, numbers in (("in the player's hand", state.hand), ("on the player's expedition", state.placed),
                           ("among the unseen cards", state.unseen)):
        twice = sorted(set(opp.known) & set(numbers))
        if twice:  # it was counted in both places: known=(8,) with an 8 in hand ran as if there were two
            raise WagerError(f"OpponentInfo.known: {', '.join(map(str, twice))} known in the opponent's hand "
                             f"cannot also be {where} (each number of a colour is one card)")
    if draws + opp.hidden + opp.draws > state.unseen_total:
        raise WagerError(f"the player's {draws} draws, the opponent's {opp.hidden} hidden cards and "
                         f"{opp.draws} draws exceed the {state.unseen_total} unseen cards")
    # after the checks: a bad argument is refused at once, not after a first compile
    first_compile.ready(first_compile.WAGER_MODELS)  # (compiled once, saying so: core.first_compile)
    budget = math.ceil(share * turns - 1e-9) if turns >= 0 else 0
    outs = []
    pm = _mask(state.placed)
    one = one_world(state, draws, opp)
    # counting turns, each wager placed takes a turn of its own: no more wagers than turns left
    rows = [j for j in state.wager_choices if (turns < 0 or j <= turns) and (only is None or j == only)]
    bar = _bar(progress, len(rows), f"{model or 'wager model'}: rows of {1 if one else n:,} samples", "row")
    for j in rows:
        hist = np.zeros(SCORE_SLOTS, dtype=np.int64)
        # one world: every sample would be that world, so one play of it is the answer, exactly
        runs = 1 if one else n
        mean, sd = _simulate(state.placed_wagers, pm, j, _mask(state.hand), _mask(state.unseen),
                             state.unseen_total, draws, opp.hidden, opp.draws, _mask(opp.known),
                             opp.opened, max(opp.top - 1, 0), keep_unopened, p_pickup, turns, budget,
                             decline_end, runs, seed + 7919 * j, hist, eager)
        dist: dict[int, Number] = {int(i) - SCORE_OFFSET: float(c) / runs for i, c in enumerate(hist) if c}
        if one:
            outs.append(WagerOutcome(wagers=j, distribution=dist, mean=float(mean)))
        else:
            outs.append(WagerOutcome(wagers=j, distribution=dist, mean=float(mean), exact=False,
                                     stderr=float(sd / math.sqrt(n)), samples=n))
        bar.update(1)
    bar.close()
    return WagerAnalysis(draws=draws, by_wagers=outs, exact=one, model=model,
                         inputs={"state": state, "turns": turns, "share": share, "opponent": opp,
                                 "n": 0 if one else n})


def one_world(state: ColorState, draws: int, opponent: OpponentInfo | None = None) -> bool:
    """Whether every sample of the Monte Carlo models (``_simulate``) is the same world, so that one play
    of it is the exact answer: the player has no draw to come (a card reaches the hand only on a draw of
    its own, a discard picked up included), or no card of the colour could come, no unseen number and
    none known in the opponent's hand above the expedition's top (the cards held play out the same way
    whatever the draws). Otherwise the sample decides which cards come, and when."""
    top = max(state.placed, default=0)
    known = opponent.known if opponent is not None else ()
    return draws == 0 or not any(v > top for v in (*state.unseen, *known))


def canonical_mc(state: ColorState, draws: int, n: int = 20_000, seed: int = 0,
                 progress: bool = True) -> WagerAnalysis:
    """The canonical model by Monte Carlo: the engine's self-check against the exact answer.
    ``progress``: a bar on standard error once the sampling has taken a second (``_bar``)."""
    return _mc(state, draws, n=n, seed=seed, model="canonical (Monte Carlo)", progress=progress)


def turn_model(state: ColorState, turns: int, share: float = 1.0, n: int = 20_000, seed: int = 0,
               policy: str = "late", progress: bool = True, unseen: str = "fixed") -> WagerAnalysis:
    """Turn counting: ``turns`` turns left, ``turns - 1`` useful draws.

    Each wager placed now takes one of the first turns, so the answer has a row for ``j`` wagers
    only for ``j`` up to ``turns`` (with 0 turns left, only ``j = 0``: the expedition as it is).

    ``share``: the fraction of the turns this colour may use (1: all it wants).
    ``policy="late"``: hold the cards and start placing as late as possible (the best order
    without foresight); ``"eager"``: place the lowest live card held on every turn the budget
    allows (play as you go, as simple bots and many players do; cards drawn later below the
    top are lost).
    ``progress``: a bar on standard error once the sampling has taken a second (``_bar``).
    ``unseen``, as in ``break_even_turns``: ``"fixed"`` (the default) draws from the state's
    ``unseen_total`` cards (turns from now), so at most ``unseen_total + 1`` turns (more are refused,
    naming the limit: the draws are never cut short under the name of more turns); ``"round"``:
    ``turns`` left later in a round, drawing from ``round_unseen(turns - 1)`` = ``2 turns + 8`` unseen
    cards, at most the turns the state's own unseen cards stand for (22 at the deal's 52).
    """
    state = check_state(state, "turn_model")
    return _turns_mc(_round_state(state, turns, unseen), turns, share, n, seed, policy, progress=progress)


def _round_state(state: ColorState, turns: int, unseen: str) -> ColorState:
    """``state`` as ``turns`` turns left in a round see it (``unseen="round"``), or as given (``"fixed"``)."""
    if unseen not in UNSEEN_CHOICES:
        raise WagerError(f"unseen must be 'fixed' (turns from now, drawing from the state's {state.unseen_total} "
                         f"unseen cards) or 'round' (turns left in a round, 2t + 8 unseen cards for t turns left), "
                         f"got {unseen!r}")
    if unseen == "fixed":
        return state
    turns = _whole_in("turns", turns, 0, MAX_TURNS)
    most = _most_turns(state, "round")
    if turns > most:  # (a round with more turns left holds more unseen cards than the state has)
        raise WagerError(f"turns must be {most} turns left at most for unseen='round' with the state's "
                         f"{state.unseen_total} unseen cards, got {turns}")
    return replace(state, unseen_total=round_unseen(max(turns - 1, 0)))


def _most_turns(state: ColorState, unseen: str = "fixed") -> int:
    """The most turns left the state's unseen cards allow: ``turns - 1`` draws of them (``"fixed"``), or a
    round whose unseen cards (``round_unseen``) are no more than they (``"round"``)."""
    return (state.unseen_total if unseen == "fixed" else most_round_draws(state.unseen_total)) + 1


def _turns_mc(state: ColorState, turns: int, share: float, n: int, seed: int, policy: str,
              only: int | None = None, progress: bool = False) -> WagerAnalysis:
    """``turn_model``'s answer (``only``: its row for that many wagers alone)."""
    if policy not in ("late", "eager"):
        raise WagerError(f"policy must be 'late' or 'eager', got {policy!r}")
    turns = _whole_in("turns", turns, 0, MAX_TURNS)
    n, seed, share = _check_sampling(n, seed, share)  # (share is written into the model's name)
    draws = max(turns - 1, 0)
    if draws > state.unseen_total:  # (capping the draws answered another question under this one's name)
        raise WagerError(f"turns={turns} needs {draws} draws (turns - 1), more than the state's {state.unseen_total} "
                         f"unseen cards: at most {_most_turns(state)} turns with unseen='fixed' (or give more "
                         f"unseen cards, unseen_total)")
    return _mc(state, draws, turns=turns, share=share, n=n, seed=seed,
               model=f"turns ({_turns_name(turns, share, policy)})", eager=policy == "eager", only=only,
               progress=progress)


def opponent_model(state: ColorState, draws: int, opponent: OpponentInfo, p_pickup: float = 0.5,
                   keep_unopened: float = 0.5, turns: int | None = None, share: float = 1.0,
                   n: int = 20_000, seed: int = 0, policy: str = "late", progress: bool = True) -> WagerAnalysis:
    """The opponent's hand and needs: live cards it cannot use come back with probability ``p_pickup``.

    With ``turns``, turn counting applies as in ``turn_model`` (``share``, ``policy``).
    ``progress``: a bar on standard error once the sampling has taken a second (``_bar``).
    """
    if policy not in ("late", "eager"):
        raise WagerError(f"policy must be 'late' or 'eager', got {policy!r}")
    for name, value in (("p_pickup", p_pickup), ("keep_unopened", keep_unopened)):
        if isinstance(value, bool) or not isinstance(value, Real) or not 0.0 <= float(value) <= 1.0:
            raise WagerError(f"p_pickup and keep_unopened are probabilities in [0, 1]; {name} is {value!r}")
    turns = -1 if turns is None else _whole_in("turns", turns, 0, MAX_TURNS)
    n, seed, share = _check_sampling(n, seed, share)
    return _mc(state, draws, turns=turns, share=share, opponent=opponent,
               p_pickup=p_pickup, keep_unopened=keep_unopened, n=n, seed=seed, eager=policy == "eager",
               model=f"opponent-aware (pick-up {p_pickup:g}, keep unopened {keep_unopened:g}"
                     + (f"; {_turns_name(turns, share, policy)})" if turns >= 0 else ")"), progress=progress)


def break_even_turns(state: ColorState, wagers: int = 0, share: float = 1.0, policy: str = "late",
                     criterion: str = "mean", max_turns: int = 28, n: int = 4000,
                     seed: int = 0, min_turns: int = 1, progress: bool = True,
                     unseen: str = "fixed") -> tuple[int | None, float]:
    """The break-even point of the turn model: the fewest turns left (``min_turns``..``max_turns``) at
    which the mean score reaches 0 (``criterion="mean"``) or P(score >= 0) reaches 1/2 (``"median"``),
    both of the expedition with ``wagers`` wagers; ``"marginal"``: at which the ``wagers``-th wager
    adds to the mean (``marginal(wagers) >= 0``, its standard error that of the difference), the
    question "from how many turns left does this wager pay?". The two differ: holding 2 3 8 10 and
    nothing to come, a wager leaves the mean at +2 with 4 turns (wager, 3 8 10) but costs 1 point
    against +3 without it; it pays from 5 turns.

    Returns ``(turns, stderr)``: an estimate, with the standard error of the mean (or of the
    probability) at that number of turns; ``(None, nan)`` when it never gets there.
    An untouched colour (nothing on the expedition, no number held, no wager placed now) breaks even
    at 1 turn, as ``break_even_draws`` does at 0 draws: with no draw to come it is never opened and
    scores 0. ``min_turns=2`` asks from the first turn count at which a drawn card can open it.
    Each turn count samples the row of ``wagers`` alone (``turn_model`` samples every number of
    wagers, with the same numbers); ``progress``: a bar on standard error over the turn counts once
    the search has taken a second (at ``n=1_000_000`` it took 7.6 s in silence).

    ``unseen``, as in ``break_even_draws``: ``"fixed"`` (the default) draws each turn count's
    ``turns - 1`` draws from the state's ``unseen_total`` cards (turns from now), up to
    ``unseen_total + 1`` turns (every unseen card drawn); ``"round"`` counts
    the turns left later in a round, ``t`` turns left drawing from ``round_unseen(t - 1)`` = ``2t + 8``
    unseen cards, up to the turns the state's own unseen cards stand for (22 at the deal's 52). Either
    way ``max_turns`` goes no further, and ``None`` means never within those turns; a ``min_turns``
    beyond them is refused.
    Holding 2 3 4 and a wager, a third of the turns: 17 turns of the deal's 52 cards, 13 left in a round.
    """
    if unseen not in UNSEEN_CHOICES:
        raise WagerError(f"unseen must be 'fixed' (turns from now, drawing from the state's {state.unseen_total} "
                         f"unseen cards) or 'round' (turns left in a round, 2t + 8 unseen cards for t turns left), "
                         f"got {unseen!r}")
    if criterion not in BREAK_EVEN_CRITERIA:
        raise WagerError(f"criterion must be 'mean', 'median' or 'marginal' (the wager adds >= 0), got {criterion!r}")
    state = check_state(state, "break_even_turns")
    wagers = state.check_wagers(wagers)
    if criterion == "marginal" and wagers < 1:
        raise WagerError("criterion='marginal' asks when the wagers-th wager adds to the mean: give wagers=1, 2 or 3")
    max_turns = _whole_in("max_turns", max_turns, 1, MAX_TURNS)
    min_turns = _whole_in("min_turns", min_turns, 1, MAX_TURNS)
    if min_turns > max_turns:  # (an empty search said (None, nan): "never breaks even")
        raise WagerError(f"min_turns={min_turns} is above max_turns={max_turns}: no turn count to try")
    first = max(min_turns, wagers)  # (fewer turns than wagers cannot place them)
    most = _most_turns(state, unseen)  # no more turns than the state's unseen cards draw for, or stand for
    if min_turns > most:  # (an empty search said (None, nan): "never breaks even")
        raise WagerError(f"min_turns={min_turns} is more turns than the state's {state.unseen_total} unseen cards "
                         f"allow with unseen={unseen!r}: at most {most} turns")
    max_turns = min(max_turns, most)
    with _bar(progress, max(max_turns + 1 - first, 0), f"break-even: turn counts tried, {n:,} samples each",
              "count") as bar:
        for t in range(first, max_turns + 1):
            here = _round_state(state, t, unseen)
            o = _turns_mc(here, t, share, n, seed, policy, only=wagers).outcome(wagers)
            bar.update(1)
            if criterion == "marginal":  # the row of one wager fewer, sampled as turn_model samples it
                below = _turns_mc(here, t, share, n, seed, policy, only=wagers - 1).outcome(wagers - 1)
                if o.mean - below.mean >= 0:
                    return t, math.hypot(o.stderr, below.stderr)
            elif criterion == "mean":
                if o.mean >= 0:
                    return t, o.stderr
            else:
                if o.p_break_even >= 0.5:  # (its error as the turn model's printout gives it)
                    return t, o.p_break_even_stderr
    return None, math.nan


def decline_now(analysis: WagerAnalysis, opened: bool) -> tuple[float, int | None]:
    """Value and choice when an unopened colour may be left alone, decided now from the means.

    Returns ``(value, wagers)``; ``wagers`` is None for "do not open".
    """
    if not isinstance(analysis, WagerAnalysis):
        raise WagerError(f"decline_now: the analysis must be a WagerAnalysis (what analyze, wager_distribution "
                         f"or turn_model return), got {type(analysis).__name__}")
    best = max(analysis.by_wagers, key=lambda o: (o.mean, -o.wagers))
    if not opened and best.mean < 0:
        return 0.0, None
    return float(best.mean), best.wagers


def decline_at_end(state: ColorState, draws: int, exact: bool = True) -> WagerAnalysis:
    """The canonical model with the option kept to the end: with no wagers and nothing on the
    expedition, the player opens only if the collected numbers make a profit (score ``max(0, S)``).
    Wagers placed now commit the colour, as in the canonical model. Exact: nothing is sampled
    (``exact=False`` does the same sums in floating point instead of fractions)."""
    state = check_state(state, "decline_at_end")
    base = analyze(state, draws, exact=exact)
    unopened = not state.placed and state.placed_wagers == 0
    outs = []
    for o in base.by_wagers:
        if o.wagers == 0 and unopened:
            dist: dict[int, Number] = {}
            for s, p in o.distribution.items():
                key = max(s, 0)
                dist[key] = dist.get(key, 0) + p
            zero: Number = Fraction(0) if exact else 0.0
            mean = sum((s * p for s, p in dist.items()), zero)
            outs.append(WagerOutcome(wagers=0, distribution=dict(sorted(dist.items())), mean=mean))
        else:
            outs.append(o)
    return WagerAnalysis(draws=base.draws, by_wagers=outs, color=base.color,
                         model="decline at end", inputs=base.inputs)


# --- from a View ---------------------------------------------------------------------------------


def opponent_info_from_view(view: Any, color: str | int) -> OpponentInfo:
    """What ``view``'s viewer knows of the opponent in one colour; the opponent's pile draws assume
    both players draw from the pile (the viewer gets ``turns_left``, the opponent the rest)."""
    from lcanalysis.wagers.canonical import color_letter

    c = COLOR_LETTERS.index(color_letter(view, color))  # (the colour checked, and read as a card's is)
    opp = 1 - view.viewer
    exp = view.expeditions[opp][c]
    nums = [x.number for x in exp if not x.is_wager]
    known = tuple(sorted(x.number for x in view.opponent_known if x.color == c and not x.is_wager))
    mine = turns_left(int(view.deck_count), view.to_move == view.viewer)
    return OpponentInfo(hidden=int(view.opponent_count) - len(view.opponent_known),
                        draws=int(view.deck_count) - mine, known=known, opened=bool(exp),
                        top=max(nums, default=0))


#: the models ``analyze_view_models`` runs, in the order it runs and returns them (exact ones first)
VIEW_MODELS = WAGER_VIEW_MODELS


def check_view_models(models: Any) -> tuple[str, ...]:
    """``models`` (names of ``VIEW_MODELS``; None: every one) as a tuple in ``VIEW_MODELS``'s order, each
    once; a name that is not a model, or none at all, a ``WagerError`` naming the models there are."""
    if models is None:
        return VIEW_MODELS
    if isinstance(models, str) or not hasattr(models, "__iter__"):
        raise WagerError(f"models must be a list of model names ({', '.join(VIEW_MODELS)}), got {models!r}")
    names = list(models)
    unknown = [m for m in names if m not in VIEW_MODELS]
    if unknown:
        raise WagerError(f"no wager model named {', '.join(map(repr, unknown))}; the models are "
                         f"{', '.join(VIEW_MODELS)}")
    if not names:
        raise WagerError(f"models names none: give one or more of {', '.join(VIEW_MODELS)} (None: every one)")
    return tuple(m for m in VIEW_MODELS if m in names)


def analyze_view_models(view: Any, color: str | int, *, share: float = 1.0, p_pickup: float = 0.1,
                        keep_unopened: float = 0.5, n: int = WAGER_SAMPLES_DEFAULT, seed: int = 0,
                        progress: bool = True, models: Any = None) -> dict[str, WagerAnalysis]:
    """Every model for one colour of a view, with the draws and turns the view implies.

    The viewer has ``turns_left(deck, to_move)`` turns and one fewer useful draws (both players
    drawing from the pile). Keys: ``canonical`` (exact, useful draws), ``decline_at_end`` (exact),
    ``turns`` (late policy), ``turns_eager``, ``opponent`` and ``turns_opponent`` (Monte Carlo,
    ``p_pickup`` default 0.1, the value that fits simulated play; see docs/wagers.md).
    ``models``: the names of those to run (None: every one; each model's answer is the same either
    way, its samples drawn from ``seed`` alone). ``progress``: a bar on standard error over the
    models once they have taken a second (``_bar``).
    """
    chosen = check_view_models(models)
    from lcanalysis.wagers.canonical import analyze_view, color_letter, color_state_from_view

    state = color_state_from_view(view, color)
    turns = turns_left(int(view.deck_count), view.to_move == view.viewer)
    k = useful_draws(int(view.deck_count), view.to_move == view.viewer)
    opp = opponent_info_from_view(view, color)
    letter = color_letter(view, color)
    makers: dict[str, Callable[[], WagerAnalysis]] = {
        "canonical": lambda: analyze_view(view, color, k),
        "decline_at_end": lambda: decline_at_end(state, k),
        "turns": lambda: turn_model(state, turns, share=share, n=n, seed=seed, progress=False),
        "turns_eager": lambda: turn_model(state, turns, share=share, n=n, seed=seed, policy="eager", progress=False),
        "opponent": lambda: opponent_model(state, k, opp, p_pickup=p_pickup, keep_unopened=keep_unopened, n=n,
                                           seed=seed, progress=False),
        "turns_opponent": lambda: opponent_model(state, k, opp, p_pickup=p_pickup, keep_unopened=keep_unopened,
                                                 turns=turns, share=share, n=n, seed=seed, progress=False),
    }
    out = {}
    with _bar(progress, len(chosen), f"wager models of {letter}", "model") as bar:
        for name in chosen:
            out[name] = makers[name]()
            out[name].color = letter
            bar.update(1)
    return out
