"""The game review of a match in the match's terms: each decision the play-outs judge carries what it
gave up of the chance to win the match, measured in the same fresh worlds as its loss in points (each
world's final score difference turned into the match equity of the running totals), against the best turn
for the match, the advisor's unless a turn played out there beats it by two standard errors; each
player the sum; near the end, where the endgame solver
or search judges in points only, nothing is said of the match; a single round says nothing of one; the
JSON keeps the chance as a fraction, as advise's does, the text and the HTML print percentage points; the
spec's keys stay as they are."""

from __future__ import annotations

import html
import json
import math

import numpy as np
import pytest
from test_review import T, _blunder_start, _play_out, _short_round

import lcanalysis as lc
from lcanalysis.game.moves import Move
from lcanalysis.game.records import record_match, record_round
from lcanalysis.match_equity import POINTS_ONLY, MatchEquity, points_only_note
from lcanalysis.reviewer import (
    ADVISOR_PLAYOUT_POLICY,
    MIN_WORLDS,
    PAIR_SHARE,
    SEARCH_CARDS,
    decision_seed,
    review,
)
from lcanalysis.reviewer.settings import PLAYOUT_PARAMS
from lcanalysis.rollouts import ROLLOUTS_PER_MS, Rollouts

SPEC_DECISION = ["index", "player", "played", "best", "loss", "loss_stderr", "mark"]
SPEC_PLAYER = ["player", "decisions", "error_rate", "luck", "result", "luck_adjusted"]
MATCH_DECISION = {"match_loss", "match_loss_stderr", "best_for_match"}
MATCH_PLAYER = {"match_loss", "match_loss_stderr", "match_decisions"}


def _two_rounds():
    """A match record of two rounds from the blunder position (six cards in the pile): the first rounds of
    each judged by play-outs, the last four by the endgame solver or search; no match score in the starts."""
    start = _blunder_start()
    first = record_round(start, _play_out(start, "-R10/D"))
    second = record_round(start, _play_out(start, "+R10/D", seed=7))
    assert start.match is None
    return record_match([first, second])


@pytest.fixture(scope="module")
def match_review():
    rec = _two_rounds()
    rv = review(rec, time_budget=T, seed=5, executor="serial", progress=False)
    return rec, rv


def _fresh_worlds(rec, d, totals: list[int], seed: int):
    """The review's fresh worlds for decision ``d``, built here apart from the reviewer: the view before the
    turn with the match score given by hand (``totals`` before the round), the turns it played out in the
    order it plays them (the advisor's best, the played, the heuristic's, then the runner-up: the one
    alternatives left, among them the advisor's best for the match), the seed after the decision's and as
    many worlds as its time gives each turn."""
    rd = rec.rounds[d.round - 1]
    view = rd.state(d.index).view(rd.state(d.index).to_move)
    view.match = {"round": d.round, "totals": totals}
    names = list(dict.fromkeys([d.advisor_best, d.played, d.reference]))
    names += [a["move"] for a in d.alternatives if a["move"] not in names]
    assert sorted(names) == sorted(a["move"] for a in d.alternatives) and len(names) <= 5
    worlds = max(MIN_WORLDS, int(T * PAIR_SHARE * 1000 * ROLLOUTS_PER_MS / len(names)))
    assert worlds == d.worlds
    r = Rollouts(view, [Move.parse(m, view.colors).code(view.colors) for m in names],
                 seed=decision_seed(seed, d.round, d.index) + 1, params=PLAYOUT_PARAMS)
    r.sample(worlds)
    return view, r, names


