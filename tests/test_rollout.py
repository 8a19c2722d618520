"""Rollouts (``lcanalysis.studies.rollout``, ``lcanalysis rollout``): each turn played out by an agent
in both seats, in shared worlds; values checked against exact values, hand arithmetic on the rows,
and a run resumed from its file."""

from __future__ import annotations

import json
import math
from collections import Counter

import numpy as np
import pytest
from helpers import hear_still_working

from lcanalysis.agents import make_agent
from lcanalysis.cli import main
from lcanalysis.game.notation import read_position
from lcanalysis.game.position import Position
from lcanalysis.search import solve
from lcanalysis.studies.rollout import MAX_TRIALS, RolloutError, load_rollout, play_trial, rollout, world
from tests.helpers import played_down


def test_a_turn_that_ends_the_round_is_worth_its_exact_value_in_every_trial():
    """With one card in the draw pile a deck draw ends the round: nothing is left to chance or to the
    agents, so each such turn's rollout value is its exact value (``solve``), with no spread, and the
    last draw has no luck to subtract."""
    pos = played_down(3, 1)
    exact = {m.move: m.value for m in solve(pos, max_stalls=0).moves}
    ending = [str(m) for m in pos.legal_moves() if m.draws_from_deck][:4]
    answer = rollout(pos, turns=ending, agent="heuristic", trials=3)
    for m in answer.moves:
        assert m.value == exact[m.move] and m.stderr == 0
    assert answer.moves[0].value == max(exact[t] for t in ending)
    assert not answer.exact and "estimate" in answer.to_text()


def test_the_values_and_losses_are_the_rows_means_paired_by_trial(tmp_path):
    out = tmp_path / "r.csv"
    turns = ["+B6/D", "-W2/G", "+B6/G"]
    raw = rollout("example:midround", turns=turns, agent="heuristic", trials=12, out=out, luck_adjusted=False)
    rows = load_rollout(out)
    assert sorted(rows["trial"].unique()) == list(range(12)) and len(rows) == 36
    by = {t: rows[rows["turn"] == t].sort_values("trial") for t in turns}
    best = max(turns, key=lambda t: by[t]["result"].mean())
    for m in raw.moves:
        r = by[m.move]["result"].to_numpy(float)
        assert m.value == pytest.approx(r.mean()) and m.stderr == pytest.approx(r.std(ddof=1) / math.sqrt(12))
        d = by[best]["result"].to_numpy(float) - r
        assert m.loss == pytest.approx(d.mean())
        assert m.loss_stderr == pytest.approx(0.0 if m.move == best else d.std(ddof=1) / math.sqrt(12))
    adjusted = rollout("example:midround", turns=turns, agent="heuristic", trials=12, out=out)
    for m in adjusted.moves:  # read back from the file, each result less its luck
        a = by[m.move]["result"].to_numpy(float) - by[m.move]["luck"].to_numpy(float)
        assert m.value == pytest.approx(a.mean())
        assert m.extra["raw_mean"] == pytest.approx(by[m.move]["result"].mean())


def test_each_turn_of_a_trial_meets_the_same_world_and_agents_whatever_else_is_rolled_out():
    """Duplicate play: a turn's result in trial i depends on the trial only, not on which other turns
    share it (the world and the agents' seeds come from the trial), and the trials differ."""
    pos = played_down(5, 6)
    agent = make_agent("heuristic")
    a, b = [str(m) for m in pos.legal_moves() if m.draws_from_deck][:2]
    for i in (7, 8):
        both = play_trial(pos, [a, b], agent, i, 0)
        assert both == play_trial(pos, [a], agent, i, 0) + play_trial(pos, [b], agent, i, 0)
    results = {tuple((r["result"], r["luck"]) for r in play_trial(pos, [a, b], agent, i, 0)) for i in range(6)}
    assert len(results) > 1


def test_a_views_worlds_are_what_the_mover_cannot_tell_apart_and_a_positions_keep_both_hands():
    pos = played_down(2, 10)
    view = pos.view(pos.to_move)
    for i in range(3):
        w = world(view, i, 0)
        assert w.view(pos.to_move).to_json() == view.to_json()
        p = world(pos, i, 0)
        assert p.hand(0) == pos.hand(0) and p.hand(1) == pos.hand(1)
        assert sorted(c.type for c in p.deck) == sorted(c.type for c in pos.deck)
    orders = {tuple(c.type for c in world(pos, i, 0).deck) for i in range(5)}
    assert len(orders) > 1  # the draw pile's order is chance


def test_in_a_world_each_player_knows_what_the_round_showed_of_the_others_hand():
    """A card the mover took from a discard pile is known to the opponent in the round; the view's
    worlds forgot it (``View.complete`` set only the opponent's known cards), so the opponent's agent
    played the rollout knowing less than at the table."""
    pos = next(p for p in (played_down(s, 8, stall_rate=0.5) for s in range(40)) if p.known_cards(p.to_move))
    mover = pos.to_move
    for source in (pos.view(mover), pos):
        w = world(source, 0, 0)
        assert w.known_cards(mover) == pos.known_cards(mover) and w.known_cards(1 - mover) == pos.known_cards(1 - mover)
        assert w.view(1 - mover).opponent_known == pos.view(1 - mover).opponent_known


def test_two_workers_give_the_same_answer_as_one():
    one = rollout("example:midround", turns=["+B6/D", "-W2/G"], agent="heuristic", trials=6)
    two = rollout("example:midround", turns=["+B6/D", "-W2/G"], agent="heuristic", trials=6, workers=2)
    assert [(m.move, m.value, m.stderr, m.loss) for m in one.moves] == [(m.move, m.value, m.stderr, m.loss)
                                                                          for m in two.moves]


def test_a_run_resumed_from_its_file_answers_as_an_unbroken_one(tmp_path):
    out = tmp_path / "r.csv"
    turns = ["+B6/D", "-W2/G"]
    rollout("example:midround", turns=turns, agent="heuristic", trials=4, out=out)
    lines = out.read_text().splitlines()
    out.write_text("\n".join(lines[:-1]) + "\n" + lines[-1][:5])  # killed while writing trial 3's last row
    resumed = rollout("example:midround", turns=turns, agent="heuristic", trials=7, out=out)
    unbroken = rollout("example:midround", turns=turns, agent="heuristic", trials=7)
    assert [(m.move, m.value, m.stderr) for m in resumed.moves] == [(m.move, m.value, m.stderr)
                                                                     for m in unbroken.moves]
    assert sorted(load_rollout(out)["trial"]) == sorted(list(range(7)) * 2)
    with pytest.raises(ValueError, match="other settings"):
        rollout("example:midround", turns=turns, agent="greedy", trials=7, out=out)


def test_a_resumed_rollout_keeps_its_last_whole_trial_and_plays_again_only_one_cut_short(tmp_path, monkeypatch):
    """The rollout file dropped its last trial on reopening (a trial is several rows, and a run killed
    while writing them may leave some, so the last was always played again): a resumed rollout of
    ``best`` replayed a minute's trial. Now a trial with its row for every turn is kept, and one with
    a torn last row, or a row missing, is played again; the answer is still an unbroken run's."""
    from lcanalysis.studies import rollout as R

    turns = ["+B6/D", "-W2/G"]
    begun: list[int] = []
    play = R.play_trial

    def counted(source, chosen, agent, trial, seed, deadline=None, hand_model=False):
        begun.append(trial)
        return play(source, chosen, agent, trial, seed, deadline, hand_model)

    monkeypatch.setattr(R, "play_trial", counted)
    out = tmp_path / "r.csv"
    rollout("example:midround", turns=turns, agent="heuristic", trials=4, out=out)
    whole = out.read_text()
    begun.clear()
    rollout("example:midround", turns=turns, agent="heuristic", trials=4, out=out)
    assert begun == [] and out.read_text() == whole  # the 4 trials kept: nothing to play
    out.write_text(whole[:-3])  # killed while writing trial 3's last row: a torn line
    begun.clear()
    rollout("example:midround", turns=turns, agent="heuristic", trials=4, out=out)
    assert begun == [3] and out.read_text() == whole
    out.write_text(whole[: whole.rstrip("\n").rindex("\n") + 1])  # cut at a line's end: trial 3's last row missing
    begun.clear()
    resumed = rollout("example:midround", turns=turns, agent="heuristic", trials=6, out=out)
    assert begun == [3, 4, 5]
    unbroken = rollout("example:midround", turns=turns, agent="heuristic", trials=6)
    assert [(m.move, m.value, m.stderr, m.loss_stderr) for m in resumed.moves] == \
        [(m.move, m.value, m.stderr, m.loss_stderr) for m in unbroken.moves]
    assert sorted(load_rollout(out)["trial"]) == sorted(list(range(6)) * 2)


