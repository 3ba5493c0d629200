"""VIII KNOCKBACK off an edge on a table: "If they move past a railing (no roof) or off an edge, they
fall." V FALLING: "For every 4" you fall, take 1 hit (graze = stun)."

Reading ``knockback_edge``: a model knocked back towards a cell of the table with no place at its
height there but a lower one (off a block, a roof's edge, a catwalk) moves to that cell's highest
place below its feet, as onto open ground (no stun for the knockback itself), and falls the drop:
V FALLING's hits (IX FLY takes none). A cell rising above its feet is still "a wall or piece of
cover" (a stun, it stays).
"""

from __future__ import annotations

from grimdice.systems.crusade.game.board import Pos
from grimdice.systems.crusade.game.state import GameState
from grimdice.systems.crusade.game.table import TableBoard
from grimdice.systems.crusade.movement import falling


def landing(s: GameState, sq: Pos) -> Pos | None:
    """Where a model knocked back towards ``sq`` (its cell, at its feet's height) lands when that
    is off an edge: the cell's highest place below, free; else None."""
    board = s.setup.board
    if not isinstance(board, TableBoard) or board.obstacle(sq, {}):
        return None
    below = [z for z in board.lattice.levels_at((sq[0], sq[1])) if z < sq[2]]
    if not below:
        return None
    to = (sq[0], sq[1], max(below))
    return to if s.occupant(to) < 0 else None


def falls(before: GameState, after: GameState, who: tuple[int, ...]) -> GameState:
    """The falls of the models ``who`` an attack's knockback moved down (``before``: the state
    before the attack), on the states the attack left them in."""
    for k in who:
        b, a = before.tokens[k].sq, after.tokens[k].sq
        if len(a) == 3 and a != b and a[2] < b[2]:
            after = fell(after, k, b[2] - a[2])
    return after


def fell(s: GameState, who: int, height: float) -> GameState:
    """V FALLING on token ``who``, knocked back ``height`` inches down."""
    t = s.tokens[who]
    if height < 4 or t.blip:
        return s
    body = s.setup.fighters[t.profile].body
    cond, hits = falling(height, (t.cond, t.hits), body, fly=body.fly)
    return s.with_token(who, cond=cond, hits=hits)


__all__ = ["falls", "fell", "landing"]
