"""INFERNO in the enemy turn (rules-crusade VII MODIFIERS, IX FOR ONE TURN; reading ``card_inferno``).

VII: "Cards played during an enemy turn cost 1 action from the following turn"; "INFERNO- You do
not need to deduct an action from your next turn if you are actually stunned, wounded or killed by
the attack." The attack is the enemy's: INFERNO is played at it, at a declared enemy attack at a
model of the psyker's force (PRECOGNANT's moment, :mod:`.moments`) or at the enemy model's
activation (its card window), before that model attacks.

Here, INFERNO played in the enemy turn waits on the attack of the enemy model it was played at
(``("INFERNO", psyker, attacker)`` among the lasting effects): when a roll of that model's attack
(its follow-up rolls too: an explosion, a malfunction) leaves the psyker stunned, wounded, knocked
out or killed, the psyker is spared the action (``("INFERNO", psyker, SPARED)``). An INFERNO that
strikes the held attack's attacker changes that attack: stunned, knocked out or killed, it is not
made (IX SNAP FIRE's "If you stun or kill them, the melee does not take place", as a PRECOGNANT's
stop); wounded or a hit less, it is made with the attacker's new condition.
"""

from __future__ import annotations

import json

from grimdice.systems.crusade.damage import CONDITIONS, NONE, WOUNDED
from grimdice.systems.crusade.game.frozen import altered
from grimdice.systems.crusade.game.state import GameState, Psy

#: the psyker was harmed by the attack its INFERNO was played at: no action owed
SPARED = -1


def awaiting(s: GameState, psy: Psy, i: int) -> Psy:
    """Psyker ``i`` just played INFERNO in the enemy turn: it waits on the attack held at its
    moment, or else on the attack of the enemy model being activated."""
    attacker = int(psy.held[2]) if psy.held else s.active
    return altered(psy, effects=(*psy.effects, ("INFERNO", i, attacker)))


def struck(before: GameState, after: GameState) -> GameState:
    """A roll of an attack (``before``: the state with the attack pending) just applied: the
    psykers whose INFERNO waits on its attacker and whom it stunned, wounded, knocked out or
    killed are spared their action."""
    psy = after.psy
    if psy is None or not before.pending or before.pending[0] != "attack":
        return after
    attacker = before.pending[2]
    effects = tuple(
        ("INFERNO", e[1], SPARED)
        if e[0] == "INFERNO" and e[2] == attacker and _harmed(before, after, e[1])
        else e
        for e in psy.effects
    )
    return after if effects == psy.effects else altered(after, psy=altered(psy, effects=effects))


def _harmed(before: GameState, after: GameState, k: int) -> bool:
    was, now = before.tokens[k].cond, after.tokens[k].cond
    return now > was and now != NONE


def spared(psy: Psy, i: int) -> bool:
    """Whether psyker ``i``'s action owed for an INFERNO is spared."""
    return ("INFERNO", i, SPARED) in psy.effects


def at_held(s: GameState, card: str, j: int) -> GameState:
    """An INFERNO that struck the held attack's attacker ``j``: the attack is not made when it is
    stunned, knocked out or killed; made with its new condition when wounded or a hit less."""
    psy = s.psy
    if card != "INFERNO" or psy is None or not psy.held or int(psy.held[2]) != j:
        return s
    t = s.tokens[j]
    if t.cond != NONE and t.cond != WOUNDED:  # stunned, KO or killed: no attack
        return altered(s, psy=altered(psy, held=(), prompt=()))
    held = psy.held
    try:
        data = json.loads(held[4])
    except (TypeError, ValueError):
        return s
    if not isinstance(data, dict) or not isinstance(data.get("attacker"), dict):
        return s
    data["attacker"]["condition"] = CONDITIONS[t.cond]
    data["attacker"]["hits_left"] = t.hits
    held = (*held[:4], json.dumps(data, sort_keys=True), *held[5:])
    return altered(s, psy=altered(psy, held=held))


__all__ = ["SPARED", "at_held", "awaiting", "spared", "struck"]
