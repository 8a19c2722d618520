"""The hand evaluator: what each expedition and the whole hand are expected to score.

Built to sit at the leaves of a search and inside playing agents: the core is compiled
(numba), works on rank bitmasks and the kernel's flat state, and costs about a microsecond
per colour.

The model (stated once, used everywhere here): for each colour, the canonical wager model of
``wagers/canonical.py`` with the option to decline, decided now (``decline_now_value``):

- an opened expedition (any card on it) scores its canonical mean; while it holds only
  wagers, more wagers from hand may still be added, and the best number is taken;
- an unopened colour is worth ``max(0, best mean over 0..wagers in hand)``: the player opens
  it only if that pays;
- the draws are the player's *useful* draws (``core.features.useful_draws``): with ``d`` cards
  in the draw pile and both players drawing from it, the player has ``T = ceil(d/2)`` turns left
  when to move (``floor(d/2)`` otherwise), and the card drawn on the last turn can never be
  placed, so ``k = max(T - 1, 0)``;
- the unseen cards are everything the player cannot see (the draw pile and the opponent's hand;
  at kernel level every opponent card counts as unseen, as the kernel does not record which
  of them were picked up from a discard pile).

What it leaves out, on purpose (see ``wagers/models.py`` and docs/wagers.md for the richer
models and their measured errors): that placing a card costs a turn shared with the other
colours, that the opponent keeps the cards it needs, and that a colour may be opened later.
"""

from __future__ import annotations

import math
from dataclasses import asdict, dataclass, field
from typing import Any

import numpy as np
from numba import njit

from lcanalysis.core import features as F
from lcanalysis.core import first_compile
from lcanalysis.core import kernel as K
from lcanalysis.core.constants import RANKS_PER_COLOR, WAGER
from lcanalysis.game.cards import COLOR_LETTERS, type_of, whole_number
from lcanalysis.game.position import Position, PositionError, player_number
from lcanalysis.game.view import View

# log n!, a compile-time constant (256: a table size above the 72 cards of the largest deck, not a game fact)
_LOG_FACT = np.array([math.lgamma(i + 1.0) for i in range(256)])


@njit(cache=True)
def _log_comb(n, k):
    if k < 0 or k > n:
        return -np.inf
    if n < 256:
        return _LOG_FACT[n] - _LOG_FACT[k] - _LOG_FACT[n - k]
    return math.lgamma(n + 1.0) - math.lgamma(k + 1.0) - math.lgamma(n - k + 1.0)


@njit(cache=True)
def colour_mean(placed_wagers, placed_mask, wagers_now, hand_mask, unseen_mask, unseen_total, draws):
    """The canonical mean of one expedition (closed form), on rank bitmasks (bit r-1 for rank r).

    ``E = (1+W)(base + E[drawn sum] - 20) + 20 P(cards >= 8) + [W = 0, no card] * 20 P(none drawn)``.
    """
    top = K.top_rank(placed_mask)
    psum, pn = K.mask_sum_count(placed_mask, 0)
    hsum, hn = K.mask_sum_count(hand_mask, top)
    usum, un = K.mask_sum_count(unseen_mask, top)
    w = placed_wagers + wagers_now
    base_sum = psum + hsum
    base_n = pn + hn
    k = draws
    u = unseen_total
    e_sum = usum * k / u if u > 0 else 0.0
    mean = K.points_before_bonus(w, base_sum + e_sum)
    lt = _log_comb(u, k)
    need = K.BONUS_CARDS - w - base_n
    need = max(need, 0)
    p_bonus = 0.0
    for x in range(need, un + 1):  # P(x live cards drawn) is hypergeometric
        lp = _log_comb(un, x) + _log_comb(u - un, k - x) - lt
        if lp != -np.inf:
            p_bonus += math.exp(lp)
    mean += K.BONUS * p_bonus
    if w == 0 and base_n == 0:
        lp = _log_comb(u - un, k) - lt
        if lp != -np.inf:
            mean += K.EXPEDITION_COST * math.exp(lp)  # no card at all scores 0, not -20
    return mean


