"""Tournaments save their rounds as game records (``--records DIR``): one file per deal-seating,
named after the pairing, deal and seating, that replays to the tournament's scores and that
``lcanalysis review`` reads."""

from __future__ import annotations

import json

import pytest

from lcanalysis.cli.tournament import tournament_main
from lcanalysis.game.records import MatchRecord, RoundRecord, read_record
from lcanalysis.game.rules import Rules
from lcanalysis.reviewer import review
from lcanalysis.tournaments.runner import TournamentError, load_results, record_name, run_tournament


def test_a_one_deal_tournament_writes_its_rounds_and_a_review_of_one_finds_the_rows_scores(tmp_path, capsys):
    out, folder = tmp_path / "t.jsonl", tmp_path / "records"
    assert tournament_main(["heuristic", "greedy", "--deals", "1", "--workers", "1", "--no-progress",
                            "--out", str(out), "--records", str(folder)]) == 0
    assert f"records: {folder}: one file per deal-seating played" in capsys.readouterr().err
    df = load_results(out)
    names = sorted(p.name for p in folder.iterdir())
    assert names == ["pairing0_deal0_seating0_heuristic_vs_greedy.json",
                     "pairing0_deal0_seating1_greedy_vs_heuristic.json"]
    for row in df.itertuples():
        rec = read_record(folder / record_name(row.pairing, row.deal, row.swap, row.player0, row.player1))
        assert isinstance(rec, RoundRecord) and rec.is_full and rec.is_finished()
        assert rec.scores() == (row.score0, row.score1)
        assert len(rec.turns) == row.turns
        assert rec.players == [row.player0, row.player1]
        assert rec.start.to_string() == rec.start.__class__.deal(int(row.seed), Rules(rounds=1), 0).to_string()
    # review one written record (player 0 only, a small budget): its actual scores are the row's
    row = df.iloc[1]
    rv = review(str(folder / record_name(0, 0, 1, row.player0, row.player1)), player=0, time_budget=0.01,
                executor="serial", progress=False)
    assert rv.scores == [(row.score0, row.score1)]
    assert rv.players[0].result == row.score0 - row.score1
    assert rv.finished


def test_match_tournaments_write_match_records(tmp_path):
    folder = tmp_path / "matches"
    df = run_tournament(["greedy", "random"], deals=1, rules=Rules(rounds=3), executor="serial", progress=False,
                        records=folder)
    for (deal, swap), match in df.groupby(["deal", "swap"]):
        first = match.iloc[0]
        rec = read_record(folder / record_name(0, deal, swap, first.player0, first.player1))
        assert isinstance(rec, MatchRecord) and len(rec.rounds) == 3
        assert [r.scores() for r in rec.rounds] == list(zip(match.score0, match.score1))
        assert rec.totals() == (match.score0.sum(), match.score1.sum())
        assert [r.start.to_move for r in rec.rounds] == list(match.starter)
        assert [r.start.match["totals"] for r in rec.rounds][1] == [int(first.score0), int(first.score1)]


def test_a_resumed_run_writes_records_only_for_what_it_plays(tmp_path):
    out, folder = tmp_path / "r.jsonl", tmp_path / "rec"
    run_tournament(["heuristic", "greedy"], deals=1, executor="serial", progress=False, out=out)
    notes: list[str] = []
    run_tournament(["heuristic", "greedy"], deals=2, executor="serial", progress=False, out=out, records=folder,
                   log=notes.append)
    assert sorted(p.name for p in folder.iterdir()) == [
        "pairing0_deal1_seating0_heuristic_vs_greedy.json", "pairing0_deal1_seating1_greedy_vs_heuristic.json"]
    assert any("(2 already played get none)" in n for n in notes)


