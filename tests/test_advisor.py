"""The advisor: every legal turn ranked with a standard error and a reason; exact near the end."""

import re
import time

import numpy as np
import pytest
from helpers import count_playouts, dealt_view, played_down

from lcanalysis.advisor import MIN_WORLDS, ROLLOUTS_PER_SECOND, _halving, advise, example_view, reason
from lcanalysis.agents import make_agent
from lcanalysis.game.notation import read_position
from lcanalysis.game.position import Position
from lcanalysis.rollouts import Rollouts, policy_ranking
from lcanalysis.search import endgame_analysis as solver_analysis
from lcanalysis.search.common import SearchError


def _endgame(seed, deck):
    pos = Position.deal(seed)
    agent = make_agent("heuristic")
    while pos.deck_count > deck:
        pos.push(agent.choose(pos.view(pos.to_move), seed))
    return pos


@pytest.fixture(scope="module")
def example():
    view = example_view()
    return view, advise(view, time_budget=0.5, seed=3)


def test_every_legal_turn_is_ranked_once_best_first(example):
    view, analysis = example
    legal = sorted(str(m) for m in view.complete(view.unseen()[: view.opponent_unknown],
                                                  view.unseen()[view.opponent_unknown:]).legal_moves())
    assert sorted(m.move for m in analysis.moves) == legal
    losses = [m.loss for m in analysis.moves]  # best first, then by the loss against it
    assert losses[0] == 0 and losses == sorted(losses)
    assert analysis.value == analysis.moves[0].value
    assert analysis.kind == "advisor estimate" and not analysis.exact


def test_each_turn_has_a_standard_error_and_a_reason(example):
    _, analysis = example
    for m in analysis.moves:
        assert np.isfinite(m.stderr) and m.stderr > 0 and not m.exact
        assert m.extra["worlds"] >= 8
        assert "deck" in m.reason or "pile" in m.reason
    assert any("estimated" in m.reason for m in analysis.moves)
    # the best few got the larger sample
    assert analysis.moves[0].extra["worlds"] > min(m.extra["worlds"] for m in analysis.moves)
    # and the note says what the error counts: the sampling, not what the play-out policy gets wrong
    assert "± is one standard error of that sampling, not of the policy's misjudgments" in analysis.notes[-1]


def test_reasons_name_what_a_discard_hands_the_opponent_and_the_turns_left():
    view = example_view()
    for move in ("-R9/D", "+R9/D"):
        text = reason(view, move)
        assert f"{view.deck_count} -> {view.deck_count - 1} cards" in text
    assert "discards R9" in reason(view, "-R9/D")
    stall = [m for m in advise(view, time_budget=0.1, seed=0).moves if not m.move.endswith("/D")]
    assert stall and all(f"the deck stays at {view.deck_count}" in m.reason for m in stall)


def test_a_reason_from_a_state_filled_in_once_is_the_reason_from_the_view():
    """The advisor fills the view in once for all its reasons; each reason is the one the view gives
    alone, and giving it the state changes neither the state nor the next reason."""
    from helpers import played_down

    from lcanalysis.rollouts import some_state

    for view in (example_view(), played_down(3, 4).view(), played_down(8, 12).view()):
        state = some_state(view)
        kept = state.copy()
        moves = [str(m) for m in view.complete(view.unseen()[:view.opponent_unknown],
                                               view.unseen()[view.opponent_unknown:]).legal_moves()]
        assert len(moves) > 10
        assert [reason(view, m, state) for m in moves] == [reason(view, m) for m in moves]
        assert np.array_equal(state, kept)


def test_the_same_seed_gives_the_same_answer_and_a_bigger_budget_samples_more():
    view = example_view()
    a = advise(view, time_budget=0.2, seed=5)
    b = advise(view, time_budget=0.2, seed=5)
    assert [(m.move, m.value, m.stderr) for m in a.moves] == [(m.move, m.value, m.stderr) for m in b.moves]
    c = advise(view, time_budget=0.4, seed=5)
    assert c.nodes > a.nodes


def test_a_full_position_is_advised_with_both_hands_and_says_so():
    import dataclasses

    pos = _endgame(8, 20)
    a = advise(pos, time_budget=0.1, seed=1)
    view = pos.view(pos.to_move)
    knowing = dataclasses.replace(view, opponent_known=sorted(pos.hand(1 - pos.to_move)))
    assert knowing.opponent_unknown == 0 and view.opponent_unknown > 0
    b = advise(knowing, time_budget=0.1, seed=1)
    assert [(m.move, m.value) for m in a.moves] == [(m.move, m.value) for m in b.moves]
    assert "both hands are used" in a.notes[0]
    blind = advise(view, time_budget=0.1, seed=1)  # the mover's own view: the hidden hand is sampled
    assert [(m.move, m.value) for m in blind.moves] != [(m.move, m.value) for m in a.moves]
    assert not any("both hands" in n for n in blind.notes)


def test_every_turns_loss_is_paired_against_the_best():
    analysis = advise(example_view(), time_budget=0.5, seed=2)
    assert analysis.moves[0].loss == 0 and analysis.moves[0].loss_stderr == 0
    worlds = {m.move: m.extra["worlds"] for m in analysis.moves}
    for m in analysis.moves[1:]:
        assert m.loss is not None and m.loss_stderr >= 0
        if worlds[m.move] == worlds[analysis.moves[0].move]:  # same worlds: the loss is the difference
            assert m.loss == pytest.approx(analysis.moves[0].value - m.value, abs=1e-9)
    answer = analysis.to_json()
    assert all({"move", "value", "stderr", "loss", "loss_stderr"} <= set(t) for t in answer["moves"])


def test_near_the_end_the_exact_solver_answers_and_says_so():
    pos = _endgame(12, 2)
    analysis = advise(pos.view(pos.to_move), seed=0)
    assert analysis.exact and analysis.kind != "advisor estimate"
    assert "endgame search, exact view value" in analysis.notes[0]
    assert analysis.bounds.get("max_stalls") >= 1  # every turn, drawing from the piles too
    assert "converged" in analysis.notes[1]
    legal = sorted(str(m) for m in pos.legal_moves())
    assert sorted(m.move for m in analysis.moves) == legal
    assert all(m.reason for m in analysis.moves)


