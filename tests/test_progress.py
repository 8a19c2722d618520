"""Progress, one convention for the whole package (``lcanalysis.progress``): a bar or lines on
standard error once the work has taken ``PROGRESS_DELAY``, nothing for a quick answer, nothing at
all with ``progress=False``."""

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
