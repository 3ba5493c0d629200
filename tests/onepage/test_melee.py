"""Melee rules by hand fractions: Strikes First, Fear, Vehicle assault hits; scenario errors."""

from __future__ import annotations

import math
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
    # The rule is the weapon's: the Blade's attack goes first; the assault bonus attack (no weapon) is
    # resolved with the defender's return strike, at once.
    a = {**ONE, "equipment": ["Duel Blade (A1, Strikes First)"]}
    r = calculate(scenario("melee", a, TARGET))
    p = F(5, 6) * F(5, 6)  # one attack wounds: Q2 hit, Q6 block fails
    q = F(1, 6) * F(1, 6)  # the defender's one attack wounds: Q6 hit, Q2 block fails
    assert close(r["defender_destroyed"][1], 1 - (1 - p) ** 2)
    # the defender strikes back only if it survived the Blade (the bonus attack lands at the same time)
    assert close(r["attacker_destroyed"][1], (1 - p) * q)
    assert r.to_json()["strike_order"] == {"mixed": 1.0}
    # simultaneous without the rule
    r2 = calculate(scenario("melee", ONE, TARGET))
    assert close(r2["attacker_destroyed"][1], q)
    # the rule on the unit: every attack (the bonus too) before the return strike
    a3 = {**ONE, "special_rules": ["Strikes First"]}
    r3 = calculate(scenario("melee", a3, TARGET))
    assert close(r3["attacker_destroyed"][1], (1 - p) ** 2 * q)
    assert r3.to_json()["strike_order"] == {"attacker": 1.0}


def test_strikes_last_weapon_beside_a_plain_weapon() -> None:
    # Strikes Last: "their attacks with this weapon are only resolved after those of the opponent have
    # been fully resolved, including the removal of any casualties". The defender (1 model Q2, Tough(2))
    # strikes with a Hand Weapon (2 attacks, at once with the attacker) and a Maul (A1, Strikes Last)
    # after. The attacker (1 model Q6, Fists 1 + bonus 1) strikes at once with the Hand Weapon.
    d = {"name": "D", "quality": 2, "equipment": ["Hand Weapon", "Maul (A1, Strikes Last)"]}
    a = {"name": "A", "quality": 6, "special_rules": ["Tough(2)"]}
    r = calculate(scenario("melee", a, d))
    p = F(5, 6) * F(5, 6)  # a Q2 attack wounds the Q6 attacker
    q = F(1, 6) * F(1, 6)  # a Q6 attack wounds the Q2 defender
    # tier 0: attacker 2 attacks at D (1 wound kills D); D 2 attacks at A (Tough(2))
    d_dies = 1 - (1 - q) ** 2
    w0 = {k: F(math.comb(2, k)) * p**k * (1 - p) ** (2 - k) for k in range(3)}
    # tier -1: the Maul strikes only if D survived and A is not dead yet (1 wound on A: the Maul may kill)
    a_dead = w0[2] + w0[1] * (1 - d_dies) * p
    assert close(r["attacker_destroyed"][1], a_dead)
    assert close(r["defender_destroyed"][1], d_dies)
    assert r.to_json()["strike_order"] == {"mixed": 1.0}
    # the defender's hits carried jointly over both tiers: mean = 2 * 5/6 + P(Maul swings) * 5/6
    swings = (1 - d_dies) * (1 - w0[2])
    assert close(F(r["defender_hits"].mean()).limit_denominator(10**9), 2 * F(5, 6) + swings * F(5, 6))


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


def test_rending_in_melee_is_a_marked_reading() -> None:
    # Rending: "Whenever a unit firing a weapon with this special rule hits on a roll of 6 it causes one
    # automatic wound" - "firing": grimdice applies it to melee weapons too and says so.
    a = {**ONE, "quality": 4, "equipment": ["Claw (A1, Rending)"]}
    d = {**TARGET, "quality": 2}
    r = calculate(scenario("melee", a, d))
    assert any("rending" in n for n in r.notes)
    # claw: hit on 4+; a 6 wounds automatically (1/6), a 4-5 wounds if the Q2 block fails (2/6 x 1/6);
    # the assault bonus attack carries no rule: 3/6 x 1/6
    claw, bonus = F(1, 6) + F(2, 6) * F(1, 6), F(3, 6) * F(1, 6)
    assert close(r["attacker_wounds"].mean(), claw + bonus)
    plain = calculate(scenario("melee", ONE, TARGET))
    assert not any("rending" in n for n in plain.notes)
