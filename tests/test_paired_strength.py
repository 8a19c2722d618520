"""A variant against the agent it changes, on the same deals, paired round by round."""

from __future__ import annotations

import json

import numpy as np
import pytest
from scipy import stats

import lcanalysis as lc
from lcanalysis.studies.paired_strength import main, paired_change, unpaired_change


def _play(path, agents, deals=6, seed=3, **kwargs):
    lc.run_tournament(agents, deals=deals, executor="serial", progress=False, seed=seed, out=str(path), **kwargs)
    return path


@pytest.fixture(scope="module")
def files(tmp_path_factory):
    folder = tmp_path_factory.mktemp("paired")
    return {
        "old": _play(folder / "old.jsonl", ["heuristic", "greedy"]),
        "again": _play(folder / "again.jsonl", ["heuristic", "greedy"]),
        "new": _play(folder / "new.jsonl", ["greedy", "stalling"]),  # the opponent seated first this time
        "other_seed": _play(folder / "seed.jsonl", ["stalling", "greedy"], seed=4),
        "six": _play(folder / "six.jsonl", ["stalling", "greedy"], rules=lc.Rules(colors=6)),
        "random": _play(folder / "random.jsonl", ["stalling", "random"]),
        "nine": _play(folder / "nine.jsonl", ["greedy", "stalling"], deals=9, seed=5),  # more deals than "old"
        "robin": _play(folder / "robin.jsonl", ["stalling", "greedy", "random"], deals=2, round_robin=True),
        "one": _play(folder / "one.jsonl", ["stalling", "greedy"], deals=1, seed=4),
        "later": _play(folder / "later.jsonl", ["stalling", "greedy"], deals=3, first_deal=6),  # deals 6 to 8
    }


def _rounds(path, agent):
    """{(deal, seating): (difference from ``agent``'s side, seed)}, read as plain JSON."""
    out = {}
    with open(path) as fh:
        for line in fh:
            rec = json.loads(line)
            for r in rec.get("rows", []):
                d = r["score0"] - r["score1"] if r["player0"] == agent else r["score1"] - r["score0"]
                out[(r["deal"], r["swap"])] = (d, r["seed"])
    return out


def test_the_change_is_the_mean_of_the_round_by_round_differences(files):
    change = paired_change(files["new"], files["old"])
    assert (change.new, change.old, change.opponent) == ("stalling", "heuristic", "greedy")
    new, old = _rounds(files["new"], "stalling"), _rounds(files["old"], "heuristic")
    assert new.keys() == old.keys() and len(new) == change.rounds == 12 and change.deals == 6
    assert all(new[k][1] == old[k][1] for k in new)  # the same deal in both files
    per_deal = [np.mean([new[(d, s)][0] - old[(d, s)][0] for s in (0, 1)]) for d in range(6)]
    assert change.points_change == pytest.approx(np.mean(per_deal))
    assert change.points_low <= change.points_change <= change.points_high
    win = {k: (1.0 if v[0] > 0 else 0.5 if v[0] == 0 else 0.0) for k, v in new.items()}
    assert change.win_new == pytest.approx(np.mean(list(win.values())))
    lost = {k: (1.0 if v[0] > 0 else 0.5 if v[0] == 0 else 0.0) for k, v in old.items()}
    assert change.win_change == pytest.approx(np.mean([win[k] - lost[k] for k in win]))
    same = sum(new[k][0] == old[k][0] for k in new)
    assert change.identical <= same  # identical rounds have equal differences (scores and turns too)



