"""The functions behind the notebooks: estimates, decision analysis, simulations, tables, data files."""

from __future__ import annotations

import math
import re
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

import lcanalysis as lc
from lcanalysis.game.examples import example_text
from lcanalysis.game.notation import read_position
from lcanalysis.game.position import Position, PositionError
from lcanalysis.game.rules import expedition_score
from lcanalysis.studies import data, estimate, explorer, first_player, opening, stalling
from lcanalysis.wagers import models, simulation

MIDROUND = example_text("midround")
DATA = Path(__file__).resolve().parent.parent / "data"


def test_estimate_gives_mean_standard_error_and_interval():
    e = estimate.Estimate.of([1.0, 2.0, 3.0, 4.0])
    assert e.mean == 2.5 and e.n == 4
    assert e.stderr == pytest.approx(np.std([1, 2, 3, 4], ddof=1) / 2)
    t3 = 3.182  # Student's t, 3 degrees of freedom, 97.5% (a printed table's value): 4 samples, not ± 1.96
    assert e.ci95 == pytest.approx((2.5 - t3 * e.stderr, 2.5 + t3 * e.stderr), rel=1e-3)
    p = estimate.Estimate.proportion([True, False, True, True])
    assert p.mean == 0.75 and p.stderr == pytest.approx(math.sqrt(0.75 * 0.25 / 4))
    assert "±" in str(e) and f"{e:.1f}" == "2.5 ± 0.6"
    frame = estimate.estimates_frame({"x": e})
    assert frame.loc["x", "n"] == 4


def test_rollout_analysis_ranks_every_legal_turn_with_a_standard_error_and_is_repeatable():
    view = read_position(MIDROUND)
    a = explorer.rollout_analysis(view, worlds=12, seed=3)
    assert sorted(m.move for m in a.moves) == sorted(str(m) for m in explorer.legal_moves(view))
    assert not a.exact and all(m.stderr > 0 and not m.exact for m in a.moves)
    assert all(len(m.extra["samples"]) == 12 and m.value == pytest.approx(np.mean(m.extra["samples"]))
               for m in a.moves)
    b = explorer.rollout_analysis(view, worlds=12, seed=3)
    assert [(m.move, m.value) for m in a.moves] == [(m.move, m.value) for m in b.moves]
    # common random numbers: one turn's outcomes equal its row in the ranked analysis
    best = a.moves[0]
    assert np.array_equal(explorer.move_outcomes(view, best.move, worlds=12, seed=3), best.extra["samples"])


def test_a_full_position_is_analyzed_from_the_movers_view():
    pos = read_position(example_text("endgame"))
    a = explorer.rollout_analysis(pos, worlds=4)
    assert {m.move for m in a.moves} == {str(m) for m in pos.legal_moves()}


def test_analysis_refuses_bad_questions_with_a_clear_message():
    view = read_position(MIDROUND)
    with pytest.raises(PositionError, match="not legal here"):
        explorer.move_outcomes(view, "+Y2/D", worlds=4)
    other = Position.deal(seed=1).view(1)  # player 0 is to move
    with pytest.raises(PositionError, match="only the player to move"):
        explorer.analyze(other)
    with pytest.raises(ValueError, match="worlds must be a whole number from 2"):
        explorer.rollout_analysis(view, worlds=1)


def test_swapped_deal_exchanges_the_hands_and_keeps_the_pile():
    pos = Position.deal(seed=5)
    sw = first_player.swapped(pos)
    assert sw.hand(0) == pos.hand(1) and sw.hand(1) == pos.hand(0) and sw.deck == pos.deck
    assert sw.to_move == pos.to_move == 0


def test_first_player_rounds_play_each_deal_twice_with_the_hands_swapped():
    rounds = first_player.first_player_rounds(deals=6, seed=2)
    assert len(rounds) == 6
    assert (rounds["diff_a"] == rounds["starter_a"] - rounds["other_a"]).all()
    assert (rounds["starter_edge"] == (rounds["diff_a"] + rounds["diff_b"]) / 2).all()
    # the scores are real round scores: in range for five expeditions each
    assert rounds[["starter_a", "other_a", "starter_b", "other_b"]].abs().max().max() <= 5 * 156
    summary = first_player.first_player_summary(rounds)
    assert summary["edge (points per round)"].mean == pytest.approx(rounds["starter_edge"].mean())
    assert summary["starter wins the round"].n == 6  # deals: the two playings of a deal are one sample
    assert first_player.first_player_rounds(deals=6, seed=2).equals(rounds)  # repeatable



def test_the_starters_chance_to_win_a_round_has_its_standard_error_over_deals_worked_by_hand():
    """The two playings of a duplicate deal share its cards: the starter's share of rounds won had
    the binomial standard error of 8 independent rounds, sqrt(0.5 * 0.5 / 8) = 0.176777. Four deals,
    the starter's score difference (10, -5), (3, 7), (-2, -8), (0, 4): won 1-0, 1-1, 0-0, 0-1, deal
    shares 0.5, 1, 0, 0.5, mean 0.5, sample variance (0 + 0.25 + 0.25 + 0) / 3, standard error
    sqrt(0.5 / 3 / 4) = 0.204124; drawn 0, 0, 0, 1/2 of a deal's rounds: standard error sqrt(0.0625 / 4)."""
    from lcanalysis.tournaments.stats import unit_rate_interval

    a, b = [10, 3, -2, 0], [-5, 7, -8, 4]
    rounds = pd.DataFrame({"deal": range(4), "starter_a": [0] * 4, "other_a": [0] * 4, "starter_b": [0] * 4,
                           "other_b": [0] * 4, "diff_a": a, "diff_b": b,
                           "starter_edge": [(x + y) / 2 for x, y in zip(a, b)]})
    summary = first_player.first_player_summary(rounds)
    won = summary["starter wins the round"]
    assert (won.mean, won.n) == (0.5, 4) and won.stderr == pytest.approx(0.204124, abs=1e-6)
    assert won.ci95 == unit_rate_interval([1, 1, 0, 0, 0, 1, 0, 1], [0, 1, 2, 3] * 2)
    drawn = summary["round is drawn"]
    assert drawn.mean == 0.125 and drawn.stderr == pytest.approx(0.125, abs=1e-9)

def test_matches_follow_the_leader_starts_rule():
    m = first_player.simulate_matches(matches=12, seed=1)
    for _, r in m.iterrows():
        assert r["starter_1"] == 0
        if r["first_round_diff"] != 0:
            assert r["starter_2"] == (0 if r["first_round_diff"] > 0 else 1)
        a, b = r["total_0"], r["total_1"]
        assert r["winner"] == (-1 if a == b else (0 if a > b else 1))
    s = first_player.match_summary(m)
    assert s["round-1 starter wins the match"].mean == pytest.approx((m["winner"] == 0).mean())


def test_simulated_colours_record_what_each_colour_scored():
    c = opening.simulated_colours(rounds=8, seed=0)
    assert len(c) == 8 * 5 and (c.groupby("round").size() == 5).all()
    assert (c.loc[~c["opened"], "final"] == 0).all()
    assert (c["held_sum"] >= 0).all() and (c["held_numbers"] <= 8).all()
    table = opening.value_by_held_sum(c)
    assert table["colours"].sum() == len(c)
    assert opening.score_by_colours_opened(c)["rounds"].sum() == 8


