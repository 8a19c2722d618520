"""The canonical wager model against brute force, simulation, hand derivations and properties."""

from __future__ import annotations

import itertools
import json
import math
import random
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from lcanalysis.core.kernel import expedition_score as kernel_score
from lcanalysis.game.position import Position
from lcanalysis.wagers.canonical import (
    ColorState,
    DrawsOutOfRangeError,
    InconsistentCardsError,
    UnknownColorError,
    WagerError,
    analyze,
    analyze_view,
    break_even_draws,
    expedition_score_values,
    mean_score,
    wager_answer,
    wager_distribution,
)

# --- an independent brute force: every k-subset of the physical unseen cards ---------------------


def brute_force(placed, placed_wagers, hand, hand_wagers, unseen_numbers, unseen_total, draws, wagers):
    """Enumerate every draw; score each final expedition with the kernel's scoring (bitmask form)."""
    pool = [("n", v) for v in unseen_numbers] + [("x", i) for i in range(unseen_total - len(unseen_numbers))]
    top = max(placed, default=0)
    dist: dict[int, Fraction] = {}
    subsets = list(itertools.combinations(range(len(pool)), draws))
    for sub in subsets:
        final = set(placed) | {v for v in hand if v > top}
        final |= {pool[i][1] for i in sub if pool[i][0] == "n" and pool[i][1] > top}
        mask = 0
        for v in final:
            mask |= 1 << (v - 2)  # rank r = v - 1, bit r - 1
        score = int(kernel_score(placed_wagers + wagers, mask))
        dist[score] = dist.get(score, Fraction(0)) + Fraction(1, len(subsets))
    return dist


def test_rulebook_examples_score_as_the_rules_say():
    assert expedition_score_values(0, [2, 3, 7, 8, 10]) == 10
    assert expedition_score_values(2, [4, 5, 6, 7, 8, 10]) == 80
    assert expedition_score_values(1, [4, 6, 7]) == -6
    assert expedition_score_values(1, []) == -40
    assert expedition_score_values(0, []) == 0


SMALL_CASES = [
    # placed, placed_wagers, hand, hand_wagers, unseen numbers, unseen_total, draws
    ((), 0, (7, 9), 2, (2, 3, 4, 8, 10), 9, 4),
    ((), 0, (), 3, (2, 5, 6, 7, 8, 9, 10), 12, 6),
    ((4,), 1, (3, 6), 0, (5, 8, 9, 10, 2), 10, 5),
    ((), 1, (5, 6, 7), 1, (2, 3, 4, 8, 9, 10), 11, 7),  # enough for the 8-card bonus
    ((), 0, (), 0, (2, 10), 6, 3),  # nothing yet: an unopened colour scores 0 unless a card comes
    ((8,), 0, (2, 3, 9), 0, (10,), 4, 0),  # no draws: deterministic
    ((), 2, (), 1, (3, 4, 5, 6, 7, 8, 9, 10, 2), 14, 8),  # every number live, bonus reachable
]


@pytest.mark.parametrize("case", SMALL_CASES)
def test_exact_distribution_equals_enumerating_every_draw(case):
    placed, pw, hand, hw, unseen, total, k = case
    state = ColorState.make(hand=hand, hand_wagers=hw, placed=placed, placed_wagers=pw, unseen=unseen,
                            unseen_total=total)
    result = analyze(state, k, exact=True)
    assert [o.wagers for o in result.by_wagers] == (list(range(hw + 1)) if not placed else [0])
    for o in result.by_wagers:
        expected = brute_force(placed, pw, hand, hw, unseen, total, k, o.wagers)
        assert o.distribution == expected
        assert o.mean == sum(s * p for s, p in expected.items())
        assert o.p_positive == sum(p for s, p in expected.items() if s > 0)
        assert o.p_break_even == sum(p for s, p in expected.items() if s >= 0)
        assert o.exact and o.stderr == 0.0
        # the closed-form mean of the fast path agrees
        assert mean_score(state, k, o.wagers) == pytest.approx(float(o.mean), abs=1e-9)


def test_float_path_matches_exact_path():
    state = ColorState.make(hand=(6, 8), hand_wagers=2, unseen_total=52)
    exact = analyze(state, 22, exact=True)
    approx = analyze(state, 22, exact=False)
    for a, b in zip(exact.by_wagers, approx.by_wagers):
        assert set(a.distribution) == set(b.distribution)
        for s in a.distribution:
            assert float(a.distribution[s]) == pytest.approx(b.distribution[s], abs=1e-14)


def test_monte_carlo_agrees_on_a_full_round():
    """52 unseen cards, 22 draws: too many subsets to enumerate (about 10^14), so sample 40,000."""
    hand = (5, 7, 9)
    state = ColorState.make(hand=hand, hand_wagers=1, unseen_total=52)
    result = analyze(state, 22, exact=False)
    rng = np.random.default_rng(7)
    unseen = [v for v in range(2, 11) if v not in hand]  # 6 live numbers among 52 cards
    n = 40_000
    for j in (0, 1):
        scores = np.empty(n)
        for i in range(n):
            drawn = rng.choice(52, size=22, replace=False)
            nums = list(hand) + [unseen[d] for d in drawn if d < len(unseen)]
            scores[i] = (sum(nums) - 20) * (1 + j) + (20 if len(nums) + j >= 8 else 0)
        o = result.outcome(j)
        se = scores.std(ddof=1) / np.sqrt(n)
        assert abs(scores.mean() - o.mean) < 4 * se
        p_mc = (scores >= 0).mean()
        assert abs(p_mc - o.p_break_even) < 4 * np.sqrt(o.p_break_even * (1 - o.p_break_even) / n) + 1e-9


