"""Perfect-information endgame values: expectiminimax over the known remainder of the deck.

The value of a position is ``E[final round score of the player to move - final round score
of the opponent]`` (docs/spec/interchange.md, "Endgame values"): both hands are known, the draw
pile's contents are known and its order is uniformly random. The player to move maximizes,
the opponent minimizes, chance draws from the pile. Two bounds keep the game finite:

- a stall budget per player (``max_stalls``): how many more times each may draw from a
  discard pile;
- a horizon (``max_turns``) with ``leaf="as-is"``: play stops after that many more turns
  and the table is scored as it stands.

The search works on the kernel's flat state (``lcanalysis.core.kernel``) and uses the
structure of the game:

- **Decomposition.** Once neither player may draw from a discard pile any more, turn ``t``
  draws the ``t``-th card of the pile whatever anyone plays, so each player's final score
  depends only on their own moves and the deck order. The two-player value is then
  ``solo(me) - solo(opponent)``, two one-player expectimax problems (``_solo``) with a
  table of their own. Players interact only through the discard piles.
- **Transposition table** keyed on a compact state: counts per card type (the three wagers
  of a colour are one type), and cards dead for *both* players (a number at or below both
  expeditions' highest, a wager once both expeditions hold a number) merged into one card
  per colour, in hands, piles and the deck alike. In the one-player problems every card
  dead for its holder is one "junk" card whatever its colour.
- **Horizon shortcuts** (``leaf="as-is"``): the last turn's draw scores nothing, so that
  turn is only its best placement; and the card drawn just before the last turn is never
  played, so that chance node is one draw instead of one per card.
- **Alpha-beta** below the root (the table's best move first, then the killer move, deck
  draws before discard-pile draws) and **Star2** pruning at chance nodes: each card's reply
  is probed with its first move only (the opponent gets at least that), which bounds my value
  from above card by card, then Star1 with those bounds and bounds on the value from the
  turns left (``_diff_bounds``). The root is searched with a full window, so every root turn's
  value is exact.
- **Probes without the opponent's stalls**: a turn searched against a bar (a root turn against
  the reference or the best so far, a later turn at an inner node when the opponent's budget is
  finite) is first searched in the game where the opponent may not stall, which is worth at least
  as much to the mover; a turn refuted there is refuted (docs/endgame.md). A root turn not refuted
  there is probed again with the opponent allowed one stall, two, ... up to their budget less one.
  ``Tables.plain`` searches without any probe.
- **The last stall shared**: at a node, every turn that spends the last stall anyone has leads to a
  round that decomposes, where the opponent's one-player value does not depend on the turn (a stall
  leaves the pile as it was): it is found once per node and each such turn valued by the mover's own
  one-player value against the node's bar (``Tables.unshared``: a child node per turn, as before).
- **The last placements in closed form**: where the round ends after one placement each, or the mover's
  only (``_ends_by_placements``), and at a one-player placement with no turn of the player's after it,
  the value is the score plus the most one hand card adds, with no move list, table entry or child
  (``Tables.ends_searched``: searched node by node, as before). Likewise with 2 cards left where only the
  mover may stall (``_ends_after_a_stall``): their best one placement, or two around a draw from a discard
  pile, less the opponent's best one (``Tables.stall_ends_searched``: searched node by node).

Everything is ``@njit(cache=True)`` and also runs as plain Python with ``NUMBA_DISABLE_JIT=1``.
"""

from __future__ import annotations

import time

import numpy as np
from numba import float64, int32, int64, njit, uint64

from lcanalysis.analysis import HEURISTIC_REASON, Analysis, MoveValue
from lcanalysis.core import first_compile
from lcanalysis.core.constants import MAX_COLORS, WAGER_COPIES
from lcanalysis.core.features import hand_mask, turns_left
from lcanalysis.core.kernel import (
    FULL9,
    H_BLOCKED,
    H_NC,
    H_NO_REDRAW,
    H_TO_MOVE,
    H_TURN_CAP,
    MAX_MOVES,
    PILE_CAP,
    RANKS,
    apply_draw,
    apply_place,
    bring_to_top,
    deck_counts,
    deck_left,
    expedition_score,
    fits_on,
    gen_moves,
    lay_card,
    mask_sum_count,
    off_hand,
    off_mask,
    off_pile,
    off_pile_len,
    off_wagers,
    place_code_error,
    player_score,
    source_error,
    top_rank,
    undo_draw,
    undo_place,
)
from lcanalysis.evaluator import evaluate_difference
from lcanalysis.game.notation import read_position
from lcanalysis.game.view import View
from lcanalysis.search.common import (
    CLOCK,
    LEAF_AS_IS,
    LEAF_EVALUATOR,
    LEAF_SIMPLE,
    MAX_STALLS,
    MAX_TL,
    SearchError,
    abort_at,
    bounds_dict,
    check_bounds,
    check_fits,
    check_max_nodes,
    check_seconds,
    check_state,
    check_tables,
    move_texts,
)

# --- Zobrist tables -------------------------------------------------------------------
# Two independent 64-bit hashes make a 128-bit key: a false hit needs both to collide.
NT_MAX = MAX_COLORS * RANKS  # card types of the six-colour game
CNT_DIM = 64  # counts 0..63 of a card type in a region (a table width, not a game fact)
EXP_WAGERS = WAGER_COPIES + 1  # an expedition's wagers: 0..3
EXP_MASKS = FULL9 + 1  # an expedition's rank masks of its numbers: 2^9
Z_REG = 0  # regions: 0 hand0, 1 hand1, 2 deck (two-player); 3 hand, 4 deck (one-player)
Z_EXP = Z_REG + 5 * (NT_MAX + 1) * CNT_DIM
Z_PILE = Z_EXP + 2 * MAX_COLORS * EXP_WAGERS * EXP_MASKS  # (2: the players)
Z_MOVER = Z_PILE + MAX_COLORS * PILE_CAP * RANKS
Z_ST0 = Z_MOVER + 2  # the player to move: 0 or 1
Z_ST1 = Z_ST0 + MAX_STALLS + 2  # stall budgets -1..MAX_STALLS
Z_TL = Z_ST1 + MAX_STALLS + 2
Z_FLAGS = Z_TL + MAX_TL + 2
Z_LEAF = Z_FLAGS + 5  # one-player node kind 0..2, then alternate 0..1
Z_SIZE = Z_LEAF + 6  # leaf kinds 0..2, then the no-redraw flag
UNLIMITED = -1


EXACT, LOWER, UPPER = 1, 2, 3
PLAIN = 6  # ``stats[PLAIN]`` set: no probes in the game without the opponent's stalls (the search as it was)
UNSHARED = 7  # ``stats[UNSHARED]`` set: a turn that spends the last stall searches its child node (as before
# the opponent's one-player value was shared between such turns): the same values, more nodes
ENDS_SEARCHED = 8  # ``stats[ENDS_SEARCHED]`` set: the round's last placements are searched node by node (as
# before they were valued in closed form, ``_ends_by_placements``): the same values, more nodes
STALL_ENDS_SEARCHED = 9  # ``stats[STALL_ENDS_SEARCHED]`` set: a node with 2 cards left where only the mover may
# stall is searched node by node (as before it was valued in closed form, ``_ends_after_a_stall``): the same values
ROOT_WIDE = 10  # ``stats[ROOT_WIDE]`` set: a root turn no probe refuted is searched in the whole game with
# (bar, +inf) at once, also where the opponent may stall ``NARROW_ROOT_STALLS`` times or more (as before the
# narrow window there): the same values, more nodes
PROBE = -2  # ``only`` for a Star2 probe: search the node's first move only (a lower bound)
# A search that only asks whether a turn beats a bar (the probes in the games where the opponent may stall
# less) gets the window (bar, bar + NULL_WINDOW): any width above the values' rounding answers "above or not",
# and the narrower the window the more cut-offs below (a result above the bar is not used, only the answer)
NULL_WINDOW = 1e-6
# Where the opponent may stall this many times or more, a root turn no probe refuted is first searched in the
# whole game with (bar, bar + NULL_WINDOW) too, and only one found above the bar again with (bar, +inf) for its
# exact value: at three stalls each most turns the probes leave tie the bar or come within a point of it, and
# their refutation with the open window costs more than the second search of the few above it (4 cards, three
# stalls each: x1.16 fewer nodes, x1.15 less time; docs/endgame.md, "At 4 cards: the narrow window at the root").
# With fewer stalls the second searches cost what the window saves (two stalls each: nodes x1.002), so the tree
# there stays as it was; so does an opponent with no stall limit (the bracket, horizons: not measured).
NARROW_ROOT_STALLS = 3
# a colour's figures that ``_player_upper`` keeps for its knapsack: wagers, mask, live ranks, wagers left, score
COLOUR_FIGURES = 5
INF = np.inf


def zobrist_tables(seed: int = 20261129) -> np.ndarray:
    rng = np.random.default_rng(seed)
    return rng.integers(0, np.iinfo(np.uint64).max, size=(2, Z_SIZE), dtype=np.uint64, endpoint=True)


ZOBRIST = zobrist_tables()


