from fractions import Fraction

import icepool
import numpy as np
import pytest

from grimdice.dice import D3, D6, DiceSyntaxError, Dist, Joint, parse
from tests.oracle import from_icepool


def test_d6_is_uniform():
    d = D6.dist
    assert d.min == 1 and d.max == 6
    assert all(d[k] == pytest.approx(1 / 6) for k in range(1, 7))
    assert d.mean() == pytest.approx(3.5)
    assert d.variance() == pytest.approx(35 / 12)


def test_2d6_matches_hand_counts():
    d = parse("2D6").dist
    for total in range(2, 13):
        ways = 6 - abs(total - 7)
        assert d[total] == pytest.approx(ways / 36)


@pytest.mark.parametrize(
    "text,oracle",
    [
        ("D3", icepool.d3),
        ("D6+1", icepool.d6 + 1),
        ("2D6", 2 @ icepool.d6),
        ("2D3+D6-1", 2 @ icepool.d3 + icepool.d6 - 1),
        ("3D6", 3 @ icepool.d6),
        ("4", icepool.Die([4])),
    ],
)
def test_expressions_match_icepool(text, oracle):
    assert parse(text).dist.allclose(from_icepool(oracle))


@pytest.mark.parametrize("bad", ["", "D", "2X6", "D6+", "D0", "1d6 d6", "0D6", "D6++1", True, 1.5, None])
def test_bad_dice_text_names_what_is_allowed(bad):
    with pytest.raises(ValueError, match=r"D6|dice|die"):
        parse(bad)


def test_at_least_table_is_tail_sums():
    d = parse("2D6").dist
    tail = d.at_least()
    assert tail[0] == pytest.approx(1.0)
    assert d.prob_at_least(12) == pytest.approx(1 / 36)
    assert d.prob_at_least(11) == pytest.approx(3 / 36)
    assert tail[-2] == pytest.approx(3 / 36)
    assert d.prob_at_least(100) == 0.0
    assert d.prob_at_most(2) == pytest.approx(1 / 36)


def test_random_count_sum_matches_icepool():
    # D3 dice each worth D6: icepool's die-of-dice
    ours = D6.dist.sum_of(D3.dist)
    theirs = icepool.d3.map(lambda n: n @ icepool.d6)
    assert ours.allclose(from_icepool(theirs))


def test_binomial_and_thinning():
    b = Dist.binomial(4, 0.5)
    assert [b[k] for k in range(5)] == pytest.approx([1 / 16, 4 / 16, 6 / 16, 4 / 16, 1 / 16])
    # thinning D3 with p=1/2: P(0) = (1/2 + 1/4 + 1/8)/3
    t = D3.dist.thin(0.5)
    assert t[0] == pytest.approx(float(Fraction(7, 24)))


