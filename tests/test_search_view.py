"""View values (E2), belief-optimal values (E3), iterative deepening and the bracket."""

from __future__ import annotations

from functools import cache
from itertools import pairwise

import numpy as np
import pytest
import search_reference as R
from helpers import played_down
from hypothesis import given, settings
from hypothesis import strategies as st

from lcanalysis.game.moves import Move
from lcanalysis.game.position import Position
from lcanalysis.search import bracket, solve, solve_belief, solve_deepening, solve_perfect, solve_view
from lcanalysis.search.view_value import check_workers, split_weights


def by_move(analysis):
    return {m.move: m for m in analysis.moves}


@pytest.mark.parametrize("colors,stalls,deck", [(5, 0, 2), (6, 0, 3), (5, 1, 2)])
def test_view_value_is_the_average_over_enumerated_splits(colors, stalls, deck):
    pos = played_down(10 + colors + deck, deck, colors)
    view = pos.view(pos.to_move)
    got = by_move(solve_view(view, max_stalls=stalls))
    # independently: the view's own split enumeration, completed to positions, solved one by one
    total_prob = 0.0
    acc: dict[str, float] = {}
    for prob, opp, rest in view.splits():
        total_prob += prob
        for m in solve_perfect(view.complete(opp, rest), max_stalls=stalls).moves:
            acc[m.move] = acc.get(m.move, 0.0) + prob * m.value
    assert total_prob == pytest.approx(1.0, abs=1e-12)
    assert got.keys() == acc.keys()
    for k, want in acc.items():
        assert got[k].value == pytest.approx(want, abs=1e-9)
        assert got[k].exact and got[k].stderr == 0.0


def test_split_weights_count_physical_cards():
    # two identical wagers and one number unseen, one goes to the opponent: the wager split
    # arises twice out of three
    splits = sorted(split_weights([2, 1], 1), key=lambda x: x[1])
    assert [(round(p, 12), pick) for p, pick in splits] == [(round(1 / 3, 12), [0, 1]), (round(2 / 3, 12), [1, 0])]


def test_sampled_view_value_lies_within_a_few_standard_errors():
    pos = played_down(21, 3)
    view = pos.view(pos.to_move)
    exact = by_move(solve_view(view, max_stalls=0))
    est = solve_view(view, max_stalls=0, samples=300, seed=4)
    assert not est.exact and est.splits == 300 and "sampled" in est.method
    again = solve_view(view, max_stalls=0, samples=300, seed=4)
    assert [m.value for m in again.moves] == [m.value for m in est.moves]  # seeded: repeatable
    spread = 0
    for m in est.moves:
        assert abs(m.value - exact[m.move].value) <= 4 * m.stderr + 1e-9
        spread += m.stderr > 0
    assert spread > 0  # the estimate does vary with the split


def test_solve_dispatches_on_position_and_view():
    pos = played_down(3, 3)
    assert solve(pos, max_stalls=0).kind == "perfect-information value"
    assert solve(pos.view(), max_stalls=0).kind == "view value (averaged over splits)"
    assert solve(pos.to_json(), max_stalls=0).value == pytest.approx(solve(pos, max_stalls=0).value)


# --- belief-optimal values -----------------------------------------------------------------


