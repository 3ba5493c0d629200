"""The models an area effect centred on a point reaches (rules-crusade VI, VIII EXPLODE, X"; X's
hazard area on a grid): EXPLODE's attack and VOLATILE's and DETONATE's blasts around the bearer
(:mod:`.fails`), and an AREA or BLAST weapon's roll around its target (:mod:`.many`).

VI: "You may not spread an area or line effect weapon's attack between two buildings or sectors,
nor between a building and targets inside." VIII EXPLODE: "make an attack from the weapon, centered
on the bearer (SFT=1"A, FT=2"A, HFT=3"A)"; X: "Area effect for hazards will hit the square they are
in, plus all 8 adjacent squares."

Reading ``blast_walls``: an area effect reaches each model (not a blip, not killed) within its
radius of the centre (the board's range: squares on a grid, so radius 1 is X's 3 x 3 squares;
whole inches on a table) that it does not pass a wall to reach: on a table one in the centre's
sector, or outside with it (a blast outside, on a roof too, does not reach the models inside, nor
one inside those outside or in another sector), and seen from the centre (II's line of sight,
models not blocking it); on a grid one the centre sees past walls and closed doors (X: a diagonal
square behind two pinching walls is not reached), models not blocking it. The board's
:meth:`~.board.Board.blast_reaches` answers. The models come nearest first, then in reading order
(row, column, height).
"""

from __future__ import annotations

from grimdice.systems.crusade.game.board import Pos
from grimdice.systems.crusade.game.state import GameState


def models_around(s: GameState, centre: Pos, radius: int) -> tuple[int, ...]:
    """The tokens an area effect of ``radius`` centred at ``centre`` reaches (reading
    ``blast_walls``), nearest first, then in reading order."""
    board, doors = s.setup.board, s.doors()
    found = []
    for k, t in enumerate(s.tokens):
        if not t.alive or t.blip:
            continue
        far = board.range(centre, t.sq)
        if far <= radius and board.blast_reaches(centre, t.sq, doors):
            found.append((far, t.sq[1], t.sq[0], t.sq[2:], k))
    return tuple(k for *_, k in sorted(found))


__all__ = ["models_around"]
