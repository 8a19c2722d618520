"""The hint a player reads: the verdict names the top turn, the best turn's loss is 0, a loss's
error is paired over the shared worlds, turns are grouped by the card placed, identical draw
choices are merged, and the text says which question was answered."""

from __future__ import annotations

import itertools
import json
import re

import numpy as np
import pytest
from helpers import played_down

import lcanalysis as lc
from lcanalysis.analysis import Analysis, MoveValue, place_in_words
from lcanalysis.cli import main
from lcanalysis.rollouts import Rollouts
from lcanalysis.show.hint import groups, hint_json, hint_text, judgement, verdict, your_turn


def _rollouts_with(samples):
    r = Rollouts.__new__(Rollouts)  # the samples alone: no view, no engine
    r.samples = [np.asarray(x, dtype=float) for x in samples]
    return r


def _judged(moves, losses, stderr=0.0):
    """``moves`` with their losses against the best set, each with the same standard error."""
    for m, loss in zip(moves, losses, strict=True):
        m.loss, m.loss_stderr = loss, stderr
    return moves


def test_two_turns_that_differ_by_a_constant_in_every_world_have_a_loss_without_error():
    rng = np.random.default_rng(0)
    worlds = rng.normal(0, 30, size=400)  # the luck of each world, shared by both turns
    r = _rollouts_with([worlds + 2.5, worlds])
    loss, se = r.difference(0, 1)
    assert loss == pytest.approx(2.5) and se == pytest.approx(0.0, abs=1e-12)
    unpaired = np.hypot(worlds.std(ddof=1), worlds.std(ddof=1)) / np.sqrt(400)
    assert unpaired > 2  # the values alone could not tell the two turns apart


def test_a_paired_difference_uses_only_the_worlds_both_turns_were_played_in():
    r = _rollouts_with([[1.0, 2.0, 3.0, 10.0], [0.0, 1.0, 5.0]])
    loss, se = r.difference(0, 1)
    d = np.array([1.0, 1.0, -2.0])
    assert loss == pytest.approx(d.mean()) and se == pytest.approx(d.std(ddof=1) / np.sqrt(3))


def _made_up_analysis():
    moves = [MoveValue("+B6/D", 10.0, 1.0, False), MoveValue("+B6/Y", 9.5, 1.0, False),
             MoveValue("+B6/B", 9.5, 1.0, False), MoveValue("-W2/D", 4.0, 1.5, False)]
    for m, (loss, se) in zip(moves, [(0.0, 0.0), (0.5, 0.2), (0.5, 0.2), (6.0, 1.0)]):
        m.loss, m.loss_stderr = loss, se
    return Analysis(moves, kind="advisor estimate", exact=False, nodes=1200)


def test_the_verdict_names_the_top_turn_and_judges_the_next_placement():
    view = lc.read_position("example:midround")
    analysis = _made_up_analysis()
    text = verdict(analysis, view)
    assert text.startswith("Play B6 and draw from the deck.")
    assert "discard W2 and draw from the deck instead is 6.0 ± 1.0 points worse: clearly worse" in text


def test_in_the_draw_step_the_verdict_judges_the_next_draw():
    """Found by a review: advised in the draw step (the card already down, 'draw=-'), the verdict
    said only "Draw from the deck.", with no word of how much worse taking a pile card is: it
    compared other placements, and there is only one. It now compares the next draw."""
    view = lc.read_position("LC1;c5;h8;nr;m0;v0;p0=Y4.Y10.Ww.Gw.R4.R8.R10;p1=?8.Ww;e0=Y2.Y3.R3;e1=Gw;x=Yw.B2;"
                            "d=39;draw=-")
    moves = [MoveValue("/D", -11.4, 0.7, False), MoveValue("/Y", -13.8, 0.6, False),
             MoveValue("/B", -15.1, 0.6, False)]
    for m, (loss, se) in zip(moves, ((0.0, 0.0), (2.3, 0.5), (3.7, 0.5))):
        m.loss, m.loss_stderr = loss, se
    assert sorted(str(m) for m in view.legal_moves()) == sorted(m.move for m in moves)
    said = verdict(Analysis(moves, kind="advisor estimate", exact=False, nodes=100), view)
    assert said == ("Draw from the deck. To take Yw from the yellow pile instead is 2.3 ± 0.5 points worse: "
                    "slightly worse."), said
    alone = [MoveValue("/D", -11.4, 0.7, False)]
    alone[0].loss, alone[0].loss_stderr = 0.0, 0.0
    assert verdict(Analysis(alone, kind="advisor estimate", exact=False, nodes=100), view) == "Draw from the deck."


@pytest.mark.parametrize(("loss", "se", "words"), [
    (0.4, 0.1, "a matter of taste"), (2.0, 1.5, "too close to call"), (0.1, 3.4, "too close to call at this budget"),
    (0.9, 0.45, "a matter of taste"), (0.9, 0.5, "too close to call at this budget"), (2.0, 0.5, "slightly worse"),
    (5.0, 1.0, "clearly worse"), (12.0, 2.0, "blunder")])
def test_judgements_follow_the_documented_thresholds(loss, se, words):
    assert words in judgement(loss, se)


def test_the_readmes_table_of_verdict_words_is_what_judgement_says():
    """The README ("The hint in one screen") gives the verdict's words by the loss, the first row that
    fits: each row checked at losses on both sides of its bound, the rows in the order judgement tries them."""
    from pathlib import Path

    readme = (Path(__file__).resolve().parent.parent / "README.md").read_text()
    table = readme[readme.index("| the verdict says | when the loss is (the first row that fits) |"):]
    rows = [[cell.strip() for cell in line.strip().strip("|").split("|")] for line in table.splitlines()[2:7]]
    assert [words for words, _ in rows] == ["a matter of taste", "too close to call at this budget", "slightly worse",
                                            "clearly worse", "much worse: a blunder"]
    assert [when for _, when in rows] == ["under 1 point, and two standard errors under 1 point too",
                                          "within two standard errors of zero", "under 3 points",
                                          "under 8 points", "8 points or more"]
    # losses (standard error) where each row is the first that fits, and just past it
    assert judgement(0.99, 0.49) == judgement(0.99, None) == "a matter of taste"
    assert judgement(1.0, 0.0) != "a matter of taste" and judgement(0.99, 0.5) != "a matter of taste"
    assert judgement(1.0, 0.5) == judgement(7.9, 3.95) == "too close to call at this budget"
    assert judgement(1.0, 0.49) == judgement(2.99, 0.1) == "slightly worse" and judgement(3.0, 0.1) == "clearly worse"
    assert judgement(7.99, 0.1) == "clearly worse" and judgement(8.0, 0.1) == "much worse: a blunder"


