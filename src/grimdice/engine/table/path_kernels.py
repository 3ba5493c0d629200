"""Compiled loops (Numba) for the paths of single bases: whether each of many straight moves passes
over one of a set of bases (``sweeps.sweeps_meet_bases`` reduced over the bases) or touches each
terrain piece (``sweeps.sweeps_touch_pieces``), and each base's
gap to the nearest of a set of bases (placing an assault's models one by one asks it hundreds of
times a game) or, for each block of bases, to each group of them (gaps between units).

As in :mod:`grimdice.engine.table.kernels`, each kernel computes every element with the
floating-point operations of the NumPy formula it mirrors, in the same order (no fast-math), so the
answers are the same; ``tests/engine/test_kernels.py`` checks them equal. Only the games import it.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from grimdice.engine.table.kernels import (
    TERRAIN_EPS,
    Polygons,
    _inside,
    _path_touches,
    _square_point_segment,
    _touching,
)
from grimdice.engine.table.reach_kernels import BOX_MARGIN, _box, _box_gap, _empty_box


@njit(cache=True)
def sweeps_meet_any(
    starts: np.ndarray, ends: np.ndarray, radius: float, pts: np.ndarray, radii: np.ndarray, slack: float
) -> np.ndarray:
    """``(n,)``: whether the base of ``radius`` moving from ``starts[i]`` to ``ends[i]`` overlaps,
    somewhere on the way, one of the bases of ``radii[j]`` at ``pts[j]`` by ``slack`` or more
    (``sweeps.sweeps_meet_bases(...).any(axis=1)``)."""
    n, m = starts.shape[0], pts.shape[0]
    out = np.zeros(n, dtype=np.bool_)
    for i in range(n):
        sx, sy, ex, ey = starts[i, 0], starts[i, 1], ends[i, 0], ends[i, 1]
        for j in range(m):
            reach = max(radius + radii[j] - slack, 0.0)
            if _square_point_segment(pts[j, 0], pts[j, 1], sx, sy, ex, ey) < reach * reach:
                out[i] = True
                break
    return out


@njit(cache=True)
def groups_touch(
    starts: np.ndarray, ends: np.ndarray, radius: float, poly: Polygons, keep: np.ndarray
) -> np.ndarray:
    """``(K,)``: whether the bases of ``radius`` moving straight from ``starts[k]`` to ``ends[k]``
    (``(K, n, 2)``: a group of ``n`` bases each) touch a piece ``keep`` marks anywhere on the way:
    ``kernels.paths_touch`` reduced over those pieces (``blocks.blocks_cross``), each group
    stopping at the first piece touched."""
    out = np.zeros(ends.shape[0], dtype=np.bool_)
    row = np.zeros(keep.shape[0], dtype=np.bool_)
    for c in range(ends.shape[0]):
        out[c] = _touching(starts[c], ends[c], radius, poly, keep, row, True)
    return out


@njit(cache=True)
def ground_heights(points: np.ndarray, poly: Polygons, heights: np.ndarray) -> np.ndarray:
    """``(n,)``: the ground height under each point, the highest raised piece it stands in (else
    0): ``Table.height_at`` (``Table.pieces_at``'s box test and ray casting, ``kernels._inside``)."""
    out = np.zeros(points.shape[0])
    for i in range(points.shape[0]):
        best = 0.0
        for j in range(heights.shape[0]):
            if heights[j] > 0 and heights[j] > best and _inside(poly, j, points[i, 0], points[i, 1]):
                best = heights[j]
        out[i] = best
    return out


@njit(cache=True)
def nearest_gaps(a: np.ndarray, ra: float, b: np.ndarray, rb: np.ndarray) -> np.ndarray:
    """``(n,)``: each base's signed gap to the nearest of the bases ``b`` (radii ``rb``; infinity
    when there are none): ``bases.base_distances(a, ra, b, rb, signed=True).min(axis=1)``."""
    n = a.shape[0]
    out = np.full(n, np.inf)
    for i in range(n):
        out[i] = nearest_gap(a[i, 0], a[i, 1], ra, b, rb)
    return out


@njit(cache=True)
def nearest_gap(x: float, y: float, ra: float, b: np.ndarray, rb: np.ndarray) -> float:
    """The signed gap of a base of ``ra`` at ``(x, y)`` to the nearest of the bases ``b`` (radii
    ``rb``; infinity when there are none), ``base_distances``' arithmetic."""
    out = np.inf
    for j in range(b.shape[0]):
        dx, dy = x - b[j, 0], y - b[j, 1]
        gap = np.sqrt(dx * dx + dy * dy) - ra
        gap -= rb[j]
        if gap < out:
            out = gap
    return out


@njit(cache=True)
def blocks_gaps(bs: np.ndarray, ra: float, b: np.ndarray, rb: np.ndarray, starts: np.ndarray) -> np.ndarray:
    """``(C, K)``: the closest gap (clipped at 0) from the bases of each block ``bs[c]`` (``(C, n,
    2)``) to each of ``K`` groups of the bases ``b`` (group ``k`` starting at ``starts[k]``;
    infinity for an empty one): ``np.minimum.reduceat(blocks.pair_distances(bs, ra, b,
    rb).min(axis=1), starts, axis=1)``, each distance ``bases.base_distances``' arithmetic."""
    cc, n, m, k = bs.shape[0], bs.shape[1], b.shape[0], starts.shape[0]
    out = np.full((cc, k), np.inf)
    for c in range(cc):
        for g in range(k):
            stop = starts[g + 1] if g + 1 < k else m
            best = np.inf
            for j in range(starts[g], stop):
                for i in range(n):
                    dx, dy = bs[c, i, 0] - b[j, 0], bs[c, i, 1] - b[j, 1]
                    gap = np.sqrt(dx * dx + dy * dy) - ra
                    gap -= rb[j]
                    gap = max(gap, 0.0)
                    if gap < best:
                        best = gap
            out[c, g] = best
    return out


@njit(cache=True)
def blocks_clear(
    bs: np.ndarray,
    ra: float,
    b: np.ndarray,
    rb: np.ndarray,
    starts: np.ndarray,
    far: np.ndarray,
    limits: tuple[float, float],
) -> np.ndarray:
    """``(C,)``: whether the block ``bs[c]`` keeps its :func:`blocks_gaps` to each group of the
    bases ``b`` (group ``k`` starting at ``starts[k]``) no less than ``limits[0]`` and, to the
    groups ``far`` marks, over ``limits[1]``: ``~((gaps < limits[0]) | (far & (gaps <=
    limits[1]))).any(axis=1)`` with the gaps of :func:`blocks_gaps`, each pair's gap its
    arithmetic. A group whose box (widened by its largest radius) stands farther from the block's
    than the limit it is held to is not measured base by base (both limits positive)."""
    cc, n, m, k = bs.shape[0], bs.shape[1], b.shape[0], starts.shape[0]
    out = np.ones(cc, dtype=np.bool_)
    boxes, widest = np.empty((k, 4)), np.zeros(k)  # each group's box and largest radius
    for g in range(k):
        stop = starts[g + 1] if g + 1 < k else m
        boxes[g] = _box(b, starts[g], stop, _empty_box())
        for j in range(starts[g], stop):
            widest[g] = max(widest[g], rb[j])
    for c in range(cc):
        here = _box(bs[c], 0, n, _empty_box())
        for g in range(k):
            limit = max(limits[0], limits[1]) if far[g] else limits[0]
            if _box_gap(boxes[g], here) - BOX_MARGIN - ra - widest[g] > limit:
                continue
            for j in range(starts[g], starts[g + 1] if g + 1 < k else m):
                for i in range(n):
                    dx, dy = bs[c, i, 0] - b[j, 0], bs[c, i, 1] - b[j, 1]
                    gap = np.sqrt(dx * dx + dy * dy) - ra
                    gap -= rb[j]
                    gap = max(gap, 0.0)
                    if gap < limits[0] or (far[g] and gap <= limits[1]):
                        out[c] = False
                        break
                if not out[c]:
                    break
            if not out[c]:
                break
    return out


@njit(cache=True)
def sweeps_touch(
    starts: np.ndarray, ends: np.ndarray, radius: float, keep: np.ndarray, poly: Polygons
) -> np.ndarray:
    """``(n, k)``: whether the base of ``radius`` moving from ``starts[i]`` to ``ends[i]`` touches
    piece ``j`` anywhere on the way (the pieces ``keep`` marks, tested only where the piece's box
    meets the box around the path): ``kernels.paths_touch`` with one path per group, its tests
    written out for a single path (``sweeps.sweeps_touch_pieces``)."""
    box = poly[2]
    n, k = starts.shape[0], box.shape[0]
    out = np.zeros((n, k), dtype=np.bool_)
    r = max(radius - TERRAIN_EPS, 0.0)
    r2 = r * r
    for i in range(n):
        sx, sy, ex, ey = starts[i, 0], starts[i, 1], ends[i, 0], ends[i, 1]
        lo_x, lo_y = min(np.inf, sx, ex) - radius, min(np.inf, sy, ey) - radius
        hi_x, hi_y = max(-np.inf, sx, ex) + radius, max(-np.inf, sy, ey) + radius
        for j in range(k):
            if not keep[j] or box[j, 2] < lo_x or box[j, 3] < lo_y or box[j, 0] > hi_x or box[j, 1] > hi_y:
                continue
            out[i, j] = _path_touches(sx, sy, ex, ey, poly, j, r2)
    return out


__all__ = [
    "blocks_gaps",
    "ground_heights",
    "groups_touch",
    "nearest_gap",
    "nearest_gaps",
    "sweeps_meet_any",
    "sweeps_touch",
]
