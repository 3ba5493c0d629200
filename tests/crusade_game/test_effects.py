"""The grid game's weapon effects and fails (III, VIII), each from a sentence of the text."""

from __future__ import annotations

import json

import pytest

from grimdice.systems.crusade import calculate
from grimdice.systems.crusade.damage import CONDITIONS, KILLED, NONE, STUNNED
from grimdice.systems.crusade.game.combat import PUSH_DEFENDER, cached_law
from grimdice.systems.crusade.game.many import cached_joint
from grimdice.systems.crusade.game.state import READY, UNLOADED, invariant_errors
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
    marines = [at("Marine", 1, 1), at("Marine", 1, 2), at("Marine", 4, 3)]
    s = state(HALL, marines, [at("Stealer", 5, 1), at("Stealer", 8, 3)], profiles=[flamer, STEALER])
    s = s.apply(("activate", 0)).apply(("shoot", 3, "flamer"))
    law = cached_law(s.pending[4])
    k = next(k for k, ((_, _, wa, *_), _) in enumerate(law) if wa)
    s = s.apply(("attack", k))
    assert s.tokens[0].arms[0] == "lost"
    # SFT: 1 square: the bearer, then the marine adjacent; not the one 3 squares away
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
    # the models on (5,1) and (7,3) are in the 3x3 around (6,2); (8,2) is not: the target first,
    # then reading order; one chance node, each rolled at separately (reading grid_area)
    assert s.pending[1] == "many" and s.pending[6] == (1, 4, 2)
    data = json.loads(s.pending[4])
    assert [t["range"] for t in data["targets"]] == [1, 1, 1]  # 4 to 6 squares: under a foot
    law = cached_joint(s.pending[4])
    res = calculate(data)
    for n, name in enumerate(res.targets):
        for c, cond in enumerate(CONDITIONS):
            got = sum(p for (states, *_), p in law if states[n][0] == c)
            assert got == pytest.approx(res.targets[name].extra["end_state"][cond], abs=1e-12)
    # three independent rolls of 2W+1R: a fail (two dice at their maximum) on any of them
    one = (
        (1 / 6) * (1 / 6) * (5 / 6) + (1 / 6) * (5 / 6) * (1 / 6) + (5 / 6) * (1 / 6) * (1 / 6) + (1 / 6) ** 3
    )
    assert sum(p for (_, _, failed, *_), p in law if failed) == pytest.approx(1 - (1 - one) ** 3, abs=1e-12)
    s = s.apply(("attack", 0))
    assert s.tokens[0].arms[0] == UNLOADED and not s.pending


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


def test_knockback_moves_the_target_one_square_away_when_it_is_free():
    # VIII KNOCKBACK: "if you tie OR EXCEED with a ranged attack, move the target 1" away from the
    # attacker"; into a wall: "they take a stun" and (on a grid) stay where they are
    gun = {"name": "shotgun", "dice": "2W", "kind": "ranged", "effects": ["KB", "W"]}
    pusher = dict(MARINE, weapons=[gun])
    s = state(HALL, [at("Marine", 2, 1)], [at("Stealer", 5, 2)], profiles=[pusher, STEALER])
    s = s.apply(("activate", 0)).apply(("shoot", 1, "shotgun"))
    law = cached_law(s.pending[4])
    # armour 1, one hit: a 1 ties (moved), a 2 wounds (moved), 3 or 4 kill (nobody to move)
    # 2W: P(1) = 2 * 4/6 * 1/6 = 2/9; P(2) = 2 * 4/6 * 1/6 + 1/36 = 1/4
    moved = sum(p for (ds, _, _, _, push), p in law if push == PUSH_DEFENDER)
    assert moved == pytest.approx(2 / 9 + 1 / 4, abs=1e-12)
    k = next(k for k, ((ds, *_, push), _) in enumerate(law) if push and ds[0] == NONE)
    after = s.apply(("attack", k))
    assert after.tokens[1].sq == (6, 3)  # diagonally away from (2, 1)
    assert after.tokens[1].cond == NONE
    walled = state(HALL, [at("Marine", 5, 2)], [at("Stealer", 8, 2)], profiles=[pusher, STEALER])
    s = walled.apply(("activate", 0)).apply(("shoot", 1, "shotgun"))
    law = cached_law(s.pending[4])
    k = next(k for k, ((ds, *_, push), _) in enumerate(law) if push and ds[0] == STUNNED)
    after = s.apply(("attack", k))
    assert after.tokens[1].sq == (8, 2) and after.tokens[1].cond == STUNNED
    assert not invariant_errors(after)


def test_a_melee_tie_with_a_knockback_weapon_moves_the_defender():
    # VIII KNOCKBACK: "If you tie in melee ... move the target 1" away from the attacker"
    maul = {"name": "maul", "dice": "1W", "kind": "melee", "effects": ["KB", "S"]}
    s = state(
        HALL, [at("Marine", 2, 2)], [at("Stealer", 3, 2)], profiles=[dict(MARINE, weapons=[maul]), STEALER]
    )
    s = s.apply(("activate", 0)).apply(("melee", 1))
    law = cached_law(s.pending[4])
    assert any(push == PUSH_DEFENDER for (*_, push), _ in law)
    k = next(k for k, ((ds, as_, *_, push), _) in enumerate(law) if push == PUSH_DEFENDER and ds[0] == NONE)
    after = s.apply(("attack", k))
    assert after.tokens[1].sq == (4, 2) and after.tokens[0].sq == (2, 2)
    assert not invariant_errors(after)
