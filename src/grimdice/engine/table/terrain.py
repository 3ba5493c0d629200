"""Terrain pieces and the table they stand on (inches, seen from above; the origin is a corner).

* :class:`Terrain` — a simple polygon with **traits** (``cover``, ``difficult``, ``dangerous``,
  ``impassable``, ``blocks_sight``) and a height for elevation, as the rule texts name them; its
  shapely polygon (:attr:`Terrain.polygon`) is made on first use.
* :class:`Table` — the playing surface and its terrain, checked on construction (every piece on the
  table, no two pieces overlapping), with padded NumPy arrays of every piece for the vectorised
  kernels and a shapely ``STRtree`` spatial index (:meth:`Table.index`) for single queries.

Shapely is imported only where a polygon or the index is asked for: the calculators, which never
build a table, do not load it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np

from grimdice.errors import ScenarioError

TRAITS = ("cover", "difficult", "dangerous", "impassable", "blocks_sight")
EPS = 1e-9


def _polygon(points: object, where: str) -> np.ndarray:
    try:
        arr = np.asarray(points, dtype=np.float64)
    except (TypeError, ValueError):
        arr = np.zeros((0,))
    if arr.ndim != 2 or arr.shape[1] != 2 or arr.shape[0] < 3 or not np.isfinite(arr).all():
        raise ScenarioError(where, "a terrain shape is a list of at least 3 [x, y] corners in inches")
    if arr.shape[0] > 64:
        raise ScenarioError(where, "a terrain shape has at most 64 corners")
    if abs(_area(arr)) < 1e-6:
        raise ScenarioError(where, "a terrain shape must enclose an area")
    return arr


def _area(poly: np.ndarray) -> float:
    x, y = poly[:, 0], poly[:, 1]
    nx, ny = np.concatenate((x[1:], x[:1])), np.concatenate((y[1:], y[:1]))  # np.roll(-1), cheaper
    return 0.5 * float(np.dot(x, ny) - np.dot(y, nx))


@dataclass(frozen=True, eq=False)
class Terrain:
    """A terrain piece: a simple polygon ``corners`` (inches) with rule traits and a height."""

    name: str
    corners: np.ndarray
    traits: frozenset[str] = frozenset()
    height: float = 0.0
    _bounds: tuple[float, float, float, float] = field(init=False, repr=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "corners", _polygon(self.corners, f"terrain {self.name!r}.shape"))
        bad = set(self.traits) - set(TRAITS)
        if bad:
            raise ScenarioError(
                f"terrain {self.name!r}.traits",
                f"unknown trait {sorted(bad)[0]!r}; allowed: {', '.join(TRAITS)}",
            )
        if not 0 <= self.height <= 48:
            raise ScenarioError(f"terrain {self.name!r}.height", "a height from 0 to 48 inches")
        object.__setattr__(self, "_bounds", corner_bounds(self.corners))

    @property
    def edges(self) -> np.ndarray:
        """``(k, 2, 2)``: each edge as (start, end) (read-only, computed on first use)."""
        got: np.ndarray | None = self.__dict__.get("_edge_array")
        if got is None:
            c = self.corners
            got = np.stack([c, np.concatenate((c[1:], c[:1]))], axis=1)  # each corner and the next
            got.flags.writeable = False
            object.__setattr__(self, "_edge_array", got)
        return got

    def has(self, trait: str) -> bool:
        return trait in self.traits

    @property
    def polygon(self) -> Any:
        """The piece as a prepared shapely polygon (made on first use)."""
        got = self.__dict__.get("_shape")
        if got is None:
            import shapely

            got = shapely.Polygon(self.corners)
            shapely.prepare(got)
            object.__setattr__(self, "_shape", got)
        return got

    def contains(self, points: np.ndarray) -> np.ndarray:
        """Whether each of ``points`` (``(n, 2)``) lies inside the polygon (even-odd rule); points
        outside the bounding box are rejected without the polygon test."""
        p = np.atleast_2d(np.asarray(points, dtype=np.float64))
        x0, y0, x1, y1 = self.bounds
        box = (p[:, 0] >= x0) & (p[:, 0] <= x1) & (p[:, 1] >= y0) & (p[:, 1] <= y1)
        out = np.zeros(len(p), dtype=bool)
        if box.any():
            out[box] = contains(self.corners, p[box])
        return out

    @property
    def bounds(self) -> tuple[float, float, float, float]:
        """(x0, y0, x1, y1), computed once."""
        return self._bounds


def corner_bounds(corners: np.ndarray) -> tuple[float, float, float, float]:
    """(x0, y0, x1, y1) of a piece's corners, as plain floats (a few corners: no NumPy reduction)."""
    xs, ys = corners[:, 0].tolist(), corners[:, 1].tolist()
    return (min(xs), min(ys), max(xs), max(ys))


