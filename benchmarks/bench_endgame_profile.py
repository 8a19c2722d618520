"""Where a stall level's nodes go, world by world and turn by turn: the advisor's endgame search
(``endgame.converged_endgame``) as it settles one level of one view.

For the view of the player to move in ``tests/helpers.played_down(--seed, --deck)``, the level's
reference turn is the best at one stall less each (found by ``converged_endgame``, as the hint
finds it: above two stalls each within the hint's 12 M nodes). Then, in each of the first ``--worlds``
sampled worlds (the ones the hint samples, ``endgame._Worlds``), every root turn is searched the way
``perfect._root`` settles a level (margin 0): the reference first with a full window, every other turn
against its value, first in the games where the opponent may stall 0, 1, ... times (less than their
budget: the probes, each with the narrow window), then, when none refutes it, in the whole game (from
``perfect.NARROW_ROOT_STALLS`` stalls each first with the narrow window too, and only a turn above the bar
again for its exact value; ``--wide``: with the open window at once, as before, ``Tables.root_wide``).
Printed per world: its nodes (two-player, one-player, table hits) and seconds; per turn (the 12
costliest): its value (``<=``: an upper bound, refuted), what refuted it (a probe, the whole game) or
that it beat the bar (then its value is exact), the nodes of each probe and of its search in the whole
game. Then the turns' nodes summed over the worlds, and the level's nodes by what refuted each turn.
``--lower`` also solves every turn one stall level lower in the same world (a full window each, tables
of their own, not counted in the level's nodes) and sums the level's nodes by how far below the
reference each turn is there: whether the lower level tells which turns the proof will cost.

The root loop is written out here to count each step's nodes; the values are checked against the
search's own (``view_value._solve_splits``, the same worlds, fresh tables) and the run refuses to
report if any differs. One thread; the node counts are the same on any machine, the seconds are not.

    python benchmarks/bench_endgame_profile.py --deck 4 --seed 1 --worlds 2
    python benchmarks/bench_endgame_profile.py --deck 3 --seed 7 --worlds 8 --stalls 2
    python benchmarks/bench_endgame_profile.py --deck 4 --seed 3 --worlds 4 --stalls 3 --lower
    python benchmarks/bench_endgame_profile.py --deck 4 --seed 1 --worlds 4 --stalls 3 --wide
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))

SHOWN = 12  # turns listed per world and in the sums, the costliest first
REFERENCE_NODES = 12_000_000  # above two stalls each: the hint's budget finds the reference (one stall less each)
# (--lower) a turn's distance below the reference one stall level lower, in classes: (below this, its name)
GAP_CLASSES = [(-1e-9, "above it"), (1e-9, "tied"), (0.5, "within 0.5"), (2.0, "0.5-2"), (5.0, "2-5"),
               (10.0, "5-10"), (np.inf, "10 or more")]


def _world_state(inputs, pick: np.ndarray, nc: int):
    """The kernel state and pile counts of one world (the opponent's hand ``pick``), as
    ``view_value._solve_splits`` builds them."""
    from lcanalysis.core.kernel import H_DECK_END, H_DECK_POS, H_TURN_CAP, off_deck, off_hand

    s = inputs.state.copy()
    s[H_TURN_CAP] = 1 << 30
    oh, od = off_hand(nc, inputs.opp), off_deck(nc)
    dc = np.zeros(len(inputs.unseen), dtype=np.int32)
    j = od + s[H_DECK_POS]
    for t in range(len(inputs.unseen)):
        s[oh + t] = inputs.known[t] + pick[t]
        dc[t] = inputs.unseen[t] - pick[t]
        for _ in range(dc[t]):
            s[j] = t
            j += 1
    s[H_DECK_END] = j - od
    return s, dc


def _lower_values(s, dc, codes, stalls: int, tables, P, sh, sw, sm) -> dict[int, float]:
    """Every turn's exact value in this world at ``stalls`` each (a full window each), on ``tables``."""
    st = tables.stats
    out = {}
    for mv in codes:
        out[mv] = float(P._search(s, dc, stalls, stalls, -1, P.LEAF_AS_IS, -np.inf, np.inf, 0, mv, 0, P.ZOBRIST,
                                  tables.tt, tables.so, tables.buf, st, sh, sw, sm))
    return out


def _gap_class(gap: float) -> str:
    """A turn's distance below the reference one stall level lower, in words (the summary's rows)."""
    for top, name in GAP_CLASSES:
        if gap < top:
            return name
    return GAP_CLASSES[-1][1]


def profile(deck: int, seed: int, worlds: int, stalls: int, lower: bool = False, wide: bool = False) -> int:
    from helpers import played_down

    from lcanalysis.core.kernel import H_TO_MOVE, MAX_MOVES, RANKS, gen_moves
    from lcanalysis.game.moves import Move
    from lcanalysis.search import perfect as P
    from lcanalysis.search.common import move_text
    from lcanalysis.search.endgame import _level_tables, _Worlds, converged_endgame
    from lcanalysis.search.view_value import _solve_splits

    pos = played_down(seed, deck)
    view = pos.view(pos.to_move)
    nc = view.rules.colors
    print(f"seed {seed}, {deck} card(s) left, {stalls} stall(s) each: the reference, the best turn at "
          f"{stalls - 1} stall(s) each ...", flush=True)
    first = converged_endgame(view, 1_000_000_000 if stalls <= 2 else REFERENCE_NODES, min_stalls=stalls - 1,
                              max_stalls=stalls - 1, runner_ups=False)
    ref = Move.parse(first.moves[0].move, nc).code(nc)
    ref_text = move_text(ref, nc)
    w = _Worlds(view, 0)
    inputs = w.inputs[0]
    picks = w.sample[:worlds]
    print(f"reference {ref_text}; {worlds} of the sampled worlds", flush=True)
    tables = _level_tables(view, stalls, 1)[0]
    tables.reset(0)
    narrow = stalls >= P.NARROW_ROOT_STALLS and not wide  # the whole game first with the narrow window
    below = _level_tables(view, stalls - 1, 1)[0]  # (--lower: the values one level down, tables of their own)
    below.reset(0)
    st = tables.stats
    sh, sw, sm = (np.zeros(RANKS * nc, dtype=np.int32), np.zeros(nc, dtype=np.int32),
                  np.zeros(nc, dtype=np.int32))
    # turn: [nodes of each probe (the opponent held to 0, 1, ... stalls), whole-game nodes, refuted by each
    # probe, by the whole game, worlds where it beat the bar, summed gap one level down]
    by_turn: dict[str, list] = {}
    by_refuter: dict[str, list[int]] = {}  # what refuted a turn (or "beat the bar"): [turns, nodes]
    by_gap: dict[str, list[int]] = {}  # the turn's gap below the reference one level down: [turns, nodes]
    found: list[dict[int, tuple[float, bool]]] = []
    for i in range(worlds):
        s, dc = _world_state(inputs, picks[i], nc)
        roots = np.zeros(MAX_MOVES, dtype=np.int32)
        codes = [int(c) for c in roots[:gen_moves(s, roots)]]
        codes.remove(ref)
        codes.insert(0, ref)
        p = int(s[H_TO_MOVE])
        lows = _lower_values(s, dc, codes, stalls - 1, below, P, sh, sw, sm) if lower else {}
        floor = -np.inf
        before = (int(st[0]), int(st[1]), int(st[2]))
        t0 = time.perf_counter()
        rows, values = [], {}
        for mv in codes:
            v, cap, probes, whole, refuter = np.inf, 0, [0] * stalls, 0, "beat the bar"
            while floor > -np.inf and v > floor and cap < stalls:  # (perfect._root, a finite budget)
                c0, c1 = P._their_stalls_capped(stalls, stalls, p, cap)
                n0 = st[0] + st[1]
                v = P._search(s, dc, c0, c1, -1, P.LEAF_AS_IS, floor, floor + P.NULL_WINDOW, 0, mv, 0, P.ZOBRIST,
                              tables.tt, tables.so, tables.buf, st, sh, sw, sm)
                probes[cap] = int(st[0] + st[1] - n0)
                if v <= floor:
                    refuter = f"probe {cap}"
                cap += 1
            n0 = st[0] + st[1]
            if v > floor and floor > -np.inf and narrow:
                v = P._search(s, dc, stalls, stalls, -1, P.LEAF_AS_IS, floor, floor + P.NULL_WINDOW, 0, mv, 0,
                              P.ZOBRIST, tables.tt, tables.so, tables.buf, st, sh, sw, sm)
            if v > floor:
                v = P._search(s, dc, stalls, stalls, -1, P.LEAF_AS_IS, floor, np.inf, 0, mv, 0, P.ZOBRIST, tables.tt,
                              tables.so, tables.buf, st, sh, sw, sm)
            whole = int(st[0] + st[1] - n0)  # (the narrow window's search and the open one's, where both ran)
            if whole and floor > -np.inf and v <= floor:
                refuter = "whole game"
            bound = floor > -np.inf and v <= floor
            if mv == ref:
                floor = v
                refuter = "reference"
            values[mv] = (float(v), bool(bound))
            text = move_text(mv, nc)
            gap = lows[ref] - lows[mv] if lower else np.nan
            rows.append((sum(probes) + whole, text, v, bound, probes, whole, refuter, gap))
            row = by_turn.setdefault(text, [[0] * stalls, 0, [0] * stalls, 0, 0, 0.0])
            row[0] = [a + b for a, b in zip(row[0], probes)]
            row[1] += whole
            if refuter.startswith("probe"):
                row[2][int(refuter.split()[1])] += 1
            row[3] += refuter == "whole game"
            row[4] += refuter == "beat the bar"
            row[5] += gap
            for table, key in ((by_refuter, refuter), (by_gap, "reference" if mv == ref else _gap_class(gap))):
                if key and (lower or table is by_refuter):
                    cell = table.setdefault(key, [0, 0])
                    cell[0] += 1
                    cell[1] += sum(probes) + whole
        found.append(values)
        two, one, hits = (int(st[0]) - before[0], int(st[1]) - before[1], int(st[2]) - before[2])
        print(f"world {i}: {two + one:,} nodes ({two:,} two-player, {one:,} one-player, {hits:,} table hits), "
              f"{time.perf_counter() - t0:.2f} s", flush=True)
        lower_head = f"  {'below ref ' + str(stalls - 1):>12}" if lower else ""
        print(f"    {'turn':8} {'value':>9}{lower_head}  {'refuted by':12} "
              f"{'probes (' + ', '.join(map(str, range(stalls))) + ')':>30}  {'whole game':>11}")
        for total, text, v, bound, probes, whole, refuter, gap in sorted(rows, key=lambda r: -r[0])[:SHOWN]:
            if total:
                below = f"  {gap:+12.2f}" if lower else ""
                print(f"    {text:8} {'<=' if bound else '  '}{v:+7.2f}{below}  {refuter:12} "
                      f"{', '.join(f'{n:,}' for n in probes):>30}  {whole:>11,}")
    print("summed over the worlds (nodes; refuted: in how many worlds each probe, or the whole game, proved the turn "
          "below the reference; beat: worlds where it beat the bar and was solved exactly"
          + ("; gap: its mean distance below the reference one level down" if lower else "") + "):")
    ordered = sorted(by_turn.items(), key=lambda kv: -(sum(kv[1][0]) + kv[1][1]))
    for text, (probes, whole, refuted, in_whole, beat, gaps) in ordered[:SHOWN]:
        print(f"    {text:8} probes {', '.join(f'{n:,}' for n in probes):>28}  whole game {whole:>11,}  refuted "
              f"{'/'.join(map(str, refuted))} + {in_whole} in the whole game, beat {beat} of {worlds}"
              + (f", gap {gaps / worlds:+.2f}" if lower else ""))
    if len(ordered) > SHOWN:
        rest = sum(sum(a) + b for _, (a, b, *_r) in ordered[SHOWN:])
        print(f"    ... {len(ordered) - SHOWN} more turns, {rest:,} nodes in all")
    total = sum(n for _, n in by_refuter.values())
    print("by what refuted the turn (turns over the worlds, nodes, share of the level's nodes):")
    for key, (turns, nodes) in sorted(by_refuter.items(), key=lambda kv: -kv[1][1]):
        print(f"    {key:14} {turns:>4}  {nodes:>12,}  {nodes / max(total, 1):6.1%}")
    if lower:
        print(f"by the turn's gap below the reference at {stalls - 1} stall(s) each, in the same world:")
        for _top, key in [(None, "reference")] + GAP_CLASSES:
            if key in by_gap:
                turns, nodes = by_gap[key]
                print(f"    {key:14} {turns:>4}  {nodes:>12,}  {nodes / max(total, 1):6.1%}")
        print(f"(the values at {stalls - 1} stall(s) each: {int(below.stats[0] + below.stats[1]):,} nodes more)")
    check = _level_tables(view, stalls, 1)[0]
    check.root_wide = wide
    check.reset(0)
    moves = np.zeros(MAX_MOVES, dtype=np.int32)
    vals = np.zeros((worlds, MAX_MOVES))
    bounds = np.zeros((worlds, MAX_MOVES), dtype=np.int8)
    k = _solve_splits(inputs.state, inputs.opp, inputs.known, inputs.unseen, picks, stalls, stalls, -1, P.LEAF_AS_IS,
                      P.ZOBRIST, check.tt, check.so, check.buf, check.stats, moves, vals, bounds, ref, 0.0)
    for i in range(worlds):
        for j in range(k):
            v, bound = found[i][int(moves[j])]
            if not bound and not bounds[i, j] and v != vals[i, j]:
                print(f"world {i}: {move_text(int(moves[j]), nc)} is {v} here and {vals[i, j]} in the search's own "
                      "loop: this profile no longer walks the search's root", file=sys.stderr)
                return 1
    print("every exact value the same as the search's own loop gives")
    return 0


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--deck", type=int, default=4, help="cards left in the draw pile, 2-6 (default 4)")
    ap.add_argument("--seed", type=int, default=1, help="the played_down seed of the view (default 1)")
    ap.add_argument("--worlds", type=int, default=2,
                    help="the first this many of the sampled worlds, 1-96 (default 2; about 10 s a world at 4 cards)")
    ap.add_argument("--stalls", type=int, default=2, help="the stall level each, 1-3 (default 2)")
    ap.add_argument("--lower", action="store_true",
                    help="also each turn's exact value one stall level lower in the same world, and the nodes "
                         "summed by the turn's distance below the reference there")
    ap.add_argument("--wide", action="store_true",
                    help="search the whole game at the root with the open window at once (Tables.root_wide, the "
                         "search before the narrow window there), to compare")
    args = ap.parse_args(argv)
    if not 2 <= args.deck <= 6:
        ap.error(f"--deck must be from 2 to 6, got {args.deck}")
    if not 1 <= args.worlds <= 96:
        ap.error(f"--worlds must be from 1 to 96 (the sampled worlds of a level), got {args.worlds}")
    if not 1 <= args.stalls <= 3:
        ap.error(f"--stalls must be from 1 to 3, got {args.stalls}")
    if args.seed < 0:
        ap.error(f"--seed must be 0 or more, got {args.seed}")
    return profile(args.deck, args.seed, args.worlds, args.stalls, args.lower, args.wide)


if __name__ == "__main__":
    raise SystemExit(main())
