"""Vectorised geometry kernels of the game: many candidate positions of one unit's block at once.

A unit moves as a block by translation, so its candidate end positions differ only by the anchor:
the kernels take the block's model centres at each candidate, ``(C, n, 2)``, and answer for every
candidate in one NumPy pass what :meth:`GameState.placement_ok` asks of one (on the table, terrain
entered, left or crossed, gaps to the other units). Each element is computed with the same
floating-point operations as the one-candidate functions of :mod:`grimdice.engine.board`
(``segments_cross``, ``Table.pieces_at``, ``base_distances``), so a game is the same whichever path
answers.
"""

from __future__ import annotations

import numpy as np

from grimdice.engine.board import Table, segments_cross


def blocks(base: np.ndarray, anchors: np.ndarray) -> np.ndarray:
    """``(C, n, 2)``: the block ``base`` (model offsets, already flipped) at each of ``anchors``."""
    return base[None, :, :] + anchors[:, None, :]


def blocks_cross(table: Table, a: np.ndarray, bs: np.ndarray, trait: str) -> np.ndarray:
    """``(C,)``: whether moving the models straight from ``a`` (``(n, 2)``) to ``bs[c]`` enters,
    leaves or crosses a piece with ``trait`` (a piece whose bounds the move misses is skipped, as
    ``GameState.crosses`` does)."""
    c, n = bs.shape[0], bs.shape[1]
    pieces = [i for i, t in enumerate(table.terrain) if t.has(trait)]
    out = np.zeros(c, dtype=bool)
    if not pieces or c == 0:
        return out
    lo = np.minimum(a.min(axis=0)[None, :], bs.min(axis=1))  # (C, 2)
    hi = np.maximum(a.max(axis=0)[None, :], bs.max(axis=1))
    box = np.array([table.terrain[i].bounds for i in pieces])  # (k, 4)
    near = np.asarray(
        ~(
            (box[None, :, 2] < lo[:, None, 0])
            | (box[None, :, 0] > hi[:, None, 0])
            | (box[None, :, 3] < lo[:, None, 1])
            | (box[None, :, 1] > hi[:, None, 1])
        )
    )  # (C, k)
    if not near.any():
        return out
    edges, owner = table.edges_with(trait)
    col = {p: j for j, p in enumerate(pieces)}
    starts = np.broadcast_to(a[None, :, :], bs.shape).reshape(c * n, 2)
    cross = np.asarray(segments_cross(starts, bs.reshape(c * n, 2), edges).reshape(c, n, -1).any(axis=1))
    hit = np.zeros((c, len(pieces)), dtype=bool)
    for j, p in enumerate(owner):  # crossings per piece
        hit[:, col[int(p)]] |= cross[:, j]
    inside_a = np.asarray(table.pieces_at(a, trait)[:, pieces].any(axis=0))  # (k,)
    inside_b = table.pieces_at(bs.reshape(c * n, 2), trait)[:, pieces].reshape(c, n, len(pieces)).any(axis=1)
    return np.asarray((near & (hit | inside_a[None, :] | inside_b)).any(axis=1))


def blocks_gaps(
    bs: np.ndarray, radius: float, pts: np.ndarray, radii: np.ndarray, starts: np.ndarray
) -> np.ndarray:
    """``(C, K)``: the closest base-to-base gap from the block at each candidate to each of ``K``
    other units (their models ``pts`` with ``radii``, unit ``k``'s block starting at ``starts[k]``)."""
    d = np.linalg.norm(bs[:, :, None, :] - pts[None, None, :, :], axis=3)
    d = np.maximum(d - radius - radii[None, None, :], 0.0).min(axis=1)  # (C, M)
    return np.minimum.reduceat(d, starts, axis=1)


__all__ = ["blocks", "blocks_cross", "blocks_gaps"]
