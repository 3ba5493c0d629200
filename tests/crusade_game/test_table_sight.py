"""Sight, cover and buildings on the table (II SHOOTING, VI STRUCTURES AND BUILDINGS), and a game's
shot on the table equal to ``calculate()`` for the same situation."""

from __future__ import annotations

import itertools
import json

import pytest

from grimdice.systems.crusade import calculate
from grimdice.systems.crusade.game.rules import adjacent_enemies, targets_in_sight
from grimdice.systems.crusade.game.state import invariant_errors
from tests.crusade_game.helpers import MARINE, STEALER
from tests.crusade_game.table_helpers import active, put, rect, steps, table, table_state
from tests.crusade_game.test_table import block

BARRICADE = {"name": "barricade", "kind": "barricade", "shape": rect(5, 3, 6, 4)}
WALL = {"name": "wall", "kind": "wall", "shape": rect(5, 1, 6, 6), "height": 3}


def hab(armoured=False, doors=()):
    return {
        "name": "hab",
        "shape": rect(4, 2, 10, 6),
        "height": 4,
        "armoured": armoured,
        "sectors": [
            {"name": "west", "shape": rect(4, 2, 7, 6)},
            {"name": "east", "shape": rect(7, 2, 10, 6)},
        ],
        "doors": [list(d) for d in doors],
    }


def cover(s, i=0, j=1):
    return s.setup.board.cover(s.tokens[i].sq, s.tokens[j].sq, {})


def test_partial_sight_is_front_cover_heights_count():
    # II: "If you can only see part of the target, they have Cover. If they do not have a roof over
    # their head, the cover is counted as Front Cover." Over a 1" barricade 5" away, the feet are
    # hidden from a firer on the ground (eyes 1.5" up), seen from one 6" up (II: "Always draw line
    # of sight from the attacker model's position (IE, on top of the building)")
    s = table_state(table(terrain=[BARRICADE]), [put("Marine", 0, 3)], [put("Stealer", 6, 3)])
    assert targets_in_sight(s, 0) == [1] and cover(s) == "front"
    open_ground = table_state(table(), [put("Marine", 0, 3)], [put("Stealer", 6, 3)])
    assert cover(open_ground) == "none"
    high = table(terrain=[BARRICADE, block(0, 3, 1, 4, 6)])
    s = table_state(high, [put("Marine", 0, 3)], [put("Stealer", 6, 3)])
    assert s.tokens[0].sq == (0, 3, 6) and cover(s) == "none"


def test_terrain_taller_than_the_line_blocks_sight():
    # II: "if you cannot see some portion of the target's body, you do not have LOS"
    s = table_state(table(terrain=[WALL]), [put("Marine", 0, 3)], [put("Stealer", 8, 3)])
    assert targets_in_sight(s, 0) == []
    s = table_state(
        table(terrain=[WALL, block(0, 3, 1, 4, 6)]), [put("Marine", 0, 3)], [put("Stealer", 8, 3)]
    )
    assert targets_in_sight(s, 0) == [1]  # over the wall from 6" up


def test_models_inside_buildings_are_in_top_and_front_cover():
    # VI: "Buildings provide top and front cover ... Place models inside buildings on top of the
    # roof for LOS purposes but treated as in cover. ... Armored buildings always provide cover"
    s = table_state(table(buildings=[hab()]), [put("Marine", 1, 3)], [put("Stealer", 5, 3)])
    assert s.tokens[1].sq == (5, 3, 0) and targets_in_sight(s, 0) == [1] and cover(s) == "full"
    armoured = table(buildings=[hab(armoured=True, doors=[(4, 4)])])
    s = table_state(armoured, [put("Marine", 1, 3)], [put("Stealer", 5, 3)])
    assert cover(s) == "armoured"
    roof = table_state(table(buildings=[hab()]), [put("Marine", 1, 3)], [put("Stealer", 5, 3, 4)])
    assert cover(roof) == "front"  # on the roof: its edge hides the feet from the ground
    tower = table(buildings=[hab()], terrain=[block(0, 3, 1, 4, 6)])
    roof = table_state(tower, [put("Marine", 0, 3)], [put("Stealer", 5, 3, 4)])
    assert cover(roof) == "none"  # seen whole from 6" up: no roof over its head, no cover


