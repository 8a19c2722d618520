"""The hand evaluator: compiled per-colour values against brute force and the exact wager model."""

from __future__ import annotations

import itertools
import random

import numpy as np
import pytest

from lcanalysis.evaluator import (
    colour_mean,
    evaluate_difference,
    evaluate_position,
    evaluate_state,
    evaluate_view,
)
from lcanalysis.game.position import Position
from lcanalysis.wagers.canonical import ColorState, analyze, expedition_score_values


def _late_position(seed: int, deck_left: int) -> Position:
    pos = Position.deal(seed=seed)
    rng = random.Random(seed)
    while pos.deck_count > deck_left:
        pos.push(rng.choice([m for m in pos.legal_moves() if str(m).endswith("/D")]))
    return pos


def _brute_colour_value(view, c, k):
    """max(0 if unopened, best over wagers) of the mean over every k-subset of the unseen cards."""
    unseen = view.unseen()
    me = view.viewer
    exp = view.expeditions[me][c]
    placed = [x.number for x in exp if not x.is_wager]
    pw = sum(1 for x in exp if x.is_wager)
    hand = [x.number for x in view.hand if x.color == c and not x.is_wager]
    hw = sum(1 for x in view.hand if x.color == c and x.is_wager)
    top = max(placed, default=0)
    subsets = list(itertools.combinations(range(len(unseen)), k))
    best = None
    for j in range(hw + 1 if not placed else 1):
        total = 0
        for sub in subsets:
            nums = set(placed) | {v for v in hand if v > top}
            nums |= {unseen[i].number for i in sub
                     if unseen[i].color == c and not unseen[i].is_wager and unseen[i].number > top}
            total += expedition_score_values(pw + j, sorted(nums))
        mean = total / len(subsets)
        best = mean if best is None else max(best, mean)
    if not exp:
        best = max(best, 0.0)
    return best


@pytest.mark.parametrize("seed", [11, 12, 13])
def test_compiled_state_evaluator_equals_brute_force_on_late_views(seed):
    pos = _late_position(seed, deck_left=4)
    p = pos.to_move
    view = pos.view(p)  # only draw-pile draws: the opponent has no known cards, as the kernel assumes
    out = np.empty(5)
    for k in range(view.deck_count + 1):
        total = evaluate_state(pos.state, p, k, out)
        expect = [_brute_colour_value(view, c, k) for c in range(5)]
        assert out == pytest.approx(expect, abs=1e-9)
        assert total == pytest.approx(sum(expect), abs=1e-9)
        ev = evaluate_view(view, draws=k)
        assert [c.value for c in ev.colours] == pytest.approx(expect, abs=1e-9)


@pytest.mark.parametrize("seed", range(6))
def test_view_and_state_evaluators_agree_with_the_exact_model_at_the_deal(seed):
    pos = Position.deal(seed=seed)
    view = pos.view(0)
    ev = evaluate_view(view)
    assert ev.draws == 21  # 44 cards, to move: 22 turns, the last draw useless
    assert evaluate_position(pos, 0) == pytest.approx(ev.total, abs=1e-9)
    for c, cv in enumerate(ev.colours):
        hand = [x for x in view.hand if x.color == c]
        state = ColorState.make(hand=[x.number for x in hand if not x.is_wager],
                                hand_wagers=sum(1 for x in hand if x.is_wager), unseen_total=52)
        means = [float(o.mean) for o in analyze(state, 21).by_wagers]
        assert cv.open_value == pytest.approx(max(means), abs=1e-9)
        assert cv.value == pytest.approx(max(0.0, *means), abs=1e-9)
        assert cv.best_wagers == (None if max(means) < 0 else int(np.argmax(means)))


def test_declined_colour_is_worth_nothing_and_ranked_last():
    pos = Position.from_parts(
        hands=[["R2", "R3", "B8", "B9", "B10", "Bw", "G5", "Y4"], ["G2", "G3", "G4", "W2", "W3", "W4", "Y2", "Y3"]],
        deck=["R4", "R5", "R6", "R7", "R8", "R9", "R10", "Rw", "Rw", "Rw", "B2", "B3", "B4", "B5", "B6", "B7",
              "Bw", "Bw", "G6", "G7", "G8", "G9", "G10", "Gw", "Gw", "Gw", "W5", "W6", "W7", "W8", "W9", "W10",
              "Ww", "Ww", "Ww", "Y5", "Y6", "Y7", "Y8", "Y9", "Y10", "Yw", "Yw", "Yw"],
    )
    ev = evaluate_view(pos.view(0), draws=0)
    red = ev.colours[4]
    assert red.color == "R" and not red.opened
    assert red.open_value == pytest.approx(2 + 3 - 20)  # -15, by hand
    assert red.value == 0.0 and red.best_wagers is None
    blue = ev.colours[1]
    assert blue.open_value == pytest.approx((27 - 20) * 2)  # 8 9 10 and the wager: 14
    assert blue.best_wagers == 1
    assert ev.ranking[0].color == "B"
    # by hand: B 14, W 0 (nothing held, no draws), G5 -15, R2 R3 -15, Y4 -16
    assert [c.color for c in ev.ranking][:2] == ["B", "W"]
    assert ev.ranking[-1].color == "Y"
    assert ev.total == pytest.approx(14.0)  # G5 alone -15 and Y4 alone -16 are declined too


