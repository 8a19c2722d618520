"""The review's marks checked by rollouts (``review --check``, ``studies.review_check``): each check's
loss is the paired, luck-adjusted rollout of the played and the review's best turn, recomputed here
trial by trial from ``play_trial``; the verdicts follow the review's marks, worked by hand; the totals
are made again with the checked losses; budgets are kept, checks resume from their files, and bad
input is refused by name before the review runs.

Tiny budgets: the ``heuristic`` agent in both seats, 2 to 4 trials, a few hundredths of a second a
decision for the review."""

from __future__ import annotations

import json
import math

import numpy as np
import pytest
from helpers import hear_still_working

from lcanalysis.cli.main import main
from lcanalysis.game.position import Position
from lcanalysis.game.records import record_round, write_record
from lcanalysis.reviewer import MIN_RATED, rating_for, review
from lcanalysis.reviewer.checks import CONFIRMED, OVERTURNED, TOO_CLOSE, verdict_for
from lcanalysis.studies.review_check import CheckError, check_marks, check_options
from lcanalysis.studies.rollout import play_trial

T = 0.03  # seconds a decision


@pytest.fixture(scope="module")
def record():
    # the worst first turn by the hint, then the heuristic's: a record may stop before the round's end
    # (the checks roll out from the mover's view, which rollout() replays from a dealt start)
    return record_round(Position.deal(seed=3), ["+B9/D", "-Ww/D", "+Y2/D", "-Rw/D"])


def _review(record):
    return review(record, time_budget=T, executor="serial", progress=False)


@pytest.fixture(scope="module")
def checked(record):
    rv = _review(record)
    check_marks(rv, 4, agent="heuristic")
    return rv


def test_verdicts_follow_the_reviews_marks_worked_by_hand():
    assert verdict_for(12.0, 1.0) == (CONFIRMED, "blunder")  # beyond 2 s.e., 10 or more
    assert verdict_for(6.0, 2.9) == (CONFIRMED, "mistake")  # 6 > 5.8
    assert verdict_for(3.0, 0.4) == (CONFIRMED, "inaccuracy")  # a blunder by the review, confirmed a lesser mark
    assert verdict_for(-14.1, 3.1) == (OVERTURNED, None)  # the played turn better
    assert verdict_for(1.0, 0.4) == (OVERTURNED, None)  # 1.0 + 0.8 < 2: less than the least mark
    assert verdict_for(1.5, 0.3) == (TOO_CLOSE, None)  # 1.5 + 0.6 reaches 2
    assert verdict_for(12.0, 6.5) == (TOO_CLOSE, None)  # within 2 s.e. of zero, and of 2
    assert verdict_for(0.0, 0.0) == (OVERTURNED, None)  # the same result in every trial
    with pytest.raises(ValueError, match="finite"):
        verdict_for(3.0, math.nan)


def test_a_checks_loss_is_the_paired_luck_adjusted_rollout_recomputed_trial_by_trial(checked):
    rv = checked
    first = rv.decisions[0]
    assert (first.played, first.mark) == ("+B9/D", "blunder")
    c = next(c for c in rv.checks.checks if (c.round, c.index) == (first.round, first.index))
    assert (c.played, c.best, c.trials, c.grade) == ("+B9/D", first.best, 4, "blunder")
    # an independent path: each trial played here, the luck of its draws taken off each result
    view = rv.views[(first.round, first.index)]
    diffs, best_values = [], []
    for trial in range(4):
        rows = {r["turn"]: r for r in play_trial(view, [first.best, first.played], "heuristic", trial, rv.seed)}
        b, p = rows[first.best], rows[first.played]
        diffs.append((b["result"] - b["luck"]) - (p["result"] - p["luck"]))
        best_values.append(b["result"] - b["luck"])
    assert c.loss == pytest.approx(np.mean(diffs), abs=1e-9)
    assert c.loss_stderr == pytest.approx(np.std(diffs, ddof=1) / 2, abs=1e-9)
    assert c.value_best == pytest.approx(np.mean(best_values), abs=1e-9)
    assert (c.verdict, c.checked_grade) == verdict_for(c.loss, c.loss_stderr)


