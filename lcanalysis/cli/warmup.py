"""``lcanalysis warm-up``: compile the engine ahead, once, with progress.

The engine is compiled by numba on first use and cached on disk. A cold compile takes a while
(about a minute on a 2-core machine), so every command that needs the engine calls
``engine_ready()`` first: when the engine has not been compiled for this version of the code,
it says so on standard error and compiles every part with a progress bar; afterwards it costs
one file check. A marker file, keyed by the source files, numba and Python, records that the
compile happened.

The game's types alone (``lc.Position``, ``lc.View``, ``lc.read_position``, and the light commands
in a process whose kernel is compiled) need only the rules kernel: ``rules_ready()`` compiles that
part the same way, saying so, with its own marker (a first ``lc.Position`` compiled for 5-12 s in
silence); the engine's later compile keeps what that one put in numba's cache (nothing stale to delete).
Each other part of the engine (a step of ``STEPS``) compiles alone the same way, with its own marker,
when a module's entry point asks for it before its first compiled call (``core.first_compile.ready``,
through the front door): a program that imports ``lcanalysis.wagers.models`` or an agent's class
directly is told too (``part_ready``).

When the marker of the current sources is missing (a new version, an edited source), the
package's numba cache files (``lcanalysis/**/__pycache__/*.nbi`` and ``*.nbc``, or their folders
in ``NUMBA_CACHE_DIR`` when it is set) are deleted before compiling: numba checks a cached
function against its own file only, so a function whose callee in another file changed (one
inlined into it above all) would otherwise load stale machine code from its cache. Deleting is
safe while another process reads the cache: numba then compiles what it cannot load. With
``NUMBA_CACHE_DIR`` set the markers live there too, beside the cache they vouch for: a fresh cache
folder is a first compile, and says so.
"""

from __future__ import annotations

import argparse
import functools
import hashlib
import os
import re
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import lcanalysis
from lcanalysis.cli.common import describe
from lcanalysis.core import first_compile as parts
from lcanalysis.core.first_compile import mark_all_ready

PACKAGE = Path(lcanalysis.__file__).parent
#: a source file with compiled code: a function decorated with numba's njit (this file, which
#: only names the decorator, is not one)
_COMPILED = re.compile(rb"^[ \t]*@(numba\.)?njit\b", re.MULTILINE)


def _key() -> str:
    """Changes whenever a source file with compiled code, numba or Python changes."""
    return _sources_key(PACKAGE)


@functools.lru_cache(maxsize=4)
def _sources_key(package: Path) -> str:
    """``_key`` of the sources in ``package``, read once a process (0.1-0.4 s of hashing, which every
    first ask of a part and the solver's import paid again)."""
    import numba

    h = hashlib.sha256(f"{numba.__version__} {sys.version}".encode())
    for path in sorted(package.rglob("*.py")):
        text = path.read_bytes()
        if _COMPILED.search(text):  # only compiled code matters, as for numba's own cache
            h.update(str(path.relative_to(package)).encode() + hashlib.sha256(text).digest())
    return h.hexdigest()[:16]


def _marker() -> Path:
    """The file that says the whole engine was compiled for these sources."""
    name = f"engine-{_key()}.ok"
    numba_cache = os.environ.get("NUMBA_CACHE_DIR")
    if numba_cache:  # numba keeps its cache there: the marker goes with what it vouches for
        return Path(numba_cache) / "lcanalysis" / name
    here = PACKAGE / "__pycache__"
    if os.access(PACKAGE, os.W_OK):
        return here / name
    return Path(os.environ.get("XDG_CACHE_HOME", Path.home() / ".cache")) / "lcanalysis" / name


def _part_marker(engine_marker: Path, part: str) -> Path:
    """The file that says one part (a name of ``STEPS``) was compiled for these sources: beside the
    engine's, named by the part (``rules-KEY.ok`` for the rules kernel, ``wager-models-KEY.ok``)."""
    prefix = "rules" if part == RULES_PART else re.sub(r"[^a-z0-9]+", "-", part.lower()).strip("-")
    return engine_marker.with_name(f"{prefix}-{_marker_key(engine_marker)}")


def _marker_key(marker: Path) -> str:
    """What follows a marker's part name: the key of the sources it vouches for (``KEY.ok``)."""
    return marker.name.rsplit("-", 1)[-1]


def _rules_marker(engine_marker: Path) -> Path:
    """The file that says the rules kernel was compiled for these sources: beside the engine's."""
    return _part_marker(engine_marker, RULES_PART)


def _any_part_compiled(engine_marker: Path) -> bool:
    """A part was compiled for these sources: numba's cache holds their code, nothing stale."""
    return any(engine_marker.parent.glob(f"*-{_marker_key(engine_marker)}"))