def test_the_wager_models_check_shows_its_progress_when_asked_and_the_same_table(capsys, monkeypatch):
    """The notebook's live check takes tens of seconds at its small size (hours published): with
    ``progress=True`` a bar counts the expeditions predicted (once they have taken ``PROGRESS_DELAY``:
    0 here, for this small size); the table is the same either way."""
    from lcanalysis import progress

    monkeypatch.setattr(progress, "PROGRESS_DELAY", 0.0)
    quiet = opening.wager_models_vs_play(rounds=30, snap_turn=10, seed=0, n_mc=20)
    assert capsys.readouterr().err == ""
    shown = opening.wager_models_vs_play(rounds=30, snap_turn=10, seed=0, n_mc=20, progress=True)
    err = capsys.readouterr().err
    rows = int(quiet["rows"].iloc[0])
    assert "expeditions" in err and f"{rows}/{rows}" in err
    pd.testing.assert_frame_equal(quiet, shown)

def test_studies_data_shows_a_bar_for_each_simulation_and_the_same_files(tmp_path, capsys, monkeypatch):
    """``lcanalysis studies data`` ran the first-player rounds, the matches and the colours (about
    15 s, 5 s and 90 s at the published sizes, here) with nothing on the screen; now each counts on
    standard error (once it has taken ``PROGRESS_DELAY``: 0 here, at these tiny sizes), and the files
    are those of the quiet library calls."""
    from lcanalysis import progress

    monkeypatch.setattr(progress, "PROGRESS_DELAY", 0.0)
    data.write_data(str(tmp_path), only=["first_player_rounds", "matches", "colours"], deals=3, matches=2,
                    rounds=4, seed=1)
    err = capsys.readouterr().err
    assert "duplicate deals" in err and "3/3" in err
    assert "matches" in err and "2/2" in err
    assert "simulated rounds" in err and "4/4" in err
    sim = tmp_path / "simulated"
    pd.testing.assert_frame_equal(pd.read_csv(sim / "first_player_rounds.csv"),
                                  first_player.first_player_rounds(deals=3, seed=1))
    pd.testing.assert_frame_equal(pd.read_csv(sim / "matches.csv"), first_player.simulate_matches(matches=2, seed=1))
    pd.testing.assert_frame_equal(pd.read_csv(sim / "colours.csv"), opening.simulated_colours(rounds=4, seed=1),
                                  check_dtype=False)
    assert capsys.readouterr().err == ""  # the library is quiet unless asked


def test_linear_fit_recovers_a_known_line_with_standard_errors():
    rng = np.random.default_rng(0)
    x = rng.uniform(0, 30, 400)
    y = 4 + 0.4 * x + rng.normal(0, 2, 400)
    fit = opening.linear_fit(x, y)
    assert abs(fit["intercept"].mean - 4) < 3 * fit["intercept"].stderr
    assert abs(fit["slope"].mean - 0.4) < 3 * fit["slope"].stderr
    assert fit["residual_sd"] == pytest.approx(2, rel=0.15)


def test_a_fitted_lines_coefficients_have_students_t_intervals_with_two_degrees_of_freedom_spent():
    """A line fitted to n points leaves n - 2 degrees of freedom: each coefficient's 95% interval is
    Student's t with n - 2 (scipy's linregress for the standard errors), while ``n`` stays the points."""
    from scipy import stats as st

    x = np.array([0.0, 1.0, 2.0, 3.0, 4.0, 5.0])
    y = np.array([1.1, 2.9, 5.2, 6.8, 9.3, 10.7])
    fit = opening.linear_fit(x, y)
    ref = st.linregress(x, y)
    t4 = st.t.ppf(0.975, 4)
    assert fit["slope"].n == fit["intercept"].n == 6
    assert fit["slope"].ci95 == pytest.approx((ref.slope - t4 * ref.stderr, ref.slope + t4 * ref.stderr))
    assert fit["intercept"].ci95 == pytest.approx((ref.intercept - t4 * ref.intercept_stderr,
                                                   ref.intercept + t4 * ref.intercept_stderr))


def test_opening_table_matches_hand_arithmetic():
    t = opening.opening_table(held=[(9, 10), (7, 8, 9, 10)], draws=[0, 6])
    at0 = t[t["draws"] == 0].set_index("held")
    assert at0.loc["9 10", "mean"] == pytest.approx(expedition_score([]) + 19 - 20)
    assert at0.loc["7 8 9 10", "mean"] == pytest.approx(14)
    assert at0.loc["9 10", "p_break_even"] == 0 and at0.loc["7 8 9 10", "p_break_even"] == 1
    assert (t["p_break_even"].between(0, 1)).all()


def test_opening_table_with_draws_left_in_a_round_counts_2k_plus_10_unseen_cards():
    """A lone 10 with k draws left in a round: the 8 other numbers among 2k + 10 unseen cards, so
    the mean is 10 + 44 k / (2k + 10) - 20 (no bonus within reach): -10, -2/9, +1 at 0, 4, 5 draws;
    of the deal's 52 cards, 5 draws give 10 + 44 * 5/52 - 20 < 0."""
    t = opening.opening_table(held=[(10,)], draws=[0, 4, 5], unseen_total="round")
    assert t["unseen"].tolist() == [10, 18, 20]
    assert t["mean"].tolist() == pytest.approx([-10, -2 / 9, 1], abs=1e-12)
    deal = opening.opening_table(held=[(10,)], draws=[5])
    assert deal["unseen"].tolist() == [52] and deal["mean"].iloc[0] == pytest.approx(10 + 44 * 5 / 52 - 20)
    with pytest.raises(ValueError, match=r"unseen_total must be a number of unseen cards or 'round'.*got 'rnd'"):
        opening.opening_table(held=[(10,)], draws=[1], unseen_total="rnd")
    with pytest.raises(ValueError, match=r"draws must be a whole number 0\.\.52 .*got 2\.5"):  # not a pool's error
        opening.opening_table(held=[(10,)], draws=[2.5], unseen_total="round")


def test_wager_grid_values_are_the_difference_of_means():
    g = opening.wager_grid(draws=[0, 10], sums=[15, 24])
    assert (g["wager_value"] == g["mean_1"] - g["mean_0"]).all()
    none = g[g["draws"] == 0].set_index("sum")
    assert none.loc[24, "mean_0"] == pytest.approx(4) and none.loc[24, "mean_3"] == pytest.approx(16)
    assert opening.holding_with_sum(3, 24) == [7, 8, 9] and opening.holding_with_sum(3, 5) is None



@pytest.mark.parametrize("table", ["opening_table", "wager_grid"])
def test_a_number_of_draws_that_is_no_whole_number_is_refused_not_rounded_down(table):
    """``wager_grid(draws=[2.5], ...)`` gave the rows of 2 draws, labelled 2: ``int(2.5)``."""
    from lcanalysis.wagers.canonical import DrawsOutOfRangeError

    ask = {"opening_table": lambda d: opening.opening_table(held=[(9, 10)], draws=d),
           "wager_grid": lambda d: opening.wager_grid(draws=d, sums=[19])}[table]
    with pytest.raises(DrawsOutOfRangeError, match=r"draws must be a whole number 0\.\.52 .*got 2\.5"):
        ask([2.5])
    # numpy's integers are whole numbers: numbers summing to 19 held (9 10; the grid's three), one draw of
    # 52 unseen cards, among them every other number of the colour (54 - 19 = 35 points), all live: no
    # wager, 19 + 35/52 - 20
    row = ask(np.arange(1, 2)).iloc[0]
    assert row["draws"] == 1
    assert row["mean" if table == "opening_table" else "mean_0"] == pytest.approx(19 + 35 / 52 - 20, abs=1e-12)


def test_a_wager_grid_of_a_sum_no_holding_makes_is_refused_naming_the_sums_there_are():
    """``wager_grid(draws=[0], sums=[5])`` gave an empty table, and ``sums=[5, 15]`` only the row of 15:
    a sum no holding of that many numbers makes was left out without a word."""
    with pytest.raises(ValueError, match=r"no 3 distinct numbers of 2\.\.10 add up to 5 \(3 add up to 9\.\.27\)"):
        opening.wager_grid(draws=[0], sums=[15, 5])
    with pytest.raises(ValueError, match=r"no 10 distinct numbers of 2\.\.10 add up to 54 \(a colour has 9 numbers\)"):
        opening.wager_grid(draws=[0], sums=[54], cards=10)
    # the sums there are: 2 + 3 + 4 = 9 and 8 + 9 + 10 = 27, scoring -11 and +7 with no draw, by hand
    assert opening.wager_grid(draws=[0], sums=[9, 27])["mean_0"].tolist() == [-11, 7]

