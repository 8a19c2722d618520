"""The full state of a round: both hands, the table, the ordered draw pile.

A ``Position`` wraps the kernel's integer array (``core/kernel.py`` holds the rules) and
adds what a user needs: cards and moves as objects, ``push``/``pop``, explicit chance
(``deck_draw_outcomes``), legality with reasons, a player's ``view``, JSON and the
one-line string, and pictures in a notebook.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from fractions import Fraction
from typing import TYPE_CHECKING, Any

import numpy as np

from lcanalysis.core import kernel as K
from lcanalysis.game.cards import (
    CARDS_PER_COLOR,
    COLOR_LETTERS,
    RANKS_PER_COLOR,
    Card,
    copies,
    full_deck,
    number_types,
)
from lcanalysis.game.formats import Notated, position_to_json
from lcanalysis.game.moves import Move, MoveError
from lcanalysis.game.rules import REASONS, IllegalMoveError, Rules

if TYPE_CHECKING:
    from lcanalysis.game.view import View

MoveLike = Move | str | int


class PositionError(ValueError):
    """A position or view that cannot arise in the game; the message names the problem."""


def as_cards(items: Iterable[Any], colors: int, where: str) -> list[Card]:
    out = []
    for item in items:
        try:
            if isinstance(item, Card):
                card = item
            elif isinstance(item, (int, np.integer)) and not isinstance(item, bool):
                card = Card.from_type(int(item))  # a type code, as View.splits yields
            else:
                card = Card.parse(item, colors)
        except ValueError as exc:
            raise PositionError(f"{where}: {exc}") from None
        if card.color >= colors:
            raise PositionError(f"{where}: {card} is not a card of the {colors}-colour game")
        out.append(card)
    return out


def check_expedition(cards: Sequence[Card], where: str) -> None:
    """Wagers first, then strictly ascending numbers, all of one colour."""
    seen_number = 0
    for card in cards:
        if card.color != cards[0].color:
            raise PositionError(f"{where}: {card} is not the expedition's colour")
        if card.is_wager:
            if seen_number:
                raise PositionError(f"{where}: wager {card} placed after a number")
        else:
            if card.number <= seen_number:
                raise PositionError(f"{where}: descending expedition ({card} after {card.color_letter}{seen_number})")
            seen_number = card.number


def check_copies(counts: np.ndarray, colors: int) -> None:
    for t in range(number_types(colors)):
        if counts[t] > copies(t):
            card = Card.from_type(t)
            if copies(t) == 1:
                raise PositionError(f"card {card} appears in two places ({counts[t]} times; the deck has one)")
            raise PositionError(f"{counts[t]} copies of {card}: the deck has only {copies(t)}")


class Position(Notated):
    """A full position: both hands and the draw pile's order known.

    Build one with ``Position.deal(seed)``, ``Position.from_parts(...)`` or
    ``lcanalysis.game.notation.read_position``. ``push(move)`` plays a whole turn (drawing the
    recorded top of the draw pile, or the card you name with ``drawn=``), ``pop()`` takes it
    back. ``known_cards(p)`` are the cards of player p's hand that everyone knows, because
    p took them from a discard pile.
    """

    _picture = "position"

    def __init__(self, rules: Rules, state: np.ndarray, history: list[Move] | None = None,
                 known: np.ndarray | None = None, match: dict[str, Any] | None = None) -> None:
        self.rules = rules
        self.state = state
        self.history: list[Move] = list(history or [])
        nt = number_types(rules.colors)
        self.known = np.zeros((2, nt), dtype=np.int32) if known is None else known
        self.match = match
        self._stack: list[tuple[int, int, int, np.ndarray]] = []
        self._moves_buf = np.empty(K.MAX_MOVES, dtype=np.int32)

    # --- construction --------------------------------------------------------

    @classmethod
    def deal(cls, seed: int | None = None, rules: Rules | None = None, starter: int = 0) -> Position:
        """Shuffle with ``seed`` (numpy's default_rng) and deal ``hand_size`` cards to each player:
        the first ``hand_size`` of the shuffled deck to player 0, the next to player 1, the rest
        is the draw pile (top first). ``starter`` moves first."""
        rules = rules or Rules()
        if starter not in (0, 1):
            raise PositionError(f"starter must be 0 or 1, got {starter!r}")
        deck = np.array(full_deck(rules.colors), dtype=np.int32)
        deck = np.random.default_rng(seed).permutation(deck)
        h = rules.hand_size
        s = K.new_state(rules.colors, h, rules.no_redraw, rules.turn_cap)
        nc = rules.colors
        for p in range(2):
            for t in deck[p * h:(p + 1) * h]:
                s[K.off_hand(nc, p) + t] += 1
        rest = deck[2 * h:]
        od = K.off_deck(nc)
        s[od:od + len(rest)] = rest
        s[K.H_DECK_END] = len(rest)
        s[K.H_TO_MOVE] = starter
        return cls(rules, s)

    @classmethod
    def from_parts(
        cls,
        hands: Sequence[Iterable[Any]],
        expeditions: Sequence[Iterable[Any]] = ((), ()),
        discards: Iterable[Any] = (),
        deck: Iterable[Any] = (),
        *,
        rules: Rules | None = None,
        to_move: int = 0,
        phase: str = "place",
        blocked: str | None = None,
        history: Iterable[Any] = (),
        match: dict[str, Any] | None = None,
        known: Sequence[Iterable[Any]] | None = None,
    ) -> Position:
        """Build and validate a full position. Expeditions and discards are card lists in the
        order placed (cards of several colours may be mixed: each colour keeps its order);
        ``deck`` is top first. Raises ``PositionError`` naming the first problem found."""
        rules = rules or Rules()
        nc = rules.colors
        state, counts = table_state(rules, to_move, phase, blocked, expeditions, discards)
        for p in range(2):
            hand = as_cards(hands[p], nc, f"hand of player {p}")
            want = rules.hand_size - (1 if phase == "draw" and p == to_move else 0)
            if len(hand) != want:
                raise PositionError(f"hand of player {p} has {len(hand)} cards; it must have {want}")
            for card in hand:
                state[K.off_hand(nc, p) + card.type] += 1
                counts[card.type] += 1
        deck_cards = as_cards(deck, nc, "deck")
        od = K.off_deck(nc)
        for j, card in enumerate(deck_cards):
            counts[card.type] += 1
            if j >= CARDS_PER_COLOR * nc:
                break
            state[od + j] = card.type
        check_copies(counts, nc)
        missing = int(sum(copies(t) for t in range(number_types(nc))) - counts.sum())
        if missing:
            absent = [str(Card.from_type(t)) for t in range(number_types(nc)) if counts[t] < copies(t)]
            raise PositionError(
                f"counts do not add up: {missing} card(s) of the {rules.deck_size}-card deck are nowhere "
                f"({', '.join(absent[:8])}{'...' if len(absent) > 8 else ''})"
            )
        state[K.H_DECK_END] = len(deck_cards)
        moves = parse_history(history, nc)
        state[K.H_TURN] = len(moves)
        known_arr = np.zeros((2, number_types(nc)), dtype=np.int32)
        if known is not None:
            for p in range(2):
                for card in as_cards(known[p], nc, f"known cards of player {p}"):
                    known_arr[p, card.type] += 1
                if np.any(known_arr[p] > state[K.off_hand(nc, p):K.off_hand(nc, p) + number_types(nc)]):
                    raise PositionError(f"known cards of player {p} are not all in that player's hand")
        return cls(rules, state, moves, known_arr, match)

    def copy(self) -> Position:
        other = Position(self.rules, self.state.copy(), list(self.history), self.known.copy(),
                         dict(self.match) if self.match else None)
        other._stack = [(m, d, b, k.copy()) for m, d, b, k in self._stack]
        return other

    # --- reading the state -----------------------------------------------------

    @property
    def colors(self) -> int:
        return self.rules.colors

    @property
    def to_move(self) -> int:
        return int(self.state[K.H_TO_MOVE])

    @property
    def turn(self) -> int:
        """Turns played this round."""
        return int(self.state[K.H_TURN])

    @property
    def phase(self) -> str:
        return "draw" if self.state[K.H_PHASE] == 1 else "place"

    @property
    def blocked(self) -> str | None:
        b = int(self.state[K.H_BLOCKED])
        return COLOR_LETTERS[b] if b >= 0 and self.phase == "draw" else None

    @property
    def deck_count(self) -> int:
        return int(K.deck_left(self.state))

    def is_over(self) -> bool:
        return bool(K.is_over(self.state))

    def is_capped(self) -> bool:
        """Over because of the turn cap (docs/spec/rules.md), not because the draw pile ran out."""
        return self.is_over() and self.deck_count > 0

    def hand(self, player: int) -> list[Card]:
        nc = self.colors
        o = K.off_hand(nc, player)
        return [Card.from_type(t) for t in range(number_types(nc)) for _ in range(int(self.state[o + t]))]

    def hand_counts(self, player: int) -> np.ndarray:
        o = K.off_hand(self.colors, player)
        return self.state[o:o + number_types(self.colors)].copy()

    def known_cards(self, player: int) -> list[Card]:
        return [Card.from_type(t) for t, n in enumerate(self.known[player]) for _ in range(int(n))]

    def expedition(self, player: int, color: int) -> list[Card]:
        """The cards on player's expedition of ``color``, in the order placed."""
        w = int(self.state[K.off_wagers(self.colors, player) + color])
        mask = int(self.state[K.off_mask(self.colors, player) + color])
        cards = [Card(color, 0)] * w
        cards += [Card(color, r) for r in range(1, RANKS_PER_COLOR) if mask & (1 << (r - 1))]
        return cards

    def expeditions(self, player: int) -> dict[str, list[Card]]:
        return {COLOR_LETTERS[c]: self.expedition(player, c) for c in range(self.colors) if self.expedition(player, c)}

    def discard_pile(self, color: int) -> list[Card]:
        """Bottom first; the last card is the one a player can take."""
        nc = self.colors
        n = int(self.state[K.off_pile_len(nc) + color])
        o = K.off_pile(nc) + color * K.PILE_CAP
        return [Card(color, int(r)) for r in self.state[o:o + n]]

    def discards(self) -> dict[str, list[Card]]:
        return {COLOR_LETTERS[c]: self.discard_pile(c) for c in range(self.colors) if self.discard_pile(c)}

    @property
    def deck(self) -> list[Card]:
        """The draw pile, top first."""
        od = K.off_deck(self.colors)
        pile = self.state[od + self.state[K.H_DECK_POS]: od + self.state[K.H_DECK_END]]
        return [Card.from_type(int(t)) for t in pile]

    def score(self, player: int) -> int:
        """The round score of ``player`` as the table stands."""
        return int(K.player_score(self.state, player))

    def scores(self) -> tuple[int, int]:
        return self.score(0), self.score(1)

    def value_for_mover(self) -> int:
        """Score of the player to move minus the opponent's, as the table stands."""
        return self.score(self.to_move) - self.score(1 - self.to_move)

    # --- moves -------------------------------------------------------------------

    def _code(self, move: MoveLike) -> int:
        if isinstance(move, (int, np.integer)):
            return int(move)
        if isinstance(move, str):
            move = Move.parse(move, self.colors)
        if not isinstance(move, Move):
            raise MoveError(f"not a move: {move!r}")
        return move.code(self.colors)

    def legal_codes(self) -> np.ndarray:
        n = K.gen_moves(self.state, self._moves_buf)
        return self._moves_buf[:n].copy()

    def legal_moves(self) -> list[Move]:
        """Every legal whole turn (the draw half alone in the draw step)."""
        return [Move.from_code(int(c), self.colors) for c in self.legal_codes()]

    def why_illegal(self, move: MoveLike) -> str | None:
        """None when ``move`` is legal here, else the rule it breaks in words."""
        if self.is_over():
            return "the round is over" + (" (turn cap reached)" if self.is_capped() else "")
        try:
            code = self._code(move)
        except MoveError as exc:
            return str(exc)
        nc = self.colors
        place, src = divmod(code, nc + 1)
        s = self.state
        if place == 2 * RANKS_PER_COLOR * nc:
            if s[K.H_PHASE] != 1:
                return "a card must be placed first: write the whole turn, like '+R7/D'"
            err = K.source_error(s, src, s[K.H_BLOCKED])
            return REASONS[err] if err else None
        err = K.place_code_error(s, place)
        if err:
            return REASONS[err]
        K.apply_place(s, place)
        err = K.source_error(s, src, s[K.H_BLOCKED])
        K.undo_place(s, place)
        return REASONS[err] if err else None

    def can_play(self, move: MoveLike) -> bool:
        return self.why_illegal(move) is None

    def deck_draw_outcomes(self) -> list[tuple[Card, Fraction]]:
        """Chance made explicit: each distinct card the draw pile can yield, with its probability
        (the pile's order treated as unknown). Pass one to ``push(move, drawn=card)``."""
        counts = np.zeros(number_types(self.colors), dtype=np.int32)
        K.deck_counts(self.state, counts)
        left = int(counts.sum())
        return [(Card.from_type(t), Fraction(int(n), left)) for t, n in enumerate(counts) if n]

    chance_outcomes = deck_draw_outcomes

    def push(self, move: MoveLike, drawn: Card | str | None = None) -> Card:
        """Play a whole turn. Draws the recorded top of the draw pile, or ``drawn`` when given
        (the chance outcome you choose). Returns the card drawn. Raises ``IllegalMoveError``."""
        reason = self.why_illegal(move)
        if reason:
            raise IllegalMoveError(f"illegal move {move}: {reason}")
        code = self._code(move)
        nc = self.colors
        src = code % (nc + 1)
        if drawn is not None:
            card = drawn if isinstance(drawn, Card) else Card.parse(drawn, nc)
            if src != 0:
                raise IllegalMoveError(f"drawn={card} only applies to a draw from the draw pile")
            if not K.bring_to_top(self.state, card.type):
                raise IllegalMoveError(f"the draw pile holds no {card}")
        p = self.to_move
        blocked_before = int(self.state[K.H_BLOCKED])
        self._stack.append((code, -1, blocked_before, self.known[p].copy()))
        place = code // (nc + 1)
        if place < 2 * RANKS_PER_COLOR * nc and self.known[p, place // 2] > 0:
            self.known[p, place // 2] -= 1
        t = int(K.apply_move(self.state, code))
        if src != 0:
            self.known[p, t] += 1
        self._stack[-1] = (code, t, blocked_before, self._stack[-1][3])
        self.history.append(Move.from_code(code, nc))
        return Card.from_type(t)

    def pop(self) -> Move:
        """Take back the last turn pushed on this object."""
        if not self._stack:
            raise IllegalMoveError("no move to take back: nothing was pushed on this position")
        code, drawn, blocked_before, known_before = self._stack.pop()
        K.undo_move(self.state, code, drawn, blocked_before)
        self.known[self.to_move] = known_before  # undo_move handed the turn back
        return self.history.pop()

    def play(self, moves: Iterable[MoveLike]) -> Position:
        """Push several turns; returns self for chaining."""
        for m in moves:
            self.push(m)
        return self

    # --- other forms ---------------------------------------------------------------

    def view(self, player: int | None = None) -> View:
        """What ``player`` (default: the player to move) knows: see ``View``."""
        from lcanalysis.game.view import View

        return View.of(self, self.to_move if player is None else player)

    def to_json(self) -> dict[str, Any]:
        return position_to_json(self)


# --- helpers shared with View ---------------------------------------------------------


def parse_history(history: Iterable[Any], colors: int) -> list[Move]:
    moves = []
    for i, m in enumerate(history):
        try:
            moves.append(m if isinstance(m, Move) else Move.parse(m, colors))
        except MoveError as exc:
            raise PositionError(f"history move {i + 1}: {exc}") from None
    return moves


def table_state(rules: Rules, to_move: int, phase: str, blocked: str | None,
                 expeditions: Sequence[Iterable[Any]], discards: Iterable[Any]) -> tuple[np.ndarray, np.ndarray]:
    """The kernel array with the public table filled in, and the count per type used so far."""
    nc = rules.colors
    if to_move not in (0, 1):
        raise PositionError(f"to_move must be 0 or 1, got {to_move!r}")
    if phase not in ("place", "draw"):
        raise PositionError(f"phase must be 'place' or 'draw', got {phase!r}")
    s = K.new_state(nc, rules.hand_size, rules.no_redraw, rules.turn_cap)
    s[K.H_TO_MOVE] = to_move
    counts = np.zeros(number_types(nc), dtype=np.int64)
    if len(expeditions) != 2:
        raise PositionError(f"expeditions must list two players, got {len(expeditions)}")
    for p in range(2):
        cards = as_cards(expeditions[p], nc, f"expeditions of player {p}")
        for c in range(nc):
            mine = [card for card in cards if card.color == c]
            check_expedition(mine, f"expedition {COLOR_LETTERS[c]} of player {p}")
            for card in mine:
                counts[card.type] += 1
                if card.is_wager:
                    s[K.off_wagers(nc, p) + c] += 1
                else:
                    s[K.off_mask(nc, p) + c] |= 1 << (card.rank - 1)
    pile_cards = as_cards(discards, nc, "discards")
    for card in pile_cards:
        counts[card.type] += 1
        c = card.color
        n = s[K.off_pile_len(nc) + c]
        if n < K.PILE_CAP:
            s[K.off_pile(nc) + c * K.PILE_CAP + n] = card.rank
            s[K.off_pile_len(nc) + c] = n + 1
    check_copies(counts, nc)
    if phase == "draw":
        s[K.H_PHASE] = 1
        if blocked is None:
            s[K.H_BLOCKED] = -1
        else:
            try:
                b = COLOR_LETTERS[:nc].index(str(blocked).upper())
            except ValueError:
                raise PositionError(f"blocked must be a colour letter or null, got {blocked!r}") from None
            if s[K.off_pile_len(nc) + b] == 0:
                raise PositionError(f"blocked colour {COLOR_LETTERS[b]}: its discard pile is empty")
            s[K.H_BLOCKED] = b
    elif blocked is not None:
        raise PositionError("blocked is only meaningful in the draw step (phase 'draw')")
    return s, counts
