"""The command-line front shared by the studies that read tournament results files
(``strength_table``, ``paired_strength``): a missing file is refused by name before any work, a
file the study refuses gives ``error: ...`` and exit status 2, and the answer is printed."""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Callable, Sequence


def answer(ap: argparse.ArgumentParser, paths: Sequence[str], compute: Callable[[], str]) -> int:
    """Check that every results file in ``paths`` exists (else ``ap.error``, exit status 2), then
    print ``compute()``; a ``ValueError`` it raises is printed as ``error: ...``, exit status 2."""
    for path in paths:
        if not os.path.exists(path):
            ap.error(f"no such results file: {path}")
    try:
        text = compute()
    except ValueError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    print(text)
    return 0
