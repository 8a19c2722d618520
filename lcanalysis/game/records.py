"""Game records: a round, or a match of rounds, as it was played (docs/spec/interchange.md "Game records").

A **round record** is a start and the turns played from it, oldest first::

    {"rules": {"colors": 5, "hand_size": 8, "no_redraw": true},
     "start": POSITION,
     "turns": ["+R7/D", "-Bw/G", ...]}

- **Full-deal record**: ``start`` is a full position (both hands, the draw pile top first), usually
  the deal, so every deck draw is known from the pile's order. A turn may still name the card it
  drew (``+R7/D:B4``); the record is then refused unless that card is the top of the pile.
- **One-player record**: ``start`` is one player's view (the opponent's hand as
  ``{"known": [...], "count": n}``, the draw pile as a number). That player's deck draws are
  written ``+R7/D:B4`` (turn, then the card drawn) and must be; the opponent's deck draws stay
  unknown and are written without a card.

A **match record** is ``{"rules": {...}, "rounds": [ROUND, ...]}``; each round may leave out
``rules`` (it inherits the match's). Optional keys ``"players": [name0, name1]`` and
``"comment"`` are kept; any other key is an error. In a start that leaves out ``rules`` the
record's rules apply; a start whose rules differ from the record's is refused. A round's or a
start's ``rules`` that leave keys out take them from the enclosing record's (a round of a
2-round match need not repeat ``"rounds": 2``).

**Text form** (our design, one turn per line, for writing a record by hand or diffing two)::

    LCR1
    # comments start with '#'
    start LC1;c5;h8;nr;m0;p0=...;p1=...;d=Y2.W5...
    +R7/D
    -Bw/G

Each ``start`` line begins a round (several make a match); the turns follow, one or more per
line separated by spaces. The start is the one-line position string of ``notation``. The players'
names and the comment are comment lines read back: ``# players: A vs B`` and ``# comment: ...``
right before a round's ``start`` line, ``# match players: ...`` and ``# match comment: ...`` for
a match.

**Validation.** A record is replayed turn by turn when read and refused at the first problem
with a ``RecordError`` naming the round, the turn index (0 at the start; the review's
``index``), the line of the file when there is one, and the reason: a turn that does not parse
or names a card that does not exist, an illegal turn (the rule it breaks), an impossible draw
(a card that cannot be on top of the draw pile, a deck draw of the recording player without its
card, a card written for the opponent's hidden draw or for a discard-pile draw), a turn after
the round is over, a truncated or malformed file. Nothing is ever repaired.

**Replay.** ``RoundRecord.steps()`` (and ``replay(record)``) yield, for each turn, the position
(full-deal record) or the recording player's view (one-player record) *before* the turn,
with the turn, its index and its line; ``RoundRecord.final()`` is the state after the last.
"""

from __future__ import annotations

import copy
import json
import os
import re
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import InitVar, dataclass, field
from typing import Any

import numpy as np

from lcanalysis.core import kernel as K
from lcanalysis.game.cards import Card, CardError, brief, number_types, whole_number
from lcanalysis.game.examples import EXAMPLES, PREFIX
from lcanalysis.game.formats import RECORD_TAG, STRING_TAG
from lcanalysis.game.match import wrong_starter
from lcanalysis.game.moves import Move, MoveError
from lcanalysis.game.notation import (
    ENDS_EARLY,
    MAX_TEXT_CHARS,
    InvalidJSON,
    from_json,
    json_ends_early,
    loads_json,
    record_rounds,
    source_or_text,
    string_to_json,
    unreadable,
)
from lcanalysis.game.position import Position, PositionError
from lcanalysis.game.rules import Rules, RulesError, expedition_score
from lcanalysis.game.view import View
from lcanalysis.progress import progress_bar

TEXT_TAG = RECORD_TAG
#: a copy of the replay's table is kept every this many turns: ``RoundRecord.state(i)`` plays fewer
#: than this many turns again, and a long record keeps a few copies, not one a turn (the history once)
CHECKPOINT = 64
ROUND_KEYS = {"rules", "start", "turns", "players", "comment"}
MATCH_KEYS = {"rules", "rounds", "players", "comment"}


class RecordError(PositionError):
    """A record that cannot be read or replayed. ``round`` (1-based), ``index`` (the turn, 0 at
    the round's start), ``line`` (in the file, when read from text) and ``reason`` say where and why."""

    def __init__(self, reason: str, *, index: int | None = None, line: int | None = None,
                 round: int | None = None, turn: str | None = None) -> None:
        self.reason = reason
        self.index = index
        self.line = line
        self.round = round
        self.turn = turn
        where = []
        if round is not None:
            where.append(f"round {round}")
        if index is not None:
            where.append(f"turn index {index}" + (f" ({brief(turn)})" if turn is not None else ""))
        if line is not None:
            where.append(f"line {line}")
        super().__init__(("record: " + ", ".join(where) + ": " if where else "record: ") + reason)


# --- turns ----------------------------------------------------------------------------


@dataclass(frozen=True)
class Turn:
    """One recorded turn: the move, and the card it drew from the deck when the record knows it
    (``+R7/D:B4``)."""

    move: Move
    drawn: Card | None = None

    @classmethod
    def parse(cls, text: Any, colors: int) -> Turn:
        """Read ``+R7/D`` or ``+R7/D:B4``; raises ``ValueError`` (a ``MoveError`` or ``CardError``)."""
        if isinstance(text, Turn):
            return text
        if isinstance(text, Move):
            return cls(text)
        if not isinstance(text, str):
            raise MoveError(f"a turn must be a string like '+R7/D' or '+R7/D:B4', got {brief(text)}")
        head, sep, card = text.strip().partition(":")
        move = Move.parse(head, colors)
        if not sep:
            return cls(move)
        if ":" in card:  # '+R7/D:B4:B5': a turn draws one card
            raise MoveError(f"turn {brief(text)} names more than one card drawn: a turn draws one card, "
                            "written once after ':', like '+R7/D:B4'")
        try:
            drawn = Card.parse(card, colors)
        except CardError as exc:
            raise CardError(f"the card drawn after ':': {exc}") from None
        return cls(move, drawn)

    def __str__(self) -> str:
        return str(self.move) + (f":{self.drawn}" if self.drawn is not None else "")


@dataclass
class Step:
    """A turn of a record with the state before it: ``before`` is a ``Position`` (full-deal
    record) or the recording player's ``View`` (one-player record), a copy the caller may keep."""

    round: int
    index: int
    player: int
    turn: Turn
    before: Position | View
    drawn: Card | None  # the card the turn drew from the deck, when the record knows it
    line: int | None = None


# --- records ----------------------------------------------------------------------------