def test_each_decisions_match_loss_is_measured_in_the_worlds_of_its_points_loss(match_review):
    """Read apart from the reviewer: the review's fresh worlds for each decision the play-outs judge, built
    here (the same view with the match score, turns, seed and world count), give its loss in points (where
    the advisor's best stayed the best), and in those worlds its match loss, a fraction: by hand, each
    world's final score difference turned into the match equity of the running totals
    (``MatchEquity.match_values``); the best turn for the match, the advisor's, is beaten there by no turn by
    more than two standard errors of the paired difference, or it is the one with the highest mean, which did;
    the loss is the mean of the paired differences against it and its standard error. Near the end (4 cards or
    fewer, the endgame solver or search) none."""
    rec, rv = match_review
    first = rec.rounds[0].scores()
    totals = {1: [0, 0], 2: [first[0], first[1]]}
    assert totals[2] != [0, 0]  # round 2 is played from a lead: the match score matters there
    judged = [d for d in rv.decisions if d.match_loss is not None]
    assert len(judged) >= 6 and {d.round for d in judged} == {1, 2}
    for d in rv.decisions:
        if d.match_loss is None:  # the endgame solver or search: points only
            assert d.deck <= SEARCH_CARDS and d.advisor_rollouts == 0 and d.best_for_match is None
            continue
        view, r, names = _fresh_worlds(rec, d, totals[d.round], seed=5)
        pts = [np.asarray(x, dtype=float) for x in r.samples]
        if d.best == d.advisor_best:  # the same worlds: the points loss is theirs
            gap = pts[names.index(d.best)] - pts[names.index(d.played)]
            assert d.loss == pytest.approx(gap.mean(), abs=1e-9), (d.round, d.index)
        equity = MatchEquity.load(rules=view.rules).match_values(pts, view)
        means = [float(e.mean()) for e in equity]
        best = names.index(d.best_for_match)
        top = int(np.argmax(means))
        if best != top:  # the advisor's choice kept: the top of the fresh worlds does not beat it by 2 s.e.
            lead = equity[top] - equity[best]
            assert lead.mean() <= 2 * lead.std(ddof=1) / math.sqrt(len(lead)) + 1e-12, (d.round, d.index)
        gap = equity[best] - equity[names.index(d.played)]
        assert -1.0 <= d.match_loss <= 1.0
        if d.played == d.best_for_match:
            assert (d.match_loss, d.match_loss_stderr) == (0.0, 0.0)
            continue
        assert d.match_loss == pytest.approx(gap.mean(), abs=1e-12), (d.round, d.index)
        assert d.match_loss_stderr == pytest.approx(gap.std(ddof=1) / math.sqrt(len(gap)), abs=1e-12)
    assert any(d.match_loss > 0.005 for d in judged)  # (not all nothing: some turns gave the match up)


def test_the_best_turn_for_the_match_is_one_the_review_played_out(match_review):
    """The match loss and the points loss rest on the same worlds: each decision's best turn for the match
    is among its alternatives (the turns played out), and its sentence is the tutor's."""
    _, rv = match_review
    for d in rv.decisions:
        if d.match_loss is None:
            continue
        played_out = [a["move"] for a in d.alternatives]
        assert d.best_for_match in played_out and d.played in played_out
        assert d.match_said().endswith("(by the play-outs)")


def test_each_players_match_loss_is_the_sum_of_theirs_with_the_errors_in_quadrature(match_review):
    """The totals by hand from the JSON's decisions: the sum of the match losses of the decisions the
    play-outs judged, their standard errors in quadrature, and how many, fractions as advise's JSON keeps
    them; the text says them in percentage points, 100 times the JSON's figures."""
    _, rv = match_review
    data = json.loads(json.dumps(rv.to_json()))
    text = rv.to_text()
    for p in data["players"]:
        mine = [d for d in data["decisions"] if d["player"] == p["player"] and d["match_loss"] is not None]
        total = sum(d["match_loss"] for d in mine)
        spread = math.sqrt(sum(d["match_loss_stderr"] ** 2 for d in mine))
        assert p["match_decisions"] == len(mine) > 0
        assert p["match_loss"] == pytest.approx(total, abs=1e-9)
        assert p["match_loss_stderr"] == pytest.approx(spread, abs=1e-9)
        assert 0.0 < total < len(mine)  # (a fraction a decision)
        assert (f"match chance given up: {100 * total:.1f} ± {100 * spread:.1f} percentage points over {len(mine)} "
                "decision(s) judged by play-outs (an estimate, as the match note says; a sum over "
                "decisions, not a chance, so it can pass 100; decisions near the end, judged in points only, are "
                "not counted)" in text)
    assert "match_loss_unit" not in data["settings"]  # (a fraction, as advise's match_loss: no unit to name)


def test_the_match_notes_say_what_the_best_turn_for_the_match_is_and_that_the_sum_is_no_chance(match_review):
    """The best turn for the match is the advisor's, chosen in its own play-outs, so the loss measured in the
    fresh worlds is not forced to 0 or more (as the points loss is not): the match note says so, and that the
    table is an estimate too; the players' lines and the HTML report's legend say the sum is not a chance
    (it can pass 100 percentage points). The played best turn loses nothing."""
    _, rv = match_review
    judged = [d for d in rv.decisions if d.match_loss is not None]
    assert all(d.match_loss == 0.0 for d in judged if d.played == d.best_for_match)
    note = rv.match_note or ""
    assert ("the advisor's, ranked by its own play-outs over every legal turn, unless a turn played out in the fresh "
            "worlds beats it there by more than two standard errors") in note
    assert "does not lean high" in note
    # (and that the table the chances come from is an estimate too, its error not in the ±)
    assert ("through the match equity table (itself an estimate, from simulated rounds of heuristic self-play, "
            "whose small error the ± leaves out)") in note
    text, page = rv.to_text(), rv.to_html()
    assert text.count("(an estimate, as the match note says; a sum over decisions, not a chance, "
                      "so it can pass 100;") == 2  # each player's line
    assert ("(an estimate: what it rests on, the match note above); a sum over decisions, not a "
            "chance, so it can pass 100.") in page


