"""The opponent-hand model: its training reproduces the shipped weights, its dealer deals exactly
the distribution the model says (and the uniform deal with zero weights), and the advisor that
uses it still reads only the mover's view."""

import itertools
import json
import math
import re
from collections import Counter
from importlib import resources

import numpy as np
import pytest
from helpers import other_world
from scipy.stats import chisquare

from lcanalysis import hand_model as H
from lcanalysis.advisor import advise
from lcanalysis.core import policy as P
from lcanalysis.game.moves import Move
from lcanalysis.game.position import Position
from lcanalysis.rollouts import Rollouts, policy_ranking, view_state
from lcanalysis.studies import hand_model as S


def _play(seed, deck):
    """A heuristic self-play position with ``deck`` cards left in the draw pile."""
    pos = Position.deal(seed)
    while pos.deck_count > deck:
        pos.push(Move.from_code(int(P.policy_move(pos.state.copy(), P.HEURISTIC_PARAMS)), pos.colors))
    return pos


def _deal_many(view, w, n_deals, seed=0):
    """``n_deals`` worlds of the compiled weighted dealer: the opponent's hands (sorted type
    tuples) and the piles (type lists, top first)."""
    base, pool, u, opp = view_state(view)
    table = P.esp_table(w, u)
    out = np.empty_like(base)
    hands, piles = [], []
    for i in range(n_deals):
        np.random.seed(seed * 1_000_003 + i)
        P.determinize_weighted(base, pool, u, opp, out, w, table)
        world = Position(view.rules, out.copy())
        hands.append(tuple(sorted(c.type for c in world.hand(opp))))
        piles.append([c.type for c in world.deck])
    return hands, piles, pool, u


def _brute_force(w, pool, n):
    """Plain Python: every n-subset of the pool entries, with probability proportional to the
    product of its weights; returned as the probability of each hand (sorted type tuple)."""
    probs: Counter = Counter()
    for subset in itertools.combinations(range(len(pool)), n):
        probs[tuple(sorted(int(pool[i]) for i in subset))] += math.prod(float(w[i]) for i in subset)
    total = sum(probs.values())
    return {hand: p / total for hand, p in probs.items()}


@pytest.fixture(scope="module")
def endgame_view():
    pos = _play(4, 3)  # 3 cards in the pile: 11 unseen cards, 8 of them in the opponent's hand
    return pos, pos.view(pos.to_move)


def test_training_is_deterministic_and_reproduces_the_shipped_weights():
    """The shipped file's command, run again (about 15 CPU-seconds), gives its weights to within
    1e-3 (they are rounded to 4 decimals; the fit is deterministic from the seed)."""
    shipped = json.loads(resources.files("lcanalysis").joinpath("data", H.WEIGHTS_FILE).read_text())
    t = shipped["training"]
    assert (t["rounds"], t["seed"], t["every"], t["colors"]) == (S.ROUNDS, S.SEED, S.EVERY, 5)
    again = S.train(t["rounds"], t["seed"], t["every"], t["colors"], t["ridge"])
    for f in H.FEATURES:
        assert again["weights"][f] == pytest.approx(shipped["weights"][f], abs=1e-3), f
    assert again["held_out"]["gain"] == pytest.approx(shipped["held_out"]["gain"], abs=1e-3)
    assert shipped["held_out"]["gain"] > 5 * shipped["held_out"]["gain_se"]  # better than uniform, clearly


def test_a_small_training_run_gives_the_same_file_twice():
    a, b = S.train(12, seed=3), S.train(12, seed=3)
    a.pop("cpu_seconds"), b.pop("cpu_seconds")
    assert a == b
    assert S.train(12, seed=4)["weights"] != a["weights"]


def test_the_shipped_weights_read_back_and_a_file_of_other_features_is_refused():
    theta = H.shipped_weights()
    assert theta.shape == (H.N_FEATURES,) and np.all(np.isfinite(theta))
    with pytest.raises(ValueError, match="features"):
        H.weights_from_json({"features": ["x"], "weights": {"x": 1.0}})


def test_the_likelihood_gradient_matches_finite_differences():
    ex = S.play_positions(4, seed=1)
    batch = S._batch(ex)
    theta = np.random.default_rng(0).normal(size=H.N_FEATURES) * 0.5
    _, g = S.log_likelihoods(theta, batch, grad=True)
    for j in range(H.N_FEATURES):
        e = np.zeros(H.N_FEATURES)
        e[j] = 1e-6
        num = (S.log_likelihoods(theta + e, batch).sum() - S.log_likelihoods(theta - e, batch).sum()) / 2e-6
        assert g[j] == pytest.approx(num, rel=1e-5, abs=1e-5)


