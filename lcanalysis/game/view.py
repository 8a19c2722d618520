"""What one player knows: the information set behind "what should I play here?".

A ``View`` holds the viewer's hand, the table, the discard piles, the draw pile's size,
the opponent's hand size and the cards known to be in it (taken from discard piles),
and the round's history. The *unseen* cards are everything else; every split of them into
the opponent's unknown cards and the draw pile is a full position consistent with the view.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field, replace
from itertools import islice
from math import comb, factorial, prod
from typing import Any

import numpy as np

from lcanalysis.game.cards import (
    CARDS_PER_COLOR,
    COLOR_LETTERS,
    RANKS_PER_COLOR,
    Buried,
    Card,
    brief,
    colour_count_hint,
    copies,
    number_types,
    types_from_counts,
    whole_number,
)
from lcanalysis.game.formats import Notated, view_to_json
from lcanalysis.game.moves import Move
from lcanalysis.game.position import (
    Position,
    PositionError,
    as_cards,
    check_copies,
    check_match,
    color_number,
    flat_piles,
    hand_size_error,
    pair,
    parse_history,
    parts_rules,
    player_number,
    seed_number,
    table_places,
    table_state,
    verify_history,
)
from lcanalysis.game.rules import Rules
from lcanalysis.options import MAX_SAMPLES, check_flag  # MAX_SAMPLES: the most sample_positions draws at once


@dataclass(eq=False, repr=False)  # compared by value, and printed, through Notated (as a Position is)
class View(Notated):
    """One player's information set. ``expeditions[p][c]`` and ``discards[c]`` are card lists in
    the order placed; ``opponent_known`` are cards known to be in the opponent's hand."""

    _picture = "view"

    rules: Rules
    viewer: int
    to_move: int
    hand: list[Card]
    expeditions: tuple[list[list[Card]], list[list[Card]]]
    discards: list[list[Card]]
    deck_count: int
    opponent_known: list[Card]
    opponent_count: int
    history: list[Move] = field(default_factory=list)
    phase: str = "place"
    blocked: str | None = None
    match: dict[str, Any] | None = None

    # --- construction ------------------------------------------------------------

    @classmethod
    def of(cls, position: Position, player: int) -> View:
        """The view ``player`` has of a full position."""
        player = player_number(player, "player")  # (a bool is not a player)
        nc = position.colors
        return cls(
            rules=position.rules,
            viewer=player,
            to_move=position.to_move,
            hand=position.hand(player),
            expeditions=tuple([position.expedition(p, c) for c in range(nc)] for p in range(2)),  # type: ignore[arg-type]
            discards=[position.discard_pile(c) for c in range(nc)],
            deck_count=position.deck_count,
            opponent_known=position.known_cards(1 - player),
            opponent_count=len(position.hand(1 - player)),
            history=list(position.history),
            phase=position.phase,
            blocked=position.blocked,
            match=dict(position.match) if position.match else None,
        )

    @classmethod
    def from_parts(cls, hand: Sequence[Any], opponent_count: int, deck_count: int, *,
                   opponent_known: Sequence[Any] = (), expeditions: Sequence[Sequence[Any]] = ((), ()),
                   discards: Sequence[Any] = (), rules: Rules | None = None, viewer: int = 0,
                   to_move: int | None = None, phase: str = "place", blocked: str | None = None,
                   history: Sequence[Any] = (), match: dict[str, Any] | None = None,
                   explain_draw_step: bool = True) -> View:
        """Build and validate a view from card lists (strings or ``Card``): the one path every
        reader takes. ``discards`` and each player's ``expeditions`` may also be dicts of colour
        letter to cards, as JSON writes them. ``explain_draw_step=False`` leaves out of a wrong hand
        size's refusal how to write the draw step (for a builder that has none). A non-empty
        ``history`` is the round so far from the deal, and must lead to this table as far as the
        viewer can know (``position.verify_history``). Raises ``PositionError`` naming the problem."""
        rules = parts_rules(rules)  # (a dict of its options too, as Position.deal takes)
        viewer = player_number(viewer, "viewer")
        to_move = viewer if to_move is None else player_number(to_move, "to_move")
        nc = rules.colors
        expeditions = pair(expeditions, "expeditions")
        expeditions = [as_cards(flat_piles(expeditions[p], nc, f"expeditions of player {p}:"), nc,
                                f"expeditions of player {p}") for p in range(2)]
        discards, buried = _with_buried(flat_piles(discards, nc, "discards: pile"), nc)
        if any(isinstance(card, Buried) for _, card in buried):
            _check_buried_places(_piles(buried, nc), history)
        _state, counts = table_state(rules, to_move, phase, blocked, expeditions, discards)
        own = as_cards(hand, nc, f"hand of player {viewer}")
        known = as_cards(opponent_known, nc, f"known cards of player {1 - viewer}")
        given = opponent_count  # (numpy's whole numbers too, as every count the library takes)
        opponent_count = whole_number(given)  # type: ignore[assignment]
        if opponent_count is None:
            raise PositionError(f"hand count of player {1 - viewer} must be a whole number, got {brief(given)}")
        for p, size in ((viewer, len(own)), (1 - viewer, opponent_count)):
            want = rules.hand_size - (1 if phase == "draw" and p == to_move else 0)
            if size != want:
                whole = (f" (the count is the whole hand, its {len(known)} known card(s) included, like "
                         f"p{p}=?{want}.{known[0]} in the one-line string)"
                         if p != viewer and known and size + len(known) == want else "")
                raise hand_size_error(p, size, want, to_move, phase, whole, explain_draw_step)
        if len(known) > opponent_count:
            raise PositionError(f"{len(known)} known cards but the opponent holds only {opponent_count}")
        given = deck_count
        deck_count = whole_number(given)  # type: ignore[assignment]
        if deck_count is None or not 0 <= deck_count <= rules.deck_size:
            raise PositionError(f"deck must be a number of cards 0..{rules.deck_size} in a view, got {brief(given)}")
        seen_by_viewer = counts.copy()  # the table
        for card in own:
            seen_by_viewer[card.type] += 1
        for card in own + known:
            counts[card.type] += 1
        check_copies(counts, nc, lambda: [*table_places(nc, expeditions, discards), (f"hand of player {viewer}", own),
                                          (f"known cards of player {1 - viewer}", known)])
        unseen = int(sum(copies(t) for t in range(number_types(nc))) - counts.sum())
        n_buried = sum(1 for _, card in buried if isinstance(card, Buried))
        if unseen != deck_count + opponent_count - len(known) + n_buried:
            also = f" + buried pile cards {n_buried}" if n_buried else ""
            hidden = deck_count + opponent_count - len(known) + n_buried
            if hidden > unseen:  # more hidden places than cards left to fill them: a count is too high
                fix = (f"{hidden - unseen} too many: check the draw pile's count and the opponent's hand size "
                       f"(the cards on the table and in your hand leave {unseen} for them)"
                       f"{colour_count_hint(rules.colors, unseen - hidden)}")
            else:  # cards the table does not account for
                fix = (f"{unseen - hidden} card(s) are nowhere: list each discard pile in full, bottom first (the "
                       f"top card last), writing a card you do not remember as its colour and '?', like G?; "
                       f"or check the draw pile's count{colour_count_hint(rules.colors, unseen - hidden)}")
            raise PositionError(
                f"counts do not add up: {unseen} unseen cards, but deck {deck_count} + opponent's unknown "
                f"{opponent_count - len(known)}{also} = {hidden}; {fix}"
            )
        exps = tuple([[card for card in expeditions[p] if card.color == c] for c in range(nc)] for p in range(2))
        piles = _piles(buried, nc)
        if n_buried:
            _check_buried_counts(piles, counts, nc)
        moves = parse_history(history, nc, rules.turn_cap)
        match = check_match(match, rules)
        blocked = blocked.upper() if blocked else None
        if moves:
            held: list[Counter | None] = [None, None]
            held[viewer] = Counter(card.type for card in own)
            claimed: list[Counter | None] = [None, None]
            claimed[1 - viewer] = Counter(card.type for card in known)
            taken = verify_history(moves, rules, to_move, phase, blocked, exps, piles, deck_count, held,
                                   Counter({t: int(k) for t, k in enumerate(seen_by_viewer) if k}), claimed)
            if taken is not None:  # what the history shows the opponent took is known, listed or not
                known = [Card.from_type(t) for t, k in sorted(taken[1 - viewer].items()) for _ in range(k)]
        return cls(rules=rules, viewer=viewer, to_move=to_move, hand=sorted(own), expeditions=exps,  # type: ignore
                   discards=piles, deck_count=deck_count, opponent_known=sorted(known),
                   opponent_count=opponent_count, history=moves, phase=phase,
                   blocked=blocked, match=match)

    # --- what is unseen ------------------------------------------------------------

    @property
    def colors(self) -> int:
        """The number of colours of the game (5, or 6 with purple): ``rules.colors``."""
        return self.rules.colors

    @property
    def opponent(self) -> int:
        """The viewer's opponent, 0 or 1."""
        return 1 - self.viewer

    def is_over(self) -> bool:
        """No turn is left: the draw pile is empty, or the history reached the turn cap."""
        return self.deck_count == 0 or len(self.history) >= self.rules.turn_cap

    def over_reason(self) -> str:
        """Why the round is over, in words ("" while it is not)."""
        if self.deck_count == 0:
            return "the draw pile is empty"
        return "the turn cap is reached" if self.is_over() else ""

    def legal_moves(self) -> list[Move]:
        """Every legal whole turn of the viewer, who must be to move (the draw half alone in the draw
        step), as ``Position.legal_moves`` lists them: what an agent's ``choose`` picks from. They do
        not depend on the unseen cards, so one fixed completion of the view lists them."""
        if self.viewer != self.to_move:  # the opponent's turns depend on its hidden cards
            raise PositionError(f"this is player {self.viewer}'s view, but player {self.to_move} is to move: "
                                "only the mover's view lists its legal turns")
        return self._a_completion().legal_moves()

    def why_illegal(self, move: Any) -> str | None:
        """The rule ``move`` breaks, in words (None when it is legal), as ``Position.why_illegal``
        says it: for the viewer, who must be to move (the rules do not depend on the unseen cards)."""
        self.legal_moves()  # (refuses the view of the player not to move, saying why)
        return self._a_completion().why_illegal(move)

    def _a_completion(self) -> Position:
        """One fixed full position consistent with this view (its buried cards filled first)."""
        view = self.random_fill(np.random.default_rng(0)) if self.buried_count else self
        unseen = view.unseen()
        u = view.opponent_unknown
        return view.complete(unseen[:u], unseen[u:])

    def visible_counts(self) -> np.ndarray:
        """Count per card type of every card the viewer can see or knows the place of."""
        counts = np.zeros(number_types(self.colors), dtype=np.int64)
        groups = [self.hand, self.opponent_known] + [cards for p in range(2) for cards in self.expeditions[p]]
        groups += self.discards
        for cards in groups:
            for card in cards:
                if isinstance(card, Card):  # a buried pile card is unseen
                    counts[card.type] += 1
        return counts

    # --- buried pile cards -----------------------------------------------------------

    @property
    def buried_count(self) -> int:
        """Cards in the discard piles whose rank the viewer does not remember (``G?``)."""
        return sum(1 for pile in self.discards for card in pile if isinstance(card, Buried))

    def fills(self) -> Iterator[tuple[float, View]]:
        """Every way the buried pile cards can be filled with unseen cards of their colours, with its
        probability (every ordered choice of physical cards equally likely, so a slot takes one of
        ``n`` identical unseen wagers with weight ``n``): ``(probability, view without buried
        cards)``. A view without buried cards yields itself with probability 1."""
        if not self.buried_count:
            yield 1.0, self
            return
        counts = [int(x) for x in self.unseen_counts()]
        slots = [card.color for pile in self.discards for card in pile if isinstance(card, Buried)]
        for weight, types in _fill_sequences(slots, counts):
            yield weight, self.filled([Card.from_type(t) for t in types])

    def filled(self, cards: Sequence[Card]) -> View:
        """This view with its buried pile cards, in pile order (bottom first, colour by colour),
        replaced by ``cards``; the cards leave the unseen cards."""
        it = iter(cards)
        piles = [[next(it) if isinstance(card, Buried) else card for card in pile] for pile in self.discards]
        return replace(self, discards=piles)

    def count_fills(self, cap: int | None = None) -> int:
        """How many fills ``fills`` lists (1 without buried cards), counted without making them: the
        buried slots of each colour take a sequence of its unseen cards (ranks repeating no more often
        than unseen), colours independently. Counting stops at ``cap`` (None: none)."""
        counts = [int(x) for x in self.unseen_counts()]
        slots = Counter(card.color for pile in self.discards for card in pile if isinstance(card, Buried))
        total = 1
        for c, k in slots.items():
            words = [1] + [0] * k  # words[j]: sequences of j cards from the ranks added so far
            for n in counts[c * RANKS_PER_COLOR:(c + 1) * RANKS_PER_COLOR]:
                words = [sum(words[j - i] * comb(j, i) for i in range(min(n, j) + 1)) for j in range(k + 1)]
            total *= words[k]
            if cap is not None and total >= cap:
                return cap
        return total

    def random_fill(self, rng: np.random.Generator) -> View:
        """The buried pile cards filled at random: each slot, in order, takes one of the remaining
        unseen physical cards of its colour, all equally likely."""
        counts = [int(x) for x in self.unseen_counts()]
        chosen: list[Card] = []
        for pile in self.discards:
            for card in pile:
                if isinstance(card, Buried):
                    c = card.color
                    lo = c * RANKS_PER_COLOR
                    weights = np.array(counts[lo:lo + RANKS_PER_COLOR], dtype=float)
                    t = lo + int(rng.choice(RANKS_PER_COLOR, p=weights / weights.sum()))
                    counts[t] -= 1
                    chosen.append(Card.from_type(t))
        return self.filled(chosen)

    def unseen_counts(self) -> np.ndarray:
        """Count per card type of the unseen cards: the opponent's unknown cards plus the draw pile."""
        total = np.array([copies(t) for t in range(number_types(self.colors))], dtype=np.int64)
        return total - self.visible_counts()

    def unseen(self) -> list[Card]:
        """The cards the viewer cannot see (the draw pile and the opponent's unknown cards), sorted."""
        return [Card.from_type(t) for t in types_from_counts(self.unseen_counts().tolist())]

    @property
    def opponent_unknown(self) -> int:
        """How many of the opponent's cards the viewer cannot name."""
        return self.opponent_count - len(self.opponent_known)

    def split_count(self) -> int:
        """Splits of the physical unseen cards into the opponent's unknown cards and the deck."""
        return comb(int(self.unseen_counts().sum()), self.opponent_unknown)

    def distinct_splits(self) -> int:
        """Splits once identical wagers are merged (what ``splits()`` yields), counted without listing
        them (a dealt round's view has hundreds of millions)."""
        return count_splits([int(x) for x in self.unseen_counts()], self.opponent_unknown)

    def splits(self) -> Iterator[tuple[float, list[int], list[int]]]:
        """Every way to split the unseen cards: ``(probability, opponent_unknown_types, deck_types)``.

        All splits of the physical cards are equally likely (docs/spec/interchange.md "Endgame
        values"), so a split taking ``k`` of ``n`` identical unseen wagers carries ``C(n, k)``.
        The probabilities add up to 1.
        """
        counts = [int(x) for x in self.unseen_counts()]
        u = self.opponent_unknown
        total = comb(sum(counts), u)
        for pick in sub_multisets(counts, u):
            weight = prod(comb(n, k) for n, k in zip(counts, pick) if k)
            opp = types_from_counts(pick)
            rest = types_from_counts([n - k for n, k in zip(counts, pick)])
            yield weight / total, opp, rest

    def complete(self, opponent_unknown: Sequence[Any], deck: Sequence[Any], replay: bool = False) -> Position:
        """The full position this view becomes when the opponent's unknown cards and the draw
        pile (top first) are these. Raises ``PositionError`` if they do not fit the view.
        ``replay``: the history is replayed, so that the viewer's cards it shows taken from a
        discard pile are known to the opponent there too (``known_cards``), as in the round itself,
        for a position to be played on (a rollout); without it only the opponent's known cards
        are (what the viewer's turns depend on), and nothing is replayed."""
        nc = self.colors
        if self.buried_count:
            raise PositionError("this view has buried pile cards (G?): fill them first (View.fills, View.filled)")
        opp = as_cards(opponent_unknown, nc, "opponent's unknown cards")
        deck_cards = as_cards(deck, nc, "deck")
        if len(opp) != self.opponent_unknown:
            raise PositionError(f"the opponent has {self.opponent_unknown} unknown cards, got {len(opp)}")
        if len(deck_cards) != self.deck_count:
            raise PositionError(f"the draw pile has {self.deck_count} cards, got {len(deck_cards)}")
        given = np.zeros(number_types(nc), dtype=np.int64)
        for card in opp + deck_cards:
            given[card.type] += 1
        if not np.array_equal(given, self.unseen_counts()):
            raise PositionError("these cards are not the view's unseen cards")
        hands: list[list[Card]] = [[], []]
        hands[self.viewer] = list(self.hand)
        hands[self.opponent] = list(self.opponent_known) + opp
        known: list[list[Card]] = [[], []]
        known[self.opponent] = list(self.opponent_known)
        exps = [[card for cards in self.expeditions[p] for card in cards] for p in range(2)]
        piles = [card for cards in self.discards for card in cards]
        return Position.from_parts(hands, exps, piles, deck_cards, rules=self.rules, to_move=self.to_move,
                                   phase=self.phase, blocked=self.blocked, history=self.history, match=self.match,
                                   known=known, check_history=replay)  # (the view's history was checked)


    def consistent_positions(self, orders: bool = False) -> Iterator[tuple[float, Position]]:
        """Every full position consistent with this view, with its probability.

        By default the draw pile's order is left as chance (the returned positions hold it in a
        fixed order; ``Position.deck_draw_outcomes`` gives the draws). With ``orders=True`` every
        distinct order of the draw pile is listed too (grows factorially: small decks only).
        """
        orders = check_flag("orders", orders, PositionError)
        for p_fill, view in self.fills():
            for prob, opp, rest in view.splits():
                if not orders:
                    yield p_fill * prob, view.complete(opp, rest)
                    continue
                count = multiset_orders(rest)  # counted, not listed: the first answer comes at once
                for order in _multiset_permutations(rest):
                    yield p_fill * prob / count, view.complete(opp, order)

    def sample_positions(self, n: int, seed: int | None = None, replay: bool = False) -> list[Position]:
        """``n`` full positions drawn uniformly (split and draw-pile order) with numpy's default_rng(seed);
        ``replay``: as ``complete``'s (the viewer's cards the history shows taken known to the opponent)."""
        if whole_number(n) is None or not 0 <= n <= MAX_SAMPLES:
            raise PositionError(f"n must be a whole number from 0 to {MAX_SAMPLES:,}, got {brief(n)}")
        rng = np.random.default_rng(seed_number(seed))
        u = self.opponent_unknown
        out = []
        for _ in range(n):
            view = self.random_fill(rng) if self.buried_count else self
            cards = np.array(types_from_counts(view.unseen_counts().tolist()), dtype=np.int64)
            perm = rng.permutation(cards)
            out.append(view.complete(perm[:u].tolist(), perm[u:].tolist(), replay))
        return out

    # --- other forms ---------------------------------------------------------------

    def to_json(self) -> dict[str, Any]:
        """The JSON object of docs/spec/interchange.md (the opponent's hand as a count and the cards
        known in it, the draw pile as a count); ``read_position`` reads it back."""
        return view_to_json(self)

    def expedition_cards(self, player: int, color: int | str) -> list[Card]:
        """The cards on ``player``'s expedition of ``color`` (its number or letter), in the order placed."""
        return self.expeditions[player_number(player, "player")][color_number(color, self.colors)]