def test_the_sampling_advisor_is_close_to_the_solver_in_endgames_it_hands_over():
    """With the solver switched off, the rollout estimate's top turn is often the exact best one in
    two-card endgames, and costs little when it is not (measured: 24 of 30 at half a second, mean
    loss 1.6 points; docs/agents.md). This is why the advisor hands these positions to the solver."""
    agree = 0
    loss = 0.0
    for seed in range(12):
        view = _endgame(100 + seed, 2).view()
        exact = solver_analysis(view)
        estimate = advise(view, time_budget=0.3, seed=seed, endgame_cards=0)
        values = {m.move: m.value for m in exact.moves}
        agree += values[estimate.best.move] >= exact.value - 1e-9
        loss += exact.value - values[estimate.best.move]
    assert agree >= 6
    assert loss / 12 < 5.0


def test_the_advisor_refuses_a_finished_round_and_the_wrong_viewer():
    pos = _endgame(3, 1)
    with pytest.raises(ValueError, match="to move"):
        advise(pos.view(1 - pos.to_move))
    pos.push(pos.legal_moves()[0])
    with pytest.raises(ValueError, match="over"):
        advise(pos)


def _dealt_views():
    out = []
    for seed in (4, 9):
        pos = Position.deal(seed=seed)
        agent = make_agent("heuristic")
        for _ in range(6 + seed):
            pos.push(agent.choose(pos.view(pos.to_move), seed))
        out.append(pos.view(pos.to_move))
    return [example_view()] + out


@pytest.mark.parametrize("budget", [100, 1500])
def test_successive_halving_keeps_the_better_half_each_round_on_the_same_worlds(budget):
    """Read back from the samples alone: the sample sizes form one step a round; at each step the
    turns that went on had means, over the worlds every turn of that round was played in, no lower
    than any turn that stopped there; half (rounded up) went on; the last one standing is the
    best named; and the budget is kept (beyond the first sample of ``MIN_WORLDS`` every turn gets)."""
    for view in _dealt_views():
        codes, _ = policy_ranking(view)
        r = Rollouts(view, codes, seed=1, hand_model=True, streams=True)
        best, _ = _halving(r, budget, None)
        sizes = np.array([len(x) for x in r.samples])
        assert r.worlds <= max(budget, MIN_WORLDS * len(codes))
        assert sizes[best] == sizes.max()
        if budget > MIN_WORLDS * len(codes):  # a budget beyond the first sample: the last round had two turns
            assert (sizes == sizes.max()).sum() == 2
        steps = sorted(set(sizes.tolist()))
        alive = np.arange(len(codes))
        for n in steps:
            means = np.array([r.samples[k][:n].mean() for k in alive])
            going_on = sizes[alive] > n
            if not going_on.any():
                break
            assert going_on.sum() == (len(alive) + 1) // 2
            assert means[going_on].min() >= means[~going_on].max()
            alive = alive[going_on]
        assert r.samples[best].mean() >= max(r.samples[k].mean() for k in alive if sizes[k] == sizes.max())


def test_the_hint_by_halving_names_the_best_with_the_largest_sample_and_no_loss_below_zero():
    """Every turn the hint lists lost to the best on the worlds they share (a loss is never below
    zero, at tiny budgets too), the best carries the largest sample, and the play-outs keep to the
    budget's count."""
    for view in _dealt_views():
        for budget in (0.02, 0.3):
            a = advise(view, time_budget=budget, seed=2)
            worlds = [m.extra["worlds"] for m in a.moves]
            assert a.moves[0].loss == 0 and worlds[0] == max(worlds)
            assert min(m.loss for m in a.moves) >= -1e-9
            assert a.nodes <= max(int(budget * ROLLOUTS_PER_SECOND), MIN_WORLDS * len(a.moves))
            assert "successive halving" in a.method or len(a.moves) <= 2


def test_the_budget_is_a_count_of_play_outs_at_the_rate_given():
    """The budget times the play-outs a second is the count: 0.2 s at the default rate and 0.5 s at
    the earlier 6,000 a second are both 3,000 play-outs, so the same answer; the earlier rate at
    0.2 s plays fewer. A rate that is not a whole number of play-outs is refused by name."""
    view = example_view()
    assert ROLLOUTS_PER_SECOND == 15_000
    from lcanalysis.cli.main import build_parser  # advise --help states the rate that caps --time's play-outs

    subcommands = next(a for a in build_parser()._actions if a.choices and "advise" in a.choices)
    assert f"at most {ROLLOUTS_PER_SECOND:,} a second" in " ".join(subcommands.choices["advise"].format_help().split())
    now = advise(view, time_budget=0.2, seed=1)
    same = advise(view, time_budget=0.5, seed=1, playout_rate=6000)
    assert [(m.move, m.value, m.loss) for m in now.moves] == [(m.move, m.value, m.loss) for m in same.moves]
    assert now.nodes == same.nodes
    before = advise(view, time_budget=0.2, seed=1, playout_rate=6000)
    assert before.nodes <= max(1200, MIN_WORLDS * len(before.moves)) < now.nodes
    for bad in (0, -5, 2.5, True, "6000", 10**7):
        with pytest.raises(ValueError, match="playout_rate"):
            advise(view, time_budget=0.2, seed=1, playout_rate=bad)


def test_the_two_stage_schedule_is_still_there_and_a_bad_schedule_is_refused():
    view = example_view()
    old = advise(view, time_budget=0.2, seed=1, schedule="two-stage")
    assert "worlds per turn" in old.method and "successive halving" not in old.method
    assert [m.value for m in old.moves] == sorted((m.value for m in old.moves), reverse=True)
    with pytest.raises(ValueError, match="schedule must be one of halving, two-stage, got 'fast'"):
        advise(view, schedule="fast")


