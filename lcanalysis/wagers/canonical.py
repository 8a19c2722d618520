"""The canonical wager model of docs/spec/interchange.md: exact score distributions for one expedition.

The question: "if I put down ``j`` wagers now, what will this expedition score?"
The model (interchange.md, "Canonical wager model"), for one colour, from a player's view:

- ``k`` more draws from the draw pile; the ``k`` cards are a uniformly random ``k``-subset of
  the cards the player cannot see (the draw pile and the opponent's unknown hand cards);
- ``j`` wagers are placed now (0 .. the wagers of that colour in hand; more than 0 only while
  the expedition holds no number) and no wager is ever placed later;
- the final expedition holds what it holds now, the ``j`` wagers, and every number of that
  colour from the hand and from the draws that is above the expedition's highest number;
- it scores by the rules, and 0 when it holds no card at all.

The calculation is exact. The number ``x`` of *live* cards drawn (unseen numbers of the colour
above the expedition's top) is hypergeometric; given ``x``, which live cards is a uniformly
random ``x``-subset, so ``P(x drawn, their sum s) = N[x][s] * C(U - L, k - x) / C(U, k)`` where
``N[x][s]`` counts the ``x``-subsets of the live numbers summing to ``s`` (a subset-sum count),
``U`` the unseen cards and ``L`` the live ones. With ``exact=True`` every probability is a
``fractions.Fraction``; the float path computes the same sums in floating point.

Plain inputs (face values 2..10, counts) keep the maths independent of the object layer:

>>> r = wager_distribution(hand=[7, 8, 9, 10], hand_wagers=1, draws=0)
>>> [(w.wagers, float(w.mean)) for w in r.by_wagers]
[(0, 14.0), (1, 28.0)]

``wager_answer(view, "R", draws)`` is the ``lcanalysis wager --json`` answer for a ``View``.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, replace
from fractions import Fraction
from numbers import Real
from typing import Any

from lcanalysis.core import first_compile
from lcanalysis.core.constants import MAX_COLORS, RANKS_PER_COLOR, WAGER
from lcanalysis.core.kernel import BONUS, BONUS_CARDS, EXPEDITION_COST, expedition_points, points_before_bonus
from lcanalysis.game.cards import (
    CARDS_PER_COLOR,
    COLOR_LETTERS,
    WAGER_COPIES,
    Card,
    CardError,
    brief,
    color_index,
    color_name_hint,
    sixth_colour_hint,
    whole_number,
)
from lcanalysis.game.rules import Rules
from lcanalysis.options import check_flag

Number = Fraction | float

#: the face values of a colour's numbers (2..10): the ranks after the wager's, each worth its rank + 1
MIN_VALUE, MAX_VALUE = Card(0, WAGER + 1).number, Card(0, RANKS_PER_COLOR - 1).number
#: the unseen cards at the start of a round of the default rules, seen by one player: the deck less
#: the hand (52: 60 cards less 8)
START_UNSEEN = Rules().deck_size - Rules().hand_size
MAX_DECK = MAX_COLORS * CARDS_PER_COLOR  # 72: the 6-colour game's cards, the most any game has


def round_unseen(draws: int) -> int:
    """The unseen cards of a round in which the player has ``draws`` useful draws left, as the
    tables of ``lcanalysis studies wager-tables`` assume: ``2 * draws + 10``. With ``k`` useful
    draws the player has ``k + 1`` turns, the draw pile (both players drawing from it) holds about
    ``2k + 2`` cards, and the opponent's 8 cards are unknown; at the deal of the 5-colour game
    (44 cards, player to move) ``k = 21`` and this is 52, ``START_UNSEEN``, and 64 for 6 colours."""
    return 2 * draws + Rules().hand_size + 2


def most_round_draws(unseen_total: int) -> int:
    """The most draws left whose round (``round_unseen``) leaves unseen no more than ``unseen_total``
    cards: 21 for the deal's 52."""
    return max((unseen_total - round_unseen(0)) // 2, 0)


class WagerError(ValueError):
    """A wager question the model cannot answer; the message names the problem."""


class UnknownColorError(WagerError):
    """A colour letter that is not in the game."""


class DrawsOutOfRangeError(WagerError):
    """A number of draws below 0 or above the cards left in the draw pile."""


class InconsistentCardsError(WagerError):
    """Cards that cannot all be where the question puts them (duplicates, too many, bad values)."""


# --- the result types ------------------------------------------------------------------------


@dataclass
class WagerOutcome:
    """The final score of one expedition when ``wagers`` wagers are placed now.

    ``distribution`` maps each possible score to its probability (they sum to 1).
    ``exact`` is True when every number here is computed without sampling; then ``stderr`` is 0.
    With ``exact=False`` (a sampled model), ``stderr`` is the standard error of ``mean``, ``samples``
    the number of sampled scores, and ``p_positive_stderr``, ``p_break_even_stderr`` and ``sd_stderr``
    the standard errors of the chances and the spread.
    """

    wagers: int
    distribution: dict[int, Number]
    mean: Number
    exact: bool = True
    stderr: float = 0.0
    samples: int = 0  # the sampled scores behind a sampled outcome (0: exact)

    @property
    def p_positive(self) -> Number:
        """P(score > 0): the chance the expedition makes a profit."""
        return sum((p for s, p in self.distribution.items() if s > 0), _zero(self.mean))

    @property
    def p_break_even(self) -> Number:
        """P(score >= 0): the chance of breaking even or better."""
        return sum((p for s, p in self.distribution.items() if s >= 0), _zero(self.mean))

    def _chance_stderr(self, p: Number) -> float:
        """The standard error of a chance estimated over the samples: the mean of a 0/1 score, its
        error made as ``stderr`` is (the samples' spread with n - 1, over sqrt(n)): sqrt(p(1-p)/(n-1))."""
        if self.exact:
            return 0.0
        if self.samples < 2:
            return math.nan  # (a sampled outcome made without its sample size: no error to give)
        q = float(p)
        return math.sqrt(max(q * (1.0 - q), 0.0) / (self.samples - 1))

    @property
    def p_positive_stderr(self) -> float:
        """The standard error of ``p_positive`` (0 when exact)."""
        return self._chance_stderr(self.p_positive)

    @property
    def p_break_even_stderr(self) -> float:
        """The standard error of ``p_break_even`` (0 when exact)."""
        return self._chance_stderr(self.p_break_even)

    @property
    def variance(self) -> Number:
        m = self.mean
        return sum(((s - m) ** 2 * p for s, p in self.distribution.items()), _zero(m))

    @property
    def sd(self) -> float:
        return math.sqrt(float(self.variance))

    @property
    def sd_stderr(self) -> float:
        """The standard error of ``sd`` (0 when exact), by the delta method from the sampled scores' fourth
        central moment m4: Var(s^2) ~ (m4 - sd^4) / n, so s.e.(sd) ~ sqrt((m4 - sd^4) / n) / (2 sd)."""
        if self.exact:
            return 0.0
        if self.samples < 2:
            return math.nan
        m, var = float(self.mean), float(self.variance)
        if var <= 0.0:
            return 0.0  # every sample the same score
        m4 = sum((s - m) ** 4 * float(p) for s, p in self.distribution.items())
        return math.sqrt(max(m4 - var * var, 0.0) / self.samples) / (2.0 * math.sqrt(var))

    def quantile(self, q: float) -> int:
        """The smallest score s with P(score <= s) >= q."""
        if isinstance(q, bool) or not isinstance(q, Real) or not 0 <= q <= 1:
            raise WagerError(f"q must be a probability from 0 to 1, got {q!r}")
        acc = 0.0
        for s in sorted(self.distribution):
            acc += float(self.distribution[s])
            if acc >= q - 1e-12:
                return s
        return max(self.distribution)

    def to_json(self) -> dict[str, Any]:
        out = {
            "wagers": self.wagers,
            "mean": float(self.mean),
            "p_positive": float(self.p_positive),
            "distribution": {str(s): float(p) for s, p in sorted(self.distribution.items())},
        }
        if not self.exact:  # a sampled model: say so, with the errors of the mean and the chance
            out.update(exact=False, stderr=float(self.stderr), p_positive_stderr=self.p_positive_stderr,
                       samples=self.samples)
        return out


@dataclass(repr=False)  # a line (__repr__), not every probability of every score
class WagerAnalysis:
    """The answer for one colour: one ``WagerOutcome`` per number of wagers placed now."""

    draws: int
    by_wagers: list[WagerOutcome]
    color: str | None = None
    exact: bool = True
    model: str = "canonical"
    inputs: dict[str, Any] = field(default_factory=dict)

    def outcome(self, wagers: int) -> WagerOutcome:
        """The answer for ``wagers`` wagers placed now (one of ``by_wagers``)."""
        if whole_number(wagers) is None:  # ('1' was "no answer for 1 wager(s)")
            raise WagerError(f"wagers must be a whole number of wagers, got {wagers!r}")
        for o in self.by_wagers:
            if o.wagers == wagers:
                return o
        raise WagerError(f"no answer for {wagers} wager(s): the choices here are "
                         f"{[o.wagers for o in self.by_wagers]}")

    def marginal(self, wagers: int) -> Number:
        """How much the ``wagers``-th wager adds to the mean (negative: what it costs)."""
        if whole_number(wagers) is None:  # (None and '1' were Python's TypeError of a comparison)
            raise WagerError(f"wagers must be a whole number of wagers, got {wagers!r}")
        if wagers < 1:
            raise WagerError("the marginal value is defined for the 1st, 2nd or 3rd wager")
        return self.outcome(wagers).mean - self.outcome(wagers - 1).mean

    def marginal_stderr(self, wagers: int) -> float:
        """The standard error of ``marginal(wagers)``: 0 when both means are exact; for a sampled
        answer the two means' errors in quadrature, since each row is sampled with a seed of its own
        (``models._mc``: ``seed + 7919 * j``), so the two means are independent."""
        self.marginal(wagers)  # (the same checks and words for a bad number of wagers)
        hi, lo = self.outcome(wagers), self.outcome(wagers - 1)
        return math.hypot(hi.stderr, lo.stderr)

    @property
    def marginals(self) -> list[Number]:
        return [self.marginal(o.wagers) for o in self.by_wagers if o.wagers >= 1]

    @property
    def best_wagers(self) -> int:
        """The number of wagers with the highest mean (the fewest on ties)."""
        best = self.by_wagers[0]
        for o in self.by_wagers[1:]:
            if o.mean > best.mean:
                best = o
        return best.wagers

    def to_json(self) -> dict[str, Any]:
        """The ``lcanalysis wager --json`` object of interchange.md."""
        return {
            "color": self.color,
            "draws": self.draws,
            "by_wagers": [o.to_json() for o in self.by_wagers],
        }

    @property
    def sampled(self) -> bool:
        """True when some mean here is a Monte Carlo estimate (its ``stderr`` is then shown)."""
        return not self.exact or any(not o.exact for o in self.by_wagers)

    def table(self) -> str:
        """One row per number of wagers; a sampled answer gives each estimate's standard error in the
        column after it (``s.e.``)."""
        if not self.sampled:
            lines = [f"{'wagers':>6} {'mean':>9} {'P(>0)':>7} {'P(>=0)':>7} {'sd':>7}"]
            lines += [f"{o.wagers:>6} {float(o.mean):>9.3f} {float(o.p_positive):>7.3f} {float(o.p_break_even):>7.3f} "
                      f"{o.sd:>7.2f}" for o in self.by_wagers]
            return "\n".join(lines)
        lines = [f"{'wagers':>6} {'mean':>9} {'s.e.':>6} {'P(>0)':>7} {'s.e.':>6} {'P(>=0)':>7} {'s.e.':>6} "
                 f"{'sd':>7} {'s.e.':>5}"]
        for o in self.by_wagers:
            lines.append(f"{o.wagers:>6} {float(o.mean):>9.3f} {o.stderr:>6.3f} {float(o.p_positive):>7.3f} "
                         f"{o.p_positive_stderr:>6.3f} {float(o.p_break_even):>7.3f} {o.p_break_even_stderr:>6.3f} "
                         f"{o.sd:>7.2f} {o.sd_stderr:>5.2f}")
        return "\n".join(lines)

    def _samples(self) -> str:
        n = {o.samples for o in self.by_wagers if not o.exact}
        return f", {n.pop():,} samples" if len(n) == 1 and min(n) > 0 else ""

    def _pool(self) -> str:
        """The cards the draws come from, as the answer's first line says them (" of 28 unseen cards"):
        the same draws of 28 cards (late in a round) or of the deal's 52 are different questions."""
        state = self.inputs.get("state") if isinstance(self.inputs, dict) else None
        total = getattr(state, "unseen_total", None)
        return f" of {total} unseen card{'s' if total != 1 else ''}" if isinstance(total, int) else ""

    def __str__(self) -> str:
        head = f"colour {self.color or '?'}, {self.draws} draw(s){self._pool()}, {self.model} model, " + (
            f"estimate (Monte Carlo{self._samples()}; each s.e. the standard error of the number before it)"
            if self.sampled else "exact")
        return head + "\n" + self.table()

    def __repr__(self) -> str:
        """One line, as a REPL shows an answer: the colour, the draws, how exact, each number of
        wagers' mean in points (every exact probability of every score ran to thousands of
        characters); ``print`` gives the table, ``to_json()`` the distributions."""
        means = ", ".join(f"{o.wagers}: {float(o.mean):+.2f}" + (f" ± {o.stderr:.2f}" if not o.exact else "")
                          for o in self.by_wagers)
        how = "estimate" if self.sampled else "exact"
        return (f"<WagerAnalysis: colour {self.color or '?'}, {self.draws} draw(s){self._pool()}, {self.model} model, "
                f"{how}; "
                f"mean points by wagers {means}; print() it for the table>")

    def _repr_html_(self) -> str:
        se = self.sampled

        def cell(value: Number, error: float) -> str:  # a number, and its standard error after it when sampled
            return f"<td>{float(value):.3f}</td>" + (f"<td>{error:.3f}</td>" if se else "")

        rows = "".join(f"<tr><td>{o.wagers}</td>{cell(o.mean, o.stderr)}{cell(o.p_positive, o.p_positive_stderr)}"
                       f"{cell(o.p_break_even, o.p_break_even_stderr)}</tr>" for o in self.by_wagers)
        s_e = "<th>s.e.</th>" if se else ""
        how = (f"estimate (Monte Carlo{self._samples()}), each s.e. the standard error of the number before it"
               if se else "exact")
        return (f"<p>colour {self.color or '?'}, {self.draws} draws{self._pool()} ({how})</p>"
                f"<table><tr><th>wagers</th><th>mean</th>{s_e}<th>P(&gt;0)</th>{s_e}<th>P(&ge;0)</th>{s_e}</tr>"
                f"{rows}</table>")


def _zero(like: Number) -> Number:
    return Fraction(0) if isinstance(like, Fraction) else 0.0


# --- the exact calculation on plain inputs ----------------------------------------------------


def expedition_score_values(wagers: int, numbers: Iterable[int]) -> int:
    """The rules' score of an expedition given its wagers and face values (0 when empty)."""
    first_compile.ready(first_compile.RULES)  # the rules' scoring, compiled
    nums = list(numbers)
    return expedition_points(wagers, sum(nums), len(nums))


def subset_sum_counts(values: Sequence[int]) -> list[dict[int, int]]:
    """``N[x][s]``: how many ``x``-element subsets of ``values`` add up to ``s``."""
    n: list[dict[int, int]] = [{0: 1}] + [{} for _ in values]
    for i, v in enumerate(values):
        for x in range(i, -1, -1):
            row, up = n[x], n[x + 1]
            for s, c in row.items():
                up[s + v] = up.get(s + v, 0) + c
    return n


def comb(n: int, k: int) -> int:
    """``C(n, k)``, 0 outside ``0 <= k <= n``."""
    return math.comb(n, k) if 0 <= k <= n else 0


def _check_values(name: str, values: Any) -> list[int]:
    if isinstance(values, (str, bytes)) or not isinstance(values, Iterable):
        raise InconsistentCardsError(f"{name}: a list of the colour's numbers like [7, 8] (face values "
                                     f"2..10), got {values!r}")
    out = []
    for given in values:
        v = whole_number(given)  # numpy's integers too (a hand read from an array)
        if v is None or not MIN_VALUE <= v <= MAX_VALUE:
            raise InconsistentCardsError(f"{name}: {given!r} is not a number card value 2..10")
        out.append(v)
    if len(set(out)) != len(out):
        raise InconsistentCardsError(f"{name}: a value appears twice ({sorted(out)}); each number is one card")
    return out


@dataclass(frozen=True)
class ColorState:
    """One colour as a player sees it, in face values.

    ``placed`` numbers on the player's expedition, ``placed_wagers`` wagers there; ``hand`` the
    numbers of the colour in hand and ``hand_wagers`` its wagers in hand; ``unseen`` the numbers of
    the colour the player cannot see; ``unseen_total`` every unseen card of every colour (wagers
    included): the pool the draws come from.
    """

    placed: tuple[int, ...]
    placed_wagers: int
    hand: tuple[int, ...]
    hand_wagers: int
    unseen: tuple[int, ...]
    unseen_total: int

    @classmethod
    def make(cls, hand: Iterable[int] = (), hand_wagers: int = 0, placed: Iterable[int] = (),
             placed_wagers: int = 0, unseen: Iterable[int] | None = None,
             unseen_total: int | None = None) -> ColorState:
        """Build and check. ``unseen`` defaults to every number not in ``placed`` or ``hand``;
        ``unseen_total`` defaults to 52: the start of a 5-colour round seen by one player
        (60 cards less the 8 in hand: the 44-card draw pile and the opponent's 8)."""
        placed_t = tuple(sorted(_check_values("placed", placed)))
        hand_t = tuple(sorted(_check_values("hand", hand)))
        if set(placed_t) & set(hand_t):
            raise InconsistentCardsError(f"a card is both on the expedition and in hand: "
                                         f"{sorted(set(placed_t) & set(hand_t))}")
        if unseen is None:
            unseen_t = tuple(v for v in range(MIN_VALUE, MAX_VALUE + 1) if v not in placed_t and v not in hand_t)
        else:
            unseen_t = tuple(sorted(_check_values("unseen", unseen)))
            both = set(unseen_t) & (set(placed_t) | set(hand_t))
            if both:
                raise InconsistentCardsError(f"a card is both unseen and visible: {sorted(both)}")
        for name, w in (("hand_wagers", hand_wagers), ("placed_wagers", placed_wagers)):
            if whole_number(w) is None or w < 0:
                raise InconsistentCardsError(f"{name} must be a whole number >= 0, got {w!r}")
        hand_wagers, placed_wagers = int(hand_wagers), int(placed_wagers)
        if hand_wagers + placed_wagers > WAGER_COPIES:
            raise InconsistentCardsError(f"a colour has {WAGER_COPIES} wagers; got {placed_wagers} placed "
                                         f"and {hand_wagers} in hand")
        if unseen_total is None:
            unseen_total = START_UNSEEN
        total = whole_number(unseen_total)
        if total is None:
            raise InconsistentCardsError(f"unseen_total must be a whole number of cards, got {unseen_total!r}")
        if total < len(unseen_t):
            raise InconsistentCardsError(f"unseen_total={unseen_total!r} is fewer than the {len(unseen_t)} "
                                         "unseen numbers of this colour")
        seen = len(placed_t) + placed_wagers + len(hand_t) + hand_wagers
        if total + seen > MAX_DECK:  # (520 for 52 was answered, as if the game had hundreds of cards)
            raise InconsistentCardsError(f"unseen_total={unseen_total!r} is more cards than a game has: the largest "
                                         f"deck ({MAX_COLORS} colours) has {MAX_DECK}, and {seen} of this colour are "
                                         f"in hand or on the expedition, so at most {MAX_DECK - seen} are unseen")
        unseen_total = total
        return cls(placed_t, placed_wagers, hand_t, hand_wagers, unseen_t, unseen_total)

    @property
    def top(self) -> int:
        return max(self.placed, default=0)

    @property
    def live_hand(self) -> tuple[int, ...]:
        return tuple(v for v in self.hand if v > self.top)

    @property
    def live_unseen(self) -> tuple[int, ...]:
        return tuple(v for v in self.unseen if v > self.top)

    @property
    def wager_choices(self) -> list[int]:
        """``j`` values the model allows: 0..hand wagers while no number is placed, else only 0."""
        return list(range(self.hand_wagers + 1)) if not self.placed else [0]

    def check_wagers(self, wagers: Any) -> int:
        """``wagers`` (wagers placed now) as an ``int`` (numpy's integers too) when the model allows
        it; otherwise a ``WagerError`` naming the problem: not a whole number (``"1"``, ``1.5``), or
        not one of ``wager_choices`` (and why not: a number already placed, too few wagers in hand)."""
        j = whole_number(wagers)
        if j is None:
            raise WagerError(f"wagers must be a whole number of wagers placed now, got {wagers!r}")
        if j not in self.wager_choices:
            why = ("the expedition already holds a number, and a wager goes only before the first number"
                   if self.placed and j > 0 else
                   f"{self.hand_wagers} wager(s) of the colour are in hand" if j > 0 else "a count is at least 0")
            raise WagerError(f"{j} wager(s) cannot be placed now ({why}): the choices are {self.wager_choices}")
        return j


def check_state(state: Any, where: str) -> ColorState:
    """``state`` when it is a ``ColorState``; otherwise a ``WagerError`` saying what ``where`` (a function's
    name) takes and how to make one (a View, a list of numbers or None met an AttributeError on
    ``state.unseen_total`` deep inside)."""
    if isinstance(state, ColorState):
        return state
    what = type(state).__name__
    hint = ("; for a position or view use lc.wager(view, colour, draws) or color_state_from_view(view, colour)"
            if what in ("View", "Position", "str", "dict") else "")
    raise WagerError(f"{where}: the state must be a ColorState, one colour as a player sees it (ColorState.make("
                     f"hand=[4, 6, 9], hand_wagers=1, unseen_total=28)), got {what} {brief(state)}{hint}")


def _whole_draws(draws: Any, most: int, what: str = "") -> int:
    """``draws`` as an ``int`` (numpy's integers too), or a ``DrawsOutOfRangeError`` naming 0..``most``."""
    k = whole_number(draws)
    if k is None or not 0 <= k <= most:
        raise DrawsOutOfRangeError(f"draws must be a whole number 0..{most}{f' ({what})' if what else ''}, "
                                   f"got {draws!r}")
    return k


def drawn_distribution(state: ColorState, draws: int, exact: bool = True) -> dict[tuple[int, int], Number]:
    """``P(x live cards drawn with sum s)`` keyed by ``(x, s)`` for ``draws`` draws."""
    state = check_state(state, "drawn_distribution")
    u = state.unseen_total
    draws = _whole_draws(draws, u, "the unseen cards")
    live = state.live_unseen
    big_l = len(live)
    total = math.comb(u, draws)
    n = subset_sum_counts(live)
    out: dict[tuple[int, int], Number] = {}
    for x in range(min(big_l, draws) + 1):
        ways_rest = comb(u - big_l, draws - x)
        if ways_rest == 0:
            continue
        for s, c in n[x].items():
            p = Fraction(c * ways_rest, total) if exact else c * ways_rest / total
            out[(x, s)] = p
    return out


def score_distribution(state: ColorState, draws: int, wagers: int, exact: bool = True,
                       _drawn: dict[tuple[int, int], Number] | None = None) -> dict[int, Number]:
    """The distribution of the final score with ``wagers`` placed now (canonical model)."""
    state = check_state(state, "score_distribution")
    wagers = state.check_wagers(wagers)
    first_compile.ready(first_compile.RULES)  # the rules' scoring, compiled (after the checks)
    drawn = _drawn if _drawn is not None else drawn_distribution(state, draws, exact)
    base = state.placed + state.live_hand
    base_sum, base_n = sum(base), len(base)
    w = state.placed_wagers + wagers
    dist: dict[int, Number] = {}
    for (x, s), p in drawn.items():
        score = expedition_points(w, base_sum + s, base_n + x)
        dist[score] = dist.get(score, 0) + p
    return dict(sorted(dist.items()))


def _mean(dist: dict[int, Number]) -> Number:
    items = list(dist.items())
    zero: Number = Fraction(0) if items and isinstance(items[0][1], Fraction) else 0.0
    return sum((s * p for s, p in items), zero)


def analyze(state: ColorState, draws: int, exact: bool = True, color: str | None = None) -> WagerAnalysis:
    """Every ``j`` the model allows: distribution, mean, chance of profit and of breaking even."""
    state = check_state(state, "analyze")
    exact = check_flag("exact", exact, WagerError)  # ("no" would read as exact)
    draws = _whole_draws(draws, state.unseen_total, "the unseen cards")  # an int: numpy's one was kept, and
    # the answer's to_json() could not be written as JSON
    if color is not None and (not isinstance(color, str) or color.upper() not in COLOR_LETTERS):
        raise UnknownColorError(f"color is the label of the answer, a colour letter "
                                f"({' '.join(COLOR_LETTERS)}) or None, got {color!r}")
    drawn = drawn_distribution(state, draws, exact)
    outs = []
    for j in state.wager_choices:
        dist = score_distribution(state, draws, j, exact, _drawn=drawn)
        outs.append(WagerOutcome(wagers=j, distribution=dist, mean=_mean(dist)))
    return WagerAnalysis(draws=draws, by_wagers=outs, color=color,
                         inputs={"state": state})


def wager_distribution(hand: Iterable[int] = (), hand_wagers: int = 0, draws: int = 0,
                       placed: Iterable[int] = (), placed_wagers: int = 0,
                       unseen: Iterable[int] | None = None, unseen_total: int | str | None = None,
                       exact: bool = True, color: str | None = None) -> WagerAnalysis:
    """The canonical model on plain numbers (face values 2..10).

    ``unseen`` defaults to every number of the colour not placed and not in hand;
    ``unseen_total`` (all unseen cards, the pool of the draws) defaults to 52, the start of a
    5-colour round seen by one player. ``unseen_total="round"``: ``draws`` are the draws *left* in a
    round, from ``round_unseen(draws)`` = ``2 draws + 10`` unseen cards (the tables' convention, and
    ``break_even_draws(..., unseen="round")``'s): with 20 cards in the pile and you to move, 9 useful
    draws of 28 unseen cards.
    """
    if isinstance(unseen_total, str):
        if unseen_total != "round":
            raise InconsistentCardsError(f"unseen_total must be a whole number of cards or 'round' (2 draws + 10 "
                                         f"for draws left in a round), got {unseen_total!r}")
        unseen_total = round_unseen(_whole_draws(draws, most_round_draws(MAX_DECK - Rules().hand_size),
                                                    "draws left in a round: 27 at the 6-colour deal"))
    state = ColorState.make(hand=hand, hand_wagers=hand_wagers, placed=placed, placed_wagers=placed_wagers,
                            unseen=unseen, unseen_total=unseen_total)
    return analyze(state, draws, exact=exact, color=color)


def mean_score(state: ColorState, draws: int, wagers: int) -> float:
    """The mean alone in closed form (no distribution): fast, used by the tables, the break-even search
    and the simulation's checks. The hand evaluator has the same form compiled, on rank masks
    (``evaluator.colour_mean``; tests/test_evaluate.py holds it to this model's means).

    ``E = (1+W)(base + E[drawn sum] - 20) + 20 P(cards >= 8) + [W = 0, nothing yet] * 20 P(x = 0)``.
    """
    state = check_state(state, "mean_score")
    wagers = state.check_wagers(wagers)
    draws = _whole_draws(draws, state.unseen_total)
    first_compile.ready(first_compile.RULES)  # the rules' scoring, compiled (after the checks)
    u, live = state.unseen_total, state.live_unseen
    big_l = len(live)
    base = state.placed + state.live_hand
    w = state.placed_wagers + wagers
    total = math.comb(u, draws)
    pmf = [comb(big_l, x) * comb(u - big_l, draws - x) / total for x in range(big_l + 1)]
    e_sum = (sum(live) * draws / u) if u else 0.0
    mean = points_before_bonus(w, sum(base) + e_sum)
    need = BONUS_CARDS - w - len(base)
    mean += BONUS * sum(pmf[max(need, 0):])
    if w == 0 and not base:
        mean += EXPEDITION_COST * pmf[0]  # no card at all scores 0, not -20
    return mean


#: ``break_even_draws``' ways to count the unseen cards as the draws change (see there)
UNSEEN_CHOICES = ("fixed", "round")
#: what a break-even point asks: the mean reaches 0, P(score >= 0) reaches 1/2, or the wager adds >= 0
BREAK_EVEN_CRITERIA = ("mean", "median", "marginal")


def break_even_draws(state: ColorState, wagers: int = 0, criterion: str = "mean",
                     max_draws: int | None = None, min_draws: int = 0, unseen: str = "fixed") -> int | None:
    """The break-even point: the fewest draws at which the expedition breaks even.

    ``criterion="mean"``: the mean score is >= 0; ``"median"``: P(score >= 0) >= 1/2, both of the
    expedition with ``wagers`` wagers; ``"marginal"``: the ``wagers``-th wager adds to the mean
    (``marginal(wagers) >= 0``): "from how many draws does this wager pay?", which is not where the
    expedition with it breaks even.
    ``None`` when no number of draws from ``min_draws`` up to ``max_draws`` gets there. An
    untouched colour breaks even at 0 draws (never opened, it scores 0): ``min_draws=1`` asks
    when it would once opened.

    ``unseen`` says which question the draws answer:

    - ``"fixed"`` (the default): draws from now, out of the state's ``unseen_total`` cards
      whatever their number ("how many of these cards must I still get?"); ``max_draws``
      defaults to all of them. This is the question at a position (``lcanalysis wager`` asks it).
    - ``"round"``: draws left later in a round, the unseen cards shrinking with them
      (``round_unseen(k)`` = ``2k + 10`` for ``k`` draws left, as the wager tables assume): "with
      how many draws left is this holding still worth opening?". ``max_draws`` defaults to the
      draws the state's own unseen cards stand for, and goes no further (21 for the 52 of the
      deal; give ``unseen_total=64`` for the 6-colour deal's 27). At the deal's
      52 unseen cards the two differ most late: a lone 10 breaks even from 12 draws of the 52,
      but from 5 draws left in a round (20 unseen cards then).
    """
    state = check_state(state, "break_even_draws")
    wagers = state.check_wagers(wagers)
    if criterion not in BREAK_EVEN_CRITERIA:  # (before the search: with no draws to try it was never read)
        raise WagerError(f"criterion must be 'mean', 'median' or 'marginal' (the wager adds >= 0), got {criterion!r}")
    if criterion == "marginal" and wagers < 1:
        raise WagerError("criterion='marginal' asks when the wagers-th wager adds to the mean: give wagers=1, 2 or 3")
    if unseen not in UNSEEN_CHOICES:
        raise WagerError(f"unseen must be 'fixed' (draws from now, of the state's {state.unseen_total} unseen cards) "
                         f"or 'round' (draws left in a round, 2k + 10 unseen cards for k draws left), got {unseen!r}")
    if whole_number(min_draws) is None or min_draws < 0:
        raise WagerError(f"min_draws must be a whole number of draws from 0, got {min_draws!r}")
    min_draws = int(min_draws)
    if max_draws is not None and (whole_number(max_draws) is None or max_draws < 0):
        raise WagerError(f"max_draws must be a whole number of draws from 0 (or None: every unseen card), "
                         f"got {max_draws!r}")
    if max_draws is not None and min_draws > max_draws:  # (an empty search said None: "never breaks even")
        raise WagerError(f"min_draws={min_draws} is above max_draws={max_draws}: no number of draws to try")
    if unseen == "fixed":
        top = state.unseen_total if max_draws is None else min(int(max_draws), state.unseen_total)
    else:  # the most draws left whose round leaves unseen no more cards than the state has
        most = most_round_draws(state.unseen_total)
        top = most if max_draws is None else min(int(max_draws), most)
    for k in range(min_draws, top + 1):
        here = state if unseen == "fixed" else replace(state, unseen_total=round_unseen(k))
        if criterion == "marginal":
            ok = mean_score(here, k, wagers) - mean_score(here, k, wagers - 1) >= -1e-9
        elif criterion == "mean":
            ok = mean_score(here, k, wagers) >= -1e-9
        else:
            dist = score_distribution(here, k, wagers, exact=False)
            ok = sum(p for s, p in dist.items() if s >= 0) >= 0.5 - 1e-12
        if ok:
            return k
    return None


# --- the adapter for a View ------------------------------------------------------------------


def color_state_from_view(view: Any, color: str | int) -> ColorState:
    """The ``ColorState`` of one colour as ``view``'s viewer sees it."""
    colors = view.rules.colors
    if isinstance(color, str):
        try:
            c = color_index(color, colors)
        except CardError:
            raise UnknownColorError(f"unknown colour {color!r}: this game has {' '.join(COLOR_LETTERS[:colors])}"
                                    f"{color_name_hint(color, colors)}{sixth_colour_hint(color, colors)}") from None
    else:
        number = whole_number(color)  # numpy's integers too
        if number is None or not 0 <= number < colors:
            raise UnknownColorError(f"unknown colour {brief(color)}: a colour is its letter "
                                    f"({' '.join(COLOR_LETTERS[:colors])}) or its number 0..{colors - 1}")
        c = number
    me = view.viewer
    exp: list[Card] = list(view.expeditions[me][c])
    hand = [card for card in view.hand if card.color == c]
    counts = view.unseen_counts()
    unseen_total = int(sum(int(n) for n in counts))
    unseen = [Card(c, r).number for r in range(WAGER + 1, RANKS_PER_COLOR) if int(counts[Card(c, r).type]) > 0]
    return ColorState.make(
        hand=[card.number for card in hand if not card.is_wager],
        hand_wagers=sum(1 for card in hand if card.is_wager),
        placed=[card.number for card in exp if not card.is_wager],
        placed_wagers=sum(1 for card in exp if card.is_wager),
        unseen=unseen,
        unseen_total=unseen_total,
    )


def _check_draws(view: Any, draws: Any) -> int:
    deck = int(view.deck_count)
    given, draws = draws, whole_number(draws)  # numpy's integers too (a slider, np.arange)
    if draws is None:
        raise DrawsOutOfRangeError(f"draws must be a whole number 0..{deck}, got {given!r}")
    if not 0 <= draws <= deck:
        raise DrawsOutOfRangeError(f"draws={draws} is out of range: the draw pile holds {deck} card(s), "
                                   f"so draws must be 0..{deck}")
    return draws


def check_round_not_over(view: Any) -> None:
    """A ``WagerError`` when the round is over: the model would play the hand's cards of the colour,
    and no turn is left to play them (the score would be made up)."""
    if view.is_over():
        raise WagerError(f"the round is over ({view.over_reason()}): no turn is left to place a wager "
                         "or play a card")


def analyze_view(view: Any, color: str | int, draws: int, exact: bool = True) -> WagerAnalysis:
    """The canonical model for one colour of a ``View`` (``draws`` at most the draw pile's size).
    A round already over is refused (``WagerError``)."""
    check_round_not_over(view)
    state = color_state_from_view(view, color)
    draws = _check_draws(view, draws)
    return analyze(state, draws, exact=exact, color=color_letter(view, color))


def color_letter(view: Any, color: str | int) -> str:
    """The letter of a colour of ``view``'s game given as ``color_state_from_view`` takes it (``" g "``
    is ``"G"``, 2 is ``"W"``); an unknown one refused as there."""
    color_state_from_view(view, color)
    return COLOR_LETTERS[color_index(color, view.rules.colors) if isinstance(color, str) else int(color)]


def wager_answer(view: Any, color_letter: str, draws: int) -> dict[str, Any]:
    """The ``lcanalysis wager POSITION --color C --draws K --json`` object of interchange.md.

    ``{"color", "draws", "by_wagers": [{"wagers", "mean", "p_positive", "distribution"}]}``;
    the distribution's keys are the scores as strings (JSON), its values probabilities.
    Raises ``UnknownColorError`` or ``DrawsOutOfRangeError`` (both ``ValueError``) naming the problem.
    """
    if not isinstance(color_letter, str):
        raise UnknownColorError(f"the colour must be a letter like 'R', got {color_letter!r}")
    return analyze_view(view, color_letter, draws, exact=True).to_json()
