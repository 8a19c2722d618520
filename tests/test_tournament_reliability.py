"""Tournament results files can be trusted: a file names its tournament and refuses another's
results; every line is checked before it counts; one run writes a file at a time; workers die
with their tournament; bad arguments are refused with a clear message; results go to a user data
folder by default. The runs here are real: real files, real processes, real signals."""

from __future__ import annotations

import json
import os
import re
import shutil
import signal
import subprocess
import sys
import time
import warnings
from pathlib import Path

import pandas as pd
import pytest

from lcanalysis.cli.tournament import INTERVALS, tournament_main
from lcanalysis.game.rules import Rules
from lcanalysis.tournaments.results import (
    HEADER_KEY,
    ResultsFile,
    ResultsFileError,
    ResultsLockedError,
    ResultsMismatchError,
    ResultsWarning,
    code_version,
    tournament_identity,
)
from lcanalysis.tournaments.runner import RESULT_COLUMNS, load_results, run_tournament
from lcanalysis.tournaments.specs import AgentSpec, TournamentError

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT / "data"
PAIR = ["heuristic", "greedy"]


def _table(df):
    return df[RESULT_COLUMNS].reset_index(drop=True)


def _run(out, deals=3, **kw):
    kw.setdefault("executor", "serial")
    return run_tournament(kw.pop("agents", PAIR), deals=deals, progress=False, out=str(out), **kw)


def _lines(path):
    return Path(path).read_text().splitlines()


def _jobs(path):
    return [json.loads(x)["job"] for x in _lines(path) if x.startswith('{"job"')]


@pytest.fixture(scope="module")
def clean(tmp_path_factory):
    """A finished 3-deal heuristic-greedy file and its table."""
    path = tmp_path_factory.mktemp("clean") / "clean.jsonl"
    df = _run(path)
    return path, _table(df)


# --- 1. identity ----------------------------------------------------------------------


def test_a_results_file_starts_with_the_identity_of_its_tournament(clean):
    path, _ = clean
    head = json.loads(_lines(path)[0])
    assert head[HEADER_KEY] == 1
    ident = head["identity"]
    assert ident["agents"] == [{"name": "heuristic", "options": {}, "label": "heuristic"},
                               {"name": "greedy", "options": {}, "label": "greedy"}]
    assert ident["rules"] == Rules(rounds=1).to_dict(full=True)
    assert (ident["seed"], ident["duplicate"], ident["round_robin"]) == (0, True, False)
    assert ident["code"] == code_version() and set(ident["code"]) == {"lcanalysis", "source_sha256"}
    assert len(_jobs(path)) == 6


def test_the_code_version_is_a_hash_of_the_agents_source(monkeypatch):
    from lcanalysis.tournaments import results

    before = code_version()
    assert len(before["source_sha256"]) == 16
    monkeypatch.setattr(results, "CODE_FILES", results.CODE_FILES[:-1])  # another set of sources
    code_version.cache_clear()
    try:
        assert code_version()["source_sha256"] != before["source_sha256"]
    finally:
        monkeypatch.undo()
        code_version.cache_clear()
    assert code_version() == before


@pytest.mark.parametrize("name", ["hand_model.py", "hand_model.json", "match_equity/table.py", "match_equity.json",
                                  "runner.py", "tournaments/python_seat.py"])
def test_an_edit_of_what_the_agents_play_by_changes_the_code_version(edit_source, name):
    """``search:hand_model=1`` and ``best`` deal the opponent's unknown cards by lcanalysis/hand_model.py
    with the weights of lcanalysis/data/hand_model.json, and ``match`` plays by the match_equity package and
    its table: none of them was in the code version, so a tournament resumed after the model was
    retrained (or the table remade) went on adding results without --allow-code-change. (The round
    player, which always was, for comparison.)"""
    before = code_version()
    edit_source(name)
    assert code_version()["source_sha256"] != before["source_sha256"]


def _files_of(package: str) -> list[str]:
    """The source files of one of the package's own packages, as ``edit_source`` names them."""
    return sorted(f"{package}/{p.name}" for p in (ROOT / "lcanalysis" / package).glob("*.py"))


@pytest.mark.parametrize("name", _files_of("match_equity"))
def test_an_edit_of_any_file_of_the_match_equity_package_changes_the_code_version(edit_source, name):
    """match_equity.py became a package of files: the code version names the package, so an edit of
    any of its files is changed code, as an edit of the one module was (the ``match`` agent plays by it)."""
    before = code_version()
    edit_source(name)
    assert code_version()["source_sha256"] != before["source_sha256"]


@pytest.mark.parametrize("name", _files_of("advisor"))
def test_an_edit_of_any_file_of_the_advisor_changes_the_code_behind_the_advisors_rows(edit_source, name):
    """advisor.py became a package of files: the code behind rows of the advisor's answers (the
    calibration and consistency studies, the benchmarks: ``study_file.ADVICE_CODE``) names the package,
    so an edit of any of its files is changed code; the agents' play (``PLAY_CODE``) does not use it."""
    from lcanalysis.studies.study_file import ADVICE_CODE, PLAY_CODE

    advice, play = code_version(ADVICE_CODE[0]), code_version(PLAY_CODE[0])
    edit_source(name)
    assert code_version(ADVICE_CODE[0])["source_sha256"] != advice["source_sha256"]
    assert code_version(PLAY_CODE[0]) == play


MISMATCHES = [
    ({"agents": ["random", "greedy"]}, "agents: heuristic, greedy in the file, random, greedy in this run"),
    ({"seed": 1}, "seed (--seed): 0 in the file, 1 in this run"),
    ({"rules": Rules(colors=6, rounds=1)}, "colours (--colors): 5 in the file, 6 in this run"),
    ({"rules": Rules(rounds=3)}, "rounds per deal (--rounds): 1 in the file, 3 in this run"),
    ({"rules": Rules(rounds=1, turn_cap=150)}, "turn cap (--turn-cap): 200 in the file, 150 in this run"),
    ({"duplicate": False}, "duplicate deals (--no-duplicate): True in the file, False in this run"),
    ({"agents": [{"name": "heuristic", "A": 1.5, "label": "heuristic"}, "greedy"]},
     "agent 'heuristic' options: {} in the file, {'A': 1.5} in this run"),
]


