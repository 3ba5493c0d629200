"""Dist.from_outcomes: the law of a count read off a weighted grid."""

import numpy as np
import pytest

from grimdice.dice import Dist


def test_from_outcomes_sums_weights_per_value():
    values = np.array([[0, 1], [1, 3]])
    weights = np.array([[0.1, 0.2], [0.3, 0.4]])
    d = Dist.from_outcomes(values, weights)
    assert d.to_dict() == pytest.approx({0: 0.1, 1: 0.5, 3: 0.4})


def test_from_outcomes_broadcasts_and_rejects_negative_counts():
    assert Dist.from_outcomes(np.array([2, 2]), np.array([0.5, 0.5])).to_dict() == {2: 1.0}
    with pytest.raises(ValueError, match="non-negative"):
        Dist.from_outcomes(np.array([-1, 0]), np.array([0.5, 0.5]))
