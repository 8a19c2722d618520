"""The command-line front shared by the studies that read tournament results files
(``strength_table``, ``paired_strength``): a missing file is refused by name before any work, a
file the study refuses gives ``error: ...`` and exit status 2, a line of a file that does not count
is ``warning: ...`` (as ``lcanalysis tournament`` says it), and the answer is printed."""

from __future__ import annotations

import argparse
import os
import sys
import warnings
from collections.abc import Callable, Sequence
from typing import Any

from lcanalysis.tournaments.results import ResultsWarning


def answer(ap: argparse.ArgumentParser, paths: Sequence[str], compute: Callable[[], str]) -> int:
    """Check that every results file in ``paths`` exists (else ``ap.error``, exit status 2), then
    print ``compute()``; a ``ValueError`` it raises is printed as ``error: ...``, exit status 2."""
    for path in paths:
        if not os.path.exists(path):
            ap.error(f"no such results file: {path}")
    try:
        with warnings.catch_warnings():
            warnings.showwarning = _show_warning  # not Python's form, with this module's path and code line
            warnings.simplefilter("always", ResultsWarning)
            text = compute()
    except ValueError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    print(text)
    return 0


def _show_warning(message: Any, category: Any, filename: str, lineno: int, file: Any = None,
                  line: Any = None) -> None:
    print(f"warning: {message}", file=sys.stderr, flush=True)
