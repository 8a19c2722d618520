"""The computations behind the notebooks: decision analysis with rollouts, first-player and
match simulations, opening-a-colour and wager tables.

Notebooks and explorers hold no logic: every number they show comes from a function here (or
elsewhere in ``lcanalysis``), so the tests check the same numbers. Every estimate carries its
standard error (``Estimate``).

Regenerate the files in ``data/`` with ``python -m lcanalysis.experiments data`` (see
``data/README.md`` for one command per file and the larger published parameters).
"""

from __future__ import annotations

import json
import math
import os
import sys
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from itertools import pairwise
from typing import Any

import numpy as np

from .analysis import Analysis, MoveValue
from .moves import Move
from .notation import read_position
from .position import Position, PositionError
from .rules import Rules
from .view import View

Source = str | dict | Position | View


# --- estimates with their uncertainty ----------------------------------------------------------


@dataclass(frozen=True)
class Estimate:
    """A sample mean with its standard error and sample size."""

    mean: float
    stderr: float
    n: int

    @classmethod
    def of(cls, values: Iterable[float]) -> Estimate:
        x = np.asarray(list(values) if not isinstance(values, np.ndarray) else values, dtype=float)
        if x.size == 0:
            return cls(math.nan, math.nan, 0)
        se = float(x.std(ddof=1) / math.sqrt(x.size)) if x.size > 1 else math.nan
        return cls(float(x.mean()), se, int(x.size))

    @classmethod
    def proportion(cls, hits: Iterable[bool]) -> Estimate:
        x = np.asarray(list(hits) if not isinstance(hits, np.ndarray) else hits, dtype=float)
        if x.size == 0:
            return cls(math.nan, math.nan, 0)
        p = float(x.mean())
        return cls(p, math.sqrt(max(p * (1 - p), 0.0) / x.size), int(x.size))

    @property
    def ci95(self) -> tuple[float, float]:
        return (self.mean - 1.96 * self.stderr, self.mean + 1.96 * self.stderr)

    def __str__(self) -> str:
        return f"{self.mean:+.2f} ± {self.stderr:.2f} (n={self.n})"

    def __format__(self, spec: str) -> str:
        if not spec:
            return str(self)
        return f"{format(self.mean, spec)} ± {format(self.stderr, spec.lstrip('+'))}"


def estimates_frame(estimates: dict[str, Estimate], digits: int = 3) -> Any:
    """A table of named estimates: mean, standard error, 95% interval, sample size."""
    import pandas as pd

    return pd.DataFrame([{"quantity": k, "estimate": round(e.mean, digits), "s.e.": round(e.stderr, digits),
                          "95% low": round(e.ci95[0], digits), "95% high": round(e.ci95[1], digits), "n": e.n}
                         for k, e in estimates.items()]).set_index("quantity")


# --- the decision explorer's analysis ----------------------------------------------------------


def as_position_or_view(source: Source) -> Position | View:
    """Read anything the explorer accepts (what ``notation.read_position`` reads, or
    ``example:NAME`` for a built-in example); raises ``PositionError`` with a clear message."""
    if isinstance(source, str) and source.strip().startswith("example:"):
        from .cli import UsageError, example_text

        try:
            source = example_text(source.strip().split(":", 1)[1])
        except UsageError as exc:
            raise PositionError(str(exc)) from None
    return read_position(source)  # type: ignore[arg-type]


def mover_view(obj: Position | View) -> View:
    """The view of the player to move (the question is always "what should *I* play")."""
    if isinstance(obj, Position):
        return obj.view(obj.to_move)
    if obj.viewer != obj.to_move:
        raise PositionError(
            f"this view belongs to player {obj.viewer} but player {obj.to_move} is to move: "
            "only the player to move can be advised"
        )
    return obj


def _check_playable(view: View) -> None:
    if view.deck_count == 0:
        raise PositionError("the draw pile is empty: the round is over, there is no turn to analyze")
    if view.phase != "place":
        raise PositionError("the position is in the draw step: give a position where a whole turn is to be played")


def legal_moves(view: View) -> list[Move]:
    """Legal whole turns of the mover in a view (they do not depend on the hidden cards)."""
    _check_playable(view)
    unseen = view.unseen()
    u = view.opponent_unknown
    return view.complete(unseen[:u], unseen[u:]).legal_moves()