@pytest.mark.parametrize(("change", "message"), MISMATCHES, ids=lambda x: str(x)[:30])
def test_resuming_with_another_tournament_is_refused_naming_the_difference(clean, tmp_path, change, message):
    path = tmp_path / "r.jsonl"
    shutil.copy(clean[0], path)
    before = path.read_bytes()
    with pytest.raises(ResultsMismatchError) as exc:
        _run(path, **change)
    assert message in str(exc.value) and "another file" in str(exc.value)
    assert isinstance(exc.value, ValueError)
    assert path.read_bytes() == before  # nothing played, nothing written


def test_every_difference_is_named_at_once(clean, tmp_path):
    path = tmp_path / "r.jsonl"
    shutil.copy(clean[0], path)
    with pytest.raises(ResultsMismatchError) as exc:
        _run(path, seed=7, rules=Rules(colors=6, rounds=1, turn_cap=99))
    assert all(what in str(exc.value) for what in ("seed", "colours", "turn cap"))


def test_a_rule_the_file_does_not_record_counts_as_its_default(clean, tmp_path):
    """A file written before a rule existed was played with the rule's default (say a new rule
    added to Rules later): it resumes with the default, and only with it."""
    path = tmp_path / "r.jsonl"
    lines = _lines(clean[0])
    head = json.loads(lines[0])
    del head["identity"]["rules"]["tied_start"]
    path.write_text("\n".join([json.dumps(head)] + lines[1:]) + "\n")
    assert _table(_run(path)).equals(clean[1])
    with pytest.raises(ResultsMismatchError, match="tied start: 'alternate' in the file, 'same' in this run"):
        _run(path, rules=Rules(rounds=1, tied_start="same"))


def test_the_command_line_refuses_another_tournament_with_exit_status_2(clean, tmp_path, capsys):
    path = tmp_path / "r.jsonl"
    shutil.copy(clean[0], path)
    before = path.read_bytes()
    code = tournament_main(["random", "greedy", "--deals", "3", "--workers", "1", "--no-progress", "--out", str(path)])
    err = capsys.readouterr().err
    assert code == 2 and "error:" in err and "random, greedy in this run" in err and "Traceback" not in err
    code = tournament_main(["heuristic", "greedy", "--deals", "3", "--seed", "2", "--colors", "6", "--workers", "1",
                            "--no-progress", "--out", str(path)])
    err = capsys.readouterr().err
    assert code == 2 and "seed (--seed): 0 in the file, 2 in this run" in err and "colours" in err
    assert path.read_bytes() == before


def test_more_deals_extend_the_same_tournament(clean, tmp_path):
    path = tmp_path / "r.jsonl"
    shutil.copy(clean[0], path)
    df = _run(path, deals=4)  # deals are not part of the identity: one more deal is played
    assert len(df) == 8 and len(_jobs(path)) == 8
    assert _table(df).iloc[:6].equals(clean[1])


def _with_code(path, code):
    lines = _lines(path)
    head = json.loads(lines[0])
    head["identity"]["code"] = code
    Path(path).write_text("\n".join([json.dumps(head)] + lines[1:]) + "\n")


def test_new_work_by_changed_code_is_refused_unless_asked_for_and_then_recorded(clean, tmp_path):
    path = tmp_path / "r.jsonl"
    shutil.copy(clean[0], path)
    old = {"lcanalysis": "0.0.1", "source_sha256": "0" * 16}
    _with_code(path, old)
    # everything asked for is in the file: reading it mixes nothing
    assert _table(_run(path)).equals(clean[1])
    with pytest.raises(ResultsMismatchError) as exc:
        _run(path, deals=4)
    assert "lcanalysis 0.0.1 (source 0000000000000000)" in str(exc.value)
    assert "--allow-code-change" in str(exc.value)
    assert len(_jobs(path)) == 6
    df = _run(path, deals=4, allow_code_change=True)
    assert len(df) == 8
    lines = _lines(path)
    assert json.loads(lines[7]) == {"lcanalysis_code": code_version()}  # before the first new job
    assert len(_jobs(path)) == 8
    _run(path, deals=5)  # the file's code is now this code: no question asked
    assert len(_jobs(path)) == 10


def _legacy(tmp_path, lines=20, cmd="lcanalysis tournament heuristic greedy --deals 1000 --out data/x.jsonl"):
    """The first ``lines`` lines of a published (header-less) file, with a .cmd."""
    path = tmp_path / "x.jsonl"
    src = (DATA / "strength_heuristic_vs_greedy.jsonl").read_text().splitlines()[:lines]
    path.write_text("\n".join(src) + "\n")
    if cmd is not None:
        Path(str(path) + ".cmd").write_text(cmd + " --csv data/x.csv > data/x.txt\n")
    return path


def test_a_legacy_file_is_read_and_resumed_with_the_tournament_its_cmd_names(tmp_path):
    path = _legacy(tmp_path)
    published = pd.read_csv(DATA / "strength_heuristic_vs_greedy.csv")
    df = _run(path, deals=10)  # 10 deals = the 20 lines: nothing to play
    assert _table(df).equals(_table(published.iloc[:20]))
    assert len(_lines(path)) == 20
    df = _run(path, deals=11)  # one more deal: played, after a line naming the code that played it
    assert len(df) == 22
    lines = _lines(path)
    assert json.loads(lines[20]) == {"lcanalysis_code": code_version()} and len(_jobs(path)) == 22


def test_a_legacy_file_with_other_settings_or_without_a_cmd_is_refused(tmp_path):
    path = _legacy(tmp_path)
    with pytest.raises(ResultsMismatchError, match=r"seed \(--seed\): 0 in the file, 3 in this run"):
        _run(path, seed=3)
    os.remove(str(path) + ".cmd")
    before = path.read_bytes()
    with pytest.raises(ResultsFileError, match=r"has no header line.*another file"):
        _run(path)
    assert path.read_bytes() == before


@pytest.mark.parametrize("cmd", sorted(p.name for p in DATA.glob("*.jsonl.cmd")))
def test_every_published_results_file_reads_back_whole_and_gives_its_csv(cmd, recwarn):
    path = DATA / cmd[: -len(".cmd")]
    df = load_results(path)
    assert not [w for w in recwarn if issubclass(w.category, ResultsWarning)]
    published = pd.read_csv(DATA / (path.stem + ".csv"))
    assert _table(df).equals(_table(published))


