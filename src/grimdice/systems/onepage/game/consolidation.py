"""Consolidation moves after a melee.

"After determining who won the combat, the assaulting unit makes consolidation moves. If the
defending unit was completely destroyed, either by removing all models as casualties or by routing
due to a failed morale test, then the assaulting unit may move by up to 3". If the defending unit
was not completely destroyed, then the assaulting unit must move back by 1", separating itself from
the defending unit."

When the defender is destroyed and the assaulter is not, the assaulter's owner decides in phase
``consolidate``: ``["consolidate", u, 0, 0]`` (stay; always legal, listed first) or
``["consolidate", u, dx, dy]``, one of the block's candidate moves at 3" (``GameState.moves``: the
8 compass directions, towards each enemy unit and into each cover piece, each at the longest legal
length) with the checks every move has (on the table, no impassable terrain, never within 1" of
another unit; a Vehicle goes forwards or reverses at half distance and turns with the move; an
Immobile one stays). A consolidation through dangerous terrain rolls for it (``dangerous.py``).
Otherwise the 1" move back is automatic (:func:`move_back`): a move like any other, with every
move's checks (on the table, not into or through impassable terrain, not newly within 1" of another
unit), a Vehicle's movement ("Vehicles may not move sideways, and they move at half speed when
reversing": within 90° of its heading it goes forwards and turns to the move, else it reverses 0.5"
keeping its heading, ``facing.allowed``) and a dangerous-terrain test when its models move into or
across a dangerous piece (``dangerous.hazard``, as every move). Its direction is straight away from
the closest defending model; where that place fails, the first legal one of the directions turned
15°, 30°, ... 75° either side (the nearer to straight first; of two equally turned, the one further
from the defender), among those that separate it from the defender (its gap grows). If none is
legal the unit stays (our reading: the text says nothing of a blocked move back). An Immobile
Vehicle stays ("may not move or pivot until the end of the game", which we read as taking
precedence). Our reading: a destroyed transport's passengers are placed after the consolidation (at
the end of the activation, ``transport.wreck``).
"""

from __future__ import annotations

import math
from dataclasses import replace
from typing import TYPE_CHECKING, Any

import numpy as np

if TYPE_CHECKING:
    from grimdice.systems.onepage.game.state import GameState

KIND = "consolidate"
CONSOLIDATE = 3.0  # "the assaulting unit may move by up to 3""
BACK = 1.0  # "the assaulting unit must move back by 1""
TURNS = (0, 15, 30, 45, 60, 75)  # degrees off straight back tried, in order, when a place fails
EPS = 1e-6


def after_melee(s: GameState, u: int, t: int) -> GameState:
    """The consolidation of assaulter ``u`` after its melee with ``t`` (states already updated)."""
    if s.units[u].destroyed:
        return s.end_activation()
    if s.units[t].destroyed:
        if len(options(s, u)) > 1:
            return replace(s, phase=KIND, player=s.setup.owner[u], active=u, action=KIND, pending=())
        return s.end_activation()
    return move_back(s, u, t)


def back_moves(s: GameState, u: int, t: int) -> list[tuple[float, float]]:
    """The 1" moves back of ``u`` from defender ``t`` that are legal, in the order tried: straight
    away from the closest defending model, then turned by :data:`TURNS` either side (of two equally
    turned, the one ending further from ``t`` first); each with every move's checks
    (``GameState.placements``), a Vehicle's forwards or half-speed reverse (``facing.allowed``), and
    separating ``u`` from ``t`` (the gap between them grows). Empty: no legal place (an Immobile
    Vehicle has none)."""
    from grimdice.systems.onepage.game import facing
    from grimdice.systems.onepage.game.moving import trunc3

    if s.units[u].immobile:  # "may not move or pivot until the end of the game"
        return []
    ux, uy = s.charge_vector(u, t, unit=True)  # towards the closest defending model
    if (ux, uy) == (0.0, 0.0):
        return []
    back = math.atan2(-uy, -ux)
    turns = [0.0] + [math.radians(d) * side for d in TURNS[1:] for side in (1.0, -1.0)]
    ax, ay = s.anchors[u]
    ranked: list[tuple[int, tuple[float, float]]] = []
    for i, a in enumerate(turns):
        want = (trunc3(BACK * math.cos(back + a)), trunc3(BACK * math.sin(back + a)))
        # a Vehicle within 90° of its heading goes forwards, else reverses half as far
        ranked += [((i + 1) // 2, m) for m in facing.allowed(s, u, BACK, [want])]
    if not ranked:
        return []
    ends = np.array([(ax + dx, ay + dy) for _, (dx, dy) in ranked], dtype=float)
    ok = s.placements(u, (ax, ay), ends)[0]  # on the table, no impassable terrain, 1" from others
    before = s.gap(u, t)
    legal = []
    for (rank, m), good in zip(ranked, ok, strict=True):
        gap = s.gap(u, t, (ax + m[0], ay + m[1])) if good else before
        if gap > before + EPS:  # "separating itself from the defending unit"
            legal.append((rank, -gap, m))
    return [m for _, _, m in sorted(legal, key=lambda x: (x[0], x[1]))]


def move_back(s: GameState, u: int, t: int) -> GameState:
    """ "the assaulting unit must move back by 1", separating itself from the defending unit": the
    first of :func:`back_moves` (none: it stays), made as every move (:func:`moved`)."""
    moves = back_moves(s, u, t)
    if not moves:
        return s.end_activation()
    return moved(s, u, *moves[0])


def options(s: GameState, u: int) -> list[tuple[float, float]]:
    """Stay, then the legal 3" block moves (a Vehicle's forwards or half-speed reverse)."""
    from grimdice.systems.onepage.game import facing

    if s.units[u].immobile:  # "may not move or pivot until the end of the game"
        return [(0.0, 0.0)]
    moves = facing.allowed(s, u, CONSOLIDATE, s.moves(u, KIND, CONSOLIDATE))
    return [(0.0, 0.0)] + [m for m in moves if m != (0.0, 0.0)]


def legal_actions(s: GameState) -> list[list[Any]]:
    u = s.active
    return [[KIND, u, dx, dy] for dx, dy in options(s, u)]


def apply(s: GameState, a: Any) -> GameState:
    u, dx, dy = int(a[1]), float(a[2]), float(a[3])
    if (dx, dy) == (0.0, 0.0):
        return s.end_activation()
    return moved(s, u, dx, dy)


def moved(s: GameState, u: int, dx: float, dy: float) -> GameState:
    """A consolidation move by (dx, dy) as every move: a Vehicle turns with it, and models that
    moved into or across dangerous terrain roll for it (``dangerous.hazard``); then the activation
    ends."""
    from grimdice.systems.onepage.game import dangerous, facing

    after = facing.turned(s.moved(u, dx, dy), u, dx, dy)
    hz = dangerous.hazard(s, after, u, KIND, u)
    return hz if hz is not None else after.end_activation()


__all__ = [
    "BACK",
    "CONSOLIDATE",
    "KIND",
    "after_melee",
    "apply",
    "back_moves",
    "legal_actions",
    "move_back",
    "moved",
    "options",
]
