"""Luck-adjusted tournaments: the luck of every deck draw, rated as it is played, is zero on
average (the mean is over the cards really in the pile), the turn-limited value agrees with a
brute-force search over the hand, the luck-adjusted difference keeps the raw mean and has less
variance, and results files hold the luck in a way the schema checks."""

from __future__ import annotations

import itertools
import json
import math
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from lcanalysis.agents import make_agent
from lcanalysis.cli.tournament import tournament_main
from lcanalysis.core import kernel as K
from lcanalysis.evaluator import evaluate_position
from lcanalysis.game.position import Position
from lcanalysis.game.rules import Rules, expedition_score
from lcanalysis.tournaments import luck as L
from lcanalysis.tournaments.results import (
    HEADER_KEY,
    LUCK_COLUMNS,
    ResultsMismatchError,
    ResultsWarning,
    luck_bound,
)
from lcanalysis.tournaments.runner import (
    RESULT_COLUMNS,
    load_results,
    luck_adjusted_diffs,
    play_round,
    run_tournament,
    summarize,
)
from lcanalysis.tournaments.specs import deal_seed
from lcanalysis.tournaments.stats import samples_needed, variance_ratio

PAIR = ["heuristic", "greedy"]


def _table(df):
    """The results without the times (a round played again takes another time)."""
    return df[RESULT_COLUMNS + [c for c in LUCK_COLUMNS if c in df.columns]].reset_index(drop=True)


def _positions(n=12):
    """Positions reached by heuristic play, at every stage of the round, each with the deck-drawing
    turn the heuristic agent chose there (or a deck-drawing turn if it chose a discard pile)."""
    agent = make_agent("heuristic")
    out = []
    for k in range(n):
        pos = Position.deal(1000 + k)
        stop = (k * 7) % 42  # cards to draw before stopping: 0..41
        while pos.deck_count > 44 - stop and not pos.is_over():
            pos.push(agent.choose(pos.view(pos.to_move), k))
        move = agent.choose(pos.view(pos.to_move), k)
        if not move.draws_from_deck:
            move = next(m for m in pos.legal_moves() if m.draws_from_deck)
        out.append((pos, move))
    return out


# --- the luck of one draw ---------------------------------------------------------------------


@pytest.mark.parametrize("value", list(L.VALUES))
def test_the_mean_is_over_every_card_of_the_pile_each_counted(value):
    """Independent reference: every card of the pile (``Position.deck``, one by one, duplicates
    included) drawn through the object layer (``push(move, drawn=card)``)."""
    for pos, move in _positions():
        p = pos.to_move
        kind = L.VALUES[value]
        values = []
        for card in pos.deck:
            q = pos.copy()
            q.push(move, drawn=card)
            values.append(L.drawer_value(q.state, p, kind))
        state = pos.state.copy()
        luck, after, mean = L.deck_draw_luck(pos.state, move.code(pos.colors), value)
        assert np.array_equal(pos.state, state)  # the state is left as it was
        assert mean == pytest.approx(float(np.mean(values)), abs=1e-9)
        assert after == pytest.approx(values[0], abs=1e-9)  # the top of the pile is the card drawn
        assert luck == pytest.approx(values[0] - np.mean(values), abs=1e-9)


def test_the_evaluator_value_is_the_evaluators_and_the_end_is_the_score():
    for pos, move in _positions():
        p = pos.to_move
        q = pos.copy()
        q.push(move)
        expect = evaluate_position(q, p) if not q.is_over() else q.scores()[p] - q.scores()[1 - p]
        assert L.drawer_value(q.state, p, 1) == pytest.approx(expect, abs=1e-9)


def test_the_last_card_has_no_luck():
    agent = make_agent("heuristic")
    pos = Position.deal(7)
    while pos.deck_count > 1:
        pos.push(agent.choose(pos.view(pos.to_move), 0))
    move = next(m for m in pos.legal_moves() if m.draws_from_deck)
    luck, after, mean = L.deck_draw_luck(pos.state, move.code(pos.colors))
    q = pos.copy()
    q.push(move)
    assert luck == 0.0 and after == mean == q.scores()[pos.to_move] - q.scores()[1 - pos.to_move]


def test_a_turn_that_does_not_draw_from_the_pile_has_no_luck():
    pos, _ = _positions(1)[0]
    pile_draw = [m for m in pos.legal_moves() if not m.draws_from_deck]
    if pile_draw:
        with pytest.raises(ValueError, match="does not draw from the pile"):
            L.deck_draw_luck(pos.state, pile_draw[0].code(pos.colors))
    with pytest.raises(ValueError, match="value must be one of"):
        L.deck_draw_luck(pos.state, _positions(1)[0][1].code(pos.colors), "oracle")


