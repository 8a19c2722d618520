"""The skill-and-luck study (lcanalysis/studies/skill_and_luck.py): its summaries against
calculations by hand on small made-up tables, and its real runs against the tournament's and
the records' own numbers."""

from __future__ import annotations

import json
import math
import re
from io import StringIO
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from scipy import stats as st

from lcanalysis import reviewer
from lcanalysis.game.records import read_record, write_record
from lcanalysis.reviewer import REVIEW_VERSION
from lcanalysis.studies import skill_and_luck as S
from lcanalysis.tournaments.results import code_version
from lcanalysis.tournaments.runner import run_tournament


def _decisions(agent, losses_by_round):
    rows = []
    for deal, losses in enumerate(losses_by_round):
        for i, x in enumerate(losses):
            rows.append({"agent": agent, "deal": deal, "kind": "decision", "index": i, "deck": 40 - i,
                         "loss": x, "loss_stderr": 1.0, "forced": False, "mark": None, "played": "a", "best": "b"})
    return rows


def test_an_error_rate_is_total_loss_over_unforced_decisions_with_a_standard_error_over_rounds():
    losses = [[1.0, 2.0, 3.0, 2.0], [0.0, 0.0, 1.0, 3.0], [5.0, 1.0, 0.0, 2.0]]
    df = pd.DataFrame(_decisions("greedy", losses) + [{"agent": "greedy", "deal": 0, "kind": "decision", "index": 9,
                                                        "deck": 3, "loss": 50.0, "loss_stderr": 0.0, "forced": True,
                                                        "mark": None, "played": "x", "best": "x"}])
    e = S.error_rates(df)["greedy"]
    means = [np.mean(x) for x in losses]  # equal decisions a round: the mean of round means
    assert e.mean == pytest.approx(np.mean(means)) and e.n == 12  # the forced decision does not count
    assert e.stderr == pytest.approx(np.std(means, ddof=1) / math.sqrt(3))
    # the rounds are the independent samples: Student's t with 3 - 1 degrees of freedom, not 12 - 1
    assert e.ci95 == pytest.approx(st.t.interval(0.95, 2, loc=np.mean(means), scale=e.stderr))
    table = S.error_rate_table(df)
    assert table.loc["greedy", "rounds"] == 3 and table.loc["greedy", "unforced decisions"] == 12


def test_gaps_between_agents_are_differences_with_independent_errors():
    df = pd.DataFrame(_decisions("random", [[6.0, 8.0], [4.0, 6.0]]) + _decisions("greedy", [[1.0, 2.0], [2.0, 3.0]]))
    gaps = S.error_rate_gaps(df)
    row = gaps.loc["random - greedy"]
    a, b = S.error_rates(df)["random"], S.error_rates(df)["greedy"]
    se = math.hypot(a.stderr, b.stderr)
    assert row["points a decision"] == pytest.approx(6.0 - 2.0)
    assert row["s.e."] == pytest.approx(round(se, 2))
    assert row["P(gap > 0)"] == pytest.approx(round(float(st.norm.cdf(4.0 / se)), 3))
    # the 95% interval: Student's t over the rounds (2 an agent), Welch-Satterthwaite's degrees of freedom,
    # where it was 4 ± 1.96 s.e. By hand: round means 7 and 5 (s.e. 1), 1.5 and 2.5 (s.e. 0.5); the degrees
    # of freedom (1 + 0.25)^2 / (1 / 1 + 0.0625 / 1) = 1.4706
    assert (a.stderr, b.stderr) == pytest.approx((1.0, 0.5))
    half = st.t.ppf(0.975, 1.5625 / 1.0625) * math.sqrt(1.25)
    assert half == pytest.approx(6.92, abs=0.01)  # (three times the 2.19 of 1.96 s.e.)
    assert (row["95% low"], row["95% high"]) == (round(4.0 - half, 2), round(4.0 + half, 2))


