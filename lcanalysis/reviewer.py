"""Game review: every decision of a recorded round or match scored for skill, every deck draw for luck.

    >>> import lcanalysis as lc
    >>> rv = lc.review("game.json")          # a record (lcanalysis.game.records)  # doctest: +SKIP
    >>> print(rv.to_text())                   # doctest: +SKIP

Modelled on GNU Backgammon's match analysis (KNOWLEDGE.md "Game analysis as backgammon programs
do it"). All values are in points of the round's final score difference, mover minus opponent,
seen from the view of the player concerned at that moment (docs/spec/interchange.md); in a match
the review says once that they are not chances to win the match (``Review.match_note``).

**Decisions.** For each turn of a reviewed player, from that player's view before the turn:

- the advisor (``lcanalysis.advisor.advise``, ``ADVISOR_SHARE`` of the time per decision, seed
  ``decision_seed(seed, round, index)``) names the **best** turn;
- the advisor's choice, the turn **played**, the **reference** turn (what the heuristic policy
  that plays every rollout would play) and the advisor's second choice are then played out
  together in fresh shared worlds (``Rollouts``, a seed independent of the advisor's,
  ``PAIR_SHARE`` of the time). The advisor's choice stays the **best** turn unless one of the
  others beats it there by more than ``MARK_SIGMAS`` standard errors of their paired difference
  (a weak advisor at a small budget is overruled; ``advisor_best`` keeps its choice). The
  **loss** is the paired mean difference best - played over the fresh worlds and ``loss_stderr``
  the standard error of the paired differences. Fresh worlds keep the advisor's own winner's
  curse out of the loss, so a loss can come out slightly negative when the played turn is as
  good as the best (by at most ``MARK_SIGMAS`` standard errors): it is reported as it is,
  never clipped. A played turn that *is* the best turn has loss 0 exactly;
- with ``ENDGAME_CARDS`` (2) cards or fewer in the draw pile the exact view values of
  ``search.endgame_analysis`` answer instead (every split of the unseen cards enumerated, one
  more discard-pile draw allowed each); ``loss_stderr`` is then 0;
- with ``SEARCH_CARDS`` (4) cards or fewer the advisor hands over to its endgame search when its
  budget allows one stall each or more (``advisor.ENDGAME_NODES_PER_SECOND`` nodes a second of the
  advisor's share, and at least ``SEARCH_FLOOR`` seconds' worth there, twice that with 4 cards:
  ``advisor.judging_budget``; the play-outs also get it should the search still fall short): the
  loss is then the
  search's own, exact when it solved every split (``loss_stderr`` 0), else paired over its
  sampled worlds; a played turn the search only
  bounded (proved below the best in some world without its exact value there: more than
  ``search.endgame.MARGIN`` points below it, or any amount when the budget ended before the
  turns close to the best were filled in) has a loss of at least the amount given, and
  ``loss_bound`` is ``"lower"``;
- a decision is **forced** when it has one legal turn or every turn has the same value; forced
  decisions are listed but neither marked nor counted in the error rate;
- **marks** (``MARKS``): ``inaccuracy`` for a loss of at least 2 points, ``mistake`` from 5,
  ``blunder`` from 10; a loss within two standard errors of zero is never marked.

**Luck.** For each deck draw of a reviewed round that the drawing player's record shows, from
that player's view before the turn, with the turn's placement fixed: luck = value after drawing
the card drawn - mean value over the cards that could have been drawn. Estimated with
``LUCK_SHARE`` of the time in shared worlds: each world ``w`` deals the unseen cards uniformly
(the opponent's unknown cards and the pile's order, as ``Rollouts`` does); its twin ``w'``
swaps the card actually drawn onto the top of the pile (from wherever ``w`` put it: the
opponent's hand or deeper in the pile). ``w'`` is then a uniform deal given that card on top,
so over the worlds ``mean(X(w') - X(w))`` estimates the luck without bias, ``X`` being the
final score difference after the turn and heuristic play to the end; the standard error is that
of the paired differences (the twins share every other card, so it is small). The luck of the
last draw of a round is 0 (it is never played). In a one-player record only the recording
player's draws are known, so only their luck is rated. A full-deal record knows the pile, and the
card compared is one of the pile's (``draw_luck``'s ``pile``): unbiased. A one-player record does
not, and the opponent keeps the cards they want, so the unseen cards dealt uniformly make the pile
look richer than it is (the luck of real draws averaged -0.57 points a draw); dealing the
opponent's hand by the opponent-hand model (``LUCK_HAND_MODEL``, ``_modelled_luck``) cuts that to
-0.23, and the review says which law its luck used (``Review.luck_against``).

**Per player.** decisions, unforced decisions, **error rate** = total loss / unforced
decisions (points per decision; negative estimates included, so the total is unbiased; losses
are measured against the advisor at the review's budget, so a player who often beats the
advisor's choice by less than the noise has an error rate below zero),
total loss with its standard error, luck (sum over their draws) with its standard error,
**result** (their score minus the opponent's, summed over the rounds reviewed), **luck-adjusted
result** = result - (own luck - opponent's luck) (in a one-player record: result - own luck),
and a **rating** band from the error rate (``RATING_BANDS``, provisional; none for fewer than
``MIN_RATED`` unforced decisions). A loss the endgame search only bounded makes the total loss
and the error rate lower bounds and the rating a best case: ``bounded`` counts them, and the
text and the report say "at least" and "at best". A record that stops before the end of its round has no result:
its score difference is the table's where it stops, and the text says so.

**Known limits.** Values are those of the advisor's rollouts: both sides continue with the
heuristic policy, which lets a player stall on discard-pile draws late in the round more than a
real opponent would; there, losses can be far larger than the exact view values say (in one
measured position with 3 cards left, the rollouts put a stall 58 points above the turn played,
the exact view value with one stall each 13). The exact solver takes over with 2 cards left,
the endgame search with 3 and 4, with a budget of at least ``SEARCH_FLOOR`` there (twice that
at 4 cards); where even that does not reach one stall each (3 of 16 measured 4-card views), the
play-outs judge, and the decision's ``method`` says so. With 5 cards or more the play-outs judge.

**Reconciliation** (full-deal records with both players reviewed, per round, player 0's point of
view): actual = start + skill + luck + hidden, where *start* is the value of the reference turn at
the first decision (the expected result when both play the reference policy), *skill* sums each
player's value of the played turn minus the reference turn's (paired, same worlds), *luck* sums
the draws' luck, and *hidden* sums the hand-overs: the value of the same position from the next
mover's view minus the value from the previous mover's view after their turn. Values are views,
so a hand-over is what one player's hidden cards are worth that the other could not see; it is
zero on average (both views estimate the same final score) but not in a single round. The
identity itself holds to rounding; ``stderr`` is the standard error of start + skill + luck
from the estimates.

**Speed.** Decisions are independent jobs, run on any ``concurrent.futures`` executor (a process
pool on every core by default; ``executor="serial"`` in this process; a dask
``client.get_executor()`` works unchanged) with a tqdm progress bar over the turns judged. Each
decision reports its seconds and the worlds behind each estimate. A turn's view and job are built
when it is handed out (``IN_FLIGHT`` at most out at once on an executor) and dropped once judged,
and ``Review.views`` replays a view when asked: each view holds the round's history so far, so the
review's memory grows linearly with a record's length, not with its square (a 10,000-turn record:
about 30 MB of its own, not 470; ``benchmarks/bench_review_memory.py``). A job sent to a worker
carries its view's history as kernel move codes, 2 bytes a turn, which the worker turns back into
the same moves (``_Job.history_codes``): one pickled ``Move`` a turn made a job 218 KB at turn
10,000 (``benchmarks/bench_review_jobs.py``).
"""

from __future__ import annotations

import copy
import functools
import hashlib
import html
import json
import math
import os
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from concurrent.futures import FIRST_COMPLETED, Executor, Future, wait
from dataclasses import asdict, dataclass, field
from typing import Any

import numpy as np

from lcanalysis.advisor import JUDGE_SEARCH_CARDS, JUDGE_SEARCH_FLOOR, advise, judging_budget
from lcanalysis.analysis import Analysis, loss_in_words, tied_to_zero
from lcanalysis.core import kernel as K
from lcanalysis.core import policy as P
from lcanalysis.core.pool import worker_pool
from lcanalysis.game.cards import Card
from lcanalysis.game.moves import Move
from lcanalysis.game.position import Position
from lcanalysis.game.records import MatchRecord, RoundRecord, read_record, ticking
from lcanalysis.game.view import View
from lcanalysis.match_equity import points_only_note
from lcanalysis.options import MAX_SEED, MAX_WORKERS  # the advisor's seeds; worker processes (as a tournament's)
from lcanalysis.rollouts import ROLLOUTS_PER_MS, Rollouts, some_state, view_state
from lcanalysis.search import endgame_analysis