def test_an_answer_with_losses_shows_them_beside_the_values_in_text_and_html():
    """The advisor's list is best first, then by the loss; the text and the notebook table show
    each loss (minus the loss, ± the error of the difference), so a value out of order reads right."""
    from lcanalysis.analysis import Analysis, MoveValue

    moves = [MoveValue("+R7/D", 3.0, 1.0, exact=False, loss=0.0, loss_stderr=0.0),
             MoveValue("-B4/D", 4.5, 3.0, exact=False, loss=0.25, loss_stderr=0.5),
             MoveValue("+G2/R", 1.0, 1.2, exact=False, loss=2.0, loss_stderr=0.75, extra={"bound": "upper"})]
    a = Analysis(moves, kind="advisor estimate", exact=False)
    a.moves.sort(key=lambda m: m.loss)
    lines = a.to_text().splitlines()
    assert lines[1].startswith("  1. +R7/D") and lines[1].endswith("(best)")
    assert lines[2].endswith("(-0.25 ± 0.50 vs best)") and lines[3].endswith("(≤ -2.00 ± 0.75 vs best)")
    page = a._repr_html_()
    assert "<th>vs best</th>" in page and page.index("+R7/D") < page.index("-B4/D") < page.index("+G2/R")
    for text in ("best", "-0.25 ± 0.50", "≤ -2.00 ± 0.75"):
        assert f"<td style='white-space: nowrap'>{text}</td>" in page
    plain = Analysis([MoveValue("+R7/D", 3.0)], kind="perfect-information value", exact=True)
    assert "vs best" not in plain.to_text() and "vs best" not in plain._repr_html_()


def test_a_turn_only_bounded_at_the_best_value_is_not_called_best_and_every_form_says_bound():
    """A turn the endgame search proved no better than the best, without its value, has a loss of at
    least 0: the text called it "(best)" like the best, and the library's JSON and table left out the
    spec's ``"bound": "upper"`` (only ``advise --json`` had it)."""
    from lcanalysis.analysis import Analysis, MoveValue

    moves = [MoveValue("+R7/D", 3.0, 0.5, exact=False, loss=0.0, loss_stderr=0.0),
             MoveValue("-B4/D", 3.0, 0.5, exact=False, loss=0.0, loss_stderr=0.0, extra={"bound": "upper"})]
    a = Analysis(moves, kind="endgame search", exact=False)
    lines = a.to_text().splitlines()
    assert lines[1].endswith("(best)") and lines[2].endswith("(≤ 0.00 vs best)")
    assert len(a.to_text(limit=1).splitlines()) == len(lines) - 1  # one turn fewer
    for bad in (-1, 0, "x", 1.5):  # -1 silently dropped the last turn, "x" raised a slicing TypeError
        with pytest.raises(ValueError, match="limit must be a whole number of turns, 1 or more"):
            a.to_text(limit=bad)
    rows = a.to_json()["moves"]
    assert "bound" not in rows[0] and rows[1]["bound"] == "upper" and rows[1]["loss"] == 0.0
    frame = a.to_frame()
    assert list(frame["bound"].isna()) == [True, False] and frame["bound"][1] == "upper"
    assert list(frame["loss"]) == [0.0, 0.0]
    plain = Analysis([MoveValue("+R7/D", 3.0)], kind="perfect-information value", exact=True).to_frame()
    assert "loss" not in plain and plain["bound"].isna().all()


def test_a_full_position_with_5_cards_left_is_answered_by_the_endgame_search():
    """A full position is handed to the endgame search from FULL_POSITION_ENDGAME_CARDS cards (one
    split: cheaper than a view); its best value is the exact solver's under the stall budget it
    reached. A view with 5 cards is still advised by play-outs, and an explicit endgame_cards wins."""
    import sys
    from pathlib import Path

    from lcanalysis.advisor import ENDGAME_CARDS, FULL_POSITION_ENDGAME_CARDS
    from lcanalysis.search import solve_perfect

    sys.path.insert(0, str(Path(__file__).parent))
    from helpers import played_down

    assert (ENDGAME_CARDS, FULL_POSITION_ENDGAME_CARDS) == (4, 5)
    pos = played_down(7, 5)  # one stall each converges here within the default budget
    a = advise(pos, seed=0)
    assert a.kind.startswith("view value") and a.bounds["max_stalls"] >= 1
    exact = solve_perfect(pos, max_stalls=a.bounds["max_stalls"])
    assert a.moves[0].value == pytest.approx(exact.value, abs=1e-9)
    assert advise(pos.view(pos.to_move), time_budget=0.05, seed=0).kind == "advisor estimate"
    assert advise(pos, time_budget=0.05, seed=0, endgame_cards=0).kind == "advisor estimate"


def test_a_value_through_the_best_is_its_value_less_the_paired_loss_and_its_error_is_honest():
    """``Rollouts.value_through(a, b)``: b's value as a's mean over all of a's worlds minus the
    paired difference over the worlds both were played in (so the spec's loss = best's value -
    this turn's holds to the last bit); b's own mean when b has all of a's worlds; and a standard
    error that matches the spread of the estimate over many independent repetitions (checked
    here by simulation, not by the formula)."""
    from types import SimpleNamespace

    rng = np.random.default_rng(7)

    def draw(na, nb):
        common = rng.normal(0.0, 10.0, na)  # what the world deals: shared by both turns
        a = 5.0 + common + rng.normal(0.0, 3.0, na)
        b = 3.0 + common[:nb] + rng.normal(0.0, 3.0, nb)
        return SimpleNamespace(samples=[a, b])

    r = draw(400, 50)
    value, _ = Rollouts.value_through(r, 0, 1)
    loss, _ = Rollouts.difference(r, 0, 1)
    assert r.samples[0].mean() - value == loss
    full = draw(200, 200)
    assert Rollouts.value_through(full, 0, 1)[0] == pytest.approx(full.samples[1].mean())
    runs = [Rollouts.value_through(draw(400, 50), 0, 1) for _ in range(3000)]
    values, errors = np.array([v for v, _ in runs]), np.array([e for _, e in runs])
    assert values.mean() == pytest.approx(3.0, abs=0.05)  # unbiased: b's true value
    assert errors.mean() == pytest.approx(values.std(), rel=0.08)  # the stated error is the real spread
    own = np.array([draw(400, 50).samples[1].mean() for _ in range(3000)])
    assert values.std() < 0.6 * own.std()  # the shared worlds explain most of the spread here


