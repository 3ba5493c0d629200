"""IX BERSERK: "May melee after taking extra move (this is different from the normal Charge rules!)".

I: "Take an extra full move" is an action; a BERSERK model taking it keeps a melee to make: its
action left is a melee, as after V CHARGE's half move (``charged``), with its whole move added
instead of the half. It may also end without meleeing.
"""

from __future__ import annotations

from typing import Any

from grimdice.systems.crusade.game.state import GameState, Token, has_code


def after_extra(s: GameState, t: Token) -> dict[str, Any]:
    """What the extra move leaves of the model's action: a melee for a BERSERK model, else none."""
    if not t.blip and has_code(s.setup.profiles[t.profile].abilities, "BERSERK"):
        return {"charged": True}
    return {"acted": True}


__all__ = ["after_extra"]
