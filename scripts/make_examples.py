"""Regenerate the built-in example positions in lcanalysis/examples/ (python scripts/make_examples.py).

The rounds are played by the heuristic agent on both sides (lcanalysis.agents), so the
positions look like real play: an opening view, a view in the middle of the round (the
advisor's example) and a full endgame position with 5 cards left (the solver's example).
"""

import json
from pathlib import Path

from lcanalysis.agents import make_agent
from lcanalysis.game.position import Position

OUT = Path(__file__).resolve().parent.parent / "lcanalysis" / "examples"


def play(seed: int, deck_left: int) -> Position:
    """A heuristic-against-heuristic round from deal ``seed``, stopped with ``deck_left`` cards to draw."""
    agent = make_agent("heuristic")
    pos = Position.deal(seed=seed)
    while pos.deck_count > deck_left and not pos.is_over():
        pos.push(agent.choose(pos.view(), seed + pos.turn))
    return pos


def main() -> None:
    OUT.mkdir(exist_ok=True)
    examples = {
        "opening": Position.deal(seed=2026).view(0).to_json(),
        "midround": play(7, 22).view().to_json(),
        "endgame": play(11, 5).to_json(),
    }
    for name, data in examples.items():
        (OUT / f"{name}.json").write_text(json.dumps(data, indent=1) + "\n")
        print(name, "written")


if __name__ == "__main__":
    main()