def test_each_files_win_rate_and_points_carry_a_standard_error_over_deals(files, capsys):
    """The two rates compared ("win rate 0.583 against 0.500") were printed with no error beside
    them: each now has its standard error over deals, worked out here from the rounds."""
    change = paired_change(files["new"], files["old"])
    for path, agent, rate_se, points_se in ((files["new"], "stalling", change.win_new_stderr, change.points_new_stderr),
                                            (files["old"], "heuristic", change.win_old_stderr,
                                             change.points_old_stderr)):
        rounds = _rounds(path, agent)
        wins = [np.mean([1.0 if rounds[(d, s)][0] > 0 else 0.5 if rounds[(d, s)][0] == 0 else 0.0 for s in (0, 1)])
                for d in range(6)]
        points = [np.mean([rounds[(d, s)][0] for s in (0, 1)]) for d in range(6)]
        assert rate_se == pytest.approx(np.std(wins, ddof=1) / np.sqrt(6))
        assert points_se == pytest.approx(np.std(points, ddof=1) / np.sqrt(6))
    assert main([str(files["new"]), str(files["old"])]) == 0
    out = capsys.readouterr().out
    assert (f"win rate {change.win_new:.3f} ± {change.win_new_stderr:.3f} against {change.win_old:.3f} ± "
            f"{change.win_old_stderr:.3f}: change") in out
    assert (f"points a round {change.points_new:+.2f} ± {change.points_new_stderr:.2f} against "
            f"{change.points_old:+.2f} ± {change.points_old_stderr:.2f}: change") in out
    assert "(± one standard error, in brackets a 95% t interval, both over deals: the two seatings" in out

def test_an_unchanged_agent_plays_every_round_identically(files):
    change = paired_change(files["again"], files["old"], opponent="greedy")
    assert change.identical == change.rounds == 12
    assert (change.points_change, change.points_low, change.points_high) == (0.0, 0.0, 0.0)
    assert (change.win_change, change.win_low, change.win_high) == (0.0, 0.0, 0.0)


def test_files_that_are_not_the_same_deals_are_refused(files):
    with pytest.raises(ValueError, match="differ in seed"):
        paired_change(files["other_seed"], files["old"])
    with pytest.raises(ValueError, match="differ in rules") as refused:
        paired_change(files["six"], files["old"])
    # a writer comparing an edge at 5 and 6 colours is told how to compare them instead
    assert str(refused.value).startswith("paired_strength: the files differ in rules: colors 6 against 5, rounds 3 "
                                         "against 1, so their rounds are not the same deals and cannot be paired")
    assert "compare them unpaired with --unpaired (unpaired_change in Python)" in str(refused.value)
    assert "the two errors in quadrature" in str(refused.value)
    with pytest.raises(ValueError, match="share exactly one agent"):
        paired_change(files["random"], files["old"])
    with pytest.raises(ValueError, match="name it when they share both"):
        paired_change(files["again"], files["old"])
    with pytest.raises(ValueError, match="must sit in both files"):
        paired_change(files["new"], files["old"], opponent="random")


def test_the_command_prints_the_change_and_names_a_missing_file(files, capsys, tmp_path):
    assert main([str(files["new"]), str(files["old"])]) == 0
    out = capsys.readouterr().out
    assert "stalling against heuristic, both against greedy: 12 rounds on 6 deals joined" in out
    assert main([str(files["again"]), str(files["old"])]) == 2
    assert "name it when they share both" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        main([str(tmp_path / "missing.jsonl"), str(files["old"])])
    assert "no such results file" in capsys.readouterr().err


def test_the_tournaments_csv_given_for_its_results_file_is_refused_naming_what_it_is(files, capsys, tmp_path):
    """A writer who passed the ``--csv`` table (it sits beside the results and has the rounds) was
    told it had no header line and to put a tournament command in ``table.csv.cmd``."""
    from lcanalysis.cli import main as lcanalysis

    table = tmp_path / "table.csv"
    assert lcanalysis(["tournament", "heuristic", "greedy", "--deals", "1", "--workers", "1", "--no-progress",
                       "--out", str(tmp_path / "results.jsonl"), "--csv", str(table)]) == 0
    capsys.readouterr()
    assert main([str(table), str(files["old"])]) == 2
    err = capsys.readouterr().err
    assert f"error: {table} is not a tournament results file: its first line is not a JSON object" in err
    assert "--csv" in err and ".cmd" not in err
    # the tournament refuses it as its results file the same way, and leaves it as it was
    before = table.read_text()
    assert lcanalysis(["tournament", "heuristic", "greedy", "--deals", "1", "--workers", "1", "--no-progress",
                       "--out", str(table)]) == 2
    assert "is not a tournament results file" in capsys.readouterr().err
    assert table.read_text() == before


