"""What every command shares: reading the POSITION argument, printing JSON, option types, and
the one error type of bad command-line input (printed as ``error: ...``, exit status 2)."""

from __future__ import annotations

import argparse
import json
import math
import sys
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from lcanalysis.game.position import Position
    from lcanalysis.game.view import View


class UsageError(ValueError):
    """Bad command-line input; printed as ``error: ...``."""


def load(source: str) -> Position | View:
    """POSITION argument: a JSON file, ``-`` for standard input, ``example:NAME``, or the one-line string."""
    from lcanalysis.game.notation import read_position  # the game loads on use: '--help' stays fast

    if source == "-":
        from lcanalysis.game.notation import MAX_TEXT_CHARS

        text = sys.stdin.read(MAX_TEXT_CHARS + 1)  # never more than the readers accept
        if not text.strip():
            raise UsageError("standard input is empty: expected a JSON position or an 'LC1;...' string")
        return read_position(text)
    return read_position(source)


def emit(obj: Any) -> None:
    print(json.dumps(obj, indent=None))


def nonneg(name: str) -> Callable[[str], int]:
    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{name} must be a whole number, got {text!r}") from None
        if value < 0:
            raise argparse.ArgumentTypeError(f"{name} must be >= 0, got {value}")
        return value

    return parse


def positive_float(text: str) -> float:
    """A time budget in seconds: a finite number above 0 and at most an hour."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"time must be a number of seconds, got {text!r}") from None
    if not math.isfinite(value) or not 0 < value <= 3600:
        raise argparse.ArgumentTypeError(f"time must be more than 0 and at most 3600 seconds, got {text}")
    return value
