"""The calibration article's last section, "After: the endgame's splits weighted by the opponent-hand model":
``calibration.endgame_gap``, ``endgame_gap_estimates`` and ``endgame_shift`` worked out by hand on a small
made-up study and by numpy on the published files, and every figure the article quotes there recomputed from
the files (numpy's fit and sums over rounds, not the study's functions; the intervals by a bootstrap written out
here)."""

from __future__ import annotations

import json
import math
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from scipy import stats

from lcanalysis.studies import calibration as C

ROOT = Path(__file__).resolve().parent.parent
FOLDER = ROOT / "data" / "simulated"
SECTION = "## After: the endgame's splits weighted by the opponent-hand model"
#: each self-play's two studies on the same positions: every split alike, and weighted
PAIRS = {"best": ("calibration_best_staged.csv", "calibration_best_model_endgame.csv"),
         "stalling": ("calibration_stalling_hint.csv", "calibration_stalling_model_endgame.csv"),
         "heuristic": ("calibration_staged_hint.csv", "calibration_heuristic_model_endgame.csv")}

# --- the functions, by hand -----------------------------------------------------------------------------


def _tiny(shift: dict[str, float] | None = None) -> pd.DataFrame:
    """Two rounds. Round 0: two positions with 2 cards left (result less value -2 and -4), one with 3
    (+1, an upper bound), one with 5 (the play-outs'). Round 1: one with 2 cards (+3), two with 3: one the
    play-outs valued (left out), one at -1. ``shift`` adds to the named positions' values."""
    rows = [("a", 0, 10, 2, "view value (averaged over splits)", 3.0, 5.0, False),
            ("b", 0, 14, 2, "view value (averaged over splits)", -1.0, 3.0, False),
            ("c", 0, 18, 3, "view value (sampled worlds)", 4.0, 3.0, True),
            ("d", 0, 2, 5, "advisor estimate", 7.0, 1.0, False),
            ("e", 1, 11, 2, "view value (averaged over splits)", 9.0, 6.0, False),
            ("f", 1, 3, 3, "advisor estimate", 0.0, 8.0, False),
            ("g", 1, 19, 3, "view value (averaged over splits)", 2.0, 3.0, False)]
    d = pd.DataFrame(rows, columns=["played", "round", "turn", "cards_left", "kind", "realized", "played_value",
                                    "played_bound"])
    for name, by in (shift or {}).items():
        d.loc[d.played == name, "played_value"] += by
    return d


def test_the_gap_by_cards_left_worked_out_by_hand():
    table = C.endgame_gap({"tiny": _tiny()})
    two, three = table.loc[("tiny", 2)], table.loc[("tiny", 3)]
    # 2 cards: -2, -4 (round 0) and +3 (round 1): mean -1; the rounds' sums -6 and 3 less -1 x their sizes
    # (-4 and +4): s.e. sqrt((16 + 16) / (2 x 1)) / 1.5
    assert (two.positions, two.rounds, two["upper bounds"]) == (3, 2, 0)
    assert two.gap == pytest.approx(-1.0) and two["gap s.e."] == pytest.approx(4 / 1.5)
    # 3 cards: +1 (round 0, a bound) and -1 (round 1; the play-outs' row of round 1 left out): mean 0, s.e. 1
    assert (three.positions, three.rounds, three["upper bounds"]) == (2, 2, 1)
    assert three.gap == pytest.approx(0.0) and three["gap s.e."] == pytest.approx(1.0)
    for cards in (1, 4):  # no position: nothing to average
        row = table.loc[("tiny", cards)]
        assert (row.positions, row.rounds) == (0, 0) and math.isnan(row.gap) and math.isnan(row["gap s.e."])
    assert list(table.index) == [("tiny", c) for c in (1, 2, 3, 4)]
    assert list(C.endgame_gap({"x": _tiny(), "y": _tiny()}, cards=[3]).index) == [("x", 3), ("y", 3)]


def test_the_gap_as_estimates_for_the_chart_worked_out_by_hand():
    est = C.endgame_gap_estimates({"tiny": _tiny()}, cards=(1, 2))
    assert list(est) == ["1 card left", "2 cards left"]
    two = est["2 cards left"]["tiny"]
    half = stats.t.ppf(0.975, 1) * 4 / 1.5  # Student's t over the 2 rounds
    assert (two.mean, two.stderr, two.n) == (pytest.approx(-1.0), pytest.approx(4 / 1.5), 3)
    assert two.ci95 == pytest.approx((-1 - half, -1 + half))
    assert math.isnan(est["1 card left"]["tiny"].mean) and est["1 card left"]["tiny"].n == 0


