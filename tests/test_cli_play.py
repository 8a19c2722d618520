"""``lcanalysis play``: a round or a match against an agent at the terminal, the tutor speaking up
when a turn costs points, the game written to a record after every turn. Each game here is also
played through the library's ``TutorSession`` (the reference path) and the two must agree."""

from __future__ import annotations

import io
import json
import os
import re
import subprocess
import sys

import pytest
from helpers import hear_still_working

from lcanalysis.cli import main
from lcanalysis.game.records import MatchRecord, RoundRecord, read_record
from lcanalysis.tutor import TutorSession

FAST = ["--agent", "greedy", "--time", "0.05"]


def play(capsys, monkeypatch, lines, *args):
    monkeypatch.setattr(sys, "stdin", io.StringIO("".join(f"{line}\n" for line in lines)))
    code = main(["play", *args])
    out = capsys.readouterr()
    return code, out.out, out.err


def scripted(seed, pick, rounds=1, threshold=2.0, limit=None):
    """The turns ``pick`` chooses in a game played through the library, and the session after them."""
    s = TutorSession(agent="greedy", seed=seed, time_budget=0.05, rounds=rounds, threshold=threshold)
    turns = []
    while limit is None or len(turns) < limit:
        if s.round_over():
            if s.match.round_number == rounds:
                break  # as the command leaves it: the last round over, its score line still to print
            s.next_round()
            continue
        turn = str(pick(s))
        turns.append(turn)
        s.play(turn)
    return turns, s


def test_a_whole_round_is_played_judged_and_recorded_as_the_library_plays_it(capsys, monkeypatch, tmp_path):
    turns, ref = scripted(3, lambda s: s.legal_turns()[-1])
    record = tmp_path / "game.json"
    code, out, err = play(capsys, monkeypatch, turns, *FAST, "--seed", "3", "--record", str(record))
    assert code == 0, err
    # the tutor's words are the library's, turn for turn, and it spoke exactly where the library did
    spoken = [line.removeprefix("tutor: ") for line in out.splitlines() if line.startswith("tutor: ")]
    assert spoken == [d.comment for d in ref.decisions if d.comment] and spoken
    # a turn let pass is "fine", or, over the threshold within two standard errors or only bounded by the
    # endgame search, "not clearly worse"
    unsure = [d for d in ref.decisions if not d.comment and (d.loss > 2.0 or d.bound)]
    assert out.count(": not clearly worse than the best") == len(unsure)
    assert out.count(": fine") == sum(not d.comment for d in ref.decisions) - len(unsure)
    for d in ref.decisions:  # a loss in words, as the summary gives it: never a bare signed number
        if not d.comment and d.loss >= 0.05 and d not in unsure:
            assert (f"{d.played}: fine: exactly {d.loss:.1f} points worse than the best" if d.exact else
                    f"{d.played}: fine ({d.loss_points()} worse than the best)") in out
    assert f"round over: {ref.score_line()}" in out and "match over" not in out  # one round: no match to speak of
    # the last board shows the agent's hand face up, as the round is over (it showed "?? ?? ..." to the end)
    final = out[out.rindex("Lost Cities, "):out.index(f"round over: {ref.score_line()}")]
    agents = " ".join(str(card) for card in ref.position.hand(1))
    assert f"\nhand of opponent (player 1): {agents} (" in final and "??" not in final, final
    assert final.startswith("Lost Cities, 5 colours, turn ") and ": round over" in final.splitlines()[0]
    assert f"your {len(turns)} decision(s): {sum(d.flagged for d in ref.decisions)} flagged" in out
    # not every estimate is a play-out's: with 4 cards or fewer left the endgame search judged over sampled worlds
    assert "the rest estimates by play-outs or, near the end, by the endgame search over sampled worlds" in out
    # judging a turn near the end takes the endgame search seconds: its stages are said on standard error
    assert "so the endgame search judges it" in err and "  endgame: 0 stall(s) each: solving" in err
    # every reply of the agent is announced, in words
    assert out.count("opponent (greedy) plays ") == len(ref.position.history[1::2])  # the agent is player 1
    # the record replays to the round's final scores
    rec = read_record(str(record))
    assert isinstance(rec, RoundRecord) and rec.players == ["you", "greedy"] and rec.is_finished()
    assert rec.final().scores() == ref.position.scores()
    assert f"'lcanalysis review {record}'" in out


