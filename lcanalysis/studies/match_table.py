"""Study: the match equity table of a 3-round match, from simulated rounds between equal agents.

1. **Rounds.** ``first_player.first_player_rounds`` plays duplicate deals (each deal twice with
   the hands swapped, the heuristic agent on both seats, compiled self-play), so one round's
   score difference *starter minus other* is sampled with the deal's luck balanced between the
   seats. Its empirical distribution is the whole input of the table.
2. **Table.** ``MatchEquity`` (``lcanalysis/match_equity/table.py``) builds P(win the match) + half
   P(draw) for every lead, rounds left and starter by dynamic programming: the distribution is
   convolved round by round, and after each round the rules pick the next starter (the higher
   running total; level totals: ``tied_start``, default "alternate"). Modelling assumption:
   rounds are independent given who starts them (true for agents that ignore the score).
3. **Uncertainty.** The table's standard errors come from a bootstrap over deals (both seatings
   of a deal kept together).
4. **Check.** Directly simulated 3-round matches (``game.match.Match``, the same agent): after
   rounds 1 and 2, the frequency with which the next round's starter (the leader, or on level
   totals the one the rule names) wins the match, by lead, against the table's prediction.

``lcanalysis studies match-table`` runs it all and writes ``lcanalysis/data/match_equity.json``
(the shipped table) and its copy ``data/match_equity.json``.
"""

from __future__ import annotations

import itertools
import json
import math
import os
import time
from collections.abc import Sequence
from typing import Any

import numpy as np

from lcanalysis.game.match import Match
from lcanalysis.game.records import MATCH_TABLE_WHAT
from lcanalysis.game.rules import Rules
from lcanalysis.match_equity import TABLE_LEADS, TABLE_PATH, MatchEquity
from lcanalysis.options import MAX_BOOTSTRAP, MAX_STUDY_UNITS, CommandParser, run_script
from lcanalysis.studies.estimate import whole_argument
from lcanalysis.studies.first_player import _play_out, first_player_rounds, first_player_summary
from lcanalysis.tournaments.stats import unit_rate_interval, wilson_interval

COMMAND = "lcanalysis studies match-table"
#: lead bins (lower edges) of the check against direct matches, from the next starter's side
CHECK_BINS = (0, 1, 10, 20, 40, 60, 90, 130)
COLUMNS = tuple((n, who) for n in (1, 2, 3) for who in ("me", "other"))


def round_differences(rounds: Any) -> np.ndarray:
    """Every simulated round's score difference, starter minus other (both seatings of each deal)."""
    return np.concatenate([rounds["diff_a"].to_numpy(), rounds["diff_b"].to_numpy()]).astype(np.int64)


def equity_from_rounds(rounds: Any, tied_start: str = "alternate") -> MatchEquity:
    """The match equity table from a ``first_player_rounds`` frame."""
    return MatchEquity.from_counts(round_differences(rounds), tied_start)


def table_matrix(equity: MatchEquity, leads: Sequence[int] = TABLE_LEADS) -> np.ndarray:
    """The published table: one row per lead, one column per ``COLUMNS`` entry (rounds left, and
    whether "me", the player whose lead it is, starts the next round)."""
    return np.column_stack([equity.table(n, who == "me", leads) for n, who in COLUMNS])


def bootstrap_stderr(rounds: Any, resamples: int = 200, seed: int = 0, tied_start: str = "alternate",
                     leads: Sequence[int] = TABLE_LEADS) -> np.ndarray:
    """The standard error of every published table entry: the spread over ``resamples`` bootstrap
    resamples of the deals (a deal's two seatings stay together)."""
    a = rounds["diff_a"].to_numpy().astype(np.int64)
    b = rounds["diff_b"].to_numpy().astype(np.int64)
    rng = np.random.default_rng(seed)
    tables = []
    for _ in range(resamples):
        idx = rng.integers(0, len(a), len(a))
        eq = MatchEquity.from_counts(np.concatenate([a[idx], b[idx]]), tied_start)
        tables.append(table_matrix(eq, leads))
    return np.std(np.array(tables), axis=0, ddof=1)


