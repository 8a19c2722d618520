"""The compiled core: a compact integer encoding of the game with move generation, apply and undo."""

from . import kernel, playout

__all__ = ["kernel", "playout"]
