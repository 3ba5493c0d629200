"""What a round's picture (:mod:`.draw`) explains beside its board, worked out from the drawing's
inputs before anything is drawn:

- the legend: one entry for each kind of mark the picture holds, and only those (:func:`legend`):
  the forces, the board's squares (X SPACE HULKS: walls, floor, "any particular sections as in
  Darkness", "Air ducts / drains", manholes "as a 6" ladder"; a table's terrain,
  :func:`.draw_table.table_legend`), each objective by its name and what it asks, items, covered
  sections ("cover up sections ... for exploration purposes"), key points ("reinforcements may be
  brought in at key points"), arrivals, volleys (IX VOLLEY FIRE), crews (VIII ARTILLERY) and the
  models' conditions (stunned, wounded, "KNOCKED OUT (KO)", blips, a face-down HORROR);
- the model key: each model on the board drawn as its number, listed by force with its name,
  condition and height (:func:`model_key`);
- where each model is drawn: its square's centre, or side by side when models share a square
  (a catwalk over ground, VI) (:func:`spots`);
Laid out beside the board by :mod:`grimdice.engine.pictures` (the title wrapped, the legend's
columns, the key's sides).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from grimdice.engine.grid import DOOR_CLOSED, DOOR_OPEN, DUCT, WALL
from grimdice.engine.pictures import SIDE_COLOURS, Mark, numbered_key, shorten
from grimdice.engine.pictures import line as _line
from grimdice.engine.pictures import patch as _patch
from grimdice.errors import printable
from grimdice.systems.crusade.damage import KO, STUNNED, WOUNDED
from grimdice.systems.crusade.game import marks
from grimdice.systems.crusade.game.state import GameState

FLOOR_RGB, DARK_RGB, WALL_RGB = (1.0, 1.0, 1.0), (0.78, 0.8, 0.86), (0.3, 0.3, 0.3)
DOOR_RGB, OPEN_RGB, DUCT_RGB = (0.55, 0.3, 0.1), (0.87, 0.72, 0.53), (0.6, 0.7, 0.6)
COVERED_RGB = (0.7, 0.7, 0.7)  # X: a section covered up for exploration
MARKS = {STUNNED: "S", WOUNDED: "W", KO: "KO"}  # drawn at a model's foot
CONDITIONS = {STUNNED: "stunned", WOUNDED: "wounded", KO: "knocked out"}
MAX_NAME = 24  # characters of a profile name in the model key


def spots(s: GameState) -> dict[int, tuple[float, float, float]]:
    """Each model drawn on the board (alive, a blip, or a face-down HORROR): its centre and
    radius in squares. Models sharing a square (one on a catwalk, one under it) stand side by side
    in it, smaller."""
    here: dict[tuple[int, int], list[int]] = {}
    for i, t in enumerate(s.tokens):
        if t.on_board or t.blip:
            here.setdefault((int(t.sq[0]), int(t.sq[1])), []).append(i)
    out = {}
    for (x, y), ids in here.items():
        n = len(ids)
        for k, i in enumerate(ids):
            dx = 0.0 if n == 1 else (k - (n - 1) / 2) * (0.9 / n)
            out[i] = (x + dx, y - 0.08, 0.3 if n == 1 else 0.4 / n)
    return out


def model_line(s: GameState, i: int) -> str:
    """The model key's line for model ``i``: its number and name, then its condition, its
    height above the table, and whether it is hidden (V HIDING)."""
    t = s.tokens[i]
    name = "blip" if t.blip else printable(s.setup.profiles[t.profile].name)
    name = shorten(name, MAX_NAME)
    notes = []
    if t.horror == 1 and not t.alive:
        notes.append("face down")
    elif t.cond in CONDITIONS:
        notes.append(CONDITIONS[t.cond])
    if len(t.sq) == 3 and t.sq[2]:
        notes.append(f'{t.sq[2]}" up')
    if t.hidden:
        notes.append("hidden")
    return f"{i:>2}  {name}" + (f" ({', '.join(notes)})" if notes else "")


def model_key(s: GameState) -> list[tuple[str, int, bool]]:
    """The key's lines, force by force: (text, force, is a force's heading); the force's models
    no longer on the board (killed) are listed last by number."""
    drawn = spots(s)
    sides = []
    for side, force in enumerate(s.setup.scenario.forces):
        ids = [i for i in sorted(drawn) if s.tokens[i].side == side]
        gone = [str(i) for i, t in enumerate(s.tokens) if t.side == side and i not in drawn]
        lines = [model_line(s, i) for i in ids] + ([f"    killed: {', '.join(gone)}"] if gone else [])
        sides.append((force.name, lines))
    return numbered_key(sides)


def _grid_legend(s: GameState) -> list[Mark]:
    grid = s.setup.grid
    squares = [(x, y) for y in range(grid.height) for x in range(grid.width)]
    terrain = {grid.at(q) for q in squares}
    doors = [q for q in squares if grid.at(q) in (DOOR_CLOSED, DOOR_OPEN)]
    floor = [q for q in squares if grid.at(q) not in (WALL, DOOR_CLOSED, DOOR_OPEN, DUCT)]
    out = [_patch("wall", "wall", fc=WALL_RGB)] if WALL in terrain else []
    if any(not grid.is_dark(q) for q in floor):
        out.append(_patch("floor", "floor", fc=FLOOR_RGB, ec="grey"))
    if any(grid.is_dark(q) for q in floor):
        out.append(_patch("dark floor: counts as cover", "dark", fc=DARK_RGB))
    if any(q not in s.open_doors for q in doors):
        out.append(_patch("closed door", "door closed", fc=DOOR_RGB))
    if any(q in s.open_doors for q in doors):
        out.append(_patch("open door", "door open", fc=OPEN_RGB))
    if DUCT in terrain:
        out.append(_patch("air duct: armour 1 or less, dark", "duct", fc=DUCT_RGB))
    if grid.links:
        out.append(
            _line('manholes: a 6" ladder between them', "manhole", ls=":", c="black", marker="o", mfc="none")
        )
    return out


def _objective(s: GameState, k: int) -> Mark:
    o = s.setup.scenario.objectives[k]
    forces = [printable(f.name) for f in s.setup.scenario.forces]
    who = "either force" if o.side is None else forces[o.side]
    name = printable(o.name)
    if o.kind == "reach":
        words = f"{name}: reaching it wins ({who})"
    elif o.kind == "item":
        words = f"{name}: carrying the item here wins ({who})"
    else:
        pts = f"{o.points} point" + ("s" if o.points != 1 else "")
        words = f"{name}: {pts} if alone on it at the end ({who})"
    colour = "gold" if o.side is None else SIDE_COLOURS[o.side]
    return _patch(words, "objective", fill=False, ec=colour, lw=2, ls="--")


def _model_legend(s: GameState) -> list[Mark]:
    toks = [s.tokens[i] for i in spots(s)]
    out = []
    if any(t.alive and not t.blip for t in toks):
        out.append(_line("model: its number (see the key)", "model", ls="", marker="o", c="grey", ms=10))
    if any(t.blip for t in toks):
        out.append(_line("blip: its models unknown", "blip", ls="", marker="s", c="grey", alpha=0.6, ms=10))
    if any(t.horror == 1 and not t.alive for t in toks):
        out.append(_line("HORROR lying face down", "horror", ls="", marker="x", c="grey", ms=10))
    words = {STUNNED: "S: stunned", WOUNDED: "W: wounded", KO: "KO: knocked out (faded)"}
    for cond in (STUNNED, WOUNDED, KO):
        if any(t.alive and t.cond == cond for t in toks):
            out.append(_line(words[cond], MARKS[cond], ls="", marker=f"${MARKS[cond]}$", c="black", ms=10))
    if any(len(t.sq) == 3 and t.sq[2] for t in toks):
        out.append(_line('n": standing n" up', "height", ls="", marker="$4''$", c="black", ms=10))
    return out


def _battle_legend(s: GameState, volleys: Sequence[Any], new: Sequence[int]) -> list[Mark]:
    out = []
    if marks.covered_squares(s):
        out.append(
            _patch(
                "covered section (its models unseen)", "covered", fc=COVERED_RGB, ec="dimgrey", hatch="///"
            )
        )
    points = marks.key_points(s)
    for coming, words in ((True, "key point: reinforcements to come"), (False, "key point: all arrived")):
        if any(c == coming for _, _, c in points):
            fill = "grey" if coming else "none"
            out.append(
                _line(
                    words,
                    "key point" if coming else "key point done",
                    ls="",
                    marker="D",
                    mfc=fill,
                    mec="grey",
                )
            )
    if any(k in spots(s) for k in new):
        out.append(
            _line("arrived this round", "arrived", ls="", marker="o", mfc="none", mec="tab:green", ms=12)
        )
    if volleys:
        out.append(_line("volley this round: firer to target", "volley", c="grey", marker=">", markevery=[1]))
    crews = marks.crew_marks(s)
    if any(cover for _, _, cover in crews):
        out.append(_line("crew in its gun's cover", "crew", c="grey"))
    if any(not cover for _, _, cover in crews):
        out.append(_line("crew out of its gun's cover", "crew apart", c="grey", ls=":"))
    return out


def legend(s: GameState, volleys: Sequence[Any] = (), new: Sequence[int] = ()) -> list[Mark]:
    """Every kind of mark the picture of ``s`` holds, each once (see the module text)."""
    from grimdice.systems.crusade.game.draw_table import table_legend
    from grimdice.systems.crusade.game.table import TableBoard

    forces = [printable(f.name) for f in s.setup.scenario.forces]
    out = [_line(name, "force", ls="", marker="o", c=SIDE_COLOURS[k], ms=10) for k, name in enumerate(forces)]
    board = s.setup.board
    out += table_legend(board) if isinstance(board, TableBoard) else _grid_legend(s)
    out += [_objective(s, k) for k in range(len(s.setup.scenario.objectives))]
    if s.items:
        out.append(
            _line("item (beside its carrier)", "item", ls="", marker="*", c="gold", mec="black", ms=12)
        )
    return out + _battle_legend(s, volleys, new) + _model_legend(s)


__all__ = ["legend", "model_key", "model_line", "spots"]
