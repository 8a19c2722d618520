"""Study: when should you open a colour, and what is a wager worth in play?
(notebooks/article_opening_a_colour.ipynb, notebooks/wager_study.ipynb)"""

from __future__ import annotations

import math
from collections.abc import Sequence
from itertools import pairwise
from typing import Any

import numpy as np

from lcanalysis.game.cards import whole_number
from lcanalysis.options import check_seed
from lcanalysis.studies.estimate import Estimate, study_table, t_interval, whole_argument


def colours_opened_estimates(colours: Any, min_rounds: int = 30) -> dict[str, Estimate]:
    """``score_by_colours_opened`` as named estimates (counts seen in at least ``min_rounds`` rounds;
    each estimate's ``n`` is its rounds, which the figures write beside its name)."""
    table = score_by_colours_opened(colours)
    return {f"{int(r['colours opened'])} colour{'' if int(r['colours opened']) == 1 else 's'}":
            Estimate(float(r["mean round score"]), float(r["s.e."]), int(r["rounds"]))
            for _, r in table.iterrows() if r["rounds"] >= min_rounds}


# --- opening a colour and wagers -----------------------------------------------------------------


def _check_pool(unseen_total: Any) -> None:
    """Refuse an ``unseen_total`` that is text other than ``"round"`` (a number is the calculator's to check)."""
    from lcanalysis.wagers.canonical import WagerError

    if isinstance(unseen_total, str) and unseen_total != "round":
        raise WagerError(f"unseen_total must be a number of unseen cards or 'round' (2k + 10 for k draws left), "
                         f"got {unseen_total!r}")


def draws_pool(unseen_total: int | str, draws: Any) -> Any:
    """The unseen cards ``draws`` draws come from, for the tables below: ``unseen_total`` as given
    (a number: draws from now, at the deal by default), or for ``"round"`` the ``2k + 10`` of ``k``
    draws left in a round (``canonical.round_unseen``). Draws that are no count of draws get the
    deal's pool, so that the calculator refuses them by name as it does for a number."""
    from lcanalysis.wagers.canonical import START_UNSEEN, round_unseen

    if unseen_total != "round":
        return unseen_total
    return round_unseen(draws) if whole_number(draws) is not None and draws >= 0 else START_UNSEEN


def opening_table(held: Sequence[Sequence[int]], draws: Sequence[int], wagers: int = 0,
                  unseen_total: int | str = 52) -> Any:
    """Canonical model (exact means): the value of opening a colour holding the numbers ``held``
    (each an iterable of face values) with ``wagers`` wagers, for each number of draws.
    Columns: held, sum, cards, draws, unseen, mean, p_break_even, p_positive.

    ``unseen_total``: the unseen cards the draws come from. A number (52, the deal's, by default)
    keeps them the same for every row: draws from now, at the deal. ``"round"``: the draws left
    later in a round, with ``2k + 10`` unseen cards for ``k`` draws left (``round_unseen``, the
    wager tables' convention): a lone 10 pays from 12 draws of the deal's 52 cards, but from 5
    draws left in a round. The ``unseen`` column says which each row used."""
    import pandas as pd

    from lcanalysis.wagers.canonical import wager_distribution

    _check_pool(unseen_total)
    rows = []
    for h in held:
        for k in draws:
            # (draws as given: int(k) made 2.5 draws 2, silently; numpy's integers are whole numbers)
            res = wager_distribution(hand=list(h), hand_wagers=wagers, draws=k,
                                     unseen_total=draws_pool(unseen_total, k), exact=False)
            o = res.outcome(wagers)
            rows.append({"held": " ".join(map(str, h)), "sum": sum(h), "cards": len(h), "draws": res.draws,
                         "unseen": res.inputs["state"].unseen_total, "mean": float(o.mean),
                         "p_break_even": float(o.p_break_even), "p_positive": float(o.p_positive)})
    return pd.DataFrame(rows)


