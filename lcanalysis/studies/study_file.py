"""A long study's results file: written row by row as the work is done, and resumed.

The first line holds the settings the file was made with (JSON after a mark naming the study),
then CSV: a line of column names and one row per finished unit of work, each flushed to the disk
before the next starts (``kept_table``'s written as they are made, synced at most once a second,
``SYNC_EVERY``). A run given an existing file does only the units missing from it; a file
made with other settings is refused (it would mix results), and so is one written with other
columns (an older version's: its rows and the new ones would not line up), and so is one whose rows
another version of the code that makes them wrote (``version``: a setting naming it; a file whose
settings lack it is "unversioned": it loads, but is not resumed), and so is one whose rows other
source code wrote (``code``: the files the rows depend on, hashed as a tournament's
``tournaments.results.code_version``, in the setting ``code``; a file without it is unversioned
too), unless the run is told to go on regardless (``allow_code_change``, ``--allow-code-change``:
the change is recorded in the file's settings, ``earlier_code``), or has nothing left to write (``open``'s
``units``: every unit the run would do is in the file, so nothing can mix); a torn last line, from a
run killed while writing, is cut off and that unit done again. A unit may also be several rows (a reviewed
round, a rated deal, a rollout's trial): they are written at once, but a run killed while writing may have
left only some of them, each line whole. A format that knows how many rows a whole unit has (``unit_rows``:
a rollout's trial, a row per turn) keeps its last unit when they are all there; one that does not (a
reviewed round) does the file's last unit again. An exclusive lock keeps two
runs from writing one file. The calibration and consistency studies, the skill-and-luck study's
reviews and the benchmarks that keep rows (``benchmarks/bench_endgame_*.py``, ``bench_stall_probes.py``,
``bench_schedules.py``, ``bench_hint_honesty.py``, ``bench_playout_rate_values.py``) keep them this way,
and so do the simulations of ``lcanalysis studies data`` (``kept_table``: a table made unit by unit, in
a ``.partial`` file until it is written, ``simulation_file``; the file written gets a record of the settings
and code its rows were made with, ``MADE``, and a run of the same settings by the same code keeps it, ``Finished``).
"""

from __future__ import annotations

import contextlib
import copy
import csv
import fcntl
import json
import os
import shlex
import sys
import time
from collections.abc import Callable, Collection, Iterable, Iterator, Mapping, Sequence
from io import StringIO
from typing import Any

import pandas as pd

from lcanalysis.options import (
    ENDGAME_SPLITS,
    ENDGAME_SPLITS_DEFAULT,
    PLAYOUT_POLICY_CHOICES,
    PLAYOUT_POLICY_DEFAULT,
    append_whole,
    whole_text,
)
from lcanalysis.tournaments.results import CODE_FILES, code_version, describe_code

#: the code behind rows of rounds the agents played: a tournament's (``tournaments.results.CODE_FILES``:
#: the agents, the engine they play on, the round player and the luck of the draws)
PLAY_CODE: tuple[tuple[str, ...], str] = (CODE_FILES, "the agents, the engine or the round player")
#: the code behind rows of the advisor's answers (on positions the agents played to): the agents'
#: play (whose opponent-hand model and match equity the advisor uses too) and the advisor
ADVICE_CODE: tuple[tuple[str, ...], str] = ((*CODE_FILES, "advisor"),
                                            "the agents, the engine, the round player or the advisor")
#: the code behind rows of rounds simulated and the wager models' predictions on them (``studies data``'s
#: colours and wager models): the agents' play and the wager models (``wagers``: the simulation's bot too)
WAGER_CODE: tuple[tuple[str, ...], str] = ((*CODE_FILES, "wagers"),
                                           "the agents, the engine, the round player or the wager models")
#: the option that lets a run go on with a file whose rows other code wrote (``open``'s ``allow_code_change``)
ALLOW_CODE_CHANGE = "--allow-code-change"
#: what ``--allow-code-change`` says in the help of a command that writes a study file
ALLOW_CODE_CHANGE_HELP = ("go on with a file whose rows other code wrote (after a change that cannot move its "
                          "numbers; the change is recorded in the file's settings)")


