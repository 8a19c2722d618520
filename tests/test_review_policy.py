"""The play-outs that measure a review's losses (``reviewer.PLAYOUT_PARAMS``) against rollouts by the
best agent itself. The reference is ``data/records/play_seed11_checked_review_v5.json``: review version 5
(plain heuristic play-outs) of a round a person played against ``best``, with each of its 15 marks
played out 50 times a seat by ``best`` in both seats (``review --check 50``). Those checks overturned
every mark of ``best``'s they decided; the review must now agree with each decided check of a turn it
judges by play-outs."""

from __future__ import annotations

import json
from pathlib import Path

from lcanalysis.core.policy import HEURISTIC_PARAMS, STALLING_PARAMS
from lcanalysis.game.records import read_record
from lcanalysis.reviewer import judge, mark_for
from lcanalysis.reviewer.run import _jobs
from lcanalysis.reviewer.settings import DEFAULT_TIME, PLAYOUT_PARAMS, SEARCH_CARDS

DATA = Path(__file__).resolve().parents[1] / "data" / "records"
RECORD = DATA / "play_seed11_you_vs_best.json"
CHECKED = json.loads((DATA / "play_seed11_checked_review_v5.json").read_text())
#: the checks of turns judged by play-outs (more than SEARCH_CARDS cards left), with a verdict
DECIDED = {c["index"]: c for c in CHECKED["checks"]["decisions"]
           if c["verdict"] in ("confirmed", "overturned") and c["deck"] > SEARCH_CARDS}


def _judged(indices: set[int]) -> dict[int, dict]:
    """The review's judgement of each of these turns, at the default time and seed, as ``review`` makes it."""
    rec = read_record(str(RECORD))
    rounds = rec.rounds if hasattr(rec, "rounds") else [rec]
    jobs = [j for j in _jobs(rounds, {0, 1}, DEFAULT_TIME, 0) if j.index in indices]
    return {j.index: judge.review_turn(j) for j in jobs}


def test_the_reference_decides_marks_of_both_players():
    """The premise: the best agent's marks were overturned, the person's confirmed, by play-outs."""
    by_verdict = {(c["player"], c["verdict"]) for c in DECIDED.values()}
    assert (1, "overturned") in by_verdict and (0, "confirmed") in by_verdict
    assert len(DECIDED) >= 8
    assert PLAYOUT_PARAMS is STALLING_PARAMS


def test_the_review_agrees_with_every_decided_check_of_the_best_agent():
    judged = _judged(set(DECIDED))
    assert set(judged) == set(DECIDED)
    for index, check in DECIDED.items():
        d = judged[index]
        mark = mark_for(d["loss"], d["loss_stderr"], d["forced"])
        if check["verdict"] == "overturned":
            assert mark is None, (index, check["played"], d["loss"], d["loss_stderr"])
        else:
            assert mark is not None, (index, check["played"], d["loss"], d["loss_stderr"])


def test_plain_heuristic_play_outs_mark_the_turns_the_checks_overturned(monkeypatch):
    """Why the policy changed: the plain heuristic never takes a pile card just to gain turns, and
    marks the best agent's stalls (turn 39 took a discarded card back for a loss of 28 points by those
    play-outs; the best agent's rollouts found it 13 points better than the review's pick)."""
    turn = 39
    assert DECIDED[turn]["verdict"] == "overturned"
    monkeypatch.setattr(judge, "PLAYOUT_PARAMS", HEURISTIC_PARAMS)
    d = _judged({turn})[turn]
    assert mark_for(d["loss"], d["loss_stderr"]) is not None and d["loss"] > 10


def test_the_reviews_advisor_keeps_the_plain_play_outs_whatever_the_hints_default(monkeypatch):
    """The advisor that picks the review's best turn names its play-out policy (``ADVISOR_PLAYOUT_POLICY``,
    the plain heuristic, as the published reviews were made): a hint whose default policy were the stalling
    heuristic would leave every review number as it is."""
    from lcanalysis.advisor import advice

    turn = 39
    def numbers(judged: dict) -> dict:
        return {k: v for k, v in judged.items() if k != "seconds"}  # (the clock's, not a number of the review)

    before = numbers(_judged({turn})[turn])
    monkeypatch.setattr(advice, "PLAYOUT_POLICY_DEFAULT", "stalling")
    assert advice.advise("example:midround", time_budget=0.05).method.count("stalling heuristic play") == 1
    assert numbers(_judged({turn})[turn]) == before
