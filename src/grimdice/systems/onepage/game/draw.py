"""A logged game drawn round by round with matplotlib (the ``plot`` extra), one picture per round
of the table at the round's end: the terrain pieces filled by their traits (hatched when they have
more than one; a raised piece's height written on it), every unit on the table as its bases in its
army's colour (hatched while pinned) with its number on them, a Vehicle's front (a white mark from
the hull's centre along its heading), a unit destroyed or routed in the round as grey rings where
it last stood, and the round's arrows: moves (grey; a two-leg move through
its waypoint), assaults (black), consolidations (black dotted) and shots (the army's colour,
dashed, one per target).

Beside the table (:mod:`.draw_key`, laid out by :mod:`grimdice.engine.pictures`): the unit key
(each number's name, models and wounds left, state) to the right, the legend of every kind of mark
in the picture below, and the title (armies, round, score) wrapped above. No two labels overlap:
each unit's number is put on its bases, or beside them (joined by a thin line) when another label
is there."""

from __future__ import annotations

import math
from collections.abc import Sequence
from itertools import pairwise
from pathlib import Path
from typing import Any

from grimdice.engine import pictures
from grimdice.engine.pictures import SIDE_COLOURS
from grimdice.systems.onepage.game import draw_key, facing
from grimdice.systems.onepage.game.draw_key import PINNED_STYLE, Arrow
from grimdice.systems.onepage.game.play import states
from grimdice.systems.onepage.game.state import GameState

SCALE = 0.15  # inches of picture per inch of table
DPI = 90
FONT = 8  # points: the numbers, the key and the legend
KEY_WIDTH = 3.0  # inches the key takes to the right of the table
KEY_TITLE = "Units: models left/started, wounds left/all"


def front_mark(s: GameState, u: int) -> tuple[tuple[float, float], tuple[float, float]] | None:
    """A Vehicle's front mark: from its centre to its rim along its heading (None: not a Vehicle)."""
    if not facing.is_vehicle(s, u):
        return None
    x, y = (float(v) for v in s.models(u).mean(axis=0))
    h, r = facing.heading(s, u), float(s.setup.radii[u])
    return (x, y), (x + r * math.cos(h), y + r * math.sin(h))


def draw_rounds(log: dict[str, Any], folder: Path) -> list[Path]:
    """One picture per round of a logged game (``round-N.png`` in ``folder``): the table, what
    moved, shot and assaulted in the round, and where every unit stands at its end."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    sts = states(log)
    folder.mkdir(parents=True, exist_ok=True)
    out: list[Path] = []
    for rnd in sorted({s.round for s in sts if s.units}):
        steps = [
            (s, a, n)
            for s, a, n in zip(sts, log["actions"], sts[1:], strict=False)
            if s.units and s.round == rnd
        ]
        if not steps:
            continue
        fig = figure(steps[-1][2], steps, draw_key.title(steps[-1][2], rnd))
        path = folder / f"round-{rnd}.png"
        fig.savefig(path, dpi=DPI, bbox_inches="tight", pad_inches=0.15)
        plt.close(fig)
        out.append(path)
    return out


def figure(end: GameState, steps: Sequence[tuple[GameState, Any, GameState]], title: str) -> Any:
    """The matplotlib figure of the round whose ``steps`` (state, action, next state) end in
    ``end`` (its table axes first in ``fig.axes``)."""
    table = end.setup.table
    w, h = table.width * SCALE, table.depth * SCALE
    fig, ax = pictures.board_axes(w, h)
    ax.set_xlim(0, table.width)
    ax.set_ylim(0, table.depth)
    ax.set_aspect("equal")
    ax.set_xticks(range(0, int(table.width) + 1, 6))
    ax.set_yticks(range(0, int(table.depth) + 1, 6))
    ax.tick_params(labelsize=FONT - 1)
    heights = _draw_terrain(ax, end)
    marks = draw_key.arrows(steps)
    for arrow in marks:
        _draw_arrow(ax, arrow)
    gone = draw_key.fallen(steps)
    _draw_units(ax, end, heights, gone)
    ax.set_title(pictures.wrap_title(title, w + KEY_WIDTH, FONT + 1), fontsize=FONT + 1, parse_math=False)
    key = draw_key.unit_key(end, draw_key.in_melee(steps), gone)
    pictures.draw_key(ax, key, SIDE_COLOURS, h, FONT, KEY_TITLE)
    pictures.draw_legend(ax, draw_key.legend(end, marks, list(gone)), w + KEY_WIDTH, h, FONT)
    return fig


def _text_size(text: str, size: float) -> tuple[float, float]:
    """A label's box in table inches (an average character 0.6 of the font size wide, padded)."""
    return ((len(text) * 0.6 + 0.8) * size / 72 / SCALE, 1.5 * size / 72 / SCALE)