def test_sides_pair_two_match_ups_without_a_common_opponent(files):
    # stalling against random, and heuristic against greedy: the same deals, no shared agent
    change = paired_change(files["random"], files["old"], sides=("stalling", "heuristic"))
    assert (change.new, change.old, change.opponent, change.opponent_old) == ("stalling", "heuristic", "random",
                                                                              "greedy")
    new, old = _rounds(files["random"], "stalling"), _rounds(files["old"], "heuristic")
    assert new.keys() == old.keys() and all(new[k][1] == old[k][1] for k in new)
    per_deal = [np.mean([new[(d, s)][0] - old[(d, s)][0] for s in (0, 1)]) for d in range(6)]
    assert change.points_change == pytest.approx(np.mean(per_deal))
    assert change.points_new == pytest.approx(np.mean([v[0] for v in new.values()]))
    assert "against random and greedy respectively" in change.describe()
    # a common opponent reads as before
    same = paired_change(files["new"], files["old"], sides=("stalling", "heuristic"))
    assert same.opponent_old is None and same.points_change == paired_change(files["new"], files["old"]).points_change
    with pytest.raises(ValueError, match=r"'greedy' does not sit in .*random\.jsonl: it seats 'random' and 'stalling'"):
        paired_change(files["random"], files["old"], sides=("greedy", "heuristic"))
    with pytest.raises(ValueError, match="not both"):
        paired_change(files["random"], files["old"], opponent="greedy", sides=("stalling", "heuristic"))


def test_the_command_takes_the_sides(files, capsys):
    assert main([str(files["random"]), str(files["old"]), "--sides", "stalling", "heuristic"]) == 0
    assert "stalling against heuristic, against random and greedy respectively: 12 rounds" in capsys.readouterr().out


def test_the_published_change_from_100_ms_to_1_s_is_what_the_data_files_give():
    from pathlib import Path

    root = Path(__file__).resolve().parent.parent
    change = paired_change(root / "data/strength_best_vs_search_1s.jsonl",
                           root / "data/strength_best_streams_vs_search.jsonl",
                           sides=("best:time_ms=1000", "search:stall=0.5,break_loops=1,hand_model=1,streams=1"))
    assert change.deals == 150 and change.rounds == 300
    docs = " ".join((root / "docs/agents.md").read_text().split())
    quoted = (f"**{change.win_change:+.3f} [{change.win_low:+.3f}, {change.win_high:+.3f}] of win rate and "
              f"{change.points_change:+.2f} [{change.points_low:+.2f}, {change.points_high:+.2f}] points a round**")
    assert quoted in docs
    readme = " ".join((root / "README.md").read_text().split())
    assert (f"the change is {100 * change.win_change:+.1f} [{100 * change.win_low:+.1f}, {100 * change.win_high:+.1f}] "
            f"points of win rate and {change.points_change:+.1f} [{change.points_low:+.1f}, "
            f"{change.points_high:+.1f}] points a round") in readme
    # the pairing leaves the interval about as wide as unpaired: for this best, undecided either way
    assert change.points_low < 0 < change.points_high and "was **not shown** by this `best`" in docs