@pytest.mark.parametrize("value", list(L.VALUES))
def test_a_turns_luck_is_the_drawers_from_the_drawers_side_its_negative_from_the_others_and_none_off_a_pile(value):
    """``turn_luck``, the one place a tournament's rounds and a rollout's trials rate a draw: a turn
    written as a ``Move`` or as text, the state left as it was."""
    for pos, move in _positions(6):
        me, before = pos.to_move, pos.state.copy()
        luck = L.deck_draw_luck(pos.state, move.code(pos.colors), value)[0]
        assert L.turn_luck(pos.state, move, me, value) == luck
        assert L.turn_luck(pos.state, str(move), 1 - me, value) == -luck
        assert (pos.state == before).all()
        for other in (m for m in pos.legal_moves() if not m.draws_from_deck):
            assert L.turn_luck(pos.state, other, me, value) is None


def test_a_rounds_luck_is_each_seats_draws_rated_on_the_state_before_them():
    """``play_round``'s ``luck0`` and ``luck1``, and its list of draws, against the round replayed from
    its record, each deck draw rated by ``deck_draw_luck`` for the seat that drew it."""
    agents = [make_agent("heuristic"), make_agent("greedy")]
    record: list[str] = []
    draws: list = []
    row = play_round(agents, deal_seed(3, 1), Rules(rounds=1), 1, record=record, luck=True, draws=draws)
    pos, lucks, want = Position.deal(deal_seed(3, 1), Rules(rounds=1), 1), [0.0, 0.0], []
    for text in record:
        move = pos.legal_moves()[pos.legal_moves().index(text)]
        if move.draws_from_deck:
            amount = L.deck_draw_luck(pos.state, move.code(pos.colors))[0]
            lucks[pos.to_move] += amount
            want.append((pos.to_move, pos.deck_count, amount))
        pos.push(move)
    assert draws == want and (row["luck0"], row["luck1"]) == (lucks[0], lucks[1]) and len(want) > 20


def _brute_force(pos, p):
    """The best total score of p's expeditions placing at most T cards from hand (T: p's turns
    left), each colour scored by the rules: every subset of the hand tried."""
    T = (pos.deck_count + 1) // 2 if pos.to_move == p else pos.deck_count // 2
    hand = pos.hand(p)
    best = -math.inf
    for k in range(min(T, len(hand)) + 1):
        for subset in itertools.combinations(range(len(hand)), k):
            total = 0
            ok = True
            for c in range(pos.colors):
                placed = pos.expedition(p, c)
                top = max((x.rank for x in placed if not x.is_wager), default=0)
                add = [hand[i] for i in subset if hand[i].color == c]
                for x in add:
                    if (x.is_wager and top > 0) or (not x.is_wager and x.rank <= top):
                        ok = False
                total += expedition_score(placed + add)
            if ok:
                best = max(best, total)
    return best


def test_the_turn_limited_value_is_the_best_placement_of_the_cards_in_hand():
    """With no value for future draws, ``turns_value`` is the best final score from at most one
    card a turn out of the hand: checked against every subset of the hand, scored by the rules."""
    checked = 0
    for pos, _ in _positions(16):
        for p in (0, 1):
            assert L.turns_value(pos.state, p, 0.0) == pytest.approx(_brute_force(pos, p), abs=1e-9), pos.to_string()
            checked += 1
    assert checked == 32


def test_the_turns_left_are_the_shared_count_with_the_old_formula():
    """The luck's value counts turns with ``core.features.turns_left`` (it had a copy of its own):
    the same count as the copy had, ``ceil(d/2)`` for the player to move and ``floor(d/2)`` for
    the other, at every size of the pile."""
    from lcanalysis.core import features as F

    assert L.turns_left is F.turns_left
    for deck in range(61):
        assert L.turns_left(deck, True) == (deck + 1) // 2 == math.ceil(deck / 2)
        assert L.turns_left(deck, False) == deck // 2


def test_future_draws_add_value_only_where_unseen_cards_can_still_be_placed():
    for pos, _ in _positions(8):
        p = pos.to_move
        base = L.turns_value(pos.state, p, 0.0)
        assert L.turns_value(pos.state, p, 0.5) >= base - 1e-9
        assert L.turns_value(pos.state, p, 1.0) >= L.turns_value(pos.state, p, 0.5) - 1e-9