@dataclass(eq=False)
class RoundRecord:
    """One round: ``start`` (a ``Position`` or a ``View``) and the ``turns`` played from it.

    Build one with ``record_round`` (from a played round), ``read_record`` (from JSON, the text
    form or a file) or directly; the constructor replays every turn and raises ``RecordError``
    at the first one that does not fit."""

    start: Position | View
    turns: list[Any]  # strings like "+R7/D:B4" or Turn; Turn once the record is built
    players: list[str] | None = None
    comment: str | None = None
    round: int | None = None  # 1-based, in a match (for messages)
    lines: list[int] | None = None  # the line of each turn in the file read, when known
    progress: InitVar[Any] = None  # a progress bar (``_turns_bar``) advanced a turn at a time as it is replayed
    _movers: list[int] = field(default_factory=list, init=False, repr=False)
    _drawn: list[Card | None] = field(default_factory=list, init=False, repr=False)
    # the replay's table before every CHECKPOINT-th turn (a one-player record's: a full position that
    # completes the view, its ``world``) with an empty history, and the lengths of its history and undo
    # entries then; the replay's history and undo entries, kept once (each mark's are their first ones:
    # a mark with its own copy grew with the square of the record's length); the state after the last turn
    _marks: list[tuple[Position, int, int]] = field(default_factory=list, init=False, repr=False)
    _history: list[Move] = field(default_factory=list, init=False, repr=False)
    _undo: list[tuple[int, int, int, int]] = field(default_factory=list, init=False, repr=False)
    _final: Position | View | None = field(default=None, init=False, repr=False)

    def __post_init__(self, progress: Any) -> None:
        if not isinstance(self.start, (Position, View)):
            raise RecordError(f"start must be a Position or a View, got {type(self.start).__name__}",
                              round=self.round)
        self.players, self.comment = _meta({"players": _listed(self.players), "comment": self.comment}, self.round)
        if isinstance(self.turns, str) or not isinstance(self.turns, Iterable):
            raise RecordError(f"turns must be a list of turns, got {brief(self.turns)}", round=self.round)
        parsed: dict[str, Turn] = {}  # a stalling round repeats a handful of turns: each is read once
        turns = []
        for i, t in enumerate(self.turns):
            turn = parsed.get(t) if isinstance(t, str) else None
            if turn is None:
                turn = self._parse_turn(i, t)
                if isinstance(t, str):
                    parsed[t] = turn
            turns.append(turn)
        self.turns = turns
        self._replay_all(progress)

    # --- reading the record --------------------------------------------------------------

    @property
    def rules(self) -> Rules:
        return self.start.rules

    @property
    def is_full(self) -> bool:
        """True for a full-deal record (every card known), False for a one-player record."""
        return isinstance(self.start, Position)

    @property
    def viewer(self) -> int | None:
        """The recording player of a one-player record; None for a full-deal record."""
        return None if isinstance(self.start, Position) else self.start.viewer

    def _line(self, index: int) -> int | None:
        return self.lines[index] if self.lines and index < len(self.lines) else None

    def _error(self, reason: str, index: int, turn: Any = None) -> RecordError:
        return RecordError(reason, index=index, line=self._line(index), round=self.round,
                           turn=None if turn is None else str(turn))

    def _parse_turn(self, index: int, text: Any) -> Turn:
        try:
            return Turn.parse(text, self.rules.colors)
        except ValueError as exc:
            raise self._error(str(exc), index, text if isinstance(text, str) else None) from None

    def _begin(self) -> Position:
        """The replay's state at the start: a copy of a full start; for a one-player record, one full
        position that completes the start view (its turns are played there, see ``_advance_world``)."""
        if isinstance(self.start, Position):
            return self.start.copy()
        if self.start.buried_count:  # (the view cannot be completed, and its piles' cards would come to light unnamed)
            raise RecordError(f"start: player {self.start.viewer}'s view has buried pile cards (G?), and a record "
                              "cannot be replayed from one: a pile taken down to a buried card shows a card no turn "
                              "names; write the start's pile cards in full (a view remembered with buried cards is "
                              "analysed with 'lcanalysis advise' or 'solve')", round=self.round)
        unseen = self.start.unseen()
        u = self.start.opponent_unknown
        try:
            return self.start.complete(unseen[:u], unseen[u:])
        except PositionError as exc:
            raise self._error(f"cannot complete the view: {exc}", 0, self.turns[0] if self.turns else None) from None

    def _advance(self, work: Position, index: int) -> Card | None:
        """Play turn ``index`` on ``work`` (the replay's state before it); the card it drew from the deck."""
        turn = self.turns[index]

        def error(reason: str) -> RecordError:
            return self._error(reason, index, turn)

        if isinstance(self.start, Position):
            return _advance_position(work, turn, error)
        return _advance_world(work, self.start.viewer, turn, error)

    def _replay_all(self, bar: Any = None) -> None:
        """Replay every turn once on one state (checking each), keeping the mover and the card drawn of
        every turn, a copy of the table every ``CHECKPOINT`` turns (its history kept once, for all of
        them) and the state after the last."""
        self._movers, self._drawn, self._marks = [], [], []
        if not self.turns:
            self._final = self.start.copy() if isinstance(self.start, Position) else _copy_view(self.start)
            return
        work = self._begin()
        for i in range(len(self.turns)):
            if i % CHECKPOINT == 0:
                table = work.copy()
                table.history, table._stack = [], []  # the table alone: the replay's history is kept once
                self._marks.append((table, len(work.history), len(work._stack)))
            self._movers.append(work.to_move)
            self._drawn.append(self._advance(work, i))
            if bar is not None:
                bar.update(1)
        # only ever appended to while replaying, so each mark's history and undo entries are their first ones
        self._history, self._undo = work.history, work._stack
        self._final = work if isinstance(self.start, Position) else work.view(self.start.viewer)

    def _seen(self, work: Position, index: int) -> Position | View:
        """The state before turn ``index`` as a record gives it, from the replay's state ``work``: a
        copy of the position, or the recording player's view."""
        if isinstance(self.start, Position):
            return work.copy()
        return _copy_view(self.start) if index == 0 else work.view(self.start.viewer)

    def steps(self) -> Iterator[Step]:
        """Each turn with the state before it (a copy), oldest first."""
        if not self.turns:
            return
        work = self._begin()
        for i, turn in enumerate(self.turns):
            before = self._seen(work, i)
            yield Step(self.round or 1, i, self._movers[i], turn, before, self._drawn[i], self._line(i))
            self._advance(work, i)

    def movers_and_draws(self) -> Iterator[tuple[int, Card | None]]:
        """Each turn's mover and the card it drew from the deck (None: a discard-pile draw, or a card
        the record does not know), oldest first, as ``steps`` gives them, but without a state."""
        return zip(self._movers, self._drawn)

    def state(self, index: int) -> Position | View:
        """The state before turn ``index`` (``len(turns)``: after the last turn), a copy."""
        number = whole_number(index)
        if number is None or not 0 <= number <= len(self.turns):
            raise RecordError(f"index must be a turn number from 0 to {len(self.turns)} (after the last turn), "
                              f"got {brief(index)}", round=self.round)
        if number == len(self.turns):
            s = self._final
            assert s is not None
            return s.copy() if isinstance(s, Position) else _copy_view(s)
        mark = number // CHECKPOINT
        table, played, undo = self._marks[mark]
        work = table.copy()
        work.history, work._stack = self._history[:played], self._undo[:undo]  # (the entries shared: never changed)
        for i in range(mark * CHECKPOINT, number):  # fewer than CHECKPOINT turns played again
            self._advance(work, i)
        return self._seen(work, number)

    def final(self) -> Position | View:
        """The position or view after the last recorded turn."""
        return self.state(len(self.turns))

    def is_finished(self) -> bool:
        """True when the record plays the round to its end (draw pile empty or turn cap)."""
        assert self._final is not None
        return _is_over(self._final)

    def is_capped(self) -> bool:
        """True when the round ended at the turn cap (docs/spec/rules.md), cards still in the draw
        pile: it is scored as it stands."""
        return self.is_finished() and self._final is not None and self._final.deck_count > 0

    def scores(self) -> tuple[int, int]:
        """The round scores (player 0, player 1) as the table stands after the last turn:
        expeditions are public, so a one-player record knows them too."""
        assert self._final is not None
        return _scores(self._final)

    def seen_by(self, player: int) -> RoundRecord:
        """The one-player record of ``player``: their view of the start, their deck draws written
        with the card; the opponent's deck draws left unknown. Needs a full-deal record."""
        if not isinstance(self.start, Position):
            if self.viewer == player:
                return self
            raise RecordError(f"this is player {self.viewer}'s record: player {player}'s cards are unknown")
        turns = []
        for i, turn in enumerate(self.turns):
            mover = self._movers[i]
            drawn = self._drawn[i] if mover == player and turn.move.draws_from_deck else None
            turns.append(Turn(turn.move, drawn))
        return RoundRecord(self.start.view(player), turns, self.players, self.comment, self.round)

    # --- writing the record ----------------------------------------------------------------

    def to_json(self, compact: bool = False) -> dict[str, Any]:
        """The JSON object of docs/spec/interchange.md "Game records": the record's rules, and the
        start with its own (a start is a position of the shared format, whose rules, left out, would be
        the defaults). ``compact``: the form written before starts carried their rules, with the rules
        once, at the top (``reviewer.keep_settings`` hashes it, so judgements kept then stay valid)."""
        start = dict(self.start.to_json())
        if compact:
            start.pop("rules", None)
        d: dict[str, Any] = {"rules": self.rules.to_dict()}
        d["start"] = start
        d["turns"] = [str(t) for t in self.turns]
        return _labelled(d, self.players, self.comment)

    def to_text(self) -> str:
        """The text form: ``LCR1``, the ``start`` line, one turn per line."""
        return "\n".join([TEXT_TAG, *_text_round(self)]) + "\n"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, RoundRecord) and self.to_json() == other.to_json()

    __hash__ = None  # type: ignore[assignment]

    def __len__(self) -> int:
        return len(self.turns)


