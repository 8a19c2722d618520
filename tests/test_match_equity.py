"""The match equity table, match values of play-outs, match-aware ranking and the match-aware agent."""

from __future__ import annotations

import copy
import itertools
import json
import os
import re
from pathlib import Path

import numpy as np
import pytest
from helpers import other_world

from lcanalysis.agents import AgentError, make_agent
from lcanalysis.game.match import Match
from lcanalysis.game.position import Position
from lcanalysis.game.rules import Rules
from lcanalysis.match_equity import (
    TABLE_PATH,
    MatchEquity,
    MatchEquityError,
    match_analysis,
    match_state,
    match_values,
    round_starter,
)

ROOT = Path(__file__).resolve().parent.parent
LEADS = np.arange(-400, 401)


@pytest.fixture(scope="module")
def shipped() -> MatchEquity:
    return MatchEquity.load()


# --- the table -------------------------------------------------------------------------------


@pytest.mark.parametrize("rounds_left", [1, 2, 3])
@pytest.mark.parametrize("i_start", [True, False])
def test_the_table_is_monotone_in_the_lead(shipped, rounds_left, i_start):
    w = shipped.win_probability(LEADS, rounds_left, np.full(len(LEADS), i_start))
    assert np.all(np.diff(w) >= -1e-12)
    assert w[0] < 0.01 and w[-1] > 0.99  # and it spans from lost to won


def test_with_no_rounds_left_the_lead_decides_exactly(shipped):
    for i_start in (True, False):
        assert shipped.win_probability(1, 0, i_start) == 1.0
        assert shipped.win_probability(0, 0, i_start) == 0.5
        assert shipped.win_probability(-1, 0, i_start) == 0.0
        assert shipped.outcome(0, 0, i_start) == (0.0, 1.0, 0.0)
        assert shipped.outcome(7, 0, i_start) == (1.0, 0.0, 0.0)
        assert shipped.outcome(-7, 0, i_start) == (0.0, 0.0, 1.0)


def test_my_equity_and_the_opponents_add_up_to_one(shipped):
    """The opponent at -lead starts next exactly when I do not: the two equities add to 1, starter
    effect or not (ties count half for both)."""
    for n in (1, 2, 3):
        for i_start in (True, False):
            mine = shipped.win_probability(LEADS, n, np.full(len(LEADS), i_start))
            theirs = shipped.win_probability(-LEADS, n, np.full(len(LEADS), not i_start))
            np.testing.assert_allclose(mine + theirs, 1.0, atol=1e-12)


def test_a_symmetric_round_without_starter_effect_gives_a_symmetric_table():
    rng = np.random.default_rng(3)
    half = rng.integers(1, 50, 40).astype(float)
    diffs = np.arange(-40, 41)
    weights = np.concatenate([half[::-1], [7.0], half])  # weight(d) == weight(-d)
    eq = MatchEquity.from_counts(dict(zip(diffs.tolist(), weights.tolist())))
    for n in (1, 2, 3):
        for i_start in (True, False):
            p = eq.win_probability(LEADS, n, np.full(len(LEADS), i_start))
            q = eq.win_probability(-LEADS, n, np.full(len(LEADS), i_start))
            np.testing.assert_allclose(p + q, 1.0, atol=1e-12)
        np.testing.assert_allclose(eq.table(n, True, LEADS), eq.table(n, False, LEADS), atol=1e-12)
    assert eq.win_probability(0, 3, True) == pytest.approx(0.5, abs=1e-12)


def _brute_force(pmf: dict[int, float], lead: int, rounds_left: int, i_start: bool, tied_start: str
                 ) -> tuple[float, float]:
    """(P(win), P(draw)) by enumerating every sequence of round results, the starters chosen by the
    game's own ``Match`` (player 0 is "me", ahead by ``lead``; the first round's starter is given)."""
    win = draw = 0.0
    for seq in itertools.product(pmf.items(), repeat=rounds_left):
        m = Match(rules=Rules(rounds=rounds_left, tied_start=tied_start), first_starter=0 if i_start else 1)
        m.totals = [lead, 0]
        prob = 1.0
        for d, p in seq:
            starter = m.next_starter()
            m.record((d, 0) if starter == 0 else (0, d), starter)  # d: starter minus other
            prob *= p
        w = m.winner()
        win += prob * (w == 0)
        draw += prob * (w is None)
    return win, draw


@pytest.mark.parametrize("tied_start", ["alternate", "same"])
def test_the_dynamic_programme_equals_brute_force_enumeration(tied_start):
    pmf = {-7: 0.2, -2: 0.1, 0: 0.15, 3: 0.3, 9: 0.25}  # a starter edge and level rounds
    eq = MatchEquity(np.array(list(pmf)), np.array(list(pmf.values())), tied_start)
    for n in (1, 2, 3):
        for lead in range(-25, 26):
            for i_start in (True, False):
                w, d = _brute_force(pmf, lead, n, i_start, tied_start)
                got_w, got_d, got_l = eq.outcome(lead, n, i_start)
                assert got_w == pytest.approx(w, abs=1e-12) and got_d == pytest.approx(d, abs=1e-12)
                assert got_l == pytest.approx(1 - w - d, abs=1e-12)
                assert eq.win_probability(lead, n, i_start) == pytest.approx(w + d / 2, abs=1e-12)


def test_a_long_match_keeps_only_the_leads_still_in_play_and_its_equities_stay_exact(shipped):
    """The table of n rounds left spanned every lead n rounds could reach (40 rounds: 40 x 192
    each way, 45 s and 340 MB; the 1000 rounds the rules allow, hours and gigabytes, in the
    middle of an ``advise``). Leads whose match is decided to within ``DECIDED`` are now cut off
    level by level; the equities still equal a full-width recursion to 1e-12."""
    from functools import cache

    pmf = {-7: 0.2, -2: 0.1, 0: 0.15, 3: 0.3, 9: 0.25}
    eq = MatchEquity(np.array(list(pmf)), np.array(list(pmf.values())), "alternate")

    @cache
    def full(lead: int, n: int, i_start: bool) -> float:  # every lead, nothing cut off
        if n == 0:
            return 1.0 if lead > 0 else 0.5 if lead == 0 else 0.0
        total = 0.0
        for d, p in pmf.items():
            after = lead + (d if i_start else -d)
            total += p * full(after, n - 1, after > 0 or (after == 0 and not i_start))
        return total

    for n in (1, 5, 30):
        for lead in range(-320, 321, 3):
            for i_start in (True, False):
                assert eq.win_probability(lead, n, i_start) == pytest.approx(full(lead, n, i_start), abs=1e-12)
    assert eq._level(30)[0] < 30 * 9  # narrower than every lead 30 rounds could reach
    width = shipped._level(40)[0]
    assert width < 40 * 192 / 3  # a 40-round match: well inside its reach
    assert shipped.win_probability(width + 1, 40, False) == 1.0  # and beyond it the match is decided


