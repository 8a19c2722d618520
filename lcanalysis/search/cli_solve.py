"""``lcanalysis solve POSITION.json [--max-stalls S] [--max-turns T --leaf as-is] [--workers N] --json``.

``solve_json`` returns the object of spec/interchange.md: ``{"value", "exact", "moves":
[{"move", "value", "stderr"}], "nodes", "seconds"}`` with the moves best first, plus the
labelled extras of ``Analysis.to_json`` (kind, bounds, method, splits). Bad arguments raise
``SearchError`` (a ``ValueError``) with a message the command prints as ``error: ...``.
"""

from __future__ import annotations

from typing import Any

from ._common import SearchError


def solve_json(position, max_stalls=None, max_turns=None, leaf="as-is", samples=None, seed=0,
               workers=None) -> dict[str, Any]:
    from . import solve

    if leaf is None:
        leaf = "as-is"
    if max_stalls is None and max_turns is None:
        raise SearchError(
            "no bound given: add --max-stalls S (discard-pile draws left to each player) and/or "
            "--max-turns T (a horizon; the table is then scored as it stands)"
        )
    if leaf != "as-is" and max_turns is None:
        raise SearchError("--leaf applies at the horizon: give --max-turns too")
    if samples == 0:
        raise SearchError("--samples must be at least 2")
    return solve(position, max_stalls, max_turns, leaf, samples=samples, seed=seed, workers=workers).to_json()


def solve_command(args) -> dict[str, Any]:
    """The same from an ``argparse`` namespace with ``position``, ``max_stalls``, ``max_turns``, ``leaf``
    (and optionally ``samples``, ``seed``, ``workers``)."""
    from ..notation import read_position

    return solve_json(read_position(args.position), getattr(args, "max_stalls", None), getattr(args, "max_turns", None),
                      getattr(args, "leaf", "as-is"), getattr(args, "samples", None), getattr(args, "seed", 0),
                      getattr(args, "workers", None))
