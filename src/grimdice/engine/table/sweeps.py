"""Whole bases on the table: the capsule a round base sweeps as it moves, sight from and to any part
of two bases, and cover from the terrain between or around a target.

A round base of radius ``r`` moving straight from ``a`` to ``b`` covers the capsule
``LineString([a, b]).buffer(r)``: it meets another base of radius ``s`` centred at ``p`` exactly when
the distance from ``p`` to the segment ``ab`` is under ``r + s``, and a terrain polygon exactly when
the segment comes within ``r`` of one of its edges or ends inside it. The kernels below answer
these questions for many moves at once in NumPy (measured faster than shapely's vectorised
predicates for the hundreds of candidates a move search tries, and far faster than buffering);
:func:`capsule` builds the shapely shape itself, which checks and tests use as the reference.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from grimdice.engine.table import kernels
from grimdice.engine.table.lines import sight_terrain
from grimdice.engine.table.terrain import Table, crossing

#: how far bases may overlap and still count as touching (rounding of logged positions to 0.001")
CONTACT_SLACK = 0.002
#: where on its radius a base's side points for sight are (just inside the rim)
INSIDE_RIM = 0.95
#: a line passes through a screening base when it comes closer to its centre than its radius less this
BASE_EPS = 1e-6
NO_SCREENS = (np.zeros((0, 2)), np.zeros(0), np.zeros(0, dtype=np.int64))


def point_segment_distances(p: np.ndarray, a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Distances from points ``p`` to segments ``a``-``b`` (all broadcastable ``(..., 2)``)."""
    return _point_segment(p[..., 0], p[..., 1], a[..., 0], a[..., 1], b[..., 0], b[..., 1])


def _point_segment(
    px: np.ndarray, py: np.ndarray, ax: np.ndarray, ay: np.ndarray, bx: np.ndarray, by: np.ndarray
) -> np.ndarray:
    """:func:`point_segment_distances` on coordinate arrays (no reductions over a last axis of 2)."""
    return np.asarray(np.sqrt(_square_point_segment(px, py, ax, ay, bx, by)))


def _square_point_segment(
    px: np.ndarray, py: np.ndarray, ax: np.ndarray, ay: np.ndarray, bx: np.ndarray, by: np.ndarray
) -> np.ndarray:
    """The squared distances of :func:`_point_segment`."""
    dx, dy = bx - ax, by - ay
    wx, wy = px - ax, py - ay
    ll = dx * dx + dy * dy
    num = wx * dx + wy * dy
    shape = np.broadcast_shapes(np.shape(ll), np.shape(num))
    t = np.divide(num, ll, out=np.zeros(shape), where=np.broadcast_to(ll > 0, shape))
    np.clip(t, 0.0, 1.0, out=t)
    ex, ey = wx - t * dx, wy - t * dy
    return np.asarray(ex * ex + ey * ey)


def segment_distances(a: np.ndarray, b: np.ndarray, c: np.ndarray, d: np.ndarray) -> np.ndarray:
    """Closest distances between segments ``a``-``b`` and ``c``-``d`` (broadcastable ``(..., 2)``):
    0 where they cross, else the least of the four end-to-segment distances."""
    ax, ay, bx, by = a[..., 0], a[..., 1], b[..., 0], b[..., 1]
    cx, cy, dx, dy = c[..., 0], c[..., 1], d[..., 0], d[..., 1]
    cross = crossing(ax, ay, bx - ax, by - ay, cx, cy, dx - cx, dy - cy)
    near = np.minimum(
        np.minimum(_point_segment(ax, ay, cx, cy, dx, dy), _point_segment(bx, by, cx, cy, dx, dy)),
        np.minimum(_point_segment(cx, cy, ax, ay, bx, by), _point_segment(dx, dy, ax, ay, bx, by)),
    )
    return np.asarray(np.where(cross, 0.0, near))


