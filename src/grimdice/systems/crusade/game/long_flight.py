"""IX FLY and JUMP PACK across gaps wider than the board's own air steps reach.

IX: "FLY: May move in any direction, but must end your move on a surface"; "JUMP PACK: may move
through the air (measure move as normal). Must end move standing on level terrain." A flier's move
is measured as any move, and only its end needs a surface: a gap however wide is crossed in one
step, straight across, as long as its move lasts (reading ``flight``).

On a table (:meth:`.table.TableBoard.flights` makes the air steps across gaps of up to 3 cells):
straight across a gap of more cells in one of the eight directions, every cell of it lower than
both ends, from a position outside buildings to a free one outside buildings, its cost the length
across plus the height up or down (V). On a grid (:func:`.flight.grid_flights`) straight over as
many squares holding models. Either reaches no farther than the longest move a model may have in
an activation (its move, an extra move, a charge's and FRENETIC's half moves: :data:`REACH`
moves); the rules offer those its budget pays.
"""

from __future__ import annotations

import math

from grimdice.engine.table.lattice import EIGHT
from grimdice.systems.crusade.game.board import Step
from grimdice.systems.crusade.game.state import GameState, Token
from grimdice.systems.crusade.game.table import MAX_GAP, TableBoard

#: the longest move a model may have in an activation, in moves (I: its move and an extra move; V
#: CHARGE and FRENETIC: a half move each)
REACH = 3


def reach(s: GameState, t: Token) -> int:
    """The farthest flier ``t`` may fly in one step (:data:`REACH` moves)."""
    return REACH * s.move_of(t)


def long_flights(s: GameState, t: Token) -> list[Step]:
    """On a table, the air steps of flier ``t`` across gaps wider than the board's own steps
    reach (module text), each to a free position; none on a grid."""
    return _table(s, t, reach(s, t)) if isinstance(s.setup.board, TableBoard) else []


def _table(s: GameState, t: Token, most: int) -> list[Step]:
    board, p = s.setup.board, t.sq
    assert isinstance(board, TableBoard)
    if board.indoors(p) >= 0:
        return []
    lat, occupied = board.lattice, s.occupied()
    out: list[Step] = []
    for dx, dy in EIGHT:
        length = math.hypot(dx, dy)
        high = -math.inf  # the gap's highest cell so far
        for k in range(2, most + 1):
            c, n = (p[0] + dx * (k - 1), p[1] + dy * (k - 1)), (p[0] + dx * k, p[1] + dy * k)
            if k * length > most or not lat.inside(n):
                break  # beyond any move, or off the table
            high = max(high, lat.blocks_at(c))
            if high >= p[2]:
                break  # no landing beyond has a gap lower than both ends
            if k <= MAX_GAP + 1:
                continue  # the board's own air steps
            for z in lat.levels_at(n):
                to = (n[0], n[1], z)
                if high < z and board.indoors(to) < 0 and to not in occupied:
                    out.append(("fly", to, k * length + abs(z - p[2])))
    return out


__all__ = ["REACH", "long_flights", "reach"]