@njit(cache=True)
def decline_now_value(placed_wagers, placed_mask, hand_wagers, hand_mask, unseen_mask, unseen_total, draws, out2):
    """One colour's value under the evaluator's model, the canonical mean with the decline-now
    rule; writes ``out2[0] = value, out2[1] = best wagers`` (-1: do not open).

    Opened colours score their mean (plus any wagers still allowed, best number taken); an
    unopened colour is worth ``max(0, best mean)``.
    """
    opened = placed_wagers > 0 or placed_mask != 0
    max_j = hand_wagers if placed_mask == 0 else 0
    best = -1e18
    best_j = 0
    for j in range(max_j + 1):
        m = colour_mean(placed_wagers, placed_mask, j, hand_mask, unseen_mask, unseen_total, draws)
        if m > best + 1e-12:
            best = m
            best_j = j
    if not opened and best < 0.0:
        best = 0.0
        best_j = -1  # decline: do not open
    out2[0] = best
    out2[1] = best_j
    return best


@njit(cache=True)
def evaluate_state(s, p, draws, out):
    """Expected final score of each of player ``p``'s expeditions (``out[c]``); returns their sum.

    ``draws < 0`` means the default: the player's useful draws (turns left less one, both players
    drawing from the pile). Everything the player cannot see counts as unseen, the opponent's
    whole hand included. Compiled; call it from compiled searchers and agents.
    """
    nc = s[K.H_NC]
    block = np.empty((F.N_FEATURES, nc), np.int64)
    u = F.colour_features(s, p, block)
    k = draws
    if k < 0:
        k = F.useful_draws(K.deck_left(s), s[K.H_TO_MOVE] == p)
    k = min(k, u)
    tmp = np.empty(2)
    total = 0.0
    for c in range(nc):
        pw = block[F.OWN_WAGERS, c]
        pm = block[F.OWN_MASK, c]
        hw = block[F.HAND_WAGERS, c]
        hm = block[F.HAND_MASK, c]
        total += decline_now_value(pw, pm, hw, hm, block[F.UNSEEN_MASK, c], u, k, tmp)
        out[c] = tmp[0]
    return total


@njit(cache=True)
def evaluate_difference(s, p, draws):
    """Evaluator value of player ``p`` less that of the opponent (each from their own knowledge)."""
    nc = s[K.H_NC]
    out = np.empty(nc)
    return evaluate_state(s, p, draws, out) - evaluate_state(s, 1 - p, draws, out)


# --- the object layer --------------------------------------------------------------------------


@dataclass
class ColourValue:
    """One colour for the viewer: expected final score under the evaluator's model.

    ``best_wagers`` is the number of wagers to place now (``None``: do not open this colour);
    ``open_value`` the best mean if opened now, whether or not that pays. All numbers are exact
    (closed form on the exact hypergeometric law), so ``exact`` is True and ``stderr`` 0.
    """

    color: str
    opened: bool
    value: float
    best_wagers: int | None
    open_value: float
    exact: bool = True
    stderr: float = 0.0


@dataclass
class HandEvaluation:
    """The hand evaluator's answer (``lc.evaluate``): ``colours``, one ``ColourValue`` per colour
    for the viewer; ``draws``, the draws each colour was valued over; ``total``, the whole hand's
    expected score; ``ranking``, the unopened colours best to open first. Exact (closed form), so
    ``exact`` is True and ``stderr`` 0. ``print`` gives it as a table, ``to_json`` as plain values."""

    draws: int
    colours: list[ColourValue]
    exact: bool = True
    stderr: float = 0.0
    model: str = "canonical + decline now, useful draws"
    extra: dict[str, Any] = field(default_factory=dict)

    @property
    def total(self) -> float:
        return float(sum(c.value for c in self.colours))

    @property
    def ranking(self) -> list[ColourValue]:
        """Unopened colours, best to open first (by the mean if opened now with the best wagers)."""
        return sorted((c for c in self.colours if not c.opened), key=lambda c: -c.open_value)

    def table(self) -> str:
        lines = [f"{'colour':<7}{'opened':<8}{'value':>8}{'if opened':>11}  wagers"]
        for c in self.colours:
            w = "-" if c.best_wagers is None else str(c.best_wagers)
            lines.append(f"{c.color:<7}{'yes' if c.opened else 'no':<8}{c.value:>8.2f}{c.open_value:>11.2f}  {w}")
        lines.append(f"{'hand':<15}{self.total:>8.2f}")
        return "\n".join(lines)

    def __str__(self) -> str:
        return f"hand evaluation, {self.draws} useful draw(s), exact\n" + self.table()

    def to_json(self) -> dict[str, Any]:
        """Plain values for ``json.dumps``: ``draws``, ``exact``, ``stderr``, ``model``, ``total``
        and ``colours`` (each colour's fields; ``best_wagers`` null: do not open it)."""
        return {"draws": self.draws, "exact": self.exact, "stderr": self.stderr, "model": self.model,
                "total": self.total, "colours": [asdict(c) for c in self.colours]}


