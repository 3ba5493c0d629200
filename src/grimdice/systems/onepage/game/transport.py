"""Transport(X) in the game: embarking, disembarking, and passengers of a destroyed transport.

"Units with this special rule may transport up to X Infantry models in their cargo. Infantry units
may embark by moving into contact with the unit, and embarked units may use a Walk action to
disembark. Infantry units may also be deployed within a unit with this rule at the beginning of the
game. If an Infantry unit is within a transport when it is destroyed, then the unit takes D6
automatic hits, and any surviving models must be placed within 6" of the transport."

Actions: ``["embark", u, t]`` (at deployment, or in play as a move into base contact with a Run's
reach, ending the activation), ``["disembark", u, dx, dy]`` (a Walk from the transport: the block
starts on the transport's centre, then may shoot). An embarked unit is off the table (no target,
no line of sight); its other action is ``["idle", u]`` (it stays inside). When a transport is
destroyed, each passenger unit in turn is a chance node ``("transport", u, t, ())`` with the exact
law of its end state after D6 automatic hits (``exact.hazard_table``); its survivors are placed by
:func:`unload` and the activation ends.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any

import numpy as np

from grimdice.engine.frozen import replace
from grimdice.engine.table.blocks import blocks, blocks_gaps
from grimdice.engine.table.sweeps import bases_in
from grimdice.systems.onepage.game import moving
from grimdice.systems.onepage.game.cache import recall
from grimdice.systems.onepage.game.deployment import ON_TABLE, placed, settle
from grimdice.systems.onepage.game.places import others
from grimdice.systems.onepage.game.setup import BLOCK
from grimdice.systems.onepage.game.shapes import with_shape
from grimdice.systems.onepage.movement import move_distance

if TYPE_CHECKING:
    from grimdice.systems.onepage.game.state import GameState

KINDS = ("embark", "disembark")
UNLOAD = 6.0  # "any surviving models must be placed within 6" of the transport"
EPS = 1e-6
KEEP_CLEAR = 1.0  # "Units may not move within 1\" of other units"


def capacity(s: GameState, t: int) -> int:
    return int(s.setup.units[t].rules.get("transport", 0) or 0)


def aboard(s: GameState, t: int) -> list[int]:
    """Units embarked in transport ``t`` (alive)."""
    return [v for v in range(len(s.units)) if s.place and s.place[v] == t and not s.units[v].destroyed]


def room(s: GameState, u: int) -> list[int]:
    """Friendly transports on the table with room for Infantry unit ``u``'s models: "may transport
    up to X Infantry models in their cargo"."""
    if s.setup.units[u].kind != "infantry" or capacity(s, u):
        return []
    n = s.units[u].models
    return [
        t
        for t in transports(s)
        if t != u
        and s.setup.owner[t] == s.setup.owner[u]
        and not s.units[t].destroyed
        and s.on_table(t)
        and sum(s.units[v].models for v in aboard(s, t)) + n <= capacity(s, t)
    ]


def transports(s: GameState) -> tuple[int, ...]:
    """The units with the Transport rule, in order (kept in the geometry memo: the armies are fixed)."""
    return recall(s.setup, ("transports",), lambda: tuple(t for t in range(len(s.units)) if capacity(s, t)))


def deploy_options(s: GameState, u: int) -> list[int]:
    """ "Infantry units may also be deployed within a unit with this rule at the beginning of the game." """
    return room(s, u)


def embark_actions(s: GameState, u: int) -> list[list[Any]]:
    """ "Infantry units may embark by moving into contact with the unit" (within a Run's reach, on a
    clear path: the Assault move's checks, see ``GameState.charge_ok``; one straight leg)."""
    reach = move_distance(s.setup.units[u], "run")
    return [
        ["embark", u, t]
        for t in room(s, u)
        if s.gap(u, t) <= reach + EPS and moving.straight_charge_ok(s, u, t)
    ]


def from_hull(s: GameState, u: int, t: int) -> GameState:
    """``u``'s block standing on transport ``t``'s centre, on the table (where it disembarks from; a
    unit leaves its transport in its block, ``shapes.py``)."""
    return placed(with_shape(s, u, BLOCK), u, *s.anchors[t])


def clear_out(s: GameState, u: int, t: int, ends: list[tuple[float, float]]) -> list[bool]:
    """For each end anchor of ``u``'s disembarking block (``ends``): no base of ``u`` over the
    transport ``t``'s hull, and none closer than 1" to any other unit ("Units may not move within 1"
    of other units": it was not on the table before, so the Walk's "nor closer than it already
    was" from the hull's centre does not apply). Every end at once (``blocks.blocks_gaps``; each
    distance ``base_distances``' arithmetic)."""
    if not ends:
        return []
    bs = blocks(s.block(u), np.array(ends, dtype=float))  # (C, n, 2): the block at each end
    hull = s.models(t)
    dx = bs[:, :, None, 0] - hull[None, None, :, 0]
    dy = bs[:, :, None, 1] - hull[None, None, :, 1]
    ok = (np.sqrt(dx * dx + dy * dy) >= s.setup.radii[u] + s.setup.radii[t] - EPS).all(axis=(1, 2))
    pts, radii, starts, ids = others(s, u, ignore=t)
    if ids:
        ok &= (blocks_gaps(bs, s.setup.radii[u], pts, radii, starts) >= KEEP_CLEAR - EPS).all(axis=1)
    return [bool(x) for x in ok]


