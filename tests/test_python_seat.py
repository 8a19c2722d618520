"""A bot author's Agent class seated directly: python:FILE:CLASS on the command line, {"name": "python",
"file": ..., "class": ...} in Python (lcanalysis.tournaments.python_seat)."""

import re
import sys

import pytest

from lcanalysis.cli.tournament import tournament_main
from lcanalysis.tournaments.results import tournament_identity
from lcanalysis.tournaments.runner import PLAY_COLUMNS, RESULT_COLUMNS, PlayError, run_tournament
from lcanalysis.tournaments.specs import AgentSpec, TournamentError, check_agent, parse_agent

#: an agent of the author's own: our heuristic with the weight B it is given, so that what it plays is
#: known without this file (heuristic:B=...), and a constructor that checks its option
TUNED = """
from lcanalysis.agents import Agent, make_agent


class Tuned(Agent):
    name = "tuned"

    def __init__(self, B=1.0):
        if B < 0:
            raise ValueError("B must be 0 or more")
        self.inner = make_agent("heuristic", B=B)

    def choose(self, view, rng_or_seed=None, time_ms=None):
        return self.inner.choose(view, rng_or_seed)
"""

#: the same class behind the bot protocol, as docs/agents.md writes a bot script
BOT = """
import json, sys
from lcanalysis.agents.protocol import answer
from mine import Tuned

agent = Tuned(B=float(sys.argv[1]))
for line in sys.stdin:
    reply, keep = answer(agent, json.loads(line))
    if reply is not None:
        print(json.dumps(reply), flush=True)
    if not keep:
        break
"""


def _rounds(df):
    return df[RESULT_COLUMNS + PLAY_COLUMNS].reset_index(drop=True)


@pytest.fixture
def mine(tmp_path):
    (tmp_path / "mine.py").write_text(TUNED)
    (tmp_path / "mybot.py").write_text(BOT)
    return tmp_path


def test_a_python_seat_plays_the_rounds_of_the_same_class_behind_the_bot_protocol(mine):
    """The same deals and seed: the class seated from its file, the class over the protocol in a program
    of its own, and our heuristic with the same weight play the same rounds, turn for turn (their
    scores, turns and what each seat did); in this process and on a pool of two workers alike."""
    seat = {"name": "python", "file": mine / "mine.py", "class": "Tuned", "B": 0.5, "label": "mine"}  # (a Path too)
    bot = {"name": "external", "cmd": [sys.executable, str(mine / "mybot.py"), "0.5"], "label": "mine"}
    ours = {"name": "heuristic", "B": 0.5, "label": "mine"}
    direct = run_tournament([seat, "greedy"], deals=3, executor="serial", progress=False)
    piped = run_tournament([bot, "greedy"], deals=3, executor="serial", progress=False)
    pooled = run_tournament([seat, "greedy"], deals=3, workers=2, progress=False)
    reference = run_tournament([ours, "greedy"], deals=3, executor="serial", progress=False)
    assert len(direct) == 6
    assert _rounds(direct).equals(_rounds(piped))
    assert _rounds(direct).equals(_rounds(pooled))
    assert _rounds(direct).equals(_rounds(reference))
    # the option reached the constructor: at the default weight the heuristic plays other rounds
    default = run_tournament([{**seat, "B": 1.0}, "greedy"], deals=3, executor="serial", progress=False)
    assert not _rounds(default).equals(_rounds(direct))
    assert _rounds(default).equals(_rounds(run_tournament([{**ours, "B": 1.0}, "greedy"], deals=3,
                                                          executor="serial", progress=False)))


