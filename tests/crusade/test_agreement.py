"""Exact vs Monte Carlo on shooting scenarios combining rules (tests/agreement.py bound)."""

from grimdice.systems.crusade import calculate
from tests.agreement import assert_agree
from tests.crusade.helpers import gun, model, shoot

KEYS = ("damage", "models_destroyed", "condition", "hits_left", "fail")


def test_combined_fire_cover_ap_forcefield_knockback():
    sc = shoot(
        [gun("2W+1R", ["J", "S", "AP", "KB"], name="a"), gun("1W+1R+1", ["X", "W", "AP", "KB"], name="b")],
        model(armour=1, hits=2, abilities=["+F"], condition="stunned"),
        range=13,
        cover="front",
        knockback_into="obstacle",
    )
    ex, mc = calculate(sc), calculate(sc, simulate=6000, seed=11)
    assert_agree({k: ex[k] for k in (*KEYS, "self_damage")}, {k: mc[k] for k in (*KEYS, "self_damage")}, 6000)


def test_rerolls_and_jink():
    sc = shoot([gun("2W+1R", ["R", "S", "M"])], model(armour=1, abilities=["JINK"]), range=4)
    ex, mc = calculate(sc), calculate(sc, simulate=6000, seed=5)
    assert_agree({k: ex[k] for k in KEYS}, {k: mc[k] for k in KEYS}, 6000)


def test_mind_war_with_hoods_and_parry():
    sc = {
        "system": "crusade",
        "action": "mindwar",
        "range": 13,
        "attacker": model(abilities=["Psy-2", "HOOD"]),
        "defender": model(hits=2, abilities=["Psy-1", "HOOD"]),
    }
    ex, mc = calculate(sc), calculate(sc, simulate=4000, seed=2)
    keys = ("damage", "condition", "hits_left", "attacker_condition")
    assert_agree({k: ex[k] for k in keys}, {k: mc[k] for k in keys}, 4000)


def test_templates_line_flamer_rapid():
    for code, rng in (("LINE", 14), ("FT", 3), ("Rap", 5)):
        targets = [
            model(name="a", armour=1, hits=2),
            model(name="b", abilities=["UNDEAD"], condition="stunned"),
        ]
        sc = shoot([gun("2W+1R", ["W", code])], range=rng, cover="front")
        sc["targets"] = targets
        ex, mc = calculate(sc), calculate(sc, simulate=3000, seed=9)
        keys = ("damage", "models_destroyed", "fail")
        assert_agree({k: ex[k] for k in keys}, {k: mc[k] for k in keys}, 3000)


def test_jink_needs_an_unstunned_driver():
    sc = shoot([gun("1W", ["S"])], model(abilities=["JINK"], condition="stunned", hits=2))
    assert calculate(sc).extra["choices"]["defender_jinks"] == 0
    sc = shoot([gun("1W", ["S"])], model(abilities=["JINK"], hits=2))
    # the vehicle re-rolls a white 2 or 1 (P 2/6); rerolling a 1 risks a 2, so it re-rolls the 2 only
    assert calculate(sc).extra["choices"]["defender_jinks"] > 0


def test_melee_both_sides_rerolling_force_fields_parry_and_pull_back():
    """The vectorised Monte Carlo (policy looked up per distinct state) against the exact game,
    with every phase in play: parry, the attacker's RO, the defender's R, both force fields."""
    att = model(melee="1W+1R", abilities=["RO", "+F"], weapons=[gun("1R", ["W", "KB"], "melee", "sword")])
    dfd = model(melee="1W+1R", hits=2, abilities=["+F", "R"], weapons=[gun("1W", ["S", "M"], "melee", "axe")])
    sc = {
        "system": "crusade",
        "action": "melee",
        "attacker": att,
        "defender": dfd,
        "knockback_into": "obstacle",
    }
    ex, mc = calculate(sc), calculate(sc, simulate=8000, seed=21)
    keys = ("damage", "condition", "hits_left", "attacker_condition", "fail", "defender_fail")
    assert_agree({k: ex[k] for k in keys}, {k: mc[k] for k in keys}, 8000)
    for side in ("attacker_rerolls", "defender_rerolls"):
        for kind, p in ex.extra["choices"][side].items():
            assert abs(mc.extra["choices"][side][kind] - p) <= 5 * (p * (1 - p) / 8000) ** 0.5 + 2 / 8000
    p = ex.extra["choices"]["defender_parries"]
    assert abs(mc.extra["choices"]["defender_parries"] - p) <= 5 * (p * (1 - p) / 8000) ** 0.5 + 2 / 8000
