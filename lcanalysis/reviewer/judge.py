"""Judging one turn: the advisor's best, the played, reference and second turns paired in fresh
worlds, or the endgame solver's and search's exact values near the end (``lcanalysis.reviewer``'s
docstring, "Decisions"). A job is what a worker process receives."""

from __future__ import annotations

import copy
import functools
import math
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from lcanalysis.advisor import advise, judging_budget
from lcanalysis.analysis import Analysis, tied_to_zero
from lcanalysis.core import policy as P
from lcanalysis.game.cards import Card
from lcanalysis.game.moves import Move
from lcanalysis.game.records import RoundRecord
from lcanalysis.game.view import View
from lcanalysis.match_equity import match_values
from lcanalysis.match_equity.paired import paired_difference
from lcanalysis.reviewer.luck import draw_luck
from lcanalysis.reviewer.settings import (
    ADVISOR_PLAYOUT_POLICY,
    ADVISOR_SHARE,
    ENDGAME_CARDS,
    ENDGAME_SPLITS,
    HAND_MODEL,
    LUCK_HAND_MODEL,
    LUCK_SHARE,
    MARK_SIGMAS,
    MIN_WORLDS,
    PAIR_SHARE,
    PLAYOUT_PARAMS,
    PLAYOUT_RATE,
    SCHEDULE,
    SEARCH_CARDS,
    SEARCH_FLOOR,
    STREAMS,
    decision_seed,
)
from lcanalysis.rollouts import ROLLOUTS_PER_MS, Rollouts, some_state
from lcanalysis.search import endgame_analysis

# --- one decision -----------------------------------------------------------------------------------


@dataclass
class Job:
    round: int
    index: int
    player: int
    view: View
    played: str
    drawn: str | None  # the card the turn drew from the deck, when the record knows it
    time: float
    seed: int
    analyse: bool  # False: only the luck of the draw (a player not under review)
    pile: list[Card] | None = None  # the draw pile before the turn, in a full-deal record
    search_floor: float = SEARCH_FLOOR  # the advisor's least budget with SEARCH_CARDS cards or fewer
    #: the view's history as kernel move codes (a slice of the round's, ``round_codes``): a job is
    #: pickled to a worker with these 2 bytes a turn instead of a ``Move`` object a turn (218 KB a job
    #: at turn 10,000, the bytes sent growing with the square of the record's length), and the
    #: worker rebuilds the history from them (``__setstate__``); None: the history goes whole
    history_codes: np.ndarray | None = None

    def __getstate__(self) -> dict[str, Any]:
        state = self.__dict__.copy()
        if self.history_codes is not None and self.view.history:
            view = copy.copy(self.view)  # (shallow: the job's own view keeps its history)
            view.history = []
            state["view"] = view
        return state

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__dict__.update(state)
        codes = self.history_codes
        if codes is not None and len(codes) and not self.view.history:
            self.view.history = _moves_of(codes, self.view.colors)


@functools.cache
def _move_of(code: int, colors: int) -> Move:
    """One ``Move`` object a turn code: a rebuilt history shares them (a round has few distinct turns)."""
    return Move.from_code(code, colors)


def _moves_of(codes: np.ndarray, colors: int) -> list[Move]:
    return [_move_of(c, colors) for c in codes.tolist()]


def round_codes(rec: RoundRecord) -> tuple[list[Move], np.ndarray]:
    """The round's whole history (its start's, then its turns') as moves and as kernel codes."""
    nc = rec.rules.colors
    moves = [*rec.start.history, *(t.move for t in rec.turns)]
    return moves, np.array([m.code(nc) for m in moves], dtype=np.uint16)


def _reference_code(view: View) -> int:
    return int(P.policy_move(some_state(view), P.HEURISTIC_PARAMS))


