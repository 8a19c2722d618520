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
import re
import subprocess
import sys
from pathlib import Path

import pytest

import lcanalysis as lc
from lcanalysis.analysis import TIE, move_order
from lcanalysis.cli.main import main
from lcanalysis.game.records import record_match, record_round, write_record

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


# --- the same answers on the edge cases of the shared format ----------------------------------------
# Each position below is one the shared spec names: the last card of the draw pile, a position in its
# draw step (a full one and its view), the 6-colour game, a view with buried pile cards, an expedition
# of wagers only, a round already over. The keys and types are checked strictly, as a tool written
# from the shared spec alone would read them, and the numbers against independent computations.

ONE_CARD = ("LC1;c5;h8;nr;m0;p0=W3.W5.W6.G2.G9.G10.Rw.R5;p1=B3.B6.B7.W8.W9.G5.R6.R7;"
            "e0=Y3.Y4.Y6.Y7.Y10.B10.W4.W7.W10.R3.R4.R8.R9.R10;e1=Y9.B5.B8.B9.Ww.Ww.Gw.G4.G6.G7.G8;"
            "x=Yw.Yw.Y5.Y2.Yw.Y8.B2.Bw.Bw.B4.Ww.W2.Gw.G3.Gw.R2.Rw.Rw;d=Bw")
# player 0 has discarded W3 and must now draw (under the no-redraw rule, not from the white pile)
DRAW_STEP = ("LC1;c5;h8;nr;m0;p0=W5.W6.G2.G9.G10.Rw.R5;p1=B3.B6.B7.W8.W9.G5.R6.R7;"
             "e0=Y3.Y4.Y6.Y7.Y10.B10.W4.W7.W10.R3.R4.R8.R9.R10;e1=Y9.B5.B8.B9.Ww.Ww.Gw.G4.G6.G7.G8;"
             "x=Yw.Yw.Y5.Yw.Y8.B2.Bw.Bw.B4.Ww.W2.W3.Gw.G3.Gw.R2.Rw.Rw;d=Bw.Y2;draw=W")
SIX = ("LC1;c6;h8;nr;m1;p0=B9.W3.Rw.R5.Pw.Pw.Pw.P8;p1=Y8.Y9.Bw.Bw.R2.P3.P7.P10;e0=Y6.B8.W10.G4.R9.R10.P4.P9;"
       "x=Y10.Y2.Yw.Y7.Yw.Yw.Y4.Y5.Bw.B10.B5.B6.B2.B3.B4.B7.W8.W9.W2.Ww.Ww.W7.W4.Ww.W6.W5.G10.Gw.G6.G9.G3.G2.G5.Gw."
       "G7.Gw.G8.Rw.R8.R7.R3.Rw.R6.P5.P2;d=Y3.P6.R4")
# example:endgame seen by player 0 from memory: Y5 and Y2, under Yw Y8 on the yellow pile, forgotten
BURIED = ("LC1;c5;h8;nr;m0;v0;p0=B10.W2.W3.W6.G9.G10.Rw.R5;p1=?8.B4;e0=Y3.Y4.Y6.Y7.Y10.W4.W7.W10.R3.R4.R8.R9.R10;"
          "e1=B5.B8.B9.Ww.Ww.Gw.G4.G6.G7.G8;x=Yw.Yw.Y?.Y?.Yw.Y8.B2.Bw.Bw.Ww.Gw.G3.Gw.R2.Rw.Rw;d=5")
MOVE_TEXT = r"([+-][YBWGRP](10|[2-9]|w))?/[DYBWGRP]"  # a whole turn, or the draw half alone


def _table_alone(pos) -> str:
    """A position played on from one of those above, without the history (which would not start at the deal)."""
    return lc.read_position({k: v for k, v in pos.to_json().items() if k != "history"}).to_string()


def _view_of(source: str) -> str:
    pos = lc.read_position(source)
    return pos.view(pos.to_move).to_string()


def _turns_of(source: str) -> set[str]:
    """The legal turns, from the full position a view was taken from when it has buried cards (the
    turns depend only on the tops of the piles, which are always known)."""
    return _legal(lc.read_position("example:endgame").view().to_string() if source == BURIED else source)


