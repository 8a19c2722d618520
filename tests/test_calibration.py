"""The calibration study (lcanalysis/studies/calibration.py): its fit against numpy and scipy on
made-up data, its bootstrap against a plain loop, its rows against rounds replayed here from
the deal, its resume, and the published numbers against the published file."""

from __future__ import annotations

import json
import math
import re
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from scipy import stats as st

from lcanalysis.advisor import ENDGAME_CARDS
from lcanalysis.agents import make_agent
from lcanalysis.game.notation import read_position
from lcanalysis.game.position import Position
from lcanalysis.game.rules import Rules
from lcanalysis.options import ENDGAME_SPLITS_DEFAULT
from lcanalysis.studies import calibration as C
from lcanalysis.tournaments.specs import deal_seed

ROOT = Path(__file__).resolve().parent.parent
PUBLISHED = ROOT / "data" / "simulated" / "calibration.csv"


def _synthetic(rounds=60, per_round=6, slope=0.8, intercept=-3.0, seed=1):
    """Rows shaped like the study's: a round's positions share a round effect (its luck)."""
    rng = np.random.default_rng(seed)
    rows = []
    for r in range(rounds):
        luck = rng.normal(0, 8)
        for t in range(per_round):
            x = rng.normal(0, 20)
            rows.append({"round": r, "turn": t, "played_value": x, "played_stderr": 1.0, "best_value": x + 1,
                         "best_stderr": 1.0, "realized": intercept + slope * x + luck + rng.normal(0, 5),
                         "phase": C.PHASE_NAMES[t % 4], "played_bound": False, "played_worlds": 300.0,
                         "first_stage_worlds": 40.0})
    return pd.DataFrame(rows)


def test_the_fit_recovers_a_known_line_as_numpy_and_scipy_compute_it():
    df = _synthetic(rounds=400)
    fit = C.calibration_fit(df, samples=300)
    b, a = np.polyfit(df.played_value, df.realized, 1)
    ref = st.linregress(df.played_value, df.realized)
    assert fit["slope"] == pytest.approx(b) and fit["intercept"] == pytest.approx(a)
    assert fit["slope_se_ols"] == pytest.approx(ref.stderr) and fit["intercept_se_ols"] == pytest.approx(
        ref.intercept_stderr)
    assert fit["r2"] == pytest.approx(ref.rvalue**2)
    assert fit["slope"] == pytest.approx(0.8, abs=0.03) and fit["intercept"] == pytest.approx(-3.0, abs=1.5)
    assert fit["slope_low"] < 0.8 < fit["slope_high"] and fit["intercept_low"] < -3.0 < fit["intercept_high"]
    # realized minus value, averaged; the literal direction of the issue is value on result
    assert fit["bias"] == pytest.approx((df.realized - df.played_value).mean())
    assert fit["reverse_slope"] == pytest.approx(np.polyfit(df.realized, df.played_value, 1)[0])
    assert fit["positions"] == 2400 and fit["rounds"] == 400
    assert fit["noise_attenuation"] == pytest.approx(1 - 1.0 / df.played_value.var(ddof=1))


def test_a_calibrated_predictor_meets_the_target_and_a_shrunk_one_does_not():
    rng = np.random.default_rng(3)
    x = rng.normal(0, 25, 3000)
    rounds = np.arange(3000) // 3
    good = pd.DataFrame({"round": rounds, "played_value": x, "played_stderr": 0.0,
                         "realized": x + rng.normal(0, 4, 3000)})
    fit = C.calibration_fit(good, samples=300)
    assert fit["slope_in_target"] and fit["intercept_in_target"]
    assert fit["slope_verdict"].startswith("met") and fit["intercept_verdict"].startswith("met")
    bad = good.assign(realized=0.5 * x + 10 + rng.normal(0, 4, 3000))
    fit = C.calibration_fit(bad, samples=300)
    assert not fit["slope_in_target"] and fit["slope_verdict"].startswith("not met")
    assert fit["intercept_verdict"].startswith("not met")


def test_the_round_bootstrap_is_a_refit_on_whole_rounds_and_repeats_from_its_seed():
    df = _synthetic(rounds=12, per_round=5)
    boot = C.round_bootstrap(df.played_value, df.realized, df["round"], samples=50, seed=7)
    assert boot.shape == (50, 2)
    np.testing.assert_array_equal(boot, C.round_bootstrap(df.played_value, df.realized, df["round"], 50, seed=7))
    assert not np.array_equal(boot, C.round_bootstrap(df.played_value, df.realized, df["round"], 50, seed=8))
    # the same resamples drawn by hand: rounds with replacement, every position of a drawn round
    rng = np.random.default_rng(7)
    picks = rng.integers(0, 12, size=(50, 12))
    for i in (0, 1, 49):
        part = pd.concat([df[df["round"] == r] for r in picks[i]])
        b, a = np.polyfit(part.played_value, part.realized, 1)
        assert boot[i] == pytest.approx([b, a])
    fit = C.calibration_fit(df, samples=50, seed=7)
    assert fit["slope_se"] == pytest.approx(boot[:, 0].std(ddof=1))
    assert (fit["slope_low"], fit["slope_high"]) == pytest.approx(tuple(np.percentile(boot[:, 0], [2.5, 97.5])))


def test_the_phases_and_the_bins():
    assert [C.phase_of(d) for d in (44, 30, 29, 15, 14, 4, 3, 1)] == [
        C.PHASE_NAMES[0]] * 2 + [C.PHASE_NAMES[1]] * 2 + [C.PHASE_NAMES[2]] * 2 + [C.PHASE_NAMES[3]] * 2
    with pytest.raises(ValueError):
        C.phase_of(0)
    df = _synthetic(rounds=20, per_round=8)
    by = C.calibration_by_phase(df, samples=50)
    assert list(by.index) == C.PHASE_NAMES + ["whole round"]
    assert by.loc["whole round", "positions"] == 160 and by["positions"].iloc[:4].sum() == 160
    early = df[df.phase == C.PHASE_NAMES[0]]
    assert by.loc[C.PHASE_NAMES[0], "slope"] == pytest.approx(np.polyfit(early.played_value, early.realized, 1)[0])
    bins = C.binned_means(df, bins=8)
    assert len(bins) == 8 and bins.positions.sum() == 160
    assert bins.value.is_monotonic_increasing
    lowest = df.sort_values("played_value", kind="stable").head(20)
    assert bins.realized[0] == pytest.approx(lowest.realized.mean())
    per = lowest.groupby("round").realized.agg(["sum", "size"])  # a round one sample: a ratio estimator
    m = lowest.realized.mean()
    k = len(per)
    se = math.sqrt(((per["sum"] - m * per["size"]) ** 2).sum() / (k * (k - 1))) / per["size"].mean()
    assert bins["realized s.e."][0] == pytest.approx(se)
    assert set(C.sample_group(df)) == {C.SAMPLE_GROUPS[0]}


