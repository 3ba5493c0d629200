"""IX AMBUSH in the grid game: a free attack by a model of a blip revealed in the enemy's turn.

IX: "AMBUSH: May make a free attack when revealed (but may not rapid fire) and may then make a half
move." Reading ``ambush``: each AMBUSH model of a blip revealed in the other player's turn may, in
turn, shoot an enemy it sees with a ranged weapon or melee an adjacent one (its player's choice,
``["shoot", t, w]``, ``["melee", t]``, a TWO FISTED model's ``["fists", ...]`` or ``["pass"]``),
before the moving model goes on. A template, line or area rolls at every model it reaches and SPLIT
FIRE may name two targets (``["shoot", t, w, t2]``), as a shot at several models in the model's own
turn (:mod:`.many`); RAPID FIRE fires once at one target ("may not rapid fire"). A model meleed
may snap fire first (IX SNAP FIRE: "If you are attacked in melee"). A moving model the ambush stuns
stops (no more move or action).
Reading ``ambush_move``: then, attack or not, the ambusher (standing, not stunned) may make a half
move: its player names the position it ends on (``["half", *position]``) or passes, among those
reached by plain steps (no doors, climbs, jumps or ladders) costing at most half its move, never
stepping next to an enemy blip; hidden models are revealed where it ends, no ZOC is asked. In the
queue ``GameState.ambush`` a model's half move still to come is written ``~k``.
"""

from __future__ import annotations

import json
from typing import Any

from grimdice.systems.crusade.damage import STUNNED
from grimdice.systems.crusade.game import fists, latch, many, situation
from grimdice.systems.crusade.game.board import Pos
from grimdice.systems.crusade.game.frozen import altered
from grimdice.systems.crusade.game.moves import plain_reach
from grimdice.systems.crusade.game.snap import allowed, ask
from grimdice.systems.crusade.game.state import READY, GameState, has_code
from grimdice.systems.crusade.units import SHOOTING_KINDS


def ambushers(s: GameState, revealed: list[int]) -> tuple[int, ...]:
    return tuple(k for k in revealed if has_code(s.setup.profiles[s.tokens[k].profile].abilities, "AMBUSH"))


def who(s: GameState) -> int:
    """The model whose choice the ambush queue waits on (its attack, or its half move)."""
    return s.ambush[0] if s.ambush[0] >= 0 else ~s.ambush[0]


def half_moves(s: GameState, k: int) -> list[Pos]:
    """Where ambusher ``k``'s half move may end (reading ``ambush_move``), nearest first (then in
    order found); none when it lies down, is stunned or is out of action."""
    t = s.tokens[k]
    if not t.alive or not t.standing or t.cond == STUNNED:
        return []
    cost = plain_reach(s, k, s.move_of(t) / 2)
    return sorted((q for q in cost if q != t.sq), key=lambda q: cost[q])


def actions(s: GameState) -> list[tuple[Any, ...]]:
    """The ambusher's choices: pass, or one attack; then pass, or a half move's end."""
    from grimdice.systems.crusade.game.rules import adjacent_enemies, targets_in_sight

    if s.ambush[0] < 0:
        return [("pass",), *(("half", *q) for q in half_moves(s, ~s.ambush[0]))]
    k = s.ambush[0]
    t = s.tokens[k]
    out: list[tuple[Any, ...]] = [("pass",)]
    if not t.standing or t.cond == STUNNED:
        return out
    from grimdice.systems.crusade.game.many import mode, named_targets, reached

    weapons = s.setup.profiles[t.profile].weapons
    sight = targets_in_sight(s, k)
    ready = [
        w.name for w, st in zip(weapons, t.arms, strict=True) if w.kind in SHOOTING_KINDS and st == READY
    ]
    for j in sight:
        out.extend(("shoot", j, w) for w in ready if reached(s, k, j, w))  # a template's reach
    for w in (w for w in ready if mode(s, k, w) == "split_fire"):  # VIII SPLIT FIRE: two named
        out.extend(("shoot", a, w, b) for a, b in named_targets(s, k, w, sight))
    out.extend(fists.actions(s, k, sight))  # IX TWO FISTED
    out.extend(("melee", j) for j in adjacent_enemies(s, k))
    return out


def decide(s: GameState, a: tuple[Any, ...]) -> GameState:
    k, rest = s.ambush[0], s.ambush[1:]
    if k < 0:  # the half move
        s = altered(s, ambush=rest)
        if a[0] != "half":
            return s
        from grimdice.systems.crusade.game.moves import reveal_around

        return reveal_around(s.with_token(~k, sq=tuple(a[1:])), ~k)
    s = altered(s, ambush=(~k, *rest))
    if a[0] == "shoot" and many.mode(s, k, str(a[2])) != "rapid_fire":  # a template, line, area, split
        how, targets, key = many.plan(altered(s, moved=0), k, a)
        if how == "many":
            both = latch.also_hit_many(s, k, targets, str(a[2]), "ambush")  # IX LATCH ON: "hit BOTH"
            return altered(s, pending=("attack", "many", k, int(a[1]), key, str(a[2]), targets, both))
    if a[0] == "shoot":  # one target; RAPID FIRE without its rapid fire
        data = json.loads(situation.shot(altered(s, moved=0), k, int(a[1]), str(a[2])))
        for w in data["attacker"]["weapons"]:
            w["effects"] = allowed(w.get("effects", []), ("rapid_fire",))  # "may not rapid fire"
        key = json.dumps(data, sort_keys=True)
        both = latch.also_hit(s, k, int(a[1]), str(a[2]), "ambush")  # IX LATCH ON: "hit BOTH"
        return altered(s, pending=("attack", "ambush", k, int(a[1]), key, str(a[2]), both))
    if a[0] == "fists":
        return altered(s, pending=fists.pending(s, k, int(a[1]), "ambush", *(int(v) for v in a[2:])))
    if a[0] == "melee":
        key = situation.melee(s, k, int(a[1]), 1)
        return ask(s, ("attack", "ambush", k, int(a[1]), key, ""))  # IX SNAP FIRE: "attacked in melee"
    return _no_half(s)


def _no_half(s: GameState) -> GameState:
    """Drop the half move waiting first in the queue when the ambusher has nowhere to go."""
    if s.ambush and s.ambush[0] < 0 and not half_moves(s, ~s.ambush[0]):
        return altered(s, ambush=s.ambush[1:])
    return s


def after(s: GameState) -> GameState:
    """The moving model, stunned by the ambush, stops; the ambusher's half move comes next."""
    if s.active >= 0 and s.tokens[s.active].cond == STUNNED:
        s = altered(s, budget=0, acted=True)
    return _no_half(s)


__all__ = ["actions", "after", "ambushers", "decide", "half_moves", "who"]