@pytest.mark.parametrize(("kwargs", "says"), [
    ({"agent": "nosuch"}, "unknown agent 'nosuch'"),
    ({"agent": "external:python bot.py"}, "external agent cannot roll out"),
    ({"turns": ["+R7/D"]}, "not legal here: that card is not in the hand"),
    ({"turns": ["+Q1/D"]}, "cannot be read"),
    ({"turns": ["+B6/D", "+B6/D"]}, "named twice"),
    ({"turns": "+B6/D"}, "non-empty list of turns"),
    ({"trials": 0}, "trials must be a whole number from 2"),
    ({"trials": 2.5}, "trials must be a whole number"),
    ({"top": 0}, "top must be a whole number from 1"),
    ({"workers": 0}, "workers must be a whole number from 1"),
    ({"seed": -1}, "seed must be a whole number from 0"),
    ({"luck_adjusted": "yes"}, "luck_adjusted must be True or False"),
])
def test_bad_input_is_refused_by_name(kwargs, says):
    with pytest.raises(RolloutError, match=says):
        rollout("example:midround", **{"agent": "heuristic", "trials": 2, **kwargs})


def test_one_trial_is_refused_by_the_library_as_by_the_command_line_for_it_gives_no_standard_error(capsys):
    """``rollout(trials=1)`` answered with "± nan" beside every value and loss (a standard error from one
    sample is undefined), while ``rollout --trials 1`` was refused: the library now refuses it too, by the
    one bound the command line's options share (``options.FEWEST_TRIALS``), saying why; and a time budget
    that plays one trial is refused as before, whatever the trials asked."""
    for trials in (1, np.int64(1)):
        with pytest.raises(RolloutError, match=r"^trials must be a whole number from 2 to 1,000,000 \(one trial "
                                               r"gives no standard error\), got "):
            rollout("example:midround", turns=["+B6/D", "-W2/G"], agent="heuristic", trials=trials)
    for argv in (["rollout", "example:midround", "--trials", "1"], ["review", "-", "--check", "1"]):
        with pytest.raises(SystemExit) as refused:
            main(argv)
        assert refused.value.code == 2
        assert f"{argv[-2]} must be >= 2 (one trial gives no standard error), got 1" in capsys.readouterr().err
    answer = rollout("example:midround", turns=["+B6/D", "-W2/G"], agent="heuristic", trials=2)
    assert all(np.isfinite([m.stderr, m.loss_stderr]).all() for m in answer.moves) and "nan" not in str(answer)


def test_a_round_that_is_over_has_no_turn_to_roll_out():
    pos = played_down(1, 1)
    pos.push(next(m for m in pos.legal_moves() if m.draws_from_deck))
    assert isinstance(pos, Position) and pos.is_over()
    with pytest.raises(RolloutError, match="round is over"):
        rollout(pos, agent="heuristic", trials=2)


def test_the_command_prints_the_answer_and_refuses_turns_with_top(capsys):
    assert main(["rollout", "example:midround", "--agent", "heuristic", "--trials", "3", "--turn", "+B6/D",
                 "--turn", "-W2/G", "--workers", "1", "--json"]) == 0
    out, err = capsys.readouterr()
    answer = json.loads(out)
    assert [m["move"] for m in answer["moves"]] in (["+B6/D", "-W2/G"], ["-W2/G", "+B6/D"])
    assert answer["exact"] is False and all(m["stderr"] > 0 for m in answer["moves"])
    assert "3 of 3 trials played" in err
    assert main(["rollout", "example:midround", "--turn", "+B6/D", "--top", "2"]) == 2
    assert "give --turn or --top, not both" in capsys.readouterr().err
    assert main(["rollout", "example:midround", "--agent", "heuristic", "--trials", "2", "--workers", "1"]) == 0
    out, err = capsys.readouterr()
    assert "the hint's" in err and out.count("mean of 2 rollouts") == 3
    # what the numbers are, in words (a player read them with nothing saying they were points)
    assert "values: the mover's final score difference of the round (mover minus opponent), in points" in out
    assert np.isfinite(answer["value"])


def test_ctrl_c_on_two_workers_stops_at_once_keeps_the_trials_and_the_same_command_resumes(tmp_path):
    """Every trial is handed to the pool at once; Ctrl-C then waited for all of them to be played
    (a process pool's exit runs every job submitted), so a rollout of many trials could not be stopped."""
    import os
    import signal
    import subprocess
    import sys
    import time

    out = tmp_path / "r.csv"
    args = [sys.executable, "-m", "lcanalysis", "rollout", "example:midround", "--agent", "heuristic", "--turn",
            "+B6/D", "--turn", "-W2/G", "--workers", "2", "--out", str(out)]
    proc = subprocess.Popen([*args, "--trials", "1000000"], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                            text=True, start_new_session=True,  # its own group: Ctrl-C reaches it and its workers
                            # as at a terminal: a test worker ignores Ctrl-C, and a child would inherit that
                            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))  # noqa: PLW1509
    try:
        deadline = time.monotonic() + 600  # a safety net against hanging, not a measurement
        while not (out.exists() and out.read_text().count("\n") >= 8) and time.monotonic() < deadline:
            assert proc.poll() is None, proc.communicate()
            time.sleep(0.2)
        os.killpg(proc.pid, signal.SIGINT)  # as a terminal's Ctrl-C: to the command and its workers
        _, err = proc.communicate(timeout=120)
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
    assert proc.returncode == 130
    kept = sorted(set(load_rollout(out)["trial"]))
    assert "stopped (Ctrl-C) after " in err and f"trial(s) are kept in {out}; run the same command again" in err
    assert "Traceback" not in err
    assert kept and len(kept) < 1000000
    whole = int((load_rollout(out).groupby("trial").size() == 2).sum())  # (a trial cut short is played again)
    more = subprocess.run([*args, "--trials", str(len(kept) + 2)], capture_output=True, text=True, timeout=600,
                          check=False)
    assert more.returncode == 0 and f"({whole} already in the file)" in more.stderr, more.stderr
    assert sorted(set(load_rollout(out)["trial"])) == list(range(len(kept) + 2))


def _stopped_at(monkeypatch, stop: int) -> None:
    """Ctrl-C as trial ``stop`` begins (one process: the trials in order)."""
    from lcanalysis.studies import rollout as R

    play = R.play_trial

    def interrupted(source, chosen, agent, trial, seed, deadline=None, hand_model=False):
        if trial == stop:
            raise KeyboardInterrupt
        return play(source, chosen, agent, trial, seed, deadline, hand_model)

    monkeypatch.setattr(R, "play_trial", interrupted)


