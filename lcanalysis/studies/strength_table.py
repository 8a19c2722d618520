"""Study: the strength table, each agent against each, from tournament results files in ``data/``.

    python -m lcanalysis.studies.strength_table data/round_robin_6agents.jsonl [more.jsonl ...]

Every pairing found in the files becomes a cell (row agent against column agent, from the row's
side: win rate with its 95% Wilson interval over rounds, as if the rounds were independent (the
interval over deals is ``summarize``'s ``win_unit_low``, ``win_unit_high``), mean score difference a
round with its 95% t interval over deals). Where several files hold the same pair of agent
labels, the one with the most rounds is used and the footnote says which. Time per move per
agent (mean and max, wall clock and CPU) is pooled over every file that seats it. The output is
Markdown, for README.md and docs/agents.md.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from dataclasses import dataclass, fields
from typing import Any

import numpy as np
import pandas as pd

from lcanalysis.options import CommandParser, run_script
from lcanalysis.studies.results_command import answer
from lcanalysis.tournaments.runner import load_results, summarize, time_per_move
from lcanalysis.tournaments.stats import HeadToHead


@dataclass
class Cell:
    """One pairing, from the row agent's side (``result``), and the file it was read from."""

    result: HeadToHead
    source: str

    def flipped(self) -> Cell:
        return Cell(self.result.flipped(), self.source)

    def text(self) -> str:
        h = self.result
        return (f"{h.win_rate:.3f} [{h.win_low:.2f}, {h.win_high:.2f}]<br>"
                f"{h.mean_diff:+.1f} [{h.diff_low:+.1f}, {h.diff_high:+.1f}]")


@dataclass
class StrengthTable:
    agents: list[str]
    cells: dict[tuple[str, str], Cell]
    times: pd.DataFrame

    def markdown(self) -> str:
        head = "| row vs column | " + " | ".join(self.agents) + " |"
        lines = [head, "|---" * (len(self.agents) + 1) + "|"]
        for a in self.agents:
            row = [self.cells[(a, b)].text() if (a, b) in self.cells else "" for b in self.agents]
            lines.append(f"| **{a}** | " + " | ".join(row) + " |")
        lines += ["", "| agent | time per move, mean (CPU) | max (CPU) |", "|---|---|---|"]
        for a in self.agents:
            if a in self.times.index:
                t = self.times.loc[a]
                lines.append(f"| {a} | {t.ms:.1f} ms ({t.cpu_ms:.1f} ms) | {t.max_ms:.0f} ms ({t.max_cpu_ms:.0f} ms) |")
        sources: dict[str, list[str]] = {}
        for (a, b), c in self.cells.items():
            if self.agents.index(a) < self.agents.index(b):
                sources.setdefault(c.source, []).append(f"{a}-{b} ({c.result.rounds:,} rounds)")
        lines.append("")
        for src, pairs in sorted(sources.items()):
            lines.append(f"- `{src}`: {', '.join(pairs)}")
        return "\n".join(lines)


