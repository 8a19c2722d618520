"""The consistency study: the hint at its budget against a reference with more budget."""

from __future__ import annotations

import json

import pytest

import lcanalysis as lc
from lcanalysis.studies import consistency as C

TINY = {"reference": 3.0, "budget": 0.02, "seed": 0}


def test_the_fixed_set_is_mid_round_views_and_a_row_is_what_the_advisor_says(tmp_path):
    out = tmp_path / "c.csv"
    study = C.consistency_study(2, out=out, **TINY)
    assert list(study["index"]) == [0, 1]
    for row in study.itertuples():
        deal, turns, view = C.study_position(int(row.index))
        assert view.to_string() == row.view and view.deck_count == row.cards_left > 2
        assert 8 <= turns <= 30 and len(view.history) == turns and deal == int(row.deal_seed)
        hint = lc.advise(view, time_budget=0.02, seed=1)
        ref = lc.advise(view, time_budget=0.06, seed=2)
        assert row.hint == hint.best.move and row.reference == ref.best.move
        mine = {m.move: m for m in ref.moves}[row.hint]
        assert row.loss == pytest.approx(mine.loss) and row.loss_stderr == pytest.approx(mine.loss_stderr)
        assert row.consistent == (mine.loss == 0 or mine.loss <= 2 * mine.loss_stderr)
        assert (row.hint == row.reference) <= (row.loss == 0)


def test_a_run_resumes_its_file_and_refuses_other_settings(tmp_path):
    out = tmp_path / "c.csv"
    C.consistency_study(1, out=out, **TINY)
    said = []
    study = C.consistency_study(2, out=out, progress=said.append, **TINY)
    assert C.load_consistency(out).equals(study) and len(study) == 2
    assert said[0] == "1 of 2 position(s) already in the file" and len(said) == 3
    assert said[1].startswith("1 position(s) to compare, each 0.02 s + 0.06 s of play-outs")
    with pytest.raises(ValueError, match=r"other settings .*reference"):
        C.consistency_study(2, out=out, **{**TINY, "reference": 4.0})


def test_a_file_made_without_draw_streams_is_read_as_such_and_not_mixed(tmp_path):
    """A file made before the draw streams (no ``streams`` in its settings line) reads as made
    without them: the advisor's default (on) refuses to add to it, ``streams=False`` resumes it."""
    out = tmp_path / "c.csv"
    study = C.consistency_study(1, out=out, streams=False, **TINY)
    text = out.read_text().replace(', "streams": false', "")  # as the published file's settings line
    assert text != out.read_text()
    out.write_text(text)
    assert C.load_consistency(out).attrs["identity"]["streams"] is False
    row = study.iloc[0]
    _, _, view = C.study_position(0)
    assert row.hint == lc.advise(view, time_budget=0.02, seed=1, streams=False).best.move
    with pytest.raises(ValueError, match=r"other settings .*streams"):
        C.consistency_study(2, out=out, **TINY)
    assert len(C.consistency_study(2, out=out, streams=False, **TINY)) == 2
    on = C.consistency_study(1, out=tmp_path / "s.csv", **TINY)
    assert on.attrs["identity"]["streams"] is True


def test_a_file_made_before_the_play_outs_a_second_were_raised_reads_as_6000_and_is_not_mixed(tmp_path):
    """No ``playout_rate`` in the settings line: made at 6,000 a second; its rows are the hints of
    that rate, the default rate refuses to add to it and 6,000 resumes it."""
    out = tmp_path / "c.csv"
    study = C.consistency_study(1, out=out, playout_rate=6000, **TINY)
    text = out.read_text().replace(', "playout_rate": 6000', "")
    assert text != out.read_text()
    out.write_text(text)
    assert C.load_consistency(out).attrs["identity"]["playout_rate"] == 6000
    _, _, view = C.study_position(0)
    assert study.iloc[0].hint_worlds == lc.advise(view, time_budget=0.02, seed=1, playout_rate=6000).moves[0].extra[
        "worlds"]
    with pytest.raises(ValueError, match=r"other settings .*playout_rate"):
        C.consistency_study(2, out=out, **TINY)
    assert len(C.consistency_study(2, out=out, playout_rate=6000, **TINY)) == 2
    assert C.consistency_study(1, out=tmp_path / "n.csv", **TINY).attrs["identity"]["playout_rate"] == 15000


