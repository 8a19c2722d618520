"""Study: is stalling in the endgame worth it? (notebooks/article_stalling.ipynb)"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from typing import Any

from lcanalysis.game.cards import whole_number
from lcanalysis.game.position import Position
from lcanalysis.game.rules import Rules
from lcanalysis.options import check_seed
from lcanalysis.studies.estimate import Estimate, study_table

# --- stalling in the endgame ------------------------------------------------------------------


def endgame_positions(n: int, cards_left: int, seed: int = 0, colors: int = 5) -> list[Position]:
    """``n`` full positions with ``cards_left`` cards in the draw pile, reached from random deals
    by the heuristic agent playing both seats (each seeing only its own view)."""
    from lcanalysis.agents import make_agent

    rules = Rules(colors=colors)
    full = rules.deck_size - 2 * rules.hand_size  # the draw pile after the deal
    if whole_number(n) is None or n < 0 or whole_number(cards_left) is None or not 1 <= cards_left <= full:
        # (no round is ever reached with 0 cards left and not over, or more than the deal leaves: it looped forever)
        raise ValueError(f"endgame_positions: n must be a whole number >= 0 and cards_left one from 1 to "
                         f"{full}, got n={n!r}, cards_left={cards_left!r}")
    agent = make_agent("heuristic")
    out: list[Position] = []
    i = 0
    while len(out) < n:
        pos = Position.deal(seed=seed * 1_000_003 + i, rules=rules)
        t = 0
        while pos.deck_count > cards_left and not pos.is_over():
            pos.push(agent.choose(pos.view(pos.to_move), i * 1000 + t))
            t += 1
        if pos.deck_count == cards_left and not pos.is_over():
            out.append(pos)
        i += 1
    return out


def stall_values(position: Position) -> dict[str, Any]:
    """Exact perfect-information values of one endgame under four stall budgets (discard-pile
    draws allowed to the mover / the opponent): none, one for the mover, one for the opponent,
    one each. Also whether the best turn with one stall for the mover is a stall, and the
    current score difference (mover minus opponent)."""
    from lcanalysis.search import solve_perfect

    if not isinstance(position, Position):
        raise ValueError(f"stall_values needs a full position (both hands and the draw pile's cards), "
                         f"got {type(position).__name__}")
    me = position.to_move

    def budget(mine: int, theirs: int) -> tuple[int, int]:
        return (mine, theirs) if me == 0 else (theirs, mine)

    none = solve_perfect(position, stalls=budget(0, 0))
    mine = solve_perfect(position, stalls=budget(1, 0))
    theirs = solve_perfect(position, stalls=budget(0, 1))
    both = solve_perfect(position, stalls=budget(1, 1))
    best = mine.best.move if mine.best else ""
    return {"cards_left": position.deck_count, "standing": position.score(me) - position.score(1 - me),
            "v_none": none.value, "v_mover_stalls": mine.value, "v_opponent_stalls": theirs.value,
            "v_both_stall": both.value, "best_with_stall": best, "best_is_stall": not best.endswith("/D")}


#: the columns the stalling study's summaries read
STUDY_COLUMNS = ("cards_left", "standing", "v_none", "v_mover_stalls", "v_opponent_stalls", "v_both_stall")

#: the columns of ``stalling_study``'s table, one row a position
COLUMNS = ["position", "cards_left", "standing", "v_none", "v_mover_stalls", "v_opponent_stalls", "v_both_stall",
           "best_with_stall", "best_is_stall"]


def stalling_study(n: int | Sequence[int] = 50, cards_left: Sequence[int] = (2, 3), seed: int = 0,
                   progress: bool = False, out: str | None = None, allow_code_change: bool = False) -> Any:
    """``stall_values`` for ``n`` endgames from heuristic play for each number of cards left
    (a list: ``n`` for each; the positions for different counts come from different deals).
    One row per position. ``out``: a file each row is written to as it is solved; a run stopped
    (Ctrl-C) and started again with the same arguments solves only the positions missing from
    it (another file's settings are refused, and so is a file other code wrote unless
    ``allow_code_change``), and the table is the same as an unbroken run's."""
    from lcanalysis.studies.study_file import PLAY_CODE, simulation_file

    counts = [cards_left] if isinstance(cards_left, int) else list(cards_left)
    ns = [n] * len(counts) if isinstance(n, int) else list(n)
    if len(ns) != len(counts):  # zip dropped the counts without an n: cards_left=[2, 3], n=[5] gave only 2
        raise ValueError(f"stalling_study: n must be one count or one for each of cards_left {counts}, got {n!r}")
    seed = check_seed("stalling_study: seed", seed, most=None)
    # the endgames with d cards left, reached (together) when one of them is first solved: a finished file reaches none
    endgames = functools.cache(lambda d: endgame_positions(ns[counts.index(d)], d, seed * 10 + d))

    def solved(key: tuple[int, int]) -> dict[str, Any]:
        d, i = key
        p = endgames(d)[i]
        return {"index": i, "position": p.to_string(), **stall_values(p)}

    # the file's rows: the table's columns and ``index``, the position's number among those with its cards left
    kept = simulation_file("stalling study", ["index", *COLUMNS], ("cards_left", "index"), ("n", "cards_left", "seed"),
                           PLAY_CODE, __file__, bools=("best_is_stall",))
    return kept.kept_table(out, {"n": ns, "cards_left": counts, "seed": seed},
                           [(d, i) for d, k in zip(counts, ns) for i in range(k)], solved, COLUMNS, progress,
                           allow_code_change, desc="solving endgames")


