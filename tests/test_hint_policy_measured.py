"""docs/agents.md, "Which play-outs from 15 cards down": the table and figures quoted there, and the stage
from which the hint's default plays the stalling play-outs (``options.STALLING_FROM_CARDS``), are what the
rows of data/simulated/hint_policy_midround.csv give, recomputed here with numpy and scipy (not with the
benchmark's summary, nor with ``studies.estimate``); and its two calibration tables, against heuristic and against
`best`'s self-play, with the offsets quoted beside them, are what the calibration study files give."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pandas as pd
from scipy import stats

from lcanalysis.options import STALLING_FROM_CARDS, playout_policy_at

ROOT = Path(__file__).resolve().parent.parent
ROWS = ROOT / "data" / "simulated" / "hint_policy_midround.csv"
SECTION = "**Which play-outs from 15 cards down (issue 15).**"


def _rows() -> pd.DataFrame:
    return pd.read_csv(ROWS, comment="#")


def _errors(rows: pd.DataFrame, policy: str) -> np.ndarray:
    """Each view's hint value of its own top turn less `best`'s rollouts' value of that turn."""
    return (rows[f"{policy}_value"] - rows[f"ref_{policy}"]).to_numpy()


def _mean_by_deal(rows: pd.DataFrame) -> tuple[float, float, float]:
    """The mean gap over views with its 95% interval, a deal's views one sample: the cluster-robust
    standard error of a mean (the linearized ratio estimator), t with one fewer degree than the deals."""
    totals = rows.groupby("seed")["gap"].sum().to_numpy()
    counts = rows.groupby("seed")["gap"].size().to_numpy().astype(float)
    mean = totals.sum() / counts.sum()
    g = len(totals)
    se = np.sqrt(np.sum((totals - mean * counts) ** 2) / (g * (g - 1))) / counts.mean()
    half = stats.t.ppf(0.975, g - 1) * se
    return mean, mean - half, mean + half


def _row(label: str, rows: pd.DataFrame) -> str:
    cells = [label, str(len(rows))]
    for policy in ("plain", "stalling"):
        e = _errors(rows, policy)
        worst = e[np.argmax(np.abs(e))]
        cells += [f"{int(np.sum(np.abs(e) <= 2))}/{len(rows)}", f"{np.mean(np.abs(e)):.2f} ({worst:+.2f})"]
    differ = rows[rows.plain_top != rows.stalling_top]
    mean, low, high = _mean_by_deal(rows)
    better = int(np.sum(differ.gap > 2 * differ.gap_stderr))
    worse = int(np.sum(differ.gap < -2 * differ.gap_stderr))
    cells += [f"{len(differ)}/{len(rows)}", f"{mean:+.2f} [{low:+.2f}, {high:+.2f}]", f"{better} / {worse}"]
    return "| " + " | ".join(cells) + " |"


def _section() -> str:
    text = (ROOT / "docs" / "agents.md").read_text()
    start = text.index(SECTION)
    return text[start:text.index("\n### ", start)]


def test_the_file_holds_eight_deals_at_each_stage_measured_with_both_policies_top_turns():
    rows = _rows()
    assert sorted(rows.deck.unique()) == [5, 7, 9, 11, 13, 15, 20, 25, 30]
    assert all(sorted(rows[rows.deck == d].seed) == list(range(1, 9)) for d in rows.deck.unique())
    same = rows.plain_top == rows.stalling_top  # one turn rolled out: no gap, and the same reference value
    assert (rows[same].gap == 0).all() and (rows[same].ref_plain == rows[same].ref_stalling).all()
    assert np.allclose(rows[~same].gap, rows[~same].ref_stalling - rows[~same].ref_plain, atol=0.002)


def test_the_pages_table_is_what_the_rows_give():
    rows = _rows()
    groups = [("5-7 cards", rows.deck <= 7), ("8-11 cards", (rows.deck > 7) & (rows.deck <= 11)),
              ("12-15 cards", (rows.deck > 11) & (rows.deck <= 15)), ("5-15 cards", rows.deck <= 15),
              ("20-30 cards", rows.deck > 15), *((f"{d} cards", rows.deck == d) for d in (20, 25, 30))]
    section = _section()
    for label, chosen in groups:
        assert _row(label, rows[chosen]) in section, label