def _draw_terrain(ax: Any, s: GameState) -> list[pictures.Box]:
    """Each terrain piece filled by its traits (:func:`.draw_key.terrain_style`); a raised piece's
    height written on it. Returns the heights' boxes (kept clear of the units' numbers)."""
    from matplotlib.patches import Polygon

    raised = [t for t in s.setup.table.terrain if t.height > 0]
    for t in s.setup.table.terrain:
        ax.add_patch(Polygon(t.corners, closed=True, **draw_key.terrain_style(t.traits)))
    texts = [f'{t.height:g}"' for t in raised]
    sizes = [_text_size(x, FONT - 1) for x in texts]
    wanted = [(float(t.corners[:, 0].mean()), float(t.corners[:, 1].mean())) for t in raised]
    spots = pictures.place_labels(wanted, sizes)
    for text, (x, y) in zip(texts, spots, strict=True):
        ax.text(x, y, text, fontsize=FONT - 1, ha="center", va="center", parse_math=False)
    return [
        (x - sw / 2, y - sh / 2, x + sw / 2, y + sh / 2)
        for (x, y), (sw, sh) in zip(spots, sizes, strict=True)
    ]


def _draw_arrow(ax: Any, arrow: Arrow) -> None:
    """One of the round's arrows (:func:`.draw_key.arrows`): a two-leg move's first leg as a line
    to its waypoint, then the arrow."""
    kind, side, pts = arrow
    colour = SIDE_COLOURS[side] if kind == "shot" else "black" if kind != "move" else "gray"
    for (x0, y0), (x1, y1) in pairwise(pts[:-1]):  # the legs before the last
        ax.plot([x0, x1], [y0, y1], color=colour, lw=1.2)
    style = {"arrowstyle": "->", "color": colour, "lw": 1.2}
    if kind == "consolidation":
        style.update(lw=1.0, ls=":")
    elif kind == "shot":
        style.update(arrowstyle="-|>", lw=1.0, ls="--")
    ax.annotate("", pts[-1], pts[-2], arrowprops=style)


def _draw_units(
    ax: Any, end: GameState, taken: list[pictures.Box], gone: dict[int, tuple[tuple[float, float], ...]]
) -> None:
    """Every unit on the table at the round's end: its bases (hatched while pinned) and a
    Vehicle's front mark; a unit destroyed or routed in the round as its bases' grey rings where it
    last stood. Then each one's number (:func:`_draw_numbers`)."""
    from matplotlib.patches import Circle

    setup, units = end.setup, draw_key.drawn(end)
    for u, centres in gone.items():
        for x, y in centres:
            ax.add_patch(Circle((x, y), setup.radii[u], fill=False, ec="grey", lw=1, alpha=0.8))
    for u in units:
        c = SIDE_COLOURS[setup.owner[u]]
        extra = PINNED_STYLE if end.units[u].pinned else {}
        for x, y in end.models(u):
            ax.add_patch(Circle((x, y), setup.radii[u], fc=c, alpha=0.8, **extra))
        mark = front_mark(end, u)
        if mark is not None:
            (x0, y0), (x1, y1) = mark
            ax.annotate("", (x1, y1), (x0, y0), arrowprops={"arrowstyle": "-|>", "color": "white", "lw": 2})
    wanted = [_centre(end.models(u)) for u in units] + [_centre(c) for c in gone.values()]
    _draw_numbers(ax, end, [*units, *gone], wanted, taken, set(gone))


def _centre(points: Any) -> tuple[float, float]:
    xs, ys = [float(p[0]) for p in points], [float(p[1]) for p in points]
    return sum(xs) / len(xs), sum(ys) / len(ys)


def _draw_numbers(
    ax: Any,
    end: GameState,
    units: Sequence[int],
    wanted: list[tuple[float, float]],
    taken: list[pictures.Box],
    gone: set[int],
) -> None:
    """Each unit's number in its army's colour on a white badge (edged in the colour; grey for a
    unit gone), at its ``wanted`` spot or the nearest free one (:func:`.pictures.place_labels`),
    then joined to its spot by a thin line of its colour."""
    setup = end.setup
    sizes = [_text_size(str(u), FONT) for u in units]
    bounds = (0.0, 0.0, float(setup.table.width), float(setup.table.depth))
    spots = pictures.place_labels(wanted, sizes, taken, bounds)
    for u, (x, y), (wx, wy) in zip(units, spots, wanted, strict=True):
        colour = SIDE_COLOURS[setup.owner[u]]
        if (x, y) != (wx, wy):
            ax.plot([x, wx], [y, wy], color=colour, lw=0.8, zorder=2.5)
        edge = "grey" if u in gone else colour
        badge = {"boxstyle": "round,pad=0.15", "fc": "white", "ec": edge, "lw": 0.8, "alpha": 0.9}
        ax.text(
            x, y, str(u), fontsize=FONT, ha="center", va="center", color=colour, fontweight="bold", bbox=badge
        )


__all__ = ["draw_rounds", "figure", "front_mark"]
