"""The ``board`` of a table game in a scenario file (a format of ours), checked field by field, and
the :class:`~.table.TableBoard` it builds.

.. code-block:: yaml

    board:
      type: table
      width: 24            # inches (cells of 1")
      height: 18
      zones: {A: [0, 0, 3, 17], B: [20, 0, 23, 17]}      # cells x0 y0 x1 y1, corners included
      terrain:             # block: stood on; wall: stood beside; barricade: a 1" block; catwalk
        - {name: ruined wall, kind: wall, shape: [[6, 4], [7, 4], [7, 9], [6, 9]], height: 3, rough: true}
      buildings:
        - {name: hab, shape: [[10, 6], [16, 6], [16, 12], [10, 12]], height: 4, armoured: false,
           sectors: [{name: west, shape: [...]}, {name: east, shape: [...]}], doors: [[10, 8]]}
           # hatch: [12, 8] (optional): its roof and the floor below joined there
      ladders: [{at: [9, 7, 0], to: [10, 7, 4]}]
      stairs: []
"""

from __future__ import annotations

from typing import Literal

import numpy as np
from pydantic import Field

from grimdice.engine.table.lattice import Cell, Lattice, cells_of
from grimdice.engine.table.terrain import Terrain
from grimdice.errors import ScenarioError
from grimdice.io.fields import Flag, Int, Number, StrictModel, Text
from grimdice.systems.crusade.game.board import FULL, Pos
from grimdice.systems.crusade.game.table import TALL_LADDER, Building, Link, Structure, TableBoard

MAX_SIDE = 72  # inches a side (a 6' table)
Corner = tuple[Number | Int, Number | Int]
Shape = list[Corner]
PosField = tuple[Int, Int, Int]


class PieceSpec(StrictModel):
    """A piece of terrain: ``block`` (crates, hills, platforms: models stand on top), ``wall``
    (ruined walls: models stand beside it, never on it), ``barricade`` (VI: a 1" block that
    gives cover, "2 armor, 1 hit") or ``catwalk`` (VI: "3 armor, 1 hit", a walkway at ``height``
    that models stand on and under); ``rough``: it may be scrabbled up (V SCRABBLING)."""

    name: Text = Field(min_length=1, max_length=60)
    kind: Literal["block", "wall", "barricade", "catwalk"] = "block"
    shape: Shape = Field(min_length=3, max_length=64)
    height: Int = Field(1, ge=1, le=12)
    rough: Flag = False


class SectorSpec(StrictModel):
    name: Text = Field(min_length=1, max_length=60)
    shape: Shape = Field(min_length=3, max_length=64)


class BuildingSpec(StrictModel):
    """VI: a building: its footprint, roof height, armour (sloped sides), sectors (else one) and
    door cells (armoured buildings are entered only through them)."""

    name: Text = Field(min_length=1, max_length=60)
    shape: Shape = Field(min_length=3, max_length=64)
    height: Int = Field(3, ge=2, le=12)
    armoured: Flag = False
    sectors: list[SectorSpec] = Field(default_factory=list, max_length=8)
    doors: list[tuple[Int, Int]] = Field(default_factory=list, max_length=20)
    hatch: tuple[Int, Int] | None = None  # a cell: its roof and the floor below are joined (ours)


class LinkSpec(StrictModel):
    at: PosField
    to: PosField


class TableSpec(StrictModel):
    type: Literal["table"]
    width: Int = Field(24, ge=6, le=MAX_SIDE)
    height: Int = Field(18, ge=6, le=MAX_SIDE)
    zones: dict[Text, tuple[Int, Int, Int, Int]] = Field(default_factory=dict, max_length=4)
    terrain: list[PieceSpec] = Field(default_factory=list, max_length=60)
    buildings: list[BuildingSpec] = Field(default_factory=list, max_length=10)
    ladders: list[LinkSpec] = Field(default_factory=list, max_length=30)
    stairs: list[LinkSpec] = Field(default_factory=list, max_length=30)


