"""The ``python -m lcanalysis.studies...`` scripts end as ``lcanalysis`` does when their reader goes
away: output piped into ``head`` and closed early is not an error (status 0, no traceback), where
``paired_strength ... | head -3`` ended in a ``BrokenPipeError`` traceback (``options.run_script``)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SCRIPTS = sorted(p.stem for p in (ROOT / "lcanalysis/studies").glob("*.py")
                 if 'if __name__ == "__main__":' in p.read_text())


def _into_a_closed_pipe(args: list[str]) -> subprocess.CompletedProcess[str]:
    read, write = os.pipe()
    os.close(read)  # the reader is gone before the first line: every write fails
    try:
        return subprocess.run([sys.executable, *args], stdout=write, stderr=subprocess.PIPE, text=True,
                              timeout=300, check=False, cwd=ROOT)
    finally:
        os.close(write)


def test_every_study_script_is_found():
    # the scripts the docs name: a rename must not leave this test checking nothing
    assert {"paired_strength", "strength_table", "calibration", "consistency", "skill_and_luck"} <= set(SCRIPTS)


@pytest.mark.parametrize("script", SCRIPTS)
def test_a_study_scripts_help_into_a_closed_pipe_ends_quietly(script):
    proc = _into_a_closed_pipe(["-m", f"lcanalysis.studies.{script}", "--help"])
    assert "Traceback" not in proc.stderr and "Broken pipe" not in proc.stderr, proc.stderr
    assert proc.returncode == 0, proc.stderr


def test_a_paired_comparison_into_a_closed_pipe_ends_quietly():
    """The answer itself, printed once the files are read (not argparse's help)."""
    proc = _into_a_closed_pipe(["-m", "lcanalysis.studies.paired_strength",
                                "data/strength_best_caution1_vs_heuristic_6c.jsonl",
                                "data/strength_search_vs_heuristic_6c.jsonl", "--opponent", "heuristic"])
    assert "Traceback" not in proc.stderr and "Broken pipe" not in proc.stderr, proc.stderr
    assert proc.returncode == 0, proc.stderr
