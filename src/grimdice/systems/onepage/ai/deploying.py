"""The AI's deployment: which unit it places next and where (``game.deployment``'s choices).

Each unit gets a role from its army entry:

* **fragile**: a lone Infantry model (a Psyker such as the Weirdboy, a Hero not joined to a unit):
  it is placed first (the hidden places are few) where the fewest points of the enemy's deployment
  zone see it past sight-blocking terrain (:data:`HIDE` x its points x the share of
  :func:`zone_points` that see it is subtracted), and far from the enemy
  (:data:`~.players.APPROACH` per inch);
* **melee** (Furious, or no ranged weapon over 12"): forwards, :data:`~.players.APPROACH` per inch
  nearer the enemy (its nearest unit, or the enemy's zone when none stands yet), plus
  :data:`~.threat.PROSPECT` x the best charge it could make next round from there
  (:func:`.threat.charge_odds`, where the enemy stands);
* **shooting** (the others): :data:`~.players.COVER` when it stands in cover, and :data:`LANES` x
  the share of the enemy's zone its centre sees.

Every place then loses :data:`~.threat.WEIGHT` x the unit's exposure there (:func:`.threat.exposure`:
what the enemy units on the table could score on it in the first round, by shooting after a Walk or
by charging); the player deploying second sees the first army, so his exposure is real, while the
first player's is nothing but the zone's sight. A Deep Strike unit goes into reserve when its guns
reach under 24" (it cannot arrive closer than 12" anyway); an Infantry unit without a gun that is
not fragile deploys within a transport (:func:`rides`).
Scouts are placed as Deep Strike arrivals are (:func:`.choices.arrival_choice`).
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from grimdice.engine.table.blocks import blocks_in_cover
from grimdice.engine.table.lines import sight_blocked
from grimdice.systems.onepage.ai import choices, choosing, threat
from grimdice.systems.onepage.game.deployment import placed
from grimdice.systems.onepage.game.queries import prefetch
from grimdice.systems.onepage.game.state import GameState
from grimdice.systems.onepage.movement import DEPLOY_ZONE

HIDE = 0.5  # share of a fragile unit's points lost per share of the enemy's zone that sees it
LANES = 5.0  # points-equivalent of a shooting unit seeing all of the enemy's zone
ZONE_COLUMNS = 12  # sample points per row of the enemy's zone (rows at 3" and 9" from its edge)
MELEE_RANGE = 12.0  # a unit whose longest ranged weapon reaches no further is a melee unit


def role(s: GameState, u: int) -> str:
    """``"fragile"``, ``"melee"`` or ``"shooting"`` (see the module text)."""
    unit = s.setup.units[u]
    if unit.size == 1 and unit.kind == "infantry":
        return "fragile"
    if unit.has("furious") or s.weapon_range(u) <= MELEE_RANGE:
        return "melee"
    return "shooting"


ORDER = {"fragile": 0, "shooting": 1, "melee": 2}


def zone_points(s: GameState, u: int) -> np.ndarray:
    """``(K, 2)``: points spread over the enemy's deployment zone (unit ``u``'s enemy): two rows,
    3" and 9" from the enemy's edge, :data:`ZONE_COLUMNS` each across the table."""
    table = s.setup.table
    xs = (np.arange(ZONE_COLUMNS) + 0.5) * table.width / ZONE_COLUMNS
    rows = (3.0, 9.0) if s.flip(u) < 0 else (table.depth - 3.0, table.depth - 9.0)
    return np.array([(x, y) for y in rows for x in xs], dtype=float)


def zone_sight(s: GameState, u: int, anchors: list[tuple[float, float]], centre: bool = False) -> np.ndarray:
    """``(C,)``: for unit ``u``'s block at each of ``anchors``, the share of :func:`zone_points`
    from which a straight line reaches one of its model centres (``centre``: the block's centre)
    without crossing sight-blocking terrain (``lines.sight_blocked``)."""
    pts = zone_points(s, u)
    if not anchors:
        return np.zeros(0)
    block = s.block(u).mean(axis=0, keepdims=True) if centre else s.block(u)
    bs = block[None, :, :] + np.array(anchors, dtype=float)[:, None, :]  # (C, n, 2)
    c, n, k = len(anchors), bs.shape[1], len(pts)
    ends = np.broadcast_to(bs[:, :, None, :], (c, n, k, 2)).reshape(-1, 2)
    starts = np.broadcast_to(pts[None, None, :, :], (c, n, k, 2)).reshape(-1, 2)
    open_ = ~sight_blocked(s.setup.table, starts, ends).reshape(c, n, k)
    return np.asarray(open_.any(axis=1).mean(axis=1))


