"""Input checks and the translation from positions to the searchers' kernel states."""

from __future__ import annotations

import math
import os
import signal
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager, suppress
from contextvars import ContextVar
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, ClassVar

import numpy as np

from lcanalysis.analysis import seconds_in_words
from lcanalysis.core import kernel as K
from lcanalysis.game.moves import Move
from lcanalysis.options import MAX_SAMPLES as MAX_SAMPLES  # re-exported: view_value takes it from here
from lcanalysis.options import MAX_STALLS, MAX_TL, brief

LEAF_AS_IS = 0
LEAF_SIMPLE = 1
LEAF_EVALUATOR = 2
#: the largest node budget a search accepts (``max_nodes``): about a week of search at the
#: 1.4 million nodes a second measured on the project's 2-core machine
MAX_NODES = 10**12


class SearchError(ValueError):
    """A question the endgame searcher cannot answer as asked; the message says why."""


class SearchMemoryError(SearchError):
    """A search refused before it starts: its tables do not fit under the memory ceiling (more
    nodes or time would not help)."""


ABORT = 3  # ``stats[ABORT]`` set: the compiled search stops at its next node, as when its node budget runs out
CLOCK = 5  # ``stats[CLOCK]`` set: it was the clock that stopped it (``abort_at``), not the node budget


def _ring(stats: np.ndarray) -> None:
    stats[CLOCK] = 1
    stats[ABORT] = 1


#: the stats of every compiled search running now (any thread), so that a Ctrl-C stops them all
_running: dict[int, np.ndarray] = {}
_running_lock = threading.Lock()


def stop_running_searches() -> None:
    """Raise the abort flag of every compiled search running now (not ``CLOCK``: nobody's time ran
    out). Called on Ctrl-C; a search stopped so is left by its caller's ``KeyboardInterrupt``."""
    with _running_lock:
        for stats in _running.values():
            stats[ABORT] = 1


@dataclass
class Plan:
    """The outermost plan of worlds a heartbeat counts (``planned``): ``done`` of ``total`` ``what``
    since ``start`` (a ``time.perf_counter`` value), begun in the heartbeat's ``stage``. One that
    ``ended`` stays (its count is true until the search returns) until another begins."""

    done: int
    total: int
    what: str
    start: float
    stage: str
    ended: bool = False


class Meter:
    """What a long search has done so far, for its progress line (``heartbeat``): the nodes of every
    compiled search run inside it (``abort_at`` counts each, on any thread ``on_threads`` starts),
    and the worlds (samples, splits or fills) solved out of their total (``planned``). Read while
    the searches run, so the nodes are a running count; the answer's ``nodes`` is the exact one."""

    def __init__(self, outer: Meter | None = None, stage: Callable[[], str] = str):
        self.outer = outer  # a heartbeat inside another: both count
        self.stage = stage  # what the heartbeat says is being done (its ``what``)
        self.lock = threading.Lock()
        self.finished = 0  # the nodes of the searches that have ended
        self.live: dict[int, np.ndarray] = {}  # the stats of those running now
        self.work: Plan | None = None  # the outermost plan of worlds

    def searching(self, stats: np.ndarray) -> None:
        with self.lock:
            self.live[id(stats)] = stats
        if self.outer is not None:
            self.outer.searching(stats)

    def ended(self, stats: np.ndarray) -> None:
        with self.lock:
            if self.live.pop(id(stats), None) is not None:
                self.finished += int(stats[0] + stats[1])
        if self.outer is not None:
            self.outer.ended(stats)

    def nodes(self) -> int:
        with self.lock:
            return self.finished + sum(int(stats[0] + stats[1]) for stats in self.live.values())

    def done(self, k: int) -> None:
        with self.lock:
            if self.work is not None:
                self.work.done += k


#: the meter of the innermost ``heartbeat`` open in this thread (or in the thread that started this
#: one through ``on_threads``), None outside any
_meter: ContextVar[Meter | None] = ContextVar("search_meter", default=None)


