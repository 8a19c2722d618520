"""``lcanalysis review --out FILE`` keeps each turn's judgement as it is made and resumes from it:
a review stopped part-way and run again prints the review an uninterrupted run prints (the
reference: the eager review's outputs in ``tests/data/review_golden.json``), and a file made for
another record or with other settings is refused, naming the difference."""

from __future__ import annotations

import contextlib
import json
import os
from pathlib import Path

import pytest
from test_review_stream import GOLDEN, T, _cases, outputs

from lcanalysis.cli import review as R_cli
from lcanalysis.cli.main import main
from lcanalysis.game.position import Position
from lcanalysis.game.records import read_record, record_round, write_record
from lcanalysis.options import OptionError
from lcanalysis.reviewer import judgement_of, judgement_text, review
from lcanalysis.reviewer import run as R  # the review's run: the module whose names these tests replace

#: how a refused --out file begins: one line naming the command and the option, as the parser's refusals
REFUSED = "lcanalysis review: error: argument --out: "


def test_a_review_resumed_from_kept_judgements_is_the_one_made_in_one_go():
    """Each small record's review, its first turns' judgements kept (written as text and read
    back) and the rest judged in a second run, gives the eager review's text, --json and --html."""
    golden = json.loads(GOLDEN.read_text())
    for name, rec, kw in _cases():
        first: list[dict] = []
        review(rec, time_budget=T, executor="serial", progress=False, on_judged=first.append, **kw)
        made = [judgement_text(x) for x in first]
        assert len({(x["round"], x["index"]) for x in map(judgement_of, made)}) == len(made) > 2, name
        for k in (1, len(made) // 2, len(made)):  # stopped after the first turn, half-way, at the end
            kept = {(x["round"], x["index"]): x for x in map(judgement_of, made[:k])}
            again: list[dict] = []
            rv = review(rec, time_budget=T, executor="serial", progress=False, judged=kept, on_judged=again.append,
                        **kw)
            assert len(again) == len(made) - k, (name, k)  # only the turns missing were judged
            got = outputs(rv)
            for form in ("text", "json", "html"):
                assert got[form] == golden[name][form], (name, k, form)


def test_a_review_resumed_on_worker_processes_is_the_one_made_in_one_go_too():
    golden = json.loads(GOLDEN.read_text())
    for name, rec, kw in _cases():
        if name in ("blunder", "capped"):
            made: list[dict] = []
            review(rec, time_budget=T, executor="serial", progress=False, on_judged=made.append, **kw)
            kept = {(x["round"], x["index"]): judgement_of(judgement_text(x)) for x in made[: len(made) // 2]}
            rv = review(rec, time_budget=T, workers=2, progress=False, judged=kept, **kw)
            assert rv.workers == 2 and outputs(rv) == golden[name], name


def test_kept_judgements_of_turns_the_review_does_not_judge_are_refused():
    rec = _cases()[0][1]
    made: list[dict] = []
    review(rec, time_budget=T, executor="serial", progress=False, on_judged=made.append)
    theirs = {(x["round"], x["index"]): x for x in made}
    with pytest.raises(R.ReviewError, match="round 1 turn 1, which this review does not judge"):
        review(rec, player=0, time_budget=T, executor="serial", progress=False, judged=theirs)  # player 1's turn
    wrong = {(1, 0): {**made[0], "index": 2}}
    with pytest.raises(R.ReviewError, match="the kept judgement of round 1 turn 0 does not fit that turn"):
        review(rec, time_budget=T, executor="serial", progress=False, judged=wrong)


@pytest.fixture()
def record(tmp_path):
    path = tmp_path / "round.json"
    write_record(record_round(Position.deal(seed=3), ["-Yw/D", "-B10/Y", "-Yw/B", "-G9/D", "-Y2/D"]), path)
    return path


def _judged_json(capsys, argv):
    assert main(argv) == 0
    captured = capsys.readouterr()
    out = json.loads(captured.out)
    assert out["settings"].pop("seconds") >= 0  # the things that differ between runs: the seconds,
    out["settings"].pop("earlier_runs")  # and what earlier runs of a resumed review judged
    for d in out["decisions"]:
        d.pop("seconds", None)
    return out, captured.err


def test_review_out_keeps_turns_judged_before_ctrl_c_and_resumes(record, tmp_path, capsys, monkeypatch):
    """A real stop after two turns: they are in the file; the same command run again judges the
    other three only and prints the review an uninterrupted run prints; run a third time, it
    judges nothing."""
    argv = ["review", str(record), "--time", "0.05", "--workers", "1", "--no-progress", "--json"]
    whole, _ = _judged_json(capsys, argv)
    kept = tmp_path / "kept.csv"
    judge = R.review_turn
    calls = []

    def stopped_after_two(job):
        calls.append(job.index)
        if len(calls) > 2:
            raise KeyboardInterrupt
        return judge(job)

    monkeypatch.setattr(R, "review_turn", stopped_after_two)
    assert main([*argv, "--out", str(kept)]) == 130
    err = capsys.readouterr().err
    assert f"stopped: the turns judged so far are kept in {kept}" in err, err
    lines = kept.read_text().splitlines()
    assert lines[0].startswith("# lcanalysis review {") and lines[1] == "round,index,judgement"
    assert [line.split(",")[:2] for line in lines[2:]] == [["1", "0"], ["1", "1"]]
    calls.clear()
    monkeypatch.setattr(R, "review_turn", lambda job: (calls.append(job.index), judge(job))[1])
    resumed, err = _judged_json(capsys, [*argv, "--out", str(kept)])
    assert calls == [2, 3, 4] and "resuming from" in err and "2 turn(s) judged there are kept" in err
    assert resumed == whole
    assert len(kept.read_text().splitlines()) == 2 + 5
    calls.clear()
    again, _ = _judged_json(capsys, [*argv, "--out", str(kept)])
    assert calls == [] and again == whole
    assert (tmp_path / "kept.csv.cmd").read_text() == f"lcanalysis review {record} --out {kept} --seed 0 --time 0.05\n"


@pytest.mark.parametrize("change, named", [(["--seed", "1"], "seed: 0 there, 1 here"),
                                          (["--time", "0.06"], "time: 0.05 there, 0.06 here"),
                                          (["--player", "1"], "player: None there, 1 here")])
def test_review_out_refuses_a_file_made_with_other_settings(record, tmp_path, capsys, change, named):
    kept = tmp_path / "kept.csv"
    argv = ["review", str(record), "--time", "0.05", "--workers", "1", "--no-progress", "--out", str(kept)]
    assert main(argv) == 0
    before = kept.read_text()
    capsys.readouterr()
    assert main([*argv, *change]) == 2
    err = capsys.readouterr().err
    assert f"{REFUSED}{kept} was made with other settings (" in err and named in err, err
    assert kept.read_text() == before  # nothing lost


def test_review_out_refuses_a_file_made_for_another_record(record, tmp_path, capsys):
    kept = tmp_path / "kept.csv"
    other = tmp_path / "other.json"
    write_record(record_round(Position.deal(seed=4), []), other)
    write_record(record_round(Position.deal(seed=3), ["-Yw/D", "-B10/Y"]), other)
    assert main(["review", str(record), "--time", "0.05", "--workers", "1", "--no-progress", "--out", str(kept)]) == 0
    capsys.readouterr()
    assert main(["review", str(other), "--time", "0.05", "--workers", "1", "--no-progress", "--out", str(kept)]) == 2
    err = capsys.readouterr().err
    assert "was made with other settings (record_sha256: '" in err, err


def test_review_out_refuses_a_file_whose_losses_another_playout_policy_measured(record, tmp_path, capsys, monkeypatch):
    """The settings line names the play-out policy that measured the losses, but resuming did not compare
    it: a file saying another policy (a review whose policy changed, or from before the policy was named:
    the plain heuristic's) was resumed, its turns kept beside this policy's. Now it is refused, naming
    the policy there and here, before and after the engine is ready; the file untouched."""
    kept = tmp_path / "kept.csv"
    argv = ["review", str(record), "--time", "0.05", "--workers", "1", "--no-progress", "--out", str(kept)]
    assert main(argv) == 0
    first, rest = kept.read_text().split("\n", 1)
    settings = json.loads(first[len("# lcanalysis review "):])
    assert settings["playout_policy"] == R.PLAYOUT_POLICY == "stalling"
    capsys.readouterr()
    # the file kept by a review whose policy is another (the code's, here: only the settings it writes)
    monkeypatch.setattr(R, "PLAYOUT_POLICY", "plain")
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert f"{REFUSED}{kept} was made with other settings (playout_policy: 'stalling' there, 'plain' here)" in err, err
    with contextlib.ExitStack() as stack, pytest.raises(OptionError, match="playout_policy: 'stalling' there"):
        R_cli._kept(stack, str(kept), read_record(record), None, 0.05, 0, "cmd")  # the check on opening, too
    monkeypatch.undo()
    assert kept.read_text() == first + "\n" + rest
    unnamed = {k: v for k, v in settings.items() if k != "playout_policy"}  # (kept before version 6: plain's)
    for said in (dict(settings, playout_policy="plain"), unnamed):
        kept.write_text("# lcanalysis review " + json.dumps(said) + "\n" + rest)
        before = kept.read_text()
        assert main(argv) == 2
        err = capsys.readouterr().err
        assert f"{REFUSED}{kept} was made with other settings (playout_policy: 'plain' there, 'stalling' here)" in err
        assert kept.read_text() == before


def test_review_out_names_the_advisors_playout_policy_and_refuses_a_file_of_another(record, tmp_path, capsys):
    """The advisor that names the best turn plays its own play-outs (the plain heuristic, not the hint's
    default): the settings line names that policy too, and a file saying another is refused, naming it,
    the file untouched."""
    from lcanalysis.reviewer import ADVISOR_PLAYOUT_POLICY

    kept = tmp_path / "kept.csv"
    argv = ["review", str(record), "--time", "0.05", "--workers", "1", "--no-progress", "--out", str(kept)]
    assert main(argv) == 0
    first, rest = kept.read_text().split("\n", 1)
    settings = json.loads(first[len("# lcanalysis review "):])
    assert settings["advisor_playout_policy"] == ADVISOR_PLAYOUT_POLICY == "plain"
    kept.write_text("# lcanalysis review " + json.dumps({**settings, "advisor_playout_policy": "stalling"}) + "\n"
                    + rest)
    before = kept.read_text()
    capsys.readouterr()
    assert main(argv) == 2
    err = " ".join(capsys.readouterr().err.split())
    assert (f"{REFUSED}{kept} was made with other settings (advisor_playout_policy: 'stalling' there, 'plain' "
            "here)") in err, err
    assert kept.read_text() == before


def test_every_setting_a_kept_review_file_holds_is_compared_on_resuming(record):
    """Each setting ``keep_settings`` writes decides a judgement's numbers, so each must match to resume
    (the review's version apart, refused in its own words): a setting added there and not compared would
    let a file made with another mix its turns into this review."""
    written = set(R.keep_settings(read_record(record)))
    assert written - set(R_cli._kept_file().identity_keys) == {"review_version"}


def test_review_out_refuses_a_file_that_is_not_a_review_file_and_the_record_itself(record, tmp_path, capsys):
    notes = tmp_path / "notes.txt"
    notes.write_text("my notes\n")
    assert main(["review", str(record), "--workers", "1", "--no-progress", "--out", str(notes)]) == 2
    assert f"{notes} is not a review file" in capsys.readouterr().err
    assert notes.read_text() == "my notes\n"
    assert main(["review", str(record), "--workers", "1", "--no-progress", "--out", str(record)]) == 2
    assert "is the record" in capsys.readouterr().err


@pytest.mark.skipif(not os.path.isdir("/proc/self"), reason="needs Linux's /proc, where no file can be made")
def test_review_out_in_a_folder_it_cannot_write_in_is_an_error_naming_the_option(record, capsys):
    """``--out /proc/x.csv`` (a folder that exists, where no file can be made, as a read-only one)
    printed "error: [Errno 2] No such file or directory: '/proc/x.csv'", not naming --out; it now
    says which option, which file and why, as --html does."""
    assert main(["review", str(record), "--workers", "1", "--no-progress", "--out", "/proc/x.csv"]) == 2
    err = capsys.readouterr().err
    assert f"{REFUSED}/proc/x.csv: cannot write it (No such file or directory)" in err and "Errno" not in err, err


def test_review_out_refuses_a_file_another_version_of_the_review_kept(record, tmp_path, capsys, monkeypatch):
    """The kept file's settings named no version of the review, so a file kept before a change of the
    review's numbers was resumed by the new review: its turns judged by one version, the rest by
    another, printed as one review. Now the settings hold ``reviewer.REVIEW_VERSION``: a file another
    version kept is refused naming both, and one from before (unversioned) too; the file untouched."""
    kept = tmp_path / "kept.csv"
    argv = ["review", str(record), "--time", "0.05", "--workers", "1", "--no-progress", "--out", str(kept)]
    assert main(argv) == 0
    first, rest = kept.read_text().split("\n", 1)
    assert json.loads(first[len("# lcanalysis review "):])["review_version"] == R.REVIEW_VERSION
    capsys.readouterr()
    monkeypatch.setattr(R, "REVIEW_VERSION", R.REVIEW_VERSION + 1)
    assert main(argv) == 2
    err = " ".join(capsys.readouterr().err.split())
    assert (f"{REFUSED}{kept} was written by review version {R.REVIEW_VERSION - 1}, and this is review version "
            f"{R.REVIEW_VERSION}: resuming it would add this version's rows to the other's") in err, err
    assert kept.read_text() == first + "\n" + rest
    settings = json.loads(first[len("# lcanalysis review "):])
    del settings["review_version"]  # a file kept before the version was
    kept.write_text("# lcanalysis review " + json.dumps(settings) + "\n" + rest)
    before = kept.read_text()
    assert main(argv) == 2
    err = " ".join(capsys.readouterr().err.split())
    assert (f"{REFUSED}{kept} is unversioned (its settings name no review_version: it was written before review "
            f"versions were kept), and this is review version {R.REVIEW_VERSION}") in err, err
    assert kept.read_text() == before



def test_a_file_kept_by_an_earlier_review_version_is_refused_by_this_review(record, tmp_path, capsys):
    """Version 16: in a match, each decision the play-outs judge carries its match loss (a match record's rounds
    judged with their match score), each player the sum, and the settings name the advisor's play-out policy
    (15: in an exact tie of a deck draw with a discard-pile draw listed first, the best turn named is
    the deck draw, as the hint and the tutor name it; 14: a sampled stall level is estimated against an exact
    level of no stalls each too; 13: a sampled
    stall level after an exact one is estimated against it; 12: an exact stall level and a
    sampled one are compared world by world; 11: where two stall levels
    name different turns tied for the best, the earlier best, only bounded at the tie, is valued exactly, so such
    a search converges a level sooner; 10: from three stalls each the
    opponent's, a root turn no probe refuted is first searched with a narrow window, so a counted budget reaches
    a third stall level otherwise; 9: from three stalls each on, a
    settled level's first world names the reference of the rest of its first batch; 8: the endgame search probes
    with a narrow window and shares a player's placements between the colours in its bound, so its counted
    budget reaches further; 7: with 4 cards left the endgame search
    counts only three stalls each as converged; 6: the
    losses of decisions judged by play-outs are measured with the stalling heuristic; 5: the endgame
    search, which judges at 3 and 4 cards, values a last stall before the end in closed form; 4: the
    round's last placements in closed form; 3: it shared the opponent's value after the last stall; 2: the
    advisor's two-stage schedule keeps its budget of play-outs), so the same record, settings and seed can
    give other numbers than version 15 did. A file that version 15 kept (its settings name it) is refused,
    naming both versions, the file untouched."""
    assert R.REVIEW_VERSION == 16
    kept = tmp_path / "kept.csv"
    argv = ["review", str(record), "--time", "0.05", "--workers", "1", "--no-progress", "--out", str(kept)]
    assert main(argv) == 0
    first, rest = kept.read_text().split("\n", 1)
    settings = json.loads(first[len("# lcanalysis review "):])
    kept.write_text("# lcanalysis review " + json.dumps({**settings, "review_version": 15}) + "\n" + rest)
    before = kept.read_text()
    capsys.readouterr()
    assert main(argv) == 2
    err = " ".join(capsys.readouterr().err.split())
    assert (f"{REFUSED}{kept} was written by review version 15, and this is review version 16: resuming it "
            "would add this version's rows to the other's") in err, err
    assert kept.read_text() == before

class _Clock:
    """A clock that moves on one second each time it is read: the seconds of a review are then a
    count of its readings, the same on any machine (no timed test)."""

    def __init__(self) -> None:
        self.now = 0.0

    def perf_counter(self) -> float:
        self.now += 1.0
        return self.now


def _one_clock(monkeypatch):
    """One ``_Clock`` for the review's run and for the turns it judges (``reviewer.judge``)."""
    from lcanalysis.reviewer import judge

    clock = _Clock()
    monkeypatch.setattr(R, "time", clock)
    monkeypatch.setattr(judge, "time", clock)


def test_a_resumed_review_reports_the_time_of_every_run(monkeypatch):
    """``Review.seconds`` of a resumed review was the last run's only (a review stopped after 90 % of
    its turns reported the last 10 %). Now each judgement keeps the seconds its run took to reach it
    (``"elapsed"``) and a resumed review adds those of the turns it reuses: under a clock that moves
    a second a reading, a review stopped part-way and resumed reports the seconds of the review made
    in one go, exactly (each turn: its own two readings and one as it comes back; the run: one
    reading before its first turn and one after its last)."""
    rec = _cases()[0][1]
    _one_clock(monkeypatch)
    made: list[dict] = []
    whole = review(rec, time_budget=T, executor="serial", progress=False, on_judged=made.append)
    n = len(made)
    assert whole.seconds == 3 * n + 1 and [x["elapsed"] for x in made] == [3.0] * n
    for k in (1, n // 2, n):
        kept = {(x["round"], x["index"]): judgement_of(judgement_text(x)) for x in made[:k]}
        resumed = review(rec, time_budget=T, executor="serial", progress=False, judged=kept)
        assert resumed.seconds == whole.seconds, (k, resumed.seconds)
    bad = {(1, 0): {**made[0], "elapsed": -1.0}}
    with pytest.raises(R.ReviewError, match=r"round 1 turn 0 gives its run's seconds as -1.0, not a number"):
        review(rec, time_budget=T, executor="serial", progress=False, judged=bad)


def test_a_resumed_review_says_what_earlier_runs_judged_and_that_its_workers_are_this_runs(monkeypatch):
    """A resumed review printed "N s on W worker(s)": N counted every run's seconds, W was the last
    run's workers alone, as if it had judged every turn. Now it says it was resumed, how many turns
    earlier runs judged and in how long, and how many this run judged, in how long, on how many
    workers (the JSON's ``earlier_runs``, null for a review made in one run); the HTML report too.
    Under a clock that moves a second a reading (3 a turn, 1 for the run), so each figure is known."""
    rec = _cases()[0][1]
    _one_clock(monkeypatch)
    made: list[dict] = []
    whole = review(rec, time_budget=T, executor="serial", progress=False, on_judged=made.append)
    n = len(made)
    assert f"; {3 * n + 1:.1f} s on 1 worker(s)\n" in whole.to_text()
    assert whole.to_json()["settings"]["earlier_runs"] is None and "resumed" not in whole.to_html()
    for k in (1, n // 2):
        kept = {(x["round"], x["index"]): judgement_of(judgement_text(x)) for x in made[:k]}
        rv = review(rec, time_budget=T, executor="serial", progress=False, judged=kept)
        said = (f"{3 * n + 1:.1f} s in all, resumed: {k} turn(s) judged by earlier run(s) in {3 * k:.1f} s, "
                f"{n - k} by this run in {3 * (n - k) + 1:.1f} s on 1 worker(s)")
        assert rv.to_text().splitlines()[1].endswith("; " + said), rv.to_text()
        assert said in rv.to_html()
        settings = rv.to_json()["settings"]
        assert settings["earlier_runs"] == {"turns": k, "seconds": 3.0 * k} and settings["workers"] == 1
        assert settings["seconds"] == 3 * n + 1
    every = {(x["round"], x["index"]): judgement_of(judgement_text(x)) for x in made}
    rv = review(rec, time_budget=T, executor="serial", progress=False, judged=every)
    assert rv.to_text().splitlines()[1].endswith(
        f"; {3 * n + 1:.1f} s in all, resumed: every turn ({n} turn(s) judged by earlier run(s) in {3 * n:.1f} s)")


@pytest.mark.parametrize("workers", [1, 2])
def test_the_review_bar_moves_on_while_a_slow_decision_is_judged(monkeypatch, workers):
    """The bar redrew only when a turn was judged: a decision the endgame search judges for seconds
    (8 s on a 6-colour record) showed a frozen bar with no time passing. It is now redrawn every
    TICK_SECONDS meanwhile, in this process or while worker processes judge, and no more once the
    review is over."""
    import threading

    import tqdm.auto

    refreshed: list[float] = []
    made: list[object] = []

    from helpers import recording_bar

    Bar = recording_bar(refreshed, made)

    rec = record_round(Position.deal(seed=3), ["-Yw/D", "-B10/Y"])
    judge = R.review_turn
    gate = threading.Event()

    def slow(job):  # the first turn, judged in this process, waits until the bar has been redrawn 3 times
        for _ in range(200):
            if len(refreshed) >= 3 or gate.is_set():
                break
            threading.Event().wait(0.05)
        gate.set()
        return judge(job)

    monkeypatch.setattr(tqdm.auto, "tqdm", Bar)
    monkeypatch.setattr(R, "TICK_SECONDS", 0.02)
    monkeypatch.setattr(R, "review_turn", slow)
    rv = review(rec, time_budget=T, workers=workers, executor="serial" if workers == 1 else None, progress=True)
    assert len(rv.decisions) == 2 and len(made) == 1 and len(refreshed) >= 3  # redrawn while it was judged
    after = len(refreshed)
    threading.Event().wait(0.2)
    assert len(refreshed) == after  # the ticking stopped with the review


def test_a_reviews_json_names_the_version_of_the_review_that_made_it(record, capsys):
    """A saved ``review --json`` did not say which version of the review's numbers made it (two
    reviews of one record, a change apart, could not be told apart); now its settings do, as the
    file of its judged turns does."""
    kept = record.parent / "kept.csv"
    out, _ = _judged_json(capsys, ["review", str(record), "--time", "0.05", "--workers", "1", "--no-progress",
                                   "--json", "--out", str(kept)])
    first = kept.read_text().split("\n", 1)[0]
    assert out["settings"]["review_version"] == R.REVIEW_VERSION == json.loads(
        first[len("# lcanalysis review "):])["review_version"]


def test_a_records_identity_for_kept_judgements_is_the_one_it_had_before_starts_carried_their_rules():
    """A record now writes each start's rules (docs/spec/interchange.md: a start is a POSITION, whose
    rules, left out, are the defaults). The review's record_sha256 is still taken of the form written
    before, so a review kept with --out before that change resumes after it instead of being refused
    as made for another record. Pinned: a 6-colour round and player 0's record of it; a match whose
    hash is that of its JSON with the starts' rules left out, as it was written."""
    import hashlib

    from lcanalysis.game.match import Match
    from lcanalysis.game.records import record_match
    from lcanalysis.game.rules import Rules

    rules = Rules(colors=6)
    start = Position.deal(seed=3, rules=rules)
    record = read_record({"rules": rules.to_dict(), "start": start.to_json(), "turns": ["-Yw/D", "-Gw/D", "-Yw/D",
                                                                                        "-Pw/D"]})
    assert json.loads(write_record(record))["start"]["rules"] == {"colors": 6, "hand_size": 8, "no_redraw": True}
    assert R.keep_settings(record)["record_sha256"] == \
        "fb2270beb07f015d8f522769423ddafb9c341bc83531e8c301e6c0c85c5574ec"
    assert R.keep_settings(record.seen_by(0))["record_sha256"] == \
        "3d1fab65b238565c9b150804fdfcf82c7c057c5f349a638aa21bfc3ae0678fbb"
    rules = Rules(rounds=2)
    match = Match(rules)
    rounds = []
    for r in range(2):
        pos = match.new_round(seed=70 + r)
        first = pos.copy()
        while not pos.is_over():
            pos.push(pos.legal_moves()[0] if pos.turn % 2 else pos.legal_moves()[-1])
        match.record(pos.scores())
        rounds.append(record_round(first, pos.history))
    data = json.loads(write_record(record_match(rounds, rules)))
    for rd in data["rounds"]:
        del rd["start"]["rules"]
    old = json.dumps(data, sort_keys=True, separators=(",", ":"))
    assert R.keep_settings(record_match(rounds, rules))["record_sha256"] == hashlib.sha256(old.encode()).hexdigest()


def test_review_out_on_a_full_disk_names_the_file_keeps_the_turns_written_and_resumes(record, tmp_path, capsys,
                                                                                      monkeypatch):
    """The disk fills as the third judged turn is written: the review says which file, why, what
    it keeps and how to go on, the part written is cut back, and the same command run again with
    room judges the rest and prints the review an uninterrupted run prints."""
    from helpers import full_disk_after

    argv = ["review", str(record), "--time", "0.05", "--workers", "1", "--no-progress", "--json"]
    whole, _ = _judged_json(capsys, argv)
    kept = tmp_path / "kept.csv"
    with monkeypatch.context() as m:
        full_disk_after(m, kept, 3)  # (the settings and the column names, then two turns)
        assert main([*argv, "--out", str(kept)]) == 2
    err = capsys.readouterr().err
    assert (f"error: cannot write {kept}: No space left on device; the rows written before are kept in it: "
            "make room (or mend the fault) and run the same command again to resume") in err, err
    lines = kept.read_text().splitlines()
    assert kept.read_text().endswith("\n") and [line.split(",")[:2] for line in lines[2:]] == [["1", "0"], ["1", "1"]]
    resumed, err = _judged_json(capsys, [*argv, "--out", str(kept)])
    assert "2 turn(s) judged there are kept" in err and "torn" not in err
    assert resumed == whole


@pytest.mark.parametrize("cut", [30, -10])  # in the settings line; in the column names after it
def test_review_out_begun_again_when_cut_short_before_its_first_turn(record, tmp_path, capsys, cut):
    """A file stopped as it was begun (its settings or its column names unfinished: a kill or a full
    disk at that moment) holds no turn: the same command begins it again, saying so, and prints the
    review an uninterrupted run prints; the file then reads back whole. It was refused as unreadable
    ('Unterminated string ...'), or its first turn was taken for the column names."""
    argv = ["review", str(record), "--time", "0.05", "--workers", "1", "--no-progress", "--json"]
    whole_file = tmp_path / "whole.csv"
    whole, _ = _judged_json(capsys, [*argv, "--out", str(whole_file)])
    lines = whole_file.read_text().splitlines(keepends=True)
    kept = tmp_path / "kept.csv"
    begun = lines[0] + lines[1]
    kept.write_text(begun[:cut])
    resumed, err = _judged_json(capsys, [*argv, "--out", str(kept)])
    assert f"warning: {kept}: cut short as it was begun" in err, err
    assert resumed == whole
    assert kept.read_text().splitlines()[:2] == [lines[0].rstrip("\n"), lines[1].rstrip("\n")]
    assert len(kept.read_text().splitlines()) == len(lines)


def test_review_out_refuses_a_text_file_of_one_line_that_is_not_a_review_file(record, tmp_path, capsys):
    other = tmp_path / "notes.csv"
    other.write_text("my notes")
    assert main(["review", str(record), "--time", "0.05", "--workers", "1", "--no-progress", "--out", str(other)]) == 2
    assert "is not a review file" in capsys.readouterr().err
    assert other.read_text() == "my notes"


@pytest.mark.parametrize("content", [bytes(range(256)) * 4,  # not text at all (a picture, an archive)
                                     b"# lcanalysis review not settings\nround,index,judgement\n"])
def test_review_out_refuses_a_binary_file_or_a_broken_header_naming_the_file(record, tmp_path, capsys, content):
    """``--out`` naming a file that is not UTF-8 text printed Python's decoding error ("error: --out
    'utf-8' codec can't decode byte 0x80 ..."), and a review header followed by no settings json's
    ("Expecting value: line 1 column 1"), naming neither the file nor what it should be. Both are
    refused as not a review file, naming it, and left as they were."""
    other = tmp_path / "picture.png"
    other.write_bytes(content)
    assert main(["review", str(record), "--time", "0.05", "--workers", "1", "--no-progress", "--out", str(other)]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"{REFUSED}{other} is not a review file: ") and err.count("\n") == 1, err
    assert "codec" not in err and "Expecting" not in err
    assert other.read_bytes() == content


@pytest.mark.skipif(not os.path.exists("/proc/self/stat"), reason="reads processes from /proc (Linux)")
def test_review_out_on_workers_killed_hard_leaves_no_worker_holding_the_file_and_resumes(tmp_path):
    """A review on worker processes SIGKILLed part-way: its workers lived on (reparented, idle),
    holding the lock of --out, and the same command was refused ('another review run is writing
    FILE') for as long as they lived. Now they die with it and the command resumes the file."""
    import signal
    import subprocess
    import sys
    import time

    from lcanalysis.tournaments.runner import run_tournament

    run_tournament(["heuristic", "greedy"], deals=1, duplicate=False, executor="serial", progress=False, out=None,
                   records=str(tmp_path / "records"))
    (rec,) = (tmp_path / "records").iterdir()
    out = tmp_path / "kept.csv"
    argv = [sys.executable, "-m", "lcanalysis", "review", str(rec), "--time", "0.02", "--workers", "2",
            "--no-progress", "--out", str(out)]
    env = {**os.environ, "LCANALYSIS_NO_SERVER": "1"}
    proc = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env)
    try:
        while proc.poll() is None and not (out.exists() and out.read_text().count("\n") >= 5):
            time.sleep(0.05)  # (until turns are kept: the workers are at work)
        workers = [int(p) for p in os.listdir("/proc") if p.isdigit() and _parent(int(p)) == proc.pid]
        assert proc.poll() is None and workers, "the review ended before it was killed"
        proc.send_signal(signal.SIGKILL)
        proc.wait()
        deadline = time.monotonic() + 60  # a safety net, not a measurement
        while time.monotonic() < deadline and any(os.path.exists(f"/proc/{p}") and _parent(p) for p in workers):
            time.sleep(0.1)
        assert not [p for p in workers if os.path.exists(f"/proc/{p}") and _parent(p)], "workers outlived it"
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    done = subprocess.run(argv, capture_output=True, text=True, env=env, timeout=600, check=False)
    assert done.returncode == 0, done.stderr
    assert "turn(s) judged there are kept" in done.stderr


def _parent(pid):
    """The parent of process ``pid`` (0 once it is gone or a zombie)."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return 0
    fields = stat.rsplit(")", 1)[1].split()
    return 0 if fields[0] in ("Z", "X") else int(fields[1])


def test_judged_and_on_judged_of_the_wrong_kind_are_refused_naming_them_before_a_turn_is_judged(monkeypatch):
    """``on_judged=3`` failed with Python's "'int' object is not callable" once the first turn had been
    judged; ``judged=3`` with "'int' object has no attribute 'items'", and a dict keyed otherwise than by
    (round, index) with "not enough values to unpack"."""
    rec = _cases()[0][1]
    monkeypatch.setattr(R, "_run", lambda *a, **k: pytest.fail("a turn was judged"))
    for kw, said in [({"on_judged": 3}, "on_judged must be a function taking a turn's judgement"),
                     ({"judged": 3}, r"judged must map \(round, index\) to the judgements on_judged was given, or be "
                                     "None, got int"),
                     ({"judged": [(1, 0)]}, "judged must map .* got list"),
                     ({"judged": {"1,0": {}}}, r"judged must map \(round, index\) .*, got 1,0 -> dict"),
                     ({"judged": {(1, 0): 5}}, r"judged must map \(round, index\) .*, got \(1, 0\) -> int")]:
        with pytest.raises(R.ReviewError, match=said):
            review(rec, time_budget=T, executor="serial", progress=False, **kw)


def test_review_out_refuses_a_row_whose_judgement_is_of_another_turn_or_a_turn_judged_twice_otherwise(
        record, tmp_path, capsys):
    """Found by a reliability pass: a kept row's turn is its columns (round, index) and its judgement's
    own; a row whose two said different turns was taken by the judgement's, so turn 0's judgement
    became turn 3's (turn 0 judged again, turn 3's dropped) in silence, and a turn kept twice with two
    judgements kept the later. Each is now refused, naming the file and the line, the file left as it was."""
    kept = tmp_path / "kept.csv"
    argv = ["review", str(record), "--time", "0.05", "--workers", "1", "--no-progress", "--out", str(kept)]
    assert main(argv) == 0
    capsys.readouterr()
    lines = kept.read_text().splitlines(keepends=True)
    first = judgement_of(lines[2].split(",", 2)[2].strip().strip('"').replace('""', '"'))
    assert (first["round"], first["index"]) == (1, 0)
    moved = lines[2].replace('""index"":0,', '""index"":3,', 1)
    twice = lines[2].replace('""elapsed"":', '""elapsed"":1', 1)
    for edited, says in ((lines[:2] + [moved] + lines[3:], f"{kept} line 3: the row is of round 1 turn 0, but its "
                                                           "judgement is of round 1 turn 3"),
                         (lines + [twice], f"{kept} line 8: round 1 turn 0 is judged twice, otherwise "
                                           "(lines 3 and 8)")):
        kept.write_text("".join(edited))
        assert main(argv) == 2
        err = capsys.readouterr().err
        assert err.startswith(f"{REFUSED}{says}"), err
        assert kept.read_text() == "".join(edited)
    kept.write_text("".join(lines + [lines[2]]))  # the same row twice: counted once
    assert main(argv) == 0


def test_a_kept_judgement_of_another_turn_than_the_records_at_its_index_is_refused(record, tmp_path, capsys):
    """Found by a review of the entry points: a kept row whose judgement says another turn was
    played than the record's turn at its index (a file edited by hand or mixed up) was reused, its
    loss reported for a turn the player never made. It is refused, naming the file, the line and
    both turns; in Python, ``review``'s ``judged`` is refused the same way."""
    kept = tmp_path / "kept.csv"
    argv = ["review", str(record), "--time", "0.05", "--workers", "1", "--no-progress", "--out", str(kept)]
    assert main(argv) == 0
    capsys.readouterr()
    lines = kept.read_text().splitlines(keepends=True)
    assert '""played"":""-Yw/D""' in lines[2]  # turn 0 of the record: -Yw/D
    edited = [*lines[:2], lines[2].replace('""played"":""-Yw/D""', '""played"":""-B10/Y""'), *lines[3:]]
    kept.write_text("".join(edited))
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"{REFUSED}{kept} line 3: the judgement of round 1 turn 0 is of the turn '-B10/Y' "
                          "played, but the record's turn 0 is -Yw/D"), err
    assert kept.read_text() == "".join(edited)  # left as it was
    rec = read_record(str(record))
    made: list[dict] = []
    review(rec, time_budget=T, executor="serial", progress=False, on_judged=made.append)
    first = next(x for x in made if (x["round"], x["index"]) == (1, 0))
    with pytest.raises(R.ReviewError, match=r"the judgement of round 1 turn 0 is of the turn '-B10/Y' played, "
                                            r"but the record's turn 0 is -Yw/D"):
        review(rec, time_budget=T, executor="serial", progress=False, judged={(1, 0): {**first, "played": "-B10/Y"}})
