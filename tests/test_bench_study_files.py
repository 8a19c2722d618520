"""The rows files of the benchmarks that keep their rows as they go (the endgame, schedule, honesty
and play-out-rate benchmarks): each is a ``StudyFile`` (lcanalysis/studies/study_file.py), its
settings on its first line. A run stopped part way resumes without losing or doubling a row, and a
file made with other settings is refused before its rows are mixed with these.

Each benchmark runs here on a tiny set with its measurement replaced by a cheap stand-in that
gives the same row for the same unit of work: a run stopped by an exception after a few rows (as a
kill leaves the file), then resumed, must leave the very rows of a run never stopped."""

from __future__ import annotations

import importlib
import json
import subprocess
import sys
from pathlib import Path
from types import SimpleNamespace

import pandas as pd
import pytest

ROOT = Path(__file__).resolve().parent.parent
BENCHMARKS = ["bench_endgame_trust", "bench_endgame_reach", "bench_endgame_settle", "bench_stall_probes",
              "bench_schedules", "bench_hint_honesty", "bench_playout_rate_values", "bench_hint_policy"]


class Stop(Exception):
    """The stand-in for a kill: raised by the measurement when the run is to stop."""


def _bench(monkeypatch, name):
    monkeypatch.syspath_prepend(str(ROOT / "benchmarks"))
    return importlib.import_module(name)


def _rows_file(bench):
    return bench.ROWS_FILE


def _measure(calls, stop_at, unit, row):
    """Record ``unit``; stop (as a kill would) at call number ``stop_at``; else the row."""
    calls.append(unit)
    if len(calls) == stop_at:
        raise Stop
    return row


def _trust(monkeypatch, bench, calls, stop_at, tmp_path):
    def run_one(seed, deck, ref_nodes, endgame_cards=None, hint_time=None):
        return _measure(calls, stop_at, (deck, seed), {
            "seed": seed, "deck": deck, "ref_best": "+R5/D", "ref_value": 1.0 + seed, "ref_stalls": 2,
            "ref_converged": True, "ref_seconds": 1.0, "rollouts_pick": "+R5/D", "rollouts_value": 1.0,
            "rollouts_loss": 0.5 * seed, "rollouts_seconds": 1.0, "hint_pick": "+R5/D", "hint_value": 1.0,
            "hint_loss": 0.0, "hint_stalls": 2, "hint_converged": seed % 2 == 0, "hint_seconds": 1.0})

    monkeypatch.setattr(bench, "run_one", run_one)
    return ["--deck", "3", "--positions", "4", "--hint-time", "10"]


def _reach(monkeypatch, bench, calls, stop_at, tmp_path):
    def run_one(seed, deck, nodes=None, with_bracket=True, clock=False):
        return _measure(calls, stop_at, (deck, seed), {
            "deck": deck, "seed": seed, "stalls": seed % 3, "converged": seed % 2 == 0, "exact": True,
            "view_seconds": 0.5, "bracket": "not tried", "bracket_low": "", "bracket_high": "",
            "bracket_seconds": 0.0})

    monkeypatch.setattr(bench, "run_one", run_one)
    return ["--decks", "2", "3", "--positions", "2", "--nodes", "1000", "--no-bracket"]


def _settle(monkeypatch, bench, calls, stop_at, tmp_path):
    def run_one(seed, deck, before, nodes, min_stalls=None, fill_every_turn=True):
        return _measure(calls, stop_at, (deck, seed, "before" if before else "today"), {
            "deck": deck, "seed": seed, "version": "before" if before else "today", "stalls": 2,
            "converged": True, "exact": before, "worlds": 90 + seed, "best_stderr": 0.25, "exact_turns": 3,
            "turns": 30, "nodes": 1000 + seed, "seconds": 0.5})

    monkeypatch.setattr(bench, "run_one", run_one)
    return ["--deck", "3", "--positions", "2", "--nodes", "1000"]


def _probes(monkeypatch, bench, calls, stop_at, tmp_path):
    import lcanalysis.cli.warmup

    def settle(seed, deck, nodes, mode, workers=1):
        row = {"deck": deck, "seed": seed, "mode": mode, "seconds": 0.5, "nodes": 1000 + seed, "stalls": 2,
               "exact": True, "best": "+R5/D", "value": 1.5}
        return row if deck == 2 else _measure(calls, stop_at, (deck, seed, mode), row)  # (2: the warm-up)

    monkeypatch.setattr(lcanalysis.cli.warmup, "engine_ready", lambda: None)
    monkeypatch.setattr(bench, "settle", settle)
    return ["--deck", "3", "--positions", "2", "--nodes", "1000", "--workers", "2"]


