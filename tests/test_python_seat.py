"""A bot author's Agent class seated directly: python:FILE:CLASS on the command line, {"name": "python",
"file": ..., "class": ...} in Python (lcanalysis.tournaments.python_seat)."""

import json
import re
import sys

import pytest

from lcanalysis.cli.main import main as cli_main
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


class Misspelt(Agent):
    def chose(self, view, rng_or_seed=None, time_ms=None):
        return view.legal_moves()[0]
"""


@pytest.mark.parametrize(("seat", "message"), [
    ("python:nope.py:Picky", "agent 'python:nope.py:Picky': nope.py: no such file (read from the folder {folder})"),
    ("python:bad.py", "agent 'python:bad.py' names no class after its file; write python:FILE:CLASS"),
    ("python:bad.txt:Picky", "agent 'python:bad.txt:Picky': bad.txt is not a Python file (a name ending .py)"),
    ("python:bad.py:Eager", "agent 'python:bad.py:Eager': bad.py has no class 'Eager'; its Agent classes: Misspelt, "
                            "Picky"),
    ("python:bad.py:NOT_A_CLASS", "'NOT_A_CLASS' in bad.py is not a class but int"),
    ("python:bad.py:Plain", "class 'Plain' of bad.py is not an Agent: a seat is a subclass of lcanalysis.agents.Agent"),
    ("python:bad.py:Misspelt", "class 'Misspelt' of bad.py has no choose of its own, only Agent's, which plays "
                               "nothing: a seat writes choose(self, view, rng_or_seed=None, time_ms=None)"),
    ("python:bad.py:Agent", "class 'Agent' of bad.py has no choose of its own, only Agent's"),  # the one it imports
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
    # the bot and the table refuse it in the same words, each as its command's one line
    for command, words in (("bot", ["bot", seat]), ("play", ["play", "--agent", seat]),
                           ("rollout", ["rollout", "example:midround", "--agent", seat])):
        assert cli_main(words) == 2, command
        err = capsys.readouterr().err
        assert err.startswith(f"lcanalysis {command}: error: ") and message in err and err.count("\n") == 1, err


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
    # the same class served by 'lcanalysis bot python:FILE:CLASS' and seated as an outside program: the same files
    served = check_agent(parse_agent(f"mine=external:lcanalysis bot python:{tmp_path / 'mine.py'}:Tuned"), make=False)
    assert tournament_identity([served, AgentSpec.of("greedy")], Rules(), 0, True, False)["code"]["external"] == {
        f"mine: {tmp_path / 'mine.py'}": sha("mine.py"), f"mine: {tmp_path / 'weights.py'}": sha("weights.py")}


def test_an_edited_seat_file_is_changed_code_and_its_old_results_file_is_refused(mine, capsys, monkeypatch):
    monkeypatch.chdir(mine)
    out = mine / "t.jsonl"

    def run(deals, *more):
        return tournament_main(["mine=python:mine.py:Tuned", "greedy", "--deals", str(deals), "--workers", "1",
                                "--no-progress", "--out", str(out), *more])

    assert run(1) == 0
    assert run(2) == 0  # the same file goes on in its results file
    assert "they were played by" not in capsys.readouterr().err
    (mine / "mine.py").write_text(TUNED + "# tuned\n")
    # the finished file is read as it is, and says its rounds are the old mine.py's, the hash in its header
    played_by = json.loads(out.read_text().splitlines()[0])["identity"]["code"]["external"]["mine: mine.py"]
    assert run(2) == 0
    said = capsys.readouterr().err
    assert "4 of 4 deal-seatings already played, 0 to play; they were played by" in said
    assert f"with mine: mine.py ({played_by}), and this is" in said
    assert "the summary is of those rounds (more deals would need --allow-code-change" in said
    assert said.count(f"({played_by})") == 1  # this run names the edited file's hash, not the old one
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


#: a class whose every turn is known without it: the seed picks among the legal turns (so the bot's --seed
#: and the turn's number reach it), the budget shifts the pick (so time_ms does), and it raises or answers
#: None at the turns it is told to
SCRIPTED = """
from lcanalysis.agents import Agent


class Scripted(Agent):
    name = "scripted"

    def __init__(self, fail_at=-1, none_at=-1):
        self.fail_at, self.none_at = fail_at, none_at

    def choose(self, view, rng_or_seed=None, time_ms=None):
        turn = len(view.history)
        if turn == self.fail_at:
            return {}["R"]
        if turn == self.none_at:
            return None
        moves = view.legal_moves()
        return moves[(rng_or_seed + int(time_ms or 0)) % len(moves)]
