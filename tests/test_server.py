"""``lcanalysis server`` (issue 12): while it runs, the one-shot commands it serves give exactly
what they give in-process (streams, exit status, bad input, standard input, relative paths);
Ctrl-C reaches the command; a stopped or vanished server only means the command runs itself;
a changed source file means another server."""

from __future__ import annotations

import json
import os
import select
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pytest
from helpers import played_down
from test_shell import _normal

from lcanalysis.cli import server

TIMEOUT = 300


def _env(runtime: Path, use_server: bool = True) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k != server.NO_SERVER_ENV}
    env[server.RUNTIME_ENV] = str(runtime)
    if not use_server:
        env[server.NO_SERVER_ENV] = "1"
    return env


def _lc(runtime: Path, *args: str, use_server: bool = True, stdin: str | None = None,
        cwd: Path | None = None) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "lcanalysis", *args], input=stdin, capture_output=True, text=True,
                          timeout=TIMEOUT, check=False, env=_env(runtime, use_server), cwd=cwd)


def _answered(runtime: Path) -> int:
    status = _lc(runtime, "server", "status")
    assert status.returncode == 0, status.stdout + status.stderr
    return int(status.stdout.split(" command(s) answered")[0].rsplit(" ", 1)[1])


@pytest.fixture(scope="module")
def runtime():
    # a short folder: a Unix socket's path is limited to about 100 characters
    folder = Path(tempfile.mkdtemp(prefix="lcs", dir="/tmp"))
    started = _lc(folder, "server", "start", "--idle", "10")
    assert started.returncode == 0, started.stderr
    assert "lcanalysis server running" in started.stdout
    yield folder
    _lc(folder, "server", "stop")
    shutil.rmtree(folder, ignore_errors=True)


def test_served_commands_answer_exactly_as_in_process(runtime):
    endgame = played_down(5, 2).to_string()
    commands = [
        ["show", "example:midround", "--string"],
        ["solve", endgame, "--max-stalls", "1"],
        ["solve", "no-such-position"],  # bad input: 'error: ...', status 2
        ["wager", "example:midround", "--color", "G", "--draws", "10"],
        ["solve", "example:endgame", "--max-stalls", "-1"],  # a bad argument: one line, status 2
        ["solve", "example:endgame", "--max-stalls", "0", "--json"],
    ]
    before = _answered(runtime)
    for words in commands:
        served = _lc(runtime, *words)
        alone = _lc(runtime, *words, use_server=False)
        assert served.returncode == alone.returncode, words
        assert _normal(served.stdout) == _normal(alone.stdout), words
        assert _normal(served.stderr) == _normal(alone.stderr), words
    assert _answered(runtime) == before + len(commands)  # every one went through the server


def test_standard_input_and_relative_paths_are_the_callers(runtime, tmp_path):
    endgame = played_down(5, 2)
    (tmp_path / "pos.json").write_text(json.dumps(endgame.to_json()))
    before = _answered(runtime)
    by_file = _lc(runtime, "solve", "pos.json", "--max-stalls", "0", cwd=tmp_path)
    by_stdin = _lc(runtime, "solve", "-", "--max-stalls", "0", stdin=endgame.to_string())
    alone = _lc(runtime, "solve", endgame.to_string(), "--max-stalls", "0", use_server=False)
    assert by_file.returncode == by_stdin.returncode == alone.returncode == 0, by_file.stderr + by_stdin.stderr
    assert _normal(by_file.stdout) == _normal(by_stdin.stdout) == _normal(alone.stdout)
    assert _answered(runtime) == before + 2


def _served(runtime: Path, *words: str) -> subprocess.Popen:
    """A served command started as at a terminal (a background job of a script ignores Ctrl-C)."""
    return subprocess.Popen([sys.executable, "-m", "lcanalysis", *words], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, env=_env(runtime),
                            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))  # noqa: PLW1509


def _children(pid: int) -> list[int]:
    """The processes whose parent is ``pid`` (the server's forked commands)."""
    found = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[1]) == pid and fields[0] != "Z":
            found.append(int(stat.parent.name))
    return found


def _server_pid(runtime: Path) -> int:
    return int(_lc(runtime, "server", "status").stdout.split("pid ")[1].split(",")[0])


