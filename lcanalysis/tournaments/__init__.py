"""Tournaments between agents (duplicate deals, resumable results files, any executor) and the
statistics that read them (intervals, ratings)."""

from lcanalysis.tournaments.runner import round_robin, run_tournament, summarize

__all__ = ["round_robin", "run_tournament", "summarize"]