def sweeps_meet_bases(
    starts: np.ndarray,
    ends: np.ndarray,
    radius: float | np.ndarray,
    pts: np.ndarray,
    radii: np.ndarray,
    slack: float = CONTACT_SLACK,
) -> np.ndarray:
    """``(..., m)``: whether the base of ``radius`` moving from ``starts`` to ``ends`` (``(..., 2)``)
    overlaps, somewhere on the way, the base of ``radii[j]`` at ``pts[j]`` (bases touching, or
    overlapping by less than ``slack``, do not count)."""
    s = np.asarray(starts, dtype=np.float64)[..., None, :]
    e = np.asarray(ends, dtype=np.float64)[..., None, :]
    p = np.asarray(pts, dtype=np.float64)
    d2 = _square_point_segment(p[:, 0], p[:, 1], s[..., 0], s[..., 1], e[..., 0], e[..., 1])
    reach = np.asarray(radius, dtype=np.float64)[..., None] + np.asarray(radii, dtype=np.float64) - slack
    reach = np.maximum(reach, 0.0)
    return np.asarray(d2 < reach * reach)


def sweeps_meet_any(
    starts: np.ndarray,
    ends: np.ndarray,
    radius: float,
    pts: np.ndarray,
    radii: np.ndarray,
    slack: float = CONTACT_SLACK,
) -> np.ndarray:
    """``(n,)``: whether the base moving from ``starts[i]`` to ``ends[i]`` (``(n, 2)``) overlaps one
    of the bases ``pts``/``radii`` on the way: :func:`sweeps_meet_bases` reduced over the bases, in
    one compiled pass (``path_kernels.sweeps_meet_any``)."""
    from grimdice.engine.table import path_kernels

    s, e = np.asarray(starts, dtype=np.float64), np.asarray(ends, dtype=np.float64)
    p, r = np.asarray(pts, dtype=np.float64), np.asarray(radii, dtype=np.float64)
    return np.asarray(path_kernels.sweeps_meet_any(s, e, float(radius), p, r, float(slack)))


def sweeps_touch_pieces(
    table: Table, starts: np.ndarray, ends: np.ndarray, radius: float, keep: np.ndarray | None = None
) -> np.ndarray:
    """``(n, k)``: whether the base of ``radius`` moving from ``starts[i]`` to ``ends[i]`` touches
    terrain piece ``j`` anywhere (any part of the base over any part of the piece; among the pieces
    ``keep`` marks): the move's segment comes within ``radius`` of an edge, or ends inside."""
    s, e = np.atleast_2d(starts).astype(np.float64), np.atleast_2d(ends).astype(np.float64)
    qa, qb, box, _h, _m = table.polygons()
    if not len(s) or not len(box):
        return np.zeros((len(s), len(box)), dtype=bool)
    from grimdice.engine.table import path_kernels

    keep = np.ones(len(box), dtype=bool) if keep is None else keep
    return np.asarray(path_kernels.sweeps_touch(s, e, float(radius), keep, (qa, qb, box)))


def sweeps_touch_any(
    table: Table, starts: np.ndarray, ends: np.ndarray, radius: float, keep: np.ndarray
) -> np.ndarray:
    """``(n,)``: :func:`sweeps_touch_pieces` reduced over the pieces ``keep`` marks, each path
    stopping at the first piece it touches (``path_kernels.groups_touch`` with one path per group)."""
    s, e = np.atleast_2d(starts).astype(np.float64), np.atleast_2d(ends).astype(np.float64)
    if not len(s) or not keep.any():
        return np.zeros(len(s), dtype=bool)
    from grimdice.engine.table import path_kernels

    qa, qb, box, _h, _m = table.polygons()
    return np.asarray(
        path_kernels.groups_touch(s[:, None, :], e[:, None, :], float(radius), (qa, qb, box), keep)
    )


def per_base(radius: float | np.ndarray, n: int) -> np.ndarray:
    """``(n,)``: one radius per base, from one radius for all or one per base (``np.broadcast_to``'s
    values without its cost on a few bases)."""
    r = np.asarray(radius, dtype=np.float64)
    if r.ndim == 0:
        return np.full(n, float(r))
    return r if r.shape == (n,) else np.broadcast_to(r, (n,))


def bases_in(table: Table, centres: np.ndarray, radius: float | np.ndarray, trait: str) -> np.ndarray:
    """``(n,)``: whether any part of the base at ``centres[i]`` stands over a piece with ``trait``."""
    c = np.atleast_2d(centres).astype(np.float64)
    if np.ndim(radius) == 0:  # one radius for all (the usual case)
        return sweeps_touch_any(table, c, c, float(radius), table.having(trait))
    r = per_base(radius, len(c))
    out = np.zeros(len(c), dtype=bool)
    for rr in np.unique(r):
        rows = r == rr
        out[rows] = sweeps_touch_any(table, c[rows], c[rows], float(rr), table.having(trait))
    return out