def test_turns_are_grouped_by_placement_and_identical_draws_merged():
    view = lc.read_position("example:midround")
    analysis = _made_up_analysis()
    assert [p for p, _ in groups(analysis)] == ["+B6", "-W2"]
    text = hint_text(analysis, view)
    assert "+B6/D" in text and "/Y /B" in text and "(or the blue pile: the same value)" in text
    assert "an estimate by play-outs" in text and "1,200 play-outs in sampled worlds" in text


def test_the_list_is_ordered_by_loss_so_the_vs_best_column_rises():
    """Unequal samples: a draw with a lower mean can have the smaller paired loss; it is shown first."""
    view = lc.read_position("example:midround")
    moves = [MoveValue("+B6/D", 10.0, 1.0, False), MoveValue("-W2/D", 8.0, 1.0, False),
             MoveValue("-W2/B", 7.9, 1.0, False), MoveValue("+B6/Y", 7.5, 1.0, False)]
    _judged(moves, [0.0, 3.0, 1.5, 2.0], 0.5)
    analysis = Analysis(moves, kind="advisor estimate", exact=False, nodes=100)
    assert [(p, [m.move for m in ms]) for p, ms in groups(analysis)] == [
        ("+B6", ["+B6/D", "+B6/Y"]), ("-W2", ["-W2/B", "-W2/D"])]
    assert "discard W2 and take Bw from the blue pile instead is 1.5 ± 0.5 points worse" in verdict(analysis, view)
    rows = [line.split()[0] for line in hint_text(analysis, view, draws=None).splitlines()
            if line.startswith("  ") and line.split()[0].startswith(("+", "-", "/"))]
    assert rows == ["+B6/D", "/Y", "-W2/B", "/D"]


def test_a_turn_with_many_equal_draws_keeps_the_columns_aligned():
    """Six piles with the same outcome make a label wider than the default column: the value and
    loss columns still start at the same place on every row, header included."""
    view = lc.read_position("example:midround")
    piles = ["D", "Y", "B", "W", "G", "R"]
    moves = [MoveValue(f"-W2/{p}", 10.0, 0.0, True) for p in piles] + [MoveValue("+B6/D", 7.0, 0.0, True)]
    for m in moves:
        m.loss, m.loss_stderr = 10.0 - m.value, 0.0
    analysis = Analysis(moves, kind="view value", exact=True, nodes=10)
    lines = [line for line in hint_text(analysis, view).splitlines() if line.startswith("  ") and "..." not in line]
    assert any(line.lstrip().startswith("-W2/D /Y /B /W /G /R") for line in lines)
    header = next(line for line in lines if "in words" in line)
    rows = [line for line in lines if "discard W2" in line or "play B6" in line]
    assert len(rows) == 2  # the six equal draws merged into one row, and the other placement
    starts = {header.index("in words")} | {row.index("discard W2" if "discard" in row else "play B6") for row in rows}
    assert len(starts) == 1  # the words start at one column on the header and on every row


def test_the_advisors_best_turn_has_loss_zero_and_the_json_keeps_every_turn(capsys):
    assert main(["advise", "example:midround", "--time", "0.3", "--json"]) == 0
    answer = json.loads(capsys.readouterr().out)
    legal = {str(m) for m in lc.read_position("example:midround").complete(
        *_split(lc.read_position("example:midround"))).legal_moves()}
    assert {m["move"] for m in answer["moves"]} == legal
    assert answer["moves"][0]["loss"] == 0 and answer["moves"][0]["loss_stderr"] == 0
    top_card = answer["moves"][0]["move"][1:].split("/")[0]
    assert answer["verdict"].startswith(("Play " + top_card, "Discard " + top_card))
    assert all(m["loss"] >= -3 * m["loss_stderr"] - 1e-9 for m in answer["moves"])


def _split(view):
    unseen = view.unseen()
    return unseen[: view.opponent_unknown], unseen[view.opponent_unknown:]


def test_the_default_hint_is_short_and_all_lists_everything(capsys):
    assert main(["advise", "example:midround", "--time", "0.2"]) == 0
    short = capsys.readouterr().out
    assert main(["advise", "example:midround", "--time", "0.2", "--all"]) == 0
    full = capsys.readouterr().out
    assert "other placement(s); --all lists every turn and explains the values" in short
    assert len(full.splitlines()) > len(short.splitlines()) + 20
    # the short answer's footer is one line saying what kind of number it is; --all explains in full
    footer = [line for line in short.splitlines() if line.startswith("value: ")]
    assert len(footer) == 1 and len(footer[0]) < 200 and "± is one standard error" in footer[0]
    assert "not the misjudgments of the play-out policy" in full
    assert short.splitlines()[2].startswith(("Play", "Discard"))


def test_with_a_match_score_every_turn_carries_its_chance_to_win_the_match(capsys):
    data = lc.read_position("example:midround").to_json()
    data.pop("history", None)
    data["match"] = {"round": 3, "totals": [40, 110]}  # far behind in the last round
    assert main(["advise", json.dumps(data), "--time", "0.3", "--json"]) == 0
    answer = json.loads(capsys.readouterr().out)
    for move in answer["moves"]:
        assert 0.0 <= move["match_win"] <= 1.0 and move["match_win_stderr"] >= 0
    assert any(note.startswith("match: ") for note in answer["notes"])
    # the best turn by match is chosen by paired differences (match_equity.match_analysis), not by the
    # highest mean over each turn's own worlds: a busy machine plays fewer worlds for some turns, and a
    # turn with a higher mean over fewer worlds may then not be it (seen under load: a loss of 0.011)
    best = [m for m in answer["moves"] if m["match_loss"] == 0.0]
    assert best, "no turn is the best by match"
    highest = max(answer["moves"], key=lambda m: m["match_win"])
    assert highest["match_loss"] <= 2 * highest["match_loss_stderr"] + 1e-12, highest
    assert main(["advise", json.dumps(data), "--time", "0.3"]) == 0
    text = capsys.readouterr().out
    chances = re.findall(r"win match (\d+\.\d)% ± (\d+\.\d)", text)  # an estimate: with its error
    assert chances and len(chances) == text.count("win match")


