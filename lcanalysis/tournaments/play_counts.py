"""What each seat did in a round, counted off the round's final position: the numbers a claim about
an agent's style ("it opens few expeditions", "it wagers a lot") can be tested on.

Per seat p (the keys end in the seat, as ``score0``/``score1`` do):

- ``opened{p}``: expeditions opened, the colours with at least one card on p's side (a lone wager counts);
- ``wagers{p}``: wager cards p played to its expeditions;
- ``placed{p}``: cards p played to its expeditions, wagers included;
- ``discarded{p}``: cards p discarded.

The first three are on the table: a card played to an expedition never leaves it. The discard piles
are not enough for the fourth, since they are shared and a discarded card taken back is gone from
them; it is read from the position's turns since the deal (each turn places one card, onto an
expedition or a discard pile), so ``placed{p} + discarded{p}`` is the number of turns p took.
"""

from __future__ import annotations

from typing import Any

#: the counts, in the order the summary and the CSV give them
PLAY_COUNTS = ("opened", "wagers", "placed", "discarded")
#: the row keys, each count for seat 0 then seat 1
PLAY_COLUMNS = [f"{name}{seat}" for name in PLAY_COUNTS for seat in (0, 1)]
#: what each count is, in words (the printed summary's)
PLAY_WORDS = {"opened": "expeditions opened", "wagers": "wager cards played", "placed": "cards played to expeditions",
              "discarded": "cards discarded"}


def seat_turns(turns: int, starter: int, seat: int) -> int:
    """The turns ``seat`` took in a round of ``turns`` turns that ``starter`` began: the seats alternate."""
    return (turns + (1 if seat == starter else 0)) // 2


def play_counts(pos: Any, starter: int) -> dict[str, int]:
    """``PLAY_COLUMNS`` of ``pos``, a round's position with every turn since the deal pushed on it
    (``Position.deal`` then ``push``), ``starter`` the seat that moved first."""
    if len(pos.history) != pos.turn:  # (a position set up mid-round does not know who discarded before)
        raise ValueError(f"play counts need every turn of the round since the deal: {pos.turn} turns played, "
                         f"{len(pos.history)} known")
    out: dict[str, int] = {}
    for seat in (0, 1):
        lines = [pos.expedition(seat, c) for c in range(pos.colors)]
        out[f"opened{seat}"] = sum(1 for line in lines if line)
        out[f"wagers{seat}"] = sum(1 for line in lines for card in line if card.is_wager)
        out[f"placed{seat}"] = sum(len(line) for line in lines)
        out[f"discarded{seat}"] = sum(1 for i, move in enumerate(pos.history)
                                      if (starter + i) % 2 == seat and move.card is not None and not move.play)
    return {k: out[k] for k in PLAY_COLUMNS}