#: the version of the review's numbers: raised whenever the same record, settings and seed would give
#: other numbers than before (a loss, a best turn, a mark, a luck, a value, the worlds behind one),
#: whatever the cause: this module, the advisor, the play-outs, the endgame search, the engine. The
#: files that keep review output hold it in their settings (``keep_settings``: ``review --out``'s;
#: the skill-and-luck study's reviews and review-luck files) and a run refuses to resume a file
#: another version wrote, or one from before versions were kept ("unversioned", such as
#: data/simulated/skill_and_luck_reviews.csv): it would mix two versions' numbers in one file.
#: ``tests/test_review_stream.py::test_the_review_version_is_raised_whenever_the_reviews_numbers_change``
#: guards it: it pins this number to the numbers of the review's reference outputs
#: (tests/data/review_golden.json), so rewriting those fails it until this is raised.
REVIEW_VERSION = 1
#: seconds between redraws of the progress bar while no turn is judged (``records.ticking``)
TICK_SECONDS = 1.0
#: the default time per decision, in seconds of the advisor's budget units (a count of rollouts,
#: not a clock: ``ROLLOUTS_PER_MS`` per millisecond), so a review is reproducible on any machine
DEFAULT_TIME = 0.4
ENDGAME_CARDS = 2  # the review's exact handover (search.endgame_analysis: every split, one stall each)
#: from here the advisor's endgame search judges, with at least ``SEARCH_FLOOR`` seconds of its node
#: budget whatever the time per decision (``advisor.judging_budget``, shared with the tutor)
SEARCH_CARDS = JUDGE_SEARCH_CARDS
SEARCH_FLOOR = JUDGE_SEARCH_FLOOR
#: the review's advisor plays the play-outs a second of budget the published reviews were made with
#: (the agents' rate), not the hint's since it was raised (``advisor.ROLLOUTS_PER_SECOND``)
PLAYOUT_RATE = int(1000 * ROLLOUTS_PER_MS)
#: the review's advisor deals the opponent's cards uniformly, as the published reviews were made
#: (data/simulated/skill_and_luck_reviews.csv); whether reviews follow the advisor's hand model
#: (``advisor.HAND_MODEL_DEFAULT``) is a separate decision
HAND_MODEL = False
#: and with one deck order per world (no draw streams, ``advisor.STREAMS_DEFAULT``), for the same reason
STREAMS = False
#: and with the advisor's play-outs spread over the turns in two stages (``advisor.SCHEDULES``), as then
SCHEDULE = "two-stage"
#: the luck of a draw in a one-player record deals the opponent's unknown cards by the opponent-hand
#: model: measured on 8,800 real draws (data/simulated/skill_and_luck_review_luck_model.csv) its mean
#: is -0.23 +- 0.05 points a draw, against -0.57 +- 0.06 with the uniform deal (a full-deal record
#: uses the real pile and is unbiased)
LUCK_HAND_MODEL = True
ONE_PLAYER_LUCK = "a one-player record cannot see the pile, and this luck runs about 0.2 points a draw low"
ADVISOR_SHARE = 0.5  # of the time per decision: the advisor's search for the best turn
PAIR_SHARE = 0.3  # the best, played, reference and second turns in fresh shared worlds
LUCK_SHARE = 0.2  # the luck of the turn's deck draw (two play-outs a world)
MIN_WORLDS = 40
MAX_TIME = 60.0
#: turns handed to an executor and not yet judged: at most this many, or ``AHEAD_PER_WORKER`` a
#: worker if more; the next turn's view is built only when one of them is done, so a long record's
#: views are never all in memory (each holds the round's history so far)
IN_FLIGHT = 32
AHEAD_PER_WORKER = 4

#: (name, least loss in points): a decision is marked by the largest threshold its loss reaches,
#: and only when the loss is more than ``MARK_SIGMAS`` standard errors above zero
MARKS = (("blunder", 10.0), ("mistake", 5.0), ("inaccuracy", 2.0))
#: the one mark of the shared interchange spec ("mistake" or null), and the grades it stands for
SPEC_MARK = "mistake"
SPEC_MARKED = ("blunder", "mistake")
MARK_SIGMAS = 2.0
#: what the text says under a total loss below zero, lest a reader take the review for broken
BELOW_ZERO = ("below zero by noise, not skill: a loss measured by play-outs is never clipped (so the total is "
              "unbiased), and turns as good as the advisor's can total below zero; more time a decision narrows "
              "the ±")

#: (name, error rate below which it applies), in points lost per unforced decision. Provisional:
#: set from single rounds of our agents reviewed at 0.2-0.4 s a decision (error rates: heuristic
#: against itself -0.2 and 0.6, against greedy 3.2 and 3.6, against random 0.7; greedy against
#: the heuristic 0.5 and 1.2, against random 11.6; random 5.1 and 6.5; search -0.8), not yet from
#: the study of issue 14 (error rates against match results over many rounds). An agent stronger
#: than the advisor at the review's budget comes out below zero.
#: fewer unforced decisions than this get no rating: from a handful, noise decides the band (a
#: review of a 6-turn record rated a player "world class" on 3 decisions at -3.7 ± 3.6 a decision)
MIN_RATED = 10
RATING_BANDS = (
    ("world class", 0.5),
    ("expert", 1.0),
    ("advanced", 2.0),
    ("intermediate", 3.5),
    ("casual", 5.0),
    ("beginner", math.inf),
)


class ReviewError(ValueError):
    """A review that cannot be made: bad options, or a record with nothing to review."""


def decision_seed(seed: int, round_number: int, index: int) -> int:
    """The advisor's seed for one decision: a function of the review's seed, the round (1-based)
    and the turn's index only, so every decision is reproducible in any order."""
    ss = np.random.SeedSequence([int(seed), int(round_number), int(index), 14])
    return int(ss.generate_state(1, dtype=np.uint32)[0] % (2**31 - 1))


def mark_for(loss: float, stderr: float, forced: bool = False) -> str | None:
    """The mark of a decision (``MARKS``), or None: forced, small, or within ``MARK_SIGMAS``
    standard errors of zero."""
    if forced or not math.isfinite(loss) or loss <= MARK_SIGMAS * stderr:
        return None
    for name, least in MARKS:
        if loss >= least:
            return name
    return None


def rating_for(error_rate: float | None) -> str | None:
    if error_rate is None or not math.isfinite(error_rate):
        return None
    for name, below in RATING_BANDS:
        if error_rate < below:
            return name
    return RATING_BANDS[-1][0]  # pragma: no cover


# --- luck of a deck draw ---------------------------------------------------------------------------


def draw_luck(view: View, move: Move | str, drawn: Card | str, worlds: int, seed: int = 0,
              params: np.ndarray = P.HEURISTIC_PARAMS, pile: Sequence[Card] | None = None,
              hand_model: bool = False) -> dict[str, float]:
    """The luck of drawing ``drawn`` with the turn ``move`` (which draws from the deck), from
    ``view`` (the drawing player's, before the turn): value after the draw minus the mean value
    over the possible draws, estimated in ``worlds`` twin worlds (module docstring).

    Returns ``{"luck", "stderr", "before", "after", "worlds"}``: ``before`` is the mean over the
    possible draws (the turn's value), ``after`` the value given the card drawn.

    ``pile``: the cards really in the draw pile, when the record knows them (a full deal). The
    card the luck is measured against is then drawn from that pile, not from every card the
    drawer cannot see: the opponent keeps the cards they chose to keep, so the unseen cards are
    not a fair picture of the pile, and measured that way the luck of real draws averaged -0.57
    points a draw (nine standard errors below zero over 8,800 draws). Against the real pile the
    luck's mean is zero by construction: the card drawn and the card compared are alike.

    ``hand_model`` (a one-player record, no ``pile``): deal the opponent's unknown cards by the
    opponent-hand model (``lcanalysis.hand_model``) instead of uniformly, so that the cards the
    opponent chose to keep are less likely to be the pile's (``_modelled_luck``)."""
    nc = view.colors
    if isinstance(move, str):
        move = Move.parse(move, nc)
    if isinstance(drawn, str):
        drawn = Card.parse(drawn, nc)
    if not move.draws_from_deck:
        raise ReviewError(f"{move} does not draw from the deck: its draw has no luck")
    if view.viewer != view.to_move:
        raise ReviewError("luck is rated from the view of the player who draws, before the turn")
    base, pool, u, opp = view_state(view)
    card = drawn.type
    if card not in pool:
        raise ReviewError(f"{drawn} is not among the cards player {view.viewer} cannot see")
    code = move.code(nc)
    me = view.to_move
    oh = K.off_hand(nc, opp)
    od = K.off_deck(nc)
    pos0 = int(base[K.H_DECK_POS])
    k = len(pool)
    rng = np.random.default_rng(seed)
    worlds = max(2, int(worlds))
    before = np.empty(worlds)
    after = np.empty(worlds)
    s = np.empty_like(base)

    def play(perm: np.ndarray) -> float:
        s[:] = base
        np.add.at(s, oh + perm[:u], 1)
        s[od + pos0:od + pos0 + k - u] = perm[u:]
        s[K.H_DECK_END] = pos0 + k - u
        K.apply_move(s, code)
        return float(P.rollout(s, params, params, me))

    if hand_model and pile is None:
        return _modelled_luck(view, pool, u, card, worlds, rng, play)
    choices = None if pile is None else np.array([c.type for c in pile], dtype=pool.dtype)

    def with_on_top(perm: np.ndarray, t: int) -> np.ndarray:
        """The world with a card of type ``t`` swapped to the top of the draw pile."""
        out = perm.copy()
        if out[u] != t:
            where = np.flatnonzero(out == t)
            j = int(where[rng.integers(len(where))])
            out[u], out[j] = out[j], out[u]
        return out

    for i in range(worlds):
        perm = rng.permutation(pool)
        if choices is not None:  # compare with a card of the real pile, on top of the same world
            perm = with_on_top(perm, int(choices[rng.integers(len(choices))]))
        before[i] = play(perm)
        after[i] = before[i] if perm[u] == card else play(with_on_top(perm, card))
    d = after - before
    return {"luck": float(d.mean()), "stderr": float(d.std(ddof=1) / math.sqrt(worlds)),
            "before": float(before.mean()), "after": float(after.mean()), "worlds": worlds}


