"""Shooting at several target units: "When shooting a unit must pick one valid target"; Relentless:
"Units with this special rule may fire all of their weapons when using Hold actions, even at
different targets." The target of each weapon is chosen for the most points destroyed."""

from __future__ import annotations

from fractions import Fraction as F

import pytest

from grimdice.errors import ScenarioError
from grimdice.systems.onepage import calculate
from tests.agreement import assert_agree
from tests.onepage.helpers import scenario

GUNNER = {
    "name": "Gunner",
    "quality": 2,
    "equipment": ['Gun (24", A1)', 'Cannon (24", A1)'],
    "special_rules": ["Relentless"],
}
P = F(5, 6) * F(5, 6)  # one Q2 attack at a Q6 model: hit 5/6, block fails 5/6


def one(name: str, cost: int, **kw) -> dict:  # type: ignore[no-untyped-def]
    return {"name": name, "quality": 6, "cost": cost, **kw}


def close(x: float, f: F) -> bool:
    return abs(x - float(f)) < 1e-12


def test_relentless_on_hold_splits_fire_between_targets() -> None:
    sc = scenario(
        "shooting",
        GUNNER,
        one("Left", 10),
        other_targets=[{"unit": one("Right", 10)}],
        conditions={"action": "hold"},
    )
    r = calculate(sc)
    j = r.to_json()
    # one weapon at each: 10 p + 10 p points beats both at one model: 10 (1 - (1 - p)^2)
    assert j["split_fire"] is True and j["plans_compared"] == 4
    assert sorted(j["fired"]) == ["Left", "Right"]
    assert close(r["models_destroyed"][2], P * P)
    assert close(r["models_destroyed"][1], 2 * P * (1 - P))
    assert close(r["Left.destroyed"][1], P) and close(r["Right.destroyed"][1], P)
    assert close(r["hits"].mean(), 2 * F(5, 6))


def test_concentrating_fire_when_it_destroys_more_points() -> None:
    # Left: Tough(2), 30 pts: both attacks there kill it with p^2 (30 p^2 ~ 14.5 pts); splitting
    # destroys 10 p ~ 6.9 (a lone wound on Left is worth nothing); both at Right 10 (1 - (1 - p)^2).
    sc = scenario(
        "shooting",
        GUNNER,
        one("Left", 30, special_rules=["Tough(2)"]),
        other_targets=[{"unit": one("Right", 10)}],
        conditions={"action": "hold"},
    )
    r = calculate(sc)
    assert list(r.to_json()["fired"]) == ["Left"]
    assert close(r["Left.destroyed"][1], P * P)
    assert r["Right.hits"].max == 0


@pytest.mark.parametrize("action", ["walk", "hold-not-relentless"])
def test_one_target_without_relentless_on_hold(action: str) -> None:
    # "When shooting a unit must pick one valid target ... may fire one of their weapons at it"
    gunner = GUNNER if action == "walk" else {**GUNNER, "special_rules": []}
    sc = scenario(
        "shooting",
        gunner,
        one("Cheap", 10),
        other_targets=[{"unit": one("Dear", 20), "conditions": {"distance": 12}}],
        conditions={"action": "walk" if action == "walk" else "hold"},
    )
    r = calculate(sc)
    j = r.to_json()
    assert j["split_fire"] is False and list(j["fired"]) == ["Dear"]
    assert j["fired"]["Dear"][0]["models"] == 1 and len(j["fired"]["Dear"]) == 1
    assert close(r["models_destroyed"][1], P)


def test_target_conditions_override_the_scenarios() -> None:
    # Right is out of range of both guns (30"): everything goes at Left, in the open
    sc = scenario(
        "shooting",
        GUNNER,
        one("Left", 10, size=2),
        other_targets=[{"unit": one("Right", 50), "conditions": {"distance": 30}}],
        conditions={"action": "hold"},
    )
    r = calculate(sc)
    assert list(r.to_json()["fired"]) == ["Left"] and close(r["models_destroyed"][2], P * P)


def test_a_target_with_a_joined_hero() -> None:
    # the second target has a joined Tough(3) hero (30 pts): a lone wound there goes on the hero (the
    # defender keeps all its points: "you must either accumulate wounds on the unit with this special
    # rule first ... or remove regular models"), so the one shot (Walk: one weapon) goes to Left
    sc = scenario(
        "shooting",
        {**GUNNER, "special_rules": []},
        one("Left", 10),
        other_targets=[
            {
                "unit": one("Right", 10),
                "hero": {"name": "Boss", "quality": 6, "special_rules": ["Hero", "Tough(3)"], "cost": 30},
            }
        ],
    )
    r = calculate(sc)
    assert any("joined_rules" in n for n in r.notes)
    assert list(r.to_json()["fired"]) == ["Left"] and close(r["models_destroyed"][1], P)
    bad = {
        **sc,
        "other_targets": [
            {**sc["other_targets"][0], "hero": {**sc["other_targets"][0]["hero"], "quality": 4}}
        ],
    }
    with pytest.raises(ScenarioError) as e:
        calculate(bad)
    assert e.value.field == "other_targets.0.hero.joins"


def test_bad_targets() -> None:
    with pytest.raises(ScenarioError):
        calculate(scenario("shooting", GUNNER, one("A", 1), other_targets=[{"unit": one("A", 1)}]))
    with pytest.raises(ScenarioError) as e:
        calculate(scenario("shooting", GUNNER, one("A", 1), other_targets=[{"unit": one("B", 1, size=0)}]))
    assert e.value.field.startswith("other_targets.0.unit.size")
    with pytest.raises(ScenarioError):
        calculate(scenario("melee", GUNNER, one("A", 1), other_targets=[{"unit": one("B", 1)}]))


def test_split_fire_exact_agrees_with_monte_carlo() -> None:
    n = 20_000
    sc = scenario(
        "shooting",
        {**GUNNER, "size": 3, "quality": 4, "equipment": ["Lascannon", "Flamer", "Assault Rifle"]},
        {"name": "Boyz", "size": 6, "quality": 5, "cost": 60},
        other_targets=[
            {
                "unit": {"name": "Nob", "quality": 4, "special_rules": ["Tough(3)", "Armored"], "cost": 40},
                "conditions": {"cover": True, "distance": 20},
            }
        ],
        conditions={"action": "hold", "distance": 10},
    )
    exact = calculate(sc)
    sim = calculate(sc, simulate=n, seed=3)
    assert exact.to_json()["fired"] == sim.to_json()["fired"]
    assert_agree(exact.stages, sim.stages, n)
