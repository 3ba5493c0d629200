"""A replayed game drawn round by round with matplotlib (the ``plot`` extra): the board (a grid's
walls, closed and open doors, air ducts, dark squares, manholes joined by a dotted line; a table's
terrain, buildings and heights, :mod:`.draw_table`), objectives, items, and each model at the end
of the round as a disc in its force's colour with its number on it (a blip is a square with ``?``,
a face-down HORROR a cross), its condition at its foot (S stunned, W wounded, KO knocked out, the
disc faded) and on a table its height (``4"``); killed models are gone. The battle rules' marks
(:mod:`.marks`): sections still covered hatched grey (the models in them not drawn until
uncovered), reinforcement key points as diamonds in the force's colour (hollow once the group has
all come), the models that arrived in the round ringed in dashed green, each volley of the round as
arrows from every firer to every target, and each artillery crew joined to its gun (solid while in
the gun's cover, dotted when not).

Beside the board (:mod:`.draw_key`, laid out by :mod:`grimdice.engine.pictures`): the model key
(each number's name, condition and height, by force) to the right, the legend of every kind of mark
in the picture below, the title wrapped above."""

from __future__ import annotations

from collections.abc import Sequence
from itertools import pairwise
from pathlib import Path
from typing import Any

from grimdice.engine import pictures
from grimdice.engine.grid import DOOR_CLOSED, DOOR_OPEN, DUCT, WALL
from grimdice.engine.pictures import SIDE_COLOURS
from grimdice.errors import printable
from grimdice.systems.crusade.damage import KO
from grimdice.systems.crusade.game import draw_key
from grimdice.systems.crusade.game.draw_key import (
    COVERED_RGB,
    DARK_RGB,
    DOOR_RGB,
    DUCT_RGB,
    FLOOR_RGB,
    MARKS,
    OPEN_RGB,
    WALL_RGB,
)
from grimdice.systems.crusade.game.state import GameState

SQUARE = 0.5  # inches a square is drawn
DPI = 90
FONT = 8  # points: the labels, the key and the legend
KEY_WIDTH = 2.5  # inches the model key takes to the right of the board


def _board(s: GameState) -> list[list[tuple[float, float, float]]]:
    grid = s.setup.grid
    rows = []
    for y in range(grid.height):
        row = []
        for x in range(grid.width):
            t = grid.at((x, y))
            if t == WALL:
                row.append(WALL_RGB)
            elif t in (DOOR_CLOSED, DOOR_OPEN):
                row.append(OPEN_RGB if (x, y) in s.open_doors else DOOR_RGB)
            elif t == DUCT:
                row.append(DUCT_RGB)
            else:
                row.append(DARK_RGB if grid.is_dark((x, y)) else FLOOR_RGB)
        rows.append(row)
    return rows


