"""Match equity: the chance to win a 3-round match from a lead, the rounds left and who starts.

Points are not the goal of a match: winning it is. ``MatchEquity`` holds the match equity
table (docs/spec/rules.md "A match"), built by dynamic programming from the distribution of one
round's score difference between equal agents (``studies/match_table.py`` simulates it and
writes ``lcanalysis/data/match_equity.json``)::

    >>> from lcanalysis.match_equity import MatchEquity
    >>> me = MatchEquity.load()
    >>> round(me.win_probability(0, 3, True), 2)        # a match about to begin, I start it
    0.51
    >>> me.win_probability(1, 0, False)                  # the match is over: a lead wins it
    1.0

Definitions used throughout:

- *lead*: my running total minus the opponent's;
- *rounds left*: rounds still to be played (3 before a 3-round match, 0 once it is over);
- *i start next*: whether I start the next round to be played;
- *equity*: P(win the match) + half P(the totals end level). A tied match is a draw in the
  rules (tournaments play extra rounds); counting it as half a win is what a player who needs a
  win as much as he fears a loss should maximise. ``outcome`` gives win, draw and loss apart.

The modelling assumption: the rounds of a match are independent, and one round's score
difference (starter minus other) has the same distribution whatever the score, given only who
starts it. That is exactly true for agents that ignore the score (the heuristic agent the table
is simulated with); the study checks it against directly simulated 3-round matches. After each
round the rules pick the next starter: the higher running total starts; on level totals the
convention ``tied_start`` decides ("alternate": the player who did not start the round just
played; "same": that player again).

``match_values`` turns play-out outcomes (``Rollouts.samples``: per-world final round score
differences, mover minus opponent) into per-world match equities for the mover, and
``match_analysis`` ranks a ``Rollouts``' candidate turns by match-winning chance and says in a
sentence when that ranking and the points ranking disagree.

This package sits beside ``rollouts``: it imports only ``lcanalysis.game`` and its data file.
"""

# The match equity in parts, each file one job: ``table`` (``MatchEquity``: the table, its loading and
# the checks of what it is asked), ``state`` (a view's match state), ``paired`` (paired differences
# between turns over shared worlds), ``ranking`` (the turns ranked by match-winning chance beside points),
# ``verdict`` (that ranking in words), ``notes`` (the note of an answer by points only, and a turn's
# match loss in words) and ``errors``.
# Import from here.
from lcanalysis.match_equity.errors import MatchEquityError
from lcanalysis.match_equity.notes import POINTS_ONLY, match_loss_said, points_only_note, solve_match_note
from lcanalysis.match_equity.ranking import MatchAnalysis, MatchMoveValue, Sampled, match_analysis, match_values
from lcanalysis.match_equity.state import MatchState, match_state, round_starter
from lcanalysis.match_equity.table import DECIDED, TABLE_LEADS, TABLE_PATH, MatchEquity
from lcanalysis.match_equity.table import _load as _load  # (the tests clear its cache)
from lcanalysis.match_equity.verdict import _paired_amount as _paired_amount  # (the tests' check of its words)
from lcanalysis.match_equity.verdict import table_caveat

__all__ = ["DECIDED", "POINTS_ONLY", "TABLE_LEADS", "TABLE_PATH", "MatchAnalysis", "MatchEquity", "MatchEquityError",
           "MatchMoveValue", "MatchState", "Sampled", "match_analysis", "match_loss_said", "match_state",
           "match_values", "points_only_note", "round_starter", "solve_match_note", "table_caveat"]