def test_no_fire_or_melee_between_sectors():
    # VI: "You may not fire between sectors." "You may not attack across sector borders."
    s = table_state(table(buildings=[hab()]), [put("Marine", 6, 3, 0)], [put("Stealer", 7, 3, 0)])
    assert targets_in_sight(s, 0) == [] and adjacent_enemies(s, 0) == []
    same = table_state(table(buildings=[hab()]), [put("Marine", 5, 3, 0)], [put("Stealer", 6, 3, 0)])
    assert targets_in_sight(same, 0) == [1] and adjacent_enemies(same, 0) == [1]
    wall = table_state(table(buildings=[hab()]), [put("Marine", 3, 3)], [put("Stealer", 4, 3, 0)])
    assert adjacent_enemies(wall, 0) == []  # VI: "You may not melee through walls"


def test_entering_buildings():
    # VI: "To move into a building, you must first start adjacent to any part of it"; "ARMORED
    # buildings may only be entered through clearly marked doors"; "When moving between adjacent
    # sectors, you do not have to be adjacent to the border"
    s = active(table_state(table(buildings=[hab()]), [put("Marine", 3, 3)], [put("Stealer", 11, 7)]))
    assert ("move", 4, 3, 0) in steps(s) and ("move", 4, 3, 4) not in steps(s)  # the roof is 4" up
    inside = active(table_state(table(buildings=[hab()]), [put("Marine", 6, 3, 0)], [put("Stealer", 11, 7)]))
    assert ("move", 7, 3, 0) in steps(inside) and not any(k[3] == 4 for k in steps(inside))
    armoured = table(buildings=[hab(armoured=True, doors=[(4, 4)])])
    s = active(table_state(armoured, [put("Marine", 3, 3)], [put("Stealer", 11, 7)]))
    got = steps(s)
    assert ("move", 4, 3, 0) not in got and ("move", 4, 4, 0) in got


def test_a_sector_held_by_enemies_is_not_entered():
    s = active(table_state(table(buildings=[hab()]), [put("Marine", 3, 3)], [put("Stealer", 5, 5, 0)]))
    assert not any(k[0] == "move" and k[3] == 0 and 4 <= k[1] < 7 and 2 <= k[2] < 6 for k in steps(s))
    mixed = table_state(
        table(buildings=[hab()]), [put("Marine", 3, 3), put("Marine", 6, 2, 0)], [put("Stealer", 5, 5, 0)]
    )
    assert ("move", 4, 3, 0) in steps(active(mixed))  # VI: "mixed forces inside": no forced entry


def _end_states(law):
    out: dict[int, float] = {}
    for (ds, *_), p in law:
        out[ds[0]] = out.get(ds[0], 0.0) + p
    return out


SHOTS = [
    # a barricade 1" before the target, 14" away: front cover, one full foot of range
    (
        {"w": 24, "terrain": [{"name": "b", "kind": "barricade", "shape": rect(13, 3, 14, 4)}]},
        (14, 3),
        14,
        "front",
    ),
    # inside a building (seen from its roof), 5" away: full cover
    ({"buildings": [hab()]}, (5, 3), 5, "full"),
    # inside an armoured building: armoured cover
    ({"buildings": [hab(armoured=True, doors=[(4, 4)])]}, (5, 3), 5, "armoured"),
    # open ground, 3 across and 4 down the table: 5" (whole inches between the feet)
    ({}, (3, 7), 5, "none"),
]


@pytest.mark.parametrize(
    ("board", "where", "inches", "cover"), SHOTS, ids=["front", "full", "armoured", "open"]
)
def test_a_shot_on_the_table_is_calculate_s_shot(board, where, inches, cover):
    # II: range in whole inches (-1 per full foot), cover from the table (+1 armour beyond an inch);
    # VI: cover inside buildings: the game's law equals calculate() of the same single attack,
    # written here by hand
    from grimdice.systems.crusade.damage import CONDITIONS
    from grimdice.systems.crusade.game.combat import cached_law

    s = active(table_state(table(**board), [put("Marine", 0, 3)], [put("Stealer", *where)]))
    assert ("shoot", 1, "bolter") in s.legal_actions()
    key = s.apply(("shoot", 1, "bolter")).pending[4]
    attacker = {k: v for k, v in MARINE.items() if k != "move"}
    defender = {k: v for k, v in STEALER.items() if k != "move"}
    res = calculate(
        {
            "system": "crusade",
            "action": "shoot",
            "range": inches,
            "cover": cover,
            "attacker": attacker,
            "defender": defender,
            "weapons": ["bolter"],
        }
    )
    got = _end_states(cached_law(key))
    for c, name in enumerate(CONDITIONS):
        assert got.get(c, 0.0) == pytest.approx(res.extra["end_state"][name], abs=1e-9)
    assert json.loads(key)["cover"] == cover