@pytest.mark.parametrize("cmd", sorted(p.name for p in DATA.glob("*.jsonl.cmd")))
def test_the_published_commands_still_resume_their_files_playing_nothing(cmd, tmp_path, monkeypatch, capsys):
    """The README's and docs/agents.md's commands name their --out: on a copy of data/, each finds
    every job done and writes nothing (not even a header: the file stays as published)."""
    (tmp_path / "data").mkdir()
    jsonl = cmd[: -len(".cmd")]
    for name in (jsonl, cmd):
        shutil.copy(DATA / name, tmp_path / "data" / name)
    monkeypatch.chdir(tmp_path)
    words = (DATA / cmd).read_text().split(">")[0].split("#")[0].split()
    if words[:2] == ["git", "checkout"]:  # played by an earlier version: the command at that commit
        assert words[3] == "&&" and re.fullmatch(r"[0-9a-f]{7,40}", words[2])
        words = words[4:]
    assert words[:2] == ["lcanalysis", "tournament"]
    argv = words[2:]
    argv[argv.index("--csv") + 1] = "again.csv"
    assert tournament_main(argv + ["--no-progress", "--workers", "1"]) == 0
    jobs = len(_jobs(DATA / jsonl))  # the job lines: a file may also hold a header and code lines
    printed = capsys.readouterr()
    assert f"{jobs} of {jobs} deal-seatings already played, 0 to play" in printed.err
    # the .txt beside the file is the command's printed summary: every line of it today, but for the
    # two lines a summary has gained since most were written (which intervals; the ratings' errors)
    # and the mean score difference's standard error, gained since (a521926: " (s.e. 0.72)")
    published = (DATA / (Path(jsonl).stem + ".txt")).read_text().splitlines()
    for line in printed.out.splitlines():
        if line in (f"({INTERVALS})", "Bradley-Terry ratings (Elo scale; ± one standard error, the deals drawn again "
                                      "with replacement):"):
            continue
        line = re.sub(r" (± \d+\.\d|\(no error from one deal\))$", "", line)
        if line not in published:  # (a .txt written before it)
            line = re.sub(r"\] \(s\.e\. \d+\.\d\d\)", "]", line)
        assert line in published, f"{jsonl}: today's summary says {line!r}, its .txt does not"
    assert (tmp_path / "data" / jsonl).read_bytes() == (DATA / jsonl).read_bytes()
    assert _table(pd.read_csv("again.csv")).equals(_table(pd.read_csv(DATA / (Path(jsonl).stem + ".csv"))))


# --- 2. the schema of a line ------------------------------------------------------------


def _mutate(field, value, row=0):
    def change(rec):
        rec["rows"][row][field] = value
        return json.dumps(rec)

    return change


def _drop(field):
    def change(rec):
        del rec["rows"][0][field]
        return json.dumps(rec)

    return change


GARBAGE = {
    "torn": lambda rec: json.dumps(rec)[:60],
    "not json": lambda rec: "hello",
    "a list": lambda rec: "[1, 2]",
    "no rows": lambda rec: json.dumps({"job": rec["job"], "rows": []}),
    "a foreign row": lambda rec: json.dumps({"job": rec["job"], "rows": [{"foo": 1}]}),
    "extra key": lambda rec: json.dumps({**rec, "x": 1}),
    "score a string": _mutate("score0", "12"),
    "score a float": _mutate("score0", 12.0),
    "score a bool": _mutate("score0", True),
    "score out of range": _mutate("score1", 10_000),
    "wrong seed": _mutate("seed", 12345),
    "wrong colours": _mutate("colors", 6),
    "wrong player": _mutate("player0", "random"),
    "wrong deal": _mutate("deal", 99),
    "wrong round": _mutate("round", 2),
    "wrong starter": _mutate("starter", 1),
    "capped not a bool": _mutate("capped", 0),
    "turns over the cap": _mutate("turns", 201),
    "too few turns": _mutate("turns", 3),
    "NaN time": _mutate("ms_per_move0", float("nan")),
    "negative time": _mutate("max_ms1", -1.0),
    "unknown field": _mutate("bonus", 1),
    "missing field": _drop("turns"),
    "pairing out of range": lambda rec: json.dumps({**rec, "job": "5:" + rec["job"].split(":", 1)[1]}),
    "bad swap": lambda rec: json.dumps({**rec, "job": rec["job"][:-1] + "2"}),
    "key not the row's": lambda rec: json.dumps({**rec, "job": "0:2:" + rec["job"][-1]}),
    "a 5000-digit number": lambda rec: json.dumps({**rec, "rows": [0]}).replace("[0]", "[" + "9" * 5000 + "]"),
}


@pytest.mark.parametrize("kind", sorted(GARBAGE))
def test_an_invalid_line_is_reported_by_number_and_its_job_played_again(clean, tmp_path, kind):
    path = tmp_path / "g.jsonl"
    lines = _lines(clean[0])
    k = 3  # the third job line: job 0:1:0 or so
    lines[k] = GARBAGE[kind](json.loads(lines[k]))
    torn = kind == "torn"
    if torn:  # a line cut short is the last one
        lines = lines[:k] + lines[k + 1:] + [lines[k]]
    path.write_text("\n".join(lines) + ("" if torn else "\n"))
    with pytest.warns(ResultsWarning) as caught:
        df = _run(path)
    n = len(lines) if torn else k + 1
    assert any(f"g.jsonl line {n}:" in str(w.message) and "not counted" in str(w.message) for w in caught)
    assert _table(df).equals(clean[1])  # the same table as the clean run: nothing invented
    after = _lines(path)
    assert after[n - 1] == lines[n - 1]  # the bad line stays (nothing is rewritten) but does not count
    jobs = [json.loads(x)["job"] for i, x in enumerate(after) if i not in (0, n - 1)]
    assert sorted(jobs) == sorted(_jobs(clean[0]))  # the job was played again, once