def test_the_play_outs_report_their_progress_and_the_answer_is_the_same(monkeypatch):
    """Found by a review: 'advise --time 4' on a mid-round view printed nothing for 5 s (only the
    endgame search reported its stages). The play-outs now say what they will do, then, at most once
    a second, how many so far and which turn leads; reporting changes nothing in the answer."""
    from itertools import count
    from types import SimpleNamespace

    import lcanalysis.advisor.playouts as A  # (where the play-outs read the clock)

    # every reading of the play-outs' clock 2 s after the last: every round reports. Their module's own
    # name for the clock is replaced, not time.perf_counter itself, which every thread of the process
    # reads (a compile's "still working" line, a search's heartbeat): those would move this clock, and
    # read one that leaps 2 s a reading
    clock = count(0, 2)
    monkeypatch.setattr(A, "time", SimpleNamespace(perf_counter=lambda: float(next(clock))))
    lines: list[str] = []
    heard = advise("example:midround", time_budget=0.2, seed=3, progress=lines.append)
    monkeypatch.undo()
    quiet = advise("example:midround", time_budget=0.2, seed=3)
    assert [(m.move, m.value) for m in heard.moves] == [(m.move, m.value) for m in quiet.moves]
    # "88 turns" read as 88 turns of the game to a newcomer: they are the legal turns compared
    assert lines[0] == (f"play-outs: {len(quiet.moves)} legal turns to compare, "
                        f"{int(0.2 * ROLLOUTS_PER_SECOND):,} play-outs")
    assert len(lines) >= 2 and all(line.startswith("play-outs: ") and " so far; leading " in line for line in lines[1:])


@pytest.mark.parametrize("options, said", [
    # found by a review: these were taken (by truthiness, or as a count of cards) or Python's TypeError
    ({"endgame_cards": -1}, "endgame_cards must be a whole number of cards from 0 (never) to 8, got -1"),
    ({"endgame_cards": 1.5}, "endgame_cards must be a whole number"),
    ({"endgame_cards": "3"}, "endgame_cards must be a whole number"),
    ({"hand_model": "yes"}, "hand_model must be True or False"),
    ({"streams": 2}, "streams must be True or False"),
    ({"wall_clock": "x"}, "wall_clock must be True or False"),
    ({"progress": 5}, "progress must be a function that takes a line of text"),
    ({"time_budget": -1}, "time_budget must be a number of seconds above 0"),
])
def test_the_advisor_refuses_an_argument_it_cannot_use_with_its_own_error(options, said):
    from lcanalysis.advisor import AdviceError

    with pytest.raises(AdviceError, match=re.escape(said)):
        advise("example:midround", **options)


def test_a_time_budget_may_be_a_numpy_number_as_solves_seconds_may():
    """``time_budget=np.int64(1)`` or ``np.float32(0.5)`` (a slider's, an array's) was refused as "time_budget
    must be a number of seconds", which it is; the same seconds as a Python number give the same answer."""
    for seconds in (np.int64(1), np.float32(0.5), np.int32(1)):
        got = advise("example:midround", time_budget=seconds, seed=3, playout_rate=400)
        same = advise("example:midround", time_budget=float(seconds), seed=3, playout_rate=400)
        assert got.to_json()["moves"] == same.to_json()["moves"]


def test_an_answer_the_play_outs_give_after_the_endgame_search_counts_its_whole_time(monkeypatch):
    """Near the end, when the endgame search does not finish and the play-outs answer, ``seconds``
    counted only the play-outs: a hint that took half a second said 0.01 s."""
    import lcanalysis.advisor.advice as advice  # (where advise reads the endgame search)

    def slow_search(*_args, **_kwargs):
        time.sleep(0.3)
        raise SearchError("the budget ran out")

    monkeypatch.setattr(advice, "converged_endgame", slow_search)
    view = _endgame(5, 3).view()
    answer = advise(view, time_budget=0.5, seed=0, wall_clock=True)  # as the command asks
    assert answer.kind == "advisor estimate" and "budget ran out" in answer.notes[0]
    assert answer.seconds >= 0.3


def test_a_full_position_near_the_end_is_said_to_have_one_world_not_one_distinct_worlds():
    """Found at the table: a full position (both hands known) at 3 cards said "every one of the 1
    distinct worlds of the unseen cards solved", and its progress "(1 worlds, every one, ...)"."""
    from helpers import played_down

    full = played_down(15, 3)
    heard: list[str] = []
    answer = advise(full, seed=0, max_nodes=2_000_000, progress=heard.append)
    assert answer.splits == 1 and answer.exact
    # nothing hidden but the deck's order: the perfect-information value, not a "view value" of a hidden hand
    stalls = answer.bounds["max_stalls"]
    said = f"endgame search, exact perfect-information value (both hands known), at most {stalls} more discard-pile"
    assert any(said in note for note in answer.notes), answer.notes
    assert not any("view value" in note for note in answer.notes) and "view value" not in answer.method
    bests = [line for line in heard if "stall(s) each: best" in line]
    # (and that its value is exact: a number without its kind read as any other)
    assert bests and all(re.search(r"\(exact, the one world, [\d,]+ nodes\)$", line) for line in bests), bests
    assert not any("1 distinct worlds" in note or "(1 worlds" in note for note in answer.notes + heard)
    from lcanalysis.show.hint import question

    assert "exact (perfect-information value) under" in question(answer)  # the long form's label too
    seen = advise(full.view(full.to_move), seed=0, max_nodes=2_000_000)  # the mover's view: a hand is hidden
    assert seen.splits > 1 and any("endgame search, exact view value" in note for note in seen.notes)
    assert "view value" in question(seen)


