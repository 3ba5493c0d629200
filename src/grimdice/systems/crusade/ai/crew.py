"""The simple AI's artillery crew (ours: a policy, not a rule): a crew model keeps within 1" of
its artillery piece (VIII ARTILLERY: "Provides front cover for 2 crew"; reading ``artillery_crew``,
:mod:`grimdice.systems.crusade.game.crew`) when that cover is worth having: its piece stands, an
enemy model it knows of stands with a shooting weapon (the cover is against shots). Then its goal
is the free positions within 1" of the piece (instead of its force's goals), and once there it
stays: it may still shoot or melee from there, but it does not step, charge or take an extra move
away (it hides when it may).

The artillery piece itself (a model whose ranged weapons are all ARTILLERY) stays where it stands
while an enemy model it knows of stands (:func:`emplaced`): VIII ARTILLERY "May not move and
fire", so a step costs it its next shot, and VIII BARRAGE's "Minimum range 8"" makes every step
towards the enemy shrink what it may fire at. It still fires, reloads and unjams there.
"""

from __future__ import annotations

from typing import Any

from grimdice.systems.crusade.game.board import Pos
from grimdice.systems.crusade.game.crew import REACH
from grimdice.systems.crusade.game.state import GameState, has_code
from grimdice.systems.crusade.units import SHOOTING_KINDS


def post(s: GameState, i: int) -> list[Pos] | None:
    """The positions within 1" of model ``i``'s artillery piece that it may stand on (its own
    among them, the piece's and other models' not), when ``i`` is a crew model whose piece's cover
    is worth keeping (see the module text); else None."""
    gun = next((g for c, g in s.setup.crews if c == i), None)
    if gun is None:
        return None
    me, piece = s.tokens[i], s.tokens[gun]
    board = s.setup.board
    if not piece.standing or not _shooters(s, me.side):
        return None
    armour = s.armour_of(me)
    taken = s.occupied() - {me.sq}
    near = [
        p
        for p in board.within(piece.sq, REACH)
        if p != piece.sq
        and p not in taken
        and board.range(p, piece.sq) <= REACH
        and board.enterable(p, armour)
    ]
    return near or None


def emplaced(s: GameState, i: int) -> bool:
    """Whether model ``i`` is an artillery piece that keeps its place (see the module text): its
    ranged weapons are all ARTILLERY, and an enemy model it knows of stands (not a blip)."""
    me = s.tokens[i]
    if me.blip or not _gun(s.setup.profiles[me.profile]):
        return False
    return any(t.side != me.side and t.standing and not t.blip for t in s.tokens)


def _gun(profile: Any) -> bool:
    """Whether the profile's ranged weapons (at least one) are all ARTILLERY."""
    ranged = [w for w in profile.weapons if w.kind in SHOOTING_KINDS]
    return bool(ranged) and all(has_code(w.effects, "ARTILLERY") for w in ranged)


def _shooters(s: GameState, side: int) -> bool:
    """Whether an enemy model the AI sees (standing, not a blip) holds a shooting weapon."""
    profiles = s.setup.profiles
    return any(
        t.side != side and t.standing and not t.blip and _shoots(profiles[t.profile]) for t in s.tokens
    )


def _shoots(profile: Any) -> bool:
    return any(w.kind in SHOOTING_KINDS for w in profile.weapons)


__all__ = ["emplaced", "post"]
