"""Structures (rules-crusade VI): building sectors, barricades and catwalks fall at their hits with
no graze and no condition; a building's collapse and collateral, a catwalk's fall; by hand fractions."""

from fractions import Fraction as Fr
from itertools import product

import pytest

from grimdice.errors import ScenarioError
from grimdice.systems.crusade import calculate
from tests.crusade.helpers import close, gun, model, shoot

R = (0, 0, 0, 1, 2, 3)


def p_two_reds(pred) -> Fr:
    return sum((Fr(1, 36) for a, b in product(R, R) if pred(a + b)), Fr(0))


def test_barricade_hit_once_is_destroyed_not_stunned():
    # "Barricades- 2 armor, 1 hit": 1R+2 against armour 2 does 1 point on a red of 1 or more
    res = calculate(shoot([gun("1R+2", ["S"])], defender=model(kind="barricade", armour=2)))
    end = res.extra["end_state"]
    assert close(end["killed"], Fr(3, 6)) and end["stunned"] == 0.0
    assert close(res["hits_left"][0], Fr(3, 6))


def test_building_taking_all_its_hits_collapses():
    # "When the building has taken all its hits, it collapses": 2 points off 2 hits left destroy it
    sc = shoot([gun("2R", ["W"])], defender=model(kind="building", armour=1, hits=10, hits_left=2))
    res = calculate(sc)
    destroyed = p_two_reds(lambda t: t - 1 >= 2)
    assert close(res.extra["end_state"]["killed"], destroyed)
    assert res.extra["end_state"]["wounded"] == 0.0  # no graze on a structure
    assert close(res["hits_left"][1], p_two_reds(lambda t: t - 1 == 1))
    assert close(res.extra["structure"]["destroyed"], destroyed)


def test_no_knockback_or_plague_on_a_structure():
    catwalk = model(kind="catwalk", armour=3)
    sc = shoot([gun("1R", ["KB", "PLAGUE"])], defender=catwalk, knockback_into="obstacle")
    res = calculate(sc)
    assert close(res.extra["end_state"]["unharmed"], 1)  # a tie (3 vs 3) wounds or stuns nothing


def test_collapse_hits_the_models_inside_and_the_connected_sectors():
    # "Roll 2 reds against any targets inside (graze = W)" and "against any connected sectors"
    sc = shoot(
        [gun("2R")],
        defender=model(name="sector", kind="building", armour=1, hits=2),
        inside=[model(name="guard", armour=1), model(name="crate", armour=2)],
        connected=[model(name="next", kind="building", armour=1, hits=10, hits_left=1)],
    )
    res = calculate(sc)
    p = p_two_reds(lambda t: t - 1 >= 2)  # the sector is destroyed
    guard = res.targets["collapse: guard"].extra["end_state"]
    assert close(guard["wounded"], p * p_two_reds(lambda t: t - 1 == 1))
    assert close(guard["killed"], p * p_two_reds(lambda t: t - 1 >= 2))
    crate = res.targets["collapse: crate"].extra["end_state"]  # equipment: 2 armour, 1 hit
    assert close(crate["killed"], p * p_two_reds(lambda t: t - 2 >= 2))
    nxt = res.targets["collateral: next"].extra["end_state"]
    assert close(nxt["killed"], p * p_two_reds(lambda t: t - 1 >= 1)) and nxt["wounded"] == 0.0


def test_models_on_a_destroyed_catwalk_fall():
    # "Models on destroyed catwalks, etc. fall as normal": 8" is 2 hits (V FALLING); FLY ignores it
    sc = shoot(
        [gun("1R+3")],
        defender=model(kind="catwalk", armour=3),
        inside=[model(name="a", hits=1), model(name="b", hits=3), model(name="c", abilities=["FLY"])],
        catwalk_height=8,
    )
    res = calculate(sc)
    p = Fr(3, 6)  # a red of 1 or more
    assert close(res.targets["collapse: a"].extra["end_state"]["killed"], p)
    assert close(res.targets["collapse: b"]["hits_left"][1], p)
    assert close(res.targets["collapse: c"].extra["end_state"]["unharmed"], 1)


def test_structure_fields_are_clear_errors_elsewhere():
    cases = [
        ({"inside": [model(name="x")]}, model(), "inside"),
        ({"connected": [model(name="x", kind="building")]}, model(kind="catwalk", armour=3), "connected"),
        ({"catwalk_height": 4}, model(kind="building", armour=1, hits=10), "catwalk_height"),
        ({"connected": [model(name="x")]}, model(kind="building", armour=1, hits=10), "connected.0.kind"),
        ({}, model(kind="building", condition="stunned"), "defender.condition"),
    ]
    for kw, dfd, field in cases:
        with pytest.raises(ScenarioError) as e:
            calculate(shoot([gun("1R")], defender=dfd, **kw))
        assert e.value.field == field
    melee = {
        "system": "crusade",
        "action": "melee",
        "attacker": model(kind="building", hits=10, melee="1R"),
        "defender": model(melee="1R"),
    }
    with pytest.raises(ScenarioError) as e:
        calculate(melee)
    assert e.value.field == "attacker.kind"  # a structure does not melee


def test_dead_model_shows_no_hits_left():
    # a graze on a wounded model kills it: hits_left 0, as a model killed by 2+ points
    res = calculate(shoot([gun("1R", ["W"])], defender=model(condition="wounded")))
    assert close(res["hits_left"][0], Fr(3, 6))
    assert close(res.extra["end_state"]["killed"], Fr(3, 6))


def test_line_and_area_weapons_do_not_spread_over_buildings():
    # VIII LINE "including vehicles and barricades, but not buildings"; VI "You may not spread an
    # area or line effect weapon's attack between two buildings or sectors, nor between a building
    # and targets inside"
    sector = model(name="sector", kind="building", armour=1, hits=10)
    for code in ("LINE", "B", "FT"):
        sc = shoot([gun("2R", ["S", code])], targets=[model(name="a"), sector])
        with pytest.raises(ScenarioError) as e:
            calculate(sc)
        assert e.value.field == "targets.1.kind"
    barricade = model(name="barricade", kind="barricade", armour=2)
    res = calculate(shoot([gun("2R", ["S", "LINE"])], targets=[model(name="a"), barricade]))
    assert close(res.targets["1: barricade"].extra["end_state"]["killed"], p_two_reds(lambda t: t >= 3))


def test_rapid_fire_at_a_building_with_models_inside_is_refused():
    sc = shoot(
        [gun("1R", ["S", "Rap"])],
        defender=model(kind="building", armour=1, hits=2),
        inside=[model(name="x")],
        range=4,
    )
    with pytest.raises(ScenarioError) as e:
        calculate(sc)
    assert e.value.field == "inside"
