"""The compiled loop (Numba) of the AI's estimate of a charge's strikers (:mod:`.frontage`): which
spots the assaulting models reach, the spots they take, and the target's models within reach of
them. Imported on first use by the AI only (``grimdice calc`` never loads it)."""

from __future__ import annotations

import numpy as np
from numba import njit

from grimdice.engine.table.kernels import _square_point_segment


@njit(cache=True)
def count(
    at: np.ndarray,
    tier: np.ndarray,
    starts: np.ndarray,
    ra: float,
    allowance: float,
    d: np.ndarray,
    rd: float,
    flying: bool,
    tried: int,
    slack: float,
    reach_back: float,
    eps: float,
) -> tuple[int, int]:
    """(spots taken, target models within ``reach_back`` of one) for the spots ``at`` (ranks
    ``tier``), the assaulting models at ``starts`` (radius ``ra``, ``allowance``) and the target's
    models ``d`` (radius ``rd``); see :func:`.frontage.strikers`. A spot is reached when one of its
    ``tried`` nearest models is within the allowance and (unless ``flying``) its straight path
    overlaps no target base by ``slack`` or more."""
    k, n, m = at.shape[0], starts.shape[0], d.shape[0]
    travel = np.full(k, np.inf)
    ok = np.zeros(k, dtype=np.bool_)
    nearest_spot = np.full(n, np.inf)
    dist = np.empty(n)
    block = max(ra + rd - slack, 0.0)
    for s in range(k):
        for i in range(n):
            dx, dy = at[s, 0] - starts[i, 0], at[s, 1] - starts[i, 1]
            dist[i] = np.sqrt(dx * dx + dy * dy)
            if dist[i] < nearest_spot[i]:
                nearest_spot[i] = dist[i]
        order = np.argsort(dist, kind="mergesort")
        travel[s] = dist[order[0]]
        for r in range(min(tried, n)):
            i = order[r]
            if dist[i] > allowance + eps:
                break
            if flying:
                ok[s] = True
                break
            clear = True
            for j in range(m):
                sq = _square_point_segment(d[j, 0], d[j, 1], starts[i, 0], starts[i, 1], at[s, 0], at[s, 1])
                if sq < block * block:
                    clear = False
                    break
            if clear:
                ok[s] = True
                break
    most = 0
    for i in range(n):
        if nearest_spot[i] <= allowance + eps:
            most += 1
    rows = np.flatnonzero(ok)
    picks = rows[np.argsort(tier[rows] * 1e6 + travel[rows], kind="mergesort")]
    taken = _taken(at, picks, most, 2 * ra - eps)
    got = taken.shape[0]
    back = 0
    for j in range(m):
        for t in range(got):
            dx, dy = d[j, 0] - taken[t, 0], d[j, 1] - taken[t, 1]
            if np.sqrt(dx * dx + dy * dy) - rd - ra <= reach_back + eps:
                back += 1
                break
    return got, back


@njit(cache=True)
def _taken(at: np.ndarray, picks: np.ndarray, most: int, apart: float) -> np.ndarray:
    """The spots ``at[picks]`` taken in that order, each at least ``apart`` from those taken before
    it, at most ``most`` of them."""
    taken = np.empty((min(most, len(picks)), 2))
    got = 0
    for s in picks:
        if got >= most:
            break
        free = True
        for t in range(got):
            dx, dy = at[s, 0] - taken[t, 0], at[s, 1] - taken[t, 1]
            if np.sqrt(dx * dx + dy * dy) < apart:
                free = False
                break
        if free:
            taken[got, 0], taken[got, 1] = at[s, 0], at[s, 1]
            got += 1
    return taken[:got]


__all__ = ["count"]
