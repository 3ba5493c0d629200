"""Invariant checks of any game's table, on shapely's exact distances (an implementation apart from
the NumPy kernels the rules use, so that each checks the other): no base off the table, over
impassable terrain or over another base; units coherent; no move passing through another base or
over impassable terrain."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from grimdice.engine.table.bases import base_distances, coherent
from grimdice.engine.table.sweeps import CONTACT_SLACK
from grimdice.engine.table.terrain import Table


@dataclass(frozen=True)
class Group:
    """One unit's bases where they stand: centres ``(n, 2)``, one radius; ``flying`` units may pass
    over other bases and impassable terrain (never end on them)."""

    name: str
    centres: np.ndarray
    radius: float
    flying: bool = False


def _union(table: Table, trait: str) -> Any:
    """The union of the pieces with ``trait`` as one prepared shapely shape (None without any)."""
    import shapely

    key = ("_union", trait)
    if key not in table._edges:
        shapes = [t.polygon for t in table.terrain if t.has(trait)]
        union = shapely.union_all(shapes) if shapes else None
        if union is not None:
            shapely.prepare(union)
        table._edges[key] = union
    return table._edges[key]


def placement_violations(table: Table, groups: Sequence[Group], slack: float = CONTACT_SLACK) -> list[str]:
    """Every base off the table, over impassable terrain, or overlapping another base (by more than
    ``slack``), as readable lines."""
    import shapely

    out: list[str] = []
    rock = _union(table, "impassable")
    for g in groups:
        if not len(g.centres):
            continue
        off = ~table.on_table(g.centres, g.radius)
        out += [f"{g.name}: model {i} off the table" for i in np.flatnonzero(off)]
        if rock is not None:
            d = shapely.distance(shapely.points(g.centres), rock)
            out += [
                f"{g.name}: model {i} over impassable terrain" for i in np.flatnonzero(d < g.radius - slack)
            ]
    live = [g for g in groups if len(g.centres)]
    if not live:
        return out
    pts = np.concatenate([g.centres for g in live])
    radii = np.concatenate([np.full(len(g.centres), g.radius) for g in live])
    owner = np.concatenate([np.full(len(g.centres), k) for k, g in enumerate(live)])
    index = np.concatenate([np.arange(len(g.centres)) for g in live])
    gap = base_distances(pts, radii, pts, radii, signed=True)
    for p, q in zip(*np.nonzero(np.triu(gap < -slack, k=1)), strict=True):
        a, b = live[owner[p]], live[owner[q]]
        out.append(f'{a.name} model {index[p]} overlaps {b.name} model {index[q]} by {-gap[p, q]:.3f}"')
    return out


def coherency_violations(groups: Sequence[Group], link: float, span: float) -> list[str]:
    """The units not coherent: every model within ``link`` of another, all linked, none over ``span``
    apart."""
    return [
        f"{g.name}: not coherent"
        for g in groups
        if len(g.centres) > 1 and not coherent(g.centres, np.full(len(g.centres), g.radius), link, span)
    ]


def path_violations(
    table: Table, before: Group, after: Group, others: Sequence[Group], slack: float = CONTACT_SLACK
) -> list[str]:
    """A move straight from ``before`` to ``after`` (model by model) whose swept bases pass over a
    base of ``others`` or over impassable terrain (none for a Flying unit)."""
    import shapely

    if before.flying:
        return []
    n = min(len(before.centres), len(after.centres))
    if n == 0:
        return []
    a, b = before.centres[:n], after.centres[:n]
    moved = np.hypot(*(b - a).T) > 1e-9
    if not moved.any():
        return []
    paths = shapely.linestrings(np.stack([a[moved], b[moved]], axis=1))
    idx = np.flatnonzero(moved)
    out: list[str] = []
    rock = _union(table, "impassable")
    if rock is not None:
        d = shapely.distance(paths, rock)
        out += [
            f"{before.name}: model {idx[k]} moves over impassable terrain"
            for k in np.flatnonzero(d < before.radius - slack)
        ]
    for g in others:
        if not len(g.centres):
            continue
        d = shapely.distance(paths[:, None], shapely.points(g.centres)[None, :])
        for k, q in zip(*np.nonzero(d < before.radius + g.radius - slack), strict=True):
            out.append(f"{before.name}: model {idx[k]} moves through {g.name} model {q}")
    return out


__all__ = ["Group", "coherency_violations", "path_violations", "placement_violations"]