def test_the_mean_luck_of_a_draw_is_zero_over_many_simulated_draws():
    """For fixed positions, the pile reshuffled 4,000 times (what the drawer could draw is the
    card on top, uniform over the pile): the luck averages to zero within its standard error."""
    rng = np.random.default_rng(0)
    for pos, move in _positions(6):
        code = move.code(pos.colors)
        state = pos.state.copy()
        deck = np.array([c.type for c in pos.deck], dtype=state.dtype)
        start = K.off_deck(pos.colors) + int(state[K.H_DECK_POS])
        lucks = []
        for _ in range(4000):
            state[start:start + len(deck)] = rng.permutation(deck)
            lucks.append(L.deck_draw_luck(state, code)[0])
        x = np.array(lucks)
        se = x.std(ddof=1) / math.sqrt(len(x))
        assert abs(x.mean()) < 4 * se + 1e-9, (x.mean(), se)


def test_in_played_rounds_the_mean_luck_of_a_draw_is_zero_at_every_stage_and_for_each_player():
    A = [make_agent("heuristic"), make_agent("greedy")]
    draws = []
    for d in range(40):
        draws_d: list = []
        play_round(A if d % 2 == 0 else A[::-1], deal_seed(5, d), Rules(), draws=draws_d)
        draws.extend(draws_d)
    df = pd.DataFrame(draws, columns=["player", "left", "luck"])
    assert len(df) == 40 * 44  # every card of the pile is drawn once (no capped round here)
    df["stage"] = pd.cut(df.left, [0, 11, 22, 33, 44])
    for _, group in [*df.groupby("stage", observed=True), *df.groupby("player")]:
        se = group.luck.std(ddof=1) / math.sqrt(len(group))
        assert abs(group.luck.mean()) < 3.5 * se, (group.luck.mean(), se)
    assert (df[df.left == 1].luck == 0).all()


# --- luck-adjusted tournaments ---------------------------------------------------------------


@pytest.fixture(scope="module")
def lucky():
    """200 duplicate deals of heuristic v greedy, with the luck of every draw."""
    return run_tournament(PAIR, deals=200, executor="serial", progress=False, luck_adjusted=True, seed=11)


def test_the_rows_hold_each_seats_luck_and_the_games_are_the_same_as_without(lucky):
    assert list(lucky.columns[-2:]) == LUCK_COLUMNS
    plain = run_tournament(PAIR, deals=5, executor="serial", progress=False, seed=11)
    assert "luck0" not in plain.columns
    assert plain[RESULT_COLUMNS].equals(lucky[lucky.deal < 5][RESULT_COLUMNS].reset_index(drop=True))
    row = lucky.iloc[3]
    A = {"heuristic": make_agent("heuristic"), "greedy": make_agent("greedy")}
    again = play_round([A[row.player0], A[row.player1]], int(row.seed), Rules(rounds=1), luck=True)
    assert (again["luck0"], again["luck1"]) == pytest.approx((row.luck0, row.luck1))


def test_the_luck_adjusted_difference_has_the_raw_mean_and_less_variance(lucky):
    a, b = PAIR
    sub = lucky
    sign = np.where(sub.player0 == a, 1, -1)
    raw = sign * (sub.score0 - sub.score1).to_numpy()
    adjusted = luck_adjusted_diffs(sub, a, b)
    assert np.allclose(raw - adjusted, sign * (sub.luck0 - sub.luck1))
    units_raw = raw.reshape(-1, 2).mean(axis=1)  # rows are sorted by deal, then seating
    units_adj = adjusted.reshape(-1, 2).mean(axis=1)
    luck = units_raw - units_adj
    se = luck.std(ddof=1) / math.sqrt(len(luck))
    assert abs(luck.mean()) < 3 * se  # the same mean within its error
    assert units_adj.var(ddof=1) < units_raw.var(ddof=1)  # and less noise
    s = summarize(lucky).iloc[0]
    assert s.adj_mean == pytest.approx(units_adj.mean())
    assert s.mean_diff == pytest.approx(units_raw.mean())
    assert s.var_ratio == pytest.approx(units_raw.var(ddof=1) / units_adj.var(ddof=1))
    assert s.var_ratio_low < s.var_ratio < s.var_ratio_high
    assert s.adj_deals_needed == pytest.approx(samples_needed(units_adj.std(ddof=1), 2.5))
    assert s.adj_deals_needed < s.deals_needed