def _rules_engine() -> None:
    pos = lcanalysis.Position.deal(seed=1)
    for _ in range(6):
        pos.push(pos.legal_moves()[-1])
    pos.pop()  # taking a turn back (undo) is compiled code too
    pos.score(0)
    for name in ("opening", "midround", "endgame"):  # tables built from their parts (expeditions, wagers)
        read = lcanalysis.read_position(f"example:{name}")
        read.to_json()
    # the rules' scoring as the light command ``wager`` and ``lc.wager`` count it (in a process whose
    # kernel is compiled: the shell's, a program's)
    lcanalysis.wager("example:midround", "R", 4)


def _near_the_end(cards: int) -> lcanalysis.Position:
    """The built-in endgame example played on with deck draws until ``cards`` are left."""
    pos = lcanalysis.read_position("example:endgame")
    assert isinstance(pos, lcanalysis.Position)
    while pos.deck_count > cards:
        pos.push(next(m for m in pos.legal_moves() if m.source == "D"))
    return pos


def _agents() -> None:
    view = lcanalysis.Position.deal(seed=2).view(0)
    for name in ("random", "greedy", "heuristic"):
        lcanalysis.make_agent(name).choose(view, 0)


# The steps call the advisor and the solver behind the front door, whose progress=None is silent: the
# front door's would report (compiling, each call takes over PROGRESS_DELAY), and its lines (a turn
# "leading" the warm-up's own position) showed between the bar's, before the answer asked for.


def _advisor() -> None:
    from lcanalysis.advisor import advise

    advise("example:midround", time_budget=0.02, seed=0)
    advise("example:midround", time_budget=0.02, seed=0, hand_model=True)
    # both hands known: only the pile sampled
    advise("example:endgame", time_budget=0.02, seed=0)


def _evaluator() -> None:
    lcanalysis.evaluate("example:midround")


def _solver() -> None:
    from lcanalysis.advisor import advise
    from lcanalysis.search import solve, solve_belief, solve_deepening

    solve("example:endgame", max_stalls=0)
    view = lcanalysis.read_position("example:endgame")
    if isinstance(view, lcanalysis.Position):
        view = view.view(view.to_move)
    solve(view, max_stalls=0, samples=4, seed=0)
    solve_belief(view)
    solve(view, max_stalls=0)  # every split enumerated
    end = _near_the_end(3)
    advise(end.view(end.to_move), time_budget=0.02, seed=0)  # the advisor's endgame search
    # a node budget, not a clock: on a starved machine a clock can run out before the first
    # level, and the warm-up (the first command after an install) would end in an error
    solve_deepening("example:endgame", nodes=20_000, max_level=0)
    _tail_playouts()


def _tail_playouts() -> None:
    """Play-outs that end in the exact search (the search agent's ``tail`` option): about 5 s to
    compile, which a tournament of such an agent spent in silence in its first move."""
    from lcanalysis.rollouts import Rollouts, policy_ranking

    pos = _near_the_end(6)
    view = pos.view(pos.to_move)
    Rollouts(view, policy_ranking(view)[0][:2], seed=0, tail=2, tail_stalls=1).sample(2)


def _luck() -> None:
    """The luck of a deck draw (``tournaments.luck``), which rollouts, tournaments and the skill-and-luck
    study rate: 13 s to compile on a loaded 2-core machine, which the first rollout after an upgrade
    spent in silence inside its first trial."""
    from lcanalysis.tournaments.luck import turn_luck

    pos = _near_the_end(3)
    turn_luck(pos.state, next(m for m in pos.legal_moves() if m.source == "D"), pos.to_move)


def _wager_simulation() -> None:
    """The heuristic bots' rounds that check the wager models (``lcanalysis studies wager-sim``,
    ``opening``, ``wager-claims``): compiled in silence on first use, after the engine's compile (7 s
    in a fresh cache, the rules kernel included)."""
    from lcanalysis.wagers.simulation import snapshot_rounds

    snapshot_rounds(2)


def _wagers() -> None:
    from lcanalysis.wagers.canonical import ColorState
    from lcanalysis.wagers.models import turn_model

    lcanalysis.wager("example:midround", "R", 4)
    # the Monte Carlo models (lcanalysis.wagers.models): 4 s to compile on first use, in silence
    turn_model(ColorState.make(hand=(5, 8)), 3, n=10, progress=False)


#: the part of the engine the game's types run (``rules_ready``)
RULES_PART = parts.RULES
#: what ``rules_ready`` compiles
RULES_STEPS: list[tuple[str, Callable[[], None]]] = [(RULES_PART, _rules_engine)]

