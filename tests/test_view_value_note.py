"""The hint's note on its endgame view value: that it takes every split of the unseen cards as equally likely,
with how far below it ``best``'s self-play ended and that the full position's value was met
(``advisor.notes.view_value_note``); on a view's endgame answer only. Its figure and docs/endgame.md's table,
"The view value against real play", are worked out again here from the calibration studies in
data/simulated/, by hand."""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from helpers import played_down

from lcanalysis.advisor import advise, example_view
from lcanalysis.advisor.notes import VIEW_VALUE_GAP_AT_2, VIEW_VALUE_GAP_AT_2_MODEL, VIEW_VALUE_SECTION, view_value_note
from lcanalysis.show.hint import hint_json, hint_text

ROOT = Path(__file__).resolve().parent.parent
SIMULATED = ROOT / "data" / "simulated"
#: the studies of docs/endgame.md's table, in its order: the agent in both seats, the file
STUDIES = [("`best` in both seats, every split alike", "calibration_best_staged.csv"),
           ("`best` in both seats, weighted", "calibration_best_model_endgame.csv"),
           ("`stalling` in both seats, every split alike", "calibration_stalling_hint.csv"),
           ("`stalling` in both seats, weighted", "calibration_stalling_model_endgame.csv"),
           ("`heuristic` in both seats, every split alike", "calibration_staged_hint.csv"),
           ("`heuristic` in both seats, weighted", "calibration_heuristic_model_endgame.csv"),
           ("`best` in both seats, both hands known", "calibration_best_both_hands.csv")]
#: each weighted study and the study of the same positions with every split alike
PAIRS = [("calibration_best_model_endgame.csv", "calibration_best_staged.csv"),
         ("calibration_stalling_model_endgame.csv", "calibration_stalling_hint.csv"),
         ("calibration_heuristic_model_endgame.csv", "calibration_staged_hint.csv")]
#: what the note says and no other note does (the absence checks look for it)
MARK = "split of the unseen cards between the opponent's hand and the draw pile"  # (either note)


def _endgame_rows(name: str) -> pd.DataFrame:
    """A calibration study's rows the endgame search answered (its first line is the study's settings)."""
    path = SIMULATED / name
    assert path.read_text().startswith("# lcanalysis calibration study ")
    rows = pd.read_csv(path, skiprows=1)
    return rows[rows["kind"] != "advisor estimate"]


def _gap_by_hand(rows: pd.DataFrame) -> tuple[float, float, int, int]:
    """The realized result less the value of the turn played: its mean, the ratio estimator's standard error
    over the rounds (each round's sum and count one sample), the positions and the rounds."""
    gap = (rows["realized"] - rows["played_value"]).to_numpy(float)
    rounds = rows["round"].to_numpy()
    labels = sorted(set(rounds.tolist()))
    sums = np.array([gap[rounds == r].sum() for r in labels])
    counts = np.array([float((rounds == r).sum()) for r in labels])
    n = len(labels)
    mean = sums.sum() / counts.sum()
    se = math.sqrt(((sums - mean * counts) ** 2).sum() / (n * (n - 1))) / counts.mean()
    return float(mean), se, len(gap), n


def test_the_notes_figure_is_best_self_plays_gap_at_two_cards_as_the_study_file_gives_it():
    rows = _endgame_rows("calibration_best_staged.csv")
    mean, se, positions, rounds = _gap_by_hand(rows[rows["cards_left"] == 2])
    assert (round(mean, 2), round(se, 2), positions, rounds) == VIEW_VALUE_GAP_AT_2
    assert (positions, rounds) == (93, 85) and mean < -2 * se  # below the view value, clearly
    said = view_value_note(True)
    assert f"positions with 2 cards left ended {-mean:.1f} ± {se:.1f} points below it on average" in said
    assert f"({positions} positions, ± one standard error; valued with both hands known, each ended" in said
    assert f"docs/endgame.md, \"{VIEW_VALUE_SECTION}\")" in said and MARK in said
    # "each ended exactly at its value": the same positions advised with both hands known
    both = _endgame_rows("calibration_best_both_hands.csv")
    both = both[both["cards_left"] == 2]
    assert len(both) == positions and (both["realized"] == both["played_value"]).all()
    assert (both[["round", "turn", "played"]].to_numpy() == rows[rows["cards_left"] == 2][["round", "turn", "played"]]
            .to_numpy()).all()
    assert "so it is exact for that model, not a forecast" in said
    assert "so it is an estimate of that model's value, not a forecast" in view_value_note(False)


def test_the_docs_table_of_the_gap_is_what_the_study_files_give():
    docs = (ROOT / "docs" / "endgame.md").read_text()
    assert f"\n### {VIEW_VALUE_SECTION}\n" in docs  # the section the note names
    flat = " ".join(docs.split())
    for agent, name in STUDIES:
        rows = _endgame_rows(name)
        cells = []
        for cards in (1, 2, 3, 4):
            mean, se, positions, _ = _gap_by_hand(rows[rows["cards_left"] == cards])
            cells.append(f"{mean:+.2f} ± {se:.2f} ({positions})")
        assert f"| {agent} (`{name}`) | {' | '.join(cells)} |" in docs
        command = (SIMULATED / f"{name}.cmd").read_text().splitlines()[0]
        assert command.startswith("python -m lcanalysis.studies.calibration ") and f"`{command}`" in flat
    best = _endgame_rows("calibration_best_staged.csv")
    at_1, at_4 = best[best["cards_left"] == 1], best[best["cards_left"] == 4]
    assert at_1["played"].str.endswith("/D").all() and (at_1["round_turns"] == at_1["turn"] + 1).all()
    assert (len(at_4), int((at_4["kind"] == "view value (sampled worlds)").sum()), int(at_4["played_bound"].sum())) \
        == (40, 23, 10)
    assert "(`best`, every split alike: 23 of the 40 sampled, 10 bounded)" in flat
    readme = (ROOT / "README.md").read_text()
    assert f"note: {view_value_note(True, weighted=True)}\n" in readme  # the hint's output shown there, note for note


