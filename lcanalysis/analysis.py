"""One answer type for every "what is this worth" question: ranked turns with values and how exact they are.

The solver, the advisor and the calculators all return an ``Analysis``, so the command
line (``to_json``), the notebooks (``_repr_html_``) and the tests read the same thing.
"""

from __future__ import annotations

import html
import math
import operator
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from functools import cache
from operator import attrgetter
from typing import Any

from lcanalysis.game.moves import Move, MoveError

#: the reason of a value estimated by a heuristic leaf (the search's, ``leaf="heuristic"``): not a
#: sample mean, so it has no standard error, and that is what its "±" column says
HEURISTIC_REASON = "heuristic leaf: no standard error"

#: points: two values (or two losses) this close are a tie. The same exact view value, summed over the
#: splits in another order (another turn's, or the same position written with its cards in another
#: order), comes out a few 1e-14 away; ranked by that noise, two tools could name two turns best
TIE = 1e-9


@cache
def move_order(move: str) -> tuple[int, str]:
    """A turn's place in the canonical order of turns, the order ``legal_moves`` lists them in (the
    kernel's move code): by the card placed (colours Y B W G R P, in each the wager, then 2..10),
    playing it before discarding it, then the draw pile before the discard piles (Y B W G R P);
    the draw half alone (``/D``) after every whole turn. Text that is not a turn goes last, by its text."""
    try:
        return Move.parse(move).code(6), move  # (the order of codes is the same with 5 colours)
    except MoveError:
        return 1 << 30, move


def ranked(moves: Iterable[MoveValue], score: Callable[[MoveValue], float] = attrgetter("value")) -> list[MoveValue]:
    """``moves`` best first by ``score`` (highest first; by default the value), ties ranked by one rule:
    scores within ``TIE`` of the highest of their group are a tie, and tied turns go exact before an
    upper bound (which may be lower), then in the canonical order of turns (``move_order``). So the
    same answer summed in another order ranks its turns the same, and every tool names the same best."""
    by_score = sorted(moves, key=score, reverse=True)
    out: list[MoveValue] = []
    i = 0
    while i < len(by_score):
        top, j = score(by_score[i]), i + 1
        while j < len(by_score) and score(by_score[j]) >= top - TIE:
            j += 1
        out += sorted(by_score[i:j], key=lambda m: (m.upper_bound, move_order(m.move)))
        i = j
    return out


def tied_to_zero(loss: float) -> float:
    """A loss against the best, 0.0 when it is a tie (within ``TIE``): an exact tie shows as a loss
    of 0, not as the rounding noise of two sums (1.4e-14, or -3.6e-15, which read as a gain)."""
    return 0.0 if abs(loss) <= TIE else loss


def error_digits(stderr: float | None, digits: int) -> int:
    """The decimals to show a standard error in: ``digits``, or as many more (at most 4) as an error
    too small to show in them needs, so that a non-zero error never reads "± 0.0", which claims a
    precision it does not have (an error of exactly 0, worlds that all agreed, keeps ``digits``)."""
    if stderr and round(stderr, digits) == 0:
        return next((k for k in range(digits + 1, 5) if round(stderr, k) != 0), 4)
    return digits


def loss_in_words(loss: float, stderr: float | None, exact: bool, bound: bool, signed: bool = False,
                  digits: int = 1) -> str:
    """One turn's loss against the best, as the tutor, the review and the replay say it: "2.0 (exact)",
    "2.0 ± 0.4" (an estimate), or "at least 2.0" (a bound: the endgame search showed only that the
    turn is that much worse), with "± s" when the bound itself was sampled. ``signed``: as the hint's
    table gives it, a change in value: "-2.0 (exact)", "-2.0 ± 0.4", "≤ -2.0 ± 0.4". An error too
    small to show in ``digits`` decimals gets as many as it needs (at most 4): "at least 9.00 ± 0.04",
    not "± 0.0", which claims a precision it does not have."""
    digits = error_digits(stderr, digits)
    amount = f"{-loss if signed else loss:.{digits}f}"
    error = f" ± {stderr:.{digits}f}" if stderr else ""
    if bound:  # (a bound carries its error only when sampled: an exact bound has none)
        return (f"≤ {amount}" if signed else f"at least {amount}") + error
    return f"{amount} (exact)" if exact else f"{amount} ± {stderr or 0.0:.{digits}f}"


