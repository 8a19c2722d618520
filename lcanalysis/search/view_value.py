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
from concurrent.futures import ThreadPoolExecutor
from itertools import pairwise
from math import comb, prod

import numpy as np

from ..analysis import Analysis, MoveValue
from ..cards import number_types, types_from_counts
from ..core import kernel as K
from ..view import sub_multisets
from ._common import SearchError, bounds_dict, check_bounds, load, move_text
from .perfect import (
    LEAF_AS_IS,
    SearchBudgetExceeded,
    Tables,
    auto_bits,
    max_depth,
    search_root,
    shared_tables,
)

DEFAULT_MAX_SPLITS = 20_000
DEFAULT_SAMPLES = 400


def count_splits(unseen: list[int], size: int, cap: int) -> int:
    """How many distinct splits there are (counting stops at ``cap``)."""
    ways = [1] + [0] * size  # ways[j]: distinct picks of j cards from the types seen so far
    for n in unseen:
        new = [0] * (size + 1)
        for j in range(size + 1):
            if ways[j]:
                for k in range(min(n, size - j) + 1):
                    new[j + k] = min(cap, new[j + k] + ways[j])
        ways = new
    return ways[size]


def split_weights(unseen: list[int], opponent_unknown: int):
    """``(probability, opponent pick counts)`` for every split of the physical unseen cards."""
    total = comb(sum(unseen), opponent_unknown)
    for pick in sub_multisets(unseen, opponent_unknown):
        yield prod(comb(n, k) for n, k in zip(unseen, pick) if k) / total, pick


class _Completer:
    """Fills one kernel state with a split: the opponent's hand and the draw pile."""

    def __init__(self, view):
        unseen = [int(x) for x in view.unseen_counts()]
        u = view.opponent_unknown
        pick = next(iter(sub_multisets(unseen, u)), None)
        if pick is None:
            raise SearchError("the unseen cards cannot fill the opponent's hand")
        rest = [n - k for n, k in zip(unseen, pick)]
        base = view.complete(types_from_counts(pick), types_from_counts(rest))
        self.state = np.array(base.state, dtype=np.int32, copy=True)
        self.nc = view.rules.colors
        nt = number_types(self.nc)
        self.known = np.zeros(nt, dtype=np.int32)
        for card in view.opponent_known:
            self.known[card.type] += 1
        self.unseen = np.array(unseen, dtype=np.int32)
        self.types = np.arange(nt, dtype=np.int32)
        self.opp = view.opponent
        self.base = base

    def fill(self, pick: np.ndarray) -> np.ndarray:
        s = self.state
        nc = self.nc
        nt = number_types(nc)
        oh = K.off_hand(nc, self.opp)
        s[oh:oh + nt] = self.known + pick
        rest = np.repeat(self.types, self.unseen - pick)  # the sorted card types left for the pile
        od = K.off_deck(nc)
        pos = int(s[K.H_DECK_POS])
        s[od + pos:od + pos + len(rest)] = rest
        s[K.H_DECK_END] = pos + len(rest)
        return s


def _left(max_nodes: int, used: int) -> int:
    return 0 if not max_nodes else max(1, max_nodes - used)


def check_workers(workers) -> int:
    """How many threads ``workers`` asks for: None or 1 one (the serial loop), 0 or "auto" one per core."""
    if workers is None:
        return 1
    if workers == "auto" and isinstance(workers, str):
        workers = 0
    if isinstance(workers, bool) or not isinstance(workers, (int, np.integer)) or workers < 0:
        raise SearchError(f"workers must be a whole number >= 0 (0 or 'auto': one per core), got {workers!r}")
    return int(workers) or os.cpu_count() or 1


