"""The front door and a newcomer's first commands: a cheap import, light commands that need no
compiled code, a compile that announces itself once, solves within a time budget that say what
they do, wager answers in words, and error messages that say how to fix the input."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

import lcanalysis as lc
from lcanalysis.answer_json import answer_text
from lcanalysis.cli import main, warmup


def _python(code: str) -> str:
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300, check=False)
    assert proc.returncode == 0, proc.stderr
    return proc.stdout.strip()


def test_importing_the_package_loads_no_compiled_code():
    out = _python("import sys, lcanalysis; print('numba' in sys.modules, 'numpy' in sys.modules)")
    assert out == "False False"


def test_the_card_objects_take_the_decks_numbers_without_loading_the_engine():
    """``game.cards`` reads the deck's numbers from ``core.constants``, which the compiled kernel
    reads too; importing the card layer loads neither the kernel nor numpy nor numba for them."""
    out = _python("import sys\nfrom lcanalysis.game.cards import CARDS_PER_COLOR, Card\n"
                  "print(CARDS_PER_COLOR, Card.parse('gw'), [m for m in ('lcanalysis.core.kernel', 'numpy', 'numba') "
                  "if m in sys.modules])")
    assert out == "12 Gw []"


HEAVY = ("numba", "pandas", "scipy", "matplotlib", "ipywidgets", "tqdm", "IPython")


@pytest.mark.parametrize("argv", [["show", "example:midround"], ["deal", "--seed", "3", "--json"],
                                  ["wager", "example:midround", "--color", "G", "--draws", "10"],
                                  ["wager", "example:midround", "--color", "G"],  # its default draws: features
                                  ["show", "--help"], ["wager", "--help"], ["solve", "--help"], ["advise", "--help"],
                                  ["review", "--help"], ["rollout", "--help"], ["tournament", "--help"]])
def test_the_light_commands_and_the_help_load_neither_numba_nor_a_heavy_library(argv):
    """``show``, ``deal`` and ``wager`` run the kernel as plain Python, yet imported numba (a fifth
    of a second of their start-up, and scipy with it) only for its ``njit`` to hand each function
    back; no help text needs it either ('tournament --help' loaded the game's kernel, numba with
    it, for its parser). Each answers without loading numba, pandas, scipy, matplotlib, ipywidgets
    or tqdm."""
    out = _python("import io, sys, contextlib\nfrom lcanalysis.cli import main\n"
                  "with contextlib.redirect_stdout(io.StringIO()) as f:\n"
                  f"    sys.argv = ['lcanalysis', *{argv!r}]\n"  # a process started as the command
                  "    try:\n        status = main()\n    except SystemExit as e:\n        status = e.code\n"
                  f"print(status, len(f.getvalue()) > 100, [m for m in {HEAVY!r} if m in sys.modules])")
    assert out == "0 True []"


def test_the_kernels_njit_hands_the_function_back_without_numba_only_when_the_jit_is_off():
    """``core.jit.njit`` is numba's, but with ``NUMBA_DISABLE_JIT`` on and numba not loaded it
    hands the function back itself, as numba's would, without importing numba."""
    code = ("import os, sys\nos.environ['NUMBA_DISABLE_JIT'] = {value!r}\n"
            "from lcanalysis.core.jit import njit\n"
            "def f(x):\n    return x + 1\n"
            "g, h = njit(nogil=True)(f), njit(f)\n"
            "print(g is f, h is f, g(1), h(2), 'numba' in sys.modules)")
    assert _python(code.format(value="1")) == "True True 2 3 False"
    for value in ("0", "", "yes"):  # numba compiles then too (it reads a whole number, else its default 0)
        assert _python(code.format(value=value)) == "False False 2 3 True"


def test_the_command_says_its_version(capsys):
    """``lcanalysis --version`` was refused ("the following arguments are required: command"): a
    user reporting a problem had no way to say which version they ran but Python."""
    with pytest.raises(SystemExit) as done:
        main(["--version"])
    assert done.value.code == 0
    assert capsys.readouterr().out == f"lcanalysis {lc.__version__}\n"
    out = _python("import sys\nfrom lcanalysis.cli import main\n"
                  "try:\n    main(['--version'])\nexcept SystemExit:\n    pass\n"
                  f"print([m for m in {HEAVY + ('numpy',)!r} if m in sys.modules])")
    assert out.splitlines()[-1] == "[]"  # at once: nothing but the parser loaded


def test_the_installed_version_is_the_one_the_package_says():
    """pyproject.toml said 0.1.0 (what pip shows and installs) while ``lc.__version__``, which
    ``--version`` prints and every results file records, said 0.2.0."""
    import tomllib
    from pathlib import Path

    pyproject = tomllib.loads((Path(lc.__file__).parent.parent / "pyproject.toml").read_text())
    assert pyproject["project"]["version"] == lc.__version__


def test_the_tournament_help_loads_no_agent():
    """'tournament --help' took 2.4 s (the agents, the search and scipy were imported to build its
    parser); like every other command's help it now loads none of them."""
    code = ("import sys\nfrom lcanalysis.cli import main\ntry:\n    main(['tournament', '--help'])\n"
            "except SystemExit:\n    pass\nprint('lcanalysis.agents' in sys.modules, 'scipy.stats' in sys.modules)")
    assert _python(code).splitlines()[-1] == "False False"


