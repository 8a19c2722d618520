"""The rules on a flat integer array: move generation, apply and undo, scoring.

Everything here is in the subset of Python that numba compiles, and it is the one
source of truth for the rules: the object layer (``Position``) and the searchers call
these same functions. With ``NUMBA_DISABLE_JIT=1`` they run as plain Python.

State layout (``np.int32`` array, ``NT = 10 * NC`` card types, see ``constants.py``):

=============  ===========================================================
``S[0..11]``   header: NC, hand size, no_redraw, to_move, turns played, turn cap,
               deck position, deck end, phase (0 place, 1 draw), blocked colour
               (-1 none), spare, spare
hand(p)        ``NT`` counts per card type, player p
exp_wagers(p)  ``NC`` wagers on player p's expeditions
exp_mask(p)    ``NC`` bitmask of the numbers there (bit r-1 for rank r)
pile_len       ``NC`` cards in each discard pile
pile           ``NC x 12`` discard piles, rank codes, bottom first
deck           ``12 * NC`` card types; ``deck[pos:end]`` is the draw pile, top first
=============  ===========================================================

A whole turn is one integer ``move = place * (NC + 1) + source`` where
``place = type * 2 + discard`` (``place == 2 * NT`` means "no placement": the draw
half alone, for a position in its draw step) and ``source`` is 0 for the draw pile
or ``1 + colour`` for a discard pile.
"""

from __future__ import annotations

import numpy as np

from lcanalysis.core.constants import CARDS_PER_COLOR, MAX_COLORS, RANKS_PER_COLOR
from lcanalysis.core.jit import njit

RANKS = RANKS_PER_COLOR  # the kernel's stride: card type = colour * RANKS + rank
PILE_CAP = CARDS_PER_COLOR  # slots per discard pile: room for every card of its colour
H_NC, H_HAND_SIZE, H_NO_REDRAW, H_TO_MOVE, H_TURN, H_TURN_CAP = 0, 1, 2, 3, 4, 5
H_DECK_POS, H_DECK_END, H_PHASE, H_BLOCKED = 6, 7, 8, 9
HEADER = 12
MAX_MOVES = 2 * RANKS * MAX_COLORS * (MAX_COLORS + 1) + 8  # placements x sources, generous for 6 colours


@njit(cache=True)
def off_hand(nc, p):
    return HEADER + p * RANKS * nc


@njit(cache=True)
def off_wagers(nc, p):
    return HEADER + 2 * RANKS * nc + p * nc


@njit(cache=True)
def off_mask(nc, p):
    return HEADER + 2 * RANKS * nc + 2 * nc + p * nc


@njit(cache=True)
def off_pile_len(nc):
    return HEADER + 2 * RANKS * nc + 4 * nc


@njit(cache=True)
def off_pile(nc):
    return HEADER + 2 * RANKS * nc + 5 * nc


@njit(cache=True)
def off_deck(nc):
    return HEADER + 2 * RANKS * nc + 5 * nc + PILE_CAP * nc


@njit(cache=True)
def state_size(nc):
    return off_deck(nc) + PILE_CAP * nc


def new_state(colors, hand_size, no_redraw, turn_cap):
    """An empty table: no cards anywhere. The object layer fills it."""
    s = np.zeros(state_size(colors), dtype=np.int32)
    s[H_NC] = colors
    s[H_HAND_SIZE] = hand_size
    s[H_NO_REDRAW] = 1 if no_redraw else 0
    s[H_TURN_CAP] = turn_cap
    s[H_BLOCKED] = -1
    return s


# --- scoring -----------------------------------------------------------------

EXPEDITION_COST = 20  # what opening an expedition costs: its numbers' sum less 20
BONUS_CARDS = 8  # an expedition of this many cards or more (wagers included) ...
BONUS = 20  # ... earns this bonus


@njit(cache=True)
def points_before_bonus(wagers, total):
    """(total - 20) * (1 + wagers): an opened expedition's score without the bonus. ``total``
    may be an expected sum (a float): the wager models and the evaluators take their means so."""
    return (total - EXPEDITION_COST) * (1 + wagers)


@njit(cache=True)
def expedition_points(wagers, total, numbers):
    """The rules' score of an expedition with ``wagers`` wagers and ``numbers`` number cards
    adding up to ``total``: (total - 20) * (1 + wagers), + 20 with 8 cards or more; 0 when it
    holds no card. Exact on ints, compiled or called from plain Python."""
    if wagers == 0 and numbers == 0:
        return 0
    score = points_before_bonus(wagers, total)
    if wagers + numbers >= BONUS_CARDS:
        score += BONUS
    return score


FULL9 = (1 << (RANKS - 1)) - 1  # the rank mask of every number: bit r-1 for rank r = 1..9
# the face-value sum and the card count of every rank mask, looked up rather than counted
_MASK_SUM = np.array([sum(r + 1 for r in range(1, RANKS) if m >> (r - 1) & 1) for m in range(FULL9 + 1)], np.int64)
_MASK_COUNT = np.array([bin(m).count("1") for m in range(FULL9 + 1)], np.int64)