def test_no_garbage_reaches_the_csv_or_the_summary(clean, tmp_path, capsys):
    path = tmp_path / "g.jsonl"
    lines = _lines(clean[0])
    lines[2] = json.dumps({"job": json.loads(lines[2])["job"], "rows": [{"foo": 1}]})  # valid JSON, wrong shape
    path.write_text("\n".join(lines) + "\n")
    csv = tmp_path / "g.csv"
    code = tournament_main(PAIR + ["--deals", "3", "--workers", "1", "--no-progress", "--out", str(path),
                                   "--csv", str(csv), "--json"])
    captured = capsys.readouterr()
    assert code == 0
    assert "warning:" in captured.err and "g.jsonl line 3: not a valid result" in captured.err
    assert json.loads(captured.out)["summary"][0]["rounds"] == 6
    assert _table(pd.read_csv(csv)).equals(clean[1])


def test_the_csv_writes_times_to_ten_microseconds_and_every_other_number_as_kept(clean, tmp_path, capsys):
    """``--csv`` wrote each time per move with 17 digits ('0.10000000000000002' style), the noise of a clock
    and of a float's sum: the times are now written to 0.01 ms, each within 0.005 ms of the time the
    results file keeps in full (the file itself unchanged), every other column as before."""
    path, csv = tmp_path / "t.jsonl", tmp_path / "t.csv"
    shutil.copy(clean[0], path)
    kept = path.read_bytes()
    assert tournament_main(PAIR + ["--deals", "3", "--workers", "1", "--no-progress", "--out", str(path),
                                   "--csv", str(csv)]) == 0
    assert path.read_bytes() == kept
    full = load_results(path).reset_index(drop=True)
    lines = csv.read_text().splitlines()
    header = lines[0].split(",")
    timed = [c for c in header if "ms" in c]
    assert len(timed) == 8 and not set(header) - set(full.columns)
    for line in lines[1:]:
        for name, field in zip(header, line.split(","), strict=True):
            if name in timed and field:  # (a time not measured is empty, as before)
                assert re.fullmatch(r"\d+(\.\d{1,2})?", field), (name, field)
    written = pd.read_csv(csv)
    assert _table(written).equals(clean[1])
    for name in timed:
        assert (written[name] - full[name]).abs().max() <= 0.005 + 1e-9, name
    capsys.readouterr()


def test_a_job_twice_counts_once_and_a_job_twice_with_other_results_is_refused(clean, tmp_path):
    path = tmp_path / "d.jsonl"
    lines = _lines(clean[0])
    path.write_text("\n".join(lines + [lines[2]]) + "\n")
    with pytest.warns(ResultsWarning, match="line 8: job .* again \\(first on line 3\\); counted once"):
        assert _table(_run(path)).equals(clean[1])
    rec = json.loads(lines[2])
    rec["rows"][0]["score0"] += 1
    path.write_text("\n".join(lines + [json.dumps(rec)]) + "\n")
    with pytest.raises(ResultsFileError, match="recorded twice with different results \\(lines 3 and 8\\)"):
        _run(path)


def test_load_results_reads_a_file_checked_against_its_own_header(clean, tmp_path):
    path = tmp_path / "l.jsonl"
    lines = _lines(clean[0])
    lines[4] = lines[4].replace('"score0": ', '"score0": 1000')  # out of range or not JSON
    path.write_text("\n".join(lines) + "\n")
    with pytest.warns(ResultsWarning, match="line 5"):
        df = load_results(path)
    assert len(df) == 5 and df.attrs["identity"]["agents"][0]["label"] == "heuristic"


# --- 3. one writer per file ---------------------------------------------------------------


def _holder(path, agents=PAIR):
    ident = tournament_identity([AgentSpec.of(a) for a in agents], Rules(rounds=1), 0, True, False)
    return ResultsFile(str(path), ident).open()


def test_a_second_run_on_a_file_being_written_is_refused_naming_the_writer(tmp_path):
    path = tmp_path / "lock.jsonl"
    holder = _holder(path)
    try:
        with pytest.raises(ResultsLockedError, match=f"another tournament is writing {path} \\(pid {os.getpid()}\\)"):
            _run(path)
    finally:
        holder.close()
    assert len(_run(path)) == 6  # free again


def _cli(*args):
    return [sys.executable, "-m", "lcanalysis", "tournament", *args]


def _env(tmp_path):
    env = dict(os.environ)
    env["XDG_DATA_HOME"] = str(tmp_path / "xdg")
    return env


def test_a_second_command_refuses_or_waits_for_the_writer(tmp_path):
    path = tmp_path / "lock.jsonl"
    holder = _holder(path)
    args = _cli(*PAIR, "--deals", "2", "--workers", "1", "--no-progress", "--out", str(path))
    try:
        refused = subprocess.run(args, check=False, capture_output=True, text=True, env=_env(tmp_path), timeout=600)
        assert refused.returncode == 2
        assert refused.stderr.startswith(f"lcanalysis tournament: error: argument --out: another tournament is "
                                         f"writing {path} (pid {os.getpid()})"), refused.stderr
        assert "Traceback" not in refused.stderr
        waiting = subprocess.Popen(args + ["--wait"], stderr=subprocess.PIPE, stdout=subprocess.PIPE, text=True,
                                   env=_env(tmp_path))
        said = ""
        for line in waiting.stderr:  # blocks until the command says it waits (or ends)
            said += line
            if line.startswith("waiting:"):
                break
        assert f"waiting: another tournament is writing {path} (pid {os.getpid()})" in said, said
        assert waiting.poll() is None and len(_lines(path)) == 1  # it waits, and writes nothing meanwhile
    finally:
        holder.close()
    _, err = waiting.communicate(timeout=600)
    assert waiting.returncode == 0, err
    assert sorted(_jobs(path)) == ["0:0:0", "0:0:1", "0:1:0", "0:1:1"]


def _wait_for_lines(path, n, proc):
    """Until ``path`` has ``n`` complete lines (the run has started writing), or the run ended."""
    deadline = time.monotonic() + 900  # a safety net against hanging, not a measurement
    while time.monotonic() < deadline:
        if path.exists() and path.read_text().count("\n") >= n:
            return
        if proc.poll() is not None:
            raise AssertionError(f"the run ended early: {proc.communicate()}")
        time.sleep(0.2)
    raise AssertionError("the run wrote nothing")


