"""The memory a read game record keeps for its checkpoints (the replay's state every
``records.CHECKPOINT`` turns, what ``RoundRecord.state(i)`` starts from), on records of two lengths
in the same process: does it grow with the record's length or with its square?

    python benchmarks/bench_record_checkpoints.py [--turns 1000 4000] [--one-player]

Plays a round that stalls on the discard piles to its turn cap (``bench_records.stalling_round``)
for each length, and measures with tracemalloc what stays allocated while its record, built from
the turns already parsed (``RoundRecord``; ``--one-player``: player 1's record), is kept, beyond
what was held before; then the part of it its checkpoints hold (the record kept against the same
record with its checkpoints dropped). Prints the MB and the ratio of each against the first
length's: 4,000 turns against 1,000 is 4 for memory that grows with the length, 16 for memory that
grows with its square. The record's states are checked against the turns pushed one by one at a
few indices.

Measured (a shared 2-core machine; kept MB, of which the checkpoints'):

| turns | before, full-deal record | today, full-deal record | before, player 1's | today, player 1's |
|---|---|---|---|---|
| 1,000 | 0.35, 0.21 | 0.23, 0.09 | 0.33, 0.30 | 0.23, 0.09 |
| 4,000 | 2.89, 2.34 | 0.90, 0.35 | 2.85, 2.71 | 0.93, 0.35 |
| 10,000 | 14.75, 13.39 | 2.23, 0.87 | | |
| ratio 4,000 / 1,000 | 8.2, 11.2 | 3.9, 4.0 | 8.5, 9.1 | 3.9, 4.0 |

Before, each checkpoint was a whole copy of the position, with the round's history so far and
``Position``'s undo entries, a pointer a turn each: 16 bytes a turn a checkpoint. Today a checkpoint
keeps the table alone (the state array, the known cards, about 5 KB with the position's move buffer)
and the lengths of the history and undo entries then; the record keeps the round's history and undo
entries once, and ``state(i)`` takes their first turns from there.
"""

from __future__ import annotations

import argparse
import gc
import sys
import tracemalloc

from bench_records import stalling_round

from lcanalysis.game.records import RoundRecord, Turn


def measure(turns: int, one_player: bool) -> tuple[float, float]:
    """(MB the record keeps, MB its checkpoints keep) for a stalling round of ``turns`` turns,
    beyond what was held before it was built (its turns already parsed)."""
    start, end = stalling_round(turns)
    rec = RoundRecord(start, [Turn(m) for m in end.history])
    if one_player:
        rec = rec.seen_by(1)
    first, parsed = rec.start, list(rec.turns)
    del rec
    gc.collect()
    tracemalloc.start()
    try:
        base = tracemalloc.get_traced_memory()[0]
        rec = RoundRecord(first, parsed)
        gc.collect()
        kept = tracemalloc.get_traced_memory()[0] - base
        rec._marks = []  # the checkpoints dropped: what they held is freed
        gc.collect()
        without = tracemalloc.get_traced_memory()[0] - base
    finally:
        tracemalloc.stop()
    rec = RoundRecord(first, parsed)
    for i in (0, 1, turns // 2, turns - 1, turns):  # the states are those of the turns pushed one by one
        pos = start.copy()
        for m in end.history[:i]:
            pos.push(m)
        want = pos if not one_player else pos.view(1)
        got = rec.state(i)
        if got != want or got.history != want.history:
            raise SystemExit(f"{turns} turns: the record's state before turn {i} is not the round's")
    return kept / 1e6, (kept - without) / 1e6


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--turns", type=int, nargs="+", default=[1_000, 4_000],
                    help="the records' lengths (turn caps), 2..10000 each; the first is the baseline "
                         "(default 1000 4000)")
    ap.add_argument("--one-player", action="store_true", help="player 1's record instead of the full-deal one")
    args = ap.parse_args()
    if any(not 2 <= t <= 10_000 for t in args.turns):
        ap.error(f"--turns must each be 2..10000, got {args.turns}")
    kind = "player 1's record" if args.one_player else "the full-deal record"
    print(f"{kind} of a stalling round; MB kept while the record is kept (tracemalloc), "
          "and the part its checkpoints keep")
    print("| turns | record MB | checkpoints MB | ratio to the first (record, checkpoints) | "
          "ratio of lengths |")
    print("|---|---|---|---|---|")
    base: tuple[float, float] | None = None
    for t in args.turns:
        kept, marks = measure(t, args.one_player)
        if base is None:
            base = (kept, marks)
        ratio = f"{kept / base[0]:.1f}, {marks / base[1]:.1f}" if base[0] > 0 and base[1] > 0 else "-"
        print(f"| {t:,} | {kept:.2f} | {marks:.2f} | {ratio} | {t / args.turns[0]:.1f} |", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
