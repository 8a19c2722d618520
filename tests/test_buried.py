"""Positions as players remember them: discard-pile cards below the top written ``G?`` (colour
known, rank forgotten). They are unseen, but neither in the deck nor in the opponent's hand; the
value of a view with buried cards is the average over their possible identities."""

from __future__ import annotations

import json

import numpy as np
import pytest
from helpers import played_down

import lcanalysis as lc
from lcanalysis.game.cards import COLOR_LETTERS, Buried
from lcanalysis.rollouts import Rollouts, policy_ranking


def _remembered(pos, pile_colour: str | None = None, forget: int = 1):
    """The mover's view of ``pos`` as JSON without its history, with the ``forget`` cards right
    under the top of a discard pile written as ``X?``; returns (json, colour, the true cards)."""
    data = pos.view(pos.to_move).to_json()
    data.pop("history", None)
    piles = data["discards"]
    colour = pile_colour or next(c for c, cards in piles.items() if len(cards) > forget)
    cards = piles[colour]
    truth = cards[-1 - forget:-1]
    piles[colour] = cards[:-1 - forget] + [f"{colour}?"] * forget + cards[-1:]
    return data, colour, truth


def test_buried_cards_read_write_and_round_trip():
    data, colour, _ = _remembered(played_down(3, 6))
    view = lc.read_position(data)
    assert view.buried_count == 1 and view.to_json()["discards"][colour][-2] == f"{colour}?"
    assert lc.read_position(view.to_string()) == view
    assert f"{colour}?" in view.to_string()
    plain = dict(data)
    plain["discards"] = {**data["discards"], colour: [x for x in data["discards"][colour] if x != f"{colour}?"]}
    with pytest.raises(lc.PositionError, match=r"do not remember as its colour and .\?."):  # one too few
        lc.read_position(plain)


@pytest.mark.parametrize("change, message", [
    (lambda d, c: d["discards"].__setitem__(c, d["discards"][c] + [f"{c}?"]), "top card is always known"),
    (lambda d, c: d.__setitem__("history", ["+R7/D"]), "history knows every discarded card"),
])
def test_impossible_buried_cards_are_refused(change, message):
    data, colour, _ = _remembered(played_down(3, 6))
    change(data, colour)
    with pytest.raises(lc.PositionError, match=message):
        lc.read_position(data)


def test_a_full_position_refuses_buried_cards():
    pos = played_down(3, 6)
    data = pos.to_json()
    colour = next(c for c, cards in data["discards"].items() if len(cards) > 1)
    data["discards"][colour][0] = f"{colour}?"
    with pytest.raises(lc.PositionError, match="belong to a player's view"):
        lc.read_position(data)


def _only_buried_left(view, colour: str) -> bool:
    """True when every unseen card of ``colour`` must be one of the buried ones."""
    c = COLOR_LETTERS.index(colour)
    unseen = int(view.unseen_counts()[c * 10:(c + 1) * 10].sum())
    return unseen == sum(1 for card in view.discards[c] if isinstance(card, Buried))


def _view_with_all_unseen_buried():
    """A mid-round view where every unseen card of one colour lies buried in its discard pile."""
    for seed in range(40):
        pos = played_down(seed, 8)
        for colour in COLOR_LETTERS[:5]:
            data = pos.view(pos.to_move).to_json()
            data.pop("history", None)
            pile = data["discards"].get(colour, [])
            unseen = lc.read_position(data).unseen_counts()
            c = COLOR_LETTERS.index(colour)
            n = int(unseen[c * 10:(c + 1) * 10].sum())
            if n > 0 and len(pile) >= 1:
                data["discards"][colour] = pile[:-1] + [f"{colour}?"] * n + pile[-1:]
                # the n unseen cards of that colour are now remembered as buried: take them out of
                # the unseen cards by removing as many from the deck count
                data["deck"] -= n
                if data["deck"] < 1:
                    continue
                try:
                    view = lc.read_position(data)
                except lc.PositionError:
                    continue
                if _only_buried_left(view, colour):
                    return view, colour
    pytest.skip("no suitable position in the first 40 deals")