def _until_at_work(proc: subprocess.Popen) -> None:
    """Read the served command's standard error until its progress says how far it is ("... so far"):
    the command is then at work in the server's child, past its start."""
    assert proc.stderr is not None
    said = []
    while not said or "so far" not in said[-1]:
        said.append(proc.stderr.readline())
        assert said[-1], f"the command ended before it was at work: {''.join(said)[-2000:]}"


@pytest.mark.parametrize("words", [
    ("advise", "example:midround", "--time", "20"),  # play-outs: Python between chunks
    # the exact solver runs in compiled code, where Python's own Ctrl-C handler never runs: the
    # opening's solve with no stall budget ran on for 10 minutes and more after Ctrl-C
    ("solve", "example:opening", "--max-stalls", "0"),
], ids=["advise", "solve"])
def test_ctrl_c_stops_the_served_command(runtime, words):
    before = _answered(runtime)
    proc = _served(runtime, *words)
    deadline = time.monotonic() + 30
    while _answered(runtime) == before and time.monotonic() < deadline:  # wait until the server has it
        time.sleep(0.2)
    _until_at_work(proc)  # (a fixed sleep let a Ctrl-C on a busy machine come before the search began)
    t0 = time.monotonic()
    proc.send_signal(signal.SIGINT)
    _out, err = proc.communicate(timeout=60)
    assert proc.returncode == 130, err[-2000:]
    assert time.monotonic() - t0 < 12  # not the 20 s of the budget, nor the search's end


def test_a_command_whose_caller_is_killed_stops(runtime):
    """A caller killed (not Ctrl-C: SIGKILL, a closed terminal) left the server's child searching for
    10 minutes and more, holding a core and the caller's pipes."""
    server_pid = _server_pid(runtime)
    before = set(_children(server_pid))
    proc = _served(runtime, "solve", "example:opening", "--max-stalls", "0")
    deadline = time.monotonic() + 30
    while not set(_children(server_pid)) - before and time.monotonic() < deadline:
        time.sleep(0.2)
    started = set(_children(server_pid)) - before
    assert started, "the server did not fork the command"
    _until_at_work(proc)
    proc.kill()
    proc.communicate(timeout=60)
    deadline = time.monotonic() + 15
    while started & set(_children(server_pid)) and time.monotonic() < deadline:
        time.sleep(0.2)
    assert not started & set(_children(server_pid)), "the command went on without its caller"


def test_without_a_server_commands_run_in_process_and_a_stale_socket_is_cleared(tmp_path):
    folder = Path(tempfile.mkdtemp(prefix="lcs", dir="/tmp"))
    try:
        env = _env(folder)
        assert _lc(folder, "server", "status").returncode == 1  # none runs
        path = Path(subprocess.run([sys.executable, "-c", "from lcanalysis.cli.server import socket_path; "
                                    "print(socket_path())"], env=env, capture_output=True, text=True,
                                   check=True).stdout.strip())
        assert path.parent == folder
        dead = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        dead.bind(str(path))  # a socket file nobody listens on: a server that died
        dead.close()
        assert path.exists()
        answer = _lc(folder, "solve", "example:endgame", "--max-stalls", "0")
        alone = _lc(folder, "solve", "example:endgame", "--max-stalls", "0", use_server=False)
        assert answer.returncode == 0 and _normal(answer.stdout) == _normal(alone.stdout)
        assert not path.exists()
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def test_an_idle_server_leaves():
    folder = Path(tempfile.mkdtemp(prefix="lcs", dir="/tmp"))
    try:
        # 0.06 seconds idle: the server leaves about as soon as it listens, and 'start' still
        # reports it (it waits on the server's own word, not on finding its socket in time)
        started = _lc(folder, "server", "start", "--idle", "0.001")
        assert started.returncode == 0, started.stderr
        assert "lcanalysis server running (pid " in started.stdout
        deadline = time.monotonic() + 60
        while _lc(folder, "server", "status").returncode == 0 and time.monotonic() < deadline:
            time.sleep(0.5)
        assert _lc(folder, "server", "status").returncode == 1
        assert not list(folder.glob("*.sock"))
    finally:
        _lc(folder, "server", "stop")
        shutil.rmtree(folder, ignore_errors=True)