def modelled_twins(pool: np.ndarray, u: int, card: int, w_all: np.ndarray, worlds: int, rng: np.random.Generator):
    """The twin worlds of ``_modelled_luck``: for each, ``(after, before, ratio)``, where ``after``
    and ``before`` list the opponent's ``u`` unknown cards then the pile from the top (``before``
    None: the same world), ``card`` on top of ``after``, and ``ratio`` the weight of ``before``."""
    k = len(pool)
    at = int(np.flatnonzero(pool == card)[0])
    rest_pool = np.delete(pool, at)
    w = np.delete(w_all, at)
    table = P.esp_table(w, u)
    for _ in range(worlds):
        take = np.zeros(k - 1, bool)
        r = u
        for j in range(k - 1):  # card j joins the hand with probability w_j e_{r-1}(w[j+1:]) / e_r(w[j:])
            if r > 0 and rng.random() * table[j, r] < w[j] * table[j + 1, r - 1]:
                take[j] = True
                r -= 1
        after = np.concatenate([rest_pool[take], [card], rng.permutation(rest_pool[~take])]).astype(pool.dtype)
        j = int(rng.integers(k))
        if j == u:
            yield after, None, 1.0
            continue
        ratio = float(w_all[at] / w[np.flatnonzero(take)[j]]) if j < u else 1.0
        before = after.copy()
        before[u], before[j] = before[j], before[u]
        yield after, before, ratio


def _modelled_luck(view: View, pool: np.ndarray, u: int, card: int, worlds: int, rng: np.random.Generator,
                   play: Callable[[np.ndarray], float]) -> dict[str, float]:
    """``draw_luck`` under the opponent-hand model: a world deals the opponent's ``u`` unknown cards
    ``H`` with probability proportional to the product of the model's card weights ``w`` over
    ``H`` (conditional Poisson sampling, exact), the rest in uniform order is the pile.

    *After* (the law given the card drawn on top): one copy of it on top, ``H`` dealt by the
    model from the other cards, the rest shuffled below; for a card of one copy that is exactly
    the model's law given that card on top, and for the three wagers of a colour too (the chance
    of a hand is then proportional to its weight times the copies left in the pile, which is what
    picking one copy first gives). *Before* (the model's law): the twin of each after-world with
    the card on top swapped with a slot chosen uniformly among all ``k`` unseen places. A twin
    whose swap stays in the pile has the model's chance up to a constant; one that puts the card
    into ``H`` in place of card ``x`` has it times ``w[card] / w[x]``, so the mean before the draw
    is weighted by those ratios (self-normalized). Equal weights give the uniform deal, and then
    every ratio is 1. Pairing each world with its twin keeps the error small."""
    from lcanalysis.hand_model import hand_weights

    after = np.empty(worlds)
    before = np.empty(worlds)
    ratio = np.empty(worlds)
    for i, (perm_after, perm_before, r) in enumerate(modelled_twins(pool, u, card, hand_weights(view), worlds, rng)):
        after[i] = play(perm_after)
        before[i] = after[i] if perm_before is None else play(perm_before)
        ratio[i] = r
    value_after = float(after.mean())
    value_before = float((ratio * before).sum() / ratio.sum())
    z = (after - value_after) - ratio * (before - value_before) / ratio.mean()  # each world's influence
    return {"luck": value_after - value_before, "stderr": float(z.std(ddof=1) / math.sqrt(worlds)),
            "before": value_before, "after": value_after, "worlds": worlds}


# --- one decision -----------------------------------------------------------------------------------


@dataclass
class _Job:
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
    #: the view's history as kernel move codes (a slice of the round's, ``_round_codes``): a job is
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


def _round_codes(rec: RoundRecord) -> tuple[list[Move], np.ndarray]:
    """The round's whole history (its start's, then its turns') as moves and as kernel codes."""
    nc = rec.rules.colors
    moves = [*rec.start.history, *(t.move for t in rec.turns)]
    return moves, np.array([m.code(nc) for m in moves], dtype=np.uint16)


def _reference_code(view: View) -> int:
    return int(P.policy_move(some_state(view), P.HEURISTIC_PARAMS))


def _review_turn(job: _Job) -> dict[str, Any]:
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


def _decision(view: View, played: Move, job: _Job) -> dict[str, Any]:
    nc = view.colors
    seed = decision_seed(job.seed, job.round, job.index)
    ref = Move.from_code(_reference_code(view), nc)
    if view.deck_count <= ENDGAME_CARDS:
        exact = endgame_analysis(view, seed=seed)
        values = {m.move: m.value for m in exact.moves}
        if str(played) in values:
            best = exact.moves[0].move
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
                      hand_model=HAND_MODEL, streams=STREAMS, schedule=SCHEDULE, playout_rate=PLAYOUT_RATE)
    if "max_stalls" in analysis.bounds:  # the advisor's endgame search answered: its values are the loss
        searched = _searched_decision(analysis, played, ref, seed)
        if searched is not None:
            return searched
    best = analysis.moves[0].move
    forced = len(analysis.moves) == 1 or analysis.moves[0].value == analysis.moves[-1].value
    names: list[str] = []
    for m in [best, str(played), str(ref)] + [m.move for m in analysis.moves[1:2]]:
        if m not in names:
            names.append(m)
    codes = [Move.parse(m, nc).code(nc) for m in names]
    r = Rollouts(view, codes, seed=seed + 1)
    worlds = max(MIN_WORLDS, int(job.time * PAIR_SHARE * 1000 * ROLLOUTS_PER_MS / len(codes)))
    r.sample(worlds)
    ia, ip, ir = names.index(best), names.index(str(played)), names.index(str(ref))
    means = r.means()

    def stderr_of(k: int) -> float:
        x = r.samples[k]
        return float(x.std(ddof=1) / math.sqrt(len(x)))

    def diff(a: int, b: int) -> tuple[float, float]:
        return (0.0, 0.0) if a == b else r.difference(a, b)

    # the advisor's choice stays the best unless a turn beats it in the fresh worlds by more than
    # MARK_SIGMAS standard errors of their paired difference: a loss is then never below zero by
    # more than that much noise, and a played advisor's choice loses nothing
    top = int(np.argmax(means))
    margin, margin_se = diff(top, ia)
    ib = top if top != ia and margin > MARK_SIGMAS * margin_se else ia
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
        "legal": len(analysis.moves),
    }


def _searched_decision(analysis: Analysis, played: Move, ref: Move, seed: int) -> dict[str, Any] | None:
    """A decision judged by the endgame search's own values (exact over every split, or paired
    over its sampled worlds). A turn the search only bounded has a loss of *at least* that much:
    ``loss_bound`` says so. None when the played turn is not among the turns it valued."""
    moves = {m.move: m for m in analysis.moves}
    mp = moves.get(str(played))
    if mp is None or mp.loss is None:
        return None
    mb = analysis.moves[0]
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
        "best": mb.move, "advisor_best": mb.move, "loss": float(mp.loss), "loss_stderr": float(mp.loss_stderr or 0.0),
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


# --- the answer ------------------------------------------------------------------------------------


@dataclass
class Decision:
    """One reviewed turn (see the module docstring for every field's meaning)."""

    round: int
    index: int
    player: int
    played: str
    best: str
    advisor_best: str
    loss: float
    loss_stderr: float
    mark: str | None
    forced: bool
    exact: bool
    method: str
    deck: int
    legal: int
    value_best: float
    value_best_stderr: float
    value_played: float
    value_played_stderr: float
    reference: str
    value_reference: float | None
    value_reference_stderr: float | None
    gain_vs_reference: float | None
    gain_vs_reference_stderr: float | None
    alternatives: list[dict[str, Any]]
    worlds: int
    advisor_rollouts: int
    seconds: float
    drawn: str | None = None
    luck: float | None = None
    luck_stderr: float | None = None
    luck_worlds: int | None = None
    value_before_draw: float | None = None
    value_after_draw: float | None = None
    loss_bound: str | None = None  # "lower": the endgame search only bounded the played turn

    def loss_text(self, digits: int = 1) -> str:
        """The loss as a reader needs it: "3.0 (exact)", "3.0 ± 0.4" (an estimate), or "at least 3.0"
        (the endgame search only bounded the played turn; ± the bound's sampling error, if any)."""
        return loss_in_words(self.loss, self.loss_stderr, exact=self.exact, bound=self.loss_bound == "lower",
                             digits=digits)


@dataclass
class Draw:
    """The luck of a deck draw by a player whose decisions are not under review."""

    round: int
    index: int
    player: int
    played: str
    drawn: str
    luck: float
    luck_stderr: float
    luck_worlds: int
    value_before_draw: float
    value_after_draw: float
    seconds: float
    deck: int


