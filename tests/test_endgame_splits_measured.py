"""The figures docs/endgame.md ("The view value against real play") and docs/agents.md ("The endgame
weighted by the refitted model") quote for the hint's endgame with its splits weighted by the opponent-hand
model, worked out again from the calibration study files in data/simulated/: the gaps and the paired
differences by hand (a round's positions one sample, the ratio estimator's standard error), the point
estimates of the calibration lines with numpy, their intervals as the study's own bootstrap gives them."""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from lcanalysis.studies import calibration as C

ROOT = Path(__file__).resolve().parent.parent
SIMULATED = ROOT / "data" / "simulated"
END = "end (3-1, endgame search)"


def _flat(doc: str) -> str:
    return " ".join((ROOT / "docs" / doc).read_text().split())


def _rows(name: str) -> pd.DataFrame:
    return pd.read_csv(SIMULATED / name, skiprows=1)


def _clustered(values: np.ndarray, rounds: np.ndarray) -> tuple[float, float]:
    """The mean of ``values`` and its standard error, each round's sum and count one sample."""
    labels = sorted(set(rounds.tolist()))
    sums = np.array([values[rounds == r].sum() for r in labels])
    counts = np.array([float((rounds == r).sum()) for r in labels])
    n = len(labels)
    mean = sums.sum() / counts.sum()
    return float(mean), math.sqrt(((sums - mean * counts) ** 2).sum() / (n * (n - 1))) / counts.mean()


def _gap(name: str, cards: int) -> tuple[float, float]:
    r = _rows(name)
    r = r[(r["cards_left"] == cards) & (r["kind"] != "advisor estimate")]
    return _clustered((r["realized"] - r["played_value"]).to_numpy(float), r["round"].to_numpy())


def _paired(after: str, before: str, low: int, high: int) -> tuple[float, float]:
    """The value of the turn played in ``after`` less in ``before``, on the same positions."""
    a, b = _rows(after), _rows(before)
    assert (a[["round", "turn", "played"]].to_numpy() == b[["round", "turn", "played"]].to_numpy()).all()
    keep = ((a["cards_left"] >= low) & (a["cards_left"] <= high)).to_numpy()
    d = (a["played_value"] - b["played_value"]).to_numpy(float)[keep]
    return _clustered(d, a["round"].to_numpy()[keep])


def _line(name: str, phase: str | None) -> tuple[float, float]:
    """The calibration line's slope and intercept (realized on value), by numpy, over a phase or the round."""
    r = _rows(name)
    if phase is not None:
        r = r[r["phase"] == phase]
    slope, intercept = np.polyfit(r["played_value"].to_numpy(float), r["realized"].to_numpy(float), 1)
    return float(slope), float(intercept)


@pytest.fixture(scope="module")
def phases():
    """Each study's fit by phase and over the whole round, as the study reports it (bootstrap over rounds)."""
    names = ["calibration_best_staged.csv", "calibration_best_model_endgame.csv", "calibration_best_model.csv",
             "calibration_staged_hint.csv", "calibration_heuristic_model_endgame.csv"]
    return {n: C.calibration_by_phase(C.load_calibration(SIMULATED / n)) for n in names}


def _fit_text(table: pd.DataFrame, phase: str, what: str) -> str:
    row = table.loc[phase]
    if what == "slope":
        return f"{row['slope']:.3f} [{row['slope 95% low']:.3f}, {row['slope 95% high']:.3f}]"
    return f"{row['intercept']:+.2f} [{row['intercept 95% low']:+.2f}, {row['intercept 95% high']:+.2f}]"


def test_the_weighted_gaps_and_paired_shifts_in_docs_endgame_are_the_files():
    flat = _flat("endgame.md")
    weighted, alike = "calibration_best_model_endgame.csv", "calibration_best_staged.csv"
    gaps = [_gap(weighted, c) for c in (2, 3, 4)]
    assert [round(m, 2) for m, _ in gaps] == [-1.78, 1.62, -1.77]
    assert (f"ended {-gaps[0][0]:.2f} ± {gaps[0][1]:.2f} points below the values with 2 cards left, "
            f"{gaps[1][0]:+.2f} ± {gaps[1][1]:.2f} with 3 and {gaps[2][0]:+.2f} ± {gaps[2][1]:.2f} with 4") in flat
    plain = [_gap(alike, c)[0] for c in (2, 3, 4)]
    assert f"they ended {-plain[0]:.2f}, {-plain[1]:.2f} and {-plain[2]:.2f} below" in flat
    shifts = [_paired(weighted, alike, c, c) for c in (2, 3, 4)]
    assert all(m < -3 * se for m, se in shifts)  # the weighted values are lower, clearly
    assert (f"{-shifts[0][0]:.2f} ± {shifts[0][1]:.2f} points lower at 2 cards, {-shifts[1][0]:.2f} ± "
            f"{shifts[1][1]:.2f} at 3 and {-shifts[2][0]:.2f} ± {shifts[2][1]:.2f} at 4") in flat
    far = _paired(weighted, alike, 5, 44)
    assert far == (0.0, 0.0)  # the play-outs' rows untouched
    # heuristic play: the other way, by less
    h_w, h_a = "calibration_heuristic_model_endgame.csv", "calibration_staged_hint.csv"
    h2 = _paired(h_w, h_a, 2, 2)
    assert f"(the weighted value {-h2[0]:.2f} ± {h2[1]:.2f} lower on the same positions)" in flat
    (a2, s_a2), (w2, s_w2) = _gap(h_a, 2), _gap(h_w, 2)
    assert f"the gap at 2 cards goes from {a2:+.2f} ± {s_a2:.2f} to {w2:+.2f} ± {s_w2:.2f}" in flat
    assert (f"at 3 from {_gap(h_a, 3)[0]:+.2f} to {_gap(h_w, 3)[0]:+.2f} and at 4 from {_gap(h_a, 4)[0]:+.2f} to "
            f"{_gap(h_w, 4)[0]:+.2f}") in flat
    # stalling play
    s_w, s_a = "calibration_stalling_model_endgame.csv", "calibration_stalling_hint.csv"
    (a2, s_a2), (w2, s_w2) = _gap(s_a, 2), _gap(s_w, 2)
    assert (f"the gap at 2 cards goes from {a2:+.2f} ± {s_a2:.2f} to {w2:+.2f} ± {s_w2:.2f} and at 4 from "
            f"{_gap(s_a, 4)[0]:+.2f} to {_gap(s_w, 4)[0]:+.2f}") in flat
    # with the shipped weights (the same positions)
    shipped = [_gap("calibration_best_model_shipped.csv", c) for c in (2, 3, 4)]
    assert (f"with 2 cards left they ended {-shipped[0][0]:.2f} ± {shipped[0][1]:.2f} points below the values, "
            f"with 3 cards {-shipped[1][0]:.2f} ± {shipped[1][1]:.2f} and with 4 cards {-shipped[2][0]:.2f} ± "
            f"{shipped[2][1]:.2f}") in flat
    assert all(s[0] < w[0] for s, w in zip(shipped, gaps))  # the weights fitted on best close more