def _schedules(monkeypatch, bench, calls, stop_at, tmp_path):
    def advise(view, time_budget, seed, schedule, playout_rate, playout_policy):
        move = "+R5/D" if (view.index + len(schedule)) % 2 else "-B3/D"
        hint = SimpleNamespace(moves=[SimpleNamespace(move=move, extra={"worlds": 100 + view.index})])
        return _measure(calls, stop_at, (view.index, schedule), hint)

    monkeypatch.setattr(bench, "study_positions",
                        lambda n: [(i, i, 8, SimpleNamespace(index=i, deck_count=30 - i)) for i in range(n)])
    monkeypatch.setattr(bench, "cached_reference", lambda view, index, *a, **k: {
        "top": "+R5/D", "moves": {"+R5/D": [0.0, 0.0], "-B3/D": [1.0 + index, 0.25]}})
    monkeypatch.setattr(bench.lc, "advise", advise)
    return ["--positions", "3", "--reference", "2", "--schedules", "two-stage", "halving"]


def _honesty(monkeypatch, bench, calls, stop_at, tmp_path):
    import lcanalysis.studies.consistency

    refs = tmp_path / "refs.jsonl"
    # references of the plain play-outs (that name none, as the published ones) and of the staged ones
    refs.write_text("".join(json.dumps({"index": i, "reference": 30.0, "schedule": "halving", "seed": 2,
                                        "playout_rate": rate, **policy, "top": "+R5/D",
                                        "moves": {"+R5/D": [0.0, 0.0]}})
                            + "\n" for i in range(4) for rate in (6000, 15000)
                            for policy in ({}, {"playout_policy": "staged"})))

    def honesty_row(index, view, ref, rate=None, policy=None):
        return _measure(calls, stop_at, (index,), {
            "index": index, "cards_left": 30, "hint": "+R5/D", "reference": ref["top"], "ref_loss": 0.0,
            "ref_loss_stderr": 0.0, "consistent": True, "hint_loss": 0.1 * index, "hint_loss_stderr": 0.1,
            "covered": index != 2})

    monkeypatch.setattr(lcanalysis.studies.consistency, "study_positions",
                        lambda n: [(i, i, 8, None) for i in range(n)])
    monkeypatch.setattr(bench, "honesty_row", honesty_row)
    return ["--positions", "4", "--refs", str(refs), "--playout-rate", "6000"]


def _rate(monkeypatch, bench, calls, stop_at, tmp_path):
    import lcanalysis.game.notation
    import lcanalysis.studies.calibration

    sample = pd.DataFrame({"round": [1, 1, 4, 7], "turn": [8, 16, 8, 24], "cards_left": [36, 28, 36, 20],
                           "phase": ["early", "early", "early", "middle"], "played": ["+R5/D"] * 4,
                           "played_value": [1.0, -2.0, 3.0, 0.5], "realized": [2.0, -1.0, 5.0, 0.0],
                           "advisor_seed": [1, 2, 3, 4], "view": ["a", "b", "c", "d"]})

    def advise_position(view, played, seed, *settings):
        row = sample[sample.advisor_seed == seed].iloc[0]
        return _measure(calls, stop_at, (int(row["round"]), int(row.turn)),
                        {"played_value": 0.5 * seed, "played_stderr": 0.25})

    monkeypatch.setattr(bench, "sample", sample.head)
    monkeypatch.setattr(lcanalysis.game.notation, "read_position", lambda text: text)
    monkeypatch.setattr(lcanalysis.studies.calibration, "advise_position", advise_position)
    return ["--positions", "4"]


def _policy(monkeypatch, bench, calls, stop_at, tmp_path):
    def measure(seed, deck, trials, workers):
        differ = seed % 2 == 0
        return _measure(calls, stop_at, (seed, deck), {
            "seed": seed, "deck": deck, "turns_in": 44 - deck, "plain_top": "+R5/D", "plain_value": 1.0 + seed,
            "plain_stderr": 0.5, "stalling_top": "-B3/G" if differ else "+R5/D", "stalling_value": 2.0,
            "stalling_stderr": 0.5, "ref_plain": 1.5, "ref_plain_stderr": 1.0, "ref_stalling": 3.0 if differ else 1.5,
            "ref_stalling_stderr": 1.0, "gap": 1.5 if differ else 0.0, "gap_stderr": 0.5 if differ else 0.0,
            "trials": trials, "seconds": 10.0})

    monkeypatch.setattr(bench, "measure", measure)
    return ["--decks", "5", "9", "--views", "2", "--trials", "10"]


