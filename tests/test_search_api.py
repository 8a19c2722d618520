"""Bad input gets a clear error from the library and the command line; the CLI's JSON answer;
the searcher with the JIT off."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from helpers import played_down
from test_search_perfect import tiny_position

from lcanalysis.cli import main
from lcanalysis.cli.solve import solve_json
from lcanalysis.game.notation import read_position
from lcanalysis.game.position import Position, PositionError
from lcanalysis.search import SearchBudgetExceeded, SearchError, solve, solve_belief, solve_perfect, solve_view


@pytest.fixture(scope="module")
def pos():
    return played_down(7, 3)


@pytest.mark.parametrize(
    "kwargs,message",
    [
        ({}, "no bound"),
        ({"max_stalls": -1}, "max_stalls must be at least 0"),
        ({"max_stalls": 1.5}, "max_stalls must be a whole number"),
        ({"max_stalls": True}, "max_stalls must be a whole number"),
        ({"max_turns": 0}, "max_turns must be at least 1"),
        ({"max_turns": -3, "max_stalls": 1}, "max_turns must be at least 1"),
        ({"max_stalls": 0, "leaf": "guess"}, "leaf must be"),
        ({"max_stalls": 0, "leaf": "heuristic"}, "give max_turns"),
        ({"max_stalls": 99}, "max_stalls must be at most"),
    ],
)
def test_bad_bounds_are_refused_with_the_reason(pos, kwargs, message):
    with pytest.raises(SearchError, match=message):
        solve(pos, **kwargs)
    with pytest.raises(SearchError, match=message):
        solve(pos.view(), **kwargs)


@pytest.mark.parametrize("kwargs,message", [
    ({"samples": 5, "seed": -1}, "seed must be a whole number from 0 to 2**63 - 1, got -1"),
    ({"samples": 5, "seed": float("nan")}, "seed must be a whole number from 0 to 2**63 - 1, got nan"),
    ({"samples": 5, "seed": "x"}, "seed must be a whole number from 0 to 2**63 - 1, got 'x'"),
    ({"samples": 5, "seed": 2**63}, "seed must be a whole number from 0 to 2**63 - 1, got 9223372036854775808"),
    ({"max_splits": 0}, "max_splits must be a whole number of splits from 1"),
    ({"max_splits": -1}, "max_splits must be a whole number of splits from 1"),
    ({"max_splits": float("nan")}, "max_splits must be a whole number of splits from 1"),
    ({"tables": "x"}, "tables must be a search.Tables"),
])
def test_a_views_sampling_arguments_are_checked(kwargs, message):
    """``seed=-1`` gave numpy's "expected non-negative integer", ``max_splits=0`` sampled 400
    worlds without a word, ``tables='x'`` an AttributeError: each is now refused by name, with
    buried pile cards too (whose fills also get the seed now)."""
    from test_buried import _remembered

    from lcanalysis.game.notation import read_view

    view = played_down(4, 2).view()
    buried_view = read_view(_remembered(played_down(11, 2))[0])
    assert buried_view.buried_count > 0
    for target in (view, buried_view):
        with pytest.raises(SearchError, match=re.escape(message)):
            solve(target, max_stalls=0, **kwargs)


@pytest.mark.parametrize("kwargs,message", [
    ({"seed": -1}, "seed must be a whole number from 0 to 2**63 - 1, got -1"),
    ({"seed": "x"}, "seed must be a whole number from 0 to 2**63 - 1, got 'x'"),
    ({"max_splits": 0}, "max_splits must be a whole number of splits from 1"),
    ({"max_splits": "x"}, "max_splits must be a whole number of splits from 1"),
])
def test_a_views_arguments_given_with_a_full_position_are_checked_too(kwargs, message):
    """A full position has nothing to split, so ``seed`` and ``max_splits`` are not used there; a bad
    one (``seed=-1``, ``max_splits='x'``) was answered without a word, as if it were fine. It is a
    mistake all the same, refused by name; a good one still gives the full position's answer."""
    full = played_down(4, 2)
    with pytest.raises(SearchError, match=re.escape(message)):
        solve(full, max_stalls=0, **kwargs)
    plain = solve(full, max_stalls=0)
    given = solve(full, max_stalls=0, seed=5, max_splits=3)
    assert given.exact and [(m.move, m.value) for m in given.moves] == [(m.move, m.value) for m in plain.moves]


