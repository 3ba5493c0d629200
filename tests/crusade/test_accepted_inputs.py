"""Inputs that must act as the rule text says (or be one clear error), by hand fractions:
RAPID FIRE at one target, LATCH ON in melee, RO / -R / NOR when shooting, BARRAGE's minimum range,
codes placed on the wrong side, smoke and darkness, AREA weapons at several targets."""

from fractions import Fraction as Fr

import pytest

from grimdice.errors import ScenarioError
from grimdice.systems.crusade import calculate
from tests.crusade.helpers import close, fight, gun, model, shoot

KILL_1R = Fr(2, 6)  # 1R at a 0-armour 1-hit model: a red of 2 or 3 kills (1 is a graze)


def killed(res) -> float:
    return res.extra["end_state"]["killed"]


def test_rapid_fire_at_one_target_fires_twice_within_6_inches():
    # VIII Rap "May fire weapon twice if all targets are within 6"": a first shot of 1 stuns, the
    # second then kills on 1 (stun + stun is a KO, so on 2 or 3) -> 2/6 + 4/6 * 2/6
    res = calculate(shoot([gun("1R", ["S", "Rap"])], range=4))
    assert close(res["models_destroyed"][1], KILL_1R + Fr(4, 6) * KILL_1R)
    far = calculate(shoot([gun("1R", ["S", "Rap"])], range=8))
    assert close(killed(far), KILL_1R) and any("fires once" in n for n in far.notes)
    mixed = calculate(shoot([gun("1R", ["S", "Rap"], name="a"), gun("1W", ["S"], name="b")], range=4))
    assert any("RAPID FIRE in a combined fire" in n for n in mixed.notes)


def test_latch_on_target_is_plus_one_in_melee_and_firer_is_refused():
    # IX LATCH ON: "Attacks against the target will be at +1": the same as one more point of dice
    base = {"attacker": model(name="a", melee="1R"), "defender": model(name="d", melee="1R")}
    latched = calculate(fight(base["attacker"], base["defender"], latch="target"))
    plus = calculate(fight(model(name="a", melee="1R+1"), base["defender"]))
    for state, p in plus.extra["end_state"].items():
        assert close(latched.extra["end_state"][state], p)
    # hand count: 1R+1 vs 1R, attacker wins by 2+ (kill) when a + 1 - d >= 2
    r = (0, 0, 0, 1, 2, 3)
    kill = sum(Fr(1, 36) for a in r for d in r if a + 1 - d >= 2)
    assert close(killed(latched), kill)
    with pytest.raises(ScenarioError) as e:
        calculate(fight(base["attacker"], base["defender"], latch="firer"))
    assert e.value.field == "latch"


def test_reroll_opponent_weapon_rerolls_when_shooting():
    # VIII RO "May reroll ... one of your own dice": a miss (red 0 or 1, 4/6) is re-rolled
    res = calculate(shoot([gun("1R", ["S", "RO"])]))
    assert close(killed(res), KILL_1R + Fr(4, 6) * KILL_1R)


def test_minus_reroll_removes_the_jink_and_nor_stops_the_shooters_reroll():
    jinker = model(name="bike", abilities=["JINK"])
    assert close(killed(calculate(shoot([gun("1R", ["S", "-R"])], defender=jinker))), KILL_1R)
    jinked = calculate(shoot([gun("1R", ["S"])], defender=jinker))
    assert close(killed(jinked), KILL_1R * KILL_1R)  # a kill is re-rolled by the target
    nor = model(name="t", abilities=["NOR"])
    assert close(killed(calculate(shoot([gun("1R", ["S", "R"])], defender=nor))), KILL_1R)
    minus = model(name="t", abilities=["-R"])
    assert close(killed(calculate(shoot([gun("1R", ["S", "R"])], defender=minus))), KILL_1R)


def test_barrage_minimum_range():
    with pytest.raises(ScenarioError) as e:
        calculate(shoot([gun("1R", ["S", "BARRAGE"])], range=6))
    assert e.value.field == "range" and "8" in e.value.message
    ok = calculate(shoot([gun("1R", ["S", "BARRAGE"])], range=8))
    assert close(killed(ok), Fr(1, 6))  # always at -1: only a 3 kills


def test_model_graze_code_is_its_base_melee_graze():
    # a Warp Spawn's "Melee OOOOOO W": its unarmed melee wounds on a graze (IV: unarmed stuns)
    spawn = model(name="spawn", melee="1R", abilities=["W"])
    res = calculate(fight(spawn, model(name="d", melee="1W")))
    w = (0, 0, 0, 0, 1, 2)
    r = (0, 0, 0, 1, 2, 3)
    graze = sum(Fr(1, 36) for a in r for d in w if a - d == 1)
    assert close(res.extra["end_state"]["wounded"], graze) and res.extra["end_state"]["stunned"] == 0


@pytest.mark.parametrize(
    ("where", "codes", "field"),
    [
        ("abilities", ["AP"], "attacker.abilities.0"),
        ("effects", ["S", "JINK"], "attacker.weapons.0.effects.1"),
    ],
)
def test_codes_on_the_wrong_side_are_errors(where, codes, field):
    if where == "abilities":
        sc = shoot([gun("1R")], attacker=model(name="a", abilities=codes))
    else:
        sc = shoot([gun("1R", codes)])
    with pytest.raises(ScenarioError) as e:
        calculate(sc)
    assert e.value.field == field


def test_smoke_is_cover_that_ignore_front_cover_does_not_ignore():
    # VIII IFC "Ignores cover such as barricades ... but not smoke, darkness": +1 armour in smoke
    for kind in ("smoke", "darkness"):
        res = calculate(shoot([gun("1R", ["S", "IFC"])], range=3, cover=kind))
        assert close(killed(res), Fr(1, 6))
    front = calculate(shoot([gun("1R", ["S", "IFC"])], range=3, cover="front"))
    assert close(killed(front), KILL_1R)
    # IX BIG: "can't ... take cover except from smoke/darkness"
    big = calculate(shoot([gun("1R", ["S"])], defender=model(abilities=["BIG"]), range=3, cover="front"))
    assert close(killed(big), KILL_1R)


def test_area_weapon_takes_several_targets_rolled_separately():
    sc = shoot([gun("1R", ["S", "Area 2"])], targets=[model(name="a"), model(name="b")])
    res = calculate(sc)
    assert close(res["models_destroyed"][2], KILL_1R * KILL_1R)
    assert any("area_targets" in n for n in res.notes)


def test_latch_on_target_is_plus_one_in_a_mind_war():
    # 1 red +1 against 1 red, no parry: killed when the attacker's red beats the defender's (1/3),
    # stunned (graze = stun) on equal reds (1/3)
    psyker = {"abilities": ["Psy-1"]}
    sc = fight(model(name="a", **psyker), model(name="d", **psyker), latch="target", parry="never")
    res = calculate({**sc, "action": "mindwar", "range": 3})
    assert close(killed(res), Fr(1, 3)) and close(res.extra["end_state"]["stunned"], Fr(1, 3))