def test_the_endgame_search_says_first_how_long_it_may_take():
    """The play-outs say 'up to 1.0 s'; the endgame search, which takes up to 10 s by default,
    started without saying how long the wait could be."""
    from helpers import played_down

    view = played_down(15, 2).view()
    heard = []
    advise(view, seed=0, wall_clock=True, progress=heard.append)
    assert heard[0] == "endgame: 2 card(s) in the draw pile: endgame search, up to 10.0 s"
    # each level's line says its value is exact, counts the distinct worlds it solved, and says all of them were
    bests = [line for line in heard if "stall(s) each: best" in line]
    assert bests and all(re.search(r"\(exact, \d+ worlds, every one, [\d,]+ nodes\)$", line) for line in bests), bests
    heard.clear()
    advise(view, time_budget=0.3, seed=0, wall_clock=True, progress=heard.append)
    assert heard[0].endswith("endgame search, up to 0.3 s") and heard[1].endswith("stall(s) each: solving")


def test_a_short_time_budget_is_said_as_given_not_rounded_to_nothing():
    """``advise --time 0.001`` said "play-outs: 88 turns, up to 0.0 s"."""
    view = read_position("example:midround")
    for budget, said in [(0.001, "0.001 s"), (0.05, "0.05 s"), (2.5, "2.5 s")]:
        heard: list[str] = []
        advise(view, time_budget=budget, seed=0, wall_clock=True, progress=heard.append)
        assert heard[0].startswith("play-outs: ") and heard[0].endswith(f" turns to compare, up to {said}"), heard


def test_a_reason_says_when_a_discarded_card_can_no_longer_be_played_by_the_player():
    """Discarding Y2 over one's own Y3 Y4 (or a wager over numbers) loses nothing of one's own: the
    reason says so, not only what the card offers the opponent; a card still playable says nothing."""
    view = read_position("LC1;c5;h8;nr;m0;v0;p0=Y2.Y10.Ww.Rw.R3.R5.R10.B7;p1=?8;e0=Y3.Y4.R2;x=Yw;d=40")
    assert "you can no longer play it (your yellow is at 4)" in reason(view, "-Y2/D")
    assert "you can no longer play it (your red is at 2)" in reason(view, "-Rw/D")
    assert "they have no yellow expedition yet" in reason(view, "-Y2/D")
    for playable in ("-Y10/D", "-R3/D", "-Ww/D", "-B7/D"):
        assert "no longer" not in reason(view, playable), playable


def test_a_reason_says_a_colour_is_unchanged_rather_than_from_a_value_to_the_same():
    """Reasons read "yellow estimated +0 -> +0" for a discard that changed nothing at whole points."""
    from helpers import played_down

    unchanged = 0
    for view in (example_view(), played_down(3, 4).view(), played_down(8, 12).view()):
        full = view.complete(view.unseen()[:view.opponent_unknown], view.unseen()[view.opponent_unknown:])
        for move in full.legal_moves():
            text = reason(view, move)
            assert not re.search(r"estimated ([+-]\d+) -> \1\b", text), text
            assert "estimated -0" not in text and "-> -0" not in text, text
            unchanged += "unchanged" in text
    assert unchanged > 0  # such turns exist in these views, and now say so


@pytest.mark.parametrize("pile", ["W9", "Ww"])
def test_a_pile_card_taken_is_valued_as_moved_from_the_pile_to_the_hand_and_a_dead_one_is_said_so(pile):
    """Taking a wager the player can no longer play (white already at 4) read "takes Ww from the white
    pile (white estimated -1 -> +0)", a gain for a dead card: the reason added the card to the hand
    and left it in the pile too, one card fewer unseen. Its figures are now white's estimate in the
    position after the discard, and after the take, each typed out as a view of its own; a dead card
    says so."""
    from lcanalysis.advisor.reasons import _colour_values
    from lcanalysis.rollouts import some_state

    view = read_position(f"LC1;c5;h8;nr;m0;v0;p0=Y3.Y5.Bw.B4.W8.G10.R7.R9;p1=?8;e0=W4;x={pile};d=42")
    placed = read_position(f"LC1;c5;h8;nr;m0;v0;p0=Y5.Bw.B4.W8.G10.R7.R9;p1=?8;e0=W4;x=Y3.{pile};d=42;draw=Y")
    taken = read_position(f"LC1;c5;h8;nr;m0;v0;p0=Y5.Bw.B4.W8.{pile}.G10.R7.R9;p1=?8;e0=W4;x=Y3;d=42")
    was, now = (round(_colour_values(some_state(v), 0)[2]) for v in (placed, taken))  # white: colour 2
    said = f"white estimated {was:+d}, unchanged" if was == now else f"white estimated {was:+d} -> {now:+d}"
    dead = "; you cannot play it, your white is at 4" if pile == "Ww" else ""
    assert f"takes {pile} from the white pile ({said}{dead}); " in reason(view, "-Y3/W"), reason(view, "-Y3/W")
    assert (pile == "Ww") == (was == now)  # a dead wager changes nothing; W9 on W4 does
    # the take goes on from where this turn's card left the colour, and says dead what lies below it
    text = reason(view, "+W8/W")
    after_play = re.search(r"white estimated [+-]\d+ -> ([+-]\d+);", text).group(1)
    assert f"takes {pile} from the white pile (white estimated {after_play}" in text, text
    assert ("you cannot play it, your white is at 8" in text) == (pile == "Ww"), text  # W9 goes on W8


def test_near_the_end_of_a_match_round_the_hint_says_the_match_is_not_taken_into_account():
    """The endgame search ranks by points: with a match score it says so rather than leaving the
    player to think the match chances were weighed (the play-outs show them; it cannot)."""
    pos = _endgame(12, 2)
    pos.match = {"round": 3, "totals": [0, 60]}
    for source in (pos.view(pos.to_move), pos):  # the endgame search on a view, the exact solver on a full position
        analysis = advise(source, seed=0)
        assert analysis.kind != "advisor estimate"
        assert any(n.startswith("match: not taken into account") for n in analysis.notes)
        assert not any("match_win" in m.extra for m in analysis.moves)
    pos.match = None
    assert not any(n.startswith("match:") for n in advise(pos.view(pos.to_move), seed=0).notes)


