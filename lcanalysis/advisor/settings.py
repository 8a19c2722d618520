"""The advisor's own numbers: the play-out rates, the endgame search's budget and threads, the
floor of its budget when judging a turn already played (``judging_budget``), the schedules of the
play-outs and the defaults of its switches. (The numbers ``advise --help`` states live in
``lcanalysis.options``, so that the help says them without loading the advisor.)"""

from __future__ import annotations

from lcanalysis.options import ENDGAME_CARDS
from lcanalysis.rollouts import ROLLOUTS_PER_MS

#: the play-outs a second of budget before the rate was raised (the published studies made then pass it)
EARLIER_ROLLOUTS_PER_SECOND = int(1000 * ROLLOUTS_PER_MS)
MAX_PLAYOUT_RATE = 1_000_000  # the most play-outs a second ``playout_rate`` takes: a bound that catches a typo
#: the most cards left for ``endgame_cards``: a bound that catches a typo (40 would send every
#: mid-round hint into an endgame search that only spends its budget; the reach measured in
#: docs/endgame.md ends at 5 cards)
MAX_ENDGAME_CARDS = 8
#: the most threads the endgame search takes by itself on the command line: a sampled level hands out
#: 4 worlds at a time (``search.endgame.CHUNK``)
ENDGAME_AUTO_THREADS = 4
ENDGAME_NODES_PER_SECOND = 1_200_000  # the endgame budget as a node count: the same answer on any machine
#: judging a turn already played (the review, the tutor): with this many cards left or fewer the
#: endgame search judges with at least ``JUDGE_SEARCH_FLOOR`` seconds of budget (its node count,
#: 1.2 M nodes), times ``JUDGE_FLOOR_SCALE`` at 4 cards, however little the time per turn. At 3
#: cards, on 16 played-down views, 1 s reached one stall each in 16 (at 0.2 s, 13, 7 before the
#: levels were settled with a margin of 0; at 0.05 s, 2, none before: ``benchmarks/
#: bench_endgame_reach.py --decks 3 --positions 16 --nodes N --no-bracket``, docs/endgame.md), where
#: play-outs pick a turn half a point or more worse in about half the views (issue 15). At 4 cards
#: 2 s picked the deep reference's turn (or one within half a point) in 14 of 16 views, the play-outs
#: in 9 (mean loss 0.65 against 2.81 points; ``data/simulated/endgame_judge_4cards.csv``). About
#: 1-2 s for each of the two to four such turns of a round. The floor is the advisor's whole budget
#: there: should the search still not reach one stall each, its play-outs get it too
JUDGE_SEARCH_CARDS = 4
#: an answer by play-outs (the hint's verdict, the tutor's comment) with this many cards left or fewer
#: says they can be far off: one card beyond the endgame search's reach for a view (``ENDGAME_CARDS``)
#: too, where play-outs answer it. Measured: with 4 cards they were 6.7 points off the deep search on
#: average (docs/endgame.md); with 5, a player's view got "+5.3 ± 0.0" for the turn the search with no
#: stalls valued at -1.7
FAR_OFF_CARDS = ENDGAME_CARDS + 1
JUDGE_SEARCH_FLOOR = 1.0
JUDGE_FLOOR_SCALE = {4: 2.0}  # cards left -> the floor's multiple (1 otherwise): one stall each costs more there
#: how the play-outs are spread over the turns: "halving" (successive halving: every turn gets a
#: first sample, then each round the better half of the turns still in gets more, so the best
#: turn named always carries the largest sample and no turn listed beats it on the worlds they
#: share) or "two-stage" (as before: a first sample for every turn, a larger one for the best few)
SCHEDULES = ("halving", "two-stage")
SCHEDULE_DEFAULT = "halving"
MIN_WORLDS = 8  # the first sample of every turn, whatever the budget: a turn needs some worlds to be compared
FIRST_STAGE = 0.4  # two-stage: share of the budget spread over every turn; the rest goes to the best few
FINALISTS = 6
#: the play-outs deal the opponent's unknown cards from the learned opponent-hand model
#: (``lcanalysis.hand_model``); measured on the calibration study's positions (docs/agents.md)
HAND_MODEL_DEFAULT = True
#: each player draws from a deck stream of their own in the play-outs (``core.policy.stream_move``):
#: the same chance law, and about half the variance in the paired differences between turns (docs/agents.md)
STREAMS_DEFAULT = True


def judging_budget(deck_count: int, time_budget: float, floor: float = JUDGE_SEARCH_FLOOR) -> float:
    """The advisor's budget for judging a turn already played with ``deck_count`` cards in the draw
    pile: ``time_budget``, raised to ``floor`` (times ``JUDGE_FLOOR_SCALE`` for that many cards)
    with ``JUDGE_SEARCH_CARDS`` cards or fewer."""
    if deck_count > JUDGE_SEARCH_CARDS:
        return time_budget
    return max(time_budget, floor * JUDGE_FLOOR_SCALE.get(deck_count, 1.0))