def simulate_match_rounds(matches: int = 1000, seed: int = 0, rules: Rules | None = None,
                          progress: bool = False, out: str | None = None, allow_code_change: bool = False) -> Any:
    """Play ``matches`` matches (heuristic agent on both seats, seat 0 starts round 1, later rounds
    started as ``Match`` says). One row per match: every round's scores and starter. ``progress``: a bar.
    ``out``: a file each match's row is written to as it is played (``StudyFile.kept_table``); a run
    stopped (Ctrl-C) and started again with the same arguments plays only the matches missing from it
    (another file's settings are refused, and so is a file other code wrote unless ``allow_code_change``),
    and the table is the same as an unbroken run's."""
    import dataclasses

    from lcanalysis.studies.study_file import PLAY_CODE, simulation_file

    rules = rules or Rules(rounds=3)
    base = (int(seed) + 1) * 1_000_003 + 500_009  # away from the table's deals (seed * 1_000_003 + i)

    def played(key: tuple[int]) -> dict[str, Any]:
        (i,) = key
        m = Match(rules=rules, first_starter=0)
        for r in range(rules.rounds):
            pos = m.new_round(seed=(base + i) * 7 + r)
            m.record(_play_out(pos, seed=i * 7 + r), starter=pos.to_move)
        row: dict[str, Any] = {"match": i}
        for r, ((s0, s1), st) in enumerate(zip(m.round_scores, m.starters), 1):
            row.update({f"score0_{r}": s0, f"score1_{r}": s1, f"starter_{r}": st})
        return row

    columns = ["match", *(f"{name}_{r}" for r in range(1, rules.rounds + 1) for name in ("score0", "score1",
                                                                                        "starter"))]
    kept = simulation_file("match-table check", columns, ("match",), ("matches", "seed", "rules"), PLAY_CODE, __file__)
    return kept.kept_table(out, {"matches": matches, "seed": seed, "rules": dataclasses.asdict(rules)},
                           [(i,) for i in range(matches)], played, progress=progress,
                           allow_code_change=allow_code_change, desc="matches", unit="match")


def _outcome(diff: np.ndarray) -> np.ndarray:
    return np.where(diff > 0, 1.0, np.where(diff < 0, 0.0, 0.5))


def check_matches(equity: MatchEquity, matches: Any, rounds: int = 3,
                  bins: Sequence[int] = CHECK_BINS) -> Any:
    """The table against directly simulated matches. After each round but the last, from the side
    of the player who starts the next round (the leader; on level totals the one the rule names):
    the lead, the table's equity and the match result (1, 1/2 for a draw, 0). One row per lead
    bin and round: matches, observed frequency with its standard error and Wilson 95% interval, the
    table's mean prediction, and z = (observed - predicted) / standard error."""
    import pandas as pd

    out = []
    final = sum(matches[f"score0_{r}"] - matches[f"score1_{r}"] for r in range(1, rounds + 1)).to_numpy()
    for k in range(1, rounds):
        lead0 = sum(matches[f"score0_{r}"] - matches[f"score1_{r}"] for r in range(1, k + 1)).to_numpy()
        nxt = matches[f"starter_{k + 1}"].to_numpy()
        sign = np.where(nxt == 0, 1, -1)
        lead = sign * lead0
        result = _outcome(sign * final)
        pred = np.asarray(equity.win_probability(lead, rounds - k, np.ones(len(lead), bool)))
        edges = list(bins) + [math.inf]
        for lo, hi in itertools.pairwise(edges):
            sel = (lead >= lo) & (lead < hi)
            n = int(sel.sum())
            if n == 0:
                continue
            obs = float(result[sel].mean())
            se = float(result[sel].std(ddof=1) / math.sqrt(n)) if n > 1 else math.nan
            low, high = wilson_interval(obs * n, n)
            p = float(pred[sel].mean())
            label = "0" if hi == 1 else (f"{lo}+" if hi == math.inf else f"{lo}-{int(hi) - 1}")
            out.append({"after_round": k, "lead": label, "matches": n, "observed": obs, "stderr": se,
                        "low95": low, "high95": high, "predicted": p,
                        "z": (obs - p) / se if se and se > 0 else math.nan})
    return pd.DataFrame(out)


