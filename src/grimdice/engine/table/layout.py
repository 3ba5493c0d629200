"""Tables read from a mapping (YAML, JSON logs), written back exactly, and generated: balanced
(point-symmetric) and seeded."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

import numpy as np

from grimdice.engine.table.terrain import TRAITS, Table, Terrain, checked_piece, overlap
from grimdice.errors import ScenarioError


def table_from_mapping(data: Mapping[str, Any], where: str = "table") -> Table:
    """A table from ``{width, depth, terrain: [{name, shape | rect | circle, traits, height}]}``.

    ``rect: [x, y, w, h]`` and ``circle: [x, y, r]`` are shorthands for common shapes."""
    if not isinstance(data, Mapping):
        raise ScenarioError(where, "a table is a mapping with width, depth and terrain")
    unknown = set(data) - {"width", "depth", "terrain"}
    if unknown:
        raise ScenarioError(f"{where}.{sorted(unknown)[0]}", "unknown field; allowed: width, depth, terrain")
    pieces = data.get("terrain", [])
    if not isinstance(pieces, list):
        raise ScenarioError(f"{where}.terrain", "a list of terrain pieces")
    terrain = [_piece(p, f"{where}.terrain.{i}") for i, p in enumerate(pieces)]
    w, d = data.get("width", 72.0), data.get("depth", 48.0)
    for name, v in (("width", w), ("depth", d)):
        if isinstance(v, bool) or not isinstance(v, (int, float)):
            raise ScenarioError(f"{where}.{name}", "a number of inches")
    return Table(float(w), float(d), tuple(terrain))


def _piece(p: object, where: str) -> Terrain:
    if not isinstance(p, Mapping):
        raise ScenarioError(where, "a terrain piece is a mapping with name, a shape and traits")
    allowed = {"name", "shape", "rect", "circle", "traits", "height"}
    unknown = set(p) - allowed
    if unknown:
        raise ScenarioError(
            f"{where}.{sorted(unknown)[0]}", f"unknown field; allowed: {', '.join(sorted(allowed))}"
        )
    shapes = [k for k in ("shape", "rect", "circle") if k in p]
    if len(shapes) != 1:
        raise ScenarioError(where, "give exactly one of shape, rect or circle")
    kind = shapes[0]
    value = p[kind]
    if kind == "rect":
        x, y, w, h = _numbers(value, 4, f"{where}.rect")
        corners = [[x, y], [x + w, y], [x + w, y + h], [x, y + h]]
    elif kind == "circle":
        x, y, r = _numbers(value, 3, f"{where}.circle")
        ang = np.linspace(0, 2 * np.pi, 16, endpoint=False)
        corners = np.stack([x + r * np.cos(ang), y + r * np.sin(ang)], axis=1).tolist()
    else:
        corners = value
    traits = p.get("traits", [])
    if isinstance(traits, str) or not isinstance(traits, Sequence):
        raise ScenarioError(f"{where}.traits", f"a list of traits from: {', '.join(TRAITS)}")
    height = p.get("height", 0.0)
    if isinstance(height, bool) or not isinstance(height, (int, float)):
        raise ScenarioError(f"{where}.height", "a number of inches")
    name = p.get("name", where)
    try:
        return Terrain(str(name)[:60], np.asarray(corners, dtype=float), frozenset(traits), float(height))
    except ScenarioError as exc:  # name the piece by its place in the file
        part = exc.field.rsplit(".", 1)[-1]
        raise ScenarioError(f"{where}.{kind if part == 'shape' else part}", exc.message) from None
    except (TypeError, ValueError):
        raise ScenarioError(f"{where}.{kind}", "numbers in inches") from None


def _numbers(value: object, n: int, where: str) -> list[float]:
    if (
        not isinstance(value, Sequence)
        or len(value) != n
        or any(isinstance(v, bool) or not isinstance(v, (int, float)) for v in value)
    ):
        raise ScenarioError(where, f"{n} numbers in inches")
    return [float(v) for v in value]


#: the kinds of piece the generator places, as trait sets (the rule texts' terrain types)
PIECE_KINDS: tuple[tuple[str, frozenset[str], float], ...] = (
    ("forest", frozenset({"cover", "difficult"}), 0.0),
    ("ruins", frozenset({"cover", "blocks_sight"}), 0.0),
    ("crater", frozenset({"cover"}), 0.0),
    ("hill", frozenset(), 3.0),
    ("rocks", frozenset({"impassable", "blocks_sight"}), 0.0),
    ("minefield", frozenset({"dangerous"}), 0.0),
    ("mud", frozenset({"difficult"}), 0.0),
)


def generate_table(
    seed: int, pieces: int = 12, width: float = 72.0, depth: float = 48.0, deploy: float = 12.0
) -> Table:
    """A balanced table: pieces placed in mirror pairs (point symmetry about the centre), so
    neither side is favoured, none inside the deployment zones' first inches, none overlapping."""
    if not 2 <= pieces <= 40 or pieces % 2:
        raise ScenarioError("pieces", "an even number of terrain pieces from 2 to 40")
    rng = np.random.default_rng(seed)
    placed: list[Terrain] = []
    tries = 0
    while len(placed) < pieces:
        tries += 1
        if tries > 5000:
            raise ScenarioError("pieces", f"could not place {pieces} pieces without overlap; ask for fewer")
        name, traits, height = PIECE_KINDS[int(rng.integers(len(PIECE_KINDS)))]
        w, h = rng.uniform(3, 8), rng.uniform(3, 8)
        x = rng.uniform(1, width - w - 1)
        y = rng.uniform(deploy / 2, depth - h - deploy / 2)
        corners = np.array([[x, y], [x + w, y], [x + w, y + h], [x, y + h]])
        a = checked_piece(f"{name} {len(placed) + 1}", corners, traits, height)  # a rectangle, known valid
        b = checked_piece(f"{name} {len(placed) + 2}", np.array([width, depth]) - corners, traits, height)
        if overlap(a, b) or any(overlap(a, t) or overlap(b, t) for t in placed):
            continue
        placed += [a, b]
    return Table(width, depth, tuple(placed))


def table_to_mapping(table: Table) -> dict[str, Any]:
    return {
        "width": table.width,
        "depth": table.depth,
        "terrain": [
            {
                "name": t.name,
                # exact corners (JSON and YAML keep every float): a logged game replays on its own table
                "shape": [[float(x), float(y)] for x, y in t.corners],
                "traits": sorted(t.traits),
                "height": t.height,
            }
            for t in table.terrain
        ],
    }


def mirror_pairs(table: Table) -> Iterable[tuple[Terrain, Terrain]]:
    """Pairs of pieces that are each other's point reflection through the table's centre."""
    centre = np.array([table.width, table.depth])
    for i, a in enumerate(table.terrain):
        for b in table.terrain[i + 1 :]:
            if a.traits == b.traits and np.allclose(
                np.sort(centre - a.corners, axis=0), np.sort(b.corners, axis=0)
            ):
                yield a, b