def test_the_tie_rule_matters_only_through_level_totals():
    pmf = {-10: 0.25, 0: 0.25, 10: 0.5}
    alt = MatchEquity.from_counts(pmf, "alternate")
    same = MatchEquity.from_counts(pmf, "same")
    # a level total after the round: "alternate" hands the next round to the other player
    assert alt.after_round(0, 1, True) == pytest.approx(0.25 * 1 + 0.25 * 0.5 + 0.5 * 0)  # the opponent starts
    assert same.after_round(0, 1, True) == pytest.approx(0.25 * 0 + 0.25 * 0.5 + 0.5 * 1)  # I start again
    assert alt.after_round(10, 1, True) == same.after_round(10, 1, True)


def test_a_huge_lead_decides_the_match_however_large(shipped):
    """A lead of 10**19 (past the 64-bit integers) wrapped round to a negative lead and lost."""
    for lead in (10**6, 10**19, 2**70, 1e300):
        for n in (0, 1, 3):
            assert shipped.win_probability(lead, n, True) == 1.0
            assert shipped.win_probability(-lead, n, False) == 0.0
            assert shipped.after_round(lead, n, None) == 1.0
        assert shipped.outcome(lead, 2, False) == (1.0, 0.0, 0.0)
        assert shipped.outcome(-lead, 2, True) == (0.0, 0.0, 1.0)
    np.testing.assert_array_equal(shipped.win_probability(np.array([-10**19, 0, 10**19], dtype=object), 0, True),
                                  [0.0, 0.5, 1.0])


def test_bad_arguments_are_refused(shipped):
    with pytest.raises(MatchEquityError):
        shipped.win_probability(1.5, 1, True)
    with pytest.raises(MatchEquityError):
        shipped.win_probability(0, -1, True)
    for call in (shipped.win_probability, shipped.outcome, shipped.after_round):  # a million ran for hours
        with pytest.raises(MatchEquityError, match="rounds left must be a whole number from 0 to 1000"):
            call(0, 10**6, True)
    with pytest.raises(MatchEquityError):
        MatchEquity(np.array([1, 2]), np.array([0.5, 0.6]))
    # round differences: 1.5 was cut to 1 and [1.5, -2.5] rounded to 2 and -2; "a" and nan were
    # numpy's errors; 10**12 would have built a table of 10**12 leads
    for build in (lambda: MatchEquity.from_counts({1.5: 1, -2: 1}), lambda: MatchEquity.from_counts([1.5, -2.5]),
                  lambda: MatchEquity(np.array([1.5, -2.0]), np.array([0.5, 0.5])),
                  lambda: MatchEquity.from_counts({"a": 1}), lambda: MatchEquity.from_counts({float("nan"): 1, 2: 1}),
                  lambda: MatchEquity(np.array(["1", "2"]), np.array([0.5, 0.5]))):
        with pytest.raises(MatchEquityError, match="a round difference is a whole number of points"):
            build()
    # a round moves a lead by at most one player's best round less the other's worst, six colours:
    # 6 x 156 (three wagers and 2-10, the bonus) + 6 x 80 (three wagers alone) = 1416, by hand
    for too_far in (10**12, 1417, -1417):
        with pytest.raises(MatchEquityError, match="a round difference is at most 1416 points either way"):
            MatchEquity.from_counts({too_far: 1, 0: 1})
    assert MatchEquity.from_counts({1416: 1, -1416: 1}).diffs.tolist() == [-1416, 1416]
    assert MatchEquity.from_counts([3.0, -2.0, 3.0]).diffs.tolist() == [-2, 3]  # whole numbers as floats are fine


# --- the shipped file ------------------------------------------------------------------------


def test_the_shipped_file_records_its_making_and_has_a_copy_in_data():
    data = json.loads(TABLE_PATH.read_text())
    assert data["simulated_rounds"] == 2 * data["deals"] >= 100_000
    assert sum(data["round_difference"]["counts"]) == data["simulated_rounds"]
    assert 0 < data["stderr"]["max"] < 0.02
    assert data["command"].startswith("lcanalysis studies match-table")
    copy_in_data = ROOT / "data" / "match_equity.json"
    assert copy_in_data.read_text() == TABLE_PATH.read_text()
    assert (ROOT / "data" / "match_equity.json.cmd").read_text().strip() == data["command"]
    # the check against directly simulated matches, as recorded: no bin off by more than 4 errors
    zs = [r["z"] for r in data["check"]["rows"] if r["z"] is not None and np.isfinite(r["z"])]
    assert len(zs) >= 10 and max(abs(z) for z in zs) < 4


def test_the_printed_summary_gives_the_starters_share_of_rounds_with_its_standard_error():
    """``lcanalysis studies match-table`` printed "the starter wins 50.5% of rounds" with no error
    beside it, from 4,000 rounds (about 0.8 points of it either way). The payload keeps only the
    counts of the round differences, not which two rounds share a deal, so the error is the
    binomial one of rounds and says that it counts them as independent."""
    import io
    import math
    import re

    from lcanalysis.studies import match_table

    payload = match_table.build(deals=60, matches=0, seed=2, resamples=2)
    text = io.StringIO()
    match_table.report(payload, file=text)
    found = re.search(r"the starter wins ([0-9.]+)% ± ([0-9.]+)% of rounds \(± one standard error, the rounds "
                      r"counted as independent: a deal's two playings are not\)", text.getvalue())
    assert found, text.getvalue()
    # by hand, from the rounds the payload counts: 120 rounds, the share of differences above 0
    rd = payload["round_difference"]
    wins = sum(c for k, c in enumerate(rd["counts"]) if rd["from"] + k > 0)
    p = wins / 120
    assert sum(rd["counts"]) == 120 and found.group(1) == f"{100 * p:.1f}"
    assert found.group(2) == f"{100 * math.sqrt(p * (1 - p) / 120):.1f}"


def test_the_loader_rebuilds_the_printed_table_and_refuses_a_stale_one(tmp_path):
    data = json.loads(TABLE_PATH.read_text())
    eq = MatchEquity.load()
    cols = data["table"]["columns"]
    rows = np.array(data["table"]["rows"])
    for j, col in enumerate(cols):
        n, who = col.split(":")
        np.testing.assert_allclose(eq.table(int(n), who == "me", data["table"]["leads"]), rows[:, j], atol=6e-5)
    data["table"]["rows"][60][2] += 0.01
    bad = tmp_path / "stale.json"
    bad.write_text(json.dumps(data))
    with pytest.raises(MatchEquityError, match="does not follow"):
        MatchEquity.load(bad)