def _labelled(d: dict[str, Any], players: list[str] | None, comment: str | None) -> dict[str, Any]:
    """A record's JSON with its optional labels: the players' names and a comment."""
    if players:
        d["players"] = list(players)
    if comment:
        d["comment"] = comment
    return d


@dataclass(eq=False)
class MatchRecord:
    """A match: its ``rules`` and its rounds in order (``rules.rounds`` at most)."""

    rules: Rules
    rounds: list[RoundRecord]
    players: list[str] | None = None
    comment: str | None = None

    def __post_init__(self) -> None:
        self.players, self.comment = _meta({"players": _listed(self.players), "comment": self.comment}, None)
        if len(self.rounds) > self.rules.rounds:
            raise RecordError(f"{len(self.rounds)} rounds, but the match has {self.rules.rounds}")
        totals = [0, 0]
        known = True  # every earlier round finished, so the running totals are known
        starter = None  # who started the round before
        for r, rec in enumerate(self.rounds, start=1):
            began = (rec.start.to_move - len(rec.start.history)) % 2  # the players alternate turns
            if known and starter is not None:
                wrong = wrong_starter(totals, starter, began, self.rules, r)
                if wrong:
                    raise RecordError(wrong, round=r)
            starter = began
            if rec.rules != self.rules:
                mine, match = _differing(rec.rules, self.rules)
                raise RecordError(f"the round's rules ({mine}) differ from the match's ({match}): a match's rounds "
                                  "share its rules", round=r)
            m = rec.start.match
            if m is not None:
                if m.get("round") != r:
                    raise RecordError(f"the start says match round {m.get('round')}, but it is round {r}", round=r)
                if known and list(m.get("totals", totals)) != totals:
                    raise RecordError(f"the start says running totals {m.get('totals')}, but the rounds before "
                                      f"add up to {totals}", round=r)
            if r < len(self.rounds) and not rec.is_finished():
                raise RecordError("a round before the last one is not played to its end", round=r)
            s = rec.scores()
            totals = [totals[0] + s[0], totals[1] + s[1]]
            known = known and rec.is_finished()

    def to_json(self, compact: bool = False) -> dict[str, Any]:
        """The match's rules and its rounds, each without the rules it takes from the match (its
        start has them: ``RoundRecord.to_json``). ``compact``: the starts without theirs too, as
        ``RoundRecord.to_json`` says."""
        rounds = [r.to_json(compact) for r in self.rounds]
        for rd in rounds:
            del rd["rules"]
        d: dict[str, Any] = {"rules": self.rules.to_dict(), "rounds": rounds}
        return _labelled(d, self.players, self.comment)

    def to_text(self) -> str:
        lines = [TEXT_TAG, *_text_labels(self.players, self.comment, "match ")]
        for rec in self.rounds:
            lines.extend(_text_round(rec))
        return "\n".join(lines) + "\n"

    def seen_by(self, player: int) -> MatchRecord:
        """The one-player match record of ``player``: every round as ``RoundRecord.seen_by`` gives it."""
        return MatchRecord(self.rules, [rec.seen_by(player) for rec in self.rounds], self.players, self.comment)

    def totals(self) -> tuple[int, int]:
        s = [rec.scores() for rec in self.rounds]
        return sum(a for a, _ in s), sum(b for _, b in s)

    def steps(self) -> Iterator[Step]:
        for rec in self.rounds:
            yield from rec.steps()

    def __eq__(self, other: object) -> bool:
        return isinstance(other, MatchRecord) and self.to_json() == other.to_json()

    __hash__ = None  # type: ignore[assignment]


Record = RoundRecord | MatchRecord


# --- stepping a position or a view ------------------------------------------------------------


def _is_over(state: Position | View) -> bool:
    if isinstance(state, Position):
        return state.is_over()
    return state.deck_count == 0 or len(state.history) >= state.rules.turn_cap


def _scores(state: Position | View) -> tuple[int, int]:
    if isinstance(state, Position):
        return state.scores()
    return (sum(expedition_score(cards) for cards in state.expeditions[0]),
            sum(expedition_score(cards) for cards in state.expeditions[1]))