def stalling_summary(study: Any) -> dict[str, Estimate]:
    """What one stall is worth: the mover's gain from being allowed one, what the opponent's
    costs the mover, the change when both may stall, and how often the best turn is a stall."""
    study = study_table("stalling_summary", study, STUDY_COLUMNS, "stalling_study")
    gain = (study["v_mover_stalls"] - study["v_none"]).to_numpy()
    cost = (study["v_none"] - study["v_opponent_stalls"]).to_numpy()
    both = (study["v_both_stall"] - study["v_none"]).to_numpy()
    return {
        "mover's stall: gain (points)": Estimate.of(gain),
        "opponent's stall: cost to the mover (points)": Estimate.of(cost),
        "both may stall once: change (points)": Estimate.of(both),
        "mover's stall changes the value": Estimate.proportion(gain > 1e-9),
        "opponent's stall changes the value": Estimate.proportion(cost > 1e-9),
    }


def stall_gain_by_standing(study: Any) -> Any:
    """By cards left, and by whether the mover is behind, level or ahead on the table now: the
    mover's gain from one stall and the share of positions where it helps, with standard errors."""
    import pandas as pd

    study = study_table("stall_gain_by_standing", study, STUDY_COLUMNS, "stalling_study")

    rows = []
    gain = study["v_mover_stalls"] - study["v_none"]
    for d in sorted(study["cards_left"].unique()):
        for name, mask in (("behind", study["standing"] < 0), ("level", study["standing"] == 0),
                           ("ahead", study["standing"] > 0)):
            sel = mask & (study["cards_left"] == d)
            if not sel.any():
                continue
            e = Estimate.of(gain[sel].to_numpy())
            p = Estimate.proportion((gain[sel] > 1e-9).to_numpy())
            rows.append({"cards left": int(d), "mover is": name, "positions": e.n, "mean gain": e.mean,
                         "s.e.": e.stderr, "share where a stall helps": p.mean, "share s.e.": p.stderr})
    return pd.DataFrame(rows)


def stalling_by_cards_left(study: Any) -> dict[str, dict[str, Estimate]]:
    """``stalling_summary`` for each number of cards left."""
    study = study_table("stalling_by_cards_left", study, STUDY_COLUMNS, "stalling_study")
    return {f"{int(d)} cards left": stalling_summary(part) for d, part in study.groupby("cards_left")}


def stalling_table(study: Any) -> Any:
    """``stalling_by_cards_left`` as one table: for each number of cards left, each estimate with
    its standard error and 95% interval (the notebook built it with a comprehension of its own)."""
    import pandas as pd

    from lcanalysis.studies.estimate import estimates_frame

    return pd.concat({d: estimates_frame(s) for d, s in stalling_by_cards_left(study).items()})