def test_a_table_file_edited_after_it_was_loaded_is_read_again(tmp_path):
    """The loader kept each file's table by its name only, so a long-running process (``lcanalysis
    server``, whose match agent loads the table every turn) went on with the old table after the
    file was edited. Here the round is first always won by 10 by its starter, then always lost
    by 10: with one round left and level totals the starter's chance goes from 1 to 0."""
    path = tmp_path / "table.json"
    path.write_text('{"round_difference": {"from":  10, "counts": [1]}}')
    assert MatchEquity.load(path).win_probability(0, 1, True) == 1.0
    size = path.stat().st_size
    path.write_text('{"round_difference": {"from": -10, "counts": [1]}}')  # the same size, the same file
    assert path.stat().st_size == size
    os.utime(path, ns=(path.stat().st_atime_ns, path.stat().st_mtime_ns + 10**9))  # a second on, however coarse
    assert MatchEquity.load(path).win_probability(0, 1, True) == 0.0
    assert MatchEquity.load(path) is MatchEquity.load(path)  # unchanged, it is not read again


def _broken_tables(tmp_path: Path) -> list[tuple[Path, str]]:
    good = json.loads(TABLE_PATH.read_text())
    cases = [("missing.json", None, "cannot be read"), ("text.json", "not json", "not a JSON file"),
             ("list.json", [1, 2], "no round-difference distribution"),
             ("nocounts.json", {"round_difference": {"from": -5}}, "no round-difference distribution"),
             ("zeros.json", {"round_difference": {"from": 0, "counts": [0, 0]}}, "numbers >= 0, not all 0"),
             ("negative.json", {"round_difference": {"from": 0, "counts": [3, -1]}}, "numbers >= 0"),
             ("columns.json", {**good, "table": {**good["table"], "columns": ["two"] * 6}}, "the printed table is not")]
    out = []
    for name, content, said in cases:
        path = tmp_path / name
        if content is not None:
            path.write_text(content if isinstance(content, str) else json.dumps(content))
        out.append((path, said))
    return out


def test_a_broken_table_file_is_refused_naming_the_file_and_what_is_wrong(tmp_path):
    """Found in review: a missing or malformed file gave Python's FileNotFoundError or KeyError, and
    the match agent met it only on its first match turn, in the middle of a tournament."""
    for path, said in _broken_tables(tmp_path):
        with pytest.raises(MatchEquityError, match=said) as caught:
            MatchEquity.load(path)
        assert f"match equity table {path}" in str(caught.value)
        with pytest.raises(AgentError, match=f"match: match equity table .*{said}"):  # at construction
            make_agent("match", table=str(path))
    assert make_agent("match", table=str(TABLE_PATH)).table == str(TABLE_PATH)


@pytest.mark.slow
def test_the_table_predicts_directly_simulated_matches(shipped):
    """The modelling assumption (rounds independent given the starter) against 3-round matches
    played out in full: the mean of (result - table) after rounds 1 and 2 is within 4 standard
    errors of 0."""
    from lcanalysis.studies.match_table import calibration, check_matches, simulate_match_rounds

    played = simulate_match_rounds(1500, seed=11)
    cal = calibration(shipped, played)
    assert abs(cal["after round 1: z"]) < 4 and abs(cal["after round 2: z"]) < 4
    rows = check_matches(shipped, played)
    assert set(rows["after_round"]) == {1, 2}
    assert (rows["low95"] <= rows["observed"] + 1e-12).all() and (rows["observed"] <= rows["high95"] + 1e-12).all()


# --- match values of play-outs ------------------------------------------------------------------


def _view_at_deal(totals, rnd, starter=0, rules=None):
    pos = Position.deal(5, rules or Rules(), starter)
    pos.match = {"round": rnd, "totals": list(totals)}
    return pos


def test_match_values_by_hand():
    """Round 2 of 3, totals level, the mover started this round. One round left after it, the
    round difference (starter minus other) is -10, 0 or +10 with chances 1/4, 1/4, 1/2."""
    eq = MatchEquity.from_counts({-10: 0.25, 0: 0.25, 10: 0.5}, "alternate")
    pos = _view_at_deal([20, 20], 2, starter=0)
    view = pos.view(0)
    assert round_starter(view) == 0
    samples = np.array([-5.0, 0.0, 5.0, 10.0])
    # -5: behind, the opponent starts: final -5+10, -5, -5-10 -> 1/4
    # 0: level, I started, so the opponent starts: final +10, 0, -10 -> 1/4 + 1/8
    # +5: ahead, I start: final -5, +5, +15 -> 3/4;  +10: final 0, 10, 20 -> 1/8 + 1/4 + 1/2
    want = np.array([0.25, 0.375, 0.75, 0.875])
    np.testing.assert_allclose(match_values(samples, view, eq), want)
    assert np.mean(match_values(samples, view, eq)) == pytest.approx(0.5625)
    same = MatchEquity.from_counts({-10: 0.25, 0: 0.25, 10: 0.5}, "same")
    np.testing.assert_allclose(match_values(samples, view, same), [0.25, 0.625, 0.75, 0.875])
    # a list of candidates' samples gives a list back
    got = match_values([samples, samples[:2]], view, eq)
    assert len(got) == 2 and np.allclose(got[1], want[:2])


def test_match_values_in_the_last_round_are_win_draw_loss_and_seen_from_the_mover(shipped):
    pos = _view_at_deal([30, 20], 3, starter=1)
    view = pos.view(1)  # player 1 to move, 10 behind
    assert match_state(view).lead == -10 and match_state(view).rounds_left_after == 0
    np.testing.assert_array_equal(match_values(np.array([-3, 9, 10, 11, 40]), view, shipped), [0, 0, 0.5, 1, 1])


def test_the_round_starter_is_read_from_the_history():
    pos = _view_at_deal([0, 0], 1, starter=1)
    agent = make_agent("heuristic")
    for turns in range(5):
        v = pos.view(pos.to_move)
        assert round_starter(v) == 1
        assert match_state(v).i_started == (pos.to_move == 1)
        pos.push(agent.choose(v, turns))
    hand_entered = pos.view(pos.to_move)
    hand_entered.history = []
    assert round_starter(hand_entered) is None  # cards were drawn: no history, no telling


def test_no_match_score_means_no_match_values(shipped):
    view = Position.deal(2).view(0)
    with pytest.raises(MatchEquityError, match="no match score"):
        match_values(np.zeros(3), view, shipped)


# --- match-aware ranking -----------------------------------------------------------------------


class _FakeRollouts:
    """Just what match_analysis reads from a Rollouts: samples and move names."""

    def __init__(self, samples, names):
        self.samples = [np.asarray(s, dtype=float) for s in samples]
        self.names = names

    def move(self, k):
        return self.names[k]


