"""Shared test set-up: compile the engine once before the tests, and say which tests a run
leaves out and how to run them.

The default run (``python -m pytest -q``) leaves out the tests marked ``slow`` (long statistical
or exhaustive checks; each has a quick version in the default run); ``python -m pytest -q -m
slow`` runs them. ``.ci/run`` runs both.

On a fresh clone numba has compiled nothing yet. Left alone, every xdist worker, and every
``lcanalysis`` command a test starts, would compile the engine for itself at the same time; so
the main process compiles it once first (``lcanalysis warm-up``, about a minute on 2 cores,
then nothing until the compiled sources change) and the others load it from numba's cache.
"""

from __future__ import annotations

import os
import time

import pytest

# The tests run every command in-process, as a fresh machine would: a developer's running
# 'lcanalysis server' must not answer them (tests/test_server.py starts its own, on purpose).
os.environ["LCANALYSIS_NO_SERVER"] = "1"


@pytest.fixture(autouse=True)
def _forget_the_reference_values():
    """After each test, the brute-force reference (``search_reference``, if a test loaded it) forgets
    what it memoized, so that a worker's memory does not grow with every search test it runs."""
    import sys

    yield
    reference = sys.modules.get("search_reference")
    if reference is not None:
        reference.forget()


@pytest.hookimpl(tryfirst=True)  # before xdist starts its workers
def pytest_sessionstart(session):
    config = session.config
    if hasattr(config, "workerinput") or os.environ.get("NUMBA_DISABLE_JIT", "0") not in ("", "0"):
        return
    if config.getoption("collectonly"):
        return
    from lcanalysis.cli import warmup

    if warmup.is_compiled():
        return
    tr = config.pluginmanager.get_plugin("terminalreporter")
    if tr is not None:
        tr.write_line("compiling the engine once for this version of the code (lcanalysis warm-up) ...")
    t0 = time.perf_counter()
    try:
        warmup.engine_ready(quiet=True)
    except Exception as exc:  # a broken engine: let the tests say where
        if tr is not None:
            tr.write_line(f"the warm-up failed ({type(exc).__name__}: {exc}); the tests compile as they go")
        return
    if tr is not None:
        tr.write_line(f"engine compiled in {time.perf_counter() - t0:.0f} s")


def pytest_report_header(config):
    if "not slow" in (config.getoption("markexpr") or ""):
        return "slow tests left out of this run: python -m pytest -q -m slow runs them"
    return None


@pytest.fixture
def edit_source(monkeypatch):
    """``edit_source("runner.py")`` or ``edit_source("advisor/advice.py")``: as if the package's source
    file of that name (or that path's end) had been edited (a line added), as the code version
    (``tournaments.results.code_version``) reads it, for the rest of the test."""
    from pathlib import Path

    from lcanalysis.tournaments.results import code_version

    real, edited = Path.read_bytes, set()

    def read(self: Path) -> bytes:
        path = "/" + self.as_posix()
        return real(self) + (b"# edited\n" if any(path.endswith("/" + name) for name in edited) else b"")

    def edit(name: str) -> None:
        edited.add(name)
        monkeypatch.setattr(Path, "read_bytes", read)
        code_version.cache_clear()

    yield edit
    monkeypatch.undo()
    code_version.cache_clear()