def capsule(start: tuple[float, float], end: tuple[float, float], radius: float) -> Any:
    """The shapely shape a round base of ``radius`` sweeps moving straight from ``start`` to ``end``."""
    import shapely

    if start == end:
        return shapely.Point(start).buffer(radius)
    return shapely.LineString([start, end]).buffer(radius)


def pair_lines(a: np.ndarray, ra: float, b: np.ndarray, rb: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``(P, 9, 2)`` starts and ends: for each pair of bases (``a[p]`` of radius ``ra``, ``b[p]`` of
    radius ``rb[p]``), the lines between the centre and the two side points of each base square to
    the line of centres (the ends of the widest chord seen from the other base), taken
    :data:`INSIDE_RIM` of the radius out (a line from a base's very edge only grazes an equal base in
    its way: it would see past every model in a file), the centre-to-centre line first
    (``kernels.pair_lines``)."""
    a, b = np.atleast_2d(a).astype(np.float64), np.atleast_2d(b).astype(np.float64)
    rbs = per_base(rb, len(a))
    lines = kernels.pair_lines(a, float(ra), b, rbs, INSIDE_RIM)
    return lines[:, :, :2], lines[:, :, 2:]


def pairs_see(
    table: Table,
    a: np.ndarray,
    ra: float,
    b: np.ndarray,
    rb: np.ndarray,
    screens: tuple[np.ndarray, np.ndarray, np.ndarray, int, int] | None = None,
) -> np.ndarray:
    """``(P,)``: whether base ``a[p]`` sees base ``b[p]`` from and to any part of the bases: the
    centre line, or for the pairs it leaves blocked one of the other eight of :func:`pair_lines`,
    open of sight-blocking terrain (:func:`~grimdice.engine.table.lines.sight_blocked`) and of the
    screening bases.
    ``screens``: (centres, radii, owning units, own unit, target unit) of the bases on the table,
    those of neither unit screening (none when not given); one compiled pass
    (``kernels.pairs_see``)."""
    a, b = np.atleast_2d(a).astype(np.float64), np.atleast_2d(b).astype(np.float64)
    rbs = per_base(rb, len(a))
    pts, radii, owner, own, target = screens if screens is not None else (*NO_SCREENS, -1, -1)
    sight = sight_terrain(table)
    ok = kernels.pairs_see(
        a, float(ra), b, rbs, INSIDE_RIM, sight, (pts, radii, owner), own, target, BASE_EPS
    )
    return np.asarray(ok)


def covered_models(table: Table, shooters: np.ndarray, targets: np.ndarray) -> np.ndarray:
    """``(m,)``: whether each target model is in cover from the shooting models (centres): it stands
    inside a cover piece, or the line from the shooters' centre to it crosses a cover piece that the
    shooters' centre is not in ("within or behind a piece of cover terrain"; a shooter's own piece
    gives the target nothing)."""
    t = np.atleast_2d(targets).astype(np.float64)
    centre = np.atleast_2d(shooters).astype(np.float64).mean(axis=0)
    return cover_lines(table, np.repeat(centre[None, :], len(t), axis=0), t)


def cover_lines(table: Table, starts: np.ndarray, ends: np.ndarray) -> np.ndarray:
    """``(n,)``: :func:`covered_models`' test for many lines at once: the end stands inside a cover
    piece, or the line crosses an edge of a cover piece its start is not inside (one compiled pass,
    ``kernels.lines_covered``)."""
    s = np.ascontiguousarray(np.atleast_2d(starts), dtype=np.float64)
    e = np.ascontiguousarray(np.atleast_2d(ends), dtype=np.float64)
    keep = table.having("cover")
    if not keep.any() or not len(e):
        return np.zeros(len(e), dtype=bool)
    qa, qb, box, _h, _m = table.polygons()
    return np.asarray(kernels.lines_covered(s, e, keep, (qa, qb, box)))


__all__ = [
    "CONTACT_SLACK",
    "INSIDE_RIM",
    "bases_in",
    "capsule",
    "cover_lines",
    "covered_models",
    "pair_lines",
    "pairs_see",
    "point_segment_distances",
    "segment_distances",
    "sweeps_meet_any",
    "sweeps_meet_bases",
    "sweeps_touch_pieces",
]