def test_a_file_made_before_successive_halving_reads_as_two_stage_and_is_not_mixed(tmp_path):
    """A file whose settings name no schedule was made with the two-stage schedule: its rows are
    that schedule's hints, the default (halving) refuses to add to it, ``schedule="two-stage"``
    resumes it; the command line's ``--schedule`` reaches the file's settings."""
    out = tmp_path / "c.csv"
    study = C.consistency_study(1, out=out, schedule="two-stage", **TINY)
    text = out.read_text().replace(', "schedule": "two-stage"', "")
    assert text != out.read_text()
    out.write_text(text)
    assert C.load_consistency(out).attrs["identity"]["schedule"] == "two-stage"
    _, _, view = C.study_position(0)
    assert study.iloc[0].hint == lc.advise(view, time_budget=0.02, seed=1, schedule="two-stage").best.move
    with pytest.raises(ValueError, match=r"other settings .*schedule"):
        C.consistency_study(2, out=out, **TINY)
    assert len(C.consistency_study(2, out=out, schedule="two-stage", **TINY)) == 2
    assert C.consistency_study(1, out=tmp_path / "h.csv", **TINY).attrs["identity"]["schedule"] == "halving"
    with pytest.raises(ValueError, match="schedule must be one of halving, two-stage"):
        C.consistency_study(1, schedule="thirds", **TINY)


def test_the_summary_counts_and_judges_against_the_targets():
    import pandas as pd

    rows = pd.DataFrame({"consistent": [True] * 19 + [False], "loss": [0.0] * 19 + [2.0], "cpu_seconds": [1.0] * 20})
    s = C.consistency_summary(rows)
    assert (s["positions"], s["consistent"], s["share"]) == (20, 19, 0.95)
    assert s["share_low"] < 0.9 < s["share_high"]
    assert s["share_verdict"] == "undecided (the 95% interval crosses the target's edge)"
    assert s["mean_loss"] == pytest.approx(0.1) and s["loss_low"] < 0.1 < s["loss_high"]
    bad = C.consistency_summary(pd.DataFrame({"consistent": [False] * 30, "loss": [5.0, 6.0] * 15,
                                              "cpu_seconds": [1.0] * 30}))
    assert bad["share_verdict"] == bad["loss_verdict"] == "not met (the whole 95% interval is outside)"


def test_the_command_refuses_bad_settings(tmp_path, capsys):
    assert C.main(["--positions", "0", "--out", str(tmp_path / "x.csv")]) == 2
    assert "at least 1" in capsys.readouterr().err
    assert not (tmp_path / "x.csv.cmd").exists()  # the sidecar names a file that was made, never a refused run


def test_worker_processes_give_the_same_rows_as_one_process(tmp_path):
    one = C.consistency_study(2, **TINY)
    two = C.consistency_study(2, workers=2, out=tmp_path / "w.csv", **TINY)
    cols = ["index", "hint", "reference", "loss", "loss_stderr", "consistent", "view"]
    assert one[cols].equals(two[cols])


def test_the_figure_draws_every_position_in_its_colour():
    import pandas as pd

    from lcanalysis.show.figures import consistency_chart

    rows = pd.DataFrame({"consistent": [True, True, False], "loss": [0.0, 0.3, 2.5],
                         "loss_stderr": [0.0, 0.2, 0.4], "cpu_seconds": [1.0] * 3})
    fig = consistency_chart(rows["loss"], rows["loss_stderr"], rows["consistent"], C.consistency_summary(rows), 30)
    ax = fig.axes[0]
    sizes = [len(c.get_offsets()) for c in ax.collections]
    assert sizes == [2, 1]
    assert "2/3 consistent" in ax.get_title() and "30x reference" in ax.get_ylabel()


def test_the_report_names_the_reference_and_both_verdicts(tmp_path):
    study = C.consistency_study(1, out=tmp_path / "r.csv", **TINY)
    text = C.report(study)
    assert "1 positions: the hint's top turn is the 3x reference's" in text
    assert "(target 90%: " in text and "(target at most 0.3: " in text


