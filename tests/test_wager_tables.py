"""The citable tables and the literature-claim calculations, against hand derivations and brute force."""

from __future__ import annotations

import itertools
import math
import os
import re
from pathlib import Path

import pandas as pd
import pytest

from lcanalysis.studies import wager_tables as tables
from lcanalysis.studies.wager_claims import canonical_sum_line, done_in_three_in_play, triples_breaking_even
from lcanalysis.wagers.canonical import expedition_score_values
from lcanalysis.wagers.simulation import snapshot_rounds

DATA = Path(__file__).resolve().parent.parent / "data"


def _brute_p_break_even(held, k, unseen_total):
    unseen = [v for v in range(2, 11) if v not in held]
    pool = unseen + [None] * (unseen_total - len(unseen))
    good = total = 0
    for sub in itertools.combinations(range(len(pool)), k):
        nums = list(held) + [pool[i] for i in sub if pool[i] is not None]
        total += 1
        good += expedition_score_values(0, nums) >= 0
    return good / total


def test_breakeven_by_holding_matches_brute_force():
    df = tables.breakeven_by_holding(draws=(0, 3))
    for held in [(7, 9), (2, 3, 4), (10,), (5, 6, 8)]:
        row = df[df.held == " ".join(map(str, held))].iloc[0]
        for k in (0, 3):
            assert row[f"p_break_even_d{k}"] == pytest.approx(_brute_p_break_even(held, k, tables.unseen_for(k)))


def test_breakeven_by_count_edges_by_hand():
    df = tables.breakeven_by_count(draws=(0, 2))
    row = df[(df.held_count == 0) & (df.draws == 0)].iloc[0]
    assert row.p_break_even == 1.0 and row.p_positive == 0.0 and row["mean"] == 0.0  # nothing, nothing to come
    row = df[(df.held_count == 9) & (df.draws == 2)].iloc[0]
    assert row.p_break_even == 1.0 and row["mean"] == 54 - 20 + 20  # all nine: 34 and the 8-card bonus
    # two numbers held, no draws: never break even (10 + 9 = 19)
    assert df[(df.held_count == 2) & (df.draws == 0)].iloc[0].p_break_even == 0.0


def test_ev_by_wagers_by_hand():
    df = tables.ev_by_wagers(draws=(0,), turns=False)
    row = df[(df.held_count == 4) & (df.held_sum == 34)].iloc[0]  # 7 8 9 10, nothing to come
    assert [row[f"mean_w{j}"] for j in range(4)] == [14, 28, 42, 56]
    assert row.best_wagers == 3
    row = df[(df.held_count == 2) & (df.held_sum == 5)].iloc[0]  # 2 3
    assert [row[f"mean_w{j}"] for j in range(4)] == [-15, -30, -45, -60] and row.best_wagers == 0


def test_the_turn_columns_are_empty_for_more_wagers_than_turns():
    """At 0 draws the player has one turn: the turn model can place one wager, not two or three (each
    takes a turn), so those cells are empty rather than the score of wagers that cannot go down."""
    df = tables.ev_by_wagers(draws=(0, 3), turns=True)
    one_turn = df[df.draws == 0]
    assert one_turn.turns_mean_w2.isna().all() and one_turn.turns_mean_w3.isna().all()
    assert one_turn.turns_mean_w1.notna().all() and one_turn.turns_stderr_w1.notna().all()
    assert one_turn.turns_stderr_w2.isna().all() and one_turn.turns_stderr_w3.isna().all()
    row = df[(df.held_count == 0) & (df.draws == 0)].iloc[0]
    assert row.turns_mean_w0 == 0 and row.turns_mean_w1 == -40 and row.turns_best_wagers == 0
    assert df[df.draws == 3][[f"turns_mean_w{j}" for j in range(4)]].notna().all().all()
    stored = pd.read_csv(DATA / "wager_ev_by_wagers.csv", comment="#")
    assert stored[stored.draws == 0][["turns_mean_w2", "turns_mean_w3"]].isna().all().all()


