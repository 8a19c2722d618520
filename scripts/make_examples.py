"""Regenerate the built-in example positions in lcanalysis/examples/ (python scripts/make_examples.py).

The rounds are played by a simple "sensible" policy (play a card that follows closely on an
expedition, else discard the card least connected to the hand; draw from the deck), so the
positions look like real play rather than random noise.
"""

import json
from pathlib import Path

from lcanalysis.position import Position

OUT = Path(__file__).resolve().parent.parent / "lcanalysis" / "examples"


def sensible_move(pos: Position):
    p = pos.to_move
    moves = [m for m in pos.legal_moves() if m.draws_from_deck]
    best, best_key = None, None
    for m in moves:
        card = m.card
        exp = pos.expedition(p, card.color)
        top = max((c.number for c in exp if not c.is_wager), default=1)
        same = [c for c in pos.hand(p) if c.color == card.color]
        if m.play:
            gap = (card.number or 1) - top
            key = (0, gap) if (gap <= 3 and (exp or len(same) >= 3)) else (2, gap)
        else:
            key = (1, len(same) * 10 + (card.number or 1))
        if best_key is None or key < best_key:
            best, best_key = m, key
    return best


def play(seed: int, turns: int) -> Position:
    pos = Position.deal(seed=seed)
    while pos.turn < turns and not pos.is_over():
        pos.push(sensible_move(pos))
    return pos


def main() -> None:
    OUT.mkdir(exist_ok=True)
    examples = {
        "opening": Position.deal(seed=2026).view(0).to_json(),
        "midround": play(7, 20).view().to_json(),
        "endgame": play(11, 39).to_json(),
    }
    for name, data in examples.items():
        (OUT / f"{name}.json").write_text(json.dumps(data, indent=1) + "\n")
        print(name, "written")


if __name__ == "__main__":
    main()
