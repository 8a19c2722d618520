"""The tutor's board: play a round or a match against an agent by clicking cards.

Only wiring: the game flow and the judgement are ``lcanalysis.tutor.TutorSession``. Pick a card
of your hand, play or discard it, pick where to draw from, press "Play this turn". After each of
your turns the tutor comments when the turn lost more than the threshold; at the end of the round
the list of your decisions with their losses appears.
"""

from __future__ import annotations

import html
from collections.abc import Callable
from typing import Any

import ipywidgets as W

from lcanalysis.game.cards import COLOR_LETTERS
from lcanalysis.show.widgets import _message, _within, _working
from lcanalysis.tutor import TutorSession, judging_note

DECK = "deck"
MAX_THRESHOLD = 15.0  # the threshold slider's end: a turn that loses more is always worth a word


class TutorBoard:
    """``TutorBoard(agent="heuristic", rounds=1, seed=0, threshold=2.0, time_budget=0.5, playout_policy=None)``;
    show it as the last expression of a cell. ``playout_policy``: the policy of the play-outs that judge
    your turns (``options.PLAYOUT_POLICY_CHOICES``: "plain", "stalling", "tuned" or "staged"; ``None``: the
    hint's default, "staged": the plain heuristic while the draw pile holds more than
    ``options.STALLING_FROM_CARDS`` cards, the stalling one from there), as ``TutorSession``'s; a name that
    is none of them is refused at once.

    While a turn is judged, ``comment`` says so, and near the end of a round lists each stage of
    the endgame search as it is reported (``TutorSession(progress=...)``, kept in
    ``progress_lines``), as the explorer's Analyze button does."""

    def __init__(self, agent: str = "heuristic", rounds: int = 1, seed: int = 0, threshold: float = 2.0,
                 time_budget: float = 0.5, playout_policy: str | None = None) -> None:
        _within("threshold", threshold, 0, MAX_THRESHOLD, "points")  # the slider would quietly clamp it
        self._options: dict[str, Any] = {"agent": agent, "rounds": rounds, "seed": seed, "time_budget": time_budget,
                                         "playout_policy": playout_policy}
        self.threshold = W.FloatSlider(value=threshold, min=0.0, max=MAX_THRESHOLD, step=0.5, description="speak at",
                                       tooltip="the tutor comments when a turn loses more points than this")
        self.board = W.HTML(layout=W.Layout(width="100%"))
        self.score = W.HTML()
        self.hand = W.ToggleButtons(description="card", options=[], style={"button_width": "44px"})
        self.place = W.ToggleButtons(description="place", options=[("play", "+"), ("discard", "-")])
        self.source = W.ToggleButtons(description="draw", options=[DECK], style={"button_width": "52px"})
        self.play_button = W.Button(description="Play this turn", button_style="primary")
        self.next_button = W.Button(description="Next round", disabled=True)
        self.new_button = W.Button(description="New game")
        self.comment = W.HTML()
        self.review = W.HTML()
        self.progress = W.HTML()  # how many of your turns are played (a page script waits on it)
        self.progress_lines: list[str] = []  # the stages of the endgame search that judged the last turn
        self._report: Callable[[str], None] | None = None  # where a stage goes while a turn is judged
        for w, cls in ((self.board, "lc-tutor-board"), (self.score, "lc-tutor-score"), (self.hand, "lc-tutor-card"),
                       (self.place, "lc-tutor-place"), (self.source, "lc-tutor-source"),
                       (self.play_button, "lc-tutor-play"), (self.next_button, "lc-tutor-next"),
                       (self.comment, "lc-tutor-comment"), (self.review, "lc-tutor-review"),
                       (self.progress, "lc-tutor-progress")):
            w.add_class(cls)
        self.play_button.on_click(lambda _: self._safely(self.play))
        self.next_button.on_click(lambda _: self._safely(self.next_round))
        self.new_button.on_click(lambda _: self._safely(self.new_game))
        self.threshold.observe(lambda change: setattr(self.session, "threshold", change["new"]), names="value")
        self.widget = W.VBox([
            W.HBox([self.threshold, self.new_button, self.next_button]), self.score, self.board,
            self.hand, self.place, self.source, W.HBox([self.play_button, self.progress]), self.comment, self.review,
        ])
        self.new_game()

    # --- actions -------------------------------------------------------------------------

    def _safely(self, action: Callable[[], None]) -> None:
        """A button's action; a failure is said in ``comment``, never a traceback in the widget log
        (ipywidgets only logs what a click handler raises, and the board would wait on forever). The
        opponent failing to answer (an external bot that crashed, say) is named as such."""
        try:
            action()
        except Exception as exc:
            s = getattr(self, "session", None)
            if s is not None and not s.round_over() and not s.human_to_move():
                what = (f"The opponent ({s.opponent.name}) failed to choose its turn: {type(exc).__name__}: {exc}. "
                        f"Press 'New game' to play again.")
            else:
                what = f"Something went wrong: {type(exc).__name__}: {exc}"
            self.comment.value = _message("error", what)
            if s is not None:
                self._refresh()

    def new_game(self) -> None:
        self.session = TutorSession(threshold=self.threshold.value, progress=self._stage, **self._options)
        self.comment.value = ""
        self.review.value = ""
        self._refresh()

    def choose(self, card: str, place: str = "+", source: str = DECK) -> None:
        """Set the three choices (what a click does; scripts and tests call it too); a choice the
        board does not offer now is refused naming the ones it does (not the widget library's
        "Invalid selection: value not found")."""
        for what, value, offered in (("card", card, self.hand.options), ("place", place, ("+", "-")),
                                     ("source", source, self.source.options)):
            if value not in offered:
                choices = ", ".join(map(repr, offered)) or "none: it is not your turn"
                raise ValueError(f"{what} {value!r} is not offered now; the board offers {choices}"
                                 + (" (+ plays the card, - discards it)" if what == "place" else ""))
        self.hand.value = card
        self.place.value = place
        self.source.value = source

    def play(self) -> None:
        if not self.session.human_to_move():  # the button is disabled then: a script's call
            self.comment.value = _message("error", "The round is over: press 'Next round' or 'New game'."
                                          if self.session.round_over() else "It is not your turn.")
            return
        if self.hand.value is None:
            self.comment.value = _message("error", "Pick a card of your hand first.")
            return
        source = "D" if self.source.value == DECK else self.source.value
        move = f"{self.place.value}{self.hand.value}/{source}"
        view = self.session.view()
        try:  # the button disabled until the judgement comes, the endgame search's stages shown as they come
            with _working(self.comment, self.play_button, view, self.progress_lines,
                          head=judging_note(view.deck_count)) as report:
                self._report = report
                said = self.session.play(move)
        except ValueError as exc:
            self.comment.value = _message("error", str(exc))
            return
        finally:
            self._report = None
            self.play_button.disabled = not self.session.human_to_move()
        last = self.session.decisions[-1]
        self.comment.value = (_message("error", f"Tutor: {said}") if said else
                              _message("ok", f"{move}: {self.session.verdict(last)}"))
        self._refresh()

    def _stage(self, line: str) -> None:
        """The session's ``progress``: a stage of the endgame search, shown while a turn is judged."""
        if self._report is not None:
            self._report(line)

    def next_round(self) -> None:
        self.session.next_round()
        # the comment was about the last turn of the round before: now who starts this one, and the match
        line = self.session.round_start_line()
        self.comment.value = _message("note", line) if line else ""
        self.review.value = ""
        self._refresh()

    # --- drawing -------------------------------------------------------------------------

    def _refresh(self) -> None:
        s = self.session
        view = s.view()
        self.board.value = str(view._repr_svg_())
        self.score.value = f"<b>{html.escape(s.score_line())}</b>"
        legal = s.legal_turns()
        # the hand as the library orders cards (``Card``: colour Y B W G R P, then wager, 2..10), as the
        # board's picture shows it; not as text, where B10 came before B5
        cards = [str(card) for card in sorted({m.card for m in legal if m.card is not None})]
        self.hand.options = cards
        self.hand.value = cards[0] if cards else None
        piles = {m.source for m in legal if m.source != "D"}
        sources = [DECK] + [letter for letter in COLOR_LETTERS if letter in piles]  # colour order, not A-Z
        self.source.options = sources
        self.source.value = DECK
        over = s.round_over()
        self.play_button.disabled = not s.human_to_move()
        self.next_button.disabled = not over or s.match.round_number >= s.rounds
        if over:
            self.review.value = self._review_html()
        self.progress.value = f"your turns played: {len(s.decisions)}"  # last: the board is up to date

    def _review_html(self) -> str:
        frame = self.session.summary()
        flagged = int((frame["tutor"] != "").sum())
        head = (f"<h4 class='lc-review'>Round over: {html.escape(self.session.score_line())}</h4>"
                f"<p>{len(frame)} decisions, {flagged} flagged; {html.escape(self.session.total_loss_text())}. "
                f"A loss is the advisor's estimate ± the paired standard error, or exact, or with \"at least\" "
                f"a bound: the endgame search showed only that the turn is worse.</p>")
        note = self.session.match_note()
        if note:  # in a match: the losses are points of the round
            head += f"<p>{html.escape(note)}.</p>"
        return head + frame.to_html(index=False, classes="lc-review-table")

    def _ipython_display_(self) -> Any:
        from IPython.display import display

        display(self.widget)
