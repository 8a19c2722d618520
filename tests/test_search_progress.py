"""The progress lines of a sampled solve: the worlds done of their total, from the plan to the answer."""

from __future__ import annotations

import functools
import re
import threading

import lcanalysis as lc
import lcanalysis.search.view_value as view_value
from lcanalysis.search.common import heartbeat, planned


class Lines:
    """The lines a heartbeat says, and a way to wait until ``n`` more have been said."""

    def __init__(self) -> None:
        self.said: list[str] = []
        self.cond = threading.Condition()

    def __call__(self, line: str) -> None:
        with self.cond:
            self.said.append(line)
            self.cond.notify_all()

    def wait_for(self, n: int) -> int:
        """Wait until ``n`` lines more than now are said; the index of the first said wholly after this call."""
        with self.cond:
            start = len(self.said)
            assert self.cond.wait_for(lambda: len(self.said) >= start + n, timeout=30), self.said
            return start + 1  # (the line at ``start`` may have been composed before the call)


def test_a_line_after_the_samples_are_solved_still_counts_them(monkeypatch):
    """Between the end of a sampled solve's plan and the answer's return, with the heartbeat still on, a
    line said only the nodes ('solving (...), 12,345 nodes searched'): the plan was forgotten as it
    ended. Held there until two lines more are said, the solve's lines now all count the 400 samples."""
    lines = Lines()
    after: list[int] = []
    real_analysis = view_value.Analysis

    def held_analysis(*args, **kwargs):  # built once every sample is solved, the plan ended
        after.append(lines.wait_for(2))
        return real_analysis(*args, **kwargs)

    monkeypatch.setattr(view_value, "Analysis", held_analysis)
    monkeypatch.setattr(lc.search, "heartbeat", functools.partial(heartbeat, first=0.01, every=0.01))
    view = lc.read_position("example:endgame").view()
    answer = lc.search.solve(view, max_stalls=0, samples=400, progress=lines)
    assert not answer.exact and answer.splits == 400
    counted = re.compile(r"solving \(max_stalls=0, max_turns=None\), 400 of 400 samples done, [\d,]+ nodes "
                         r"searched, \d+ s so far")
    late = lines.said[after[0]:]
    assert late and all(counted.fullmatch(x) for x in late), late


def test_an_ended_plan_is_not_counted_under_the_next_stage():
    """A plan that ended stays in the lines of its own stage only: a deepening's next stall budget, not
    yet planned, does not show the last one's worlds as its own."""
    lines = Lines()
    stage = {"now": "1 stall(s) each"}
    with heartbeat(lines, lambda: stage["now"], first=0.01, every=0.01):
        with planned(400, "samples") as done:
            assert done is not None
            done(150)
            during = lines.said[lines.wait_for(2):]
        ended = lines.said[lines.wait_for(2):]
        stage["now"] = "2 stall(s) each"
        nextstage = lines.said[lines.wait_for(2):]
        with planned(400, "samples") as again:  # the next stage's own plan counts from 0
            assert again is not None
            fresh = lines.said[lines.wait_for(2):]
    assert during and all(re.fullmatch(r"1 stall\(s\) each, 150 of 400 samples done( \(about .* left at this "
                                       r"pace\))?, \d+ s so far", x) for x in during), during
    assert ended and all(re.fullmatch(r"1 stall\(s\) each, 150 of 400 samples done, \d+ s so far", x)
                         for x in ended), ended
    assert nextstage and all(re.fullmatch(r"2 stall\(s\) each, \d+ s so far", x) for x in nextstage), nextstage
    assert fresh and all(re.fullmatch(r"2 stall\(s\) each, 0 of 400 samples done, \d+ s so far", x)
                         for x in fresh), fresh
