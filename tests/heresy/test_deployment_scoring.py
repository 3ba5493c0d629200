"""Infiltrate (X) and Support Unit (X), one test per sentence of the seed rule text."""

import math

import pytest

from grimdice.engine.table.bases import Base, Rect
from grimdice.errors import RuleError
from grimdice.systems.heresy.deployment import (
    DeployedModel,
    check_charge,
    check_deployment,
    unit_infiltrate_distance,
)
from grimdice.systems.heresy.scoring import objective_victory_points, support_unit_cap

OWN = Rect(0, 0, 72, 12)  # own Deployment Zone: the first 12" of a 72" x 48" table
OPP = Rect(0, 36, 72, 48)  # opponent's Deployment Zone
ENEMY = [Base(36, 40, 32)]  # one enemy model, 32 mm base


def unit(y, values=(8, 8), x0=30.0):
    return [DeployedModel(f"m{i}", v, Base(x0 + 2 * i, y, 32)) for i, v in enumerate(values)]


def gap(y):
    """Closest distance from a model at (30, y) to the enemy (both 32 mm bases)."""
    return math.hypot(36 - 30, 40 - y) - 32 / 25.4


def test_inside_own_zone_is_a_normal_deployment():
    assert check_deployment(unit(6, (None, None)), OWN, OPP, ENEMY) is False


def test_composed_entirely_of_infiltrate_models():
    with pytest.raises(RuleError, match=r"composed entirely.*lacking: m1"):
        check_deployment(unit(20, (8, None)), OWN, OPP, ENEMY)
    assert check_deployment(unit(20, (8, 8)), OWN, OPP, ENEMY) is True


def test_outside_the_opposing_deployment_zone():
    with pytest.raises(RuleError, match="outside the opposing player's Deployment Zone"):
        check_deployment(unit(35.8, (1, 1), x0=0.0), OWN, OPP, ENEMY)


def test_at_least_the_highest_x_from_any_enemy_model():
    assert unit_infiltrate_distance([6, 12, 9]) == 12
    assert unit_infiltrate_distance([6, None]) is None
    y = 22.0  # about 17.6" from the enemy: fine for X = 12, not for a unit whose highest X is 18
    assert gap(y) > 12
    assert check_deployment(unit(y, (6, 12)), OWN, OPP, ENEMY) is True
    with pytest.raises(RuleError, match='at least 18"'):
        check_deployment(unit(y, (6, 18)), OWN, OPP, ENEMY)


def test_only_before_the_first_turn():
    with pytest.raises(RuleError, match="before the start of the first turn"):
        check_deployment(unit(20), OWN, OPP, ENEMY, before_first_turn=False)
    assert check_deployment(unit(6), OWN, OPP, ENEMY, before_first_turn=False) is False


def test_no_charge_in_the_first_battle_turn():
    with pytest.raises(RuleError, match="may not declare a Charge in the first battle turn"):
        check_charge(True, 1)
    check_charge(True, 2)
    check_charge(False, 1)


def test_support_unit_caps_victory_points_regardless_of_objective_value_or_line():
    assert objective_victory_points(3) == 3
    assert objective_victory_points(3, [None, 1, None]) == 1
    assert objective_victory_points(5, [2], bonus=1) == 2  # Line (X) cannot lift it over X
    assert objective_victory_points(1, [2]) == 1
    assert support_unit_cap([3, 1]) == 1 and support_unit_cap([None]) is None
    with pytest.raises(ValueError):
        objective_victory_points(-1)