def score_with_no_draws(held: Sequence[Sequence[int]]) -> list[float]:
    """The canonical model's score of an expedition of each holding in ``held`` with no draws
    to come and no wager: the numbers' sum less 20 (a check by hand of the calculator)."""
    from lcanalysis.wagers.canonical import wager_distribution

    return [float(wager_distribution(hand=list(h), draws=0).outcome(0).mean) for h in held]


def wager_grid(draws: Sequence[int], sums: Sequence[int], cards: int = 3, unseen_total: int | str = 52) -> Any:
    """For holdings of ``cards`` numbers with each total in ``sums`` (the most even spread of
    values that gives that total) and each number of draws: the canonical model's mean for 0..3
    wagers, the chance of breaking even with 0 and 1 wager, and the value of one extra wager.

    ``unseen_total``: the unseen cards the draws come from, as ``opening_table``'s: a number (52,
    the deal's, by default) for every row, or ``"round"`` for ``2k + 10`` with ``k`` draws left in
    a round (``draws_pool``). The ``unseen`` column says which each row used."""
    import pandas as pd

    from lcanalysis.wagers.canonical import wager_distribution

    _check_pool(unseen_total)
    rows = []
    for total in sums:
        h = holding_with_sum(cards, total)
        if h is None:  # (it was left out, silently: sums=[5] gave an empty table)
            raise ValueError(f"wager_grid: no {cards} distinct numbers of 2..10 add up to {total!r}"
                             + (f" ({cards} add up to {sum(range(2, 2 + cards))}..{sum(range(11 - cards, 11))})"
                                if 1 <= cards <= 9 else " (a colour has 9 numbers)"))
        for k in draws:
            res = wager_distribution(hand=h, hand_wagers=3, draws=k, unseen_total=draws_pool(unseen_total, k),
                                     exact=False)
            means = [float(res.outcome(j).mean) for j in range(4)]
            rows.append({"held": " ".join(map(str, h)), "sum": total, "draws": res.draws,
                         "unseen": res.inputs["state"].unseen_total,
                         **{f"mean_{j}": means[j] for j in range(4)},
                         "p_break_even_0": float(res.outcome(0).p_break_even),
                         "p_break_even_1": float(res.outcome(1).p_break_even),
                         "wager_value": means[1] - means[0]})
    return pd.DataFrame(rows)


def holding_with_sum(cards: int, total: int) -> list[int] | None:
    """``cards`` distinct face values 2..10 adding up to ``total``, as evenly spread as possible
    (None when impossible). ``holding_with_sum(3, 24) == [7, 8, 9]``."""
    from itertools import combinations

    if whole_number(cards) is None or cards < 0 or whole_number(total) is None:
        raise ValueError(f"holding_with_sum: cards must be a whole number >= 0 and total a whole number, "
                         f"got cards={cards!r}, total={total!r}")
    best = None
    for combo in combinations(range(2, 11), cards):
        if sum(combo) == total:
            spread = max(combo) - min(combo)
            if best is None or spread < best[0]:
                best = (spread, list(combo))
    return None if best is None else best[1]


#: the columns of ``simulated_colours``' table, one row a colour of a round
COLOURS_COLUMNS = ["round", "colour", "held_numbers", "held_sum", "held_wagers", "opened", "final"]