def test_samples_may_be_a_numpy_whole_number_as_elsewhere_in_the_library():
    """``samples=np.int64(10)`` (from ``np.arange``, a slider, a data frame) was refused: 'samples must
    be a whole number'. It is the same question as ``samples=10``, with buried pile cards too; a
    numpy float is still refused."""
    import numpy as np
    from test_buried import _remembered

    from lcanalysis.game.notation import read_view

    view = played_down(4, 2).view()
    buried_view = read_view(_remembered(played_down(11, 2))[0])
    for target in (view, buried_view):
        plain = solve(target, max_stalls=0, samples=10, seed=1)
        numpy = solve(target, max_stalls=0, samples=np.int64(10), seed=1)
        assert numpy.splits == plain.splits == 10 and not numpy.exact
        assert [(m.move, m.value, m.stderr) for m in numpy.moves] == [(m.move, m.value, m.stderr) for m in plain.moves]
        refused = "samples must be a whole number 2..100,000, got "
        with pytest.raises(SearchError, match=re.escape(refused + "np.float64(10.0)")):
            solve(target, max_stalls=0, samples=np.float64(10))
        with pytest.raises(SearchError, match=re.escape(refused + "True")):
            solve(target, max_stalls=0, samples=True)


def test_the_seed_reaches_the_sampled_splits_of_a_buried_views_fills():
    """A fill with more than ``max_splits`` splits is sampled; its seed used to be dropped (always 0)."""
    from test_buried import _remembered

    from lcanalysis.game.notation import read_view

    view = read_view(_remembered(played_down(11, 2))[0])
    first, again, other = (solve(view, max_stalls=0, max_splits=10, seed=s) for s in (1, 1, 2))
    assert not first.exact and "sampled" in first.method
    assert [m.value for m in first.moves] == [m.value for m in again.moves]
    assert [m.value for m in first.moves] != [m.value for m in other.moves]


def test_a_finished_round_is_refused():
    over = tiny_position([["R9"], ["B3"]], [["R8"], []], [])
    for call in (lambda: solve(over, max_stalls=0), lambda: solve_belief(over)):
        with pytest.raises(SearchError, match="round is over"):
            call()


def test_other_refusals(pos):
    with pytest.raises(SearchError, match="samples applies to a player's view"):
        solve(pos, max_stalls=0, samples=10)
    with pytest.raises(SearchError, match=r"not to move|is to move"):
        solve_view(pos.view(1 - pos.to_move), max_stalls=0)
    with pytest.raises(SearchError, match="full position"):
        solve_perfect(pos.view(), max_stalls=0)
    with pytest.raises(SearchError, match="samples must be"):
        solve_view(pos.view(), max_stalls=0, samples=1)
    with pytest.raises(SearchError, match="120 turns"):
        solve(pos, max_turns=500)
    with pytest.raises(PositionError):
        solve({"to_move": 0, "hands": [["R7"], ["R7"]], "deck": ["R7"]}, max_stalls=0)


def test_solve_json_is_the_spec_object(pos):
    out = solve_json(pos, max_stalls=0)
    assert {"value", "exact", "moves", "nodes", "seconds"} <= set(out)
    assert out["exact"] is True
    vals = [m["value"] for m in out["moves"]]
    assert vals == sorted(vals, reverse=True) and out["value"] == vals[0]
    assert all(set(m) >= {"move", "value", "stderr"} for m in out["moves"])
    with pytest.raises(SearchError, match="--max-stalls"):
        solve_json(pos)


def run_cli(args, capsys):
    try:
        rc = main(args)
    except SystemExit as exc:  # argparse refusals
        rc = exc.code
    out = capsys.readouterr()
    return rc, out.out, out.err