def _copy_view(view: View) -> View:
    return View(rules=view.rules, viewer=view.viewer, to_move=view.to_move, hand=list(view.hand),
                expeditions=tuple([list(c) for c in view.expeditions[p]] for p in range(2)),  # type: ignore[arg-type]
                discards=[list(c) for c in view.discards], deck_count=view.deck_count,
                opponent_known=list(view.opponent_known), opponent_count=view.opponent_count,
                history=list(view.history), phase=view.phase, blocked=view.blocked,
                match=dict(view.match) if view.match else None)


def _advance_position(pos: Position, turn: Turn, error: Any) -> Card | None:
    """Play ``turn`` on ``pos``; the card drawn from the deck (or None)."""
    reason = pos.why_illegal(turn.move)
    if reason:
        raise error(f"illegal turn: {reason}")
    drawn = None
    if turn.move.draws_from_deck:
        drawn = pos.deck[0]
        if turn.drawn is not None and turn.drawn != drawn:
            raise error(f"impossible draw: the record says {turn.drawn} was drawn, but the top of the "
                        f"draw pile is {drawn}")
    elif turn.drawn is not None:
        raise error(f"impossible draw: ':{turn.drawn}' names a card drawn from the draw pile, but the turn "
                    f"draws from the {turn.move.source} discard pile")
    pos.push(turn.move)
    return drawn


def _advance_world(world: Position, viewer: int, turn: Turn, error: Any) -> Card | None:
    """Play ``turn`` of player ``viewer``'s record on ``world``, a full position that completes their
    view (the unseen cards placed somehow): the hidden cards are first moved so that it fits the
    turn (the opponent holding the card it plays, the recorded card on top of the draw pile), the
    turn is then played there with the rules' checks. ``world.view(viewer)`` is the view after it;
    returns the card drawn."""
    if world.deck_count == 0 or len(world.history) >= world.rules.turn_cap:
        raise error("illegal turn: the round is over")
    move = turn.move
    mover = world.to_move
    mine = mover == viewer
    if not move.draws_from_deck and turn.drawn is not None:
        raise error(f"impossible draw: ':{turn.drawn}' names a card drawn from the draw pile, but the turn "
                    f"draws from the {move.source} discard pile")
    if move.draws_from_deck and mine and turn.drawn is None:
        raise error(f"impossible draw: in player {viewer}'s record, their deck draws name the card drawn, "
                    f"like '{move}:B4'")
    if move.draws_from_deck and not mine and turn.drawn is not None:
        raise error(f"impossible draw: in player {viewer}'s record the opponent's deck draws are unknown; "
                    f"write '{move}' without ':{turn.drawn}'")
    opponent = 1 - viewer
    nc = world.colors
    s = world.state
    hand = K.off_hand(nc, opponent)
    od = K.off_deck(nc)
    # the opponent's cards not known to the viewer, per type, and the draw pile, top first: the unseen cards
    unknown = s[hand:hand + number_types(nc)] - world.known[opponent]
    deck = s[od + s[K.H_DECK_POS]:od + s[K.H_DECK_END]]
    if not mine and move.card is not None and world.phase == "place":
        t = move.card.type
        if world.known[opponent, t] > 0 or unknown[t] > 0:
            pass
        elif not (deck == t).any():
            raise error(f"illegal turn: player {mover} cannot hold {move.card}: "
                        f"{_where_visible(world.view(viewer), move.card)}")
        elif not unknown.any():
            known = world.known_cards(opponent)
            raise error(f"illegal turn: player {mover} cannot hold {move.card}: every card of their hand is known "
                        f"({' '.join(str(c) for c in known)})")
        else:  # the card is in the draw pile: it changes places with one of the opponent's unknown cards
            _swap_hidden(world, opponent, int(np.flatnonzero(unknown > 0)[0]), int(np.flatnonzero(deck == t)[0]))
    if turn.drawn is not None:
        t = turn.drawn.type
        in_deck = bool((deck == t).any())
        if unknown[t] <= 0 and not in_deck:
            if turn.drawn == move.card and not turn.drawn.is_wager:  # (still in the hand until the turn is played)
                where = f"this turn {'plays' if move.play else 'discards'} it"
            else:
                where = _where_visible(world.view(viewer), turn.drawn)
            raise error(f"impossible draw: {turn.drawn} cannot be in the draw pile: {where}")
        if not in_deck:  # in the opponent's unknown cards: it changes places with the top of the pile
            _swap_hidden(world, opponent, t, 0)
        K.bring_to_top(s, t)
    reason = world.why_illegal(move)
    if reason:
        raise error(f"illegal turn: {reason}")
    world.push(move)
    return turn.drawn


def _swap_hidden(world: Position, player: int, held: int, pile_index: int) -> None:
    """A card of type ``held`` in ``player``'s hand changes places with the draw pile's card at
    ``pile_index`` (0: the top): two hidden cards of a completed view, swapped."""
    s = world.state
    nc = world.colors
    j = K.off_deck(nc) + int(s[K.H_DECK_POS]) + pile_index
    other = int(s[j])
    hand = K.off_hand(nc, player)
    s[hand + held] -= 1
    s[hand + other] += 1
    s[j] = held


def _where_visible(view: View, card: Card) -> str:
    if card in view.hand:
        return f"it is in player {view.viewer}'s hand"
    if card in view.opponent_known:
        return f"it is known to be in player {view.opponent}'s hand"
    for p in range(2):
        if any(card in cards for cards in view.expeditions[p]):
            return f"it lies on player {p}'s expedition"
    if any(card in cards for cards in view.discards):
        return "it lies in a discard pile"
    return "every copy of it is already placed"


# --- writing ----------------------------------------------------------------------------------


def record_round(start: Position | View, turns: Iterable[Any], drawn: Sequence[Any] | None = None,
                 players: Sequence[str] | None = None, comment: str | None = None) -> RoundRecord:
    """The record of a round played from ``start``: ``turns`` are moves (``Move`` or strings like
    ``+R7/D``, or ``+R7/D:B4``).

    For a full position, the draws come from the pile's order; if the round was played with
    ``Position.push(move, drawn=card)`` (chance outcomes chosen rather than the pile's top), give
    those cards as ``drawn`` (one entry per turn, None for the rest): the record's start then holds
    the draw pile in the order the cards were actually drawn, so it replays the same round.
    """
    if not isinstance(start, (Position, View)):
        raise RecordError(f"start must be a Position or a View, got {brief(start)}")
    if isinstance(turns, str) or not isinstance(turns, Iterable):
        raise RecordError(f"turns must be a list of turns, got {brief(turns)}")
    turns = list(turns)
    if drawn is not None and (isinstance(drawn, str) or not isinstance(drawn, Sequence)):
        raise RecordError(f"drawn must list a card (or None) for each turn, got {brief(drawn)}")
    if drawn is not None and isinstance(start, Position):
        if len(drawn) != len(turns):
            raise RecordError(f"drawn lists {len(drawn)} entries for {len(turns)} turns")
        start = _reorder_deck(start, turns, drawn)
    return RoundRecord(start.copy() if isinstance(start, Position) else _copy_view(start), turns,
                       list(players) if players else None, comment)