def test_the_loss_check_counts_losses_below_minus_two_standard_errors():
    rows = _decisions("heuristic", [[1.0, -1.5, -2.5, 0.0]])
    rows[3].update(played="b")  # the played turn is the best turn: loss 0
    check = S.loss_check(pd.DataFrame(rows))
    assert check["unforced decisions"] == 4 and check["below -2 s.e."] == 1 and check["lowest loss / s.e."] == -2.5
    assert check["played the best turn"] == check["of them with loss 0"] == 1


def test_stages_and_the_mean_luck_by_stage_with_a_standard_error_over_deals():
    assert [S.stage_of(d) for d in (44, 33, 32, 22, 21, 11, 10, 1)] == [
        S.STAGE_NAMES[0]] * 2 + [S.STAGE_NAMES[1]] * 2 + [S.STAGE_NAMES[2]] * 2 + [S.STAGE_NAMES[3]] * 2
    with pytest.raises(ValueError):
        S.stage_of(0)
    rng = np.random.default_rng(0)
    rows = [{"deal": d, "deck": deck, "luck": float(rng.normal()), "drawer": "x"}
            for d in range(6) for deck in (44, 40, 20, 5)]
    df = pd.DataFrame(rows)
    est = S.luck_by_stage(df)["all"]
    early = df[df.deck >= 33].groupby("deal").luck.mean()  # two draws a deal: the mean of deal means
    assert est[S.STAGE_NAMES[0]].mean == pytest.approx(early.mean())
    assert est[S.STAGE_NAMES[0]].stderr == pytest.approx(early.std(ddof=1) / math.sqrt(6))
    assert est["whole round"].n == 24


def test_the_fast_luck_of_every_draw_adds_up_to_the_tournaments_luck_of_each_seat():
    draws = S.fast_luck_draws(3, seed=4, first_deal=7)
    t = run_tournament(["heuristic", "greedy"], deals=3, seed=4, first_deal=7, luck_adjusted=True, executor="serial",
                       progress=False)
    sums = draws.groupby(["deal", "swap", "seat"]).luck.sum()
    for row in t.itertuples():
        assert sums[(row.deal, row.swap, 0)] == pytest.approx(row.luck0)
        assert sums[(row.deal, row.swap, 1)] == pytest.approx(row.luck1)
    assert len(draws) == 6 * 44


def test_the_luck_adjusted_summary_by_hand():
    t = run_tournament(["heuristic", "greedy"], deals=6, seed=2, luck_adjusted=True, executor="serial", progress=False)
    s = S.luck_adjusted_summary(t)
    sign = np.where(t.player0 == "heuristic", 1, -1)
    raw = (sign * (t.score0 - t.score1)).to_numpy().reshape(-1, 2).mean(axis=1)
    adj = (sign * ((t.score0 - t.score1) - (t.luck0 - t.luck1))).to_numpy().reshape(-1, 2).mean(axis=1)
    assert (s["agent"], s["deals"], s["rounds"]) == ("heuristic", 6, 12)
    assert s["raw mean difference"].mean == pytest.approx(raw.mean())
    assert s["luck-adjusted mean difference"].mean == pytest.approx(adj.mean())
    assert s["mean luck difference"].mean == pytest.approx((raw - adj).mean())
    assert s["variance ratio"] == pytest.approx(raw.var(ddof=1) / adj.var(ddof=1))
    z = st.norm.ppf(0.975) + st.norm.ppf(0.8)
    assert s["rounds needed, luck-adjusted duplicate deals"] == pytest.approx(2 * (z * adj.std(ddof=1) / 2.5) ** 2)
    assert list(S.rounds_needed_table(s).index) == ["single rounds", "duplicate deals", "luck-adjusted duplicate deals"]
    assert len(S.summary_table(s)) == 3 and set(S.difference_estimates(s)) == {
        "raw mean difference", "luck-adjusted mean difference"}


