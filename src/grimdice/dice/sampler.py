"""Seeded, vectorised Monte Carlo sampling of dice.

Every simulator in grimdice draws from one :class:`Sampler`, so a run is reproducible from its
seed. Two layouts of a pool of a random size per trial:

* **flat** (:meth:`Sampler.flat`): the dice of every trial one after another in one array, trial
  ``t`` owning ``counts[t]`` consecutive dice; per-trial totals with :func:`per_trial`. Nothing is
  rolled for padding, so this is the fast layout for large pools.
* **padded** (:meth:`Sampler.pool`): a 2-D array, row ``t`` is trial ``t``, column ``j`` die ``j``,
  and ``valid[t, j]`` says whether that die was rolled.

Dice numbered ``1..n`` with ``n <= 16`` (a D6, a D3) are drawn from raw random bytes of the
generator's bit stream (:func:`uniform_bytes`: exact rejection sampling, one byte per die, about
1.5 times faster than ``Generator.integers`` in all), larger dice with ``Generator.integers``, other dice
by face look-up. The sampler counts the dice the rules roll in :attr:`Sampler.dice` (padding
excluded), so benchmarks can report dice per second honestly.
"""

from __future__ import annotations

import math
from collections.abc import Collection
from functools import lru_cache

import numpy as np

from grimdice.dice.expr import D6, DiceExpr, Die

BYTE_SIDES = 16  # dice with at most this many sides are drawn from bytes (acceptance >= 94%)