def checked_piece(name: str, corners: np.ndarray, traits: frozenset[str], height: float) -> Terrain:
    """A :class:`Terrain` whose checks its maker has already made (``layout.generate_table``'s
    rectangles: four finite corners enclosing an area, known traits, a height within bounds): the
    same fields, ``corners`` a float array, without running the checks again."""
    piece: Terrain = object.__new__(Terrain)
    bounds = corner_bounds(corners)
    fields = {"name": name, "corners": corners, "traits": traits, "height": height, "_bounds": bounds}
    object.__setattr__(piece, "__dict__", fields)
    return piece


def contains(poly: np.ndarray, points: np.ndarray) -> np.ndarray:
    """Point-in-polygon for many points at once (ray casting, even-odd rule)."""
    p = np.atleast_2d(np.asarray(points, dtype=np.float64))
    a = poly[None, :, :]
    b = np.roll(poly, -1, axis=0)[None, :, :]
    px, py = p[:, None, 0], p[:, None, 1]
    ay, by = a[..., 1], b[..., 1]
    straddle = (ay > py) != (by > py)
    with np.errstate(divide="ignore", invalid="ignore"):
        xcross = a[..., 0] + (py - ay) * (b[..., 0] - a[..., 0]) / (by - ay)
    hits = straddle & (px < xcross)
    return np.asarray(hits.sum(axis=1) % 2 == 1)


def segments_cross(starts: np.ndarray, ends: np.ndarray, edges: np.ndarray) -> np.ndarray:
    """``(n, m)``: whether segment ``i`` (``starts[i]``-``ends[i]``) properly crosses edge ``j``."""
    p = np.asarray(starts, dtype=np.float64)[:, None, :]
    r = np.asarray(ends, dtype=np.float64)[:, None, :] - p
    q = edges[None, :, 0, :]
    s = edges[None, :, 1, :] - q
    return crossing(p[..., 0], p[..., 1], r[..., 0], r[..., 1], q[..., 0], q[..., 1], s[..., 0], s[..., 1])


def crossing(
    px: np.ndarray,
    py: np.ndarray,
    rx: np.ndarray,
    ry: np.ndarray,
    qx: np.ndarray,
    qy: np.ndarray,
    sx: np.ndarray,
    sy: np.ndarray,
) -> np.ndarray:
    """:func:`segments_cross`' test on broadcastable coordinate arrays: the segment from ``p`` along
    ``r`` properly crosses the edge from ``q`` along ``s`` (each element the same arithmetic,
    whatever the shapes, so callers may pair segments and edges as they like)."""
    denom = rx * sy - ry * sx
    qpx, qpy = qx - px, qy - py
    ok = np.abs(denom) > EPS  # elsewhere t and u are not computed (0: no crossing)
    t = np.divide(qpx * sy - qpy * sx, denom, out=np.zeros(ok.shape), where=ok)
    u = np.divide(qpx * ry - qpy * rx, denom, out=np.zeros(ok.shape), where=ok)
    return np.asarray(ok & (t > EPS) & (t < 1 - EPS) & (u >= -EPS) & (u <= 1 + EPS))


