"""Random legal rounds in every variant, with invariants checked after every move.

Two layers: a deep check through the object layer against an independent move generator
(hundreds of rounds per variant), and a compiled check on the kernel itself (thousands of
rounds per variant). The compiled checker below is written here, independently of the
kernel's code: it only reads the state layout documented in ``core/kernel.py``.
"""

from __future__ import annotations

import numpy as np
import pytest
from helpers import random_round_positions, score_from_scratch
from numba import njit

from lcanalysis.core import kernel as K
from lcanalysis.game.cards import COLOR_LETTERS, Card, copies, full_deck
from lcanalysis.game.moves import Move
from lcanalysis.game.position import Position
from lcanalysis.game.rules import Rules

VARIANTS = [
    Rules(colors=5), Rules(colors=6), Rules(colors=5, no_redraw=False), Rules(colors=6, no_redraw=False),
    Rules(colors=5, hand_size=5), Rules(colors=5, turn_cap=30), Rules(colors=6, hand_size=6, turn_cap=60),
]
IDS = [f"c{r.colors}-h{r.hand_size}-{'nr' if r.no_redraw else 'r'}-cap{r.turn_cap}" for r in VARIANTS]


def independent_legal_moves(pos: Position) -> set[str]:
    """The rules of docs/spec/rules.md applied to the object layer's cards, not the kernel."""
    p = pos.to_move
    out = set()
    piles = {c: pos.discard_pile(c) for c in range(pos.colors)}
    for card in set(pos.hand(p)):
        exp = pos.expedition(p, card.color)
        numbers = [c.number for c in exp if not c.is_wager]
        can_play = (not numbers) if card.is_wager else (not numbers or card.number > max(numbers))
        for play in (True, False):
            if play and not can_play:
                continue
            head = ("+" if play else "-") + str(card)
            out.add(head + "/D")
            for c in range(pos.colors):
                size = len(piles[c]) + (1 if (not play and c == card.color) else 0)
                if size == 0:
                    continue
                if pos.rules.no_redraw and not play and c == card.color:
                    continue
                out.add(f"{head}/{COLOR_LETTERS[c]}")
    return out


def check_invariants(pos: Position, rules: Rules) -> None:
    places = pos.hand(0) + pos.hand(1) + pos.deck
    for c in range(rules.colors):
        places += pos.discard_pile(c) + pos.expedition(0, c) + pos.expedition(1, c)
    counts: dict[Card, int] = {}
    for card in places:
        counts[card] = counts.get(card, 0) + 1
    for t in full_deck(rules.colors):
        assert counts.get(Card.from_type(t), 0) == copies(t), f"{Card.from_type(t)} not in exactly one place"
    assert len(places) == rules.deck_size
    assert len(pos.hand(0)) == len(pos.hand(1)) == rules.hand_size
    for p in range(2):
        for c in range(rules.colors):
            exp = pos.expedition(p, c)
            numbers = [card.number for card in exp if not card.is_wager]
            assert numbers == sorted(set(numbers))
        expected = sum(score_from_scratch(pos.expedition(p, c)) for c in range(rules.colors))
        assert pos.score(p) == expected
    over = pos.deck_count == 0 or pos.turn >= rules.turn_cap
    assert pos.is_over() == over
    assert pos.is_capped() == (over and pos.deck_count > 0)


@pytest.mark.parametrize("rules", VARIANTS, ids=IDS)
def test_object_layer_rounds_keep_every_invariant(rules):
    for seed in range(60):
        previous_deck = None
        previous_turn = None
        for pos in random_round_positions(seed, rules, deck_bias=0.6):
            check_invariants(pos, rules)
            legal = {str(m) for m in pos.legal_moves()}
            if pos.is_over():
                assert legal == set()
            else:
                assert legal == independent_legal_moves(pos)
            if pos.history:
                last = pos.history[-1]
                assert pos.turn == previous_turn + 1
                assert pos.deck_count == previous_deck - (1 if last.draws_from_deck else 0)
                if rules.no_redraw and last.card is not None and not last.play:
                    assert last.source != last.card.color_letter
            previous_deck, previous_turn = pos.deck_count, pos.turn
        assert pos.is_over()


@pytest.mark.parametrize("rules", VARIANTS[:4], ids=IDS[:4])
def test_pop_restores_every_earlier_position_exactly(rules):
    for seed in range(10):
        snapshots = []
        for pos in random_round_positions(seed, rules, deck_bias=0.5):
            snapshots.append((pos.to_string(), pos.state.copy(), pos.known.copy()))
        while pos.history:
            pos.pop()
            snapshots.pop()
            text, state, known = snapshots[-1]
            assert pos.to_string() == text
            assert np.array_equal(pos.state, state) and np.array_equal(pos.known, known)