def test_quitting_keeps_the_game_so_far_in_the_record(capsys, monkeypatch, tmp_path):
    turns, ref = scripted(5, lambda s: s.legal_turns()[0], limit=3)
    record = tmp_path / "game.json"
    code, out, _ = play(capsys, monkeypatch, [*turns, "quit", turns[0]], *FAST, "--seed", "5", "--seat", "0",
                        "--record", str(record))
    assert code == 0 and "your 3 decision(s)" in out
    rec = read_record(str(record))
    assert [str(t.move) for t in rec.turns] == [str(m) for m in ref.position.history]
    assert rec.final().to_json() == ref.position.to_json()


def test_bad_lines_are_answered_and_the_game_goes_on(capsys, monkeypatch):
    s = TutorSession(agent="greedy", seed=7, time_budget=0.05)
    legal = s.legal_turns()
    illegal = next(f"+{c}/D" for c in ("Y10", "B10", "W10", "G10", "R10") if f"+{c}/D" not in map(str, legal))
    code, out, err = play(capsys, monkeypatch, ["moves", "+Q3/D", "nonsense", illegal, "board", str(legal[0])],
                          *FAST, "--seed", "7", "--threshold", "1000")
    assert code == 0
    assert " ".join(map(str, legal)) in out.splitlines()
    assert "colour 'Q'" in err and "'nonsense' is neither a turn nor a word of the game" in err
    assert f"error: {illegal} is not legal here" in err
    assert err.count("'moves' lists the legal turns") == 2  # the two turns; the word is told the words
    assert "Judging your turn" in err and err.count("Judging your turn") == 1  # only the legal turn is judged
    assert "tutor:" not in out and f"{legal[0]}: fine" in out  # nothing costs 1000 points


@pytest.mark.parametrize("line,said", [
    ("hint 5", "'hint' takes nothing after it but 'all'"),
    ("help me", "'help' takes nothing after it:"),
    ("Board now", "'board' takes nothing after it:"),
    ("undo", "'undo' is neither a turn nor a word of the game"),
    ("play R7", "'play R7' is neither a turn nor a word of the game"),
    ("R11", "unknown card 'R11': value '11' is not 2..10 or w"),
])
def test_a_line_that_is_no_turn_is_told_the_words_not_a_missing_source(capsys, monkeypatch, line, said):
    """'hint 5' or 'undo' was answered "move 'undo' has no '/<source>'", as though it were a turn missing
    its draw; a line with no +, - or / is now told what it is and the words the game knows."""
    code, _out, err = play(capsys, monkeypatch, [line, "quit"], *FAST, "--seed", "7")
    assert code == 0
    (error,) = [e for e in err.splitlines() if e.startswith("error:")]
    assert said in error and "/<source>" not in error
    assert error.endswith("or one of hint, moves, board, help, quit")
    assert "Judging your turn" not in err  # nothing was played


def test_a_bad_source_is_quoted_as_typed(capsys, monkeypatch):
    """'+yw/d x' was told "source 'D X' is neither D ...": the source upper-cased, not what was typed."""
    code, _out, err = play(capsys, monkeypatch, ["+yw/d x", "quit"], *FAST, "--seed", "7")
    assert code == 0
    (error,) = [e for e in err.splitlines() if e.startswith("error:")]
    assert "move '+yw/d x': source 'd x' is neither D (draw pile) nor a colour letter" in error, error
    assert "'D X'" not in error


def test_a_card_alone_is_still_told_the_turns_that_play_or_discard_it(capsys, monkeypatch):
    s = TutorSession(agent="greedy", seed=7, time_budget=0.05)
    card = str(s.view().hand[0])
    code, _out, err = play(capsys, monkeypatch, [card.lower(), "quit"], *FAST, "--seed", "7")
    assert code == 0 and f"write '+{card}/D' to play it or '-{card}/D' to discard it" in err