def test_the_paired_shift_worked_out_by_hand():
    after = _tiny({"a": 1.0, "b": -1.0, "e": -3.0, "c": 2.0, "d": 5.0, "f": 4.0})
    table = C.endgame_shift({"tiny": (_tiny(), after)}, cards=(2, 3))
    # 2 cards: +1, -1 (round 0), -3 (round 1): mean -1; sums 0 and -3 less -1 x sizes: +2, -2
    two, three = table.loc[("tiny", 2)], table.loc[("tiny", 3)]
    assert (two.positions, two.rounds) == (3, 2)
    assert two["shift"] == pytest.approx(-1.0) and two["shift s.e."] == pytest.approx(math.sqrt(8 / 2) / 1.5)
    # 3 cards: +2 (round 0) and 0 (round 1; f, the play-outs', left out): mean 1, s.e. sqrt((1 + 1) / 2) / 1
    assert (three.positions, three.rounds) == (2, 2)
    assert three["shift"] == pytest.approx(1.0) and three["shift s.e."] == pytest.approx(1.0)
    other = after.copy()
    other.loc[other.played == "e", "played"] = "z"
    with pytest.raises(ValueError, match="played different turns"):
        C.endgame_shift({"tiny": (_tiny(), other)})


@pytest.mark.parametrize("call, message", [
    (lambda: C.endgame_gap(_tiny()), "endgame_gap: give a dict of named study tables"),
    (lambda: C.endgame_gap({}), "endgame_gap: give a dict of named study tables"),
    (lambda: C.endgame_gap({"x": _tiny()}, cards=[0, 2]), "endgame_gap: cards must be a list of cards left"),
    (lambda: C.endgame_gap({"x": _tiny()}, cards=2), "endgame_gap: cards must be a list of cards left"),
    (lambda: C.endgame_gap_estimates({"x": [1, 2]}), "endgame_gap_estimates: give a dict of named study tables"),
    (lambda: C.endgame_shift({"x": _tiny()}), "endgame_shift: give a dict of named pairs of study tables"),
    (lambda: C.endgame_shift({"x": (_tiny(), _tiny())}, cards=[2.5]), "endgame_shift: cards must be a list"),
])
def test_bad_input_is_refused_by_name(call, message):
    with pytest.raises(ValueError, match=message):
        call()


# --- the published files, by numpy ----------------------------------------------------------------------


def _read(name: str) -> pd.DataFrame:
    return pd.read_csv(FOLDER / name, comment="#")


def _by_rounds(values: np.ndarray, rounds: np.ndarray) -> tuple[float, float]:
    """The mean of ``values`` and its standard error with a round's values one sample: the ratio estimator
    over the rounds' sums, written out here with numpy."""
    labels = np.unique(rounds)
    sums = np.array([values[rounds == r].sum() for r in labels])
    sizes = np.array([(rounds == r).sum() for r in labels], float)
    mean, k = sums.sum() / sizes.sum(), len(labels)
    return float(mean), float(np.sqrt(np.sum((sums - mean * sizes) ** 2) / (k * (k - 1))) / sizes.mean())


def _gap(study: pd.DataFrame, cards: int) -> tuple[float, float, int]:
    part = study[(study.cards_left == cards) & (study.kind != "advisor estimate")]
    return (*_by_rounds((part.realized - part.played_value).to_numpy(float), part["round"].to_numpy()), len(part))


def _shift(before: pd.DataFrame, after: pd.DataFrame, cards: int) -> tuple[float, float, int]:
    keep = ((before.cards_left == cards) & (before.kind != "advisor estimate")).to_numpy()
    d = (after.played_value - before.played_value).to_numpy(float)[keep]
    return (*_by_rounds(d, before["round"].to_numpy()[keep]), int(keep.sum()))


@pytest.fixture(scope="module")
def pairs() -> dict[str, tuple[pd.DataFrame, pd.DataFrame]]:
    return {name: (_read(a), _read(b)) for name, (a, b) in PAIRS.items()}


def test_each_pair_advised_the_same_positions_the_same_below_5_cards_with_each_weighting(pairs):
    """The weighted study's rows are the other's but for the values the endgame search gave (4 cards or
    fewer, every one of them its answer), which say their weighting."""
    for name, (alike, weighted) in pairs.items():
        keys = ["round", "turn", "played", "cards_left", "realized"]
        assert (alike[keys].to_numpy() == weighted[keys].to_numpy()).all(), name
        early = (alike.cards_left >= 5).to_numpy()
        for column in ("played_value", "played_stderr", "best", "best_value", "kind"):
            assert (alike[column].to_numpy()[early] == weighted[column].to_numpy()[early]).all(), (name, column)
        assert set(alike.kind[early]) == {"advisor estimate"}
        assert not alike.kind[~early].str.contains("opponent-hand model").any(), name
        assert weighted.kind[~early].str.contains("weighted by the opponent-hand model|sampled by the opponent-hand "
                                                  "model").all(), name
        assert C.read_identity(FOLDER / PAIRS[name][1])["endgame_splits"] == "model"
        assert C.read_identity(FOLDER / PAIRS[name][0]).get("endgame_splits", "uniform") == "uniform"


