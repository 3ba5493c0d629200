"""The lattice of 1" cells: pieces laid by their cells' centres, and straight lines of sight in
three dimensions over the cells' heights (checked against hand-computed heights of the line)."""

from __future__ import annotations

import numpy as np

from grimdice.engine.table.lattice import Lattice, breadth_first, cells_of
from grimdice.engine.table.terrain import Terrain


def lattice(tops: dict[tuple[int, int], float], w: int = 10, h: int = 5) -> Lattice:
    top = np.zeros((h, w))
    for (x, y), v in tops.items():
        top[y, x] = v
    return Lattice(w, h, {}, top)


def test_a_piece_covers_the_cells_whose_centres_lie_inside():
    piece = Terrain("L", np.array([[1.0, 1.0], [3.0, 1.0], [3.0, 2.0], [2.0, 2.0], [2.0, 3.4], [1.0, 3.4]]))
    # centres (1.5, 1.5), (2.5, 1.5), (1.5, 2.5) inside; (1.5, 3.5) lies beyond the edge at y 3.4
    assert sorted(cells_of(piece, 10, 5)) == [(1, 1), (1, 2), (2, 1)]
    assert cells_of(Terrain("sliver", np.array([[4.6, 0.0], [5.4, 0.0], [5.4, 0.4]])), 10, 5) == []


def test_a_line_passes_above_lower_cells_and_not_through_higher_ones():
    # from (0.5, 2.5) at 1.5" to (8.5, 2.5) at 1.5": a level line; a 1" block under it does not
    # block, a 2" one does
    low, high = lattice({(4, 2): 1.0}), lattice({(4, 2): 2.0})
    a, b = (0.5, 2.5, 1.5), (8.5, 2.5, 1.5)
    assert low.clear(a, b) and not high.clear(a, b)
    # falling from 6" to 0": over cell 4 (half way) the line is at 3"
    assert lattice({(4, 2): 2.9}).clear((0.5, 2.5, 6.0), (8.5, 2.5, 0.0))
    assert not lattice({(4, 2): 3.1}).clear((0.5, 2.5, 6.0), (8.5, 2.5, 0.0))
    # the end cells never block (the models' own cells)
    assert lattice({(0, 2): 9.0, (8, 2): 9.0}).clear(a, b)


def test_a_line_through_a_corner_is_blocked_only_by_both_pinching_cells():
    a, b = (0.5, 0.5, 0.5), (2.5, 2.5, 0.5)  # through the corner at (1, 1) and (2, 2)
    assert lattice({(1, 0): 5.0}).clear(a, b)
    assert not lattice({(1, 0): 5.0, (0, 1): 5.0}).clear(a, b)
    assert not lattice({(1, 1): 5.0}).clear(a, b)


def test_breadth_first_counts_steps_from_the_nearest_start():
    line = {i: [i - 1, i + 1] for i in range(5)}
    dist = breadth_first([(0,), (4,)], lambda p: [(q,) for q in line[p[0]] if 0 <= q < 5])
    assert dist == {(0,): 0, (4,): 0, (1,): 1, (3,): 1, (2,): 2}


def test_lines_at_once_equal_each_line_alone():
    """``clear_lines`` (every line together) answers as ``clear`` does line by line, on random
    heights with lines through corners, along rows and columns, within one cell and upward."""
    rng = np.random.default_rng(5)
    top = np.where(rng.random((7, 9)) < 0.35, rng.integers(1, 5, (7, 9)).astype(float), 0.0)
    lat = Lattice(9, 7, {}, top)
    cells = [(x + 0.5, y + 0.5) for y in range(7) for x in range(9)]
    pairs = [(a, b) for a in cells for b in cells]
    starts = np.array([(*a, rng.choice([0.5, 1.5, 3.5, 5.5])) for a, _ in pairs])
    ends = np.array([(*b, rng.choice([0.0, 0.75, 1.5, 4.0])) for _, b in pairs])
    at_once = lat.clear_lines(starts, ends)
    alone = [lat.clear(tuple(s), tuple(e)) for s, e in zip(starts, ends, strict=True)]
    assert at_once.tolist() == alone
    assert 0.2 < np.mean(alone) < 0.95  # both answers occur


def test_the_compiled_lines_equal_the_lines_at_once():
    """The compiled walk (``lattice_kernel.clear_lines``) answers as ``clear_lines`` does, line by
    line, on random heights (whole and fractional) with lines at random heights, through corners,
    along rows and columns and within one cell."""
    from grimdice.engine.table.lattice_kernel import clear_lines

    for seed in range(4):
        rng = np.random.default_rng(seed)
        top = np.where(rng.random((7, 11)) < 0.35, rng.integers(1, 5, (7, 11)).astype(float), 0.0)
        top += (seed % 2) * rng.random((7, 11))
        lat = Lattice(11, 7, {}, top)
        cells = [(x + 0.5, y + 0.5) for y in range(7) for x in range(11)]
        pairs = [(a, b) for a in cells for b in cells]
        starts = np.array([(*a, rng.choice([0.5, 1.5, 3.5, 5.5]) + rng.random()) for a, _ in pairs])
        ends = np.array([(*b, rng.choice([0.0, 0.75, 1.5, 4.0]) + rng.random()) for _, b in pairs])
        compiled = clear_lines(starts, ends, lat.top)
        assert compiled.tolist() == lat.clear_lines(starts, ends).tolist()
        assert 0.2 < np.mean(compiled) < 0.95  # both answers occur
