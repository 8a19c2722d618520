"""The command-line answers as docs/spec/interchange.md ("Command-line answers") defines them.

Each test reads the JSON a command prints and checks what the shared spec says of it, with the
spec's words in the docstring: the keys and their types, "best first", "loss is the best turn's
value minus this turn's", the wager model's distribution against its own mean, one review entry
per turn, the bot's one answer a line. Only the shared keys are read, as another tool would; the
extras lcanalysis adds are left alone.
"""

from __future__ import annotations

import itertools
import json
import subprocess
import sys

import pytest

import lcanalysis as lc
from lcanalysis.cli.main import main
from lcanalysis.game.records import record_round, write_record

THREE_CARDS = ("LC1;c5;h8;nr;m0;v0;p0=Yw.Bw.Ww.Ww.Ww.G8.Rw.R3;p1=?8;e0=Y2.B5.B10.W4.G5.R8.R9;"
               "e1=Y5.Y7.B4.B9.G10.R6.R10;x=Y8.Y10.Yw.Y6.Y4.Yw.Bw.Bw.B6.B7.B3.B8.W6.W7.W5.W10.W8.W2.W3.W9.G2.G7.Gw."
               "Gw.G6.Rw.R7;d=3")


def _json(capsys, *argv: str) -> dict:
    assert main(list(argv)) == 0
    return json.loads(capsys.readouterr().out)


def _legal(source: str) -> set[str]:
    """Every legal turn of a position, or of a view (its turns do not depend on the hidden cards)."""
    pos = lc.read_position(source)
    if isinstance(pos, lc.View):
        unseen = pos.unseen()
        pos = pos.complete(unseen[: pos.opponent_unknown], unseen[pos.opponent_unknown:])
    return {str(m) for m in pos.legal_moves()}


def _number(x) -> bool:
    return isinstance(x, (int, float)) and not isinstance(x, bool)


def test_solve_prints_the_value_exact_and_every_turn_best_first(capsys):
    """`{"value": v, "exact": true|false, "moves": [{"move", "value", "stderr"}, ...], "nodes": n,
    "seconds": t}`, the moves best first; `exact` is true when no sampling was used."""
    out = _json(capsys, "solve", "example:endgame", "--max-stalls", "0", "--json")
    assert {"value", "exact", "moves", "nodes", "seconds"} <= set(out)
    assert out["exact"] is True and _number(out["nodes"]) and _number(out["seconds"])
    values = [m["value"] for m in out["moves"]]
    assert values == sorted(values, reverse=True) and out["value"] == values[0]
    assert all({"move", "value", "stderr"} <= set(m) and m["stderr"] == 0 for m in out["moves"])
    # no stall allowed, so the answer lists only the turns the bound allows: those that draw from the deck
    assert {m["move"] for m in out["moves"]} == {m for m in _legal("example:endgame") if m.endswith("/D")}


def test_wager_prints_each_count_of_wagers_with_a_distribution_that_agrees_with_its_mean(capsys):
    """`{"color": "R", "draws": K, "by_wagers": [{"wagers": j, "mean": m, "p_positive": p,
    "distribution": {"score": probability}}]}`, `j` from 0 to the wagers of that colour in hand."""
    source = "LC1;c5;h8;nr;m0;v0;p0=Gw.Gw.G3.G7.B4.W8.Y2.R5;p1=?8;d=44"
    colour = "G"
    in_hand = sum(1 for c in lc.read_position(source).hand if str(c) == colour + "w")
    assert in_hand == 2
    out = _json(capsys, "wager", source, "--color", colour, "--draws", "10", "--json")
    assert out["color"] == colour and out["draws"] == 10
    assert [b["wagers"] for b in out["by_wagers"]] == list(range(in_hand + 1))
    for b in out["by_wagers"]:
        dist = {int(k): p for k, p in b["distribution"].items()}
        assert sum(dist.values()) == pytest.approx(1.0)
        assert b["mean"] == pytest.approx(sum(s * p for s, p in dist.items()))
        assert b["p_positive"] == pytest.approx(sum(p for s, p in dist.items() if s > 0))