def test_every_published_screen_is_what_its_files_give():
    """docs/agents.md, "Screening a change": each row's deals, identical rounds and paired changes,
    recomputed from the two files its ``.cmd`` pairs."""
    import re
    from pathlib import Path

    root = Path(__file__).resolve().parent.parent
    docs = (root / "docs/agents.md").read_text()
    rows = re.findall(r"^\| (.+?) \| (\d+) \| (\d+) of (\d+) \| \**([+-][\d.]+)\** \[([+-][\d.]+), ([+-][\d.]+)\] \| "
                      r"\**([+-][\d.]+)\** \[([+-][\d.]+), ([+-][\d.]+)\] \| `data/(screen_\w+)\.\*` \|$", docs, re.M)
    assert len(rows) == 14 and any(r[-1] == "screen_caution1_vs_search" for r in rows)
    for _what, deals, identical, rounds, win, win_lo, win_hi, pts, pts_lo, pts_hi, name in rows:
        cmd = (root / f"data/{name}.jsonl.cmd").read_text()
        new, old = re.search(r"paired_strength (\S+) (\S+)", cmd).groups()
        change = paired_change(root / new, root / old)
        assert (change.deals, change.identical, change.rounds) == (int(deals), int(identical), int(rounds)), name
        assert [f"{x:+.3f}" for x in (change.win_change, change.win_low, change.win_high)] == [win, win_lo, win_hi]
        assert [f"{x:+.2f}" for x in (change.points_change, change.points_low, change.points_high)] == [pts, pts_lo,
                                                                                                        pts_hi]
    first = (root / "data/screen_caution1_vs_search.txt").read_text().splitlines()[0]
    rate, points = re.search(r"win rate (\S+ \[\S+ \S+\]), mean score difference (\S+) ", first).groups()
    assert f"it won {rate} of the 600 rounds, {points} points a round" in " ".join(docs.split())
    first = (root / "data/screen_caution1_best1500_vs_search.txt").read_text().splitlines()[0]
    rate, points = re.search(r"win rate (\S+ \[\S+ \S+\]), mean score difference (\S+ \[\S+ \S+\])",
                             first).groups()
    assert f"it won {rate} of the rounds, {points} points a round" in " ".join(docs.split())
    readme = " ".join((root / "README.md").read_text().split())
    assert "(`caution=1`) scored +2.31 [+0.48, +4.13] points a round" in readme  # the table row's figures


def test_best_with_1500_play_outs_is_quoted_from_its_files():
    """docs/agents.md ("More play-outs in the same time") and the README quote
    data/strength_best1500_vs_search.*: the record, win rate and points recomputed from the rounds,
    the CPU a move from the rows, and the paired change against today's best from the two files."""
    from pathlib import Path

    import pandas as pd

    from lcanalysis.tournaments.stats import mean_interval, unit_rate_interval, wilson_interval

    root = Path(__file__).resolve().parent.parent
    d = pd.read_csv(root / "data/strength_best1500_vs_search.csv")
    mine = d.player0 == "best:time_ms=250"
    diff = np.where(mine, d.score0 - d.score1, d.score1 - d.score0)
    assert len(d) == 2000 and d.deal.nunique() == 1000 and not d.capped.any()
    won, drawn, lost = int((diff > 0).sum()), int((diff == 0).sum()), int((diff < 0).sum())
    lo, hi = wilson_interval(won + drawn / 2, len(d))
    m, mlo, mhi = mean_interval(pd.Series(diff).groupby(d.deal.to_numpy()).mean())
    docs = " ".join((root / "docs/agents.md").read_text().split())
    readme = " ".join((root / "README.md").read_text().split())
    rate = (won + drawn / 2) / len(d)
    ulo, uhi = unit_rate_interval(np.where(diff > 0, 1.0, np.where(diff == 0, 0.5, 0.0)), list(d.deal))
    cells = (f"{won}-{drawn}-{lost} | **{rate:.3f}** [{lo:.3f}, {hi:.3f}] | [{ulo:.3f}, {uhi:.3f}] | "
             f"**{m:+.2f}** [{mlo:+.2f}, {mhi:+.2f}]")  # the win rate's interval over deals beside Wilson's
    assert f"| 2,000 | {cells} | {np.std(diff, ddof=1):.1f} | 0 |" in docs
    assert f"| {cells} |".replace("**", "") in readme.replace("**", "")  # (bold marks today's best only)
    assert lo > 0.60 and mlo > 6  # issue 15's strength target, with the whole interval
    cpu = np.where(mine, d.cpu_ms_per_move0, d.cpu_ms_per_move1)
    peak = np.where(mine, d.max_cpu_ms0, d.max_cpu_ms1).max()
    assert f"{cpu.mean():.1f} ms of CPU a move on average, at most {peak:.0f} ms" in docs
    change = paired_change(root / "data/strength_best1500_vs_search.jsonl",
                           root / "data/strength_best_streams_vs_search.jsonl")
    assert (change.deals, change.identical) == (1000, 113)
    assert (f"**{100 * change.win_change:+.1f} [{100 * change.win_low:+.1f}, {100 * change.win_high:+.1f}] points of "
            f"win rate and {change.points_change:+.2f} [{change.points_low:+.2f}, {change.points_high:+.2f}] points "
            f"a round**") in docs
    assert (f"+{100 * change.win_change:.1f} [{100 * change.win_low:+.1f}, {100 * change.win_high:+.1f}] points of "
            f"win rate and {change.points_change:+.1f} [{change.points_low:+.1f}, {change.points_high:+.1f}]") in readme


