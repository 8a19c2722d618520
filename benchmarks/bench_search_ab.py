"""The compiled endgame search against an older commit's, in the same process: seconds, nodes and
every value, view by view, at two stalls each (``--stalls``: one to three).

numba compiles one version of each function, so the old commit's search is loaded beside today's as
a module of its own: its ``lcanalysis/search/perfect.py`` and the split loop of its
``view_value.py`` (``_solve_splits``), written into ``--cache`` (where their compiled code is kept
between runs) and imported under another name. Today's (the working tree's) is loaded the same way,
not from the package, whose numba cache may hold a split loop compiled with the search as it was
(``search_source``). Everything else (the kernel, the splits) is today's.

The question is the one most of the hint's time at 3 and 4 cards goes to: in the mover's view
(``tests/helpers.played_down``), every split of the unseen cards at two stalls each, searched the
way a level is settled (``endgame.converged_endgame``): the best turn at one stall each (found once,
by today's code; at three stalls each, the best at two that the hint finds within its 12 M nodes) first
with a full window, every other turn against its value (margin 0; a turn
that does not beat it gets an upper bound). Old and new run in turns on fresh tables (old, new, new,
old, ...: a load that comes and goes on a shared machine hits both alike, and each goes first as often),
the best of ``--rounds``. On a shared machine the noise is large: ``--old HEAD`` with no change made
measures it (the same code both ways).

Every value exact in both runs must be the same bit for bit (the values are exact; ``--tolerance``
allows the rounding of a change that sums them in another order), which it checks, refusing to report
a ratio otherwise; it says whether the upper bounds of the turns below the reference are the same too
(they are when the search walks the same tree, which equal nodes show). The ratio is old seconds over
new: per view (median) and on the summed seconds; the nodes (all, and the two-player search's alone)
are the same on any machine.

    python benchmarks/bench_search_ab.py --old HEAD~1 --deck 3 --positions 16
    python benchmarks/bench_search_ab.py --old HEAD~1 --deck 4 --positions 8 --max-splits 24
    python benchmarks/bench_search_ab.py --old HEAD~1 --deck 4 --positions 8 --max-splits 2 --stalls 3

(The first run compiles the old commit's search: a minute or two.)
"""

from __future__ import annotations

import argparse
import hashlib
import importlib.util
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))

from helpers import played_down  # noqa: E402

from lcanalysis.core.kernel import MAX_MOVES  # noqa: E402
from lcanalysis.game.moves import Move  # noqa: E402
from lcanalysis.search import perfect  # noqa: E402
from lcanalysis.search.endgame import converged_endgame  # noqa: E402
from lcanalysis.search.perfect import ZOBRIST, auto_bits, check_depth  # noqa: E402
from lcanalysis.search.view_value import _all_splits, _SplitInputs, count_splits  # noqa: E402

STALLS = 2  # the stall level each (``--stalls``)
REFERENCE_NODES = 12_000_000  # above two stalls each: the hint's budget finds the reference (one stall less each)


def _git(*args: str) -> str:
    return subprocess.run(["git", "-C", str(ROOT), *args], check=True, capture_output=True, text=True).stdout


