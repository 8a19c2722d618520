"""Tournament statistics against values worked out by hand."""

import math

import numpy as np
import pandas as pd
import pytest

from lcanalysis.tournaments.runner import RESULT_COLUMNS, rating_errors, ratings, summarize
from lcanalysis.tournaments.stats import (
    bradley_terry,
    elo_expected,
    head_to_head,
    mean_interval,
    unit_rate_interval,
    wilson_interval,
)


def test_wilson_interval_matches_the_formula_worked_by_hand():
    # p = 0.6, n = 100, z = 1.959964: centre = (0.6 + z^2/200) / (1 + z^2/100) = 0.596294,
    # half = z * sqrt(0.0024 + z^2/40000) / (1 + z^2/100) = 0.094297
    lo, hi = wilson_interval(60, 100)
    assert lo == pytest.approx(0.501997, abs=1e-5)
    assert hi == pytest.approx(0.690592, abs=1e-5)


def test_wilson_interval_stays_inside_zero_one_at_the_extremes():
    lo, hi = wilson_interval(0, 10)
    # z^2 / (n + z^2) = 3.8415 / 13.8415
    assert lo == pytest.approx(0.0, abs=1e-12) and hi == pytest.approx(0.277533, abs=1e-5)
    lo, hi = wilson_interval(10, 10)
    assert hi == pytest.approx(1.0, abs=1e-12) and lo == pytest.approx(1 - 0.277533, abs=1e-5)


def test_mean_interval_is_the_student_t_interval():
    # 1..5: mean 3, sd sqrt(2.5), se 0.70711, t(0.975, 4) = 2.776445
    m, lo, hi = mean_interval([1, 2, 3, 4, 5])
    assert m == 3.0
    assert lo == pytest.approx(3 - 2.776445 * math.sqrt(2.5) / math.sqrt(5), abs=1e-6)
    assert hi == pytest.approx(3 + 1.963243, abs=1e-5)


def test_head_to_head_counts_draws_as_half_and_groups_duplicate_deals():
    diffs = [10, -4, 0, 6, 20, -20]
    units = [0, 0, 1, 1, 2, 2]
    h = head_to_head(diffs, units)
    assert (h.wins, h.draws, h.losses) == (3, 1, 2)
    assert h.win_rate == pytest.approx(3.5 / 6)
    # deal means: 3, 3, 0 -> mean 2, sd sqrt(3), se 1, t(0.975, 2) = 4.302653
    assert h.mean_diff == pytest.approx(2.0)
    assert h.units == 3
    assert h.diff_low == pytest.approx(2 - 4.302653, abs=1e-5)
    assert h.diff_high == pytest.approx(2 + 4.302653, abs=1e-5)
    # its standard error is the deal means' (1, by hand), not the rounds' spread over a root:
    # the rounds' sd is sqrt((64 + 36 + 4 + 16 + 324 + 484) / 5) = 13.6, over sqrt(3) deals 7.9
    assert h.diff_stderr == pytest.approx(1.0) and h.diff_sd == pytest.approx(math.sqrt(928 / 5))
    assert h.flipped().diff_stderr == pytest.approx(1.0)



def test_a_win_rates_interval_over_duplicate_deals_is_the_t_interval_of_the_deal_means_worked_by_hand():
    """The two seatings of a duplicate deal share its cards, so their results are not independent:
    the interval over deals takes each deal's mean result as one sample. Five deals won-lost,
    won-drawn, lost-lost, won-won, drawn-lost: deal means 0.5, 0.75, 0, 1, 0.25; mean 0.5, sample
    variance (0 + 0.0625 + 0.25 + 0.25 + 0.0625) / 4 = 0.15625, standard error sqrt(0.15625 / 5)
    = 0.176777, t(0.975, 4) = 2.776445: 0.5 -+ 0.490810."""
    results = [1, 0, 1, 0.5, 0, 0, 1, 1, 0.5, 0]
    deals = [0, 0, 1, 1, 2, 2, 3, 3, 4, 4]
    lo, hi = unit_rate_interval(results, deals)
    assert lo == pytest.approx(0.5 - 0.490810, abs=1e-6) and hi == pytest.approx(0.5 + 0.490810, abs=1e-6)
    # the same rounds as score differences: head_to_head gives it beside Wilson's over rounds
    h = head_to_head([10, -3, 8, 0, -1, -7, 2, 40, 0, -9], deals)
    assert (h.win_unit_low, h.win_unit_high) == (lo, hi)
    assert (h.win_low, h.win_high) == wilson_interval(5, 10)  # 4 wins and 2 draws of 10 rounds, as if independent
    f = h.flipped()  # from the other side: 1 - the interval
    assert (f.win_unit_low, f.win_unit_high) == pytest.approx((1 - hi, 1 - lo))
    # no units: the rounds are independent, and the interval over them is Wilson's
    alone = head_to_head([10, -3, 8, 0])
    assert (alone.win_unit_low, alone.win_unit_high) == (alone.win_low, alone.win_high)