def test_the_sampled_turns_cover_the_round_and_both_seats():
    turns = [t for k in range(16) for t in C.sampled_turns(k, 48, every=8)]
    assert set(turns) == set(range(48))  # every turn of a 48-turn round is sampled in some round
    movers = [(t % 2) == (k % 2) for k in range(16) for t in C.sampled_turns(k, 48, every=8)]
    assert sum(movers) == len(movers) // 2  # agents[0] (seat k % 2) is the mover at half the positions
    assert C.advisor_seed(0, 3, 5) == C.advisor_seed(0, 3, 5) != C.advisor_seed(0, 3, 6)


def _replay(seed, k, agents):
    """Round k of the study played here, from the deal: (the positions before each turn, the
    turns, the final scores, the seats' agent names)."""
    names = list(agents) if k % 2 == 0 else list(agents)[::-1]
    made = [make_agent(n) for n in names]
    s = deal_seed(seed, k)
    pos = Position.deal(s, Rules(), 0)
    before, turns = [], []
    while not pos.is_over():
        p = pos.to_move
        move = made[p].choose(pos.view(p), (s * 7919 + pos.turn * 2 + p) % (2**31 - 1))
        before.append(pos.copy())
        turns.append(str(move))
        pos.push(move)
    return before, turns, pos.scores(), names


def test_a_tiny_study_records_the_played_turn_and_the_result_of_the_round_played_out(tmp_path):
    agents = ("heuristic", "greedy")
    df = C.calibration_study(2, agents, seed=5, every=9, time_budget=0.02, out=tmp_path / "c.csv")
    assert list(df.columns) == C.COLUMNS and len(df) > 4
    assert not df.duplicated(["round", "turn"]).any()
    for k in (0, 1):
        before, turns, scores, names = _replay(5, k, agents)
        mine = df[df["round"] == k]
        assert list(mine.turn) == C.sampled_turns(k, len(turns), 9)
        for row in mine.itertuples():
            pos = before[row.turn]
            me = pos.to_move
            assert row.mover == me and row.mover_agent == names[me] and row.opponent_agent == names[1 - me]
            assert row.played == turns[row.turn] and row.cards_left == pos.deck_count
            assert row.view == pos.view(me).to_string()
            assert row.realized == scores[me] - scores[1 - me] == row.final_mover - row.final_opponent
            assert row.round_turns == len(turns) and row.phase == C.phase_of(pos.deck_count)
            # the loss is paired over the worlds both turns were played in; with successive halving
            # every other turn fell behind the best on those worlds, so it is never below zero
            assert row.loss >= -1e-9
            assert row.played != row.best or (row.played_is_best and row.loss == 0)
    # the same study without a file gives the same rows
    again = C.calibration_study(2, agents, seed=5, every=9, time_budget=0.02)
    cols = [c for c in C.COLUMNS if c != "cpu_seconds"]
    pd.testing.assert_frame_equal(df[cols].reset_index(drop=True), again[cols].reset_index(drop=True),
                                  check_dtype=False)


def test_an_interrupted_study_resumes_without_duplicates(tmp_path, monkeypatch, capsys):
    args = {"agents": ("heuristic", "heuristic"), "seed": 2, "every": 10, "time_budget": 0.02}
    whole = C.calibration_study(2, out=tmp_path / "whole.csv", **args)
    cols = [c for c in C.COLUMNS if c != "cpu_seconds"]
    path = tmp_path / "cut.csv"
    real = C.advise_position
    calls = {"n": 0}

    def dies_on_the_sixth(*a, **kw):
        calls["n"] += 1
        if calls["n"] == 6:
            raise KeyboardInterrupt
        return real(*a, **kw)

    monkeypatch.setattr(C, "advise_position", dies_on_the_sixth)
    with pytest.raises(KeyboardInterrupt):
        C.calibration_study(2, out=path, **args)
    monkeypatch.setattr(C, "advise_position", real)
    assert len(C.load_calibration(path)) == 5  # every row advised before the interruption is on disk
    with open(path, "a", encoding="utf-8") as fh:  # and a row torn by a kill while writing it
        fh.write("1,99,3,")
    assert len(C.load_calibration(path)) == 5
    resumed = C.calibration_study(2, out=path, **args)
    assert "torn last line" in capsys.readouterr().err
    assert not resumed.duplicated(["round", "turn"]).any()
    key = ["round", "turn"]
    pd.testing.assert_frame_equal(resumed.sort_values(key)[cols].reset_index(drop=True),
                                  whole.sort_values(key)[cols].reset_index(drop=True))
    # a complete file: nothing is advised again
    monkeypatch.setattr(C, "advise_position", None)
    assert len(C.calibration_study(2, out=path, **args)) == len(whole)
    # more rounds extend it; other settings are refused
    monkeypatch.setattr(C, "advise_position", real)
    with pytest.raises(ValueError, match="every: 10 there, 11 here"):
        C.calibration_study(2, out=path, **{**args, "every": 11})
    with pytest.raises(ValueError, match="streams: True there, False here"):
        C.calibration_study(2, out=path, **args, streams=False)