def test_every_turn_model_estimate_in_the_tables_carries_its_standard_error():
    """The tables gave the turn model's Monte Carlo means (``turns_mean_wJ``) with one standard
    error a row, the largest, and the minimum holding under the turn model with none. Each mean has
    its own now: for a single holding the turn model's own, for several the error of their mean
    (independent draw orders); and ``min_sum_open_turns`` comes with the mean that decided it, the
    best of the ev table's at that sum, with its standard error. The files in data/ say so."""
    from lcanalysis.wagers.canonical import ColorState
    from lcanalysis.wagers.models import turn_model

    df = tables.ev_by_wagers(draws=(3,), turns=True)
    row = df[(df.held_count == 1) & (df.held_sum == 2)].iloc[0]  # one holding, the 2
    one = turn_model(ColorState.make(hand=(2,), hand_wagers=3, unseen_total=16), 4, share=tables.TURN_SHARE,
                     n=tables.TURN_SAMPLES, seed=0)
    for o in one.by_wagers:
        assert row[f"turns_mean_w{o.wagers}"] == pytest.approx(float(o.mean))
        assert row[f"turns_stderr_w{o.wagers}"] == pytest.approx(o.stderr)
    assert max(o.stderr for o in one.by_wagers) > 0  # (2 wagers fill the colour's 2 turns: -60 for sure)
    row = df[(df.held_count == 2) & (df.held_sum == 7)].iloc[0]  # 2 5 and 3 4, seeds 0 and 1
    two = [turn_model(ColorState.make(hand=h, hand_wagers=3, unseen_total=16), 4, share=tables.TURN_SHARE,
                      n=tables.TURN_SAMPLES, seed=i) for i, h in enumerate([(2, 5), (3, 4)])]
    for j in range(4):
        a, b = (next(o for o in r.by_wagers if o.wagers == j) for r in two)
        assert row[f"turns_mean_w{j}"] == pytest.approx((float(a.mean) + float(b.mean)) / 2)
        assert row[f"turns_stderr_w{j}"] == pytest.approx((a.stderr ** 2 + b.stderr ** 2) ** 0.5 / 2)

    ev = pd.read_csv(DATA / "wager_ev_by_wagers.csv", comment="#")
    means, errors = [f"turns_mean_w{j}" for j in range(4)], [f"turns_stderr_w{j}" for j in range(4)]
    assert (ev[means].isna().to_numpy() == ev[errors].isna().to_numpy()).all()
    assert (ev[errors].fillna(0) >= 0).all().all() and (ev[errors] > 0).any().all()
    low = pd.read_csv(DATA / "wager_min_holding.csv", comment="#")
    found = low[low.min_sum_open_turns.notna()]
    assert len(found) > 10 and found.turns_stderr_at_min_sum.notna().all() and (found.turns_mean_at_min_sum >= 0).all()
    assert low[low.min_sum_open_turns.isna()][["turns_mean_at_min_sum", "turns_stderr_at_min_sum"]].isna().all().all()
    for r in found.itertuples():
        (line,) = ev[(ev.held_count == r.held_count) & (ev.held_sum == r.min_sum_open_turns)
                     & (ev.draws == r.draws)].itertuples()
        shown = [getattr(line, m) for m in means]
        best = max(range(4), key=lambda j: -math.inf if math.isnan(shown[j]) else shown[j])
        assert r.turns_mean_at_min_sum == pytest.approx(getattr(line, means[best]), abs=2e-6)
        assert r.turns_stderr_at_min_sum == pytest.approx(getattr(line, errors[best]), abs=2e-6)
    for name in ("wager_ev_by_wagers.csv", "wager_min_holding.csv"):
        assert "estimates, each mean with its standard error" in (DATA / name).read_text().split("\n", 4)[3]
    for name in ("wager_breakeven_by_count.csv", "wager_breakeven_by_holding.csv"):  # exact through and through
        head = [line for line in (DATA / name).read_text().splitlines() if line.startswith("#")]
        assert head[1].endswith("canonical wager model, exact") and not any("Monte Carlo" in line for line in head)


def test_min_holding_by_hand():
    df = tables.min_holding(draws=(0,), turn_draws=(0,))
    three = df[df.held_count == 3].iloc[0]
    assert three.min_sum_open == 20  # with no draws: sum - 20 >= 0
    assert three.min_sum_wager1 == 21  # a wager only raises the mean when the sum beats 20
    assert pd.isna(df[df.held_count == 2].iloc[0].min_sum_open)  # two numbers never break even
    # turn model, one turn, no draws: only one card goes down, never worth it unless ... never
    assert pd.isna(df[df.held_count == 2].iloc[0].min_sum_open_turns)


