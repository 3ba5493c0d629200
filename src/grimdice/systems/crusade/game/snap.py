"""IX SNAP FIRE in the grid game: a pistol shot at the attacker before a melee, the defender's
player's choice.

IX: "If you are attacked in melee, before the melee occurs, you may fire a pistol at your opponent,
once per turn- treat as a point blank range attack. Your snap fire attack may only hit the
attacking model, unless it is a BLAST weapon ... You may not reroll or rapid fire when snap firing.
If you stun or kill them, the melee does not take place. ... If you wound them, they will be at
awkward melee as normal."

Every melee made at a model is one it is "attacked in melee" by (:func:`ask`): an ordinary melee, a
dive's, an awkward melee across a ladder, a mob's (the shot at its lead, the model whose melee it
is; members the shot stuns drop out), IX LATCH ON's latch ("As a melee attack, may attach to a
target": made, with no roll, unless the shot stops it), and in the defender's own turn a ZOC's free
melee and an ambusher's (reading ``snap_fire``).

A BLAST pistol's snap shot is centred on the attacker and rolls at the models its blast reaches
(:func:`.many.reached`), as the calculator's shot at several models, every one at point blank
range, past one chance node rolled model by model as any blast (reading ``snap_blast``); its
knockbacks move nobody, but cost the attacker an inch of its move (:func:`knocked`, reading
``snap_fire``).
"""

from __future__ import annotations

import json
from typing import Any

from grimdice.systems.crusade.damage import KO, STUNNED
from grimdice.systems.crusade.game import latch, situation
from grimdice.systems.crusade.game.frozen import altered
from grimdice.systems.crusade.game.state import READY, GameState, has_code
from grimdice.systems.crusade.rules import RULES

#: what a snap shot may not use: re-rolls and rapid fire
BARRED = ("reroll", "ro", "rapid_fire")


def pistols(s: GameState, j: int) -> list[str]:
    """Token ``j``'s ready pistols, if it has SNAP FIRE and has not snap fired this turn; IX SNAP
    FIRE: "If you have Two Fisted (see below), you may use each pistol once per turn to snap fire"
    (each pistol not yet snap fired this turn)."""
    t = s.tokens[j]
    if t.blip or not t.standing or t.cond == STUNNED:
        return []
    p = s.setup.profiles[t.profile]
    if not has_code(p.abilities, "SNAP FIRE") or (t.snapped and not has_code(p.abilities, "TWO FISTED")):
        return []
    return [
        w.name
        for k, (w, st) in enumerate(zip(p.weapons, t.arms, strict=True))
        if w.kind == "pistol" and st == READY and not (t.snapped >> k) & 1
    ]


def allowed(codes: list[str], barred: tuple[str, ...] = BARRED) -> list[str]:
    """The codes that set none of the ``barred`` rule fields."""
    return [c for c in codes if not any(k in barred for k in RULES.parse([c], "effects"))]


def unbarred(data: dict[str, Any]) -> dict[str, Any]:
    """A snap shot's calculator scenario (``data``, changed in place): not moved, without the
    attacker's re-rolls (its own R and the weapon's) or rapid fire."""
    data["moved"] = False
    data["attacker"]["abilities"] = allowed(data["attacker"].get("abilities", []))
    for w in data["attacker"]["weapons"]:
        w["effects"] = allowed(w.get("effects", []))
    return data


def snap_shot(s: GameState, j: int, i: int, weapon: str) -> str:
    """The snap shot of token ``j``'s pistol at token ``i``: "point blank range" read as range 0,
    no re-rolls (its own R and the weapon's), no rapid fire; as the calculator's shot (JSON text)."""
    data = unbarred(json.loads(situation.shot(s, j, i, weapon)))
    data["range"] = 0
    return json.dumps(data, sort_keys=True)


def _blast_key(s: GameState, j: int, targets: tuple[int, ...], weapon: str) -> str:
    """The snap shot of token ``j``'s BLAST pistol at ``targets`` as the calculator's many-target
    scenario (JSON text), every target at point blank range."""
    from grimdice.systems.crusade.game import many

    data = unbarred(json.loads(many.shot(s, j, targets, weapon)))
    for row in data["targets"]:
        row["range"] = situation.range_key(0)
    return json.dumps(data, sort_keys=True)


def blast_snap(s: GameState, j: int, i: int, weapon: str) -> tuple[Any, ...]:
    """The pending snap shot of token ``j``'s BLAST pistol at token ``i`` and the models around it:
    a shot at several models (``("attack", "many", j, i, key, weapon, targets, follow, "snap")``),
    every model the blast reaches rolled at (:func:`.many.fitting`: one chance node for at most
    :data:`.many.MAX_NODE` models within the calculator's exact bounds, else model by model,
    :mod:`.many_turn`), or ``()`` when it reaches ``i`` alone."""
    from grimdice.systems.crusade.game import many

    if many.mode(s, j, weapon) != "blast":
        return ()
    found = many.fitting(s, j, many.reached(s, j, i, weapon), weapon, _blast_key)
    if not found:
        return ()
    targets, key = found
    follow = latch.also_hit_many(s, j, targets, weapon, "snap")  # IX LATCH ON: "hit BOTH"
    return ("attack", "many", j, i, key, weapon, targets, follow, "snap")