def test_a_hint_ranks_the_turns_before_the_player_chooses(capsys, monkeypatch):
    code, out, _ = play(capsys, monkeypatch, ["hint", "hint all"], *FAST, "--seed", "2")
    assert code == 0
    first, every = out.split("your turn> hint all")
    assert "vs best" in first and "'hint all' lists every turn" in first and "--all" not in first
    s = TutorSession(agent="greedy", seed=2, time_budget=0.05)
    assert all(str(m) in every for m in s.legal_turns())  # every placement, every draw
    # at the table the footer is one short line that still says what kind of number it is;
    # 'hint all' explains the values in full
    short = [line for line in first.splitlines() if line.startswith("value: ")]
    assert len(short) == 1 and len(short[0]) < 200, short
    assert "an estimate by" in short[0] and "play-outs" in short[0] and "± is one standard error" in short[0]
    full = [line for line in every.splitlines() if line.startswith("value: ")]
    assert len(full) == 1 and "not the misjudgments of the play-out policy" in full[0]


@pytest.mark.parametrize("exact", [True, False])
def test_the_short_footer_says_exact_under_its_bounds_or_an_estimate_over_its_worlds(exact):
    """The brief footer keeps what the long one says about the kind of number, for the endgame
    search's answers too: exact under the bounds (and whether converged), or sampled worlds with ±."""
    from lcanalysis.analysis import Analysis, MoveValue
    from lcanalysis.show.hint import question

    moves = [MoveValue("+R7/D", 3.0, 0.0 if exact else 0.4, exact, ""),
             MoveValue("-R2/D", 1.0, 0.0 if exact else 0.3, exact, "", extra={"bound": "upper"} if exact else {})]
    a = Analysis(moves=moves, kind="view value (averaged over splits)", exact=exact,
                 bounds={"max_stalls": 2, "converged": False} if exact else {"max_stalls": 2}, nodes=10, seconds=0.1,
                 method="", splits=24)
    short, full = question(a, brief=True), question(a)
    assert len(short) < len(full)
    if exact:
        assert "exact under" in short and "not converged" in short and "≤: at most" in short
    else:
        assert "an estimate" in short and "24 sampled worlds" in short and "± is one standard error" in short


def test_a_match_is_played_round_after_round_and_recorded_as_a_match(capsys, monkeypatch, tmp_path):
    turns, ref = scripted(11, lambda s: s.legal_turns()[-1], rounds=2)
    record = tmp_path / "match.json"
    code, out, _ = play(capsys, monkeypatch, turns, *FAST, "--seed", "11", "--rounds", "2", "--record", str(record))
    assert code == 0
    # between the rounds: who starts round 2, by round 1's scores (the higher total), and that it decides the match
    first = ref.match.round_scores[0]
    assert first[0] != first[1]  # (this deal: else the tie's convention decides)
    starter = "you start it" if first[0] > first[1] else "the opponent (greedy) starts it"
    assert f"\nround 2 of 2: {starter}, with the higher total ({max(first)} to " in out
    assert ("and this last round decides it (the higher total after it wins, level totals draw): between equal "
            "players a ") in out
    you, them = (total + ref.position.score(p) for p, total in enumerate(ref.match.totals))  # with the last round
    verdict = "you win the match" if you > them else "you lose the match" if you < them else "a drawn match"
    assert f"match over: {verdict}, {you} to {them}" in out
    # the costliest decisions also say what each cost of the chance to win the match, as the tutor said it
    # (they listed the points alone, where the README promised the summary its match column)
    listed = [line for line in out.splitlines() if re.match(r"  round \d turn \d+: played ", line)]
    worst = sorted((d for d in ref.decisions if d.loss > 0), key=lambda d: -d.loss)[:len(listed)]
    assert listed and any(d.match_loss is not None for d in worst)
    for line, d in zip(listed, worst):
        loss = f"loss {d.loss_text(signed=False)}"
        assert line.endswith(loss if d.match_loss is None else f"{loss}; f{d.match_said()[1:]}"), line
    rec = read_record(str(record))
    assert isinstance(rec, MatchRecord) and len(rec.rounds) == 2
    assert json.loads(record.read_text())["players"] == ["you", "greedy"]


