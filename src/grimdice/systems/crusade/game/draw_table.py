"""A table board drawn for :mod:`.draw` (VI's terrain on a table of 1" cells): the cells shaded by
what stands there (walls dark, buildings tan, rubble grey-brown, catwalks steel blue, raised
terrain green, the higher the darker, with its height in inches), each building's name and roof
height, its sectors' borders and doors, ladders (solid) and stairs (dashed) joining their ends,
rough pieces dotted; and the legend entries for the kinds of terrain a board has
(:func:`table_legend`)."""

from __future__ import annotations

from collections.abc import Collection
from typing import Any

from grimdice.engine.pictures import Mark
from grimdice.errors import printable
from grimdice.systems.crusade.game.table import TableBoard

GROUND_RGB, WALL_RGB, BUILDING_RGB = (0.96, 0.96, 0.92), (0.3, 0.3, 0.3), (0.86, 0.74, 0.55)
BLOCK_RGB = (0.55, 0.65, 0.45)
RUBBLE_RGB = (0.62, 0.55, 0.5)
CATWALK_RGB = (0.45, 0.55, 0.7)
Cell = tuple[int, int]
NAME_FONT = 8  # points: a building's name


def _shade(rgb: tuple[float, float, float], height: float) -> tuple[float, float, float]:
    k = max(0.35, 1.0 - 0.08 * height)
    r, g, b = rgb
    return (r * k, g * k, b * k)


def _kind(board: TableBoard, cell: Cell) -> str:
    """What a cell is drawn as: building, wall, catwalk, rubble, raised or ground."""
    lat = board.lattice
    levels = lat.levels_at(cell)
    if cell in board.building_at:
        return "building"
    if not levels:
        return "wall"
    if len(levels) > 1:
        return "catwalk"  # a catwalk (VI): stood on and under
    if levels == (0,) and lat.blocks_at(cell) > 0:
        return "rubble"  # a collapsed sector or a fallen catwalk (VI)
    return "raised" if levels[0] > 0 else "ground"


COLOUR = {"building": BUILDING_RGB, "wall": WALL_RGB, "catwalk": CATWALK_RGB, "rubble": RUBBLE_RGB}


def table_image(board: TableBoard) -> list[list[tuple[float, float, float]]]:
    lat = board.lattice
    rows = []
    for y in range(lat.height):
        row = []
        for x in range(lat.width):
            kind = _kind(board, (x, y))
            if kind == "raised":
                row.append(_shade(BLOCK_RGB, lat.levels_at((x, y))[0]))
            else:
                row.append(COLOUR.get(kind, GROUND_RGB))
        rows.append(row)
    return rows


def _borders(board: TableBoard) -> list[tuple[list[float], list[float]]]:
    """The edges between two cells of different sectors, as lines to draw."""
    out = []
    for (x, y), here in board.sector_at.items():
        for dx, dy in ((1, 0), (0, 1)):
            other = board.sector_at.get((x + dx, y + dy))
            if other is not None and other != here:
                xs = [x + 0.5, x + 0.5] if dx else [x - 0.5, x + 0.5]
                ys = [y - 0.5, y + 0.5] if dx else [y + 0.5, y + 0.5]
                out.append((xs, ys))
    return out


def _links(board: TableBoard) -> list[tuple[Any, Any, bool]]:
    """Each ladder or stairs once: its two ends, and whether it is a ladder (ends a cell apart;
    stairs run further)."""
    drawn, out = set(), []
    for p, links in board.links.items():
        for ln in links:
            key = frozenset((p, ln.to))
            if key not in drawn:
                drawn.add(key)
                out.append((p, ln.to, max(abs(p[0] - ln.to[0]), abs(p[1] - ln.to[1])) <= 1))
    return out


def _heights(board: TableBoard) -> list[Cell]:
    """The cells outside buildings whose top is above the table: their height is written in them."""
    lat = board.lattice
    return [
        (x, y)
        for y in range(lat.height)
        for x in range(lat.width)
        if (levels := lat.levels_at((x, y))) and levels[-1] > 0 and (x, y) not in board.building_at
    ]