@njit(cache=True)
def mask_sum_count(mask, above):
    """The sum of face values and the number of the ranks in ``mask`` above rank ``above``
    (rank r is bit r-1 and face value r+1)."""
    live = mask & FULL9 & ~((1 << above) - 1)
    return _MASK_SUM[live], _MASK_COUNT[live]


@njit(cache=True)
def expedition_score(wagers, mask):
    """The score of an expedition given its wagers and the rank mask of its numbers."""
    total, n = mask_sum_count(mask, 0)
    return expedition_points(wagers, total, n)


@njit(cache=True)
def player_score(s, p):
    nc = s[H_NC]
    ow = off_wagers(nc, p)
    om = off_mask(nc, p)
    total = 0
    for c in range(nc):
        total += expedition_score(s[ow + c], s[om + c])
    return total


@njit(cache=True)
def top_rank(mask):
    """The highest rank on an expedition (0 when it holds no number)."""
    r = 0
    while mask:
        mask >>= 1
        r += 1
    return r


@njit(cache=True)
def fits_on(mask, r):
    """Whether a card of rank ``r`` may go on an expedition holding the numbers ``mask``: a
    wager only before any number, a number only above the highest one."""
    if r == 0:
        return mask == 0
    return r > top_rank(mask)


# --- legality ----------------------------------------------------------------


@njit(cache=True)
def deck_left(s):
    return s[H_DECK_END] - s[H_DECK_POS]


@njit(cache=True)
def is_over(s):
    """The round ends when the draw pile is empty, or at the turn cap."""
    return deck_left(s) <= 0 or s[H_TURN] >= s[H_TURN_CAP]


