"""The game table: terrain checks, line of sight, movement through terrain, distances, coherency."""

import numpy as np
import pytest

from grimdice.engine.table.bases import base_distances, coherent
from grimdice.engine.table.layout import generate_table, mirror_pairs, table_from_mapping, table_to_mapping
from grimdice.engine.table.lines import path_blocked, sight_blocked
from grimdice.engine.table.terrain import Table, Terrain
from grimdice.errors import ScenarioError

WALL = {"name": "wall", "rect": [30, 20, 2, 8], "traits": ["blocks_sight", "impassable"]}
WOOD = {"name": "wood", "rect": [10, 10, 6, 6], "traits": ["cover", "difficult"]}


def table(*pieces):
    return table_from_mapping({"terrain": list(pieces)})


def test_line_of_sight_is_blocked_only_by_a_solid_obstacle_between():
    t = table(WALL, WOOD)
    starts = np.array([[20, 24], [20, 24], [20, 35], [12, 12]])
    ends = np.array([[40, 24], [40, 30], [40, 35], [14, 14]])
    # through the wall; through the wall diagonally; above it; inside a wood (not solid)
    assert sight_blocked(t, starts, ends).tolist() == [True, True, False, False]


def test_a_model_inside_a_ruin_sees_out_but_not_through_it():
    ruin = {"name": "ruin", "rect": [30, 20, 4, 8], "traits": ["blocks_sight"]}
    t = table(ruin)
    assert not sight_blocked(t, np.array([[31, 24]]), np.array([[50, 24]]))[0]
    assert sight_blocked(t, np.array([[20, 24]]), np.array([[50, 24]]))[0]


def test_moves_through_terrain_by_trait():
    t = table(WALL, WOOD)
    s, e = np.array([[20, 24], [5, 13], [0, 0]]), np.array([[40, 24], [8, 13], [5, 5]])
    assert path_blocked(t, s, e, "impassable").tolist() == [True, False, False]
    assert path_blocked(t, np.array([[5, 13]]), np.array([[12, 13]]), "difficult")[0]
    assert not path_blocked(t, s, e, "dangerous").any()


def test_distances_are_between_closest_points_of_bases():
    a = np.array([[0.0, 0.0]])
    b = np.array([[3.0, 4.0], [0.5, 0.0]])
    d = base_distances(a, np.array([0.5]), b, np.array([0.5, 0.5]))
    assert d.tolist() == [[4.0, 0.0]]


def test_coherency_one_inch_chain_and_twelve_inch_span():
    r = np.full(3, 0.5)
    assert coherent(np.array([[0, 0], [1.9, 0], [3.8, 0]]), r)  # gaps of 0.9"
    assert not coherent(np.array([[0, 0], [1.9, 0], [5.0, 0]]), r)  # last one 2.1" away
    chain = np.array([[2.0 * i, 0.0] for i in range(8)])  # linked, but 13" end to end
    assert not coherent(chain, np.full(8, 0.5))
    assert coherent(np.array([[0, 0]]), np.array([0.5]))


@pytest.mark.parametrize(
    "data, field, words",
    [
        ({"terrain": [{"name": "x", "rect": [70, 40, 5, 5]}]}, "table.terrain.0.shape", "off the table"),
        (
            {"terrain": [WALL, {**WALL, "name": "w2", "rect": [31, 21, 2, 2]}]},
            "table.terrain.1.shape",
            "overlaps",
        ),
        (
            {"terrain": [{"name": "x", "rect": [1, 1, 2, 2], "traits": ["lava"]}]},
            "table.terrain.0.traits",
            "allowed",
        ),
        ({"terrain": [{"name": "x", "shape": [[0, 0], [1, 1]]}]}, "table.terrain.0.shape", "at least 3"),
        ({"terrain": [{"name": "x"}]}, "table.terrain.0", "exactly one of"),
        ({"terrain": [{"name": "x", "rect": [1, 1, "a", 2]}]}, "table.terrain.0.rect", "4 numbers"),
        ({"width": True}, "table.width", "number"),
        ({"depth": 10_000}, "table", "6 to 240"),
        ({"colour": "green"}, "table.colour", "unknown field"),
    ],
)
def test_bad_tables_get_one_clear_error(data, field, words):
    with pytest.raises(ScenarioError) as e:
        table_from_mapping(data)
    assert e.value.field == field and words in e.value.message


def test_generated_tables_are_seeded_balanced_and_valid():
    a, b = generate_table(5), generate_table(5)
    assert table_to_mapping(a) == table_to_mapping(b)
    assert table_to_mapping(generate_table(6)) != table_to_mapping(a)
    assert len(a.terrain) == 12
    assert len(list(mirror_pairs(a))) >= 6  # every piece has its mirror image
    again = table_from_mapping(table_to_mapping(a))  # the YAML form round-trips (and re-validates)
    assert len(again.terrain) == 12


def test_height_under_a_point():
    hill = Terrain("hill", np.array([[0, 0], [10, 0], [10, 10], [0, 10]]), frozenset(), 3.0)
    t = Table(terrain=(hill,))
    assert t.height_at(np.array([[5, 5], [20, 20]])).tolist() == [3.0, 0.0]


def test_generated_pieces_are_the_pieces_their_checks_would_make():
    """``generate_table`` builds its rectangles without Terrain's checks (``checked_piece``): each
    piece equals the one ``Terrain`` builds from the same values with its checks, and the table
    passes ``Table``'s checks (no piece off the table nor overlapping another), over many seeds."""
    for seed in range(300):
        table = generate_table(seed)
        again = Table(
            table.width,
            table.depth,
            tuple(Terrain(t.name, t.corners.copy(), t.traits, t.height) for t in table.terrain),
        )
        for got, want in zip(table.terrain, again.terrain, strict=True):
            assert got.bounds == want.bounds and got.traits == want.traits and got.height == want.height
            assert got.corners.dtype == want.corners.dtype and np.array_equal(got.corners, want.corners)
            assert set(vars(got)) - {"_edge_array", "_shape"} == set(vars(want)) - {"_edge_array", "_shape"}