def test_before_and_after_compares_the_positions_both_runs_hold():
    import numpy as np
    import pandas as pd

    def run(losses, tops):
        return pd.DataFrame({"index": range(len(losses)), "loss": losses, "loss_stderr": [0.5] * len(losses),
                             "consistent": [x <= 1.0 for x in losses], "hint": tops,
                             "reference": ["a"] * len(losses), "cpu_seconds": [1.0] * len(losses)})

    before = run([0.0, 2.0, 3.0, 0.5], ["a", "b", "c", "b"])
    after = run([0.0, 0.0, 1.0], ["a", "a", "b"])  # one position fewer: only the three in common count
    table = C.before_and_after(before, after)
    assert table.loc["before", "positions"] == 3 and table.loc["before", "consistent"] == 1
    assert table.loc["after", "consistent"] == 3 and table.loc["after", "same_top_turn"] == 2
    assert table.loc["before", "mean_loss"] == pytest.approx(5 / 3)
    change = table.loc["change in loss, paired"]
    assert change["mean_loss"] == pytest.approx(np.mean([0.0, -2.0, -2.0]))
    assert change["loss_low"] < change["mean_loss"] < change["loss_high"]
    with pytest.raises(ValueError, match="share no position"):
        C.before_and_after(before, run([1.0], ["a"]).assign(index=[9]))


def test_a_schedule_comparison_reads_as_one_study_a_schedule_on_the_positions_all_finished(tmp_path):
    """The rows of benchmarks/bench_schedules.py: one table a schedule, positions in order, only
    those every schedule finished, and the study's summary and paired comparison read them."""
    path = tmp_path / "s.csv"
    settings = {"reference": 30.0, "reference_schedule": "halving", "schedules": ["halving", "two-stage"],
                "playout_rate": 6000}
    path.write_text(f"# lcanalysis schedule comparison {json.dumps(settings)}\n"
                    "index,schedule,cards_left,hint,reference,loss,loss_stderr,consistent,hint_worlds,cpu_seconds\n"
                    "1,halving,30,+R7/D,+R7/D,0.0,0.0,True,900,0.5\n"
                    "1,two-stage,30,-B4/D,+R7/D,1.5,0.25,False,300,0.5\n"
                    "0,halving,20,+G2/D,+Y3/D,0.25,0.25,True,900,0.5\n"
                    "0,two-stage,20,+Y3/D,+Y3/D,0.0,0.0,True,300,0.5\n"
                    "2,halving,25,+W9/D,+W9/D,0.0,0.0,True,900,0.5\n")
    tables = C.load_schedule_comparison(path)
    # (settings that name no play-out policy: made when the hint played the plain heuristic's throughout)
    assert list(tables) == ["halving", "two-stage"]
    assert tables["halving"].attrs["identity"] == {**settings, "playout_policy": "plain"}
    assert list(tables["halving"]["index"]) == list(tables["two-stage"]["index"]) == [0, 1]
    assert list(tables["two-stage"]["consistent"]) == [True, False]
    table = C.before_and_after(tables["two-stage"], tables["halving"])
    assert table.loc["before", "consistent"] == 1 and table.loc["after", "consistent"] == 2
    assert table.loc["change in loss, paired", "mean_loss"] == pytest.approx(((0.25 - 0.0) + (0.0 - 1.5)) / 2)
    (tmp_path / "bad.csv").write_text(f"# lcanalysis schedule comparison {json.dumps(settings)}\n"
                                      "index,hint\n0,+R7/D\n")
    with pytest.raises(ValueError, match="is no schedule comparison: it has no consistent, loss"):
        C.load_schedule_comparison(tmp_path / "bad.csv")
    (tmp_path / "old.csv").write_text("index,schedule,hint\n0,halving,+R7/D\n")  # no settings line
    with pytest.raises(ValueError, match=r"old\.csv is not a schedule comparison file"):
        C.load_schedule_comparison(tmp_path / "old.csv")


def test_the_published_schedule_comparison_is_what_the_docs_and_the_article_say():
    from pathlib import Path

    root = Path(__file__).resolve().parent.parent
    tables = C.load_schedule_comparison(root / "data" / "simulated" / "schedule_consistency.csv")
    table = C.before_and_after(tables["two-stage"], tables["halving"])
    docs = (root / "docs" / "agents.md").read_text()
    article = (root / "notebooks" / "article_calibration.ipynb").read_text()
    for name, row in (("before", table.loc["before"]), ("after", table.loc["after"])):
        assert row.positions == 200
        shown = (f"{int(row.consistent)} = {row.share:.2f} [{row.share_low:.2f}, {row.share_high:.2f}] | "
                 f"{int(row.same_top_turn)} | {row.mean_loss:.2f} [{row.loss_low:.2f}, {row.loss_high:.2f}]")
        assert shown.replace("**", "") in docs.replace("**", ""), (name, shown)
    change = table.loc["change in loss, paired"]
    assert f"{-change.mean_loss:.2f} [{-change.loss_high:.2f}, {-change.loss_low:.2f}]" in docs
    after, before = int(table.loc["after", "consistent"]), int(table.loc["before", "consistent"])
    assert f"consistent at **{after} of 200 positions instead of {before}**" in article