def test_command_line_solve(pos, tmp_path: Path, capsys):
    path = tmp_path / "pos.json"
    path.write_text(json.dumps(pos.to_json()))
    rc, out, _ = run_cli(["solve", str(path), "--max-stalls", "0", "--json"], capsys)
    assert rc == 0
    answer = json.loads(out)
    assert answer["moves"][0]["move"] == solve(pos, max_stalls=0).best.move
    assert answer["bounds"] == {"max_stalls": 0}
    rc, out, _ = run_cli(["solve", str(path), "--max-turns", "2", "--leaf", "as-is", "--json"], capsys)
    assert rc == 0 and json.loads(out)["bounds"] == {"max_turns": 2, "leaf": "as-is"}
    rc, out, err = run_cli(["solve", str(path), "--json"], capsys)
    assert rc == 2 and "error: no bound" in err and out == ""
    # the command's own options, --time among them, not the library's argument names
    assert all(option in err for option in ("--max-stalls S", "--max-turns T", "--time S")) and "max_stalls" not in err
    rc, _, err = run_cli(["solve", str(path), "--max-stalls", "-1", "--json"], capsys)
    assert rc == 2 and "--max-stalls" in err
    view = tmp_path / "view.json"
    view.write_text(json.dumps(pos.view().to_json()))
    rc, out, _ = run_cli(["solve", str(view), "--max-stalls", "0", "--samples", "20", "--seed", "3", "--json"],
                         capsys)
    assert rc == 0 and json.loads(out)["exact"] is False
    bad = tmp_path / "bad.json"
    bad.write_text('{"to_move": 0, "hands": [["R7"], ["R7"]], "deck": ["R7"]}')
    rc, _, err = run_cli(["solve", str(bad), "--max-stalls", "0", "--json"], capsys)
    assert rc == 2 and err.startswith("lcanalysis solve: error: argument position: ")


NOJIT = r"""
import sys, json
sys.path.insert(0, sys.argv[1])
import search_reference as R
from lcanalysis.search.perfect import search_root
worst = 0.0
for seed, stalls, horizon in [(1, (0, 0), -1), (2, (1, 1), -1), (3, (-1, -1), 2)]:
    s = R.random_endgame(seed, colors=5, hand=2, deck=3)
    codes, vals, _ = search_root(s, stalls, horizon)
    ref = R.root_values(R.game_from_state(s, stalls, horizon))
    assert set(ref) == set(codes.tolist())
    worst = max([worst] + [abs(ref[c] - v) for c, v in zip(codes.tolist(), vals.tolist())])
print(json.dumps(worst))
"""


def test_searcher_runs_as_plain_python_with_the_jit_off():
    env = dict(os.environ, NUMBA_DISABLE_JIT="1")
    proc = subprocess.run([sys.executable, "-c", NOJIT, str(Path(__file__).parent)], env=env,
                          capture_output=True, text=True, timeout=600, check=False)
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout) < 1e-9


def test_position_from_a_string_is_read(pos):
    assert isinstance(pos, Position)
    a = solve(pos.to_string(), max_stalls=0)
    assert a.value == pytest.approx(solve(pos, max_stalls=0).value)


def test_what_is_left_is_projected_at_the_pace_so_far():
    """A long solve said how many worlds were done of how many, not how long the rest would take: 30 of
    400 samples in 60 s leave 370 at 2 s each, 740 s, about 12 minutes (worked by hand)."""
    from lcanalysis.analysis import seconds_in_words
    from lcanalysis.search.common import pace_left

    assert pace_left(30, 400, 60.0) == "about 12 minutes left at this pace"
    assert pace_left(1, 4, 2.0) == "about 6 s left at this pace"  # 3 more at 2 s each
    assert pace_left(10, 10_000, 36.0) == "about 10.0 hours left at this pace"  # 9,990 at 3.6 s: 35,964 s
    assert pace_left(0, 400, 60.0) is None and pace_left(400, 400, 60.0) is None  # nothing to go on, or done
    assert [seconds_in_words(x) for x in (0.4, 89, 90, 5399, 5400)] == ["0 s", "89 s", "2 minutes", "90 minutes",
                                                                         "1.5 hours"]


