"""Vectorised kernels over many candidate positions of one group of bases at once.

A unit moves as a block by translation, so its candidate end positions differ only by the anchor:
the kernels take the block's model centres at each candidate, ``(C, n, 2)``, and answer for every
candidate in one NumPy pass: terrain entered, left or crossed, gaps to other models, sight. Each
element is computed with the same floating-point operations as the one-candidate functions
(:func:`~grimdice.engine.table.terrain.segments_cross`, :meth:`Table.pieces_at`,
:func:`~grimdice.engine.table.bases.base_distances`), so a game is the same whichever path answers.
"""

from __future__ import annotations

import numpy as np

from grimdice.engine.table import kernels, path_kernels
from grimdice.engine.table.sweeps import pairs_see, sweeps_touch_pieces
from grimdice.engine.table.terrain import Table

EPS = 1e-6  # a game's tolerance on distances


def blocks(base: np.ndarray, anchors: np.ndarray) -> np.ndarray:
    """``(C, n, 2)``: the block ``base`` (model offsets, already flipped) at each of ``anchors``."""
    return base[None, :, :] + anchors[:, None, :]


def blocks_cross(table: Table, a: np.ndarray, bs: np.ndarray, trait: str, radius: float) -> np.ndarray:
    """``(C,)``: whether moving the bases (of ``radius``) straight from ``a`` (``(n, 2)``) to
    ``bs[c]`` touches a piece with ``trait`` on the way (:func:`blocks_touch` reduced over those
    pieces, in one compiled pass: ``path_kernels.groups_touch``)."""
    if not table.has_any(trait) or bs.shape[0] == 0:  # no such piece: nothing to touch
        return np.zeros(bs.shape[0], dtype=bool)
    qa, qb, box, _h, _m = table.polygons()
    starts = np.repeat(a[None, :, :], bs.shape[0], axis=0)  # the same start for every candidate
    keep = table.having(trait)
    return np.asarray(path_kernels.groups_touch(starts, bs, float(radius), (qa, qb, box), keep))


def block_crosses(table: Table, a: np.ndarray, b: np.ndarray, trait: str, radius: float) -> bool:
    """:func:`blocks_cross` for one end ``b`` (``(n, 2)``)."""
    if not table.has_any(trait) or not len(b):
        return False
    qa, qb, box, _h, _m = table.polygons()
    keep = table.having(trait)
    return bool(path_kernels.groups_touch(a[None], b[None], float(radius), (qa, qb, box), keep)[0])


def blocks_touch(table: Table, a: np.ndarray, bs: np.ndarray, keep: np.ndarray, radius: float) -> np.ndarray:
    """``(C, k)``: for every piece that ``keep`` marks, whether moving the round bases of
    ``radius`` straight from ``a`` (``(n, 2)``) to ``bs[c]`` puts any part of a base over it
    anywhere on the way: some model's path comes within ``radius`` of one of the piece's edges
    (crosses one, ends within ``radius`` of one, or passes within ``radius`` of a corner) or starts
    or ends inside it
    (``Table.inside``): the capsule each base sweeps meets the polygon. All pieces and candidates
    in one compiled pass (``kernels.paths_touch``); each path is tested only against the pieces
    whose bounds, widened by ``radius``, meet the box around its candidate's paths."""
    qa, qb, box, _h, _m = table.polygons()
    if bs.shape[0] == 0 or not keep.any():
        return np.zeros((bs.shape[0], len(box)), dtype=bool)
    starts = np.repeat(a[None, :, :], bs.shape[0], axis=0)  # the same start for every candidate
    return np.asarray(kernels.paths_touch(starts, bs, keep, radius, (qa, qb, box)))


def blocks_gaps(
    bs: np.ndarray, radius: float, pts: np.ndarray, radii: np.ndarray, starts: np.ndarray
) -> np.ndarray:
    """``(C, K)``: the closest base-to-base gap from the block at each candidate to each of ``K``
    other units (their models ``pts`` with ``radii``, unit ``k``'s block starting at ``starts[k]``):
    :func:`pair_distances` reduced, in one compiled pass (``path_kernels.blocks_gaps``)."""
    b, r = np.asarray(pts, dtype=np.float64), np.asarray(radii, dtype=np.float64)
    at = np.asarray(starts, dtype=np.int64)
    return np.asarray(path_kernels.blocks_gaps(np.asarray(bs, dtype=np.float64), float(radius), b, r, at))


