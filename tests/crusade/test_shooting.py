"""Shooting (rules-crusade II, III, VIII, IX), each clause against hand fractions."""

from fractions import Fraction as Fr
from itertools import product

import pytest

from tests.crusade.helpers import close, end, gun, model, run, shoot

W = (0, 0, 0, 0, 1, 2)
R = (0, 0, 0, 1, 2, 3)


def test_graze_and_kill_on_one_hit_target():
    res = run(shoot([gun("1W", ["S"])]))
    assert close(end(res, "stunned"), Fr(1, 6)) and close(end(res, "killed"), Fr(1, 6))
    assert close(res["models_destroyed"].mean(), Fr(1, 6))


def test_range_penalty_per_full_foot_and_ignore_range():
    res = run(shoot([gun("1R", ["W"])], range=12))  # II: -1 at 12"
    assert close(end(res, "wounded"), Fr(1, 6)) and close(end(res, "killed"), Fr(1, 6))
    res = run(shoot([gun("1R", ["W"])], range=11.9))  # under 12": full strength
    assert close(end(res, "killed"), Fr(2, 6))
    res = run(shoot([gun("1R", ["W", "IR"])], range=30))
    assert close(end(res, "killed"), Fr(2, 6))
    res = run(shoot([gun("1R", ["W"])], attacker=model(abilities=["SNIPER"]), range=30))
    assert close(end(res, "killed"), Fr(2, 6))
    res = run(shoot([gun("1R", ["W"])], attacker=model(abilities=["SNIPER"]), range=30, moved=True))
    assert close(end(res, "wounded"), Fr(1, 6)) and close(end(res, "killed"), 0)  # 30": -2


def test_cover_adds_one_unless_within_an_inch_or_ignored():
    d = model(armour=1)
    assert close(end(run(shoot([gun("1R")], d, cover="front", range=5)), "killed"), 0)  # 3 - 2 = 1: graze
    assert close(end(run(shoot([gun("1R")], d, cover="front", range=0.5)), "killed"), Fr(1, 6))
    assert close(end(run(shoot([gun("1R", ["IFC"])], d, cover="front", range=5)), "killed"), Fr(1, 6))
    assert close(end(run(shoot([gun("1R", ["IFC"])], d, cover="full", range=5)), "killed"), 0)
    assert close(end(run(shoot([gun("1R", ["BURN"])], d, cover="full", range=5)), "killed"), Fr(1, 6))
    assert close(end(run(shoot([gun("1R", ["AP"])], d, range=5)), "killed"), Fr(2, 6))
    assert close(end(run(shoot([gun("1R", ["IA"])], d, cover="full", range=5)), "killed"), Fr(2, 6))


def test_condition_combinations():
    stunned = model(condition="stunned")
    assert close(end(run(shoot([gun("1W", ["S"])], stunned)), "ko"), Fr(1, 6))  # Stun + Stun = KO
    wounded = model(condition="wounded")
    assert close(end(run(shoot([gun("1W", ["W"])], wounded)), "killed"), Fr(2, 6))  # Wound + Wound
    # Stun + Wound: the attacker chooses the kill
    assert close(end(run(shoot([gun("1W", ["S"])], wounded)), "killed"), Fr(2, 6))
    undead = model(abilities=["UNDEAD"])
    assert close(end(run(shoot([gun("1W", ["W"])], undead)), "unharmed"), Fr(5, 6))
    assert close(end(run(shoot([gun("1W", ["S"])], model(abilities=["IS"]))), "stunned"), 0)


def test_zero_hit_target_dies_on_a_graze():
    res = run(shoot([gun("1W", ["S"])], model(hits=0)))
    assert close(end(res, "killed"), Fr(2, 6))


def test_multi_hit_target_removes_hits():
    res = run(shoot([gun("2R")], model(hits=3)))
    # d = sum of 2 reds; d <= 3 leaves 3 - d hits, d > 3 kills (reading multi_hit)
    law = {}
    for a, b in product(R, R):
        law[a + b] = law.get(a + b, 0) + Fr(1, 36)
    assert close(end(res, "killed"), sum(p for d, p in law.items() if d > 3))
    assert close(res["hits_left"][1], law[2])


def test_force_field_takes_a_red_die_off():
    res = run(shoot([gun("1R", ["S"])], model(abilities=["+F"])))
    kill = sum(Fr(1, 36) for a, b in product(R, R) if a - b >= 2)
    assert close(end(res, "killed"), kill)


