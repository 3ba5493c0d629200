"""An Assault in two legs: the block round what blocks every straight line to its target.

"If at least one model in the unit is within 12" of an enemy unit, and has a clear path to it, then
that enemy is a valid target"; the unit moves "by up to 12" to get into base contact". The text
asks for no straight line, and a player moves a mob round a wall. Our reading: when no straight
line is clear (``charge_paths.py``), the block may move through one waypoint,
``["assault", u, t, wx, wy]`` (``(wx, wy)``: the first leg, from the unit's anchor to the
waypoint), then straight on until the first bases touch, the two legs' lengths together within the
Assault's distance. Each leg is checked along its whole path with whole bases as a one-leg move is:

* the first leg as a Walk's leg (``GameState.placement_ok``, as ``legs.legal`` checks it): on the
  table, not into or through impassable terrain, over no other unit's base, and at the waypoint
  no closer than 1" to any unit, nor closer than it already was (the Assault's leave to come
  within 1" of enemy units is used where it ends);
* the second leg as a straight Assault from the waypoint (``charge_paths``' checks): on the table,
  no impassable terrain, no base of a unit but the target on the way, its end over 1" from every
  friendly unit; the line to the closest target model first, then the target's other lines;
* difficult terrain on either leg caps the two legs together at the Walk distance (Strider
  apart); each model whose path on either leg meets dangerous terrain rolls once
  (``dangerous.models_through_legs``).

The waypoints are found as the two-leg Walk's and Run's (``legs.first_legs``) towards the target's
centre, on a finer grid (:data:`TURNS` off the line to it at :data:`LEG_SHARES` of the distance),
those whose first leg and gap to the target fit in the distance, tried with the line from their
closest model to the closest target model clear of impassable terrain first, then shortest
first (the first leg and that gap), :data:`TRIED` at most; the first that gives a clear second leg
is the Assault's path. Not for Vehicles (one straight move on their heading) nor Flying units (they
pass over units and terrain, so their straight line is clear of both).
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from typing import TYPE_CHECKING

import numpy as np

from grimdice.engine.table.blocks import EPS, blocks
from grimdice.systems.onepage.game import charge_paths, facing, legs, moving
from grimdice.systems.onepage.movement import move_distance

if TYPE_CHECKING:
    from grimdice.systems.onepage.game.state import GameState

TRIED = 8  # waypoints whose second legs are checked
# the waypoints: finer than a Walk's or Run's (a charge must reach base contact, not just gain ground)
TURNS = tuple(math.radians(s * 7.5 * k) for k in range(1, 13) for s in (-1, 1))  # 7.5° to 90° either side
LEG_SHARES = tuple(0.05 * k for k in range(3, 18))  # the first leg's lengths, shares of the distance

Path = tuple[tuple[float, float], tuple[float, float]]  # (the whole move, its first leg)


def two_legs(state: GameState, u: int, t: int) -> Path | None:
    """Unit ``u``'s two-leg Assault on ``t`` (see the module text): the block's whole move and its
    first leg, or None when no waypoint tried gives a clear path."""
    unit = state.setup.units[u]
    if facing.is_vehicle(state, u) or unit.has("flying"):
        return None
    full = move_distance(unit, "assault")
    got = legs.first_legs(state, u, moving.unit_centre(state, t), full, (TURNS, LEG_SHARES))
    if got is None:
        return None
    wx, wy = got
    gap, way = closest(state, u, t, wx, wy)
    length = np.hypot(wx, wy) + gap  # no second leg is shorter than the gap
    blocked = legs.rock_ahead(state, u, (wx, wy), way, gap)
    tried = 0
    for k in np.lexsort((length, blocked)).tolist():
        if length[k] > full + EPS:
            continue
        found = through(state, u, t, (float(wx[k]), float(wy[k])), full)
        if found is not None:
            return found
        tried += 1
        if tried == TRIED:
            break
    return None


def closest(
    state: GameState, u: int, t: int, wx: np.ndarray, wy: np.ndarray
) -> tuple[np.ndarray, tuple[np.ndarray, np.ndarray]]:
    """``(K,)``: the gap from unit ``u``'s block at each waypoint (first legs ``wx``, ``wy``) to
    unit ``t``'s bases, and the unit vector from its closest model to the closest target model."""
    a, b = state.models(u), state.models(t)
    mids = a[None, :, :] + np.stack([wx, wy], axis=1)[:, None, :]  # (K, n, 2)
    v = b[None, None, :, :] - mids[:, :, None, :]  # (K, n, m, 2)
    d = np.hypot(v[..., 0], v[..., 1]).reshape(len(wx), -1)
    k = np.arange(len(wx))
    j = d.argmin(axis=1)
    near = np.maximum(d[k, j], EPS)
    w = v.reshape(len(wx), -1, 2)[k, j] / near[:, None]
    gap = np.maximum(0.0, near - state.setup.radii[u] - state.setup.radii[t])
    return gap, (w[:, 0], w[:, 1])