def review_turn(job: Job) -> dict[str, Any]:
    """Everything the review says about one turn; runs in a worker."""
    t0 = time.perf_counter()
    view = job.view
    nc = view.colors
    played = Move.parse(job.played, nc)
    out: dict[str, Any] = {"round": job.round, "index": job.index, "player": job.player,
                           "played": str(played), "deck": view.deck_count, "analysed": job.analyse}
    if job.analyse:
        out.update(_decision(view, played, job))
    if played.draws_from_deck and job.drawn is not None:
        worlds = max(MIN_WORLDS, int(job.time * LUCK_SHARE * 1000 * ROLLOUTS_PER_MS / 2))
        luck = draw_luck(view, played, job.drawn, worlds, seed=decision_seed(job.seed, job.round, job.index) + 2,
                         pile=job.pile, hand_model=LUCK_HAND_MODEL)
        out.update(drawn=job.drawn, luck=luck["luck"], luck_stderr=luck["stderr"], luck_worlds=luck["worlds"],
                   value_before_draw=luck["before"], value_after_draw=luck["after"])
    out["seconds"] = time.perf_counter() - t0
    return out


def kept_best(means: Sequence[float] | np.ndarray, chosen: int,
              difference: Callable[[int, int], tuple[float, float]]) -> tuple[int, float, float]:
    """The best turn a review measures losses against, and by how much it beat the advisor's choice: the
    advisor's choice (``chosen``, picked in the advisor's own play-outs) stays the best unless the turn with
    the highest mean in the fresh worlds (``means``) beats it there by more than ``MARK_SIGMAS`` standard
    errors of their paired difference (``difference(a, b)``: the mean of ``a - b`` and its standard error).
    Returns (the best, that margin, its standard error); the margin is (0, 0) when the top turn is the
    choice itself.

    Why: a best picked in the same worlds it is measured in leans high (the noise that lifted it to the
    top is counted as its value), so every loss would be 0 or more. Picked elsewhere and kept, a loss is
    never below zero by more than that much noise, and a played advisor's choice loses nothing."""
    top = int(np.argmax(means))
    if top == chosen:
        return chosen, 0.0, 0.0
    margin, margin_se = difference(top, chosen)
    return (top if margin > MARK_SIGMAS * margin_se else chosen), margin, margin_se