def test_the_front_door_names_the_public_api_and_loads_it_on_first_use():
    for name in ("Card", "Move", "Rules", "Position", "View", "read_position", "Analysis", "solve", "advise",
                 "review", "wager", "evaluate", "make_agent", "run_tournament"):
        assert name in lc.__all__ and callable(getattr(lc, name))
    assert lc.Card.parse("r7") == lc.Card.parse("R7")
    with pytest.raises(AttributeError, match="no attribute 'nope'"):
        _ = lc.nope


FUNCTIONS = ("solve", "advise", "review", "wager", "evaluate", "make_agent", "run_tournament", "summarize",
             "read_position")


@pytest.mark.parametrize("first", [
    "fn = lc.review; importlib.import_module(lc._NAMES['review'])",  # the name, then its module
    "importlib.import_module(lc._NAMES['review'])",  # the module that defines it, first
    "importlib.import_module(lc._NAMES['review']); from lcanalysis import review",
    "from lcanalysis import review; importlib.import_module(lc._NAMES['review'])",
])
def test_a_front_door_function_stays_the_function_whatever_is_imported(first):
    """``lc.review(...)`` is the function (its signature, its help) in whichever order the
    package, the name and the module that defines it are imported: no module of the package
    bears the name of a function of the front door, so an import cannot put a module there."""
    out = _python("import importlib, inspect, pkgutil, lcanalysis as lc\n"
                  f"{first}\n"
                  "from lcanalysis import review as again\n"
                  "modules = {m.name for m in pkgutil.iter_modules(lc.__path__)}\n"
                  "print(inspect.isfunction(lc.review), lc.review is again,\n"
                  "      list(inspect.signature(lc.review).parameters)[0],\n"
                  f"      [n for n in {FUNCTIONS!r} if n in modules])")
    assert out == "True True record []"


def test_the_front_door_answers_match_the_modules_behind_it():
    from lcanalysis.evaluator import evaluate_view
    from lcanalysis.wagers.canonical import analyze_view

    view = lc.read_position("example:midround")
    assert lc.wager(view, "B", 6).to_json() == analyze_view(view, "B", 6).to_json()
    assert repr(lc.evaluate(view)) == repr(evaluate_view(view))


def test_show_and_help_run_the_kernel_as_plain_python():
    out = _python("import io, contextlib, sys\nfrom lcanalysis.cli import main\n"
                  "sys.argv = ['lcanalysis', 'show', 'example:midround']\n"
                  "with contextlib.redirect_stdout(io.StringIO()) as f: main()\n"
                  "import numba.core.config as c\n"
                  "print(c.DISABLE_JIT, 'expeditions' in f.getvalue() or len(f.getvalue()) > 100)")
    assert out == "1 True"


def test_a_program_calling_main_keeps_the_compiled_engine_after_a_light_command():
    """A light command switched the JIT off for its whole process, also when a program (or a
    notebook) called ``main(['show', ...])``: everything it computed after, a search included, ran
    as plain Python, a hundred times slower. Only a process started as the command goes plain."""
    out = _python("import io, os, contextlib, sys\nfrom lcanalysis.cli import main\n"
                  "with contextlib.redirect_stdout(io.StringIO()) as f:\n"
                  "    codes = [main(['show', 'example:midround']),\n"
                  "             main(['wager', 'example:midround', '--color', 'B'])]\n"
                  "import numba.core.config as c\n"
                  "print(codes, os.environ.get('NUMBA_DISABLE_JIT'), c.DISABLE_JIT)")
    assert out == "[0, 0] None 0"


def test_wager_needs_no_compiled_engine_and_answers_as_the_compiled_one():
    """``wager`` (the canonical model is plain Python) waited for the engine: its first run on an
    install compiled everything (a minute and a half on 2 cores) and every later run loaded numba's
    compiled code (1.5 s, against 0.7 s as plain Python). It is now a light command, as ``show``: it
    never asks for the engine, and prints what the compiled kernel (this process) computes."""
    out = _python("import io, contextlib, sys\n"
                  "from lcanalysis.cli import main, warmup\n"
                  "def compile_(*a, **k):\n    raise AssertionError('the engine was asked for')\n"
                  "warmup.engine_ready = compile_\n"
                  "with contextlib.redirect_stdout(io.StringIO()) as f:\n"
                  "    sys.argv = ['lcanalysis', 'wager', 'example:midround', '--color', 'B', '--draws', '8',\n"
                  "                '--json']\n"
                  "    assert main() == 0\n"
                  "import numba.core.config as c\n"
                  "print(c.DISABLE_JIT)\nprint(f.getvalue())")
    jit_off, answer = out.split("\n", 1)
    assert jit_off == "1"
    # (as every answer is written: floats with 15 significant digits)
    assert json.loads(answer) == json.loads(answer_text(lc.wager("example:midround", "B", 8).to_json()))


