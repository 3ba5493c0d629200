"""IX FLY and JUMP PACK on a grid (X: no heights), and a flight's ZOC, from the text's sentences."""

from __future__ import annotations

import pytest

from grimdice.systems.crusade.game.flight import steps_of
from tests.crusade_game.helpers import MARINE, STEALER, at, state

HALL = """
##########
#........#
#........#
#....#...#
##########
"""

FLYER = dict(MARINE, name="Flyer", abilities=["FLY"])
PACKER = dict(MARINE, name="Packer", abilities=["JUMP PACK"])


def _game(profile, me, *others):
    foes = [at("Stealer", x, y) for x, y in others]
    s = state(HALL, [at(profile, *me)], foes, profiles=[FLYER, PACKER, STEALER, MARINE])
    return s.apply(("activate", 0))


def _air(s):
    return {(k, *to): c for k, to, c in steps_of(s) if k == "fly"}


@pytest.mark.parametrize("profile", ["Flyer", "Packer"])
def test_over_models_in_a_row_to_the_square_beyond(profile):
    # FLY: "May move in any direction, but must end your move on a surface"; JUMP PACK: "may move
    # through the air (measure move as normal)": on a grid over the models, a square each
    s = _game(profile, (1, 1), (2, 1), (3, 1), (1, 2))
    air = _air(s)
    assert air == {("fly", 4, 1): 3, ("fly", 1, 3): 2}
    assert ("fly", 4, 1) in s.legal_actions()
    after = s.apply(("fly", 4, 1))
    assert after.tokens[0].sq == (4, 1) and after.budget == 4 - 3


def test_not_over_a_wall_nor_diagonally_nor_for_others():
    # X: "Diagonal move is not permitted"; the wall at (5, 3) reaches the ceiling
    s = _game("Flyer", (4, 3), (3, 3))
    assert _air(s) == {("fly", 2, 3): 2}
    assert _air(_game("Marine", (1, 1), (2, 1))) == {}
    full = _game("Flyer", (1, 1), (2, 1), (3, 1), (4, 1), (5, 1), (6, 1), (7, 1), (8, 1))
    assert not any(to[1] == 1 for to in _air(full))  # a row to the wall: no free square beyond


def test_over_more_models_in_a_row_as_far_as_its_move_lasts():
    # FLY: "May move in any direction, but must end your move on a surface": over four models in
    # one step, a square each and the landing (5 squares: beyond a move of 4, within an extra move)
    s = _game("Flyer", (1, 1), (2, 1), (3, 1), (4, 1), (5, 1))
    assert _air(s)[("fly", 6, 1)] == 5
    assert ("fly", 6, 1) not in s.legal_actions()  # its move is 4
    extra = s.apply(("extra",))  # I: "Take an extra full move"
    assert ("fly", 6, 1) in extra.legal_actions()
    assert extra.apply(("fly", 6, 1)).tokens[0].sq == (6, 1)


def test_a_flight_past_an_enemy_is_asked_its_zoc():
    # V ZOC: "If a troop moves within 1" of an enemy and then tries to move past the enemy"
    s = _game("Flyer", (2, 2), (3, 2), (8, 3))
    assert ("fly", 4, 2) in s.legal_actions()
    asked = s.apply(("fly", 4, 2))
    assert asked.zoc and asked.current_player() == 1 and ("zoc", 1) in asked.legal_actions()
    passed = asked.apply(("pass",))
    assert passed.tokens[0].sq == (4, 2) and not passed.zoc