def test_a_pushed_turn_keeps_a_few_small_numbers_to_take_it_back_and_pop_restores_what_is_known():
    """Each ``push`` kept a copy of the mover's known-card counts (a numpy array, about 390 bytes) to
    take the turn back: a 10,000-turn replay held 4 MB of them (``benchmarks/bench_move_memory.py``).
    It keeps what the turn changed instead. A stalling round takes the same cards back from the
    discard piles and places them again, so the known counts go up and down at every turn."""
    import tracemalloc

    pos = Position.deal(seed=5, rules=Rules(no_redraw=False, turn_cap=3_000))
    turns = []
    while not pos.is_over():
        legal = pos.legal_moves()
        turns.append(next((m for m in legal if not m.draws_from_deck and m.card is not None
                           and m.card.color_letter == m.source), legal[0]))
        pos.push(turns[-1])
    assert len(turns) == 3_000 and pos.known.sum() > 0
    start = Position.deal(seed=5, rules=Rules(no_redraw=False, turn_cap=3_000))
    tracemalloc.start()
    try:
        base = tracemalloc.get_traced_memory()[0]
        replay = start.copy()
        for move in turns:
            replay.push(move)
        kept = tracemalloc.get_traced_memory()[0] - base
    finally:
        tracemalloc.stop()
    assert kept / len(turns) < 200, f"{kept / len(turns):.0f} bytes kept a pushed turn"
    known = [replay.known.copy()]
    for _ in range(len(turns)):  # and the known counts come back exactly, turn by turn
        replay.pop()
        known.append(replay.known.copy())
    assert np.array_equal(replay.state, start.state) and not replay.known.any()
    forward = start.copy()
    for move, want in zip(turns, reversed(known[:-1]), strict=True):
        forward.push(move)
        assert np.array_equal(forward.known, want)

@njit(cache=True)
def _compiled_conformance(s0, rounds, seed, deck_size, copies_per_type):
    """Play random rounds on the kernel; return the number of invariant violations and turns."""
    np.random.seed(seed)
    nc = s0[0]
    nt = 10 * nc
    buf = np.empty(K.MAX_MOVES, dtype=np.int32)
    violations = 0
    turns = 0
    capped = 0
    s = s0.copy()
    counts = np.zeros(nt, dtype=np.int64)
    for _ in range(rounds):
        s[:] = s0
        # shuffle the whole deck into hands and draw pile
        deck = np.empty(deck_size, dtype=np.int32)
        j = 0
        for t in range(nt):
            for _k in range(copies_per_type[t]):
                deck[j] = t
                j += 1
        np.random.shuffle(deck)
        h = s[1]
        for p in range(2):
            for i in range(h):
                s[12 + p * nt + deck[p * h + i]] += 1
        od = 12 + 2 * nt + 5 * nc + 12 * nc
        for i in range(2 * h, deck_size):
            s[od + i - 2 * h] = deck[i]
        s[7] = deck_size - 2 * h
        while True:
            n = K.gen_moves(s, buf)
            left = s[7] - s[6]
            over = left <= 0 or s[4] >= s[5]
            if over != (n == 0):
                violations += 1
            if n == 0:
                if left > 0:
                    capped += 1
                break
            m = buf[np.random.randint(n)]
            if np.random.random() < 0.5:
                # prefer a draw-pile version of a random move, so rounds also end by the deck
                m = m - m % (nc + 1)
            before_left = left
            src = m % (nc + 1)
            place = m // (nc + 1)
            if src > 0 and s[2] == 1 and place % 2 == 1 and (place // 2) // 10 == src - 1:
                violations += 1  # no-redraw rule broken
            K.apply_move(s, m)
            turns += 1
            # every card in exactly one place
            counts[:] = 0
            for p in range(2):
                hand_total = 0
                for t in range(nt):
                    counts[t] += s[12 + p * nt + t]
                    hand_total += s[12 + p * nt + t]
                if hand_total != h:
                    violations += 1
                for c in range(nc):
                    counts[c * 10] += s[12 + 2 * nt + p * nc + c]
                    mask = s[12 + 2 * nt + 2 * nc + p * nc + c]
                    for r in range(1, 10):
                        if mask & (1 << (r - 1)):
                            counts[c * 10 + r] += 1
            for c in range(nc):
                for i in range(s[12 + 2 * nt + 4 * nc + c]):
                    counts[c * 10 + s[12 + 2 * nt + 5 * nc + c * 12 + i]] += 1
            for i in range(s[6], s[7]):
                counts[s[od + i]] += 1
            for t in range(nt):
                if counts[t] != copies_per_type[t]:
                    violations += 1
            if (s[7] - s[6]) != before_left - (1 if src == 0 else 0):
                violations += 1
            # score from scratch
            for p in range(2):
                total = 0
                for c in range(nc):
                    w = s[12 + 2 * nt + p * nc + c]
                    mask = s[12 + 2 * nt + 2 * nc + p * nc + c]
                    if w == 0 and mask == 0:
                        continue
                    ssum = 0
                    ncards = w
                    for r in range(1, 10):
                        if mask & (1 << (r - 1)):
                            ssum += r + 1
                            ncards += 1
                    total += (ssum - 20) * (1 + w) + (20 if ncards >= 8 else 0)
                if total != K.player_score(s, p):
                    violations += 1
    return violations, turns, capped


@pytest.mark.parametrize("rules", VARIANTS, ids=IDS)
def test_thousands_of_compiled_rounds_keep_every_invariant(rules):
    s0 = K.new_state(rules.colors, rules.hand_size, rules.no_redraw, rules.turn_cap)
    per_type = np.array([copies(t) for t in range(10 * rules.colors)], dtype=np.int64)
    violations, turns, capped = _compiled_conformance(s0, 2000, 17, rules.deck_size, per_type)
    assert violations == 0
    assert turns >= 2000 * (rules.draw_pile_after_deal if rules.turn_cap > 100 else 25) * 0.9
    if rules.turn_cap <= 60:
        assert capped > 0  # the cap really stops rounds


def test_a_five_colour_round_of_deck_draws_lasts_exactly_44_turns():
    pos = Position.deal(seed=1)
    while not pos.is_over():
        pos.push(next(m for m in pos.legal_moves() if m.draws_from_deck))
    assert pos.turn == 44 and pos.deck_count == 0 and not pos.is_capped()
    assert Move.parse("+R7/D") not in pos.legal_moves()