def test_the_end_phase_line_in_both_docs_is_the_weighted_study(phases):
    table = phases["calibration_best_model_endgame.csv"]
    slope, intercept = _line("calibration_best_model_endgame.csv", END)
    assert round(table.loc[END, "slope"], 3) == round(slope, 3) and round(table.loc[END, "intercept"], 2) == \
        round(intercept, 2)
    said = f"has slope {_fit_text(table, END, 'slope')} and intercept {_fit_text(table, END, 'intercept')}"
    assert said in _flat("endgame.md")
    agents = _flat("agents.md")
    before = phases["calibration_best_staged.csv"]
    assert (f"from 3 cards to 1 the calibration line has slope {_fit_text(table, END, 'slope')} and intercept "
            f"{_fit_text(table, END, 'intercept')}, where with every split alike it had "
            f"{_fit_text(before, END, 'slope')} and {_fit_text(before, END, 'intercept')}") in agents
    assert (f"the intercept is {_fit_text(table, END, 'intercept')} ({before.loc[END, 'intercept']:.2f} before)"
            in agents)


def test_the_whole_round_and_the_play_outs_weights_in_docs_agents_are_the_files(phases):
    agents = _flat("agents.md")
    now, before = phases["calibration_best_model_endgame.csv"], phases["calibration_best_staged.csv"]
    whole = "whole round"
    slope, intercept = _line("calibration_best_model_endgame.csv", None)
    assert (round(now.loc[whole, "slope"], 3), round(now.loc[whole, "intercept"], 2)) == (round(slope, 3),
                                                                                        round(intercept, 2))
    assert (f"over the whole round slope {_fit_text(now, whole, 'slope')} and intercept "
            f"{_fit_text(now, whole, 'intercept')}, against {before.loc[whole, 'intercept']:.2f}") in agents
    bias = [(-now.loc[p, "bias"], now.loc[p, "bias s.e."]) for p in ("early (30+ cards left)", "middle (29-15)",
                                                                      "late (14-4)")]
    assert (f"{bias[0][0]:.1f} ± {bias[0][1]:.1f} points early, {bias[1][0]:.1f} ± {bias[1][1]:.1f} from 29 to 15 "
            f"cards and {bias[2][0]:.1f} ± {bias[2][1]:.1f} from 14 to 4") in agents
    h_now, h_before = phases["calibration_heuristic_model_endgame.csv"], phases["calibration_staged_hint.csv"]
    assert (f"the end's intercept moves from {_fit_text(h_before, END, 'intercept')} to "
            f"{_fit_text(h_now, END, 'intercept')} and the whole round's from {h_before.loc[whole, 'intercept']:+.2f} "
            f"to {h_now.loc[whole, 'intercept']:+.2f}, the slope {_fit_text(h_now, whole, 'slope')} "
            f"({h_before.loc[whole, 'slope']:.3f} before)") in agents
    # the play-outs dealt from the refitted weights too: lower late, higher early, on the same positions
    late = _paired("calibration_best_model.csv", "calibration_best_model_endgame.csv", 5, 14)
    early = _paired("calibration_best_model.csv", "calibration_best_model_endgame.csv", 30, 44)
    assert late[0] < -3 * late[1] and early[0] > 3 * early[1]
    assert (f"lower the values from 14 to 5 cards by {-late[0]:.2f} ± {late[1]:.2f} points (paired), closer to the "
            f"results, and raise those of 30 cards or more by {early[0]:.2f} ± {early[1]:.2f}") in agents
    assert (f"the whole round's intercept is {_fit_text(phases['calibration_best_model.csv'], whole, 'intercept')}, "
            "no better") in agents