def _deck_draws_to_the_end(pos, first=None):
    """Turns each player plays after the mover's turn ``first`` (default a deck draw) when both then
    draw only from the deck (the rules: the round ends the moment the last card of the draw pile is
    taken)."""
    me, turns = pos.to_move, [0, 0]
    pos = pos.copy()
    pos.push(first if first is not None else next(m for m in pos.legal_moves() if m.draws_from_deck))
    while not pos.is_over():
        turns[pos.to_move == me] += 1
        pos.push(next(m for m in pos.legal_moves() if m.draws_from_deck))
    return turns  # [opponent's turns, mover's later turns]


def test_a_reason_says_plainly_when_a_deck_draw_ends_the_round_or_leaves_the_last_turn():
    """At the very end of a round the deck-draw reason says what the rules do, not "2 -> 1 cards,
    about 0.5 turns each left", and a pile draw says whom the turn it adds goes to (not "one more
    turn for both"): each wording is checked against the round played out."""
    for deck in (1, 2, 3, 6, 7):
        pos = _endgame(5, deck)
        view = pos.view(pos.to_move)
        deck_turn = next(str(m) for m in pos.legal_moves() if m.draws_from_deck)
        text = reason(view, deck_turn)
        opponent, mine = _deck_draws_to_the_end(pos)
        assert "about 0.5" not in text and "about 0.0" not in text and "0 cards" not in text, text
        if deck == 1:
            assert (opponent, mine) == (0, 0)
            assert "takes the last card of the draw pile: the round ends with this turn" in text, text
        elif deck == 2:
            assert (opponent, mine) == (1, 0)
            assert "2 -> 1 card: the opponent's next turn takes the last card and ends the round, so this is " \
                   "your last turn unless they draw from a discard pile instead" in text, text
        elif deck == 3:
            assert (opponent, mine) == (1, 1)
            assert "3 -> 2 cards: one more turn each if both draw from the deck, the opponent's and then your " \
                   "last, which takes the last card" in text, text
        else:
            assert (opponent, mine) == ((deck - 1) - (deck - 1) // 2, (deck - 1) // 2)
            assert f"{deck} -> {deck - 1} cards, about {(deck - 1) / 2:.1f} turns each left" in text, text
        pile_turn = next((m for m in pos.legal_moves() if not m.draws_from_deck), None)
        if pile_turn is None:
            continue
        text = reason(view, str(pile_turn))
        pile_opponent, pile_mine = _deck_draws_to_the_end(pos, pile_turn)
        # a pile draw adds one turn in all, not one for both: the opponent's with an odd count, else the mover's
        assert pile_opponent + pile_mine == opponent + mine + 1
        if deck == 1:
            assert (pile_opponent, pile_mine) == (1, 0)
            assert "the deck stays at 1: the opponent's next turn takes the last card" in text, text
        elif deck == 2:
            assert (pile_opponent, pile_mine) == (1, 1)
            assert "the deck stays at 2: one more turn each if both draw from the deck" in text, text
        else:
            gains = "you" if pile_mine > mine else "the opponent"
            assert f"the deck stays at {deck} (one turn more for {gains} than after a deck draw" in text, text
            assert "for both" not in text


def _capped(pos, turns_left):
    """``pos`` with the turn cap set to leave ``turns_left`` turns after the one to play."""
    data = pos.to_json()
    data["rules"] = {**data.get("rules", {}), "turn_cap": len(pos.history) + 1 + turns_left}
    return read_position(data)


def test_a_reason_counts_the_turns_left_by_the_turn_cap_when_it_ends_the_round_first():
    """With a turn cap that ends the round before the deck can (rules turn_cap), the deck-draw reason
    said "6 -> 5 cards, about 2.5 turns each left" from the deck alone, and a pile draw "one turn more
    for you": the cap's turns are counted now, each wording checked against the round played out."""
    for left in (0, 1, 2, 3):
        pos = _capped(_endgame(5, 6), left)
        view = pos.view(pos.to_move)
        deck_turn = next(str(m) for m in pos.legal_moves() if m.draws_from_deck)
        text = reason(view, deck_turn)
        opponent, mine = _deck_draws_to_the_end(pos)
        assert opponent + mine == left  # the cap, not the deck, ends the round
        assert "about" not in text and f"the turn cap ({pos.rules.turn_cap} turns a round) ends the round" in text, text
        if left == 0:
            assert "ends the round with this turn" in text, text
        elif left == 1:
            assert (opponent, mine) == (1, 0) and "after the opponent's next turn" in text and "your last turn" in text
        else:
            assert f"after {left} more turns, whatever is drawn: {opponent} the opponent's and {mine} yours" in text
        pile_turn = next(m for m in pos.legal_moves() if not m.draws_from_deck)
        text = reason(view, str(pile_turn))
        assert _deck_draws_to_the_end(pos, pile_turn) == [opponent, mine]  # a pile draw gains no turn here
        assert "no turn gained over a deck draw" in text and "one turn more" not in text, text
    # a cap far off changes nothing: the deck's words
    pos = _capped(_endgame(5, 6), 40)
    text = reason(pos.view(pos.to_move), next(str(m) for m in pos.legal_moves() if m.draws_from_deck))
    assert "6 -> 5 cards, about 2.5 turns each left" in text and "turn cap" not in text, text


def test_a_play_out_answer_counts_its_play_outs_not_nodes():
    """``Analysis.to_text`` closed a play-out answer with "nodes 1500", a search's word for what was
    1,500 play-outs; it now says play-outs (and how many; the JSON adds ``playouts``), and a search
    still counts nodes."""
    a = advise(example_view(), time_budget=0.1, seed=0)
    assert a.playouts == a.nodes == int(0.1 * ROLLOUTS_PER_SECOND)  # the whole budget, as a count
    text = a.to_text()
    assert f"\n{a.playouts:,} play-outs, " in text and "nodes" not in text
    assert a.to_json()["playouts"] == a.playouts and f"{a.playouts:,} play-outs, " in a._repr_html_()
    exact = solver_analysis(read_position("example:endgame"), max_stalls=0)
    assert exact.playouts is None and "playouts" not in exact.to_json()
    assert f"\nnodes {exact.nodes}, " in exact.to_text() and f"{exact.nodes} nodes, " in exact._repr_html_()


def test_the_two_stage_schedule_keeps_its_budget_of_play_outs(monkeypatch):
    """Its late-leader loop gave a turn that led on its first sample the larger one whatever was left:
    1,679 play-outs for a budget of 1,500 on example:midround (0.1 s, seed 1), 794 for 600 there at
    6,000 a second, 136 for 90 (a first sample of 128) on a dealt view. The play-outs are counted here
    as the compiled play-out is asked for them (turns times worlds of each call), not by the answer;
    beyond the first sample of ``MIN_WORLDS`` every turn gets, the budget is kept."""
    spent = count_playouts(monkeypatch)
    views = [("example:midround", read_position("example:midround"))] + [(f"dealt {s}", dealt_view(s))
                                                                         for s in (1, 2, 4)]
    for name, view in views:
        for seconds, rate in ((0.1, None), (0.2, None), (0.015, 6000), (0.05, 6000), (0.1, 6000)):
            spent[0] = 0
            answer = advise(view, time_budget=seconds, seed=1, schedule="two-stage", playout_rate=rate)
            budget = int(seconds * (rate or ROLLOUTS_PER_SECOND))
            assert spent[0] == answer.playouts, (name, seconds, rate)
            assert 0 < spent[0] <= max(budget, MIN_WORLDS * len(answer.moves)), (name, seconds, rate, spent[0])


def _played_out(pos, move, agent_name):
    """The final score difference (the mover's less the opponent's) after ``move``, both seats then
    played by the one-ply agent ``agent_name`` in the Python engine."""
    from lcanalysis.game.moves import Move

    after = pos.copy()
    after.push(Move.parse(move, pos.colors))
    agent = make_agent(agent_name)
    while not after.is_over():
        after.push(agent.choose(after.view(after.to_move), 0))
    scores = after.scores()
    return scores[pos.to_move] - scores[1 - pos.to_move]


@pytest.mark.parametrize("policy, agent_name", [("plain", "heuristic"), ("stalling", "stalling")])
def test_each_play_out_policy_values_a_turn_as_its_agent_plays_the_round_out(policy, agent_name):
    """A full position with one card left in the draw pile leaves nothing to chance: every play-out of
    a turn is the one game the policy plays from there. The plain policy's values are those of the
    ``heuristic`` agent's game, the stalling policy's those of the ``stalling`` agent's, played in the
    Python engine (not the compiled play-outs); here the two policies value most turns otherwise."""
    from helpers import played_down

    pos = played_down(11, 1)
    answer = advise(pos, endgame_cards=0, time_budget=0.01, seed=0, playout_policy=policy)
    own = {m.move: m.extra.get("own_mean", m.value) for m in answer.moves}
    assert own == pytest.approx({move: _played_out(pos, move, agent_name) for move in own}, abs=1e-9)
    other = advise(pos, endgame_cards=0, time_budget=0.01, seed=0,
                   playout_policy="plain" if policy == "stalling" else "stalling")
    differ = [m.move for m in other.moves if abs(m.extra.get("own_mean", m.value) - own[m.move]) > 1e-9]
    assert len(differ) > len(own) // 2


def test_the_answer_names_its_play_out_policy_and_the_default_mid_round_is_the_plain_one():
    view = example_view()  # 22 cards left: the default ("staged") plays the plain heuristic there
    assert view.deck_count == 22
    default = advise(view, time_budget=0.1, seed=2)
    plain = advise(view, time_budget=0.1, seed=2, playout_policy="plain")
    stalling = advise(view, time_budget=0.1, seed=2, playout_policy="stalling")
    strip = {"seconds": None}
    assert {**default.to_json(), **strip} == {**plain.to_json(), **strip}
    assert "play the round out with the heuristic policy," in plain.notes[-1]
    assert ", heuristic play to the end" in plain.method
    assert "play the round out with the stalling heuristic policy (the best agent's" in stalling.notes[-1]
    assert ", stalling heuristic play to the end" in stalling.method
    assert [m.value for m in stalling.moves] != [m.value for m in plain.moves]


def test_the_answer_carries_its_play_out_policy_by_name_and_an_answer_without_play_outs_none():
    """The hint's footer found the policy by searching ``method`` for "stalling heuristic play"; the answer
    now carries the name (``Analysis.playout_policy``, in its JSON too), and the footer reads it."""
    from dataclasses import replace

    from lcanalysis.core.policy import HEURISTIC_PARAMS
    from lcanalysis.show.hint import hint_text
    from lcanalysis.studies.explorer import rollout_analysis

    view = example_view()
    for asked, named in ((None, "plain"), ("plain", "plain"), ("stalling", "stalling")):  # (22 cards left)
        answer = advise(view, time_budget=0.05, seed=1, playout_policy=asked)
        assert answer.playout_policy == named and answer.to_json()["playout_policy"] == named
    unsaid = replace(answer, method="determinized rollouts", notes=[])  # nothing left in words to search
    assert "with the stalling heuristic policy, " in hint_text(unsaid, view, top=1)
    assert "play-outs of the stalling heuristic policy;" in hint_text(unsaid, view, top=1, brief=True)
    near_end = advise("example:endgame", time_budget=0.05, seed=1, endgame_cards=0, playout_policy="stalling")
    assert near_end.playout_policy == "stalling"  # (an endgame view advised by play-outs)
    exact = advise(played_down(1, 2), time_budget=0.05, seed=1)  # the exact solver: no play-outs
    assert exact.exact and exact.playout_policy is None and "playout_policy" not in exact.to_json()
    assert rollout_analysis(view, worlds=4).playout_policy == "plain"  # the explorer's heuristic play-outs
    tuned = Rollouts(view, policy_ranking(view)[0][:2], params=HEURISTIC_PARAMS * 1.5)
    tuned.sample(2)  # play-outs by parameters of no named policy (a tuned agent's)
    assert tuned.analysis("rollout estimate", method="").playout_policy is None


def test_the_answer_says_how_its_play_outs_dealt_and_the_footer_reads_that_not_the_method():
    """The hint's footer found the hand model and the deck streams by searching ``method`` for their words;
    the answer now carries both (``Analysis.hand_model``, ``deck_streams``, in its JSON too), set where the
    play-outs are made, and the footer reads them."""
    from dataclasses import replace

    from lcanalysis.show.hint import hint_text
    from lcanalysis.studies.explorer import rollout_analysis

    view = example_view()
    model_words, stream_words = "the opponent's hand dealt by the learned hand model", "a deck stream of their own"
    for model in (False, True):
        for streams in (False, True):
            answer = advise(view, time_budget=0.05, seed=1, hand_model=model, streams=streams)
            assert (answer.hand_model, answer.deck_streams) == (model, streams)
            assert (answer.to_json()["hand_model"], answer.to_json()["deck_streams"]) == (model, streams)
            unsaid = replace(answer, method="determinized rollouts", notes=[])  # nothing left in words to search
            footer = hint_text(unsaid, view, top=1).splitlines()[-1]
            assert (model_words in footer, stream_words in footer) == (model, streams)
    assert advise(view, time_budget=0.05, seed=1).hand_model is True  # the defaults: the model and the streams
    full = advise(Position.deal(seed=7), time_budget=0.05, seed=1)  # both hands known: nobody's hand is dealt
    assert full.hand_model is False and full.deck_streams is True
    explored = rollout_analysis(view, worlds=4)  # the explorer deals as the advisor does
    assert (explored.hand_model, explored.deck_streams) == (True, True)
    exact = advise(played_down(1, 2), time_budget=0.05, seed=1)  # the exact solver: no play-outs
    assert exact.exact and exact.hand_model is None and exact.deck_streams is None
    assert not {"hand_model", "deck_streams"} & exact.to_json().keys()


@pytest.mark.parametrize("bad", ["greedy", "Stalling", "Staged", "stall", "", 1, 3, None.__class__])
def test_an_unknown_play_out_policy_is_refused_by_name(bad):
    """Names are matched exactly, as the schedule's are: "Staged" is refused, not read as "staged"."""
    with pytest.raises(ValueError, match=r"playout_policy: the play-out policy must be one of "
                                         r"plain, stalling, tuned, staged, got "):
        advise(example_view(), time_budget=0.05, playout_policy=bad)


@pytest.mark.parametrize("cards, played", [(16, "plain"), (15, "stalling"), (5, "stalling")])
def test_the_default_play_outs_are_the_plain_ones_above_15_cards_and_the_stalling_ones_from_15_down(cards, played):
    """The default, "staged", is the plain heuristic while the draw pile holds more than 15 cards and the
    stalling one from 15 down: its answer is, to the last digit, the answer asked of that policy by name
    (the same seed, the same play-outs), which it names (``playout_policy``, the note, ``method``), never
    "staged"; asked for by name, "staged" answers the same."""
    pos = played_down(4, cards)
    view = pos.view(pos.to_move)
    assert view.deck_count == cards
    strip = {"seconds": None}
    default = advise(view, time_budget=0.05, seed=3)
    named = advise(view, time_budget=0.05, seed=3, playout_policy=played)
    staged = advise(view, time_budget=0.05, seed=3, playout_policy="staged")
    assert {**default.to_json(), **strip} == {**named.to_json(), **strip} == {**staged.to_json(), **strip}
    assert default.playout_policy == default.to_json()["playout_policy"] == played
    words = "stalling heuristic" if played == "stalling" else "heuristic"
    assert f"play the round out with the {words} policy" in default.notes[-1]
    assert f", {words} play to the end" in default.method


def test_the_tuned_play_outs_near_the_end_say_why_they_can_be_far_off():
    """With 5 cards left the verdict says why play-outs can be far off in words of the policy played:
    the tuned policy had none, and its hint there ended in a KeyError."""
    from lcanalysis.show.hint import hint_text

    pos = played_down(3, 5)
    view = pos.view(pos.to_move)
    answer = advise(view, time_budget=0.05, seed=1, playout_policy="tuned")
    assert answer.playout_policy == "tuned"
    assert "the tuned stalling play-out policy draws from a discard pile to gain turns by a rule of thumb" \
        in hint_text(answer, view, top=1)


def test_a_discard_that_ends_the_round_hands_the_opponent_nothing():
    """A discard with the last card of the draw pile (or on the turn the turn cap ends the round) said
    "hands the opponent B10 for their blue expedition", though the round ends with that turn: the
    opponent never gets to take it. Checked against the rules: the position after the turn is over."""
    gifts = ("hands the opponent", "lies open for the opponent", "the opponent may take")
    seen = 0
    for seed in range(40):
        for pos in (_endgame(seed, 1), _capped(_endgame(seed, 6), 0)):
            view = pos.view(pos.to_move)
            for move in pos.legal_moves():
                if move.play:
                    continue
                after = pos.copy()
                after.push(move)
                text = reason(view, str(move))
                if after.is_over():
                    assert not any(g in text for g in gifts), text
                    assert "harmless: the opponent gets no turn to take it" in text, text
                    seen += 1
                else:
                    assert "no turn to take it" not in text, text
        if seen >= 20:
            break
    assert seen >= 20
    # a discard with a card left for the opponent's turn still names what it hands them
    gifts_made = [reason(p.view(p.to_move), str(m)) for p in (_endgame(s, 2) for s in range(10))
                  for m in p.legal_moves() if not m.play and m.draws_from_deck]
    assert any("hands the opponent" in t for t in gifts_made)
