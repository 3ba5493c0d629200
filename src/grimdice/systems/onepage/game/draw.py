"""A logged game drawn round by round with matplotlib (the ``plot`` extra): terrain, bases, unit
labels, Vehicle facings (a white front mark from the hull's centre along its heading), moves (grey
arrows), consolidations (black dotted arrows), shots (army-coloured arrows) and assaults (black
arrows)."""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any

from grimdice.systems.onepage.game import facing, legs
from grimdice.systems.onepage.game.consolidation import KIND
from grimdice.systems.onepage.game.play import states
from grimdice.systems.onepage.game.state import GameState

COLOURS = ("tab:blue", "tab:red")
TERRAIN = {
    "impassable": "dimgray",
    "blocks_sight": "sienna",
    "cover": "forestgreen",
    "dangerous": "orange",
    "difficult": "olive",
}


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
    setup = sts[0].setup
    out: list[Path] = []
    for rnd in sorted({s.round for s in sts if s.units}):
        steps = [
            (s, a, n)
            for s, a, n in zip(sts, log["actions"], sts[1:], strict=False)
            if s.units and s.round == rnd
        ]
        if not steps:
            continue
        end = steps[-1][2]
        fig, ax = plt.subplots(figsize=(12, 8))
        ax.set_xlim(0, setup.table.width)
        ax.set_ylim(0, setup.table.depth)
        ax.set_aspect("equal")
        ax.set_title(f"Round {rnd} (end): scores {end.returns()[0]:g} - {end.returns()[1]:g}")
        _draw_terrain(ax, setup)
        for s, a, n in steps:
            _draw_step(ax, s, a, n)
        _draw_units(ax, end)
        path = folder / f"round-{rnd}.png"
        fig.savefig(path, dpi=80)
        plt.close(fig)
        out.append(path)
    return out


def _draw_terrain(ax: Any, setup: Any) -> None:
    """Each terrain piece, coloured by its first trait, with its name."""
    from matplotlib.patches import Polygon

    for t in setup.table.terrain:
        trait = next((k for k in TERRAIN if t.has(k)), None)
        ax.add_patch(Polygon(t.corners, closed=True, color=TERRAIN.get(trait or "", "khaki"), alpha=0.45))
        cx, cy = t.corners.mean(axis=0)
        ax.text(cx, cy, t.name, fontsize=6, ha="center", va="center")


def _draw_step(ax: Any, s: GameState, a: Any, n: GameState) -> None:
    """One step's arrow: a move (grey; an assault black), a consolidation (black dotted), a shot
    (the army's colour, one per target)."""
    if s.phase == "play" and a[0] in ("walk", "run", "assault"):
        u = int(a[1])
        (x0, y0), (x1, y1) = s.anchors[u], n.anchors[u]
        colour = "black" if a[0] == "assault" else "gray"
        mid = legs.via(s, u, a)
        if mid is not None:  # a two-leg move: the first leg to the waypoint, then the arrow
            xm, ym = mid.anchors[u]
            ax.plot([x0, xm], [y0, ym], color=colour, lw=1.2)
            x0, y0 = xm, ym
        ax.annotate("", (x1, y1), (x0, y0), arrowprops={"arrowstyle": "->", "color": colour, "lw": 1.2})
    if s.phase == KIND and (a[2], a[3]) != (0.0, 0.0):
        u = int(a[1])
        x0, y0 = s.anchors[u]
        style = {"arrowstyle": "->", "color": "black", "lw": 1.0, "ls": ":"}
        ax.annotate("", (x0 + a[2], y0 + a[3]), (x0, y0), arrowprops=style)
    if s.phase == "combat" and s.pending[0] == "shoot":
        _, u, t, _ = s.pending
        p, q = s.models(u).mean(axis=0), s.models(t).mean(axis=0)
        c = COLOURS[s.setup.owner[u]]
        ax.annotate("", q, p, arrowprops={"arrowstyle": "-|>", "color": c, "lw": 1, "ls": "--"})


def _draw_units(ax: Any, end: GameState) -> None:
    """Every unit on the table at the round's end: its bases, a Vehicle's front mark, its label."""
    from matplotlib.patches import Circle

    setup = end.setup
    for u, unit in enumerate(setup.units):
        if end.units[u].destroyed or not end.on_table(u):
            continue
        c = COLOURS[setup.owner[u]]
        for x, y in end.models(u):
            ax.add_patch(Circle((x, y), setup.radii[u], color=c, alpha=0.8))
        mark = front_mark(end, u)
        if mark is not None:
            (x0, y0), (x1, y1) = mark
            ax.annotate("", (x1, y1), (x0, y0), arrowprops={"arrowstyle": "-|>", "color": "white", "lw": 2})
        x, y = end.models(u).mean(axis=0)
        label = unit.name + (" (pinned)" if end.units[u].pinned else "")
        ax.text(x, y + 2.2, label, fontsize=7, ha="center", color=c)


__all__ = ["draw_rounds", "front_mark"]
