"""A benchmark's rows file: CSV appended to as each row finishes, so a stopped run resumes.

    rows = read_rows(path)                 # the rows so far ([] when there is no file yet)
    with appending(path, FIELDS) as add:
        add(row)                           # written and flushed at once
        add(*rows)                         # several, flushed together: never half of them on disk

A run killed while writing a row leaves a torn last line: it is cut off, and that row done again.
A run killed before its first row leaves an empty file: the next one still writes the column names.

    same_settings(path, "bench_x.py", argv, settings)   # before the work: refuse a file of other settings

The command that made a file is kept beside it (``<file>.cmd``, as every file in data/ has): a run
given a file made with other settings is refused before it mixes its rows in.
"""

from __future__ import annotations

import contextlib
import csv
import shlex
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


def same_settings(path: Path | None, script: str, argv: Sequence[str],
                  settings: Callable[[list[str]], Mapping[str, Any]]) -> None:
    """Refuse (exit naming each difference) to resume ``path`` when the command in its ``.cmd``
    sidecar gives other ``settings`` than ``argv`` (``settings``: the script's parser on a command
    line, then what a row depends on); then keep ``argv`` there as the command that made it."""
    if path is None:
        return
    sidecar = Path(f"{path}.cmd")
    if path.exists() and path.stat().st_size > 0:
        try:
            made = shlex.split(sidecar.read_text().splitlines()[0])[2:]  # after "python benchmarks/<script>"
        except (OSError, IndexError):
            raise SystemExit(f"error: {path} exists with no {sidecar.name} saying how it was made: "
                             "give another --out") from None
        there, here = settings(made), settings(list(argv))
        diff = [k for k in here if there.get(k) != here[k]]
        if diff:
            raise SystemExit(f"error: {path} was made with other settings ("
                             + ", ".join(f"{k} {there.get(k)} there, {here[k]} here" for k in diff)
                             + "): its rows would be mixed with these; give another --out")
    sidecar.write_text(f"python benchmarks/{script} {shlex.join(argv)}\n")