def _terrain(name: str, shape: Shape, height: float, where: str, w: int, h: int) -> Terrain:
    try:
        piece = Terrain(name, np.asarray(shape, dtype=np.float64), height=float(height))
    except ScenarioError as exc:
        raise ScenarioError(f"{where}.shape", exc.message) from None
    x0, y0, x1, y1 = piece.bounds
    if x0 < 0 or y0 < 0 or x1 > w or y1 > h:
        raise ScenarioError(f"{where}.shape", f"{name!r} lies (partly) off the {w} x {h} inch table")
    return piece


def _claim(owner: dict[Cell, str], cells: list[Cell], what: str, where: str) -> None:
    if not cells:
        raise ScenarioError(f"{where}.shape", f"{what!r} covers no cell centre; make it at least 1 inch")
    for c in cells:
        if c in owner:
            raise ScenarioError(f"{where}.shape", f"{what!r} overlaps {owner[c]!r} at cell {list(c)}")
        owner[c] = what


def _buildings(spec: TableSpec, owner: dict[Cell, str], levels: dict[Cell, tuple[int, ...]], top: np.ndarray):
    w, h = spec.width, spec.height
    buildings, building_at, sector_at = [], {}, {}
    n_sectors = 0
    for b, bs in enumerate(spec.buildings):
        where = f"board.buildings.{b}"
        cells = cells_of(_terrain(bs.name, bs.shape, bs.height, where, w, h), w, h)
        _claim(owner, cells, bs.name, where)
        for c in cells:
            building_at[c] = b
            levels[c] = (0, bs.height)
            top[c[1], c[0]] = bs.height
        parts = bs.sectors or [SectorSpec(name=bs.name, shape=bs.shape)]
        for k, ss in enumerate(parts):
            sw = f"{where}.sectors.{k}"
            for c in cells_of(_terrain(ss.name, ss.shape, bs.height, sw, w, h), w, h):
                if c not in building_at or building_at[c] != b:
                    raise ScenarioError(f"{sw}.shape", f"sector {ss.name!r} reaches outside {bs.name!r}")
                if c in sector_at:
                    raise ScenarioError(f"{sw}.shape", f"sector {ss.name!r} overlaps another at {list(c)}")
                sector_at[c] = n_sectors + k
        missing = [c for c in cells if c not in sector_at]
        if missing:
            raise ScenarioError(f"{where}.sectors", f"cell {list(missing[0])} of {bs.name!r} is in no sector")
        n_sectors += len(parts)
        for k, d in enumerate(bs.doors):
            if (d[0], d[1]) not in cells:
                raise ScenarioError(f"{where}.doors.{k}", f"cell {list(d)} is not a cell of {bs.name!r}")
        doors = frozenset((d[0], d[1]) for d in bs.doors)
        if bs.armoured and not doors:
            raise ScenarioError(
                f"{where}.doors", "an armoured building is entered only by doors (VI); give one"
            )
        if bs.hatch is not None and (bs.hatch[0], bs.hatch[1]) not in cells:
            raise ScenarioError(f"{where}.hatch", f"cell {list(bs.hatch)} is not a cell of {bs.name!r}")
        if bs.hatch is not None and bs.armoured:
            raise ScenarioError(
                f"{where}.hatch", "an armoured building is entered only by doors, not via its roof (VI)"
            )
        buildings.append(Building(bs.name, bs.height, bs.armoured, doors))
    return tuple(buildings), building_at, sector_at