def count_splits(unseen: list[int], size: int, cap: int | None = None) -> int:
    """How many distinct splits there are: picks of ``size`` cards from ``unseen`` (counts per type),
    as ``sub_multisets`` lists them; counting stops at ``cap`` (None: none)."""
    ways = [1] + [0] * size  # ways[j]: distinct picks of j cards from the types seen so far
    for n in unseen:
        new = [0] * (size + 1)
        for j in range(size + 1):
            if ways[j]:
                for k in range(min(n, size - j) + 1):
                    new[j + k] += ways[j]
                    if cap is not None and new[j + k] > cap:
                        new[j + k] = cap
        ways = new
    return ways[size]


def sub_multisets(counts: list[int], size: int, start: int = 0) -> Iterator[list[int]]:
    """Every count vector ``k`` with ``0 <= k[t] <= counts[t]`` summing to ``size``."""
    n = len(counts)
    remaining = [0] * (n + 1)
    for t in range(n - 1, -1, -1):
        remaining[t] = remaining[t + 1] + counts[t]
    pick = [0] * n

    def rec(t: int, left: int) -> Iterator[list[int]]:
        if left == 0:
            yield list(pick)
            return
        if t == n or remaining[t] < left:
            return
        for k in range(min(counts[t], left), -1, -1):
            pick[t] = k
            yield from rec(t + 1, left - k)
        pick[t] = 0

    yield from rec(start, size)


