"""Study: is a variant stronger than the agent it changes? Two tournaments on the same deals, paired.

    python -m lcanalysis.studies.paired_strength NEW.jsonl OLD.jsonl [--opponent LABEL]
    python -m lcanalysis.studies.paired_strength NEW.jsonl OLD.jsonl --sides NEW_LABEL OLD_LABEL
    python -m lcanalysis.studies.paired_strength NEW.jsonl OLD.jsonl --unpaired [--sides A B | --opponent X]

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

``--unpaired`` compares two files on other deals (5 colours against 6, another seed), or on the
same deals without pairing them: each file's win rate and points a round of the named side with
its standard error over deals (a deal's seatings one sample, as ``summarize`` counts them), the
change their difference, its standard error the two in quadrature and its 95% interval Welch's t
(Welch-Satterthwaite degrees of freedom) over the deals' means. What the deals are worth stays in
both errors, so the interval is wider than a paired one would be; on files of the same deals the
answer says that pairing them would as a rule be narrower.
"""

from __future__ import annotations

import math
import os
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import pandas as pd

from lcanalysis.options import CommandParser, run_script
from lcanalysis.studies.estimate import welch_t
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
    pairs = sorted({tuple(sorted((a, b))) for a, b in zip(df.player0, df.player1)})
    if len(pairs) != 1:
        seated = "; ".join(f"{a} and {b}" for a, b in pairs)
        raise ValueError(f"paired_strength: {path} seats {len(pairs)} pairs of agents ({seated}); give files of "
                         f"one pair each")
    a, b = pairs[0]
    return a, b


def _agents(new: pd.DataFrame, old: pd.DataFrame, new_path: str, old_path: str, opponent: str | None,
            sides: tuple[str, str] | None) -> tuple[str, str, str, str | None]:
    """(the side in ``new``, the side in ``old``, the opponent in ``new``, the opponent in ``old`` when
    it differs, else None), from the named opponent or sides, or the one agent the files share."""
    new_pair, old_pair = set(_one_pair(new, new_path)), set(_one_pair(old, old_path))
    if sides is not None:
        if opponent is not None:
            raise ValueError("paired_strength: give the opponent or the sides, not both")
        for label, pair, path in ((sides[0], new_pair, new_path), (sides[1], old_pair, old_path)):
            if label not in pair:
                a, b = sorted(pair)
                raise ValueError(f"paired_strength: {label!r} does not sit in {path}: it seats {a!r} and {b!r}")
        variant, base = sides
        opponent = next(iter(new_pair - {variant}))
        other = next(iter(old_pair - {base}))
        return variant, base, opponent, None if other == opponent else other
    if opponent is None:
        common = new_pair & old_pair
        if len(common) != 1:
            raise ValueError(f"paired_strength: the files must share exactly one agent, the opponent "
                             f"({sorted(new_pair)} against {sorted(old_pair)}); name it when they share both")
        opponent = next(iter(common))
    elif opponent not in new_pair or opponent not in old_pair:
        raise ValueError(f"paired_strength: the opponent {opponent!r} must sit in both files "
                         f"({sorted(new_pair)} against {sorted(old_pair)})")
    return next(iter(new_pair - {opponent})), next(iter(old_pair - {opponent})), opponent, None


def _finished_rounds(path: str) -> pd.DataFrame:
    """The finished rounds of the results file ``path``; a file with none is refused, naming it."""
    df = load_results(path)
    if df.empty:
        raise ValueError(f"paired_strength: {path} holds no finished rounds")
    return df


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
    new, old = _finished_rounds(new_path), _finished_rounds(old_path)
    differ = _tournaments_differ(new, old)
    if differ is not None:
        raise ValueError(f"paired_strength: the files {differ}, so their rounds are not the same deals and "
                         f"cannot be paired; compare them unpaired with --unpaired (unpaired_change in Python): "
                         f"each file's win rate and points a round with its standard error over deals, the "
                         f"change's standard error the two errors in quadrature, its interval Welch's t")
    variant, base, opponent, opponent_old = _agents(new, old, new_path, old_path, opponent, sides)
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


