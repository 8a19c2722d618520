"""``lcanalysis server``: a background process that keeps the engine loaded, so one-shot
commands answer at once.

A one-shot ``lcanalysis solve`` pays Python's and numba's start-up every time (about a second on
a 2-core machine) for a search that often takes milliseconds. ``lcanalysis server start`` starts
one background process per user and per installed version that loads every compiled part once.
While it runs, ``solve``, ``advise``, ``wager``, ``review``, ``show`` and ``deal`` are answered
by it: the command line (this module's ``forward``) connects to it over a Unix socket and hands
over its arguments, working folder, environment and its three standard streams (the file
descriptors themselves), and the server forks a child that runs the command exactly as the
one-shot process would, writing straight to the caller's terminal or pipes. The child is a
fresh copy of the loaded server: nothing one command does reaches the next, a memory ceiling
(``--max-memory``) limits that child alone, and the exact solver's shared tables start empty, so
node counts are those of a fresh process. Ctrl-C in the caller interrupts the child.

The socket lives in a folder only the user can open (``$LCANALYSIS_RUNTIME_DIR``, else
``$XDG_RUNTIME_DIR/lcanalysis``, else ``~/.cache/lcanalysis/run``), named after a fingerprint of
the installed sources, Python and numba: after an upgrade or an edit the commands no longer find
the old server and run in-process again, and the old server leaves when it has been idle for its
``--idle`` minutes (60 by default), or with ``server stop`` (which stops the servers of this
install's earlier sources too; ``status`` names them). ``LCANALYSIS_NO_SERVER=1`` makes a command ignore any server.
A socket whose server is gone is removed and the command runs in-process, as it does when the
server does not take it within 15 s (stopped, or stuck): a server can make a command faster,
never make it fail.
"""

from __future__ import annotations

import argparse
import contextlib
import hashlib
import importlib.util
import json
import os
import signal
import socket
import stat
import struct
import sys
import threading
import time
from collections.abc import Callable, Sequence
from pathlib import Path

from lcanalysis.cli.common import describe
from lcanalysis.options import number

#: the commands a running server answers (the rest read standard input for long, or run long
#: themselves: bot, shell, tournament, studies, warm-up)
SERVED = ("solve", "advise", "wager", "review", "show", "deal")
NO_SERVER_ENV = "LCANALYSIS_NO_SERVER"
RUNTIME_ENV = "LCANALYSIS_RUNTIME_DIR"
DEFAULT_IDLE_MINUTES = 60.0
#: how long ``start`` waits for a new server to answer (it loads the compiled engine first)
START_TIMEOUT = 120.0
#: how long a command waits for the server to take it (receive it and fork: a moment; it reads one
#: request at a time, each within 10 s): a server stopped (Ctrl-Z on 'server run') or stuck for
#: longer leaves the command to run itself, where it waited for ever
TAKE_TIMEOUT = 15.0
_HEADER = struct.Struct("!I")
_MAX_REQUEST = 1 << 20

PACKAGE = Path(__file__).resolve().parent.parent


# --- where the server of this version listens ---------------------------------------------


def runtime_dir() -> Path:
    if os.environ.get(RUNTIME_ENV):
        return Path(os.environ[RUNTIME_ENV]).absolute()
    if os.environ.get("XDG_RUNTIME_DIR"):
        return Path(os.environ["XDG_RUNTIME_DIR"]) / "lcanalysis"
    return Path.home() / ".cache" / "lcanalysis" / "run"


def fingerprint(package: Path = PACKAGE) -> str:
    """Changes when any file of the package (sources, examples, tables), Python or the installed
    numba changes. Made from file sizes and modification times, not contents: a millisecond or two."""
    h = hashlib.sha256(f"{sys.prefix}\0{sys.version}".encode())  # the environment, not the name it was run by
    numba_spec = importlib.util.find_spec("numba")  # located, not imported
    sources = sorted(p for p in package.rglob("*") if "__pycache__" not in p.parts)
    if numba_spec is not None and numba_spec.origin:
        sources.append(Path(numba_spec.origin))
    for path in sources:
        try:
            st = path.stat()
        except OSError:
            continue
        if stat.S_ISDIR(st.st_mode):  # a folder's time changes with any file made in it (caches too)
            continue
        h.update(f"{path}\0{st.st_size}\0{st.st_mtime_ns}\0".encode())
    return h.hexdigest()[:16]


def socket_path(package: Path = PACKAGE) -> Path:
    return runtime_dir() / f"server-{fingerprint(package)}.sock"


def install() -> dict[str, str]:
    """What tells this install from another sharing the runtime folder (another checkout, another
    environment): a server of the same install with another fingerprint serves sources since
    changed, which no command reaches any more."""
    return {"package": str(PACKAGE), "prefix": sys.prefix}


