"""Seeded, vectorised Monte Carlo sampling of dice.

Every simulator in grimdice draws from one :class:`Sampler`, so a run is reproducible from its
seed. Two layouts of a pool of a random size per trial:

* **flat** (:meth:`Sampler.flat`): the dice of every trial one after another in one array, trial
  ``t`` owning ``counts[t]`` consecutive dice; per-trial totals with :func:`per_trial`. Nothing is
  rolled for padding, so this is the fast layout for large pools.
* **padded** (:meth:`Sampler.pool`): a 2-D array, row ``t`` is trial ``t``, column ``j`` die ``j``,
  and ``valid[t, j]`` says whether that die was rolled.

Dice numbered ``1..n`` (a D6, a D3) are drawn straight as small integers
(``Generator.integers(1, n + 1, dtype=int8)``), other dice by face look-up. The sampler counts the
dice the rules roll in :attr:`Sampler.dice` (padding excluded), so benchmarks can report dice per
second honestly.
"""

from __future__ import annotations

from collections.abc import Collection
from functools import lru_cache

import numpy as np

from grimdice.dice.expr import D6, DiceExpr, Die


@lru_cache(maxsize=64)
def _numbered(die: Die) -> tuple[int, type[np.signedinteger]] | None:
    """``(n, dtype)`` for a die numbered ``1..n`` (drawn without a look-up), else ``None``."""
    n = len(die.faces)
    if die.faces != tuple(range(1, n + 1)):
        return None
    return n, (np.int8 if n < 127 else np.int16)


def per_trial(values: np.ndarray, counts: np.ndarray, dtype: type[np.integer] | None = None) -> np.ndarray:
    """Per-trial sums of a flat array whose trial ``t`` owns ``counts[t]`` consecutive entries
    (booleans count their true entries); one value per trial, empty trials give 0. The sums are
    accumulated in ``dtype`` (default: int32 for 8-bit values while no sum can overflow it, else
    int64)."""
    counts = np.asarray(counts)
    if values.dtype == np.bool_:
        values = values.view(np.int8)
    if dtype is None:
        small = values.dtype.itemsize == 1 and counts.size and int(counts.max()) < 2**23
        dtype = np.int32 if small else np.int64
    out = np.zeros(counts.size, dtype=dtype)
    if values.size == 0:
        return out
    some = counts > 0
    starts = (np.cumsum(counts) - counts)[some]  # the non-empty runs tile the array in order
    out[some] = np.add.reduceat(values, starts, dtype=dtype)
    return out


FIELD = 16  # bits per category in packed category counts


def count_categories(faces: np.ndarray, category: np.ndarray, counts: np.ndarray, ncat: int) -> np.ndarray:
    """``(trials, ncat - 1)`` counts per category of a flat pool (trial ``t`` owns ``counts[t]``
    consecutive dice; ``category[face]`` is a face's category, the last one uncounted).

    Each face is looked up as one word holding a 1 in its category's 16-bit field, and the words
    are summed per trial in one pass (:func:`per_trial`), then split into fields."""
    counts = np.asarray(counts)
    k = ncat - 1
    out = np.empty((counts.size, k), dtype=np.int64)
    top = int(counts.max()) if counts.size else 0
    if top < 2 ** (FIELD - 1) and k <= 3:
        word = np.int32 if k <= 2 else np.int64
        cat = np.asarray(category, dtype=np.int64)
        packed = np.where(cat < k, np.left_shift(1, FIELD * np.minimum(cat, k - 1)), 0)
        sums = per_trial(packed.astype(word)[faces], counts, word)
        for c in range(k):
            out[:, c] = (sums >> (FIELD * c)) & (2**FIELD - 1)
        return out
    cat = category[faces]
    for c in range(k):
        out[:, c] = per_trial(cat == c, counts)
    return out


def owners(counts: np.ndarray) -> np.ndarray:
    """The trial owning each entry of a flat array (trial ``t`` owns ``counts[t]`` entries)."""
    counts = np.asarray(counts)
    return np.repeat(np.arange(counts.size, dtype=np.int32 if counts.size < 2**31 else np.int64), counts)


class Sampler:
    """Vectorised dice roller around ``numpy.random.default_rng(seed)``; :attr:`dice` counts the
    dice rolled so far."""

    def __init__(self, seed: int | np.random.SeedSequence | None = None) -> None:
        self.seed = seed
        self.rng = np.random.default_rng(seed)
        self.dice = 0

    def roll(self, shape: int | tuple[int, ...], die: Die = D6) -> np.ndarray:
        """Roll dice of one kind into an array of the given shape (small integer dtype)."""
        self.dice += int(np.prod(shape))
        fast = _numbered(die)
        if fast is not None:
            n, dtype = fast
            return self.rng.integers(1, n + 1, size=shape, dtype=dtype)
        return die.sample(self.rng, shape)

    def expr(self, expr: DiceExpr, size: int) -> np.ndarray:
        """``size`` independent totals of a dice expression (int64)."""
        out = np.full(size, expr.constant, dtype=np.int64)
        for t in expr.terms:
            faces = self.roll((size, t.count) if t.count > 1 else size, t.die)
            total = faces.sum(axis=1, dtype=np.int64) if t.count > 1 else faces
            if t.sign > 0:
                out += total
            else:
                out -= total
        return out

    def flat(self, counts: np.ndarray, die: Die = D6) -> np.ndarray:
        """Roll ``counts[t]`` dice for each trial ``t``, laid out flat (see the module text)."""
        return self.roll(int(np.sum(counts)), die)

    def reroll(self, rolls: np.ndarray, mask: np.ndarray, die: Die = D6) -> np.ndarray:
        """Reroll (once) every die where ``mask`` is true; returns a new array."""
        out = rolls.copy()
        k = int(np.count_nonzero(mask))
        if k:
            out[mask] = self.roll(k, die)
        return out

    def reroll_faces(
        self, rolls: np.ndarray, faces: Collection[int], die: Die = D6, valid: np.ndarray | None = None
    ) -> np.ndarray:
        """Reroll once every (valid) die showing one of ``faces``."""
        mask = np.isin(rolls, list(faces))
        if valid is not None:
            mask &= valid
        return self.reroll(rolls, mask, die)

    def reroll_one(self, rolls: np.ndarray, mask: np.ndarray, die: Die = D6) -> np.ndarray:
        """In each row of a 2-D pool, reroll the first die where ``mask`` is true (if any)."""
        out = rolls.copy()
        rows = np.flatnonzero(mask.any(axis=1))
        if rows.size:
            cols = mask[rows].argmax(axis=1)
            out[rows, cols] = self.roll(rows.size, die)
        return out

    def pool(self, counts: np.ndarray, die: Die = D6) -> tuple[np.ndarray, np.ndarray]:
        """Roll ``counts[t]`` dice for each trial ``t``: returns ``(rolls, valid)`` padded 2-D
        (only the valid dice are counted in :attr:`dice`)."""
        counts = np.asarray(counts, dtype=np.int64)
        width = max(int(counts.max()) if counts.size else 0, 1)
        rolls = self.roll((counts.size, width), die)
        self.dice -= rolls.size - int(counts.sum())
        valid = np.arange(width)[None, :] < counts[:, None]
        return rolls, valid