def test_in_a_match_the_tutor_says_once_that_it_judges_in_points_of_the_round(capsys, monkeypatch):
    """In a match the tutor's losses are points of the round, as in a single round, with no word that
    the match was not weighed: it now says so once, before the first turn, in advise's words."""
    from lcanalysis.match_equity import POINTS_ONLY, points_only_note

    turns, _ = scripted(11, lambda s: s.legal_turns()[-1], rounds=2, limit=3)
    code, out, _ = play(capsys, monkeypatch, [*turns, "quit"], *FAST, "--seed", "11", "--rounds", "2")
    said = (points_only_note("the tutor judges your turns in") + "; where play-outs judge, it also says what each of "
            "your turns costs of your chance to win the match")
    assert code == 0 and out.count(POINTS_ONLY) == 1 and f"tutor: {said}\n" in out
    assert out.index(said) < out.index("your turn> ")  # before the first turn
    code, out, _ = play(capsys, monkeypatch, [*turns, "quit"], *FAST, "--seed", "11")
    assert code == 0 and POINTS_ONLY not in out  # a single round: points are what counts


@pytest.mark.parametrize("args,message", [
    (["--threshold", "-1"], "--threshold must be 0 or more points, got -1"),
    (["--threshold", "lots"], "--threshold must be a number of points"),
    (["--time", "0"], "must be more than 0"),
    (["--rounds", "0"], "--rounds must be >= 1"),
    # refused as read: it was refused only after the game's opening line had been printed
    (["--rounds", "5000"], "argument --rounds: --rounds must be at most 1000, got 5000"),
    (["--agent", "nosuch"], "unknown agent 'nosuch'"),
    (["--agent", "search:width=abc"], "width"),
])
def test_bad_options_are_refused_naming_the_problem(capsys, monkeypatch, args, message):
    monkeypatch.setattr(sys, "stdin", io.StringIO(""))
    try:
        code = main(["play", *args])
    except SystemExit as exc:  # argparse's refusals
        code = exc.code
    out, err = capsys.readouterr()
    assert code == 2 and message in err and "deal" not in out.lower()


def test_a_record_file_that_cannot_be_written_is_refused_before_the_game(capsys, monkeypatch, tmp_path):
    code, out, err = play(capsys, monkeypatch, [], *FAST, "--seed", "1", "--record", str(tmp_path))
    assert code == 2 and "--record" in err and "lcanalysis play:" not in out


def test_the_shell_does_not_run_play(capsys):
    from lcanalysis.cli.shell import answer

    assert answer("play --seed 1", lambda words: 0) == 2
    assert "'play' does not run in the shell" in capsys.readouterr().err


def test_with_ask_a_costly_turn_is_explained_first_and_can_be_taken_back(capsys, monkeypatch, tmp_path):
    from lcanalysis.advisor import advise

    s = TutorSession(agent="greedy", seed=5, time_budget=0.05)
    analysis = advise(s.view(), time_budget=0.05, seed=5)  # what the tutor will see
    worst, best = analysis.moves[-1], analysis.moves[0]
    assert worst.loss > 2.0 and worst.loss > 2 * worst.loss_stderr  # the case this test is about
    record = tmp_path / "game.json"
    code, out, _ = play(capsys, monkeypatch, [worst.move, "n", best.move, "quit"], *FAST, "--seed", "5", "--ask",
                        "--record", str(record))
    assert code == 0
    assert f"tutor: this turn loses {worst.loss:.1f}" in out and "taken back: choose again" in out
    assert f"{best.move}: fine: as good as the best" in out and "1 turn(s) taken back" in out
    assert "your 1 decision(s): 0 flagged" in out
    assert str(read_record(str(record)).turns[0]) == best.move  # the turn taken back never happened
    code, out, _ = play(capsys, monkeypatch, [worst.move, "y", "quit"], *FAST, "--seed", "5", "--ask")
    # asked once, then played
    assert out.count(f"tutor: this turn loses {worst.loss:.1f}") == 1 and "taken back" not in out
    assert "your 1 decision(s): 1 flagged" in out