def test_samples_needed_and_the_variance_ratio():
    # the normal approximation by hand: (1.959964 + 0.841621)^2 * 29^2 / 2.5^2
    assert samples_needed(29.0, 2.5) == pytest.approx((1.959964 + 0.841621) ** 2 * 29.0**2 / 2.5**2, rel=1e-5)
    rng = np.random.default_rng(1)
    x = rng.normal(0, 2, 4000)
    ratio, lo, hi = variance_ratio(x + rng.normal(0, 1, 4000), x)
    assert lo < 1.25 < hi and ratio == pytest.approx(1.25, rel=0.1)
    with pytest.raises(ValueError):
        variance_ratio([1, 2, 3], [1, 2])


# --- the results file ------------------------------------------------------------------------


def _lines(path):
    return Path(path).read_text().splitlines()


def test_a_luck_adjusted_file_says_so_and_reads_back(tmp_path):
    path = tmp_path / "luck.jsonl"
    df = run_tournament(PAIR, deals=2, executor="serial", progress=False, luck_adjusted=True, out=str(path))
    head = json.loads(_lines(path)[0])
    assert head[HEADER_KEY] == 1 and head["identity"]["luck_adjusted"] is True
    back = load_results(path)
    assert back.equals(df)
    # a plain file's identity has no such key (files written before it existed read the same)
    plain = tmp_path / "plain.jsonl"
    run_tournament(PAIR, deals=1, executor="serial", progress=False, out=str(plain))
    assert "luck_adjusted" not in json.loads(_lines(plain)[0])["identity"]
    assert "luck0" not in load_results(plain).columns


def test_resuming_with_or_without_luck_is_refused_naming_the_difference(tmp_path):
    lucky, plain = tmp_path / "lucky.jsonl", tmp_path / "plain.jsonl"
    run_tournament(PAIR, deals=1, executor="serial", progress=False, luck_adjusted=True, out=str(lucky))
    run_tournament(PAIR, deals=1, executor="serial", progress=False, out=str(plain))
    with pytest.raises(ResultsMismatchError, match=r"luck of the draws \(--luck-adjusted\): True in the file, False"):
        run_tournament(PAIR, deals=2, executor="serial", progress=False, out=str(lucky))
    with pytest.raises(ResultsMismatchError, match=r"luck of the draws \(--luck-adjusted\): False in the file, True"):
        run_tournament(PAIR, deals=2, executor="serial", progress=False, out=str(plain), luck_adjusted=True)


BAD_LUCK = {
    "missing": lambda row: row.pop("luck1"),
    "a string": lambda row: row.update(luck0="3.5"),
    "a bool": lambda row: row.update(luck0=True),
    "NaN": lambda row: row.update(luck1=float("nan")),
    "infinite": lambda row: row.update(luck1=float("inf")),
    "out of range": lambda row: row.update(luck0=luck_bound(Rules()) + 1.0),
    "null": lambda row: row.update(luck0=None),
}


@pytest.mark.parametrize("what", list(BAD_LUCK))
def test_a_line_with_bad_luck_does_not_count_and_is_played_again(tmp_path, what):
    path = tmp_path / "bad.jsonl"
    good = run_tournament(PAIR, deals=2, executor="serial", progress=False, luck_adjusted=True, out=str(path))
    lines = _lines(path)
    rec = json.loads(lines[2])
    BAD_LUCK[what](rec["rows"][0])
    lines[2] = json.dumps(rec)
    path.write_text("\n".join(lines) + "\n")
    with pytest.warns(ResultsWarning, match=r"line 3: not a valid result .*luck"):
        again = run_tournament(PAIR, deals=2, executor="serial", progress=False, luck_adjusted=True, out=str(path))
    assert _table(again).equals(_table(good))


def test_luck_in_a_file_without_luck_does_not_count(tmp_path):
    path = tmp_path / "plain.jsonl"
    good = run_tournament(PAIR, deals=1, executor="serial", progress=False, out=str(path))
    lines = _lines(path)
    rec = json.loads(lines[1])
    rec["rows"][0].update(luck0=1.0, luck1=-1.0)
    lines[1] = json.dumps(rec)
    path.write_text("\n".join(lines) + "\n")
    with pytest.warns(ResultsWarning, match=r"line 2: .*unknown field\(s\) luck0, luck1 \(luck in a tournament with"):
        again = run_tournament(PAIR, deals=1, executor="serial", progress=False, out=str(path))
    assert _table(again).equals(_table(good))