@contextmanager
def planned(total: int, what: str) -> Iterator[Callable[[int], None] | None]:
    """``total`` worlds (``what``: "samples", "splits", "fills") to solve, counted in the progress
    line as the function given is called with how many more are done. Only the outermost plan
    counts (the fills of a buried view, not each fill's splits): inside one, or outside any
    heartbeat, the function is None. Once it ends, its count stays in the lines of the stage it ran in
    (the heartbeat's ``what``) until the search returns or another plan begins."""
    meter = _meter.get()
    if meter is None or (meter.work is not None and not meter.work.ended):
        yield None
        return
    meter.work = Plan(0, total, what, time.perf_counter(), meter.stage())
    try:
        yield meter.done
    finally:
        # kept, not forgotten: a line said between here and the search's return (Analysis, tables freed)
        # said the nodes without the worlds, as if none had been planned
        meter.work.ended = True


def on_threads(n: int, solve_chunk: Callable[[int], int], clear: Callable[[], None]) -> list[int]:
    """``[solve_chunk(i) for i in range(n)]``, the chunks on ``n`` threads side by side (the compiled
    searches release the interpreter's lock). On Ctrl-C, which reaches only the main thread while it
    waits here in Python, every running search is stopped and ``clear()`` forgets their tables,
    which may hold bounds they did not finish proving."""
    if n == 1:
        return [solve_chunk(0)]
    from concurrent.futures import ThreadPoolExecutor

    meter = _meter.get()

    def chunk(i: int) -> int:  # the progress meter of the caller's thread counts the workers' nodes too
        _meter.set(meter)
        return solve_chunk(i)

    with ThreadPoolExecutor(n) as pool:
        try:
            return list(pool.map(chunk, range(n)))
        except KeyboardInterrupt:
            stop_running_searches()
            pool.shutdown(wait=True)
            clear()
            raise


@contextmanager
def abort_at(deadline: float | None, stats: np.ndarray, clear: Callable[[], None] | None = None) -> Iterator[None]:
    """Stop a compiled search by the clock, and on Ctrl-C.

    At ``deadline`` (a ``time.perf_counter`` value) the process's clock thread (``_Clock``) raises
    the search's abort flag, which the search reads at every node (and marks ``stats[CLOCK]``).
    The search must release the GIL (``nogil=True``) for the clock to run while it does. A search
    that ends first cancels its alarm, so no late flag can reach the next search on the same tables;
    one that ends in the instant the alarm rings is counted as stopped, at its deadline. ``None``:
    no deadline.

    Ctrl-C: Python runs its handler only in the main thread and only between bytecodes, never
    inside compiled code, so a long search would run on to its end. While a search holds the main
    thread, a watcher thread is woken by the signal (``signal.set_wakeup_fd``) and stops every
    running search (``stop_running_searches``); the ``KeyboardInterrupt`` is then raised as soon as
    the search returns. ``clear`` (the tables' ``clear``) runs when the body is left by an
    exception: an interrupted search may have stored bounds it did not finish proving.
    """
    key = id(stats)
    with _running_lock:
        _running[key] = stats
    meter = _meter.get()
    if meter is not None:
        meter.searching(stats)
    try:
        with _interrupt_watch(), _timer(deadline, stats):
            yield
    except BaseException:
        if clear is not None:
            clear()
        raise
    finally:
        if meter is not None:
            meter.ended(stats)
        with _running_lock:
            _running.pop(key, None)


#: seconds the clock thread sleeps at most before it looks again (a far deadline cannot overflow the wait)
MAX_WAIT = 3600.0


class _Clock:
    """The alarms of the searches running with a deadline, rung by one thread for the life of the
    process (started on first use). A thread of its own for each search (``threading.Timer``) cost
    two waits for the scheduler, its start and its join: on a 2-core machine shared by 7 busy
    processes, 4.5 ms at the 90th percentile and up to 0.12 s, outside every deadline (a two-card
    endgame solve calls it once per piece of its splits). An alarm is rung and cancelled under
    ``cond``, so once ``cancel`` returns no late flag can reach the search (nor the next on the
    same tables)."""

    cond: ClassVar[threading.Condition] = threading.Condition()
    alarms: ClassVar[dict[int, tuple[float, np.ndarray]]] = {}  # token: (deadline, the search's stats)
    tokens: ClassVar[int] = 0
    running: ClassVar[bool] = False

    @classmethod
    def set(cls, deadline: float, stats: np.ndarray) -> int:
        """An alarm at ``deadline``, and its token for ``cancel`` (0: none, for a deadline never reached)."""
        if not math.isfinite(deadline):
            return 0
        with cls.cond:
            if not cls.running:
                threading.Thread(target=cls.ring, name="search-clock", daemon=True).start()
                cls.running = True
            cls.tokens += 1
            cls.alarms[cls.tokens] = (deadline, stats)
            cls.cond.notify()
            return cls.tokens

    @classmethod
    def cancel(cls, token: int) -> None:
        with cls.cond:
            cls.alarms.pop(token, None)

    @classmethod
    def ring(cls) -> None:
        with cls.cond:
            while True:
                now = time.perf_counter()
                for token, (deadline, stats) in list(cls.alarms.items()):
                    if deadline <= now:
                        _ring(stats)
                        del cls.alarms[token]
                nearest = min((deadline for deadline, _ in cls.alarms.values()), default=None)
                cls.cond.wait(None if nearest is None else min(nearest - now, MAX_WAIT))