def test_a_judgement_of_another_turn_is_refused():
    s = TutorSession(agent="greedy", seed=5, time_budget=0.05)
    first, second = s.legal_turns()[:2]
    judged = s.judge(first)
    with pytest.raises(ValueError, match=re.escape(f"the judgement given is of {first} at turn 0, not of {second}")):
        s.play(second, judged)
    assert s.play(first, judged) == (judged.comment or None) and s.decisions == [judged]


def test_the_player_is_told_the_card_they_drew_from_the_deck(capsys, monkeypatch):
    turns, ref = scripted(6, lambda s: next(m for m in s.legal_turns() if m.source == "D"), limit=1)
    code, out, _ = play(capsys, monkeypatch, turns, *FAST, "--seed", "6")
    drawn = ref.drawn
    assert code == 0 and drawn and f"you drew {drawn} from the draw pile" in out
    assert drawn in {str(c) for c in ref.position.hand(0)}


def test_the_costliest_decisions_say_whether_each_loss_is_exact_an_estimate_or_a_bound(capsys, monkeypatch):
    turns, ref = scripted(3, lambda s: s.legal_turns()[-1])
    code, out, _ = play(capsys, monkeypatch, turns, *FAST, "--seed", "3")
    listed = [line for line in out.splitlines() if line.startswith("  round 1 turn ")]
    assert code == 0 and listed
    worst = sorted((d for d in ref.decisions if d.loss > 0), key=lambda d: -d.loss)[:len(listed)]
    for line, d in zip(listed, worst):
        said = (f"at least {d.loss:.1f}" if d.bound else f"{d.loss:.1f} (exact)" if d.exact
                else f"{d.loss:.1f} ± {d.loss_stderr:.1f}")
        assert line.endswith(f"loss {said}"), line  # it gave the bare number


def test_ctrl_c_while_the_advisor_thinks_gives_the_turn_back_and_while_the_agent_thinks_ends_the_game(
        capsys, monkeypatch, tmp_path):
    import lcanalysis.tutor

    turns, _ = scripted(8, lambda s: s.legal_turns()[0], limit=1)
    advise, calls = lcanalysis.tutor.advise, []

    def interrupted_once(*args, **kwargs):  # Ctrl-C during the first hint
        calls.append(1)
        if len(calls) == 1:
            raise KeyboardInterrupt
        return advise(*args, **kwargs)

    monkeypatch.setattr(lcanalysis.tutor, "advise", interrupted_once)  # a hint is the session's advice
    code, out, err = play(capsys, monkeypatch, ["hint", "hint"], *FAST, "--seed", "8")
    assert code == 0 and "stopped: nothing was played; your turn again" in err and "vs best" in out

    advance = TutorSession._advance

    def agent_interrupted(self):  # Ctrl-C while the agent chooses its reply to the first turn
        if self.position.to_move != self.seat:
            raise KeyboardInterrupt
        advance(self)

    monkeypatch.setattr(TutorSession, "_advance", agent_interrupted)
    record = tmp_path / "game.json"
    code, out, err = play(capsys, monkeypatch, turns, *FAST, "--seed", "8", "--seat", "0", "--record", str(record))
    assert code == 0 and "the game ends here" in err and "your 1 decision(s)" in out
    assert [str(t.move) for t in read_record(str(record)).turns] == turns


def test_a_record_file_that_exists_is_never_overwritten(capsys, monkeypatch, tmp_path):
    old = tmp_path / "old.json"
    old.write_text("another game")
    code, _, err = play(capsys, monkeypatch, [], *FAST, "--seed", "1", "--record", str(old))
    assert code == 2 and old.read_text() == "another game"
    assert err == (f"lcanalysis play: error: argument --record: {old} exists (another game's record?); give a new "
                   "name or delete it first (see lcanalysis play --help)\n"), err


