import itertools
import random

import pytest
from helpers import score_from_scratch

from lcanalysis.core.kernel import expedition_points
from lcanalysis.game.cards import Card
from lcanalysis.game.rules import expedition_score
from lcanalysis.wagers.canonical import expedition_score_values


@pytest.mark.parametrize("cards,expected", [
    ("R2 R3 R7 R8 R10", 10),
    ("Rw Rw R4 R5 R6 R7 R8 R10", 80),   # (40 - 20) * 3 = 60, 8 cards: +20
    ("Rw R4 R6 R7", -6),
    ("Rw", -40),
])
def test_the_four_rulebook_examples(cards, expected):
    assert expedition_score([Card.parse(c) for c in cards.split()]) == expected


def test_extremes_from_the_rules():
    best = [Card(0, 0)] * 3 + [Card(0, r) for r in range(1, 10)]
    assert expedition_score(best) == 156
    assert expedition_score([Card(0, 0)] * 3) == -80
    assert expedition_score([]) == 0
    assert expedition_score([Card.parse("R10"), Card.parse("R9")]) == -1  # two numbers never break even


def test_kernel_scoring_matches_a_from_scratch_count_on_every_expedition_shape():
    """The score formula is written once (``kernel.expedition_points``); every way in, the
    kernel's masks, the object layer's cards and the wager model's face values, agrees with a
    count written from the rules."""
    rng = random.Random(5)
    for wagers in range(4):
        for k in range(10):
            for numbers in itertools.islice(itertools.combinations(range(1, 10), k), 0, None, 7):
                cards = [Card(1, 0)] * wagers + [Card(1, r) for r in numbers]
                rng.shuffle(cards)
                expect = score_from_scratch(cards)
                values = [r + 1 for r in numbers]
                assert expedition_score(cards) == expect
                assert expedition_points(wagers, sum(values), len(values)) == expect
                assert expedition_score_values(wagers, values) == expect