def test_a_reviewed_round_reconciles_with_its_record(tmp_path):
    reviews = S.review_rounds(["greedy"], rounds=1, time_budget=0.01)
    rnd = reviews[reviews.kind == "round"].iloc[0]
    rec = S.play_recorded_round([S._agent("greedy", 100), S._agent("heuristic", 100)], int(rnd.seed),
                                labels=["greedy", "heuristic"])
    s0, s1 = rec.scores()
    assert rnd.result == s0 - s1 and rnd.seat == 0
    dec = reviews[reviews.kind == "decision"]
    assert len(dec) == sum(1 for step in rec.steps() if step.player == 0)
    draws = reviews[reviews.kind.isin(["decision", "draw"]) & reviews.luck.notna()]
    assert draws.fast_luck.notna().all()
    assert len(draws) == sum(1 for step in rec.steps() if step.turn.move.draws_from_deck)
    # the agent's luck in the round row is the sum of its draws' luck
    mine = dec.luck.dropna().sum()
    assert rnd.luck == pytest.approx(mine)
    assert rnd.luck_adjusted == pytest.approx(rnd.result - (rnd.luck - rnd.opponent_luck))
    path = tmp_path / "r.json"
    path.write_text(write_record(rec))
    assert read_record(path).scores() == (s0, s1)


def test_the_study_writes_its_data(tmp_path):
    out = tmp_path / "draws.csv"
    assert S.main(["draws", "--deals", "1", "--first-deal", "3", "--out", str(out)]) == 0
    df = pd.read_csv(out)
    assert len(df) == 88 and set(df.columns) == {"deal", "swap", "seat", "drawer", "deck", "luck"}
    with pytest.raises(SystemExit) as exc:  # refused by name before any round is played
        S.main(["reviews", "--rounds", "1", "--search-floor", "-1", "--out", str(tmp_path / "r.csv")])
    assert exc.value.code == 2 and not (tmp_path / "r.csv").exists()


@pytest.mark.parametrize("args, message", [
    (["reviews", "--rounds", "0"], "--rounds must be >= 1, got 0"),
    (["reviews", "--rounds", "1", "--time", "-1"], "--time: must be more than 0 and at most 60 seconds, got -1"),
    (["review-luck", "--deals", "1", "--time", "0"], "--time: must be more than 0 and at most 60 seconds, got 0"),
    (["draws", "--deals", "-5"], "--deals must be >= 1, got -5"),
    (["draws", "--deals", "1", "--first-deal", "-1"], "--first-deal must be >= 0, got -1"),
    (["draws", "--deals", "1", "--seed", "x"], "--seed must be a whole number, got 'x'"),
    (["draws", "--deals", "1", "--out", "NOFOLDER/d.csv"], "the folder .*NOFOLDER does not exist"),
])
def test_the_study_refuses_bad_arguments_by_name_before_any_work(tmp_path, capsys, args, message):
    """--rounds 0 and --deals -5 wrote an empty file, --time -1 ended in a traceback after a round
    was played, --time 0 was taken, a missing folder was a traceback after the work."""
    out = tmp_path / "out.csv"
    argv = args if "--out" in args else [*args, "--out", str(out)]
    argv = [str(tmp_path / a) if a.startswith("NOFOLDER") else a for a in argv]
    with pytest.raises(SystemExit) as exc:
        S.main(argv)
    assert exc.value.code == 2 and not out.exists()
    assert re.search(message, capsys.readouterr().err)


