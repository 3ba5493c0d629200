"""What a failed roll leaves behind in a game (III, VIII): the failing weapon's lasting state, and
EXPLODE's attack on the bearer and the models near him."""

from __future__ import annotations

import json
from typing import Any

from grimdice.systems.crusade.damage import KILLED
from grimdice.systems.crusade.game import fists
from grimdice.systems.crusade.game.around import models_around
from grimdice.systems.crusade.game.frozen import altered
from grimdice.systems.crusade.game.situation import cover_of, model_data
from grimdice.systems.crusade.game.state import LOST, READY, STUCK, UNLOADED, GameState, has_code
from grimdice.systems.crusade.units import TEMPLATES

#: a roll that follows an attack: (kind "explode", "malfunction" or "detonate", firer, target,
#: weapon), or a TWO FISTED model's second pistol ("shoot" or "ambush", firer, target, pistol)
Follow = tuple[str, int, int, str]

#: III / VIII: a weapon's state after its fail (STICK: stuck in the model it attacked)
FAIL_STATE = {"jam": "jammed", "break": LOST, "explode": LOST, "stick": STUCK}


def weapon_index(s: GameState, i: int, name: str) -> int:
    return named_index(s.setup.profiles[s.tokens[i].profile], name)


def named_index(profile: Any, name: str) -> int:
    """The index of ``profile``'s first weapon named ``name`` (ValueError when it has none)."""
    return [w.name for w in profile.weapons].index(name)


def stuck_in(state: str) -> int:
    """The token a stuck weapon is stuck in (its state ``stuck@j``), or -1."""
    return int(state.split("@")[1]) if state.startswith(STUCK + "@") else -1


def weapon_after(s: GameState, i: int, failed: str, fired: str, other: int) -> tuple[str, ...]:
    """Token ``i``'s weapon states after its roll: a RELOAD weapon fired is unloaded (VIII: "an
    action to reload for each shot"); the failing weapon takes its fail effect (VIII JAM, BREAK,
    EXPLODE: lost; STICK: "stuck in target", ``other``)."""
    t = s.tokens[i]
    p = s.setup.profiles[t.profile]
    arms = list(t.arms)
    for name in fists.fired(fired):  # IX TWO FISTED: both pistols fired
        k = weapon_index(s, i, name)
        reloads = has_code(p.weapons[k].effects, "RELOAD") or has_code(p.weapons[k].effects, "ARTILLERY")
        if reloads and arms[k] == READY:  # VIII ARTILLERY: "one to fire and one to reload"
            arms[k] = UNLOADED
    if failed:
        k = weapon_index(s, i, failed)
        code = s.setup.fighters[t.profile].arms[k].fail
        if code == "stick":
            arms[k] = f"{STUCK}@{other}"
        elif code in FAIL_STATE:
            arms[k] = FAIL_STATE[code]
    return tuple(arms)


def explosion_radius(s: GameState, i: int, weapon: str) -> int:
    """VIII EXPLODE: "centered on the bearer (SFT=1"A, FT=2"A, HFT=3"A)"; else the weapon's AREA;
    else the bearer only. Squares on a grid (X)."""
    arm = s.setup.fighters[s.tokens[i].profile].arms[weapon_index(s, i, weapon)]
    if arm.template:
        return TEMPLATES[arm.template]
    return int(arm.fx.get("area") or 0)


