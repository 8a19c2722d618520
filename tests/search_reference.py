"""An independent, deliberately simple reference for the endgame searcher's tests and benchmark.

Plain memoized expectiminimax written from docs/spec/rules.md and docs/spec/interchange.md ("Endgame
values") on tuples of card types, without the kernel, without pruning, without any of the
searcher's tricks (no decomposition, no merging of cards). Also: a builder of random small
endgames as kernel states, and a reader from kernel states into this module's tuples.
"""

from __future__ import annotations

import random
from functools import cache

import numpy as np

from lcanalysis.core import kernel as K
from lcanalysis.game.cards import full_deck

RANKS = 10


# --- the game on tuples ---------------------------------------------------------------
# A game: (nc, no_redraw, mover, hands, exps, piles, deck, stalls, turns_left)
#   hands: (tuple of types sorted, tuple of types sorted)
#   exps:  per player a tuple over colours of (wagers, tuple of ranks in order)
#   piles: tuple over colours of tuple of ranks, bottom first
#   deck:  sorted tuple of types (order unknown: a multiset)
#   stalls: (s0, s1) discard-pile draws left, None = unlimited; turns_left None = no horizon


def expedition_points(wagers: int, ranks: tuple) -> int:
    if wagers == 0 and not ranks:
        return 0
    numbers = sum(r + 1 for r in ranks)
    pts = (numbers - 20) * (1 + wagers)
    if wagers + len(ranks) >= 8:
        pts += 20
    return pts


def total_points(exp) -> int:
    return sum(expedition_points(w, ranks) for w, ranks in exp)


def legal_turns(game):
    """(type, play, source) for the mover; source 0 = deck, 1 + c = pile c."""
    nc, no_redraw, mover, hands, exps, piles, _deck, stalls, _tl = game
    out = []
    for t in sorted(set(hands[mover])):
        c, r = divmod(t, RANKS)
        _w, ranks = exps[mover][c]
        can_play = (not ranks) if r == 0 else (not ranks or r > max(ranks))
        for play in (True, False):
            if play and not can_play:
                continue
            sources = [0]
            if stalls[mover] is None or stalls[mover] > 0:
                for cc in range(nc):
                    size = len(piles[cc]) + (1 if (not play and cc == c) else 0)
                    if size == 0:
                        continue
                    if no_redraw and not play and cc == c:
                        continue
                    sources.append(1 + cc)
            for src in sources:
                out.append((t, play, src))
    return out


def turn_code(nc: int, turn) -> int:
    t, play, src = turn
    return (t * 2 + (0 if play else 1)) * (nc + 1) + src


def place(game, t, play):
    _nc, _no_redraw, mover, hands, exps, piles, _deck, _stalls, _tl = game
    hand = list(hands[mover])
    hand.remove(t)
    c, r = divmod(t, RANKS)
    exps = [list(e) for e in exps]
    piles = list(piles)
    if play:
        w, ranks = exps[mover][c]
        exps[mover][c] = (w + 1, ranks) if r == 0 else (w, ranks + (r,))
    else:
        piles[c] = piles[c] + (r,)
    hands = list(hands)
    hands[mover] = tuple(sorted(hand))
    return hands, [tuple(e) for e in exps], piles


def diff(exps, player) -> int:
    return total_points(exps[player]) - total_points(exps[1 - player])


@cache
def value(game) -> float:
    """Value of the game for the player to move (maximizing; the opponent minimizes)."""
    _nc, _no_redraw, mover, _hands, exps, _piles, deck, _stalls, tl = game
    if not deck or tl == 0:
        return float(diff(exps, mover))
    return max(turn_value(game, turn) for turn in legal_turns(game))


def turn_value(game, turn) -> float:
    nc, no_redraw, mover, _hands0, _exps0, _piles0, deck, stalls, tl = game
    t, play, src = turn
    hands, exps, piles = place(game, t, play)
    tl2 = None if tl is None else tl - 1
    if src == 0:
        if len(deck) == 1:
            return float(diff(exps, mover))  # the last card: the round is over
        total = 0.0
        for u in sorted(set(deck)):
            p = deck.count(u) / len(deck)
            rest = list(deck)
            rest.remove(u)
            hh = list(hands)
            hh[mover] = tuple(sorted(hh[mover] + (u,)))
            child = (nc, no_redraw, 1 - mover, tuple(hh), tuple(exps), tuple(piles), tuple(rest), stalls, tl2)
            total += p * -value(child)
        return total
    c = src - 1
    u = c * RANKS + piles[c][-1]
    piles[c] = piles[c][:-1]
    hh = list(hands)
    hh[mover] = tuple(sorted(hh[mover] + (u,)))
    st = list(stalls)
    if st[mover] is not None:
        st[mover] -= 1
    child = (nc, no_redraw, 1 - mover, tuple(hh), tuple(exps), tuple(piles), deck, tuple(st), tl2)
    return -value(child)


def root_values(game) -> dict[int, float]:
    """Every legal turn's value, keyed by the kernel's move code."""
    return {turn_code(game[0], turn): turn_value(game, turn) for turn in legal_turns(game)}