def uniform_bytes(rng: np.random.Generator, n: int, sides: int) -> np.ndarray:
    """``n`` independent values uniform on ``0..sides-1`` (uint8), one random byte each.

    Bytes come from the generator's bit stream (``bit_generator.random_raw``, 8 per 64-bit word:
    about 0.7 ns a byte, where ``Generator.integers(1, 7, dtype=int8)`` takes about 3.5 ns a die).
    With ``k = 256 // sides``, a byte ``b < k * sides`` is accepted and gives ``b // k``; at the
    places of the rejected bytes (``b >= k * sides``, rare: at most 15 in 256 values), values are
    drawn again the same way. Every accepted byte is uniform on ``0..k*sides-1`` and exactly ``k``
    of those give each value, so every value is exactly uniform, independently of the others."""
    if not 1 <= sides <= 256:
        raise ValueError(f"a byte-drawn die has 1 to 256 sides, not {sides}")
    if sides == 1:  # nothing random to draw
        return np.zeros(n, dtype=np.uint8)
    k = 256 // sides
    limit = k * sides
    raw = rng.bit_generator.random_raw(-(-n // 8)).view(np.uint8)[:n]
    again = np.flatnonzero(raw >= limit) if limit < 256 else ()
    out = np.floor_divide(raw, k, out=raw)
    if len(again):
        out[again] = uniform_bytes(rng, len(again), sides)
    return out


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


def lookup(faces: np.ndarray, table: np.ndarray, lo: int, dtype: type[np.integer]) -> np.ndarray:
    """``table[faces - lo]`` as ``dtype``; for tables with few distinct runs (the categories of a
    D6: fail, normal, critical) computed as a sum of threshold comparisons into preallocated
    arrays, several times faster than a gather (the sum wraps around in ``dtype``, which is exact
    as every result fits)."""
    values = np.asarray(table).astype(dtype)
    steps = np.flatnonzero(np.diff(values.astype(np.int64))) + 1
    if len(steps) > 4:
        return values[faces - lo if lo else faces]
    out = np.full(faces.shape, values[0], dtype=dtype)
    if not len(steps):
        return out
    mask = np.empty(faces.shape, dtype=bool)
    ones = mask.view(np.uint8)
    tmp = np.empty(faces.shape, dtype=dtype)
    for j in steps:
        delta = np.array(int(values[j]) - int(values[j - 1])).astype(dtype)
        np.greater_equal(faces, lo + j, out=mask)
        if delta == 1:
            np.add(out, ones, out=out, casting="unsafe")
        elif int(values[j]) - int(values[j - 1]) == -1:  # the usual decreasing category tables
            np.subtract(out, ones, out=out, casting="unsafe")
        else:
            np.multiply(ones, delta, out=tmp, casting="unsafe")
            out += tmp
    return out


def column_layout(counts: np.ndarray) -> tuple[int, np.ndarray | None]:
    """``(rows, valid)`` of the column layout of ``counts[t]`` dice for each trial ``t``: a
    ``(rows, trials)`` array whose row ``j`` holds every trial's ``j``-th die, so that per-trial
    work is a pass over contiguous rows; ``valid[j, t]`` (None: every entry) says whether that
    die exists."""
    counts = np.asarray(counts)
    rows = int(counts.max()) if counts.size else 0
    if not counts.size or int(counts.min()) == rows:
        return rows, None
    return rows, np.arange(rows)[:, None] < counts[None, :]


def column_counts(mask: np.ndarray) -> np.ndarray:
    """Per trial (column) true entries of a column-layout mask (int64), summed row by row in a
    narrow accumulator (contiguous rows: several times faster than ``sum(axis=0)``)."""
    acc = np.zeros(mask.shape[1], dtype=np.uint8 if mask.shape[0] < 256 else np.int32)
    for row in mask.view(np.uint8):
        np.add(acc, row, out=acc)
    return acc.astype(np.int64)


NARROW = 24  # rows at most this wide are summed column by column (see row_sums)


def row_sums(values: np.ndarray, dtype: type[np.integer]) -> np.ndarray:
    """Per-row sums of a 2-D array, accumulated in ``dtype`` (wrapping around, so exact while the
    sums fit). Narrow rows are summed column by column: NumPy's row reduction pays some 20 ns a
    row, more than the dice of a short row cost to draw."""
    rows, width = values.shape
    if width > NARROW:
        return values.sum(axis=1, dtype=dtype)
    out = np.zeros(rows, dtype=dtype)
    for j in range(width):
        np.add(out, values[:, j], out=out, casting="unsafe")
    return out


def count_categories(
    faces: np.ndarray,
    category: np.ndarray,
    counts: np.ndarray,
    ncat: int,
    lo: int = 0,
    valid: np.ndarray | None = None,
) -> np.ndarray:
    """``(trials, ncat - 1)`` counts per category of a pool (``category[face - lo]`` is a face's
    category, the last one uncounted): flat (trial ``t`` owns ``counts[t]`` consecutive dice) or
    padded 2-D (:meth:`Sampler.columns`: column ``t`` is trial ``t``, its dice first; ``valid``:
    which entries are dice, default the first ``counts[t]`` of column ``t``).

    Each face is mapped (:func:`lookup`) to one small word holding a 1 in its category's bit
    field, the words are summed per trial in one pass (:func:`per_trial`, :func:`row_sums` of
    equal runs, or a sum over the contiguous rows of the columns), and the sums are split into
    fields. Columns under 256 dice are summed in the word itself (8-bit fields: the fastest sum);
    flat pools in 6-bit fields of a byte while no trial has 64 dice, else 16-bit fields."""
    counts = np.asarray(counts)
    k = ncat - 1
    out = np.empty((counts.size, k), dtype=np.int64)
    top = int(counts.max()) if counts.size else 0
    cat = np.asarray(category, dtype=np.int64)
    columns = faces.ndim == 2
    if columns and valid is None:
        _, valid = column_layout(counts)
    rows = not columns and counts.size > 0 and top == int(counts.min())

    def total(words: np.ndarray, acc: type[np.integer]) -> np.ndarray:
        if columns:
            if valid is not None:
                np.multiply(words, valid, out=words, casting="unsafe")
            return words.sum(axis=0, dtype=acc)
        if rows:
            return row_sums(words.reshape(counts.size, -1), acc)
        return per_trial(words, counts, acc)

    word: type[np.integer]
    acc: type[np.integer]
    if columns and faces.shape[0] < 256 and k <= 8:
        word = np.uint16 if k <= 2 else np.uint32 if k <= 4 else np.uint64
        bits, acc = 8, word
    elif k <= 2 and top < 64:
        word, bits, acc = np.uint8, 6, np.int32
    elif k <= 2 and top < 2**15:
        word, bits, acc = np.int32, 16, np.int32
    elif k <= 3 and top < 2**15:
        word, bits, acc = np.int64, 16, np.int64
    else:
        for c in range(k):
            out[:, c] = total(lookup(faces, cat == c, lo, np.int8), np.int64)
        return out
    packed = np.where(cat < k, np.left_shift(1, bits * np.minimum(cat, k - 1)), 0)
    sums = total(lookup(faces, packed, lo, word), acc)
    for c in range(k):
        out[:, c] = (sums >> (bits * c)) & (2**bits - 1)
    return out


class Sampler:
    """Vectorised dice roller around ``numpy.random.default_rng(seed)``; :attr:`dice` counts the
    dice rolled so far."""

    def __init__(self, seed: int | np.random.SeedSequence | None = None) -> None:
        self.seed = seed
        self.rng = np.random.default_rng(seed)
        self.dice = 0

    def roll(self, shape: int | tuple[int, ...], die: Die = D6) -> np.ndarray:
        """Roll dice of one kind into an array of the given shape (small integer dtype)."""
        self.dice += math.prod(shape) if isinstance(shape, tuple) else int(shape)
        fast = _numbered(die)
        if fast is not None:
            n, dtype = fast
            if n <= BYTE_SIDES:
                faces = self.draw(shape, n)  # face indices 0..n-1: the faces are one more
                faces += np.uint8(1)
                return faces.view(np.int8)
            return self.rng.integers(1, n + 1, size=shape, dtype=dtype)
        return die.sample(self.rng, shape)

    def draw(self, shape: int | tuple[int, ...], sides: int = 6) -> np.ndarray:
        """Faces for dice the rules *may* roll, as face indices ``0..sides-1`` (uint8: a D6 showing
        1 is 0), one independent uniform value per entry, **not counted** in :attr:`dice`: the
        caller adds to :attr:`dice` the number of these it actually uses as dice (the others are
        not dice, like the padding of :meth:`columns`). Used where drawing a face for every slot
        and choosing by table look-up is cheaper than rolling the exact subset."""
        n = math.prod(shape) if isinstance(shape, tuple) else int(shape)
        return uniform_bytes(self.rng, n, sides).reshape(shape)

    def draw_d6_pairs(self, shape: int | tuple[int, ...]) -> tuple[np.ndarray, np.ndarray]:
        """Two independent D6 faces (``1..6``, uint8) per entry from one 36-sided draw (value
        ``v``: faces ``v // 6 + 1`` and ``v % 6 + 1``), **not counted**, as :meth:`draw`: half
        the random bytes of two draws."""
        values = self.draw(shape, 36)
        first = values // np.uint8(6)
        second = values - first * np.uint8(6)
        first += np.uint8(1)
        second += np.uint8(1)
        return first, second

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

    def columns(self, counts: np.ndarray, die: Die = D6) -> np.ndarray:
        """Roll ``counts[t]`` dice for each trial ``t`` padded 2-D by column: shape ``(max count,
        trials)``, column ``t`` holding trial ``t``'s dice first, then padding (drawn, but not
        dice: only the dice are counted in :attr:`dice`). Each row is contiguous, so per-trial
        sums are sums of whole rows (several times faster than row sums of :meth:`pool`)."""
        counts = np.asarray(counts, dtype=np.int64)
        width = max(int(counts.max()) if counts.size else 0, 1)
        faces = self.roll((width, counts.size), die)
        self.dice -= faces.size - int(counts.sum())
        return faces

    def pool(self, counts: np.ndarray, die: Die = D6) -> tuple[np.ndarray, np.ndarray]:
        """Roll ``counts[t]`` dice for each trial ``t``: returns ``(rolls, valid)`` padded 2-D
        (only the valid dice are counted in :attr:`dice`)."""
        counts = np.asarray(counts, dtype=np.int64)
        width = max(int(counts.max()) if counts.size else 0, 1)
        rolls = self.roll((counts.size, width), die)
        self.dice -= rolls.size - int(counts.sum())
        valid = np.arange(width)[None, :] < counts[:, None]
        return rolls, valid
