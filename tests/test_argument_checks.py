"""Every entry point checks a switch (True or False) and a seed with the same two checkers
(``options.check_flag``, ``options.check_seed``): one rule each, one message naming the argument.
Found by a review: three rules for switches (Python's bool only; numpy's too; 1 and 0 too) and
seeds refused in as many words ("0..N", ">= 0", "at most 2**63 - 1 (...)", "0 or more")."""

from __future__ import annotations

import numpy as np
import pytest

import lcanalysis as lc
from lcanalysis.options import MAX_SEED, check_flag, check_seed


def test_a_switch_is_true_or_false_python_or_numpy_or_1_or_0_and_nothing_else():
    for given, read in ((True, True), (False, False), (np.True_, True), (np.False_, False), (1, True),
                        (0, False), (np.int64(1), True)):
        assert check_flag("x", given) is read
    for bad in ("no", "False", 2, -1, 0.0, 1.0, None, [], np.array([True, False])):
        with pytest.raises(ValueError, match=r"^x must be True or False, got "):
            check_flag("x", bad)
    assert check_flag("x", None, none="the default") is None
    with pytest.raises(KeyError, match=r"x must be True or False \(None: the default\), got 'yes'"):
        check_flag("x", "yes", KeyError, none="the default")


def test_a_seed_is_a_whole_number_in_its_range_and_the_message_says_the_range():
    assert check_seed("seed", 0) == 0 and check_seed("seed", MAX_SEED) == MAX_SEED == 2**63 - 1
    assert type(check_seed("seed", np.int64(7))) is int
    for bad in (-1, 2**63, 1.5, 3.0, True, "3", None, float("nan")):
        with pytest.raises(ValueError, match=r"^seed must be a whole number from 0 to 2\*\*63 - 1, got "):
            check_seed("seed", bad)
    assert check_seed("seed", 2**70, most=None) == 2**70
    with pytest.raises(ValueError, match=r"^seed must be a whole number 0 or above \(None: fresh randomness\), got -1"):
        check_seed("seed", -1, most=None, none="fresh randomness")
    assert check_seed("seed", None, none="fresh randomness") is None
    with pytest.raises(ValueError, match=r"^seed must be a whole number from 0 to 10, got 11$"):
        check_seed("seed", 11, most=10)
    with pytest.raises(ValueError, match=r"got <a number of about 3011 digits>$"):  # (its repr would fail)
        check_seed("seed", 10**3010)


def _view() -> lc.View:
    return lc.Position.deal(seed=5).view(0)


def _switches():
    from lcanalysis.search.common import SearchError
    from lcanalysis.search.deepen import solve_deepening
    from lcanalysis.studies.rollout import RolloutError, rollout
    from lcanalysis.tournaments.specs import TournamentError
    from lcanalysis.wagers.canonical import WagerError
    from lcanalysis.wagers.models import OpponentInfo

    return [
        ("exact", WagerError, lambda bad: lc.wager("example:midround", "G", 3, exact=bad)),
        ("OpponentInfo.opened", WagerError, lambda bad: OpponentInfo(hidden=2, opened=bad)),
        ("orders", lc.PositionError, lambda bad: next(_view().consistent_positions(orders=bad))),
        ("with_bracket", SearchError, lambda bad: solve_deepening("example:endgame", nodes=10, with_bracket=bad)),
        ("luck_adjusted", RolloutError, lambda bad: rollout("example:endgame", luck_adjusted=bad)),
        ("wall_clock", ValueError, lambda bad: lc.advise(_view(), time_budget=0.05, wall_clock=bad)),
        ("hand_model", ValueError, lambda bad: lc.advise(_view(), time_budget=0.05, hand_model=bad)),
        *[(name, TournamentError, lambda bad, name=name: lc.run_tournament(["random", "random"], 1, **{name: bad}))
          for name in ("duplicate", "round_robin", "wait", "allow_code_change", "luck_adjusted")],
    ]


