"""A roll written once as a predicate: exact laws against the oracle, sampled laws against exact."""

import icepool
import numpy as np
import pytest

from grimdice.dice import D6, Die, Dist, Sampler
from grimdice.engine.pipeline import CategoryRoll
from tests.agreement import assert_agree


def hit(faces):
    faces = np.asarray(faces)
    return np.where(faces == 6, 0, np.where(faces >= 3, 1, 2))  # crit, normal, miss


ROLL = CategoryRoll(hit, 3, D6, reroll=lambda f: np.asarray(f) == 1)


def test_one_die_law_by_hand():
    # re-roll 1s: P(face f) = 1/6 + 1/36 for f > 1
    p = 1 / 6 + 1 / 36
    assert ROLL.probs == pytest.approx([p, 3 * p, 1 / 36 + p])


def test_pool_counts_match_icepool():
    pool = ROLL.pool(4)
    die = icepool.d6.reroll([1], depth=1)

    def counts(*faces):
        return (sum(f == 6 for f in faces), sum(3 <= f <= 5 for f in faces))

    oracle = icepool.map(counts, die, die, die, die)
    total = oracle.denominator()
    assert sum(1 for _ in oracle.items()) > 5
    for (c, n), w in oracle.items():
        assert pool.table[c, n] == pytest.approx(w / total, abs=1e-12)


def test_random_pool_size_and_only_one_reroll():
    n = Dist.uniform(1, 3)
    law = ROLL.pool(n)
    assert law.total().mean() == pytest.approx(2 * (ROLL.probs[0] + ROLL.probs[1]))
    one = CategoryRoll(hit, 3, D6, reroll=lambda f: np.asarray(f) < 3).pool(2, only_one=True)
    # two dice, one re-roll of a die below 3: P(no success) = P(both fail) * P(re-roll fails)
    assert one.table[0, 0] == pytest.approx((2 / 6) ** 2 * (2 / 6))


def test_sampled_roll_agrees_with_exact():
    s = Sampler(5)
    counts = ROLL.sample(s, np.full(100_000, 3))
    law = ROLL.pool(3)
    sim = {
        "crit": Dist(np.bincount(counts[:, 0]) / 100_000),
        "normal": Dist(np.bincount(counts[:, 1]) / 100_000),
    }
    assert_agree({"crit": law.marginal(0), "normal": law.marginal(1)}, sim, 100_000)


@pytest.mark.parametrize(("lo", "hi"), [(1, 4), (0, 40)])
def test_sampled_random_pools_with_rerolls_agree_with_exact(lo, hi):
    """Pools of a random size, re-rolling faces below 3: narrow ones (1 to 4 dice) are rolled
    padded, wide ones (0 to 40) flat; both laws against the exact one."""
    roll = CategoryRoll(hit, 3, D6, reroll=lambda f: np.asarray(f) < 3)
    trials = 60_000
    s = Sampler(lo + hi)
    counts = s.rng.integers(lo, hi + 1, trials)
    got = roll.sample(s, counts)
    law = roll.pool(Dist.uniform(lo, hi))
    sim = {name: Dist(np.bincount(got[:, c]) / trials) for c, name in enumerate(("crit", "normal"))}
    assert_agree({"crit": law.marginal(0), "normal": law.marginal(1)}, sim, trials)


def test_categories_of_drawn_faces_rerolls_and_counts_the_dice_rolled():
    s = Sampler(5)
    faces = s.draw((3, 200_000)) + np.uint8(1)
    rolled = np.arange(3)[:, None] < np.random.default_rng(1).integers(0, 4, 200_000)[None, :]
    ones = int(((faces == 1) & rolled).sum())
    cat = ROLL.categories(s, faces, rolled)
    assert s.dice == int(rolled.sum()) + ones  # one die per slot rolled, one more per re-rolled 1
    assert (cat[~rolled] == 2).all()  # no die: "nothing"
    assert (cat[rolled & (faces == 6)] == 0).all() and (cat[rolled & (faces == 3)] == 1).all()
    got = np.bincount(cat[rolled], minlength=3) / rolled.sum()
    n = int(rolled.sum())
    assert_agree({"c": Dist(ROLL.probs)}, {"c": Dist(got)}, n, 5.0)


def test_categories_refuses_a_die_not_numbered():
    odd = CategoryRoll(hit, 3, Die((1, 1, 2, 3, 4, 6)))
    with pytest.raises(ValueError, match="numbered"):
        odd.categories(Sampler(1), np.ones((1, 3), dtype=np.uint8), None)