def through(state: GameState, u: int, t: int, first: tuple[float, float], full: float) -> Path | None:
    """The Assault of ``u`` on ``t`` through the waypoint at the end of the leg ``first``: the first
    clear second leg (:func:`second_legs`) with both legs within ``full`` (the Walk distance when
    either leg meets difficult terrain, Strider apart); None when there is none. When the first leg
    meets difficult terrain, only the second legs that fit in the Walk are looked at (none when the
    gap at the waypoint is already longer: no second leg is shorter than it). The second legs are
    checked together (:func:`clear_legs`), the first clear one in their order taken."""
    ax, ay = state.anchors[u]
    mx, my = legs.waypoint_anchor(state, u, first)
    ok, slow, _ = state.placement_ok(u, (ax, ay), (mx, my))
    if not ok:
        return None
    mid = state.moved(u, *first)
    done = math.hypot(*first)
    unit = state.setup.units[u]
    walk = move_distance(unit, "walk")
    left = full - done
    slow = slow and not unit.has("strider")
    if slow:  # both legs together within the Walk distance
        left = min(left, walk - done + charge_paths.ROUNDING)
        if left < mid.gap(u, t):  # no second leg is shorter than the gap: none fits
            return None
    moves = list(second_legs(mid, u, t, left))
    if not moves:
        return None
    k = clear_legs(mid, u, t, moves, done, walk if slow else None)
    if k is None:
        return None
    end = (round(mx + moves[k][0], 3), round(my + moves[k][1], 3))
    return (round(end[0] - ax, 3), round(end[1] - ay, 3)), first


def clear_legs(
    mid: GameState, u: int, t: int, moves: list[tuple[float, float]], done: float, walk: float | None
) -> int | None:
    """The index of the first of ``moves`` (second legs from where ``u`` stands in ``mid``, after a
    first leg of ``done`` inches) that is a clear Assault path: on the table, no impassable terrain
    (``moving.charge_terrain``), no longer than the Walk with the first leg when either leg meets
    difficult terrain (``walk``: the Walk when the first leg did, else None), its end over 1" from
    every friendly unit (``clear_of_friends``) and over no base but the target's on the way
    (``charge_lane_clear``); each check on all of ``moves`` at once, as each move alone gives it."""
    ax, ay = mid.anchors[u]
    ends = blocks(mid.block(u), np.array([(ax + dx, ay + dy) for dx, dy in moves], dtype=float))
    ok, slowed = moving.charge_terrains(mid, u, ends)
    slowed |= walk is not None
    cap = move_distance(mid.setup.units[u], "walk")
    for k, move in enumerate(moves):
        if ok[k] and slowed[k] and done + math.hypot(*move) > cap + EPS:
            ok[k] = False
    if ok.any():
        ok[ok] = moving.ends_clear_of_friends(mid, u, t, ends[ok])
    if ok.any():
        ok[ok] = moving.charge_lanes_clear(mid, u, t, ends[ok])
    return int(np.argmax(ok)) if ok.any() else None


def second_legs(mid: GameState, u: int, t: int, left: float) -> Iterator[tuple[float, float]]:
    """The second legs from the waypoint (``u`` stands there in ``mid``) within ``left`` inches, in
    the order tried: the line to the closest target model, then ``charge_paths.alternatives``."""
    direct = moving.direct_vector(mid, u, t)
    if direct != (0.0, 0.0) and math.hypot(*direct) <= left + EPS:
        yield direct
    yield from charge_paths.alternatives(mid, u, t, left)


__all__ = [
    "LEG_SHARES",
    "TRIED",
    "TURNS",
    "Path",
    "clear_legs",
    "closest",
    "second_legs",
    "through",
    "two_legs",
]
