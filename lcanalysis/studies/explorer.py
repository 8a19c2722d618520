"""The decision explorer's questions: rollout tables, outcome distributions of one turn, the
Analyze button, the endgame solver's principal lines, the view a player builds by picking cards,
and the steps of a game record."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

import numpy as np

from lcanalysis.advisor import HAND_MODEL_DEFAULT, STREAMS_DEFAULT, advise, dealing_in_words, played_policy
from lcanalysis.analysis import Analysis
from lcanalysis.game.cards import COLOR_LETTERS, brief, number_types, whole_number
from lcanalysis.game.moves import Move
from lcanalysis.game.notation import mover_view, read_position
from lcanalysis.game.position import Position, PositionError, as_cards, check_copies
from lcanalysis.game.records import MatchRecord, Record, RoundRecord, read_record
from lcanalysis.game.rules import Rules
from lcanalysis.game.view import View
from lcanalysis.rollouts import Rollouts, playout_params
from lcanalysis.search import solve

Source = str | dict | Position | View

# --- the decision explorer's analysis ----------------------------------------------------------


def _check_playable(view: View) -> None:
    if view.deck_count == 0:
        raise PositionError("the draw pile is empty: the round is over, there is no turn to analyze")
    if view.phase != "place":
        raise PositionError("the position is in the draw step: give a position where a whole turn is to be played")


def legal_moves(view: View) -> list[Move]:
    """Legal whole turns of the mover in a view (they do not depend on the hidden cards)."""
    _check_playable(view)
    unseen = view.unseen()
    u = view.opponent_unknown
    return view.complete(unseen[:u], unseen[u:]).legal_moves()


def _advisors_worlds(view: View, moves: Sequence[Move], seed: int, policy: str = "plain") -> Rollouts:
    """Play-outs of ``moves`` by the play-out policy ``policy`` (``options.PLAYOUT_POLICIES``) in the worlds
    the advisor samples with ``seed`` (its dealing: the opponent-hand model and the draw streams,
    ``advisor.HAND_MODEL_DEFAULT`` and ``STREAMS_DEFAULT``): world ``i`` is the advisor's world ``i``."""
    return Rollouts(view, [m.code(view.colors) for m in moves], seed, params=playout_params(policy),
                    hand_model=HAND_MODEL_DEFAULT, streams=STREAMS_DEFAULT)


def outcomes_policy(source: Source, playout_policy: str | None = None) -> str:
    """The play-out policy ``move_outcomes`` plays for ``source`` (``options.PLAYOUT_POLICIES``):
    ``playout_policy`` (``options.PLAYOUT_POLICY_CHOICES``; ``None``: the advisor's default) as played at
    the view's cards left, so "staged" is the stalling heuristic from ``options.STALLING_FROM_CARDS`` cards
    down, as the advisor's play-outs are."""
    return played_policy(playout_policy, mover_view(source).deck_count)


def rollout_analysis(source: Source, worlds: int = 100, seed: int = 0, keep_samples: bool = True) -> Analysis:
    """Every legal turn of the mover ranked by the mean final score difference over ``worlds``
    sampled deals of the unseen cards (dealt as the advisor deals them), both sides then played
    out by the heuristic agent.

    The same worlds are used for every turn (common random numbers). ``stderr`` is the standard
    error over worlds; ``extra["samples"]`` holds the per-world outcomes when ``keep_samples``.
    """
    worlds = _worlds(worlds, 2)  # two at least: a standard error
    view = mover_view(source)
    r = _advisors_worlds(view, legal_moves(view), seed)
    r.sample(worlds)
    return r.analysis("rollout estimate (heuristic play-outs)",
                      method=f"flat Monte Carlo, {worlds} worlds, seed {seed}; "
                             f"{dealing_in_words(r.theta is not None, r.streams)}",
                      reason=f"heuristic rollouts over {worlds} worlds", keep_samples=keep_samples)


def move_outcomes(source: Source, move: str | Move, worlds: int = 200, seed: int = 0,
                  playout_policy: str | None = None) -> np.ndarray:
    """Final score differences (mover minus opponent) after ``move`` in ``worlds`` sampled worlds:
    the first ``worlds`` of the worlds the advisor plays the turn out in with ``seed`` (the unseen
    cards dealt as it deals them), played by the advisor's play-out policy (``outcomes_policy``: by
    default the plain heuristic while the draw pile holds more than ``options.STALLING_FROM_CARDS``
    cards, the stalling one from there), so their mean estimates the advisor's value of the turn."""
    view = mover_view(source)
    policy = outcomes_policy(view, playout_policy)
    mv = move if isinstance(move, Move) else Move.parse(str(move), view.colors)
    legal = legal_moves(view)
    if mv not in legal:
        raise PositionError(f"{mv} is not legal here: {view.why_illegal(mv)}")
    r = _advisors_worlds(view, [mv], seed, policy)
    r.sample(_worlds(worlds, 1))
    return r.samples[0]