def test_each_wager_adds_the_expected_sum_less_twenty_by_hand():
    # hand 7 8 9 10 (sum 34), no draws: score (34 - 20)(1 + j) = 14, 28, 42, 56
    r = wager_distribution(hand=[7, 8, 9, 10], hand_wagers=3, draws=0)
    assert [o.mean for o in r.by_wagers] == [14, 28, 42, 56]
    assert r.marginals == [14, 14, 14]
    assert r.best_wagers == 3
    # a losing hand: 2 3 (sum 5): -15, -30; the wager costs 15
    r = wager_distribution(hand=[2, 3], hand_wagers=1, draws=0)
    assert [o.mean for o in r.by_wagers] == [-15, -30]
    assert r.marginal(1) == -15 and r.best_wagers == 0


def test_a_wager_answer_shows_itself_in_a_line_with_each_number_of_wagers_mean():
    """A REPL showed ``lc.wager(...)`` as the dataclass's repr: every exact probability of every score
    and the model's inputs, about 5,000 characters for three wagers. Now one line, the means by hand:
    hand 7 8 9 10, no draws, (34 - 20)(1 + j) = 14, 28, 42, 56."""
    r = wager_distribution(hand=[7, 8, 9, 10], hand_wagers=3, draws=0, color="R")
    assert repr(r) == ("<WagerAnalysis: colour R, 0 draw(s) of 52 unseen cards, canonical model, exact; mean points "
                       "by wagers "
                       "0: +14.00, 1: +28.00, 2: +42.00, 3: +56.00; print() it for the table>")


@pytest.mark.parametrize("wagers", ["1", None, 1.5])
def test_the_answer_for_a_number_of_wagers_that_is_no_whole_number_is_refused_naming_it(wagers):
    """``marginal("1")`` and ``marginal(None)`` were Python's "'<' not supported"; ``outcome("1")``
    said "no answer for 1 wager(s)", where 1 wager has one."""
    from lcanalysis.wagers.canonical import WagerError

    r = wager_distribution(hand=[2, 3], hand_wagers=1, draws=0)
    for ask in (r.outcome, r.marginal):
        with pytest.raises(WagerError, match=f"wagers must be a whole number of wagers, got {wagers!r}"):
            ask(wagers)
    assert r.outcome(np.int64(1)).mean == r.marginal(np.int64(1)) * 2 == -30


def test_one_draw_by_hand():
    # hand 9 10, one unseen live number 8 among 4 unseen cards, one draw:
    # P(8) = 1/4 -> 27 - 20 = 7; else 19 - 20 = -1
    r = wager_distribution(hand=[9, 10], draws=1, unseen=[8], unseen_total=4)
    o = r.outcome(0)
    assert o.distribution == {-1: Fraction(3, 4), 7: Fraction(1, 4)}
    assert o.mean == Fraction(1) and o.p_positive == Fraction(1, 4)


def test_a_placed_number_rules_out_wagers_and_kills_lower_cards():
    r = wager_distribution(placed=[6], hand=[4, 9], hand_wagers=2, draws=0)
    assert [o.wagers for o in r.by_wagers] == [0]
    assert r.outcome(0).distribution == {-5: 1}  # 6 + 9 - 20; the 4 is dead


def test_break_even_point_by_hand():
    # hand 10 9 8 (sum 27) already breaks even with no draws
    assert break_even_draws(ColorState.make(hand=[8, 9, 10])) == 0
    # hand 2 3 and only the 10 unseen (among 2 cards): the mean reaches 0 never (5 + 10 < 20)
    assert break_even_draws(ColorState.make(hand=[2, 3], unseen=[10], unseen_total=2)) is None
    # hand 10 9, unseen 2 only, 2 cards: k=1 gives 1/2 * (21-20) + 1/2 * (-1) = 0 -> breaks even at 1
    assert break_even_draws(ColorState.make(hand=[9, 10], unseen=[2], unseen_total=2)) == 1
    # the median criterion: P(score >= 0) = 1/2 at one draw, 0 with none
    assert break_even_draws(ColorState.make(hand=[9, 10], unseen=[2], unseen_total=2), criterion="median") == 1
    with pytest.raises(WagerError):
        break_even_draws(ColorState.make(hand=[9, 10]), wagers=1)  # no wager in hand
    # a misspelt criterion is refused even where no number of draws is tried (it answered None)
    for tried in ({}, {"max_draws": 0, "min_draws": 1}):
        with pytest.raises(WagerError, match=r"criterion must be 'mean', 'median' or 'marginal' .*, got 'mediam'"):
            break_even_draws(ColorState.make(hand=[9, 10]), criterion="mediam", **tried)