def test_the_stored_wager_grid_counts_draws_left_in_a_round_as_a_brute_force_count_does():
    """The notebook's Figures 3-4 are about draws left in a round: each column's k draws come from the
    2k + 10 unseen cards of that point of a round. One cell checked by hand: 5 6 7 held (sum 18) with
    3 wagers, 4 draws left, 18 unseen cards: the colour's other numbers 2 3 4 8 9 10 and 12 cards of
    other colours, every 4 of the 18 equally likely; every number held or drawn is played."""
    from itertools import combinations

    stored = pd.read_csv(DATA / "tables" / "wager_grid.csv")
    assert (stored["unseen"] == 2 * stored["draws"] + 10).all()
    assert sorted(set(stored["draws"])) == [*range(0, 21, 2), 21]  # 21 draws left: the deal, 52 unseen
    cell = stored[(stored["sum"] == 18) & (stored["draws"] == 4)].iloc[0]
    assert (cell["held"], cell["unseen"]) == ("5 6 7", 18)
    pool = [2, 3, 4, 8, 9, 10] + [0] * 12
    scores: dict[int, list[int]] = {0: [], 3: []}
    for drawn in combinations(range(len(pool)), 4):
        got = [pool[i] for i in drawn if pool[i]]
        total, cards = 18 + sum(got), 3 + len(got)
        for w in scores:  # (sum - 20) x (1 + wagers), 20 more for eight cards, wagers counted
            scores[w].append((total - 20) * (1 + w) + (20 if cards + w >= 8 else 0))
    mean0, mean3 = np.mean(scores[0]), np.mean(scores[3])
    assert cell["mean_0"] == pytest.approx(mean0, abs=5e-5) and cell["mean_3"] == pytest.approx(mean3, abs=5e-5)
    assert cell["p_break_even_0"] == pytest.approx(np.mean(np.array(scores[0]) >= 0), abs=5e-5)
    # the function's own numbers, not rounded to the table's 4 decimals; the deal's 52 (the default) differ
    fresh = opening.wager_grid(draws=[4], sums=[18], unseen_total="round").iloc[0]
    assert (fresh["unseen"], fresh["mean_0"], fresh["mean_3"]) == (18, pytest.approx(mean0), pytest.approx(mean3))
    deal = opening.wager_grid(draws=[4], sums=[18]).iloc[0]
    assert deal["unseen"] == 52 and deal["mean_0"] == pytest.approx(18 + 4 * 36 / 52 - 20)
    with pytest.raises(ValueError, match=r"unseen_total must be a number of unseen cards or 'round'.*got 'rnd'"):
        opening.wager_grid(draws=[4], sums=[18], unseen_total="rnd")


def test_the_stored_wager_grid_is_what_the_function_computes(tmp_path):
    written = data.write_data(str(tmp_path), only=["wager_grid", "positions"])
    fresh = pd.read_csv(tmp_path / "tables" / "wager_grid.csv")
    stored = pd.read_csv(DATA / "tables" / "wager_grid.csv")
    pd.testing.assert_frame_equal(fresh, stored)
    for path in written:
        assert Path(path + ".cmd").read_text().startswith("lcanalysis studies data")
    assert read_position(str(tmp_path / "positions" / "midround.json")) == read_position(MIDROUND)


def test_a_data_files_sidecar_names_the_sizes_and_seed_it_was_made_with(tmp_path):
    """A small or reseeded run's ``.cmd`` gave the published command (``--deals 20000``) for a file
    of 3 deals; now it is the command that remakes that very file."""
    import shlex

    from lcanalysis.cli import main

    first = tmp_path / "first"
    data.write_data(str(first), only=["first_player_rounds", "matches"], deals=3, matches=2, seed=1)
    command = (first / "simulated" / "first_player_rounds.csv.cmd").read_text().strip()
    assert command == f"lcanalysis studies data --only first_player_rounds --deals 3 --seed 1 --root {first}"
    assert (first / "simulated" / "matches.csv.cmd").read_text().strip() == (
        f"lcanalysis studies data --only matches --matches 2 --seed 1 --root {first}")
    again = tmp_path / "again"
    argv = shlex.split(command)[1:]
    argv[argv.index("--root") + 1] = str(again)
    assert main(argv) == 0
    assert (again / "simulated" / "first_player_rounds.csv").read_text() == (
        first / "simulated" / "first_player_rounds.csv").read_text()
    # the published sizes (the defaults) give the commands the shipped sidecars hold
    assert all(data.data_command(key) == command for key, command in data.DATA_COMMANDS.items())


def test_a_stopped_stalling_study_resumes_where_it_stopped_and_writes_the_same_file(tmp_path, monkeypatch, capsys):
    """``lcanalysis studies data --only stalling`` solves 880 endgames exactly (minutes); Ctrl-C lost
    every one, silently. Now the solved ones are kept, the same command solves only the others, and
    the file is the one an unbroken run writes."""
    from lcanalysis.cli import main

    fresh = tmp_path / "fresh"
    data.write_data(str(fresh), only=["stalling"], positions=5)  # 5, 5 and 1 endgames
    real, solved = stalling.stall_values, []

    def stopped_after_four(position):
        if len(solved) == 4:
            raise KeyboardInterrupt
        solved.append(position)
        return real(position)

    monkeypatch.setattr(stalling, "stall_values", stopped_after_four)
    again = tmp_path / "again"
    command = ["studies", "data", "--only", "stalling", "--positions", "5", "--root", str(again)]
    assert main(command) == 130
    kept = again / "simulated" / "stalling.csv.partial"
    err = capsys.readouterr().err
    assert f"stopped: the rows made so far are kept in {kept}; run the same command again" in err
    assert kept.exists() and not (again / "simulated" / "stalling.csv").exists()
    # another size is refused naming the kept file, which stays
    assert main(command[:-3] + ["6", "--root", str(again)]) == 2
    assert f"{kept} holds the rows of a stopped run with other settings" in capsys.readouterr().err
    solved.clear()
    monkeypatch.setattr(stalling, "stall_values", lambda position: solved.append(position) or real(position))
    assert main(command) == 0
    assert len(solved) == 11 - 4  # only the endgames missing from the kept file
    assert not kept.exists()
    assert (again / "simulated" / "stalling.csv").read_text() == (fresh / "simulated" / "stalling.csv").read_text()


@pytest.fixture
def ctrl_c_raises():
    """Ctrl-C raises KeyboardInterrupt, as at a terminal, for the test's length: an xdist worker ignores
    it (a test that sent it passed only where another module, test_budgets, had turned it back on)."""
    import signal

    old = signal.signal(signal.SIGINT, signal.default_int_handler)
    yield
    signal.signal(signal.SIGINT, old)


