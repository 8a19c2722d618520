"""Every request for work has a bound: ``solve`` and ``advise`` (and the library's ``solve``,
``solve_perfect``, ``solve_view`` and ``advise``) stop at a node budget, run under a memory
ceiling, and refuse absurd budgets naming the option. A run out of budget or memory is a clean
``error: ...`` with exit status 2; runs that change the process's memory limit run in a
subprocess of their own."""

from __future__ import annotations

import json
import re
import subprocess
import sys

import pytest
from helpers import played_down

from lcanalysis.cli import main
from lcanalysis.cli.common import DEFAULT_MAX_NODES, MAX_NODES
from lcanalysis.game.notation import read_position
from lcanalysis.search import (
    SearchBudgetExceeded,
    SearchError,
    bracket,
    solve,
    solve_belief,
    solve_deepening,
    solve_perfect,
    solve_view,
)
from lcanalysis.search import common as search_common

ENDGAME = "example:endgame"  # a full position, 5 cards left: 1,040 nodes at stall budget 0


def _cli(capsys, *args):
    code = main(list(args))
    out = capsys.readouterr()
    return code, out.out, out.err


def _sub(*args, timeout=300):
    return subprocess.run([sys.executable, "-m", "lcanalysis", *args], capture_output=True, text=True,
                          timeout=timeout, check=False)


def _endgame_view() -> str:
    return read_position(ENDGAME).view().to_string()


def _two_cards_left() -> str:
    """A full position with 2 cards in the draw pile: the advisor hands it to the exact solver."""
    return played_down(15, 2).to_string()


# --- the node budget ------------------------------------------------------------------------


def test_solve_stops_at_its_node_budget_with_a_clean_error(capsys):
    code, out, err = _cli(capsys, "solve", ENDGAME, "--max-stalls", "0", "--max-nodes", "100", "--json")
    assert code == 2 and out == ""
    assert err.startswith("error: the node budget ran out") and "--max-nodes is 100" in err
    assert "give a larger --max-nodes" in err and "Traceback" not in err
    code, out, _ = _cli(capsys, "solve", ENDGAME, "--max-stalls", "0", "--max-nodes", "100000", "--json")
    answer = json.loads(out)
    assert code == 0 and answer["exact"] and answer["nodes"] <= 100_000


def test_a_view_solve_and_its_threads_keep_the_node_budget(capsys):
    for workers in ("1", "2"):
        code, _, err = _cli(capsys, "solve", _endgame_view(), "--max-stalls", "0", "--max-nodes", "500",
                            "--workers", workers)
        assert code == 2 and "the node budget ran out" in err and "--max-nodes is 500" in err


def test_solve_with_a_time_budget_answers_with_the_deepest_level_within_the_node_budget(capsys):
    code, out, err = _cli(capsys, "solve", ENDGAME, "--time", "600", "--max-nodes", "2000", "--json")
    answer = json.loads(out)
    assert code == 0 and answer["bounds"]["max_stalls"] == 0  # stalls=0 takes 1,040 nodes, stalls=1 many more
    assert any("stalls=1: stopped by the budget" in note for note in answer["notes"])
    # the nodes are every node searched: the finished level's and the stopped one's, within the budget
    levels = [int(re.search(r"(\d+) nodes", note).group(1)) for note in answer["notes"] if note.startswith("stalls=")]
    assert len(levels) == 2 and answer["nodes"] == sum(levels) <= 2000 and levels[1] > 0
    code, _, err = _cli(capsys, "solve", ENDGAME, "--time", "600", "--max-nodes", "10")
    assert code == 2 and "the node budget ran out" in err  # not even the first level: no answer


def test_advise_bounds_the_exact_endgame_solver_by_nodes(capsys):
    pos = _two_cards_left()
    code, _, err = _cli(capsys, "advise", pos, "--max-nodes", "5")
    assert code == 2 and "endgame solver ran out" in err and "--max-nodes is 5" in err
    code, out, _ = _cli(capsys, "advise", pos, "--json")
    assert code == 0 and json.loads(out)["exact"]


