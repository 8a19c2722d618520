"""Reading a long game record: today's replay (the turns played on one state, a copy kept every
``records.CHECKPOINT`` turns; a one-player record's view completed once) against the replay before
it (a copy of the whole position a turn; a one-player record's view completed into a new position
a turn), in the same process.

    python benchmarks/bench_records.py [--turns 10000] [--repeat 3]

Plays a round that stalls on the discard piles to the turn cap (``--turns``, at most 10,000, the
longest cap), and replays its turns, already parsed, both ways: the full-deal record and player 1's
record. Prints the CPU seconds of each (today's: the best of ``--repeat``; the old one-player replay
once, as it takes a minute at 10,000 turns), their ratio old / today, and the wall time of
``read_record`` on the text form and on the one-player JSON (parsing included). Both replays must
end in the same state, which it checks.

Measured (10,000 turns, a shared 2-core machine, CPU seconds): full-deal 1.53 s before, 0.136 s
today (ratio 11; the wall time before was 4 to 9 s, most of it the garbage collector walking the
copies); player 1's record 36.6 s before, 0.157 s today (ratio 233); ``read_record`` of the text
form 0.35 s wall, of the one-player JSON 0.44 s.
"""

from __future__ import annotations

import argparse
import random
import sys
import time

from lcanalysis.game.position import Position
from lcanalysis.game.records import RoundRecord, Turn, read_record, record_round, write_record
from lcanalysis.game.rules import Rules
from lcanalysis.game.view import View


def stalling_round(turns: int) -> tuple[Position, Position]:
    pos = Position.deal(seed=5, rules=Rules(no_redraw=False, turn_cap=turns))
    start = pos.copy()
    rng = random.Random(0)
    while not pos.is_over():
        moves = pos.legal_moves()
        stalls = [m for m in moves if not m.draws_from_deck]
        pos.push(rng.choice(stalls if stalls and rng.random() < 0.995 else moves))
    return start, pos


def old_full(start: Position, turns: list[Turn]) -> Position:
    """The replay before: each turn checked, then played on a copy of the position before it."""
    state = start.copy()
    states = []
    for turn in turns:
        states.append(state)
        assert state.why_illegal(turn.move) is None
        nxt = state.copy()
        nxt.push(turn.move)
        state = nxt
    return state


def old_view(start: View, turns: list[Turn]) -> View:
    """The replay before: each turn the view completed into a full position that fits the turn (the
    opponent holding the card it plays, the recorded card on top), the turn played there, the view
    read back."""
    view = start
    states = []
    for turn in turns:
        states.append(view)
        pool = view.unseen()
        opp = []
        card = turn.move.card
        if view.to_move != view.viewer and card is not None and view.phase == "place" \
                and card not in view.opponent_known:
            pool.remove(card)
            opp.append(card)
        top = []
        if turn.drawn is not None:
            pool.remove(turn.drawn)
            top.append(turn.drawn)
        need = view.opponent_unknown - len(opp)
        pos = view.complete(opp + pool[:need], top + pool[need:])
        assert pos.why_illegal(turn.move) is None
        pos.push(turn.move)
        view = pos.view(view.viewer)
    return view


def seconds(fn, repeat: int) -> tuple[float, object]:
    best, out = float("inf"), None
    for _ in range(repeat):
        t = time.process_time()
        out = fn()
        best = min(best, time.process_time() - t)
    return best, out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--turns", type=int, default=10_000, help="turns of the stalling round (default 10000)")
    ap.add_argument("--repeat", type=int, default=3, help="runs of today's replays, the best kept (default 3)")
    args = ap.parse_args()
    if not 1 <= args.turns <= 10_000 or args.repeat < 1:
        ap.error("--turns must be 1..10000 and --repeat at least 1")
    start, end = stalling_round(args.turns)
    full = record_round(start, end.history)
    mine = full.seen_by(1)
    print(f"a round of {len(full)} turns, stalling to the turn cap")
    for name, rec, old, reps in (("full-deal", full, old_full, args.repeat), ("player 1's", mine, old_view, 1)):
        turns = list(rec.turns)
        before, old_end = seconds(lambda: old(rec.start, turns), reps)  # noqa: B023 (called at once)
        today, new = seconds(lambda: RoundRecord(rec.start, turns), args.repeat)  # noqa: B023
        assert isinstance(new, RoundRecord)
        if new.final() != old_end:
            print(f"{name}: the two replays ended in different states", file=sys.stderr)
            return 1
        print(f"{name} record: replay before {before:.2f} s, today {today:.3f} s, ratio {before / today:.1f}")
    for name, text in (("text form", full.to_text()), ("one-player JSON", write_record(mine))):
        t = time.perf_counter()
        read_record(text)
        print(f"read_record, {name} ({len(text):,} characters): {time.perf_counter() - t:.2f} s wall")
    return 0


if __name__ == "__main__":
    sys.exit(main())