def search_source(rev: str | None, cache: Path) -> Path:
    """The file holding ``rev``'s search (``lcanalysis/search/perfect.py``) and split loop
    (``view_value._solve_splits``), written into ``cache`` under a name of its own; ``rev`` None: the
    working tree's, named by its content. (Today's is not imported from the package: numba checks a
    cached function against its own file only, so after a change to ``perfect.py`` alone the package's
    cached ``view_value._solve_splits`` would still run the search as it was, and both sides of the
    comparison would be the old code.)"""
    if rev is None:
        search = (ROOT / "lcanalysis" / "search" / "perfect.py").read_text()
        loop = (ROOT / "lcanalysis" / "search" / "view_value.py").read_text()
        name = "tree_" + hashlib.sha256((search + loop).encode()).hexdigest()[:12]
    else:
        name = _git("rev-parse", rev).strip()[:12]
    path = cache / f"perfect_{name}.py"
    if not path.exists():
        if rev is not None:
            loop = _git("show", f"{name}:lcanalysis/search/view_value.py")
            search = _git("show", f"{name}:lcanalysis/search/perfect.py")
        start = loop.index("@njit(cache=True, nogil=True)\ndef _solve_splits(")
        end = loop.index("\n\nclass ", start)
        cache.mkdir(parents=True, exist_ok=True)
        path.write_text(search
                        + "\n\nfrom lcanalysis.core.kernel import H_DECK_END, H_DECK_POS, off_deck  # noqa: E402\n\n\n"
                        + loop[start:end] + "\n")
    return path