@pytest.mark.parametrize(("part", "sizes", "file", "module", "name", "per_unit"), [
    ("first_player_rounds", ["--deals", "6"], "first_player_rounds.csv", first_player, "_play_out", 2),
    ("matches", ["--matches", "5"], "matches.csv", first_player, "_play_out", 3),
    ("colours", ["--rounds", "6"], "colours.csv", simulation, "snapshot_round", 1),
    ("wager_models", ["--rounds", "30", "--mc", "20"], "wager_models_vs_play.csv", models, "turn_model", 3),
])
def test_a_stopped_simulation_of_studies_data_resumes_and_writes_the_file_an_unbroken_run_writes(
        tmp_path, monkeypatch, capsys, ctrl_c_raises, part, sizes, file, module, name, per_unit):
    """``lcanalysis studies data`` stopped by Ctrl-C (a real SIGINT, part-way through a unit of
    work) lost the whole simulation (up to 90 s each at the published sizes): 'the file being made
    is not written'. Now the units done are kept in FILE.partial, the same command does only the
    others, and the file is byte for byte the one an unbroken run writes."""
    import os
    import signal

    from lcanalysis.cli import main

    real, calls, stop_at = getattr(module, name), [], [0]

    def counted(*args, **kwargs):
        calls.append(1)
        if len(calls) == stop_at[0]:
            os.kill(os.getpid(), signal.SIGINT)  # Ctrl-C, in the middle of a unit of work
        return real(*args, **kwargs)

    monkeypatch.setattr(module, name, counted)
    command = ["studies", "data", "--only", part, *sizes]
    assert main([*command, "--root", str(tmp_path / "fresh")]) == 0
    unbroken, units = (tmp_path / "fresh" / "simulated" / file).read_bytes(), len(calls) // per_unit
    assert units >= 4 and not (tmp_path / "fresh" / "simulated" / f"{file}.partial").exists()
    capsys.readouterr()

    calls.clear()
    done = units // 2
    stop_at[0] = per_unit * done + 1  # the first call of the unit after ``done`` whole ones
    again = [*command, "--root", str(tmp_path / "again")]
    assert main(again) == 130
    kept, made = tmp_path / "again" / "simulated" / f"{file}.partial", tmp_path / "again" / "simulated" / file
    assert f"stopped: the rows made so far are kept in {kept}; run the same command again" in capsys.readouterr().err
    assert not made.exists()
    kept_units = {line.split(",")[0] for line in kept.read_text().splitlines()[2:]}
    assert len(kept_units) == done  # every unit done before the interrupt, none after

    calls.clear()
    stop_at[0] = 0
    assert main(again) == 0
    redone = 1 if part == "colours" else 0  # (a unit of several rows, the last kept is done again: it may be cut)
    assert len(calls) == per_unit * (units - done + redone)  # only the units missing from the kept file
    assert made.read_bytes() == unbroken and not kept.exists()


@pytest.mark.parametrize(("part", "sizes", "file", "module", "name", "source"), [
    ("first_player_rounds", ["--deals", "6"], "first_player_rounds.csv", first_player, "_play_out", "first_player.py"),
    ("matches", ["--matches", "5"], "matches.csv", first_player, "_play_out", "first_player.py"),
    ("colours", ["--rounds", "6"], "colours.csv", simulation, "snapshot_round", "opening.py"),
    ("wager_models", ["--rounds", "30", "--mc", "20"], "wager_models_vs_play.csv", models, "turn_model", "opening.py"),
])
def test_the_rows_a_stopped_simulation_kept_are_not_resumed_by_other_code_unless_told(
        tmp_path, monkeypatch, capsys, edit_source, part, sizes, file, module, name, source):
    """The rows a stopped ``studies data`` simulation keeps (FILE.partial) named no code: stopped,
    the study (or the engine) edited, and run again, it added the new code's rows to the old
    one's, one file of both, silently. The kept file names the code now (the play's, and the
    wager models' for the colours and the models, and the study's module) as the studies' files
    do: other code's kept rows are refused before anything is made, naming the module; with
    --allow-code-change the run goes on, writes the file an unbroken run writes (a change that
    cannot move the numbers) and records the codes beside it (FILE.earlier_code.json), not in its
    command; a run by one code removes that record."""
    import json

    from lcanalysis.cli import main

    real, calls, stop_at = getattr(module, name), [], [0]

    def counted(*args, **kwargs):
        calls.append(1)
        if len(calls) == stop_at[0]:
            raise KeyboardInterrupt
        return real(*args, **kwargs)

    monkeypatch.setattr(module, name, counted)
    command = ["studies", "data", "--only", part, *sizes]
    assert main([*command, "--root", str(tmp_path / "fresh")]) == 0
    unbroken = (tmp_path / "fresh" / "simulated" / file).read_bytes()
    calls, stop_at[0] = [], len(calls) // 2 + 1
    again = [*command, "--root", str(tmp_path / "again")]
    assert main(again) == 130
    simulated = tmp_path / "again" / "simulated"
    kept, made, record = simulated / f"{file}.partial", simulated / file, simulated / f"{file}.earlier_code.json"
    lines = kept.read_text().splitlines()
    settings = json.loads(lines[0][lines[0].index("{"):])
    assert len(lines) > 2 and settings["code"]["source_sha256"]  # rows kept, and the code that made them

    edit_source(source)
    capsys.readouterr()
    calls.clear()
    stop_at[0] = 0
    assert main(again) == 2
    err = " ".join(capsys.readouterr().err.split())
    assert (f"error: {kept} holds the rows of a stopped run by other code: it was written by lcanalysis "
            f"{settings['code']['lcanalysis']} (source {settings['code']['source_sha256']}), and this is") in err
    assert f"or {source} changed since" in err and "go on with --allow-code-change" in err
    assert calls == [] and kept.read_text().splitlines() == lines and not made.exists()

    assert main([*again, "--allow-code-change"]) == 0
    assert made.read_bytes() == unbroken and not kept.exists()
    mixed = json.loads(record.read_text())
    assert mixed["code"]["source_sha256"] != settings["code"]["source_sha256"]
    [earlier] = mixed["earlier_code"]
    assert earlier["code"] == settings["code"] and 0 < earlier["rows"] <= len(lines) - 2
    assert "allow" not in (simulated / f"{file}.cmd").read_text()  # the command that remakes it: no override
    assert main(again) == 0  # one code made it all: no record
    assert made.read_bytes() == unbroken and not record.exists()


def test_studies_data_stopped_part_way_keeps_the_files_it_finished_and_makes_only_the_rest(
        tmp_path, monkeypatch, capsys, edit_source):
    """``lcanalysis studies data`` stopped (Ctrl-C) in its second simulation, then run again, played
    the first one again from its first deal, though its file was written and current. A file is
    written with a record of the settings and the code its rows were made with (FILE.made.json):
    the same command keeps it, saying so, and makes only the files not finished; other settings,
    other code or a changed file make it again."""
    import os

    from lcanalysis.cli import main

    real, calls, stop_at = first_player._play_out, [], [0]

    def counted(*args, **kwargs):
        calls.append(1)
        if len(calls) == stop_at[0]:
            raise KeyboardInterrupt
        return real(*args, **kwargs)

    monkeypatch.setattr(first_player, "_play_out", counted)
    root = tmp_path / "data"
    simulated = root / "simulated"
    command = ["studies", "data", "--only", "first_player_rounds", "matches", "--deals", "4", "--matches", "4",
               "--root", str(root)]
    assert main([*command[:-2], "--root", str(tmp_path / "unbroken")]) == 0
    unbroken = {name: (tmp_path / "unbroken" / "simulated" / name).read_bytes()
                for name in ("first_player_rounds.csv", "matches.csv")}
    assert len(calls) == 4 * 2 + 4 * 3  # two playings a deal, three rounds a match
    calls.clear()
    stop_at[0] = 4 * 2 + 2 * 3 + 1  # in the third match
    assert main(command) == 130
    rounds = simulated / "first_player_rounds.csv"
    assert rounds.read_bytes() == unbroken["first_player_rounds.csv"] and not (simulated / "matches.csv").exists()
    written = os.stat(rounds).st_mtime_ns
    capsys.readouterr()

    calls.clear()
    stop_at[0] = 0
    assert main(command) == 0
    assert len(calls) == 2 * 3  # the two matches not kept, and not the four deals again
    assert f"kept: {rounds}, finished" in capsys.readouterr().err
    assert os.stat(rounds).st_mtime_ns == written
    assert {name: (simulated / name).read_bytes() for name in unbroken} == unbroken
    assert main(command) == 0 and calls == [1] * 6  # both finished: nothing made

    assert main([*command, "--seed", "1"]) == 0 and len(calls) == 6 + 20  # other settings: made again
    calls.clear()
    assert main(command) == 0 and len(calls) == 20
    calls.clear()
    edit_source("first_player.py")  # other code: made again
    assert main(command) == 0 and len(calls) == 20
    calls.clear()
    rounds.write_text(rounds.read_text().replace("\n1,", "\n1,9", 1))  # a changed file: made again
    assert main(command) == 0 and len(calls) == 8
    assert {name: (simulated / name).read_bytes() for name in unbroken} == unbroken