def _shared_answer(capsys, *argv: str) -> dict:
    """The one line of JSON a command prints, its keys and types as the shared spec names them."""
    assert main(list(argv)) == 0
    out = capsys.readouterr().out
    assert out.endswith("\n") and out.count("\n") == 1  # one object on one line
    return json.loads(out)


def _integer(x) -> bool:
    return isinstance(x, int) and not isinstance(x, bool)


def _check_moves(moves: list, keys: set[str], exact: bool) -> None:
    values = [m["value"] for m in moves]
    # best first; values that tie to rounding (the same exact value summed in another order) go in the
    # canonical order of turns, whichever came out a few 1e-14 higher (docs/spec/interchange.md, "Ties")
    assert all(later <= earlier + TIE for earlier, later in itertools.pairwise(values))
    for earlier, later in itertools.pairwise(moves):
        if abs(earlier["value"] - later["value"]) <= TIE and earlier.get("bound") == later.get("bound"):
            assert move_order(earlier["move"]) < move_order(later["move"])
    for m in moves:
        assert keys <= set(m) and isinstance(m["move"], str) and re.fullmatch(MOVE_TEXT, m["move"]), m
        assert str(lc.Move.parse(m["move"])) == m["move"]  # the canonical spelling
        assert all(_number(m[k]) for k in keys - {"move"}) and m["stderr"] >= 0
        if exact:
            assert m["stderr"] == 0


@pytest.mark.parametrize("source", [ONE_CARD, DRAW_STEP, _view_of(DRAW_STEP), SIX, _view_of(SIX), BURIED],
                         ids=["last card", "draw step", "draw step, view", "6 colours", "6 colours, view",
                              "buried cards"])
@pytest.mark.parametrize("bound", [("--max-stalls", "0"), ("--max-turns", "1", "--leaf", "as-is")],
                         ids=["no stalls", "one turn"])
def test_solve_keeps_the_shared_keys_and_lists_exactly_the_turns_its_bound_allows(capsys, source, bound):
    """`{"value": v, "exact": true|false, "moves": [{"move", "value", "stderr"}], "nodes": n, "seconds":
    t}`, best first; `s = 0` is the round with no more discard-pile draws; an answer "lists only the turns
    they allow"; a position in the draw step is answered with the draw half alone."""
    out = _shared_answer(capsys, "solve", source, *bound, "--json")
    assert isinstance(out["exact"], bool) and out["exact"]  # nothing sampled: every split enumerated
    assert _number(out["value"]) and _integer(out["nodes"]) and out["nodes"] >= 1
    assert _number(out["seconds"]) and out["seconds"] >= 0
    _check_moves(out["moves"], {"move", "value", "stderr"}, out["exact"])
    assert out["value"] == out["moves"][0]["value"]
    legal = _turns_of(source)
    allowed = {m for m in legal if m.endswith("/D")} if bound[0] == "--max-stalls" else legal
    assert sorted(m["move"] for m in out["moves"]) == sorted(allowed)
    if lc.read_position(source).phase == "draw":
        assert all(m["move"].startswith("/") for m in out["moves"])
        assert "/W" not in legal  # the pile just discarded onto (the no-redraw rule)


def test_solve_values_on_the_last_card_are_the_score_differences_worked_by_hand(capsys):
    """The value is E[final round score of the player to move - the opponent's], counting every card on
    the table. With one card left, a turn that draws it ends the round: its value is the table after
    the card placed. Player 0 leads 15 to -59 (yellow 3 4 6 7 10: +10, blue 10: -10, white 4 7 10: +1,
    red 3 4 8 9 10: +14; against yellow 9: -11, blue 5 8 9: +2, two white wagers: -60, green wager 4 6 7
    8: +10), so every discard is worth 74 and opening green costs 20 less the card: G10 64, G9 63, G2 56.
    With one stall each, a turn that takes a pile's top instead leaves the last card to player 1, whose
    best last turn is +W9/D onto the two white wagers: (9 - 20) x 3 = -33 instead of -60, 27 points less
    than the same card placed with the last card drawn (a stall of player 1 then, +W8, gains only 24)."""
    out = _shared_answer(capsys, "solve", ONE_CARD, "--max-stalls", "0", "--json")
    values = {m["move"]: m["value"] for m in out["moves"]}
    discards = {f"-{c}/D" for c in ("W3", "W5", "W6", "G2", "G9", "G10", "Rw", "R5")}
    assert values == {**dict.fromkeys(discards, 74.0), "+G10/D": 64.0, "+G9/D": 63.0, "+G2/D": 56.0}
    out = _shared_answer(capsys, "solve", ONE_CARD, "--max-stalls", "1", "--json")
    stalls = {m["move"]: m["value"] for m in out["moves"] if not m["move"].endswith("/D")}
    assert len(stalls) == 8 * 4 + 3 * 5  # a discard may not take back its own pile; a play takes from any of 5
    assert all(value == values[move.split("/")[0] + "/D"] - 27 for move, value in stalls.items())
    assert {m["move"]: m["value"] for m in out["moves"] if m["move"].endswith("/D")} == values