def test_the_totals_are_made_again_with_the_checked_losses_where_a_check_was_made(checked):
    rv = checked
    by_turn = {(c.round, c.index): c for c in rv.checks.checks}
    assert len(by_turn) == rv.checks.marked == sum(bool(d.mark) for d in rv.decisions) >= 1
    for p, again in zip(rv.players, rv.checks.players, strict=True):
        unforced = [d for d in rv.decisions if d.player == p.player and not d.forced]
        losses = [(by_turn[(d.round, d.index)].loss, by_turn[(d.round, d.index)].loss_stderr)
                  if (d.round, d.index) in by_turn else (d.loss, d.loss_stderr) for d in unforced]
        assert again.total_loss == pytest.approx(sum(x for x, _ in losses))
        assert again.total_loss_stderr == pytest.approx(math.sqrt(sum(s * s for _, s in losses)))
        assert again.error_rate == pytest.approx(again.total_loss / len(unforced))
        assert again.rating == (rating_for(again.error_rate) if len(unforced) >= MIN_RATED else None)
        assert rv.checks.checked_losses[p.player] == sum((d.round, d.index) in by_turn for d in unforced)
        grades = [by_turn[(d.round, d.index)].checked_grade if (d.round, d.index) in by_turn else d.mark
                  for d in rv.decisions if d.player == p.player]
        assert again.marks == {g: grades.count(g) for g in ("blunder", "mistake", "inaccuracy")}


def test_the_checks_are_labelled_extras_and_a_plain_review_is_as_before(record, checked):
    plain = _review(record)
    assert "checks" not in plain.to_json() and "checked by rollouts" not in plain.to_text()
    assert "checked by rollouts" not in plain.to_html()
    def untimed(text: str) -> list[str]:  # (the seconds the review took, in all and a decision)
        lines = text.splitlines()
        return [line for k, line in enumerate(lines) if k != 1 and not line.startswith("per decision:")]

    mine, theirs = untimed(plain.to_text()), untimed(checked.to_text())
    assert theirs[:len(mine)] == mine  # the review's own text first, unchanged
    data = json.loads(json.dumps(checked.to_json()))
    assert list(data)[:2] == ["decisions", "players"]  # the spec's answer as it was
    def judged(answer: dict) -> list[dict]:
        return [{k: v for k, v in d.items() if k != "seconds"} for d in answer["decisions"]]

    assert judged(data) == judged(json.loads(json.dumps(plain.to_json())))
    checks = data["checks"]
    assert (checks["agent"], checks["trials"], checks["seed"], checks["luck_adjusted"]) == ("heuristic", 4, 0, True)
    c = checked.checks.checks[0]
    assert checks["checked"] == len(checks["decisions"]) == 1 and checks["decisions"][0]["verdict"] == c.verdict
    assert [p["checked_losses"] for p in checks["players"]] == list(checked.checks.checked_losses.values())
    text = checked.to_text()
    assert "marks checked by rollouts: 1 of 1 marked decision(s)" in text
    assert f"review {c.review_loss_text()} BLUNDER, rollout {c.loss_text()} (4 trials): {c.verdict_text()}" in text
    assert "with the checked losses (the rollouts' where a check was made, the review's elsewhere)" in text
    page = checked.to_html()
    assert "Marks checked by rollouts" in page and f"<b>{c.verdict_text()}</b>" in page


def test_the_budgets_are_kept_and_say_what_they_left_unchecked(record):
    rv = _review(record)
    check_marks(rv, 2, agent="heuristic", top=1)
    assert len(rv.checks.checks) == 1 and rv.checks.unchecked == []
    rv = _review(record)
    check_marks(rv, 2, agent="heuristic", seconds=1e-6)  # runs out before a trial is played
    assert rv.checks.checks == [] and len(rv.checks.unchecked) == 1
    assert "time budget of 1e-06 s (--check-seconds) ran out" in rv.checks.unchecked[0]["reason"]
    assert rv.checks.players == rv.players  # nothing checked: the review's totals
    assert "not checked: the time budget" in rv.to_text()


