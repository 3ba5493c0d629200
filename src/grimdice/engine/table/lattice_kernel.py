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


@njit(cache=True, inline="always")
def _clear(top: np.ndarray, sx: float, sy: float, sz: float, ex: float, ey: float, ez: float) -> bool:
    """Whether the line from ``(sx, sy, sz)`` to ``(ex, ey, ez)`` passes above every cell between
    its end cells (see :func:`clear_lines`)."""
    cax, cay = int(sx), int(sy)
    cbx, cby = int(ex), int(ey)
    ax, ay = cax + 0.5, cay + 0.5
    dx, dy = (cbx + 0.5) - ax, (cby + 0.5) - ay
    norm = dx * dx + dy * dy
    if norm == 0:
        norm = 1.0
    za = float(sz)
    dz = ez - za
    nx, ny = abs(cbx - cax), abs(cby - cay)
    sgx = 1 if cbx > cax else -1
    sgy = 1 if cby > cay else -1
    x, y, ix, iy = cax, cay, 0, 0
    while ix < nx or iy < ny:
        side = (1 + 2 * ix) * ny - (1 + 2 * iy) * nx
        if side == 0 and (
            _blocks(top, x + sgx, y, ax, ay, dx, dy, norm, za, dz)
            and _blocks(top, x, y + sgy, ax, ay, dx, dy, norm, za, dz)
        ):
            return False
        if side <= 0:
            x += sgx
            ix += 1
        if side >= 0:
            y += sgy
            iy += 1
        if (x != cbx or y != cby) and _blocks(top, x, y, ax, ay, dx, dy, norm, za, dz):
            return False
    return True


@njit(cache=True)
def clear_lines(starts: np.ndarray, ends: np.ndarray, top: np.ndarray) -> np.ndarray:
    """:meth:`.lattice.Lattice.clear_lines` over the heights ``top`` (``Lattice.top``): whether
    each line from ``starts[k]`` to ``ends[k]`` (rows ``(x, y, z)``) passes above every cell
    between its end cells (a pass through a corner blocked when both pinching cells block)."""
    n = starts.shape[0]
    ok = np.ones(n, np.bool_)
    for k in range(n):
        ok[k] = _clear(top, starts[k, 0], starts[k, 1], starts[k, 2], ends[k, 0], ends[k, 1], ends[k, 2])
    return ok


@njit(cache=True)
def clear_bits(
    top: np.ndarray, sx: float, sy: float, sz: float, ex: float, ey: float, z0: float, z1: float, z2: float
) -> int:
    """The lines of :func:`clear_lines` from one start to three ends over one point ``(ex, ey)``
    at heights ``z0``, ``z1``, ``z2``, as bits (bit k: the line to height ``zk`` is clear): one
    pair of positions without arrays."""
    bits = 0
    if _clear(top, sx, sy, sz, ex, ey, z0):
        bits |= 1
    if _clear(top, sx, sy, sz, ex, ey, z1):
        bits |= 2
    if _clear(top, sx, sy, sz, ex, ey, z2):
        bits |= 4
    return bits


__all__ = ["clear_bits", "clear_lines"]