def test_break_even_with_draws_left_in_a_round_shrinks_the_unseen_cards_with_them():
    """``unseen="round"`` answers "with how many draws left does a lone 10 pay?": k draws left come
    from 2k + 10 unseen cards, not from the deal's 52 (which said 12 draws where the round says 5).
    Brute force over every k-subset of the round's pool: the first k whose mean is >= 0. By hand at
    5 draws: 10 + 44 * 5/20 - 20 = +1; at 4: 10 + 44 * 4/18 - 20 < 0."""
    def brute_mean(k):
        dist = brute_force((), 0, (10,), 0, tuple(range(2, 10)), 2 * k + 10, k, 0)
        return sum(s * p for s, p in dist.items())

    first = next(k for k in range(8) if brute_mean(k) >= 0)
    assert first == 5 and brute_mean(5) == 1
    state = ColorState.make(hand=[10])  # the deal's 52 unseen cards: 21 draws left at most
    assert break_even_draws(state, unseen="round") == first
    assert break_even_draws(state) == 12  # draws from now, of the 52: the question it answered before
    # no more draws left than the state's unseen cards stand for: 18 unseen cards are 4 draws left
    assert break_even_draws(ColorState.make(hand=[10], unseen_total=20), unseen="round") == 5
    assert break_even_draws(ColorState.make(hand=[10], unseen_total=18), unseen="round") is None
    assert break_even_draws(state, unseen="round", max_draws=4) is None
    with pytest.raises(WagerError, match=r"unseen must be 'fixed' \(draws from now, of the state's 52 unseen cards\) "
                                         r"or 'round' .*got 'later'"):
        break_even_draws(state, unseen="later")


def test_an_untouched_colour_breaks_even_once_opened_only_from_the_draws_that_pay_the_20():
    """An untouched colour "breaks even" at 0 draws: never opened, it scores 0. ``min_draws=1`` asks
    when it would once opened. By hand: unseen 10 9 8 among 3 cards, nothing held. One draw: a
    single number n scores n - 20 < 0; two: 19, 18 or 17 minus 20, all < 0; three: 27 - 20 = +7."""
    state = ColorState.make(unseen=[8, 9, 10], unseen_total=3)
    assert break_even_draws(state) == 0
    assert break_even_draws(state, min_draws=1) == 3
    assert break_even_draws(state, min_draws=1, max_draws=2) is None
    with pytest.raises(WagerError, match="min_draws must be a whole number of draws from 0, got -1"):
        break_even_draws(state, min_draws=-1)


# --- properties -----------------------------------------------------------------------------

values = st.lists(st.integers(2, 10), unique=True, max_size=9)


@st.composite
def color_states(draw):
    split = draw(st.permutations(list(range(2, 11))))
    n_placed = draw(st.integers(0, 3))
    n_hand = draw(st.integers(0, 5))
    placed = split[:n_placed]
    hand = split[n_placed:n_placed + n_hand]
    rest = split[n_placed + n_hand:]
    n_unseen = draw(st.integers(0, len(rest)))
    unseen = rest[:n_unseen]
    placed_wagers = draw(st.integers(0, 3))
    hand_wagers = draw(st.integers(0, 3 - placed_wagers))
    total = len(unseen) + draw(st.integers(0, 40))
    k = draw(st.integers(0, total))
    return ColorState.make(hand=hand, hand_wagers=hand_wagers, placed=placed, placed_wagers=placed_wagers,
                           unseen=unseen, unseen_total=total), k


@settings(max_examples=150, deadline=None)
@given(color_states())
def test_probabilities_sum_to_one_exactly(sk):
    state, k = sk
    for o in analyze(state, k, exact=True).by_wagers:
        assert sum(o.distribution.values()) == 1
        assert all(p > 0 for p in o.distribution.values())


@settings(max_examples=150, deadline=None)
@given(color_states())
def test_no_draws_left_is_deterministic(sk):
    state, _ = sk
    for o in analyze(state, 0, exact=True).by_wagers:
        top = max(state.placed, default=0)
        nums = list(state.placed) + [v for v in state.hand if v > top]
        assert o.distribution == {expedition_score_values(state.placed_wagers + o.wagers, nums): 1}


@settings(max_examples=150, deadline=None)
@given(color_states(), st.data())
def test_holding_one_more_card_never_lowers_the_chance_of_breaking_even(sk, data):
    """Move one unseen live number into the hand (it becomes seen: one fewer unseen card).

    P(score > 0) never drops. P(score >= 0) never drops once the expedition is opened (a wager or a
    number on it or in hand); an empty colour 'breaks even' at 0, so a first low card can lower that.
    """
    state, k = sk
    live = state.live_unseen
    if not live:
        return
    v = data.draw(st.sampled_from(live))
    more = ColorState.make(hand=state.hand + (v,), hand_wagers=state.hand_wagers, placed=state.placed,
                           placed_wagers=state.placed_wagers, unseen=[u for u in state.unseen if u != v],
                           unseen_total=state.unseen_total - 1)
    k = min(k, more.unseen_total)
    a, b = analyze(state, k), analyze(more, k)
    for oa, ob in zip(a.by_wagers, b.by_wagers):
        assert ob.p_positive >= oa.p_positive
        opened = state.placed_wagers + oa.wagers > 0 or state.placed or state.live_hand
        if opened:
            assert ob.p_break_even >= oa.p_break_even


def _opened(state, wagers):
    """The expedition surely holds a card at the end: a wager or a number on it, placed now or held."""
    return bool(state.placed_wagers + wagers or state.placed or state.live_hand)


@settings(max_examples=100, deadline=None)
@given(color_states())
def test_more_draws_never_lower_the_mean_or_the_chances_of_an_opened_expedition(sk):
    """Once the expedition surely holds a card, every card more only adds points (k + 1 draws hold the k
    draws and one more), so the mean, P(score > 0) and P(score >= 0) never fall with the draws left
    (exactly); an untouched colour is the exception: it scores 0 with no card and below 0 with one."""
    state, _ = sk
    ks = range(min(state.unseen_total, 12) + 1)
    answers = [analyze(state, k) for k in ks]
    for before, after in itertools.pairwise(answers):
        for ob, oa in zip(before.by_wagers, after.by_wagers, strict=True):
            if _opened(state, ob.wagers):
                assert oa.mean >= ob.mean and oa.p_positive >= ob.p_positive
                assert oa.p_break_even >= ob.p_break_even