def test_a_sampled_value_with_no_spread_still_shows_its_error_and_an_exact_one_shows_none():
    """A play-out estimate whose worlds all gave the same outcome was shown bare ("+4.0"), as an
    exact value is: it now says "± 0.0", its loss too; the exact solver's list shows no ±."""
    view = lc.read_position("example:midround")
    moves = [MoveValue("+B6/D", 10.0, 0.0, False), MoveValue("-W2/D", 4.0, 0.0, False),
             MoveValue("+B6/Y", 9.0, 0.5, False)]
    _judged(moves, (0.0, 6.0, 1.0))
    text = hint_text(Analysis(moves, kind="advisor estimate", exact=False, nodes=100), view)
    rows = {line.split()[0]: line for line in text.splitlines() if line.startswith(("  +B6", "  -W2"))}
    assert "+10.0 ± 0.0" in rows["+B6/D"] and "best" in rows["+B6/D"]
    assert "+4.0 ± 0.0" in rows["-W2/D"] and "-6.0 ± 0.0" in rows["-W2/D"]
    assert "instead is 6.0 ± 0.0 points worse" in text
    exact = [MoveValue("+B6/D", 10.0, 0.0, True), MoveValue("-W2/D", 4.0, 0.0, True)]
    exact[0].loss, exact[1].loss = 0.0, 6.0
    text = hint_text(Analysis(exact, kind="view value (averaged over splits)", exact=True), view)
    assert "±" not in text.split("value:")[0]


def test_a_small_loss_that_rounds_to_zero_reads_zero_not_a_gain():
    """A turn 0.03 points worse than the best by the play-outs, ± 0.8, read "+0.0 ± 0.8" in the hint's
    'vs best' column: a "+" beside a loss, as though it were better than the best (a review's table,
    asking the hint at every turn). A loss that rounds to 0 at the digit shown now reads "0.0 ± 0.8";
    one that does not keeps its sign ("-0.1 ± 0.8")."""
    view = lc.read_position("example:midround")
    moves = [MoveValue("+B6/D", 10.0, 0.5, False), MoveValue("-W2/D", 9.97, 0.5, False),
             MoveValue("+G5/D", 9.94, 0.5, False)]
    _judged(moves, (0.0, 0.03, 0.06), 0.8)
    text = hint_text(Analysis(moves, kind="advisor estimate", exact=False, nodes=100), view)
    rows = {line.split()[0]: line.split() for line in text.splitlines() if line.startswith(("  +B6", "  -W2", "  +G5"))}
    assert rows["-W2/D"][4:7] == ["0.0", "±", "0.8"], rows["-W2/D"]  # -0.03, to one decimal: 0.0
    assert rows["+G5/D"][4:7] == ["-0.1", "±", "0.8"], rows["+G5/D"]  # -0.06: -0.1
    assert "+0.0" not in text and "-0.0 " not in text


def test_an_exact_tie_is_said_to_be_just_as_good_not_zero_points_worse():
    """Two placements of the same exact value read "To discard Yw ... instead is 0.0 points worse: a
    matter of taste" (README, 3 cards left); an exact tie now says so. A sampled 0.0 keeps its ±."""
    view = lc.read_position("example:midround")
    exact = [MoveValue("+B6/D", 10.0, 0.0, True), MoveValue("-W2/D", 10.0 - 1e-14, 0.0, True),
             MoveValue("+G5/D", 7.0, 0.0, True)]
    _judged(exact, (0.0, 1e-14, 3.0))
    said = verdict(Analysis(exact, kind="view value (averaged over splits)", exact=True), view)
    assert "To discard W2 and draw from the deck instead is just as good: the same exact value." in said
    assert "points worse" not in said
    sampled_tie = [MoveValue(m.move, m.value, 0.0, False) for m in exact]
    _judged(sampled_tie, (0.0, 0.0, 3.0))
    said = verdict(Analysis(sampled_tie, kind="advisor estimate", exact=False, nodes=100), view)
    assert "instead is 0.0 ± 0.0 points worse: a matter of taste." in said  # worlds agreed: not exact
    # and the table says what the verdict says: a review found "+0.0" there, bare as an exact tie's,
    # under a verdict of "0.0 ± 0.0 points worse" (7 cards left, four wagers to discard)
    text = hint_text(Analysis(sampled_tie, kind="advisor estimate", exact=False, nodes=100), view)
    rows = {line.split()[0]: line for line in text.splitlines() if line.startswith(("  +B6", "  -W2"))}
    assert rows["-W2/D"].split()[4:7] == ["0.0", "±", "0.0"], rows["-W2/D"]
    assert "best" in rows["+B6/D"] and "± 0.0  " not in rows["+B6/D"].split("best")[1]
    text = hint_text(Analysis(exact, kind="view value (averaged over splits)", exact=True), view)
    rows = {line.split()[0]: line for line in text.splitlines() if line.startswith(("  +B6", "  -W2"))}
    assert rows["-W2/D"].split()[2] == "0.0" and "±" not in rows["-W2/D"]  # an exact tie: no ±


def test_an_exact_answer_names_its_stall_bound_and_says_when_it_has_not_converged():
    """A newcomer's 3-card hint read "exact (view value ...)" while its notes said "not converged"
    and the value had moved by 12 points between stall budgets: the closing line now says under
    which bound it is exact, and that it has not converged."""
    view = lc.read_position("example:midround")
    moves = [MoveValue("+B6/D", 10.0, 0.0, True)]
    moves[0].loss = 0.0
    settled = Analysis(moves, kind="view value (averaged over splits)", exact=True,
                       bounds={"max_stalls": 2, "converged": True})
    assert "exact (view value, averaged over splits) under at most 2 more discard-pile draw(s) each" in \
        hint_text(settled, view)
    assert "not converged" not in hint_text(settled, view)
    open_ = Analysis(moves, kind="view value (averaged over splits)", exact=True,
                     bounds={"max_stalls": 1, "converged": False})
    text = hint_text(open_, view)
    assert "under at most 1 more discard-pile draw(s) each; not converged: with more discard-pile draws" in text


def test_a_zero_standard_error_is_shown_unless_the_value_is_a_heuristic_leafs():
    """``uncertainty()`` gave a sampled turn's reason in words in place of its "± 0.00" when all its
    worlds agreed (so ``print(lc.advise(...))`` hid it); only a heuristic leaf's estimate, which is
    no sample mean, says so instead of a ±."""
    from lcanalysis.analysis import HEURISTIC_REASON

    sampled = MoveValue("-G9/Y", 31.0, 0.0, False, reason="discards G9 (green estimated +0 -> +0)")
    assert sampled.uncertainty() == "± 0.00" and "± 0.000 (estimate)" in sampled.describe()
    leaf = MoveValue("+R7/D", 3.5, 0.0, False, reason=HEURISTIC_REASON)
    assert leaf.uncertainty() == HEURISTIC_REASON
    text = Analysis([sampled], kind="advisor estimate", exact=False).to_text()
    assert "+31.00 ± 0.00" in text


