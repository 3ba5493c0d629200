"""A grid's sight keeps each line's squares (engine.grid.crossed) and answers as the walk does."""

from __future__ import annotations

import numpy as np

from grimdice.engine.grid import DOOR_CLOSED, DOOR_OPEN, FLOOR, WALL, Grid, clear_line


def _walked(grid: Grid, a, b, doors, occupied) -> bool:
    occ = set(occupied) - {a, b}
    return clear_line(a, b, lambda sq: sq in occ or grid.blocks_sight(sq, doors))


def test_kept_lines_answer_as_the_walk_on_random_grids():
    rng = np.random.default_rng(8)
    for _ in range(30):
        w, h = int(rng.integers(3, 12)), int(rng.integers(3, 12))
        kinds = [FLOOR, FLOOR, FLOOR, WALL, DOOR_CLOSED, DOOR_OPEN]
        terrain = tuple(int(t) for t in rng.choice(kinds, w * h))
        grid = Grid(w, h, terrain)
        squares = [(x, y) for y in range(h) for x in range(w)]
        door_squares = [sq for sq in squares if grid.at(sq) in (DOOR_CLOSED, DOOR_OPEN)]
        for _ in range(8):
            doors = {sq: bool(rng.random() < 0.5) for sq in door_squares} if rng.random() < 0.7 else None
            picked = rng.choice(len(squares), int(rng.integers(0, len(squares) // 3 + 1)), replace=False)
            occupied = {squares[k] for k in picked}
            for _ in range(20):
                a = squares[int(rng.integers(len(squares)))]
                b = squares[int(rng.integers(len(squares)))]
                want = _walked(grid, a, b, doors, occupied)
                assert grid.sight(a, b, doors, occupied) == want
                assert grid.sight(a, b, doors, list(occupied)) == want
                assert grid.sight(a, b, doors, dict.fromkeys(occupied, 0)) == want
        assert grid._lines  # kept