def test_a_study_made_before_the_draw_streams_reads_as_made_without_them(tmp_path):
    """Its settings line names no ``streams``: it reads as ``streams`` false, a run without them
    resumes it, and the advisor's default (on) is refused instead of mixed in."""
    args = {"agents": ("heuristic", "heuristic"), "seed": 3, "every": 12, "time_budget": 0.02}
    path = tmp_path / "old.csv"
    C.calibration_study(1, out=path, streams=False, **args)
    text = path.read_text()
    assert ', "streams": false' in text
    path.write_text(text.replace(', "streams": false', ""))
    assert C.read_identity(path)["streams"] is False
    assert len(C.calibration_study(1, out=path, streams=False, **args)) > 0
    with pytest.raises(ValueError, match="streams: False there, True here"):
        C.calibration_study(1, out=path, **args)


def test_a_study_made_before_the_hand_over_at_4_cards_reads_as_3_and_is_not_mixed_with_4(tmp_path):
    args = {"agents": ("heuristic", "heuristic"), "seed": 3, "every": 12, "time_budget": 0.02}
    path = tmp_path / "old.csv"
    C.calibration_study(1, out=path, endgame_cards=3, **args)
    text = path.read_text()
    assert ', "endgame_cards": 3' in text
    path.write_text(text.replace(', "endgame_cards": 3', ""))
    assert C.read_identity(path)["endgame_cards"] == 3
    assert len(C.calibration_study(1, out=path, endgame_cards=3, **args)) > 0
    assert ENDGAME_CARDS == 4
    with pytest.raises(ValueError, match="endgame_cards: 3 there, 4 here"):
        C.calibration_study(1, out=path, **args)
    with pytest.raises(ValueError, match="endgame_cards must be a whole number"):
        C.calibration_study(1, endgame_cards=-1, **args)
    # the command refuses it by name before it writes anything
    with pytest.raises(SystemExit) as exc:
        C.main(["--endgame-cards", "-1", "--rounds", "1", "--out", str(tmp_path / "bad.csv")])
    assert exc.value.code == 2 and not (tmp_path / "bad.csv.cmd").exists()


def test_a_study_made_before_the_play_outs_a_second_were_raised_reads_as_6000_and_is_not_mixed(tmp_path):
    """Its settings line names no ``playout_rate``: it reads as 6,000 a second, a run at that rate
    resumes it (and advises as the advisor at that rate does), and the advisor's default is refused
    instead of mixed in; the command's ``--playout-rate`` reaches the settings."""
    args = {"agents": ("heuristic", "heuristic"), "seed": 3, "every": 12, "time_budget": 0.02}
    path = tmp_path / "old.csv"
    first = C.calibration_study(1, out=path, playout_rate=6000, **args)
    text = path.read_text()
    assert ', "playout_rate": 6000' in text
    path.write_text(text.replace(', "playout_rate": 6000', ""))
    assert C.read_identity(path)["playout_rate"] == 6000
    row = first.iloc[0]
    pos = next(p for t, p in C.positions_of(C.play_calibration_round(0, args["agents"], 3)) if t == row.turn)
    again = C.advise_position(pos.view(pos.to_move), row.played, int(row.advisor_seed), 0.02, playout_rate=6000)
    assert again["played_value"] == pytest.approx(row.played_value, abs=1e-9)
    assert len(C.calibration_study(2, out=path, playout_rate=6000, **args)) > len(first)
    with pytest.raises(ValueError, match="playout_rate: 6000 there, 15000 here"):
        C.calibration_study(2, out=path, **args)
    with pytest.raises(ValueError, match="playout_rate must be a whole number"):
        C.calibration_study(1, playout_rate=0, **args)
    assert C.main(["--rounds", "1", "--every", "12", "--time", "0.02", "--seed", "3", "--playout-rate", "7000",
                   "--out", str(tmp_path / "new.csv"), "--no-progress", "--bootstrap", "20"]) == 0
    assert C.read_identity(tmp_path / "new.csv")["playout_rate"] == 7000


def test_the_command_writes_its_file_and_the_command_beside_it(tmp_path, capsys):
    out = tmp_path / "c.csv"
    argv = ["--rounds", "1", "--every", "12", "--time", "0.02", "--bootstrap", "50", "--out", str(out)]
    assert C.main(argv) == 0
    assert (tmp_path / "c.csv.cmd").read_text() == "python -m lcanalysis.studies.calibration " + " ".join(argv) + "\n"
    printed = capsys.readouterr()
    assert "round 1/1" in printed.err and "slope" in printed.out
    assert C.read_identity(out)["every"] == 12 and len(C.load_calibration(out)) == 4


def test_a_resume_with_other_settings_keeps_the_command_beside_the_file(tmp_path, capsys):
    """The ``.cmd`` sidecar says how the file was made: a run refused for other settings must not
    overwrite it, and says why without a traceback."""
    out = tmp_path / "c.csv"
    argv = ["--rounds", "1", "--every", "12", "--time", "0.02", "--bootstrap", "50", "--out", str(out)]
    assert C.main(argv) == 0
    made = (tmp_path / "c.csv.cmd").read_text()
    rows = out.read_text()
    assert C.main([*argv[:4], "--seed", "5", *argv[4:]]) == 2  # another seed: another study
    assert "other settings (seed: 0 there, 5 here)" in capsys.readouterr().err
    assert (tmp_path / "c.csv.cmd").read_text() == made and out.read_text() == rows
    assert C.main([*argv[:1], "2", *argv[2:]]) == 0  # more rounds of the same study: the command now says so
    assert (tmp_path / "c.csv.cmd").read_text() == made.replace("--rounds 1", "--rounds 2")


def _published(name="calibration.csv"):
    path = ROOT / "data" / "simulated" / name
    if not path.exists():
        pytest.skip(f"the published study {name} is not in data/")
    return C.load_calibration(path)


@pytest.mark.parametrize("name", ["calibration.csv", "calibration_both_hands.csv", "calibration_halving.csv",
                                  "calibration_hand_model.csv", "calibration_today.csv",
                                  "calibration_stalling_hint.csv", "calibration_plain_hint_stalling_play.csv",
                                  "calibration_best_model_endgame.csv", "calibration_stalling_model_endgame.csv",
                                  "calibration_best_model_shipped.csv",
                                  "calibration_best_model.csv", "calibration_heuristic_model.csv"])
