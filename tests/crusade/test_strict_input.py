"""Strict scenario fields: booleans are not numbers, numbers are not text, names that key results
are unique, and every refusal is a one-line ScenarioError naming the field."""

from __future__ import annotations

import pytest

from grimdice.errors import ScenarioError

from .helpers import gun, model, run, shoot


def _refused(sc, field: str) -> None:
    with pytest.raises(ScenarioError) as e:
        run(sc)
    assert field in str(e.value) and "\n" not in str(e.value)


@pytest.mark.parametrize(
    "where, value",
    [
        ("armour", True),
        ("hits", False),
        ("hits", 1.0),
        ("hits", "1"),
        ("hits_left", True),
    ],
)
def test_model_counts_are_whole_numbers_not_booleans_or_text(where, value):
    _refused(shoot([gun()], defender=model(**{where: value})), f"defender.{where}")


def test_a_boolean_is_not_dice_and_a_number_is_not_a_name():
    _refused(shoot([gun(dice=True)]), "attacker.weapons.0.dice")  # type: ignore[arg-type]
    _refused(shoot([{**gun(), "name": 3}]), "attacker.weapons.0.name")
    _refused(shoot([gun(effects=[1])]), "attacker.weapons.0.effects.0")


@pytest.mark.parametrize("field, value", [("range", True), ("range", "12"), ("moved", 1), ("awkward", "yes")])
def test_scenario_numbers_and_flags_are_strict(field, value):
    _refused(shoot([gun()], **{field: value}), field)


def test_opponent_number_is_a_whole_number():
    _refused(shoot([gun()], opponent_number=2.0), "opponent_number")


def test_a_whole_range_is_a_number():
    assert run(shoot([gun()], range=12)).extra["resolved"]["range_penalty"] == 1


def test_two_weapons_of_one_name_are_refused():
    _refused(shoot([gun(name="bolter"), gun(name="bolter")]), "attacker.weapons")


def test_two_targets_of_one_name_are_refused():
    line = gun("1W", ["Line"])
    _refused(shoot([line], targets=[model(name="a"), model(name="a")]), "targets")


def test_an_empty_list_of_weapon_names_is_refused():
    sc = shoot([gun()])
    sc["weapons"] = []
    _refused(sc, "weapons")
