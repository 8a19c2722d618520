"""What each seat did in a tournament round (expeditions opened, wagers, cards placed, discards):
counted by hand on a scripted round, by reading the turns' text on played rounds, checked in the
results file's lines, summarised per agent with errors over deals, and absent from old files."""

import json
import math
import shutil
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from lcanalysis.agents import make_agent
from lcanalysis.cli.tournament import tournament_main
from lcanalysis.game.position import Position
from lcanalysis.game.rules import Rules
from lcanalysis.tournaments.play_counts import PLAY_COLUMNS, play_counts
from lcanalysis.tournaments.results import Schema, _Invalid, tournament_identity
from lcanalysis.tournaments.runner import RESULT_COLUMNS, load_results, play_round, run_tournament, summarize
from lcanalysis.tournaments.specs import check_agent

DATA = Path(__file__).resolve().parent.parent / "data"


class Scripted:
    """Plays the turns it is given, in order."""

    name = "scripted"

    def __init__(self, turns):
        self.turns = list(turns)

    def choose(self, view, seed=None, time_ms=None):
        return self.turns.pop(0)


def test_a_scripted_round_counts_as_counted_by_hand():
    # deal 7: seat 0 holds Yw Bw B3 B6 Gw Gw R4 R5, seat 1 Y3 Y5 Y9 Ww W3 W7 G10 R8; seat 0 starts and
    # the round stops at 7 turns: seat 0 takes turns 1, 3, 5, 7 and seat 1 turns 2, 4, 6
    assert [str(c) for c in Position.deal(7).hand(0)] == ["Yw", "Bw", "B3", "B6", "Gw", "Gw", "R4", "R5"]
    seat0 = Scripted(["+Gw/D", "-R4/D", "+Gw/D", "+B3/D"])
    seat1 = Scripted(["+Ww/D", "-Y3/R", "-G10/D"])  # takes R4 back: seat 0's discard is gone from the piles
    row = play_round([seat0, seat1], 7, Rules(turn_cap=7))
    assert row["turns"] == 7 and row["capped"]
    # seat 0: green (two wagers) and blue (B3) opened, 3 cards placed, R4 discarded;
    # seat 1: white (a wager) opened, 1 card placed, Y3 and G10 discarded
    assert {k: row[k] for k in PLAY_COLUMNS} == {"opened0": 2, "opened1": 1, "wagers0": 2, "wagers1": 1,
                                                 "placed0": 3, "placed1": 1, "discarded0": 1, "discarded1": 2}


def test_a_position_set_up_mid_round_is_refused():
    pos = Position.deal(7).play("+Gw/D")
    again = Position(pos.rules, pos.state.copy())  # the table without its turns
    with pytest.raises(ValueError, match="every turn of the round since the deal: 1 turns played, 0 known"):
        play_counts(again, 0)


def _from_turns(turns, starter, colors):
    """The counts read off the turns' text alone: '+R7/D' places R7, '-Bw/G' discards Bw."""
    out = dict.fromkeys(PLAY_COLUMNS, 0)
    opened = [set(), set()]
    for i, turn in enumerate(turns):
        seat = (starter + i) % 2
        card = turn.split("/")[0][1:]
        if turn.startswith("+"):
            out[f"placed{seat}"] += 1
            out[f"wagers{seat}"] += card.endswith("w")
            opened[seat].add(card[0])
        else:
            out[f"discarded{seat}"] += 1
    for seat in (0, 1):
        out[f"opened{seat}"] = len(opened[seat])
        assert opened[seat] <= set("YBWGRP"[:colors])
    return out


@pytest.mark.parametrize("colors, starter", [(5, 0), (6, 1)])
def test_played_rounds_count_as_their_turns_read_one_by_one(colors, starter):
    agents = [make_agent("heuristic"), make_agent("greedy")]
    for seed in range(3):
        turns: list[str] = []
        row = play_round(agents, seed, Rules(colors=colors), starter, record=turns)
        assert {k: row[k] for k in PLAY_COLUMNS} == _from_turns(turns, starter, colors)
        assert row["placed0"] + row["discarded0"] + row["placed1"] + row["discarded1"] == row["turns"]


def _schema():
    specs = [check_agent("heuristic"), check_agent("greedy")]
    return Schema(tournament_identity(specs, Rules(rounds=1), 0, True, False, code={}))


def _job(**changes):
    df = run_tournament(["heuristic", "greedy"], deals=1, executor="serial", progress=False)
    row = {k: (v.item() if hasattr(v, "item") else v) for k, v in df.iloc[0].to_dict().items()}
    row.update(changes)
    return {"job": "0:0:0", "rows": [{k: v for k, v in row.items() if v is not None}]}