def test_a_bound_keeps_the_standard_error_it_has_and_gets_no_invented_one():
    """A turn the sampled endgame search only bounded ("≤") shows the standard error it carries, in
    its value and in the verdict, as before the "± 0.0" of agreeing worlds; with none it shows no ±."""
    view = lc.read_position("example:midround")
    best = MoveValue("+B6/D", 10.0, 0.5, False)
    bound = MoveValue("-W2/D", 4.0, 0.7, False, extra={"bound": "upper"})
    flat = MoveValue("-W3/D", 3.0, 0.0, False, extra={"bound": "upper"})
    for m, (loss, se) in zip((best, bound, flat), ((0.0, 0.0), (6.0, 0.4), (7.0, 0.0))):
        m.loss, m.loss_stderr = loss, se
    analysis = Analysis([best, bound, flat], kind="view value (sampled worlds)", exact=False, splits=8)
    text = hint_text(analysis, view)
    rows = {line.split()[0]: line for line in text.splitlines() if line.startswith(("  -W2", "  -W3"))}
    assert "≤ +4.0 ± 0.7" in rows["-W2/D"] and "≤ -6.0 ± 0.4" in rows["-W2/D"]
    assert "≤ +3.0 " in rows["-W3/D"] and "±" not in rows["-W3/D"].split("discard")[0]
    assert "instead is at least 6.0 ± 0.4 points worse" in verdict(analysis, view)


def test_a_match_hint_names_each_seats_running_total():
    """The head read 'totals [-5, 110]' and the drawn position 'match totals -5-110', which reads as
    a range; both now name the seats."""
    from lcanalysis.game.notation import read_position
    from lcanalysis.show.render import _match_note

    view = read_position("LC1;c5;h8;nr;m0;v0;p0=Y9.Bw.B4.W8.W9.G6.G10.R10;p1=?8;d=44;match=2:-5,110")
    head = hint_text(lc.advise(view, time_budget=0.01, seed=0), view).splitlines()[0]
    assert head.endswith("round 2 of the match, totals you (player 0) -5, opponent (player 1) 110")
    assert _match_note(view.match) == ["round 2, match totals player 0 -5, player 1 110"]  # a full position
    # a player's view names the seats as its board does ("you (player 1)"): at seat 1 in 'lcanalysis play
    # --rounds 3' the board said "match totals player 0 143, player 1 -46" beside "you (player 1)"
    seat1 = read_position("LC1;c5;h8;nr;m1;v1;p0=?8;p1=Y9.Bw.B4.W8.W9.G6.G10.R10;d=44;match=2:143,-46")
    assert "round 2, match totals opponent (player 0) 143, you (player 1) -46" in seat1.to_text().splitlines()
    head = hint_text(lc.advise(seat1, time_budget=0.01, seed=0), seat1).splitlines()[0]
    assert head.endswith("totals opponent (player 0) 143, you (player 1) -46")


@pytest.mark.parametrize("schedule", ["halving", "two-stage"])
def test_the_advise_answer_is_the_specs_loss_is_the_best_value_minus_this_one_and_best_first(schedule):
    """docs/spec/interchange.md: every legal turn, best first; ``loss`` the best turn's value minus
    this turn's. It used to hold only for turns played in all of the best's worlds (a turn dropped
    early showed its own mean, up to 15 points off the best's value minus its loss)."""
    from lcanalysis.show.hint import hint_json

    view = lc.read_position("LC1;c5;h8;nr;m0;v0;p0=Y9.Bw.B4.W8.W9.G6.G10.R10;p1=?8;e0=Y3.Y5.Bw.B6.B8.B9.W3.Gw.Gw.G2.G5;"
                            "e1=B3.B5.B7.G4.G7;x=Yw.W?.W?.Ww.R?.R2;d=22")
    answer = hint_json(lc.advise(view, time_budget=0.3, seed=2, schedule=schedule), view)
    moves = answer["moves"]
    best = moves[0]["value"]
    assert all(m["loss"] == pytest.approx(best - m["value"], abs=1e-9) for m in moves)
    assert all(a["value"] >= b["value"] - 1e-9 for a, b in itertools.pairwise(moves))
    assert sum(m["own_mean"] != pytest.approx(m["value"]) for m in moves[1:]) > 0  # some turns had fewer worlds


def test_a_turn_only_bounded_at_the_best_value_is_not_called_the_best():
    """An upper bound equal to the best's value says only that the turn is no better: the 'vs best'
    column showed 'best' beside '≤ +36.2'."""
    bounded = MoveValue("-R5/D", 36.2, 1.5, False)
    bounded.extra["bound"] = "upper"
    bounded.loss, bounded.loss_stderr = 0.0, 0.0
    assert bounded.loss_text(digits=1) == "≤ 0.0"
    exact = MoveValue("-Rw/D", 36.2, 1.5, False)
    exact.loss, exact.loss_stderr = 0.0, 0.0
    assert exact.loss_text() == "best"


def _exact_answer_with_bounds(bound_loss: float) -> Analysis:
    """An exact endgame answer (one world, no errors) where two draws after the best placement share
    a figure with the best turn but only as an upper bound, and one other placement is a bound too."""
    moves = [MoveValue("+B6/D", 10.0, 0.0, True), MoveValue("+B6/Y", 10.0, 0.0, True),
             MoveValue("+B6/B", 10.0, 0.0, True), MoveValue("-W2/D", 10.0 - bound_loss, 0.0, True),
             MoveValue("-W2/Y", 3.0, 0.0, True)]
    for m, bound in zip(moves, [False, True, True, True, False]):
        m.loss = 10.0 - m.value
        m.loss_stderr = 0.0
        if bound:
            m.extra["bound"] = "upper"
    return Analysis(moves, kind="view value", exact=True, nodes=10)


def test_a_turns_place_says_only_what_the_endgame_searchs_bounds_tell():
    """Found at the table: with 3 cards left the hint, its close turns only bounded on a busy machine,
    put a turn 1.0 point worse than the best (6th by the exact solve) "41 of 58 turns": the place
    among upper bounds, stated as a fact. Checked against true values drawn at random within what the
    answer says: a bounded turn is worth anything up to its figure, so its place, and the place of a
    turn listed below bounded ones, is a range that holds the true place."""
    rng = np.random.default_rng(5)
    for _ in range(200):
        n = int(rng.integers(1, 7))
        moves = [MoveValue(f"+Y{k + 2}/D", float(v), 0.0, True) for k, v in enumerate(sorted(
            rng.integers(0, 5, n), reverse=True))]
        for m in moves[1:]:
            if rng.random() < 0.5:
                m.extra["bound"] = "upper"
        seen: dict[str, set[int]] = {m.move: set() for m in moves}
        for _world in range(60):  # true values: a bound anywhere at or below its figure, ties broken as listed
            true = [m.value - (float(rng.integers(0, 6)) if m.upper_bound else 0.0) for m in moves]
            order = sorted(range(n), key=lambda i: (-true[i], i))
            for place, i in enumerate(order, start=1):
                seen[moves[i].move].add(place)
        for m in moves:
            said = place_in_words(moves, m.move)
            low, high = (int(said.split()[2]), n) if said.startswith("at best") else (
                (int(said.split()[0]), int(said.split()[2])) if " to " in said else (int(said.split()[0]),) * 2)
            assert said.endswith(f" of {n}") and min(seen[m.move]) >= low and max(seen[m.move]) <= high, (said, seen)
    bounded = [MoveValue("+B6/D", 30.1, 0.0, True), MoveValue("-B10/D", 30.1, 0.0, True),
               MoveValue("-W3/D", 30.1, 0.0, True), MoveValue("+G9/D", 29.1, 0.0, True)]
    for m in bounded[1:]:
        m.extra["bound"] = "upper"
    assert [place_in_words(bounded, m.move) for m in bounded] == ["1 of 4", "at best 2 of 4", "at best 2 of 4",
                                                                  "at best 2 of 4"]
    bounded[3].extra.clear()  # an exact turn under bounded ones: it may be second
    assert place_in_words(bounded, "+G9/D") == "2 to 4 of 4"