def test_the_match_loss_is_said_in_the_tutors_words_under_a_mark_and_in_the_html(match_review):
    """A marked decision's line is followed by the tutor's sentence, for a turn not the best for the match,
    in percentage points (100 times the JSON's fraction): "For the match: X ± Y percentage points less
    chance to win it than T, the best turn for the match (by the play-outs)";
    the HTML report gives the same sentence and a column of every decision's match loss, in percentage points."""
    _, rv = match_review
    text, page = rv.to_text(), rv.to_html()
    data = {(d["round"], d["index"]): d for d in json.loads(json.dumps(rv.to_json()))["decisions"]}
    marked = [d for d in rv.decisions if d.mark and d.match_loss is not None and d.played != d.best_for_match]
    assert marked
    for d in marked:
        pp, pp_se = 100 * data[d.round, d.index]["match_loss"], 100 * data[d.round, d.index]["match_loss_stderr"]
        said = (f"For the match: {pp:.1f} ± {pp_se:.1f} percentage points less chance to win it than "
                f"{d.best_for_match}, the best turn for the match (by the play-outs)")
        assert d.match_said() == said
        assert f"  BLUNDER\n    {said}\n" in text or f"  MISTAKE\n    {said}\n" in text or \
            f"  INACCURACY\n    {said}\n" in text, said
        assert f"{pp:.2f} ± {pp_se:.2f}</span>" in page
    assert "<th>match loss (pp)</th>" in page and "<th>match chance given up</th>" in page
    for d in rv.critical():
        if d.match_said():
            assert f"<p>{html.escape(d.match_said())}</p>" in page


def test_the_best_turn_for_the_match_is_said_to_be_so():
    """A decision whose played turn is the best for the match says so, not "0.0 ± 0.0 percentage points less"."""
    from lcanalysis.reviewer import Decision

    d = Decision(round=1, index=0, player=0, played="+G2/Y", best="+G2/Y", advisor_best="+G2/Y", loss=0.0,
                 loss_stderr=0.0, mark=None, forced=False, exact=False, method="", deck=6, legal=2, value_best=0.0,
                 value_best_stderr=0.0, value_played=0.0, value_played_stderr=0.0, reference="+G2/Y",
                 value_reference=0.0, value_reference_stderr=0.0, gain_vs_reference=0.0,
                 gain_vs_reference_stderr=0.0, alternatives=[], worlds=40, advisor_rollouts=100, seconds=0.0,
                 match_loss=0.0, match_loss_stderr=0.0, best_for_match="+G2/Y")
    assert d.match_said() == "For the match: the best turn for the mover's chance to win it (by the play-outs)"
    assert Decision(**{**d.__dict__, "match_loss": None, "best_for_match": None}).match_said() == ""


def test_a_match_record_is_judged_with_its_match_score_as_if_its_starts_carried_it(match_review):
    """The rounds of a match record need not carry the match score: the review gives each round's views the
    running totals before it, so a record whose starts carry them (written by hand) is judged the same."""
    rec, rv = match_review
    first = rec.rounds[0].scores()
    rounds = []
    for r, rd in enumerate(rec.rounds, start=1):
        start = rd.start.copy()
        start.match = {"round": r, "totals": [0, 0] if r == 1 else [first[0], first[1]]}
        rounds.append(record_round(start, [str(t.move) for t in rd.turns]))
    scored = review(record_match(rounds), time_budget=T, seed=5, executor="serial", progress=False)
    got = [(d.round, d.index, d.loss, d.match_loss, d.match_loss_stderr, d.best_for_match) for d in scored.decisions]
    assert got == [(d.round, d.index, d.loss, d.match_loss, d.match_loss_stderr, d.best_for_match)
                   for d in rv.decisions]


