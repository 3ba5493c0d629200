"""Helper rolls (rules-crusade VI, VIII JAM, IX SHAMBLE, HORROR, DETONATE) by hand fractions."""

from fractions import Fraction as Fr
from itertools import product

import pytest

from grimdice.errors import ScenarioError
from grimdice.systems.crusade.actions import (
    collapse,
    detonate_chance,
    horror,
    shamble_move,
    unjam_chance,
)
from grimdice.systems.crusade.damage import NONE, Body

R = (0, 0, 0, 1, 2, 3)


def test_unjam_needs_a_zero_on_the_weapon_dice():
    assert unjam_chance("2W+1R+1") == pytest.approx(float(Fr(4, 6) ** 2 * Fr(3, 6)))
    assert detonate_chance("1R") == pytest.approx(0.5)
    with pytest.raises(ScenarioError):
        unjam_chance("0W")


def test_collapse_two_reds_graze_wounds():
    res = collapse((NONE, 1), Body(hits=1), armour=2)
    wound = sum(Fr(1, 36) for a, b in product(R, R) if a + b - 2 == 1)
    kill = sum(Fr(1, 36) for a, b in product(R, R) if a + b - 2 >= 2)
    assert res["wounded"] == pytest.approx(float(wound)) and res["killed"] == pytest.approx(float(kill))


def test_shamble_and_horror():
    d = shamble_move()
    assert d.min == 4 and d.max == 10 and d[4] == pytest.approx(0.25)
    assert horror()["dead"] == pytest.approx(0.5)