def test_the_library_solvers_stop_at_max_nodes_and_refuse_a_bad_one():
    pos = played_down(5, 3)
    for call in (lambda n: solve(pos, max_stalls=2, max_nodes=n), lambda n: solve_perfect(pos, 2, max_nodes=n),
                 lambda n: solve_view(pos.view(), 1, max_nodes=n), lambda n: solve(pos.view(), 1, max_nodes=n)):
        with pytest.raises(SearchBudgetExceeded) as exc:
            call(50)
        assert exc.value.nodes == 50  # stopped at the budget, not one node past it
        for bad in (-1, 1.5, "100", True, MAX_NODES + 1):
            with pytest.raises(SearchError, match="max_nodes must be"):
                call(bad)
    assert solve(pos, max_stalls=0, max_nodes=10**6).exact
    with pytest.raises(SearchBudgetExceeded):  # the first level of deepening is bounded too
        solve_deepening(pos, nodes=5)


def test_deepening_refuses_a_progress_that_is_no_function_and_a_bracket_switch_that_is_no_switch():
    """``progress=3`` was Python's "'int' object is not callable" once the first level started, and
    ``with_bracket="no"`` spent what was left of the budget on the bracket, as if asked for it."""
    pos = played_down(5, 3)
    with pytest.raises(SearchError, match=r"progress must be a function taking a line of text \(print .*\), got 3"):
        solve_deepening(pos, nodes=10**5, progress=3)
    for bad in ("no", 2, None):  # (1 and 0 are switches, as everywhere: options.check_flag)
        with pytest.raises(SearchError, match=f"with_bracket must be True or False, got {bad!r}"):
            solve_deepening(pos, nodes=10**5, with_bracket=bad)


def test_the_belief_solver_refuses_a_bad_node_budget_as_the_others_do():
    """``solve_belief(view, max_nodes=-1)`` and ``max_nodes="100"`` searched with no budget at all, and
    1.5 or True with a budget of one node ("node budget exhausted after 1 nodes")."""
    view = played_down(5, 3).view()
    for bad in (-1, 1.5, "100", True, MAX_NODES + 1):
        with pytest.raises(SearchError, match="max_nodes must be"):
            solve_belief(view, max_nodes=bad)
    assert solve_belief(view, max_nodes=None).exact and solve_belief(view, max_nodes=10**6).exact
    with pytest.raises(SearchBudgetExceeded) as exc:
        solve_belief(view, max_nodes=5)
    assert exc.value.nodes == 5


def test_the_library_solvers_stop_by_the_clock_inside_the_search():
    """``seconds``: the compiled search is stopped where it stands (``common.abort_at``). Two stalls
    each on a 4-card view, or four each on this full position (three each took more than 266 M
    nodes), need far more than the node budgets here allow, so only the clock can end these
    searches early: they end unfinished with a tenth of their node budget at most; a finished
    search is unchanged by a clock it beats."""
    pos = played_down(2, 4)
    for call in (lambda **kw: solve_perfect(pos, stalls=(4, 4), **kw),
                 lambda **kw: solve_view(pos.view(pos.to_move), 2, **kw),
                 lambda **kw: solve_view(pos.view(pos.to_move), 2, workers=2, **kw)):
        with pytest.raises(SearchBudgetExceeded, match=r"the 0\.2 s given ran out after") as exc:
            call(max_nodes=300_000_000, seconds=0.2)
        assert exc.value.nodes < 30_000_000  # (0 when the clock ran out while the engine was still loading)
        assert exc.value.seconds == 0.2
        with pytest.raises(SearchBudgetExceeded, match="node budget exhausted") as exc:
            call(max_nodes=50, seconds=600)  # the node budget runs out first: the error says which
        assert exc.value.seconds is None
        for bad in (0, -1.0, float("nan"), float("inf"), "1", True, 1e30, 86_401):  # 1e30 overflowed the timer
            with pytest.raises(SearchError, match=r"seconds must be a number of seconds above 0 and at most 86,400"):
                call(seconds=bad)
    for deepen in (lambda: solve_deepening(pos, seconds=1e30), lambda: bracket(pos, seconds=1e12)):
        with pytest.raises(SearchError, match="at most 86,400"):
            deepen()
    quick = played_down(5, 3)
    assert solve_perfect(quick, 1, seconds=600).moves == solve_perfect(quick, 1).moves


