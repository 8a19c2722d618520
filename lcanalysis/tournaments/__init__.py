"""Tournaments between agents (duplicate deals, resumable results files, any executor) and the
statistics that read them (intervals, ratings)."""

from typing import Any

__all__ = ["round_robin", "run_tournament", "summarize"]


def __getattr__(name: str) -> Any:  # loaded on use: 'lcanalysis tournament --help' stays fast
    if name in __all__:
        from lcanalysis.tournaments import runner

        return getattr(runner, name)
    raise AttributeError(f"module 'lcanalysis.tournaments' has no attribute {name!r}")
