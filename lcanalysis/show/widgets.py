"""Interactive explorers for notebooks and Voila: "what should I play here?" and "what is a wager worth?".

The classes only wire widgets to ``lcanalysis`` functions (``studies.explorer.analyze``,
``studies.explorer.move_outcomes``, ``studies.explorer.built_view``, ``game.records``,
``wagers.canonical.wager_distribution``, ``figures``); bad input shows a message, never a
traceback. Every widget is an attribute, so a test can set values, press buttons
(``explorer.analyze_button.click()``) and read ``explorer.result`` and ``explorer.table.value``::

    ex = DecisionExplorer()
    ex.load("example:midround")
    ex.time_budget.value = 0.5
    ex.analyze_button.click()
    ex.result.best            # the best turn, a MoveValue

The explorer holds a ``PositionBuilder`` (``ex.builder``: a position built by clicking cards)
and a ``RecordReplay`` (``ex.replay``: a game record stepped through turn by turn).
"""

from __future__ import annotations

import html
import re
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from numbers import Real
from typing import Any

import ipywidgets as W
import numpy as np
from IPython.display import display

from lcanalysis.advisor import ENDGAME_CARDS as SEARCH_CARDS
from lcanalysis.advisor import FULL_POSITION_ENDGAME_CARDS, hint_view, near_end_misjudgment, playout_policy_in_words
from lcanalysis.analysis import Analysis, loss_in_words, place_in_words
from lcanalysis.game.cards import COLOR_LETTERS, FIVE_COLOUR_GAME, SIX_COLOUR_GAME, Buried, Card, whole_number
from lcanalysis.game.examples import EXAMPLES
from lcanalysis.game.notation import mover_view, read_position
from lcanalysis.game.position import Position, PositionError, as_cards
from lcanalysis.game.records import RoundRecord
from lcanalysis.game.rules import Rules
from lcanalysis.game.view import View
from lcanalysis.options import check_seed
from lcanalysis.show import figures
from lcanalysis.show.palette import BY_LETTER
from lcanalysis.studies import explorer
from lcanalysis.wagers.canonical import WagerAnalysis

ENDGAME_CARDS = 5  # principal lines are offered when the draw pile holds at most this many cards
RANK_NAMES = ("w", "2", "3", "4", "5", "6", "7", "8", "9", "10")
MIN_TIME, MAX_TIME, MAX_SEED = 0.2, 10.0, 2**31 - 1  # the explorer's time slider and seed box
MAX_DRAWS = 56  # the wager explorer's draws slider: the 6-colour game's draw pile after the deal



def _card_look(letter: str) -> dict[str, Any]:
    """A card button's size and look: drawn as the cards are (``show.palette``: fill, outline, ink)."""
    look = BY_LETTER.get(letter, BY_LETTER["W"])
    return {"layout": W.Layout(width="46px", padding="0", border=f"1px solid {look.edge}"),
            "style": {"button_color": look.fill, "text_color": look.ink}}

def _cards_text(cards: Any) -> str:
    return " ".join(str(c) for c in cards)


def _split(text: str) -> list[str]:
    return [t for t in re.split(r"[\s,;.]+", text.strip()) if t]


def _message(kind: str, text: str) -> str:
    colour = {"error": "#a61b1b", "note": "#555555", "ok": "#1d6b2a"}[kind]
    return f'<div class="lc-message lc-{kind}" style="color:{colour}">{html.escape(text)}</div>'


def _in_menu_words(text: str, menu: str) -> str:
    """A reader's message as a widget says it: the way to ask for the other number of colours in
    the notations (``cards.SIX_COLOUR_GAME``, ``FIVE_COLOUR_GAME``: the one-line string, JSON,
    Python, the command line), which a widget's boxes do not take, becomes the widget's own colour
    choice, ``menu`` with the number filled in ("choose {} in the colours menu above")."""
    for colors, how in ((6, SIX_COLOUR_GAME), (5, FIVE_COLOUR_GAME)):
        text = text.replace(f"give {how}", menu.format(colors))
    return text


def _within(name: str, value: Any, least: float, most: float, unit: str, whole: bool = False) -> Any:
    """Refuse a constructor's value its slider or box would quietly clamp (the widget showing one
    number, another part using the one given), naming the option and its range. Returns it as the
    widget takes it: an ``int`` (numpy's integers too, which a slider refused) or a ``float``."""
    number: Any = whole_number(value) if whole else \
        (float(value) if isinstance(value, Real) and not isinstance(value, (bool, np.bool_)) else None)
    if number is None or not least <= number <= most:
        low, high = (f"{x:g}" if isinstance(x, float) else str(x) for x in (least, most))
        raise ValueError(f"{name} must be {unit} from {low} to {high}, got {value!r}")
    return number


def _ranked(res: Analysis) -> str:
    """The Analyze buttons' answer in words: how many turns, which kind of number (exact or an
    estimate with its standard error), and how many the endgame search only bounded."""
    kind = ", exact" if res.exact else ", estimates ± standard error"
    bounded = sum(m.upper_bound for m in res.moves)  # the endgame search proved these worse, no more
    if bounded:
        kind += f"; {bounded} turn(s) only shown worse than the best: a bound (≤), not a value"
    return f"{len(res.moves)} legal turns ranked ({res.kind}{kind})."


