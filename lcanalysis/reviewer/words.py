"""The review's phrases that its text and its HTML report share: where a turn is, an
alternative's loss, a round's reconciliation."""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any

from lcanalysis.advisor import FAR_OFF_CARDS, near_end_misjudgment
from lcanalysis.analysis import loss_in_words
from lcanalysis.reviewer.settings import MARK_SIGMAS, MARKS, PLAYOUT_POLICY

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
