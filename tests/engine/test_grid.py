"""The square-grid board, from the sentences of Rules Crusade X."""

from __future__ import annotations

import itertools

import pytest

from grimdice.engine.grid import DOOR_CLOSED, DUCT, grid_from_map, range_squares, walk
from grimdice.errors import ScenarioError

ROOM = """
#######
#.....#
#.#...#
#..D..#
#.=...#
#######
"""


def test_no_diagonal_move():
    # X: "Diagonal move is not permitted."
    g = grid_from_map(ROOM)
    assert set(g.moves((3, 1))) == {(2, 1), (4, 1), (3, 0), (3, 2)}
    reach = g.step_costs((1, 1), 2, lambda sq: not g.is_wall(sq))
    assert reach[(1, 1)] == 0 and reach[(2, 1)] == 1 and reach[(1, 3)] == 2
    assert (2, 2) not in reach  # a wall
    g2 = grid_from_map("....\n....\n....")
    # movement counts in squares: the diagonal neighbour costs two steps
    assert g2.step_costs((0, 0), 5, lambda sq: True)[(1, 1)] == 2


def test_diagonal_attack_needs_an_open_pinching_square():
    # X: "Diagonal attacking is allowed if one of the two pinching squares is open."
    g = grid_from_map("#####\n#..##\n##..#\n#####")
    # (2,1) -> (3,2): pinching squares (3,1) wall and (2,2) floor: one open
    assert g.adjacent((2, 1), (3, 2))
    # (1,1) -> (2,2): pinching squares (2,1) floor and (1,2) wall: one open
    assert g.adjacent((1, 1), (2, 2))
    g3 = grid_from_map("####\n#.##\n##.#\n####")
    # both pinching squares are walls: not adjacent, no line of sight
    assert not g3.adjacent((1, 1), (2, 2))
    assert not g3.sight((1, 1), (2, 2))
    # "Diagonally adjacent squares count as being adjacent for all purposes including melee."
    assert g.adjacent((1, 1), (2, 2)) and range_squares((1, 1), (2, 2)) == 1


def test_closed_door_pinches_like_a_wall_and_opens():
    g = grid_from_map("#####\n#.D.#\n#D..#\n#####")
    assert g.at((2, 1)) == DOOR_CLOSED
    assert not g.adjacent((1, 1), (2, 2))
    doors = g.doors()
    doors[(2, 1)] = True
    assert g.adjacent((1, 1), (2, 2), doors)


def test_range_in_squares():
    # X: "All movement and range is measured in squares"
    assert range_squares((0, 0), (5, 3)) == 5
    assert range_squares((2, 2), (2, 2)) == 0


def test_air_duct_only_for_light_armour_and_dark():
    # X: "Air ducts / drains are accessible to targets with 1 or less armor and are treated as
    # darkness. You may fire through air ducts."
    g = grid_from_map(ROOM)
    assert g.at((2, 4)) == DUCT
    assert g.enterable((2, 4), 1) and not g.enterable((2, 4), 2)
    assert g.is_dark((2, 4))
    assert g.sight((1, 4), (3, 4))


def test_darkness_markers_and_manholes():
    g = grid_from_map("#####\n#A.:#\n#..B#\n#####", markers="AB", dark=[(1, 2)], links=[((1, 1), (3, 2))])
    assert g.markers["A"] == {(1, 1)} and g.markers["B"] == {(3, 2)}
    assert g.is_dark((3, 1)) and g.is_dark((1, 2)) and not g.is_dark((2, 1))
    assert list(g.linked((1, 1))) == [(3, 2)]
    assert grid_from_map("...\n...", dark="all").is_dark((2, 1))


def test_reachable_by_steps_and_manholes_into_passable_squares():
    # X: air ducts "accessible to targets with 1 or less armor"; manholes lead between squares
    g = grid_from_map("#######\n#.=.#.#\n#######", links=[((1, 1), (5, 1))])
    light = list(g.reachable([(1, 1)], lambda sq: g.enterable(sq, 1)))
    assert light[0] == (1, 1) and set(light) == {(1, 1), (2, 1), (3, 1), (5, 1)}
    assert set(g.reachable([(1, 1)], lambda sq: g.enterable(sq, 2))) == {(1, 1), (5, 1)}
    assert g.connected((1, 1), (3, 1), lambda sq: g.enterable(sq, 1))
    assert not g.connected((1, 1), (3, 1), lambda sq: g.enterable(sq, 2))
    assert g.connected((1, 1), (2, 1), lambda sq: g.enterable(sq, 2))  # the end need not be passable


def test_walls_and_models_block_sight():
    g = grid_from_map("#######\n#.....#\n#..#..#\n#.....#\n#######")
    assert g.sight((1, 2), (2, 2))
    assert not g.sight((1, 2), (5, 2))  # through the wall at (3,2)
    assert g.sight((1, 1), (5, 1))
    assert not g.sight((1, 1), (5, 1), occupied=[(3, 1)])
    assert g.sight((1, 1), (5, 1), occupied=[(1, 1), (5, 1)])  # the ends do not block


def _brute_squares(a, b, n=4000):
    """The squares the centre line enters, by dense sampling (an independent oracle)."""
    out = []
    for i in range(1, n):
        t = i / n
        x, y = a[0] + 0.5 + t * (b[0] - a[0]), a[1] + 0.5 + t * (b[1] - a[1])
        fx, fy = x % 1, y % 1
        if min(fx, 1 - fx) < 1e-9 or min(fy, 1 - fy) < 1e-9:
            continue  # exactly on a grid line
        sq = (int(x), int(y))
        if not out or out[-1] != sq:
            out.append(sq)
    return out


@pytest.mark.parametrize(
    "b", [(x, y) for x, y in itertools.product(range(-4, 5), repeat=2) if (x, y) != (0, 0)]
)
def test_walk_matches_sampling(b):
    a = (10, 10)
    b = (a[0] + b[0], a[1] + b[1])
    entered = [sq for kind, sq, _ in walk(a, b) if kind == "square"]
    assert entered[-1] == b
    assert entered == _brute_squares(a, b)[1:]


def test_bad_maps_name_the_field():
    with pytest.raises(ScenarioError) as e:
        grid_from_map("#.x#")
    assert e.value.field == "board.map.0" and "'x'" in e.value.message
    with pytest.raises(ScenarioError) as e:
        grid_from_map("." * 70)
    assert e.value.field == "board.map"
    with pytest.raises(ScenarioError) as e:
        grid_from_map("#.#", links=[((0, 0), (1, 0))])
    assert e.value.field == "board.manholes.0"
