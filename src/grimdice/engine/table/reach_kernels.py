"""Boxes around the units a block of bases must keep clear of (compiled, Numba): a block standing or
moving farther from a unit's box than any of its tests can reach is not tested base by base
(``kernels._block_clear``). The boxes only skip tests whose answer they know; the answers are those
of the tests themselves.
"""

from __future__ import annotations

import numpy as np
from numba import njit

#: the kernels' units: centres, radii, where each unit's bases start, which units count (``kernels.Units``)
Units = tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]


#: how much nearer than their boxes two groups of bases may be measured (rounding): far more than it
BOX_MARGIN = 1e-6


@njit(cache=True)
def _reach_box(
    radius: float, units: Units, limits: tuple[np.ndarray, np.ndarray, np.ndarray], slack: float
) -> np.ndarray:
    """``(K, 6)``: for each unit, the box around its tested bases' centres (least x, y, greatest x,
    y; empty: infinite), the greatest ``radii[j] + limit[j]`` of its tested bases and the greatest
    reach ``max(radius + radii[j] - slack, 0)`` of those that may not be passed over (``-inf``
    when none): a block whose centres stand (or sweep) farther from that box, less
    :data:`BOX_MARGIN`, than the bases' ``radius`` plus the first (or than the second) meets none
    of that unit's tests in :func:`_block_clear` (a distance is never less than its gap along x or y)."""
    pts, radii, starts = units[0], units[1], units[2]
    test, limit, sweep = limits
    k_count, m = starts.shape[0], pts.shape[0]
    out = np.empty((k_count, 6))
    for k in range(k_count):
        out[k, :4] = _empty_box()
        out[k, 4], out[k, 5] = -np.inf, -np.inf
        for j in range(starts[k], starts[k + 1] if k + 1 < k_count else m):
            if test[j]:
                _box(pts, j, j + 1, out[k])
                out[k, 4] = max(out[k, 4], radii[j] + limit[j])
                if sweep[j]:
                    out[k, 5] = max(out[k, 5], max(radius + radii[j] - slack, 0.0))
    return out


@njit(cache=True, inline="always")
def _empty_box() -> np.ndarray:
    """A box around no point (least x, y, greatest x, y): it grows to the first point given."""
    return np.array([np.inf, np.inf, -np.inf, -np.inf])


@njit(cache=True, inline="always")
def _box(pts: np.ndarray, start: int, stop: int, box: np.ndarray) -> np.ndarray:
    """``box`` grown (in place) around the points ``pts[start:stop]``."""
    for j in range(start, stop):
        box[0], box[1] = min(box[0], pts[j, 0]), min(box[1], pts[j, 1])
        box[2], box[3] = max(box[2], pts[j, 0]), max(box[3], pts[j, 1])
    return box


@njit(cache=True, inline="always")
def _box_gap(box: np.ndarray, other: np.ndarray) -> float:
    """The gap along x or y (the larger) between two boxes (least x, y, greatest x, y; 0 when they
    meet): no point of one is nearer a point of the other."""
    return max(box[0] - other[2], other[0] - box[2], box[1] - other[3], other[1] - box[3], 0.0)


__all__ = ["BOX_MARGIN", "_box", "_box_gap", "_empty_box", "_reach_box"]
