"""The play-out policy's tuning study (``lcanalysis.studies.policy_tune``): its compiled duplicate
self-play is the rules' own round player, and its coordinate search finds what it is built to find."""

from __future__ import annotations

import numpy as np
import pytest

from lcanalysis.agents.policy_agents import HeuristicAgent
from lcanalysis.core import policy as P
from lcanalysis.game.position import Position
from lcanalysis.game.rules import Rules
from lcanalysis.studies import policy_tune as T
from lcanalysis.tournaments.runner import play_round


def _agent(params: np.ndarray) -> HeuristicAgent:
    return HeuristicAgent(**{n: float(v) for n, v in zip(T.NAMES, params)})


def test_compiled_duplicate_self_play_equals_the_round_player_with_views():
    """Each deal's value is the mean of a's score difference over both seatings, as the tournament's
    round player (agents that see only their views, every turn checked) scores the same deal."""
    seeds = [3, 17, 101]
    deals = np.stack([Position.deal(s, Rules()).state for s in seeds])
    got = P.duplicate_differences(deals, P.STALLING_PARAMS, P.HEURISTIC_PARAMS)
    for k, seed in enumerate(seeds):
        a, b = _agent(P.STALLING_PARAMS), _agent(P.HEURISTIC_PARAMS)
        first = play_round([a, b], seed)
        second = play_round([b, a], seed)
        want = ((first["score0"] - first["score1"]) + (second["score1"] - second["score0"])) / 2
        assert got[k] == want, seed
    assert P.duplicate_differences(deals, P.HEURISTIC_PARAMS, P.HEURISTIC_PARAMS).tolist() == [0.0] * 3


def test_the_search_repairs_a_weight_set_too_low():
    """From the stalling weights with the card counting nearly off (QF 0.1, not 0.6), the search
    raises QF, and the result beats its start on deals it was not tuned on, by more than 3 s.e."""
    start = P.STALLING_PARAMS.copy()
    start[P.P_QF] = 0.1
    out = T.tune(deals=1500, passes=1, seed=5, start=start, progress=False)
    assert out["params"]["QF"] > 0.1
    assert out["kept"] and out["kept"][0]["weight"] in T.STEPS
    held = out["held_out"]["tuned vs start"]
    assert held["mean"] > 3 * held["se"] > 0
    # the held-out figure is the compiled duel on the held-out deals, recomputed here
    deals = T.deal_states(1500, 5, held_out=True)
    again = P.duplicate_differences(deals, T.params_array(out), start)
    assert held["mean"] == pytest.approx(again.mean(), abs=1e-4)


def test_the_same_seed_gives_the_same_result_and_another_seed_other_deals():
    a = T.tune(deals=200, passes=1, seed=1, progress=False)
    b = T.tune(deals=200, passes=1, seed=1, progress=False)
    a.pop("seconds"), b.pop("seconds")
    assert a == b
    assert not np.array_equal(T.deal_states(3, 1), T.deal_states(3, 2))
    assert not np.array_equal(T.deal_states(3, 1), T.deal_states(3, 1, held_out=True))


def test_the_command_refuses_bad_counts(capsys):
    with pytest.raises(SystemExit):
        T.main(["--deals", "0"])
    assert "--deals" in capsys.readouterr().err


def _shipped() -> dict:
    import json
    from pathlib import Path

    return json.loads((Path(__file__).parents[1] / "data" / "simulated" / "policy_tune.json").read_text())


def test_the_tuned_policy_is_the_study_files_result_at_the_shipped_settings():
    shipped = _shipped()
    s = shipped["settings"]
    assert (s["deals"], s["passes"], s["seed"], s["colors"]) == (T.DEALS, T.PASSES, T.SEED, 5)
    assert shipped["command"] == "python -m lcanalysis.studies.policy_tune --out data/simulated/policy_tune.json"
    assert T.params_array(shipped).tolist() == P.TUNED_PARAMS.tolist()
    assert T.params_array({"params": shipped["start"]}).tolist() == P.STALLING_PARAMS.tolist()
    # every kept move is one step of one tuned weight, and they lead from the start to the result
    walk = dict(shipped["start"])
    for move in shipped["kept"]:
        assert move["weight"] in T.STEPS and move["gain"] > T.Z * move["gain_se"] > 0
        walk[move["weight"]] = move["value"]
    assert walk == pytest.approx(shipped["params"], abs=1e-9)  # (the weights are kept to 4 decimals)


@pytest.mark.slow
def test_each_kept_move_of_the_shipped_file_is_recomputed_on_its_deals():
    """Each kept move's panel gain, replayed on the training deals from the weights before it, and the
    held-out figures (about a minute; the whole search is the file's command, about 10 CPU-minutes)."""
    shipped = _shipped()
    train = T.deal_states(T.DEALS, T.SEED)
    current = T.params_array({"params": shipped["start"]})
    for move in shipped["kept"]:
        cand = current.copy()
        cand[T.NAMES.index(move["weight"])] = move["value"]
        g = T.gains(train, cand, current, P.duplicate_differences(train, current, P.HEURISTIC_PARAMS))
        m, se = T.mean_se(g.mean(axis=0))
        assert (m, se) == (pytest.approx(move["gain"], abs=1e-4), pytest.approx(move["gain_se"], abs=1e-4))
        current = cand
    held = T.deal_states(T.DEALS, T.SEED, held_out=True)
    m, se = T.mean_se(P.duplicate_differences(held, current, P.HEURISTIC_PARAMS))
    assert m == pytest.approx(shipped["held_out"]["tuned vs heuristic"]["mean"], abs=1e-4)
    assert m > shipped["held_out"]["start vs heuristic"]["mean"] + 5 * se


def test_the_docs_quote_the_study_files_held_out_figures():
    import re
    from pathlib import Path

    h = _shipped()["held_out"]
    docs = re.sub(r"\s+", " ", (Path(__file__).parents[1] / "docs" / "agents.md").read_text())
    assert (f"**{h['tuned vs start']['mean']:+.2f} ± {h['tuned vs start']['se']:.2f} points a round against the "
            f"stalling one and {h['tuned vs heuristic']['mean']:+.2f} ± {h['tuned vs heuristic']['se']:.2f} against "
            f"the heuristic** (the stalling one: {h['start vs heuristic']['mean']:+.2f} ± "
            f"{h['start vs heuristic']['se']:.2f})") in docs
