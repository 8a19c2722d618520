"""Each turn's reason in words: what it does to the expected value of the expedition it touches
(the fast expedition estimate of ``core.policy``), what it hands the opponent, and what it does to
the number of turns left; and a turn as a player says it (``in_words``)."""

from __future__ import annotations

import numpy as np

from lcanalysis.analysis import Analysis
from lcanalysis.core import kernel as K
from lcanalysis.core import policy as P
from lcanalysis.game.cards import COLOR_LETTERS, COLOR_NAMES, Card, color_name
from lcanalysis.game.moves import Move
from lcanalysis.game.view import View
from lcanalysis.rollouts import some_state


def _pile_top(view: View, move: Move) -> Card | None:
    if move.source == "D":
        return None
    pile = view.discards[COLOR_LETTERS.index(move.source)]
    return pile[-1] if pile else None


def in_words(view: View, move: Move | str) -> str:
    """A turn as a player says it: "play B6 and draw from the deck", "discard W10 and take G5 from
    the green pile" (naming the pile card taken, which the view shows)."""
    mv = move if isinstance(move, Move) else Move.parse(move, view.colors)
    place = "" if mv.card is None else f"{'play' if mv.play else 'discard'} {mv.card} and "
    if mv.source == "D":
        return place + "draw from the deck"
    name = color_name(mv.source)
    top = _pile_top(view, mv)
    return place + (f"take {top} from the {name} pile" if top else f"draw from the {name} pile")


def _colour_values(s: np.ndarray, p: int) -> np.ndarray:
    out = np.zeros(int(s[K.H_NC]), np.float64)
    P.colour_values(s, p, P.HEURISTIC_PARAMS, out)
    return out


def _expected(name: str, before: float, after: float) -> str:
    """A colour's expected score before and after a turn, as the reasons give it: "-> " only for a
    change that shows at whole points (not "yellow estimated +0 -> +0"). Said "estimated": the fast
    expedition estimate, a heuristic with no standard error, not an exact expectation."""
    was, now = round(before), round(after)  # (whole points: -0.3 reads +0, not -0)
    if was == now:
        return f"{name} estimated {was:+d}, unchanged"
    return f"{name} estimated {was:+d} -> {now:+d}"


def _cap_left(view: View) -> int:
    """The turns the turn cap (docs/spec/rules.md, ``turn_cap``: the round stops after that many turns,
    both players' counted) leaves after this one: the cap less the turns of the view's history (as the
    engine counts them: a view typed without its history counts from 0), less this turn."""
    return view.rules.turn_cap - len(view.history) - 1


def _time_left(cards: int, cap_left: int, cap: int) -> str:
    """What ``cards`` left in the draw pile, the opponent to move next, leave of the round, in words
    (docs/spec/rules.md: the round ends the moment the last card of the draw pile is taken). Drawn from
    the deck, the cards last ``cards`` more turns, so when the turn cap (``cap`` turns a round) leaves
    fewer (``cap_left``, after this turn) it ends the round first, whatever is drawn, and the words
    say so instead."""
    if cap_left < cards:
        rule = f"the turn cap ({cap} turns a round) ends the round"
        if cap_left <= 0:
            return f", but {rule} with this turn (cards still in the hands score nothing)"
        if cap_left == 1:
            return f", but {rule} after the opponent's next turn, whatever is drawn: this is your last turn"
        return (f", but {rule} after {cap_left} more turns, whatever is drawn: {cap_left - cap_left // 2} the "
                f"opponent's and {cap_left // 2} yours")
    if cards == 1:
        return (": the opponent's next turn takes the last card and ends the round, so this is your last "
                "turn unless they draw from a discard pile instead")
    if cards == 2:
        return (": one more turn each if both draw from the deck, the opponent's and then your last, which "
                "takes the last card and ends the round")
    return f", about {cards / 2:.1f} turns each left"


