"""A unit's formation: the block it deploys in, or a narrower column to pass a gap.

The guide moves models, not blocks, and asks only for coherency: "All members of the unit must
remain within 1" of at least one other member at all times, and must remain within 12" of all other
members at all times"; "Units may move and turn in any direction regardless of their facing, and
they may move by up to as many inches as the action they are taking allows". A player narrows a wide
mob to pass between two rocks. Our reading, with the game's rank-and-file formations:

* **Shapes.** Each unit stands in one of two shapes (``GameState.shapes``; empty: all in their
  block): ``BLOCK``, the formation it deploys in (``setup.formation``), or ``COLUMN``, the same
  ranks with the fewest files (at least ``setup.FEWEST_FILES``, 2, and fewer than the block's) whose
  whole formation stays coherent (1" links, 12" span, measured base to base as the game measures
  coherency, ``bases.coherent``; ``setup.column``): 21 Boyz on 32 mm bases stand 3 wide, 10 on
  60 mm bases 2 wide; a unit for which no narrower coherent block exists has no column.
  Both stand with the first rank on the anchor towards the enemy, and lose models from the back, so
  they stay coherent (the first models of a rank-and-file block are coherent).
* **Changing shape.** A Walk or Run may change shape, ``[kind, u, dx, dy, "column"]`` (or
  ``"block"``): the anchor moves by ``(dx, dy)`` and each model goes to a slot of the new shape
  there, each along its own straight path. Models are counted, not named (which model carries which
  weapon is read from the formation's order, not tracked), so any one-to-one assignment is a legal
  move; the game takes the one that makes the
  sum of the squared path lengths least (:func:`least_squares_order`: it does not depend on where
  the anchor goes, so it is one per pair of shapes and model count). Every path is no longer than
  the move's allowance, and no longer than the Walk distance when any model's path meets difficult
  terrain (Strider, Flying apart); the paths are checked with whole bases exactly as a block's move
  (``moving.paths_ok``: every base on the table, no path into or through impassable terrain, none
  over another unit's base (the unit's own models may cross each other), the ends no closer than
  1" to another unit, nor closer than it already was); each model whose path meets dangerous
  terrain rolls (``dangerous.hazard``).
* **Offered** (:func:`shape_moves`) to a unit of ``moving.LARGE`` models or more that has a column
  and is no Vehicle: the other shape, in place and along the straight lines the block's candidates
  aim at (each of the ``legs.GOALS`` nearest enemy units, stopping over 1" away, and the nearest
  cover piece's centre in reach), each at the longest legal length of ``moving.LARGE_FRACTIONS``.
  A unit keeps its shape through an Assault, the melee and a consolidation (it moves as the block
  does: by translation), and stands in its block again when it leaves a transport.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from functools import lru_cache, partial
from typing import TYPE_CHECKING, Any

import numpy as np

from grimdice.engine.frozen import replace
from grimdice.engine.table import move_kernels
from grimdice.engine.table.blocks import EPS
from grimdice.engine.table.sweeps import CONTACT_SLACK
from grimdice.engine.table.terrain import EPS as TABLE_EPS
from grimdice.systems.onepage.game import facing, legs, moving
from grimdice.systems.onepage.game.cache import recall
from grimdice.systems.onepage.game.places import shape_of, turned
from grimdice.systems.onepage.game.setup import BLOCK, COLUMN
from grimdice.systems.onepage.movement import move_distance

if TYPE_CHECKING:
    from grimdice.systems.onepage.game.state import GameState

NAMES = ("block", "column")  # the shapes as an action names them (BLOCK, COLUMN: setup.py)


def with_shape(state: GameState, u: int, shape: int) -> GameState:
    """``state`` with unit ``u`` in ``shape`` (``shapes`` empty again when every unit is in its block)."""
    if shape_of(state, u) == shape:
        return state
    shapes = list(state.shapes or (BLOCK,) * len(state.units))
    shapes[u] = shape
    return replace(state, shapes=tuple(shapes) if any(shapes) else ())


def walked(state: GameState, u: int, a: list[Any]) -> GameState:
    """The state after unit ``u``'s Walk or Run ``a``: its anchor moved, its shape changed (if ``a``
    asks it) and a Vehicle turned to the move's direction (``facing.turned``)."""
    dx, dy = float(a[2]), float(a[3])
    return facing.turned(reshaped(state.moved(u, dx, dy), u, a), u, dx, dy)


