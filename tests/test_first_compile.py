"""A first-time compile says so, whichever door it comes in by (``core.first_compile``,
``cli.warmup.part_ready``): a module imported directly asks for its compiled part before its first
compiled call, and the part compiles once, with a notice and a bar, never when it is ready. Tested
through the warm-up's seam (its marker in a temporary folder, its steps replaced): no real compile."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from lcanalysis.cli import warmup
from lcanalysis.core import first_compile


def _python(code: str) -> str:
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300, check=False)
    assert proc.returncode == 0, proc.stderr
    return proc.stdout.strip()


#: a fresh process whose warm-up records what is asked for instead of compiling
_RECORDING = ("import os, sys\nfrom lcanalysis.cli import warmup\nasked = []\n"
              "warmup.part_ready = lambda part, quiet=False: asked.append(part) or 0.0\n"
              "warmup.engine_ready = lambda quiet=False: asked.append('engine') or 0.0\n"
              "def then(what):\n    print(what, asked)\n    asked.clear()\n")

#: each entry a program can call with no front door in between, and the part it runs first (the
#: rules kernel of the position it is handed is asked for before, by the position's own module)
_DIRECT_ENTRIES = (
    "import lcanalysis.game.position as m\npos = m.Position.deal(seed=1)\npos.push(pos.legal_moves()[0])\n"
    "then('position')\nm.Position.deal(seed=2).copy()\nthen('again')\n"
    "from lcanalysis.wagers.canonical import ColorState, mean_score\nstate = ColorState.make(hand=(5, 8))\n"
    "mean_score(state, 3, 0)\nthen('canonical')\n"
    "from lcanalysis.wagers.models import turn_model\nturn_model(state, 3, n=10, progress=False)\n"
    "turn_model(state, 3, n=10, progress=False)\nthen('models')\n"
    "from lcanalysis.wagers.simulation import snapshot_rounds\nsnapshot_rounds(1)\nthen('simulation')\n"
    "from lcanalysis.evaluator import evaluate_view\nevaluate_view(pos.view(pos.to_move))\nthen('evaluator')\n"
    "from lcanalysis.tournaments.luck import turn_luck\n"
    "turn_luck(pos.state, next(t for t in pos.legal_moves() if t.source == 'D'), 0)\nthen('luck')\n"
    "from lcanalysis.agents.policy_agents import HeuristicAgent\nHeuristicAgent().choose(pos.view(pos.to_move))\n"
    "then('heuristic agent')\n"
    "from lcanalysis.rollouts import Rollouts, policy_ranking\nview = pos.view(pos.to_move)\n"
    "Rollouts(view, policy_ranking(view)[0][:2]).sample(2)\nthen('rollouts')\n"
    "from lcanalysis.agents.search_agent import SearchAgent\nSearchAgent(endgame=0)\nthen('search agent')\n"
    "SearchAgent()\nthen('search agent with its endgame')\n")


def test_a_module_used_directly_asks_for_its_compiled_part_once_before_its_first_compiled_call():
    """A fresh install's first ``Position`` built through ``import lcanalysis.game.position`` compiled
    the rules kernel for 4 s in silence (the notice hung on the front door only), the wager models
    3 s, the wager simulation 7 s, the evaluator 2 s, the heuristic agent 10 s, the play-outs 25 s:
    each module now asks for its part before its first compiled call, once a process."""
    lines = _python(_RECORDING + _DIRECT_ENTRIES).splitlines()
    assert lines == [
        "position ['rules engine']",
        "again []",  # once a process
        "canonical []",  # the rules' scoring: part of the rules kernel, asked for already
        "models ['wager models']",
        "simulation ['wager simulation']",
        "evaluator ['hand evaluator']",
        "luck ['luck of the draws']",
        "heuristic agent ['playing policies']",
        "rollouts ['play-outs and the advisor']",
        "search agent []",  # the play-outs, asked for already
        "search agent with its endgame ['exact endgame solver']",
    ]


#: the exact solver's entry points, each called first in turn (the solver's ask forgotten before each)
_SOLVER_ENTRIES = (
    "from lcanalysis.core import first_compile\n"
    "from lcanalysis.game.notation import read_position\n"
    "import lcanalysis.search as S\nfrom lcanalysis.search.belief import solve_belief\n"
    "from lcanalysis.search.deepen import solve_deepening\nfrom lcanalysis.search.endgame import converged_endgame\n"
    "from lcanalysis.search.perfect import solve_perfect\nfrom lcanalysis.search.view_value import solve_view\n"
    "pos = read_position('example:endgame')\nview = pos.view(pos.to_move)\nthen('positions')\n"
    "calls = {'solve': lambda: S.solve(pos, max_stalls=0),\n"
    "         'solve_perfect': lambda: solve_perfect(pos, max_stalls=0),\n"
    "         'solve_view': lambda: solve_view(view, max_stalls=0, samples=2),\n"
    "         'solve_belief': lambda: solve_belief(view, max_turns=1),\n"
    "         'solve_deepening': lambda: solve_deepening(pos, nodes=20_000, max_level=0),\n"
    "         'converged_endgame': lambda: converged_endgame(view, max_nodes=200_000, min_stalls=0, max_stalls=0),\n"
    "         'endgame_analysis': lambda: S.endgame_analysis(view, max_stalls=0, max_nodes=200_000)}\n"
    "for name, call in calls.items():\n"
    "    first_compile.ASKED.discard(first_compile.SOLVER)\n"
    "    call()\n"
    "    then(name)\n")


def test_each_entry_of_the_exact_solver_asks_for_it_before_its_first_compiled_call():
    """``from lcanalysis.search import solve`` and a first solve compiled the solver for 55-106 s in
    silence (only the rules kernel was announced): each of its entry points now asks first."""
    lines = _python(_RECORDING + _SOLVER_ENTRIES).splitlines()
    assert lines[0] == "positions ['rules engine']"
    assert lines[1:] == [f"{name} ['exact endgame solver']" for name in (
        "solve", "solve_perfect", "solve_view", "solve_belief", "solve_deepening", "converged_endgame",
        "endgame_analysis")]


def test_plain_python_and_a_ready_engine_ask_for_no_part():
    """With ``NUMBA_DISABLE_JIT`` nothing compiles, so nothing is asked (a marker written then would
    hide the next real compile); once the whole engine is known ready in a process (a command's
    ``engine_ready``), no part is asked for either: their asks cost nothing."""
    plain = _python("import os\nos.environ['NUMBA_DISABLE_JIT'] = '1'\n" + _RECORDING + _DIRECT_ENTRIES)
    assert len(plain.splitlines()) == 11 and all(line.endswith("[]") for line in plain.splitlines())
    ready = _python(_RECORDING + "from lcanalysis.core import first_compile\nfirst_compile.mark_all_ready()\n"
                    + _DIRECT_ENTRIES)
    assert len(ready.splitlines()) == 11 and all(line.endswith("[]") for line in ready.splitlines())


def test_the_module_asks_name_the_warm_up_s_steps_one_for_one():
    names = [name for name, _ in warmup.STEPS]
    asked = [value for key, value in vars(first_compile).items() if key.isupper() and isinstance(value, str)]
    assert sorted(names) == sorted(asked) and len(set(names)) == len(names)
    assert warmup.STEPS[:1] == warmup.RULES_STEPS and names[0] == warmup.RULES_PART
    with pytest.raises(ValueError, match="no compiled part named 'wager modles'; the parts: rules engine, "):
        warmup.part_ready("wager modles")


@pytest.fixture
def seam(tmp_path, monkeypatch):
    """The warm-up with its marker in ``tmp_path`` (nothing compiled yet for these sources), its
    steps recording their runs, and numba's cache left alone: ``(ran, cleaned, marker)``."""
    marker = tmp_path / "engine-test.ok"
    monkeypatch.setattr(warmup, "_marker", lambda: marker)
    ran: list[str] = []
    cleaned: list[int] = []
    steps = [(name, lambda name=name: ran.append(name)) for name, _ in warmup.STEPS]
    monkeypatch.setattr(warmup, "STEPS", steps)
    monkeypatch.setattr(warmup, "RULES_STEPS", steps[:1])
    monkeypatch.setattr(warmup, "remove_stale_cache", lambda package=None: cleaned.append(1) or 0)
    monkeypatch.setattr(first_compile, "ALL_READY", [False])
    return ran, cleaned, marker