def _forget_the_clock_in_a_child() -> None:
    """A forked child (the server's commands) has no clock thread: it starts its own on first use."""
    _Clock.cond, _Clock.alarms, _Clock.running = threading.Condition(), {}, False


os.register_at_fork(after_in_child=_forget_the_clock_in_a_child)


@contextmanager
def _timer(deadline: float | None, stats: np.ndarray) -> Iterator[None]:
    if deadline is None:
        yield
        return
    if deadline <= time.perf_counter():
        _ring(stats)
        yield
        return
    token = _Clock.set(deadline, stats)
    try:
        yield
    finally:
        _Clock.cancel(token)


class _Watch:
    """The Ctrl-C watcher's state, one per process (main thread)."""

    #: the pipe the signal wakes (``signal.set_wakeup_fd``) while a search holds the main thread,
    #: read by one watcher thread for the life of the process (of a forked child: its own)
    pipe: tuple[int, int] | None = None
    #: the wakeup fd that was set before a search's (an event loop's), to pass other signals on to
    forward = -1
    #: a search in the main thread has the wakeup fd now (a search inside another keeps it)
    on = False


_watch_lock = threading.Lock()


def _wake_pipe() -> int:
    """The write end of the watcher's pipe; the pipe and its watcher thread start on first use.
    (Starting a thread a search cost 0.2 ms, a fifth of a two-card endgame's solve.)"""
    with _watch_lock:
        if _Watch.pipe is None:
            read, write = os.pipe()
            os.set_blocking(write, False)
            threading.Thread(target=_watch, args=(read,), name="search-interrupt", daemon=True).start()
            _Watch.pipe = (read, write)
        return _Watch.pipe[1]


def _watch(read: int) -> None:
    """The watcher: SIGINT stops every running search; other signals' bytes are passed on."""
    while True:
        try:
            data = os.read(read, 512)
        except OSError:  # closed (a forked child's copy): nothing more to watch
            return
        if not data:
            return
        if signal.SIGINT in data:
            stop_running_searches()
        if _Watch.forward >= 0:
            with suppress(OSError):
                os.write(_Watch.forward, data)


def _forget_the_pipe_in_a_child() -> None:
    """A forked child (the server's commands) has no watcher thread, and its copy of the pipe is
    also read by the parent's: it starts its own on first use."""
    if _Watch.pipe is not None:
        for fd in _Watch.pipe:
            with suppress(OSError):
                os.close(fd)
    _Watch.pipe, _Watch.forward, _Watch.on = None, -1, False


os.register_at_fork(after_in_child=_forget_the_pipe_in_a_child)


@contextmanager
def _interrupt_watch() -> Iterator[None]:
    """While the main thread is in compiled code: the Ctrl-C signal wakes the watcher thread
    (``_watch``), which raises the abort flag of every running search. The wakeup fd set before
    (an event loop's) gets the other signals' bytes and is restored after."""
    if (threading.current_thread() is not threading.main_thread() or _Watch.on
            or not callable(signal.getsignal(signal.SIGINT))):  # ignored or default: nothing to turn
        yield
        return
    try:
        old = signal.set_wakeup_fd(_wake_pipe(), warn_on_full_buffer=False)
    except (ValueError, OSError):  # no wakeup fd here (an embedding that forbids it): as before
        yield
        return
    _Watch.forward, _Watch.on = old, True
    try:
        yield
    finally:
        signal.set_wakeup_fd(old)
        _Watch.forward, _Watch.on = -1, False