def test_the_record_is_written_from_the_start_so_quitting_at_once_keeps_the_agents_turn(capsys, monkeypatch, tmp_path):
    record = tmp_path / "game.json"
    code, _, _ = play(capsys, monkeypatch, ["quit"], *FAST, "--seed", "2", "--seat", "1", "--record", str(record))
    s = TutorSession(agent="greedy", seed=2, seat=1, time_budget=0.05)  # the agent opens as player 0
    rec = read_record(str(record))
    assert code == 0 and [str(t.move) for t in rec.turns] == [str(m) for m in s.position.history] != []
    assert rec.players == ["greedy", "you"]


def test_the_agent_is_named_as_the_player_asked_for_it_and_a_missing_program_is_met_at_once(capsys, monkeypatch,
                                                                                           tmp_path):
    record = tmp_path / "game.json"
    code, out, _ = play(capsys, monkeypatch, ["quit"], "--agent", "search:time_ms=20", "--time", "0.05", "--seed",
                        "2", "--record", str(record))
    assert code == 0 and "against search:time_ms=20," in out
    assert read_record(str(record)).players == ["you", "search:time_ms=20"]
    code, out, err = play(capsys, monkeypatch, ["+Y2/D"], "--agent", "external:no-such-program-here", "--seed", "2")
    assert code == 2 and "could not be started" in err and "Judging" not in err and "lcanalysis play:" not in out


def test_a_purple_card_in_a_five_colour_game_names_the_option_for_six(capsys, monkeypatch):
    """Typing P6 at a 5-colour table: the error says purple is only in the 6-colour game and that
    this command deals one with --colors 6 (a position string is not how a game here is asked for)."""
    code, out, err = play(capsys, monkeypatch, ["+P6/D", "quit"], *FAST, "--seed", "3")
    assert code == 0, err
    said = out + err
    assert "P6 is a card of the 6-colour game only, and this is the 5-colour game" in said
    assert "--colors 6 to lcanalysis play" in said


def test_a_judgement_or_hint_that_runs_on_says_it_is_still_working(capsys, monkeypatch):
    """Near the end the endgame search judges a turn for seconds, a stall level at a time; a level
    that runs on is said again, with its seconds, while it lasts (as advise does), for the hint as
    for the judgement of a turn. The search is replaced by one that reports a stage and waits (at
    most 30 s) until the command has said it is still working; the judgement is then the real one.
    The tutor's search threshold is raised so that the opening's turn is judged that way."""

    import lcanalysis.advisor as advisor
    import lcanalysis.tutor as tutor

    heard = hear_still_working(monkeypatch)
    real = advisor.advise

    def slow(view, time_budget=None, seed=0, progress=None, **_):
        assert progress is not None
        heard.clear()
        progress("endgame: 1 stall(s) each: solving")
        assert heard.wait(30), "no word while the stage ran on"
        return real(view, time_budget=0.05, seed=seed)

    monkeypatch.setattr(tutor, "JUDGE_SEARCH_CARDS", 60)
    monkeypatch.setattr(tutor, "advise", slow)
    monkeypatch.setattr(advisor, "advise", slow)
    # (the turn first: a turn played after a hint is judged by the hint's answer, with no second search)
    code, out, err = play(capsys, monkeypatch, ["-Y2/D", "hint", "quit"], *FAST, "--seed", "3")
    assert code == 0, err
    assert "vs best" in out and "round 1 turn 0: played -Y2/D" in out  # the hint printed, the turn judged
    still = [line for line in err.splitlines() if "still working" in line]
    assert len(still) >= 2 and all(line.startswith("  endgame: 1 stall(s) each: solving ... still working, ")
                                   for line in still)