def test_two_real_runs_on_one_file_one_refused_each_job_written_once(tmp_path):
    path = tmp_path / "two.jsonl"
    args = _cli(*PAIR, "--deals", "5000", "--workers", "1", "--no-progress", "--out", str(path))
    first = subprocess.Popen(args, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=_env(tmp_path),
                             start_new_session=True)
    try:
        _wait_for_lines(path, 3, first)
        second = subprocess.run(args, check=False, capture_output=True, text=True, env=_env(tmp_path), timeout=600)
        assert first.poll() is None  # the two runs overlapped
        assert second.returncode == 2
        assert f"another tournament is writing {path} (pid {first.pid})" in second.stderr
    finally:
        first.kill()
        first.wait()
    jobs = _jobs(path)
    assert len(jobs) == len(set(jobs)) > 0
    n = len(set(jobs))
    # resumed: what the first run wrote is kept, each job once (a line the kill cut short is reported)
    with warnings.catch_warnings(record=True):
        df = _run(path, deals=n // 2 + 1)
    jobs = _jobs(path)
    assert len(jobs) == len(set(jobs)) and len(df) == 2 * (n // 2 + 1)


def test_two_real_runs_with_wait_both_finish_and_each_job_is_written_once(tmp_path):
    path = tmp_path / "both.jsonl"
    args = _cli(*PAIR, "--deals", "15", "--workers", "1", "--no-progress", "--json", "--wait", "--out", str(path))
    runs = [subprocess.Popen(args, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=_env(tmp_path))
            for _ in range(2)]
    outs = [r.communicate(timeout=900) for r in runs]
    assert [r.returncode for r in runs] == [0, 0], outs
    assert json.loads(outs[0][0]) == json.loads(outs[1][0])
    jobs = _jobs(path)
    assert len(jobs) == len(set(jobs)) == 30 and len(_lines(path)) == 31


# --- 4. no orphans --------------------------------------------------------------------


def _proc_stat(pid):
    """(state, ppid, start time) of a process, or None once it is gone."""
    try:
        text = Path(f"/proc/{pid}/stat").read_text()
    except (FileNotFoundError, ProcessLookupError):
        return None
    fields = text.rsplit(")", 1)[1].split()
    return fields[0], int(fields[1]), int(fields[19])


def _descendants(pid):
    children: dict[int, list[int]] = {}
    for d in Path("/proc").iterdir():
        if d.name.isdigit() and (st := _proc_stat(int(d.name))):
            children.setdefault(st[1], []).append(int(d.name))
    out, todo = [], [pid]
    while todo:
        for c in children.get(todo.pop(), []):
            out.append(c)
            todo.append(c)
    return out


def _alive(pid, start):
    st = _proc_stat(pid)
    return st is not None and st[2] == start and st[0] not in ("Z", "X")


def _until_gone(procs):
    deadline = time.monotonic() + 60  # a safety net, not a measurement
    while time.monotonic() < deadline and any(_alive(p, s) for p, s in procs):
        time.sleep(0.2)
    return [p for p, s in procs if _alive(p, s)]


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads processes from /proc (Linux)")
@pytest.mark.parametrize("sig", [signal.SIGKILL, signal.SIGTERM])
def test_killing_a_tournament_by_any_signal_leaves_no_worker_behind(tmp_path, sig):
    path = tmp_path / "orphans.jsonl"
    proc = subprocess.Popen(_cli(*PAIR, "--deals", "5000", "--workers", "2", "--no-progress", "--out", str(path)),
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=_env(tmp_path),
                            start_new_session=True)
    workers = []
    try:
        _wait_for_lines(path, 2, proc)  # the header and a first result: the workers are at work
        workers = [(p, _proc_stat(p)[2]) for p in _descendants(proc.pid) if _proc_stat(p)]
        assert len(workers) >= 2, "the pool's workers should be running"
        proc.send_signal(sig)
        proc.wait()
        left = _until_gone(workers)
        assert not left, f"workers {left} outlived their tournament"
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        for p, s in workers:  # never leave a test's process behind, even when the test fails
            if _alive(p, s):
                os.kill(p, signal.SIGKILL)


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads processes from /proc (Linux)")
def test_a_worker_killed_under_a_tournament_stops_it_clearly_and_loses_nothing_written(tmp_path):
    path = tmp_path / "worker.jsonl"
    proc = subprocess.Popen(_cli(*PAIR, "--deals", "5000", "--workers", "2", "--no-progress", "--out", str(path)),
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, env=_env(tmp_path),
                            start_new_session=True)
    try:
        _wait_for_lines(path, 2, proc)
        os.kill(_descendants(proc.pid)[0], signal.SIGKILL)
        _, err = proc.communicate(timeout=600)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    assert proc.returncode == 2 and "a worker process died" in err and "run again to resume" in err, err
    assert "Traceback" not in err
    written = _jobs(path)
    assert len(written) == len(set(written)) > 0
    deals = max(int(k.split(":")[1]) for k in written) + 1
    df = _run(path, deals=deals)  # every written job is read back, the rest played
    assert len(df) == 2 * deals and len(_jobs(path)) == 2 * deals == len(set(_jobs(path)))


def test_an_agent_that_fails_stops_the_tournament_with_a_clear_error(tmp_path, capsys):
    path = tmp_path / "bot.jsonl"
    bot = f"external:{sys.executable} -c pass"  # a bot that exits at once
    assert tournament_main([bot, "greedy", "--deals", "2", "--workers", "1", "--no-progress", "--out", str(path)]) == 2
    err = capsys.readouterr().err
    assert "error: a round could not be played: deal 0, seating 0" in err and "run again to resume" in err
    assert "Traceback" not in err and len(_lines(path)) == 1  # the header only: nothing invented


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads processes from /proc (Linux)")
def test_the_watchdog_alone_ends_a_worker_whose_parent_died(tmp_path):
    """The portable fallback: with the Linux death signal switched off, a worker still exits."""
    script = (
        "import os, sys, time\n"
        "from lcanalysis.core import pool\n"
        "pool._die_with_parent = lambda: False\n"
        "parent = os.getpid()\n"
        "r, w = os.pipe()\n"
        "pid = os.fork()\n"
        "if pid == 0:\n"
        "    pool.worker_init(parent)\n"
        "    os.write(w, b'x')\n"
        "    time.sleep(600)\n"
        "    os._exit(0)\n"
        "os.read(r, 1)\n"
        "print(pid, flush=True)\n"
        "os._exit(0)\n")
    out = subprocess.run([sys.executable, "-c", script], check=False, capture_output=True, text=True, timeout=600)
    child = int(out.stdout.strip())
    st = _proc_stat(child)
    try:
        if st is not None:
            assert not _until_gone([(child, st[2])]), "the worker outlived its parent"
    finally:
        if st is not None and _alive(child, st[2]):
            os.kill(child, signal.SIGKILL)


# --- 5. bad arguments -------------------------------------------------------------------

BAD_COMMANDS = [
    (["foo", "greedy"], "unknown agent 'foo'"),
    (PAIR + ["--workers", "-1"], "--workers must be >= 1, got -1"),
    (PAIR + ["--workers", "0"], "--workers must be >= 1, got 0"),
    (PAIR + ["--workers", "two"], "--workers must be a whole number, got 'two'"),
    (PAIR + ["--turn-cap", "0"], "--turn-cap must be >= 1, got 0"),
    (PAIR + ["--turn-cap", "1099511627776"], "--turn-cap must be at most 10000, got 1099511627776"),
    (PAIR + ["--deals", "0"], "--deals must be >= 1, got 0"),
    (PAIR + ["--deals", "-5"], "--deals must be >= 1, got -5"),
    (PAIR + ["--deals", "1e3"], "--deals must be a whole number"),
    (PAIR + ["--colors", "7"], "invalid choice: 7"),
    (PAIR + ["--rounds", "0"], "--rounds must be >= 1, got 0"),
    (PAIR + ["--seed", "-1"], "--seed must be >= 0, got -1"),
    (PAIR + ["--first-deal", "-1"], "--first-deal must be >= 0, got -1"),
    (["greedy"], "at least two agents"),
    (["greedy", "greedy"], "distinct labels"),
    # a writer measuring the first player's edge is told where self-play is
    (["heuristic", "heuristic"], "the first player's edge), is the first-player study (lcanalysis studies data --only "
                                 "first_player_rounds"),
    (["search:width=abc", "greedy"], "agent 'search:width=abc': width must be a whole number, got 'abc'"),
    (["search:width=0", "greedy"], "width must be a whole number from 1 to 1,000, got 0"),
    (["search:time_ms=nan", "greedy"], "time_ms must be a finite number"),
    (["search:time_ms=-5", "greedy"], "agent 'search:time_ms=-5': search: time_ms must be a number above 0"),
    (["search:time_ms=0", "greedy"], "search: time_ms must be a number above 0"),
    (["best:time_ms=1e30", "greedy"], "best: time_ms must be a number above 0 to 3,600,000"),
    (["search:bogus=1", "greedy"], "unknown option 'bogus'; known options: width, time_ms"),
    # best and match pass their options on to search: checked as search's, before any agent is built
    (["best:width=abc", "greedy"], "agent 'best:width=abc': width must be a whole number, got 'abc'"),
    (["match:endgame=2.5", "greedy"], "agent 'match:endgame=2.5': endgame must be a whole number, got 2.5"),
    (["match:table=no-such-table.json", "greedy"], "match equity table no-such-table.json: cannot be read"),
    (["heuristic:A=abc", "greedy"], "A must be a number, got 'abc'"),
    (["heuristic:Z=1", "greedy"], "heuristic: unknown parameter 'Z'"),
    (["search:width", "greedy"], "option 'width' has no value"),
    (["search:", "greedy"], "an option is empty"),
    ([":width=3", "greedy"], "has no name before ':'"),
    (["search:width=", "greedy"], "option 'width' has no value"),
    (["search:width=3,,x=1", "greedy"], "an option is empty"),
    (["search:=3", "greedy"], "'' is not an option name"),
    (["search:width=3,width=4", "greedy"], "option 'width' is given twice"),
    (["search:name=greedy", "greedy"], "'name' cannot be set as an option"),
    (["external:", "greedy"], "names no program"),
    (["", "greedy"], "an agent name is empty"),
]


@pytest.mark.parametrize(("argv", "message"), BAD_COMMANDS, ids=lambda x: " ".join(x) if isinstance(x, list) else "")
def test_a_bad_command_is_refused_with_a_clear_error(argv, message, capsys, tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "xdg"))
    code = tournament_main(argv + ["--no-progress"])
    err = capsys.readouterr().err
    assert code == 2
    assert message in err and "error:" in err and "Traceback" not in err
    assert not (tmp_path / "xdg").exists()  # refused before anything was written


def test_an_out_or_csv_that_is_a_directory_is_refused_before_playing(tmp_path, capsys):
    for argv, message in ((["--out", str(tmp_path)], f"{tmp_path} is a directory; give a file name"),
                          (["--csv", str(tmp_path), "--out", "none"], f"argument --csv: {tmp_path} is a directory"),
                          (["--csv", str(tmp_path / "no" / "x.csv"), "--out", "none"], "does not exist"),
                          (["--out", os.devnull], f"{os.devnull} is not a regular file")):
        assert tournament_main(PAIR + ["--no-progress"] + argv) == 2
        err = capsys.readouterr().err
        assert message in err and "Traceback" not in err
    assert os.listdir(tmp_path) == []


def test_the_real_command_answers_a_bad_argument_without_a_traceback(tmp_path):
    done = subprocess.run(_cli("search:width=abc", "greedy", "--deals", "1"), check=False, capture_output=True,
                          text=True, env=_env(tmp_path), timeout=600)
    assert done.returncode == 2 and "width must be a whole number" in done.stderr
    assert "Traceback" not in done.stderr


BAD_CALLS = [
    ({"deals": -3}, "deals must be 1..1000000, got -3"),
    ({"deals": 0}, "deals must be 1..1000000, got 0"),
    ({"deals": 2.5}, "deals must be a whole number"),
    ({"deals": "3"}, "deals must be a whole number"),
    ({"deals": True}, "deals must be a whole number"),
    ({"seed": -1}, "seed must be a whole number from 0 to 2**63 - 1, got -1"),
    ({"first_deal": -1}, "first_deal must be 0.."),
    ({"workers": 0}, "workers must be 1..1024"),
    ({"workers": -1}, "workers must be 1..1024"),
    ({"batch": 0}, "batch must be 1.."),
    ({"rules": "5 colours"}, "rules must be a Rules"),
    ({"rules": "a huge turn cap"}, "turn_cap must be"),
    ({"duplicate": "yes"}, "duplicate must be True or False"),
    ({"executor": "threads"}, "executor must be None, 'serial'"),
    ({"executor": 3}, "executor must be None, 'serial'"),
    ({"log": 5}, "log must be a function that takes a line of text"),  # (was taken, and failed later)
    ({"agents": "greedy"}, "agents must be a list of agents"),
    ({"agents": ["greedy"]}, "at least two agents"),
    ({"agents": ["greedy", "nope"]}, "unknown agent 'nope'"),
    ({"agents": [{"name": "search", "width": "abc"}, "greedy"]}, "width must be a whole number"),
    ({"agents": [{"name": "search", "time_ms": float("inf")}, "greedy"]}, "time_ms must be a finite number"),
    ({"agents": [{"name": "search", "time_ms": object()}, "greedy"]}, "is not a plain value"),
    ({"agents": [{"label": "x"}, "greedy"]}, "needs a 'name'"),
    ({"agents": [{"name": "external", "cmd": []}, "greedy"]}, "needs a command"),
    ({"agents": ["greedy", "random", "heuristic"]}, "pass round_robin=True"),
    ({"out": 42}, "out must be a file name"),
]


@pytest.mark.parametrize(("kwargs", "message"), BAD_CALLS, ids=lambda x: str(x)[:40])
def test_a_bad_library_call_raises_a_clear_value_error(kwargs, message):
    kw = {"agents": PAIR, "deals": 2, "executor": "serial", "progress": False, **kwargs}
    if kw["rules"] == "a huge turn cap" if "rules" in kw else False:
        try:
            kw["rules"] = Rules(rounds=1, turn_cap=2**40)
        except ValueError as exc:  # the rules refuse it themselves: as good
            assert "turn_cap" in str(exc)
            return
    with pytest.raises(TournamentError, match=re.escape(message)) as exc:
        run_tournament(kw.pop("agents"), **kw)
    assert isinstance(exc.value, ValueError)


def test_an_out_that_is_a_directory_is_refused_by_the_library(tmp_path):
    with pytest.raises(TournamentError, match="is a directory"):
        run_tournament(PAIR, deals=1, out=tmp_path, executor="serial", progress=False)


# --- 6. where results go by default -----------------------------------------------------


def test_the_command_writes_to_the_user_data_folder_by_default_and_says_where(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "xdg"))
    monkeypatch.chdir(tmp_path)
    assert tournament_main(PAIR + ["--deals", "1", "--workers", "1", "--no-progress"]) == 0
    folder = tmp_path / "xdg" / "lcanalysis" / "tournaments"
    files = list(folder.iterdir())
    assert [f.name for f in files] == ["tournament_heuristic_greedy_5c_1r_cap200_seed0_deals0-0.jsonl"]
    assert f"results: {files[0]}: 0 of 2" in capsys.readouterr().err
    assert not (tmp_path / "data").exists()
    # the same command again resumes it
    assert tournament_main(PAIR + ["--deals", "1", "--workers", "1", "--no-progress"]) == 0
    assert f"results: {files[0]}: 2 of 2 deal-seatings already played, 0 to play" in capsys.readouterr().err


