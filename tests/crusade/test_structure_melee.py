"""Meleeing a structure (rules-crusade VI): "You may destroy buildings by meleeing from the inside
(vs. armor)"; barricades and catwalks: "May use any kind of attack to damage". Checked against a
brute force over the dice's faces (reading structure_melee)."""

from fractions import Fraction as Fr
from itertools import product

import pytest

from grimdice.errors import ScenarioError
from grimdice.systems.crusade import calculate
from tests.crusade.helpers import close, gun, model

W = (0, 0, 0, 0, 1, 2)
R = (0, 0, 0, 1, 2, 3)


def law(dice, pred) -> Fr:
    """P(pred(total)) over every face of ``dice`` (a list of die face tuples)."""
    n = 6 ** len(dice)
    return Fr(sum(1 for faces in product(*dice) if pred(sum(faces))), n)


def melee_at(attacker, defender, **kw):
    return {"system": "crusade", "action": "melee", "attacker": attacker, "defender": defender, **kw}


def test_melee_from_inside_rolls_the_melee_dice_against_the_armour():
    # base 1W+1R and a 1R +P choppa against a sector of 1 armour with 2 hits left: +P adds 1
    ork = model(melee="1W+1R", weapons=[gun("1R", ["+P"], kind="melee", name="choppa")])
    sector = model(kind="building", armour=1, hits=10, hits_left=2)
    res = calculate(melee_at(ork, sector))
    destroyed = law([W, R, R], lambda t: t + 1 - 1 >= 2)
    assert close(res.extra["end_state"]["killed"], destroyed)
    assert close(res.extra["structure"]["destroyed"], destroyed)
    assert close(res["hits_left"][1], law([W, R, R], lambda t: t + 1 - 1 == 1))
    assert res.extra["end_state"]["stunned"] == 0.0  # no graze on a structure


def test_awkward_melee_at_a_barricade_and_no_area_bonus():
    # "Barricades- 2 armor, 1 hit ... May use any kind of attack to damage. No bonus for area/line"
    brute = model(melee="2R", weapons=[gun("1R", ["AREA 2"], kind="melee", name="flail")])
    barricade = model(kind="barricade", armour=2, hits=1)
    plain = calculate(melee_at(brute, barricade))
    assert close(plain.extra["end_state"]["killed"], law([R, R, R], lambda t: t - 2 >= 1))
    awkward = calculate(melee_at(brute, barricade, awkward=True))
    assert close(awkward.extra["end_state"]["killed"], law([R, R, R], lambda t: t - 1 - 2 >= 1))


def test_a_building_melee_is_refused_where_it_cannot_be():
    sector = model(kind="building", armour=1, hits=10)
    cases = [
        (melee_at(model(melee="1R"), sector, range=2), "range"),
        (melee_at(model(melee="1R"), sector, attack_mode="dive"), "attack_mode"),
        (melee_at(model(melee="1R", abilities=["MOB 2"]), sector, mob=[model(melee="1R")]), "mob"),
        (melee_at(model(), sector), "attacker.melee"),
    ]
    for sc, field in cases:
        with pytest.raises(ScenarioError) as e:
            calculate(sc)
        assert e.value.field == field


def test_a_building_melee_simulated_agrees_with_the_exact_law():
    ork = model(melee="1W+1R", weapons=[gun("1R", ["+P"], kind="melee", name="choppa")])
    sc = melee_at(ork, model(kind="building", armour=1, hits=10, hits_left=2))
    exact = calculate(sc).extra["end_state"]["killed"]
    n = 20_000
    sim = calculate(sc, simulate=n, seed=1).extra["end_state"]["killed"]
    assert abs(sim - exact) <= 4.5 * (exact * (1 - exact) / n) ** 0.5
