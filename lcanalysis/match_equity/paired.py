"""Paired differences between candidate turns over the worlds both were played in (common random
numbers): their mean and standard error, each turn's worst against the others, the favourite."""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

import numpy as np


def standard_error(x: np.ndarray) -> float:
    """The standard error of the mean of ``x`` (inf for fewer than two worlds: none to give)."""
    return float(x.std(ddof=1) / math.sqrt(len(x))) if len(x) > 1 else math.inf


def paired_difference(a: np.ndarray, b: np.ndarray) -> tuple[float, float]:
    """mean(a - b) and its standard error over the worlds both hold (the first ones)."""
    n = min(len(a), len(b))
    if n == 0:
        return math.nan, math.inf
    d = a[:n] - b[:n]
    return float(d.mean()), standard_error(d)


def worst_paired(x: list[np.ndarray]) -> np.ndarray:
    """Each turn's smallest paired difference against any other turn: min over ``j`` of mean(x[k] -
    x[j]) over the worlds both were played in (``inf`` for a lone turn)."""
    worst = np.full(len(x), np.inf)
    for k in range(len(x)):
        for j in range(k + 1, len(x)):
            d, _ = paired_difference(x[k], x[j])
            worst[k], worst[j] = min(worst[k], d), min(worst[j], -d)
    return worst


def favourite(worst: np.ndarray, tie_key: Sequence[Any]) -> int:
    """The turn whose worst paired difference against the others (``worst_paired``) is the largest:
    the turn no worse than any other in the worlds the two were played in whenever there is one.
    Equal ones (to 1e-12) go by ``tie_key``, smallest first, then by order."""
    top = np.flatnonzero(np.isclose(worst, worst.max(), rtol=0, atol=1e-12)) if np.isfinite(worst.max()) \
        else np.arange(len(worst))
    return min((int(k) for k in top), key=lambda k: (tie_key[k], k))


def no_spread(a: np.ndarray, b: np.ndarray) -> bool:
    """Whether a - b is the same in every world both turns were played in (or there is one)."""
    n = min(len(a), len(b))
    d = a[:n] - b[:n]
    return n == 1 or float(d.min()) == float(d.max())
