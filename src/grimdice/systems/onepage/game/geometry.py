"""Vectorised geometry kernels of the game: many candidate positions of one unit's block at once.

A unit moves as a block by translation, so its candidate end positions differ only by the anchor:
the kernels take the block's model centres at each candidate, ``(C, n, 2)``, and answer for every
candidate in one NumPy pass what :meth:`GameState.placement_ok` asks of one (on the table, terrain
entered, left or crossed, gaps to the other units). Each element is computed with the same
floating-point operations as the one-candidate functions of :mod:`grimdice.engine.board`
(``segments_cross``, ``Table.pieces_at``, ``base_distances``), so a game is the same whichever path
answers.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from grimdice.engine.board import Table, crossing, path_blocked, segments_cross, sight_blocked
from grimdice.systems.onepage.game.cache import memo

EPS = 1e-6  # as the game state's


def blocks(base: np.ndarray, anchors: np.ndarray) -> np.ndarray:
    """``(C, n, 2)``: the block ``base`` (model offsets, already flipped) at each of ``anchors``."""
    return base[None, :, :] + anchors[:, None, :]


def blocks_cross(table: Table, a: np.ndarray, bs: np.ndarray, trait: str) -> np.ndarray:
    """``(C,)``: whether moving the models straight from ``a`` (``(n, 2)``) to ``bs[c]`` enters,
    leaves or crosses a piece with ``trait`` (a piece whose bounds the move misses is skipped, as
    ``GameState.crosses`` does)."""
    keep = table.having(trait)
    return np.asarray(blocks_touch(table, a, bs, keep)[:, keep].any(axis=1))


def blocks_touch(
    table: Table,
    a: np.ndarray,
    bs: np.ndarray,
    keep: np.ndarray,
    bounds: tuple[np.ndarray, np.ndarray] | None = None,
) -> np.ndarray:
    """``(C, k)``: for every piece that ``keep`` marks, whether moving the models straight from
    ``a`` (``(n, 2)``) to ``bs[c]`` enters, leaves or crosses it: the box around the move's paths
    meets the piece's bounds, and some path crosses one of its edges
    (``board.segments_cross``) or starts or ends inside it (``Table.pieces_at``). All pieces and
    candidates in one pass; each path is tested only against the edges of the pieces near its
    candidate (the same arithmetic element by element). ``bounds``: ``bs.min(axis=1)`` and
    ``bs.max(axis=1)`` when the caller has them."""
    c = bs.shape[0]
    qa, _qb, _box, _h, _m = table.polygons()
    outer, spans = table.outer()
    out = np.zeros((c, len(outer)), dtype=bool)
    if c == 0 or not keep.any():
        return out
    bmin, bmax = bounds if bounds is not None else (bs.min(axis=1), bs.max(axis=1))
    lo = np.minimum(a.min(axis=0)[None, :], bmin)  # (C, 2): the box around the move's paths
    hi = np.maximum(a.max(axis=0)[None, :], bmax)
    # (C, k): only a move whose box meets a piece's box can touch it
    near = keep[None, :] & ~(outer[None, :, :] < np.concatenate([lo, -hi], axis=1)[:, None, :]).any(axis=2)
    cc, pp = np.nonzero(near)
    if len(cc) == 0:
        return out
    # every model's path (start a[i], along r) of each near (candidate, piece) against the piece's edges
    ends = bs[cc]  # (P, n, 2)
    r = ends - a[None, :, :]
    q, s = qa[pp], spans[pp]  # (P, E, 2)
    hit = crossing(
        a[None, :, None, 0],
        a[None, :, None, 1],
        r[:, :, None, 0],
        r[:, :, None, 1],
        q[:, None, :, 0],
        q[:, None, :, 1],
        s[:, None, :, 0],
        s[:, None, :, 1],
    ).any(axis=(1, 2))
    # or some path starts or ends inside the piece
    paths = np.concatenate([ends, np.broadcast_to(a, ends.shape)], axis=1)  # (P, 2n, 2)
    out[cc, pp] = hit | table.inside(paths, pp).any(axis=1)
    return out


def blocks_gaps(
    bs: np.ndarray, radius: float, pts: np.ndarray, radii: np.ndarray, starts: np.ndarray
) -> np.ndarray:
    """``(C, K)``: the closest base-to-base gap from the block at each candidate to each of ``K``
    other units (their models ``pts`` with ``radii``, unit ``k``'s block starting at ``starts[k]``)."""
    return np.minimum.reduceat(pair_distances(bs, radius, pts, radii).min(axis=1), starts, axis=1)


def blocks_within(
    bs: np.ndarray, radius: float, pts: np.ndarray, radii: np.ndarray, limit: np.ndarray
) -> np.ndarray:
    """``(C,)``: whether the block at each candidate comes closer than ``limit[j]`` to some model
    ``j`` of ``pts`` (base to base, :func:`pair_distances`): a unit's least gap is under a limit
    when one of its model pairs is."""
    return np.asarray((pair_distances(bs, radius, pts, radii) < limit[None, None, :]).any(axis=(1, 2)))


def pair_distances(bs: np.ndarray, radius: float, pts: np.ndarray, radii: np.ndarray) -> np.ndarray:
    """``(C, n, M)``: closest base-to-base distances from each model of the block at each candidate
    to each of ``pts`` (``board.base_distances``, element by element)."""
    dx = bs[:, :, None, 0] - pts[None, None, :, 0]
    dy = bs[:, :, None, 1] - pts[None, None, :, 1]
    d = np.sqrt(dx * dx + dy * dy)  # np.linalg.norm's arithmetic: sqrt of the sum of the two squares
    return np.asarray(np.maximum(d - radius - radii[None, None, :], 0.0))


def sights(
    table: Table, bs: np.ndarray, pts: np.ndarray, d: np.ndarray, reach: float, sizes: list[int]
) -> list[list[tuple[int, float]]]:
    """For each candidate ``c`` and each target unit ``k`` (its models the next ``sizes[k]`` of
    ``pts``): (models of the block that see a model of ``k`` within ``reach``, the farthest such
    model's distance), as :meth:`GameState.sight` answers; ``d`` from :func:`pair_distances`."""
    near = d <= reach + EPS
    cc, ii, jj = np.nonzero(near)
    seen = np.full(d.shape, np.inf)
    if len(cc):
        keep = ~sight_blocked(table, bs[cc, ii], pts[jj])
        seen[cc[keep], ii[keep], jj[keep]] = d[cc[keep], ii[keep], jj[keep]]
    return sight_counts(seen, sizes)


def sight_counts(seen: np.ndarray, sizes: list[int]) -> list[list[tuple[int, float]]]:
    """:func:`sights`' answer from ``seen`` ``(C, n, M)``: each pair's distance where the model sees
    the other within reach, ``inf`` elsewhere (``screening.sight`` shares it)."""
    out: list[list[tuple[int, float]]] = [[] for _ in range(len(seen))]
    start = 0
    for size in sizes:
        best = seen[:, :, start : start + size].min(axis=2)  # (C, n)
        ok = np.isfinite(best)
        start += size
        count = ok.sum(axis=1)
        far = np.where(ok, best, -np.inf).max(axis=1)  # the farthest model that sees (max is exact)
        for c, (k, f) in enumerate(zip(count.tolist(), far.tolist(), strict=True)):
            out[c].append((k, f if k else 0.0))
    return out


def blocks_in_cover(table: Table, bs: np.ndarray) -> np.ndarray:
    """``(C,)``: whether most models of the block at each candidate stand inside a cover piece."""
    c, n = bs.shape[0], bs.shape[1]
    inside = table.pieces_at(bs.reshape(c * n, 2), "cover").any(axis=1).reshape(c, n)
    return np.asarray(inside.mean(axis=1) > 0.5)


def models_through(table: Table, a: np.ndarray, bs: np.ndarray) -> list[int]:
    """For each candidate ``c``: how many models moving straight from ``a`` (``(n, 2)``) to ``bs[c]``
    start, end or cross into a dangerous piece (:func:`.dangerous.models_through`, model by model the
    same tests)."""
    c, n = bs.shape[0], bs.shape[1]
    edges, _ = table.edges_with("dangerous")
    starts = np.broadcast_to(a[None, :, :], bs.shape).reshape(c * n, 2)
    ends = bs.reshape(c * n, 2)
    hit = segments_cross(starts, ends, edges).any(axis=1)
    hit |= table.pieces_at(starts, "dangerous").any(axis=1) | table.pieces_at(ends, "dangerous").any(axis=1)
    return [int(k) for k in hit.reshape(c, n).sum(axis=1)]


def prefetch(
    state: Any, u: int, ends: list[tuple[float, float]], sight: bool = True, crossing: bool = True
) -> list[float] | None:
    """Fill ``state``'s geometry memo for unit ``u`` at each candidate anchor of ``ends``: whether it
    stands in cover, the gap to every enemy unit and (``sight``) what :meth:`GameState.sight`
    answers for each, all candidates and enemies in one pass (base distances of all model pairs,
    then line of sight of the pairs in range). Entries equal what the one-at-a-time methods
    compute (same keys, same arithmetic); only the candidates and enemies the memo lacks are
    computed (each entry depends on its own candidate and enemy only); ``crossing``: also whether the
    move there crosses dangerous terrain (not for a placement). Returns each candidate's gap
    to the nearest enemy unit (the least of the memo's gaps), or None when there is nothing to fetch."""
    enemies = state.enemies(u)
    if not ends or not enemies or state.units[u].models == 0:
        return None
    flip, n = state.flip(u), state.units[u].models
    pts = [state.models(t) for t in enemies]
    here = state.placed(u)
    m = memo(state.setup)
    places = [(u, n, e, flip) for e in ends]
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
    flip, n = state.flip(u), state.units[u].models
    bs = blocks(state.setup.offsets[u][:n] * np.array([1.0, -flip]), np.array(ends, dtype=float))
    places = [(u, n, e, flip) for e in ends]
    # only the candidates the memo lacks (each answer depends on its own candidate alone)
    lack = [c for c, pu in enumerate(places) if ("in cover", pu) not in m]
    if lack:
        for c, cover in zip(lack, blocks_in_cover(state.setup.table, bs[lack]), strict=True):
            m[("in cover", places[c])] = bool(cover)
    if crossing:
        here = state.placed(u)
        lack = [c for c, pu in enumerate(places) if ("crosses", "dangerous", here, pu) not in m]
        if lack:
            through = blocks_cross(state.setup.table, state.models(u), bs[lack], "dangerous")
            for c, hit in zip(lack, through, strict=True):
                m[("crosses", "dangerous", here, places[c])] = bool(hit)
            crossed = [c for c, hit in zip(lack, through, strict=True) if hit]
            if crossed:  # and how many models go through (dangerous.models_through, all at once)
                for c, k in zip(
                    crossed, models_through(state.setup.table, state.models(u), bs[crossed]), strict=True
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
    found = sights(state.setup.table, bs, allp, d, state.weapon_range(u), sizes)
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
    unit ``u`` sees from each candidate anchor (``rows`` from :func:`sights`): the lines from the
    shooters' centre to each target model of :meth:`GameState.in_cover`, all in one
    ``path_blocked`` pass; and the ``("height", placed)`` of each such anchor (:meth:`GameState.height`),
    all in one ``height_at`` pass (element by element the same arithmetic)."""
    m = memo(state.setup)
    todo: list[tuple[tuple[Any, ...], int]] = []
    starts: list[np.ndarray] = []
    heights: list[tuple[tuple[Any, ...], np.ndarray]] = []
    for end, row in zip(ends, rows, strict=True):
        at = state._rounded(u, end)  # the position a move there records, as _shot_where reads it
        pu = state.placed(u, at)
        if any(n for n, _far in row) and ("height", pu) not in m:
            heights.append((("height", pu), state.models(u, at)))
        centre = None
        for k, (n, _far) in enumerate(row):
            if n and ("cover", pu, targets[k]) not in m:
                if centre is None:
                    centre = state.models(u, at).mean(axis=0)
                todo.append((("cover", pu, targets[k]), k))
                starts.append(np.repeat(centre[None, :], len(pts[k]), axis=0))
    if heights:
        h = state.setup.table.height_at(np.concatenate([b for _, b in heights]))
        i = 0
        for key, b in heights:
            m[key] = float(h[i : i + len(b)].mean())
            i += len(b)
    if not todo:
        return
    covered = path_blocked(
        state.setup.table, np.concatenate(starts), np.concatenate([pts[k] for _, k in todo]), "cover"
    )
    i = 0
    for key, k in todo:
        n = len(pts[k])
        m[key] = 2 * int(covered[i : i + n].sum()) > n
        i += n


__all__ = [
    "EPS",
    "blocks",
    "blocks_cross",
    "blocks_gaps",
    "blocks_in_cover",
    "blocks_touch",
    "blocks_within",
    "pair_distances",
    "prefetch",
    "prefetch_cover",
    "sight_counts",
    "sights",
]
