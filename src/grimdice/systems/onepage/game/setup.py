"""What a game is played with and does not change: the two fielded armies, model bases, the table.

Bases follow the text's "general guidelines for base sizes": "Infantry – 28mm Round to 40mm Round",
"Monsters & Walkers – 60mm Round", "Vehicles – Not mounted on a base". An army file's unit entry may
give ``base: MM`` (a round base diameter in millimetres) and a Vehicle's ``arcs`` (its weapons'
mountings, ``game/firing.py``); the game reads them before the army is validated
(``army.read_play_fields``).
"""

from __future__ import annotations

import copy
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any

import numpy as np

from grimdice.engine.table.bases import coherent
from grimdice.engine.table.layout import generate_table, table_from_mapping, table_to_mapping
from grimdice.engine.table.terrain import Table
from grimdice.errors import ScenarioError
from grimdice.io.scenario import load_scenario, validate
from grimdice.systems.onepage.army import ARMY_NEEDS, check_arcs, fielded_entries, read_play_fields
from grimdice.systems.onepage.fielding import field_army
from grimdice.systems.onepage.movement import DEPLOY_ZONE
from grimdice.systems.onepage.profiles import Army
from grimdice.systems.onepage.units import Unit

MM = 25.4  # millimetres per inch
#: default round base diameters (mm) by unit type; a vehicle's hull is taken as a 100 mm disc
BASE_MM = {"infantry": 32, "hero": 40, "walker": 60, "monster": 60, "vehicle": 100}
GAP = 0.5  # inches between neighbouring bases in a formation (coherency asks for 1" or less)
COLUMNS = 5  # models per rank of a formation
FEWEST_FILES = 2  # a column (``game/shapes.py``) is at least two models wide
BLOCK, COLUMN = 0, 1  # a unit's shapes (``GameState.shapes``, ``game/shapes.py``)


@dataclass(frozen=True)
class ArmySide:
    """One army as played: its fielded units, each unit's base radius (inches), and the raw data."""

    name: str
    units: tuple[Unit, ...]
    radii: tuple[float, ...]
    data: dict[str, Any]
    arcs: tuple[dict[str, str], ...] = ()  # per unit: weapon name (lower case) -> front (firing.py)


def army_from_mapping(data: Any, where: str) -> ArmySide:
    """Field an army mapping (``kind: army``) for play: bases read, merges/joins applied, limits
    checked (a violation is an error here: a game needs legal armies)."""
    if not isinstance(data, dict):
        raise ScenarioError(where, "an army file is a mapping with kind: army")
    raw = copy.deepcopy(data)
    if raw.get("kind") != "army":
        raise ScenarioError(f"{where}.kind", ARMY_NEEDS)
    bases, arcs = read_play_fields(raw, where)
    try:  # the army's own checks (weapons, special rules) name the file's fields too
        army = validate(Army, raw)
        fielded = field_army(army)
    except ScenarioError as exc:
        raise ScenarioError(f"{where}.{exc.field}", exc.message) from None
    if fielded.violations:
        v = fielded.violations[0]
        raise ScenarioError(f"{where}.{v.field}", v.message)
    mounts = tuple(check_arcs(raw, list(fielded.units), arcs, where))
    entries = fielded_entries(raw)
    firsts: dict[Any, int] = {}
    for j, u in enumerate(raw["units"]):  # a merged unit is one unit: one base size
        i = firsts.setdefault(u.get("merge"), j) if u.get("merge") else j
        if bases.get(j) != bases.get(i):
            raise ScenarioError(
                f"{where}.units.{j}.base",
                f"a merged unit has one base size: give units.{i} and units.{j} the same base (or none)",
            )
    radii = []
    for i, u in zip(entries, fielded.units, strict=True):
        mm = bases.get(i)
        if mm is None:
            mm = BASE_MM["hero"] if (u.size == 1 and u.has("hero")) else BASE_MM[u.kind]
        radii.append(mm / MM / 2)
    return ArmySide(army.name or where, tuple(fielded.units), tuple(radii), data, mounts)


def load_army_side(path: str | Path) -> ArmySide:
    return army_from_mapping(load_scenario(path), Path(path).name)


def load_table(path: str | Path) -> Table:
    data = load_scenario(path)
    return table_from_mapping(data.get("table", data) if isinstance(data, dict) else data)


