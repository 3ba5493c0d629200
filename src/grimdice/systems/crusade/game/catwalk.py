"""VI: melee from a catwalk through a building's wall.

VI DAMAGE: "You may not melee through walls (exception: models on catwalks may melee a blocking
model)." VI MOVEMENT: "If you can move into a building via the roof or a catwalk, ramp, or stairs,
you do not have to force entry or be adjacent to move inside. ... You may not melee through walls
unless from a catwalk."

Reading ``catwalk_melee``: a "blocking model" is an enemy standing inside a building's sector where
the catwalk model's way into the building leads: a model standing on a catwalk (at the catwalk's
height, on one of its cells) may melee an enemy model in a sector when one of its steps from where
it stands (V: a step to a cell around, a drop, a fall or a hang and drop; not a ladder or stairs,
whose far end V's awkward melee covers) would land where the enemy stands. The two are not adjacent
under IV (a wall stands between them, and their feet are more than 1" apart): the melee is the
calculator's melee as any other.
"""

from __future__ import annotations

from grimdice.systems.crusade.game.board import Pos
from grimdice.systems.crusade.game.state import GameState
from grimdice.systems.crusade.game.table import TableBoard
from grimdice.systems.crusade.game.table_parts import answers
from grimdice.systems.crusade.game.table_parts import on_catwalk as standing_on

STEPS_IN = ("move", "fall", "hang", "jump")  # V: the steps of the model's own legs, not ladders


def on_catwalk(board: TableBoard, p: Pos) -> bool:
    """Whether ``p`` stands on a catwalk (on one of its cells, at its height; not a destroyed one,
    which lies on the ground, VI); kept per table and position."""
    kept = answers(board.memo, "catwalk")
    got = kept.get(p)
    if got is None:
        got = kept[p] = standing_on(board.structures, board.lattice.levels_at((p[0], p[1])), p)
    return got


def blockers(s: GameState, i: int) -> list[int]:
    """The enemy models token ``i`` on a catwalk may melee through a wall (reading
    ``catwalk_melee``); none for a model elsewhere or on a grid."""
    board = s.setup.board
    me = s.tokens[i]
    if not isinstance(board, TableBoard) or me.blip or not board.structures or not on_catwalk(board, me.sq):
        return []
    ladders = {ln.to for ln in board.links.get(me.sq, ())}  # V: a held ladder's awkward melee
    ways_in = {
        to
        for kind, to, _, _ in board._static(me.sq)
        if kind in STEPS_IN and board.indoors(to) >= 0 and to not in ladders
    }
    return [
        j
        for j, t in enumerate(s.tokens)
        if t.alive
        and not t.blip
        and t.side != me.side
        and t.sq in ways_in
        and not board.adjacent(me.sq, t.sq, {})
    ]


__all__ = ["blockers", "on_catwalk"]
