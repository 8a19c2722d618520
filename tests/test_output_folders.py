"""Every command's output option follows one rule (``options.check_output_file`` and
``check_output_folder``): a file goes in a folder that exists, and a missing one is refused before
any work, in one line naming the command, the option and the first missing folder, as the parser
refuses a bad argument (``lcanalysis review: error: argument --out: ...``, which said ``error: --out
...``, no command); an option that names a folder makes that
folder, never its missing parents. ``tournament --out`` and ``--records`` and ``studies
match-table --out`` made any missing folders (a mistyped ``reuslts/`` too) while ``review``,
``rollout``, ``play`` and the other studies refused them."""

from __future__ import annotations

import json

import pytest

from lcanalysis.cli import main
from lcanalysis.game.position import Position
from lcanalysis.game.records import record_round, write_record

#: each command with ``OUT`` where its output option's path goes; the record and the position it
#: reads are made by the test (``RECORD``, ``POSITION``)
COMMANDS = {
    "tournament --out": ["tournament", "random", "greedy", "--deals", "1", "--workers", "1", "--no-progress",
                         "--out", "OUT"],
    "tournament --records": ["tournament", "random", "greedy", "--deals", "1", "--workers", "1", "--no-progress",
                             "--out", "none", "--records", "OUT"],
    "tournament --csv": ["tournament", "random", "greedy", "--deals", "1", "--workers", "1", "--no-progress",
                         "--out", "none", "--csv", "OUT"],
    "studies match-table --out": ["studies", "match-table", "--deals", "2", "--matches", "0", "--bootstrap", "2",
                                  "--out", "OUT"],
    "studies wager-tables --out": ["studies", "wager-tables", "--out", "OUT", "wager_breakeven_by_holding.csv"],
    "studies wager-claims --out": ["studies", "wager-claims", "--rounds", "10", "--out", "OUT"],
    "studies wager-sim --out": ["studies", "wager-sim", "--rounds", "2", "--mc", "2", "--out", "OUT"],
    "review --out": ["review", "RECORD", "--workers", "1", "--no-progress", "--out", "OUT"],
    "review --html": ["review", "RECORD", "--workers", "1", "--no-progress", "--html", "OUT"],
    "rollout --out": ["rollout", "POSITION", "--trials", "2", "--workers", "1", "--out", "OUT"],
    "play --record": ["play", "--seed", "1", "--agent", "random", "--record", "OUT"],
    "studies data --root": ["studies", "data", "--only", "first_player_rounds", "--deals", "2", "--root", "OUT"],
}
#: the options that name a folder to write into (the rest name a file)
FOLDER_OPTIONS = ["tournament --records", "studies wager-tables --out", "studies data --root"]


def _argv(tmp_path, name: str, out) -> list[str]:
    record = tmp_path / "inputs" / "round.json"
    if not record.exists():
        record.parent.mkdir()
        start = Position.deal(seed=3)
        write_record(record_round(start, [start.legal_moves()[0]]), record)
        (tmp_path / "inputs" / "position.json").write_text(json.dumps(start.to_json()))
    fill = {"OUT": str(out), "RECORD": str(record), "POSITION": str(tmp_path / "inputs" / "position.json")}
    return [fill.get(word, word) for word in COMMANDS[name]]


@pytest.mark.parametrize("name", COMMANDS)
def test_an_output_in_a_missing_folder_is_refused_naming_the_option_and_the_folder(tmp_path, capsys, name):
    option = name.split()[-1]
    missing = tmp_path / "reuslts"
    argv = _argv(tmp_path, name, missing / "deeper" / "out.file")
    assert main(argv) == 2
    err = capsys.readouterr().err
    prog = f"lcanalysis {' '.join(name.split()[:-1])}"  # one line naming the command and the option
    assert err == (f"{prog}: error: argument {option}: {missing / 'deeper' / 'out.file'}: the folder {missing} does "
                   f"not exist (see {prog} --help)\n"), err
    assert "Traceback" not in err
    assert sorted(p.name for p in tmp_path.iterdir()) == ["inputs"]  # nothing made, nothing played


@pytest.mark.parametrize("name", FOLDER_OPTIONS)
def test_an_option_naming_a_folder_makes_it_in_a_folder_that_exists(tmp_path, capsys, name):
    made = tmp_path / "new"
    assert main(_argv(tmp_path, name, made)) == 0
    assert made.is_dir() and any(made.iterdir())


@pytest.mark.parametrize("name", FOLDER_OPTIONS)
def test_a_file_where_a_folder_option_points_is_refused_naming_the_option(tmp_path, capsys, name):
    """``studies data --root FILE`` said "error: [Errno 20] Not a directory: 'FILE/simulated'", naming
    no option, after the work began; it is refused first, as the other folder options are."""
    option = name.split()[-1]
    a_file = tmp_path / "a_file"
    a_file.write_text("kept\n")
    assert main(_argv(tmp_path, name, a_file)) == 2
    err = capsys.readouterr().err
    prog = f"lcanalysis {' '.join(name.split()[:-1])}"
    assert err == (f"{prog}: error: argument {option}: {a_file} is not a folder but a file: {option} names the folder "
                   f"to write into (see {prog} --help)\n")
    assert a_file.read_text() == "kept\n"
