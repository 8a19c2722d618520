"""Claims from the strategy literature, each made testable by a stated model, and the numbers found.

    lcanalysis studies wager-claims            # prints the report quoted in docs/wagers.md (~20 s)

Claim A ("done in three"): a colour opened with a 7 to 10 breaks even with three number
cards about 80% of the time, against about 45% when opened lower.

Claim B ("22 + 60%"): at the start of a round a colour is worth about 22 points plus 60% of
the numbered cards held in it (read as: the expected sum of the expedition's numbers at the end
is about ``22 + 0.6 * H``, ``H`` the sum of the numbers held, so the expected score with no wager
is about ``0.6 * H + 2``).

Each claim is computed three ways: pure counting (exact), the canonical or turn-counting model
from the deal (exact or Monte Carlo with a standard error), and bot-versus-bot play
(``wagers.simulation``; the realized numbers, with standard errors). The bot rounds are the long
part (a couple of minutes at the most rounds taken): with ``out`` each is kept as it is played
(``played_rounds``), and the same call after a stop plays only the rounds missing.
"""

from __future__ import annotations

import itertools
import math
import sys
from fractions import Fraction
from typing import Any

import numpy as np

from lcanalysis.studies.estimate import Estimate
from lcanalysis.wagers.canonical import ColorState
from lcanalysis.wagers.models import turn_model
from lcanalysis.wagers.simulation import F_FINAL, F_FINAL_MASK, F_HM, FIELD_NAMES, snapshot_of_round, snapshot_rounds

HIGH = range(7, 11)
LOW = range(2, 7)


# --- claim A -----------------------------------------------------------------------------------


def triples_breaking_even() -> dict[str, Any]:
    """Counting: among all three-number expeditions, the share with sum >= 20, by the lowest card.

    A 9 or a 10 cannot be the lowest of three numbers; a 7 or 8 always breaks even.
    """
    by_low: dict[int, Fraction] = {}
    count: dict[int, int] = {}
    for t in itertools.combinations(range(2, 11), 3):
        low = t[0]
        count[low] = count.get(low, 0) + 1
        by_low[low] = by_low.get(low, Fraction(0)) + (1 if sum(t) >= 20 else 0)
    share = {v: by_low[v] / count[v] for v in count}
    high_n = sum(count.get(v, 0) for v in HIGH)
    low_n = sum(count.get(v, 0) for v in LOW)
    return {
        "by_lowest": {v: float(share[v]) for v in sorted(share)},
        "triples_by_lowest": dict(sorted(count.items())),
        "high_share": float(sum(by_low.get(v, 0) for v in HIGH) / high_n),
        "low_share_pooled": float(sum(by_low.get(v, 0) for v in LOW) / low_n),
        "low_share_mean_of_openers": float(sum(share[v] for v in LOW) / len(LOW)),
    }


def opener_alone_canonical(draws: int = 21, unseen: int = 52) -> dict[int, float]:
    """Canonical model (exact): the expedition holds only its opening number ``v``, nothing else of the
    colour is in hand, ``draws`` draws to come: P(final score >= 0) for each ``v``."""
    from lcanalysis.wagers.canonical import analyze

    return {v: float(analyze(ColorState.make(placed=[v], unseen_total=unseen), draws).outcome(0).p_break_even)
            for v in range(2, 11)}