#: the whole engine, part by part: each also compiled alone, before its first call, when a module's
#: entry point asks for it (``core.first_compile.ready``) and the whole engine never was
STEPS: list[tuple[str, Callable[[], None]]] = [
    (parts.RULES, _rules_engine),
    (parts.POLICIES, _agents),
    (parts.PLAYOUTS, _advisor),
    (parts.EVALUATOR, _evaluator),
    (parts.SOLVER, _solver),
    (parts.LUCK, _luck),
    (parts.WAGER_MODELS, _wagers),
    (parts.WAGER_SIMULATION, _wager_simulation),
]


#: seconds between redraws of the compile's bar while one part compiles (``records.ticking``): a bar
#: redraws only when it moves, and one part took over two minutes on a loaded 2-core machine, its
#: elapsed time frozen meanwhile
TICK_SECONDS = 1.0


def _numba_cache_folders(root: Path) -> list[Path]:
    """Where numba caches the compiled functions of the package's source folders: their
    ``__pycache__`` folders, or with ``NUMBA_CACHE_DIR`` set a folder there for each, named as numba
    names it (``_CacheLocator.get_suitable_cache_subpath``: the folder's name, the SHA-1 of its path)."""
    numba_cache = os.environ.get("NUMBA_CACHE_DIR")
    if not numba_cache:
        return sorted(root.rglob("__pycache__"))
    folders = sorted({p.parent for p in root.rglob("*.py")})
    return [Path(numba_cache) / f"{folder.name}_{hashlib.sha1(os.path.abspath(folder).encode()).hexdigest()}"
            for folder in folders]


def stale_cache_files(package: Path | None = None) -> list[Path]:
    """numba's cache files of the package (``*.nbi`` and ``*.nbc``, in its ``__pycache__`` folders
    or, with ``NUMBA_CACHE_DIR`` set, in the package's folders there)."""
    root = PACKAGE if package is None else package
    return sorted(p for folder in _numba_cache_folders(root) for pattern in ("*.nbi", "*.nbc")
                  for p in folder.glob(pattern))


def remove_stale_cache(package: Path | None = None) -> int:
    """Delete numba's cache files of the package; returns how many were deleted (a file that
    cannot be deleted, in a read-only install, is left to numba's own checks)."""
    removed = 0
    for path in stale_cache_files(package):
        try:
            path.unlink()
            removed += 1
        except OSError:  # gone already (another process cleaned it) or read-only
            pass
    return removed


def is_compiled() -> bool:
    return _marker().exists()


def engine_ready(quiet: bool = False) -> float:
    """Compile the engine if this version has never been compiled here; returns the seconds spent
    (0 when it was ready). Says so on standard error, with progress, unless ``quiet``."""
    marker = _marker()
    if marker.exists():
        mark_all_ready()  # (the modules' own asks, ``core.first_compile``, cost nothing from now on)
        return 0.0
    if _COMPILING.is_set():  # (its steps reach the front door, which asks again)
        return 0.0
    _COMPILING.set()
    try:
        # after a part's compile the cache holds only what these sources compiled: nothing stale to delete
        seconds = _compile(marker, quiet, STEPS, ENGINE_NOTICE, clean=not _any_part_compiled(marker))
    finally:
        _COMPILING.clear()
    mark_all_ready()
    return seconds


def part_ready(part: str, quiet: bool = False) -> float:
    """Compile one part of the engine (a name of ``STEPS``: what a module's entry points run, which
    ask for it through ``core.first_compile.ready``) if neither it nor the whole engine was ever
    compiled for this version here; returns the seconds spent (0 when it was ready). Says so on
    standard error, with a bar, unless ``quiet``: once, as ``engine_ready``; its own marker beside
    the engine's."""
    steps = RULES_STEPS if part == RULES_PART else [s for s in STEPS if s[0] == part]
    if not steps:
        raise ValueError(f"no compiled part named {part!r}; the parts: {', '.join(name for name, _ in STEPS)}")
    marker = _marker()
    own = _part_marker(marker, part)
    if marker.exists() or own.exists() or _COMPILING.is_set():
        return 0.0
    _COMPILING.set()
    try:
        return _compile(own, quiet, steps, PART_NOTICES.get(part, PART_NOTICE.format(part=part)),
                        clean=not _any_part_compiled(marker))
    finally:
        _COMPILING.clear()


def rules_ready(quiet: bool = False) -> float:
    """Compile the rules kernel (what ``Position``, ``View`` and ``read_position`` run) if neither it
    nor the whole engine was ever compiled for this version here; returns the seconds spent (0 when
    it was ready). Says so on standard error, with a bar, unless ``quiet``: once, as ``engine_ready``."""
    return part_ready(RULES_PART, quiet)


_COMPILING = threading.Event()  # set while engine_ready or part_ready compiles in this process

#: the parts compiling as their module is imported, by part: the bar, its ticker's stop, the marker
#: written when it is over, when it began
_AT_IMPORT: dict[str, tuple[Any, Callable[[], None], Path, float]] = {}