def test_inclusion_probabilities_and_likelihood_match_brute_force():
    rng = np.random.default_rng(5)
    w = np.exp(rng.normal(size=8))
    for n in (0, 1, 3, 8):
        subsets = list(itertools.combinations(range(8), n))
        weights = [math.prod(w[i] for i in s) for s in subsets]
        total = sum(weights)
        pi = [sum(x for s, x in zip(subsets, weights) if i in s) / total for i in range(8)]
        assert H.inclusion_probabilities(w, n) == pytest.approx(pi, abs=1e-12)
        assert H.log_esp(w, n) == pytest.approx(math.log(total), abs=1e-12)
    assert H.uniform_log_likelihood(8, 3) == pytest.approx(-math.log(56))


def test_the_exact_distribution_refuses_a_hand_size_or_weights_it_cannot_use():
    """n above the cards was a silent nan (inclusion) or a math domain error (log_esp), n = -1 an
    IndexError; a negative weight was used as given."""
    w = np.ones(5)
    for n in (-1, 6, 2.0):
        for fn in (H.inclusion_probabilities, H.log_esp):
            with pytest.raises(ValueError, match=r"n must be a whole number of cards 0\.\.5"):
                fn(w, n)
    for bad in (np.array([1.0, -1.0, 1.0]), np.array([1.0, np.nan]), np.ones((2, 2))):
        with pytest.raises(ValueError, match="w must be one row of finite weights"):
            H.inclusion_probabilities(bad, 1)
    with pytest.raises(ValueError, match="no 2-card hand"):
        H.log_esp(np.array([0.0, 0.0, 1.0]), 2)
    # a weight of 0 is a card never dealt: 2 of the other 2
    assert H.inclusion_probabilities(np.array([0.0, 1.0, 3.0]), np.int64(2)) == pytest.approx([0.0, 1.0, 1.0])
    with pytest.raises(ValueError, match="0 <= n <= k"):
        H.uniform_log_likelihood(2, 3)


def test_the_model_names_a_position_given_for_a_view_and_weights_of_the_wrong_shape():
    pos = Position.deal(7)
    with pytest.raises(ValueError, match=r"takes a View .* got Position: give position.view"):
        H.hand_weights(pos)  # was AttributeError: 'Position' object has no attribute 'buried_count'
    with pytest.raises(ValueError, match=f"theta must be {H.N_FEATURES} finite weights"):
        H.hand_weights(pos.view(0), theta=np.ones(2))  # was a matmul error
    for obj in (None, {}, {"features": list(H.FEATURES), "weights": {}}):
        with pytest.raises(ValueError, match="weights file"):
            H.weights_from_json(obj)


def test_the_dealer_deals_exactly_the_unseen_cards_in_the_right_counts(endgame_view):
    _pos, view = endgame_view
    mid = _play(9, 20)
    for v in (view, mid.view(mid.to_move)):
        w = np.exp(np.random.default_rng(1).normal(size=len(v.unseen())) * 2)
        hands, piles, pool, u = _deal_many(v, w, 200)
        for hand, pile in zip(hands, piles):
            assert len(hand) == v.opponent_unknown + len(v.opponent_known) and len(pile) == v.deck_count
            unknown = Counter(hand) - Counter(c.type for c in v.opponent_known)
            assert sum(unknown.values()) == u
            assert Counter(unknown) + Counter(pile) == Counter(pool.tolist())


def test_with_zero_weights_the_dealer_is_the_uniform_deal(endgame_view):
    """Chi-square of 30,000 hands against the exact uniform law (every split equally likely), and
    the top of the pile as often as each unseen card would be."""
    _, view = endgame_view
    _base, pool, u, _opp = view_state(view)
    w = np.ones(len(pool))
    hands, piles, pool, u = _deal_many(view, w, 30_000)
    exact = _brute_force(w, pool, u)
    known = tuple(c.type for c in view.opponent_known)
    got = Counter(tuple(sorted((Counter(h) - Counter(known)).elements())) for h in hands)
    keys = sorted(exact)
    assert set(got) <= set(exact)
    assert chisquare([got[k] for k in keys], [exact[k] * len(hands) for k in keys]).pvalue > 1e-4
    tops = Counter(p[0] for p in piles)
    kinds = Counter(pool.tolist())
    expected = [kinds[t] / len(pool) * len(piles) for t in sorted(kinds)]
    assert chisquare([tops[t] for t in sorted(kinds)], expected).pvalue > 1e-4


