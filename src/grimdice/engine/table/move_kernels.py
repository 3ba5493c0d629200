"""A compiled pass for a unit's candidate moves: each direction's longest legal length
(``kernels.block_moves``), the move cut to 0.001" and the repeats of each group of directions
dropped, so the caller reads the moves straight off two arrays.

The arithmetic is the NumPy arithmetic it replaces, element by element (``steps = length *
fraction``, ``trunc(x * 1000) / 1000 + 0.0``), so a game is the same whichever computes it; see
``kernels.py`` for why the games compile these loops.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from grimdice.engine.table.kernels import Polygons, Units, _touching, block_moves, units_clear

Tolerances = tuple[float, float, float, float]


@njit(cache=True, inline="always")
def _trunc3(x: float) -> float:
    """``x`` cut towards zero to 0.001 (``-0.0`` made ``0.0``): as ``moving.trunc3`` cuts a logged move."""
    return float(np.trunc(x * 1000.0) / 1000.0 + 0.0)


@njit(cache=True)
def longest_moves(
    block: tuple[np.ndarray, np.ndarray, tuple[float, float], float],
    ways: tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray],
    rules: tuple[
        tuple[float, float], tuple[Polygons, np.ndarray, np.ndarray], float, Units, bool, Tolerances
    ],
) -> tuple[np.ndarray, np.ndarray]:
    """``(W, 2)`` and ``(W,)``: each direction's move and whether it is offered. ``block``: the
    bases where they stand, their offsets from the anchor, the anchor and the bases' radius;
    ``ways``: the unit vectors ``ux``, ``uy``, each direction's full ``length``, the ``fractions``
    of it tried (longest first) and ``groups``, the number of directions in each group (one group
    per allowance, one after another). A direction's move is its longest legal length
    (:func:`kernels.block_moves` with ``rules``, its last six arguments) times its unit vector,
    each coordinate cut to 0.001"; it is offered when it has a legal length and no earlier
    direction of its group gives the same move."""
    a, base, anchor, radius = block
    ux, uy, length, fractions, groups = ways
    w_count, f_count = ux.shape[0], fractions.shape[0]
    steps = np.empty((w_count, f_count))
    for w in range(w_count):
        for f in range(f_count):
            steps[w, f] = length[w] * fractions[f]
    good = block_moves(a, base, anchor, ux, uy, steps, radius, *rules)
    ends = np.zeros((w_count, 2))
    kept = np.zeros(w_count, dtype=np.bool_)
    first = 0
    for g in range(groups.shape[0]):
        stop = first + groups[g]
        for w in range(first, stop):
            for f in range(f_count):
                if good[w, f]:
                    best = steps[w, f]
                    ends[w, 0], ends[w, 1] = _trunc3(ux[w] * best), _trunc3(uy[w] * best)
                    kept[w] = True
                    break
            for v in range(first, w):
                if kept[w] and kept[v] and ends[v, 0] == ends[w, 0] and ends[v, 1] == ends[w, 1]:
                    kept[w] = False
        first = stop
    return ends, kept


@njit(cache=True)
def leg_checks(
    a: np.ndarray,
    b: np.ndarray,
    radius: float,
    size: tuple[float, float],
    terrain: tuple[Polygons, np.ndarray, np.ndarray, np.ndarray] | None,
    others: Units,
    tolerances: Tolerances,
) -> tuple[bool, bool, bool]:
    """(legal, touched difficult, touched dangerous) for the bases of ``radius`` moved straight from
    ``a`` to ``b`` (both ``(n, 2)``): every base at ``b`` on the table (``size``: width, depth;
    ``Table.spans_on_table``), no path touching a piece ``terrain`` marks impassable
    (``kernels.paths_touch``; ``terrain``: :data:`Polygons` and the impassable, difficult and
    dangerous masks, or None for bases that ignore terrain and may pass over other bases), then
    clear of the other units (:func:`kernels.units_clear` with ``others`` and ``tolerances``: the
    table's, the game's, the contact slack and the distance kept). The touches are reported only
    for a legal move. ``moving.placements`` for one end, in one pass."""
    table_eps, eps, slack, keep = tolerances
    lo_x, lo_y, hi_x, hi_y = np.inf, np.inf, -np.inf, -np.inf
    for i in range(b.shape[0]):
        lo_x, lo_y = min(lo_x, b[i, 0]), min(lo_y, b[i, 1])
        hi_x, hi_y = max(hi_x, b[i, 0]), max(hi_y, b[i, 1])
    if not (
        lo_x - radius >= -table_eps
        and lo_y - radius >= -table_eps
        and hi_x + radius <= size[0] + table_eps
        and hi_y + radius <= size[1] + table_eps
    ):
        return False, False, False
    difficult = dangerous = False
    if terrain is not None:
        poly, impassable, slow, harm = terrain
        row = np.zeros(impassable.shape[0], dtype=np.bool_)
        _touching(a, b, radius, poly, impassable | slow | harm, row, False)
        for j in range(row.shape[0]):
            if row[j] and impassable[j]:
                return False, False, False
            difficult |= row[j] and slow[j]
            dangerous |= row[j] and harm[j]
    ends = b.reshape(1, b.shape[0], 2)
    clear = units_clear(a, ends, radius, others, terrain is not None, (keep, eps, slack))
    if not clear[0]:
        return False, False, False
    return True, difficult, dangerous


@njit(cache=True)
def first_paths_ok(
    a: np.ndarray,
    bs: np.ndarray,
    caps: tuple[float, float, bool],
    radius: float,
    size: tuple[float, float],
    terrain: tuple[Polygons, np.ndarray, np.ndarray, np.ndarray] | None,
    others: Units,
    tolerances: Tolerances,
) -> int:
    """The first candidate ``c`` whose paths (base ``i`` straight from ``a[i]`` to ``bs[c, i]``; ``(C,
    n, 2)``) are all no longer than ``caps[0]`` and pass :func:`leg_checks`, the longest path given
    first (the units' reach is measured by it; the others in their order), and no longer than
    ``caps[1]`` where one meets difficult terrain unless ``caps[2]`` (Strider); -1 when none does.
    Each candidate's paths are measured with ``np.hypot``, as the tests' plain reference measures them."""
    longest_allowed, slow_cap, any_pace = caps
    n = a.shape[0]
    aa, bb = np.empty((n, 2)), np.empty((n, 2))
    for c in range(bs.shape[0]):
        longest, first = 0.0, 0
        for i in range(n):
            d = np.hypot(bs[c, i, 0] - a[i, 0], bs[c, i, 1] - a[i, 1])
            if i == 0 or d > longest:
                longest, first = d, i
        if longest > longest_allowed:
            continue
        aa[0, 0], aa[0, 1], bb[0, 0], bb[0, 1] = a[first, 0], a[first, 1], bs[c, first, 0], bs[c, first, 1]
        row = 1
        for i in range(n):
            if i != first:
                aa[row, 0], aa[row, 1] = a[i, 0], a[i, 1]
                bb[row, 0], bb[row, 1] = bs[c, i, 0], bs[c, i, 1]
                row += 1
        ok, slow, _harm = leg_checks(aa, bb, radius, size, terrain, others, tolerances)
        if ok and not (slow and not any_pace and longest > slow_cap):
            return c
    return -1


__all__ = ["first_paths_ok", "leg_checks", "longest_moves"]
