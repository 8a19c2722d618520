"""A long study's results file: written row by row as the work is done, and resumed.

The first line holds the settings the file was made with (JSON after a mark naming the study),
then CSV: a line of column names and one row per finished unit of work, each flushed to the disk
before the next starts. A run given an existing file does only the units missing from it; a file
made with other settings is refused (it would mix results); a torn last line, from a run killed
while writing, is cut off and that unit done again. An exclusive lock keeps two runs from writing
one file. The calibration study and the consistency study both keep their rows this way.
"""

from __future__ import annotations

import contextlib
import csv
import fcntl
import json
import os
import sys
from collections.abc import Callable, Iterator, Mapping, Sequence
from io import StringIO
from typing import Any

import pandas as pd


class StudyFile:
    """The file format of one study: ``mark`` starts the settings line, ``columns`` are the CSV
    columns, ``keys`` the columns (whole numbers) that name a unit of work, ``identity_keys`` the settings that
    must match to resume, ``bools`` the columns read back as booleans, and ``defaults`` settings
    an older file may lack."""

    def __init__(self, what: str, mark: str, columns: Sequence[str], keys: Sequence[str],
                 identity_keys: Sequence[str], bools: Sequence[str] = (),
                 defaults: Mapping[str, Any] | None = None) -> None:
        self.what = what
        self.mark = mark
        self.columns = list(columns)
        self.keys = list(keys)
        self.identity_keys = tuple(identity_keys)
        self.bools = tuple(bools)
        self.defaults = dict(defaults or {})

    def read_identity(self, path: str | os.PathLike[str]) -> dict[str, Any]:
        """The settings a file was made with (its first line)."""
        with open(path, encoding="utf-8") as fh:
            first = fh.readline()
        if not first.startswith(self.mark):
            raise ValueError(f"{os.fspath(path)} is not a {self.what} file (its first line is not the header)")
        return {**self.defaults, **json.loads(first[len(self.mark):])}

    def table(self, csv_text: str) -> pd.DataFrame:
        """CSV text (a line of column names, then rows) as a table."""
        if not csv_text.strip():
            return pd.DataFrame(columns=self.columns)
        df = pd.read_csv(StringIO(csv_text), keep_default_na=False, na_values=[""])
        for col in self.bools:
            df[col] = df[col].astype(str).str.lower().eq("true")
        return df

    def as_csv(self, rows: Sequence[dict[str, Any]]) -> str:
        buf = StringIO()
        writer = csv.DictWriter(buf, fieldnames=self.columns, lineterminator="\n")
        writer.writeheader()
        writer.writerows(rows)
        return buf.getvalue()

    def frame(self, rows: Sequence[dict[str, Any]], identity: dict[str, Any]) -> pd.DataFrame:
        """Rows kept in memory as the same table a file of them reads as."""
        df = self.table(self.as_csv(rows))
        df.attrs["identity"] = identity
        return df

    def load(self, path: str | os.PathLike[str]) -> pd.DataFrame:
        """A file as a table, its settings in ``attrs["identity"]``; a torn last line is left out."""
        identity = self.read_identity(path)
        with open(path, encoding="utf-8") as fh:
            text = fh.read()
        if not text.endswith("\n"):
            text = text[: text.rfind("\n") + 1]
        df = self.table(text.split("\n", 1)[1] if "\n" in text else "")
        df.attrs["identity"] = identity
        return df

    @contextlib.contextmanager
    def open(self, path: str, identity: dict[str, Any], command: str | None = None
             ) -> Iterator[tuple[Callable[[dict[str, Any]], None], set[tuple[Any, ...]]]]:
        """Open (or start) a file for appending, holding an exclusive lock; yield a function that
        writes one row (on the disk when it returns) and the keys of the rows already there.
        ``command``: the command that makes the file, written to its ``.cmd`` sidecar once the
        lock is held and the file's settings match (a refused resume leaves the sidecar as it was)."""
        exists = os.path.exists(path) and os.path.getsize(path) > 0
        with open(path, "a+", encoding="utf-8", newline="") as fh:
            try:
                fcntl.flock(fh, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                raise RuntimeError(f"another {self.what} run is writing {path}") from None
            done: set[tuple[Any, ...]] = set()
            if exists:
                old = self.read_identity(path)
                diff = [k for k in self.identity_keys if old.get(k) != identity[k]]
                if diff:
                    raise ValueError(f"{path} was made with other settings ("
                                     + ", ".join(f"{k}: {old.get(k)!r} there, {identity[k]!r} here" for k in diff)
                                     + "): write to another file")
                fh.seek(0)
                text = fh.read()
                if not text.endswith("\n"):
                    print(f"warning: {path}: a torn last line (an unfinished row) is dropped and done again",
                          file=sys.stderr)
                    fh.truncate(len(text[: text.rfind("\n") + 1].encode("utf-8")))
                old_rows = self.load(path)
                done = {tuple(int(v) for v in key) for key in zip(*(old_rows[k] for k in self.keys))}
            if command is not None:
                with open(path + ".cmd", "w", encoding="utf-8") as cmd:
                    cmd.write(command + "\n")
            writer = csv.DictWriter(fh, fieldnames=self.columns, lineterminator="\n")
            if not exists:
                fh.write(self.mark + json.dumps(identity) + "\n")
                writer.writeheader()
                fh.flush()

            def write(row: dict[str, Any]) -> None:
                writer.writerow(row)
                fh.flush()
                os.fsync(fh.fileno())

            yield write, done