def test_a_bot_that_never_searches_starts_without_loading_the_search():
    """``lcanalysis bot heuristic`` (random, greedy) loaded the exact endgame search at start-up,
    whose compiled functions are read from numba's cache as it is imported (0.4 s of every bot's
    and every engine command's start): the agents' module imported it, and every engine command
    loaded it to clear its tables. It now loads with the first agent or command that searches; the
    bot's answer is the agent's."""
    view = lc.Position.deal(seed=4).view(0)
    request = json.dumps({"type": "turn", "position": view.to_json()})
    out = _python("import io, sys, contextlib\n"
                  f"sys.stdin = io.StringIO({request!r} + '\\n' + '{{\"type\": \"quit\"}}\\n')\n"
                  "from lcanalysis.cli import main\n"
                  "with contextlib.redirect_stdout(io.StringIO()) as f:\n"
                  "    assert main(['bot', 'heuristic']) == 0\n"
                  "print('lcanalysis.search' in sys.modules, 'lcanalysis.search.perfect' in sys.modules)\n"
                  "print(f.getvalue())")
    loaded, reply = out.split("\n", 1)
    assert loaded == "False False"
    assert json.loads(reply)["move"] == str(lc.make_agent("heuristic").choose(view, 0))


def test_a_first_compile_says_so_once(tmp_path, monkeypatch, capsys):
    marker = tmp_path / "engine-test.ok"
    monkeypatch.setattr(warmup, "_marker", lambda: marker)
    monkeypatch.setattr(warmup, "PACKAGE", tmp_path)  # a first compile clears the package's cache: not ours
    ran = []
    monkeypatch.setattr(warmup, "STEPS", [("part one", lambda: ran.append(1)), ("part two", lambda: ran.append(2))])
    assert warmup.engine_ready() >= 0 and ran == [1, 2]
    err = capsys.readouterr().err
    assert "compiling the engine, once" in err and marker.exists()
    assert warmup.engine_ready() == 0.0 and ran == [1, 2]  # never again
    assert capsys.readouterr().err == ""


def test_the_compile_bar_moves_on_while_a_part_compiles(tmp_path, monkeypatch):
    """Found by a review on a fresh install: the bar redrew only when a part finished, so on a loaded
    machine it sat at '2/6 [00:24<00:50, ...play-outs and the advisor]' for over two minutes, the
    time frozen, as if hung. It is now redrawn every TICK_SECONDS while a part compiles, and no more
    once the compile is over."""
    import threading

    import tqdm.auto

    refreshed: list[int] = []

    class Bar(tqdm.auto.tqdm):  # type: ignore[misc,name-defined]
        def refresh(self, *args: object, **kwargs: object) -> None:
            refreshed.append(1)
            super().refresh(*args, **kwargs)

    during: list[int] = []

    def slow_part() -> None:  # a part that takes a while to compile: until redrawn 3 times (60 s at most)
        # (a fixed 0.6 s left 3 ticks of 0.05 s too little room on a busy machine)
        before = len(refreshed)
        for _ in range(1200):
            if len(refreshed) - before >= 3:
                break
            threading.Event().wait(0.05)
        during.append(len(refreshed) - before)

    monkeypatch.setattr(tqdm.auto, "tqdm", Bar)
    monkeypatch.setattr(warmup, "_marker", lambda: tmp_path / "engine-test.ok")
    monkeypatch.setattr(warmup, "PACKAGE", tmp_path)  # a first compile clears the package's cache: not ours
    monkeypatch.setattr(warmup, "STEPS", [("slow part", slow_part)])
    monkeypatch.setattr(warmup, "TICK_SECONDS", 0.05, raising=False)
    assert warmup.engine_ready() > 0
    assert during[0] >= 3  # redrawn while the part compiled
    after = len(refreshed)
    threading.Event().wait(0.3)
    assert len(refreshed) == after  # the ticking stopped with the compile


def _plant(paths):
    for path in paths:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(b"compiled for other sources")


def test_without_the_marker_numbas_stale_cache_is_deleted_before_compiling(tmp_path, monkeypatch):
    """numba checks a cached function against its own file only: after an upgrade, a function whose
    callee in another file changed would load stale code. With no marker for the current sources,
    the package's .nbi and .nbc files go before anything compiles; with the marker, they stay."""
    pkg = tmp_path / "lcanalysis"
    stale = [pkg / "__pycache__" / "features.turns_left-20.py312.nbi",
             pkg / "__pycache__" / "features.turns_left-20.py312.1.nbc",
             pkg / "search" / "__pycache__" / "perfect._search-300.py312.nbi"]
    kept = [pkg / "__pycache__" / "features.cpython-312.pyc",  # Python's own cache
            pkg / "notes.nbi",  # not in a __pycache__
            tmp_path / "elsewhere" / "__pycache__" / "other.f-1.py312.nbc"]  # not in the package
    _plant(stale + kept)
    marker = tmp_path / "engine-test.ok"
    monkeypatch.setattr(warmup, "PACKAGE", pkg)
    monkeypatch.setattr(warmup, "_marker", lambda: marker)
    seen = []
    monkeypatch.setattr(warmup, "STEPS", [("compile", lambda: seen.append([p.exists() for p in stale]))])
    assert sorted(warmup.stale_cache_files()) == sorted(stale)
    warmup.engine_ready(quiet=True)
    assert seen == [[False, False, False]]  # gone before the compile ran
    assert marker.exists() and all(p.exists() for p in kept)
    _plant(stale)  # what the compile wrote, for the current sources
    assert warmup.engine_ready(quiet=True) == 0.0
    assert all(p.exists() for p in stale + kept) and len(seen) == 1


