"""IX TWO FISTED in the grid game: both pistols fired as one attack.

IX: "TWO FISTED: Any model equipped with two pistols (and no other weapons) may fire each pistol at
6" range or less as a single attack." Reading ``two_fisted``: a TWO FISTED model whose only weapons
are two pistols, both ready, may fire both at one enemy it sees within 6 squares (its player's
``["fists", t]``, its action), as the calculator's combined fire of the two (one roll of both
pistols' dice, a failing roll failing one of them at random); it may still fire either pistol
alone. Both are counted fired (a RELOAD pistol is then unloaded).
"""

from __future__ import annotations

import json
from typing import Any

from grimdice.systems.crusade.game import situation
from grimdice.systems.crusade.game.state import READY, GameState, has_code

#: "6" range or less", in squares (X: a square is an inch)
REACH = 6
#: joins the two pistols' names in the attack's record and log
BOTH = " & "


def pistols(s: GameState, i: int) -> tuple[str, str] | None:
    """Token ``i``'s two ready pistols when it may fire them as one attack, else None."""
    t = s.tokens[i]
    p = s.setup.profiles[t.profile]
    if t.blip or not has_code(p.abilities, "TWO FISTED") or len(p.weapons) != 2:
        return None
    if any(w.kind != "pistol" or BOTH in w.name for w in p.weapons) or any(st != READY for st in t.arms):
        return None
    return p.weapons[0].name, p.weapons[1].name


def actions(s: GameState, i: int, sight: list[int]) -> list[tuple[Any, ...]]:
    """``("fists", j)`` at each enemy in sight within 6 squares, for a model that may."""
    if pistols(s, i) is None:
        return []
    here = s.tokens[i].sq
    return [("fists", j) for j in sight if s.setup.board.range(here, s.tokens[j].sq) <= REACH]


def pending(s: GameState, i: int, j: int) -> tuple[Any, ...]:
    """The attack ``("fists", j)`` starts: a shot with both pistols combined."""
    both = pistols(s, i)
    if both is None:
        raise ValueError(f"model {i} may not fire two pistols as one attack")
    data = json.loads(situation.shot(s, i, j, both[0]))
    data["weapons"] = list(both)
    return ("attack", "shoot", i, j, json.dumps(data, sort_keys=True), BOTH.join(both))


def fired(name: str) -> list[str]:
    """The weapons an attack's record names (one, or a TWO FISTED pair)."""
    return name.split(BOTH) if name else []


__all__ = ["BOTH", "REACH", "actions", "fired", "pending", "pistols"]