def _rollout_values(view: View, moves: Sequence[Move], worlds: int, seed: int) -> np.ndarray:
    from .agents import _fast as F
    from .agents import view_state

    base, pool, u, opp = view_state(view)
    cands = np.array([m.code(view.colors) for m in moves], dtype=np.int32)
    values = np.empty((len(cands), worlds), dtype=np.float64)
    F.flat_mc(base, pool, u, opp, cands, 0, int(worlds), int(seed), F.HEURISTIC_PARAMS, F.HEURISTIC_PARAMS, values)
    return values


def rollout_analysis(source: Source, worlds: int = 100, seed: int = 0, keep_samples: bool = True) -> Analysis:
    """Every legal turn of the mover ranked by the mean final score difference over ``worlds``
    sampled deals of the unseen cards, both sides then played out by the heuristic agent.

    The same worlds are used for every turn (common random numbers). ``stderr`` is the standard
    error over worlds; ``extra["samples"]`` holds the per-world outcomes when ``keep_samples``.
    """
    if worlds < 2:
        raise ValueError(f"worlds must be at least 2 to give a standard error, got {worlds}")
    view = mover_view(as_position_or_view(source))
    moves = legal_moves(view)
    values = _rollout_values(view, moves, worlds, seed)
    out = []
    for m, row in zip(moves, values):
        est = Estimate.of(row)
        out.append(MoveValue(move=str(m), value=est.mean, stderr=est.stderr, exact=False,
                             reason=f"heuristic rollouts over {worlds} worlds",
                             extra={"samples": row.copy()} if keep_samples else {}))
    return Analysis(moves=out, kind="rollout estimate (heuristic play-outs)", exact=False,
                    method=f"flat Monte Carlo, {worlds} worlds, seed {seed}", splits=None)


def move_outcomes(source: Source, move: str | Move, worlds: int = 200, seed: int = 0) -> np.ndarray:
    """Final score differences (mover minus opponent) after ``move`` in ``worlds`` sampled worlds."""
    view = mover_view(as_position_or_view(source))
    mv = move if isinstance(move, Move) else Move.parse(str(move), view.colors)
    legal = legal_moves(view)
    if mv not in legal:
        unseen = view.unseen()
        u = view.opponent_unknown
        reason = view.complete(unseen[:u], unseen[u:]).why_illegal(mv)
        raise PositionError(f"{mv} is not legal here: {reason}")
    return _rollout_values(view, [mv], worlds, seed)[0]


def solver_available() -> bool:
    """True when the exact endgame solver (``lcanalysis.search.solve``) is installed."""
    try:
        from .search import solve  # noqa: F401
    except ImportError:
        return False
    return True


def advisor_available() -> bool:
    try:
        from .advisor import advise  # noqa: F401
    except ImportError:
        return False
    return True


def analyze(source: Source, time_budget: float = 1.0, seed: int = 0, worlds: int | None = None) -> Analysis:
    """The explorer's Analyze button: the advisor when installed (``lcanalysis.advisor.advise``),
    otherwise heuristic rollouts (``rollout_analysis``) with ``worlds`` sampled worlds
    (default: about 60 worlds per second of ``time_budget``, at least 20)."""
    obj = as_position_or_view(source)
    view = mover_view(obj)
    _check_playable(view)
    if worlds is None and advisor_available():
        from .advisor import advise

        return advise(obj, time_budget=time_budget, seed=seed)
    n = worlds if worlds is not None else max(20, int(60 * time_budget))
    return rollout_analysis(view, worlds=n, seed=seed)


def endgame_lines(position: Position, move: str | Move, max_stalls: int = 0, limit: int = 6) -> list[dict[str, Any]]:
    """The solver's principal lines after ``move`` in a full position: one line per card the
    move can draw (with its probability), each continued by both players' best turns, later
    draws taken from the top of the remaining pile. Needs ``lcanalysis.search.solve``.

    Returns dicts ``{"draw", "probability", "value", "line"}`` (value for the original mover).
    """
    from .search import solve

    if not isinstance(position, Position):
        raise PositionError("principal lines need a full position (both hands and the deck's cards)")
    mv = move if isinstance(move, Move) else Move.parse(str(move), position.colors)
    why = position.why_illegal(mv)
    if why:
        raise PositionError(f"{mv} is not legal here: {why}")
    me = position.to_move
    if mv.draws_from_deck:
        draws = [(str(c), float(p)) for c, p in position.deck_draw_outcomes()]
    else:
        draws = [("", 1.0)]
    out = []
    for card, p in draws:
        pos = position.copy()
        pos.push(mv, drawn=card or None)
        line = [str(mv) + (f" (draws {card})" if card else "")]
        value = float(pos.value_for_mover()) * (1 if pos.to_move == me else -1)
        first = True
        while not pos.is_over() and len(line) < limit:
            ana = solve(pos, max_stalls=max_stalls)
            if ana.best is None:
                break
            v = ana.best.value * (1 if pos.to_move == me else -1)
            if first:
                value, first = v, False
            top = pos.deck[0] if pos.deck else None
            line.append(ana.best.move + (f" (draws {top})" if top is not None and ana.best.move.endswith("/D") else ""))
            pos.push(ana.best.move)
        out.append({"draw": card, "probability": p, "value": value, "line": " ".join(line)})
    return out