def test_the_compile_marker_follows_the_compiled_sources():
    key = warmup._key()
    assert key == warmup._key() and len(key) == 16
    compiled = {p.relative_to(warmup.PACKAGE).as_posix() for p in warmup.PACKAGE.rglob("*.py")
                if warmup._COMPILED.search(p.read_bytes())}
    assert {"core/kernel.py", "core/features.py", "search/perfect.py", "tournaments/luck.py"} <= compiled
    # the warm-up names the decorator without compiling anything: editing it recompiles nothing
    assert "cli/warmup.py" not in compiled and "cli/main.py" not in compiled


def test_solve_within_a_time_budget_reports_each_level(capsys):
    assert main(["solve", "example:endgame", "--time", "1", "--json"]) == 0
    out = capsys.readouterr()
    answer = json.loads(out.out)
    assert answer["exact"] is True and "max_stalls" in answer["bounds"]
    assert "stalls=0: done" in out.err
    assert answer["value"] == lc.solve("example:endgame", max_stalls=answer["bounds"]["max_stalls"]).value


@pytest.mark.parametrize(("command", "most"), [(["solve", "example:endgame"], "86400 seconds (a day)"),
                                             (["advise", "example:endgame"], "3600 seconds"),
                                             (["review", "-"], "60 seconds a decision")])
@pytest.mark.parametrize("bad", ["0", "-1", "inf", "nan", "abc", "1e9"])
def test_a_time_budget_that_cannot_be_kept_is_refused_naming_the_limit(command, most, bad, capsys):
    with pytest.raises(SystemExit):
        main([*command, "--time", bad])
    err = capsys.readouterr().err
    assert "argument --time:" in err
    assert ("a number of seconds is needed, got 'abc'" if bad == "abc" else
            f"must be more than 0 and at most {most}, got {bad}") in err


def test_the_wager_answer_reads_as_words(capsys):
    assert main(["wager", "example:midround", "--color", "B", "--draws", "8"]) == 0
    out = capsys.readouterr().out
    exact = lc.wager("example:midround", "B", 8)
    assert "blue expedition, 8 more draw(s)" in out and "exact" in out
    assert f"{float(exact.by_wagers[0].mean):+.2f}" in out
    assert "more points of blue numbers are needed to break even" in out  # 3 placed + 6 7 in hand = 16
    assert "mean score reaches 0 from" in out


def test_the_wager_answer_on_an_expedition_already_breaking_even_says_so_without_a_count_of_draws(capsys):
    """Found by a newcomer's first 'wager' (the README's): "the mean score reaches 0 from 0 draw(s) on",
    right under "the expedition already breaks even". Green: G5 G8 G9 in hand, 22 of 20 already."""
    assert main(["wager", "example:midround", "--color", "G", "--draws", "10"]) == 0
    out = capsys.readouterr().out
    assert "the expedition already breaks even" in out and "from 0 draw(s)" not in out
    assert "with 0 wager(s) the mean score is 0 or more however many draws are left, none included" in out
    assert all(lc.wager("example:midround", "G", k).by_wagers[0].mean >= 0 for k in range(23))


def test_the_wager_answer_on_an_untouched_colour_asks_when_it_breaks_even_once_opened(capsys):
    """Found by a review: "the mean score reaches 0 from 0 draw(s) on" for yellow, where the mean is
    -1.77, -3.26 and -7.46 at 1, 2 and 10 draws (0 at none only because it is never opened)."""
    assert main(["wager", "example:midround", "--color", "Y"]) == 0
    out = capsys.readouterr().out
    assert "from 0 draw(s)" not in out
    # 22 cards in the draw pile, and no number of draws up to 22 pays the 20 back
    assert "once opened, the mean score reaches 0 with no number of draws the draw pile allows (up to 22)" in out
    assert all(lc.wager("example:midround", "Y", k).by_wagers[0].mean < 0 for k in range(1, 23))


def test_the_wager_answer_with_only_a_wager_held_asks_when_no_wager_breaks_even_once_opened(capsys, tmp_path):
    """Only Bw held, nothing placed: with no wager placed the colour is untouched, yet the answer read
    "first at 0 draw(s), but not at every number of draws after". By hand: unseen B8 B9 B10 and one
    other card, 3 in the pile. One draw: (-12 - 11 - 10) / 4 < 0. Two: 3 blue pairs (-3, -2, -1) and 3
    one-blue pairs (-12, -11, -10) of 6: -6.5. Three: all three blue 1/4 (+7), else a blue pair (-2 on
    average): +0.25. With the wager placed: twice each, and the wager alone -40: also from 3 on."""
    from lcanalysis.game.cards import card_str, full_deck

    hand = ["Bw", "Y2", "Y3", "Y4", "Y5", "Y6", "Y7", "Y8"]
    unseen = ["B8", "B9", "B10", "G2"]
    known = ["G3", "G4", "G5", "G6", "G7", "G8", "G9"]
    rest = [card_str(t) for t in full_deck(5)]
    for c in hand + unseen + known:
        rest.remove(c)
    discards: dict[str, list[str]] = {}
    for c in rest:
        discards.setdefault(c[0], []).append(c)
    path = tmp_path / "view.json"
    path.write_text(json.dumps({"to_move": 0, "hands": [hand, {"known": known, "count": 8}],
                                "discards": discards, "deck": 3}))
    assert main(["wager", str(path), "--color", "B", "--draws", "3"]) == 0
    out = capsys.readouterr().out
    assert "first at 0 draw(s)" not in out
    assert "with 0 wager(s), once opened, the mean score reaches 0 from 3 draw(s) on" in out
    assert "with 1 wager(s) the mean score reaches 0 from 3 draw(s) on" in out
    assert [float(o.mean) for o in lc.wager(str(path), "B", 3).by_wagers] == [0.25, 0.5]


