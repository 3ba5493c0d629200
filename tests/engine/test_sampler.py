"""The sampler's flat pools and per-trial counts, against plain per-trial loops and bincounts."""

import numpy as np
import pytest

from grimdice.dice import D3, D6, Die, Sampler, parse
from grimdice.dice.sampler import (
    BYTE_SIDES,
    column_counts,
    column_layout,
    count_categories,
    lookup,
    per_trial,
    row_sums,
    uniform_bytes,
)


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


@pytest.mark.parametrize("width", [1, 3, 24, 25, 40])
def test_row_sums_equal_a_row_reduction(width):
    values = np.random.default_rng(width).integers(0, 200, (300, width)).astype(np.uint8)
    assert row_sums(values, np.int32).tolist() == values.astype(np.int64).sum(axis=1).tolist()


@pytest.mark.parametrize("given", [True, False])
@pytest.mark.parametrize(("ncat", "top"), [(2, 10), (3, 20), (3, 70), (3, 300), (4, 9), (6, 9), (9, 9)])
def test_count_categories_of_a_padded_pool_counts_only_its_dice(ncat, top, given):
    rng = np.random.default_rng(ncat * 100 + top)
    counts = rng.integers(0, top + 1, 300)
    counts[:3] = (0, top, 1)
    faces = rng.integers(1, 7, (top, counts.size)).astype(np.int8)  # column t: trial t
    valid = np.arange(top)[:, None] < counts[None, :]
    category = rng.integers(0, ncat, 6)
    got = count_categories(faces, category, counts, ncat, 1, valid if given else None)  # the same
    for c in range(ncat - 1):
        want = ((category[faces - 1] == c) & valid).sum(axis=0)
        assert got[:, c].tolist() == want.tolist()


def test_count_categories_of_full_columns():
    faces = np.array([[1, 6], [6, 5], [3, 2]], dtype=np.int8)  # columns: trials (1, 6, 3) and (6, 5, 2)
    got = count_categories(faces, np.array([2, 2, 1, 1, 0, 0]), np.array([3, 3]), 3, 1)
    assert got.tolist() == [[1, 1], [2, 0]]  # (critical, normal): 6 / 3, and 6, 5 / none


def test_columns_count_only_the_dice():
    s = Sampler(3)
    faces = s.columns(np.array([2, 0, 5]))
    assert faces.shape == (5, 3)
    assert s.dice == 7


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


class _Bytes:
    """A stand-in generator whose bit stream is the given bytes, cycled (``bit_generator.random_raw``)."""

    def __init__(self, pattern: list[int]) -> None:
        self.pattern = np.array(pattern, dtype=np.uint8)
        self.pos = 0
        self.bit_generator = self

    def random_raw(self, words: int) -> np.ndarray:
        idx = (self.pos + np.arange(8 * words)) % self.pattern.size
        self.pos += 8 * words
        return self.pattern[idx].view(np.uint64)