def _reorder_deck(start: Position, turns: list[Any], drawn: Sequence[Any]) -> Position:
    pos = start.copy()
    sequence: list[Card] = []
    for i, (move, card) in enumerate(zip(turns, drawn)):
        m = Turn.parse(move, start.colors).move
        if card is not None and not m.draws_from_deck:
            raise RecordError(f"drawn={card} given for a turn that does not draw from the deck", index=i,
                              turn=str(m))
        try:
            got = pos.push(m, drawn=card)
        except ValueError as exc:
            raise RecordError(str(exc), index=i, turn=str(m)) from None
        if m.draws_from_deck:
            sequence.append(got)
    data = start.to_json()
    data["deck"] = [str(c) for c in sequence + pos.deck]
    result = from_json(data)
    assert isinstance(result, Position)
    return result


def record_match(rounds: Sequence[RoundRecord], rules: Rules | None = None,
                 players: Sequence[str] | None = None, comment: str | None = None) -> MatchRecord:
    if isinstance(rounds, (str, bytes)) or not isinstance(rounds, Sequence) \
            or not all(isinstance(rec, RoundRecord) for rec in rounds):
        raise RecordError(f"rounds must be a list of round records (record_round), got {brief(rounds)}")
    rules = rules or (rounds[0].rules if rounds else Rules())
    recs = []
    for r, rec in enumerate(rounds, start=1):
        rec = copy.copy(rec)  # numbered as this match's round: the caller's record is left as it was
        rec.round = r
        recs.append(rec)
    return MatchRecord(rules, recs, list(players) if players else None, comment)


def _text_labels(players: list[str] | None, comment: str | None, prefix: str = "") -> list[str]:
    """The players' names and the comment as the comment lines the text form reads back."""
    lines = []
    if players:
        for name in players:  # a name the '# players: A vs B' line cannot give back is refused, not lost
            if not name or name != name.strip() or " vs " in name or len(name.splitlines()) != 1:
                raise RecordError(f"the text form cannot hold the player name {name!r} (empty, spaces around "
                                  f"it, ' vs ' or a line break in it): write the record as JSON")
        lines.append(f"# {prefix}players: " + " vs ".join(players))
    if comment:
        for part in comment.split("\n"):
            if len((part + ".").splitlines()) > 1:  # a line break other than \n (last too) would end the line early
                raise RecordError(f"the text form cannot hold a comment with the line break in {part!r}: "
                                  f"write the record as JSON")
        lines.extend(f"# {prefix}comment: {c}" for c in comment.split("\n"))
    return lines


def _text_round(rec: RoundRecord) -> list[str]:
    lines = _text_labels(rec.players, rec.comment)
    lines.append("start " + rec.start.to_string())
    lines.extend(str(t) for t in rec.turns)
    return lines


def write_record(record: Record, path: str | os.PathLike | None = None, form: str = "json") -> str:
    """The record as JSON (``form="json"``, one turn per line) or the text form (``"text"``);
    written to ``path`` when given. Returns the text."""
    if form == "json":
        text = _json_text(record.to_json())
    elif form == "text":
        text = record.to_text()
    else:
        raise ValueError(f"form must be 'json' or 'text', got {form!r}")
    if path is not None:
        with open(path, "w", encoding="utf-8") as fh:
            fh.write(text)
    return text


def _json_text(d: dict[str, Any]) -> str:
    """JSON with each turn on a line of its own, so an error's line number points at the turn."""

    def dump_round(r: dict[str, Any], indent: str) -> str:
        parts = []
        for k, v in r.items():
            if k == "turns":
                if v:
                    inner = (",\n" + indent + "    ").join(json.dumps(t) for t in v)
                    parts.append(f'{indent}  "turns": [\n{indent}    {inner}\n{indent}  ]')
                else:
                    parts.append(f'{indent}  "turns": []')
            else:
                parts.append(f"{indent}  {json.dumps(k)}: {json.dumps(v)}")
        return indent + "{\n" + ",\n".join(parts) + "\n" + indent + "}"

    if "rounds" in d:
        parts = []
        for k, v in d.items():
            if k == "rounds":
                rounds = ",\n".join(dump_round(r, "    ") for r in v)
                parts.append(f'  "rounds": [\n{rounds}\n  ]')
            else:
                parts.append(f"  {json.dumps(k)}: {json.dumps(v)}")
        return "{\n" + ",\n".join(parts) + "\n}\n"
    return dump_round(d, "") + "\n"


# --- reading ------------------------------------------------------------------------------------


def _turns_bar(total: int, progress: bool) -> Any:
    """The bar of a read or a replay over ``total`` turns (``lcanalysis.progress``); None when
    ``progress`` is false (tqdm is then not even loaded). The caller closes it."""
    return progress_bar(total=total, desc="reading the record", unit="turn") if progress and total > 0 else None


def _closed(bar: Any) -> None:
    if bar is not None:
        bar.close()


def read_record_text(text: str, progress: bool = False) -> Record:
    """The record a text holds as it is (what ``-`` reads from standard input): JSON or the text
    form. A file's path there is refused, never followed (a path piped in would read a file the
    command line never named)."""
    if not isinstance(text, str):
        raise RecordError(f"cannot read a record's text from {type(text).__name__}")
    return _read_record(text, progress, text_only=True)


def read_record(source: Any, progress: bool = False) -> Record:
    """A ``RoundRecord`` or ``MatchRecord`` from a JSON object, JSON text, the text form, or a
    path to a file holding either. Raises ``RecordError`` (a ``PositionError``) naming the round,
    the turn index, the line and the reason. ``progress``: a bar on standard error over the turns
    replayed, once reading has taken a second (a record of thousands of turns)."""
    return _read_record(source, progress, text_only=False)


