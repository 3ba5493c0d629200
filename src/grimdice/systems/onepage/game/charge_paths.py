"""The Assault move's path: which way the assaulting unit's block moves into base contact.

"If at least one model in the unit is within 12" of an enemy unit, and has a clear path to it, then
that enemy is a valid target" and the unit moves "to get into base contact". The text leaves the
path to the player. The block first tries the straight line to the closest enemy model (the
shortest move); where that line is not clear (impassable terrain under a base, difficult terrain
over a Walk's length, a base of another unit on the way, an end within 1" of a friendly unit), it
tries, in order, the lines towards the target unit's other models, nearest first, then the line to
the closest model turned :data:`TURNS` either side, each moved straight until the first bases touch
(``moving.first_contact``) and no longer than the Assault's distance. The first clear line is the
Assault move; when none is clear, the block may go round in two legs through one waypoint
(``charge_legs.py``); when no such path is found either, the target is not valid. A block with a
base over difficult terrain (Strider, Flying apart) meets it on every move, so its Assault is capped
at the Walk: a target farther than that has no clear path, known before any line is tried.
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from typing import TYPE_CHECKING

import numpy as np

from grimdice.engine.table.blocks import EPS, block_crosses, blocks
from grimdice.systems.onepage.game.cache import LIMIT, recall
from grimdice.systems.onepage.movement import move_distance
from grimdice.systems.onepage.units import kept

if TYPE_CHECKING:
    from grimdice.systems.onepage.game.state import GameState

TURNS = tuple(math.radians(a) for a in (15.0, -15.0, 30.0, -30.0, 45.0, -45.0, 60.0, -60.0))
MODELS = 6  # the target's nearest models whose lines are tried
ROUNDING = 0.01  # inches: more than a move's length loses to its coordinates' rounding to 0.001"


def alternatives(
    state: GameState, u: int, t: int, reach: float | None = None
) -> Iterator[tuple[float, float]]:
    """The block moves other than the direct one, in the order they are tried (see the module
    text): each a vector along which the block's first base touches one of ``t``'s, no longer than
    ``reach`` (default: the Assault's distance)."""
    a, b = state.models(u), state.models(t)
    if reach is None:
        reach = move_distance(state.setup.units[u], "assault")
    together = state.setup.radii[u] + state.setup.radii[t]
    d = np.linalg.norm(a[:, None, :] - b[None, :, :], axis=2)
    i, j = np.unravel_index(int(np.argmin(d)), d.shape)
    base = b[j] - a[i]
    if float(np.linalg.norm(base)) < EPS:
        return
    angle = math.atan2(float(base[1]), float(base[0]))
    nearest = np.argsort(d.min(axis=0), kind="stable")[: MODELS + 1]
    ways = [math.atan2(*(b[k] - a[int(np.argmin(d[:, k]))])[::-1]) for k in nearest if k != j]
    ways += [angle + turn for turn in TURNS]
    seen: set[tuple[float, float]] = set()
    vecs = np.array([(math.cos(w), math.sin(w)) for w in ways])
    for vec, go in zip(vecs, first_contacts(a, b, vecs, together).tolist(), strict=True):
        if not math.isfinite(go) or go > reach + EPS:
            continue
        move = (round(float(vec[0] * go), 3), round(float(vec[1] * go), 3))
        if move not in seen:
            seen.add(move)
            yield move


def first_contacts(a: np.ndarray, b: np.ndarray, ws: np.ndarray, reach: float) -> np.ndarray:
    """``(K,)``: ``moving.first_contact(a, b, ws[k], reach)`` for every unit vector of ``ws``
    (``(K, 2)``) in one pass, with its arithmetic element by element (the distance along each
    direction is its own ``v @ w``, so every answer is the one-direction function's)."""
    if not len(ws):
        return np.zeros(0)
    v = b[None, :, :] - a[:, None, :]  # (n, m, 2)
    along = np.stack([v @ w for w in ws])  # (K, n, m)
    off2 = (v * v).sum(axis=2)[None, :, :] - along * along
    disc = reach * reach - off2
    meet = (disc >= 0) & (along > 0)
    s = np.where(meet, along - np.sqrt(np.where(meet, disc, 0.0)), np.inf)
    first = s.reshape(len(ws), -1).min(axis=1, initial=np.inf)
    return np.asarray(np.where(np.isfinite(first), np.maximum(0.0, first), np.inf))


def path_clear(state: GameState, u: int, move: tuple[float, float]) -> bool:
    """The block's move ``move`` stays on the table, crosses no impassable terrain, and through
    difficult terrain is no longer than the Walk distance (Strider: open; Flying ignores terrain);
    kept in the geometry memo by the unit's place and the move."""
    return recall(state.setup, ("charge path", state.placed(u), move), lambda: state._charge_ok(u, move))


def clear(state: GameState, u: int, t: int, move: tuple[float, float]) -> bool:
    """``move`` is a clear Assault path for ``u`` at ``t``: :func:`path_clear`, its end over 1" from
    every friendly unit (nor closer than it was), and no base of another unit but ``t`` on the way."""
    return (
        path_clear(state, u, move)
        and state.clear_of_friends(u, t, move)
        and state.charge_lane_clear(u, t, move)
    )


Chosen = tuple[tuple[float, float], bool, tuple[float, float] | None]  # (move, clear, first leg)


def chosen(state: GameState, u: int, t: int, direct: tuple[float, float]) -> tuple[tuple[float, float], bool]:
    """(the Assault move of ``u`` at ``t``, whether it is clear): ``direct`` (the line to the
    closest model) when clear, else the first clear one of :func:`alternatives`, else the whole
    move of a two-leg path (``charge_legs.two_legs``), else ``direct`` (not clear). Kept on the
    state (frozen; the answer depends on where every unit stands)."""
    move, ok, _first = path(state, u, t, direct)
    return move, ok


def path(state: GameState, u: int, t: int, direct: tuple[float, float]) -> Chosen:
    """:func:`chosen` and the first leg of a two-leg path (None for one straight leg)."""
    memo = kept(state, "_charges", LIMIT)
    got: Chosen | None = memo.get((u, t))
    if got is None:  # the answer reads where every unit stands only: kept in the geometry memo too
        key = ("assault path", u, t, state.standing().key)
        got = memo[u, t] = recall(state.setup, key, lambda: _searched(state, u, t, direct))
    return got


def _searched(state: GameState, u: int, t: int, direct: tuple[float, float]) -> Chosen:
    """:func:`path` worked out: the direct line, the :func:`alternatives`, then two legs."""
    if held_back(state, u, t):
        return (direct, False, None)
    if clear(state, u, t, direct):
        return (direct, True, None)
    if direct != (0.0, 0.0):
        for move in alternatives(state, u, t):
            if clear(state, u, t, move):
                return (move, True, None)
        from grimdice.systems.onepage.game.charge_legs import two_legs

        two = two_legs(state, u, t)
        if two is not None:
            return (two[0], True, two[1])
    return (direct, False, None)


def held_back(state: GameState, u: int, t: int) -> bool:
    """No path of ``u``'s Assault reaches ``t`` (the search would find none): a base of its block
    touches difficult terrain where it stands (Strider and Flying apart), so every move it makes,
    straight or in two legs, meets that terrain ("If any model of a unit moves through difficult
    terrain at any point of its move, the unit may not move more than its Walk action distance")
    and is capped at the Walk, and ``t`` is farther than the Walk: no move into base contact is
    shorter than the gap (:data:`ROUNDING` kept for the moves' rounding). The touch is the moves'
    own test (``blocks_touch``) on the block where it stands, which every move from there meets."""
    unit, table = state.setup.units[u], state.setup.table
    if unit.has("strider") or unit.has("flying") or not table.has_any("difficult"):
        return False
    if state.gap(u, t) <= move_distance(unit, "walk") + ROUNDING:
        return False

    def stands_in() -> bool:
        a = state.models(u)
        return block_crosses(table, a, a, "difficult", float(state.setup.radii[u]))

    return recall(state.setup, ("touches difficult", state.placed(u)), stands_in)


def end_blocks(state: GameState, u: int, move: tuple[float, float]) -> np.ndarray:
    """``(1, n, 2)``: unit ``u``'s block after ``move``."""
    start = state.anchors[u]
    return blocks(state.block(u), np.array([(start[0] + move[0], start[1] + move[1])], dtype=float))


__all__ = [
    "MODELS",
    "ROUNDING",
    "TURNS",
    "Chosen",
    "alternatives",
    "chosen",
    "clear",
    "end_blocks",
    "first_contacts",
    "held_back",
    "path",
    "path_clear",
]
