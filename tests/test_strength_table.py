"""The all-pairs strength table read from tournament results files."""

from __future__ import annotations

import json

import pytest

import lcanalysis as lc
from lcanalysis.studies.strength_table import main, strength_table


@pytest.fixture(scope="module")
def files(tmp_path_factory):
    folder = tmp_path_factory.mktemp("strength")
    small = folder / "rr.jsonl"
    lc.run_tournament(["heuristic", "greedy", "random"], deals=3, executor="serial", progress=False, seed=5,
                      round_robin=True, out=str(small))
    big = folder / "hg.jsonl"
    lc.run_tournament(["greedy", "heuristic"], deals=5, executor="serial", progress=False, seed=9, out=str(big))
    six = folder / "hg6.jsonl"
    lc.run_tournament(["greedy", "heuristic"], deals=1, executor="serial", progress=False, seed=9, out=str(six),
                      rules=lc.Rules(colors=6))
    return small, big, six


def _rounds(path):
    """Every finished round of a results file, read as plain JSON (independently of the library)."""
    rows = []
    with open(path) as fh:
        for line in fh:
            rec = json.loads(line)
            rows.extend(rec.get("rows", []))
    return rows


def _by_hand(rows, a, b):
    """Win rate (draws half) and mean difference of ``a`` against ``b``, counted from the rows."""
    wins, diffs = 0.0, []
    for r in rows:
        if {r["player0"], r["player1"]} != {a, b}:
            continue
        d = r["score0"] - r["score1"] if r["player0"] == a else r["score1"] - r["score0"]
        diffs.append(d)
        wins += 1.0 if d > 0 else 0.5 if d == 0 else 0.0
    return wins / len(diffs), sum(diffs) / len(diffs), len(diffs)


def test_every_cell_is_the_row_agents_record_against_the_column_agent(files):
    small, _, _ = files
    table = strength_table([small], order=["heuristic", "greedy", "random"])
    rows = _rounds(small)
    for a in table.agents:
        for b in table.agents:
            if a == b:
                assert (a, b) not in table.cells
                continue
            rate, mean, n = _by_hand(rows, a, b)
            cell = table.cells[(a, b)].result
            assert cell.rounds == n == 6
            assert cell.win_rate == pytest.approx(rate)
            assert cell.mean_diff == pytest.approx(mean)
            assert cell.win_low <= cell.win_rate <= cell.win_high
            assert cell.diff_low <= cell.mean_diff <= cell.diff_high


def test_the_file_with_more_rounds_of_a_pair_wins_and_is_named(files):
    small, big, _ = files
    table = strength_table([small, big], order=["heuristic", "greedy", "random"])
    rate, mean, n = _by_hand(_rounds(big), "heuristic", "greedy")
    cell = table.cells[("heuristic", "greedy")].result
    assert (cell.rounds, table.cells[("heuristic", "greedy")].source) == (n, str(big)) and n == 10
    assert cell.win_rate == pytest.approx(rate) and cell.mean_diff == pytest.approx(mean)
    back = table.cells[("greedy", "heuristic")].result
    assert back.mean_diff == pytest.approx(-mean) and back.win_rate == pytest.approx(1 - rate)
    assert (back.wins, back.losses) == (cell.losses, cell.wins)
    md = table.markdown()
    assert f"`{big}`: heuristic-greedy (10 rounds)" in md
    assert "| heuristic |" in md and "| random |" in md  # the time-per-move rows