def draw_state(
    s: GameState, title: str, path: Path, volleys: Sequence[Any] = (), new: Sequence[int] = ()
) -> Path:
    """One picture of ``s`` written to ``path``, with the ``volleys``' arrows
    (:func:`.marks.volley_arrows`) and the models ``new`` on the board ringed."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig = figure(s, title, volleys, new)
    fig.savefig(path, dpi=DPI, bbox_inches="tight", pad_inches=0.15)
    plt.close(fig)
    return path


def figure(s: GameState, title: str, volleys: Sequence[Any] = (), new: Sequence[int] = ()) -> Any:
    """The matplotlib figure of :func:`draw_state` (its board axes first in ``fig.axes``)."""
    from grimdice.systems.crusade.game.draw_table import draw_table_marks, table_image
    from grimdice.systems.crusade.game.table import TableBoard

    board = s.setup.board
    table = board if isinstance(board, TableBoard) else None
    if table is None:
        grid = s.setup.grid
        width, height, image = grid.width, grid.height, _board(s)
    else:
        width, height, image = table.lattice.width, table.lattice.height, table_image(table)
    w, h = width * SQUARE, height * SQUARE
    fig, ax = pictures.board_axes(w, h)
    ax.imshow(image, extent=(-0.5, width - 0.5, height - 0.5, -0.5), interpolation="nearest")
    ax.set_xticks(range(width))
    ax.set_yticks(range(height))
    ax.tick_params(labelsize=FONT - 1)
    spots = draw_key.spots(s)
    if table is None:
        for a, b in s.setup.grid.links:  # manholes (X: a 6" ladder), joined by a dotted line
            ax.plot(
                [a[0], b[0]], [a[1], b[1]], ls=":", color="black", lw=1, marker="o", mfc="none", markersize=14
            )
    else:
        occupied = {(int(s.tokens[i].sq[0]), int(s.tokens[i].sq[1])) for i in spots}
        draw_table_marks(ax, table, occupied, SQUARE)
    _objectives(ax, s)
    _battle_marks(ax, s, volleys, new, spots)
    for where, carrier in s.items:
        x, y = (s.tokens[carrier].sq if carrier >= 0 else where)[:2]
        ax.plot([x + 0.3], [y - 0.3], marker="*", color="gold", markersize=12, markeredgecolor="black")
    for i, spot in spots.items():
        _model(ax, s, i, spot)
    ax.set_title(pictures.wrap_title(title, w + KEY_WIDTH, FONT + 1), fontsize=FONT + 1, parse_math=False)
    _model_key(ax, s, h)
    _legend(ax, s, volleys, new, w, h)
    return fig


def _objectives(ax: Any, s: GameState) -> None:
    """Each objective's squares boxed dashed in its force's colour (gold: either force's); a square
    boxed twice gets the second box inside the first."""
    from matplotlib.patches import Rectangle

    boxed: dict[tuple[int, int], int] = {}
    for o in s.setup.scenario.objectives:
        colour = "gold" if o.side is None else SIDE_COLOURS[o.side]
        for x, y in [*o.squares, *o.to] if o.kind != "item" else o.to:
            inset = 0.45 - 0.1 * boxed.get((x, y), 0)
            boxed[(x, y)] = boxed.get((x, y), 0) + 1
            box = Rectangle(
                (x - inset, y - inset), 2 * inset, 2 * inset, fill=False, ec=colour, lw=2, ls="--"
            )
            ax.add_patch(box)


def _model(ax: Any, s: GameState, i: int, spot: tuple[float, float, float]) -> None:
    """Model ``i`` at ``spot`` (centre and radius): its disc (square for a blip, cross for a
    face-down HORROR) with its number, its condition and height at its foot."""
    from matplotlib.patches import Circle, Rectangle

    t, (x, y, r) = s.tokens[i], spot
    colour, size = SIDE_COLOURS[t.side], FONT if r >= 0.3 else FONT - 2
    text = {"ha": "center", "va": "center", "fontsize": size, "parse_math": False}
    if t.blip:
        ax.add_patch(
            Rectangle((x - r - 0.05, y - r - 0.05), 2 * r + 0.1, 2 * r + 0.1, color=colour, alpha=0.6)
        )
        ax.text(x, y, f"?{i}", color="white", fontweight="bold", **text)
    elif not t.alive:  # a face-down HORROR (IX)
        ax.plot([x], [y], marker="x", color=colour, markersize=10 * r / 0.3, mew=2)
        ax.text(x + r, y - r, str(i), color=colour, fontweight="bold", **text)
    else:
        ax.add_patch(Circle((x, y), r, color=colour, alpha=0.35 if t.cond >= KO else 0.9))
        ax.text(x, y, str(i), color="white" if t.cond < KO else "black", fontweight="bold", **text)
    badge = {"boxstyle": "round,pad=0.1", "fc": "white", "ec": "none", "alpha": 0.85}
    foot = y + 0.44
    if t.alive and t.cond in MARKS:
        ax.text(
            x + 0.8 * r,
            foot,
            MARKS[t.cond],
            color="black",
            fontweight="bold",
            bbox=badge,
            **{**text, "fontsize": size - 1},
        )
    if len(t.sq) == 3 and t.sq[2]:
        ax.text(x - 0.8 * r, foot, f'{t.sq[2]}"', color="black", bbox=badge, **{**text, "fontsize": size - 1})


def _model_key(ax: Any, s: GameState, h: float) -> None:
    """The model key to the right of the board: each force's name, then its models' lines, in as
    many columns as the board's height needs."""
    pictures.draw_key(ax, draw_key.model_key(s), SIDE_COLOURS, h, FONT, "Models")


def _legend(ax: Any, s: GameState, volleys: Sequence[Any], new: Sequence[int], w: float, h: float) -> None:
    """The legend below the board: one entry per kind of mark in the picture."""
    pictures.draw_legend(ax, draw_key.legend(s, volleys, new), w + KEY_WIDTH, h, FONT)


def _battle_marks(
    ax: Any,
    s: GameState,
    volleys: Sequence[Any],
    new: Sequence[int],
    spots: dict[int, tuple[float, float, float]],
) -> None:
    """Covered sections, key points, arrivals, volleys and crews (see the module text)."""
    from matplotlib.patches import Circle, Rectangle

    from grimdice.systems.crusade.game import marks

    for x, y in marks.covered_squares(s):
        ax.add_patch(Rectangle((x - 0.5, y - 0.5), 1, 1, fc=COVERED_RGB, ec="dimgrey", hatch="///", lw=0))
    for side, (x, y), coming in marks.key_points(s):
        fill = SIDE_COLOURS[side] if coming else "none"
        ax.plot([x], [y], marker="D", markersize=13, mfc=fill, mec=SIDE_COLOURS[side], alpha=0.45, mew=1.5)
    for k in (k for k in new if k in spots):
        cx, cy, r = spots[k]
        ax.add_patch(Circle((cx, cy), r + 0.1, fill=False, ec="tab:green", lw=2, ls="--"))
    for side, a, b in volleys:
        arrow = {"arrowstyle": "->", "color": SIDE_COLOURS[side], "lw": 1.0, "alpha": 0.7}
        ax.annotate("", xy=b, xytext=a, arrowprops=arrow)
    for crewman, gun, cover in marks.crew_marks(s):
        (x, y), (gx, gy) = s.tokens[crewman].sq[:2], s.tokens[gun].sq[:2]
        ax.plot([x, gx], [y, gy], ls="-" if cover else ":", color=SIDE_COLOURS[s.tokens[gun].side], lw=1.2)


def draw_rounds(states: Sequence[GameState], folder: Path, actions: Sequence[Any] = ()) -> list[Path]:
    """One picture per round (``round-N.png``), of the last state of the round, with the round's
    volleys (from ``actions``, the game's actions from ``states[0]``) and arrivals."""
    from grimdice.systems.crusade.game import marks

    folder.mkdir(parents=True, exist_ok=True)
    last: dict[int, GameState] = {}
    new: dict[int, list[int]] = {}
    for s, n in pairwise(states):
        new.setdefault(n.round, []).extend(marks.arrived(s, n))
    for s in states:
        if s.round >= 1:
            last[s.round] = s
    volleys = marks.volleys_by_round(states, actions)
    title = states[0].setup.scenario.title if states else ""
    out = []
    for rnd, s in sorted(last.items()):
        end = "" if not s.ended else (" - game over" if s.winner is None else _result(s, s.winner))
        head = f"{printable(title)}\nround {rnd} (end){end}" if title else f"round {rnd} (end){end}"
        here = [k for k in new.get(rnd, []) if k < len(s.tokens) and s.tokens[k].on_board]
        out.append(draw_state(s, head, folder / f"round-{rnd}.png", volleys.get(rnd, []), here))
    return out


def _result(s: GameState, winner: int) -> str:
    """The title's end of a game over: a draw (``winner`` -1), else the winning force's name."""
    forces: list[Any] = [f.name for f in s.setup.scenario.forces]
    return " - a draw" if winner < 0 else f" - won by {forces[winner]}"


__all__ = ["draw_rounds", "draw_state", "figure"]