def test_the_one_player_luck_with_the_hand_model_is_quoted_from_its_file():
    """The hand model's review luck (``reviewer.LUCK_HAND_MODEL``) as the article, docs/agents.md ("The game
    review", moved there from the README) and the reviewer quote it, computed from the published file;
    its uniform column is the older file's."""
    import json
    from pathlib import Path

    from lcanalysis import reviewer

    root = Path(__file__).resolve().parent.parent
    model = S.load_review_luck(root / "data/simulated/skill_and_luck_review_luck_model.csv")
    uniform = S.load_review_luck(root / "data/simulated/skill_and_luck_review_luck.csv")
    assert (model[["deal", "seat", "deck"]].to_numpy() == uniform[["deal", "seat", "deck"]].to_numpy()).all()
    assert np.array_equal(model.luck.to_numpy(), uniform.luck.to_numpy())
    check = S.review_luck_check(model)
    m, u = check["review's luck, hand model, a draw"], check["review's luck, a draw"]
    assert m.n == u.n == 8800 and u.mean < m.mean < 0  # less biased, still below zero
    quote_m, quote_u = f"{m.mean:.2f} ± {m.stderr:.2f}", f"{u.mean:.2f} ± {u.stderr:.2f}"
    agents_page = " ".join((root / "docs" / "agents.md").read_text().split())
    assert f"averaged {quote_m} points a draw, against {quote_u} dealt uniformly" in agents_page
    nb = json.loads((root / "notebooks/article_skill_and_luck.ipynb").read_text())
    text = " ".join("".join(c["source"]) for c in nb["cells"] if c["cell_type"] == "markdown").replace("−", "-")
    assert (f"averages {m.mean:.2f} points a draw (standard error {m.stderr:.2f}), against {u.mean:.2f} "
            f"({u.stderr:.2f}) dealt uniformly") in text
    rounds = check["review's luck, hand model, a player's round"]
    assert f"comes out {rounds.mean:.1f} ± {rounds.stderr:.1f} points" in text
    settings = Path(reviewer.settings.__file__).read_text()  # where the figure is written beside the setting
    assert reviewer.LUCK_HAND_MODEL and f"{m.mean:.2f} +- {m.stderr:.2f}" in settings


def test_the_reviews_are_written_a_round_at_a_time_and_resumed_after_an_interrupt(tmp_path, monkeypatch):
    """The reviews (11 CPU-minutes published) were written only at the end: an interrupt lost them
    all, and a rerun started again. Now a killed run keeps its whole rounds, drops a torn one, and a
    rerun reviews only the rest, giving the file an uninterrupted run writes."""
    agents = ("random", "greedy")
    whole = S.review_rounds(agents=agents, rounds=2, time_budget=0.02, seed=3)
    path = str(tmp_path / "reviews.csv")
    real = S._review_round
    calls = []

    def interrupted(*args, **kwargs):
        if len(calls) == 3:
            raise KeyboardInterrupt  # killed while reviewing the fourth round
        calls.append(args[:5:4])
        return real(*args, **kwargs)

    monkeypatch.setattr(S, "_review_round", interrupted)
    with pytest.raises(KeyboardInterrupt):
        S.write_reviews(path, rounds=2, time_budget=0.02, seed=3, agents=agents)
    kept = S.load_reviews(path)
    assert set(zip(kept["agent"], kept["deal"])) == {("random", 0), ("random", 1), ("greedy", 0)}
    with open(path, "a", encoding="utf-8") as fh:
        fh.write("greedy,heuristic,1,")  # a torn row of the round being written
    calls.clear()
    # the last round in the file may be partial (a killed write can end at a line's end): done again
    assert S.write_reviews(path, rounds=2, time_budget=0.02, seed=3, agents=agents) == 2
    assert calls == [("greedy", 0), ("greedy", 1)]
    again = S.load_reviews(path)
    assert again.attrs["identity"]["seed"] == 3
    expected = pd.read_csv(StringIO(whole.to_csv(index=False, float_format="%.4f")))
    pd.testing.assert_frame_equal(again.drop(columns="seconds"), expected.drop(columns="seconds"))
    with pytest.raises(ValueError, match=r"was made with other settings \(seed: 3 there, 4 here\)"):
        S.write_reviews(path, rounds=3, time_budget=0.02, seed=4, agents=agents)