def pace_left(done: int, total: int, elapsed: float) -> str | None:
    """What is left of ``total`` worlds with ``done`` solved in ``elapsed`` seconds, if the rest go at
    the same pace: "about 2 minutes left at this pace" (worlds vary several-fold in cost, so it is a
    projection, and says so). None before the first is done or once all are."""
    if done <= 0 or done >= total:
        return None
    return f"about {seconds_in_words(elapsed / done * (total - done))} left at this pace"


# "heuristic" is the hand evaluator of lcanalysis.evaluator; "simple" a cruder count kept for comparison
@contextmanager
def heartbeat(report: Callable[[str], None] | None, what: Callable[[], str], every: float = 3.0,
              first: float = 1.0, budget: int | None = None) -> Iterator[None]:
    """Call ``report`` with ``what()``, what the searches inside have done and the seconds so far
    after ``first`` s, then every ``every`` s, until the block ends (``report`` None: nothing). The
    compiled search runs without the interpreter's lock, so this thread speaks while it works: never
    a silent wait. What was done (``Meter``): the worlds solved out of their total, where the search
    plans them (``planned``), and the nodes searched, out of ``budget`` when one is given
    (``budget`` None: nodes are not said; 0: no node budget)."""
    if report is None:
        yield
        return
    done = threading.Event()
    start = time.perf_counter()
    meter = Meter(_meter.get(), what)
    token = _meter.set(meter)

    def line(stage: str) -> str:
        work = meter.work
        if work is not None and work.ended and work.stage != stage:
            work = None  # an ended plan of an earlier stage (a lower stall budget deepening): not this one's
        worlds = ""
        if work is not None:
            left = None if work.ended else pace_left(work.done, work.total, time.perf_counter() - work.start)
            worlds = f", {work.done:,} of {work.total:,} {work.what} done" + (f" ({left})" if left else "")
        if budget is None:
            return worlds
        nodes = f"{meter.nodes():,}" + (f" of at most {budget:,}" if budget else "")
        return f"{worlds}, {nodes} nodes searched"

    def watch() -> None:
        wait = first
        while not done.wait(wait):
            stage = what()
            report(f"{stage}{line(stage)}, {time.perf_counter() - start:.0f} s so far")
            wait = every

    def guarded() -> None:
        with suppress(MemoryError):  # under a memory ceiling: the search reports it, the watcher falls silent
            watch()

    thread = threading.Thread(target=guarded, name="search-progress", daemon=True)
    thread.start()
    try:
        yield
    finally:
        done.set()
        thread.join()
        _meter.reset(token)


LEAVES = {"as-is": LEAF_AS_IS, "heuristic": LEAF_EVALUATOR, "evaluator": LEAF_EVALUATOR, "simple": LEAF_SIMPLE}
LEAF_NAMES = {LEAF_AS_IS: "as-is", LEAF_EVALUATOR: "heuristic (hand evaluator)", LEAF_SIMPLE: "simple"}


#: the longest time budget a search takes: a day (the command line's --time allows as much); beyond
#: it the clock's timer cannot be set (1e30 s overflowed it and left the search with no bound)
MAX_SECONDS = 86_400.0


def check_seconds(seconds: Any, name: str = "seconds") -> float | None:
    """A validated time budget: None for none, else a positive finite number of seconds, at most a day."""
    if seconds is None:
        return None
    if isinstance(seconds, bool) or not isinstance(seconds, (int, float, np.integer, np.floating)) \
            or not 0 < seconds <= MAX_SECONDS:  # (nan and inf fail it too; np.isfinite failed on ints past 64 bits)
        raise SearchError(f"{name} must be a number of seconds above 0 and at most {MAX_SECONDS:,.0f} (a day), "
                          f"got {brief(seconds)}")
    return float(seconds)


def check_budget(name: str, value: Any, minimum: int, maximum: int) -> int | None:
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)):
        raise SearchError(f"{name} must be a whole number, got {value!r}")
    if value < minimum:
        raise SearchError(f"{name} must be at least {minimum}, got {value}")
    if value > maximum:
        raise SearchError(f"{name} must be at most {maximum}, got {value}")
    return int(value)


def check_max_splits(max_splits: Any) -> int:
    """A validated ``max_splits``: the most distinct splits (or fills) solved one by one, 1..10^9."""
    if isinstance(max_splits, bool) or not isinstance(max_splits, (int, np.integer)) or not 1 <= max_splits <= 10**9:
        raise SearchError(f"max_splits must be a whole number of splits from 1 to 1,000,000,000, got {max_splits!r}")
    return int(max_splits)


