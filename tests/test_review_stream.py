"""The review keeps one turn at a time: each turn's view and job are built when it is judged (on
worker processes too, where they are streamed to the pool, a few ahead) and freed after, so a
record of 10,000 turns no longer holds 10,000 views, each with the round's history so far.

The reference for "the same review" is the review before that change: its text, ``--json`` and
``--html`` outputs for a few small records at a fixed seed, written by the eager review (every job
and view built first) into ``tests/data/review_golden.json`` (``python tests/test_review_stream.py
--write`` rewrites it). The seconds a review took are the one thing that differs between runs:
they are set to 0 before the outputs are compared."""

from __future__ import annotations

import dataclasses
import json
import pickle
import sys
import tracemalloc
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
from test_review import _blunder_start, _play_out  # the blunder round of the review's tests

from lcanalysis.game.position import Position
from lcanalysis.game.records import record_match, record_round
from lcanalysis.reviewer import review
from lcanalysis.reviewer import run as R  # the review's run: the module whose names these tests replace

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "benchmarks"))
from bench_records import stalling_round  # the long record of the benchmarks
from bench_review_memory import judged_cheaply  # a turn judged at no cost

GOLDEN = Path(__file__).parent / "data" / "review_golden.json"
T = 0.03  # seconds a decision, as in test_review


def _stalling_round(turns: int):
    """A round that stalls on the discard piles to a turn cap of ``turns`` (capped, cards left)."""
    start, end = stalling_round(turns)
    return record_round(start, end.history)


def _cases():
    """(name, record, review options): a full-deal round with a blunder, its one-player record, a
    match of two rounds, and a round stopped at a turn cap."""
    start = _blunder_start()
    blunder = record_round(start, _play_out(start, "-R10/D"))
    second = record_round(start, _play_out(start, "+R10/D", seed=7))
    match = record_match([record_round(start, [str(t) for t in blunder.turns]), second])
    return [("blunder", blunder, {}), ("one-player", blunder.seen_by(1), {}), ("match", match, {}),
            ("capped", _stalling_round(30), {"player": 1, "seed": 3})]


def outputs(rv) -> dict[str, object]:
    """The review's text, JSON and HTML with its seconds (and worker count) made equal."""
    rv.seconds = 0.0
    rv.workers = 1
    rv.earlier_turns, rv.earlier_seconds = 0, 0.0  # (a resumed review says so, and what each run took)
    for x in [*rv.decisions, *rv.draws]:
        x.seconds = 0.0
    answer = json.loads(json.dumps(rv.to_json()))
    assert answer["settings"].pop("earlier_runs") is None  # (newer than the golden file; null for one run)
    return {"text": rv.to_text(), "json": answer, "html": rv.to_html()}


@pytest.fixture(scope="module")
def golden():
    return json.loads(GOLDEN.read_text())


def test_the_review_is_the_one_before_the_turns_were_streamed(golden):
    """Text, --json and --html of each small record, serial, are those of the eager review."""
    cases = _cases()
    assert sorted(name for name, _, _ in cases) == sorted(golden)
    for name, rec, kw in cases:
        got = outputs(review(rec, time_budget=T, executor="serial", progress=False, **kw))
        for form in ("text", "json", "html"):
            assert got[form] == golden[name][form], (name, form)


def test_on_worker_processes_the_review_is_the_one_before_too(golden):
    """The turns streamed to a pool of two worker processes (the first judged here, the rest a few
    at a time) give the same review, whatever order they finish in."""
    for name, rec, kw in _cases():
        if name in ("blunder", "capped"):
            rv = review(rec, time_budget=T, workers=2, progress=False, **kw)
            assert rv.workers == 2
            assert outputs(rv) == golden[name], name


#: each ``reviewer.REVIEW_VERSION`` with the fingerprint of its numbers in the reference reviews
#: (``_numbers``); a new version is added last (16's, unpublished, retaken when its match losses moved into the
#: fresh worlds of the points and were kept as fractions)
REVIEW_NUMBERS = {1: "65964629feea211f", 2: "7789759802b26d63", 3: "9b603de8f43b1bdc", 4: "57cab4ce26e72647",
                  5: "3ef99bfed5b81b14", 6: "b992386802d44a55", 7: "b992386802d44a55", 8: "890adb3890c1a156",
                  9: "890adb3890c1a156", 10: "890adb3890c1a156", 11: "890adb3890c1a156",
                  12: "890adb3890c1a156", 13: "bd9d68c5a13ba789", 14: "e75bc13cd7942b56",
                  15: "e75bc13cd7942b56", 16: "7834bd5ab6c04a70"}


