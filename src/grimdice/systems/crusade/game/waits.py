"""What waits on an attack made in the mover's turn, and PRECOGNANT's moment at the attacks that
come in it (rules-crusade V ZONE OF CONTROL, IX AMBUSH, IX SNAP FIRE, V DIVE ATTACK, VII PRECOGNANT).

V ZOC: "If the passer is not stunned, killed or KOed by the melee, they may continue their move";
IX SNAP FIRE: "If you stun or kill them, the melee does not take place"; IX AMBUSH: "May make a
free attack when revealed ... and may then make a half move". Each goes on once nothing is pending
and no attack is held by a PRECOGNANT's moment (IX FOR ONE TURN: such cards "may be played at any
time"; reading ``card_precognant``): a foreseen attack that is not made lets them go on as after
the attack.
"""

from __future__ import annotations

from grimdice.systems.crusade.game import ambush, snap, zoc
from grimdice.systems.crusade.game.powers import foresee
from grimdice.systems.crusade.game.state import GameState


def _waiting(s: GameState) -> bool:
    return bool(s.pending) or (s.psy is not None and bool(s.psy.held or s.psy.prompt))


def carry_on(s: GameState, how: str) -> GameState:
    """After attack ``how`` (made, or foreseen and not made): an ambusher's half move, the melee
    after a snap shot (itself open to a PRECOGNANT), the ZOC step."""
    if _waiting(s):
        return s
    if how == "ambush" or (s.ambush and how == "many"):  # IX AMBUSH's shot, at one or several
        s = ambush.after(s)
    if s.snap and s.snap[2]:  # the snap shot made (the question, while open, waits)
        s = foresee(snap.proceed(s))
        if _waiting(s):
            return s
        if s.ambush:  # IX SNAP FIRE stopped an ambusher's melee: its half move
            s = ambush.after(s)
    return zoc.proceed(s) if s.zoc and not s.snap else s


def held_how(s: GameState) -> str:
    """The kind of the attack a PRECOGNANT's moment holds, or ""."""
    return str(s.psy.held[1]) if s.psy is not None and s.psy.held else ""


__all__ = ["carry_on", "held_how"]