def _mask(ranks) -> int:
    """The kernel's mask of number cards' ranks: rank r is bit r-1 (``core.kernel.FULL9``; a bit layout)."""
    m = 0
    for r in ranks:
        m |= 1 << (r - 1)
    return m


def evaluate_view(view: Any, draws: int | None = None) -> HandEvaluation:
    """Evaluate every colour of a ``View`` for its viewer (``draws`` default: useful draws)."""
    if not isinstance(view, View):  # a Position has no viewer: whose hand would it be?
        hint = (": give position.view(player), or lc.evaluate(position, player)" if isinstance(view, Position)
                else "")
        raise PositionError(f"evaluate_view takes a View (what one player knows), got {type(view).__name__}{hint}")
    if draws is not None:
        given, draws = draws, whole_number(draws)  # numpy's integers too (a slider, np.arange)
        if draws is None or not 0 <= draws <= view.deck_count:
            raise ValueError(f"draws must be a whole number 0..{view.deck_count} (the draw pile), got {given!r}")
    # after the checks: a bad argument is refused at once, not after a first compile
    first_compile.ready(first_compile.EVALUATOR)  # (compiled once, saying so: core.first_compile)
    nc = view.rules.colors
    counts = view.unseen_counts()
    u = int(counts.sum())
    if draws is None:
        draws = int(F.useful_draws(int(view.deck_count), view.to_move == view.viewer))
    me = view.viewer
    out = []
    tmp = np.empty(2)
    for c in range(nc):
        exp = view.expeditions[me][c]
        pw = sum(1 for x in exp if x.is_wager)
        pm = _mask(x.rank for x in exp if not x.is_wager)
        hand = [x for x in view.hand if x.color == c]
        hw = sum(1 for x in hand if x.is_wager)
        hm = _mask(x.rank for x in hand if not x.is_wager)
        um = _mask(r for r in range(WAGER + 1, RANKS_PER_COLOR) if counts[type_of(c, r)] > 0)
        value = decline_now_value(pw, pm, hw, hm, um, u, draws, tmp)
        best_j = int(tmp[1])
        max_j = hw if pm == 0 else 0
        open_value = max(colour_mean(pw, pm, j, hm, um, u, draws) for j in range(max_j + 1))
        opened = bool(exp)
        if not opened and best_j < 0:
            best = None
        else:
            best = best_j
        out.append(ColourValue(COLOR_LETTERS[c], opened, float(value), best, float(open_value)))
    return HandEvaluation(draws=draws, colours=out)


def evaluate_position(position: Any, player: int, draws: int | None = None) -> float:
    """The compiled evaluator on a ``Position``'s kernel state, from ``player``'s side (``draws``:
    0 .. the draw pile; None: the player's useful draws)."""
    if not isinstance(position, Position):  # the compiled code reads a kernel state, which a View has not
        hint = ": evaluate_view(view) evaluates a view" if isinstance(position, View) else ""
        raise PositionError(f"evaluate_position takes a Position, got {type(position).__name__}{hint}")
    player = player_number(player, "player")  # the compiled code reads whatever memory player 2's would be
    if draws is not None:
        given, draws = draws, whole_number(draws)
        if draws is None or not 0 <= draws <= position.deck_count:  # (more were quietly cut to the unseen cards)
            raise ValueError(f"draws must be a whole number 0..{position.deck_count} (the draw pile), or None, "
                             f"got {given!r}")
    first_compile.ready(first_compile.EVALUATOR)  # after the checks: a bad argument is refused at once
    out = np.empty(position.rules.colors)
    return float(evaluate_state(position.state, player, -1 if draws is None else draws, out))


def evaluate(target: Any, player: int | None = None, draws: int | None = None) -> HandEvaluation:
    """The front door's hand evaluator: every colour of a position or view, for ``player``
    (default: the viewer, or the player to move of a full position). ``target`` is anything
    ``read_position`` reads; ``draws``: the deck draws each colour is valued over, 0 .. the draw
    pile (None: the player's useful draws).

    Returns a ``HandEvaluation``: each colour's expected final score in points (``colours``: its
    ``value``, for an unopened colour the better of leaving it closed, 0, and opening it now;
    ``open_value``, its mean if opened now with the best number of wagers) and the hand's ``total``,
    exact under the evaluator's model (closed form: ``exact`` True, ``stderr`` 0); ``print`` gives it
    as a table."""
    from lcanalysis.game.notation import read_view

    return evaluate_view(read_view(target, player), draws)