def pair_distances(bs: np.ndarray, radius: float, pts: np.ndarray, radii: np.ndarray) -> np.ndarray:
    """``(C, n, M)``: closest base-to-base distances from each model of the block at each candidate
    to each of ``pts`` (``base_distances``, element by element)."""
    dx = bs[:, :, None, 0] - pts[None, None, :, 0]
    dy = bs[:, :, None, 1] - pts[None, None, :, 1]
    d = np.sqrt(dx * dx + dy * dy)  # np.linalg.norm's arithmetic: sqrt of the sum of the two squares
    return np.asarray(np.maximum(d - radius - radii[None, None, :], 0.0))


def sights(
    table: Table,
    bs: np.ndarray,
    pts: np.ndarray,
    d: np.ndarray,
    reach: float,
    sizes: list[int],
    radius: float,
    radii: np.ndarray,
) -> list[list[tuple[int, float]]]:
    """For each candidate ``c`` and each target unit ``k`` (its models the next ``sizes[k]`` of
    ``pts``, of ``radii``): (models of the block (bases of ``radius``) that see a model of ``k``
    within ``reach``, from and to any part of the bases (``sweeps.pairs_see``), the farthest such
    model's distance), as a shooting reads them (``GameState.firing_sight``); ``d`` from
    :func:`pair_distances`."""
    near = d <= reach + EPS
    cc, ii, jj = np.nonzero(near)
    seen = np.full(d.shape, np.inf)
    if len(cc):
        keep = pairs_see(table, bs[cc, ii], radius, pts[jj], radii[jj])
        seen[cc[keep], ii[keep], jj[keep]] = d[cc[keep], ii[keep], jj[keep]]
    return sight_counts(seen, sizes)


def sight_counts(seen: np.ndarray, sizes: list[int]) -> list[list[tuple[int, float]]]:
    """:func:`sights`' answer from ``seen`` ``(C, n, M)``: each pair's distance where the model sees
    the other within reach, ``inf`` elsewhere."""
    out: list[list[tuple[int, float]]] = [[] for _ in range(len(seen))]
    start = 0
    for size in sizes:
        best = seen[:, :, start : start + size].min(axis=2)  # (C, n)
        ok = np.isfinite(best)
        start += size
        count = ok.sum(axis=1)
        far = np.where(ok, best, -np.inf).max(axis=1)  # the farthest model that sees (max is exact)
        for c, (k, f) in enumerate(zip(count.tolist(), far.tolist(), strict=True)):
            out[c].append((k, f if k else 0.0))
    return out


def blocks_in_cover(table: Table, bs: np.ndarray) -> np.ndarray:
    """``(C,)``: whether most models of the block at each candidate stand inside a cover piece."""
    c, n = bs.shape[0], bs.shape[1]
    inside = table.pieces_at(bs.reshape(c * n, 2), "cover").any(axis=1).reshape(c, n)
    return np.asarray(inside.mean(axis=1) > 0.5)


def models_through(table: Table, a: np.ndarray, bs: np.ndarray, radius: float) -> list[int]:
    """For each candidate ``c``: how many bases of ``radius`` moving straight from ``a`` (``(n, 2)``)
    to ``bs[c]`` touch a dangerous piece on the way (start, end or pass over it)."""
    c, n = bs.shape[0], bs.shape[1]
    starts = np.broadcast_to(a[None, :, :], bs.shape).reshape(c * n, 2)
    hit = sweeps_touch_pieces(table, starts, bs.reshape(c * n, 2), radius, table.having("dangerous"))
    return [int(k) for k in hit.any(axis=1).reshape(c, n).sum(axis=1)]


__all__ = [
    "EPS",
    "block_crosses",
    "blocks",
    "blocks_cross",
    "blocks_gaps",
    "blocks_in_cover",
    "blocks_touch",
    "models_through",
    "pair_distances",
    "sight_counts",
    "sights",
]