def test_a_turn_the_player_has_in_mind_is_judged_in_one_line_under_the_verdict(capsys):
    """Found by a review playing at a table: the hint showed the best six placements, and a turn
    further down (the one the player meant to play) only with --all, in a list of 45. 'advise
    --turn MOVE' now says under the verdict what that turn loses, in the verdict's words, and where
    it stands; an illegal or unreadable turn is refused naming the option before any thinking."""
    view = lc.read_position("example:midround")
    estimate = _made_up_analysis()
    head = "The turn you have in mind, to "  # (it read "Your turn, to ...", which at a table means "it is your turn")
    assert your_turn(estimate, view, "-W2/D") == (head + "discard W2 and draw from the deck (-W2/D), is 6.0 ± 1.0 "
                                                 "points worse than the best: clearly worse (ranked 4 of 4 turns).")
    assert your_turn(estimate, view, "+B6/D") == head + "play B6 and draw from the deck (+B6/D), is the best turn."
    exact = _exact_answer_with_bounds(4.5)
    assert your_turn(exact, view, "-W2/Y") == (head + "discard W2 and take Y2 from the yellow pile (-W2/Y), is "
                                              "7.0 points worse than the best, exactly: clearly worse "
                                              "(ranked 2 to 5 of 5 turns).")  # (3 bounded turns above it may lie below)
    assert your_turn(exact, view, "-W2/D") == (head + "discard W2 and draw from the deck (-W2/D), is at least "
                                              "4.5 points worse than the best: at least clearly worse "
                                              "(ranked at best 2 of 5 turns).")
    assert your_turn(exact, view, "+B6/Y").endswith("is no better than the best (searched only far enough to show "
                                                     "that): ranked at best 2 of 5 turns.")
    text = hint_text(estimate, view, turn="-W2/D")
    lines = text.splitlines()
    at = next(i for i, line in enumerate(lines) if line.startswith("What it does:")) if any(
        line.startswith("What it does:") for line in lines) else 2
    assert lines[at + 1].startswith("The turn you have in mind, to discard W2"), lines
    # a real answer: the line gives the analysis's own loss for the turn, and its place among every legal turn
    answer = lc.advise(view, time_budget=0.05, seed=0)
    m = next(m for m in answer.moves if m.move == "-W2/D")
    said = your_turn(answer, view, "-W2/D")
    assert f"is {m.loss:.1f} ± {m.loss_stderr:.1f} points worse than the best: " in said, said
    assert said.endswith(f" of {len(view.legal_moves())} turns).")
    # the command: a discard after --turn reads ('-W2/D' begins with '-'), bad turns are refused at once
    code = main(["advise", "example:midround", "--time", "0.05", "--all", "--turn", "-W2/D"])
    out = capsys.readouterr().out
    assert code == 0 and "\nThe turn you have in mind, to discard W2 and draw from the deck (-W2/D), is " in out
    # several turns in mind: a line for each, in the order given (a second --turn was the only one)
    code = main(["advise", "example:midround", "--time", "0.05", "--turn", "-W2/D", "--turn", "+b6/g"])
    out = capsys.readouterr().out
    mine = [line for line in out.splitlines() if line.startswith("The turn you have in mind, to ")]
    assert code == 0 and [line.split("(")[1].split(")")[0] for line in mine] == ["-W2/D", "+B6/G"], mine
    for bad, words in ((["--turn", "+R7/D"], "argument --turn: +R7/D is not legal here: that card is not in the hand"),
                       (["--turn", "W2"], "argument --turn: move 'W2' is a card, not a turn"),
                       (["--turn", "-W2/D", "--json"], "--turn adds a line to the text answer"),
                       (["--turn", "-W2/D", "--turn", "+R7/D"], "argument --turn: +R7/D is not legal here"),
                       # a turn typed twice is refused, naming it (it was shown once, the repeat dropped in silence)
                       (["--turn", "-W2/D", "--turn", "+b6/g", "--turn", "-w2/d"],
                        "argument --turn: -W2/D is given twice")):
        assert main(["advise", "example:midround", "--time", "0.05", *bad]) == 2
        captured = capsys.readouterr()
        assert captured.out == "" and words in captured.err, captured.err


def test_an_upper_bound_is_never_merged_into_a_row_with_an_exact_value():
    """Found by a review: '+G8/W /Y /B /G /R -18.4 best', the last four only bounds at that figure.
    A row of merged draws lists only turns with the very same figure and kind: the bounds get a row
    of their own, marked ≤."""
    view = lc.read_position("example:midround")
    analysis = _exact_answer_with_bounds(4.5)
    rows = [line.split() for line in hint_text(analysis, view, draws=None).splitlines()
            if line.startswith("  ") and line.split()[0].startswith(("+", "-", "/"))]
    assert rows[0][:3] == ["+B6/D", "+10.0", "best"]
    assert rows[1][:5] == ["/Y", "/B", "≤", "+10.0", "≤"]


@pytest.mark.parametrize(("bound_loss", "said"), [
    (0.0, "To discard W2 and draw from the deck instead is no better (searched only far enough to show that)."),
    (4.5, "To discard W2 and draw from the deck instead is at least 4.5 points worse: at least clearly worse."),
])
def test_the_verdict_on_a_bound_says_only_what_the_bound_shows(bound_loss, said):
    """A bound of about 0 is no 'matter of taste': the turn may be far worse, the search only showed
    it is no better. A larger bound is a loss of at least that much, in figures and in words."""
    view = lc.read_position("example:midround")
    assert said in verdict(_exact_answer_with_bounds(bound_loss), view)