@pytest.mark.parametrize("xdg", [None, "relative/path"])
def test_without_an_absolute_xdg_data_home_results_go_under_home(tmp_path, monkeypatch, capsys, xdg):
    if xdg is None:
        monkeypatch.delenv("XDG_DATA_HOME", raising=False)
    else:
        monkeypatch.setenv("XDG_DATA_HOME", xdg)
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    monkeypatch.chdir(tmp_path)
    assert tournament_main(PAIR + ["--deals", "1", "--workers", "1", "--no-progress", "--json"]) == 0
    folder = tmp_path / "home" / ".local" / "share" / "lcanalysis" / "tournaments"
    assert len(list(folder.glob("tournament_heuristic_greedy_*.jsonl"))) == 1
    assert str(folder) in capsys.readouterr().err


def test_out_none_keeps_nothing_and_an_explicit_out_is_used_as_given(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "xdg"))
    monkeypatch.chdir(tmp_path)
    assert tournament_main(PAIR + ["--deals", "1", "--workers", "1", "--no-progress", "--out", "none"]) == 0
    assert os.listdir(tmp_path) == []
    explicit = PAIR + ["--deals", "1", "--workers", "1", "--no-progress", "--out", "sub/r.jsonl"]
    assert tournament_main(explicit) == 2  # a folder given must exist, as for every output option
    assert f"the folder {tmp_path / 'sub'} does not exist" in capsys.readouterr().err
    assert os.listdir(tmp_path) == []
    (tmp_path / "sub").mkdir()
    assert tournament_main(explicit) == 0
    assert len(_jobs(tmp_path / "sub" / "r.jsonl")) == 2 and not (tmp_path / "xdg").exists()