def test_a_unit_of_many_rows_cut_at_a_line_s_end_is_done_again(tmp_path):
    """A run killed while writing a round's rows can leave some of them, each line whole: the
    round's key is in the file, so it read as done, and its missing rows were lost for good. Now
    the file's last unit is always done again (by hand: rows of units 1, 1, 2, 2 with the last
    row of unit 2 missing keep unit 1 only)."""
    import json

    from lcanalysis.studies.study_file import StudyFile

    sf = StudyFile("test", "# test ", ["unit", "name", "x"], keys=("unit", "name"), text_keys=("name",),
                   identity_keys=("s",), many_rows=True, float_format="%.4f")
    path = tmp_path / "units.csv"
    with sf.open(str(path), {"s": 1}) as (write, done):
        assert done == set()
        write([{"unit": 1, "name": "a", "x": 0.5}, {"unit": 1, "name": "a", "x": 1 / 3}])
        write([{"unit": 2, "name": "b", "x": 2.0}, {"unit": 2, "name": "b", "x": 3.0}])
    text = path.read_text()
    assert text == '# test {"s": 1}\nunit,name,x\n1,a,0.5000\n1,a,0.3333\n2,b,2.0000\n2,b,3.0000\n'
    path.write_text(text[: text.rindex("2,b,3")])  # the last row of unit 2 never written
    with sf.open(str(path), {"s": 1}) as (write, done):
        assert done == {(1, "a")}
        assert path.read_text() == '# test {"s": 1}\nunit,name,x\n1,a,0.5000\n1,a,0.3333\n'
        write({"unit": 2, "name": "b", "x": 2.0})  # one row is a unit too
    assert sf.load(path)["x"].tolist() == [0.5, 0.3333, 2.0]
    assert json.loads(path.read_text().split("\n")[0][len("# test "):]) == {"s": 1}


def test_a_reviews_file_is_resumed_only_with_the_settings_it_was_made_with(tmp_path, capsys):
    """The settings are the file's first line (they were in a .cmd sidecar, which a copied file
    lost): another --time is refused before any work, naming both, and so is a plain CSV."""
    import json

    out = tmp_path / "reviews.csv"
    out.write_text(S.REVIEWS_FILE.mark + json.dumps({"time": 0.1, "seed": 0, "search_floor": 0.0,
                                                     "opponent": "heuristic", "search_ms": 100.0})
                   + "\n" + ",".join(S.REVIEW_COLUMNS) + "\n")
    with pytest.raises(SystemExit) as exc:
        S.main(["reviews", "--rounds", "4", "--time", "0.2", "--search-floor", "0", "--out", str(out)])
    assert exc.value.code == 2
    assert "was made with other settings (time: 0.1 there, 0.2 here): write to another file" \
        in capsys.readouterr().err
    assert not Path(str(out) + ".cmd").exists()  # a refused resume leaves no sidecar
    out.write_text(",".join(S.REVIEW_COLUMNS) + "\n")
    with pytest.raises(SystemExit):
        S.main(["reviews", "--rounds", "4", "--out", str(out)])
    assert "is not a skill-and-luck reviews file" in capsys.readouterr().err