def place_in_words(moves: Sequence[MoveValue], move: str) -> str:
    """Where ``move`` stands among an answer's turns (best first), as far as it is known: "4 of 58";
    "2 to 5 of 58" when turns listed above it are only bounded by the endgame search (each is worth
    at most its figure, so any of them may lie below it); "at best 2 of 58" for a bounded turn,
    which may lie below any turn listed after it. Without bounds, the place in the list."""
    rank = next(i for i, m in enumerate(moves) if m.move == move)
    n = len(moves)
    sure = 1 + sum(not m.upper_bound for m in moves[:rank])  # the exact turns above it are surely above it
    if moves[rank].upper_bound:
        return f"{n} of {n}" if sure == n else f"at best {sure} of {n}"
    return f"{rank + 1} of {n}" if sure == rank + 1 else f"{sure} to {rank + 1} of {n}"


@dataclass(slots=True)
class MoveValue:
    """One turn's value for the player to move, in points (``Analysis`` says which value). ``stderr``
    is 0.0 when ``exact``, else one standard error of the estimate (0.0 too for a heuristic leaf's,
    which has none: ``uncertainty()`` says so)."""

    move: str
    value: float
    stderr: float = 0.0
    exact: bool = True
    reason: str = ""
    extra: dict[str, Any] = field(default_factory=dict)
    #: the best turn's value minus this one's, and the standard error of that difference (paired
    #: over shared worlds; 0 when exact); None until the answer's producer sets them
    loss: float | None = None
    loss_stderr: float | None = None

    def uncertainty(self, digits: int = 2) -> str:
        """How exact the value is, in words: "exact", "± <standard error>" for a sampled mean,
        "upper bound" for a turn the endgame search showed only to be worse (with "± s" when the bound
        was sampled; never "± 0.00", which reads as an estimate of no error), or, for an estimate that
        is not a sample mean (a heuristic leaf), its reason."""
        if self.exact:
            return "exact"
        if self.upper_bound:
            return "upper bound" + (f" ± {self.stderr:.{digits}f}" if self.stderr else "")
        if self.stderr == 0 and self.reason == HEURISTIC_REASON:
            return self.reason  # a heuristic leaf's estimate: not a sample mean, no error to give
        return f"± {self.stderr:.{digits}f}"

    @property
    def upper_bound(self) -> bool:
        """The endgame search showed only that this turn is worse: its value is at most, and its
        loss at least, the figure given (``extra["bound"] == "upper"``)."""
        return self.extra.get("bound") == "upper"

    def loss_text(self, digits: int = 2, best: bool = True) -> str:
        """The loss against the best turn as shown beside the value: "best", or minus the loss with
        the standard error of the difference; "≤ " before a turn searched only far enough to show
        it is worse (its loss is at least the figure); "" when no loss is set. ``best=False``: not
        the turn named best, so a loss of 0 (a tie) shows as "0.00", not as a second "best"."""
        if self.loss is None:
            return ""
        if best and self.loss == 0 and not self.upper_bound:  # (a bound of 0 says only: no better than the best)
            return "best"
        mark = "≤ " if self.upper_bound else ""
        digits = error_digits(self.loss_stderr, digits)  # "-0.30 ± 0.04", not "-0.3 ± 0.0"
        # rounded first: a loss of 0, or of a few thousandths, shows as "0.00" with no sign, as a tie to the
        # digits shown ("+0.00" read as a gain, and "-0.00" beside it as a loss where the two are alike)
        shown = round(-self.loss, digits) + 0.0
        figure = f"{shown:+.{digits}f}" if shown else f"{0.0:.{digits}f}"
        if not self.loss_stderr:
            return f"{mark}{figure}"
        return f"{mark}{figure} ± {self.loss_stderr:.{digits}f}"

    def describe(self) -> str:
        if self.exact:
            return f"{self.move}: {self.value:+.3f} (exact)"
        return f"{self.move}: {self.value:+.3f} {self.uncertainty(3)} (estimate)"


def seconds_in_words(seconds: float) -> str:
    """A duration, rounded to what a person reads at a glance: "40 s", "12 minutes", "3.5 hours"."""
    if seconds >= 5400:
        return f"{seconds / 3600:,.1f} hours"
    return f"{seconds / 60:,.0f} minutes" if seconds >= 90 else f"{seconds:,.0f} s"