def test_zone_of_control_and_hiding_on_the_table():
    # V ZOC: "If a troop moves within 1" of an enemy and then tries to move past the enemy, the
    # enemy may choose to make a "free" melee attack"; V HIDING: "If you are in cover, you may Hide
    # ... if you or your enemy moves such that they ... are within 1" of you, you will be Revealed"
    s = active(table_state(table(), [put("Marine", 2, 3)], [put("Stealer", 3, 3)]))
    assert s.apply(("move", 1, 3, 0)).zoc == ()  # started next to it: directly away is free
    assert s.apply(("move", 2, 4, 0)).zoc[2] == (1,)  # along it: the stealer may melee
    screen = {"name": "screen", "kind": "wall", "shape": rect(8, 0, 9, 7), "height": 3}
    beside = active(
        table_state(table(terrain=[BARRICADE, screen]), [put("Marine", 4, 3)], [put("Stealer", 11, 7)])
    )
    open_ground = active(table_state(table(), [put("Marine", 4, 3)], [put("Stealer", 11, 7)]))
    assert ("hide",) in beside.legal_actions() and ("hide",) not in open_ground.legal_actions()
    hidden = beside.apply(("hide",)).apply(("end",)).apply(("activate", 1))
    assert hidden.tokens[0].hidden
    behind = hidden.apply(("move", 10, 6, 0))
    assert behind.tokens[0].hidden  # the screen hides it from the stealer
    seen = hidden.apply(("move", 10, 7, 0)).apply(("move", 9, 7, 0)).apply(("move", 8, 7, 0))
    assert not seen.tokens[0].hidden  # round the screen: in sight, revealed


# ---------------------------------------------------------------------- VI FORCE ENTRY
def _sum_above(need: int, whites: int, reds: int) -> float:
    from tests.crusade_game.test_table import RED, WHITE

    rolls = list(itertools.product(*([WHITE] * whites + [RED] * reds)))
    return sum(1 for r in rolls if sum(r) > need) / len(rolls)


def test_forced_entry_into_a_sector_held_by_enemies():
    # VI: "If the building is occupied by enemy troops, you must FORCE ENTRY before moving in- make
    # any kind of attack on the building while adjacent, and roll > the building's armor ... If
    # successful, place a marker next to you- any troops within 3" of the marker and adjacent to
    # the building may move in."
    s = active(table_state(table(buildings=[hab()]), [put("Marine", 3, 3)], [put("Stealer", 5, 5, 0)]))
    west = s.setup.board.indoors((5, 5, 0))
    assert ("force", west, "bolter") in s.legal_actions() and ("force", west, "") in s.legal_actions()
    tried = s.apply(("force", west, "bolter"))
    made = sum(p for o, p in tried.chance_outcomes() if o[1])
    assert made == pytest.approx(_sum_above(1, whites=2, reds=1))  # 2W+1R > armour 1
    made, failed = tried.apply(("force", 1)), tried.apply(("force", 0))
    assert made.breaches == (((3, 3, 0), west),) and failed.breaches == ()
    assert made.acted and ("move", 4, 3, 0) in steps(made) and ("move", 4, 3, 0) not in steps(failed)
    armoured = table(buildings=[hab(armoured=True, doors=[(4, 4)])])
    s = active(table_state(armoured, [put("Marine", 3, 4)], [put("Stealer", 5, 5, 0)]))
    law = s.apply(("force", west, "bolter")).chance_outcomes()
    assert sum(p for o, p in law if o[1]) == pytest.approx(_sum_above(2, whites=2, reds=1))  # > armour 2


def test_closing_a_forced_entry_and_forcing_between_sectors():
    # VI: "If inside the building and not mixed forces, you may close a forced entrance that is
    # within 3" by spending an action." "When moving between adjacent sectors ... you may have to
    # force entry as if entering a building"
    s = active(table_state(table(buildings=[hab()]), [put("Marine", 3, 3)], [put("Stealer", 5, 5, 0)]))
    west = s.setup.board.indoors((5, 5, 0))
    made = s.apply(("force", west, "bolter")).apply(("force", 1)).apply(("end",))
    stealer = made.apply(("activate", 1))
    assert ("close_entry", 0) in stealer.legal_actions()
    closed = stealer.apply(("close_entry", 0))
    assert closed.breaches == () and closed.acted
    inside = active(
        table_state(table(buildings=[hab()]), [put("Marine", 6, 3, 0)], [put("Stealer", 8, 5, 0)])
    )
    east = inside.setup.board.indoors((8, 5, 0))
    assert ("move", 7, 3, 0) not in steps(inside) and ("force", east, "bolter") in inside.legal_actions()