SETUP = {"bench_endgame_trust": _trust, "bench_endgame_reach": _reach, "bench_endgame_settle": _settle,
         "bench_stall_probes": _probes, "bench_schedules": _schedules, "bench_hint_honesty": _honesty,
         "bench_playout_rate_values": _rate, "bench_hint_policy": _policy}


def _summary(out: str) -> list[str]:
    """The printed summary, less the lines printed as each row finishes."""
    return [line for line in out.splitlines() if not line.startswith(("seed ", "deck "))]


def _whole_and_stopped(monkeypatch, capsys, tmp_path, name):
    """Benchmark ``name`` run whole into ``whole.csv``, then into ``rows.csv`` stopped (as a kill
    would) at its third measurement: the benchmark, its rows file, the measurements' record (the
    stopped run's), its arguments less ``--out``, the two files, the units the whole run measured
    and the summary it printed."""
    bench = _bench(monkeypatch, name)
    calls: list = []
    argv = SETUP[name](monkeypatch, bench, calls, 0, tmp_path)
    whole = tmp_path / "whole.csv"
    assert bench.main([*argv, "--out", str(whole)]) == 0
    units = list(calls)
    summary = _summary(capsys.readouterr().out)
    out = tmp_path / "rows.csv"
    calls.clear()
    SETUP[name](monkeypatch, bench, calls, 3, tmp_path)  # stopped at the third measurement
    with pytest.raises(Stop):
        bench.main([*argv, "--out", str(out)])
    return SimpleNamespace(bench=bench, rows_file=_rows_file(bench), calls=calls, argv=argv, whole=whole, out=out,
                           units=units, summary=summary)


def _table(rows_file, path):
    """The file's rows in the order of their units, less the CPU seconds a benchmark measures itself."""
    df = rows_file.load(path)
    return df.drop(columns=["cpu_seconds"], errors="ignore").sort_values(rows_file.keys).reset_index(drop=True)


@pytest.mark.parametrize("name", BENCHMARKS)
def test_each_benchmark_that_keeps_rows_starts_from_the_command_line(name):
    """Each runs as a script from anywhere."""
    done = subprocess.run([sys.executable, str(ROOT / "benchmarks" / f"{name}.py"), "--help"],
                          check=False, capture_output=True, text=True, cwd="/", timeout=120)
    assert done.returncode == 0, done.stderr
    assert "--out" in done.stdout


@pytest.mark.parametrize("name", BENCHMARKS)
def test_a_run_stopped_part_way_resumes_to_the_rows_of_a_run_never_stopped(tmp_path, monkeypatch, capsys, name):
    run = _whole_and_stopped(monkeypatch, capsys, tmp_path, name)
    bench, rows_file, calls, argv, whole, out, units, summary = (
        run.bench, run.rows_file, run.calls, run.argv, run.whole, run.out, run.units, run.summary)
    assert len(units) >= 4 and len(set(units)) == len(units)
    kept = rows_file.load(out)
    assert 0 < len(kept) < len(rows_file.load(whole))  # what finished is on the disk
    assert json.loads(out.read_text().splitlines()[0][len(rows_file.mark):]) == rows_file.read_identity(whole)
    with out.open("a") as fh:  # killed while writing the next row: a torn line
        fh.write(whole.read_text().splitlines()[2 + len(kept)][:7])
    calls.clear()
    SETUP[name](monkeypatch, bench, calls, 0, tmp_path)
    capsys.readouterr()
    assert bench.main([*argv, "--out", str(out)]) == 0
    captured = capsys.readouterr()
    assert "a torn last line (an unfinished row) is dropped and done again" in captured.err
    assert _summary(captured.out) == summary
    done_before = {rows_file.unit(r) for r in kept.to_dict("records")}
    assert calls == [u for u in units if tuple(u) not in done_before]  # only what was missing, once
    pd.testing.assert_frame_equal(_table(rows_file, out), _table(rows_file, whole))
    command = (tmp_path / "rows.csv.cmd").read_text()
    assert command == f"python benchmarks/{name}.py {' '.join([*argv, '--out', str(out)])}\n"

    calls.clear()  # run again: nothing to do
    assert bench.main([*argv, "--out", str(out)]) == 0
    assert calls == [] and _summary(capsys.readouterr().out) == summary


