"""The statistical bound by which exact and Monte Carlo results must agree (every system).

With n trials, every stage's sample mean is within z standard errors (sd/sqrt(n)) of the exact
mean, and every outcome's frequency within z*sqrt(p(1-p)/n) + 2/n of its exact probability.
"""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np

from grimdice.dice import Dist


def assert_agree(exact: Mapping[str, Dist], simulated: Mapping[str, Dist], n: int, z: float = 5.0) -> None:
    for stage, d in exact.items():
        s = simulated[stage]
        se = max(d.std(), 1e-12) / np.sqrt(n)
        assert abs(s.mean() - d.mean()) <= z * se + 1e-12, (stage, s.mean(), d.mean())
        for k in range(0, max(d.max, s.max) + 1):
            p = min(max(d[k], 0.0), 1.0)
            assert abs(s[k] - p) <= z * np.sqrt(p * (1 - p) / n) + 2 / n, (stage, k, s[k], p)