def load_search(rev: str | None, cache: Path):
    """The module of ``search_source(rev, cache)`` (``Tables``, ``_solve_splits``), compiled."""
    path = search_source(rev, cache)
    spec = importlib.util.spec_from_file_location(path.stem, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # (numba links the recursive functions through it)
    spec.loader.exec_module(module)
    return module


def question(seed: int, deck: int, max_splits: int, stalls: int = STALLS):
    """The view's split inputs, its splits (every one, or the first ``max_splits``), the reference
    turn (the best at one stall each less, as the hint finds it within ``REFERENCE_NODES``) and the
    stall level."""
    pos = played_down(seed, deck)
    view = pos.view(pos.to_move)
    inputs = _SplitInputs(view)
    u = view.opponent_unknown
    n = count_splits([int(x) for x in inputs.unseen], u, max_splits)
    picks, _ = _all_splits(inputs.unseen, u, n)
    first = converged_endgame(view, 1_000_000_000 if stalls <= 2 else REFERENCE_NODES, min_stalls=stalls - 1,
                              max_stalls=stalls - 1, runner_ups=False)
    ref = Move.parse(first.moves[0].move, view.rules.colors).code(view.rules.colors)
    bits, solo_bits = auto_bits(check_depth(deck, stalls, stalls, -1), deck, stalls, stalls)
    return inputs, picks, ref, (bits, min(22, solo_bits + 4)), stalls


def solve(search, inputs, picks, ref: int, bits: tuple[int, int], stalls: int = STALLS):
    """Every split of ``picks`` by ``search`` (its ``Tables`` and ``_solve_splits``) on fresh tables:
    (seconds, nodes, values, bounds, two-player nodes)."""
    tables = search.Tables(*bits)
    tables.reset(0)
    moves = np.zeros(MAX_MOVES, dtype=np.int32)
    vals = np.zeros((len(picks), MAX_MOVES))
    bounds = np.zeros((len(picks), MAX_MOVES), dtype=np.int8)
    t = time.perf_counter()
    k = search._solve_splits(inputs.state, inputs.opp, inputs.known, inputs.unseen, picks, stalls, stalls, -1,
                             perfect.LEAF_AS_IS, ZOBRIST, tables.tt, tables.so, tables.buf, tables.stats, moves, vals,
                             bounds, ref, 0.0)
    seconds = time.perf_counter() - t
    return seconds, int(tables.stats[0] + tables.stats[1]), vals[:, :k], bounds[:, :k], int(tables.stats[0])


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--old", required=True, help="the commit to compare with (HEAD~1, a hash, a branch)")
    ap.add_argument("--deck", type=int, default=3, help="cards left in the draw pile (default 3)")
    ap.add_argument("--positions", type=int, default=16, help="views: played_down seeds 0..N-1 (default 16)")
    ap.add_argument("--rounds", type=int, default=2, help="runs of each, in turns; the best counts (default 2)")
    ap.add_argument("--stalls", type=int, default=STALLS,
                    help="the stall level each, 1-3 (default 2; the reference is the best at one less each)")
    ap.add_argument("--max-splits", type=int, default=400, help="the first this many splits of a view (default 400)")
    ap.add_argument("--tolerance", type=float, default=0.0,
                    help="exact values may differ by this much (default 0: bit for bit; a change that sums the same "
                         "values in another order, e.g. a line valued by the one-player problems instead of the "
                         "two-player search, differs by rounding: give 1e-9, the reference tests' tolerance)")
    ap.add_argument("--cache", type=Path, default=Path(tempfile.gettempdir()) / "lcanalysis_bench_ab",
                    help="where the old commit's search is written and compiled (default: the temp directory)")
    args = ap.parse_args(argv)
    if not 1 <= args.positions <= 1000 or not 1 <= args.rounds <= 20 or not 2 <= args.deck <= 8:
        ap.error("--positions must be 1..1000, --rounds 1..20 and --deck 2..8")
    if not 1 <= args.stalls <= 3:
        ap.error("--stalls must be 1..3")
    if not 1 <= args.max_splits <= 100_000:
        ap.error("--max-splits must be 1..100000")
    if not 0.0 <= args.tolerance <= 1e-6:
        ap.error("--tolerance must be from 0 to 1e-6 (the values are exact)")
    old = load_search(args.old, args.cache)
    new = load_search(None, args.cache)
    warm = question(0, 2, 4)
    for module in (old, new):  # load (or compile) both outside the timings
        solve(module, *warm)
    ratios, total_old, total_new, worst = [], 0.0, 0.0, 0.0
    nodes_old, nodes_new, two_old, two_new = 0, 0, 0, 0
    for seed in range(args.positions):
        q = question(seed, args.deck, args.max_splits, args.stalls)
        runs: dict[str, list] = {"old": [], "new": []}
        for k in range(args.rounds):
            turns = (("old", old), ("new", new))
            for label, module in turns if k % 2 == 0 else turns[::-1]:  # each goes first in every other round
                runs[label].append(solve(module, *q))
        o = min(runs["old"], key=lambda r: r[0])
        n = min(runs["new"], key=lambda r: r[0])
        everyone = runs["old"] + runs["new"]
        apart = max(float(np.max(np.abs(np.where(both, r[2] - o[2], 0.0)), initial=0.0))
                    for r in everyone for both in [(r[3] == 0) & (o[3] == 0)])
        if apart > args.tolerance:
            print(f"seed {seed}: an exact value differs by {apart:.3g}: not a faster search of the same question",
                  flush=True)
            return 1
        worst = max(worst, apart)
        same = all(np.array_equal(r[2], o[2]) and np.array_equal(r[3], o[3]) for r in everyone)
        ratios.append(o[0] / n[0])
        total_old += o[0]
        total_new += n[0]
        nodes_old, nodes_new, two_old, two_new = nodes_old + o[1], nodes_new + n[1], two_old + o[4], two_new + n[4]
        same_values = "bit for bit the same" if apart == 0 else f"the same within {apart:.1g}"
        print(f"seed {seed}: {len(q[1])} splits, old {o[0]:.3f} s, new {n[0]:.3f} s, old/new x{o[0] / n[0]:.2f}; "
              f"nodes old {o[1]:,} new {n[1]:,} (two-player {o[4]:,} and {n[4]:,}); every exact value {same_values}, "
              f"{'the bounds too' if same else 'the upper bounds differ (another tree)'}", flush=True)
    print(f"old/new: x{statistics.median(ratios):.3f} per view (median; {min(ratios):.2f}-{max(ratios):.2f}), "
          f"x{total_old / total_new:.3f} on the summed seconds ({total_old:.2f} s against {total_new:.2f} s); "
          f"nodes x{nodes_old / nodes_new:.3f}, two-player nodes x{two_old / max(two_new, 1):.3f} (summed); "
          f"every exact value the same in all {len(ratios)} views"
          + ("" if worst == 0 else f" (within {worst:.1g})"))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