def test_written_tables_name_the_command_and_are_current(tmp_path):
    tables.write_tables(str(tmp_path), names=["wager_breakeven_by_count.csv", "wager_breakeven_by_holding.csv"])
    for name in ("wager_breakeven_by_count.csv", "wager_breakeven_by_holding.csv", "wager_ev_by_wagers.csv",
                 "wager_min_holding.csv"):
        committed = DATA / name
        assert committed.exists(), f"{name} missing from data/: run lcanalysis studies wager-tables"
        head = committed.read_text().splitlines()[:3]
        assert any("lcanalysis studies wager-tables" in line for line in head)
        assert pd.read_csv(committed, comment="#").shape[0] > 100
    for name in ("wager_breakeven_by_count.csv", "wager_breakeven_by_holding.csv"):
        assert (tmp_path / name).read_text() == (DATA / name).read_text()


def test_the_tables_command_shows_progress_while_a_table_is_made(tmp_path, capsys, monkeypatch):
    """The minimum-holding table takes about 12 s (its turn-model columns): it printed "computing ..."
    and nothing more until it was done. Now a bar counts the sizes of holding (1 to 9 numbers), drawn
    once the work has taken ``PROGRESS_DELAY`` (0 here: these tables take less)."""
    from lcanalysis import progress
    from lcanalysis.cli import main

    monkeypatch.setattr(progress, "PROGRESS_DELAY", 0.0)

    assert main(["studies", "wager-tables", "--out", str(tmp_path), "wager_breakeven_by_holding.csv"]) == 0
    err = capsys.readouterr().err
    assert "holdings: " in err and "/512 " in err  # every set of numbers of the colour
    df = tables.min_holding(draws=(0,), turn_draws=(0,), progress=True)
    err = capsys.readouterr().err
    assert "holding sizes: " in err and "/9 " in err
    assert df.equals(tables.min_holding(draws=(0,), turn_draws=(0,)))  # the same table, with or without


def test_tables_cli_refuses_unknown_names(capsys):
    from lcanalysis.cli import main

    assert main(["studies", "wager-tables", "--out", os.devnull, "nope.csv"]) == 2
    assert "unknown table(s) ['nope.csv']" in capsys.readouterr().err


@pytest.mark.parametrize("argv, said", [
    # found by a review: each of these was a ZeroDivisionError, IndexError or KeyError traceback,
    # a table written with nan standard errors, or an empty CSV with exit status 0
    (["wager-claims", "--rounds", "0"], "--rounds must be >= 10, got 0"),
    (["wager-claims", "--rounds", "10", "--seed", "-1"], "--seed must be >= 0, got -1"),
    # "error: rounds must be a whole number from 0 to 500,000", where the help says "10 or more"
    (["wager-claims", "--rounds", str(10**8)], "--rounds must be at most 500000, got 100000000"),
    (["wager-sim", "--rounds", "0"], "--rounds must be >= 2, got 0"),
    # 10**23 rounds simulated silently for ever
    (["wager-sim", "--rounds", str(10**23)], "--rounds must be at most 500000, got 100000000000000000000000"),
    (["wager-sim", "--snap-turn", "-1"], "--snap-turn must be >= 0, got -1"),
    (["wager-sim", "--snap-turn", "1001"], "--snap-turn must be at most 1000"),
    (["wager-sim", "--rounds", "5", "--mc", "0"], "--mc must be >= 2, got 0"),
    (["match-table", "--deals", "0"], "--deals must be >= 2, got 0"),
    (["match-table", "--matches", "-1"], "--matches must be >= 0, got -1"),
    (["match-table", "--matches", "1"], "--matches must be 0 (no check) or 2 or more, got 1"),
    (["match-table", "--bootstrap", "0"], "--bootstrap must be >= 2, got 0"),
    (["data", "--only", "first_player_rounds", "--deals", "0"], "--deals must be >= 2, got 0"),
    (["data", "--only", "matches", "--matches", "1"], "--matches must be >= 2, got 1"),
    (["data", "--only", "stalling", "--positions", "0"], "--positions must be >= 5, got 0"),
])
def test_the_studies_refuse_counts_they_cannot_make_a_result_of(argv, said, capsys, tmp_path):
    from lcanalysis.cli import main

    out = ["--out", str(tmp_path / "t.json")] if argv[0] == "match-table" else \
        ["--root", str(tmp_path)] if argv[0] == "data" else []
    with pytest.raises(SystemExit) as stop:
        main(["studies", *argv, *out])
    assert stop.value.code == 2
    err = capsys.readouterr().err
    assert said in err and "Traceback" not in err
    assert not list(tmp_path.iterdir())  # nothing written