def test_seatings_that_split_each_deal_give_an_interval_over_deals_narrower_than_wilsons_over_rounds():
    """The duplicate pairing at work: results opposite in the two seatings of most deals (a good
    hand wins from either seat) vary far less deal by deal than round by round. 40 deals: 30 split
    one-one, 6 won twice, 4 lost twice: the deal means 0.5 (30), 1 (6), 0 (4), mean 0.525, sample
    variance (30 * 0.025^2 + 6 * 0.475^2 + 4 * 0.525^2) / 39 = 0.063462, standard error 0.039832,
    t(0.975, 39) = 2.022691."""
    results = [1, 0] * 30 + [1, 1] * 6 + [0, 0] * 4
    deals = [d for d in range(40) for _ in (0, 1)]
    lo, hi = unit_rate_interval(results, deals)
    half = 2.022691 * 0.039832
    assert lo == pytest.approx(0.525 - half, abs=1e-5) and hi == pytest.approx(0.525 + half, abs=1e-5)
    wlo, whi = wilson_interval(42, 80)
    assert hi - lo < 0.8 * (whi - wlo)  # a quarter narrower than the 80 rounds counted as independent


def test_a_win_rate_with_no_spread_over_deals_gets_wilsons_interval_counting_each_deal_once():
    """Every deal won twice: a spread of 0 gives a t interval of no width, which claims a certainty
    10 deals do not give. Wilson's over the 10 deals instead: z^2 / (10 + z^2) = 0.277533 below 1.
    Twenty rounds counted as independent would claim [0.8389, 1]."""
    lo, hi = unit_rate_interval([1] * 20, [d for d in range(10) for _ in (0, 1)])
    assert hi == pytest.approx(1.0) and lo == pytest.approx(1 - 0.277533, abs=1e-5)
    assert wilson_interval(20, 20)[0] == pytest.approx(1 - 3.841459 / 23.841459, abs=1e-5)
    assert unit_rate_interval([0.5, 0.5], [0, 0]) == wilson_interval(0.5, 1)  # one deal: Wilson's of one trial
    with pytest.raises(ValueError, match="one unit per round"):
        unit_rate_interval([1, 0], [0])

def test_bradley_terry_two_players_three_wins_in_four_is_400_log10_3():
    res = [("a", "b", 1.0)] * 3 + [("a", "b", 0.0)]
    r = bradley_terry(res, prior=0)
    assert r["a"] - r["b"] == pytest.approx(400 * math.log10(3), abs=1e-4)
    assert r["a"] + r["b"] == pytest.approx(0.0, abs=1e-9)
    assert elo_expected(r["a"], r["b"]) == pytest.approx(0.75, abs=1e-6)


def test_bradley_terry_recovers_a_consistent_three_player_table():
    # strengths 4 : 2 : 1 -> expected scores a-b 2/3, b-c 2/3, a-c 4/5; feed exactly those
    res = [("a", "b", 2 / 3), ("b", "c", 2 / 3), ("a", "c", 4 / 5)]
    r = bradley_terry(res, prior=0)
    assert r["a"] - r["b"] == pytest.approx(400 * math.log10(2), abs=1e-3)
    assert r["b"] - r["c"] == pytest.approx(400 * math.log10(2), abs=1e-3)


def _table(rows):
    df = pd.DataFrame(rows, columns=RESULT_COLUMNS)
    return df