def _deal_means(path, agent):
    """{deal: (mean result, mean score difference)} over every round of the deal's seatings (a match
    has several), from ``agent``'s side, read as plain JSON."""
    diffs = {}
    with open(path) as fh:
        for line in fh:
            for r in json.loads(line).get("rows", []):
                d = r["score0"] - r["score1"] if r["player0"] == agent else r["score1"] - r["score0"]
                diffs.setdefault(r["deal"], []).append(d)
    return {deal: (np.mean([1.0 if d > 0 else 0.5 if d == 0 else 0.0 for d in ds]), np.mean(ds))
            for deal, ds in sorted(diffs.items())}


@pytest.mark.parametrize("new, side", [("six", "stalling"), ("nine", "stalling")])
def test_files_on_other_deals_are_compared_unpaired_by_welchs_t_over_deals(files, new, side):
    """6 colours against 5, and 9 deals of another seed against 6: each file's rate and points with its
    standard error over deal means, the change's interval scipy's Welch t test over the same means."""
    change = unpaired_change(files[new], files["old"])
    assert (change.new, change.old, change.opponent, change.opponent_old) == (side, "heuristic", "greedy", "greedy")
    mine, theirs = _deal_means(files[new], side), _deal_means(files["old"], "heuristic")
    assert (change.deals_new, change.deals_old, change.rounds_old) == (len(mine), 6, 12)
    assert change.rounds_new == 2 * len(mine) * (3 if new == "six" else 1)  # 6 colours: a match of 3 rounds
    for i, (rate, rate_se, rate_old, rate_old_se, delta, se, dof, low, high) in enumerate((
            (change.win_new, change.win_new_stderr, change.win_old, change.win_old_stderr, change.win_change,
             change.win_change_stderr, change.win_dof, change.win_low, change.win_high),
            (change.points_new, change.points_new_stderr, change.points_old, change.points_old_stderr,
             change.points_change, change.points_change_stderr, change.points_dof, change.points_low,
             change.points_high))):
        a, b = np.array([v[i] for v in mine.values()]), np.array([v[i] for v in theirs.values()])
        assert (rate, rate_old, delta) == pytest.approx((a.mean(), b.mean(), a.mean() - b.mean()))
        assert (rate_se, rate_old_se) == pytest.approx((a.std(ddof=1) / np.sqrt(len(a)),
                                                        b.std(ddof=1) / np.sqrt(len(b))))
        assert se == pytest.approx(np.hypot(rate_se, rate_old_se))
        welch = stats.ttest_ind(a, b, equal_var=False)
        assert dof == pytest.approx(welch.df)
        assert (low, high) == pytest.approx(tuple(welch.confidence_interval(0.95)))
    assert change.other_deals == ("they differ in rules: colors 6 against 5, rounds 3 against 1" if new == "six"
                                  else "they differ in seed: 5 against 3")