@settings(max_examples=100, deadline=None)
@given(color_states(), st.data())
def test_a_higher_card_held_instead_of_a_lower_one_never_lowers_the_mean_or_the_chances(sk, data):
    """Hold u instead of v (both live, u > v; v goes back among the unseen cards): every draw then ends
    with at least the points it had, so the mean, P(score > 0) and P(score >= 0) never fall (exactly)."""
    state, k = sk
    pairs = [(v, u) for v in state.live_hand for u in state.live_unseen if u > v]
    if not pairs:
        return
    v, u = data.draw(st.sampled_from(pairs))
    higher = ColorState.make(hand=[h for h in state.hand if h != v] + [u], hand_wagers=state.hand_wagers,
                             placed=state.placed, placed_wagers=state.placed_wagers,
                             unseen=[x for x in state.unseen if x != u] + [v], unseen_total=state.unseen_total)
    for ol, oh in zip(analyze(state, k).by_wagers, analyze(higher, k).by_wagers, strict=True):
        assert oh.mean >= ol.mean and oh.p_positive >= ol.p_positive and oh.p_break_even >= ol.p_break_even


@settings(max_examples=60, deadline=None)
@given(color_states(), st.sampled_from(["mean", "median"]))
def test_the_break_even_point_is_where_the_exact_answer_first_breaks_even(sk, criterion):
    """``break_even_draws`` (float arithmetic, a tolerance) against the exact fractions at every number
    of draws: the first k whose mean is >= 0 (or P(score >= 0) >= 1/2), None when there is none."""
    state, _ = sk
    most = min(state.unseen_total, 14)
    for j in state.wager_choices:
        want = None
        for k in range(most + 1):
            o = analyze(state, k).outcome(j)
            if (o.mean >= 0) if criterion == "mean" else (o.p_break_even >= Fraction(1, 2)):
                want = k
                break
        assert break_even_draws(state, j, criterion, max_draws=most) == want


@settings(max_examples=100, deadline=None)
@given(color_states())
def test_closed_form_mean_matches_distribution(sk):
    state, k = sk
    for o in analyze(state, k, exact=True).by_wagers:
        assert mean_score(state, k, o.wagers) == pytest.approx(float(o.mean), abs=1e-9)


# --- input checks -----------------------------------------------------------------------------


def test_bad_inputs_are_refused_with_a_reason():
    with pytest.raises(InconsistentCardsError, match="not a number card"):
        wager_distribution(hand=[11])
    with pytest.raises(InconsistentCardsError, match="twice"):
        wager_distribution(hand=[5, 5])
    with pytest.raises(InconsistentCardsError, match="both"):
        wager_distribution(hand=[5], placed=[5])
    with pytest.raises(InconsistentCardsError, match="wagers"):
        wager_distribution(hand_wagers=2, placed_wagers=2)
    with pytest.raises(DrawsOutOfRangeError):
        wager_distribution(hand=[5], draws=53)
    with pytest.raises(DrawsOutOfRangeError):
        wager_distribution(hand=[5], draws=-1)
    with pytest.raises(WagerError):
        analyze(ColorState.make(placed=[4], hand_wagers=1), 0).outcome(1)



@pytest.mark.parametrize("wagers", ["1", 1.0, None])
def test_a_number_of_wagers_that_is_no_whole_number_is_refused_by_every_question_taking_one(wagers):
    """``mean_score(state, 3, "1")`` said "1 wager(s) cannot be placed now: the choices are [0, 1]",
    and ``1.0`` was taken for 1: every question that takes a number of wagers now says what is wrong."""
    from lcanalysis.wagers.models import break_even_turns

    state = ColorState.make(hand=[5], hand_wagers=1)
    asks = (lambda: mean_score(state, 3, wagers), lambda: break_even_draws(state, wagers),
            lambda: break_even_turns(state, wagers, n=100))
    for ask in asks:
        with pytest.raises(WagerError, match=f"wagers must be a whole number of wagers placed now, got {wagers!r}"):
            ask()
    # numpy's integers are whole numbers: one wager on a 5 with 3 draws of 52 unseen cards, by hand:
    # twice (5 + 3 * 49 / 52 - 20) (the live 2..10 but 5 sum to 49), the 8-card bonus out of reach
    assert mean_score(state, 3, np.int64(1)) == pytest.approx(2 * (5 + 3 * 49 / 52 - 20), abs=1e-12)


def test_a_wager_the_colour_cannot_take_says_why():
    """A wager on a colour already started, or more wagers than the hand holds, names the reason."""
    started = ColorState.make(placed=[4], hand=[7], hand_wagers=1)
    with pytest.raises(WagerError, match=r"already holds a number.*the choices are \[0\]"):
        mean_score(started, 3, 1)
    in_hand = r"2 wager\(s\) cannot be placed now \(1 wager\(s\) of the colour are in hand\): the choices are \[0, 1\]"
    with pytest.raises(WagerError, match=in_hand):
        break_even_draws(ColorState.make(hand=[7], hand_wagers=1), 2)