def _read_record(source: Any, progress: bool, text_only: bool) -> Record:
    done, source = source_or_text(source, (RoundRecord, MatchRecord),
                                  lambda data: record_from_json(data, progress=progress), "a record", RecordError)
    if source is None:
        return done
    if len(source) > MAX_TEXT_CHARS:  # before anything else reads it
        raise RecordError(f"the input is {len(source):,} characters long: the limit of any input is "
                          f"{MAX_TEXT_CHARS:,}")
    text = source.lstrip("\ufeff")
    stripped = text.strip()
    if _is_record_text(stripped) or text_only:
        _refuse_other_files(stripped, None)
    if _is_record_text(stripped):
        return _read_text(text, None, progress)
    if text_only:
        _refuse_a_position(stripped)
        _refuse_untagged(stripped)
        if not (os.path.exists(stripped) or _meant_as_file(stripped)):
            raise RecordError(f"{stripped[:40]!r} is neither a JSON record nor the text form '{TEXT_TAG} ...'")
        raise RecordError(f"standard input holds the record itself (a JSON record or the text form '{TEXT_TAG} ...'), "
                          f"not a file name: got {stripped[:40]!r}; give a file's path as the argument instead of '-'")
    if os.path.exists(stripped):
        try:
            with open(stripped, encoding="utf-8") as fh:
                content = fh.read(MAX_TEXT_CHARS + 1).lstrip("\ufeff")  # never more: a device costs nothing
        except OSError as exc:
            raise RecordError(unreadable(stripped, exc)) from None
        except UnicodeDecodeError as exc:
            raise RecordError(f"cannot read {stripped}: it is not UTF-8 text (byte {exc.start}: {exc.reason})") \
                from None
        if len(content) > MAX_TEXT_CHARS:
            raise RecordError(f"{stripped} is longer than {MAX_TEXT_CHARS:,} characters: the limit of any input")
        if not content.strip():
            raise RecordError(f"{stripped} is empty")
        _refuse_other_files(content, stripped)
        if not _is_record_text(content.strip()):
            _refuse_a_position(content.strip())
            _refuse_untagged(content.strip(), stripped)
            raise RecordError(f"{stripped} holds neither a JSON record nor the text form '{TEXT_TAG} ...'")
        return _read_text(content, stripped, progress)
    _refuse_a_position(stripped)  # (before the file test: a position's history holds '/')
    _refuse_untagged(stripped)  # (and a record's turns)
    if _meant_as_file(stripped):
        raise RecordError(f"no such file: {stripped}")
    raise RecordError(f"{stripped[:40]!r} is neither a JSON record, the text form '{TEXT_TAG} ...' nor a file")


#: what ``review`` takes, said when it is given another of lcanalysis's files
RECORD_WANTED = ("review takes a game record, the turns of a round or a match as they were played (JSON "
                 "{\"rules\", \"start\", \"turns\"} or the text form 'LCR1 ...': docs/spec/interchange.md, "
                 "\"Game records\")")
_REVIEW_OUTPUT = ("the output of 'lcanalysis review --json' (its judgements of a game's turns), not a game record: "
                  "give the record it was made from")
#: how the match equity table's file begins, after '{"what": "' (``studies.match_table`` writes it first; the
#: study's --out writes over no other file, ``cli.studies``): named here, below both, so records are told from it
MATCH_TABLE_WHAT = "Lost Cities match equity"
#: the first line of the file ``lcanalysis review --out`` keeps its judgements in (a study file's mark, then
#: its settings: ``cli.review``), named here so that the file is told from the record it was made from
REVIEW_KEPT_MARK = "# lcanalysis review "
_MATCH_TABLE = "a match equity table (the file 'lcanalysis studies match-table' writes), not a game record"
#: lcanalysis's other files, by how they begin (what each writer puts first), and what each is
_OTHER_FILES = (
    (re.compile(r'\{\s*"decisions"\s*:'), _REVIEW_OUTPUT),
    (re.compile(r'\{\s*"what"\s*:\s*"' + re.escape(MATCH_TABLE_WHAT)), _MATCH_TABLE),
    (re.compile(re.escape(REVIEW_KEPT_MARK) + r"\{"),
     "the judgements 'lcanalysis review --out' keeps (a row a judged turn, to resume the review), not a game "
     "record: give the record it was made from (its command is in the file's .cmd sidecar) and this file as --out"),
    (re.compile(r'\{\s*"(lcanalysis_tournament|job)"\s*:'), "a tournament's results file (JSON lines of the rounds' "
                                                            "scores), not a game record: a tournament keeps each "
                                                            "round's record with --records FOLDER"),
    (re.compile(r"pairing,deal,swap,"), "a tournament's table of rounds (CSV, its --csv), not a game record: a "
                                        "tournament keeps each round's record with --records FOLDER"),
)


def _refuse_other_files(text: str, name: str | None) -> None:
    """Another of lcanalysis's files given where a record was meant (a review's --json output or --out
    file, a tournament's results or table, the match equity table) is named as what it is, with what
    ``review`` takes: the generic refusal ("unknown key(s) ['decisions', ...]", a JSON limit) left the
    user guessing."""
    head = text.lstrip("\ufeff \t\r\n")[:200]
    for beginning, what in _OTHER_FILES:
        if beginning.match(head):
            raise RecordError(f"{name + ' is' if name else 'this is'} {what}; {RECORD_WANTED}")


def _meant_as_file(text: str) -> bool:
    return os.sep in text or os.path.splitext(text)[1].lower() in (".json", ".txt", ".lcr")


def _refuse_a_position(text: str) -> None:
    """A one-line position string or a built-in example given where a record was meant is named as
    a position (a JSON position already is, in ``_round_from_json``); a name that is no example, as
    such (it is no position either)."""
    if text.startswith(PREFIX) and text[len(PREFIX):] not in EXAMPLES:
        raise RecordError(f"no example {text[len(PREFIX):]!r}; built-in examples: {', '.join(EXAMPLES)} (each a "
                          "position, not a game record)")
    if text[:len(STRING_TAG) + 1].upper() == f"{STRING_TAG};" or text.startswith(PREFIX):
        raise RecordError(f"this is a position, not a game record: a record's text form is the line '{TEXT_TAG}', "
                          f"then 'start {STRING_TAG};...' and the turns (a position is analysed with 'lcanalysis "
                          "solve' or 'advise')")


def _refuse_untagged(text: str, name: str | None = None) -> None:
    """The text form without its first line, ``LCR1`` (its first line is ``start LC1;...``), or with
    another version's tag, is named as such (``name``: the file's, when it is a file's text): it was
    taken for a file's name ("no such file: start LC1;...", as its turns hold '/')."""
    for raw in text.splitlines():
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        word, *rest = line.split(None, 1)
        word = word.upper()
        if word == "START" and rest and rest[0][:len(STRING_TAG) + 1].upper() == f"{STRING_TAG};":
            raise RecordError(f"{name or 'this text'} has no '{TEXT_TAG}' line: the text form of a record begins "
                              f"with it, before its first 'start {STRING_TAG};...' line")
        if re.fullmatch(r"LCR\d+", word):
            raise RecordError(f"{name or 'this text'} begins with {word!r}, a text form this version does not "
                              f"read: its first line is '{TEXT_TAG}'")
        return


def _is_record_text(text: str) -> bool:
    """JSON (an object, or a list to be refused as one), or the text form: its ``LCR1`` line may
    follow comment lines and blank lines, as the text form's reader allows."""
    if text.startswith(("{", "[")):
        return True
    for raw in text.splitlines():
        line = raw.split("#", 1)[0].strip()
        if line:
            return line.upper() == TEXT_TAG
    return False


