"""A lattice of 1" cells over a table, game-agnostic: where a model may stand on each cell (its
standing heights), how high each cell blocks sight, and straight lines of sight in three
dimensions over it.

A cell ``(x, y)`` is the square inch ``[x, x+1) x [y, y+1)`` of the table; its centre is
``(x + 0.5, y + 0.5)``. Terrain pieces (:class:`~grimdice.engine.table.terrain.Terrain`: shapely
polygons with heights) are laid on the lattice by their cells' centres (:func:`cells_of`).

* :attr:`Lattice.levels` — per cell, the heights (whole inches) a model may stand at: ``(0,)`` on
  open ground, ``(2,)`` on a 2" crate, ``(0, 4)`` inside a building with a 4" roof, ``()`` in a
  wall;
* :attr:`Lattice.top` — per cell, the height up to which it blocks sight (0 on open ground);
* :meth:`Lattice.clear` — whether the straight line between two points in the air passes above
  every cell it crosses (its end cells excluded), with :func:`grimdice.engine.grid.clear_line`'s exact
  cell order: a pass exactly through a corner is blocked only when both cells pinching it block.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field

import numpy as np

from grimdice.engine.grid import clear_line
from grimdice.engine.table.terrain import Terrain

Cell = tuple[int, int]
Point3 = tuple[float, float, float]
EIGHT: tuple[Cell, ...] = ((1, 0), (-1, 0), (0, 1), (0, -1), (1, 1), (1, -1), (-1, 1), (-1, -1))


def cells_of(piece: Terrain, width: int, height: int) -> list[Cell]:
    """The cells of a ``width`` x ``height`` lattice whose centres lie inside ``piece``."""
    x0, y0, x1, y1 = piece.bounds
    xs = range(max(0, int(np.floor(x0))), min(width, int(np.ceil(x1))))
    ys = range(max(0, int(np.floor(y0))), min(height, int(np.ceil(y1))))
    cells = [(x, y) for y in ys for x in xs]
    if not cells:
        return []
    inside = piece.contains(np.array([(x + 0.5, y + 0.5) for x, y in cells]))
    return [c for c, ok in zip(cells, inside, strict=True) if ok]


@dataclass(frozen=True, eq=False)
class Lattice:
    """1" cells over a ``width`` x ``height`` inch table (see the module text)."""

    width: int
    height: int
    levels: dict[Cell, tuple[int, ...]]
    top: np.ndarray  # (height, width) float: sight blocked below this height
    _rows: tuple[tuple[float, ...], ...] = field(init=False, repr=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "_rows", tuple(tuple(float(v) for v in row) for row in self.top))

    def inside(self, c: Cell) -> bool:
        return 0 <= c[0] < self.width and 0 <= c[1] < self.height

    def levels_at(self, c: Cell) -> tuple[int, ...]:
        """The heights a model may stand at on cell ``c`` (none off the table)."""
        return self.levels.get(c, (0,)) if self.inside(c) else ()

    def neighbours(self, c: Cell) -> Iterator[Cell]:
        """The eight cells around ``c`` on the table."""
        for dx, dy in EIGHT:
            n = (c[0] + dx, c[1] + dy)
            if self.inside(n):
                yield n

    def blocks_at(self, c: Cell) -> float:
        return self._rows[c[1]][c[0]]

    def clear(self, a: Point3, b: Point3) -> bool:
        """Whether the straight line from ``a`` to ``b`` (points in the air above the centres of
        their cells) passes above every cell between them."""
        ca, cb = (int(a[0]), int(a[1])), (int(b[0]), int(b[1]))
        if ca == cb:
            return True
        ax, ay, bx, by = ca[0] + 0.5, ca[1] + 0.5, cb[0] + 0.5, cb[1] + 0.5
        dx, dy = bx - ax, by - ay
        norm = dx * dx + dy * dy

        rows, za, dz = self._rows, a[2], b[2] - a[2]

        def blocks(c: Cell) -> bool:
            t = ((c[0] + 0.5 - ax) * dx + (c[1] + 0.5 - ay) * dy) / norm
            return rows[c[1]][c[0]] > za + t * dz

        return clear_line(ca, cb, blocks)

    def clear_lines(self, starts: np.ndarray, ends: np.ndarray) -> np.ndarray:
        """:meth:`clear` from each row ``(x, y, z)`` of ``starts`` to the same row of ``ends``, all
        at once: the same cell walk (:func:`grimdice.engine.grid.walk`) and the same arithmetic."""
        top = self.top
        ca, cb = starts[:, :2].astype(np.int64), ends[:, :2].astype(np.int64)
        ax, ay = ca[:, 0] + 0.5, ca[:, 1] + 0.5
        dx, dy = (cb[:, 0] + 0.5) - ax, (cb[:, 1] + 0.5) - ay
        norm = dx * dx + dy * dy
        norm[norm == 0] = 1.0  # a line within one cell is clear and walks no cell
        za = starts[:, 2].astype(float)
        dz = ends[:, 2] - za
        nx, ny = np.abs(cb[:, 0] - ca[:, 0]), np.abs(cb[:, 1] - ca[:, 1])
        sx, sy = np.where(cb[:, 0] > ca[:, 0], 1, -1), np.where(cb[:, 1] > ca[:, 1], 1, -1)
        x, y = ca[:, 0].copy(), ca[:, 1].copy()
        ix, iy = np.zeros(len(ca), np.int64), np.zeros(len(ca), np.int64)
        ok = np.ones(len(ca), bool)

        def blocks(px: np.ndarray, py: np.ndarray, k: np.ndarray) -> np.ndarray:
            t = ((px + 0.5 - ax[k]) * dx[k] + (py + 0.5 - ay[k]) * dy[k]) / norm[k]
            return top[py, px] > za[k] + t * dz[k]

        live = np.flatnonzero((nx > 0) | (ny > 0))
        while len(live):
            side = (1 + 2 * ix[live]) * ny[live] - (1 + 2 * iy[live]) * nx[live]
            corner = live[side == 0]
            if len(corner):  # a pass through a corner: blocked when both pinching cells block
                px, py = x[corner] + sx[corner], y[corner] + sy[corner]
                both = blocks(px, y[corner], corner) & blocks(x[corner], py, corner)
                ok[corner[both]] = False
            across, down = live[side <= 0], live[side >= 0]
            x[across] += sx[across]
            ix[across] += 1
            y[down] += sy[down]
            iy[down] += 1
            inner = live[(x[live] != cb[live, 0]) | (y[live] != cb[live, 1])]
            ok[inner[blocks(x[inner], y[inner], inner)]] = False
            live = live[ok[live] & ((ix[live] < nx[live]) | (iy[live] < ny[live]))]
        return ok


def breadth_first(
    starts: Iterable[tuple[int, ...]], nexts: Callable[[tuple[int, ...]], Iterable[tuple[int, ...]]]
) -> dict[tuple[int, ...], int]:
    """Steps from the nearest of ``starts`` to every position ``nexts`` reaches."""
    dist = {p: 0 for p in starts}
    todo = deque(dist)
    while todo:
        p = todo.popleft()
        for n in nexts(p):
            if n not in dist:
                dist[n] = dist[p] + 1
                todo.append(n)
    return dist


__all__ = ["EIGHT", "Cell", "Lattice", "Point3", "breadth_first", "cells_of"]