def solo_value(hand, exp, deck, mine: bool, tl) -> float:
    """One player's best expected final score when nobody draws from a discard pile any more
    (only this player's cards matter; the opponent's turns take a card off the pile)."""
    return _solo(tuple(sorted(hand)), tuple(exp), tuple(sorted(deck)), mine, tl)


@cache
def _solo(hand, exp, deck, mine, tl):
    if not deck or tl == 0:
        return float(total_points(exp))
    tl2 = None if tl is None else tl - 1
    if not mine:
        if len(deck) == 1:
            return float(total_points(exp))
        total = 0.0
        for u in sorted(set(deck)):
            rest = list(deck)
            rest.remove(u)
            total += deck.count(u) / len(deck) * _solo(hand, exp, tuple(rest), True, tl2)
        return total
    best = -1e18
    for t in sorted(set(hand)):
        c, r = divmod(t, RANKS)
        w, ranks = exp[c]
        can_play = (not ranks) if r == 0 else (not ranks or r > max(ranks))
        for play in (True, False):
            if play and not can_play:
                continue
            h = list(hand)
            h.remove(t)
            e = list(exp)
            if play:
                e[c] = (w + 1, ranks) if r == 0 else (w, ranks + (r,))
            e = tuple(e)
            if len(deck) == 1:
                v = float(total_points(e))
            else:
                v = 0.0
                for u in sorted(set(deck)):
                    rest = list(deck)
                    rest.remove(u)
                    v += deck.count(u) / len(deck) * _solo(tuple(sorted(h + [u])), e, tuple(rest), False, tl2)
            best = max(best, v)
    return best


# --- kernel states ----------------------------------------------------------------------


def forget() -> None:
    """Empty the memo tables: they hold every state any test valued, and a worker process that runs
    the search tests one after another grew to 12 GB with them (two such workers ran a 23 GB
    machine out of memory). ``tests/conftest.py`` calls this after each test."""
    value.cache_clear()
    _solo.cache_clear()


def game_from_state(s: np.ndarray, stalls, turns_left) -> tuple:
    """This module's tuples for a kernel state in its place step."""
    nc = int(s[K.H_NC])
    nt = RANKS * nc
    hands = []
    exps = []
    for p in range(2):
        oh = K.off_hand(nc, p)
        hands.append(tuple(sorted(t for t in range(nt) for _ in range(int(s[oh + t])))))
        exp = []
        for c in range(nc):
            w = int(s[K.off_wagers(nc, p) + c])
            m = int(s[K.off_mask(nc, p) + c])
            exp.append((w, tuple(r for r in range(1, RANKS) if m & (1 << (r - 1)))))
        exps.append(tuple(exp))
    piles = []
    for c in range(nc):
        n = int(s[K.off_pile_len(nc) + c])
        piles.append(tuple(int(x) for x in s[K.off_pile(nc) + c * K.PILE_CAP: K.off_pile(nc) + c * K.PILE_CAP + n]))
    od = K.off_deck(nc)
    deck = tuple(sorted(int(x) for x in s[od + s[K.H_DECK_POS]: od + s[K.H_DECK_END]]))
    st = tuple(None if x is None or x < 0 else int(x) for x in stalls)
    tl = None if turns_left is None or turns_left < 0 else int(turns_left)
    return (nc, bool(s[K.H_NO_REDRAW]), int(s[K.H_TO_MOVE]), tuple(hands), tuple(exps), tuple(piles), deck, st, tl)


def random_endgame(seed: int, colors: int = 5, hand: int = 3, deck: int = 3, no_redraw: bool = True,
                   table: int = 8, piles: int = 4, focus: int | None = 3) -> np.ndarray:
    """A random small endgame as a kernel state: ``table`` cards on the expeditions, ``piles``
    cards on discard piles, ``hand`` cards in each hand, ``deck`` in the draw pile, the rest
    of the cards out of play. ``focus`` limits the cards to that many colours (more interaction)."""
    rng = random.Random(seed)
    cols = list(range(colors))
    rng.shuffle(cols)
    if focus:
        cols = cols[:focus]
    cards = [t for t in full_deck(colors) if t // RANKS in cols]
    rng.shuffle(cards)
    s = K.new_state(colors, hand, no_redraw, 10_000)
    for _ in range(table):
        p = rng.randrange(2)
        t = cards.pop()
        c, r = divmod(t, RANKS)
        om = K.off_mask(colors, p) + c
        if r == 0:
            if s[om] == 0:
                s[K.off_wagers(colors, p) + c] += 1
        else:
            s[om] |= 1 << (r - 1)
    for _ in range(piles):
        t = cards.pop()
        c, r = divmod(t, RANKS)
        opl = K.off_pile_len(colors) + c
        s[K.off_pile(colors) + c * K.PILE_CAP + s[opl]] = r
        s[opl] += 1
    for p in range(2):
        for _ in range(hand):
            s[K.off_hand(colors, p) + cards.pop()] += 1
    od = K.off_deck(colors)
    for i in range(deck):
        s[od + i] = cards.pop()
    s[K.H_DECK_POS] = 0
    s[K.H_DECK_END] = deck
    s[K.H_TO_MOVE] = rng.randrange(2)
    return s