def belief_reference(view):
    """Independent E3: the viewer places, then draws a uniformly random unseen card, for as many
    turns as they have left; plain recursion over every ordered draw."""
    nc = view.rules.colors
    exp = tuple((sum(c.is_wager for c in cards), tuple(c.rank for c in cards if not c.is_wager))
                for cards in view.expeditions[view.viewer])
    unseen = tuple(t for t, n in enumerate(view.unseen_counts()) for _ in range(int(n)))
    d = view.deck_count
    k = (d + 1) // 2

    @cache
    def best(hand, exp, pool, k):
        if k == 0:
            return float(R.total_points(exp))
        return max(after(hand, exp, pool, k, t, play) for t, play in placements(hand, exp))

    def placements(hand, exp):
        for t in sorted(set(hand)):
            c, r = divmod(t, 10)
            _w, ranks = exp[c]
            if (not ranks) if r == 0 else (not ranks or r > max(ranks)):
                yield t, True
            yield t, False

    def after(hand, exp, pool, k, t, play):
        h = list(hand)
        h.remove(t)
        e = list(exp)
        if play:
            c, r = divmod(t, 10)
            w, ranks = e[c]
            e[c] = (w + 1, ranks) if r == 0 else (w, ranks + (r,))
        e = tuple(e)
        if k == 1:
            return float(R.total_points(e))
        total = 0.0
        for u in sorted(set(pool)):
            rest = list(pool)
            rest.remove(u)
            total += pool.count(u) / len(pool) * best(tuple(sorted(h + [u])), e, tuple(rest), k - 1)
        return total

    hand = tuple(sorted(c.type for c in view.hand))
    out = {}
    for t, play in placements(hand, exp):
        from lcanalysis.game.cards import Card

        out[("+" if play else "-") + str(Card.from_type(t)) + "/D"] = after(hand, exp, unseen, k, t, play)
    assert nc in (5, 6)
    return out


@pytest.mark.parametrize("seed,deck,colors", [(1, 3, 5), (2, 4, 6), (3, 5, 5)])
def test_belief_optimal_values_match_a_plain_recursion(seed, deck, colors):
    pos = played_down(seed, deck, colors)
    view = pos.view(pos.to_move)
    a = solve_belief(view)
    ref = belief_reference(view)
    got = {m.move: m.value for m in a.moves}
    assert got.keys() == ref.keys()
    for k in ref:
        assert got[k] == pytest.approx(ref[k], abs=1e-9)
    assert a.kind == "belief-optimal value" and a.exact


def test_belief_value_of_a_position_is_its_movers_view():
    pos = played_down(8, 4)
    assert [m.value for m in solve_belief(pos).moves] == [m.value for m in solve_belief(pos.view()).moves]


# --- deepening and the bracket ---------------------------------------------------------------


def test_deepening_returns_the_deepest_finished_level_exactly():
    pos = played_down(5, 3)
    a = solve_deepening(pos, nodes=3_000_000, max_level=2)
    level = a.bounds["max_stalls"]
    assert level >= 1
    ref = solve_perfect(pos, max_stalls=level)
    got = {m.move: m.value for m in a.moves}
    want = {m.move: m.value for m in ref.moves}
    assert got.keys() == want.keys()
    for move, value in want.items():
        assert got[move] == pytest.approx(value, abs=1e-9)
    assert any(n.startswith("stalls=0") for n in a.notes)
    h = solve_deepening(pos, nodes=200_000, on="turns", max_level=3)
    assert h.bounds["max_turns"] >= 1


