"""IX FLY and JUMP PACK on a hand-built table, from the text's sentences."""

from __future__ import annotations

import math

import pytest

from grimdice.systems.crusade.damage import NONE, STUNNED
from grimdice.systems.crusade.game.flight import steps_of
from tests.crusade_game.table_helpers import active, put, table
from tests.crusade_game.test_table import GANGER, block, game
from tests.crusade_game.test_table_sight import hab

FLYER = dict(GANGER, name="Flyer", abilities=["FLY"])
PACKER = dict(GANGER, name="Packer", abilities=["JUMP PACK"], move=12)


def _air(s):
    return {(k, *to): c for k, to, c in steps_of(s) if k == "fly"}


def _on(terrain, x, y, profile="Flyer"):
    return active(game(table(terrain=terrain), [put(profile, x, y)], profiles=[GANGER, FLYER, PACKER]))


@pytest.mark.parametrize("profile", ["Flyer", "Packer"])
def test_up_and_down_a_tall_block_through_the_air(profile):
    # FLY: "May move in any direction, but must end your move on a surface"; JUMP PACK: "may move
    # through the air (measure move as normal)": 1" across and the 6" up counted, as V measures a move
    up = _on([block(4, 2, 5, 4, 6)], 3, 2, profile)  # cells (4, 2) and (4, 3)
    air = _air(up)
    assert air[("fly", 4, 2, 6)] == 1 + 6
    assert air[("fly", 4, 3, 6)] == pytest.approx(math.sqrt(2) + 6)
    assert ("fly", 2, 2, 0) not in air  # a plain step reaches it for no more
    down = _on([block(4, 2, 5, 3, 6)], 4, 2, profile)
    assert _air(down)[("fly", 5, 2, 0)] == 1 + 6  # no fall


def test_others_have_no_air_steps():
    s = _on([block(4, 2, 5, 3, 6)], 3, 2, "Ganger")
    assert _air(s) == {} and ("fly", 4, 2, 6) not in s.legal_actions()


def test_across_a_street_between_two_roofs():
    # two 6" blocks with a 2" street between: straight across, no drop into the street
    s = _on([block(2, 2, 5, 3, 6), block(7, 2, 10, 3, 5)], 4, 2)
    air = _air(s)
    assert air[("fly", 7, 2, 5)] == 3 + 1
    assert ("fly", 8, 2, 5) not in air  # the roof's first cell is no gap: a straight line lands there
    walled = _on([block(2, 2, 5, 3, 6), block(5, 2, 6, 3, 6), block(7, 2, 10, 3, 5)], 4, 2)
    assert ("fly", 7, 2, 5) not in _air(walled)  # the wall between is not lower than both ends


def _wide(terrain, x, y, z, profile="Flyer"):
    """``profile`` on a 16" x 16" table at (x, y, z), a ganger in the far corner."""
    board = table(16, 16, terrain=terrain)
    return active(game(board, [put(profile, x, y, z)], [put("Ganger", 15, 15)], [GANGER, FLYER, PACKER]))


ROOFS = [block(0, 2, 4, 4, 6), block(11, 2, 15, 4, 6)]  # cells 0-3 and 11-14: 7 cells between


@pytest.mark.parametrize("profile", ["Flyer", "Packer"])
def test_across_a_wide_square_in_one_step(profile):
    # FLY: "May move in any direction, but must end your move on a surface"; JUMP PACK: "measure
    # move as normal": the 7" between two 6" roofs is crossed in one step, no drop into the square
    air = _air(_wide(ROOFS, 3, 2, 6, profile))
    assert air[("fly", 11, 2, 6)] == 8  # 8 cells along, no height
    assert ("fly", 12, 2, 6) not in air  # the roof's first cell is no gap
    diagonal = _wide([block(0, 0, 4, 4, 6), block(9, 9, 12, 12, 6)], 3, 3, 6, profile)
    assert _air(diagonal)[("fly", 9, 9, 6)] == pytest.approx(6 * math.sqrt(2))
    wall = _wide([*ROOFS, block(7, 0, 8, 8, 6)], 3, 2, 6, profile)
    assert ("fly", 11, 2, 6) not in _air(wall)  # a wall as high as the roofs stands in the gap
    low = _wide([*ROOFS, block(7, 0, 8, 8, 2)], 3, 2, 6, profile)
    assert _air(low)[("fly", 11, 2, 6)] == 8  # a lower wall in it is flown over


