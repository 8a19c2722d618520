"""The view value (E2): a turn's perfect-information value averaged over the unseen cards.

From a player's view the unseen cards (the opponent's unknown cards and the draw pile) can
be split in many ways; all splits of the *physical* cards are equally likely (a split giving
the opponent one of two unseen red wagers arises twice). The view value of a turn is the
average of its perfect-information value (``perfect.solve_perfect``) over those splits,
under the same bounds. It is exact as a number when every split is enumerated, and an
estimate with a standard error when splits are sampled. It credits both players with
clairvoyance after the root, so it is not the game-theoretic value of the
imperfect-information endgame.
"""

from __future__ import annotations

import os
import threading
import time
from collections.abc import Callable
from math import comb, prod
from typing import Any, NamedTuple

import numpy as np
from numba import njit

from lcanalysis.analysis import HEURISTIC_REASON, Analysis, MoveValue
from lcanalysis.core import first_compile
from lcanalysis.core.kernel import (
    H_DECK_END,
    H_DECK_POS,
    H_NC,
    H_TURN_CAP,
    MAX_MOVES,
    RANKS,
    off_deck,
    off_hand,
)
from lcanalysis.game.cards import brief, number_types, types_from_counts, whole_number
from lcanalysis.game.notation import read_position
from lcanalysis.game.view import View, count_splits, sub_multisets
from lcanalysis.hand_model import FEATURES, N_FEATURES, hand_weights, sample_hands, shipped_weights
from lcanalysis.options import (
    MAX_WORKERS,  # threads for the splits (sharing one table)
    SOLVE_MAX_SPLITS,
    SOLVE_SAMPLES,
    check_seed,
)
from lcanalysis.search.common import (
    CLOCK,
    MAX_SAMPLES,
    SearchError,
    abort_at,
    bounds_dict,
    check_bounds,
    check_max_nodes,
    check_max_splits,
    check_seconds,
    check_tables,
    move_text,
    on_threads,
    planned,
)
from lcanalysis.search.perfect import (
    LEAF_AS_IS,
    ZOBRIST,
    SearchBudgetExceeded,
    Tables,
    _dead_cut,
    _root,
    auto_bits,
    check_depth,
    check_round,
    shared_tables,
)

DEFAULT_MAX_SPLITS = SOLVE_MAX_SPLITS  # (options: the command line's help says them without loading the search)
DEFAULT_SAMPLES = SOLVE_SAMPLES


def sampled_picks(unseen: list[int], opponent_unknown: int, n_types: int, n: int, seed: int) -> np.ndarray:
    """``n`` splits of the physical unseen cards drawn uniformly with ``default_rng(seed)``: each row
    the opponent's unknown cards per type (the rest make the draw pile)."""
    rng = np.random.default_rng(seed)
    cards = np.array(types_from_counts(unseen), dtype=np.int64)
    return np.array([np.bincount(rng.permutation(cards)[:opponent_unknown], minlength=n_types) for _ in range(n)],
                    dtype=np.int32).reshape(n, n_types)


def model_type_weights(view: View, theta: np.ndarray) -> np.ndarray:
    """Each card type's odds of lying in the opponent's hand under the opponent-hand model with weights
    ``theta`` (``hand_model.hand_weights``; 1 for a type not unseen). The copies of a type (a colour's
    wagers) share its features, so one weight a type is every physical card's."""
    types = [card.type for card in view.unseen()]
    out = np.ones(number_types(view.rules.colors))
    out[types] = hand_weights(view, theta)
    return out


def model_probabilities(picks: np.ndarray, ways: np.ndarray, type_weights: np.ndarray) -> np.ndarray:
    """Each split's probability when the opponent's hand ``S`` is dealt by the model, with probability
    proportional to the product of its cards' weights (``hand_model``'s conditional Poisson law): a split
    stands for ``ways`` physical hands, each of weight ``prod_t w_t^k_t``. Splits that merge cards dead for
    both players (``_SplitInputs.all_worlds``) merge cards of one weight: the model reads a card dead for
    both (the opponent has started its colour, the card no longer fits there nor the viewer's) the same
    whichever it is, so the merged count's ways stay right."""
    logp = np.log(ways) + picks @ np.log(type_weights)
    p = np.exp(logp - logp.max())
    return p / p.sum()