def test_summarize_reads_each_pairing_from_the_first_agents_side_and_counts_capped_rounds():
    rows = [
        # pairing, deal, swap, round, seed, colors, player0, player1, starter, score0, score1, turns, capped
        [0, 0, 0, 1, 11, 5, "A", "B", 0, 30, 10, 44, False],   # A +20
        [0, 0, 1, 1, 11, 5, "B", "A", 0, 25, 15, 46, False],   # A -10
        [0, 1, 0, 1, 12, 5, "A", "B", 0, 5, 5, 200, True],     # draw, capped
        [0, 1, 1, 1, 12, 5, "B", "A", 0, 0, 40, 50, False],    # A +40
    ]
    s = summarize(_table(rows)).iloc[0]
    assert (s.agent, s.opponent) == ("A", "B")
    assert (s.wins, s.draws, s.losses) == (2, 1, 1)
    assert s.win_rate == pytest.approx(2.5 / 4)
    assert s.mean_diff == pytest.approx((5 + 20) / 2)  # deal means 5 and 20
    assert s.capped == 1
    assert s.units == 2
    assert s.mean_turns == pytest.approx((44 + 46 + 200 + 50) / 4)
    # the win rate over deals: deal means 0.5 and 0.75 (won-lost, drawn-won), mean 0.625, standard
    # error 0.125, t(0.975, 1) = 12.706205: the whole of 0-1; Wilson's over the 4 rounds beside it
    assert (s.win_unit_low, s.win_unit_high) == (0.0, 1.0)
    assert (s.win_low, s.win_high) == pytest.approx(wilson_interval(2.5, 4))


def test_ratings_of_a_round_robin_order_the_agents():
    rows = []
    for deal in range(6):
        rows.append([0, deal, 0, 1, deal, 5, "A", "B", 0, 20, 0, 44, False])
        rows.append([1, deal, 0, 1, deal, 5, "B", "C", 0, 20, 0, 44, False])
        rows.append([2, deal, 0, 1, deal, 5, "A", "C", 0, 20, 0, 44, False])
    r = ratings(_table(rows))
    assert list(r.index) == ["A", "B", "C"]
    assert np.isfinite(r.to_numpy()).all()


def test_the_ratings_standard_errors_match_the_delta_method_on_independent_rounds():
    """A beats B in 280 of 400 deals, one round each: the ratings are -+d/2 with d = 400 log10(p / (1 - p)),
    so each rating's standard error is (400 / ln 10) / 2 * sqrt(1 / (n p (1 - p))) = 9.48 by the delta
    method; the bootstrap over deals agrees within its own noise."""
    n, wins, p = 400, 280, 0.7
    rows = [[0, deal, 0, 1, deal, 5, "A", "B", 0, 10 if deal < wins else 0, 0 if deal < wins else 10, 44, False]
            for deal in range(n)]
    df = _table(rows)
    r = ratings(df, prior=0)
    assert r["A"] - r["B"] == pytest.approx(400 * math.log10(p / (1 - p)), rel=1e-6)
    errors = rating_errors(df, prior=0, resamples=400)
    expected = 400 / math.log(10) / 2 * math.sqrt(1 / (n * p * (1 - p)))
    assert errors["A"] == pytest.approx(expected, rel=0.15) and errors["B"] == pytest.approx(errors["A"])
    assert rating_errors(df[df.deal == 0]).isna().all()  # one deal: no spread to measure


def test_summarize_says_what_it_takes():
    import pandas as pd

    from lcanalysis.tournaments.specs import TournamentError

    for bad in (None, pd.DataFrame({"deal": [0]})):
        with pytest.raises(TournamentError, match="summarize takes the rounds of a tournament"):
            summarize(bad)
    rounds = pd.DataFrame({"pairing": ["a-b"] * 2, "player0": ["a", "b"], "player1": ["b", "a"], "swap": [0, 1],
                           "deal": [0, 0], "round": [1, 1], "score0": [10, 3], "score1": [2, 5],
                           "capped": [False, False], "turns": [40, 41]})
    for conf in (2, float("nan"), 0, True):
        with pytest.raises(TournamentError, match="conf must be a confidence level between 0 and 1"):
            summarize(rounds, conf=conf)
    row = summarize(rounds).iloc[0]
    assert row.rounds == 2 and row.mean_diff == pytest.approx(((10 - 2) + (5 - 3)) / 2)