def add_playout_policy_option(parser: Any, whose: str = "", recorded: bool = True) -> None:
    """``--playout-policy`` on a study's or benchmark's command line (``options.PLAYOUT_POLICY_CHOICES``;
    None: the advisor's default): ``whose`` names whose play-outs beyond the advisor's (", the hint's and the
    references'"); ``recorded``: the command keeps it in its file's settings, so a resume under another is
    refused, and the help says so."""
    kept = "; recorded in the file's settings, so a resume with another policy is refused" if recorded else ""
    parser.add_argument("--playout-policy", choices=PLAYOUT_POLICY_CHOICES, default=None,
                        help=f"the policy of the advisor's play-outs{whose} (default: as the advisor does, "
                             f"{PLAYOUT_POLICY_DEFAULT}){kept}")


def add_endgame_splits_option(parser: Any) -> None:
    """``--endgame-splits`` on a study's command line (``options.ENDGAME_SPLITS``; None: the advisor's default),
    recorded in its file's settings, so a resume under another is refused."""
    parser.add_argument("--endgame-splits", choices=ENDGAME_SPLITS, default=None,
                        help="how the advisor's endgame search weighs the ways the opponent's unknown cards may lie: "
                             "uniform (every split alike, the view value) or model (by the opponent-hand model) "
                             f"(default: as the advisor does, {ENDGAME_SPLITS_DEFAULT}); recorded in the file's "
                             "settings, so a resume with another is refused")


#: what a study file that could not be written keeps, and how to go on (``options.append_whole``)
KEPT = ("the rows written before are kept in it: make room (or mend the fault) and run the same command again to "
        "resume")


#: how often, at most, ``StudyFile.kept_table`` syncs the units it writes to the disk (``fsync``): each is
#: written as it is made, so a stop or a kill loses none, but a sync takes milliseconds on a busy disk, longer
#: than a quick unit takes to make (a wager-sim row at 2,000 samples); a crash of the machine may lose this much
SYNC_EVERY = 1.0


#: the suffix of the file a simulation of ``studies data`` keeps its rows in until the file it makes is written
#: (``kept_table``'s ``path``: FILE.partial, ``studies.data.kept_while_made``)
PARTIAL = ".partial"
#: beside a file written from a kept one (FILE.made.json): the settings its rows were made with (the code too,
#: as the kept file's settings line held them) and the file's hash (``write_made``); a run with those settings by
#: that code finds the file finished (``Finished``) and keeps it
MADE = ".made.json"


class Finished(Exception):
    """``StudyFile.kept_table`` given the kept file (FILE.partial, missing) of a file, ``path``, that is
    written and current: made with the run's settings by the run's code (``finished``), nothing to make."""

    def __init__(self, path: str) -> None:
        super().__init__(f"{path} is finished: made with these settings by this code")
        self.path = path


def _sha256(path: str) -> str:
    import hashlib

    with open(path, "rb") as fh:
        return hashlib.sha256(fh.read()).hexdigest()


def write_made(path: str, settings: Mapping[str, Any]) -> None:
    """Record beside the written file ``path`` (in ``path`` + ``MADE``) the ``settings`` its rows were
    made with (a kept file's settings line, ``read_settings``) and its hash."""
    with open(path + MADE, "w", encoding="utf-8") as fh:
        fh.write(json.dumps({"settings": dict(settings), "sha256": _sha256(path)}, indent=1) + "\n")


def finished(path: str, settings: Mapping[str, Any]) -> bool:
    """Whether the file ``path`` was written from rows all made with ``settings`` (the code in them too:
    a file some of whose rows other code made, ``earlier_code``, is not) and is still the file then
    written (its hash as recorded, ``write_made``)."""
    try:
        with open(path + MADE, encoding="utf-8") as fh:
            record = json.load(fh)
        return bool(record["settings"] == dict(settings) and record["sha256"] == _sha256(path))
    except (OSError, ValueError, KeyError, TypeError):  # (no record, or none that reads: not finished)
        return False