def _decision(view: View, played: Move, job: Job) -> dict[str, Any]:
    nc = view.colors
    seed = decision_seed(job.seed, job.round, job.index)
    ref = Move.from_code(_reference_code(view), nc)
    if view.deck_count <= ENDGAME_CARDS:
        exact = endgame_analysis(view, seed=seed)
        values = {m.move: m.value for m in exact.moves}
        if str(played) in values:
            exact.set_exact_losses()  # (what turn_to_name reads the ties from)
            best = _named(exact)
            spread = max(values.values()) - min(values.values())
            ref_value = values.get(str(ref))
            return {
                "best": best, "advisor_best": best, "loss": tied_to_zero(exact.value - values[str(played)]),
                "loss_stderr": 0.0,
                "forced": len(exact.moves) == 1 or spread < 1e-9, "exact": True,
                "method": f"exact view value ({exact.kind}), bounds {exact.bounds}",
                "value_best": exact.value, "value_best_stderr": 0.0,
                "value_played": values[str(played)], "value_played_stderr": 0.0,
                "reference": str(ref), "value_reference": ref_value,
                "value_reference_stderr": 0.0 if ref_value is not None else None,
                "gain_vs_reference": None if ref_value is None else values[str(played)] - ref_value,
                "gain_vs_reference_stderr": 0.0 if ref_value is not None else None,
                "alternatives": [{"move": m.move, "value": m.value, "loss": tied_to_zero(exact.value - m.value),
                                  "loss_stderr": 0.0, "exact": True, "loss_bound": None} for m in exact.moves[:4]],
                "worlds": int(exact.splits or 0), "advisor_rollouts": 0, "legal": len(exact.moves),
            }
        # the exact solver's bounds leave the played turn out: fall through to the estimate
    budget = judging_budget(view.deck_count, job.time * ADVISOR_SHARE, job.search_floor)
    analysis = advise(view, time_budget=budget, seed=seed, endgame_cards=SEARCH_CARDS,
                      hand_model=HAND_MODEL, streams=STREAMS, schedule=SCHEDULE, playout_rate=PLAYOUT_RATE,
                      playout_policy=ADVISOR_PLAYOUT_POLICY, endgame_splits=ENDGAME_SPLITS)
    if "max_stalls" in analysis.bounds:  # the advisor's endgame search answered: its values are the loss
        searched = _searched_decision(analysis, played, ref, seed)
        if searched is not None:
            return searched
    best = analysis.moves[0].move
    forced = len(analysis.moves) == 1 or analysis.moves[0].value == analysis.moves[-1].value
    # in a match, the advisor's best turn for the match too: chosen in its play-outs, measured in the fresh
    # worlds below, as the best in points is (chosen and measured in the same worlds, it would lean high)
    best_match = next((m.move for m in analysis.moves if m.extra.get("match_loss", 1.0) <= 0.0), None)
    names: list[str] = []
    for m in [best, str(played), str(ref)] + [m.move for m in analysis.moves[1:2]] + [best_match or best]:
        if m not in names:
            names.append(m)
    codes = [Move.parse(m, nc).code(nc) for m in names]
    r = Rollouts(view, codes, seed=seed + 1, params=PLAYOUT_PARAMS)
    worlds = max(MIN_WORLDS, int(job.time * PAIR_SHARE * 1000 * ROLLOUTS_PER_MS / len(codes)))
    r.sample(worlds)
    ia, ip, ir = names.index(best), names.index(str(played)), names.index(str(ref))
    means = r.means()

    def stderr_of(k: int) -> float:
        x = r.samples[k]
        return float(x.std(ddof=1) / math.sqrt(len(x)))

    def diff(a: int, b: int) -> tuple[float, float]:
        return (0.0, 0.0) if a == b else r.difference(a, b)

    ib, margin, margin_se = kept_best(means, ia, diff)  # the advisor's choice, unless clearly beaten there
    loss, loss_se = diff(ib, ip)
    gain, gain_se = diff(ip, ir)
    alternatives: list[dict[str, Any]] = []
    for k, name in enumerate(names):
        lk, sk = diff(ib, k)
        alternatives.append({"move": name, "value": float(means[k]), "loss": lk, "loss_stderr": sk, "exact": False,
                             "loss_bound": None})
    alternatives.sort(key=lambda a: -a["value"])
    return {
        "best": names[ib], "advisor_best": best, "loss": loss, "loss_stderr": loss_se, "forced": forced,
        "exact": False,
        "method": (f"advisor ({analysis.nodes} rollouts, seed {seed}) picks the best; {len(names)} turns "
                   f"played out in {worlds} fresh shared worlds (seed {seed + 1})"
                   + ("" if ib == ia else f"; {names[ib]} beat the advisor's {best} there by {margin:.1f} ± "
                                          f"{margin_se:.1f}")),
        "value_best": float(means[ib]), "value_best_stderr": stderr_of(ib),
        "value_played": float(means[ip]), "value_played_stderr": stderr_of(ip),
        "reference": str(ref), "value_reference": float(means[ir]), "value_reference_stderr": stderr_of(ir),
        "gain_vs_reference": gain, "gain_vs_reference_stderr": gain_se,
        "alternatives": alternatives, "worlds": worlds, "advisor_rollouts": int(analysis.nodes),
        "legal": len(analysis.moves), **_match_loss(view, r, ip, names.index(best_match or best)),
    }


