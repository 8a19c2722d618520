"""``lcanalysis wager POSITION --color C --models``: every wager model from the command line.

The table's and the JSON's numbers are checked against ``analyze_view_models`` called here (the
library's path, not the command's printing), for the same samples and seed; the answer without
``--models`` against the spec's form byte for byte; every option's bad value refused naming it."""

from __future__ import annotations

import inspect
import json
import re
import subprocess
import sys

import pytest

from lcanalysis.answer_json import answer_text
from lcanalysis.cli import wager_models
from lcanalysis.cli.main import main
from lcanalysis.game.notation import read_position, read_view
from lcanalysis.wagers.canonical import wager_answer
from lcanalysis.wagers.models import VIEW_MODELS, analyze_view_models

#: player 0 to move holds B4 and a blue wager, the opponent's blue expedition holds B2; 37 cards in
#: the draw pile: by hand, ceil(37 / 2) = 19 turns left for the player to move, 18 useful draws
POSITION = "LC1;c5;h8;nr;m0;v0;p0=Y3.Y5.Bw.B4.W8.G10.R7.R9;p1=?8;e0=Rw.R3.R5;e1=B2;x=W4.W6.G6;d=37"
TURNS, DRAWS = 19, 18
N, SEED = 3000, 5


def _run(capsys, *argv: str) -> tuple[int, str, str]:
    """The command's exit status (a parser's refusal's too), standard output and standard error."""
    try:
        code = main(["wager", *argv])
    except SystemExit as exc:
        code = int(exc.code or 0)
    out, err = capsys.readouterr()
    return code, out, err


def _library(**kw):
    return analyze_view_models(read_view(read_position(POSITION)), "B", n=N, seed=SEED, progress=False, **kw)


def _table_rows(out: str) -> list[list[str]]:
    """The table's rows (model, wagers, how, mean, P(profit), a wager adds, best), the model carried
    down to the rows that leave it blank."""
    lines = out.splitlines()
    start = next(i for i, line in enumerate(lines) if line.split()[:2] == ["model", "wagers"])
    rows, model = [], ""
    for line in lines[start + 1:]:
        if not line.strip():
            break
        cells = re.split(r" {2,}", line.strip())
        if cells[0] not in VIEW_MODELS:  # a further row of the model above: no name
            cells = [model, *cells]
        if not cells[1].isdigit():  # a note under the table
            break
        model = cells[0]
        rows.append(cells)
    return rows


def _pm(text: str) -> tuple[float, float | None]:
    """'+1.90 ± 0.11' as (1.90, 0.11); an exact '+3.21' as (3.21, None)."""
    if "±" in text:
        value, error = text.split("±")
        return float(value), float(error)
    return float(text), None


def test_the_table_gives_each_model_s_numbers_as_the_library_computes_them_for_the_same_seed(capsys):
    code, out, err = _run(capsys, POSITION, "--color", "B", "--models", "--samples", str(N), "--seed", str(SEED))
    assert code == 0, err
    expected = _library()
    rows = _table_rows(out)
    assert [(r[0], int(r[1])) for r in rows] == [(m, o.wagers) for m, a in expected.items() for o in a.by_wagers]
    for cells in rows:
        model, wagers, how, mean, chance = cells[0], int(cells[1]), cells[2], cells[3], cells[4]
        a = expected[model]
        o = a.outcome(wagers)
        assert how == ("exact" if o.exact else "estimate")
        m, m_se = _pm(mean)
        p, p_se = _pm(chance)
        decimals = len(mean.split("±")[0].strip().split(".")[1])
        assert m == pytest.approx(float(o.mean), abs=0.51 * 10 ** -decimals)
        assert p == pytest.approx(float(o.p_positive), abs=0.0006)
        if o.exact:  # an exact number is shown without an error
            assert m_se is None and p_se is None
        else:
            assert m_se == pytest.approx(o.stderr, abs=0.51 * 10 ** -decimals)
            assert p_se == pytest.approx(o.p_positive_stderr, abs=0.0006)
        if wagers >= 1:  # what the wager adds, with its error when sampled
            adds, adds_se = _pm(cells[5])
            assert adds == pytest.approx(float(a.marginal(wagers)), abs=0.006)
            assert (adds_se is None) == o.exact
            if adds_se is not None:
                assert adds_se == pytest.approx(a.marginal_stderr(wagers), abs=0.006)
        best = cells[-1] == "best"
        assert best == (len(a.by_wagers) > 1 and wagers == a.best_wagers)
    # the canonical rows are the spec's answer: the exact means of its JSON, 18 draws
    spec = wager_answer(read_view(read_position(POSITION)), "B", DRAWS)
    assert [round(r["mean"], 2) for r in spec["by_wagers"]] == [float(r[3]) for r in rows if r[0] == "canonical"]
    assert "19 turns left, 18 useful draws from the deck (37 cards left" in out
    assert f"Monte Carlo, {N:,} samples a row, seed {SEED}" in out
    for model in VIEW_MODELS:  # each model's assumptions, in a line of its own
        assert re.search(rf"^  {model} +\S", out, re.M)
    assert ("the answer of 'lcanalysis wager' without --models (docs/spec/interchange.md) is the canonical "
            "model's") in out


