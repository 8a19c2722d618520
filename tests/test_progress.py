"""Progress, one convention for the whole package (``lcanalysis.progress``): a bar or lines on
standard error once the work has taken ``PROGRESS_DELAY``, nothing for a quick answer, nothing at
all with ``progress=False``; and the front door's long questions report by default."""

from __future__ import annotations

import re
import time
from pathlib import Path

import numpy as np
import pytest

import lcanalysis as lc
from lcanalysis import progress
from lcanalysis.progress import check_progress, delayed_lines, progress_bar


def test_one_module_makes_the_bars():
    """tqdm was called in a dozen places, each with its own ``disable``/``delay`` (some bars showed at
    once, some after a second): every bar is now ``progress.progress_bar``'s."""
    package = Path(lc.__file__).parent
    makers = sorted(str(p.relative_to(package)) for p in package.rglob("*.py")
                    if re.search(r"^\s*(from tqdm|import tqdm)", p.read_text(), re.MULTILINE))
    assert makers == ["progress.py"]


def test_a_bar_shows_once_the_work_has_taken_the_delay_and_never_when_off(capsys, monkeypatch):
    for _ in progress_bar(range(3), desc="quick work", unit="step"):
        pass
    assert capsys.readouterr().err == ""  # over before PROGRESS_DELAY: nothing
    monkeypatch.setattr(progress, "PROGRESS_DELAY", 0.0)
    for _ in progress_bar(range(3), desc="long work", unit="step"):
        pass
    assert "long work" in capsys.readouterr().err
    for _ in progress_bar(range(3), desc="switched off", progress=False):
        pass
    assert capsys.readouterr().err == ""


def test_progress_is_true_or_false():
    assert check_progress(True) is True and check_progress(np.False_) is False
    for bad in ("no", 1, None):
        with pytest.raises(ValueError, match=f"progress must be True or False, got {bad!r}"):
            check_progress(bad)


def test_lines_are_said_only_once_the_work_has_taken_the_delay(capsys):
    with delayed_lines(delay=3600) as say:
        say("stage one")
    assert capsys.readouterr().err == ""  # a quick answer: nothing
    with delayed_lines(delay=0.05) as say:
        say("stage one")
        time.sleep(0.3)  # the delay passes: the last line is said, with the time so far
        say("stage two")  # and every line after it as it comes
    err = capsys.readouterr().err
    assert re.fullmatch(r"  stage one \(\d+ s so far\)\n  stage two\n", err), err


def _without_seconds(answer) -> dict:
    return {k: v for k, v in answer.to_json().items() if k != "seconds"}


def test_the_front_door_reports_by_default_and_not_with_progress_false(capsys, monkeypatch):
    """``lc.advise(view, time_budget=30)`` was silent without ``progress=`` (the command line said
    its stages): ``None``, the default, now says them on standard error once the answer has taken
    ``PROGRESS_DELAY`` (0 here, so that this short answer counts as long), and ``False`` nothing. The
    answer is the same either way."""
    view = lc.read_position("example:midround")
    monkeypatch.setattr(progress, "PROGRESS_DELAY", 3600.0)  # every answer ends before it: quick
    quiet = lc.advise(view, time_budget=0.05, seed=3)
    assert capsys.readouterr().err == ""
    monkeypatch.setattr(progress, "PROGRESS_DELAY", 0.0)
    told = lc.advise(view, time_budget=0.05, seed=3)
    assert "play-outs: 88 legal turns to compare, 750 play-outs" in capsys.readouterr().err
    silent = lc.advise(view, time_budget=0.05, seed=3, progress=False)
    assert capsys.readouterr().err == ""
    assert _without_seconds(silent) == _without_seconds(quiet) == _without_seconds(told)
    lines: list[str] = []
    lc.advise(view, time_budget=0.05, seed=3, progress=lines.append)  # a function: as given, as before
    assert lines and capsys.readouterr().err == ""


def test_the_front_door_s_rollout_shows_its_bar_by_default(capsys, monkeypatch):
    """``lc.rollout`` showed its bar only with ``progress=True``: by default, now, once it has taken
    ``PROGRESS_DELAY`` (0 here); ``progress=False`` shows none."""
    monkeypatch.setattr(progress, "PROGRESS_DELAY", 0.0)
    lc.rollout("example:endgame", turns=["-W2/D", "+B10/D"], trials=2, seed=1)
    assert "rollout" in capsys.readouterr().err
    lc.rollout("example:endgame", turns=["-W2/D", "+B10/D"], trials=2, seed=1, progress=False)
    assert capsys.readouterr().err == ""


@pytest.mark.parametrize(("given", "lines_get", "bar_gets"), [
    ("default", "a reporter", True), (None, "a reporter", True), (False, None, False), ("print", "print", "print"),
])
def test_the_front_door_hands_each_progress_on_as_its_function_takes_it(given, lines_get, bar_gets):
    """What ``lc.solve``, ``lc.advise`` (lines: None, the default, becomes a reporter on standard error;
    False becomes None, their "nothing") and ``lc.rollout`` (a bar: None becomes True) hand on."""
    seen = []

    def takes_lines(target, progress=None):
        seen.append(progress)

    def takes_a_bar(target, progress=False):
        seen.append(progress)

    kwargs = {} if given == "default" else {"progress": print if given == "print" else given}
    lc._reporting(takes_lines)("x", **kwargs)
    lc._reporting(takes_a_bar, bar=True)("x", **kwargs)
    if lines_get == "a reporter":
        assert callable(seen[0]) and seen[0] is not print
    else:
        assert seen[0] is (print if lines_get == "print" else None)
    assert seen[1] is (print if bar_gets == "print" else bar_gets)


def test_the_front_door_s_solve_takes_progress_false():
    """``lc.solve(..., progress=False)`` was refused ("progress must be a function"): it now says nothing."""
    assert lc.solve("example:endgame", max_stalls=0, progress=False).best is not None