def test_the_agents_turn_is_said_to_be_the_opponents_not_read_as_advice(capsys, monkeypatch):
    """Against the default agent, whose name is 'best', its reply read "best plays -W5/D: discard W5 and
    draw from the deck", as though it were the best play; it is now "opponent (best) plays ..."."""
    code, out, _err = play(capsys, monkeypatch, ["quit"], "--seat", "1", "--seed", "3", "--time", "0.05")
    assert code == 0
    replies = [line for line in out.splitlines() if " plays " in line]
    assert len(replies) == 1 and replies[0].startswith("opponent (best) plays ")  # it moved first
    assert not any(line.startswith("best plays") for line in out.splitlines())


def test_a_turn_the_endgame_search_only_bounded_below_the_threshold_is_not_called_fine(capsys, monkeypatch):
    """Near the end, when the search's budget runs out, a turn's loss can be only a bound: "at least
    0.3 points worse". That says nothing of how much worse, so the turn was said "fine (at least 0.3
    ± 0.2 points worse than the best)"; a player read it as good. Now the tutor says it cannot tell."""
    from lcanalysis.tutor import Decision

    def bounded(self, move):  # what the search answers when its budget ends before the close turns are solved
        return Decision(round=1, turn=self.position.turn, played=str(move), best="+Y2/D", loss=0.3125,
                        loss_stderr=0.2046, exact=False, bound=True)

    monkeypatch.setattr(TutorSession, "_judge", bounded)
    s = TutorSession(agent="greedy", seed=7, time_budget=0.05)
    turn = str(s.legal_turns()[0])
    code, out, err = play(capsys, monkeypatch, [turn, "quit"], *FAST, "--seed", "7")
    assert code == 0, err
    said = next(line for line in out.splitlines() if line.startswith(f"{turn}: "))
    assert ": fine" not in said and "tutor:" not in out
    assert said == (f"{turn}: not clearly worse than the best, but it may be: the endgame search's budget ran "
                    "out when it had shown only that it is at least 0.3 ± 0.2 points worse")
    # a bound of 0 (the search stopped before telling the turn from the best): "no better", not "at least 0.0"
    s = TutorSession(agent="greedy", seed=7, time_budget=0.05)
    tie = Decision(round=1, turn=0, played=turn, best="+Y2/D", loss=0.0, loss_stderr=0.0, exact=False, bound=True)
    assert s.verdict(tie).endswith("shown only that it is no better")


def test_a_turn_played_after_a_hint_is_judged_by_the_hints_answer_without_a_second_wait(capsys, monkeypatch):
    """'hint' then the hint's best turn: the advisor ran twice on the same view, the second time while
    "Judging your turn ..." (near the end, the endgame search's seconds again), and on several threads or a
    clock the second answer could differ from the hint's. The turn is now judged by the hint's answer."""
    import lcanalysis.tutor as tutor

    calls = []
    real = tutor.advise

    def counted(view, **kw):
        calls.append(view.to_string())
        return real(view, **kw)

    monkeypatch.setattr(tutor, "advise", counted)
    s = TutorSession(agent="greedy", seed=7, time_budget=0.05)
    best = real(s.view(), time_budget=0.05, seed=7).moves[0].move
    worst = real(s.view(), time_budget=0.05, seed=7).moves[-1].move
    code, out, err = play(capsys, monkeypatch, ["hint", worst, "quit"], *FAST, "--seed", "7")
    assert code == 0, err
    assert len(calls) == 1  # the hint's answer judged the turn
    assert "Judging your turn" not in err  # no wait to announce
    assert best in out
    # the judgement is the one a fresh session gives the same turn (the same answer, kept)
    ref = TutorSession(agent="greedy", seed=7, time_budget=0.05)
    ref.play(worst)
    assert ref.decisions[0].comment and f"tutor: {ref.decisions[0].comment}" in out
    # the next turn is a new view: judged afresh
    calls.clear()
    s2 = TutorSession(agent="greedy", seed=7, time_budget=0.05)
    s2.advice()
    s2.play(s2.legal_turns()[0])
    assert s2.human_to_move() and not s2.advised()