# --- the caller's side ---------------------------------------------------------------------


def _send(conn: socket.socket, obj: dict, fds: Sequence[int] = ()) -> None:
    data = json.dumps(obj).encode()
    message = _HEADER.pack(len(data)) + data
    if fds:
        socket.send_fds(conn, [message], list(fds))
    else:
        conn.sendall(message)


def _receive(conn: socket.socket, maxfds: int = 0) -> tuple[dict | None, list[int]]:
    """One message (None when the other side closed first) and the descriptors that came with it;
    ValueError when it is not a JSON object."""
    fds: list[int] = []
    buf = b""
    while len(buf) < _HEADER.size or len(buf) < _HEADER.size + _HEADER.unpack_from(buf)[0]:
        if maxfds and not fds and not buf:
            chunk, got, _flags, _addr = socket.recv_fds(conn, 65536, maxfds)
            fds.extend(got)
        else:
            chunk = conn.recv(65536)
        if not chunk:
            return None, fds
        buf += chunk
        if len(buf) >= _HEADER.size and _HEADER.unpack_from(buf)[0] > _MAX_REQUEST:
            raise ConnectionError("request too large")
    (size,) = _HEADER.unpack_from(buf)
    message = json.loads(buf[_HEADER.size:_HEADER.size + size])
    if not isinstance(message, dict):  # (the server read it with .get: a list ended the server)
        raise ValueError(f"a message is a JSON object, got {type(message).__name__}")
    return message, fds


def _connect(path: Path, timeout: float | None = 5.0) -> socket.socket:
    conn = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    conn.settimeout(timeout)
    try:
        conn.connect(str(path))
    except OSError:
        conn.close()
        raise
    return conn


def forward(argv: Sequence[str]) -> int | None:
    """Have this version's server answer the command, on this process's own streams; its exit
    status, or None when no server of this version runs (the caller then runs it itself)."""
    if not argv or argv[0] not in SERVED or os.environ.get(NO_SERVER_ENV):
        return None
    path = socket_path()
    if not path.exists():
        return None
    try:
        conn = _connect(path)
    except OSError:  # the server is gone and left its socket behind
        with contextlib.suppress(OSError):
            path.unlink()
        return None
    with conn:
        for stream in (sys.stdout, sys.stderr):
            stream.flush()
        try:
            _send(conn, {"argv": list(argv), "cwd": os.getcwd(), "env": dict(os.environ)}, fds=(0, 1, 2))
            conn.settimeout(TAKE_TIMEOUT)
            started, _ = _receive(conn)
            conn.settimeout(None)
            if started is None or "pid" not in started:
                return None
            # The child waits for this word before it runs: had this side given up at the same
            # moment, the command would run twice, here and there.
            _send(conn, {"go": True})
        except OSError:  # (a timeout too: closing the connection tells a late child not to run it)
            return None  # refused before it started: nothing ran, so run it here
        return _await_status(conn, int(started["pid"]))


def _await_status(conn: socket.socket, pid: int) -> int:
    while True:
        try:
            done, _ = _receive(conn)
        except KeyboardInterrupt:  # Ctrl-C reaches this process only: pass it on, keep waiting
            with contextlib.suppress(OSError):
                os.kill(pid, signal.SIGINT)
            continue
        if done is None or "status" not in done:
            print("error: the lcanalysis server stopped while answering this command; run it again "
                  f"without the server ({NO_SERVER_ENV}=1) and report the problem", file=sys.stderr)
            return 1
        return int(done["status"])


def ping(path: Path | None = None) -> dict | None:
    """The server's state (pid, fingerprint, commands answered, idle minutes, ``install()``), or None."""
    path = socket_path() if path is None else path
    try:
        with _connect(path, timeout=2.0) as conn:
            _send(conn, {"ping": True})
            answer, _ = _receive(conn)
            return answer
    except (OSError, ValueError):
        return None


# --- the server's side ---------------------------------------------------------------------


def _load_engine() -> None:
    from lcanalysis.cli import warmup

    warmup.engine_ready(quiet=True)
    for _name, step in warmup.STEPS:
        step()


