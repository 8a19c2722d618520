"""benchmarks/rows_file.py: the rows files the endgame, schedule and calibration benchmarks append to
as they go, so that a stopped run resumes without losing or doubling a row."""

from __future__ import annotations

import csv
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
FIELDS = ["seed", "value"]


@pytest.fixture
def rows_file(monkeypatch):
    monkeypatch.syspath_prepend(str(ROOT / "benchmarks"))
    import rows_file

    return rows_file


def test_rows_are_on_disk_as_soon_as_they_are_added(tmp_path, rows_file):
    path = tmp_path / "rows.csv"
    assert rows_file.read_rows(path) == [] and rows_file.read_rows(None) == []
    with rows_file.appending(path, FIELDS) as add:
        add({"seed": 0, "value": 1.5})
        assert path.read_bytes() == b"seed,value\r\n0,1.5\r\n"  # flushed before the run goes on
        add({"seed": 1, "value": -2}, {"seed": 2, "value": 3})
    with rows_file.appending(path, FIELDS) as add:  # a resumed run adds no second header
        add({"seed": 3, "value": 0})
    assert [r["seed"] for r in rows_file.read_rows(path)] == ["0", "1", "2", "3"]


def test_a_run_stopped_before_its_first_row_still_gets_the_column_names(tmp_path, rows_file):
    """Found when regenerating data/simulated/endgame_judge_4cards.csv: a run killed before its first
    row left an empty file, and the run that resumed it wrote rows with no header (the first row
    was then read as the column names)."""
    path = tmp_path / "rows.csv"
    path.touch()
    with rows_file.appending(path, FIELDS) as add:
        add({"seed": 0, "value": 1})
    assert rows_file.read_rows(path) == [{"seed": "0", "value": "1"}]


def test_a_torn_last_line_is_cut_off_so_its_row_is_done_again(tmp_path, rows_file):
    path = tmp_path / "rows.csv"
    path.write_text("seed,value\r\n0,1\r\n1,2")  # killed while writing the second row
    assert rows_file.read_rows(path) == [{"seed": "0", "value": "1"}]
    with rows_file.appending(path, FIELDS) as add:
        add({"seed": 1, "value": 2})
    with path.open(newline="") as f:
        assert list(csv.reader(f)) == [["seed", "value"], ["0", "1"], ["1", "2"]]


@pytest.mark.parametrize("name", ["bench_endgame_trust", "bench_endgame_reach", "bench_endgame_settle",
                                  "bench_stall_probes", "bench_schedules", "bench_hint_honesty",
                                  "bench_playout_rate_values"])
def test_each_benchmark_that_keeps_rows_starts_from_the_command_line(name):
    """Each imports rows_file from its own folder, run as a script from anywhere."""
    done = subprocess.run([sys.executable, str(ROOT / "benchmarks" / f"{name}.py"), "--help"],
                          check=False, capture_output=True, text=True, cwd="/", timeout=120)
    assert done.returncode == 0, done.stderr
    assert "--out" in done.stdout