def test_the_claims_command_shows_its_progress_over_the_simulated_rounds(capsys, monkeypatch):
    """``lcanalysis studies wager-claims --rounds 40000`` ran for 10 s and more printing nothing until
    its report; now a bar counts the rounds on standard error (once they have taken ``PROGRESS_DELAY``:
    0 here, for 12 rounds), the report alone on standard output."""
    from lcanalysis import progress
    from lcanalysis.cli import main

    monkeypatch.setattr(progress, "PROGRESS_DELAY", 0.0)

    assert main(["studies", "wager-claims", "--rounds", "12", "--seed", "3"]) == 0
    out, err = capsys.readouterr()
    assert "simulated rounds" in err and "12/12" in err
    assert out.startswith("Claims tested; bot play: 12 rounds") and "simulated rounds" not in out

def test_a_snapshot_no_round_reaches_is_refused_in_words():
    from lcanalysis.wagers.simulation import compare_decline, compare_models

    for compare in (compare_models, compare_decline):
        with pytest.raises(ValueError, match="none of the 2 rounds lasted to turn 900: no expedition to compare"):
            compare(rounds=2, snap_turn=900, n_mc=10)
    # one expedition left at a late snapshot: no standard error to give its bias (it printed NaN)
    with pytest.raises(ValueError, match=r"1 expedition\(s\) of 1 round\(s\) to compare at the snapshot: too few"):
        compare_models(rounds=2, snap_turn=45, n_mc=2)


def test_a_snapshot_before_any_number_is_placed_asks_for_a_later_turn():
    """At turn 0 no expedition holds a number: the refusal said "take an earlier snapshot turn"."""
    from lcanalysis.wagers.simulation import compare_models

    with pytest.raises(ValueError, match=r"0 expedition\(s\) hold a number at turn 0 of the 2 rounds that lasted to "
                                         r"it: too few to compare; take a later snapshot turn") as err:
        compare_models(rounds=2, snap_turn=0, n_mc=2)
    assert "earlier" not in str(err.value)


def test_every_fitted_line_of_the_claims_report_has_its_errors_and_every_model_line_says_exact():
    import io

    from lcanalysis.studies.wager_claims import report

    text = io.StringIO()
    report(rounds=12, seed=3, file=text, turn_samples=50)
    lines = text.getvalue().splitlines()
    for line in lines:
        if "bot play" in line and "H " in line and "=" in line:
            assert "(s.e. " in line, line
        if "canonical model" in line and "E[final sum]" in line:
            assert line.endswith("(exact)"), line
    # the bot play's shares and its mean round score carry their standard errors too (they had none)
    import math
    import re

    shares = next(line for line in lines if "share of colours opened by H held" in line)
    found = re.findall(r"H \d+-\d+: ([0-9.]+)% ± ([0-9.]+)% of (\d+)", shares)
    assert found and sum(int(n) for _, _, n in found) == 12 * 5  # every colour of the starting player
    for share, se, n in found:
        p = float(share) / 100
        if 0 < p < 1:  # a share's standard error, by hand (at 0 or 1, Wilson's interval's width instead)
            assert float(se) == pytest.approx(100 * math.sqrt(p * (1 - p) / int(n)), abs=0.1)
        assert float(se) > 0
    assert re.search(r"mean round score per player [0-9.]+ ± [0-9.]+ \(± one standard error, over rounds\)", lines[0])