@dataclass
class PlayerSummary:
    player: int
    decisions: int
    unforced: int
    error_rate: float | None
    total_loss: float
    total_loss_stderr: float
    luck: float | None
    luck_stderr: float | None
    draws: int
    result: int
    luck_adjusted: float | None
    rating: str | None
    marks: dict[str, int]
    luck_adjusted_stderr: float | None = None  # the luck's: the result itself is exact
    error_rate_stderr: float | None = None  # the total loss's, per unforced decision
    name: str | None = None  # the record's name for the player ("you", an agent's), if it gives one
    #: unforced decisions whose loss the endgame search only bounded (``Decision.loss_bound`` "lower"):
    #: the total loss and the error rate are then at least the figures given, the rating at best its band
    bounded: int = 0

    @property
    def label(self) -> str:
        """"player 0 (you)": the seat, and the record's name for it when it gives one."""
        return f"player {self.player}" + (f" ({self.name})" if self.name else "")

    def error_rate_text(self) -> str:
        """The error rate with its standard error, or "n/a" (no unforced decision); "at least" when
        a loss in it is only a bound."""
        if self.error_rate is None:
            return "n/a"
        return f"{self._at_least()}{self.error_rate:.2f} ± {self.error_rate_stderr or 0.0:.2f}"

    def total_loss_text(self) -> str:
        """The total loss with its standard error; "at least" when a loss in it is only a bound."""
        return f"{self._at_least()}{self.total_loss:.1f} ± {self.total_loss_stderr:.1f}"

    def rating_text(self) -> str:
        """The rating band, "at best" when the error rate is only a lower bound; the bands the error rate
        reaches within two standard errors when they are more than its own (the band of an estimate is
        an estimate too); "" when not rated."""
        if not self.rating:
            return ""
        text = self.rating + (" at best" if self.bounded else "")
        if self.error_rate is not None and self.error_rate_stderr:
            low = rating_for(self.error_rate - 2 * self.error_rate_stderr)
            high = rating_for(self.error_rate + 2 * self.error_rate_stderr)
            if low != high:
                text += f" (from {low} to {high} within two standard errors of the error rate)"
        return text

    def bounded_text(self) -> str:
        """Why a total is a bound, or "" when none of its losses is."""
        return (f"{self.bounded} loss(es) only bounded by the endgame search (at least the figure given), "
                f"so the total loss and the error rate are at least these" if self.bounded else "")

    def _at_least(self) -> str:
        return "at least " if self.bounded else ""

    def luck_adjusted_text(self) -> str:
        """The luck-adjusted result with its standard error, or "n/a" (a player whose luck is unknown)."""
        if self.luck_adjusted is None:
            return "n/a"
        return f"{self.luck_adjusted:+.1f} ± {self.luck_adjusted_stderr or 0.0:.1f}"

    def spec_json(self) -> dict[str, Any]:
        d = asdict(self)
        head = {k: d.pop(k) for k in ("player", "decisions", "error_rate", "luck", "result", "luck_adjusted")}
        return {**head, **d}


@dataclass(repr=False)  # a line (__repr__), not every field of every decision
class Review:
    """The review of a record: ``decisions`` (one per reviewed turn), the luck of the other
    player's draws (``draws``), ``players`` (per-player totals) and, for a full-deal record with
    both players reviewed, ``reconciliation`` per round."""

    decisions: list[Decision]
    draws: list[Draw]
    players: list[PlayerSummary]
    reconciliation: list[dict[str, Any]]
    record_kind: str
    rounds: int
    time_budget: float
    seed: int
    #: the review's time (a clock's, where a decision's ``seconds`` is its own work): a resumed review's
    #: counts the earlier runs' too, up to the last turn each kept (``review``)
    seconds: float
    #: this run's worker processes (or its executor's type): a resumed review's earlier runs may have had others
    workers: int | str
    finished: bool
    viewer: int | None = None  # the recording player of a one-player record
    #: the view before each decision, ``(round, index)`` -> ``View`` (``TurnViews``: replayed when asked)
    views: Mapping[tuple[int, int], View] = field(default_factory=dict, repr=False)
    scores: list[tuple[int, int]] = field(default_factory=list)
    search_floor: float = SEARCH_FLOOR
    #: the rounds (1-based) that ended at the turn cap with cards left in the draw pile (rules.md:
    #: scored as it stands, reported as capped), with the cap
    capped: list[int] = field(default_factory=list)
    turn_cap: int = 0
    match_rounds: int | None = None  # a match record: the rounds of the match (its rules), played or not
    #: in a match (a match record, or a position with a match score): that the losses are points of
    #: the round, not chances to win the match (``match_equity.points_only_note``); None otherwise
    match_note: str | None = None
    #: a resumed review: the turns judged by earlier runs (``review``'s ``judged``) and their seconds,
    #: included in ``seconds``; 0 and 0.0 for a review made in one run
    earlier_turns: int = 0
    earlier_seconds: float = 0.0

    def time_text(self) -> str:
        """The review's seconds and workers, in words: for a resumed review, the earlier runs' turns and
        seconds and this run's apart (``workers`` are this run's)."""
        here = f"{self.seconds - self.earlier_seconds:.1f} s on {self.workers} worker(s)"
        if not self.earlier_turns:
            return here
        turns = len(self.decisions) + len(self.draws)
        earlier = f"{self.earlier_turns} turn(s) judged by earlier run(s) in {self.earlier_seconds:.1f} s"
        if self.earlier_turns >= turns:
            return f"{self.seconds:.1f} s in all, resumed: every turn ({earlier})"
        return (f"{self.seconds:.1f} s in all, resumed: {earlier}, {turns - self.earlier_turns} by this run in "
                f"{here}")

    @property
    def luck_against(self) -> str:
        """What a draw's luck is measured against: the real pile of a full-deal record, else the
        cards the recording player could not see, dealt by the opponent-hand model or uniformly."""
        if self.viewer is None:
            return "the real draw pile"
        return ("the unseen cards, the opponent's hand dealt by the opponent-hand model" if LUCK_HAND_MODEL
                else "the unseen cards, dealt uniformly")

    # --- JSON ------------------------------------------------------------------------------

    def to_json(self) -> dict[str, Any]:
        """The ``lcanalysis review RECORD --json`` object of docs/spec/interchange.md (``decisions``
        with ``index, player, played, best, loss, loss_stderr, mark``; ``players`` with ``player,
        decisions, error_rate, luck, result, luck_adjusted``), each entry followed by labelled
        extras, then ``draws``, ``reconciliation`` and ``settings``."""
        decisions = []
        for d in self.decisions:
            row = asdict(d)
            head = {k: row.pop(k) for k in ("index", "player", "played", "best", "loss", "loss_stderr", "mark")}
            # the shared spec's mark is "mistake" or null: a mistake or a blunder is "mistake"; the
            # finer grade (an inaccuracy too) follows among the extras
            head["mark"] = SPEC_MARK if d.mark in SPEC_MARKED else None
            decisions.append({**head, "grade": d.mark, **row})
        return {
            "decisions": decisions,
            "players": [p.spec_json() for p in self.players],
            "draws": [asdict(d) for d in self.draws],
            "reconciliation": self.reconciliation,
            "settings": {"record": self.record_kind, "rounds": self.rounds, "finished": self.finished,
                         "time_per_decision": self.time_budget, "seed": self.seed, "seconds": self.seconds,
                         "review_version": REVIEW_VERSION,
                         "workers": self.workers,
                         "earlier_runs": ({"turns": self.earlier_turns, "seconds": self.earlier_seconds}
                                          if self.earlier_turns else None),
                         "marks": dict(MARKS),
                         "mark_sigmas": MARK_SIGMAS,
                         "rating_bands": [[name, None if math.isinf(b) else b] for name, b in RATING_BANDS],
                         "scores": [list(s) for s in self.scores], "capped": list(self.capped),
                         "match_rounds": self.match_rounds, "match_note": self.match_note,
                         "luck_against": self.luck_against,
                         "endgame": {"exact_from_cards": ENDGAME_CARDS, "search_from_cards": SEARCH_CARDS,
                                     "search_floor": self.search_floor}},
        }

    # --- text ------------------------------------------------------------------------------

    def critical(self, limit: int = 3) -> list[Decision]:
        """The marked decisions with the largest losses (the critical positions)."""
        marked = [d for d in self.decisions if d.mark]
        return sorted(marked, key=lambda d: -d.loss)[:limit]

    def to_text(self) -> str:
        lines = [f"Review of {self.record_kind}: {self.rounds_text()}, {len(self.decisions)} decisions"
                 + ("" if self.finished else " (the record stops before the end of the round)"),
                 f"{self.time_budget:g} s a decision, seed {self.seed}; {self.time_text()}"]
        if self.capped:
            lines.append(self.capped_text())
        if self.match_note:
            lines.append(self.match_note)
        for p in self.players:
            lines.append("")
            rate = (f"{p.error_rate_text()} points a decision" if p.error_rate is not None
                    else "n/a (no unforced decision)")
            lines.append(f"{p.label}: {p.decisions} decisions ({p.unforced} unforced), error rate {rate}, "
                         f"total loss {p.total_loss_text()}"
                         + (f": rating {p.rating_text()}" if p.rating else
                            f": not rated (fewer than {MIN_RATED} unforced decisions)" if p.unforced < MIN_RATED
                            else ""))
            marks = ", ".join(f"{n} {p.marks.get(n, 0)}" for n, _ in reversed(MARKS))
            lines.append(f"  marks: {marks}")
            if p.bounded:
                lines.append(f"  ({p.bounded_text()})")
            if p.total_loss < 0:
                lines.append(f"  ({BELOW_ZERO})")
            if p.luck is not None:
                lines.append(f"  luck {p.luck:+.1f} ± {p.luck_stderr:.1f} over {p.draws} deck draws")
                if self.viewer is not None:
                    lines.append(f"  (luck against {self.luck_against}: {ONE_PLAYER_LUCK})")
            else:
                lines.append("  luck: unknown (the record does not show this player's draws)")
            adj = p.luck_adjusted_text()
            lines.append(f"  result {p.result:+d} (score difference), luck-adjusted {adj}" if self.finished else
                         f"  score difference where the record stops {p.result:+d} (not a result: the round is "
                         f"unfinished), luck-adjusted {adj}")
        marked = [d for d in self.decisions if d.mark]
        lines.append("")
        if marked:
            lines.append("marked decisions:")
            for d in marked:
                lines.append(f"  {_where(d)}: played {d.played}, best {d.best}: loss {d.loss_text()}  "
                             f"{(d.mark or '').upper()}")
        else:
            lines.append("no decision marked")
        events: list[Decision | Draw] = [*self.decisions, *self.draws]
        lucky = sorted([x for x in events if x.luck is not None], key=lambda x: -abs(x.luck or 0.0))[:3]
        if lucky:
            lines.append("largest luck: " + "; ".join(
                f"{_where(x)} drew {x.drawn} ({x.luck or 0.0:+.1f} ± {x.luck_stderr or 0.0:.1f})" for x in lucky))
        for rec in self.reconciliation:
            lines.append("")
            lines.append(f"round {rec['round']} reconciled (player 0's points): {reconciled_text(rec)}")
        n = [d for d in self.decisions if not d.exact and d.advisor_rollouts]
        searched = sum(d.method.startswith("endgame search") for d in self.decisions)
        if self.decisions:
            secs = [d.seconds for d in self.decisions]
            lines.append("")
            lines.append(f"per decision: {np.mean(secs):.2f} s on average (at most {max(secs):.2f} s); "
                         + (f"losses from {int(np.mean([d.worlds for d in n]))} shared worlds on average, "
                            f"the best turn from {int(np.mean([d.advisor_rollouts for d in n]))} advisor "
                            f"rollouts; " if n else "")
                         + f"{sum(d.exact for d in self.decisions)} decisions exact (endgame solver or search)"
                         + (f"; {searched} judged by the endgame search" if searched else ""))
        lines.append("marks: " + ", ".join(f"{n} >= {least:g}" for n, least in reversed(MARKS))
                     + f" points, only beyond {MARK_SIGMAS:g} standard errors; forced decisions not counted")
        return "\n".join(lines)

    def rounds_text(self) -> str:
        """"3 round(s)", or for a match the record stops before its last round, "2 of 3 round(s)
        (the record stops before the end of the match)"."""
        if self.match_rounds is None or self.rounds >= self.match_rounds:
            return f"{self.rounds} round(s)"
        return (f"{self.rounds} of {self.match_rounds} round(s)"
                + (" (the record stops before the end of the match)" if self.finished else ""))

    def capped_text(self) -> str:
        """Which rounds the turn cap stopped, in words ("" when none)."""
        if not self.capped:
            return ""
        which = ("round " if len(self.capped) == 1 else "rounds ") + ", ".join(str(r) for r in self.capped)
        return (f"{which} stopped at the turn cap of {self.turn_cap} turns with cards left in the draw pile: "
                f"scored as it stands (capped)")

    def __str__(self) -> str:
        return self.to_text()

    def __repr__(self) -> str:
        """One line, as a REPL shows a review: the record, the decisions, each player's error rate
        (every field of every decision ran to 90,000 characters for one round); ``print`` gives the
        review, ``to_json()`` every field."""
        rates = "".join(f"; {p.label}: error rate " + ("n/a" if p.error_rate is None
                                                       else f"{p.error_rate_text()} points a decision")
                        for p in self.players)
        return (f"<Review of {self.record_kind}: {self.rounds_text()}, {len(self.decisions)} decisions{rates}; "
                "print() it for the review>")

    # --- HTML ------------------------------------------------------------------------------

    def value_graph_svg(self, width: int = 720, height: int = 260) -> str:
        """The value over the round in player 0's points (the recording player's in a one-player
        record): one line per player, the best turn's value from that player's own view before each
        of their decisions, ending at the actual result; marked decisions as coloured dots."""
        return _value_graph(self, width, height)

    def to_html(self) -> str:
        """A self-contained HTML report: summary, value graph, critical positions, every decision."""
        return _html(self)

    def _repr_html_(self) -> str:
        return _html(self, fragment=True)