@pytest.mark.parametrize("sides", range(1, BYTE_SIDES + 1))
def test_byte_draws_give_every_face_the_same_number_of_bytes(sides):
    """Exact uniformity: over the 256 byte values, the accepted ones map to each face equally
    often (so a uniform byte, once accepted, gives each face with probability exactly 1/sides),
    in the order the bytes came."""
    k = 256 // sides
    got = uniform_bytes(_Bytes(list(range(256))), k * sides, sides)
    assert got.tolist() == [b // k for b in range(k * sides)]
    assert np.bincount(got, minlength=sides).tolist() == [k] * sides


def test_byte_draws_draw_again_at_the_places_of_rejected_bytes():
    """A D6 (k = 42): bytes 252..255 are rejected; their places are filled by the next draws."""
    stream = _Bytes([0, 255, 84, 253, 126, 167, 252, 41])
    # first word: 0, -, 2, -, 3, 3, -, 0; the 3 places again from the next word's 0, 255, 84
    # (0, -, 2), whose one place from the next word's first byte (0)
    assert uniform_bytes(stream, 8, 6).tolist() == [0, 0, 2, 0, 3, 3, 2, 0]


def _chi2_bound(df: int, z: float = 4.75) -> float:
    """An upper quantile (about 1 - 1e-6) of chi-square with ``df`` degrees of freedom
    (Wilson-Hilferty: ``df * (1 - 2/(9 df) + z sqrt(2/(9 df)))**3``)."""
    a = 2 / (9 * df)
    return df * (1 - a + z * np.sqrt(a)) ** 3


@pytest.mark.parametrize("die", [D6, D3, Die.d(5), Die.d(12)])
def test_byte_drawn_dice_pass_a_chi_square_test_of_faces_and_of_pairs(die):
    n = len(die.faces)
    rolls = Sampler(11).roll(720_000, die).astype(np.int64) - 1
    expected = rolls.size / n
    freq = np.bincount(rolls, minlength=n)
    assert ((freq - expected) ** 2 / expected).sum() < _chi2_bound(n - 1)
    pairs = np.bincount(rolls[0::2] * n + rolls[1::2], minlength=n * n)  # neighbours independent
    expected = rolls.size / 2 / n**2
    assert ((pairs - expected) ** 2 / expected).sum() < _chi2_bound(n * n - 1)


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


def test_column_layout_marks_each_trials_first_dice():
    assert column_layout(np.array([3, 3])) == (3, None)
    rows, valid = column_layout(np.array([0, 2, 1]))
    assert rows == 2
    assert valid.tolist() == [[False, True, True], [False, True, False]]
    assert column_layout(np.array([], dtype=np.int64)) == (0, None)


@pytest.mark.parametrize("rows", [0, 1, 7, 255, 256, 300])
def test_column_counts_equal_a_column_sum(rows):
    mask = np.random.default_rng(rows).random((rows, 97)) < 0.9
    assert column_counts(mask).tolist() == mask.sum(axis=0).tolist()


def test_draw_is_uniform_and_not_counted():
    s = Sampler(3)
    faces = s.draw((4, 5000))
    assert s.dice == 0 and faces.dtype == np.uint8 and faces.shape == (4, 5000)
    assert set(np.unique(faces).tolist()) == set(range(6))


def test_d6_pairs_are_two_fair_independent_dice_and_not_counted():
    s = Sampler(13)
    first, second = s.draw_d6_pairs(720_000)
    assert s.dice == 0
    assert first.min() == 1 and first.max() == 6 and second.min() == 1 and second.max() == 6
    joint = np.bincount((first.astype(np.int64) - 1) * 6 + (second - 1), minlength=36)
    expected = first.size / 36  # every (first, second) pair equally likely: fair and independent
    assert ((joint - expected) ** 2 / expected).sum() < _chi2_bound(35)


def test_rolled_dice_are_the_drawn_faces_plus_one_from_the_same_bytes():
    """A byte-drawn roll consumes the generator exactly as a draw does: the same seed gives the
    same faces (one more than the face indices) and leaves the generator in the same state."""
    for shape, die, sides in [(1000, D6, 6), ((37, 11), D3, 3), (500, Die(tuple(range(1, 17))), 16)]:
        rolled, drawn = Sampler(12345), Sampler(12345)
        faces = rolled.roll(shape, die)
        assert faces.dtype == np.int8 and faces.shape == (shape if isinstance(shape, tuple) else (shape,))
        assert (faces.astype(np.int64) - 1).tolist() == drawn.draw(shape, sides).astype(np.int64).tolist()
        assert rolled.dice == faces.size and drawn.dice == 0
        assert rolled.rng.bit_generator.state == drawn.rng.bit_generator.state


def test_seeded_rolls_are_the_faces_recorded_before_roll_called_draw():
    """Faces of ``Sampler(12345)`` recorded from the main branch before :meth:`Sampler.roll` called
    :meth:`Sampler.draw` (its own copy of the byte path): the same seed still gives the same dice."""
    s = Sampler(12345)
    d6 = s.roll(1000)
    d3 = s.roll((37, 11), D3)
    assert d6[:24].tolist() == [4, 5, 1, 5, 4, 5, 2, 2, 6, 5, 6, 5, 1, 1, 1, 2, 6, 6, 2, 2, 4, 1, 1, 5]
    assert d3.ravel()[:12].tolist() == [2, 1, 3, 2, 2, 3, 3, 2, 3, 3, 1, 3]
