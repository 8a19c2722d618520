"""What a player knows, counted once for every compiled player and evaluator: the turns left and
each colour's side of the table as rank masks.

The heuristic policy (``core/policy.py``), the hand evaluator (``evaluator.py``), the wager
models and their simulation bot, and the searchers all read the same facts from the kernel's
state; they read them here. Everything is ``@njit`` and callable from plain Python too: with the
kernel's ``njit`` (``core.jit``), the commands without compiled code (``wager``'s default draws) use
it without loading numba.
"""

from __future__ import annotations

from lcanalysis.core import kernel as K
from lcanalysis.core.constants import WAGER_COPIES
from lcanalysis.core.jit import njit

# the rows of ``colour_features``' block, one column per colour
HAND_MASK, HAND_WAGERS, OWN_MASK, OWN_WAGERS, OPP_MASK, OPP_WAGERS, UNSEEN_MASK, PILE_TOP = range(8)
N_FEATURES = 8


@njit(cache=True)
def turns_left(deck, to_move):
    """The turns a player still gets when every turn draws from the pile: of ``deck`` alternating
    turns, ``ceil(deck / 2)`` for the player to move, ``floor(deck / 2)`` for the other."""
    return (deck + 1) // 2 if to_move else deck // 2


@njit(cache=True)
def useful_draws(deck, to_move):
    """The draws that can still be placed: turns left less one, as the card drawn on the last
    turn never is."""
    return max(turns_left(deck, to_move) - 1, 0)


@njit(cache=True)
def still_fits(wagers, mask, r):
    """Whether a card of rank ``r`` can still go on an expedition that is started (``wagers``
    wagers, the numbers ``mask``): what its owner would keep, or take from a pile."""
    return (wagers > 0 or mask != 0) and K.fits_on(mask, r)


@njit(cache=True)
def hand_mask(s, p, c):
    """The numbers of colour ``c`` in player ``p``'s hand, as a rank mask."""
    oh = K.off_hand(s[K.H_NC], p) + c * K.RANKS
    m = 0
    for r in range(1, K.RANKS):
        if s[oh + r] > 0:
            m |= 1 << (r - 1)
    return m


@njit(cache=True, inline="always")
def colour_features(s, p, out):
    """Player ``p``'s side of the table, colour ``c`` in column ``out[:, c]`` (an int array of
    shape (``N_FEATURES``, NC)): the rows named above, ``PILE_TOP`` the rank on top of the
    discard pile (-1: empty). Returns the number of cards ``p`` cannot see: the draw pile and
    the opponent's whole hand (the kernel does not record which of those cards were picked up
    from a pile). Numba inlines it into its callers."""
    nc = s[K.H_NC]
    oh = K.off_hand(nc, p)
    ops = K.off_pile(nc)
    opl = K.off_pile_len(nc)
    unseen = 0
    for c in range(nc):
        hm = hand_mask(s, p, c)
        hw = s[oh + c * K.RANKS]
        em = s[K.off_mask(nc, p) + c]
        ew = s[K.off_wagers(nc, p) + c]
        om = s[K.off_mask(nc, 1 - p) + c]
        ow = s[K.off_wagers(nc, 1 - p) + c]
        n = s[opl + c]
        pm = 0
        pw = 0
        for j in range(n):
            r = s[ops + c * K.PILE_CAP + j]
            if r > 0:
                pm |= 1 << (r - 1)
            else:
                pw += 1
        um = K.FULL9 & ~(hm | em | om | pm)
        out[HAND_MASK, c] = hm
        out[HAND_WAGERS, c] = hw
        out[OWN_MASK, c] = em
        out[OWN_WAGERS, c] = ew
        out[OPP_MASK, c] = om
        out[OPP_WAGERS, c] = ow
        out[UNSEEN_MASK, c] = um
        out[PILE_TOP, c] = s[ops + c * K.PILE_CAP + n - 1] if n > 0 else -1
        # each number is one card; each colour has WAGER_COPIES wagers
        unseen += K.mask_sum_count(um, 0)[1] + WAGER_COPIES - hw - ew - ow - pw
    return unseen