def test_ctrl_c_without_out_says_how_many_trials_were_played_and_that_none_is_kept(monkeypatch, capsys):
    """Ctrl-C in 'lcanalysis rollout' without --out ended with status 130 and not a word: every trial
    played was lost unsaid. Now it says how many were played of how many, that without --out they are
    not kept, and how to keep them or answer sooner; the status is still 130 and nothing is printed."""
    _stopped_at(monkeypatch, 3)
    argv = ["rollout", "example:midround", "--agent", "heuristic", "--turn", "+B6/D", "--turn=-W2/G",
            "--trials", "10", "--workers", "1"]
    assert main(argv) == 130
    captured = capsys.readouterr()
    assert captured.out == "" and "Traceback" not in captured.err
    assert captured.err.endswith("stopped (Ctrl-C) after 3 of 10 trial(s): the answer is printed only once the "
                                 "trials are played, and without --out FILE they are not kept; run the same command "
                                 "again with --out FILE to keep each trial as it finishes (the same seed plays the "
                                 "same trials), or for an answer sooner give fewer --trials, --seconds S or "
                                 "--precision P\n"), captured.err


def test_ctrl_c_with_out_says_how_many_trials_the_file_keeps_and_the_same_command_resumes(
        monkeypatch, capsys, tmp_path):
    """With --out it said only that 'the rows finished so far' were kept: now how many trials were
    played by this run and how many whole ones the file holds (those from before too), once."""
    out = tmp_path / "r.csv"
    argv = ["rollout", "example:midround", "--agent", "heuristic", "--turn", "+B6/D", "--turn=-W2/G",
            "--workers", "1", "--out", str(out)]
    assert main([*argv, "--trials", "2"]) == 0  # trials 0 and 1 kept from before
    _stopped_at(monkeypatch, 5)
    capsys.readouterr()
    assert main([*argv, "--trials", "10"]) == 130
    err = capsys.readouterr().err
    assert sorted(set(load_rollout(out)["trial"])) == [0, 1, 2, 3, 4]
    assert err.count("stopped") == 1 and err.endswith(
        f"stopped (Ctrl-C) after 3 of 10 trial(s): 5 whole trial(s) are kept in {out}; run the same command again "
        f"(it is in {out}.cmd) to play the rest and print the answer\n"), err
    monkeypatch.undo()
    assert main([*argv, "--trials", "10"]) == 0  # the same command: the rest played, the answer printed
    assert sorted(set(load_rollout(out)["trial"])) == list(range(10))


def test_ctrl_c_while_the_hint_chooses_the_turns_says_no_trial_was_played(monkeypatch, capsys, tmp_path):
    from lcanalysis import advisor

    def interrupted(*args, **kwargs):
        raise KeyboardInterrupt

    monkeypatch.setattr(advisor, "advise", interrupted)
    argv = ["rollout", "example:midround", "--agent", "heuristic", "--trials", "10", "--workers", "1"]
    assert main(argv) == 130
    last = capsys.readouterr().err.splitlines()[-1]
    assert last.startswith("stopped (Ctrl-C) while the hint chose the turns to roll out, before any trial was "
                           "played: the answer is printed only once"), last
    assert main([*argv, "--out", str(tmp_path / "r.csv")]) == 130
    last = capsys.readouterr().err.splitlines()[-1]
    assert last.endswith(f"before any trial was played: {tmp_path / 'r.csv'} is left as it was; run the same "
                         "command again to roll out"), last


def test_a_precision_stops_once_every_loss_is_that_precise_with_the_first_trials_answer():
    turns = ["+B6/D", "-W2/G", "+B6/G"]
    first = rollout("example:midround", turns=turns, agent="heuristic", trials=10)
    wide = rollout("example:midround", turns=turns, agent="heuristic", trials=60, precision=100.0)
    assert [(m.move, m.value, m.loss_stderr) for m in wide.moves] == [(m.move, m.value, m.loss_stderr)
                                                                       for m in first.moves]
    assert "stopped after 10 of at most 60 trials" in wide.notes[-1]
    # a precision reached later: the first n trials that reach it, on one worker or two alike
    aim = sorted(m.loss_stderr for m in first.moves)[-1] * 0.8
    one = rollout("example:midround", turns=turns, agent="heuristic", trials=60, precision=aim)
    two = rollout("example:midround", turns=turns, agent="heuristic", trials=60, precision=aim, workers=2)
    n = int(one.method.split()[1])
    assert 10 < n <= 60 and two.method == one.method and [m.value for m in one.moves] == [m.value for m in two.moves]
    assert max(m.loss_stderr for m in one.moves) <= aim or n == 60
    before = rollout("example:midround", turns=turns, agent="heuristic", trials=n - 1)
    assert max(m.loss_stderr for m in before.moves) > aim  # not reached a trial earlier
    with pytest.raises(RolloutError, match="precision must be a number of points above 0"):
        rollout("example:midround", turns=turns, agent="heuristic", trials=5, precision=0)


def test_on_a_position_in_a_match_each_turn_has_its_chance_to_win_the_match_ranked_by_it(tmp_path, capsys):
    """In the last round of a match the chance to win it is read off each trial's final totals: 1 for
    the mover ahead, 1/2 level, 0 behind (no table involved); here by hand from the trial rows, each
    turn's mean and standard error, and its loss against the best paired over the trials. The turns'
    points (luck-adjusted, as in a lone round) stay beside the chances."""
    from lcanalysis.game.examples import example_text

    turns = ["+B6/D", "-W2/G", "+B6/G"]
    lone = rollout("example:midround", turns=turns, agent="heuristic", trials=30)
    in_match = {**json.loads(example_text("midround")), "match": {"round": 3, "totals": [20, 35]}}
    assert in_match["to_move"] == 0  # 15 behind
    out = tmp_path / "r.csv"
    match = rollout(in_match, turns=turns, agent="heuristic", trials=30, out=out)
    rows = load_rollout(out)
    won = {}
    for t in turns:
        final = -15 + rows[rows["turn"] == t].sort_values("trial")["result"].to_numpy(float)
        won[t] = np.where(final > 0, 1.0, np.where(final == 0, 0.5, 0.0))
    best = max(turns, key=lambda t: won[t].mean())
    assert len({w.mean() for w in won.values()}) == 3  # (no tie)
    assert [m.move for m in match.moves] == sorted(turns, key=lambda t: -won[t].mean())
    points = {m.move: m for m in lone.moves}
    for m in match.moves:
        w = won[m.move]
        assert m.value == pytest.approx(w.mean()) and m.stderr == pytest.approx(w.std(ddof=1) / math.sqrt(30))
        d = won[best] - w
        assert m.loss == pytest.approx(d.mean())
        assert m.loss_stderr == pytest.approx(0.0 if m.move == best else d.std(ddof=1) / math.sqrt(30))
        assert (m.extra["match_win"], m.extra["match_loss"]) == (m.value, m.loss)
        assert m.extra["points"] == points[m.move].value and m.extra["points_loss"] == points[m.move].loss
        assert f"win match {100 * m.value:.1f}%" in m.reason and f"points {points[m.move].value:+.2f}" in m.reason
    assert "chance to win the match" in match.kind and not match.exact
    assert match.notes[-1].startswith("match: behind by 15 in the last round")  # (a clause after the colon)
    assert not any("not taken into account" in n for n in match.notes)
    assert not any("match" in n for n in lone.notes) and "chance" not in lone.kind
    # the command: the chances, and each turn's points beside them in --json
    text = json.dumps(in_match)
    assert main(["rollout", text, "--agent", "heuristic", "--trials", "30", "--workers", "1", "--json",
                 *[w for t in turns for w in ("--turn", t)]]) == 0
    answer = json.loads(capsys.readouterr().out)
    assert [(m["move"], m["value"], m["points"]) for m in answer["moves"]] == \
        [(m.move, pytest.approx(m.value, rel=1e-14), pytest.approx(m.extra["points"], rel=1e-14))  # (15 digits)
         for m in match.moves]
    assert answer["moves"][0]["match_win"] == answer["value"] and "chance to win the match" in answer["kind"]



def _a_second_a_trial(monkeypatch) -> list[int]:
    """The rollouts' clock replaced by one on which every trial takes one second (it moves on once a
    trial is over); returns the list of the trials begun, in order, which the clock counts."""
    from lcanalysis.studies import rollout as R

    begun: list[int] = []
    play = R.play_trial

    def counted(source, chosen, agent, trial, seed, deadline=None, hand_model=False):
        rows = play(source, chosen, agent, trial, seed, deadline, hand_model)
        begun.append(trial)
        return rows

    monkeypatch.setattr(R, "play_trial", counted)
    monkeypatch.setattr(R, "_clock", lambda: float(len(begun)))
    return begun