def strength_table(paths: Sequence[str | os.PathLike[str]], order: Sequence[str] | None = None,
                   rename: dict[str, str] | None = None,
                   rename_in: dict[str, dict[str, str]] | None = None) -> StrengthTable:
    """The all-pairs table of the results files ``paths`` (see the module's docstring); ``order``
    lists the agents' labels in the order of the rows (default: by mean win rate, strongest first).
    ``rename`` maps a label in every file to the one the table shows, ``rename_in`` a label in one
    file (its path as given) only (say, ``best`` in a file played before a change to it, shown as
    ``best-before-streams``); neither may merge two agents of one file into one."""
    if not paths:
        raise ValueError("strength_table: give at least one tournament results file")
    rename_in = {os.fspath(k): dict(v) for k, v in (rename_in or {}).items()}
    unknown = sorted(set(rename_in) - {os.fspath(p) for p in paths})
    if unknown:
        raise ValueError(f"strength_table: a renaming names a file not in the table: {', '.join(unknown)}")
    cells: dict[tuple[str, str], Cell] = {}
    frames = []
    first_rules: tuple[str, Any] | None = None
    for path in paths:
        df = load_results(path)
        if df.empty:
            raise ValueError(f"strength_table: {os.fspath(path)} holds no finished rounds")
        here = {**(rename or {}), **rename_in.get(os.fspath(path), {})}
        if here:
            labels = set(df.player0) | set(df.player1)
            shown = [here.get(a, a) for a in labels]
            if len(set(shown)) < len(shown):
                raise ValueError(f"strength_table: the renaming would show two agents of {os.fspath(path)} "
                                 f"as one ({sorted(labels)})")
            df = df.assign(player0=df.player0.replace(here), player1=df.player1.replace(here))
        rules = df.attrs.get("identity", {}).get("rules")
        if first_rules is None:
            first_rules = (os.fspath(path), rules)
        elif rules != first_rules[1]:  # a 6-colour pair would read as the 5-colour one of the same agents
            raise ValueError(f"strength_table: {os.fspath(path)} was played under other rules than "
                             f"{first_rules[0]} ({rules} against {first_rules[1]}): one table, one game")
        frames.append(df)
        for row in summarize(df).to_dict("records"):
            h = HeadToHead(**{f.name: row[f.name] for f in fields(HeadToHead)})
            old = cells.get((h.agent, h.opponent))
            if old is None or h.rounds > old.result.rounds:
                cells[(h.agent, h.opponent)] = Cell(h, os.fspath(path))
                cells[(h.opponent, h.agent)] = Cell(h.flipped(), os.fspath(path))
    names = sorted({a for a, _ in cells})
    if order is None:
        def strength(a: str) -> float:
            return float(np.mean([c.result.win_rate for (x, _), c in cells.items() if x == a]))
        agents = sorted(names, key=strength, reverse=True)
    else:
        missing = sorted(set(names) - set(order))
        if missing:
            raise ValueError(f"strength_table: the order leaves out {', '.join(missing)}")
        unknown = [a for a in order if a not in names]
        if unknown:  # a misspelt label, or a file left off, dropped its row and column without a word
            raise ValueError(f"strength_table: the order names {', '.join(unknown)}, which no file holds "
                             f"(the files hold {', '.join(names)})")
        agents = list(dict.fromkeys(order))
    times = time_per_move(pd.concat(frames, ignore_index=True))
    return StrengthTable(agents, cells, times)


def main(argv: Sequence[str] | None = None) -> int:
    ap = CommandParser(prog="python -m lcanalysis.studies.strength_table",
                       description="Each agent against each, from tournament results files (Markdown).")
    ap.add_argument("files", nargs="+", help="tournament results files (JSON lines)")
    ap.add_argument("--order", help="comma-separated agent labels, the order of rows and columns")
    ap.add_argument("--rename", action="append", default=[], metavar="OLD=NEW",
                    help="show the agent labelled OLD in the files as NEW (the last '=' splits; repeatable)")
    ap.add_argument("--rename-in", action="append", nargs=2, default=[], metavar=("FILE", "OLD=NEW"),
                    help="as --rename, in one of the files only (repeatable)")
    args = ap.parse_args(argv)

    def pair(item: str, flag: str) -> tuple[str, str]:
        old, sep, new = item.rpartition("=")
        if not sep or not old or not new:
            ap.error(f"{flag} wants OLD=NEW, got {item!r}")
        return old, new

    rename = dict(pair(item, "--rename") for item in args.rename)
    rename_in: dict[str, dict[str, str]] = {}
    for path, item in args.rename_in:
        old, new = pair(item, "--rename-in")
        rename_in.setdefault(path, {})[old] = new
    order = args.order.split(",") if args.order else None
    return answer(ap, args.files, lambda: strength_table(args.files, order, rename, rename_in).markdown())


if __name__ == "__main__":
    run_script(main)


__all__ = ["Cell", "StrengthTable", "strength_table"]