def _numbers(golden) -> str:
    """A fingerprint (SHA-256, 16 hex digits) of the numbers and turns of the reference reviews:
    each decision's best and played turn, loss, mark, values, luck and worlds, each draw's luck,
    each player's totals; not the words around them, nor the seconds. (From version 16 a decision's and a
    player's match loss too: the fingerprints before it were taken without them, which the reviews then had.)"""
    import hashlib

    decision = ("round", "index", "player", "played", "best", "advisor_best", "loss", "loss_stderr", "loss_bound",
                "grade", "forced", "exact", "legal", "reference", "value_best", "value_best_stderr", "value_played",
                "value_played_stderr", "value_reference", "value_reference_stderr", "alternatives", "worlds",
                "advisor_rollouts", "drawn", "luck", "luck_stderr", "luck_worlds", "value_before_draw",
                "value_after_draw", "match_loss", "match_loss_stderr", "best_for_match")
    draw = ("round", "index", "player", "played", "drawn", "luck", "luck_stderr", "luck_worlds",
            "value_before_draw", "value_after_draw")
    player = ("player", "decisions", "unforced", "error_rate", "total_loss", "total_loss_stderr", "luck",
              "luck_stderr", "draws", "result", "luck_adjusted", "luck_adjusted_stderr", "marks", "bounded",
              "match_loss", "match_loss_stderr", "match_decisions")
    numbers = {name: {"decisions": [[d.get(k) for k in decision] for d in case["json"]["decisions"]],
                      "draws": [[x.get(k) for k in draw] for x in case["json"]["draws"]],
                      "players": [[p.get(k) for k in player] for p in case["json"]["players"]]}
               for name, case in sorted(golden.items())}
    return hashlib.sha256(json.dumps(numbers, sort_keys=True).encode()).hexdigest()[:16]


def test_the_review_version_is_raised_whenever_the_reviews_numbers_change(golden):
    """``reviewer.REVIEW_VERSION`` goes into the settings of the files that keep review output, so
    that a run refuses to resume a file whose rows another version's numbers fill. It is only as
    good as it is raised: the reference reviews (tests/data/review_golden.json, which the live review
    must give, above) hold the review's numbers, and this pins the version to them. A change that
    moves any of them makes the golden file be rewritten, and then this fails until the version is
    raised (a change of words only leaves the fingerprint as it is)."""
    got = _numbers(golden)
    latest = max(REVIEW_NUMBERS)
    assert latest == R.REVIEW_VERSION, f"REVIEW_NUMBERS here names version {latest}, the reviewer {R.REVIEW_VERSION}"
    assert REVIEW_NUMBERS[latest] == got, (
        f"the review's numbers changed (their fingerprint is {got}, version {latest}'s {REVIEW_NUMBERS[latest]}): "
        f"raise reviewer.REVIEW_VERSION to {latest + 1} and add {latest + 1}: {got!r} to REVIEW_NUMBERS here")


def _peak(rec, monkeypatch, **kw) -> int:
    """The review's peak memory in bytes (tracemalloc, beyond what the record holds), turns judged
    by the stand-in."""
    monkeypatch.setattr(R, "review_turn", judged_cheaply)
    tracemalloc.start()
    try:
        tracemalloc.reset_peak()
        base = tracemalloc.get_traced_memory()[0]
        rv = review(rec, time_budget=T, progress=False, **kw)
        peak = tracemalloc.get_traced_memory()[1] - base
    finally:
        tracemalloc.stop()
    assert len(rv.decisions) == len(rec)  # a full-deal record, both players: every turn a decision
    return peak


@pytest.mark.parametrize("executor", ["serial", "threads"])
def test_a_reviews_memory_grows_linearly_with_the_records_length(monkeypatch, executor):
    """Every view and job of a record used to be built first and kept to the end: each holds the
    round's history so far, so 4 times the turns took 16 times the memory (23 MB at 2,000 turns, 400 MB
    at 10,000). Now 4 times the turns take about 4 times the memory, on an executor too."""
    short, long = _stalling_round(500), _stalling_round(2000)
    assert len(long) == 4 * len(short) == 2000
    peaks = []
    for rec in (short, long):
        if executor == "threads":
            with ThreadPoolExecutor(2) as ex:
                peaks.append(_peak(rec, monkeypatch, executor=ex))
        else:
            peaks.append(_peak(rec, monkeypatch, executor="serial"))
    assert peaks[1] < 6 * peaks[0], peaks  # linear: 4 (plus a constant); the square: 16


