"""benchmarks/rows_file.py: the rows files the schedule and calibration benchmarks append to as they
go, so that a stopped run resumes without losing or doubling a row (the endgame benchmarks keep
theirs as StudyFiles: tests/test_bench_study_files.py)."""

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


@pytest.mark.parametrize("name", ["bench_schedules", "bench_hint_honesty", "bench_playout_rate_values"])
def test_each_benchmark_that_keeps_rows_starts_from_the_command_line(name):
    """Each imports rows_file from its own folder, run as a script from anywhere."""
    done = subprocess.run([sys.executable, str(ROOT / "benchmarks" / f"{name}.py"), "--help"],
                          check=False, capture_output=True, text=True, cwd="/", timeout=120)
    assert done.returncode == 0, done.stderr
    assert "--out" in done.stdout


@pytest.mark.parametrize(("name", "made", "here", "named"), [
    ("bench_hint_honesty", ["--playout-rate", "6000"], [], "--playout-rate 6000 there, 15000 here"),
    # it checked only the rate: hints against a 10x reference were mixed with those against a 30x one
    ("bench_schedules", ["--reference", "10", "--playout-rate", "6000"], ["--playout-rate", "6000"],
     "--reference 10.0 there, 30.0 here"),
    ("bench_schedules", ["--schedules", "two-stage"], [], "--schedules two-stage there, two-stage halving here"),
])
def test_a_file_made_with_other_settings_is_refused_before_its_rows_are_mixed(tmp_path, monkeypatch, name, made,
                                                                                here, named):
    """Found reviewing the benchmarks: a rows file was resumed whatever the settings, so
    'bench_schedules.py --reference 30' on a file of '--reference 10' appended rows of the other
    measurement, and the summary averaged the two. The command that made a file is in its .cmd sidecar."""
    monkeypatch.syspath_prepend(str(ROOT / "benchmarks"))
    import importlib

    bench = importlib.import_module(name)
    out = tmp_path / "rows.csv"
    out.write_text("seed,deck\r\n")  # begun: a header, maybe rows
    refs = tmp_path / "refs.jsonl"
    refs.touch()
    extra = ["--refs", str(refs)] if name == "bench_hint_honesty" else []
    command = f"python benchmarks/{name}.py " + " ".join([*made, *extra, "--out", "elsewhere.csv"])
    (tmp_path / "rows.csv.cmd").write_text(command + "\n")
    with pytest.raises(SystemExit) as refused:
        bench.main([*here, *extra, "--out", str(out)])
    assert str(refused.value) == (f"error: {out} was made with other settings ({named}): its rows would be mixed "
                                  "with these; give another --out")
    assert (tmp_path / "rows.csv.cmd").read_text() == command + "\n"  # still the command that made it


def test_the_playout_rate_check_refuses_rows_of_another_rate(tmp_path, monkeypatch):
    """Its rows record the advisor's default rate; a file of another was resumed and mixed in."""
    monkeypatch.syspath_prepend(str(ROOT / "benchmarks"))
    import importlib

    from lcanalysis.advisor import ROLLOUTS_PER_SECOND

    bench = importlib.import_module("bench_playout_rate_values")
    out = tmp_path / "rows.csv"
    out.write_text(",".join(bench.FIELDS) + "\r\n" + "0,8,30,middle,+B6/D,1.0,1.0,0.5,2.0,6000\r\n")
    with pytest.raises(SystemExit) as refused:
        bench.main(["--positions", "1", "--out", str(out)])
    assert str(refused.value) == (f"error: {out} holds rows of playout rate 6000, and the advisor's default is "
                                  f"{ROLLOUTS_PER_SECOND} now: its rows would be mixed; give another --out")