def test_match_ranking_disagrees_far_behind_in_the_last_round(shipped):
    view = _view_at_deal([0, 30], 3, starter=0).view(0)  # 30 behind, last round
    safe = [20, 20, 20, 20]  # +20 on average, never enough
    gamble = [-20, -20, 40, -20]  # -5 on average, wins one world in four
    a = match_analysis(view, _FakeRollouts([safe, gamble], ["+R7/D", "-Y4/D"]), shipped)
    assert a.best_points == "+R7/D" and a.best_match == "-Y4/D" and a.disagree
    best, other = a.moves
    assert best.move == "-Y4/D" and best.match == 0.25 and best.match_loss == 0 and best.match_rank == 1
    assert other.match == 0.0 and other.match_loss == 0.25 and other.points_rank == 1
    assert other.points_loss == 0 and best.points_loss == pytest.approx(25.0)
    # paired: the gamble minus the safe turn, world by world, is 0, 0, 1, 0
    assert other.match_loss_stderr == pytest.approx(np.std([0, 0, 1, 0], ddof=1) / 2)
    assert "behind by 30 in the last round" in a.verdict.lower() and "gambles more" in a.verdict
    assert "-Y4/D" in a.verdict and "+R7/D" in a.verdict


@pytest.mark.parametrize("totals, where", [([0, 30], "behind by 30"), ([45, 0], "ahead by 45"), ([10, 10], "level")])
def test_the_verdict_begins_with_a_capital_on_its_own_and_in_lower_case_after_a_colon(shipped, totals, where):
    """The hint's and a rollout's notes read "match: Behind by 30 in the last round, ..." (the verdict, a
    sentence begun with a capital, after a colon). Said on its own (``verdict``, the JSON's) it begins with
    a capital; as a note, after "match: ", in lower case; the same words either way. In every verdict:
    the rankings disagreeing (a gamble 30 behind), agreeing, the match decided."""
    view = _view_at_deal(totals, 3, starter=0).view(0)
    for samples in ([[20, 20, 20, 20], [-20, -20, 40, -20]], [[5, 6, 7, 8], [1, 2, 3, 4]], [[900] * 4, [899] * 4]):
        a = match_analysis(view, _FakeRollouts(samples, ["+R7/D", "-Y4/D"]), shipped)
        lower = f"{where} in the last round"
        assert a.verdict.startswith(lower[0].upper() + lower[1:]), a.verdict
        assert a.note == f"match: {lower}{a.verdict[len(lower):]}", a.note
        assert a.to_dict()["verdict"] == a.verdict


def test_the_hints_match_note_reads_in_lower_case_after_its_colon(capsys):
    """The hint on a position in a match, as the player reads it (``advise``'s text): "note: match: behind
    by 30 in the last round..." (it read "match: Behind by 30")."""
    from lcanalysis.cli import main
    from lcanalysis.game.examples import example_text

    in_match = json.dumps({**json.loads(example_text("midround")), "match": {"round": 3, "totals": [0, 30]}})
    assert main(["advise", in_match, "--time", "0.2"]) == 0
    notes = [line for line in capsys.readouterr().out.splitlines() if line.startswith("note: match: ")]
    assert len(notes) == 1 and notes[0].startswith("note: match: behind by 30 in the last round"), notes


def test_identical_turns_have_a_zero_paired_error_and_agreement_is_said(shipped):
    view = _view_at_deal([40, 10], 2, starter=0).view(0)
    x = np.array([-30.0, 5.0, 12.0, 50.0, -8.0])
    a = match_analysis(view, _FakeRollouts([x + 3, x], ["+B6/D", "-G2/D"]), shipped)
    assert not a.disagree and a.best_match == a.best_points == "+B6/D"
    worse = next(m for m in a.moves if m.move == "-G2/D")
    assert worse.points_loss == pytest.approx(3.0) and worse.points_loss_stderr == pytest.approx(0.0, abs=1e-12)
    assert worse.match_loss > 0
    assert "agree" in a.verdict
    assert json.dumps(a.to_dict())  # plain data for the JSON output


# Behind by 30 in the last round: a turn's round score x wins the match when x > 30 (match value 1),
# loses it when x < 30 (0). The points favourite was played in more worlds than the other turn
# (the advisor refines its best few turns), and in the worlds both were played in both win and
# lose the match alike: the paired difference of match chances is 0 in each of them.
LAST_ROUND_BEHIND_30 = ([0, 30], 3)


@pytest.mark.parametrize("safe, gamble, gain, cost", [
    # the other turn wins world 1 as the points favourite does, and loses the rest as it
    # does, for 5, 10, 20, 15 points less: +0.0 percentage points in each of the 4 shared worlds
    ([40] + [20] * 11, [35, 10, 0, 5], "+0.0 percentage points in each of the 4 worlds both were played in",
     "12.5 ± 3.2 points less on average"),
    # ... and 3 points less in each of them
    ([40] + [20] * 7, [37, 17, 17, 17], "+0.0 percentage points in each of the 4 worlds both were played in",
     "3.0 points less in each of the 4 worlds both were played in"),
    # one world in common: no standard error at all (it was "± inf")
    ([40] * 7 + [0], [31], "+0.0 percentage points in the one world both were played in",
     "9.0 points less in the one world both were played in"),
])
def test_the_same_match_outcome_in_every_shared_world_keeps_the_points_favourite(shipped, safe, gamble, gain, cost):
    """Its own average over fewer worlds made the other turn the match favourite (25.0% against
    8.3% over each turn's own worlds) though it wins the match in exactly the worlds the points
    favourite wins it of those both were played in: no better, and worse by points, so the points
    favourite is the best either way. A paired difference with no spread is printed without a
    standard error ("+0.0 ± 0.0" claimed a precision it does not have)."""
    from lcanalysis.match_equity import _paired_amount

    view = _view_at_deal(*LAST_ROUND_BEHIND_30, starter=0).view(0)
    n = min(len(safe), len(gamble))
    wins = lambda x: [1.0 if v > 30 else 0.0 for v in x]  # noqa: E731
    assert wins(safe)[:n] == wins(gamble)[:n]  # the same match outcome in every shared world
    assert np.mean(wins(gamble)) > np.mean(wins(safe))  # the own averages, over different worlds
    a = match_analysis(view, _FakeRollouts([safe, gamble], ["+R7/D", "-Y4/D"]), shipped)
    assert a.best_points == a.best_match == "+R7/D" and not a.disagree
    assert "points and match agree, +R7/D is best either way" in a.verdict, a.verdict
    other = next(m for m in a.moves if m.move == "-Y4/D")
    assert other.match_loss == 0.0 and other.match_rank == 2
    state = match_state(view)
    s_eq, g_eq = (np.asarray(shipped.after_round(state.lead + np.asarray(x, float), state.rounds_left_after,
                                                 state.i_started)) for x in (safe, gamble))
    assert _paired_amount(g_eq, s_eq, 100, "percentage points", sign=True) == gain
    said = _paired_amount(np.asarray(safe, float), np.asarray(gamble, float), 1, "points less", sign=False,
                          average="on average")
    assert said == cost and "± 0.0" not in said and "inf" not in said


