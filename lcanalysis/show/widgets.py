"""Interactive explorers for notebooks and Voila: "what should I play here?" and "what is a wager worth?".

The classes only wire widgets to ``lcanalysis`` functions (``studies.explorer.analyze``,
``studies.explorer.move_outcomes``, ``wagers.canonical.wager_distribution``, ``figures``); bad input shows a
message, never a traceback. Every widget is an attribute, so a test can set values, press
buttons (``explorer.analyze_button.click()``) and read ``explorer.result`` and
``explorer.table.value``::

    ex = DecisionExplorer()
    ex.load("example:midround")
    ex.time_budget.value = 0.5
    ex.analyze_button.click()
    ex.result.best            # the best turn, a MoveValue
"""

from __future__ import annotations

import html
import re
from typing import Any

import ipywidgets as W
import numpy as np
from IPython.display import SVG, display

from lcanalysis.analysis import Analysis
from lcanalysis.game.cards import Card
from lcanalysis.game.examples import EXAMPLES
from lcanalysis.game.notation import mover_view, read_position
from lcanalysis.game.position import Position, PositionError, as_cards
from lcanalysis.game.rules import Rules
from lcanalysis.game.view import View
from lcanalysis.show import figures
from lcanalysis.studies import explorer
from lcanalysis.wagers.canonical import WagerAnalysis

ENDGAME_CARDS = 5  # principal lines are offered when the draw pile holds at most this many cards


def _cards_text(cards: Any) -> str:
    return " ".join(str(c) for c in cards)


def _split(text: str) -> list[str]:
    return [t for t in re.split(r"[\s,;.]+", text.strip()) if t]


def _message(kind: str, text: str) -> str:
    colour = {"error": "#a61b1b", "note": "#555555", "ok": "#1d6b2a"}[kind]
    return f'<div class="lc-message lc-{kind}" style="color:{colour}">{html.escape(text)}</div>'


def _svg_of(obj: Any) -> str:
    try:
        from lcanalysis.show.render import position_svg, view_svg

        return str(position_svg(obj) if isinstance(obj, Position) else view_svg(obj))
    except Exception:
        return str(obj._repr_svg_())


