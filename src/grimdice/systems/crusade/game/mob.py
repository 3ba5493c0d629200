"""IX MOB in the game: several models' joint melee at one target.

IX: "MOB: Up to 3 of these models may combine their melee values against a single target! Move the
models first, then make a single melee attack that combines all the attackers' melees together
(they must all have an action to melee). If they lose, they must divide the hits up amongst the
models as they see fit until all the hits taken have been assigned, or all the mobbing models are
eliminated. MOB-1: This one model may combine it's melee value with one other model of any kind.
MOB- #: same as mob, except instead of 3 models, the specified number may mob."

Reading ``mob_joint``: "Move the models first": each model moves in its own activation, as any
model moves (doors, ladders, climbs, jumps, the enemies' ZOCs on its way); a member that comes
beside an enemy keeps its action for a mob there (``["join", j]``, its action, offered while a
friend that may lead a mob with it has not been activated this turn). The active MOB model (the
lead, after its move) may make its melee as a mob (``["mob", j, k, ...]``, its action): with up to
its MOB number less one friendly models (MOB-1: one, of any kind; else models with MOB too), each
standing, not stunned, not a chit and beside the target, that either kept its action for a mob at
it this turn or has not been activated this turn (it joins from where it stands, its activation
spent on it: "they must all have an action to melee"); a mob the calculator's exact bounds accept.
They add their melee dice (the calculator's ``mob``). The chance node is the calculator's mob
melee, whose law carries every mob model's end state (:func:`.combat.joint_law`; a losing mob
divides the hits as the calculator does, reading ``mob_losses``); a knockback or throw moves the
lead (reading ``mob_throw``). The target may snap fire at the lead first (IX SNAP FIRE: "If you are
attacked in melee"; the mob is "a single melee attack", the lead's; reading ``snap_fire``).
"""

from __future__ import annotations

import json
from itertools import combinations
from typing import Any, cast

from grimdice.errors import ScenarioError
from grimdice.systems.crusade.damage import STUNNED, State
from grimdice.systems.crusade.game import situation, snap
from grimdice.systems.crusade.game.combat import cached_law
from grimdice.systems.crusade.game.frozen import altered
from grimdice.systems.crusade.game.state import GameState, has_code


def size(s: GameState, i: int) -> int:
    """How many models token ``i`` may mob with, itself included (1: none): MOB is 3, MOB-N N
    (MOB-1: two, "with one other model")."""
    t = s.tokens[i]
    if t.blip:
        return 1
    n = s.setup.fighters[t.profile].fx.get("mob")
    return max(2, int(n)) if n else 1


def _takes(s: GameState, i: int, k: int) -> bool:
    """Whether lead ``i`` may mob with friend ``k`` (MOB-1: "one other model of any kind"; else
    models with MOB)."""
    if s.setup.fighters[s.tokens[i].profile].fx.get("mob") == 1:
        return True
    return has_code(s.setup.profiles[s.tokens[k].profile].abilities, "MOB")


def kept(s: GameState, j: int) -> set[int]:
    """The models that kept their action this turn for a mob at token ``j``."""
    return {m[0] for m in s.mobbing if m[1] == j and (m[2], m[3]) == (s.round, s.player)}


def members(s: GameState, i: int, j: int) -> list[int]:
    """The friends of token ``i`` that may join its mob at ``j`` (see the module text)."""
    me, board, doors = s.tokens[i], s.setup.board, s.doors()
    ready = kept(s, j)
    target = s.tokens[j].sq
    out = []
    for k, t in enumerate(s.tokens):
        if k == i or t.side != me.side or t.blip or not t.standing or t.cond == STUNNED:
            continue
        if (t.done and k not in ready) or not board.adjacent(t.sq, target, doors):
            continue
        if _takes(s, i, k):
            out.append(k)
    return out


def actions(s: GameState, i: int, adjacent: list[int]) -> list[tuple[Any, ...]]:
    """``("mob", j, k, ...)`` for each adjacent enemy ``j`` and each set of members that may join
    (whose melee the calculator's exact bounds accept: not too many dice, nor too large a re-roll
    game)."""
    most = size(s, i) - 1
    out: list[tuple[Any, ...]] = []
    for j in adjacent if most else []:
        near = members(s, i, j)
        for n in range(1, min(most, len(near)) + 1):
            for c in combinations(near, n):
                if solvable(key(s, i, j, c)):
                    out.append(("mob", j, *c))
    return out