def test_the_codes_of_a_kept_file_are_read_after_its_mark_even_when_the_mark_holds_a_brace(tmp_path):
    """``kept_while_made`` read the kept file's settings from its first ``{`` (``code_record``), the
    study file from after its mark (``StudyFile``): a study named with a ``{`` (``# lcanalysis odd
    {study}: {...}``) stopped the finished run on a JSONDecodeError after every row was made. Both
    read the line one way now (``read_settings``): the same settings, and the codes written beside."""
    import json

    from lcanalysis.studies.study_file import StudyFile, code_record

    earlier = [{"code": {"lcanalysis": "0.1", "source_sha256": "aa"}, "rows": 2}]
    settings = {"deals": 3, "note": "a {brace} and a }", "code": {"lcanalysis": "0.1", "source_sha256": "bb"},
                "earlier_code": earlier}
    form = StudyFile("odd {study}", "# lcanalysis odd {study}: ", ["deal", "score"], keys=("deal",),
                     identity_keys=("deals",))
    path = tmp_path / "odd.csv"

    def make(kept):
        with open(kept, "w", encoding="utf-8") as fh:
            fh.write(form.mark + json.dumps(settings) + "\ndeal,score\n0,5\n1,7\n2,9\n")
        return form.load(kept)

    data.kept_while_made(str(path), make)
    assert pd.read_csv(path)["score"].tolist() == [5, 7, 9]
    assert json.loads((tmp_path / f"odd.csv{data.EARLIER_CODE}").read_text()) == {
        "code": settings["code"], "earlier_code": earlier}
    from lcanalysis.studies.study_file import read_settings

    path.write_text(form.mark + json.dumps(settings) + "\n")  # the one reading, with the mark and without
    assert read_settings(path) == read_settings(path, form.mark) == form.read_identity(path) == settings
    assert code_record(str(path)) == {"code": settings["code"], "earlier_code": earlier}
    with pytest.raises(ValueError, match=re.escape("is not a odd {study} file")):
        read_settings(DATA / "simulated" / "matches.csv", form.mark, form.what)


def test_studies_data_writes_every_file_its_only_options_name(tmp_path):
    """``--only first_player_rounds --only matches`` wrote the matches alone: the second ``--only``
    replaced the first, and nothing said so."""
    from lcanalysis.cli import main

    assert main(["studies", "data", "--only", "positions", "--root", str(tmp_path), "--only", "wager_grid"]) == 0
    assert (tmp_path / "positions" / "positions.txt").exists() and (tmp_path / "tables" / "wager_grid.csv").exists()
    # the studies' other list options gather their repeats too (wager-sim's default stays 4 and 20)
    from lcanalysis.cli.main import _parse

    assert _parse(["studies", "wager-sim", "--snap-turn", "4", "--snap-turn", "10"]).snap_turn == [4, 10]
    assert _parse(["studies", "wager-sim"]).snap_turn is None
    assert _parse(["studies", "match-table", "--out", "a.json", "--out", "b.json"]).out == ["a.json", "b.json"]


def test_the_stored_simulations_have_the_size_their_commands_name():
    assert len(pd.read_csv(DATA / "simulated" / "first_player_rounds.csv")) == 20000
    assert len(pd.read_csv(DATA / "simulated" / "matches.csv")) == 10000
    assert pd.read_csv(DATA / "simulated" / "colours.csv")["round"].nunique() == 20000
    for name in ("first_player_rounds", "matches", "colours", "wager_models_vs_play"):
        assert (DATA / "simulated" / f"{name}.csv.cmd").read_text().startswith("lcanalysis studies data")


def test_endgame_lines_average_back_to_the_solvers_value_of_the_turn():
    from lcanalysis.search import solve

    pos = read_position(example_text("endgame"))
    exact = solve(pos, max_stalls=0)
    one_per_value: dict[float, object] = {}
    for m in exact.moves:
        one_per_value.setdefault(m.value, m)
    for m in list(one_per_value.values())[:4]:
        for limit in (1, 2, 6):  # limit 0 or 1 gave the table's score, not the solved value
            lines = explorer.endgame_lines(pos, m.move, limit=limit)
            assert sum(ln["probability"] for ln in lines) == pytest.approx(1)
            assert sum(ln["probability"] * ln["value"] for ln in lines) == pytest.approx(m.value)
            assert all(ln["line"].startswith(m.move) and len(ln["line"].split(" (draws")) <= limit + 1
                       for ln in lines)
    with pytest.raises(PositionError, match="limit must be a whole number of turns shown in a line, 1 or more"):
        explorer.endgame_lines(pos, exact.best.move, limit=0)
    with pytest.raises(PositionError, match="full position"):
        explorer.endgame_lines(pos.view(pos.to_move), exact.best.move)


def test_positions_are_read_from_examples_files_and_strings_with_clear_refusals():
    assert lc.read_position("example:midround") == read_position(MIDROUND)
    assert lc.read_position(str(DATA / "positions" / "midround.json")) == read_position(MIDROUND)
    with pytest.raises(PositionError, match="no example 'nope'"):
        lc.read_position("example:nope")
    with pytest.raises(PositionError, match="neither a JSON position"):
        lc.read_position("R7 B4")


def test_stall_values_grow_with_the_movers_options_and_shrink_with_the_opponents():
    study = stalling.stalling_study(n=3, cards_left=[2, 3], seed=4)
    assert list(study["cards_left"]) == [2, 2, 2, 3, 3, 3]
    eps = 1e-9
    assert (study["v_mover_stalls"] >= study["v_none"] - eps).all()
    assert (study["v_opponent_stalls"] <= study["v_none"] + eps).all()
    assert (study["v_both_stall"] <= study["v_mover_stalls"] + eps).all()
    assert (study["v_both_stall"] >= study["v_opponent_stalls"] - eps).all()
    for text, d in zip(study["position"], study["cards_left"]):
        assert read_position(text).deck_count == d
    summary = stalling.stalling_summary(study)
    assert summary["mover's stall: gain (points)"].n == 6
    assert stalling.stall_gain_by_standing(study)["positions"].sum() == 6
    assert set(stalling.stalling_by_cards_left(study)) == {"2 cards left", "3 cards left"}


def test_every_data_file_says_how_it_was_made():
    """Each file in data/ has a ``.cmd`` sidecar with the command that regenerates it (a
    tournament's ``.csv`` and ``.txt`` share their ``.jsonl``'s) and a row in data/README.md."""
    from lcanalysis.studies.study_file import MADE

    listing = (DATA / "README.md").read_text()
    for path in sorted(DATA.rglob("*")):
        if path.is_dir() or path.suffix == ".cmd" or path.name == "README.md" or path.name.endswith(
                (MADE, data.EARLIER_CODE)):  # (a simulation's records of how it made its file)
            continue
        sidecars = [path.with_name(path.name + ".cmd"), path.with_suffix(".jsonl.cmd")]
        assert any(p.exists() for p in sidecars), f"{path.relative_to(DATA)} has no .cmd sidecar"
        assert path.name in listing or path.stem in listing, f"{path.relative_to(DATA)} is not listed in data/README.md"