class Tables:
    """The search's memory: two-player and one-player transposition tables plus scratch space.

    Keys include every bound (stall budgets, turns left), so one ``Tables`` may be reused
    across solves of related positions (the splits of a view, the levels of iterative
    deepening) as long as no solve was aborted half-way. Threads that search side by side each
    take a ``sibling``: the same entries (what one thread proves, the other reuses), scratch space
    and counters of its own.
    """

    def __init__(self, bits: int = 18, solo_bits: int = 16):
        self._entries = _Entries(bits, solo_bits)
        self.buf = np.zeros((384, MAX_MOVES), dtype=np.int32)  # moves, their order, killer per ply
        # stats: 0 decision nodes, 1 one-player nodes, 2 table hits, 3 aborted, 4 node limit, 5 stopped by
        # the clock (common.CLOCK), 6 plain search (PLAIN), 7 no sharing after the last stall (UNSHARED),
        # 8 the last placements searched (ENDS_SEARCHED), 9 the last stall before the end searched
        # (STALL_ENDS_SEARCHED), 10 no narrow window in the whole game at the root (ROOT_WIDE)
        self.stats = np.zeros(11, dtype=np.int64)

    #: True: search without the probes in the game where the opponent may not stall (``_search``),
    #: as before they came; the values are the same, the nodes more (a baseline for benchmarks and
    #: tests). Set on the class, every search that makes its own tables follows.
    plain = False

    #: True: a turn that spends the last stall anyone has is searched as a child node, which looks the
    #: opponent's one-player value up again, instead of sharing it with the node's other such turns
    #: (``_search``); the values are the same, the nodes more (a baseline for tests). On the class, as ``plain``.
    unshared = False

    #: True: the round's last placements (where ``_ends_by_placements`` holds, and a one-player problem's
    #: placements with no turn of mine after them) are searched node by node, with their table entries,
    #: instead of valued in closed form; the values are the same, the nodes more (a baseline for tests
    #: and benchmarks). On the class, as ``plain``.
    ends_searched = False

    #: True: a node with 2 cards left where the mover may stall and the opponent may not
    #: (``_ends_after_a_stall``) is searched node by node instead of valued in closed form; the values are the
    #: same, the nodes more (a baseline for tests and benchmarks). On the class, as ``plain``.
    stall_ends_searched = False

    #: True: a root turn that no probe refuted is searched in the whole game with the open window (bar, +inf)
    #: at once, also where the opponent may stall ``NARROW_ROOT_STALLS`` times or more (``_root``); the values
    #: are the same, the tree another (a baseline for tests and benchmarks). On the class, as ``plain``.
    root_wide = False

    @property
    def tt(self) -> np.ndarray:
        """The two-player table: one 32-byte entry per slot (``_entry``)."""
        return self._entries.tt

    @property
    def so(self) -> np.ndarray:
        """The one-player table, entries as in ``tt``."""
        return self._entries.so

    def sibling(self) -> Tables:
        """Tables for another thread: these entries, shared (``_entry`` makes that safe unlocked), with
        scratch space and counters of its own. Clearing either clears both."""
        twin = Tables.__new__(Tables)
        twin._entries = self._entries
        twin.buf = np.zeros_like(self.buf)
        twin.stats = np.zeros_like(self.stats)
        return twin

    def shares_entries(self, other: Tables) -> bool:
        return self._entries is other._entries

    def reset(self, max_nodes: int) -> None:
        """Counters to zero before a search, its node limit (0: none) and whether it runs plain."""
        self.stats[:] = 0
        self.stats[4] = max_nodes
        self.stats[PLAIN] = 1 if self.plain else 0
        self.stats[UNSHARED] = 1 if self.unshared else 0
        self.stats[ENDS_SEARCHED] = 1 if self.ends_searched else 0
        self.stats[STALL_ENDS_SEARCHED] = 1 if self.stall_ends_searched else 0
        self.stats[ROOT_WIDE] = 1 if self.root_wide else 0

    def clear(self) -> None:
        """Forget every entry (a sibling's too)."""
        self._entries.clear()


class _Entries:
    """The two tables' memory, which a ``Tables`` and its siblings share."""

    def __init__(self, bits: int, solo_bits: int):
        check_fits(32 * ((1 << bits) + (1 << solo_bits)), "the search's transposition tables")
        # one 32-byte entry per slot: one cache line, one page
        self.tt = np.zeros((1 << bits, 4), dtype=np.uint64)
        self.so = np.zeros((1 << solo_bits, 4), dtype=np.uint64)

    def clear(self) -> None:
        """Forget every entry. A large table is replaced by fresh zeroed memory, which the system hands
        out page by page as it is used: writing 256 MB of empty flags cost 0.4 s, so a search stopped
        by its clock after a few nodes overran a 0.1 s budget fourfold. A small one is zeroed in place
        (its pages are warm, and reused)."""
        self.tt, self.so = _emptied(self.tt), _emptied(self.so)


def _emptied(table: np.ndarray) -> np.ndarray:
    """``table`` with no entry: fresh zeroed memory when large, its flags zeroed in place when small."""
    if table.nbytes > FRESH_CLEAR_BYTES:
        return np.zeros(table.shape, dtype=table.dtype)
    table[:, 3] = 0
    return table


#: tables above this size are cleared by taking fresh memory, not by writing (``Tables.clear``): the
#: shared tables (``shared_tables``, 2^18 entries at most) stay below it
FRESH_CLEAR_BYTES = 32 << 18

_SHARED: dict[tuple[int, int], Tables] = {}


def shared_tables(bits: int, solo_bits: int) -> Tables:
    """Small tables kept between calls (an entry is a fact about one state under its bounds,
    true for any position; fresh pages cost more than the search on small endgames).
    Large ones are allocated per call so that their memory is given back."""
    if bits > 18 or solo_bits > 18:
        return Tables(bits, solo_bits)
    key = (bits, solo_bits)
    if key not in _SHARED:
        _SHARED[key] = Tables(bits, solo_bits)
    return _SHARED[key]


def clear_shared_tables() -> None:
    """Forget what the shared tables hold: the next solve does (and counts) the work a fresh
    process would. The values never depend on it; ``lcanalysis shell`` calls it between commands
    so that each answer, node count included, is the one-shot command's."""
    for tables in _SHARED.values():
        tables.clear()


# --- small helpers ----------------------------------------------------------------------


@njit(cache=True)
def _dead_cut(s, nc, c):
    """Ranks 0..cut of colour c are dead for both players (cut 0: none is)."""
    a = top_rank(s[off_mask(nc, 0) + c])
    b = top_rank(s[off_mask(nc, 1) + c])
    return min(b, a)


@njit(cache=True)
def _leaf_value(s, nc, leaf):
    """Score difference for the player to move as the table stands, or an estimate of the
    final difference: the simple leaf adds half of what the hands could still play, the
    evaluator leaf is the hand evaluator's expected final scores (``lcanalysis.evaluator``)."""
    p = s[H_TO_MOVE]
    if leaf == LEAF_EVALUATOR:
        return evaluate_difference(s, p, -1)
    v = float(player_score(s, p) - player_score(s, 1 - p))
    if leaf == LEAF_SIMPLE:
        v += _simple_leaf_credit(s, nc, p) - _simple_leaf_credit(s, nc, 1 - p)
    return v


@njit(cache=True)
def _simple_leaf_credit(s, nc, p):
    """The ``simple`` leaf's credit for player ``p``'s hand: half the face value (times the
    multiplier) of each hand card playable on a started expedition.

    Not a policy and not the hand evaluator: a crude count kept as the baseline the evaluator
    leaf is compared with, and its numbers are the answers of ``leaf="simple"``."""
    ow = off_wagers(nc, p)
    om = off_mask(nc, p)
    h = 0.0
    for c in range(nc):
        w = s[ow + c]
        m = s[om + c]
        if w == 0 and m == 0:
            continue
        h += 0.5 * mask_sum_count(hand_mask(s, p, c), top_rank(m))[0] * (1 + w)
    return h


@njit(cache=True)
def _colour_upper(w, m, avail, wagers, places):
    """The most one expedition can end on with at most ``places`` more cards: the best number
    of the ``wagers`` at hand (only while it holds no number), then the highest ranks of
    ``avail``; or nothing more."""
    best = expedition_score(w, m)
    for j in range(min(wagers, places) + 1):
        best = max(best, expedition_score(w + j, m | _top_ranks(avail, places - j)))
    return best


@njit(cache=True)
def _useful_places(avail, wagers):
    """The most cards one colour can still take: its wagers and live numbers (more add nothing)."""
    n = wagers
    while avail:
        n += 1
        avail &= avail - 1
    return n


@njit(cache=True)
def _spread_gain(best, gained, w, m, now, avail, wagers, places):
    """Add one colour to ``best`` (``best[k]``: the most the colours so far can add with at most ``k``
    more cards, ``k`` = 0..``places``): ``gained`` receives the new figures, then is copied back.
    ``now``: the colour's score as it stands (``expedition_score(w, m)``)."""
    for k in range(places + 1):
        gained[k] = best[k]
    for j in range(1, min(_useful_places(avail, wagers), places) + 1):
        g = _colour_upper(w, m, avail, wagers, j) - now  # (never below 0: "or nothing more")
        for k in range(j, places + 1):
            if best[k - j] + g > gained[k]:
                gained[k] = best[k - j] + g
    for k in range(places + 1):
        best[k] = gained[k]