def test_buried_cards_never_reach_a_sampled_hand_or_the_deck():
    view, colour = _view_with_all_unseen_buried()
    c = COLOR_LETTERS.index(colour)
    for pos in view.sample_positions(30, seed=4):
        opp = pos.hand(1 - view.viewer)
        assert not any(card.color == c for card in opp[len(view.opponent_known):] if card not in view.opponent_known)
        assert not any(card.color == c for card in pos.deck)
        assert len(pos.discard_pile(c)) == len(view.discards[c])
    codes, _ = policy_ranking(view)
    r = Rollouts(view, codes[:3], seed=2)
    r.sample(25)
    for i in range(25):  # every world's unseen pool (hand and deck) holds none of that colour
        _, pool, _, _, _ = r._world_fill(i)
        assert not any(int(t) // 10 == c for t in pool)


def test_the_value_with_a_buried_card_is_the_average_over_its_identities():
    pos = played_down(11, 2)
    data, colour, truth = _remembered(pos)
    view = lc.read_position(data)
    got = lc.solve(view, max_stalls=0)
    # independently: write each possible identity into the pile, weight it by its physical copies
    c = COLOR_LETTERS.index(colour)
    unseen = view.unseen_counts()
    expected: dict[str, float] = {}
    total = int(unseen[c * 10:(c + 1) * 10].sum())
    for rank in range(10):
        copies = int(unseen[c * 10 + rank])
        if not copies:
            continue
        card = str(lc.Card(c, rank))
        concrete = json.loads(json.dumps(data))
        concrete["discards"][colour] = [card if x == f"{colour}?" else x for x in data["discards"][colour]]
        a = lc.solve(lc.read_position(concrete), max_stalls=0)
        for m in a.moves:
            expected[m.move] = expected.get(m.move, 0.0) + copies / total * m.value
    assert got.exact and {m.move for m in got.moves} == set(expected)
    for m in got.moves:
        assert m.value == pytest.approx(expected[m.move], abs=1e-9)
    assert truth  # the card really was there


def test_advice_on_a_remembered_position_lists_the_legal_turns():
    data, _, _ = _remembered(played_down(5, 20), forget=2) if len(
        max(played_down(5, 20).to_json()["discards"].values(), key=len)) > 2 else _remembered(played_down(5, 20))
    view = lc.read_position(data)
    analysis = lc.advise(view, time_budget=0.1, seed=1)
    filled = view.random_fill(np.random.default_rng(0))
    unseen = filled.unseen()
    legal = {str(m) for m in filled.complete(unseen[:filled.opponent_unknown],
                                             unseen[filled.opponent_unknown:]).legal_moves()}
    assert {m.move for m in analysis.moves} == legal


def test_a_buried_top_card_is_refused_with_its_own_colour_as_the_example():
    data, colour, _ = _remembered(played_down(3, 6))
    data["discards"][colour] = data["discards"][colour] + [f"{colour}?"]
    with pytest.raises(lc.PositionError, match=rf"discard pile {colour}: .* after the buried cards \({colour}\?\)"):
        lc.read_position(data)


def test_a_buried_view_can_be_sampled_and_the_estimate_holds_the_exact_average():
    """``samples`` draws worlds that fill the buried cards at random and then split the rest: the
    estimate must lie within a few standard errors of the exact average over every fill, repeat
    with its seed, and say it is an estimate."""
    pos = played_down(11, 2)
    data, _, _ = _remembered(pos, forget=2)
    view = lc.read_position(data)
    exact = {m.move: m.value for m in lc.solve(view, max_stalls=0).moves}
    est = lc.solve(view, max_stalls=0, samples=400, seed=3)
    assert not est.exact and est.splits == 400 and "400 worlds sampled uniformly (seed 3)" in est.method
    assert "buried pile card(s) filled at random" in est.method and "sampled fills" in est.kind
    assert {m.move for m in est.moves} == set(exact)
    for m in est.moves:
        assert abs(m.value - exact[m.move]) <= 4 * m.stderr + 1e-9
    assert any(m.stderr > 0 for m in est.moves)
    again = lc.solve(view, max_stalls=0, samples=400, seed=3)
    assert [(m.move, m.value) for m in again.moves] == [(m.move, m.value) for m in est.moves]


def test_a_buried_view_with_too_many_fills_is_answered_by_samples_on_the_command_line(tmp_path, capsys):
    """Every pile known only by its top: too many fills to solve each (refused, pointing to
    --samples), and --samples answers with an estimate within the time given."""
    path = _all_buried_view(tmp_path)
    from lcanalysis.cli import main

    with pytest.raises(lc.search.SearchError, match="too many to solve each exactly; give samples"):
        lc.solve(str(path), max_stalls=0)
    assert main(["solve", str(path), "--max-stalls", "0", "--samples", "40", "--json"]) == 0
    answer = json.loads(capsys.readouterr().out)
    assert answer["exact"] is False and answer["splits"] == 40 and "filled at random" in answer["method"]
    assert answer["moves"] and all(m["stderr"] >= 0 for m in answer["moves"]) and \
        any(m["stderr"] > 0 for m in answer["moves"])


def _all_buried_view(tmp_path):
    """A 3-card view with every discard pile known only by its top (``played_down(3, 3)``): more
    than 20,000 ways to fill its buried cards; its path."""
    pos = played_down(3, 3)
    data = pos.view(pos.to_move).to_json()
    data.pop("history", None)
    for c, pile in data["discards"].items():
        data["discards"][c] = [f"{c}?"] * (len(pile) - 1) + pile[-1:]
    path = tmp_path / "v.json"
    path.write_text(json.dumps(data))
    return path


@pytest.mark.parametrize("seed", [3, 8, 21])
def test_the_fills_are_counted_as_many_as_are_listed(seed):
    """``View.count_fills`` (the refusal of too many, before any search) counts without listing: the
    check listed up to 20,001 filled views (a third of a second), and the solve listed them again.
    Against the list itself, on views with one to three buried cards a pile (or as many as lie under
    its top card)."""
    for deck, keep in [(28, 1), (28, 2), (28, 3), (20, 1), (12, 1)]:  # 42 to 3,168 fills
        pos = played_down(seed, deck)
        view = pos.view(pos.to_move)
        data = view.to_json()
        data.pop("history", None)
        for c, pile in data["discards"].items():
            hide = min(keep, len(pile) - 1)
            data["discards"][c] = [f"{c}?"] * hide + pile[hide:]
        buried = lc.read_position(data)
        n = sum(1 for _ in buried.fills())
        assert buried.buried_count and buried.count_fills() == n
        assert buried.count_fills(cap=n) == n and buried.count_fills(cap=2) == min(2, n)
    assert view.count_fills() == 1 == sum(1 for _ in view.fills())  # nothing buried: the view itself


@pytest.mark.parametrize("budget", [["--time", "30"], ["--max-stalls", "0"], ["--max-stalls", "1"]])
def test_too_many_fills_is_refused_before_anything_is_said(tmp_path, capsys, monkeypatch, budget):
    """``solve --time S`` printed '... stalls=0: solving' (and ``--max-stalls 1`` the warning that it
    may run until its node budget) before refusing the question: the count of fills is now checked
    with the rest of the question (``check_question``), so the error is the only line. The count is
    made slow here (1.5 s, as on a loaded machine), so that a heartbeat around it would speak first."""
    import time

    import lcanalysis.search.view_value as view_value
    from lcanalysis.cli import main

    count = view_value.check_fills

    def slowly(*args):
        time.sleep(1.5)
        return count(*args)

    monkeypatch.setattr(view_value, "check_fills", slowly)
    path = _all_buried_view(tmp_path)
    assert main(["solve", str(path), *budget]) == 2
    err = capsys.readouterr().err
    assert err.startswith("error: there are more than 20,000 ways to fill the") and "--samples N" in err
    assert "solving" not in err and "note:" not in err and len(err.strip().splitlines()) == 1
    with pytest.raises(lc.search.SearchError, match="too many to solve each exactly; give samples"):
        lc.search.solve_deepening(str(path), seconds=30, progress=lambda line: pytest.fail(f"said {line!r} first"))


def test_a_long_sampled_solve_counts_the_samples_done_in_its_progress(tmp_path, monkeypatch):
    """``--samples 400 --max-stalls 1`` on a 3-card view with buried cards ran minutes with lines that
    said only the seconds: each line now says how many of the samples are done and the nodes so far.
    Stopped by a node budget long before 2,000 samples (10 M nodes: about 500, the same on any machine;
    stopped by the clock after 8 s, as it was, a quiet machine did 734 in 4 s and would soon have done
    all 2,000, a busy one none), the lines asked for every 0.02 s instead of every 3 s, so that many
    fall within the search whatever its speed."""
    import functools
    import re

    from lcanalysis.search.common import heartbeat

    monkeypatch.setattr(lc.search, "heartbeat", functools.partial(heartbeat, first=0.02, every=0.02))
    budget = 10_000_000
    said: list[str] = []
    with pytest.raises(lc.search.SearchBudgetExceeded):
        lc.solve(str(_all_buried_view(tmp_path)), max_stalls=1, samples=2000, max_nodes=budget,
                 progress=said.append)
    line = re.compile(r"solving \(max_stalls=1, max_turns=None\), ([\d,]+) of 2,000 samples done"
                      r"( \(about [\d.,]+ (?:s|minutes|hours) left at this pace\))?, "
                      rf"([\d,]+) of at most {budget:,} nodes searched, \d+ s so far")
    # (in the instant before the samples are planned, with the search's heartbeat on, a line can say only
    # the nodes: at this pace of lines one sometimes does; once planned, every line counts them to the end)
    nodes_only = re.compile(rf"solving \(max_stalls=1, max_turns=None\), [\d,]+ of at most {budget:,} nodes "
                            r"searched, \d+ s so far")
    while said and nodes_only.fullmatch(said[0]):
        said.pop(0)
    assert len(said) >= 2 and all(line.fullmatch(x) for x in said), said
    done = [int(line.fullmatch(x).group(1).replace(",", "")) for x in said]  # type: ignore[union-attr]
    assert done == sorted(done) and 0 < done[-1] < 2000
    # once some are done, the line projects the rest at the pace so far (it never said how long is left),
    # except a last line said as the budget stopped the samples: nothing is left to project then
    assert all(bool(line.fullmatch(x).group(2)) == (n > 0)  # type: ignore[union-attr]
               for x, n in zip(said[:-1], done[:-1]))


BURIED_ONLY = "may stand only below the top card of a discard pile in a view"


def _with_b_buried(data, place: str):
    """The deal's JSON (a full position, or player 0's view) with 'B?' written where a card must be
    named: in a hand, the draw pile, an expedition or the opponent's known cards."""
    if place == "hand":
        data["hands"][0][3] = "B?"
    elif place == "deck":
        data["deck"][0] = "B?"
    elif place == "expedition":
        data["expeditions"][0]["B"] = ["B?"]
    else:
        data["hands"][1] = {"known": ["B?"], "count": 8}
    return data


@pytest.mark.parametrize("place, where, full", [("hand", "hand of player 0", True),
                                                ("hand", "hand of player 0", False),
                                                ("deck", "deck (the draw pile)", True),
                                                ("expedition", "expedition B of player 0", False),
                                                ("known", "known cards of player 1", False)])
def test_a_buried_card_anywhere_but_under_a_pile_s_top_is_refused_saying_where_it_may_stand(place, where, full):
    """'B?' in a hand was refused as "value '?' is not 2..10 or w", as if '?' were a typo: it now says
    that X? is a buried card, allowed only below the top of a view's discard pile, and names where it was
    found, in the JSON and in the one-line string, which reads the same cards."""
    deal = lc.Position.deal(seed=3)
    data = _with_b_buried(deal.to_json() if full else deal.view(0).to_json(), place)
    for given in (data, _as_string(data)):
        with pytest.raises(lc.PositionError) as refused:
            lc.read_position(given)
        message = str(refused.value)
        assert message.startswith(f"{where}: 'B?' is a buried card") and BURIED_ONLY in message, message
        assert "Buried discard cards" in message and "2..10 or w" not in message


def _as_string(data) -> str:
    """The one-line string of a position's JSON, its cards written as they are (even unreadable ones)."""
    hands = [".".join(h) if isinstance(h, list) else f"?{h['count']}" + "".join(f".{c}" for c in h["known"])
             for h in data["hands"]]
    exps = [".".join(c for cards in e.values() for c in cards) for e in data["expeditions"]]
    deck = ".".join(data["deck"]) if isinstance(data["deck"], list) else str(data["deck"])
    view = ";v0" if "viewer" in data else ""
    return (f"LC1;c5;h8;nr;m0{view};p0={hands[0]};p1={hands[1]}" + "".join(f";e{p}={e}" for p, e in enumerate(exps)
                                                                       if e) + f";d={deck}")


def test_a_buried_card_in_a_turn_is_refused_saying_where_it_may_stand():
    """'+B?/D' in a record (and ':B?' for the card drawn) was "value '?' is not 2..10 or w"."""
    from lcanalysis.game.records import RecordError, read_record

    deal = lc.Position.deal(seed=3)
    for start, turn, where in ((deal.to_json(), "+B?/D", "move '+B?/D': 'B?'"),
                               (deal.view(0).to_json(), "-Yw/D:B?", "the card drawn after ':': 'B?'")):
        with pytest.raises(RecordError) as refused:
            read_record({"start": start, "turns": [turn]})
        message = str(refused.value)
        assert f"turn index 0 ({turn!r})" in message and where in message and BURIED_ONLY in message, message
        assert "2..10 or w" not in message


def test_a_buried_card_given_to_the_python_constructor_as_a_card_is_refused_saying_where_it_may_stand():
    """``Position.from_parts`` with a ``Buried`` in a hand was "a card must be a string like 'R7' or 'Gw',
    got Buried.parse('B?')": the same refusal as for its text now."""
    deal = lc.Position.deal(seed=3)
    hand = list(deal.hand(0))
    hand[3] = Buried(COLOR_LETTERS.index("B"))
    with pytest.raises(lc.PositionError, match=rf"^hand of player 0: 'B\?' is a buried card .*{BURIED_ONLY}"):
        lc.Position.from_parts([hand, deal.hand(1)], [[], []], [], deal.deck)