def test_the_claims_report_of_a_few_rounds_says_what_it_could_not_measure_instead_of_printing_nan():
    """Found by a review: 'lcanalysis studies wager-claims --rounds 10' printed "bot play, opened
    7-10: 0 expeditions; reach 3 numbers nan%; ... (s.e. <= nan%)" when no such colour was opened."""
    import io

    from lcanalysis.studies.wager_claims import report

    text = io.StringIO()
    result = report(rounds=10, seed=0, file=text, turn_samples=50)
    assert result["A_play"]["7-10"]["expeditions"] == 0  # the case: none opened 7-10 in these deals
    assert "nan" not in text.getvalue()
    assert "bot play, opened 7-10: no expedition was opened so in 10 rounds: nothing to measure" in text.getvalue()


# --- the literature claims -------------------------------------------------------------------------


def test_three_number_expeditions_counted_by_hand():
    t = triples_breaking_even()
    # lowest 5: pairs from 6..10 with a + b >= 15: 8 of C(5,2) = 10
    assert t["by_lowest"][5] == pytest.approx(0.8)
    # lowest 4: a + b >= 16 from 5..10: (6,10) (7,9) (7,10) (8,9) (8,10) (9,10): 6 of 15
    assert t["by_lowest"][4] == pytest.approx(6 / 15)
    assert t["by_lowest"][2] == pytest.approx(2 / 28)
    assert t["high_share"] == 1.0 and 9 not in t["by_lowest"] and 10 not in t["by_lowest"]
    assert t["low_share_pooled"] == pytest.approx(26 / 80)


def test_the_22_plus_60_rule_is_the_canonical_mean_at_the_deal():
    a, b = canonical_sum_line(21, 52)
    assert a == pytest.approx(54 * 21 / 52) and b == pytest.approx(31 / 52)
    assert abs(a - 22) < 0.25 and abs(b - 0.6) < 0.01


def test_done_in_three_in_play_is_consistent():
    rows, _ = snapshot_rounds(200, snap_turn=0, seed=5)
    g = done_in_three_in_play(rows)
    # a 7 or 8 opener with three numbers always breaks even: the conditional share is exactly 1
    if g["7-10"]["p_three_numbers"] > 0:
        assert g["7-10"]["p_first_three_break_even_given_three"] == 1.0
    assert 0 <= g["2-6"]["p_first_three_break_even"] <= g["2-6"]["p_three_numbers"] <= 1


def test_opener_alone_by_hand():
    from math import comb

    from lcanalysis.studies.wager_claims import opener_alone_canonical

    alone = opener_alone_canonical(draws=21, unseen=52)
    assert alone[9] == 0.0 and alone[10] == 0.0  # 9 + 10 = 19
    # 8 alone breaks even only with both 9 and 10 among the 21 draws of 52: C(50,19) / C(52,21)
    assert alone[8] == pytest.approx(comb(50, 19) / comb(52, 21))


def test_tables_cli_refuses_a_file_as_the_output_folder(capsys, tmp_path):
    from lcanalysis.cli import main

    kept = tmp_path / "notes.txt"
    kept.write_text("mine")
    assert main(["studies", "wager-tables", "--out", str(kept), "wager_breakeven_by_holding.csv"]) == 2
    assert f"argument --out: {kept} is not a folder but a file: --out names the folder" in capsys.readouterr().err
    assert kept.read_text() == "mine"


def test_match_table_refuses_an_output_it_cannot_write_before_simulating(capsys, tmp_path):
    """An --out naming a folder was refused by '[Errno 21] Is a directory' only after the whole
    simulation and check (1.5 CPU-minutes at the defaults)."""
    from lcanalysis.cli import main

    kept = tmp_path / "notes.txt"
    kept.write_text("mine")
    for out, said in ((tmp_path, f"argument --out: {tmp_path} is a directory; give a file name"),
                      (kept / "t.json", f"argument --out: {kept / 't.json'}: {kept} is a file, not a folder")):
        assert main(["studies", "match-table", "--deals", "2", "--matches", "0", "--bootstrap", "2",
                     "--out", str(out)]) == 2
        err = capsys.readouterr().err
        assert said in err and "simulat" not in err and "Traceback" not in err
    assert [p.name for p in tmp_path.iterdir()] == ["notes.txt"] and kept.read_text() == "mine"