@njit(cache=True)
def _colour_of(s, nc, x, c):
    """(wagers, rank mask, live ranks, wagers left) of player ``x``'s expedition of colour ``c``: every
    rank above their highest that the opponent has not placed, and the wagers nobody has placed."""
    owx = off_wagers(nc, x)
    omy = off_mask(nc, 1 - x)
    m = s[off_mask(nc, x) + c]
    avail = 0
    for r in range(top_rank(m) + 1, RANKS):
        bit = 1 << (r - 1)
        if (s[omy + c] & bit) == 0:
            avail |= bit
    wagers = WAGER_COPIES - s[owx + c] - s[off_wagers(nc, 1 - x) + c] if m == 0 else 0
    return s[owx + c], m, avail, wagers


@njit(cache=True)
def _player_upper(s, nc, x, places, scratch):
    """The most player ``x`` can score with at most ``places`` more cards, each colour taking its best
    cards not yet on an expedition. The cards are shared by the colours: a knapsack over them
    (``scratch``: room for ``COLOUR_FIGURES`` figures a colour, then twice ``places + 1``), tighter than
    ``places`` cards in every colour. With one card, room for every useful card, or one colour that
    gains, no knapsack is needed. Each colour's figures are found once and kept in ``scratch`` for the
    knapsack."""
    places = max(places, 0)
    now = 0
    each = 0  # places cards in every colour
    best_one = 0  # the colour that gains most
    room = 0
    gaining = 0
    for c in range(nc):
        cw, cm, avail, wagers = _colour_of(s, nc, x, c)
        e = expedition_score(cw, cm)
        f = COLOUR_FIGURES * c
        scratch[f] = cw
        scratch[f + 1] = cm
        scratch[f + 2] = avail
        scratch[f + 3] = wagers
        scratch[f + 4] = e
        now += e
        if places == 0:
            continue
        g = _colour_upper(cw, cm, avail, wagers, places) - e
        each += g
        best_one = max(best_one, g)
        gaining += g > 0
        room += _useful_places(avail, wagers)
    if places == 1:
        return now + best_one
    if places == 0 or gaining <= 1 or room <= places:
        return now + each
    k0 = COLOUR_FIGURES * nc
    best = scratch[k0:k0 + places + 1]
    gained = scratch[k0 + places + 1:k0 + 2 * places + 2]
    best[:] = 0
    for c in range(nc):
        f = COLOUR_FIGURES * c
        _spread_gain(best, gained, scratch[f], scratch[f + 1], scratch[f + 4], scratch[f + 2], scratch[f + 3], places)
    return now + best[places]


@njit(cache=True)
def _diff_bounds(s, nc, p, turns):
    """Bounds on the value (p's final score less the opponent's) when at most ``turns`` more
    turns are played, the opponent moving first. Either player can always discard and draw
    from the pile, which keeps their score as it is, so the value is at least p's score now
    less the most the opponent can add in their turns, and at most the most p can reach in
    theirs less the opponent's score now."""
    return _diff_bounds_in(s, nc, p, turns, np.zeros(COLOUR_FIGURES * nc + 2 * turns + 4, dtype=np.int32))


@njit(cache=True)
def _diff_bounds_in(s, nc, p, turns, scratch):
    """``_diff_bounds`` with ``scratch`` for the knapsack of ``_player_upper`` (``COLOUR_FIGURES`` a colour
    and twice ``turns + 2`` figures at least): the search passes a row of its buffer, so a chance node allocates
    nothing."""
    q = 1 - p
    lo = float(player_score(s, p) - _player_upper(s, nc, q, turns_left(turns, True), scratch))
    hi = float(_player_upper(s, nc, p, turns_left(turns, False), scratch) - player_score(s, q))
    return lo, hi


@njit(cache=True)
def _card_gain(w, m, r):
    """What a card of rank ``r`` (0: a wager) adds to an expedition of ``w`` wagers and the numbers ``m``
    when placed there (it must fit)."""
    if r == 0:
        return expedition_score(w + 1, m) - expedition_score(w, m)
    return expedition_score(w, m | (1 << (r - 1))) - expedition_score(w, m)


@njit(cache=True)
def _best_gain(hand, oh, wagers, ow, masks, om, nc):
    """The most one card of a hand adds to its player's score when placed (0: a discard, always there,
    adds nothing). The player's hand, wagers and masks are at offsets ``oh``, ``ow``, ``om`` of the
    arrays given (the state itself, or a one-player search's own arrays at 0), as ``kernel.lay_card``."""
    gain = 0
    for c in range(nc):
        w = wagers[ow + c]
        m = masks[om + c]
        if m == 0 and hand[oh + c * RANKS] > 0:
            gain = max(gain, _card_gain(w, m, 0))
        for r in range(RANKS - 1, top_rank(m), -1):  # of the numbers that fit, the highest adds the most
            if hand[oh + c * RANKS + r] > 0:
                gain = max(gain, _card_gain(w, m, r))
                break
    return gain


@njit(cache=True)
def _player_gain(s, nc, p):
    """``_best_gain`` of player ``p`` in the state ``s``."""
    return _best_gain(s, off_hand(nc, p), s, off_wagers(nc, p), s, off_mask(nc, p), nc)


@njit(cache=True)
def _ends_by_placements(s, st0, st1, left):
    """Whether the round's end is forced here, with one placement each before it (1 card left: the
    mover's only): with 1 card left, when either player may not stall (the mover must draw it, or
    stalling would only give the opponent a placement), with 2 when the mover may not stall (they draw
    one, and the opponent, then to move, ends the round at once: a stall would give the mover one more
    placement). Neither placement touches the other's expeditions."""
    my_st = st0 if s[H_TO_MOVE] == 0 else st1
    if left == 1:
        return st0 == 0 or st1 == 0
    return left == 2 and my_st == 0


@njit(cache=True)
def _last_placements_value(s, nc, left):
    """The value where ``_ends_by_placements``: each player's best placement (the opponent's only with 2
    cards left), the scores taken after them."""
    p = s[H_TO_MOVE]
    v = player_score(s, p) - player_score(s, 1 - p) + _player_gain(s, nc, p)
    if left == 2:
        v -= _player_gain(s, nc, 1 - p)
    return float(v)


@njit(cache=True)
def _ends_after_a_stall(s, st0, st1, left):
    """Whether, with 2 cards left, the mover may stall and the opponent may not: then the round ends after at
    most two placements of the mover's and one of the opponent's. The mover either draws from the pile, and the
    opponent ends the round after their best placement (``_ends_by_placements`` with 1 card left), or takes
    a discard pile's top card; the opponent, who must draw from the pile, then leaves the last card to the
    mover, who ends the round after their best placement (``_ends_by_placements`` again). Neither can place a
    card the other discards before the end, so the opponent's best placement is the same in both lines."""
    if s[H_TO_MOVE] == 0:
        my_st, their_st = st0, st1
    else:
        my_st, their_st = st1, st0
    return left == 2 and their_st == 0 and my_st != 0


