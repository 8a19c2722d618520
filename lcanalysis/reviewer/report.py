"""The review's answer: each decision and draw, each player's totals, and the review as text and
JSON (docs/spec/interchange.md, ``lcanalysis review``)."""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import asdict, dataclass, field
from typing import TYPE_CHECKING, Any

import numpy as np

from lcanalysis.analysis import loss_in_words
from lcanalysis.game.view import View
from lcanalysis.match_equity import match_loss_said
from lcanalysis.reviewer.report_html import review_html, value_graph
from lcanalysis.reviewer.settings import (
    ADVISOR_PLAYOUT_POLICY,
    BELOW_ZERO,
    ENDGAME_CARDS,
    JUDGED_BY,
    LUCK_HAND_MODEL,
    MARK_SIGMAS,
    MARKS,
    MIN_RATED,
    ONE_PLAYER_LUCK,
    PLAYOUT_POLICY,
    RATING_BANDS,
    REVIEW_VERSION,
    SEARCH_CARDS,
    SEARCH_FLOOR,
    SPEC_MARK,
    SPEC_MARKED,
    rating_for,
)
from lcanalysis.reviewer.words import (
    costliest_for_match,
    far_off_marks_text,
    lowered,
    reconciled_text,
    summed_reconciliation,
    where,
)

if TYPE_CHECKING:
    from lcanalysis.reviewer.checks import ReviewChecks

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
    #: in a match, where play-outs judged: the chance to win the match the played turn gives up against
    #: ``best_for_match`` (the best for the match of the turns played out), a fraction as advise's JSON and
    #: the tutor keep it (0.07: 7 percentage points, the text's and the HTML's unit), paired over the same
    #: fresh worlds as ``loss``, with its standard error; None where the endgame solver or search judged
    #: (points only) or there is no match
    match_loss: float | None = None
    match_loss_stderr: float | None = None
    best_for_match: str | None = None

    def match_said(self) -> str:
        """What the turn gave up of the chance to win the match, in the tutor's words and percentage points
        ("For the match: 1.5 ± 0.4 percentage points less chance to win it than -B3/D, the best turn for the
        match (by the play-outs)"); "" where it is not known."""
        if self.match_loss is None or self.best_for_match is None:
            return ""
        return match_loss_said(self.played, self.best_for_match, 100 * self.match_loss,
                               100 * (self.match_loss_stderr or 0.0), whose="the mover's")

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
    #: in a match: the chance to win the match given up over the decisions the play-outs judged
    #: (``match_decisions``), the sum of their ``Decision.match_loss``, a fraction as theirs, with the standard
    #: errors in quadrature; None when none was (a round, or only decisions near the end)
    match_loss: float | None = None
    match_loss_stderr: float | None = None
    match_decisions: int = 0

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

    def match_loss_text(self) -> str:
        """The chance to win the match given up, in words: "match chance given up: 3.2 ± 1.1 percentage points
        over 5 decisions judged by play-outs", or that none was measured."""
        if self.match_loss is None:
            return ("match chance given up: not measured (no decision judged by play-outs; near the end the "
                    "endgame search judges in points only)")
        return (f"match chance given up: {100 * self.match_loss:.1f} ± {100 * (self.match_loss_stderr or 0.0):.1f} "
                f"percentage points over {self.match_decisions} decision(s) judged by play-outs (an estimate, as "
                "the match note says; a sum over decisions, not a chance, so it can pass 100; decisions near the end, "
                "judged in points only, are not counted)")

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