@pytest.mark.parametrize(("name", "made", "here", "named"), [
    ("bench_endgame_trust", ["--deck", "3", "--hint-time", "10"], ["--deck", "3", "--hint-time", "2"],
     "hint_time: 10.0 there, 2.0 here"),
    ("bench_endgame_trust", ["--endgame-cards", "4"], ["--endgame-cards", "3"], "endgame_cards: 4 there, 3 here"),
    ("bench_endgame_reach", ["--decks", "3", "--no-bracket"], ["--decks", "3", "--clock", "--no-bracket"],
     "clock: False there, True here, nodes: 12000000 there, None here"),
    ("bench_endgame_reach", ["--nodes", "1200000"], [], "nodes: 1200000 there, 12000000 here"),
    ("bench_endgame_settle", ["--min-stalls", "1", "--no-fill-every-turn"], ["--min-stalls", "1"],
     "no_fill_every_turn: True there, False here"),
    ("bench_stall_probes", ["--deck", "3"], ["--deck", "3", "--workers", "2"], "workers: 1 there, 2 here"),
    ("bench_hint_honesty", ["--playout-rate", "6000"], [], "playout_rate: 6000 there, 15000 here"),
    ("bench_hint_honesty", ["--playout-policy", "plain"], [], "playout_policy: 'plain' there, 'staged' here"),
    ("bench_schedules", ["--playout-policy", "plain"], ["--playout-policy", "stalling"],
     "playout_policy: 'plain' there, 'stalling' here"),
    # it once checked only the rate: hints against a 10x reference were mixed with those against a 30x one
    ("bench_schedules", ["--reference", "10", "--playout-rate", "6000"], ["--playout-rate", "6000"],
     "reference: 10.0 there, 30.0 here"),
    ("bench_schedules", ["--schedules", "two-stage"], [],
     "schedules: ['two-stage'] there, ['two-stage', 'halving'] here"),
    ("bench_playout_rate_values", [], None, "playout_rate: 15000 there, 6000 here"),  # None: the advisor's changed
])
def test_a_file_made_with_other_settings_is_refused_before_its_rows_are_mixed(tmp_path, monkeypatch, name, made,
                                                                                here, named):
    """Found reviewing the benchmarks: a rows file was resumed whatever the settings, so
    'bench_endgame_trust.py --hint-time 2' on a file of '--hint-time 10' (or a reach file of another
    node budget, whose help said 'a file holds one budget') appended rows of the other measurement,
    and the summary averaged the two. The settings are the file's first line now (they were in its
    .cmd sidecar); the file and its sidecar are left as they were, nothing measured."""
    bench = _bench(monkeypatch, name)
    calls: list = []
    argv = SETUP[name](monkeypatch, bench, calls, 0, tmp_path)
    extra = argv[argv.index("--refs"):argv.index("--refs") + 2] if "--refs" in argv else []
    positions = ["--positions", "2"]
    out = tmp_path / "rows.csv"
    assert bench.main([*made, *positions, *extra, "--out", str(out)]) == 0
    before, command = out.read_bytes(), (tmp_path / "rows.csv.cmd").read_text()
    if here is None:
        import lcanalysis.advisor

        monkeypatch.setattr(lcanalysis.advisor, "ROLLOUTS_PER_SECOND", 6000)
        here = made
    calls.clear()
    with pytest.raises(SystemExit) as refused:
        bench.main([*here, *positions, *extra, "--out", str(out)])
    assert str(refused.value) == f"error: {out} was made with other settings ({named}): write to another file"
    assert calls == [] and out.read_bytes() == before and (tmp_path / "rows.csv.cmd").read_text() == command