@dataclass
class UnpairedChange:
    """The side ``new`` of one file against the side ``old`` of another, not paired by deal: each
    file's win rate and points a round with its standard error over deals, the change with its
    Welch t interval (module docstring)."""

    new: str
    old: str
    opponent: str  # the opponent in the new file
    opponent_old: str  # the opponent in the old file
    new_file: str
    old_file: str
    rounds_new: int
    rounds_old: int
    deals_new: int
    deals_old: int
    #: why the files cannot be paired ("they differ in rules: colors 5 against 6"), or None when they
    #: hold the same deals and could be (paired_change would then be, as a rule, narrower)
    other_deals: str | None
    win_new: float
    win_new_stderr: float
    win_old: float
    win_old_stderr: float
    win_change: float
    win_change_stderr: float  # the two files' errors in quadrature
    win_dof: float  # Welch-Satterthwaite degrees of freedom of the win rate's interval (NaN: no spread, no interval)
    win_low: float
    win_high: float
    points_new: float
    points_new_stderr: float
    points_old: float
    points_old_stderr: float
    points_change: float
    points_change_stderr: float
    points_dof: float
    points_low: float
    points_high: float
    conf: float = 0.95

    def describe(self) -> str:
        how = (f"unpaired, the files being on other deals ({self.other_deals})" if self.other_deals is not None else
               "unpaired, though the files are on the same deals: paired (without --unpaired) the interval would as "
               "a rule be narrower, what each deal is worth cancelling")
        level = f"{100 * self.conf:g}%"
        win = _interval(self.win_low, self.win_high, self.win_dof, ".3f")
        points = _interval(self.points_low, self.points_high, self.points_dof, ".2f")
        return (f"{self.new} against {self.opponent} ({self.new_file}: {self.rounds_new} rounds on {self.deals_new} "
                f"deals) compared with {self.old} against {self.opponent_old} ({self.old_file}: {self.rounds_old} "
                f"rounds on {self.deals_old} deals), {how}\n"
                f"win rate {self.win_new:.3f} ± {self.win_new_stderr:.3f} against {self.win_old:.3f} ± "
                f"{self.win_old_stderr:.3f}: change {self.win_change:+.3f} ± {self.win_change_stderr:.3f} "
                f"{win}\n"
                f"points a round {self.points_new:+.2f} ± {self.points_new_stderr:.2f} against "
                f"{self.points_old:+.2f} ± {self.points_old_stderr:.2f}: change {self.points_change:+.2f} ± "
                f"{self.points_change_stderr:.2f} {points}\n"
                f"(± one standard error over deals, the two seatings of a deal one sample; the change's the two "
                f"files' errors in quadrature; in brackets its {level} Welch t interval. Unpaired: what the deals "
                f"are worth stays in both files' errors, so the interval is wider than a paired one on the same "
                f"deals would be)")


def _interval(low: float, high: float, dof: float, form: str) -> str:
    if math.isnan(dof):
        return "(no interval: no spread over deals in either file, so Welch's t has nothing to go on)"
    return f"[{low:+{form}}, {high:+{form}}] ({dof:.1f} degrees of freedom)"


def _welch(new_units: pd.Series, old_units: pd.Series, conf: float) -> tuple[float, float, float, float, float]:
    """(se of ``new_units``' mean, of ``old_units``', of their difference, its Welch-Satterthwaite
    degrees of freedom, the half width of its ``conf`` t interval); with no spread in either file
    (every deal won in both, say) the degrees of freedom and the width are NaN: no interval, where
    a width of 0 would claim the change exact."""
    se1 = math.sqrt(float(new_units.var(ddof=1)) / len(new_units))
    se2 = math.sqrt(float(old_units.var(ddof=1)) / len(old_units))
    se, dof, half = welch_t(se1, len(new_units), se2, len(old_units), conf)
    return se1, se2, se, dof, half