def test_a_tournament_starts_no_more_worker_processes_than_jobs(monkeypatch):
    """Each worker is a fork of the tournament: '--deals 1 --workers 1024' used to start 1,024 of
    them for two rounds."""
    from concurrent.futures import ThreadPoolExecutor

    import lcanalysis.tournaments.runner as runner

    asked = []

    def pool(workers, close_fds=()):  # stands in for the process pool, saying how many it was asked for
        asked.append(workers)
        return ThreadPoolExecutor(workers)

    monkeypatch.setattr(runner, "worker_pool", pool)
    df = run_tournament(PAIR, deals=1, workers=1024, progress=False)
    assert asked == [2] and len(df) == 2


def test_ctrl_c_says_what_is_kept_and_how_to_resume(tmp_path):
    """Ctrl-C used to end a tournament with status 130 and not a word: the results were kept, but
    the user was not told so, nor how to go on."""
    path = tmp_path / "stopped.jsonl"
    proc = subprocess.Popen(_cli(*PAIR, "--deals", "5000", "--workers", "1", "--no-progress", "--out", str(path)),
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, env=_env(tmp_path),
                            # as at a terminal: a test worker ignores Ctrl-C, and a child would inherit that
                            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))  # noqa: PLW1509
    try:
        _wait_for_lines(path, 3, proc)  # the header and two results
        proc.send_signal(signal.SIGINT)
        _, err = proc.communicate(timeout=60)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    assert proc.returncode == 130
    kept = len(load_results(path))
    assert kept >= 2
    assert f"stopped: the deal-seatings finished so far are kept in {path} ({kept} round(s)); run the same " \
           "command again to resume" in err


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads processes from /proc (Linux)")
def test_ctrl_c_at_a_terminal_stops_an_outside_program_through_the_tournament_without_its_traceback(tmp_path):
    """Ctrl-C at a terminal signals the whole foreground process group: an outside program in it got
    SIGINT too and printed its KeyboardInterrupt traceback over the tournament's 'stopped: ...'. Here
    the tournament leads a group of its own and the group is signalled, as a terminal does; the bot,
    a plain Python script serving greedy, notes its pid. It starts in a session of its own now, and
    the tournament stops it (a quit request) as it stops."""
    pid_file = tmp_path / "bot.pid"
    bot = tmp_path / "bot.py"
    bot.write_text(f"import os\nopen({str(pid_file)!r}, 'w').write(str(os.getpid()))\n"
                   "from lcanalysis.agents.protocol import serve\nserve('greedy')\n")
    path = tmp_path / "stopped.jsonl"
    proc = subprocess.Popen(_cli(f"bot=external:{sys.executable} {bot}", "greedy", "--deals", "5000", "--workers",
                                 "1", "--no-progress", "--out", str(path)),
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=_env(tmp_path),
                            start_new_session=True,  # its own group, to signal as a terminal does
                            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))  # noqa: PLW1509
    try:
        _wait_for_lines(path, 3, proc)  # the header and two results: the bot is serving
        bot_pid = int(pid_file.read_text())
        stat = _proc_stat(bot_pid)
        assert stat is not None, "the bot should be running"
        os.killpg(proc.pid, signal.SIGINT)
        out, err = proc.communicate(timeout=60)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    assert proc.returncode == 130, err
    assert "Traceback" not in out + err and "KeyboardInterrupt" not in out + err, err
    kept = len(load_results(path))
    assert kept >= 2 and kept == sum(1 for line in path.read_text().splitlines() if '"job"' in line)
    assert f"stopped: the deal-seatings finished so far are kept in {path} ({kept} round(s))" in err
    assert not _until_gone([(bot_pid, stat[2])]), "the bot outlived its tournament"


