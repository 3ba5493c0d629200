"""IX MOB in the game: several models' joint melee at one target.

IX: "MOB: Up to 3 of these models may combine their melee values against a single target! Move the
models first, then make a single melee attack that combines all the attackers' melees together
(they must all have an action to melee). If they lose, they must divide the hits up amongst the
models as they see fit until all the hits taken have been assigned, or all the mobbing models are
eliminated. MOB-1: This one model may combine it's melee value with one other model of any kind.
MOB- #: same as mob, except instead of 3 models, the specified number may mob."

Reading ``mob_joint``: the active MOB model (the lead, after its move) may make its melee as a mob
(``["mob", j, k, ...]``, its action): with up to its MOB number less one friendly models (MOB-1:
one, of any kind; else models with MOB too), each standing, not stunned, not yet activated this
turn and not a chit, that stands beside the target or reaches a free place beside it by plain
steps within its move (stairs and short ladders among them), or by a tall ladder or a manhole as
its whole move, never next to an enemy blip ("Move the models first": each member in turn
is put on the nearest such place left, by move, then reading order; hidden enemies it comes to
see or touch are revealed; no ZOC is asked); a mob the calculator's exact bounds accept. They add
their melee dice (the calculator's ``mob``); each spends its activation on it (done for the turn).
The chance node is the calculator's mob melee, whose law carries every mob model's end state
(:func:`.combat.joint_law`; a losing mob divides the hits as the calculator does, reading
``mob_losses``); a knockback or throw moves the lead (reading ``mob_throw``). No snap fire comes
before it.
"""

from __future__ import annotations

import json
from itertools import combinations
from typing import Any, cast

from grimdice.errors import ScenarioError
from grimdice.systems.crusade.damage import STUNNED, State
from grimdice.systems.crusade.game import situation
from grimdice.systems.crusade.game.board import Pos
from grimdice.systems.crusade.game.combat import cached_law
from grimdice.systems.crusade.game.frozen import altered
from grimdice.systems.crusade.game.moves import plain_reach, reveal_around
from grimdice.systems.crusade.game.state import GameState, has_code

#: the steps of a whole move a member may take on its way (V: "Tall ladders (3"-6") cost 1 full
#: movement"; X: "Treat manholes as a 6" ladder")
WHOLE_MOVES = ("ladder", "manhole")


def size(s: GameState, i: int) -> int:
    """How many models token ``i`` may mob with, itself included (1: none): MOB is 3, MOB-N N
    (MOB-1: two, "with one other model")."""
    t = s.tokens[i]
    if t.blip:
        return 1
    n = s.setup.fighters[t.profile].fx.get("mob")
    return max(2, int(n)) if n else 1


def members(s: GameState, i: int, j: int) -> dict[int, list[Pos]]:
    """The friends of token ``i`` that may join its mob at ``j``, each with the places beside ``j``
    it may end its move on, best first (its own place when it stands beside ``j``)."""
    me = s.tokens[i]
    anyone = s.setup.fighters[me.profile].fx.get("mob") == 1  # MOB-1: "one other model of any kind"
    out: dict[int, list[Pos]] = {}
    for k, t in enumerate(s.tokens):
        if k == i or t.side != me.side or t.blip or t.done or not t.standing or t.cond == STUNNED:
            continue
        if anyone or has_code(s.setup.profiles[t.profile].abilities, "MOB"):
            places = _places(s, k, j)
            if places:
                out[k] = places
    return out


def _places(s: GameState, k: int, j: int) -> list[Pos]:
    """Where member ``k`` may stand beside ``j`` after its move ("Move the models first"): its own
    place if beside ``j``; else the free places beside ``j`` that plain steps costing at most its
    move reach (never next to an enemy blip, which the move would reveal), nearest first."""
    from grimdice.systems.crusade.game.latch import partner

    t, board, doors = s.tokens[k], s.setup.board, s.doors()
    target = s.tokens[j].sq
    if board.adjacent(t.sq, target, doors):
        return [t.sq]
    if partner(s, k) >= 0:  # IX LATCH ON: held where it stands
        return []
    cost = plain_reach(s, k, s.move_of(t), WHOLE_MOVES)
    beside = [q for q in cost if q != t.sq and board.adjacent(q, target, doors)]
    return sorted(beside, key=lambda q: (cost[q], q))


def placed(s: GameState, i: int, j: int, mob: tuple[int, ...]) -> tuple[Pos, ...] | None:
    """Each member's place beside ``j``, in turn the best one not taken by an earlier member (None
    when one has none left, or a member may not join)."""
    near = members(s, i, j)
    taken: set[Pos] = set()
    out = []
    for k in mob:
        free = [q for q in near.get(k, []) if q not in taken]
        if not free:
            return None
        taken.add(free[0])
        out.append(free[0])
    return tuple(out)


def actions(s: GameState, i: int, adjacent: list[int]) -> list[tuple[Any, ...]]:
    """``("mob", j, k, ...)`` for each adjacent enemy ``j`` and each set of members that may join
    and find places beside it (whose melee the calculator's exact bounds accept: not too many
    dice, nor too large a re-roll game)."""
    most = size(s, i) - 1
    out: list[tuple[Any, ...]] = []
    for j in adjacent if most else []:
        near = sorted(members(s, i, j))
        for n in range(1, min(most, len(near)) + 1):
            for c in combinations(near, n):
                if placed(s, i, j, c) is not None and solvable(key(s, i, j, c)):
                    out.append(("mob", j, *c))
    return out


def solvable(situation: str) -> bool:
    """Whether the calculator solves the mob melee ``situation`` (its law is then cached)."""
    try:
        cached_law(situation)
    except ScenarioError:
        return False
    return True


def key(s: GameState, i: int, j: int, mob: tuple[int, ...]) -> str:
    """The calculator's mob melee of ``i`` (the lead) and ``mob`` at ``j`` (JSON text)."""
    data = json.loads(situation.melee(s, i, j, len(s.meleed) + 1))
    rows = []
    for n, k in enumerate(mob):
        row = situation.model_data(s, s.tokens[k])
        row["name"] = f"mob {n + 1}"
        rows.append(row)
    data["mob"] = rows
    return json.dumps(data, sort_keys=True)


def start(s: GameState, a: tuple[Any, ...]) -> GameState:
    """The active model's mob melee: its action and its members' activations spent; the law pending."""
    from grimdice.systems.crusade.game.rules import adjacent_enemies

    i, j, mob = s.active, int(a[1]), tuple(int(k) for k in a[2:])
    if tuple(a) not in actions(s, i, [j] if j in adjacent_enemies(s, i) else []):
        raise ValueError(f"model {i} may not mob model {j} with {list(mob)}")
    k = key(s, i, j, mob)
    places = placed(s, i, j, mob) or ()
    for m, q in zip(mob, places, strict=True):  # "Move the models first"
        s = reveal_around(s.with_token(m, sq=q, done=True), m)
    for m in (i, *mob):
        s = s.with_token(m, hidden=False)
    s = altered(s.with_token(j, hidden=False), acted=True, attacked=True, meleed=(*s.meleed, j))
    return altered(s, pending=("attack", "mob", i, j, k, "", mob))


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


__all__ = ["actions", "key", "members", "placed", "resolve", "size", "solvable", "start"]
