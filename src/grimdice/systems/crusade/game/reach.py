"""The board's answers to the game's geometric questions about weapons that reach several models
and about knockback (rules-crusade VIII FLAMER TEMPLATE, X", BLAST, LINE EFFECT, KNOCKBACK; X on a
grid). Every such question the rules ask of the board is here, so that another board can answer
them in its own way.

* :func:`template_squares` — VIII FLAMER TEMPLATE: "Roll seperately for each target touched by the
  template"; "FT= Flamer template (8" long, 2.5" Dia). SFT= hand flamer (4" long, 2" Dia). HFT=
  heavy flamer(10" long, 3" Dia)"; X: "except template weapons like flamers (which still use their
  templates)". Reading ``grid_template``: one square is an inch; the template is laid from the
  firer towards the target's square, and touches each square whose centre lies beyond the firer
  by at most the template's length along that line and within half its diameter of it, is not a
  wall or closed door, and that the firer sees past walls and closed doors (models do not stop a
  flame).
* :func:`line_squares` — VIII LINE: "Draw a line from the firer through any eligible models" (reading
  ``grid_line``: the line from the firer's centre through the target's, on to a wall, a closed
  door or the board's edge).

Knockback's place beyond a model is the board's (:meth:`.board.Board.beyond`, ``obstacle``). On a
table (:mod:`.table`) the same shapes are laid over its 1" cells (:func:`template_cells`,
:func:`line_cells`; readings ``table_template``, ``table_line``). An area or blast (X" areas and
BLAST; X: "Area effect for hazards will hit the square they are in, plus all 8 adjacent squares")
reaches the models around its centre that it does not pass a wall to reach (:mod:`.around`,
readings ``grid_area``, ``table_area``, ``blast_walls``).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from fractions import Fraction

from grimdice.engine.grid import Grid, Square, walk

#: VIII: each flamer template's (length, diameter) in inches, a square an inch on a grid
TEMPLATE_SIZE: dict[str, tuple[Fraction, Fraction]] = {
    "SFT": (Fraction(4), Fraction(2)),
    "FT": (Fraction(8), Fraction(5, 2)),
    "HFT": (Fraction(10), Fraction(3)),
}

Doors = Mapping[Square, bool]


def template_squares(
    grid: Grid, firer: Square, target: Square, code: str, doors: Doors, among: Iterable[Square] | None = None
) -> list[Square]:
    """The squares a flamer template (``code``: SFT, FT, HFT) laid from ``firer`` towards
    ``target`` touches (reading ``grid_template``), nearest the firer first, then in reading order;
    empty when the target lies beyond the template's length. Only the squares ``among`` are
    looked at, if given (the squares holding models). Exact rational arithmetic."""
    n = int(TEMPLATE_SIZE[code][0]) + 1
    box = ((firer[0] + dx, firer[1] + dy) for dy in range(-n, n + 1) for dx in range(-n, n + 1))
    looked = (q for q in (box if among is None else among) if grid.inside(q))
    return [
        sq
        for sq in template_cells(firer, target, code, looked)
        if not grid.blocks_sight(sq, doors) and grid.sight(firer, sq, doors)
    ]


def template_cells(firer: Square, target: Square, code: str, among: Iterable[Square]) -> list[Square]:
    """The cells of ``among`` a flamer template laid flat from ``firer``'s cell towards
    ``target``'s touches: each whose centre lies beyond the firer by at most the template's length
    along that line and within half its diameter of it (a cell an inch), nearest the firer first,
    then in reading order; none when the target lies beyond the length. Exact arithmetic."""
    length, diameter = TEMPLATE_SIZE[code]
    vx, vy = target[0] - firer[0], target[1] - firer[1]
    norm2 = vx * vx + vy * vy
    if norm2 == 0 or norm2 > length * length:
        return []
    out = []
    for sq in among:
        dx, dy = sq[0] - firer[0], sq[1] - firer[1]
        along = dx * vx + dy * vy  # |v| times the distance along the line
        across = dx * vy - dy * vx  # |v| times the distance from the line
        if along <= 0 or along * along > length * length * norm2:
            continue
        if 4 * across * across > diameter * diameter * norm2:
            continue
        out.append((dx * dx + dy * dy, sq[1], sq[0]))
    return [(x, y) for _, y, x in sorted(out)]


def line_squares(grid: Grid, firer: Square, target: Square, doors: Doors) -> list[Square]:
    """VIII LINE (reading ``grid_line``): the squares the line from the firer's centre through the
    target's centre enters, in order, up to (not including) the first wall or closed door or the
    board's edge; a pass exactly through a corner stops only if both pinching squares block."""
    reach = (grid.width + grid.height) // max(abs(target[0] - firer[0]), abs(target[1] - firer[1]), 1) + 1
    return line_cells(firer, target, reach, lambda sq: grid.blocks_sight(sq, doors))


def line_cells(firer: Square, target: Square, k: int, blocks: Callable[[Square], bool]) -> list[Square]:
    """The cells the line from ``firer``'s centre through ``target``'s enters, in order, out to
    ``k`` times the step between them, up to (not including) the first cell that ``blocks``; a
    pass exactly through a corner stops only if both pinching cells block."""
    vx, vy = target[0] - firer[0], target[1] - firer[1]
    if (vx, vy) == (0, 0):
        return []
    far = (firer[0] + k * vx, firer[1] + k * vy)
    out: list[Square] = []
    for kind, sq, pinch in walk(firer, far):
        if kind == "corner":
            if all(blocks(p) for p in pinch):
                break
            continue
        if blocks(sq):  # off the board is a wall
            break
        out.append(sq)
    return out


__all__ = [
    "TEMPLATE_SIZE",
    "line_cells",
    "line_squares",
    "template_cells",
    "template_squares",
]
