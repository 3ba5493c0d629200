"""IX DETONATE in the grid game: a model's detonation as its action.

IX: "DETONATE: May detonate as an action. ... When detonating, if you roll a zero on the dice, you
do not explode- continue as normal!" Reading ``detonate``: a DETONATE model (not a chit) may spend
its action to detonate with one of its weapons (``["detonate", weapon]``); the roll is a chance
node, the calculator's ``detonate_chance`` of the weapon's dice (a zero: nothing happens, the action
is spent); otherwise the blast is EXPLODE's attack from that weapon (VIII, :func:`.fails.explode`:
the weapon's dice at range 0 at the model, then at the models within its radius that the blast
reaches, not past a wall, nearest first; readings ``explode_order``, ``blast_walls``).
The weapon is not lost (the text says nothing of it); the model is revealed, as by an attack
(V HIDING).

"Will detonate if grazed (but not if hit with more than graze damage)": the attack laws of a
DETONATE model's situations mark its grazes (:data:`.combat.GRAZE_DEFENDER`, III's graze: one point
of damage with one hit left); a grazed DETONATE model detonates with its first weapon (reading
``detonate_graze``), even when the graze knocked it out or killed it, after the attack's own
follow-up rolls: the same roll for a zero, then the blast. A shot at several models grazes too: its
joint law marks each target's graze (:func:`grimdice.systems.crusade.joint.joint_law`), but for the
solved turns of RAPID FIRE and of a flamer's rolls with re-rolls, which do not carry the damage.
"""

from __future__ import annotations

from typing import Any

from grimdice.systems.crusade.game.combat import GRAZE_ATTACKER, GRAZE_DEFENDER
from grimdice.systems.crusade.game.fails import Follow, explode, next_blast, weapon_index
from grimdice.systems.crusade.game.state import GameState, has_code


def actions(s: GameState, i: int) -> list[tuple[Any, ...]]:
    """``("detonate", weapon)`` for each weapon of a DETONATE model."""
    t = s.tokens[i]
    p = s.setup.profiles[t.profile]
    if t.blip or not has_code(p.abilities, "DETONATE"):
        return []
    return [("detonate", w.name) for w in p.weapons]


def pending(s: GameState, i: int, weapon: str, queue: tuple[Follow, ...] = ()) -> tuple[Any, ...]:
    """Model ``i``'s detonation roll with ``weapon`` (``detonate_chance``: a zero on its dice does
    not explode), then the follow-up rolls ``queue``."""
    from grimdice.systems.crusade.actions import detonate_chance

    k = weapon_index(s, i, weapon)
    p = detonate_chance(str(s.setup.profiles[s.tokens[i].profile].weapons[k].dice))
    return ("detonate", i, k, p, queue)


def start(s: GameState, weapon: str) -> GameState:
    """The active model's detonation: its action spent, the roll pending (``detonate_chance``)."""
    i = s.active
    if ("detonate", weapon) not in actions(s, i):
        raise ValueError(f"model {i} may not detonate with {weapon!r}")
    return s.changed(i, {"hidden": False}, acted=True, attacked=True, pending=pending(s, i, weapon))


def on_graze(s: GameState, marks: int, i: int, j: int) -> tuple[Follow, ...]:
    """The detonations an attack's grazes set off (``marks`` of its law; ``i`` the attacker, ``j``
    the defender): each grazed DETONATE model's, with its first weapon (reading ``detonate_graze``)."""
    out: tuple[Follow, ...] = ()
    for bit, who in ((GRAZE_DEFENDER, j), (GRAZE_ATTACKER, i)):
        t = s.tokens[who]
        weapons = s.setup.profiles[t.profile].weapons
        if marks & bit and has_code(s.setup.profiles[t.profile].abilities, "DETONATE") and weapons:
            out += (("detonate", who, who, weapons[0].name),)
    return out


def resolve(s: GameState, outcome: tuple[Any, ...]) -> GameState:
    """A zero (``outcome[1] == 0``): no explosion; else EXPLODE's attack from the weapon; then the
    follow-up rolls that waited."""
    _, i, k, _, queue = s.pending
    if not outcome[1]:
        return next_blast(s, queue)
    weapon = s.setup.profiles[s.tokens[i].profile].weapons[k].name
    s, blast = explode(s, i, weapon)
    return next_blast(s, blast + queue)


__all__ = ["actions", "on_graze", "pending", "resolve", "start"]
