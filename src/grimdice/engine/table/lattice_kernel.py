"""A compiled loop (Numba) for the lattice's lines of sight (:meth:`.lattice.Lattice.clear_lines`),
line by line with the same cell walk and the same floating-point operations in the same order (no
fast-math), so it answers exactly as the NumPy function does; it only skips the temporary arrays and
the per-step overhead of walking many lines together. ``tests/engine/test_lattice.py`` checks them
equal on random heights.

Numba compiles it on first use and keeps the machine code on disk (``cache=True``). Only the games
on a table of cells import this module.
"""

from __future__ import annotations

import numpy as np
from numba import njit


@njit(cache=True, inline="always")
def _blocks(
    top: np.ndarray,
    px: int,
    py: int,
    ax: float,
    ay: float,
    dx: float,
    dy: float,
    norm: float,
    za: float,
    dz: float,
) -> bool:
    """``Lattice.clear_lines``'s ``blocks`` for one cell of one line."""
    t = ((px + 0.5 - ax) * dx + (py + 0.5 - ay) * dy) / norm
    return top[py, px] > za + t * dz


@njit(cache=True)
def clear_lines(starts: np.ndarray, ends: np.ndarray, top: np.ndarray) -> np.ndarray:
    """:meth:`.lattice.Lattice.clear_lines` over the heights ``top`` (``Lattice.top``): whether
    each line from ``starts[k]`` to ``ends[k]`` (rows ``(x, y, z)``) passes above every cell
    between its end cells (a pass through a corner blocked when both pinching cells block)."""
    n = starts.shape[0]
    ok = np.ones(n, np.bool_)
    for k in range(n):
        cax, cay = int(starts[k, 0]), int(starts[k, 1])
        cbx, cby = int(ends[k, 0]), int(ends[k, 1])
        ax, ay = cax + 0.5, cay + 0.5
        dx, dy = (cbx + 0.5) - ax, (cby + 0.5) - ay
        norm = dx * dx + dy * dy
        if norm == 0:
            norm = 1.0
        za = float(starts[k, 2])
        dz = ends[k, 2] - za
        nx, ny = abs(cbx - cax), abs(cby - cay)
        sx = 1 if cbx > cax else -1
        sy = 1 if cby > cay else -1
        x, y, ix, iy = cax, cay, 0, 0
        while ix < nx or iy < ny:
            side = (1 + 2 * ix) * ny - (1 + 2 * iy) * nx
            if side == 0 and (
                _blocks(top, x + sx, y, ax, ay, dx, dy, norm, za, dz)
                and _blocks(top, x, y + sy, ax, ay, dx, dy, norm, za, dz)
            ):
                ok[k] = False
                break
            if side <= 0:
                x += sx
                ix += 1
            if side >= 0:
                y += sy
                iy += 1
            if (x != cbx or y != cby) and _blocks(top, x, y, ax, ay, dx, dy, norm, za, dz):
                ok[k] = False
                break
    return ok


__all__ = ["clear_lines"]