def check_tables(tables: Any, cls: type) -> None:
    """``tables`` is None (fresh tables) or the search's own ``Tables``."""
    if tables is not None and not isinstance(tables, cls):
        raise SearchError(f"tables must be a search.Tables (or None: fresh ones), got {type(tables).__name__}")


def check_max_nodes(max_nodes: Any) -> int:
    """A validated node budget: 0 (or None) for none, else a whole number 1..``MAX_NODES``."""
    if max_nodes is None:
        return 0
    if isinstance(max_nodes, bool) or not isinstance(max_nodes, (int, np.integer)):
        raise SearchError(f"max_nodes must be a whole number of search nodes (0: no budget), got {max_nodes!r}")
    if not 0 <= max_nodes <= MAX_NODES:
        raise SearchError(f"max_nodes must be 0 (no budget) or 1..{MAX_NODES:,} (about a week of search), "
                          f"got {max_nodes}")
    return int(max_nodes)


def address_space() -> tuple[int | None, int]:
    """The address-space limit of this process (``RLIMIT_AS``'s soft limit; None: none) and the
    address space in use, in bytes (0 where the system does not say)."""
    try:
        import resource

        soft = resource.getrlimit(resource.RLIMIT_AS)[0]
        limit = None if soft == resource.RLIM_INFINITY else int(soft)
    except (ImportError, OSError, ValueError):  # pragma: no cover - not a POSIX system
        return None, 0
    try:
        with open("/proc/self/statm", encoding="ascii") as fh:
            used = int(fh.read().split()[0]) * os.sysconf("SC_PAGE_SIZE")
    except (OSError, ValueError, IndexError):  # pragma: no cover - no /proc
        used = 0
    return limit, used


def check_fits(nbytes: int, what: str) -> None:
    """Refuse, before allocating it, memory that the process's address-space limit (the command
    line's ``--max-memory``) cannot hold, with what is in use and what is left."""
    limit, used = address_space()
    if limit is None or nbytes <= limit - used:
        return
    mb = 1 << 20
    raise SearchMemoryError(
        f"{what} need {nbytes / mb:,.0f} MB, but the memory ceiling of this process ({limit / (1 << 30):.2f} GB; "
        f"--max-memory on the command line) leaves {max(limit - used, 0) / mb:,.0f} MB: raise the ceiling, or ask "
        "for a smaller search (fewer stalls or turns, where the command takes them)")


def check_bounds(max_stalls: Any, max_turns: Any, leaf: Any,
                 need_bound: bool = True) -> tuple[int | None, int | None, int]:
    """Validated (max_stalls, max_turns, leaf code)."""
    s = check_budget("max_stalls", max_stalls, 0, MAX_STALLS)
    t = check_budget("max_turns", max_turns, 1, MAX_TL)
    if leaf not in LEAVES:
        raise SearchError(f"leaf must be one of {', '.join(map(repr, LEAVES))}, got {leaf!r}")
    if need_bound and s is None and t is None:
        raise SearchError(
            "no bound: drawing from discard piles can go on forever, so give max_stalls (--max-stalls S: "
            "discard-pile draws left to each player), max_turns (--max-turns T: a horizon, scored as it "
            "stands), or both"
        )
    if LEAVES[leaf] != LEAF_AS_IS and t is None:
        raise SearchError("a heuristic leaf is applied at the horizon: give max_turns (--max-turns T) too")
    return s, t, LEAVES[leaf]


def check_state(state: np.ndarray) -> None:
    """Refuse a finished round."""
    if K.deck_left(state) <= 0:
        raise SearchError("the round is over (the draw pile is empty): there is no turn to value")


def bounds_dict(max_stalls: int | None, max_turns: int | None, leaf: str) -> dict[str, Any]:
    out: dict[str, Any] = {}
    if max_stalls is not None:
        out["max_stalls"] = max_stalls
    if max_turns is not None:
        out["max_turns"] = max_turns
        out["leaf"] = LEAF_NAMES[LEAVES[leaf]]
    return out


@lru_cache(maxsize=4)
def move_texts(colors: int) -> list[str]:
    """Every turn's notation for the kernel's move codes of a variant (made once)."""
    n = (2 * 10 * colors + 1) * (colors + 1)
    return [str(Move.from_code(code, colors)) for code in range(n)]


def move_text(code: int, colors: int) -> str:
    return move_texts(int(colors))[int(code)]