@pytest.mark.parametrize("name", BENCHMARKS)
def test_a_rows_file_of_the_old_format_is_refused_with_a_clear_error(tmp_path, monkeypatch, name):
    """A file written before the settings line (CSV from its first line; the settings were in its
    .cmd) is not resumed: its settings are unknown here."""
    bench = _bench(monkeypatch, name)
    argv = SETUP[name](monkeypatch, bench, [], 0, tmp_path)
    out = tmp_path / "rows.csv"
    out.write_text(",".join(_rows_file(bench).columns) + "\r\n")
    with pytest.raises(SystemExit) as refused:
        bench.main([*argv, "--out", str(out)])
    assert str(refused.value) == (f"error: {out} is not a {_rows_file(bench).what} file: its first line is not "
                                  "the header")


def test_a_file_of_older_columns_is_refused_before_rows_of_todays_are_appended(tmp_path, monkeypatch):
    """data/simulated/schedule_consistency.csv predates the ``playout_rate`` column. Resumed with its
    own settings and more positions, a run appended rows of 11 fields under its 10 column names:
    the file no longer read ("Expected 10 fields ... saw 11"). It is refused now, left as it was."""
    bench = _bench(monkeypatch, "bench_schedules")
    calls: list = []
    _schedules(monkeypatch, bench, calls, 0, tmp_path)
    published = ROOT / "data" / "simulated" / "schedule_consistency.csv"
    out = tmp_path / "schedules.csv"
    out.write_bytes(published.read_bytes())
    with pytest.raises(SystemExit) as refused:
        bench.main(["--positions", "201", "--reference", "30", "--schedules", "two-stage", "halving",
                    "--playout-rate", "6000", "--playout-policy", "plain", "--out", str(out)])
    assert str(refused.value) == (f"error: {out} was written with other columns (no playout_rate): its rows and "
                                  "these would not line up; write to another file")
    assert calls == [] and out.read_bytes() == published.read_bytes()
    assert len(bench.load_schedule_comparison(out)["halving"]) == 200


@pytest.mark.parametrize("name", BENCHMARKS)
def test_an_out_file_that_cannot_be_opened_is_an_error_naming_it_not_a_traceback(tmp_path, monkeypatch, name):
    bench = _bench(monkeypatch, name)
    calls: list = []
    argv = SETUP[name](monkeypatch, bench, calls, 0, tmp_path)
    out = tmp_path / "no such folder" / "rows.csv"
    with pytest.raises(SystemExit) as refused:
        bench.main([*argv, "--out", str(out)])
    assert str(refused.value) == f"error: [Errno 2] No such file or directory: '{out}'" and calls == []


@pytest.mark.parametrize("edited", ["advisor/playouts.py", "the benchmark", "its views' source"])
@pytest.mark.parametrize("name", BENCHMARKS)
def test_a_file_another_code_wrote_is_refused_unless_told_and_the_change_is_kept(tmp_path, monkeypatch, capsys,
                                                                                  edit_source, name, edited):
    """A rows file was resumed by whatever code ran: a benchmark stopped, the advisor (or the
    benchmark's own script, or the module its views come from) edited, and the run resumed added
    the new code's rows to the old one's, one summary over both. The file keeps the code that
    wrote it now (``study_file.ADVICE_CODE``, the views' module and the script, hashed as a
    tournament's code): after an edit the run is refused before anything is measured, naming
    both codes, the file as it was (but a run with nothing left to write, on a finished file, is
    not: nothing can mix); with ``--allow-code-change`` it goes on, its settings saying
    how many rows the earlier code wrote, and the file holds the rows a run never stopped writes."""
    from lcanalysis.tournaments.results import code_version

    run = _whole_and_stopped(monkeypatch, capsys, tmp_path, name)
    bench, rows_file, calls, argv, whole, out = run.bench, run.rows_file, run.calls, run.argv, run.whole, run.out
    kept, made = out.read_text(), rows_file.read_identity(out)["code"]
    assert made == code_version(rows_file.code[0])
    n = len(rows_file.load(out))
    assert n > 0

    study = {"bench_schedules": "consistency.py", "bench_hint_honesty": "consistency.py",  # (the fixed set's)
             "bench_playout_rate_values": "calibration.py",
             "bench_hint_policy": "rollout.py"}.get(name, "helpers.py")  # (played_down: the views; the reference's)
    edit_source({"the benchmark": f"{name}.py", "its views' source": study}.get(edited, edited))
    now = code_version(rows_file.code[0])
    calls.clear()
    SETUP[name](monkeypatch, bench, calls, 0, tmp_path)
    with pytest.raises(SystemExit) as refused:
        bench.main([*argv, "--out", str(out)])
    assert str(refused.value).startswith(
        f"error: {out} was written by lcanalysis {made['lcanalysis']} (source {made['source_sha256']}), and this is "
        f"lcanalysis {now['lcanalysis']} (source {now['source_sha256']}): the source of the agents, the engine, the "
        f"round player, the advisor, {study} or {name}.py changed since")
    assert str(refused.value).endswith("go on in this one with --allow-code-change (allow_code_change=True; the "
                                       "change is recorded in the file's settings)")
    assert calls == [] and out.read_text() == kept
    finished = whole.read_text()  # (the earlier code's, every unit of the run in it)
    assert bench.main([*argv, "--out", str(whole)]) == 0  # nothing to write: nothing can mix, so not refused
    assert calls == [] and whole.read_text() == finished

    capsys.readouterr()
    assert bench.main([*argv, "--out", str(out), "--allow-code-change"]) == 0
    assert f"its rows 1 to {n} were written by" in capsys.readouterr().err
    # the command that remakes the file does not carry the override, which was this run's
    command = (tmp_path / "rows.csv.cmd").read_text()
    assert command == f"python benchmarks/{name}.py {' '.join([*argv, '--out', str(out)])}\n"
    settings = rows_file.read_identity(out)
    assert settings["code"] == now and settings["earlier_code"] == [{"code": made, "rows": n}]
    pd.testing.assert_frame_equal(_table(rows_file, out), _table(rows_file, whole))
    calls.clear()
    assert bench.main([*argv, "--out", str(out)]) == 0 and calls == []  # this code's file now


