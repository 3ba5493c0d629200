"""Wound allocation to the closest model, mixed profiles, Instant Death, and the melee sequence."""

from grimdice.systems.heresy.profiles import Scenario
from grimdice.systems.heresy.units import initiative_order, resolve
from tests.heresy.helpers import F, approx, melee, model, pmf, run, scenario, weapon


def test_wounds_go_to_the_closest_model_first():
    # the closest model has no save, the one behind a 2+: one wound is never saved
    r = run(weapon(rules=["Template"]), [model(name="near"), model(name="far", Sv=2)])
    assert r["unsaved"][1] == approx(F(1, 2))
    assert r["models_destroyed"][1] == approx(F(1, 2))


def test_a_wounded_model_keeps_taking_wounds_until_removed():
    # [W2, W1]: k unsaved wounds destroy 0, 0, 1, 2 models
    r = run(weapon(rules=["Template"], hits=3), [model(name="near", W=2), model(name="far", W=1)])
    assert pmf(r["models_destroyed"], 2) == approx([F(1, 8) + F(3, 8), F(3, 8), F(1, 8)])
    assert pmf(r["damage"], 3) == approx([F(1, 8), F(3, 8), F(3, 8), F(1, 8)])


def test_mixed_saves_follow_the_allocation_order():
    # closest: Sv 3 (fails 1/3); next: no save. Two automatic hits that always wound (Fleshbane
    # 2+ on a 2..6): per wound 5/6
    r = run(weapon(rules=["Template", "Fleshbane"], hits=2), [model(name="near", Sv=3), model(name="far")])
    w = F(5, 6)
    p_first = w * F(1, 3)  # a wound that kills the 3+ model
    # both die: the first wound kills it (then the second wound hits the unsaved model), or the
    # first is saved/fails to wound and... only two wounds, so both must be unsaved in order
    assert r["models_destroyed"][2] == approx(p_first * w)
    assert r["models_destroyed"][0] == approx((1 - p_first) ** 2)


def test_instant_death_removes_a_multi_wound_model_outright():
    r = run(weapon(S=8, rules=["Template"], hits=2), [model(name="near", W=3), model(name="far", W=3)])
    assert pmf(r["models_destroyed"], 2) == approx([F(1, 36), F(10, 36), F(25, 36)])
    assert r["damage"][6] == approx(F(25, 36))


def test_wounds_after_the_unit_is_destroyed_are_not_allocated():
    r = run(weapon(S=10, rules=["Template"], hits=3), model(Sv=4))
    assert r["unsaved"].max == 1
    assert r["models_destroyed"][1] == approx(1 - (1 - F(5, 6) * F(1, 2)) ** 3)


def test_toughness_of_the_majority_for_the_wound_roll():
    r = run(weapon(rules=["Template"]), [model(name="big", T=6), model(name="small", T=3, count=2)])
    assert r["wounds"][1] == approx(F(4, 6))  # S4 v T3 (two of three models)


def test_charge_adds_an_attack_and_strength_is_relative_to_the_user():
    r = run(melee(), model(), shooter={"A": 2}, conditions={"charged": True})
    assert r["hits"].max == 3
    for s, p in (("user", F(1, 2)), ("+1", F(2, 3)), ("x2", F(5, 6))):
        r = run(melee(S=s), model(), shooter={"A": 1, "S": 4})
        assert r["wounds"][1] == approx(F(1, 2) * p), s


def test_reaping_blow_adds_attacks_with_several_enemies_in_contact():
    r = run(melee(rules=["Reaping Blow (2)"]), model(count=5), shooter={"A": 1})
    assert r["hits"].max == 1
    r = run(
        melee(rules=["Reaping Blow (2)"]),
        model(count=5),
        shooter={"A": 1},
        conditions={"multiple_enemies_in_contact": True},
    )
    assert r["hits"].max == 3


def test_initiative_order_of_strike_groups():
    sc = scenario(
        [melee(name="fist", rules=["Unwieldy"]), melee(name="sword"), weapon(name="pistol")],
        model(),
        shooter={"I": 5},
    )
    sc["attacker"]["models"].append({"name": "slow", "I": 2, "weapons": [melee(name="axe")]})
    _, groups = resolve(Scenario.model_validate(sc))
    order = [(g.name, g.initiative) for g in initiative_order(groups)]
    assert order == [
        ("shooter: pistol", 5),
        ("shooter: sword", 5),
        ("slow: axe", 2),
        ("shooter: fist", 1),
    ]
    r = run([melee(name="fist", rules=["Unwieldy"]), melee(name="sword")], model(), shooter={"I": 5})
    assert r.extra["initiative_steps"] == [
        {"initiative": 5, "groups": ["sword"]},
        {"initiative": 1, "groups": ["fist"]},
    ]


def test_strike_groups_in_initiative_order_decide_who_takes_the_wounds():
    # I5 sword kills the first model; the I1 fist then strikes the next one, never the reverse
    r = run(
        [melee(name="fist", S=10, AP=2, rules=["Unwieldy"]), melee(name="sword", S=10)],
        [model(name="a", Sv=2), model(name="b")],
        shooter={"I": 5, "A": 1, "WS": 10},
    )
    hit_w = F(4, 6) * F(5, 6)
    # sword (AP -) v the 2+ model first: unsaved 1/6; only then the AP2 fist can reach b
    # (fist first would give hit_w * hit_w)
    assert r["models_destroyed"][2] == approx(hit_w * F(1, 6) * hit_w)
