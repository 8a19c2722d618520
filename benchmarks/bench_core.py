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
from collections.abc import Callable

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
print(calls / (time.perf_counter() - t))
"""


def measured(child: str, count: int, jit: bool) -> float:
    """What ``child`` prints for ``count`` (rounds, or calls, a second), run with the JIT on or off."""
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
    compare(("playouts", "rounds", "rounds/s"), PLAYOUTS, (args.rounds, args.plain_rounds),
            lambda rate: f"{rate:,.1f}", ">= 50x, compiled >= 20,000 rounds/s")
    print()
    compare(("the evaluator", "calls", "us a call"), EVALUATOR, (args.calls, args.plain_calls),
            lambda rate: f"{1e6 / rate:.2f}", ">= 50x, compiled at most 200 us a call")


def compare(headings: tuple[str, str, str], child: str, counts: tuple[int, int], shown: Callable[[float], str],
            targets: str) -> None:
    """``child`` timed compiled, then with the JIT off (``counts`` each), as a table (its ``headings``: what is
    timed, its count, the figure ``shown`` of a rate a second) and the speed-up, with its ``targets``."""
    rates = [measured(child, n, jit) for n, jit in zip(counts, (True, False), strict=True)]
    print(f"{headings[0]:<22}{headings[1]:>10}{headings[2]:>14}")
    for label, n, rate in zip(("compiled (numba)", "NUMBA_DISABLE_JIT=1"), counts, rates, strict=True):
        print(f"{label:<22}{n:>10}{shown(rate):>14}")
    print(f"speed-up compiled / plain: {rates[0] / rates[1]:,.0f}x  (targets: {targets})")


if __name__ == "__main__":
    t0 = time.perf_counter()
    main()
    print(f"benchmark took {time.perf_counter() - t0:.1f} s")
