"""The luck of the deck draws of a played round, cheap enough for every round of a tournament.

A deck draw is the game's roll of the dice. Its **luck**, for the player who draws, is

    luck = V(after drawing the card drawn) - mean of V(after drawing c) over the cards c of the pile

where the turn's placement is fixed and ``V`` is the drawing player's value of the state after
the draw, from what they can see (their hand, the table, the discard piles; every other card
counts as unseen, the opponent's cards taken from a discard pile included, as the kernel does
not keep track of them). Once the draw ends the round, ``V`` is their actual score difference,
so the last card, which can never be placed, has no luck at all.

**Unbiased by construction.** The tournament knows the pile, and given everything that has
happened the pile is in uniformly random order, so the card on top is uniform over the cards
in the pile. The mean is taken over exactly those cards (each card counted, not each kind:
three wagers of a colour weigh three times one number card). Hence ``E[luck | the game so
far] = 0`` whatever ``V`` is, and so is the sum of a player's lucks over a round: subtracting
it from the result (a control variate with coefficient 1) leaves the mean result as it is, and
removes as much of the draws' noise as ``V`` tracks what the draws are worth. Averaging over the
cards the drawer cannot see instead (the review's view, ``lcanalysis.reviewer.draw_luck``) would
mix in the opponent's hand, which cannot be drawn and which the opponent chose to keep: that
average is not the chance law of the draw. The opponent's own value does not change with the
card drawn (both the pile and the drawer's hand are hidden from them), so it is left out.

**The value** ``V`` (``value="turns"``, the default): the drawer's score on the table plus the
best they can still add in the turns they have left (``turns_value``). With ``d`` cards in the
pile a player has ``T`` turns left (``ceil(d/2)`` when to move, ``floor(d/2)`` otherwise, no
stalls: ``core.features.turns_left``, shared with the policies and the searchers), and each
turn places at most one card, so at most ``T`` of the cards in hand reach an expedition: for
each colour the best final score with ``j`` more cards from hand (the highest numbers above the
expedition's top, wagers first while it holds no number; an unopened colour may stay unopened
at 0; the 20-point bonus at 8 cards), with the expected face value of the unseen cards above
the top that the player's remaining draws bring (each unseen card is drawn with chance
``(T - 1) / unseen``), counted at ``FUTURE_SHARE`` of its value; the colours share the ``T``
placements (an exact allocation by dynamic programming).

``value="evaluator"`` uses the compiled hand evaluator instead (``lcanalysis.evaluator.evaluate_state``,
the canonical expedition means, every card in hand counted as if it could still be placed).
Both are unbiased; they differ in how much noise they remove. On heuristic v greedy duplicate
deals (seed 1, 300 deals, apart from every published measurement) the evaluator's luck removed
none (variance ratio raw/adjusted 0.97, 95% bootstrap interval 0.83-1.15) and the turn-limited
value's removed a fifth (1.25, 1.06-1.47). The evaluator values every card in hand as placeable,
so late in the round, when a player holds more cards than turns, it calls large lucks that do
not change the result: regressing the result on the evaluator's luck in each quarter of the pile
gives slopes of 0.32, 0.63, 0.84 and 0.07 (1 would be calibrated), and the evaluator's value
difference predicts the final difference with a slope of 0.5-0.6 at every stage, where the
turn-limited value's slope is 0.75-1.04 (with 6 cards left it explains 67% of the variance of
the final difference, the evaluator 32%). These diagnostics, which chose the design, used 300
rounds of seed 0, deals 0-299; the published measurement uses other deals.

**Luck-adjusted result** of a round, for seat 0: ``(score0 - score1) - (luck0 - luck1)``,
where ``luckP`` sums the luck of seat P's draws from P's side.

Cost: one value per kind of card in the pile per draw, all compiled: a few milliseconds a round.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from lcanalysis.core import first_compile
from lcanalysis.core import kernel as K
from lcanalysis.core.constants import WAGER, WAGER_COPIES
from lcanalysis.core.features import turns_left
from lcanalysis.evaluator import evaluate_state
from lcanalysis.game.moves import Move

__all__ = ["FUTURE_SHARE", "VALUES", "deck_draw_luck", "draw_outcomes", "draw_values", "drawer_value", "turn_luck",
           "turns_value"]

#: the share of the expected face value of future draws that ``turns_value`` counts, chosen on
#: 300 heuristic v greedy duplicate deals of seed 1, apart from every published measurement:
#: variance ratios 1.14, 1.21, 1.25, 1.24 and 1.17 for 0, 0.25, 0.5, 0.75 and 1 (each within
#: about 0.2 of the others at 95%: the choice matters little)
FUTURE_SHARE = 0.5
#: the value functions ``deck_draw_luck`` knows, by name -> code
VALUES = {"turns": 0, "evaluator": 1}

_NEG = -1e18


@njit(cache=True)
def unseen_counts(s, q, out):
    """Per card type, the cards player ``q`` cannot see (the pile and the opponent's hand)."""
    nc = s[K.H_NC]
    oh = K.off_hand(nc, q)
    for t in range(K.RANKS * nc):
        out[t] = (WAGER_COPIES if t % K.RANKS == WAGER else 1) - s[oh + t]
    for pl in range(2):
        for c in range(nc):
            out[c * K.RANKS] -= s[K.off_wagers(nc, pl) + c]
            m = s[K.off_mask(nc, pl) + c]
            for r in range(1, K.RANKS):
                if m & (1 << (r - 1)):
                    out[c * K.RANKS + r] -= 1
    opl = K.off_pile_len(nc)
    op = K.off_pile(nc)
    for c in range(nc):
        for i in range(s[opl + c]):
            out[c * K.RANKS + s[op + c * K.PILE_CAP + i]] -= 1


@njit(cache=True)
def _colour_curve(pw, pm, hw, ranks, nh, cap, future, curve):
    """``curve[j]``: the best final score of one colour with ``j`` more cards from hand placed
    (``ranks[:nh]``: the numbers in hand above the top, highest first; ``hw`` wagers in hand),
    ``future`` the expected face value still to come. Returns the last useful ``j``."""
    psum, pn = K.mask_sum_count(pm, 0)
    opened = pw > 0 or pm != 0
    maxi_all = hw if pm == 0 else 0
    last = min(cap, nh + maxi_all)
    for j in range(last + 1):
        best = _NEG
        for i in range(min(maxi_all, j) + 1):
            nnum = min(j - i, nh)
            total = psum + future
            for a in range(nnum):
                total += ranks[a] + 1
            cards = pw + pn + i + nnum
            if not opened and i + nnum == 0:
                v = 0.0
            else:
                v = float(K.points_before_bonus(pw + i, total))
                if cards >= K.BONUS_CARDS:
                    v += K.BONUS
            if v > best:
                best = v
        if not opened and best < 0.0:
            best = 0.0  # an unopened colour may stay unopened
        curve[j] = best
    return last


@njit(cache=True)
def turns_value(s, q, future_share):
    """Player ``q``'s turn-limited value of state ``s``: the best final score of their
    expeditions with at most one card placed a turn (module docstring), from what they can see."""
    nc = s[K.H_NC]
    oh = K.off_hand(nc, q)
    cap = turns_left(K.deck_left(s), s[K.H_TO_MOVE] == q)
    unseen = np.zeros(K.RANKS * nc, np.int64)
    unseen_counts(s, q, unseen)
    u = 0
    for t in range(K.RANKS * nc):
        u += unseen[t]
    draws = max(cap - 1, 0)
    chance = draws / u if u > 0 else 0.0
    dp = np.full(cap + 1, _NEG)
    dp[0] = 0.0
    new = np.empty(cap + 1)
    curve = np.empty(cap + 1)
    ranks = np.empty(K.RANKS, np.int64)
    reach = 0
    for c in range(nc):
        pw = s[K.off_wagers(nc, q) + c]
        pm = s[K.off_mask(nc, q) + c]
        top = K.top_rank(pm)
        nh = 0
        for r in range(K.RANKS - 1, 0, -1):
            if r > top and s[oh + c * K.RANKS + r] > 0:
                ranks[nh] = r
                nh += 1
        future = 0.0
        for r in range(top + 1, K.RANKS):
            if unseen[c * K.RANKS + r] > 0:
                future += (r + 1) * chance
        last = _colour_curve(pw, pm, s[oh + c * K.RANKS], ranks, nh, cap, future_share * future, curve)
        new[:] = _NEG
        for a in range(reach + 1):
            if dp[a] == _NEG:
                continue
            for j in range(min(last, cap - a) + 1):
                v = dp[a] + curve[j]
                if v > new[a + j]:
                    new[a + j] = v
        reach = min(cap, reach + last)
        dp[:] = new
    best = _NEG
    for a in range(reach + 1):
        if dp[a] > best:
            best = dp[a]
    return best


@njit(cache=True)
def drawer_value(s, p, kind):
    """``V``: player ``p``'s value of state ``s`` (after a draw): their actual score difference
    once the round is over; else ``turns_value`` (``kind`` 0) or the hand evaluator (``kind`` 1)."""
    if K.is_over(s):
        return float(K.player_score(s, p) - K.player_score(s, 1 - p))
    if kind == 1:
        out = np.empty(s[K.H_NC])
        return evaluate_state(s, p, -1, out)
    return turns_value(s, p, FUTURE_SHARE)


@njit(cache=True)
def draw_values(s, move, kind, types, counts, values):
    """For the turn ``move`` (a whole turn that draws from the pile) of the player to move in ``s``:
    every kind of card ``t`` in the pile, how many of it (``counts``) and ``V`` after drawing it
    (``values``), in ``types[:n]``; returns ``n``. ``s`` is left as it was."""
    nc = s[K.H_NC]
    p = s[K.H_TO_MOVE]
    placed = s.copy()
    place = move // (nc + 1)
    if place < 2 * K.RANKS * nc:
        K.apply_place(placed, place)
    pile = np.zeros(K.RANKS * nc, np.int64)
    od = K.off_deck(nc)
    for j in range(s[K.H_DECK_POS], s[K.H_DECK_END]):
        pile[s[od + j]] += 1
    n = 0
    work = placed.copy()
    for t in range(K.RANKS * nc):
        if pile[t] == 0:
            continue
        work[:] = placed
        K.bring_to_top(work, t)
        K.apply_draw(work, 0)
        types[n] = t
        counts[n] = pile[t]
        values[n] = drawer_value(work, p, kind)
        n += 1
    return n


@njit(cache=True)
def _deck_draw_luck(s, move, kind, out):
    nc = s[K.H_NC]
    m = K.RANKS * nc
    types = np.empty(m, np.int64)
    counts = np.empty(m, np.int64)
    values = np.empty(m)
    n = draw_values(s, move, kind, types, counts, values)
    top = s[K.off_deck(nc) + s[K.H_DECK_POS]]
    total = 0.0
    cards = 0
    actual = 0.0
    for i in range(n):
        total += counts[i] * values[i]
        cards += counts[i]
        if types[i] == top:
            actual = values[i]
    mean = total / cards
    out[0] = actual
    out[1] = mean
    return actual - mean


def _check(state: np.ndarray, move: int, value: str) -> int:
    if value not in VALUES:
        raise ValueError(f"value must be one of {', '.join(VALUES)}, got {value!r}")
    first_compile.ready(first_compile.LUCK)  # before the first compiled call (core.first_compile)
    if K.deck_left(state) <= 0:
        raise ValueError("the draw pile is empty: no draw to rate")
    if int(move) % (int(state[K.H_NC]) + 1) != 0:
        raise ValueError("the turn does not draw from the pile: its draw has no luck")
    return VALUES[value]


def deck_draw_luck(state: np.ndarray, move: int, value: str = "turns") -> tuple[float, float, float]:
    """``(luck, value after the draw, mean value over the pile)`` of the turn ``move`` (a kernel
    move code that draws from the pile) by the player to move in the kernel ``state``, the card
    drawn being the top of the pile. ``value``: ``"turns"`` or ``"evaluator"`` (module docstring).
    ``state`` is not changed."""
    kind = _check(state, move, value)
    out = np.empty(2)
    luck = _deck_draw_luck(state, int(move), kind, out)
    return float(luck), float(out[0]), float(out[1])


def turn_luck(state: np.ndarray, turn: Move | str, side: int, value: str = "turns") -> float | None:
    """The luck of ``turn``'s deck draw from player ``side``'s side: the drawer's luck
    (``deck_draw_luck``) for the drawer, its negative for the other player (what the drawer gains
    by the draw, the opponent loses); None for a turn that takes a discard pile's card (nothing in it
    is left to chance). ``state``: the kernel state before the turn, whose player to move plays it
    (not changed). The one place a played round's draws are rated: a tournament's rounds
    (``runner.play_round``) and a rollout's trials (``studies.rollout``)."""
    nc = int(state[K.H_NC])
    move = turn if isinstance(turn, Move) else Move.parse(str(turn), nc)
    if not move.draws_from_deck:
        return None
    luck = deck_draw_luck(state, move.code(nc), value)[0]
    return luck if int(state[K.H_TO_MOVE]) == side else -luck


def draw_outcomes(state: np.ndarray, move: int, value: str = "turns") -> dict[int, tuple[int, float]]:
    """Every possible outcome of the draw of ``move``: card type -> (cards of that type in the
    pile, ``V`` after drawing one)."""
    kind = _check(state, move, value)
    m = K.RANKS * int(state[K.H_NC])
    types = np.empty(m, np.int64)
    counts = np.empty(m, np.int64)
    values = np.empty(m)
    n = draw_values(state, int(move), kind, types, counts, values)
    return {int(types[i]): (int(counts[i]), float(values[i])) for i in range(n)}