def test_a_part_compiles_alone_once_saying_so_with_a_bar_and_the_engine_s_compile_takes_it_in(seam, capsys):
    ran, cleaned, marker = seam
    assert warmup.part_ready("wager models") >= 0 and ran == ["wager models"] and cleaned == [1]
    err = capsys.readouterr().err
    assert "compiling the wager models, once for this version" in err and "1/1" in err
    assert (marker.parent / "wager-models-test.ok").exists() and not marker.exists()
    assert warmup.part_ready("wager models") == 0.0 and ran == ["wager models"]  # never again: no word
    assert capsys.readouterr().err == ""
    # another part of these sources: numba's cache holds their code only, nothing stale to delete
    assert warmup.part_ready("hand evaluator") >= 0 and ran == ["wager models", "hand evaluator"] and cleaned == [1]
    assert "compiling the hand evaluator, once" in capsys.readouterr().err
    assert warmup.engine_ready() > 0 and cleaned == [1] and len(ran) == 2 + len(warmup.STEPS)
    assert "compiling the engine, once" in capsys.readouterr().err
    assert sorted(p.name for p in marker.parent.glob("*.ok")) == ["engine-test.ok"]  # it vouches for every part
    assert first_compile.ALL_READY == [True]
    for name, _ in warmup.STEPS:  # a warm cache: not a word
        assert warmup.part_ready(name) == 0.0
    assert capsys.readouterr().err == "" and len(ran) == 2 + len(warmup.STEPS)


