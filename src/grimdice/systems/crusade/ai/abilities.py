"""The simple AI's values of the IX abilities' actions (ours: weights, not rules), beside its
attacks' (:func:`.players.attack_value`): TWO FISTED's shots, DETONATE, LATCH ON and MOB.

- ``["fists", t]``: the combined fire's law value; ``["fists", t, t2]``: the two single shots' values
  added (each on the present state).
- ``["detonate", w]``: the chance it explodes times the expected harm of EXPLODE's shot at each model
  within the weapon's radius (enemies for, friends and the bomber against).
- ``["latch", j]``: :data:`LATCH_VALUE`, and :data:`LATCH_SHOOTER` more when the target has a ready
  ranged weapon (its shots at -1, and it is held where it stands).
- ``["mob", j, ...]``: the mob melee law's expected harm to the target less that to every mob model
  and the fail's.
- ``["join", j]`` (an action kept for a mob at ``j``): :data:`JOIN_SHARE` times what the model adds
  to the best mob a friend may still lead at ``j`` (a lead within its move and an inch of ``j``):
  the two models' mob melee's value less the lead's own melee's.
"""

from __future__ import annotations

from typing import Any, cast

from grimdice.systems.crusade.ai.worth import FAIL_VALUE, harm, law_value
from grimdice.systems.crusade.damage import State
from grimdice.systems.crusade.game import fists, mob, situation
from grimdice.systems.crusade.game.around import models_around
from grimdice.systems.crusade.game.combat import cached_law
from grimdice.systems.crusade.game.fails import explosion_radius, explosion_shot
from grimdice.systems.crusade.game.frozen import altered
from grimdice.systems.crusade.game.state import READY, GameState
from grimdice.systems.crusade.units import SHOOTING_KINDS

LATCH_VALUE = 0.1
LATCH_SHOOTER = 0.15
JOIN_SHARE = 0.8  # the lead may not come, or not to that target
#: the actions valued here
ABILITY_ATTACKS = ("fists", "detonate", "latch", "mob", "join")


def ability_value(s: GameState, a: tuple[Any, ...]) -> float:
    """The AI's value of ability action ``a`` of the active model (its weights: :mod:`.worth`)."""
    i = s.active
    if a[0] == "fists":
        targets = [int(t) for t in a[1:]]
        if len(targets) == 1:
            return law_value(s, i, targets[0], str(fists.pending(s, i, targets[0])[4]))
        both = fists.pistols(s, i) or ("", "")
        return sum(law_value(s, i, t, fists.shot_key(s, i, t, w)) for t, w in zip(targets, both, strict=True))
    if a[0] == "detonate":
        return _detonate_value(s, i, str(a[1]))
    if a[0] == "latch":
        t = s.tokens[int(a[1])]
        weapons = s.setup.profiles[t.profile].weapons
        ready = [w.kind for w, st in zip(weapons, t.arms, strict=True) if st == READY]
        shooter = any(kind in SHOOTING_KINDS for kind in ready)
        return LATCH_VALUE + LATCH_SHOOTER * shooter
    if a[0] == "join":
        return _join_value(s, i, int(a[1]))
    return _mob_value(s, i, int(a[1]), tuple(int(k) for k in a[2:]))


def _mob_value(s: GameState, i: int, j: int, mates: tuple[int, ...]) -> float:
    """The mob melee of lead ``i`` and ``mates`` at ``j``: its harm to ``j`` less every mob
    model's and the fail's."""
    them = (s.tokens[j].cond, s.tokens[j].hits)
    ours = [(s.tokens[k].cond, s.tokens[k].hits) for k in (i, *mates)]
    value = 0.0
    for (ds, ends, wa, *_), p in cached_law(mob.key(s, i, j, mates)):
        own = sum(harm(b, e) for b, e in zip(ours, cast(tuple[State, ...], ends), strict=True))
        value += p * (harm(them, ds) - own - FAIL_VALUE * bool(wa))
    return value


def _join_value(s: GameState, i: int, j: int) -> float:
    """``["join", j]``: :data:`JOIN_SHARE` times what model ``i`` adds to the best mob a friend may
    still lead at ``j`` (module text)."""
    fresh = altered(s, meleed=())  # the lead's first melee of its activation
    target, board = s.tokens[j].sq, s.setup.board
    best = 0.0
    for k in mob.leads(s, i):
        if board.range(s.tokens[k].sq, target) > s.move_of(s.tokens[k]) + 1:
            continue
        key = mob.key(fresh, k, j, (i,))
        if mob.solvable(key):
            alone = law_value(fresh, k, j, situation.melee(fresh, k, j, 1))
            best = max(best, _mob_value(fresh, k, j, (i,)) - alone)
    return JOIN_SHARE * best


def _detonate_value(s: GameState, i: int, weapon: str) -> float:
    from grimdice.systems.crusade.actions import detonate_chance
    from grimdice.systems.crusade.game.fails import weapon_index

    me = s.tokens[i]
    k = weapon_index(s, i, weapon)
    p = detonate_chance(str(s.setup.profiles[me.profile].weapons[k].dice))
    total = 0.0
    for j in models_around(s, me.sq, explosion_radius(s, i, weapon)):  # reading blast_walls
        t = s.tokens[j]
        sign = 1.0 if t.side != me.side else -1.0
        start = (t.cond, t.hits)
        law = cached_law(explosion_shot(s, i, weapon, j))
        total += sign * sum(q * harm(start, ds) for (ds, *_), q in law)
    return p * total


__all__ = ["ABILITY_ATTACKS", "JOIN_SHARE", "LATCH_SHOOTER", "LATCH_VALUE", "ability_value"]