def model_sampled_picks(unseen: list[int], opponent_unknown: int, type_weights: np.ndarray, n: int,
                        seed: int) -> np.ndarray:
    """``n`` splits as ``sampled_picks`` draws them, the opponent's unknown cards dealt exactly from the
    model's law (``hand_model.sample_hands``) instead of uniformly; the rest make the draw pile."""
    cards = np.array(types_from_counts(unseen), dtype=np.int64)
    hands = sample_hands(type_weights[cards], opponent_unknown, np.random.default_rng(seed), n)
    n_types = len(type_weights)
    return np.array([np.bincount(cards[h], minlength=n_types) for h in hands], dtype=np.int32).reshape(n, n_types)


def check_hand_model(theta: Any) -> np.ndarray | None:
    """An endgame search's ``hand_model``: None (every split equally likely: the view value), True (the
    shipped weights) or the model's weights (``hand_model.FEATURES`` order), as an array; a SearchError
    naming the problem otherwise."""
    if theta is None or theta is False:
        return None
    if theta is True:
        return shipped_weights()
    try:
        w = np.asarray(theta, dtype=np.float64)
    except (TypeError, ValueError):
        w = None
    if w is None or w.shape != (N_FEATURES,) or not np.all(np.isfinite(w)):
        raise SearchError(f"hand_model must be None, True (the shipped weights) or {N_FEATURES} finite weights, "
                          f"one per feature {list(FEATURES)}, got {brief(theta)}")
    return w


#: the ``kind`` of a view value whose splits the opponent-hand model weights (``solve_view``'s ``hand_model``)
VIEW_VALUE_MODEL_KIND = "view value (splits weighted by the opponent-hand model)"
#: how the words of an answer name splits weighted by the opponent-hand model
MODEL_WEIGHTED = "each weighted by how likely the opponent-hand model makes the opponent's hand in it"


def split_weights(unseen: list[int], opponent_unknown: int):
    """``(probability, opponent pick counts)`` for every split of the physical unseen cards."""
    total = comb(sum(unseen), opponent_unknown)
    for pick in sub_multisets(unseen, opponent_unknown):
        yield prod(comb(n, k) for n, k in zip(unseen, pick) if k) / total, pick


@njit(cache=True)
def _all_splits(counts, size, n_out):
    """The same picks as ``split_weights`` (every ``k <= counts`` summing to ``size``, in the
    order of ``view.sub_multisets``: the next vector in descending order each time) with the
    number of physical ways of each, compiled; ``n_out`` is their number (``count_splits``)."""
    n = counts.shape[0]
    picks = np.zeros((n_out, n), dtype=np.int32)
    ways = np.ones(n_out)
    k = np.zeros(n, dtype=np.int64)
    rest = size
    for t in range(n):  # the first pick: as many as possible from the first types
        k[t] = min(counts[t], rest)
        rest -= k[t]
    m = 0
    while rest == 0 and m < n_out:
        for t in range(n):
            picks[m, t] = k[t]
            if 0 < k[t] < counts[t]:
                ways[m] *= _comb(counts[t], k[t])
        m += 1
        # the next pick: take one off the last type that can give one to the types after it
        held = k[n - 1]
        room = counts[n - 1]
        i = n - 2
        while i >= 0 and not (k[i] > 0 and room > held):
            held += k[i]
            room += counts[i]
            i -= 1
        if i < 0:
            break
        k[i] -= 1
        rest = held + 1
        for t in range(i + 1, n):
            k[t] = min(counts[t], rest)
            rest -= k[t]
    return picks[:m], ways[:m]


@njit(cache=True)
def _comb(n, k):
    out = 1.0
    for j in range(k):
        out = out * (n - j) / (j + 1)
    return out


def dead_types(state: np.ndarray) -> list[list[int]]:
    """Per colour where both players hold a number, the card types dead for both: its wagers and the
    numbers at or below both expeditions' highest (``perfect._dead_cut``)."""
    nc = int(state[H_NC])
    return [list(range(c * RANKS, c * RANKS + cut + 1)) for c in range(nc) if (cut := _dead_cut(state, nc, c)) > 0]


def merged_counts(unseen: np.ndarray, dead: list[list[int]]) -> np.ndarray:
    """``unseen`` (counts per type) with each group of ``dead`` counted on its lowest type."""
    out = np.array(unseen, dtype=np.int32, copy=True)
    for group in dead:
        out[group[0]] = out[group].sum()
        out[group[1:]] = 0
    return out