def test_checks_resume_from_their_files_and_extend_to_more_trials(record, tmp_path):
    folder = tmp_path / "review.checks"
    rv = _review(record)
    check_marks(rv, 2, agent="heuristic", folder=str(folder))
    files = sorted(p.name for p in folder.iterdir())
    assert files == ["round1_turn0_heuristic.csv"]
    more = _review(record)
    check_marks(more, 4, agent="heuristic", folder=str(folder))  # plays trials 2 and 3 only
    fresh = _review(record)
    check_marks(fresh, 4, agent="heuristic")
    assert (more.checks.checks[0].loss, more.checks.checks[0].loss_stderr) == \
        (fresh.checks.checks[0].loss, fresh.checks.checks[0].loss_stderr)
    assert (more.checks.checks[0].trials_kept, fresh.checks.checks[0].trials_kept) == (2, 0)
    assert f"resumed: 2 of their 4 trials found in {folder} from earlier runs" in more.to_text()
    assert "resumed" not in fresh.checks.to_text()


@pytest.mark.parametrize(("kwargs", "says"), [
    ({"trials": 1}, r"trials \(--check\) must be a whole number from 2"),
    ({"trials": 3, "seconds": 0}, r"seconds \(--check-seconds\) must be a number of seconds above 0"),
    ({"trials": 3, "top": 0}, r"top \(--check-top\) must be a whole number from 1"),
    ({"trials": 3, "agent": "nosuch"}, r"agent \(--check-agent\): .*nosuch"),
    ({"trials": 3, "agent": "external:python bot.py"}, "an external agent cannot roll out"),
])
def test_bad_options_are_refused_by_name(kwargs, says):
    with pytest.raises(CheckError, match=says):
        check_options(**kwargs)


def test_the_command_checks_keeps_and_resumes_and_refuses_check_options_alone(record, tmp_path, capsys):
    path = tmp_path / "record.json"
    write_record(record, str(path))
    out = tmp_path / "judged.csv"
    base = ["review", str(path), "--time", str(T), "--workers", "1", "--no-progress", "--out", str(out)]
    assert main([*base, "--check-top", "1"]) == 2
    assert "--check-top needs --check N" in capsys.readouterr().err
    assert main([*base, "--check", "3", "--check-agent", "nosuch"]) == 2  # before the review: no file kept
    assert "--check-agent" in capsys.readouterr().err and not out.exists()
    assert main([*base, "--check", "3", "--check-agent", "heuristic", "--json"]) == 0
    first = json.loads(capsys.readouterr().out)
    assert first["checks"]["checked"] == 1 and first["checks"]["folder"] == f"{out}.checks"
    assert (tmp_path / "judged.csv.checks" / "round1_turn0_heuristic.csv").exists()
    assert main([*base, "--check", "3", "--check-agent", "heuristic", "--json"]) == 0
    again = json.loads(capsys.readouterr().out)
    (c1,), (c2,) = first["checks"]["decisions"], again["checks"]["decisions"]
    assert (c1["trials_kept"], c2["trials_kept"]) == (0, 3)  # the second run played no trial
    assert {**c2, "seconds": c1["seconds"], "trials_kept": 0} == c1


def test_a_time_budget_left_to_the_later_marks_leaves_them_unchecked_with_the_reviews_loss(record, monkeypatch):
    """The budget is for all the checks, worst mark first: once it has run out (here the clock jumps an
    hour as the first check's last trial is played), the marks not reached keep the review's loss and say
    why."""
    from lcanalysis.studies import rollout as rollout_study

    rv = _review(record)
    second = next(d for d in rv.decisions if not d.mark and d.played != d.best and not d.forced)
    second.mark = "inaccuracy"  # (a second mark, smaller than the blunder, so checked after it)
    assert second.loss < rv.decisions[0].loss
    offset = [0.0]
    monkeypatch.setattr(rollout_study, "_clock", lambda: rollout_study.time.monotonic() + offset[0])

    def lines(line: str) -> None:
        if line.startswith("2 trials played"):  # the first check done ("2 trials played, 1 of 600 s")
            offset[0] = 3600.0

    check_marks(rv, 2, agent="heuristic", seconds=600.0, progress=lines)
    assert [(c.index, c.trials) for c in rv.checks.checks] == [(0, 2)]
    (left,) = rv.checks.unchecked
    assert (left["index"], left["grade"]) == (second.index, "inaccuracy")
    assert left["reason"] == "the time budget of 600 s (--check-seconds) ran out first"
    again = {p.player: p for p in rv.checks.players}[second.player]
    unforced = [d for d in rv.decisions if d.player == second.player and not d.forced]
    first = rv.checks.checks[0]
    expected = sum(first.loss if (d.round, d.index) == (first.round, first.index) else d.loss for d in unforced)
    assert again.total_loss == pytest.approx(expected)  # the unchecked mark's loss: the review's
    assert again.marks["inaccuracy"] == sum(d.mark == "inaccuracy" for d in rv.decisions if d.player == second.player)


