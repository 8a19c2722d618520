"""Study: is a variant stronger than the agent it changes? Two tournaments on the same deals, paired.

    python -m lcanalysis.studies.paired_strength NEW.jsonl OLD.jsonl [--opponent LABEL]
    python -m lcanalysis.studies.paired_strength NEW.jsonl OLD.jsonl --sides NEW_LABEL OLD_LABEL

``NEW`` seats a variant against an opponent, ``OLD`` the agent it changes against the same
opponent, both on duplicate deals of the same tournament seed and rules. Every agent is
deterministic (its seed comes from the deal and the turn, its budget is a count), so a round
plays out identically in both files until the variant first chooses differently: the rounds
where it never does cancel exactly, and the difference of the two files, round by round, has
far less noise than either file alone. Printed: how many rounds joined and how many played out
identically, each file's win rate (draws half) and points a round with one standard error, and
the paired change in each with its 95% t interval, all over deals (the two seatings of a deal
are one sample).

``--sides`` pairs two match-ups that need not share an opponent: the same pair of agents at
two time budgets, say (``best`` against ``search`` at 1 s a move, and at 100 ms). Each file's
rounds are taken from the named agent's side, and the change is that agent's margin in ``NEW``
less the other's in ``OLD``, deal by deal. The deal's cards are the same in both files, but the
play differs from the first turn, so far fewer rounds cancel: the pairing removes only what the
deal itself is worth (a strong hand for one seat is played from both seats already).
"""

from __future__ import annotations

import math
import os
import sys
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import pandas as pd

from lcanalysis.options import CommandParser
from lcanalysis.studies.results_command import answer
from lcanalysis.tournaments.runner import load_results
from lcanalysis.tournaments.stats import mean_interval

KEY = ["pairing", "deal", "swap", "round"]


@dataclass
class PairedChange:
    """The variant of ``new`` against the agent of ``old``, both against ``opponent``."""

    new: str
    old: str
    opponent: str
    rounds: int
    identical: int
    deals: int
    win_new: float
    win_old: float
    win_change: float
    win_low: float
    win_high: float
    points_new: float
    points_old: float
    points_change: float
    points_low: float
    points_high: float
    opponent_old: str | None = None  # with ``sides``: the opponent in the old file, when it differs
    #: each file's own win rate and points a round: one standard error over deals
    win_new_stderr: float = math.nan
    win_old_stderr: float = math.nan
    points_new_stderr: float = math.nan
    points_old_stderr: float = math.nan

    def describe(self) -> str:
        against = (f"both against {self.opponent}" if self.opponent_old is None else
                   f"against {self.opponent} and {self.opponent_old} respectively")
        return (f"{self.new} against {self.old}, {against}: {self.rounds} rounds on "
                f"{self.deals} deals joined, {self.identical} played out identically\n"
                f"win rate {self.win_new:.3f} ± {self.win_new_stderr:.3f} against {self.win_old:.3f} ± "
                f"{self.win_old_stderr:.3f}: change {self.win_change:+.3f} "
                f"[{self.win_low:+.3f}, {self.win_high:+.3f}]\n"
                f"points a round {self.points_new:+.2f} ± {self.points_new_stderr:.2f} against "
                f"{self.points_old:+.2f} ± {self.points_old_stderr:.2f}: change "
                f"{self.points_change:+.2f} [{self.points_low:+.2f}, {self.points_high:+.2f}]\n"
                f"(± one standard error, in brackets a 95% t interval, both over deals: the two seatings of a deal "
                f"one sample)")


def _one_pair(df: pd.DataFrame, path: str) -> tuple[str, str]:
    pairs = {tuple(sorted((a, b))) for a, b in zip(df.player0, df.player1)}
    if len(pairs) != 1:
        raise ValueError(f"paired_strength: {path} seats {len(pairs)} pairs of agents; give files of one pair each")
    a, b = next(iter(pairs))
    return a, b


def _side(df: pd.DataFrame, agent: str) -> pd.DataFrame:
    """Per round, from ``agent``'s side: the score difference and the result (1 win, 0.5 draw, 0 loss)."""
    sign = np.where(df.player0 == agent, 1, -1)
    diff = sign * (df.score0 - df.score1).to_numpy()
    out = df[KEY + ["seed", "starter", "score0", "score1", "turns"]].copy()
    out["diff"] = diff
    out["result"] = np.where(diff > 0, 1.0, np.where(diff == 0, 0.5, 0.0))
    return out