@pytest.mark.parametrize("source, stalls", [(SIX, 0), (DRAW_STEP, 0), (DRAW_STEP, 1)],
                         ids=["6 colours", "draw step", "draw step, one stall"])
def test_solve_values_of_a_full_position_equal_a_plain_expectiminimax(capsys, source, stalls):
    """"Both hands are known; the draw pile's contents are known, its order uniformly random. The player to
    move maximizes the value, the opponent minimizes it, chance draws from the pile": the reference of
    tests/search_reference.py, a memoized expectiminimax without the solver's tricks. A draw half's
    value is the opponent's value after it, negated, averaged over the cards the pile can give."""
    import search_reference as R

    pos = lc.read_position(source)
    out = _shared_answer(capsys, "solve", source, "--max-stalls", str(stalls), "--json")
    got = {m["move"]: m["value"] for m in out["moves"]}
    want = {}
    for move in got:
        outcomes = pos.deck_draw_outcomes() if move.endswith("/D") else [(None, 1)]
        total = 0.0
        for card, p in outcomes:
            child = pos.copy()
            child.push(move, drawn=card)
            if child.is_over():  # the last card: the table as it stands, seen by the opponent now to move
                total -= float(p) * child.value_for_mover()
                continue
            budget = [stalls, stalls]  # discard-pile draws left to players 0 and 1
            budget[pos.to_move] -= 0 if move.endswith("/D") else 1
            total -= float(p) * max(R.root_values(R.game_from_state(child.state, tuple(budget), None)).values())
        want[move] = total
    assert got.keys() == want.keys()
    for move, value in want.items():
        assert got[move] == pytest.approx(value, abs=1e-9), move


@pytest.mark.parametrize("source", [ONE_CARD, DRAW_STEP, SIX], ids=["last card", "draw step", "6 colours"])
def test_solve_under_a_horizon_gives_every_turn_the_value_of_a_plain_expectiminimax(capsys, tmp_path, source):
    """`max_turns = T` with `leaf = "as-is"`: "play stops after T more turns, or when the pile runs out,
    whichever comes first; a stopped round is scored as it stands", with no cap on discard-pile draws, so
    every legal turn is listed. The position is given as POSITION.json, as the shared spec writes the
    command. The reference is tests/search_reference.py's expectiminimax; in the draw step the draw still
    to make is the first of the T turns (docs/spec/interchange.md, "Endgame values")."""
    import search_reference as R

    horizon = 2
    pos = lc.read_position(source)
    path = tmp_path / "position.json"
    path.write_text(json.dumps(pos.to_json()))
    out = _shared_answer(capsys, "solve", str(path), "--max-turns", str(horizon), "--leaf", "as-is", "--json")
    assert out["exact"] is True
    got = {m["move"]: m["value"] for m in out["moves"]}
    assert sorted(got) == sorted(_legal(source))
    for move, value in got.items():
        want = 0.0
        for card, p in pos.deck_draw_outcomes() if move.endswith("/D") else [(None, 1)]:
            child = pos.copy()
            child.push(move, drawn=card)
            # the opponent's value with one turn fewer left (none: the table as it stands), negated
            want -= float(p) * (child.value_for_mover() if child.is_over() else
                                R.value(R.game_from_state(child.state, (None, None), horizon - 1)))
        assert value == pytest.approx(want, abs=1e-9), move