def test_a_time_budget_begins_no_trial_after_it_and_answers_as_that_many_trials(monkeypatch, tmp_path):
    """``seconds``: on a clock of our own on which every trial takes one second, a budget of 4.5 s
    begins trials 0 to 4 and no more; the answer is the 5 trials' (as ``trials=5`` gives), says the
    clock stopped it, and its file resumes into the answer of an unbroken run."""
    from lcanalysis.studies import rollout as R

    turns = ["+B6/D", "-W2/G"]
    begun = _a_second_a_trial(monkeypatch)
    out = tmp_path / "r.csv"
    timed = rollout("example:midround", turns=turns, agent="heuristic", trials=50, seconds=4.5, out=out)
    assert begun == [0, 1, 2, 3, 4]
    five = rollout("example:midround", turns=turns, agent="heuristic", trials=5)
    assert [(m.move, m.value, m.stderr, m.loss, m.loss_stderr) for m in timed.moves] == \
        [(m.move, m.value, m.stderr, m.loss, m.loss_stderr) for m in five.moves]
    assert timed.method == five.method == "rollouts: 5 trials of 2 turn(s) by heuristic"
    assert "stopped by the clock after 5 trials of the 50 asked: the time budget of 4.5 s" in timed.notes[-1]
    assert not any("clock" in n for n in five.notes)
    assert sorted(set(load_rollout(out)["trial"])) == [0, 1, 2, 3, 4]
    begun.clear()  # resumed on the file, with a budget again: 2.5 s more play trials 5, 6, 7 (the file's 5 kept)
    resumed = rollout("example:midround", turns=turns, agent="heuristic", trials=50, seconds=2.5, out=out)
    assert begun == [5, 6, 7] and "stopped by the clock after 8 trials" in resumed.notes[-1]
    unbroken = rollout("example:midround", turns=turns, agent="heuristic", trials=8)
    assert [(m.move, m.value, m.stderr, m.loss_stderr) for m in resumed.moves] == \
        [(m.move, m.value, m.stderr, m.loss_stderr) for m in unbroken.moves]
    begun.clear()  # without --trials, as many as the time allows; a budget longer than the trials: all of them
    many = rollout("example:midround", turns=turns, agent="heuristic", seconds=3.5)
    assert begun == [0, 1, 2, 3] and "stopped by the clock after 4 trials:" in many.notes[-1]
    begun.clear()
    whole = rollout("example:midround", turns=turns, agent="heuristic", trials=3, seconds=100)
    assert begun == [0, 1, 2] and not any("clock" in n for n in whole.notes)
    monkeypatch.setattr(R, "_clock", iter([0.0, 1.0, 2.0, 3.0]).__next__)  # the budget spent before trial 0
    with pytest.raises(RolloutError, match=r"time budget of 0.5 s \(seconds\) ran out before a trial was played out "
                                           r"\(a trial plays 2 turn\(s\) out to the end of the round by heuristic\): "
                                           r"give more seconds$"):
        rollout("example:midround", turns=turns, agent="heuristic", trials=5, seconds=0.5)
    monkeypatch.setattr(R, "_clock", iter([0.0, 1.0, 2.0, 3.0]).__next__)  # (and on 2 workers: their start said)
    with pytest.raises(RolloutError, match=r"before a trial was played out \(the 2 worker processes start by "
                                           r"loading the engine, a second or more \(--workers 1 skips that\); a trial"):
        rollout("example:midround", turns=turns, agent="heuristic", trials=5, seconds=0.5, workers=2)
    monkeypatch.setattr(R, "_clock", iter([0.0, 1.0, 2.0, 3.0]).__next__)  # (and the hint's choice of the turns)
    with pytest.raises(RolloutError, match=r"before a trial was played out \(choosing the turns took 1.0 s of it "
                                           r"\(name them to skip that\); a trial plays 3 turn"):
        rollout("example:midround", agent="heuristic", trials=5, seconds=0.5)
    begun.clear()  # one trial, and no standard error to give: refused, the trial kept
    monkeypatch.setattr(R, "_clock", lambda: float(len(begun)))
    with pytest.raises(RolloutError, match=r"ran out after 1 trial, and a standard error needs 2 \(a trial "
                                           r"plays 2 turn\(s\) out to the end of the round by heuristic\): give "
                                           r"more seconds \(the trial is kept"):
        rollout("example:midround", turns=turns, agent="heuristic", seconds=0.5, out=tmp_path / "one.csv")
    assert begun == [0] and sorted(load_rollout(tmp_path / "one.csv")["trial"]) == [0, 0]


@pytest.mark.parametrize("workers", [1, 2])
def test_a_small_time_budget_plays_fewer_trials_than_asked_and_says_so(workers):
    """On the real clock, with no assertion on how long anything took: a budget of a second does not
    play a million trials (on one worker or on two, whose queued trials are dropped), and the answer
    is that of the first trials played, each turn over the same ones."""
    try:
        answer = rollout("example:midround", turns=["+B6/D", "-W2/G"], agent="heuristic", trials=MAX_TRIALS,
                         seconds=1.0, workers=workers)
    except RolloutError as exc:  # (a machine so busy that not 2 trials were played out: said so)
        assert "the time budget of 1 s (seconds) ran out" in str(exc)
        return
    n = int(answer.method.split()[1].replace(",", ""))
    assert 2 <= n < MAX_TRIALS
    assert f"stopped by the clock after {n:,} trials of the {MAX_TRIALS:,} asked: the time budget of 1 s" in \
        answer.notes[-1]
    same = rollout("example:midround", turns=["+B6/D", "-W2/G"], agent="heuristic", trials=n)
    assert [(m.move, m.value, m.stderr) for m in answer.moves] == [(m.move, m.value, m.stderr) for m in same.moves]


def test_the_command_takes_a_time_budget_and_refuses_a_bad_one(tmp_path, capsys):
    out = tmp_path / "r.csv"
    assert main(["rollout", "example:midround", "--agent", "heuristic", "--turn", "+B6/D", "--turn", "-W2/G",
                 "--seconds", "3", "--workers", "1", "--out", str(out)]) == 0
    text, err = capsys.readouterr()
    assert "stopped by the clock after" in text and "trials: the time budget of 3 s (seconds) ran out" in text
    assert "trials to play for 3 s in all (at most 1,000,000) (0 already in the file)" in err
    cmd = (tmp_path / "r.csv.cmd").read_text()
    assert "--seconds 3 " in cmd and "--trials" not in cmd
    for bad in ("0", "-1", "nan", "soon"):
        with pytest.raises(SystemExit) as refused:
            main(["rollout", "example:midround", "--seconds", bad])
        assert refused.value.code == 2 and "argument --seconds: " in capsys.readouterr().err
    for bad in (0, -1.0, math.inf, True, "60"):
        with pytest.raises(RolloutError, match="seconds must be a number of seconds above 0"):
            rollout("example:midround", turns=["+B6/D"], agent="heuristic", seconds=bad)