def _tournaments_differ(new: pd.DataFrame, old: pd.DataFrame) -> str | None:
    """How two files' tournaments deal other cards ("differ in rules: colors 6 against 5"), or None."""
    ni, oi = new.attrs.get("identity", {}), old.attrs.get("identity", {})
    for key in ("rules", "seed", "duplicate"):
        a, b = ni.get(key), oi.get(key)
        if a != b:
            if isinstance(a, dict) and isinstance(b, dict):  # the rules: name the settings that differ
                return f"differ in {key}: " + ", ".join(f"{k} {a.get(k)!r} against {b.get(k)!r}"
                                                       for k in sorted(set(a) | set(b)) if a.get(k) != b.get(k))
            return f"differ in {key}: {a!r} against {b!r}"
    return None


def _other_deals(new: pd.DataFrame, old: pd.DataFrame) -> str | None:
    """Why two files are not on the same deals, or None when some deal and seating are in both."""
    differ = _tournaments_differ(new, old)
    if differ is not None:
        return f"they {differ}"
    if new[KEY].merge(old[KEY], on=KEY).empty:
        return "they have no deal and seating in common"
    return None


def unpaired_change(new_path: str | os.PathLike[str], old_path: str | os.PathLike[str], opponent: str | None = None,
                    conf: float = 0.95, sides: tuple[str, str] | None = None) -> UnpairedChange:
    """The change from ``old_path``'s side to ``new_path``'s, unpaired (module docstring): for two
    files on other deals, or to see what the pairing gains on files of the same deals. ``opponent``
    and ``sides`` name the agents as for ``paired_change``."""
    new_path, old_path = os.fspath(new_path), os.fspath(old_path)
    new, old = _finished_rounds(new_path), _finished_rounds(old_path)
    variant, base, opponent, opponent_old = _agents(new, old, new_path, old_path, opponent, sides)
    mine = [_side(new, variant), _side(old, base)]
    # a deal's seatings (and a match's rounds) are one sample, as summarize counts them
    units = [m.groupby(["pairing", "deal"])[["result", "diff"]].mean() for m in mine]
    for u, path in zip(units, (new_path, old_path)):
        if len(u) < 2:
            raise ValueError(f"paired_strength: {path} holds {len(u)} deal; a standard error over deals needs two "
                             f"or more in each file")
    win = [float(m.result.mean()) for m in mine]
    points = [float(m["diff"].mean()) for m in mine]
    wse_new, wse_old, wse, wdof, whalf = _welch(units[0].result, units[1].result, conf)
    pse_new, pse_old, pse, pdof, phalf = _welch(units[0]["diff"], units[1]["diff"], conf)
    wc, pc = win[0] - win[1], points[0] - points[1]
    return UnpairedChange(variant, base, opponent, opponent_old or opponent, os.path.basename(new_path),
                          os.path.basename(old_path), len(mine[0]), len(mine[1]), len(units[0]), len(units[1]),
                          _other_deals(new, old), win[0], wse_new, win[1], wse_old, wc, wse, wdof, wc - whalf,
                          wc + whalf, points[0], pse_new, points[1], pse_old, pc, pse, pdof, pc - phalf, pc + phalf,
                          conf)


def main(argv: Sequence[str] | None = None) -> int:
    ap = CommandParser(prog="python -m lcanalysis.studies.paired_strength",
                       description="A variant against the agent it changes, on the same deals, paired; or two files "
                                   "on other deals, unpaired (--unpaired).")
    ap.add_argument("new", help="results file of the variant against the opponent (JSON lines)")
    ap.add_argument("old", help="results file of the agent it changes against the same opponent")
    ap.add_argument("--opponent", help="the label of the common opponent, when the files name the same two labels")
    ap.add_argument("--sides", nargs=2, metavar=("NEW_LABEL", "OLD_LABEL"),
                    help="compare these two agents' margins, each against its own opponent (no common one needed)")
    ap.add_argument("--unpaired", action="store_true",
                    help="compare the files unpaired: for files on other deals (other rules, another seed); wider "
                         "than paired")
    args = ap.parse_args(argv)
    sides = None if args.sides is None else (args.sides[0], args.sides[1])
    change = unpaired_change if args.unpaired else paired_change
    return answer(ap, [args.new, args.old], lambda: change(args.new, args.old, args.opponent, sides=sides).describe())


if __name__ == "__main__":
    run_script(main)
