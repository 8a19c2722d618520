"""Before a compiled part's first call in a process: compiled now, saying so, if this version of the
code never compiled it here (the team's standard: a first-time compile says so).

numba compiles a function on its first call and caches it on disk; a cold compile of a part takes
seconds to minutes. The front door (``lc.Position``, ``lc.advise``) and the commands made the
engine ready first, with a notice and a bar (``cli.warmup``); a program that imported a module
directly (``lcanalysis.game.position``, ``lcanalysis.wagers.models``, ...) compiled in silence.
Each module's entry points now call ``ready(part)`` first, ``part`` a name of the warm-up's steps
(``cli.warmup.STEPS``). The warm-up sits in the command-line layer, far above the modules that ask:
the package's front door, always loaded before any of its modules, reaches it
(``lcanalysis._part_ready``). After the first ask a part costs a set look-up; with
``NUMBA_DISABLE_JIT`` (plain Python: nothing compiles) it asks nothing.
"""

from __future__ import annotations

import sys

from lcanalysis.core.jit import jit_disabled

# the parts, as the warm-up names its steps (``cli.warmup.STEPS``)
RULES = "rules engine"
POLICIES = "playing policies"
PLAYOUTS = "play-outs and the advisor"
EVALUATOR = "hand evaluator"
SOLVER = "exact endgame solver"
LUCK = "luck of the draws"
WAGER_MODELS = "wager models"
WAGER_SIMULATION = "wager simulation"

#: the parts asked for (or known ready) in this process: never asked again
ASKED: set[str] = set()
#: every part is ready in this process (the whole engine's marker was found or written)
ALL_READY: list[bool] = [False]


def ready(part: str) -> None:
    """Make ``part`` ready before its first call: a file check once it is compiled, a compile with a
    notice and a bar on standard error when it never was."""
    if part in ASKED or ALL_READY[0]:
        return
    ASKED.add(part)  # (first: the compile's own steps call back here)
    if jit_disabled():
        return
    sys.modules["lcanalysis"]._part_ready(part)


def mark_all_ready() -> None:
    """The whole engine is compiled: no part need be asked for again in this process."""
    ALL_READY[0] = True
