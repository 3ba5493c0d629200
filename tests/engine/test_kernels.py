"""The compiled kernels (``engine/table/kernels.py``) answer exactly what the NumPy arithmetic they
stand for answers, element by element, on generated tables and random moves and lines: the NumPy
references below are the vectorised formulas (``terrain.crossing``, ``Table.inside``/``pieces_at``,
``sweeps.sweeps_meet_bases``, the paths near edges and the gaps at the end written out here), so a
game is the same either way."""

from __future__ import annotations

import numpy as np
import pytest

from grimdice.engine.table import kernels
from grimdice.engine.table.bases import base_distances
from grimdice.engine.table.blocks import blocks_touch
from grimdice.engine.table.layout import generate_table
from grimdice.engine.table.lines import sight_blocked, sight_terrain
from grimdice.engine.table.sweeps import _square_point_segment, sweeps_meet_bases, sweeps_touch_any
from grimdice.engine.table.terrain import Table, Terrain, crossing, segments_cross

SEEDS = range(6)


def paths_near_edges(
    s: np.ndarray, e: np.ndarray, qa: np.ndarray, qb: np.ndarray, radius: float
) -> np.ndarray:
    """Whether each path ``s``-``e`` (``(..., 1, 2)``) comes closer than ``radius`` to one of the
    edges ``qa``-``qb`` (``(..., E, 2)``): a crossing, a path end near an edge or a corner near the
    path, compared squared, reduced over the edges."""
    sx, sy, ex, ey = s[..., 0], s[..., 1], e[..., 0], e[..., 1]
    ax, ay, bx, by = qa[..., 0], qa[..., 1], qb[..., 0], qb[..., 1]
    cross = crossing(sx, sy, ex - sx, ey - sy, ax, ay, bx - ax, by - ay).any(axis=-1)
    near = np.minimum(
        np.minimum(
            _square_point_segment(sx, sy, ax, ay, bx, by), _square_point_segment(ex, ey, ax, ay, bx, by)
        ),
        _square_point_segment(ax, ay, sx, sy, ex, ey),
    ).min(axis=-1)
    r = max(radius - 1e-9, 0.0)
    return np.asarray(cross | (near < r * r))


def blocks_within(
    bs: np.ndarray, radius: float, pts: np.ndarray, radii: np.ndarray, limit: np.ndarray
) -> np.ndarray:
    """``(C,)``: whether the block at each candidate comes closer than ``limit[j]`` to some base
    ``j`` (signed base-to-base gaps)."""
    dx = bs[:, :, None, 0] - pts[None, None, :, 0]
    dy = bs[:, :, None, 1] - pts[None, None, :, 1]
    gap = np.sqrt(dx * dx + dy * dy) - radius - radii[None, None, :]
    return np.asarray((gap < limit[None, None, :]).any(axis=(1, 2)))


def numpy_blocks_touch(
    table: Table, a: np.ndarray, bs: np.ndarray, keep: np.ndarray, radius: float
) -> np.ndarray:
    """``blocks_touch`` in NumPy: box filter, then paths near edges or ends inside, pair by pair."""
    qa, qb, box, _h, _m = table.polygons()
    out = np.zeros((len(bs), len(box)), dtype=bool)
    lo = np.minimum(a.min(axis=0)[None, :], bs.min(axis=1)) - radius
    hi = np.maximum(a.max(axis=0)[None, :], bs.max(axis=1)) + radius
    miss = (
        (box[None, :, 2] < lo[:, None, 0])
        | (box[None, :, 3] < lo[:, None, 1])
        | (box[None, :, 0] > hi[:, None, 0])
        | (box[None, :, 1] > hi[:, None, 1])
    )
    cc, pp = np.nonzero(keep[None, :] & ~miss)
    if len(cc):
        ends = bs[cc]
        starts = np.broadcast_to(a[None], ends.shape)
        hit = paths_near_edges(starts[:, :, None], ends[:, :, None], qa[pp][:, None], qb[pp][:, None], radius)
        out[cc, pp] = hit.any(axis=1) | table.inside(np.concatenate([ends, starts], axis=1), pp).any(axis=1)
    return out


