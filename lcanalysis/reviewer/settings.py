"""The review's settings: its version, its time shares, the marks of a decision and the rating bands
(the meaning of each is in ``lcanalysis.reviewer``'s docstring)."""

from __future__ import annotations

import math

import numpy as np

from lcanalysis.advisor import JUDGE_SEARCH_CARDS, JUDGE_SEARCH_FLOOR
from lcanalysis.options import REVIEW_PLAYOUT_POLICY
from lcanalysis.rollouts import ROLLOUTS_PER_MS, playout_params

#: the version of the review's numbers: raised whenever the same record, settings and seed would give
#: other numbers than before (a loss, a best turn, a mark, a luck, a value, the worlds behind one),
#: whatever the cause: this module, the advisor, the play-outs, the endgame search, the engine. The
#: files that keep review output hold it in their settings (``keep_settings``: ``review --out``'s;
#: the skill-and-luck study's reviews and review-luck files) and a run refuses to resume a file
#: another version wrote, or one from before versions were kept ("unversioned"): it would mix two
#: versions' numbers in one file.
#: ``tests/test_review_stream.py::test_the_review_version_is_raised_whenever_the_reviews_numbers_change``
#: guards it: it pins this number to the numbers of the review's reference outputs
#: (tests/data/review_golden.json), so rewriting those fails it until this is raised. 1: the first kept;
#: 2: the advisor's two-stage schedule (``SCHEDULE``) keeps its budget of play-outs (a turn leading on its
#: first sample alone gets the larger one only while the budget lasts), so fewer worlds lie behind the
#: advisor's pick and some picks, losses and marks differ; 3: the endgame search, which judges at 3 and 4
#: cards, shares the opponent's one-player value between the turns that spend the last stall (a third
#: fewer nodes, the same exact values), so its counted node budget reaches deeper stall levels and some
#: judged values, bounds, losses and marks differ; 4: the endgame search values the round's last placements
#: in closed form (about half the nodes at 3 and 4 cards, the same exact values), with the same effect; 5: it
#: values a last stall before the end in closed form (2 cards left, only the mover may stall: about half the
#: nodes again), with the same effect; 6: the loss of a decision judged by play-outs is measured with the
#: stalling heuristic in both seats (``PLAYOUT_PARAMS``), not the plain one; 7: with 4 cards left the endgame
#: search counts only three stalls each as converged (``search.endgame.trusted_stalls``), so where one and two
#: agreed it goes on to three stalls each when they fit the judging budget, and a judged value, bound or loss
#: can differ (the reference reviews' numbers did not: two decisions' methods say "not converged" now); 8: the
#: endgame search probes with a narrow window and bounds a player's gain with their placements shared between the
#: colours (1.1-1.4 times fewer nodes at 3 and 4 cards, the same exact values), so its counted node budget
#: reaches further and a judged value, bound or loss can differ (in the reference reviews decision 7 of the
#: blunder round is judged on 44 sampled worlds where 24 fitted, its loss 5.66 where it was 5.96, and a decision
#: of the match record over every split where it was sampled); 9: from three stalls each on, a settled level's
#: first world names the reference of the rest of its first batch (``search.endgame._first_chunk``: the same
#: exact values, at 4 cards up to ten times fewer nodes in that batch), so where a judging budget reaches a
#: third stall level its counted nodes reach otherwise and a judged value, bound or loss can differ (the
#: reference reviews' numbers did not); 10: from three stalls each the opponent's, a root turn no probe refuted
#: is first searched in the whole game with a narrow window (``search.perfect.NARROW_ROOT_STALLS``: the same exact
#: values, at 4 cards 1.16 times fewer nodes), so again a judging budget reaching a third stall level reaches
#: otherwise; 11: where two stall levels name different turns tied for the best, the earlier best, left only
#: bounded at the tie, is valued exactly before the levels are called apart (``search.endgame._tie_check``), so
#: such a search converges a level sooner and a judged value, bound or loss can differ (the reference reviews'
#: numbers did not); 12: an exact stall level and a sampled one are compared world by world (``search.endgame.
#: _agree`` with each sampled world's row among every split), not through the sampled mean's standard error,
#: so such levels agree less often where they differ and a search can go a level deeper; 13: a sampled stall
#: level after an exact one is that level's value plus the mean change from it in the sampled worlds
#: (``search.endgame.Level.with_control``), not the plain mean of its worlds, so a judged value and its standard
#: error can differ (the turns' order, and so the best turn and the losses, cannot); 14: an exact level of no
#: stalls each is such a level too, where it is the last exact one (at 4 cards one stall each is often sampled),
#: with the same effect (the reference reviews' numbers moved only in their last bits), and from three stalls
#: each on a level is started where a few sampled worlds of it fit (``search.endgame._out_of_reach``), so a
#: judging budget at 4 cards can reach a third stall level and a judged value, bound or loss can differ; 15:
#: where an exact answer lists a discard-pile draw first and a deck draw ties it exactly, the best turn named
#: is the deck draw, the turn the hint's verdict and the tutor name (``Analysis.turn_to_name``); the losses,
#: marks and values are the same (a tie has one value); 16: in a match, each decision the play-outs judge carries
#: what it gave up of the chance to win the match (``match_loss``, a fraction, paired over the same fresh worlds
#: as the loss in points, against the best for the match of the turns played out: a match record's rounds are
#: judged with their match score), each player the sum; the points are the same, and the settings name the
#: advisor's play-out policy (``ADVISOR_PLAYOUT_POLICY``).
REVIEW_VERSION = 16
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
#: and its endgame search takes every split of the unseen cards alike (the view value), as the published reviews
#: were judged, whatever the hint's default (``options.ENDGAME_SPLITS_DEFAULT``)
ENDGAME_SPLITS = "uniform"
#: and with one deck order per world (no draw streams, ``advisor.STREAMS_DEFAULT``), for the same reason
STREAMS = False
#: and with the advisor's play-outs spread over the turns in two stages (``advisor.SCHEDULES``), as then
SCHEDULE = "two-stage"
#: the policy of the play-outs that measure a decision's loss (the fresh shared worlds): the stalling
#: heuristic, the play-out policy of the best agent (``agents.BEST_OPTIONS``: ``stall``), which beats
#: the plain heuristic by 6.6 points a round (README, strength table). With the plain heuristic, which never
#: takes a pile card just to gain turns, the review marked 11 of the best agent's turns in the round of
#: data/records/play_seed11_you_vs_best.json (rated "beginner" in a round it won by 53) and rollouts by
#: the best agent itself (``review --check``) overturned every one they decided (9; 2 too close to call);
#: with the stalling heuristic it marks none of them and keeps the 3 marks of the person the checks
#: confirmed. The advisor that picks the best turn still plays the plain heuristic (``ADVISOR_PLAYOUT_POLICY``,
#: throughout, where the hint's default plays the stalling one from 15 cards down), and the luck of a draw
#: too (its measurements below were made so)
PLAYOUT_POLICY = REVIEW_PLAYOUT_POLICY  # "stalling", its name in the settings and words (``options.PLAYOUT_POLICIES``)
PLAYOUT_PARAMS = playout_params(PLAYOUT_POLICY)
#: the play-out policy of the review's advisor, which picks the best turn: the plain heuristic, named here
#: rather than left to the hint's default (``advise(..., playout_policy=None)``), so that no review number
#: moves should that default change (the published reviews' advisor played it)
ADVISOR_PLAYOUT_POLICY = "plain"
#: the luck of a draw in a one-player record deals the opponent's unknown cards by the opponent-hand
#: model: measured on 8,800 real draws (data/simulated/skill_and_luck_review_luck_model.csv) its mean
#: is -0.23 +- 0.05 points a draw, against -0.57 +- 0.06 with the uniform deal (a full-deal record
#: uses the real pile and is unbiased)
LUCK_HAND_MODEL = True
ONE_PLAYER_LUCK = "a one-player record cannot see the pile, and this luck runs about 0.2 points a draw low"


