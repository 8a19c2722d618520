"""A review's marks checked by rollouts, as GNU Backgammon lets a user roll out a doubtful move.

``check_marks(rv, trials)`` takes the decisions a review marked, worst first (the largest loss), and
for each plays the turn played and the review's best turn out to the end of the round with a strong
agent in both seats (``studies.rollout.rollout``, ``best`` by default: the same worlds and agent
seeds for both turns, each result less the luck of its deck draws), from the mover's view before
the turn, as the review judged it. Its loss (best minus played, paired) and verdict stand beside
the review's (``reviewer.checks``), and the players' totals are made again with them. A check is
exactly ``rollout(rv.views[(round, index)], turns=[best, played], agent=..., trials=..., seed=...)``
with the review's seed: the same numbers, whichever way it is run.

Budgets: ``trials`` each check; ``seconds`` for all of them (the marks not reached keep the
review's losses and say so; the one being rolled out when the time runs out answers from its
trials played, if 2 or more); ``top``: at most that many marks. With ``folder`` each check's
trials are written as they finish (the rollout's file, one a check), and the same call plays only
the trials missing: ``lcanalysis review --out FILE --check N`` keeps them in ``FILE.checks/``.
"""

from __future__ import annotations

import os
import re
import sys
import time
from collections.abc import Callable
from typing import Any

from lcanalysis.options import EXTERNAL_CANNOT_ROLL_OUT, FEWEST_TRIALS, MAX_WORKERS, ONE_TRIAL
from lcanalysis.options import MAX_CHECK_TOP as MAX_TOP
from lcanalysis.reviewer.checks import MarkCheck, ReviewChecks, checked_players, verdict_for
from lcanalysis.reviewer.report import Decision, Review
from lcanalysis.reviewer.words import where
from lcanalysis.studies import rollout as rollout_study
from lcanalysis.studies.rollout import MAX_SECONDS, MAX_TRIALS, RolloutError, rollout

DEFAULT_AGENT = "best"


class CheckError(ValueError):
    """Checks that cannot be made as asked; the message names the option and what is wrong."""


def check_options(trials: Any, seconds: Any = None, top: Any = None, agent: Any = DEFAULT_AGENT,
                  workers: Any = 1) -> None:
    """Refuse bad options before any work (the review before the checks can take minutes)."""
    from lcanalysis.tournaments.specs import TournamentError, check_agent

    if isinstance(trials, bool) or not isinstance(trials, int) or not FEWEST_TRIALS <= trials <= MAX_TRIALS:
        raise CheckError(f"trials (--check) must be a whole number from {FEWEST_TRIALS} to {MAX_TRIALS:,} "
                         f"({ONE_TRIAL}), got {trials!r}")
    if seconds is not None and (isinstance(seconds, bool) or not isinstance(seconds, (int, float))
                                or not 0 < seconds <= MAX_SECONDS):
        raise CheckError(f"seconds (--check-seconds) must be a number of seconds above 0 and at most "
                         f"{MAX_SECONDS:,.0f}, got {seconds!r}")
    if top is not None and (isinstance(top, bool) or not isinstance(top, int) or not 1 <= top <= MAX_TOP):
        raise CheckError(f"top (--check-top) must be a whole number from 1 to {MAX_TOP:,}, got {top!r}")
    if isinstance(workers, bool) or not isinstance(workers, int) or not 1 <= workers <= MAX_WORKERS:
        raise CheckError(f"workers must be a whole number from 1 to {MAX_WORKERS}, got {workers!r}")
    try:
        spec = check_agent(agent)
    except TournamentError as exc:
        raise CheckError(f"agent (--check-agent): {exc}") from None
    if spec.name == "external":
        raise CheckError(f"agent (--check-agent): {EXTERNAL_CANNOT_ROLL_OUT}")


def check_file(folder: str, d: Decision, agent: str) -> str:
    """The file a check's trials are kept in: one a decision and agent (so that checks by another agent
    keep their own trials beside these), in ``folder``."""
    name = re.sub(r"[^A-Za-z0-9.]+", "_", agent).strip("_")
    return os.path.join(folder, f"round{d.round}_turn{d.index}_{name}.csv")