def test_the_refusal_of_what_is_not_a_tournament_names_the_functions_that_give_one(tmp_path):
    """It named ``tournament()``, which the library does not have, and ``results.read_results``, which
    gives a tuple that summarize refuses in turn; the two it names now give rounds summarize takes."""
    import lcanalysis as lc
    from lcanalysis.tournaments import runner
    from lcanalysis.tournaments.specs import TournamentError

    with pytest.raises(TournamentError) as refused:
        summarize([])
    said = str(refused.value)
    assert "run_tournament() returns" in said and "tournaments.runner.load_results(path) of its results file" in said
    out = tmp_path / "t.jsonl"
    played = lc.run_tournament(["greedy", "random"], deals=1, executor="serial", progress=False, out=str(out))
    assert len(summarize(played)) == len(summarize(runner.load_results(out))) == 1


def test_the_rating_functions_refuse_what_is_not_a_tournament_or_not_a_prior():
    """Found by a review: None or a string gave AttributeError or KeyError; prior=-1 gave ratings of
    +-120,000 and prior=nan all zeros; resamples=0 gave NaN errors."""
    from lcanalysis.tournaments.runner import time_per_move
    from lcanalysis.tournaments.specs import TournamentError

    rows = [[0, deal, 0, 1, deal, 5, "A", "B", 0, 10 if deal % 3 else 0, 5, 44, False] for deal in range(6)]
    df = _table(rows)
    for call, said in ((lambda: ratings(None), "ratings takes the rounds of a tournament"),
                       (lambda: rating_errors("x"), "rating_errors takes the rounds"),
                       (lambda: time_per_move(pd.DataFrame()), "time_per_move takes the rounds"),
                       (lambda: ratings(df, prior=-1), "prior must be a number of virtual draws >= 0, got -1"),
                       (lambda: ratings(df, prior=float("nan")), "prior must be a number of virtual draws >= 0"),
                       (lambda: rating_errors(df, resamples=0), "resamples must be a whole number from 2"),
                       (lambda: rating_errors(df, seed=-1), "seed must be a whole number 0 or above, got -1")):
        with pytest.raises(TournamentError, match=said):
            call()
    assert ratings(df)["A"] > 0 and np.isfinite(rating_errors(df, resamples=50)).all()


def test_a_share_of_none_or_all_is_not_certain():
    """A share of 0 (or 1) out of n had a standard error of 0 and a 95% interval of [0, 0]: a
    sample of 40 read as certainty (the stalling article's table showed it). The interval is now
    Wilson's and the standard error comes from it; in between, the binomial standard error stands."""
    from lcanalysis.studies.estimate import Estimate

    none = Estimate.proportion([False] * 40)
    assert none.mean == 0.0 and none.ci95[0] == 0.0
    # Wilson's upper end at 0 of n, by hand: z^2 / (n + z^2)
    z = 1.959963984540054
    assert none.ci95[1] == pytest.approx(z * z / (40 + z * z), rel=1e-9)
    assert none.stderr == pytest.approx(none.ci95[1] / (2 * 1.96))
    every = Estimate.proportion([True] * 40)
    assert every.ci95 == pytest.approx((1 - none.ci95[1], 1.0)) and every.stderr == pytest.approx(none.stderr)
    half = Estimate.proportion([True, False] * 20)
    assert half.stderr == pytest.approx(math.sqrt(0.25 / 40))
    assert half.ci95[0] > 0.5 - 1.96 * half.stderr  # Wilson's interval is a little narrower at 1/2
    t2 = 4.303  # a mean of 3 values: Student's t with 2 degrees of freedom (a printed table's value)
    assert Estimate.of([1.0, 2.0, 3.0]).ci95 == pytest.approx((2 - t2 / math.sqrt(3), 2 + t2 / math.sqrt(3)), rel=1e-3)


