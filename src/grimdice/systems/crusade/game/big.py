"""IX BIG and buildings on a table: "They may only enter a building directly through a Forced Entry
marker, and do not gain cover inside" (the cover is the calculator's: BIG models take none but
smoke and darkness).

Reading ``big_entry``: a BIG model's step into a building's sector (from outside it or from another
sector; by a door, a roof hatch, stairs or off a catwalk alike) is made only from a forced entry
marker of that sector, or a position within 1" of one; it may force an entry into any sector
beside it (VI FORCE ENTRY's attack), held by enemies or not, since it has no other way in.
"""

from __future__ import annotations

from collections.abc import Sequence

from grimdice.systems.crusade.game.board import Step
from grimdice.systems.crusade.game.state import GameState
from grimdice.systems.crusade.game.table import TableBoard

#: how near a forced entry marker a BIG model steps in from (ours: within 1", touching it)
MARKER_REACH = 1


def is_big(s: GameState, i: int) -> bool:
    t = s.tokens[i]
    return not t.blip and s.setup.fighters[t.profile].has("big")


def entering(s: GameState, steps: Sequence[Step]) -> Sequence[Step]:
    """The active model's ``steps`` less, for a BIG model on a table, those into a sector not made
    from a forced entry marker of it."""
    board = s.setup.board
    if not isinstance(board, TableBoard) or not is_big(s, s.active):
        return steps
    here = s.tokens[s.active].sq
    inside = board.indoors(here)
    near = {k for m, k in s.breaches if board.range(here, m) <= MARKER_REACH}
    out = []
    for step in steps:
        to = board.indoors(step[1])
        if to < 0 or to == inside or to in near:
            out.append(step)
    return out


__all__ = ["MARKER_REACH", "entering", "is_big"]