def _answer_with_a_bound_above_a_known_turn(kind: str, known_loss: float, known_se: float) -> Analysis:
    """An endgame answer on a busy machine: the best turn, a turn the clock left bounded at the best's
    value ("no better"; its loss a few thousandths below 0, as summed over the worlds), ranked above a
    turn of another placement whose value is known (its loss ``known_loss`` ± ``known_se``), and a
    turn far below."""
    exact = kind.startswith("view value (averaged")
    se = 0.0 if exact else 1.0
    moves = [MoveValue("+B6/D", 10.0, se, exact), MoveValue("-W2/D", 10.0, se, False),
             MoveValue("+G5/D", 10.0 - known_loss, se, exact), MoveValue("-W2/Y", 3.0, se, exact)]
    for m, loss, loss_se in zip(moves, (0.0, -0.004, known_loss, 7.0), (0.0, 0.0, known_se, 0.0 if exact else 0.5)):
        m.loss, m.loss_stderr = loss, loss_se
    moves[1].extra["bound"] = "upper"
    return Analysis(moves, kind=kind, exact=exact, nodes=10, splits=None if exact else 40)


@pytest.mark.parametrize(("kind", "known_loss", "known_se", "said"), [
    ("view value (averaged over splits)", 0.0, 0.0,
     "To play G5 and draw from the deck instead is just as good: the same exact value."),
    ("view value (averaged over splits)", 0.4, 0.0,
     "To play G5 and draw from the deck instead is 0.4 points worse, exactly: a matter of taste."),
    ("view value (sampled worlds)", 0.02, 0.05,
     "To play G5 and draw from the deck instead is 0.0 ± 0.1 points worse: a matter of taste."),
])
def test_the_verdict_names_a_turn_whose_value_is_known_before_a_bound_at_the_best(kind, known_loss, known_se, said):
    """Found on a loaded machine: the 10 s clock left the close turns only bounded, and the verdict
    named one of them ("no better: searched only far enough to show that") while another turn was an
    exact tie with the best. A turn whose value is known (exact or estimated) within a matter of taste
    of what the bound shows is now named instead; the bound stays in the table, marked ≤."""
    view = lc.read_position("example:midround")
    analysis = _answer_with_a_bound_above_a_known_turn(kind, known_loss, known_se)
    assert [ms[0].move for _, ms in groups(analysis)][:2] == ["+B6/D", "-W2/D"]  # the bound ranks above it
    text = verdict(analysis, view)
    assert said in text and "searched only far enough" not in text, text
    assert "≤" in hint_text(analysis, view)


def test_the_verdict_still_names_a_bound_when_every_known_turn_is_clearly_worse():
    """A bound says only that a turn is no better; a known turn far below it says nothing about it,
    so the bound is named, saying it is one."""
    view = lc.read_position("example:midround")
    analysis = _answer_with_a_bound_above_a_known_turn("view value (averaged over splits)", 5.0, 0.0)
    assert ("To discard W2 and draw from the deck instead is no better (searched only far enough to show that)."
            in verdict(analysis, view))


@pytest.mark.parametrize(("loss", "stderr", "exact", "bound", "signed", "text"), [
    (3.0, 0.0, True, False, False, "3.0 (exact)"),
    (3.0, 0.42, False, False, False, "3.0 ± 0.4"),
    (3.0, None, False, False, False, "3.0 ± 0.0"),  # an estimate always shows its error, even an unknown one
    (3.0, 0.0, False, True, False, "at least 3.0"),  # an exact bound has no error to give
    (3.0, 0.42, False, True, False, "at least 3.0 ± 0.4"),  # a sampled bound keeps its error
    (9.0, 0.04, False, True, False, "at least 9.00 ± 0.04"),  # an error too small for one decimal: two
    (3.0, 0.004, False, False, False, "3.000 ± 0.004"),  # (it said "± 0.0", a precision it has not)
    (3.0, 0.00001, False, False, True, "-3.0000 ± 0.0000"),  # at most 4 decimals
    (3.0, 0.0, True, False, True, "-3.0 (exact)"),
    (3.0, 0.42, False, False, True, "-3.0 ± 0.4"),
    (3.0, 0.42, False, True, True, "≤ -3.0 ± 0.4"),
    (0.0, 0.0, False, True, True, "≤ -0.0"),
])
def test_a_loss_in_words_says_whether_it_is_exact_an_estimate_or_a_bound(loss, stderr, exact, bound, signed, text):
    from lcanalysis.analysis import loss_in_words

    assert loss_in_words(loss, stderr, exact=exact, bound=bound, signed=signed) == text


def test_the_tutor_and_the_review_word_the_same_loss_alike():
    """Both readers of a judged turn take their words from one place: the tutor used to drop a
    sampled bound's error ("at least 3.0" where the review said "at least 3.0 ± 0.4")."""
    from lcanalysis.reviewer import Decision as Reviewed
    from lcanalysis.tutor import Decision as Tutored

    fields = dict.fromkeys(Reviewed.__dataclass_fields__, 0)
    for loss, se, exact, bound in itertools.product((0.5, 3.0), (0.0, 0.42), (False, True), (False, True)):
        if exact and (se or bound):
            continue  # an exact loss has no error and is no bound
        tutored = Tutored(round=0, turn=0, played="+B6/D", best="+B7/D", loss=loss, loss_stderr=se, exact=exact,
                          bound=bound)
        reviewed = Reviewed(**{**fields, "loss": loss, "loss_stderr": se, "exact": exact,
                               "loss_bound": "lower" if bound else None})
        assert tutored.loss_text(signed=False) == reviewed.loss_text()
        assert (" ± " in reviewed.loss_text()) == bool(se or not (exact or bound))


def test_the_hint_says_what_the_best_turn_does_and_the_json_gives_every_turn_s_reason(capsys):
    """The reason the advisor gives each turn (``advisor.reason``) reaches the player: the best
    turn's under the verdict, every turn's in --json."""
    from lcanalysis.advisor import reason

    view = lc.read_position("example:midround")
    assert main(["advise", "example:midround", "--time", "0.2", "--json"]) == 0
    answer = json.loads(capsys.readouterr().out)
    assert all(row["reason"] == reason(view, row["move"]) for row in answer["moves"])
    assert main(["advise", "example:midround", "--time", "0.2", "--top", "2"]) == 0
    lines = capsys.readouterr().out.splitlines()
    header = next(i for i, line in enumerate(lines) if line.split()[:2] == ["turn", "value"])
    best = lines[header + 1].split()[0]  # the table's first row: the best turn
    assert lines[2].startswith(("Play", "Discard")) and lines[3] == f"What it does: {reason(view, best)}."