def numpy_sight_blocked(table: Table, s: np.ndarray, e: np.ndarray) -> np.ndarray:
    """``sight_blocked`` in NumPy: crossings counted per piece, twice needed from or into a piece."""
    edges, _ = table.edges_with("blocks_sight")
    out = np.zeros(len(s), dtype=bool)
    if not len(edges):
        return out
    cross = segments_cross(s, e, edges)
    pieces, first = table.edge_runs("blocks_sight")
    hits = np.add.reduceat(cross, first, axis=1, dtype=np.int64)
    keep = table.having("blocks_sight")
    inside = (table.pieces_at(s, keep=keep) | table.pieces_at(e, keep=keep))[:, pieces]
    return np.asarray((np.where(inside, hits >= 2, hits >= 1) & (hits > 0)).any(axis=1))


def numpy_screened(
    s: np.ndarray, e: np.ndarray, pts: np.ndarray, radii: np.ndarray, eps: float
) -> np.ndarray:
    """Whether each segment passes through a base, in NumPy: the closest point of each segment to
    each centre."""
    a, v = s[:, None, :], (e - s)[:, None, :]
    w = pts[None, :, :] - a
    vv = (v * v).sum(axis=2)
    with np.errstate(invalid="ignore", divide="ignore"):
        f = np.where(vv > eps * eps, (w * v).sum(axis=2) / vv, 0.0)
    f = np.clip(f, 0.0, 1.0)
    gap = np.hypot(*(w - f[:, :, None] * v).transpose(2, 0, 1))
    return np.asarray((gap < radii[None, :] - eps).any(axis=1))


def block_moves(rng: np.random.Generator, table: Table, n: int, c: int) -> tuple[np.ndarray, np.ndarray]:
    """A block of ``n`` models somewhere on ``table`` and ``c`` candidate ends up to 14" away (some 0)."""
    base = rng.uniform(-2.0, 2.0, size=(n, 2))
    at = rng.uniform([4.0, 4.0], [table.width - 4.0, table.depth - 4.0])
    moves = rng.uniform(-14.0, 14.0, size=(c, 2))
    moves[0] = 0.0
    return base + at, base[None] + (at + moves)[:, None, :]


@pytest.mark.parametrize("seed", SEEDS)
def test_blocks_touch_equals_numpy(seed: int) -> None:
    table = generate_table(seed)
    rng = np.random.default_rng(seed)
    keep = table.having("impassable", "difficult", "dangerous")
    seen = 0
    for radius in (0.5, 0.63, 1.18):
        a, bs = block_moves(rng, table, int(rng.integers(1, 11)), 60)
        got = blocks_touch(table, a, bs, keep, radius)
        want = numpy_blocks_touch(table, a, bs, keep, radius)
        assert got.dtype == bool and np.array_equal(got, want)
        seen += int(want.sum())
    assert seen > 0 or not keep.any()  # some moves do touch terrain


def test_blocks_touch_on_a_square_by_hand() -> None:
    table = Table(
        terrain=(
            Terrain(
                "rock",
                np.array([[10.0, 10.0], [14.0, 10.0], [14.0, 14.0], [10.0, 14.0]]),
                frozenset({"impassable"}),
            ),
        )
    )
    a = np.array([[5.0, 12.0]])
    ends = np.array([[[9.4, 12.0]], [[9.6, 12.0]], [[20.0, 12.0]], [[5.0, 15.0]], [[12.0, 15.0]]])
    got = blocks_touch(table, a, ends, table.having("impassable"), 0.5)[:, 0]
    # the base (0.5") stops 0.6" short, 0.4" short, passes through, moves away, ends 1" above the top
    # edge but passes 0.13" from the corner (10, 14) on the way
    assert got.tolist() == [False, True, True, False, True]


def numpy_units_clear(
    a: np.ndarray,
    bs: np.ndarray,
    r: float,
    pts: np.ndarray,
    radii: np.ndarray,
    sizes: list[int],
    among: np.ndarray,
) -> np.ndarray:
    """``kernels.units_clear`` (1" kept, sweeping) in NumPy: signed gaps before the move, the units a
    move of its length can reach, the end no nearer than 1" (or than before), no base passed over."""
    starts = np.cumsum([0, *sizes[:-1]])
    before = np.minimum.reduceat(base_distances(a, r, pts, radii, signed=True).min(axis=0), starts)
    reach = float(np.sqrt(((bs[:, 0] - a[0]) ** 2).sum(axis=1)).max()) + 1.0 + 0.001
    near = (before < reach) & among
    rows = np.repeat(near, sizes)
    limit = np.repeat(np.minimum(1.0, before) - 1e-6, sizes)[rows]
    ok = ~blocks_within(bs, r, pts[rows], radii[rows], limit)
    sweep = np.repeat(near & (before >= -0.002), sizes)
    starts_b = np.broadcast_to(a[None], bs.shape)
    return ok & ~sweeps_meet_bases(starts_b, bs, r, pts[sweep], radii[sweep]).any(axis=(1, 2))