# --- first player's advantage and the three-round match ------------------------------------------


def _play_out(pos: Position, seed: int) -> tuple[int, int]:
    """Both seats played by the heuristic agent (compiled) to the end of the round."""
    from .agents import _fast as F
    from .core import kernel as K

    s = pos.state.copy()
    F.play_round(s, np.array([1, 1], dtype=np.int32), F.HEURISTIC_PARAMS, F.HEURISTIC_PARAMS, int(seed))
    return int(K.player_score(s, 0)), int(K.player_score(s, 1))


def swapped(pos: Position) -> Position:
    """The same deal with the two hands exchanged (a duplicate deal): the starter gets the other hand."""
    return Position.from_parts([pos.hand(1), pos.hand(0)], deck=pos.deck, rules=pos.rules, to_move=pos.to_move)


def first_player_rounds(deals: int = 200, seed: int = 0, colors: int = 5) -> Any:
    """Play each of ``deals`` deals twice with the hands swapped, heuristic agent on both seats,
    starter always seat 0. One row per deal: the starter's score minus the other's in each
    playing and their mean (the deal's luck cancels in ``starter_edge``)."""
    import pandas as pd

    rules = Rules(colors=colors)
    rows = []
    for i in range(deals):
        pos = Position.deal(seed=seed * 1_000_003 + i, rules=rules, starter=0)
        a = _play_out(pos, seed=i)
        b = _play_out(swapped(pos), seed=i)
        rows.append({"deal": i, "starter_a": a[0], "other_a": a[1], "starter_b": b[0], "other_b": b[1],
                     "diff_a": a[0] - a[1], "diff_b": b[0] - b[1],
                     "starter_edge": ((a[0] - a[1]) + (b[0] - b[1])) / 2})
    return pd.DataFrame(rows)


def first_player_summary(rounds: Any) -> dict[str, Estimate]:
    """The first player's edge per round (points, duplicate-deal mean), their chance of winning
    a round, and the spread of a single round's difference."""
    diffs = np.concatenate([rounds["diff_a"].to_numpy(), rounds["diff_b"].to_numpy()])
    return {
        "edge (points per round)": Estimate.of(rounds["starter_edge"].to_numpy()),
        "edge, no duplicate (points)": Estimate.of(diffs),
        "starter wins the round": Estimate.proportion(diffs > 0),
        "round is drawn": Estimate.proportion(diffs == 0),
    }


def simulate_matches(matches: int = 100, seed: int = 0, rounds: int = 3, colors: int = 5) -> Any:
    """Play ``matches`` matches of ``rounds`` rounds (heuristic agent on both seats, seat 0 starts
    round 1, later rounds started by the leader as the rules say). One row per match."""
    import pandas as pd

    from .match import Match

    rules = Rules(colors=colors, rounds=rounds)
    rows = []
    for i in range(matches):
        m = Match(rules=rules, first_starter=0)
        starters = []
        for r in range(rounds):
            pos = m.new_round(seed=(seed * 1_000_003 + i) * 7 + r)
            starters.append(pos.to_move)
            m.record(_play_out(pos, seed=i * 7 + r), starter=pos.to_move)
        w = m.winner()
        rows.append({"match": i, "total_0": m.totals[0], "total_1": m.totals[1],
                     "first_round_diff": m.round_scores[0][0] - m.round_scores[0][1],
                     **{f"starter_{r + 1}": st for r, st in enumerate(starters)},
                     "winner": -1 if w is None else w})
    return pd.DataFrame(rows)


