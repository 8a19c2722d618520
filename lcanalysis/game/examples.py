"""The built-in example positions shipped with the package (``lcanalysis/game/examples/NAME.json``).

Every entry point (``read_position("example:midround")``, the command line, the widgets) names
them the same way, so a user can try any command before writing a position of their own.
"""

from __future__ import annotations

from importlib import resources

from lcanalysis.game.position import PositionError

EXAMPLES = ("midround", "endgame", "opening")
PREFIX = "example:"


def example_text(name: str) -> str:
    """The JSON text of a built-in example; an unknown name is refused with the list of known ones."""
    if name not in EXAMPLES:
        raise PositionError(f"no example {name!r}; built-in examples: {', '.join(EXAMPLES)}")
    return resources.files("lcanalysis.game").joinpath("examples", f"{name}.json").read_text(encoding="utf-8")