def calibration(equity: MatchEquity, matches: Any, rounds: int = 3) -> dict[str, float]:
    """One number per checkpoint: the mean of (result - prediction) over every match, with its
    standard error (the whole check in one z-score each)."""
    final = sum(matches[f"score0_{r}"] - matches[f"score1_{r}"] for r in range(1, rounds + 1)).to_numpy()
    out: dict[str, float] = {}
    for k in range(1, rounds):
        lead0 = sum(matches[f"score0_{r}"] - matches[f"score1_{r}"] for r in range(1, k + 1)).to_numpy()
        sign = np.where(matches[f"starter_{k + 1}"].to_numpy() == 0, 1, -1)
        pred = np.asarray(equity.win_probability(sign * lead0, rounds - k, np.ones(len(lead0), bool)))
        r = _outcome(sign * final) - pred
        se = float(r.std(ddof=1) / math.sqrt(len(r)))
        out[f"after round {k}: mean(result - table)"] = float(r.mean())
        out[f"after round {k}: stderr"] = se
        out[f"after round {k}: z"] = float(r.mean() / se) if se > 0 else math.nan
    return out


def build(deals: int = 100_000, matches: int = 20_000, seed: int = 0, resamples: int = 200, colors: int = 5,
          tied_start: str = "alternate", progress: Any = None, bars: bool = False, kept: str | None = None,
          allow_code_change: bool = False, kept_matches: str | None = None) -> dict[str, Any]:
    """Simulate, build the table, its standard errors and the check; return the file's content.
    ``progress``: a function given a line as each step starts; ``bars``: progress bars within the steps.
    ``kept``: a file each deal's row is written to as it is played (``first_player_rounds``'s ``out``),
    and ``kept_matches`` one for each check match's (``simulate_match_rounds``'s): a build stopped
    (Ctrl-C) and started again with them and the same settings plays only the deals and matches
    missing, and the table and its check are an unbroken build's (``allow_code_change``: go on with
    rows other code wrote)."""
    whole_argument("build", "deals", deals, 1, MAX_STUDY_UNITS)  # (all before the deals are played)
    whole_argument("build", "matches", matches, 0, MAX_STUDY_UNITS)
    whole_argument("build", "resamples", resamples, 0, MAX_BOOTSTRAP)
    say = progress or (lambda text: None)
    t0 = time.process_time()
    say(f"simulating {deals} duplicate deals ({2 * deals} rounds)"
        + (f", each kept in {kept} as it is played" if kept else "") + " ...")
    rounds = first_player_rounds(deals, seed=seed, colors=colors, progress=bars, out=kept,
                                 allow_code_change=allow_code_change)
    t_rounds = time.process_time() - t0
    diffs = round_differences(rounds)
    eq = MatchEquity.from_counts(diffs, tied_start)
    say(f"bootstrap: {resamples} resamples ...")
    se = bootstrap_stderr(rounds, resamples, seed, tied_start) if resamples > 1 else np.full((len(TABLE_LEADS), 6),
                                                                                              np.nan)
    summary = first_player_summary(rounds)
    values, counts = np.unique(diffs, return_counts=True)
    dense = np.zeros(int(values.max() - values.min()) + 1, np.int64)
    dense[values - values.min()] = counts
    matrix = table_matrix(eq)
    columns = [f"{n}:{who}" for n, who in COLUMNS]
    zero = TABLE_LEADS.index(0)
    payload: dict[str, Any] = {
        "what": f"{MATCH_TABLE_WHAT}: P(win the match) + P(draw)/2 for the player whose lead it is, by lead "
                "(own total minus the opponent's), rounds left, and who starts the next round",
        "command": f"{COMMAND} --deals {deals} --matches {matches} --seed {seed} --bootstrap {resamples}"
                   + (f" --colors {colors}" if colors != 5 else ""),
        "agent": "heuristic v heuristic (compiled self-play, core.policy), duplicate deals",
        "assumption": "rounds are independent given who starts them; one round's difference (starter minus "
                      "other) has the same distribution whatever the score",
        "ties": "a level match total counts half a win (MatchEquity.outcome gives win, draw and loss apart)",
        "starting_rule": "the higher running total starts the next round; level totals: tied_start",
        "colors": colors, "rounds": 3, "tied_start": tied_start,
        "deals": deals, "simulated_rounds": len(diffs), "seed": seed,
        "cpu_seconds_simulating": round(t_rounds, 1),
        "round_difference": {
            "about": "one round's final score difference, starter minus other: counts for the differences "
                     "from 'from' upwards, one per whole number; the table is computed from these",
            "mean": round(float(diffs.mean()), 3),
            "mean_stderr_duplicate": round(summary["edge (points per round)"].stderr, 3),
            "sd": round(float(diffs.std(ddof=1)), 3),
            "starter_wins_round": round(summary["starter wins the round"].mean, 4),
            "round_drawn": round(summary["round is drawn"].mean, 4),
            "from": int(values.min()),
            "counts": dense.tolist(),
        },
        "stderr": {
            "method": f"bootstrap over deals, {resamples} resamples (a deal's two seatings together)",
            "max": round(float(np.nanmax(se)), 4),
            "lead_0": {c: round(float(se[zero, j]), 4) for j, c in enumerate(columns)},
        },
        "table": {
            "about": "rows: leads; columns 'N:me' / 'N:other': N rounds left, the next round started by the "
                     "player whose lead it is / by the opponent; beyond the leads listed, look the lead up with "
                     "MatchEquity.load().win_probability (the loader rebuilds every lead from the counts)",
            "columns": columns,
            "leads": list(TABLE_LEADS),
            "rows": [[round(float(v), 4) for v in row] for row in matrix],
        },
    }
    if matches:
        say(f"checking against {matches} directly simulated 3-round matches"
            + (f", each kept in {kept_matches} as it is played" if kept_matches else "") + " ...")
        t1 = time.process_time()
        played = simulate_match_rounds(matches, seed, Rules(colors=colors, rounds=3, tied_start=tied_start),
                                       progress=bars, out=kept_matches, allow_code_change=allow_code_change)
        check = check_matches(eq, played)
        payload["check"] = {
            "about": "directly simulated 3-round matches (same agent): after rounds 1 and 2, how often the starter "
                     "of the next round (the leader, or on level totals the one the rule names) wins the match "
                     "(draws half), against the table's mean prediction; z = (observed - predicted) / stderr",
            "matches": matches,
            "cpu_seconds": round(time.process_time() - t1, 1),
            "calibration": {k: round(v, 4) for k, v in calibration(eq, played).items()},
            "rows": [{k: _plain(v) for k, v in rec.items()} for rec in check.to_dict(orient="records")],
        }
    return payload