def test_the_command_line_seats_a_class_by_file_and_name_with_its_options(mine, capsys, monkeypatch):
    monkeypatch.chdir(mine)  # the file named as a bot author names it, from its folder
    assert parse_agent("mine=python:mine.py:Tuned,B=0.5") == {"name": "python", "file": "mine.py", "class": "Tuned",
                                                              "B": 0.5, "label": "mine"}
    assert parse_agent("python:my bots/mine.py:Tuned") == {"name": "python", "file": "my bots/mine.py",
                                                           "class": "Tuned", "label": "python:my bots/mine.py:Tuned"}
    # a ':' in the file's path or in an option's word stays where it belongs
    assert parse_agent("python:C:/bots/mine.py:Tuned,table=a:b")["file"] == "C:/bots/mine.py"
    assert parse_agent("python:C:/bots/mine.py:Tuned,table=a:b")["table"] == "a:b"
    assert AgentSpec.of({"name": "python", "file": "mine.py", "class": "Tuned", "B": 0.5}).label == \
        "python:mine.py:Tuned,B=0.5"  # a dict without a label: as the command line writes it
    assert tournament_main(["mine=python:mine.py:Tuned,B=0.5", "greedy", "--deals", "1", "--workers", "1",
                            "--out", "none", "--no-progress"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("mine vs greedy: 2 rounds (1 deal)") and "time per move, mine: mean" in out


def test_the_help_names_the_python_seat(capsys):
    with pytest.raises(SystemExit):
        tournament_main(["--help"])
    assert "python:FILE:CLASS" in " ".join(capsys.readouterr().out.split())


BAD = """
from lcanalysis.agents import Agent

NOT_A_CLASS = 3


class Plain:
    pass


class Picky(Agent):
    def __init__(self, depth=1):
        if depth > 3:
            raise ValueError("depth at most 3")

    def choose(self, view, rng_or_seed=None, time_ms=None):
        return view.legal_moves()[0]
"""


@pytest.mark.parametrize(("seat", "message"), [
    ("python:nope.py:Picky", "agent 'python:nope.py:Picky': nope.py: no such file (read from the folder {folder})"),
    ("python:bad.py", "agent 'python:bad.py' names no class after its file; write python:FILE:CLASS"),
    ("python:bad.txt:Picky", "agent 'python:bad.txt:Picky': bad.txt is not a Python file (a name ending .py)"),
    ("python:bad.py:Eager", "agent 'python:bad.py:Eager': bad.py has no class 'Eager'; its Agent classes: Picky"),
    ("python:bad.py:NOT_A_CLASS", "'NOT_A_CLASS' in bad.py is not a class but int"),
    ("python:bad.py:Plain", "class 'Plain' of bad.py is not an Agent: a seat is a subclass of lcanalysis.agents.Agent"),
    ("python:bad.py:Picky,depht=2", "Picky of bad.py takes no option 'depht'; its options: depth"),
    ("python:bad.py:Picky,depth=5", "Picky of bad.py refused its options (depth=5): ValueError: depth at most 3 "
                                    "(at bad.py line 14)"),
    ("python:broken.py:Picky", "broken.py could not be loaded: SyntaxError"),
    ("python:bad.py:Picky,class=Plain", "'class' cannot be set as an option"),
])
def test_a_seat_that_cannot_be_made_is_refused_naming_the_problem(tmp_path, monkeypatch, capsys, seat, message):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "bad.py").write_text(BAD)
    (tmp_path / "bad.txt").write_text(BAD)
    (tmp_path / "broken.py").write_text("def (:\n")
    message = message.format(folder=tmp_path)
    with pytest.raises(TournamentError) as info:
        check_agent(parse_agent(seat))
    assert message in str(info.value)
    with pytest.raises(TournamentError, match=re.escape(message)):  # the library says the same before playing
        run_tournament([parse_agent(seat), "greedy"], deals=1, executor="serial", progress=False)
    assert tournament_main([seat, "greedy", "--deals", "1", "--workers", "1", "--out", "none",
                            "--no-progress"]) == 2
    err = capsys.readouterr().err
    assert message in err and "Traceback" not in err


def test_a_python_dict_seat_is_checked_as_the_command_lines_is(tmp_path):
    for given, said in ((["file"], "a python seat needs its 'class'"), (["class"], "a python seat needs its 'file'"),
                        (["file", "class", "options"], "give the class's options beside 'file' and 'class'"),
                        (["file", "klass"], "give the class by its name, 'class': 'Tuned', beside its 'file'")):
        seat = {k: v for k, v in {"name": "python", "file": "mine.py", "class": "Tuned",
                                  "options": {"B": 1}}.items() if k in ("name", *given)}
        if "klass" in given:  # the class object itself, not its name
            seat["class"] = type("Tuned", (), {})
        with pytest.raises(TournamentError, match=re.escape(said)):
            check_agent(seat, make=False)


FAILING = """
from lcanalysis.agents import Agent


class Crash(Agent):  # the first legal turn, until 4 turns are in its view's history
    def choose(self, view, rng_or_seed=None, time_ms=None):
        if len(view.history) >= 4:
            return {}[view.to_move]
        return view.legal_moves()[0]


class Lazy(Agent):
    def choose(self, view, rng_or_seed=None, time_ms=None):
        return None if len(view.history) >= 4 else view.legal_moves()[0]


class Early(Agent):  # fails at once: on the untimed turn before the first round
    def choose(self, view, rng_or_seed=None, time_ms=None):
        raise RuntimeError("not ready")
"""


@pytest.mark.parametrize(("cls", "what"), [
    ("Crash", "PythonAgentError: Crash of {file}: choose raised KeyError: 0 (at failing.py line 8)"),
    ("Lazy", "IllegalMoveError: illegal move None: not a move: None"),
])
def test_a_seated_agent_that_raises_or_answers_no_turn_stops_the_run_naming_deal_seating_and_turn(tmp_path, cls,
                                                                                                   what):
    """As the starter (seat 0 of seating 0) it fails once 4 turns are in its view: its third turn, turn 5."""
    file = tmp_path / "failing.py"
    file.write_text(FAILING)
    with pytest.raises(PlayError) as info:
        run_tournament([{"name": "python", "file": str(file), "class": cls, "label": "mine"}, "heuristic"], deals=1,
                       executor="serial", progress=False)
    assert (f"a round could not be played: deal 0, seating 0 (mine vs heuristic), turn 5 (4 played), mine to move: "
            f"{what.format(file=file)}") in str(info.value)


def test_a_seated_agent_is_given_the_movers_view_only_and_its_time_per_move_is_measured(tmp_path):
    """Its choose gets a View of the player to move (no Position, so no hidden cards), as every agent's."""
    file = tmp_path / "peek.py"
    file.write_text("from lcanalysis.agents import Agent\nfrom lcanalysis.game.view import View\n\n\n"
                    "class Peek(Agent):\n"
                    "    def choose(self, view, rng_or_seed=None, time_ms=None):\n"
                    "        if type(view) is not View or view.viewer != view.to_move:\n"
                    "            raise TypeError(f'given {type(view).__name__}')\n"
                    "        return view.legal_moves()[0]\n")
    df = run_tournament([{"name": "python", "file": str(file), "class": "Peek", "label": "peek"}, "greedy"], deals=1,
                        executor="serial", progress=False)
    seat = df.player0 == "peek"
    assert len(df) == 2 and (df.ms_per_move0.where(seat, df.ms_per_move1) > 0).all()


def test_a_seated_agent_failing_before_the_first_round_says_so(tmp_path):
    file = tmp_path / "failing.py"
    file.write_text(FAILING)
    with pytest.raises(PlayError, match=re.escape(
            f"deal 0, seating 0 (mine vs greedy): PythonAgentError: Early of {file}: choose raised RuntimeError: not "
            "ready (at failing.py line 19) (on the untimed turn that starts it, a view of deal 0 given before the "
            "round's first turn)")):
        run_tournament([{"name": "python", "file": str(file), "class": "Early", "label": "mine"}, "greedy"], deals=1,
                       executor="serial", progress=False)


def test_the_code_hash_covers_the_file_and_the_modules_it_imports_from_beside_it(tmp_path):
    """Its file and the modules beside it that it imports count as the seat's code; another file there
    does not. The hashes are SHA-256's first 16 hex digits of each file's bytes."""
    import hashlib

    from lcanalysis.game.rules import Rules

    (tmp_path / "mine.py").write_text("from weights import B\n" + TUNED)
    (tmp_path / "weights.py").write_text("B = 0.5\n")
    (tmp_path / "notes.py").write_text("")
    spec = check_agent({"name": "python", "file": str(tmp_path / "mine.py"), "class": "Tuned"}, make=False)

    def code():
        return tournament_identity([spec, AgentSpec.of("greedy")], Rules(), 0, True, False)["code"]["external"]

    def sha(name):
        return hashlib.sha256((tmp_path / name).read_bytes()).hexdigest()[:16]

    label = spec.label
    assert code() == {f"{label}: {tmp_path / 'mine.py'}": sha("mine.py"),
                      f"{label}: {tmp_path / 'weights.py'}": sha("weights.py")}
    first = code()
    (tmp_path / "notes.py").write_text("# not imported\n")
    assert code() == first
    (tmp_path / "weights.py").write_text("B = 0.6\n")
    assert code()[f"{label}: {tmp_path / 'weights.py'}"] != first[f"{label}: {tmp_path / 'weights.py'}"]
    (tmp_path / "mine.py").write_text("from weights import B  # tuned\n" + TUNED)
    assert code()[f"{label}: {tmp_path / 'mine.py'}"] != first[f"{label}: {tmp_path / 'mine.py'}"]


def test_an_edited_seat_file_is_changed_code_and_its_old_results_file_is_refused(mine, capsys, monkeypatch):
    monkeypatch.chdir(mine)
    out = mine / "t.jsonl"

    def run(deals, *more):
        return tournament_main(["mine=python:mine.py:Tuned", "greedy", "--deals", str(deals), "--workers", "1",
                                "--no-progress", "--out", str(out), *more])

    assert run(1) == 0
    assert run(2) == 0  # the same file goes on in its results file
    (mine / "mine.py").write_text(TUNED + "# tuned\n")
    capsys.readouterr()
    assert run(3) == 2
    assert re.search(r"mine: mine\.py \([0-9a-f]{16}\).*the agents or the engine changed", capsys.readouterr().err)
    assert run(3, "--allow-code-change") == 0
    assert sum(1 for line in out.read_text().splitlines() if '"job"' in line) == 6


def test_each_seat_is_loaded_afresh_with_the_modules_beside_it(tmp_path):
    """Two versions of a bot, each in its folder with a module of the same name, play as themselves in one
    process; and a file edited between two runs in one session plays as edited, as its hash says."""
    for version, weight in (("v1", 0.5), ("v2", 1.0)):
        (tmp_path / version).mkdir()
        (tmp_path / version / "weights.py").write_text(f"B = {weight}\n")
        (tmp_path / version / "mine.py").write_text("from weights import B as DEFAULT\n" + TUNED.replace(
            "B=1.0):", "B=None):\n        B = DEFAULT if B is None else B"))
    seats = [{"name": "python", "file": str(tmp_path / v / "mine.py"), "class": "Tuned", "label": v}
             for v in ("v1", "v2")]
    both = run_tournament([*seats, "greedy"], deals=2, round_robin=True, executor="serial", progress=False)
    ours = run_tournament([{"name": "heuristic", "B": 0.5, "label": "v1"}, {"name": "heuristic", "B": 1.0,
                                                                            "label": "v2"}, "greedy"],
                          deals=2, round_robin=True, executor="serial", progress=False)
    assert _rounds(both).equals(_rounds(ours))
    (tmp_path / "v1" / "weights.py").write_text("B = 1.0\n")  # v1 now plays as v2
    again = run_tournament([seats[0], "greedy"], deals=2, executor="serial", progress=False)
    v2 = run_tournament([{**seats[1], "label": "v1"}, "greedy"], deals=2, executor="serial", progress=False)
    assert _rounds(again).equals(_rounds(v2))


def test_an_agent_object_of_ones_own_class_is_pointed_to_the_python_seat(mine):
    """run_tournament([Tuned(), ...]) is the first thing a bot author tries: the refusal says how to seat it."""
    sys.modules.pop("mine", None)  # (another test's seat of a mine.py of its own)
    sys.path.insert(0, str(mine))
    try:
        from mine import Tuned

        with pytest.raises(TournamentError, match=re.escape(
                f"or, for a class of your own, its file and name, {{'name': 'python', 'file': '{mine / 'mine.py'}', "
                "'class': 'Tuned'}")):
            run_tournament([Tuned(), "greedy"], deals=1, executor="serial", progress=False)
    finally:
        sys.path.remove(str(mine))
        sys.modules.pop("mine", None)
