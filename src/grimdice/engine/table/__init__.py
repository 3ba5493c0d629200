"""The table of a game, game-agnostic: round bases, zones, terrain, lines and swept moves.

* :mod:`~grimdice.engine.table.bases` — round bases and zones, closest distances, coherency
  (no shapely: the calculators import it).
* :mod:`~grimdice.engine.table.terrain` — terrain pieces (polygons with traits and heights) and
  the table, with padded NumPy arrays of every piece and a shapely ``STRtree`` index.
* :mod:`~grimdice.engine.table.lines` — line of sight and straight moves through terrain.
* :mod:`~grimdice.engine.table.sweeps` — whole bases moved along a path: the capsule a base
  sweeps against other bases and terrain; sight from and to any part of the bases; cover.
* :mod:`~grimdice.engine.table.blocks` — the same questions for every candidate place of a group
  of bases at once.
* :mod:`~grimdice.engine.table.layout` — tables read from and written to mappings, generated.

This package imports only :mod:`.bases`; the other modules are imported by name where needed.
"""

from grimdice.engine.table.bases import (
    MM_PER_INCH,
    Base,
    Point,
    Polygon,
    Rect,
    Zone,
    base_distances,
    closest_distance,
    coherent,
    distance,
    horizontal_distance,
)

__all__ = [
    "MM_PER_INCH",
    "Base",
    "Point",
    "Polygon",
    "Rect",
    "Zone",
    "base_distances",
    "closest_distance",
    "coherent",
    "distance",
    "horizontal_distance",
]