def test_a_changed_file_of_the_package_means_another_server(tmp_path):
    package = tmp_path / "pkg"
    (package / "sub").mkdir(parents=True)
    (package / "a.py").write_text("x = 1\n")
    (package / "sub" / "table.json").write_text("{}\n")
    (package / "__pycache__").mkdir()
    first = server.fingerprint(package)
    assert server.fingerprint(package) == first
    (package / "__pycache__" / "a.nbi").write_text("compiled")  # numba's cache is not the source
    (package / "sub" / "__pycache__").mkdir()  # a new cache folder changes its parent folder's time
    assert server.fingerprint(package) == first
    (package / "sub" / "table.json").write_text('{"changed": 1}\n')
    assert server.fingerprint(package) != first


def test_bad_idle_minutes_are_refused():
    folder = Path("/tmp/lcs-never-used")
    answer = _lc(folder, "server", "start", "--idle", "-1")
    assert answer.returncode == 2 and "--idle must be a positive number of minutes" in answer.stderr
    assert not folder.exists()


def test_stop_stops_the_server(runtime):  # last: the module's server is gone after it
    again = _lc(runtime, "server", "start")
    assert again.returncode == 0 and "already running" in again.stdout
    stopped = _lc(runtime, "server", "stop")
    assert stopped.returncode == 0 and "stopped" in stopped.stdout
    assert _lc(runtime, "server", "status").returncode == 1
    assert not list(runtime.glob("*.sock"))


def _fake_server(folder: Path, name: str, prefix: str | None = None, run: str = "lambda argv: 0") -> subprocess.Popen:
    """A server listening as ``name`` in ``folder``, with nothing loaded (``prefix``: as if run from
    another Python environment), answering every command with ``run``."""
    script = ("import sys\nfrom pathlib import Path\nfrom lcanalysis.cli import server\n"
              + (f"sys.prefix = {prefix!r}\n" if prefix else "")
              + f"server.serve(Path({str(folder / name)!r}), 5.0, {run}, load=lambda: None)\n")
    proc = subprocess.Popen([sys.executable, "-c", script], env=_env(folder))
    deadline = time.monotonic() + 60
    while server.ping(folder / name) is None and time.monotonic() < deadline:
        time.sleep(0.1)
    return proc


def test_stop_also_stops_the_server_of_this_install_s_earlier_sources():
    """After an edit or an upgrade the commands no longer reach the old server, and 'server stop'
    said 'no lcanalysis server runs for this version' and left it holding its memory for up to an
    hour. A server of another install (another environment) sharing the folder is left alone."""
    folder = Path(tempfile.mkdtemp(prefix="lcs", dir="/tmp"))
    old = _fake_server(folder, "server-0000000000000000.sock")
    other = _fake_server(folder, "server-1111111111111111.sock", prefix="/another/venv")
    try:
        status = _lc(folder, "server", "status")
        assert status.returncode == 1 and "no lcanalysis server runs for this version" in status.stdout
        assert f"a server of this install's earlier sources still runs (pid {old.pid})" in status.stdout
        assert str(other.pid) not in status.stdout
        stopped = _lc(folder, "server", "stop")
        assert stopped.returncode == 0, stopped.stderr
        assert f"lcanalysis server of this install's earlier sources stopped (pid {old.pid})" in stopped.stdout
        assert old.wait(timeout=60) == 0 and other.poll() is None
        assert [p.name for p in folder.glob("*.sock")] == ["server-1111111111111111.sock"]
    finally:
        for proc in (old, other):
            proc.kill()
            proc.wait()
        shutil.rmtree(folder, ignore_errors=True)


def _late_children_gone(server_pid: int) -> bool:
    """Whether the children the server forked for a caller that left have ended (within a
    minute: a safety net), so that a command one of them ran would have written by now."""
    deadline = time.monotonic() + 60
    while _children(server_pid) and time.monotonic() < deadline:
        time.sleep(0.05)
    return not _children(server_pid)