def done_in_three_in_play(rows: np.ndarray) -> dict[str, Any]:
    """Bot play: expeditions by their opening (lowest) number: P(>= 3 numbers), P(first three sum
    >= 20 | >= 3 numbers), P(final score >= 0)."""
    out: dict[str, Any] = {}
    groups: dict[str, list[tuple[int, int, int]]] = {"7-10": [], "2-6": []}
    for row in rows:
        mask = int(row[F_FINAL_MASK])
        if mask == 0:
            continue
        nums = [r + 1 for r in range(1, 10) if mask & (1 << (r - 1))]
        key = "7-10" if nums[0] >= 7 else "2-6"
        groups[key].append((len(nums), int(sum(nums[:3]) >= 20 and len(nums) >= 3), int(row[F_FINAL] >= 0)))
    for key, g in groups.items():
        a = np.array(g, dtype=float).reshape(-1, 3)
        n = len(a)
        three = a[a[:, 0] >= 3]
        out[key] = {
            "expeditions": n,
            "p_three_numbers": float((a[:, 0] >= 3).mean()) if n else math.nan,
            "p_first_three_break_even_given_three": float(three[:, 1].mean()) if len(three) else math.nan,
            "p_first_three_break_even": float(a[:, 1].mean()) if n else math.nan,
            "p_final_break_even": float(a[:, 2].mean()) if n else math.nan,
            "se": float(math.sqrt(0.25 / n)) if n else math.nan,
        }
    return out


# --- claim B -----------------------------------------------------------------------------------


def canonical_sum_line(draws: int = 21, unseen: int = 52) -> tuple[float, float]:
    """Canonical model from the deal: E[final sum] = H + (54 - H) k / U = 54 k/U + (1 - k/U) H."""
    return 54 * draws / unseen, 1 - draws / unseen


def _fit(x: np.ndarray, y: np.ndarray) -> tuple[float, float, float, float]:
    """Least squares y = a + b x; returns a, b and their standard errors."""
    x = np.asarray(x, float)
    y = np.asarray(y, float)
    xm = x.mean() if len(x) else 0.0
    sxx = ((x - xm) ** 2).sum()
    if len(x) < 3 or sxx == 0:
        raise ValueError(f"too few expeditions to fit a line ({len(x)}, with {len(set(x.tolist()))} different "
                         "sums held): simulate more rounds")
    b = ((x - xm) * (y - y.mean())).sum() / sxx
    a = y.mean() - b * xm
    resid = y - a - b * x
    s2 = (resid ** 2).sum() / (len(x) - 2)
    return a, b, math.sqrt(s2 * (1 / len(x) + xm ** 2 / sxx)), math.sqrt(s2 / sxx)


def turn_model_score_line(share: float = 1 / 3, n: int = 4000) -> dict[str, float]:
    """Turn model from the deal (22 turns, late policy): mean score with no wager against H, fitted."""
    hs, means = [], []
    for size in range(6):
        for i, h in enumerate(itertools.combinations(range(2, 11), size)):
            if i % 3:
                continue  # every third holding is plenty for a line
            st = ColorState.make(hand=h, unseen_total=52)
            hs.append(sum(h))
            means.append(turn_model(st, 22, share=share, n=n, seed=i, progress=False).outcome(0).mean)
    a, b, sa, sb = _fit(np.array(hs), np.array(means))
    return {"intercept": a, "slope": b, "intercept_se": sa, "slope_se": sb, "holdings": len(hs)}


def sum_line_in_play(rows: np.ndarray) -> dict[str, Any]:
    """Bot play from the deal: the final sum of an expedition against the sum held at the deal."""
    held = np.array([sum(r + 1 for r in range(1, 10) if int(m) & (1 << (r - 1))) for m in rows[:, F_HM]])
    final = np.array([sum(r + 1 for r in range(1, 10) if int(m) & (1 << (r - 1))) for m in rows[:, F_FINAL_MASK]])
    opened = rows[:, F_FINAL_MASK] != 0
    a, b, sa, sb = _fit(held[opened], final[opened])
    a2, b2, sa2, sb2 = _fit(held, final)
    sc_a, sc_b, sc_sa, sc_sb = _fit(held, rows[:, F_FINAL].astype(float))
    return {
        "opened": {"intercept": a, "slope": b, "intercept_se": sa, "slope_se": sb, "n": int(opened.sum())},
        "all": {"intercept": a2, "slope": b2, "intercept_se": sa2, "slope_se": sb2, "n": len(held)},
        "score_all": {"intercept": sc_a, "slope": sc_b, "intercept_se": sc_sa, "slope_se": sc_sb},
        "p_opened_by_held": {lo: float(opened[(held >= lo) & (held < lo + 10)].mean())
                             for lo in (0, 10, 20, 30) if ((held >= lo) & (held < lo + 10)).any()},
        "opened_by_held": {lo: Estimate.proportion(opened[(held >= lo) & (held < lo + 10)])
                           for lo in (0, 10, 20, 30) if ((held >= lo) & (held < lo + 10)).any()},
    }