def test_a_time_budget_given_as_a_numpy_number_stops_the_search_by_the_clock(capsys):
    """``seconds=np.float32(0.2)`` passed the check and reached the clock's timer thread unconverted,
    which failed there ("'numpy.float32' object cannot be interpreted as an integer", a traceback on
    standard error): the search ran on to its node budget, 36 s for a 0.5 s budget on
    example:midround. The same searches as above, each stopped by the clock as with a float."""
    import numpy as np

    pos = played_down(2, 4)
    for call in (lambda **kw: solve(pos, max_stalls=4, **kw),
                 lambda **kw: solve_perfect(pos, stalls=(4, 4), **kw),
                 lambda **kw: solve(pos.view(pos.to_move), max_stalls=2, **kw),
                 lambda **kw: solve_view(pos.view(pos.to_move), 2, workers=2, **kw)):
        for seconds in (np.float32(0.2), np.float64(0.2), np.int64(1)):
            with pytest.raises(SearchBudgetExceeded, match=r"the [0-9.]+ s given ran out after") as exc:
                call(max_nodes=300_000_000, seconds=seconds)
            assert exc.value.nodes < 30_000_000 and exc.value.seconds == pytest.approx(float(seconds))
    assert "Traceback" not in capsys.readouterr().err


def test_deepening_on_the_clock_stops_a_deeper_level_in_the_middle():
    """``solve_deepening(seconds=...)``: the first level runs to its end; a deeper level still running
    when the time is up is stopped inside the search (before, its node count was guessed from the
    speed so far), and the answer is the deepest level finished."""
    import time

    pos = played_down(4, 4)
    t0 = time.perf_counter()
    a = solve_deepening(pos, seconds=1.0, max_level=30, with_bracket=False)
    assert time.perf_counter() - t0 < 30  # a safety net against a search that ignores the clock, not a measurement
    reached = a.bounds["max_stalls"]
    assert any(f"stalls={reached + 1}: stopped by the budget" in note for note in a.notes)
    assert a.moves == solve_perfect(pos, reached).moves
    # the first level is kept to the clock too: 14 cards at stall budget 0 take about 3.8 M nodes
    with pytest.raises(SearchBudgetExceeded, match=r"the 0\.05 s given ran out") as exc:
        solve_deepening(played_down(0, 14), seconds=0.05)
    assert exc.value.nodes < 1_000_000 and exc.value.seconds == 0.05


def test_solve_time_too_short_for_the_first_level_is_a_clean_error(capsys):
    code, out, err = _cli(capsys, "solve", played_down(0, 14).to_string(), "--time", "0.05")
    assert code == 2 and out == "" and "Traceback" not in err
    assert "error: the time ran out before even the first level finished" in err and "in --time 0.05;" in err


def test_solve_time_too_short_far_from_the_end_points_to_the_hint_not_to_a_longer_time(capsys):
    """Found by a newcomer: 'solve example:midround --time 5' (22 cards left) said only "give a longer
    --time", which no time would satisfy. Past the benchmarks' reach of the first level (docs/endgame.md,
    "Measured": 11 cards for a full position, 8 for a view, within 10 s) the error says so and names the hint."""
    from lcanalysis.cli.solve import time_too_short

    code, out, err = _cli(capsys, "solve", "example:midround", "--time", "0.05")
    assert code == 2 and out == "" and "in --time 0.05; with 22 cards in the draw pile" in err
    assert "of a view finished within 10 s on the benchmarks only up to 8 cards" in err
    assert "For a hint now: 'lcanalysis advise POSITION'" in err
    full_12, full_11 = played_down(0, 12), played_down(0, 11)
    assert "of a full position finished within 10 s on the benchmarks only up to 11 cards" in time_too_short(
        full_12, 1000, 0.05, None)
    assert time_too_short(full_11, 1000, 0.05, None).endswith("; give a longer --time")
    assert time_too_short(full_11.view(0), 1000, 0.05, None).endswith("up to 8 cards (docs/endgame.md, \"Measured\"). "
                                                                      "For a hint now: 'lcanalysis advise POSITION'; "
                                                                      "for a horizon instead: --max-turns T")
    assert time_too_short(full_12, 1000, 0.05, 3).endswith("; give a longer --time")  # a horizon bounds the depth