def test_a_heavy_card_is_dealt_to_the_opponent_as_often_as_the_model_says(endgame_view):
    """One card with a large weight, the rest random: each card type's frequency in the opponent's
    hand over 30,000 deals against a brute-force enumeration in plain Python (within 4.5 standard
    errors), and the hands' law by chi-square."""
    _, view = endgame_view
    _base, pool, u, _opp = view_state(view)
    rng = np.random.default_rng(7)
    w = np.exp(rng.normal(size=len(pool)) * 0.7)
    heavy = int(np.argmin(w))  # the least likely card becomes the most likely
    w[heavy] = 30.0
    hands, _, pool, u = _deal_many(view, w, 30_000, seed=1)
    exact = _brute_force(w, pool, u)
    known = Counter(c.type for c in view.opponent_known)
    unknown_hands = [tuple(sorted((Counter(h) - known).elements())) for h in hands]
    t_heavy = int(pool[heavy])
    for t in sorted(set(pool.tolist())):
        p_exact = sum(p * hand.count(t) for hand, p in exact.items())  # expected copies in hand
        x = np.array([h.count(t) for h in unknown_hands], float)
        assert abs(x.mean() - p_exact) < 4.5 * x.std() / math.sqrt(len(x)) + 1e-9, t
    assert np.mean([h.count(t_heavy) for h in unknown_hands]) > u / len(pool) + 0.2  # well above uniform
    got = Counter(unknown_hands)
    keys = [k for k in sorted(exact) if exact[k] * len(hands) >= 5]
    rest = len(hands) - sum(got[k] for k in keys)
    obs = [got[k] for k in keys] + [rest]
    exp = [exact[k] * len(hands) for k in keys] + [len(hands) - sum(exact[k] * len(hands) for k in keys)]
    assert chisquare(obs, exp).pvalue > 1e-4
    # and the model's own exact inclusion probabilities are the brute-force ones
    pi = H.inclusion_probabilities(w, u)
    for i in range(len(pool)):
        same = [j for j in range(len(pool)) if pool[j] == pool[i]]
        assert sum(pi[j] for j in same) == pytest.approx(
            sum(p * hand.count(int(pool[i])) for hand, p in exact.items()), abs=1e-9)


def test_the_model_and_the_advisor_with_it_read_only_the_movers_view():
    pos = _play(7, 24)
    view = pos.view(pos.to_move)
    other = other_world(pos, pos.to_move, 3)
    assert other.hand(1 - pos.to_move) != pos.hand(1 - pos.to_move)
    assert other.view(pos.to_move) == view
    a = H.card_features(view)
    b = H.card_features(other.view(pos.to_move))
    assert np.array_equal(a[0], b[0]) and np.array_equal(a[1], b[1])
    x = advise(view, time_budget=0.05, seed=2, hand_model=True)
    y = advise(other.view(other.to_move), time_budget=0.05, seed=2, hand_model=True)
    assert [(m.move, m.value) for m in x.moves] == [(m.move, m.value) for m in y.moves]
    assert "learned opponent-hand model" in x.notes[0]


def test_the_option_changes_the_worlds_and_the_rollouts_default_is_the_uniform_deal():
    pos = _play(11, 24)
    view = pos.view(pos.to_move)
    codes, _ = policy_ranking(view)
    plain, biased, model = (Rollouts(view, codes[:3], 5), Rollouts(view, codes[:3], 5, bias=1.0),
                            Rollouts(view, codes[:3], 5, hand_model=True))
    for r in (plain, biased, model):
        r.sample(50)
    assert plain.theta is None and all(np.array_equal(x, y) for x, y in zip(plain.samples, biased.samples))
    assert not all(np.array_equal(x, y) for x, y in zip(plain.samples, model.samples))
    zero = Rollouts(view, codes[:3], 5, hand_model=np.zeros(H.N_FEATURES))
    zero.sample(20)  # the uniform law through the weighted dealer: runs, and differs only by its random stream
    # the advisor deals from the model by default; the rollouts (the playing agents') do not
    assert advise(view, time_budget=0.05, seed=1).moves == advise(view, time_budget=0.05, seed=1,
                                                                  hand_model=True).moves
    assert advise(view, time_budget=0.05, seed=1).moves != advise(view, time_budget=0.05, seed=1,
                                                                  hand_model=False).moves
    with pytest.raises(ValueError, match="bias"):
        Rollouts(view, codes[:3], 5, bias=2.0, hand_model=True)


