from fractions import Fraction

import icepool
import numpy as np
import pytest

from grimdice.dice import D6, Sampler, parse, pool_counts, reroll_die, reroll_total
from tests.oracle import from_icepool


def test_reroll_ones_hand_fraction():
    d = reroll_die(D6.dist, {1})
    assert d[1] == pytest.approx(1 / 36)
    assert d[6] == pytest.approx(7 / 36)


def test_reroll_failures_matches_icepool():
    # 3+ to succeed: reroll 1s and 2s once
    ours = reroll_die(D6.dist, lambda f: f < 3)
    theirs = icepool.d6.reroll([1, 2], depth=1)
    assert ours.allclose(from_icepool(theirs))


def test_reroll_total_2d6():
    ours = reroll_total(parse("2D6").dist, lambda t: t < 7)
    theirs = (2 @ icepool.d6).reroll(lambda t: t < 7, depth=1)
    assert ours.allclose(from_icepool(theirs))


def _success(face: int) -> int:
    return 0 if face >= 4 else 1  # category 0: success, 1: nothing


@pytest.mark.parametrize("n", [1, 2, 3, 5])
def test_reroll_one_die_of_pool_matches_icepool(n):
    ours = pool_counts(D6.dist, n, _success, 2, {1, 2, 3}, only_one=True).marginal(0)

    def successes(*faces):
        return sum(f >= 4 for f in faces)

    # oracle: enumerate the pool, reroll the first failed die once
    def rerolled(rolls):
        rolls = list(rolls)
        for i, f in enumerate(rolls):
            if f < 4:
                return icepool.d6.map(lambda g, i=i: successes(*rolls[:i], g, *rolls[i + 1 :]))
        return icepool.Die([successes(*rolls)])

    theirs = icepool.map(lambda *r: rerolled(r), *([icepool.d6] * n))
    assert ours.allclose(from_icepool(theirs))


def test_reroll_one_with_one_die_equals_reroll_die():
    a = pool_counts(D6.dist, 1, _success, 2, {1, 2, 3}, only_one=True).marginal(0)
    b = reroll_die(D6.dist, {1, 2, 3}).map(lambda f: int(f >= 4))
    assert a.allclose(b)
    assert a[1] == pytest.approx(float(Fraction(3, 4)))


def test_sampler_is_seeded_and_agrees_with_exact():
    a = Sampler(7).roll(50_000)
    b = Sampler(7).roll(50_000)
    assert np.array_equal(a, b)
    s = Sampler(1)
    rolls = s.reroll_faces(s.roll(200_000), {1})
    p1 = (rolls == 1).mean()
    exact = reroll_die(D6.dist, {1})[1]
    se = np.sqrt(exact * (1 - exact) / rolls.size)
    assert abs(p1 - exact) < 5 * se


def test_sampler_reroll_one_rerolls_only_one_per_row():
    s = Sampler(3)
    rolls = np.ones((1000, 4), dtype=np.int64)
    out = s.reroll_one(rolls, rolls == 1)
    assert ((out != 1).sum(axis=1) <= 1).all()


def test_sampler_expr_mean():
    x = Sampler(5).expr(parse("2D6+1"), 100_000)
    assert abs(x.mean() - 8.0) < 5 * np.sqrt(35 / 6 / 100_000)