def _alternative_loss_text(a: dict[str, Any]) -> str:
    """An alternative's loss as ``Decision.loss_text`` says the played turn's: exact, an estimate with
    its standard error, or a bound ("at least")."""
    return loss_in_words(a["loss"], a["loss_stderr"], exact=a["exact"], bound=a["loss_bound"] == "lower")


def _where(d: Decision | Draw) -> str:
    return f"round {d.round} turn {d.index} (player {d.player}, deck {d.deck})"


# --- the review ------------------------------------------------------------------------------------


def review(record: Any, *, player: int | None = None, time_budget: float = DEFAULT_TIME, seed: int = 0,
           executor: str | Executor | None = None, workers: int | None = None, progress: bool = True,
           search_floor: float = SEARCH_FLOOR, judged: Mapping[tuple[int, int], Mapping[str, Any]] | None = None,
           on_judged: Callable[[dict[str, Any]], None] | None = None) -> Review:
    """Review a record (anything ``records.read_record`` reads): every decision of ``player`` (0, 1,
    or None for both; a one-player record reviews its recording player), the luck of every deck
    draw the record shows. ``time_budget``: seconds a decision (rollout counts, module docstring).
    ``executor``: None for a process pool of ``workers`` (default: every core), ``"serial"``, or
    any ``concurrent.futures.Executor`` (a dask cluster's ``client.get_executor()`` too; a seeded
    review is the same on every executor). ``search_floor``: the advisor's least budget (seconds
    of its node count) with ``SEARCH_CARDS`` cards or fewer left (0: none, as before it existed).
    ``progress``: a bar on standard error over the turns (True or False).

    Returns a ``Review`` (``print`` gives it in words, ``to_json`` as plain values): each
    ``Decision``'s loss against the best turn, in points of the round's final score difference,
    an estimate with its standard error (``loss_stderr``), exact where the endgame solver judged it
    (``exact``), or a lower bound where the endgame search only bounded it (``loss_bound``); the luck
    of each deck draw, with its standard error; and each player's totals, error rate and rating.

    Resuming: ``on_judged`` is called with each turn's judgement (a dict of JSON values, keyed by
    its ``"round"`` and ``"index"``) as soon as it is made, in the order the turns finish;
    ``judged`` maps ``(round, index)`` to judgements an earlier review with the same record and
    settings (``keep_settings``) made, and those turns are not judged again. A seeded review
    resumed so is the one made in one go; its ``seconds`` count the earlier runs' time too, as far
    as their kept turns (each judgement's ``"elapsed"``: the seconds its run took from the turn
    judged before it, or from its start), not what a stopped run spent after its last one."""
    if not isinstance(progress, (bool, np.bool_)):  # "no" would show the bar
        raise ReviewError(f"progress must be True or False, got {progress!r}")
    rec = read_record(record, progress=progress)
    if player is not None and (isinstance(player, bool) or not isinstance(player, (int, np.integer))
                               or player not in (0, 1)):  # (1.0 == 1, but indexes nothing)
        raise ReviewError(f"player must be 0, 1 or None, got {player!r}")
    player = None if player is None else int(player)
    real = (int, float, np.integer, np.floating)  # numpy's too (a slider's, an array's), as advise's
    if (isinstance(time_budget, bool) or not isinstance(time_budget, real)
            or not math.isfinite(time_budget) or not 0 < time_budget <= MAX_TIME):
        raise ReviewError(f"time_budget must be seconds above 0 and at most {MAX_TIME:g}, got {time_budget!r}")
    if isinstance(seed, bool) or not isinstance(seed, (int, np.integer)) or not 0 <= seed <= MAX_SEED:
        raise ReviewError(f"seed must be a whole number 0..{MAX_SEED}, got {seed!r}")  # (as the advisor's)
    seed = int(seed)  # numpy's too, written as JSON by keep_settings and the judgements
    if (isinstance(search_floor, bool) or not isinstance(search_floor, real)
            or not math.isfinite(search_floor) or not 0 <= search_floor <= MAX_TIME):
        raise ReviewError(f"search_floor must be seconds from 0 to {MAX_TIME:g}, got {search_floor!r}")
    if workers is not None and (isinstance(workers, bool) or not isinstance(workers, (int, np.integer))
                                or not 1 <= workers <= MAX_WORKERS):
        raise ReviewError(f"workers must be a whole number from 1 to {MAX_WORKERS}, got {workers!r}")
    workers = None if workers is None else int(workers)
    if executor is not None and executor != "serial" and not isinstance(executor, Executor):
        raise ReviewError(f"executor must be None, 'serial' or a concurrent.futures.Executor, got {executor!r}")
    if on_judged is not None and not callable(on_judged):  # (else refused only once the first turn was judged)
        raise ReviewError(f"on_judged must be a function taking a turn's judgement (a dict), or None, "
                          f"got {on_judged!r}")
    if judged is not None and not isinstance(judged, Mapping):
        raise ReviewError(f"judged must map (round, index) to the judgements on_judged was given, or be None, "
                          f"got {type(judged).__name__}")
    rounds = rec.rounds if isinstance(rec, MatchRecord) else [rec]
    viewer = rounds[0].viewer
    for r, other in enumerate(rounds[1:], start=2):
        if other.viewer != viewer:  # the totals would mix what one player saw with what another did
            raise ReviewError(f"round {r} is {_kept_by(other.viewer)} but round 1 is {_kept_by(viewer)}: a match is "
                              f"reviewed from records kept alike in every round; review its rounds one by one")
    if viewer is not None and player is not None and player != viewer:
        raise ReviewError(f"this is player {viewer}'s record: player {player}'s cards are unknown")
    reviewed = {viewer} if viewer is not None else ({0, 1} if player is None else {player})
    turns = {(r, i): mover in reviewed for r, rec in enumerate(rounds, start=1)
             for i, (mover, drawn) in enumerate(rec.movers_and_draws()) if _judged(rec, mover, drawn, reviewed)}
    if not turns:
        raise ReviewError("the record holds no turn to review")
    kept = _kept(judged or {}, turns)
    t0 = time.perf_counter()
    jobs = _jobs(rounds, reviewed, float(time_budget), seed, float(search_floor), skip=kept)
    results, used = _run(jobs, len(turns), executor, workers, progress, kept=list(kept.values()), on_judged=on_judged,
                         started=t0)
    # this run's time, and the earlier runs' up to the last turn each of them kept
    earlier = sum(float(x.get("elapsed", 0.0)) for x in kept.values())
    seconds = time.perf_counter() - t0 + earlier
    rv = _assemble(rounds, results, reviewed, float(time_budget), seed, seconds, used,
                   "a match" if isinstance(rec, MatchRecord) else "a round", viewer)
    rv.earlier_turns, rv.earlier_seconds = len(kept), earlier
    rv.search_floor = float(search_floor)
    rv.match_rounds = rec.rules.rounds if isinstance(rec, MatchRecord) else None
    if isinstance(rec, MatchRecord) or any(rounds[r - 1].start.match for r in {d.round for d in rv.decisions}):
        rv.match_note = points_only_note("the losses and values are")  # (a round's views share its start's match)
    names = rec.players or rounds[0].players
    for summary in rv.players:
        summary.name = names[summary.player] if names else None  # (a record names both players or none)
    return rv