def test_a_bound_of_about_zero_reads_zero_with_no_sign_never_minus_zero_beside_plus_zero():
    """Near the end the endgame search bounds many turns at about the best's value; their losses, a few
    thousandths either side of 0, showed as "≤ +0.0" and "≤ -0.0" in the same column (a view of a played
    round, 3 cards left), as though one were better. A rounded 0 now always reads "0.0", with no sign
    (a "+" read as a gain). With an error of 0.01 (sampled worlds) the figures take the two decimals
    the error needs, never "± 0.0"."""
    bound = {"bound": "upper"}
    with_error = {0.0: "≤ 0.00 ± 0.01", 1e-12: "≤ 0.00 ± 0.01", 0.004: "≤ 0.00 ± 0.01", 0.049: "≤ -0.05 ± 0.01",
                  -1e-12: "≤ 0.00 ± 0.01", -0.006: "≤ +0.01 ± 0.01"}
    for loss, said in with_error.items():
        assert MoveValue("-Gw/D", -102.9, loss=loss, extra=bound).loss_text(digits=1) == (
            "≤ 0.0" if abs(loss) < 0.05 else f"≤ {-loss:+.1f}")
        assert MoveValue("-Gw/D", -102.9, loss=loss, loss_stderr=0.01, extra=bound).loss_text(1) == said
    assert MoveValue("-Gw/D", -104.0, loss=1.04, extra=bound).loss_text(digits=1) == "≤ -1.0"
    assert MoveValue("-Gw/D", -103.0, loss=0.0, loss_stderr=0.0).loss_text(digits=1) == "best"


def test_exact_ties_rank_by_the_canonical_order_and_show_a_loss_of_zero():
    """Two equal exact values that came out 1e-14 apart were ranked by that noise (the other summation
    order named the other turn best), the tie got a loss of 1.4e-14 (or -1.4e-14, a gain) and both
    rows read "best". Now the tie ranks in the canonical order of turns (+B6/D before -W2/D, as
    ``legal_moves`` lists them) whichever value came out higher, its loss is 0.0, and only the turn
    named best reads "best": the tie reads a loss of 0."""
    view = lc.read_position("example:midround")
    for high, low in (("+B6/D", "-W2/D"), ("-W2/D", "+B6/D")):
        moves = [MoveValue("+G5/D", 7.0), MoveValue(low, 10.0 - 1e-14), MoveValue(high, 10.0)]
        analysis = Analysis(moves, kind="view value (averaged over splits)", exact=True)
        analysis.set_exact_losses()
        assert [m.move for m in analysis.moves] == ["+B6/D", "-W2/D", "+G5/D"]
        assert [m.loss for m in analysis.moves] == [0.0, 0.0, pytest.approx(3.0)]
        assert [row["loss"] for row in analysis.to_json()["moves"]][:2] == [0.0, 0.0]
        text = analysis.to_text()
        assert text.count("(best)") == 1 and "-W2/D" in text and "(0.00 vs best)" in text
        table = {line.split()[0]: line for line in hint_text(analysis, view).splitlines()
                 if line.startswith(("  +B6", "  -W2"))}
        assert table["+B6/D"].split()[2] == "best" and table["-W2/D"].split()[2] == "0.0"
        assert "just as good: the same exact value" in verdict(analysis, view)


def test_the_play_outs_are_not_called_worlds():
    """The advisor's note said "... with the heuristic policy in 1500 sampled worlds", and the long
    footer the same, where 1,500 was every turn's play-outs summed: the turns share their worlds, and
    successive halving played most turns in only the first few. Both now give the play-outs and the
    worlds apart: the worlds are the most any turn was played in, the play-outs every turn's summed."""
    view = lc.read_position("example:midround")
    analysis = lc.advise(view, time_budget=0.1, seed=0)
    sizes = [m.extra["worlds"] for m in analysis.moves]
    assert sum(sizes) == analysis.playouts == 1500 and max(sizes) < analysis.playouts
    said = f"{analysis.playouts:,} play-outs over {max(sizes):,} sampled worlds"
    assert f"the heuristic policy, {said}, every turn in the first {min(sizes)} and" in analysis.notes[-1]
    assert f"the heuristic policy, {said} of the unseen cards" in hint_text(analysis, view, top=None)
    assert "1500 sampled worlds" not in analysis.notes[-1] + hint_text(analysis, view, top=None)


def test_a_play_out_verdict_near_the_end_says_the_play_outs_can_be_far_off():
    """With 4 cards or fewer the play-outs can be many points off (the notes said so, and its ± counts
    the sampling only), but the verdict still read "7.4 ± 0.1 points worse: clearly worse" as if that were
    known; it now says the verdict is the play-outs' and how far off they can be. Mid-round it does not."""
    pos = played_down(2, 4)
    view = pos.view(pos.to_move)
    near_end = lc.advise(view, time_budget=0.05, endgame_cards=0)  # play-outs, by request
    said = verdict(near_end, view)
    assert near_end.kind == "advisor estimate"
    assert f"By play-outs, which with {view.deck_count} card(s) left can be many points off either way" in said
    mid = lc.read_position("example:midround")
    assert "By play-outs" not in verdict(lc.advise(mid, time_budget=0.05), mid)
    from lcanalysis.advisor import ENDGAME_CARDS

    # one card beyond the search's reach for a view, where the play-outs answer by default, it says so too
    five = played_down(2, ENDGAME_CARDS + 1)
    view = five.view(five.to_move)
    by_default = lc.advise(view, time_budget=0.05)
    assert by_default.kind == "advisor estimate"
    said = verdict(by_default, view)
    assert f"By play-outs, which with {ENDGAME_CARDS + 1} card(s) left can be many points off" in said
    six = played_down(2, ENDGAME_CARDS + 2)
    view = six.view(six.to_move)
    assert "By play-outs" not in verdict(lc.advise(view, time_budget=0.05), view)
    last = played_down(5, 2)
    view = last.view(last.to_move)
    exact = lc.advise(view, time_budget=1.0)  # the endgame search answers: no such words
    assert exact.kind != "advisor estimate" and "By play-outs" not in verdict(exact, view)


