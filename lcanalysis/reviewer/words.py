"""The review's phrases that its text and its HTML report share: where a turn is, an
alternative's loss, a round's reconciliation, what a match's chances rest on."""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any

from lcanalysis.advisor import FAR_OFF_CARDS, near_end_misjudgment
from lcanalysis.analysis import loss_in_words
from lcanalysis.match_equity import points_only_note
from lcanalysis.reviewer.settings import MARK_SIGMAS, MARKS, PLAYOUT_POLICY, SEARCH_CARDS

if TYPE_CHECKING:
    from lcanalysis.reviewer.checks import MarkCheck
    from lcanalysis.reviewer.report import Decision, Draw


def alternative_loss_text(a: dict[str, Any]) -> str:
    """An alternative's loss as ``Decision.loss_text`` says the played turn's: exact, an estimate with
    its standard error, or a bound ("at least")."""
    return loss_in_words(a["loss"], a["loss_stderr"], exact=a["exact"], bound=a["loss_bound"] == "lower")


def where(d: Decision | Draw | MarkCheck) -> str:
    return f"round {d.round} turn {d.index} (player {d.player}, deck {d.deck})"


def far_off_marks_text(marked: list[Decision]) -> str:
    """One line on the marks judged by play-outs with ``FAR_OFF_CARDS`` cards or fewer left, where play-outs
    can be many points off either way (as the hint's verdict and the tutor say there), naming them; ""
    when there is none. The endgame solver's and search's marks (no advisor rollouts) are not of them."""
    far = [d for d in marked if d.advisor_rollouts > 0 and d.deck <= FAR_OFF_CARDS]
    if not far:
        return ""
    return (f"marks judged by play-outs with {FAR_OFF_CARDS} card(s) or fewer left, where they can be many points off "
            f"either way ({near_end_misjudgment(PLAYOUT_POLICY)}; the ± counts the sampling only): "
            + ", ".join(f"round {d.round} turn {d.index}" for d in far))  # (each listed above, with its deck)


def where_unchecked(u: dict[str, Any]) -> str:
    """Where a mark left unchecked is (``ReviewChecks.unchecked``: a dict), as ``where`` says it."""
    return f"round {u['round']} turn {u['index']} (player {u['player']}, deck {u['deck']})"


def unchecked_loss_text(u: dict[str, Any]) -> str:
    """The review's loss of a mark left unchecked, as ``Decision.loss_text`` says it."""
    return loss_in_words(u["review_loss"], u["review_loss_stderr"], exact=u["review_exact"],
                         bound=u["review_loss_bound"] == "lower")


#: how a check by rollouts judges a mark (``checks.verdict_for``), in words
VERDICT_RULE = (f"confirmed: the rollout's loss is itself a mark ({min(t for _, t in MARKS):g} points or more, beyond "
                f"{MARK_SIGMAS:g} standard errors; its grade in brackets); overturned: below "
                f"{min(t for _, t in MARKS):g} points beyond {MARK_SIGMAS:g} standard errors; too close to call: "
                "neither")


def summed_reconciliation(recs: list[dict[str, Any]]) -> dict[str, Any]:
    """The rounds' reconciliations (``run._reconcile``'s) summed into the match's, with the keys
    ``reconciled_text`` reads: the parts add up, and their standard errors add in quadrature (each
    round's judgements are sampled apart from every other round's)."""
    def quadrature(key: str) -> float:
        return math.sqrt(sum(float(r[key]) ** 2 for r in recs))

    return {"actual": sum(int(r["actual"]) for r in recs), "start": sum(float(r["start"]) for r in recs),
            "skill": [sum(float(r["skill"][p]) for r in recs) for p in (0, 1)],
            "luck": [sum(float(r["luck"][p]) for r in recs) for p in (0, 1)],
            "hidden": sum(float(r["hidden"]) for r in recs), "stderr": quadrature("stderr"),
            "start_stderr": quadrature("start_stderr"), "skill_stderr": quadrature("skill_stderr"),
            "luck_stderr": quadrature("luck_stderr"), "bounded": sum(int(r.get("bounded", 0)) for r in recs)}


def reconciled_text(rec: dict[str, Any]) -> str:
    """A round's reconciliation in one line, each estimate with its standard error: the hidden cards
    are what is left of the actual (exact) result, so theirs is that of the other three together."""
    return (f"actual {rec['actual']:+d} = start {rec['start']:+.1f} ± {rec['start_stderr']:.1f} + skill "
            f"{rec['skill'][0] - rec['skill'][1]:+.1f} ± {rec['skill_stderr']:.1f} + luck "
            f"{rec['luck'][0] - rec['luck'][1]:+.1f} ± {rec['luck_stderr']:.1f} + hidden cards "
            f"{rec['hidden']:+.1f} ± {rec['stderr']:.1f}")


#: what a decision's match loss rests on, in the match note (the text, the HTML report, the JSON settings)
MATCH_LOSS_JUDGED = (f"an estimate paired over the same fresh worlds of the {PLAYOUT_POLICY} heuristic as the loss in "
                     "points, each world's final score difference turned into the chance to win the match from the "
                     "running totals through the match equity table (itself an estimate, from simulated rounds of "
                     "heuristic self-play, whose small error the ± leaves out), "
                     "against the best turn for the match: the advisor's, ranked by its own play-outs over every "
                     "legal turn, unless a turn played out in the fresh worlds beats it there by more than two "
                     "standard errors (as for the best in points), so a loss can be a little below zero by noise "
                     "and does not lean high; the "
                     "marks and the error rate stay in points; the decisions the endgame solver or search judges near "
                     f"the end (with {SEARCH_CARDS} cards or fewer left), in points only, carry none and are not "
                     "counted")


def match_note_text(caveat: str = "") -> str:
    """The note of a review in a match, said once: that its marks, losses and values are points of the round
    (advise's words, ``points_only_note``), and that where play-outs judge each decision also gives what it
    gave up of the chance to win the match, each player the sum; ``caveat``: the match equity table's for
    another number of colours (``match_equity.table_caveat``, with its leading space), or ""."""
    return (points_only_note("the marks, losses and values are") + "; where play-outs judge, each decision also "
            "gives what it gave up of the chance to win the match, and each player the sum (" + MATCH_LOSS_JUDGED
            + ")" + caveat)


def costliest_for_match(decisions: list[Decision], limit: int = 3) -> list[Decision]:
    """The decisions that gave up the most chance to win the match, beyond ``MARK_SIGMAS`` standard errors
    of zero, the largest first: a turn can cost the match while it costs few points (unmarked)."""
    costly = [d for d in decisions if d.match_loss is not None and d.match_loss > MARK_SIGMAS * (d.match_loss_stderr
                                                                                               or 0.0)]
    return sorted(costly, key=lambda d: -(d.match_loss or 0.0))[:limit]


def lowered(sentence: str) -> str:
    """A sentence to follow a semicolon: its first letter in lower case ("For the match: ..." -> "for the ...")."""
    return sentence[:1].lower() + sentence[1:]
