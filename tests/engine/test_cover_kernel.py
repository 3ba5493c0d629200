"""``kernels.lines_covered`` (``sweeps.cover_lines``) answers what the NumPy test it stands for
answers, line by line, on generated tables: the end inside a cover piece, or the line crossing an
edge of a cover piece its start is not inside (``terrain.segments_cross``, ``Table.pieces_at``)."""

from __future__ import annotations

import numpy as np
import pytest

from grimdice.engine.table.layout import generate_table, table_from_mapping
from grimdice.engine.table.sweeps import cover_lines, covered_models
from grimdice.engine.table.terrain import Table, segments_cross


def numpy_cover_lines(table: Table, s: np.ndarray, e: np.ndarray) -> np.ndarray:
    keep = table.having("cover")
    out = np.zeros(len(e), dtype=bool)
    if not keep.any():
        return out
    out |= table.pieces_at(e, keep=keep).any(axis=1)
    edges, _ = table.edges_with("cover")
    cross = segments_cross(s, e, edges)
    rows = cross.any(axis=1) & ~out
    if rows.any():
        pieces, first = table.edge_runs("cover")
        hits = np.add.reduceat(cross[rows], first, axis=1) > 0
        own = table.pieces_at(s[rows], keep=keep)[:, pieces]
        out[rows] = (hits & ~own).any(axis=1)
    return out


@pytest.mark.parametrize("seed", range(6))
def test_cover_lines_equal_numpy(seed: int) -> None:
    table = generate_table(seed)
    rng = np.random.default_rng(300 + seed)
    ends = rng.uniform(0.0, 1.0, size=(2, 500, 2)) * np.array([table.width, table.depth])
    corners = np.concatenate([t.corners for t in table.terrain])
    picked = corners[rng.integers(len(corners), size=(2, 60))]
    ends[0, :60], ends[1, 60:120] = picked  # lines from and to corners: the tolerances decide
    s, e = ends
    want = numpy_cover_lines(table, s, e)
    assert want.any() and not want.all()
    assert np.array_equal(cover_lines(table, s, e), want)


def test_cover_by_hand() -> None:
    table = table_from_mapping({"terrain": [{"name": "wood", "rect": [30, 20, 10, 10], "traits": ["cover"]}]})
    s = np.array([[20.0, 25.0], [35.0, 25.0], [20.0, 25.0], [20.0, 10.0]])
    e = np.array([[50.0, 25.0], [50.0, 25.0], [35.0, 25.0], [50.0, 10.0]])
    # behind the wood; from inside it (its own piece: no cover); inside it; beside it
    assert cover_lines(table, s, e).tolist() == [True, False, True, False]
    shooters = np.array([[20.0, 24.0], [20.0, 26.0]])
    assert covered_models(table, shooters, e[:2]).tolist() == [True, True]