def test_the_chance_of_an_agreement_carries_its_standard_error(shipped):
    """"points and match agree, +R7/D is best either way (30.0% to win the match)": an estimate over the
    sampled worlds, said with no standard error. Behind by 30 in the last round, the safe turn wins the match
    in 3 of its 10 worlds: 30.0% ± sqrt(0.3 * 0.7 * 10 / 9 / 10) = 15.3 points."""
    view = _view_at_deal(*LAST_ROUND_BEHIND_30, starter=0).view(0)
    a = match_analysis(view, _FakeRollouts([[40] * 3 + [20] * 7, [20] * 10], ["+R7/D", "-Y4/D"]), shipped)
    assert a.best_points == a.best_match == "+R7/D" and not a.disagree
    assert "+R7/D is best either way (30.0% ± 15.3 to win the match)" in a.verdict, a.verdict


def test_the_two_chances_of_a_disagreement_differ_by_the_gain_it_gives(shipped):
    """The points favourite is played in more worlds than the match favourite (the advisor refines
    its best turns). Behind by 30 in the last round, a round score above 30 wins the match: the
    safe turn wins 1 of its 40 worlds (2.5%), but 1 of the 10 it shares with the gamble (10%), which
    wins 2 of them (20%). The note printed each turn's own average, "20.0% against 2.5%", with the
    paired gain "+10.0 ± 10.0": the chances now differ by the gain, and the note says over which worlds."""
    view = _view_at_deal(*LAST_ROUND_BEHIND_30, starter=0).view(0)
    safe = [40] + [20] * 39
    gamble = [35, 35] + [0] * 8
    a = match_analysis(view, _FakeRollouts([safe, gamble], ["+R7/D", "-Y4/D"]), shipped)
    assert a.best_points == "+R7/D" and a.best_match == "-Y4/D"
    # each chance with its standard error over those worlds: 2 wins of 10, sqrt(0.2 * 0.8 * 10 / 9 / 10) = 13.3
    # points, and 1 of 10, sqrt(0.1 * 0.9 * 10 / 9 / 10) = 10.0
    assert "20.0% ± 13.3 against 10.0% ± 10.0 to win the match in the 10 worlds both were played in (+10.0 ± 10.0 " \
           "percentage points)" in a.verdict, a.verdict
    mine, other, gain = (float(x) for x in re.search(r"([\d.]+)% ± [\d.]+ against ([\d.]+)% .*?\(([+-][\d.]+) ±",
                                                      a.verdict).groups())
    assert mine - other == pytest.approx(gain)
    # the own averages stay in the rows, each with its own standard error
    assert {m.move: m.match for m in a.moves} == {"-Y4/D": 0.2, "+R7/D": 0.025}
    # played in as many worlds, the chances are their own averages and the note says nothing more
    same = match_analysis(view, _FakeRollouts([safe[:10], gamble], ["+R7/D", "-Y4/D"]), shipped)
    assert "20.0% ± 13.3 against 10.0% ± 10.0 to win the match (+10.0 ± 10.0 percentage points)" in same.verdict, \
        same.verdict


def test_a_small_standard_error_is_printed_with_the_digits_that_show_it(shipped):
    """Far ahead with a round to come, the match chances differ by hundredths of a percentage
    point: at one decimal "+0.0 ± 0.0"; printed with as many decimals as the error needs."""
    view = _view_at_deal([110, 0], 2, starter=0).view(0)
    rng = np.random.default_rng(3)
    first = rng.normal(45, 20, 10).round()
    safe = np.concatenate([first, [70.0] * 50])
    # in the first 10 worlds: half as far from 45, 3 points lower (1.9 points less on average, but
    # more where the other turn does worst: the safer turn for the match, by a little)
    gamble = (45 + 0.5 * (first - 45) - 3).round()
    a = match_analysis(view, _FakeRollouts([safe, gamble], ["+G10/W", "+B5/Y"]), shipped)
    assert a.best_points == "+G10/W" and a.best_match == "+B5/Y"
    state = match_state(view)
    eq = [shipped.after_round(state.lead + np.asarray(x), state.rounds_left_after, state.i_started)
          for x in (safe, gamble)]
    d = 100 * (eq[1][:10] - eq[0][:10])
    se = d.std(ddof=1) / np.sqrt(10)
    assert 0.0005 < se < 0.05  # "± 0.0" at one decimal
    digits = next(k for k in range(1, 5) if round(se, k) != 0)
    assert f"({d.mean():+.{digits}f} ± {se:.{digits}f} percentage points)" in a.verdict, a.verdict


def test_the_ranking_says_when_the_table_was_made_for_another_number_of_colours(shipped):
    """The shipped table is simulated from 5-colour rounds: a 6-colour game's match chances read
    from it were given without a word that they come from another game."""
    safe, gamble = [20, 20, 20, 20], [-20, -20, 40, -20]
    said = "The match equity table was simulated from 5-colour rounds; in this 6-colour game"
    six = _view_at_deal([0, 30], 3, rules=Rules(colors=6)).view(0)
    assert said in match_analysis(six, _FakeRollouts([safe, gamble], ["+R7/D", "-Y4/D"]), shipped).verdict
    five = _view_at_deal([0, 30], 3).view(0)
    assert "colour" not in match_analysis(five, _FakeRollouts([safe, gamble], ["+R7/D", "-Y4/D"]), shipped).verdict
    unmarked = MatchEquity.from_counts({-10: 1, 10: 1})  # no record of its making: nothing to compare
    assert "colour" not in match_analysis(six, _FakeRollouts([safe, gamble], ["+R7/D", "-Y4/D"]), unmarked).verdict


def test_match_analysis_on_real_rollouts(shipped):
    from lcanalysis.rollouts import Rollouts

    pos = _view_at_deal([10, 70], 3, starter=0)
    agent = make_agent("heuristic")
    for t in range(16):
        pos.push(agent.choose(pos.view(pos.to_move), t))
    view = pos.view(pos.to_move)
    cands = make_agent("search").candidates(view)
    r = Rollouts(view, cands, seed=1)
    r.sample(60)
    a = match_analysis(view, r, shipped)
    assert len(a.moves) == len(cands) and a.moves[0].match_loss == 0
    assert sorted(m.match_rank for m in a.moves) == list(range(1, len(cands) + 1))
    means = [m.match for m in a.moves]
    assert means == sorted(means, reverse=True)
    assert match_analysis(Position.deal(1).view(0), r, shipped) is None  # no match score: no match ranking


# --- the match-aware agent -------------------------------------------------------------------------


def _midround(seed, totals, rnd):
    pos = Position.deal(seed)
    pos.match = {"round": rnd, "totals": list(totals)}
    agent = make_agent("heuristic")
    for t in range(14):
        pos.push(agent.choose(pos.view(pos.to_move), t))
    return pos