def reason(view: View, move: Move | str, state: np.ndarray | None = None) -> str:
    """A short explanation of a turn for a player: expedition value, what the opponent gets, time.
    ``state``: ``some_state(view)`` when the caller has it (filling in the view costs more than the
    explanation: a list of 64 turns took 0.13 s when each filled it in anew)."""
    if isinstance(move, str):
        move = Move.parse(move, view.colors)
    base = some_state(view) if state is None else state
    s = base.copy()
    me = view.viewer
    before = _colour_values(s, me)
    parts = []
    if move.card is not None:
        card = move.card
        c = card.color
        name = COLOR_NAMES[c]
        place = card.type * 2 + (0 if move.play else 1)
        K.apply_place(s, place)
        after = _colour_values(s, me)
        K.undo_place(s, place)
        if move.play:
            opened = not view.expeditions[me][c]
            what = "opens" if opened else "extends"
            parts.append(f"{what} {name} with {card}: {_expected(name, before[c], after[c])}")
        else:
            opp_cards = view.expeditions[1 - me][c]
            opp_top = max((x.number for x in opp_cards if not x.is_wager), default=0)
            # the last card of the draw pile, or the turn cap, ends the round with this turn: the opponent
            # never gets to take the discard, whatever it would give them
            round_ends = (move.source == "D" and view.deck_count == 1) or _cap_left(view) <= 0
            if round_ends:
                gift = "harmless: the opponent gets no turn to take it"
            elif card.is_wager:
                gift = "harmless to the opponent" if opp_cards and opp_top else "a wager the opponent may take"
            elif opp_cards and card.number > opp_top:
                gift = f"hands the opponent {card} for their {name} expedition"
            elif opp_cards:
                gift = f"safe: the opponent's {name} is past {card.number}"
            else:
                gift = f"{card} lies open for the opponent (they have no {name} expedition yet)"
            my_top = max((x.number for x in view.expeditions[me][c] if not x.is_wager), default=0)
            dead = ""  # a card the player can no longer play: the first thing to say of its discard
            if my_top and (card.is_wager or card.number < my_top):
                dead = f"; you can no longer play it (your {name} is at {my_top})"
            parts.append(f"discards {card} ({_expected(name, before[c], after[c])}){dead}; {gift}")
    if move.source == "D":
        d = view.deck_count
        if d == 1:
            parts.append("takes the last card of the draw pile: the round ends with this turn (cards still in "
                         "the hands score nothing)")
        else:
            parts.append(f"draws from the deck: {d} -> {d - 1} card{'s' if d > 2 else ''}"
                         f"{_time_left(d - 1, _cap_left(view), view.rules.turn_cap)}")
    else:
        c = COLOR_LETTERS.index(move.source)
        pile = view.discards[c]
        if move.card is not None and not move.play and move.card.color == c:
            top: Card | None = move.card
        else:
            top = pile[-1] if pile else None
        d, left, cap = view.deck_count, _cap_left(view), view.rules.turn_cap
        # not a turn more for both: one turn more in all, the opponent's with an odd count, else yours
        gains = "you" if d % 2 == 0 else "the opponent"
        if left < d:  # the turn cap ends the round before the deck can: a pile draw gains no turn
            tail = f"the deck stays at {d}" + _time_left(d, left, cap) + "; no turn gained over a deck draw"
        else:
            tail = f"the deck stays at {d}" + (_time_left(d, left, cap) if d <= 2 else
                                               f" (one turn more for {gains} than after a deck draw, if both "
                                               f"then draw from the deck)")
        if top is not None:
            s2 = base.copy()  # from after this turn's card is placed: "extends white ... -1 -> -3" then "-3"
            if move.card is not None:
                K.apply_place(s2, move.card.type * 2 + (0 if move.play else 1))
            s2[: K.HEADER] = base[: K.HEADER]  # (the same player and turns left throughout: only cards move)
            v0 = _colour_values(s2, me)[c]
            # the card moves from the pile to the hand: added to the hand alone it was counted twice, one
            # card fewer unseen, and a wager that can no longer be played raised the colour (-14 -> -13)
            K.apply_draw(s2, c + 1)
            s2[: K.HEADER] = base[: K.HEADER]
            v1 = _colour_values(s2, me)[c]
            placed = move.card
            laid = [*view.expeditions[me][c], *([placed] if placed is not None and move.play and placed.color == c
                                                 else [])]
            my_top = max((x.number for x in laid if not x.is_wager), default=0)
            dead = f"; you cannot play it, your {COLOR_NAMES[c]} is at {my_top}" \
                if my_top and (top.is_wager or top.number < my_top) else ""
            parts.append(f"takes {top} from the {COLOR_NAMES[c]} pile ({_expected(COLOR_NAMES[c], v0, v1)}{dead}); "
                         f"{tail}")
        else:
            parts.append(f"draws from the {COLOR_NAMES[c]} pile; {tail}")
    return "; ".join(parts)


def add_reasons(view: View, analysis: Analysis) -> None:
    """Give every turn of ``analysis`` that has none its ``reason`` (one filled-in state for them all)."""
    state = some_state(view)
    for m in analysis.moves:
        if not m.reason:
            try:
                m.reason = reason(view, m.move, state)
            except (ValueError, IndexError):  # a draw-step answer or a move we cannot describe
                m.reason = ""