def leads(s: GameState, i: int) -> list[int]:
    """The friends of token ``i`` that may still lead a mob with it this turn: standing, not
    stunned, not yet activated, with MOB (or MOB-N)."""
    side = s.tokens[i].side
    return [
        k
        for k, t in enumerate(s.tokens)
        if k != i
        and t.side == side
        and not t.done
        and not t.blip
        and t.standing
        and t.cond != STUNNED
        and size(s, k) > 1
        and _takes(s, k, i)
    ]


def joins(s: GameState, i: int, adjacent: list[int]) -> list[tuple[Any, ...]]:
    """``("join", j)`` for each adjacent enemy ``j`` (not a chit) while a friend may still lead a
    mob with the active model (not a MINDLESS one: it must attack)."""
    t = s.tokens[i]
    if not adjacent or t.blip or has_code(s.setup.profiles[t.profile].abilities, "MINDLESS"):
        return []
    if not leads(s, i):
        return []
    return [("join", j) for j in adjacent if not s.tokens[j].blip]


def join(s: GameState, j: int) -> GameState:
    """The active model keeps its action for a mob at ``j`` (this turn's marks only are kept)."""
    now = tuple(m for m in s.mobbing if (m[2], m[3]) == (s.round, s.player))
    return altered(s, acted=True, mobbing=(*now, (s.active, j, s.round, s.player)))


def solvable(situation: str) -> bool:
    """Whether the calculator solves the mob melee ``situation`` (its law is then cached)."""
    try:
        cached_law(situation)
    except ScenarioError:
        return False
    return True


def key(s: GameState, i: int, j: int, mob: tuple[int, ...], n: int = 0) -> str:
    """The calculator's mob melee of ``i`` (the lead) and ``mob`` at ``j`` (JSON text), ``j`` its
    ``n``-th opponent this activation (0: the next one)."""
    data = json.loads(situation.melee(s, i, j, n or len(s.meleed) + 1))
    rows = []
    for n, k in enumerate(mob):
        row = situation.model_data(s, s.tokens[k])
        row["name"] = f"mob {n + 1}"
        rows.append(row)
    data["mob"] = rows
    return json.dumps(data, sort_keys=True)


def start(s: GameState, a: tuple[Any, ...]) -> GameState:
    """The active model's mob melee: its action and its members' activations spent; the law pending
    (the target's snap fire first)."""
    from grimdice.systems.crusade.game.rules import adjacent_enemies

    i, j, mob = s.active, int(a[1]), tuple(int(k) for k in a[2:])
    if tuple(a) not in actions(s, i, [j] if j in adjacent_enemies(s, i) else []):
        raise ValueError(f"model {i} may not mob model {j} with {list(mob)}")
    k = key(s, i, j, mob)
    for m in mob:  # its activation spent on it ("they must all have an action to melee")
        s = s.with_token(m, done=True)
    for m in (i, *mob):
        s = s.with_token(m, hidden=False)
    s = s.changed(j, {"hidden": False}, acted=True, attacked=True, meleed=(*s.meleed, j))
    return snap.ask(s, ("attack", "mob", i, j, k, "", mob))  # IX SNAP FIRE: "attacked in melee"


def resolve(s: GameState, outcome: tuple[Any, ...]) -> GameState:
    """The mob melee's end: the target's state, every mob model's, the fails and knockbacks."""
    from grimdice.systems.crusade.game.fails import next_blast, weapon_after
    from grimdice.systems.crusade.game.latch import dislodge
    from grimdice.systems.crusade.game.resolve import fail_rolls, knock_back, wound_marks

    _, _, i, j, k, _, mob = s.pending
    (ds, ends, wa, wd, push), _ = cached_law(k)[int(outcome[1])]
    before = s
    s = knock_back(s, i, j, push)
    s = s.with_token(i, arms=weapon_after(s, i, wa, "", j))
    if wd:
        s = s.with_token(j, arms=weapon_after(s, j, wd, "", i))
    s = s.with_token(j, cond=ds[0], hits=ds[1])
    for m, end in zip((i, *mob), cast(tuple[State, ...], ends), strict=True):
        s = s.with_token(m, cond=end[0], hits=end[1])
    s = dislodge(wound_marks(s, before, (i, j, *mob)), push, i, j)
    s, queue = fail_rolls(s, False, ((i, j, wa), (j, i, wd)))
    return next_blast(s, queue)


__all__ = [
    "actions",
    "join",
    "joins",
    "kept",
    "key",
    "leads",
    "members",
    "resolve",
    "size",
    "solvable",
    "start",
]
