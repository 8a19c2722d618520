"""Match equity: the chance to win a 3-round match from a lead, the rounds left and who starts.

Points are not the goal of a match: winning it is. ``MatchEquity`` holds the match equity
table (docs/spec/rules.md "A match"), built by dynamic programming from the distribution of one
round's score difference between equal agents (``studies/match_table.py`` simulates it and
writes ``lcanalysis/data/match_equity.json``)::

    >>> from lcanalysis.match_equity import MatchEquity
    >>> me = MatchEquity.load()
    >>> round(me.win_probability(0, 3, True), 2)        # a match about to begin, I start it
    0.51
    >>> me.win_probability(1, 0, False)                  # the match is over: a lead wins it
    1.0

Definitions used throughout:

- *lead*: my running total minus the opponent's;
- *rounds left*: rounds still to be played (3 before a 3-round match, 0 once it is over);
- *i start next*: whether I start the next round to be played;
- *equity*: P(win the match) + half P(the totals end level). A tied match is a draw in the
  rules (tournaments play extra rounds); counting it as half a win is what a player who needs a
  win as much as he fears a loss should maximise. ``outcome`` gives win, draw and loss apart.

The modelling assumption: the rounds of a match are independent, and one round's score
difference (starter minus other) has the same distribution whatever the score, given only who
starts it. That is exactly true for agents that ignore the score (the heuristic agent the table
is simulated with); the study checks it against directly simulated 3-round matches. After each
round the rules pick the next starter: the higher running total starts; on level totals the
convention ``tied_start`` decides ("alternate": the player who did not start the round just
played; "same": that player again).

``match_values`` turns play-out outcomes (``Rollouts.samples``: per-world final round score
differences, mover minus opponent) into per-world match equities for the mover, and
``match_analysis`` ranks a ``Rollouts``' candidate turns by match-winning chance and says in a
sentence when that ranking and the points ranking disagree.

This module sits beside ``rollouts``: it imports only ``lcanalysis.game`` and its data file.
"""

from __future__ import annotations

import json
import math
import os
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

import numpy as np

from lcanalysis.game.cards import brief
from lcanalysis.game.position import MAX_ROUND_SCORE
from lcanalysis.game.rules import MAX_ROUNDS, TIED_START_CHOICES, Rules

if TYPE_CHECKING:
    from lcanalysis.game.view import View

#: the shipped table (``lcanalysis studies match-table`` writes it)
TABLE_PATH = Path(__file__).with_name("data") / "match_equity.json"

#: the leads at which the published table lists the equity (the loader rebuilds every lead)
TABLE_LEADS = tuple(range(-300, 301, 5))


#: leads are held as 64-bit integers; beyond this size (far past any table's reach) a lead is
#: taken as this size, which decides the match the same way
_LEAD_BOUND = 10**15


#: how close to decided (a chance of winning, or of not losing, within this of 0 or 1, and of a
#: draw within this of 0) a lead's match is when the table treats it as decided
DECIDED = 1e-15


class MatchEquityError(ValueError):
    """A match state the table cannot answer (no match score, a round past the last, ...)."""