@dataclass(frozen=True, eq=False)
class Table:
    """The playing surface (``width`` x ``depth`` inches) and its terrain pieces."""

    width: float = 72.0
    depth: float = 48.0
    terrain: tuple[Terrain, ...] = ()
    _edges: dict[Any, Any] = field(default_factory=dict, repr=False)

    def __post_init__(self) -> None:
        if not (6 <= self.width <= 240 and 6 <= self.depth <= 240):
            raise ScenarioError("table", "a table is 6 to 240 inches wide and deep")
        if len(self.terrain) > 100:
            raise ScenarioError("table.terrain", "at most 100 terrain pieces")
        names = [t.name for t in self.terrain]
        if len(set(names)) != len(names):
            raise ScenarioError("table.terrain", "give each terrain piece a different name")
        for i, t in enumerate(self.terrain):
            x0, y0, x1, y1 = t.bounds
            if x0 < -EPS or y0 < -EPS or x1 > self.width + EPS or y1 > self.depth + EPS:
                raise ScenarioError(f"table.terrain.{i}.shape", f"{t.name!r} lies (partly) off the table")
        for i, a in enumerate(self.terrain):
            for j, b in enumerate(self.terrain[i + 1 :], start=i + 1):
                if overlap(a, b):
                    raise ScenarioError(f"table.terrain.{j}.shape", f"{b.name!r} overlaps {a.name!r}")

    def index(self) -> Any:
        """A shapely ``STRtree`` over the pieces' polygons (built once): the pieces near a shape."""
        if "_index" not in self._edges:
            import shapely

            self._edges["_index"] = shapely.STRtree([t.polygon for t in self.terrain])
        return self._edges["_index"]

    def touching(self, shape: Any, trait: str | None = None) -> list[int]:
        """The pieces (with ``trait``) that a shapely ``shape`` overlaps (more than along an edge:
        a base touching a piece from outside is not on it), found through :meth:`index`."""
        import shapely

        if not self.terrain:
            return []
        hits = self.index().query(shape, predicate="intersects")
        return sorted(
            int(j)
            for j in hits
            if (trait is None or self.terrain[j].has(trait))
            and shapely.intersection(shape, self.terrain[j].polygon).area > 1e-6
        )

    def edges_with(self, trait: str) -> tuple[np.ndarray, np.ndarray]:
        """(edges ``(m, 2, 2)``, owning piece index ``(m,)``) of the pieces with ``trait``."""
        if trait not in self._edges:
            parts = [(t.edges, i) for i, t in enumerate(self.terrain) if t.has(trait)]
            if parts:
                edges = np.concatenate([e for e, _ in parts])
                owner = np.concatenate([np.full(len(e), i) for e, i in parts])
            else:
                edges, owner = np.zeros((0, 2, 2)), np.zeros(0, dtype=int)
            self._edges[trait] = (edges, owner)
        return self._edges[trait]

    def edge_runs(self, trait: str) -> tuple[np.ndarray, np.ndarray]:
        """(the pieces with ``trait``, where each one's edges start in :meth:`edges_with`): a piece's
        edges are consecutive there, so per-piece sums are one ``reduceat``."""
        key = ("runs", trait)
        if key not in self._edges:
            _, owner = self.edges_with(trait)
            self._edges[key] = np.unique(owner, return_index=True)
        return self._edges[key]

    def spans_on_table(self, lo: np.ndarray, hi: np.ndarray, radius: float) -> np.ndarray:
        """``(C,)``: :meth:`on_table` of every base of radius ``radius`` whose centre lies between
        ``lo[c]`` and ``hi[c]`` (``(C, 2)``: the least and greatest coordinates of a group of
        centres): the same decisions, as ``x - r`` and ``x + r`` rise with ``x``."""
        inside = (lo - radius >= -EPS).all(axis=1)
        return np.asarray(
            inside & (hi + radius <= np.array([self.width + EPS, self.depth + EPS])).all(axis=1)
        )

    def on_table(self, centres: np.ndarray, radii: np.ndarray | float = 0.0) -> np.ndarray:
        c = np.atleast_2d(centres)
        r = np.asarray(radii, dtype=np.float64)  # one for all, or one per centre
        if r.ndim:
            r = np.broadcast_to(r, (len(c),))
        return np.asarray(
            (c[:, 0] - r >= -EPS)
            & (c[:, 1] - r >= -EPS)
            & (c[:, 0] + r <= self.width + EPS)
            & (c[:, 1] + r <= self.depth + EPS)
        )

    def polygons(self) -> tuple[np.ndarray, ...]:
        """(edge starts ``(k, n, 2)``, edge ends ``(k, n, 2)``, bounds ``(k, 4)``, heights ``(k,)``,
        trait masks ``(k, len(TRAITS))``): every piece's polygon padded to one length (the last
        corner repeated: a zero-length edge never straddles a ray nor crosses a segment), built once
        per table (read-only)."""
        if "_polygons" not in self._edges:
            k = len(self.terrain)
            n = max((len(t.corners) for t in self.terrain), default=1)
            a = np.zeros((k, n, 2))
            for i, t in enumerate(self.terrain):
                a[i, : len(t.corners)] = t.corners
                a[i, len(t.corners) :] = t.corners[-1]
            b = np.concatenate([a[:, 1:], a[:, :1]], axis=1)
            for i, t in enumerate(self.terrain):  # the closing edge of a padded polygon
                b[i, len(t.corners) - 1] = t.corners[0]
                b[i, len(t.corners) :] = t.corners[-1]
            box = np.array([t.bounds for t in self.terrain]).reshape(k, 4)
            heights = np.array([t.height for t in self.terrain], dtype=np.float64)
            masks = np.array([[tr in t.traits for tr in TRAITS] for t in self.terrain], dtype=bool)
            arrays = (a, b, box, heights, masks.reshape(k, len(TRAITS)))
            for arr in arrays:
                arr.flags.writeable = False
            self._edges["_polygons"] = arrays
        return self._edges["_polygons"]

    def having(self, *traits: str) -> np.ndarray:
        """``(k,)``: which pieces have any of ``traits`` (read-only, built once per set of traits)."""
        key = ("having", *traits)
        if key not in self._edges:
            masks = self.polygons()[4]
            cols = [TRAITS.index(t) for t in traits if t in TRAITS]
            keep = masks[:, cols].any(axis=1) if cols else np.zeros(len(masks), dtype=bool)
            keep.flags.writeable = False
            self._edges[key] = keep
        return self._edges[key]

    def has_any(self, trait: str) -> bool:
        """Whether some piece has ``trait`` (:meth:`having` not all False; kept per trait)."""
        key = ("any", trait)
        got: bool | None = self._edges.get(key)
        if got is None:
            got = self._edges[key] = bool(self.having(trait).any())
        return got

    def pieces_at(
        self, points: np.ndarray, trait: str | None = None, keep: np.ndarray | None = None
    ) -> np.ndarray:
        """``(n, k)``: whether point ``i`` is inside terrain piece ``j`` (with ``trait``, or among
        the pieces ``keep`` marks): the bounding-box test, then :func:`contains`' ray casting, for
        all pieces at once."""
        pts = np.atleast_2d(np.asarray(points, dtype=np.float64))
        _a, _b, box, _h, _masks = self.polygons()
        if trait is not None:
            keep = self.having(trait)
        if keep is not None and not keep.any():
            return np.zeros((len(pts), len(box)), dtype=bool)
        px, py = pts[:, 0, None], pts[:, 1, None]
        inbox = (px >= box[:, 0]) & (px <= box[:, 2]) & (py >= box[:, 1]) & (py <= box[:, 3])
        if keep is not None:
            inbox &= keep
        out = np.zeros(inbox.shape, dtype=bool)
        ii, jj = np.nonzero(inbox)
        if len(ii):
            out[ii, jj] = self._ray_cast(px[ii], py[ii], jj)
        return out

    def inside(self, points: np.ndarray, pieces: np.ndarray) -> np.ndarray:
        """``(P, n)``: whether each point of ``points[p]`` (``(P, n, 2)``) is inside the piece
        ``pieces[p]``: :meth:`pieces_at`'s test (the same arithmetic) for chosen (points, piece) pairs."""
        _a, _b, box, _h, _m = self.polygons()
        px, py = points[:, :, 0], points[:, :, 1]
        bx = box[pieces][:, :, None]
        inbox = (px >= bx[:, 0]) & (px <= bx[:, 2]) & (py >= bx[:, 1]) & (py <= bx[:, 3])
        out = np.zeros(inbox.shape, dtype=bool)
        ii, jj = np.nonzero(inbox)
        if len(ii):
            out[ii, jj] = self._ray_cast(px[ii, jj][:, None], py[ii, jj][:, None], pieces[ii])
        return out

    def _ray_cast(self, qx: np.ndarray, qy: np.ndarray, k: np.ndarray) -> np.ndarray:
        """``(Q,)``: whether point ``(qx[i], qy[i])`` (``(Q, 1)`` each) is inside piece ``k[i]``
        (:func:`contains`' even-odd ray casting on the padded polygons)."""
        a, b, _box, _h, _m = self.polygons()
        ay, by = a[k, :, 1], b[k, :, 1]
        straddle = (ay > qy) != (by > qy)  # where an edge does not straddle, its crossing is not computed
        frac = np.divide(
            (qy - ay) * (b[k, :, 0] - a[k, :, 0]), by - ay, out=np.zeros(straddle.shape), where=straddle
        )
        return np.asarray((straddle & (qx < a[k, :, 0] + frac)).sum(axis=1) % 2 == 1)

    def height_at(self, points: np.ndarray) -> np.ndarray:
        """The ground height under each point (the highest piece it stands in, else 0); only the
        raised pieces are tested (a piece of height 0 adds nothing to the maximum)."""
        h = self.polygons()[3]
        raised = self._edges.get("raised")
        if raised is None:
            raised = self._edges["raised"] = h > 0
            raised.flags.writeable = False
        inside = self.pieces_at(points, keep=raised)
        return np.asarray(np.where(inside, h[None, :], 0.0).max(axis=1, initial=0.0))


def overlap(a: Terrain, b: Terrain) -> bool:
    """Whether two terrain polygons overlap (crossing edges, or one inside the other)."""
    ax0, ay0, ax1, ay1 = a.bounds
    bx0, by0, bx1, by1 = b.bounds
    if ax1 <= bx0 or bx1 <= ax0 or ay1 <= by0 or by1 <= ay0:
        return False
    ea = a.edges
    if segments_cross(ea[:, 0], ea[:, 1], b.edges).any():
        return True
    return bool(b.contains(a.corners[:1]).any() or a.contains(b.corners[:1]).any())