def _name_spot(cells: list[Cell], span: float, taken: Collection[Cell], rows: int) -> tuple[float, float]:
    """Where a building's name goes: centred over its cells, in the row above them if no model or
    written height lies under the name there, else in the first such row of the building or below
    it (the row above when every row is taken)."""
    cx = sum(c[0] for c in cells) / len(cells)
    top, bottom = min(c[1] for c in cells), max(c[1] for c in cells)
    for y in [top - 1, *range(top, bottom + 2)]:
        if 0 <= y < rows and not any(q[1] == y and abs(q[0] - cx) < span / 2 + 0.5 for q in taken):
            return cx, y
    return cx, top - 1


def draw_table_marks(
    ax: Any, board: TableBoard, occupied: Collection[Cell] = (), square: float = 0.5
) -> None:
    """Heights (not under a model in ``occupied``: its own mark says where it stands), building
    names (clear of the models and heights, at ``square`` inches a cell), sector borders, doors,
    ladders and stairs over the image."""
    lat = board.lattice
    for x, y in _heights(board):
        if (x, y) not in occupied:
            ax.text(
                x, y, f'{lat.levels_at((x, y))[-1]}"', ha="center", va="center", fontsize=7, color="white"
            )
    for x, y in board.rough:
        ax.plot([x - 0.3, x + 0.3], [y + 0.3, y - 0.3], ls=":", color="black", lw=0.6)
    for xs, ys in _borders(board):
        ax.plot(xs, ys, color="black", lw=1.5)
    labelled = set(occupied) | set(_heights(board))
    for k, b in enumerate(board.buildings):
        cells = [c for c, n in board.building_at.items() if n == k]
        name = f'{printable(b.name)[:14]}, roof {b.height}"'
        nx, ny = _name_spot(cells, len(name) * NAME_FONT * 0.6 / 72 / square, labelled, lat.height)
        ax.text(nx, ny, name, ha="center", va="center", fontsize=NAME_FONT)
        for x, y in b.doors:
            ax.plot([x], [y], marker="s", color="saddlebrown", markersize=6, alpha=0.8)
    for p, q, ladder in _links(board):
        ax.plot([p[0], q[0]], [p[1], q[1]], ls="-" if ladder else "--", color="black", lw=1.2, marker="|")


def table_legend(board: TableBoard) -> list[Mark]:
    """The legend entries of the table's terrain kinds that ``board`` has, each once."""
    lat = board.lattice
    kinds = {_kind(board, (x, y)) for y in range(lat.height) for x in range(lat.width)}
    words = {
        "ground": ("open ground", GROUND_RGB),
        "wall": ("wall", WALL_RGB),
        "raised": ("raised terrain: its height in inches, darker = higher", _shade(BLOCK_RGB, 2)),
        "catwalk": ("catwalk: stood on and under", CATWALK_RGB),
        "rubble": ("rubble", RUBBLE_RGB),
        "building": ("building (named with its roof height)", BUILDING_RGB),
    }
    out: list[Mark] = [
        (k, w, {"patch": {"fc": c, "ec": "grey"}}) for k, (w, c) in words.items() if k in kinds
    ]
    if board.rough:
        out.append(("rough", "rough ground (dotted)", {"line": {"ls": ":", "c": "black"}}))
    if _borders(board):
        out.append(
            ("sector border", "border between a building's sectors", {"line": {"c": "black", "lw": 1.5}})
        )
    if any(b.doors for b in board.buildings):
        out.append(
            ("building door", "building door", {"line": {"ls": "", "marker": "s", "c": "saddlebrown"}})
        )
    links = _links(board)
    if any(ladder for _, _, ladder in links):
        out.append(("ladder", "ladder", {"line": {"c": "black", "marker": "|"}}))
    if any(not ladder for _, _, ladder in links):
        out.append(("stairs", "stairs", {"line": {"ls": "--", "c": "black", "marker": "|"}}))
    return out


__all__ = ["draw_table_marks", "table_image", "table_legend"]