"""


def _reference(path, name):
    """The author's module loaded by Python's own importlib, apart from the seat's loader."""
    import importlib.util

    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_bot_serves_a_class_of_ones_own_answering_each_request_as_protocol_answer_does(tmp_path):
    """lcanalysis bot python:FILE:CLASS, a program reading requests: its replies are, line for line, those
    of protocol.answer given the same class (loaded apart) with the same options and seed: moves, the
    error it raises (named with its line), the None it answers, a bad request; nothing after quit."""
    import json
    import subprocess

    from lcanalysis.agents import make_agent
    from lcanalysis.agents.protocol import answer
    from lcanalysis.game.notation import from_json
    from lcanalysis.game.position import Position

    (tmp_path / "scripted.py").write_text(SCRIPTED)
    pos, views = Position.deal(seed=6), []
    greedy = make_agent("greedy")
    for _ in range(6):
        views.append(pos.view(pos.to_move).to_json())
        pos.push(greedy.choose(pos.view(pos.to_move), 0))
    requests = [{"type": "turn", "position": views[0]}, {"type": "turn", "position": views[1], "time_ms": 3},
                {"type": "turn", "position": views[2]}, {"type": "turn", "position": views[4]},
                {"type": "nope"}, {"type": "turn", "position": views[5], "time_ms": 250},
                {"type": "turn", "position": pos.to_json()},  # a full position: seen from the player to move
                {"type": "quit"}, {"type": "turn", "position": views[0]}]
    proc = subprocess.run([sys.executable, "-m", "lcanalysis", "bot", "python:scripted.py:Scripted,fail_at=2",
                           "none_at=4", "--seed", "11"], cwd=tmp_path, capture_output=True, text=True, timeout=300,
                          input="".join(json.dumps(r) + "\n" for r in requests), check=False)
    assert proc.returncode == 0, proc.stderr
    replies = [json.loads(line) for line in proc.stdout.splitlines()]
    agent = _reference(tmp_path / "scripted.py", "scripted_reference").Scripted(fail_at=2, none_at=4)
    expected = []
    for request in requests:
        reply, keep = answer(agent, request, seed=11)
        if reply is not None:
            expected.append(reply)
        if not keep:
            break
    assert replies == expected
    # what those replies are, by hand: the error and the None named as the agent's, a move for the rest
    assert replies[2] == {"error": "the agent 'scripted' raised KeyError: 'R' (at scripted.py line 14)"}
    assert replies[3] == {"error": "the agent 'scripted' answered None, not a legal turn here: not a move: None"}
    assert replies[4]["error"].startswith("unknown request type 'nope'")
    for i, turn, budget in ((0, 0, 0), (1, 1, 3), (5, 5, 250)):  # the seed 11 plus the turn, plus the budget
        moves = from_json(views[turn]).legal_moves()
        assert replies[i] == {"move": str(moves[(11 + turn + budget) % len(moves)])}, i
    assert len(replies) == 7  # nothing after the quit


def test_a_person_plays_against_a_class_of_ones_own_and_each_of_its_turns_is_its_own(tmp_path, capsys, monkeypatch):
    """lcanalysis play --agent python:FILE:CLASS: the class sits as the opponent and plays its turns (here
    the first legal turn of its view at every turn, checked on the record by replaying it), named as asked."""
    import io

    from lcanalysis.game.records import read_record

    (tmp_path / "first.py").write_text("from lcanalysis.agents import Agent\n\n\nclass First(Agent):\n"
                                       "    def choose(self, view, rng_or_seed=None, time_ms=None):\n"
                                       "        return view.legal_moves()[0]\n")
    monkeypatch.chdir(tmp_path)
    from lcanalysis.tutor import TutorSession

    first = _reference(tmp_path / "first.py", "first_reference").First()
    ref = TutorSession(agent=first, seed=4, seat=1, time_budget=0.05)  # the person's lines: their last legal turn
    lines = []
    for _ in range(4):
        lines.append(str(ref.legal_turns()[-1]))
        ref.play(lines[-1])
    monkeypatch.setattr(sys, "stdin", io.StringIO("".join(f"{line}\n" for line in [*lines, "quit"])))
    assert cli_main(["play", "--agent", "python:first.py:First", "--seat", "1", "--seed", "4", "--time", "0.05",
                     "--record", "game.json"]) == 0
    out = capsys.readouterr().out
    record = read_record("game.json")
    assert record.players == ["python:first.py:First", "you"]
    steps = list(record.steps())
    assert [str(s.turn.move) for s in steps if s.player == 1] == lines
    theirs = [s for s in steps if s.player == 0]
    assert len(theirs) == 5  # it starts, and answers each of the 4 turns
    for s in theirs:
        assert s.turn.move == s.before.view(0).legal_moves()[0]
        assert f"opponent (python:first.py:First) plays {s.turn.move}:" in out