def _links(spec: TableSpec, lattice: Lattice) -> dict[Pos, tuple[Link, ...]]:
    """V: ladders cost their height (under 3") or a whole move (3"-6"); stairs the linear move."""
    out: dict[Pos, list[Link]] = {}
    for kind, specs in (("ladder", spec.ladders), ("stairs", spec.stairs)):
        for i, ls in enumerate(specs):
            where = f"board.{'ladders' if kind == 'ladder' else 'stairs'}.{i}"
            a, b = tuple(ls.at), tuple(ls.to)
            for name, p in (("at", a), ("to", b)):
                if p[2] not in lattice.levels_at((p[0], p[1])):
                    raise ScenarioError(
                        f"{where}.{name}",
                        f"no place to stand at {list(p)} (off the table, in a wall or in the air)",
                    )
            rise = abs(a[2] - b[2])
            flat = float(np.hypot(a[0] - b[0], a[1] - b[1]))
            if kind == "ladder" and not (1 <= rise <= 6 and flat <= 1.5):
                raise ScenarioError(
                    where, "a ladder climbs 1 to 6 inches between a cell and itself or the next"
                )
            if kind == "stairs" and not (rise >= 1 and 1 <= flat <= 12):
                raise ScenarioError(where, "stairs climb at least 1 inch over 1 to 12 inches")
            if kind == "stairs":
                step = ("move", flat)
            else:
                step = ("ladder", FULL) if rise >= TALL_LADDER else ("move", float(rise))
            out.setdefault(a, []).append(Link(step[0], b, step[1], kind == "ladder"))
            out.setdefault(b, []).append(Link(step[0], a, step[1], kind == "ladder"))
    for bs in spec.buildings:  # reading hatch: a ladder of the roof's height, no forced entry
        if bs.hatch is not None:
            roof, floor = (*bs.hatch, bs.height), (*bs.hatch, 0)
            kind, cost = ("ladder", FULL) if bs.height >= TALL_LADDER else ("move", float(bs.height))
            out.setdefault(roof, []).append(Link(kind, floor, cost, True, hatch=True))
            out.setdefault(floor, []).append(Link(kind, roof, cost, True, hatch=True))
    return {p: tuple(v) for p, v in out.items()}


def build_table(spec: TableSpec) -> TableBoard:
    """The table board of ``spec``, every piece, building, sector, door, ladder and zone checked."""
    w, h = spec.width, spec.height
    levels: dict[Cell, tuple[int, ...]] = {}
    top = np.zeros((h, w))
    owner: dict[Cell, str] = {}
    rough: set[Cell] = set()
    structures: list[Structure] = []
    for i, ps in enumerate(spec.terrain):
        where = f"board.terrain.{i}"
        height = 1 if ps.kind == "barricade" else ps.height
        if ps.kind == "catwalk" and height < 2:
            raise ScenarioError(
                f"{where}.height", "a catwalk stands 2 to 12 inches high (models go under it)"
            )
        cells = cells_of(_terrain(ps.name, ps.shape, height, where, w, h), w, h)
        _claim(owner, cells, ps.name, where)
        for c in cells:
            levels[c] = {"wall": (), "catwalk": (0, height)}.get(ps.kind, (height,))
            top[c[1], c[0]] = 0 if ps.kind == "catwalk" else height  # reading catwalk: open to sight
            if ps.rough:
                rough.add(c)
        if ps.kind in ("barricade", "catwalk"):  # VI: targets, "1 hit"
            structures.append(Structure(ps.name, ps.kind, height, frozenset(cells)))
    buildings, building_at, sector_at = _buildings(spec, owner, levels, top)
    lattice = Lattice(w, h, levels, top)
    zones: dict[str, tuple[Cell, ...]] = {}
    for name, (x0, y0, x1, y1) in spec.zones.items():
        if not (0 <= x0 <= x1 < w and 0 <= y0 <= y1 < h):
            raise ScenarioError(
                f"board.zones.{name}", f"cells x0 y0 x1 y1 on the {w} x {h} table, got {[x0, y0, x1, y1]}"
            )
        zones[name] = tuple((x, y) for y in range(y0, y1 + 1) for x in range(x0, x1 + 1))
    names = tuple(
        name
        for bs in spec.buildings
        for name in ([ss.name for ss in bs.sectors] if bs.sectors else [bs.name])
    )
    return TableBoard(
        lattice,
        buildings,
        building_at,
        sector_at,
        frozenset(rough),
        _links(spec, lattice),
        zones,
        names,
        structures=tuple(structures),
    )


__all__ = ["BuildingSpec", "LinkSpec", "PieceSpec", "TableSpec", "build_table"]