@pytest.mark.parametrize("seed", SEEDS)
def test_units_clear_equals_numpy(seed: int) -> None:
    rng = np.random.default_rng(100 + seed)
    kept = []
    for _ in range(4):
        a, bs = block_moves(rng, Table(), int(rng.integers(1, 6)), 80)
        sizes = [int(z) for z in rng.integers(1, 6, size=int(rng.integers(1, 8)))]
        centres = a.mean(axis=0) + rng.uniform(-12.0, 12.0, size=(len(sizes), 2))
        pts = np.repeat(centres, sizes, axis=0) + rng.uniform(-1.5, 1.5, size=(sum(sizes), 2))
        radii = np.repeat(rng.choice([0.5, 0.63, 1.18], size=len(sizes)), sizes)
        among = rng.random(len(sizes)) < 0.8
        starts = np.cumsum([0, *sizes[:-1]])
        got = kernels.units_clear(a, bs, 0.63, (pts, radii, starts, among), True, (1.0, 1e-6, 0.002))
        want = numpy_units_clear(a, bs, 0.63, pts, radii, sizes, among)
        assert np.array_equal(got, want)
        kept += want.tolist()
    assert 0 < sum(kept) < len(kept)


def test_units_clear_by_hand() -> None:
    """A base of 0.5" at (0, 0) and one unit of a base of 0.5" at (3, 0): 2" apart."""
    a = np.array([[0.0, 0.0]])
    ends = np.array([[[0.9, 0.0]], [[1.1, 0.0]], [[6.0, 0.0]], [[0.0, 5.0]], [[-1.0, 0.0]]])
    pts, radii, starts, among = np.array([[3.0, 0.0]]), np.array([0.5]), np.array([0]), np.array([True])
    got = kernels.units_clear(a, ends, 0.5, (pts, radii, starts, among), True, (1.0, 1e-6, 0.002))
    # ends 1.1" away, 0.9" away, passes through it, moves aside, moves away
    assert got.tolist() == [True, False, False, True, True]
    flying = kernels.units_clear(a, ends, 0.5, (pts, radii, starts, among), False, (1.0, 1e-6, 0.002))
    assert flying.tolist() == [True, False, True, True, True]  # over it, ending 1.5" beyond


@pytest.mark.parametrize("seed", SEEDS)
def test_lines_equal_numpy(seed: int) -> None:
    table = generate_table(seed)
    rng = np.random.default_rng(200 + seed)
    s = rng.uniform([0.0, 0.0], [table.width, table.depth], size=(400, 2))
    e = rng.uniform([0.0, 0.0], [table.width, table.depth], size=(400, 2))
    # lines from and to the corners of the pieces themselves, where the tolerances decide
    corners = np.concatenate([t.corners for t in table.terrain])
    s[:50] = corners[rng.integers(len(corners), size=50)]
    assert np.array_equal(sight_blocked(table, s, e), numpy_sight_blocked(table, s, e))


