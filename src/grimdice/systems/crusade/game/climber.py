"""IX CLIMB on a table: a CLIMB model's steps up or down any surface.

IX: "CLIMB: May climb up or down any surface as part of your move. Measure the distance as normal."
Reading ``climb``: on a table such a model also has ``["climb", x, y, z]``, a step to any level of
a cell around that no plain step reaches (up 2" or more: a block's or a building's wall, a ledge,
a catwalk; down 4" or more), or straight over a wall (a piece no model stands on, up to 3 cells
thick) to the cell beyond, without a ladder, a jump's roll, a scrabble's roll or a fall; its cost
is measured as V measures a move ("measure the vertical height and count it as part of your
move"): the inches across and the heights up and down, paid from the move left (an extra move's
too); a climb is made whole within the move, no model stopping part way up a surface. It follows
every step's rules (:meth:`.table.TableBoard.passage`): never through a roof or a wall, from a roof
into its building, from inside a building onto its roof, nor into a sector held by enemies alone
without a forced entry (VI). The jump up onto a cell beside that a climb reaches is not offered to
a climber (the climb costs less and needs no roll); drops, falls, hangs, scrabbles, ladders and
jumps across gaps stay. On a grid (no heights: a hulk's walls and closed doors reach its ceiling)
CLIMB changes nothing, and a manhole stays X's 6" ladder.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from functools import lru_cache

from grimdice.engine.table.lattice import EIGHT
from grimdice.systems.crusade.game.board import Occupied, Pos, Step
from grimdice.systems.crusade.game.scenario import Setup
from grimdice.systems.crusade.game.state import GameState, Token, has_code
from grimdice.systems.crusade.game.table import HEAD, MAX_DROP, MAX_GAP, TableBoard
from grimdice.systems.crusade.game.table_free import Placed, open_steps
from grimdice.systems.crusade.game.table_parts import answers, on_catwalk


def with_climbs(s: GameState, t: Token, steps: Sequence[Step], occupied: Occupied) -> Sequence[Step]:
    """Model ``t``'s ``steps`` (``occupied``: each model's position and force), and for a revealed
    CLIMB model on a table its climbs to free positions (reading ``climb``), less the jumps up onto
    a cell beside that a climb reaches."""
    board = s.setup.board
    if t.blip or not isinstance(board, TableBoard) or not _climber(s.setup, t.profile):
        return steps
    up = open_steps(board, t.sq, _static(board, t.sq), occupied, t.side, s.breaches)
    if not up:
        return steps
    reached = {to for _, to, _ in up}
    return [*(st for st in steps if not (st[0] == "jump" and st[1] in reached)), *up]


def climbs(s: GameState, t: Token) -> bool:
    """Whether model ``t`` climbs (IX CLIMB, revealed, on a table)."""
    return not t.blip and isinstance(s.setup.board, TableBoard) and _climber(s.setup, t.profile)


def climbs_from(board: TableBoard, p: Pos) -> tuple[Placed, ...]:
    """Every climb from ``p`` on the empty table, with the sector it enters (or -1)."""
    return _static(board, p)


@lru_cache(maxsize=1024)
def _climber(setup: Setup, profile: int) -> bool:
    """Whether the profile has IX CLIMB (kept per setup and profile)."""
    return has_code(setup.profiles[profile].abilities, "CLIMB")


def _static(board: TableBoard, p: Pos) -> tuple[Placed, ...]:
    """Every climb from ``p`` on the empty table, with the sector it enters (or -1); kept with the
    table. Off a catwalk a sector is entered without a forced entry (VI), as by its other steps."""
    kept = answers(board.memo, "climb")
    got = kept.get(p)
    if got is None:
        lat = board.lattice
        here = board.indoors(p)
        free_in = on_catwalk(board.structures, lat.levels_at((p[0], p[1])), p)
        found: list[Placed] = []
        for dx, dy in EIGHT:
            n = (p[0] + dx, p[1] + dy)
            for z in lat.levels_at(n):
                dz = z - p[2]
                if -MAX_DROP <= dz < HEAD or not board.passage(p, n, z):
                    continue  # a plain step's rise or drop, or no way there
                to = (n[0], n[1], z)
                there = board.indoors(to)
                into = there if there not in (-1, here) and not free_in else -1
                found.append(("climb", to, math.hypot(dx, dy) + abs(dz), into))
        if here < 0:
            found.extend(_over_walls(board, p))
        got = kept[p] = tuple(found)
    return got


def _over_walls(board: TableBoard, p: Pos) -> list[Placed]:
    """The climbs from ``p`` straight over a wall rising above its feet (cells no model stands on,
    at most :data:`~.table.MAX_GAP` thick) to the first cell beyond it, outside buildings: up to
    the wall's top (or the landing's height, if higher) and down to the landing, with the inches
    across (a wall below the feet is jumped, V JUMPING)."""
    lat = board.lattice
    out: list[Placed] = []
    for dx, dy in EIGHT:
        for k in range(2, MAX_GAP + 2):
            wall = (p[0] + dx * (k - 1), p[1] + dy * (k - 1))
            if not lat.inside(wall) or lat.levels_at(wall):
                break  # off the table, or no wall (any longer): no climb over it
            n = (p[0] + dx * k, p[1] + dy * k)
            if not lat.inside(n) or not lat.levels_at(n):
                continue  # the wall goes on
            top = max(lat.blocks_at((p[0] + dx * m, p[1] + dy * m)) for m in range(1, k))
            across = k * math.hypot(dx, dy)
            for z in lat.levels_at(n):
                peak = max(top, z)  # up the wall (and on up to a higher landing), then down
                if top > p[2] and board.indoors((n[0], n[1], z)) < 0:
                    out.append(("climb", (n[0], n[1], z), across + peak - p[2] + peak - z, -1))
            break
    return out


__all__ = ["climbs", "climbs_from", "with_climbs"]