def compiling_at_import(part: str, module: str, quiet: bool = False) -> bool:
    """Before ``module``'s functions typed ahead (numba compiles a function with an explicit signature
    as its decorator runs: the solver's recursive searches) compile as it is imported: when neither
    the engine, nor ``part``, nor these functions were compiled for these sources here, a notice and a
    bar on standard error until ``compiled_at_import``, and numba's cache emptied of other sources'
    code first, as a part's compile does (a function of another file inlined into them would load
    stale). Returns whether it compiles. No entry point can ask first (``core.first_compile.ready``):
    the module's import is the first call. While the warm-up compiles (its own bar shows) it says
    nothing."""
    marker = _marker()
    at_import = _part_marker(marker, f"{part} at import")  # (its functions typed ahead only)
    if (marker.exists() or _part_marker(marker, part).exists() or at_import.exists() or _COMPILING.is_set()
            or part in _AT_IMPORT):
        return False
    if not _any_part_compiled(marker):  # (its marker, once written, tells the part's compile to keep the cache)
        remove_stale_cache()
    if not quiet:
        print(IMPORT_NOTICE.format(part=part, module=module), file=sys.stderr, flush=True)
    from lcanalysis.progress import progress_bar, ticking

    bar = progress_bar(total=1, desc="compiling", unit="part", progress=not quiet, delay=0)
    bar.set_postfix_str(f"{part}'s searches")
    _AT_IMPORT[part] = (bar, ticking(bar, TICK_SECONDS), at_import, time.perf_counter())
    return True


def compiled_at_import(part: str) -> None:
    """``part``'s compile at its module's import (``compiling_at_import``) is over: its bar completes,
    and a marker says so (the next import loads them from numba's cache, in silence)."""
    opened = _AT_IMPORT.pop(part, None)
    if opened is None:
        return
    bar, stop_ticking, at_import, t0 = opened
    stop_ticking()
    bar.update(1)
    bar.close()
    _write_marker(at_import, f"compiled as its module was imported in {time.perf_counter() - t0:.1f} s\n")


def _write_marker(path: Path, text: str) -> None:
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    except OSError:  # a read-only install: numba keeps its own cache, we only lose the notice
        pass


ENGINE_NOTICE = ("compiling the engine, once for this version (about a minute on 2 cores); "
                 "later commands start at once")
RULES_NOTICE = ("compiling the rules kernel, once for this version (5-15 s on 2 cores; "
                "'lcanalysis warm-up' compiles the whole engine ahead)")
PART_NOTICE = ("compiling the {part}, once for this version (seconds to a minute on 2 cores; "
               "'lcanalysis warm-up' compiles the whole engine ahead)")
PART_NOTICES = {RULES_PART: RULES_NOTICE}
IMPORT_NOTICE = ("compiling the {part}'s searches as {module} is imported, once for this version (about a minute "
                 "on 2 cores; 'lcanalysis warm-up' compiles the whole engine ahead)")


def _compile(marker: Path, quiet: bool, steps: list[tuple[str, Callable[[], None]]], notice: str,
             clean: bool) -> float:
    if clean:
        remove_stale_cache()  # compiled for other sources: numba would not always notice

    if not quiet:
        print(notice, file=sys.stderr, flush=True)
    t0 = time.perf_counter()
    from lcanalysis.progress import progress_bar, ticking

    # at once, not after PROGRESS_DELAY: the notice above says a compile started, the bar that it moves
    with progress_bar(steps, desc="compiling", unit="part", progress=not quiet, delay=0) as bar:
        stop_ticking = ticking(bar, TICK_SECONDS)
        try:
            for name, step in bar:
                bar.set_postfix_str(name)
                step()
        finally:
            stop_ticking()
    try:
        marker.parent.mkdir(parents=True, exist_ok=True)
        whole = marker.name.startswith("engine-")  # vouches for every part: their markers go too
        for old in marker.parent.glob("*-*.ok"):
            if whole or _marker_key(old) != _marker_key(marker):  # (another version's marker: stale)
                old.unlink()
    except OSError:  # a read-only install: numba keeps its own cache, we only lose the notice
        pass
    _write_marker(marker, f"compiled in {time.perf_counter() - t0:.1f} s\n")
    return time.perf_counter() - t0


def add_parser(sub: argparse._SubParsersAction, pos_help: str = "") -> None:
    p = sub.add_parser("warm-up", help="compile the engine ahead (once per version; about a minute)",
                       description=describe(__doc__))
    p.add_argument("--force", action="store_true",
                   help="compile everything again (numba's cache files deleted first), even if this version was")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    if args.force:
        _marker().unlink(missing_ok=True)
    seconds = engine_ready()
    print(f"engine compiled in {seconds:.1f} s" if seconds else "engine already compiled for this version")
    return 0
