"""Start-up and end-to-end wall time of the commands a newcomer types first.

Each command runs as a fresh process, several times; the median wall time is printed next to the
baseline measured in the same run, a bare ``python -c pass`` (the machine is shared and noisy:
the ratio is what to compare between runs). The engine is compiled first (``lcanalysis warm-up``)
so the numbers are those of a warm install.

    python benchmarks/bench_startup.py [--repeat 5]

Targets (issue 12, on an idle core): ``import lcanalysis``, ``lcanalysis --help`` and
``lcanalysis show example:midround`` under 0.5 s; ``advise --time S`` within S plus start-up
and 20%; a 1-3 card ``solve`` answered within 0.5 s.

The last rows measure ``lcanalysis shell``, which loads the engine once and answers line after
line: its start-up (one ``solve`` line) and the time of each further ``solve`` line, from the
wall time of ``--lines`` lines less that of one line, divided by the lines added.
"""

from __future__ import annotations

import argparse
import os
import shlex
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
BIN = Path(sys.executable).parent


def wall(cmd: list[str], repeat: int, stdin: str | None = None, env: dict[str, str] | None = None) -> float:
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        subprocess.run(cmd, cwd=ROOT, input=stdin, text=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                       check=True, env=env)
        times.append(time.perf_counter() - t0)
    return statistics.median(times)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=5, help="runs of each command (the median is shown; default 5)")
    ap.add_argument("--lines", type=int, default=21,
                    help="solve lines fed to one shell for the per-command time (default 21)")
    args = ap.parse_args()
    if args.repeat < 1:
        ap.error(f"--repeat must be at least 1, got {args.repeat}")
    if args.lines < 2:  # the time of a further line is (lines - one line) / (lines - 1)
        ap.error(f"--lines must be at least 2, got {args.lines}")
    lc = str(BIN / "lcanalysis")
    subprocess.run([lc, "warm-up"], check=True, stdout=subprocess.DEVNULL)
    endgame = subprocess.run([sys.executable, "-c", (
        "import sys; sys.path.insert(0, 'tests'); from helpers import played_down; "
        "print(played_down(5, 2).to_string())")], cwd=ROOT, capture_output=True, text=True, check=True).stdout.strip()
    base = wall([sys.executable, "-c", "pass"], args.repeat)
    print(f"{'command':<58} {'median s':>9} {'vs python':>10}")
    print(f"{'python -c pass (baseline)':<58} {base:>9.3f} {1.0:>9.1f}x")
    cases = [
        ("import lcanalysis", [sys.executable, "-c", "import lcanalysis"]),
        ("lcanalysis --help", [lc, "--help"]),
        ("lcanalysis show example:midround", [lc, "show", "example:midround"]),
        ("lcanalysis solve <2 cards left> --max-stalls 1", [lc, "solve", endgame, "--max-stalls", "1"]),
        ("lcanalysis advise example:midround --time 1", [lc, "advise", "example:midround", "--time", "1"]),
    ]
    one_shot = 0.0
    for name, cmd in cases:
        t = wall(cmd, args.repeat)
        print(f"{name:<58} {t:>9.3f} {t / base:>9.1f}x", flush=True)
        if cmd[1] == "solve":
            one_shot = t
    line = shlex.join(["solve", endgame, "--max-stalls", "1"]) + "\n"
    one = wall([lc, "shell"], args.repeat, stdin=line)
    many = wall([lc, "shell"], args.repeat, stdin=line * args.lines)
    each = (many - one) / (args.lines - 1)
    print(f"{'lcanalysis shell, one solve line (start-up)':<58} {one:>9.3f} {one / base:>9.1f}x")
    print(f"{f'lcanalysis shell, {args.lines} solve lines':<58} {many:>9.3f} {many / base:>9.1f}x")
    print(f"{'  each further solve line in the shell':<58} {each:>9.3f} {each / base:>9.1f}x")
    if each > 0:
        print(f"a solve line in the shell answers {one_shot / each:.0f}x faster than the one-shot solve")
    served = _served(lc, endgame, args.repeat, base)
    print(f"a solve through the server answers {one_shot / served:.0f}x faster than the one-shot solve")
    return 0


def _served(lc: str, endgame: str, repeat: int, base: float) -> float:
    """The same one-shot commands while an ``lcanalysis server`` (in a private folder) runs."""
    env = {k: v for k, v in os.environ.items() if k != "LCANALYSIS_NO_SERVER"}
    env["LCANALYSIS_RUNTIME_DIR"] = tempfile.mkdtemp(prefix="lcbench", dir="/tmp")
    subprocess.run([lc, "server", "start"], check=True, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        solve = 0.0
        for name, cmd in [("lcanalysis show example:midround (server running)", [lc, "show", "example:midround"]),
                          ("lcanalysis solve <2 cards left> --max-stalls 1 (server running)",
                           [lc, "solve", endgame, "--max-stalls", "1"])]:
            t = wall(cmd, repeat, env=env)
            print(f"{name:<58} {t:>9.3f} {t / base:>9.1f}x", flush=True)
            solve = t
        return solve
    finally:
        subprocess.run([lc, "server", "stop"], check=False, env=env, stdout=subprocess.DEVNULL)
        shutil.rmtree(env["LCANALYSIS_RUNTIME_DIR"], ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