def test_knockback_into_obstacle_stuns_nsb_ignores():
    d = model(armour=1)
    res = run(shoot([gun("1R", ["KB", "W"])], d, knockback_into="obstacle"))
    # roll 1 ties armour 1: knocked back into an obstacle: stunned; roll 2: wound, then KB stun -> kill
    assert close(end(res, "stunned"), Fr(1, 6)) and close(end(res, "killed"), Fr(2, 6))
    res = run(shoot([gun("1R", ["KB", "W"])], model(armour=1, abilities=["NSB"]), knockback_into="obstacle"))
    assert close(end(res, "stunned"), 0)


def test_reroll_one_attack_die_hand():
    # VIII R on 1W vs a 1-hit target: the attacker maximises P(kill) first, so he re-rolls a 0 and a 1
    # P(kill) = 1/6 + (4/6 + 1/6) * 1/6; P(stun) = (4/6 + 1/6) * 1/6
    res = run(shoot([gun("1W", ["R", "S"])]))
    assert close(end(res, "killed"), Fr(11, 36)) and close(end(res, "stunned"), Fr(5, 36))


def test_reroll_against_brute_force():
    # an independent enumeration of every face and every re-roll choice (1W+1R vs armour 1, kill on 2+)
    def value(total):
        d = max(0, total - 1)
        return (d >= 2, d >= 1)

    p_kill = Fr(0)
    for w, r in product(W, R):
        options = [[(w + r, Fr(1))]]
        options.append([(x + r, Fr(1, 6)) for x in W])
        options.append([(w + x, Fr(1, 6)) for x in R])
        scored = [(sum(p * value(t)[0] for t, p in o), sum(p * value(t)[1] for t, p in o)) for o in options]
        p_kill += Fr(1, 36) * max(scored)[0]
    res = run(shoot([gun("1W+1R", ["R", "S"])], model(armour=1)))
    assert close(end(res, "killed"), p_kill)


def test_fails_drawn_among_weapons():
    res = run(shoot([gun("1W+1R", ["J"], name="a"), gun("1R", ["X"], name="b")], model(armour=1)))
    p = 1 - Fr(5, 6) ** 3 - 3 * Fr(1, 6) * Fr(5, 6) ** 2
    fe = res.extra["fail_effects"]
    assert (
        close(fe["p_fail"], p)
        and close(fe["effects"]["jam"], p / 2)
        and close(fe["effects"]["explode"], p / 2)
    )
    # VIII EXPLODE: the red die rolled against the bearer's armour 0
    sd = res["self_damage"]
    assert close(sd[3], p / 2 * Fr(1, 6))


def test_plague_wounds_on_a_ranged_tie():
    res = run(shoot([gun("1W", ["POISON", "S"])], model(armour=1)))
    assert close(end(res, "wounded"), Fr(1, 6)) and close(end(res, "stunned"), Fr(1, 6))


def test_json_contract():
    out = run(shoot([gun("2W+1R", ["J", "S"])], model(armour=1), range=14)).to_json()
    for k in ("damage", "models_destroyed", "condition", "hits_left", "fail"):
        assert sum(out[k]["pmf"]) == pytest.approx(1)


def test_volatile_explodes_when_killed_by_more_than_a_graze():
    d = model(hits=1, weapons=[gun("1W", ["V"], name="plasma")])
    res = run(shoot([gun("1R", ["K"])], d))
    # 1 point: a graze kill (no explosion); 2+ points: killed by more than a graze
    assert close(res.extra["defender_volatile_explodes"], Fr(2, 6))
    assert close(end(res, "killed"), Fr(3, 6))


def test_buildings_and_vehicles_take_penetrating_and_area_bonus():
    bunker = model(kind="building", armour=2, hits=10)
    assert close(run(shoot([gun("1R")], bunker))["damage"][1], Fr(1, 6))
    assert close(run(shoot([gun("1R", ["+P"])], bunker))["damage"][1], Fr(1, 6))  # 3 + 1 - 2 = 2
    assert close(run(shoot([gun("1R", ["+P"])], bunker))["damage"][2], Fr(1, 6))
    assert close(run(shoot([gun("1R", ["+P", "LINE"])], bunker))["damage"][3], Fr(1, 6))  # line +1 too
    truck = model(kind="vehicle", armour=2, hits=4)
    assert close(run(shoot([gun("1R", ["+P", "LINE"])], truck))["damage"][2], Fr(1, 6))  # no area bonus
    assert close(run(shoot([gun("1R", ["+P"])], model(armour=2)))["damage"][1], Fr(1, 6))  # models: none