def test_the_match_agent_sees_only_its_view():
    agent = make_agent("match", time_ms=5)
    pos = _midround(7, [15, 60], 3)
    p = pos.to_move
    other = other_world(pos, p, 3)
    other.match = dict(pos.match)
    assert other.hand(1 - p) != pos.hand(1 - p) or other.deck != pos.deck
    assert other.view(p) == pos.view(p)
    assert agent.choose(pos.view(p), 11) == agent.choose(other.view(p), 11)


def test_the_match_agent_plays_like_the_search_agent_when_only_points_matter():
    search = make_agent("search", time_ms=5)
    match = make_agent("match", time_ms=5)
    for seed in range(3):
        pos = _midround(seed, [0, 0], 1)
        no_match = copy.deepcopy(pos)
        no_match.match = None
        v = no_match.view(no_match.to_move)
        assert match.choose(v, seed) == search.choose(v, seed)  # no match score: points
        decided = copy.deepcopy(pos)
        decided.match = {"round": 3, "totals": [900, 0] if pos.to_move == 0 else [0, 900]}
        v = decided.view(decided.to_move)
        assert match.choose(v, seed) == search.choose(v, seed)  # won in every world: points decide


def test_the_match_agent_plays_legal_turns_through_a_match():
    from lcanalysis.tournaments.runner import play_match

    rules = Rules(rounds=3)
    rows = play_match([make_agent("match", time_ms=2), make_agent("search", time_ms=2)], seed=3, deal=0,
                      rules=rules)  # every turn goes through Position.push, which refuses an illegal one
    assert [r["round"] for r in rows] == [1, 2, 3]
    assert all(r["turns"] > 0 for r in rows)


def test_the_tournament_summary_counts_matches_and_pairs_the_seatings_of_a_deal():
    import pandas as pd

    from lcanalysis.studies.match_table import match_tournament_summary

    rows = []
    # deal 0: A wins with seat 0 (+10 over the match) and loses with seat 1 (-5); deal 1: +3, then level
    for deal, swap, diffs in [(0, 0, [5, 5, 0]), (0, 1, [-5, 0, 0]), (1, 0, [1, 1, 1]), (1, 1, [0, 0, 0])]:
        for r, d in enumerate(diffs, 1):
            a_seat0 = swap == 0
            rows.append({"pairing": 0, "deal": deal, "swap": swap, "round": r, "player0": "A" if a_seat0 else "B",
                         "player1": "B" if a_seat0 else "A", "score0": 50 + (d if a_seat0 else -d), "score1": 50})
    s = match_tournament_summary(pd.DataFrame(rows), "A")
    assert (s["matches"], s["deals"], s["won"], s["drawn"], s["lost"]) == (4, 2, 2, 1, 1)
    assert s["match_win_rate"] == pytest.approx(0.625)  # deals: (1 + 0) / 2 and (1 + 1/2) / 2
    assert s["stderr_by_deal"] == pytest.approx(0.125)  # sd of (0.5, 0.75) over sqrt(2)
    assert s["mean_match_diff"] == pytest.approx(2.0)  # (10 - 5) / 2 and (3 + 0) / 2
    assert s["low"] < 0.625 < s["high"] and s["wilson_low"] < 0.625 < s["wilson_high"]
    # 0.625 -+ t(0.975, 1) 0.125 = 0.625 -+ 1.588: the t interval over 2 deals, kept inside 0-1 (it was
    # [-0.963, 2.213], a share below 0 and above 1)
    assert (s["low"], s["high"]) == (0.0, 1.0)


def test_a_match_win_rate_with_no_spread_over_deals_is_not_called_certain():
    """Every match of 3 deals won: the deals' shares do not vary, and the t interval over them was
    [1.000, 1.000], a certainty 3 deals do not give. Wilson's counting each deal once instead:
    z^2 / (3 + z^2) = 0.561507 below 1."""
    import pandas as pd

    from lcanalysis.studies.match_table import match_tournament_summary

    rows = []
    for deal in range(3):
        for swap in (0, 1):
            a_seat0 = swap == 0
            rows.append({"pairing": 0, "deal": deal, "swap": swap, "round": 1, "player0": "A" if a_seat0 else "B",
                         "player1": "B" if a_seat0 else "A", "score0": 60 if a_seat0 else 50,
                         "score1": 50 if a_seat0 else 60})
    s = match_tournament_summary(pd.DataFrame(rows), "A")
    assert (s["won"], s["match_win_rate"]) == (6, 1.0)
    assert s["high"] == pytest.approx(1.0) and s["low"] == pytest.approx(1 - 0.561507, abs=1e-5)


def test_a_lead_or_a_starter_that_is_no_such_thing_is_refused_not_read(shipped):
    """after_round(None) answered 2.5e-06 (nan became the most negative lead) and after_round(1.5)
    rounded to 2 where win_probability refused 1.5; outcome read i_start_next="no" as True; the
    text "5" was read as a lead of 5."""
    eq = shipped
    for lead in (None, float("nan"), 1.5, np.array([2.0, np.nan]), True, "5", ["5", 3], b"5"):
        for ask in (lambda x: eq.after_round(x, 1, None), lambda x: eq.win_probability(x, 1, True),
                    lambda x: eq.outcome(x, 1, True)):
            with pytest.raises(MatchEquityError, match="a lead is a whole number of points"):
                ask(lead)
    for flag in ("no", 2, None):
        with pytest.raises(MatchEquityError, match="i_start_next must be True or False"):
            eq.outcome(5, 1, flag)
    with pytest.raises(MatchEquityError, match="i_started must be True or False"):
        eq.after_round(5, 1, "yes")
    # whole numbers as floats (rollouts' samples) and 0/1 starters are what they say
    assert eq.after_round(np.array([5.0, -3.0]), 1, 1).tolist() == eq.after_round(np.array([5, -3]), 1, True).tolist()
    assert eq.outcome(5, 1, 0) == eq.outcome(5, 1, False)
    # arrays: outcome takes one of each (numpy's "only 0-dimensional arrays can be converted" was
    # all it said), the others leads and starters of matching lengths, or one a single value
    for lead, flag in (([0, 5], True), (0, [True, False]), (np.array([3]), True)):
        with pytest.raises(MatchEquityError, match="outcome answers for one lead and one starter"):
            eq.outcome(lead, 1, flag)
    with pytest.raises(MatchEquityError, match=r"the leads and i_start_next must have the same length.*got 2 leads "
                                               r"and 3 values of i_start_next"):
        eq.win_probability([0, 5], 1, [True, False, True])
    with pytest.raises(MatchEquityError, match="the leads and i_started must have the same length"):
        eq.after_round([0, 5], 1, [True, False, True])
    both = eq.win_probability(7, 2, [True, False])  # a single lead with two starters
    assert both.tolist() == [eq.win_probability(7, 2, True), eq.win_probability(7, 2, False)]
    after = eq.after_round(0, 2, np.array([True, False]))
    assert after.tolist() == [eq.after_round(0, 2, True), eq.after_round(0, 2, False)]
    assert eq.after_round(np.array([1, -1]), 0, np.array([True, False])).tolist() == [1.0, 0.0]
    with pytest.raises(MatchEquityError, match="rules must be a Rules"):
        MatchEquity.load(rules="alternate")
    with pytest.raises(MatchEquityError, match="from a View or a Position, got NoneType"):
        match_state(None)


