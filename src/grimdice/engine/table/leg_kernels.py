"""Compiled passes for a move in two straight legs through a waypoint: the waypoints tried and how
promising each is, then the second legs from the most promising, each search in two passes
instead of a compiled call per test and the NumPy between them.

Each value is computed with the floating-point operations of the NumPy code it stands for, in the
same order (no fast-math; ``np.hypot`` is the C library's ``hypot`` in both), so a game is the same
whichever computes it: ``tests/onepage_game/test_leg_kernels.py`` checks them equal to the plain
code. Only the games import this module.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from grimdice.engine.table.kernels import _touching, block_moves
from grimdice.engine.table.path_kernels import nearest_gap

#: what a block's move tests read besides the block and its steps (``kernels.block_moves``' last
#: six arguments: the table's size, the terrain, the Walk distance, the other units, whether bases
#: may not pass over them, the tolerances)
Rules = tuple


@njit(cache=True)
def waypoint_scores(
    block: tuple[np.ndarray, np.ndarray, tuple[float, float], float],
    ways: tuple[np.ndarray, np.ndarray, np.ndarray],
    goal: tuple[float, float, float, float, float, float],
    rules: Rules,
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """The first legs that may end at a waypoint and how promising each is: ``(wx, wy, hoped,
    score)``, one entry per direction ``ways[w]`` (unit vector ``ux``, ``uy`` and ``length``) whose
    whole length the block test passes (``kernels.block_moves``; ``block``: the bases where they
    stand, their offsets from the anchor, the anchor, the radius), in that order. ``wx``, ``wy``:
    the leg cut to 0.001"; ``hoped``: how far from the goal a clear second leg straight at it would
    end (``goal``: its centre, the centre-to-edge ``offset``, the move's distance ``full``, the
    1" kept and the margin ``short``, the least distance ``eps``); ``score``: ``hoped``, plus 1000
    where going on straight at the goal by what is left (stopping ``keep`` plus ``short`` from its
    edge) meets impassable terrain (``kernels._touching`` of every base, ``rules``' terrain).
    ``legs.first_legs`` and the ranking of ``legs.around`` in one pass."""
    a, base, anchor, radius = block
    ux, uy, length = ways
    cx, cy, offset, full, short, eps = goal
    w_count, n = ux.shape[0], a.shape[0]
    steps = np.empty((w_count, 1))
    for w in range(w_count):
        steps[w, 0] = length[w]
    good = block_moves(a, base, anchor, ux, uy, steps, radius, *rules)
    k_count = 0
    for w in range(w_count):
        k_count += good[w, 0]
    wx, wy = np.empty(k_count), np.empty(k_count)
    hoped, score = np.empty(k_count), np.empty(k_count)
    poly, impassable = rules[1][0], rules[1][1]
    keep, ax, ay = rules[5][3], anchor[0], anchor[1]
    mids, ends = np.empty((n, 2)), np.empty((n, 2))
    row = np.zeros(impassable.shape[0], dtype=np.bool_)
    k = 0
    for w in range(w_count):
        if not good[w, 0]:
            continue
        x = np.trunc(ux[w] * length[w] * 1000) / 1000 + 0.0
        y = np.trunc(uy[w] * length[w] * 1000) / 1000 + 0.0
        far = max(np.hypot(cx - ax - x, cy - ay - y), eps)
        left = full - np.hypot(x, y)
        hope = max(0.0, far - left)
        go = max(min(left, far - offset - keep - short), 0.0)
        vx, vy = (cx - ax - x) / far * go, (cy - ay - y) / far * go
        for i in range(n):
            mids[i, 0], mids[i, 1] = a[i, 0] + x, a[i, 1] + y
            ends[i, 0], ends[i, 1] = mids[i, 0] + vx, mids[i, 1] + vy
        rock = n > 0 and _touching(mids, ends, radius, poly, impassable, row, True)
        wx[k], wy[k], hoped[k] = x, y, hope
        score[k] = hope + 1000.0 * (1.0 if rock else 0.0)
        k += 1
    return wx, wy, hoped, score


@njit(cache=True)
def second_legs(
    block: tuple[np.ndarray, np.ndarray, float],
    target: tuple[np.ndarray, np.ndarray],
    legs: tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray],
    limits: tuple[float, float, float, float],
    shares: np.ndarray,
    rules: Rules,
) -> tuple[np.ndarray, np.ndarray]:
    """``(K, F)`` and ``(K,)``: for each waypoint, which second-leg lengths the block test passes
    (``kernels.block_moves`` from the waypoint with the other units where they stand, the first
    passing length marked) and what was left of the move (``< 0.5``: no second leg tried).
    ``block``: the offsets of the bases from their anchor, the waypoints' anchors ``(K, 2)`` and the
    radius; ``target``: the goal unit's bases (centres, radii); ``legs``: each first leg's length,
    the distance from its waypoint to the goal and the unit vector towards it (``far``, ``vx``,
    ``vy``, the caller's floats); ``limits``: the move's distance, the 1" kept plus the margin
    (``keep``, ``short``) and the least distance ``eps``. What is left is the move's distance less
    the first leg, and no more than the gap to the goal unit (``blocks_gaps``' arithmetic) less the
    1" and the margin; its ``shares`` are the lengths tried, longest first."""
    base, mids, radius = block
    pts, radii = target
    first, far, vx, vy = legs
    full, keep, short, eps = limits
    k_count, n, f_count = mids.shape[0], base.shape[0], shares.shape[0]
    good = np.zeros((k_count, f_count), dtype=np.bool_)
    left = np.full(k_count, -1.0)
    a = np.empty((n, 2))
    steps = np.empty((1, f_count))
    for k in range(k_count):
        gap = np.inf
        for i in range(n):
            a[i, 0], a[i, 1] = base[i, 0] + mids[k, 0], base[i, 1] + mids[k, 1]
            gap = min(gap, nearest_gap(a[i, 0], a[i, 1], radius, pts, radii))
        room = min(full - first[k], max(gap, 0.0) - keep - short)
        if not (far[k] >= eps and room >= 0.5):
            continue
        left[k] = room
        for f in range(f_count):
            steps[0, f] = room * shares[f]
        way_x, way_y = vx[k : k + 1], vy[k : k + 1]
        row = block_moves(a, base, (mids[k, 0], mids[k, 1]), way_x, way_y, steps, radius, *rules)
        for f in range(f_count):
            good[k, f] = row[0, f]
    return good, left


__all__ = ["second_legs", "waypoint_scores"]