def test_the_published_study_is_whole_and_its_command_is_beside_it(name):
    df = _published(name)
    cmd = (ROOT / "data" / "simulated" / f"{name}.cmd").read_text().split()
    checked_out = cmd[:2] == ["git", "checkout"]
    if checked_out:  # made by the code of that commit: the command after it
        assert cmd[3] == "&&"
        cmd = cmd[4:]
    ident = df.attrs["identity"]
    assert cmd[:3] == ["python", "-m", "lcanalysis.studies.calibration"]
    rounds = int(cmd[cmd.index("--rounds") + 1])
    assert ident["every"] == int(cmd[cmd.index("--every") + 1]) and ident["time_budget"] is None
    assert ident["hands"] == (cmd[cmd.index("--hands") + 1] if "--hands" in cmd else "view")
    # the command names what differs from today's advisor (the draw streams, successive halving, the hand model)
    assert ident["streams"] is ("--no-streams" not in cmd)
    assert ident["schedule"] == (cmd[cmd.index("--schedule") + 1] if "--schedule" in cmd else "halving")
    assert ident["hand_model"] is ("--no-hand-model" not in cmd and ident["hands"] == "view")
    assert ident["endgame_cards"] == (int(cmd[cmd.index("--endgame-cards") + 1]) if "--endgame-cards" in cmd
                                      else ENDGAME_CARDS)
    assert ident["playout_policy"] == (cmd[cmd.index("--playout-policy") + 1] if "--playout-policy" in cmd
                                       else "plain")
    # the endgame's splits: every one alike before the choice (a commit checked out, or both hands known)
    splits = "uniform" if checked_out or ident["hands"] == "both" else ENDGAME_SPLITS_DEFAULT
    assert ident["endgame_splits"] == (cmd[cmd.index("--endgame-splits") + 1] if "--endgame-splits" in cmd
                                       else splits)
    weights = cmd[cmd.index("--hand-model-weights") + 1] if "--hand-model-weights" in cmd else None
    assert ident["hand_model_weights"] == (None if weights is None else C.read_weights(str(ROOT / weights)))
    assert ident["agents"] == (cmd[cmd.index("--agents") + 1: cmd.index("--agents") + 3] if "--agents" in cmd
                               else list(C.AGENTS))
    assert sorted(df["round"].unique()) == list(range(rounds))
    assert not df.duplicated(["round", "turn"]).any()
    for k, part in df.groupby("round"):
        assert list(part.turn) == C.sampled_turns(int(k), int(part.round_turns.iloc[0]), ident["every"])
    assert (df.realized == df.final_mover - df.final_opponent).all()


def test_the_published_numbers_are_what_the_fit_computes_from_the_published_file():
    """docs/agents.md quotes the fit of data/simulated/calibration.csv: each number is checked."""
    df = _published()
    fit = C.calibration_fit(df)
    docs = (ROOT / "docs" / "agents.md").read_text()
    para = docs[docs.index("Calibration (issue 15"):]
    para = para[: para.index("\n\n")]
    flat = re.sub(r"\s+", " ", para)
    assert f"{fit['positions']:,} positions from {fit['rounds']} rounds" in flat
    assert f"ends {-fit['bias']:.1f} ± {fit['bias_se']:.1f} points worse" in flat
    quoted = [f"slope {fit['slope']:.2f} [{fit['slope_low']:.2f}, {fit['slope_high']:.2f}]",
              f"intercept {fit['intercept']:+.1f} [{fit['intercept_low']:+.1f}, {fit['intercept_high']:+.1f}]"]
    for text in quoted:
        assert text in flat, f"docs/agents.md should say {text!r}"
    by = C.calibration_by_phase(df)
    for name in C.PHASE_NAMES:
        row = by.loc[name]
        assert f"{row['slope']:.2f} [{row['slope 95% low']:.2f}, {row['slope 95% high']:.2f}]" in flat, name
    both = C.compare_hands(df, _published("calibration_both_hands.csv"))
    view_row, both_row, diff = both.iloc[0], both.iloc[1], both.iloc[2]
    assert f"give results {both_row['bias']:.1f} ± {both_row['bias s.e.']:.1f} points from the values" in flat
    assert f"{diff['mean value']:.1f} ± {diff['mean value s.e.']:.1f} points higher" in flat
    assert int(diff["positions"]) == 361 and view_row["positions"] == both_row["positions"]


def test_the_calibration_of_todays_advisor_is_quoted_from_its_file():
    """docs/agents.md and the article quote the fit of data/simulated/calibration_halving.csv (the
    advisor at its defaults: successive halving, draw streams, the hand model) and its verdicts."""
    df = _published("calibration_halving.csv")
    fit = C.calibration_fit(df)
    docs = re.sub(r"\s+", " ", (ROOT / "docs" / "agents.md").read_text())
    article = re.sub(r"\s+", " ", (ROOT / "notebooks" / "article_calibration.ipynb").read_text())
    slope = f"slope {fit['slope']:.2f} [{fit['slope_low']:.2f}, {fit['slope_high']:.2f}]"
    # two decimals: the interval's upper end is within 0.03 of the target's edge
    intercept = f"intercept {fit['intercept']:+.2f} [{fit['intercept_low']:+.2f}, {fit['intercept_high']:+.2f}]"
    counted = f"{fit['positions']:,} positions from {fit['rounds']:,} rounds"
    for text in (slope, intercept, counted):
        assert text in docs, f"docs/agents.md should say {text!r}"
        assert text in article, f"the article should say {text!r}"
    assert fit["slope_low"] >= 0.9 and fit["slope_high"] <= 1.1  # the slope target: met
    assert fit["intercept_low"] > -1 and fit["intercept_high"] < 1  # the intercept target: met
    assert fit["slope_verdict"].startswith("met") and fit["intercept_verdict"].startswith("met")
    assert "Both targets are **met**" in docs and "Both of issue 15's targets are met" in article
    assert f"the mean result minus value is {fit['bias']:+.1f} ± {fit['bias_se']:.1f} points" in docs
    # by phase, as quoted
    by = C.calibration_by_phase(df)
    late = by.loc["late (14-4)"]
    assert (f"**{late['intercept']:+.1f} [{late['intercept 95% low']:+.1f}, {late['intercept 95% high']:+.1f}] "
            "late**") in docs
    for name in C.PHASE_NAMES:
        row = by.loc[name]
        assert f"{row['slope']:.2f} [{row['slope 95% low']:.2f}, {row['slope 95% high']:.2f}]" in docs, name