def _one_line(command: str) -> str:
    """A command as data/README.md shows it: without the sidecar's redirect of its output and its comment."""
    return " ".join(re.split(r"\s>>?\s", command.split("#")[0])[0].split())


def test_data_readme_gives_each_files_commands_as_its_sidecar_has_them():
    """Each row of data/README.md's table gives the commands of its file's ``.cmd`` (a row whose cell is
    ``same`` those of the row above; a row may send the reader to its ``.cmd`` for the
    ``paired_strength`` commands after the tournament, but must then say so)."""
    rows = [line for line in (DATA / "README.md").read_text().splitlines() if line.startswith("| `")]
    shown: set[str] = set()
    for row in rows:
        cells = [c.strip() for c in row.strip("|").split(" | ")]
        if cells[2] != "same":
            shown = {_one_line(c) for c in re.findall(r"`([^`]+)`", cells[2])}
        first = re.findall(r"`([^`]+)`", cells[0])[0]
        if first.startswith("../"):  # a file shipped with the package: its command is in the file itself
            continue
        name = re.sub(r"\{([^,}]+)[^}]*\}", r"\1", first)  # positions/{opening,...}.json: its first file
        sidecars = [DATA / (name + ".cmd"), (DATA / name).with_suffix(".jsonl.cmd")]
        sidecar = next(p for p in sidecars if p.exists())
        for k, line in enumerate(sidecar.read_text().strip().splitlines()):
            if k > 0 and "paired_strength" in line and "commands of its `.cmd`" in cells[2]:
                continue
            assert _one_line(line) in shown, f"data/README.md's row of {first} lacks the command {_one_line(line)}"


def test_the_explorers_world_counts_are_checked():
    """Found by a review: worlds=None, "10" or 1.5 were TypeErrors, 10**10 a MemoryError, and
    move_outcomes(worlds=-5) an empty answer."""
    for bad in (None, "10", 1.5, 10**10, 1):
        with pytest.raises(PositionError, match="worlds must be a whole number from 2 to 1,000,000"):
            explorer.rollout_analysis("example:midround", worlds=bad)
    with pytest.raises(PositionError, match="worlds must be a whole number from 1 to 1,000,000, got -5"):
        explorer.move_outcomes("example:midround", "+B6/G", worlds=-5)
    assert len(explorer.move_outcomes("example:midround", "+B6/G", worlds=3)) == 3


WHOLE = "must be a whole number,"


@pytest.mark.parametrize("call, message", [
    (lambda: first_player.first_player_rounds(deals=-1), f"first_player_rounds: deals {WHOLE} 1 or more, got -1"),
    (lambda: first_player.first_player_rounds(deals=2.5), f"first_player_rounds: deals {WHOLE} 1 or more, got 2.5"),
    (lambda: first_player.first_player_rounds(seed=-1),
     "first_player_rounds: seed must be a whole number 0 or above, got -1"),
    (lambda: first_player.simulate_matches(matches=-3), f"simulate_matches: matches {WHOLE} 1 or more, got -3"),
    (lambda: first_player.simulate_matches(matches=2, seed=-1),
     "simulate_matches: seed must be a whole number 0 or above, got -1"),
    (lambda: opening.simulated_colours(rounds=0), f"simulated_colours: rounds {WHOLE} 1 or more, got 0"),
    (lambda: opening.simulated_colours(rounds="10"), f"simulated_colours: rounds {WHOLE} 1 or more, got '10'"),
    (lambda: stalling.stalling_study(n=[1], cards_left=[2, 3]),
     r"stalling_study: n must be one count or one for each of cards_left \[2, 3\], got \[1\]"),
    (lambda: stalling.stalling_study(n=1, cards_left=[2], seed=-1),
     "stalling_study: seed must be a whole number 0 or above, got -1"),
])
def test_the_simulations_refuse_bad_counts_and_seeds_naming_the_argument(call, message):
    """They gave an empty study for a negative count, a bare TypeError for a float, a refusal of a
    derived seed (-1000003) for seed -1, and stalling_study dropped the cards left without an n."""
    with pytest.raises(ValueError, match=f"^{message}$"):
        call()


@pytest.mark.parametrize(("call", "message"), [
    (lambda: first_player.first_player_summary(first_player.simulate_matches(matches=2)),
     "first_player_summary: the table has no columns 'diff_a', 'diff_b', 'starter_edge': it reads the rows of "
     "first_player_rounds, and this table's columns are match, total_0"),
    (lambda: first_player.first_player_summary(str(DATA / "simulated" / "first_player_rounds.csv")),
     "first_player_summary: needs the table first_player_rounds returns (a pandas DataFrame, or pd.read_csv of "
     "the file it wrote), got str"),
    (lambda: first_player.match_summary(first_player.first_player_rounds(deals=2)),
     "match_summary: the table has no columns 'total_0', 'total_1', 'first_round_diff', 'winner'"),
    (lambda: stalling.stalling_table(opening.simulated_colours(rounds=2)),
     "stalling_by_cards_left: the table has no columns 'cards_left', 'standing'"),
    (lambda: stalling.stall_gain_by_standing(pd.DataFrame({"cards_left": [2]})),
     "stall_gain_by_standing: the table has no columns 'standing', 'v_none'"),
    (lambda: opening.colour_value_fit(first_player.first_player_rounds(deals=2)),
     "opened_colours: the table has no columns 'opened', 'held_sum', 'final': it reads the rows of simulated_colours"),
    (lambda: opening.value_by_held_sum(pd.DataFrame({"held_sum": [3], "opened": [True]})),
     "value_by_held_sum: the table has no column 'final': it reads the rows of simulated_colours"),
    (lambda: opening.score_by_colours_opened(None),
     "score_by_colours_opened: needs the table simulated_colours returns"),
], ids=["matches for rounds", "a path", "rounds for matches", "colours for stalling", "a column short",
        "rounds for colours", "no final", "None"])
def test_a_summary_given_another_studys_table_says_which_table_it_reads(call, message):
    """A writer who handed the first-player summary the matches (or a file's path) met "KeyError:
    'diff_a'" or "TypeError: string indices must be integers"."""
    with pytest.raises(ValueError) as refused:
        call()
    assert message in str(refused.value)


def test_the_articles_tables_and_selections_come_from_the_library():
    """What the notebooks computed in comprehensions and masks of their own."""
    assert opening.score_with_no_draws([(9, 10), (7, 8, 9, 10)]) == [9 + 10 - 20, 7 + 8 + 9 + 10 - 20]
    colours = opening.simulated_colours(rounds=6, seed=1)
    opened = opening.opened_colours(colours)
    assert opened["opened"].all() and len(opened) == int(colours["opened"].sum()) > 0
    study = stalling.stalling_study(n=2, cards_left=[2, 3], seed=4)
    table = stalling.stalling_table(study)
    assert list(table.index.get_level_values(0).unique()) == ["2 cards left", "3 cards left"]
    gain = (study["v_mover_stalls"] - study["v_none"])[study["cards_left"] == 2]
    row = table.loc[("2 cards left", "mover's stall: gain (points)")]
    assert row["estimate"] == pytest.approx(gain.mean(), abs=5e-4) and row["n"] == 2
    matches = first_player.simulate_matches(matches=4, seed=1)
    chances = first_player.match_chances(first_player.match_summary(matches))
    assert list(chances) == ["round-1 starter wins round 1", "round-1 starter wins the match",
                             "round-1 starter starts round 2"]
    assert chances["round-1 starter wins the match"].mean == (matches["winner"] == 0).mean()


