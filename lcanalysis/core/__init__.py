"""The compiled core: a compact integer encoding of the game with move generation, apply and undo.

``constants`` (the deck's numbers) loads nothing, so the card layer imports it without the engine;
the compiled modules (``kernel``, ``playout``, ...) load on first use, as ``lc.core.kernel``.
"""

from __future__ import annotations

import importlib
from types import ModuleType

__all__ = ["constants", "features", "kernel", "playout", "policy"]


def __getattr__(name: str) -> ModuleType:
    if name in __all__:
        return importlib.import_module(f"{__name__}.{name}")
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