def test_the_json_of_a_match_review_keeps_the_specs_keys_and_adds_the_matchs(match_review):
    _, rv = match_review
    data = json.loads(json.dumps(rv.to_json()))
    for d in data["decisions"]:
        assert list(d)[: len(SPEC_DECISION)] == SPEC_DECISION and set(d) >= MATCH_DECISION
        assert (d["match_loss"] is None) == (d["match_loss_stderr"] is None) == (d["best_for_match"] is None)
    for p in data["players"]:
        assert list(p)[: len(SPEC_PLAYER)] == SPEC_PLAYER and set(p) >= MATCH_PLAYER
    assert data["settings"]["advisor_playout_policy"] == ADVISOR_PLAYOUT_POLICY == "plain"


def test_a_single_round_has_no_match_keys_nor_words():
    """A lone round (no match score): the JSON's decisions and players keep their keys without the match's,
    the settings no unit, and neither the text nor the HTML report speaks of the match."""
    start = _blunder_start()
    rv = review(record_round(start, _play_out(start, "-R10/D")), player=0, time_budget=T, seed=0,
                executor="serial", progress=False)
    data = json.loads(json.dumps(rv.to_json()))
    assert data["decisions"] and all(list(d)[: len(SPEC_DECISION)] == SPEC_DECISION and not MATCH_DECISION & set(d)
                                     for d in data["decisions"])
    assert all(list(p)[: len(SPEC_PLAYER)] == SPEC_PLAYER and not MATCH_PLAYER & set(p) for p in data["players"])
    assert "match_loss_unit" not in data["settings"] and data["settings"]["match_note"] is None
    assert data["settings"]["advisor_playout_policy"] == "plain"
    assert "match" not in rv.to_text().lower() and "match loss" not in rv.to_html()
    assert all(d.match_loss is None for d in rv.decisions) and rv.players[0].match_loss is None


def test_a_review_in_a_match_says_once_what_is_points_and_what_the_matchs():
    """In a match (a match record, or a round whose position carries a match score) the note, said once in
    advise's words, that the marks and losses are points of the round, now adds that where play-outs judge
    each decision also gives its match loss; a round of a match with a score gives its decisions one."""
    rules = lc.Rules(turn_cap=4)
    head = points_only_note("the marks, losses and values are")
    for record in (record_match([_short_round(rules)]), _short_round(rules, {"round": 2, "totals": [10, 0]})):
        rv = review(record, player=0, time_budget=T, seed=0, executor="serial", progress=False)
        note = rv.to_json()["settings"]["match_note"]
        assert note.startswith(head + "; where play-outs judge, each decision also gives what it gave up of the "
                                      "chance to win the match, and each player the sum (an estimate paired over "
                                      "the same fresh worlds of the stalling heuristic as the loss in points")
        assert "against the best turn for the match: the advisor's, ranked by its own play-outs" in note
        assert rv.to_text().count(POINTS_ONLY) == 1 and note in rv.to_text()
        assert rv.to_html().count(POINTS_ONLY) == 1 and html.escape(note) in rv.to_html()
        assert [d.match_loss is not None for d in rv.decisions] == [True] * len(rv.decisions)  # 44 cards left


def test_a_six_colour_match_says_its_chances_are_only_a_rough_guide():
    """The match equity table was simulated from 5-colour rounds: a review of a 6-colour match says once
    that its chances to win the match are only a rough guide there, as the hint does."""
    rv = review(record_match([_short_round(lc.Rules(colors=6, turn_cap=4))]), player=0, time_budget=T, seed=0,
                executor="serial", progress=False)
    caveat = ("(The match equity table was simulated from 5-colour rounds; in this 6-colour game its chances to win "
              "the match are only a rough guide.)")
    assert rv.match_note.endswith(caveat) and rv.to_text().count(caveat) == 1
    assert rv.players[0].match_loss is not None


def test_a_one_player_match_record_gives_its_player_the_same_match_losses(match_review):
    """A match record kept by one player judges that player's turns from the same views, given the match
    score the same way: the same match losses as the full-deal record's for that player."""
    rec, rv = match_review
    mine = review(rec.seen_by(0), time_budget=T, seed=5, executor="serial", progress=False)
    got = [(d.round, d.index, d.match_loss, d.match_loss_stderr, d.best_for_match) for d in mine.decisions]
    assert got == [(d.round, d.index, d.match_loss, d.match_loss_stderr, d.best_for_match)
                   for d in rv.decisions if d.player == 0]
    assert sum(d.match_loss is not None for d in mine.decisions) >= 3
    assert [p.player for p in mine.players] == [0] and mine.players[0].match_loss == rv.players[0].match_loss