def test_a_turns_outcomes_are_dealt_as_the_advisor_deals_them():
    """The explorer's distribution of what follows a turn dealt the opponent's cards uniformly
    while the advisor deals them from the learned hand model: after the mid-round example's best
    turn its mean was +16.6, the advisor's value +4.9. Now its worlds are the advisor's own: the
    play-outs of the turn there are the first worlds of the advisor's, to the last bit, and its
    mean agrees with the advisor's value of the turn."""
    from lcanalysis.advisor import HAND_MODEL_DEFAULT, STREAMS_DEFAULT, advise
    from lcanalysis.game.moves import Move
    from lcanalysis.rollouts import Rollouts

    view = read_position(MIDROUND)
    hint = advise(view, time_budget=0.5, seed=0)
    best = hint.moves[0]
    outcomes = explorer.move_outcomes(view, best.move, worlds=600, seed=0)
    advisors = Rollouts(view, [Move.parse(best.move).code(view.colors)], 0, hand_model=HAND_MODEL_DEFAULT,
                        streams=STREAMS_DEFAULT)
    advisors.sample(600)
    assert np.array_equal(outcomes, advisors.samples[0])
    se = np.hypot(outcomes.std(ddof=1) / np.sqrt(outcomes.size), best.stderr)
    assert abs(outcomes.mean() - best.value) < 3 * se, (outcomes.mean(), best.value, se)
    # the flat Monte Carlo ranking deals them alike, and says so
    flat = explorer.rollout_analysis(view, worlds=12, seed=0)
    assert np.array_equal(next(m for m in flat.moves if m.move == best.move).extra["samples"], outcomes[:12])
    assert "opponent-hand model" in flat.method


def test_a_turns_outcomes_from_15_cards_down_are_the_advisors_stalling_play_outs():
    """From 15 cards down the advisor's default plays the stalling heuristic's play-outs, so the outcomes
    whose mean estimates its value are theirs: the same numbers as ``Rollouts`` with the stalling policy's
    parameters in the advisor's worlds, not the plain ones', and their mean within three standard errors
    of the advisor's value; asked for by name, the plain policy's play-outs."""
    from helpers import played_down

    from lcanalysis.advisor import HAND_MODEL_DEFAULT, STREAMS_DEFAULT, advise
    from lcanalysis.core.policy import HEURISTIC_PARAMS, STALLING_PARAMS
    from lcanalysis.game.moves import Move
    from lcanalysis.rollouts import Rollouts

    pos = played_down(2, 12)
    view = pos.view(pos.to_move)
    hint = advise(view, time_budget=0.5, seed=0)
    assert hint.playout_policy == "stalling"
    best = hint.moves[0]
    outcomes = explorer.move_outcomes(view, best.move, worlds=600, seed=0)
    by_policy = []
    for params, asked in ((STALLING_PARAMS, None), (HEURISTIC_PARAMS, "plain")):
        by_hand = Rollouts(view, [Move.parse(best.move).code(view.colors)], 0, params=params,
                           hand_model=HAND_MODEL_DEFAULT, streams=STREAMS_DEFAULT)
        by_hand.sample(600)
        assert np.array_equal(explorer.move_outcomes(view, best.move, worlds=600, seed=0, playout_policy=asked),
                              by_hand.samples[0])
        by_policy.append(by_hand.samples[0])
    assert not np.array_equal(*by_policy)  # (the two policies play this turn out otherwise)
    se = np.hypot(outcomes.std(ddof=1) / np.sqrt(outcomes.size), best.stderr)
    assert abs(outcomes.mean() - best.value) < 3 * se, (outcomes.mean(), best.value, se)
    with pytest.raises(ValueError, match="play-out policy must be one of plain, stalling, tuned, staged"):
        explorer.move_outcomes(view, best.move, worlds=4, playout_policy="Stalling")


def test_an_estimates_table_writes_no_minus_zero():
    """The stalling article's live table gave the mover's gain with 3 cards left as "-0.000"
    (s.e. 0.000, 95% low -0.000): a mean of zeros and tiny negative float noise, rounded. A value
    that rounds to zero is written 0; the others keep their sign."""
    frame = estimate.estimates_frame({"gain": estimate.Estimate(-1e-12, 0.0, 6),
                                      "cost": estimate.Estimate(-0.4, 0.1, 6)}, digits=3)
    assert "-0.0" not in frame.loc[["gain"]].to_string()
    assert all(math.copysign(1.0, v) == 1.0 for v in frame.loc["gain", ["estimate", "s.e.", "95% low", "95% high"]])
    # 6 samples: Student's t with 5 degrees of freedom, 2.571 (a printed table's value), -0.4 - 0.2571
    assert frame.loc["cost", "estimate"] == -0.4 and frame.loc["cost", "95% low"] == pytest.approx(-0.657)
    # values averaged over splits: 0.1 + 0.2 against 0.3 leaves a gain of -5.6e-17
    study = pd.DataFrame({"cards_left": [3] * 4, "standing": [1, -1, 2, 5], "v_none": [0.1 + 0.2] * 4,
                          "v_mover_stalls": [0.3] * 4, "v_opponent_stalls": [0.3] * 4, "v_both_stall": [0.3] * 4})
    assert "-0.0" not in stalling.stalling_table(study).to_string()


def test_the_colours_opened_figure_names_one_colour_in_the_singular():
    """The opening article's Figure 4 labelled its first row "1 colours (2,079 rounds)"."""
    rows = pd.DataFrame({"round": [0, 0, 1, 1, 2, 2], "colour": [0, 1, 0, 1, 0, 1], "held_numbers": [3] * 6,
                         "held_sum": [15] * 6, "held_wagers": [0] * 6,
                         "opened": [True, False, True, True, True, False], "final": [10, 0, 5, 7, 2, 0]})
    assert list(opening.colours_opened_estimates(rows, min_rounds=1)) == ["1 colour", "2 colours"]


def test_the_colours_studys_progress_says_the_rounds_are_played_out(capsys, monkeypatch):
    """Its progress bar read "simulated rounds (to turn 0)", as if nothing were played: the rounds
    are played to their end, and the colours are taken as dealt (the bar drawn from the start here:
    ``PROGRESS_DELAY`` 0, as two rounds take less)."""
    from lcanalysis import progress

    monkeypatch.setattr(progress, "PROGRESS_DELAY", 0.0)
    opening.simulated_colours(rounds=2, seed=0, progress=True)
    shown = capsys.readouterr().err
    assert "to turn 0" not in shown and "simulated rounds (played out; colours as dealt)" in shown


def test_a_data_file_is_written_whole_or_not_at_all(tmp_path, monkeypatch):
    """A run killed (or out of disk) as it writes the finished file leaves the file before it whole
    (say data/'s published one) and the rows it made kept in FILE.partial, which the same command
    finishes from. It wrote over the file in place: the published file was left cut short."""
    from lcanalysis.cli import main

    def command(matches, where="kept"):
        return ["studies", "data", "--only", "matches", "--matches", str(matches), "--root", str(tmp_path / where)]

    assert main(command(4)) == 0 and main(command(5, "unbroken")) == 0
    made = tmp_path / "kept" / "simulated" / "matches.csv"
    before = made.read_bytes()
    real = pd.DataFrame.to_csv

    def cut_short(self, path, *args, **kwargs):
        with open(path, "w") as fh:
            fh.write(real(self, None, *args, **kwargs)[:20])
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(pd.DataFrame, "to_csv", cut_short)
    assert main(command(5)) == 2
    assert made.read_bytes() == before
    assert (tmp_path / "kept" / "simulated" / "matches.csv.partial").exists()
    monkeypatch.setattr(pd.DataFrame, "to_csv", real)
    assert main(command(5)) == 0
    assert not (tmp_path / "kept" / "simulated" / "matches.csv.partial").exists()
    assert made.read_bytes() == (tmp_path / "unbroken" / "simulated" / "matches.csv").read_bytes()