def test_an_exact_small_loss_let_pass_reads_without_parentheses_within_parentheses():
    """Near the end a turn can lose an exact 1.0 point, under the threshold: it read "fine (1.0 points
    (exact) worse than the best)"."""
    from lcanalysis.tutor import Decision

    s = TutorSession(agent="greedy", seed=7, time_budget=0.05)
    d = Decision(round=1, turn=50, played="+W6/D", best="-Ww/D", loss=1.0, loss_stderr=0.0, exact=True)
    assert s.verdict(d) == "fine: exactly 1.0 points worse than the best"
    d.loss = 0.0
    assert s.verdict(d) == "fine: as good as the best (exact)"


def test_input_that_ends_in_the_middle_of_a_game_says_so(capsys, monkeypatch, tmp_path):
    """Found by scripting a game: a script whose lines ran out before the round ended stopped the game
    with the summary only, nothing saying that the input had ended (a 'quit' says nothing either, but
    was typed). The round, turn and record file are named; a game played to its end or quit says
    nothing of the kind."""
    turns, ref = scripted(5, lambda s: s.legal_turns()[0], limit=3)
    record = tmp_path / "game.json"
    code, out, err = play(capsys, monkeypatch, turns, *FAST, "--seed", "5", "--seat", "0", "--record", str(record))
    assert code == 0 and "your 3 decision(s)" in out
    assert (f"end of input: the game stops at turn {ref.position.turn} of round 1; {record} keeps it"
            in err), err
    code, out, err = play(capsys, monkeypatch, [*turns, "quit"], *FAST, "--seed", "5", "--seat", "0")
    assert code == 0 and "end of input" not in err


def test_the_tutors_play_out_policy_is_chosen_on_the_command_line(capsys, monkeypatch):
    code, out, _ = play(capsys, monkeypatch, ["hint all"], *FAST, "--seed", "2", "--playout-policy", "stalling")
    assert code == 0 and "stalling heuristic policy" in out
    s = TutorSession(agent="greedy", seed=2, time_budget=0.05, playout_policy="stalling")
    assert all(f"{m.move} " in out for m in s.advice().moves[:3])
    with pytest.raises(SystemExit) as exit_:  # one line naming the option and the choices
        play(capsys, monkeypatch, [], *FAST, "--playout-policy", "plainer")
    err = capsys.readouterr().err
    assert exit_.value.code == 2 and "--playout-policy" in err and "'plainer'" in err and "'stalling'" in err


def test_a_scripted_game_echoes_each_line_after_the_prompt_in_order_with_what_answers_it():
    """Piped to a file beside standard error (``2>&1``), with Python's default buffering (no
    PYTHONUNBUFFERED), standard output was block-buffered: every error and "Judging your turn" note came
    first and the boards and echoed turns after them all, so a transcript could not be followed. Each line
    read is printed after the prompt, and what answers it comes after it."""
    s = TutorSession(agent="greedy", seed=5, time_budget=0.05)
    turn = str(s.legal_turns()[0])
    card = next(str(c) for c in s.view().hand if f"+{c}/D" != turn)  # a card alone: refused, on standard error
    env = {k: v for k, v in os.environ.items() if k != "PYTHONUNBUFFERED"}
    done = subprocess.run([sys.executable, "-m", "lcanalysis", "play", *FAST, "--seed", "5"],
                          input=f"{turn}\n{card}\nzz\nquit\n", stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                          text=True, env=env, timeout=300, check=False)
    out = done.stdout
    assert done.returncode == 0, out
    steps = ["\nLC1;",  # the first board, which ends with its LC1 line
             f"\nyour turn> {turn}\n", "Judging your turn", "\nLC1;",  # the turn, its wait, the next board
             f"\nyour turn> {card}\n", f"error: move '{card}' is a card, not a turn",
             "\nyour turn> zz\n", "error: 'zz' is neither a turn nor a word of the game",
             "\nyour turn> quit\n", "your 1 decision(s): "]
    at = 0
    for step in steps:  # each where it belongs: after the one before it
        found = out.find(step, at)
        assert found >= 0, f"{step!r} not after position {at} of:\n{out}"
        at = found + len(step)