def test_the_weighted_notes_figure_is_the_weighted_studys_gap_at_two_cards_on_the_same_positions():
    rows = _endgame_rows("calibration_best_model_endgame.csv")
    at_2 = rows[rows["cards_left"] == 2]
    mean, se, positions, rounds = _gap_by_hand(at_2)
    assert (round(mean, 2), round(se, 2), positions, rounds) == VIEW_VALUE_GAP_AT_2_MODEL
    assert mean > VIEW_VALUE_GAP_AT_2[0] + 2 * se  # closer to the results than every split alike
    said = view_value_note(True, weighted=True)
    assert f"positions with 2 cards left ended {-mean:.1f} ± {se:.1f} points below it on average" in said
    assert f"{-VIEW_VALUE_GAP_AT_2[0]:.1f} below the value that takes every split as equally likely" in said
    assert "(fitted on the best agent's self-play)" in said and "not the ones given" not in said
    mine = view_value_note(True, weighted=True, own_weights=True)
    assert "(with the weights given)" in mine and "with the default weights, not the ones given" in mine
    plain = _endgame_rows("calibration_best_staged.csv")
    plain = plain[plain["cards_left"] == 2]
    assert (at_2[["round", "turn", "played"]].to_numpy() == plain[["round", "turn", "played"]].to_numpy()).all()


@pytest.mark.parametrize("weighted, alike", PAIRS)
def test_a_weighted_study_differs_from_its_pair_only_where_the_endgame_search_answered(weighted, alike):
    """The same rounds, positions and turns played; the play-outs' rows (5 cards or more) to the last digit."""
    a, b = pd.read_csv(SIMULATED / weighted, skiprows=1), pd.read_csv(SIMULATED / alike, skiprows=1)
    keys = ["round", "turn", "played", "realized", "cards_left"]
    assert (a[keys].to_numpy() == b[keys].to_numpy()).all()
    far = a["cards_left"] >= 5
    assert (a.loc[far, "played_value"].to_numpy() == b.loc[far, "played_value"].to_numpy()).all()
    near = a[(a["cards_left"] <= 4) & (a["kind"] != "advisor estimate")]
    assert near["kind"].str.contains("opponent-hand model").all() and len(near) > 20


@pytest.fixture(scope="module")
def three_cards():
    """A round played down to 3 cards: the view of the player to move (two hidden cards and more), and the
    full position."""
    pos = played_down(5, 3)
    return pos.view(pos.to_move), pos


@pytest.mark.parametrize("splits", ["uniform", "model"])
def test_the_hints_endgame_answer_for_a_view_says_what_its_view_value_is_not(three_cards, splits):
    view, _ = three_cards
    assert view.opponent_unknown > 0
    answer = advise(view, seed=0, endgame_splits=splits)
    assert answer.kind == ("view value (averaged over splits)" if splits == "uniform" else
                           "view value (splits weighted by the opponent-hand model)") and answer.exact
    note = view_value_note(True, weighted=splits == "model")
    assert answer.notes.count(note) == 1
    assert "endgame search, exact view value" in answer.notes[0]  # it follows the notes saying what was solved
    assert answer.notes.index(note) == 2 and "converged" in answer.notes[1]
    assert f"note: {note}" in hint_text(answer, view).splitlines()
    assert f"note: {note}" in hint_text(answer, view, brief=True).splitlines()  # at the table too
    assert note in hint_json(answer, view)["notes"]  # --json


def test_no_such_note_on_a_full_position_a_play_out_answer_nor_with_one_card_left(three_cards):
    _, full = three_cards
    searched = advise(full, seed=0)  # both hands known: the perfect-information value, no model of sight
    assert "both hands are used" in searched.notes[0] and "max_stalls" in searched.bounds
    assert not any(MARK in n for n in searched.notes)
    two = played_down(5, 2)
    solved = advise(two, seed=0)  # a full position with 2 cards: the exact solver
    assert solved.exact and not any(MARK in n for n in solved.notes)
    viewed = advise(two.view(two.to_move), seed=0)  # its view: the note
    assert viewed.notes.count(view_value_note(viewed.exact, weighted=True)) == 1
    rolled = advise(example_view(), time_budget=0.05, seed=0)
    assert rolled.kind == "advisor estimate" and not any(MARK in n for n in rolled.notes)
    one = played_down(5, 1)
    last = advise(one.view(one.to_move), seed=0)
    assert "max_stalls" in last.bounds and one.view(one.to_move).opponent_unknown > 0
    assert not any(MARK in n for n in last.notes)