def test_a_wide_flight_is_played_when_the_move_lasts():
    s = _wide(ROOFS, 3, 2, 6, "Packer")  # a move of 12
    assert ("fly", 11, 2, 6) in s.legal_actions()
    after = s.apply(("fly", 11, 2, 6))
    assert after.tokens[0].sq == (11, 2, 6) and after.budget == 12 - 8
    assert ("fly", 11, 2, 6) not in _wide(ROOFS, 3, 2, 6).legal_actions()  # a move of 4


def test_a_step_through_the_air_is_played_and_pays_its_cost():
    s = _on([block(4, 2, 5, 3, 6)], 3, 2, "Packer")
    assert ("fly", 4, 2, 6) in s.legal_actions()
    after = s.apply(("fly", 4, 2, 6))
    assert after.tokens[0].sq == (4, 2, 6) and after.budget == 12 - 7 and after.tokens[0].cond == NONE
    short = _on([block(4, 2, 5, 3, 6)], 3, 2)  # FLY with a move of 4: 7" is too far
    assert ("fly", 4, 2, 6) not in short.legal_actions()


@pytest.mark.parametrize(("profile", "cond"), [("Flyer", NONE), ("Packer", STUNNED), ("Ganger", STUNNED)])
def test_fly_ignores_the_damage_of_a_fall(profile, cond):
    # FLY: "You may ignore damage from a fall"; V FALLING: 1 hit per 4" (graze = stun)
    s = _on([block(4, 2, 5, 3, 4)], 4, 2, profile).apply(("fall", 5, 2, 0))
    assert s.tokens[0].sq == (5, 2, 0) and s.tokens[0].cond == cond


def test_onto_a_roof_not_through_it():
    # FLY: "you can enter normal buildings by flying onto the roof!" (then in by its ladders or stairs)
    def flyer_at(*p):
        return active(game(table(buildings=[hab()]), [put("Flyer", *p)], profiles=[GANGER, FLYER]))

    assert _air(flyer_at(3, 2))[("fly", 4, 2, 4)] == 1 + 4  # 4" up: no plain step, no jump
    air = _air(flyer_at(4, 3, 4))  # on the roof's edge
    assert air[("fly", 3, 3, 0)] == 1 + 4  # down beside the house, no fall
    inside = {(x, y) for x in range(4, 10) for y in range(2, 6)}
    assert not any((x, y) in inside and z == 0 for _, x, y, z in air)  # not through the roof


def test_games_with_fliers_keep_the_invariants_and_replay():
    from grimdice.systems.crusade.game.scenario import build_setup
    from tests.crusade_game.table_helpers import table_scenario
    from tests.crusade_game.test_table_games import HEIGHTS, _checked

    fliers = [dict(FLYER, move=6), PACKER]
    a, b = [put("Flyer", 1, 2), put("Packer", 1, 5)], [put("Flyer", 12, 2), put("Packer", 12, 6)]
    setup = build_setup(table_scenario(HEIGHTS, a, b, profiles=fliers, turns=4))
    seen: set[str] = set()
    for seed in (7, 8, 9):  # seed 8's and 9's games fly
        _, kinds = _checked(setup, ("random", "random"), seed)
        seen.update(kinds)
    assert "fly" in seen


def test_a_flight_past_an_enemy_beside_it_is_asked_its_zoc():
    # V ZOC: "If a troop moves within 1" of an enemy and then tries to move past the enemy": an air
    # step out of a cell beside a standing enemy (feet within 1") is asked, as a plain step is
    board = table(terrain=[block(4, 2, 5, 4, 6)])
    s = active(game(board, [put("Flyer", 3, 1)], [put("Ganger", 2, 3)], profiles=[GANGER, FLYER, PACKER]))
    s = s.apply(("move", 3, 2, 0))  # within 1" of the ganger, then up past it
    asked = s.apply(("fly", 4, 2, 6))
    assert asked.zoc and asked.current_player() == 1 and ("zoc", 1) in asked.legal_actions()
    made = asked.apply(("pass",))
    assert made.tokens[0].sq == (4, 2, 6) and not made.zoc