def numpy_pair_lines(
    a: np.ndarray, ra: float, b: np.ndarray, rb: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """``sweeps.pair_lines`` in NumPy: centres and side points 0.95 of the radius out."""
    v = b - a
    n = np.sqrt((v * v).sum(axis=1, keepdims=True))
    u = np.divide(v, n, out=np.zeros_like(v), where=n > 0)
    side = np.stack([-u[:, 1], u[:, 0]], axis=1)
    offs = np.array([0.0, 0.95, -0.95])
    pa = a[:, None, :] + offs[None, :, None] * side[:, None, :] * ra
    pb = b[:, None, :] + offs[None, :, None] * side[:, None, :] * rb[:, None, None]
    return np.repeat(pa, 3, axis=1), np.tile(pb, (1, 3, 1))


def numpy_pairs_see(
    table: Table, a: np.ndarray, ra: float, b: np.ndarray, rb: np.ndarray, pts: np.ndarray, radii: np.ndarray
) -> tuple[np.ndarray, bool]:
    """``sweeps.pairs_see`` with screening bases in NumPy: the centre line or any of the other eight
    open of terrain and of every screening base; whether any line passes through one."""
    st, en = numpy_pair_lines(a, ra, b, rb)
    flat_s, flat_e = st.reshape(-1, 2), en.reshape(-1, 2)
    screened = bool(len(pts)) and bool(numpy_screened(flat_s, flat_e, pts, radii, 1e-6).any())

    def blocked(x: np.ndarray, y: np.ndarray) -> np.ndarray:
        shade = numpy_screened(x, y, pts, radii, 1e-6) if len(pts) else np.zeros(len(x), dtype=bool)
        return np.asarray(shade | numpy_sight_blocked(table, x, y))

    ok = ~blocked(a, b)
    rows = np.flatnonzero(~ok)
    if len(rows):
        clear = ~blocked(st[rows, 1:].reshape(-1, 2), en[rows, 1:].reshape(-1, 2))
        ok[rows] = clear.reshape(len(rows), 8).any(axis=1)
    return ok, screened


@pytest.mark.parametrize("seed", SEEDS)
def test_pairs_see_equals_numpy(seed: int) -> None:
    table = generate_table(seed)
    rng = np.random.default_rng(300 + seed)
    seen, screened_calls = [], 0
    for _ in range(8):
        at = rng.uniform([6.0, 6.0], [table.width - 6.0, table.depth - 6.0])
        a = at + rng.uniform(-3.0, 3.0, size=(30, 2))
        b = at + rng.uniform(-20.0, 20.0, size=(30, 2))
        rb = rng.choice([0.5, 0.63, 1.18], size=30)
        pts = at + rng.uniform(-15.0, 15.0, size=(12, 2))
        radii = rng.choice([0.5, 0.63, 1.18], size=12)
        owner = rng.integers(0, 4, size=12)
        ok = kernels.pairs_see(a, 0.63, b, rb, 0.95, sight_terrain(table), (pts, radii, owner), 0, 1, 1e-6)
        mine = (owner != 0) & (owner != 1)
        want, want_screened = numpy_pairs_see(table, a, 0.63, b, rb, pts[mine], radii[mine])
        assert np.array_equal(ok, want)
        lines = kernels.pair_lines(a, 0.63, b, rb, 0.95)
        st, en = numpy_pair_lines(a, 0.63, b, rb)
        assert np.array_equal(lines[:, :, :2], st) and np.array_equal(lines[:, :, 2:], en)
        seen += want.tolist()
        screened_calls += want_screened
    assert 0 < sum(seen) < len(seen) and screened_calls > 0


@pytest.mark.parametrize("seed", SEEDS)
def test_sweeps_meet_any_equals_numpy(seed: int) -> None:
    """The compiled reduction (``path_kernels.sweeps_meet_any``) equals ``sweeps_meet_bases`` reduced
    over the bases, on random moves near random bases, grazing ones included (ends placed at
    exactly the contact distance, zero-length moves)."""
    from grimdice.engine.table.sweeps import sweeps_meet_any

    rng = np.random.default_rng(300 + seed)
    pts = rng.uniform(0.0, 20.0, size=(12, 2))
    radii = rng.choice([0.5, 0.63, 1.18], size=12)
    starts = rng.uniform(0.0, 20.0, size=(400, 2))
    ends = starts + rng.uniform(-8.0, 8.0, size=(400, 2))
    ends[:50] = starts[:50]  # bases that do not move
    ang = rng.uniform(0.0, 2 * np.pi, size=50)
    ring = np.stack([np.cos(ang), np.sin(ang)], axis=1)
    ends[50:100] = pts[rng.integers(12, size=50)] + (0.63 + 0.63) * ring
    for radius in (0.5, 0.63):
        want = sweeps_meet_bases(starts, ends, radius, pts, radii).any(axis=1)
        got = sweeps_meet_any(starts, ends, radius, pts, radii)
        assert np.array_equal(got, want) and 0 < want.sum() < len(want)
        assert not sweeps_meet_any(starts, ends, radius, pts[:0], radii[:0]).any()


@pytest.mark.parametrize("seed", SEEDS)
def test_nearest_gaps_equals_numpy(seed: int) -> None:
    """``path_kernels.nearest_gaps`` equals ``base_distances(..., signed=True).min(axis=1)`` element
    for element, overlapping bases included; infinity when there is no other base."""
    from grimdice.engine.table import path_kernels

    rng = np.random.default_rng(400 + seed)
    a = rng.uniform(0.0, 10.0, size=(60, 2))
    b = rng.uniform(0.0, 10.0, size=(15, 2))
    rb = rng.choice([0.5, 0.63, 1.18], size=15)
    want = base_distances(a, 0.63, b, rb, signed=True).min(axis=1)
    got = path_kernels.nearest_gaps(a, 0.63, b, rb)
    assert np.array_equal(got, want) and (want < 0).any()
    assert np.isinf(path_kernels.nearest_gaps(a, 0.63, b[:0], rb[:0])).all()


@pytest.mark.parametrize("seed", SEEDS)
def test_blocks_gaps_equals_numpy(seed: int) -> None:
    """``path_kernels.blocks_gaps`` equals ``pair_distances`` (``base_distances``' arithmetic)
    reduced to each group's closest gap (``np.minimum.reduceat``) element for element, touching
    and overlapping bases included (clipped at 0)."""
    from grimdice.engine.table import path_kernels
    from grimdice.engine.table.blocks import pair_distances

    rng = np.random.default_rng(500 + seed)
    bs = rng.uniform(0.0, 10.0, size=(9, 7, 2))
    b = rng.uniform(0.0, 30.0, size=(40, 2))
    b[:3] = bs[0, :3] + np.array([1.26, 0.0])  # bases exactly in contact (radii 0.63 each)
    rb = rng.choice([0.5, 0.63, 1.18], size=40)
    rb[:3] = 0.63
    starts = np.array([0, 3, 10, 11, 25])
    want = np.minimum.reduceat(pair_distances(bs, 0.63, b, rb).min(axis=1), starts, axis=1)
    got = path_kernels.blocks_gaps(bs, 0.63, b, rb, starts)
    assert np.array_equal(got, want) and (want == 0).any() and (want > 0).any()
    one = np.minimum.reduceat(base_distances(bs[0], 0.63, b, rb).min(axis=0), starts)
    assert np.array_equal(path_kernels.blocks_gaps(bs[:1], 0.63, b, rb, starts)[0], one)


@pytest.mark.parametrize("seed", SEEDS)
def test_blocks_clear_equals_numpy(seed: int) -> None:
    """``path_kernels.blocks_clear`` equals the gaps of ``pair_distances`` reduced per group and held
    to the limits (deployment's 1" from every unit, over 12" from enemy units), for groups near
    and far (those whose boxes stand out of reach are not measured base by base), bases exactly
    1" and exactly 12" away included."""
    from grimdice.engine.table import path_kernels
    from grimdice.engine.table.blocks import pair_distances

    rng = np.random.default_rng(700 + seed)
    bs = rng.uniform(0.0, 60.0, size=(60, 1, 2)) + rng.uniform(0.0, 3.0, size=(60, 6, 2))
    sizes = [int(z) for z in rng.integers(1, 8, size=6)]
    centres = rng.uniform(0.0, 60.0, size=(len(sizes), 2))
    b = np.repeat(centres, sizes, axis=0) + rng.uniform(-2.0, 2.0, size=(sum(sizes), 2))
    rb = rng.choice([0.5, 0.63, 1.18], size=len(b))
    b[0], rb[0] = bs[0, 0] + np.array([0.63 + 1.0 + rb[0], 0.0]), rb[0]  # exactly 1" from block 0
    b[-1] = bs[1, 0] + np.array([0.0, 0.63 + 12.0 + rb[-1]])  # exactly 12" from block 1
    starts = np.cumsum([0, *sizes[:-1]])
    far = rng.random(len(sizes)) < 0.3
    limits = (1.0 - 1e-6, 12.0 + 1e-6)
    gaps = np.minimum.reduceat(pair_distances(bs, 0.63, b, rb).min(axis=1), starts, axis=1)
    want = ~((gaps < limits[0]) | (far[None, :] & (gaps <= limits[1]))).any(axis=1)
    got = path_kernels.blocks_clear(bs, 0.63, b, rb, starts, far, limits)
    assert np.array_equal(got, want) and want.any() and not want.all()


@pytest.mark.parametrize("seed", SEEDS)
def test_sweeps_touch_equals_paths_touch(seed: int) -> None:
    """``path_kernels.sweeps_touch`` (one path at a time) equals ``kernels.paths_touch`` with one
    path per group (and ``sweeps.sweeps_touch_any`` its reduction over the pieces), on a generated
    table: bases standing still (start = end), moves across the table, and bases placed exactly at
    a piece's corner distance (grazing)."""
    from grimdice.engine.table import kernels, path_kernels
    from grimdice.engine.table.layout import generate_table

    table = generate_table(600 + seed)
    qa, qb, box, _h, _m = table.polygons()
    rng = np.random.default_rng(600 + seed)
    starts = rng.uniform([0.0, 0.0], [72.0, 48.0], size=(500, 2))
    ends = starts + rng.uniform(-10.0, 10.0, size=(500, 2))
    ends[:150] = starts[:150]  # bases that do not move
    corners = qa.reshape(-1, 2)
    starts[150:200] = corners[rng.integers(len(corners), size=50)] + [0.63, 0.0]  # grazing a corner
    touched = []
    for keep in (np.ones(len(box), dtype=bool), table.having("impassable", "dangerous")):
        for radius in (0.63, 1.18):
            want = kernels.paths_touch(starts[:, None, :], ends[:, None, :], keep, radius, (qa, qb, box))
            got = path_kernels.sweeps_touch(starts, ends, radius, keep, (qa, qb, box))
            assert np.array_equal(got, want)
            assert np.array_equal(sweeps_touch_any(table, starts, ends, radius, keep), want.any(axis=1))
            touched.append(want[:150].any() and want[150:].any() and not want.all())
    assert touched[0] and touched[1]  # all pieces: standing and moving bases touch some, not all


@pytest.mark.parametrize("seed", SEEDS)
def test_groups_touch_equals_paths_touch_reduced(seed: int) -> None:
    """``path_kernels.groups_touch`` (each group stopping at its first piece) equals
    ``kernels.paths_touch`` reduced over the pieces kept, on generated tables: groups that move,
    groups that stand still, and one group moved on from another's end."""
    from grimdice.engine.table import path_kernels

    table = generate_table(700 + seed)
    qa, qb, box, _h, _m = table.polygons()
    rng = np.random.default_rng(700 + seed)
    seen = []
    for n, radius in ((1, 0.63), (5, 0.5), (10, 1.18)):
        a, bs = block_moves(rng, table, n, 80)
        starts = np.repeat(a[None], len(bs), axis=0)
        starts[40:] = bs[:40]  # from where other groups ended
        starts[:10] = bs[:10]  # standing still
        for keep in (
            table.having("impassable"),
            table.having("dangerous", "difficult"),
            np.ones(len(box), bool),
        ):
            want = kernels.paths_touch(starts, bs, keep, radius, (qa, qb, box))[:, keep].any(axis=1)
            got = path_kernels.groups_touch(starts, bs, radius, (qa, qb, box), keep)
            assert got.dtype == bool and np.array_equal(got, want)
            seen.append(int(want.sum()))
    assert max(seen) > 0 and min(seen) < 80  # some groups touch, some do not


@pytest.mark.parametrize("seed", SEEDS)
def test_ground_heights_equal_height_at(seed: int) -> None:
    """``path_kernels.ground_heights`` equals ``Table.height_at`` on generated tables (hills among
    the pieces) and on a table with overlapping-free raised pieces of several heights: points
    spread over the table, on piece corners and edges."""
    from grimdice.engine.table import path_kernels

    tables = [generate_table(800 + seed)]
    tables.append(
        Table(
            72.0,
            48.0,
            (
                Terrain("low", np.array([[10.0, 10.0], [20.0, 10.0], [20.0, 20.0], [10, 20]]), height=2.0),
                Terrain("high", np.array([[30.0, 5.0], [40.0, 12.0], [33.0, 25.0]]), height=5.5),
                Terrain("flat", np.array([[50.0, 30.0], [60.0, 30.0], [60.0, 40.0]])),
            ),
        )
    )
    rng = np.random.default_rng(800 + seed)
    raised = 0
    for table in tables:
        qa, qb, box, heights, _m = table.polygons()
        pts = np.concatenate([rng.uniform([0.0, 0.0], [72.0, 48.0], size=(400, 2)), qa.reshape(-1, 2)])
        want = table.height_at(pts)
        got = path_kernels.ground_heights(pts, (qa, qb, box), heights)
        assert np.array_equal(got, want)
        raised += int((want > 0).sum())
    assert raised > 10
