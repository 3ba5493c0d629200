"""Whole bases on the table: swept moves, bases over terrain, sight between bases, cover; shapely's
exact distances are the oracle for the NumPy kernels."""

import numpy as np
import shapely

from grimdice.engine.table.layout import generate_table, table_from_mapping
from grimdice.engine.table.sweeps import (
    bases_in,
    capsule,
    cover_lines,
    covered_models,
    pairs_see,
    segment_distances,
    sweeps_meet_bases,
    sweeps_touch_pieces,
)

ROCK = {"name": "rock", "rect": [30, 20, 4, 4], "traits": ["impassable", "blocks_sight"]}
WALL = {"name": "wall", "rect": [20, 0, 1, 40], "traits": ["blocks_sight"]}
WOOD = {"name": "wood", "rect": [10, 10, 6, 6], "traits": ["cover", "difficult"]}


def test_segment_distances_equal_shapely_s():
    rng = np.random.default_rng(1)
    a, b, c, d = (rng.uniform(0, 10, (300, 2)) for _ in range(4))
    got = segment_distances(a, b, c, d)
    lines = [shapely.LineString([p, q]) for p, q in zip(a, b, strict=True)]
    want = [x.distance(shapely.LineString([r, s])) for x, r, s in zip(lines, c, d, strict=True)]
    assert np.allclose(got, want, atol=1e-9)


def test_a_swept_base_meets_exactly_the_bases_its_capsule_overlaps():
    rng = np.random.default_rng(2)
    s, e = rng.uniform(0, 20, (200, 2)), rng.uniform(0, 20, (200, 2))
    pts, radii = rng.uniform(0, 20, (30, 2)), rng.uniform(0.3, 1.5, 30)
    got = sweeps_meet_bases(s, e, 0.63, pts, radii, slack=0.0)
    for i in range(len(s)):
        line = shapely.LineString([s[i], e[i]])
        d = np.array([line.distance(shapely.Point(p)) for p in pts])
        sure = np.abs(d - (0.63 + radii)) > 1e-7
        assert (got[i][sure] == (d < 0.63 + radii)[sure]).all()


def test_a_base_passing_between_two_bases_with_room_is_clear_and_through_one_is_not():
    pts, radii = np.array([[5.0, 0.0], [5.0, 3.0]]), np.array([0.5, 0.5])
    # a 1" base along y = 1.5: 1.5" from each centre, 0.5 + 0.5 = 1" needed
    assert not sweeps_meet_bases(np.array([0.0, 1.5]), np.array([10.0, 1.5]), 0.5, pts, radii).any()
    low = sweeps_meet_bases(np.array([0.0, 0.8]), np.array([10.0, 0.8]), 0.5, pts, radii)
    assert low.tolist() == [True, False]
    # ending short of the base, or starting past it, is clear: only the path between counts
    assert not sweeps_meet_bases(np.array([0.0, 0.0]), np.array([3.9, 0.0]), 0.5, pts, radii).any()


def test_a_swept_base_touches_exactly_the_pieces_shapely_finds():
    table = generate_table(5)
    rng = np.random.default_rng(3)
    s, e = rng.uniform(0, [72, 48], (300, 2)), rng.uniform(0, [72, 48], (300, 2))
    e = s + (e - s) * 0.2
    got = sweeps_touch_pieces(table, s, e, 0.63)
    for i in range(len(s)):
        line = shapely.LineString([s[i], e[i]])
        for j, piece in enumerate(table.terrain):
            d = line.distance(piece.polygon)
            if abs(d - 0.63) > 1e-7:
                assert got[i, j] == (d < 0.63), (i, j, d)


def test_a_big_base_whose_centre_is_outside_rock_still_stands_on_it():
    table = table_from_mapping({"terrain": [ROCK]})
    big = 60 / 25.4 / 2  # a 60 mm base: radius 1.18"
    centre = np.array([[29.0, 22.0]])  # 1" left of the rock
    assert not table.pieces_at(centre, "impassable").any()  # the centre alone misses it
    assert bases_in(table, centre, big, "impassable").tolist() == [True]
    assert bases_in(table, centre, 0.5, "impassable").tolist() == [False]
    assert table.touching(capsule((29.0, 22.0), (29.0, 22.0), big), "impassable") == [0]
    assert table.touching(capsule((29.0, 22.0), (29.0, 22.0), 0.5), "impassable") == []


def test_capsule_area_is_a_rectangle_and_a_disc():
    c = capsule((0.0, 0.0), (10.0, 0.0), 1.0)
    assert abs(c.area - (20 + np.pi)) < 0.05


def test_sight_from_any_part_of_the_base_sees_around_a_corner_the_centre_line_misses():
    pillar = {"name": "pillar", "rect": [20, 9.8, 2, 0.4], "traits": ["blocks_sight"]}
    table = table_from_mapping({"terrain": [pillar]})
    a, b = np.array([[10.0, 10.0]]), np.array([[30.0, 10.0]])
    from grimdice.engine.table.lines import sight_blocked

    assert sight_blocked(table, a, b).all()  # centre to centre is blocked
    r = np.array([0.63])
    assert pairs_see(table, a, 0.63, b, r).tolist() == [True]  # the rims see past the pillar
    wall = table_from_mapping({"terrain": [WALL]})
    assert pairs_see(wall, a, 0.63, b, r).tolist() == [False]


def test_cover_comes_from_the_piece_between_or_around_the_target_never_the_shooter_s_own():
    table = table_from_mapping({"terrain": [WOOD]})
    in_wood = np.array([[13.0, 13.0]])
    beyond = np.array([[30.0, 13.0]])
    behind = np.array([[5.0, 13.0]])  # the wood lies between the shooter beyond and this target
    assert covered_models(table, in_wood, beyond).tolist() == [False]  # the shooter's own piece
    assert covered_models(table, beyond, behind).tolist() == [True]
    assert covered_models(table, beyond, in_wood).tolist() == [True]  # within the piece
    assert covered_models(table, beyond, np.array([[30.0, 30.0]])).tolist() == [False]


def test_cover_lines_equal_shapely_s_reading_of_within_or_behind():
    table = next(t for t in map(generate_table, range(40)) if sum(p.has("cover") for p in t.terrain) >= 4)
    rng = np.random.default_rng(8)
    s, e = rng.uniform(0, [72, 48], (400, 2)), rng.uniform(0, [72, 48], (400, 2))
    got = cover_lines(table, s, e)
    want = []
    for a, b in zip(s, e, strict=True):
        line = shapely.LineString([a, b])
        covered = False
        for piece in table.terrain:
            if not piece.has("cover"):
                continue
            poly = piece.polygon
            within = poly.contains(shapely.Point(b))
            behind = line.intersects(poly.exterior) and not poly.contains(shapely.Point(a))
            covered |= within or behind
        want.append(covered)
    assert got.tolist() == want and 0 < sum(want) < len(want)


def test_a_file_of_equal_bases_hides_what_is_behind_it():
    """Lines from just inside the rim: an equal base between two others blocks every line (the lines
    from the very edge would only graze it)."""
    from grimdice.engine.table.sweeps import pair_lines

    a, b, mid = np.array([[10.0, 10.0]]), np.array([[20.0, 10.0]]), np.array([[15.0, 10.0]])
    st, en = pair_lines(a, 0.63, b, np.array([0.63]))
    assert st.shape == (1, 9, 2) and (st[0, 0] == a[0]).all() and (en[0, 0] == b[0]).all()
    lines = [shapely.LineString([p, q]) for p, q in zip(st[0], en[0], strict=True)]
    assert all(line.distance(shapely.Point(mid[0])) < 0.63 for line in lines)