def test_an_exact_tie_that_lists_a_stall_first_is_played_as_the_plain_turn_the_tie_said():
    """Found by a new user: tied turns are listed in the canonical order, so at 2 cards (played-down
    seed 4) discarding Y2 and taking W4 from the white pile came first and the verdict led with that
    stall, though playing G9 and drawing from the deck has the very same exact value. The list and the
    JSON keep the spec's order; the verdict now names the plain turn and says it ties with the first."""
    pos = played_down(4, 2)
    view = pos.view(pos.to_move)
    analysis = lc.advise(view, seed=0)
    assert analysis.exact and [m.move for m in analysis.moves[:1]] == ["-Y2/W"]  # the canonical order stays
    # the tie, by the plain view-value search at the answer's own stall budget
    plain = {m.move: m.value for m in lc.solve(view, max_stalls=analysis.bounds["max_stalls"]).moves}
    assert plain["+G9/D"] == pytest.approx(plain["-Y2/W"], abs=1e-9)
    assert not any(plain[m.move] > plain["+G9/D"] + 1e-9 for m in analysis.moves)  # and nothing is better
    said = verdict(analysis, view)
    assert said.startswith("Play G9 and draw from the deck. It ties exactly with the turn listed first, to discard "
                           "Y2 and take W4 from the white pile (the same exact value; ")
    answer = hint_json(analysis, view)
    assert answer["verdict"] == said and [m["move"] for m in answer["moves"]] == [m.move for m in analysis.moves]
    text = hint_text(analysis, view)
    assert "What it does: extends green with G9" in text  # what the named turn does, not the stall's
    rows = [line.split() for line in text.splitlines() if line.startswith("  -Y2/W")]
    assert rows and "best" in rows[0]  # the table still calls the first turn best


def test_a_standard_error_too_small_for_one_decimal_is_shown_in_as_many_as_it_needs_never_as_zero():
    """At a table, with 13 cards left, the hint read "To play B9 and draw from the deck instead is 0.3 ±
    0.0 points worse" and "-0.3 ± 0.0" in its table for a paired error of about 0.04, which reads as
    the exact agreement of every world ("± 0.0" means that). Such an error now shows the decimals it
    needs, the amount beside it too; an error of exactly 0 keeps "± 0.0"."""
    view = lc.read_position("example:midround")
    moves = [MoveValue("+B6/D", -20.61, 0.31, False), MoveValue("-W2/D", -20.92, 0.03, False),
             MoveValue("+B6/Y", -21.61, 0.4, False)]
    for m, (loss, se) in zip(moves, [(0.0, 0.0), (0.31, 0.042), (1.0, 0.0)]):
        m.loss, m.loss_stderr = loss, se
    analysis = Analysis(moves, kind="advisor estimate", exact=False, nodes=100)
    assert "instead is 0.31 ± 0.04 points worse: a matter of taste." in verdict(analysis, view)
    text = hint_text(analysis, view)
    rows = {line.split()[0]: line for line in text.splitlines() if line.startswith(("  +B6", "  -W2", "    /Y"))}
    assert rows["-W2/D"].split()[1:7] == ["-20.92", "±", "0.03", "-0.31", "±", "0.04"], rows["-W2/D"]
    assert rows["/Y"].split()[1:7] == ["-21.6", "±", "0.4", "-1.0", "±", "0.0"], rows["/Y"]  # worlds agreed: 0
    assert "± 0.0 " not in rows["-W2/D"] and "± 0.00" not in text
    assert "0.31 ± 0.04 points worse" in your_turn(analysis, view, "-W2/D")  # as the --turn line says it


def test_merged_draws_name_the_piles_they_stand_for():
    """At a table the hint read "discard Ww and draw from the deck (or 2 other pile(s), the same)", leaving
    the player to find which piles (and calling the deck a pile); the merged draws are now named."""
    view = lc.read_position("example:midround")
    moves = [MoveValue("-W2/D", 5.0, 0.0, True), MoveValue("-W2/Y", 5.0, 0.0, True),
             MoveValue("-W2/R", 5.0, 0.0, True), MoveValue("+B6/B", 1.0, 0.0, True),
             MoveValue("+B6/W", 1.0, 0.0, True), MoveValue("+B6/R", 1.0, 0.0, True), MoveValue("+B6/D", 1.0, 0.0, True)]
    for m in moves:
        m.loss = 5.0 - m.value
    text = hint_text(Analysis(moves, kind="view value (averaged over splits)", exact=True), view)
    rows = {line.split()[0]: line for line in text.splitlines() if line.startswith(("  -W2", "  +B6"))}
    assert rows["-W2/D"].split()[1:3] == ["/Y", "/R"]
    assert rows["-W2/D"].endswith("discard W2 and draw from the deck (or the yellow or red pile: the same value)")
    assert rows["+B6/D"].split()[1:4] == ["/B", "/W", "/R"]
    assert rows["+B6/D"].endswith("play B6 and draw from the deck (or the blue, white or red pile: the same value)")
    assert "other pile(s)" not in text
    from lcanalysis.show.hint import _same_value_sources  # the deck, where it is not the row's first draw

    assert _same_value_sources([MoveValue("+B6/R", 1.0), MoveValue("+B6/D", 1.0)]) == \
        " (or the deck or the red pile: the same value)"


def test_draws_whose_values_differ_by_rounding_noise_merge_and_estimates_that_round_alike_do_not():
    """A review asking the hint at every turn saw "≤ +21.7  ≤ -5.4" three times in a row under one
    placement (3 cards left, a view of ``played_down(0, 3)``): the same bound summed in another order,
    21.700000000000003 against 21.7, was not merged. Values within ``TIE`` now merge, as they tie in the
    ranking; two play-out estimates that only round alike (-41.77 ± 0.20 and -41.79 ± 0.21, seen on
    ``played_down(1, 3)``) are different outcomes and stay apart."""
    view = lc.read_position("example:midround")
    bounds = [MoveValue("-W2/B", 26.4, 0.0, True, loss=0.0)] + [
        MoveValue(f"-W2/{src}", value, 0.0, False, loss=loss, extra={"bound": "upper"})
        for src, value, loss in (("D", 21.700000000000003, 5.399999999999998), ("Y", 21.700000000000003,
                                 5.399999999999999), ("W", 21.7, 5.399999999999999), ("R", 21.7, 5.399999999999999))]
    text = hint_text(Analysis(bounds, kind="endgame search", exact=False), view, top=None, draws=None)
    merged = [line for line in text.splitlines() if "≤ +21.7" in line]
    assert len(merged) == 1 and merged[0].split()[:4] == ["/D", "/Y", "/W", "/R"], text
    estimates = [MoveValue("+B6/R", -41.0, 0.1, False, loss=0.0, loss_stderr=0.0),
                 MoveValue("+B6/W", -41.767361111111114, 0.20257358490637267, False, loss=0.767361111111111,
                           loss_stderr=0.2),
                 MoveValue("+B6/Y", -41.79166666666667, 0.21129474161998754, False, loss=0.7916666666666664,
                           loss_stderr=0.2)]
    text = hint_text(Analysis(estimates, kind="advisor estimate", exact=False, nodes=100), view, top=None, draws=None)
    alike = [line.split()[:4] for line in text.splitlines() if "-41.8 ± 0.2" in line]
    assert alike == [["/W", "-41.8", "±", "0.2"], ["/Y", "-41.8", "±", "0.2"]], text