def test_the_review_luck_is_written_a_deal_at_a_time_and_resumed_after_an_interrupt(tmp_path, monkeypatch, capsys):
    """The review's luck of every draw (5 CPU-minutes with the hand model) was written only at the
    end. Now a killed run keeps its deals but the last, which is rated again, and the rerun gives
    the file an uninterrupted run writes, to the last digit."""
    whole = S.review_luck_draws(3, time_budget=0.02, seed=1, first_deal=7, hand_model=True)
    path = tmp_path / "luck.csv"
    argv = ["review-luck", "--deals", "3", "--first-deal", "7", "--time", "0.02", "--seed", "1", "--hand-model",
            "--out", str(path)]
    real = S._review_luck_deal
    rated = []

    def interrupted(k, *args):
        if len(rated) == 2:
            raise KeyboardInterrupt
        rated.append(k)
        return real(k, *args)

    monkeypatch.setattr(S, "_review_luck_deal", interrupted)
    with pytest.raises(KeyboardInterrupt):
        S.main(argv)
    assert sorted(set(S.load_review_luck(path)["deal"])) == [7, 8]
    with open(path, "rb+") as fh:  # killed while writing deal 8: its last row torn
        fh.truncate(path.stat().st_size - 7)
    rated.clear()
    assert S.main(argv) == 0
    assert rated == [8, 9]  # deal 7 kept, the last deal in the file (8) rated again
    code = json.dumps(code_version(S.review_luck_file(True).code[0]))
    settings = ('{"time": 0.02, "seed": 1, "hand_model": true, "agents": ["heuristic", "greedy"], '
                f'"review_version": {REVIEW_VERSION}, "code": {code}}}')
    assert path.read_text() == S.review_luck_file(True).mark + settings + "\n" + whole.to_csv(
        index=False, float_format="%.4f")
    command = "python -m lcanalysis.studies.skill_and_luck " + " ".join(argv)
    assert Path(str(path) + ".cmd").read_text() == command + "\n"
    with pytest.raises(SystemExit):
        S.main([*argv[:-3], "--out", str(path)])  # without --hand-model
    assert "(hand_model: True there, False here)" in capsys.readouterr().err
    monkeypatch.setattr(reviewer, "REVIEW_VERSION", REVIEW_VERSION + 1)  # the review's numbers changed since
    before = path.read_text()
    rated.clear()
    with pytest.raises(SystemExit):
        S.main([*argv[:2], "4", *argv[3:]])  # a deal more: work left, refused before any deal is rated
    assert (f"{path} was written by review version {REVIEW_VERSION}, and this is review version "
            f"{REVIEW_VERSION + 1}: resuming it would add") in capsys.readouterr().err
    assert rated == [] and path.read_text() == before
    assert S.main(argv) == 0  # nothing left to rate: nothing can mix, so not refused; the file as it was
    assert rated == [] and path.read_text() == before
    assert path.read_text() == before


def test_a_file_of_the_reviews_by_another_review_version_is_not_resumed(tmp_path, monkeypatch, capsys):
    """The reviews file's settings named no version of the review, so a rerun of its command, which
    does the file's last round again, wrote that round with today's review beside the file's other
    rounds (the first published file's deal 0 came out with 13 other losses). Now the settings hold
    ``reviewer.REVIEW_VERSION``, and a file another version wrote is refused before any work, naming
    both versions, the file untouched; a file from before versions (unversioned), too, and it still
    loads. The published file is this version's (regenerated when the version was raised to 2, and to 3). A run
    with nothing left to write (the published command on the published file) is not refused: nothing
    can mix."""
    root = Path(__file__).resolve().parent.parent
    published = root / "data/simulated/skill_and_luck_reviews.csv"
    cmd = (root / "data/simulated/skill_and_luck_reviews.csv.cmd").read_text()
    reviews = S.load_reviews(published)  # what the notebook reads
    assert reviews.attrs["identity"]["review_version"] == REVIEW_VERSION
    assert set(reviews.agent) == set(S.AGENTS) and reviews.deal.nunique() == 40
    copy = tmp_path / "skill_and_luck_reviews.csv"
    first, rest = published.read_text().split("\n", 1)
    mark = S.REVIEWS_FILE.mark
    settings = json.loads(first[len(mark):])
    del settings["review_version"]  # as the file from before versions were kept
    copy.write_text(mark + json.dumps(settings) + "\n" + rest)
    (tmp_path / "skill_and_luck_reviews.csv.cmd").write_text(cmd)
    before = copy.read_bytes()
    argv = [*cmd.split()[3:-1], str(copy)]  # the published command, on the copy
    assert argv[-2:] == ["--out", str(copy)] and argv[0] == "reviews" and argv[1:3] == ["--rounds", "40"]
    assert S.main(argv) == 0  # every round of it is in the file: nothing to add, so not refused
    assert copy.read_bytes() == before and (tmp_path / "skill_and_luck_reviews.csv.cmd").read_text() == cmd
    capsys.readouterr()
    with pytest.raises(SystemExit) as exc:  # a round more: work left, refused
        S.main([argv[0], "--rounds", "41", *argv[3:]])
    assert exc.value.code == 2
    err = capsys.readouterr().err
    assert (f"{copy} is unversioned (its settings name no review_version: it was written before review versions "
            f"were kept), and this is review version {REVIEW_VERSION}: resuming it would add this version's rows "
            "to the other's, two versions' numbers in one file; write to another file (this one still loads as "
            "it is)") in " ".join(err.split()), err
    assert copy.read_bytes() == before and (tmp_path / "skill_and_luck_reviews.csv.cmd").read_text() == cmd
    assert "review_version" not in S.load_reviews(copy).attrs["identity"] and len(S.load_reviews(copy)) > 0

    # a file of this version resumes; raise the version, and it is refused by name
    path = tmp_path / "mine.csv"
    assert S.write_reviews(str(path), rounds=1, time_budget=0.02, agents=("random",)) == 1
    assert S.load_reviews(path).attrs["identity"]["review_version"] == REVIEW_VERSION
    assert S.write_reviews(str(path), rounds=1, time_budget=0.02, agents=("random",)) == 1  # the last round again
    mine = path.read_text()
    monkeypatch.setattr(reviewer, "REVIEW_VERSION", REVIEW_VERSION + 1)
    with pytest.raises(ValueError, match=f"was written by review version {REVIEW_VERSION}, and this is review "
                                         f"version {REVIEW_VERSION + 1}: resuming it would add"):
        S.write_reviews(str(path), rounds=2, time_budget=0.02, agents=("random",))
    assert path.read_text() == mine


