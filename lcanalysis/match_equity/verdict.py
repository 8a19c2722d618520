"""The match analysis in words: the sentence that says whether the match ranking and the points
ranking agree, and when not, by how much and why; the caveat of a table of other rounds.

The verdict is written beginning in lower case ("behind by 70 in the last round: ..."), for it is
said after a colon ("match: behind by 70 ..."), in every answer's notes; said on its own it begins
with a capital (``as_sentence``). ``MatchAnalysis.note`` and ``MatchAnalysis.verdict`` say it so."""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from lcanalysis.analysis import error_digits
from lcanalysis.match_equity.paired import no_spread, paired_difference, standard_error

if TYPE_CHECKING:
    from lcanalysis.game.rules import Rules
    from lcanalysis.match_equity.state import MatchState
    from lcanalysis.match_equity.table import MatchEquity


def table_caveat(equity: MatchEquity, rules: Rules) -> str:
    """A sentence (with a leading space) when ``equity`` was simulated from rounds of another
    number of colours than ``rules`` (a 6-colour round scores more widely than a 5-colour one,
    so the chances read from a 5-colour table are only a rough guide); "" otherwise."""
    made = equity.meta.get("colors")
    if made is None or made == rules.colors:
        return ""
    return (f" (The match equity table was simulated from {made}-colour rounds; in this {rules.colors}-colour "
            f"game its chances to win the match are only a rough guide.)")


def as_sentence(words: str) -> str:
    """``words`` (a verdict, begun in lower case to follow a colon) said on their own: begun with a capital."""
    return words[:1].upper() + words[1:]


def _pct(x: float) -> str:
    return f"{100 * x:.1f}%"


def _chance(x: np.ndarray, followed: bool = False) -> str:
    """A turn's chance to win the match, the mean over its worlds ``x``, with its standard error as the
    table gives it ("28.8% ± 1.5", in as many decimals as the error needs, at most 4); a chance the
    same in every world has none to give ("± 0.0" would claim a precision it does not have) and says so,
    and in how many worlds: "100.0%, the same in each of 11 worlds" is as good as decided on far less
    evidence than in each of 1,500. Said with commas, not a bracket, as it often stands in one;
    ``followed``: the sentence goes on after it, so a comma closes the aside."""
    if len(x) < 2 or float(x.min()) == float(x.max()):
        where = "in the one world" if len(x) == 1 else f"the same in each of {len(x):,} worlds"
        return f"{_pct(float(x.mean()))}, {where}" + ("," if followed else "")
    se = 100 * standard_error(x)
    digits = error_digits(se, 1)
    return f"{100 * float(x.mean()):.{digits}f}% ± {se:.{digits}f}"


def _paired_amount(a: np.ndarray, b: np.ndarray, scale: float, unit: str, sign: bool, average: str = "") -> str:
    """mean(a - b) over the worlds both turns were played in, as the verdict prints it: with its
    standard error, in as many decimals as the error needs to show (at most 4); without one when
    the difference was the same in every one of those worlds (a sample with no spread gives no
    standard error, and "± 0.0" would claim a precision it does not have; the hint prints a loss
    with no standard error without ± too) or when there is only one such world. ``average``
    follows the figure when it has a standard error (e.g. "on average")."""
    n = min(len(a), len(b))
    d = scale * (a[:n] - b[:n])
    plus = "+" if sign else ""
    if no_spread(a, b):
        where = "in the one world" if n == 1 else f"in each of the {n} worlds"
        return f"{float(d[0]):{plus}.1f} {unit} {where} both were played in"
    mean, se = float(d.mean()), standard_error(d)
    digits = error_digits(se, 1)
    return f"{mean:{plus}.{digits}f} ± {se:.{digits}f} {unit}" + (f" {average}" if average else "")


def match_verdict(state: MatchState, names: list[str], pts: list[np.ndarray], mv: list[np.ndarray], bp: int,
                  bm: int, min_z: float) -> str:
    """``match_analysis``'s ``verdict`` (its docstring says what it says): the turns' ``names``, their
    points ``pts`` and match equities ``mv`` per world, the best by points ``bp`` and by match ``bm``. Begun
    in lower case, as a clause after a colon (the module docstring; ``as_sentence`` on its own)."""
    where = state.describe()
    if bp == bm:
        chance = float(mv[bm].mean())
        if chance >= 0.9995 or chance <= 0.0005:
            return (f"{where}, the match is as good as decided ({_chance(mv[bm])}); by points {names[bp]} is best, "
                    f"and nothing changes that.")
        return (f"{where}: points and match agree, {names[bp]} is best either way "
                f"({_chance(mv[bm], followed=True)} to win the match).")
    gain, gain_se = paired_difference(mv[bm], mv[bp])
    cost, _ = paired_difference(pts[bp], pts[bm])
    n = min(len(pts[bm]), len(pts[bp]))
    s_m, s_p = float(pts[bm][:n].std()), float(pts[bp][:n].std())
    if s_m > 1.05 * s_p:
        style = "it gambles more (a wider spread of scores)"
    elif s_m < s_p / 1.05:
        style = "it plays safer (a narrower spread of scores)"
    else:
        style = "its spread of scores is about the same, shaped differently"
    chances = _paired_amount(mv[bm], mv[bp], 100, "percentage points", sign=True)
    if cost >= 0:
        points = "for " + _paired_amount(pts[bp], pts[bm], 1, "points less", sign=False, average="on average")
    else:
        points = "and " + _paired_amount(pts[bm], pts[bp], 1, "points more", sign=False,
                                         average="on average in the worlds both were played in")
    # both chances over the worlds both turns were played in, as the gain is: each turn's own average
    # (over worlds the other was not played in) could read "2.3% against 0.7% (+2.3 ± 2.3 percentage points)"
    shared = ("" if len(mv[bm]) == len(mv[bp]) else
              " in the one world both were played in" if n == 1 else f" in the {n} worlds both were played in")
    text = (f"{where}, the match ranking prefers {names[bm]} to the points favourite {names[bp]}: "
            f"{_chance(mv[bm][:n], followed=True)} against {_chance(mv[bp][:n], followed=True)} to win the match"
            f"{shared} ({chances}) "
            f"{points}: {style}.")
    if gain <= 0:  # no turn beat every other where both were played (a cycle): the least worst, no better here
        text += " It does no better in the worlds both were played in: a matter of taste."
    elif no_spread(mv[bm], mv[bp]):  # no standard error: better in every shared world
        pass
    elif not (gain_se > 0 and gain > min_z * gain_se):
        text += f" The difference is within the noise (less than {min_z:g} standard errors): a matter of taste."
    return text