def test_the_match_tournament_summary_command_reads_the_published_file_and_refuses_others(tmp_path, capsys):
    """A missing file, a file of other rows or an agent that played no match was a traceback, or
    "0 three-round matches" with a nan rate."""
    from lcanalysis.studies.match_table import main

    published = ROOT / "data" / "match_aware_vs_search.csv"
    assert main([str(published)]) == 0
    printed = capsys.readouterr().out
    assert printed in (ROOT / "data" / "match_aware_vs_search.txt").read_text()  # its command's summary
    other = tmp_path / "other.csv"
    other.write_text("a,b\n1,2\n")
    for argv, said in (([str(tmp_path / "none.csv")], "none.csv: No such file or directory"),
                       ([str(other)], "not a tournament's rows (lcanalysis tournament ... --csv): no column pairing"),
                       ([str(published), "nobody"],
                        "'nobody' played no match here; the players are 'match:time_ms=20', 'search:time_ms=20'")):
        with pytest.raises(SystemExit) as exc:
            main(argv)
        err = capsys.readouterr().err
        assert exc.value.code == 2 and said in err and "Traceback" not in err


def test_a_turn_worse_in_the_shared_worlds_is_not_the_match_favourite(shipped):
    """Ranked by its own worlds the gamble wins the match more often (30% against 20%), but in the 10
    worlds both turns were played in the safe turn wins 8, the gamble 3: -50 ± 17 percentage points.
    The gamble was called the match favourite, with a note that it "does no better in the worlds
    both were played in"; the favourite is now chosen by that paired difference: the safe turn,
    best either way."""
    view = _view_at_deal(*LAST_ROUND_BEHIND_30, starter=0).view(0)
    safe = [40] * 8 + [20] * 2 + [25] * 30  # wins 8 of the 10 shared worlds, 8 of its 40 (20%); 27.75 points
    gamble = [35] * 3 + [0] * 7  # wins 3 of its 10 (30%); 10.5 points
    a = match_analysis(view, _FakeRollouts([safe, gamble], ["+R7/D", "-Y4/D"]), shipped)
    assert a.best_points == a.best_match == "+R7/D" and not a.disagree
    assert [m.move for m in a.moves] == ["+R7/D", "-Y4/D"]
    assert a.moves[1].match_loss == pytest.approx(0.5)
    assert "a matter of taste" not in a.verdict and "agree" in a.verdict


def test_the_favourites_are_chosen_by_paired_differences_not_by_means_over_different_worlds(shipped):
    """Behind by 30 in the last round. The first turn was played in 40 worlds, the others in the
    first 10 of them. By each turn's own worlds the second is best both ways (27.0 points and 20%
    against -30.5 points and 10%); in the 10 worlds all three were played in the first turn scores
    28.0 and wins 4 (40%) to the second's 27.0 and 2: better by both, as every printed loss says."""
    view = _view_at_deal(*LAST_ROUND_BEHIND_30, starter=0).view(0)
    first = [40] * 4 + [20] * 6 + [-50] * 30
    second = [35] * 2 + [25] * 8
    third = [10] * 10
    assert np.mean(second) > np.mean(first) and np.mean(third) > np.mean(first)  # the own means
    a = match_analysis(view, _FakeRollouts([first, second, third], ["+R7/D", "-Y4/D", "+B3/D"]), shipped)
    assert a.best_points == a.best_match == "+R7/D" and not a.disagree
    assert "+R7/D is best either way" in a.verdict
    rows = {m.move: m for m in a.moves}
    assert [m.move for m in a.moves] == ["+R7/D", "-Y4/D", "+B3/D"]
    assert [rows[k].points_rank for k in ("+R7/D", "-Y4/D", "+B3/D")] == [1, 2, 3]
    # the losses, by hand over the 10 shared worlds
    assert rows["-Y4/D"].points_loss == pytest.approx(1.0) and rows["+B3/D"].points_loss == pytest.approx(18.0)
    assert rows["-Y4/D"].match_loss == pytest.approx(0.2) and rows["+B3/D"].match_loss == pytest.approx(0.4)
    assert all(m.points_loss >= 0 and m.match_loss >= 0 for m in a.moves)


def test_a_match_as_good_as_decided_says_in_how_many_worlds(shipped):
    """Ahead by 60 before the last round, every world of both turns keeps the lead: the chance is 100%
    with no standard error to give. The verdict said "(the same in every world)" whether the worlds were
    11 (a hint at 0.05 s on a busy machine) or 1,500: it now counts them, as the evidence they are, in
    commas, where "(100.0% (the same in each of 12 worlds))" put a bracket in a bracket."""
    view = _view_at_deal([60, 0], 3, starter=0).view(0)
    a = match_analysis(view, _FakeRollouts([[10, -5, 20] * 4, [0, 15, -20] + [5] * 8], ["+R7/D", "-Y4/D"]), shipped)
    assert a.best_points == a.best_match == "+R7/D"  # 8.3 points against 3.2; each wins all its worlds
    assert "the match is as good as decided (100.0%, the same in each of 12 worlds); " in a.verdict, a.verdict
    one = match_analysis(view, _FakeRollouts([[10], [0]], ["+R7/D", "-Y4/D"]), shipped)
    assert "(100.0%, in the one world); " in one.verdict, one.verdict
    assert "))" not in a.verdict + one.verdict


def test_a_disagreement_compares_turns_each_better_in_the_shared_worlds(shipped):
    """By their own means over unequal samples the turns disagreed the wrong way round: the gamble
    (10 worlds: 27.0 points, 20%) led by points and the safe turn (40 worlds: 10%) was no match
    favourite at all. Over the 10 worlds both were played in the safe turn scores more (29.0) and
    the gamble wins the match more often (20% against 0%): the verdict names the safe turn the
    points favourite and the gamble the match favourite, with a positive gain and a cost."""
    view = _view_at_deal(*LAST_ROUND_BEHIND_30, starter=0).view(0)
    safe = [29] * 10 + [-40] * 26 + [40] * 4  # 29 in each shared world, never above 30 there
    gamble = [35] * 2 + [25] * 8
    assert np.mean(gamble) > np.mean(safe)  # own means: the gamble led by points
    a = match_analysis(view, _FakeRollouts([safe, gamble], ["+R7/D", "-Y4/D"]), shipped)
    assert a.best_points == "+R7/D" and a.best_match == "-Y4/D" and a.disagree
    # (the safe turn wins none of the 10: no standard error to give, and the verdict says why)
    assert "prefers -Y4/D to the points favourite +R7/D: 20.0% ± 13.3 against 0.0%, the same in each of 10 worlds, " \
        "to win the match in the 10 worlds" in a.verdict, a.verdict
    assert "for 2.0 ± 1.3 points less on average" in a.verdict, a.verdict