def test_a_published_rows_file_still_loads_and_is_not_resumed_by_todays_code(tmp_path, monkeypatch, capsys):
    """The published rows files were written before the code was kept (unversioned): they load, and
    a run refuses to add today's rows to them, saying so, before measuring anything. Its own command
    (every view in the file: nothing to add, nothing can mix) prints its summary, as before the code
    was kept, the file as it was."""
    bench = _bench(monkeypatch, "bench_hint_honesty")
    calls: list = []
    argv = SETUP["bench_hint_honesty"](monkeypatch, bench, calls, 0, tmp_path)
    published = ROOT / "data" / "simulated" / "hint_honesty.csv"
    out = tmp_path / "hint_honesty.csv"
    out.write_bytes(published.read_bytes())
    whole = [*argv[:argv.index("--positions") + 1], "200", *argv[argv.index("--positions") + 2:],
             "--playout-policy", "plain"]
    assert bench.main([*whole, "--out", str(out)]) == 0  # (the published command: 200 views)
    assert calls == [] and out.read_bytes() == published.read_bytes()
    assert "200 views: consistent with the reference" in capsys.readouterr().out
    with pytest.raises(SystemExit) as refused:  # (its settings name no policy: made by the plain play-outs)
        bench.main([*whole[:-2], "--out", str(out)])
    assert str(refused.value) == (f"error: {out} was made with other settings (playout_policy: 'plain' there, "
                                  "'staged' here): write to another file")
    more = [*argv[:argv.index("--positions") + 1], "201", *argv[argv.index("--positions") + 2:],
            "--playout-policy", "plain"]
    with pytest.raises(SystemExit) as refused:
        bench.main([*more, "--out", str(out)])
    assert str(refused.value).startswith(f"error: {out} is unversioned (its settings name no code: it was written "
                                         "before the code behind its rows was kept), and this is lcanalysis")
    assert calls == [] and out.read_bytes() == published.read_bytes()
    assert len(bench.ROWS_FILE.load(published)) == 200


@pytest.mark.parametrize("name", BENCHMARKS)
def test_ctrl_c_in_a_benchmark_says_where_its_rows_are_kept_and_how_to_resume(tmp_path, monkeypatch, capsys, name):
    """It stopped with a bare KeyboardInterrupt traceback, saying nothing of the rows kept."""
    bench = _bench(monkeypatch, name)
    calls: list = []
    argv = SETUP[name](monkeypatch, bench, calls, 3, tmp_path)
    monkeypatch.setitem(globals(), "Stop", KeyboardInterrupt)  # Ctrl-C at the third measurement
    out = tmp_path / "rows.csv"
    with pytest.raises(KeyboardInterrupt):
        bench.main([*argv, "--out", str(out)])
    assert (f"stopped: the rows finished so far are kept in {out}; run the same command again (it is in "
            f"{out}.cmd) to resume") in capsys.readouterr().err
    assert len(_rows_file(bench).load(out)) > 0


