"""Tournaments: duplicate deals, matches, resuming, executors, capped rounds, external bots."""

import json
import re
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from lcanalysis.cli.tournament import tournament_main
from lcanalysis.game.position import Position
from lcanalysis.game.rules import Rules
from lcanalysis.tournaments.runner import (
    BATCH_SECONDS,
    MAX_BATCH,
    RESULT_COLUMNS,
    BatchSizes,
    ResultsWarning,
    deal_seed,
    ratings,
    round_robin,
    run_tournament,
    summarize,
)


def _table(df):
    return df[RESULT_COLUMNS].reset_index(drop=True)


def test_a_duplicate_deal_is_played_twice_with_the_seats_swapped():
    df = run_tournament(["heuristic", "greedy"], deals=3, executor="serial", progress=False)
    assert len(df) == 6
    assert list(df.columns[: len(RESULT_COLUMNS)]) == RESULT_COLUMNS
    for deal, pair in df.groupby("deal"):
        a, b = pair.iloc[0], pair.iloc[1]
        assert a.seed == b.seed == deal_seed(0, deal)
        assert (a.player0, a.player1) == ("heuristic", "greedy")
        assert (b.player0, b.player1) == ("greedy", "heuristic")
        assert a.starter == b.starter == 0
    # the same deal: seat 0 gets the same first hand in both seatings
    assert Position.deal(int(df.seed[0])).hand(0) == Position.deal(int(df.seed[1])).hand(0)


def test_the_same_deal_with_the_same_agent_in_both_seats_mirrors_exactly():
    df = run_tournament([{"name": "greedy", "label": "g1"}, {"name": "greedy", "label": "g2"}], deals=2,
                        executor="serial", progress=False)
    for _, pair in df.groupby("deal"):
        assert list(pair.score0) == [pair.score0.iloc[0]] * 2
    s = summarize(df).iloc[0]
    assert s.mean_diff == 0.0 and s.win_rate == 0.5