def test_the_hints_own_error_bars_are_quoted_from_their_file(monkeypatch):
    """docs/agents.md quotes data/simulated/hint_honesty.csv ("when the hint misses, it says so"):
    recomputed here from the rows, each row's verdicts from its own numbers, and the hint's
    consistency from the file against the schedule comparison's (the same 200 views, the same hint)."""
    from pathlib import Path


    root = Path(__file__).resolve().parent.parent
    monkeypatch.syspath_prepend(str(root / "benchmarks"))
    from bench_hint_honesty import ROWS_FILE, SIGMAS

    from lcanalysis.tournaments.stats import wilson_interval

    d = ROWS_FILE.load(root / "data" / "simulated" / "hint_honesty.csv")
    assert len(d) == 200 and d["index"].is_unique
    same = d.hint == d.reference
    assert (d.consistent == ((d.ref_loss == 0) | (d.ref_loss <= SIGMAS * d.ref_loss_stderr))).all()
    assert (d.covered == (same | (d.hint_loss <= SIGMAS * d.hint_loss_stderr))).all()
    halving = C.load_schedule_comparison(root / "data" / "simulated" / "schedule_consistency.csv")["halving"]
    assert halving.set_index("index").loc[d["index"], "hint"].tolist() == d.hint.tolist()  # the same hints
    docs = " ".join((root / "docs" / "agents.md").read_text().split())
    lo, hi = wilson_interval(int(d.covered.sum()), len(d))
    assert f"in **{d.covered.sum()} of 200 views, {d.covered.mean():.2f} [{lo:.2f}, {hi:.2f}]**" in docs
    diff = d[~same]
    z = diff.hint_loss / diff.hint_loss_stderr
    assert (f"in the {len(diff)} views where the two top turns differ, {diff.covered.sum()}, the reference's turn "
            f"lying a median {z.median():.2f} of the hint's standard errors behind (at most {z.max():.2f})") in docs
    assert (f"the hint's standard error of the reference's turn has a median of "
            f"{diff.hint_loss_stderr.median():.2f} points, while the reference puts the hint's turn a median "
            f"{diff.ref_loss.median():.2f} points behind") in docs
    missed = d[~d.consistent]
    assert f"of the {len(missed)} views the study counts inconsistent, {missed.covered.sum()}." in docs
    assert f"reproduces the {int(d.consistent.sum())} consistent views above" in docs