class _SplitInputs:
    """What every split shares: the kernel state of the view with one split filled in, the
    opponent's known cards and the unseen cards' counts per type."""

    def __init__(self, view):
        unseen = [int(x) for x in view.unseen_counts()]
        u = view.opponent_unknown
        pick = next(iter(sub_multisets(unseen, u)), None)
        if pick is None:
            raise SearchError("the unseen cards cannot fill the opponent's hand")
        rest = [n - k for n, k in zip(unseen, pick)]
        base = view.complete(types_from_counts(pick), types_from_counts(rest))
        self.state = np.array(base.state, dtype=np.int32, copy=True)
        nt = number_types(view.rules.colors)
        self.known = np.zeros(nt, dtype=np.int32)
        for card in view.opponent_known:
            self.known[card.type] += 1
        self.unseen = np.array(unseen, dtype=np.int32)
        self.opp = view.opponent
        # the card types dead for both players, per colour: splits that differ only in which of them
        # the opponent holds are one world to the search (its keys merge them), so one is solved
        self.dead = dead_types(self.state)

    def merged(self) -> np.ndarray:
        return merged_counts(self.unseen, self.dead)

    def count_worlds(self, size: int, cap: int | None = None) -> int:
        """How many distinct worlds the splits of ``size`` cards make (``all_worlds``), up to ``cap``."""
        return count_splits([int(x) for x in self.merged()], size, cap)

    def all_worlds(self, size: int, n: int | None = None) -> tuple[np.ndarray, np.ndarray]:
        """Every distinct split of ``size`` unseen cards to the opponent (``n``: their number, from
        ``count_worlds``) and its number of physical ways: the splits of ``merged``, each colour's dead
        cards dealt to the opponent from its lowest type up. Their probabilities are those of the classes
        of physical splits they stand for, and every split of a class has the same value, so the view
        value over these is the one over every split."""
        picks, ways = _all_splits(self.merged(), size, self.count_worlds(size) if n is None else n)
        for group in self.dead:
            held = picks[:, group[0]].copy()
            for t in group:  # deal the class's dead cards from the lowest type up
                picks[:, t] = np.minimum(held, self.unseen[t])
                held -= picks[:, t]
        return picks, ways


@njit(cache=True, nogil=True)
def _solve_splits(state, opp, known, unseen, picks, st0, st1, tl, leaf, Z, tt, so, buf, stats,
                  out_moves, out_vals, out_bounds, ref=-1, margin=np.inf, raise_bar=False):
    """Every root turn's perfect-information value for each split (a row of ``picks``: the
    opponent's unknown cards per type; the rest of the unseen cards make the draw pile) into
    the rows of ``out_vals`` (``out_bounds`` 1 where a value is only an upper bound: ``ref`` and
    ``margin`` as in ``perfect._root``; ``raise_bar``: each turn against the best value so far instead,
    ``perfect._root``'s best move only). One compiled loop, so a split costs its search and
    nothing more, and threads run it side by side. Stops early when the node budget
    (``stats[4]``) runs out."""
    nc = state[H_NC]
    nt = RANKS * nc
    s = state.copy()
    s[H_TURN_CAP] = 1 << 30  # only the search's bounds stop play
    oh = off_hand(nc, opp)
    od = off_deck(nc)
    dc = np.zeros(nt, dtype=np.int32)
    n = 0
    for i in range(picks.shape[0]):
        j = od + s[H_DECK_POS]
        for t in range(nt):
            s[oh + t] = known[t] + picks[i, t]
            dc[t] = unseen[t] - picks[i, t]
            for _ in range(dc[t]):
                s[j] = t
                j += 1
        s[H_DECK_END] = j - od
        n = _root(s, dc, st0, st1, tl, leaf, 2 if raise_bar else 0, Z, tt, so, buf, stats, out_moves, out_vals[i],
                  out_bounds[i], ref, margin)
        if stats[3] != 0:
            break
    return n


class SplitValues(NamedTuple):
    """What ``solve_split_chunks`` found: the root turns' codes and each split's values (rows),
    True where a value is only an upper bound, the nodes searched, whether every chunk finished
    within the budget and the deadline, and whether it was the clock that stopped one."""

    codes: list[int]
    rows: np.ndarray
    bounded: np.ndarray
    nodes: int
    finished: bool
    clocked: bool


