"""Compiled loops (Numba) for placing the models of one unit on spots (a One Page 40k Assault's
ranks: ``systems/onepage/game/assault_ranks``): the models taking spots one at a time, the model
with the fewest spots first (:func:`take_spots`); whether a base may stand at each of many spots
(:func:`follow_ends`); whether each (start, spot) pair is within a distance (:func:`within`).

As in :mod:`grimdice.engine.table.kernels`, each value is computed with the floating-point
operations of the NumPy formula it mirrors, in the same order (no fast-math), and each choice breaks
ties as the ``np.lexsort`` it mirrors (the first index among equal keys), so the answers are the
same; ``tests/onepage_game/test_assault_ranks_identity.py`` checks them equal. Only the games
import it."""

from __future__ import annotations

import numpy as np
from numba import njit

from grimdice.engine.table.path_kernels import nearest_gap


@njit(cache=True)
def _free(g: np.ndarray, s: int, i: int, eps: float, link: float, span: float) -> bool:
    """Whether spot ``s`` overlaps no model but ``i``, is within ``link`` of one and within
    ``span`` of all (its gaps ``g[s]`` to the models where they stand)."""
    linked = False
    for m in range(g.shape[1]):
        if m == i:
            continue
        if g[s, m] < -eps or g[s, m] > span + eps:
            return False
        if g[s, m] <= link + eps:
            linked = True
    return linked


@njit(cache=True)
def _before_model(count: int, near: bool, count_b: int, near_b: bool) -> bool:
    """Whether a model comes strictly before another: some spots before none, not near before
    near, then fewer spots."""
    if (count == 0) != (count_b == 0):
        return count_b == 0
    if near != near_b:
        return not near
    return count < count_b


@njit(cache=True)
def _less(a: np.ndarray, b: np.ndarray) -> bool:
    """Whether the key ``a`` comes strictly before ``b`` (compared entry by entry)."""
    for x in range(a.shape[0]):
        if a[x] != b[x]:
            return a[x] < b[x]
    return False


@njit(cache=True)
def take_spots(
    spots: np.ndarray,
    tier: np.ndarray,
    can: np.ndarray,
    movers: np.ndarray,
    near: np.ndarray,
    starts: np.ndarray,
    pos: np.ndarray,
    g: np.ndarray,
    radius: float,
    consts: np.ndarray,
) -> tuple[np.ndarray, np.ndarray]:
    """The models ``movers[k]`` take spots while one may (``can[k, s]``: it reaches spot ``s``):
    each round the waiting model with the fewest spots it may take now (over no base of its unit,
    within ``link`` of one and ``span`` of all, ``g``: the spots' signed gaps to the models at
    ``pos``), those with some before those with none, those not ``near`` first; of its spots, the
    lowest ``tier``, then the snuggest (gap to the nearest other model clipped at 0, rounded to
    0.1"), the fewest other waiting models could take, the shortest from its start. ``consts``:
    ``(eps, link, span)``. Updates ``pos`` and ``g``; returns the models moved in order and each
    one's former place."""
    eps, link, span = consts[0], consts[1], consts[2]
    nm, ns, n = movers.shape[0], spots.shape[0], pos.shape[0]
    options = np.zeros((nm, ns), dtype=np.bool_)
    counts = np.zeros(nm, dtype=np.int64)
    order = np.empty(nm, dtype=np.int64)
    backs = np.empty((nm, 2))
    now, key = np.empty(5), np.empty(5)
    done = 0
    while can.any():
        for k in range(nm):
            counts[k] = 0
            for s in range(ns):
                options[k, s] = can[k, s] and _free(g, s, movers[k], eps, link, span)
                counts[k] += options[k, s]
        best = 0
        for k in range(1, nm):  # lexsort((counts, near, counts == 0))
            if _before_model(counts[k], near[k], counts[best], near[best]):
                best = k
        if counts[best] == 0:
            break
        i = movers[best]
        pick = -1
        for s in range(ns):  # lexsort((travel, contested, snug, tier, ~options[best]))
            contested = 0
            for k in range(nm):
                if k != best:
                    contested += options[k, s]
            dx, dy = spots[s, 0] - starts[i, 0], spots[s, 1] - starts[i, 1]
            travel = np.sqrt(dx * dx + dy * dy)
            if n > 1:
                low = np.inf
                for m in range(n):
                    if m != i:
                        low = min(low, max(g[s, m], 0.0))
                snug = np.rint(low * 10.0) / 10.0
            else:
                snug = travel
            now[0], now[1] = 0.0 if options[best, s] else 1.0, tier[s]
            now[2], now[3], now[4] = snug, contested, travel
            if pick < 0 or _less(now, key):
                pick = s
                key[:] = now
        backs[done, 0], backs[done, 1] = pos[i, 0], pos[i, 1]
        order[done] = i
        done += 1
        pos[i, 0], pos[i, 1] = spots[pick, 0], spots[pick, 1]
        for s in range(ns):
            dx, dy = spots[s, 0] - pos[i, 0], spots[s, 1] - pos[i, 1]
            gap = np.sqrt(dx * dx + dy * dy) - radius
            g[s, i] = gap - radius
        for s in range(ns):
            can[best, s] = False
    return order[:done], backs[:done]


