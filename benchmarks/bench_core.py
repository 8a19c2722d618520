"""Random full-round playouts per second: the compiled kernel against the same code with the JIT off.

Run: python benchmarks/bench_core.py [--rounds N] [--plain-rounds N]

Each turn is a uniformly random legal placement, then a draw from the draw pile, so a
5-colour round lasts exactly 44 turns. Both paths run in this one command, back to back, on
the same deal: the compiled ``playout.random_playouts``, then the very same function in a
child process with NUMBA_DISABLE_JIT=1. Targets: compiled >= 50x plain, >= 20,000 rounds/s.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import time

CHILD = """
import sys, time
from lcanalysis.core import playout as P
from lcanalysis.game.position import Position
rounds = int(sys.argv[1])
s0 = Position.deal(seed=2026).state
t = time.perf_counter()
turns = P.random_playouts(s0, rounds, 1)
dt = time.perf_counter() - t
assert turns == 44 * rounds, turns
print(rounds / dt)
"""


def rounds_per_second(rounds: int, jit: bool) -> float:
    env = dict(os.environ, NUMBA_DISABLE_JIT="0" if jit else "1")
    if jit:  # compile (or load from the cache) before the timed call
        subprocess.run([sys.executable, "-c", CHILD, "5"], env=env, check=True, capture_output=True)
    out = subprocess.run([sys.executable, "-c", CHILD, str(rounds)], env=env, check=True,
                         capture_output=True, text=True)
    return float(out.stdout.strip())


def main() -> None:
    ap = argparse.ArgumentParser(description="random playouts per second, compiled vs JIT off")
    ap.add_argument("--rounds", type=int, default=200_000, help="rounds timed on the compiled kernel (default 200,000)")
    ap.add_argument("--plain-rounds", type=int, default=300,
                    help="rounds timed with the JIT off, about 1,000 a second (default 300)")
    args = ap.parse_args()
    for name in ("rounds", "plain_rounds"):
        if getattr(args, name) < 1:  # a division by zero after the timed runs
            ap.error(f"--{name.replace('_', '-')} must be at least 1, got {getattr(args, name)}")
    compiled = rounds_per_second(args.rounds, jit=True)
    plain = rounds_per_second(args.plain_rounds, jit=False)
    print(f"{'path':<22}{'rounds':>10}{'rounds/s':>14}")
    print(f"{'compiled (numba)':<22}{args.rounds:>10}{compiled:>14,.0f}")
    print(f"{'NUMBA_DISABLE_JIT=1':<22}{args.plain_rounds:>10}{plain:>14,.1f}")
    print(f"speed-up compiled / plain: {compiled / plain:,.0f}x  (targets: >= 50x, compiled >= 20,000 rounds/s)")


if __name__ == "__main__":
    t0 = time.perf_counter()
    main()
    print(f"benchmark took {time.perf_counter() - t0:.1f} s")
