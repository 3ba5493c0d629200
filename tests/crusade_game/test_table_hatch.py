"""Roof hatches (ours, reading ``hatch``): VI "If you can move into a building via the roof or a
catwalk, ramp, or stairs, you do not have to force entry or be adjacent to move inside", "ARMORED
buildings ... cannot be entered via the roofs as other buildings can"; a scenario's ``hatch`` on a
building says where its roof and the floor below are joined, climbed as a ladder (V: "Short ladders
(<3") cost the height in move. Tall ladders (3"-6") cost 1 full movement")."""

from __future__ import annotations

import copy

import pytest

from grimdice.errors import ScenarioError
from grimdice.systems.crusade.game.board import FULL
from grimdice.systems.crusade.game.scenario import build_setup
from tests.crusade_game.table_helpers import active, put, rect, steps, table, table_scenario
from tests.crusade_game.test_table import GANGER, game

SECTORS = [{"name": "west", "shape": rect(6, 2, 8, 6)}, {"name": "east", "shape": rect(8, 2, 10, 6)}]


def hab(height=4, **kw):
    return {"name": "hab", "shape": rect(6, 2, 10, 6), "height": height, "armoured": False, **kw}


def test_a_hatch_joins_the_roof_and_the_floor_below_as_a_ladder_of_the_roof_s_height():
    tall = active(game(table(buildings=[hab(hatch=[8, 3])]), [put("Ganger", 8, 3, 4)]))
    assert steps(tall)[("ladder", 8, 3, 0)] == FULL  # V: a tall ladder (3"-6"), the whole move
    below = active(game(table(buildings=[hab(hatch=[8, 3])]), [put("Ganger", 8, 3)]))
    assert steps(below)[("ladder", 8, 3, 4)] == FULL
    short = active(game(table(buildings=[hab(height=2, hatch=[8, 3])]), [put("Ganger", 8, 3, 2)]))
    assert steps(short)[("move", 8, 3, 0)] == 2  # V: a short ladder (<3") costs its height
    # elsewhere on the roof, and on a roof without a hatch: no way inside (VI: ladders or stairs)
    for b, at in ((hab(hatch=[8, 3]), (9, 3, 4)), (hab(), (8, 3, 4))):
        s = active(game(table(buildings=[b]), [put("Ganger", *at)]))
        assert not any(s.setup.board.indoors(k[1:]) >= 0 for k in steps(s))


def test_down_a_hatch_into_a_sector_held_by_enemies_needs_no_forced_entry():
    board = table(buildings=[hab(hatch=[8, 3], sectors=SECTORS)])
    s = active(game(board, [put("Ganger", 8, 3, 4), put("Ganger", 5, 4)], [put("Ganger", 9, 5)]))
    assert s.setup.board.indoors((8, 3, 0)) == 1 and s.setup.board.indoors(s.tokens[2].sq) == 1
    assert ("ladder", 8, 3, 0) in s.legal_actions()  # VI: via the roof, no forced entry
    beside = active(game(board, [put("Ganger", 5, 4)], [put("Ganger", 9, 5)]))
    assert ("move", 6, 4, 0) in beside.legal_actions()  # the west sector is empty
    wall = active(game(board, [put("Ganger", 7, 4)], [put("Ganger", 9, 5)]))
    assert ("move", 8, 4, 0) not in wall.legal_actions()  # between sectors: a forced entry first


def test_a_hatch_held_at_its_far_end_is_a_blocked_ladder():
    # V: "ladders that are blocked by an enemy at the opposite end": the awkward melee
    board = table(buildings=[hab(hatch=[8, 3])])
    s = active(game(board, [put("Ganger", 8, 3, 4)], [put("Ganger", 8, 3)]))
    assert ("ladder", 8, 3, 0) not in s.legal_actions()
    assert ("ladder_melee", 1) in s.legal_actions()


def test_a_collapsed_sector_takes_its_hatch_away():
    s = game(table(buildings=[hab(hatch=[8, 3], sectors=SECTORS)]), [put("Ganger", 1, 1)])
    ruined = s.setup.with_ruins(frozenset({1})).board  # VI: the east sector collapses into rubble
    assert (8, 3, 4) not in ruined.links and (8, 3, 0) not in ruined.links


@pytest.mark.parametrize(
    ("building", "message"),
    [
        (hab(hatch=[11, 3]), "is not a cell of 'hab'"),
        (hab(hatch=[8, 3], armoured=True, doors=[[6, 3]]), "not via its roof"),
    ],
)
def test_a_bad_hatch_names_its_field(building, message):
    data = table_scenario(table(buildings=[building]), [put("Ganger", 1, 1)], [put("Ganger", 11, 7)])
    data["profiles"] = [copy.deepcopy(GANGER)]
    with pytest.raises(ScenarioError) as err:
        build_setup(data)
    assert err.value.field == "board.buildings.0.hatch" and message in err.value.message


def test_stairs_or_a_catwalk_into_a_sector_held_by_enemies_need_no_forced_entry():
    # VI: "If you can move into a building via the roof or a catwalk, ramp, or stairs, you do not
    # have to force entry or be adjacent to move inside"
    landing = {"name": "landing", "kind": "block", "shape": rect(2, 3, 4, 4), "height": 2}
    stairs = table(
        terrain=[landing], buildings=[hab(sectors=SECTORS)], stairs=[{"at": [3, 3, 2], "to": [6, 3, 0]}]
    )
    s = active(game(stairs, [put("Ganger", 3, 3)], [put("Ganger", 7, 5)]))
    assert s.setup.board.indoors((6, 3, 0)) == 0 == s.setup.board.indoors(s.tokens[1].sq)
    assert ("move", 6, 3, 0) in s.legal_actions()  # down the stairs into the held west sector
    beside = active(game(stairs, [put("Ganger", 5, 4)], [put("Ganger", 7, 5)]))
    assert ("move", 6, 4, 0) not in beside.legal_actions()  # from the ground beside: a forced entry
    walk = {"name": "gantry", "kind": "catwalk", "shape": rect(3, 2, 6, 3), "height": 3}
    board = table(terrain=[walk], buildings=[hab(sectors=SECTORS)])
    off = active(game(board, [put("Ganger", 5, 2, 3)], [put("Ganger", 7, 5)]))
    assert ("move", 6, 2, 0) in off.legal_actions()  # a 3" drop off the catwalk into the held sector
    under = active(game(board, [put("Ganger", 5, 2, 0)], [put("Ganger", 7, 5)]))
    assert ("move", 6, 2, 0) not in under.legal_actions()  # from the ground beside: a forced entry