def test_the_default_plays_stalling_exactly_where_it_was_measured_closer_and_plain_beyond():
    """At every deck size measured up to the switch the stalling hint's values were closer to `best`'s
    rollouts than the plain hint's (mean absolute error), and its top turns worth more (the 95% interval
    over deals above 0); beyond it, at 20-30 cards, the two tops were worth the same (the interval holds 0)
    and the closer values changed sides with the deck size, so the plain play-outs, whose consistency and
    calibration were measured there at length, stay."""
    rows = _rows()
    closer = {}
    for deck in sorted(rows.deck.unique()):
        at = rows[rows.deck == deck]
        plain, stalling = np.mean(np.abs(_errors(at, "plain"))), np.mean(np.abs(_errors(at, "stalling")))
        assert playout_policy_at("staged", int(deck)) == ("stalling" if deck <= STALLING_FROM_CARDS else "plain")
        closer[deck] = "stalling" if stalling < plain else "plain"
    assert all(closer[d] == "stalling" for d in closer if d <= STALLING_FROM_CARDS)
    assert {closer[d] for d in closer if d > STALLING_FROM_CARDS} == {"plain", "stalling"}
    late, beyond = rows[rows.deck <= STALLING_FROM_CARDS], rows[rows.deck > STALLING_FROM_CARDS]
    assert _mean_by_deal(late)[1] > 0 and _mean_by_deal(beyond)[1] < 0 < _mean_by_deal(beyond)[2]
    above = int(np.sum(_errors(late, "plain") > 0))
    assert f"{above} of the {len(late)}" in " ".join(_section().split())


def _fit(study: pd.DataFrame) -> tuple[float, float, float]:
    """Ordinary least squares of the realized result on the value of the turn played: slope, intercept, R²
    (numpy's, not the study's)."""
    slope, intercept = np.polyfit(study.played_value, study.realized, 1)
    r = np.corrcoef(study.played_value, study.realized)[0, 1]
    return slope, intercept, r * r


def _check_calibration_table(staged_file: str, plain_file: str, header: str) -> pd.DataFrame:
    """The staged and the plain hint on the same positions of one self-play study: the same values to the last
    digit with 16 cards or more (the default plays the plain play-outs there), other values from 15 down; the
    page's point estimates in the table headed ``header`` (slope, intercept, R², whole round and late) are
    numpy's fit. Returns the staged study."""
    folder = ROOT / "data" / "simulated"
    staged = pd.read_csv(folder / staged_file, comment="#")
    plain = pd.read_csv(folder / plain_file, comment="#")
    assert (staged[["round", "turn", "played"]].to_numpy() == plain[["round", "turn", "played"]].to_numpy()).all()
    early = (staged.cards_left > STALLING_FROM_CARDS).to_numpy()
    assert (staged.played_value.to_numpy()[early] == plain.played_value.to_numpy()[early]).all()
    assert not (staged.played_value.to_numpy()[~early] == plain.played_value.to_numpy()[~early]).all()
    section = " ".join(_section().split())
    assert f"the {int(early.sum())} positions with 16" in section
    table = section[section.index(f"| {header} |"):]
    for label, study in (("plain throughout", plain), ("staged (the default)", staged)):
        late = study[(study.cards_left >= 4) & (study.cards_left <= 14)]
        whole, last = _fit(study), _fit(late)
        cells = [c.strip() for c in table[table.index(f"| {label} |"):].split("|")[1:8]]
        assert cells[1].startswith(f"{whole[0]:.3f} ") and cells[2].startswith(f"{whole[1]:+.2f} "), cells
        assert cells[3] == f"{whole[2]:.3f}" and cells[4].startswith(f"{last[0]:.3f} "), cells
        assert cells[5].startswith(f"{last[1]:+.2f} ") and cells[6] == f"{last[2]:.3f}", cells
    return staged


def test_the_calibration_table_is_what_the_two_study_files_give_and_they_differ_only_from_15_cards_down():
    _check_calibration_table("calibration_staged_hint.csv", "calibration_plain_hint_today.csv",
                             "the hint's play-outs, against heuristic self-play")


def _bias(study: pd.DataFrame, value: str = "played_value") -> tuple[float, float]:
    """Mean result minus value with its standard error, a round's positions one sample: the ratio estimator
    over the rounds' sums, worked out here with numpy (not with the study's ``clustered_mean``)."""
    d = (study.realized - study[value]).to_numpy(float)
    rounds = study["round"].to_numpy()
    labels = np.unique(rounds)
    sums = np.array([d[rounds == r].sum() for r in labels])
    sizes = np.array([(rounds == r).sum() for r in labels], float)
    mean, k = sums.sum() / sizes.sum(), len(labels)
    return mean, float(np.sqrt(np.sum((sums - mean * sizes) ** 2) / (k * (k - 1))) / sizes.mean())