def explosion_shot(s: GameState, i: int, weapon: str, j: int, blast: bool = True) -> str:
    """The weapon's dice against token ``j`` (the bearer included) as the calculator's single shot
    (JSON text): EXPLODE's attack, MALFUNCTION's roll "vs. the user's armor". Its roll is no attack
    of the bearer's: no re-roll (VIII REROLL "once per turn" is his shot's) and no jink, as the
    calculator rolls an explosion. The bearer is at the centre, range 0; another model caught in
    the ``blast`` is at its range from the bearer with the cover a shot from there gives it (VI:
    models inside a building "treated as in cover"; II: "If your target is in cover and is not less
    than an inch away, add 1 to their armor value"; reading ``blast_walls``); MALFUNCTION's roll at
    the melee opponent (``blast`` False) is at range 0, as the calculator rolls it."""
    from grimdice.systems.crusade.game.snap import BARRED, allowed

    bearer = model_data(s, s.tokens[i])
    k = weapon_index(s, i, weapon)
    arm = s.setup.profiles[s.tokens[i].profile].weapons[k].model_dump(by_alias=True, exclude_none=True)
    bearer["weapons"] = [dict(arm, kind="ranged", effects=allowed(arm.get("effects", [])))]
    bearer["abilities"] = allowed(bearer.get("abilities", []))
    caught = model_data(s, s.tokens[j])
    caught["abilities"] = allowed(caught.get("abilities", []), (*BARRED, "jink"))
    data = {
        "system": "crusade",
        "action": "shoot",
        "attacker": bearer,
        "defender": caught,
        "weapons": [arm["name"]],
        "range": 0,
    }
    if blast and j != i:
        me, them = s.tokens[i], s.tokens[j]
        data["range"] = s.setup.board.range(me.sq, them.sq)
        data["cover"] = cover_of(s, them, me)
    return json.dumps(data, sort_keys=True)


def explode(s: GameState, i: int, weapon: str) -> tuple[GameState, tuple[Follow, ...]]:
    """VIII EXPLODE: "make an attack from the weapon, centered on the bearer ... The weapon is
    lost. "Bad Guy" models with one hit should automatically be treated as killed". The attack is
    a shot at each model within the radius that it does not pass a wall to reach (VI, reading
    ``blast_walls``, :func:`.around.models_around`), the bearer first, nearest next (reading
    ``explode_order``), each a chance node: the follow-up shots to make."""
    bearer = s.tokens[i]
    if s.setup.fighters[bearer.profile].has("bad_guy") and s.setup.profiles[bearer.profile].hits == 1:
        s = s.with_token(i, cond=KILLED)
    near = models_around(s, bearer.sq, explosion_radius(s, i, weapon))
    return s, tuple(("explode", i, j, weapon) for j in near)


def next_blast(s: GameState, queue: tuple[Follow, ...]) -> GameState:
    """The next follow-up shot of ``queue`` at a model still alive (or a grazed model's
    detonation, IX DETONATE), pending; or none left."""
    queue = tuple(f for f in queue if f[0] == "detonate" or s.tokens[f[2]].alive)
    if not queue:
        return altered(s, pending=())
    how, i, j, weapon = queue[0]
    if how == "detonate":
        from grimdice.systems.crusade.game.detonate import pending

        return altered(s, pending=pending(s, i, weapon, queue[1:]))
    if how in ("shoot", "ambush", "snap"):  # IX TWO FISTED's second pistol; IX LATCH ON's "BOTH"
        pend = fists.second(s, queue[0], queue[1:])
        return altered(s, pending=pend) if pend else next_blast(s, queue[1:])
    key = explosion_shot(s, i, weapon, j, blast=how == "explode")
    return altered(s, pending=("attack", how, i, j, key, weapon, queue[1:]))


def recover_actions(s: GameState) -> list[tuple[Any, ...]]:
    """VIII STICK: "must spend an action adjacent to target to recover it" (or on its square,
    where the target was killed)."""
    i = s.active
    t = s.tokens[i]
    out: list[tuple[Any, ...]] = []
    for k, st in enumerate(t.arms):
        j = stuck_in(st)
        if j >= 0:
            where = s.tokens[j].sq
            if where == t.sq or s.setup.board.adjacent(t.sq, where, s.doors()):
                out.append(("recover", s.setup.profiles[t.profile].weapons[k].name))
    return out


__all__ = [
    "FAIL_STATE",
    "Follow",
    "explode",
    "named_index",
    "next_blast",
    "recover_actions",
    "stuck_in",
    "weapon_after",
    "weapon_index",
]
