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

from grimdice.engine.table.lines import sight_blocked
from grimdice.engine.table.terrain import Table, crossing, segments_cross

EPS = 1e-6  # a game's tolerance on distances


def blocks(base: np.ndarray, anchors: np.ndarray) -> np.ndarray:
    """``(C, n, 2)``: the block ``base`` (model offsets, already flipped) at each of ``anchors``."""
    return base[None, :, :] + anchors[:, None, :]


def blocks_cross(table: Table, a: np.ndarray, bs: np.ndarray, trait: str) -> np.ndarray:
    """``(C,)``: whether moving the models straight from ``a`` (``(n, 2)``) to ``bs[c]`` enters,
    leaves or crosses a piece with ``trait`` (a piece whose bounds the move misses is skipped, as
    ``GameState.crosses`` does)."""
    keep = table.having(trait)
    return np.asarray(blocks_touch(table, a, bs, keep)[:, keep].any(axis=1))


def blocks_touch(
    table: Table,
    a: np.ndarray,
    bs: np.ndarray,
    keep: np.ndarray,
    bounds: tuple[np.ndarray, np.ndarray] | None = None,
) -> np.ndarray:
    """``(C, k)``: for every piece that ``keep`` marks, whether moving the models straight from
    ``a`` (``(n, 2)``) to ``bs[c]`` enters, leaves or crosses it: the box around the move's paths
    meets the piece's bounds, and some path crosses one of its edges
    (``segments_cross``) or starts or ends inside it (``Table.pieces_at``). All pieces and
    candidates in one pass; each path is tested only against the edges of the pieces near its
    candidate (the same arithmetic element by element). ``bounds``: ``bs.min(axis=1)`` and
    ``bs.max(axis=1)`` when the caller has them."""
    c = bs.shape[0]
    qa, _qb, _box, _h, _m = table.polygons()
    outer, spans = table.outer()
    out = np.zeros((c, len(outer)), dtype=bool)
    if c == 0 or not keep.any():
        return out
    bmin, bmax = bounds if bounds is not None else (bs.min(axis=1), bs.max(axis=1))
    lo = np.minimum(a.min(axis=0)[None, :], bmin)  # (C, 2): the box around the move's paths
    hi = np.maximum(a.max(axis=0)[None, :], bmax)
    # (C, k): only a move whose box meets a piece's box can touch it
    near = keep[None, :] & ~(outer[None, :, :] < np.concatenate([lo, -hi], axis=1)[:, None, :]).any(axis=2)
    cc, pp = np.nonzero(near)
    if len(cc) == 0:
        return out
    # every model's path (start a[i], along r) of each near (candidate, piece) against the piece's edges
    ends = bs[cc]  # (P, n, 2)
    r = ends - a[None, :, :]
    q, s = qa[pp], spans[pp]  # (P, E, 2)
    hit = crossing(
        a[None, :, None, 0],
        a[None, :, None, 1],
        r[:, :, None, 0],
        r[:, :, None, 1],
        q[:, None, :, 0],
        q[:, None, :, 1],
        s[:, None, :, 0],
        s[:, None, :, 1],
    ).any(axis=(1, 2))
    # or some path starts or ends inside the piece
    paths = np.concatenate([ends, np.broadcast_to(a, ends.shape)], axis=1)  # (P, 2n, 2)
    out[cc, pp] = hit | table.inside(paths, pp).any(axis=1)
    return out


def blocks_gaps(
    bs: np.ndarray, radius: float, pts: np.ndarray, radii: np.ndarray, starts: np.ndarray
) -> np.ndarray:
    """``(C, K)``: the closest base-to-base gap from the block at each candidate to each of ``K``
    other units (their models ``pts`` with ``radii``, unit ``k``'s block starting at ``starts[k]``)."""
    return np.minimum.reduceat(pair_distances(bs, radius, pts, radii).min(axis=1), starts, axis=1)


def blocks_within(
    bs: np.ndarray, radius: float, pts: np.ndarray, radii: np.ndarray, limit: np.ndarray
) -> np.ndarray:
    """``(C,)``: whether the block at each candidate comes closer than ``limit[j]`` to some model
    ``j`` of ``pts`` (base to base, :func:`pair_distances`): a unit's least gap is under a limit
    when one of its model pairs is."""
    return np.asarray((pair_distances(bs, radius, pts, radii) < limit[None, None, :]).any(axis=(1, 2)))


def pair_distances(bs: np.ndarray, radius: float, pts: np.ndarray, radii: np.ndarray) -> np.ndarray:
    """``(C, n, M)``: closest base-to-base distances from each model of the block at each candidate
    to each of ``pts`` (``base_distances``, element by element)."""
    dx = bs[:, :, None, 0] - pts[None, None, :, 0]
    dy = bs[:, :, None, 1] - pts[None, None, :, 1]
    d = np.sqrt(dx * dx + dy * dy)  # np.linalg.norm's arithmetic: sqrt of the sum of the two squares
    return np.asarray(np.maximum(d - radius - radii[None, None, :], 0.0))


def sights(
    table: Table, bs: np.ndarray, pts: np.ndarray, d: np.ndarray, reach: float, sizes: list[int]
) -> list[list[tuple[int, float]]]:
    """For each candidate ``c`` and each target unit ``k`` (its models the next ``sizes[k]`` of
    ``pts``): (models of the block that see a model of ``k`` within ``reach``, the farthest such
    model's distance), as :meth:`GameState.sight` answers; ``d`` from :func:`pair_distances`."""
    near = d <= reach + EPS
    cc, ii, jj = np.nonzero(near)
    seen = np.full(d.shape, np.inf)
    if len(cc):
        keep = ~sight_blocked(table, bs[cc, ii], pts[jj])
        seen[cc[keep], ii[keep], jj[keep]] = d[cc[keep], ii[keep], jj[keep]]
    return sight_counts(seen, sizes)


def sight_counts(seen: np.ndarray, sizes: list[int]) -> list[list[tuple[int, float]]]:
    """:func:`sights`' answer from ``seen`` ``(C, n, M)``: each pair's distance where the model sees
    the other within reach, ``inf`` elsewhere (``screening.sight`` shares it)."""
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


def models_through(table: Table, a: np.ndarray, bs: np.ndarray) -> list[int]:
    """For each candidate ``c``: how many models moving straight from ``a`` (``(n, 2)``) to ``bs[c]``
    start, end or cross into a dangerous piece (:func:`.dangerous.models_through`, model by model the
    same tests)."""
    c, n = bs.shape[0], bs.shape[1]
    edges, _ = table.edges_with("dangerous")
    starts = np.broadcast_to(a[None, :, :], bs.shape).reshape(c * n, 2)
    ends = bs.reshape(c * n, 2)
    hit = segments_cross(starts, ends, edges).any(axis=1)
    hit |= table.pieces_at(starts, "dangerous").any(axis=1) | table.pieces_at(ends, "dangerous").any(axis=1)
    return [int(k) for k in hit.reshape(c, n).sum(axis=1)]


__all__ = [
    "EPS",
    "blocks",
    "blocks_cross",
    "blocks_gaps",
    "blocks_in_cover",
    "blocks_touch",
    "blocks_within",
    "models_through",
    "pair_distances",
    "sight_counts",
    "sights",
]