def test_the_gap_and_the_shift_on_the_published_files_are_numpys(pairs):
    both = _read("calibration_best_both_hands.csv")
    studies = {**{f"{n}, alike": a for n, (a, _) in pairs.items()}, **{f"{n}, weighted": w for n, (_, w) in
                                                                      pairs.items()}, "both hands": both}
    table = C.endgame_gap(studies)
    for name, study in studies.items():
        for cards in (1, 2, 3, 4):
            mean, se, n = _gap(study, cards)
            row = table.loc[(name, cards)]
            assert row.positions == n and row.gap == pytest.approx(mean, abs=1e-12), (name, cards)
            assert row["gap s.e."] == pytest.approx(se, abs=1e-12), (name, cards)
    shift = C.endgame_shift(pairs)
    for name, (alike, weighted) in pairs.items():
        for cards in (1, 2, 3, 4):
            mean, se, n = _shift(alike, weighted, cards)
            row = shift.loc[(name, cards)]
            assert row.positions == n and row["shift"] == pytest.approx(mean, abs=1e-12), (name, cards)
            assert row["shift s.e."] == pytest.approx(se, abs=1e-12), (name, cards)


# --- the article's figures ------------------------------------------------------------------------------


def _article() -> str:
    cells = json.loads((ROOT / "notebooks" / "article_calibration.ipynb").read_text())["cells"]
    text = " ".join(" ".join("".join(c["source"]) for c in cells if c["cell_type"] == "markdown").split())
    return text[text.index(SECTION):].replace("**", "")


def _signed(x: float, digits: int = 2) -> str:
    """A signed number as the article writes it: '+1.62', '−3.29' (a minus sign, not a hyphen)."""
    return f"{x:+.{digits}f}".replace("-", "−")


def _pm(estimate: tuple[float, float, int], signed: bool = True) -> str:
    mean, se, _ = estimate
    return f"{_signed(mean) if signed else f'{mean:.2f}'} ± {se:.2f}"


def _bootstrap(x: np.ndarray, y: np.ndarray, rounds: np.ndarray, samples: int = 2000,
               seed: int = 0) -> np.ndarray:
    """The least-squares line of y on x refitted on resamples of whole rounds (numpy's default generator,
    ``seed``: the rounds in sorted order, as many drawn as there are, each resample a row of draws), the
    rows of each round gathered and fitted one resample at a time: (slope, intercept) rows."""
    labels = np.unique(rounds)
    members = [np.flatnonzero(rounds == r) for r in labels]
    picks = np.random.default_rng(seed).integers(0, len(labels), size=(samples, len(labels)))
    lines = []
    for row in picks:
        take = np.concatenate([members[j] for j in row])
        lines.append(np.polyfit(x[take], y[take], 1))
    return np.array(lines)


def _line(study: pd.DataFrame) -> tuple[float, float, tuple[float, float], tuple[float, float]]:
    """Slope and intercept of the result on the value (numpy's fit), with their 95% intervals over rounds."""
    x, y = study.played_value.to_numpy(float), study.realized.to_numpy(float)
    slope, intercept = np.polyfit(x, y, 1)
    boot = _bootstrap(x, y, study["round"].to_numpy())
    low, high = np.percentile(boot, [2.5, 97.5], axis=0)
    return slope, intercept, (low[0], high[0]), (low[1], high[1])


