"""Strict scenario inputs: booleans are not numbers, numbers are not flags, names keying results differ."""

from __future__ import annotations

import pytest

from grimdice.errors import ScenarioError
from grimdice.io.scenario import validate
from grimdice.systems.base import calculate
from grimdice.systems.onepage.profiles import Army, Scenario
from tests.onepage.helpers import scenario

MARINES = {"name": "Marines", "size": 5, "quality": 3, "equipment": ["Assault Rifle"]}


def _err(data: dict) -> ScenarioError:
    with pytest.raises(ScenarioError) as e:
        calculate(data)
    return e.value


@pytest.mark.parametrize(
    ("patch", "field"),
    [
        ({"attacker": {**MARINES, "size": True}}, "attacker.size"),
        ({"attacker": {**MARINES, "quality": 3.0}}, "attacker.quality"),
        ({"attacker": {**MARINES, "quality": "3"}}, "attacker.quality"),
        ({"defender": {**MARINES, "cost": False}}, "defender.cost"),
        ({"defender": {**MARINES, "name": 7}}, "defender.name"),
        ({"defender": {**MARINES, "equipment": [3]}}, "defender.equipment.0"),
        ({"conditions": {"distance": True}}, "conditions.distance"),
        ({"conditions": {"in_range": 2.5}}, "conditions.in_range"),
        ({"conditions": {"cover": 1}}, "conditions.cover"),
        ({"conditions": {"attacker_pinned": "yes"}}, "conditions.attacker_pinned"),
    ],
)
def test_booleans_are_not_numbers_and_numbers_not_flags(patch: dict, field: str) -> None:
    data = scenario("shooting", MARINES, MARINES) | patch
    assert _err(data).field == field


def test_distance_accepts_whole_and_decimal_inches() -> None:
    for d in (12, 12.5):
        sc = validate(Scenario, scenario("shooting", MARINES, MARINES, conditions={"distance": d}))
        assert sc.conditions.distance == d


def test_variants_need_equipment_and_differ() -> None:
    empty = {**MARINES, "variants": [{"count": 1, "equipment": []}]}
    assert _err(scenario("shooting", empty, MARINES)).field == "attacker.variants.0.equipment"
    twice = {**MARINES, "variants": [{"count": 1, "equipment": ["Meltagun"]}] * 2}
    assert _err(scenario("shooting", twice, MARINES)).field == "attacker.variants"


def test_joined_hero_needs_its_own_name() -> None:
    hero = {**MARINES, "size": 1, "special_rules": ["Hero", "Tough(3)"]}
    e = _err(scenario("melee", MARINES, MARINES, defender_hero=hero))
    assert "defender_hero" in e.message


def test_army_counts_are_strict() -> None:
    data = {"kind": "army", "system": "onepage", "points": True, "units": [MARINES]}
    with pytest.raises(ScenarioError) as e:
        validate(Army, data)
    assert e.value.field == "points"