def test_the_unpaired_answer_says_it_is_unpaired_and_wider(files, capsys):
    change = unpaired_change(files["six"], files["old"])
    assert main([str(files["six"]), str(files["old"]), "--unpaired"]) == 0
    out = capsys.readouterr().out
    assert ("stalling against greedy (six.jsonl: 36 rounds on 6 deals) compared with heuristic against greedy "
            "(old.jsonl: 12 rounds on 6 deals), unpaired, the files being on other deals (they differ in rules: "
            "colors 6 against 5, rounds 3 against 1)") in out
    assert (f"points a round {change.points_new:+.2f} ± {change.points_new_stderr:.2f} against "
            f"{change.points_old:+.2f} ± {change.points_old_stderr:.2f}: change {change.points_change:+.2f} ± "
            f"{change.points_change_stderr:.2f} [{change.points_low:+.2f}, {change.points_high:+.2f}]") in out
    assert (f"win rate {change.win_new:.3f} ± {change.win_new_stderr:.3f} against {change.win_old:.3f} ± "
            f"{change.win_old_stderr:.3f}: change {change.win_change:+.3f}") in out
    assert "so the interval is wider than a paired one on the same deals would be" in " ".join(out.split())


def test_files_of_the_same_deals_compared_unpaired_are_told_pairing_would_be_narrower(files, capsys):
    unpaired, paired = unpaired_change(files["new"], files["old"]), paired_change(files["new"], files["old"])
    assert unpaired.other_deals is None
    # every deal has both seatings in both files, so the centres agree; only the intervals differ
    assert unpaired.points_change == pytest.approx(paired.points_change)
    assert unpaired.win_change == pytest.approx(paired.win_change)
    assert main([str(files["new"]), str(files["old"]), "--unpaired"]) == 0
    out = " ".join(capsys.readouterr().out.split())
    assert ("unpaired, though the files are on the same deals: paired (without --unpaired) the interval would as a "
            "rule be narrower") in out
    # other deals of the same tournament (deals 6 to 8 against 0 to 5) cannot be paired
    assert unpaired_change(files["later"], files["old"]).other_deals == "they have no deal and seating in common"
    with pytest.raises(ValueError, match="the files have no deal and seating in common"):
        paired_change(files["later"], files["old"])


def test_unpaired_sides_name_each_files_agent_and_a_missing_one_is_named_with_those_present(files, capsys):
    change = unpaired_change(files["random"], files["six"], sides=("stalling", "stalling"))
    assert (change.opponent, change.opponent_old) == ("random", "greedy")
    mine, theirs = _deal_means(files["random"], "stalling"), _deal_means(files["six"], "stalling")
    assert change.points_change == pytest.approx(np.mean([v[1] for v in mine.values()])
                                                 - np.mean([v[1] for v in theirs.values()]))
    assert main([str(files["random"]), str(files["six"]), "--unpaired", "--sides", "stalling", "stalling"]) == 0
    assert "stalling against random (random.jsonl" in capsys.readouterr().out
    assert main([str(files["six"]), str(files["old"]), "--unpaired", "--sides", "best", "heuristic"]) == 2
    assert "'best' does not sit in " in capsys.readouterr().err
    with pytest.raises(ValueError, match=r"'best' does not sit in .*old\.jsonl: it seats 'greedy' and 'heuristic'"):
        unpaired_change(files["six"], files["old"], sides=("stalling", "best"))
    with pytest.raises(ValueError, match=r"robin\.jsonl seats 3 pairs of agents \(greedy and random; greedy and "
                                         r"stalling; random and stalling\); give files of one pair each"):
        unpaired_change(files["robin"], files["old"], sides=("stalling", "heuristic"))
    with pytest.raises(ValueError, match=r"the opponent 'random' must sit in both files \(\['greedy', 'stalling'\] "
                                         r"against \['greedy', 'heuristic'\]\)"):
        unpaired_change(files["six"], files["old"], opponent="random")
    with pytest.raises(ValueError, match="share exactly one agent"):
        unpaired_change(files["random"], files["old"])
    with pytest.raises(ValueError, match="not both"):
        unpaired_change(files["random"], files["old"], opponent="greedy", sides=("stalling", "heuristic"))