# the keys of a position's JSON (and of the opponent's hand in a view): names, not cards or colours
_POSITION_KEYS = {"rules", "to_move", "viewer", "hands", "expeditions", "discards", "deck", "phase", "blocked",
                  "history", "match", "known", "count"}


def _lower_case(data):
    """Every card, colour letter and turn of a position's JSON in lower case; its keys and numbers kept."""
    if isinstance(data, str):
        return data.lower()
    if isinstance(data, list):
        return [_lower_case(x) for x in data]
    if isinstance(data, dict):
        return {k if k in _POSITION_KEYS else k.lower(): v if k == "rules" else _lower_case(v)
                for k, v in data.items()}
    return data


@pytest.mark.parametrize("full", [True, False], ids=["full position", "view"])
def test_a_position_written_in_any_case_is_read_and_written_back_canonically(capsys, full):
    """"Input is case-insensitive (`r7`, `gW`); output is canonical (`R7`, `Gw`)": a position in its draw
    step whose cards, pile and expedition colours, blocked pile and history turns are all lower case is
    the same position, and `show --json` writes it in the canonical spelling, key for key."""
    pos = lc.read_position("example:endgame")  # player 0 to move, B4 taken back by player 1 (in the history)
    canonical = (pos if full else pos.view()).to_json()
    canonical["hands"][0].remove("W2")  # player 0 discards W2: the draw step, the white pile blocked
    canonical["discards"]["W"].append("W2")
    canonical["phase"], canonical["blocked"] = "draw", "W"
    lower = _lower_case(canonical)
    assert "w2" in lower["discards"]["w"] and lower["blocked"] == "w" and "+y3/d" in lower["history"]
    assert main(["show", json.dumps(lower), "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out == canonical
    assert out["discards"]["W"][-2:] == ["Ww", "W2"] and out["hands"][0][:2] == ["B10", "W3"]  # as the spec spells them
    if not full:  # the opponent's known card, taken back from the blue pile
        assert out["hands"][1] == {"known": ["B4"], "count": 8}


def test_a_draw_step_after_a_play_blocks_no_pile(capsys):
    """`"phase": "draw"` with `"blocked": null`: the card just placed went onto an expedition, so no pile is
    closed and every non-empty pile's top may be taken, as well as the draw pile (one stall each allows
    it); the position is written back with `"blocked": null`."""
    data = lc.read_position("example:endgame").to_json()
    data.pop("history")
    data["hands"][0].remove("G9")  # player 0 opens green with G9
    data["expeditions"][0]["G"] = ["G9"]
    data["phase"], data["blocked"] = "draw", None
    assert main(["show", json.dumps(data), "--json"]) == 0
    written = json.loads(capsys.readouterr().out)
    assert written["phase"] == "draw" and "blocked" in written and written["blocked"] is None
    out = _shared_answer(capsys, "solve", json.dumps(data), "--max-stalls", "1", "--json")
    assert sorted(m["move"] for m in out["moves"]) == sorted(["/D"] + [f"/{c}" for c in data["discards"]])
    assert len(data["discards"]) == 5  # every colour's pile holds a card here
    out = _shared_answer(capsys, "solve", json.dumps(data), "--max-stalls", "0", "--json")
    assert [m["move"] for m in out["moves"]] == ["/D"]


def test_review_counts_index_from_the_record_s_start_even_when_the_start_has_a_history(capsys, tmp_path):
    """One review entry per turn of the record, "`index` counts turns from the start": from the record's
    `start`, here a position 42 turns into the round (its own history not counted), each entry's mover the
    player to move at that turn."""
    start = lc.read_position("example:endgame")
    assert len(start.history) == 42
    pos = start.copy()
    agent = lc.make_agent("greedy")
    for _ in range(3):
        pos.push(agent.choose(pos.view(pos.to_move), 0))
    record = record_round(start, pos.history[42:])
    assert len(record.turns) == 3 and len(record.start.history) == 42
    path = tmp_path / "record.json"
    write_record(record, path)
    assert len(json.loads(path.read_text())["start"]["history"]) == 42  # the file's start keeps it
    out = _shared_answer(capsys, "review", str(path), "--time", "0.05", "--workers", "1", "--json", "--no-progress")
    assert [(d["index"], d["player"], d["played"]) for d in out["decisions"]] == [
        (i, (start.to_move + i) % 2, str(turn)) for i, turn in enumerate(record.turns)]


def test_review_of_a_match_counts_index_from_each_round_s_start(capsys, tmp_path):
    """A match record: one entry per turn of each round, `index` from 0 at each round's `start` and the
    round in the extra `round` (docs/spec/interchange.md). Rounds cut short by a turn cap of 3 keep it quick."""
    rules = lc.Rules(rounds=2, turn_cap=3)
    match, rounds = lc.Match(rules), []
    agent = lc.make_agent("greedy")
    for r in range(rules.rounds):
        pos = match.new_round(seed=20 + r)
        start = pos.copy()
        while not pos.is_over():
            pos.push(agent.choose(pos.view(pos.to_move), 0))
        match.record(pos.scores())
        rounds.append(record_round(start, pos.history))
    path = tmp_path / "match.json"
    write_record(record_match(rounds, rules), path)
    out = _shared_answer(capsys, "review", str(path), "--time", "0.05", "--workers", "1", "--json", "--no-progress")
    assert [(d["round"], d["index"], d["player"], d["played"]) for d in out["decisions"]] == [
        (r, i, (rec.start.to_move + i) % 2, str(turn))
        for r, rec in enumerate(rounds, 1) for i, turn in enumerate(rec.turns)]
    assert [len(rec.turns) for rec in rounds] == [3, 3]


@pytest.mark.parametrize("agent", ["greedy", "best"])
def test_the_bot_answers_a_view_in_the_draw_step_with_the_draw_half_alone(agent):
    """"A position in the draw step (card already placed) is answered with the draw half alone": the
    mover's view, with its history, after discarding Y2, gets `/D` or a pile's top, never the yellow pile
    (the no-redraw rule)."""
    game = lc.Position.deal(seed=3)
    game.play("-Yw/D -B10/Y")
    view = game.view(0).to_json()
    view["hands"][0].remove("Y2")
    view["discards"]["Y"] = ["Y2"]
    view["phase"], view["blocked"] = "draw", "Y"
    allowed = {str(m) for m in lc.read_position(view).legal_moves()}
    assert allowed == {"/D", "/B"}
    lines = [json.dumps({"type": "turn", "position": view, "time_ms": 100}), json.dumps({"type": "quit"})]
    done = subprocess.run([sys.executable, "-m", "lcanalysis", "bot", agent], input="\n".join(lines) + "\n",
                          capture_output=True, text=True, timeout=300, check=False)
    assert done.returncode == 0, done.stderr
    answers = [json.loads(x) for x in done.stdout.splitlines()]
    assert len(answers) == 1 and set(answers[0]) == {"move"} and answers[0]["move"] in allowed


@pytest.mark.parametrize("source, time", [(ONE_CARD, "1"), (DRAW_STEP, "1"), (_view_of(DRAW_STEP), "1"), (SIX, "1"),
                                          (BURIED, "0.3")],
                         ids=["last card", "draw step", "draw step, view", "6 colours", "buried cards"])
def test_advise_keeps_the_shared_keys_on_every_edge_of_the_format(capsys, source, time):
    """`{"kind": ..., "exact": true|false, "moves": [{"move", "value", "stderr", "loss", "loss_stderr"}]}`
    with every legal turn, best first; `loss` is the best turn's value minus this turn's (0 for the
    first), `loss_stderr` the standard error of that difference (0 when exact)."""
    out = _shared_answer(capsys, "advise", source, "--time", time, "--json")
    assert isinstance(out["kind"], str) and out["kind"] and isinstance(out["exact"], bool)
    moves = out["moves"]
    _check_moves(moves, {"move", "value", "stderr", "loss", "loss_stderr"}, out["exact"])
    assert sorted(m["move"] for m in moves) == sorted(_turns_of(source))
    assert moves[0]["loss"] == 0 and moves[0]["loss_stderr"] == 0
    for m in moves:
        assert m["loss"] == pytest.approx(moves[0]["value"] - m["value"], abs=1e-9) and m["loss_stderr"] >= 0
        if out["exact"]:
            assert m["loss_stderr"] == 0


def _wagers_only() -> str:
    """Player 0's view at the deal of seed 3 after opening yellow with a wager (and drawing Y10): the
    yellow expedition holds a wager and no number, so a second wager, Yw in hand, can still go down."""
    pos = lc.Position.deal(seed=3)
    pos.push("+Yw/D")
    pos.push("-B10/D")
    return pos.view(0).to_string()


def _brute_force_wager(source: str, colour: str, k: int) -> list[dict[int, float]]:
    """The canonical wager model by enumeration: every k-subset of the unseen cards (each physical card
    once, the buried ones too: "buried unknown cards are unseen"), for each number of wagers placed now,
    scored by the rules' formula written out here."""
    from fractions import Fraction

    view = lc.read_position(source)
    if isinstance(view, lc.Position):
        view = view.view(view.to_move)  # a full position is seen by the player to move
    c = "YBWGRP".index(colour.upper())
    on_it = view.expeditions[view.viewer][c]
    placed = [x.number for x in on_it if not x.is_wager]
    placed_wagers = sum(x.is_wager for x in on_it)
    top = max(placed, default=0)
    held = [x.number for x in view.hand if x.color == c and not x.is_wager and x.number > top]
    wagers_held = sum(1 for x in view.hand if x.color == c and x.is_wager)
    unseen = view.unseen()
    assert len(unseen) == view.deck_count + view.opponent_count - len(view.opponent_known) + view.buried_count
    subsets = list(itertools.combinations(unseen, k))
    answer = []
    for j in range(wagers_held + 1) if not placed else [0]:
        dist: dict[int, Fraction] = {}
        for drawn in subsets:
            numbers = placed + held + [x.number for x in drawn if x.color == c and not x.is_wager and x.number > top]
            wagers = placed_wagers + j
            score = 0 if not numbers and not wagers else \
                (sum(numbers) - 20) * (1 + wagers) + (20 if len(numbers) + wagers >= 8 else 0)
            dist[score] = dist.get(score, Fraction(0)) + Fraction(1, len(subsets))
        answer.append({s: float(p) for s, p in dist.items()})
    return answer


@pytest.mark.parametrize("source, colour, draws", [
    (BURIED, "Y", 2), (BURIED, "B", 2), (SIX, "P", 2), (_view_of(SIX), "p", 3), (DRAW_STEP, "G", 2),
    (_view_of(DRAW_STEP), "W", 1), (_wagers_only(), "y", 2), (_wagers_only(), "Y", 0), (ONE_CARD, "R", 1)],
    ids=["buried, dead colour", "buried", "6 colours, purple", "6 colours, view, lower case", "draw step",
         "draw step, view", "wagers only", "wagers only, no draw", "last card"])
def test_wager_answers_the_canonical_model_on_every_edge_of_the_format(capsys, source, colour, draws):
    """`{"color": "R", "draws": K, "by_wagers": [{"wagers": j, "mean": m, "p_positive": p, "distribution":
    {"score": probability}}]}`, `j` from 0 to the wagers of that colour in hand (more than 0 only while
    the expedition holds no number); the colour written canonically whatever the input's case; the
    distribution and mean exact, here against every k-subset of the unseen cards."""
    out = _shared_answer(capsys, "wager", source, "--color", colour, "--draws", str(draws), "--json")
    assert set(out) == {"color", "draws", "by_wagers"}
    assert out["color"] == colour.upper() and _integer(out["draws"]) and out["draws"] == draws
    want = _brute_force_wager(source, colour, draws)
    assert [b["wagers"] for b in out["by_wagers"]] == list(range(len(want)))
    for b, dist in zip(out["by_wagers"], want, strict=True):
        assert set(b) == {"wagers", "mean", "p_positive", "distribution"} and _integer(b["wagers"])
        assert all(isinstance(s, str) and str(int(s)) == s for s in b["distribution"])
        got = {int(s): p for s, p in b["distribution"].items()}
        assert got.keys() == dist.keys()
        for s, p in dist.items():
            assert got[s] == pytest.approx(p, abs=1e-12)
        assert b["mean"] == pytest.approx(sum(s * p for s, p in dist.items()), abs=1e-9)
        assert b["p_positive"] == pytest.approx(sum(p for s, p in dist.items() if s > 0), abs=1e-12)
    if source == _wagers_only():
        assert len(out["by_wagers"]) == 2  # the wager in hand can still join the one on the expedition


def _over(cap: bool) -> str:
    """A round already over: the last card drawn from ONE_CARD's pile, or the turn cap reached."""
    if cap:
        pos = lc.Position.deal(seed=3, rules=lc.Rules(turn_cap=2))
        pos.play("-Yw/D -B10/Y")
    else:
        pos = lc.read_position(ONE_CARD)
        pos.push("-W3/D")
        assert pos.is_over()
        return _table_alone(pos)
    assert pos.is_over()
    return pos.to_string()


@pytest.mark.parametrize("cap", [False, True], ids=["draw pile empty", "turn cap"])
@pytest.mark.parametrize("argv", [("solve", "--max-stalls", "0", "--json"), ("advise", "--json"),
                                  ("wager", "--color", "R", "--draws", "0", "--json")],
                         ids=["solve", "advise", "wager"])
def test_a_round_already_over_is_refused_by_every_answer_with_an_error_and_nothing_on_standard_output(
        capsys, cap, argv):
    """No turn is left to value, choose or play a card in: each command says so (`error: ...`, exit
    status 2) and prints no JSON a reader could take for an answer."""
    assert main([argv[0], _over(cap), *argv[1:]]) == 2
    captured = capsys.readouterr()
    assert captured.out == "" and captured.err.startswith("error: the round is over")


def _greedy_record(source: str, turns: int | None = None):
    """A record from this full position, the greedy agent playing both seats for
    ``turns`` turns, or to the end of the round."""
    start = lc.read_position(source)
    pos = start.copy()
    agent = lc.make_agent("greedy")
    while not pos.is_over() and (turns is None or len(pos.history) < turns):
        pos.push(agent.choose(pos.view(pos.to_move), 0))
    return record_round(start, pos.history)


def _six_with_two_cards_left() -> str:
    pos = lc.read_position(SIX)
    pos.push("-Y8/D")
    return _table_alone(pos)


@pytest.mark.parametrize("source, seen_by", [(_six_with_two_cards_left(), None), (DRAW_STEP, None),
                                             (lc.Position.deal(5).to_string(), 0)],
                         ids=["6 colours", "from the draw step", "kept by player 0"])
def test_review_keeps_the_shared_keys_on_every_edge_of_the_format(capsys, tmp_path, source, seen_by):
    """`{"decisions": [{"index", "player", "played", "best", "loss", "loss_stderr", "mark": "mistake"|null}],
    "players": [{"player", "decisions", "error_rate", "luck", "result", "luck_adjusted"}]}`; `index` counts
    turns from the start of the round. A record kept by one player is reviewed at that player's turns
    only (the opponent's view there is not known): docs/spec/interchange.md says so."""
    record = _greedy_record(source) if seen_by is None else _greedy_record(source, 6).seen_by(seen_by)
    path = tmp_path / "record.json"
    write_record(record, path)
    out = _shared_answer(capsys, "review", str(path), "--time", "0.05", "--workers", "1", "--json", "--no-progress")
    final = record.final()
    first = record.start.to_move
    turns = [(i, (first + i) % 2, str(t).split(":")[0]) for i, t in enumerate(record.turns)]
    if seen_by is not None:
        turns = [t for t in turns if t[1] == seen_by]
    assert [(d["index"], d["player"], d["played"]) for d in out["decisions"]] == turns
    for d in out["decisions"]:
        assert _integer(d["index"]) and _integer(d["player"]) and isinstance(d["best"], str)
        assert str(lc.Move.parse(d["best"])) == d["best"] and str(lc.Move.parse(d["played"])) == d["played"]
        assert _number(d["loss"]) and _number(d["loss_stderr"]) and d["loss_stderr"] >= 0
        assert d["mark"] in (None, "mistake")
    players = {p["player"]: p for p in out["players"]}
    assert sorted(players) == ([0, 1] if seen_by is None else [seen_by])
    for who, p in players.items():
        assert set(p) >= {"player", "decisions", "error_rate", "luck", "result", "luck_adjusted"}
        assert p["decisions"] == sum(1 for d in out["decisions"] if d["player"] == who)
        assert _integer(p["decisions"]) and all(_number(p[k]) for k in ("luck", "result", "luck_adjusted"))
        assert p["error_rate"] is None or _number(p["error_rate"])
        if seen_by is None:  # their score minus the opponent's, from the table at the end
            assert p["result"] == final.score(who) - final.score(1 - who)
    if seen_by is None:  # the result less the difference in luck
        for who, p in players.items():
            assert p["luck_adjusted"] == pytest.approx(p["result"] - (p["luck"] - players[1 - who]["luck"]), abs=1e-9)


# --- the sketches of docs/spec/interchange.md against the answers ------------------------------------
SPEC_COPY = Path(__file__).resolve().parent.parent / "docs" / "spec" / "interchange.md"


def _sketched_keys(heading: str) -> set[str]:
    """The keys of the answer sketched in one section of docs/spec/interchange.md: its `json-sketch` block,
    or the inline sketch (wager's) when it has none."""
    text = SPEC_COPY.read_text(encoding="utf-8")
    start = text.index("\n" + heading + "\n")
    end = re.compile(r"^##+ ", re.M).search(text, start + len(heading) + 2)
    section = text[start:end.start() if end else len(text)]
    block = re.search(r"```json-sketch\n(.*?)```", section, re.S)
    sketch = block.group(1) if block else re.search(r"`(\{.*?\})`", section, re.S).group(1)
    # (a distribution's "score" stands for each score, written as a string: not a key of the answer)
    return set(re.findall(r'"([a-z_]+)":', sketch)) - {"score"}


def _all_keys(data) -> set[str]:
    if isinstance(data, dict):
        return set(data) | {k for v in data.values() for k in _all_keys(v)}
    if isinstance(data, list):
        return {k for v in data for k in _all_keys(v)}
    return set()


@pytest.mark.parametrize("heading, argv", [
    ("### `lcanalysis solve`", ("solve", "example:endgame", "--max-stalls", "0", "--json")),
    ("### `lcanalysis wager`", ("wager", "example:midround", "--color", "G", "--draws", "3", "--json")),
    ("### `lcanalysis advise`", ("advise", "example:midround", "--time", "0.2", "--json")),
    ("### `lcanalysis review`", ("review", "RECORD", "--time", "0.05", "--workers", "1", "--json", "--no-progress")),
    ("## Game records", None),
], ids=["solve", "wager", "advise", "review", "record"])
def test_every_key_the_spec_copy_sketches_is_in_the_answer(capsys, tmp_path, heading, argv):
    """docs/spec/interchange.md sketches each answer with the shared spec's keys; a key renamed in the code
    (or in the sketch) parts the two, and another tool written from the page would miss it."""
    sketched = _sketched_keys(heading)
    assert len(sketched) >= 3, sketched  # the sketch was found
    record = _greedy_record(lc.Position.deal(5).to_string(), 4)
    path = tmp_path / "record.json"
    write_record(record, path)
    if argv is None:
        answer = json.loads(path.read_text())
    else:
        answer = _shared_answer(capsys, *[str(path) if a == "RECORD" else a for a in argv])
    assert sketched <= _all_keys(answer), sorted(sketched - _all_keys(answer))


def test_each_turn_says_whether_its_own_value_is_exact():
    """An answer that solved every split (`exact` true) can hold turns the endgame search only
    bounded: each turn's own `exact` says which, false exactly where `"bound": "upper"` is."""
    from helpers import played_down

    pos = played_down(2, 3)  # 3 cards left: this budget proves most turns only worse than the best
    view = pos.view(pos.to_move)
    out = lc.advise(view, max_nodes=3_000_000).to_json()
    assert out["exact"] is True
    bounded = [m for m in out["moves"] if m.get("bound") == "upper"]
    assert bounded and all(m["exact"] is False for m in bounded)
    assert all(m["exact"] is True and m["stderr"] == 0 for m in out["moves"] if "bound" not in m)
    # a horizon's heuristic leaf samples nothing, yet no turn's value is exact
    leaf = lc.solve(view, max_turns=2, leaf="heuristic", max_stalls=0).to_json()
    assert leaf["exact"] is False and all(m["exact"] is False for m in leaf["moves"])