def test_the_full_position_check_advises_the_same_positions_with_both_hands_known(tmp_path):
    args = {"agents": ("heuristic", "heuristic"), "seed": 4, "every": 11, "time_budget": 0.02}
    view = C.calibration_study(2, **args)
    both = C.calibration_study(1, hands="both", out=tmp_path / "both.csv", **args)
    assert C.read_identity(tmp_path / "both.csv")["hands"] == "both"
    assert len(both) == len(view[view["round"] == 0])
    assert list(both.played) == list(view[view["round"] == 0].played)
    assert (both.realized.to_numpy() == view[view["round"] == 0].realized.to_numpy()).all()
    # the advisor was given the full position: the opponent's hand counts as known
    first = both.iloc[0]
    pos = next(p for t, p in C.positions_of(C.play_calibration_round(0, args["agents"], 4)) if t == first.turn)
    ref = C.advise_position(pos, first.played, int(first.advisor_seed), 0.02)
    assert ref["played_value"] == pytest.approx(first.played_value)
    table = C.compare_hands(view, both, samples=50)
    assert list(table["positions"]) == [len(both)] * 3
    diff = view[view["round"] == 0].played_value.to_numpy() - both.played_value.to_numpy()
    assert table["mean value"].iloc[2] == pytest.approx(diff.mean())
    assert table["mean value"].iloc[0] - table["mean value"].iloc[1] == pytest.approx(diff.mean())
    with pytest.raises(ValueError, match="hands must be"):
        C.calibration_study(1, hands="mine", **args)
    with pytest.raises(ValueError, match="hands: 'both' there, 'view' here"):
        C.calibration_study(1, out=tmp_path / "both.csv", **args)


def _rate_check():
    """benchmarks/bench_playout_rate_values.py, loaded from its file."""
    import importlib.util

    spec = importlib.util.spec_from_file_location("bench_playout_rate_values",
                                                  ROOT / "benchmarks" / "bench_playout_rate_values.py")
    bench = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(bench)
    return bench


def test_the_values_at_15000_play_outs_a_second_are_quoted_from_their_file():
    """docs/agents.md quotes data/simulated/calibration_rate_check.csv (the study's positions advised
    again at the hint's rate): the rows are the published study's, with its values, and every
    figure quoted is recomputed here (the shift with its standard error over rounds, the phases,
    both calibration lines)."""
    from lcanalysis.advisor import ROLLOUTS_PER_SECOND

    d = _rate_check().ROWS_FILE.load(ROOT / "data" / "simulated" / "calibration_rate_check.csv")
    study = C.load_calibration(ROOT / "data" / "simulated" / "calibration_halving.csv").set_index(["round", "turn"])
    assert len(d) == 1000 and (d.cards_left >= 5).all() and set(d.playout_rate) == {ROLLOUTS_PER_SECOND}
    mine = study.loc[list(zip(d["round"], d["turn"]))]
    assert (mine.played_value.to_numpy() == d.value_before.to_numpy()).all()
    assert (mine.played.to_numpy() == d.played.to_numpy()).all() and (mine.realized.to_numpy() == d.realized).all()
    shift = d.value_now - d.value_before
    m = shift.mean()
    se = float(np.sqrt(((shift.groupby(d["round"]).sum() - m * d.groupby("round").size()) ** 2).sum())) / len(d)
    docs = " ".join((ROOT / "docs" / "agents.md").read_text().split())
    assert f"moves by **{m:+.2f} ± {se:.2f} points**" in docs
    by = shift.groupby(d.phase).mean()
    assert (f"{by['early (30+ cards left)']:+.2f} early, {by['middle (29-15)']:+.2f} mid-round, "
            f"{by['late (14-4)']:+.2f} late") in docs
    (b0, a0), (b1, a1) = (np.polyfit(d[c], d.realized, 1) for c in ("value_before", "value_now"))
    assert (f"from slope {b0:.3f} and intercept {a0:.2f} to slope {b1:.3f} and intercept {a1:.2f} (the mean result "
            f"minus value from {(d.realized - d.value_before).mean():.2f} to {(d.realized - d.value_now).mean():.2f})"
            ) in docs


def _today_and_published():
    """Today's study file (the advisor as it is, on whole rounds of the published study) and the
    published study's rows of the same rounds."""
    today = C.load_calibration(ROOT / "data" / "simulated" / "calibration_today.csv")
    published = C.load_calibration(ROOT / "data" / "simulated" / "calibration_halving.csv")
    return today, published[published["round"].isin(set(today["round"]))]