@pytest.mark.parametrize(("name", "argv"), [("bench_two_stalls_trust", ["--deck", "3", "--positions", "1"]),
                                            ("bench_rollout_honesty", ["--positions", "1"])])
def test_a_file_that_is_not_the_benchmarks_rows_file_stops_it_with_an_error_not_a_traceback(tmp_path, monkeypatch,
                                                                                           name, argv):
    """The benchmarks outside the list above that keep rows open them as those do (``StudyFile.open_or_exit``):
    bench_rollout_honesty.py given a file it did not write ended in a ValueError's traceback; each now
    stops with 'error: ' and the reason, nothing measured and the file left as it was."""
    bench = _bench(monkeypatch, name)
    out = tmp_path / "rows.csv"
    out.write_text(",".join(_rows_file(bench).columns) + "\r\n")
    before = out.read_bytes()
    with pytest.raises(SystemExit) as refused:
        bench.main([*argv, "--out", str(out)])
    assert str(refused.value) == (f"error: {out} is not a {_rows_file(bench).what} file: its first line is not "
                                  "the header")
    assert out.read_bytes() == before


def test_bench_schedules_plays_the_policy_asked_and_keeps_references_of_one_policy_apart(tmp_path, monkeypatch):
    """--playout-policy reaches the references and the hints alike, is kept in the rows file's settings and in
    each reference; a reference that names no policy (the published ones) is the plain play-outs', so a run of
    the staged ones makes its own references rather than read those."""
    bench = _bench(monkeypatch, "bench_schedules")
    asked: list = []

    def advise(view, time_budget, seed, schedule, playout_rate, playout_policy):
        asked.append((view.index, time_budget, playout_policy))
        return SimpleNamespace(moves=[SimpleNamespace(move="+R5/D", loss=0.0, loss_stderr=0.0,
                                                      extra={"worlds": 9})])

    monkeypatch.setattr(bench, "study_positions",
                        lambda n: [(i, i, 8, SimpleNamespace(index=i, deck_count=30 - i)) for i in range(n)])
    monkeypatch.setattr(bench.lc, "advise", advise)
    refs = tmp_path / "refs.jsonl"
    refs.write_text(json.dumps({"index": 0, "reference": 2.0, "schedule": "halving", "seed": 2, "playout_rate": 6000,
                                "top": "+R5/D", "moves": {"+R5/D": [0.0, 0.0]}}) + "\n")
    base = ["--positions", "1", "--reference", "2", "--schedules", "halving", "--playout-rate", "6000",
            "--refs", str(refs), "--allow-code-change"]
    assert bench.main([*base, "--playout-policy", "plain", "--out", str(tmp_path / "plain.csv")]) == 0
    assert asked == [(0, 1.0, "plain")]  # the hint only: the reference read from the file
    assert bench.load_schedule_comparison(tmp_path / "plain.csv")["halving"].attrs["identity"]["playout_policy"] == \
        "plain"
    asked.clear()
    assert bench.main([*base, "--out", str(tmp_path / "staged.csv")]) == 0  # (the default: the advisor's)
    assert asked == [(0, 2.0, "staged"), (0, 1.0, "staged")]
    lines = [json.loads(line) for line in refs.read_text().splitlines()]
    assert len(lines) == 2 and "playout_policy" not in lines[0] and lines[1]["playout_policy"] == "staged"
    assert set(bench.load_references(refs)) == {(0, 2.0, "halving", 2, 6000, "plain"),
                                                 (0, 2.0, "halving", 2, 6000, "staged")}


def test_bench_hint_honesty_reads_only_references_of_its_play_out_policy(tmp_path, monkeypatch, capsys):
    """The hint's play-outs and its references' are of one policy: with no reference of it the run stops,
    naming the policy (references that name none are the plain play-outs')."""
    bench = _bench(monkeypatch, "bench_hint_honesty")
    calls: list = []
    argv = _honesty(monkeypatch, bench, calls, 0, tmp_path)
    assert bench.main([*argv, "--playout-policy", "stalling", "--out", str(tmp_path / "h.csv")]) == 2
    assert calls == []
    assert (f"error: {tmp_path / 'refs.jsonl'} holds no reference for view 0 at 6000 play-outs a second played by "
            "the stalling policy (--playout-policy; references that name none played the plain one)"
            in capsys.readouterr().err)
