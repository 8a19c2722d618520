"""The match-aware agent: the search agent's candidates and play-outs, chosen by match-winning chance.

In a match the goal is to win the match, not the most points: far behind in the last round a
gamble that usually scores less but sometimes wins is worth more than a safe turn, far ahead the
safe turn is. ``MatchAwareAgent`` is the search agent (``SearchAgent``: the heuristic's best
``width`` turns, played out in shared sampled worlds, the same budget, the same caution rule and
the same exact endgame solver) with one change: every world's final round difference is turned
into the match equity at the end of the round (``match_equity.match_values``: P(win the match)
+ half P(draw), from the running totals in ``view.match``, the rounds left and the next starter
under the rules), and turns are compared by that. A position without a match score, a match
already decided in every world, and the round's last ``endgame`` cards (the exact solver's
turn, by points) are played exactly as the search agent plays them.
Like ``best``, it breaks stalling loops (the search agent's ``break_loops``, on by default):
after ``LOOP_TURNS`` turns in a row of discards and discard-pile draws it considers only turns
that draw from the deck, so two match agents never shuffle cards between the piles until the
turn cap.

Information: it sees only its ``View`` (the match score is public).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from lcanalysis.agents.base import AgentError, _as_seed, _check_view
from lcanalysis.agents.search_agent import SearchAgent, cautious_pick
from lcanalysis.game.moves import Move
from lcanalysis.game.view import View
from lcanalysis.match_equity import MatchEquity, MatchEquityError, match_state


class MatchAwareAgent(SearchAgent):
    """The search agent choosing by match-winning chance (module docstring).

    Options: those of ``SearchAgent`` (``width``, ``time_ms``, ``endgame``, ``caution``, ...;
    ``break_loops`` on by default, ``break_loops=0`` turns the loop breaker off) and ``table``: a
    match equity file (default: the shipped ``lcanalysis/data/match_equity.json``).
    """

    name = "match"

    def __init__(self, table: str | None = None, break_loops: float = 1, **options: Any) -> None:
        super().__init__(break_loops=break_loops, **options)
        if self.halving:  # the halving ranks by points; this agent ranks by the match
            raise AgentError("match: halving is not available (the match agent ranks its turns by match chance)")
        self.table = table
        if table is not None:  # a bad file is named now, not in the middle of a tournament
            try:
                MatchEquity.load(table)
            except MatchEquityError as exc:
                raise AgentError(f"match: {exc}") from None

    def equity(self, view: View) -> MatchEquity:
        return MatchEquity.load(self.table, rules=view.rules)

    def choose(self, view: View, rng_or_seed: Any = None, time_ms: float | None = None, *,
               deadline: float | None = None) -> Move:
        view = _check_view(view)
        if not view.match or (self.endgame and view.deck_count <= self.endgame):
            return super().choose(view, rng_or_seed, time_ms, deadline=deadline)
        try:
            state = match_state(view)
        except MatchEquityError:  # a round past the rules' last: nothing but points to play for
            return super().choose(view, rng_or_seed, time_ms, deadline=deadline)
        eq = self.equity(view)
        seed = _as_seed(rng_or_seed)
        cands = self.candidates(view)
        if len(cands) == 1:
            return Move.from_code(int(cands[0]), view.colors)
        r = self.rollouts(view, cands, seed)

        def match_value(k: int) -> np.ndarray:
            return np.asarray(eq.after_round(state.lead + r.samples[k], state.rounds_left_after, state.i_started),
                              dtype=np.float64)

        def by_match_chance() -> np.ndarray:  # points break ties
            first = np.array([match_value(j).mean() for j in range(len(cands))])
            return np.lexsort((-r.means(), -first))

        top = self.two_stages(r, time_ms, by_match_chance, deadline)
        values = [match_value(int(j)) for j in top]
        pick = cautious_pick(values, self.caution)
        if pick == 0 and all(np.ptp(v - values[0][: len(v)]) == 0 and v.mean() == values[0][: len(v)].mean()
                             for v in values[1:]):
            # every finalist wins the match in exactly the same worlds: the points decide
            pick = cautious_pick([r.samples[int(j)] for j in top], self.caution)
        return Move.from_code(int(cands[int(top[pick])]), view.colors)