def test_a_reviews_file_whose_rounds_other_agents_code_played_is_not_resumed_unless_told(tmp_path, edit_source):
    """The review's version guards the review's numbers, but the rounds reviewed are the agents'
    play: a file resumed after an edit of the agents, the engine or the round player added rounds
    those played beside the file's. Its settings keep the code that played now (the tournament's
    code version, ``study_file.PLAY_CODE``, and the study's module): such a resume is refused,
    naming both codes, unless ``allow_code_change``, which records the change. An edit of the
    advisor alone is the review's (``REVIEW_VERSION``, raised whenever the review's numbers change)
    and does not refuse it."""

    path, luck = tmp_path / "reviews.csv", tmp_path / "luck.csv"
    assert S.write_reviews(str(path), rounds=2, time_budget=0.02, agents=("random",)) == 2
    assert S.write_review_luck(str(luck), deals=2, time_budget=0.02) == 2
    made = code_version(S.REVIEWS_FILE.code[0])
    assert code_version(S.review_luck_file(False).code[0]) == made
    assert S.load_reviews(path).attrs["identity"]["code"] == made == S.load_review_luck(luck).attrs["identity"]["code"]
    edit_source("advisor/playouts.py")
    assert S.write_reviews(str(path), rounds=2, time_budget=0.02, agents=("random",)) == 1  # the last round again
    assert S.write_review_luck(str(luck), deals=2, time_budget=0.02) == 1
    mine, rated = path.read_text(), luck.read_text()
    edit_source("runner.py")  # the round player (tournaments/runner.py)
    now = code_version(S.REVIEWS_FILE.code[0])
    assert now != made
    said = (f"was written by lcanalysis {made['lcanalysis']} (source {made['source_sha256']}), and this is lcanalysis "
            f"{now['lcanalysis']} (source {now['source_sha256']}): the source of the agents, the engine, the "
            "round player or skill_and_luck.py changed since")
    with pytest.raises(ValueError, match=re.escape(said)):
        S.write_reviews(str(path), rounds=3, time_budget=0.02, agents=("random",))
    with pytest.raises(ValueError, match=re.escape(said)):
        S.write_review_luck(str(luck), deals=3, time_budget=0.02)
    assert path.read_text() == mine and luck.read_text() == rated
    first = len(S.load_reviews(path).query("deal == 0"))
    assert S.write_reviews(str(path), rounds=3, time_budget=0.02, agents=("random",), allow_code_change=True) == 2
    reviews = S.load_reviews(path)
    # the earlier code's rows are those of round 0; round 1 (the file's last) was done again
    assert reviews.attrs["identity"]["code"] == now and set(reviews.deal) == {0, 1, 2}
    assert reviews.attrs["identity"]["earlier_code"] == [{"code": made, "rows": first}]
    assert S.write_review_luck(str(luck), deals=3, time_budget=0.02, allow_code_change=True) == 2
    assert S.load_review_luck(luck).attrs["identity"]["code"] == now
    edit_source("skill_and_luck.py")  # how the study plays and rates its rounds
    with pytest.raises(ValueError, match=re.escape("the round player or skill_and_luck.py changed since")):
        S.write_reviews(str(path), rounds=4, time_budget=0.02, agents=("random",))  # a round more: work left
    kept = path.read_text()
    # the rounds asked for are all in the file: nothing to write, nothing can mix, so not refused
    assert S.write_reviews(str(path), rounds=3, time_budget=0.02, agents=("random",)) == 0
    assert path.read_text() == kept