def _multiset_permutations(items: list[int]) -> Iterator[list[int]]:
    """Distinct orders of a multiset, each once."""
    counts: dict[int, int] = {}
    for x in items:
        counts[x] = counts.get(x, 0) + 1
    keys = sorted(counts)
    out: list[int] = []

    def rec() -> Iterator[list[int]]:
        if len(out) == len(items):
            yield list(out)
            return
        for k in keys:
            if counts[k]:
                counts[k] -= 1
                out.append(k)
                yield from rec()
                out.pop()
                counts[k] += 1

    yield from rec()


def multiset_orders(items: list[int]) -> int:
    """How many distinct orders a multiset has (for callers sizing ``orders=True``)."""
    counts: dict[int, int] = {}
    for x in items:
        counts[x] = counts.get(x, 0) + 1
    return factorial(len(items)) // prod(factorial(v) for v in counts.values())


# --- buried pile cards ------------------------------------------------------------------


def _with_buried(items: Any, nc: int) -> tuple[list[Card], list[tuple[int, Card | Buried | None]]]:
    """The known discard cards, and every pile entry in order as (colour, card or Buried)."""
    if isinstance(items, (str, bytes)) or not isinstance(items, Iterable):
        return as_cards(items, nc, "discards"), []  # as_cards names the problem
    entries: list[tuple[int, Card | Buried | None]] = []
    known_items = []
    limit = CARDS_PER_COLOR * nc
    for item in islice(items, limit + 1):  # an endless iterable is never read to its end
        if len(entries) == limit:
            raise PositionError(f"discards: more than {limit} cards (the {nc}-colour deck has {limit})")
        buried = Buried.parse(item, nc)
        if buried is not None:
            entries.append((buried.color, buried))
        else:
            known_items.append(item)
            entries.append((-1, None))
    known = as_cards(known_items, nc, "discards")
    it = iter(known)
    out: list[tuple[int, Card | Buried | None]] = []
    for _, b in entries:
        card: Card | Buried = b if isinstance(b, Buried) else next(it)
        out.append((card.color, card))
    return known, out