def test_a_tournaments_score_difference_is_an_estimate_a_chart_draws_with_the_printed_interval():
    """A writer charting an agent's edge made ``Estimate(mean_diff, diff_stderr, n)`` from the summary by
    hand (reading the code for which column counts the deals): its bar was ± 1.96 s.e., narrower than the
    Student's t interval over deals the tournament printed. ``Estimate.score_difference`` takes a summary
    row (or ``--json``'s summary entry) and keeps that interval; worked out here from the rounds."""
    from scipy import stats as st

    import lcanalysis as lc
    from lcanalysis.show import figures
    from lcanalysis.studies.estimate import Estimate

    df = lc.run_tournament(["heuristic", "greedy"], deals=5, executor="serial", progress=False)
    side = np.where(df["player0"] == "heuristic", df["score0"] - df["score1"], df["score1"] - df["score0"])
    per_deal = pd.Series(side).groupby(df["deal"].to_numpy()).mean().to_numpy()
    assert len(per_deal) == 5
    se = per_deal.std(ddof=1) / math.sqrt(5)
    t = st.t.ppf(0.975, 4)
    row = summarize(df).iloc[0]
    for given in (row, row.to_dict()):
        e = Estimate.score_difference(given)
        assert (e.mean, e.stderr, e.n) == (pytest.approx(per_deal.mean()), pytest.approx(se), 5)
        assert e.ci95 == pytest.approx((per_deal.mean() - t * se, per_deal.mean() + t * se))
    fig = figures.estimates_chart({"heuristic vs greedy": e}, title="t", xlabel="points", counts="deals")
    (segment,) = fig.axes[0].containers[0].lines[2][0].get_segments()
    assert sorted((segment[0][0], segment[1][0])) == pytest.approx(list(e.ci95))
    with pytest.raises(ValueError, match="'diff_stderr'"):
        Estimate.score_difference({"mean_diff": 1.0, "units": 5, "diff_low": 0.0, "diff_high": 2.0})


@pytest.mark.parametrize("n", [3, 5, 30])
def test_a_small_samples_mean_has_students_t_interval(n):
    """``Estimate.of(values).ci95`` was mean ± 1.96 s.e. whatever the sample size: for 5 values the
    95% interval is ± 2.78 s.e., so the old one covered the mean far less often than it said. It is
    Student's t with n - 1 degrees of freedom (scipy's ``t.interval`` on the sample, worked out here),
    for ``Estimate.of`` and for an ``Estimate(mean, stderr, n)`` built by hand alike; the standard
    error stays the standard error, and the chart draws that interval."""
    from scipy import stats as st

    from lcanalysis.show import figures
    from lcanalysis.studies.estimate import Estimate, estimates_frame

    x = np.random.default_rng(n).normal(10.0, 3.0, n)
    se = x.std(ddof=1) / math.sqrt(n)
    expected = st.t.interval(0.95, n - 1, loc=x.mean(), scale=se)
    e = Estimate.of(x)
    assert e.stderr == pytest.approx(se) and e.n == n
    assert e.ci95 == pytest.approx(expected)
    assert Estimate(float(x.mean()), float(se), n).ci95 == pytest.approx(expected)
    if n == 5:  # the t table's 2.776, not 1.96
        assert (e.ci95[1] - e.mean) / se == pytest.approx(2.776, abs=1e-3)
    frame = estimates_frame({"x": e}, digits=6)
    assert (frame.loc["x", "95% low"], frame.loc["x", "95% high"]) == pytest.approx(expected, abs=1e-6)
    fig = figures.estimates_chart({"x": e}, title="t", xlabel="points")
    (segment,) = fig.axes[0].containers[0].lines[2][0].get_segments()
    assert sorted((segment[0][0], segment[1][0])) == pytest.approx(list(expected))


def test_a_large_samples_interval_is_about_1_96_standard_errors_and_one_value_gives_none():
    """With 100,000 samples Student's t is the normal's 1.96 within 0.2%. One value (or no standard
    error) has no interval: NaN at both ends, no error, as a table shows it."""
    from lcanalysis.studies.estimate import Estimate, estimates_frame

    e = Estimate(5.0, 0.5, 100_000)
    half = (e.ci95[1] - e.ci95[0]) / 2
    assert half == pytest.approx(1.96 * 0.5, rel=2e-3)
    assert e.ci95[0] + half == pytest.approx(5.0)
    for lone in (Estimate.of([3.0]), Estimate(3.0, 0.4, 1), Estimate(3.0, math.nan, 8), Estimate.of([])):
        assert all(math.isnan(v) for v in lone.ci95)
    frame = estimates_frame({"one value": Estimate.of([3.0])})
    assert frame.loc["one value", "estimate"] == 3.0 and math.isnan(frame.loc["one value", "95% low"])


