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


BENCHMARKS = sorted(p.stem for p in (ROOT / "benchmarks").glob("bench_*.py"))


class _Parsed(Exception):
    """Raised in place of parsing: the benchmark's parser, caught before its work starts."""


def parser_of(name: str, monkeypatch):
    """The parser ``benchmarks/<name>.py`` builds in its ``main``."""
    import argparse
    import importlib

    monkeypatch.syspath_prepend(str(ROOT / "benchmarks"))
    module = importlib.import_module(name)

    def caught(self, *args, **kwargs):
        raise _Parsed(self)

    with monkeypatch.context() as m:
        m.setattr(argparse.ArgumentParser, "parse_args", caught)
        try:
            module.main()
        except _Parsed as got:
            return got.args[0]
    raise AssertionError(f"{name}.main() built no parser")


def test_every_benchmark_option_says_what_it_is_and_its_default(monkeypatch):
    """Half the benchmarks' options had no help at all ('--rounds ROUNDS' and nothing else:
    bench_core, bench_streams, bench_view_parallel, bench_search's --quick and --seeds) or none of
    their default (bench_endgame_reach's --decks, bench_hint's --positions)."""
    import argparse

    missing = []
    for name in BENCHMARKS:
        for action in parser_of(name, monkeypatch)._actions:
            if not action.option_strings or isinstance(action, argparse._HelpAction):
                continue
            told = action.help or ""
            if not told or (action.nargs != 0 and not action.required and "default" not in told.lower()):
                missing.append(f"{name} {action.option_strings[-1]}")
    assert not missing, "\n".join(missing)