def action_shape(a: list[Any]) -> int | None:
    """The shape a Walk or Run action ``[kind, u, dx, dy, name]`` changes to (None: it keeps its
    shape); an unknown name is a ``ValueError`` naming the shapes."""
    if len(a) != 5:
        return None
    if a[4] not in NAMES:
        raise ValueError(f"{a!r}: a move's shape is one of {', '.join(NAMES)}")
    return NAMES.index(a[4])


def reshaped(state: GameState, u: int, a: list[Any]) -> GameState:
    """``state`` (unit ``u`` moved by the Walk or Run ``a``) with ``u`` in the shape ``a`` changes
    to, if any; a column asked of a unit that has none is a ``ValueError``."""
    shape = action_shape(a)
    if shape is None:
        return state
    if shape == COLUMN and state.setup.columns[u] is None:
        raise ValueError(f"{a!r}: unit {u} has no column (no narrower formation of it is coherent)")
    return with_shape(state, u, shape)


def least_squares_order(a: np.ndarray, b: np.ndarray) -> list[int]:
    """``order[i]``: the point of ``b`` that point ``i`` of ``a`` goes to, the one-to-one assignment
    whose sum of squared distances is least (the Hungarian method, O(n^3); of equal sums, the one
    the method meets first). Moving every point of ``a`` by the same vector changes every sum by the
    same amount, so the order depends only on the two formations."""
    n = len(a)
    cost = ((a[:, None, :] - b[None, :, :]) ** 2).sum(axis=2).tolist()
    pu, pv = [0.0] * (n + 1), [0.0] * (n + 1)
    owner, way = [0] * (n + 1), [0] * (n + 1)  # owner[j]: the row slot j is given to (1-based)
    for i in range(1, n + 1):
        owner[0], j0 = i, 0
        least, used = [math.inf] * (n + 1), [False] * (n + 1)
        while owner[j0]:
            used[j0] = True
            i0, delta, j1 = owner[j0], math.inf, 0
            for j in range(1, n + 1):
                if not used[j]:
                    cur = cost[i0 - 1][j - 1] - pu[i0] - pv[j]
                    if cur < least[j]:
                        least[j], way[j] = cur, j0
                    if least[j] < delta:
                        delta, j1 = least[j], j
            for j in range(n + 1):
                if used[j]:
                    pu[owner[j]] += delta
                    pv[j] -= delta
                else:
                    least[j] -= delta
            j0 = j1
        while j0:
            j1 = way[j0]
            owner[j0] = owner[j1]
            j0 = j1
    order = [0] * n
    for j in range(1, n + 1):
        order[owner[j] - 1] = j - 1
    return order


def order(state: GameState, u: int, start: int, end: int) -> np.ndarray:
    """Where each of unit ``u``'s models alive goes when it changes from shape ``start`` to ``end``
    (:func:`least_squares_order` of the two formations turned to its side), kept in the memo and,
    across games, by the formations themselves (:func:`_order`)."""
    n, flip = state.units[u].models, state.flip(u)

    def compute() -> np.ndarray:
        side = np.array([1.0, -flip])
        a = state.setup.shape_offsets(u, start)[:n] * side
        b = state.setup.shape_offsets(u, end)[:n] * side
        return np.array(_order(a.tobytes(), b.tobytes()), dtype=np.intp)

    return recall(state.setup, ("reshape order", u, n, flip, start, end), compute)


