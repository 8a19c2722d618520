"""benchmarks/: each script starts, says what its options are, and is run as the docs say.

The benchmarks are not run here (they time things); their parsers are, caught before the work
starts, so a script that stops importing or an option a doc names that no longer exists fails a
test instead of rotting."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

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


@pytest.mark.parametrize(("argv", "error"), [
    (["bench_search.py", "--seeds", "0"], "--seeds must be from 1 to 5 (the suite's seeds), got 0"),
    (["bench_search.py", "--seeds", "9"], "--seeds must be from 1 to 5 (the suite's seeds), got 9"),
    (["bench_view_parallel.py", "--repeat", "0"], "--repeat must be at least 1, got 0"),
    (["bench_core.py", "--plain-rounds", "0"], "--plain-rounds must be at least 1, got 0"),
    (["bench_core.py", "--plain-calls", "0"], "--plain-calls must be at least 1, got 0"),
    (["bench_startup.py", "--lines", "1"], "--lines must be at least 2, got 1"),
    (["bench_streams.py", "--worlds", "1"], "--worlds and --candidates at least 2; got 30, 1 and 8"),
    (["bench_rollout_honesty.py", "--trials", "1"], "--trials must be at least 2, got 1"),
    (["bench_rollout_honesty.py", "--playouts", "--agents"], "nothing to measure: give --playouts or --agents"),
    (["bench_rollout_luck.py", "--top", "1"], "--trials must be at least 3 and --top at least 2, got 300 and 1"),
    (["bench_selfplay.py", "--deals", "0"], "--deals and --workers must be at least 1, got 0 and"),
    (["bench_endgame_profile.py", "--worlds", "0"], "--worlds must be from 1 to 96 (the sampled worlds"),
    (["bench_endgame_profile.py", "--stalls", "0"], "--stalls must be from 1 to 3, got 0"),
    (["bench_flat_mc.py", "--repeat", "0"], "--views, --worlds and --repeat must be at least 1, got 10, 200 and 0"),
])
def test_a_bad_count_is_refused_naming_it_before_any_work(argv, error, monkeypatch, capsys):
    """--seeds 0 ran bench_search's warm-up and then said every position needed more than the node
    budget (and 9 ran 5); --repeat 0 was a traceback after the compiling; --plain-rounds 0 and
    --lines 1 a division by zero after the timed runs."""
    import importlib

    monkeypatch.syspath_prepend(str(ROOT / "benchmarks"))
    bench = importlib.import_module(argv[0].removesuffix(".py"))
    monkeypatch.setattr(sys, "argv", argv)
    with pytest.raises(SystemExit) as refused:
        bench.main()
    assert refused.value.code == 2 and error in capsys.readouterr().err


def test_every_benchmark_is_named_in_a_doc_and_each_command_a_doc_gives_parses(monkeypatch):
    """bench_interrupt_watch.py was named by no doc (found only by listing the folder); a doc's
    command with an option a benchmark no longer has would be found when someone ran it."""
    import re
    import shlex

    docs = [*ROOT.glob("*.md"), *ROOT.glob("docs/*.md"), ROOT / "data" / "README.md", *ROOT.glob("data/**/*.cmd")]
    text = "\n".join(re.sub(r"\s+", " ", p.read_text()) for p in docs)  # a command may wrap its line
    assert not [name for name in BENCHMARKS if f"benchmarks/{name}.py" not in text]
    for name, options in re.findall(r"python benchmarks/(bench_\w+)\.py((?: --?[\w-]+(?: [\w./-]+)*)*)", text):
        parser = parser_of(name, monkeypatch)
        parser.exit_on_error = False
        # a placeholder ('--nodes N', '--out FILE') stands for a value: 1 parses as a count and as a path
        parser.parse_args(["1" if w.isupper() else w for w in shlex.split(options)])


def test_the_search_ab_benchmark_compares_with_the_working_trees_search_not_a_stale_cache(tmp_path, monkeypatch):
    """bench_search_ab's "new" side was the package's ``view_value._solve_splits``, which numba loads
    from its cache as long as view_value.py is unchanged, with the search compiled into it as it was:
    after a change to perfect.py alone both sides ran the old search (the same nodes, x1.00). It now
    writes the working tree's search and split loop into a module of their own, named by their content."""
    monkeypatch.syspath_prepend(str(ROOT / "benchmarks"))
    import bench_search_ab

    path = bench_search_ab.search_source(None, tmp_path)
    text = path.read_text()
    search = (ROOT / "lcanalysis" / "search" / "perfect.py").read_text()
    assert text.startswith(search) and "def _solve_splits(" in text
    assert bench_search_ab.search_source(None, tmp_path) == path  # the same content: the same module
    assert path.stem.startswith("perfect_tree_")
