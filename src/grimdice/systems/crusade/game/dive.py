"""DIVE ATTACK on a table (V MOVEMENT).

V: "You may dive onto a target that is lower than you as a melee attack. This counts as part of a
move and an attack. Measure the distance out from the edge to your target and add 1. You must JUMP
this distance (see Jumping above) or you will fall and take a stun. If you succeed, make a melee
attack with +O, and neither you nor the defender can reroll! If you fail, you will fall!"

``["dive", j]`` (reading ``dive``): the active model, outdoors, standing 1"-3" above an enemy ``j``
it sees (a drop of 4" or more is a FALL, V JUMPING), dives to the free position beside ``j`` nearest
to it; the distance is the inches across from its cell to that position, plus 1, at most 4" (the
longest jump across, :data:`~.table.MAX_GAP`, plus the inch), paid from its move; its action. A
chance node ``["dive", 1 | 0]`` with the jump's chance (:func:`~.climb.chance`'s dice, V JUMPING);
made: the model lands there and melees ``j`` as the calculator's ``attack_mode: dive`` (+O read as
a red die, no re-rolls either side; the target's IX SNAP FIRE, "If you are attacked in melee,
before the melee occurs", comes after the landing, before the melee); failed: it lands there stunned (a
graze, III: Stun + Stun = KO) and its move ends.
"""

from __future__ import annotations

import math
from typing import Any

from grimdice.engine.table.lattice import EIGHT
from grimdice.systems.crusade.damage import KILLED, graze
from grimdice.systems.crusade.game import situation, snap
from grimdice.systems.crusade.game.board import Pos
from grimdice.systems.crusade.game.frozen import altered
from grimdice.systems.crusade.game.state import GameState
from grimdice.systems.crusade.game.table import MAX_DROP, MAX_GAP, TableBoard

MAX_DIVE = MAX_GAP + 1  # reading dive: the longest jump across, and the inch the text adds


def _landing(s: GameState, i: int, j: int) -> tuple[float, Pos] | None:
    """The free position beside ``j`` nearest to ``i`` (reading order on ties) and the distance."""
    board = s.setup.board
    assert isinstance(board, TableBoard)
    me, tgt = s.tokens[i].sq, s.tokens[j].sq
    taken = s.occupied()
    found = []
    for dx, dy in EIGHT:
        q = (tgt[0] + dx, tgt[1] + dy, tgt[2])
        if q in taken or not board.enterable(q, 0) or not board.adjacent(q, tgt, {}):
            continue
        if board.indoors(q) >= 0:
            continue
        found.append((math.hypot(q[0] - me[0], q[1] - me[1]) + 1, (q[1], q[0]), q))
    if not found:
        return None
    d, _, q = min(found)
    return d, q


def actions(s: GameState, sight: list[int], budget: float) -> list[tuple[Any, ...]]:
    """``["dive", j]`` for each enemy ``j`` in sight the active model may dive onto."""
    board = s.setup.board
    i = s.active
    me = s.tokens[i]
    if not isinstance(board, TableBoard) or me.blip or board.indoors(me.sq) >= 0:
        return []
    out: list[tuple[Any, ...]] = []
    for j in sight:
        t = s.tokens[j]
        if t.blip or not 1 <= me.sq[2] - t.sq[2] <= MAX_DROP or board.indoors(t.sq) >= 0:
            continue
        land = _landing(s, i, j)
        if land is not None and land[0] <= min(MAX_DIVE, budget + 1e-9) and chance(s, land[0]) > 0:
            out.append(("dive", j))
    return out


def below(s: GameState, i: int) -> bool:
    """Whether an enemy model stands 1" to :data:`~.table.MAX_DROP` lower than token ``i`` (what
    :func:`actions` asks of each target first: none, no dive, without looking at sight)."""
    me = s.tokens[i]
    z = me.sq[2]
    for t in s.tokens:  # a plain loop: asked at most decisions, a generator costs more
        if t.cond != KILLED and not t.blip and t.side != me.side and 1 <= z - t.sq[2] <= MAX_DROP:
            return True
    return False


def chance(s: GameState, distance: float) -> float:
    """V: "You must JUMP this distance" (straight across, no height up)."""
    from grimdice.systems.crusade.game.climb import jump_odds

    return jump_odds(s, distance, 0)


def start(s: GameState, j: int) -> GameState:
    """The dive declared: an attack (the model is revealed), its jump roll pending."""
    i = s.active
    land = _landing(s, i, j)
    assert land is not None
    d, q = land
    s = altered(s.with_token(i, hidden=False).with_token(j, hidden=False), acted=True, attacked=True)
    return altered(s, pending=("dive", i, j, q, d, chance(s, d)))


def outcomes(s: GameState) -> list[tuple[tuple[Any, ...], float]]:
    p = s.pending[5]
    return [(("dive", 1), p), (("dive", 0), 1 - p)] if p < 1 else [(("dive", 1), 1.0)]


def resolve(s: GameState, outcome: tuple[Any, ...]) -> GameState:
    """Made: the model lands beside the target and melees it with +O, no re-rolls (the target's
    snap fire first); failed: it lands stunned and its move ends."""
    _, i, j, q, d, _ = s.pending
    s = altered(s.with_token(i, sq=tuple(q)), pending=(), budget=s.budget - d, moved=s.moved + 1)
    if not outcome[1]:
        t = s.tokens[i]
        cond, hits = graze((t.cond, t.hits), "stun", s.setup.fighters[t.profile].body)
        return altered(s.with_token(i, cond=cond, hits=hits), budget=0)
    s = altered(s, meleed=(*s.meleed, j))
    key = situation.melee(s, i, j, len(s.meleed), "dive")
    return snap.ask(s, ("attack", "melee", i, j, key, ""))  # IX SNAP FIRE: "attacked in melee"


__all__ = ["MAX_DIVE", "actions", "chance", "outcomes", "resolve", "start"]
