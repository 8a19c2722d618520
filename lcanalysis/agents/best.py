"""The ``best`` agent: the strongest measured, the search agent with the options that made it so."""

from __future__ import annotations

from typing import Any

from lcanalysis.agents.search_agent import SearchAgent
from lcanalysis.options import FAST_ROLLOUTS_PER_MS


class BestAgent(SearchAgent):
    """The strongest agent measured (docs/agents.md "Measured strength"), at its default budget:
    outside referees that ask for ``best`` always meet it. Today: the search agent with stalling
    rollouts, that breaks stalling loops, deals the opponent's unknown cards from the learned
    opponent-hand model, gives each player a deck stream of their own in the play-outs, and plays
    the faster policy's 15 play-outs a millisecond of budget, 1,500 in its default 100 ms, and
    takes another turn than the heuristic's own only when it leads by one standard error, not two
    (``search:stall=0.5,break_loops=1,hand_model=1,streams=1,rate=15,caution=1``)."""

    name = "best"

    def __init__(self, **options: Any) -> None:
        super().__init__(**{**BEST_OPTIONS, **options})


#: ``rate``: 1,500 play-outs in the default 100 ms (as ``search:time_ms=250`` would play), the faster
#: policy's rate; measured against ``search`` as ``best:time_ms=250`` (docs/agents.md, "More play-outs
#: in the same time")
#: ``caution``: one standard error, screened against the ``best`` of caution 2 on the same deals
#: (docs/agents.md, "Screening a change")
BEST_OPTIONS: dict[str, Any] = {"stall": 0.5, "break_loops": 1, "hand_model": 1, "streams": 1,
                                "rate": FAST_ROLLOUTS_PER_MS, "caution": 1}