def reproducing(command: str) -> str:
    """``command`` less ``--allow-code-change`` (or a short form of it the command line takes, as
    ``--allow-code``): what a file's ``.cmd`` sidecar holds, the command that makes the file again.
    The override lets one run go on across a change of code (and the file's settings record it); a
    reproduction that carried it would go on silently across the next change too."""
    try:
        words = shlex.split(command)
    except ValueError:  # (not shell words: written as given)
        return command
    kept = [w for w in words if not (len(w) > len("--") and ALLOW_CODE_CHANGE.startswith(w))]
    return command if kept == words else shlex.join(kept)


class OtherSettingsError(ValueError):
    """A file made with other settings than a run's (``StudyFile.open``): ``path`` and, in words,
    ``settings`` (each setting that differs, the file's value and the run's)."""

    def __init__(self, path: str, settings: str) -> None:
        super().__init__(f"{path} was made with other settings ({settings}): write to another file")
        self.path, self.settings = path, settings


class OtherCodeError(ValueError):
    """A file whose rows other code wrote than a run's, or one that names no code (unversioned),
    refused for resuming (``StudyFile.open``): ``path`` and ``was``, in words, the code that wrote
    it against the run's and what resuming would do."""

    def __init__(self, path: str, was: str, recorded: str = "the change is recorded in the file's settings") -> None:
        super().__init__(f"{path} {was}, two versions' numbers in one file. Write to another file (this one still "
                         "loads as it is), or, if the change cannot move these numbers, go on in this one with "
                         f"--allow-code-change (allow_code_change=True; {recorded})")
        self.path, self.was = path, was


def other_code_error(path: str, theirs: Mapping[str, Any] | None, mine: Mapping[str, Any], what: str,
                     named: str = "its settings name", recorded: str = "the change is recorded in the file's settings"
                     ) -> OtherCodeError:
    """The refusal of a file whose rows code ``theirs`` wrote (None: the file ``named`` no code, it is
    unversioned) to rows of this code, ``mine``; ``what``: the source files behind the rows, in words;
    ``recorded``: where ``--allow-code-change`` records the change. ``StudyFile``'s, and that of a file
    of another form whose rows each name their code (``bench_schedules.py``'s references)."""
    if theirs is None:
        was = (f"is unversioned ({named} no code: it was written before the code behind its rows was kept), and "
               f"this is {describe_code(dict(mine))}: resuming it would add this code's rows to rows of unknown code")
    else:
        was = (f"was written by {describe_code(dict(theirs))}, and this is {describe_code(dict(mine))}: the source of "
               f"{what} changed since, so resuming it would add this code's rows to the other's")
    return OtherCodeError(path, was, recorded)


def _not_text(path: str | os.PathLike[str], what: str) -> ValueError:
    """The error for a file that is not UTF-8 text (a picture or an archive given as the file): Python's
    decoding error named neither the file nor what it was expected to be."""
    return ValueError(f"{os.fspath(path)} is not a {what} file: it is not UTF-8 text")


def _first_line(path: str | os.PathLike[str], what: str) -> str:
    """The first line of the file at ``path``; ``_not_text`` when it is not UTF-8 text."""
    try:
        with open(path, encoding="utf-8") as fh:
            return fh.readline()
    except UnicodeDecodeError:
        raise _not_text(path, what) from None