def test_the_command_prints_markdown_and_refuses_a_missing_file(files, capsys, tmp_path):
    small, _, _ = files
    assert main([str(small), "--order", "random,greedy,heuristic"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("| row vs column | random | greedy | heuristic |")
    with pytest.raises(SystemExit):
        main([str(tmp_path / "nope.jsonl")])
    assert "no such results file" in capsys.readouterr().err
    assert main([str(small), "--order", "random,greedy"]) == 2
    assert "leaves out heuristic" in capsys.readouterr().err
    # a label no file holds (misspelt, or its file left off) was dropped, its row and column with it
    assert main([str(small), "--order", "random,greedy,heuristic,stalling"]) == 2
    assert ("the order names stalling, which no file holds (the files hold greedy, heuristic, random)"
            in capsys.readouterr().err)


def test_files_of_different_games_are_not_mixed_in_one_table(files):
    small, _, six = files
    with pytest.raises(ValueError, match=r"other rules .*one table, one game"):
        strength_table([small, six])


def _generated_tables():
    """Every strength table a page carries: ``<!-- strength-table: ARGS -->``, the table, and
    ``<!-- end strength-table -->``."""
    import re
    import shlex
    from pathlib import Path

    root = Path(__file__).resolve().parent.parent
    found = []
    for page in (root / "README.md", root / "docs" / "agents.md"):
        text = page.read_text(encoding="utf-8")
        for m in re.finditer(r"<!-- strength-table: (.*?) -->\n(.*?)\n<!-- end strength-table -->", text, re.S):
            found.append((page.name, shlex.split(m.group(1)), m.group(2).strip()))
    return root, found


def test_the_strength_tables_in_the_docs_are_what_the_data_files_give(capsys, monkeypatch):
    root, found = _generated_tables()
    assert {page for page, _, _ in found} == {"README.md", "agents.md"}
    monkeypatch.chdir(root)
    for page, args, shown in found:
        assert main(args) == 0
        assert capsys.readouterr().out.strip() == shown, f"{page}: the strength table is not what {args} prints"


def test_a_renamed_label_shows_the_same_cells_and_two_agents_are_never_merged(files, capsys):
    small, big, six = files
    plain = strength_table([small], order=["heuristic", "greedy", "random"])
    renamed = strength_table([small], order=["heuristic-old", "greedy", "random"],
                             rename={"heuristic": "heuristic-old"})
    assert renamed.agents == ["heuristic-old", "greedy", "random"]
    want = {**plain.cells[("heuristic", "greedy")].result.to_dict(), "agent": "heuristic-old"}
    assert renamed.cells[("heuristic-old", "greedy")].result.to_dict() == want
    assert "| heuristic-old |" in renamed.markdown()  # the time per move follows the name
    with pytest.raises(ValueError, match=r"two agents .* as one"):
        strength_table([small], rename={"greedy": "heuristic"})
    with pytest.raises(ValueError, match="other rules"):  # the rules are still read after renaming
        strength_table([big, six], rename={"greedy": "g"})
    assert main(["--rename", "heuristic=h", str(small)]) == 0
    assert "**h**" in capsys.readouterr().out
    with pytest.raises(SystemExit):
        main(["--rename", "heuristic", str(small)])
    assert "--rename wants OLD=NEW" in capsys.readouterr().err


def test_a_renaming_in_one_file_leaves_the_same_label_in_the_others_alone(files):
    small, big, _ = files
    table = strength_table([small, big], rename_in={str(big): {"heuristic": "heuristic-new"}})
    rate, mean, n = _by_hand(_rounds(big), "heuristic", "greedy")
    new = table.cells[("heuristic-new", "greedy")].result
    assert (new.rounds, new.win_rate, new.mean_diff) == (n, pytest.approx(rate), pytest.approx(mean))
    old = table.cells[("heuristic", "greedy")]
    assert old.source == str(small) and old.result.rounds == 6  # the round robin's own pair stays
    with pytest.raises(ValueError, match="not in the table"):
        strength_table([small], rename_in={str(big): {"heuristic": "h"}})
    assert main(["--rename-in", str(big), "heuristic=h2", str(small), str(big)]) == 0


def test_a_line_that_does_not_count_is_a_warning_in_the_commands_words(files, capsys, tmp_path):
    """The study printed Python's warning form: its own source path and code line around the message."""
    _, big, _ = files
    torn = tmp_path / "torn.jsonl"
    lines = big.read_text().splitlines(keepends=True)
    torn.write_text("".join(lines[:3]) + lines[3][:40] + "\n" + "".join(lines[4:]))
    assert main([str(torn)]) == 0
    err = capsys.readouterr().err
    assert err == (f"warning: {torn} line 4: not valid JSON; not counted; job 0:1:0 is missing "
                   "(a run resumed on this file plays it again)\n")