def paired_change(new_path: str | os.PathLike[str], old_path: str | os.PathLike[str], opponent: str | None = None,
                  conf: float = 0.95, sides: tuple[str, str] | None = None) -> PairedChange:
    """The paired change from ``old_path``'s agent to ``new_path``'s (module docstring).
    ``opponent``: the label of the agent both files seat against the other, needed only when
    the two files name the same two labels (a file played by an earlier version of an agent).
    ``sides``: (agent in ``new_path``, agent in ``old_path``) whose margins are compared, each
    against whoever the file seats it with (no common opponent needed)."""
    new_path, old_path = os.fspath(new_path), os.fspath(old_path)
    new, old = load_results(new_path), load_results(old_path)
    for df, path in ((new, new_path), (old, old_path)):
        if df.empty:
            raise ValueError(f"paired_strength: {path} holds no finished rounds")
    ni, oi = new.attrs.get("identity", {}), old.attrs.get("identity", {})
    for key in ("rules", "seed", "duplicate"):
        if ni.get(key) != oi.get(key):
            raise ValueError(f"paired_strength: the files differ in {key} ({ni.get(key)!r} against {oi.get(key)!r}): "
                             f"their rounds are not the same deals, so they cannot be paired; compare them unpaired: "
                             f"each file's mean score difference and its standard error over deals (mean_diff and "
                             f"diff_stderr of summarize(load_results(FILE)), or of 'lcanalysis tournament ... --out "
                             f"FILE --json' run again on the finished file), the change their difference, its "
                             f"standard error the two errors in quadrature")
    new_pair, old_pair = set(_one_pair(new, new_path)), set(_one_pair(old, old_path))
    opponent_old = None
    if sides is not None:
        if opponent is not None:
            raise ValueError("paired_strength: give the opponent or the sides, not both")
        for label, pair, path in ((sides[0], new_pair, new_path), (sides[1], old_pair, old_path)):
            if label not in pair:
                raise ValueError(f"paired_strength: {label!r} does not sit in {path} ({sorted(pair)})")
        variant, base = sides
        opponent = next(iter(new_pair - {variant}))
        other = next(iter(old_pair - {base}))
        opponent_old = None if other == opponent else other
    elif opponent is None:
        common = new_pair & old_pair
        if len(common) != 1:
            raise ValueError(f"paired_strength: the files must share exactly one agent, the opponent "
                             f"({sorted(new_pair)} against {sorted(old_pair)}); name it when they share both")
        opponent = next(iter(common))
    elif opponent not in new_pair or opponent not in old_pair:
        raise ValueError(f"paired_strength: the opponent {opponent!r} must sit in both files "
                         f"({sorted(new_pair)} against {sorted(old_pair)})")
    if sides is None:
        variant, base = next(iter(new_pair - {opponent})), next(iter(old_pair - {opponent}))
    joined = _side(new, variant).merge(_side(old, base), on=KEY, suffixes=("_new", "_old"))
    if joined.empty:
        raise ValueError("paired_strength: the files have no deal and seating in common")
    if not (joined.seed_new == joined.seed_old).all() or not (joined.starter_new == joined.starter_old).all():
        raise ValueError("paired_strength: a deal number holds different deals in the two files")
    identical = int(((joined.score0_new == joined.score0_old) & (joined.score1_new == joined.score1_old)
                     & (joined.turns_new == joined.turns_old)).sum())
    by_deal = joined.assign(dp=joined.diff_new - joined.diff_old,
                            dw=joined.result_new - joined.result_old).groupby(["pairing", "deal"])
    units = by_deal[["dp", "dw", "result_new", "result_old", "diff_new", "diff_old"]].mean()
    pm, plo, phi = mean_interval(units.dp, conf)
    wm, wlo, whi = mean_interval(units.dw, conf)
    se = {c: float(units[c].std(ddof=1)) / math.sqrt(len(units)) if len(units) > 1 else math.nan
          for c in ("result_new", "result_old", "diff_new", "diff_old")}
    return PairedChange(variant, base, opponent, len(joined), identical, len(units),
                        float(joined.result_new.mean()), float(joined.result_old.mean()), wm, wlo, whi,
                        float(joined.diff_new.mean()), float(joined.diff_old.mean()), pm, plo, phi, opponent_old,
                        se["result_new"], se["result_old"], se["diff_new"], se["diff_old"])


def main(argv: Sequence[str] | None = None) -> int:
    ap = CommandParser(prog="python -m lcanalysis.studies.paired_strength",
                       description="A variant against the agent it changes, on the same deals, paired.")
    ap.add_argument("new", help="results file of the variant against the opponent (JSON lines)")
    ap.add_argument("old", help="results file of the agent it changes against the same opponent")
    ap.add_argument("--opponent", help="the label of the common opponent, when the files name the same two labels")
    ap.add_argument("--sides", nargs=2, metavar=("NEW_LABEL", "OLD_LABEL"),
                    help="compare these two agents' margins, each against its own opponent (no common one needed)")
    args = ap.parse_args(argv)
    sides = None if args.sides is None else (args.sides[0], args.sides[1])
    return answer(ap, [args.new, args.old],
                  lambda: paired_change(args.new, args.old, args.opponent, sides=sides).describe())


if __name__ == "__main__":
    sys.exit(main())