def _plain(v: Any) -> Any:
    """A JSON value: floats to 4 decimals, not-a-number (a bin where every match went one way has
    no standard error) to null."""
    if isinstance(v, (float, np.floating)):
        return round(float(v), 4) if math.isfinite(v) else None
    if isinstance(v, np.integer):
        return int(v)
    return v


def dumps(payload: dict[str, Any]) -> str:
    """The file's text: JSON, with each table row and check row on one line (a few KB, readable)."""
    lines = ["{"]
    items = list(payload.items())
    for i, (key, value) in enumerate(items):
        end = "," if i < len(items) - 1 else ""
        if key == "table":
            inner = [f'  "{k}": {json.dumps(v)}' for k, v in value.items() if k != "rows"]
            rows = ",\n".join("   " + json.dumps(r) for r in value["rows"])
            lines.append('  "table": {\n' + ",\n".join(inner) + f',\n  "rows": [\n{rows}\n  ]}}{end}')
        elif key == "check":
            inner = [f'  "{k}": {json.dumps(v)}' for k, v in value.items() if k != "rows"]
            rows = ",\n".join("   " + json.dumps(r) for r in value["rows"])
            lines.append('  "check": {\n' + ",\n".join(inner) + f',\n  "rows": [\n{rows}\n  ]}}{end}')
        else:
            lines.append(f"  {json.dumps(key)}: {json.dumps(value)}{end}")
    lines.append("}")
    return "\n".join(lines) + "\n"


