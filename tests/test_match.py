import pytest

from lcanalysis.game.match import Match
from lcanalysis.game.position import Position
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


def test_a_match_and_a_deal_check_what_they_are_given():
    """A score of 1.7 was cut to 1, a nan raised int()'s error, a starter of 5 or a first starter of
    True was kept, and rules given as a dict failed on a missing attribute: each is refused by name,
    and rules as a dict of options are read as JSON writes them."""
    import numpy as np

    from lcanalysis.game.position import PositionError

    for scores in ((1.7, 0), (float("nan"), 0), (5000, 0), (1, 2, 3), "10 5", (True, 0)):
        with pytest.raises(ValueError, match=r"scores must be the round.s two scores, whole numbers from -400 to 780"):
            Match().record(scores)
    with pytest.raises(PositionError, match="starter must be 0 or 1, got 5"):
        Match().record((5, 0), starter=5)
    with pytest.raises(PositionError, match="first_starter must be 0 or 1, got True"):
        Match(first_starter=True)
    for call in (lambda: Match(rules="x"), lambda: Position.deal(1, rules="x")):
        with pytest.raises(PositionError, match="rules must be a Rules, a dict of its options or None, got 'x'"):
            call()
    m = Match(rules={"rounds": 3, "colors": 6})
    m.record((np.int64(12), -3))
    assert m.totals == [12, -3] and m.rules == Rules(rounds=3, colors=6) and m.next_starter() == 0
    assert Position.deal(1, rules={"colors": 6}) == Position.deal(1, Rules(colors=6))


def test_a_match_given_mid_way_is_checked_and_its_totals_follow_from_its_rounds():
    """Found by a review: Match(starters=[7]).next_starter() was -6, Match(totals=[1]).record(...) an
    IndexError after a starter had been added, and totals=None or 'ab' were taken."""
    from lcanalysis.game.match import MatchError

    for state, said in (({"starters": [7]}, "starters must list who started each of the 0 round"),
                        ({"totals": [1]}, r"totals must be the sums of the round scores, \[0, 0\], got \[1\]"),
                        ({"totals": "ab"}, "totals must be the sums"), ({"round_scores": 5}, "round_scores must be"),
                        ({"round_scores": [(10, 5)] * 4, "starters": [0] * 4}, "at most 3 rounds"),
                        ({"round_scores": [(10, 5)], "starters": [2]}, "starters must be 0 or 1"),
                        ({"round_scores": [(10, 5000)], "starters": [0]}, "scores must be the round's two scores")):
        with pytest.raises(ValueError, match=said):
            Match(**state)
    m = Match(round_scores=[(10, 5), (0, 30)], starters=[0, 0])
    assert m.totals == [10, 35] and m.round_number == 3 and m.next_starter() == 1  # the higher total starts
    assert Match(round_scores=[(10, 5)], starters=[1], totals=[10, 5]).totals == [10, 5]
    m.record((1, 1))
    with pytest.raises(MatchError, match="the match is over after 3 round"):
        m.record((1, 1))
    assert m.winner() == 1


def test_a_later_round_started_against_the_rules_is_refused_by_a_match_as_by_a_match_record():
    """Match(round_scores=..., starters=...) and Match.record(scores, starter=...) took a starter the
    rules do not allow (the lower total starting round 2), so next_starter() then answered from a
    match that cannot be; a match record with that starter was refused. The first round's starter
    is chosen, so any is taken there."""
    from lcanalysis.game.match import MatchError

    with pytest.raises(MatchError, match=r"starters: player 1 starts round 2, but the totals are 30-10, so "
                                         r"player 0 \(the higher total\) starts it"):
        Match(round_scores=[(30, 10), (0, 0)], starters=[0, 1])
    with pytest.raises(MatchError, match=r"player 0 starts round 3, but the totals are tied, so under "
                                         r"tied_start 'alternate' player 1 starts it"):
        Match(round_scores=[(30, 10), (0, 20), (5, 5)], starters=[1, 0, 0])
    m = Match(first_starter=1)
    m.record((30, 10), starter=0)  # round 1: chosen
    with pytest.raises(MatchError, match="player 1 starts round 2, but the totals are 30-10"):
        m.record((0, 20), starter=1)
    assert m.round_scores == [(30, 10)] and m.starters == [0] and m.totals == [30, 10]  # unchanged
    m.record((0, 20), starter=0)
    same = Match(Rules(tied_start="same"), round_scores=[(30, 10), (0, 20)], starters=[1, 0])
    assert same.next_starter() == 0
    with pytest.raises(MatchError, match="under tied_start 'same' player 0 starts it"):
        same.record((1, 1), starter=1)