def test_the_wager_simulation_refuses_more_rounds_than_it_can_hold_and_shows_its_rounds(capsys, monkeypatch):
    """'studies wager-sim --rounds 10**23' ran for ever without a sign of life; the library took it too
    (its bar drawn from the start here: ``PROGRESS_DELAY`` 0, as these few rounds take less)."""
    from lcanalysis import progress
    from lcanalysis.options import MAX_WAGER_SIM_ROUNDS
    from lcanalysis.wagers.simulation import snapshot_rounds

    monkeypatch.setattr(progress, "PROGRESS_DELAY", 0.0)
    for bad in (MAX_WAGER_SIM_ROUNDS + 1, -1, 2.5, "10"):
        with pytest.raises(ValueError, match="rounds must be a whole number from 0 to 500,000"):
            snapshot_rounds(bad)
    rows, scores = snapshot_rounds(3, snap_turn=2, seed=1, progress=True)
    assert scores.shape == (3, 2) and "simulated rounds (to turn 2)" in capsys.readouterr().err
    again, _ = snapshot_rounds(3, snap_turn=2, seed=1)
    assert (rows == again).all()


def _doc_table(text: str, heading: str) -> list[list[str]]:
    """The body rows (cells as shown, the minus sign made ASCII) of the first table after ``heading``."""
    rest = text[text.index(heading):]
    lines = rest[rest.index("\n|"):].strip().splitlines()
    rows = []
    for line in lines[2:]:
        if not line.startswith("|"):
            break
        rows.append([c.strip().replace("\u2212", "-") for c in line.strip("|").split("|")])
    return rows


def test_the_wager_pages_excerpts_are_what_the_data_files_give():
    """docs/wagers.md quotes two excerpts of the tables in data/: each cell is the file's number as
    shown (a drift between the page and a regenerated file fails here)."""
    page = (Path(__file__).resolve().parent.parent / "docs" / "wagers.md").read_text()
    count = pd.read_csv(DATA / "wager_breakeven_by_count.csv", comment="#")
    shown = _doc_table(page, "Excerpt, chance of breaking even with no wager")
    draws = [0, 3, 6, 10, 15, 21]
    assert [r[0] for r in shown] == ["1", "2", "3", "4", "5+"]
    for row in shown:
        held = count[count.held_count >= int(row[0].rstrip("+"))] if row[0].endswith("+") else \
            count[count.held_count == int(row[0])]
        for cell, k in zip(row[1:], draws, strict=True):
            values = held[held.draws == k].p_break_even
            assert len(values) > 0 and (values == values.iloc[0]).all(), (row[0], k)
            want = "1" if values.iloc[0] == 1 else f"{values.iloc[0]:.3f}"
            assert cell == want, f"held {row[0]}, {k} draws: the page says {cell}, the file gives {want}"
    ev = pd.read_csv(DATA / "wager_ev_by_wagers.csv", comment="#")
    shown = _doc_table(page, "Excerpt, the mean with 0..3 wagers holding three numbers summing to 18")
    assert [r[0] for r in shown] == ["21 (the deal)", "10"]
    for row in shown:
        k = int(row[0].split()[0])
        (line,) = ev[(ev.held_count == 3) & (ev.held_sum == 18) & (ev.draws == k)].itertuples()
        want = [f"{getattr(line, f'mean_w{j}'):.1f}" for j in range(4)] + [  # exact; the turn model's with its s.e.
            f"{getattr(line, f'turns_mean_w{j}'):.1f} ± {getattr(line, f'turns_stderr_w{j}'):.2f}" for j in range(4)]
        assert row[1:] == want, f"{k} draws: the page says {row[1:]}, the file gives {want}"


def _printed_tables(text: str) -> dict[str, tuple[str, list[list[str]]]]:
    """The tables ``lcanalysis studies wager-sim`` prints, by their heading line, each its rows'
    numeric cells (the model's name, which may hold spaces, dropped)."""
    tables, heading = {}, None
    for line in text.splitlines():
        if " bot-vs-bot rounds, snapshot at turn " in line:
            heading, rows = line, []
            tables[heading] = (line, rows)
        elif heading and line.strip() and not line.strip().startswith("model"):
            tables[heading][1].append(line.split()[-11:])  # rows, then five estimates each with its s.e.
    return tables


