"""Movement helpers (rules-crusade V) against hand fractions and an enumeration of faces."""

from fractions import Fraction as Fr
from itertools import product

import pytest

from grimdice.errors import ScenarioError
from grimdice.systems.crusade.damage import KO, NONE, STUNNED, Body
from grimdice.systems.crusade.movement import (
    charge_distance,
    falling,
    jump_chance,
    scrabble_chance,
    zoc_applies,
    zoc_passes,
)

W = (0, 0, 0, 0, 1, 2)
R = (0, 0, 0, 1, 2, 3)


def brute(move, need):
    dice = [R] * (move // 2) + [W] * (move % 2)
    n = 0
    for faces in product(*dice):
        n += sum(faces) >= need
    return Fr(n, 6 ** len(dice))


def test_jump_roll_red_per_two_inches_white_for_odd():
    # move 5: 2 reds + 1 white; a 2" jump with armour 1 needs 3
    assert jump_chance(2, 5, 1) == pytest.approx(float(brute(5, 3)))
    # 1" up adds 2": 2 + 2 + 1 = 5
    assert jump_chance(2, 5, 1, up=1) == pytest.approx(float(brute(5, 5)))
    assert jump_chance(2, 5, 1, up=1, leap=True) == pytest.approx(float(brute(5, 2)))
    assert jump_chance(1, 4, 3) == 1.0  # gaps of 1" or less
    with pytest.raises(ScenarioError):
        jump_chance(2, 5, 1, up=4)


def test_scrabble():
    assert scrabble_chance(4, 1, 5) == pytest.approx(float(brute(4, 2)))
    assert scrabble_chance(1, 0, 3) == pytest.approx(float(Fr(2, 6)))
    with pytest.raises(ScenarioError):
        scrabble_chance(4, 1, 7)


def test_falling_hit_per_four_inches():
    body = Body(hits=1)
    assert falling(3, (NONE, 1), body) == (NONE, 1)
    assert falling(4, (NONE, 1), body) == (STUNNED, 1)  # graze = stun
    assert falling(5, (STUNNED, 1), body) == (KO, 1)
    assert falling(8, (NONE, 1), body)[0] == 4
    assert falling(8, (NONE, 1), body, fly=True) == (NONE, 1)


def test_charge_and_zoc():
    assert charge_distance(5, 1) == 2
    assert charge_distance(5, 2) == 0 and charge_distance(5, 2, power_armour=True) == 2
    assert charge_distance(5, 3, power_armour=True) == 0 and charge_distance(6, 0, wounded=True) == 0
    assert zoc_applies(False, False, False)
    assert not zoc_applies(True, True, False) and not zoc_applies(False, False, True)
    assert not zoc_applies(False, False, False, slip_thru=True)
    assert zoc_passes({"stunned": 0.1, "ko": 0.0, "killed": 0.2, "wounded": 0.3}) == pytest.approx(0.7)
