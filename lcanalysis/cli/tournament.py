"""``lcanalysis tournament AGENT AGENT [AGENT...] --deals N ...``: duplicate-deal tournaments."""

from __future__ import annotations

import argparse
import json
from collections.abc import Sequence
from typing import Any

from lcanalysis.game.rules import Rules
from lcanalysis.tournaments.runner import ratings, run_tournament, summarize, time_per_move


def _parse_agent(text: str) -> Any:
    """``search`` or ``search:time_ms=50,width=8`` or ``external:CMD ...``."""
    if text.startswith("external:"):
        cmd = text.split(":", 1)[1]
        return {"name": "external", "cmd": cmd.split(), "label": "external:" + cmd}
    if ":" not in text:
        return text
    name, opts = text.split(":", 1)
    d: dict[str, Any] = {"name": name}
    for item in opts.split(","):
        k, v = item.split("=", 1)
        try:
            d[k] = int(v)
        except ValueError:
            try:
                d[k] = float(v)
            except ValueError:
                d[k] = v
    d["label"] = text
    return d


def tournament_main(argv: Sequence[str] | None = None) -> int:
    """``lcanalysis tournament AGENT AGENT [AGENT...] --deals N [--colors 6] [--rounds 3] ...``"""
    ap = argparse.ArgumentParser(prog="lcanalysis tournament",
                                 description="Play agents against each other on duplicate deals.")
    ap.add_argument("agents", nargs="+", help="agent names, e.g. heuristic greedy search:time_ms=50 "
                                              "or 'external:python mybot.py'")
    ap.add_argument("--deals", type=int, default=100)
    ap.add_argument("--first-deal", type=int, default=0)
    ap.add_argument("--colors", type=int, default=5, choices=(5, 6))
    ap.add_argument("--rounds", type=int, default=1, help="1 for single rounds, 3 for matches")
    ap.add_argument("--turn-cap", type=int, default=200)
    ap.add_argument("--no-duplicate", action="store_true")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--workers", type=int, default=None)
    ap.add_argument("--out", default="auto",
                    help="JSON-lines results file to append to and resume from (default: a file in data/ "
                         "named after the agents and settings; 'none' to keep nothing)")
    ap.add_argument("--csv", default=None, help="also write the table as CSV")
    ap.add_argument("--no-progress", action="store_true")
    ap.add_argument("--json", action="store_true", help="print the summary as JSON")
    args = ap.parse_args(argv)
    rules = Rules(colors=args.colors, rounds=args.rounds, turn_cap=args.turn_cap)
    agents = [_parse_agent(a) for a in args.agents]
    df = run_tournament(agents, args.deals, rules=rules, duplicate=not args.no_duplicate,
                        round_robin=len(agents) > 2, seed=args.seed, workers=args.workers,
                        executor="serial" if args.workers == 1 else None,
                        out=None if args.out == "none" else args.out,
                        progress=not args.no_progress, first_deal=args.first_deal)
    if args.csv:
        df.to_csv(args.csv, index=False)
    summary = summarize(df)
    if args.json:
        out = {"summary": summary.to_dict(orient="records")}
        if len(agents) > 2:
            out["ratings"] = ratings(df).to_dict()
        print(json.dumps(out, default=float))
        return 0
    for rec in summary.itertuples():
        print(f"{rec.agent} vs {rec.opponent}: {rec.rounds} rounds ({rec.units} deals), "
              f"win rate {rec.win_rate:.3f} [{rec.win_low:.3f}, {rec.win_high:.3f}], "
              f"mean score difference {rec.mean_diff:+.2f} [{rec.diff_low:+.2f}, {rec.diff_high:+.2f}], "
              f"capped rounds {rec.capped}, mean turns {rec.mean_turns:.1f}")
    if len(agents) > 2:
        print("Bradley-Terry ratings (Elo scale):")
        for name, r in ratings(df).items():
            print(f"  {name:<24} {r:+7.1f}")
    for name, t in time_per_move(df).iterrows():
        print(f"time per move, {name}: mean {t.ms:.1f} ms (CPU {t.cpu_ms:.1f} ms), "
              f"max {t.max_ms:.1f} ms (CPU {t.max_cpu_ms:.1f} ms)")
    return 0
