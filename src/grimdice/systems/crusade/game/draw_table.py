"""A table board drawn for :mod:`.draw`: the cells shaded by height (walls dark, buildings tan,
rubble grey-brown, catwalks steel blue, the higher the darker), each building's name and roof
height, its sectors' borders and doors, ladders (solid) and stairs (dashed) joining their ends,
rough pieces dotted."""

from __future__ import annotations

from typing import Any

from grimdice.errors import printable
from grimdice.systems.crusade.game.table import TableBoard

GROUND_RGB, WALL_RGB, BUILDING_RGB = (0.96, 0.96, 0.92), (0.3, 0.3, 0.3), (0.86, 0.74, 0.55)
BLOCK_RGB = (0.55, 0.65, 0.45)
RUBBLE_RGB = (0.62, 0.55, 0.5)
CATWALK_RGB = (0.45, 0.55, 0.7)


def _shade(rgb: tuple[float, float, float], height: float) -> tuple[float, float, float]:
    k = max(0.35, 1.0 - 0.08 * height)
    r, g, b = rgb
    return (r * k, g * k, b * k)


def table_image(board: TableBoard) -> list[list[tuple[float, float, float]]]:
    lat = board.lattice
    rows = []
    for y in range(lat.height):
        row = []
        for x in range(lat.width):
            levels = lat.levels_at((x, y))
            if (x, y) in board.building_at:
                row.append(BUILDING_RGB)
            elif not levels:
                row.append(WALL_RGB)
            elif len(levels) > 1:
                row.append(CATWALK_RGB)  # a catwalk (VI): stood on and under
            elif levels == (0,) and lat.blocks_at((x, y)) > 0:
                row.append(RUBBLE_RGB)  # a collapsed sector or a fallen catwalk (VI)
            elif levels[0] > 0:
                row.append(_shade(BLOCK_RGB, levels[0]))
            else:
                row.append(GROUND_RGB)
        rows.append(row)
    return rows


def draw_table_marks(ax: Any, board: TableBoard) -> None:
    """Heights, building names, sector borders, doors, ladders and stairs over the image."""
    lat = board.lattice
    for y in range(lat.height):
        for x in range(lat.width):
            levels = lat.levels_at((x, y))
            if levels and levels[-1] > 0 and (x, y) not in board.building_at:
                ax.text(x, y, f'{levels[-1]}"', ha="center", va="center", fontsize=5, color="white")
            if (x, y) in board.rough:
                ax.plot([x - 0.3, x + 0.3], [y + 0.3, y - 0.3], ls=":", color="black", lw=0.6)
            here = board.sector_at.get((x, y))
            for dx, dy in ((1, 0), (0, 1)):
                other = board.sector_at.get((x + dx, y + dy))
                if here is not None and other is not None and other != here:
                    xs = [x + 0.5, x + 0.5] if dx else [x - 0.5, x + 0.5]
                    ys = [y - 0.5, y + 0.5] if dx else [y + 0.5, y + 0.5]
                    ax.plot(xs, ys, color="black", lw=1.5)
    for k, b in enumerate(board.buildings):
        cells = [c for c, n in board.building_at.items() if n == k]
        cx = sum(c[0] for c in cells) / len(cells)
        y0 = min(c[1] for c in cells)
        ax.text(cx, y0 - 0.1, f'{printable(b.name)[:14]} roof {b.height}"', ha="center", fontsize=6)
        for x, y in b.doors:
            ax.plot([x], [y], marker="s", color="saddlebrown", markersize=5, alpha=0.8)
    drawn = set()
    for p, links in board.links.items():
        for ln in links:
            key = frozenset((p, ln.to))
            if key in drawn:
                continue
            drawn.add(key)
            near = max(abs(p[0] - ln.to[0]), abs(p[1] - ln.to[1])) <= 1  # a ladder; stairs run further
            style = "-" if near else "--"
            ax.plot([p[0], ln.to[0]], [p[1], ln.to[1]], ls=style, color="black", lw=1.2, marker="|")


__all__ = ["draw_table_marks", "table_image"]