def _read_text(text: str, name: str | None, progress: bool = False) -> Record:
    where = f"{name}: " if name else ""
    if text.strip().startswith("["):
        raise RecordError(f"{where}a JSON list is not a record: a record is a JSON object, "
                          f"{{\"rules\", \"start\", \"turns\"}} or a match {{\"rules\", \"rounds\"}}")
    if text.strip().startswith("{"):
        try:
            data = loads_json(text, record_rounds(text))  # the readers' limits: size, nesting, number length
        except InvalidJSON as bad:  # a syntax error, named by its line
            exc = bad.error
            why = ENDS_EARLY if json_ends_early(exc, text) else "malformed JSON"
            raise RecordError(f"{where}{why}: {exc.msg} (column {exc.colno})", line=exc.lineno) from None
        except PositionError as refused:  # over a limit: refused before it is parsed
            raise RecordError(f"{where}{refused}") from None
        return record_from_json(data, _turn_lines(text), progress)
    try:
        return _parse_text_form(text, progress)
    except RecordError as exc:
        if name:
            raise RecordError(f"{where}{exc.reason}", index=exc.index, line=exc.line, round=exc.round,
                              turn=exc.turn) from None
        raise


_STRING = re.compile(r'"(?:[^"\\]|\\.)*"')


def _turn_lines(text: str) -> list[list[int]]:
    """For each ``"turns": [...]`` array in the JSON text, in order, the line of each string in it."""
    out: list[list[int]] = []
    pos = 0
    key = re.compile(r'"turns"\s*:\s*\[')
    while True:
        m = key.search(text, pos)
        if not m:
            return out
        i = m.end()
        lines = []
        line, counted = text.count("\n", 0, i) + 1, i  # the line at ``counted``, carried forward
        while i < len(text):
            ch = text[i]
            if ch == "]":
                break
            if ch == '"':
                s = _STRING.match(text, i)
                if not s:
                    break
                line, counted = line + text.count("\n", counted, i), i  # (from the start each time was quadratic)
                lines.append(line)
                i = s.end()
                continue
            i += 1
        out.append(lines)
        pos = i


def _overlaid(given: Any, base: Rules | None) -> Rules:
    """The rules an object gives, the keys it leaves out taken from ``base`` (the enclosing
    record's; the defaults at the top)."""
    if base is None or not isinstance(given, Mapping):
        return Rules.from_dict(given)
    return Rules.from_dict({**base.to_dict(True), **given})


@dataclass(frozen=True)
class _Enclosing:
    """The rules a round or a start inherits, and, for a refusal's wording, which keys the record
    wrote (none: the defaults throughout), whose rules they are and where a fix is written."""

    rules: Rules
    given: frozenset[str]
    name: str  # "the record", "the match", "the round"
    top: str  # "the record", "the match record": where rules shared by every part are written


def _rules_clash(part: str, own: Rules, outer: _Enclosing) -> str:
    """Why a round's or a start's rules (``part``, e.g. "the start's rules") are refused: the keys
    that differ, and, when the record wrote no rules at all, that it has the defaults and how to
    write the part's at the top (a 6-colour start under a record without rules was "differing" from
    rules the user never gave)."""
    keys = _differing_keys(own, outer.rules)
    says = _rules_text(own, keys)
    if not outer.given:
        return (f"{outer.name} gives no rules, so it has the default rules ({_rules_text(outer.rules)}), but {part} "
                f'give {says}: write "rules": {{{says}}} at the top of {outer.top}')
    has = ", ".join(_rules_text(outer.rules, [key]) + ("" if key in outer.given else " (left out: the default)")
                    for key in keys)
    if not any(key in outer.given for key in keys):
        hint = f"add {says} to the rules at the top of {outer.top}"
    else:
        hint = f"{part} must agree with {outer.name}'s (the keys they leave out are taken from them)"
    return f"{part} ({says}) differ from {outer.name}'s ({has}): {hint}"


def _rules_text(rules: Rules, keys: Iterable[str] | None = None) -> str:
    """Rules as the JSON keys and values a user writes (``"colors": 6``), all or only ``keys``."""
    given = rules.to_dict(True)
    return ", ".join(f'"{key}": {json.dumps(given[key])}' for key in (given if keys is None else keys))


def _differing_keys(own: Rules, other: Rules) -> list[str]:
    mine, theirs = own.to_dict(True), other.to_dict(True)
    return [key for key in mine if mine[key] != theirs[key]]


def _differing(own: Rules, other: Rules) -> tuple[str, str]:
    """For a refusal: the keys in which two rules differ, with the values of each."""
    keys = _differing_keys(own, other)
    return _rules_text(own, keys), _rules_text(other, keys)


def _rules_of(data: Mapping[str, Any], inherited: _Enclosing | None, round: int | None) -> _Enclosing:
    """The rules of a record (``inherited`` None: a match, or a lone round) or of a match's round."""
    outer = inherited or _Enclosing(Rules(), frozenset(), "the match" if "rounds" in data else "the record",
                                    "the match record" if "rounds" in data else "the record")
    if "rules" not in data:
        return outer
    try:
        rules = _overlaid(data["rules"], inherited.rules if inherited else None)
    except RulesError as exc:
        raise RecordError(str(exc), round=round) from None
    if inherited is not None and rules != inherited.rules:
        raise RecordError(_rules_clash("the round's rules", rules, inherited), round=round)
    named = "the round" if inherited is not None else outer.name
    return _Enclosing(rules, outer.given | frozenset(data["rules"]), named, outer.top)


def _listed(players: Any) -> Any:
    """A tuple of names as the list the records keep (anything else is checked as it is)."""
    return list(players) if isinstance(players, tuple) else players


def _meta(data: Mapping[str, Any], round: int | None) -> tuple[list[str] | None, str | None]:
    players = data.get("players")
    if players is not None and (not isinstance(players, list) or len(players) != 2
                                or not all(isinstance(p, str) for p in players)):
        raise RecordError("players must be a list of two names", round=round)
    comment = data.get("comment")
    if comment is not None and not isinstance(comment, str):
        raise RecordError("comment must be a string", round=round)
    return players, comment


def record_from_json(data: Any, lines: list[list[int]] | None = None, progress: bool = False) -> Record:
    """A record from its JSON object (``lines``: the line of each turn, per round, when read from
    text; ``progress``: a bar over the turns replayed, as ``read_record``'s)."""
    if not isinstance(data, Mapping):
        raise RecordError(f"a record must be a JSON object, got {type(data).__name__}")
    if "decisions" in data and "settings" in data:  # a review's JSON, read back (its keys in any order)
        raise RecordError(f"this is {_REVIEW_OUTPUT}; {RECORD_WANTED}")
    if str(data.get("what", "")).startswith(MATCH_TABLE_WHAT):  # the match equity table, read back
        raise RecordError(f"this is {_MATCH_TABLE}; {RECORD_WANTED}")
    rounds = data.get("rounds") if "rounds" in data else [data]
    total = sum(len(r["turns"]) for r in rounds if isinstance(r, Mapping) and isinstance(r.get("turns"), list)) \
        if isinstance(rounds, list) else 0
    bar = _turns_bar(total, progress)
    try:
        return _record_from_json(data, lines, bar)
    finally:
        _closed(bar)


