"""The full state of a round: both hands, the table, the ordered draw pile.

A ``Position`` wraps the kernel's integer array (``core/kernel.py`` holds the rules) and
adds what a user needs: cards and moves as objects, ``push``/``pop``, explicit chance
(``deck_draw_outcomes``), legality with reasons, a player's ``view``, JSON and the
one-line string, and pictures in a notebook.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from fractions import Fraction
from itertools import islice
from typing import TYPE_CHECKING, Any

import numpy as np

from lcanalysis.core import first_compile
from lcanalysis.core import kernel as K
from lcanalysis.core.constants import WAGER_COPIES
from lcanalysis.game.cards import (
    CARDS_PER_COLOR,
    COLOR_LETTERS,
    COLOR_NAMES,
    RANKS_PER_COLOR,
    Buried,
    Card,
    CardError,
    brief,
    color_index,
    color_name,
    colour_count_hint,
    copies,
    full_deck,
    number_types,
    whole_number,
)
from lcanalysis.game.formats import Notated, position_to_json
from lcanalysis.game.moves import DRAW_PILE, Move, MoveError
from lcanalysis.game.rules import REASONS, IllegalMoveError, Rules, RulesError
from lcanalysis.options import check_seed

if TYPE_CHECKING:
    from lcanalysis.game.view import View

MoveLike = Move | str | int


class PositionError(ValueError):
    """A position or view that cannot arise in the game; the message names the problem."""




def round_score_range(rules: Rules) -> tuple[int, int]:
    """The least and the most one player's round can score under ``rules`` (docs/spec/rules.md, "The
    deck"): at least every colour opened with its wagers alone and nothing else, (0 - 20) x 4 = -80 a
    colour; at most every card of every colour on one's own expeditions, three wagers and 2 to 10 with
    the bonus for eight cards, (54 - 20) x 4 + 20 = 156 a colour (780 with five colours, 936 with six)."""
    worst = int(K.expedition_points(WAGER_COPIES, 0, 0))
    best = int(K.expedition_score(WAGER_COPIES, K.FULL9))
    return rules.colors * worst, rules.colors * best


def as_rules(rules: Any) -> Rules:
    """``Rules`` from a ``Rules``, a dict of its options (as JSON writes them) or None (the defaults)."""
    if rules is None:
        return Rules()
    if isinstance(rules, Rules):
        return rules
    if isinstance(rules, Mapping):
        return Rules.from_dict(rules)
    raise PositionError(f"rules must be a Rules, a dict of its options or None, got {brief(rules)}")


def parts_rules(rules: Any) -> Rules:
    """``as_rules`` for ``from_parts``, whose every refusal is a ``PositionError`` (a bad option too)."""
    try:
        return as_rules(rules)
    except RulesError as exc:
        raise PositionError(str(exc)) from None


def as_cards(items: Iterable[Any], colors: int, where: str, limit: int | None = None) -> list[Card]:
    """The cards of a list of card strings, ``Card`` objects or type codes. Refuses anything that is
    not a list of cards, and stops reading at ``limit`` cards (default: the whole deck), so an
    endless or huge iterable costs nothing."""
    if isinstance(items, (str, bytes, Mapping)) or not isinstance(items, Iterable):
        raise PositionError(f"{where} must be a list of cards like ['R7', 'Gw'], got {brief(items)}")
    limit = CARDS_PER_COLOR * colors if limit is None else limit
    out: list[Card] = []
    for item in items:
        if len(out) >= limit:
            raise PositionError(f"{where}: more than {limit} cards (the {colors}-colour deck has "
                                f"{CARDS_PER_COLOR * colors})")
        try:
            if isinstance(item, Card):
                card = item
            elif isinstance(item, (int, np.integer)) and not isinstance(item, bool):
                card = Card.from_type(int(item))  # a type code, as View.splits yields
            elif isinstance(item, Buried):  # read as its text, "G?": refused saying where a buried card may be
                card = Card.parse(str(item), colors)
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
                raise PositionError(f"{where}: wager {card} placed after a number ({card.color_letter}{seen_number}): "
                                    "an expedition's wagers come before its first number")
        else:
            if card.number <= seen_number:
                raise PositionError(f"{where}: descending expedition ({card} after {card.color_letter}{seen_number})")
            seen_number = card.number


def hand_size_error(player: int, size: Any, want: int, to_move: int, phase: str, extra: str = "",
                    explain_draw_step: bool = True) -> PositionError:
    """The refusal of a hand of the wrong size. A mover one card short in the place step, or one
    card over in the draw step, is most likely a player who mixed up the two steps of a turn
    (they placed their card and now ask where to draw from), so it says how to write the draw step."""
    text = f"hand of player {player} has {brief(size)} card{'' if size == 1 else 's'}; it must have {want}{extra}"
    if not explain_draw_step or player != to_move:
        return PositionError(text)
    if phase != "draw" and size == want - 1:
        text += ("; if you have already placed this turn's card and must now draw, say so: draw=C after "
                 "discarding onto the C pile, draw=- after playing to an expedition (in JSON, \"phase\": "
                 "\"draw\" and \"blocked\": \"C\" or null)")
    elif phase == "draw" and size == want + 1:
        text += ("; in the draw step (draw= in the one-line string, \"phase\": \"draw\" in JSON) this "
                 "turn's card is already placed: leave draw= out if it is still in the hand")
    return PositionError(text)


def player_number(value: Any, what: str) -> int:
    """0 or 1 as an int (numpy integers too); anything else, bools included, is refused."""
    number = whole_number(value)
    if number not in (0, 1):
        raise PositionError(f"{what} must be 0 or 1, got {brief(value)}")
    return number


def color_number(color: Any, colors: int) -> int:
    """A colour of a round of ``colors`` colours as its number: 0 to ``colors - 1``, or its letter ("R")."""
    if isinstance(color, str):
        return color_index(color, colors)
    number = whole_number(color)
    if number is None or not 0 <= number < colors:
        raise PositionError(f"color must be a colour number from 0 to {colors - 1} or a letter "
                            f"({' '.join(COLOR_LETTERS[:colors])}), got {brief(color)}")
    return number


def flat_piles(items: Any, nc: int, where: str) -> Any:
    """Cards given by colour, a mapping of colour letter (or number) to that colour's cards in order
    (as JSON writes piles and expeditions, and ``Position.discards()`` and ``expeditions(p)`` give
    them), as one list, each card checked to be of its colour; anything else as it is."""
    if not isinstance(items, Mapping):
        return items
    out: list[Any] = []
    for key, cards in items.items():
        try:
            c = color_number(key, nc)
        except CardError as exc:
            raise PositionError(f"{where} {brief(key)}: {exc}") from None
        pile = f"{where} {COLOR_LETTERS[c]}"
        if isinstance(cards, (str, bytes, Mapping)) or not isinstance(cards, Iterable):
            raise PositionError(f"{pile} must be a list of cards like ['R7', 'Gw'], got {brief(cards)}")
        listed = list(islice(cards, CARDS_PER_COLOR + 1))
        if len(listed) > CARDS_PER_COLOR:
            raise PositionError(f"{pile}: more than {CARDS_PER_COLOR} cards (a colour has {CARDS_PER_COLOR})")
        for item in listed:  # (a discard pile's card nobody remembers, "G?", is a card of its colour too)
            card = Buried.parse(item, nc) or as_cards([item], nc, pile)[0]
            if card.color != c:
                raise PositionError(f"{pile} holds {card}, a card of another colour")
            out.append(item)
    return out


def seed_number(seed: Any) -> int | None:
    """A shuffle seed: a whole number 0 or above, or None (fresh randomness)."""
    return check_seed("seed", seed, PositionError, most=None, none="fresh randomness")  # (numpy's generator takes any)


def pair(value: Any, what: str) -> list[Any]:
    """The two entries (one per player) of a list, refusing anything else without reading it all."""
    if isinstance(value, (str, bytes, Mapping)) or not isinstance(value, Iterable):
        raise PositionError(f"{what} must be a list of two (one per player), got {brief(value)}")
    items = list(islice(value, 3))
    if len(items) != 2:
        raise PositionError(f"{what} must list two players, got {len(items) if len(items) < 3 else 'more'}")
    return items


def check_match(match: Any, rules: Rules) -> dict[str, Any] | None:
    """The match state ``{"round": n, "totals": [a, b]}`` (running totals before round n), normalised;
    refused when it cannot arise under ``rules`` (round beyond ``rules.rounds``, totals beyond what
    the rounds played can score)."""
    if match is None:
        return None
    if not isinstance(match, Mapping) or any(key not in ("round", "totals") for key in match):
        raise PositionError(f"match must be an object {{\"round\": n, \"totals\": [a, b]}}, got {brief(match)}")
    missing = [key for key in ("round", "totals") if key not in match]
    if missing:  # a forgotten score would be read as a level match, and every match chance with it
        raise PositionError(f"match must give both the round and the running totals, {{\"round\": n, "
                            f"\"totals\": [a, b]}}; {' and '.join(map(repr, missing))} missing in {brief(match)}")
    r = match["round"]
    number = whole_number(r)
    if number is None or not 1 <= number <= rules.rounds:
        raise PositionError(f"match round must be a whole number 1..{rules.rounds} (the rules' rounds), "
                            f"got {brief(r)}")
    totals = match["totals"]
    least, most = (x * (number - 1) for x in round_score_range(rules))  # what the rounds played can score
    pair_ = [] if isinstance(totals, (str, bytes, Mapping)) or not isinstance(totals, Sequence) else list(totals[:3])
    values = [whole_number(t) for t in pair_]
    if len(values) != 2 or any(v is None or not least <= v <= most for v in values):
        what = ("0 and 0 before round 1 (no round has been played)" if number == 1 else
                f"two whole numbers (the running totals before round {number}: from {least} to {most}, what "
                f"{number - 1} round(s) of {rules.colors} colours can score)")
        raise PositionError(f"match totals must be {what}, got {brief(totals)}")
    return {"round": number, "totals": values}


#: where a position's cards lie, each place named as an error names it ("hand of player 1"), for
#: saying where a card is one time too many; read only then (a callable: no cost when all is well)
Places = Callable[[], Sequence[tuple[str, Sequence[Any]]]]


def check_copies(counts: np.ndarray, colors: int, places: Places | None = None) -> None:
    """Refuse more copies of a card than the deck holds, naming the card and, given ``places``,
    where it lies (a position entered by hand: "in the hand of player 1 and the discard piles")."""
    for t in range(number_types(colors)):
        if counts[t] > copies(t):
            card = Card.from_type(t)
            found = _places_of(card, places) if places is not None else []
            where = _in_words(found)
            if copies(t) == 1 and len(found) == 1:  # one place holds it twice: "appears in two places" is wrong
                raise PositionError(f"card {card} appears {counts[t]} times in {_the(found[0][0])}; the deck has one")
            if copies(t) == 1:
                raise PositionError(f"card {card} appears in two places{where} ({counts[t]} times; the deck has one)")
            raise PositionError(f"{counts[t]} copies of {card}{where}: the deck has only {copies(t)}")


def _places_of(card: Card, places: Places) -> list[tuple[str, int]]:
    """The places that hold ``card``, each with how many times: [("hand of player 1", 1), ...]."""
    found = []
    for label, cards in places():
        n = sum(1 for c in cards if isinstance(c, Card) and c.type == card.type)
        if n:
            found.append((label, n))
    return found


def _in_words(found: list[tuple[str, int]]) -> str:
    """": in the hand of player 1 and the discard piles (2 times)", or "" when no place names it."""
    named = [_the(label) if n == 1 else f"{_the(label)} ({n} times)" for label, n in found]
    if not named:
        return ""
    return ": in " + (" and ".join(named) if len(named) <= 2 else ", ".join(named[:-1]) + " and " + named[-1])


def _the(place: str) -> str:
    """A place with its article: "the hand of player 1", but "my hand" (the position builder's words)."""
    return place if place.startswith("my ") else f"the {place}"


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
        first_compile.ready(first_compile.RULES)  # (compiled once, saying so: core.first_compile)
        self.rules = rules
        self.state = state
        self.history: list[Move] = list(history or [])
        nt = number_types(rules.colors)
        self.known = np.zeros((2, nt), dtype=np.int32) if known is None else known
        self.match = match
        # a pushed turn's undo entry: its code, the card it drew, the pile blocked before it, and the card
        # type it placed that the opponent knew was in the hand (-1: none); small ints, no array a turn
        self._stack: list[tuple[int, int, int, int]] = []
        self._moves_buf = np.empty(K.MAX_MOVES, dtype=np.int32)

    # --- construction --------------------------------------------------------

    @classmethod
    def deal(cls, seed: int | None = None, rules: Rules | None = None, starter: int = 0) -> Position:
        """Shuffle with ``seed`` (numpy's default_rng) and deal ``hand_size`` cards to each player:
        the first ``hand_size`` of the shuffled deck to player 0, the next to player 1, the rest
        is the draw pile (top first). ``starter`` moves first."""
        rules = as_rules(rules)
        if isinstance(starter, bool) or starter not in (0, 1):
            raise PositionError(f"starter must be 0 or 1, got {starter!r}")
        first_compile.ready(first_compile.RULES)  # after the checks: a bad argument is refused at once
        nc, h = rules.colors, rules.hand_size
        deck = np.array(full_deck(nc), dtype=np.int32)
        deck = np.random.default_rng(seed_number(seed)).permutation(deck)
        s = empty_state(rules)
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
        check_history: bool = True,
    ) -> Position:
        """Build and validate a full position. Expeditions and discards are card lists in the
        order placed (cards of several colours may be mixed: each colour keeps its order), or
        dicts of colour letter to cards, as JSON writes them and ``discards()`` and
        ``expeditions(player)`` give them; ``deck`` is top first. A non-empty ``history`` is the
        round so far from the deal, and must lead to this table (``check_history=False`` skips
        that replay, for a history already checked). Raises ``PositionError`` naming the first problem found."""
        rules = parts_rules(rules)  # (a dict of its options too, as Position.deal takes)
        nc = rules.colors
        to_move = player_number(to_move, "to_move")
        hands = pair(hands, "hands")
        state, counts = table_state(rules, to_move, phase, blocked, expeditions, discards)
        for p in range(2):
            hand = as_cards(hands[p], nc, f"hand of player {p}")
            want = rules.hand_size - (1 if phase == "draw" and p == to_move else 0)
            if len(hand) != want:
                raise hand_size_error(p, len(hand), want, to_move, phase)
            for card in hand:
                state[K.off_hand(nc, p) + card.type] += 1
                counts[card.type] += 1
        deck_cards = as_cards(deck, nc, "deck (the draw pile)")
        od = K.off_deck(nc)
        for j, card in enumerate(deck_cards):
            counts[card.type] += 1
            if j >= CARDS_PER_COLOR * nc:
                break
            state[od + j] = card.type
        check_copies(counts, nc, lambda: [*table_places(nc, pair(expeditions, "expeditions"),
                                                        as_cards(discards, nc, "discards")),
                                          *((f"hand of player {p}", as_cards(hands[p], nc, "hand")) for p in range(2)),
                                          ("deck", deck_cards)])
        missing = rules.deck_size - int(counts.sum())
        if missing:
            absent = [str(Card.from_type(t)) for t in range(number_types(nc)) if counts[t] < copies(t)]
            raise PositionError(
                f"counts do not add up: {missing} card(s) of the {rules.deck_size}-card deck are nowhere "
                f"({', '.join(absent[:8])}{'...' if len(absent) > 8 else ''}){colour_count_hint(nc, missing)}"
            )
        state[K.H_DECK_END] = len(deck_cards)
        moves = parse_history(history, nc, rules.turn_cap)
        state[K.H_TURN] = len(moves)
        match = check_match(match, rules)
        known_arr = np.zeros((2, number_types(nc)), dtype=np.int32)
        if known is not None:
            known = pair(known, "known")
            for p in range(2):
                for card in as_cards(known[p], nc, f"known cards of player {p}"):
                    known_arr[p, card.type] += 1
                if np.any(known_arr[p] > state[K.off_hand(nc, p):K.off_hand(nc, p) + number_types(nc)]):
                    raise PositionError(f"known cards of player {p} are not all in that player's hand")
        pos = cls(rules, state, moves, known_arr, match)
        if check_history and moves:
            taken = verify_history(moves, rules, pos.to_move, pos.phase, pos.blocked,
                                   [[pos.expedition(p, c) for c in range(nc)] for p in range(2)],
                                   [pos.discard_pile(c) for c in range(nc)], pos.deck_count,
                                   [Counter(card.type for card in pos.hand(p)) for p in range(2)])
            for p, cards in enumerate(taken or ()):  # what the history shows taken is known, given or not
                for t, k in cards.items():
                    pos.known[p, t] = max(int(pos.known[p, t]), k)
        return pos

    def copy(self) -> Position:
        """An independent copy: pushing or popping turns on one leaves the other as it is."""
        other = Position(self.rules, self.state.copy(), list(self.history), self.known.copy(),
                         dict(self.match) if self.match else None)
        # the entries are tuples of ints, never changed once pushed, so the copies share them: a copy
        # a turn (a record's replay) costs a pointer an entry
        other._stack = list(self._stack)
        return other

    # --- reading the state -----------------------------------------------------

    @property
    def colors(self) -> int:
        """The number of colours of the game (5, or 6 with purple): ``rules.colors``."""
        return self.rules.colors

    @property
    def to_move(self) -> int:
        """The player to move, 0 or 1."""
        return int(self.state[K.H_TO_MOVE])

    @property
    def turn(self) -> int:
        """Turns played this round."""
        return int(self.state[K.H_TURN])

    @property
    def phase(self) -> str:
        """``"place"`` (a card to play or discard) or ``"draw"`` (the draw half of a turn alone)."""
        return "draw" if self.state[K.H_PHASE] == 1 else "place"

    @property
    def blocked(self) -> str | None:
        """In the draw step, the letter of the pile the card just discarded went to (it cannot be
        taken back at once); None otherwise."""
        b = int(self.state[K.H_BLOCKED])
        return COLOR_LETTERS[b] if b >= 0 and self.phase == "draw" else None

    @property
    def deck_count(self) -> int:
        """Cards left in the draw pile."""
        return int(K.deck_left(self.state))

    def is_over(self) -> bool:
        """Whether the round is over: the draw pile is empty, or the turn cap was reached."""
        return bool(K.is_over(self.state))

    def is_capped(self) -> bool:
        """Over because of the turn cap (docs/spec/rules.md), not because the draw pile ran out."""
        return self.is_over() and self.deck_count > 0

    def over_reason(self) -> str:
        """Why the round is over, in words ("" while it is not), as ``View.over_reason`` says it."""
        if not self.is_over():
            return ""
        return "the turn cap is reached" if self.is_capped() else "the draw pile is empty"

    def hand(self, player: int) -> list[Card]:
        """``player``'s hand (0 or 1), sorted by colour and rank."""
        nc = self.colors
        o = K.off_hand(nc, player_number(player, "player"))
        return [Card.from_type(t) for t in range(number_types(nc)) for _ in range(int(self.state[o + t]))]

    def hand_counts(self, player: int) -> np.ndarray:
        """``player``'s hand as a count for each card type (``Card.type``), a copy."""
        o = K.off_hand(self.colors, player_number(player, "player"))
        return self.state[o:o + number_types(self.colors)].copy()

    def known_cards(self, player: int) -> list[Card]:
        """The cards of ``player``'s hand the opponent knows of (taken from a discard pile, or given
        as known): what ``view(1 - player)`` shows of that hand."""
        return [Card.from_type(t) for t, n in enumerate(self.known[player_number(player, "player")])
                for _ in range(int(n))]

    def expedition(self, player: int, color: int | str) -> list[Card]:
        """The cards on player's expedition of ``color`` (its number or letter), in the order placed."""
        player, color = player_number(player, "player"), color_number(color, self.colors)
        w = int(self.state[K.off_wagers(self.colors, player) + color])
        mask = int(self.state[K.off_mask(self.colors, player) + color])
        cards = [Card(color, 0)] * w
        cards += [Card(color, r) for r in range(1, RANKS_PER_COLOR) if mask & (1 << (r - 1))]
        return cards

    def expeditions(self, player: int) -> dict[str, list[Card]]:
        """``player``'s expeditions by colour letter, each in the order placed (colours with no card left out)."""
        player = player_number(player, "player")
        return {COLOR_LETTERS[c]: self.expedition(player, c) for c in range(self.colors) if self.expedition(player, c)}

    def discard_pile(self, color: int | str) -> list[Card]:
        """Bottom first; the last card is the one a player can take (``color``: number or letter)."""
        color = color_number(color, self.colors)
        nc = self.colors
        n = int(self.state[K.off_pile_len(nc) + color])
        o = K.off_pile(nc) + color * K.PILE_CAP
        return [Card(color, int(r)) for r in self.state[o:o + n]]

    def discards(self) -> dict[str, list[Card]]:
        """The discard piles by colour letter, each bottom first (empty piles left out)."""
        return {COLOR_LETTERS[c]: self.discard_pile(c) for c in range(self.colors) if self.discard_pile(c)}

    @property
    def deck(self) -> list[Card]:
        """The draw pile, top first."""
        od = K.off_deck(self.colors)
        pile = self.state[od + self.state[K.H_DECK_POS]: od + self.state[K.H_DECK_END]]
        return [Card.from_type(int(t)) for t in pile]

    def score(self, player: int) -> int:
        """The round score of ``player`` as the table stands."""
        return int(K.player_score(self.state, player_number(player, "player")))

    def scores(self) -> tuple[int, int]:
        """Both players' scores as the table stands (player 0's, player 1's)."""
        return self.score(0), self.score(1)

    def value_for_mover(self) -> int:
        """Score of the player to move minus the opponent's, as the table stands."""
        return self.score(self.to_move) - self.score(1 - self.to_move)

    # --- moves -------------------------------------------------------------------

    def _code(self, move: MoveLike) -> int:
        if isinstance(move, (int, np.integer)) and not isinstance(move, bool):
            code, nc = int(move), self.colors
            top = (2 * RANKS_PER_COLOR * nc + 1) * (nc + 1)  # every placement (and none) times every source
            if not 0 <= code < top:
                # (a code past a float's range, 10**400, is described: formatting it as one overflowed)
                shown = code if abs(code) < 10**12 else f"{code:.3g}" if abs(code) < 10**300 else brief(code)
                raise MoveError(f"move code {shown} is out of range: "
                                f"a move code is 0..{top - 1} with {nc} colours")
            return code
        if isinstance(move, str):
            move = Move.parse(move, self.colors)
        if not isinstance(move, Move):
            raise MoveError(f"not a move: {move!r}")
        return move.code(self.colors)

    def _named(self, move: MoveLike) -> str:
        """``move`` for a message: a move code also as the turn it stands for (a plain 5 is a code);
        empty for a code out of range (the reason names it)."""
        if isinstance(move, (int, np.integer)) and not isinstance(move, bool):
            try:
                return f"code {int(move)} ({Move.from_code(self._code(move), self.colors)})"
            except MoveError:
                return ""
        return str(move)

    def legal_codes(self) -> np.ndarray:
        """The legal turns as kernel move codes (``Move.from_code(code, colors)`` reads one)."""
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
        """Whether ``move`` (a ``Move``, its text such as ``"+R7/D"``, or a code) is legal here;
        ``why_illegal`` says why not."""
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
            named = self._named(move)
            raise IllegalMoveError(f"illegal move{' ' + named if named else ''}: {reason}")
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
        place = code // (nc + 1)
        placed_known = -1  # the card placed, when the opponent knew it was in the hand
        if place < 2 * RANKS_PER_COLOR * nc and self.known[p, place // 2] > 0:
            placed_known = place // 2
        t = int(K.apply_move(self.state, code))
        if placed_known >= 0:
            self.known[p, placed_known] -= 1
        if src != 0:
            self.known[p, t] += 1
        self._stack.append((code, t, blocked_before, placed_known))
        self.history.append(Move.from_code(code, nc))
        return Card.from_type(t)

    def pop(self) -> Move:
        """Take back the last turn pushed on this object."""
        if not self._stack:
            raise IllegalMoveError("no move to take back: nothing was pushed on this position")
        code, drawn, blocked_before, placed_known = self._stack.pop()
        K.undo_move(self.state, code, drawn, blocked_before)
        p = self.to_move  # undo_move handed the turn back
        if code % (self.colors + 1) != 0:  # the card taken from a discard pile is back there
            self.known[p, drawn] -= 1
        if placed_known >= 0:
            self.known[p, placed_known] += 1
        return self.history.pop()

    def play(self, moves: Iterable[MoveLike] | str) -> Position:
        """Push several turns (or one, as a string); returns self for chaining. All or none: when a
        turn is illegal, the ones before it are taken back and the error names it. A string of
        several turns separated by spaces, as a line of the ``LCR1`` text form writes them
        (``"+Yw/D -Bw/D"``), is those turns."""
        if isinstance(moves, str):
            # one turn has one '/' (and may hold spaces: '+R7 /D'); more are turns separated by spaces
            moves = moves.split() if moves.count("/") > 1 else [moves]  # not its characters, one by one
        try:
            listed = list(moves)
        except TypeError:
            raise MoveError(f"moves must be a list of turns (or one turn), got {brief(moves)}") from None
        done = 0
        try:
            for m in listed:
                self.push(m)
                done += 1
        except (MoveError, IllegalMoveError) as exc:
            for _ in range(done):
                self.pop()
            raise IllegalMoveError(f"turn {done + 1} of {len(listed)}: {exc} (none of them was played)") from None
        return self

    # --- other forms ---------------------------------------------------------------

    def view(self, player: int | None = None) -> View:
        """What ``player`` (default: the player to move) knows: see ``View``."""
        from lcanalysis.game.view import View

        return View.of(self, self.to_move if player is None else player)

    def to_json(self) -> dict[str, Any]:
        """The JSON object of docs/spec/interchange.md (both hands and the draw pile's order);
        ``read_position`` reads it back."""
        return position_to_json(self)


# --- helpers shared with View ---------------------------------------------------------


def parse_history(history: Iterable[Any], colors: int, cap: int | None = None) -> list[Move]:
    """The moves of a history (strings or ``Move`` objects), oldest first. With ``cap`` (the turn
    cap) a longer history is refused as soon as it is seen to be longer, without reading the rest;
    equal strings share one ``Move``, so a long history costs a pointer per turn."""
    if isinstance(history, (str, bytes, Mapping)) or not isinstance(history, Iterable):
        raise PositionError(f"history must be a list of moves like ['+R7/D', '-Bw/G'], got {brief(history)}")
    moves: list[Move] = []
    seen: dict[str, Move] = {}
    for i, m in enumerate(history):
        if cap is not None and i >= cap:
            raise PositionError(f"history has more than {cap} turns, but a round ends at the turn cap "
                                f"of {cap} turns (rules turn_cap)")
        move = seen.get(m) if isinstance(m, str) else None
        if move is None:
            try:
                move = m if isinstance(m, Move) else Move.parse(m, colors)
                if isinstance(m, Move):
                    move.code(colors)  # a Move object of a colour this game does not have is refused
            except MoveError as exc:
                raise PositionError(f"history move {i + 1}: {exc}") from None
            if isinstance(m, str):
                seen[m] = move
        moves.append(move)
    return moves


def _cards_text(cards: Sequence[Card]) -> str:
    return "[" + ", ".join(str(c) for c in cards) + "]"


def verify_history(moves: Sequence[Move], rules: Rules, to_move: int, phase: str, blocked: str | None,
                   expeditions: Sequence[Sequence[Sequence[Card]]], piles: Sequence[Sequence[Card]],
                   deck_count: int, held: Sequence[Counter | None], visible: Counter | None = None,
                   claimed: Sequence[Counter | None] = (None, None)) -> list[Counter[int]] | None:
    """Refuse a history (the round so far, from the deal) that cannot have led to this table, as
    far as a player can know: the public part of every turn is replayed from the empty table.

    ``expeditions[p][c]`` and ``piles[c]`` are the table's cards in the order placed,
    ``deck_count`` the draw pile's size; ``held[p]`` counts the cards known to be in player p's
    hand now (None when unknown: the opponent in a view), ``visible`` every card the viewer sees
    (the table and their hand) when one hand is unknown, ``claimed[p]`` the cards a view says that
    unknown hand is known to hold (each must have been taken from a discard pile and not placed
    since: there is no other way to know an opponent's card). Checked: the turn count against the
    turn cap; the draws from the draw pile against its size; every turn legal on the public
    table (a card that is on the table, or known to be in the other hand, cannot be placed; a
    number goes above the expedition's top; a discard-pile draw needs a card there, and not the
    one just discarded under the no-redraw rule); the replayed expeditions and discard piles equal
    the table's (in the draw step, but for the one card just placed by the player to move); a
    card taken from a discard pile and not placed since is still in that hand.

    A turn recorded as its draw half alone (``/D``: the history of a position read in its draw
    step) hides which card was placed; a history holding one is checked only for its turn count,
    its draws from the draw pile, and that every card it plays is on that player's expeditions.

    Returns the cards each player took from a discard pile and has not placed since (so everyone
    knows they hold them), or None when the history is empty or hides a placement.
    """
    n = len(moves)
    if not n:
        return None
    nc = rules.colors
    cap = rules.turn_cap
    if n > cap or (phase == "draw" and n >= cap):
        raise PositionError(f"history: {n} turns {'and a card placed ' if phase == 'draw' else ''}but the round "
                            f"ends at the turn cap of {cap} turns (rules turn_cap)")
    start_deck = rules.draw_pile_after_deal
    deck_draws = sum(1 for m in moves if m.source == DRAW_PILE)
    if start_deck - deck_draws != deck_count:
        raise PositionError(f"history does not lead to this table: the draw pile holds {start_deck} cards after "
                            f"the deal and the history draws {deck_draws} of them, which leaves "
                            f"{start_deck - deck_draws}, but the position's draw pile has {deck_count}")
    first = (to_move + n) % 2  # who played the history's first turn: the players alternate
    partial = any(m.card is None for m in moves)
    exps: list[list[list[Card]]] = [[[] for _ in range(nc)] for _ in range(2)]
    pile: list[list[Card]] = [[] for _ in range(nc)]
    known: list[Counter[int]] = [Counter(), Counter()]  # cards taken from a discard pile and not placed since
    on_table: Counter[int] = Counter()
    played: list[Counter[int]] = [Counter(), Counter()]
    deck_left = start_deck

    def refuse(i: int, why: str) -> PositionError:
        return PositionError(f"history turn {i + 1} ({moves[i]}, player {(first + i) % 2}): {why}")

    for i, m in enumerate(moves):
        p = (first + i) % 2
        if deck_left <= 0:
            raise refuse(i, "the draw pile was already empty, so the round was over")
        if m.source == DRAW_PILE:
            deck_left -= 1
        card = m.card
        if partial:
            if card is not None and m.play:
                played[p][card.type] += 1
            continue
        assert card is not None
        t, c = card.type, card.color
        if on_table[t] + known[1 - p][t] >= copies(t):
            where = "on the table" if on_table[t] >= copies(t) else f"known to be in player {1 - p}'s hand"
            raise refuse(i, f"{card} cannot be in player {p}'s hand: {'every copy is' if copies(t) > 1 else 'it is'} "
                            f"{where}")
        if m.play:
            top = max((x.number for x in exps[p][c]), default=0)
            if card.is_wager and top:
                raise refuse(i, REASONS[4])
            if not card.is_wager and card.number <= top:
                raise refuse(i, REASONS[5])
            exps[p][c].append(card)
        else:
            pile[c].append(card)
        on_table[t] += 1
        if known[p][t]:
            known[p][t] -= 1
        if m.source != DRAW_PILE:
            d = COLOR_LETTERS.index(m.source)
            if not pile[d]:
                raise refuse(i, REASONS[8])
            if rules.no_redraw and not m.play and d == c:
                raise refuse(i, REASONS[9])
            taken = pile[d].pop()
            on_table[taken.type] -= 1
            known[p][taken.type] += 1
    if phase == "draw" and deck_left <= 0:
        raise PositionError("history: the draw pile is empty after it, so the round is over and no card can "
                            "have been placed since (phase 'draw')")
    if partial:
        for p in range(2):
            for t, k in played[p].items():
                card = Card.from_type(t)
                if sum(1 for x in expeditions[p][card.color] if x == card) < k:
                    raise PositionError(f"history does not lead to this table: player {p} played {card} onto an "
                                        f"expedition, but player {p}'s expeditions do not hold it")
        return None
    extra: list[tuple[Card, int | None]] = []  # the card just placed, in the draw step: (card, its pile or None)
    for p in range(2):
        for c in range(nc):
            want, have = exps[p][c], list(expeditions[p][c])
            if have == want:
                continue
            if phase == "draw" and p == to_move and len(have) == len(want) + 1 and have[:-1] == want:
                extra.append((have[-1], None))
                continue
            raise PositionError(f"history does not lead to this table: after its {n} turns player {p}'s "
                                f"{COLOR_NAMES[c]} expedition holds {_cards_text(want)}, but the position has "
                                f"{_cards_text(have)}")
    for c in range(nc):
        want, have = pile[c], list(piles[c])
        if have == want:
            continue
        if phase == "draw" and len(have) == len(want) + 1 and have[:-1] == want:
            extra.append((have[-1], c))
            continue
        raise PositionError(f"history does not lead to this table: after its {n} turns the {COLOR_NAMES[c]} "
                            f"discard pile holds {_cards_text(want)} (bottom first), but the position has "
                            f"{_cards_text(have)}")
    if phase == "draw":
        if len(extra) != 1:
            raise PositionError(f"history does not lead to this table: in the draw step the table holds the "
                                f"history's cards and the one card player {to_move} just placed, but "
                                f"{len(extra)} cards differ")
        placed, onto_pile = extra[0]
        if blocked is not None and onto_pile != COLOR_LETTERS.index(blocked):
            raise PositionError(f"blocked {blocked} says player {to_move} just discarded onto the "
                                f"{color_name(blocked)} pile, but the card placed after the "
                                f"history is {placed}{' on an expedition' if onto_pile is None else ''}")
        if known[to_move][placed.type]:
            known[to_move][placed.type] -= 1
    for p in range(2):
        hand = held[p]
        if hand is None:
            for t, k in (claimed[p] or Counter()).items():
                if known[p][t] < k:
                    raise PositionError(f"history: player {p} is known to hold {Card.from_type(t)}"
                                        f"{f' ({k} copies)' if k > 1 else ''}, but the history shows no draw of it "
                                        "from a discard pile that is still in that hand")
            if visible is not None:
                for t, k in known[p].items():
                    if visible[t] + k > copies(t):
                        raise PositionError(f"history: player {p} took {Card.from_type(t)} from a discard pile "
                                            "and has not placed it since, but it is in sight elsewhere")
            continue
        for t, k in known[p].items():
            if hand[t] < k:
                raise PositionError(f"history: player {p} took {Card.from_type(t)} from a discard pile and has "
                                    "not placed it since, but that player's hand does not hold it")
    return known


def empty_state(rules: Rules) -> np.ndarray:
    """The kernel array of ``rules``' game with nothing dealt: the one place the rules are read into it."""
    return K.new_state(rules.colors, rules.hand_size, rules.no_redraw, rules.turn_cap)


def table_state(rules: Rules, to_move: int, phase: str, blocked: str | None,
                 expeditions: Sequence[Iterable[Any]], discards: Iterable[Any]) -> tuple[np.ndarray, np.ndarray]:
    """The kernel array with the public table filled in, and the count per type used so far."""
    nc = rules.colors
    to_move = player_number(to_move, "to_move")
    if not isinstance(phase, str) or phase not in ("place", "draw"):
        raise PositionError(f"phase must be 'place' or 'draw', got {brief(phase)}")
    # (every full position and view is built here or dealt; after the checks above, refused at once)
    first_compile.ready(first_compile.RULES)
    s = empty_state(rules)
    s[K.H_TO_MOVE] = to_move
    counts = np.zeros(number_types(nc), dtype=np.int64)
    expeditions = pair(expeditions, "expeditions")
    for p in range(2):
        cards = as_cards(flat_piles(expeditions[p], nc, f"expeditions of player {p}:"), nc,
                         f"expeditions of player {p}")
        for c in range(nc):
            mine = [card for card in cards if card.color == c]
            check_expedition(mine, f"expedition {COLOR_LETTERS[c]} of player {p}")
            for card in mine:
                counts[card.type] += 1
                if card.is_wager:
                    s[K.off_wagers(nc, p) + c] += 1
                else:
                    s[K.off_mask(nc, p) + c] |= 1 << (card.rank - 1)
    pile_cards = as_cards(flat_piles(discards, nc, "discards: pile"), nc, "discards")
    for card in pile_cards:
        counts[card.type] += 1
        c = card.color
        n = s[K.off_pile_len(nc) + c]
        if n < K.PILE_CAP:
            s[K.off_pile(nc) + c * K.PILE_CAP + n] = card.rank
            s[K.off_pile_len(nc) + c] = n + 1
    check_copies(counts, nc, lambda: table_places(nc, expeditions, pile_cards))
    if phase == "draw":
        s[K.H_PHASE] = 1
        if blocked is None:
            s[K.H_BLOCKED] = -1
        else:
            letter = blocked.upper() if isinstance(blocked, str) and len(blocked) == 1 else ""
            if len(letter) != 1 or letter not in COLOR_LETTERS[:nc]:
                raise PositionError(f"blocked must be a colour letter of the {nc}-colour game "
                                    f"({' '.join(COLOR_LETTERS[:nc])}) or null, got {brief(blocked)}")
            b = COLOR_LETTERS.index(letter)
            if s[K.off_pile_len(nc) + b] == 0:
                raise PositionError(f"blocked colour {COLOR_LETTERS[b]}: its discard pile is empty")
            s[K.H_BLOCKED] = b
    elif blocked is not None:
        raise PositionError(f"blocked is only meaningful in the draw step (phase 'draw'), got {brief(blocked)}")
    return s, counts


def table_places(nc: int, expeditions: Sequence[Iterable[Any]],
                 discards: Iterable[Any]) -> list[tuple[str, Sequence[Any]]]:
    """The table's places for ``check_copies``: each player's expeditions and the discard piles
    (the expeditions read again: only when a card is there too often)."""
    return [(f"expeditions of player {p}", as_cards(expeditions[p], nc, "expeditions")) for p in range(2)] + [
        ("discard piles", list(discards))]
