"""The sampler's flat pools and per-trial counts, against plain per-trial loops and bincounts."""

import numpy as np
import pytest

from grimdice.dice import D3, D6, Die, Sampler, parse
from grimdice.dice.sampler import count_categories, lookup, per_trial


def _owner(counts: np.ndarray) -> np.ndarray:
    return np.repeat(np.arange(counts.size), counts)


@pytest.mark.parametrize("top", [1, 5, 63, 64, 300])
def test_per_trial_sums_each_trials_run(top):
    rng = np.random.default_rng(top)
    counts = rng.integers(0, top + 1, 400)
    counts[:5] = 0  # empty trials at both ends and inside
    counts[-5:] = 0
    counts[200] = 0
    values = rng.integers(-3, 7, int(counts.sum())).astype(np.int8)
    starts = np.cumsum(counts) - counts
    expected = [int(values[a : a + c].sum()) for a, c in zip(starts, counts, strict=True)]
    assert per_trial(values, counts).tolist() == expected
    assert per_trial(values > 2, counts).tolist() == [
        int((values[a : a + c] > 2).sum()) for a, c in zip(starts, counts, strict=True)
    ]


@pytest.mark.parametrize(("ncat", "top"), [(2, 10), (3, 10), (3, 63), (3, 64), (3, 40_000), (4, 9), (6, 9)])
def test_count_categories_matches_a_bincount_per_category(ncat, top):
    rng = np.random.default_rng(ncat * 1000 + top)
    counts = rng.integers(0, top + 1, 50 if top > 1000 else 500)
    counts[0] = 0
    faces = rng.integers(1, 7, int(counts.sum())).astype(np.int8)
    category = rng.integers(0, ncat, 6)
    got = count_categories(faces, category, counts, ncat, 1)
    for c in range(ncat - 1):
        want = np.bincount(_owner(counts), weights=category[faces - 1] == c, minlength=counts.size)
        assert got[:, c].tolist() == want.astype(int).tolist()


def test_count_categories_with_equal_pools_uses_row_sums_correctly():
    faces = np.array([1, 6, 6, 3, 5, 2], dtype=np.int8)  # two trials of three dice
    got = count_categories(faces, np.array([2, 2, 1, 1, 0, 0]), np.array([3, 3]), 3, 1)
    assert got.tolist() == [[2, 0], [1, 1]]  # (critical, normal): 6,6 / 5 and 3


def test_lookup_equals_a_gather_for_any_table():
    rng = np.random.default_rng(4)
    faces = rng.integers(1, 7, 1000).astype(np.int8)
    for _ in range(20):
        table = rng.integers(-5, 200, 6)
        assert lookup(faces, table, 1, np.int32).tolist() == table[faces - 1].tolist()


def test_numbered_dice_are_fair_and_small():
    rolls = Sampler(1).roll(600_000, D6)
    assert rolls.dtype == np.int8
    freq = np.bincount(rolls, minlength=7)[1:] / rolls.size
    assert np.all(np.abs(freq - 1 / 6) < 5 * np.sqrt((1 / 6) * (5 / 6) / rolls.size))
    assert set(np.unique(Sampler(2).roll(1000, D3))) == {1, 2, 3}
    odd = Sampler(3).roll(1000, Die((0, 0, 1, 2)))
    assert set(np.unique(odd)) == {0, 1, 2}


def test_the_dice_count_is_the_dice_the_rules_roll():
    s = Sampler(7)
    s.roll((10, 3))
    assert s.dice == 30
    rolls, valid = s.pool(np.array([0, 2, 5]))
    assert s.dice == 37 and rolls.shape == (3, 5) and valid.sum() == 7  # padding not counted
    s.reroll(rolls, rolls == 6)
    assert s.dice == 37 + int((rolls == 6).sum())
    before = s.dice
    s.expr(parse("2D6+1"), 100)
    assert s.dice == before + 200
    s.flat(np.array([3, 0, 4]))
    assert s.dice == before + 207