def test_a_trial_being_played_when_the_time_runs_out_is_abandoned_and_none_of_its_rows_kept(monkeypatch, tmp_path):
    """On a clock of our own that moves a second each time it is read (before every agent's turn),
    the trial being played at the deadline is left, written nowhere: the answer and the file are
    those of the trials before it, the answer the same as that many trials give."""
    from lcanalysis.studies import rollout as R

    turns = ["+B6/D", "-W2/G"]
    ticks = iter(range(10**9))
    monkeypatch.setattr(R, "_clock", lambda: float(next(ticks)))
    begun, kept = [], []
    play = R.play_trial

    def counted(*args):
        begun.append(args[3])
        kept.append(play(*args))
        return kept[-1]

    monkeypatch.setattr(R, "play_trial", counted)
    out = tmp_path / "r.csv"
    timed = rollout("example:midround", turns=turns, agent="heuristic", trials=50, seconds=300, out=out)
    n = int(timed.method.split()[1])
    assert 1 <= n < 50 and f"stopped by the clock after {n} trials of the 50 asked" in timed.notes[-1]
    assert begun == list(range(n + 1)) and kept[-1] == [] and all(kept[:-1])  # trial n begun, then left
    assert sorted(load_rollout(out)["trial"]) == sorted(list(range(n)) * 2)
    same = rollout("example:midround", turns=turns, agent="heuristic", trials=n)
    assert [(m.move, m.value, m.stderr) for m in timed.moves] == [(m.move, m.value, m.stderr) for m in same.moves]


def test_a_time_budget_without_trials_does_not_list_a_million_trials_first(monkeypatch, tmp_path):
    """With ``seconds`` and no ``trials`` up to ``MAX_TRIALS`` may be played: the trials to play (and
    the file's units) were lists of a million made before the first trial, 130 MB and a second of the
    budget; they are taken one at a time. Measured in memory (tracemalloc), not in time."""
    import tracemalloc

    turns = ["+B6/D", "-W2/G"]
    begun = _a_second_a_trial(monkeypatch)
    rollout("example:midround", turns=turns, agent="heuristic", seconds=1.5, out=tmp_path / "warm.csv")  # (imports)
    begun.clear()
    tracemalloc.start()
    try:
        answer = rollout("example:midround", turns=turns, agent="heuristic", seconds=2.5, out=tmp_path / "r.csv")
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert begun == [0, 1, 2] and "stopped by the clock after 3 trials:" in answer.notes[-1]
    assert peak < 20e6, peak


def test_the_bar_of_a_time_budget_without_trials_counts_with_no_total(capsys):
    """At a terminal a bar to a million trials told a rollout for 60 s that it would take days."""
    from lcanalysis.studies import rollout as R

    bars = [R._bar(True, MAX_TRIALS, 2, 0, "heuristic", 60.0, open_ended=True),
            R._bar(True, 500, 2, 0, "heuristic", 60.0), R._bar(True, 100, 2, 0, "heuristic")]
    try:
        assert [b.total for b in bars] == [None, 500, 100]
        assert bars[0].desc == "rollout (for 60 s)" and bars[2].desc == "rollout"
    finally:
        for b in bars:
            b.close()


def test_in_a_match_the_turns_rolled_out_by_default_include_the_hints_best_for_the_match():
    """The rollout ranks a match position's turns by the chance to win the match; the hint's three best
    by points left out its best for the match (30 behind in the last round of example:midround, the
    hint's favourite for the match, -W10/G, is not among them), so the rollout never valued it."""
    from lcanalysis.advisor import advise
    from lcanalysis.game.examples import example_text
    from lcanalysis.studies.rollout import candidate_turns

    for totals in ([0, 30], [0, 0]):
        in_match = read_position({**json.loads(example_text("midround")), "match": {"round": 3, "totals": totals}})
        hint = advise(in_match).moves
        favourite = next(m.move for m in hint if m.extra["match_loss"] == 0.0)
        top = [m.move for m in hint[:3]]
        chosen = candidate_turns(in_match, None, 3, 0)
        assert chosen == top + ([favourite] if favourite not in top else [])
        assert favourite not in top or totals == [0, 0]
    assert candidate_turns(read_position("example:midround"), None, 3, 0) == \
        [m.move for m in advise(read_position("example:midround")).moves[:3]]


def test_the_turns_rolled_out_by_default_are_the_hints_valued_turns_before_those_it_only_bounds(monkeypatch):
    """Near the end of a round the hint's endgame search proves most turns only no better than its best
    (an upper bound) and ranks them by that bound, so ``hint[:top]`` rolled out turns worth "at most"
    the best's value ahead of a turn with a value. On this 3-card view (the hint counted at a 10 s
    budget's share, 1.2 M nodes: the same answer on any machine) the hint's third turn is such a bound
    and a turn with an exact value comes after it. The rollout now takes the hint's best, then its
    valued turns in its order, then bounded ones to fill up, and its answer names the turn passed over.
    (The search starts no third stall level on sampled worlds here, ``SAMPLED_GROWTH`` off: with it this view
    converges at three stalls each with no budget left to value any other turn, and no view of 80 at 3 and 4
    cards has this shape at this budget; with it off, as when it was found.)"""
    from lcanalysis.advisor import advise
    from lcanalysis.search import endgame as E
    from lcanalysis.studies import rollout as R

    monkeypatch.setattr(E, "SAMPLED_GROWTH", math.inf)
    pos = played_down(7, 3)
    view = pos.view(pos.to_move)
    hint = advise(view, seed=0, time_budget=R.hint_budget(10.0)).moves
    bounded = [m.move for m in hint if m.upper_bound]
    valued = [m.move for m in hint if not m.upper_bound]
    # the case this test is about: a bound among the hint's first three, a valued turn after them
    order = [m.move for m in hint]
    assert order.index(bounded[0]) < 3 <= order.index(valued[1])
    want = (valued + bounded)[:3]  # (the hint's best is valued here: first either way)
    assert hint[0].move == valued[0]
    passed = [m.move for m in hint[:3] if m.move not in want]
    assert passed and want != [m.move for m in hint[:3]]
    notes: list[str] = []
    assert R.candidate_turns(view, None, 3, 0, seconds=10.0, notes=notes) == want
    monkeypatch.setattr(R, "_clock", lambda: 0.0)  # (the time budget only sets the hint's share: no trial is cut)
    answer = R.rollout(view, agent="heuristic", trials=2, seconds=10.0)
    assert sorted(m.move for m in answer.moves) == sorted(want)
    said = [n for n in answer.notes if n.startswith("turns passed over: ")]
    assert len(said) == 1 and all(f"{t} (the hint's " in said[0] for t in passed), answer.notes
    assert f"for {valued[1]} (its " in said[0] and "exact" in said[0] and "at most" in said[0]
    # where nothing is passed over (every turn valued: play-outs), no such note
    plain = R.rollout("example:midround", agent="heuristic", trials=2)
    assert not any(n.startswith("turns passed over") for n in plain.notes)


def test_the_hints_best_stays_first_and_bounded_turns_only_fill_up():
    """``trusted_first`` on answers made by hand: the hint's best first even when only bounded (it is the turn
    the hint advises), valued turns before bounds whatever their figures, bounds in the hint's order to fill
    up, and nothing passed over when the first few are already valued."""
    from lcanalysis.analysis import MoveValue
    from lcanalysis.studies.rollout import trusted_first

    def bound(move: str, value: float) -> MoveValue:
        return MoveValue(move, value, 0.0, False, extra={"bound": "upper"})

    hint = [MoveValue("+B10/G", -12.0), bound("+W6/G", -12.0), bound("+G6/G", -12.0), MoveValue("+B10/Y", -12.5),
            bound("-Y7/D", -20.0), MoveValue("-W4/D", -30.0, 1.5, False)]
    assert trusted_first(hint, 3) == (["+B10/G", "+B10/Y", "-W4/D"], [hint[1], hint[2]])
    assert trusted_first(hint, 4) == (["+B10/G", "+B10/Y", "-W4/D", "+W6/G"], [hint[2]])
    assert trusted_first(hint, 9)[0] == ["+B10/G", "+B10/Y", "-W4/D", "+W6/G", "+G6/G", "-Y7/D"]
    assert trusted_first(hint, 1) == (["+B10/G"], [])
    only_bounds = [bound("-W2/D", 22.2), bound("-B10/D", 22.2), MoveValue("+B10/D", 18.0)]
    assert trusted_first(only_bounds, 2) == (["-W2/D", "+B10/D"], [only_bounds[1]])
    valued = [MoveValue("-W2/G", 5.1, 0.6, False), MoveValue("+B6/G", 5.0, 0.5, False), bound("-Y3/D", 4.0)]
    assert trusted_first(valued, 2) == (["-W2/G", "+B6/G"], [])


