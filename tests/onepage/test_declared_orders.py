"""Declared casualty order of a joined Hero with Tough(X), Furious bonus attacks reported per model,
the pinned figures after a melee and the half-killed note; by hand fractions."""

from __future__ import annotations

from fractions import Fraction as F

import pytest

from grimdice.errors import ScenarioError
from grimdice.systems.onepage import calculate
from tests.onepage.helpers import scenario

SHOOTER = {"name": "A", "quality": 2, "equipment": ['Gun (12", A1)']}
BOYZ = {"name": "Boyz", "size": 2, "quality": 6, "cost": 20}
BOSS = {"name": "Boss", "quality": 6, "special_rules": ["Hero", "Tough(3)"], "cost": 60}
WOUND = F(5, 6) * F(5, 6)  # Q2 hits 5/6; a Q6 defender fails its block 5/6


def close(x: float, f: F) -> bool:
    return abs(x - float(f)) < 1e-12


def shot(order: str | None) -> dict:
    cond = {"distance": 6, **({"defender_casualty_order": order} if order else {})}
    return scenario("shooting", SHOOTER, BOYZ, defender_hero=BOSS, conditions=cond)


def test_hero_first_accumulates_on_the_hero():
    # Tough(X): "accumulate wounds on the unit with this special rule first until it is killed"
    r = calculate(shot("hero first"))
    assert close(r["models_destroyed"][0], F(1)) and close(r["tough_wounds"][1], WOUND)
    assert r.extra["casualty_order_declared"] == {"defender": "hero first"}
    assert r.extra["casualty_order"]["1"][0] == "Boss"


def test_regulars_first_removes_a_regular_model():
    # "... or remove regular models as casualties before starting to accumulate wounds on [it]"
    r = calculate(shot("regulars first"))
    assert close(r["models_destroyed"][1], WOUND) and close(r["tough_wounds"][0], F(1))
    assert r.extra["casualty_order"]["1"][0] == "Boyz"


def test_optimal_is_the_default_and_reported():
    r = calculate(shot(None))
    assert r.extra["casualty_order_declared"] == {"defender": "optimal"}
    assert close(r["models_destroyed"][0], F(1))  # one wound on the Boss keeps all 80 points


def test_declared_order_needs_a_joined_hero():
    sc = scenario("shooting", SHOOTER, BOYZ, conditions={"defender_casualty_order": "hero first"})
    with pytest.raises(ScenarioError) as e:
        calculate(sc)
    assert e.value.field == "conditions.defender_casualty_order"


def test_furious_bonus_attacks_are_reported_per_model():
    # Furious: "+1 Attack in melee when using Assault actions": 6 models, 2 bonus attacks each
    a = {"name": "A", "size": 6, "quality": 4, "special_rules": ["Furious"]}
    r = calculate(scenario("melee", a, {"name": "D", "size": 6, "quality": 4}))
    bonus = next(f for f in r.extra["attacker_fires"] if f["weapon"].startswith("Assault bonus"))
    assert bonus["models"] == 6 and bonus["dice"] == 12


def test_pinned_after_the_melee_counts_a_unit_already_pinned():
    # a pinned defender that is not wiped out stays pinned ("Pinned units must spend their next
    # activation being idle, which recovers them"): pinned after the melee unless destroyed or routed
    a = {"name": "A", "size": 1, "quality": 6, "equipment": ["Blade (A1)"]}
    d = {"name": "D", "size": 5, "quality": 6}
    r = calculate(scenario("melee", a, d, conditions={"defender_pinned": True}))
    assert close(r["defender_pinned"][1], 1 - F(r["defender_routed"][1]).limit_denominator(10**9))
    assert r["defender_newly_pinned"][1] == 0.0


def test_half_killed_note_says_a_wiped_out_unit_takes_no_test():
    # "Whenever half of its models are killed at once": 2 shots at 2 models; one killed is half (a
    # test), both killed leaves no unit to test
    two = {**SHOOTER, "equipment": ['Gun (12", A2)']}
    r = calculate(
        scenario("shooting", two, {"name": "D", "size": 2, "quality": 6}, conditions={"distance": 6})
    )
    note = next(n for n in r.notes if "half_killed" in n)
    assert "wiped out" in note
    assert close(r["morale_test"][1], 2 * WOUND * (1 - WOUND))


def test_other_target_declares_its_own_order():
    other = {"unit": {**BOYZ, "name": "Nobz"}, "hero": {**BOSS, "name": "Big Boss"}}
    other["conditions"] = {"casualty_order": "regulars first", "distance": 6}
    sc = scenario(
        "shooting", SHOOTER, BOYZ, defender_hero=BOSS, other_targets=[other], conditions={"distance": 6}
    )
    r = calculate(sc)
    assert r.extra["casualty_order_declared"] == {"Boyz": "optimal", "Nobz": "regulars first"}
