"""Straight lines over the table: line of sight through terrain and moves through terrain pieces,
many lines at once (NumPy; the sight test in a compiled kernel, ``kernels.py``)."""

from __future__ import annotations

import numpy as np

from grimdice.engine.table import kernels
from grimdice.engine.table.terrain import Table, segments_cross


def sight_blocked(table: Table, starts: np.ndarray, ends: np.ndarray) -> np.ndarray:
    """``(n,)``: whether the line from ``starts[i]`` to ``ends[i]`` passes through a piece that
    blocks sight ("if it does not pass through any solid obstacle then the model has line of
    sight"). A line that starts or ends inside a piece sees out of / into it: only crossing a
    piece's boundary elsewhere blocks. Models never block sight here (the texts let a model
    ignore its own unit; blocking by other units is the game's choice)."""
    s = np.atleast_2d(np.asarray(starts, dtype=np.float64))
    e = np.atleast_2d(np.asarray(ends, dtype=np.float64))
    if len(table.edges_with("blocks_sight")[0]) == 0 or len(s) == 0:
        return np.zeros(len(s), dtype=bool)
    return np.asarray(kernels.lines_blocked(s, e, sight_terrain(table)))


def sight_terrain(table: Table) -> kernels.Sight:
    """The arrays the sight kernels read (``kernels.lines_blocked``): the edges of the pieces that
    block sight, where each piece's edges start among them, which piece each run is, and every
    piece's padded polygon and bounds."""
    edges, _ = table.edges_with("blocks_sight")
    pieces, first = table.edge_runs("blocks_sight")
    qa, qb, box, _h, _m = table.polygons()
    return edges, first, pieces, qa, qb, box


def path_blocked(table: Table, starts: np.ndarray, ends: np.ndarray, trait: str) -> np.ndarray:
    """``(n,)``: whether a straight move enters, leaves or crosses a piece with ``trait``
    (e.g. ``"impassable"``, ``"difficult"``, ``"dangerous"``)."""
    s, e = np.atleast_2d(starts), np.atleast_2d(ends)
    edges, _ = table.edges_with(trait)
    out = np.zeros(len(s), dtype=bool)
    if len(edges):
        out |= segments_cross(s, e, edges).any(axis=1)
    inside = np.asarray(table.pieces_at(np.concatenate([s, e]), trait).any(axis=1))
    return out | inside[: len(s)] | inside[len(s) :]