def test_models_picked_by_name_are_those_alone_with_the_same_numbers(capsys):
    code, out, err = _run(capsys, POSITION, "--color", "B", "--models", "opponent,turns", "--samples", str(N),
                          "--seed", str(SEED), "--json")
    assert code == 0, err
    answer = json.loads(out)
    assert list(answer["models"]) == ["turns", "opponent"]  # in the models' own order
    every = _library()
    for name in ("turns", "opponent"):
        # (both written as every answer is, 15 significant digits: equal to the last digit)
        assert answer["models"][name]["by_wagers"] == json.loads(answer_text(every[name].to_json()))["by_wagers"]


def test_only_exact_models_say_so_and_name_no_samples(capsys):
    code, out, err = _run(capsys, POSITION, "--color", "B", "--models", "canonical,decline_at_end")
    assert code == 0, err
    assert "every model asked is exact" in out and "±" not in out and "estimate" not in out
    code, out, err = _run(capsys, POSITION, "--color", "B", "--models", "canonical", "--json")
    answer = json.loads(out)
    assert answer["samples"] is None and answer["seed"] is None and answer["models"]["canonical"]["exact"] is True


#: POSITION played down to 1 card in the draw pile (the rest of it discarded): player 0 to move has 1 turn
#: left and no draw to come; B7 (the pile) and B8 (player 1's hand) are unseen, live, and can never arrive
NO_DRAWS = ("LC1;c5;h8;nr;m0;v0;p0=Y3.Y5.Bw.B4.W8.G10.R7.R9;p1=?8;e0=Rw.R3.R5;e1=B2;"
            "x=Y8.Y9.Yw.Y4.Yw.Y2.Y6.Y7.Bw.B10.B5.B9.B6.B3.Bw.W4.W6.Ww.Ww.W10.W5.W7.W3.Ww.G6.Gw.G9.Gw.G7.Gw.G5.G4.G8."
            "R10.R6.R4.Rw.R8.Rw;d=1")
#: POSITION with R9 on player 0's red expedition (Rw R3 R5 R9) and R10 discarded: every unseen red number
#: (2 4 6 8) is below the 9, so nothing red can come however many of the 17 draws are made; the R7 in
#: hand is dead
NOTHING_LIVE = "LC1;c5;h8;nr;m0;v0;p0=Y3.Y5.Bw.B4.W8.G10.R7.Y7;p1=?8;e0=Rw.R3.R5.R9;e1=B2;x=W4.W6.G6.R10;d=35"


@pytest.mark.parametrize("position, color, by_hand", [
    # blue, hand Bw B4, one turn, no draw. 0 wagers: B4 goes down, 4 - 20 = -16 (declined at the end: 0);
    # 1 wager: with the turn models the wager takes the one turn, (0 - 20) * 2 = -40; without them the B4
    # goes down too, (4 - 20) * 2 = -32
    (NO_DRAWS, "B", {"canonical": [-16, -32], "decline_at_end": [0, -32], "turns": [-16, -40],
                     "turns_eager": [-16, -40], "opponent": [-16, -32], "turns_opponent": [-16, -40]}),
    # red, Rw R3 R5 R9 placed: (17 - 20) * 2 = -6 whatever comes; a number placed, so no row with a wager
    (NOTHING_LIVE, "R", {name: [-6] for name in VIEW_MODELS}),
])
def test_a_sampled_model_with_one_possible_world_is_exact(capsys, position, color, by_hand):
    """Found at a table: with no draw left (or nothing of the colour that could come) the sampled models'
    rows read 'estimate -16.00 ± 0.00', a Monte Carlo run over the one world there is. Every sample being
    that world, its score is the answer, exactly: the rows say 'exact', the JSON 'exact': true and no
    stderr, and the samples and seed are named nowhere, as with the exact models alone."""
    code, out, err = _run(capsys, position, "--color", color, "--models", "--samples", "50", "--seed", "3")
    assert code == 0, err
    assert "every model asked is exact" in out and "±" not in out and "estimate" not in out
    rows = _table_rows(out)
    assert {(r[0], int(r[1])): (r[2], float(r[3])) for r in rows} == {
        (m, j): ("exact", float(v)) for m, values in by_hand.items() for j, v in enumerate(values)}
    code, out, err = _run(capsys, position, "--color", color, "--models", "--samples", "50", "--seed", "3", "--json")
    answer = json.loads(out)
    assert answer["samples"] is None and answer["seed"] is None
    for name, values in by_hand.items():
        model = answer["models"][name]
        assert model["exact"] is True
        assert [r["mean"] for r in model["by_wagers"]] == values
        assert all(set(r) == {"wagers", "mean", "p_positive", "distribution"} for r in model["by_wagers"])
        assert [r["distribution"] for r in model["by_wagers"]] == [{str(v): 1.0} for v in values]