@pytest.mark.parametrize("index", range(12))
def test_every_switch_is_refused_by_name_in_one_style(index):
    name, error, call = _switches()[index]
    with pytest.raises(error, match=rf"^{name} must be True or False(?: \(None: the default\))?, got 'no'$"):
        call("no")


def test_numpys_true_and_1_now_turn_on_the_switches_that_took_only_pythons_bool():
    """``orders=np.True_`` and ``luck_adjusted=np.True_`` were refused where ``exact`` and the
    advisor's switches took them (and 1 and 0, the advisor's alone): one rule now."""
    from itertools import islice

    pos = lc.read_position("example:endgame")
    view = pos.view(pos.to_move)

    def first(orders):  # the first positions listed and their chances (every order of 5 cards: 95,040)
        return [(p, full.state.tobytes()) for p, full in islice(view.consistent_positions(orders=orders), 30)]

    assert first(True) == first(np.True_) == first(1) != first(False) == first(0) == first(np.False_)


def _seeds():
    from lcanalysis.search.common import SearchError
    from lcanalysis.studies import first_player, opening, stalling
    from lcanalysis.studies.rollout import RolloutError, rollout
    from lcanalysis.tournaments.runner import rating_errors
    from lcanalysis.tournaments.specs import TournamentError
    from lcanalysis.wagers import models as M
    from lcanalysis.wagers.canonical import ColorState

    state = ColorState.make(hand=[5, 7], unseen=[4, 8, 10], unseen_total=6)
    upto = "from 0 to 2\\*\\*63 - 1"
    fresh = "0 or above \\(None: fresh randomness\\)"
    return [
        ("seed", fresh, lc.PositionError, lambda bad: lc.Position.deal(seed=bad)),
        ("seed", fresh, lc.PositionError, lambda bad: _view().sample_positions(2, seed=bad)),
        ("seed", upto, SearchError, lambda bad: lc.solve(_view(), max_stalls=0, samples=5, seed=bad)),
        ("seed", upto, ValueError, lambda bad: lc.advise(_view(), time_budget=0.05, seed=bad)),
        ("seed", upto, RolloutError, lambda bad: rollout("example:endgame", seed=bad)),
        ("seed", upto, TournamentError, lambda bad: lc.run_tournament(["random", "random"], 1, seed=bad)),
        ("seed", upto, ValueError, lambda bad: lc.review(_record(), time_budget=0.05, seed=bad)),
        ("rating_errors: seed", "0 or above", TournamentError, lambda bad: rating_errors(_rounds(), seed=bad)),
        ("seed", "from 0 to 18,446,744,073,709,551,616", M.WagerError, lambda bad: M.turn_model(state, 5, seed=bad)),
        ("first_player_rounds: seed", "0 or above", ValueError, lambda bad: first_player.first_player_rounds(seed=bad)),
        ("simulate_matches: seed", "0 or above", ValueError, lambda bad: first_player.simulate_matches(seed=bad)),
        ("simulated_colours: seed", "0 or above", ValueError, lambda bad: opening.simulated_colours(seed=bad)),
        ("stalling_study: seed", "0 or above", ValueError, lambda bad: stalling.stalling_study(seed=bad)),
    ]


def _rounds():
    import pandas as pd

    from lcanalysis.tournaments.results import RESULT_COLUMNS

    rows = [[0, deal, 0, 1, deal, 5, "A", "B", 0, 10 if deal % 3 else 0, 5, 44, False] for deal in range(6)]
    return pd.DataFrame(rows, columns=RESULT_COLUMNS)


def _record() -> str:
    from lcanalysis.game.records import record_round

    return record_round(lc.Position.deal(seed=3), ["-Yw/D", "-B10/Y", "-Yw/B"])


@pytest.mark.parametrize("index", range(13))
def test_every_seed_is_refused_by_name_in_one_style(index):
    name, range_words, error, call = _seeds()[index]
    for bad in (-1, "x", 2.5):
        with pytest.raises(error, match=rf"^{name} must be a whole number {range_words}, got {bad!r}$"):
            call(bad)
