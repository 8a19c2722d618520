"""What the advisor's answer says of itself in words: how the play-outs dealt the unseen cards and
how many there were, a full position's both hands, the stall bound of the endgame search, what its view
value does not promise (it deals the opponent's hand as a random one), a budget as the progress lines give it."""

from __future__ import annotations

from typing import TYPE_CHECKING

from lcanalysis.advisor.settings import FAR_OFF_CARDS
from lcanalysis.analysis import stalls_in_words

if TYPE_CHECKING:
    from lcanalysis.analysis import Analysis
    from lcanalysis.rollouts import Rollouts


def dealing_in_words(hand_model: bool, streams: bool) -> str:
    """How the play-outs deal the unseen cards, as an answer says it (``Rollouts``'s
    ``hand_model`` and ``streams``)."""
    dealt = ("the opponent's unknown cards dealt by the learned opponent-hand model" if hand_model
             else "the unseen cards dealt uniformly")
    return dealt + (", each player drawing from a deck stream of their own" if streams else "")


#: each play-out policy (``options.PLAYOUT_POLICIES``) as the answer names it: the one place its words are
#: written (the note, the ``method`` and the hint's footer all read them here)
_POLICY_NAMES = {"plain": "heuristic", "stalling": "stalling heuristic", "tuned": "tuned stalling heuristic"}
#: what a policy does beyond the plain heuristic, as the answer's note explains it
_POLICY_EXPLAINED = {"stalling": " (the best agent's: it also draws from a discard pile to gain turns when its hand "
                                 "holds more wanted cards than turns left)",
                     "tuned": " (the stalling heuristic with its weights tuned again on self-play: stronger in "
                              "self-play, no stronger as the best agent's play-outs)"}


def playout_policy_in_words(policy: str | None, explained: bool = False) -> str:
    """The play-out policy named ``policy`` (``options.PLAYOUT_POLICIES``, an answer's ``playout_policy``) in
    words: "the heuristic policy" (the plain one), "the stalling heuristic policy"; ``explained``: with what a
    policy other than the plain one does, as the answer's note says it. ``None`` (an answer that names no
    policy): "an unnamed play-out policy"."""
    if policy is None:
        return "an unnamed play-out policy"
    return f"the {played_by(policy)} policy" + (_POLICY_EXPLAINED.get(policy, "") if explained else "")


def played_by(policy: str) -> str:
    """The play-out policy as the answer's ``method`` says it: "heuristic" (the plain one), "stalling heuristic"."""
    return _POLICY_NAMES[policy]


#: why play-outs can be many points off near the end of the round, in words true of each policy: the plain
#: heuristic never takes a pile card just to gain turns; the stalling one does, by its rule of thumb, and at
#: 4 cards left it was no closer to the exact values than the plain one (docs/agents.md, "The hint with the
#: stalling play-outs")
_NEAR_END_MISJUDGMENT = {
    "plain": "the play-out policy misjudges drawing from a discard pile to gain turns",
    "stalling": "the stalling play-out policy draws from a discard pile to gain turns by a rule of thumb, not by "
                "looking ahead, and with 4 cards left was measured no closer to the exact values than the plain one",
    # (its 6.85 points off at 4 cards, the plain one's 4.90: docs/agents.md, "A play-out policy tuned again")
    "tuned": "the tuned stalling play-out policy draws from a discard pile to gain turns by a rule of thumb, not by "
             "looking ahead, and with 4 cards left was measured no closer to the exact values than the plain one",
}


def near_end_misjudgment(policy: str | None) -> str:
    """Why play-outs of ``policy`` (``options.PLAYOUT_POLICIES``) can be many points off near the end of the
    round, as the hint's fallback note and verdict say it; ``None`` (an answer that names no policy): that
    the play-outs play by a rule of thumb."""
    if policy is None:
        return "the play-outs play by a rule of thumb, not by looking ahead"
    return _NEAR_END_MISJUDGMENT[policy]


def playouts_far_off(analysis: Analysis, cards: int) -> str:
    """What an answer by play-outs with ``cards`` left in the draw pile, ``FAR_OFF_CARDS`` or fewer, says of
    itself where a player reads it (the hint's verdict, the tutor's comment): "by play-outs, which with 5
    card(s) left can be many points off either way (...)"; "" for any other answer."""
    if analysis.kind != "advisor estimate" or cards > FAR_OFF_CARDS:
        return ""
    return (f"by play-outs, which with {cards} card(s) left can be many points off either way "
            f"({near_end_misjudgment(analysis.playout_policy)})")


