"""The hand evaluator's cost a call: the compiled ``evaluate_difference`` against the same code with the JIT off.

Run: python benchmarks/bench_evaluator.py [--calls N] [--plain-calls N]

A search leaf calls ``evaluator.evaluate_difference`` (both players' expected final scores, five
colours) once; it must stay far below the cost of a node. Both paths run in this one command, back to
back, on the same late position (20 cards left in the draw pile), each in a child process: the compiled
function (loaded or compiled first, untimed), then the very same function with NUMBA_DISABLE_JIT=1. The
time of a call includes Python's call overhead, as a caller from Python pays it. Targets: compiled at most
200 microseconds a call, and at least 50 times the plain code (a timed test asserted the first until
2026-12-06, which even the plain code passes: about 120 us; speed is measured here, not in tests).
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import time

CHILD = """
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


def seconds_a_call(calls: int, jit: bool) -> float:
    env = dict(os.environ, NUMBA_DISABLE_JIT="0" if jit else "1")
    out = subprocess.run([sys.executable, "-c", CHILD, str(calls)], env=env, check=True, capture_output=True,
                         text=True)
    return float(out.stdout.strip())


def main() -> None:
    ap = argparse.ArgumentParser(description="the hand evaluator's cost a call, compiled vs JIT off")
    ap.add_argument("--calls", type=int, default=200_000, help="calls timed on the compiled function (default 200,000)")
    ap.add_argument("--plain-calls", type=int, default=200,
                    help="calls timed with the JIT off, a few hundred a second (default 200)")
    args = ap.parse_args()
    for name in ("calls", "plain_calls"):
        if getattr(args, name) < 1:  # a division by zero after the timed runs
            ap.error(f"--{name.replace('_', '-')} must be at least 1, got {getattr(args, name)}")
    compiled = seconds_a_call(args.calls, jit=True)
    plain = seconds_a_call(args.plain_calls, jit=False)
    print(f"{'path':<22}{'calls':>10}{'us a call':>12}")
    print(f"{'compiled (numba)':<22}{args.calls:>10}{compiled * 1e6:>12.2f}")
    print(f"{'NUMBA_DISABLE_JIT=1':<22}{args.plain_calls:>10}{plain * 1e6:>12.1f}")
    print(f"speed-up compiled / plain: {plain / compiled:,.0f}x  (targets: >= 50x, compiled at most 200 us a call)")


if __name__ == "__main__":
    t0 = time.perf_counter()
    main()
    print(f"benchmark took {time.perf_counter() - t0:.1f} s")
