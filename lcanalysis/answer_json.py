"""The one way an answer is written as JSON, by every writer of answers (the command line's
``--json``, ``cli.common.emit``; the bot protocol's replies, ``agents.protocol``): strict JSON on
one line, each float with ``SIGNIFICANT_DIGITS`` significant digits, so that an exact value summed
in floating point reads as itself (22.2, not 22.200000000000003) while a tiny probability keeps
its digits (1.234e-15); a number that is not finite (an interval from one deal) is ``null``, never
``NaN`` or ``Infinity``, which JSON does not have and other readers refuse. Data files (``data/``,
a tournament's results, a review's kept judgements) keep every float in full: they are not
answers, and are written elsewhere. Below every other layer: it imports nothing of the package."""

from __future__ import annotations

import json
import math
from typing import Any

#: significant digits of a float in an answer: float noise (the 16th and 17th digits) dropped,
#: every digit a computation in double precision can mean kept
SIGNIFICANT_DIGITS = 15


def answer_value(obj: Any) -> Any:
    """``obj`` with every float written as JSON answers carry it (``SIGNIFICANT_DIGITS``, ``None``
    when not finite), numpy numbers as Python's, tuples as lists; anything else as it is."""
    if isinstance(obj, dict):
        return {k: answer_value(v) for k, v in obj.items()}
    if isinstance(obj, (list, tuple)):
        return [answer_value(v) for v in obj]
    if isinstance(obj, float):
        return float(f"{obj:.{SIGNIFICANT_DIGITS}g}") if math.isfinite(obj) else None
    if not isinstance(obj, (str, int)) and hasattr(obj, "item"):  # a numpy number: its Python value
        return answer_value(obj.item())
    return obj


def answer_text(obj: Any) -> str:
    """``obj`` as one line of strict JSON, every float as ``answer_value`` writes it."""
    return json.dumps(answer_value(obj), indent=None, allow_nan=False)