def test_an_answer_asked_with_numpys_number_of_draws_is_written_as_json():
    """``wager_distribution(..., draws=np.int64(3))`` kept numpy's integer as ``draws`` (a slider's
    ``np.arange``), and ``json.dumps(answer.to_json())`` failed: "Object of type int64 is not JSON
    serializable"; ``decline_at_end`` too."""
    from lcanalysis.wagers.models import decline_at_end

    answer = wager_distribution(hand=[5, 6], draws=np.int64(3))
    assert type(answer.draws) is int
    back = json.loads(json.dumps(answer.to_json()))
    # by hand: 5 + 6 = 11, three draws of 52 unseen cards, of which the live 2..10 but 5 and 6 (43 points);
    # the bonus is out of reach (2 + 3 cards): 11 + 3 * 43 / 52 - 20
    assert back["draws"] == 3 and back["by_wagers"][0]["mean"] == pytest.approx(11 + 3 * 43 / 52 - 20, abs=1e-12)
    declined = decline_at_end(ColorState.make(hand=[5, 6]), np.int64(3))
    assert type(declined.draws) is int and json.loads(json.dumps(declined.to_json()))["draws"] == 3


def test_more_unseen_cards_than_a_game_has_are_refused():
    """``wager_distribution(unseen_total=520, ...)`` (52 mistyped) was answered as if the game had
    hundreds of cards; the 6-colour game's 72 cards, less those of the colour in view, is the most."""
    with pytest.raises(InconsistentCardsError, match=r"unseen_total=520 is more cards than a game has.*at most 68"):
        wager_distribution(hand=[7, 8, 9], hand_wagers=1, unseen_total=520, draws=5)
    # the most there can be: 72 less the four cards held; one draw, the six other numbers (30 points) live:
    # no wager 24 + 30/68 - 20, by hand
    r = wager_distribution(hand=[7, 8, 9], hand_wagers=1, unseen_total=68, draws=1)
    assert r.outcome(0).mean == 4 + Fraction(30, 68)

# --- the View adapter and the --json answer -------------------------------------------------------


def _late_position(seed: int, deck_left: int) -> Position:
    """A random legal round played down to ``deck_left`` cards (only draw-pile draws)."""
    pos = Position.deal(seed=seed)
    rng = random.Random(seed)
    while pos.deck_count > deck_left:
        moves = [m for m in pos.legal_moves() if str(m).endswith("/D")]
        pos.push(rng.choice(moves))
    return pos


def test_wager_answer_has_exactly_the_spec_shape():
    view = Position.deal(seed=3).view(0)
    ans = wager_answer(view, "y", 5)
    assert set(ans) == {"color", "draws", "by_wagers"}
    assert ans["color"] == "Y" and ans["draws"] == 5
    hand_wagers = sum(1 for c in view.hand if c.color == 0 and c.is_wager)
    assert [o["wagers"] for o in ans["by_wagers"]] == list(range(hand_wagers + 1))
    for o in ans["by_wagers"]:
        assert set(o) == {"wagers", "mean", "p_positive", "distribution"}
        assert all(isinstance(key, str) and str(int(key)) == key for key in o["distribution"])
        assert sum(o["distribution"].values()) == pytest.approx(1.0, abs=1e-12)
        mean = sum(int(s) * p for s, p in o["distribution"].items())
        assert o["mean"] == pytest.approx(mean, abs=1e-9)
        assert o["p_positive"] == pytest.approx(sum(p for s, p in o["distribution"].items() if int(s) > 0))
    json.dumps(ans)  # plain JSON


@pytest.mark.parametrize("seed", [1, 2, 5])
def test_view_answer_equals_enumerating_every_split_of_the_unseen_cards(seed):
    """From a real view late in a round: the draws are every k-subset of the physical unseen cards."""
    pos = _late_position(seed, deck_left=4)
    view = pos.view(pos.to_move)
    unseen = view.unseen()
    assert len(unseen) == view.deck_count + view.opponent_count - len(view.opponent_known)
    me = view.viewer
    for c, letter in enumerate("YBWGR"):
        exp = view.expeditions[me][c]
        placed = [x.number for x in exp if not x.is_wager]
        pw = sum(1 for x in exp if x.is_wager)
        hand = [x.number for x in view.hand if x.color == c and not x.is_wager]
        hw = sum(1 for x in view.hand if x.color == c and x.is_wager)
        for k in range(view.deck_count + 1):
            ans = wager_answer(view, letter, k)
            subsets = list(itertools.combinations(range(len(unseen)), k))
            for o in ans["by_wagers"]:
                dist: dict[int, float] = {}
                for sub in subsets:
                    top = max(placed, default=0)
                    nums = set(placed) | {v for v in hand if v > top}
                    nums |= {unseen[i].number for i in sub
                             if unseen[i].color == c and not unseen[i].is_wager and unseen[i].number > top}
                    score = expedition_score_values(pw + o["wagers"], sorted(nums))
                    dist[score] = dist.get(score, 0.0) + 1 / len(subsets)
                got = {int(s): p for s, p in o["distribution"].items()}
                assert set(got) == set(dist)
                for s, p in dist.items():
                    assert got[s] == pytest.approx(p, abs=1e-12)
            assert [o["wagers"] for o in ans["by_wagers"]] == (list(range(hw + 1)) if not placed else [0])