def keep_settings(record: Any, *, player: int | None = None, time_budget: float = DEFAULT_TIME, seed: int = 0,
                  search_floor: float = SEARCH_FLOOR) -> dict[str, Any]:
    """What decides a review's judgement of a turn, as JSON values: the record (a SHA-256 of its
    compact JSON form, ``to_json(compact=True)``, unchanged since judgements were first kept), the
    options of ``review``, the method's settings (the advisor's hand model, streams, schedule and
    play-out rate, the luck's hand model) and the review's version (``REVIEW_VERSION``). Judgements
    kept for ``review``'s ``judged`` are reused only under the same settings (``lcanalysis review
    --out`` refuses a file made with others, naming them, and one another version of the review
    kept, naming both): a turn judged under others would be another review's."""
    rec = read_record(record, progress=False)
    viewer = (rec.rounds[0] if isinstance(rec, MatchRecord) else rec).viewer
    player = viewer if player is None else player  # (a one-player record reviews its player either way)
    text = json.dumps(rec.to_json(compact=True), sort_keys=True, separators=(",", ":"))  # (the form kept files hashed)
    return {"record_sha256": hashlib.sha256(text.encode("utf-8")).hexdigest(), "player": player,
            "time": float(time_budget), "seed": seed, "search_floor": float(search_floor),
            "hand_model": HAND_MODEL, "streams": STREAMS, "schedule": SCHEDULE, "playout_rate": PLAYOUT_RATE,
            "luck_hand_model": LUCK_HAND_MODEL, "review_version": REVIEW_VERSION}


def judgement_text(result: Mapping[str, Any]) -> str:
    """A turn's judgement (what ``review``'s ``on_judged`` is given) as one line of JSON that
    ``judgement_of`` reads back equal: every float in full (``repr``), numpy numbers as Python's."""
    def plain(x: Any) -> Any:
        if isinstance(x, np.bool_):
            return bool(x)
        if isinstance(x, np.integer):
            return int(x)
        if isinstance(x, np.floating):
            return float(x)
        raise TypeError(f"a turn's judgement holds {type(x).__name__}, which JSON cannot keep")

    return json.dumps(result, default=plain, separators=(",", ":"))


def judgement_of(text: str) -> dict[str, Any]:
    """A judgement written by ``judgement_text``; raises ``ValueError`` for text that is not one."""
    x = json.loads(text)
    if not isinstance(x, dict) or not all(isinstance(x.get(k), int) for k in ("round", "index")) \
            or not isinstance(x.get("analysed"), bool):
        raise ValueError(f"not a turn's judgement: {text[:60]!r}")
    return x


def _kept(judged: Mapping[tuple[int, int], Mapping[str, Any]], turns: Mapping[tuple[int, int], bool]
          ) -> dict[tuple[int, int], dict[str, Any]]:
    """The judgements of ``judged`` to reuse, checked against the turns the review judges (``turns``:
    (round, index) -> whether its decision is judged, not only its luck)."""
    kept = {}
    for key, x in judged.items():
        if not isinstance(key, tuple) or len(key) != 2 or not isinstance(x, Mapping):
            raise ReviewError(f"judged must map (round, index) to the judgements on_judged was given, got "
                              f"{str(key)[:40]} -> {type(x).__name__}")
        r, i = key
        if turns.get(key) is None:
            raise ReviewError(f"a kept judgement is of round {r} turn {i}, which this review does not judge: "
                              "it was made for another record or player")
        if (x.get("round"), x.get("index")) != key or x.get("analysed") is not turns[key]:
            raise ReviewError(f"the kept judgement of round {r} turn {i} does not fit that turn "
                              f"(round {x.get('round')!r}, index {x.get('index')!r}, analysed {x.get('analysed')!r})")
        elapsed = x.get("elapsed", 0.0)
        if isinstance(elapsed, bool) or not isinstance(elapsed, (int, float)) or not 0 <= elapsed < math.inf:
            raise ReviewError(f"the kept judgement of round {r} turn {i} gives its run's seconds as {elapsed!r}, "
                              "not a number of seconds >= 0")
        kept[key] = dict(x)
    return kept


def _kept_by(viewer: int | None) -> str:
    return "a full-deal record" if viewer is None else f"player {viewer}'s record"


class TurnViews(Mapping[tuple[int, int], View]):
    """The view before each reviewed decision, ``(round, index)`` -> ``View``, replayed from the
    record when asked (``RoundRecord.state``: fewer than ``records.CHECKPOINT`` turns from a kept
    state). A review keeps no view per turn: each holds the round's history so far, so all of them
    grew with the square of a record's length (470 MB for 10,000 turns)."""

    def __init__(self, rounds: Sequence[RoundRecord], keys: Sequence[tuple[int, int]]) -> None:
        self._rounds = list(rounds)
        self._keys = dict.fromkeys(keys)

    def __getitem__(self, key: tuple[int, int]) -> View:
        if key not in self._keys:
            raise KeyError(key)
        r, index = key
        before = self._rounds[r - 1].state(index)
        return before.view(before.to_move) if isinstance(before, Position) else before

    def __iter__(self) -> Iterator[tuple[int, int]]:
        return iter(self._keys)

    def __len__(self) -> int:
        return len(self._keys)


def _judged(rec: RoundRecord, mover: int, drawn: Card | None, reviewed: set[int]) -> bool:
    """Whether the review judges a turn of ``rec`` (its decision, the luck of its deck draw, or both):
    not the opponent's turns in a one-player record (their cards are unknown), nor a turn of a player
    not under review that draws no card the record knows. (A record holds no turn after the draw
    pile is empty: its replay refuses one.)"""
    if rec.viewer is not None and mover != rec.viewer:
        return False
    return mover in reviewed or drawn is not None


def _jobs(rounds: Sequence[RoundRecord], reviewed: set[int], time_budget: float, seed: int,
          search_floor: float = SEARCH_FLOOR, skip: Mapping[tuple[int, int], Any] | None = None) -> Iterator[_Job]:
    """The turns to judge (``_judged``), oldest first, each job built only when it is asked for;
    not those of ``skip`` (judged already)."""
    for r, rec in enumerate(rounds, start=1):
        moves, codes = _round_codes(rec)
        for step in rec.steps():
            if not _judged(rec, step.player, step.drawn, reviewed) or (skip and (r, step.index) in skip):
                continue
            before = step.before
            view = before.view(step.player) if isinstance(before, Position) else before
            drawn = str(step.drawn) if step.drawn is not None else None
            pile = list(before.deck) if isinstance(before, Position) else None
            n = len(view.history)  # the round's history so far (checked at its last turn, else sent whole)
            same = n <= len(moves) and (n == 0 or view.history[n - 1] == moves[n - 1])
            yield _Job(r, step.index, step.player, view, str(step.turn.move), drawn, time_budget, seed,
                       step.player in reviewed, pile, search_floor, codes[:n] if same else None)


def _run(jobs: Iterator[_Job], total: int, executor: str | Executor | None, workers: int | None,
         progress: bool, kept: Sequence[dict[str, Any]] = (),
         on_judged: Callable[[dict[str, Any]], None] | None = None,
         started: float | None = None) -> tuple[list[dict[str, Any]], int | str]:
    """Judge the turns of ``jobs`` (``total`` with the ``kept`` ones, judged before), each built when
    it is handed out and dropped once judged: on an executor, at most ``IN_FLIGHT`` (or
    ``AHEAD_PER_WORKER`` a worker) are out at once; each judgement goes to ``on_judged`` as it comes,
    with its ``"elapsed"``: the seconds of ``time.perf_counter`` since the judgement before it came,
    or since ``started`` (default: now), so that a run's judgements add up to its time so far.
    The bar counts turns judged, the kept ones first."""
    bar = None
    if progress:
        from tqdm.auto import tqdm

        bar = tqdm(total=total, initial=len(kept), desc="review", unit="turn")
    # redrawn every second meanwhile: a decision the endgame search judges takes seconds, and the bar
    # (its time too) stood still through them
    stop_ticking = ticking(bar, TICK_SECONDS)
    results: list[dict[str, Any]] = list(kept)
    last = [time.perf_counter() if started is None else started]

    def done(result: dict[str, Any]) -> None:
        now = time.perf_counter()
        result["elapsed"], last[0] = now - last[0], now
        if on_judged is not None:
            on_judged(result)
        results.append(result)
        if bar is not None:
            bar.update(1)

    try:
        left = total - len(kept)
        # never more processes than turns left to hand out: each is a fork of this one
        n_workers = max(1, min(workers or os.cpu_count() or 1, left - 1))
        serial = executor == "serial" or (executor is None and n_workers == 1)
        first = next(jobs, None)
        if first is None:  # every turn was judged before
            return results, 1 if serial or executor is None else type(executor).__name__
        # the first turn runs here: the engine is then loaded before a pool forks its workers
        done(_review_turn(first))
        if serial:
            for job in jobs:
                done(_review_turn(job))
            return results, 1
        own = executor is None
        if own:
            ex: Executor = worker_pool(n_workers)  # (killed, even by SIGKILL, the review leaves none behind)
        else:
            assert isinstance(executor, Executor)
            ex = executor
        try:
            ahead = max(IN_FLIGHT, AHEAD_PER_WORKER * n_workers)
            pending: set[Future[dict[str, Any]]] = set()
            for job in jobs:
                pending.add(ex.submit(_review_turn, job))
                if len(pending) >= ahead:
                    pending = _collect(pending, done)
            while pending:
                pending = _collect(pending, done)
        finally:
            if own:
                ex.shutdown(cancel_futures=True)
        return results, (n_workers if own else type(executor).__name__)
    finally:
        stop_ticking()
        if bar is not None:
            bar.close()