def test_map_clip_mixture():
    d = D6.dist.map(lambda x: x // 2)
    assert d[0] == pytest.approx(1 / 6) and d[3] == pytest.approx(1 / 6)
    c = D6.dist.clip(2, 4)
    assert c[2] == pytest.approx(2 / 6) and c[4] == pytest.approx(3 / 6)
    m = Dist.mixture([0.25, 0.75], [Dist.constant(0), Dist.constant(10)])
    assert m.mean() == pytest.approx(7.5)


def test_repeat_equals_repeated_addition():
    d = parse("D3+1").dist
    acc = Dist.constant(0)
    for _ in range(7):
        acc = acc + d
    assert acc.allclose(d.repeat(7))


def test_invalid_distribution_rejected():
    with pytest.raises(ValueError):
        Dist([0.0, 0.0])
    with pytest.raises(ValueError):
        Dist([-0.5, 1.5])
    for bad in ([0.5, float("nan")], [0.5, float("inf")], []):
        with pytest.raises(ValueError):
            Dist(bad)


def test_joint_categorical_multinomial():
    # 3 dice, each crit 1/6, normal 2/6, fail 3/6
    j = Joint.categorical([1 / 6, 2 / 6, 3 / 6]).repeat(3)
    # P(1 crit, 1 normal) = 3! * (1/6)(2/6)(3/6)
    assert j.table[1, 1] == pytest.approx(6 * (1 / 6) * (2 / 6) * (3 / 6))
    assert j.table.sum() == pytest.approx(1.0)
    assert j.marginal(0).allclose(Dist.binomial(3, 1 / 6))
    assert j.total().allclose(Dist.binomial(3, 0.5))


def test_joint_sum_of_random_count():
    j = Joint.categorical([0.5, 0.5]).sum_of(D3.dist)
    assert j.marginal(0).allclose(D3.dist.thin(0.5))
    assert np.isclose(j.table.sum(), 1.0)


def test_trusted_sums_equal_the_validated_construction():
    """The internal fast paths (no validation, no copy, a one-outcome operand as a shift) give the
    same values as building each result through the validating constructor."""
    d = Dist([0.25, 0.5, 0.25], 1)
    for other in (Dist.constant(3), Dist([0.5], 2), Dist([0.0, 0.3, 0.7]), d):
        got = d + other
        want = Dist(np.convolve(d.pmf, other.pmf), d.offset + other.offset)
        assert got.offset == want.offset and np.array_equal(got.pmf, want.pmf)
        assert np.array_equal((other + d).pmf, want.pmf)
        assert not got.pmf.flags.writeable
    assert np.array_equal(Dist.bernoulli(0.25).pmf, Dist([0.75, 0.25]).pmf)
    assert d.clip(0, 9) is d and d.clip(2).allclose(Dist([0.75, 0.25], 2), atol=0)
    j = Joint.categorical([0.2, 0.3, 0.5])
    for table in ((j + j).table, Joint.mixture([1.0, 0.0], [j, j + j]).table):
        assert np.array_equal(table, Joint(table).table)
    assert Joint.mixture([1.0, 0.0], [j, j + j]).table.shape == (2, 2)  # zero-weight part trimmed


def test_parsed_dice_are_shared_and_bad_text_is_refused_every_time():
    assert parse("D6+1") is parse("D6+1") and parse("D6+1").dist.mean() == 4.5
    for _ in range(2):
        with pytest.raises(DiceSyntaxError):
            parse("D6+")


def test_repeat_and_random_sums_on_arrays_equal_the_dist_arithmetic():
    """Dist.repeat and Dist.sum_of work on the raw arrays (no Dist per step): bit for bit the
    sums of Dists, with negative offsets, one-outcome laws, underflowing ends and random counts."""
    laws = [
        Dist([0.4, 0.6]),
        Dist([0.2, 0.3, 0.5], -2),
        Dist.constant(4),
        Dist([1e-200, 1.0], 0, normalize=True),
    ]
    for law in laws:
        for n in (0, 1, 2, 3, 7, 40):
            acc = Dist.constant(0)
            for _ in range(n):
                acc = acc + law
            got = law.repeat(n)
            assert got.offset == acc.offset and got.allclose(acc, atol=1e-15)
            assert not got.pmf.flags.writeable and got.pmf[0] > 0 and got.pmf[-1] > 0
        count = Dist([0.1, 0.0, 0.6, 0.3], 1)
        parts = [(count[k], sum([law] * k, Dist.constant(0))) for k in range(1, 5) if count[k]]
        want = Dist.mixture([w for w, _ in parts], [p for _, p in parts])
        got = law.sum_of(count)
        assert got.offset == want.offset and np.array_equal(got.pmf, want.pmf)
    assert Dist([0.5, 0.5]).sum_of(Dist.constant(5)).allclose(Dist.binomial(5, 0.5), atol=0)
    with pytest.raises(ValueError):
        Dist([0.5, 0.5]).sum_of(Dist.constant(-1))