def match_summary(matches: Any) -> dict[str, Estimate]:
    """The round-1 starter's (seat 0) chance to win the match and to win round 1, and the edge in points."""
    diff = (matches["total_0"] - matches["total_1"]).to_numpy()
    decided = matches["winner"].to_numpy() >= 0
    return {
        "round-1 starter wins round 1": Estimate.proportion(matches["first_round_diff"].to_numpy() > 0),
        "round-1 starter wins the match": Estimate.proportion(matches["winner"].to_numpy() == 0),
        "match decided (not drawn)": Estimate.proportion(decided),
        "match edge (points)": Estimate.of(diff),
        "round-1 starter starts round 2": Estimate.proportion(matches["starter_2"].to_numpy() == 0)
        if "starter_2" in matches else Estimate(math.nan, math.nan, 0),
    }


def colours_opened_estimates(colours: Any, min_rounds: int = 30) -> dict[str, Estimate]:
    """``score_by_colours_opened`` as named estimates (counts seen in at least ``min_rounds`` rounds)."""
    table = score_by_colours_opened(colours)
    return {f"{int(r['colours opened'])} colours ({int(r['rounds'])} rounds)":
            Estimate(float(r["mean round score"]), float(r["s.e."]), int(r["rounds"]))
            for _, r in table.iterrows() if r["rounds"] >= min_rounds}


# --- opening a colour and wagers -----------------------------------------------------------------


def opening_table(held: Sequence[Sequence[int]], draws: Sequence[int], wagers: int = 0,
                  unseen_total: int = 52) -> Any:
    """Canonical model (exact means): the value of opening a colour holding the numbers ``held``
    (each an iterable of face values) with ``wagers`` wagers, for each number of draws left.
    Columns: held, sum, cards, draws, mean, p_break_even, p_positive."""
    import pandas as pd

    from .wager import wager_distribution

    rows = []
    for h in held:
        for k in draws:
            res = wager_distribution(hand=list(h), hand_wagers=wagers, draws=int(k), unseen_total=unseen_total,
                                     exact=False)
            o = res.outcome(wagers)
            rows.append({"held": " ".join(map(str, h)), "sum": sum(h), "cards": len(h), "draws": int(k),
                         "mean": float(o.mean), "p_break_even": float(o.p_break_even),
                         "p_positive": float(o.p_positive)})
    return pd.DataFrame(rows)


def wager_grid(draws: Sequence[int], sums: Sequence[int], cards: int = 3, unseen_total: int = 52) -> Any:
    """For holdings of ``cards`` numbers with each total in ``sums`` (the most even spread of
    values that gives that total) and each number of draws: the canonical model's mean for 0..3
    wagers, the chance of breaking even with 0 and 1 wager, and the value of one extra wager."""
    import pandas as pd

    from .wager import wager_distribution

    rows = []
    for total in sums:
        h = holding_with_sum(cards, total)
        if h is None:
            continue
        for k in draws:
            res = wager_distribution(hand=h, hand_wagers=3, draws=int(k), unseen_total=unseen_total, exact=False)
            means = [float(res.outcome(j).mean) for j in range(4)]
            rows.append({"held": " ".join(map(str, h)), "sum": total, "draws": int(k),
                         **{f"mean_{j}": means[j] for j in range(4)},
                         "p_break_even_0": float(res.outcome(0).p_break_even),
                         "p_break_even_1": float(res.outcome(1).p_break_even),
                         "wager_value": means[1] - means[0]})
    return pd.DataFrame(rows)


def holding_with_sum(cards: int, total: int) -> list[int] | None:
    """``cards`` distinct face values 2..10 adding up to ``total``, as evenly spread as possible
    (None when impossible). ``holding_with_sum(3, 24) == [7, 8, 9]``."""
    from itertools import combinations

    best = None
    for combo in combinations(range(2, 11), cards):
        if sum(combo) == total:
            spread = max(combo) - min(combo)
            if best is None or spread < best[0]:
                best = (spread, list(combo))
    return None if best is None else best[1]


def simulated_colours(rounds: int = 300, seed: int = 0, colors: int = 5) -> Any:
    """Bot-vs-bot rounds (``wager_sim``'s heuristic bot on both seats), seen at the deal by the
    starting player: one row per colour with the numbers and wagers held at the deal, whether the
    player went on to open the colour, and what the expedition finally scored."""
    import pandas as pd

    from . import wager_sim as W

    rows, _scores = W.snapshot_rounds(rounds, snap_turn=0, seed=seed, colors=colors)
    held = [W._values(int(m)) for m in rows[:, W.F_HM]]
    final = rows[:, W.F_FINAL].astype(int)
    opened = (rows[:, W.F_FINAL_W] > 0) | (final != 0)
    return pd.DataFrame({
        "round": np.arange(len(rows)) // colors,
        "colour": rows[:, W.F_C],
        "held_numbers": [len(h) for h in held],
        "held_sum": [sum(h) for h in held],
        "held_wagers": rows[:, W.F_HW],
        "opened": opened,
        "final": final,
    })