@lru_cache(maxsize=1024)
def _order(a: bytes, b: bytes) -> tuple[int, ...]:
    """:func:`least_squares_order` of two formations given as the bytes of ``(n, 2)`` float arrays."""
    return tuple(least_squares_order(np.frombuffer(a).reshape(-1, 2), np.frombuffer(b).reshape(-1, 2)))


def paths(before: GameState, after: GameState, u: int) -> tuple[np.ndarray, np.ndarray]:
    """Unit ``u``'s models where they stand in ``before`` and, row for row, where each went in
    ``after`` (a change of shape: the slot :func:`order` gives it)."""
    a, b = before.models(u), after.models(u)
    start, end = shape_of(before, u), shape_of(after, u)
    if start == end or len(a) != len(b):
        return a, b
    return a, b[order(before, u, start, end)]


def first_reshape(state: GameState, u: int, shape: int, moves: list[tuple[float, float]], full: float) -> int:
    """The first of ``moves`` along which unit ``u`` may move its anchor and change to ``shape`` within
    an allowance of ``full`` inches (-1: none; see the module text): every model's path no longer
    than ``full`` (the Walk distance where a path meets difficult terrain, Strider and Flying apart),
    checked as a block's move is (``moving.paths_ok``'s checks), all of them tested in one compiled
    pass (``move_kernels.first_paths_ok``); the tests hold it to a plain reference move by move."""
    if not moves:
        return -1
    ax, ay = state.anchors[u]
    a, start, n = state.models(u), shape_of(state, u), state.units[u].models
    ends = np.array([(round(ax + dx, 3), round(ay + dy, 3)) for dx, dy in moves])  # as moved places them
    slots = turned(state.setup, u, state.flip(u), shape)[:n]  # its models at the anchor (places.models)
    if start != shape:
        slots = slots[order(state, u, start, shape)]
    table, unit = state.setup.table, state.setup.units[u]
    caps = (full + EPS, move_distance(unit, "walk") + EPS, unit.has("strider"))
    return int(
        move_kernels.first_paths_ok(
            a,
            slots[None, :, :] + ends[:, None, :],
            caps,
            state.setup.radii[u],
            (table.width, table.depth),
            moving.leg_terrain(state, u),
            moving.kernel_rules(state, u)[3],
            (TABLE_EPS, EPS, CONTACT_SLACK, moving.KEEP_CLEAR),
        )
    )


def offered(state: GameState, u: int) -> bool:
    """Whether unit ``u`` is offered changes of shape: ``moving.LARGE`` models or more, a column, no
    Vehicle (its heading follows one straight move)."""
    return (
        state.units[u].models >= moving.LARGE
        and state.setup.columns[u] is not None
        and not facing.is_vehicle(state, u)
    )


def shape_moves(
    state: GameState, u: int, kind: str, ones: list[tuple[float, float]]
) -> list[tuple[float, float]]:
    """Unit ``u``'s Walk or Run (``kind``) moves changing to its other shape (see the module text;
    ``ones``: its one-leg moves): in place, then along each of :func:`directions`' ways, each way's
    longest legal length; repeats dropped. Kept in the geometry memo by where every unit stands."""
    if not offered(state, u):
        return []
    key = ("shape moves", kind, u, state.standing().key, tuple(ones))
    return recall(
        state.setup, key, lambda: [m for search in _searches(state, u, kind, ones) for m in search()]
    )


def searches(
    state: GameState, u: int, kind: str, ones: list[tuple[float, float]]
) -> list[Callable[[], list[list[Any]]]]:
    """:func:`shape_actions` as one search per way, to be called in order, each giving at most
    one action (none when the way has no legal length or gives an earlier search's move):
    the random player runs them only when its draw needs them (``sampling.Partial``)."""
    if not offered(state, u):
        return []
    name = NAMES[COLUMN - shape_of(state, u)]

    def action(search: Callable[[], list[tuple[float, float]]]) -> list[list[Any]]:
        return [[kind, u, dx, dy, name] for dx, dy in search()]

    return [partial(action, search) for search in _searches(state, u, kind, ones)]