def test_the_default_node_budget_is_stated_in_the_help(capsys):
    for command in ("solve", "advise"):
        with pytest.raises(SystemExit):
            main([command, "--help"])
        text = " ".join(capsys.readouterr().out.split())
        assert f"default {DEFAULT_MAX_NODES:,}" in text and "--max-memory GB" in text
    assert MAX_NODES == search_common.MAX_NODES  # the command line's largest budget is the search's


@pytest.mark.parametrize("command", ["solve", "advise"])
@pytest.mark.parametrize(("option", "value"), [
    ("--max-nodes", "0"), ("--max-nodes", "-5"), ("--max-nodes", "nan"), ("--max-nodes", "inf"),
    ("--max-nodes", "1e30"), ("--max-nodes", "2.5"), ("--max-nodes", "lots"),
    ("--max-memory", "0"), ("--max-memory", "-1"), ("--max-memory", "nan"), ("--max-memory", "inf"),
    ("--max-memory", "1e9"), ("--max-memory", "big"),
])
def test_absurd_budgets_are_refused_naming_the_option(capsys, command, option, value):
    with pytest.raises(SystemExit) as exc:
        main([command, ENDGAME, f"{option}={value}"])
    err = capsys.readouterr().err
    assert exc.value.code == 2 and f"error: argument {option}: {option} must be" in err and value in err


# --- the memory ceiling (subprocesses: the limit is the process's) -----------------------------------


def test_a_memory_ceiling_below_what_the_command_uses_is_refused_up_front():
    proc = _sub("solve", ENDGAME, "--max-stalls", "0", "--max-memory", "0.05")
    assert proc.returncode == 2 and proc.stdout == "" and "Traceback" not in proc.stderr
    assert proc.stderr.startswith("lcanalysis solve: error: argument --max-memory: 0.05 GB is less than this command "
                                  "needs"), proc.stderr
    assert re.search(r"give --max-memory [0-9.]+ or more", proc.stderr)


def test_an_allocation_over_the_memory_ceiling_is_a_clean_error():
    """100,000 sampled splits hold 100,000 rows of values (about 680 MB): over a ceiling just above
    what the command needs to start, the allocation fails and the command says so."""
    least = float(re.search(r"give --max-memory ([0-9.]+) or more",
                            _sub("solve", ENDGAME, "--max-memory", "0.05").stderr).group(1))
    ceiling = f"{least + 0.1:.2f}"
    proc = _sub("solve", _endgame_view(), "--max-stalls", "0", "--samples", "100000", "--max-memory", ceiling)
    assert proc.returncode == 2 and proc.stdout == "" and "Traceback" not in proc.stderr
    assert f"error: out of memory: the command reached its memory ceiling of {float(ceiling):.3g} GB" in proc.stderr
    assert "give a larger --max-memory" in proc.stderr
    proc = _sub("solve", _endgame_view(), "--max-stalls", "0", "--samples", "200", "--max-memory", ceiling)
    assert proc.returncode == 0, proc.stderr  # the same ceiling holds a smaller request