def test_a_resumed_run_gives_the_same_table_as_an_uninterrupted_one(tmp_path):
    full = run_tournament(["heuristic", "greedy"], deals=5, executor="serial", progress=False,
                          out=str(tmp_path / "full.jsonl"))
    part = tmp_path / "part.jsonl"
    lines = (tmp_path / "full.jsonl").read_text().splitlines()
    # the header, then 4 finished deal-seatings, and cut in the middle of writing the fifth
    part.write_text("\n".join(lines[:5]) + "\n" + lines[5][: len(lines[5]) // 2])
    with pytest.warns(ResultsWarning, match="line 6: cut short"):
        resumed = run_tournament(["heuristic", "greedy"], deals=5, executor="serial", progress=False, out=str(part))
    assert _table(resumed).equals(_table(full))
    # and a third run finds everything done (the torn line is still reported, and still not counted)
    with pytest.warns(ResultsWarning, match="line 6: not valid JSON; not counted; job 0:2:0 is on line 7"):
        again = run_tournament(["heuristic", "greedy"], deals=5, executor="serial", progress=False, out=str(part))
    assert _table(again).equals(_table(full))
    records = [json.loads(x) for x in part.read_text().splitlines()[1:] if x.strip().endswith("}")]
    assert sorted(r["job"] for r in records) == sorted({r["job"] for r in records})  # each job once
    assert len(records) == 10


def test_any_executor_gives_the_same_table_as_serial():
    serial = run_tournament(["heuristic", "random"], deals=3, executor="serial", progress=False)
    with ThreadPoolExecutor(2) as ex:
        threaded = run_tournament(["heuristic", "random"], deals=3, executor=ex, progress=False, batch=1)
    pooled = run_tournament(["heuristic", "random"], deals=3, workers=2, progress=False)
    assert _table(threaded).equals(_table(serial))
    assert _table(pooled).equals(_table(serial))


class _RecordingExecutor(ThreadPoolExecutor):
    """A thread pool that notes how many jobs each batch it is handed holds."""

    def __init__(self, workers):
        super().__init__(workers)
        self.sizes = []

    def submit(self, fn, jobs, *args, **kwargs):
        self.sizes.append(len(jobs))
        return super().submit(fn, jobs, *args, **kwargs)


def test_batches_start_at_one_job_and_grow_for_fast_agents_so_results_arrive_early():
    serial = run_tournament(["random", "greedy"], deals=40, executor="serial", progress=False)
    with _RecordingExecutor(2) as ex:
        df = run_tournament(["random", "greedy"], deals=40, executor=ex, workers=2, progress=False)
    assert _table(df).equals(_table(serial))
    assert sum(ex.sizes) == 80  # every deal-seating sent once
    assert ex.sizes[:4] == [1, 1, 1, 1]  # nothing timed yet: one job a batch (2 per worker in flight)
    # a random-vs-greedy round takes milliseconds, so the batches grow (to MAX_BATCH on an idle machine;
    # under load a round can take over 2 s / MAX_BATCH, so only growth is asserted here: the sizes
    # for given paces are checked exactly in test_a_batch_holds_the_jobs_that_take_about_two_seconds)
    assert max(ex.sizes) > 1


@pytest.mark.parametrize(("jobs", "seconds", "size"), [
    (0, 0.0, 1), (4, 120.0, 1), (4, 4.0, 2), (10, 2.5, 8), (10, 0.01, MAX_BATCH), (3, 0.0, MAX_BATCH)])
def test_a_batch_holds_the_jobs_that_take_about_two_seconds(jobs, seconds, size):
    sizes = BatchSizes()
    if jobs:
        sizes.measured(jobs, seconds)
    assert BATCH_SECONDS == 2.0 and sizes.next() == size
    assert BatchSizes(fixed=5).next() == 5  # run_tournament(batch=5) keeps its size


def test_batches_are_sized_by_the_pace_of_their_own_pairing():
    """A round robin's fast first pairing must not send the slow ones out 16 at a time."""
    sizes = BatchSizes()
    sizes.measured(200, 2.0, key=0)  # 10 ms a job
    assert sizes.next(0) == MAX_BATCH and sizes.next(1) == 1
    sizes.measured(1, 40.0, key=1)
    assert sizes.next(1) == 1 and sizes.next(0) == MAX_BATCH


def test_a_round_robin_sends_one_batch_per_pairing_and_times_each(monkeypatch):
    with _RecordingExecutor(2) as ex:
        df = round_robin(["random", "greedy", "heuristic"], deals=10, executor=ex, workers=2, progress=False)
    assert len(df) == 3 * 10 * 2 and sum(ex.sizes) == 60
    assert ex.sizes.count(1) >= 3  # each pairing starts with single jobs


def test_a_dask_cluster_executor_works_unchanged():
    distributed = pytest.importorskip("distributed")
    serial = run_tournament(["greedy", "random"], deals=2, executor="serial", progress=False)
    with distributed.LocalCluster(n_workers=1, threads_per_worker=2, processes=False,
                                  dashboard_address=None) as cluster, distributed.Client(cluster) as client:
        df = run_tournament(["greedy", "random"], deals=2, executor=client.get_executor(), progress=False)
    assert _table(df).equals(_table(serial))


def test_three_round_matches_follow_the_starting_rules():
    rules = Rules(rounds=3)
    df = run_tournament(["heuristic", "greedy"], deals=3, rules=rules, executor="serial", progress=False)
    assert len(df) == 3 * 2 * 3
    for _, match in df.groupby(["deal", "swap"]):
        match = match.sort_values("round")
        assert list(match["round"]) == [1, 2, 3]
        assert match.starter.iloc[0] == 0
        totals = [0, 0]
        previous = 0
        for row in match.itertuples():
            if row.round > 1:
                if totals[0] != totals[1]:
                    assert row.starter == (0 if totals[0] > totals[1] else 1)
                else:
                    assert row.starter == 1 - previous
            totals = [totals[0] + row.score0, totals[1] + row.score1]
            previous = row.starter
        assert len(set(match.seed)) == 3
    s = summarize(df).iloc[0]
    assert s.matches == 6


def test_the_six_colour_game_runs():
    df = run_tournament(["heuristic", "greedy"], deals=2, rules=Rules(colors=6, rounds=1), executor="serial",
                        progress=False)
    assert (df.colors == 6).all()
    assert (df.turns >= 56).all()  # 56 cards in the draw pile after the deal


def test_stalled_rounds_stop_at_the_turn_cap_and_are_counted_separately():
    rules = Rules(rounds=1, turn_cap=60)  # random agents draw from discard piles half the time
    df = run_tournament(["random", {"name": "random", "label": "random2"}], deals=4, rules=rules,
                        executor="serial", progress=False)
    assert (df.turns <= 60).all()
    capped = df[df.capped]
    assert len(capped) > 0 and (capped.turns == 60).all()
    for row in capped.itertuples():  # scored as the table stood at the cap
        pos = Position.deal(int(row.seed), rules)
        assert pos.deck_count == 44
    s = summarize(df).iloc[0]
    assert s.capped == len(capped)
    finished = df[~df.capped]
    if len(finished):
        assert summarize(finished).iloc[0].capped == 0


def test_a_round_robin_plays_every_pair_and_rates_the_agents():
    df = round_robin(["heuristic", "greedy", "random"], deals=3, executor="serial", progress=False)
    assert sorted(set(zip(df.pairing, df.player0.where(df.swap == 0, df.player1)))) == [
        (0, "heuristic"), (1, "heuristic"), (2, "greedy")]
    assert len(df) == 3 * 3 * 2
    r = ratings(df)
    assert set(r.index) == {"heuristic", "greedy", "random"}
    assert r["random"] == r.min()


def test_the_runner_seats_an_external_program_speaking_the_bot_protocol():
    cmd = [sys.executable, "-m", "lcanalysis", "bot", "greedy"]
    ext = {"name": "external", "cmd": cmd, "label": "greedy-over-pipes"}
    df = run_tournament([ext, "greedy"], deals=1, executor="serial", progress=False)
    # the bot is the greedy agent: both seatings mirror exactly
    assert df.score0.iloc[0] == df.score0.iloc[1] and df.score1.iloc[0] == df.score1.iloc[1]
    assert set(df.player0) == {"greedy-over-pipes", "greedy"}


def test_one_deal_prints_no_infinite_interval(capsys):
    """A newcomer's one-deal tournament printed 'mean score difference -4.00 [-inf, +inf]' and '1 deals'."""
    assert tournament_main(["heuristic", "greedy", "--deals", "1", "--workers", "1", "--no-progress",
                            "--out", "none"]) == 0
    line = capsys.readouterr().out.splitlines()[0]
    assert "(1 deal)" in line and "(no interval from one deal)" in line and "inf" not in line
    assert tournament_main(["heuristic", "greedy", "--deals", "2", "--workers", "1", "--no-progress",
                            "--out", "none"]) == 0
    line = capsys.readouterr().out.splitlines()[0]
    assert "(2 deals)" in line and "no interval" not in line and "inf" not in line


def test_the_command_line_prints_a_summary(capsys, tmp_path):
    out = tmp_path / "t.jsonl"
    assert tournament_main(["heuristic", "greedy", "--deals", "2", "--workers", "1", "--no-progress",
                            "--out", str(out), "--json"]) == 0
    captured = capsys.readouterr()
    answer = json.loads(captured.out)
    summary = answer["summary"][0]
    assert summary["agent"] == "heuristic" and summary["rounds"] == 4
    assert answer["intervals"].startswith("95% intervals: win rates Wilson's")  # what *_low, *_high are
    assert out.exists()
    assert f"results: {out}: 0 of 4 deal-seatings already played, 4 to play" in captured.err


def test_the_json_summary_names_what_it_measured(tmp_path, capsys):
    """--json gave the numbers without the seed, the rules or the code that played them: a published
    answer could not be played again. It now names the tournament as its results file's header does."""
    out = tmp_path / "t.jsonl"
    assert tournament_main(["heuristic:B=0.5", "greedy", "--deals", "2", "--first-deal", "3", "--seed", "7",
                            "--colors", "6", "--workers", "1", "--no-progress", "--out", str(out), "--json"]) == 0
    measured = json.loads(capsys.readouterr().out)["tournament"]
    header = json.loads(out.read_text().splitlines()[0])["identity"]
    assert measured == {**header, "first_deal": 3, "deals": 2}
    assert measured["seed"] == 7 and measured["rules"]["colors"] == 6 and measured["code"]["source_sha256"]
    assert measured["agents"][0] == {"name": "heuristic", "options": {"B": 0.5}, "label": "heuristic:B=0.5"}


def test_a_failing_batch_still_keeps_the_batches_that_were_running_beside_it(monkeypatch, tmp_path):
    """Deal 0's first seating fails at once while its second is being played on the other worker:
    the pool is shut down, which waits for that batch; its result used to be thrown away."""
    import time

    from lcanalysis.tournaments import runner

    real = runner._run_batch
    started = tmp_path / "0:0:1 started"

    def flaky(jobs, *args, **kwargs):  # (the pool's workers are forked after this patch: they run it too)
        if any(job.key == "0:0:0" for job in jobs):
            # fail only once the other worker holds 0:0:1: a batch not yet started is cancelled by
            # design, and a failure that came back first made this test flaky (CI, stop 54)
            deadline = time.monotonic() + 30
            while not started.exists() and time.monotonic() < deadline:
                time.sleep(0.01)
            return [], "deal 0: made to fail"
        if any(job.key == "0:0:1" for job in jobs):
            started.touch()
        time.sleep(0.5)
        return real(jobs, *args, **kwargs)

    monkeypatch.setattr(runner, "_run_batch", flaky)
    out = tmp_path / "results.jsonl"
    with pytest.raises(runner.PlayError, match="made to fail"):
        run_tournament(["random", "greedy"], deals=8, workers=2, progress=False, out=str(out), batch=1)
    kept = {json.loads(line)["job"] for line in out.read_text().splitlines()[1:]}
    assert "0:0:1" in kept and "0:0:0" not in kept


def test_the_command_line_gives_each_rating_its_standard_error(capsys):
    """Found by a review: the Bradley-Terry ratings were printed bare, as if exact, even from one deal."""
    argv = ["heuristic", "greedy", "random", "--deals", "3", "--workers", "1", "--out", "none", "--no-progress"]
    assert tournament_main(argv) == 0
    lines = capsys.readouterr().out.splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith("Bradley-Terry ratings"))
    assert all(re.search(r"[+-]\d+\.\d ± \d+\.\d$", line) for line in lines[start + 1:start + 4]), lines[start:]
    assert tournament_main([*argv, "--json"]) == 0
    answer = json.loads(capsys.readouterr().out)
    assert set(answer["rating_stderr"]) == set(answer["ratings"]) == {"heuristic", "greedy", "random"}


def test_a_match_tournament_prints_who_won_the_matches(capsys, tmp_path):
    """A match tournament printed only the rounds' win rate: who won the matches was in --json alone."""
    out = tmp_path / "m.jsonl"
    assert tournament_main(["heuristic", "greedy", "--rounds", "3", "--deals", "3", "--workers", "1", "--no-progress",
                            "--out", str(out)]) == 0
    text = capsys.readouterr().out
    # the matches counted from the results file: each deal-seating's three rounds summed
    totals: dict[str, int] = {}
    for line in out.read_text().splitlines()[1:]:
        job = json.loads(line)
        for row in job["rows"]:
            sign = 1 if row["player0"] == "heuristic" else -1
            totals[job["job"]] = totals.get(job["job"], 0) + sign * (row["score0"] - row["score1"])
    n = len(totals)
    rate = (sum(t > 0 for t in totals.values()) + 0.5 * sum(t == 0 for t in totals.values())) / n
    z = 1.959963984540054  # Wilson's interval at 95%, draws half
    centre, half = rate + z * z / (2 * n), z * (rate * (1 - rate) / n + z * z / (4 * n * n)) ** 0.5
    low, high = (centre - half) / (1 + z * z / n), (centre + half) / (1 + z * z / n)
    assert n == 6
    won, drawn = sum(t > 0 for t in totals.values()), sum(t == 0 for t in totals.values())
    assert (f"  matches: 6 (3 rounds each), won {won}, drawn {drawn}, lost {n - won - drawn}: match win rate "
            f"{rate:.3f} (draws half), 95% interval over deals [") in text
    assert f"(Wilson's over matches [{low:.3f}, {high:.3f}], as if every match were independent)" in text


def test_the_printed_intervals_say_they_are_95_percent_and_are(capsys, tmp_path):
    """The brackets after a win rate and a mean difference did not say what interval they were."""
    from scipy import stats

    out = tmp_path / "t.jsonl"
    assert tournament_main(["heuristic", "greedy", "--deals", "4", "--workers", "1", "--no-progress",
                            "--out", str(out)]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[1].startswith("  play a round")  # the pairing's play counts: a line, then one per count
    assert lines[6] == ("(95% intervals: win rates Wilson's over rounds, draws half, as if every round were "
                        "independent (the two seatings of a duplicate deal are not: --json adds win_unit_low, "
                        "win_unit_high, a t interval over deals); mean score differences Student's t over deals, "
                        "the seatings and rounds of a deal one sample)")
    by_deal: dict[int, list[int]] = {}
    for line in out.read_text().splitlines()[1:]:
        for row in json.loads(line)["rows"]:
            sign = 1 if row["player0"] == "heuristic" else -1
            by_deal.setdefault(row["deal"], []).append(sign * (row["score0"] - row["score1"]))
    diffs = [d for ds in by_deal.values() for d in ds]
    n, means = len(diffs), [sum(ds) / len(ds) for ds in by_deal.values()]
    rate = (sum(d > 0 for d in diffs) + 0.5 * sum(d == 0 for d in diffs)) / n
    z = stats.norm.ppf(0.975)
    centre, half = rate + z * z / (2 * n), z * (rate * (1 - rate) / n + z * z / (4 * n * n)) ** 0.5
    m = sum(means) / len(means)
    se = (sum((x - m) ** 2 for x in means) / (len(means) - 1) / len(means)) ** 0.5
    t = stats.t.ppf(0.975, len(means) - 1)
    assert (f"win rate {rate:.3f} [{(centre - half) / (1 + z * z / n):.3f}, {(centre + half) / (1 + z * z / n):.3f}], "
            f"mean score difference {m:+.2f} [{m - t * se:+.2f}, {m + t * se:+.2f}] (s.e. {se:.2f})") in lines[0]
    # --json gives it as diff_stderr: the per-round spread diff_sd over any square root is not it
    assert tournament_main(["heuristic", "greedy", "--deals", "4", "--workers", "1", "--no-progress",
                            "--out", str(out), "--json"]) == 0
    row = json.loads(capsys.readouterr().out)["summary"][0]
    assert row["diff_stderr"] == pytest.approx(se, rel=1e-9)


def test_an_agent_can_be_given_a_label_on_the_command_line(tmp_path, capsys):
    """A bot on the command line was labelled by its whole command ('external:/usr/bin/python
    /home/me/bots/mybot.py vs best ...', on every line of the summary), and the same agent could not
    sit twice there: only Python could label them. LABEL=AGENT does it on the command line."""
    from lcanalysis.tournaments.specs import TournamentError, parse_agent

    assert parse_agent("mine=external:python 'my bot.py'") == {"name": "external", "cmd": ["python", "my bot.py"],
                                                               "label": "mine"}
    assert parse_agent("h2=heuristic:B=0.5") == {"name": "heuristic", "B": 0.5, "label": "h2"}
    assert parse_agent("h2=heuristic") == {"name": "heuristic", "label": "h2"}
    # an '=' after the agent's ':' is an option's or a command's, as before
    assert parse_agent("search:time_ms=50")["label"] == "search:time_ms=50"
    assert parse_agent("external:python x=1.py") == {"name": "external", "cmd": ["python", "x=1.py"],
                                                     "label": "external:python x=1.py"}
    for bad, problem in (("=heuristic", "a label before '='"), ("my bot=heuristic", "a label before '='"),
                         ("a=b=heuristic", "give one label")):
        with pytest.raises(TournamentError, match=problem):
            parse_agent(bad)
    out = tmp_path / "t.jsonl"
    assert tournament_main(["h2=heuristic", "heuristic", "--deals", "1", "--workers", "1", "--no-progress",
                            "--out", str(out), "--json"]) == 0
    answer = json.loads(capsys.readouterr().out)
    assert (answer["summary"][0]["agent"], answer["summary"][0]["opponent"]) == ("h2", "heuristic")
    assert answer["tournament"]["agents"][0] == {"name": "heuristic", "options": {}, "label": "h2"}
    # the same agent in both seats plays the same turns: the seats score the same in both seatings
    df = run_tournament(["h2=heuristic", "heuristic"], deals=1, executor="serial", progress=False)
    assert sorted(df.player0) == ["h2", "heuristic"] and df.score0.nunique() == df.score1.nunique() == 1


def test_an_external_program_in_a_folder_with_spaces_can_be_quoted(tmp_path, capsys):
    """'external:python "my bots/bot.py"' was split at every space, quotes kept: the program never started."""
    from lcanalysis.tournaments.specs import TournamentError, parse_agent

    folder = tmp_path / "my bots"
    folder.mkdir()
    bot = folder / "bot.py"
    bot.write_text("from lcanalysis.agents.protocol import serve\nserve('greedy')\n")
    text = f"external:{sys.executable} '{bot}'"
    assert parse_agent(text) == {"name": "external", "cmd": [sys.executable, str(bot)], "label": text}
    assert parse_agent("external:python mybot.py --fast")["cmd"] == ["python", "mybot.py", "--fast"]  # as before
    assert tournament_main([text, "greedy", "--deals", "1", "--workers", "1", "--out", "none", "--no-progress"]) == 0
    assert capsys.readouterr().out.startswith(f"{text} vs greedy: 2 rounds")
    with pytest.raises(TournamentError, match="the command cannot be read"):
        parse_agent(f"external:python '{bot}")


def test_an_outside_program_changed_between_two_runs_is_changed_code_and_not_mixed_in(tmp_path, capsys):
    """Resuming after the bot was edited mixed its two versions in one file without a word: only
    this package's code was recorded. The files its command names are recorded now."""
    bot = tmp_path / "bot.py"
    bot.write_text("from lcanalysis.agents.protocol import serve\nserve('greedy')\n")
    out = tmp_path / "t.jsonl"
    agents = [f"external:{sys.executable} {bot}", "greedy"]

    def run(deals: int, *more: str) -> int:
        return tournament_main([*agents, "--deals", str(deals), "--workers", "1", "--no-progress", "--out", str(out),
                                *more])

    assert run(1) == 0
    assert run(2) == 0  # the same bot goes on in its file
    bot.write_text("from lcanalysis.agents.protocol import serve\nserve('greedy')  # tuned\n")
    capsys.readouterr()
    assert run(3) == 2
    assert re.search(rf"{re.escape(str(bot))} \([0-9a-f]{{16}}\).*the agents or the engine changed",
                     capsys.readouterr().err)
    assert run(3, "--allow-code-change") == 0  # asked for: recorded as a change of code in the file
    assert sum(1 for line in out.read_text().splitlines() if '"job"' in line) == 6


def test_an_edited_module_that_the_bot_script_imports_is_changed_code_too(tmp_path, capsys):
    """docs/agents.md's own agent is two files, mine.py (the agent) and mybot.py (the protocol loop):
    only mybot.py was recorded, so tuning the agent in mine.py resumed its file with the old rounds
    counted as the new agent's. The modules beside the script that it imports are recorded now."""
    (tmp_path / "mine.py").write_text("NAME = 'greedy'\n")
    bot = tmp_path / "mybot.py"
    bot.write_text("import sys\nfrom lcanalysis.agents.protocol import serve\nfrom mine import NAME\nserve(NAME)\n")
    out = tmp_path / "t.jsonl"
    agents = [f"external:{sys.executable} {bot}", "greedy"]

    def run(deals: int) -> int:
        return tournament_main([*agents, "--deals", str(deals), "--workers", "1", "--no-progress", "--out", str(out)])

    assert run(1) == 0
    (tmp_path / "mine.py").write_text("NAME = 'greedy'  # tuned\n")
    capsys.readouterr()
    assert run(2) == 2
    err = capsys.readouterr().err
    assert re.search(rf"{re.escape(str(tmp_path / 'mine.py'))} \([0-9a-f]{{16}}\).*the agents or the engine changed",
                     err), err


def test_local_imports_follows_a_scripts_own_modules_and_nothing_else(tmp_path):
    from lcanalysis.tournaments.results import local_imports

    (tmp_path / "bot.py").write_text("import json, os.path\nfrom mine import A\nimport pkg.sub\nfrom . import x\n")
    (tmp_path / "mine.py").write_text("from helper import B\n")  # followed in turn
    (tmp_path / "helper.py").write_text("import mine\n")  # (a cycle: each once)
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "__init__.py").write_text("")
    (tmp_path / "pkg" / "sub.py").write_text("")
    (tmp_path / "unused.py").write_text("")  # beside it, never imported
    (tmp_path / "json.py").write_text("")  # (Python would import this one first: it is the bot's)
    assert local_imports(tmp_path / "bot.py") == sorted(
        tmp_path / name for name in ("mine.py", "helper.py", "pkg/__init__.py", "pkg/sub.py", "json.py"))
    (tmp_path / "broken.py").write_text("def (:\n")
    (tmp_path / "bot.sh").write_text("import mine\n")
    assert local_imports(tmp_path / "broken.py") == [] == local_imports(tmp_path / "bot.sh")


def test_an_outside_programs_start_is_not_counted_as_its_thinking(tmp_path):
    """A bot's first answer holds its start (a Python bot's imports, a second): a bot answering in a
    millisecond was printed as 'mean 49.6 ms, max 1125.5 ms' a move. It starts on an untimed turn
    now, as our agents compile on one. This bot sleeps 1.5 s before it reads anything, then plays
    greedy: no turn of its round may take that long."""
    bot = tmp_path / "slow_start.py"
    bot.write_text("import time\ntime.sleep(1.5)\nfrom lcanalysis.agents.protocol import serve\nserve('greedy')\n")
    ext = {"name": "external", "cmd": [sys.executable, str(bot)], "label": "slow-start"}
    df = run_tournament([ext, "greedy"], deals=1, executor="serial", progress=False)
    seat = df.player0 == "slow-start"  # its seat in each seating
    most = df.max_ms0.where(seat, df.max_ms1)
    assert (most < 1000).all(), most.tolist()


def test_a_serial_tournament_starts_an_outside_program_once(tmp_path):
    """In this process (--workers 1, executor="serial") each deal-seating started the bot again and
    stopped it after: a second each for a Python bot, more than its play. It is kept between them
    now, and stopped at the end. The bot notes each start in a file."""
    starts = tmp_path / "starts"
    bot = tmp_path / "bot.py"
    bot.write_text(f"open({str(starts)!r}, 'a').write('start\\n')\n"
                   "from lcanalysis.agents.protocol import serve\nserve('greedy')\n")
    ext = {"name": "external", "cmd": [sys.executable, str(bot)], "label": "counted"}
    df = run_tournament([ext, "greedy"], deals=2, executor="serial", progress=False)
    assert len(df) == 4 and starts.read_text() == "start\n"


def test_a_hung_outside_program_fails_its_round_within_the_bot_timeout_given(tmp_path, capsys):
    """external:CMD had no way to shorten the 120 s a hung bot is given (the library's "timeout")."""
    import time

    hung = tmp_path / "hung.py"
    hung.write_text("import time\ninput()\ntime.sleep(60)\n")
    t0 = time.perf_counter()
    assert tournament_main([f"external:{sys.executable} {hung}", "greedy", "--deals", "1", "--workers", "1",
                            "--out", "none", "--no-progress", "--bot-timeout", "0.5"]) == 2
    assert time.perf_counter() - t0 < 60  # not the default 120 s
    assert "did not answer within 0.5 s (timeout); it was stopped" in capsys.readouterr().err
    for bad in ("0", "-1", "soon"):
        assert tournament_main(["greedy", "random", "--bot-timeout", bad]) == 2
        assert "--bot-timeout must be" in capsys.readouterr().err
    # above an hour, the limit of an outside program's timeout: refused as read, naming the option (it
    # was refused later as 'external: timeout must be ...', or, with no outside program, taken silently)
    for bad in ("3600.5", "1e300"):
        assert tournament_main(["greedy", "random", "--bot-timeout", bad, "--deals", "1", "--workers", "1",
                                "--out", "none", "--no-progress"]) == 2
        assert f"--bot-timeout must be a positive number of seconds, at most 3600, got {bad}" in \
            capsys.readouterr().err
    # the limit does not change how the bot plays: a run with another limit resumes the same file
    bot = tmp_path / "bot.py"
    bot.write_text("from lcanalysis.agents.protocol import serve\nserve('greedy')\n")
    out = tmp_path / "t.jsonl"
    common = [f"external:{sys.executable} {bot}", "greedy", "--workers", "1", "--no-progress", "--out", str(out)]
    assert tournament_main([*common, "--deals", "1", "--bot-timeout", "60"]) == 0
    assert tournament_main([*common, "--deals", "2"]) == 0
    assert sum(1 for line in out.read_text().splitlines() if '"job"' in line) == 4


def test_the_progress_bar_moves_on_while_a_slow_round_is_played(monkeypatch):
    """The bar redrew only when a job finished: a slow first round (a hung bot has 120 s) showed a
    frozen 0/N with no time passing. It is now redrawn every TICK_SECONDS meanwhile, and no more
    once the tournament is over."""
    import threading

    import tqdm.auto

    from lcanalysis.tournaments import runner

    refreshed: list[float] = []
    made: list[object] = []

    from helpers import recording_bar

    Bar = recording_bar(refreshed, made)

    slow = runner._run_batch

    def slow_batch(*args: object, **kwargs: object) -> object:
        # a round that takes a while: until the bar has been redrawn 3 times (60 s at most; a fixed
        # 0.6 s a round left the ticks too little room on a busy machine)
        for _ in range(1200):
            if len(refreshed) >= 3:
                break
            threading.Event().wait(0.05)
        return slow(*args, **kwargs)

    monkeypatch.setattr(tqdm.auto, "tqdm", Bar)
    monkeypatch.setattr(runner, "TICK_SECONDS", 0.05)
    monkeypatch.setattr(runner, "_run_batch", slow_batch)
    run_tournament(["greedy", "random"], deals=1, executor="serial", progress=True)
    assert len(made) == 1 and len(refreshed) >= 3  # redrawn while the rounds were played
    after = len(refreshed)
    threading.Event().wait(0.3)
    assert len(refreshed) == after  # the ticking stopped with the tournament


def test_an_agent_given_as_a_dict_is_labelled_as_the_command_line_writes_it():
    """A dict spec was labelled 'search,time_ms=50', which the command line does not read (it
    writes 'search:time_ms=50'), so a table's label could not be pasted back as an agent."""
    from lcanalysis.tournaments.specs import AgentSpec, parse_agent

    spec = AgentSpec.of({"name": "search", "width": 8, "time_ms": 50})
    assert spec.label == "search:time_ms=50,width=8"
    again = AgentSpec.of(parse_agent(spec.label))
    assert (again.name, again.options) == (spec.name, spec.options)
    assert AgentSpec.of({"name": "greedy"}).label == "greedy"


def test_the_command_lines_agent_syntax_plays_in_python_the_tournament_it_plays_there(tmp_path, capsys):
    """``lc.run_tournament(["search:time_ms=20", "heuristic"])``, the agents as ``lcanalysis
    tournament`` takes them, was refused "unknown agent 'search:time_ms=20'; choose one of ... or
    'external:COMMAND'", and an 'external:COMMAND' string too. Now each is the agent the command line
    makes of it: the same rounds and the same results file, so either may resume the other's."""
    from lcanalysis.tournaments.results import RESULT_COLUMNS
    from lcanalysis.tournaments.specs import AgentSpec, TournamentError, parse_agent

    assert AgentSpec.of("search:time_ms=20,width=4") == AgentSpec.of(parse_agent("search:time_ms=20,width=4"))
    bot = AgentSpec.of(f"external:{sys.executable} 'my bot.py'")
    assert (bot.name, dict(bot.options)["cmd"]) == ("external", (sys.executable, "my bot.py"))
    with pytest.raises(TournamentError, match="width must be a whole number, got 'abc'"):
        run_tournament(["search:width=abc", "greedy"], deals=1, executor="serial", progress=False)

    out = tmp_path / "r.jsonl"
    python = run_tournament(["random", "search:time_ms=5"], deals=1, executor="serial", progress=False, out=str(out))
    assert sorted(set(python["player0"])) == ["random", "search:time_ms=5"]
    assert tournament_main(["random", "search:time_ms=5", "--deals", "1", "--workers", "1", "--no-progress",
                            "--out", str(out)]) == 0  # the command line finds its tournament played
    assert "2 of 2 deal-seatings already played, 0 to play" in capsys.readouterr().err
    cli = tmp_path / "c.jsonl"
    assert tournament_main(["random", "search:time_ms=5", "--deals", "1", "--workers", "1", "--no-progress",
                            "--out", str(cli)]) == 0
    assert json.loads(cli.read_text().splitlines()[0])["identity"]["agents"] == \
        json.loads(out.read_text().splitlines()[0])["identity"]["agents"]
    from lcanalysis.tournaments.runner import load_results

    assert load_results(str(cli))[RESULT_COLUMNS].equals(python[RESULT_COLUMNS])


def test_agents_made_by_make_agent_play_the_tournament_their_names_and_options_play():
    """run_tournament([make_agent("heuristic"), make_agent("greedy")]) was refused ("an agent is a
    name, a dict with 'name', or an AgentSpec") though each agent shows how it was made; it now plays
    exactly the rounds its name and options play, and an agent make_agent did not make (so no
    worker can make it again) is refused saying what to give instead."""
    from lcanalysis.agents import Agent, make_agent
    from lcanalysis.tournaments.specs import AgentSpec, TournamentError

    made = [make_agent("heuristic"), make_agent("search", time_ms=20, width=4)]
    assert [AgentSpec.of(a) for a in made] == [AgentSpec.of("heuristic"),
                                               AgentSpec.of({"name": "search", "time_ms": 20, "width": 4})]
    by_object = run_tournament([make_agent("heuristic"), make_agent("greedy")], deals=2, executor="serial",
                               progress=False)
    by_name = run_tournament(["heuristic", "greedy"], deals=2, executor="serial", progress=False)
    from lcanalysis.tournaments.results import RESULT_COLUMNS  # (not the timings: the clock's)

    assert by_object[RESULT_COLUMNS].equals(by_name[RESULT_COLUMNS]) and len(by_name) == 4

    class Mine(Agent):
        name = "mine"

    with pytest.raises(TournamentError, match=r"was not made by make_agent.*give its name and options"):
        run_tournament([Mine(), "greedy"], deals=1, executor="serial", progress=False)


def test_a_file_from_before_cpu_times_says_so_not_cpu_nan(tmp_path, capsys):
    """data/strength_heuristic_vs_greedy.jsonl predates the CPU times: its summary said 'CPU nan ms'."""
    from lcanalysis.cli import main

    old = tmp_path / "old.jsonl"
    published = Path(__file__).resolve().parent.parent / "data" / "strength_heuristic_vs_greedy.jsonl"
    lines = published.read_text().splitlines()[:4]  # its first 2 deals
    old.write_text("\n".join(lines) + "\n")
    (tmp_path / "old.jsonl.cmd").write_text(f"lcanalysis tournament heuristic greedy --deals 2 --out {old}\n")
    assert main(["tournament", "heuristic", "greedy", "--deals", "2", "--out", str(old), "--no-progress"]) == 0
    out = capsys.readouterr().out
    assert "nan" not in out and "written before CPU times were kept" in out
    assert old.read_text().splitlines() == lines  # read back, nothing played


def _bot_failing_when(folder, condition: str):
    """A bot script in ``folder`` that plays greedy's turns over the protocol, but answers the illegal
    '+Z3/D' to a turn request whose view (``view``, the request's position) meets ``condition``."""
    bot = folder / "bot.py"
    bot.write_text("import json, sys\n"
                   "from lcanalysis.agents import make_agent\n"
                   "from lcanalysis.agents.protocol import answer\n"
                   "agent = make_agent('greedy')\n"
                   "for line in sys.stdin:\n"
                   "    request = json.loads(line)\n"
                   "    view = request.get('position', {})\n"
                   f"    if request['type'] == 'turn' and {condition}:\n"
                   "        print(json.dumps({'move': '+Z3/D'}), flush=True)\n"
                   "        continue\n"
                   "    reply, keep = answer(agent, request)\n"
                   "    if reply is not None:\n"
                   "        print(json.dumps(reply), flush=True)\n"
                   "    if not keep:\n"
                   "        break\n")
    return bot


def test_a_failing_agent_is_named_with_the_turn_it_failed_on(tmp_path, capsys):
    """A bot's bad answer stopped the tournament naming the deal and the seating, not the turn nor which
    of the two agents failed: a bot author could not find the position to debug. The bot here answers
    greedy's turns, then an illegal one once 4 turns are in its view's history (its third turn as the
    starter: turn 5 of the round), so where it failed is known without reading the runner."""
    bot = _bot_failing_when(tmp_path, "len(view.get('history', [])) >= 4")
    label = f"external:{sys.executable} {bot}"
    assert tournament_main([label, "heuristic", "--deals", "1", "--workers", "1", "--no-progress",
                            "--out", "none"]) == 2
    err = capsys.readouterr().err
    assert (f"error: a round could not be played: deal 0, seating 0 ({label} vs heuristic), turn 5 (4 played), "
            f"{label} to move: BotError: bot answered {{'move': '+Z3/D'}}") in err, err
    assert "Traceback" not in err


def test_a_failing_agent_in_the_swapped_seating_is_named_with_the_seats_as_played(tmp_path, capsys):
    """The error named seating 1 by the pairing, "(bot vs heuristic)", where heuristic was player 0 and the
    bot player 1 (its rows and record say "heuristic vs bot"). This bot fails only as player 1, once 4 turns
    are in its view's history: as the second to move, its third turn, turn 6 of the round."""
    bot = _bot_failing_when(tmp_path, "view['viewer'] == 1 and len(view.get('history', [])) >= 4")
    assert tournament_main([f"bot=external:{sys.executable} {bot}", "heuristic", "--deals", "1", "--workers", "1",
                            "--no-progress", "--out", "none"]) == 2
    err = capsys.readouterr().err
    assert ("error: a round could not be played: deal 0, seating 1 (heuristic vs bot), turn 6 (5 played), "
            "bot to move: BotError: bot answered {'move': '+Z3/D'}") in err, err


def test_play_round_marks_the_error_of_a_failing_agent_with_its_seat_and_turn():
    """In Python too: the exception keeps its type and says where, for a bot author's own agent."""
    from lcanalysis.agents import Agent, make_agent
    from lcanalysis.game.rules import IllegalMoveError
    from lcanalysis.tournaments.runner import FailedTurn, play_round

    class Stubborn(Agent):  # the first legal turn, then one that is not a turn at all
        def choose(self, view, rng_or_seed=None, time_ms=None):
            return view.legal_moves()[0] if len(view.history) < 3 else "hello"

    with pytest.raises(IllegalMoveError) as info:
        play_round([make_agent("greedy"), Stubborn()], seed=1)  # seat 1 moves second: its 2nd turn is turn 4
    assert info.value.failed_turn == FailedTurn(seat=1, turns_played=3, round=None)
    assert "(in play_round: turn 4 (3 played), seat 1 to move)" in info.value.__notes__

    class Broken(Agent):  # a bug in the agent: raised as itself, marked with where
        def choose(self, view, rng_or_seed=None, time_ms=None):
            return 1 / 0

    with pytest.raises(ZeroDivisionError) as info:  # seat 1 starts this match's second round
        play_round([make_agent("greedy"), Broken()], seed=1, starter=1, match={"round": 2, "totals": [10, 0]})
    assert info.value.failed_turn == FailedTurn(seat=1, turns_played=0, round=2)
    assert "(in play_round: round 2, turn 1 (0 played), seat 1 to move)" in info.value.__notes__