def test_view_answer_refuses_bad_colour_and_draws():
    view = Position.deal(seed=4).view(0)
    with pytest.raises(UnknownColorError, match="P"):
        wager_answer(view, "P", 3)  # no purple in the 5-colour game
    with pytest.raises(UnknownColorError):
        wager_answer(view, "Q", 3)
    with pytest.raises(DrawsOutOfRangeError, match="44"):
        wager_answer(view, "R", 45)
    with pytest.raises(DrawsOutOfRangeError):
        wager_answer(view, "R", -1)
    with pytest.raises(DrawsOutOfRangeError):
        wager_answer(view, "R", 2.5)
    assert issubclass(UnknownColorError, ValueError) and issubclass(DrawsOutOfRangeError, ValueError)


def test_analyze_view_counts_the_opponents_unknown_cards_as_unseen():
    view = Position.deal(seed=9).view(1)
    r = analyze_view(view, "G", 0)
    state = r.inputs["state"]
    assert state.unseen_total == 60 - 8 == view.deck_count + view.opponent_count


# --- end to end: an interchange-format view, read and answered, and the command line ------------------


def _hand_checkable_view() -> dict:
    """A view where red is checkable by hand: R6 R8 R9 and a wager held; of the 6 unseen cards
    (2 in the draw pile, 4 unknown in the opponent's hand) only R7 and R10 are red."""
    from lcanalysis.game.cards import card_str, full_deck

    hand = ["R6", "R8", "R9", "Rw", "B2", "B3", "B4", "B5"]
    unseen = ["R7", "R10", "Y2", "Y3", "Y4", "Y5"]
    known = ["G2", "G3", "G4", "G5"]
    rest = [card_str(t) for t in full_deck(5)]
    for c in hand + unseen + known:
        rest.remove(c)
    discards: dict[str, list[str]] = {}
    for c in rest:  # everything else face up on the discard piles (any order is legal there)
        discards.setdefault(c[0], []).append(c)
    return {"to_move": 0, "hands": [hand, {"known": known, "count": 8}], "discards": discards, "deck": 2}


def test_interchange_view_gives_the_hand_derived_answer():
    from lcanalysis.game.notation import read_position

    view = read_position(_hand_checkable_view())
    ans = wager_answer(view, "R", 2)
    # C(6,2) = 15 pairs: no red card 6 -> 23 (3); R7 only 4 -> 30 (10); R10 only 4 -> 33 (13); both 1 -> 40 (20)
    expect0 = {"3": 6 / 15, "10": 4 / 15, "13": 4 / 15, "20": 1 / 15}
    assert ans["color"] == "R" and ans["draws"] == 2
    assert [o["wagers"] for o in ans["by_wagers"]] == [0, 1]
    for o, factor in zip(ans["by_wagers"], (1, 2)):
        want = {str(int(s) * factor): p for s, p in expect0.items()}
        assert o["distribution"].keys() == want.keys()
        for s, p in want.items():
            assert o["distribution"][s] == pytest.approx(p, abs=1e-15)
        assert o["mean"] == pytest.approx(factor * 130 / 15)
        assert o["p_positive"] == pytest.approx(1.0)
    with pytest.raises(DrawsOutOfRangeError, match="2 card"):
        wager_answer(view, "R", 3)


def test_command_line_prints_the_same_answer(tmp_path):
    import subprocess
    import sys

    path = tmp_path / "view.json"
    path.write_text(json.dumps(_hand_checkable_view()))
    proc = subprocess.run([sys.executable, "-m", "lcanalysis", "wager", str(path), "--color", "r", "--draws", "2",
                           "--json"], capture_output=True, text=True, timeout=120, check=False)
    assert proc.returncode == 0, proc.stderr
    from lcanalysis.answer_json import answer_text  # (as every answer is written: 15 significant digits)
    from lcanalysis.game.notation import read_position

    assert json.loads(proc.stdout) == json.loads(answer_text(wager_answer(read_position(_hand_checkable_view()),
                                                                          "R", 2)))


def test_the_text_says_why_a_colour_has_no_row_with_a_wager(capsys):
    """example:midround, player 0: green G5 G8 G9 in hand and no green wager (the rows stop at 0
    wagers: none in hand); blue B3 on the expedition (a number: no wager can be placed); the seed-3
    deal's yellow Yw Yw Y2 in hand gives rows for 0 to 2 wagers, and no such line."""
    from lcanalysis.cli import main

    def text(position, color):
        assert main(["wager", position, "--color", color, "--draws", "3"]) == 0
        return capsys.readouterr().out

    green, blue = text("example:midround", "G"), text("example:midround", "B")
    assert "no row with a wager: you hold no green wager" in green and "no wager can be placed" not in green
    assert "no wager can be placed: your blue expedition already holds a number" in blue and "no row" not in blue
    yellow = text("LC1;c5;h8;nr;m0;v0;p0=Yw.Yw.Y2.B4.B9.Gw.Gw.G2;p1=?8;d=44", "Y")
    assert "each wager placed now adds" in yellow and "no row" not in yellow and "no wager can" not in yellow


def test_a_wager_answer_refuses_a_switch_or_a_label_it_cannot_use():
    """Found by a review: exact="no" ran exactly (a word is true), and color="Z" labelled the answer."""
    import lcanalysis as lc
    from lcanalysis.wagers.canonical import UnknownColorError, WagerError, wager_distribution

    with pytest.raises(WagerError, match="exact must be True or False, got 'no'"):
        lc.wager("example:midround", "G", 3, exact="no")
    for label in ("Z", 5):
        with pytest.raises(UnknownColorError, match="color is the label of the answer, a colour letter"):
            wager_distribution(hand=[5], draws=3, color=label)