def test_a_time_budget_gives_the_hint_that_chooses_the_turns_a_tenth_of_it(monkeypatch):
    """The hint chose the turns at its default budget whatever the time budget: 15,000 play-outs (a
    second's count) of a 2 s budget, before any trial. Now it gets a tenth of the budget (0.2 s: 3,000
    play-outs, beyond the first sample of ``MIN_WORLDS`` every turn gets), its default from a budget
    of 10 s on, and the same turns for the same budget (a count, not the clock: the file resumes).
    Counted in play-outs; the clock is ours and never moves, so every trial asked is played."""
    from helpers import count_playouts

    from lcanalysis.advisor import MIN_WORLDS, ROLLOUTS_PER_SECOND
    from lcanalysis.studies import rollout as R

    spent = count_playouts(monkeypatch)
    monkeypatch.setattr(R, "_clock", lambda: 0.0)
    legal = len(read_position("example:midround").legal_moves())
    used = {}
    for seconds in (2.0, 2.0, 30.0, None):
        spent[0] = 0
        answer = rollout("example:midround", agent="heuristic", trials=2, seconds=seconds, workers=1)
        used.setdefault(seconds, []).append(([m.move for m in answer.moves], spent[0]))
    assert 0 < used[2.0][0][1] <= max(0.2 * ROLLOUTS_PER_SECOND, MIN_WORLDS * legal)
    assert used[2.0][0] == used[2.0][1]  # the same turns, by the same count of play-outs
    assert used[30.0] == used[None] and used[None][0][1] > 3 * used[2.0][0][1]  # the default's 15,000


def test_a_time_budget_s_answer_says_what_the_clock_allowed(monkeypatch, tmp_path):
    """The answer says where the time budget went (the hint's choice, the trials, the whole, on the
    budget's clock) and, past it, by how much and why. Our clock: a second each trial, and with the
    turns not named, 3 s for the hint (read before and after it)."""
    from lcanalysis.studies import rollout as R

    turns = ["+B6/D", "-W2/G"]
    begun = _a_second_a_trial(monkeypatch)
    kept = rollout("example:midround", turns=turns, agent="heuristic", trials=3, seconds=10)
    assert "time budget of 10 s: 3 trial(s) played out in 3.0 s; 3.0 s in all" in kept.notes
    over = rollout("example:midround", turns=turns, agent="heuristic", trials=9, seconds=2.5)
    assert over.notes[-2] == ("time budget of 2.5 s: 3 trial(s) played out in 3.0 s; 3.0 s in all, 0.5 s over it: an "
                              "agent's turn being played when the time ran out is finished before its trial is left "
                              "(a turn cut short would play another move than the same trial unhurried, and the "
                              "trials kept must be those of an unhurried run)")
    rollout("example:midround", agent="heuristic", trials=3, out=tmp_path / "r.csv")  # (its 3 trials kept)
    hint = iter([0.0, 3.0])  # then resumed with a budget: the hint's 3 s, and no trial begins

    def clock():
        return next(hint, 3.0 + len(begun))

    begun.clear()
    monkeypatch.setattr(R, "_clock", clock)
    slow = rollout("example:midround", agent="heuristic", trials=4, seconds=2.5, out=tmp_path / "r.csv")
    assert begun == [] and slow.method == "rollouts: 3 trials of 3 turn(s) by heuristic"
    assert ("time budget of 2.5 s: the turns chosen by the hint in 3.0 s, 0 trial(s) played out in 0.0 s; 3.0 s in "
            "all, 0.5 s over it: choosing the turns alone took longer than the budget (name the turns to skip "
            "that)") in slow.notes


def test_a_rollout_file_with_a_row_this_rollout_cannot_have_written_is_refused_naming_its_line(tmp_path, capsys):
    """Found by a reliability pass: a resumed --out file's rows were taken as they were. A row of a turn
    not rolled out said "error: '+B7/D' is not in list"; 'x' for a trial "invalid literal for int()";
    a trial -1 was stored as the last trial of the table ("-1 trial(s) to play (5 already in the
    file)"); trial 1 written twice with two results kept the later in silence. Each is now refused,
    naming the file, the line and what is wrong, before any trial is played, and the file is left
    as it was; a row written twice with the same values counts once, as in a tournament's file."""
    turns = ["+B6/D", "-W2/D"]
    out = tmp_path / "r.csv"
    rollout("example:midround", turns=turns, agent="greedy", trials=3, out=out)
    lines = out.read_text().splitlines(keepends=True)
    assert lines[1] == "trial,turn,result,luck,turns_played\n" and len(lines) == 2 + 3 * 2
    trial1 = lines[4].split(",")  # trial 1's first row, line 5 of the file
    assert trial1[:2] == ["1", "+B6/D"]
    for row, says in ((f"1,+B7/D,{','.join(trial1[2:])}", "turn '+B7/D' is not one of this rollout's turns"),
                      (f"x,{','.join(trial1[1:])}", "trial 'x' is not a whole number 0 or more"),
                      (f"-1,{','.join(trial1[1:])}", "trial '-1' is not a whole number 0 or more"),
                      (f"1.5,{','.join(trial1[1:])}", "trial '1.5' is not a whole number 0 or more"),
                      (f"1,+B6/D,{int(trial1[2]) + 1},{','.join(trial1[3:])}",
                       "trial 1, turn +B6/D is in the file twice with different results (lines 5 and 6)"),
                      ("1,+B6/D,5,nan,30\n", "luck 'nan' is not a finite number"),
                      ("1,+B6/D,5,1_0,30\n", "luck '1_0' is not a finite number"),  # (float() reads 10)
                      ("1,+B6/D,5000,1.0,30\n", "result '5000' is not a whole number of points from -1180 to 1180"),
                      ("1,+B6/D,abc,1.0,30\n", "result 'abc' is not a whole number"),
                      ("1,+B6/D,5,1.0\n", "4 fields, not 5")):
        edited = "".join(lines[:5]) + row + "".join(lines[5:])
        out.write_text(edited)
        code = main(["rollout", "example:midround", "--agent", "greedy", "--trials", "3", "--workers", "1",
                     "--out", str(out), "--turn", "+B6/D", "--turn", "-W2/D"])
        err = capsys.readouterr().err
        # (refused as a bad argument is: one line naming the command and the option)
        assert code == 2 and err.startswith(f"lcanalysis rollout: error: argument --out: {out}, line 6: {says}"), err
        assert out.read_text() == edited  # left as it was: nothing cut, nothing played
    out.write_text("".join(lines[:5]) + lines[4] + "".join(lines[5:]))  # a row twice, the same both times
    again = rollout("example:midround", turns=turns, agent="greedy", trials=3, out=out)
    first = rollout("example:midround", turns=turns, agent="greedy", trials=3)
    assert [(m.move, m.value, m.stderr) for m in again.moves] == [(m.move, m.value, m.stderr) for m in first.moves]