def test_the_hint_at_15000_play_outs_a_second_is_quoted_from_its_files(monkeypatch):
    """docs/agents.md ("Play-outs a second") and the README quote data/simulated/consistency_15000.csv
    and hint_honesty_15000.csv: every figure recomputed here from the rows, each row's verdict from
    its own numbers, the hints the same in both files, and the rate the one the advisor uses."""
    from pathlib import Path

    from lcanalysis.advisor import ROLLOUTS_PER_SECOND

    root = Path(__file__).resolve().parent.parent
    monkeypatch.syspath_prepend(str(root / "benchmarks"))
    from bench_hint_honesty import ROWS_FILE, SIGMAS
    from bench_schedules import load_references

    sim = root / "data" / "simulated"
    refs = load_references(sim / "consistency_15000.jsonl")
    # (references that name no play-out policy: the plain heuristic's, before the hint's default was "staged")
    assert len(refs) == 200 and {k[1:] for k in refs} == {(30.0, "halving", 2, ROLLOUTS_PER_SECOND, "plain")}
    now = C.load_schedule_comparison(sim / "consistency_15000.csv")["halving"]
    assert len(now) == 200 and set(now["playout_rate"]) == {ROLLOUTS_PER_SECOND}
    for row in now.itertuples():  # each loss is the hint's turn's in its reference
        ref = refs[(row.index, 30.0, "halving", 2, ROLLOUTS_PER_SECOND, "plain")]
        assert ref["top"] == row.reference and ref["moves"][row.hint] == [pytest.approx(row.loss),
                                                                          pytest.approx(row.loss_stderr)]
        assert row.consistent == (row.loss == 0 or row.loss <= 2 * row.loss_stderr)
    before = C.load_schedule_comparison(sim / "schedule_consistency.csv")["halving"]
    table = C.before_and_after(before, now)
    docs = " ".join((root / "docs" / "agents.md").read_text().split())
    for name, rate, ref_n in (("before", "6,000 play-outs (before)", "180,000"), ("after", "**15,000 play-outs**",
                                                                                    "450,000")):
        r = table.loc[name]
        rows = before if name == "before" else now
        share = f"{int(r.consistent)} = {r.share:.2f} [{r.share_low:.2f}, {r.share_high:.2f}]"
        loss = f"{r.mean_loss:.2f} [{r.loss_low:.2f}, {r.loss_high:.2f}]"
        if name == "after":
            share, loss = f"**{share}**", f"**{loss}**"
        assert (f"| {rate} | {ref_n} | {share} | {int(r.same_top_turn)} | {loss} | {int((rows.loss > 1).sum())} |"
                in docs), name
    assert f"median {now.cpu_seconds.median():.2f} s" in docs and f"at most {now.cpu_seconds.max():.2f} s" in docs
    change = table.loc["change in loss, paired"]
    assert f"the loss falls by {-change.mean_loss:.2f} [{-change.loss_high:.2f}, {-change.loss_low:.2f}] points" in docs
    misses = now[~now.consistent]
    assert f"All {len(misses)} misses lose less than a point (at most {misses.loss.max():.2f})" in docs
    assert f"at **{int(now.consistent.sum())} of the 200, {now.consistent.mean():.0%}**" in docs

    d = ROWS_FILE.load(sim / "hint_honesty_15000.csv")
    assert len(d) == 200 and d["index"].is_unique
    assert now.set_index("index").loc[d["index"], "hint"].tolist() == d.hint.tolist()  # the same hints
    same = d.hint == d.reference
    assert (d.covered == (same | (d.hint_loss <= SIGMAS * d.hint_loss_stderr))).all()
    assert f"in **{d.covered.sum()} of 200 views**, and in all {len(misses)} of the inconsistent ones" in docs
    assert d.covered[~d.consistent].all()
    readme = " ".join((root / "README.md").read_text().split())
    diff = d[~same]
    assert (f"the hint's top turn was that of a think 30 times longer, or within two of that think's standard "
            f"errors, in {int(now.consistent.sum())} of the 200; where the two differed, the hint itself showed the "
            f"longer think's turn within two of its standard errors in {diff.covered.sum()} of {len(diff)} views "
            f"({d.covered.sum()} of 200 in all)") in readme
    assert (f"think 30 times longer (or within two of that think's standard errors) in "
            f"{int(now.consistent.sum())} of the 200") in readme  # "The hint in one screen"


def test_the_draw_streams_before_and_after_table_is_what_its_two_files_give():
    """docs/agents.md's table "on the first 100 positions" (before and after the draw streams):
    every cell recomputed from data/simulated/consistency.csv and consistency_streams.csv, and the
    paired fall in loss quoted under it."""
    import re
    from pathlib import Path

    root = Path(__file__).resolve().parent.parent
    before = C.load_consistency(root / "data" / "simulated" / "consistency.csv")
    after = C.load_consistency(root / "data" / "simulated" / "consistency_streams.csv")
    table = C.before_and_after(before, after)
    docs = re.sub(r"\s+", " ", (root / "docs" / "agents.md").read_text()).replace("**", "")
    parts = {"before": before[before["index"] < 100], "after": after}
    for name, words in (("before", "before (one deck order a world)"), ("after", "after (draw streams)")):
        row = table.loc[name]
        assert row.positions == 100
        over_2 = int((parts[name]["loss"] > 2).sum())
        shown = (f"| {words} | {int(row.consistent)} = {row.share:.2f} [{row.share_low:.2f}, {row.share_high:.2f}] "
                 f"| {int(row.same_top_turn)} | {row.mean_loss:.2f} [{row.loss_low:.2f}, {row.loss_high:.2f}] "
                 f"| {over_2} |")
        assert shown in docs, (name, shown)
    change = table.loc["change in loss, paired"]
    assert f"the mean loss falls by {-change.mean_loss:.2f} [{-change.loss_high:.2f}, {-change.loss_low:.2f}]" in docs