def _piles(entries: list[tuple[int, Any]], nc: int) -> list[list[Any]]:
    return [[card for colour, card in entries if colour == c] for c in range(nc)]


def _check_buried_places(piles: list[list[Any]], history: Any) -> None:
    if history:
        raise PositionError("a view with a history knows every discarded card: buried pile cards (G?) "
                            "are for positions entered from memory, without a history")
    for c, pile in enumerate(piles):
        if pile and isinstance(pile[-1], Buried):
            raise PositionError(f"discard pile {COLOR_LETTERS[c]}: the top card is always known; write it "
                                f"last, after the buried cards ({COLOR_LETTERS[c]}?)")


def _check_buried_counts(piles: list[list[Any]], counts: np.ndarray, nc: int) -> None:
    total = np.array([copies(t) for t in range(number_types(nc))], dtype=np.int64)
    for c, pile in enumerate(piles):
        n = sum(1 for card in pile if isinstance(card, Buried))
        lo = c * RANKS_PER_COLOR
        left = int((total[lo:lo + RANKS_PER_COLOR] - counts[lo:lo + RANKS_PER_COLOR]).sum())
        if n > left:
            raise PositionError(f"discard pile {COLOR_LETTERS[c]}: {n} buried cards, but only {left} "
                                f"{COLOR_LETTERS[c]} cards are unseen")


def _fill_sequences(slots: list[int], counts: list[int]) -> Iterator[tuple[float, list[int]]]:
    """Every sequence of card types for the buried ``slots`` (colours, in order) drawn without
    replacement from the unseen ``counts``, with its probability (ordered physical choices)."""
    def walk(i: int, left: list[int], weight: float) -> Iterator[tuple[float, list[int]]]:
        if i == len(slots):
            yield weight, []
            return
        lo = slots[i] * RANKS_PER_COLOR
        pool = sum(left[lo:lo + RANKS_PER_COLOR])
        for t in range(lo, lo + RANKS_PER_COLOR):
            if left[t]:
                p = left[t] / pool
                left[t] -= 1
                for w, rest in walk(i + 1, left, weight * p):
                    yield w, [t, *rest]
                left[t] += 1

    yield from walk(0, list(counts), 1.0)