def test_todays_calibration_is_quoted_from_its_file():
    """docs/agents.md and the article quote data/simulated/calibration_today.csv (today's advisor on
    whole rounds of the published study): the same positions, turns played and results as the
    published study's, and every figure quoted recomputed (both fits; the paired shift of the
    value, checked here against a computation by hand)."""
    from lcanalysis.advisor import ENDGAME_CARDS, ROLLOUTS_PER_SECOND

    today, published = _today_and_published()
    identity = today.attrs["identity"]
    assert identity["playout_rate"] == ROLLOUTS_PER_SECOND and identity["endgame_cards"] == ENDGAME_CARDS
    keys = ["round", "turn", "played", "realized"]  # whole rounds: every position the published round has
    assert (today[keys].to_numpy() == published[keys].to_numpy()).all()
    docs = " ".join((ROOT / "docs" / "agents.md").read_text().split())
    cells = json.loads((ROOT / "notebooks" / "article_calibration.ipynb").read_text())["cells"]
    article = " ".join(" ".join("".join(c["source"]) for c in cells if c["cell_type"] == "markdown").split())
    a, b = C.calibration_fit(today), C.calibration_fit(published)
    shift = C.value_shift(published, today)
    # the shift by hand: today's value minus the published one, position by position; its error
    # from the rounds' sums (a round's positions share a deal and a result)
    d = today.played_value.to_numpy() - published.played_value.to_numpy()
    rounds = today["round"].to_numpy()
    sums, sizes = np.bincount(rounds, weights=d)[np.unique(rounds)], np.bincount(rounds)[np.unique(rounds)]
    k = len(sums)
    se = float(np.sqrt(((sums - d.mean() * sizes) ** 2).sum() / (k * (k - 1)))) / sizes.mean()
    assert shift.loc["whole", "shift"] == pytest.approx(d.mean())
    assert shift.loc["whole", "shift s.e."] == pytest.approx(se)
    for phase in C.PHASE_NAMES:
        assert shift.loc[phase, "shift"] == pytest.approx(d[today.phase.to_numpy() == phase].mean())
    m = shift["shift"]
    rounds = "all 3,938 rounds" if a["rounds"] == 3938 else f"{a['rounds']:,} of its 3,938 rounds"
    quoted = [f"{a['positions']:,} positions of {rounds}",
              f"slope {a['slope']:.3f} [{a['slope_low']:.3f}, {a['slope_high']:.3f}]",
              f"intercept {a['intercept']:+.2f} [{a['intercept_low']:+.2f}, {a['intercept_high']:+.2f}]",
              f"slope {b['slope']:.3f} and intercept {b['intercept']:+.2f}",
              f"{m['whole']:+.2f} ± {shift.loc['whole', 'shift s.e.']:.2f} points",
              f"{m['early (30+ cards left)']:+.2f} early, {m['middle (29-15)']:+.2f} mid-round, "
              f"{m['late (14-4)']:+.2f} late"]
    for text in quoted:
        assert text in docs.replace("**", ""), f"docs/agents.md should say {text!r}"
        assert text in article.replace("**", ""), f"the article should say {text!r}"
    assert a["slope_verdict"].startswith("met") and a["intercept_verdict"].startswith("met")
    assert f"the mean result minus value is {a['bias']:+.2f} ± {a['bias_se']:.2f} points" in docs
    by = C.calibration_by_phase(today)
    for name, words in zip(C.PHASE_NAMES, ("early", "in the middle", "late", "at the end")):
        row = by.loc[name]
        assert f"{row['slope']:.2f} [{row['slope 95% low']:.2f}, {row['slope 95% high']:.2f}]" in docs, name
        interval = f"{row['intercept']:+.1f} [{row['intercept 95% low']:+.1f}, {row['intercept 95% high']:+.1f}]"
        assert f"{interval} {words}" in docs.replace("**", ""), name


def test_two_runs_are_compared_on_the_positions_and_rounds_both_hold():
    """``same_positions`` and ``same_rounds`` (the article's before/after comparisons, which the
    notebook computed inline before)."""
    from lcanalysis.studies.calibration import same_positions, same_rounds

    first = pd.DataFrame({"round": [0, 0, 1, 2], "turn": [4, 12, 4, 4], "played": ["a", "b", "c", "d"],
                          "played_value": [1.0, 2.0, 3.0, 4.0]})
    second = pd.DataFrame({"round": [0, 2, 3], "turn": [12, 4, 4], "played": ["b", "d", "e"],
                           "played_value": [9.0, 9.0, 9.0]})
    both = same_positions(first, second)
    assert list(both.columns) == list(first.columns)
    assert sorted(zip(both["round"], both["turn"], both["played_value"])) == [(0, 12, 2.0), (2, 4, 4.0)]
    assert list(same_rounds(first, second)["played"]) == ["a", "b", "d"]
    with pytest.raises(ValueError, match="played different turns"):
        same_positions(first, second.assign(played=["x", "d", "e"]))


def test_what_the_hand_model_did_to_the_values_and_the_picks_is_quoted_from_its_files():
    """docs/agents.md ("The opponent-hand model"): the value of the turn played with the model
    against without it on the same 1,197 positions, with its standard error over rounds (a round's
    positions share a deal and a result), and the picks' check (data/simulated/hand_model_picks.csv)."""
    before, after = _published("calibration.csv"), _published("calibration_hand_model.csv")
    shift = C.value_shift(before, after).loc["whole"]
    docs = re.sub(r"\s+", " ", (ROOT / "docs" / "agents.md").read_text())
    assert f"The value of the turn played is {-shift['shift']:.1f} ± {shift['shift s.e.']:.1f} points lower" in docs
    picks = pd.read_csv(ROOT / "data" / "simulated" / "hand_model_picks.csv", comment="#")
    worth = {}
    for name, part in (("all", picks), ("differ", picks[picks.differ]), ("first 60", picks[picks["round"] < 60])):
        worth[name] = C.clustered_mean(part["difference"].to_numpy(float), part["round"].to_numpy())[:2]
    assert (f"the new top turn is worth {worth['all'][0]:+.2f} ± {worth['all'][1]:.2f} points a position more than "
            f"the old one, {worth['differ'][0]:+.2f} ± {worth['differ'][1]:.2f} where they differ") in docs
    assert f"(On the first 60 rounds alone: {worth['first 60'][0]:+.2f} ± {worth['first 60'][1]:.2f}.)" in docs