def _collect(pending: set[Future[dict[str, Any]]],
             done: Callable[[dict[str, Any]], None]) -> set[Future[dict[str, Any]]]:
    """Wait for one turn or more of ``pending`` to be judged, hand each result to ``done``; the rest."""
    finished, rest = wait(pending, return_when=FIRST_COMPLETED)
    for fut in finished:
        done(fut.result())
    return rest


def _assemble(rounds: Sequence[RoundRecord], results: list[dict[str, Any]], reviewed: set[int], time_budget: float,
              seed: int, seconds: float, workers: int | str, kind: str, viewer: int | None) -> Review:
    results.sort(key=lambda x: (x["round"], x["index"]))
    decisions: list[Decision] = []
    draws: list[Draw] = []
    fields = set(Decision.__dataclass_fields__)
    for x in results:
        if x["analysed"]:
            d = Decision(**{k: v for k, v in x.items() if k in fields}, mark=None)
            d.mark = mark_for(d.loss, d.loss_stderr, d.forced)
            decisions.append(d)
        else:
            draws.append(Draw(**{k: v for k, v in x.items() if k in Draw.__dataclass_fields__}))
    scores = [rec.scores() for rec in rounds]
    finished = all(rec.is_finished() for rec in rounds)
    players = []
    for p in sorted(reviewed):
        mine = [d for d in decisions if d.player == p]
        unforced = [d for d in mine if not d.forced]
        total = float(sum(d.loss for d in unforced))
        total_se = math.sqrt(sum(d.loss_stderr ** 2 for d in unforced))
        luck, luck_se, n_draws = _luck(decisions, draws, p)
        result = sum(s[p] - s[1 - p] for s in scores)
        if viewer is None:
            opp_luck, opp_se, _ = _luck(decisions, draws, 1 - p)
            adjusted = None if luck is None or opp_luck is None else result - (luck - opp_luck)
            adjusted_se = None if adjusted is None else math.hypot(luck_se or 0.0, opp_se or 0.0)
        else:
            adjusted = None if luck is None else result - luck
            adjusted_se = luck_se if adjusted is not None else None
        rate = total / len(unforced) if unforced else None
        marks = {name: sum(1 for d in mine if d.mark == name) for name, _ in MARKS}
        players.append(PlayerSummary(p, len(mine), len(unforced), rate, total, total_se, luck, luck_se, n_draws,
                                     result, adjusted, rating_for(rate) if len(unforced) >= MIN_RATED else None,
                                     marks, adjusted_se, None if rate is None else total_se / len(unforced),
                                     bounded=sum(d.loss_bound == "lower" for d in unforced)))
    recon = []
    if viewer is None and reviewed == {0, 1}:
        for r, rec in enumerate(rounds, start=1):
            recon.append(_reconcile(r, rec, [d for d in decisions if d.round == r]))
    return Review(decisions, draws, players, [x for x in recon if x],
                  ("a full-deal record" if viewer is None else f"player {viewer}'s record") + f" of {kind}",
                  len(rounds), time_budget, seed, seconds, workers, finished, viewer,
                  TurnViews(rounds, [(d.round, d.index) for d in decisions]), scores,
                  capped=[r for r, rec in enumerate(rounds, start=1) if rec.is_capped()],
                  turn_cap=rounds[0].rules.turn_cap)


def _luck(decisions: list[Decision], draws: list[Draw], p: int) -> tuple[float | None, float | None, int]:
    events: list[Decision | Draw] = [*decisions, *draws]
    items = [(x.luck, x.luck_stderr) for x in events if x.player == p and x.luck is not None]
    if not items:  # no deck draw of this player's in the record: a sum over none (the spec's luck is a number)
        return 0.0, 0.0, 0
    return float(sum(a or 0.0 for a, _ in items)), math.sqrt(sum((b or 0.0) ** 2 for _, b in items)), len(items)


def _reconcile(r: int, rec: RoundRecord, decisions: list[Decision]) -> dict[str, Any] | None:
    """actual = start + skill + luck + hidden, player 0's points (module docstring)."""
    if not decisions or not rec.is_finished() or len(decisions) != len(rec.turns):
        return None
    if any(d.value_reference is None for d in decisions):
        return None
    s0, s1 = rec.scores()
    actual = s0 - s1

    def sign(d: Decision) -> int:
        return 1 if d.player == 0 else -1

    first = decisions[0]
    start = sign(first) * float(first.value_reference)  # type: ignore[arg-type]
    start_var = float(first.value_reference_stderr or 0.0) ** 2
    skill_var = luck_var = 0.0
    skill = [0.0, 0.0]
    luck = [0.0, 0.0]
    hidden = 0.0
    bounded = 0
    for t, d in enumerate(decisions):
        gain = d.gain_vs_reference
        if gain is None:  # the endgame search only bounded the played or the reference turn: its values stand
            gain = float(d.value_played) - float(d.value_reference)  # type: ignore[arg-type]
            bounded += 1
        skill[d.player] += float(gain)
        skill_var += float(d.gain_vs_reference_stderr or 0.0) ** 2
        after = d.value_played  # the value after the turn, the mover's points
        if d.luck is not None:
            luck[d.player] += d.luck
            luck_var += float(d.luck_stderr or 0.0) ** 2
            after += d.luck
        if t + 1 < len(decisions):
            nxt = sign(decisions[t + 1]) * float(decisions[t + 1].value_reference or 0.0)
        else:
            nxt = float(actual)
        hidden += nxt - sign(d) * after
    return {"round": r, "actual": actual, "start": start, "skill": skill, "luck": luck, "hidden": hidden,
            "explained": start + skill[0] - skill[1] + luck[0] - luck[1],
            "stderr": math.sqrt(start_var + skill_var + luck_var), "start_stderr": math.sqrt(start_var),
            "skill_stderr": math.sqrt(skill_var), "luck_stderr": math.sqrt(luck_var),
            "bounded": bounded,
            "note": "player 0's points; skill = value of the played turn minus the reference (heuristic) turn's; "
                    "hidden = what each player's view could not see, zero on average"
                    + (f"; {bounded} decision(s) near the end carry a value the endgame search only bounded "
                       f"(more than its margin below the best), so their skill and hidden shares are bounds"
                       if bounded else "")}


def reconciled_text(rec: dict[str, Any]) -> str:
    """A round's reconciliation in one line, each estimate with its standard error: the hidden cards
    are what is left of the actual (exact) result, so theirs is that of the other three together."""
    return (f"actual {rec['actual']:+d} = start {rec['start']:+.1f} ± {rec['start_stderr']:.1f} + skill "
            f"{rec['skill'][0] - rec['skill'][1]:+.1f} ± {rec['skill_stderr']:.1f} + luck "
            f"{rec['luck'][0] - rec['luck'][1]:+.1f} ± {rec['luck_stderr']:.1f} + hidden cards "
            f"{rec['hidden']:+.1f} ± {rec['stderr']:.1f}")


# --- pictures --------------------------------------------------------------------------------------

MARK_COLOURS = {"inaccuracy": "#e0b000", "mistake": "#e67e22", "blunder": "#c0392b"}


LINE_COLOURS = ("#2f6fce", "#2e9a4c")  # the reviewed (or first) player's view, the other player's