def played_rounds(rounds: int, seed: int = 0, progress: bool = False, out: str | None = None,
                  allow_code_change: bool = False) -> tuple[np.ndarray, np.ndarray]:
    """The bot rounds the claims are tested on: ``snapshot_rounds(rounds, 0, seed)``'s rows and
    scores, with ``out`` each round kept in that file as it is played (``StudyFile.kept_table``: a
    row a colour, its fields and the round's scores): a run stopped (Ctrl-C) and started again with
    the same settings plays only the rounds missing, to the same arrays; a file of other settings is
    refused, naming them, and so is one whose rows other code wrote unless ``allow_code_change``."""
    if out is None:
        return snapshot_rounds(rounds, snap_turn=0, seed=seed, progress=progress)
    from lcanalysis.game.rules import Rules
    from lcanalysis.options import MAX_WAGER_SIM_ROUNDS
    from lcanalysis.studies.estimate import whole_argument
    from lcanalysis.studies.study_file import WAGER_CODE, simulation_file

    rounds = whole_argument("played_rounds", "rounds", rounds, 0, MAX_WAGER_SIM_ROUNDS)
    rules = Rules()

    def played(key: tuple[int]) -> list[dict[str, Any]]:
        (i,) = key
        rec, (score0, score1) = snapshot_of_round(i, 0, seed, rules)
        return [] if rec is None else [{"round": i, **dict(zip(FIELD_NAMES, r, strict=True)), "score0": score0,
                                        "score1": score1} for r in rec.tolist()]

    kept = simulation_file("wager-claims rounds", ["round", *FIELD_NAMES, "score0", "score1"], ("round",),
                           ("rounds", "seed"), WAGER_CODE, __file__, many_rows=True,
                           unit_rows=lambda settings, key: rules.colors)  # (every round lasts to turn 0)
    table = kept.kept_table(out, {"rounds": rounds, "seed": seed}, [(i,) for i in range(rounds)], played,
                            progress=progress, allow_code_change=allow_code_change,
                            desc="simulated rounds (to turn 0)", unit="round", mininterval=1.0)
    scores = table.groupby("round", sort=False)[["score0", "score1"]].first()
    return table[list(FIELD_NAMES)].to_numpy(np.int64), scores.to_numpy(np.int64)