def stalls_in_words(stalls: int) -> str:
    """A stall budget (``max_stalls``) in words."""
    return "no more discard-pile draws" if stalls == 0 else f"at most {stalls} more discard-pile draw(s) each"


def stalls_each(stalls: int) -> str:
    """A level's stall budget as the notes name it: "no stalls", "2 stall(s) each"."""
    return "no stalls" if stalls == 0 else f"{stalls} stall(s) each"


def bounds_in_words(bounds: dict[str, Any]) -> str:
    """The bounds an answer was computed under, as a reader says them ("at most 1 more
    discard-pile draw(s) each, 6 more turns at most, then scored as it stands"); any other entry
    as ``name = value``."""
    words = []
    for key, value in bounds.items():
        if key == "max_stalls":
            words.append(stalls_in_words(int(value)))
        elif key == "stalls" and isinstance(value, dict):  # a budget for each player
            words.append("; ".join(f"{who}: " + (f"{n} more discard-pile draw(s) at most" if n != "unlimited"
                                                 else "discard-pile draws unlimited") for who, n in value.items()))
        elif key == "max_turns":
            words.append(f"{value} more turn(s) at most")
        elif key == "leaf":
            words.append("then scored as it stands" if value == "as-is" else f"then the {value} leaf's estimate")
        elif key == "converged":
            words.append("converged" if value else "not converged")
        elif key == "bracket":
            words.append(f"unbounded value between {value[0]:+.3f} and {value[1]:+.3f}")
        elif key == "root_turn_free":
            words.append("this turn's pile draw not counted" if value else "")
        else:
            words.append(f"{key} = {value}")
    return ", ".join(w for w in words if w)