def test_against_bests_own_play_the_staged_slope_is_one_and_every_stage_lies_above_the_results():
    """The same study with `best` in both seats: the table is numpy's fit of the two files; the offsets by
    stage quoted beside it (mean result minus value, with its error over rounds) are what the rows give, and
    heuristic self-play's, quoted for contrast, what its rows give."""
    staged = _check_calibration_table("calibration_best_staged.csv", "calibration_best_plain.csv",
                                      "the hint's play-outs, against `best`'s self-play")
    section = " ".join(_section().split())
    cards = staged.cards_left
    stages = {"early (30 cards or more)": cards >= 30, "from 29 to 15 cards": (cards <= 29) & (cards >= 15),
              "from 14 to 4": (cards <= 14) & (cards >= 4), "from 3 to 1": cards <= 3}
    assert sum(int(m.sum()) for m in stages.values()) == len(staged)
    whole = _bias(staged)
    assert whole[0] < -2 * whole[1]  # the offset is real: more than two of its errors below zero
    assert f"too high, by {-whole[0]:.1f} ± {whole[1]:.1f} points on average" in section.replace("**", "")
    parts = [f"{-m:.1f} ± {se:.1f} {name}" for name, (m, se) in
             ((name, _bias(staged[mask])) for name, mask in stages.items())]
    quoted = ", ".join(parts[:-1]) + ", and " + parts[-1]
    assert quoted in section, quoted
    best_value = _bias(staged, "best_value")
    assert f"is overrated more: by {-best_value[0]:.1f} ± {best_value[1]:.1f}" in section
    heuristic = pd.read_csv(ROOT / "data" / "simulated" / "calibration_staged_hint.csv", comment="#")
    h_whole, h_end = _bias(heuristic), _bias(heuristic[heuristic.cards_left <= 3])
    assert (f"no such offset ({h_whole[0]:+.1f} ± {h_whole[1]:.1f} over the round, {h_end[0]:+.1f} ± "
            f"{h_end[1]:.1f} from 3 to 1 cards)") in section


def test_the_calibration_article_quotes_the_same_figures():
    """notebooks/article_calibration.ipynb's last section: its quoted slopes and offsets are what the files give
    (numpy's fit, the offsets by hand over rounds), as the page's are."""
    cells = json.loads((ROOT / "notebooks" / "article_calibration.ipynb").read_text())["cells"]
    article = " ".join(" ".join("".join(c["source"]) for c in cells if c["cell_type"] == "markdown").split())
    article = article.replace("**", "")
    folder = ROOT / "data" / "simulated"
    study = {name: pd.read_csv(folder / f"calibration_{name}.csv", comment="#")
             for name in ("staged_hint", "plain_hint_today", "best_staged", "best_plain")}

    def late(d: pd.DataFrame) -> pd.DataFrame:
        return d[(d.cards_left >= 4) & (d.cards_left <= 14)]

    assert (f"late slope {_fit(late(study['plain_hint_today']))[0]:.3f} against the staged "
            f"{_fit(late(study['staged_hint']))[0]:.3f}") in article
    best = study["best_staged"]
    assert f"slope {_fit(best)[0]:.3f} [" in article and f"and {_fit(late(best))[0]:.3f} [" in article
    assert f"the plain values' slope is {_fit(late(study['best_plain']))[0]:.3f}" in article
    offset, end = _bias(best), _bias(best[best.cards_left <= 3])
    assert f"{-offset[0]:.1f} ± {offset[1]:.1f} points on average" in article
    assert f"{-end[0]:.1f} ± {end[1]:.1f} from 3 cards down" in article


def test_with_both_hands_known_the_same_positions_are_on_the_mark_so_the_opponents_hand_is_what_misses():
    """docs/agents.md: the same positions of `best`'s rounds advised with both hands known: numpy's fit, the
    offsets by stage by hand over rounds, and the view's value less the full position's on the same position."""
    folder = ROOT / "data" / "simulated"
    view = pd.read_csv(folder / "calibration_best_staged.csv", comment="#")
    both = pd.read_csv(folder / "calibration_best_both_hands.csv", comment="#")
    assert (view[["round", "turn", "played"]].to_numpy() == both[["round", "turn", "played"]].to_numpy()).all()
    section = " ".join(_section().split())
    slope, intercept, _ = _fit(both)
    assert f"slope {slope:.3f} [" in section and f"intercept {intercept:+.2f} [" in section
    cards = both.cards_left
    whole, late, end = _bias(both), _bias(both[(cards <= 14) & (cards >= 4)]), _bias(both[cards <= 3])
    assert abs(whole[0]) < 2 * whole[1] and abs(end[0]) < 2 * end[1]  # on the mark within their errors
    assert (f"(mean result minus value {whole[0]:.1f} ± {whole[1]:.1f} over the round, {late[0]:.1f} ± "
            f"{late[1]:.1f} from 14 to 4 cards, {end[0]:.1f} ± {end[1]:.1f} from 3 to 1)") in section
    paired = view.assign(realized=view.played_value - both.played_value, played_value=0.0)
    shift = _bias(paired)  # the view's value less the full position's, its error over rounds
    assert shift[0] > 2 * shift[1]
    assert f"the view's value is {shift[0]:.2f} ± {shift[1]:.2f} points above the full position's" in section
