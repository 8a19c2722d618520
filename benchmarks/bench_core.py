"""The compiled kernel against the same code with the JIT off: random full-round playouts per second,
and the hand evaluator's cost a call.

Run: python benchmarks/bench_core.py [--rounds N] [--plain-rounds N] [--calls N] [--plain-calls N]

Playouts: each turn is a uniformly random legal placement, then a draw from the draw pile, so a
5-colour round lasts exactly 44 turns. Targets: compiled >= 50x plain, >= 20,000 rounds/s.

The evaluator: a search leaf calls ``evaluator.evaluate_difference`` (both players' expected final
scores, five colours) once, on a late position here (20 cards left in the draw pile), Python's call
overhead included, as a caller from Python pays it. Targets: compiled >= 50x plain, at most 200 us a
call (a timed test asserted the second until 2026-12-06, which even the plain code passes, about
120 us: speed is measured here, not in tests).

Each path runs in a child process of this one command, back to back on the same deal: the compiled
function (loaded or compiled first, untimed), then the very same function with NUMBA_DISABLE_JIT=1.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import time

PLAYOUTS = """
import sys, time
from lcanalysis.core import playout as P
from lcanalysis.game.position import Position
rounds = int(sys.argv[1])
s0 = Position.deal(seed=2026).state
P.random_playouts(s0, 1, 1)  # loaded (or compiled) before the clock starts
t = time.perf_counter()
turns = P.random_playouts(s0, rounds, 1)
dt = time.perf_counter() - t
assert turns == 44 * rounds, turns
print(rounds / dt)
"""

EVALUATOR = """
import random, sys, time
from lcanalysis.evaluator import evaluate_difference
from lcanalysis.game.position import Position
calls = int(sys.argv[1])
pos, rng = Position.deal(seed=3), random.Random(3)
while pos.deck_count > 20:  # a late position: random turns that draw from the deck, until 20 cards are left
    pos.push(rng.choice([m for m in pos.legal_moves() if str(m).endswith("/D")]))
evaluate_difference(pos.state, 0, -1)  # loaded (or compiled) before the clock starts
t = time.perf_counter()
for _ in range(calls):
    evaluate_difference(pos.state, 0, -1)
print((time.perf_counter() - t) / calls)
"""


def measured(child: str, count: int, jit: bool) -> float:
    """What ``child`` prints for ``count`` (rounds a second, or seconds a call), run with the JIT on or off."""
    env = dict(os.environ, NUMBA_DISABLE_JIT="0" if jit else "1")
    out = subprocess.run([sys.executable, "-c", child, str(count)], env=env, check=True, capture_output=True,
                         text=True)
    return float(out.stdout.strip())


def main() -> None:
    ap = argparse.ArgumentParser(description="the compiled kernel vs JIT off: playouts a second, the evaluator a call")
    ap.add_argument("--rounds", type=int, default=200_000, help="rounds timed on the compiled kernel (default 200,000)")
    ap.add_argument("--plain-rounds", type=int, default=300,
                    help="rounds timed with the JIT off, about 1,000 a second (default 300)")
    ap.add_argument("--calls", type=int, default=200_000,
                    help="evaluator calls timed on the compiled function (default 200,000)")
    ap.add_argument("--plain-calls", type=int, default=200,
                    help="evaluator calls timed with the JIT off, several thousand a second (default 200)")
    args = ap.parse_args()
    for name in ("rounds", "plain_rounds", "calls", "plain_calls"):
        if getattr(args, name) < 1:  # a division by zero after the timed runs
            ap.error(f"--{name.replace('_', '-')} must be at least 1, got {getattr(args, name)}")
    compiled = measured(PLAYOUTS, args.rounds, jit=True)
    plain = measured(PLAYOUTS, args.plain_rounds, jit=False)
    print(f"{'playouts':<22}{'rounds':>10}{'rounds/s':>14}")
    print(f"{'compiled (numba)':<22}{args.rounds:>10}{compiled:>14,.0f}")
    print(f"{'NUMBA_DISABLE_JIT=1':<22}{args.plain_rounds:>10}{plain:>14,.1f}")
    print(f"speed-up compiled / plain: {compiled / plain:,.0f}x  (targets: >= 50x, compiled >= 20,000 rounds/s)")
    compiled = measured(EVALUATOR, args.calls, jit=True)
    plain = measured(EVALUATOR, args.plain_calls, jit=False)
    print(f"\n{'the evaluator':<22}{'calls':>10}{'us a call':>14}")
    print(f"{'compiled (numba)':<22}{args.calls:>10}{compiled * 1e6:>14.2f}")
    print(f"{'NUMBA_DISABLE_JIT=1':<22}{args.plain_calls:>10}{plain * 1e6:>14.1f}")
    print(f"speed-up compiled / plain: {plain / compiled:,.0f}x  (targets: >= 50x, compiled at most 200 us a call)")


if __name__ == "__main__":
    t0 = time.perf_counter()
    main()
    print(f"benchmark took {time.perf_counter() - t0:.1f} s")