def test_with_the_turns_named_an_out_file_of_other_settings_is_refused_before_the_engine_is_made_ready(
        tmp_path, capsys, monkeypatch):
    """'rollout --out F' made with other settings was refused only once the engine was ready (a minute's
    compile on a fresh install) and, without --turn, the hint had chosen the turns (up to 10 s near the
    end). With --turn every setting is known from the arguments: such a file, or one with a row no
    rollout writes, is refused first, in the same words; the same settings still resume. (Without --turn
    the turns are the hint's, known only once it has thought: other turns are refused then, the other
    settings first: the next test.)"""
    from lcanalysis.cli import warmup

    out = tmp_path / "r.csv"
    argv = ["rollout", "example:midround", "--agent", "greedy", "--workers", "1", "--turn", "+B6/D", "--turn=-W2/D",
            "--out", str(out)]
    assert main([*argv, "--trials", "2"]) == 0
    made = out.read_text()
    readied: list[int] = []
    monkeypatch.setattr(warmup, "engine_ready", lambda quiet=False: readied.append(1) or 0.0)
    capsys.readouterr()
    for other, says in ((["--seed", "1"], "made with other settings (seed: 0 there, 1 here)"),
                        (["--agent", "heuristic"], "made with other settings (agent: "),
                        (["--turn", "+B6/Y"], "made with other settings (turns: ")):
        assert main([*argv, "--trials", "3", *other]) == 2
        err = capsys.readouterr().err
        assert err.startswith(f"lcanalysis rollout: error: argument --out: {out} was {says}"), err
        assert readied == [] and out.read_text() == made
    rows = made.splitlines(keepends=True)
    out.write_text("".join(rows[:2]) + "0,+B7/D," + rows[2].split(",", 2)[2] + "".join(rows[2:]))
    assert main([*argv, "--trials", "3"]) == 2 and readied == []
    assert "line 3: turn '+B7/D' is not one of this rollout's turns" in capsys.readouterr().err
    out.write_text(made)
    assert main([*argv, "--trials", "3"]) == 0 and readied == [1]  # the same settings: resumed
    assert sorted(set(load_rollout(out)["trial"])) == [0, 1, 2]


def test_without_the_turns_an_out_file_of_another_seed_agent_deal_or_position_is_refused_before_the_hint(
        tmp_path, capsys, monkeypatch):
    """Without --turn, 'rollout --out F' made with another seed, agent, deal or position was refused only once
    the engine was ready (a minute's compile on a fresh install) and the hint had chosen the turns (a second,
    up to 10 s near the end), though none of these settings depends on the turns. Now refused first, by the
    command and the library alike, in the same words, the file as it was; the turns, the hint's, are still
    checked once it has chosen them, and a file of the same settings still resumes."""
    from lcanalysis import advisor
    from lcanalysis.cli import warmup

    out = tmp_path / "r.csv"
    argv = ["rollout", "example:midround", "--agent", "greedy", "--workers", "1", "--out", str(out)]
    assert main([*argv, "--trials", "2"]) == 0
    made = out.read_text()
    readied: list[int] = []
    hinted: list[int] = []
    advise = advisor.advise
    monkeypatch.setattr(warmup, "engine_ready", lambda quiet=False: readied.append(1) or 0.0)
    monkeypatch.setattr(advisor, "advise", lambda *a, **k: hinted.append(1) or advise(*a, **k))
    capsys.readouterr()
    for other, says in ((["--seed", "1"], "(seed: 0 there, 1 here)"),
                        (["--agent", "heuristic"], "(agent: "),
                        (["--hand-model"], "(hand_model: False there, True here)")):
        assert main([*argv, "--trials", "3", *other]) == 2
        err = capsys.readouterr().err
        assert err.startswith(f"lcanalysis rollout: error: argument --out: {out} was made with other settings "
                              f"{says}"), err
        assert (readied, hinted) == ([], []) and out.read_text() == made
    assert main(["rollout", "example:endgame", *argv[2:], "--trials", "3"]) == 2
    assert "made with other settings (position: " in capsys.readouterr().err and (readied, hinted) == ([], [])
    with pytest.raises(ValueError, match=r"other settings \(seed: 0 there, 1 here\)"):
        rollout("example:midround", agent="greedy", trials=3, seed=1, out=out)  # the library, before its hint
    assert hinted == [] and out.read_text() == made
    assert main([*argv, "--trials", "3", "--top", "2"]) == 2  # other turns: known once the hint has chosen them
    assert "made with other settings (turns: " in capsys.readouterr().err and hinted == [1]
    assert main([*argv, "--trials", "3"]) == 0 and readied  # the same settings: resumed
    assert sorted(set(load_rollout(out)["trial"])) == [0, 1, 2]


def test_an_out_file_that_cannot_be_written_is_refused_by_the_library_before_any_trial(tmp_path):
    """Found by a reliability pass: lc.rollout(out=FOLDER) raised IsADirectoryError, and out= in a
    missing folder FileNotFoundError, after the hint had chosen the turns; the command line refused
    both by name. The library now refuses them as RolloutError, naming out, before any work."""
    for out, says in ((tmp_path, f"out {tmp_path} is a directory; give a file name"),
                      (tmp_path / "missing" / "r.csv", f"out {tmp_path / 'missing' / 'r.csv'}: the folder "
                                                       f"{tmp_path / 'missing'} does not exist")):
        with pytest.raises(RolloutError) as refused:
            rollout("example:midround", turns=["+B6/D"], agent="greedy", trials=2, out=out)
        assert str(refused.value) == says
    with pytest.raises(RolloutError, match="out must be a file name"):
        rollout("example:midround", turns=["+B6/D"], agent="greedy", trials=2, out=5)
    assert sorted(p.name for p in tmp_path.iterdir()) == []


def test_the_progress_lines_speak_of_a_file_only_when_there_is_one(tmp_path):
    """Found by a reliability pass: without out= the first line said "2 trial(s) to play (0 already
    in the file)", of a file there is none of."""
    said: list[str] = []
    rollout("example:midround", turns=["+B6/D"], agent="greedy", trials=2, progress=said.append)
    assert said[0] == "2 trial(s) to play, each of 1 turn(s) played out by greedy in both seats", said
    said.clear()
    rollout("example:midround", turns=["+B6/D"], agent="greedy", trials=2, progress=said.append,
            out=tmp_path / "r.csv")
    assert said[0] == "2 trial(s) to play (0 already in the file), each of 1 turn(s) played out by greedy in both " \
                      "seats", said


def test_the_answer_says_how_its_worlds_were_dealt_and_warns_where_the_hints_hand_model_deals_otherwise(
        monkeypatch, capsys):
    """The hint deals the opponent's unknown cards by its opponent-hand model, the rollout uniformly: a
    user holding one against the other must be told, in the text and the JSON; the warning only where the
    model's weights are not all equal (``hand_weights``), the deal said always."""
    import lcanalysis.hand_model as hm
    from lcanalysis.hand_model import hand_weights

    view = read_position("example:midround")
    w = hand_weights(view)
    assert w.min() < w.max()  # (the model has something to infer here: a check of the fixture)
    answer = rollout(view, turns=["+B6/G", "-W2/G"], agent="heuristic", trials=2)
    dealt = [n for n in answer.notes if n.startswith("worlds dealt uniformly")]
    assert len(dealt) == 1 and "opponent-hand model" in dealt[0] and "can differ" in dealt[0]
    assert answer.to_json()["hand_model"] is False
    assert main(["rollout", "example:midround", "--agent", "heuristic", "--trials", "2", "--turn", "+B6/G",
                 "--workers", "1", "--json"]) == 0
    shown = json.loads(capsys.readouterr().out)
    assert shown["hand_model"] is False and any("can differ" in n for n in shown["notes"])
    # a model that weighs every card alike (zero weights): the same deal as the hint's, no warning
    monkeypatch.setattr(hm, "shipped_weights", lambda: np.zeros(hm.N_FEATURES))
    alike = rollout(view, turns=["+B6/G"], agent="heuristic", trials=2)
    said = [n for n in alike.notes if n.startswith("worlds dealt uniformly")]
    assert len(said) == 1 and "can differ" not in said[0] and "alike" in said[0]
    pos = played_down(3, 10)
    full = rollout(pos, turns=[str(pos.legal_moves()[0])], agent="heuristic", trials=2)
    assert any(n.startswith("worlds: a full position, both hands as given") for n in full.notes)