def test_a_long_library_solve_reports_progress_and_keeps_its_time():
    """Found by a review: lc.solve(view, max_stalls=1) on the endgame example ran over a minute
    with no word and no way to bound it by time. One stall each there takes far more than the
    2.5 s given (about 10 M nodes in 3.5 s on the project's machine)."""
    view = read_position("example:endgame").view(0)
    said = []
    with pytest.raises(SearchBudgetExceeded) as exc:
        solve(view, max_stalls=1, seconds=2.5, progress=said.append)
    assert exc.value.seconds == 2.5 and exc.value.nodes > 0
    # each line says the nodes searched so far (it said only the seconds), and the splits done of all
    line = re.compile(r"solving \(max_stalls=1, max_turns=None\), ([\d,]+) of ([\d,]+) splits done"
                      r"(?: \(about [\d.,]+ (?:s|minutes|hours) left at this pace\))?, "
                      r"([\d,]+) nodes searched, (\d+) s so far")
    assert said and all(line.fullmatch(x) for x in said), said
    counts = [[int(g.replace(",", "")) for g in line.fullmatch(x).groups()] for x in said]  # type: ignore[union-attr]
    assert counts[0][3] == 1 and all(0 < c[2] <= exc.value.nodes for c in counts)
    assert [c[2] for c in counts] == sorted(c[2] for c in counts)  # never fewer than the line before
    assert {c[1] for c in counts} == {solve(view, max_stalls=0).splits}  # (the splits of the view)
    said = []
    with pytest.raises(SearchBudgetExceeded):  # with a node budget: how much of it is used
        solve(view, max_stalls=1, seconds=2.5, max_nodes=10**9, progress=said.append)
    assert said and all(re.search(r", [\d,]+ of at most 1,000,000,000 nodes searched, \d+ s so far$", x) for x in said)
    quiet = []
    assert solve(view, max_stalls=0, progress=quiet.append).exact and quiet == []  # quick: nothing to say
    with pytest.raises(SearchError, match="progress must be a function"):
        solve(view, max_stalls=0, progress="x")
    with pytest.raises(SearchError, match="seconds"):
        solve(view, max_stalls=0, seconds=-1)


@pytest.mark.parametrize("extra, hinted", [([], True), (["--samples", "20"], False), (["--workers", "2"], False)])
def test_a_long_solve_hints_at_time_only_where_time_may_be_given(capsys, monkeypatch, extra, hinted):
    """A solve longer than a second says so, naming --time S as the answer within S seconds; but
    --time is refused beside --samples and --workers, so there the line does not suggest it. The
    search is replaced by one that waits (at most 30 s) for the first progress line."""
    import threading

    import lcanalysis.cli.solve as cli_solve

    heard, lines = threading.Event(), []

    def listening(line):
        lines.append(line)
        heard.set()

    def slow(position, **_):
        assert heard.wait(30), "no progress line"
        return {"value": 0.0, "exact": False, "moves": [], "nodes": 1, "seconds": 1.0}

    monkeypatch.setattr(cli_solve, "_say", listening)
    monkeypatch.setattr(cli_solve, "solve_json", slow)
    view = played_down(5, 3).view()
    rc, _, err = run_cli(["solve", view.to_string(), "--max-stalls", "1", *extra, "--json"], capsys)
    assert rc == 0, err
    assert lines and lines[0].startswith("solving (stall budget 1 each")
    assert ("--time S answers within S seconds" in lines[0]) == hinted


def test_an_answer_shows_itself_in_a_line_not_every_field_of_every_turn(pos):
    """A REPL showed ``lc.advise(...)`` as the dataclass's repr: every field of every turn, reasons
    and all, 40,000 characters for example:midround. Now one line: what the values are, how many
    turns, the best turn with its value and how exact it is."""
    from lcanalysis.analysis import Analysis, MoveValue

    exact = solve(pos, max_stalls=0)
    best = exact.best
    assert repr(exact) == (f"<Analysis: perfect-information value (exact), {len(exact.moves)} turn(s), best "
                           f"{best.move} {best.value:+.2f}; print() it for every turn>")
    reason = "extends white with W8: white estimated +1 -> +0; " * 20
    sampled = Analysis([MoveValue(f"+W{k}/D", 20.0 - k, 0.5, exact=False, reason=reason) for k in range(2, 10)]
                       + [MoveValue("+W10/D", 26.04, 0.456, exact=False, reason=reason)], "advisor estimate", False)
    assert repr(sampled) == ("<Analysis: advisor estimate, 9 turn(s), best +W10/D +26.04 ± 0.46; "
                             "print() it for every turn>")
    assert repr(Analysis([], "view value (sampled worlds)", False)) == (
        "<Analysis: view value (sampled worlds) (estimate), no legal turn>")


def test_an_answers_text_takes_a_numpy_whole_number_of_turns(pos):
    """``to_text(np.int64(3))`` (a slider's value) was refused as "limit must be a whole number of turns"."""
    import numpy as np

    answer = solve(pos, max_stalls=0)
    assert answer.to_text(np.int64(2)) == answer.to_text(2) != answer.to_text()
    for bad in (0, 1.0, True, "2"):
        with pytest.raises(ValueError, match=f"limit must be a whole number of turns, 1 or more .*got {bad!r}"):
            answer.to_text(bad)