def test_the_round_robins_win_rates_carry_their_interval_over_deals():
    """``match_results`` gave each pairing's win rate without an interval. A against B on 5 duplicate
    deals, won 1-0, 2-0, 1-0, 2-0, 1-0 of each deal's two seatings: deal means 0.5, 1, 0.5, 1, 0.5,
    mean 0.7, standard error sqrt(0.075 / 5) = 0.122474, t(0.975, 4) = 2.776445: [0.36, 1.04], kept
    inside 0-1 (Wilson's over the 10 rounds would be [0.40, 0.89])."""
    from lcanalysis.tournaments.runner import RESULT_COLUMNS

    rows = []
    for deal, (first, second) in enumerate([(1, 0), (1, 1), (1, 0), (1, 1), (0, 1)]):
        for swap, won in ((0, first), (1, second)):
            a_seat = swap  # A sits in seat 0, then in seat 1
            scores = [10, 0] if (won == 1) == (a_seat == 0) else [0, 10]
            players = ["A", "B"] if a_seat == 0 else ["B", "A"]
            rows.append([0, deal, swap, 1, deal, 5, *players, 0, *scores, 40, False])
    table = pd.DataFrame(rows, columns=RESULT_COLUMNS)
    got = S.match_results(table).iloc[0]
    assert (got.agent, got.opponent, got.win_rate) == ("A", "B", 0.7)
    assert (got.win_unit_low, got.win_unit_high) == (round(0.7 - 2.776445 * 0.122474, 2), 1.0)


def test_a_study_file_an_earlier_review_version_wrote_is_refused_naming_both_versions(tmp_path):
    """Version 16: in a match, each decision the play-outs judge carries its match loss, so a review of a match
    says more than version 15's (15: in an exact tie of a deck draw with a discard-pile draw listed first, the
    best turn named is the deck draw, the hint's and the tutor's). A reviews or
    review-luck file whose settings say version 15 wrote it is refused before any work, naming both versions, the
    file untouched."""
    assert REVIEW_VERSION == 16
    for path, write in ((tmp_path / "reviews.csv", lambda p, n: S.write_reviews(p, rounds=n, time_budget=0.02,
                                                                                agents=("random",))),
                        (tmp_path / "luck.csv", lambda p, n: S.write_review_luck(p, deals=n, time_budget=0.02))):
        assert write(str(path), 1) == 1
        first, rest = path.read_text().split("\n", 1)
        mark = first[: first.index("{")]
        settings = json.loads(first[len(mark):])
        assert settings["review_version"] == 16
        path.write_text(mark + json.dumps({**settings, "review_version": 15}) + "\n" + rest)
        before = path.read_text()
        with pytest.raises(ValueError, match=f"{re.escape(str(path))} was written by review version 15, and this "
                                             "is review version 16: resuming it would add"):
            write(str(path), 2)
        assert path.read_text() == before