def test_unpaired_refuses_a_file_of_one_deal_and_bad_arguments(files, capsys):
    with pytest.raises(ValueError, match=r"one\.jsonl holds 1 deal; a standard error over deals needs two or more"):
        unpaired_change(files["one"], files["old"])
    with pytest.raises(SystemExit):
        main([str(files["six"]), str(files["old"]), "--unpaired", "--sides", "stalling"])
    assert "--sides: expected 2 arguments" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        main([str(files["six"]), str(files["old"]), "--unpaired=yes"])
    assert "--unpaired" in capsys.readouterr().err


def test_the_published_unpaired_comparisons_are_what_the_data_files_give():
    """docs/agents.md ("Tournaments"): heuristic's edge over greedy with 6 colours against 5, unpaired,
    and on the same deals the caution screen's change paired and unpaired, recomputed from data/."""
    from pathlib import Path

    root = Path(__file__).resolve().parent.parent
    docs = " ".join((root / "docs/agents.md").read_text().split())
    colours = unpaired_change(root / "data/strength_heuristic_vs_greedy_6c.jsonl",
                              root / "data/strength_heuristic_vs_greedy.jsonl", opponent="greedy")
    assert colours.other_deals == "they differ in rules: colors 6 against 5"
    for line in colours.describe().splitlines()[:3]:
        assert line in docs
    assert (f"is {colours.points_change:.2f} points a round larger with 6 colours than with 5, an estimate with a "
            f"standard error of {colours.points_change_stderr:.2f}") in docs
    new, old = root / "data/screen_caution1_best1500_vs_search.jsonl", root / "data/strength_best1500_vs_search.jsonl"
    paired, unpaired = paired_change(new, old), unpaired_change(new, old)
    assert unpaired.other_deals is None and paired.deals == unpaired.deals_new == unpaired.deals_old == 1000
    assert (f"gains {paired.points_change:.2f} points a round, [{paired.points_low:+.2f}, {paired.points_high:+.2f}] "
            f"paired and [{unpaired.points_low:+.2f}, {unpaired.points_high:+.2f}] unpaired") in docs
    assert unpaired.points_high - unpaired.points_low > paired.points_high - paired.points_low


def test_no_spread_over_deals_in_either_file_gives_no_interval_rather_than_an_exact_change(files):
    """stalling won every round against random: Welch's t has no spread to go on for the win rate, and a
    width of 0 would claim the change exact; the points still have their interval."""
    assert all(v[0] == 1.0 for v in _deal_means(files["random"], "stalling").values())  # every deal won
    change = unpaired_change(files["random"], files["random"], opponent="random")
    assert (change.win_change, change.win_change_stderr) == (0.0, 0.0)
    assert all(np.isnan(x) for x in (change.win_dof, change.win_low, change.win_high))
    text = change.describe()
    assert ("change +0.000 ± 0.000 (no interval: no spread over deals in either file, so Welch's t has nothing to "
            "go on)") in text
    points = np.array([v[1] for v in _deal_means(files["random"], "stalling").values()])
    welch = stats.ttest_ind(points, points, equal_var=False)
    assert (change.points_low, change.points_high) == pytest.approx(tuple(welch.confidence_interval(0.95)))


@pytest.mark.parametrize("unpaired", [False, True])
def test_a_file_without_finished_rounds_is_refused_by_name(tmp_path, unpaired):
    """A results file holding only its header (a tournament stopped before its first round) is refused,
    naming the file, paired and unpaired alike."""
    from pathlib import Path

    from lcanalysis.studies.paired_strength import paired_change, unpaired_change

    full = Path(__file__).resolve().parent.parent / "data/screen_tuned_vs_search.jsonl"
    empty = tmp_path / "stopped.jsonl"
    empty.write_text(full.read_text().splitlines()[0] + "\n")
    change = unpaired_change if unpaired else paired_change
    with pytest.raises(ValueError, match=f"{empty} holds no finished rounds"):
        change(empty, full)
    with pytest.raises(ValueError, match=f"{empty} holds no finished rounds"):
        change(full, empty)