def serve(path: Path, idle_minutes: float, run_command: Callable[[Sequence[str]], int],
          load: Callable[[], None] = _load_engine, ready_fd: int | None = None) -> None:
    """Listen on ``path`` until idle for ``idle_minutes`` or asked to stop; every command is
    answered by a forked child. Once it listens, its pid is written to ``ready_fd`` (the pipe
    ``start`` waits on), so a start is seen even when the server leaves again at once."""
    load()
    os.chdir("/")  # each command runs in its caller's folder; the server holds none
    path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
    listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    tmp = path.with_name(f"{path.name}.{os.getpid()}")
    listener.bind(str(tmp))
    os.chmod(tmp, 0o600)
    listener.listen(16)
    os.replace(tmp, path)  # appears only once it answers
    mine = os.stat(path).st_ino
    if ready_fd is not None:
        with contextlib.suppress(OSError):
            os.write(ready_fd, f"{os.getpid()}\n".encode())
        os.close(ready_fd)
    signal.signal(signal.SIGCHLD, signal.SIG_IGN)  # children are reaped by the system
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))
    answered, last = 0, time.monotonic()
    fp = path.stem.removeprefix("server-")
    try:
        while True:
            listener.settimeout(max(0.05, idle_minutes * 60 - (time.monotonic() - last)))
            try:
                conn, _ = listener.accept()
            except TimeoutError:
                if time.monotonic() - last >= idle_minutes * 60:
                    return
                continue
            with conn:
                conn.settimeout(10.0)
                try:
                    request, fds = _receive(conn, maxfds=3)
                except (OSError, ValueError):
                    continue
                if request is None:
                    continue
                if request.get("ping"):
                    _send(conn, {"pid": os.getpid(), "fingerprint": fp, "answered": answered,
                                 "idle_minutes": idle_minutes, **install()})
                    continue
                if request.get("stop"):
                    _send(conn, {"stopped": os.getpid()})
                    return
                if len(fds) != 3 or "argv" not in request:
                    for fd in fds:
                        os.close(fd)
                    continue
                answered += 1
                last = time.monotonic()  # only a command counts: 'status' does not keep it alive
                sys.stdout.flush()
                sys.stderr.flush()
                if os.fork() == 0:
                    listener.close()
                    os._exit(_child(conn, request, fds, run_command))
                for fd in fds:
                    os.close(fd)
    finally:
        listener.close()
        with contextlib.suppress(OSError):
            if os.stat(path).st_ino == mine:  # not a newer server's socket
                path.unlink()


def _leave_with_caller(conn: socket.socket) -> None:
    """Runs beside the command in the child: the caller sends nothing more, so the end of its
    connection means it is gone (killed, or its terminal closed). The child then ends at once
    (SIGTERM, the default action here): nobody waits for its answer, and a long search would
    otherwise hold a core and the caller's pipes."""
    with contextlib.suppress(OSError):
        while conn.recv(64):
            pass
    os.kill(os.getpid(), signal.SIGTERM)


def _child(conn: socket.socket, request: dict, fds: list[int], run_command: Callable[[Sequence[str]], int]) -> int:
    """Runs in the forked child: become the caller's process (streams, folder, environment),
    answer, send the status."""
    status = 1
    try:
        signal.signal(signal.SIGCHLD, signal.SIG_DFL)
        signal.signal(signal.SIGTERM, signal.SIG_DFL)
        signal.signal(signal.SIGINT, signal.default_int_handler)
        for target, fd in enumerate(fds):
            os.dup2(fd, target)
            os.close(fd)
        encoding = "utf-8"
        sys.stdin = open(0, encoding=encoding, closefd=False)  # noqa: SIM115 (the process's own stream)
        sys.stdout = open(1, "w", buffering=1 if os.isatty(1) else -1, encoding=encoding, closefd=False)  # noqa: SIM115
        sys.stderr = open(2, "w", buffering=1, encoding=encoding, closefd=False)  # noqa: SIM115 (line-buffered)
        os.environ.clear()
        os.environ.update(request.get("env") or {})
        os.chdir(request.get("cwd") or "/")
        conn.settimeout(None)
        try:  # the caller says go only if it still waits; else it has run the command itself
            _send(conn, {"pid": os.getpid()})
            go, _ = _receive(conn)
        except OSError:
            go = None
        if not go or not go.get("go"):  # the caller stopped waiting (this server was stopped or stuck)
            return 1
        threading.Thread(target=_leave_with_caller, args=(conn,), name="caller-watch", daemon=True).start()
        try:  # (run_command clears the solver's shared tables: the node counts of a fresh process)
            status = run_command(request["argv"])
        except SystemExit as exc:  # argparse: --help, or a bad option (usage already printed)
            status = exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 1)
        except KeyboardInterrupt:
            status = 130
        except BrokenPipeError:
            status = 0
    except BaseException:  # a bug: say where on the caller's stream
        import traceback

        with contextlib.suppress(Exception):
            traceback.print_exc()
        status = 1
    finally:
        with contextlib.suppress(Exception):
            sys.stdout.flush()
            sys.stderr.flush()
        with contextlib.suppress(OSError):
            _send(conn, {"status": int(status)})
    return int(status)


# --- the command ---------------------------------------------------------------------------


