"""How the advisor spreads its play-outs over the turns (successive halving, or the two stages
before it), fitted to the clock and reporting as they go, and the answer ranked through the best
turn's worlds."""

from __future__ import annotations

import time
from collections.abc import Callable

import numpy as np

from lcanalysis.advisor.settings import FINALISTS, FIRST_STAGE, MIN_WORLDS
from lcanalysis.analysis import Analysis, ranked
from lcanalysis.rollouts import Rollouts


def clock_fit(t0: float, time_budget: float) -> Callable[[Rollouts, int], int]:
    """With a wall clock: the budget cut to what the time left allows at the speed measured so far."""
    def fit(r: Rollouts, budget: int) -> int:
        spent = time.perf_counter() - t0
        rate = r.worlds / max(spent, 1e-3)
        return min(budget, r.worlds + int(max(time_budget * 0.95 - spent, 0.0) * rate))
    return fit


def reporting(fit: Callable[[Rollouts, int], int] | None,
               progress: Callable[[str], None]) -> Callable[[Rollouts, int], int]:
    """``fit`` (None: the budget as it is) that also reports the play-outs so far, at most once a second."""
    said = [time.perf_counter()]

    def report(r: Rollouts, budget: int) -> int:
        budget = budget if fit is None else fit(r, budget)
        now = time.perf_counter()
        if now - said[0] >= 1.0:
            said[0] = now
            means = r.means()
            lead = int(np.argmax(means))
            progress(f"play-outs: {r.worlds:,} so far; leading {r.move(lead)} {means[lead]:+.1f}")
        return budget
    return report


def halving(r: Rollouts, budget: int, fit: Callable[[Rollouts, int], int] | None) -> tuple[int, str]:
    """Successive halving over the turns of ``r`` (``Rollouts.halve``): the last turn in is the
    best and carries the largest sample, and no other turn's loss against it is below zero.
    Returns the best's index and the schedule in words."""
    best, sizes = r.halve(budget, fit, min_worlds=MIN_WORLDS)
    if len(sizes) == 1:
        return best, f"{sizes[0]} worlds per turn"
    steps = ", ".join(str(n) for n in sizes[1:])
    return best, (f"successive halving: {sizes[0]} worlds per turn, then the better half of the turns "
                  f"extended round by round to {steps} worlds")


def two_stages(r: Rollouts, budget: int, fit: Callable[[Rollouts, int], int] | None) -> tuple[int, str]:
    """The schedule before successive halving: every turn a first sample, the best few a larger
    one, and a turn that leads on its first sample alone the larger one too while the budget lasts."""
    n_moves = len(r.codes)
    n1 = max(MIN_WORLDS, int(budget * FIRST_STAGE) // n_moves)
    r.sample(n1)
    if fit is not None:  # fit what is left of the budget to the speed just measured
        budget = fit(r, budget)
    k2 = min(FINALISTS, n_moves)
    n2 = max(n1, n1 + int(budget * (1 - FIRST_STAGE)) // (2 * k2))  # room for the best k2 and k2 late risers
    # refine the best few; if a turn left out overtakes them, refine it too (at most 3 rounds),
    # so the turns at the top of the list all carry the larger sample
    left = budget - n1 * n_moves
    for _ in range(3):
        if n_moves <= 1 or n2 <= n1 or left < n2 - n1:
            break
        top = [int(k) for k in np.argsort(-r.means(), kind="stable")[:k2] if len(r.samples[k]) < n2]
        top = top[: max(0, left // (n2 - n1))]
        if not top:
            break
        left -= len(top) * (n2 - n1)
        r.sample(n2, top)
    # a turn that leads on a first-stage sample only may lead by luck: give it the larger sample
    # too, so the best turn named carries it (at most FINALISTS more turns), while the budget lasts
    # (it took 1,904 play-outs of a budget of 1,500 before: a budget given is kept)
    for _ in range(FINALISTS if n2 > n1 else 0):
        lead = int(np.argmax(r.means()))
        more = n2 - len(r.samples[lead])
        if more <= 0 or more > left:
            break
        left -= more
        r.sample(n2, [lead])
    best = int(np.argmax(r.means()))  # the first of equal means, as the ranking's stable sort
    return best, f"{n1} worlds per turn, {n2} for the best {k2}"


def rank_through_best(r: Rollouts, best: int, analysis: Analysis) -> None:
    """The play-outs' answer ranked: every turn's loss against the best (paired over the worlds they
    share), every other turn's value through the best's worlds, the best first, then by loss."""
    by_move = {str(r.move(k)): k for k in range(len(r.codes))}
    for m in analysis.moves:
        k = by_move[m.move]
        m.loss, m.loss_stderr = r.difference(best, k)
        if k != best:  # through the best's worlds: its value minus the paired loss (docs/agents.md)
            m.extra.update(own_mean=m.value, own_stderr=m.stderr)
            m.value, m.stderr = r.value_through(best, k)
    named = str(r.move(best))  # best first, then by the loss against it, which is the order of the values
    first = next(m for m in analysis.moves if m.move == named)  # (losses that tie: analysis.ranked's rule)
    analysis.moves[:] = [first] + ranked((m for m in analysis.moves if m is not first), lambda m: -(m.loss or 0.0))