def test_numpys_true_and_false_ask_for_the_exact_and_the_float_answer():
    """exact=np.True_ (what a comparison of arrays gives) was refused, "exact must be True or False,
    got np.True_"; numpy's True and False now ask what Python's do: Fractions or floats."""
    import lcanalysis as lc

    for flag in (True, False):
        ours, numpys = (lc.wager("example:midround", "G", 3, exact=f) for f in (flag, np.bool_(flag)))
        assert ours.to_json() == numpys.to_json()
        assert isinstance(numpys.by_wagers[0].mean, Fraction) is flag


def test_a_colour_the_game_has_not_is_refused_saying_how_a_colour_is_given():
    """lc.wager(view, "P", 3) in a 5-colour game said only "this game has Y B W G R", where every
    other reader says purple is the 6-colour game's and how to ask for it; a colour given as neither
    a letter nor a number (None, a Card) was answered "expected 0..4", as if only numbers were taken."""
    import lcanalysis as lc
    from lcanalysis.game.cards import SIX_COLOUR_GAME
    from lcanalysis.wagers.canonical import UnknownColorError

    with pytest.raises(UnknownColorError) as refused:
        lc.wager("example:midround", "P", 3)
    assert "P (purple) is a colour of the 6-colour game only" in str(refused.value)
    assert SIX_COLOUR_GAME in str(refused.value)
    for colour in (None, lc.Card.parse("B3"), 5, -1):
        with pytest.raises(UnknownColorError, match=r"a colour is its letter \(Y B W G R\) or its number 0\.\.4"):
            lc.wager("example:midround", colour, 3)
    assert lc.wager("example:midround", 1, 3).to_json() == lc.wager("example:midround", "b", 3).to_json()


def test_the_library_refuses_a_wager_question_on_a_round_already_over():
    """Only the command line refused it: lc.wager answered an empty draw pile with a made-up score
    (the hand's cards of the colour played, though no turn is left to play them)."""
    import lcanalysis as lc
    from lcanalysis.wagers.canonical import WagerError
    from lcanalysis.wagers.models import analyze_view_models

    pos = Position.deal(seed=1)
    while pos.deck_count:
        pos.push(next(m for m in pos.legal_moves() if m.draws_from_deck))
    view = pos.view(0)
    assert any(c.color == 4 and not c.is_wager for c in view.hand)  # red numbers it would have played
    for ask in (lambda: lc.wager(view, "R", 0), lambda: wager_answer(view, "R", 0),
                lambda: analyze_view(view, "R", 0), lambda: analyze_view_models(view, "R", n=10)):
        with pytest.raises(WagerError, match=r"the round is over \(the draw pile is empty\): no turn is left"):
            ask()
    capped = Position.deal(seed=3, rules=lc.Rules(turn_cap=6))
    while not capped.is_over():
        capped.push(next(m for m in capped.legal_moves() if m.draws_from_deck))
    with pytest.raises(WagerError, match=r"the round is over \(the turn cap is reached\)"):
        lc.wager(capped.view(0), "B", 3)


def test_plain_inputs_that_are_not_numbers_are_refused_naming_them():
    """Found by a review: a hand given as one number or a max_draws in words crashed (TypeError), an
    unseen_total in words was called 'fewer than the unseen numbers', and max_draws=-3 answered None."""
    from lcanalysis.wagers.canonical import InconsistentCardsError, WagerError

    with pytest.raises(InconsistentCardsError, match=r"hand: a list of the colour's numbers like \[7, 8\]"):
        wager_distribution(hand=5)
    with pytest.raises(InconsistentCardsError, match=r"unseen_total must be a whole number of cards or 'round'.*'x'"):
        wager_distribution(hand=[5], unseen_total="x")
    state = ColorState.make(hand=[6, 8], hand_wagers=1)
    for bad in ("x", -3, 2.5):
        with pytest.raises(WagerError, match=f"max_draws must be a whole number of draws from 0 .*got {bad!r}"):
            break_even_draws(state, 0, max_draws=bad)
    # by hand: 6 + 8 = 14, the unseen numbers sum to 40, so the mean is 14 + 40k/52 - 20 (+ a bonus
    # chance that is 0 below 6 draws and tiny at 8): first >= 0 at k = 8
    assert break_even_draws(state, 0, max_draws=7) is None and break_even_draws(state, 0) == 8


def test_a_quantile_outside_zero_to_one_is_refused_naming_it():
    """Found by a review: quantile('x') crashed (TypeError) and quantile(2) answered the top score."""
    from lcanalysis.wagers.canonical import WagerError

    outcome = wager_distribution(hand=[6, 8, 9], hand_wagers=1, draws=2, unseen=[7, 10], unseen_total=6).outcome(0)
    assert [outcome.quantile(q) for q in (0, 0.4, 0.5, 1)] == [3, 3, 10, 20]  # P = 6/15, 4/15, 4/15, 1/15
    for bad in ("x", 2, -0.1, float("nan"), True):
        with pytest.raises(WagerError, match=f"q must be a probability from 0 to 1, got {bad!r}"):
            outcome.quantile(bad)


