"""The board's answers about templates, lines, areas and knockback, on hand-built grids."""

from __future__ import annotations

from grimdice.engine.grid import grid_from_map
from grimdice.systems.crusade.game.board import GridBoard
from grimdice.systems.crusade.game.reach import line_squares, template_squares

HALL = grid_from_map(
    """
##########
#........#
#........#
#........#
##########
""".strip("\n")
)
PILLAR = grid_from_map(
    """
##########
#........#
#...#....#
#........#
##########
""".strip("\n")
)


def test_hand_flamer_template_along_a_wall():
    # SFT: "4" long, 2" Dia": from (1,1) towards (5,1) it reaches 4 squares along the row, and the
    # squares whose centres are within 1 of the line: row 2 (row 0 is wall, not seen)
    got = template_squares(HALL, (1, 1), (5, 1), "SFT", {})
    assert got == [(2, 1), (2, 2), (3, 1), (3, 2), (4, 1), (4, 2), (5, 1), (5, 2)]  # nearest first


def test_flamer_template_width_and_length():
    # FT: 8" long, 2.5" across: half-width 1.25 takes in the rows either side, not two rows away;
    # 8 squares along: from (1,2) to column 9, which is wall
    got = set(template_squares(HALL, (1, 2), (8, 2), "FT", {}))
    assert got == {(x, y) for x in range(2, 9) for y in (1, 2, 3)}


def test_a_target_beyond_the_template_is_not_reached():
    assert template_squares(HALL, (1, 1), (6, 1), "SFT", {}) == []  # 5 squares > 4"
    assert template_squares(HALL, (1, 1), (4, 3), "SFT", {})  # sqrt(13) < 4
    assert template_squares(HALL, (1, 1), (4, 4), "SFT", {}) == []  # 5 squares, diagonally


def test_walls_stop_the_flame():
    # the pillar at (4,2): the squares behind it in the firer's line are not seen
    got = template_squares(PILLAR, (1, 2), (8, 2), "FT", {})
    assert (4, 2) not in got and (5, 2) not in got and (8, 2) not in got
    assert (3, 2) in got and (5, 1) in got and (5, 3) in got


def test_line_runs_through_the_target_to_the_wall():
    # VIII LINE: "Draw a line from the firer through any eligible models": from the centre of (1,1)
    # through the centre of (3,2), slope 1/2: it crosses x=1.5 at y=1.25, y=1.5 at x=2, x=2.5 at
    # y=1.75, x=3.5 at y=2.25, y=2.5 at x=4, x=4.5 at y=2.75, x=5.5 at y=3.25, then y=3.5 at x=6
    # into the wall row
    assert line_squares(HALL, (1, 1), (3, 2), {}) == [(2, 1), (2, 2), (3, 2), (4, 2), (4, 3), (5, 3), (6, 3)]
    assert line_squares(HALL, (1, 2), (2, 2), {}) == [(x, 2) for x in range(2, 9)]
    assert line_squares(PILLAR, (1, 2), (2, 2), {}) == [(2, 2), (3, 2)]  # stopped by the pillar
    doors = {(3, 2): False}  # a closed door stops it too
    assert line_squares(HALL, (1, 2), (2, 2), doors) == [(2, 2)]


def test_blast_is_the_three_by_three_squares_not_past_walls():
    # X: "Area effect for hazards will hit the square they are in, plus all 8 adjacent squares";
    # reading blast_walls: not a square behind a wall (walls and closed doors stop it)
    board = GridBoard(HALL)
    three = [(x, y) for y in (1, 2, 3) for x in (3, 4, 5)]
    assert [q for q in board.within((4, 2), 1) if board.blast_reaches((4, 2), q, {})] == three
    pillar = GridBoard(PILLAR)  # from (3, 2): (5, 2) behind the pillar at (4, 2) is not reached
    assert pillar.blast_reaches((3, 2), (5, 2), {}) is False
    assert pillar.blast_reaches((3, 2), (3, 1), {}) and pillar.blast_reaches((3, 2), (4, 1), {})
    assert not board.blast_reaches((2, 2), (4, 2), {(3, 2): False})  # a closed door between
    assert board.blast_reaches((2, 2), (4, 2), {(3, 2): True})


def test_knockback_square_and_what_blocks_it():
    # VIII KNOCKBACK: "move the target 1" away from the attacker ... into a wall or piece of cover,
    # or into another model, they take a stun"
    board = GridBoard(HALL)
    assert board.beyond((1, 1), (3, 1)) == (4, 1)
    assert board.beyond((1, 1), (3, 2)) == (4, 3)  # not in line: the diagonal step away
    assert board.beyond((5, 2), (4, 2)) == (3, 2)
    assert board.obstacle((9, 2), {})  # wall
    assert board.obstacle((4, 2), {(4, 2): False})  # a closed door
    assert not board.obstacle((4, 2), {(4, 2): True})
    assert not board.obstacle((4, 2), {})  # (a model there: situation.push_square, test_effects)


def test_a_template_looked_at_on_some_squares_only():
    full = template_squares(HALL, (1, 2), (8, 2), "FT", {})
    some = [(3, 3), (9, 2), (5, 2), (1, 2), (8, 1)]
    assert template_squares(HALL, (1, 2), (8, 2), "FT", {}, among=some) == [q for q in full if q in some]