def forward(s: GameState, u: int, anchor: tuple[float, float]) -> float:
    """How far (inches) unit ``u``'s anchor stands from the enemy: its nearest unit on the table,
    or else the enemy's deployment zone."""
    from grimdice.systems.onepage.ai.players import nearest_gap

    if s.enemies(u):
        return nearest_gap(s, u, anchor)
    edge = s.setup.table.depth - DEPLOY_ZONE if s.flip(u) > 0 else DEPLOY_ZONE
    return abs(edge - anchor[1])


def values(s: GameState, u: int, anchors: list[tuple[float, float]]) -> list[float]:
    """Each place's value before the exposure (see the module text)."""
    from grimdice.systems.onepage.ai.players import APPROACH, COVER

    prefetch(s, u, anchors, sight=False, crossing=False)  # every place's gaps in one pass
    kind = role(s, u)
    if kind == "fragile":
        seen = zone_sight(s, u, anchors)
        cost = s.setup.units[u].cost
        return [APPROACH * forward(s, u, a) - HIDE * cost * v for a, v in zip(anchors, seen, strict=True)]
    if kind == "shooting":
        seen = zone_sight(s, u, anchors, centre=True)
        bs = s.block(u)[None, :, :] + np.array(anchors, dtype=float)[:, None, :]
        cover = blocks_in_cover(s.setup.table, bs)
        return (COVER * cover + LANES * seen).tolist()
    out = []
    for a in anchors:
        v = -APPROACH * forward(s, u, a)
        if s.enemies(u):
            odds = threat.charge_odds(placed(s, u, *a), u)
            v += threat.PROSPECT * max(odds.values(), default=0.0)
        out.append(v)
    return out


def best_place(s: GameState, u: int, acts: list[list[Any]]) -> list[Any]:
    """The place of ``acts`` (``["place"|"scout", u, x, y]``) with the highest value less
    :data:`.threat.WEIGHT` x the exposure there; places are looked at in decreasing order of their
    value before the exposure (an upper bound: exposures are never negative), and the rest skipped
    once that bound falls below the best found; ties go to the higher value before the exposure,
    then to the first in legal order."""
    anchors = [(float(a[2]), float(a[3])) for a in acts]
    base = values(s, u, anchors)
    if not s.enemies(u):
        return choosing.first_best(acts, base)
    best, choice = -math.inf, acts[0]
    for i in sorted(range(len(acts)), key=lambda i: -base[i]):
        if base[i] <= best + 1e-9:
            break
        limit = (base[i] - best) / threat.WEIGHT
        seen = threat.exposure(placed(s, u, *anchors[i]), u, None, limit)
        v = base[i] - threat.WEIGHT * seen if seen <= limit else -math.inf
        if v > best + 1e-9:
            best, choice = v, acts[i]
    return choice


def rides(s: GameState, u: int) -> bool:
    """Unit ``u`` deploys within a transport: an Infantry unit without a gun that is not fragile (a
    lone model hides better behind a wall than inside a transport, the enemy's largest target,
    whose loss takes it along: D6 automatic hits)."""
    unit = s.setup.units[u]
    return s.weapon_range(u) <= 0 and unit.kind == "infantry" and role(s, u) != "fragile"


def deploy_choice(s: GameState, acts: list[list[Any]]) -> list[Any]:
    """The AI's choice in the armies' deployment: a unit without a gun embarks in a transport placed
    already (it rides out of the enemy's sight), transports are placed first while such a unit
    waits, then the next unit (fragile, then shooting, then melee units; in army order within
    each), then its reserve (a Deep Strike unit whose guns reach under 24") or its best place."""
    carried = next((a for a in acts if a[0] == "embark" and rides(s, int(a[1]))), None)
    if carried is not None:
        return carried
    offered = list(dict.fromkeys(int(a[1]) for a in acts))
    placeable = [u for u in offered if any(a[1] == u and a[0] in ("place", "scout", "reserve") for a in acts)]
    gunless = any(rides(s, v) for v in offered)

    def order(v: int) -> tuple[int, int]:
        first = gunless and int(s.setup.units[v].rules.get("transport", 0) or 0) > 0
        return (-1 if first else ORDER[role(s, v)], v)

    u = min(placeable or offered, key=order)
    mine = [a for a in acts if a[1] == u]
    if s.setup.units[u].has("deep_strike") and s.weapon_range(u) < 24.0 and ["reserve", u] in mine:
        return ["reserve", u]
    places = [a for a in mine if a[0] in ("place", "scout")]
    if not places:
        return mine[0]
    if s.phase == "scout":  # Scouts as Deep Strike arrivals: in cover, one weapon range away
        return choices.arrival_choice(s, u, places)
    return best_place(s, u, places)


__all__ = ["HIDE", "LANES", "deploy_choice", "role", "values", "zone_points", "zone_sight"]