def test_a_file_another_code_wrote_is_not_resumed_unless_told(tmp_path, capsys, edit_source):
    """The study resumed its file whatever code ran, so an advisor edited between two runs added its
    hints beside the other's. The file keeps the code that wrote it now (``study_file.ADVICE_CODE``,
    hashed as a tournament's): after an edit of the advisor the command refuses, naming both codes,
    the file as it was; ``--allow-code-change`` goes on, the change recorded in the settings. The
    published file, from before (unversioned), loads, and is not resumed."""
    import shutil
    from pathlib import Path

    out = tmp_path / "c.csv"
    argv = ["--reference", "3", "--budget", "0.02", "--out", str(out)]
    assert C.main(["--positions", "1", *argv]) == 0
    made, rows = C.load_consistency(out).attrs["identity"]["code"], out.read_text()
    edit_source("advisor/advice.py")
    capsys.readouterr()
    assert C.main(["--positions", "2", *argv]) == 2
    err = " ".join(capsys.readouterr().err.split())
    assert f"error: {out} was written by lcanalysis {made['lcanalysis']} (source {made['source_sha256']})" in err
    assert "the source of the agents, the engine, the round player, the advisor or consistency.py changed since" in err
    assert out.read_text() == rows
    assert C.main(["--positions", "2", *argv, "--allow-code-change"]) == 0
    study = C.load_consistency(out)
    assert len(study) == 2 and study.attrs["identity"]["earlier_code"] == [{"code": made, "rows": 1}]
    assert study.attrs["identity"]["code"] != made

    published = Path(__file__).resolve().parent.parent / "data" / "simulated" / "consistency.csv"
    copy = tmp_path / "published.csv"
    shutil.copyfile(published, copy)
    with pytest.raises(ValueError, match=r"is unversioned .*no code"):
        C.consistency_study(201, out=copy, reference=30.0, streams=False, schedule="two-stage", playout_rate=6000,
                            playout_policy="plain")
    assert copy.read_bytes() == published.read_bytes()
    assert "code" not in C.load_consistency(published).attrs["identity"]


def test_a_torn_last_reference_of_bench_schedules_is_cut_off_and_made_again(tmp_path, monkeypatch, capsys):
    """benchmarks/bench_schedules.py --refs keeps each reference as a JSON line; a run killed as it
    wrote one left half a line, and the next run stopped on it (a JSONDecodeError traceback) or
    glued its next reference to it (a file that no longer read). The half line is cut off."""
    from pathlib import Path

    monkeypatch.syspath_prepend(str(Path(__file__).resolve().parent.parent / "benchmarks"))
    import bench_schedules as B

    refs = tmp_path / "refs.jsonl"
    first = {"index": 0, "reference": 1.0, "schedule": "halving", "seed": 2, "playout_rate": 100, "top": "+R3/D",
             "moves": {"+R3/D": [0.0, 0.0]}}
    second = {**first, "index": 1, "top": "-B2/D"}
    torn = json.dumps(first) + "\n" + json.dumps(second)[:40]
    refs.write_text(torn)
    assert list(B.load_references(refs)) == [(0, 1.0, "halving", 2, 100, "plain")]  # a reader (bench_hint_honesty)
    assert "is left out" in capsys.readouterr().err and refs.read_text() == torn  # leaves the file as it is
    known = B.load_references(refs, repair=True)  # the writer cuts it off
    assert list(known) == [(0, 1.0, "halving", 2, 100, "plain")]
    assert "a torn last line (an unfinished reference) is dropped and made again" in capsys.readouterr().err
    assert refs.read_text() == json.dumps(first) + "\n"
    monkeypatch.setattr(B.lc, "advise", lambda *a, **k: pytest.fail("the kept reference is made again"))
    assert B.cached_reference(None, 0, 1.0, "halving", refs, known, 100, policy="plain") == first