#: the most sampled worlds the explorer plays out at once (a million takes minutes and its memory)
MAX_WORLDS = 1_000_000


def _worlds(worlds: Any, least: int) -> int:
    """``worlds`` once it is a whole number from ``least`` to ``MAX_WORLDS``."""
    number = whole_number(worlds)
    if number is None or not least <= number <= MAX_WORLDS:
        raise PositionError(f"worlds must be a whole number from {least} to {MAX_WORLDS:,}, got {brief(worlds)}")
    return number


def analyze(source: Source, time_budget: float = 1.0, seed: int = 0, worlds: int | None = None,
            progress: Callable[[str], None] | None = None) -> Analysis:
    """The explorer's Analyze button: the advisor (``lcanalysis.advisor.advise``); with ``worlds``
    given, flat heuristic rollouts instead (``rollout_analysis``) in that many sampled worlds,
    dealt as the advisor deals them. ``progress`` is
    handed to the advisor: it receives a line of text as each stage of the endgame search
    (``advisor.ENDGAME_CARDS`` cards or fewer in the draw pile, ``FULL_POSITION_ENDGAME_CARDS``
    for a full position) starts and ends. A full ``Position`` is advised as ``advise`` advises
    it, with both hands used; give ``mover_view(position)`` for what the mover alone knows."""
    obj = read_position(source)
    view = mover_view(obj)
    _check_playable(view)
    if worlds is None:
        return advise(obj if isinstance(obj, Position) else view, time_budget=time_budget, seed=seed,
                      progress=progress)
    return rollout_analysis(view, worlds=worlds, seed=seed)


def endgame_lines(position: Position, move: str | Move, max_stalls: int = 0, limit: int = 6) -> list[dict[str, Any]]:
    """The solver's principal lines after ``move`` in a full position: one line per card the
    move can draw (with its probability), each continued by both players' best turns, later
    draws taken from the top of the remaining pile. Needs ``lcanalysis.search.solve``.

    Returns dicts ``{"draw", "probability", "value", "line"}`` (value for the original mover).
    """
    if not isinstance(position, Position):
        raise PositionError("principal lines need a full position (both hands and the deck's cards)")
    mv = move if isinstance(move, Move) else Move.parse(str(move), position.colors)
    why = position.why_illegal(mv)
    if why:
        raise PositionError(f"{mv} is not legal here: {why}")
    if whole_number(limit) is None or limit < 1:
        raise PositionError(f"limit must be a whole number of turns shown in a line, 1 or more (the move itself "
                            f"first), got {brief(limit)}")
    me = position.to_move
    if mv.draws_from_deck:
        draws = [(str(c), float(p)) for c, p in position.deck_draw_outcomes()]
    else:
        draws = [("", 1.0)]
    out = []
    for card, p in draws:
        pos = position.copy()
        pos.push(mv, drawn=card or None)
        line = [str(mv) + (f" (draws {card})" if card else "")]
        # the value is the solved one after the move however short the line shown (the score as the
        # table stands only once the round is over)
        ana = None if pos.is_over() else solve(pos, max_stalls=max_stalls)
        value = (float(pos.value_for_mover()) if ana is None or ana.best is None else ana.best.value) \
            * (1 if pos.to_move == me else -1)
        while ana is not None and ana.best is not None and len(line) < limit:
            top = pos.deck[0] if pos.deck else None
            line.append(ana.best.move + (f" (draws {top})" if top is not None and ana.best.move.endswith("/D") else ""))
            pos.push(ana.best.move)
            ana = None if pos.is_over() else solve(pos, max_stalls=max_stalls)
        out.append({"draw": card, "probability": p, "value": value, "line": " ".join(line)})
    return out


# --- the position builder: a view from picked cards ---------------------------------------------


def implied_deck_count(colors: int, placed: int, hand: int, opponent_count: int | None = None) -> int:
    """The draw pile's size when every card not in a hand, on an expedition or in a discard pile
    (``placed`` cards on the table, buried ones included) is in it."""
    rules = Rules(colors=colors)
    opp = rules.hand_size if opponent_count is None else opponent_count
    return rules.deck_size - placed - hand - opp