def report(rounds: int = 4000, seed: int = 0, file=sys.stdout, turn_samples: int = 4000,
           progress: bool = False, out: str | None = None, allow_code_change: bool = False) -> dict[str, Any]:
    """Every claim tested, printed to ``file``; ``progress``: a bar over the simulated rounds (on
    standard error), as ``lcanalysis studies wager-claims`` shows it; ``out``: a file the rounds
    are kept in as they are played, and resumed from (``played_rounds``)."""
    rows, scores = played_rounds(rounds, seed, progress, out, allow_code_change)
    res: dict[str, Any] = {"rounds": rounds, "mean_round_score": float(scores.mean())}
    per_round = Estimate.of(scores.mean(axis=1))  # (the two players of a round are not independent)

    def p(*a: Any) -> None:
        print(*a, file=file)

    p(f"Claims tested; bot play: {rounds} rounds from random deals (seed {seed}), "
      f"mean round score per player {per_round.mean:.1f} ± {per_round.stderr:.1f} (± one standard error, over rounds)")
    t = triples_breaking_even()
    res["A_counting"] = t
    p("\nClaim A, 'done in three': 7-10 opening ~80% vs lower ~45%")
    p("  counting, every 3-number expedition, share with sum >= 20 by its lowest card:")
    p("   " + ", ".join(f"{v}: {s:.0%} of {t['triples_by_lowest'][v]}" for v, s in t["by_lowest"].items()))
    p(f"   opened 7-10: {t['high_share']:.0%} (only 7 and 8 can start three numbers); opened 2-6: "
      f"{t['low_share_pooled']:.1%} pooled over triples, {t['low_share_mean_of_openers']:.1%} averaged over "
      "the opening card")
    alone = opener_alone_canonical()
    res["A_canonical_alone"] = alone
    p("  canonical model, the opening number alone on the expedition, 21 draws of 52 unseen, P(score >= 0):")
    p("   " + ", ".join(f"{v}: {q:.0%}" for v, q in alone.items())
      + f"; mean 7-10: {sum(alone[v] for v in HIGH) / 4:.0%}, mean 2-6: {sum(alone[v] for v in LOW) / 5:.0%}")
    g = done_in_three_in_play(rows)
    res["A_play"] = g
    for key in ("7-10", "2-6"):
        d = g[key]
        if not d["expeditions"]:  # no share to print ('nan%'): say so
            p(f"  bot play, opened {key}: no expedition was opened so in {rounds} rounds: nothing to measure "
              "(more rounds measure it)")
            continue
        given = (f"{d['p_first_three_break_even_given_three']:.1%}" if d["p_three_numbers"] > 0
                 else "not measured (no expedition reached three)")
        p(f"  bot play, opened {key}: {d['expeditions']} expeditions; reach 3 numbers {d['p_three_numbers']:.1%}; "
          f"first three >= 20 given three {given}; "
          f"done in three (unconditional) {d['p_first_three_break_even']:.1%}; "
          f"final score >= 0 {d['p_final_break_even']:.1%} (s.e. <= {d['se']:.1%})")
    a, b = canonical_sum_line()
    res["B_canonical"] = {"intercept": a, "slope": b}
    p("\nClaim B, '22 + 60% of the numbers held' at the start of a round")
    p(f"  canonical model, 21 useful draws of 52 unseen cards: E[final sum] = {a:.2f} + {b:.3f} H  (exact)")
    a22, b22 = canonical_sum_line(22, 52)
    p(f"  canonical model, 22 draws: E[final sum] = {a22:.2f} + {b22:.3f} H  (exact)")
    tm = turn_model_score_line(n=turn_samples)
    res["B_turns"] = tm
    p(f"  turn model (22 turns, a third of them, late policy): E[score] = {tm['intercept']:.2f} + {tm['slope']:.3f} H "
      f"(fit over {tm['holdings']} holdings; s.e. {tm['intercept_se']:.2f}, {tm['slope_se']:.3f}); "
      "the claim in score terms: 2 + 0.6 H")
    sl = sum_line_in_play(rows)
    res["B_play"] = sl
    o = sl["opened"]
    p(f"  bot play, colours opened: final sum = {o['intercept']:.2f} + {o['slope']:.3f} H "
      f"(s.e. {o['intercept_se']:.2f}, {o['slope_se']:.3f}; n={o['n']})")
    o = sl["all"]
    p(f"  bot play, every colour (unopened = 0): final sum = {o['intercept']:.2f} + {o['slope']:.3f} H "
      f"(s.e. {o['intercept_se']:.2f}, {o['slope_se']:.3f}; n={o['n']})")
    o = sl["score_all"]
    p(f"  bot play, every colour: final score = {o['intercept']:.2f} + {o['slope']:.3f} H "
      f"(s.e. {o['intercept_se']:.2f}, {o['slope_se']:.3f}; n={sl['all']['n']})")
    p("  bot play, share of colours opened by H held (± one standard error, of so many colours): "
      + ", ".join(f"H {lo}-{lo + 9}: {e.mean:.1%} ± {e.stderr:.1%} of {e.n}" for lo, e in sl["opened_by_held"].items()))
    return res