def colour_value_fit(colours: Any) -> dict[str, Any]:
    """Test the strategy rule "a colour is worth about 22 points plus 60% of the numbered cards
    held in it" (reported by strategy writing): regress the final score of each colour the player
    opened on the sum of its numbers held at the deal (``simulated_colours`` rows). Returns the
    intercept and slope with standard errors, and the residual spread."""
    sel = colours[colours["opened"]]
    return linear_fit(sel["held_sum"].to_numpy(), sel["final"].to_numpy())


def value_by_held_sum(colours: Any, edges: Sequence[int] = (0, 1, 10, 15, 20, 25, 30, 55)) -> Any:
    """By the sum of the numbers held at the deal: how often the colour was opened and what an
    opened colour scored in the end, each with its standard error."""
    import pandas as pd

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

    per_round = colours.groupby("round").agg(opened=("opened", "sum"), score=("final", "sum"))
    out = []
    for k, part in per_round.groupby("opened"):
        e = Estimate.of(part["score"].to_numpy())
        out.append({"colours opened": int(k), "rounds": e.n, "mean round score": e.mean, "s.e.": e.stderr})
    return pd.DataFrame(out)


def linear_fit(x: np.ndarray, y: np.ndarray) -> dict[str, Any]:
    """Least squares ``y = a + b x`` with the standard errors of ``a`` and ``b``."""
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
    return {"intercept": Estimate(float(coef[0]), math.sqrt(cov[0, 0]), n),
            "slope": Estimate(float(coef[1]), math.sqrt(cov[1, 1]), n),
            "residual_sd": math.sqrt(s2)}


def wager_models_vs_play(rounds: int = 200, snap_turn: int = 10, seed: int = 0, n_mc: int = 300) -> Any:
    """The canonical and richer wager models' predicted expedition scores against what the bots
    really scored (``wager_sim.compare_models``), as a table with bias and its standard error."""
    from .wager_sim import compare_models

    df, _meta = compare_models(rounds=rounds, snap_turn=snap_turn, seed=seed, n_mc=n_mc)
    return df


# --- stalling in the endgame ------------------------------------------------------------------


def endgame_positions(n: int, cards_left: int, seed: int = 0, colors: int = 5) -> list[Position]:
    """``n`` full positions with ``cards_left`` cards in the draw pile, reached from random deals
    by the heuristic agent playing both seats (each seeing only its own view)."""
    from .agents import make_agent

    agent = make_agent("heuristic")
    rules = Rules(colors=colors)
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
    from .search import solve_perfect

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


def stalling_study(n: int = 50, cards_left: Sequence[int] = (2, 3), seed: int = 0,
                   progress: bool = False) -> Any:
    """``stall_values`` for ``n`` endgames from heuristic play for each number of cards left
    (a list: ``n`` for each; the positions for different counts come from different deals).
    One row per position."""
    import pandas as pd

    counts = [cards_left] if isinstance(cards_left, int) else list(cards_left)
    ns = [n] * len(counts) if isinstance(n, int) else list(n)
    from tqdm.auto import tqdm

    positions = [p for d, k in zip(counts, ns) for p in endgame_positions(k, d, seed * 10 + d)]
    return pd.DataFrame([{"position": p.to_string(), **stall_values(p)}
                         for p in tqdm(positions, desc="solving endgames", disable=not progress)])


def stalling_summary(study: Any) -> dict[str, Estimate]:
    """What one stall is worth: the mover's gain from being allowed one, what the opponent's
    costs the mover, the change when both may stall, and how often the best turn is a stall."""
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
    return {f"{int(d)} cards left": stalling_summary(part) for d, part in study.groupby("cards_left")}


# --- data files ----------------------------------------------------------------------------------

DATA_COMMANDS = {
    "positions": "python -m lcanalysis.experiments data --only positions",
    "wager_grid": "python -m lcanalysis.experiments data --only wager_grid",
    "first_player_rounds": "python -m lcanalysis.experiments data --only first_player_rounds --deals 20000",
    "matches": "python -m lcanalysis.experiments data --only matches --matches 10000",
    "colours": "python -m lcanalysis.experiments data --only colours --rounds 20000",
    "wager_models": "python -m lcanalysis.experiments data --only wager_models --rounds 2000 --mc 2000",
    "stalling": "python -m lcanalysis.experiments data --only stalling --positions 400",
}