def test_the_summary_at_the_top_of_the_agents_page_quotes_todays_hint_from_its_file():
    """docs/agents.md's "Today, in short" gives the hint's consistency at 15,000 play-outs a second:
    the count, the share with its interval and the mean loss with its interval, from the file."""
    import re
    from pathlib import Path

    root = Path(__file__).resolve().parent.parent
    page = (root / "docs" / "agents.md").read_text()
    rest = page[page.index("## Today, in short"):]
    summary = re.sub(r"\s+", " ", rest[:rest.index("\n## ", 1)])
    sim = root / "data" / "simulated"
    now = C.load_schedule_comparison(sim / "consistency_15000.csv")["halving"]
    before = C.load_schedule_comparison(sim / "schedule_consistency.csv")["halving"]
    r = C.before_and_after(before, now).loc["after"]
    assert len(now) == 200 and r.share_low < 0.9 < r.share_high  # the 90% target: undecided
    assert r.loss_high < 0.3  # the mean-loss target: met
    assert (f"at {int(r.consistent)} of the 200 ({r.share:.2f} [{r.share_low:.2f}, {r.share_high:.2f}]: the target "
            f"of 90% is undecided") in summary
    assert f"it loses {r.mean_loss:.2f} [{r.loss_low:.2f}, {r.loss_high:.2f}] points on average" in summary


def test_bench_schedules_adds_no_reference_to_a_references_file_of_other_code_unless_told(
        tmp_path, monkeypatch, capsys, edit_source):
    """benchmarks/bench_schedules.py --refs kept references by whatever code ran: after an edit of
    the advisor a run added the new code's references to the old one's, one yardstick of two codes,
    and nothing in the file said which was which. Each reference names its code now, and a run
    with references to add refuses a file of other code's (or of unversioned ones) before it
    advises anything, as the rows files are refused; a run that finds every reference it needs
    there reads them; --allow-code-change goes on, each new line naming its code."""
    from pathlib import Path
    from types import SimpleNamespace

    monkeypatch.syspath_prepend(str(Path(__file__).resolve().parent.parent / "benchmarks"))
    import bench_schedules as B

    from lcanalysis.tournaments.results import describe_code

    made: list = []

    def advise(view, time_budget, seed, schedule, playout_rate, playout_policy):
        made.append("reference" if time_budget == 2.0 else "hint")
        return SimpleNamespace(moves=[SimpleNamespace(move=m, loss=loss, loss_stderr=0.1, extra={"worlds": 9})
                                      for m, loss in (("+R5/D", 0.0), ("-B3/D", 1.0 + view.index))])

    monkeypatch.setattr(B, "study_positions",
                        lambda n: [(i, i, 8, SimpleNamespace(index=i, deck_count=30 - i)) for i in range(n)])
    monkeypatch.setattr(B.lc, "advise", advise)
    refs = tmp_path / "refs.jsonl"

    def run(positions, out, allow=False):
        made.clear()
        B.run(positions, 2.0, ["halving"], "halving", tmp_path / out, refs, 100, allow_code_change=allow)
        return [json.loads(line) for line in refs.read_text().splitlines()]

    first = B.references_code()
    lines = run(2, "a.csv")
    assert made.count("reference") == 2 and [line["code"] for line in lines] == [first, first]

    edit_source("advisor/advice.py")
    now = B.references_code()
    assert now != first
    with pytest.raises(SystemExit) as refused:
        run(3, "b.csv")
    assert str(refused.value).startswith(
        f"error: {refs} was written by {describe_code(first)}, and this is {describe_code(now)}: the source of the "
        "agents, the engine, the round player, the advisor, consistency.py or bench_schedules.py changed since")
    assert "--allow-code-change (allow_code_change=True; each reference names the code that made it)" in str(
        refused.value)
    assert made == [] and [json.loads(line) for line in refs.read_text().splitlines()] == lines
    assert run(2, "c.csv") == lines and made == ["hint", "hint"]  # every reference there: read as it is
    capsys.readouterr()
    more = run(3, "d.csv", allow=True)
    assert more[:2] == lines and more[2]["index"] == 2 and more[2]["code"] == now
    assert made.count("reference") == 1
    assert "2 of its references were made by other code" in capsys.readouterr().err

    refs.write_text("".join(json.dumps({k: v for k, v in line.items() if k != "code"}) + "\n" for line in lines))
    with pytest.raises(SystemExit) as refused:  # references from before each named its code
        run(3, "e.csv")
    assert str(refused.value).startswith(f"error: {refs} is unversioned (its references name no code: it was "
                                         "written before the code behind its rows was kept)")
    assert made == []


