"""The opponent-hand model's study with other agents than the heuristic (``train --agents``) and its
``score`` of weights files on a self-play's held-out rounds."""

import json
import math
from collections import Counter

import numpy as np
import pytest

from lcanalysis import hand_model as H
from lcanalysis.agents import AgentError, make_agent
from lcanalysis.game.moves import Move
from lcanalysis.game.position import Position
from lcanalysis.game.rules import Rules
from lcanalysis.studies import hand_model as S
from lcanalysis.tournaments.runner import play_round


def test_with_other_agents_the_labels_are_the_opponents_true_hand():
    """Two rounds of greedy v random, every 3rd position: each round replayed here by
    ``play_round`` (greedy in seat k % 2, seat k % 2 to start, the study's deal); at every sampled
    position the cards labelled as held, with the ones the viewer knows of, are the opponent's hand."""
    seed, every = 7, 3
    examples = S.play_positions(2, seed=seed, every=every, agents=("greedy", "random"))
    expected = []
    for k in range(2):
        seats = ["greedy", "random"] if k % 2 == 0 else ["random", "greedy"]
        turns: list[str] = []
        play_round([make_agent(n) for n in seats], S.deal_seed(seed, k), Rules(), k % 2, record=turns)
        pos = Position.deal(S.deal_seed(seed, k), Rules(), k % 2)
        for t, move in enumerate(turns):
            if t % every == (k // 2) % every:
                view = pos.view(pos.to_move)
                expected.append((k, view, Counter(c.type for c in pos.hand(view.opponent))))
            pos.push(Move.parse(move, 5))
    assert len(examples) == len(expected) > 10
    for e, (k, view, hand) in zip(examples, expected):
        types, _ = H.card_features(view)
        held = Counter(int(t) for t, y in zip(types, e["y"]) if y == 1) + Counter(c.type for c in view.opponent_known)
        assert (e["round"], e["cards_left"], e["n"]) == (k, view.deck_count, view.opponent_unknown)
        assert held == hand


def test_the_weights_file_names_the_agents_and_an_unknown_agent_is_refused(tmp_path, capsys):
    assert S.train(5, seed=2, agents=("greedy", "random"))["training"]["agents"] == ["greedy", "random"]
    assert S.train(5, seed=2)["training"]["agents"] == ["heuristic", "heuristic"]
    with pytest.raises(AgentError, match="unknown agent 'bogus'"):
        S.play_positions(1, agents=("greedy", "bogus"))
    for argv in (["train", "--agents", "bogus", "best", "--rounds", "5", "--out", str(tmp_path / "w.json")],
                 ["score", H.__file__, "--agents", "best", "bogus", "--rounds", "5"]):
        with pytest.raises(SystemExit) as exc:
            S.main(argv)
        err = capsys.readouterr().err
        assert exc.value.code == 2 and "--agents: unknown agent 'bogus'" in err and "Traceback" not in err
    assert not (tmp_path / "w.json").exists()


def _example(k, x, y):
    return {"round": k, "cards_left": 0, "x": np.array(x, float), "y": np.array(y, float), "n": int(sum(y))}


def test_score_matches_a_computation_by_hand():
    """Weights exp(log 2) = 2 on the cards with feature 0, 1 on the others. Round 0: three cards of
    weights 2, 1, 1; a hand of one, the first: 2/4; a hand of two, the last two: 1/(2+2+1). Round 1:
    two cards of weights 1, 1, a hand of one: 1/2. The uniform deal: 1/3, 1/3, 1/2."""
    f = H.N_FEATURES
    heavy, plain = [1.0] + [0.0] * (f - 1), [0.0] * f
    theta = np.zeros(f)
    theta[0] = math.log(2)
    examples = [_example(0, [heavy, plain, plain], [1, 0, 0]), _example(0, [heavy, plain, plain], [0, 1, 1]),
                _example(1, [plain, plain], [0, 1])]
    model = [math.log(1 / 2), math.log(1 / 5), math.log(1 / 2)]
    uniform = [math.log(1 / 3), math.log(1 / 3), math.log(1 / 2)]
    gain = [m - u for m, u in zip(model, uniform)]
    mean = sum(gain) / 3
    # over rounds: round totals and counts, the ratio estimator's residuals, 2 rounds
    resid = [gain[0] + gain[1] - 2 * mean, gain[2] - 1 * mean]
    se = math.sqrt((resid[0] ** 2 + resid[1] ** 2) / (2 * 1)) / 1.5
    r = S.score(theta, examples)
    assert (r["rounds"], r["positions"]) == (2, 3)
    assert r["model"] == pytest.approx(sum(model) / 3, abs=1e-12)
    assert r["uniform"] == pytest.approx(sum(uniform) / 3, abs=1e-12)
    assert r["gain"] == pytest.approx(mean, abs=1e-12) and r["gain_se"] == pytest.approx(se, abs=1e-12)
    # against zero weights (the uniform deal), paired, the difference is the gain, with the same error
    assert S.score_difference(theta, np.zeros(f), examples) == pytest.approx((mean, se), abs=1e-12)
    with pytest.raises(ValueError, match="no positions"):
        S.score(theta, [])


def test_score_plays_only_the_held_out_rounds_and_agrees_with_the_training_report(tmp_path, capsys):
    """The held-out positions of 10 rounds are those of rounds 4 and 9 of the training run; the
    command scores a file written by ``train`` on them as its report did (the same mean gain)."""
    held = S.held_out_positions(10, seed=1)
    every = [e for e in S.play_positions(10, seed=1) if e["round"] % S.HOLDOUT == S.HOLDOUT - 1]
    assert [e["round"] for e in held] == [e["round"] for e in every] and {e["round"] for e in held} == {4, 9}
    assert all(np.array_equal(a["x"], b["x"]) and np.array_equal(a["y"], b["y"]) for a, b in zip(held, every))
    out = tmp_path / "w.json"
    assert S.main(["train", "--rounds", "10", "--seed", "1", "--out", str(out)]) == 0
    trained = json.loads(out.read_text())
    capsys.readouterr()
    scores = tmp_path / "scores.json"
    assert S.main(["score", str(out), str(out), "--rounds", "10", "--seed", "1", "--out", str(scores)]) == 0
    said = capsys.readouterr().out
    r = S.score(H.weights_from_json(trained), held)
    assert r["gain"] == pytest.approx(trained["held_out"]["gain"], abs=1e-9)
    assert f"gain {r['gain']:+.3f} ± {r['gain_se']:.3f}" in said and f"{r['positions']} positions" in said
    written = json.loads(scores.read_text())
    assert written["scores"] == [{"weights": str(out), **r},
                                 {"weights": str(out), **r, "minus_first": 0.0, "minus_first_se": 0.0}]
    assert written["held_out"]["agents"] == ["heuristic", "heuristic"]


def test_score_refuses_a_missing_or_foreign_weights_file_by_name(tmp_path, capsys):
    (tmp_path / "other.json").write_text(json.dumps({"features": ["x"], "weights": {"x": 1.0}}))
    for name, said in (("MISSING.json", "MISSING.json: No such file or directory"),
                       ("other.json", "other.json: the weights file's features ['x'] are not this model's")):
        with pytest.raises(SystemExit) as exc:
            S.main(["score", str(tmp_path / name), "--rounds", "5"])
        err = capsys.readouterr().err
        assert exc.value.code == 2 and said in err and "Traceback" not in err
