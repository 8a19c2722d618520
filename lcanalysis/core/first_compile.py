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


#: the parts compiling as their module is imported (``compiling_at_import``), until it is over
COMPILING_AT_IMPORT: set[str] = set()


def compiling_at_import(part: str, module: str) -> None:
    """Called by a module whose functions numba compiles as it is imported, before them: functions
    typed ahead (an explicit signature: the solver's recursive searches) compile as their decorators
    run, before any entry point can ask for their part (``ready``), and ``import lcanalysis.advisor``
    on a fresh install waited 102 s in silence. When this version never compiled ``part`` here, a
    notice and a bar on standard error until the module calls ``compiled_at_import``."""
    if part in ASKED or ALL_READY[0] or jit_disabled():
        return
    if sys.modules["lcanalysis"]._compiling_at_import(part, module):
        COMPILING_AT_IMPORT.add(part)


def compiled_at_import(part: str) -> None:
    """The module's functions typed ahead are compiled (or loaded): the bar of ``compiling_at_import``
    completes."""
    if part in COMPILING_AT_IMPORT:
        COMPILING_AT_IMPORT.discard(part)
        sys.modules["lcanalysis"]._compiled_at_import(part)


def mark_all_ready() -> None:
    """The whole engine is compiled: no part need be asked for again in this process."""
    ALL_READY[0] = True