def embarked_actions(s: GameState, u: int) -> list[list[Any]]:
    """ "embarked units may use a Walk action to disembark" (or stay inside: ``["idle", u]``)."""
    t = s.place[u]
    out: list[list[Any]] = [["idle", u]]
    out_state = from_hull(s, u, t)
    ax, ay = out_state.anchors[u]
    moves = out_state.moves(u, "walk")
    clear = clear_out(out_state, u, t, [(ax + dx, ay + dy) for dx, dy in moves])
    out += [["disembark", u, dx, dy] for (dx, dy), ok in zip(moves, clear, strict=True) if ok]
    if s.setup.units[u].has("furious"):  # "may use an Assault action at Walk distance to disembark"
        reach = move_distance(s.setup.units[u], "walk")
        for e in out_state.enemies(u):
            near = out_state.gap(u, e) <= reach + EPS and moving.straight_charge_ok(out_state, u, e)
            if near and math.hypot(*out_state.charge_vector(u, e)) <= reach + EPS:  # at Walk length
                out.append(["assault", u, e])
    return out


def apply(s: GameState, a: list[Any]) -> GameState:
    from grimdice.systems.onepage.game import dangerous

    kind, u = a[0], int(a[1])
    if kind == "embark":
        t = int(a[2])
        dx, dy = s.charge_vector(u, t)
        moved = settle(s.moved(u, dx, dy), u, t)
        hz = dangerous.hazard(s, moved, u, "embark", u)
        if hz is not None:
            return hz
        return replace(moved, active=u, action="embark").end_activation()
    t = s.place[u]
    out = from_hull(s, u, t)
    if kind == "assault":  # Furious: out of the transport by an Assault "at Walk distance"
        walk = move_distance(s.setup.units[u], "walk")  # caps the models' own moves too (state.charged)
        return replace(out, phase="play", charge=(*out.anchors[u], walk)).apply(a)
    after = out.moved(u, float(a[2]), float(a[3]))
    hz = dangerous.hazard(out, after, u, "walk", u)
    if hz is not None:
        return hz
    return replace(after, phase="shoot", active=u, action="walk")


# ------------------------------------------------------------------ a destroyed transport


def wreck(s: GameState) -> GameState | None:
    """The chance node of the first passenger unit of a destroyed transport, if any."""
    if not s.place:
        return None
    for u, t in enumerate(s.place):
        if t >= 0 and s.units[t].destroyed and not s.units[u].destroyed:
            return replace(s, phase="combat", pending=("transport", u, t, ()))
    return None


def unload(s: GameState, u: int, t: int) -> GameState:
    """Place the survivors "within 6" of the transport" (our reading): the first valid spot of the
    block, trying the 8 compass directions (starting towards the enemy's edge) at 1" steps out from
    the hull, every base within 6" of the hull, on the table, out of impassable terrain and over 1"
    from other units; failing that, anywhere so but within 1" of other units; failing that the unit
    cannot be placed and is destroyed."""
    s = with_shape(settle(s, u, ON_TABLE), u, BLOCK)  # it leaves the transport in its block
    if s.units[u].destroyed:
        return s
    cx, cy = s.anchors[t]
    rt, ru = s.setup.radii[t], s.setup.radii[u]
    table = s.setup.table
    towards = 1.0 if s.setup.owner[u] == s.south else -1.0
    spots = []
    for k in range(8):
        ang = math.pi / 2 * towards + k * math.pi / 4
        for step in range(1, 7):
            d = rt + ru + step
            spots.append((round(cx + math.cos(ang) * d, 3), round(cy + math.sin(ang) * d, 3)))
    others = s.others(u)
    for keep_clear in (True, False):
        for spot in spots:
            pts = s.models(u, spot)
            if not table.on_table(pts, ru).all() or bases_in(table, pts, ru, "impassable").any():
                continue
            near = np.hypot(pts[:, 0] - cx, pts[:, 1] - cy) - ru - rt
            if (near > UNLOAD + EPS).any():
                continue
            if (s.gaps_to(u, pts, others) < (1.0 if keep_clear else 0.0) - EPS).any():
                continue
            return placed(s, u, *spot)
    return s.with_unit(u, replace(s.units[u], alive=tuple(0 for _ in s.units[u].alive)))


__all__ = [
    "KINDS",
    "apply",
    "capacity",
    "deploy_options",
    "embark_actions",
    "embarked_actions",
    "unload",
    "wreck",
]