def test_with_the_hand_model_a_views_worlds_hold_each_card_in_the_opponents_hand_as_the_model_says():
    """``hand_model=True``: every world is one the mover cannot tell from the view, and over 400 worlds
    the opponent holds each unseen card type as often as the model's exact inclusion probabilities say
    (summed over the copies of a type; within 4 standard errors), where the uniform deal does not."""
    from lcanalysis.hand_model import hand_weights, inclusion_probabilities

    view = read_position("example:midround")
    mover, opp = view.to_move, 1 - view.to_move
    unseen = view.unseen()
    pi = inclusion_probabilities(hand_weights(view), view.opponent_unknown)
    types = sorted({c.type for c in unseen})
    expected = {t: sum(p for c, p in zip(unseen, pi, strict=True) if c.type == t) for t in types}
    known = Counter(c.type for c in view.opponent_known)
    worlds = 400
    held = {t: [] for t in types}
    for i in range(worlds):
        w = world(view, i, 0, hand_model=True)
        assert w.view(mover).to_json() == view.to_json()
        in_hand = Counter(c.type for c in w.hand(opp)) - known
        for t in types:
            held[t].append(in_hand[t])
    for t in types:
        x = np.array(held[t], float)
        spread = max(x.std(ddof=1), 0.5 / math.sqrt(worlds)) / math.sqrt(worlds)
        assert abs(x.mean() - expected[t]) < 4 * spread + 1e-9, t
    uniform = view.opponent_unknown / len(unseen)  # (the model has a say here: some type is far from it)
    assert max(abs(expected[t] / sum(c.type == t for c in unseen) - uniform) for t in types) > 0.2
    assert [c.type for c in world(view, 3, 0, hand_model=True).deck] != [c.type for c in world(view, 3, 0).deck]


def test_a_rollout_dealt_by_the_hand_model_says_so_and_a_file_keeps_one_deal(tmp_path, capsys):
    turns = ["+B6/G", "-W2/G"]
    one = rollout("example:midround", turns=turns, agent="heuristic", trials=6, hand_model=True)
    two = rollout("example:midround", turns=turns, agent="heuristic", trials=6, hand_model=True, workers=2)
    uniform = rollout("example:midround", turns=turns, agent="heuristic", trials=6)
    values = [(m.move, m.value, m.stderr, m.loss) for m in one.moves]
    assert values == [(m.move, m.value, m.stderr, m.loss) for m in two.moves]
    assert values != [(m.move, m.value, m.stderr, m.loss) for m in uniform.moves]
    assert one.to_json()["hand_model"] is True
    assert any(n.startswith("worlds dealt as the hint deals them") for n in one.notes)
    with pytest.raises(RolloutError, match="hand_model must be"):
        rollout("example:midround", turns=turns, agent="heuristic", trials=2, hand_model="yes")
    # a file is kept under one deal: the other is refused, either way round
    for first, then in ((True, False), (False, True)):
        out = tmp_path / f"r_{first}.csv"
        rollout("example:midround", turns=turns, agent="heuristic", trials=3, out=out, hand_model=first)
        with pytest.raises(ValueError, match="hand_model"):
            rollout("example:midround", turns=turns, agent="heuristic", trials=5, out=out, hand_model=then)
        resumed = rollout("example:midround", turns=turns, agent="heuristic", trials=6, out=out, hand_model=first)
        same = one if first else uniform
        assert [m.value for m in resumed.moves] == [m.value for m in same.moves]
    # a file from before the option (no hand_model in its settings) was dealt uniformly: it resumes so
    old = tmp_path / "r_False.csv"
    lines = old.read_text().split("\n")
    settings = json.loads(lines[0].removeprefix("# lcanalysis rollout: "))
    del settings["hand_model"]
    old.write_text("\n".join(["# lcanalysis rollout: " + json.dumps(settings), *lines[1:]]))
    rollout("example:midround", turns=turns, agent="heuristic", trials=7, out=old)
    with pytest.raises(ValueError, match="hand_model"):
        rollout("example:midround", turns=turns, agent="heuristic", trials=7, out=old, hand_model=True)
    # the command: --hand-model, said in the answer and in the command that resumes the file
    out = tmp_path / "cli.csv"
    assert main(["rollout", "example:midround", "--agent", "heuristic", "--trials", "2", "--turn", "+B6/G",
                 "--workers", "1", "--hand-model", "--json", "--out", str(out)]) == 0
    shown = json.loads(capsys.readouterr().out)
    assert shown["hand_model"] is True and any("as the hint deals them" in n for n in shown["notes"])
    assert "--hand-model" in (tmp_path / "cli.csv.cmd").read_text()


def test_the_command_checks_its_agent_once_and_the_library_makes_it_once(tmp_path, capsys, monkeypatch):
    """'rollout --agent A --out F' checked A's name and options twice before the compile (its own check, then
    again for F's settings) and made it twice after (its own check, then the library's): the command now checks
    it once and hands the checked spec on, and the library's check makes it, the one check that needs the
    engine (a value the option's type allows but the agent refuses: search:time_ms=-5), still refused naming
    --agent."""
    from lcanalysis.tournaments import specs

    checked: list[bool] = []
    check = specs.check_agent
    monkeypatch.setattr(specs, "check_agent", lambda spec, make=True: checked.append(make) or check(spec, make))
    argv = ["rollout", "example:midround", "--workers", "1", "--turn", "+B6/D", "--trials", "2"]
    assert main([*argv, "--agent", "greedy", "--out", str(tmp_path / "r.csv")]) == 0
    assert checked == [False, True]
    capsys.readouterr()
    checked.clear()
    assert main([*argv, "--agent", "search:time_ms=-5"]) == 2 and checked == [False, True]
    err = capsys.readouterr().err
    assert err.startswith("lcanalysis rollout: error: argument --agent: agent 'search:time_ms=-5': ") and "-5" in err
    assert err.endswith(" (see lcanalysis rollout --help)\n") and err.count("\n") == 1, err


def _first_trial_held(monkeypatch, until):
    """``play_trial`` with its first trial held until ``until()`` (at most 30 s): a trial that runs on,
    as one of ``best`` does for many seconds; then the real trial."""
    import time

    import lcanalysis.studies.rollout as R

    real = R.play_trial

    def held(source, turns, agent, trial, *rest):
        if trial == 0:
            give_up = time.monotonic() + 30
            while not until() and time.monotonic() < give_up:
                time.sleep(0.02)
            assert until(), "no word while the trial ran on"
        return real(source, turns, agent, trial, *rest)

    monkeypatch.setattr(R, "play_trial", held)


def test_a_trial_that_runs_on_is_not_a_silent_wait(capsys, monkeypatch):
    """Found at a table: 'review --check 2' said '2 trial(s) to play, ...' and then nothing for 15 s
    while best played its trials out, as 'rollout' does. The last line is now said again, with the
    seconds since, while a trial runs on, as advise's stages are."""


    heard = hear_still_working(monkeypatch)
    _first_trial_held(monkeypatch, heard.is_set)
    assert main(["rollout", "example:midround", "--agent", "heuristic", "--trials", "2", "--turn", "+B6/D",
                 "--turn", "-W2/G", "--workers", "1"]) == 0
    out, err = capsys.readouterr()
    lines = err.splitlines()
    todo = next(k for k, line in enumerate(lines) if "2 trial(s) to play" in line)
    assert lines[todo + 1].startswith(f"{lines[todo]} ... still working, ") and lines[todo + 1].endswith(" s")
    assert "2 of 2 trials played" in err and out.count("mean of 2 rollouts") == 2


def test_at_a_terminal_the_bar_of_a_trial_that_runs_on_shows_the_time_passing(capsys, monkeypatch):
    """The bar (``progress=True``) redraws only as a trial ends: during a first trial of seconds it
    was not even drawn. It is now redrawn each second, from its first second on."""
    seen: list[str] = []

    def drawn() -> bool:
        seen.append(capsys.readouterr().err)
        return "0/2" in "".join(seen)

    _first_trial_held(monkeypatch, drawn)
    answer = rollout(read_position("example:midround"), turns=["+B6/D", "-W2/G"], agent="heuristic", trials=2,
                     workers=1, progress=True)
    assert "rollout:   0%" in "".join(seen) and len(answer.moves) == 2
