"""Flamer templates and LINE weapons on the table (VIII FLAMER TEMPLATE, LINE EFFECT; VI: "You may
not spread an area or line effect weapon's attack between two buildings or sectors"): the grid's
shapes over the table's 1" cells, and the game's law equal to ``calculate()``'s."""

from __future__ import annotations

from grimdice.systems.crusade.game import many
from tests.crusade_game.helpers import STEALER
from tests.crusade_game.table_helpers import active, put, rect, table, table_state
from tests.crusade_game.test_many import _armed, flames_as_by_hand
from tests.crusade_game.test_table_sight import hab


def _table_game(profile, marines, stealers, **board):
    ours = [put("Marine", *q) for q in marines]
    theirs = [put("Stealer", *q) for q in stealers]
    return active(table_state(table(w=16, h=10, **board), ours, theirs, profiles=[profile, STEALER]))


def test_a_flamer_template_on_the_table_rolls_at_every_model_it_touches():
    # SFT "4" long, 2" Dia" laid from (1,1) towards (4,1): cells of columns 2-5, rows 0-2
    flamer = _armed("hand flamer", "1W+1R", ["SFT", "W"])
    s = _table_game(flamer, [(1, 1), (3, 2)], [(4, 1), (7, 1), (5, 3)])
    flames_as_by_hand(s, flamer, (3, 2))  # whole inches: 3 to the target, 2 to the friend


def test_a_line_runs_through_the_target_to_a_wall():
    # VIII LINE: "Draw a line from the firer through any eligible models"; a wall stops it
    wall = {"name": "wall", "kind": "wall", "shape": rect(10, 0, 11, 10), "height": 3}
    lascannon = _armed("lascannon", "2R", ["LINE"])
    s = _table_game(lascannon, [(1, 4)], [(4, 4), (8, 4), (12, 4), (6, 6)], terrain=[wall])
    assert many.reached(s, 0, 1, "lascannon") == (1, 2)  # (12,4) lies behind the wall, (6,6) off it


def test_no_spreading_between_a_building_and_models_outside():
    # VI: "You may not spread an area or line effect weapon's attack between two buildings or
    # sectors, nor between a building and targets inside"
    flamer = _armed("flamer", "2R", ["FT"])
    board = {"buildings": [hab()]}
    s = _table_game(flamer, [(1, 3)], [(3, 3), (5, 3)], **board)  # (5,3) is inside the hab's west
    assert many.reached(s, 0, 1, "flamer") == (1,)