def test_the_wager_pages_models_against_play_are_what_the_stored_simulation_printed():
    """docs/wagers.md's tables of the models against simulated play (4,000 rounds, turns 4 and 20) are
    data/wager_sim_4000.txt, the print of the command in its .cmd: each row's numbers as shown, and the rounds
    the errors are clustered by as the print's headings count them."""
    page = (Path(__file__).resolve().parent.parent / "docs" / "wagers.md").read_text()
    printed = _printed_tables((DATA / "wager_sim_4000.txt").read_text())
    assert "wager-sim --rounds 4000 --snap-turn 4 20" in (DATA / "wager_sim_4000.txt.cmd").read_text()
    heads = list(printed)
    assert len(heads) == 4 and [h.split(",")[0] for h in heads] == ["4000 bot-vs-bot rounds"] * 4

    def num(cell: str) -> str:
        return cell.replace("\u2212", "-").lstrip("+")

    for title, head in (("Snapshot at turn 4 (", heads[0]), ("Snapshot at turn 20 (", heads[2])):
        expeditions = re.search(r"(\d+) expeditions", head).group(1)
        rounds = re.search(r"± one standard error, clustered by round, (\d+) rounds$", head).group(1)
        assert f"{title}{int(expeditions):,} expeditions of {int(rounds):,} rounds)" in page, head
        shown = _doc_table(page, title)
        rows = printed[head][1]
        assert len(shown) == len(rows), title
        for cells, row in zip(shown, rows, strict=True):  # predicted, realized, bias, RMSE, MAE: each ± its s.e.
            assert [num(c) for c in cells[1:6]] == [f"{row[k]} ± {row[k + 1]}" for k in (1, 3, 5, 7, 9)], \
                (title, cells[0])
    shown = _doc_table(page, "**Declining, against play.**")
    four, twenty = printed[heads[1]][1], printed[heads[3]][1]
    assert len(shown) == len(four) == len(twenty)
    for cells, a, b in zip(shown, four, twenty, strict=True):
        got = [num(c) for c in cells[1:]]
        want = [f"{r[k]} ± {r[k + 1]}" for r in (a, b) for k in (1, 3, 5, 9)]  # predicted, realized, bias, MAE
        assert [g.replace("+", "") for g in got] == want, cells[0]
    for head in (heads[1], heads[3]):
        count, share = re.search(r"(\d+) untouched colours \(([0-9.]+% ± [0-9.]+%) opened later", head).groups()
        rounds = re.search(r"± one standard error, clustered by round, (\d+) rounds$", head).group(1)
        assert f"{int(count):,} untouched colours of {int(rounds):,} rounds" in page and share in page, head