def test_loading_results_that_are_not_there_names_the_path(tmp_path):
    """Found by a review: a missing file, a folder or None gave FileNotFoundError, IsADirectoryError
    or TypeError."""
    from lcanalysis.tournaments.runner import ResultsFileError, load_results

    for path, said in ((tmp_path / "none.jsonl", "none.jsonl: no such results file"),
                       (tmp_path, "no such results file (a folder)"),
                       (None, "load_results takes the path of a results file, got NoneType")):
        with pytest.raises(ResultsFileError, match=re.escape(said)):
            load_results(path)


def test_a_full_disk_stops_a_tournament_naming_the_file_and_keeps_every_whole_line(clean, tmp_path, capsys,
                                                                                   monkeypatch):
    """The disk fills as the third deal-seating is written: the command says which file, why,
    what it keeps and how to go on (no traceback), the part written is cut back (no torn line),
    and the same command run again with room plays the rest, to the file an unbroken run writes."""
    from helpers import full_disk_after

    out = tmp_path / "full.jsonl"
    argv = [*PAIR, "--deals", "3", "--workers", "1", "--out", str(out), "--no-progress"]
    with monkeypatch.context() as m:
        full_disk_after(m, out, 3)  # (the header, then two deal-seatings)
        assert tournament_main(argv) == 2
    err = capsys.readouterr().err
    assert (f"error: cannot write the results file {out}: No space left on device; the 2 deal-seating(s) finished "
            "before are kept in it: make room (or mend the fault) and run the same command again to resume") in err
    assert "Traceback" not in err
    assert out.read_text().endswith("\n") and _jobs(out) == ["0:0:0", "0:0:1"]
    assert tournament_main(argv) == 0
    err = capsys.readouterr().err
    assert "2 of 6 deal-seatings already played, 4 to play" in err and "warning" not in err
    pd.testing.assert_frame_equal(_table(load_results(out)), clean[1])


def test_a_full_disk_as_a_tournament_begins_its_file_names_it_and_leaves_it_empty(tmp_path, capsys, monkeypatch):
    """It was 'error: [Errno 28] No space left on device', naming no file."""
    from helpers import full_disk_after

    out = tmp_path / "full.jsonl"
    argv = [*PAIR, "--deals", "1", "--workers", "1", "--out", str(out), "--no-progress"]
    with monkeypatch.context() as m:
        full_disk_after(m, out, 0)
        assert tournament_main(argv) == 2
    assert (f"error: cannot write the results file {out}: No space left on device; nothing had been played into it"
            in capsys.readouterr().err)
    assert out.read_bytes() == b""
    assert tournament_main(argv) == 0 and len(_jobs(out)) == 2


def test_a_tournament_killed_hard_again_and_again_resumes_to_the_rounds_of_an_unbroken_run(tmp_path):
    """Real runs of the command on worker processes, each SIGKILLed once its file has grown by two
    deal-seatings, then run to the end: every deal-seating is in the file once, and the rounds are
    those of a run never stopped (the timings aside)."""
    path = tmp_path / "killed.jsonl"
    args = _cli(*PAIR, "--deals", "40", "--workers", "2", "--no-progress", "--out", str(path))
    sizes = []
    for _ in range(3):
        before = path.read_text().count("\n") if path.exists() else 0
        proc = subprocess.Popen(args, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=_env(tmp_path),
                                start_new_session=True)
        try:
            _wait_for_lines(path, before + 2, proc)
        finally:
            os.killpg(proc.pid, signal.SIGKILL)  # (the workers too: nothing may write after)
            proc.wait()
        sizes.append(len(_jobs(path)))
    assert sizes == sorted(sizes) and sizes[-1] < 80, "a run finished before it was killed: give it more deals"
    done = subprocess.run(args, capture_output=True, text=True, env=_env(tmp_path), timeout=900, check=False)
    assert done.returncode == 0 and "Traceback" not in done.stderr, done.stderr
    assert f"{sizes[-1]} of 80 deal-seatings already played" in done.stderr
    jobs = _jobs(path)
    assert len(jobs) == len(set(jobs)) == 80
    unbroken = _run(tmp_path / "unbroken.jsonl", deals=40)
    key = ["pairing", "deal", "swap", "round"]
    pd.testing.assert_frame_equal(_table(load_results(path)).sort_values(key).reset_index(drop=True),
                                  _table(unbroken).sort_values(key).reset_index(drop=True))
