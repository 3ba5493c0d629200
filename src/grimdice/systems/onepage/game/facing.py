"""Vehicle facings, pivots and reversing.

"Vehicles may pivot by up to 180° when using Hold actions and by up to 90° at any point during Walk,
Run and Assault actions. Vehicles may not move sideways, and they move at half speed when
reversing." and "If the Vehicle is hit in the front facing you must roll two dice and pick the lowest
result. If the Vehicle is hit in the side or you are not sure, then only roll one die. If the Vehicle
is hit in the rear facing you must roll two dice and pick the highest result."

A Vehicle has a heading (radians; at deployment towards the enemy's edge). A Walk, Run or Assault
goes forwards within 90° of the heading (a pivot of up to 90°, then straight on; the heading becomes
the move's direction) or reverses, at most half the action's distance, within 90° of straight back
(the heading turns the same way). On Hold it pivots to face the target it shoots. A shooting's
facing is the quarter (90° arcs centred on the heading: front, sides, rear) in which the shooters'
centre lies, seen from the vehicle's centre; it sets ``Conditions.facing`` of the exact shooting.
A melee uses the quarter the other unit's centre lies in after the Assault move (:func:`melee_facing`).
Weapon arcs (turret or front mountings) are in ``firing.py``. Our readings: the arcs are quarters;
Walkers "follow the Vehicle damage rules" but have no facings here (one die, "not sure": like every
unit but Vehicles they "may move and turn in any direction regardless of their facing").
"""

from __future__ import annotations

import math
from dataclasses import replace
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from grimdice.systems.onepage.game.state import GameState

EPS = 1e-6
REVERSE = 0.5  # "they move at half speed when reversing"


def is_vehicle(s: GameState, u: int) -> bool:
    return s.setup.units[u].kind == "vehicle"


def heading(s: GameState, u: int) -> float:
    """The unit's heading (radians); by default towards the enemy's table edge."""
    if s.facing:
        return s.facing[u]
    return math.pi / 2 if s.setup.owner[u] == s.south else -math.pi / 2


def off_heading(s: GameState, u: int, dx: float, dy: float) -> float:
    """The angle (0..pi) between the heading and the direction (dx, dy)."""
    h = heading(s, u)
    a = math.atan2(dy, dx) - h
    return abs((a + math.pi) % (2 * math.pi) - math.pi)


def allowed(s: GameState, u: int, full: float, moves: list[tuple[float, float]]) -> list[tuple[float, float]]:
    """The block moves a Vehicle may make: forwards within 90° of its heading, or reversing at most
    half of ``full`` (a longer reverse is cut to half, if that place is legal)."""
    if not is_vehicle(s, u):
        return moves
    out: list[tuple[float, float]] = []
    ax, ay = s.anchors[u]
    for dx, dy in moves:
        length = math.hypot(dx, dy)
        if off_heading(s, u, dx, dy) <= math.pi / 2 + EPS or length <= REVERSE * full + EPS:
            mv = (dx, dy)
        else:
            k = REVERSE * full / length
            mv = (math.trunc(dx * k * 1000) / 1000, math.trunc(dy * k * 1000) / 1000)
            if not s.placement_ok(u, (ax, ay), (ax + mv[0], ay + mv[1]))[0]:
                continue
        if mv not in out:
            out.append(mv)
    return out


def turned(s: GameState, u: int, dx: float, dy: float) -> GameState:
    """The heading after a move by (dx, dy): its direction, or the opposite when reversing."""
    if not is_vehicle(s, u) or math.hypot(dx, dy) < EPS:
        return s
    h = math.atan2(dy, dx)
    if off_heading(s, u, dx, dy) > math.pi / 2 + EPS:
        h += math.pi
    return with_heading(s, u, h)


def with_heading(s: GameState, u: int, h: float) -> GameState:
    hs = list(s.facing) if s.facing else [heading(s, v) for v in range(len(s.units))]
    hs[u] = round(math.atan2(math.sin(h), math.cos(h)), 6)
    return replace(s, facing=tuple(hs))


def pivot_to(s: GameState, u: int, t: int) -> GameState:
    """Hold: "pivot by up to 180°" - to face the target (not when Immobile)."""
    if not is_vehicle(s, u) or s.units[u].immobile:
        return s
    a, b = s.models(u).mean(axis=0), s.models(t).mean(axis=0)
    return with_heading(s, u, math.atan2(b[1] - a[1], b[0] - a[0]))


def hit_facing(s: GameState, shooter: int, target: int, anchor: tuple[float, float] | None = None) -> str:
    """The facing of a Vehicle hit from the shooters' centre: front, side or rear quarter."""
    if not is_vehicle(s, target):
        return "side"
    a, b = s.models(shooter, anchor).mean(axis=0), s.models(target).mean(axis=0)
    off = off_heading(s, target, float(a[0] - b[0]), float(a[1] - b[1]))
    if off < math.pi / 4 - EPS:
        return "front"
    if off > 3 * math.pi / 4 + EPS:
        return "rear"
    return "side"


def melee_facing(s: GameState, u: int, t: int) -> str:
    """The facing of a melee between assaulter ``u`` and defender ``t`` (after the Assault move), for
    the exact melee's one ``Conditions.facing``: a Vehicle is hit from the quarter the other unit's
    centre lies in, as in shooting. Both Vehicles hit in different facings: "not sure" (one die),
    since the exact melee takes one facing for both strikes (our reading)."""
    hit_d, hit_a = hit_facing(s, u, t), hit_facing(s, t, u)
    if is_vehicle(s, t) and is_vehicle(s, u):
        return hit_d if hit_d == hit_a else "side"
    return hit_d if is_vehicle(s, t) else hit_a


def charge_allowed(s: GameState, u: int, t: int) -> bool:
    """A Vehicle's Assault move goes forwards (within 90°) or reverses at most half its distance."""
    if not is_vehicle(s, u):
        return True
    from grimdice.systems.onepage.movement import move_distance

    dx, dy = s.charge_vector(u, t)
    full = move_distance(s.setup.units[u], "assault")
    return off_heading(s, u, dx, dy) <= math.pi / 2 + EPS or math.hypot(dx, dy) <= REVERSE * full + EPS


__all__ = ["allowed", "charge_allowed", "heading", "hit_facing", "melee_facing", "pivot_to", "turned"]
