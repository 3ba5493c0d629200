"""Automatic hits with no enemy: a destroyed transport and dangerous terrain."""

from __future__ import annotations

from fractions import Fraction
from math import comb

import pytest

from grimdice.errors import ScenarioError
from grimdice.systems.base import calculate
from tests.agreement import assert_agree

MARINES = {"name": "Marines", "size": 5, "quality": 3}
ARMORED = {"name": "Terminators", "size": 6, "quality": 4, "special_rules": ["Armored"]}


def hazard(attack: str, unit: dict, **conditions: object) -> dict:
    return {"system": "onepage", "attack": attack, "defender": unit, "conditions": conditions}


def binom(n: int, k: int, p: Fraction) -> Fraction:
    return comb(n, k) * p**k * (1 - p) ** (n - k)


def test_destroyed_transport_deals_d6_automatic_hits() -> None:
    # "If an Infantry unit is within a transport when it is destroyed, then the unit takes D6 automatic
    # hits": each blocked on 3+ (fails 1/3). Six wounds still kill only the five marines.
    r = calculate(hazard("transport", MARINES))
    for k in range(0, 6):
        want = sum(Fraction(1, 6) * binom(h, k, Fraction(1, 3)) for h in range(1, 7) if k <= h)
        if k == 5:
            want += Fraction(1, 6) * Fraction(1, 3) ** 6
        assert abs(r.stages["models_destroyed"][k] - float(want)) < 1e-12, k
    assert abs(r.stages["hits"].mean() - 3.5) < 1e-12
    assert abs(r.stages["wounds"].mean() - 3.5 / 3) < 1e-12


def test_dangerous_terrain_one_die_per_model_that_moved() -> None:
    # "roll one die for each model that moved into or across the dangerous terrain. For each 1 you roll
    # the unit takes one automatic hit." 4 of 6 moved; Armored ignores on 4+, Quality 4+ blocks:
    # a model's die becomes a wound with 1/6 x 1/2 x 1/2 = 1/24.
    r = calculate(hazard("dangerous", ARMORED, dangerous_models=4))
    for k in range(0, 5):
        assert abs(r.stages["wounds"][k] - float(binom(4, k, Fraction(1, 24)))) < 1e-12
    flying = calculate(hazard("dangerous", {**ARMORED, "special_rules": ["Flying"]}))
    assert flying.stages["hits"][0] == 1.0  # Flying: "may ignore terrain effects"


@pytest.mark.parametrize("attack", ["transport", "dangerous"])
def test_hazards_agree_with_monte_carlo(attack: str) -> None:
    sc = hazard(attack, {**MARINES, "special_rules": ["Tough(2)"]})
    n = 40_000
    assert_agree(calculate(sc).stages, calculate(sc, simulate=n, seed=9).stages, n)


def test_hazards_take_no_attacker_and_attacks_need_one() -> None:
    with pytest.raises(ScenarioError) as e:
        calculate({**hazard("transport", MARINES), "attacker": MARINES})
    assert e.value.field == "attacker"
    with pytest.raises(ScenarioError) as e:
        calculate(hazard("shooting", MARINES))
    assert e.value.field == "attacker"