def test_a_new_version_s_first_part_deletes_the_stale_cache_and_the_old_markers(seam, capsys):
    ran, cleaned, marker = seam
    old = [marker.parent / "engine-old.ok", marker.parent / "wager-models-old.ok"]
    for path in old:
        path.write_text("compiled for other sources\n")
    assert warmup.part_ready("luck of the draws", quiet=True) >= 0 and ran == ["luck of the draws"] and cleaned == [1]
    assert capsys.readouterr().err == ""  # quiet
    assert sorted(p.name for p in marker.parent.glob("*.ok")) == ["luck-of-the-draws-test.ok"]


#: the exact solver's entry points, each with an argument it refuses (a fresh process: nothing of the
#: solver loaded yet), then whether any of the solver's compiled functions was compiled or loaded
_SOLVER_REFUSALS = (
    "from lcanalysis.game.notation import read_position\n"
    "import lcanalysis.search as S\nfrom lcanalysis.search.belief import solve_belief\n"
    "from lcanalysis.search.deepen import solve_deepening\nfrom lcanalysis.search.endgame import converged_endgame\n"
    "from lcanalysis.search.perfect import solve_perfect\nfrom lcanalysis.search.view_value import solve_view\n"
    "pos = read_position('example:endgame')\nview = pos.view(pos.to_move)\nasked.clear()\n"
    "calls = {'solve': lambda: S.solve(pos, max_stalls=-1),\n"
    "         'solve a view': lambda: S.solve(view, max_stalls=0, seed=-1),\n"
    "         'solve_perfect': lambda: solve_perfect(pos, max_stalls=0, leaf='guess'),\n"
    "         'solve_view': lambda: solve_view(view, max_stalls=0, samples=1),\n"
    "         'solve_belief': lambda: solve_belief(view, max_turns=0),\n"
    "         'solve_deepening': lambda: solve_deepening(pos, nodes=0),\n"
    "         'converged_endgame': lambda: converged_endgame(view, max_nodes=200_000, min_stalls=-1),\n"
    "         'endgame_analysis': lambda: S.endgame_analysis(view, max_nodes=-5)}\n"
    "from numba.core.registry import CPUDispatcher\n"
    "def loaded():\n"
    "    return {f'{m}.{k}' for m, mod in list(sys.modules.items()) if m.startswith('lcanalysis.search')\n"
    "            for k, f in vars(mod).items() if isinstance(f, CPUDispatcher) and f.signatures}\n"
    "at_import = loaded()  # (the recursive ones, typed ahead, are made as their module is imported)\n"
    "for name, call in calls.items():\n"
    "    try:\n        call()\n    except S.SearchError:\n        then(name + ' refused')\n"
    "print('solver functions loaded', sorted(loaded() - at_import))\n")


def test_an_entry_of_the_exact_solver_refuses_a_bad_argument_before_it_asks_for_its_compile():
    """On a fresh install ``solve(pos, max_stalls=-1)`` compiled the solver for 1-2 minutes before it
    said that -1 is no stall budget: each entry checks its arguments first, and none of the solver's
    compiled functions runs (or loads) to check them."""
    lines = _python(_RECORDING + _SOLVER_REFUSALS).splitlines()
    assert lines == [f"{name} refused []" for name in (
        "solve", "solve a view", "solve_perfect", "solve_view", "solve_belief", "solve_deepening",
        "converged_endgame", "endgame_analysis")] + ["solver functions loaded []"]


