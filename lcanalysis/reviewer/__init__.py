"""Game review: every decision of a recorded round or match scored for skill, every deck draw for luck.

    >>> import lcanalysis as lc
    >>> rv = lc.review("game.json")          # a record (lcanalysis.game.records)  # doctest: +SKIP
    >>> print(rv.to_text())                   # doctest: +SKIP

Modelled on GNU Backgammon's match analysis (KNOWLEDGE.md "Game analysis as backgammon programs
do it"). All values are in points of the round's final score difference, mover minus opponent,
seen from the view of the player concerned at that moment (docs/spec/interchange.md); in a match
the review says once that they are not chances to win the match (``Review.match_note``).

**In a match** (a match record, or a round whose position carries a match score; version 16), each
decision the play-outs judge also carries ``match_loss``: what the played turn gave up of the
chance to win the match against ``best_for_match``, a fraction (0.07: 7 percentage points) as
advise's JSON and the tutor keep it, with its standard error. It is measured in the same fresh
worlds as the loss in points (below): ``match_equity.match_analysis`` turns each world's final score
difference into the match equity of the running totals and ranks the turns played out by paired
differences, so the best turn for the match is the best among those turns (the advisor's best, the
played, the reference and the runner-up), and the two figures of a decision rest on the same
worlds: no second analysis, no more play-outs. A match record's rounds are judged with the running
totals before each as their match score. Decisions the endgame solver or search judges carry none
(points only). Each player's ``match_loss`` sums theirs, the standard errors in quadrature; the marks
and the error rate stay in points; the text and the HTML report print percentage points.

**Decisions.** For each turn of a reviewed player, from that player's view before the turn:

- the advisor (``lcanalysis.advisor.advise``, ``ADVISOR_SHARE`` of the time per decision, seed
  ``decision_seed(seed, round, index)``) names the **best** turn;
- the advisor's choice, the turn **played**, the **reference** turn (what the heuristic policy
  that plays the advisor's rollouts would play) and the advisor's second choice are then played out
  together in fresh shared worlds (``Rollouts``, a seed independent of the advisor's,
  ``PAIR_SHARE`` of the time), both seats by the stalling heuristic, the best agent's play-out
  policy (``PLAYOUT_PARAMS``; review version 6: the plain heuristic never takes a pile card just to
  gain turns, and marked the best agent's stalls). The advisor's choice stays the **best** turn unless one of the
  others beats it there by more than ``MARK_SIGMAS`` standard errors of their paired difference
  (a weak advisor at a small budget is overruled; ``advisor_best`` keeps its choice). The
  **loss** is the paired mean difference best - played over the fresh worlds and ``loss_stderr``
  the standard error of the paired differences. Fresh worlds keep the advisor's own winner's
  curse out of the loss, so a loss can come out slightly negative when the played turn is as
  good as the best (by at most ``MARK_SIGMAS`` standard errors): it is reported as it is,
  never clipped. A played turn that *is* the best turn has loss 0 exactly;
- with ``ENDGAME_CARDS`` (2) cards or fewer in the draw pile the exact view values of
  ``search.endgame_analysis`` answer instead (every split of the unseen cards enumerated, one
  more discard-pile draw allowed each); ``loss_stderr`` is then 0. Where an exact answer (this one,
  or the endgame search's below) lists a discard-pile draw first and a deck draw ties it exactly, the
  **best** turn named is the deck draw, as the hint's verdict and the tutor name it
  (``Analysis.turn_to_name``; review version 15), at the same loss;
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
opponent's hand by the opponent-hand model (``LUCK_HAND_MODEL``, ``luck._modelled_luck``) cuts that to
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
Heuristic play-outs do not play a stronger player's plans: on a round `best` won by 53 they marked 12
of its turns, and rollouts by ``best`` in both seats overturned 10 and left 2 too close to call
(README, "Game review"). ``studies.review_check.check_marks`` (``lcanalysis review --check N``) checks
the marks so; ``checks`` holds its answer, which ``Review.checks`` carries into the text, JSON and HTML.

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
the same moves (``Job.history_codes``): one pickled ``Move`` a turn made a job 218 KB at turn
10,000 (``benchmarks/bench_review_jobs.py``).
"""


# The review in parts, each file one job: ``settings`` (its version, shares, marks and rating bands),
# ``luck`` (a deck draw's luck), ``judge`` (one turn judged: what a worker runs), ``report`` (the
# answer, as text and JSON), ``report_html`` (the HTML report), ``words`` (phrases both share),
# ``run`` (the record's turns handed out, kept, resumed and assembled) and ``checks`` (the marks checked
# by rollouts, made by ``studies.review_check`` above this package). Import from here.
from lcanalysis.reviewer.checks import MarkCheck, ReviewChecks, verdict_for
from lcanalysis.reviewer.luck import draw_luck, modelled_twins
from lcanalysis.reviewer.report import Decision, Draw, PlayerSummary, Review
from lcanalysis.reviewer.run import TurnViews, judgement_of, judgement_text, keep_settings, kept_turn_misfit, review
from lcanalysis.reviewer.settings import (
    ADVISOR_PLAYOUT_POLICY,
    ADVISOR_SHARE,
    BELOW_ZERO,
    DEFAULT_TIME,
    ENDGAME_CARDS,
    HAND_MODEL,
    IN_FLIGHT,
    LUCK_HAND_MODEL,
    LUCK_SHARE,
    MARK_SIGMAS,
    MARKS,
    MAX_TIME,
    MIN_RATED,
    MIN_WORLDS,
    ONE_PLAYER_LUCK,
    PAIR_SHARE,
    PLAYOUT_RATE,
    RATING_BANDS,
    REVIEW_VERSION,
    SCHEDULE,
    SEARCH_CARDS,
    SEARCH_FLOOR,
    STREAMS,
    ReviewError,
    decision_seed,
    mark_for,
    rating_for,
)
from lcanalysis.reviewer.words import reconciled_text

__all__ = ["ADVISOR_PLAYOUT_POLICY", "ADVISOR_SHARE", "BELOW_ZERO", "DEFAULT_TIME", "ENDGAME_CARDS", "HAND_MODEL",
           "IN_FLIGHT", "LUCK_HAND_MODEL", "LUCK_SHARE", "MARKS", "MARK_SIGMAS", "MAX_TIME", "MIN_RATED", "MIN_WORLDS",
           "ONE_PLAYER_LUCK", "PAIR_SHARE", "PLAYOUT_RATE", "RATING_BANDS", "REVIEW_VERSION", "SCHEDULE",
           "SEARCH_CARDS", "SEARCH_FLOOR", "STREAMS", "Decision", "Draw", "MarkCheck", "PlayerSummary", "Review",
           "ReviewChecks", "ReviewError", "TurnViews", "decision_seed", "draw_luck", "judgement_of", "judgement_text",
           "keep_settings", "kept_turn_misfit", "mark_for", "modelled_twins", "rating_for", "reconciled_text",
           "review", "verdict_for"]
