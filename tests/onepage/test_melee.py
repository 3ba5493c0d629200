"""Melee rules by hand fractions: Strikes First, Fear, Vehicle assault hits; scenario errors."""

from __future__ import annotations

from fractions import Fraction as F

import pytest

from grimdice.errors import ScenarioError
from grimdice.systems.onepage import calculate
from tests.onepage.helpers import scenario

ONE = {"name": "A", "quality": 2, "equipment": ["Duel Blade (A1)"]}
TARGET = {"name": "D", "quality": 6, "equipment": ["Duel Blade (A1)"]}


def close(x: float, f: F) -> bool:
    return abs(x - float(f)) < 1e-12


def test_strikes_first_removes_casualties_before_return_strikes() -> None:
    # Strikes First: "their attacks with this weapon are fully resolved before those of the opponent,
    # including the removal of any casualties". 1 model Q2 (1 attack + 1 assault bonus) vs 1 model Q6.
    a = {**ONE, "equipment": ["Duel Blade (A1, Strikes First)"]}
    r = calculate(scenario("melee", a, TARGET))
    p = F(5, 6) * F(5, 6)  # one attack wounds: Q2 hit, Q6 block fails
    p_dead = 1 - (1 - p) ** 2
    # the defender (Q6, 1 attack, no bonus) strikes back only if it survived; Q2 blocks fail 1/6
    q = F(1, 6) * F(1, 6)
    assert close(r["defender_destroyed"][1], p_dead)
    assert close(r["attacker_destroyed"][1], (1 - p_dead) * q)
    # simultaneous without the rule
    r2 = calculate(scenario("melee", ONE, TARGET))
    assert close(r2["attacker_destroyed"][1], q)


def test_fear_makes_the_enemy_strike_last() -> None:
    # Fear: "must take a morale test before fighting melee ... If the morale test is failed the unit
    # strikes last". The attacker (Q6, no Fear) fails its test 5/6 and then strikes after the Fear unit.
    a = {"name": "A", "quality": 6, "equipment": ["Duel Blade (A1)"]}
    d = {"name": "D", "quality": 2, "equipment": ["Duel Blade (A1)"], "special_rules": ["Fear"]}
    r = calculate(scenario("melee", a, d))
    assert close(r.to_json()["strike_order"]["defender"], F(5, 6))
    k = F(5, 6) * F(5, 6)  # the defender's one attack kills the attacker
    p_a = 1 - (1 - F(1, 6) * F(1, 6)) ** 2  # the attacker's 2 attacks (1 + assault bonus) kill
    expected = F(5, 6) * (1 - k) * p_a + F(1, 6) * p_a
    assert close(r["defender_destroyed"][1], expected)


def test_vehicle_assault_deals_d6_automatic_hits() -> None:
    # Vehicles "deal D6 automatic hits when using Assault actions"; the target blocks them as hits.
    tank = {"name": "T", "quality": 6, "equipment": ['Cannon (24", A1)'], "special_rules": ["Vehicle"]}
    mob = {"name": "M", "size": 10, "quality": 4, "equipment": ['Cannon (24", A1)']}
    r = calculate(scenario("melee", tank, mob))
    # melee attacks: Fists/Claws 1 + 1 assault bonus at Q6 (1/6 each), plus D6 automatic hits
    assert close(F(r["attacker_hits"].mean()).limit_denominator(10**6), 2 * F(1, 6) + F(7, 2))


@pytest.mark.parametrize(
    ("extra", "field"),
    [
        ({"attacker_hero": {"name": "H", "quality": 3, "special_rules": ["Hero"]}}, "attacker_hero.joins"),
        (
            {"defender_hero": {"name": "H", "quality": 6, "special_rules": ["Tough(2)"]}},
            "defender_hero.joins",
        ),
    ],
)
def test_illegal_joins_in_scenarios(extra: dict, field: str) -> None:
    with pytest.raises(ScenarioError) as e:
        calculate(scenario("melee", ONE, TARGET, **extra))
    assert e.value.field == field


def test_bad_scenario_fields() -> None:
    with pytest.raises(ScenarioError) as e:
        calculate(scenario("shooting", {**ONE, "special_rules": ["Tough(0)"]}, TARGET))
    assert e.value.field == "attacker.special_rules.0"
    with pytest.raises(ScenarioError) as e:
        calculate(scenario("shooting", {**ONE, "equipment": ["Ray Gun"]}, TARGET))
    assert e.value.field == "attacker.equipment.0"
    with pytest.raises(ScenarioError) as e:
        calculate(scenario("shooting", ONE, TARGET, conditions={"facing": "top"}))
    assert e.value.field == "conditions.facing"


def test_absurd_melee_is_refused_with_a_clear_error() -> None:
    big = {
        "name": "Horde",
        "size": 100,
        "quality": 4,
        "equipment": ["Claws (A50)", "Fangs (A50)", "Horns (A50)"],
    }
    with pytest.raises(ScenarioError, match="use --simulate"):
        calculate(scenario("melee", big, big))
