"""Dice predicates, from the 2021 core book's Roll Attack Dice / Roll Defence Dice and the seed rules."""

from fractions import Fraction
from itertools import product

import numpy as np
import pytest

from grimdice.systems.killteam.rolls import (
    CRIT,
    MISS,
    NORMAL,
    ONE,
    attack_probs,
    attack_result,
    defence_dice,
    effective_ap,
    save_probs,
    save_result,
    unsaved_options,
)


def fr(x: float) -> Fraction:
    return Fraction(x).limit_denominator(1000)


def test_attack_dice_six_crit_bs_normal_one_fails():
    assert [attack_result(f, 3) for f in range(1, 7)] == [ONE, MISS, NORMAL, NORMAL, NORMAL, CRIT]
    assert [fr(p) for p in attack_probs(3)] == [
        Fraction(1, 6),
        Fraction(1, 2),
        Fraction(1, 6),
        Fraction(1, 6),
    ]


def test_lethal_makes_successful_hits_of_x_or_more_critical():
    assert [attack_result(f, 3, lethal=5) for f in (4, 5, 6)] == [NORMAL, CRIT, CRIT]
    # Lethal 4+ with BS 5+: a 4 is not a successful hit, so it is not a critical hit
    assert attack_result(4, 5, lethal=4) == MISS
    assert fr(attack_probs(3, lethal=5)[CRIT]) == Fraction(1, 3)


def test_injured_bs_7_still_crits_on_a_six():
    assert [attack_result(f, 7) for f in range(1, 7)] == [ONE, MISS, MISS, MISS, MISS, CRIT]


def test_predicates_work_on_arrays():
    faces = np.array([[1, 2, 3], [4, 5, 6]])
    assert attack_result(faces, 4).tolist() == [[ONE, MISS, MISS], [NORMAL, NORMAL, CRIT]]
    assert save_result(faces, 3).tolist() == [[MISS, MISS, NORMAL], [NORMAL, NORMAL, CRIT]]


def test_saves_six_critical_one_fails_even_with_sv2():
    assert [save_result(f, 2) for f in range(1, 7)] == [MISS, NORMAL, NORMAL, NORMAL, NORMAL, CRIT]
    assert [fr(p) for p in save_probs(4)] == [Fraction(1, 6), Fraction(1, 3), Fraction(1, 2)]


def test_ap_not_cumulative_and_piercing_needs_a_crit():
    assert effective_ap(1, 2, crits_retained=0) == 1
    assert effective_ap(1, 2, crits_retained=1) == 2
    assert effective_ap(2, 1, crits_retained=3) == 2  # not 3: the attacker selects one
    assert defence_dice(3, 2, invulnerable_used=False) == 1
    assert defence_dice(3, 2, invulnerable_used=True) == 3  # invulnerable: not affected by APx
    assert defence_dice(3, 5, invulnerable_used=False) == 0


def brute_unsaved(hits: str, saves: str) -> set[tuple[int, int]]:
    """Independent check: every save die assigned to one hit die or to nothing."""
    out = set()
    for assign in product(range(len(hits) + 1), repeat=len(saves)):
        uc = un = 0
        for i, h in enumerate(hits):
            on = [saves[j] for j, a in enumerate(assign) if a == i]
            cancelled = "c" in on or (h == "N" and "n" in on) or (h == "C" and on.count("n") >= 2)
            if not cancelled:
                uc += h == "C"
                un += h == "N"
        out.add((uc, un))
    return out


@pytest.mark.parametrize(
    "ch,nh,cs,ns", [(a, b, c, d) for a in range(3) for b in range(3) for c in range(3) for d in range(4)]
)
def test_unsaved_options_are_exactly_the_reachable_allocations(ch, nh, cs, ns):
    assert set(unsaved_options(ch, nh, cs, ns)) == brute_unsaved("C" * ch + "N" * nh, "c" * cs + "n" * ns)


def test_allocation_rules_from_the_text():
    # a critical save cancels a critical hit; two normal saves cancel a critical hit; one cannot
    assert (0, 0) in unsaved_options(1, 0, 1, 0)
    assert (0, 0) in unsaved_options(1, 0, 0, 2)
    assert min(unsaved_options(1, 0, 0, 1)) == (1, 0)
    # a critical save cancels a normal hit; a normal save cannot cancel a critical hit alone
    assert (0, 0) in unsaved_options(0, 1, 1, 0)