def test_a_line_holds_all_the_counts_or_none_and_they_add_up_to_the_turns():
    schema = _schema()
    schema.record(_job())
    schema.record(_job(**dict.fromkeys(PLAY_COLUMNS)))  # a line written before they were kept
    with pytest.raises(_Invalid, match=r"missing discarded1 \(the play counts are all there or none\)"):
        schema.record(_job(discarded1=None))
    row = _job()["rows"][0]
    with pytest.raises(_Invalid, match=r"placed0 \+ discarded0 is .*, expected seat 0's .* turns"):
        schema.record(_job(placed0=row["placed0"] + 1))
    with pytest.raises(_Invalid, match=r"opened0 is 6, expected a whole number 0\.\.5"):
        schema.record(_job(opened0=6))
    with pytest.raises(_Invalid, match=r"wagers1 is 1\.5"):
        schema.record(_job(wagers1=1.5))


def _rows(counts):
    """Rounds of a and b on deals 0 and 1, both seatings: ``counts[(deal, swap)]`` = (a's, b's) count."""
    rows = []
    for (deal, swap), (a, b) in counts.items():
        seat0, seat1 = (a, b) if swap == 0 else (b, a)
        row = {"pairing": 0, "deal": deal, "swap": swap, "round": 1, "seed": 0, "colors": 5, "starter": 0,
               "player0": "a" if swap == 0 else "b", "player1": "b" if swap == 0 else "a",
               "score0": 0, "score1": 0, "turns": 44, "capped": False}
        for name in ("opened", "wagers", "placed", "discarded"):
            row[f"{name}0"], row[f"{name}1"] = seat0, seat1
        rows.append(row)
    return pd.DataFrame(rows)


def test_the_summary_gives_each_agents_mean_and_its_error_over_deals():
    # a's counts 2 and 4 on deal 0 (mean 3), 5 and 5 on deal 1 (mean 5); b's 1 and 1 (1), 2 and 4 (3)
    df = _rows({(0, 0): (2, 1), (0, 1): (4, 1), (1, 0): (5, 2), (1, 1): (5, 4)})
    s = summarize(df).iloc[0]
    assert (s.agent, s.play_counted) == ("a", True)
    # a: deals 3 and 5, mean 4, sd sqrt(2), error sqrt(2)/sqrt(2) = 1; b: deals 1 and 3, the same;
    # their difference 2 on both deals: no spread, error 0 (paired by deal, not the errors combined)
    assert (s.opened, s.opened_stderr, s.opponent_opened, s.opponent_opened_stderr) == pytest.approx((4, 1, 2, 1))
    assert s.opened_diff_stderr == 0
    one = summarize(df[df.deal == 0]).iloc[0]
    assert one.wagers == 3 and math.isnan(one.wagers_stderr)  # one deal: no error


def test_the_command_writes_the_counts_to_the_csv_the_summary_and_json(tmp_path, capsys):
    out, table = tmp_path / "r.jsonl", tmp_path / "r.csv"
    argv = ["heuristic", "greedy", "--deals", "3", "--out", str(out), "--csv", str(table), "--no-progress",
            "--workers", "1"]
    assert tournament_main(argv) == 0
    text = capsys.readouterr().out
    csv = pd.read_csv(table)
    assert list(csv.columns[-len(PLAY_COLUMNS):]) == PLAY_COLUMNS
    a = np.where(csv.player0 == "heuristic", csv.opened0, csv.opened1).reshape(3, 2).mean(axis=1)
    line = next(x for x in text.splitlines() if x.strip().startswith("expeditions opened:"))
    assert f"heuristic {a.mean():.2f} ± {a.std(ddof=1) / math.sqrt(3):.2f}, greedy" in line
    assert "mean ± one standard error over deals" in text
    assert tournament_main(argv + ["--json"]) == 0
    summary = json.loads(capsys.readouterr().out)["summary"][0]
    assert summary["opened"] == pytest.approx(a.mean())
    assert summary["opened_stderr"] == pytest.approx(a.std(ddof=1) / math.sqrt(3))
    lines = [json.loads(x) for x in out.read_text().splitlines()[1:]]
    assert all(set(PLAY_COLUMNS) <= set(r) for x in lines for r in x["rows"])


def test_a_file_from_before_the_counts_reads_as_before_and_says_when_some_rounds_lack_them(tmp_path, capsys):
    path = tmp_path / "x.jsonl"
    path.write_text("\n".join((DATA / "strength_heuristic_vs_greedy.jsonl").read_text().splitlines()[:4]) + "\n")
    Path(str(path) + ".cmd").write_text("lcanalysis tournament heuristic greedy --deals 1000 --out data/x.jsonl\n")
    old = load_results(path)
    assert not set(PLAY_COLUMNS) & set(old.columns) and "play_counted" not in summarize(old)
    shutil.copy(path, tmp_path / "before.jsonl")
    argv = ["heuristic", "greedy", "--deals", "3", "--out", str(path), "--no-progress", "--workers", "1"]
    assert tournament_main(argv) == 0  # one deal more, played with the counts: the file mixes both
    assert "play counts: not given, some rounds of this pairing were played before they were kept" in \
        capsys.readouterr().out
    mixed = load_results(path)
    assert mixed[PLAY_COLUMNS].notna().all(axis=1).tolist() == [False] * 4 + [True] * 2
    assert mixed[RESULT_COLUMNS].iloc[:4].equals(old[RESULT_COLUMNS])