@njit(cache=True)
def can_play_type(s, p, t):
    """Whether player p may put a card of type t onto their own expedition (holding assumed)."""
    return fits_on(s[off_mask(s[H_NC], p) + t // RANKS], t % RANKS)


@njit(cache=True)
def place_code_error(s, place):
    """0 when the placement is legal now; otherwise a reason code (in words: ``game.rules.REASONS``)."""
    nc = s[H_NC]
    nt = RANKS * nc
    if s[H_PHASE] != 0:
        return 1  # the card for this turn has already been placed
    if place < 0 or place >= 2 * nt:
        return 2
    t = place // 2
    p = s[H_TO_MOVE]
    if s[off_hand(nc, p) + t] <= 0:
        return 3  # not in hand
    if place % 2 == 0 and not can_play_type(s, p, t):
        if t % RANKS == 0:
            return 4  # wager after a number
        return 5  # not higher than the expedition's top
    return 0


@njit(cache=True)
def source_error(s, src, blocked):
    """0 when drawing from ``src`` is legal after the placement; otherwise a reason code."""
    nc = s[H_NC]
    if src < 0 or src > nc:
        return 6
    if src == 0:
        if deck_left(s) <= 0:
            return 7
        return 0
    c = src - 1
    if s[off_pile_len(nc) + c] <= 0:
        return 8  # empty pile
    if s[H_NO_REDRAW] and c == blocked:
        return 9  # the card just discarded
    return 0


@njit(cache=True)
def gen_moves(s, out):
    """Write every legal whole turn (or draw half, in the draw step) into ``out``; return how many.

    Order: placements by type with play before discard, and for each the draw pile first,
    then the discard piles: cheap for move ordering (discard-pile draws last is a later sort).
    """
    if is_over(s):
        return 0
    nc = s[H_NC]
    nt = RANKS * nc
    p = s[H_TO_MOVE]
    base = nc + 1
    opl = off_pile_len(nc)
    n = 0
    if s[H_PHASE] == 1:
        blocked = s[H_BLOCKED]
        for src in range(base):
            if source_error(s, src, blocked) == 0:
                out[n] = 2 * nt * base + src
                n += 1
        return n
    oh = off_hand(nc, p)
    for t in range(nt):
        if s[oh + t] <= 0:
            continue
        c = t // RANKS
        for d in range(2):
            if d == 0 and not can_play_type(s, p, t):
                continue
            place = t * 2 + d
            out[n] = place * base  # draw pile: legal while the round is on
            n += 1
            for cc in range(nc):
                length = s[opl + cc]
                if d == 1 and cc == c:
                    if s[H_NO_REDRAW]:
                        continue
                    length += 1
                if length > 0:
                    out[n] = place * base + 1 + cc
                    n += 1
    return n


@njit(cache=True)
def gen_placements(s, out):
    """Every legal placement code (type * 2 + discard) for the player to move."""
    nc = s[H_NC]
    nt = RANKS * nc
    p = s[H_TO_MOVE]
    oh = off_hand(nc, p)
    n = 0
    for t in range(nt):
        if s[oh + t] <= 0:
            continue
        if can_play_type(s, p, t):
            out[n] = t * 2
            n += 1
        out[n] = t * 2 + 1
        n += 1
    return n


# --- apply and undo ------------------------------------------------------------


@njit(cache=True)
def lay_card(hand, oh, wagers, ow, masks, om, place, d):
    """The hand and expedition side of a placement (``type * 2 + discard``): ``d = 1`` lays the
    card down, ``d = -1`` takes it back. ``hand``, ``wagers`` and ``masks`` hold the player's
    region at offsets ``oh``, ``ow`` and ``om``: the state itself (the kernel) or the searchers'
    own arrays (offsets 0). A discard leaves the hand only (the pile is the caller's)."""
    t = place // 2
    hand[oh + t] -= d
    if place % 2 == 0:
        c = t // RANKS
        r = t % RANKS
        if r == 0:
            wagers[ow + c] += d
        elif d > 0:
            masks[om + c] |= 1 << (r - 1)
        else:
            masks[om + c] &= ~(1 << (r - 1))


@njit(cache=True)
def apply_place(s, place):
    """Put a card from the mover's hand onto their expedition or its discard pile."""
    nc = s[H_NC]
    p = s[H_TO_MOVE]
    lay_card(s, off_hand(nc, p), s, off_wagers(nc, p), s, off_mask(nc, p), place, 1)
    if place % 2 == 0:
        s[H_BLOCKED] = -1
    else:
        t = place // 2
        c = t // RANKS
        opl = off_pile_len(nc) + c
        s[off_pile(nc) + c * PILE_CAP + s[opl]] = t % RANKS
        s[opl] += 1
        s[H_BLOCKED] = c
    s[H_PHASE] = 1


@njit(cache=True)
def undo_place(s, place):
    nc = s[H_NC]
    p = s[H_TO_MOVE]
    lay_card(s, off_hand(nc, p), s, off_wagers(nc, p), s, off_mask(nc, p), place, -1)
    if place % 2 == 1:
        c = place // 2 // RANKS
        opl = off_pile_len(nc) + c
        s[opl] -= 1
        s[off_pile(nc) + c * PILE_CAP + s[opl]] = 0
    s[H_PHASE] = 0
    s[H_BLOCKED] = -1


@njit(cache=True)
def apply_draw(s, src):
    """Draw to the mover's hand, end the turn and pass it on. Returns the card type drawn."""
    nc = s[H_NC]
    p = s[H_TO_MOVE]
    if src == 0:
        t = s[off_deck(nc) + s[H_DECK_POS]]
        s[H_DECK_POS] += 1
    else:
        c = src - 1
        opl = off_pile_len(nc) + c
        s[opl] -= 1
        slot = off_pile(nc) + c * PILE_CAP + s[opl]
        t = c * RANKS + s[slot]
        s[slot] = 0  # unused slots stay zero, so equal positions have equal arrays
    s[off_hand(nc, p) + t] += 1
    s[H_PHASE] = 0
    s[H_BLOCKED] = -1
    s[H_TURN] += 1
    s[H_TO_MOVE] = 1 - p
    return t


@njit(cache=True)
def undo_draw(s, src, drawn, blocked):
    """Take back a draw: the card returns to the top of where it came from."""
    nc = s[H_NC]
    p = 1 - s[H_TO_MOVE]
    s[H_TO_MOVE] = p
    s[H_TURN] -= 1
    s[off_hand(nc, p) + drawn] -= 1
    if src == 0:
        s[H_DECK_POS] -= 1
        s[off_deck(nc) + s[H_DECK_POS]] = drawn
    else:
        c = src - 1
        opl = off_pile_len(nc) + c
        s[off_pile(nc) + c * PILE_CAP + s[opl]] = drawn % RANKS
        s[opl] += 1
    s[H_PHASE] = 1
    s[H_BLOCKED] = blocked


@njit(cache=True)
def move_place(s, move):
    return move // (s[H_NC] + 1)


@njit(cache=True)
def move_source(s, move):
    return move % (s[H_NC] + 1)


@njit(cache=True)
def apply_move(s, move):
    """Play a whole turn (or the draw half in the draw step). Returns the card type drawn."""
    nc = s[H_NC]
    place = move // (nc + 1)
    if place < 2 * RANKS * nc:
        apply_place(s, place)
    return apply_draw(s, move % (nc + 1))


@njit(cache=True)
def undo_move(s, move, drawn, blocked_before):
    """Take back ``apply_move``; ``blocked_before`` is the blocked colour of a draw-step start (-1 otherwise)."""
    nc = s[H_NC]
    place = move // (nc + 1)
    if place < 2 * RANKS * nc:
        undo_draw(s, move % (nc + 1), drawn, -1)
        undo_place(s, place)  # resets the draw step the placement opened
    else:
        undo_draw(s, move % (nc + 1), drawn, blocked_before)


@njit(cache=True)
def bring_to_top(s, t):
    """Chance made concrete: move a card of type t to the top of the draw pile (order is unknown).

    Returns False when the draw pile holds no such card.
    """
    od = off_deck(s[H_NC])
    pos = s[H_DECK_POS]
    for j in range(pos, s[H_DECK_END]):
        if s[od + j] == t:
            s[od + j] = s[od + pos]
            s[od + pos] = t
            return True
    return False


@njit(cache=True)
def deck_counts(s, out):
    """Count the draw pile per card type into ``out`` (length NT)."""
    od = off_deck(s[H_NC])
    out[:] = 0
    for j in range(s[H_DECK_POS], s[H_DECK_END]):
        out[s[od + j]] += 1
