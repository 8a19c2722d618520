"""The review's marks checked by rollouts: each check's verdict beside the review's loss, and the
players' totals and ratings made again with the checked losses, as data, text and JSON.

A review's losses are its play-outs' of the stalling heuristic (``settings.JUDGED_BY``); a stronger player can be
marked for plans they do not play. A check plays the played turn and the review's best turn out
with a strong agent in both seats (``lcanalysis.studies.review_check``, which runs
``studies.rollout``), and its loss, the best turn's value minus the played turn's paired over the
trials, is judged by the review's own marks (``settings.mark_for``): **confirmed** when it is itself
a mark (2 points or more, beyond ``MARK_SIGMAS`` standard errors; its grade may differ from the
review's), **overturned** when it is below the least mark beyond ``MARK_SIGMAS`` standard errors (the
played turn loses less than 2 points, or gains), and **too close to call** otherwise."""

from __future__ import annotations

import dataclasses
import math
from dataclasses import asdict, dataclass, field
from typing import TYPE_CHECKING, Any

from lcanalysis.analysis import loss_in_words
from lcanalysis.reviewer.report import PlayerSummary
from lcanalysis.reviewer.settings import MARK_SIGMAS, MARKS, MIN_RATED, mark_for, rating_for
from lcanalysis.reviewer.words import VERDICT_RULE, where, where_unchecked

if TYPE_CHECKING:
    from lcanalysis.reviewer.report import Review

CONFIRMED, OVERTURNED, TOO_CLOSE = "confirmed", "overturned", "too close to call"
LEAST_MARK = min(least for _, least in MARKS)
#: what the text says under a checked total below zero: a checked loss is against the review's best turn,
#: which a stronger player's turn can beat by far
CHECKED_BELOW_ZERO = ("below zero: a checked loss is the review's best turn's value minus the played turn's, and "
                      "where the rollouts found the played turn the better one it counts below zero")


def verdict_for(loss: float, stderr: float) -> tuple[str, str | None]:
    """A rollout's verdict on a marked decision from its loss and that loss's standard error, and the
    grade the loss earns by the review's marks (None unless confirmed)."""
    if not (math.isfinite(loss) and math.isfinite(stderr) and stderr >= 0):
        raise ValueError(f"a check's loss and standard error must be finite (stderr >= 0), got {loss!r} ± {stderr!r}")
    grade = mark_for(loss, stderr)
    if grade is not None:
        return CONFIRMED, grade
    if loss + MARK_SIGMAS * stderr < LEAST_MARK:
        return OVERTURNED, None
    return TOO_CLOSE, None


@dataclass
class MarkCheck:
    """One marked decision rolled out: the review's judgement (``grade``, ``review_loss``...) and the
    rollout's (``loss``: the review's best turn's value minus the played turn's, paired over
    ``trials`` trials, an estimate with ``loss_stderr``; ``verdict``; ``checked_grade``, the mark that
    loss earns). Values are the mover's final score difference of the round, in points."""

    round: int
    index: int
    player: int
    deck: int
    played: str
    best: str
    grade: str
    review_loss: float
    review_loss_stderr: float
    review_exact: bool
    review_loss_bound: str | None
    loss: float
    loss_stderr: float
    verdict: str
    checked_grade: str | None
    value_best: float
    value_best_stderr: float
    value_played: float
    value_played_stderr: float
    trials: int
    seconds: float
    notes: list[str] = field(default_factory=list)  # the rollout's, when a clock or precision stopped it early
    file: str | None = None  # where its trials are kept (resumed from there)
    trials_kept: int = 0  # of ``trials``, those an earlier run had played and kept in ``file``

    def review_loss_text(self) -> str:
        return loss_in_words(self.review_loss, self.review_loss_stderr, exact=self.review_exact,
                             bound=self.review_loss_bound == "lower")

    def loss_text(self) -> str:
        return loss_in_words(self.loss, self.loss_stderr, exact=False, bound=False)

    def verdict_text(self) -> str:
        return self.verdict + (f" ({self.checked_grade})" if self.checked_grade else "")


