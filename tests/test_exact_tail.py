"""Play-outs that end in the exact endgame search (the search agent's ``tail`` option,
``lcanalysis.search.tail``): the heuristic plays until ``tail`` cards are left, then the
perfect-information search values the rest. Checked against the solver's own entry point
(``solve_perfect``, every root turn searched with a full window) and the heuristic agent played
turn by turn in Python."""

from __future__ import annotations

import numpy as np
import pytest

from lcanalysis import Position, Rules
from lcanalysis.agents import AgentError, make_agent
from lcanalysis.core import kernel as K
from lcanalysis.core import policy as P
from lcanalysis.rollouts import Rollouts, policy_ranking
from lcanalysis.search.perfect import ZOBRIST, solve_perfect
from lcanalysis.search.tail import TailTables, rollout_tail

HEURISTIC = make_agent("heuristic")


def _played_down(seed: int, deck: int) -> Position:
    """A dealt round played by the heuristic in both seats until ``deck`` cards are left."""
    pos = Position.deal(seed=seed, rules=Rules(colors=5))
    while pos.deck_count > deck and not pos.is_over():
        pos.push(HEURISTIC.choose(pos.view(pos.to_move), seed))
    return pos


def _tail(pos: Position, player: int, tail: int, stalls: int) -> float:
    """``rollout_tail`` of ``pos`` for ``player``, both seats played by the heuristic."""
    t = TailTables().tables
    nc = pos.rules.colors
    scratch = [np.zeros(n, np.int32) for n in (K.RANKS * nc, K.RANKS * nc, nc, nc)]  # dc, sh, sw, sm
    keys = np.zeros((2, len(pos.state)), np.float64)
    return rollout_tail(pos.state.copy(), P.HEURISTIC_PARAMS, P.HEURISTIC_PARAMS, player, tail, stalls, ZOBRIST,
                        t.tt, t.so, t.buf, t.stats, *scratch, False, keys)


@pytest.mark.parametrize("stalls", [0, 1])
@pytest.mark.parametrize("seed", range(4))
def test_a_tail_that_begins_at_once_is_the_solvers_value_of_the_position(seed, stalls):
    pos = _played_down(seed, 2)
    best = max(m.value for m in solve_perfect(pos, max_stalls=stalls).moves)
    for player in (0, 1):
        want = best if player == pos.to_move else -best
        assert _tail(pos, player, 2, stalls) == pytest.approx(want, abs=1e-9)


@pytest.mark.parametrize("seed", range(4))
def test_before_the_tail_the_heuristic_plays_the_world_as_its_agent_does(seed):
    pos = _played_down(seed, 7)
    me = pos.to_move
    got = _tail(pos, me, 3, 0)
    while pos.deck_count > 3:  # the heuristic agent, turn by turn, on the same deck order
        pos.push(HEURISTIC.choose(pos.view(pos.to_move), 0))
    best = max(m.value for m in solve_perfect(pos, max_stalls=0).moves)
    assert got == pytest.approx(best if pos.to_move == me else -best, abs=1e-9)


def test_tail_play_outs_are_reproducible_and_differ_from_plain_ones():
    """The same worlds (seed, world index) with or without a tail: the outcomes are the same function
    of the seed, and the tail changes them (the last draws averaged, the last turns exact)."""
    pos = _played_down(5, 6)
    view = pos.view(pos.to_move)
    codes = policy_ranking(view)[0][:3]
    runs = []
    for tail in (0, 3, 3):
        r = Rollouts(view, codes, seed=11, hand_model=True, streams=True, tail=tail)
        r.sample(24)
        runs.append(np.array(r.samples))
    assert np.array_equal(runs[1], runs[2])
    assert not np.array_equal(runs[0], runs[1])
    # every outcome of a tail play-out is a whole difference of scores or an average over the last draws:
    # within the points a round can give
    assert np.all(np.abs(runs[1]) < 400)


@pytest.mark.parametrize(("options", "words"), [
    ({"tail": 5}, "tail"),
    ({"tail": -1}, "tail"),
    ({"tail": 2, "tail_stalls": 2}, "tail_stalls"),
    ({"tail": 3, "tail_stalls": 1}, "tail=2 or less"),
    ({"tail_stalls": 1}, "there is none without tail"),  # taken and ignored before: a run not what it said
])
def test_a_tail_beyond_its_limits_is_refused_naming_the_option(options, words):
    with pytest.raises(AgentError, match=words):
        make_agent("search", **options)


def test_an_agent_with_a_tail_plays_a_legal_turn_from_its_view():
    pos = _played_down(2, 9)
    view = pos.view(pos.to_move)
    move = make_agent("best", tail=2, tail_stalls=1, time_ms=5).choose(view, 0)
    assert move in view.legal_moves()
