"""The standard error of a mean over clusters: items whose clusters, not the items, are the independent
samples (the expeditions of one simulated round, the decisions of one deal).

The one place of this arithmetic, numpy only and below every layer that averages clustered items:
``studies.estimate`` makes its estimates of it (``ratio_estimate``, ``clustered_mean``), the wager
models' tables against simulated play (``wagers.simulation``) their standard errors.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

import numpy as np


def cluster_totals(values: Sequence[float] | np.ndarray,
                   clusters: Sequence[Any] | np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Each cluster's sum of ``values`` (one an item) and its count of items, ``clusters`` one label an item:
    one entry a cluster, in the order of the sorted labels."""
    values, labels = np.asarray(values, float), np.asarray(clusters)
    if values.shape != labels.shape or values.ndim != 1:
        raise ValueError(f"cluster_totals: one cluster label an item, got {labels.shape} labels for values of "
                         f"shape {values.shape}")
    _, index = np.unique(labels, return_inverse=True)
    return np.bincount(index, weights=values), np.bincount(index).astype(float)


def ratio_stderr(totals: np.ndarray, counts: np.ndarray) -> tuple[float, float]:
    """sum(``totals``) / sum(``counts``) and the standard error of that ratio estimator over the clusters
    (one entry of each a cluster): the linearized residuals ``totals - ratio * counts`` are the cluster's
    deviations, independent from cluster to cluster. NaN for the error under two clusters. With one item a
    cluster it is the sample mean's sd / sqrt(n)."""
    n = len(totals)
    r = float(totals.sum() / counts.sum())
    if n < 2:
        return r, math.nan
    resid = totals - r * counts
    return r, math.sqrt(float((resid**2).sum()) / (n * (n - 1))) / float(counts.mean())


def clustered_stderr(values: Sequence[float] | np.ndarray, clusters: Sequence[Any] | np.ndarray) -> float:
    """The standard error of the mean of ``values`` (one an item) whose ``clusters`` (one label an item) are
    the independent samples: ``ratio_stderr`` over the clusters' sums and counts."""
    return ratio_stderr(*cluster_totals(values, clusters))[1]