def test_on_a_position_in_a_match_a_check_takes_the_points_not_the_chances(checked):
    """A check of a decision in a match compares points, as the review does: the rollout there ranks
    by the chance to win the match and keeps each turn's points beside it, which are those of the same
    rollout outside a match (the same worlds, seeds and luck)."""
    import dataclasses

    from lcanalysis.studies.review_check import _check
    from lcanalysis.studies.rollout import rollout

    d = checked.decisions[0]
    view = checked.views[(d.round, d.index)]
    in_match = {**view.to_json(), "match": {"round": 3, "totals": [20, 35]}}
    turns = [d.best, d.played]
    lone = rollout(view, turns=turns, agent="heuristic", trials=4)
    match = rollout(in_match, turns=turns, agent="heuristic", trials=4)
    assert match.kind.startswith("rollout chance to win the match")
    c = _check(dataclasses.replace(d), match, 0.0, None)
    by_move = {m.move: m for m in lone.moves}
    b, p = by_move[d.best], by_move[d.played]
    assert c.loss == pytest.approx(p.loss - b.loss) and c.loss_stderr == pytest.approx(max(p.loss_stderr,
                                                                                         b.loss_stderr))
    assert (c.loss, c.loss_stderr) == (checked.checks.checks[0].loss, checked.checks.checks[0].loss_stderr)


def test_a_mark_the_rollout_cannot_deal_worlds_for_is_left_unchecked_naming_why_and_the_review_stands():
    """A record from a made-up position (not a deal) with turns since: the rollout cannot replay the
    mover's view after them from a deal, so those marks stay the review's, with the rollout's reason,
    and the review is still printed (it once ended in the rollout's error, the review lost)."""
    from lcanalysis.game.cards import Card, full_deck

    red_run = ["R3", "R4", "R5", "R6", "R7", "R8"]
    hand0 = ["R9", "R10", "B2", "B3", "B4", "B5", "B6", "B7"]
    hand1 = ["G2", "G3", "G4", "G5", "G6", "G7", "G8", "G9"]
    deck = ["Y2", "Y3", "Y4", "Y5", "Y6", "Y7", "Y8", "Y9", "W4", "W5"]
    used = set(red_run + hand0 + hand1 + ["W2", "W3"] + deck)
    discards = [str(Card.from_type(t)) for t in full_deck(5) if str(Card.from_type(t)) not in used]
    start = Position.from_parts([hand0, hand1], [red_run, ["W2", "W3"]], discards, deck)
    rv = review(record_round(start, ["+B2/D", "+G2/D", "-R10/D"]), time_budget=T, executor="serial",
                progress=False)
    marked = [d.index for d in rv.decisions if d.mark]
    assert 2 in marked  # discarding R10 from a red run of six
    check_marks(rv, 2, agent="heuristic")
    # the start itself has no history to replay: its mark, if any, is checked; the later ones cannot be
    assert [c.index for c in rv.checks.checks] == [i for i in marked if i == 0]
    assert sorted(u["index"] for u in rv.checks.unchecked) == [i for i in marked if i > 0]
    for left in rv.checks.unchecked:
        assert left["reason"].startswith("the rollout cannot be made: history does not lead"), left["reason"]
    assert "not checked: the rollout cannot be made" in rv.to_text()


def test_a_review_with_no_mark_has_nothing_to_check(record):
    rv = review(record_round(Position.deal(seed=3), ["-Yw/D"]), time_budget=T, executor="serial", progress=False)
    assert not any(d.mark for d in rv.decisions)
    check_marks(rv, 2, agent="heuristic")
    assert rv.checks.checks == [] and rv.checks.players == rv.players
    assert "marks checked by rollouts: none, no decision is marked" in rv.to_text()


