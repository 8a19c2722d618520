"""Start-up and end-to-end wall time of the commands a newcomer types first.

Each command runs as a fresh process, several times; the median wall time is printed next to two
baselines measured in the same run, a bare ``python -c pass`` and ``python -c "import numpy"``
(the machine is shared and noisy: the ratios are what to compare between runs). The engine is
compiled first (``lcanalysis warm-up``) so the numbers are those of a warm install. The last
column names the heavy libraries (numba, scipy, pandas, matplotlib, ipywidgets, tqdm) the command
imports (one more run under ``PYTHONPROFILEIMPORTTIME``): a command that computes nothing
compiled should load none of them.

    python benchmarks/bench_startup.py [--repeat 5] [--cold]

``--cold`` also times the first command on a fresh install: the package copied to a temporary
folder (no numba cache, no compile marker), a 2-card ``solve`` run there twice, the first
compiling the engine (and saying so: checked), the second loading it from numba's cache.

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
#: libraries a command that computes nothing compiled should not import
HEAVY = ("numba", "scipy", "pandas", "matplotlib", "ipywidgets", "tqdm")
#: the one-shot commands run alone: a running 'lcanalysis server' would answer them (timed apart)
ALONE = {**os.environ, "LCANALYSIS_NO_SERVER": "1"}


def wall(cmd: list[str], repeat: int, stdin: str | None = None, env: dict[str, str] | None = None) -> float:
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        subprocess.run(cmd, cwd=ROOT, input=stdin, text=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                       check=True, env=ALONE if env is None else env)
        times.append(time.perf_counter() - t0)
    return statistics.median(times)


def heavy_imports(cmd: list[str], stdin: str | None = None) -> str:
    """The heavy libraries ``cmd`` imports (Python's import-time report, read from its stderr)."""
    proc = subprocess.run(cmd, cwd=ROOT, input=stdin, text=True, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                          check=True, env={**ALONE, "PYTHONPROFILEIMPORTTIME": "1"})
    names = {line.rsplit("|", 1)[-1].strip() for line in proc.stderr.splitlines() if line.startswith("import time:")}
    return " ".join(h for h in HEAVY if h in names) or "-"


def row(name: str, t: float, base: float, numpy: float, loads: str = "") -> None:
    print(f"{name:<58} {t:>9.3f} {t / base:>9.1f}x {t / numpy:>9.1f}x  {loads}", flush=True)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=5, help="runs of each command (the median is shown; default 5)")
    ap.add_argument("--lines", type=int, default=21,
                    help="solve lines fed to one shell for the per-command time (default 21)")
    ap.add_argument("--cold", action="store_true",
                    help="also time a first solve on a fresh copy of the package, compile included "
                         "(about a minute and a half on 2 cores; default: off)")
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
    work = Path(tempfile.mkdtemp(prefix="lcbench", dir="/tmp"))
    record = _short_record(work / "short.json")
    bot_turn = subprocess.run([sys.executable, "-c", (
        "import json, lcanalysis as lc; view = lc.Position.deal(seed=4).view(0); "
        "print(json.dumps({'type': 'turn', 'position': view.to_json()}))")],
        cwd=ROOT, capture_output=True, text=True, check=True).stdout + '{"type": "quit"}\n'
    base = wall([sys.executable, "-c", "pass"], args.repeat)
    numpy = wall([sys.executable, "-c", "import numpy"], args.repeat)
    print(f"{'command':<58} {'median s':>9} {'vs python':>10} {'vs numpy':>10}  heavy imports")
    row("python -c pass (baseline)", base, base, numpy)
    row("python -c 'import numpy' (baseline)", numpy, base, numpy)
    row("python -c 'import numba' (what numba alone costs)", wall([sys.executable, "-c", "import numba"],
                                                                   args.repeat), base, numpy)
    cases = [
        ("import lcanalysis", [sys.executable, "-c", "import lcanalysis"], None),
        ("lcanalysis --help", [lc, "--help"], None),
        ("lcanalysis --version", [lc, "--version"], None),
        ("lcanalysis solve --help", [lc, "solve", "--help"], None),
        ("lcanalysis show example:midround", [lc, "show", "example:midround"], None),
        ("lcanalysis deal --seed 1", [lc, "deal", "--seed", "1"], None),
        ("lcanalysis wager example:midround --color G --draws 10",
         [lc, "wager", "example:midround", "--color", "G", "--draws", "10"], None),
        ("lcanalysis solve <2 cards left> --max-stalls 1", [lc, "solve", endgame, "--max-stalls", "1"], None),
        ("lcanalysis advise example:midround --time 1", [lc, "advise", "example:midround", "--time", "1"], None),
        ("lcanalysis review <a 4-turn round> --time 0.2", [lc, "review", str(record), "--time", "0.2"], None),
        ("lcanalysis bot heuristic (one turn)", [lc, "bot", "heuristic"], bot_turn),
    ]
    one_shot = 0.0
    for name, cmd, stdin in cases:
        t = wall(cmd, args.repeat, stdin=stdin)
        row(name, t, base, numpy, heavy_imports(cmd, stdin))
        if name.startswith("lcanalysis solve <"):
            one_shot = t
    line = shlex.join(["solve", endgame, "--max-stalls", "1"]) + "\n"
    one = wall([lc, "shell"], args.repeat, stdin=line)
    many = wall([lc, "shell"], args.repeat, stdin=line * args.lines)
    each = (many - one) / (args.lines - 1)
    row("lcanalysis shell, one solve line (start-up)", one, base, numpy)
    row(f"lcanalysis shell, {args.lines} solve lines", many, base, numpy)
    row("  each further solve line in the shell", each, base, numpy)
    if each > 0:
        print(f"a solve line in the shell answers {one_shot / each:.0f}x faster than the one-shot solve")
    served = _served(lc, endgame, args.repeat, base, numpy)
    print(f"a solve through the server answers {one_shot / served:.0f}x faster than the one-shot solve")
    if args.cold:
        _cold(endgame, work, base, numpy)
    shutil.rmtree(work, ignore_errors=True)
    return 0