#: the keys of a decision's and a player's JSON that only a review in a match carries
_MATCH_DECISION_KEYS = ("match_loss", "match_loss_stderr", "best_for_match")
_MATCH_PLAYER_KEYS = ("match_loss", "match_loss_stderr", "match_decisions")


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
    #: the record's names of players 0 and 1 (both reviewed or not), None when it gives none
    names: list[str] | None = None
    #: in a match (a match record, or a position with a match score): that the marks and losses are points
    #: of the round, not chances to win the match (``match_equity.points_only_note``), and where play-outs
    #: judged each decision also gives its match loss (``words.match_note_text``); None otherwise
    match_note: str | None = None
    #: a resumed review: the turns judged by earlier runs (``review``'s ``judged``) and their seconds,
    #: included in ``seconds``; 0 and 0.0 for a review made in one run
    earlier_turns: int = 0
    earlier_seconds: float = 0.0
    #: the marks checked by rollouts (``studies.review_check.check_marks``), None when not asked: the
    #: text, the JSON (a labelled extra, ``checks``) and the HTML report then add them after the review's own
    checks: ReviewChecks | None = None

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

    @property
    def in_match(self) -> bool:
        """A match record, or a round whose position carries a match score: the decisions the play-outs
        judged carry their match loss, the players its sum."""
        return self.match_note is not None

    # --- JSON ------------------------------------------------------------------------------

    def to_json(self) -> dict[str, Any]:
        """The ``lcanalysis review RECORD --json`` object of docs/spec/interchange.md (``decisions``
        with ``index, player, played, best, loss, loss_stderr, mark``; ``players`` with ``player,
        decisions, error_rate, luck, result, luck_adjusted``), each entry followed by labelled
        extras, then ``draws``, ``reconciliation`` and ``settings``."""
        decisions = []
        for d in self.decisions:
            row = asdict(d)
            if not self.in_match:  # (the match's keys only in a match: null there where not judged for it)
                for key in _MATCH_DECISION_KEYS:
                    row.pop(key)
            head = {k: row.pop(k) for k in ("index", "player", "played", "best", "loss", "loss_stderr", "mark")}
            # the shared spec's mark is "mistake" or null: a mistake or a blunder is "mistake"; the
            # finer grade (an inaccuracy too) follows among the extras
            head["mark"] = SPEC_MARK if d.mark in SPEC_MARKED else None
            decisions.append({**head, "grade": d.mark, **row})
        players = [p.spec_json() for p in self.players]
        if not self.in_match:
            for row in players:
                for key in _MATCH_PLAYER_KEYS:
                    row.pop(key)
        return {
            "decisions": decisions,
            "players": players,
            "draws": [asdict(d) for d in self.draws],
            "reconciliation": self.reconciliation,
            "settings": {"record": self.record_kind, "rounds": self.rounds, "finished": self.finished,
                         "time_per_decision": self.time_budget, "seed": self.seed, "seconds": self.seconds,
                         "review_version": REVIEW_VERSION, "playout_policy": PLAYOUT_POLICY,
                         "advisor_playout_policy": ADVISOR_PLAYOUT_POLICY,
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
            **({"checks": self.checks.to_json()} if self.checks is not None else {}),
        }

    # --- text ------------------------------------------------------------------------------

    def critical(self, limit: int = 3) -> list[Decision]:
        """The marked decisions with the largest losses (the critical positions)."""
        marked = [d for d in self.decisions if d.mark]
        return sorted(marked, key=lambda d: -d.loss)[:limit]

    def to_text(self) -> str:
        lines = [f"Review of {self.record_kind}: {self.rounds_text()}, {len(self.decisions)} decisions"
                 + ("" if self.finished else " (the record stops before the end of the round)"),
                 f"{self.time_budget:g} s a decision, seed {self.seed}; {self.time_text()}",
                 f"({JUDGED_BY})"]
        if self.capped:
            lines.append(self.capped_text())
        if self.match_note:
            lines.append(self.match_note)
        if self.match_rounds is not None:
            lines.append(self.match_result_text())
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
            over = "" if self.match_rounds is None else f" of the match totals, {self.rounds} round(s)"
            lines.append(f"  result {p.result:+d} (score difference{over}), luck-adjusted {adj}" if self.finished else
                         f"  score difference where the record stops {p.result:+d} (not a result: the round is "
                         f"unfinished), luck-adjusted {adj}")
            if self.in_match:
                lines.append(f"  {p.match_loss_text()}")
        marked = [d for d in self.decisions if d.mark]
        lines.append("")
        if marked:
            lines.append("marked decisions:")
            for d in marked:
                lines.append(f"  {where(d)}: played {d.played}, best {d.best}: loss {d.loss_text()}  "
                             f"{(d.mark or '').upper()}")
                if d.match_said():  # in a match, where play-outs judged: what it gave up of the chance to win it
                    lines.append(f"    {d.match_said()}")
            far_off = far_off_marks_text(marked)
            if far_off:
                lines.append(f"  ({far_off})")
        else:
            lines.append("no decision marked")
        costly = costliest_for_match(self.decisions)
        if costly:
            lines.append("costliest for the match (beyond two standard errors):")
            lines += [f"  {where(d)}: played {d.played}; {lowered(d.match_said())}" for d in costly]
        events: list[Decision | Draw] = [*self.decisions, *self.draws]
        lucky = sorted([x for x in events if x.luck is not None], key=lambda x: -abs(x.luck or 0.0))[:3]
        if lucky:
            lines.append("largest luck: " + "; ".join(
                f"{where(x)} drew {x.drawn} ({x.luck or 0.0:+.1f} ± {x.luck_stderr or 0.0:.1f})" for x in lucky))
        for rec in self.reconciliation:
            lines.append("")
            lines.append(f"round {rec['round']} reconciled (player 0's points): {reconciled_text(rec)}")
        whole = self.match_reconciled_text()
        if whole:
            lines += ["", whole]
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
        if self.checks is not None:
            lines += ["", self.checks.to_text()]
        return "\n".join(lines)

    def rounds_text(self) -> str:
        """"3 round(s)", or for a match the record stops before its last round, "2 of 3 round(s)
        (the record stops before the end of the match)"."""
        if self.match_rounds is None or self.rounds >= self.match_rounds:
            return f"{self.rounds} round(s)"
        return (f"{self.rounds} of {self.match_rounds} round(s)"
                + (" (the record stops before the end of the match)" if self.finished else ""))

    def match_result_text(self) -> str:
        """A match record's result: who won and by what totals, each round's scores ("match won by player 1
        (heuristic), 82 to 72 (round by round, player 0 to player 1: 10-27, 31-6, 31-49)", "-62 to 35" each
        where a score is below 0); where the record
        stops before the match's end, the totals so far, the last round scored as it stands when unfinished."""
        totals = [sum(s[p] for s in self.scores) for p in (0, 1)]
        name = [f"player {p}" + (f" ({self.names[p]})" if self.names else "") for p in (0, 1)]  # reviewed or not
        # "9-3", but "-62 to 35" where a score is below 0: "-62-35" reads as a range or a sum
        sep = " to " if any(min(pair) < 0 for pair in self.scores) else "-"
        by_round = ", ".join(f"{a}{sep}{b}" for a, b in self.scores)
        if self.finished and self.match_rounds is not None and self.rounds >= self.match_rounds:
            if totals[0] == totals[1]:
                head = f"match drawn, {totals[0]} to {totals[1]}"
            else:
                w = 0 if totals[0] > totals[1] else 1
                head = f"match won by {name[w]}, {totals[w]} to {totals[1 - w]}"
        else:
            where = "" if self.finished else ", the last unfinished and scored as it stands"
            head = (f"match not over: the record stops after {self.rounds} of {self.match_rounds} round(s){where}; "
                    f"totals {name[0]} {totals[0]}, {name[1]} {totals[1]}")
        return f"{head} (round by round, player 0 to player 1: {by_round})"

    def match_reconciled_text(self) -> str:
        """A match's rounds reconciled as one ("the match reconciled (player 0's points, its 3 rounds summed):
        actual -10 = start ..."), when every round of the record reconciles; "" for a round or otherwise."""
        if self.match_rounds is None or len(self.reconciliation) < 2 or len(self.reconciliation) != self.rounds:
            return ""
        whole = summed_reconciliation(self.reconciliation)
        bounds = (f"; {whole['bounded']} decision(s) with a value the endgame search only bounded make the skill "
                  "and hidden shares bounds, as in their rounds" if whole["bounded"] else "")
        return (f"the match reconciled (player 0's points, its {self.rounds} rounds summed, their standard errors "
                f"in quadrature{bounds}): {reconciled_text(whole)}")

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
        return value_graph(self, width, height)

    def to_html(self) -> str:
        """A self-contained HTML report: summary, value graph, critical positions, every decision."""
        return review_html(self)

    def _repr_html_(self) -> str:
        return review_html(self, fragment=True)