def _record_from_json(data: Mapping[str, Any], lines: list[list[int]] | None, bar: Any) -> Record:
    if "rounds" in data:
        unknown = set(data) - MATCH_KEYS
        if unknown:
            raise RecordError(f"unknown key(s) {sorted(unknown)}; a match record has {sorted(MATCH_KEYS)}")
        outer = _rules_of(data, None, None)
        rounds = data["rounds"]
        if not isinstance(rounds, list) or not rounds:
            raise RecordError("rounds must be a non-empty list of round records")
        recs = [_round_from_json(r, outer, i + 1, lines[i] if lines and i < len(lines) else None, bar)
                for i, r in enumerate(rounds)]
        players, comment = _meta(data, None)
        return MatchRecord(outer.rules, recs, players, comment)
    return _round_from_json(data, None, None, lines[0] if lines else None, bar)


def _round_from_json(data: Any, inherited: _Enclosing | None, round: int | None,
                     lines: list[int] | None, bar: Any = None) -> RoundRecord:
    if not isinstance(data, Mapping):
        raise RecordError(f"a round record must be a JSON object, got {type(data).__name__}", round=round)
    unknown = set(data) - ROUND_KEYS
    if "start" not in data and "hands" in unknown:
        raise RecordError("this is a position, not a game record: a record is {\"rules\", \"start\": POSITION, "
                          "\"turns\": [...]} (a position is analysed with 'lcanalysis solve' or 'advise')",
                          round=round)
    if unknown:
        raise RecordError(f"unknown key(s) {sorted(unknown)}; a round record has {sorted(ROUND_KEYS)}", round=round)
    for key in ("start", "turns"):
        if key not in data:
            raise RecordError(f"'{key}' is missing: a round record is {{\"rules\", \"start\", \"turns\"}}", round=round)
    outer = _rules_of(data, inherited, round)
    rules = outer.rules
    start_data = data["start"]
    if not isinstance(start_data, Mapping):
        hint = ""
        if isinstance(start_data, str) and start_data.strip()[:len(STRING_TAG) + 1].upper() == f"{STRING_TAG};":
            hint = (f"; a start as the one-line string belongs in the text form: the line '{TEXT_TAG}', then "
                    f"'start {STRING_TAG};...' and the turns")
        raise RecordError(f"start must be a position object, {{\"hands\": ..., \"deck\": ...}}, got "
                          f"{type(start_data).__name__}{hint}", round=round)
    start_data = dict(start_data)
    if "rules" in start_data:
        try:
            own = _overlaid(start_data["rules"], rules)
        except RulesError as exc:
            raise RecordError(f"start: {exc}", round=round) from None
        if own != rules:
            raise RecordError(_rules_clash("the start's rules", own, outer), round=round)
    start_data["rules"] = rules.to_dict(True)
    try:
        start = from_json(start_data)
    except PositionError as exc:
        raise RecordError(f"start: {exc}", round=round) from None
    turns = data["turns"]
    if not isinstance(turns, list):
        raise RecordError("turns must be a list of turns like \"+R7/D\"", round=round)
    players, comment = _meta(data, round)
    return RoundRecord(start, turns, players, comment, round, lines, bar)


_LABEL = re.compile(r"#\s*(match )?(players|comment):\s?(.*)$")


def _labels(found: list[tuple[str, str]]) -> tuple[list[str] | None, str | None]:
    """The players' names and the comment of ``# players: A vs B`` and ``# comment: ...`` lines."""
    players = None
    comment = []
    for key, text in found:
        names = [name.strip() for name in text.split(" vs ")]
        if key == "players" and players is None and len(names) == 2 and all(names):
            players = names
        else:  # (a players line that does not name two, or a second one, is kept as a comment, not refused)
            comment.append(text if key == "comment" else f"{key}: {text}")
    return players, "\n".join(comment) if comment else None


def _parse_text_form(text: str, progress: bool = False) -> Record:
    rounds: list[tuple[int, Position | View, list[str], list[int], list[tuple[str, str]]]] = []
    seen_tag = False
    match_labels: list[tuple[str, str]] = []
    pending: list[tuple[str, str]] = []  # the labels of the round whose start line comes next
    for n, raw in enumerate(text.splitlines(), start=1):
        line = raw.split("#", 1)[0].strip()
        if not line:
            label = _LABEL.match(raw.lstrip())
            if label and seen_tag:  # (the text to the line's end: a comment's trailing spaces are its own)
                (match_labels if label.group(1) else pending).append((label.group(2), label.group(3)))
            continue
        if not seen_tag:
            if line.upper() != TEXT_TAG:
                raise RecordError(f"the text form starts with the line '{TEXT_TAG}'", line=n)
            seen_tag = True
            continue
        if line.lower().startswith("start"):
            body = line[5:].strip()
            try:
                start = from_json(string_to_json(body))
            except PositionError as exc:
                raise RecordError(f"start: {exc}", line=n, round=len(rounds) + 1) from None
            rounds.append((n, start, [], [], pending))
            pending = []
            continue
        if not rounds:
            raise RecordError("a turn before the first 'start LC1;...' line", line=n)
        pending = []  # (a label among the turns belongs to no round)
        for token in line.split():
            rounds[-1][2].append(token)
            rounds[-1][3].append(n)
    if not seen_tag:
        raise RecordError(f"the text form starts with the line '{TEXT_TAG}'")
    if not rounds:
        raise RecordError("no 'start LC1;...' line: the record holds no round")
    bar = _turns_bar(sum(len(turns) for _n, _start, turns, _lines, _found in rounds), progress)
    try:
        if len(rounds) == 1 and not match_labels:
            _n, start, turns, lines, found = rounds[0]
            players, comment = _labels(found)
            return RoundRecord(start, turns, players, comment, lines=lines, progress=bar)
        rules = rounds[0][1].rules
        recs = []
        for r, (n, start, turns, lines, found) in enumerate(rounds, start=1):
            if start.rules != rules:
                mine, first = _differing(start.rules, rules)
                raise RecordError(f"the rounds of a match must share their rules: this round's start gives {mine}, "
                                  f"round 1's {first}", line=n, round=r)
            players, comment = _labels(found)
            recs.append(RoundRecord(start, turns, players, comment, round=r, lines=lines, progress=bar))
        players, comment = _labels(match_labels)
        return MatchRecord(rules, recs, players, comment)
    finally:
        _closed(bar)


def replay(record: Any) -> Iterator[Step]:
    """Each turn of a record (read with ``read_record`` when it is not one yet) with the position or
    view before it, oldest first, round after round."""
    rec = read_record(record)
    yield from rec.steps()


__all__ = [
    "MatchRecord",
    "Record",
    "RecordError",
    "RoundRecord",
    "Step",
    "Turn",
    "read_record",
    "record_from_json",
    "record_match",
    "record_round",
    "replay",
    "write_record",
]
