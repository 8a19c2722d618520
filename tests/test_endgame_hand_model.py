"""The endgame search with the splits of the unseen cards weighted by the opponent-hand model
(``solve_view``/``converged_endgame``'s ``hand_model``, ``advise(..., endgame_splits="model")``).

The reference is independent of the search's own split lists: every physical split the view lists
(``View.splits``, equally likely), each weighted by the product of the model's weights of the cards
it gives the opponent (``hand_model.hand_weights``, card by card), each completed to a full position
and solved alone (``solve_perfect``)."""

from __future__ import annotations

import json
from math import comb

import numpy as np
import pytest
from helpers import played_down

from lcanalysis.advisor import AdviceError, advise
from lcanalysis.game.cards import Card
from lcanalysis.hand_model import FEATURES, best_play_weights, hand_weights, shipped_weights
from lcanalysis.search import endgame as E
from lcanalysis.search import solve_perfect, solve_view
from lcanalysis.search.common import SearchError
from lcanalysis.search.view_value import (
    VIEW_VALUE_MODEL_KIND,
    _SplitInputs,
    model_probabilities,
    model_sampled_picks,
    model_type_weights,
    solve_buried_view,
)

#: strong weights (far from the shipped ones), so that a weighting left out shows in the values
STRONG = np.array([2.0, -1.5, 1.0, -2.0, 1.5, 0.8, -1.0])


def _view(seed: int, deck: int):
    pos = played_down(seed, deck)
    return pos.view(pos.to_move)


def card_weights(view, theta) -> dict[int, float]:
    """Each unseen card type's weight, read card by card from ``hand_weights`` (the copies of a type must
    agree: the search weighs a type once)."""
    out: dict[int, float] = {}
    for card, w in zip(view.unseen(), hand_weights(view, theta)):
        assert out.setdefault(card.type, w) == pytest.approx(w, rel=1e-12)
    return out


def weighted_reference(view, theta, stalls: int) -> dict[str, float]:
    """Every turn's value over every physical split, each split's uniform probability times the product of
    its opponent cards' weights, normalized; each split solved alone."""
    w = card_weights(view, theta)
    acc: dict[str, float] = {}
    total = 0.0
    for prob, opp, rest in view.splits():
        p = prob * float(np.prod([w[t] for t in opp]))
        total += p
        for m in solve_perfect(view.complete(opp, rest), max_stalls=stalls).moves:
            acc[m.move] = acc.get(m.move, 0.0) + p * m.value
    return {k: v / total for k, v in acc.items()}


@pytest.mark.parametrize("seed,deck,theta", [(1, 2, "shipped"), (0, 3, "strong"), (5, 3, "strong")])
def test_the_weighted_view_value_is_the_model_weighted_average_over_every_physical_split(seed, deck, theta):
    """Seeds 0 and 5 at 3 cards have cards dead for both players, whose splits the search merges: the
    merged worlds must carry the model's weight of the physical splits they stand for."""
    view = _view(seed, deck)
    th = shipped_weights() if theta == "shipped" else STRONG
    got = solve_view(view, max_stalls=0, hand_model=th)
    want = weighted_reference(view, th, 0)
    assert got.exact and got.kind == VIEW_VALUE_MODEL_KIND and "opponent-hand model" in got.method
    assert {m.move for m in got.moves} == want.keys()
    for m in got.moves:
        assert m.value == pytest.approx(want[m.move], abs=1e-9)
    uniform = {m.move: m.value for m in solve_view(view, max_stalls=0).moves}
    assert max(abs(uniform[k] - want[k]) for k in want) > 0.1  # the weighting moved the values


def test_weights_all_alike_give_the_view_value():
    view = _view(0, 3)
    flat = solve_view(view, max_stalls=1, hand_model=np.zeros(len(FEATURES)))
    plain = {m.move: m.value for m in solve_view(view, max_stalls=1).moves}
    for m in flat.moves:
        assert m.value == pytest.approx(plain[m.move], abs=1e-9)


def test_model_probabilities_of_merged_worlds_sum_the_physical_hands():
    """Each world's probability, against a count over every physical hand of the opponent (each physical
    card by index, weight from ``hand_weights``), summed by the world it falls in once dead cards are lumped
    on their colour's lowest type."""
    from itertools import combinations

    view = _view(0, 3)
    inputs = _SplitInputs(view)
    u = view.opponent_unknown
    picks, ways = inputs.all_worlds(u)
    got = model_probabilities(picks, ways, model_type_weights(view, STRONG))
    cards = view.unseen()
    w = hand_weights(view, STRONG)
    lump = {}
    for group in inputs.dead:
        for t in group:
            lump[t] = group[0]
    want: dict[tuple, float] = {}
    for hand in combinations(range(len(cards)), u):
        counts = [0] * len(inputs.unseen)
        for i in hand:
            counts[lump.get(cards[i].type, cards[i].type)] += 1
        want[tuple(counts)] = want.get(tuple(counts), 0.0) + float(np.prod(w[list(hand)]))
    z = sum(want.values())
    assert len(want) == len(picks) < comb(len(cards), u)
    for pick, p in zip(picks.tolist(), got):
        lumped = [0] * len(pick)
        for t, k in enumerate(pick):
            lumped[lump.get(t, t)] += k
        assert p == pytest.approx(want[tuple(lumped)] / z, rel=1e-9)