@dataclass
class ReviewChecks:
    """The marks of a review checked by rollouts (``studies.review_check.check_marks``): ``checks``,
    worst mark first; ``unchecked``, the marks left as the review judged them and why; ``players``,
    each player's totals with the checked losses where a check was made and the review's elsewhere."""

    agent: str
    trials: int
    seed: int
    seconds_budget: float | None
    top: int | None
    marked: int
    checks: list[MarkCheck]
    unchecked: list[dict[str, Any]]
    players: list[PlayerSummary]
    checked_losses: dict[int, int]  # player -> unforced decisions whose loss is a rollout's
    seconds: float = 0.0
    folder: str | None = None  # the check files' folder (review --out's FILE.checks)

    def counts(self) -> dict[str, int]:
        return {v: sum(c.verdict == v for c in self.checks) for v in (CONFIRMED, OVERTURNED, TOO_CLOSE)}

    def heading(self) -> str:
        if not self.marked:
            return "marks checked by rollouts: none, no decision is marked"
        budget = f", a time budget of {self.seconds_budget:g} s in all" if self.seconds_budget is not None else ""
        kept = sum(c.trials_kept for c in self.checks)
        # (a resumed rollout plays its file's last trial again: kept rows are whole, but it takes no chance)
        resumed = (f", resumed: {kept} of their {sum(c.trials for c in self.checks)} trials found in {self.folder} "
                   "from earlier runs" if kept else "")
        return (f"marks checked by rollouts: {len(self.checks)} of {self.marked} marked decision(s), worst first; "
                f"each the played and the review's best turn played out {self.trials} time(s) by {self.agent} in "
                f"both seats (the same worlds and seeds: paired; luck-adjusted; seed {self.seed}{budget}); "
                f"{self.seconds:.1f} s{resumed}. Rollout losses are estimates, ± one standard error")

    def to_text(self) -> str:
        lines = [self.heading()]
        for c in self.checks:
            lines.append(f"  {where(c)}: played {c.played}, best {c.best}: review {c.review_loss_text()} "
                         f"{c.grade.upper()}, rollout {c.loss_text()} ({c.trials} trials): {c.verdict_text()}")
            lines.extend(f"    ({note})" for note in c.notes)
        for u in self.unchecked:
            lines.append(f"  {where_unchecked(u)}: {u['grade'].upper()} not checked: {u['reason']}")
        counts = self.counts()
        if self.checks:
            lines.append("  " + ", ".join(f"{n} {v}" for v, n in counts.items()))
        lines.append(f"verdicts: {VERDICT_RULE}")
        lines.append("")
        lines.append("with the checked losses (the rollouts' where a check was made, the review's elsewhere):")
        for p in self.players:
            n = self.checked_losses.get(p.player, 0)
            rate = (f"{p.error_rate_text()} points a decision" if p.error_rate is not None
                    else "n/a (no unforced decision)")
            rating = (f": rating {p.rating_text()}" if p.rating else
                      f": not rated (fewer than {MIN_RATED} unforced decisions)" if p.unforced < MIN_RATED else "")
            lines.append(f"{p.label}: error rate {rate}, total loss {p.total_loss_text()}{rating}")
            marks = ", ".join(f"{name} {p.marks.get(name, 0)}" for name, _ in reversed(MARKS))
            lines.append(f"  marks: {marks} ({n} loss(es) from the rollouts, {p.unforced - n} from the review)")
            if p.bounded:
                lines.append(f"  ({p.bounded_text()})")
            if p.total_loss < 0 and n:
                lines.append(f"  ({CHECKED_BELOW_ZERO})")
        return "\n".join(lines)

    def to_json(self) -> dict[str, Any]:
        """The labelled extra ``checks`` of the review's JSON answer (docs/spec/interchange.md)."""
        return {"agent": self.agent, "trials": self.trials, "seed": self.seed, "seconds_budget": self.seconds_budget,
                "top": self.top, "luck_adjusted": True, "seconds": self.seconds, "marked": self.marked,
                "checked": len(self.checks), "verdicts": self.counts(), "verdict_rule": VERDICT_RULE,
                "folder": self.folder,
                "decisions": [asdict(c) for c in self.checks], "unchecked": self.unchecked,
                "players": [{**p.spec_json(), "checked_losses": self.checked_losses.get(p.player, 0)}
                            for p in self.players]}


def checked_players(rv: Review, checks: list[MarkCheck]) -> tuple[list[PlayerSummary], dict[int, int]]:
    """Each player's totals as the review makes them (``run._assemble``), with the checked losses where
    a check was made: the error rate, total loss, rating and mark counts; a checked loss is an estimate,
    so a bound the endgame search gave there is no longer counted as one. Also how many of each
    player's unforced losses are the rollouts'."""
    by_turn = {(c.round, c.index): c for c in checks}
    players, counted = [], {}
    for p in rv.players:
        mine = [d for d in rv.decisions if d.player == p.player]
        unforced = [d for d in mine if not d.forced]
        losses = []
        marks = {name: 0 for name, _ in MARKS}
        bounded = checked = 0
        for d in mine:
            c = by_turn.get((d.round, d.index))
            grade = d.mark if c is None else c.checked_grade
            if grade:
                marks[grade] += 1
            if d.forced:
                continue
            if c is None:
                losses.append((d.loss, d.loss_stderr))
                bounded += d.loss_bound == "lower"
            else:
                losses.append((c.loss, c.loss_stderr))
                checked += 1
        total = float(sum(x for x, _ in losses))
        total_se = math.sqrt(sum(s ** 2 for _, s in losses))
        rate = total / len(unforced) if unforced else None
        players.append(dataclasses.replace(
            p, error_rate=rate, total_loss=total, total_loss_stderr=total_se,
            error_rate_stderr=None if rate is None else total_se / len(unforced),
            rating=rating_for(rate) if len(unforced) >= MIN_RATED else None, marks=marks, bounded=bounded))
        counted[p.player] = checked
    return players, counted