def add_parser(sub: argparse._SubParsersAction, run_command: Callable[[Sequence[str]], int]) -> None:
    p = sub.add_parser("server", help="keep the engine loaded in a background process, so solve, advise, "
                                      "wager, review, show and deal answer at once",
                       description=describe(__doc__))
    p.add_argument("action", choices=("start", "stop", "status", "run"),
                   help="start a server for this version (in the background), stop it, say whether it runs; "
                        "'run' serves in the foreground (what 'start' runs)")
    p.add_argument("--idle", type=number("--idle", "minutes", above=True), default=DEFAULT_IDLE_MINUTES,
                   help=f"minutes without a command after which the server leaves (default {DEFAULT_IDLE_MINUTES:g})")
    p.add_argument("--ready-fd", type=int, default=None, help=argparse.SUPPRESS)  # set by 'start' for 'run'
    p.set_defaults(func=lambda args: run(args, run_command))


def stale_servers(path: Path) -> list[tuple[Path, dict]]:
    """The servers running beside ``path`` for this install's earlier sources (an edit, an
    upgrade): no command reaches them, yet each holds its memory until its idle minutes are up."""
    found = []
    for other in sorted(path.parent.glob("server-*.sock")) if path.parent.is_dir() else []:
        state = ping(other) if other != path else None
        if state is not None and all(state.get(key) == value for key, value in install().items()):
            found.append((other, state))
    return found


def _stop(path: Path) -> None:
    with contextlib.suppress(OSError, ValueError), _connect(path) as conn:
        _send(conn, {"stop": True})
        _receive(conn)


def run(args: argparse.Namespace, run_command: Callable[[Sequence[str]], int]) -> int:
    path = socket_path()
    if args.action == "run":
        serve(path, args.idle, run_command, ready_fd=args.ready_fd)
        return 0
    state = ping(path)
    if args.action == "status":
        if state is None:
            print(f"no lcanalysis server runs for this version (would listen on {path})")
        else:
            print(f"lcanalysis server running: pid {state['pid']}, {state['answered']} command(s) answered, "
                  f"leaves after {state['idle_minutes']:g} idle minutes; socket {path}")
        for _other, old in stale_servers(path):
            print(f"a server of this install's earlier sources still runs (pid {old['pid']}), unused since "
                  "they changed: 'lcanalysis server stop' stops it")
        return 1 if state is None else 0
    if args.action == "stop":
        if state is None:
            print("no lcanalysis server runs for this version")
        else:
            _stop(path)
            print(f"lcanalysis server stopped (pid {state['pid']})")
        for other, old in stale_servers(path):  # 'stop' after an edit or an upgrade stops the old one too
            _stop(other)
            print(f"lcanalysis server of this install's earlier sources stopped (pid {old['pid']})")
        return 0
    if state is not None:  # start
        print(f"lcanalysis server already running (pid {state['pid']}); socket {path}")
        return 0
    return _start(path, args.idle)


def _start(path: Path, idle: float) -> int:
    import select
    import subprocess

    path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
    log = path.with_suffix(".log")
    # The new server writes its pid to this pipe once it listens: polling its socket instead
    # misses a server that is already gone again (a short --idle on a busy machine).
    ready_read, ready_write = os.pipe()
    try:
        with open(log, "ab") as out:
            proc = subprocess.Popen([sys.executable, "-m", "lcanalysis", "server", "run", "--idle", repr(idle),
                                     "--ready-fd", str(ready_write)],
                                    stdin=subprocess.DEVNULL, stdout=out, stderr=out, start_new_session=True,
                                    pass_fds=(ready_write,))
        os.close(ready_write)
        print("starting the lcanalysis server (loading the engine, a few seconds)...", file=sys.stderr, flush=True)
        ready = b""
        deadline = time.monotonic() + START_TIMEOUT
        while time.monotonic() < deadline and not ready.endswith(b"\n"):
            readable, _, _ = select.select([ready_read], [], [], max(0.0, deadline - time.monotonic()))
            if not readable:
                break
            chunk = os.read(ready_read, 64)
            if not chunk:  # the server left without ever listening
                break
            ready += chunk
    finally:
        os.close(ready_read)
    if ready.endswith(b"\n"):
        print(f"lcanalysis server running (pid {int(ready)}): solve, advise, wager, review, show and deal "
              f"now answer through it; it leaves after {idle:g} idle minutes or with 'lcanalysis server stop'")
        return 0
    with contextlib.suppress(OSError):
        proc.kill()
    tail = log.read_text(errors="replace").strip().splitlines()[-5:] if log.exists() else []
    print("error: the lcanalysis server did not start" + (": " + " | ".join(tail) if tail else ""), file=sys.stderr)
    return 2