def test_splits_sampled_by_the_model_follow_its_probabilities():
    """20,000 sampled splits against the exact probabilities of every split (no merging: each pick is a
    split of its own): every frequency within 5 standard errors, and far from the uniform ones."""
    view = _view(1, 2)
    inputs = _SplitInputs(view)
    u = view.opponent_unknown
    from lcanalysis.search.view_value import _all_splits

    picks, ways = _all_splits(inputs.unseen, u, 10_000)
    tw = model_type_weights(view, STRONG)
    probs = model_probabilities(picks, ways, tw)
    n = 20_000
    drawn = model_sampled_picks(inputs.unseen.tolist(), u, tw, n, seed=3)
    index = {tuple(p): i for i, p in enumerate(picks.tolist())}
    freq = np.bincount([index[tuple(p)] for p in drawn.tolist()], minlength=len(picks)) / n
    se = np.sqrt(probs * (1 - probs) / n)
    assert np.all(np.abs(freq - probs) <= 5 * se + 1e-12)
    uniform = ways / ways.sum()
    assert np.max(np.abs(probs - uniform)) > 10 * se.max()  # the model's law is not the uniform one
    again = model_sampled_picks(inputs.unseen.tolist(), u, tw, 50, seed=3)
    assert np.array_equal(again, drawn[:50])  # seeded: the first draws repeat


def test_a_sampled_weighted_view_value_holds_the_exact_weighted_one():
    view = _view(0, 3)
    exact = {m.move: m.value for m in solve_view(view, max_stalls=0, hand_model=STRONG).moves}
    est = solve_view(view, max_stalls=0, hand_model=STRONG, samples=400, seed=2)
    assert not est.exact and "sampled by the opponent-hand model" in est.method
    for m in est.moves:
        assert abs(m.value - exact[m.move]) <= 4 * m.stderr + 1e-9


@pytest.mark.parametrize("seed,deck", [(1, 2), (0, 3)])
def test_the_endgame_search_with_the_model_gives_the_weighted_view_value_at_its_level(seed, deck):
    view = _view(seed, deck)
    answer = E.converged_endgame(view, max_nodes=200_000_000, hand_model=STRONG)
    assert answer.exact and answer.kind == VIEW_VALUE_MODEL_KIND
    assert "each weighted by how likely the opponent-hand model makes the opponent's hand in it" in answer.notes[0]
    plain = {m.move: m.value for m in solve_view(view, max_stalls=answer.bounds["max_stalls"], hand_model=STRONG).moves}
    assert answer.best.value == pytest.approx(max(plain.values()), abs=1e-9)
    for m in answer.moves:
        if m.extra.get("bound") == "upper":
            assert m.value >= plain[m.move] - 1e-9
        else:
            assert m.value == pytest.approx(plain[m.move], abs=1e-9)


def test_with_buried_cards_the_weighted_search_is_the_weighted_average_over_every_fill():
    """Two paths: the endgame search's worlds (every fill with every split) and ``solve_buried_view`` (each
    fill solved as a plain view, its splits weighted by the model read on that fill)."""
    from test_endgame import _buried_view

    view = _buried_view(3, 2)
    answer = E.converged_endgame(view, max_nodes=100_000_000, hand_model=STRONG)
    assert answer.exact
    plain = {m.move: m.value for m in
             solve_buried_view(view, answer.bounds["max_stalls"], None, "as-is", hand_model=STRONG).moves}
    uniform = {m.move: m.value for m in solve_buried_view(view, answer.bounds["max_stalls"], None, "as-is").moves}
    assert max(abs(plain[k] - uniform[k]) for k in plain) > 0.1
    assert answer.best.value == pytest.approx(max(plain.values()), abs=1e-9)
    for m in answer.moves:
        if m.extra.get("bound") != "upper":
            assert m.value == pytest.approx(plain[m.move], abs=1e-9)