def simulated_colours(rounds: int = 300, seed: int = 0, colors: int = 5, progress: bool = False,
                      out: str | None = None, allow_code_change: bool = False) -> Any:
    """Bot-vs-bot rounds (``wagers.simulation``'s heuristic bot on both seats), seen at the deal by the
    starting player: one row per colour with the numbers and wagers held at the deal, whether the
    player went on to open the colour, and what the expedition finally scored. ``progress``: a
    bar over the rounds. ``out``: a file each round's rows are written to as it is played; a run
    stopped (Ctrl-C) and started again with the same arguments plays only the rounds missing from
    it (another file's settings are refused, and so is a file other code wrote unless
    ``allow_code_change``), and the table is the same as an unbroken run's."""
    from lcanalysis.game.rules import Rules
    from lcanalysis.studies.study_file import WAGER_CODE, simulation_file
    from lcanalysis.wagers import simulation as W

    rounds = whole_argument("simulated_colours", "rounds", rounds, 1)
    seed = check_seed("simulated_colours: seed", seed, most=None)
    rules = Rules(colors=colors)

    def played(key: tuple[int]) -> list[dict[str, Any]]:
        (i,) = key
        rec, _scores = W.snapshot_of_round(i, 0, seed, rules)
        if rec is None:  # (never: every round lasts to its deal, turn 0)
            return []
        held = [W._values(int(m)) for m in rec[:, W.F_HM]]
        return [{"round": i, "colour": int(r[W.F_C]), "held_numbers": len(h), "held_sum": sum(h),
                 "held_wagers": int(r[W.F_HW]), "opened": bool(r[W.F_FINAL_W] > 0 or r[W.F_FINAL] != 0),
                 "final": int(r[W.F_FINAL])} for r, h in zip(rec, held, strict=True)]

    kept = simulation_file("colours study", COLOURS_COLUMNS, ("round",), ("rounds", "seed", "colors"), WAGER_CODE,
                           __file__, bools=("opened",), many_rows=True)
    return kept.kept_table(out, {"rounds": rounds, "seed": seed, "colors": colors}, [(i,) for i in range(rounds)],
                           played, progress=progress, allow_code_change=allow_code_change,
                           desc="simulated rounds (played out; colours as dealt)", unit="round", mininterval=1.0)


def opened_colours(colours: Any) -> Any:
    """The rows of ``simulated_colours`` whose colour the player opened."""
    colours = study_table("opened_colours", colours, ("opened", "held_sum", "final"), "simulated_colours")
    return colours[colours["opened"]]


def colour_value_fit(colours: Any) -> dict[str, Any]:
    """Test the strategy rule "a colour is worth about 22 points plus 60% of the numbered cards
    held in it" (reported by strategy writing): regress the final score of each colour the player
    opened on the sum of its numbers held at the deal (``simulated_colours`` rows). Returns the
    intercept and slope with standard errors, and the residual spread."""
    sel = opened_colours(colours)
    return linear_fit(sel["held_sum"].to_numpy(), sel["final"].to_numpy())


def value_by_held_sum(colours: Any, edges: Sequence[int] = (0, 1, 10, 15, 20, 25, 30, 55)) -> Any:
    """By the sum of the numbers held at the deal: how often the colour was opened and what an
    opened colour scored in the end, each with its standard error."""
    import pandas as pd

    colours = study_table("value_by_held_sum", colours, ("opened", "held_sum", "final"), "simulated_colours")

    out = []
    for lo, hi in pairwise(edges):
        part = colours[(colours["held_sum"] >= lo) & (colours["held_sum"] < hi)]
        if part.empty:
            continue
        op = Estimate.proportion(part["opened"].to_numpy())
        fin = Estimate.of(part.loc[part["opened"], "final"].to_numpy())
        out.append({"held sum": f"{lo}-{hi - 1}", "colours": len(part), "opened": op.mean, "opened s.e.": op.stderr,
                    "final if opened": fin.mean, "final s.e.": fin.stderr, "opened n": fin.n})
    return pd.DataFrame(out)


def score_by_colours_opened(colours: Any) -> Any:
    """The starting player's round score by how many colours they opened, with standard errors
    (an association in bot play, not a controlled experiment: strong hands open more)."""
    import pandas as pd

    colours = study_table("score_by_colours_opened", colours, ("round", "opened", "final"), "simulated_colours")

    per_round = colours.groupby("round").agg(opened=("opened", "sum"), score=("final", "sum"))
    out = []
    for k, part in per_round.groupby("opened"):
        e = Estimate.of(part["score"].to_numpy())
        out.append({"colours opened": int(k), "rounds": e.n, "mean round score": e.mean, "s.e.": e.stderr})
    return pd.DataFrame(out)