def solve_view(view, max_stalls=None, max_turns=None, leaf="as-is", *, samples=None, seed=0,
               max_splits=DEFAULT_MAX_SPLITS, tables=None, max_nodes=0, workers=None):
    """Every legal turn's view value (E2) for the viewer, who must be the player to move.

    Enumerates every split of the unseen cards when there are at most ``max_splits`` distinct
    ones and ``samples`` is None (exact: ``Analysis.exact`` True, ``splits`` the number of
    distinct splits); otherwise samples ``samples`` (default 400) physical splits uniformly
    with ``numpy.random.default_rng(seed)`` and reports each turn's mean with its standard
    error (``exact`` False). Bounds as in ``solve_perfect``. ``max_nodes`` (0: none) caps
    the nodes of the whole answer (``SearchBudgetExceeded`` when reached).

    ``workers`` (None or 1: one thread; 0 or "auto": one per core) splits the list of splits
    into that many contiguous chunks solved on threads, each with tables of its own (``tables``
    goes to the first chunk); the values are combined in split order, so they are those of
    one thread (node counts differ: the chunks do not share table entries, so they search more
    nodes in all; it pays only when each split's search is heavy, docs/endgame.md).
    """
    from ..position import Position
    from ..view import View

    v = load(view)
    if isinstance(v, Position):
        v = v.view(v.to_move)
    if not isinstance(v, View):
        raise SearchError("solve_view needs a player's view")
    s_, t_, leaf_code = check_bounds(max_stalls, max_turns, leaf)
    n_workers = check_workers(workers)
    if samples is not None and (isinstance(samples, bool) or not isinstance(samples, int) or samples < 2):
        raise SearchError(f"samples must be a whole number of at least 2, got {samples!r}")
    if v.viewer != v.to_move:
        raise SearchError(
            f"the view is player {v.viewer}'s but player {v.to_move} is to move: the values of the "
            "mover's turns need the mover's view"
        )
    if v.deck_count <= 0:
        raise SearchError("the round is over (the draw pile is empty): there is no turn to value")
    st = (-1 if s_ is None else s_, -1 if s_ is None else s_)
    tl = -1 if t_ is None else t_
    comp = _Completer(v)
    unseen = comp.unseen.tolist()
    u = v.opponent_unknown
    bits, solo_bits = auto_bits(max_depth(v.deck_count, *st, tl), v.deck_count, *st, tl)
    solo_bits = min(22, solo_bits + 4)  # the splits share one table
    if tables is None:
        tables = shared_tables(bits, solo_bits)
    nc = v.rules.colors
    t0 = time.perf_counter()
    enumerate_all = samples is None and count_splits(unseen, u, max_splits + 1) <= max_splits
    if enumerate_all:
        probs, picks = zip(*split_weights(unseen, u))
        picks = [np.array(pick, dtype=np.int32) for pick in picks]
    else:
        n = DEFAULT_SAMPLES if samples is None else samples
        rng = np.random.default_rng(seed)  # every pick drawn first, in order: the same samples on any number of threads
        cards = np.array(types_from_counts(unseen), dtype=np.int64)
        nt = number_types(nc)
        picks = [np.bincount(rng.permutation(cards)[:u], minlength=nt).astype(np.int32) for _ in range(n)]
    n_chunks = max(1, min(n_workers, len(picks)))
    nodes = 0
    lock = threading.Lock()

    def solve_split(pick: np.ndarray, tabs: Tables, fill: _Completer) -> tuple[np.ndarray, np.ndarray]:
        """Every root turn's perfect-information value for one split, within the node budget."""
        nonlocal nodes
        codes, vals, _ = search_root(fill.fill(pick), st, tl, leaf_code, tabs, _left(max_nodes, nodes))
        with lock:
            nodes += int(tabs.stats[0] + tabs.stats[1])
        # on threads the others spend the budget too: their sum must stay within it
        if tabs.stats[3] or (n_chunks > 1 and max_nodes and nodes > max_nodes):
            raise SearchBudgetExceeded(nodes)
        return codes, vals

    def solve_chunk(picks: list[np.ndarray], tabs: Tables, fill: _Completer) -> list[tuple[np.ndarray, np.ndarray]]:
        """One thread's share of the splits, in order, on tables and a state of its own."""
        return [solve_split(pick, tabs, fill) for pick in picks]

    if n_chunks == 1:
        results = solve_chunk(picks, tables, comp)
    else:
        bounds = [len(picks) * i // n_chunks for i in range(n_chunks + 1)]
        chunks = [picks[a:b] for a, b in pairwise(bounds)]
        tabs = [tables] + [Tables(bits, solo_bits) for _ in range(n_chunks - 1)]
        with ThreadPoolExecutor(n_chunks) as pool:
            futures = [pool.submit(solve_chunk, c, t, _Completer(v)) for c, t in zip(chunks, tabs)]
            results = [r for f in futures for r in f.result()]  # split order, whichever thread ends first
    codes_ref = results[0][0]
    rows = [vals for _, vals in results]
    if enumerate_all:
        means = np.zeros(len(codes_ref))
        for prob, vals in zip(probs, rows):
            means += prob * vals
        errs = np.zeros(len(codes_ref))
        exact = leaf_code == LEAF_AS_IS
        method = f"every split enumerated ({len(rows)} distinct splits, weighted by physical cards)"
    else:
        arr = np.array(rows)
        means = arr.mean(axis=0)
        errs = arr.std(axis=0, ddof=1) / np.sqrt(n)
        exact = False
        method = f"{n} splits sampled uniformly (seed {seed}); ± is the standard error"
    if n_chunks > 1:
        method += f"; {n_chunks} worker threads"
    n_splits = len(rows)
    seconds = time.perf_counter() - t0
    moves = [MoveValue(move_text(c, nc), float(m), float(e), exact) for c, m, e in zip(codes_ref, means, errs)]
    return Analysis(
        moves=moves,
        kind="view value (averaged over splits)" if leaf_code == LEAF_AS_IS else "depth-limited estimate",
        exact=exact,
        bounds=bounds_dict(s_, t_, leaf),
        nodes=nodes,
        seconds=seconds,
        method=method,
        splits=n_splits,
    )