def _value_graph(rv: Review, width: int, height: int) -> str:
    own = rv.viewer or 0
    # one line per player and round: the best turn's value from that player's own view at each of
    # their decisions (the other player's negated, so both read as player ``own``'s points), ending
    # at the round's actual result; the gap between the lines is what each could not see
    lines: list[tuple[int, list[tuple[float, float, Decision | None]]]] = []
    pts: list[tuple[float, float, Decision | None]] = []
    offset = 0
    round_marks = []
    for r in range(1, rv.rounds + 1):
        ds = [d for d in rv.decisions if d.round == r]
        if not ds:
            continue
        round_marks.append(offset)
        last = max(d.index for d in ds) + 1
        final = None
        if r - 1 < len(rv.scores):
            sc = rv.scores[r - 1]
            final = (float(offset + last), float(sc[own] - sc[1 - own]), None)
        for p in (own, 1 - own):
            line: list[tuple[float, float, Decision | None]] = [
                (float(offset + d.index), (1 if p == own else -1) * d.value_best, d) for d in ds if d.player == p]
            if line:
                lines.append((0 if p == own else 1, line + ([final] if final else [])))
                pts.extend(line)
        if final:
            pts.append(final)
        offset += last + 2
    if not pts:
        return ""
    ml, mr, mt, mb = 48, 16, 24, 30
    xs = [q[0] for q in pts]
    ys = [q[1] for q in pts] + [0.0]
    lo, hi = min(ys), max(ys)
    pad = max(5.0, 0.08 * (hi - lo))
    lo, hi = lo - pad, hi + pad
    x0, x1 = min(xs), max(*xs, min(xs) + 1)

    def sx(x: float) -> float:
        return ml + (x - x0) / (x1 - x0) * (width - ml - mr)

    def sy(y: float) -> float:
        return mt + (hi - y) / (hi - lo) * (height - mt - mb)

    def label(x: float, text: str, colour: str) -> str:
        return (f'<text x="{x:.0f}" y="15" font-size="11" font-family="sans-serif" fill="{colour}">'
                f'{html.escape(text)}</text>')

    body = [f'<rect width="{width}" height="{height}" fill="#ffffff"/>',
            label(ml, f"player {own}'s points, best turn, from player {own}'s view", LINE_COLOURS[0]),
            f'<line x1="{ml}" x2="{width - mr}" y1="{sy(0):.1f}" y2="{sy(0):.1f}" stroke="#999" '
            'stroke-dasharray="4 3"/>']
    if any(k == 1 for k, _ in lines):
        body.append(label(ml + 300, f"from player {1 - own}'s view", LINE_COLOURS[1]))
    body.append(label(width - mr - 200, "dots: marked turns, final result", "#2b2b2b"))
    step = _nice_step(hi - lo)
    v = math.ceil(lo / step) * step
    while v <= hi:
        body.append(f'<text x="{ml - 6}" y="{sy(v) + 4:.1f}" font-size="10" text-anchor="end" '
                    f'font-family="sans-serif" fill="#7a7263">{v:+g}</text>')
        body.append(f'<line x1="{ml - 3}" x2="{ml}" y1="{sy(v):.1f}" y2="{sy(v):.1f}" stroke="#555"/>')
        v += step
    body.append(f'<text x="{(width + ml) / 2:.0f}" y="{height - 6}" font-size="10" text-anchor="middle" '
                f'font-family="sans-serif" fill="#7a7263">turn</text>')
    for k, line in lines:
        path = " ".join(f"{'M' if i == 0 else 'L'}{sx(x):.1f},{sy(y):.1f}" for i, (x, y, _d) in enumerate(line))
        body.append(f'<path class="value-line player-{own if k == 0 else 1 - own}" d="{path}" fill="none" '
                    f'stroke="{LINE_COLOURS[k]}" stroke-width="1.6"/>')
    for x, y, dd in pts:
        if dd is None:
            body.append(f'<circle class="result" cx="{sx(x):.1f}" cy="{sy(y):.1f}" r="4" fill="#2b2b2b">'
                        f'<title>final result {y:+.0f}</title></circle>')
        elif dd.mark:
            title = html.escape(f"turn {dd.index}, player {dd.player}: played {dd.played}, best {dd.best}, "
                                f"loss {dd.loss_text()} ({dd.mark})")
            body.append(f'<circle class="mark {dd.mark}" cx="{sx(x):.1f}" cy="{sy(y):.1f}" r="5" '
                        f'fill="{MARK_COLOURS[dd.mark]}" stroke="#222"><title>{title}</title></circle>')
    for off in round_marks[1:]:
        body.append(f'<line x1="{sx(off - 1):.1f}" x2="{sx(off - 1):.1f}" y1="{mt}" y2="{height - mb}" stroke="#ccc"/>')
    return (f'<svg xmlns="http://www.w3.org/2000/svg" class="value-graph" width="{width}" height="{height}" '
            f'viewBox="0 0 {width} {height}">' + "".join(body) + "</svg>")


def _nice_step(span: float) -> float:
    raw = max(span, 1e-9) / 5
    mag = 10 ** math.floor(math.log10(raw))
    return min(s * mag for s in (1, 2, 2.5, 5, 10) if s * mag >= raw)


_CSS = """
body { font-family: DejaVu Sans, Helvetica, Arial, sans-serif; color: #2b2b2b; margin: 24px; max-width: 980px; }
table { border-collapse: collapse; font-size: 13px; }
td, th { padding: 3px 8px; border-bottom: 1px solid #e4ddcc; text-align: right; }
th { background: #efe8d8; }
td.l, th.l { text-align: left; }
tr.inaccuracy td { background: #fff6d6; } tr.mistake td { background: #fde6d2; } tr.blunder td { background: #f9d6d2; }
tr.forced td { color: #9a9284; }
.critical { display: flex; gap: 18px; align-items: flex-start; margin: 14px 0 24px; }
code { font-size: 13px; }
small { color: #7a7263; }
"""


def _html(rv: Review, fragment: bool = False) -> str:
    from lcanalysis.show.render import view_svg

    e = html.escape
    parts = [f"<h1>Game review</h1><p>{e(rv.record_kind)}: {e(rv.rounds_text())}, {len(rv.decisions)} decisions; "
             f"{rv.time_budget:g} s a decision, seed {rv.seed}; reviewed in {e(rv.time_text())}.</p>"]
    if rv.capped:
        parts.append(f"<p>{e(rv.capped_text())}.</p>")
    if rv.match_note:
        parts.append(f"<p>{e(rv.match_note)}.</p>")
    rows = []
    for p in rv.players:
        rate = p.error_rate_text()
        luck = "unknown" if p.luck is None else f"{p.luck:+.1f} ± {p.luck_stderr:.1f}"
        adj = p.luck_adjusted_text()
        marks = ", ".join(f"{p.marks.get(n, 0)} {n}" for n, _ in reversed(MARKS))
        rows.append(f"<tr><td>{e(p.label)}</td><td>{p.decisions} ({p.unforced})</td><td>{rate}</td>"
                    f"<td>{e(p.total_loss_text())}</td><td class='l'>{e(p.rating_text())}</td>"
                    f"<td class='l'>{marks}</td><td>{luck}</td><td>{p.result:+d}</td><td>{adj}</td></tr>")
    parts.append("<h2>Players</h2><table><tr><th>player</th><th>decisions (unforced)</th><th>error rate</th>"
                 "<th>total loss</th><th class='l'>rating</th><th class='l'>marks</th><th>luck</th><th>result</th>"
                 "<th>luck-adjusted</th></tr>" + "".join(rows) + "</table>")
    if rv.viewer is not None:
        parts.append(f"<p><small>Luck against {e(rv.luck_against)}: {e(ONE_PLAYER_LUCK)}.</small></p>")
    for rec in rv.reconciliation:
        parts.append(f"<p><b>Round {rec['round']}</b>, player 0's points: {e(reconciled_text(rec))} "
                     f"<small>({e(rec['note'])})</small></p>")
    parts.append("<h2>Value over the round</h2>" + rv.value_graph_svg())
    crit = rv.critical()
    if crit:
        parts.append("<h2>Critical positions</h2>")
    for d in crit:
        view = rv.views.get((d.round, d.index))
        pic = str(view_svg(view, size=420)) if view is not None else ""
        alt = "".join(f"<tr><td class='l'><code>{e(a['move'])}</code></td><td>{a['value']:+.1f}</td>"
                      f"<td>{e(_alternative_loss_text(a))}</td></tr>" for a in d.alternatives)
        parts.append(f"<div class='critical'><div>{pic}</div><div><h3>{e(_where(d))}: {e(d.mark or '')}</h3>"
                     f"<p>played <code>{e(d.played)}</code>, best <code>{e(d.best)}</code>: loss "
                     f"{d.loss_text()} points</p><table><tr><th class='l'>turn</th><th>value</th>"
                     f"<th>loss</th></tr>{alt}</table><p><small>{e(d.method)}</small></p></div></div>")
    rows = []
    for d in rv.decisions:
        luck = "" if d.luck is None else f"{d.drawn}: {d.luck:+.1f} ± {d.luck_stderr:.1f}"
        cls = d.mark or ("forced" if d.forced else "")
        rows.append(f"<tr class='{cls}'><td>{d.round}</td><td>{d.index}</td><td>{d.player}</td><td>{d.deck}</td>"
                    f"<td class='l'><code>{e(d.played)}</code></td><td class='l'><code>{e(d.best)}</code></td>"
                    f"<td>{d.loss_text(2)}</td><td class='l'>{e(cls)}"
                    f"</td><td>{luck}</td><td>{'exact' if d.exact else d.worlds}</td><td>{d.seconds:.2f}</td></tr>")
    parts.append("<h2>Every decision</h2><table><tr><th>round</th><th>turn</th><th>player</th><th>deck</th>"
                 "<th class='l'>played</th><th class='l'>best</th><th>loss</th><th class='l'>mark</th>"
                 "<th>luck of the draw</th><th>worlds</th><th>seconds</th></tr>" + "".join(rows) + "</table>")
    parts.append("<p><small>Marks: " + ", ".join(f"{n} from {least:g} points" for n, least in reversed(MARKS))
                 + f", only when the loss exceeds {MARK_SIGMAS:g} standard errors; losses paired over shared worlds, "
                 "fresh ones, not those the advisor picked its best turn in, so a loss may come out below 0 "
                 "when the played turn is as good (the estimate is unbiased); "
                 "luck = value after the draw minus the mean over the possible draws, from the drawer's view. "
                 "Rating bands by error rate (points lost per unforced decision): "
                 + ", ".join(f"{n} below {b:g}" for n, b in RATING_BANDS if math.isfinite(b))
                 + f", {RATING_BANDS[-1][0]} above.</small></p>")
    body = "\n".join(parts)
    if fragment:
        return f"<div class='lcanalysis-review'><style>{_CSS}</style>{body}</div>"
    return ("<!DOCTYPE html><html><head><meta charset='utf-8'><title>lcanalysis game review</title>"
            f"<style>{_CSS}</style></head><body>{body}</body></html>\n")


__all__ = ["DEFAULT_TIME", "MARKS", "RATING_BANDS", "Decision", "Draw", "PlayerSummary", "Review", "ReviewError",
           "decision_seed", "draw_luck", "judgement_of", "judgement_text", "keep_settings", "mark_for", "rating_for",
           "review"]