class DecisionExplorer:
    """Build a position with widgets (or paste one), see it drawn, press Analyze, get ranked turns.

    Input widgets: ``colors``, ``hand``, ``my_expeditions``, ``opp_expeditions``, ``discards``,
    ``opp_known`` (card lists as text, e.g. ``"R7 Bw B4"``), ``deck``; ``paste`` + ``load_button``
    for a one-line ``LC1;...`` string or JSON; ``example`` for the built-in positions;
    ``time_budget`` and ``seed`` for the analysis.
    Results: ``result`` (an ``Analysis``), ``table`` (HTML of the ranked turns), ``chart``,
    ``turn`` (pick a turn) and ``detail`` (what follows it: outcome distribution, endgame lines),
    ``message`` (errors and notes), ``picture`` (the position drawn).
    """

    def __init__(self, source: str | dict | Position | View | None = "example:midround",
                 time_budget: float = 0.5, seed: int = 0) -> None:
        text = {"layout": W.Layout(width="98%")}
        self.colors = W.Dropdown(options=[5, 6], value=5, description="colours")
        self.hand = W.Text(description="my hand", placeholder="8 cards, e.g. R7 Bw B4 G10 Y3 Y5 W8 R9", **text)
        self.my_expeditions = W.Text(description="my exped.", placeholder="cards in the order placed", **text)
        self.opp_expeditions = W.Text(description="opp. exped.", placeholder="cards in the order placed", **text)
        self.discards = W.Text(description="discards", placeholder="bottom first, e.g. G6 W4 W6", **text)
        self.opp_known = W.Text(description="opp. known", placeholder="cards known in the opponent's hand", **text)
        self.deck = W.BoundedIntText(value=44, min=0, max=56, description="deck")
        self.paste = W.Textarea(placeholder="paste a one-line LC1;... string or a JSON position, then Load",
                                layout=W.Layout(width="98%", height="4em"))
        self.load_button = W.Button(description="Load", tooltip="read the pasted position")
        self.example = W.Dropdown(options=["(choose)"] + list(EXAMPLES), value="(choose)", description="example")
        self.time_budget = W.FloatSlider(value=time_budget, min=0.2, max=10.0, step=0.1, description="time (s)")
        self.seed = W.BoundedIntText(value=seed, min=0, max=2**31 - 1, description="seed")
        self.analyze_button = W.Button(description="Analyze", button_style="primary", icon="search")
        self.message = W.HTML()
        self.picture = W.HTML()
        self.table = W.HTML()
        self.chart = W.Output()
        self.turn = W.Dropdown(options=[], description="turn")
        self.detail = W.Output()
        self.detail_text = W.HTML()
        for w, cls in ((self.analyze_button, "lc-analyze"), (self.table, "lc-table"), (self.message, "lc-msg"),
                       (self.hand, "lc-hand"), (self.deck, "lc-deck"), (self.turn, "lc-turn"),
                       (self.paste, "lc-paste"), (self.load_button, "lc-load"), (self.example, "lc-example"),
                       (self.seed, "lc-seed"), (self.picture, "lc-position"), (self.chart, "lc-chart"),
                       (self.detail, "lc-detail"), (self.detail_text, "lc-lines")):
            w.add_class(cls)

        self.position: Position | View | None = None  # what Analyze will analyze
        self.result: Analysis | None = None  # the last Analysis
        self.outcomes: np.ndarray | None = None  # the last picked turn's outcome samples
        self.lines: list[dict[str, Any]] = []  # the last endgame principal lines
        self._full: Position | None = None  # a pasted full position, until a widget is edited
        self._seat = 0
        self._loading = False

        for w in (self.colors, self.hand, self.my_expeditions, self.opp_expeditions, self.discards,
                  self.opp_known, self.deck):
            w.observe(self._on_edit, names="value")
        self.load_button.on_click(lambda _b: self._safely(self.load, self.paste.value))
        self.example.observe(lambda ch: self._safely(self._on_example, ch), names="value")
        self.analyze_button.on_click(lambda _b: self._safely(self.analyze))
        self.turn.observe(lambda ch: self._safely(self.show_turn, ch["new"]), names="value")

        self.widget = W.VBox([
            W.HTML("<h3>What should I play here?</h3>"),
            W.HBox([self.example, self.colors, self.deck]),
            self.hand, self.my_expeditions, self.opp_expeditions, self.discards, self.opp_known,
            W.HBox([self.paste, self.load_button], layout=W.Layout(width="98%")),
            self.message, self.picture,
            W.HBox([self.time_budget, self.seed, self.analyze_button]),
            self.table, self.chart, self.turn, self.detail_text, self.detail,
        ])
        if source is not None:
            self.load(source)

    def _safely(self, fn: Any, *args: Any) -> None:
        """Run a button or selection handler; an unexpected failure becomes a message, not a
        silent traceback in the widget log."""
        try:
            fn(*args)
        except Exception as exc:
            self.message.value = _message("error", f"Something went wrong: {type(exc).__name__}: {exc}")

    # --- building the position ---------------------------------------------------------------

    def load(self, source: str | dict | Position | View) -> None:
        """Fill the widgets from a string, JSON, ``example:NAME``, ``Position`` or ``View``."""
        try:
            if isinstance(source, str) and not source.strip():
                raise PositionError("nothing to load: paste a one-line LC1;... string or a JSON position")
            obj = read_position(source)
            view = mover_view(obj)
        except (PositionError, ValueError) as exc:
            self.message.value = _message("error", f"Cannot load: {exc}")
            return
        self._loading = True
        try:
            self._seat = view.viewer
            self.colors.value = view.colors
            self.hand.value = _cards_text(view.hand)
            self.my_expeditions.value = _cards_text(c for pile in view.expeditions[view.viewer] for c in pile)
            self.opp_expeditions.value = _cards_text(c for pile in view.expeditions[1 - view.viewer] for c in pile)
            self.discards.value = _cards_text(c for pile in view.discards for c in pile)
            self.opp_known.value = _cards_text(view.opponent_known)
            self.deck.value = view.deck_count
        finally:
            self._loading = False
        self._full = obj if isinstance(obj, Position) else None
        self.position = obj if isinstance(obj, Position) else view
        self._clear_results()
        kind = "full position (both hands and the deck known)" if self._full is not None else "player's view"
        self.message.value = _message("ok", f"Loaded a {kind}: player {view.to_move} to move, "
                                             f"{view.deck_count} cards in the draw pile.")
        self._draw()

    def build(self) -> View:
        """The view described by the widgets; raises ``PositionError`` naming the problem."""
        rules = Rules(colors=int(self.colors.value))
        seat = self._seat
        nc = rules.colors
        exps: list[list[Card]] = [[], []]
        exps[seat] = as_cards(_split(self.my_expeditions.value), nc, "my expeditions")
        exps[1 - seat] = as_cards(_split(self.opp_expeditions.value), nc, "opponent's expeditions")
        return View.from_parts(as_cards(_split(self.hand.value), nc, "my hand"), opponent_count=rules.hand_size,
                               deck_count=int(self.deck.value),
                               opponent_known=as_cards(_split(self.opp_known.value), nc, "opponent's known cards"),
                               expeditions=exps, discards=as_cards(_split(self.discards.value), nc, "discards"),
                               rules=rules, viewer=seat, to_move=seat)

    def _on_edit(self, _change: Any) -> None:
        if self._loading:
            return
        self._full = None
        self._clear_results()
        try:
            self.position = self.build()
        except Exception as exc:
            self.position = None
            self.message.value = _message("error", f"This position is not valid: {exc}")
            self.picture.value = ""
            return
        self.message.value = _message("ok", f"Valid view: {self.position.deck_count} cards in the draw pile, "
                                             f"{self.position.split_count():,} ways the unseen cards can lie.")
        self._draw()

    def _on_example(self, change: Any) -> None:
        if change["new"] in EXAMPLES:
            self.load(f"example:{change['new']}")

    def _draw(self) -> None:
        if self.position is None:
            self.picture.value = ""
            return
        try:
            self.picture.value = f'<div class="lc-picture">{_svg_of(self.position)}</div>'
        except Exception as exc:
            self.picture.value = _message("note", f"(no picture: {exc})")

    def _clear_results(self) -> None:
        self.result = None
        self.outcomes = None
        self.lines = []
        self.table.value = ""
        self.turn.options = []
        self.chart.clear_output()
        self.detail.clear_output()
        self.detail_text.value = ""

    # --- analysis --------------------------------------------------------------------------------

    def analyze(self) -> None:
        """What the Analyze button does: rank every turn, show the table and the chart."""
        self._clear_results()
        if self.position is None:
            self.message.value = _message("error", "Nothing to analyze: fix the position first "
                                                   "(see the message above).")
            return
        try:
            res = explorer.analyze(self.position, time_budget=float(self.time_budget.value), seed=int(self.seed.value))
        except (PositionError, ValueError) as exc:
            self.message.value = _message("error", f"Cannot analyze: {exc}")
            return
        self.result = res
        self.message.value = _message("ok", f"{len(res.moves)} legal turns ranked ({res.kind}"
                                             f"{', exact' if res.exact else ', estimates ± standard error'}).")
        self.table.value = (f'<div class="lc-ranked" style="max-height:420px;overflow:auto">'
                            f'{res._repr_html_()}</div>')
        with self.chart:
            display(figures.move_values_chart(res))
        self.turn.options = [m.move for m in res.moves]
        if res.moves:
            self.turn.value = res.moves[0].move  # shows what follows the best turn

    def show_turn(self, move: str | None) -> None:
        """What follows a turn: the distribution of outcomes, and in the endgame the solver's lines."""
        self.detail.clear_output()
        self.detail_text.value = ""
        self.outcomes = None
        self.lines = []
        if not move or self.result is None or self.position is None:
            return
        mv = next((m for m in self.result.moves if m.move == move), None)
        try:
            samples = mv.extra.get("samples") if mv is not None else None
            if samples is None:
                samples = explorer.move_outcomes(self.position, move, worlds=max(20, int(60 * self.time_budget.value)),
                                          seed=int(self.seed.value))
            self.outcomes = samples
            notes = []
            if self._full is not None and self._full.deck_count <= ENDGAME_CARDS:
                self.lines = explorer.endgame_lines(self._full, move)
                notes.append("<b>Solver's principal lines</b>: perfect-information values (both hands "
                                 "known, as in the loaded position; no more discard-pile draws), for the "
                                 "player to move now:<ul>" + "".join(
                        f"<li>p={ln['probability']:.2f}, value {ln['value']:+.1f}: "
                        f"<code>{html.escape(ln['line'])}</code></li>"
                        for ln in self.lines) + "</ul>")
            self.detail_text.value = "".join(notes)
        except (PositionError, ValueError) as exc:
            self.detail_text.value = _message("error", f"Cannot follow {move}: {exc}")
            return
        with self.detail:
            display(figures.outcome_histogram(samples, move))

    def _ipython_display_(self) -> None:
        display(self.widget)