@contextmanager
def _working(message: W.HTML, button: W.Button, position: Position | View,
             lines: list[str], head: str | None = None) -> Iterator[Callable[[str], None]]:
    """While an Analyze button's advisor works: a note in ``message`` saying what it is doing
    (``head``, by default said from ``position``), with each stage of the endgame search or the
    play-outs appended to ``lines`` and shown as it is reported (the advisor's ``progress``), and
    the button disabled until the answer comes. The tutor's board shows its judging this way too."""
    n = position.deck_count
    if head is None and n <= (FULL_POSITION_ENDGAME_CARDS if isinstance(position, Position) else SEARCH_CARDS):
        head = (f"Analyzing: {n} card(s) left in the draw pile, so the endgame search answers, stage by "
                f"stage (each stage allows one more discard-pile draw); this can take a while.")
    elif head is None:
        head = "Analyzing: playing the round out in sampled worlds for every turn..."
    lines.clear()

    def show() -> None:
        items = "".join(f"<li><code>{html.escape(line)}</code></li>" for line in lines)
        message.value = (f'<div class="lc-message lc-note lc-progress" style="color:#555555">'
                         f'{html.escape(head)}{f"<ul>{items}</ul>" if items else ""}</div>')

    def progress(line: str) -> None:
        lines.append(line)
        show()

    was = button.disabled
    button.disabled = True
    show()
    try:
        yield progress
    finally:
        button.disabled = was


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
    ``time_budget`` and ``seed`` for the analysis (the replay's too).
    Results: ``result`` (an ``Analysis``), ``table`` (HTML of the ranked turns), ``chart``,
    ``turn`` (pick a turn) and ``detail`` (what follows it: outcome distribution, endgame lines),
    ``message`` (errors and notes; while Analyze works, what it is doing and each stage of the
    endgame search as it is reported, also kept in ``progress_lines``), ``picture`` (the position drawn).
    ``builder``: the same position built by clicking cards (``PositionBuilder``; its button loads the
    built view here and presses Analyze). ``replay``: a game record stepped through
    (``RecordReplay``, loaded from ``record``; its "Open in the explorer" loads the step here).
    """

    def __init__(self, source: str | dict | Position | View | None = "example:midround",
                 time_budget: float = 0.5, seed: int = 0, record: Any = None) -> None:
        time_budget = _within("time_budget", time_budget, MIN_TIME, MAX_TIME, "seconds")
        seed = check_seed("seed", seed, most=MAX_SEED)
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
        self.time_budget = W.FloatSlider(value=time_budget, min=MIN_TIME, max=MAX_TIME, step=0.1,
                                         description="time (s)")
        self.seed = W.BoundedIntText(value=seed, min=0, max=MAX_SEED, description="seed")
        self.analyze_button = W.Button(description="Analyze", button_style="primary", icon="search")
        self.message = W.HTML()
        self.picture = W.HTML()
        self.table = W.HTML()
        self.chart = W.Output()
        self.turn = W.Dropdown(options=[], description="turn")
        self.detail = W.Output()
        self.detail_text = W.HTML()
        self.builder = PositionBuilder(on_use=lambda view: self._safely(self._use_built, view))
        self.replay = RecordReplay(record, time_budget=time_budget, seed=seed,
                                   on_open=lambda obj: self._safely(self.load, obj))
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
        self.progress_lines: list[str] = []  # the stages the last analysis reported (endgame search, play-outs)
        self._full: Position | None = None  # a pasted full position, until a widget is edited
        self._seat = 0
        self._loading = False

        for w in (self.colors, self.hand, self.my_expeditions, self.opp_expeditions, self.discards,
                  self.opp_known, self.deck):
            w.observe(self._on_edit, names="value")
        self.load_button.on_click(lambda _b: self._safely(self.load, self.paste.value))
        self.example.observe(lambda ch: self._safely(self._on_example, ch), names="value")
        self.analyze_button.on_click(lambda _b: self._safely(self.analyze))
        # the replay's "Analyze this decision" thinks as long as the sliders here say
        self.time_budget.observe(lambda ch: setattr(self.replay, "time_budget", float(ch["new"])), names="value")
        self.seed.observe(lambda ch: setattr(self.replay, "seed", int(ch["new"])), names="value")
        self.turn.observe(lambda ch: self._safely(self.show_turn, ch["new"]), names="value")

        self.sections = self._sections()  # 0: the position builder, 1: the record replay
        self.widget = W.VBox([
            W.HTML("<h3>What should I play here?</h3>"),
            W.HBox([self.example, self.colors, self.deck]),
            self.hand, self.my_expeditions, self.opp_expeditions, self.discards, self.opp_known,
            W.HBox([self.paste, self.load_button], layout=W.Layout(width="98%")),
            self.sections,
            self.message, self.picture,
            W.HBox([self.time_budget, self.seed, self.analyze_button]),
            self.table, self.chart, self.turn, self.detail_text, self.detail,
        ])
        if source is not None:
            self.load(source)

    def _sections(self) -> W.Accordion:
        sections = W.Accordion(children=[self.builder.widget, self.replay.widget])
        sections.set_title(0, "Build the position by clicking cards")
        sections.set_title(1, "Replay a game record, turn by turn")
        sections.selected_index = 0
        sections.add_class("lc-sections")
        return sections

    def _use_built(self, view: View) -> None:
        """The builder's button: load the built view and analyze it (not when it cannot be loaded:
        the explorer would answer for the position loaded before)."""
        if self.load(view):
            self.analyze()

    def _safely(self, fn: Any, *args: Any) -> None:
        """Run a button or selection handler; an unexpected failure becomes a message, not a
        silent traceback in the widget log."""
        try:
            fn(*args)
        except Exception as exc:
            self.message.value = _message("error", f"Something went wrong: {type(exc).__name__}: {exc}")

    # --- building the position ---------------------------------------------------------------

    def load(self, source: str | dict | Position | View) -> bool:
        """Fill the widgets from a string, JSON, ``example:NAME``, ``Position`` or ``View``; False
        (and a message naming the problem, the last good position kept) when it cannot be read."""
        try:
            if isinstance(source, str) and not source.strip():
                raise PositionError("nothing to load: paste a one-line LC1;... string or a JSON position")
            obj = read_position(source)
            view = mover_view(obj)
        except (PositionError, ValueError) as exc:
            if not self._replay_record(source):
                self.message.value = _message("error", f"Cannot load: {exc}")
            return False
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
            name = source.strip().removeprefix("example:") if isinstance(source, str) else ""
            self.example.value = name if name in EXAMPLES else "(choose)"  # not an example loaded before
        finally:
            self._loading = False
        self._full = obj if isinstance(obj, Position) else None
        self.position = obj if isinstance(obj, Position) else view
        self._clear_results()
        self.builder.load(view)  # the builder starts from the loaded table
        kind = "full position (both hands and the deck known)" if self._full is not None else "player's view"
        self.message.value = _message("ok", f"Loaded a {kind}: player {view.to_move} to move, "
                                             f"{view.deck_count} cards in the draw pile.")
        self._draw()
        return True

    def _replay_record(self, source: Any) -> bool:
        """A game record given where a position goes: loaded into the record replay, which is
        opened, and said in the message (the position shown stays); False when it is not one."""
        if isinstance(source, (Position, View)):
            return False
        try:
            explorer.record_rounds(source)
        except (PositionError, ValueError):
            return False
        self.replay.load(source)
        self.sections.selected_index = 1
        self.message.value = _message("note", "This is a game record, not a position: it is loaded in 'Replay a "
                                              "game record, turn by turn' above. Step to a turn there and press "
                                              "'Open in the explorer' to analyze that position here.")
        return True

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
                               expeditions=exps, discards=_split(self.discards.value),
                               rules=rules, viewer=seat, to_move=seat,
                               explain_draw_step=False)  # (the builder has no draw step)

    def _on_edit(self, _change: Any) -> None:
        if self._loading:
            return
        self._full = None
        self._clear_results()
        if self.example.value != "(choose)":  # the menu no longer names what is shown; picking it again reloads it
            self._loading = True
            try:
                self.example.value = "(choose)"
            finally:
                self._loading = False
        try:
            self.position = self.build()
        except Exception as exc:
            self.position = None
            self.message.value = _message("error", "This position is not valid: " + _in_menu_words(
                str(exc), "choose {} in the colours menu above"))
            self.picture.value = ""
            return
        self.message.value = _message("ok", f"Valid view: {self.position.deck_count} cards in the draw pile, "
                                             f"{self.position.split_count():,} ways the unseen cards can lie.")
        self._draw()

    def _on_example(self, change: Any) -> None:
        if change["new"] in EXAMPLES and not self._loading:
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
            with _working(self.message, self.analyze_button, self.position, self.progress_lines) as progress:
                res = explorer.analyze(self.position, time_budget=float(self.time_budget.value),
                                       seed=int(self.seed.value), progress=progress)
        except (PositionError, ValueError) as exc:
            self.message.value = _message("error", f"Cannot analyze: {exc}")
            return
        self.result = res
        self.message.value = _message("ok", _ranked(res))
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
            title = None
            notes = []
            if samples is None:
                # a full position's worlds keep the opponent's known hand, as its analysis did
                source = hint_view(self.position)[0] if isinstance(self.position, Position) else self.position
                # the advisor's play-outs: the policy its answer played, else its default at these cards left
                policy = explorer.outcomes_policy(source, self.result.playout_policy)
                samples = explorer.move_outcomes(source, move, worlds=max(20, int(60 * self.time_budget.value)),
                                                 seed=int(self.seed.value), playout_policy=policy)
                if self.result.kind == "advisor estimate":  # the same play-outs the table's value averages
                    title = f"What follows {move}: the advisor's play-outs in {len(samples)} of its sampled worlds"
                    notes.append(_message("note", f"The distribution below is of the advisor's own play-outs after "
                                                  f"{move}, in the first {len(samples)} of the worlds it sampled: "
                                                  f"their mean estimates the table's value of the turn (which "
                                                  f"averages every world the turn was played in)."))
                else:  # not the numbers the table ranks by (the endgame search's, say): the figure must say so
                    title = f"What follows {move}: play-outs of {playout_policy_in_words(policy)} over " \
                            f"{len(samples)} sampled worlds"
                    notes.append(_message("note", f"The distribution below is of play-outs of "
                                                  f"{playout_policy_in_words(policy)} after {move}, not the "
                                                  f"{self.result.kind} the table gives: its mean can differ from the "
                                                  f"table's value (near the round's end by much: "
                                                  f"{near_end_misjudgment(policy)})."))
            self.outcomes = samples
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
            display(figures.outcome_histogram(samples, move, title=title))

    def _ipython_display_(self) -> None:
        display(self.widget)


# --- the position builder: cards picked by clicks ------------------------------------------------

#: Where a picked card goes: (label, key).
TARGETS = (("my hand", "hand"), ("my expeditions", "mine"), ("opponent's expeditions", "theirs"),
           ("discard piles", "discards"), ("opponent holds (known)", "known"))


class PositionBuilder:
    """A position built by clicking, no typing: choose where cards go (``target``), click cards of
    the ``palette``; click a placed card (``shown[target]``) to take it back, ``undo_button`` takes
    back the last pick. Discard piles: the cards picked of a colour are its known cards, the last
    one on top; ``buried[letter]`` counts the cards nobody remembers beneath them. ``deck_auto``
    (on) puts every other card in the draw pile, else ``deck`` says how many; ``seat`` (player 0
    or 1) and ``to_move`` ("me" or "opp") say who is who.

    Every change is checked by the library (``studies.explorer.built_view``, i.e. the readers'
    ``View.from_parts``): ``view`` is the valid view or None, and ``message`` says in words what
    is still wrong. ``use_button`` hands ``view`` to ``on_use`` (the explorer: load and Analyze).
    """

    def __init__(self, colors: int = 5, on_use: Any = None) -> None:
        self.on_use = on_use
        self.cards: dict[str, list[str]] = {key: [] for _label, key in TARGETS}
        self._picks: list[tuple[str, str]] = []  # (target, card), oldest first, for Undo
        self._quiet = False
        self.colors = W.ToggleButtons(options=[("5 colours", 5), ("6 colours", 6)], value=colors,
                                      description="game", style={"button_width": "90px"})
        self.target = W.ToggleButtons(options=list(TARGETS), value="hand", description="put into",
                                      style={"button_width": "170px"})
        self.seat = W.ToggleButtons(options=[("player 0", 0), ("player 1", 1)], value=0, description="I am",
                                    style={"button_width": "90px"})
        self.to_move = W.ToggleButtons(options=[("me", "me"), ("the opponent", "opp")], value="me",
                                       description="to move", style={"button_width": "110px"})
        self.deck_auto = W.Checkbox(value=True, description="every other card is in the draw pile", indent=False)
        self.deck = W.BoundedIntText(value=44, min=0, max=12 * len(COLOR_LETTERS), description="deck",
                                     disabled=True, layout=W.Layout(width="160px"))
        self.buried = {letter: W.BoundedIntText(value=0, min=0, max=11, description=f"{letter}? beneath",
                                                layout=W.Layout(width="150px"))
                       for letter in COLOR_LETTERS}
        self.palette: dict[str, W.Button] = {}
        self.palette_box = W.VBox()
        self.shown: dict[str, W.HBox] = {key: W.HBox(layout=W.Layout(flex_flow="row wrap"))
                                         for _label, key in TARGETS}
        self.undo_button = W.Button(description="Undo", icon="undo", tooltip="take back the last card picked")
        self.clear_button = W.Button(description="Clear", icon="trash", tooltip="start from an empty table")
        self.use_button = W.Button(description="Analyze this position", button_style="primary", icon="search")
        self.message = W.HTML()
        self.view: View | None = None
        self.buried_box = W.HBox()
        for w, cls in ((self.message, "lc-builder-msg"), (self.use_button, "lc-builder-use"),
                       (self.target, "lc-builder-target"), (self.palette_box, "lc-palette")):
            w.add_class(cls)

        self.colors.observe(lambda _c: self._on_colors(), names="value")
        for w in (self.seat, self.to_move, self.deck_auto, self.deck, *self.buried.values()):
            w.observe(lambda _c: self._update(), names="value")
        self.undo_button.on_click(lambda _b: self.undo())
        self.clear_button.on_click(lambda _b: self.clear())
        self.use_button.on_click(lambda _b: self.use())

        rows = [W.HBox([W.HTML(f"<b>{html.escape(label)}</b>", layout=W.Layout(width="180px")), self.shown[key]])
                for label, key in TARGETS]
        self.widget = W.VBox([
            W.HTML("Choose where cards go, then click cards; click a placed card to take it back."),
            W.HBox([self.colors, self.seat, self.to_move]),
            self.target, self.palette_box, *rows,
            W.HTML("Cards nobody remembers beneath each discard pile's known cards:"), self.buried_box,
            W.HBox([self.deck_auto, self.deck]),
            W.HBox([self.undo_button, self.clear_button, self.use_button]), self.message,
        ])
        self._on_colors()

    # --- picking -----------------------------------------------------------------------------

    def add(self, card: str, target: str | None = None) -> None:
        """Put ``card`` into ``target`` (default: the chosen one): what a palette click does."""
        key = self.target.value if target is None else target
        self.cards[key].append(card)
        self._picks.append((key, card))
        self._update()

    def remove(self, target: str, index: int) -> None:
        """Take back the card at ``index`` of ``target``: what a click on a placed card does."""
        card = self.cards[target].pop(index)
        for i in range(len(self._picks) - 1, -1, -1):
            if self._picks[i] == (target, card):
                del self._picks[i]
                break
        self._update()

    def undo(self) -> None:
        if not self._picks:
            return
        key, card = self._picks.pop()
        cards = self.cards[key]
        del cards[len(cards) - 1 - cards[::-1].index(card)]
        self._update()

    def clear(self) -> None:
        self._quiet = True
        try:
            for cards in self.cards.values():
                cards.clear()
            self._picks.clear()
            for w in self.buried.values():
                w.value = 0
            self.deck_auto.value = True
        finally:
            self._quiet = False
        self._update()

    def load(self, view: View) -> None:
        """Fill the builder from a view (buried pile cards go beneath the known ones)."""
        self._quiet = True
        try:
            self.colors.value = view.colors
            me = view.viewer
            self.cards["hand"] = [str(c) for c in view.hand]
            self.cards["mine"] = [str(c) for pile in view.expeditions[me] for c in pile]
            self.cards["theirs"] = [str(c) for pile in view.expeditions[1 - me] for c in pile]
            self.cards["discards"] = [str(c) for pile in view.discards for c in pile if isinstance(c, Card)]
            self.cards["known"] = [str(c) for c in view.opponent_known]
            self._picks = [(key, card) for key, cards in self.cards.items() for card in cards]
            for c, letter in enumerate(COLOR_LETTERS):
                pile = view.discards[c] if c < view.colors else []
                self.buried[letter].value = sum(1 for card in pile if isinstance(card, Buried))
            self.seat.value = me
            self.to_move.value = "me" if view.to_move == me else "opp"
            self.deck_auto.value = True
        finally:
            self._quiet = False
        self._update()
        if self.view is not None and self.view.deck_count != view.deck_count:
            self._quiet = True
            self.deck_auto.value = False
            self.deck.value = view.deck_count
            self._quiet = False
            self._update()

    def use(self) -> None:
        """Hand the built view to ``on_use`` (the explorer loads it and analyzes it)."""
        if self.view is None:
            self.message.value = _message("error", "Not a valid position yet: see the message above.")
            return
        if self.on_use is not None:
            self.on_use(self.view)

    # --- checking and drawing ----------------------------------------------------------------

    def _on_colors(self) -> None:
        nc = int(self.colors.value)
        rows = []
        self.palette = {}
        for letter in COLOR_LETTERS[:nc]:
            buttons = []
            for rank in RANK_NAMES:
                name = f"{letter}{rank}"
                b = W.Button(description=name, tooltip=f"put {name} into the chosen place",
                             **_card_look(letter))
                b.add_class("lc-card")
                b.on_click(lambda _b, name=name: self.add(name))
                self.palette[name] = b
                buttons.append(b)
            rows.append(W.HBox(buttons))
        self.palette_box.children = rows
        self.buried_box.children = [self.buried[letter] for letter in COLOR_LETTERS[:nc]]
        self._update()

    def _update(self) -> None:
        if self._quiet:
            return
        self._show_cards()
        self.deck.disabled = bool(self.deck_auto.value)
        me = int(self.seat.value)
        parts: dict[str, Any] = {
            "colors": int(self.colors.value), "hand": self.cards["hand"], "my_expeditions": self.cards["mine"],
            "opp_expeditions": self.cards["theirs"], "discards": self.cards["discards"],
            "buried": {letter: int(w.value) for letter, w in self.buried.items()
                       if letter in COLOR_LETTERS[:int(self.colors.value)] and w.value},
            "opponent_known": self.cards["known"], "seat": me,
            "to_move": me if self.to_move.value == "me" else 1 - me,
            "deck": None if self.deck_auto.value else int(self.deck.value)}
        if self.deck_auto.value:
            placed = (len(self.cards["mine"]) + len(self.cards["theirs"]) + len(self.cards["discards"])
                      + sum(parts["buried"].values()))
            self._quiet = True
            try:
                self.deck.value = max(0, explorer.implied_deck_count(parts["colors"], placed, len(self.cards["hand"])))
            finally:
                self._quiet = False
        try:
            self.view = explorer.built_view(**parts)
        except (PositionError, ValueError) as exc:
            self.view = None
            self.message.value = _message("error", "Not valid yet: " + _in_menu_words(
                str(exc), "press '{} colours' beside 'game' above"))
            return
        waiting = ("; the opponent is to move: it can be shown, not advised or solved (they answer the mover)"
                   if self.view.to_move != self.view.viewer else "")
        self.message.value = _message("ok", f"Valid view: {self.view.deck_count} cards in the draw pile, "
                                             f"{self.view.split_count():,} ways the unseen cards can lie{waiting}.")

    def _show_cards(self) -> None:
        for key, box in self.shown.items():
            buttons = []
            for i, name in enumerate(self.cards[key]):
                b = W.Button(description=name, tooltip=f"take {name} back", **_card_look(name[:1]))
                b.add_class("lc-placed")
                b.on_click(lambda _b, key=key, i=i: self.remove(key, i))
                buttons.append(b)
            box.children = buttons

    def _ipython_display_(self) -> None:
        display(self.widget)


# --- replaying a game record ------------------------------------------------------------------


class RecordReplay:
    """A game record (``lcanalysis.game.records``: JSON, the ``LCR1`` text form, a file, or a
    record object) stepped through turn by turn.

    ``paste`` + ``load_button`` (or ``load(source)``) read it; ``round`` picks a round of a match;
    ``first_button``, ``back_button``, ``forward_button``, ``last_button`` and the ``step`` slider
    (turns played so far) move through it. ``position`` is the state after ``step.value`` turns
    (``RoundRecord.state``: a ``Position`` for a full-deal record, the recording player's ``View``
    for a one-player record), drawn in ``picture``; ``status`` names the next turn. On demand
    (``analyze_button``) the advisor ranks the turns of that decision (``studies.explorer.analyze``,
    from the mover's view): ``result``, ``table``, and ``verdict`` (the played turn's rank and its
    loss against the best); while it works, ``message`` names each stage of the endgame search
    (``progress_lines``). ``open_button`` hands the position to ``on_open`` (the explorer).
    """

    def __init__(self, source: Any = None, time_budget: float = 0.5, seed: int = 0, on_open: Any = None) -> None:
        self._check_budget(time_budget, seed)
        self.on_open = on_open
        self.time_budget = time_budget
        self.seed = seed
        self.rounds: list[RoundRecord] = []
        self.result: Analysis | None = None
        self.progress_lines: list[str] = []  # the stages the last analysis reported (endgame search, play-outs)
        self.paste = W.Textarea(placeholder="paste a game record (JSON or the LCR1 text form) or a file's path, "
                                            "then Load record", layout=W.Layout(width="98%", height="4em"))
        self.load_button = W.Button(description="Load record")
        self.round = W.Dropdown(options=[], description="round")
        self.first_button = W.Button(description="start", icon="fast-backward", layout=W.Layout(width="90px"))
        self.back_button = W.Button(description="back", icon="step-backward", layout=W.Layout(width="90px"))
        self.forward_button = W.Button(description="forward", icon="step-forward", layout=W.Layout(width="100px"))
        self.last_button = W.Button(description="end", icon="fast-forward", layout=W.Layout(width="90px"))
        self.step = W.IntSlider(value=0, min=0, max=0, description="turns played")
        self.analyze_button = W.Button(description="Analyze this decision", button_style="primary", icon="search")
        self.open_button = W.Button(description="Open in the explorer", icon="external-link",
                                    layout=W.Layout(display="" if on_open is not None else "none"))
        self.message = W.HTML()
        self.status = W.HTML()
        self.picture = W.HTML()
        self.verdict = W.HTML()
        self.table = W.HTML()
        for w, cls in ((self.message, "lc-replay-msg"), (self.status, "lc-replay-status"),
                       (self.forward_button, "lc-replay-forward"), (self.back_button, "lc-replay-back"),
                       (self.analyze_button, "lc-replay-analyze"), (self.table, "lc-replay-table"),
                       (self.picture, "lc-replay-position")):
            w.add_class(cls)

        self.load_button.on_click(lambda _b: self._safely(self.load, self.paste.value))
        self.round.observe(lambda _c: self._safely(self._on_round), names="value")
        self.first_button.on_click(lambda _b: self.go(0))
        self.back_button.on_click(lambda _b: self.go(self.step.value - 1))
        self.forward_button.on_click(lambda _b: self.go(self.step.value + 1))
        self.last_button.on_click(lambda _b: self.go(self.step.max))
        self.step.observe(lambda _c: self._safely(self._show), names="value")
        self.analyze_button.on_click(lambda _b: self._safely(self.analyze))
        self.open_button.on_click(lambda _b: self._safely(self.open))
        self.widget = W.VBox([
            W.HBox([self.paste, self.load_button], layout=W.Layout(width="98%")), self.message,
            W.HBox([self.round, self.first_button, self.back_button, self.forward_button, self.last_button]),
            self.step, self.status, self.picture,
            W.HBox([self.analyze_button, self.open_button]), self.verdict, self.table,
        ])
        if source is not None:
            self.load(source)

    def _safely(self, fn: Any, *args: Any) -> None:
        try:
            fn(*args)
        except Exception as exc:
            self.message.value = _message("error", f"Something went wrong: {type(exc).__name__}: {exc}")

    @staticmethod
    def _check_budget(time_budget: Any, seed: Any) -> None:
        """The explorer's ranges for the replay's thinking (its sliders set them when it holds one)."""
        _within("time_budget", time_budget, MIN_TIME, MAX_TIME, "seconds")
        check_seed("seed", seed, most=MAX_SEED)

    @property
    def record(self) -> RoundRecord | None:
        """The round being replayed."""
        return self.rounds[self.round.value - 1] if self.rounds and self.round.value else None

    @property
    def position(self) -> Position | View | None:
        """The state after ``step.value`` turns of the round (a copy)."""
        rec = self.record
        return None if rec is None else rec.state(self.step.value)

    def load(self, source: Any) -> None:
        """Read a record (``studies.explorer.record_rounds``); a bad one leaves a message and the
        last good record in place."""
        try:
            if isinstance(source, str) and not source.strip():
                raise PositionError("nothing to load: paste a game record or a file's path")
            rounds = explorer.record_rounds(source)
        except (PositionError, ValueError) as exc:
            if not self._open_position(source):
                self.message.value = _message("error", f"Cannot load the record: {exc}")
            return
        self.rounds = rounds
        self.round.options = [(f"round {r}", r) for r in range(1, len(rounds) + 1)]
        self.round.value = 1
        self._on_round()
        turns = sum(len(r) for r in rounds)
        kind = "a full-deal record" if rounds[0].is_full else f"player {rounds[0].viewer}'s record"
        self.message.value = _message("ok", f"Loaded {kind}: {len(rounds)} round(s), {turns} turns.")

    def _open_position(self, source: Any) -> bool:
        """A position given where a record goes: handed to ``on_open`` (the explorer loads it) and
        said in the message, or, with no explorer, where to give it; False when it is not one."""
        try:
            obj = read_position(source)
        except (PositionError, ValueError):
            return False
        if self.on_open is None:
            self.message.value = _message("error", "Cannot load the record: this is a position, not a game record: "
                                                   "give it to the decision explorer's Load box (DecisionExplorer).")
            return True
        self.on_open(obj)
        self.message.value = _message("note", "This is a position, not a game record: it is handed to the explorer "
                                              "above (its message says whether it loaded); the record here stays.")
        return True

    def go(self, k: int) -> None:
        """Show the state after ``k`` turns (clipped to the round)."""
        self.step.value = min(max(int(k), self.step.min), self.step.max)

    def _on_round(self) -> None:
        rec = self.record
        if rec is None:
            return
        self.step.max = len(rec)
        self.step.value = 0
        self._show()

    def _clear(self) -> None:
        self.result = None
        self.verdict.value = ""
        self.table.value = ""

    def _show(self) -> None:
        self._clear()
        rec, k = self.record, self.step.value
        if rec is None:
            return
        state = rec.state(k)
        who = " / ".join(rec.players) if rec.players else ""
        head = f"Round {self.round.value}{f' ({html.escape(who)})' if who else ''}: {k} of {len(rec)} turns played"
        if k < len(rec):
            turn = rec.turns[k]
            drawn = f", drawing {turn.drawn}" if turn.drawn is not None else ""
            text = f"{head}; player {state.to_move} to move; the record's next turn: <code>{turn.move}</code>{drawn}"
        else:
            a, b = rec.scores()
            if rec.is_capped():
                end = f"the turn cap ended the round here: scored as it stands, scores {a} to {b}"
            elif rec.is_finished():
                end = f"the round is over (scores {a} to {b})"
            else:  # a record that stops early: the table's scores, not the round's result
                end = f"the record stops here, before the end of the round (scores so far {a} to {b})"
            text = f"{head}; {end}"
        self.status.value = f"<div>{text}</div>"
        self.picture.value = f'<div class="lc-picture">{_svg_of(state)}</div>'
        self.back_button.disabled = self.first_button.disabled = k == 0
        self.forward_button.disabled = self.last_button.disabled = k == len(rec)
        self.analyze_button.disabled = k == len(rec)

    def analyze(self) -> None:
        """The advisor's ranking of the turns of the current decision, and where the played turn stands."""
        self._clear()
        rec, k = self.record, self.step.value
        if rec is None or k >= len(rec):
            self.message.value = _message("error", "No decision here: step to a turn of the record first.")
            return
        played = rec.turns[k].move
        state = rec.state(k)
        if isinstance(state, View) and state.viewer != state.to_move:
            self.message.value = _message("error", f"Player {state.to_move}'s decision: in player {state.viewer}'s "
                                                   f"record their hand is unknown, so only player {state.viewer}'s "
                                                   f"decisions can be analyzed.")
            return
        try:
            self._check_budget(self.time_budget, self.seed)
            with _working(self.message, self.analyze_button, state, self.progress_lines) as progress:
                res = explorer.analyze(mover_view(state), time_budget=float(self.time_budget),
                                       seed=int(self.seed), progress=progress)
        except (PositionError, ValueError) as exc:
            self.message.value = _message("error", f"Cannot analyze this decision: {exc}")
            return
        self.result = res
        rank, mv = explorer.played_turn(res, played)
        best = res.moves[0]
        if rank == 1:
            words = f"Played {played}: the best of {len(res.moves)} turns."
        elif mv.loss == 0 and mv.exact and best.exact and not mv.upper_bound:  # a tie, listed after the best
            words = (f"Played {played}: tied with the best, {best.move}: worth exactly as much (ties are listed in "
                     f"the canonical order of turns, this one {rank} of {len(res.moves)}).")
        else:  # the loss as the tutor and the review say it: exact, an estimate ± its error, or a bound
            loss = loss_in_words(mv.loss or 0.0, mv.loss_stderr, exact=mv.exact and best.exact, bound=mv.upper_bound)
            why = " (the endgame search showed only that it is worse)" if mv.upper_bound else ""
            words = (f"Played {played}: ranked {place_in_words(res.moves, mv.move)}, a loss of {loss} against the best "
                     f"turn {best.move}{why}.")
        self.verdict.value = _message("ok" if rank == 1 or words.startswith(f"Played {played}: tied") else "note",
                                      words)
        self.table.value = f'<div style="max-height:420px;overflow:auto">{res._repr_html_()}</div>'
        self.message.value = _message("ok", _ranked(res))

    def open(self) -> None:
        if self.on_open is not None and self.position is not None:
            self.on_open(self.position)

    def _ipython_display_(self) -> None:
        display(self.widget)