def test_the_json_holds_each_model_s_answer_by_name_with_the_turns_and_draws_used(capsys):
    code, out, err = _run(capsys, POSITION, "--color", "B", "--models", "--samples", str(N), "--seed", str(SEED),
                          "--share", "0.5", "--p-pickup", "0.3", "--keep-unopened", "0.25", "--json")
    assert code == 0, err
    answer = json.loads(out)
    assert {k: answer[k] for k in ("color", "turns", "draws", "samples", "seed", "share", "p_pickup",
                                   "keep_unopened", "spec_model")} == {
        "color": "B", "turns": TURNS, "draws": DRAWS, "samples": N, "seed": SEED, "share": 0.5, "p_pickup": 0.3,
        "keep_unopened": 0.25, "spec_model": "canonical"}
    expected = _library(share=0.5, p_pickup=0.3, keep_unopened=0.25)
    assert list(answer["models"]) == list(VIEW_MODELS)
    for name, model in answer["models"].items():
        a = expected[name]
        assert {k: model[k] for k in ("color", "draws", "model", "exact")} == {
            "color": "B", "draws": a.draws, "model": a.model, "exact": not a.sampled}
        assert model["by_wagers"] == json.loads(answer_text(a.to_json()))["by_wagers"]
        for row in model["by_wagers"]:
            if name in ("canonical", "decline_at_end"):  # exact: the spec's keys alone
                assert set(row) == {"wagers", "mean", "p_positive", "distribution"}
            else:
                assert row["exact"] is False and row["samples"] == N
                assert row["stderr"] > 0 and row["p_positive_stderr"] > 0
        assert model["marginals"] == json.loads(answer_text([
            {"wagers": o.wagers, "adds": float(a.marginal(o.wagers)), "stderr": a.marginal_stderr(o.wagers)}
            for o in a.by_wagers if o.wagers >= 1]))
    assert answer["models"]["turns"]["model"] == "turns (19 turns, share 0.5, late)"
    assert answer["models"]["canonical"]["draws"] == DRAWS


@pytest.mark.parametrize("json_flag", [[], ["--json"]])
def test_without_models_the_answer_is_the_spec_s_as_before(capsys, json_flag):
    code, out, err = _run(capsys, POSITION, "--color", "B", *json_flag)
    assert code == 0, err
    view = read_view(read_position(POSITION))
    if json_flag:  # byte for byte the spec's object, its keys and no more
        answer = wager_answer(view, "B", DRAWS)
        assert out == answer_text(answer) + "\n"
        assert list(json.loads(out)) == ["color", "draws", "by_wagers"]
        assert all(list(r) == ["wagers", "mean", "p_positive", "distribution"] for r in json.loads(out)["by_wagers"])
    else:
        assert "canonical wager model: exact, no sampling (docs/spec/interchange.md)" in out
        assert "±" not in out and "estimate" not in out and "turns_eager" not in out


@pytest.mark.parametrize(("argv", "option", "words"), [
    (["--models", "turn"], "--models", "no wager model named 'turn'; the models are canonical, decline_at_end"),
    (["--models", "turns,"], "--models", "no wager model named ''"),
    (["--models", "example:midround"], "--models", "a position goes before --models"),
    (["--models", "--samples", "1"], "--samples", "--samples must be >= 2 (one sample gives no standard error)"),
    (["--models", "--samples", "1000001"], "--samples", "at most 1000000"),
    (["--models", "--samples", "2_000"], "--samples", "'_' between digits"),
    (["--models", "--samples", "x"], "--samples", "must be a whole number"),
    (["--models", "--seed", "-1"], "--seed", ">= 0"),
    (["--models", "--share", "1.5"], "--share", "at most 1"),
    (["--models", "--share", "nan"], "--share", "--share must be"),
    (["--models", "--p-pickup", "2"], "--p-pickup", "at most 1"),
    (["--models", "--p-pickup", "-0.1"], "--p-pickup", "0 or more"),
    (["--models", "--keep-unopened", "x"], "--keep-unopened", "must be a number"),
    (["--samples", "100"], "--samples", "give --models too"),
    (["--p-pickup", "0.5"], "--p-pickup", "give --models too"),
    (["--models", "--draws", "3"], "--draws", "not with --models"),
])
def test_a_bad_option_is_refused_naming_it(capsys, argv, option, words):
    code, out, err = _run(capsys, POSITION, "--color", "B", *argv)
    assert code == 2 and out == ""
    assert err.startswith(f"lcanalysis wager: error: argument {option}") and words in err, err
    assert len(err.strip().splitlines()) == 1  # one line


