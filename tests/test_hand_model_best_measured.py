"""docs/agents.md, "The hand model refitted on `best`'s play": the figures quoted there are what
data/simulated/hand_model_best.json and the two score files give; the heuristic scores are recomputed
here (the shipped file's held-out heuristic rounds play in seconds), the `best` ones checked against
the training file's own held-out report of the same rounds."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from lcanalysis import hand_model as H
from lcanalysis.studies import hand_model as S

ROOT = Path(__file__).resolve().parent.parent
SIMULATED = ROOT / "data" / "simulated"
SECTION = "**The hand model refitted on `best`'s play (a first measurement).**"


def _paragraph() -> str:
    text = (ROOT / "docs" / "agents.md").read_text()
    start = text.index(SECTION)
    return " ".join(text[start:text.index("\n\n", start)].split())


def _load(name: str) -> dict:
    return json.loads((SIMULATED / name).read_text())


def _pm(mean: float, se: float) -> str:
    return f"{mean:+.2f} ± {se:.2f}"


def test_the_quoted_scores_are_the_score_files():
    para = _paragraph()
    for name in ("hand_model_scores_best.json", "hand_model_scores_heuristic.json"):
        shipped, refitted = _load(name)["scores"]
        assert (shipped["weights"], refitted["weights"]) == ("lcanalysis/data/hand_model.json",
                                                            "data/simulated/hand_model_best.json")
        for figure in (_pm(shipped["gain"], shipped["gain_se"]), _pm(refitted["gain"], refitted["gain_se"]),
                       _pm(refitted["minus_first"], refitted["minus_first_se"])):
            assert figure in para, figure
    best = _load("hand_model_scores_best.json")
    assert best["held_out"]["agents"] == ["best", "best"]
    assert f"{best['scores'][0]['rounds']} held-out rounds" in para
    assert f"({best['scores'][0]['positions']} positions" in para
    assert _load("hand_model_scores_heuristic.json")["held_out"]["agents"] == ["heuristic", "heuristic"]
    for name in ("hand_model_scores_best.json", "hand_model_scores_heuristic.json", "hand_model_best.json"):
        command = _load(name)["command"]
        assert command == (SIMULATED / f"{name}.cmd").read_text().strip()
        # the heuristic score's command is quoted as its difference from the best one's
        shown = "--agents heuristic heuristic --rounds 300" if "heuristic" in name else command
        assert shown in command and shown in para, shown


def test_the_refitted_file_is_fitted_on_best_and_its_quoted_weights_are_its_own():
    para = _paragraph()
    refit, shipped = _load("hand_model_best.json"), json.loads(
        (ROOT / "lcanalysis" / "data" / H.WEIGHTS_FILE).read_text())
    t = refit["training"]
    assert (t["agents"], t["rounds"], t["every"], t["seed"]) == (["best", "best"], 150, 2, 0)
    assert f"Fitted on {t['rounds']} rounds of `best`'s" in para
    for feature, pattern in (("wager_unopened", "`wager_unopened` {} , fitted on the heuristic {}"),
                             ("opp_fits_gap", "`opp_fits_gap` {} against {}"),
                             ("opp_discarded", "`opp_discarded` {} against {}")):
        quoted = pattern.format(f"{refit['weights'][feature]:.2f}", f"{shipped['weights'][feature]:.2f}")
        assert quoted.replace(" ,", ",") in para, quoted


def test_the_best_scores_are_the_training_files_report_of_the_same_rounds():
    """Scoring the refitted weights on `best`'s held-out rounds gave what its training run reported on them."""
    refit = _load("hand_model_best.json")["held_out"]
    scored = _load("hand_model_scores_best.json")["scores"][1]
    assert scored["positions"] == refit["positions"]
    assert scored["model"] == pytest.approx(refit["model"], abs=1e-9)
    assert scored["uniform"] == pytest.approx(refit["uniform"], abs=1e-9)
    assert scored["gain"] == pytest.approx(refit["gain"], abs=1e-9)


def test_the_heuristic_scores_recompute():
    """The shipped file's held-out heuristic rounds, played again (seconds), scored by both files."""
    held = S.held_out_positions(300)
    filed = _load("hand_model_scores_heuristic.json")["scores"]
    thetas = [H.weights_from_json(json.loads((ROOT / s["weights"]).read_text())) for s in filed]
    for theta, s in zip(thetas, filed):
        r = S.score(theta, held)
        for key in ("rounds", "positions", "model", "uniform", "gain", "gain_se"):
            assert r[key] == pytest.approx(s[key], abs=1e-9), key
    d, se = S.score_difference(thetas[1], thetas[0], held)
    assert (d, se) == pytest.approx((filed[1]["minus_first"], filed[1]["minus_first_se"]), abs=1e-9)
    assert re.search(r"paired -0\.19 ± 0\.05", _paragraph())  # the refitted weights read heuristic hands worse


def test_the_hints_endgame_weights_are_the_file_fitted_on_best():
    """lcanalysis/data/hand_model_best.json, which the hint's endgame search weighs a view's splits by
    (``hand_model.best_play_weights``), is data/simulated/hand_model_best.json, the file its command writes."""
    package = json.loads((ROOT / "lcanalysis" / "data" / H.BEST_PLAY_WEIGHTS_FILE).read_text())
    assert package == _load("hand_model_best.json")
    assert list(H.best_play_weights()) == [package["weights"][f] for f in H.FEATURES]
    assert package["training"]["agents"] == ["best", "best"]
    assert list(H.best_play_weights()) != list(H.shipped_weights())


@pytest.mark.slow
def test_training_on_best_reproduces_the_hints_endgame_weights():
    """The file's command, run again (150 rounds of ``best``'s self-play, about 5 CPU-minutes), gives its
    weights to within 1e-3 (rounded to 4 decimals; deterministic from the seed)."""
    shipped = _load("hand_model_best.json")
    t = shipped["training"]
    again = S.train(t["rounds"], t["seed"], t["every"], t["colors"], t["ridge"], agents=tuple(t["agents"]))
    for f in H.FEATURES:
        assert again["weights"][f] == pytest.approx(shipped["weights"][f], abs=1e-3), f
