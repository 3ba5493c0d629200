"""VI: melee from a catwalk through a building's wall.

VI DAMAGE: "You may not melee through walls (exception: models on catwalks may melee a blocking
model)." VI MOVEMENT: "If you can move into a building via the roof or a catwalk, ramp, or stairs,
you do not have to force entry or be adjacent to move inside. ... You may not melee through walls
unless from a catwalk."

Reading ``catwalk_melee``: a "blocking model" is an enemy standing inside a building's sector where
the catwalk model's way into the building leads: a model standing on a catwalk (at the catwalk's
height, on one of its cells) may melee an enemy model in a sector when one of its steps from where
it stands, as the game offers them with no other model on the table (V: a step to a cell
around, a drop, a fall or a hang and drop; IX CLIMB's climbs, FLY's and JUMP PACK's air steps; not
a ladder or stairs, whose far end V's awkward melee covers; :func:`ways_in`) would land where the
enemy stands. IX BIG: "They may only enter a building directly through a Forced Entry marker": a
BIG model's way in is only from a forced entry marker (:mod:`.big`), so without one beside it
nobody blocks it. The two are not adjacent
under IV (a wall stands between them, and their feet are more than 1" apart): the melee is the
calculator's melee as any other.
"""

from __future__ import annotations

from grimdice.systems.crusade.game.board import Pos
from grimdice.systems.crusade.game.frozen import altered
from grimdice.systems.crusade.game.state import GameState
from grimdice.systems.crusade.game.table import TableBoard
from grimdice.systems.crusade.game.table_parts import answers
from grimdice.systems.crusade.game.table_parts import on_catwalk as standing_on

#: V: the steps of the model's own legs, IX CLIMB's climbs and FLY's air steps; not ladders
STEPS_IN = ("move", "fall", "hang", "jump", "climb", "fly")


def on_catwalk(board: TableBoard, p: Pos) -> bool:
    """Whether ``p`` stands on a catwalk (on one of its cells, at its height; not a destroyed one,
    which lies on the ground, VI); kept per table and position."""
    kept = answers(board.memo, "catwalk")
    got = kept.get(p)
    if got is None:
        got = kept[p] = standing_on(board.structures, board.lattice.levels_at((p[0], p[1])), p)
    return got


def ways_in(s: GameState, i: int) -> set[Pos]:
    """The positions inside a building's sector where token ``i``'s steps from where it stands land
    (reading ``catwalk_melee``): the steps the game offers it (:func:`.flight.steps_for`: the board's,
    a CLIMB model's climbs, a flier's air steps; IX BIG's only from a forced entry marker,
    :func:`.big.entering`), as if no other model stood on the table (a blocking model stands on
    the way in), and whatever move it has left (its melee comes after its move)."""
    from grimdice.systems.crusade.game.big import entering
    from grimdice.systems.crusade.game.flight import steps_for

    me, board = s.tokens[i], s.setup.board
    assert isinstance(board, TableBoard)
    alone = altered(s, tokens=(me,), active=0)
    ladders = {ln.to for ln in board.links.get(me.sq, ())}  # V: a held ladder's awkward melee
    return {
        to
        for kind, to, _ in entering(alone, steps_for(alone, me))
        if kind in STEPS_IN and board.indoors(to) >= 0 and to not in ladders
    }


def blockers(s: GameState, i: int) -> list[int]:
    """The enemy models token ``i`` on a catwalk may melee through a wall (reading
    ``catwalk_melee``); none for a model elsewhere or on a grid."""
    board = s.setup.board
    me = s.tokens[i]
    if not isinstance(board, TableBoard) or me.blip or not board.structures or not on_catwalk(board, me.sq):
        return []
    inside = [
        j
        for j, t in enumerate(s.tokens)
        if t.alive and not t.blip and t.side != me.side and board.indoors(t.sq) >= 0
    ]
    if not inside:
        return []
    found = ways_in(s, i)
    return [j for j in inside if s.tokens[j].sq in found and not board.adjacent(me.sq, s.tokens[j].sq, {})]


__all__ = ["blockers", "on_catwalk", "ways_in"]
