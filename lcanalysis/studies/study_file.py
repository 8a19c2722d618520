"""A long study's results file: written row by row as the work is done, and resumed.

The first line holds the settings the file was made with (JSON after a mark naming the study),
then CSV: a line of column names and one row per finished unit of work, each flushed to the disk
before the next starts. A run given an existing file does only the units missing from it; a file
made with other settings is refused (it would mix results), and so is one written with other
columns (an older version's: its rows and the new ones would not line up), and so is one whose rows
another version of the code that makes them wrote (``version``: a setting naming it; a file whose
settings lack it is "unversioned": it loads, but is not resumed); a torn last line, from a
run killed while writing, is cut off and that unit done again. A unit may also be several rows (a reviewed
round, a rated deal): they are written at once, and a resumed run does the file's last unit again,
since a run killed while writing may have left only some of its rows. An exclusive lock keeps two
runs from writing one file. The calibration and consistency studies, the skill-and-luck study's
reviews and the benchmarks that keep rows (``benchmarks/bench_endgame_*.py``, ``bench_stall_probes.py``,
``bench_schedules.py``, ``bench_hint_honesty.py``, ``bench_playout_rate_values.py``) keep them this way.
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
    columns, ``keys`` the columns that name a unit of work (whole numbers, but those also in
    ``text_keys``), ``identity_keys`` the settings that must match to resume, ``bools`` the columns
    read back as booleans, and ``defaults`` settings an older file may lack. ``many_rows``: a unit
    of work is several rows, written together. ``float_format``: how numbers are written (as
    pandas' ``to_csv`` writes them), instead of in full. ``version``: (the setting that holds the
    version of the code behind the rows, what that code is in words), e.g. ``("review_version",
    "review")``: a file written by another version, or by none (a file from before the setting),
    is refused for resuming, naming both versions; it still loads."""

    def __init__(self, what: str, mark: str, columns: Sequence[str], keys: Sequence[str],
                 identity_keys: Sequence[str], bools: Sequence[str] = (),
                 defaults: Mapping[str, Any] | None = None, text_keys: Sequence[str] = (),
                 many_rows: bool = False, float_format: str | None = None,
                 version: tuple[str, str] | None = None) -> None:
        self.what = what
        self.mark = mark
        self.columns = list(columns)
        self.keys = list(keys)
        self.identity_keys = tuple(identity_keys)
        self.bools = tuple(bools)
        self.defaults = dict(defaults or {})
        self.text_keys = frozenset(text_keys)
        self.many_rows = many_rows
        self.float_format = float_format
        self.version = version

    def unit(self, row: Mapping[str, Any]) -> tuple[Any, ...]:
        """The key of the unit of work a row belongs to."""
        return tuple(str(row[k]) if k in self.text_keys else int(row[k]) for k in self.keys)

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

    def as_csv(self, rows: Sequence[Mapping[str, Any]], header: bool = True) -> str:
        buf = StringIO()
        if header:
            buf.write(",".join(self.columns) + "\n")
        if self.float_format is not None:
            if rows:
                pd.DataFrame(list(rows), columns=self.columns).to_csv(
                    buf, header=False, index=False, float_format=self.float_format, lineterminator="\n")
        else:
            csv.DictWriter(buf, fieldnames=self.columns, lineterminator="\n").writerows(rows)
        return buf.getvalue()

    def _without_last_unit(self, text: str) -> str:
        """``text`` (whole lines) less the rows of its last unit of work, which may be partial."""
        lines = text.splitlines(keepends=True)
        if len(lines) <= 2:  # the settings and the columns only
            return text
        rows = [dict(zip(self.columns, fields)) for fields in csv.reader(lines[2:])]
        last, cut = self.unit(rows[-1]), len(rows) - 1
        while cut > 0 and self.unit(rows[cut - 1]) == last:
            cut -= 1
        return "".join(lines[:2 + cut])

    def _same_columns(self, path: str, text: str) -> None:
        """Refuse (ValueError) to append to a file whose column names (its second line) are not
        ``columns``, say one written before a column was added: the rows would not line up."""
        lines = text.split("\n", 2)
        if len(lines) < 3:  # (the settings and the columns are written together: no column line, no rows)
            return
        found = next(csv.reader([lines[1]]), [])
        if found == self.columns:
            return
        missing = [c for c in self.columns if c not in found]
        extra = [c for c in found if c not in self.columns]
        what = "; ".join(part for part in (missing and "no " + ", ".join(missing),
                                           extra and "also " + ", ".join(extra)) if part) or "in another order"
        raise ValueError(f"{path} was written with other columns ({what}): its rows and these would not line up; "
                         "write to another file")

    def _same_version(self, path: str, old: Mapping[str, Any], identity: Mapping[str, Any]) -> None:
        """Refuse (ValueError) to append to a file whose rows another version of the code wrote (or
        one from before the version was kept): resuming would mix two versions' numbers in one file."""
        if self.version is None:
            return
        key, what = self.version
        theirs, mine = old.get(key), identity[key]
        if theirs == mine:
            return
        was = (f"is unversioned (its settings name no {key}: it was written before {what} versions were kept)"
               if theirs is None else f"was written by {what} version {theirs}")
        raise ValueError(f"{path} {was}, and this is {what} version {mine}: resuming it would add this "
                         f"version's rows to the other's, two versions' numbers in one file; write to another "
                         f"file (this one still loads as it is)")

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
             ) -> Iterator[tuple[Callable[[Any], None], set[tuple[Any, ...]]]]:
        """Open (or start) a file for appending, holding an exclusive lock; yield a function that
        writes one row, or with ``many_rows`` the list of one unit's rows (on the disk when it
        returns), and the keys of the units already there (with ``many_rows``, but the last).
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
                self._same_version(path, old, identity)
                fh.seek(0)
                text = fh.read()
                self._same_columns(path, text)
                keep = text[: text.rfind("\n") + 1]
                if keep != text:
                    print(f"warning: {path}: a torn last line (an unfinished row) is dropped and done again",
                          file=sys.stderr)
                if self.many_rows:
                    keep = self._without_last_unit(keep)
                if keep != text:
                    fh.truncate(len(keep.encode("utf-8")))
                old_rows = self.load(path)
                done = {self.unit(row) for row in old_rows[self.keys].to_dict("records")}
            if command is not None:
                with open(path + ".cmd", "w", encoding="utf-8") as cmd:
                    cmd.write(command + "\n")
            if not exists:
                fh.write(self.mark + json.dumps(identity) + "\n" + self.as_csv([]))
                fh.flush()

            def write(rows: Any) -> None:
                fh.write(self.as_csv([rows] if isinstance(rows, Mapping) else rows, header=False))
                fh.flush()
                os.fsync(fh.fileno())

            yield write, done
