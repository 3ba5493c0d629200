"""A replayed game drawn round by round with matplotlib (the ``plot`` extra): the board (a grid's
walls, closed and open doors, air ducts, dark squares, manholes joined by a dotted line; a table's
terrain, buildings and heights, :mod:`.draw_table`),
objectives, items, and each model at the end of the round in its force's colour with its name
and number (a blip is a square with ``?``), its condition marked (S stunned, W wounded, KO
knocked out; killed models are gone, a face-down HORROR is a cross). The battle rules'
marks (:mod:`.marks`): sections still covered hatched grey (the models in them not drawn until
uncovered), reinforcement key points as diamonds in the force's colour (hollow once the group has
all come), the models that arrived in the round ringed in dashed green, each volley of the round as
arrows from every firer to every target, and each artillery crew joined to its gun (solid and
marked ``crew`` while in the gun's cover, dotted when not)."""

from __future__ import annotations

from collections.abc import Sequence
from itertools import pairwise
from pathlib import Path
from typing import Any

from grimdice.engine.grid import DOOR_CLOSED, DOOR_OPEN, DUCT, WALL
from grimdice.errors import printable
from grimdice.systems.crusade.damage import KO, STUNNED, WOUNDED
from grimdice.systems.crusade.game.state import GameState

COLOURS = ("tab:blue", "tab:red")
FLOOR_RGB, DARK_RGB, WALL_RGB = (1.0, 1.0, 1.0), (0.78, 0.8, 0.86), (0.3, 0.3, 0.3)
DOOR_RGB, OPEN_RGB, DUCT_RGB = (0.55, 0.3, 0.1), (0.87, 0.72, 0.53), (0.6, 0.7, 0.6)
COVERED_RGB = (0.7, 0.7, 0.7)  # X: a section covered up for exploration
MARKS = {STUNNED: "S", WOUNDED: "W", KO: "KO"}
MAX_LABEL = 14  # characters of a profile name drawn beside a model


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


def _label(s: GameState, i: int) -> str:
    t = s.tokens[i]
    name = "blip" if t.blip else s.setup.profiles[t.profile].name
    up = f' {t.sq[2]}"' if len(t.sq) == 3 and t.sq[2] else ""  # its height on a table
    return printable(name)[:MAX_LABEL] + f" #{i}{up}"