#: the other modules' entries, each with an argument it refuses, in a process where nothing was asked
_OTHER_REFUSALS = (
    "from lcanalysis.game.position import Position\nfrom lcanalysis.game.notation import read_position\n"
    "def refused(name, call):\n    try:\n        call()\n    except (ValueError, TypeError) as exc:\n"
    "        then(name + ' refused')\n    else:\n        then(name + ' ACCEPTED')\n"
    "refused('deal', lambda: Position.deal(seed=1, starter=2))\n"
    "text = read_position('example:endgame').to_json()\ntext['phase'] = 'dance'\n"
    "from lcanalysis.core import first_compile\nfirst_compile.ASKED.clear()\nasked.clear()\n"
    "refused('table', lambda: read_position(text))\n"
    "pos = Position.deal(seed=1)\nasked.clear()\nview = pos.view(pos.to_move)\n"
    "from lcanalysis.wagers.canonical import ColorState, mean_score, score_distribution\n"
    "state = ColorState.make(hand=(5, 8))\n"
    "refused('mean_score', lambda: mean_score(state, 3, 9))\n"
    "refused('score_distribution', lambda: score_distribution(state, 3, 9))\n"
    "from lcanalysis.wagers.models import turn_model\n"
    "refused('turn_model', lambda: turn_model(state, 3, n=0, progress=False))\n"
    "from lcanalysis.evaluator import evaluate_position, evaluate_view\n"
    "refused('evaluate_view', lambda: evaluate_view(view, draws=-1))\n"
    "refused('evaluate_position', lambda: evaluate_position(pos, 2))\n"
    "from lcanalysis.tournaments.luck import turn_luck\n"
    "draw = next(t for t in pos.legal_moves() if t.source == 'D')\n"
    "refused('luck', lambda: turn_luck(pos.state, draw, 0, value='vibes'))\n"
    "from lcanalysis.rollouts import Rollouts\n"
    "refused('rollouts', lambda: Rollouts(view, [0], bias=2.0, hand_model=True))\n")


def test_the_other_entries_refuse_a_bad_argument_before_they_ask_for_their_compile():
    """The rules engine, the wager models, the evaluator, the luck of the draws and the play-outs:
    a bad argument is refused at once, never after its part's first compile."""
    lines = _python(_RECORDING + _OTHER_REFUSALS).splitlines()
    assert lines == [f"{name} refused []" for name in (
        "deal", "table", "mean_score", "score_distribution", "turn_model", "evaluate_view", "evaluate_position",
        "luck", "rollouts")]


def test_the_solver_s_searches_compiled_at_import_say_so_once_and_its_part_keeps_their_cache(seam, capsys):
    """numba compiles a function typed ahead (the solver's recursive searches) as its decorator runs,
    before an entry point can ask (``ready``): ``import lcanalysis.advisor`` on a fresh install waited
    102 s in silence. The import now says so, with a bar, once; the solver's own compile that follows
    keeps what it compiled (the cache held these sources' code only from then on)."""
    ran, cleaned, marker = seam
    solver, module = first_compile.SOLVER, "lcanalysis.search.perfect"
    assert warmup.compiling_at_import(solver, module) and cleaned == [1]
    assert ("compiling the exact endgame solver's searches as lcanalysis.search.perfect is imported, once for "
            "this version" in capsys.readouterr().err)
    assert not warmup.compiling_at_import(solver, module)  # one bar, while it is open
    warmup.compiled_at_import(solver)
    assert "1/1" in capsys.readouterr().err
    assert (marker.parent / "exact-endgame-solver-at-import-test.ok").exists() and not marker.exists()
    assert not warmup.compiling_at_import(solver, module) and capsys.readouterr().err == ""  # then loaded: no word
    assert warmup.part_ready(solver) >= 0 and ran == [solver] and cleaned == [1]  # the rest, cache kept
    assert "compiling the exact endgame solver, once" in capsys.readouterr().err
    assert warmup.engine_ready() > 0 and not (marker.parent / "exact-endgame-solver-at-import-test.ok").exists()
    warmup.compiled_at_import(solver)  # (none open: nothing)
    assert not warmup.compiling_at_import(solver, module)


def test_an_import_says_nothing_when_the_engine_is_compiled_or_the_warm_up_s_bar_shows(seam, capsys):
    ran, cleaned, marker = seam
    solver, module = first_compile.SOLVER, "lcanalysis.search.perfect"
    warmup._COMPILING.set()  # (the warm-up's own steps import the advisor, under its bar)
    try:
        assert not warmup.compiling_at_import(solver, module)
    finally:
        warmup._COMPILING.clear()
    marker.write_text("compiled\n")
    assert not warmup.compiling_at_import(solver, module)
    assert capsys.readouterr().err == "" and cleaned == [] and ran == []