def play_outs_in_words(r: Rollouts) -> str:
    """How many play-outs, over how many sampled worlds: "1,500 play-outs over 163 sampled worlds, every
    turn in the first 8 and the turns kept longer in more". The turns share the worlds, and the schedule
    gives those it keeps more of them: the play-outs (``Rollouts.worlds``, every turn's) are not worlds."""
    sizes = [len(x) for x in r.samples]
    if min(sizes) == max(sizes):
        return f"{r.worlds:,} play-outs, every turn in the same {max(sizes):,} sampled worlds"
    return (f"{r.worlds:,} play-outs over {max(sizes):,} sampled worlds, every turn in the first "
            f"{min(sizes):,} and the turns kept longer in more")


BOTH_HANDS_NOTE = ("a full position: both hands are used (the opponent's cards count as known); only the "
                   "order of the draw pile is left to chance")


#: the section of docs/endgame.md that measures the view value against the results of real play
VIEW_VALUE_SECTION = "The view value against real play"
#: the realized final score difference (mover minus opponent) less the hint's view value of the turn played,
#: with 2 cards left, ``best`` in both seats: mean, its standard error clustered by round, positions, rounds
#: (data/simulated/calibration_best_staged.csv, the rows the endgame search answered; tests/test_view_value_note.py
#: recomputes it from the file). A round's positions share its result, hence the clustering
VIEW_VALUE_GAP_AT_2 = (-4.87, 0.53, 93, 85)
#: the same with the splits weighted by the opponent-hand model (the hint's default, endgame_splits="model", with
#: its default weights, fitted on best's self-play): data/simulated/calibration_best_model_endgame.csv, the same
#: positions (tests/test_view_value_note.py recomputes it too)
VIEW_VALUE_GAP_AT_2_MODEL = (-1.78, 0.41, 93, 85)


def view_value_note(exact: bool, weighted: bool = False, own_weights: bool = False) -> str:
    """What the endgame search's view value (E2, docs/endgame.md) does not promise, as the hint's note says it:
    that it takes every split of the unseen cards as equally likely, where a real opponent's hand holds the
    cards they kept, so it is the value under that model, not a forecast of play; how far below it ``best``'s
    self-play came out with 2 cards left, and that with both hands known the value was met (the split, not the
    search, is what misses). ``exact``: every split was solved (else the value is that model's value
    estimated on sampled worlds). ``weighted``: the splits were weighted by the opponent-hand model instead
    (``endgame_splits="model"``): the note says so and gives the gap measured that way, beside the uniform
    one; ``own_weights``: by weights the caller gave, not the default ones the gap was measured with."""
    model = "exact for that model" if exact else "an estimate of that model's value"
    if weighted:
        mean, se, positions, _ = VIEW_VALUE_GAP_AT_2_MODEL
        given = ", with the default weights, not the ones given" if own_weights else ""
        whose = "with the weights given" if own_weights else "fitted on the best agent's self-play"
        return (f"the view value weights each split of the unseen cards between the opponent's hand and the draw "
                f"pile by how likely the opponent-hand model ({whose}) makes the opponent's hand in it, so it is "
                f"{model}, "
                f"not a forecast: with best in both seats positions with 2 cards left ended {abs(mean):.1f} ± "
                f"{se:.1f} points {'below' if mean < 0 else 'above'} it on average ({positions} positions, ± one "
                f"standard error{given}; {-VIEW_VALUE_GAP_AT_2[0]:.1f} below the value that takes every split as "
                f"equally likely; docs/endgame.md, \"{VIEW_VALUE_SECTION}\")")
    mean, se, positions, _ = VIEW_VALUE_GAP_AT_2
    return (f"the view value takes every split of the unseen cards between the opponent's hand and the draw pile as "
            f"equally likely, so it is {model}, not a forecast: a real opponent holds the cards they chose to keep, "
            f"and with best in both seats positions with 2 cards left ended {-mean:.1f} ± {se:.1f} points below it "
            f"on average ({positions} positions, ± one standard error; valued with both hands known, each ended "
            f"exactly at its value; docs/endgame.md, \"{VIEW_VALUE_SECTION}\")")


def stall_bound_in_words(bounds: dict) -> str:
    """The stall bound of an endgame answer (its ``bounds``) in words: "no stall bound", "at most 1 more
    discard-pile draw(s) each", ..."""
    s = bounds.get("max_stalls")
    return "no stall bound" if s is None else stalls_in_words(s)


def budget_text(seconds: float) -> str:
    """A time budget as the progress lines give it: "1.0 s", "0.25 s", "0.001 s" (one decimal showed
    --time 0.001 as "up to 0.0 s")."""
    return f"{seconds:.1f} s" if seconds >= 0.1 else f"{seconds:.2g} s"
