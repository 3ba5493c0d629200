"""The grid game's weapon effects and fails (III, VIII), each from a sentence of the text."""

from __future__ import annotations

import pytest

from grimdice.systems.crusade import calculate
from grimdice.systems.crusade.damage import KILLED, NONE, STUNNED
from grimdice.systems.crusade.game.combat import cached_law
from grimdice.systems.crusade.game.state import READY, UNLOADED
from tests.crusade_game.helpers import MARINE, STEALER, at, state

HALL = """
##########
#........#
#........#
#........#
##########
"""


def test_explode_attacks_the_bearer_and_models_near_him():
    # VIII EXPLODE: "On a fail, make an attack from the weapon, centered on the bearer (SFT=1"A,
    # FT=2"A, HFT=3"A). The weapon is lost."
    flamer = dict(
        MARINE, weapons=[{"name": "flamer", "dice": "2W+1R", "kind": "ranged", "effects": ["X", "SFT"]}]
    )
    marines = [at("Marine", 1, 1), at("Marine", 2, 2), at("Marine", 4, 1)]
    s = state(HALL, marines, [at("Stealer", 8, 1), at("Stealer", 8, 3)], profiles=[flamer, STEALER])
    s = s.apply(("activate", 0)).apply(("shoot", 3, "flamer"))
    law = cached_law(s.pending[4])
    k = next(k for k, ((_, _, wa, *_), _) in enumerate(law) if wa)
    s = s.apply(("attack", k))
    assert s.tokens[0].arms[0] == "lost"
    # SFT: 1 square: the bearer, then the marine diagonally adjacent; not the one 3 squares away
    assert s.pending[1] == "explode" and s.pending[3] == 0 and s.pending[6] == (("explode", 0, 1, "flamer"),)
    blast = cached_law(s.pending[4])
    mine = {k: v for k, v in flamer.items() if k != "move"}
    res = calculate(
        {
            "system": "crusade",
            "action": "shoot",
            "range": 0,
            "attacker": mine,
            "defender": {**mine, "weapons": []},
        }
    )
    assert sum(p for (ds, *_), p in blast if ds[0] == KILLED) == pytest.approx(
        res.extra["end_state"]["killed"]
    )
    s = s.apply(("attack", 0))
    assert s.pending[3] == 1 and s.pending[6] == ()
    s = s.apply(("attack", 0))
    assert not s.pending


def test_area_weapon_hits_the_three_by_three_squares():
    # X: "Area effect for hazards will hit the square they are in, plus all 8 adjacent squares."
    gun = {"name": "mortar", "dice": "2W+1R", "kind": "ranged", "effects": ["AREA 2", "RELOAD"]}
    mortar = dict(MARINE, weapons=[gun])
    stealers = [at("Stealer", 6, 2), at("Stealer", 7, 3), at("Stealer", 8, 2), at("Stealer", 5, 1)]
    s = state(HALL, [at("Marine", 1, 2)], stealers, profiles=[mortar, STEALER])
    s = s.apply(("activate", 0)).apply(("shoot", 1, "mortar"))
    law = cached_law(s.pending[4])
    miss = next(k for k, ((ds, _, wa, *_), _) in enumerate(law) if ds[0] == NONE and not wa)
    s = s.apply(("attack", miss))
    # the models on (5,1) and (7,3) are in the 3x3 around (6,2); (8,2) is not
    assert s.pending[1] == "area" and s.pending[3] == 4 and s.pending[6] == (("area", 0, 2, "mortar"),)
    assert '"range": 1' in s.pending[4]  # its own range from the firer: 4 squares, under a foot
    assert s.tokens[0].arms[0] == UNLOADED and cached_law(s.pending[4])  # the rolls after the first