def write_data(root: str = "data", only: Sequence[str] | None = None, deals: int = 20000, matches: int = 10000,
               seed: int = 0, rounds: int | None = None, mc: int = 2000, positions: int = 400) -> list[str]:
    """Write the files the notebooks read; returns the paths written. Each file gets a ``.cmd``
    sidecar with the command that regenerates it."""
    from .cli import EXAMPLES, example_text

    written = []

    def side(path: str, key: str) -> None:
        with open(path + ".cmd", "w", encoding="utf-8") as fh:
            fh.write(DATA_COMMANDS[key] + "\n")
        written.append(path)

    want = set(only or DATA_COMMANDS)
    if "positions" in want:
        d = os.path.join(root, "positions")
        os.makedirs(d, exist_ok=True)
        for name in EXAMPLES:
            path = os.path.join(d, f"{name}.json")
            with open(path, "w", encoding="utf-8") as fh:
                fh.write(json.dumps(json.loads(example_text(name)), indent=1) + "\n")
            side(path, "positions")
        path = os.path.join(d, "positions.txt")
        with open(path, "w", encoding="utf-8") as fh:
            fh.writelines(Position.deal(seed=s).view(0).to_string() + "\n" for s in range(5))
        side(path, "positions")
    if "wager_grid" in want:
        path = os.path.join(root, "tables", "wager_grid.csv")
        os.makedirs(os.path.dirname(path), exist_ok=True)
        wager_grid(draws=range(0, 23, 2), sums=range(9, 28), cards=3).to_csv(path, index=False, float_format="%.4f")
        side(path, "wager_grid")
    if "first_player_rounds" in want:
        path = os.path.join(root, "simulated", "first_player_rounds.csv")
        os.makedirs(os.path.dirname(path), exist_ok=True)
        first_player_rounds(deals=deals, seed=seed).to_csv(path, index=False)
        side(path, "first_player_rounds")
    if "matches" in want:
        path = os.path.join(root, "simulated", "matches.csv")
        os.makedirs(os.path.dirname(path), exist_ok=True)
        simulate_matches(matches=matches, seed=seed).to_csv(path, index=False)
        side(path, "matches")
    if "colours" in want:
        path = os.path.join(root, "simulated", "colours.csv")
        os.makedirs(os.path.dirname(path), exist_ok=True)
        simulated_colours(rounds=rounds or 20000, seed=seed).to_csv(path, index=False)
        side(path, "colours")
    if "wager_models" in want:
        path = os.path.join(root, "simulated", "wager_models_vs_play.csv")
        os.makedirs(os.path.dirname(path), exist_ok=True)
        wager_models_vs_play(rounds=rounds or 2000, snap_turn=10, seed=seed, n_mc=mc).to_csv(
            path, index=False, float_format="%.4f")
        side(path, "wager_models")
    if "stalling" in want:
        path = os.path.join(root, "simulated", "stalling.csv")
        os.makedirs(os.path.dirname(path), exist_ok=True)
        stalling_study(n=[positions, positions, positions // 5], cards_left=[2, 3, 4], seed=seed,
                       progress=True).to_csv(path, index=False, float_format="%.6g")
        side(path, "stalling")
    return written


def main(argv: Sequence[str] | None = None) -> int:
    import argparse

    ap = argparse.ArgumentParser(prog="python -m lcanalysis.experiments", description=__doc__.splitlines()[0])
    sub = ap.add_subparsers(dest="command", required=True)
    p = sub.add_parser("data", help="regenerate the files in data/")
    p.add_argument("--root", default="data")
    p.add_argument("--only", nargs="+", choices=sorted(DATA_COMMANDS))
    p.add_argument("--deals", type=int, default=20000)
    p.add_argument("--matches", type=int, default=10000)
    p.add_argument("--rounds", type=int, default=None, help="rounds for colours (20000) or wager_models (2000)")
    p.add_argument("--mc", type=int, default=2000, help="Monte Carlo samples per wager-model prediction")
    p.add_argument("--positions", type=int, default=400,
                   help="stalling: endgames with 2 and 3 cards left (a fifth as many with 4)")
    p.add_argument("--seed", type=int, default=0)
    args = ap.parse_args(argv)
    for path in write_data(args.root, args.only, args.deals, args.matches, args.seed, args.rounds, args.mc,
                           args.positions):
        print(path)
    return 0


if __name__ == "__main__":
    sys.exit(main())
