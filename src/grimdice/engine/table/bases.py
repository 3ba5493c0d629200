"""Round bases and zones (inches, seen from above): what every game measures between models.

Models stand on round bases: distances between models are measured between the closest points
of their bases, as wargames do ("from/to the closest point of their bases"). Zones (deployment
zones, board edges) are axis-aligned rectangles or polygons. :func:`base_distances` and
:func:`coherent` answer the same questions for many models at once (NumPy). No shapely here: the
calculators import this module.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

import numpy as np

MM_PER_INCH = 25.4
COHERENCY_EPS = 1e-9


@dataclass(frozen=True)
class Point:
    x: float
    y: float

    def distance(self, other: Point) -> float:
        return math.hypot(self.x - other.x, self.y - other.y)


@dataclass(frozen=True)
class Base:
    """A round base of ``diameter_mm`` centred at ``(x, y)`` inches (``z`` inches up)."""

    x: float
    y: float
    diameter_mm: float = 32.0
    z: float = 0.0

    @property
    def centre(self) -> Point:
        return Point(self.x, self.y)

    @property
    def radius(self) -> float:
        """Radius in inches."""
        return self.diameter_mm / MM_PER_INCH / 2

    def moved_to(self, x: float, y: float) -> Base:
        return Base(x, y, self.diameter_mm, self.z)


def horizontal_distance(a: Base, b: Base) -> float:
    """Closest horizontal distance between two bases (0 if they touch or overlap)."""
    return max(0.0, a.centre.distance(b.centre) - a.radius - b.radius)


def distance(a: Base, b: Base) -> float:
    """Closest distance between two bases in three dimensions (height difference included)."""
    return math.hypot(horizontal_distance(a, b), a.z - b.z)


def closest_distance(a: Base, others: Iterable[Base], *, horizontal: bool = True) -> float:
    """Distance from ``a`` to the nearest of ``others`` (infinity when there are none)."""
    f = horizontal_distance if horizontal else distance
    return min((f(a, b) for b in others), default=math.inf)


@dataclass(frozen=True)
class Rect:
    """An axis-aligned rectangle ``[x0, x1] x [y0, y1]`` in inches."""

    x0: float
    y0: float
    x1: float
    y1: float

    def contains(self, p: Point) -> bool:
        return self.x0 <= p.x <= self.x1 and self.y0 <= p.y <= self.y1

    def contains_base(self, b: Base) -> bool:
        """Whole base inside the rectangle."""
        r = b.radius
        return self.x0 <= b.x - r and b.x + r <= self.x1 and self.y0 <= b.y - r and b.y + r <= self.y1

    def touches_base(self, b: Base) -> bool:
        """Any part of the base inside the rectangle."""
        dx = max(self.x0 - b.x, 0.0, b.x - self.x1)
        dy = max(self.y0 - b.y, 0.0, b.y - self.y1)
        return math.hypot(dx, dy) < b.radius or (dx == 0 and dy == 0)


@dataclass(frozen=True)
class Polygon:
    """A simple polygon (vertices in order) in inches."""

    vertices: tuple[Point, ...]

    @classmethod
    def of(cls, pts: Sequence[tuple[float, float]]) -> Polygon:
        if len(pts) < 3:
            raise ValueError("a polygon needs at least 3 vertices")
        return cls(tuple(Point(x, y) for x, y in pts))

    def contains(self, p: Point) -> bool:
        """Ray-casting point-in-polygon test (points on an edge count as inside)."""
        inside = False
        vs = self.vertices
        for i, a in enumerate(vs):
            b = vs[(i + 1) % len(vs)]
            if _on_segment(p, a, b):
                return True
            if (a.y > p.y) != (b.y > p.y):
                x = a.x + (p.y - a.y) * (b.x - a.x) / (b.y - a.y)
                if p.x < x:
                    inside = not inside
        return inside

    def distance_to_edge(self, p: Point) -> float:
        vs = self.vertices
        return min(_segment_distance(p, a, vs[(i + 1) % len(vs)]) for i, a in enumerate(vs))

    def touches_base(self, b: Base) -> bool:
        """Any part of the base inside the polygon."""
        return self.contains(b.centre) or self.distance_to_edge(b.centre) < b.radius

    def contains_base(self, b: Base) -> bool:
        """Whole base inside the polygon."""
        return self.contains(b.centre) and self.distance_to_edge(b.centre) >= b.radius


Zone = Rect | Polygon


def _segment_distance(p: Point, a: Point, b: Point) -> float:
    dx, dy = b.x - a.x, b.y - a.y
    L2 = dx * dx + dy * dy
    t = 0.0 if L2 == 0 else max(0.0, min(1.0, ((p.x - a.x) * dx + (p.y - a.y) * dy) / L2))
    return math.hypot(p.x - (a.x + t * dx), p.y - (a.y + t * dy))


def _on_segment(p: Point, a: Point, b: Point) -> bool:
    return _segment_distance(p, a, b) < 1e-9


def base_distances(
    a: np.ndarray, ra: np.ndarray | float, b: np.ndarray, rb: np.ndarray | float, signed: bool = False
) -> np.ndarray:
    """``(n, m)`` closest distances between round bases (0 where they touch or overlap; ``signed``:
    negative by the depth of an overlap, so that "not closer than it already was" can be measured
    between bases already in contact)."""
    a, b = np.atleast_2d(a), np.atleast_2d(b)
    dx = a[:, None, 0] - b[None, :, 0]
    dy = a[:, None, 1] - b[None, :, 1]
    d = np.sqrt(dx * dx + dy * dy)  # np.linalg.norm's arithmetic on pairs, without its overhead
    ra, rb = np.asarray(ra, dtype=np.float64), np.asarray(rb, dtype=np.float64)
    gap = d - (ra[:, None] if ra.ndim else ra)  # a radius for all is subtracted as it is
    gap -= rb[None, :] if rb.ndim else rb
    return np.asarray(gap if signed else np.maximum(gap, 0.0))


def coherent(centres: np.ndarray, radii: np.ndarray, link: float = 1.0, span: float = 12.0) -> bool:
    """Unit coherency: every model within ``link`` of another, all linked into one group, and no
    two models more than ``span`` apart (One Page 40k v2.21: 1" and 12")."""
    c = np.atleast_2d(centres)
    if len(c) <= 1:
        return True
    d = base_distances(c, radii, c, radii)
    if d.max() > span + COHERENCY_EPS:
        return False
    adj = d <= link + COHERENCY_EPS
    seen = np.zeros(len(c), dtype=bool)
    seen[0] = True
    frontier = seen.copy()
    while frontier.any():
        new = adj[frontier].any(axis=0) & ~seen
        seen |= new
        frontier = new
    return bool(seen.all())
