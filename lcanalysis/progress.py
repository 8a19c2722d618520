"""Progress for long work, one convention for the whole package: a bar on standard error (tqdm's
``tqdm.auto``: a widget in a notebook) drawn only once the work has taken ``PROGRESS_DELAY`` seconds,
so a quick answer prints nothing; ``progress`` False: nothing at all. ``ticking`` redraws a bar
while one long step runs; ``delayed_lines`` is the same convention for work that reports in lines
(the endgame search's stages, the play-outs). Below every other layer: it imports nothing of the
package, and tqdm only when a bar is made."""

from __future__ import annotations

import sys
import threading
import time
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from typing import Any

#: seconds of work before a bar (or a line) is shown: a quick answer prints nothing
PROGRESS_DELAY = 1.0


def check_progress(progress: object, error: type[ValueError] = ValueError) -> bool:
    """``progress`` as a bool: True or False (numpy's too); anything else an ``error`` naming it
    ("no" is true, and would show the bar)."""
    kind = type(progress)
    if not (kind is bool or (kind.__module__ == "numpy" and kind.__name__ in ("bool", "bool_"))):
        raise error(f"progress must be True or False, got {progress!r}")
    return bool(progress)


def progress_bar(iterable: Iterable[Any] | None = None, *, progress: bool = True, desc: str | None = None,
                 unit: str = "it", total: float | None = None, initial: float = 0,
                 delay: float | None = None, leave: bool = True, mininterval: float = 0.1) -> Any:
    """A tqdm bar over ``iterable`` (or ``total`` steps, advanced by ``update``), shown on standard
    error once the work has taken ``delay`` seconds (None: ``PROGRESS_DELAY``); ``progress`` False:
    a bar that draws nothing (it iterates and updates alike). ``initial``: steps done before (a
    resumed run's); ``leave`` False: the bar goes when it closes (bars within a bar); ``mininterval``:
    seconds at least between redraws (more for a loop of many quick steps). Close it, or
    use it in a ``with`` block or a ``for`` loop to its end."""
    from tqdm.auto import tqdm

    return tqdm(iterable, desc=desc, unit=unit, total=total, initial=initial, leave=leave, mininterval=mininterval,
                delay=PROGRESS_DELAY if delay is None else delay, disable=not progress)


def ticking(bar: Any, every: float = 1.0) -> Callable[[], None]:
    """Redraw ``bar`` (a tqdm bar; None or a bar that draws nothing: nothing) every ``every`` seconds,
    from a thread, until the returned function is called: a bar redraws only when it moves, so a
    long step (a slow round, a decision the endgame search judges for seconds) showed a frozen bar
    with no time passing."""
    if bar is None or getattr(bar, "disable", False):
        return lambda: None
    stop = threading.Event()

    def tick() -> None:
        while not stop.wait(every):
            bar.refresh()

    ticker = threading.Thread(target=tick, name="progress-tick", daemon=True)
    ticker.start()

    def stopped() -> None:
        stop.set()
        ticker.join()

    return stopped


@contextmanager
def delayed_lines(delay: float | None = None) -> Iterator[Callable[[str], None]]:
    """A ``progress`` for work that reports in lines of text: the lines on standard error, as the
    command line says them, once the work has taken ``delay`` seconds (None: ``PROGRESS_DELAY``):
    then the last line said so far, and every line after it as it comes. A quick answer prints
    nothing."""
    wait = PROGRESS_DELAY if delay is None else delay
    lock = threading.Lock()
    state: dict[str, Any] = {"last": None, "open": False, "done": False}
    t0 = time.perf_counter()

    def say(line: str) -> None:
        print(f"  {line}", file=sys.stderr, flush=True)

    def opened() -> None:
        with lock:
            if state["done"]:
                return
            state["open"] = True
            if state["last"] is not None:
                say(f"{state['last']} ({time.perf_counter() - t0:.0f} s so far)")

    def report(line: str) -> None:
        with lock:
            state["last"] = line
            if state["open"] or time.perf_counter() - t0 >= wait:
                state["open"] = True
                say(line)

    timer = threading.Timer(wait, opened)
    timer.daemon = True
    timer.start()
    try:
        yield report
    finally:
        with lock:
            state["done"] = True
        timer.cancel()