def test_search_tables_that_cannot_fit_under_the_limit_are_refused_before_they_are_made():
    script = (
        "import resource\n"
        "from lcanalysis.search import SearchError, Tables\n"
        "from lcanalysis.search.common import address_space\n"
        "_, used = address_space()\n"
        "resource.setrlimit(resource.RLIMIT_AS, (used + (300 << 20), resource.RLIM_INFINITY))\n"
        "Tables(bits=20)  # 32 MB: fits\n"
        "try:\n"
        "    Tables(bits=26)  # 2 GB\n"
        "except SearchError as exc:\n"
        "    print(exc)\n"
    )
    proc = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=120, check=False)
    assert proc.returncode == 0 and "Traceback" not in proc.stderr, proc.stderr
    assert "the search's transposition tables need 2,050 MB" in proc.stdout
    assert "raise the ceiling" in proc.stdout and "--max-memory" in proc.stdout


_INTERRUPTED = r'''
import os, signal, sys, threading, time
signal.signal(signal.SIGINT, signal.default_int_handler)  # as at a terminal: a test worker may ignore Ctrl-C
sys.path.insert(0, sys.argv[1])
from helpers import played_down
from lcanalysis.search import SearchBudgetExceeded, solve_perfect, solve_view
from lcanalysis.search.perfect import Tables

def interrupted(run):
    """Ctrl-C (SIGINT to this process) after 1.5 s of ``run``; the seconds until it left, or None."""
    timer = threading.Timer(1.5, os.kill, (os.getpid(), signal.SIGINT))
    timer.start()
    t0 = time.perf_counter()
    try:
        run()
    except KeyboardInterrupt:
        return time.perf_counter() - t0 - 1.5
    except SearchBudgetExceeded:  # not stopped: the node budget (about a minute) ended it instead
        pass
    timer.cancel()
    return None

tables = Tables(18, 16)
big = played_down(0, 14)
perfect = interrupted(lambda: solve_perfect(big, max_stalls=2, tables=tables, max_nodes=60_000_000))
left_in_tables = int(tables.tt[:, 3].any() or tables.so[:, 3].any())
view = interrupted(lambda: solve_view(big.view(big.to_move), max_stalls=1, workers=2, samples=64,
                                     max_nodes=60_000_000))
# the Ctrl-C watcher lives as long as the process; a view solver's worker must not
print(perfect, left_in_tables, view, sum(t.name != "search-interrupt" for t in threading.enumerate()))
'''


def test_ctrl_c_stops_the_compiled_searches_and_clears_their_tables():
    """Python runs its Ctrl-C handler only between bytecodes in the main thread, never inside
    compiled code: a long exact solve ran on to its end (minutes) after Ctrl-C, in the library and
    on the command line. Now the search stops where it stands, its tables are cleared (it may have
    stored bounds it did not finish proving) and ``KeyboardInterrupt`` is raised; the view solver's
    worker threads stop too."""
    from pathlib import Path

    proc = subprocess.run([sys.executable, "-c", _INTERRUPTED, str(Path(__file__).parent)], capture_output=True,
                          text=True, timeout=600, check=False)
    assert proc.returncode == 0, proc.stderr[-2000:]
    perfect, left_in_tables, view, threads = proc.stdout.split()
    assert perfect != "None" and float(perfect) < 5, proc.stdout  # stopped, not run to its end
    assert left_in_tables == "0"
    assert view != "None" and float(view) < 5, proc.stdout
    assert threads == "1"  # no worker thread searches on


def test_ctrl_c_stops_a_long_solve_on_the_command_line():
    import os
    import signal
    import time

    env = dict(os.environ, LCANALYSIS_NO_SERVER="1")
    # as at a terminal: a background job of a script (which this test may be) ignores Ctrl-C
    proc = subprocess.Popen([sys.executable, "-m", "lcanalysis", "solve", "example:opening", "--max-stalls", "0"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env,
                            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))  # noqa: PLW1509
    assert proc.stderr is not None
    line = proc.stderr.readline()  # the heartbeat: the search has started
    while "so far" not in line and line:
        line = proc.stderr.readline()
    t0 = time.monotonic()
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=60)
    assert proc.returncode == 130
    assert time.monotonic() - t0 < 10
    # it ended with no word: now one line says it was stopped and that nothing is kept
    assert out == "" and err.splitlines()[-1].startswith("stopped (Ctrl-C): ") and "nothing is kept" in err
    assert "Traceback" not in err