def judged_by(hand_model: bool) -> str:
    """What judges a decision, in words: the advisor's play-outs, with the opponent's unseen cards
    dealt by the opponent-hand model or uniformly (``hand_model``), and the endgame's handover."""
    dealt = ("dealt by the opponent-hand model" if hand_model else
             "dealt uniformly, not by the hint's opponent-hand model (advise and the tutor can rank close turns "
             "otherwise)")
    return (f"losses are estimates by play-outs of the stalling heuristic (the best agent's play-out policy) in both "
            f"seats, the opponent's unseen cards {dealt}; exact or searched with {SEARCH_CARDS} cards or fewer left. "
            "A player stronger than that heuristic can be marked for plans it does not play out: 'lcanalysis review "
            "--check N' rolls every mark out with the best agent")


#: what judges a decision, said under every review: a player met a turn the hint (advise, the tutor) called
#: best marked a mistake here, and the review rated the best agent "beginner" in a round it won by 53
#: (its plans of taking back discarded cards, which plain heuristic play-outs do not play; its rollout agreed
#: with the player; since version 6 the losses are the stalling heuristic's: ``PLAYOUT_PARAMS``): the
#: review's values are those of its play-outs, and a reader must know it
JUDGED_BY = judged_by(HAND_MODEL)
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
