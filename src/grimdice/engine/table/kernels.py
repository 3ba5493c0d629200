"""Compiled loops (Numba) for the table questions a game asks most: whole bases swept against terrain
and against other bases, lines through terrain and through bases.

Each kernel answers exactly what the NumPy function it stands for answers, element by element with
the same floating-point operations in the same order (no fast-math), so a game is the same whichever
computes it; it only skips the temporary arrays and the per-call overhead that dominate on the few
dozen elements a move or a line of sight has. The NumPy function each one mirrors is named in its
text, and ``tests/table/test_kernels.py`` checks them equal on random tables.

Numba compiles each kernel on first use and keeps the machine code on disk (``cache=True``), so only
the first game on a machine pays the compilation. Only the games import this module: the
calculators never load Numba.
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit

#: the terrain's tolerance (``terrain.EPS``)
TERRAIN_EPS = 1e-9


@njit(cache=True, inline="always")
def _crossing(px: float, py: float, rx: float, ry: float, qx: float, qy: float, sx: float, sy: float) -> bool:
    """``terrain.crossing`` for one segment and one edge."""
    denom = rx * sy - ry * sx
    if not abs(denom) > TERRAIN_EPS:
        return False
    qpx, qpy = qx - px, qy - py
    t = (qpx * sy - qpy * sx) / denom
    u = (qpx * ry - qpy * rx) / denom
    return t > TERRAIN_EPS and t < 1 - TERRAIN_EPS and u >= -TERRAIN_EPS and u <= 1 + TERRAIN_EPS


@njit(cache=True, inline="always")
def _square_point_segment(px: float, py: float, ax: float, ay: float, bx: float, by: float) -> float:
    """``sweeps._square_point_segment`` for one point and one segment."""
    dx, dy = bx - ax, by - ay
    wx, wy = px - ax, py - ay
    ll = dx * dx + dy * dy
    num = wx * dx + wy * dy
    t = num / ll if ll > 0 else 0.0
    t = min(max(t, 0.0), 1.0)
    ex, ey = wx - t * dx, wy - t * dy
    return ex * ex + ey * ey


@njit(cache=True)
def _inside(qa: np.ndarray, qb: np.ndarray, box: np.ndarray, j: int, x: float, y: float) -> bool:
    """``Table.pieces_at`` for one point and piece ``j`` of the padded polygons: the bounding box,
    then even-odd ray casting."""
    if not (x >= box[j, 0] and x <= box[j, 2] and y >= box[j, 1] and y <= box[j, 3]):
        return False
    odd = False
    for e in range(qa.shape[1]):
        ax, ay, bx, by = qa[j, e, 0], qa[j, e, 1], qb[j, e, 0], qb[j, e, 1]
        if (ay > y) != (by > y) and x < ax + (y - ay) * (bx - ax) / (by - ay):
            odd = not odd
    return odd


@njit(cache=True)
def blocks_touch(
    a: np.ndarray,
    bs: np.ndarray,
    keep: np.ndarray,
    radius: float,
    qa: np.ndarray,
    qb: np.ndarray,
    box: np.ndarray,
) -> np.ndarray:
    """``blocks.blocks_touch``: ``(C, k)``, whether the bases of ``radius`` moving from ``a`` to
    ``bs[c]`` touch piece ``j`` (the pieces ``keep`` marks, tested only where the boxes meet)."""
    c_count, n = bs.shape[0], bs.shape[1]
    k = qa.shape[0]
    out = np.zeros((c_count, k), dtype=np.bool_)
    r = max(radius - TERRAIN_EPS, 0.0)
    r2 = r * r
    amin_x, amin_y = np.inf, np.inf
    amax_x, amax_y = -np.inf, -np.inf
    for i in range(n):
        amin_x, amin_y = min(amin_x, a[i, 0]), min(amin_y, a[i, 1])
        amax_x, amax_y = max(amax_x, a[i, 0]), max(amax_y, a[i, 1])
    for c in range(c_count):
        bmin_x, bmin_y = np.inf, np.inf
        bmax_x, bmax_y = -np.inf, -np.inf
        for i in range(n):
            bmin_x, bmin_y = min(bmin_x, bs[c, i, 0]), min(bmin_y, bs[c, i, 1])
            bmax_x, bmax_y = max(bmax_x, bs[c, i, 0]), max(bmax_y, bs[c, i, 1])
        lo_x, lo_y = min(amin_x, bmin_x) - radius, min(amin_y, bmin_y) - radius
        hi_x, hi_y = max(amax_x, bmax_x) + radius, max(amax_y, bmax_y) + radius
        for j in range(k):
            if not keep[j]:
                continue
            if box[j, 2] < lo_x or box[j, 3] < lo_y or -box[j, 0] < -hi_x or -box[j, 1] < -hi_y:
                continue
            hit = False
            for i in range(n):
                sx, sy, ex, ey = a[i, 0], a[i, 1], bs[c, i, 0], bs[c, i, 1]
                for e in range(qa.shape[1]):
                    ax, ay, bx, by = qa[j, e, 0], qa[j, e, 1], qb[j, e, 0], qb[j, e, 1]
                    if (
                        _crossing(sx, sy, ex - sx, ey - sy, ax, ay, bx - ax, by - ay)
                        or _square_point_segment(sx, sy, ax, ay, bx, by) < r2
                        or _square_point_segment(ex, ey, ax, ay, bx, by) < r2
                        or _square_point_segment(ax, ay, sx, sy, ex, ey) < r2
                    ):
                        hit = True
                        break
                if hit or _inside(qa, qb, box, j, ex, ey) or _inside(qa, qb, box, j, sx, sy):
                    hit = True
                    break
            out[c, j] = hit
    return out


@njit(cache=True)
def bases_clear(
    a: np.ndarray,
    bs: np.ndarray,
    radius: float,
    pts: np.ndarray,
    radii: np.ndarray,
    limit: np.ndarray,
    sweep: np.ndarray,
    slack: float,
) -> np.ndarray:
    """``(C,)``: the block of bases of ``radius`` moved from ``a`` to ``bs[c]`` ends no closer than
    ``limit[j]`` to any base ``j`` (``blocks.blocks_within``), and on the way passes over none of the
    bases ``sweep`` marks (``sweeps.sweeps_meet_bases`` with ``slack``)."""
    c_count, n, m = bs.shape[0], bs.shape[1], pts.shape[0]
    out = np.ones(c_count, dtype=np.bool_)
    for c in range(c_count):
        ok = True
        for i in range(n):
            ex, ey = bs[c, i, 0], bs[c, i, 1]
            for j in range(m):
                dx, dy = ex - pts[j, 0], ey - pts[j, 1]
                if math.sqrt(dx * dx + dy * dy) - radius - radii[j] < limit[j]:
                    ok = False
                    break
            if not ok:
                break
        if ok:
            for i in range(n):
                sx, sy, ex, ey = a[i, 0], a[i, 1], bs[c, i, 0], bs[c, i, 1]
                for j in range(m):
                    if not sweep[j]:
                        continue
                    reach = max(radius + radii[j] - slack, 0.0)
                    if _square_point_segment(pts[j, 0], pts[j, 1], sx, sy, ex, ey) < reach * reach:
                        ok = False
                        break
                if not ok:
                    break
        out[c] = ok
    return out


@njit(cache=True)
def lines_blocked(
    s: np.ndarray,
    e: np.ndarray,
    edges: np.ndarray,
    first: np.ndarray,
    pieces: np.ndarray,
    qa: np.ndarray,
    qb: np.ndarray,
    box: np.ndarray,
) -> np.ndarray:
    """``lines.sight_blocked``: ``(n,)``, whether line ``i`` crosses the edges (``edges``, each
    piece's a run starting at ``first``; ``pieces``: which piece owns each run) of a piece once
    (twice when it starts or ends inside that piece)."""
    n, runs, total = s.shape[0], first.shape[0], edges.shape[0]
    out = np.zeros(n, dtype=np.bool_)
    for i in range(n):
        px, py = s[i, 0], s[i, 1]
        rx, ry = e[i, 0] - px, e[i, 1] - py
        for g in range(runs):
            stop = first[g + 1] if g + 1 < runs else total
            hits = 0
            for k in range(first[g], stop):
                qx, qy = edges[k, 0, 0], edges[k, 0, 1]
                if _crossing(px, py, rx, ry, qx, qy, edges[k, 1, 0] - qx, edges[k, 1, 1] - qy):
                    hits += 1
            if hits == 0:
                continue
            j = pieces[g]
            if hits >= 2 or not (
                _inside(qa, qb, box, j, px, py) or _inside(qa, qb, box, j, e[i, 0], e[i, 1])
            ):
                out[i] = True
                break
    return out


@njit(cache=True)
def lines_screened(
    s: np.ndarray, e: np.ndarray, pts: np.ndarray, radii: np.ndarray, eps: float
) -> np.ndarray:
    """``screening.screened``: ``(n,)``, whether the segment ``s[i]``-``e[i]`` comes closer to some
    base's centre ``pts[j]`` than its radius (less ``eps``)."""
    n, m = s.shape[0], pts.shape[0]
    out = np.zeros(n, dtype=np.bool_)
    for i in range(n):
        ax, ay = s[i, 0], s[i, 1]
        vx, vy = e[i, 0] - ax, e[i, 1] - ay
        vv = vx * vx + vy * vy
        for j in range(m):
            wx, wy = pts[j, 0] - ax, pts[j, 1] - ay
            f = (wx * vx + wy * vy) / vv if vv > eps * eps else 0.0
            f = min(max(f, 0.0), 1.0)
            if np.hypot(wx - f * vx, wy - f * vy) < radii[j] - eps:
                out[i] = True
                break
    return out


__all__ = ["bases_clear", "blocks_touch", "lines_blocked", "lines_screened"]