def read_settings(path: str | os.PathLike[str], mark: str | None = None, what: str = "study") -> dict[str, Any]:
    """The settings a study file was made with, as written: the JSON object that ends its first line,
    after ``mark`` (the study's, ``StudyFile.mark``; ValueError when the line does not start with it).
    Without ``mark`` (a caller that has only the path): the first ``{`` from which the rest of the
    line is one JSON object, so a ``{`` in the mark is passed over (the object after the mark is
    a whole line's end, balanced; a mark's ``{`` followed by it is not one object)."""
    first = _first_line(path, what).rstrip("\n")
    if mark is not None:
        if not first.startswith(mark):
            raise ValueError(f"{os.fspath(path)} is not a {what} file: its first line is not the header")
        try:
            settings = json.loads(first[len(mark):])
        except ValueError:
            settings = None
        if not isinstance(settings, dict):  # (json's own words named neither the file nor what was wrong)
            raise ValueError(f"{os.fspath(path)} is not a {what} file: its first line ends in no settings")
        return settings
    start = first.find("{")
    while start >= 0:
        with contextlib.suppress(ValueError):
            settings = json.loads(first[start:])
            if isinstance(settings, dict):
                return settings
        start = first.find("{", start + 1)
    raise ValueError(f"{os.fspath(path)} is not a {what} file: its first line ends in no settings")


def code_record(path: str) -> dict[str, Any] | None:
    """The code a study file's rows were written by, when two or more codes wrote them (a run went
    on with ``--allow-code-change``): its settings' ``code`` and ``earlier_code``; None when one
    code wrote them all, or the file names none."""
    settings = read_settings(path)
    if not settings.get("earlier_code"):
        return None
    return {"code": settings.get("code"), "earlier_code": settings["earlier_code"]}


def _whole(value: Any) -> int:
    """A key of a row: a whole number a table holds (numpy's too), or its text as written (``whole_text``)."""
    return whole_text(value) if isinstance(value, str) else int(value)