def test_wager_defaults_to_the_draws_the_player_can_expect(capsys):
    assert main(["wager", "example:midround", "--color", "R", "--json"]) == 0
    view = lc.read_position("example:midround")
    expected = max((view.deck_count + 1) // 2 - 1, 0)  # to move: half the pile, rounded up, less one
    assert json.loads(capsys.readouterr().out)["draws"] == expected


def test_every_option_of_every_command_has_help_text():
    from lcanalysis.cli.main import build_parser

    def walk(parser, name):
        for action in parser._actions:
            if action.choices and hasattr(action, "_name_parser_map"):  # nested commands
                for sub_name, sub in action.choices.items():
                    if sub_name != "tournament":  # has a parser of its own, checked below
                        yield from walk(sub, f"{name} {sub_name}")
            elif action.option_strings and action.dest != "help":
                yield name, action

    checked = 0
    for name, action in walk(build_parser(), "lcanalysis"):
        assert action.help, f"{name} {action.option_strings[0]} has no help text"
        checked += 1
    assert checked > 30


def test_the_readmes_command_table_lists_every_command():
    import re
    from pathlib import Path

    from lcanalysis.cli.main import build_parser

    sub = next(a for a in build_parser()._actions if hasattr(a, "_name_parser_map"))
    readme = (Path(__file__).resolve().parents[1] / "README.md").read_text()
    listed = set(re.findall(r"^\| `lcanalysis ([a-z-]+)", readme, flags=re.M))
    assert set(sub.choices) - listed == set()  # 'play' was missing


def test_an_opponent_to_move_string_without_a_viewer_says_how_to_fix_it(capsys):
    assert main(["show", "LC1;c5;h8;nr;m1;p0=R7.Bw.B4.G10.Y3.Y5.W8.R9;p1=?8;d=44"]) == 2
    err = capsys.readouterr().err
    assert '"viewer": 0' in err and "v0" in err


def test_a_colour_key_that_is_not_one_letter_names_the_letters(capsys):
    pos = ('{"to_move": 0, "hands": [["R7","Bw","B4","G10","Y3","Y5","W8","R9"], {"count": 8}], "deck": 44,'
           ' "discards": {"YB": []}}')
    assert main(["show", pos]) == 2
    assert "the colour letters are Y B W G R" in capsys.readouterr().err


def test_counts_that_do_not_add_up_remind_to_list_piles_bottom_first(capsys):
    """Cards the table leaves out (a pile written as its top card only): list the piles in full.
    A draw pile counted too high instead (one card discarded, the deck still at 44): that count is
    named, not the piles, whose listing in full could only make it worse."""
    assert main(["show", "LC1;c5;h8;nr;m0;p0=R7.Bw.B4.G10.Y3.Y5.W8.R9;p1=?8;x=G6;d=41"]) == 2
    err = capsys.readouterr().err
    assert "2 card(s) are nowhere" in err and "bottom first" in err
    assert main(["show", "LC1;c5;h8;nr;m0;p0=R7.Bw.B4.G10.Y3.Y5.W8.R9;p1=?8;x=G6;d=44"]) == 2
    err = capsys.readouterr().err
    assert "1 too many: check the draw pile's count" in err and "bottom first" not in err


def test_a_file_whose_content_is_a_path_is_not_followed(tmp_path):
    other = tmp_path / "other.json"
    other.write_text(json.dumps(lc.read_position("example:opening").to_json()))
    pointer = tmp_path / "pointer.txt"
    pointer.write_text(str(other))
    with pytest.raises(lc.PositionError, match="the file's content"):
        lc.read_position(str(pointer))
    with_bom = tmp_path / "bom.json"
    with_bom.write_text("\ufeff" + other.read_text(), encoding="utf-8")
    assert lc.read_position(str(with_bom)) == lc.read_position(str(other))


def test_the_warm_up_finishes_on_a_machine_too_starved_for_any_clock(monkeypatch):
    """The warm-up is the first command after an install: a time budget in one of its steps ran out
    before the first level of the solver on a busy machine (the timer is armed while numba still
    loads the compiled code), and the first command ended in a traceback. Here every clock rings at
    once: each step must still finish, on counts alone."""
    import contextlib

    from lcanalysis.search import common

    @contextlib.contextmanager
    def at_once(deadline, stats):
        if deadline is not None:
            common._ring(stats)
        yield

    monkeypatch.setattr(common, "_timer", at_once)  # every compiled search's clock (common.abort_at)
    for _name, step in warmup.STEPS:
        step()



def test_a_missing_file_and_an_unwritable_picture_are_named(tmp_path, capsys):
    """A newcomer's typo in a file name read "'/tmp/nope.json' is neither a JSON position, ..." and a
    bad --svg folder a bare "[Errno 2] ..."."""
    missing = tmp_path / "nope.json"
    assert main(["show", str(missing)]) == 2
    assert capsys.readouterr().err == (f"lcanalysis show: error: argument position: no such file: {missing} "
                                       "(see lcanalysis show --help)\n")
    with pytest.raises(lc.PositionError, match=r"no such file: games/round1\.json"):
        lc.read_position("games/round1.json")
    with pytest.raises(lc.PositionError, match="neither a JSON position"):  # not a path: what it could be
        lc.read_position("nope")
    for target, says in ((tmp_path / "no" / "x.svg", f": the folder {tmp_path / 'no'} does not exist"),
                         (tmp_path, " is a directory; give a file name")):
        assert main(["show", "example:midround", "--svg", str(target)]) == 2
        err = capsys.readouterr().err
        assert f"lcanalysis show: error: argument --svg: {target}{says}" in err and "Errno" not in err
    assert main(["show", "example:midround", "--svg", str(tmp_path / "ok.svg")]) == 0
    assert (tmp_path / "ok.svg").read_text().startswith("<svg")


_AFTER_THE_WARM_UP = r'''
import contextlib, io, json, os, sys
from pathlib import Path
cache = Path(os.environ["NUMBA_CACHE_DIR"])
import lcanalysis as lc
from lcanalysis.cli import warmup
from lcanalysis.cli.main import main as cli

def files():
    return {str(p.relative_to(cache)) for p in cache.rglob("*") if p.suffix in (".nbi", ".nbc")}

for _, step in warmup.STEPS:
    step()
warmed = files()
endgame = lc.read_position("example:endgame")
calls = [
    ["advise", "example:endgame"], ["advise", "example:midround", "--time", "0.2"],
    ["advise", sys.argv[1], "--top", "2"],
    ["solve", "example:endgame", "--max-stalls", "0"], ["wager", "example:midround", "--color", "G", "--draws", "10"],
    ["show", "example:midround"],
]
with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
    for argv in calls:
        cli(argv)
    lc.solve(endgame, max_stalls=0)
    lc.solve(endgame.view(), max_stalls=0)
    pos = lc.Position.deal(seed=7)
    pos.push(pos.legal_moves()[0])
    pos.pop()
    lc.wager("example:midround", "G", 10)
    lc.evaluate("example:midround")
print(json.dumps({"warmed": len(warmed), "compiled_after": sorted(files() - warmed)}))
'''


@pytest.mark.slow
def test_after_the_warm_up_the_readmes_commands_compile_nothing(tmp_path):
    """A newcomer found the first 'advise example:endgame' silent for 9 s (986 worlds of its 6,000:
    the play-outs of a full position compiled on the clock) and the README's 3-card hint "not
    converged" on first use (the endgame search compiled within its budget), both after the
    warm-up had said the engine was compiled. In a fresh numba cache, the warm-up's steps, then the
    README's commands and library examples, must write no further compiled code."""
    import os
    import re
    from pathlib import Path

    readme = (Path(__file__).resolve().parent.parent / "README.md").read_text()
    three = re.search(r'lcanalysis advise "(LC1;[^"]*;d=3;hist=[^"]*)"', readme).group(1)
    env = dict(os.environ, NUMBA_CACHE_DIR=str(tmp_path), LCANALYSIS_NO_SERVER="1")
    proc = subprocess.run([sys.executable, "-c", _AFTER_THE_WARM_UP, three], capture_output=True, text=True,
                          timeout=1800, check=False, env=env)
    assert proc.returncode == 0, proc.stderr[-2000:]
    result = json.loads(proc.stdout.strip().splitlines()[-1])
    assert result["warmed"] > 100  # the warm-up did compile into the fresh cache
    assert result["compiled_after"] == []


def test_advise_without_a_position_says_which_it_advises(capsys):
    """A newcomer's bare 'lcanalysis advise' answered for a position it never named."""
    assert main(["advise", "--time", "0.05"]) == 0
    out = capsys.readouterr()
    assert "no position given: advising the built-in example:midround" in out.err
    assert main(["advise", "example:midround", "--time", "0.05"]) == 0
    given = capsys.readouterr()
    # the same position, unannounced (the answers themselves fit the wall clock, so may differ)
    assert "no position given" not in given.err and given.out.splitlines()[0] == out.out.splitlines()[0]


def test_lc_solve_on_a_position_in_a_match_says_its_values_are_points_of_the_round(capsys):
    """``lcanalysis solve`` on a position with a match score noted that its values are points of the
    round, not chances to win the match; ``lc.solve`` gave the same values with no note. Its answer
    now carries the command's note, once, for a position and a view alike, and none in a lone round;
    it is still the search's answer (the same values) and still a function that help() and a
    process pool can use."""
    import inspect
    import pickle

    from lcanalysis.match_equity import POINTS_ONLY
    from lcanalysis.search import solve as search_solve

    lone = lc.read_position("example:endgame")
    in_match = dict(lone.to_json(), match={"round": 2, "totals": [35, 10]})
    assert main(["solve", json.dumps(in_match), "--max-stalls", "0", "--json"]) == 0
    said = [n for n in json.loads(capsys.readouterr().out)["notes"] if n.startswith(POINTS_ONLY)]
    assert len(said) == 1 and "points of this round, not chances to win the match" in said[0]
    for target in (in_match, lc.read_position(in_match), lc.read_position(in_match).view()):
        answer = lc.solve(target, max_stalls=0)
        assert [n for n in answer.notes if n.startswith(POINTS_ONLY)] == said
        alone = search_solve(target, max_stalls=0)
        assert [(m.move, m.value) for m in answer.moves] == [(m.move, m.value) for m in alone.moves]
    assert not any(POINTS_ONLY in n for n in lc.solve(lone, max_stalls=0).notes)
    assert not any(POINTS_ONLY in n for n in lc.solve(lone.view(), max_stalls=0).notes)
    assert inspect.signature(lc.solve) == inspect.signature(search_solve)
    assert "points of this round" in lc.solve.__doc__
    assert pickle.loads(pickle.dumps(lc.solve)) is lc.solve


def test_the_warm_up_compiles_the_luck_of_the_draws_and_the_wager_models():
    """The warm-up (and so a first command's compile, which says so) left out the luck of the deck
    draws, which every rollout, tournament and study rates (13 s to compile on a loaded 2-core machine,
    spent in silence inside a rollout's first trial), and the Monte Carlo wager models (4 s). After
    its steps, in a fresh process, their compiled entry points hold machine code (numba's
    ``signatures``: compiled now or loaded from its cache), as the play-outs' do."""
    out = _python("from lcanalysis.cli import warmup\n"
                  "for _, step in warmup.STEPS:\n    step()\n"
                  "from lcanalysis.core import policy\n"
                  "from lcanalysis.tournaments import luck\n"
                  "from lcanalysis.wagers import models, simulation\n"
                  "print([len(f.signatures) > 0 for f in (policy.flat_mc, luck._deck_draw_luck, models._simulate,\n"
                  "                                      simulation.snapshot_round)])")
    assert out == "[True, True, True, True]"  # the wager simulation's bots too (7 s in silence on first use)


def test_the_front_door_s_first_compiled_question_makes_the_engine_ready_as_a_command_does():
    """A fresh install's first ``lc.advise`` (or ``lc.solve``...) compiled for minutes in silence; a
    command said so, with a bar (``warmup.engine_ready``). The front door now asks for the engine
    before the first name that runs compiled code (a file check once it is compiled), not for the
    game's types, and not when the kernel runs as plain Python (``NUMBA_DISABLE_JIT``: nothing to
    compile, and a marker written then would hide the next real compile)."""
    code = ("import os\nfrom lcanalysis.cli import warmup\nasked = []\n"
            "warmup.engine_ready = lambda quiet=False: asked.append(1) or 0.0\n"
            "import lcanalysis as lc\n"
            "lc.Card, lc.Rules, lc.Analysis\nfirst = len(asked)\n"
            "lc.advise, lc.solve, lc.make_agent\nprint(first, len(asked))")
    assert _python(code) == "0 3"
    assert _python("import os\nos.environ['NUMBA_DISABLE_JIT'] = '1'\n" + code.replace("import os\n", "")) == "0 0"


def test_a_compile_whose_steps_reach_the_front_door_does_not_start_another(tmp_path, monkeypatch):
    """The warm-up's steps call ``lcanalysis.advise`` and the rest through the front door, which asks
    for the engine before its first compiled question: while one compile runs, that ask is answered
    at once (no second compile inside the first), and the marker is written once, at the end."""
    import lcanalysis

    marker = tmp_path / "engine-test.ok"
    monkeypatch.setattr(warmup, "_marker", lambda: marker)
    monkeypatch.setattr(warmup, "PACKAGE", tmp_path)  # a first compile clears the package's cache: not ours
    ran = []

    def step():
        ran.append(marker.exists())
        lcanalysis._engine_ready()  # what the front door does before lc.advise's first use
        ran.append(marker.exists())

    monkeypatch.setattr(warmup, "STEPS", [("part one", step), ("part two", step)])
    assert warmup.engine_ready(quiet=True) >= 0 and ran == [False] * 4 and marker.exists()


def test_the_rules_kernels_first_compile_says_so_once_and_the_engines_compile_keeps_its_cache(tmp_path, monkeypatch,
                                                                                               capsys):
    """A fresh install's first ``lc.Position`` compiled the rules kernel for 5-12 s in silence. It now
    says so, with a bar, once (its own marker beside the engine's); the engine's later compile does
    not delete what it compiled (the cache holds these sources' code only) and replaces its marker."""
    marker = tmp_path / "engine-test.ok"
    monkeypatch.setattr(warmup, "_marker", lambda: marker)
    monkeypatch.setattr(warmup, "PACKAGE", tmp_path)  # a first compile clears the package's cache: not ours
    ran, cleaned = [], []
    monkeypatch.setattr(warmup, "RULES_STEPS", [("rules", lambda: ran.append("rules"))])
    monkeypatch.setattr(warmup, "STEPS", [("rules", lambda: ran.append("rules")), ("rest", lambda: ran.append("rest"))])
    monkeypatch.setattr(warmup, "remove_stale_cache", lambda package=None: cleaned.append(1) or 0)
    assert warmup.rules_ready() >= 0 and ran == ["rules"] and cleaned == [1]
    err = capsys.readouterr().err
    assert "compiling the rules kernel, once for this version" in err and "1/1" in err
    assert (tmp_path / "rules-test.ok").exists() and not marker.exists()
    assert warmup.rules_ready() == 0.0 and ran == ["rules"] and capsys.readouterr().err == ""  # never again
    assert warmup.engine_ready() > 0 and ran == ["rules", "rules", "rest"] and cleaned == [1]  # cache kept
    assert "compiling the engine, once" in capsys.readouterr().err
    assert marker.exists() and not (tmp_path / "rules-test.ok").exists()
    assert warmup.rules_ready() == 0.0 and warmup.engine_ready() == 0.0 and capsys.readouterr().err == ""


def test_the_front_door_s_game_types_and_a_program_s_light_command_make_the_rules_kernel_ready():
    """``lc.Position``, ``lc.View``, ``lc.read_position`` (and ``main(['show', ...])`` called by a
    program, whose kernel stays compiled) ask for the rules kernel, not the engine; ``lc.Card`` and
    the like ask for nothing; with ``NUMBA_DISABLE_JIT`` nothing compiles, so nothing is asked; a
    process started as the light command runs plain Python and asks for nothing either."""
    code = ("import io, os, sys, contextlib\nfrom lcanalysis.cli import warmup, main\nasked = []\n"
            "warmup.engine_ready = lambda quiet=False: asked.append('engine') or 0.0\n"
            "warmup.rules_ready = lambda quiet=False: asked.append('rules') or 0.0\n"
            "import lcanalysis as lc\n"
            "lc.Card, lc.Move, lc.Rules, lc.Analysis\nfirst = list(asked)\n"
            "lc.Position, lc.View, lc.read_position\nthen = list(asked)\n"
            "with contextlib.redirect_stdout(io.StringIO()):\n    main(['show', 'example:midround'])\n"
            "print(first, then, asked[len(then):])")
    assert _python(code) == "[] ['rules', 'rules', 'rules'] ['rules']"
    assert _python("import os\nos.environ['NUMBA_DISABLE_JIT'] = '1'\n" + code) == "[] [] []"
    assert _python("import io, sys, contextlib\nfrom lcanalysis.cli import warmup, main\nasked = []\n"
                   "warmup.rules_ready = lambda quiet=False: asked.append('rules') or 0.0\n"
                   "sys.argv = ['lcanalysis', 'show', 'example:midround']\n"
                   "with contextlib.redirect_stdout(io.StringIO()):\n    main()\n"
                   "print(asked, 'numba' in sys.modules)") == "[] False"


def test_with_numba_cache_dir_the_markers_and_the_stale_cache_are_looked_for_there(tmp_path):
    """With ``NUMBA_CACHE_DIR`` set numba caches there, but the markers stayed in the package: a
    fresh cache folder was taken for compiled and the first use compiled in silence, and a new
    version's stale cache was never deleted. Both now follow it: the marker lives in that folder,
    and the files numba wrote there for the package are the ones found (checked against numba's own
    writing, in a fresh process that compiles one kernel function)."""
    code = ("import os\nos.environ['NUMBA_CACHE_DIR'] = {cache!r}\n"
            "from lcanalysis.cli import warmup\n"
            "from lcanalysis.core import kernel\n"
            "kernel.state_size(5)\n"
            "print(warmup._marker().parent, len(warmup.stale_cache_files()))\n"
            "print(sorted(str(p) for p in __import__('pathlib').Path({cache!r}).rglob('*.nb*')) == "
            "sorted(str(p) for p in warmup.stale_cache_files()))")
    out = _python(code.format(cache=str(tmp_path))).splitlines()
    folder, found = out[0].rsplit(" ", 1)
    assert folder == str(tmp_path / "lcanalysis") and int(found) >= 2 and out[1] == "True"


def test_the_compiles_warm_up_calls_say_nothing_but_the_bar(monkeypatch, capsys):
    """Found on a fresh install: while the bar said 'play-outs and the advisor', the warm-up's own
    calls into the advisor took over a second each (they were compiling) and printed their progress
    ('play-outs: 704 so far; leading -W2/G +12.1', 'endgame: 1 stall(s) each: solving') between the
    bar's lines, before the answer to the question asked, which named another turn. The steps run
    here with PROGRESS_DELAY 0, so any progress line they let through would show."""
    import lcanalysis.progress

    monkeypatch.setattr(lcanalysis.progress, "PROGRESS_DELAY", 0.0)
    capsys.readouterr()
    for name, step in warmup.STEPS:
        step()
        assert capsys.readouterr().err == "", name
