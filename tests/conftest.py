"""Shared test set-up: say which tests a run leaves out and how to run them.

The default run (``python -m pytest -q``) leaves out the tests marked ``slow`` (long statistical
or exhaustive checks; each has a fast version in the default run); ``python -m pytest -q -m slow``
runs them. ``.ci/run`` runs both.
"""

from __future__ import annotations


def pytest_report_header(config):
    if "not slow" in (config.getoption("markexpr") or ""):
        return "slow tests left out of this run: python -m pytest -q -m slow runs them"
    return None