def test_a_legacy_file_with_luck_reads_with_the_command_of_its_cmd(tmp_path):
    """A file without a header is read with the tournament its .cmd names, --luck-adjusted included."""
    path = tmp_path / "old.jsonl"
    run_tournament(PAIR, deals=2, executor="serial", progress=False, luck_adjusted=True, out=str(path))
    path.write_text("\n".join(_lines(path)[1:]) + "\n")  # as if written before headers existed
    Path(str(path) + ".cmd").write_text(f"lcanalysis tournament heuristic greedy --deals 2 --luck-adjusted "
                                        f"--out {path.name}\n")
    df = load_results(path)
    assert len(df) == 4 and df.attrs["identity"]["luck_adjusted"] is True and df.luck0.notna().all()
    Path(str(path) + ".cmd").write_text(f"lcanalysis tournament heuristic greedy --deals 2 --out {path.name}\n")
    with pytest.warns(ResultsWarning, match="unknown field"):
        assert len(load_results(path)) == 0


def test_the_command_prints_the_luck_adjusted_result(tmp_path, capsys):
    out = tmp_path / "cli.jsonl"
    assert tournament_main([*PAIR, "--deals", "3", "--luck-adjusted", "--no-progress", "--workers", "1",
                            "--out", str(out)]) == 0
    text = capsys.readouterr().out
    df = load_results(out)
    s = summarize(df).iloc[0]
    # the standard error behind the interval, beside it: half its width over t(0.975, deals - 1)
    from scipy import stats

    se = (s.adj_high - s.adj_low) / 2 / stats.t.ppf(0.975, s.units - 1)
    assert (f"luck-adjusted mean score difference {s.adj_mean:+.2f} [{s.adj_low:+.2f}, {s.adj_high:+.2f}] "
            f"(s.e. {se:.2f})") in text
    assert s.adj_stderr == pytest.approx(se)
    assert f"variance ratio raw/adjusted over deals {s.var_ratio:.2f}" in text
    assert tournament_main([*PAIR, "--deals", "3", "--luck-adjusted", "--no-progress", "--workers", "1",
                            "--out", str(out), "--json"]) == 0
    summary = json.loads(capsys.readouterr().out)["summary"][0]
    assert summary["adj_mean"] == pytest.approx(s.adj_mean) and summary["var_ratio"] == pytest.approx(s.var_ratio)


def test_the_auto_file_of_a_luck_adjusted_tournament_is_its_own(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    assert tournament_main([*PAIR, "--deals", "1", "--no-progress", "--workers", "1"]) == 0
    assert tournament_main([*PAIR, "--deals", "1", "--luck-adjusted", "--no-progress", "--workers", "1"]) == 0
    files = sorted(p.name for p in (tmp_path / "lcanalysis" / "tournaments").glob("*.jsonl"))
    assert len(files) == 2 and any(f.endswith("_luck.jsonl") for f in files)


@pytest.mark.slow
def test_on_1000_deals_the_variance_ratio_is_above_one_with_confidence():
    df = run_tournament(PAIR, deals=1000, executor="serial", progress=False, luck_adjusted=True, seed=12)
    s = summarize(df).iloc[0]
    assert s.var_ratio_low > 1.0
    assert s.adj_low < s.mean_diff < s.adj_high


@pytest.mark.parametrize("deals", [1, 2])
def test_a_tournament_of_one_or_two_deals_prints_no_nan_or_infinity(deals, capsys):
    """Found by a review: one deal printed '[-inf, +inf]' and 'about nan deals', two a variance ratio
    of 'nan [nan, nan]' and 'about 0 deals'; '--json' printed -Infinity, which JSON does not have."""
    argv = ["heuristic", "greedy", "--deals", str(deals), "--workers", "1", "--out", "none", "--no-progress"]
    assert tournament_main([*argv, "--luck-adjusted"]) == 0
    text = capsys.readouterr().out
    assert "luck-adjusted mean score difference" in text
    assert not any(word in text for word in ("nan", "inf")), text
    assert "variance ratio raw/adjusted: not estimated from fewer than 3 deals" in text
    assert ("(no interval from one deal)" in text) == (deals == 1)
    assert tournament_main([*argv, "--json"]) == 0

    def refuse(constant):
        raise ValueError(f"not JSON: {constant}")

    summary = json.loads(capsys.readouterr().out, parse_constant=refuse)["summary"][0]
    assert summary["units"] == deals
    assert (summary["diff_low"] is None) == (deals == 1) and (summary["diff_high"] is None) == (deals == 1)
