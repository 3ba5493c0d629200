"""Batches: the same ordered results on one process, local workers or a Dask cluster."""

import math

import numpy as np
import pytest

from grimdice.engine.batch import parallel_map, wilson


def game(seed):
    rng = np.random.default_rng(seed)
    return int(rng.integers(0, 1000, size=50).sum())


def test_parallel_map_keeps_order_and_results_whatever_the_workers():
    items = list(range(23))
    one = parallel_map(game, items, workers=1)
    two = parallel_map(lambda s: game(s), items, workers=2)  # a closure: fork needs no pickling
    assert one == two == [game(s) for s in items]


def test_progress_counts_every_item():
    seen = []
    parallel_map(game, [1, 2, 3], workers=1, progress=lambda d, t: seen.append((d, t)))
    assert seen == [(1, 3), (2, 3), (3, 3)]


def test_wilson_interval_by_hand():
    lo, hi = wilson(50, 100)
    # p = 0.5, z = 1.96: centre 0.5, half = 1.96*sqrt(0.0025 + 1.96^2/40000)/(1 + 1.96^2/100)
    half = 1.96 * math.sqrt(0.0025 + 1.96**2 / 40000) / (1 + 1.96**2 / 100)
    assert (lo, hi) == pytest.approx((0.5 - half, 0.5 + half))
    assert wilson(0, 10)[0] == 0.0 and wilson(10, 10)[1] == pytest.approx(1.0)
    assert wilson(0, 0) == (0.0, 1.0)