class WagerExplorer:
    """Sliders for one expedition: numbers held, wagers held, draws left, unseen cards; shows the
    exact score distribution and the expected value of each number of wagers (canonical model).

    Widgets: ``held`` (numbers in hand), ``placed`` (numbers already on the expedition),
    ``hand_wagers``, ``draws``, ``unseen_total``. Results: ``result`` (a ``WagerAnalysis``),
    ``table`` (HTML), ``message``, ``out`` (the charts).
    """

    def __init__(self, held: tuple[int, ...] = (7, 8, 9), hand_wagers: int = 1, draws: int = 10,
                 unseen_total: int = 52) -> None:
        self.held = W.SelectMultiple(options=list(range(2, 11)), value=tuple(held), description="held",
                                     rows=9, layout=W.Layout(width="160px"))
        self.placed = W.SelectMultiple(options=list(range(2, 11)), value=(), description="placed",
                                       rows=9, layout=W.Layout(width="160px"))
        self.hand_wagers = W.IntSlider(value=hand_wagers, min=0, max=3, description="wagers held")
        self.draws = W.IntSlider(value=draws, min=0, max=44, description="draws left")
        self.unseen_total = W.IntSlider(value=unseen_total, min=1, max=64, description="unseen cards")
        self.message = W.HTML()
        self.table = W.HTML()
        self.result: WagerAnalysis | None = None
        self.out = W.interactive_output(self._show, {
            "held": self.held, "placed": self.placed, "hand_wagers": self.hand_wagers,
            "draws": self.draws, "unseen_total": self.unseen_total})
        self.widget = W.VBox([
            W.HTML("<h3>What is a wager worth?</h3>"),
            W.HBox([self.held, self.placed,
                    W.VBox([self.hand_wagers, self.draws, self.unseen_total, self.message, self.table])]),
            self.out,
        ])

    def _show(self, held: tuple[int, ...], placed: tuple[int, ...], hand_wagers: int, draws: int,
              unseen_total: int) -> None:
        from lcanalysis.wagers.canonical import wager_distribution

        self.result = None
        self.table.value = ""
        try:
            res = wager_distribution(hand=list(held), hand_wagers=int(hand_wagers), draws=int(draws),
                                     placed=list(placed), unseen_total=int(unseen_total), exact=False)
        except ValueError as exc:
            self.message.value = _message("error", str(exc))
            return
        self.result = res
        best = res.best_wagers
        marg = ", ".join(f"wager {i + 1}: {float(m):+.1f}" for i, m in enumerate(res.marginals))
        self.message.value = _message("ok", f"Best: {best} wager(s), mean {float(res.outcome(best).mean):+.1f}. "
                                             + (f"Value of each extra wager: {marg}." if marg else
                                                "No wager can be placed (a number is down or none held)."))
        self.table.value = res._repr_html_()
        display(figures.score_distribution_chart(res))
        display(figures.wager_means_chart(res))

    def _ipython_display_(self) -> None:
        display(self.widget)


def position_picture(obj: Position | View) -> SVG:
    """The SVG picture of a position or view, for ``display``."""
    return SVG(_svg_of(obj))