@pytest.mark.parametrize(("cls", "said"), [
    ("Crash", "the opponent (python:failing.py:Crash) failed at turn 4: Crash of failing.py: choose raised "
              "KeyError: 0 (at failing.py line 8); the game stops here"),
    ("Lazy", "the opponent (python:failing.py:Lazy) answered None at turn 4, not a legal turn: not a move: None; "
             "the game stops here"),
])
def test_a_class_that_raises_or_answers_no_turn_at_the_table_ends_the_game_naming_it(tmp_path, capsys, monkeypatch,
                                                                                     cls, said):
    import io

    from lcanalysis.tutor import TutorSession

    (tmp_path / "failing.py").write_text(FAILING)
    monkeypatch.chdir(tmp_path)
    # the person's two turns before the class's third, turn 4, where it fails (until then it plays its first
    # legal turn, as the reference does)
    first = _reference(tmp_path / "failing.py", "failing_reference").Crash()
    ref = TutorSession(agent=first, seed=4, seat=1, time_budget=0.05)
    lines = []
    for _ in range(2):
        lines.append(str(ref.legal_turns()[-1]))
        if len(lines) < 2:
            ref.play(lines[-1])
    monkeypatch.setattr(sys, "stdin", io.StringIO("".join(f"{line}\n" for line in [*lines, "quit"])))
    assert cli_main(["play", "--agent", f"python:failing.py:{cls}", "--seat", "1", "--seed", "4",
                     "--time", "0.05"]) == 2
    err = capsys.readouterr().err
    assert f"error: {said}\n" in err and "Traceback" not in err


def test_a_rollout_by_a_class_of_ones_own_is_the_rollout_by_the_agent_it_plays_as(mine, capsys, monkeypatch):
    """rollout --agent python:FILE:CLASS: each turn played out by the class in both seats; Tuned with B=0.5
    plays as heuristic:B=0.5, so the values are those of that rollout, to the last digit."""
    import json

    monkeypatch.chdir(mine)
    values = []
    for agent in ("python:mine.py:Tuned,B=0.5", "heuristic:B=0.5", "heuristic"):
        assert cli_main(["rollout", "example:midround", "--agent", agent, "--turn", "+B6/D", "--turn", "-W2/G",
                         "--trials", "10", "--workers", "1", "--json"]) == 0
        values.append([(m["move"], m["value"], m["stderr"]) for m in json.loads(capsys.readouterr().out)["moves"]])
    assert values[0] == values[1] != values[2]  # (the weight matters: the option reached the class)


def test_a_class_of_ones_own_cannot_keep_trials_in_a_file_that_records_only_our_code(mine, capsys, monkeypatch):
    """rollout --out and review --check's FILE.checks record the code of our agents, not of mine.py: a run
    resumed after an edit of it would mix two agents' trials unseen, so they are refused, saying why."""
    monkeypatch.chdir(mine)
    assert cli_main(["rollout", "example:midround", "--agent", "python:mine.py:Tuned", "--out", "r.jsonl"]) == 2
    err = capsys.readouterr().err
    assert ("lcanalysis rollout: error: argument --agent: a class of your own (python:mine.py:Tuned) cannot keep its "
            "trials in --out's r.jsonl, which records the code of our agents but not of mine.py") in err
    assert cli_main(["review", "game.json", "--check", "10", "--check-agent", "python:mine.py:Tuned",
                     "--out", "judged.json"]) == 2
    err = capsys.readouterr().err
    assert "cannot keep its trials in --out's judged.json.checks, which records the code of our agents" in err
    assert not (mine / "r.jsonl").exists()


@pytest.mark.parametrize(("cls", "what"), [
    ("Crash", r"Crash of failing.py: choose raised KeyError: [01] \(at failing.py line 8\)"),
    # Lazy answers None from its view's 5th turn: the trial stops there, named, not a notation error
    ("Lazy", r"Lazy of failing.py answered None, not a legal turn, in trial \d at turn \d+: not a move: None"),
])
def test_a_class_that_raises_or_answers_no_turn_in_a_rollout_trial_is_named_in_one_line(tmp_path, capsys,
                                                                                        monkeypatch, cls, what):
    (tmp_path / "failing.py").write_text(FAILING)
    monkeypatch.chdir(tmp_path)
    assert cli_main(["rollout", "example:midround", "--agent", f"python:failing.py:{cls}", "--turn", "+B6/D",
                     "--trials", "4", "--workers", "1"]) == 2
    err = capsys.readouterr().err
    assert re.search(rf"^error: the agent python:failing.py:{cls} failed in a trial: {what}$", err, re.MULTILINE), err
    assert "Traceback" not in err


def test_the_bot_given_a_tournament_s_labelled_agent_says_it_takes_no_label(capsys):
    from lcanalysis.cli.bot import main as bot_main

    for given, meant in (("mine=python:mine.py:Eager", "python:mine.py:Eager"), ("h2=heuristic", "heuristic")):
        assert bot_main([given]) == 2
        assert (f"error: unknown agent {given!r}: a label ({given.split('=')[0]}=) names an agent in a tournament; "
                f"the bot serves one agent and takes none: lcanalysis bot {meant}") in capsys.readouterr().err

