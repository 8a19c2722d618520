"""What is a wager worth? The canonical model (``canonical``), richer models that count turns,
decline to open or watch the opponent (``models``), and the simulation that checks them against
play (``simulation``)."""

from __future__ import annotations

from typing import Any

from lcanalysis.wagers.canonical import WagerAnalysis, WagerError, analyze_view


def wager(target: Any, color: str | int, draws: int | None = None, exact: bool = True) -> WagerAnalysis:
    """The canonical wager model (docs/spec/interchange.md) for one colour of a position or view,
    seen by its viewer (a full position: the player to move) with ``draws`` more deck draws:
    the exact score distribution and mean for every number of wagers placed now. ``draws=None``:
    the viewer's useful draws, its turns left less one with both players drawing from the pile (18
    with 37 cards in the pile and the viewer to move, 17 when the opponent is), as ``lcanalysis
    wager`` takes them without ``--draws``.

    ``color``: a letter (``"R"``) or a colour's number. Returns a ``WagerAnalysis``: one
    ``WagerOutcome`` per number of wagers the model allows (``by_wagers``), its ``distribution``
    (final score of the expedition in points -> probability) and ``mean`` (expected points), exact
    under the model, as ``Fraction``s (``exact=False``: the same numbers as floats)."""
    from lcanalysis.game.notation import read_view

    view = read_view(target)
    if draws is None:
        from lcanalysis.core.features import useful_draws
        from lcanalysis.wagers.canonical import check_round_not_over

        check_round_not_over(view)  # (no turn left: no draws to count)
        draws = int(useful_draws(int(view.deck_count), view.to_move == view.viewer))
    return analyze_view(view, color, draws, exact=exact)


__all__ = ["WagerAnalysis", "WagerError", "wager"]
