import pytest

from lcanalysis.game.match import Match
from lcanalysis.game.rules import Rules


def test_higher_total_starts_and_ties_alternate_by_default():
    m = Match(first_starter=1)
    assert m.new_round(seed=1).to_move == 1
    m.record((30, 10))
    assert m.next_starter() == 0                   # player 0 leads 30-10
    m.record((0, 20))                              # 30-30: tie, round 2 was started by 0
    assert m.next_starter() == 1
    pos = m.new_round(seed=3)
    assert pos.to_move == 1 and pos.match == {"round": 3, "totals": [30, 30]}
    m.record((5, 5))
    assert m.is_over() and m.winner() is None      # a tied total is a draw
    with pytest.raises(ValueError, match="over"):
        m.new_round()


def test_tied_start_same_keeps_the_previous_starter():
    m = Match(rules=Rules(tied_start="same"), first_starter=0)
    m.record((10, 10))
    assert m.next_starter() == 0


def test_single_round_match_and_winner():
    m = Match(rules=Rules(rounds=1))
    m.record((12, -4))
    assert m.winner() == 0
