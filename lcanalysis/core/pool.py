"""Worker processes that never outlive the process that started them (a tournament, a review).

A process pool's workers are children of the tournament; if the tournament is killed (any
signal, SIGKILL included, which no handler can see) they would live on, reparented, each holding
its memory. Every worker of ``worker_pool`` therefore

- asks Linux to kill it when its parent dies (``prctl(PR_SET_PDEATHSIG, SIGKILL)``, via ctypes), and
- runs a watchdog thread that exits the process once its parent is gone (``os.getppid()``
  changes, or the tournament's pid no longer exists): the portable fallback, within a second.

Other executors (a dask cluster, a pool of your own) manage their own workers.
"""

from __future__ import annotations

import contextlib
import ctypes
import os
import signal
import sys
import threading
import time
from collections.abc import Iterator
from concurrent.futures import ProcessPoolExecutor

PR_SET_PDEATHSIG = 1  # linux/prctl.h
WATCH_INTERVAL = 0.5


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # pragma: no cover - exists, someone else's
        return True
    return True


def _die_with_parent() -> bool:
    """Linux: be sent SIGKILL when the parent dies. False where that is not available."""
    if not sys.platform.startswith("linux"):
        return False
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        return int(libc.prctl(PR_SET_PDEATHSIG, int(signal.SIGKILL), 0, 0, 0)) == 0
    except (OSError, AttributeError):  # pragma: no cover - no libc prctl
        return False


def _watch(ppid: int, tournament: int) -> None:
    while True:
        time.sleep(WATCH_INTERVAL)
        if os.getppid() != ppid or not _alive(tournament):
            os._exit(70)


def worker_init(tournament_pid: int, close_fds: tuple[int, ...] = ()) -> None:
    """A pool worker's initializer: die with the parent (see the module's docstring). A forked
    worker closes ``close_fds``, its copies of the parent's descriptors (the locked results file),
    so that only the tournament holds the lock. Ctrl-C is the parent's alone: at a terminal it reaches
    every process of the group, and a worker that took it printed a traceback of its own while the
    parent, which stops handing out work and says what is kept, waited for it (a rollout's)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    for fd in close_fds:
        with contextlib.suppress(OSError):
            os.close(fd)
    ppid = os.getppid()
    _die_with_parent()
    if not _alive(tournament_pid) or ppid == 1:  # the parent died before the request took hold
        os._exit(70)
    threading.Thread(target=_watch, args=(ppid, tournament_pid), name="lcanalysis-parent-watch",
                     daemon=True).start()


def worker_pool(workers: int, close_fds: tuple[int, ...] = ()) -> ProcessPoolExecutor:
    """A ``ProcessPoolExecutor`` of ``workers`` processes that exit when this process dies."""
    import multiprocessing

    fork = multiprocessing.get_start_method() == "fork"
    return ProcessPoolExecutor(max_workers=workers, initializer=worker_init,
                               initargs=(os.getpid(), tuple(close_fds) if fork else ()))


@contextlib.contextmanager
def cancelling_pool(workers: int, close_fds: tuple[int, ...] = ()) -> Iterator[ProcessPoolExecutor]:
    """``worker_pool`` whose jobs not yet started are cancelled when the block is left: a caller that
    submits every job at once and stops early (Ctrl-C, an error) waits for the running ones only, not
    for all the rest (``ProcessPoolExecutor``'s own exit runs every job submitted)."""
    pool = worker_pool(workers, close_fds)
    try:
        yield pool
    finally:
        pool.shutdown(wait=True, cancel_futures=True)