def test_a_records_folder_that_is_a_file_is_refused_before_anything_is_played(tmp_path, capsys):
    path = tmp_path / "file"
    path.write_text("x")
    with pytest.raises(TournamentError, match="is not a folder"):
        run_tournament(["heuristic", "greedy"], deals=1, executor="serial", progress=False, records=path)
    with pytest.raises(TournamentError, match="records must be a folder name"):
        run_tournament(["heuristic", "greedy"], deals=1, executor="serial", progress=False, records=3)
    assert tournament_main(["heuristic", "greedy", "--deals", "1", "--workers", "1", "--no-progress", "--out", "none",
                            "--records", str(path)]) == 2
    assert "is not a folder" in capsys.readouterr().err


def test_record_names_are_safe_file_names():
    assert record_name(2, 17, 1, "search:time_ms=50", "external:python my bot.py") == (
        "pairing2_deal17_seating1_search-time-ms=50_vs_external-python-my-bot.py.json")  # "_" separates
    text = json.dumps(record_name(0, 0, 0, "a/b", "c"))
    assert "/" not in json.loads(text)


def test_a_records_folder_of_another_seed_or_rules_is_refused_and_left_as_it_was(tmp_path, capsys):
    folder = tmp_path / "rec"
    run_tournament(["heuristic", "greedy"], deals=1, executor="serial", progress=False, records=folder)
    before = {p.name: p.read_bytes() for p in folder.iterdir()}
    # the same names, other games: another seed, and other rules (six colours, a match)
    for kwargs in ({"seed": 7}, {"rules": Rules(colors=6, rounds=1)}, {"rules": Rules(rounds=3)}):
        with pytest.raises(TournamentError, match="not a record of this tournament"):
            run_tournament(["heuristic", "greedy"], deals=1, executor="serial", progress=False, records=folder,
                           **kwargs)
    assert tournament_main(["heuristic", "greedy", "--deals", "2", "--seed", "7", "--workers", "1", "--no-progress",
                            "--out", "none", "--records", str(folder)]) == 2
    assert "this run would write over it" in capsys.readouterr().err
    assert {p.name: p.read_bytes() for p in folder.iterdir()} == before
    # the same tournament again, and one of more deals, go on in the folder
    run_tournament(["heuristic", "greedy"], deals=2, executor="serial", progress=False, records=folder)
    assert len(list(folder.iterdir())) == 4
    for name, text in before.items():
        assert read_record(folder / name) == read_record(text.decode())


def test_a_records_folder_of_other_players_under_the_same_names_is_refused(tmp_path, capsys):
    """Found by a review: two outside programs whose labels differ only where a file name cannot
    (``my_bot.py``, ``my-bot.py``) have the same record names, and the second tournament, of the
    same seed and rules, wrote over the first one's records: a folder of two tournaments' games."""
    import sys

    folder = tmp_path / "rec"
    for name in ("my_bot.py", "my-bot.py"):
        (tmp_path / name).write_text("from lcanalysis.agents.protocol import serve\nserve('greedy')\n")
    first, second = (f"external:{sys.executable} {tmp_path / name}" for name in ("my_bot.py", "my-bot.py"))
    assert record_name(0, 0, 0, first, "random") == record_name(0, 0, 0, second, "random")
    common = ["random", "--deals", "1", "--workers", "1", "--no-progress", "--out", "none", "--records", str(folder)]
    assert tournament_main([first, *common]) == 0
    before = {p.name: p.read_bytes() for p in folder.iterdir()}
    assert tournament_main([second, *common]) == 2
    assert "is not a record of this tournament" in capsys.readouterr().err
    assert {p.name: p.read_bytes() for p in folder.iterdir()} == before


def test_a_match_tournament_goes_on_in_its_own_records_folder(tmp_path):
    folder = tmp_path / "rec"
    for deals in (1, 2):
        run_tournament(["greedy", "random"], deals=deals, rules=Rules(rounds=3), executor="serial", progress=False,
                       records=folder)
    assert len(list(folder.iterdir())) == 4
    (folder / record_name(0, 2, 0, "greedy", "random")).write_text("not a record")
    with pytest.raises(TournamentError, match="or not a record"):
        run_tournament(["greedy", "random"], deals=3, rules=Rules(rounds=3), executor="serial", progress=False,
                       records=folder)