def declare(s: GameState, i: int, j: int) -> GameState:
    """Token ``i`` declares its melee on ``j`` (IV): the defender's player may snap fire first."""
    s = altered(s.with_token(i, hidden=False).with_token(j, hidden=False), acted=True, attacked=True)
    s = altered(s, meleed=(*s.meleed, j))
    return ask(s, ("attack", "melee", i, j, situation.melee(s, i, j, len(s.meleed)), ""))


def ask(s: GameState, pending: tuple[Any, ...]) -> GameState:
    """A melee about to be made (``pending``: its attack, ``("attack", how, i, j, key, "", ...)``;
    any melee: an ordinary one, a dive's, one across a ladder, a ZOC's, an ambusher's, a mob's, a
    latch, :func:`.latch.pending`): IX
    SNAP FIRE, "If you are attacked in melee, before the melee occurs, you may fire a pistol", so
    the defender's player is asked first when the defender may snap fire (``GameState.snap``:
    attacker, defender, whether the shot was fired, the melee), else the melee is pending."""
    i, j = int(pending[2]), int(pending[3])
    if pistols(s, j):
        return altered(s, snap=(i, j, False, pending))
    return _made(s, pending)


def _made(s: GameState, pending: tuple[Any, ...]) -> GameState:
    """The melee ``pending`` goes ahead: its attack pending, or IX LATCH ON's latch made (no roll)."""
    if pending[1] == "latch":
        return latch.attach(s, int(pending[2]), int(pending[3]))
    return altered(s, pending=pending)


def _again(s: GameState, pending: tuple[Any, ...]) -> tuple[Any, ...]:
    """The melee ``pending`` on the state the snap shot left: its situation again (IX SNAP FIRE: "If
    you wound them, they will be at awkward melee as normal"); a mob's without the members the shot
    stunned, knocked out or killed (a plain melee when none is left)."""
    how, i, j, key = pending[1:5]
    if how == "latch":  # IX LATCH ON: no roll, no situation
        return pending
    data = json.loads(key)
    n, mode, awkward = data["opponent_number"], data["attack_mode"], bool(data.get("awkward"))
    if how == "mob":
        from grimdice.systems.crusade.game import mob

        able = tuple(m for m in pending[6] if s.tokens[m].standing and s.tokens[m].cond != STUNNED)
        if able:
            return ("attack", "mob", i, j, mob.key(s, i, j, able, n), "", able)
        how = "melee"
    return ("attack", how, i, j, situation.melee(s, i, j, n, mode, awkward), "")


def melee(s: GameState) -> GameState:
    """The snap-fired (or passed) melee, pending (IV: "Take a -1 (cumulative) ... for each
    successive opponent": its opponent number as declared)."""
    pending = s.snap[3]
    return _made(altered(s, snap=()), _again(s, pending) if s.snap[2] else pending)


def decide(s: GameState, a: tuple[Any, ...]) -> GameState:
    """``["snap", pistol]`` fires the snap shot; ``["pass"]`` lets the melee go ahead."""
    i, j = s.snap[:2]
    if a[0] == "snap":
        weapon = str(a[1])
        fired = [w.name for w in s.setup.profiles[s.tokens[j].profile].weapons].index(weapon)
        s = altered(s.with_token(j, snapped=s.tokens[j].snapped | (1 << fired)), snap=(i, j, True, s.snap[3]))
        blast = blast_snap(s, j, i, weapon)  # "unless it is a BLAST weapon"
        if blast:
            return altered(s, pending=blast)
        both = latch.also_hit(s, j, i, weapon, "snap")  # IX LATCH ON: "hit BOTH"
        return altered(s, pending=("attack", "snap", j, i, snap_shot(s, j, i, weapon), weapon, both))
    return melee(s)


def knocked(s: GameState, pushed: bool) -> GameState:
    """IX SNAP FIRE: "If you do knockback, deduct 1" from their charge move- if they do not have
    enough move to get to you as a result, they may not melee you!" (reading ``snap_fire``: the
    attacker stays where it is, and its move left, a charge's included, pays the inch; with less
    than an inch left the melee does not take place)."""
    if not pushed or not s.snap or s.snap[0] != s.active:
        return s  # an attacker in the mover's turn (a ZOC's, an ambusher's) has no move to pay
    if s.budget >= 1:
        return altered(s, budget=s.budget - 1)
    return altered(s, snap=())


def proceed(s: GameState) -> GameState:
    """After the snap shot: "If you stun or kill them, the melee does not take place"."""
    i, j = s.snap[:2]
    a = s.tokens[i]
    if not a.alive or a.cond in (STUNNED, KO) or not s.tokens[j].alive:
        return altered(s, snap=())
    return melee(s)


__all__ = ["ask", "blast_snap", "decide", "declare", "knocked", "pistols", "proceed", "snap_shot"]