def _short_record(path: Path) -> Path:
    """A round of 4 turns (the turn cap), each the first legal one: a review's smallest real work."""
    subprocess.run([sys.executable, "-c", (
        "import sys; import lcanalysis as lc; from lcanalysis.game.records import record_round, write_record; "
        "pos = lc.Position.deal(seed=3, rules=lc.Rules(turn_cap=4)); start, turns = pos.copy(), []\n"
        "while not pos.is_over():\n    m = pos.legal_moves()[0]; turns.append(str(m)); pos.push(m)\n"
        "write_record(record_round(start, turns), sys.argv[1])"), str(path)], cwd=ROOT, check=True)
    return path


def _cold(endgame: str, work: Path, base: float, numpy: float) -> None:
    """A first solve on a fresh install (a copy of the package: no numba cache, no compile marker),
    then the same solve again, warm."""
    shutil.copytree(ROOT / "lcanalysis", work / "lcanalysis", ignore=shutil.ignore_patterns("__pycache__"))
    env = {k: v for k, v in ALONE.items() if k != "NUMBA_CACHE_DIR"}  # numba's cache beside the copy
    env["PYTHONPATH"] = str(work)
    cmd = [sys.executable, "-m", "lcanalysis", "solve", endgame, "--max-stalls", "1"]
    for name in ("cold", "warm"):
        t0 = time.perf_counter()
        proc = subprocess.run(cmd, cwd=work, env=env, capture_output=True, text=True, check=True)
        t = time.perf_counter() - t0
        said = "compiling the engine" in proc.stderr
        if said != (name == "cold"):
            raise SystemExit(f"the {name} solve {'did not say' if name == 'cold' else 'said'} it was compiling "
                             f"the engine:\n{proc.stderr}")
        row(f"solve <2 cards left>, fresh install, {name}" + (" (compiles, says so)" if said else ""),
            t, base, numpy)


def _served(lc: str, endgame: str, repeat: int, base: float, numpy: float) -> float:
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
            row(name, t, base, numpy)
            solve = t
        return solve
    finally:
        subprocess.run([lc, "server", "stop"], check=False, env=env, stdout=subprocess.DEVNULL)
        shutil.rmtree(env["LCANALYSIS_RUNTIME_DIR"], ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