@pytest.mark.parametrize("source, time", [("example:midround", "0.3"), (THREE_CARDS, "3")],
                         ids=["play-outs", "endgame search"])
def test_advise_lists_every_legal_turn_best_first_with_loss_the_best_value_minus_its_own(capsys, source, time):
    """`{"kind", "exact", "moves": [{"move", "value", "stderr", "loss", "loss_stderr"}]}` with every
    legal turn, best first; `loss` is the best turn's value minus this turn's (0 for the first),
    and `loss_stderr` the standard error of that difference (0 when exact)."""
    out = _json(capsys, "advise", source, "--time", time, "--json")
    assert {"kind", "exact", "moves"} <= set(out) and isinstance(out["exact"], bool)
    moves = out["moves"]
    assert sorted(m["move"] for m in moves) == sorted(_legal(source))
    best = moves[0]["value"]
    assert moves[0]["loss"] == 0 and moves[0]["loss_stderr"] == 0
    for a, b in itertools.pairwise(moves):
        assert a["value"] >= b["value"] - 1e-9
    for m in moves:
        assert m["loss"] == pytest.approx(best - m["value"], abs=1e-9) and m["loss_stderr"] >= 0
        if out["exact"]:
            assert m["stderr"] == 0 and m["loss_stderr"] == 0


def test_review_gives_one_entry_per_turn_and_numbers_for_every_player(capsys, tmp_path):
    """`{"decisions": [{"index", "player", "played", "best", "loss", "loss_stderr", "mark"}],
    "players": [{"player", "decisions", "error_rate", "luck", "result", "luck_adjusted"}]}`: one
    entry per turn of the record (`index` counts turns from the start), losses in points."""
    pos = lc.Position.deal(5)
    start = pos.copy()
    agent = lc.make_agent("greedy")
    for _ in range(6):
        pos.push(agent.choose(pos.view(pos.to_move), 0))
    record = record_round(start, pos.history)
    path = tmp_path / "r.json"
    write_record(record, path)
    out = _json(capsys, "review", str(path), "--time", "0.05", "--workers", "1", "--json", "--no-progress")
    decisions = out["decisions"]
    assert [d["index"] for d in decisions] == list(range(len(record.turns)))
    for d, turn in zip(decisions, record.turns):
        assert d["played"] == str(turn).split(":")[0] and d["player"] in (0, 1)
        assert d["best"] in _legal(start.to_string()) or d["index"] > 0
        assert _number(d["loss"]) and _number(d["loss_stderr"]) and d["loss_stderr"] >= 0
        assert d["mark"] in (None, "mistake")  # the shared spec's two: other tools read no other
        assert d["grade"] in (None, "inaccuracy", "mistake", "blunder")
        assert d["mark"] == ("mistake" if d["grade"] in ("mistake", "blunder") else None)
    assert sorted(p["player"] for p in out["players"]) == [0, 1]
    for p in out["players"]:
        assert all(_number(p[k]) for k in ("decisions", "error_rate", "luck", "result", "luck_adjusted"))


def test_the_bot_answers_every_line_with_one_line_and_exits_zero_on_quit():
    """`lcanalysis bot NAME` reads one JSON object per line and answers each with one line; `quit`
    exits with status 0; an illegal or unreadable request gets `{"error": "..."}` and the bot keeps
    serving."""
    pos = lc.Position.deal(2)
    turn = json.dumps({"type": "turn", "position": pos.view(pos.to_move).to_json(), "time_ms": 50})
    lines = [turn, "not json", "", '{"type": "dance"}', turn, '{"type": "quit"}']
    done = subprocess.run([sys.executable, "-m", "lcanalysis", "bot", "greedy"], input="\n".join(lines) + "\n",
                          capture_output=True, text=True, timeout=300, check=False)
    assert done.returncode == 0
    answers = [json.loads(x) for x in done.stdout.splitlines()]
    assert len(answers) == len(lines) - 1  # every line but quit
    assert [set(a) for a in answers] == [{"move"}, {"error"}, {"error"}, {"error"}, {"move"}]
    assert answers[0]["move"] in {str(m) for m in pos.legal_moves()} and answers[4] == answers[0]
