"""IX DETONATE in the grid game: a model's detonation as its action.

IX: "DETONATE: May detonate as an action. ... When detonating, if you roll a zero on the dice, you
do not explode- continue as normal!" Reading ``detonate``: a DETONATE model (not a chit) may spend
its action to detonate with one of its weapons (``["detonate", weapon]``); the roll is a chance
node, the calculator's ``detonate_chance`` of the weapon's dice (a zero: nothing happens, the action
is spent); otherwise the blast is EXPLODE's attack from that weapon (VIII, :func:`.fails.explode`:
the weapon's dice at range 0 at the model, then at the models within its radius, nearest first).
The weapon is not lost (the text says nothing of it); the model is revealed, as by an attack
(V HIDING). The graze trigger ("Will detonate if grazed") is not in play: the game's attack law
does not tell a graze from other damage.
"""

from __future__ import annotations

from typing import Any

from grimdice.systems.crusade.game.fails import explode, next_blast, weapon_index
from grimdice.systems.crusade.game.frozen import altered
from grimdice.systems.crusade.game.state import GameState, has_code


def actions(s: GameState, i: int) -> list[tuple[Any, ...]]:
    """``("detonate", weapon)`` for each weapon of a DETONATE model."""
    t = s.tokens[i]
    p = s.setup.profiles[t.profile]
    if t.blip or not has_code(p.abilities, "DETONATE"):
        return []
    return [("detonate", w.name) for w in p.weapons]


def start(s: GameState, weapon: str) -> GameState:
    """The active model's detonation: its action spent, the roll pending (``detonate_chance``)."""
    from grimdice.systems.crusade.actions import detonate_chance

    i = s.active
    if ("detonate", weapon) not in actions(s, i):
        raise ValueError(f"model {i} may not detonate with {weapon!r}")
    k = weapon_index(s, i, weapon)
    p = detonate_chance(str(s.setup.profiles[s.tokens[i].profile].weapons[k].dice))
    return altered(s.with_token(i, hidden=False), acted=True, attacked=True, pending=("detonate", i, k, p))


def resolve(s: GameState, outcome: tuple[Any, ...]) -> GameState:
    """A zero (``outcome[1] == 0``): no explosion; else EXPLODE's attack from the weapon."""
    _, i, k, _ = s.pending
    if not outcome[1]:
        return altered(s, pending=())
    weapon = s.setup.profiles[s.tokens[i].profile].weapons[k].name
    s, blast = explode(s, i, weapon)
    return next_blast(s, blast)


__all__ = ["actions", "resolve", "start"]