def test_unknown_code_and_absurd_sizes_name_the_field():
    from grimdice.errors import ScenarioError

    with pytest.raises(ScenarioError) as e:
        run(shoot([gun("1R", ["LASER"])]))
    assert e.value.field == "attacker.weapons.0.effects.0" and "JAM" in str(e.value)
    with pytest.raises(ScenarioError) as e:
        run(shoot([gun("25W")]))
    assert e.value.field == "attacker.weapons.0.dice"
    with pytest.raises(ScenarioError) as e:
        run(shoot([gun("1R")], model(hits=99)))
    assert e.value.field == "defender.hits"
    with pytest.raises(ScenarioError) as e:
        run(shoot([gun("1R")], model(hits=1, hits_left=2)))
    assert e.value.field == "defender.hits_left"


def test_graze_choice_among_combined_weapons_is_reported():
    res = run(shoot([gun("1W", ["S"], name="a"), gun("1W", ["W"], name="b")]))
    assert res.extra["resolved"]["graze"] == "wound"
    # a wounded target: a stun kills it (Stun + Wound, the attacker chooses the kill), KO only KOs
    res = run(shoot([gun("1W", ["S", "KO"], name="a")], model(condition="wounded")))
    assert res.extra["resolved"]["graze"] == "stun"


def test_barrage_scope_small_latch():
    d = model(armour=1)
    # BARRAGE: always at least -1 for range, ignores front cover
    assert close(end(run(shoot([gun("1R", ["BARRAGE"])], d, range=9, cover="front")), "killed"), 0)
    assert close(end(run(shoot([gun("1R", ["BARRAGE"])], d, range=9, cover="front")), "stunned"), Fr(1, 6))
    # SCOPE: ignores cover only if the firer did not move
    assert close(end(run(shoot([gun("1R", ["SCOPE"])], d, range=3, cover="full")), "killed"), Fr(1, 6))
    assert close(end(run(shoot([gun("1R", ["SCOPE"])], d, range=3, cover="full", moved=True)), "killed"), 0)
    # SMALL: always front cover (beyond an inch)
    assert close(end(run(shoot([gun("1R")], model(armour=1, abilities=["SMALL"]), range=3)), "killed"), 0)
    assert close(end(run(shoot([gun("1R")], d, range=3, latch="target")), "killed"), Fr(2, 6))
    assert close(end(run(shoot([gun("1R")], d, range=3, latch="firer")), "killed"), 0)


@pytest.mark.parametrize("code", ["BREAK", "STICK", "M"])
def test_every_fail_effect_is_reported(code):
    res = run(shoot([gun("2W", [code])]))
    key = {"BREAK": "break", "STICK": "stick", "M": "malfunction"}[code]
    assert close(res.extra["fail_effects"]["effects"][key], Fr(1, 36))


def test_animal_and_stupid_cannot_use_weapons():
    from grimdice.errors import ScenarioError

    with pytest.raises(ScenarioError) as e:
        run(shoot([gun("1R")], attacker=model(abilities=["ANIMAL"])))
    assert e.value.field == "attacker.weapons.0"
    with pytest.raises(ScenarioError) as e:
        run(shoot([gun("1R")], attacker=model(abilities=["STUPID"])))
    assert e.value.field == "attacker.weapons.0"


def test_zero_roll_never_ties_zero_armour_and_undead_cannot_be_koed():
    res = run(shoot([gun("1W", ["POISON", "S"])]))
    assert close(end(res, "wounded"), 0) and close(res.extra["p_tie"], 0)
    res = run(shoot([gun("1W", ["S"])], model(condition="stunned", abilities=["UNDEAD"])))
    assert close(end(res, "ko"), 0) and close(end(res, "stunned"), Fr(5, 6))


def test_grenades_ignore_front_cover_and_armoured_buildings_keep_cover():
    d = model(armour=1)
    assert close(end(run(shoot([gun("1R", kind="grenade")], d, cover="front", range=5)), "killed"), Fr(1, 6))
    assert close(end(run(shoot([gun("1R", kind="grenade")], d, cover="full", range=5)), "killed"), 0)
    assert close(end(run(shoot([gun("1R", ["BURN"])], d, cover="armoured", range=5)), "killed"), 0)