def test_an_executor_is_handed_a_few_turns_at_a_time(monkeypatch):
    """The turns go to an executor as workers free up, at most ``IN_FLIGHT`` out at once, instead of
    every turn submitted (and built) before the first result is read."""
    monkeypatch.setattr(R, "review_turn", judged_cheaply)
    out: list[int] = []

    class Counting(ThreadPoolExecutor):
        def submit(self, fn, /, *args, **kwargs):
            fut = super().submit(fn, *args, **kwargs)
            out.append(sum(not f.done() for f in futures) + 1)
            futures.append(fut)
            return fut

    futures: list = []
    rec = _stalling_round(300)
    with Counting(2) as ex:
        rv = review(rec, time_budget=T, executor=ex, progress=False)
    assert len(rv.decisions) == 300 and len(futures) == 299  # the first turn is judged in this process
    assert max(out) <= R.IN_FLIGHT


def test_the_views_of_a_review_are_those_before_each_decision(monkeypatch):
    """``Review.views`` replays a decision's view when asked: it is the view the turn was judged from,
    across the record's checkpoints, in a one-player record too."""
    monkeypatch.setattr(R, "review_turn", judged_cheaply)
    full = _stalling_round(200)
    for rec in (full, full.seen_by(0)):
        rv = review(rec, time_budget=T, executor="serial", progress=False)
        want = {(1, s.index): (s.before.view(s.player) if isinstance(s.before, Position) else s.before)
                for s in rec.steps() if rec.viewer in (None, s.player)}
        assert list(rv.views) == list(want) == [(d.round, d.index) for d in rv.decisions]
        assert len(rv.views) == len(want) and all(rv.views[k] == v for k, v in want.items())
        assert (1, 10**6) not in rv.views and rv.views.get((2, 0)) is None


def test_the_progress_bar_counts_the_turns_judged(monkeypatch, capsys):
    """One bar, over the turns judged (decisions and the other player's deck draws alike), ending
    full: no turn is left out of its total nor counted twice, serial or on an executor (the bar drawn
    from the start: ``PROGRESS_DELAY`` 0, as cheap turns end before a second)."""
    from lcanalysis import progress

    monkeypatch.setattr(progress, "PROGRESS_DELAY", 0.0)
    start = _blunder_start()
    rec = record_round(start, _play_out(start, "-R10/D"))
    monkeypatch.setattr(R, "review_turn", judged_cheaply)
    for kw in ({"executor": "serial"}, {"executor": ThreadPoolExecutor(2)}):
        rv = review(rec, player=0, time_budget=T, progress=True, **kw)
        n = len(rv.decisions) + len(rv.draws)
        assert len(rv.draws) > 0 and n < len(rec)  # player 1's turns that drew from the pile: their luck
        err = capsys.readouterr().err
        assert err.count(f"{n}/{n}") >= 1 and f"/{n + 1}" not in err and "review" in err, err


def test_a_job_sent_to_a_worker_carries_two_bytes_a_turn_of_history():
    """A job went to a worker with its view's history as one pickled ``Move`` a turn (about 22 bytes
    each: 218 KB a job at turn 10,000, so the bytes sent grew with the square of a record's length).
    Now it carries the history as kernel move codes, 2 bytes a turn, and the worker rebuilds the
    very same view from them (a full-deal record and a one-player record alike). (Since moves are
    shared objects, ``Move.from_code``, a history of ``Move``s pickles as references to the few
    distinct ones, a few bytes a turn too; the codes do not depend on that.)"""
    full = _stalling_round(1000)
    for rec in (full, full.seen_by(0)):
        sizes, whole = {}, {}
        for job in R._jobs([rec], {0, 1} if rec.viewer is None else {0}, T, 0):
            if job.index in (100, 101, 998, 999):
                back = pickle.loads(pickle.dumps(job))
                assert back.view == job.view and back.view.history == job.view.history  # the same view
                assert len(back.view.history) == job.index and back.pile == job.pile
                sizes[job.index] = len(pickle.dumps(job))
                whole[job.index] = len(pickle.dumps(dataclasses.replace(job, history_codes=None)))
        first, last = sorted(sizes)[0], sorted(sizes)[-1]
        assert sizes[last] - sizes[first] <= 2 * (last - first) + 256, sizes  # 2 bytes a turn (and a card played)
        assert whole[last] - whole[first] > last - first, whole  # the history as Moves: more, even when shared


def _write() -> None:
    golden = {name: outputs(review(rec, time_budget=T, executor="serial", progress=False, **kw))
              for name, rec, kw in _cases()}
    GOLDEN.write_text(json.dumps(golden, indent=1, sort_keys=True) + "\n")


if __name__ == "__main__":
    if sys.argv[1:] == ["--write"]:
        _write()