def test_a_stopped_server_costs_a_command_a_short_wait_not_its_answer(monkeypatch):
    """A server stopped by Ctrl-Z on 'server run' took the command and never answered: the command
    waited for ever (and, killed, left its pipes held by the server), and once the server went on it
    ran the command for nobody, a BrokenPipeError traceback on the caller's stream. Now the command
    runs itself after TAKE_TIMEOUT, and the server's late child does not run it."""
    import threading

    folder = Path(tempfile.mkdtemp(prefix="lcs", dir="/tmp"))
    marker = folder / "ran"
    monkeypatch.setenv(server.RUNTIME_ENV, str(folder))
    monkeypatch.delenv(server.NO_SERVER_ENV, raising=False)
    monkeypatch.setattr(server, "TAKE_TIMEOUT", 0.5)
    path = server.socket_path()
    proc = _fake_server(folder, path.name, run=f"lambda argv: Path({str(marker)!r}).write_text('ran') and 0")
    try:
        os.kill(proc.pid, signal.SIGSTOP)
        got = []
        waiting = threading.Thread(target=lambda: got.append(server.forward(["show", "example:endgame"])), daemon=True)
        waiting.start()
        waiting.join(60)
        assert got == [None]  # not taken: the caller runs it
        os.kill(proc.pid, signal.SIGCONT)
        state = server.ping(path)  # (answered after the request before it: its child is forked by now)
        assert state is not None and state["answered"] == 1  # the server went on, and took the request
        assert _late_children_gone(proc.pid)
        assert not marker.exists()
        # a running one answers: the short wait was for the stopped server, and under load a busy
        # machine could take longer than it to fork the answering child
        monkeypatch.setattr(server, "TAKE_TIMEOUT", 60.0)
        assert server.forward(["show", "example:endgame"]) == 0 and marker.exists()
    finally:
        proc.kill()
        proc.wait()
        shutil.rmtree(folder, ignore_errors=True)


def test_a_command_is_run_by_the_server_only_once_the_caller_says_go(monkeypatch):
    """The caller gives up on a slow server after TAKE_TIMEOUT and runs the command itself. A child
    that had just announced itself in that moment ran it too: the command ran twice (two searches,
    two writes of one file). Now the child waits for the caller's go; a caller that read the
    announcement late, or never, and left, gets no second run."""
    folder = Path(tempfile.mkdtemp(prefix="lcs", dir="/tmp"))
    marker = folder / "ran"
    path = folder / "server-2222222222222222.sock"
    proc = _fake_server(folder, path.name, run=f"lambda argv: Path({str(marker)!r}).write_text('ran') and 0")
    try:
        with server._connect(path) as conn:  # a caller whose wait ends just as the child starts
            server._send(conn, {"argv": ["show", "example:endgame"], "cwd": str(folder), "env": {}},
                         fds=(0, 1, 2))
            # the child has announced itself (its word waits, unread by this caller)
            assert select.select([conn], [], [], 60)[0], "the server's child did not announce itself"
        assert _late_children_gone(proc.pid)
        assert not marker.exists()
        with server._connect(path, timeout=60) as conn:  # a caller that reads the announcement and says go
            server._send(conn, {"argv": ["show", "example:endgame"], "cwd": str(folder), "env": {}},
                         fds=(0, 1, 2))
            started, _ = server._receive(conn)
            assert started is not None and "pid" in started
            server._send(conn, {"go": True})
            done, _ = server._receive(conn)
        assert done == {"status": 0} and marker.read_text() == "ran"
    finally:
        proc.kill()
        proc.wait()
        shutil.rmtree(folder, ignore_errors=True)


@pytest.mark.parametrize("message", [b"[1, 2]", b"5", b"null", b'"stop"', b"not json", b"\xff\xfe"])
def test_a_message_that_is_not_a_json_object_is_dropped_and_the_server_goes_on(message):
    """A message to the server's socket that was JSON but not an object (a list, a number) ended the
    server ('list' object has no attribute 'get'), removing its socket: every later command ran
    in-process, slowly, with nothing said. It is dropped, as a message that is not JSON is, and the
    server answers the next one."""
    folder = Path(tempfile.mkdtemp(prefix="lcs", dir="/tmp"))
    path = folder / "server-2222222222222222.sock"
    proc = _fake_server(folder, path.name)
    try:
        assert server.ping(path) is not None
        with server._connect(path, timeout=60) as conn:
            conn.sendall(server._HEADER.pack(len(message)) + message)
            assert conn.recv(64) == b""  # dropped: the connection closed without an answer
        assert proc.poll() is None and server.ping(path)["pid"] == proc.pid
    finally:
        proc.kill()
        proc.wait()
        shutil.rmtree(folder, ignore_errors=True)