class WagerExplorer:
    """Sliders for one expedition: numbers held, wagers held, draws left, unseen cards; shows the
    exact score distribution and the expected value of each number of wagers (canonical model).

    Widgets: ``held`` (numbers in hand), ``placed`` (numbers already on the expedition),
    ``hand_wagers``, ``placed_wagers`` (wagers already on the expedition), ``draws`` (up to the
    6-colour game's 56), ``unseen_total``. Results: ``result`` (a ``WagerAnalysis``),
    ``table`` (HTML), ``message``, ``out`` (the charts).
    """

    def __init__(self, held: tuple[int, ...] = (7, 8, 9), hand_wagers: int = 1, draws: int = 10,
                 unseen_total: int = 52) -> None:
        if isinstance(held, (str, bytes)) or not hasattr(held, "__iter__") \
                or any(isinstance(n, bool) or n not in range(2, 11) for n in held):
            raise ValueError(f"held must be numbers of the colour, 2 to 10, got {held!r}")
        hand_wagers = _within("hand_wagers", hand_wagers, 0, 3, "a whole number", whole=True)
        draws = _within("draws", draws, 0, MAX_DRAWS, "a whole number", whole=True)
        unseen_total = _within("unseen_total", unseen_total, 1, 64, "a whole number", whole=True)
        self.held = W.SelectMultiple(options=list(range(2, 11)), value=tuple(int(n) for n in held), description="held",
                                     rows=9, layout=W.Layout(width="160px"))
        self.placed = W.SelectMultiple(options=list(range(2, 11)), value=(), description="placed",
                                       rows=9, layout=W.Layout(width="160px"))
        self.hand_wagers = W.IntSlider(value=hand_wagers, min=0, max=3, description="wagers held")
        self.placed_wagers = W.IntSlider(value=0, min=0, max=3, description="wagers placed")
        self.draws = W.IntSlider(value=draws, min=0, max=MAX_DRAWS, description="draws left")
        self.unseen_total = W.IntSlider(value=unseen_total, min=1, max=64, description="unseen cards")
        self.message = W.HTML()
        self.table = W.HTML()
        self.result: WagerAnalysis | None = None
        self.out = W.interactive_output(self._show, {
            "held": self.held, "placed": self.placed, "hand_wagers": self.hand_wagers,
            "placed_wagers": self.placed_wagers, "draws": self.draws, "unseen_total": self.unseen_total})
        self.widget = W.VBox([
            W.HTML("<h3>What is a wager worth?</h3>"),
            W.HBox([self.held, self.placed,
                    W.VBox([self.hand_wagers, self.placed_wagers, self.draws, self.unseen_total, self.message,
                            self.table])]),
            self.out,
        ])

    def _show(self, held: tuple[int, ...], placed: tuple[int, ...], hand_wagers: int, placed_wagers: int,
              draws: int, unseen_total: int) -> None:
        from lcanalysis.wagers.canonical import wager_distribution

        self.result = None
        self.table.value = ""
        try:
            res = wager_distribution(hand=list(held), hand_wagers=int(hand_wagers), draws=int(draws),
                                     placed=list(placed), placed_wagers=int(placed_wagers),
                                     unseen_total=int(unseen_total), exact=False)
        except ValueError as exc:
            self.message.value = _message("error", str(exc))
            return
        self.result = res
        best = res.best_wagers
        marg = ", ".join(f"wager {i + 1}: {float(m):+.1f}" for i, m in enumerate(res.marginals))
        o = res.outcome(best)
        kind = f"estimate ± {o.stderr:.1f}" if res.sampled else f"exact, {res.model} model"
        self.message.value = _message("ok", f"Best: {best} wager(s), mean {float(o.mean):+.1f} ({kind}). "
                                             + (f"Value of each extra wager: {marg}." if marg else
                                                "No wager can be placed (a number is down or none held)."))
        self.table.value = res._repr_html_()
        display(figures.score_distribution_chart(res))
        display(figures.wager_means_chart(res))

    def _ipython_display_(self) -> None:
        display(self.widget)
