"""The compiled core: a compact integer encoding of the game with move generation, apply and undo."""

from lcanalysis.core import kernel, playout

__all__ = ["kernel", "playout"]