@pytest.mark.parametrize("args, said", [
    (["train", "--rounds", "2"], "--rounds must be >= 5, got 2"),
    (["train", "--rounds", "5", "--every", "0"], "--every must be >= 1, got 0"),
    (["train", "--rounds", "5", "--colors", "7"], "--colors: invalid choice: 7"),
    (["train", "--rounds", "5", "--ridge", "-1"], "--ridge must be 0 or more, got -1"),
    (["train", "--rounds", "5", "--out", "NOFOLDER/w.json"], "the folder .*NOFOLDER does not exist"),
    (["picks", "MISSING.csv", "MISSING.csv"], "MISSING.csv: No such file or directory"),
    (["picks", "NOTASTUDY.csv", "NOTASTUDY.csv"], "NOTASTUDY.csv is not a calibration study file"),
    (["picks", "NOTASTUDY.csv", "NOTASTUDY.csv", "--worlds", "0"], "--worlds must be >= 2, got 0"),
])
def test_the_commands_refuse_bad_arguments_by_name(tmp_path, capsys, args, said):
    """Each was a traceback: max() of an empty sequence (no held-out round, or a missing --out
    folder found after the work), modulo by zero, RulesError, FileNotFoundError, ValueError."""
    (tmp_path / "NOTASTUDY.csv").write_text("a,b\n1,2\n")
    argv = [str(tmp_path / a) if a.split("/")[0] in ("NOFOLDER", "MISSING.csv", "NOTASTUDY.csv") else a
            for a in args]
    if "--out" not in argv:
        argv += ["--out", str(tmp_path / "out.json")]
    with pytest.raises(SystemExit) as exc:
        S.main(argv)
    err = capsys.readouterr().err
    assert exc.value.code == 2 and re.search(said, err) and "Traceback" not in err
    assert not (tmp_path / "out.json").exists()


def _frequencies(w, n, draws, seed):
    """How often each card is among the ``n`` of ``sample_hand`` over ``draws`` deals, and every hand drawn."""
    rng = np.random.default_rng(seed)
    counts = np.zeros(len(w))
    hands: Counter = Counter()
    for _ in range(draws):
        hand = H.sample_hand(w, n, rng)
        assert len(hand) == n and len(set(hand.tolist())) == n
        counts[hand] += 1
        hands[tuple(hand.tolist())] += 1
    return counts / draws, hands


def test_the_python_dealer_draws_a_hand_as_the_model_says_worked_by_hand():
    """Three cards of weights 1, 2, 3: a hand of one is card i with probability w_i / 6; a hand of two
    is the pair {i, j} with probability w_i w_j / 11 (2, 3, 6 for {0,1}, {0,2}, {1,2}). 20,000 seeded
    deals each, every frequency within 4 standard errors."""
    w = np.array([1.0, 2.0, 3.0])
    draws = 20_000
    one, _ = _frequencies(w, 1, draws, seed=1)
    for got, p in zip(one, [1 / 6, 2 / 6, 3 / 6], strict=True):
        assert abs(got - p) < 4 * math.sqrt(p * (1 - p) / draws)
    _, pairs = _frequencies(w, 2, draws, seed=2)
    for pair, p in {(0, 1): 2 / 11, (0, 2): 3 / 11, (1, 2): 6 / 11}.items():
        assert abs(pairs[pair] / draws - p) < 4 * math.sqrt(p * (1 - p) / draws)
    assert H.sample_hand(w, 3, np.random.default_rng(0)).tolist() == [0, 1, 2]
    assert H.sample_hand(w, 0, np.random.default_rng(0)).tolist() == []
    zero = np.array([0.0, 1.0, 0.0, 5.0])
    assert {tuple(H.sample_hand(zero, 2, np.random.default_rng(s)).tolist()) for s in range(30)} == {(1, 3)}


def test_the_python_dealer_holds_each_card_as_often_as_its_inclusion_probability():
    """On 14 cards of random weights (spread as the model's: a factor of about 20), hands of 6: each
    card's frequency over 20,000 seeded deals within 4 standard errors of ``inclusion_probabilities``."""
    w = np.exp(np.random.default_rng(3).normal(scale=1.5, size=14))
    draws = 20_000
    got, _ = _frequencies(w, 6, draws, seed=4)
    pi = H.inclusion_probabilities(w, 6)
    assert np.all(np.abs(got - pi) < 4 * np.sqrt(pi * (1 - pi) / draws))


def test_with_equal_weights_the_python_dealer_is_the_uniform_deal():
    """Equal weights: each of the 10 hands of 2 of 5 cards one time in ten (chi-square of 20,000 deals)."""
    _, hands = _frequencies(np.full(5, 0.3), 2, 20_000, seed=5)
    every = list(itertools.combinations(range(5), 2))
    assert set(hands) == set(every)
    assert chisquare([hands[h] for h in every]).pvalue > 1e-4
