"""Straight lines over the table: line of sight through terrain and moves through terrain pieces,
many lines at once (NumPy)."""

from __future__ import annotations

import numpy as np

from grimdice.engine.table.terrain import Table, segments_cross


def sight_blocked(table: Table, starts: np.ndarray, ends: np.ndarray) -> np.ndarray:
    """``(n,)``: whether the line from ``starts[i]`` to ``ends[i]`` passes through a piece that
    blocks sight ("if it does not pass through any solid obstacle then the model has line of
    sight"). A line that starts or ends inside a piece sees out of / into it: only crossing a
    piece's boundary elsewhere blocks. Models never block sight here (the texts let a model
    ignore its own unit; blocking by other units is the game's choice)."""
    s, e = np.atleast_2d(starts), np.atleast_2d(ends)
    out = np.zeros(len(s), dtype=bool)
    edges, _ = table.edges_with("blocks_sight")
    if len(edges) == 0:
        return out
    cross = segments_cross(s, e, edges)
    rows = cross.any(axis=1)  # a line that crosses no edge is not blocked
    if not rows.any():
        return out
    pieces, first = table.edge_runs("blocks_sight")
    hits = np.add.reduceat(cross[rows], first, axis=1, dtype=np.int64)  # crossings per (line, piece)
    keep = table.having("blocks_sight")
    inside = (table.pieces_at(s[rows], keep=keep) | table.pieces_at(e[rows], keep=keep))[:, pieces]
    out[rows] = (np.where(inside, hits >= 2, hits >= 1) & (hits > 0)).any(axis=1)
    return out


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
