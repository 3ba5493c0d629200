"""Placement and once-per-game weapons in calculation scenarios."""

from __future__ import annotations

from fractions import Fraction

from grimdice.systems.base import calculate
from tests.agreement import assert_agree
from tests.onepage.helpers import scenario
from tests.onepage.test_choices import CLAWS, DUELIST

MARINES = {"name": "Tactical Marines", "size": 10, "quality": 3, "equipment": ["Hand Weapon"]}
GUARDIANS = {"name": "Eldar Guardians", "size": 10, "quality": 4}


def test_only_models_within_two_inches_strike_the_texts_example() -> None:
    # "Three marines armed with Hand Weapons (Attack 2) are within range of the guardians, and they
    # receive 1 bonus Attack each for assaulting, which means the unit has a total of 9 attacks"
    r = calculate(scenario("melee", MARINES, GUARDIANS, conditions={"attacker_strikers": 3}))
    j = r.to_json()
    assert sum(f["dice"] for f in j["attacker_fires"]) == 9
    assert abs(r.stages["attacker_hits"].mean() - 9 * 4 / 6) < 1e-12  # Quality 3+: 4 faces of 6


def test_placed_strikers_are_lost_to_casualties_and_the_defender_keeps_the_best() -> None:
    # One Pack model within 2" (the Claws listed first). The Duelist strikes first: W ~ Bin(2, 1/4).
    # W=0 or 1: the Claws model strikes (with one wound the Hand Weapon model is removed): 2/3.
    sc = scenario("melee", DUELIST, CLAWS, conditions={"attacker_higher": True, "defender_strikers": 1})
    r = calculate(sc)
    want = (Fraction(9, 16) + Fraction(6, 16)) * Fraction(2, 3)
    assert abs(r.stages["defender_wounds"].mean() - float(want)) < 1e-12
    n = 40_000
    assert_agree(r.stages, calculate(sc, simulate=n, seed=3).stages, n)


def test_limited_weapons_fire_once_per_game() -> None:
    # Limited: "Weapons with this special rule may only be fired once per game."
    gunner = {"name": "Gunner", "size": 1, "quality": 4, "equipment": ['Missile (24", A6, Limited)', "Rifle"]}
    first = calculate(scenario("shooting", gunner, GUARDIANS, conditions={"distance": 12}))
    assert first.to_json()["fired"][0]["weapon"].startswith("Missile")
    again = calculate(
        scenario("shooting", gunner, GUARDIANS, conditions={"distance": 12, "limited_fired": True})
    )
    assert [f["weapon"].split(" (")[0] for f in again.to_json()["fired"]] == ["Rifle"]
    # Rifle: 1 attack, Quality 4+ hits, Quality 4+ blocks: 1/4 wound
    assert abs(again.stages["wounds"].mean() - 0.25) < 1e-12


def _keys(r) -> set[str]:  # type: ignore[no-untyped-def]
    from grimdice.systems.onepage.rules import RULES

    return {
        k
        for k in (
            "casualty_order",
            "one_weapon",
            "half_killed",
            "x_rule",
            "vehicle_table",
            "strike_tiers",
            "joined_rules",
        )
        if RULES.note(k) in r.notes
    }


def test_notes_only_on_results_that_used_the_reading() -> None:
    rifle = {"name": "Rifles", "size": 1, "quality": 4, "equipment": ["Rifle"]}
    # one Rifle attack at 10 Guardians: no choice for either side, no morale test possible
    plain = calculate(scenario("shooting", rifle, GUARDIANS))
    assert _keys(plain) == set()
    # a Meltagun at a unit with a joined Tough(3) Hero: removal choice, "x" rule, morale possible
    boss = {"name": "Boss", "quality": 4, "special_rules": ["Hero", "Tough(3)"]}
    melta = {"name": "Melta", "size": 1, "quality": 4, "equipment": ["Meltagun"]}
    small = {"name": "Guard", "size": 1, "quality": 4}
    r = calculate(scenario("shooting", melta, small, defender_hero=boss, conditions={"distance": 6}))
    assert _keys(r) == {"casualty_order", "x_rule", "half_killed", "joined_rules"}
    walker = {"name": "Walker", "quality": 3, "equipment": ["Dreadnought Fist"], "special_rules": ["Walker"]}
    m = calculate(scenario("melee", walker, small))
    assert "vehicle_table" in _keys(m) and "strike_tiers" not in _keys(m)


def test_melee_notes_only_when_the_reading_matters() -> None:
    from grimdice.systems.onepage.rules import RULES

    def has(r, key: str) -> bool:  # type: ignore[no-untyped-def]
        return RULES.note(key) in r.notes

    plain = calculate(scenario("melee", MARINES, GUARDIANS))
    # no melee weapon rules: bonus attacks are like the others; 30 attacks can exceed 10 models
    assert not has(plain, "assault_bonus") and has(plain, "melee_wounds")
    rending = {**MARINES, "equipment": ["Claws (A2, Rending)"]}
    assert has(calculate(scenario("melee", rending, GUARDIANS)), "assault_bonus")
    tough = {"name": "Champion", "quality": 4, "equipment": ["Blade (A1)"], "special_rules": ["Tough(6)"]}
    few = {"name": "Guardians", "size": 3, "quality": 4, "special_rules": ["Tough(3)"]}
    # 2 attacks against 9 wounds of capacity, 3 attacks against 6: no wound can be lost
    assert not has(calculate(scenario("melee", tough, few)), "melee_wounds")