def write(payload: dict[str, Any], paths: Sequence[str | os.PathLike[str]] = (TABLE_PATH,)) -> list[str]:
    """Write the table to each path (and a ``.cmd`` sidecar beside any file under a ``data/`` folder)."""
    text = dumps(payload)
    written = []
    for path in paths:
        path = os.fspath(path)
        os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)
        with open(path, "w", encoding="utf-8") as fh:
            fh.write(text)
        written.append(path)
        full = os.path.abspath(path)
        if os.path.basename(os.path.dirname(full)) == "data" and full != os.path.abspath(TABLE_PATH):
            with open(path + ".cmd", "w", encoding="utf-8") as fh:
                fh.write(payload["command"] + "\n")
            written.append(path + ".cmd")
    return written


def report(payload: dict[str, Any], file: Any = None) -> None:
    """A short printed summary: the input, the table at a few leads, the standard errors, the check."""
    import sys

    from lcanalysis.studies.estimate import Estimate

    out = file or sys.stdout
    rd = payload["round_difference"]
    differences = rd["from"] + np.arange(len(rd["counts"]))
    wins = Estimate.proportion(np.repeat(differences > 0, rd["counts"]))  # (the rounds' counts are in the payload)
    print(f"{payload['simulated_rounds']} simulated rounds ({payload['deals']} duplicate deals), heuristic v "
          f"heuristic: starter minus other {rd['mean']:+.2f} ± {rd['mean_stderr_duplicate']:.2f} points "
          f"(sd {rd['sd']:.1f}); the starter wins {100 * wins.mean:.1f}% ± {100 * wins.stderr:.1f}% of rounds "
          f"(± one standard error, the rounds counted as independent: a deal's two playings are not)", file=out)
    t = payload["table"]
    print("match equity (win + draw/2) by lead; columns: rounds left : who starts next", file=out)
    print("  lead " + " ".join(f"{c:>8}" for c in t["columns"]), file=out)
    for lead, row in zip(t["leads"], t["rows"]):
        if lead % 25 == 0 and abs(lead) <= 150:
            print(f"  {lead:+4d} " + " ".join(f"{v:8.4f}" for v in row), file=out)
    print(f"standard error ({payload['stderr']['method']}): at most {payload['stderr']['max']:.4f}", file=out)
    if "check" in payload:
        c = payload["check"]
        print(f"check against {c['matches']} directly simulated matches (next round's starter wins; draws half):",
              file=out)
        for r in c["rows"]:
            print(f"  after round {r['after_round']}, lead {r['lead']:>7}: {r['matches']:6d} matches, observed "
                  f"{r['observed']:.3f} [{r['low95']:.3f}, {r['high95']:.3f}], table {r['predicted']:.3f}, "
                  + (f"z {r['z']:+.2f}" if r["z"] is not None else "z -- (all one way)"), file=out)
        for k, v in c["calibration"].items():
            print(f"  {k}: {v:+.4f}", file=out)


# --- the match-aware agent against the points agent ---------------------------------------------