def test_studies_data_killed_hard_again_and_again_resumes_to_the_file_an_unbroken_run_writes(tmp_path):
    """Real processes, killed with SIGKILL (no chance to tidy up) each time the rows they keep have
    grown: every run adds to FILE.partial, and the last one writes, byte for byte, the file of a run
    never stopped."""
    import os
    import signal
    import subprocess
    import sys
    import time

    root = Path(__file__).resolve().parent.parent
    env = {**os.environ, "PYTHONPATH": str(root), "LCANALYSIS_NO_SERVER": "1"}

    def start(where):
        return subprocess.Popen([sys.executable, "-m", "lcanalysis", "studies", "data", "--only",
                                 "first_player_rounds", "--deals", "400", "--root", str(tmp_path / where)],
                                env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)

    assert start("whole").wait() == 0
    kept = tmp_path / "killed" / "simulated" / "first_player_rounds.csv.partial"
    rows = []
    for _ in range(3):
        before = len(kept.read_text().splitlines()) if kept.exists() else 0
        proc = start("killed")
        while proc.poll() is None and (len(kept.read_text().splitlines()) if kept.exists() else 0) <= before + 2:
            time.sleep(0.01)  # (waits for rows, whatever the machine's speed)
        proc.send_signal(signal.SIGKILL)
        proc.wait()
        assert kept.exists(), "the run finished before it was killed: give it more deals"
        rows.append(len(kept.read_text().splitlines()))
    assert rows == sorted(rows) and rows[0] < rows[-1]  # each run kept what the one before had made
    assert start("killed").wait() == 0
    assert not kept.exists()
    name = "simulated/first_player_rounds.csv"
    assert (tmp_path / "killed" / name).read_bytes() == (tmp_path / "whole" / name).read_bytes()


def test_a_kept_table_writes_every_unit_as_it_is_made_but_syncs_the_disk_at_most_once_a_second(tmp_path,
                                                                                                monkeypatch):
    """Each unit a kept table made was synced to the disk (``fsync``) before the next began: 4 ms a
    unit on a busy disk, which made ``studies wager-sim --out`` 1.6 times slower at 2,000 samples a row
    (a row takes about 5 ms). Now each unit is still written as it is made (a stop or a kill loses none:
    the file holds every unit made so far, counted here after each), and the disk is synced at most
    once a second, and at the end (fsyncs counted, on clocks of our own: one that stands still, one
    that moves a second each time it is read)."""
    import os

    from lcanalysis.studies import study_file

    synced = []
    real = os.fsync
    monkeypatch.setattr(os, "fsync", lambda fd: (synced.append(fd), real(fd))[1])
    out = tmp_path / "rounds.csv"
    seen = []

    def made(key):
        seen.append(len(out.read_text().splitlines()) - 2)  # (the rows in the file as this unit begins)
        return {"deal": key[0], "score": 2 * key[0]}

    kept = study_file.StudyFile("test", "# test: ", ["deal", "score"], keys=("deal",), identity_keys=("n",))
    monkeypatch.setattr(study_file.time, "monotonic", lambda: 0.0)
    table = kept.kept_table(str(out), {"n": 30}, [(i,) for i in range(30)], made)
    assert seen == list(range(30)) and table["score"].tolist() == [2 * i for i in range(30)]
    assert len(synced) == 2  # the settings line as the file began, and the units at the end
    clock = iter(range(10**6))
    monkeypatch.setattr(study_file.time, "monotonic", lambda: float(next(clock)))  # a second between reads
    synced.clear()
    out = tmp_path / "slow.csv"
    seen.clear()
    kept.kept_table(str(out), {"n": 30}, [(i,) for i in range(30)], made)
    assert seen == list(range(30)) and len(synced) == 1 + 30 + 1  # a second a unit: each synced as it is written


@pytest.mark.parametrize("key", ["x", "1.5", "", "1_0"])
def test_a_study_file_whose_row_names_its_unit_with_no_whole_number_is_refused_naming_the_line(tmp_path, key):
    """Found by a reliability pass: 'review --out FILE' resumed from a file with a row 'x' for a turn's
    index said "error: --out invalid literal for int() with base 10: 'x'" (no file, no line); a
    '1.5' was read as unit 1. A resumed study file now refuses such a row, naming the file, the line
    and the column, and is left as it was; '1_0' too, which Python's int() reads as 10."""
    from lcanalysis.studies import study_file

    kept = study_file.StudyFile("test", "# test: ", ["deal", "score"], keys=("deal",), identity_keys=("n",))
    out = tmp_path / "rounds.csv"
    kept.kept_table(str(out), {"n": 3}, [(i,) for i in range(3)], lambda k: {"deal": k[0], "score": 2 * k[0]})
    lines = out.read_text().splitlines(keepends=True)
    edited = "".join(lines[:3]) + f"{key},7\n" + "".join(lines[3:])
    out.write_text(edited)
    with pytest.raises(ValueError) as refused:
        kept.kept_table(str(out), {"n": 3}, [(i,) for i in range(3)], lambda k: {"deal": k[0], "score": 0})
    assert str(refused.value) == (f"{out} line 4: deal {key!r} is not a whole number: a row the study cannot have "
                                  "written (was the file edited?); write to another file"), refused.value
    assert out.read_text() == edited


def test_a_study_files_unit_is_never_read_from_a_key_written_with_underscores():
    """The unit of a row was read with int(), so a key '1_0' was unit 10 to any caller that had not
    checked the file's lines first; it is a ValueError naming the key, and a key a table holds (numpy's
    whole numbers) or writes ('10') is the unit it says."""
    import numpy as np

    from lcanalysis.studies import study_file

    kept = study_file.StudyFile("test", "# test: ", ["deal", "seat", "score"], keys=("deal", "seat"),
                                identity_keys=("n",))
    assert kept.unit({"deal": "10", "seat": np.int64(1), "score": 5}) == (10, 1)
    with pytest.raises(ValueError, match="'1_0'"):
        kept.unit({"deal": "1_0", "seat": 1, "score": 5})


def test_the_wager_models_check_counts_the_rounds_its_expeditions_came_from_and_its_errors_over_them(tmp_path):
    """At turn 20 of 300 simulated rounds the check predicts several expeditions of most rounds (449 of 269),
    which share the round's deal and the player's turns. The table counts the rounds (``rounds``, rebuilt
    here from the rounds played one at a time) and each model's bias's standard error is within 8% of its
    spread over 2,000 resamples of whole rounds (a cluster bootstrap over the kept predictions)."""
    from lcanalysis.game.rules import Rules
    from lcanalysis.wagers import simulation as W

    out = tmp_path / "rows.csv"
    table = opening.wager_models_vs_play(rounds=300, snap_turn=20, seed=0, n_mc=20, out=str(out)).set_index("model")
    kept = pd.read_csv(out, comment="#")
    # each expedition's round: the rounds that lasted to turn 20, each colour that holds a number by then
    round_of = np.array([i for i in range(300) for rec in [W.snapshot_of_round(i, 20, 0, Rules())[0]]
                         if rec is not None for row in rec if row[W.F_PM] != 0])[kept["expedition"].to_numpy(int)]
    assert len(round_of) == len(kept) == table["rows"].iloc[0]
    assert (table["rounds"] == len(set(round_of))).all() and len(set(round_of)) < len(kept)
    ids, cluster = np.unique(round_of, return_inverse=True)
    picks = np.random.default_rng(7).integers(0, len(ids), (2000, len(ids)))
    counts = np.bincount(cluster)[picks].sum(axis=1)
    for k, name in enumerate(W.PREDICTION_MODELS):
        sums = np.bincount(cluster, weights=kept[f"model_{k}"].to_numpy(float) - kept["realized"].to_numpy(float))
        boot = sums[picks].sum(axis=1) / counts
        assert table.loc[name, "bias s.e."] == pytest.approx(boot.std(ddof=1), rel=0.08), name
