"""Packed pool codes (:class:`PoolCode`): the code of each trial's dice is the weighted count of
its dice per category, read from the same faces a plain roll of the same stream gives; padding
is neither a die nor counted."""

import numpy as np
import pytest

from grimdice.dice import Sampler
from grimdice.dice.expr import Die
from grimdice.engine.pipeline import CategoryRoll
from grimdice.systems.killteam.rolls import attack_result, attack_roll, save_roll
from grimdice.systems.killteam.simulate import PoolCode, attack_code, save_code


@pytest.mark.parametrize("dice", [[4, 4, 4], [0, 3, 7, 1, 9], [0, 0, 0], [6, 2, 0, 5]])
def test_attack_code_counts_every_category_of_the_same_faces(dice):
    counts = np.array(dice * 50, dtype=np.int64)
    n1 = 10
    got = attack_code(3, 5, n1).sample(s := Sampler(7), counts)
    ref = Sampler(7)
    if counts.max() > 0:
        faces = ref.columns(counts).astype(np.int64)
        cat = np.asarray(attack_result(faces, 3, 5))
        valid = np.arange(faces.shape[0])[:, None] < counts[None, :]
        c, h, o = (((cat == k) & valid).sum(axis=0) for k in range(3))
    else:
        c = h = o = np.zeros(counts.size, dtype=np.int64)
    assert np.array_equal(got, (c * n1 + h) * n1 + o)
    assert s.dice == int(counts.sum()) == ref.dice


def test_save_code_by_hand():
    # faces 6 (critical save), 5 (a save at SV 5+), 1 and 4 (fails): code = 1 * 4 + 1
    class Fixed(Sampler):
        def columns(self, counts, die=None):
            self.dice += int(np.sum(counts))
            return np.array([[6], [5], [1], [4]], dtype=np.int8)

    assert save_code(5, 4).sample(Fixed(0), np.array([4])).tolist() == [5]


def test_only_plain_d6_rolls_are_packed():
    with pytest.raises(ValueError, match="D6 roll without re-rolls"):
        _ = PoolCode(CategoryRoll(lambda f: np.asarray(f) >= 4, 2, Die((1, 2, 3))), (1,)).table
    with pytest.raises(ValueError, match="D6 roll without re-rolls"):
        _ = PoolCode(
            CategoryRoll(lambda f: np.asarray(f) >= 4, 2, reroll=lambda f: np.asarray(f) == 1), (1,)
        ).table
    assert PoolCode(save_roll(3), (1, 1)).table.max() == 4  # four saves of any kind
    assert PoolCode(attack_roll(4), (0, 0, 1)).table.max() == 4  # four 1s