def check_marks(rv: Review, trials: int, *, seconds: float | None = None, top: int | None = None,
                agent: str = DEFAULT_AGENT, seed: int | None = None, workers: int = 1, folder: str | None = None,
                progress: bool | Callable[[str], None] = False, command: str | None = None) -> ReviewChecks:
    """Check the marks of ``rv`` by rollouts (module docstring) and keep the answer in ``rv.checks``
    (its text, JSON and HTML report then show them). ``seed``: the rollouts' (default the review's).
    ``progress``: True for a line a check and a bar over its trials on standard error, or a function
    given each line. ``command``: what the check files' ``.cmd`` sidecars record."""
    check_options(trials, seconds, top, agent, workers)
    from lcanalysis.tournaments.specs import check_agent

    label = check_agent(agent).label
    seed = rv.seed if seed is None else seed
    clock = rollout_study._clock  # the rollouts' clock: their time budget and this one run on the same
    started = clock()
    deadline = None if seconds is None else started + float(seconds)
    say = progress if callable(progress) else (lambda line: print(line, file=sys.stderr)) if progress else None
    marked = sorted((d for d in rv.decisions if d.mark), key=lambda d: (-d.loss, d.round, d.index))
    if folder is not None:
        if os.path.exists(folder) and not os.path.isdir(folder):
            raise CheckError(f"{folder} is a file, not a folder the checks' trials can be kept in")
        os.makedirs(folder, exist_ok=True)
    checks: list[MarkCheck] = []
    unchecked: list[dict[str, Any]] = []
    chosen = marked if top is None else marked[:top]
    for k, d in enumerate(chosen, start=1):
        left = None if deadline is None else deadline - clock()
        if left is not None and left <= 0:
            unchecked.append(_unchecked(d, f"the time budget of {seconds:g} s (--check-seconds) ran out first"))
            continue
        if say is not None:
            say(f"checking mark {k} of {len(chosen)}: {where(d)}: played {d.played}, best {d.best}, review loss "
                f"{d.loss_text()} ({d.mark})")
        t0 = time.perf_counter()
        path = None if folder is None else check_file(folder, d, label)
        kept = _trials_kept(path, trials)
        try:
            answer = rollout(rv.views[(d.round, d.index)], turns=[d.best, d.played], agent=agent, trials=trials,
                             seed=seed, workers=workers, out=path, progress=progress, command=command,
                             seconds=left)
        except RolloutError as exc:
            if deadline is None or clock() < deadline:
                unchecked.append(_unchecked(d, f"the rollout cannot be made: {exc}"))
            else:
                unchecked.append(_unchecked(d, f"the time budget of {seconds:g} s (--check-seconds) ran out before 2 "
                                               f"trials were played" + (f" (kept in {path})" if path else "")))
            continue
        except ValueError as exc:  # (a position the rollout cannot deal worlds for: the other marks go on)
            unchecked.append(_unchecked(d, f"the rollout cannot be made: {exc}"))
            continue
        checks.append(_check(d, answer, time.perf_counter() - t0, path, kept))
    unchecked += [_unchecked(d, f"beyond the {top} worst (--check-top)") for d in marked[len(chosen):]]
    players, counted = checked_players(rv, checks)
    rv.checks = ReviewChecks(label, trials, seed, None if seconds is None else float(seconds), top, len(marked),
                             checks, unchecked, players, counted, clock() - started, folder)
    return rv.checks


def _points(move: Any) -> tuple[float, float, float, float]:
    """A turn's value, its standard error, its loss against the best turn and that loss's standard error,
    in points: on a position in a match the rollout ranks by the chance to win the match and keeps the
    points among each turn's extras (``studies.rollout.match_answer``)."""
    x = move.extra
    if "points" in x:
        return x["points"], x["points_stderr"], x["points_loss"], x["points_loss_stderr"]
    return move.value, move.stderr, move.loss, move.loss_stderr


def _trials_kept(path: str | None, trials: int) -> int:
    """The trials of a check already in its file (an earlier run's), of the first ``trials``: 0 without one."""
    if path is None or not os.path.exists(path) or os.path.getsize(path) == 0:
        return 0
    try:
        rows = rollout_study.load_rollout(path)
    except (OSError, ValueError):  # (a file the rollout refuses, naming why, when it opens it)
        return 0
    return int(rows.loc[rows["trial"] < trials, "trial"].nunique())


def _check(d: Decision, answer: Any, seconds: float, path: str | None, kept: int = 0) -> MarkCheck:
    by_move = {m.move: m for m in answer.moves}
    vb, sb, lb, eb = _points(by_move[d.best])
    vp, sp, lp, ep = _points(by_move[d.played])
    # of two turns one is the better by the mean and loses 0; the other's loss and its standard error
    # are the paired difference's, which is the loss of the played turn, signed, that the check gives
    loss, stderr = lp - lb, max(ep, eb)
    verdict, grade = verdict_for(loss, stderr)
    n = int(answer.playouts // 2)
    notes = [note for note in answer.notes if note.startswith("stopped")]
    return MarkCheck(d.round, d.index, d.player, d.deck, d.played, d.best, str(d.mark), d.loss, d.loss_stderr,
                     d.exact, d.loss_bound, float(loss), float(stderr), verdict, grade, float(vb), float(sb),
                     float(vp), float(sp), n, seconds, notes, path, min(kept, n))


def _unchecked(d: Decision, reason: str) -> dict[str, Any]:
    return {"round": d.round, "index": d.index, "player": d.player, "deck": d.deck, "played": d.played,
            "best": d.best, "grade": d.mark, "review_loss": d.loss, "review_loss_stderr": d.loss_stderr,
            "review_exact": d.exact, "review_loss_bound": d.loss_bound, "reason": reason}
