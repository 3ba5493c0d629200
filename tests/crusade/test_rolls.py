"""Dice pools and their laws (rules-crusade II, III) against hand fractions and icepool."""

from fractions import Fraction

import icepool
import pytest

from grimdice.errors import ScenarioError
from grimdice.systems.crusade.rolls import Pool, parse_pool, pool_law, total_law


def test_pool_text():
    assert parse_pool("2W+1R+1", "x") == Pool(2, 1, 1)
    assert parse_pool("W+R", "x") == Pool(1, 1, 0)
    assert parse_pool("3r-1", "x") == Pool(0, 3, -1)


@pytest.mark.parametrize("bad", ["0W", "-1R", "2D6", "", "W+", "30W", "1W+99", "X"])
def test_impossible_dice_name_the_field(bad):
    with pytest.raises(ScenarioError) as e:
        parse_pool(bad, "attacker.weapons.0.dice")
    assert e.value.field == "attacker.weapons.0.dice"


def test_fail_is_two_maxima_hand():
    # III: 2W+1R fails on two or more dice at their maximum; each die maxes with 1/6
    law = total_law(2, 1)
    p_fail = sum(p for (t, failed), p in law.items() if failed)
    assert p_fail == pytest.approx(float(3 * Fraction(1, 36) * Fraction(5, 6) + Fraction(1, 216)))


def test_totals_match_icepool():
    white, red = icepool.Die([0, 0, 0, 0, 1, 2]), icepool.Die([0, 0, 0, 1, 2, 3])
    ref = 2 @ white + 2 @ red
    law = total_law(2, 2)
    for t, q in ref.items():
        got = sum(p for (tt, _), p in law.items() if tt == t)
        assert got == pytest.approx(q / ref.denominator(), abs=1e-12)


def test_fail_matches_icepool_count_of_maxima():
    white, red = icepool.Die([0, 0, 0, 0, 1, 2]), icepool.Die([0, 0, 0, 1, 2, 3])
    maxes = 3 @ (white == 2) + 2 @ (red == 3)
    ref = maxes >= 2
    got = sum(p for (_, failed), p in total_law(3, 2).items() if failed)
    assert got == pytest.approx(ref.probability(True), abs=1e-12)


def test_rank_statistic_sums_to_one():
    assert sum(p for _, p in pool_law(3, 3)) == pytest.approx(1.0)
