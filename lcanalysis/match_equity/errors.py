"""The one error of the match equity package, below its other files so that each can raise it."""

from __future__ import annotations


class MatchEquityError(ValueError):
    """A match state the table cannot answer (no match score, a round past the last, ...)."""