def test_the_wager_sims_headlines_give_their_standard_errors():
    """``lcanalysis studies wager-sim`` headed its tables with "mean round score per player 18.6" and
    "20% opened later by the bot", estimates from a few rounds with no error beside them. Each has its error
    over the rounds: the score's over all of them, the share's over the rounds of the untouched colours (a
    round's colours one sample: worked out here from the rounds' blocks of five rows), and the heading says
    the tables' errors are clustered by round, naming how many."""
    import io
    import math
    import re

    import numpy as np

    from lcanalysis.wagers.simulation import compare_decline, compare_models, snapshot_rounds

    text = io.StringIO()
    compare_models(rounds=20, snap_turn=10, seed=0, n_mc=5, file=text)
    found = re.search(r"(\d+) expeditions \(holding a number\); mean round score per player ([0-9.]+) ± ([0-9.]+) "
                      r"\(all 20 rounds\); ± one standard error, clustered by round, (\d+) rounds\n", text.getvalue())
    rows, scores = snapshot_rounds(20, snap_turn=10, seed=0)
    per_round = scores.mean(axis=1)  # by hand: one sample a round, the two players' mean
    assert found and float(found.group(2)) == round(float(scores.mean()), 1)
    assert float(found.group(3)) == round(float(np.std(per_round, ddof=1) / math.sqrt(20)), 1)
    round_of = np.arange(len(rows)) // 5  # a round's five colours, one block
    holding = rows[:, 1] != 0  # (F_PM: the colour holds a number)
    assert int(found.group(1)) == holding.sum() and int(found.group(4)) == len(set(round_of[holding]))

    text = io.StringIO()
    _, meta = compare_decline(rounds=20, snap_turn=10, seed=0, n_mc=5, file=text)
    found = re.search(r"(\d+) untouched colours \(([0-9.]+)% ± ([0-9.]+)% opened later by the bot\); the colour's "
                      r"value: open or decline; ± one standard error, clustered by round, (\d+) rounds\n",
                      text.getvalue())
    untouched = (rows[:, 0] == 0) & (rows[:, 1] == 0)  # (F_PW, F_PM: nothing on the expedition)
    later = ((rows[:, 14] != 0) | (rows[:, 10] > 0))[untouched]  # (F_FINAL_MASK, F_FINAL_W: opened by the end)
    rounds = round_of[untouched]
    p, n = later.mean(), len(later)
    sums = [(later[rounds == r] - p).sum() for r in set(rounds)]  # each round's deviations from the share
    se = math.sqrt(len(sums) / (len(sums) - 1) * sum(s * s for s in sums)) / n
    assert found and int(found.group(1)) == n == meta["rows"] and int(found.group(4)) == len(sums)
    assert float(found.group(2)) == round(100 * p, 1) and meta["share opened later"] == pytest.approx(p, rel=1e-12)
    assert meta["share opened later s.e."] == pytest.approx(se, rel=1e-12)
    assert float(found.group(3)) == round(100 * se, 1)


def test_wager_claims_keeps_its_rounds_as_they_are_played_and_a_resumed_run_reports_as_an_unbroken_one(
        tmp_path, monkeypatch, capsys):
    """``lcanalysis studies wager-claims`` printed only at the end, its rounds (minutes at the most it
    takes) lost to a Ctrl-C. Now with ``--out FILE`` each round is kept as it is played: stopped after
    k rounds and run again, it plays only the rounds missing (counted) and prints the report of an
    unbroken run without the file, its rounds' arrays the same to the last bit; a round whose last row
    is torn is played again (its five rows are a whole round, so the one before is kept); other
    ``--rounds`` are refused, naming them, before a round is played."""
    import numpy as np

    from lcanalysis.cli.main import main
    from lcanalysis.studies import wager_claims as C

    argv = ["studies", "wager-claims", "--rounds", "30", "--seed", "4"]
    assert main(argv) == 0
    unbroken = capsys.readouterr().out
    played = []
    stop_at = [12]
    real = C.snapshot_of_round

    def counted(i, *args):
        if len(played) == stop_at[0]:
            raise KeyboardInterrupt
        played.append(i)
        return real(i, *args)

    monkeypatch.setattr(C, "snapshot_of_round", counted)
    out = tmp_path / "rounds.csv"
    assert main([*argv, "--out", str(out)]) == 130
    stdout, err = capsys.readouterr()
    assert stdout == "" and f"stopped: the rounds made so far are kept in {out}; run the same command" in err
    assert len(out.read_text().splitlines()) == 2 + 12 * 5  # settings, columns, five colours a round
    text = out.read_text()
    out.write_text(text[:-4])  # killed as it wrote round 11's last row
    played.clear()
    stop_at[0] = 10**9
    assert main([*argv, "--out", str(out)]) == 0
    assert played == list(range(11, 30)) and capsys.readouterr().out == unbroken
    played.clear()
    rows, scores = C.played_rounds(30, 4, out=str(out))  # all kept: read, none played
    straight_rows, straight_scores = C.snapshot_rounds(30, 0, 4)
    assert played == [] and rows.dtype == straight_rows.dtype and scores.dtype == straight_scores.dtype
    assert np.array_equal(rows, straight_rows) and np.array_equal(scores, straight_scores)
    assert main([*argv[:2], "--rounds", "40", "--seed", "4", "--out", str(out)]) == 2
    # refused as a bad argument is: one line naming the command and the option
    prog = "lcanalysis studies wager-claims"
    assert capsys.readouterr().err == (f"{prog}: error: argument --out: {out} was made with other settings (rounds: "
                                       f"30 there, 40 here): write to another file (see {prog} --help)\n")
    assert played == []
