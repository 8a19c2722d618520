"""numba's ``njit`` for the modules a command without compiled code loads (the rules kernel, the
features every player counts: ``wager``'s default draws).

With ``NUMBA_DISABLE_JIT`` set, numba's ``njit`` hands the function back unchanged, so the code
runs as plain Python; the commands that need no compiled code (``show``, ``deal``, ``wager``) set
it. Importing numba only to be handed the function back costs a fifth of a second of their
start-up, so while numba is not loaded and the variable disables it, this ``njit`` hands the
function back itself; otherwise it is numba's.
"""

from __future__ import annotations

import os
import sys
from typing import Any


def jit_disabled() -> bool:
    """``NUMBA_DISABLE_JIT`` as numba reads it: a whole number, not 0 (anything else: compiled)."""
    try:
        return int(os.environ.get("NUMBA_DISABLE_JIT", "0")) != 0
    except ValueError:
        return False


def njit(*args: Any, **options: Any) -> Any:
    """``numba.njit``: ``@njit`` or ``@njit(cache=True)``."""
    if "numba" not in sys.modules and jit_disabled():
        if len(args) == 1 and callable(args[0]) and not options:
            return args[0]  # bare @njit
        return lambda func: func
    from numba import njit as numba_njit

    return numba_njit(*args, **options)