def linear_fit(x: np.ndarray, y: np.ndarray) -> dict[str, Any]:
    """Least squares ``y = a + b x`` with the standard errors of ``a`` and ``b`` (each an ``Estimate``
    whose ``n`` is the points and whose 95% interval is Student's t with ``n`` - 2 degrees of freedom,
    two fitted from them)."""
    x = np.asarray(x, float)
    y = np.asarray(y, float)
    n = len(x)
    if n < 3:
        raise ValueError("a linear fit needs at least 3 points")
    X = np.column_stack([np.ones(n), x])
    coef, *_ = np.linalg.lstsq(X, y, rcond=None)
    resid = y - X @ coef
    s2 = float(resid @ resid) / (n - 2)
    cov = s2 * np.linalg.inv(X.T @ X)
    a_se, b_se = math.sqrt(cov[0, 0]), math.sqrt(cov[1, 1])
    return {"intercept": Estimate(float(coef[0]), a_se, n, t_interval(float(coef[0]), a_se, n - 2)),
            "slope": Estimate(float(coef[1]), b_se, n, t_interval(float(coef[1]), b_se, n - 2)),
            "residual_sd": math.sqrt(s2)}


def wager_models_vs_play(rounds: int = 200, snap_turn: int = 10, seed: int = 0, n_mc: int = 300,
                         progress: bool = False, out: str | None = None, allow_code_change: bool = False) -> Any:
    """The canonical and richer wager models' predicted expedition scores against what the bots
    really scored (``wagers.simulation.compare_models``), as a table with bias and its standard error.
    The expeditions of one simulated round are one sample (``rounds`` counts them): each mean's standard
    error is a ratio estimator's over the rounds (``wagers.simulation.error_table``), the RMSE's and the
    calibration MAE's (the deciles' signs taken as given) the delta method's over the rounds' sums.
    ``progress``: a bar over the expeditions predicted (the long part: ``n_mc`` samples each).
    ``out``: a file each expedition's predictions are written to as they are made; a run stopped
    (Ctrl-C) and started again with the same arguments predicts only the expeditions missing from
    it (another file's settings are refused, and so is a file other code wrote unless
    ``allow_code_change``), and the table is the same as an unbroken run's."""
    from lcanalysis.studies.study_file import WAGER_CODE, simulation_file
    from lcanalysis.wagers import simulation as W

    rows, shares, _scores, round_of = W.compared_rows(rounds, snap_turn, seed, progress=progress)
    models = [f"model_{k}" for k in range(len(W.PREDICTION_MODELS))]  # (the models' names hold commas)

    def predicted(key: tuple[int]) -> dict[str, Any]:
        (i,) = key
        return {"expedition": i, "realized": int(rows[i, W.F_FINAL]),
                **dict(zip(models, W.predictions_of_row(rows[i], float(shares[i]), n_mc, seed + 1 + i), strict=True))}

    kept = simulation_file("wager models study", ["expedition", "realized", *models], ("expedition",),
                           ("rounds", "snap_turn", "seed", "n_mc"), WAGER_CODE, __file__)
    table = kept.kept_table(out, {"rounds": rounds, "snap_turn": snap_turn, "seed": seed, "n_mc": n_mc},
                            [(i,) for i in range(len(rows))], predicted, progress=progress,
                            allow_code_change=allow_code_change, desc="expeditions", unit="row")
    # (a round's expeditions share its deal and the player's turns: one sample a round, not one an expedition)
    round_of = round_of[table["expedition"].to_numpy(int)]
    errors = W.error_table({name: table[m].to_numpy(float) for name, m in zip(W.PREDICTION_MODELS, models,
                                                                               strict=True)},
                           table["realized"].to_numpy(float), round_of)
    errors.insert(errors.columns.get_loc("rows") + 1, "rounds", len(np.unique(round_of)))
    return errors