def test_a_command_run_in_this_process_counts_the_nodes_of_a_fresh_one(capsys):
    """The solver keeps small tables between calls; a command run by main() in a process that has
    solved the same position already (a program, a test, the shell, the server) used to find it
    there, and a --max-nodes 100 solve that must run out then finished, as seen in the test suite
    when another test had solved example:endgame first."""
    import lcanalysis as lc

    _, first, _ = _cli(capsys, "solve", ENDGAME, "--max-stalls", "0", "--json")
    lc.solve(ENDGAME, max_stalls=0)  # the library's call leaves its entries in the shared tables
    _, again, _ = _cli(capsys, "solve", ENDGAME, "--max-stalls", "0", "--json")
    assert json.loads(first)["nodes"] == json.loads(again)["nodes"] > 100
    code, out, err = _cli(capsys, "solve", ENDGAME, "--max-stalls", "0", "--max-nodes", "100", "--json")
    assert code == 2 and out == "" and err.startswith("error: the node budget ran out")


def _flagged_within(stats, seconds):
    """Whether the search's abort flag is raised within ``seconds`` (a safety net, not a measurement)."""
    import time

    end = time.monotonic() + seconds
    while not stats[search_common.ABORT] and time.monotonic() < end:
        time.sleep(0.001)
    return bool(stats[search_common.ABORT])


def test_a_search_s_deadline_is_rung_by_one_clock_thread_not_a_thread_a_search(monkeypatch):
    """Every compiled search with a deadline started a timer thread of its own and joined it at the
    end: two waits for the scheduler outside any deadline (up to 0.12 s with 7 busy processes on 2
    cores; a two-card endgame solve makes several such searches). One clock thread now rings them
    all: no thread is started for a search once it runs; an alarm still rings at its deadline,
    marked as the clock's; and a search that ended first is never flagged later."""
    import threading
    import time

    import numpy as np

    started = []
    start = threading.Thread.start
    monkeypatch.setattr(threading.Thread, "start", lambda self: started.append(self.name) or start(self))
    early, rung = np.zeros(8, np.int64), np.zeros(8, np.int64)
    with search_common.abort_at(time.perf_counter() + 3600, np.zeros(8, np.int64)):
        pass  # (the clock thread starts here if no search has needed it yet)
    started.clear()
    now = time.perf_counter()
    with search_common.abort_at(now + 1.0, early):
        pass  # ends long before its deadline
    with search_common.abort_at(now + 1.1, rung):
        assert _flagged_within(rung, 60)  # rung at its deadline (the clock rings in deadline order)
    assert rung[search_common.CLOCK] == 1 and time.perf_counter() >= now + 1.1
    assert not early.any()  # cancelled: no late flag
    assert started == []


def _child_rings(queue):
    import time

    import numpy as np

    stats = np.zeros(8, np.int64)
    with search_common.abort_at(time.perf_counter() + 0.05, stats):
        queue.put(_flagged_within(stats, 30))


def test_a_forked_child_s_searches_keep_their_deadlines_too():
    """A forked child (the server's commands) inherits no thread: the clock thread of its parent
    does not ring its alarms (and the clock's lock may have been held at the fork), so it starts
    its own."""
    import multiprocessing
    import time

    import numpy as np

    with search_common.abort_at(time.perf_counter() + 3600, np.zeros(8, np.int64)):
        pass  # the parent's clock runs
    context = multiprocessing.get_context("fork")
    queue = context.Queue()
    child = context.Process(target=_child_rings, args=(queue,), daemon=True)
    child.start()
    try:
        assert queue.get(timeout=120) is True
    finally:
        child.join(30)
        if child.is_alive():  # stuck: not left for the interpreter's exit to wait on
            child.kill()
            child.join()