@njit(cache=True)
def _stall_gain(s, nc, p):
    """The most player ``p`` (to move, in the place step) adds with a placement, a draw from a discard pile
    (as the kernel allows it after that placement: ``source_error``) and one more placement, of a card left
    in hand or the one taken; 0 when no such draw is legal or it adds nothing (each placement may be a
    discard)."""
    nt = RANKS * nc
    oh = off_hand(nc, p)
    ow = off_wagers(nc, p)
    om = off_mask(nc, p)
    opl = off_pile_len(nc)
    op = off_pile(nc)
    best = 0
    for place in range(2 * nt):
        if s[oh + place // 2] <= 0 or place_code_error(s, place) != 0:
            continue
        c = place // 2 // RANKS
        first = 0 if place % 2 == 1 else _card_gain(s[ow + c], s[om + c], place // 2 % RANKS)
        apply_place(s, place)
        rest = _player_gain(s, nc, p)  # the best second placement from the hand left
        blocked = s[H_BLOCKED]
        for cc in range(nc):
            if source_error(s, 1 + cc, blocked) != 0:
                continue
            r = s[op + cc * PILE_CAP + s[opl + cc] - 1]  # the top card of that pile
            taken = _card_gain(s[ow + cc], s[om + cc], r) if fits_on(s[om + cc], r) else 0
            best = max(best, first + max(rest, taken))
        undo_place(s, place)
    return best


@njit(cache=True)
def _after_a_stall_value(s, nc, tl):
    """The value where ``_ends_after_a_stall``: the mover's best of one placement (then a draw from the pile)
    and of two placements around a draw from a discard pile (``_stall_gain``), less the opponent's best
    placement (their hand is what it is now either way). With the horizon two turns away (``tl`` 2) the
    opponent's turn is the last, and a stall buys no second placement."""
    p = s[H_TO_MOVE]
    mine = _player_gain(s, nc, p)
    if tl < 0 or tl >= 3:
        mine = max(mine, _stall_gain(s, nc, p))
    return float(player_score(s, p) - player_score(s, 1 - p) + mine - _player_gain(s, nc, 1 - p))


@njit(cache=True)
def _last_turn_value(s, nc):
    """Value of the last turn before an as-is horizon: the mover's best placement (a discard
    changes no score; the draw after it scores nothing)."""
    p = s[H_TO_MOVE]
    return float(player_score(s, p) - player_score(s, 1 - p) + _player_gain(s, nc, p))


# --- table entries ----------------------------------------------------------------------
# An entry is four words: the key's first word, its second word xor the value's bits xor the flag
# word, the value's bits, and the flag word (flag | (best move + 1) << 8; 0: empty). The threads of
# a level share one table (``Tables.sibling``) and write entries word by word, unlocked: a slot read
# while another thread rewrites it mixes two entries, and the xor makes such a read fail the key
# check, so it reads as empty instead of giving one state's value to another (lockless hashing).


@njit(cache=True)
def _entry(table, slot, k1, k2):
    """(value, flag word) of the entry in ``slot`` when it holds the key (k1, k2) whole; else (0, 0)."""
    w0 = table[slot, 0]
    w1 = table[slot, 1]
    bits = table[slot, 2]
    meta = table[slot, 3]
    if meta == 0 or w0 != k1 or (w1 ^ bits ^ meta) != k2:
        return 0.0, np.uint64(0)
    return np.uint64(bits).view(np.float64), meta


@njit(cache=True)
def _store(table, slot, k1, k2, value, meta):
    """Write the entry (k1, k2) -> (value, flag word ``meta``, never 0) into ``slot``."""
    bits = np.float64(value).view(np.uint64)
    table[slot, 0] = k1
    table[slot, 1] = k2 ^ bits ^ meta
    table[slot, 2] = bits
    table[slot, 3] = meta


# --- keys ---------------------------------------------------------------------------------


@njit(cache=True)
def _z_count(Z, region, t, n):
    """The two key words for ``n`` cards of type ``t`` in a region (0, 0 for none)."""
    if n <= 0:
        return np.uint64(0), np.uint64(0)
    i = Z_REG + (region * (NT_MAX + 1) + t) * CNT_DIM + min(n, CNT_DIM - 1)
    return Z[0, i], Z[1, i]


@njit(cache=True)
def _key_two(s, nc, dc, st0, st1, tl, leaf, Z):
    """128-bit key of a two-player decision node (place step), dead cards merged per colour."""
    p = s[H_TO_MOVE]
    k1 = Z[0, Z_MOVER + p] ^ Z[0, Z_ST0 + st0 + 1] ^ Z[0, Z_ST1 + st1 + 1] ^ Z[0, Z_TL + tl + 1]
    k2 = Z[1, Z_MOVER + p] ^ Z[1, Z_ST0 + st0 + 1] ^ Z[1, Z_ST1 + st1 + 1] ^ Z[1, Z_TL + tl + 1]
    k1 ^= Z[0, Z_LEAF + leaf] ^ Z[0, Z_LEAF + 3 + s[H_NO_REDRAW]]
    k2 ^= Z[1, Z_LEAF + leaf] ^ Z[1, Z_LEAF + 3 + s[H_NO_REDRAW]]
    oh0 = off_hand(nc, 0)
    oh1 = off_hand(nc, 1)
    opl = off_pile_len(nc)
    op = off_pile(nc)
    for c in range(nc):
        cut = _dead_cut(s, nc, c)
        for pl in range(2):
            w = s[off_wagers(nc, pl) + c]
            m = s[off_mask(nc, pl) + c]
            i = Z_EXP + ((pl * MAX_COLORS + c) * EXP_WAGERS + w) * EXP_MASKS + m
            k1 ^= Z[0, i]
            k2 ^= Z[1, i]
        dead0 = 0  # cards dead for both players, per region: hand 0, hand 1, pile
        dead1 = 0
        dead2 = 0
        for r in range(RANKS):
            t = c * RANKS + r
            a = s[oh0 + t]
            b = s[oh1 + t]
            d = dc[t]
            if cut >= 1 and r <= cut:
                dead0 += a
                dead1 += b
                dead2 += d
                continue
            for region, n in ((0, a), (1, b), (2, d)):
                z1, z2 = _z_count(Z, region, t, n)
                k1 ^= z1
                k2 ^= z2
        t = c * RANKS + 1  # the representative of the colour's dead cards (itself dead)
        for region, n in ((0, dead0), (1, dead1), (2, dead2)):
            z1, z2 = _z_count(Z, region, t, n)
            k1 ^= z1
            k2 ^= z2
        for j in range(s[opl + c]):
            r = s[op + c * PILE_CAP + j]
            if cut >= 1 and r <= cut:
                r = 1
            i = Z_PILE + (c * PILE_CAP + j) * RANKS + r
            k1 ^= Z[0, i]
            k2 ^= Z[1, i]
    return k1, k2


@njit(cache=True)
def _key_solo(hand, w, mask, dc, nc, node, alternate, tl, Z):
    """128-bit key of a one-player node; every card dead for the player is one junk card."""
    nt = RANKS * nc
    k1 = Z[0, Z_FLAGS + node] ^ Z[0, Z_FLAGS + 3 + alternate] ^ Z[0, Z_TL + tl + 1]
    k2 = Z[1, Z_FLAGS + node] ^ Z[1, Z_FLAGS + 3 + alternate] ^ Z[1, Z_TL + tl + 1]
    junk_hand = 0
    junk_pile = 0
    for c in range(nc):
        m = mask[c]
        i = Z_EXP + (c * EXP_WAGERS + w[c]) * EXP_MASKS + m
        k1 ^= Z[0, i]
        k2 ^= Z[1, i]
        top = top_rank(m)
        for r in range(RANKS):
            t = c * RANKS + r
            if (r == 0 and m != 0) or (r > 0 and r <= top):
                junk_hand += hand[t]
                junk_pile += dc[t]
                continue
            for region, n in ((3, hand[t]), (4, dc[t])):
                z1, z2 = _z_count(Z, region, t, n)
                k1 ^= z1
                k2 ^= z2
    for region, n in ((3, junk_hand), (4, junk_pile)):
        z1, z2 = _z_count(Z, region, nt, n)  # the junk card: type nt
        k1 ^= z1
        k2 ^= z2
    return k1, k2


# --- the one-player problem -----------------------------------------------------------


@njit(cache=True)
def _solo_score(w, mask, nc):
    total = 0
    for c in range(nc):
        total += expedition_score(w[c], mask[c])
    return float(total)


@njit(cache=True)
def _is_dead(mask, t):
    """A card of type ``t`` its holder can never place (below the top, or a wager too late)."""
    return not fits_on(mask[t // RANKS], t % RANKS)


@njit(cache=True)
def _chance_outcomes(dc, nc, masks_a, masks_b, pool_colours, out):
    """The outcomes of a draw from the pile: each card type in it, in type order, with its
    count, as pairs ``out[2k], out[2k + 1]``; returns how many. The cards dead for both
    ``masks_a`` and ``masks_b`` (a rank at or below the top of both expeditions of its colour)
    are one outcome, the first of them standing for all: one per colour, or one in all with
    ``pool_colours`` (the one-player problems: there ``masks_a`` is ``masks_b``)."""
    k = 0
    rep = -1
    for c in range(nc):
        cut = min(top_rank(masks_a[c]), top_rank(masks_b[c]))
        if not pool_colours:
            rep = -1
        for r in range(RANKS):
            u = c * RANKS + r
            n = dc[u]
            if n <= 0:
                continue
            if cut >= 1 and r <= cut:
                if rep >= 0:
                    out[2 * rep + 1] += n
                    continue
                rep = k
            out[2 * k] = u
            out[2 * k + 1] = n
            k += 1
    return k


UNLIMITED_PROBES = 2  # at the root, probes with the opponent allowed 0, 1, ... stalls: this many when unlimited


@njit(cache=True)
def _their_stalls_capped(st0, st1, p, cap):
    """The stall budgets (player 0's, player 1's) with the opponent of ``p`` allowed ``cap`` stalls."""
    if p == 0:
        return np.int64(st0), np.int64(cap)
    return np.int64(cap), np.int64(st1)


@njit(cache=True)
def _below(cap, their_st):
    """Whether allowing the opponent ``cap`` stalls restricts them (their budget ``their_st``, -1:
    unlimited, then only the first ``UNLIMITED_PROBES`` caps are probed)."""
    return cap < their_st or (their_st < 0 and cap < UNLIMITED_PROBES)


# Explicit signatures: a recursive function compiled for one argument type only (numba
# otherwise specializes on int32/int64 mixes and its cache of recursive functions breaks). numba
# compiles them as this module is imported, before an entry point can ask (``first_compile.ready``):
# the notice comes first (closed at the end of the module).
first_compile.compiling_at_import(first_compile.SOLVER, __name__)
_I32 = int32[::1]
_SOLO_SIG = float64(_I32, _I32, _I32, _I32, int64, int64, int64, int64, int64, float64, uint64[:, ::1],
                    uint64[:, ::1], int64[::1])

# one-player node kinds: the opponent's turn (a card leaves the pile), my placement, my draw
SOLO_OPP, SOLO_PLACE, SOLO_DRAW = 0, 1, 2


@njit(cache=True)
def _top_ranks(avail, n):
    """The ``n`` highest ranks of the rank mask ``avail``."""
    out = 0
    for r in range(RANKS - 1, 0, -1):
        if n <= 0:
            break
        bit = 1 << (r - 1)
        if avail & bit:
            out |= bit
            n -= 1
    return out


@njit(cache=True)
def _solo_upper(hand, w, mask, dc, nc, places):
    """The most the player's expeditions can still score with at most ``places`` more cards
    placed: each colour gets its best live cards of hand and pile (the best number of wagers
    first), as if the ``places`` were there for every colour (a bound for every line below)."""
    total = 0
    for c in range(nc):
        m = mask[c]
        avail = 0
        for r in range(top_rank(m) + 1, RANKS):
            if hand[c * RANKS + r] + dc[c * RANKS + r] > 0:
                avail |= 1 << (r - 1)
        wagers = hand[c * RANKS] + dc[c * RANKS] if m == 0 else 0
        total += _colour_upper(w[c], m, avail, wagers, places)
    return float(total)


@njit(cache=True)
def _places_after_draw(node, alternate, left, tl):
    """How many more cards the player can place after the draw of this chance node."""
    if alternate == 0:
        return tl  # SOLO_DRAW: tl placements follow
    turns = left - 1 if node == SOLO_DRAW else left  # each turn takes one card of the pile
    if tl >= 0:
        turns = min(turns, tl)  # tl counts the opponent's turn at SOLO_OPP, not my turn at SOLO_DRAW
    return turns_left(turns, False)  # the opponent moves first in what follows


@njit(_SOLO_SIG, cache=True)
def _solo(hand, w, mask, dc, left, node, alternate, tl, nc, alpha, Z, so, stats):
    """Best expected final score of one player who sees every draw; fail-soft against ``alpha``
    (a result above ``alpha`` is exact, one at or below it an upper bound: pass -inf for exact).

    ``alternate=1``: the two-player round with no more discard-pile draws, from one player's
    side: turns alternate, every turn draws one card of the pile (``dc``, ``left`` cards), the
    round ends when the pile is empty or ``tl`` turns have been played (``tl=-1``: no horizon).
    The opponent's turns (``SOLO_OPP``) only take a card away.
    ``alternate=0``: only this player's turns (the belief-optimal problem): ``tl`` placements
    are left and each but the last is followed by a draw from ``dc``.
    ``node``: ``SOLO_PLACE`` my placement, ``SOLO_DRAW`` my draw after it (``tl`` already counts
    that turn), ``SOLO_OPP`` the opponent's turn.
    Cards dead for the player (never playable by them) are merged into one junk card. Chance
    nodes prune with Star1 against ``alpha`` and the bound of ``_solo_upper``.
    """
    if left <= 0 or tl == 0:
        return _solo_score(w, mask, nc)
    if stats[3] != 0:
        return 0.0
    if stats[4] > 0 and stats[0] + stats[1] >= stats[4]:  # (checked before counting: the budget is kept)
        stats[3] = 1
        return 0.0
    stats[1] += 1
    if alternate == 1 and node != SOLO_DRAW and stats[ENDS_SEARCHED] == 0:
        # the round's last placements of mine need no table: a placement with no turn of mine after it is
        # worth the score plus the most one card adds, whatever the pile holds (as is the opponent's turn
        # before it: the card they take does not matter), and after the opponent's last turn the score stands
        at = left  # the cards left and turns left (``tl`` less this turn) at my next placement
        after = tl - 1 if tl > 0 else tl
        if node == SOLO_OPP:
            if left <= 1 or after == 0:
                return _solo_score(w, mask, nc)
            at -= 1  # the opponent's turn takes a card, then I place
            after = after - 1 if after > 0 else after
        if at < 3 or (after >= 0 and after < 2):
            return _solo_score(w, mask, nc) + _best_gain(hand, 0, w, 0, mask, 0, nc)
    k1, k2 = _key_solo(hand, w, mask, dc, nc, node, alternate, tl, Z)
    slot = np.int64(k1 & np.uint64(so.shape[0] - 1))
    v, meta = _entry(so, slot, k1, k2)
    tt_move = -1
    if meta != 0:
        if np.int64(meta & np.uint64(255)) == EXACT or v <= alpha:
            stats[2] += 1
            return v
        tt_move = np.int64(meta >> np.uint64(8)) - 1
    nt = RANKS * nc
    best_move = -1
    if node == SOLO_PLACE:
        tl2 = tl - 1 if tl > 0 else tl
        if alternate == 1:
            more = left >= 3 and (tl2 < 0 or tl2 >= 2)  # I draw, the opponent draws, I move again
        else:
            more = tl2 != 0 and left >= 1
        dead_t = -1  # discarding one dead card is as good as discarding another: the lowest
        for t in range(nt):
            if hand[t] > 0 and _is_dead(mask, t):
                dead_t = t
                break
        v = -INF
        for i in range(-1, 2 * nt):  # the table's placement first, then the rest in order
            code = tt_move if i < 0 else i
            if code < 0 or (i >= 0 and code == tt_move):
                continue
            t = code // 2
            if hand[t] <= 0:
                continue
            if _is_dead(mask, t) and (code % 2 == 0 or t != dead_t):
                continue
            lay_card(hand, 0, w, 0, mask, 0, code, 1)
            if more:
                x = _solo(hand, w, mask, dc, left, np.int64(SOLO_DRAW), alternate, tl2, nc, max(alpha, v), Z,
                          so, stats)
            else:
                x = _solo_score(w, mask, nc)
            lay_card(hand, 0, w, 0, mask, 0, code, -1)
            if x > v:
                v = x
                best_move = code
        if v == -INF:  # an empty hand: nothing to place
            v = _solo_score(w, mask, nc)
    else:
        # chance: the next card of the pile goes to my hand (SOLO_DRAW) or away (SOLO_OPP)
        to_hand = node == SOLO_DRAW
        if to_hand:
            tl_c = tl
            child = SOLO_OPP if alternate == 1 else SOLO_PLACE
        else:
            tl_c = tl - 1 if tl > 0 else tl
            child = SOLO_PLACE
        if not to_hand and (left <= 1 or tl_c == 0):
            v = _solo_score(w, mask, nc)  # no turn of mine comes after the opponent's
        else:
            after = _places_after_draw(node, alternate, left, tl)
            hi = _solo_upper(hand, w, mask, dc, nc, after) if alpha > -INF else 0.0
            outs = np.empty(2 * nt, np.int64)
            k_out = _chance_outcomes(dc, nc, mask, mask, True, outs)
            tw = 0.0  # the children's values so far, weighted by their cards
            rest = left  # cards not yet looked at
            done = False
            v = 0.0
            for j in range(k_out):
                u = outs[2 * j]
                n = outs[2 * j + 1]
                rest -= n
                # Star1: this child must beat a_i for the node to beat alpha
                a_i = (alpha * left - tw - hi * rest) / n
                if a_i >= hi:
                    v = min(alpha, (tw + hi * (n + rest)) / left)
                    done = True
                    break
                dc[u] -= 1
                if to_hand:
                    hand[u] += 1
                x = _solo(hand, w, mask, dc, left - 1, np.int64(child), alternate, tl_c, nc, a_i, Z, so, stats)
                if to_hand:
                    hand[u] -= 1
                dc[u] += 1
                if x <= a_i:
                    v = min(alpha, (tw + n * x + hi * rest) / left)
                    done = True
                    break
                tw += n * x
            if not done:
                v = tw / left
    if stats[3] != 0:
        return 0.0
    _store(so, slot, k1, k2, v, np.uint64(EXACT if v > alpha else UPPER) | (np.uint64(best_move + 1) << np.uint64(8)))
    return v


@njit(cache=True)
def _load_player(s, nc, q, hand, w, mask):
    oh = off_hand(nc, q)
    ow = off_wagers(nc, q)
    om = off_mask(nc, q)
    for t in range(RANKS * nc):
        hand[t] = s[oh + t]
    for c in range(nc):
        w[c] = s[ow + c]
        mask[c] = s[om + c]


@njit(cache=True)
def _decomposed(s, nc, dc, tl, alpha, Z, so, stats, hand, w, mask):
    """With no discard-pile draws left: solo(player to move) - solo(opponent), fail-soft
    against ``alpha`` (the mover's search is cut off once it cannot beat ``alpha + opponent``).

    ``hand``, ``w``, ``mask`` are scratch arrays (NT, NC, NC)."""
    p = s[H_TO_MOVE]
    left = np.int64(deck_left(s))
    _load_player(s, nc, 1 - p, hand, w, mask)
    opp = _solo(hand, w, mask, dc, left, np.int64(SOLO_OPP), np.int64(1), np.int64(tl), np.int64(nc), -INF, Z,
                so, stats)
    _load_player(s, nc, p, hand, w, mask)
    me = _solo(hand, w, mask, dc, left, np.int64(SOLO_PLACE), np.int64(1), np.int64(tl), np.int64(nc), alpha + opp,
               Z, so, stats)
    return me - opp


# --- the two-player search -------------------------------------------------------------


_SEARCH_SIG = float64(_I32, _I32, int64, int64, int64, int64, float64, float64, int64, int64, int64,
                      uint64[:, ::1], uint64[:, ::1], uint64[:, ::1], int32[:, ::1], int64[::1], _I32, _I32, _I32)


@njit(_SEARCH_SIG, cache=True)
def _search(s, dc, st0, st1, tl, leaf, alpha, beta, ply, only, root_free, Z, tt,
            so, buf, stats, sh, sw, sm):
    """Value for the player to move, fail-soft alpha-beta with Star2 (probes, then Star1) at
    chance nodes. ``only == PROBE``: search the first move in order only, store nothing.

    ``only >= 0``: evaluate that one turn alone (the root's way to get every turn's exact
    value with a full window; the node may be in its draw step). ``root_free``: that turn's
    discard-pile draw spends no budget.
    """
    nc = s[H_NC]
    nt = RANKS * nc
    if stats[3] != 0:
        return 0.0
    left = deck_left(s)
    if only < 0:
        if left <= 0 or tl == 0:
            return _leaf_value(s, nc, leaf)
        if tl == 1 and leaf == LEAF_AS_IS:
            if stats[4] > 0 and stats[0] + stats[1] >= stats[4]:
                stats[3] = 1
                return 0.0
            stats[0] += 1
            return _last_turn_value(s, nc)
        if st0 == 0 and st1 == 0 and leaf == LEAF_AS_IS:
            return _decomposed(s, nc, dc, tl, alpha, Z, so, stats, sh, sw, sm)
        if left <= 2 and leaf == LEAF_AS_IS and stats[ENDS_SEARCHED] == 0 and _ends_by_placements(s, st0, st1, left):
            # the round ends after one placement each (or the mover's only): no move list, no table
            if stats[4] > 0 and stats[0] + stats[1] >= stats[4]:
                stats[3] = 1
                return 0.0
            stats[0] += 1
            return _last_placements_value(s, nc, left)
        if left == 2 and leaf == LEAF_AS_IS and stats[STALL_ENDS_SEARCHED] == 0 \
                and _ends_after_a_stall(s, st0, st1, left):
            # only the mover may stall: the round ends after two placements of theirs at most; no move list, no table
            if stats[4] > 0 and stats[0] + stats[1] >= stats[4]:
                stats[3] = 1
                return 0.0
            stats[0] += 1
            return _after_a_stall_value(s, nc, tl)
    if stats[4] > 0 and stats[0] + stats[1] >= stats[4]:  # (checked before counting: the budget is kept)
        stats[3] = 1
        return 0.0
    stats[0] += 1
    k1 = np.uint64(0)
    k2 = np.uint64(0)
    slot = 0
    tt_move = -1
    if only < 0:
        k1, k2 = _key_two(s, nc, dc, st0, st1, tl, leaf, Z)
        slot = np.int64(k1 & np.uint64(tt.shape[0] - 1))
        v, meta = _entry(tt, slot, k1, k2)
        if meta != 0:
            f = np.int64(meta & np.uint64(255))
            if f == EXACT or (f == LOWER and v >= beta) or (f == UPPER and v <= alpha):
                stats[2] += 1
                return v
            tt_move = np.int64(meta >> np.uint64(8)) - 1
    p = s[H_TO_MOVE]
    my_st = st0 if p == 0 else st1
    base = nc + 1
    moves = buf[ply]
    if only >= 0:
        moves[0] = only
        n = 1
    else:
        n = gen_moves(s, moves)
        # order: the table's move, then deck draws, then discard-pile draws (only with budget)
        order = buf[ply + 128]
        k = 0
        tt_place = tt_move // base
        if tt_move >= 0 and tt_place < 2 * nt and s[off_hand(nc, p) + tt_place // 2] <= 0:
            # an equal key with another dead card of that colour in hand: its discard is the
            # same turn, and the generated moves hold it
            tt_move = -1
        if tt_move >= 0:
            order[0] = tt_move
            k = 1
        killer = buf[ply + 256, 0] - 1  # the last move that cut off at this depth, if here
        if killer >= 0 and killer != tt_move:
            for i in range(n):
                if moves[i] == killer and (killer % base == 0 or my_st != 0):
                    order[k] = killer
                    k += 1
                    break
            else:
                killer = -1
        else:
            killer = -1
        for i in range(n):
            if moves[i] % base == 0 and moves[i] != tt_move and moves[i] != killer:
                order[k] = moves[i]
                k += 1
        if my_st != 0:
            for i in range(n):
                if moves[i] % base != 0 and moves[i] != tt_move and moves[i] != killer:
                    order[k] = moves[i]
                    k += 1
        for i in range(k):
            moves[i] = order[i]
        n = k
        if only == PROBE:
            n = min(n, 1)
    oh = off_hand(nc, p)
    their_st = st1 if p == 0 else st0
    tl2 = tl - 1 if tl > 0 else tl
    a0 = alpha
    best = -INF
    best_move = -1
    theirs = 0.0  # the opponent's one-player value after a turn that spends the last stall (found once)
    have_theirs = False
    for i in range(n):
        mv = moves[i]
        place = mv // base
        src = mv % base
        placed = place < 2 * nt
        t = place // 2
        c = t // RANKS
        if only < 0 and place % 2 == 1:
            cut = _dead_cut(s, nc, c)
            r = t % RANKS
            if cut >= 1 and r <= cut:
                skip = False
                for rr in range(r):
                    if s[oh + c * RANKS + rr] > 0:
                        skip = True  # a lower dead card of this colour is discarded instead
                        break
                if skip:
                    continue
        am = max(alpha, best)
        # the horizon comes right after this turn: the card drawn goes to a hand and scores
        # nothing, so every source gives the placement's value (one source is enough)
        horizon = tl2 == 0 and leaf == LEAF_AS_IS
        if horizon and only < 0 and src != 0:
            continue
        if i >= 1 and only < 0 and their_st > 0 and am > -INF and not horizon and stats[PLAIN] == 0:
            # a later turn at a node that may fail low: first the game in which the opponent may
            # not stall (worth at least as much to the mover); a turn it refutes is refuted here.
            # Not when the opponent may stall without limit: that game is too different to refute
            # often (a horizon of 5 turns with 6 cards left: twice the nodes of the plain search)
            c0, c1 = _their_stalls_capped(st0, st1, p, 0)
            vb = _search(s, dc, c0, c1, tl, leaf, am, min(beta, am + NULL_WINDOW), ply, np.int64(mv), np.int64(0), Z,
                         tt, so, buf, stats, sh, sw, sm)
            if stats[3] != 0:
                return 0.0
            if vb <= am:
                best = max(best, vb)  # an upper bound on this turn: fail-soft stays sound
                continue
        # --- one whole turn: placement, then the draw
        if placed:
            apply_place(s, place)
        blocked = s[H_BLOCKED]
        if horizon:
            v = float(player_score(s, p) - player_score(s, 1 - p))
        elif src == 0:
            if left == 1:
                v = float(player_score(s, p) - player_score(s, 1 - p))  # this draw ends the round
            elif tl2 == 1 and leaf == LEAF_AS_IS:
                # the opponent's turn is the last: the card I draw is never played and the
                # opponent's draw scores nothing, so every card gives the same value (draw any)
                u = 0
                while dc[u] <= 0:
                    u += 1
                bring_to_top(s, u)
                apply_draw(s, 0)
                dc[u] -= 1
                v = -_search(s, dc, st0, st1, tl2, leaf, -beta, -am, np.int64(ply + 1), np.int64(-1), np.int64(0), Z,
                             tt, so, buf, stats, sh, sw, sm)
                dc[u] += 1
                undo_draw(s, 0, u, blocked)
            else:
                # chance: the card drawn (dead cards merged per colour). Star2: when there is an
                # alpha to fail below, probe each card's reply with its first move only: the
                # opponent gets at least that, so it bounds my value from above (ub). Then Star1
                # against (am, beta) with those bounds for the cards not yet searched.
                if leaf == LEAF_AS_IS:
                    # turns after this one: the pile's last card ends the round; stalls add turns
                    turns = 40 if (st0 < 0 or st1 < 0) else left - 1 + st0 + st1
                    if tl2 >= 0:
                        turns = min(turns, tl2)
                    lo, hi = _diff_bounds_in(s, nc, p, turns, buf[ply + 128])  # (the move order's row: used up)
                else:
                    lo, hi = -1e7, 1e7
                us = buf[ply + 256]  # the outcomes (type, cards) from index 1 on; 0 holds the killer
                k_out = _chance_outcomes(dc, nc, s[off_mask(nc, 0):], s[off_mask(nc, 1):], False, us[1:])
                ub = np.full(k_out, hi)  # each card's bound on my value, hi until probed
                ub_rest = hi  # sum over the cards of pr * ub
                v = 0.0
                done = False
                if am > lo and k_out > 1:
                    for j in range(k_out):
                        u = us[1 + 2 * j]
                        pr = us[2 + 2 * j] / left
                        a_p = (am - (ub_rest - pr * ub[j])) / pr  # this reply must beat a_p
                        if a_p >= hi:
                            continue
                        bring_to_top(s, u)
                        apply_draw(s, 0)
                        dc[u] -= 1
                        w = _search(s, dc, st0, st1, tl2, leaf, -hi, -max(lo, a_p), np.int64(ply + 1), np.int64(PROBE),
                                    np.int64(0), Z, tt, so, buf, stats, sh, sw, sm)
                        dc[u] += 1
                        undo_draw(s, 0, u, blocked)
                        if stats[3] != 0:
                            return 0.0
                        if -w < ub[j]:
                            ub_rest -= pr * (ub[j] + w)
                            ub[j] = -w
                        if ub_rest <= am:
                            v = min(am, ub_rest)
                            done = True
                            break
                total = 0.0
                rest_lo = lo
                for j in range(k_out):
                    if done:
                        break
                    u = us[1 + 2 * j]
                    pr = us[2 + 2 * j] / left
                    ub_rest -= pr * ub[j]  # the cards after this one: at most ub_rest, at least rest_lo
                    rest_lo -= pr * lo
                    if j == k_out - 1:
                        ub_rest = 0.0  # no card after the last: drop rounding leftovers
                        rest_lo = 0.0
                    a_i = (am - total - ub_rest) / pr
                    b_i = (beta - total - rest_lo) / pr
                    if a_i >= ub[j]:
                        v = min(am, total + pr * ub[j] + ub_rest)
                        done = True
                        break
                    if b_i <= lo:
                        v = max(beta, total + pr * lo + rest_lo)
                        done = True
                        break
                    a_c = max(lo, a_i)
                    b_c = min(ub[j], b_i)
                    bring_to_top(s, u)
                    apply_draw(s, 0)
                    dc[u] -= 1
                    x = -_search(s, dc, st0, st1, tl2, leaf, -b_c, -a_c, np.int64(ply + 1), np.int64(-1),
                                 np.int64(0), Z, tt, so, buf, stats, sh, sw, sm)
                    dc[u] += 1
                    undo_draw(s, 0, u, blocked)
                    if x <= a_i:
                        v = min(am, total + pr * x + ub_rest)
                        done = True
                        break
                    if x >= b_i:
                        v = max(beta, total + pr * x + rest_lo)
                        done = True
                        break
                    total += pr * x
                if not done:
                    v = total
        else:
            n0 = st0
            n1 = st1
            if root_free == 0:
                if p == 0 and n0 > 0:
                    n0 -= 1
                if p == 1 and n1 > 0:
                    n1 -= 1
            if n0 == 0 and n1 == 0 and leaf == LEAF_AS_IS and left > 0 and tl2 != 0 and tl2 != 1 \
                    and stats[UNSHARED] == 0:
                # the last stall anyone has: the child would decompose (``_decomposed``), and the
                # opponent's one-player value there is the same after every such turn (a stall
                # leaves the pile as it was), so it is found once per node (exact) and this turn
                # needs only the mover's own, fail-soft against ``am`` as the child's would be
                if not have_theirs:
                    _load_player(s, nc, 1 - p, sh, sw, sm)
                    theirs = _solo(sh, sw, sm, dc, np.int64(left), np.int64(SOLO_PLACE), np.int64(1), np.int64(tl2),
                                   np.int64(nc), -INF, Z, so, stats)
                    have_theirs = True
                drawn = apply_draw(s, src)
                _load_player(s, nc, p, sh, sw, sm)
                mine = _solo(sh, sw, sm, dc, np.int64(left), np.int64(SOLO_OPP), np.int64(1), np.int64(tl2),
                             np.int64(nc), am + theirs, Z, so, stats)
                undo_draw(s, src, drawn, blocked)
                v = mine - theirs
            else:
                drawn = apply_draw(s, src)
                v = -_search(s, dc, n0, n1, tl2, leaf, -beta, -am, np.int64(ply + 1), np.int64(-1), np.int64(0), Z,
                             tt, so, buf, stats, sh, sw, sm)
                undo_draw(s, src, drawn, blocked)
        if placed:
            undo_place(s, place)
        if v > best:
            best = v
            best_move = mv
            if best >= beta:
                if only == -1 and not horizon:
                    buf[ply + 256, 0] = mv + 1  # the killer move at this depth
                break
    if stats[3] != 0:
        return 0.0
    if only == -1:
        if best <= a0:
            f = UPPER
        elif best >= beta:
            f = LOWER
        else:
            f = EXACT
        _store(tt, slot, k1, k2, best, np.uint64(f) | (np.uint64(best_move + 1) << np.uint64(8)))
    return best


@njit(cache=True)
def _root_decomposed(s, dc, tl, Z, so, stats, roots, n, out_moves, out_vals, hand, w, mask):
    """Root turns with no discard-pile draws left to anyone: the opponent's one-player value
    does not depend on this turn, so it is computed once and each turn needs only the
    mover's own one-player value after it."""
    nc = s[H_NC]
    nt = RANKS * nc
    base = nc + 1
    p = s[H_TO_MOVE]
    left = deck_left(s)
    tl2 = tl - 1 if tl > 0 else tl
    _load_player(s, nc, 1 - p, hand, w, mask)
    opp = _solo(hand, w, mask, dc, np.int64(left), np.int64(SOLO_OPP), np.int64(1), np.int64(tl), np.int64(nc), -INF,
                Z, so, stats)
    k = 0
    for i in range(n):
        mv = roots[i]
        if mv % base != 0:
            continue
        place = mv // base
        placed = place < 2 * nt
        if placed:
            apply_place(s, place)
        _load_player(s, nc, p, hand, w, mask)
        if placed:
            undo_place(s, place)
        if left <= 1 or tl2 == 0:
            mine = _solo_score(w, mask, nc)
        else:
            mine = _solo(hand, w, mask, dc, np.int64(left), np.int64(SOLO_DRAW), np.int64(1), np.int64(tl2),
                         np.int64(nc), -INF, Z, so, stats)
        out_moves[k] = mv
        out_vals[k] = mine - opp
        k += 1
    return k


@njit(cache=True, nogil=True)
def _root(s, dc, st0, st1, tl, leaf, root_flags, Z, tt, so,
          buf, stats, out_moves, out_vals, out_bound, ref=-1, margin=INF):
    """Every legal root turn (within the stall budget unless ``root_free``) and its exact value.

    ``root_flags``: bit 0 ``root_free``; bit 1 best move only: each turn after the first is
    searched against the best value so far, and where it cannot beat it only an upper bound
    is found (``out_bound`` 1). ``ref`` (a move code, -1 none) with a finite ``margin``: the
    reference turn is searched first with a full window, every other turn against the
    reference's value minus ``margin``: exact where it comes within the margin, else an upper
    bound (``out_bound`` 1). The reference is listed first.
    """
    root_free = root_flags & 1
    best_only = (root_flags >> 1) & 1
    nc = s[H_NC]
    nt = RANKS * nc
    base = nc + 1
    p = s[H_TO_MOVE]
    my_st = st0 if p == 0 else st1
    their_st = st1 if p == 0 else st0
    roots = np.zeros(MAX_MOVES, dtype=np.int32)
    n = gen_moves(s, roots)
    sh = np.zeros(nt, dtype=np.int32)
    sw = np.zeros(nc, dtype=np.int32)
    sm = np.zeros(nc, dtype=np.int32)
    k = 0
    if st0 == 0 and st1 == 0 and leaf == LEAF_AS_IS and root_free == 0:
        return _root_decomposed(s, dc, tl, Z, so, stats, roots, n, out_moves, out_vals, sh, sw, sm)
    best = -INF
    floor = -INF  # margin mode: the value every other turn is searched against
    if ref >= 0:
        for i in range(n):
            if roots[i] == ref:
                roots[i] = roots[0]
                roots[0] = ref
                break
    for i in range(n):
        mv = roots[i]
        src = mv % base
        if src != 0 and my_st == 0 and root_free == 0:
            continue
        alpha = best if best_only == 1 else floor
        v = INF
        cap = 0
        while alpha > -INF and v > alpha and stats[PLAIN] == 0 and _below(cap, their_st):
            # First the games in which the opponent may stall 0 times, then 1, ... up to their budget
            # less one: they have fewer turns to choose from, so each is worth at least as much to
            # the mover, and a turn one shows at or below alpha is refuted in the whole game too, for
            # a fraction of the nodes. (The later ones catch a discard the opponent could take back:
            # free in the game where they may not stall at all.)
            c0, c1 = _their_stalls_capped(st0, st1, p, cap)
            v = _search(s, dc, c0, c1, np.int64(tl), np.int64(leaf), alpha, alpha + NULL_WINDOW, np.int64(0),
                        np.int64(mv), np.int64(root_free), Z, tt, so, buf, stats, sh, sw, sm)
            cap += 1
        if v > alpha and alpha > -INF and their_st >= NARROW_ROOT_STALLS and stats[ROOT_WIDE] == 0:
            # no probe refuted it: first only whether it beats the bar in the whole game (at or below: an
            # upper bound, as the open window gives); one above is searched again, below, for its exact value
            v = _search(s, dc, np.int64(st0), np.int64(st1), np.int64(tl), np.int64(leaf), alpha, alpha + NULL_WINDOW,
                        np.int64(0), np.int64(mv), np.int64(root_free), Z, tt, so, buf, stats, sh, sw, sm)
        if v > alpha:
            v = _search(s, dc, np.int64(st0), np.int64(st1), np.int64(tl), np.int64(leaf), alpha, INF, np.int64(0),
                        np.int64(mv), np.int64(root_free), Z, tt,
                        so, buf, stats, sh, sw, sm)
        out_moves[k] = mv
        out_vals[k] = v
        out_bound[k] = 1 if (alpha > -INF and v <= alpha) else 0
        if mv == ref and margin < INF:
            floor = v - margin
        best = max(best, v)
        k += 1
    return k


# --- Python entry points -------------------------------------------------------------


def prepare(state: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """A search copy of a kernel state (turn cap lifted: only the search's bounds stop play)
    and the draw pile's counts per card type."""
    s = np.array(state, dtype=np.int32, copy=True)
    s[H_TURN_CAP] = 1 << 30
    dc = np.zeros(RANKS * int(s[H_NC]), dtype=np.int32)
    deck_counts(s, dc)
    return s, dc


def max_depth(deck_left: int, st0: int, st1: int, tl: int) -> int:
    """An upper bound on the number of turns any line can last under the bounds."""
    bounds = []
    if tl >= 0:
        bounds.append(tl)
    if st0 >= 0 and st1 >= 0:
        bounds.append(deck_left + st0 + st1)
    elif st0 >= 0 or st1 >= 0:
        bounds.append(2 * deck_left + max(st0, st1) + 1)
    return min(bounds) if bounds else 1 << 30


def auto_bits(depth: int, deck_left: int, st0: int, st1: int, tl: int = -1) -> tuple[int, int]:
    """Table sizes (log2 of the entries) fit to the problem: a big table costs page faults."""
    solo = min(22, max(12, 6 + deck_left + deck_left // 2))
    if st0 == 0 and st1 == 0:
        return 10, solo
    guesses = []
    if tl >= 0:
        guesses.append(10 + 3 * tl)
    if st0 >= 0 or st1 >= 0:
        finite = max(st0, 0) + max(st1, 0)
        guesses.append(10 + 2 * deck_left + 2 * finite + (4 if min(st0, st1) < 0 else 0))
    return min(22, max(12, min(guesses) if guesses else 22)), solo


def check_depth(deck_left: int, st0: int, st1: int, tl: int) -> int:
    """The longest line the bounds allow (``max_depth``), refused when the search's buffers
    cannot hold it."""
    if tl > MAX_TL:
        raise SearchError(f"max_turns must be at most {MAX_TL}, got {tl}")
    depth = max_depth(deck_left, st0, st1, tl)
    if depth >= 120:
        raise SearchError(
            "the bounds allow lines of more than 120 turns: give a smaller max_stalls or max_turns"
        )
    return depth


def search_root(
    state: np.ndarray,
    stalls: tuple[int, int],
    max_turns: int = -1,
    leaf: int = LEAF_AS_IS,
    tables: Tables | None = None,
    max_nodes: int = 0,
    root_free: bool = False,
    best_only: bool = False,
    bound_out: list | None = None,
    deadline: float | None = None,
) -> tuple[np.ndarray, np.ndarray, Tables]:
    """Exact values of every legal root turn of a kernel state, for the player to move.

    ``stalls``: discard-pile draws left for player 0 and player 1 (-1: unlimited);
    ``max_turns``: turns left before the table is scored as it stands (-1: no horizon).
    ``root_free``: the root turn may draw from a discard pile without spending budget.
    ``best_only``: exact values for the best turn (and any that tie or beat the earlier ones),
    upper bounds for the rest; ``bound_out``, when given, receives a 0/1 per turn (1: bound).
    ``deadline`` (a ``time.perf_counter`` value): the search is stopped there (``common.abort_at``).
    Returns (move codes, values, tables); ``tables.stats[3]`` is 1 when ``max_nodes`` or the deadline ran out.
    """
    check_tables(tables, Tables)
    s, dc = prepare(state)
    st0, st1 = int(stalls[0]), int(stalls[1])
    tl = int(max_turns)
    left = int(deck_left(s))
    depth = check_depth(left, st0, st1, tl)
    if tables is None:
        tables = shared_tables(*auto_bits(depth, left, st0, st1, tl))
    tables.reset(max_nodes)
    out_moves = np.zeros(MAX_MOVES, dtype=np.int32)
    out_vals = np.zeros(MAX_MOVES, dtype=np.float64)
    out_bound = np.zeros(MAX_MOVES, dtype=np.int8)
    with abort_at(deadline, tables.stats, tables.clear):
        n = _root(
            s, dc, st0, st1, tl, int(leaf), (1 if root_free else 0) | (2 if best_only else 0), ZOBRIST,
            tables.tt, tables.so, tables.buf, tables.stats,
            out_moves, out_vals, out_bound,
        )
    if bound_out is not None:
        bound_out[:] = out_bound[:n].tolist()
    if tables.stats[3]:
        tables.clear()  # an unfinished search may have stored bounds it did not finish proving
    return out_moves[:n].copy(), out_vals[:n].copy(), tables


def check_round(pos) -> None:
    """Refuse a full position whose round is over: there is no turn to value."""
    if pos.is_over():
        raise SearchError(f"the round is over ({pos.over_reason()}): there is no turn to value")
    check_state(pos.state)


def solve_perfect(position, max_stalls=None, max_turns=None, leaf="as-is", *, tables=None, max_nodes=0,
                  stalls=None, root_free=False, best_only=False, seconds=None):
    """The perfect-information value (E1) of every legal turn of a full position.

    Value = E[final score of the player to move - final score of the opponent], both hands
    and the draw pile's contents known, its order uniformly random, the player to move
    maximizing and the opponent minimizing. Exact under the bounds, which it states:
    ``max_stalls`` discard-pile draws left to each player, ``max_turns`` turns before the
    table is scored as it stands (``leaf="as-is"``) or estimated (``leaf="heuristic"``: the
    answer is then a depth-limited estimate). Only the turns the bounds allow are listed.

    ``stalls=(s0, s1)`` gives each player (by number; -1 unlimited) a budget of their own, and
    ``root_free`` lets the root turn draw from a discard pile without spending it (used by
    the bracket of ``deepen.bracket``). ``best_only``: when only the best turn matters, the
    others are searched against it (alpha-beta at the root too) and listed with an upper bound
    on their value (``exact`` False, reason "at most"). Returns an ``Analysis``; ``max_nodes``
    (0 or None: no budget; at most ``MAX_NODES``) caps the search: when it runs out the search
    stops and raises ``SearchBudgetExceeded``; so does ``seconds`` (None: none), by the clock.
    """
    pos = read_position(position)
    if isinstance(pos, View):
        raise SearchError("solve_perfect needs a full position; for a player's view use solve_view")
    max_nodes = check_max_nodes(max_nodes)
    seconds = check_seconds(seconds)  # a float: the clock's timer thread takes no numpy number
    if stalls is None:
        s_, t_, leaf_code = check_bounds(max_stalls, max_turns, leaf)
        st = (-1 if s_ is None else s_, -1 if s_ is None else s_)
        bounds = bounds_dict(s_, t_, leaf)
    else:
        _, t_, leaf_code = check_bounds(None, max_turns, leaf, need_bound=False)
        st = (int(stalls[0]), int(stalls[1]))
        if st[0] < 0 and st[1] < 0 and t_ is None:
            raise SearchError("no bound: at least one player must have a finite stall budget, or give max_turns")
        bounds = {"stalls": {"player 0": st[0] if st[0] >= 0 else "unlimited",
                             "player 1": st[1] if st[1] >= 0 else "unlimited"}}
        if root_free:
            bounds["root_turn_free"] = True
        bounds.update(bounds_dict(None, t_, leaf))
    check_round(pos)
    check_tables(tables, Tables)
    check_depth(pos.deck_count, st[0], st[1], -1 if t_ is None else t_)
    # after the checks: a bad argument is refused at once, not after a first compile of 1-2 minutes
    first_compile.ready(first_compile.SOLVER)  # (compiled once, saying so: core.first_compile)
    t0 = time.perf_counter()
    bound: list[int] = []
    codes, vals, tables = search_root(pos.state, st, -1 if t_ is None else t_, leaf_code, tables, max_nodes,
                                      root_free, best_only, bound, None if seconds is None else t0 + seconds)
    if tables.stats[3]:
        raise SearchBudgetExceeded(int(tables.stats[0] + tables.stats[1]), seconds if tables.stats[CLOCK] else None)
    seconds = time.perf_counter() - t0
    exact = leaf_code == LEAF_AS_IS
    nc = pos.rules.colors
    texts = move_texts(nc)  # plain lists: per-element numpy scalars cost more than the search on tiny endgames
    plain = "" if exact else HEURISTIC_REASON
    moves = [MoveValue(texts[c], v, 0.0, exact and not b, "at most (best_only)" if b else plain)
             for c, v, b in zip(np.asarray(codes).tolist(), np.asarray(vals, dtype=np.float64).tolist(),
                                np.asarray(bound).tolist())]
    return Analysis(
        moves=moves,
        kind="perfect-information value" if exact else "depth-limited estimate",
        exact=exact,
        bounds=bounds,
        nodes=int(tables.stats[0] + tables.stats[1]),
        seconds=seconds,
        method="expectiminimax: decomposition once no stalls are left, table, alpha-beta, Star2",
    )


class SearchBudgetExceeded(RuntimeError):
    """The node budget, or the time given (``seconds``, None when it was the node budget), ran out
    before the search finished (``nodes`` were searched)."""

    def __init__(self, nodes: int, seconds: float | None = None):
        super().__init__(f"node budget exhausted after {nodes} nodes" if seconds is None else
                         f"the {seconds:g} s given ran out after {nodes} nodes")
        self.nodes = nodes
        self.seconds = seconds  # None: the node budget ran out; else the time given, which did


first_compile.compiled_at_import(first_compile.SOLVER)  # (opened above ``_SOLO_SIG``)