def test_the_article_quotes_the_gap_against_bests_play(pairs):
    article = _article()
    alike, weighted = pairs["best"]
    both = _read("calibration_best_both_hands.csv")
    (b2, a2), (b3, a3), (b4, a4) = ((_gap(alike, c), _gap(weighted, c)) for c in (2, 3, 4))
    assert abs(a2[0]) < abs(b2[0]) / 2 and abs(a4[0]) < abs(b4[0]) / 2  # "closes most of the gap"
    assert (f"With 2 cards left the same {a2[2]} positions ended {-a2[0]:.2f} ± {a2[1]:.2f} points below the "
            f"weighted values, where they ended {-b2[0]:.2f} ± {b2[1]:.2f} below the values with every split "
            f"alike") in article
    bounds = [int(s[(s.cards_left == 4)].played_bound.sum()) for s in (weighted, alike)]
    assert (f"with 3 cards {_pm(a3)} (against {_pm(b3)}), with 4 cards {_pm(a4)} (against {_pm(b4)}; "
            f"{bounds[0]} and {bounds[1]} of the {a4[2]} values there are upper bounds)") in article
    s2, s3, s4 = (_shift(alike, weighted, c) for c in (2, 3, 4))
    assert max(s2[0], s3[0], s4[0]) < 0  # lower
    assert (f"the weighted value of the turn played is {-s2[0]:.2f} ± {s2[1]:.2f} points lower with 2 cards "
            f"left, {-s3[0]:.2f} ± {s3[1]:.2f} with 3 and {-s4[0]:.2f} ± {s4[1]:.2f} with 4") in article
    assert -a2[0] > 4 * a2[1]  # "more than four of its errors below zero"
    end2 = both[both.cards_left == 2]
    assert len(end2) == a2[2] and (end2.realized == end2.played_value).all()  # "every one ... exactly"
    assert f"every one of the {len(end2)} positions ended exactly at its value" in article


def test_the_article_quotes_the_end_phase_line_and_the_whole_rounds(pairs):
    """From 3 cards to 1 (the stage ``calibration.PHASES`` names the endgame search's; 4 cards is "late"):
    numpy's fit and a bootstrap over rounds written out here; over the whole round, numpy's fit."""
    article = _article()
    assert C.phase_of(4) == "late (14-4)" and C.phase_of(3) == "end (3-1, endgame search)"
    alike, weighted = pairs["best"]
    before, after = (_line(s[s.cards_left <= 3]) for s in (alike, weighted))

    def interval(pair: tuple[float, float], signed: bool) -> str:
        return (f"[{_signed(pair[0])}, {_signed(pair[1])}]" if signed else f"[{pair[0]:.3f}, {pair[1]:.3f}]")

    assert (f"intercept goes from {_signed(before[1])} {interval(before[3], True)} to {_signed(after[1])} "
            f"{interval(after[3], True)}, its slope from {before[0]:.3f} to {after[0]:.3f} "
            f"{interval(after[2], False)}") in article
    # "the slope's target is met with the whole interval, the intercept's by the estimate, its interval
    # crossing the edge"
    assert C.SLOPE_TARGET[0] <= after[2][0] and after[2][1] <= C.SLOPE_TARGET[1]
    assert C.INTERCEPT_TARGET[0] <= after[1] <= C.INTERCEPT_TARGET[1]
    assert after[3][0] < C.INTERCEPT_TARGET[0] < after[3][1]
    (sa, ia), (sw, iw) = (np.polyfit(s.played_value, s.realized, 1) for s in (alike, weighted))
    assert (f"hardly moves (slope {sw:.3f}, intercept {_signed(iw)}, against {sa:.3f} and {_signed(ia)})"
            in article)


def test_the_article_quotes_the_gap_against_stalling_play(pairs):
    article = _article()
    alike, weighted = pairs["stalling"]
    (b2, a2), (b3, a3), (b4, a4) = ((_gap(alike, c), _gap(weighted, c)) for c in (2, 3, 4))
    assert abs(a2[0]) < abs(b2[0]) / 2 and abs(a4[0]) < abs(b4[0]) / 2  # "closes the gap alike"
    s2 = _shift(alike, weighted, 2)
    assert (f"with 2 cards left from {_pm(b2)} to {_pm(a2)} on the same {a2[2]} positions, with 3 cards from "
            f"{_pm(b3)} to {_pm(a3)} and with 4 from {_pm(b4)} to {_pm(a4)}, the weighted values {-s2[0]:.2f} ± "
            f"{s2[1]:.2f} points lower with 2 cards left") in article


def test_the_article_quotes_the_gap_against_heuristic_play(pairs):
    article = _article()
    alike, weighted = pairs["heuristic"]
    s2 = _shift(alike, weighted, 2)
    best_s2 = _shift(*pairs["best"], 2)
    assert s2[0] < 0 and abs(s2[0]) < abs(best_s2[0])  # "lowers the values too, by less"
    assert f"by less ({-s2[0]:.2f} ± {s2[1]:.2f} points with 2 cards left)" in article
    (b2, a2), a3, a4 = (_gap(alike, 2), _gap(weighted, 2)), _gap(weighted, 3), _gap(weighted, 4)
    assert abs(b2[0]) < 2 * b2[1] and a2[0] > 2 * a2[1]  # "were on the values, now come out above them"
    assert (f"{_pm(a2)} with 2 cards left ({_pm(b2)} with every split alike), {_pm(a3)} with 3 and {_pm(a4)} "
            f"with 4") in article
