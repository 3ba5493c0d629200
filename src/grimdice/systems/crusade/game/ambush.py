"""IX AMBUSH in the grid game: a free attack by a model of a blip revealed in the enemy's turn.

IX: "AMBUSH: May make a free attack when revealed (but may not rapid fire) and may then make a half
move." Reading ``ambush``: each AMBUSH model of a blip revealed in the other player's turn may, in
turn, shoot an enemy it sees with a ranged weapon or melee an adjacent one (its player's choice,
``["shoot", t, w]``, ``["melee", t]`` or ``["pass"]``), before the moving model goes on; the half
move after it is not played. A moving model the ambush stuns stops (no more move or action).
"""

from __future__ import annotations

import json
from typing import Any

from grimdice.systems.crusade.damage import STUNNED
from grimdice.systems.crusade.game import situation
from grimdice.systems.crusade.game.frozen import altered
from grimdice.systems.crusade.game.snap import allowed
from grimdice.systems.crusade.game.state import READY, GameState, has_code

RANGED = ("ranged", "pistol", "grenade")


def ambushers(s: GameState, revealed: list[int]) -> tuple[int, ...]:
    return tuple(k for k in revealed if has_code(s.setup.profiles[s.tokens[k].profile].abilities, "AMBUSH"))


def actions(s: GameState) -> list[tuple[Any, ...]]:
    """The ambusher's choices: pass, or one attack."""
    from grimdice.systems.crusade.game.rules import adjacent_enemies, targets_in_sight

    k = s.ambush[0]
    t = s.tokens[k]
    out: list[tuple[Any, ...]] = [("pass",)]
    if not t.standing or t.cond == STUNNED:
        return out
    from grimdice.systems.crusade.game.many import reached

    weapons = s.setup.profiles[t.profile].weapons
    for j in targets_in_sight(s, k):
        out.extend(
            ("shoot", j, w.name)
            for w, st in zip(weapons, t.arms, strict=True)
            if w.kind in RANGED and st == READY and reached(s, k, j, w.name)  # a template's reach
        )
    out.extend(("melee", j) for j in adjacent_enemies(s, k))
    return out


def decide(s: GameState, a: tuple[Any, ...]) -> GameState:
    k, rest = s.ambush[0], s.ambush[1:]
    s = altered(s, ambush=rest)
    if a[0] == "shoot":
        data = json.loads(situation.shot(altered(s, moved=0), k, int(a[1]), str(a[2])))
        for w in data["attacker"]["weapons"]:
            w["effects"] = allowed(w.get("effects", []), ("rapid_fire",))  # "may not rapid fire"
        key = json.dumps(data, sort_keys=True)
        return altered(s, pending=("attack", "ambush", k, int(a[1]), key, str(a[2])))
    if a[0] == "melee":
        key = situation.melee(s, k, int(a[1]), 1)
        return altered(s, pending=("attack", "ambush", k, int(a[1]), key, ""))
    return s


def after(s: GameState) -> GameState:
    """The moving model, stunned by the ambush, stops."""
    if s.active >= 0 and s.tokens[s.active].cond == STUNNED:
        return altered(s, budget=0, acted=True)
    return s


__all__ = ["actions", "after", "ambushers", "decide"]