def built_view(colors: int = 5, hand: Sequence[Any] = (), my_expeditions: Sequence[Any] = (),
               opp_expeditions: Sequence[Any] = (), discards: Sequence[Any] = (),
               buried: Mapping[str, int] | None = None, opponent_known: Sequence[Any] = (),
               deck: int | None = None, seat: int = 0, to_move: int | None = None) -> View:
    """The view a player describes by picking cards (the decision explorer's position builder).

    ``hand``, ``my_expeditions``, ``opp_expeditions`` (in the order placed), ``discards`` (each
    colour's pile bottom first: the last card picked of a colour is its top), ``opponent_known``:
    cards (``Card`` or strings like ``"R7"``). ``buried``: per colour letter, the number of cards
    nobody remembers beneath that pile's known cards (``G?`` in the one-line string). ``deck``:
    the draw pile's size; None for the size that makes the cards add up (``implied_deck_count``).
    ``seat``: the viewer (0 or 1); ``to_move``: the player to move (default the viewer).
    Every check is ``View.from_parts``'s; raises ``PositionError`` naming the problem."""
    rules = Rules(colors=colors)
    nc = rules.colors
    hand = as_cards(hand, nc, "my hand")
    if buried is not None and not isinstance(buried, Mapping):
        raise PositionError(f"buried cards: a mapping of colour letter to count like {{'G': 2}}, got {buried!r}")
    buried = dict(buried or {})
    for letter, n in buried.items():
        if letter not in COLOR_LETTERS[:nc]:
            raise PositionError(f"buried cards: {letter!r} is not a colour of the {nc}-colour game")
        if isinstance(n, bool) or not isinstance(n, int) or n < 0:
            raise PositionError(f"buried cards of {letter}: a count of cards >= 0, got {n!r}")
    known = as_cards(discards, nc, "discard piles")
    piles: list[Any] = []
    for c, letter in enumerate(COLOR_LETTERS[:nc]):
        top = [card for card in known if card.color == c]
        n = buried.get(letter, 0)
        if n and not top:
            raise PositionError(f"discard pile {letter}: {n} buried card(s) but no top card: pick the card "
                                f"on top of the pile (the top card is always known)")
        piles += [f"{letter}?"] * n + top
    exps = [as_cards(my_expeditions, nc, "my expeditions"), as_cards(opp_expeditions, nc, "opponent's expeditions")]
    mine, theirs = as_cards(hand, nc, "my hand"), as_cards(opponent_known, nc, "opponent's known cards")
    picked = mine + theirs
    counts = np.zeros(number_types(nc), dtype=np.int64)
    for card in picked + known + exps[0] + exps[1]:
        counts[card.type] += 1
    # a card picked twice is named at once, before the hand is complete, and where it was picked
    check_copies(counts, nc, lambda: [("my hand", mine), ("opponent's known cards", theirs), ("discard piles", known),
                                      ("my expeditions", exps[0]), ("opponent's expeditions", exps[1])])
    if seat == 1:
        exps.reverse()
    if deck is None:
        placed = len(exps[0]) + len(exps[1]) + len(piles)
        deck = implied_deck_count(nc, placed, len(hand))
        if deck < 0:
            raise PositionError(f"too many cards: {placed} on the table and {len(hand)} in my hand, "
                                f"with {rules.hand_size} in the opponent's, leave {deck} for the draw pile")
    return View.from_parts(hand, opponent_count=rules.hand_size, deck_count=deck,
                           opponent_known=list(opponent_known), expeditions=exps, discards=piles, rules=rules,
                           viewer=seat, to_move=seat if to_move is None else to_move,
                           explain_draw_step=False)  # (the builder has no draw step)


# --- replaying a game record ------------------------------------------------------------------


def record_rounds(source: Any) -> list[RoundRecord]:
    """The rounds of a record (``read_record`` reads it when it is not one yet), in order."""
    rec: Record = source if isinstance(source, (RoundRecord, MatchRecord)) else read_record(source)
    return list(rec.rounds) if isinstance(rec, MatchRecord) else [rec]


def played_turn(analysis: Analysis, move: str | Move) -> tuple[int, Any]:
    """The rank (1 = best) and the ``MoveValue`` of the turn ``move`` in an analysis."""
    name = str(move)
    for rank, mv in enumerate(analysis.moves, start=1):
        if mv.move == name:
            return rank, mv
    raise PositionError(f"{name} is not among the analysed turns")