class StudyFile:
    """The file format of one study: ``mark`` starts the settings line, ``columns`` are the CSV
    columns, ``keys`` the columns that name a unit of work (whole numbers, but those also in
    ``text_keys``), ``identity_keys`` the settings that must match to resume, ``bools`` the columns
    read back as booleans, and ``defaults`` settings an older file may lack. ``many_rows``: a unit
    of work is several rows, written together. ``float_format``: how numbers are written (as
    pandas' ``to_csv`` writes them), instead of in full. ``version``: (the setting that holds the
    version of the code behind the rows, what that code is in words), e.g. ``("review_version",
    "review")``: a file written by another version, or by none (a file from before the setting),
    is refused for resuming, naming both versions; it still loads. ``code``: (the source files the
    rows depend on, as ``tournaments.results.CODE_FILES``, what they are in words), ``PLAY_CODE`` or
    ``ADVICE_CODE`` and the module that makes the rows (``made_by(__file__)``): their hash goes
    into the setting ``code`` of a file started, and a file whose rows other code wrote, or whose
    settings name no code, is refused for resuming unless ``allow_code_change``; it still loads.
    ``unit_rows``: with ``many_rows``, how many rows a whole unit has, from the file's settings and
    the unit's key: a resumed file keeps its last unit when it has them all (without it, the last
    unit is always done again, as it may be partial)."""

    def __init__(self, what: str, mark: str, columns: Sequence[str], keys: Sequence[str],
                 identity_keys: Sequence[str], bools: Sequence[str] = (),
                 defaults: Mapping[str, Any] | None = None, text_keys: Sequence[str] = (),
                 many_rows: bool = False, float_format: str | None = None,
                 version: tuple[str, str] | None = None,
                 code: tuple[Sequence[str], str] | None = None,
                 unit_rows: Callable[[Mapping[str, Any], tuple[Any, ...]], int] | None = None) -> None:
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
        self.code = (tuple(code[0]), code[1]) if code is not None else None
        self.unit_rows = unit_rows

    def made_by(self, source: str) -> StudyFile:
        """This format, its rows made by the code of ``code`` and by ``source`` too: the module or
        script that makes them from that code (its ``__file__``: the study's, the benchmark's), so
        that an edit of how a row is made is changed code as well."""
        made = copy.copy(self)
        files, what = self.code or ((), "")
        head, _, last = what.rpartition(" or ")
        name = os.path.basename(source)
        words = f"{head}, {last} or {name}" if head else f"{what} or {name}" if what else name
        made.code = ((*files, os.path.abspath(source)), words)
        return made

    def unit(self, row: Mapping[str, Any]) -> tuple[Any, ...]:
        """The key of the unit of work a row belongs to; a key not a whole number as a person writes it
        is a ValueError ('1_0', which ``int`` reads as 10: a resumed file refuses such a row first,
        naming its line, in ``_whole_keys``)."""
        return tuple(str(row[k]) if k in self.text_keys else _whole(row[k]) for k in self.keys)

    def read_identity(self, path: str | os.PathLike[str]) -> dict[str, Any]:
        """The settings a file was made with (its first line)."""
        return {**self.defaults, **self._settings(path)}

    def _settings(self, path: str | os.PathLike[str]) -> dict[str, Any]:
        """The settings line as written (without ``defaults``)."""
        return read_settings(path, self.mark, self.what)

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

    def _without_last_unit(self, text: str, settings: Mapping[str, Any]) -> str:
        """``text`` (whole lines) less the rows of its last unit of work when they may be partial:
        always, unless ``unit_rows`` (given the file's ``settings``) says how many a whole unit has
        and the last unit has them all."""
        lines = text.splitlines(keepends=True)
        if len(lines) <= 2:  # the settings and the columns only
            return text
        rows = [dict(zip(self.columns, fields)) for fields in csv.reader(lines[2:])]
        last, cut = self.unit(rows[-1]), len(rows) - 1
        while cut > 0 and self.unit(rows[cut - 1]) == last:
            cut -= 1
        if self.unit_rows is not None and len(rows) - cut == self.unit_rows(settings, last):
            return text
        return "".join(lines[:2 + cut])

    def _units(self, text: str) -> set[tuple[Any, ...]]:
        """The keys of the units whose rows ``text`` (a file's whole lines) holds."""
        rows = self.table(text.split("\n", 1)[1] if "\n" in text else "")
        return {self.unit(row) for row in rows[self.keys].to_dict("records")}

    def _nothing_to_write(self, path: str) -> Callable[..., None]:
        """The writer of a run that has nothing to write (``open``'s ``units`` all in the file)."""
        def write(rows: Any, sync: bool = True) -> None:
            raise RuntimeError(f"{path} already holds every unit of work this run was given (its units): "
                               "nothing is appended to it")
        return write

    def _same_settings(self, path: str, old: Mapping[str, Any], identity: Mapping[str, Any],
                       unknown: Collection[str] = ()) -> None:
        """Refuse (``OtherSettingsError``, naming each) a file made with other settings, ``old``, than ``identity``
        (but those ``unknown``, not compared)."""
        diff = [k for k in self.identity_keys if k not in unknown and old.get(k) != identity[k]]
        if diff:
            raise OtherSettingsError(path, ", ".join(f"{k}: {old.get(k)!r} there, {identity[k]!r} here" for k in diff))

    def refuse_other_settings(self, path: str | None, identity: Mapping[str, Any],
                              unknown: Collection[str] = ()) -> None:
        """Before any work: refuse, as ``open`` does, a file at ``path`` whose settings line says it was
        made with other settings than ``identity`` (``OtherSettingsError``), or that is not this study's
        (ValueError); a missing file, or one cut short before its settings line was whole, is left to
        ``open``. ``unknown``: settings not known yet (a rollout's turns, before the hint chooses them),
        left to a later call."""
        if path is None or not os.path.exists(path):
            return
        if _first_line(path, self.what).endswith("\n"):
            self._same_settings(path, self.read_identity(path), identity, unknown)

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

    def _whole_keys(self, path: str, text: str) -> None:
        """Refuse (ValueError, naming the line and the column) a row of ``text`` (a file's whole lines)
        whose unit is not named by whole numbers in its ``keys`` (those not in ``text_keys``): a row no
        run wrote, which would be read as another unit ('1.5' as 1) or stop the run with Python's words."""
        numbered = [(k, self.columns.index(k)) for k in self.keys if k not in self.text_keys]
        reader = csv.reader(StringIO(text.split("\n", 1)[1] if "\n" in text else "", newline=""))
        next(reader, None)  # (the column names)
        for fields in reader:
            number = reader.line_num + 1  # (the file's line: the settings line is not the reader's)
            for k, at in numbered:
                value = fields[at] if at < len(fields) else ""
                digits = value[1:] if value[:1] == "-" else value
                if not (digits.isascii() and digits.isdigit()):
                    raise ValueError(f"{path} line {number}: {k} {value!r} is not a whole number: a row the study "
                                     "cannot have written (was the file edited?); write to another file")

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

    def _same_code(self, path: str, old: Mapping[str, Any], mine: dict[str, Any], rows: int,
                   allow: bool) -> dict[str, Any] | None:
        """None when the file's rows were written by this code (``code``). Else refuse (ValueError)
        to append to a file whose rows other code wrote, or one from before the code was kept,
        unless ``allow`` or it has no rows yet: then the settings to write instead, with this code
        and, when rows are there, the file's code and the count of rows so far added to
        ``earlier_code`` (each entry the code that wrote the rows up to its count, from the entry
        before's)."""
        if self.code is None or old.get("code") == mine:
            return None
        theirs, what = old.get("code"), self.code[1]
        if rows and not allow:
            raise other_code_error(path, theirs, mine, what)
        earlier = list(old.get("earlier_code") or [])
        if rows:
            since = earlier[-1]["rows"] if earlier else 0
            earlier.append({"code": theirs, "rows": rows})
            print(f"note: {path}: its rows {since + 1} to {rows} were written by {describe_code(theirs)}, the rows "
                  f"from here on by {describe_code(mine)} (--allow-code-change; recorded in its settings, "
                  "earlier_code)", file=sys.stderr)
        return {**old, "code": dict(mine), **({"earlier_code": earlier} if earlier else {})}

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

    def _cut_short_before_its_rows(self, fh: Any, path: str) -> bool:
        """Whether the file open on ``fh`` (at ``path``) is one of this study begun and stopped before its
        settings line and column names were whole (a run killed, or a disk full, as it wrote them): it
        holds no rows, and would be refused as unreadable, or read its first row as the column names.
        A file that is not UTF-8 text is refused (``_not_text``), as ``_first_line`` refuses it."""
        fh.seek(0)
        try:
            text = fh.read()
        except UnicodeDecodeError:
            raise _not_text(path, self.what) from None
        return text.count("\n") < 2 and (text.startswith(self.mark) or self.mark.startswith(text))

    def _locked(self, path: str, stack: contextlib.ExitStack) -> Any:
        """``path`` opened for appending (made if missing), under an exclusive lock."""
        fh = stack.enter_context(open(path, "a+", encoding="utf-8", newline=""))  # noqa: SIM115 (closed by the stack)
        try:
            fcntl.flock(fh, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            raise RuntimeError(f"another {self.what} run is writing {path}") from None
        return fh

    def _new_settings(self, path: str, settings: Mapping[str, Any], text: str, stack: contextlib.ExitStack) -> Any:
        """Write ``settings`` over the first line of ``path`` (whose lines are ``text``) by a whole
        new file renamed over it (a crash leaves the one or the other), and return it opened and
        locked as ``_locked`` does."""
        new = path + ".new"
        with open(new, "w", encoding="utf-8", newline="") as fh:
            fh.write(self.mark + json.dumps(settings) + "\n" + text.split("\n", 1)[1])
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(new, path)
        return self._locked(path, stack)

    @contextlib.contextmanager
    def open(self, path: str, identity: dict[str, Any], command: str | None = None,
             allow_code_change: bool = False, units: Iterable[tuple[Any, ...]] | None = None,
             says_stopped: bool = True) -> Iterator[tuple[Callable[..., None], set[tuple[Any, ...]]]]:
        """Open (or start) a file for appending, holding an exclusive lock; yield a function that
        writes one row, or with ``many_rows`` the list of one unit's rows (on the disk when it
        returns; given ``sync=False``, in the file, on the disk at the next sync), and the keys of
        the units already there (with ``many_rows``, but the last unless ``unit_rows`` finds it whole).
        ``command``: the command that makes the file, written to its ``.cmd`` sidecar once the
        lock is held and the file's settings match (a refused resume leaves the sidecar as it was),
        less ``--allow-code-change`` (``reproducing``: the override is this run's, not the file's).
        With ``code``, the code's hash joins ``identity`` (the setting ``code``), and a file whose
        rows other code wrote is refused unless ``allow_code_change`` (see ``_same_code``). ``units``:
        the key of every unit of work the run would do; a file of another ``version`` or ``code``
        that holds them all (with ``many_rows``, its last unit too, taken as whole) is not refused,
        since the run has nothing to write (nothing can mix): it is left as it is (its settings and
        sidecar too), and every unit in it is done. Without ``units``, a run is refused as if it had
        work left. Ctrl-C (``KeyboardInterrupt``) while the file is open says, with a ``command`` and
        ``says_stopped`` (a caller that says it in words of its own passes False), that the rows
        written are kept in it and the command resumes."""
        if self.code is not None:
            identity = {**identity, "code": code_version(self.code[0])}
        exists = os.path.exists(path) and os.path.getsize(path) > 0
        with contextlib.ExitStack() as stack:
            fh = self._locked(path, stack)
            done: set[tuple[Any, ...]] = set()
            if exists and self._cut_short_before_its_rows(fh, path):
                print(f"warning: {path}: cut short as it was begun (its settings or column names unfinished, no "
                      "rows): begun again", file=sys.stderr)
                fh.truncate(0)
                exists = False
            if exists:
                old = self.read_identity(path)
                self._same_settings(path, old, identity)
                fh.seek(0)
                text = fh.read()
                self._same_columns(path, text)
                whole = text[: text.rfind("\n") + 1]
                self._whole_keys(path, whole)
                if units is not None and whole == text and (held := self._units(whole)).issuperset(units) and (
                        (self.version is not None and old.get(self.version[0]) != identity[self.version[0]])
                        or (self.code is not None and self._settings(path).get("code") != identity["code"])):
                    yield self._nothing_to_write(path), held  # (another version's or code's file: left as it is)
                    return
                self._same_version(path, old, identity)
                keep = self._without_last_unit(whole, old) if self.many_rows else whole
                settings = self._same_code(path, self._settings(path), identity.get("code", {}),
                                           max(0, keep.count("\n") - 2), allow_code_change)
                if whole != text:
                    print(f"warning: {path}: a torn last line (an unfinished row) is dropped and done again",
                          file=sys.stderr)
                if settings is not None:
                    fh = self._new_settings(path, settings, keep, stack)
                elif keep != text:
                    fh.truncate(len(keep.encode("utf-8")))
                old_rows = self.load(path)
                done = {self.unit(row) for row in old_rows[self.keys].to_dict("records")}
            if command is not None:
                with open(path + ".cmd", "w", encoding="utf-8") as cmd:
                    cmd.write(reproducing(command) + "\n")
            if not exists:  # (whole or not at all, as a row)
                append_whole(fh.fileno(), (self.mark + json.dumps(identity) + "\n" + self.as_csv([])).encode("utf-8"),
                             path, "nothing was in it: make room (or mend the fault) and run the same command again")

            def write(rows: Any, sync: bool = True) -> None:
                append_whole(fh.fileno(), self.as_csv([rows] if isinstance(rows, Mapping) else rows,
                                                      header=False).encode("utf-8"), path, KEPT, sync)

            try:
                yield write, done
            except KeyboardInterrupt:
                if command is not None and says_stopped:
                    print(f"stopped: the rows finished so far are kept in {path}; run the same command again (it is "
                          f"in {path}.cmd) to resume", file=sys.stderr, flush=True)
                raise

    def open_or_exit(self, stack: contextlib.ExitStack, path: str | os.PathLike[str], identity: dict[str, Any],
                     command: str | None, allow_code_change: bool, units: Iterable[tuple[Any, ...]]
                     ) -> tuple[Callable[..., None], set[tuple[Any, ...]]]:
        """``open`` for a script's run (a benchmark's), held open in ``stack``: the function that writes
        a row and the units already in the file. A file the run may not add to (made with other settings,
        columns, version or code; another run writing it; a folder it cannot write in) ends the script
        with ``error:`` and the reason (``SystemExit``), as a command's refusal does, the file as it was."""
        try:
            return stack.enter_context(self.open(os.fspath(path), identity, command, allow_code_change, units=units))
        except (ValueError, RuntimeError, OSError) as e:
            raise SystemExit(f"error: {e}") from None

    def kept_table(self, path: str | None, identity: dict[str, Any], units: Sequence[tuple[Any, ...]],
                   make: Callable[[tuple[Any, ...]], Any], columns: Sequence[str] | None = None,
                   progress: bool = False, allow_code_change: bool = False, **bar: Any) -> pd.DataFrame:
        """The table of ``units`` (each a unit's key, as ``unit`` gives it, in the table's order), each
        unit's row (with ``many_rows`` its list of rows) made by ``make(key)``. With a ``path``, each
        is written to it as it is made (``open``; synced to the disk at most once a second, ``SYNC_EVERY``):
        a run stopped (Ctrl-C) and started again with the same ``identity`` makes only the units missing
        from it, and the table is the one an unbroken run
        gives; without one, the rows are kept in memory (``frame``: the same table). ``columns``: the
        table's (default all). ``progress``: a bar over the units (``bar``: its ``desc``, ``unit``...),
        those kept before counted done. A file whose rows other code wrote (``code``) is refused unless
        ``allow_code_change``, or unless it holds every unit (``open``). A ``path`` FILE.partial that is
        missing, beside a FILE written from rows made with ``identity`` by this code (``finished``:
        ``studies data`` run again after a stop), raises ``Finished`` before anything is made."""
        from lcanalysis.progress import progress_bar

        if path is not None and path.endswith(PARTIAL) and not os.path.exists(path):
            written = path[: -len(PARTIAL)]
            mine = {**identity, "code": code_version(self.code[0])} if self.code is not None else identity
            if finished(written, mine):
                raise Finished(written)
        if path is None:
            rows = [make(key) for key in progress_bar(units, total=len(units), progress=progress, **bar)]
            table = self.frame([r for made in rows for r in made] if self.many_rows else rows, identity)
            return table[list(columns or self.columns)]
        with self.open(path, identity, allow_code_change=allow_code_change, units=units) as (write, done):
            todo = [key for key in units if key not in done]
            synced = time.monotonic()
            for key in progress_bar(todo, progress=progress, initial=len(units) - len(todo), total=len(units), **bar):
                sync = time.monotonic() - synced >= SYNC_EVERY
                write(make(key), sync=sync)
                synced = time.monotonic() if sync else synced
            if todo:
                write([], sync=True)  # (the last units on the disk too)
        table = self.load(path)
        order = {key: k for k, key in enumerate(units)}
        rank = [order[self.unit(row)] for row in table[self.keys].to_dict("records")]
        table = table.iloc[sorted(range(len(rank)), key=rank.__getitem__)]  # (stable: a unit's rows stay in order)
        return table[list(columns or self.columns)].reset_index(drop=True)


def simulation_file(what: str, columns: Sequence[str], keys: Sequence[str], identity_keys: Sequence[str],
                    code: tuple[Sequence[str], str], source: str, **options: Any) -> StudyFile:
    """The file a simulation of ``lcanalysis studies data`` keeps its rows in as it makes them (its
    ``out``, ``StudyFile.kept_table``): a ``StudyFile`` of the study ``what`` (its settings line marked
    ``# lcanalysis WHAT: ``), one row (``many_rows``: rows) a unit named by ``keys``, resumed only with
    the same ``identity_keys`` and by the same code: ``code`` (``PLAY_CODE``, ``WAGER_CODE``) and the
    study's module, ``source`` (its ``__file__``, ``made_by``); ``options``: ``StudyFile``'s others
    (``bools``, ``many_rows``...)."""
    return StudyFile(what, f"# lcanalysis {what}: ", columns, keys=keys, identity_keys=identity_keys, code=code,
                     **options).made_by(source)
