"""One Page scenarios that would be resolved without a word are refused, naming the field: a rule
given twice with two values, weapon rules among a unit's rules, a shooting in which nothing can
fire, fewer starting models than the unit has, a Hero joining a unit its ``joins`` does not name."""

from __future__ import annotations

import copy
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
import yaml

from grimdice.errors import ScenarioError
from grimdice.systems.base import calculate
from grimdice.systems.onepage.game import army_from_mapping

EXAMPLE = yaml.safe_load(Path("examples/onepage-shooting.yaml").read_text())
ORKS = yaml.safe_load(Path("examples/armies/onepage-orks-army.yaml").read_text())


def changed(change: Callable[[dict[str, Any]], Any]) -> dict[str, Any]:
    sc = copy.deepcopy(EXAMPLE)
    change(sc)
    return sc


def add_rule(side: str, rule: str) -> Callable[[dict[str, Any]], Any]:
    return lambda sc: sc[side]["special_rules"].append(rule)


@pytest.mark.parametrize(
    ("change", "field", "words"),
    [
        (add_rule("defender_hero", "Tough(6)"), "defender_hero.special_rules.3", "repeats 'Tough(3)'"),
        (add_rule("defender", "Poison"), "defender.special_rules.1", "weapon rule"),
        (add_rule("defender", "Rending"), "defender.special_rules.1", "weapon rule"),
        (add_rule("attacker", "Piercing"), "attacker.special_rules.1", "weapon rule"),
        (lambda sc: sc["conditions"].update(distance=100), "conditions.distance", 'longest: 24"'),
        (
            lambda sc: sc["attacker"].update(equipment=["Hand Weapon"], variants=[]),
            "attacker.equipment",
            "no ranged weapon",
        ),
        (lambda sc: sc["conditions"].update(in_range=0), "conditions.in_range", "nothing fires"),
        (lambda sc: sc["defender"].update(started_with=5), "defender.started_with", "has 11"),
        (lambda sc: sc["defender_hero"].update(joins="Nobody"), "defender_hero.joins", "'Boyz'"),
    ],
)
def test_silent_readings_are_refused(change, field, words):
    with pytest.raises(ScenarioError) as err:
        calculate(changed(change))
    assert err.value.field == field and words in err.value.message, str(err.value)


@pytest.mark.parametrize(
    "change",
    [
        add_rule("defender_hero", "Tough(3)"),  # the same value twice says one thing
        lambda sc: sc["defender"].update(started_with=12),
        lambda sc: sc["defender_hero"].update(joins="Boyz"),
        lambda sc: sc["conditions"].update(distance=24),  # at the longest range: it fires
    ],
)
def test_what_says_one_thing_is_accepted(change):
    assert calculate(changed(change)).stages["hits"].mean() > 0


def test_a_split_fire_out_of_every_range_is_refused():
    sc = yaml.safe_load(Path("examples/onepage-split-fire.yaml").read_text())
    sc["conditions"]["distance"] = 150
    for t in sc["other_targets"]:
        t.setdefault("conditions", {})["distance"] = 150
    with pytest.raises(ScenarioError) as err:
        calculate(sc)
    assert err.value.field == "conditions.distance"
    sc["other_targets"][0]["conditions"]["distance"] = 20  # one target in range: a result
    assert calculate(sc).stages["hits"].mean() > 0


def test_the_army_files_keep_their_joins():
    """An army's Hero joins the unit its ``joins`` labels: the check accepts every fielded join."""
    side = army_from_mapping(ORKS, "army")
    assert any(g.hero for u in side.units for g in u.groups)