@dataclass
class MatchEquity:
    """The match equity table built from one round's score-difference distribution.

    ``diffs`` and ``probs``: the distribution of one round's final score difference, *starter
    minus other* (integers and their probabilities). ``tied_start``: the rules' convention for
    level totals. ``meta``: what the data file says about its making (simulated rounds,
    standard errors, the command). The table for any number of rounds left is computed on
    demand and kept: a few milliseconds a round left, over the leads whose match is not yet
    decided to within ``DECIDED`` (a 1000-round match: about 7 s, once).
    """

    diffs: np.ndarray
    probs: np.ndarray
    tied_start: str = "alternate"
    meta: dict[str, Any] = field(default_factory=dict)
    _levels: list[tuple[int, np.ndarray, np.ndarray]] = field(default_factory=list, init=False, repr=False)

    def __post_init__(self) -> None:
        d = _round_differences(self.diffs)
        p = np.asarray(self.probs, dtype=np.float64)
        if d.ndim != 1 or d.shape != p.shape or len(d) == 0:
            raise MatchEquityError("diffs and probs must be two non-empty lists of the same length")
        if (p < 0).any() or not math.isclose(float(p.sum()), 1.0, rel_tol=0, abs_tol=1e-9):
            raise MatchEquityError("probs must be non-negative and add up to 1")
        if self.tied_start not in TIED_START_CHOICES:
            raise MatchEquityError(f"tied_start must be one of {TIED_START_CHOICES}, got {self.tied_start!r}")
        keep = p > 0
        d, p = d[keep], p[keep]
        order = np.argsort(d)
        self.diffs, self.probs = d[order], p[order]
        self._max = int(np.abs(self.diffs).max())
        self._levels = []

    # --- construction -------------------------------------------------------------

    @classmethod
    def from_counts(cls, counts: Mapping[int, int | float] | Sequence[int] | np.ndarray,
                    tied_start: str = "alternate", meta: dict[str, Any] | None = None) -> MatchEquity:
        """From a sample of round differences (starter minus other, a sequence of integers) or a
        mapping difference -> count/weight."""
        if isinstance(counts, Mapping):
            d = _round_differences(list(counts))
            w = np.array([float(v) for v in counts.values()], dtype=np.float64)
        else:
            d, c = np.unique(_round_differences(counts), return_counts=True)
            w = c.astype(np.float64)
        if w.sum() <= 0:
            raise MatchEquityError("no round differences given")
        return cls(d, w / w.sum(), tied_start, dict(meta or {}))

    @classmethod
    def load(cls, path: str | Path | None = None, rules: Rules | None = None) -> MatchEquity:
        """The shipped table (or the file ``path``), for ``rules.tied_start`` (default: the
        file's, "alternate"). The equities are rebuilt from the round-difference distribution
        stored in the file and checked against the table printed in it."""
        if rules is not None and not isinstance(rules, Rules):
            raise MatchEquityError(f"rules must be a Rules (or None: the file's tied_start), got {brief(rules)}")
        name = str(path or TABLE_PATH)
        return _load(name, None if rules is None else rules.tied_start, _file_stamp(name))

    # --- the table ------------------------------------------------------------------

    def _level(self, n: int) -> tuple[int, np.ndarray, np.ndarray]:
        """(half-width G, win[s, L + G], draw[s, L + G]) with ``n`` rounds left, ``s`` = 1 when
        I start the next round, for leads -G..G; beyond, the match is decided: to within
        ``DECIDED`` (the leads it is that close to decided are cut off each level, so the table
        of a long match stays as wide as its rounds can move the lead, not as wide as they
        could at most; the equities are then exact to ``n * DECIDED``)."""
        while len(self._levels) <= n:
            k = len(self._levels)
            if k == 0:
                self._levels.append((0, np.zeros((2, 1)), np.ones((2, 1))))  # lead 0: a draw
                continue
            g_prev, win_prev, draw_prev = self._levels[k - 1]
            m = self._max
            g = g_prev + m  # farther out no round brings the lead back inside the last level's leads
            # once the round is over, at leads -(g + m)..g + m: the higher total starts the next round
            after = np.arange(-(g + m), g + m + 1)
            inside = slice(g + m - g_prev, g + m + g_prev + 1)
            w_after = np.tile((after > 0).astype(np.float64), (2, 1))  # [s]: I started the round just played
            d_after = np.zeros((2, len(after)))
            for s in (0, 1):
                tie_next = 1 - s if self.tied_start == "alternate" else s
                i_next = np.where(after[inside] > 0, 1, np.where(after[inside] < 0, 0, tie_next))
                w_after[s, inside] = win_prev[i_next, np.arange(2 * g_prev + 1)]
                d_after[s, inside] = draw_prev[i_next, np.arange(2 * g_prev + 1)]
            kernel = np.zeros(2 * m + 1)  # kernel[x + m] = P(round difference x), starter minus other
            kernel[self.diffs + m] = self.probs
            win = np.empty((2, 2 * g + 1))
            draw = np.empty((2, 2 * g + 1))
            for s in (0, 1):  # my round difference: +x when I start, -x when the opponent does
                kern = kernel if s == 1 else kernel[::-1]
                win[s] = np.correlate(w_after[s], kern, "valid")
                draw[s] = np.correlate(d_after[s], kern, "valid")
            leads = np.arange(-g, g + 1)
            decided = np.where(leads > 0, win >= 1 - DECIDED, win <= DECIDED) & (draw <= DECIDED)
            open_leads = np.abs(leads[~decided.all(axis=0)])
            g_new = int(open_leads.max()) if len(open_leads) else 0
            cut = slice(g - g_new, g + g_new + 1)
            self._levels.append((g_new, win[:, cut].copy(), draw[:, cut].copy()))
        return self._levels[n]

    def _lookup(self, lead: np.ndarray, n: int, i_start: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """(win, draw) arrays at integer leads with ``n`` rounds left; ``i_start`` broadcasts."""
        g, win, draw = self._level(n)
        lead = np.asarray(lead, dtype=np.int64)
        s = np.broadcast_to(np.asarray(i_start, dtype=np.int64), lead.shape)
        inside = np.abs(lead) <= g
        idx = np.clip(lead + g, 0, 2 * g)
        w = np.where(inside, win[s, idx], (lead > 0).astype(np.float64))
        d = np.where(inside, draw[s, idx], 0.0)
        return w, d

    def _after(self, lead_after: np.ndarray, n: int, i_started: bool | np.ndarray | None
               ) -> tuple[np.ndarray, np.ndarray]:
        """(win, draw) once a round is over: running lead ``lead_after``, ``n`` rounds left, and
        I started the round just played (``i_started``; None: unknown, level totals then count
        each possible next starter half). The next starter follows the rules."""
        lead_after = np.asarray(lead_after, dtype=np.int64)
        if n == 0:
            return (lead_after > 0).astype(np.float64), (lead_after == 0).astype(np.float64)
        if i_started is None:
            w1, d1 = self._after(lead_after, n, True)
            w0, d0 = self._after(lead_after, n, False)
            return (w1 + w0) / 2, (d1 + d0) / 2
        started = np.asarray(i_started, dtype=bool)
        tie_next = ~started if self.tied_start == "alternate" else started
        i_next = np.where(lead_after > 0, True, np.where(lead_after < 0, False, tie_next))
        return self._lookup(lead_after, n, i_next)

    def outcome(self, lead: int, rounds_left: int, i_start_next: bool) -> tuple[float, float, float]:
        """(P(win), P(draw), P(loss)) of the match from a running ``lead`` (mine minus the
        opponent's), with ``rounds_left`` rounds to play, the next one started by me or not."""
        n = _rounds_left(rounds_left)
        leads, starts = _leads(lead), _starts(i_start_next, "i_start_next")
        if leads.ndim or starts.ndim:  # numpy's "only 0-dimensional arrays can be converted" said no more
            raise MatchEquityError(f"outcome answers for one lead and one starter (win_probability and after_round "
                                   f"take arrays), got lead {brief(lead)} and i_start_next {brief(i_start_next)}")
        w_arr, d_arr = self._lookup(leads, n, starts)
        w, d = float(w_arr), float(d_arr)
        return w, d, max(0.0, 1.0 - w - d)

    def win_probability(self, lead: int | np.ndarray, rounds_left: int, i_start_next: bool | np.ndarray
                        ) -> Any:
        """The match equity, P(win) + P(draw) / 2 (see the module docstring), from a running
        ``lead`` (mine minus the opponent's; a number or an array of whole numbers), with
        ``rounds_left`` rounds still to play, and ``i_start_next``: whether I start the next one.
        With 0 rounds left it is 1, 1/2 or 0 exactly."""
        n = _rounds_left(rounds_left)
        leads, starts = _together(_leads(lead), _starts(i_start_next, "i_start_next"), "i_start_next")
        w, d = self._lookup(leads, n, starts)
        e = w + d / 2
        return float(e) if np.ndim(e) == 0 else e

    def after_round(self, lead_after: int | np.ndarray, rounds_left: int, i_started: bool | None) -> Any:
        """The equity once the round in progress is over, from the running lead then: the rules
        choose the next starter (the higher total; level totals by ``tied_start`` from who
        started the round just played, ``i_started``; None when unknown: both halves)."""
        n = _rounds_left(rounds_left)
        leads = _leads(lead_after)
        started = None
        if i_started is not None:
            leads, started = _together(leads, _starts(i_started, "i_started"), "i_started")
        w, d = self._after(leads, n, started)
        e = w + d / 2
        return float(e) if np.ndim(e) == 0 else e

    def table(self, rounds_left: int, i_start_next: bool, leads: Sequence[int] | np.ndarray = TABLE_LEADS
              ) -> np.ndarray:
        """The equities at ``leads`` (default: the published grid, -300..300 in steps of 5)."""
        return np.asarray(self.win_probability(np.asarray(leads), rounds_left, _starts(i_start_next, "i_start_next")))

    # --- per-world values of the round in progress -----------------------------------

    def match_values(self, samples: Any, view: View) -> Any:
        """Per-world match equities for the player to move in ``view`` (see the function
        ``match_values``); ``samples``: one array of final round score differences, mover minus
        opponent, or a list of them (``Rollouts.samples``)."""
        state = match_state(view)
        if isinstance(samples, (list, tuple)):
            return [self.after_round(state.lead + np.asarray(x), state.rounds_left_after, state.i_started)
                    for x in samples]
        x = np.asarray(samples)
        return self.after_round(state.lead + x, state.rounds_left_after, state.i_started)


def _leads(lead: Any) -> np.ndarray:
    """A lead, or an array of them, as whole numbers; a MatchEquityError for anything else (None
    or nan became the most negative integer and an equity of about 0, 1.5 was rounded to 2, the
    text "5" was read as the number 5)."""
    arr = _whole_numbers(lead, "a lead")
    # a lead past the 64-bit integers (10**19) wrapped round to a negative one and lost the match;
    # any lead this size is far beyond every table's reach, so it decides the match alike
    return np.clip(arr, -_LEAD_BOUND, _LEAD_BOUND).astype(np.int64)


def _round_differences(diffs: Any) -> np.ndarray:
    """Round score differences (starter minus other) as whole numbers, each at most two rounds'
    best score in size; a MatchEquityError for anything else (1.5 was cut to 1, "a" and nan were
    numpy's errors)."""
    arr = _whole_numbers(diffs, "a round difference")
    bound = 2 * MAX_ROUND_SCORE
    if np.any(np.abs(arr) > bound):
        raise MatchEquityError(f"a round difference is at most {bound} points either way, got {brief(diffs)}")
    return arr.astype(np.int64)


def _whole_numbers(x: Any, what: str) -> np.ndarray:
    """``x`` (a number or an array of them) as float64 whole numbers; a MatchEquityError naming
    ``what`` for text, True/False, None, nan, infinities and fractions."""
    try:
        raw = np.asarray(x)
        arr = np.asarray(x, dtype=np.float64)
    except (TypeError, ValueError):
        raw, arr = np.array(None), np.array(np.nan)
    text = raw.dtype.kind in "SU" or (raw.dtype.kind == "O" and any(isinstance(v, (str, bytes, bool, np.bool_))
                                                                      for v in raw.ravel()))
    if text or isinstance(x, bool) or raw.dtype == bool or not np.all(np.isfinite(arr)) \
            or not np.all(arr == np.rint(arr)):
        raise MatchEquityError(f"{what} is a whole number of points, got {brief(x)}")
    return arr


def _together(leads: np.ndarray, starts: np.ndarray, name: str) -> tuple[np.ndarray, np.ndarray]:
    """Leads and starters of the same shape (one of them may be a single value); a
    MatchEquityError naming both shapes when they do not go together (numpy's broadcast error)."""
    try:
        together = np.broadcast_arrays(leads, starts)
    except ValueError:
        raise MatchEquityError(f"the leads and {name} must have the same length (or one of them be a single "
                               f"value), got {len(leads) if leads.ndim == 1 else leads.shape} leads and "
                               f"{len(starts) if starts.ndim == 1 else starts.shape} values of {name}") from None
    return together[0], together[1]


def _starts(flag: Any, name: str) -> np.ndarray:
    """Whether I start (a bool, 0 or 1, or an array of them); a MatchEquityError for anything else
    ("no" was read as True)."""
    arr = np.asarray(flag)
    if arr.dtype == bool:
        return arr
    if arr.dtype.kind in "iu" and np.all((arr == 0) | (arr == 1)):
        return arr.astype(bool)
    raise MatchEquityError(f"{name} must be True or False (or 1 or 0, or an array of them), got {brief(flag)}")


def _rounds_left(n: Any) -> int:
    """Rounds still to play: 0 to ``MAX_ROUNDS`` (the most a match has under the rules; a million
    would have run for hours building the table)."""
    if isinstance(n, bool) or not isinstance(n, (int, np.integer)) or not 0 <= n <= MAX_ROUNDS:
        raise MatchEquityError(f"rounds left must be a whole number from 0 to {MAX_ROUNDS} (the most rounds "
                               f"a match has), got {n!r}")
    return int(n)


def _file_stamp(path: str) -> tuple[int, int, int] | None:
    """What tells one version of the file ``path`` from another: its modification time (in
    nanoseconds), size and inode; None when it cannot be read (``_load`` then says why). The cache
    is keyed on it, so a table edited while a long-running process (``lcanalysis server``) keeps
    loading it is read again, not served from memory."""
    try:
        st = os.stat(path)
    except OSError:
        return None
    return st.st_mtime_ns, st.st_size, st.st_ino


@lru_cache(maxsize=8)
def _load(path: str, tied_start: str | None, stamp: tuple[int, int, int] | None = None) -> MatchEquity:
    """The table in the file ``path`` (``stamp``: ``_file_stamp(path)``, only a key of the cache)."""
    try:
        with open(path, encoding="utf-8") as fh:
            data = json.load(fh)
    except OSError as exc:
        raise MatchEquityError(f"match equity table {path}: cannot be read ({exc.strerror or exc})") from None
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise MatchEquityError(f"match equity table {path}: not a JSON file ({exc})") from None
    try:
        dist = data["round_difference"]
        counts = np.asarray(dist["counts"], dtype=np.float64)
        diffs = np.arange(int(dist["from"]), int(dist["from"]) + len(counts))
    except (TypeError, KeyError, ValueError) as exc:
        raise MatchEquityError(f"match equity table {path}: no round-difference distribution "
                               f"('round_difference' with 'from' and 'counts'; {exc!r}); make one with "
                               "'lcanalysis studies match-table'") from None
    if counts.ndim != 1 or not len(counts) or not np.isfinite(counts).all() or (counts < 0).any() or counts.sum() <= 0:
        raise MatchEquityError(f"match equity table {path}: the round-difference counts must be a non-empty "
                               "list of numbers >= 0, not all 0")
    meta = {k: v for k, v in data.items() if k not in ("round_difference", "table")}
    me = MatchEquity(diffs, counts / counts.sum(), tied_start or data.get("tied_start", "alternate"), meta)
    if tied_start is None or tied_start == data.get("tied_start", "alternate"):
        table = data.get("table", {})
        try:
            leads = np.asarray(table.get("leads", []))
            printed = [(col, int(col.split(":")[0]), col.split(":")[1] == "me", np.asarray(values, dtype=np.float64))
                       for col, values in zip(table.get("columns", []), np.asarray(table.get("rows", [])).T)]
        except (AttributeError, TypeError, ValueError, IndexError) as exc:
            raise MatchEquityError(f"match equity table {path}: the printed table is not leads, 'N:me'/'N:other' "
                                   f"columns and rows of numbers ({exc!r}); regenerate it with "
                                   "'lcanalysis studies match-table'") from None
        for col, n, mine, values in printed:
            got = me.table(n, mine, leads)
            if np.abs(got - values).max() > 1.5e-4:  # the file prints 4 decimals
                raise MatchEquityError(f"match equity table {path}: the printed table does not follow from the "
                                       f"stored distribution (column {col}); regenerate it with "
                                       "'lcanalysis studies match-table'")
    return me


# --- the match state of a view --------------------------------------------------------------


@dataclass(frozen=True)
class MatchState:
    """The match seen by the player to move: ``lead`` (own total minus the opponent's before this
    round), ``round`` (1-based), ``rounds`` in the match, ``rounds_left_after`` (rounds still to
    come once this one ends) and ``i_started`` (whether the mover started this round; None when
    the view cannot tell: a hand-entered position without its history)."""

    lead: int
    round: int
    rounds: int
    rounds_left_after: int
    i_started: bool | None

    def describe(self) -> str:
        """"behind by 45 in the last round", "ahead by 12 with 2 rounds to come", ..."""
        if self.lead > 0:
            where = f"ahead by {self.lead}"
        elif self.lead < 0:
            where = f"behind by {-self.lead}"
        else:
            where = "level"
        if self.rounds_left_after == 0:
            return f"{where} in the last round"
        more = self.rounds_left_after
        return f"{where} in round {self.round} of {self.rounds} ({more} round{'s' if more > 1 else ''} to come)"


def round_starter(view: View) -> int | None:
    """Who started the round of ``view`` (0 or 1), or None when the view cannot tell. The
    history tells when it goes back to the deal (its draws from the draw pile account for every
    card drawn from it); a view at the deal is started by its player to move."""
    rules = view.rules
    drawn = rules.draw_pile_after_deal - view.deck_count
    history = list(view.history)
    if not history:
        return view.to_move if drawn == 0 and view.phase == "place" else None
    from_deck = sum(1 for m in history if m.source == "D")
    if from_deck != drawn:
        return None
    return view.to_move if len(history) % 2 == 0 else 1 - view.to_move


def match_state(view: View) -> MatchState:
    """The match state of the player to move in ``view`` (from ``view.match``: round and totals).
    Raises ``MatchEquityError`` when the view carries no match score or a round past the last."""
    from lcanalysis.game.position import Position
    from lcanalysis.game.view import View

    if not isinstance(view, (View, Position)):
        raise MatchEquityError(f"the match state is read from a View or a Position, got {type(view).__name__}")
    m = view.match
    if not m:
        raise MatchEquityError("the position carries no match score (match=ROUND:TOTAL0,TOTAL1)")
    rnd = int(m.get("round", 1))
    totals = m.get("totals", [0, 0])
    rounds = view.rules.rounds
    if not 1 <= rnd <= rounds:
        raise MatchEquityError(f"round {rnd} of a {rounds}-round match (rules.rounds): no such round")
    me = view.to_move
    lead = int(totals[me]) - int(totals[1 - me])
    starter = round_starter(view)
    return MatchState(lead, rnd, rounds, rounds - rnd, None if starter is None else starter == me)


def match_values(samples: Any, view: View, equity: MatchEquity | None = None) -> Any:
    """Per-world round outcomes turned into per-world match equities for the player to move.

    ``samples``: final round score differences, mover minus opponent, one per sampled world (an
    array), or a list of such arrays (``Rollouts.samples``, one per candidate turn). Each world's
    outcome ``d`` gives the running lead ``lead + d`` at the end of this round (``lead`` = own
    total minus the opponent's, from ``view.match``); the rules give the next starter (the higher
    total; level totals by ``rules.tied_start`` and who started this round); the table gives the
    chance to win from there with the rounds that remain. In the last round the values are 1, 1/2
    and 0 (win, draw, loss). A turn's match-winning chance is the mean over the same worlds, and
    its difference from another turn's is paired like the points (common random numbers).
    """
    eq = equity or MatchEquity.load(rules=view.rules)
    return eq.match_values(samples, view)


# --- match-aware ranking ------------------------------------------------------------------------


@dataclass
class MatchMoveValue:
    """One candidate turn by points and by match-winning chance. The losses are the best turn's
    value minus this one's (best by that measure), with the standard error of that difference
    paired over the worlds both were played in."""

    move: str
    worlds: int
    points: float
    points_stderr: float
    points_loss: float
    points_loss_stderr: float
    match: float
    match_stderr: float
    match_loss: float
    match_loss_stderr: float
    points_rank: int = 0
    match_rank: int = 0

    def to_dict(self) -> dict[str, Any]:
        return {k: (None if isinstance(v, float) and not math.isfinite(v) else v) for k, v in self.__dict__.items()}

    def match_extra(self) -> dict[str, float]:
        """The keys an answer's turn carries for its match (``MoveValue.extra``, the JSON's extras): its
        chance to win the match, its loss against the best turn by that chance, each with its error."""
        return {"match_win": self.match, "match_win_stderr": self.match_stderr, "match_loss": self.match_loss,
                "match_loss_stderr": self.match_loss_stderr}


@dataclass
class MatchAnalysis:
    """Candidate turns ranked by match-winning chance (``moves``, best first), the best by points
    and by match, whether they differ, the match state, and ``verdict``: a sentence a player reads."""

    moves: list[MatchMoveValue]
    state: MatchState
    best_points: str
    best_match: str
    disagree: bool
    verdict: str

    def to_dict(self) -> dict[str, Any]:
        return {"state": dict(self.state.__dict__), "best_points": self.best_points, "best_match": self.best_match,
                "disagree": self.disagree, "verdict": self.verdict, "moves": [m.to_dict() for m in self.moves]}


def _se(x: np.ndarray) -> float:
    return float(x.std(ddof=1) / math.sqrt(len(x))) if len(x) > 1 else math.inf


def _paired(a: np.ndarray, b: np.ndarray) -> tuple[float, float]:
    """mean(a - b) and its standard error over the worlds both hold (the first ones)."""
    n = min(len(a), len(b))
    if n == 0:
        return math.nan, math.inf
    d = a[:n] - b[:n]
    return float(d.mean()), _se(d)


def _worst_paired(x: list[np.ndarray]) -> np.ndarray:
    """Each turn's smallest paired difference against any other turn: min over ``j`` of mean(x[k] -
    x[j]) over the worlds both were played in (``inf`` for a lone turn)."""
    worst = np.full(len(x), np.inf)
    for k in range(len(x)):
        for j in range(k + 1, len(x)):
            d, _ = _paired(x[k], x[j])
            worst[k], worst[j] = min(worst[k], d), min(worst[j], -d)
    return worst


def _favourite(worst: np.ndarray, tie_key: Sequence[Any]) -> int:
    """The turn whose worst paired difference against the others (``_worst_paired``) is the largest:
    the turn no worse than any other in the worlds the two were played in whenever there is one.
    Equal ones (to 1e-12) go by ``tie_key``, smallest first, then by order."""
    top = np.flatnonzero(np.isclose(worst, worst.max(), rtol=0, atol=1e-12)) if np.isfinite(worst.max()) \
        else np.arange(len(worst))
    return min((int(k) for k in top), key=lambda k: (tie_key[k], k))


class Sampled(Protocol):
    """What ``match_analysis`` reads of its play-outs (``lcanalysis.rollouts.Rollouts``, or a rollout's
    trials, ``studies.rollout``): each candidate turn's final round score differences, mover minus
    opponent, one per world (``samples[k]``), and the turn itself (``move(k)``, printed by ``str``)."""

    @property
    def samples(self) -> Sequence[Any]: ...

    def move(self, k: int) -> object: ...


def match_analysis(view: View, rollouts: Sampled, equity: MatchEquity | None = None,
                   min_z: float = 2.0) -> MatchAnalysis | None:
    """Rank the candidate turns of ``rollouts`` by match-winning chance as well as by points.

    ``rollouts``: a ``lcanalysis.rollouts.Rollouts`` of ``view`` already sampled (any number of
    worlds per turn; a turn needs 2 or more for a standard error), or anything with its ``samples``
    and ``move`` (``Sampled``: a rollout's trials, ``lcanalysis.studies.rollout``). ``view`` must carry the match
    score (``view.match``: round and running totals; ``Position.match``/``match=2:35,10`` in the
    one-line form); without one the function returns None (there is only the points ranking).
    ``equity``: the table (default: ``MatchEquity.load(rules=view.rules)``).

    Every turn's match-winning chance is the mean, over its worlds, of the match equity at the
    end of the round (``match_values``: P(win the match) + half P(draw)), with its standard
    error; its *match loss* is the best turn's chance minus its own, with the standard error of
    that paired difference (the worlds are shared). The points columns are the same for the
    final score difference. The best turn by either measure is chosen by paired differences, as
    the losses are, never by comparing means over different worlds (a turn played in 8 worlds
    against one played in 40): it is the turn whose worst paired difference against any other
    turn, over the worlds the two were played in, is the largest, so it is no worse than any
    other there whenever one such turn exists; on equal match chances the points favourite is
    kept. ``moves`` is sorted by match loss, the best first, and each row carries its rank in
    both orders (each after the best by its paired loss against it).

    ``verdict`` says in one sentence whether the two rankings agree and, when they do not, by
    how much and why in the match's terms, e.g. "Behind by 60 in the last round, the match
    ranking prefers -Y4/D to the points favourite +R7/D: 14.0% against 11.5% to win the match
    (+2.5 ± 0.6 percentage points) for 1.9 ± 0.5 points less on average: it gambles more (a
    wider spread of scores)." The two chances are over the worlds both turns were played in, as
    the gain is (so they differ by it), and when one turn was played in more worlds than the other
    the verdict says so ("... to win the match in the 10 worlds both were played in"); each turn's
    own average over all its worlds is its row's ``match``. A disagreement smaller than ``min_z``
    paired standard errors is called a matter of noise. A paired difference that was the same in every world both turns
    were played in has no standard error to give: it is printed without ±, saying so ("+0.0
    percentage points in each of the 8 worlds both were played in"), and a turn no better there
    is called a matter of taste. When the table was simulated from rounds of another number of
    colours than ``view.rules``, the verdict says so (``table_caveat``).
    """
    if not view.match:
        return None
    state = match_state(view)
    eq = equity or MatchEquity.load(rules=view.rules)
    pts = [np.asarray(x, dtype=np.float64) for x in rollouts.samples]
    if not pts or any(len(x) == 0 for x in pts):
        raise MatchEquityError("every candidate turn needs sampled worlds (Rollouts.sample) first")
    mv = [np.asarray(eq.after_round(state.lead + x, state.rounds_left_after, state.i_started), dtype=np.float64)
          for x in pts]
    pm = np.array([x.mean() for x in pts])
    mm = np.array([x.mean() for x in mv])
    worst_p = _worst_paired(pts)
    worst_m = _worst_paired(mv)
    bp = _favourite(worst_p, [-len(x) for x in pts])
    # ties by match (a decided match, or the same match outcome in every shared world): the points
    # favourite if it is among them, else the points decide
    bm = _favourite(worst_m, [(k != bp, -worst_p[k], -len(pts[k])) for k in range(len(pts))])
    names = [str(rollouts.move(k)) for k in range(len(pts))]
    rows = []
    ploss = [_paired(pts[bp], pts[k]) if k != bp else (0.0, 0.0) for k in range(len(pts))]
    mloss = [_paired(mv[bm], mv[k]) if k != bm else (0.0, 0.0) for k in range(len(pts))]
    for k in range(len(pts)):
        rows.append(MatchMoveValue(names[k], len(pts[k]), float(pm[k]), _se(pts[k]), *ploss[k],
                                   float(mm[k]), _se(mv[k]), *mloss[k]))
    # after the favourite, by the paired loss against it (the order of the losses printed)
    porder = sorted(range(len(rows)), key=lambda k: (k != bp, ploss[k][0]))
    for rank, k in enumerate(porder, 1):
        rows[k].points_rank = rank
    morder = sorted(range(len(rows)), key=lambda k: (k != bm, mloss[k][0], ploss[k][0]))
    for rank, k in enumerate(morder, 1):
        rows[k].match_rank = rank
    verdict = _verdict(state, names, pts, mv, bp, bm, min_z) + table_caveat(eq, view.rules)
    return MatchAnalysis([rows[k] for k in morder], state, names[bp], names[bm], bp != bm, verdict)


#: how every note that a match score was not weighed begins (``points_only_note``)
POINTS_ONLY = "match: not taken into account"


def points_only_note(subject: str, why: str = "") -> str:
    """The note, said once, of an answer in points of the round on a position with a match score
    (advise's endgame search, solve, the review's and the tutor's judgements): one place for the
    words. ``subject`` leads into "points of this round" ("the values are"); ``why``, when given,
    follows in brackets."""
    return (f"{POINTS_ONLY}: {subject} points of this round, not chances to win the match"
            + (f" ({why})" if why else "") + "; the points favourite may not be the best turn for the match")


def solve_match_note(position: Any) -> str | None:
    """The note of an exact endgame answer (``lc.solve``, ``lcanalysis solve``) on ``position``: with a
    match score on it, that the values are points of this round, not chances to win the match; None
    without one (a lone round)."""
    return points_only_note("the values are") if getattr(position, "match", None) else None


def table_caveat(equity: MatchEquity, rules: Rules) -> str:
    """A sentence (with a leading space) when ``equity`` was simulated from rounds of another
    number of colours than ``rules`` (a 6-colour round scores more widely than a 5-colour one,
    so the chances read from a 5-colour table are only a rough guide); "" otherwise."""
    made = equity.meta.get("colors")
    if made is None or made == rules.colors:
        return ""
    return (f" (The match equity table was simulated from {made}-colour rounds; in this {rules.colors}-colour "
            f"game its chances to win the match are only a rough guide.)")


def _pct(x: float) -> str:
    return f"{100 * x:.1f}%"


def _no_spread(a: np.ndarray, b: np.ndarray) -> bool:
    """Whether a - b is the same in every world both turns were played in (or there is one)."""
    n = min(len(a), len(b))
    d = a[:n] - b[:n]
    return n == 1 or float(d.min()) == float(d.max())


def _paired_amount(a: np.ndarray, b: np.ndarray, scale: float, unit: str, sign: bool, average: str = "") -> str:
    """mean(a - b) over the worlds both turns were played in, as the verdict prints it: with its
    standard error, in as many decimals as the error needs to show (at most 4); without one when
    the difference was the same in every one of those worlds (a sample with no spread gives no
    standard error, and "± 0.0" would claim a precision it does not have; the hint prints a loss
    with no standard error without ± too) or when there is only one such world. ``average``
    follows the figure when it has a standard error (e.g. "on average")."""
    n = min(len(a), len(b))
    d = scale * (a[:n] - b[:n])
    plus = "+" if sign else ""
    if _no_spread(a, b):
        where = "in the one world" if n == 1 else f"in each of the {n} worlds"
        return f"{float(d[0]):{plus}.1f} {unit} {where} both were played in"
    mean, se = float(d.mean()), _se(d)
    digits = next((k for k in range(1, 5) if round(se, k) != 0), 4)
    return f"{mean:{plus}.{digits}f} ± {se:.{digits}f} {unit}" + (f" {average}" if average else "")


def _verdict(state: MatchState, names: list[str], pts: list[np.ndarray], mv: list[np.ndarray], bp: int, bm: int,
             min_z: float) -> str:
    where = state.describe()
    where = where[0].upper() + where[1:]
    if bp == bm:
        chance = float(mv[bm].mean())
        if chance >= 0.9995 or chance <= 0.0005:
            return (f"{where}, the match is as good as decided ({_pct(chance)}); by points {names[bp]} is best, "
                    f"and nothing changes that.")
        return (f"{where}: points and match agree, {names[bp]} is best either way "
                f"({_pct(chance)} to win the match).")
    gain, gain_se = _paired(mv[bm], mv[bp])
    cost, _ = _paired(pts[bp], pts[bm])
    n = min(len(pts[bm]), len(pts[bp]))
    s_m, s_p = float(pts[bm][:n].std()), float(pts[bp][:n].std())
    if s_m > 1.05 * s_p:
        style = "it gambles more (a wider spread of scores)"
    elif s_m < s_p / 1.05:
        style = "it plays safer (a narrower spread of scores)"
    else:
        style = "its spread of scores is about the same, shaped differently"
    chances = _paired_amount(mv[bm], mv[bp], 100, "percentage points", sign=True)
    if cost >= 0:
        points = "for " + _paired_amount(pts[bp], pts[bm], 1, "points less", sign=False, average="on average")
    else:
        points = "and " + _paired_amount(pts[bm], pts[bp], 1, "points more", sign=False,
                                         average="on average in the worlds both were played in")
    # both chances over the worlds both turns were played in, as the gain is: each turn's own average
    # (over worlds the other was not played in) could read "2.3% against 0.7% (+2.3 ± 2.3 percentage points)"
    shared = ("" if len(mv[bm]) == len(mv[bp]) else
              " in the one world both were played in" if n == 1 else f" in the {n} worlds both were played in")
    text = (f"{where}, the match ranking prefers {names[bm]} to the points favourite {names[bp]}: "
            f"{_pct(mv[bm][:n].mean())} against {_pct(mv[bp][:n].mean())} to win the match{shared} ({chances}) "
            f"{points}: {style}.")
    if gain <= 0:  # no turn beat every other where both were played (a cycle): the least worst, no better here
        text += " It does no better in the worlds both were played in: a matter of taste."
    elif _no_spread(mv[bm], mv[bp]):  # no standard error: better in every shared world
        pass
    elif not (gain_se > 0 and gain > min_z * gain_se):
        text += f" The difference is within the noise (less than {min_z:g} standard errors): a matter of taste."
    return text