def test_stuck_weapon_is_recovered_by_an_action_next_to_its_target():
    # VIII STICK: "weapon is stuck in target and can't be used- must spend an action adjacent to
    # target to recover it."
    spear = dict(MARINE, weapons=[{"name": "spear", "dice": "1W+1R", "kind": "melee", "effects": ["STICK"]}])
    s = state(
        HALL, [at("Marine", 1, 1)], [at("Stealer", 2, 1), at("Stealer", 8, 3)], profiles=[spear, STEALER]
    )
    s = s.apply(("activate", 0)).apply(("melee", 1))
    law = cached_law(s.pending[4])
    k = next(k for k, ((ds, _, wa, *_), _) in enumerate(law) if wa and ds[0] != KILLED)
    s = s.apply(("attack", k))
    assert s.tokens[0].arms[0] == "stuck@1"
    s = s.apply(("end",))
    while s.player == 1:
        s = s.apply(s.legal_actions()[0]).apply(("end",))
    s = s.apply(("activate", 0))
    assert ("recover", "spear") in s.legal_actions()
    assert s.apply(("recover", "spear")).tokens[0].arms[0] == READY
    away = s.apply(("move", 1, 2))
    assert away.current_player() == 1 and away.legal_actions() == [("pass",), ("zoc", 1)]  # V ZOC
    away = away.apply(("pass",)).apply(("move", 1, 3))
    assert away.current_player() == 0 and ("recover", "spear") not in away.legal_actions()


def test_malfunction_rolls_the_weapon_against_the_user_and_in_melee_the_opponent():
    # VIII MALFUNCTION: "On a fail, roll the weapon dice vs. the user's armor (in melee, also roll
    # against the opponent). The weapon still functions normally."
    axe = {"name": "axe", "dice": "1W+1R", "kind": "melee", "effects": ["M"]}
    brute = dict(MARINE, weapons=[axe])
    s = state(
        HALL, [at("Marine", 1, 1)], [at("Stealer", 2, 1), at("Stealer", 8, 3)], profiles=[brute, STEALER]
    )
    s = s.apply(("activate", 0)).apply(("melee", 1))
    law = cached_law(s.pending[4])
    k = next(k for k, ((ds, as_, wa, *_), _) in enumerate(law) if wa and ds[0] != KILLED and as_[0] == NONE)
    s = s.apply(("attack", k))
    assert s.tokens[0].arms[0] == READY  # still functions
    assert (
        s.pending[1] == "malfunction"
        and s.pending[3] == 0
        and s.pending[6] == (("malfunction", 0, 1, "axe"),)
    )
    mine = {k: v for k, v in brute.items() if k != "move"}
    res = calculate(
        {
            "system": "crusade",
            "action": "shoot",
            "range": 0,
            "attacker": {**mine, "weapons": [dict(axe, kind="ranged")]},
            "defender": {**mine, "weapons": []},
        }
    )
    got = sum(p for (ds, *_), p in cached_law(s.pending[4]) if ds[0] == KILLED)
    assert got == pytest.approx(res.extra["end_state"]["killed"], abs=1e-12)


def test_knockback_into_a_wall_or_a_model_stuns():
    # VIII KNOCKBACK: "move the target 1" away from the attacker ... If they move into a wall or
    # piece of cover, or into another model, they take a stun"
    gun = {"name": "shotgun", "dice": "2W", "kind": "ranged", "effects": ["KB", "W"]}
    pusher = dict(MARINE, weapons=[gun])
    walled = state(HALL, [at("Marine", 5, 2)], [at("Stealer", 8, 2)], profiles=[pusher, STEALER])
    s = walled.apply(("activate", 0)).apply(("shoot", 1, "shotgun"))
    assert '"knockback_into": "obstacle"' in s.pending[4]  # the wall at (9, 2)
    s = state(HALL, [at("Marine", 2, 2)], [at("Stealer", 5, 2)], profiles=[pusher, STEALER]).apply(
        ("activate", 0)
    )
    assert '"knockback_into": "open"' in s.apply(("shoot", 1, "shotgun")).pending[4]
    s = state(
        HALL, [at("Marine", 2, 2)], [at("Stealer", 5, 2), at("Stealer", 6, 2)], profiles=[pusher, STEALER]
    )
    key = s.apply(("activate", 0)).apply(("shoot", 1, "shotgun")).pending[4]
    assert '"knockback_into": "obstacle"' in key  # another model behind
    mine, theirs = ({k: v for k, v in p.items() if k != "move"} for p in (pusher, STEALER))
    res = calculate(
        {
            "system": "crusade",
            "range": 3,
            "knockback_into": "obstacle",
            "attacker": mine,
            "defender": theirs,
        }
    )
    stunned = sum(p for (ds, *_), p in cached_law(key) if ds[0] == STUNNED)
    assert stunned == pytest.approx(res.extra["end_state"]["stunned"], abs=1e-12) and stunned > 0
    plain = state(HALL, [at("Marine", 2, 2)], [at("Stealer", 5, 2)]).apply(("activate", 0))
    assert "knockback_into" not in plain.apply(("shoot", 1, "bolter")).pending[4]