def match_tournament_summary(df: Any, agent: str, conf: float = 0.95) -> dict[str, Any]:
    """``agent``'s record in a tournament of matches (``run_tournament`` rows, ``rules.rounds`` > 1):
    matches won, drawn, lost; the match-winning rate (draws half) with an interval over *deals*
    (each duplicate deal's two seatings averaged into one sample, a t interval kept inside 0-1,
    ``tournaments.stats.unit_rate_interval``: the seatings share the deal's luck, so they are not
    two independent matches) and the Wilson interval over matches for comparison; the mean match
    score difference per match with its interval."""
    from scipy import stats

    missing = [c for c in ("pairing", "deal", "swap", "player0", "player1", "score0", "score1") if c not in df]
    if missing:
        raise ValueError(f"not a tournament's rows (lcanalysis tournament ... --csv): no column {', '.join(missing)}")
    rows = df[(df.player0 == agent) | (df.player1 == agent)]
    if rows.empty:  # it printed "0 three-round matches" and a nan rate
        players = sorted(set(df.player0) | set(df.player1))
        raise ValueError(f"{agent!r} played no match here; the players are {', '.join(map(repr, players))}")
    sign = np.where(rows.player0 == agent, 1, -1)
    rows = rows.assign(diff=sign * (rows.score0 - rows.score1).to_numpy())
    per_match = rows.groupby(["pairing", "deal", "swap"])["diff"].sum()
    result = _outcome(per_match.to_numpy())
    per_deal = _mean_by_key(per_match.index.get_level_values("deal"), result)
    diff_deal = _mean_by_key(per_match.index.get_level_values("deal"), per_match.to_numpy().astype(float))
    n = len(per_deal)
    t = float(stats.t.ppf(0.5 + conf / 2, n - 1)) if n > 1 else math.nan
    mean = float(per_deal.mean())
    se = float(per_deal.std(ddof=1) / math.sqrt(n)) if n > 1 else math.nan
    dmean = float(diff_deal.mean())
    dse = float(diff_deal.std(ddof=1) / math.sqrt(n)) if n > 1 else math.nan
    low, high = wilson_interval(float(result.sum()), len(result))
    deal_low, deal_high = unit_rate_interval(result, list(per_match.index.get_level_values("deal")), conf)
    return {"agent": agent, "matches": len(result), "deals": n, "won": int((result == 1).sum()),
            "drawn": int((result == 0.5).sum()), "lost": int((result == 0).sum()),
            "match_win_rate": mean, "stderr_by_deal": se, "low": deal_low, "high": deal_high,
            "wilson_low": low, "wilson_high": high,
            "mean_match_diff": dmean, "diff_low": dmean - t * dse, "diff_high": dmean + t * dse}


def _mean_by_key(keys: Any, values: np.ndarray) -> np.ndarray:
    """The mean of ``values`` for each distinct key, in key order."""
    keys = np.asarray(keys)
    uniq, inverse = np.unique(keys, return_inverse=True)
    sums = np.bincount(inverse, weights=values, minlength=len(uniq))
    counts = np.bincount(inverse, minlength=len(uniq))
    return sums / counts


def print_match_tournament(path: str, agent: str = "match:time_ms=20", file: Any = None) -> None:
    """Print ``match_tournament_summary`` for a tournament CSV (``lcanalysis tournament ... --csv``)."""
    import sys

    import pandas as pd

    s = match_tournament_summary(pd.read_csv(path), agent)
    out = file or sys.stdout
    print(f"{s['agent']}: {s['matches']} three-round matches on {s['deals']} duplicate deals: won {s['won']}, "
          f"drawn {s['drawn']}, lost {s['lost']}", file=out)
    print(f"match-winning rate (draws half) {s['match_win_rate']:.3f}, 95% interval over deals "
          f"[{s['low']:.3f}, {s['high']:.3f}] (Wilson over matches [{s['wilson_low']:.3f}, {s['wilson_high']:.3f}])",
          file=out)
    print(f"mean match score difference {s['mean_match_diff']:+.2f} points, 95% interval "
          f"[{s['diff_low']:+.2f}, {s['diff_high']:+.2f}]", file=out)


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m lcanalysis.studies.match_table TOURNAMENT.csv [AGENT]``: an agent's record in a
    tournament of matches (a missing or foreign file was a traceback)."""

    ap = CommandParser(prog="python -m lcanalysis.studies.match_table", description=main.__doc__)
    ap.add_argument("results", help="a tournament's CSV of matches (lcanalysis tournament ... --rounds 3 --csv FILE)")
    ap.add_argument("agent", nargs="?", default="match:time_ms=20", help="the agent (default match:time_ms=20)")
    args = ap.parse_args(argv)
    try:
        print_match_tournament(args.results, args.agent)
    except OSError as e:
        ap.error(f"{args.results}: {e.strerror or e}")
    except ValueError as e:  # pandas' EmptyDataError and ParserError are ValueErrors
        ap.error(f"{args.results}: {e}")
    return 0


if __name__ == "__main__":  # pragma: no cover
    run_script(main)
