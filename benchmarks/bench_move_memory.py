"""The memory of a long game record's moves: today (``Move.from_code`` gives one shared object a
move, so a replay's history holds a pointer a turn) against before (a new ``Move`` a turn, each
made by ``from_code`` as ``Position.push`` and ``legal_moves`` call it), in the same process.

    python benchmarks/bench_move_memory.py [--turns 10000]

Plays a round that stalls on the discard piles to its turn cap (``bench_records.stalling_round``),
writes its record in the text form, and measures with tracemalloc, each way: ``read_record`` of
that text (every turn parsed and replayed; the record kept) and the replay of its turns on the
start position (``Position.play``; the position kept), both the peak allocated while it ran and
what stays allocated while the answer is kept, beyond what was held before. Both ways must end in
the same state, which it checks.

Measured (10,000 turns, a shared 2-core machine; peak / kept MB):

| what | before | today | saved |
|---|---|---|---|
| read_record, text form | 16.7 / 16.0 | 15.8 / 15.1 | 0.8 / 0.8 |
| Position.play of the turns | 2.0 / 1.9 | 1.2 / 1.1 | 0.8 / 0.8 |

About 80 bytes a turn: the history ends with 165 distinct Move objects instead of 10,000 (all the
847 moves of the six-colour game, shared, take about 0.1 MB). ``Position.legal_moves`` got faster
too: 25.6 us before, 5.8 us today for the 14 turns of ``Position.deal(seed=7)`` (timeit, once).
The rest of a replayed position is what ``pop`` needs to take each turn back (``Position._stack``,
four small numbers a turn); of a read record, its replay's state every 64 turns
(``records.CHECKPOINT``), each with its history and that stack, a pointer a turn each (since then a
checkpoint keeps the table alone, the record the history once: ``bench_record_checkpoints.py``). While that
stack kept a copy of the known-card counts a turn (about 390 bytes), the kept MB were 19.1 before
and 18.3 today for ``read_record``, 5.0 and 4.2 for ``Position.play``.
"""

from __future__ import annotations

import argparse
import sys
import tracemalloc
from collections.abc import Callable
from contextlib import contextmanager
from typing import Any

from bench_records import stalling_round

from lcanalysis.game.moves import Move
from lcanalysis.game.records import read_record, record_round


@contextmanager
def fresh_moves():
    """The way before: ``Move.from_code`` makes a new object each call (the same turn, equal to the
    shared one, with its checks run again as the constructor runs them)."""
    shared = Move.__dict__["from_code"]

    def from_code(cls: type[Move], code: int, colors: int) -> Move:
        move = shared.__func__(cls, code, colors)
        return Move(move.card, move.play, move.source)

    Move.from_code = classmethod(from_code)  # type: ignore[method-assign,assignment]
    try:
        yield
    finally:
        Move.from_code = shared  # type: ignore[method-assign]


def measured(fn: Callable[[], Any]) -> tuple[float, float, Any]:
    """(peak MB allocated while ``fn`` ran, MB still allocated while its answer is kept, the answer),
    both beyond what was held before."""
    tracemalloc.start()
    try:
        base = tracemalloc.get_traced_memory()[0]
        out = fn()
        kept, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    return (peak - base) / 1e6, (kept - base) / 1e6, out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--turns", type=int, default=10_000,
                    help="turns of the stalling round (its turn cap), 2..10000 (default 10000)")
    args = ap.parse_args()
    if not 2 <= args.turns <= 10_000:
        ap.error(f"--turns must be 2..10000, got {args.turns}")
    start, end = stalling_round(args.turns)
    text = record_round(start, end.history).to_text()
    turns = [str(m) for m in end.history]
    cases = (("read_record, text form", lambda: read_record(text)),
             ("Position.play of the turns", lambda: start.copy().play(turns)))
    print(f"a round of {len(turns):,} turns, stalling to the turn cap; peak / kept MB (tracemalloc)")
    print("| what | before | today | saved |")
    print("|---|---|---|---|")
    counts = []
    for name, fn in cases:
        with fresh_moves():
            old_peak, old_kept, old = measured(fn)
        new_peak, new_kept, new = measured(fn)
        old_end, new_end = (old.final(), new.final()) if hasattr(new, "final") else (old, new)
        if new_end != old_end or new_end.history != old_end.history:
            print(f"{name}: the two ways ended in different states", file=sys.stderr)
            return 1
        counts.append(f"{name}: {len({id(m) for m in old_end.history}):,} before, "
                      f"{len({id(m) for m in new_end.history}):,} today")
        del old, new, old_end, new_end
        print(f"| {name} | {old_peak:.1f} / {old_kept:.1f} | {new_peak:.1f} / {new_kept:.1f} | "
              f"{old_peak - new_peak:.1f} / {old_kept - new_kept:.1f} |", flush=True)
    print("Move objects in the history at the end: " + "; ".join(counts))
    return 0


if __name__ == "__main__":
    sys.exit(main())