def test_a_file_made_before_the_play_out_policy_could_be_chosen_reads_as_plain_and_is_not_mixed(tmp_path, capsys):
    """No ``playout_policy`` in the settings line: made when the hint played the plain heuristic's
    play-outs throughout. The default ("staged") refuses to add to it, naming the setting; ``--playout-policy
    plain`` resumes it; the policy reaches the advisor (a view with 15 cards left, where the two differ)."""
    out = tmp_path / "c.csv"
    argv = ["--positions", "1", "--reference", "3", "--budget", "0.02", "--out", str(out)]
    assert C.main([*argv, "--playout-policy", "plain"]) == 0
    text = out.read_text().replace(', "playout_policy": "plain"', "")
    assert text != out.read_text()
    out.write_text(text)
    assert C.load_consistency(out).attrs["identity"]["playout_policy"] == "plain"
    capsys.readouterr()
    assert C.main([*argv[:1], "2", *argv[2:]]) == 2
    assert "other settings (playout_policy: 'plain' there, 'staged' here)" in capsys.readouterr().err
    assert C.main([*argv[:1], "2", *argv[2:], "--playout-policy", "plain"]) == 0
    assert len(C.load_consistency(out)) == 2
    assert C.consistency_study(1, out=tmp_path / "d.csv", **TINY).attrs["identity"]["playout_policy"] == "staged"
    # position 82 of the set has 15 cards left: the staged hint plays the stalling heuristic there
    deal, turns, view = C.study_position(82)
    assert view.deck_count == 15
    row = C.compare(82, deal, turns, view, 3.0, 0.02, True, playout_policy="stalling")
    assert row["hint"] == lc.advise(view, time_budget=0.02, seed=1, streams=False, schedule="two-stage",
                                    playout_policy="stalling").best.move
    mine = C.compare(82, deal, turns, view, 3.0, 0.02, True, playout_policy="staged")
    assert (mine["hint_value"], mine["reference_value"]) == (row["hint_value"], row["reference_value"])
    plain = C.compare(82, deal, turns, view, 3.0, 0.02, True, playout_policy="plain")
    assert (plain["hint_value"], plain["reference_value"]) != (row["hint_value"], row["reference_value"])


def test_the_published_command_remakes_its_rows_where_the_policy_matters(tmp_path, capsys):
    """data/simulated/consistency.csv was made when the hint played the plain heuristic's play-outs
    throughout; its command (the .cmd beside it) says so (``--playout-policy plain``), so it remakes the
    file's rows to the last digit, those with 15 cards left too, where today's default plays the stalling
    heuristic's. The published file's first 82 rows, its settings line as it is (no ``playout_policy``),
    are resumed by the command: position 82 (15 cards left) is made again and is the published row."""
    import shlex
    from pathlib import Path

    root = Path(__file__).resolve().parent.parent
    published = (root / "data" / "simulated" / "consistency.csv").read_text().splitlines(keepends=True)
    words = shlex.split((root / "data" / "simulated" / "consistency.csv.cmd").read_text())
    assert words[:3] == ["python", "-m", "lcanalysis.studies.consistency"]
    assert words[words.index("--playout-policy") + 1] == "plain"
    args = words[3:]
    out = tmp_path / "c.csv"
    for option, value in (("--positions", "83"), ("--out", str(out)), ("--workers", "1")):
        args[args.index(option) + 1] = value
    head, rows = published[:2], published[2:]
    assert [r.split(",", 1)[0] for r in rows[:83]] == [str(i) for i in range(83)]
    out.write_text("".join(head + rows[:82]))
    # (the published file names no code: resuming it takes --allow-code-change)
    assert C.main([*args, "--allow-code-change"]) == 0
    made = out.read_text().splitlines(keepends=True)[-1].split(",")
    want = rows[82].split(",")
    cpu = C.COLUMNS.index("cpu_seconds")
    assert made[:cpu] + made[cpu + 1:] == want[:cpu] + want[cpu + 1:]
    assert int(made[C.COLUMNS.index("cards_left")]) == 15
    # today's default, the stalling play-outs at 15 cards, is refused on this file, naming the policy
    without = [a for a in args if a not in ("--playout-policy", "plain")]
    capsys.readouterr()
    assert C.main([*without, "--allow-code-change"]) == 2
    assert "other settings (playout_policy: 'plain' there, 'staged' here)" in capsys.readouterr().err