@dataclass(repr=False)  # a line (__repr__), not every field of every turn
class Analysis:
    """Every legal turn ranked best first (``ranked``: values within ``TIE`` tie, and tied turns go
    exact first, then in the canonical order of turns, ``move_order``).

    ``kind`` names what the values are: "perfect-information value", "view value (averaged
    over splits)", "view value (sampled worlds)" (the advisor's endgame search), "belief-optimal
    value", "depth-limited estimate", "advisor estimate"; a view with buried discard-pile cards
    adds how many fills of them were averaged, and ``bracket``'s two ends name W_me and W_opp.
    ``bounds`` lists the bounds the values hold under (``max_stalls``, ``max_turns``, ``leaf``).
    ``exact`` is True when no sampling and no heuristic leaf was used.

    Every value is in points: the round's final score difference, the player to move's score less
    the opponent's, for every kind but the belief-optimal value, which is the player to move's own
    expected final score, and a rollout's on a position in a match (``studies.rollout``), which is the
    chance to win the match (its kind says so). Each turn (``MoveValue``) says whether its value is
    exact, or an estimate with its standard error (``stderr``; none for a heuristic leaf's);
    ``value`` is the best turn's. ``playout_policy`` names the play-out policy of an answer by play-outs,
    ``hand_model`` and ``deck_streams`` say how they dealt the unseen cards (None for any other answer);
    ``luck_measured_at`` how the advisor's endgame search estimated a sampled level.
    ``print`` gives the turns as a table, ``to_json()`` as the interchange object, ``to_frame()`` as a
    DataFrame.
    """

    moves: list[MoveValue]
    kind: str
    exact: bool
    bounds: dict[str, Any] = field(default_factory=dict)
    nodes: int = 0
    seconds: float = 0.0
    method: str = ""
    notes: list[str] = field(default_factory=list)
    splits: int | None = None
    #: a play-out answer's play-outs in all, over every turn (``rollouts.Rollouts``); None for a search,
    #: whose work is its ``nodes`` (a play-out answer keeps the same count in ``nodes``, as it always did)
    playouts: int | None = None
    #: the play-out policy both sides played the play-outs with, by its name (``options.PLAYOUT_POLICIES``:
    #: "plain", "stalling"), set by ``Rollouts.analysis``; None when no play-outs of a named policy made the
    #: values: a search (the exact endgame answer too), or play-outs by agents or other parameters (whose
    #: ``kind`` or ``method`` says which)
    playout_policy: str | None = None
    #: how the play-outs dealt the opponent's unknown cards, set by ``Rollouts.analysis`` as
    #: ``playout_policy``, and by a rollout for its trials' worlds (``studies.rollout``): True from the learned
    #: opponent-hand model (``lcanalysis.hand_model``), False uniformly (or none unknown: a full position);
    #: None when no play-outs of the library made the values
    hand_model: bool | None = None
    #: whether each player drew from a deck stream of their own in the play-outs (True) or all from one
    #: shuffled pile (False), set by ``Rollouts.analysis``; None when no play-outs of the library made the values
    deck_streams: bool | None = None
    #: the stall budget each of the exact endgame level that a sampled one took its worlds' luck out against
    #: (``search.endgame.Level.with_control``); None for any other answer
    luck_measured_at: int | None = None

    def __post_init__(self) -> None:
        self.moves[:] = ranked(self.moves)  # ties (within TIE) exact first, then in the canonical order

    @property
    def value(self) -> float:
        """The value of the position: the best turn's value (nan when no turn is legal)."""
        return self.moves[0].value if self.moves else math.nan

    @property
    def best(self) -> MoveValue | None:
        """The best turn (the first), or None when no turn is legal."""
        return self.moves[0] if self.moves else None

    def turn_to_name(self) -> MoveValue | None:
        """The turn to tell a player to play (the hint's verdict, the tutor's "better to"): the best, unless
        the answer is exact, the best draws from a discard pile, and a turn that draws from the draw pile
        ties it exactly (not a bound): then the first such. Tied turns are listed in the canonical order
        (docs/spec/interchange.md), which can put a stall first; the list and the JSON keep that order,
        and what a player is told leads with the plain turn."""
        best = self.best
        if best is None or not self.exact or best.move.endswith("/D"):
            return best
        return next((m for m in self.moves if m.move.endswith("/D") and not m.upper_bound
                     and m.loss is not None and abs(m.loss) <= TIE), best)

    def to_json(self) -> dict[str, Any]:
        """The ``lcanalysis solve --json`` object of docs/spec/interchange.md, plus labelled extras
        (``value`` null when no turn is legal: JSON has no nan)."""
        return {
            "value": self.value if self.moves else None,
            "exact": self.exact,
            # each turn says whether its own value is exact: an answer that solved every split can
            # still hold turns only bounded, and a horizon's leaf is exact for none
            "moves": [{"move": m.move, "value": m.value, "stderr": m.stderr, "exact": m.exact,
                       **({"loss": m.loss, "loss_stderr": m.loss_stderr} if m.loss is not None else {}),
                       # the endgame search showed only that this turn is worse: value at most, loss at least
                       **({"bound": "upper"} if m.upper_bound else {})}
                      for m in self.moves],
            "nodes": self.nodes,
            "seconds": self.seconds,
            "kind": self.kind,
            "bounds": self.bounds,
            "method": self.method,
            **({"splits": self.splits} if self.splits is not None else {}),
            **({"playouts": self.playouts} if self.playouts is not None else {}),
            **({"playout_policy": self.playout_policy} if self.playout_policy is not None else {}),
            **({"hand_model": self.hand_model} if self.hand_model is not None else {}),
            **({"deck_streams": self.deck_streams} if self.deck_streams is not None else {}),
            **({"luck_measured_at": self.luck_measured_at} if self.luck_measured_at is not None else {}),
            **({"notes": self.notes} if self.notes else {}),
        }

    def set_exact_losses(self) -> None:
        """Losses of an exact answer: the best value minus each turn's, with no error."""
        for m in self.moves:
            m.loss, m.loss_stderr = tied_to_zero(self.value - m.value), 0.0

    def to_frame(self):
        """The turns as a ``pandas.DataFrame``, best first: move, value, stderr, exact, reason (and
        loss, loss_stderr when set), bound."""
        import pandas as pd

        return pd.DataFrame(
            [
                {"move": m.move, "value": m.value, "stderr": m.stderr, "exact": m.exact, "reason": m.reason,
                 **({"loss": m.loss, "loss_stderr": m.loss_stderr} if self.has_losses() else {}),
                 "bound": "upper" if m.upper_bound else None}
                for m in self.moves
            ]
        )

    def to_text(self, limit: int | None = None) -> str:
        """The answer in words, the first ``limit`` turns (None: all)."""
        if limit is not None:
            try:  # numpy's integers too (np.int64(3) was refused as no whole number)
                whole = None if isinstance(limit, bool) else operator.index(limit)
            except TypeError:
                whole = None
            if whole is None or whole < 1:
                raise ValueError(f"limit must be a whole number of turns, 1 or more (None: all), got {limit!r}")
            limit = whole
        label = "exact" if self.exact else "estimate"
        head = self.kind if label in self.kind else f"{self.kind} ({label})"
        if self.bounds:
            head += " under " + bounds_in_words(self.bounds)
        lines = [head]
        losses = self.has_losses()
        for i, m in enumerate(self.moves[:limit]):
            # a bound is marked on its value, as the hint's table does ("≤ +3.00"), with "± s" only when sampled
            err = "" if m.exact or (m.upper_bound and not m.stderr) else \
                f" ± {m.stderr:.2f}" if m.upper_bound else f" {m.uncertainty()}"
            value = f"{'≤ ' if m.upper_bound else ''}{m.value:+.2f}"
            vs = "" if not losses else " (best)" if m.loss_text(best=i == 0) == "best" else \
                f" ({m.loss_text(best=i == 0)} vs best)"
            reason = f"  {m.reason}" if m.reason and m.reason not in err else ""
            lines.append(f"{i + 1:3d}. {m.move:<9} {value:>8}{err}{vs}{reason}")
        lines.append(f"{self.work()}, {self.seconds:.3f} s" + (f", {self.method}" if self.method else ""))
        lines.extend(f"note: {n}" for n in self.notes)
        return "\n".join(lines)

    def work(self) -> str:
        """What the answer cost, in words: "1,200 play-outs" for play-outs, "nodes 3802" for a search."""
        return f"{self.playouts:,} play-outs" if self.playouts is not None else f"nodes {self.nodes}"

    def has_losses(self) -> bool:
        """Whether every turn carries its loss against the best (the advisor's answers do)."""
        return bool(self.moves) and all(m.loss is not None for m in self.moves)

    def __str__(self) -> str:
        return self.to_text()

    def __repr__(self) -> str:
        """One line, as a REPL shows an answer: what its values are, how many turns, the best with
        its value and how exact it is (every turn's every field ran to 40,000 characters for an
        advisor's answer); ``print`` gives the table, ``to_json()`` and ``to_frame()`` every field."""
        label = "exact" if self.exact else "estimate"
        what = self.kind if label in self.kind else f"{self.kind} ({label})"
        best = self.best
        if best is None:
            return f"<Analysis: {what}, no legal turn>"
        error = "" if best.exact else f" {best.uncertainty()}"
        return (f"<Analysis: {what}, {len(self.moves)} turn(s), best {best.move} {best.value:+.2f}{error}; "
                "print() it for every turn>")

    def svg(self):
        """A bar chart of the turns' values with ±1 standard-error bars (an ``SvgImage``)."""
        from lcanalysis.show.render import analysis_svg

        return analysis_svg(self)

    def _repr_html_(self) -> str:
        losses = self.has_losses()  # the advisor's list is best first, then by the loss: show it
        nowrap = "<td style='white-space: nowrap'>"
        rows = "".join(
            f"<tr><td>{i + 1}</td><td><code>{html.escape(m.move)}</code></td>"
            f"<td>{'≤ ' if m.upper_bound else ''}{m.value:+.2f}</td>"
            f"{nowrap}{html.escape(m.uncertainty())}</td>"
            + (f"{nowrap}{html.escape(m.loss_text(best=i == 0))}</td>" if losses else "")
            + f"<td>{html.escape('' if m.reason == m.uncertainty() else m.reason)}</td></tr>"
            for i, m in enumerate(self.moves)
        )
        bounds = html.escape(bounds_in_words(self.bounds))
        return (
            f"<div><b>{html.escape(self.kind)}</b> ({'exact' if self.exact else 'estimate'})"
            f"{' under ' + bounds if bounds else ''}<table><tr><th>#</th><th>turn</th><th>value</th>"
            f"<th>±</th>{'<th>vs best</th>' if losses else ''}<th>reason</th></tr>{rows}</table>"
            f"<small>{f'{self.playouts:,} play-outs' if self.playouts is not None else f'{self.nodes} nodes'}, "
            f"{self.seconds:.3f} s</small></div>"
        )