#: a fresh process importing every module of the package, recording each compile at import announced
#: and which functions were compiled (typed ahead) at each point
_IMPORT_ORDER = (
    "import importlib, pkgutil, sys\nimport lcanalysis\nfrom lcanalysis.core import first_compile\n"
    "from numba.core.registry import CPUDispatcher\nseen = []\n"
    "def typed():\n"
    "    return sorted({f'{f.py_func.__module__}.{f.py_func.__name__}' for m, mod in list(sys.modules.items())\n"
    "                   if m.startswith('lcanalysis') for f in list(vars(mod).values())\n"
    "                   if isinstance(f, CPUDispatcher) and f.signatures})\n"
    "first_compile.compiling_at_import = lambda part, module: seen.append(['compiling', part, module, typed()])\n"
    "first_compile.compiled_at_import = lambda part: seen.append(['compiled', part, typed()])\n"
    "for info in pkgutil.walk_packages(lcanalysis.__path__, 'lcanalysis.'):\n"
    "    if not info.name.endswith('__main__'):  # (runs the command line)\n"
    "        importlib.import_module(info.name)\n"
    "import json\nprint(json.dumps(seen))\nprint(json.dumps(typed()))\n")


def test_every_function_compiled_at_import_is_announced_before_it_compiles():
    """Every function of the package that numba compiles as its module is imported lies between the
    solver's notice and its end: one typed ahead anywhere else would compile in silence again."""
    seen, typed = (json.loads(line) for line in _python(_IMPORT_ORDER).splitlines())
    searches = ["lcanalysis.search.perfect._search", "lcanalysis.search.perfect._solo"]
    assert seen == [["compiling", first_compile.SOLVER, "lcanalysis.search.perfect", []],
                    ["compiled", first_compile.SOLVER, searches]]
    assert typed == searches  # importing all the rest compiled nothing


@pytest.mark.slow
def test_a_fresh_cache_s_first_import_of_the_solver_says_it_compiles_and_the_next_loads_in_silence(tmp_path):
    """End to end, with numba's cache (and so the markers) in an empty folder: a real compile."""
    env = dict(__import__("os").environ, NUMBA_CACHE_DIR=str(tmp_path))
    env.pop("NUMBA_DISABLE_JIT", None)
    runs = [subprocess.run([sys.executable, "-c", "import lcanalysis.search.perfect"], capture_output=True,
                           text=True, timeout=900, env=env, check=True) for _ in range(2)]
    assert ("compiling the exact endgame solver's searches as lcanalysis.search.perfect is imported"
            in runs[0].stderr and "1/1" in runs[0].stderr)
    assert runs[1].stderr == ""
    assert list((tmp_path / "lcanalysis").glob("exact-endgame-solver-at-import-*.ok"))


def test_plain_python_and_a_ready_engine_ask_nothing_at_the_solver_s_import():
    """With ``NUMBA_DISABLE_JIT`` nothing compiles; once a command's ``engine_ready`` found the engine
    compiled, nothing need be checked: the import asks the warm-up nothing (0.1-0.4 s of hashing
    the sources), while in a process that knows nothing it asks once."""
    code = ("from lcanalysis.cli import warmup\nasked = []\n"
            "warmup.compiling_at_import = lambda part, module, quiet=False: asked.append(part) or False\n"
            "{setup}import lcanalysis.search.perfect\nprint(asked)\n")
    plain = "import os\nos.environ['NUMBA_DISABLE_JIT'] = '1'\n"
    ready = "from lcanalysis.core import first_compile\nfirst_compile.mark_all_ready()\n"
    asked = [_python(code.format(setup=setup)) for setup in (plain, ready, "")]
    assert asked == ["[]", "[]", "['exact endgame solver']"]


def test_a_bad_turn_of_advise_is_refused_before_the_solver_is_imported():
    """``advise`` reads its position and its turns before the engine is made ready; reading them
    imported the advisor's package, and with it the solver, whose searches compile as it is
    imported: on a fresh install a bad --turn waited for them, and the first hint said two notices."""
    code = ("import contextlib, io, sys\nfrom lcanalysis.cli.main import main\n"
            "with contextlib.redirect_stderr(io.StringIO()) as err:\n"
            "    code = main(['advise', 'example:midround', '--turn', '+X9/D'])\n"
            "print(code, 'error: argument --turn: move ' in err.getvalue(),\n"
            "      sorted(m for m in sys.modules if m.startswith(('lcanalysis.search', 'lcanalysis.advisor'))))\n")
    assert _python(code) == "2 True []"