def test_colour_mean_on_masks_matches_the_rules_with_no_draws():
    # placed 4 (rank 3 -> bit 2), hand 6 and 3 (3 is dead), 1 wager placed: (4 + 6 - 20) * 2 = -20
    placed = 1 << 2
    hand = (1 << 4) | (1 << 1)
    assert colour_mean(1, placed, 0, hand, 0, 10, 0) == pytest.approx(-20.0)


def test_the_evaluator_a_search_leaf_calls_is_compiled_machine_code():
    """A search leaf calls the evaluator once, so it must run compiled (its cost a call, compiled against
    plain, is measured by ``benchmarks/bench_core.py``, not here: a timed test of 200 us a call, which
    this replaced, was passed even by the plain code). Both entry points are numba functions with a compiled
    signature once called, and agree with each other."""
    pos = _late_position(3, deck_left=20)
    out = np.empty(5)
    diff = evaluate_difference(pos.state, 0, -1)
    evaluate_state(pos.state, 0, -1, out)
    for fn in (evaluate_state, evaluate_difference):
        assert fn.signatures, f"{fn.__name__} has no compiled signature: it is not running as machine code"
    mine, theirs = evaluate_state(pos.state, 0, -1, out), evaluate_state(pos.state, 1, -1, out)
    assert diff == pytest.approx(mine - theirs)


NOJIT_SCRIPT = r"""
import json, numpy as np
from lcanalysis.game.position import Position
from lcanalysis.evaluator import evaluate_state
from lcanalysis.wagers.models import turn_model, opponent_model, OpponentInfo
from lcanalysis.wagers.canonical import ColorState
out = []
for seed in range(4):
    pos = Position.deal(seed=seed)
    o = np.empty(5)
    out.append([evaluate_state(pos.state, p, k, o) for p in (0, 1) for k in (-1, 0, 5, 21)])
st = ColorState.make(hand=[5, 7], hand_wagers=1, unseen_total=30)
out.append([o.mean for o in turn_model(st, 8, n=300, seed=1).by_wagers])
opp = OpponentInfo(hidden=8, draws=7, opened=True, top=6)
out.append([o.mean for o in opponent_model(st, 7, opp, n=300, seed=1).by_wagers])
print(json.dumps(out))
"""


def test_compiled_code_gives_the_same_answers_with_the_jit_off():
    import json
    import os
    import subprocess
    import sys

    outs = []
    for disable in ("1", "0"):
        env = dict(os.environ, NUMBA_DISABLE_JIT=disable)
        proc = subprocess.run([sys.executable, "-c", NOJIT_SCRIPT], env=env, capture_output=True, text=True,
                              check=False, timeout=300)
        assert proc.returncode == 0, proc.stderr
        outs.append(json.loads(proc.stdout))
    for a, b in zip(*outs):
        assert a == pytest.approx(b, abs=1e-9)


def test_the_hand_evaluation_is_json_like_every_other_answer():
    """lc.evaluate's answer had no to_json (the solver's, the advisor's and the wager model's have
    one), so a script could not save it as the others; it now gives plain values, the total the
    sum of the colours, and an opened colour's value the canonical model's mean (lc.wager)."""
    import json

    import lcanalysis as lc

    view = lc.read_position("example:midround")
    hand = lc.evaluate(view)
    data = json.loads(json.dumps(hand.to_json()))
    assert data["draws"] == hand.draws == 10 and data["exact"] is True and data["stderr"] == 0
    assert [c["color"] for c in data["colours"]] == ["Y", "B", "W", "G", "R"]
    assert data["total"] == pytest.approx(sum(c["value"] for c in data["colours"]))
    opened = [c for c in data["colours"] if c["opened"]]
    assert {c["color"] for c in opened} == {"B", "R"}  # e0=B3.R2.R4.R5
    for c in opened:
        assert c["value"] == pytest.approx(float(lc.wager(view, c["color"], 10).by_wagers[0].mean))
    assert "hand evaluator" in lc.evaluate.__doc__ and "to_json" in type(hand).__doc__
