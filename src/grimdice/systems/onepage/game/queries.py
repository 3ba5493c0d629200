"""The geometry memo of a game state filled in bulk: every candidate place of a unit at once.

:func:`prefetch` answers, for all candidate anchors of one unit and all enemy units in one pass,
what :meth:`GameState.gap`, sight through terrain, cover, heights and dangerous crossings would
answer one at a time (the kernels of :mod:`grimdice.engine.table.blocks`, the same arithmetic
element by element), and keeps the answers in the state's geometry memo under the same keys.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from grimdice.engine.table.blocks import (
    blocks,
    blocks_cross,
    blocks_in_cover,
    models_through,
    pair_distances,
    sights,
)
from grimdice.engine.table.sweeps import cover_lines
from grimdice.systems.onepage.game.cache import memo


def prefetch(
    state: Any, u: int, ends: list[tuple[float, float]], sight: bool = True, crossing: bool = True
) -> list[float] | None:
    """Fill ``state``'s geometry memo for unit ``u`` at each candidate anchor of ``ends``: whether it
    stands in cover, the gap to every enemy unit and (``sight``) the sight through terrain of each
    (``blocks.sights``: the models that see within the longest range, the farthest one's distance;
    the AI reads it where terrain blocks every line), all candidates and enemies in one pass (base
    distances of all model pairs, then line of sight of the pairs in range). Entries equal what
    one candidate and enemy alone would give (same keys, same arithmetic); only the candidates and
    enemies the memo lacks are computed (each entry depends on its own candidate and enemy only);
    ``crossing``: also whether the move there crosses dangerous terrain (not for a placement).
    Returns each candidate's gap to the nearest enemy unit (the least of the memo's gaps), or None
    when there is nothing to fetch."""
    enemies = state.enemies(u)
    if not ends or not enemies or state.units[u].models == 0:
        return None
    pts = [state.models(t) for t in enemies]
    here = state.placed(u)
    m = memo(state.setup)
    places = [state.placed(u, e) for e in ends]
    targets = [state.placed(t) for t in enemies]
    reach = state.weapon_range(u)
    seeing = sight and reach > 0
    alive = state.units[u].alive
    need = np.array(
        [
            [("gap", pu, pt) not in m or (seeing and ("sight", alive, pu, pt) not in m) for pt in targets]
            for pu in places
        ],
        dtype=bool,
    )  # (C, T): the pairs the memo lacks
    rows = need.any(axis=1)
    rows |= np.array([("in cover", pu) not in m for pu in places], dtype=bool)
    crossing = crossing and not state.setup.units[u].has("flying")  # Flying: "may ignore terrain effects"
    if crossing:
        rows |= np.array([("crosses", "dangerous", here, pu) not in m for pu in places], dtype=bool)
    if rows.any():
        chosen = [e for e, r in zip(ends, rows, strict=True) if r]
        fill(state, u, m, chosen, need[rows], pts, targets, seeing, crossing)
    nearest = [min(m[("gap", pu, pt)] for pt in targets) for pu in places]
    if not seeing:
        return nearest
    found = [[m[("sight", alive, pu, pt)] for pt in targets] for pu in places]
    prefetch_cover(state, u, ends, found, pts, targets)
    return nearest


def fill(
    state: Any,
    u: int,
    m: dict[Any, Any],
    ends: list[tuple[float, float]],
    need: np.ndarray,
    pts: list[np.ndarray],
    targets: list[tuple[Any, ...]],
    seeing: bool,
    crossing: bool,
) -> None:
    """:func:`prefetch`'s computation for the candidates ``ends`` (cover, dangerous crossing) and,
    for the enemies some of them lack (columns of ``need``), gaps and (``seeing``) sight."""
    bs = blocks(state.block(u), np.array(ends, dtype=float))
    places = [state.placed(u, e) for e in ends]
    # only the candidates the memo lacks (each answer depends on its own candidate alone)
    lack = [c for c, pu in enumerate(places) if ("in cover", pu) not in m]
    if lack:
        for c, cover in zip(lack, blocks_in_cover(state.setup.table, bs[lack]), strict=True):
            m[("in cover", places[c])] = bool(cover)
    if crossing:
        here = state.placed(u)
        lack = [c for c, pu in enumerate(places) if ("crosses", "dangerous", here, pu) not in m]
        if lack:
            through = blocks_cross(
                state.setup.table, state.models(u), bs[lack], "dangerous", state.setup.radii[u]
            )
            for c, hit in zip(lack, through, strict=True):
                m[("crosses", "dangerous", here, places[c])] = bool(hit)
            crossed = [c for c, hit in zip(lack, through, strict=True) if hit]
            if crossed:  # and how many models go through (dangerous.models_through, all at once)
                for c, k in zip(
                    crossed,
                    models_through(state.setup.table, state.models(u), bs[crossed], state.setup.radii[u]),
                    strict=True,
                ):
                    m[("through", here, places[c])] = k
    cols = [k for k in range(len(targets)) if need[:, k].any()]
    if not cols:
        return
    sizes = [len(pts[k]) for k in cols]
    allp = np.concatenate([pts[k] for k in cols])
    enemies = [targets[k][0] for k in cols]
    radii = np.concatenate([np.full(z, state.setup.radii[t]) for z, t in zip(sizes, enemies, strict=True)])
    d = pair_distances(bs, state.setup.radii[u], allp, radii)
    gaps = np.minimum.reduceat(d.min(axis=1), np.cumsum([0, *sizes[:-1]]), axis=1)  # (C, T)
    for c, pu in enumerate(places):
        for j, k in enumerate(cols):
            m.setdefault(("gap", pu, targets[k]), float(gaps[c, j]))
    if not seeing:
        return
    alive = state.units[u].alive
    found = sights(state.setup.table, bs, allp, d, state.weapon_range(u), sizes, state.setup.radii[u], radii)
    for pu, row in zip(places, found, strict=True):
        for k, hit in zip(cols, row, strict=True):
            m.setdefault(("sight", alive, pu, targets[k]), hit)


def prefetch_cover(
    state: Any,
    u: int,
    ends: list[tuple[float, float]],
    rows: list[list[tuple[int, float]]],
    pts: list[np.ndarray],
    targets: list[tuple[Any, ...]],
) -> None:
    """Fill the memo's ``("cover", shooter placed, target placed)`` entries of every target that
    unit ``u`` sees from each candidate anchor (``rows`` from :func:`sights`), as
    :meth:`GameState.in_cover` answers (``sweeps.covered_models``); and the ``("height", placed)``
    of each such anchor (:meth:`GameState.height`), all in one ``height_at`` pass (element by
    element the same arithmetic)."""
    m = memo(state.setup)
    todo: list[tuple[tuple[Any, ...], int, np.ndarray]] = []
    heights: list[tuple[tuple[Any, ...], np.ndarray]] = []
    for end, row in zip(ends, rows, strict=True):
        at = state._rounded(u, end)  # the position a move there records, as _shot_where reads it
        pu = state.placed(u, at)
        if any(n for n, _far in row) and ("height", pu) not in m:
            heights.append((("height", pu), state.models(u, at)))
        for k, (n, _far) in enumerate(row):
            if n and ("cover", pu, targets[k]) not in m:
                todo.append((("cover", pu, targets[k]), k, state.models(u, at)))
    if heights:
        h = state.setup.table.height_at(np.concatenate([b for _, b in heights]))
        i = 0
        for key, b in heights:
            m[key] = float(h[i : i + len(b)].mean())
            i += len(b)
    if not todo:
        return
    starts = np.concatenate([np.broadcast_to(sh.mean(axis=0), pts[k].shape) for _, k, sh in todo])
    covered = cover_lines(state.setup.table, starts, np.concatenate([pts[k] for _, k, _ in todo]))
    i = 0
    for key, k, _ in todo:
        n = len(pts[k])
        m[key] = 2 * int(covered[i : i + n].sum()) > n
        i += n


__all__ = ["fill", "prefetch", "prefetch_cover"]
