"""``move_kernels.longest_moves`` answers what the NumPy steps it folds answer: each direction's
longest legal length from ``kernels.block_moves``, the move cut to 0.001" (``trunc(x * 1000) /
1000``) and each group's repeats dropped in order (``dict.fromkeys``); and by hand on an empty
table."""

from __future__ import annotations

import math

import numpy as np
import pytest

from grimdice.engine.table import kernels, move_kernels
from grimdice.engine.table.layout import generate_table
from grimdice.engine.table.move_kernels import longest_moves
from grimdice.engine.table.terrain import Table

TOLERANCES = (1e-9, 1e-6, 0.002, 1.0)


def rules(table: Table, others: tuple[np.ndarray, ...]) -> tuple[object, ...]:
    qa, qb, box, _h, _m = table.polygons()
    terrain = ((qa, qb, box), table.having("impassable"), table.having("difficult"))
    return ((table.width, table.depth), terrain, 6.0, others, True, TOLERANCES)


def numpy_moves(block: tuple, ways: tuple, more: tuple) -> list[list[tuple[float, float]]]:
    a, base, anchor, radius = block
    ux, uy, length, fractions, groups = ways
    steps = length[:, None] * fractions[None, :]
    good = kernels.block_moves(a, base, anchor, ux, uy, steps, radius, *more)
    best = steps[np.arange(len(steps)), good.argmax(axis=1)]
    dx = np.trunc(ux * best * 1000) / 1000 + 0.0
    dy = np.trunc(uy * best * 1000) / 1000 + 0.0
    ends = list(zip(dx.tolist(), dy.tolist(), strict=True))
    out, i = [], 0
    for size in groups.tolist():
        out.append(list(dict.fromkeys(ends[w] for w in range(i, i + size) if good[w].any())))
        i += size
    return out


def kernel_moves(block: tuple, ways: tuple, more: tuple) -> list[list[tuple[float, float]]]:
    ends, kept = longest_moves(block, ways, more)
    out, i = [], 0
    for size in ways[4].tolist():
        out.append(
            [
                (float(x), float(y))
                for (x, y), k in zip(ends[i : i + size], kept[i : i + size], strict=True)
                if k
            ]
        )
        i += size
    return out


@pytest.mark.parametrize("seed", range(6))
def test_longest_moves_equal_numpy(seed: int) -> None:
    table = generate_table(seed)
    rng = np.random.default_rng(300 + seed)
    others = units(rng, table)
    offered = dropped = 0
    for _ in range(8):
        n = int(rng.integers(1, 11))
        base = rng.uniform(-2.0, 2.0, size=(n, 2))
        anchor = rng.uniform([4.0, 4.0], [table.width - 4.0, table.depth - 4.0])
        block = (base + anchor, base, (float(anchor[0]), float(anchor[1])), 0.63)
        angles = rng.uniform(0.0, 2 * math.pi, size=12)
        angles[6:] = angles[:6]  # a second group with the same directions, and repeats within one
        angles[3] = angles[2]
        length = rng.uniform(0.3, 12.0, size=12)
        length[3] = length[2]
        groups = np.array([6, 6], dtype=np.int64)
        ways = (np.cos(angles), np.sin(angles), length, np.array([1.0, 0.5, 0.25]), groups)
        want = numpy_moves(block, ways, rules(table, others))
        assert kernel_moves(block, ways, rules(table, others)) == want
        offered += sum(len(g) for g in want)
        dropped += 12 - sum(len(g) for g in want)
    assert offered > 0 and dropped > 0  # some moves are offered, some blocked or repeated


def test_longest_moves_by_hand() -> None:
    """One base of 0.5" at (10, 10) on an empty table 20" square, nobody else: 10" east is off the
    table (the half, 5", is not), 1" at 45 degrees is cut to (0.707, 0.707), a repeat is dropped
    in its group only, and 0.4" (under 0.5") is no move."""
    table = Table(width=20.0, depth=20.0)
    none = (np.zeros((0, 2)), np.zeros(0), np.zeros(1, dtype=np.int64), np.zeros(0, dtype=bool))
    block = (np.array([[10.0, 10.0]]), np.zeros((1, 2)), (10.0, 10.0), 0.5)
    c = math.cos(math.pi / 4)
    ux, uy = np.array([1.0, c, c, 0.0, 1.0]), np.array([0.0, c, c, -1.0, 0.0])
    length = np.array([10.0, 1.0, 1.0, 0.4, 10.0])
    ways = (ux, uy, length, np.array([1.0, 0.5, 0.25]), np.array([4, 1], dtype=np.int64))
    assert kernel_moves(block, ways, rules(table, none)) == [[(5.0, 0.0), (0.707, 0.707)], [(5.0, 0.0)]]


@pytest.mark.parametrize("seed", range(3))
def test_leg_checks_equal_the_separate_tests(seed: int) -> None:
    """One leg's checks answer what the separate passes answer: on the table, the pieces touched
    (``kernels.paths_touch``: none impassable; difficult, dangerous), clear of the other units
    (``kernels.units_clear``), and with no terrain (bases that ignore it) on the table and clear
    with bases passed over."""
    table = generate_table(seed)
    rng = np.random.default_rng(400 + seed)
    size, terrain, _slow, others, _sweeping, tol = rules(table, units(rng, table))
    poly = terrain[0]
    masks = (table.having("impassable"), table.having("difficult"), table.having("dangerous"))
    seen = set()
    for _ in range(150):
        n = int(rng.integers(1, 8))
        base = rng.uniform(-2.0, 2.0, size=(n, 2))
        at = rng.uniform([0.0, 0.0], [table.width, table.depth])
        a, b = base + at, base + at + rng.uniform(-10.0, 10.0, size=2)
        on = bool(table.spans_on_table(b.min(axis=0)[None], b.max(axis=0)[None], 0.63)[0])
        touch = kernels.paths_touch(a[None], b[None], masks[0] | masks[1] | masks[2], 0.63, poly)[0]
        for flying in (False, True):
            clear = kernels.units_clear(a, b[None], 0.63, others, not flying, (1.0, 1e-6, 0.002))[0]
            ok = on and clear and (flying or not touch[masks[0]].any())
            felt = ok and not flying
            want = (ok, felt and touch[masks[1]].any(), felt and touch[masks[2]].any())
            got = move_kernels.leg_checks(a, b, 0.63, size, None if flying else (poly, *masks), others, tol)
            assert tuple(bool(x) for x in got) == tuple(bool(x) for x in want)
            seen.add(want)
    assert (True, False, False) in seen and (False, False, False) in seen


def units(rng: np.random.Generator, table: Table) -> tuple[np.ndarray, ...]:
    """Five units of one to five bases of 0.63" anywhere on ``table``, four in five of them counted."""
    sizes = [int(z) for z in rng.integers(1, 6, size=5)]
    pts = rng.uniform([2.0, 2.0], [table.width - 2.0, table.depth - 2.0], size=(sum(sizes), 2))
    return pts, np.full(len(pts), 0.63), np.cumsum([0, *sizes[:-1]]), rng.random(len(sizes)) < 0.8