def test_welch_t_is_scipys_welch_test_on_the_raw_samples():
    """``welch_t`` (the one Welch interval of paired_strength --unpaired and skill_and_luck's error-rate
    gaps) from two means' standard errors and sample sizes: its degrees of freedom and interval are those
    of scipy's Welch test computed on the samples themselves; no spread gives no interval."""
    from scipy import stats

    from lcanalysis.studies.estimate import welch_t

    rng = np.random.default_rng(5)
    for n_a, n_b in ((4, 9), (30, 30), (200, 12)):
        a, b = rng.normal(1.0, 2.0, n_a), rng.normal(0.0, 5.0, n_b)
        se_a, se_b = a.std(ddof=1) / np.sqrt(n_a), b.std(ddof=1) / np.sqrt(n_b)
        se, dof, half = welch_t(se_a, n_a, se_b, n_b)
        ref = stats.ttest_ind(a, b, equal_var=False)
        assert dof == pytest.approx(ref.df, rel=1e-9)
        low, high = ref.confidence_interval(0.95)
        diff = a.mean() - b.mean()
        assert (diff - half, diff + half) == pytest.approx((low, high), rel=1e-9)
        assert se == pytest.approx(diff / ref.statistic, rel=1e-9)
    se, dof, half = welch_t(0.0, 10, 0.0, 10)
    assert se == 0.0 and np.isnan(dof) and np.isnan(half)
    assert np.isnan(welch_t(1.0, 1, 1.0, 10)[2])


def test_the_standard_error_over_clusters_is_the_one_worked_by_hand_on_three_rounds():
    """``clusters`` (the one copy of the arithmetic ``studies.estimate`` and ``wagers.simulation`` use):
    rounds A = (1, 3), B = (2), C = (6, 4, 2). By hand: the mean is 18 / 6 = 3; the rounds' residuals
    (sum - 3 x count) are -2, -1, +3, their squares 14; the error is sqrt(14 / (3 x 2)) / 2 (the mean
    round's 2 items) = 0.76376. With one item a round it is the sample mean's sd / sqrt(n); under two
    rounds NaN; labels that are not one an item are refused."""
    from lcanalysis.clusters import cluster_totals, clustered_stderr, ratio_stderr
    from lcanalysis.studies.estimate import clustered_mean

    values, rounds = [1.0, 3.0, 2.0, 6.0, 4.0, 2.0], ["A", "A", "B", "C", "C", "C"]
    totals, counts = cluster_totals(values, rounds)
    assert totals.tolist() == [4.0, 2.0, 12.0] and counts.tolist() == [2.0, 1.0, 3.0]
    assert ratio_stderr(totals, counts) == pytest.approx((3.0, math.sqrt(14 / 6) / 2), rel=1e-12)
    assert clustered_stderr(values, rounds) == pytest.approx(0.763763, abs=1e-6)
    e = clustered_mean(values, rounds)  # 6 items, t over the 3 rounds: t(0.975, 2) = 4.302653, x 0.763763
    assert (e.mean, e.n) == (3.0, 6) and e.ci95 == pytest.approx((3 - 3.286205, 3 + 3.286205), abs=1e-6)
    x = np.array([5.0, -1.0, 2.5, 8.0, 0.0])
    assert clustered_stderr(x, np.arange(5)) == pytest.approx(x.std(ddof=1) / math.sqrt(5), rel=1e-12)
    assert math.isnan(clustered_stderr([1.0, 2.0, 3.0], [7, 7, 7]))
    with pytest.raises(ValueError, match=r"one cluster label an item, got \(2,\) labels for values of shape \(3,\)"):
        clustered_stderr([1.0, 2.0, 3.0], [0, 1])
