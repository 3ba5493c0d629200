"""The dice tests of the attack sequence, from the 10th edition core rules."""

import pytest

from grimdice.systems.wh40k.rolls import (
    CRIT,
    FAIL,
    NORMAL,
    cap,
    cover_applies,
    modified_damage,
    roll_result,
    save_passes,
    wound_target,
)


@pytest.mark.parametrize(
    "S,T,need",
    [
        (8, 4, 2),
        (9, 4, 2),
        (5, 4, 3),
        (7, 4, 3),
        (4, 4, 4),
        (3, 4, 5),
        (3, 5, 5),
        (2, 4, 6),
        (3, 6, 6),
        (1, 10, 6),
    ],
)
def test_wound_table(S, T, need):
    assert wound_target(S, T) == need


def test_unmodified_one_fails_even_with_bonus():
    assert roll_result(1, 2, +1, 6) == FAIL


def test_unmodified_six_always_succeeds_and_is_critical():
    assert roll_result(6, 6, -1, 6) == CRIT


def test_critical_threshold_lowered():
    assert roll_result(5, 4, 0, 5) == CRIT
    assert roll_result(5, 4, 0, 6) == NORMAL
    # a critical result always succeeds, even when the modified roll would miss
    assert roll_result(5, 6, -1, 5) == CRIT


def test_modifiers_capped_at_one():
    assert cap(3) == 1 and cap(-4) == -1 and cap(0) == 0
    assert roll_result(4, 6, +3, 6) == FAIL  # only +1 applies: 4+1 = 5 < 6
    assert roll_result(5, 6, +3, 6) == NORMAL


def test_save_armour_ap_and_invulnerable():
    # Sv 3+ vs AP-2: need 5 on the die
    assert [save_passes(f, 3, -2, False, 0, None) for f in range(1, 7)] == [False] * 4 + [True] * 2
    # invulnerable 4+ is not modified by AP and is used when better
    assert [save_passes(f, 3, -3, False, 0, 4) for f in range(1, 7)] == [False] * 3 + [True] * 3
    # unmodified 1 always fails, even with big bonuses
    assert save_passes(1, 2, 0, True, 3, 2) is False


def test_cover_rules():
    assert cover_applies(4, 0, False, True, False)
    assert not cover_applies(3, 0, False, True, False)  # Sv 3+ or better vs AP 0
    assert cover_applies(3, -1, False, True, False)
    assert not cover_applies(5, 0, True, True, False)  # melee
    assert not cover_applies(5, -1, False, True, True)  # Ignores Cover
    assert not cover_applies(5, -1, False, False, False)


def test_damage_modifiers_order():
    assert modified_damage(5, True, 0, 0) == 3  # halve rounding up
    assert modified_damage(1, False, 1, 0) == 1  # never below 1
    assert modified_damage(3, False, 1, 2) == 4  # melta then reduction
    assert modified_damage(6, True, 1, 2) == 4  # halve, add, subtract
