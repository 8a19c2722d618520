import io
import json
import os
import subprocess
import sys

import pytest
from helpers import ends_pointing_to_help, hear_still_working, refusal_line

from lcanalysis.cli import main
from lcanalysis.game.notation import read_position


def run(capsys, *args):
    code = main(list(args))
    out = capsys.readouterr()
    return code, out.out, out.err


def test_deal_then_show_round_trips(capsys, tmp_path):
    code, out, _ = run(capsys, "deal", "--seed", "4", "--json")
    assert code == 0
    path = tmp_path / "p.json"
    path.write_text(out)
    code, text, _ = run(capsys, "show", str(path), "--string")
    assert code == 0 and read_position(text.strip()).to_json() == json.loads(out)
    code, drawing, _ = run(capsys, "show", text.strip())
    assert code == 0 and text.strip() in drawing


def test_show_reads_standard_input():
    one_line = read_position(open_example()).to_string()
    proc = subprocess.run([sys.executable, "-m", "lcanalysis", "show", "-", "--string"], input=one_line, check=False,
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0 and proc.stdout.strip() == one_line


def open_example():
    from lcanalysis.game.examples import example_text
    return example_text("endgame")


def test_a_position_file_cut_off_is_said_to_end_early_and_a_malformed_one_is_not(capsys, tmp_path):
    """Found by a review: a JSON position file cut short (a copy or download that lost its end) was
    refused as "invalid JSON: Unterminated string starting at: line 1 column 98 (char 97)", the
    parser's words; a game record cut short already said "the JSON ends early (a truncated file?)"."""
    whole = json.dumps(read_position("example:midround").to_json())
    cut, bad = tmp_path / "cut.json", tmp_path / "bad.json"
    cut.write_text(whole[:len(whole) // 2])
    bad.write_text(whole.replace(":", "=", 1))
    code, out, err = run(capsys, "show", str(cut))
    said = "lcanalysis show: error: argument position: invalid JSON: "
    assert code == 2 and out == "" and err.startswith(said + "the JSON ends early (a truncated file?): ")
    code, out, err = run(capsys, "show", str(bad))
    assert code == 2 and out == "" and err.startswith(said) and "ends early" not in err


@pytest.mark.parametrize("arg,message", [
    ('{"to_move": 0}', "needs 'hands' and 'deck'"),
    ("LC1;c5;h8;nr;m0;p0=R7;p1=?8;d=3", "hand of player 0 has 1 card; it must have 8"),
    ("nonexistent-file.json", "no such file: nonexistent-file.json"),
    ("example:nope", "no example"),
])
def test_show_reports_bad_positions_with_non_zero_status(capsys, arg, message):
    code, _out, err = run(capsys, "show", arg)
    assert code == 2 and message in err and "Traceback" not in err


def test_bad_arguments_exit_non_zero(capsys):
    with pytest.raises(SystemExit) as exc:
        main(["deal", "--seed", "-3"])
    assert exc.value.code == 2


def test_the_tournament_and_bot_help_name_every_agent(capsys):
    """Found by a review: 'tournament --help' named three agents by example ("heuristic greedy
    search:time_ms=50"), not which there are; 'bot --help' and 'play --help' name them."""
    from lcanalysis.agents import AGENTS

    for command in (["tournament"], ["bot"]):
        with pytest.raises(SystemExit):
            main([*command, "--help"])
        text = " ".join(capsys.readouterr().out.split())
        listed = ", ".join(AGENTS[:-1]) + " (the strongest measured) or " + AGENTS[-1]
        assert listed in text, command


def test_the_tournament_takes_its_own_options_first(tmp_path, capsys):
    """``lcanalysis tournament --help`` and options before the agents reach the tournament's parser."""
    with pytest.raises(SystemExit) as exc:
        main(["tournament", "--help"])
    assert exc.value.code == 0 and "lcanalysis tournament" in capsys.readouterr().out
    out = tmp_path / "t.jsonl"
    code = main(["tournament", "--colors", "6", "--deals", "1", "--workers", "1", "--no-progress",
                 "--out", str(out), "greedy", "random"])
    header, *lines = [json.loads(line) for line in out.read_text().splitlines()]
    assert header["identity"]["rules"]["colors"] == 6  # the file names its tournament first
    assert code == 0 and len(lines) == 2  # one deal, both seatings
    assert all(row["colors"] == 6 for line in lines for row in line["rows"])


def test_the_advise_help_names_the_advisors_hand_over_to_the_endgame_search(capsys):
    from lcanalysis.advisor import ENDGAME_CARDS, FULL_POSITION_ENDGAME_CARDS

    with pytest.raises(SystemExit) as exc:
        main(["advise", "--help"])
    text = " ".join(capsys.readouterr().out.split())
    assert exc.value.code == 0 and f"10 s with {ENDGAME_CARDS} cards or fewer in the draw pile" in text
    # a full position hands over a card earlier (example:endgame, 5 cards, took 4.5 s where --time said 1 s)
    assert f"{FULL_POSITION_ENDGAME_CARDS} for a full position" in text
    assert text.count(f"{FULL_POSITION_ENDGAME_CARDS} for a full position") == 2  # --time and --max-nodes alike


def test_solve_help_names_every_leaf_it_accepts(capsys):
    """--leaf foo listed 'as-is', 'heuristic', 'evaluator', 'simple'; the help named only two."""
    from lcanalysis.search.common import LEAVES

    with pytest.raises(SystemExit):
        main(["solve", "--help"])
    text = " ".join(capsys.readouterr().out.split())
    assert all(name in text for name in LEAVES), sorted(LEAVES)


def test_solve_states_its_bounds_in_words(capsys):
    """The first line said "under {'max_stalls': 0}", a Python dict; it now says the bound as a
    reader does, and the HTML of the same answer says it alike."""
    from lcanalysis.analysis import bounds_in_words

    code, out, _ = run(capsys, "solve", "example:endgame", "--max-stalls", "0")
    first = out.splitlines()[0]
    assert code == 0 and first.endswith("(exact) under no more discard-pile draws"), first
    code, out, _ = run(capsys, "solve", "example:endgame", "--max-turns", "2", "--leaf", "as-is")
    assert "under 2 more turn(s) at most, then scored as it stands" in out.splitlines()[0]
    assert "{" not in out
    for leaf in ("heuristic", "simple"):  # an estimate that is no sample mean says so on every turn
        code, out, _ = run(capsys, "solve", "example:endgame", "--max-turns", "2", "--leaf", leaf)
        turns = [line for line in out.splitlines() if line.strip()[:1].isdigit()]
        assert code == 0 and turns and all(line.endswith("(heuristic leaf: no standard error)") for line in turns)
    assert bounds_in_words({"max_stalls": 2, "converged": False}) == (
        "at most 2 more discard-pile draw(s) each, not converged")
    assert bounds_in_words({"stalls": {"player 0": 1, "player 1": "unlimited"}}) == (
        "player 0: 1 more discard-pile draw(s) at most; player 1: discard-pile draws unlimited")


def test_solve_says_what_its_values_are_in_points_and_whose_score_less_whose(capsys):
    """Found by a review playing at a table: solve printed "-12.000" for each turn with no word of
    what the number is (advise's footer says it); it now says once: the final score difference of
    the round in points, the player to move's less the opponent's. Checked by hand: with one card
    left, a turn that draws it ends the round, so its value is the scores' difference after it."""
    from helpers import played_down

    for seed in (3, 4):
        pos = played_down(seed, 1, stall_rate=0.0)
        mover = pos.to_move
        code, out, _ = run(capsys, "solve", pos.to_string(), "--max-stalls", "0")
        assert code == 0
        said = [line.strip() for line in out.splitlines() if line.strip().startswith("value: ")]
        assert said == [f"value: the expected final score difference of this round, in points: player {mover} "
                        f"(to move) minus player {1 - mover}"], out
        values = {line.split()[1]: float(line.split()[2]) for line in out.splitlines() if line.strip()[:1].isdigit()}
        for move, value in values.items():
            after = pos.copy()
            after.push(move)
            assert after.is_over()
            assert value == after.score(mover) - after.score(1 - mover), (move, value)
    # with a horizon the value is the table's where play stops, not the round's end: one turn, as it stands
    pos = read_position("example:endgame")
    code, out, _ = run(capsys, "solve", "example:endgame", "--max-turns", "1", "--leaf", "as-is")
    said = [line.strip() for line in out.splitlines() if line.strip().startswith("value: ")]
    assert code == 0 and said == ["value: the expected score difference where play stops (the round's end, or the "
                                  "horizon, valued as the headline says), in points: player 0 (to move) minus "
                                  "player 1"], out
    values = {line.split()[1]: float(line.split()[2]) for line in out.splitlines() if line.strip()[:1].isdigit()}
    for move, value in values.items():
        after = pos.copy()
        after.push(move)
        assert value == after.score(0) - after.score(1), (move, value)
    code, out, _ = run(capsys, "solve", "example:endgame", "--max-stalls", "0", "--json")
    assert code == 0 and "value: " not in out  # the JSON's values are the spec's, said there


def test_solve_on_a_match_position_says_once_its_values_are_points_of_the_round(capsys):
    """With a match score on the position, solve gave points of the round without a word that the
    match was not weighed; it now says so once, in the words advise uses near the end of a round,
    in the text and in the JSON's notes. Without a match score it says nothing of the match."""
    from lcanalysis.match_equity import POINTS_ONLY

    pos = read_position("example:endgame")
    pos.match = {"round": 3, "totals": [0, 60]}
    code, out, _ = run(capsys, "solve", pos.to_string(), "--max-stalls", "0")
    assert code == 0 and out.count(POINTS_ONLY) == 1, out
    said = next(line.strip() for line in out.splitlines() if POINTS_ONLY in line)
    assert said == f"{POINTS_ONLY}: the values are points of this round, not chances to win the match; the points " \
                   "favourite may not be the best turn for the match"
    code, out, _ = run(capsys, "solve", pos.to_string(), "--max-stalls", "0", "--json")
    assert code == 0 and json.loads(out)["notes"].count(said) == 1 and out.count(POINTS_ONLY) == 1
    code, out, _ = run(capsys, "solve", "example:endgame", "--max-stalls", "0", "--json")
    assert code == 0 and "match" not in out


def test_solve_in_time_says_first_that_a_pinned_bracket_makes_the_value_exact_with_no_cap(capsys):
    """With --time the headline said "exact under at most 2 more discard-pile draw(s) each" even when
    the bracket W_me = W_opp pins the value of the unbounded game; it now says that first, the
    stronger statement, and the stall budget only for the turns listed."""
    from helpers import played_down

    from lcanalysis.search import bracket

    pos = played_down(1, 2, stall_rate=0.3)  # the bracket pins the value, not every turn (checked here)
    b = bracket(pos)
    assert b.pinned and any(lo != hi for lo, hi in b.by_move().values())
    code, out, _ = run(capsys, "solve", pos.to_string(), "--time", "600", "--max-stalls", "2")
    first = out.splitlines()[0]
    assert code == 0 and first == (
        f"perfect-information value: {b.low.value:+.3f} (exact, with no cap on discard-pile draws: the bracket "
        "W_me = W_opp pins it); the turns below are exact under at most 2 more discard-pile draw(s) each"), first
    pos = played_down(1, 1)  # one card left: the bracket pins every turn, and the deepening stops there
    b = bracket(pos)
    assert all(lo == hi for lo, hi in b.by_move().values())
    code, out, _ = run(capsys, "solve", pos.to_string(), "--time", "600")
    assert code == 0 and out.splitlines()[0] == (
        f"perfect-information value: {b.low.value:+.3f} (exact, with no cap on discard-pile draws: the bracket "
        "W_me = W_opp pins every turn)")
    pos = played_down(2, 2, stall_rate=0.3)  # a bracket that is not pinned: the budget bounds the value
    b = bracket(pos)
    assert not b.pinned
    code, out, _ = run(capsys, "solve", pos.to_string(), "--time", "600", "--max-stalls", "1")
    first = out.splitlines()[0]
    assert code == 0 and first.endswith(
        f"(exact) under at most 1 more discard-pile draw(s) each, unbounded value between {b.low.value:+.3f} and "
        f"{b.high.value:+.3f}"), first


@pytest.mark.parametrize(("extra", "words"), [
    (["--workers", "2"], "--workers applies to a view only"),
    (["--samples", "5", "--workers", "1"], "--workers and --samples apply to a view only"),
])
def test_solve_refuses_view_options_for_a_full_position_instead_of_ignoring_them(capsys, extra, words):
    code, out, err = run(capsys, "solve", "example:endgame", "--max-stalls", "0", *extra)
    assert code == 2 and out == "" and words in err and "full position" in err


@pytest.mark.parametrize(("extra", "words"), [
    (["--max-stalls", "32"], "--max-stalls must be at most 31, got 32"),
    (["--max-stalls", "1000", "--time", "1"], "--max-stalls must be at most 31, got 1000"),
    (["--max-stalls", str(2**64), "--time", "1"], f"--max-stalls must be at most 31, got {2**64}"),
    (["--max-turns", "0", "--max-stalls", "0"], "--max-turns must be >= 1, got 0"),
    (["--max-turns", "0", "--time", "1"], "--max-turns must be >= 1, got 0"),
    (["--max-turns", "1001", "--time", "1"], "--max-turns must be at most 1000, got 1001"),
])
def test_solve_refuses_bounds_beyond_the_search_at_once_naming_the_option(capsys, extra, words):
    """Found by fuzzing the options: '--max-stalls 1000 --time 1' ran (the limit is 31), with 2**64
    it said 'max_level must be at most 1000', an option nobody gave, and '--max-turns 0 --time 1'
    started the search before 'max_turns must be at least 1'. Now the parser refuses them, naming
    the option, before the position is read."""
    with pytest.raises(SystemExit) as exc:
        main(["solve", "example:endgame", *extra])
    out = capsys.readouterr()
    assert exc.value.code == 2 and out.out == "" and words in out.err and "solving" not in out.err


@pytest.mark.parametrize(("extra", "words"), [
    (["--samples", "1"], "--samples must be >= 2, got 1"),
    (["--samples", "100001"], "--samples must be at most 100000, got 100001"),
    (["--samples", "5", "--seed", str(2**63)], f"--seed must be at most {2**63 - 1}, got {2**63}"),
    (["--workers", "1025"], "--workers must be at most 1024, got 1025"),
])
def test_solve_refuses_view_options_out_of_range_naming_the_option(capsys, extra, words):
    """Found by fuzzing the options: these were refused only by the search, after the view was
    read, as 'samples must be a whole number 2..100,000', 'seed must be at most 2**63 - 1',
    'workers must be ...': the library's names, not the options typed."""
    view = "LC1;c5;h8;nr;m0;v0;p0=B10.W2.W3.W6.G9.G10.Rw.R5;p1=?8;d=5"
    with pytest.raises(SystemExit) as exc:
        main(["solve", view, "--max-stalls", "0", *extra])
    out = capsys.readouterr()
    assert exc.value.code == 2 and out.out == "" and words in out.err


def test_solve_refuses_a_seed_without_samples_instead_of_ignoring_it(capsys):
    """Found by a review: 'solve example:endgame --seed 3' ran and ignored the seed, while
    --samples and --workers are refused there; --seed only seeds --samples."""
    code, out, err = run(capsys, "solve", "example:endgame", "--max-stalls", "0", "--seed", "3")
    assert code == 2 and out == "" and "--seed is the seed of --samples" in err


def test_solve_without_samples_samples_a_view_of_too_many_splits_as_its_help_and_seed_refusal_say(capsys):
    """Found by a review: '--samples' said "default: every split, exact" and '--seed' without it was
    refused as "without --samples nothing is sampled", yet a view of more than 20,000 distinct splits
    is sampled without --samples (its answer: "400 splits sampled uniformly (seed 0)"), and the
    refusal hid how to give those samples another seed."""
    from lcanalysis.search.view_value import DEFAULT_MAX_SPLITS, DEFAULT_SAMPLES

    code, out, err = run(capsys, "solve", "example:midround", "--max-turns", "1", "--json")
    answer = json.loads(out)
    assert code == 0 and not answer["exact"] and answer["splits"] == DEFAULT_SAMPLES
    assert f"{DEFAULT_SAMPLES} splits sampled uniformly (seed 0)" in answer["method"]
    code, out, err = run(capsys, "solve", "example:midround", "--max-turns", "1", "--seed", "5")
    assert code == 2 and out == "" and "nothing is sampled" not in err
    assert f"--samples {DEFAULT_SAMPLES} --seed N" in err and f"more than {DEFAULT_MAX_SPLITS:,} distinct splits" in err
    with pytest.raises(SystemExit):
        main(["solve", "--help"])
    text = " ".join(capsys.readouterr().out.split())  # the numbers of the search itself
    assert f"at most {DEFAULT_MAX_SPLITS:,} distinct ones, else {DEFAULT_SAMPLES} sampled with seed 0" in text


def test_a_one_line_string_cut_at_its_first_semicolon_by_the_shell_is_refused_asking_for_quotes(capsys):
    """Found by a review: 'lcanalysis advise LC1;c5;h8;...' typed without quotes runs 'lcanalysis advise LC1'
    (the shell ends the command at ';'), which was told "both hands p0= and p1= are needed": the
    player had typed both."""
    for command in (["show", "LC1"], ["advise", "lc1;"], ["solve", " LC1 ", "--max-stalls", "0"]):
        code, out, err = run(capsys, *command)
        assert code == 2 and out == "" and "p0=" not in err
        assert "alone, with no fields after it" in err and "in quotes" in err and "first ';'" in err
    code, out, err = run(capsys, "show", "LC1;c5")  # fields, but not a position: the fields' own error
    assert code == 2 and "both hands p0= and p1= are needed" in err


def test_wager_of_a_full_position_says_it_is_seen_from_the_movers_view(capsys):
    """Found by a review: 'wager' of a dealt full position counted the opponent's hand, which the
    position shows, among the unseen cards ("unseen purple numbers: 2 3 4 5 6 7 8 9 10 (of 64 unseen
    cards)" with P6 in player 1's hand) without a word; 'advise' says how it uses a full position."""
    import lcanalysis as lc

    deal = lc.Position.deal(seed=2, rules=lc.Rules(colors=6))
    assert "P6" in [str(c) for c in deal.hand(1)]
    code, out, _ = run(capsys, "wager", deal.to_string(), "--color", "P")
    assert code == 0 and "2 3 4 5 6 7 8 9 10 (of 64 unseen cards)" in out  # 72 cards less player 0's 8
    assert ("a full position, seen as the model asks from the view of the player to move (player 0): the "
            "opponent's hand counts among the unseen cards") in " ".join(out.split())
    code, out, _ = run(capsys, "wager", deal.view(0).to_string(), "--color", "P")
    assert code == 0 and "full position" not in out and "(of 64 unseen cards)" in out


GREEN = "unknown colour 'green': this game has Y B W G R; a colour is written as its letter"
PURPLE = "unknown colour 'P': this game has Y B W G R; P (purple) is a colour of the 6-colour game"


@pytest.mark.parametrize("given, option, says", [
    (["--color", "green"], "--color", GREEN),
    (["--color", "green", "--models", "turns"], "--color", GREEN),
    (["--color", "P"], "--color", PURPLE),
    (["--color", "P", "--models"], "--color", PURPLE),
    (["--color", "G", "--draws", "23"], "--draws",
     "draws=23 is out of range: the draw pile holds 22 card(s), so draws must be 0..22")])
def test_a_colour_or_draws_the_position_has_not_is_refused_naming_the_option_and_the_command(
        capsys, given, option, says):
    """Found at a table: 'wager example:midround --color green' (and --draws 23 with 22 cards left)
    said only 'error: unknown colour ...', where the spec has an argument the command cannot take (a
    value out of its range) named with the command and where its options are listed, as --draws -1 is."""
    code, out, err = run(capsys, "wager", "example:midround", *given)
    assert (code, out) == (2, "")
    assert err.startswith(f"lcanalysis wager: error: argument {option}: {says}")
    assert err.endswith(" (see lcanalysis wager --help)\n") and err.count("\n") == 1


@pytest.mark.parametrize("extra", [[], ["--json"], ["--models", "canonical,decline_at_end"],
                                   ["--models", "turns", "--samples", "50", "--json"]])
def test_a_colour_with_spaces_around_it_or_in_lower_case_is_read_as_a_card_is(capsys, extra):
    """Found at a table: '--color " g "' was refused, while " b10 " in a JSON hand is read (the spec's
    readers take a card with spaces around it, in either case): a colour is now read the same way, and the
    answer is the one for G."""
    code, want, err = run(capsys, "wager", "example:midround", "--color", "G", *extra)
    assert code == 0, err
    for given in (" g ", "g", "G ", "\tg"):
        code, out, err = run(capsys, "wager", "example:midround", "--color", given, *extra)
        assert (code, out) == (0, want), err
    if not extra:
        assert want.startswith("green expedition")
    # a colour the game has not is still refused naming --color, quoted as typed
    code, out, err = run(capsys, "wager", "example:midround", "--color", " x ", *extra)
    assert (code, out) == (2, "") and err.startswith("lcanalysis wager: error: argument --color: unknown colour ' x '")


def test_an_opponent_count_that_leaves_out_the_known_cards_is_refused_saying_the_count_is_the_whole_hand(capsys):
    """Found by a review: 'p1=?7.Yw' (7 unknown cards and the Yw they took) was refused as "hand of
    player 1 has 7 cards; it must have 8", which does not say that the count includes the Yw."""
    view = "LC1;c5;h8;nr;m0;v0;p0=Y3.Y5.Bw.B4.W8.G10.R7.R9;p1=?7.Yw;e0=Rw.R3.R5;e1=B2;x=W4.W6.G6;d=37"
    code, out, err = run(capsys, "show", view)
    assert code == 2 and out == "" and "hand of player 1 has 7 cards; it must have 8" in err
    assert "the count is the whole hand, its 1 known card(s) included, like p1=?8.Yw" in err
    code, out, _ = run(capsys, "show", view.replace("?7.Yw", "?8.Yw"), "--string")  # so written, it reads
    assert code == 0 and "p1=?8.Yw" in out
    code, out, err = run(capsys, "show", view.replace("?7.Yw", "?6.Yw"))  # no hint where it would not help
    assert code == 2 and "has 6 cards; it must have 8 (see lcanalysis show --help)\n" in err


def test_deal_takes_the_seeds_play_takes_so_that_every_deal_shown_can_be_played(capsys):
    """Found by a review: 'deal --seed 99999999999999999999999' dealt, and 'play --seed' with it was
    refused ("--seed must be at most 9223372036854775807"): a deal looked at could not be played.
    deal's --seed now has the range of every other --seed (options.MAX_SEED), named as the option."""
    from lcanalysis.options import MAX_SEED

    for seed, words in ((MAX_SEED + 1, f"--seed must be at most {MAX_SEED}, got {MAX_SEED + 1}"),
                        (-1, "argument --seed: --seed must be >= 0, got -1")):
        with pytest.raises(SystemExit) as exc:
            main(["deal", "--seed", str(seed)])
        out = capsys.readouterr()
        assert exc.value.code == 2 and out.out == "" and words in out.err
    code, out, _ = run(capsys, "deal", "--seed", str(MAX_SEED), "--string")
    assert code == 0 and out.startswith("LC1;")


def test_solve_refuses_view_options_with_time_which_would_ignore_them(capsys, tmp_path):
    view = tmp_path / "v.json"
    view.write_text(json.dumps(read_position("example:endgame").view(0).to_json()))
    code, out, err = run(capsys, "solve", str(view), "--time", "1", "--workers", "2")
    assert code == 2 and out == "" and "--workers applies without --time only" in err


def test_solve_warns_before_an_exact_search_that_will_likely_run_to_its_node_budget(capsys):
    """A newcomer who asks `solve` for a mid-round position waited in silence for minutes; now
    the first line says how far the exact search reaches and what answers quickly instead."""
    from helpers import played_down

    from lcanalysis.cli.solve import reach_note

    code, out, err = run(capsys, "solve", "example:midround", "--max-stalls", "0", "--max-nodes", "2000")
    assert code == 2 and out == ""  # the small node budget runs out: it did try
    first = err.splitlines()[0]
    deck = read_position("example:midround").deck_count
    # a view of more than 20,000 distinct splits: sampled without --samples, and the note says so
    assert first.startswith("note: a view of more than 20,000 distinct splits is solved in 400 sampled worlds "
                            "without --samples") and f"at {deck} cards left" in first
    assert "'lcanalysis advise POSITION'" in first and "2,000 nodes" in first
    # a view of fewer splits is solved over every one, and the note gives the benchmarks' reach
    note = reach_note(played_down(1, 10).view(), 0, None, 2000)  # 15,444 distinct splits
    assert note is not None and "the exact value of a view (every split of the unseen cards)" in note
    assert "up to 8 cards" in note  # docs/endgame.md: a view at stall budget 0, every split, within 10 s
    assert "--time S" in note and "2,000 nodes" in note
    code, out, err = run(capsys, "solve", "example:endgame", "--max-stalls", "0")
    assert code == 0 and "note:" not in err  # few cards left: no warning
    code, out, err = run(capsys, "solve", "example:midround", "--max-turns", "1", "--leaf", "as-is")
    assert code == 0 and "note:" not in err  # a horizon bounds the depth


def test_the_solve_warning_quotes_the_benchmark_table_of_the_endgame_page():
    """`solve`'s reach (``REACH_10_S``) is the "within 10 s" column of docs/endgame.md."""
    import re
    from pathlib import Path

    from lcanalysis.cli.solve import REACH_10_S

    page = (Path(__file__).resolve().parent.parent / "docs" / "endgame.md").read_text()

    def within_10_s(row: str) -> int:
        match = re.search(r"^\| " + re.escape(row) + r" \| (\d+) \| (\d+) \|$", page, re.M)
        assert match, row
        return int(match.group(2))

    def within_nodes(row: str) -> int:
        match = re.search(r"^\| " + re.escape(row) + r" \| (\d+) \|$", page, re.M)
        assert match, row
        return int(match.group(1))

    assert {
        ("position", 0): within_10_s("perfect-information value, stall budget 0 (every turn)"),
        ("view", 0): within_10_s("view value, stall budget 0, every split enumerated"),
        ("position", 1): within_10_s("perfect-information value, stall budget 1 each"),
        ("view", 1): within_nodes("view value, stall budget 1 each, every split enumerated"),
        ("position", 2): within_nodes("perfect-information value, stall budget 2 each"),
        ("view", 2): within_nodes("view value, stall budget 2 each, every split enumerated"),
    } == REACH_10_S
    spec_path = Path(__file__).resolve().parent.parent / "docs" / "spec" / "interchange.md"
    spec = re.sub(r"\s+", " ", spec_path.read_text())
    r = REACH_10_S
    assert (f"({r['position', 0]} for a full position and {r['view', 0]} for a view at `--max-stalls 0`, "
            f"{r['position', 1]} and {r['view', 1]} at one stall each, {r['position', 2]} and {r['view', 2]} at two "
            "or more;") in spec  # the spec said 4 with stalls


def test_solve_warns_before_a_view_with_stalls_it_will_not_finish_quickly(capsys):
    """The warning took a full position's reach at one stall each (5 cards) for every question with
    stalls: a view at one stall each with 4 cards left, or a full position at two with 4, ran without
    a word (over 14 M nodes in three of five benchmark views). Measured: docs/endgame.md."""
    from helpers import played_down

    from lcanalysis.cli.solve import reach_note

    pos = played_down(1, 4)
    assert reach_note(pos.view(), 1, None, 1000) is not None
    assert reach_note(pos, 2, None, 1000) is not None and reach_note(pos, 1, None, 1000) is None
    assert "only up to 3 cards" in str(reach_note(pos.view(), 1, None, 1000))
    assert reach_note(played_down(1, 3).view(), 1, None, 1000) is None
    assert "only up to 2 cards" in str(reach_note(played_down(1, 3).view(), 5, None, 1000))


def test_an_output_file_is_never_the_file_the_command_reads_or_keeps(tmp_path, capsys):
    """'--csv' naming the results file replaced a whole tournament's results with a table, and
    '--html'/'--svg' naming the input replaced the record or the position; each is now refused
    before any work, whatever the path's spelling, and the file is left as it was."""
    from lcanalysis.game.position import Position

    pos = tmp_path / "p.txt"
    pos.write_text(Position.deal(seed=1).to_string() + "\n")
    rec = tmp_path / "r.txt"
    rec.write_text(f"LCR1\nstart {Position.deal(seed=3).to_string()}\n-Yw/D -B10/Y\n")
    results = tmp_path / "t.jsonl"
    assert main(["tournament", "random", "greedy", "--deals", "1", "--workers", "1", "--out", str(results),
                 "--no-progress"]) == 0
    kept = {p: p.read_bytes() for p in (pos, rec, results)}
    capsys.readouterr()
    for argv, what in [(["show", str(pos), "--svg", str(tmp_path / "." / "p.txt")], "the position shown"),
                       (["review", str(rec), "--html", str(rec)], "the record"),
                       (["tournament", "random", "greedy", "--deals", "1", "--workers", "1", "--out", str(results),
                         "--csv", str(tmp_path / ".." / tmp_path.name / "t.jsonl"), "--no-progress"],
                        "the results file (--out)")]:
        assert main(argv) == 2
        assert f"is {what}: writing there would destroy it" in capsys.readouterr().err
    assert {p: p.read_bytes() for p in kept} == kept


def test_tournament_csv_never_writes_over_a_file_that_is_not_its_table_nor_records_into_its_results_file(tmp_path,
                                                                                                        capsys):
    """Found by a reliability pass: 'tournament --csv FILE' wrote its table over any file there (a
    rollout's kept trials, say: lost), and '--records' naming the results file (--out) made a folder
    of that name, then said "t.jsonl is a directory". --csv now writes over its own table only, and
    the two are refused as the same path, before any round is played; nothing is made."""
    other = tmp_path / "trials.csv"
    other.write_text("# lcanalysis rollout: {}\ntrial,turn,result,luck,turns_played\n0,+B6/D,14,6.7,29\n")
    kept = other.read_text()
    table = tmp_path / "table.csv"
    base = ["tournament", "random", "greedy", "--deals", "1", "--workers", "1", "--no-progress"]
    code, _, err = run(capsys, *base, "--out", "none", "--csv", str(other))
    tour = "lcanalysis tournament"  # refused as a bad argument is: one line naming the command and the option
    assert code == 2 and err == (f"{tour}: error: argument --csv: {other} exists and is not a tournament's table "
                                 "(CSV): writing there would destroy it; give another file name (or remove that "
                                 f"file first); see {tour} --help\n"), err
    assert other.read_text() == kept
    assert run(capsys, *base, "--out", "none", "--csv", str(table))[0] == 0  # its own table: written again
    assert run(capsys, *base, "--out", "none", "--csv", str(table))[0] == 0
    results = tmp_path / "t.jsonl"
    code, _, err = run(capsys, *base, "--out", str(results), "--records", str(tmp_path / "." / "t.jsonl"))
    assert code == 2 and err == (f"{tour}: error: argument --records: {tmp_path / '.' / 't.jsonl'} is the results "
                                 f"file (--out): give the records another folder (see {tour} --help)\n"), err
    assert sorted(p.name for p in tmp_path.iterdir()) == ["table.csv", "trials.csv"]


@pytest.mark.parametrize("argv, option, kind", [
    (["show", "example:endgame", "--svg", "OUT"], "--svg", "an SVG picture"),
    (["studies", "match-table", "--deals", "2", "--matches", "0", "--bootstrap", "2", "--out", "OUT"], "--out",
     "a match equity table"),
])
def test_an_output_option_writes_over_its_own_kind_of_file_only(tmp_path, capsys, argv, option, kind):
    """Found by a reliability pass: 'show --svg FILE' and 'studies match-table --out FILE' wrote over any
    file there (a tournament's table, a game record: lost), where 'review --html' refuses one that is
    not an HTML report. Each now refuses a file that is not its own kind before any work, and writes
    over its own (the same command again)."""
    other = tmp_path / "kept.txt"
    other.write_text("pairing,deal,swap\n0,0,0\n")
    code, _, err = run(capsys, *[str(other) if w == "OUT" else w for w in argv])
    prog = f"lcanalysis {' '.join(argv[:2] if argv[0] == 'studies' else argv[:1])}"  # (a study names its own)
    assert code == 2 and err == (f"{prog}: error: argument {option}: {other} exists and is not {kind}: writing there "
                                 f"would destroy it; give another file name (or remove that file first); see {prog} "
                                 "--help\n"), err
    assert other.read_text() == "pairing,deal,swap\n0,0,0\n"
    mine = tmp_path / "mine.out"
    for _ in range(2):  # made, then made again over itself
        assert run(capsys, *[str(mine) if w == "OUT" else w for w in argv])[0] == 0


def test_solve_checks_the_question_before_saying_anything_about_it(capsys):
    """`solve` on the view of the player not to move printed its long "this may run about 12 minutes"
    warning before refusing, and `--leaf bogus --time 1` printed "stalls=0: solving" before its
    error; every check of the question now comes first (the search's own checks, called earlier),
    so the error is all that is said."""
    from helpers import played_down

    from lcanalysis.search import SearchError, solve_deepening

    pos = played_down(1, 20)  # more cards left than the warning's reach for a view
    other = pos.view(1 - pos.to_move)
    for extra in (["--max-stalls", "0"], ["--time", "1"]):
        code, out, err = run(capsys, "solve", other.to_string(), *extra)
        assert code == 2 and out == "" and err.splitlines() == [
            f"error: the view is player {1 - pos.to_move}'s but player {pos.to_move} is to move: the values of the "
            "mover's turns need the mover's view"], err
    for extra in (["--time", "1"], []):
        code, out, err = run(capsys, "solve", "example:endgame", "--leaf", "bogus", "--max-turns", "2", *extra)
        assert code == 2 and out == "" and err.splitlines() == [
            "error: leaf must be one of 'as-is', 'heuristic', 'evaluator', 'simple', got 'bogus'"], err
    said: list[str] = []  # the library's deepening alike: no progress line before the refusal
    with pytest.raises(SearchError, match="the mover's view"):
        solve_deepening(other, nodes=1000, progress=said.append)
    with pytest.raises(SearchError, match="leaf must be one of"):
        solve_deepening(played_down(1, 2), nodes=1000, max_turns=2, leaf="bogus", progress=said.append)
    assert said == []


def test_solve_refuses_a_leaf_without_a_horizon_instead_of_ignoring_it(capsys):
    code, out, err = run(capsys, "solve", "example:endgame", "--max-stalls", "0", "--leaf", "heuristic")
    assert code == 2 and out == "" and "--leaf is the value at the horizon of --max-turns" in err


def test_solve_says_how_a_view_was_sampled_and_when_every_split_would_take_fewer_solves(capsys, tmp_path):
    from math import comb

    view = read_position("example:endgame").view(0)
    path = tmp_path / "v.json"
    path.write_text(json.dumps(view.to_json()))
    # by hand: the unseen cards are 12 distinct cards (no two wagers of a colour unseen), so the
    # opponent's 7 unknown cards are one of C(12, 7) = 792 distinct splits
    counts = view.unseen_counts()
    assert counts.sum() == 12 and counts.max() == 1 and view.opponent_unknown == 7 and comb(12, 7) == 792
    code, out, _ = run(capsys, "solve", str(path), "--max-stalls", "0", "--samples", "1000")
    assert code == 0 and "method: 1000 splits sampled uniformly (seed 0); ± is the standard error" in out
    assert "there are only 792 distinct splits: without samples every one is solved, exactly" in out
    code, out, _ = run(capsys, "solve", str(path), "--max-stalls", "0", "--samples", "500")
    assert code == 0 and "method: 500 splits sampled" in out and "distinct splits" not in out  # sampling pays
    code, out, _ = run(capsys, "solve", str(path), "--max-stalls", "0")
    assert code == 0 and "method: every split enumerated (792 distinct splits" in out


def test_solve_out_of_nodes_asks_for_less_only_of_what_can_be_given(capsys, tmp_path):
    """A spent node budget asks for less, naming --time only where it can be given: with --samples (or
    --workers) --time is refused, so its advice would send the user to a second error."""
    view = read_position("example:endgame").view(0)
    path = tmp_path / "v.json"
    path.write_text(json.dumps(view.to_json()))
    code, out, err = run(capsys, "solve", str(path), "--max-stalls", "1", "--samples", "20", "--max-nodes", "100")
    assert code == 2 and out == "" and "ask for less: a smaller --max-stalls, --max-turns or --samples" in err
    assert "--time" not in err
    code, _, err2 = run(capsys, "solve", str(path), "--max-stalls", "1", "--time", "2", "--samples", "20")
    assert code == 2 and "without --time only" in err2  # (why: the two are refused together)
    code, out, err = run(capsys, "solve", "example:endgame", "--max-stalls", "1", "--max-nodes", "100")
    assert code == 2 and "ask for less: a smaller --max-stalls, --max-turns or --samples, or --time S" in err


#: a view at 2 cards left typed from memory, twelve pile cards forgotten: more than 20,000 fills
FORGOTTEN_PILES = ("LC1;c5;m1;v1;p0=?8;p1=W2.W10.Gw.G3.G6.G10.R6.R7;e0=Yw.Y7.Y8.Y9.Rw.R2.R5.R8.R9;"
                   "e1=Y3.Y4.Y6.Y10.B3.B7.B9.B10.Ww.W3.W4.W5.G4.G8.G9;"
                   "x=Y?.Y?.Yw.B?.B?.B?.B?.B?.B?.B?.B8.Ww.Ww.G?.G?.Gw.R?.R4;d=2")


@pytest.mark.parametrize("extra", [["--max-stalls", "1"], ["--time", "1"]])
def test_solve_of_too_many_buried_fills_names_the_options_of_the_command(capsys, extra):
    """The refusal named the library's parameter ('give samples'), and with --time it pointed to
    --samples, which --time refuses: it names --samples N (without --time) and advise."""
    code, out, err = run(capsys, "solve", FORGOTTEN_PILES, *extra)
    assert code == 2 and out == "" and "12 buried pile card(s)" in err
    assert "--samples N" in err and "without --time" in err and "lcanalysis advise" in err
    assert "give samples" not in err and "max_splits" not in err


def test_a_refusal_that_ends_in_its_own_bracket_reads_as_one_sentence(capsys):
    """'lcanalysis advise "LC1;d27"' printed '... (did you mean d=27?) (see lcanalysis advise --help)': two
    brackets in a row. The pointer to the options is a clause after a bracket, and a bracket otherwise."""
    assert main(["advise", "LC1;d27"]) == 2
    assert capsys.readouterr().err == ("lcanalysis advise: error: argument position: position string: unknown field "
                                       "'d27' (did you mean d=27?); see lcanalysis advise --help\n")
    with pytest.raises(SystemExit) as exc:  # (argparse's own refusal)
        main(["solve", "example:endgame", "--time", "x"])
    err = capsys.readouterr().err
    assert exc.value.code == 2
    assert err.startswith("lcanalysis solve: error: argument --time: ") and err.endswith(
        "got 'x' (see lcanalysis solve --help)\n"), err


@pytest.mark.parametrize(("argv", "prog", "hint"), [
    (["solve", "example:endgame", "--maxstalls", "0"], "lcanalysis solve", "; did you mean --max-stalls?"),
    (["deal", "--seed", "1", "--colours", "6"], "lcanalysis deal", "; did you mean --colors?"),
    (["studies", "wager-sim", "--snapturn", "3"], "lcanalysis studies wager-sim", "; did you mean --snap-turn?"),
    (["show", "example:endgame", "extra"], "lcanalysis show", ""),
])
def test_an_unknown_option_is_refused_by_its_command_naming_the_closest_option(capsys, argv, prog, hint):
    """'solve ... --maxstalls 0' was refused with the usage of 'lcanalysis' itself, which names no
    option of solve, and no hint of the option meant; it is one line naming the command, the hint a
    clause of its sentence (it was a bracket before the line's own "(see ... --help)")."""
    with pytest.raises(SystemExit) as exc:
        main(argv)
    err = capsys.readouterr().err
    extras = " ".join(argv[-2:] if argv[-1].isdigit() else argv[-1:])
    assert exc.value.code == 2
    assert err == f"{prog}: error: unrecognized arguments: {extras}{hint} (see {prog} --help)\n"


def _command_paths():
    """Every command and subcommand of 'lcanalysis', as the words that name it."""
    import argparse

    from lcanalysis.cli.main import build_parser

    def walk(parser, words):
        subs = [a for a in parser._actions if isinstance(a, argparse._SubParsersAction)]
        if not subs:
            return [words]
        return [path for name, sub in subs[0].choices.items() for path in walk(sub, [*words, name])]

    return walk(build_parser(), [])


def test_every_commands_bad_argument_is_one_line_naming_the_command(capsys):
    """argparse answered a bad argument with the command's usage (up to six lines) and then the
    error; every command, the subcommands of 'studies', the tournament's own parser and the bot's
    included, now answers with one line naming itself and where its options are listed."""
    paths = _command_paths()
    assert ["solve"] in paths and ["studies", "match-table"] in paths and ["tournament"] in paths
    for words in paths:
        prog = " ".join(["lcanalysis", *words])
        for bad in (["--no-such-option", "1"], ["--seed", "x"]):  # (every command takes a position or a file first)
            try:
                code = main([*words, "example:endgame", *bad])
            except SystemExit as exc:
                code = exc.code
            err = capsys.readouterr().err
            assert code == 2, (words, bad, err)
            assert err.startswith(f"{prog}: error: ") and ends_pointing_to_help(err, prog), (words, bad, err)
            assert err.count("\n") == 1, (words, bad, err)


def _options_without_a_default(parser, name):
    import argparse

    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for command, sub in action.choices.items():
                yield from _options_without_a_default(sub, f"{name} {command}")
        elif (action.option_strings and action.nargs != 0 and not action.required
              and action.help not in (None, argparse.SUPPRESS)
              and "default" not in action.help.lower() and "FILE" not in action.help
              and not action.help.startswith("also")):
            yield f"{name} {action.option_strings[-1]}"


def test_every_option_that_takes_a_value_says_its_default_in_the_help():
    """'solve --help' did not say what --max-stalls, --max-turns, --time, --samples or --workers are
    when not given, nor 'deal --help' --colors and --starter, nor advise, review and bot their --seed.
    An option that only writes a file (FILE, 'also write ...') is off unless given."""
    from lcanalysis.cli.main import build_parser
    from lcanalysis.tournaments.command import build_parser as tournament_parser

    missing = [*_options_without_a_default(build_parser(), "lcanalysis"),
               *_options_without_a_default(tournament_parser(), "lcanalysis tournament")]
    assert not missing, missing


def _commands_without_a_description(parser, name):
    import argparse

    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for command, sub in action.choices.items():
                if command == "tournament" and not sub.add_help:
                    continue  # a placeholder: main() hands 'tournament ...' to its own parser, checked below
                if not sub.description:
                    yield f"{name} {command}"
                yield from _commands_without_a_description(sub, f"{name} {command}")


def test_every_command_s_help_says_what_it_does():
    """Found by a newcomer's first hour: 'show --help', 'deal --help' and the five 'studies ... --help'
    printed the usage line and the options, not what the command does."""
    from lcanalysis.cli.main import build_parser
    from lcanalysis.tournaments.command import build_parser as tournament_parser

    assert not list(_commands_without_a_description(build_parser(), "lcanalysis"))
    assert tournament_parser().description


@pytest.mark.parametrize(("arg", "meant"), [("midround", "example:midround"), ("examples:endgame", "example:endgame"),
                                            ("Opening", "example:opening")])
def test_an_example_named_without_its_prefix_is_refused_naming_the_form_meant(capsys, arg, meant):
    """'lcanalysis show midround' said only that it is neither a position, a string, 'example:NAME' nor a file."""
    code, _out, err = run(capsys, "show", arg)
    assert code == 2 and err.endswith(f"nor a file (did you mean '{meant}'?); see lcanalysis show --help\n"), err
    code, _out, err = run(capsys, "show", "nope")
    assert code == 2 and "did you mean" not in err


@pytest.mark.parametrize(("arg", "hint"), [
    ("c5;h8;nr;m0;v0;p0=Y3.Y5.Bw.B4.W8.G10.R7.R9;p1=?8;e0=Rw.R3.R5;e1=B2;x=W4.W6.G6;d=37",
     "(a one-line string starts with 'LC1;': write 'LC1;' in front of it)"),
    ("LCI;c5;h8;nr;m0;v0;p0=Y3.Y5.Bw.B4.W8.G10.R7.R9;p1=?8;d=44", "(a one-line string starts with 'LC1;', not 'LCI;')"),
    # with a history its turns hold '/', which read as a path: "no such file: c5;h8;..."
    ("c5;h8;nr;m1;v1;p0=?8;p1=Y3.Y5.Bw.B4.W8.G10.R7.R9;x=Y2;d=43;hist=-Y2/D",
     "(a one-line string starts with 'LC1;': write 'LC1;' in front of it)"),
])
def test_a_one_line_string_without_its_tag_is_refused_naming_the_tag(capsys, arg, hint):
    """A player who typed the fields of a view without 'LC1;' in front was told only that it is neither a
    JSON position, a string, an example nor a file; the same text with the tag reads."""
    code, _out, err = run(capsys, "show", arg)
    assert code == 2 and err.rstrip().endswith(f"{hint}; see lcanalysis show --help"), err
    fixed = "LC1;" + arg.split(";", 1)[1] if arg.startswith("LCI") else "LC1;" + arg
    code, out, _err = run(capsys, "show", fixed, "--string")
    assert code == 0 and out.strip() == fixed


@pytest.mark.parametrize(("argv", "words"), [
    (["show", "example:endgame", "--svg", ""], "--svg needs a file name, got ''"),
    (["play", "--seed", "1", "--agent", "random", "--record", " "], "--record needs a file name, got ' '"),
    (["review", "LCR1", "--html", ""], "--html needs a file name, got ''"),
    (["tournament", "random", "greedy", "--deals", "1", "--workers", "1", "--out", "none", "--no-progress",
      "--csv", ""], "--csv needs a file name, got ''"),
    (["tournament", "random", "greedy", "--out", ""], "--out needs a file name, 'auto' or 'none', got ''"),
    (["tournament", "random", "greedy", "--records", ""], "--records needs a folder name, got ''"),
    (["studies", "wager-tables", "--out", ""], "--out needs a folder name, got ''"),
])
def test_an_empty_output_file_name_is_refused_not_taken_for_no_file(capsys, monkeypatch, argv, words):
    """Found by fuzzing the options: 'play --record ""' played a whole game and recorded nothing,
    'show --svg ""' and 'tournament --csv ""' wrote nothing, all without a word (an empty name was
    taken for the option not given); the others were refused late, as 'out must be a file name,
    'auto' or None' or '[Errno 2] No such file or directory: '''."""

    monkeypatch.setattr(sys, "stdin", io.StringIO("quit\n"))
    try:
        code = main(argv)
    except SystemExit as exc:
        code = exc.code
    out = capsys.readouterr()
    assert code == 2 and words in out.err and out.out == ""


@pytest.mark.parametrize(("argv", "words"), [
    # a huge count was refused by the library after the record was read, as "top must be a whole number
    # from 1 to 100" (no option named) or "trials (--check) must be ..."
    (["rollout", "example:midround", "--top", "101"], "argument --top: --top must be at most 100, got 101"),
    (["rollout", "example:midround", "--trials", "99999999999999999999999"],
     "argument --trials: --trials must be at most 1000000, got 99999999999999999999999"),
    (["review", "LCR1", "--check", "1000001"], "argument --check: --check must be at most 1000000, got 1000001"),
    (["review", "LCR1", "--check", "2", "--check-top", "10001"],
     "argument --check-top: --check-top must be at most 10000, got 10001"),
    # an empty agent was taken for the default (best) and played
    (["rollout", "example:midround", "--agent", ""], "argument --agent: --agent needs an agent name, got ''"),
    (["review", "LCR1", "--check", "2", "--check-agent", " "],
     "argument --check-agent: --check-agent needs an agent name, got ' '"),
    # an unknown agent's message named the agent only
    (["rollout", "example:midround", "--agent", "nosuch"],
     "lcanalysis rollout: error: argument --agent: unknown agent 'nosuch'; choose one of"),
    (["play", "--seed", "1", "--agent", "nosuch"],
     "lcanalysis play: error: argument --agent: unknown agent 'nosuch'; choose one of"),
    (["play", "--seed", "1", "--agent", ""], "lcanalysis play: error: argument --agent: an agent name is empty"),
])
def test_the_newest_commands_refuse_a_bad_option_in_one_line_naming_it(capsys, monkeypatch, argv, words):
    """A hostile pass on review --check, rollout and play: each bad value is one line naming its option,
    exit code 2 as everywhere, before any work."""
    import lcanalysis.studies.rollout as rollout_study

    monkeypatch.setattr(sys, "stdin", io.StringIO("quit\n"))
    monkeypatch.setattr(rollout_study, "rollout", lambda *a, **k: pytest.fail("rolled out"))
    try:
        code = main(argv)
    except SystemExit as exc:
        code = exc.code
    out = capsys.readouterr()
    errors = [line for line in out.err.splitlines() if "error" in line]
    assert code == 2 and len(errors) == 1 and words in errors[0], out.err
    assert "Traceback" not in out.err


@pytest.mark.parametrize(("argv", "says"), [
    (["tournament", "random", "greedy", "--deals", "1", "--workers", "1", "--out", "TEXT"],
     "TEXT is not a tournament results file: its first line is not a JSON object"),
    (["tournament", "random", "greedy", "--deals", "1", "--workers", "1", "--out", "DIR"], "DIR is a directory"),
    (["tournament", "random", "greedy", "--deals", "1", "--workers", "1", "--out", os.devnull],
     f"{os.devnull} is not a regular file"),
    (["rollout", "example:midround", "--turn", "-W2/D", "--agent", "greedy", "--trials", "2", "--workers", "1",
      "--seed", "1", "--out", "KEPT"], "KEPT was made with other settings (seed: 0 there, 1 here)"),
])
def test_a_kept_results_file_an_option_names_is_refused_as_a_bad_argument(capsys, tmp_path, argv, says):
    """The files a command resumes (tournament --out, rollout --out; review --out: tests/test_review_keep.py)
    were refused as 'error: F is not a tournament results file ...', naming neither the command nor the
    option: one line naming both now, as every bad argument, exit status 2, and the file left as it was."""
    text = tmp_path / "notes.txt"
    text.write_text("mine\n")
    kept = tmp_path / "kept.csv"
    assert main(["rollout", "example:midround", "--turn", "-W2/D", "--agent", "greedy", "--trials", "2",
                 "--workers", "1", "--out", str(kept)]) == 0
    before = kept.read_text()
    capsys.readouterr()
    fill = {"TEXT": str(text), "DIR": str(tmp_path), "KEPT": str(kept)}
    code, out, err = run(capsys, *[fill.get(word, word) for word in argv])
    prog = f"lcanalysis {argv[0]}"
    for word, path in fill.items():
        says = says.replace(word, path)
    assert code == 2 and out == "" and err.count("\n") == 1, err
    assert err.startswith(f"{prog}: error: argument --out: {says}") and ends_pointing_to_help(err, prog), err
    assert text.read_text() == "mine\n" and kept.read_text() == before


@pytest.mark.parametrize(("argv", "says"), [
    (["advise", "example:midround", "--all", "--top", "3"], "--all lists every turn: give --all or --top N, not both"),
    (["advise", "example:midround", "--turn", "-W2/D", "--json"], "--turn adds a line to the text answer"),
    (["rollout", "example:midround", "--turn", "-W2/D", "--top", "2"], "give --turn or --top, not both"),
    (["review", "RECORD", "--check-top", "2"], "--check-top needs --check N"),
    (["solve", "example:endgame", "--max-stalls", "0", "--leaf", "as-is"], "--leaf is the value at the horizon"),
    (["solve", "example:endgame", "--max-stalls", "0", "--seed", "3"], "--seed is the seed of --samples"),
    (["solve", "example:endgame", "--max-stalls", "0", "--samples", "5"], "--samples applies to a view only"),
    (["solve", "example:endgame"], "no bound: drawing from discard piles can go on forever, so give --max-stalls S"),
    (["studies", "data", "--only", "nosuch"], "argument --only: unknown data file(s) ['nosuch']; known: "),
    (["studies", "wager-tables", "nosuch"], "unknown table(s) ['nosuch']; known: "),
    (["studies", "match-table", "--colors", "6"], "the shipped table is for 5 colours: give --out FILE"),
])
def test_options_refused_together_or_missing_are_one_line_naming_the_command(capsys, tmp_path, argv, says):
    """Options that do not go together (or one missing, or a name no study knows), refused once the
    arguments are read, said 'error: --all lists every turn: ...' without the command every argument
    the parser refuses names: the same one line now, exit status 2."""
    from lcanalysis.game.position import Position
    from lcanalysis.game.records import record_round, write_record

    start = Position.deal(seed=3)
    record = tmp_path / "round.json"
    write_record(record_round(start, [start.legal_moves()[0]]), str(record))
    code, out, err = run(capsys, *[str(record) if word == "RECORD" else word for word in argv])
    prog = f"lcanalysis {' '.join(argv[:2] if argv[0] == 'studies' else argv[:1])}"
    assert code == 2 and out == "" and err.count("\n") == 1, err
    assert err.startswith(f"{prog}: error: ") and ends_pointing_to_help(err, prog) and says in err, err


@pytest.mark.parametrize(("argv", "option", "says"), [
    (["play", "--seed", "1", "--agent", "search:width=abc"], "--agent", "'search:width=abc'"),
    (["play", "--seed", "1", "--agent", "nosuch"], "--agent", "unknown agent 'nosuch'"),
    (["rollout", "example:midround", "--agent", "nosuch"], "--agent", "unknown agent 'nosuch'"),
    (["rollout", "example:midround", "--agent", "external:python bot.py"], "--agent",
     "an external agent cannot roll out"),
    (["review", "RECORD", "--check", "2", "--check-agent", "nosuch"], "--check-agent", "unknown agent 'nosuch'"),
    (["review", "RECORD", "--check", "2", "--check-agent", "external:python bot.py"], "--check-agent",
     "an external agent cannot roll out"),
    (["tournament", "nosuch", "greedy", "--deals", "1", "--out", "none"], None, "unknown agent 'nosuch'"),
    (["tournament", "greedy", "search:width=abc", "--deals", "1", "--out", "none"], None, "'search:width=abc'"),
    # two agents of one label: the run refused them, after the compile, as 'error: agents need ...'
    (["tournament", "greedy", "greedy", "--deals", "1", "--out", "none"], None,
     "agents need distinct labels, got ['greedy', 'greedy']"),
])
def test_an_agent_that_cannot_be_made_is_refused_as_a_bad_option_is_before_the_engine_compiles(
        capsys, monkeypatch, tmp_path, argv, option, says):
    """An agent is checked once the arguments are read, and was refused as 'error: agent ...' (play,
    rollout: 'error: --agent: ...'; review: 'error: agent (--check-agent): ...'), without the command every
    other bad argument names: it is the same one line, exit status 2. And a mistyped one is refused at once:
    'play --agent nosuch' compiled the engine first (a minute on a fresh install; the seam
    ``warmup.engine_ready``, as in tests/test_first_compile.py)."""
    from lcanalysis.cli import warmup
    from lcanalysis.game.position import Position
    from lcanalysis.game.records import record_round, write_record

    readied: list[int] = []
    monkeypatch.setattr(warmup, "engine_ready", lambda quiet=False: readied.append(1) or 0.0)
    monkeypatch.setattr(sys, "stdin", io.StringIO("quit\n"))
    start = Position.deal(seed=3)
    record = tmp_path / "round.json"
    write_record(record_round(start, [start.legal_moves()[0]]), str(record))
    argv = [str(record) if word == "RECORD" else word for word in argv]
    code, out, err = run(capsys, *argv)
    prog = f"lcanalysis {argv[0]}"
    assert code == 2 and out == "" and readied == []
    assert err.startswith(f"{prog}: error: ") and ends_pointing_to_help(err, prog) and err.count("\n") == 1
    assert says in err
    # the tournament's agents are words, not an option's value
    assert err.startswith(f"{prog}: error: {f'argument {option}: ' if option else ''}"), err


@pytest.mark.parametrize("args,message", [
    (["--max-turns", "0"], "--max-turns must be >= 1, got 0"),
    (["--max-turns", "1001"], "--max-turns must be at most 1000"),
    (["--max-stalls", "32"], "--max-stalls must be at most 31"),
    (["--max-stalls", "0", "--samples", "1"], "--samples must be >= 2, got 1"),
    (["--max-stalls", "0", "--samples", "100001"], "--samples must be at most 100000"),
])
def test_solve_refuses_an_option_out_of_range_by_its_name(capsys, args, message):
    """These passed the command line and the library refused them by its own argument names
    ('max_turns must be at least 1', 'samples must be a whole number 2..100,000')."""
    try:
        code = main(["solve", "example:endgame", *args])
    except SystemExit as exc:  # argparse's refusals
        code = exc.code
    err = capsys.readouterr().err
    assert code == 2 and message in err


def test_solve_on_the_clock_says_its_first_level_did_not_fit_in_the_nodes(capsys):
    """With --time, nodes too few for even stall budget 0 answered 'give a larger --max-nodes, or ask
    for less: ... or --time S for the deepest answer within S seconds', --time being given already."""
    code, out, err = run(capsys, "solve", "example:endgame", "--time", "5", "--max-nodes", "3")
    assert code == 2 and out == ""
    assert "error: the node budget ran out before even the first level finished: 3 nodes searched" in err
    assert "give a larger --max-nodes" in err and "--time S" not in err


def test_a_stage_of_advise_that_runs_on_is_not_a_silent_wait(capsys, monkeypatch):
    """Found by a review: advise on a 3-card view said '2 stall(s) each: solving' and then nothing
    for 8 s until the answer. A stage that runs on now has its line said again, with the seconds
    since, while it lasts. The advisor is replaced by one that reports a stage and waits (at most
    30 s) until the command has said it is still working, then answers; the answer is unchanged."""

    import lcanalysis.advisor as advisor

    real = advisor.advise("example:midround", time_budget=0.05, seed=0)
    heard = hear_still_working(monkeypatch)
    def slow_advise(source, progress=None, **_):
        progress("endgame: 2 stall(s) each: solving")
        assert heard.wait(30), "no word while the stage ran on"
        return real

    monkeypatch.setattr(advisor, "advise", slow_advise)
    code, out, err = run(capsys, "advise", "example:midround", "--json")
    assert code == 0 and json.loads(out)["value"] == pytest.approx(real.value, rel=1e-14)  # (15 digits)
    lines = err.splitlines()
    assert lines[0] == "  endgame: 2 stall(s) each: solving"
    assert lines[1].startswith("  endgame: 2 stall(s) each: solving ... still working, ") and lines[1].endswith(" s")


def test_advise_refuses_top_beside_all_and_top_still_cuts_the_list(capsys):
    """--all lists every turn, so a --top beside it was silently ignored; now it is refused."""
    code = main(["advise", "example:endgame", "--all", "--top", "2"])
    out, err = capsys.readouterr()
    assert code == 2 and out == "" and "--all" in err and "--top" in err
    assert main(["advise", "example:endgame", "--top", "1", "--time", "0.05", "--json"]) == 0
    every = json.loads(capsys.readouterr().out)["moves"]
    assert main(["advise", "example:endgame", "--top", "1", "--time", "0.05"]) == 0
    one = capsys.readouterr().out
    assert main(["advise", "example:endgame", "--time", "0.05"]) == 0
    default = capsys.readouterr().out
    placements = {m["move"].split("/")[0] for m in every}
    shown = [p for p in placements if p in one]
    assert len(placements) > 6 and len(shown) == 1
    assert sum(p in default for p in placements) == 6


def test_the_samples_warning_quotes_the_one_sampled_world_table_of_the_endgame_page():
    """``WORLD_NODES`` (the warning before ``solve --samples N``) is docs/endgame.md's table "One
    sampled world", row by row."""
    import re
    from pathlib import Path

    from lcanalysis.cli.solve import WORLD_NODES

    page = (Path(__file__).resolve().parent.parent / "docs" / "endgame.md").read_text()

    def nodes(cell: str) -> int | None:
        return None if cell == "more than 3,000,000" else int(cell.replace(",", ""))

    rows = re.findall(r"^\| (\d) \| (\d+) \| ([\w, ]+) \| ([\w, ]+) \|$", page, re.M)
    assert rows and {(int(s), int(d)): (nodes(v), nodes(b)) for s, d, v, b in rows} == WORLD_NODES


def test_solve_samples_warns_up_front_when_the_worlds_will_take_long(tmp_path, capsys, monkeypatch):
    """``solve --samples 400 --max-stalls 1`` on a 3-card view with buried cards ran 3 minutes with no
    warning: the warning looked only at the cards left, as for every split. It now counts the worlds
    (400 times up to 223,342 nodes each, about a minute at 1.4 M nodes a second, plus each world's
    own fill: 2.4 s) and says so before the search starts; 40 worlds at no stalls are quick, no word."""
    from test_buried import _all_buried_view

    import lcanalysis.cli.solve as cli_solve
    from lcanalysis.game.notation import read_view

    path = _all_buried_view(tmp_path)
    view = read_view(str(path))
    note = cli_solve.reach_note(view, 1, None, 10**9, 400)
    assert note is not None and note.startswith("note: --samples 400 solves 400 sampled worlds (each with its ")
    assert "one world took up to 223,342 nodes" in note and "about 66 s (up to 89,336,800 nodes)" in note
    assert cli_solve.reach_note(view, 0, None, 10**9, 40) is None
    small = cli_solve.reach_note(view, 1, None, 10_000_000, 400)
    assert small is not None and "more than --max-nodes 10,000,000, so it may stop at the node budget" in small
    assert "more than 3,000,000 nodes" in str(cli_solve.reach_note(view, 3, None, 10**9, 400))  # (2 at 3 cards)
    said = []
    monkeypatch.setattr(cli_solve, "solve_json", lambda *a, **k: said.append("solved") or {
        "value": 0.0, "exact": False, "moves": [], "nodes": 1, "seconds": 1.0})
    assert main(["solve", str(path), "--max-stalls", "1", "--samples", "400", "--json"]) == 0
    err = capsys.readouterr().err
    assert err.startswith(note) and said == ["solved"]


class _Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


@pytest.mark.parametrize("argv,words", [
    (["show", "-", "--string"], "reading a JSON position or an 'LC1;...' string from standard input"),
    (["review", "-", "--json", "--no-progress"], "reading a game record from standard input"),
])
def test_a_dash_at_a_terminal_says_what_it_waits_for_before_reading(capsys, monkeypatch, argv, words):
    """'lcanalysis show -' typed at a terminal waited in silence for input; it now says what to type
    and how to end it (on standard error: standard output stays the answer alone)."""
    monkeypatch.setattr(sys, "stdin", _Terminal(""))
    code, out, err = run(capsys, *argv)
    assert code == 2 and out == ""
    assert words in err and "Ctrl-D" in err
    argument = "record" if argv[0] == "review" else "position"  # said before the wait, not after:
    assert err.index(words) < err.index(f"lcanalysis {argv[0]}: error: argument {argument}: standard input is empty")


def test_a_dash_from_a_pipe_reads_without_a_word(capsys, monkeypatch):
    one_line = read_position(open_example()).to_string()
    monkeypatch.setattr(sys, "stdin", io.StringIO(one_line))
    code, out, err = run(capsys, "show", "-", "--string")
    assert code == 0 and out.strip() == one_line and err == ""


@pytest.mark.parametrize("argv", [
    ["tournament", "heuristic", "greedy", "--deals", "1", "--workers", "1", "--out", "none", "--no-progress"],
    ["show", "example:midround"],
])
def test_output_into_a_closed_pipe_ends_quietly_as_for_every_command(argv):
    """'lcanalysis tournament ... | head -1' ended with "error: [Errno 32] Broken pipe" and status 2,
    where every other command ends quietly (its reader has what it wanted)."""
    import os

    read, write = os.pipe()
    os.close(read)  # the reader is gone before the first line: every write fails
    try:
        proc = subprocess.run([sys.executable, "-m", "lcanalysis", *argv], stdout=write, stderr=subprocess.PIPE,
                              text=True, timeout=300, check=False, env={**os.environ, "LCANALYSIS_NO_SERVER": "1"})
    finally:
        os.close(write)
    assert "Broken pipe" not in proc.stderr and "error:" not in proc.stderr and "Traceback" not in proc.stderr
    assert proc.returncode == 0, proc.stderr


def test_lcanalysis_alone_shows_what_it_can_do(capsys):
    """'lcanalysis' typed alone said only "the following arguments are required: command"."""
    with pytest.raises(SystemExit) as exc:
        main([])
    err = capsys.readouterr().err
    assert exc.value.code == 2
    assert "advise" in err and "what should I play here?" in err  # the commands, each with what it does
    assert "give a command, like 'lcanalysis advise example:midround'" in err


@pytest.mark.parametrize(("word", "meant"), [("advice", "advise"), ("hint", "advise"), ("Solve", "solve"),
                                             ("wagers", "wager")])
def test_a_command_that_is_not_one_is_refused_naming_the_command_meant(capsys, word, meant):
    """'lcanalysis advice ...' listed argparse's 'invalid choice' with every command quoted; it now says
    which command was likely meant."""
    with pytest.raises(SystemExit) as exc:
        main([word, "example:midround"])
    err = capsys.readouterr().err
    assert exc.value.code == 2 and f"error: unknown command '{word}' (did you mean '{meant}'?)" in err
    assert "the commands are show, deal, solve, wager, advise" in err


def test_a_command_far_from_any_is_refused_without_a_guess(capsys):
    with pytest.raises(SystemExit):
        main(["frobnicate"])
    err = capsys.readouterr().err
    assert "unknown command 'frobnicate'; the commands are" in err and "did you mean" not in err


def test_a_bot_started_at_a_terminal_says_what_it_waits_for(capsys, monkeypatch):
    """'lcanalysis bot best' typed at a prompt waited in silence for JSON lines; at a terminal it now says
    what it serves and how to play the agent instead, on standard error (standard output: JSON only)."""
    monkeypatch.setattr(sys, "stdin", _Terminal(""))
    code, out, err = run(capsys, "bot", "greedy")
    assert code == 0 and out == ""
    assert "serving greedy over the JSON-lines bot protocol" in err and "lcanalysis play --agent greedy" in err
    monkeypatch.setattr(sys, "stdin", io.StringIO('{"type": "quit"}\n'))  # a referee's pipe: not a word
    code, out, err = run(capsys, "bot", "greedy")
    assert code == 0 and out == "" and err == ""


@pytest.mark.parametrize("extra", [["--max-stalls", "0"], ["--time", "5"]])
def test_solve_says_it_is_still_working_about_once_a_second(capsys, monkeypatch, extra):
    """A long 'lcanalysis solve' said so after a second, then only every 3 s (a run of example:endgame
    at one stall each was silent for 3 s at a time); the command line now speaks about once a second,
    as advise's stages do (``STAGE_SILENCE``). The watcher's own clock is the search's: checked here by
    the cadence asked of it."""
    import contextlib

    import lcanalysis.search.common as common
    from lcanalysis.cli.common import STAGE_SILENCE

    asked = []

    @contextlib.contextmanager
    def listening(report, what, every=3.0, first=1.0, budget=None):
        asked.append((every, first))
        yield

    monkeypatch.setattr(common, "heartbeat", listening)
    code, _out, err = run(capsys, "solve", "example:endgame", *extra)
    assert code == 0, err
    assert asked and all(every <= STAGE_SILENCE and first <= STAGE_SILENCE for every, first in asked)


def test_a_record_in_text_form_given_for_a_position_is_named_as_a_record(capsys, tmp_path):
    """'lcanalysis advise game.txt' on an LCR1 record said "the file's content 'LCR1\\nstart ...' is
    neither a JSON position nor a one-line 'LC1;...' string"; the JSON record was already named as one."""
    from lcanalysis.game.records import read_record, write_record

    start = read_position("LC1;c5;h8;nr;m0;v0;p0=Yw.Yw.Y2.B4.B9.Gw.Gw.G2;p1=?8;d=44")
    text = write_record(read_record({"start": start.to_json(), "turns": ["-Yw/D:Y10", "-B10/Y"]}), form="text")
    path = tmp_path / "game.txt"
    path.write_text(text)
    for command in ("show", "advise", "solve"):
        code, out, err = run(capsys, command, str(path))
        assert code == 2 and out == ""
        assert "this is a game record (the text form 'LCR1 ...'), not a position: review it with " \
               "'lcanalysis review FILE'" in err, err
    code, out, _err = run(capsys, "review", str(path), "--json", "--time", "0.05", "--workers", "1", "--no-progress")
    assert code == 0 and json.loads(out)["decisions"]  # the file is a record indeed


@pytest.mark.parametrize("given", ["string", "file", "example"])
def test_a_position_given_for_a_record_is_named_as_a_position(capsys, tmp_path, given):
    """'lcanalysis review "LC1;..."' (or a file holding that line, or example:midround) said it was
    "neither a JSON record, the text form 'LCR1 ...' nor a file"; a JSON position was already named."""
    line = read_position("example:midround").to_string()
    arg = {"string": line, "example": "example:midround"}.get(given)
    if arg is None:
        (tmp_path / "view.txt").write_text(line + "\n")
        arg = str(tmp_path / "view.txt")
    code, out, err = run(capsys, "review", arg)
    assert code == 2 and out == ""
    assert "lcanalysis review: error: argument record: this is a position, not a game record: a record's text " \
           "form is the line 'LCR1', " \
           "then 'start LC1;...' and the turns" in err, err


def _refusal(read, source) -> str:
    """What ``read`` (the library's reader) says of ``source``: the words a command's refusal keeps."""
    from lcanalysis.game.notation import PositionError

    with pytest.raises(PositionError) as refused:
        read(source)
    return str(refused.value)


@pytest.mark.parametrize("command", [["advise"], ["solve", "--max-stalls", "0"], ["rollout"], ["show"],
                                     ["wager", "--color", "R"]])
def test_a_position_that_cannot_be_read_is_refused_in_the_parser_s_line_before_the_engine_is_made_ready(
        capsys, monkeypatch, tmp_path, command):
    """A bad position was 'error: position string: unknown field ...', naming no command, where every refused
    option names it; and solve read its position only after the engine compiled (a minute on a fresh install).
    Each command that reads a position now refuses it as the parser refuses an argument, in the reader's own
    words, before the engine is made ready (``warmup.engine_ready``, the seam of tests/test_first_compile.py)."""
    from lcanalysis.cli import warmup

    readied: list[int] = []
    monkeypatch.setattr(warmup, "engine_ready", lambda quiet=False: readied.append(1) or 0.0)
    bad_field = read_position("example:midround").to_json() | {"bogus": 1}
    files = {"field.json": json.dumps(bad_field), "empty.json": ""}
    for name, text in files.items():
        (tmp_path / name).write_text(text)
    name, options = command[0], command[1:]
    prog = f"lcanalysis {name}"
    for given in ("LC1;d27", str(tmp_path / "field.json"), str(tmp_path / "empty.json"), str(tmp_path / "none.json")):
        code, out, err = run(capsys, name, given, *options)
        said = _refusal(read_position, given)
        assert (code, out, err) == (2, "", refusal_line(prog, f"argument position: {said}"))
    monkeypatch.setattr(sys, "stdin", io.StringIO(""))
    code, out, err = run(capsys, name, "-", *options)
    assert (code, out) == (2, "") and err.startswith(f"{prog}: error: argument position: standard input is empty")
    assert readied == []
    assert "unknown field 'd27' (did you mean d=27?)" in _refusal(read_position, "LC1;d27")  # the words kept


def test_a_record_that_cannot_be_read_is_refused_in_the_parser_s_line_before_the_engine_is_made_ready(
        capsys, monkeypatch, tmp_path):
    """'lcanalysis review' of a bad record said 'error: record: ...' naming no command, after the engine
    compiled: it is now the parser's line, 'argument record: ...' saying the reader's words (less its
    'record: ', which the argument's name says), before the engine is made ready."""
    from lcanalysis.cli import warmup
    from lcanalysis.game.position import Position
    from lcanalysis.game.records import read_record, record_round, write_record

    readied: list[int] = []
    monkeypatch.setattr(warmup, "engine_ready", lambda quiet=False: readied.append(1) or 0.0)
    start = Position.deal(seed=3)
    good = tmp_path / "round.json"
    write_record(record_round(start, start.legal_moves()[:1]), str(good))
    bad = json.loads(good.read_text())
    bad["turns"] = ["+X9/D"]
    (tmp_path / "bad.json").write_text(json.dumps(bad))
    (tmp_path / "empty.json").write_text("")
    prog = "lcanalysis review"
    for given in (str(tmp_path / "bad.json"), str(tmp_path / "empty.json"), str(tmp_path / "none.json"), "LC1;d27"):
        said = _refusal(read_record, given)
        assert said.startswith("record: ")
        code, out, err = run(capsys, "review", given, "--no-progress")
        assert (code, out, err) == (2, "", refusal_line(prog, f"argument record: {said[len('record: '):]}"))
    assert readied == []


def test_review_s_output_files_are_refused_before_the_engine_is_made_ready(capsys, monkeypatch, tmp_path):
    """'lcanalysis review RECORD --html FILE --out FILE' checked its output files only after the engine compiled
    (a minute on a fresh install): a missing folder, a file that would be destroyed, --out's file made with
    other settings. Each is now refused by the command's precheck, in the same words, before the engine is
    made ready (``warmup.engine_ready``, the seam of tests/test_first_compile.py)."""
    from lcanalysis.cli import warmup
    from lcanalysis.game.position import Position
    from lcanalysis.game.records import record_round, write_record
    from lcanalysis.reviewer import keep_settings

    readied: list[int] = []
    monkeypatch.setattr(warmup, "engine_ready", lambda quiet=False: readied.append(1) or 0.0)
    record = tmp_path / "round.json"
    write_record(record_round(Position.deal(seed=3), ["-Yw/D", "-B10/Y"]), str(record))
    notes, checks = tmp_path / "notes.txt", tmp_path / "kept.csv.checks"
    notes.write_text("my notes\n")
    checks.write_text("not a folder\n")
    other = tmp_path / "other.csv"  # a review's file of judged turns, made with seed 1 (its settings line)
    other.write_text("# lcanalysis review " + json.dumps(keep_settings(str(record), time_budget=0.4, seed=1))
                     + "\nround,index,judgement\n")
    prog = "lcanalysis review"
    for options, said in (
            (["--html", str(tmp_path / "no" / "r.html")], f"argument --html: {tmp_path / 'no' / 'r.html'}: the folder "
                                                          f"{tmp_path / 'no'} does not exist"),
            (["--html", str(notes)], f"argument --html: {notes} exists and is not an HTML file: writing there would "
                                     "destroy it"),
            (["--html", str(tmp_path / "r.html"), "--out", str(tmp_path / "r.html")],
             f"argument --html: {tmp_path / 'r.html'} is the file of judged turns (--out)"),
            (["--out", str(record)], f"argument --out: {record} is the record"),
            (["--out", str(tmp_path)], f"argument --out: {tmp_path} is a directory"),
            (["--out", str(tmp_path / "kept.csv"), "--check", "10"], f"--check keeps its trials in {checks} (--out's "
                                                                     "name and .checks), which is a file"),
            (["--out", str(other)], f"argument --out: {other} was made with other settings (seed: 1 there, 0 here)")):
        code, out, err = run(capsys, "review", str(record), "--no-progress", *options)
        assert (code, out) == (2, "") and err.startswith(f"{prog}: error: {said}"), (options, err)
    assert readied == []
    assert notes.read_text() == "my notes\n" and not (tmp_path / "kept.csv").exists()


@pytest.mark.parametrize(("argv", "words"), [(["help"], "usage: lcanalysis [-h]"),
                                             (["help", "advise"], "usage: lcanalysis advise"),
                                             (["help", "tournament"], "usage: lcanalysis tournament")])
def test_help_and_a_command_shows_its_options_as_in_the_shell(capsys, argv, words):
    """'lcanalysis help advise' was refused ("invalid choice: 'help'") where the shell answers
    'help [COMMAND]' with the command's --help."""
    with pytest.raises(SystemExit) as exc:
        main(argv)
    assert exc.value.code == 0 and words in capsys.readouterr().out


def test_the_warning_before_a_long_solve_of_a_view_sampled_by_default_says_it_is_sampled():
    """A view of more than 20,000 distinct splits is solved in 400 sampled ones without --samples; the
    warning before it spoke of 'the exact value of a view (every split of the unseen cards)'."""
    from helpers import played_down

    from lcanalysis.cli import solve as cli_solve
    from lcanalysis.search.view_value import DEFAULT_MAX_SPLITS, DEFAULT_SAMPLES

    view = played_down(1, 12).view()
    assert view.distinct_splits() > DEFAULT_MAX_SPLITS == cli_solve.DEFAULT_SPLITS
    note = cli_solve.reach_note(view, 1, None, 10**9)
    assert note is not None and "every split" not in note and "exact value" not in note
    assert (f"a view of more than {DEFAULT_MAX_SPLITS:,} distinct splits is solved in {DEFAULT_SAMPLES} sampled "
            "worlds without --samples") in note
    assert "every split" in str(cli_solve.reach_note(played_down(1, 8).view(), 1, None, 10**9))  # 12,870 splits


@pytest.mark.parametrize(("argv", "words"), [
    (["studies", "match-table", "--deals", "100000000000"], "--deals must be at most 1000000, got 100000000000"),
    (["studies", "match-table", "--bootstrap", "100000000000"], "--bootstrap must be at most 100000"),
    (["studies", "match-table", "--matches", "100000000000"], "--matches must be at most 1000000"),
    (["studies", "data", "--only", "matches", "--matches", "100000000000"], "--matches must be at most 1000000"),
    (["studies", "data", "--only", "first_player_rounds", "--deals", "1000001"], "--deals must be at most 1000000"),
    (["studies", "data", "--only", "stalling", "--positions", "100000000000"], "--positions must be at most"),
    (["studies", "data", "--only", "colours", "--rounds", "100000000000"], "--rounds must be at most 500000"),
])
def test_a_study_asked_for_more_than_the_machine_holds_is_refused_naming_the_option(capsys, monkeypatch, argv,
                                                                                     words):
    """``studies match-table --deals 100000000000`` (and ``data --matches``, ``--positions``) listed every
    deal before the first was played: the memory filled and the system killed the command after two
    minutes, with no word; ``--bootstrap 100000000000`` ran on with no end. They are refused as they are
    read, as a tournament's ``--deals`` are (here the studies are stubbed: nothing must run)."""
    from lcanalysis.studies import data, match_table

    def ran(*args, **kwargs):
        raise AssertionError("the study ran")

    monkeypatch.setattr(match_table, "build", ran)
    monkeypatch.setattr(data, "write_data", ran)
    with pytest.raises(SystemExit) as refused:
        main(argv)
    assert refused.value.code == 2 and words in capsys.readouterr().err


def test_the_advise_help_takes_the_advisors_numbers_from_where_they_are_defined(capsys, monkeypatch):
    """The help wrote the hint's numbers (1 s, 10 s, 4 and 5 cards, 2 for the exact solver, 15,000
    play-outs a second, at most 3600 s) as text: a change to the advisor would have left it saying
    the old ones. It reads them from ``options``, where the advisor takes them from too."""
    from lcanalysis import advisor, options

    assert (advisor.ENDGAME_CARDS, advisor.ROLLOUTS_PER_SECOND) == (options.ENDGAME_CARDS, options.ROLLOUTS_PER_SECOND)
    for name, value in (("PLAYOUT_DEFAULT_SECONDS", 1.5), ("ENDGAME_DEFAULT_SECONDS", 12.0), ("ENDGAME_CARDS", 6),
                        ("FULL_POSITION_ENDGAME_CARDS", 7), ("EXACT_ENDGAME_CARDS", 3), ("ROLLOUTS_PER_SECOND", 9000),
                        ("MAX_TIME_BUDGET", 1800)):
        monkeypatch.setattr(options, name, value)
    with pytest.raises(SystemExit):
        main(["advise", "--help"])
    text = " ".join(capsys.readouterr().out.split())
    for said in ("(at most 1800). Default: 1.5 s, and up to 12 s with 6 cards or fewer in the draw pile",
                 "7 for a full position, both hands known", "at most 9,000 a second of it",
                 "(a full position, 3 cards or fewer in the draw pile) and the endgame search (6 cards or fewer; "
                 "7 for a full position)"):
        assert said in text


def test_advise_plays_its_play_outs_with_the_policy_asked_for_and_refuses_another_name(capsys):
    from lcanalysis.advisor import advise

    code, out, _ = run(capsys, "advise", "example:midround", "--time", "0.1", "--playout-policy", "stalling", "--json")
    answer = json.loads(out)
    assert code == 0 and "with the stalling heuristic policy (the best agent's" in answer["notes"][-1]
    assert ", stalling heuristic play to the end" in answer["method"]
    plain = advise("example:midround", time_budget=0.1, seed=0, playout_policy="plain")
    assert "with the heuristic policy," in plain.notes[-1] and answer["moves"] != plain.to_json()["moves"]
    with pytest.raises(SystemExit) as exit_:  # one line naming the option and the choices
        main(["advise", "example:midround", "--playout-policy", "greedy"])
    err = capsys.readouterr().err
    assert exit_.value.code == 2 and "--playout-policy" in err and "'greedy'" in err and "'stalling'" in err


def test_advise_names_the_play_out_policy_it_played_from_15_cards_down(capsys, tmp_path):
    """With 10 cards left the default plays the stalling play-outs and says so (the JSON's
    ``playout_policy`` is the policy played, never "staged"; the footer names it); ``--playout-policy
    plain`` plays the plain ones there; a policy of another spelling is refused listing all four."""
    from helpers import played_down

    pos = played_down(3, 10)
    path = tmp_path / "view.json"
    path.write_text(json.dumps(pos.view(pos.to_move).to_json()))
    for extra, played, words in (([], "stalling", "stalling heuristic"), (["--playout-policy", "plain"], "plain",
                                                                        "heuristic")):
        code, out, _ = run(capsys, "advise", str(path), "--time", "0.1", "--json", *extra)
        answer = json.loads(out)
        assert code == 0 and answer["playout_policy"] == played
        assert f"play the round out with the {words} policy" in answer["notes"][-1]
        code, out, _ = run(capsys, "advise", str(path), "--time", "0.1", *extra)
        assert code == 0 and f"play-outs of the {words} policy;" in out.splitlines()[-1]
    with pytest.raises(SystemExit) as exit_:
        main(["advise", str(path), "--playout-policy", "Staged"])
    err = capsys.readouterr().err
    assert exit_.value.code == 2 and "--playout-policy" in err and "'Staged'" in err
    assert all(f"'{name}'" in err for name in ("plain", "stalling", "tuned", "staged"))


@pytest.mark.parametrize("command", ["advise", "rollout"])
def test_a_bad_turn_is_refused_naming_the_option_as_typed_before_the_engine_is_made_ready(capsys, monkeypatch,
                                                                                         command):
    """``rollout --turn X`` said "turn 'X' cannot be read" (the library's word, not the option's), and
    ``advise --turn +X9/D`` compiled the whole engine (a minute on a fresh install) before it said the turn
    was bad: each --turn is now read against the position's rules first, refused naming --turn, and the
    engine is made ready (``warmup.engine_ready``, the seam of tests/test_first_compile.py) only after."""
    from lcanalysis.cli import warmup

    readied: list[int] = []
    monkeypatch.setattr(warmup, "engine_ready", lambda quiet=False: readied.append(1) or 0.0)
    for turn, why in (("+X9/D", "unknown card 'X9': colour 'X' is not one of Y B W G R"),
                      ("+P9/D", "P9 is a card of the 6-colour game only"),  # a colour of the other game
                      ("bogus", "has no '/<source>'"),
                      # the source quoted as typed, where it was upper-cased ('D X')
                      ("+b6/d x", "source 'd x' is neither D (draw pile) nor a colour letter"),
                      ("+R7/D", "is not legal here: that card is not in the hand")):
        code, _, err = run(capsys, command, "example:midround", "--turn", turn)
        prog = f"lcanalysis {command}"  # one line naming the command and the option, as the parser's refusals
        assert code == 2 and err.startswith(f"{prog}: error: argument --turn: ") and why in err, err
        assert f"{turn}" in err and ends_pointing_to_help(err, prog) and err.count("\n") == 1, err
    assert readied == []
    # every problem with its turns is the option's: a turn given twice too, by both commands alike (advise
    # kept the first and dropped the second in silence, where rollout refused it)
    code, out, err = run(capsys, command, "example:midround", "--turn", "+B6/D", "--turn", "-W2/D", "--turn", "+b6/d")
    assert code == 2 and out == "" and readied == []
    assert err == f"{prog}: error: argument --turn: +B6/D is given twice (see {prog} --help)\n"
    extra = ["--time", "0.05"] if command == "advise" else ["--agent", "greedy", "--trials", "2", "--workers", "1"]
    code, out, _ = run(capsys, command, "example:midround", "--turn", "+B6/D", *extra)
    assert code == 0 and "B6" in out and readied == [1]  # a good turn: the engine is made ready, then used


def test_solve_without_a_bound_on_a_round_that_is_over_says_the_round_is_over(capsys):
    """Found by a reliability pass: 'solve' of a finished round with no bound asked for one ("no
    bound: ... give --max-stalls S"), and given it, then said the round was over. The question's own
    problems (a round over, the view of the player not to move) are now said first, as with a bound;
    the missing bound only when the question is sound."""
    from helpers import played_down

    pos = played_down(3, 1, stall_rate=0.0)
    pos.push(next(m for m in pos.legal_moves() if m.draws_from_deck))  # the last card drawn: the round is over
    assert pos.is_over()
    for source in (pos, pos.view(pos.to_move)):
        code, out, err = run(capsys, "solve", source.to_string())
        assert code == 2 and out == "" and "the round is over" in err and "no bound" not in err, err
        assert run(capsys, "solve", source.to_string(), "--max-stalls", "0")[2] == err  # the same words as with one
    endgame = read_position("example:endgame")
    code, _, err = run(capsys, "solve", endgame.view(1 - endgame.to_move).to_string())  # not the mover's view
    assert code == 2 and "no bound" not in err and err == run(capsys, "solve", endgame.view(1).to_string(),
                                                              "--max-stalls", "0")[2], err
    code, _, err = run(capsys, "solve", "example:endgame")  # a sound question: the bound is what is missing
    # a missing option: refused as the parser refuses one, one line naming the command
    assert code == 2 and err.startswith("lcanalysis solve: error: no bound") and err.count("\n") == 1, err
    assert err.endswith(" (see lcanalysis solve --help)\n"), err


def test_solve_of_a_view_at_its_turn_cap_says_the_round_is_over_at_once(capsys):
    """Found by a reliability pass: a view whose history has reached the turn cap, with cards still in
    the draw pile, is a round that is over (View.is_over), but 'solve VIEW --max-stalls 0' searched
    400 sampled worlds as if play went on (a minute for none of them, up to its node budget: 12
    minutes). It now says the round is over and why, as 'advise' and the full position do."""
    from lcanalysis.game.position import Position
    from lcanalysis.game.rules import Rules

    pos = Position.deal(seed=2, rules=Rules(turn_cap=4))
    for _ in range(4):
        pos.push(pos.legal_moves()[0])
    view = pos.view(pos.to_move)
    assert view.is_over() and view.deck_count > 0
    for bound in (["--max-stalls", "0"], ["--time", "5"], []):
        code, out, err = run(capsys, "solve", view.to_string(), *bound)
        assert code == 2 and out == "" and err == ("error: the round is over (the turn cap is reached): there is no "
                                                   "turn to value\n"), (bound, err)


def test_advise_and_solve_of_a_round_stopped_by_the_turn_cap_say_so_from_either_seat(capsys):
    """A round the turn cap stopped (cards still in the draw pile) is over for the full position and both
    seats' views alike. 'solve' of the full position said only "the round is over", not why, and 'advise'
    and 'solve' of the view of the seat not to move asked to say it was that seat's turn ("m1 in the
    one-line string"), which would only have met the refusal of a round that is over. Each now says the
    round is over and why, in the words it uses for the mover's view."""
    from lcanalysis.game.position import Position
    from lcanalysis.game.rules import Rules

    pos = Position.deal(seed=2, rules=Rules(turn_cap=4))
    for _ in range(4):
        pos.push(pos.legal_moves()[0])
    assert pos.is_capped() and pos.deck_count > 0
    for source in (pos, pos.view(0), pos.view(1)):
        code, out, err = run(capsys, "advise", source.to_string())
        assert (code, out, err) == (2, "", "error: the round is over (the turn cap is reached): there is no turn "
                                           "to choose\n"), (source, err)
        for bound in (["--max-stalls", "0"], ["--max-turns", "2", "--leaf", "as-is"]):
            code, out, err = run(capsys, "solve", source.to_string(), *bound)
            assert (code, out, err) == (2, "", "error: the round is over (the turn cap is reached): there is no "
                                               "turn to value\n"), (source, bound, err)