def draw_state(
    s: GameState, title: str, path: Path, volleys: Sequence[Any] = (), new: Sequence[int] = ()
) -> Path:
    """One picture of ``s`` written to ``path``, with the ``volleys``' arrows
    (:func:`.marks.volley_arrows`) and the models ``new`` on the board ringed."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from matplotlib.patches import Circle, Rectangle

    from grimdice.systems.crusade.game.draw_table import draw_table_marks, table_image
    from grimdice.systems.crusade.game.table import TableBoard

    board = s.setup.board
    table = board if isinstance(board, TableBoard) else None
    if table is None:
        grid = s.setup.grid
        width, height, image = grid.width, grid.height, _board(s)
    else:
        width, height, image = table.lattice.width, table.lattice.height, table_image(table)
    fig, ax = plt.subplots(figsize=(max(6.0, width * 0.55), max(4.0, height * 0.55 + 1)))
    ax.imshow(image, extent=(-0.5, width - 0.5, height - 0.5, -0.5), interpolation="nearest")
    ax.set_xticks(range(width))
    ax.set_yticks(range(height))
    ax.tick_params(labelsize=6)
    ax.set_title(title, fontsize=9, parse_math=False)
    for o in s.setup.scenario.objectives:
        colour = "gold" if o.side is None else COLOURS[o.side]
        for x, y in [*o.squares, *o.to] if o.kind != "item" else o.to:
            ax.add_patch(Rectangle((x - 0.45, y - 0.45), 0.9, 0.9, fill=False, ec=colour, lw=2, ls="--"))
    if table is None:
        for a, b in s.setup.grid.links:  # manholes (X: a 6" ladder), joined by a dotted line
            ax.plot(
                [a[0], b[0]], [a[1], b[1]], ls=":", color="black", lw=1, marker="o", mfc="none", markersize=14
            )
    else:
        draw_table_marks(ax, table)
    _battle_marks(ax, s, volleys, new)
    for where, carrier in s.items:
        x, y = (s.tokens[carrier].sq if carrier >= 0 else where)[:2]
        ax.plot([x + 0.3], [y - 0.3], marker="*", color="gold", markersize=12, markeredgecolor="black")
    for i, t in enumerate(s.tokens):
        x, y = t.sq[0], t.sq[1]
        colour = COLOURS[t.side]
        if t.blip:
            ax.add_patch(Rectangle((x - 0.35, y - 0.35), 0.7, 0.7, color=colour, alpha=0.6))
            ax.text(x, y, "?", ha="center", va="center", color="white", fontsize=9, parse_math=False)
        elif t.horror == 1 and not t.alive:
            ax.plot([x], [y], marker="x", color=colour, markersize=10)
        elif t.alive:
            ax.add_patch(Circle((x, y - 0.08), 0.3, color=colour, alpha=0.35 if t.cond >= KO else 0.85))
            if t.cond in MARKS:
                ax.text(x, y - 0.08, MARKS[t.cond], ha="center", va="center", color="white", fontsize=7)
        else:
            continue
        box = {"boxstyle": "round,pad=0.1", "fc": "white", "ec": "none", "alpha": 0.8}
        ax.text(
            x,
            y + 0.36,
            _label(s, i),
            ha="center",
            va="center",
            fontsize=5,
            color=colour,
            bbox=box,
            parse_math=False,
        )
    forces = [printable(f.name) for f in s.setup.scenario.forces]
    handles = [Circle((0, 0), 1, color=c) for c in COLOURS]
    ax.legend(handles, forces, loc="upper center", bbox_to_anchor=(0.5, -0.06), ncol=2, fontsize=7)
    fig.tight_layout()
    fig.savefig(path, dpi=90)
    plt.close(fig)
    return path


def _battle_marks(ax: Any, s: GameState, volleys: Sequence[Any], new: Sequence[int]) -> None:
    """Covered sections, key points, arrivals, volleys and crews (see the module text)."""
    from matplotlib.patches import Circle, Rectangle

    from grimdice.systems.crusade.game import marks

    for x, y in marks.covered_squares(s):
        ax.add_patch(Rectangle((x - 0.5, y - 0.5), 1, 1, fc=COVERED_RGB, ec="dimgrey", hatch="///", lw=0))
    for side, (x, y), coming in marks.key_points(s):
        fill = COLOURS[side] if coming else "none"
        ax.plot([x], [y], marker="D", markersize=13, mfc=fill, mec=COLOURS[side], alpha=0.45, mew=1.5)
    for k in new:
        x, y = s.tokens[k].sq[0], s.tokens[k].sq[1]
        ax.add_patch(Circle((x, y - 0.08), 0.4, fill=False, ec="tab:green", lw=2, ls="--"))
    for side, a, b in volleys:
        arrow = {"arrowstyle": "->", "color": COLOURS[side], "lw": 1.0, "alpha": 0.7}
        ax.annotate("", xy=b, xytext=a, arrowprops=arrow)
    for crewman, gun, cover in marks.crew_marks(s):
        (x, y), (gx, gy) = s.tokens[crewman].sq[:2], s.tokens[gun].sq[:2]
        ax.plot([x, gx], [y, gy], ls="-" if cover else ":", color=COLOURS[s.tokens[gun].side], lw=1.2)
        if cover:
            ax.text(x, y - 0.42, "crew", ha="center", va="center", fontsize=4, color="black")


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
        end = "" if not s.ended else (" - game over" if s.winner is None else _result(s))
        head = f"{printable(title)[:90]}\nround {rnd} (end){end}" if title else f"round {rnd} (end){end}"
        here = [k for k in new.get(rnd, []) if k < len(s.tokens) and s.tokens[k].on_board]
        out.append(draw_state(s, head, folder / f"round-{rnd}.png", volleys.get(rnd, []), here))
    return out


def _result(s: GameState) -> str:
    forces: list[Any] = [f.name for f in s.setup.scenario.forces]
    return " - a draw" if s.winner is None or s.winner < 0 else f" - {forces[s.winner]} wins"


__all__ = ["draw_rounds", "draw_state"]