def test_a_study_another_code_wrote_is_not_resumed_unless_told(tmp_path, capsys, edit_source):
    """A study file was resumed whatever code ran: the 3,938 rounds of calibration_halving.csv were
    written in four runs, and nothing but the settings (the advisor's options) was checked, so rows
    of an advisor changed in between would have been added to the others unseen. The file keeps the
    code that wrote it now (a hash of the agents', the engine's, the round player's and the
    advisor's source and of the study's own module, the tournament's ``code_version``): an edit of
    the advisor makes a resume refuse, naming both and what to do, the file and its command as they
    were; with ``--allow-code-change`` it goes on, the change kept in the settings (which rows the
    earlier code wrote), and from then on it resumes as this code's file. An edit of how the study
    makes its rows (calibration.py) is changed code too."""
    from lcanalysis.tournaments.results import code_version

    out = tmp_path / "c.csv"
    argv = ["--rounds", "1", "--every", "12", "--time", "0.02", "--bootstrap", "20", "--no-progress", "--out", str(out)]
    assert C.main(argv) == 0
    made = code_version(C.STUDY_FILE.code[0])
    assert C.read_identity(out)["code"] == made
    rows, cmd = out.read_text(), (tmp_path / "c.csv.cmd").read_text()
    assert len(C.load_calibration(out)) == 4
    capsys.readouterr()

    edit_source("advisor/reasons.py")
    now = code_version(C.STUDY_FILE.code[0])
    assert now["source_sha256"] != made["source_sha256"]
    more = ["--rounds", "2", *argv[2:]]
    assert C.main(more) == 2
    err = " ".join(capsys.readouterr().err.split())
    assert (f"error: {out} was written by lcanalysis {made['lcanalysis']} (source {made['source_sha256']}), and this "
            f"is lcanalysis {now['lcanalysis']} (source {now['source_sha256']}): the source of the agents, the "
            "engine, the round player, the advisor or calibration.py changed since, so resuming it would add this "
            "code's rows to the other's, two versions' numbers in one file. Write to another file (this one still "
            "loads as it is), or, if the change cannot move these numbers, go on in this one with "
            "--allow-code-change (allow_code_change=True; the change is recorded in the file's settings)") in err
    assert out.read_text() == rows and (tmp_path / "c.csv.cmd").read_text() == cmd

    assert C.main([*more, "--allow-code-change"]) == 0
    assert "its rows 1 to 4 were written by" in capsys.readouterr().err
    # the command that remakes the file does not carry the override (it wrote it: a reproduction went on
    # across any later change unasked)
    assert (tmp_path / "c.csv.cmd").read_text() == "python -m lcanalysis.studies.calibration " + " ".join(more) + "\n"
    settings = C.read_identity(out)
    assert settings["code"] == now and settings["earlier_code"] == [{"code": made, "rows": 4}]
    lines, before = out.read_text().splitlines(), rows.splitlines()
    assert lines[1:len(before)] == before[1:] and len(lines) > len(before)  # the rows kept, the next round's added
    assert C.main(more) == 0  # this code's file now: resumed without being told
    n = len(C.load_calibration(out))
    edit_source("calibration.py")  # how the study makes its rows: a second change, after the first
    later = code_version(C.STUDY_FILE.code[0])
    capsys.readouterr()
    assert C.main(["--rounds", "3", *argv[2:]]) == 2
    assert "the advisor or calibration.py changed since" in " ".join(capsys.readouterr().err.split())
    assert C.main(["--rounds", "3", *argv[2:], "--allow-code"]) == 0  # (argparse takes the short form too)
    assert (f"its rows 5 to {n} were written by lcanalysis {now['lcanalysis']} (source {now['source_sha256']}), "
            f"the rows from here on by lcanalysis {later['lcanalysis']} (source {later['source_sha256']})"
            in " ".join(capsys.readouterr().err.split()))
    assert (tmp_path / "c.csv.cmd").read_text() == (
        "python -m lcanalysis.studies.calibration " + " ".join(["--rounds", "3", *argv[2:]]) + "\n")
    settings = C.read_identity(out)
    assert settings["code"] == later
    assert settings["earlier_code"] == [{"code": made, "rows": 4}, {"code": now, "rows": n}]


def test_a_published_study_still_loads_but_is_not_resumed_by_todays_code(tmp_path, capsys):
    """Files written before the code was kept name none (unversioned): they load as they are, and
    their command, run again, refuses to add today's rows to them, saying so."""
    import shlex
    import shutil

    published = ROOT / "data" / "simulated" / "calibration_halving.csv"
    copy = tmp_path / "calibration_halving.csv"
    shutil.copyfile(published, copy)
    words = shlex.split((ROOT / "data" / "simulated" / "calibration_halving.csv.cmd").read_text())
    words[words.index("--out") + 1] = str(copy)
    words[words.index("--rounds") + 1] = "3939"  # one round more than the file
    assert C.main(words[3:]) == 2
    err = " ".join(capsys.readouterr().err.split())
    assert (f"error: {copy} is unversioned (its settings name no code: it was written before the code behind its "
            "rows was kept), and this is lcanalysis") in err and "--allow-code-change" in err
    assert copy.read_bytes() == published.read_bytes()
    study = C.load_calibration(published)
    assert "code" not in study.attrs["identity"] and study["round"].nunique() == 3938


def test_a_finished_study_another_code_wrote_prints_its_summary_as_it_is(tmp_path, capsys, monkeypatch, edit_source):
    """The other studies' and the benchmarks' commands on their complete file print its summary
    whatever code wrote it (nothing to write, nothing can mix); the calibration study's was refused
    after any edit of the advisor, since it gave ``StudyFile.open`` no units (a round's positions
    follow from its length: its rows give it). Now it reads the file as it is, advising nothing,
    and prints the same summary; one round more is still refused."""
    out = tmp_path / "c.csv"
    argv = ["--rounds", "2", "--every", "12", "--time", "0.02", "--bootstrap", "20", "--no-progress", "--out", str(out)]
    assert C.main(argv) == 0
    summary = capsys.readouterr().out
    rows, cmd = out.read_bytes(), (tmp_path / "c.csv.cmd").read_text()
    assert "slope" in summary and C.load_calibration(out)["round"].nunique() == 2

    edit_source("advisor/reasons.py")
    monkeypatch.setattr(C, "advise_position", None)  # (nothing is advised: a call would fail)
    assert C.main(argv) == 0
    printed = capsys.readouterr()
    assert printed.out == summary and "error" not in printed.err
    assert out.read_bytes() == rows and (tmp_path / "c.csv.cmd").read_text() == cmd
    assert C.main(["--rounds", "3", *argv[2:]]) == 2  # a round more: work left, refused as before
    assert f"error: {out} was written by lcanalysis" in " ".join(capsys.readouterr().err.split())
    assert out.read_bytes() == rows and (tmp_path / "c.csv.cmd").read_text() == cmd