def most_searches(state: GameState, u: int) -> int:
    """At most how many searches :func:`searches` lists for unit ``u`` (in place, and along each of
    :func:`directions`' lines: towards the ``legs.GOALS`` nearest enemy units and into cover)."""
    return 1 + min(legs.GOALS, len(state.enemies(u))) + 1 if offered(state, u) else 0


def _searches(
    state: GameState, u: int, kind: str, ones: list[tuple[float, float]]
) -> list[Callable[[], list[tuple[float, float]]]]:
    full = move_distance(state.setup.units[u], kind)
    to = COLUMN - shape_of(state, u)
    out: list[tuple[float, float]] = []

    def search(ux: float, uy: float, length: float) -> list[tuple[float, float]]:
        moves = []  # its lengths, longest first, up to one an earlier way found
        for share in moving.LARGE_FRACTIONS if length > 0 else (0.0,):
            move = (moving.trunc3(ux * length * share), moving.trunc3(uy * length * share))
            if move in out:
                break
            moves.append(move)
        i = first_reshape(state, u, to, moves, full)
        if i < 0:
            return []
        out.append(moves[i])
        return [moves[i]]

    return [partial(search, *way) for way in directions(state, u, full, ones)]


def directions(
    state: GameState, u: int, full: float, ones: list[tuple[float, float]]
) -> list[tuple[float, float, float]]:
    """The ways a change of shape is tried (unit vector and length; ``full``: the move's distance),
    only where it can matter. The lines: towards each of the :data:`legs.GOALS` nearest enemy units
    (stopping over 1" away, as a block's move towards it) and into the nearest cover piece in reach;
    a line is cut short when no one-leg move of ``ones`` gains ``legs.BLOCKED`` of its length
    (``legs.blocked``, as the two-leg moves judge it). A block narrows in place and along each line
    cut short, and not at all when none is; a column widens in place and along every line when none
    is cut short (nothing in its way needs the column), and not at all when one is."""
    ax, ay = state.anchors[u]
    lines: list[tuple[float, float, float]] = []
    for t, gap in legs.nearest_foes(state, u):
        cx, cy = moving.unit_centre(state, t)
        d, room = math.hypot(cx - ax, cy - ay), legs.room_towards(gap, full)
        if d > EPS and room > EPS:
            lines.append((cx, cy, room))
    covers = [(math.hypot(cx - ax, cy - ay), cx, cy) for cx, cy in moving.cover_centres(state.setup)]
    d, cx, cy = min([c for c in covers if EPS < c[0] <= full], default=(0.0, 0.0, 0.0))
    if d:  # the nearest cover piece in reach
        lines.append((cx, cy, d))
    shut = [legs.blocked((ax, ay), (cx, cy), room, ones)[0] for cx, cy, room in lines]
    if shape_of(state, u) == BLOCK:
        lines = [line for line, cut in zip(lines, shut, strict=True) if cut]
        if not lines:
            return []
    elif any(shut):
        return []
    ways: list[tuple[float, float, float]] = [(0.0, 0.0, 0.0)]
    for cx, cy, room in lines:
        d = math.hypot(cx - ax, cy - ay)
        ways.append(((cx - ax) / d, (cy - ay) / d, room))
    return ways


def shape_actions(state: GameState, u: int, kind: str, ones: list[tuple[float, float]]) -> list[list[Any]]:
    """Unit ``u``'s Walk or Run actions changing shape (``ones``: its one-leg moves):
    ``[kind, u, dx, dy, name]``."""
    moves = shape_moves(state, u, kind, ones)
    if not moves:
        return []
    name = NAMES[COLUMN - shape_of(state, u)]
    return [[kind, u, dx, dy, name] for dx, dy in moves]


__all__ = [
    "BLOCK",
    "COLUMN",
    "NAMES",
    "action_shape",
    "least_squares_order",
    "order",
    "paths",
    "reshaped",
    "searches",
    "shape_actions",
    "shape_moves",
    "walked",
    "with_shape",
]