def test_the_command_s_defaults_are_the_library_s():
    defaults = {k: p.default for k, p in inspect.signature(analyze_view_models).parameters.items()}
    options = wager_models.settings(type("Args", (), {d: None for d, _ in wager_models.MODEL_OPTIONS})())
    assert options == {k: defaults[k] for k in ("n", "seed", "share", "p_pickup", "keep_unopened")}


def test_the_models_bar_is_drawn_on_standard_error(capsys, monkeypatch):
    """The bar of ``analyze_view_models(progress=True)`` shows once the work has taken PROGRESS_DELAY (a
    second; 10**6 samples a row took 3 s here): with no delay it must show at once, on standard error."""
    from lcanalysis import progress

    monkeypatch.setattr(progress, "PROGRESS_DELAY", 0.0)
    code, out, err = _run(capsys, POSITION, "--color", "B", "--models", "--samples", "200", "--json")
    assert code == 0 and "wager models of B" in err and "6/6" in err
    assert "wager models" not in out
    json.loads(out)  # standard output holds the answer alone


def test_a_one_shot_wager_models_command_asks_for_the_compiled_models_and_the_canonical_answer_does_not():
    """The light 'wager' runs as plain Python in a one-shot process (no compile to wait for); with --models
    its sampled models run compiled, asking for their part (a first compile says so), where plain Python
    took 2 to 3 s a row."""
    code = ("import os, sys\nfrom lcanalysis.cli import warmup\nasked = []\n"
            "warmup.part_ready = lambda part, quiet=False: asked.append(part) or 0.0\n"
            "from lcanalysis.cli.main import run_command\n"
            "status = run_command(sys.argv[1:], plain_kernel=True)\n"
            "print(status, os.environ.get('NUMBA_DISABLE_JIT'), asked, file=sys.stderr)\n")
    seen = []
    for colour, extra in (("B", []), ("B", ["--models", "--samples", "50"]), ("P", ["--models"])):
        proc = subprocess.run([sys.executable, "-c", code, "wager", POSITION, "--color", colour, *extra],
                              capture_output=True, text=True, timeout=300, check=False)
        seen.append(proc.stderr.strip().splitlines()[-1])
    assert seen[0] == "0 1 []"  # plain Python: nothing compiled
    assert seen[1].startswith("0 None [") and "'wager models'" in seen[1]
    # a colour the game has not (purple, in the 5-colour game) is refused before the models compile
    assert seen[2].startswith("2 None [") and "'wager models'" not in seen[2]


def test_the_docs_example_shows_what_the_command_prints(capsys):
    """docs/wagers.md shows the table of its example as the command prints it (the docs' checks run its
    console commands but compare no output): it is seeded, so it must print the same to the last digit."""
    from pathlib import Path

    text = (Path(__file__).resolve().parent.parent / "docs" / "wagers.md").read_text()
    block = re.search(r"```console\n\$ lcanalysis wager \"([^\"]+)\" --color B --models\n(.*?)\n```", text, re.S)
    assert block is not None, "docs/wagers.md's --models example is gone"
    code, out, err = _run(capsys, block[1], "--color", "B", "--models")
    assert code == 0, err
    assert out.rstrip("\n") == block[2]


def test_a_colour_with_no_wager_to_place_has_no_column_for_one_and_says_why(capsys):
    """Player 0's red in the mid-round example holds R2 R4 R5: no wager can go down, in any model."""
    code, out, err = _run(capsys, "example:midround", "--color", "R", "--models", "--samples", "500")
    assert code == 0, err
    rows = _table_rows(out)
    assert [(r[0], r[1]) for r in rows] == [(m, "0") for m in VIEW_MODELS] and all(len(r) == 5 for r in rows)
    assert "a wager adds" not in out
    assert "no row with a wager: you hold no red wager, or your red expedition already holds a number" in out