def test_the_match_table_keeps_its_deals_as_they_are_played_and_resumes_after_a_stop(tmp_path, monkeypatch, capsys):
    """``lcanalysis studies match-table`` held its deals in memory: its default 100,000 (1.5 CPU-minutes,
    15 at the most it takes) were lost to a Ctrl-C. Now each deal is kept as it is played, in the last
    output + ``.deals.partial``; the same command again plays only the deals missing (counted: the
    rounds played), writes the table an unbroken run writes, and removes the kept file."""
    import json as json_

    from lcanalysis.cli import main
    from lcanalysis.studies import first_player

    play = first_player._play_out
    played = [0]

    def counted(*args, **kwargs):
        played[0] += 1
        if stop_at and played[0] == stop_at:
            raise KeyboardInterrupt
        return play(*args, **kwargs)

    monkeypatch.setattr(first_player, "_play_out", counted)
    out = tmp_path / "table.json"
    argv = ["studies", "match-table", "--deals", "4", "--matches", "0", "--bootstrap", "2", "--out", str(out)]
    stop_at = 5  # deal 2's first round: deals 0 and 1 are kept
    assert main(argv) == 130
    assert f"the deals played so far are kept in {out}.deals.partial" in capsys.readouterr().err
    assert not out.exists() and (tmp_path / "table.json.deals.partial").exists()
    stop_at, played[0] = 0, 0
    assert main(argv) == 0 and played[0] == 4  # deals 2 and 3, two rounds each
    assert not (tmp_path / "table.json.deals.partial").exists()
    whole = tmp_path / "whole.json"
    assert main([*argv[:-1], str(whole)]) == 0
    assert json_.loads(out.read_text())["table"] == json_.loads(whole.read_text())["table"]


def test_the_match_table_keeps_its_check_matches_as_they_are_played_and_resumes_after_a_stop(tmp_path, monkeypatch,
                                                                                               capsys):
    """The check's directly simulated matches (20,000 by default, after the deals) were held in memory:
    a Ctrl-C among them lost them all, the deals kept. Now each match is kept as it is played, in the
    last output + ``.matches.partial``; the same command again plays only the matches missing (counted:
    the rounds played, three a match, and no deal again), writes the check an unbroken run writes, and
    removes the kept files."""
    import json as json_

    from lcanalysis.cli import main
    from lcanalysis.studies import first_player, match_table

    rounds = {"deal": 0, "match": 0}

    def counting(module, what):
        play = module._play_out

        def counted(*args, **kwargs):
            rounds[what] += 1
            if what == "match" and stop_at and rounds[what] == stop_at:
                raise KeyboardInterrupt
            return play(*args, **kwargs)
        monkeypatch.setattr(module, "_play_out", counted)

    counting(first_player, "deal")
    counting(match_table, "match")  # (the check's matches play out by the name match_table imported)
    out = tmp_path / "table.json"
    argv = ["studies", "match-table", "--deals", "3", "--matches", "5", "--bootstrap", "2", "--out", str(out)]
    stop_at = 7  # match 2's first round: matches 0 and 1 are kept
    assert main(argv) == 130
    err = capsys.readouterr().err
    assert (f"the deals played so far are kept in {out}.deals.partial; the matches played so far are kept in "
            f"{out}.matches.partial; run the same command again to resume") in err
    assert not out.exists() and (tmp_path / "table.json.matches.partial").exists()
    stop_at, rounds["deal"], rounds["match"] = 0, 0, 0
    assert main(argv) == 0 and rounds == {"deal": 0, "match": 9}  # matches 2, 3 and 4, three rounds each
    assert not (tmp_path / "table.json.matches.partial").exists()
    assert not (tmp_path / "table.json.deals.partial").exists()
    whole = tmp_path / "whole.json"
    assert main([*argv[:-1], str(whole)]) == 0
    resumed, unbroken = json_.loads(out.read_text())["check"], json_.loads(whole.read_text())["check"]
    assert resumed["rows"] == unbroken["rows"] and resumed["calibration"] == unbroken["calibration"]


def test_the_library_s_studies_refuse_more_deals_than_the_machine_holds_before_playing_any(monkeypatch):
    """``first_player_rounds(deals=10**11)`` (and the match table built from it, ``simulate_matches``)
    listed every deal first, filling the memory; ``build(resamples=10**11)`` ran on after the deals. They
    are refused at once, naming the function, the argument and the most it takes (the file machinery
    stubbed: nothing may run)."""
    from lcanalysis.studies import match_table
    from lcanalysis.studies.first_player import first_player_rounds, simulate_matches
    from lcanalysis.studies.study_file import StudyFile

    def ran(*args, **kwargs):
        raise AssertionError("the study ran")

    monkeypatch.setattr(StudyFile, "kept_table", ran)
    monkeypatch.setattr(match_table, "first_player_rounds", ran)
    # (the match table's first: without the check, the stub stops them; the other two would fill the memory)
    asks = [(lambda: match_table.build(deals=10, resamples=10**11), "build: resamples must be at most 100,000"),
            (lambda: match_table.build(deals=10**11), "build: deals must be at most 1,000,000"),
            (lambda: first_player_rounds(deals=10**11), "first_player_rounds: deals must be at most 1,000,000"),
            (lambda: simulate_matches(matches=10**11), "simulate_matches: matches must be at most 1,000,000")]
    for ask, said in asks:
        with pytest.raises(ValueError, match=said):
            ask()


def test_the_match_sentence_of_a_turn_as_good_as_the_best_in_every_world_has_no_plus_minus():
    """A played turn that ties the best turn for the match in every world (the match decided either way) is
    said to be as good as it, not "0.0 ± 0.0 percentage points less"; a real loss keeps its ±."""
    from lcanalysis.match_equity import match_loss_said

    assert match_loss_said("+Y9/D", "+Y9/D", 0.0, 0.0) == ("For the match: the best turn for your chance to win "
                                                           "it (by the play-outs)")
    assert match_loss_said("-B3/D", "+Y9/D", 0.0, 0.0, whose="the mover's") == (
        "For the match: as good as +Y9/D, the best turn for the match, in every world (by the play-outs)")
    assert match_loss_said("-B3/D", "+Y9/D", 1.5, 0.4) == ("For the match: 1.5 ± 0.4 percentage points less chance "
                                                          "to win it than +Y9/D, the best turn for the match (by "
                                                          "the play-outs)")
