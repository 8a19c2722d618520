""""What should I play here?": every legal turn of a view ranked by expected value.

    >>> from lcanalysis.advisor import advise, example_view
    >>> analysis = advise(example_view(), time_budget=0.2, seed=1)
    >>> analysis.kind
    'advisor estimate'

The value of a turn is the expected final score difference of the round (mover minus opponent),
as for the endgame solver (docs/spec/interchange.md "Endgame values"), estimated by sampling: each
turn is played in the same sampled worlds (the opponent's unknown cards, dealt from the cards the
viewer cannot see by the learned opponent-hand model of ``lcanalysis.hand_model``, which keeps
for the opponent the cards it would want; and the order of the draw pile, the rest shuffled
uniformly), and both sides then play the round out with the heuristic policy, each seeing only
its own cards. Each player draws from a deck stream of their own (``core.policy.stream_move``):
the same chance law as one shuffled pile, but a turn that takes a discard-pile card no longer
shifts every later deck card to the other player, and the variance of the paired differences
between turns is about halved (``streams=False``: one deck order per world, as before).
``hand_model=False`` deals the opponent's cards uniformly, as before (the values
were then about 7 points too high mid-round: docs/agents.md "Calibration"). The standard error
is over worlds.
Successive halving (``schedule``): every turn gets a first sample, then round by round the better
half of the turns still in gets more worlds, until one turn is left: the best, with the largest
sample. The list is best first, then by the loss against it, which is never below zero.

The time budget sets the number of rollouts (``ROLLOUTS_PER_SECOND`` per second, a constant, not a
clock), so the same view, budget and seed give the same answer on any machine; ``playout_rate``
gives another count a second (the published studies made before the count was raised pass
``EARLIER_ROLLOUTS_PER_SECOND``). With
``ENDGAME_CARDS`` cards or fewer in the draw pile (``FULL_POSITION_ENDGAME_CARDS`` for a full
position, both hands known) the endgame search answers instead
(``search.endgame.converged_endgame``: view values deepened on the stall budget until two stall
budgets agree), and the analysis says so in ``kind``, ``exact`` and ``notes``: whether every
split was solved or worlds were sampled, and whether the answer converged. For a view it weighs each
split of the unseen cards by how likely the opponent-hand model fitted on the best agent's self-play
makes the opponent's hand in it (``endgame_splits="model"``, the default; "uniform": every split alike,
the view value), since against strong play the uniform values came out about 5 points too high with 2
cards left (docs/endgame.md, "The view value against real play"). Play-outs near the
end mislead (the heuristic never stalls just to gain turns), so without a budget given the
endgame search may take up to ``ENDGAME_DEFAULT_SECONDS``; with one, it keeps to it, and when
not even one stall each fits, the play-outs answer and the notes say why. On the clock
(``wall_clock``) the whole answer keeps to the budget: the search stops at the budget less a
reserve (``PLAYOUT_RESERVE``), which the play-outs get should the search not reach one stall each.

Each turn carries a reason in words: what it does to the expected value of the expedition it
touches (the fast expedition estimate of ``core.policy``), what it hands the opponent, and what it does to
the number of turns left.
"""

# The advisor in parts, each file one job: ``advice`` (``advise``, its arguments checked, the view it
# is for), ``playouts`` (the schedules that spread the play-outs over the turns, and the answer ranked),
# ``reasons`` (each turn's reason in words), ``notes`` (what the answer says of itself), ``match_notes``
# (a position with a match score) and ``settings`` (the advisor's numbers and defaults). Import from here.
from lcanalysis.advisor.advice import (
    AdviceError,
    advise,
    check_endgame_splits,
    check_playout_policy,
    check_playout_rate,
    check_schedule,
    example_view,
    hint_view,
    played_policy,
)
from lcanalysis.advisor.match_notes import MATCH_ENDGAME_NOTE
from lcanalysis.advisor.notes import (
    BOTH_HANDS_NOTE,
    dealing_in_words,
    near_end_misjudgment,
    play_outs_in_words,
    playout_policy_in_words,
    playouts_far_off,
)
from lcanalysis.advisor.playouts import halving
from lcanalysis.advisor.reasons import in_words, reason
from lcanalysis.advisor.settings import (
    EARLIER_ROLLOUTS_PER_SECOND,
    ENDGAME_AUTO_THREADS,
    ENDGAME_NODES_PER_SECOND,
    FAR_OFF_CARDS,
    FINALISTS,
    FIRST_STAGE,
    HAND_MODEL_DEFAULT,
    JUDGE_FLOOR_SCALE,
    JUDGE_SEARCH_CARDS,
    JUDGE_SEARCH_FLOOR,
    MAX_ENDGAME_CARDS,
    MAX_PLAYOUT_RATE,
    MIN_WORLDS,
    SCHEDULE_DEFAULT,
    SCHEDULES,
    STREAMS_DEFAULT,
    judging_budget,
)
from lcanalysis.options import (  # the hint's numbers, which advise --help states (defined there)
    ENDGAME_CARDS,
    ENDGAME_DEFAULT_SECONDS,
    EXACT_ENDGAME_CARDS,
    FULL_POSITION_ENDGAME_CARDS,
    MAX_TIME_BUDGET,
    PLAYOUT_DEFAULT_SECONDS,
    PLAYOUT_POLICIES,
    PLAYOUT_POLICY_CHOICES,
    PLAYOUT_POLICY_DEFAULT,
    PLAYOUT_RESERVE,
    ROLLOUTS_PER_SECOND,
    STALLING_FROM_CARDS,
    playout_policy_at,
)

__all__ = ["BOTH_HANDS_NOTE", "EARLIER_ROLLOUTS_PER_SECOND", "ENDGAME_AUTO_THREADS", "ENDGAME_CARDS",
           "ENDGAME_DEFAULT_SECONDS", "ENDGAME_NODES_PER_SECOND", "EXACT_ENDGAME_CARDS", "FAR_OFF_CARDS", "FINALISTS",
           "FIRST_STAGE", "FULL_POSITION_ENDGAME_CARDS", "HAND_MODEL_DEFAULT", "JUDGE_FLOOR_SCALE",
           "JUDGE_SEARCH_CARDS", "JUDGE_SEARCH_FLOOR", "MATCH_ENDGAME_NOTE", "MAX_ENDGAME_CARDS", "MAX_PLAYOUT_RATE",
           "MAX_TIME_BUDGET", "MIN_WORLDS", "PLAYOUT_DEFAULT_SECONDS", "PLAYOUT_POLICIES", "PLAYOUT_POLICY_CHOICES",
           "PLAYOUT_POLICY_DEFAULT", "PLAYOUT_RESERVE", "ROLLOUTS_PER_SECOND", "SCHEDULES", "SCHEDULE_DEFAULT",
           "STALLING_FROM_CARDS", "STREAMS_DEFAULT", "AdviceError",
           "advise", "check_endgame_splits",
           "check_playout_policy", "check_playout_rate", "check_schedule", "dealing_in_words", "example_view",
           "hint_view", "in_words", "judging_budget", "near_end_misjudgment", "play_outs_in_words",
           "played_policy", "playout_policy_at", "playout_policy_in_words", "playouts_far_off", "reason"]

_halving = halving  # the name it had when the advisor was one module (the tests' check of the schedule)
