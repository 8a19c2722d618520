"""The advisor's endgame: view values deepened on the stall budget until the answer converges.

In the last cards of the round, play-outs by a heuristic mislead: the heuristic never takes a
discard-pile card just to gain turns, so every sampled world agrees on a wrong value and the
standard error says nothing. Here each turn's view value (``view_value``: the perfect-
information value averaged over the ways the unseen cards can lie) is solved with each player
allowed 0, 1, 2, ... more discard-pile draws, deeper while the budget lasts:

- a level is **exact** when every split of the unseen cards was solved, and an **estimate**
  otherwise, over worlds sampled uniformly with a seed; the same worlds serve every level and
  every turn, so a turn's loss against the best is the mean of per-world differences, with
  the standard error of that difference. After an exact level a sampled one takes out the luck
  of its worlds, as that level's best turn measures it (``Level.with_control``), with a far smaller
  standard error; from three stalls each on, a level may start where only a few sampled worlds
  fit (``_out_of_reach``);
- the answer **converged** when two consecutive levels name the same best turn and give it
  the same value (within ``VALUE_TOLERANCE``, or within two standard errors for estimates):
  more stalls are taken not to change the advice (measured, not proved: docs/endgame.md, "Converged,
  or not, in words"). With 3 cards left, only levels of two stalls each or more count, with 4
  or more three (``trusted_stalls``). Otherwise the answer says so, in words. Of turns tied for
  the best either may be named; where the earlier best is only bounded at the tie, it is valued
  exactly first (``_tie_check``), so that a tie is not taken for a change of mind;
- a level below those and below two stalls each is a **stepping stone** that only names the next
  level's reference (``stepping_stones``): it
  solves every split only within ``STONE_SHARE`` of what is left, else ``MIN_WORLDS`` worlds, so
  the budget goes to the levels that count.

Settle first, then fill in. Each level finds the best turn and its exact value only: the previous
level's best turn is searched first in each world, and every other turn against its value there
(``SETTLE_MARGIN`` = 0), which proves a turn no better cheaply (an upper bound). Most of the work
of a level is those proofs, and a margin of 0 makes them 1.0-7x cheaper than one of ``MARGIN``
points (measured at two stalls each with 3 cards left). Once the levels have converged, what is
left of the budget solves the last level again with ``MARGIN``, so that the turns close to the
best get exact values and losses (``runner_ups``); if it does not finish, they stay upper bounds
and the notes say so. With ``FILL_GROWTH`` times that pass's cost still left, a last pass with no
margin gives every turn its exact value (a small endgame lists no bounds at all).

The budget is a node count, so the same view, budget and seed give the same answer on any
machine; ``deadline`` (a ``time.perf_counter`` value) also stops it by the clock, inside the
compiled search (``common.abort_at``), so it is kept to within a node whatever the machine's load.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, replace
from itertools import islice, pairwise
from math import comb

import numpy as np

from lcanalysis.analysis import TIE, Analysis, MoveValue, ranked, stalls_each, tied_to_zero
from lcanalysis.core import first_compile
from lcanalysis.game.cards import number_types
from lcanalysis.game.view import View
from lcanalysis.options import MORE_NODES, MORE_TIME
from lcanalysis.search.common import SearchError, move_text, on_threads
from lcanalysis.search.perfect import LEAF_AS_IS, Tables, auto_bits, check_depth
from lcanalysis.search.view_value import (
    MODEL_WEIGHTED,
    VIEW_VALUE_MODEL_KIND,
    SplitValues,
    _SplitInputs,
    check_hand_model,
    check_mover_view,
    check_workers,
    count_splits,
    merged_counts,
    model_probabilities,
    model_sampled_picks,
    model_type_weights,
    node_shares,
    sampled_picks,
    solve_split_chunks,
)

ENUMERATE_MAX = 400  # splits: up to this many, a level may be solved exactly (every split)
MAX_WORLDS = 96  # sampled worlds per level at most
MIN_WORLDS = 8  # a sampled level needs at least this many worlds to count
ALIKE = 0.005  # a sampled turn's standard error below this shows as ± 0.00: its worlds all agreed
CHUNK = 4  # worlds solved between budget checks
LEVEL_GROWTH = 4.0  # a stall level is not started when less than this many times the last one's cost is left
SAMPLED_GROWTH = 8.0  # ... unless, from three stalls each on, this many times MIN_WORLDS of its worlds' cost is left
STONE_SHARE = 1 / 16  # a stepping-stone level solves every split only within this share of what is left
STONE_LEVELS = 2  # stall levels below this (and below the trusted ones) may be stepping stones
STONE_FLOOR = 1_000_000  # nodes: ... or when every split is projected within this many (under a second)
SPARE = 1.5  # every split is tried when this many times their projected nodes fit in the budget left
MAX_LEVEL = 6  # stall budgets tried: 0 .. MAX_LEVEL
VALUE_TOLERANCE = 0.5  # points: two exact levels agree when their best values are this close
MARGIN = 4.0  # points: beyond this far below the reference turn in a world, a turn gets only an upper bound
SETTLE_MARGIN = 0.0  # the same while settling the levels: only the best turn's value is exact
FILL_GROWTH = 4.0  # every turn is solved exactly when this many times the MARGIN pass's cost is left
FILL_CHUNK = 4  # worlds solved with every turn exact between keeping what they proved
FIRST_WORLD_STALLS = 3  # from this stall level on, a settled level's first world names its reference (``_first_chunk``)
# TIE (analysis.TIE): two means this close are a tie (the same values summed in another order)
#: with 4 cards left, two stalls each against three on 16 views (data/simulated/two_stalls_trust_4cards.csv,
#: docs/endgame.md "At 4 cards, how far two stalls each is off"): the views, those where two named three's best
#: turn, the mean and largest loss at three of two's best turn, the largest move of the best value (points)
TWO_STALLS_AT_4 = (16, 10, 0.51, 4.24, 6.13)
#: the section of docs/endgame.md that gives the stopping rule and its measurements, as the notes name it
#: (the file runs to thousands of lines: "docs/endgame.md" alone left a player to search it)
ADVISOR_SECTION = "The advisor's endgame search"
TWO_STALLS_SECTION = "At 4 cards, how far two stalls each is off"  # the measurement behind TWO_STALLS_AT_4


def trusted_stalls(deck_count: int) -> int:
    """The fewest stalls each at which two agreeing levels count as converged. With 2 cards left one
    stall each matched three in 40 of 40 positions (issue 15); with 3, no stalls and one stall each
    can agree on a turn that two stalls each show is worse (played-down views of
    ``tests/helpers.played_down``, 3 cards, seeds 3 and 7: by 8.0 and 4.3 points, exact view
    values), while two stalls matched three in 34 of 34. With 4 or more, one and two stalls each
    agreed where three moved the value by 3.5 and 2.5 points (seeds 5 and 15, docs/endgame.md, "At
    4 cards, the third stall level"), so only levels of three stalls each or more count."""
    return 1 if deck_count <= 2 else 2 if deck_count == 3 else 3


def stepping_stones(min_stalls: int, max_stalls: int) -> int:
    """The levels below this many stalls each are stepping stones (``STONE_SHARE`` of the budget).
    Two stalls each never is: should the next level not finish, its values are the answer, so they
    get the whole budget rather than a few sampled worlds."""
    return min(min_stalls, max_stalls, STONE_LEVELS)


@dataclass
class Level:
    """One finished stall level: each root turn's value in each world (or split)."""

    stalls: int
    codes: list[int]
    rows: np.ndarray  # worlds x turns
    bounded: np.ndarray  # worlds x turns: True where the value is only an upper bound
    weights: np.ndarray | None  # each split's probability when every split was solved; None: sampled
    nodes: int
    seconds: float
    margin: float = np.inf  # other turns in a world more than this below the reference got upper bounds
    # a sampled level's control (``with_control``): an exact level's best turn's values in the same worlds, its
    # exact mean and that level's stall budget; None: the plain mean of the worlds
    control: np.ndarray | None = None
    control_mean: float = 0.0
    control_stalls: int = -1

    def is_settled_only(self) -> bool:
        """Whether turns other than the best may be bounds that a wider margin would make exact."""
        return self.margin < MARGIN and bool(self.bounded.any())

    def tightened(self, other: Level, worlds: np.ndarray | None = None) -> Level:
        """This level with what ``other`` (the same worlds, or those of row numbers ``worlds``, solved
        again with another reference or margin) proved: a value exact in either is exact, and of two
        upper bounds the lower holds."""
        col = _columns(other.codes, self.codes)
        rows, bounded = other.rows[:, col], other.bounded[:, col]
        if worlds is None:
            worlds = np.arange(len(self.rows))
        mine, mine_bounded = self.rows[worlds], self.bounded[worlds]
        merged, both = self.rows.copy(), self.bounded.copy()
        merged[worlds] = np.where(mine_bounded, np.where(bounded, np.minimum(mine, rows), rows), mine)
        both[worlds] = mine_bounded & bounded
        return replace(self, rows=merged, bounded=both, nodes=other.nodes, seconds=other.seconds,
                       margin=max(self.margin, other.margin))

    def with_control(self, exact: Level, rows_of: np.ndarray) -> Level:
        """This sampled level estimated against ``exact`` (a level solved in every world; ``rows_of``: each
        sampled world's row there, ``_Worlds.sample_rows``), a control variate: how lucky the sampled worlds
        are is measured by the exact level's best turn, whose mean over every world is known, and taken out
        of every turn's mean: each turn's value is its mean in the sampled worlds, less that best turn's mean
        in them, plus that best turn's exact mean over every world. Its standard error is that of the per-world
        differences, which vary far less from world to world than the values do (at 3 cards, seed 24: -25.77
        ± 0.05, where the plain mean said -25.16 ± 0.43 and every world -25.77). As unbiased as the plain
        mean (the worlds are drawn by their probabilities). Every turn moves by the same amount, so the order
        of the turns, their losses and which are bounds stay as they were. Against no stalls each too, where that
        is the last exact level (at 4 cards one stall each is often sampled): its best turn's values move from
        world to world much as the stall levels' do (on 16 views at 4 cards the error of one stall each's value
        on 12 sampled worlds fell from 1.07 to 0.40 points, and the hint's final value came 0.26 points from
        two stalls each's exact value on average, where it was 0.72; docs/endgame.md, "No stalls each as the
        control")."""
        if self.exact or not exact.exact:
            return self
        best = exact.best()  # (exact in every world: each level's best turn is)
        return replace(self, control=exact.rows[rows_of[:len(self.rows)], best],
                       control_mean=float(exact.means()[best]), control_stalls=exact.stalls)

    def _changes(self) -> np.ndarray:
        """What the sampled worlds' mean estimates: the values, or their differences from the control."""
        return self.rows if self.control is None else self.rows - self.control[:, None]

    def best_is_bound(self) -> bool:
        """Whether the turn with the best mean has an upper bound in some world (it was not the reference)."""
        return self.is_bound(self.best())

    def is_bound(self, k: int) -> bool:
        """Whether turn k's value (and so its loss) is a bound: at most that value, at least that loss."""
        return bool(self.bounded[:, k].any())

    @property
    def exact(self) -> bool:
        return self.weights is not None

    def means(self) -> np.ndarray:
        if self.weights is not None:
            return self.weights @ self.rows
        return self._changes().mean(axis=0) + self.control_mean

    def best(self) -> int:
        """The turn with the best mean; of the turns tied with it (to rounding), an exact one. Upper
        bounds often equal the reference's value exactly (a search refuted at its bar returns the bar),
        and a bounded turn tied with an exact one would send the level round again for nothing."""
        means = self.means()
        tied = np.flatnonzero(means >= means.max() - TIE)
        exact = [k for k in tied if not self.bounded[:, k].any()]
        return int(exact[0] if exact else tied[0])

    def difference(self, a: int, b: int) -> tuple[float, float]:
        """Mean of turn a minus turn b, paired over the shared worlds, and its standard error."""
        d = self.rows[:, a] - self.rows[:, b]  # (the control cancels: it moves every turn alike)
        if self.weights is not None:
            return float(self.weights @ d), 0.0
        return float(d.mean()), float(d.std(ddof=1) / np.sqrt(len(d)))

    def stderr(self, k: int) -> float:
        if self.weights is not None:
            return 0.0
        return float(self._changes()[:, k].std(ddof=1) / np.sqrt(len(self.rows)))

    def alike_note(self, k: int) -> str:
        """Where every sampled world gave turn ``k`` the same value (or, against a control, the same change
        from it), its "± 0.00" says only that the sample saw no spread, not that there is none: a change that
        a few worlds make can be missed by all of them (at 4 cards, seed 0, two stalls each against none: 0.15
        points off in 80% of samplings of 12 worlds; docs/endgame.md, "No stalls each as the control"). The
        words say how large a share could go unseen, by the rule of three's exact form. "" when not so."""
        if self.exact or len(self.rows) < 2 or self.stderr(k) >= ALIKE:
            return ""
        n = len(self.rows)
        share = missed_share(n)
        what = "the best turn's value" if self.control is None else \
            f"how far the best turn's value moved from the exact value with {stalls_each(self.control_stalls)}"
        return (f"a standard error of 0 only says that all {n} sampled worlds agree on {what}: a change that up to "
                f"{100 * share:.1f}% of the worlds (by probability) make would be missed by all {n} at least 5% "
                "of the time")

    def in_words(self, splits: int, hands_known: bool = False, weighted: bool = False) -> str:
        """The level's values in words; ``hands_known``: both hands are known (a full position, or a
        view that knows the opponent's whole hand and no buried card), the deck order alone left to chance;
        ``weighted``: the worlds are weighted (or sampled) by the opponent-hand model, not all alike."""
        each = "no more discard-pile draws" if self.stalls == 0 else \
            f"at most {self.stalls} more discard-pile draw(s) each"
        if self.exact and hands_known:  # no hidden hand: not a view value but the perfect-information one
            return f"exact perfect-information value (both hands known), {each}"
        if self.exact and splits == 1:  # a view whose unseen cards lie one way only
            return f"exact view value, {each}, in the one world the unseen cards allow"
        if self.exact:
            return (f"exact view value, {each}, every one of the {splits} distinct worlds of the unseen cards solved"
                    + (f", {MODEL_WEIGHTED}" if weighted else ""))
        sampled = f"{len(self.rows)} worlds sampled by the opponent-hand model" if weighted else \
            f"{len(self.rows)} sampled worlds"
        if self.control is not None:
            return (f"view value, {each}, estimated on {sampled}, their luck measured against "
                    f"the exact value with {stalls_each(self.control_stalls)} (± standard error)")
        return f"view value, {each}, estimated on {sampled} (± standard error)"


def missed_share(n: int, confidence: float = 0.95) -> float:
    """The share ``p`` of the worlds (by probability) that a change may be made in and still be missed by
    all ``n`` worlds drawn by probability, with probability ``1 - confidence`` or more: ``(1 - p)^n = 1 -
    confidence`` (about 3/n at 95%, the "rule of three")."""
    return 1.0 - (1.0 - confidence) ** (1.0 / n)


def _level_value(level: Level, k: int) -> str:
    """A level's value of turn ``k`` in a note: exact over every split, else with its standard error."""
    return f"{level.means()[k]:+.2f}" + ("" if level.exact else f" ± {level.stderr(k):.2f}")


def _columns(listed: list[int], codes: list[int]) -> list[int]:
    """Where each turn of ``codes`` is in ``listed``. A search lists its reference turn first, and the
    reference moves on between the batches of a level, so batches (and runs of worlds) list the same
    turns in different orders: their columns are lined up by turn code, never by position."""
    return [listed.index(code) for code in codes]


class _Worlds:
    """The worlds every level is solved in: all splits (with their probabilities) and a fixed
    sample of physical splits, drawn once so that levels compare on the same worlds.

    With buried pile cards (``G?``) a world also fills them (docs/spec: "a split also fills each
    buried slot with an unseen card of that pile's colour"): every fill with every split of what it
    leaves when there are few enough in all, and a sampled world fills them at random first. Each
    fill has inputs of its own (``inputs[i]``); ``*_src`` name each world's."""

    def __init__(self, view: View, seed: int, deadline: float | None = None, theta: np.ndarray | None = None):
        self.deadline = deadline
        # theta: the opponent-hand model's weights (None: every split of the physical cards alike)
        type_weights: dict[tuple[int, ...], np.ndarray] = {}  # a fill's card types' odds under the model

        def odds(filled: View) -> np.ndarray:
            assert theta is not None
            key = _fill_key(filled)
            if key not in type_weights:
                type_weights[key] = model_type_weights(filled, theta)
            return type_weights[key]

        u = view.opponent_unknown
        nt = number_types(view.rules.colors)
        self.all_picks: np.ndarray | None = None
        self.all_src: np.ndarray | None = None
        self.weights: np.ndarray | None = None
        self.inputs: list[_SplitInputs] = []
        fills = list(islice(view.fills(), ENUMERATE_MAX + 1))  # (a view without buried cards: itself, once)
        first = _SplitInputs(fills[0][1])  # (the view itself when nothing is buried)
        dead = first.dead  # the fills change no expedition
        sizes = [] if len(fills) > ENUMERATE_MAX else \
            [count_splits(merged_counts(f.unseen_counts(), dead).tolist(), u, ENUMERATE_MAX + 1) for _, f in fills]
        self.splits = sum(sizes) if sizes else ENUMERATE_MAX + 1  # few fills: perhaps few worlds in all
        seen: dict[tuple[int, ...], int] = {}  # a fill (its piles' card types) -> its inputs in ``self.inputs``
        if self.splits <= ENUMERATE_MAX:
            parts, weights, src = [], [], []
            for i, ((p, filled), n) in enumerate(zip(fills, sizes)):
                inputs = first if i == 0 else _SplitInputs(filled)
                picks, ways = inputs.all_worlds(u, n)
                parts.append(picks)
                weights.append(p * (ways / comb(int(inputs.unseen.sum()), u) if theta is None
                                    else model_probabilities(picks, ways, odds(filled))))
                src += [len(self.inputs)] * n
                seen[_fill_key(filled)] = len(self.inputs)
                self.inputs.append(inputs)
            self.all_picks, self.weights = np.vstack(parts), np.concatenate(weights)
            self.all_src = np.array(src, dtype=np.int64)
        if not view.buried_count:  # one set of inputs: the sample draws physical splits of its unseen cards
            self.inputs = self.inputs or [first]
            unseen = self.inputs[0].unseen.tolist()
            self.sample = sampled_picks(unseen, u, nt, MAX_WORLDS, seed) if theta is None else \
                model_sampled_picks(unseen, u, odds(view), MAX_WORLDS, seed)
            self.sample_src = np.zeros(MAX_WORLDS, dtype=np.int64)
        else:  # each sampled world fills the buried cards at random, then draws a physical split of the rest
            rng = np.random.default_rng(seed)
            rows, src = [], []
            for i in range(MAX_WORLDS):
                filled = view.random_fill(rng)
                key = _fill_key(filled)
                if key not in seen:  # (a fill also enumerated shares its inputs: the same game)
                    seen[key] = len(self.inputs)
                    self.inputs.append(_SplitInputs(filled))
                inputs = self.inputs[seen[key]]
                unseen = inputs.unseen.tolist()
                rows.append((sampled_picks(unseen, u, nt, 1, seed * 1_000_003 + i) if theta is None else
                             model_sampled_picks(unseen, u, odds(filled), 1, seed * 1_000_003 + i))[0])
                src.append(seen[key])
            self.sample = np.array(rows, dtype=np.int32).reshape(MAX_WORLDS, nt)
            self.sample_src = np.array(src, dtype=np.int64)
        # each sampled world's row among every world, when both exist: an exact level and a sampled one then
        # compare world by world (``_agree``)
        self.sample_rows = None if self.all_picks is None else self._rows_of_sample()

    def _rows_of_sample(self) -> np.ndarray | None:
        """Each sampled world's row among every world (``_rows_among`` within its fill's block of rows), or
        None should one not be found."""
        assert self.all_picks is not None and self.all_src is not None
        rows = np.full(len(self.sample), -1, dtype=np.int64)
        for s in np.unique(self.sample_src):
            block = np.flatnonzero(self.all_src == s)  # the fill's rows (every row, without buried cards)
            mine = self.sample_src == s
            found = _rows_among(self.inputs[int(s)], self.all_picks[block], self.sample[mine]) if len(block) else None
            if found is None:
                return None
            rows[mine] = block[found]
        return rows

    def all_worlds(self) -> tuple[np.ndarray, np.ndarray]:
        """Every world (split, and fill when cards are buried) and the inputs of each."""
        assert self.all_picks is not None and self.all_src is not None
        return self.all_picks, self.all_src

    def sampled(self, start: int, stop: int) -> tuple[np.ndarray, np.ndarray]:
        """Sampled worlds ``start:stop`` and the inputs of each."""
        return self.sample[start:stop], self.sample_src[start:stop]

    def picks_of(self, level: Level) -> tuple[np.ndarray, np.ndarray]:
        """The worlds ``level`` was solved in: every split when it is exact, else its sampled ones."""
        if level.exact and self.all_picks is not None:
            return self.all_worlds()
        return self.sampled(0, len(level.rows))


def _fill_key(filled: View) -> tuple[int, ...]:
    """A fill of the buried cards, as the card types of every discard pile in order (the rest of the view is
    the same in every fill)."""
    return tuple(card.type for pile in filled.discards for card in pile)


def _rows_among(inputs: _SplitInputs, every: np.ndarray, picks: np.ndarray) -> np.ndarray | None:
    """Each physical split of ``picks`` as its row of ``every`` (``_SplitInputs.all_worlds``: splits that
    differ only in which cards dead for both players the opponent holds are one row, those cards dealt from
    each colour's lowest type up, as there), or None should one not be found."""
    canonical = picks.astype(np.int64)
    for group in inputs.dead:
        held = canonical[:, group].sum(axis=1)
        for t in group:
            canonical[:, t] = np.minimum(held, int(inputs.unseen[t]))
            held -= canonical[:, t]
    row_of = {row.tobytes(): i for i, row in enumerate(every.astype(np.int64))}
    rows = [row_of.get(row.tobytes(), -1) for row in canonical]
    return None if min(rows, default=0) < 0 else np.array(rows, dtype=np.int64)


def _solve(worlds: _Worlds, chosen: tuple[np.ndarray, np.ndarray], stalls: int, tables: list[Tables],
           max_nodes: int, ref: int = -1, margin: float = np.inf, raise_bar: bool = False):
    """Root values of every turn in each world of ``chosen`` (picks and the inputs of each):
    (codes, rows, bounded, nodes, finished); ``bounded`` marks the values that are only upper
    bounds (``ref``/``margin``; ``raise_bar``: each turn against the best so far in its world). The
    worlds of one inputs (all of them, without buried cards) are solved on one thread per table
    (``view_value.solve_split_chunks``); with buried cards the runs of worlds that share a fill go to
    the tables' threads in turn. A search still running at the
    deadline is stopped there, unfinished; so is every run once the node budget is spent."""
    picks, src = chosen
    cuts = [0] + [i for i in range(1, len(src)) if src[i] != src[i - 1]] + [len(src)]
    runs = list(pairwise(cuts))  # runs of worlds that share their inputs (one fill of the buried cards)
    if len(runs) == 1:
        found = solve_split_chunks(worlds.inputs[int(src[0])], picks, stalls, stalls, -1, LEAF_AS_IS, tables,
                                   max_nodes, worlds.deadline, ref, margin, raise_bar=raise_bar)
        if not found.finished:
            return None, None, None, found.nodes, False
        return found.codes, found.rows, found.bounded, found.nodes, True
    shares = node_shares(max_nodes, min(len(tables), len(runs)))
    threads = len(shares)
    found_in: list[SplitValues | None] = [None] * len(runs)
    spent = [0] * threads  # (each thread writes only its own)

    def solve_runs(i: int) -> int:
        """Runs i, i + threads, ... on table i, each with what this thread's share has left (the
        threads run side by side: each spending what all have left could overspend the budget)."""
        for r in range(i, len(runs), threads):
            left = shares[i] - spent[i] if max_nodes else 0
            if max_nodes and left <= 0:  # (0 would mean no limit to the compiled search)
                return 0
            a, b = runs[r]
            found = solve_split_chunks(worlds.inputs[int(src[a])], picks[a:b], stalls, stalls, -1, LEAF_AS_IS,
                                       [tables[i]], left, worlds.deadline, ref, margin, raise_bar=raise_bar)
            spent[i] += found.nodes
            found_in[r] = found
            if not found.finished:
                return 0
        return 0

    def clear_all() -> None:
        for t in tables:
            t.clear()

    on_threads(threads, solve_runs, clear_all)
    nodes = sum(spent)
    if any(f is None or not f.finished for f in found_in) or (max_nodes and nodes > max_nodes):
        clear_all()  # an unfinished search may have stored bounds it did not finish proving
        return None, None, None, nodes, False
    done = [f for f in found_in if f is not None]
    codes = done[0].codes
    # the mover's turns are the same in every fill (buried cards are never on top)
    cols = [_columns(f.codes, codes) for f in done]
    rows = np.vstack([f.rows[:, col] for f, col in zip(done, cols)])
    bounded = np.vstack([f.bounded[:, col] for f, col in zip(done, cols)])
    return codes, rows, bounded, nodes, True


def converged_endgame(view: View, max_nodes: int, seed: int = 0, *, deadline: float | None = None,
                      progress: Callable[[str], None] | None = None, workers: int | str = 1,
                      runner_ups: bool = True, min_stalls: int | None = None,
                      max_stalls: int = MAX_LEVEL, more: Callable[[], str] | None = None,
                      hand_model: bool | np.ndarray | None = None) -> Analysis:
    """Every turn's view value for the player to move, deepened on the stall budget within
    ``max_nodes`` (see the module docstring). The answer's ``bounds`` name the deepest level
    reached and ``converged`` whether two levels agreed, ``exact`` says whether it solved every
    split, and the notes say all of it in words. ``workers`` threads solve the worlds side by side,
    sharing one table (``view_value.solve_split_chunks``): on several cores more worlds within a
    deadline, for about the nodes of one thread; the values are the same, bar the upper bounds of
    turns far below the best, which depend on what the table holds when, so on threads they and the
    node count vary from run to run (one thread: the same on every run).
    ``runner_ups=False`` skips the filling in of the turns close to the best (an agent needs the
    best turn only). ``min_stalls`` (default ``trusted_stalls``: 1 with 2 cards left or fewer, 2 with
    3, else 3): two agreeing levels with fewer stalls each neither stop the deepening nor count as
    converged (at 3 cards, no stalls and one stall each can agree on a turn that two stalls each show
    is worse; at 4, one and two stalls each on a value that three move by 2.5-3.5 points).
    ``max_stalls`` (at least ``min_stalls`` when that is given): the deepest level tried; a study of
    one level (the view value with two stalls each, say) stops there, converged or not (below the
    trusted level, not converged). ``more``: what a note of an answer not converged asks more of, asked once
    the search ends (the hint's ``advise`` names its time budget, or the caller's ``max_nodes`` where that
    stopped it); by default more time when there is a ``deadline``, else a larger ``max_nodes``.
    ``hand_model`` (None: every split of the physical cards alike, the view value of the specification): True
    or the opponent-hand model's weights weight each world by how likely the model makes the opponent's hand
    in it, and the sampled worlds are drawn from the model (``view_value.model_probabilities``,
    ``model_sampled_picks``); the answer's ``kind`` and notes say so."""
    if not isinstance(view, View):
        raise SearchError("converged_endgame needs a player's view")
    check_mover_view(view)  # the mover's own view, of a round not over
    workers = check_workers(workers)
    theta = check_hand_model(hand_model)
    asked = min_stalls is not None  # the default may exceed a cap asked for: the answer then says it did not converge
    if min_stalls is None:
        min_stalls = trusted_stalls(view.deck_count)
    min_stalls = _stall_level(min_stalls, "min_stalls", 0, "0")
    max_stalls = _stall_level(max_stalls, "max_stalls", min_stalls if asked else 0,
                              f"min_stalls ({min_stalls})" if asked else "0")
    first_compile.ready(first_compile.SOLVER)  # (compiled once, saying so: core.first_compile)
    t0 = time.perf_counter()
    worlds = _Worlds(view, seed, deadline, theta)
    used = 0
    levels: list[Level] = []
    notes: list[str] = []
    tables: list[Tables] = []
    tables_for = -1  # the stall level the tables hold
    for stalls in range(max_stalls + 1):
        if stalls >= 2 and _out_of_reach(levels[-1], max_nodes - used, deadline):
            notes.append(f"{stalls} stall(s) each: not started: what is left of the budget is less than "
                         f"{LEVEL_GROWTH:g} times what {stalls - 1} took" + (
                             "" if stalls < 3 else f", or {SAMPLED_GROWTH:g} times what {MIN_WORLDS} of its worlds "
                                                   "took"))
            break
        tables = []  # (the previous level's go first: up to 256 MB each)
        tables, tables_for = _level_tables(view, stalls, workers), stalls
        if progress is not None:
            progress(f"endgame: {stalls} stall(s) each: solving")
        ref = levels[-1].codes[levels[-1].best()] if levels else -1
        # a level below the trusted ones only names the next level's reference: it keeps the budget for
        # that level (at 4 cards one stall each over every split could take it all, and two never start)
        stone = _stone_cap(max_nodes - used, deadline) if stalls < stepping_stones(min_stalls, max_stalls) else None
        baseline = next((lv for lv in reversed(levels) if lv.exact), None)  # a sampled level's control
        level = _solve_level(worlds, stalls, tables, max_nodes - used, ref, SETTLE_MARGIN if ref >= 0 else np.inf,
                             stone, baseline)
        used += level[1]
        if level[0] is None:
            if level[1]:
                notes.append(f"{stalls} stall(s) each: not finished within the budget ({level[1]:,} nodes)")
            break
        lv = level[0]
        levels.append(lv)
        if progress is not None:
            b = lv.best()
            # (an exact level says so, as its note does; a sampled one carries its "± s")
            solved = ("exact, the one world" if len(lv.rows) == 1 else f"exact, {len(lv.rows)} worlds, every one") \
                if lv.exact else f"{len(lv.rows)} sampled worlds"
            progress(f"endgame: {stalls} stall(s) each: best {move_text(lv.codes[b], view.colors)} "
                     f"{_level_value(lv, b)} ({solved}, {lv.nodes:,} nodes)")
        if len(levels) >= 2 and stalls >= min_stalls:
            checked, spent = _tie_check(worlds, levels[-2], lv, tables, max_nodes - used, progress, view.colors)
            used += spent
            if checked is not None:
                levels[-1] = checked
            if _agree(levels[-2], levels[-1], view.colors, worlds.sample_rows):
                break
        if not _uses_stalls(view):
            break
        if deadline is not None and time.perf_counter() > deadline:
            break
    if not levels:
        ran_out = ("the clock ran out" if deadline is not None and time.perf_counter() >= deadline
                   else f"its {max_nodes:,} nodes ran out")
        raise SearchError(f"the endgame search did not finish even its first level within the budget: {ran_out}")
    # the cap stopped the deepening: every level up to it solved (one more allowed), and the last two either
    # disagree or agree below the trusted level; more time would not have gone deeper, a higher cap would
    capped = len(levels) == max_stalls + 1 <= MAX_LEVEL and _uses_stalls(view) and not (
        len(levels) >= 2 and max_stalls >= min_stalls and _agree(levels[-2], levels[-1], view.colors,
                                                                 worlds.sample_rows))
    if runner_ups and levels[-1].is_settled_only():
        if tables_for != levels[-1].stalls:  # the loop stopped in a level that did not finish
            tables = []
            tables = _level_tables(view, levels[-1].stalls, workers)
        used += _fill_runner_ups(worlds, levels, tables, max_nodes - used, notes, progress)
    if more is None:  # a library caller's budget: the clock when it gave one, else its node count
        more = (lambda: MORE_TIME) if deadline is not None else (lambda: MORE_NODES)
    answer = _answer(view, levels, worlds.splits, notes, min_stalls, capped, worlds.sample_rows, more_of=more(),
                     weighted=theta is not None)
    answer.nodes = used
    answer.seconds = time.perf_counter() - t0
    return answer


def _stone_cap(nodes_left: int, deadline: float | None) -> tuple[int, float | None]:
    """A stepping stone's share of what is left: ``STONE_SHARE`` of the nodes and of the time."""
    until = None if deadline is None else time.perf_counter() + STONE_SHARE * (deadline - time.perf_counter())
    return int(STONE_SHARE * nodes_left), until


def _out_of_reach(last: Level, nodes_left: int, deadline: float | None) -> bool:
    """Whether the next stall level cannot finish in what is left: from one stall each on, a level
    has cost 5-100 times the one before (at 3 and 4 cards left), so one that would surely run out
    is not started, and the rest of the budget goes to the turns close to the best. From three stalls
    each on, a level needs only ``MIN_WORLDS`` sampled worlds, measured against the last exact level
    (``Level.with_control``): it is started where ``SAMPLED_GROWTH`` times that many of the last level's
    worlds' cost is left (at 4 cards, 12 M nodes: 4 of 16 views converged instead of 2, both added
    claims right, one start in vain; docs/endgame.md, "At 4 cards: a sampled third level, with the
    control")."""
    if _fits((last.nodes, last.seconds), LEVEL_GROWTH, nodes_left, deadline):
        return False
    if last.stalls < 2:
        return True
    share = MIN_WORLDS / len(last.rows)  # (a full position's one world: never more than LEVEL_GROWTH allows)
    return not _fits((share * last.nodes, share * last.seconds), SAMPLED_GROWTH, nodes_left, deadline)


def _level_tables(view: View, stalls: int, workers: int) -> list[Tables]:
    """Transposition tables for one stall level, one per thread, siblings: the threads share the entries."""
    depth = check_depth(view.deck_count, stalls, stalls, -1)
    bits, solo_bits = auto_bits(depth, view.deck_count, stalls, stalls)
    first = Tables(bits, min(22, solo_bits + 4))
    return [first] + [first.sibling() for _ in range(workers - 1)]


def _fill_runner_ups(worlds: _Worlds, levels: list[Level], tables: list[Tables], budget: int, notes: list[str],
                     progress: Callable[[str], None] | None) -> int:
    """Solve the last level again in the same worlds and tables, first with ``MARGIN``, so that every
    turn within the margin of the best gets its exact value, then, when ``FILL_GROWTH`` times that
    pass's cost is left, with no margin at all, so that every turn does (a small endgame then shows
    no bounds at all). A pass that finishes within ``budget`` and the deadline replaces the level;
    the last one goes ``FILL_CHUNK`` worlds at a time and keeps every chunk it finished (its cost
    is 1-20 times the first pass's, or more: one stopped by the budget or the clock is not lost).
    Returns the nodes spent."""
    used = 0
    pass_cost: tuple[int, float] | None = None  # (nodes, seconds) of the MARGIN pass
    last = levels[-1]
    if last.margin < MARGIN and last.bounded.any():
        if budget <= 0 or (worlds.deadline is not None and time.perf_counter() > worlds.deadline):
            notes.append("the other turns' values are upper bounds: no budget was left to solve those close "
                         "to the best exactly")
            return used
        if progress is not None:
            progress(f"endgame: {last.stalls} stall(s) each: the turns close to the best")
        t0 = time.perf_counter()
        c, r, b, nodes, done = _solve(worlds, worlds.picks_of(last), last.stalls, tables, budget,
                                      last.codes[last.best()], MARGIN)
        used += nodes
        pass_cost = (nodes, time.perf_counter() - t0)
        if not done:
            notes.append("the other turns' values are upper bounds: solving those within "
                         f"{MARGIN:g} points of the best exactly did not finish within the budget ({nodes:,} nodes)")
            return used
        filled = last.tightened(Level(last.stalls, c, r, b, last.weights, last.nodes + nodes,
                                      last.seconds + pass_cost[1], margin=MARGIN))
        if not filled.best_is_bound():  # (always: the best keeps its exact values, the others only tighten)
            levels[-1] = filled
    last = levels[-1]
    if not (last.margin < np.inf and last.bounded.any()):
        return used
    if pass_cost is None or not _fits(pass_cost, FILL_GROWTH, budget - used, worlds.deadline):
        notes.append(f"turns more than {MARGIN:g} points below the best in a world keep upper bounds: solving "
                     f"every turn exactly was not started, as less than {FILL_GROWTH:g} times what solving "
                     "those close to the best took was left")
        return used
    if progress is not None:
        progress(f"endgame: {last.stalls} stall(s) each: every other turn exactly")
    return used + _fill_every_turn(worlds, levels, tables, budget - used, notes, progress)


def _fill_every_turn(worlds: _Worlds, levels: list[Level], tables: list[Tables], budget: int,
                     notes: list[str], progress: Callable[[str], None] | None) -> int:
    """The last level solved again with a full window in each world where a turn still has a bound,
    ``FILL_CHUNK`` worlds at a time, each chunk's exact values kept as it finishes (``Level.tightened``).
    Returns the nodes spent."""
    last = levels[-1]
    t0 = time.perf_counter()
    picks, src = worlds.picks_of(last)
    pending = np.flatnonzero(last.bounded.any(axis=1))  # (elsewhere every turn is exact already)
    used = 0
    said = t0  # progress at most once a second: a line a chunk would flood the terminal
    for start in range(0, len(pending), FILL_CHUNK):
        chunk = pending[start:start + FILL_CHUNK]
        c, r, b, nodes, done = _solve(worlds, (picks[chunk], src[chunk]), last.stalls, tables, budget - used,
                                      last.codes[last.best()], np.inf)
        used += nodes
        if not done:
            notes.append(f"turns more than {MARGIN:g} points below the best keep upper bounds in "
                         f"{len(pending) - start} of the {len(last.rows)} worlds: solving every turn exactly "
                         f"did not finish within the budget there ({used:,} nodes)")
            return used
        # a chunk's worlds have every turn exact; the level's margin widens only once all have
        whole = start + FILL_CHUNK >= len(pending)
        last = last.tightened(Level(last.stalls, c, r, b, None, last.nodes + nodes,
                                    last.seconds + time.perf_counter() - t0, margin=np.inf if whole else last.margin),
                              chunk)
        t0 = time.perf_counter()
        levels[-1] = last
        if progress is not None and not whole and t0 - said >= 1.0:
            said = t0
            progress(f"endgame: {last.stalls} stall(s) each: every other turn exactly: "
                     f"{start + FILL_CHUNK} of {len(pending)} worlds")
    return used


def _stall_level(value, name: str, lowest: int, lowest_text: str) -> int:
    """A stall budget each (a level) from ``lowest`` to ``MAX_LEVEL``, refused by ``name`` otherwise."""
    if isinstance(value, bool) or not isinstance(value, int) or not lowest <= value <= MAX_LEVEL:
        raise SearchError(f"{name} must be a whole number of stalls from {lowest_text} to {MAX_LEVEL}, got {value!r}")
    return value


def _fits(cost: tuple[float, float], growth: float, nodes_left: int, deadline: float | None) -> bool:
    """Whether ``growth`` times a search's (nodes, seconds) is left of the budget and the clock."""
    if nodes_left < growth * cost[0]:
        return False
    return deadline is None or deadline - time.perf_counter() >= growth * cost[1]


def _solve_level(worlds: _Worlds, stalls: int, tables: list[Tables], budget: int, ref: int, margin: float,
                 stone: tuple[int, float | None] | None = None, baseline: Level | None = None):
    """(Level or None, nodes): every split when affordable, else as many sampled worlds as fit, estimated
    against ``baseline`` (the last exact level, ``Level.with_control``) where there is one;
    then, while the best turn found carries bounds (it was not the reference), solved again in
    the same worlds with it as the reference, so the best turn's value is always exact.
    ``stone`` (nodes, a ``time.perf_counter`` value or None): a stepping stone's share of the budget
    (``_stone_cap``): every split only when projected to fit in it, else ``MIN_WORLDS`` sampled worlds."""
    t0 = time.perf_counter()
    cap_nodes, cap_until = stone if stone is not None else (budget, worlds.deadline)
    used = 0
    rows: list[np.ndarray] = []
    marks: list[np.ndarray] = []
    codes: list[int] | None = None
    level = None
    # with as few splits as a sampled level's least worlds (a full position has one), every split
    # costs no more than the sample would, and is exact: no sampling
    few = worlds.all_picks is not None and len(worlds.all_picks) <= MIN_WORLDS
    for start in range(0, 0 if few else MAX_WORLDS, CHUNK):
        late = worlds.deadline is not None and time.perf_counter() > worlds.deadline
        if budget - used <= 0 or (late and len(rows) >= 1):
            break
        if start == 0 and ref >= 0 and margin == SETTLE_MARGIN and stalls >= FIRST_WORLD_STALLS:
            c, r, b, nodes, done, ref = _first_chunk(worlds, stalls, tables, budget - used, ref, margin)
        else:
            c, r, b, nodes, done = _solve(worlds, worlds.sampled(start, start + CHUNK), stalls, tables, budget - used,
                                          ref, margin)
        used += nodes
        if not done:
            break
        if codes is None:
            codes = c
        col = _columns(c, codes)
        rows.append(r[:, col])
        marks.append(b[:, col])
        solved = start + CHUNK
        so_far = Level(stalls, codes, np.vstack(rows), np.vstack(marks), None, used, 0.0)
        if ref >= 0:
            # the next worlds against the best turn so far: the last level's best is often not this
            # level's (with 3 cards left one stall's best may stall too little), and every turn that
            # beats the reference in a world must be solved there in full
            ref = codes[so_far.best()]
        # every split, exactly, when the nodes and seconds per world so far say it fits (``_all_fit``);
        # a stone also when it is small in nodes: the first worlds on fresh tables in a fresh process
        # take several times their share of the clock (pages, first calls), which would sample a level
        # that takes hundredths of a second over every split
        if worlds.all_picks is not None and (
                (stone is not None and SPARE * used * len(worlds.all_picks) / solved <= min(budget, STONE_FLOOR))
                or _all_fit(used, time.perf_counter() - t0, solved, len(worlds.all_picks),
                            min(budget, cap_nodes) - used, cap_until)):
            c, r, b, nodes, done = _solve(worlds, worlds.all_worlds(), stalls, tables, budget - used, ref, margin)
            used += nodes
            if done:
                level = Level(stalls, c, r, b, worlds.weights, used, 0.0, margin=margin)
                break
        # a best turn that is only bounded so far must be solved again in these worlds: keep room for it
        if solved >= MIN_WORLDS and budget - used < used and so_far.best_is_bound():
            break
        if stone is not None and solved >= MIN_WORLDS:
            break
    if few:
        if budget <= 0:  # (0 would mean no limit to the compiled search)
            return None, used
        c, r, b, nodes, done = _solve(worlds, worlds.all_worlds(), stalls, tables, budget, ref, margin)
        used += nodes
        if not done:
            return None, used
        level = Level(stalls, c, r, b, worlds.weights, used, 0.0, margin=margin)
    if level is None:
        if codes is None or sum(len(r) for r in rows) < MIN_WORLDS:
            return None, used
        level = Level(stalls, codes, np.vstack(rows), np.vstack(marks), None, used, 0.0, margin=margin)
        if baseline is not None and worlds.sample_rows is not None:
            level = level.with_control(baseline, worlds.sample_rows)
    for attempt in range(3):  # the best turn named must be exact: solve again with it as the reference
        best = level.best()
        if not level.is_bound(best):
            break
        if budget - used <= 0:  # (0 would mean no limit to the compiled search)
            return None, used
        wide = margin if attempt < 2 else np.inf
        # only the worlds where it is a bound: elsewhere every other turn is already exact or bounded
        # below it, and a world's values do not depend on the others
        again = np.flatnonzero(level.bounded[:, best])
        picks, src = worlds.picks_of(level)
        c, r, b, nodes, done = _solve(worlds, (picks[again], src[again]), stalls, tables, budget - used,
                                      level.codes[best], wide)
        used += nodes
        if not done:
            return None, used
        # keep what each pass proved: the turns exact before stay exact (no swapping of two close
        # turns back and forth), and of two upper bounds the lower holds
        level = level.tightened(Level(stalls, c, r, b, None, used, 0.0, margin=wide), again)
    level.nodes, level.seconds = used, time.perf_counter() - t0
    return level, used


def _tie_check(worlds: _Worlds, prev: Level, level: Level, tables: list[Tables], budget: int,
               progress: Callable[[str], None] | None, colors: int) -> tuple[Level | None, int]:
    """``level`` with the last level's best turn made exact in the worlds where it was only bounded, when
    the two levels do not agree but would were those bounds its values (a tie); else (None, 0), and (None,
    nodes spent) when it did not finish. Of turns tied for the best a level names any one: at 3 cards, seed
    4 (``tests/helpers.played_down``), three, four and five stalls each all give +36.82 but name -Yw/B,
    -Y3/B and -W3/B, each leaving the one before at most +36.82. A bound cannot say "the same", so the
    levels never agreed and the search went on to six stalls each (160 M nodes). That one turn, solved as
    the reference in the level's own tables, took 9 k nodes there; where it turns out below the best, about
    as much as the level in those worlds (every turn above it solved in full), the next level several times
    the whole level."""
    was = prev.codes[prev.best()]
    if was not in level.codes or _agree(prev, level, colors, worlds.sample_rows):
        return None, 0
    k = level.codes.index(was)
    if not level.is_bound(k) or budget <= 0:  # (a budget of 0 would mean no limit to the compiled search)
        return None, 0
    hoped = level.bounded.copy()
    hoped[:, k] = False  # were its bounds its values, would the levels agree? (else the check is no use)
    if not _agree(prev, replace(level, bounded=hoped), colors, worlds.sample_rows):
        return None, 0
    if progress is not None:
        progress(f"endgame: {level.stalls} stall(s) each: is {move_text(was, colors)} tied with the best?")
    t0 = time.perf_counter()
    again = np.flatnonzero(level.bounded[:, k])
    picks, src = worlds.picks_of(level)
    c, r, b, nodes, done = _solve(worlds, (picks[again], src[again]), level.stalls, tables, budget, was,
                                  SETTLE_MARGIN)
    if not done:
        return None, nodes
    checked = level.tightened(Level(level.stalls, c, r, b, None, level.nodes + nodes,
                                    level.seconds + time.perf_counter() - t0, margin=SETTLE_MARGIN), again)
    return checked, nodes


def _first_chunk(worlds: _Worlds, stalls: int, tables: list[Tables], budget: int, ref: int, margin: float):
    """A settled level's first ``CHUNK`` sampled worlds, as ``_solve`` gives them (codes, rows, bounded, nodes,
    finished) and the reference for the rest: the first world alone with the bar raised to the best turn so
    far (``raise_bar``), whose best turn is then the reference of the others. The last level's best is
    often not this one's (at 4 cards, seed 3, two stalls each tie +Y8/D with +W8/G, and at three eight
    turns that stall beat it by 5 points), and every turn that beats the reference in a world must be solved
    there in full: the first world names a better one for a fraction of that. Where the reference is that
    world's best the world is solved as before, to the node."""
    c, r, b, nodes, done = _solve(worlds, worlds.sampled(0, 1), stalls, tables, budget, ref, margin, raise_bar=True)
    if not done:
        return c, r, b, nodes, False, ref
    first = Level(stalls, c, r, b, None, nodes, 0.0)
    ref = c[first.best()]
    if budget and budget - nodes <= 0:  # (0 would mean no limit to the compiled search)
        return c, r, b, nodes, False, ref
    c2, r2, b2, more, done = _solve(worlds, worlds.sampled(1, CHUNK), stalls, tables, budget - nodes if budget else 0,
                                    ref, margin)
    if not done:
        return c2, r2, b2, nodes + more, False, ref
    col = _columns(c2, c)
    return c, np.vstack([r, r2[:, col]]), np.vstack([b, b2[:, col]]), nodes + more, True, ref


def _all_fit(used: int, seconds: float, solved: int, splits: int, nodes_left: int, until: float | None) -> bool:
    """Whether every split, at the nodes and seconds per world so far, fits: ``SPARE`` times over in
    the nodes left (a world's cost varies several-fold, and an attempt that does not finish is lost),
    and once before ``until`` (on the clock the node budget is no limit: before this check a level
    that could not finish there tried every split anyway and was lost, its sampled worlds with it)."""
    per = splits / solved
    return used > 0 and _fits((SPARE * used * per, seconds * per), 1.0, nodes_left, until)


def _agree(a: Level, b: Level, colors: int, sample_rows: np.ndarray | None = None) -> bool:
    """Two levels name the same best turn with the same value (within the tolerance, or within
    two standard errors of the difference when sampled on the same worlds). Of turns tied for the
    best (exact, within ``TIE``) either may be named: the first level's best counts as the second's
    when it ties with it there (a full position at 5 cards: a dozen discards all worth +22).
    ``sample_rows`` (``_Worlds.sample_rows``): each sampled world's row among every split, so that an
    exact level and a sampled one compare world by world too. Without it their values could only be
    compared through the sampled mean's own standard error, which let a sampled level of a dozen worlds
    agree with a value it differed from by 3.5 points (4 cards, seed 5, docs/endgame.md "At 4 cards: a
    sampled third level"), where their paired difference is -2.8 to -4.2 ± 0.2-0.4."""
    ma, mb = a.means(), b.means()
    ba, bb = a.best(), b.best()
    if move_text(a.codes[ba], colors) != move_text(b.codes[bb], colors):
        k = b.codes.index(a.codes[ba]) if a.codes[ba] in b.codes else -1
        if k < 0 or b.is_bound(k) or float(mb[bb]) - float(mb[k]) > TIE:
            return False
        bb = k
    gap = abs(float(ma[ba]) - float(mb[bb]))
    if a.exact and b.exact:
        return gap <= VALUE_TOLERANCE
    n = min(len(a.rows), len(b.rows))
    if not a.exact and not b.exact and n >= 2:
        d = a.rows[:n, ba] - b.rows[:n, bb]
        return gap <= max(VALUE_TOLERANCE, 2 * float(d.std(ddof=1) / np.sqrt(n)))
    sampled = b if a.exact else a
    if sample_rows is not None and len(sampled.rows) >= 2:  # one exact, one sampled: the exact one's values in
        worlds = sample_rows[:len(sampled.rows)]          # the sampled worlds, paired with them
        d = (a.rows[worlds, ba] if a.exact else a.rows[:, ba]) - (b.rows[worlds, bb] if b.exact else b.rows[:, bb])
        return abs(float(d.mean())) <= max(VALUE_TOLERANCE, 2 * float(d.std(ddof=1) / np.sqrt(len(d))))
    return gap <= max(VALUE_TOLERANCE, 2 * max(a.stderr(ba), b.stderr(bb)))


def _uses_stalls(view: View) -> bool:
    """Whether a discard-pile draw is possible at all (else every stall level is the same game).
    With every pile empty one still is, from the second turn on: the opponent may take the card
    the mover discards. Only with one card left (the mover's turn is the last unless it stalls) and
    the no-redraw rule (it may not take back its own discard) can nobody ever stall."""
    return any(view.discards) or view.deck_count >= 2 or not view.rules.no_redraw


def _answer(view: View, levels: list[Level], splits: int, notes: list[str], min_stalls: int,
            capped: bool = False, sample_rows: np.ndarray | None = None, more_of: str = MORE_TIME,
            weighted: bool = False) -> Analysis:
    """The last level's turns as the answer, its notes saying in words whether it converged and, when not,
    what may change it: ``more_of`` the budget (``MORE_TIME`` or ``MORE_NODES``), or where the stall cap asked
    for (``capped``) stopped the deepening, a higher cap."""
    lv = levels[-1]
    nc = view.colors
    means = lv.means()
    moves = []
    for k, code in enumerate(lv.codes):
        bound = lv.is_bound(k)
        value = float(means[k])
        if bound:  # a bound tied with the best (summed in another order, it may come out an ulp above)
            value = min(value, float(means[lv.best()]))
        m = MoveValue(move_text(code, nc), value, lv.stderr(k), lv.exact and not bound,
                      "at most: proved below the best in some worlds, not solved exactly there" if bound else "")
        if bound:
            m.extra["bound"] = "upper"  # value at most, loss at least this
        moves.append(m)
    # the best named is the first as the answer ranks its turns (of turns tied to rounding, exact first,
    # then in the canonical order: analysis.ranked), and every loss is against it; a tie's loss is 0
    column = {move_text(code, nc): k for k, code in enumerate(lv.codes)}
    moves = ranked(moves)
    best = column[moves[0].move]
    for m in moves:
        loss, loss_se = lv.difference(best, column[m.move])
        m.loss, m.loss_stderr = tied_to_zero(max(loss, 0.0) if m.upper_bound else loss), loss_se
    agree = len(levels) >= 2 and _agree(levels[-2], levels[-1], nc, sample_rows)
    converged = agree and lv.stalls >= min_stalls
    agreed = tie = ""
    if agree:  # the earlier level's best: the later's too, or tied with it there (_agree)
        was = levels[-2].codes[levels[-2].best()]
        agreed = move_text(was, nc)
        if was != lv.codes[best]:
            tie = (f"{move_text(lv.codes[best], nc)} ties with it at {lv.stalls} stall(s) each and is listed "
                   f"first: tied turns go in the canonical order")
    # "the same best turn (X)" or "... (X, value; tie)": the tie goes inside what it qualifies
    named = f"{agreed}; {tie}" if tie else agreed
    # what may change an answer not converged: more time, or, when the cap stopped the deepening, only a higher cap
    more = (f"deepened no further than {lv.stalls} stall(s) each, as asked (max_stalls): a higher cap, not more "
            "time, may change the advice") if capped else f"{more_of} may change the advice"
    if lv.stalls == 2 and view.deck_count == 4 and not capped:  # where most hints at 4 cards stop: how far off
        views, named_same, mean_loss, worst, moved = TWO_STALLS_AT_4
        more += (f" (measured on {views} views with 4 cards left, docs/endgame.md, \"{TWO_STALLS_SECTION}\": two "
                 f"stalls each named the best turn of three in {named_same} of the {views}; following it lost "
                 f"{mean_loss:.2f} points on average, at most {worst:.1f}, and the best value moved by up to "
                 f"{moved:.1f})")
    known = view.opponent_unknown == 0 and not view.buried_count  # nothing hidden but the deck's order
    weighted = weighted and not known  # (the opponent's whole hand known: one split, nothing to weight)
    say = [f"{view.deck_count} card(s) left in the draw pile: endgame search, {lv.in_words(splits, known, weighted)}"]
    if view.buried_count:
        say[0] += (f" (a world also fills the {view.buried_count} buried pile card(s): "
                   + ("every fill, with its probability)" if lv.exact else "at random)"))
    if converged:
        prev = levels[-2]
        before, after = float(prev.means()[prev.best()]), float(means[best])
        if not (prev.exact and lv.exact):  # sampled: the same within the sampling error
            same = (f"the same best turn ({named}) and value within two standard errors of their difference on "
                    "the same worlds")
        elif abs(after - before) <= TIE:
            same = f"the same best turn and value ({agreed}, {after:+.2f}{'; ' + tie if tie else ''})"
        else:  # exact but not equal: say by how much, not "the same" (+22.00 and +22.20 once read so)
            same = (f"the same best turn ({named}) and a value within {VALUE_TOLERANCE:g} points ({before:+.2f} "
                    f"with {prev.stalls} stall(s) each, {after:+.2f} with {lv.stalls})")
        say.append(f"converged: {levels[-2].stalls} and {lv.stalls} stall(s) each give {same}; more "
                   "stalls are unlikely to change the advice (a stopping rule measured, not a proof: "
                   f"docs/endgame.md, \"{ADVISOR_SECTION}\")")
    elif not _uses_stalls(view):
        say.append("no discard pile holds a card and this turn takes the last card of the draw pile: "
                   "nobody can stall, so stall budgets do not matter here")
        converged = True
    elif agree:
        say.append(f"not converged {'below the trusted level' if capped else 'within the budget'}: "
                   f"{levels[-2].stalls} and {lv.stalls} stall(s) each give the "
                   f"same best turn ({named}), but with {view.deck_count} cards left that "
                   f"does not settle it (only agreeing levels of {min_stalls} stall(s) each or more count); {more}")
    elif len(levels) >= 2:
        prev = levels[-2]
        was = prev.codes[prev.best()]
        now = ""  # what the earlier best is worth one level deeper: two equal-looking figures say nothing
        if was in lv.codes and was != lv.codes[best]:
            k = lv.codes.index(was)
            now = f", where {move_text(was, nc)} is worth " + (f"at most {means[k]:+.2f}" if lv.is_bound(k)
                                                                else _level_value(lv, k))
        same_turn = ""  # the same turn named twice: say that its value is what did not agree (_agree's rule)
        if was == lv.codes[best]:
            same_turn = (f": the same turn, but its value moved by more than {VALUE_TOLERANCE:g} points"
                         + ("" if prev.exact and lv.exact else " and more than two standard errors of the difference"))
        say.append(f"not converged {'within the cap' if capped else 'within the budget'}: with {prev.stalls} "
                   f"stall(s) each the best turn is {move_text(was, nc)} ({_level_value(prev, prev.best())}), with "
                   f"{lv.stalls} it is {move_text(lv.codes[best], nc)} ({_level_value(lv, best)}{now}){same_turn}; "
                   f"{more}")
    elif capped:  # (max_stalls 0: one level asked for)
        say.append("only one stall budget was asked for, no stalls (max_stalls 0): whether more stalls change the "
                   "advice was not checked")
    else:
        say.append("only one stall budget fitted in the budget: whether more stalls change the advice "
                   f"was not checked; give {more_of}")
    alike = lv.alike_note(best)
    if alike:
        say.append(alike)
    for earlier in levels[:-1]:
        b = earlier.best()
        notes.append(f"{earlier.stalls} stall(s) each: best {move_text(earlier.codes[b], nc)} "
                     f"{_level_value(earlier, b)} ({'exact' if earlier.exact else f'{len(earlier.rows)} worlds'}, "
                     f"{earlier.nodes:,} nodes, {earlier.seconds:.2f} s)")
    answer = Analysis(
        moves=moves,
        kind=(VIEW_VALUE_MODEL_KIND if lv.exact else "view value (worlds sampled by the opponent-hand model)")
        if weighted else "view value (averaged over splits)" if lv.exact else "view value (sampled worlds)",
        exact=lv.exact,
        bounds={"max_stalls": lv.stalls},
        method=f"endgame search deepened on the stall budget (0..{lv.stalls}); {lv.in_words(splits, known, weighted)}",
        notes=say + notes,
        splits=len(lv.rows),
        luck_measured_at=None if lv.control is None else lv.control_stalls,
    )
    answer.bounds["converged"] = converged
    return answer
