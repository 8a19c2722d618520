"""benchmarks/: each script starts, says what its options are, and is run as the docs say.

The benchmarks are not run here (they time things); their parsers are, caught before the work
starts, so a script that stops importing or an option a doc names that no longer exists fails a
test instead of rotting."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_bench_wager_help_says_what_it_does_instead_of_running_it():
    """It had no parser: '--help' (or any argument) ran the whole 25-second benchmark."""
    script = str(ROOT / "benchmarks" / "bench_wager.py")
    shown = subprocess.run([sys.executable, script, "--help"], check=False, capture_output=True, text=True,
                           timeout=120, cwd="/")
    assert shown.returncode == 0 and shown.stdout.startswith("usage: bench_wager.py"), shown.stdout
    assert "Wager calculator" not in shown.stdout  # the benchmark did not run
    bad = subprocess.run([sys.executable, script, "--rounds", "3"], check=False, capture_output=True, text=True,
                         timeout=120, cwd="/")
    assert bad.returncode == 2 and "unrecognized arguments: --rounds 3" in bad.stderr, bad.stderr