def test_a_round_whose_positions_are_all_in_the_file_is_not_played_again(tmp_path, capsys, monkeypatch):
    """A run on a file replayed every round of it to find the positions it had to advise, though
    the file's rows say how long each round lasted: the published command of the 3,938-round file
    played them all (minutes) to print its summary. Now only the rounds missing from the file are
    played (and one whose last row a kill tore), and the file is the same."""
    out = tmp_path / "c.csv"
    argv = ["--rounds", "2", "--every", "12", "--time", "0.02", "--bootstrap", "20", "--out", str(out)]
    assert C.main(argv) == 0
    summary = capsys.readouterr().out
    real, played = C.play_calibration_round, []
    monkeypatch.setattr(C, "play_calibration_round", lambda k, *a: played.append(k) or real(k, *a))
    assert C.main(argv) == 0
    printed = capsys.readouterr()
    assert played == [] and printed.out == summary
    assert "round 2/2: 0 position(s) advised, 4 already in the file" in printed.err
    whole = C.load_calibration(out)
    assert C.main(["--rounds", "3", *argv[2:]]) == 0  # one round more: that round alone is played
    assert played == [2]
    pd.testing.assert_frame_equal(C.load_calibration(out).head(len(whole)), whole)
    extended = C.load_calibration(out).drop(columns="cpu_seconds")
    lines = out.read_text().splitlines(keepends=True)
    out.write_text("".join(lines[:-1]) + lines[-1][:9])  # its last row torn by a kill
    played.clear()
    assert C.main(["--rounds", "3", *argv[2:]]) == 0
    assert played == [2]  # (the torn row's round: the others are whole in the file)
    pd.testing.assert_frame_equal(C.load_calibration(out).drop(columns="cpu_seconds"), extended)


def test_the_summary_at_the_top_of_the_agents_page_quotes_todays_calibration_from_its_file():
    """docs/agents.md's "Today, in short" gives the calibration of data/simulated/calibration_today.csv:
    the positions and rounds, the slope and intercept with their intervals, and the late intercept."""
    page = (ROOT / "docs" / "agents.md").read_text()
    rest = page[page.index("## Today, in short"):]
    summary = re.sub(r"\s+", " ", rest[:rest.index("\n## ", 1)])
    today = C.load_calibration(ROOT / "data" / "simulated" / "calibration_today.csv")
    a = C.calibration_fit(today)
    assert a["slope_verdict"].startswith("met") and a["intercept_verdict"].startswith("met")
    assert f"on {a['positions']:,} positions of {a['rounds']:,} rounds" in summary
    assert (f"slope {a['slope']:.3f} [{a['slope_low']:.3f}, {a['slope_high']:.3f}] and intercept "
            f"{a['intercept']:+.2f} [{a['intercept_low']:+.2f}, {a['intercept_high']:+.2f}] (both targets met)"
            ) in summary
    late = C.calibration_by_phase(today).loc["late (14-4)"]
    assert late["intercept 95% high"] < 0
    assert (f"the intercept is {late['intercept']:+.1f} [{late['intercept 95% low']:+.1f}, "
            f"{late['intercept 95% high']:+.1f}], the values about {-late['intercept']:.1f} points above") in summary


def test_the_phase_table_and_the_fits_table_set_runs_side_by_side():
    """What the calibration article compares runs by (it selected the columns and stacked the
    tables itself, three times over): each phase's fit, slope and intercept with their 95%
    intervals and the bias, for one study or for named studies one above the other."""
    before, after = _synthetic(rounds=20, per_round=8, seed=1), _synthetic(rounds=20, per_round=8, slope=1.0, seed=2)
    one = C.phase_table(before, samples=50)
    assert list(one.columns) == ["positions", "slope", "slope 95% low", "slope 95% high", "intercept",
                                 "intercept 95% low", "intercept 95% high", "bias", "bias s.e."]
    assert list(one.index) == C.PHASE_NAMES + ["whole round"]
    both = C.phase_table({"before": before, "after": after}, samples=50)
    assert list(both.index.get_level_values(0).unique()) == ["before", "after"]
    for name, study in (("before", before), ("after", after)):
        late = study[study.phase == "late (14-4)"]
        b, a = np.polyfit(late.played_value, late.realized, 1)
        row = both.loc[(name, "late (14-4)")]
        assert (row["slope"], row["intercept"]) == pytest.approx((b, a))
        assert row["bias"] == pytest.approx((late.realized - late.played_value).mean())
        assert both.loc[(name, "whole round"), "positions"] == len(study) == 160
    fits = {"before": C.calibration_fit(before, samples=50), "after": C.calibration_fit(after, samples=50)}
    table = C.fits_table(fits)
    assert list(table.index) == [("before", "slope"), ("before", "intercept"),
                                 ("after", "slope"), ("after", "intercept")]
    slope = np.polyfit(after.played_value, after.realized, 1)[0]
    assert table.loc[("after", "slope"), "estimate"] == pytest.approx(slope)
    assert table.loc[("before", "intercept"), "verdict"] == fits["before"]["intercept_verdict"]
    for bad in ({}, None, [before]):
        with pytest.raises(ValueError, match="phase_table: give a study"):
            C.phase_table(bad)
        with pytest.raises(ValueError, match="fits_table: give a dict of named fits"):
            C.fits_table(bad)


def test_the_advisors_play_out_policy_is_the_studys_setting_and_a_resume_with_another_is_refused(tmp_path, capsys):
    """The study passes ``--playout-policy`` to the advisor, keeps it in the file's settings, and refuses to
    mix the values of two play-out policies in one file; a file made before the choice reads as "plain"."""
    from lcanalysis.advisor import advise

    out = tmp_path / "c.csv"
    argv = ["--rounds", "1", "--every", "12", "--time", "0.02", "--bootstrap", "50", "--out", str(out)]
    assert C.main([*argv, "--playout-policy", "stalling"]) == 0
    df = C.load_calibration(out)
    assert df.attrs["identity"]["playout_policy"] == "stalling"
    row = df.iloc[0]
    view = read_position(row["view"])
    mine = advise(view, time_budget=0.02, seed=int(row["advisor_seed"]), playout_policy="stalling")
    assert float(row["played_value"]) == pytest.approx(next(m.value for m in mine.moves if m.move == row["played"]))
    capsys.readouterr()
    assert C.main([*argv, "--playout-policy", "plain"]) == 2
    assert "other settings (playout_policy: 'stalling' there, 'plain' here)" in capsys.readouterr().err
    assert C.main(argv) == 2  # the default is the plain policy
    assert C.STUDY_FILE.defaults["playout_policy"] == "plain"