@pytest.mark.parametrize("bad", ["yes", [1.0, 2.0], [np.nan] * len(FEATURES), {"weights": 1}])
def test_the_search_refuses_a_hand_model_that_is_not_weights(bad):
    view = _view(1, 2)
    with pytest.raises(SearchError, match="hand_model must be"):
        solve_view(view, max_stalls=0, hand_model=bad)
    with pytest.raises(SearchError, match="hand_model must be"):
        E.converged_endgame(view, max_nodes=1_000_000, hand_model=bad)


def test_the_hint_weighs_the_endgame_by_the_model_fitted_on_best_by_default_and_says_so():
    view = _view(1, 2)
    uniform = advise(view, seed=0, endgame_splits="uniform")
    model = advise(view, seed=0)
    assert uniform.kind == "view value (averaged over splits)" and model.kind == VIEW_VALUE_MODEL_KIND
    assert [(m.move, m.value) for m in advise(view, seed=0, endgame_splits="model").moves] == \
        [(m.move, m.value) for m in model.moves]
    want = weighted_reference(view, best_play_weights(), model.bounds["max_stalls"])
    best = model.moves[0]
    assert best.value == pytest.approx(max(want.values()), abs=1e-9) and best.exact
    assert any("opponent-hand model" in n and "not a forecast" in n for n in model.notes)
    assert not any("opponent-hand model makes" in n for n in uniform.notes)
    assert not any("not the ones given" in n for n in model.notes)
    # weights given to the hint weigh the endgame too
    strong = advise(view, seed=0, hand_model=STRONG)
    want = weighted_reference(view, STRONG, strong.bounds["max_stalls"])
    assert strong.moves[0].value == pytest.approx(max(want.values()), abs=1e-9)
    assert any("with the default weights, not the ones given" in n for n in strong.notes)


@pytest.mark.parametrize("kwargs,message", [
    ({"endgame_splits": "weighted"}, "endgame_splits: .* must be one of uniform, model"),
    ({"endgame_splits": 1}, "endgame_splits"),
    ({"hand_model": [0.1, 0.2]}, "hand_model: weights of the opponent-hand model must be 7 finite numbers"),
    ({"hand_model": [np.inf] * 7}, "hand_model: weights"),
    ({"hand_model": "on"}, "hand_model"),
])
def test_the_hint_refuses_endgame_splits_and_weights_it_cannot_use(kwargs, message):
    with pytest.raises(AdviceError, match=message):
        advise(_view(1, 2), **kwargs)


def test_a_full_position_has_nothing_to_weigh():
    pos = played_down(1, 3)
    plain, model = advise(pos, seed=0, endgame_splits="uniform"), advise(pos, seed=0)
    assert [(m.move, m.value) for m in plain.moves] == [(m.move, m.value) for m in model.moves]


def test_the_command_line_takes_endgame_splits_and_a_weights_file(tmp_path, capsys):
    from lcanalysis.cli import main

    view = _view(1, 2)
    weights = tmp_path / "w.json"
    weights.write_text(json.dumps({"features": list(FEATURES), "weights": dict(zip(FEATURES, STRONG.tolist()))}))
    assert main(["advise", view.to_string(), "--endgame-splits", "model", "--hand-model-weights", str(weights),
                 "--json", "--time", "5"]) == 0
    answer = json.loads(capsys.readouterr().out)
    want = weighted_reference(view, STRONG, 1)
    top = answer["moves"][0]
    assert answer["kind"] == VIEW_VALUE_MODEL_KIND
    assert top["value"] == pytest.approx(want[top["move"]], abs=1e-6)
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps({"features": ["x"], "weights": {}}))
    assert main(["advise", view.to_string(), "--hand-model-weights", str(bad)]) == 2
    err = capsys.readouterr().err
    assert "--hand-model-weights: " in err and "bad.json: the weights file's features ['x'] are not this model's" in err
    assert main(["advise", view.to_string(), "--hand-model-weights", str(tmp_path / "missing.json")]) == 2
    assert "missing.json: No such file or directory" in capsys.readouterr().err
    (tmp_path / "text.json").write_text("weights: 1")
    assert main(["advise", view.to_string(), "--hand-model-weights", str(tmp_path / "text.json")]) == 2
    assert "text.json: not a JSON weights file" in capsys.readouterr().err


def test_card_weights_are_read_per_card_type():
    """The copies of a type (a colour's three wagers) share their features, so one weight a type is every
    physical card's: checked on every unseen card of a few views, with the shipped and strong weights."""
    for seed in range(6):
        view = _view(seed, 3)
        for th in (shipped_weights(), STRONG):
            tw = model_type_weights(view, th)
            w = hand_weights(view, th)
            for card, wi in zip(view.unseen(), w):
                assert isinstance(card, Card) and tw[card.type] == pytest.approx(wi, rel=1e-12)