# ---------------------------------------------------------------------- VI DAMAGE, collapse
LAUNCHER = {"name": "missile launcher", "dice": "2R+1", "kind": "ranged", "effects": ["K", "+P", "B"]}


def _gunner():
    return dict(MARINE, weapons=[*MARINE["weapons"], LAUNCHER])


def test_a_shot_at_a_sector_is_calculate_s_shot_at_a_building():
    # VI: "Normal buildings have 1 armor, and 10 hits per sector ... firing template, special,
    # grenade or heavy weapons at them ... +P weapons also add 1": the game's law is calculate()'s
    from grimdice.systems.crusade.game import ruin
    from grimdice.systems.crusade.game.combat import cached_law

    s = active(
        table_state(
            table(buildings=[hab()]),
            [put("Marine", 1, 3)],
            [put("Stealer", 11, 7)],
            profiles=[_gunner(), STEALER],
        )
    )
    west = s.setup.board.indoors((5, 3, 0))
    assert ("shoot_sector", west, "missile launcher") in s.legal_actions()
    assert ("shoot_sector", west, "bolter") not in s.legal_actions()  # not a building weapon
    key = s.apply(("shoot_sector", west, "missile launcher")).pending[3]
    assert key == ruin.sector_shot(s, 0, west, "missile launcher")
    res = calculate(
        {
            "system": "crusade",
            "action": "shoot",
            "range": 3,  # to the sector's nearest cell
            "attacker": {k: v for k, v in _gunner().items() if k != "move"},
            "defender": {"name": "hab west", "kind": "building", "armour": 1, "hits": 10},
            "weapons": ["missile launcher"],
        }
    )
    law: dict[int, float] = {}
    for (ds, *_), p in cached_law(key):
        law[ds[1]] = law.get(ds[1], 0.0) + p
    for h, p in res.stages["hits_left"].to_dict().items():
        assert law.get(h, 0.0) == pytest.approx(p, abs=1e-9)


def test_a_collapse_rolls_at_the_models_inside_and_the_connected_sector_then_leaves_rubble():
    # VI: "When the building has taken all it's hits, it collapses. Roll 2 reds against any targets
    # inside (graze = W) ... place them in amongst the rubble ... Roll 2 reds against any connected
    # sectors for collateral damage."
    from dataclasses import replace

    from grimdice.systems.crusade.game.combat import cached_law

    models = [put("Stealer", 5, 5, 0), put("Stealer", 5, 3, 4)]
    s = active(
        table_state(table(buildings=[hab()]), [put("Marine", 1, 3)], models, profiles=[_gunner(), STEALER])
    )
    west, east = s.setup.board.indoors((5, 5, 0)), s.setup.board.indoors((8, 5, 0))
    s = replace(s, sector_hits=((west, 1),)).apply(("shoot_sector", west, "missile launcher"))
    down = next(k for k, ((ds, *_), _) in enumerate(cached_law(s.pending[3])) if ds[1] == 0)
    s = s.apply(("sector", down))
    assert s.pending == ("collapse", 1)
    law = dict(s.chance_outcomes())
    reds = list(itertools.product(RED2, RED2))
    by_end: dict[int, float] = {}
    for o, p in law.items():
        cond = s.apply(o).tokens[1].cond
        by_end[cond] = by_end.get(cond, 0.0) + p
    none = sum(1 for r in reds if sum(r) - 1 <= 0) / 36  # 2 reds - armour 1: no hit
    wound = sum(1 for r in reds if sum(r) - 1 == 1) / 36  # one point on one hit: graze = W
    assert by_end[0] == pytest.approx(none) and by_end[2] == pytest.approx(wound)
    assert by_end[4] == pytest.approx(1 - none - wound)
    s = s.apply(next(o for o in law if s.apply(o).tokens[1].cond == 0))  # it survives
    assert s.pending == ("collateral", east)
    s = s.apply(("collateral", 0))
    assert s.pending == () and dict(s.sector_hits)[east] < 10
    board = s.setup.board
    assert board.indoors((5, 5, 0)) == -1 and board.indoors((8, 5, 0)) == east  # west is rubble
    assert s.tokens[1].sq == (5, 5, 0) and s.tokens[2].sq[2] == 0  # the roof's model fell 4"
    assert s.tokens[2].cond == 1  # V FALLING: 1 hit, graze = stun
    assert not invariant_errors(s)


RED2 = (0, 0, 0, 1, 2, 3)
