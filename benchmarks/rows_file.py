"""A benchmark's rows file: CSV appended to as each row finishes, so a stopped run resumes.

    rows = read_rows(path)                 # the rows so far ([] when there is no file yet)
    with appending(path, FIELDS) as add:
        add(row)                           # written and flushed at once
        add(*rows)                         # several, flushed together: never half of them on disk

A run killed while writing a row leaves a torn last line: it is cut off, and that row done again.
A run killed before its first row leaves an empty file: the next one still writes the column names.
"""

from __future__ import annotations

import contextlib
import csv
from collections.abc import Callable, Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any


def read_rows(path: Path | None) -> list[dict[str, str]]:
    """The rows finished so far in ``path`` (none when it is None or missing)."""
    if path is None or not path.exists():
        return []
    text = path.read_text()
    if text and not text.endswith("\n"):
        path.write_text(text[: text.rfind("\n") + 1])
    with path.open(newline="") as f:
        return list(csv.DictReader(f))


@contextlib.contextmanager
def appending(path: Path, fields: Sequence[str]) -> Iterator[Callable[..., None]]:
    """A function that appends rows to ``path`` and flushes them; the column names come first in a
    new or empty file."""
    fresh = not path.exists() or path.stat().st_size == 0
    with path.open("a", newline="") as f:
        writer = csv.DictWriter(f, list(fields))
        if fresh:
            writer.writeheader()

        def add(*rows: Mapping[str, Any]) -> None:
            writer.writerows(rows)
            f.flush()

        yield add