def _match_loss(view: View, r: Rollouts, played: int, chosen: int) -> dict[str, Any]:
    """In a match (the view carries its score), what the played turn (``r``'s turn ``played``) gives up of
    the chance to win the match against the best turn for the match, a fraction (0.07: 7 percentage
    points), as advise's JSON and the tutor keep it; nothing otherwise. The best turn for the match is the
    advisor's (``chosen``: ranked by its own play-outs over every legal turn), unless a turn played out in
    the fresh worlds beats it there by more than ``MARK_SIGMAS`` standard errors, as for the best in
    points; the loss is measured in those fresh worlds, paired with the loss in points (each world's final
    score difference turned into the match equity of the running totals, ``match_equity.match_values``).
    A best picked in the same worlds it is measured in would make every loss 0 or more and lean high."""
    if not view.match:
        return {}
    equity = [np.asarray(x, dtype=np.float64) for x in match_values(r.samples, view)]
    best, _, _ = kept_best([x.mean() for x in equity], chosen,
                           lambda a, b: paired_difference(equity[a], equity[b]))
    loss, loss_se = (0.0, 0.0) if best == played else paired_difference(equity[best], equity[played])
    return {"match_loss": loss, "match_loss_stderr": loss_se, "best_for_match": str(r.move(best))}


def _named(analysis: Analysis) -> str:
    """The best turn as the review names it: the hint's and the tutor's (``Analysis.turn_to_name``), so
    where a deck draw ties exactly with a stall listed first, the deck draw. The losses are the same
    against either (a tie), and ``value_best`` stays the answer's value."""
    return (analysis.turn_to_name() or analysis.moves[0]).move


def _searched_decision(analysis: Analysis, played: Move, ref: Move, seed: int) -> dict[str, Any] | None:
    """A decision judged by the endgame search's own values (exact over every split, or paired
    over its sampled worlds). A turn the search only bounded has a loss of *at least* that much:
    ``loss_bound`` says so. None when the played turn is not among the turns it valued."""
    moves = {m.move: m for m in analysis.moves}
    mp = moves.get(str(played))
    if mp is None or mp.loss is None:
        return None
    mb = analysis.moves[0]
    told = _named(analysis)
    mr = moves.get(str(ref))
    spread = mb.value - min(m.value for m in analysis.moves)
    bounded = mp.upper_bound
    stalls, converged = analysis.bounds["max_stalls"], analysis.bounds.get("converged")
    gain = gain_se = None
    if mr is not None and not bounded and not mr.upper_bound:
        gain = mp.value - mr.value
        # not paired here: the square root of the two variances bounds the paired error from above
        gain_se = 0.0 if analysis.exact else math.hypot(mp.stderr, mr.stderr)
    return {
        "best": told, "advisor_best": told, "loss": float(mp.loss), "loss_stderr": float(mp.loss_stderr or 0.0),
        "forced": len(analysis.moves) == 1 or spread < 1e-9, "exact": bool(analysis.exact and not bounded),
        "loss_bound": "lower" if bounded else None,
        "method": (f"endgame search ({analysis.kind}, {stalls} stall(s) each, "
                   f"{'converged' if converged else 'not converged'}; seed {seed})"
                   + ("; the played turn was only bounded: its loss is at least this" if bounded else "")),
        "value_best": mb.value, "value_best_stderr": mb.stderr,
        "value_played": mp.value, "value_played_stderr": mp.stderr,
        "reference": str(ref), "value_reference": None if mr is None else mr.value,
        "value_reference_stderr": None if mr is None else mr.stderr,
        "gain_vs_reference": gain, "gain_vs_reference_stderr": gain_se,
        # a turn the search only bounded: its value is at most, its loss at least, the figure given
        "alternatives": [{"move": m.move, "value": m.value, "loss": m.loss, "loss_stderr": m.loss_stderr,
                          "exact": bool(analysis.exact and not m.upper_bound),
                          "loss_bound": "lower" if m.upper_bound else None} for m in analysis.moves[:4]],
        "worlds": int(analysis.splits or 0), "advisor_rollouts": 0, "legal": len(analysis.moves),
    }