@njit(cache=True)
def within(froms: np.ndarray, spots: np.ndarray, limit: float, mask: np.ndarray) -> np.ndarray:
    """``(n, k)``: ``mask[i, j]`` and the distance from ``froms[i]`` to ``spots[j]`` at most
    ``limit`` (``np.sqrt(dx * dx + dy * dy) <= limit``, dx and dy the spot less the start)."""
    n, k = froms.shape[0], spots.shape[0]
    out = np.zeros((n, k), dtype=np.bool_)
    for i in range(n):
        for j in range(k):
            if mask[i, j]:
                dx, dy = spots[j, 0] - froms[i, 0], spots[j, 1] - froms[i, 1]
                out[i, j] = np.sqrt(dx * dx + dy * dy) <= limit
    return out


@njit(cache=True)
def follow_ends(
    ends: np.ndarray,
    pos: np.ndarray,
    i: int,
    ra: float,
    target: np.ndarray,
    target_radii: np.ndarray,
    others: np.ndarray,
    other_radii: np.ndarray,
    limits: np.ndarray,
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """For the ends a base of model ``i`` could move to: whether each is closer to the target than
    ``limits[0]`` (its gap to the nearest ``target`` base below it), on a table of ``limits[1]`` by
    ``limits[2]`` (less ``limits[3]``), over no target base (gap at least ``-limits[4]``), no nearer
    than ``limits[5]`` to the ``others`` bases (when there are any), and over no base of its unit at
    ``pos``, within ``limits[6]`` of one and ``limits[7]`` of all (``limits[4]``: the overlap
    allowed); with each end's gap to the target and to the others (0 when there are
    none). ``i`` -1: any base's spots, with neither the test of closeness nor that of its unit. The
    arithmetic of ``nearest_gaps``, ``Table.on_table`` and ``base_distances``."""
    n = ends.shape[0]
    ok = np.zeros(n, dtype=np.bool_)
    gaps, near = np.zeros(n), np.zeros(n)
    eps, link, span, table_eps = limits[4], limits[6], limits[7], limits[3]
    for s in range(n):
        x, y = ends[s, 0], ends[s, 1]
        gaps[s] = nearest_gap(x, y, ra, target, target_radii)
        if i >= 0 and not gaps[s] < limits[0]:
            continue
        if not (x - ra >= -table_eps and y - ra >= -table_eps):
            continue
        if not (x + ra <= limits[1] + table_eps and y + ra <= limits[2] + table_eps):
            continue
        if not gaps[s] >= -eps:
            continue
        if others.shape[0]:
            near[s] = nearest_gap(x, y, ra, others, other_radii)
            if not near[s] >= limits[5]:
                continue
        linked, free = False, True
        for m in range(pos.shape[0] if i >= 0 else 0):
            if m == i:
                continue
            dx, dy = x - pos[m, 0], y - pos[m, 1]
            gap = np.sqrt(dx * dx + dy * dy) - ra
            gap -= ra
            if gap < -eps or gap > span + eps:
                free = False
                break
            if gap <= link + eps:
                linked = True
        ok[s] = i < 0 or (free and linked)
    return ok, gaps, near