def test_the_break_even_line_says_which_held_numbers_it_leaves_out(capsys):
    """With R3 R7 placed and R6 R8 in hand, 'lcanalysis wager' said "the numbers you hold or have placed
    sum to 18", where they sum to 24: R6, below the 7, can never be played and was left out unsaid."""
    from lcanalysis.cli import main

    assert main(["wager", "LC1;c5;h8;nr;m0;v0;p0=R6.R8.Y3.Y4.B2.B3.B4.W2;p1=?8;e0=R3.R7;d=42", "--color", "R"]) == 0
    out = capsys.readouterr().out
    assert "the numbers you have placed or can still play (not your 6: below your 7) sum to 18" in out  # 3 + 7 + 8
    assert "2 more points of red numbers are needed to break even" in out
    assert main(["wager", "LC1;c5;h8;nr;m0;v0;p0=R6.R8.Y3.Y4.B2.B3.B4.W2;p1=?8;e0=R3;d=43", "--color", "R"]) == 0
    out = capsys.readouterr().out
    assert "the numbers you hold or have placed sum to 17" in out  # 3 + 6 + 8: every one can still be played
    assert main(["wager", "LC1;c5;h8;nr;m0;v0;p0=R9.Y3.Y4.B2.B3.B4.W2.W3;p1=?8;e0=R3.R7;d=42", "--color", "R"]) == 0
    out = capsys.readouterr().out  # 3 + 7 + 9 = 19: one point short, said in the singular ("1 more points")
    assert "sum to 19: 1 more point of red numbers is needed to break even" in out


def test_the_text_counts_one_card_left_in_the_singular(capsys):
    """A draw pile of one card read "(1 cards left"."""
    from helpers import played_down

    from lcanalysis.cli import main

    for deck, said in [(1, "(1 card left"), (2, "(2 cards left")]:
        pos = played_down(4, deck)
        colour = str(pos.hand(pos.to_move)[0])[0]
        assert main(["wager", pos.view(pos.to_move).to_string(), "--color", colour]) == 0
        out = capsys.readouterr().out
        assert said in out, out


def test_a_wager_answer_says_how_many_unseen_cards_its_draws_come_from():
    """"colour R, 9 draw(s), canonical model, exact" read the same for 9 draws of the deal's 52 unseen
    cards and for 9 draws left late in a round (28 unseen): two answers, +10.38 and +5.06 points with no
    wager for 4 6 9 held. The first line, the repr and the notebook table now name the pool."""
    late = wager_distribution(hand=[4, 6, 9], hand_wagers=1, draws=9, unseen_total=28, color="R")
    deal = wager_distribution(hand=[4, 6, 9], hand_wagers=1, draws=9, color="R")
    assert str(late).splitlines()[0] == "colour R, 9 draw(s) of 28 unseen cards, canonical model, exact"
    assert str(deal).splitlines()[0] == "colour R, 9 draw(s) of 52 unseen cards, canonical model, exact"
    assert "9 draw(s) of 28 unseen cards, canonical model" in repr(late)
    assert "9 draws of 28 unseen cards (exact)" in late._repr_html_()
    # by hand, 35 points of live numbers among 52 cards: 19 + 35·9/52 − 20 = +5.06, no bonus in reach (x ≥ 5 of 6)
    assert float(deal.outcome(0).mean) == pytest.approx(19 + 35 * 9 / 52 - 20, abs=0.05)


def test_the_draws_left_in_a_round_come_from_that_rounds_unseen_cards():
    """``unseen_total="round"`` asks for draws *left* in a round, as break_even_draws and turn_model do:
    20 cards in the pile, you to move, is 10 turns, 9 useful draws, of 20 + 8 = 28 unseen cards. By
    hand, 4 6 9 held (19), the other six numbers (35) live, no wager: 19 + 35·9/28 − 20 = 10.25, plus
    20 × P(5 or 6 of the 6 among 9 of 28) = 20 × (6·C(22,4) + C(22,3)) / C(28,9)."""
    r = wager_distribution(hand=[4, 6, 9], hand_wagers=1, draws=9, unseen_total="round", color="R")
    assert r.inputs["state"].unseen_total == 28
    bonus = Fraction(6 * math.comb(22, 4) + math.comb(22, 3), math.comb(28, 9))
    assert r.outcome(0).mean == Fraction(41, 4) + 20 * bonus
    assert r.to_json() == wager_distribution(hand=[4, 6, 9], hand_wagers=1, draws=9, unseen_total=28,
                                             color="R").to_json()
    with pytest.raises(InconsistentCardsError, match=r"unseen_total must be a whole number of cards or 'round'"):
        wager_distribution(hand=[4], draws=3, unseen_total="deal")
    with pytest.raises(DrawsOutOfRangeError, match=r"draws must be a whole number 0\.\.27 \(draws left in a round"):
        wager_distribution(hand=[4], draws=40, unseen_total="round")


def test_lc_wager_without_draws_takes_the_viewers_useful_draws_as_the_command_does():
    """"Should I wager here?" from a position took counting the draws by hand; ``lcanalysis wager``
    without ``--draws`` counted them. By hand: 37 cards in the pile, both players drawing from it, the
    viewer to move gets 19 turns, 18 useful draws; the same table seen by the other player, 18 turns, 17."""
    import lcanalysis as lc

    to_move = "LC1;c5;h8;nr;m0;v0;p0=Y3.Y5.Bw.B4.W8.G10.R7.R9;p1=?8;e0=Rw.R3.R5;e1=B2;x=W4.W6.G6;d=37"
    waiting = "LC1;c5;h8;nr;m0;v1;p0=?8;p1=Y3.Y5.Bw.B4.W8.G10.R7.R9;e1=Rw.R3.R5;e0=B2;x=W4.W6.G6;d=37"
    assert lc.wager(to_move, "B").draws == 18
    assert lc.wager(to_move, "B").to_json() == lc.wager(to_move, "B", 18).to_json()
    assert lc.wager(waiting, "B").to_json() == lc.wager(waiting, "B", 17).to_json()
