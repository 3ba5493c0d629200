"""Precision (X), from each sentence of the seed rule text, and Challenges."""

import pytest

from grimdice.errors import ScenarioError
from grimdice.systems.heresy.profiles import Scenario
from grimdice.systems.heresy.units import resolve
from tests.heresy.helpers import F, approx, melee, model, pmf, run, scenario, weapon

SQUAD = [model(name="legionary"), model(name="sergeant", character=True)]


def test_unmodified_hit_roll_of_x_or_more_makes_a_precision_hit():
    r = run(weapon(rules=["Precision (5+)"]), SQUAD)  # BS4: 3,4 normal hits; 5,6 Precision Hits
    assert r["hits"][1] == approx(F(4, 6))
    assert r["precision_hits"][1] == approx(F(2, 6))


def test_precision_hits_wound_normally_and_the_attacker_chooses_the_model():
    r = run(weapon(rules=["Precision (5+)"]), SQUAD)
    assert r.extra["precision_model"] == "sergeant"
    assert r["precision_model_destroyed"][1] == approx(F(2, 6) * F(1, 2))
    assert r["models_destroyed"][1] == approx(F(4, 6) * F(1, 2))
    assert r["precision_model_wounds"][1] == approx(F(1, 6))


def test_precision_target_may_be_any_model_named():
    squad = [model(name="legionary", count=3), model(name="sergeant", character=True), model(name="vexilla")]
    r = run(weapon(rules=["Precision (5+)"]), squad, conditions={"precision_target": "vexilla"})
    assert r.extra["precision_model"] == "vexilla"
    sc = Scenario.model_validate(scenario(weapon(rules=["Precision (5+)"]), squad))
    assert resolve(sc)[0].precision_index == 3  # default: the first character
    sc = Scenario.model_validate(scenario(weapon(rules=["Precision (5+)"]), [model(count=4)]))
    assert resolve(sc)[0].precision_index == 3  # no character: the farthest model


def test_precision_uses_the_roll_that_inflicted_the_hit():
    # BS6: a 6 is a Precision Hit; a 1 is re-rolled and a 6 on the re-roll hits as a Precision Hit
    r = run(weapon(rules=["Precision (6+)"]), SQUAD, shooter={"BS": 6})
    assert r["precision_hits"][1] == approx(F(1, 6) + F(1, 6) * F(1, 6))


def test_precision_hits_form_a_separate_group_resolved_first_then_fall_back():
    # every hit is a Precision Hit (BS5 2+, Precision 2+), S10 v T4 wounds on 2+; no saves:
    # the first Precision wound kills the sergeant, the second falls back to the closest model
    r = run(weapon(A=2, S=10, rules=["Precision (2+)"]), SQUAD, shooter={"BS": 5})
    p = F(5, 6) * F(5, 6)
    assert r["models_destroyed"][2] == approx(p * p)
    assert r["precision_model_destroyed"][1] == approx(1 - (1 - p) ** 2)


@pytest.mark.parametrize("rule", ["Blast", "Barrage", "Template", "Reaping Blow (2)"])
def test_never_from_blast_barrage_template_or_reaping_blow(rule):
    w = melee(rules=[rule, "Precision (2+)"]) if "Reaping" in rule else weapon(rules=[rule, "Precision (2+)"])
    cond = {"multiple_enemies_in_contact": True}
    r = run(w, SQUAD, conditions=cond)
    assert "precision_hits" not in r.stages and "precision_model" not in r.extra
    plain = run(w | {"rules": [x for x in w["rules"] if x != "Precision (2+)"]}, SQUAD, conditions=cond)
    assert r.to_json() == plain.to_json()  # allocated like any other hits


def test_never_from_snap_shots():
    r = run(weapon(rules=["Precision (2+)"]), SQUAD, conditions={"snap_shots": True})
    assert "precision_hits" not in r.stages
    assert r["hits"][1] == approx(F(1, 6))


def test_precision_strikes_in_melee():
    r = run(melee(rules=["Precision (4+)"]), SQUAD, shooter={"A": 1})
    assert r["precision_hits"][1] == approx(F(1, 2))  # WS4 v WS4: 4+, every hit is a 4+
    assert r["precision_model_destroyed"][1] == approx(F(1, 2) * F(1, 2))


def test_challenge_only_the_engaged_model_may_be_chosen():
    with pytest.raises(ScenarioError, match="only choose the engaged model") as e:
        run(
            melee(rules=["Precision (4+)"]),
            SQUAD,
            conditions={"challenge": "sergeant", "precision_target": "legionary"},
        )
    assert e.value.field == "conditions.precision_target"
    r = run(melee(A=3, rules=["Precision (4+)"]), SQUAD, conditions={"challenge": "sergeant"})
    assert r.extra["precision_model"] == "sergeant" and r.extra["challenge"] == "sergeant"
    assert r["models_destroyed"].max == 1  # wounds in a Challenge go to the engaged model only


def test_challenge_without_precision_wounds_only_the_engaged_model():
    r = run(melee(A=4, S=10), SQUAD, conditions={"challenge": "sergeant"})
    # four attacks: 4+ to hit, 2+ to wound, no save; only the sergeant can be destroyed
    assert pmf(r["models_destroyed"], 1) == approx([(1 - F(1, 2) * F(5, 6)) ** 4, 1 - (1 - F(5, 12)) ** 4])
    assert r["models_destroyed"].max == 1


def test_unknown_names_are_errors():
    with pytest.raises(ScenarioError, match="no defending model called 'captain'") as e:
        run(weapon(rules=["Precision (5+)"]), SQUAD, conditions={"precision_target": "captain"})
    assert e.value.field == "conditions.precision_target"
    with pytest.raises(ScenarioError) as e:
        run(melee(), SQUAD, conditions={"challenge": "captain"})
    assert e.value.field == "conditions.challenge"


def test_a_challenge_is_fought_with_melee_weapons():
    with pytest.raises(ScenarioError, match="fought in melee") as e:
        run(weapon(), SQUAD, conditions={"challenge": "sergeant"})
    assert e.value.field == "conditions.challenge"