@dataclass(eq=False)
class Setup:
    """Both armies and the table; units are numbered army 0's first, then army 1's."""

    armies: tuple[ArmySide, ArmySide]
    table: Table
    cache: dict[Any, Any] = field(default_factory=dict, repr=False)

    def __post_init__(self) -> None:
        if (self.table.width, self.table.depth) != (72.0, 48.0):
            raise ScenarioError("table", "One Page 40k is played on a 6'x4' (72\" x 48\") table")
        self.units: tuple[Unit, ...] = self.armies[0].units + self.armies[1].units
        self.radii = np.array(self.armies[0].radii + self.armies[1].radii)
        self.arcs = tuple(
            {w: a for w, a in m.items() if a != "turret"}
            for side in self.armies
            for m in (side.arcs or tuple({} for _ in side.units))
        )
        self.owner = tuple([0] * len(self.armies[0].units) + [1] * len(self.armies[1].units))
        self.offsets = tuple(formation(u.size, r) for u, r in zip(self.units, self.radii, strict=True))
        self.columns = tuple(column(off, float(r)) for off, r in zip(self.offsets, self.radii, strict=True))

    def shape_offsets(self, u: int, shape: int) -> np.ndarray:
        """Unit ``u``'s whole formation in ``shape`` (:data:`BLOCK`: :attr:`offsets`; :data:`COLUMN`:
        :attr:`columns`), not turned to its side; a shape it lacks is a ``ValueError``."""
        if shape == BLOCK:
            return self.offsets[u]
        got = self.columns[u] if shape == COLUMN else None
        if got is None:
            raise ValueError(f"unit {u} has no shape {shape!r} (0: block; 1: column, where one exists)")
        return got

    def to_json(self) -> dict[str, Any]:
        return {"armies": [a.data for a in self.armies], "table": table_to_mapping(self.table)}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Setup:
        if not isinstance(data, dict) or not isinstance(data.get("armies"), list) or len(data["armies"]) != 2:
            raise ScenarioError("setup", "a game log's setup is {armies: [army A, army B], table: {...}}")
        if "table" not in data:
            raise ScenarioError("setup.table", "missing from the game log's setup")
        armies = tuple(army_from_mapping(a, f"armies.{i}") for i, a in enumerate(data["armies"]))
        return cls((armies[0], armies[1]), table_from_mapping(data["table"]))


def formation(n: int, radius: float) -> np.ndarray:
    """Model centres relative to the unit's anchor: ranks of :data:`COLUMNS` models, bases
    :data:`GAP` apart, the first rank on the anchor and the others behind it (+y, flipped for the
    north army). Removing models from the end keeps every rank-and-file block coherent. A unit with
    more ranks than stand within the 12" deployment zone ("places all of his army within 12" of his
    table edge") gets wider ranks instead, where the block stays coherent ("within 12" of all other
    members"; else it is left as it is, and its deployment is refused)."""
    s = 2 * radius + GAP
    cols = min(COLUMNS, n)
    deep = int((DEPLOY_ZONE - 0.5 - 2 * radius) // s) + 1  # ranks within the zone (deploy()'s margin)
    if deep >= 1 and -(-n // cols) > deep:
        wide = block(n, -(-n // deep), s)
        if coherent(wide, np.full(n, radius)):
            return wide
    return block(n, cols, s)


def block(n: int, cols: int, s: float) -> np.ndarray:
    """``n`` centres in ranks of ``cols``, ``s`` apart, centred on x = 0, the first rank at y = 0."""
    return np.array([((k % cols - (cols - 1) / 2) * s, (k // cols) * s) for k in range(n)], dtype=float)


def files(offsets: np.ndarray, spacing: float) -> int:
    """How many models wide a rank-and-file formation (``offsets``, ``spacing`` apart) stands."""
    return round(float(offsets[:, 0].max() - offsets[:, 0].min()) / spacing) + 1 if len(offsets) else 0


def column(offsets: np.ndarray, radius: float) -> np.ndarray | None:
    """The column of a unit whose block is ``offsets`` (bases of ``radius``, :data:`GAP` apart): the
    same ranks with the fewest files, at least :data:`FEWEST_FILES` and fewer than the block's, whose
    whole formation is coherent ("within 1" of at least one other member ... within 12" of all other
    members", measured base to base as the game measures coherency: ``bases.coherent``); None when
    there is none. Its first models are coherent too (ranks lose models from the back). Read-only,
    kept across setups by the block and the radius (:func:`_column`)."""
    return _column(np.ascontiguousarray(offsets, dtype=float).tobytes(), float(radius))


@lru_cache(maxsize=256)
def _column(offsets: bytes, radius: float) -> np.ndarray | None:
    """:func:`column` of a block given as the bytes of an ``(n, 2)`` float array."""
    block_of = np.frombuffer(offsets).reshape(-1, 2)
    n, spacing = len(block_of), 2 * radius + GAP
    radii = np.full(n, radius)
    for wide in range(FEWEST_FILES, files(block_of, spacing)):
        narrow = block(n, wide, spacing)
        if coherent(narrow, radii):
            narrow.flags.writeable = False
            return narrow
    return None


def make_setup(army_a: ArmySide, army_b: ArmySide, table: Table | None = None, table_seed: int = 0) -> Setup:
    return Setup((army_a, army_b), table if table is not None else generate_table(table_seed))


__all__ = [
    "BLOCK",
    "COLUMN",
    "ArmySide",
    "Setup",
    "army_from_mapping",
    "column",
    "files",
    "formation",
    "load_army_side",
    "load_table",
    "make_setup",
]
