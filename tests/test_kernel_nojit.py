"""The kernel gives the same answers with the JIT off (NUMBA_DISABLE_JIT=1) as compiled."""

import json
import os
import subprocess
import sys

SCRIPT = r"""
import json, random
from lcanalysis.game.position import Position
from lcanalysis.game.rules import Rules
out = []
for colors in (5, 6):
    rng = random.Random(colors)
    pos = Position.deal(seed=colors, rules=Rules(colors=colors, turn_cap=80))
    while not pos.is_over():
        pos.push(rng.choice(pos.legal_moves()))
    while len(pos.history) > 40:
        pos.pop()
    out.append([pos.to_string(), pos.scores(), [str(m) for m in pos.legal_moves()]])
print(json.dumps(out))
"""


def run(disable: bool) -> list:
    env = dict(os.environ)
    env["NUMBA_DISABLE_JIT"] = "1" if disable else "0"
    proc = subprocess.run([sys.executable, "-c", SCRIPT], env=env, capture_output=True, text=True, timeout=600,
                          check=False)
    assert proc.returncode == 0, proc.stderr
    return json.loads(proc.stdout)


def test_plain_python_kernel_plays_the_same_rounds_as_the_compiled_one():
    compiled, plain = run(False), run(True)
    assert compiled == plain
    assert all(legal for _, _, legal in compiled)  # 40 turns in: the rounds are still on
    assert compiled[0][0] != compiled[1][0]