def test_ctrl_c_in_the_checks_says_in_one_line_what_is_kept_and_the_same_command_resumes(
        record, tmp_path, capsys, monkeypatch):
    """Ctrl-C while 'review --check N --out FILE' plays a check's trials: one line (the rollout file's
    own 'stopped' line is left unsaid) naming the judged turns kept in FILE, the checks' trials in
    FILE.checks with how many of the stopped check's are whole, and the command that resumes; the same
    command then plays only the rest. Without --out the line says nothing is kept and how to keep it."""
    from lcanalysis.studies import rollout as R

    play = R.play_trial

    def interrupted(source, chosen, agent, trial, seed, deadline=None, hand_model=False):
        if trial == 3:  # Ctrl-C as the fourth trial begins (one process: the trials in order)
            raise KeyboardInterrupt
        return play(source, chosen, agent, trial, seed, deadline, hand_model)

    path = tmp_path / "record.json"
    write_record(record, str(path))
    out = tmp_path / "judged.csv"
    base = ["review", str(path), "--time", str(T), "--workers", "1", "--no-progress", "--check", "6",
            "--check-agent", "heuristic"]
    monkeypatch.setattr(R, "play_trial", interrupted)
    assert main([*base, "--out", str(out)]) == 130
    captured = capsys.readouterr()
    kept = tmp_path / "judged.csv.checks" / "round1_turn0_heuristic.csv"
    assert captured.out == "" and "Traceback" not in captured.err and captured.err.count("stopped:") == 1
    assert captured.err.endswith(
        f"stopped: the review's judged turns are kept in {out} and the checks' trials in {out}.checks (3 of 6 whole "
        f"trial(s) of the check stopped, in {kept}); run the same command again (it is in {out}.cmd) to play the "
        "rest and print the review\n"), captured.err
    assert sorted(set(R.load_rollout(kept)["trial"])) == [0, 1, 2]
    assert main(base) == 130  # without --out: nothing kept, and said so
    err = capsys.readouterr().err
    assert err.count("stopped:") == 1 and err.endswith(
        "stopped: a review is printed only once its checks are played, and without --out FILE neither its judged "
        "turns nor the checks' trials are kept; run the same command again with --out FILE to keep them (in FILE "
        "and FILE.checks/; the same seed gives the same review and checks)\n"), err
    monkeypatch.undo()
    command = (tmp_path / "judged.csv.cmd").read_text().split()
    assert command[:2] == ["lcanalysis", "review"] and main([*command[1:], "--workers", "1", "--no-progress"]) == 0
    said = capsys.readouterr()
    assert f"resumed: 3 of their 6 trials found in {out}.checks from earlier runs" in said.out, said.out
    assert sorted(set(R.load_rollout(kept)["trial"])) == list(range(6))


def test_a_check_whose_trials_run_on_is_not_a_silent_wait(record, tmp_path, capsys, monkeypatch):
    """Found at a table: 'review --check 2' said '2 trial(s) to play, each of 2 turn(s) played out by
    best in both seats' and then nothing for 15 s until both trials ended. The line is now said again,
    with the seconds since, while the check runs on. Its first trial is held (at most 30 s) until the
    command has said so; the check's answer is the real one."""
    import time

    import lcanalysis.studies.rollout as R

    heard = hear_still_working(monkeypatch)
    real = R.play_trial

    def held(source, turns, agent, trial, *rest):
        give_up = time.monotonic() + 30
        while trial == 0 and not heard.is_set() and time.monotonic() < give_up:
            time.sleep(0.02)
        assert trial or heard.is_set(), "no word while the check ran on"
        return real(source, turns, agent, trial, *rest)

    monkeypatch.setattr(R, "play_trial", held)
    path = tmp_path / "record.json"
    write_record(record, str(path))
    assert main(["review", str(path), "--time", str(T), "--workers", "1", "--check", "2", "--check-agent",
                 "heuristic", "--json"]) == 0
    out, err = capsys.readouterr()
    assert json.loads(out)["checks"]["checked"] == 1
    lines = err.splitlines()
    todo = next(k for k, line in enumerate(lines) if "2 trial(s) to play" in line)
    assert lines[todo + 1].startswith(f"{lines[todo]} ... still working, ")