def node_shares(max_nodes: int, threads: int) -> list[int]:
    """Each thread's share of a node budget, together exactly ``max_nodes``, so that threads side by
    side never search more than it; one share per thread to run (never more threads than nodes: a
    share of 0 would mean no limit to the compiled search). ``max_nodes`` 0 or less: no limit (0 each)."""
    if max_nodes <= 0:
        return [0] * threads
    threads = min(threads, max_nodes)
    return [max_nodes // threads + (i < max_nodes % threads) for i in range(threads)]


def solve_split_chunks(inputs: _SplitInputs, picks: np.ndarray, st0: int, st1: int, tl: int, leaf: int,
                       tables: list, max_nodes: int, deadline: float | None, ref: int = -1,
                       margin: float = np.inf, done: Callable[[int], None] | None = None,
                       raise_bar: bool = False) -> SplitValues:
    """Every root turn's value in each split of ``picks`` (``_solve_splits``), on one thread per table
    (at most one per split) side by side. Each thread starts on a contiguous share of the splits and,
    once through it, takes over half of what another has left (``_SplitQueue``); the tables should
    be siblings (``Tables.sibling``), so that what one thread proves the others reuse. Each thread may
    use its share of ``max_nodes`` (0: no limit; ``node_shares``); a thread still running at
    ``deadline`` is stopped there, and once one is stopped the others stop too. When not finished,
    every table is cleared (an unfinished search may have stored bounds it did not finish proving)
    and the values are empty. ``done`` (``common.planned``'s) is told how many splits each run of
    the compiled loop finished, for the progress line."""
    shares = node_shares(max_nodes, max(1, min(len(tables), len(picks))))
    n = len(shares)
    queue = _SplitQueue(len(picks), n)
    out_moves = np.zeros((n, MAX_MOVES), dtype=np.int32)
    rows = np.zeros((len(picks), MAX_MOVES), dtype=np.float64)
    bounded = np.zeros((len(picks), MAX_MOVES), dtype=np.int8)

    def solve_chunk(i: int) -> int:
        """Splits from the queue on table i until none is left; the number of root turns (0: none solved)."""
        t = tables[i]
        t.reset(shares[i])
        k = 0
        with abort_at(deadline, t.stats, t.clear):
            while (part := queue.take(i)) is not None:
                began = time.perf_counter()
                k = _solve_splits(inputs.state, inputs.opp, inputs.known, inputs.unseen, picks[part], st0, st1, tl,
                                  leaf, ZOBRIST, t.tt, t.so, t.buf, t.stats, out_moves[i], rows[part],
                                  bounded[part], ref, margin, raise_bar)
                if t.stats[3]:
                    for other in tables[:n]:  # the answer is lost: the other threads need not go on
                        other.stats[3] = 1
                    break
                queue.took(i, part.stop - part.start, time.perf_counter() - began)
                if done is not None:
                    done(part.stop - part.start)
        return k

    def clear_all() -> None:
        for t in tables:
            t.clear()

    counts = on_threads(n, solve_chunk, clear_all)
    used = tables[:n]
    nodes = sum(int(t.stats[0] + t.stats[1]) for t in used)
    clocked = any(bool(t.stats[CLOCK]) for t in used)
    if any(t.stats[3] for t in used) or (max_nodes and nodes > max_nodes):
        clear_all()
        return SplitValues([], rows[:, :0], bounded[:, :0].astype(bool), nodes, False, clocked)
    i = next((i for i in range(n) if counts[i]), 0)  # a thread that solved splits (each lists the same turns)
    k = counts[i]
    return SplitValues(out_moves[i, :k].tolist(), rows[:, :k], bounded[:, :k].astype(bool), nodes, True, clocked)


#: seconds a call of the compiled split loop should take (``_SplitQueue``): the progress line, said every
#: 3 s, counts the splits done once each call returns, and a call costs some 30 µs more than its splits
CHUNK_SECONDS = 0.5


class _SplitQueue:
    """The splits ``0 .. n - 1`` handed out to ``threads`` threads. Each starts on a contiguous range of
    its own (neighbouring splits share much of their trees, so a thread's table serves the next one)
    and takes at most a quarter of what its range has left at a time; once through, it takes over the
    back half of the largest range another has left, so no thread idles while splits are left (a
    split's cost varies several-fold). One thread takes its range in order. A thread's first take is
    one split; after each, told how long it took (``took``), it takes as many as should last about
    ``CHUNK_SECONDS``: each step is counted in the progress line (a 64th of 792 splits at 5 cards took
    more than 16 s, so the line said "0 of 792 splits done" all that time)."""

    def __init__(self, n: int, threads: int):
        self.ranges = [[n * i // threads, n * (i + 1) // threads] for i in range(threads)]
        self.lock = threading.Lock()
        self.steps = [1] * threads  # each thread's next take at most

    def took(self, i: int, splits: int, seconds: float) -> None:
        """Thread i solved ``splits`` in ``seconds``: its next take is sized to last ``CHUNK_SECONDS``
        (at most 4 times the last one, so that one quick split does not hand out the rest at once)."""
        pace = CHUNK_SECONDS * splits / max(seconds, 1e-6)
        self.steps[i] = max(1, min(int(pace), 4 * splits))

    def take(self, i: int) -> slice | None:
        """The next splits for thread i, or None when every split is taken."""
        with self.lock:
            mine = self.ranges[i]
            if mine[0] >= mine[1]:
                j = max(range(len(self.ranges)), key=lambda j: self.ranges[j][1] - self.ranges[j][0])
                lo, hi = self.ranges[j]
                if lo >= hi:
                    return None
                mid = lo + (hi - lo) // 2
                self.ranges[j][1] = mid
                mine[0], mine[1] = mid, hi
            lo, hi = mine
            size = min(hi - lo, self.steps[i])
            if len(self.ranges) > 1:
                size = min(size, max(1, (hi - lo) // 4))
            mine[0] = lo + size
            return slice(lo, lo + size)


def check_workers(workers) -> int:
    """How many threads ``workers`` asks for: None or 1 one (the serial loop), 0 or "auto" one per core."""
    if workers is None:
        return 1
    if workers == "auto" and isinstance(workers, str):
        workers = 0
    if isinstance(workers, bool) or not isinstance(workers, (int, np.integer)) or not 0 <= workers <= MAX_WORKERS:
        raise SearchError(f"workers must be a whole number >= 0 and at most {MAX_WORKERS} (0 or 'auto': one per "
                          f"core), got {workers!r}")
    return int(workers) or os.cpu_count() or 1


def check_mover_view(v: View, samples: Any = None) -> int | None:
    """What every view value asks (the view solver's, the endgame search's and the belief search's):
    ``samples`` None (every split) or a whole number in range (numpy's integers too:
    ``game.cards.whole_number``), the mover's own view, and a round not yet over. Returns ``samples``
    as an ``int`` (or None)."""
    n = None if samples is None else whole_number(samples)
    if samples is not None and (n is None or not 2 <= n <= MAX_SAMPLES):
        raise SearchError(f"samples must be a whole number 2..{MAX_SAMPLES:,}, got {brief(samples)}")
    if v.is_over():  # (an empty draw pile, or the turn cap: a view at its cap was searched as if play went on)
        raise SearchError(f"the round is over ({v.over_reason()}): there is no turn to value")  # (whoever's view)
    if v.viewer != v.to_move:
        raise SearchError(
            f"the view is player {v.viewer}'s but player {v.to_move} is to move: the values of the "
            "mover's turns need the mover's view"
        )
    return n


def check_fills(view: View, max_splits: int) -> None:
    """Refuse a view with more than ``max_splits`` ways to fill its buried pile cards: too many to
    solve each exactly. Counted (``View.count_fills``), never listed: there can be 10^15."""
    if view.count_fills(max_splits + 1) > max_splits:
        raise SearchError(f"there are more than max_splits={max_splits:,} ways to fill the "
                          f"{view.buried_count} buried pile cards: too many to solve each exactly; give samples "
                          "for an estimate")


def every_fill(view: View, max_splits: int) -> list[tuple[float, View]]:
    """Every way to fill ``view``'s buried pile cards with its probability (``View.fills``), refused
    when there are more than ``max_splits`` (``check_fills``)."""
    check_fills(view, max_splits)
    return list(view.fills())


def check_question(pos, max_stalls=None, max_turns=None, leaf="as-is", *, samples=None, deepening=False,
                   max_splits=DEFAULT_MAX_SPLITS) -> None:
    """What a solve of ``pos`` (a full position or a view) refuses about the question, checked
    before any search and before anything is said about it (the command line's warning, the
    deepening's first progress line): the bounds and the leaf (``check_bounds``; with
    ``deepening`` no bound is needed, the levels give it), the length of line they allow
    (``check_depth``, not for ``deepening``: a deeper level too long is never reached), for a view
    ``check_mover_view`` (samples, the mover's own view, a round not over) and, with buried pile
    cards and no ``samples``, no more than ``max_splits`` ways to fill them (``check_fills``), for a
    full position a round not over (``check_round``)."""
    s_, t_, _ = check_bounds(max_stalls, max_turns, leaf, need_bound=not deepening)
    if isinstance(pos, View):
        check_mover_view(pos, samples)
        if pos.buried_count and samples is None:
            check_fills(pos, check_max_splits(max_splits))
    else:
        check_round(pos)
    if not deepening:
        st = -1 if s_ is None else s_
        check_depth(pos.deck_count, st, st, -1 if t_ is None else t_)


def _split_setup(v: View, s_: int | None, t_: int | None, tables: Tables | None) -> tuple[tuple[int, int], int, Tables]:
    """The kernel's stall budgets and horizon (-1: none) for the splits' searches, and ``tables``, or
    new ones sized for them (the splits share one table); the depth is checked either way."""
    st = (-1 if s_ is None else s_, -1 if s_ is None else s_)
    tl = -1 if t_ is None else t_
    bits, solo_bits = auto_bits(check_depth(v.deck_count, *st, tl), v.deck_count, *st, tl)
    return st, tl, tables if tables is not None else shared_tables(bits, min(22, solo_bits + 4))


def solve_view(view, max_stalls=None, max_turns=None, leaf="as-is", *, samples=None, seed=0,
               max_splits=DEFAULT_MAX_SPLITS, tables=None, max_nodes=0, workers=None, seconds=None,
               hand_model=None):
    """Every legal turn's view value (E2) for the viewer, who must be the player to move.

    Enumerates every split of the unseen cards when there are at most ``max_splits`` distinct
    ones and ``samples`` is None (exact: ``Analysis.exact`` True, ``splits`` the number of
    distinct splits); otherwise samples ``samples`` (default 400) physical splits uniformly
    with ``numpy.random.default_rng(seed)`` and reports each turn's mean with its standard
    error (``exact`` False; ``samples`` at most ``MAX_SAMPLES``). Bounds as in ``solve_perfect``.
    ``max_nodes`` (0 or None: none) caps the nodes of the whole answer (``SearchBudgetExceeded``
    when reached), and ``seconds`` (None: none) its time, by the clock.

    ``workers`` (None or 1: one thread; 0 or "auto": one per core) solves the splits on that many
    threads sharing ``tables`` (``solve_split_chunks``); the values are combined in split order, so
    they are those of one thread (the node count varies from run to run; it pays only when each
    split's search is heavy, docs/endgame.md).

    ``hand_model`` (None: every split of the physical cards equally likely, the view value of the
    specification): True or the opponent-hand model's weights (``check_hand_model``) weight each split by
    how likely the model makes the opponent's hand in it (``model_probabilities``), and samples draw the
    opponent's cards from the model (``model_sampled_picks``): exact for that model when every split is
    solved, not the specification's view value, and the answer's ``kind`` and ``method`` say so.
    """
    from lcanalysis.game.position import Position
    from lcanalysis.game.view import View

    v = read_position(view)
    if isinstance(v, Position):
        v = v.view(v.to_move)
    if not isinstance(v, View):
        raise SearchError("solve_view needs a player's view")
    s_, t_, leaf_code = check_bounds(max_stalls, max_turns, leaf)
    n_workers = check_workers(workers)
    max_nodes = check_max_nodes(max_nodes)
    seed, max_splits = check_seed("seed", seed, SearchError), check_max_splits(max_splits)
    check_tables(tables, Tables)
    seconds = check_seconds(seconds)  # a float: the clock's timer thread takes no numpy number
    samples = check_mover_view(v, samples)
    theta = check_hand_model(hand_model)
    st, tl, tables = _split_setup(v, s_, t_, tables)  # (the length of line the bounds allow checked too)
    # after the checks: a bad argument is refused at once, not after a first compile of 1-2 minutes
    first_compile.ready(first_compile.SOLVER)  # (compiled once, saying so: core.first_compile)
    inputs = _SplitInputs(v)
    unseen = inputs.unseen.tolist()
    u = v.opponent_unknown
    nc = v.rules.colors
    t0 = time.perf_counter()
    deadline = None if seconds is None else t0 + seconds
    # with the play-out leaf every split is its own world (its estimate may tell dead cards apart)
    merge = leaf_code == LEAF_AS_IS
    count = inputs.count_worlds(u, max_splits + 1) if merge else count_splits(unseen, u, max_splits + 1)
    distinct = count if samples is None else max_splits + 1
    enumerate_all = distinct <= max_splits
    type_weights = None if theta is None else model_type_weights(v, theta)
    if enumerate_all:
        picks, ways = inputs.all_worlds(u, distinct) if merge else _all_splits(inputs.unseen, u, distinct)
        probs = ways / comb(sum(unseen), u) if type_weights is None else model_probabilities(picks, ways, type_weights)
    else:
        n = DEFAULT_SAMPLES if samples is None else samples
        # every pick drawn first, in order: the same samples on any number of threads
        picks = sampled_picks(unseen, u, number_types(nc), n, seed) if type_weights is None else \
            model_sampled_picks(unseen, u, type_weights, n, seed)
    n_chunks = max(1, min(n_workers, len(picks)))
    tabs = [tables] + [tables.sibling() for _ in range(n_chunks - 1)]
    with planned(len(picks), "splits" if enumerate_all else "samples") as done:
        found = solve_split_chunks(inputs, picks, st[0], st[1], tl, leaf_code, tabs, max_nodes, deadline, done=done)
    if not found.finished:
        raise SearchBudgetExceeded(found.nodes, seconds if found.clocked else None)
    codes_ref, rows, nodes = found.codes, found.rows, found.nodes
    if enumerate_all:
        means = probs @ rows
        errs = np.zeros(len(codes_ref))
        exact = leaf_code == LEAF_AS_IS
        merged = merge and len(rows) < count_splits(unseen, u, len(rows) + 1)
        method = (f"every split enumerated ({len(rows)} distinct splits, "
                  + ("weighted by physical cards" if theta is None else MODEL_WEIGHTED)
                  + ("; splits that differ only in cards dead for both players are one" if merged else "") + ")")
    else:
        means = rows.mean(axis=0)
        errs = rows.std(axis=0, ddof=1) / np.sqrt(n)
        exact = False
        how = "uniformly" if theta is None else "by the opponent-hand model"
        method = f"{n} splits sampled {how} (seed {seed}); ± is the standard error"
        if samples is not None and (few := count) < min(n, max_splits + 1):
            method += (f"; there are only {few} distinct splits: without samples every one is solved, "
                       "exactly, in fewer solves")
    if n_chunks > 1:
        method += f"; {n_chunks} worker threads"
    seconds = time.perf_counter() - t0
    reason = "" if leaf_code == LEAF_AS_IS else HEURISTIC_REASON
    moves = [MoveValue(move_text(c, nc), float(m), float(e), exact, reason) for c, m, e in zip(codes_ref, means, errs)]
    return Analysis(
        moves=moves,
        kind=_kind(leaf_code, theta is not None),
        exact=exact,
        bounds=bounds_dict(s_, t_, leaf),
        nodes=nodes,
        seconds=seconds,
        method=method,
        splits=len(rows),
    )


def _kind(leaf_code: int, weighted: bool) -> str:
    """The ``kind`` of a ``solve_view`` answer: the view value, or weighted by the opponent-hand model (not
    the specification's view value), or with the play-out leaf an estimate."""
    if leaf_code != LEAF_AS_IS:
        return "depth-limited estimate"
    return VIEW_VALUE_MODEL_KIND if weighted else "view value (averaged over splits)"


def solve_buried_view(view, max_stalls, max_turns, leaf, *, samples=None, seed=0, max_splits=DEFAULT_MAX_SPLITS,
                      tables=None, workers=None, max_nodes=0, seconds=None, hand_model=None):
    """The view value with buried pile cards (``G?``): the average, over every way to fill them
    (with its probability, ``View.fills``), of the view value of the filled view, turn by turn.
    The fills share ``max_nodes`` and ``seconds`` (each gets what the ones before left); a fill with
    more than ``max_splits`` splits has them sampled (``seed``). With ``samples``, ``samples``
    worlds are drawn instead, each filling the buried cards at random and then splitting what is
    left (``_sampled_buried_view``): an estimate with its standard error. ``hand_model`` (``solve_view``'s):
    within each fill the splits are weighted (or sampled) by the opponent-hand model read on that fill; the
    fills keep their probabilities."""
    max_splits, seed = check_max_splits(max_splits), check_seed("seed", seed, SearchError)
    check_tables(tables, Tables)
    theta = check_hand_model(hand_model)
    if samples is not None:
        return _sampled_buried_view(view, max_stalls, max_turns, leaf, samples, seed, tables, max_nodes, seconds,
                                    theta)
    t0 = time.perf_counter()  # (listing 20,000 fills takes a third of a second: on the clock too)
    fills = every_fill(view, max_splits)
    totals: dict[str, float] = {}
    variances: dict[str, float] = {}  # of the weighted sum, where a fill's splits were sampled
    nodes, spent, bounds, kind, exact = 0, 0.0, {}, "", True
    with planned(len(fills), "fills") as done:
        for p, filled in fills:
            left = None if seconds is None else seconds - (time.perf_counter() - t0)
            if (max_nodes and nodes >= max_nodes) or (left is not None and left <= 0):
                raise SearchBudgetExceeded(nodes, None if left is None or left > 0 else seconds)
            try:
                a = solve_view(filled, max_stalls, max_turns, leaf, seed=seed, max_splits=max_splits, tables=tables,
                               workers=workers, max_nodes=max_nodes - nodes if max_nodes else 0, seconds=left,
                               hand_model=theta)
            except SearchBudgetExceeded as exc:
                raise SearchBudgetExceeded(nodes + exc.nodes, None if exc.seconds is None else seconds) from None
            if done is not None:
                done(1)
            for m in a.moves:
                totals[m.move] = totals.get(m.move, 0.0) + p * m.value
                variances[m.move] = variances.get(m.move, 0.0) + (p * m.stderr) ** 2  # the fills are independent
            nodes, spent, bounds, kind = nodes + a.nodes, spent + a.seconds, a.bounds, a.kind
            exact = exact and a.exact  # a fill with too many splits is sampled: then so is the answer
    moves = [MoveValue(move, value, float(np.sqrt(variances[move])), exact) for move, value in totals.items()]
    how = "solved exactly" if exact else "solved, the splits of some sampled (± standard error)"
    return Analysis(moves, kind=f"{kind}, averaged over {len(fills)} fills of the buried pile cards", exact=exact,
                    bounds=bounds, nodes=nodes, seconds=spent,
                    method=f"every fill of the {view.buried_count} buried pile card(s) {how}", splits=len(fills))


def _sampled_buried_view(view, max_stalls, max_turns, leaf, samples, seed, tables, max_nodes, seconds, theta=None):
    """``samples`` physical worlds of a view with buried pile cards, each drawn uniformly: the buried
    cards filled at random (``View.random_fill``), then the unseen cards left split at random
    (``sampled_picks``); every turn's mean over the worlds with its standard error. The worlds of
    one fill are solved together, sharing one table."""
    s_, t_, leaf_code = check_bounds(max_stalls, max_turns, leaf)
    max_nodes = check_max_nodes(max_nodes)
    seconds = check_seconds(seconds)  # a float: the clock's timer thread takes no numpy number
    samples = check_mover_view(view, samples)
    assert samples is not None
    t0 = time.perf_counter()
    deadline = None if seconds is None else t0 + seconds
    with planned(samples, "samples") as done:  # (drawing 2,000 fills takes a second: counted from the start)
        rng = np.random.default_rng(seed)
        fills: dict[tuple, tuple[View, int]] = {}  # the distinct fills drawn, and how many worlds each
        for _ in range(samples):
            filled = view.random_fill(rng)
            key = tuple(card.type for pile in filled.discards for card in pile)
            fills[key] = (filled, fills[key][1] + 1 if key in fills else 1)
        st, tl, tables = _split_setup(view, s_, t_, tables)
        u, nt = view.opponent_unknown, number_types(view.rules.colors)
        codes: list[int] = []
        parts: list[np.ndarray] = []
        nodes = 0
        for j, (filled, n) in enumerate(fills.values()):
            inputs = _SplitInputs(filled)
            pick_seed = seed * 1_000_003 + j
            picks = sampled_picks(inputs.unseen.tolist(), u, nt, n, pick_seed) if theta is None else \
                model_sampled_picks(inputs.unseen.tolist(), u, model_type_weights(filled, theta), n, pick_seed)
            found = solve_split_chunks(inputs, picks, st[0], st[1], tl, leaf_code, [tables],
                                       max(max_nodes - nodes, 1) if max_nodes else 0, deadline, done=done)
            nodes += found.nodes
            if not found.finished:
                raise SearchBudgetExceeded(nodes, seconds if found.clocked else None)
            codes = codes or found.codes
            parts.append(found.rows[:, [found.codes.index(c) for c in codes]])  # the same turns, in one order
    rows = np.vstack(parts)
    means, errs = rows.mean(axis=0), rows.std(axis=0, ddof=1) / np.sqrt(samples)
    nc = view.rules.colors
    reason = "" if leaf_code == LEAF_AS_IS else HEURISTIC_REASON
    moves = [MoveValue(move_text(c, nc), float(m), float(e), False, reason) for c, m, e in zip(codes, means, errs)]
    split = "at random" if theta is None else "by the opponent-hand model"
    return Analysis(moves=moves, kind=f"{_kind(leaf_code, theta is not None)}, over sampled fills of the buried pile "
                                      "cards", exact=False,
                    bounds=bounds_dict(s_, t_, leaf), nodes=nodes, seconds=time.perf_counter() - t0,
                    method=f"{samples} worlds sampled {'uniformly' if theta is None else 'by the opponent-hand model'} "
                           f"(seed {seed}): the {view.buried_count} buried pile "
                           f"card(s) filled at random ({len(fills)} distinct fills), then the unseen cards left split "
                           f"{split}; ± is the standard error", splits=samples)