@pytest.mark.parametrize("colors", [5, 6])
def test_match_totals_and_round_scores_no_round_can_reach_are_refused_naming_the_field(colors):
    """Found by a review of the entry points: a total of -500 after one round was read, though a
    round scores at least -80 a colour (every expedition opened with its three wagers, (0 - 20) x 4,
    and nothing else: worked out by hand, and checked with the rules' score of such a table). The totals are
    now checked against what the rounds played can score, from below as from above; so are the
    scores a Match records."""
    from lcanalysis.game.cards import Card
    from lcanalysis.game.notation import read_position
    from lcanalysis.game.position import PositionError
    from lcanalysis.game.rules import expedition_score

    least, most = -80 * colors, 156 * colors  # (the most: test_the_most_a_round_can_score_is_every_card_...)
    # a player who has played all three wagers of every colour and nothing else scores exactly that
    wagers_only = sum(expedition_score([Card(c, 0)] * 3) for c in range(colors))
    assert wagers_only == least
    start = Position.deal(seed=3, rules=Rules(colors=colors)).to_json()
    for rnd, totals, ok in ((2, [least, 0], True), (2, [least - 1, 0], False), (2, [0, least - 1], False),
                            (2, [-500, 10], False), (3, [2 * least, 1], True), (3, [2 * least - 1, 1], False),
                            (2, [most, 0], True), (2, [most + 1, 0], False), (3, [1, 2 * most], True),
                            (3, [1, 2 * most + 1], False)):
        pos = {**start, "match": {"round": rnd, "totals": totals}}
        if ok:
            assert read_position(pos).match == {"round": rnd, "totals": totals}
        else:
            said = f"match totals must be two whole numbers .*from {(rnd - 1) * least} to {(rnd - 1) * most}"
            with pytest.raises(PositionError, match=said):
                read_position(pos)
    rules = Rules(colors=colors)
    Match(rules=rules).record((least, 0))
    Match(rules=rules).record((0, most))
    for scores in ((least - 1, 0), (0, most + 1)):
        with pytest.raises(ValueError, match=f"scores must be the round.s two scores, whole numbers from {least} to "
                                             f"{most} "):
            Match(rules=rules).record(scores)


@pytest.mark.parametrize("colors", [5, 6])
def test_the_most_a_round_can_score_is_every_card_of_every_colour(colors):
    """The bound on a round's score was -80 a colour below but 1,000 a round above, so a match total
    or a round score no round can reach (901 after one round of five colours) was read. The most is
    every card of each colour on one's own expeditions: worked out over every expedition one colour
    can hold (0 to 3 wagers and any set of 2..10, scored by docs/spec/rules.md's formula written out
    here), and by hand, (54 - 20) x 4 + 20 = 156 a colour; the least, three wagers alone, -80."""
    from itertools import combinations

    from lcanalysis.game.cards import Card
    from lcanalysis.game.position import round_score_range
    from lcanalysis.game.rules import expedition_score

    scores = []
    for wagers in range(4):
        for n in range(10):
            for numbers in combinations(range(2, 11), n):
                if wagers or numbers:
                    scores.append((sum(numbers) - 20) * (1 + wagers) + (20 if wagers + n >= 8 else 0))
    assert (min(scores), max(scores)) == (-80, 156) == (-80, (54 - 20) * 4 + 20)
    every_card = sum(expedition_score([Card(c, 0)] * 3 + [Card(c, r) for r in range(1, 10)]) for c in range(colors))
    assert round_score_range(Rules(colors=colors)) == (-80 * colors, 156 * colors) == (-80 * colors, every_card)
