"""The match equity table: ``MatchEquity``, built from one round's score-difference distribution
and loaded from the shipped file, and the checks of what it is asked (leads, round differences,
starters, rounds left)."""

from __future__ import annotations

import json
import math
import os
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from lcanalysis.game.cards import brief
from lcanalysis.game.position import round_score_range
from lcanalysis.game.rules import MAX_ROUNDS, TIED_START_CHOICES, Rules
from lcanalysis.match_equity.errors import MatchEquityError
from lcanalysis.match_equity.state import match_state

if TYPE_CHECKING:
    from lcanalysis.game.view import View

#: the shipped table (``lcanalysis studies match-table`` writes it): lcanalysis/data, beside this package
TABLE_PATH = Path(__file__).parent.with_name("data") / "match_equity.json"


#: the leads at which the published table lists the equity (the loader rebuilds every lead)
TABLE_LEADS = tuple(range(-300, 301, 5))


#: leads are held as 64-bit integers; beyond this size (far past any table's reach) a lead is
#: taken as this size, which decides the match the same way
_LEAD_BOUND = 10**15


#: how close to decided (a chance of winning, or of not losing, within this of 0 or 1, and of a
#: draw within this of 0) a lead's match is when the table treats it as decided
DECIDED = 1e-15


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
    """Round score differences (starter minus other) as whole numbers, each within what a round can
    move a lead under any rules (one player's best round less the other's worst, with six colours:
    936 + 480 = 1416); a MatchEquityError for anything else (1.5 was cut to 1, "a" and nan were
    numpy's errors)."""
    arr = _whole_numbers(diffs, "a round difference")
    worst, best = round_score_range(Rules(colors=6))
    bound = best - worst
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
