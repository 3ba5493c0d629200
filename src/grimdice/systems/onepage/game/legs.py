"""Two-leg moves: a Walk or Run made of two straight legs through one waypoint.

The guide lets a unit move "up to" its distance and asks for no straight line; a player moves a
unit around a piece of terrain or another unit. Our reading: a Walk or Run is at most two straight
legs through one waypoint, ``["walk", u, dx, dy, wx, wy]`` (``(wx, wy)``: the first leg, from the
unit's anchor to the waypoint; ``(dx, dy)``: the whole move, from the anchor to the end), the two
legs' lengths together within the move's distance. Each leg is checked along its whole path with
whole bases exactly as a one-leg move (``moving.placements``): every base on the table, none into or
through impassable terrain, none over another unit's base, and where the leg ends (the waypoint, the
end) no closer than 1" to another unit, nor closer than it already was. Difficult terrain: when
either leg enters, leaves or crosses a difficult piece the whole move (both legs) is capped at the
Walk distance (Strider and Flying apart). Dangerous terrain: each model whose path on either leg
enters, leaves, crosses or stays in a dangerous piece rolls once (``dangerous.hazard``).

Offered sparingly, so that the legal actions stay few: only for a unit that is neither a Vehicle
(its heading and pivots follow one straight move) nor Flying (it passes over units and terrain),
and only towards one of its :data:`GOALS` nearest enemy units whose straight line is blocked (no
one-leg move gains :data:`BLOCKED` of the way the straight move would): waypoints are tried along
:data:`TURNS` off the line to that unit at :data:`LEG_SHARES` of the distance, the :data:`TRIED`
most promising get a second leg straight towards the unit (stopping over 1" from it), and the
two-leg move ending nearest the unit is offered when it ends at least :data:`GAIN` nearer than
every one-leg move.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from functools import lru_cache, partial
from typing import TYPE_CHECKING, Any

import numpy as np

from grimdice.engine.table import leg_kernels, path_kernels
from grimdice.engine.table.blocks import EPS
from grimdice.systems.onepage.game import facing, moving
from grimdice.systems.onepage.game.cache import recall
from grimdice.systems.onepage.movement import move_distance

if TYPE_CHECKING:
    from grimdice.systems.onepage.game.state import GameState

GOALS = 2  # the nearest enemy units a two-leg move may aim at
TURNS = tuple(math.radians(a) for a in (-90.0, -67.5, -45.0, -22.5, 22.5, 45.0, 67.5, 90.0))
LEG_SHARES = (0.25, 0.5, 0.75)  # the first leg's lengths, shares of the move's distance
TRIED = 4  # waypoints per goal whose second leg is checked
SECOND = (1.0, 0.75, 0.5, 0.25)  # the second leg's lengths, shares of what is left, longest first
SECOND_SHARES = np.array(SECOND)
SECOND_SHARES.flags.writeable = False
BLOCKED = 0.75  # a straight line is blocked when no one-leg move gains this share of its length
GAIN = 1.0  # inches: a two-leg move ends at least this much nearer its goal than any one-leg move
SHORT = 0.05  # inches kept beyond the 1" from the goal unit, as a one-leg move towards it keeps
ROUNDING = 0.01  # inches: more than the waypoint's and the end's rounding to 0.001" move a second leg's end

Leg = tuple[float, float, float, float]  # (dx, dy, wx, wy): the whole move and its first leg


def waypoint(a: list[Any]) -> tuple[float, float] | None:
    """The first leg ``(wx, wy)`` of a Walk or Run action (``[kind, u, dx, dy, wx, wy]``) or of an
    Assault (``["assault", u, t, wx, wy]``, ``charge_legs.py``), or None for a one-leg move."""
    if a[0] == "assault":
        return (float(a[3]), float(a[4])) if len(a) >= 5 else None
    return (float(a[4]), float(a[5])) if len(a) >= 6 else None


def two_leg_moves(state: GameState, u: int, kind: str, ones: list[tuple[float, float]]) -> list[Leg]:
    """Unit ``u``'s two-leg Walk or Run moves (``kind``), given its one-leg moves ``ones`` (see the
    module text); kept in the geometry memo by where every unit stands."""
    if not _may_go_round(state, u):
        return []
    key = ("two legs", kind, u, state.standing().key, tuple(ones))
    return recall(state.setup, key, lambda: _two_leg_moves(state, u, kind, ones))


def _may_go_round(state: GameState, u: int) -> bool:
    """Whether unit ``u`` has two-leg moves to look for: neither a Vehicle (its heading and pivots
    follow one straight move) nor Flying (it passes over units and terrain), and some enemy unit
    stands."""
    unit = state.setup.units[u]
    return not (facing.is_vehicle(state, u) or unit.has("flying") or not state.enemies(u))


def searches(
    state: GameState, u: int, kind: str, ones: list[tuple[float, float]]
) -> list[Callable[[], list[Leg]]]:
    """Unit ``u``'s two-leg Walk or Run moves (``kind``; ``ones``: its one-leg moves) as one search
    per goal (:func:`goals`), to be called in order: each gives the move found towards its goal
    ([] when none, or when an earlier search found the same move); together, :func:`two_leg_moves`."""
    return _searches(state, u, kind, ones) if _may_go_round(state, u) else []


def most_searches(state: GameState, u: int) -> int:
    """At most how many searches :func:`searches` lists for unit ``u`` (one per goal), known before
    its one-leg moves are judged."""
    return min(GOALS, len(state.enemies(u))) if _may_go_round(state, u) else 0


def _searches(
    state: GameState, u: int, kind: str, ones: list[tuple[float, float]]
) -> list[Callable[[], list[Leg]]]:
    full = move_distance(state.setup.units[u], kind)
    out: list[Leg] = []

    def search(t: int, goal: tuple[float, float], best_one: float) -> list[Leg]:
        got = around(state, u, t, goal, full, best_one - GAIN)
        if got is None or got[0] in out:
            return []
        out.append(got[0])
        return [got[0]]

    return [partial(search, t, goal, best_one) for t, goal, best_one in goals(state, u, full, ones)]


def goals(
    state: GameState, u: int, full: float, ones: list[tuple[float, float]]
) -> list[tuple[int, tuple[float, float], float]]:
    """The goals of unit ``u``'s two-leg moves (``full``: the move's distance): of its :data:`GOALS`
    nearest enemy units, those at least 1" of move away whose straight line is blocked (no one-leg
    move of ``ones`` gains :data:`BLOCKED` of the straight move's length), each with its centre and
    the distance to it the nearest one-leg move leaves."""
    ax, ay = state.anchors[u]
    out = []
    for t, gap in nearest_foes(state, u):
        room = room_towards(gap, full)  # the straight move's length towards t
        if room < 1.0:
            continue
        cx, cy = moving.unit_centre(state, t)
        shut, best_one = blocked((ax, ay), (cx, cy), room, ones)
        if shut:
            out.append((t, (cx, cy), best_one))
    return out


def nearest_foes(state: GameState, u: int) -> list[tuple[int, float]]:
    """Unit ``u``'s :data:`GOALS` nearest enemy units on the table and their gaps to it, nearest
    first (the lines a two-leg move or a change of shape aims along)."""
    st = state.standing()
    gaps = state.gaps(u)[1]
    foes = sorted(st.sides[1 - state.setup.owner[u]], key=lambda t: gaps[st.at[t]])[:GOALS]
    return [(t, gaps[st.at[t]]) for t in foes]


def room_towards(gap: float, full: float) -> float:
    """The length of a straight move of up to ``full`` inches towards a unit ``gap`` inches away
    that stops over 1" from it ("Units may not move within 1" of other units"; :data:`SHORT` beyond)."""
    return min(full, gap - moving.KEEP_CLEAR - SHORT)


def blocked(
    at: tuple[float, float], goal: tuple[float, float], room: float, ones: list[tuple[float, float]]
) -> tuple[bool, float]:
    """Whether the straight line from the anchor ``at`` to ``goal`` is blocked (no one-leg move of
    ``ones`` gains :data:`BLOCKED` of ``room``, the straight move's length), and the distance to
    ``goal`` the nearest one-leg move leaves."""
    (ax, ay), (cx, cy) = at, goal
    ex, ey = cx - ax, cy - ay
    here = math.hypot(ex, ey)
    best_one = min([math.hypot(ex - dx, ey - dy) for dx, dy in ones], default=here)
    return here - best_one < BLOCKED * room, best_one


def _two_leg_moves(state: GameState, u: int, kind: str, ones: list[tuple[float, float]]) -> list[Leg]:
    return [leg for search in _searches(state, u, kind, ones) for leg in search()]


def around(
    state: GameState, u: int, t: int, goal: tuple[float, float], full: float, within: float = math.inf
) -> tuple[Leg, float] | None:
    """The two-leg move towards unit ``t`` (centre ``goal``) ending nearest it, and its end's
    distance to ``goal``; None when no waypoint tried gives a legal one, or when the nearest legal
    one ends more than ``within`` from ``goal``. A waypoint whose second leg cannot end within
    ``within`` even at its whole length (``hoped``, less :data:`ROUNDING`) is not given one, and
    the moves ending farther are not checked: the answer is the one the whole search gives when it
    is within ``within``."""
    wx, wy, hoped, score = waypoint_scores(state, u, t, goal, full)
    if not len(wx):
        return None
    ranked = sorted(zip(score.tolist(), wx.tolist(), wy.tolist(), hoped.tolist(), strict=True))
    tried = [(x, y) for _, x, y, h in ranked[:TRIED] if h - ROUNDING <= within]
    found = [got for got in second_legs(state, u, t, tried, goal, full) if got is not None]
    for got in sorted(found, key=lambda g: g[1]):  # nearest first; the whole move checked last
        if got[1] > within:
            return None
        dx, dy, fx, fy = got[0]
        if legal(state, u, (dx, dy), (fx, fy), full):
            return got
    return None


def waypoint_scores(
    state: GameState, u: int, t: int, goal: tuple[float, float], full: float
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """The waypoints :func:`around` tries towards unit ``t`` (centre ``goal``): :func:`first_legs`'
    first legs ``wx``, ``wy``; how far from ``goal`` a clear second leg straight at it would end
    (``hoped``); and ``score``, ``hoped`` plus 1000 where :func:`rock_ahead` sees impassable terrain
    on the way on (by what is left of ``full``, stopping over 1" from ``t``): in one compiled pass
    (``leg_kernels.waypoint_scores``, the same arithmetic)."""
    ax, ay = state.anchors[u]
    cx, cy = goal
    turns, shares = _grid(TURNS, LEG_SHARES)
    angles = math.atan2(cy - ay, cx - ax) + turns
    offset = math.hypot(cx - ax, cy - ay) - state.gap(u, t)  # centre to the goal's edge, roughly
    block = (state.models(u), state.block(u), state.anchors[u], state.setup.radii[u])
    ways = (np.cos(angles), np.sin(angles), full * shares)
    return leg_kernels.waypoint_scores(
        block, ways, (cx, cy, offset, full, SHORT, EPS), moving.kernel_rules(state, u)
    )


def first_legs(
    state: GameState,
    u: int,
    goal: tuple[float, float],
    full: float,
    grid: tuple[tuple[float, ...], tuple[float, ...]] = (TURNS, LEG_SHARES),
) -> tuple[np.ndarray, np.ndarray] | None:
    """The waypoints tried on the way to ``goal``: ``grid``'s turns off the line to it (default
    :data:`TURNS`) at its shares of ``full`` (default :data:`LEG_SHARES`), those the compiled block
    test passes (``moving.block_moves``: on the table, no impassable terrain, no base passed over,
    over 1" from every unit at the waypoint). Their first legs ``wx``, ``wy``, cut to 0.001"; None
    when no waypoint passes."""
    ax, ay = state.anchors[u]
    base = math.atan2(goal[1] - ay, goal[0] - ax)
    turns, shares = _grid(*grid)
    angles = base + turns  # each turn once per share, as the grid is read: turn by turn
    lengths = full * shares
    ux, uy = np.cos(angles), np.sin(angles)
    ok = np.flatnonzero(moving.block_moves(state, u, ux, uy, lengths[:, None])[:, 0])
    if not len(ok):
        return None
    wx = np.trunc(ux[ok] * lengths[ok] * 1000) / 1000 + 0.0
    wy = np.trunc(uy[ok] * lengths[ok] * 1000) / 1000 + 0.0
    return wx, wy


@lru_cache(maxsize=8)
def _grid(turns: tuple[float, ...], shares: tuple[float, ...]) -> tuple[np.ndarray, np.ndarray]:
    """:func:`first_legs`' grid as two arrays (read-only), one entry per (turn, share), turn by turn."""
    out = np.repeat(np.array(turns), len(shares)), np.tile(np.array(shares), len(turns))
    for arr in out:
        arr.flags.writeable = False
    return out


def rock_ahead(
    state: GameState,
    u: int,
    first: tuple[np.ndarray, np.ndarray],
    way: tuple[np.ndarray, np.ndarray],
    go: np.ndarray,
) -> np.ndarray:
    """``(K,)``: whether unit ``u``'s block, moved by each first leg ``first[k]``, would meet
    impassable terrain going on by ``go[k]`` along the unit vector ``way[k]`` (every base swept;
    a quick test that puts the waypoints whose second leg is blocked by terrain last)."""
    a = state.models(u)
    wx, wy = first
    mids = a[None, :, :] + np.stack([wx, wy], axis=1)[:, None, :]
    ends = mids + (np.stack([way[0], way[1]], axis=1) * go[:, None])[:, None, :]
    table = state.setup.table
    if not table.has_any("impassable") or not mids.shape[1]:
        return np.zeros(len(go), dtype=bool)
    qa, qb, box, _h, _m = table.polygons()
    r = float(state.setup.radii[u])
    return np.asarray(path_kernels.groups_touch(mids, ends, r, (qa, qb, box), table.having("impassable")))


def second_legs(
    state: GameState,
    u: int,
    t: int,
    firsts: list[tuple[float, float]],
    goal: tuple[float, float],
    full: float,
) -> list[tuple[Leg, float] | None]:
    """For each waypoint of ``firsts``: the longest second leg from it straight towards ``goal``
    (unit ``t``'s centre) that the compiled block test passes from there, within what is left of
    ``full`` and stopping over 1" from ``t`` (the whole two-leg move is checked by :func:`legal`
    once chosen); the move and its end's distance to ``goal``, or None. The block at every waypoint,
    its gap to ``t`` (``blocks_gaps``' arithmetic, as :meth:`GameState.gaps` measures it) and its
    second leg (``kernels.block_moves`` from the waypoint with the other units where they stand)
    are found in one compiled pass for all the waypoints (``leg_kernels.second_legs``)."""
    if not firsts:
        return []
    st, r = state.standing(), float(state.setup.radii[u])
    mids = [waypoint_anchor(state, u, w) for w in firsts]
    gx, gy = goal
    first = [math.hypot(wx, wy) for wx, wy in firsts]
    far = [math.hypot(gx - mx, gy - my) for mx, my in mids]  # one per waypoint
    ways = []  # the unit vector from each waypoint to the goal (none where it stands on it)
    for (mx, my), d in zip(mids, far, strict=True):
        ways.append(((gx - mx) / d, (gy - my) / d) if d >= EPS else (0.0, 0.0))
    i = st.at[t]
    j, n = st.first[i], st.counts[i]
    target = (st.pts[j : j + n], st.radii[j : j + n])
    ux, uy = zip(*ways, strict=True)
    legs = (np.array(first), np.array(far), np.array(ux), np.array(uy))
    good, left = leg_kernels.second_legs(
        (state.block(u), np.array(mids), r),
        target,
        legs,
        (full, moving.KEEP_CLEAR, SHORT, EPS),
        SECOND_SHARES,
        moving.kernel_rules(state, u),
    )
    out: list[tuple[Leg, float] | None] = [None] * len(firsts)
    ax, ay = state.anchors[u]
    for k, (row, room) in enumerate(zip(good.tolist(), left.tolist(), strict=True)):
        if True in row:
            go = room * SECOND[row.index(True)]
            (wx, wy), (vx, vy) = firsts[k], ways[k]
            dx, dy = moving.trunc3(wx + vx * go), moving.trunc3(wy + vy * go)
            out[k] = (dx, dy, wx, wy), math.hypot(gx - ax - dx, gy - ay - dy)
    return out


def waypoint_anchor(state: GameState, u: int, first: tuple[float, float]) -> tuple[float, float]:
    """Unit ``u``'s anchor at the end of the first leg ``first``, rounded as :meth:`GameState.moved`
    places it."""
    ax, ay = state.anchors[u]
    return round(ax + first[0], 3), round(ay + first[1], 3)


def legal(
    state: GameState, u: int, move: tuple[float, float], first: tuple[float, float], full: float
) -> bool:
    """Whether unit ``u``'s two-leg move (``move``: the whole; ``first``: its first leg) is legal,
    each leg checked as a one-leg move (``moving.placements``; see the module text): the two lengths
    within ``full``, and within the Walk distance when either leg meets difficult terrain (Strider
    apart)."""
    (dx, dy), (wx, wy) = move, first
    ax, ay = state.anchors[u]
    length = math.hypot(wx, wy) + math.hypot(dx - wx, dy - wy)
    if length > full + EPS:
        return False
    ok1, slow1, _ = state.placement_ok(u, (ax, ay), (ax + wx, ay + wy))
    if not ok1:
        return False
    mid = waypoint_anchor(state, u, first)  # the other units where they stand: the same answer
    ok2, slow2, _ = state.placement_ok(u, mid, (round(ax + dx, 3), round(ay + dy, 3)))
    if not ok2:
        return False
    unit = state.setup.units[u]
    if (slow1 or slow2) and not unit.has("strider"):
        return length <= move_distance(unit, "walk") + EPS
    return True


def via(state: GameState, u: int, a: list[Any]) -> GameState | None:
    """The state with ``u`` at the waypoint of the move ``a`` (None for a one-leg move)."""
    w = waypoint(a)
    return None if w is None else state.moved(u, w[0], w[1])


__all__ = [
    "GOALS",
    "Leg",
    "blocked",
    "first_legs",
    "goals",
    "legal",
    "searches",
    "second_legs",
    "two_leg_moves",
    "via",
    "waypoint",
]
