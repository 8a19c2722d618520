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


@pytest.mark.parametrize(("name", "made", "here", "named"), [
    ("bench_endgame_trust", ["--deck", "3", "--hint-time", "10"], ["--deck", "3", "--hint-time", "2"],
     "--hint-time 10.0 there, 2.0 here"),
    ("bench_endgame_trust", ["--endgame-cards", "4"], ["--endgame-cards", "3"], "--endgame-cards 4 there, 3 here"),
    ("bench_endgame_reach", ["--decks", "3", "--no-bracket"], ["--decks", "3", "--clock", "--no-bracket"],
     "--clock False there, True here, --nodes 12000000 there, None here"),
    ("bench_endgame_reach", ["--nodes", "1200000"], [], "--nodes 1200000 there, 12000000 here"),
    ("bench_endgame_settle", ["--min-stalls", "1", "--no-fill-every-turn"], ["--min-stalls", "1"],
     "--no-fill-every-turn True there, False here"),
    ("bench_stall_probes", ["--deck", "3"], ["--deck", "3", "--workers", "2"], "--workers 1 there, 2 here"),
    ("bench_hint_honesty", ["--playout-rate", "6000"], [], "--playout-rate 6000 there, 15000 here"),
    # it checked only the rate: hints against a 10x reference were mixed with those against a 30x one
    ("bench_schedules", ["--reference", "10", "--playout-rate", "6000"], ["--playout-rate", "6000"],
     "--reference 10.0 there, 30.0 here"),
    ("bench_schedules", ["--schedules", "two-stage"], [], "--schedules two-stage there, two-stage halving here"),
])
def test_a_file_made_with_other_settings_is_refused_before_its_rows_are_mixed(tmp_path, monkeypatch, name, made,
                                                                                here, named):
    """Found reviewing the benchmarks: a rows file was resumed whatever the settings, so
    'bench_endgame_trust.py --hint-time 2' on a file of '--hint-time 10' (or a reach file of another
    node budget, whose help said 'a file holds one budget') appended rows of the other measurement,
    and the summary averaged the two. The command that made a file is in its .cmd sidecar."""
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


def test_a_file_with_the_same_settings_resumes_and_one_with_no_command_is_refused(tmp_path, monkeypatch, capsys):
    monkeypatch.syspath_prepend(str(ROOT / "benchmarks"))
    import bench_endgame_trust as bench

    out = tmp_path / "trust.csv"
    row = {"seed": 0, "deck": 3, "ref_best": "+R5/D", "ref_value": 1.0, "ref_stalls": 2, "ref_converged": True,
           "ref_seconds": 1.0, "rollouts_pick": "+R5/D", "rollouts_value": 1.0, "rollouts_loss": 0.0,
           "rollouts_seconds": 1.0, "hint_pick": "+R5/D", "hint_value": 1.0, "hint_loss": 0.0, "hint_stalls": 2,
           "hint_converged": True, "hint_seconds": 1.0}
    with out.open("w", newline="") as f:
        writer = csv.DictWriter(f, bench.FIELDS)
        writer.writeheader()
        writer.writerow(row)
    argv = ["--deck", "3", "--positions", "1", "--hint-time", "10", "--out", str(out)]
    with pytest.raises(SystemExit, match=r"exists with no trust\.csv\.cmd saying how it was made: give another --out"):
        bench.main(argv)
    (tmp_path / "trust.csv.cmd").write_text(
        "python benchmarks/bench_endgame_trust.py --deck 3 --positions 16 --hint-time 10 --out x.csv\n")
    assert bench.main(argv) == 0  # seed 0 is there: nothing to do, the summary printed
    assert capsys.readouterr().out.startswith("1 views, 3 card(s) in the draw pile")
    assert (tmp_path / "trust.csv.cmd").read_text() == (
        f"python benchmarks/bench_endgame_trust.py --deck 3 --positions 1 --hint-time 10 --out {out}\n")


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
