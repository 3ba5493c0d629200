"""V ZONE OF CONTROL on the grid: the free melee on a model moving past an enemy, a decision of the
enemy's player in the mover's turn.

V: "If a troop moves within 1" of an enemy and then tries to move past the enemy, the enemy may
choose to make a "free" melee attack on the passer. If the passer is not stunned, killed or KOed by
the melee, they may continue their move. The enemy does not have to make the melee attack ... Note
that this rule does not apply to models that start their move within 1" of an enemy and move
directly away from that enemy. Also, enemies that are already in base to base contact with a
non-friendly model may not exercise a ZOC. The Slip Thru skill allows the user to ignore enemy
ZOCs."

Reading ``zoc_grid``: a step out of a square adjacent to an enemy model is "moving past" it, unless
the model started its move adjacent to that enemy and the step takes it farther from it (directly
away). The enemy must be standing and not stunned, and adjacent to no enemy model but the mover.
Each enemy in reach decides in turn (``["zoc", e]`` or ``["pass"]``) before the step is made.
"""

from __future__ import annotations

from typing import Any

from grimdice.systems.crusade.damage import KO, STUNNED
from grimdice.systems.crusade.game import situation, snap
from grimdice.systems.crusade.game.board import Pos
from grimdice.systems.crusade.game.frozen import altered
from grimdice.systems.crusade.game.state import GameState, has_code


def _guards(s: GameState, e: int, mover: int) -> bool:
    """Whether enemy ``e`` may exercise a ZOC on ``mover``."""
    t = s.tokens[e]
    if t.blip or not t.alive or t.cond in (STUNNED, KO) or t.side == s.tokens[mover].side:
        return False
    board, doors = s.setup.board, s.doors()
    if not board.adjacent(t.sq, s.tokens[mover].sq, doors):
        return False
    return not any(
        k != mover and o.alive and o.side != t.side and board.adjacent(t.sq, o.sq, doors)
        for k, o in enumerate(s.tokens)
    )


def guards(s: GameState, to: Pos) -> tuple[int, ...]:
    """The enemies whose ZOC the active model's step to ``to`` passes."""
    i = s.active
    me = s.tokens[i]
    if me.blip:
        return ()
    side, x, y = me.side, me.sq[0], me.sq[1]
    near = [  # the enemies on the 8 squares (cells) around, where adjacency lies
        e
        for e, t in enumerate(s.tokens)
        if t.side != side and -1 <= t.sq[0] - x <= 1 and -1 <= t.sq[1] - y <= 1
    ]
    if not near or has_code(s.setup.profiles[me.profile].abilities, "SLIP THRU"):
        return ()  # nobody near (the common case: looked at first), or IX SLIP THRU
    out, board, doors = [], s.setup.board, s.doors()
    for e in near:
        t = s.tokens[e]
        if not board.adjacent(t.sq, me.sq, doors) or not _guards(s, e, i):
            continue  # an enemy not beside the mover guards nothing (checked first: it is cheap)
        started_next_to = s.origin is not None and board.range(s.origin, t.sq) <= 1
        away = board.range(to, t.sq) > board.range(me.sq, t.sq)
        if not (started_next_to and away):
            out.append(e)
    return tuple(out)


def offer(s: GameState, to: Pos, cost: float, who: tuple[int, ...]) -> GameState:
    """The step (to ``to`` for ``cost``) waits while each enemy in ``who`` decides (the first one now)."""
    return altered(s, zoc=(to, cost, who))


def decide(s: GameState, a: tuple[Any, ...]) -> GameState:
    """The enemy's choice: ``["pass"]`` lets the mover by; ``["zoc", e]`` is the free melee (IV
    with ``attack_mode: zoc``: SPIKY weapons add their dice), the passer's SNAP FIRE first."""
    to, cost, who = s.zoc
    if a[0] == "zoc":
        e, i = who[0], s.active
        key = situation.melee(s, e, i, 1, mode="zoc")
        s = altered(s.with_token(e, hidden=False), zoc=(to, cost, who[1:]))
        return snap.ask(s, ("attack", "zoc", e, i, key, ""))  # IX SNAP FIRE: "attacked in melee"
    return proceed(altered(s, zoc=(to, cost, who[1:])))


def proceed(s: GameState) -> GameState:
    """After a decision or a free melee: the mover stopped (stunned, KO'd or killed), the next
    enemy to decide, or the step made."""
    from grimdice.systems.crusade.game.moves import step

    to, cost, who = s.zoc
    if s.tokens[s.active].cond in (STUNNED, KO) or not s.tokens[s.active].alive:
        return altered(s, zoc=(), budget=0)
    from grimdice.systems.crusade.game.flight import steps_of

    if all(p != to for _, p, _ in steps_of(s)) or s.occupant(to) >= 0:
        return altered(s, zoc=())  # VIII KNOCKBACK moved one of them: the step is not made
    who = tuple(e for e in who if _guards(s, e, s.active))
    if who:
        return altered(s, zoc=(to, cost, who))
    return step(altered(s, zoc=()), to, cost)


__all__ = ["decide", "guards", "offer", "proceed"]
