"""The simple AI's artillery crew (ours: a policy, not a rule): a crew model keeps within 1" of
its artillery piece (VIII ARTILLERY: "Provides front cover for 2 crew"; reading ``artillery_crew``,
:mod:`grimdice.systems.crusade.game.crew`) when that cover is worth having: its piece stands, an
enemy model it knows of stands with a shooting weapon (the cover is against shots). Then its goal
is the free positions within 1" of the piece (instead of its force's goals), and once there it
stays: it may still shoot or melee from there, but it does not step, charge or take an extra move
away (it hides when it may).
"""

from __future__ import annotations

from typing import Any

from grimdice.systems.crusade.game.board import Pos
from grimdice.systems.crusade.game.crew import REACH
from grimdice.systems.crusade.game.state import GameState
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


def _shooters(s: GameState, side: int) -> bool:
    """Whether an enemy model the AI sees (standing, not a blip) holds a shooting weapon."""
    profiles = s.setup.profiles
    return any(
        t.side != side and t.standing and not t.blip and _shoots(profiles[t.profile]) for t in s.tokens
    )


def _shoots(profile: Any) -> bool:
    return any(w.kind in SHOOTING_KINDS for w in profile.weapons)


__all__ = ["post"]