def test_deepening_under_a_horizon_stops_where_no_stall_cap_binds():
    """In T turns the player to move takes ceil(T/2), so nobody can stall more often: deepening the
    stall budget under a horizon went on through levels all alike, up to ``max_level`` (30 from the
    command line), and named a cap of 30 stalls that bound nothing. It now stops there and names the
    horizon alone."""
    pos = played_down(5, 3)
    for target, turns in ((pos, 3), (pos, 4), (pos.view(), 2)):
        a = solve_deepening(target, nodes=20_000_000, max_turns=turns)
        assert a.bounds == {"max_turns": turns, "leaf": "as-is"}
        assert [n.split(":")[0] for n in a.notes] == [f"stalls={s}" for s in range((turns + 1) // 2)] + [
            f"stalls={(turns + 1) // 2} (no cap; in {turns} turns nobody stalls more often)"]
        horizon = solve(target, max_turns=turns)  # the horizon alone, no stall budget
        capped = solve(target, max_stalls=(turns + 1) // 2, max_turns=turns)  # the cap that no longer binds
        for ref in (horizon, capped):
            assert {m.move: m.value for m in a.moves} == pytest.approx({m.move: m.value for m in ref.moves}, abs=1e-9)


def test_deepening_stops_where_the_bracket_pins_every_turn():
    """With 1 card left ``solve --time`` searched 31 stall levels all alike (about 1.5 s) and named a cap
    of 30 that bound nothing. Every stall budget of 1 or more values each turn within the bracket
    W_me..W_opp, so where that pins every turn no deeper level can differ: the deepening now tries
    the bracket once the level with as many stalls each as cards in the pile is done, stops there
    when it pins every turn, says why, and names no stall cap. Checked against the brute-force
    reference at the stall budgets it skipped, and against the searcher's own deeper levels."""
    from lcanalysis.game.moves import Move
    from lcanalysis.game.rules import Rules

    why = "the bracket pins every turn (W_me = W_opp)"
    for seed in range(3):  # small endgames, 1 card left: the plain reference at 1 and 2 stalls each
        s = R.random_endgame(seed, colors=5, hand=3, deck=1, piles=4)
        a = solve_deepening(Position(Rules(colors=5, hand_size=3, no_redraw=True), s), nodes=10_000_000)
        assert [n.split(":")[0] for n in a.notes[:2]] == ["stalls=0", "stalls=1"] and why in a.notes[2]
        assert a.bounds == {"bracket": [a.value, a.value]}
        for stalls in (1, 2):
            ref = R.root_values(R.game_from_state(s, (stalls, stalls), -1))
            assert {m.move: m.value for m in a.moves} == pytest.approx(
                {str(Move.from_code(c, 5)): v for c, v in ref.items()}, abs=1e-9)
    for seed in range(1, 4):  # dealt rounds played down to 1 card: the levels not searched
        pos = played_down(seed, 1)
        a = solve_deepening(pos, nodes=10_000_000)
        assert "max_stalls" not in a.bounds and any(n.startswith(why) for n in a.notes)
        for stalls in (2, 5):
            assert by_move(a) == pytest.approx(by_move(solve_perfect(pos, max_stalls=stalls)), abs=1e-9)
    pos = played_down(2, 2, stall_rate=0.3)  # the bracket open: deepening goes on to the last level
    a = solve_deepening(pos, nodes=20_000_000, max_level=3)
    assert a.bounds["max_stalls"] == 3 and not any(why in n for n in a.notes)
    assert a.bounds["bracket"] == pytest.approx(list(bracket(pos).value_range))


def test_bracket_holds_bounded_values_between_w_me_and_w_opp():
    pos = played_down(12, 2, stall_rate=0.3)
    b = bracket(pos)
    lo_hi = b.by_move()
    for stalls in (0, 1):
        for m in solve_perfect(pos, max_stalls=stalls).moves:
            lo, hi = lo_hi[m.move]
            assert lo - 1e-9 <= m.value <= hi + 1e-9
    assert b.low.value <= b.high.value + 1e-9
    assert set(b.to_json()) == {"low", "high", "pinned", "moves"}


def test_split_count_matches_the_views_enumeration():
    from lcanalysis.search.view_value import count_splits

    for seed, deck in [(31, 2), (32, 4)]:
        view = played_down(seed, deck).view()
        unseen = [int(x) for x in view.unseen_counts()]
        listed = sum(1 for _ in view.splits())  # the enumeration itself, one by one
        assert count_splits(unseen, view.opponent_unknown, 10**9) == view.distinct_splits() == listed
        assert count_splits(unseen, view.opponent_unknown, 5) == 5  # stops counting at the cap
    # a dealt round's view: counted, not listed (listing its splits never ended). Independently: the
    # coefficient of x^u in the product over card types of (1 + x + ... + x^n), n unseen of the type
    view = Position.deal(7).view(0)
    poly = np.array([1], dtype=object)
    for n in view.unseen_counts():
        poly = np.convolve(poly, np.ones(int(n) + 1, dtype=object))
    assert view.distinct_splits() == poly[view.opponent_unknown] == 296_855_362


def test_deepening_adds_the_bracket_when_the_budget_allows():
    pos = played_down(12, 2, stall_rate=0.3)
    a = solve_deepening(pos, nodes=20_000_000, max_level=1)
    b = bracket(pos)
    assert a.bounds["bracket"] == pytest.approx([b.low.value, b.high.value])
    assert b.low.value - 1e-9 <= a.value <= b.high.value + 1e-9


def test_a_draw_step_position_values_its_draws_like_the_whole_turns():
    """Placing a card and then asking about the draw gives the whole turn's values, for all
    three kinds of value."""
    from lcanalysis.game.notation import read_position

    pos = played_down(44, 4)
    data = pos.to_json()
    mover = data["to_move"]
    card = data["hands"][mover][0]
    data["hands"][mover] = data["hands"][mover][1:]
    data.setdefault("discards", {}).setdefault(card[0], []).append(card)
    data["phase"], data["blocked"] = "draw", card[0]
    step = read_position(data)
    whole = {m.move: m.value for m in solve(pos, max_stalls=1).moves}
    half = {m.move: m.value for m in solve(step, max_stalls=1).moves}
    assert half == pytest.approx({"/" + k.split("/")[1]: v for k, v in whole.items()
                                  if k.startswith("-" + card + "/")})
    view_whole = {m.move: m.value for m in solve(pos.view(), max_stalls=0).moves}
    assert solve(step.view(), max_stalls=0).value == pytest.approx(view_whole["-" + card + "/D"])
    belief_whole = {m.move: m.value for m in solve_belief(pos).moves}
    assert solve_belief(step).value == pytest.approx(belief_whole["-" + card + "/D"])


def test_deepening_a_view_gives_view_values_under_the_level_reached():
    view = played_down(5, 3).view()
    a = solve_deepening(view, nodes=5_000_000, max_level=1)
    assert a.bounds["max_stalls"] == 1 and a.kind == "view value (averaged over splits)"
    ref = solve_view(view, max_stalls=1)
    assert [m.value for m in a.moves] == pytest.approx([m.value for m in ref.moves])


# --- the split loop on threads (workers=) ---------------------------------------------------


@pytest.mark.parametrize("seed,deck,stalls,samples", [(101, 6, 0, None), (15, 2, 1, None), (21, 3, 0, 60),
                                                      (103, 5, 0, 41)])
def test_the_split_loop_on_threads_gives_the_serial_values(seed, deck, stalls, samples):
    view = played_down(seed, deck).view()
    serial = solve_view(view, max_stalls=stalls, samples=samples, seed=4)
    assert "worker" not in serial.method
    assert solve_view(view, max_stalls=stalls, samples=samples, seed=4, workers=1).method == serial.method
    want = by_move(serial)
    for workers in (2, 3, 0, "auto"):
        par = solve_view(view, max_stalls=stalls, samples=samples, seed=4, workers=workers)
        got = by_move(par)
        assert got.keys() == want.keys() and par.splits == serial.splits and par.exact == serial.exact
        for k, m in want.items():  # the same samples, the same values, the same standard errors
            assert got[k].value == pytest.approx(m.value, abs=1e-9)
            assert got[k].stderr == pytest.approx(m.stderr, abs=1e-9)
        assert ("worker threads" in par.method) == (check_workers(workers) > 1)  # "auto" on one core: one thread


def test_the_threads_share_one_node_budget():
    from lcanalysis.search import SearchBudgetExceeded

    view = played_down(102, 7).view()
    whole = solve_view(view, max_stalls=0)  # one thread: 8,533 nodes over its 675 distinct worlds
    # budgets well below the whole search's (10,000 was, before splits that differ only in dead cards
    # became one world, 33,643 nodes; since, a run on two threads could finish within it)
    for budget in (1_000, whole.nodes // 2):
        with pytest.raises(SearchBudgetExceeded) as exc:
            solve_view(view, max_stalls=0, max_nodes=budget, workers=2)
        assert budget // 2 <= exc.value.nodes <= budget  # each thread stops at its half: never more in all
    a = solve_view(view, max_stalls=0, max_nodes=50_000_000, workers=2)
    assert 0 < a.nodes <= 50_000_000
    assert a.value == pytest.approx(whole.value, abs=1e-9)


@settings(max_examples=200, deadline=None)
@given(n=st.integers(0, 80), threads=st.integers(1, 4), order=st.lists(st.integers(0, 3), max_size=300))
def test_the_split_queue_hands_out_every_split_once_to_whichever_thread_asks(n, threads, order):
    """However the threads' requests interleave (``order``, then in turn), every split goes to exactly
    one thread; each starts on its own contiguous range (neighbouring splits share table entries), and
    one thread takes them in order, one split first."""
    from lcanalysis.search.view_value import _SplitQueue

    queue = _SplitQueue(n, threads)
    given_to: dict[int, int] = {}
    first: dict[int, slice] = {}
    done: set[int] = set()
    asks = [o % threads for o in order] + [i % threads for i in range(4 * n + 4 * threads)]
    for i in asks:
        if i in done:
            continue
        part = queue.take(i)
        if part is None:
            done.add(i)
            continue
        assert part.start < part.stop
        first.setdefault(i, part)
        for k in range(part.start, part.stop):
            assert k not in given_to, f"split {k} handed out twice"
            given_to[k] = i
    assert sorted(given_to) == list(range(n))
    fresh = _SplitQueue(n, threads)  # each thread asking once: its own range, from the start
    for i in range(threads):
        if n * i // threads < n * (i + 1) // threads:
            assert fresh.take(i).start == n * i // threads
    if threads == 1 and n:  # in order, one split first (until told how long one takes)
        assert first[0] == slice(0, 1)
        assert all(given_to[k] == 0 for k in range(n))


def test_the_split_queue_sizes_each_take_to_last_about_half_a_second():
    """A 64th of the splits at a time: at 5 cards, one stall each, a 64th of 792 splits ran more than 16 s,
    and the progress line said "0 of 792 splits done" all along. Now a thread takes one split, then as
    many as should last ``CHUNK_SECONDS`` at the pace of its last take, growing at most fourfold."""
    from lcanalysis.search.view_value import CHUNK_SECONDS, _SplitQueue

    assert CHUNK_SECONDS == 0.5
    q = _SplitQueue(1000, 1)
    assert q.take(0) == slice(0, 1)
    q.took(0, 1, 2.0)  # a slow split: one at a time
    assert q.take(0) == slice(1, 2)
    q.took(0, 1, 0.001)  # a quick one: 500 would last 0.5 s, but at most 4 times the last take
    assert q.take(0) == slice(2, 6)
    q.took(0, 4, 0.1)  # 0.025 s each: 20 in 0.5 s (at most 16)
    assert q.take(0) == slice(6, 22)
    q.took(0, 16, 0.8)  # 0.05 s each: 10
    assert q.take(0) == slice(22, 32)
    two = _SplitQueue(1000, 2)  # two threads: never more than a quarter of what the range has left
    two.took(0, 100, 0.001)
    assert two.take(0) == slice(0, 125)


@pytest.mark.parametrize("workers", [-1, 1.5, "two", True, "2"])
def test_a_bad_workers_value_is_refused_by_name(workers):
    from lcanalysis.search import SearchError

    pos = played_down(3, 3)
    with pytest.raises(SearchError, match=r"workers must be a whole number >= 0"):
        solve_view(pos.view(), max_stalls=0, workers=workers)
    with pytest.raises(SearchError, match="workers"):
        solve(pos, max_stalls=0, workers=workers)  # checked for a full position too, though it runs on one thread


def test_the_command_line_takes_workers(tmp_path, capsys):
    import json

    from lcanalysis.cli import main

    pos = played_down(101, 5)
    path = tmp_path / "view.json"
    path.write_text(json.dumps(pos.view().to_json()))
    answers = {}
    for workers in ("1", "2"):
        assert main(["solve", str(path), "--max-stalls", "0", "--workers", workers, "--json"]) == 0
        answers[workers] = json.loads(capsys.readouterr().out)
    assert "2 worker threads" in answers["2"]["method"] and "worker" not in answers["1"]["method"]
    assert [m["move"] for m in answers["2"]["moves"]] == [m["move"] for m in answers["1"]["moves"]]
    assert [m["value"] for m in answers["2"]["moves"]] == pytest.approx([m["value"] for m in answers["1"]["moves"]],
                                                                         abs=1e-9)
    with pytest.raises(SystemExit) as exc:
        main(["solve", str(path), "--max-stalls", "0", "--workers", "-2", "--json"])
    assert exc.value.code == 2 and "--workers must be >= 0" in capsys.readouterr().err


@pytest.mark.parametrize("max_types", [pytest.param(16, id="quick"),  # up to 15 card types: 0.2 s
                                       pytest.param(31, id="full", marks=pytest.mark.slow)])
def test_the_compiled_split_list_is_the_plain_one(max_types):
    """The compiled enumeration solve_view uses gives the same picks, in the same order, with
    the same probabilities as the plain generator ``split_weights`` (built on view.sub_multisets)."""
    from math import comb

    from lcanalysis.search.view_value import _all_splits, count_splits

    rng = np.random.default_rng(7)
    for _ in range(40):
        unseen = [int(x) for x in rng.choice([0, 0, 1, 1, 1, 2, 3], size=int(rng.integers(3, max_types)))]
        size = int(rng.integers(0, min(sum(unseen), 9) + 1))
        plain = list(split_weights(unseen, size))
        n = count_splits(unseen, size, 10**9)
        picks, ways = _all_splits(np.array(unseen, dtype=np.int32), size, n)
        assert len(plain) == n == len(picks)
        assert [list(p) for _, p in plain] == picks.tolist()
        assert [w for w, _ in plain] == (ways / comb(sum(unseen), size)).tolist()


# played-down views where both players hold numbers in some colours, so that unseen cards there
# are dead for both: (seed, deck, physical splits, splits once dead cards are merged), counted by hand
# from each colour's lower top (see the test below for the independent grouping)
DEAD_CARD_VIEWS = [(0, 3, 92, 20), (5, 3, 165, 32), (4, 4, 154, 20)]


@pytest.mark.parametrize("seed,deck,physical,merged", DEAD_CARD_VIEWS)
def test_splits_differing_only_in_dead_cards_are_one_world(seed, deck, physical, merged):
    """Each distinct world stands for the physical splits that differ only in which cards dead for
    both players the opponent holds, with their summed probability. Independently: every physical
    split (``split_weights``) grouped by its counts once each colour's dead types are lumped."""
    from lcanalysis.search.view_value import _SplitInputs

    pos = played_down(seed, deck)
    view = pos.view(pos.to_move)
    inputs = _SplitInputs(view)
    unseen = [int(x) for x in view.unseen_counts()]
    u = view.opponent_unknown
    dead = {}  # type -> its colour's lowest type, where both players' expeditions pass it
    for c in range(view.rules.colors):
        tops = [max([card.rank for card in view.expedition_cards(p, c)], default=0) for p in (0, 1)]
        for r in range(min(tops) + 1 if min(tops) > 0 else 0):
            dead[c * 10 + r] = c * 10
    classes: dict[tuple, float] = {}
    for prob, pick in split_weights(unseen, u):
        lumped = [0] * len(pick)
        for t, k in enumerate(pick):
            lumped[dead.get(t, t)] += k
        classes[tuple(lumped)] = classes.get(tuple(lumped), 0.0) + prob
    assert len(list(split_weights(unseen, u))) == physical and len(classes) == merged
    assert inputs.count_worlds(u) == merged
    picks, ways = inputs.all_worlds(u)
    total = sum(unseen)
    from math import comb
    got = {}
    for pick, w in zip(picks.tolist(), ways):
        assert all(0 <= k <= n for k, n in zip(pick, unseen)) and sum(pick) == u  # a real split
        lumped = [0] * len(pick)
        for t, k in enumerate(pick):
            lumped[dead.get(t, t)] += k
        got[tuple(lumped)] = w / comb(total, u)
    assert got.keys() == classes.keys()
    for key, p in classes.items():
        assert got[key] == pytest.approx(p, abs=1e-12)


@pytest.mark.parametrize("seed,deck", [(0, 3), (5, 3)])
def test_the_view_value_over_merged_worlds_is_the_one_over_every_split(seed, deck):
    pos = played_down(seed, deck)
    view = pos.view(pos.to_move)
    got = solve_view(view, max_stalls=0)
    assert got.splits < view.distinct_splits() and "dead for both players" in got.method
    acc: dict[str, float] = {}
    for prob, opp, rest in view.splits():  # every physical split, solved one by one
        for m in solve_perfect(view.complete(opp, rest), max_stalls=0).moves:
            acc[m.move] = acc.get(m.move, 0.0) + prob * m.value
    assert by_move(got).keys() == acc.keys()
    for k, want in acc.items():
        assert by_move(got)[k].value == pytest.approx(want, abs=1e-9) and by_move(got)[k].exact


#: a 2-card view typed from a played-down round (``played_down(10, 2)``): discarding the dead Ww or R5
#: and taking the green pile's G9 are worth exactly the same (-15, exact), as are other pairs
TIED_VIEW = ("LC1;c5;h8;nr;m1;v1;p0=?8.Y5.B5;p1=Y7.B3.B9.Ww.W6.G7.Rw.R5;e0=Y9.Bw.B10.W2.W9.G2.G4.G5.R2.R9;"
             "e1=Yw.Y8.B2.B6.W8.G6.G10.R6;x=Y4.Y3.Y6.Y2.Yw.Y10.B4.B7.W4.W5.Ww.W7.W3.W10.G9.Gw.Gw.Gw.Rw.Rw.R8."
             "R10.R7.R4;d=2")


def test_exact_ties_rank_the_same_whatever_order_the_splits_were_summed_in():
    """Equal exact values, summed over the splits in another order, differ by a few 1e-14, and the
    list was ranked by that noise: the same view with yellow and blue exchanged (its splits enumerated
    in another order) listed -R5/G before -Ww/G, the view itself -Ww/G first. Ties (within 1e-9) now go
    in the canonical order of turns (that of ``legal_moves``), whichever way the sums came out."""
    swap = str.maketrans("YB", "BY")
    a = solve_view(TIED_VIEW, max_stalls=1)
    b = solve_view(TIED_VIEW.translate(swap), max_stalls=1)
    back = [m.move.translate(swap) for m in b.moves]
    assert sorted(back) == sorted(m.move for m in a.moves)
    values = {m.move: m.value for m in a.moves}
    assert all(abs(values[m.move.translate(swap)] - m.value) < 1e-12 for m in b.moves)  # the same values
    # the sums did come out in another order: some exact tie is split by rounding one way here, the other there
    assert any((values[x] - values[y]) * (vb[x] - vb[y]) < 0
               for vb in [{m.move.translate(swap): m.value for m in b.moves}]
               for x in values for y in values if x < y and abs(values[x] - values[y]) < 1e-9)
    untouched = [m.move for m in a.moves if not set("YB") & set(m.move)]  # turns whose names the swap keeps
    assert untouched == [m for m in back if not set("YB") & set(m)]
    assert untouched.index("-Ww/G") < untouched.index("-R5/G")  # tied (-15): W before R, as legal_moves lists them
    for answer in (a, b):  # every run of tied values is in the canonical order of turns
        codes = [(round(m.value, 6), Move.parse(m.move).code(5)) for m in answer.moves]
        for (v1, c1), (v2, c2) in pairwise(codes):
            assert v1 > v2 or (v1 == v2 and c1 < c2)


def test_every_view_search_refuses_a_view_at_its_turn_cap_as_a_round_over():
    """Found by a reliability pass: a view whose history reached the turn cap, cards still in the draw
    pile, is a round that is over (``View.is_over``), but the view searches checked only for an empty draw
    pile and searched it as if play went on (``lc.solve(view)`` with no node budget: without end)."""
    from lcanalysis.game.position import Position
    from lcanalysis.game.rules import Rules
    from lcanalysis.search.belief import solve_belief
    from lcanalysis.search.common import SearchError
    from lcanalysis.search.endgame import converged_endgame
    from lcanalysis.search.view_value import solve_view

    pos = Position.deal(seed=2, rules=Rules(turn_cap=4))
    for _ in range(4):
        pos.push(pos.legal_moves()[0])
    view = pos.view(pos.to_move)
    assert view.is_over() and view.deck_count > 0
    said = r"the round is over \(the turn cap is reached\): there is no turn to value"
    # (node budgets, so that a search that goes on fails the test rather than hanging it)
    for ask in (lambda: solve_view(view, max_stalls=0, max_nodes=200_000), lambda: converged_endgame(view, 200_000),
                lambda: solve_belief(view, max_turns=2, max_nodes=200_000)):
        with pytest.raises(SearchError, match=said):
            ask()
