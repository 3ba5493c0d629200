"""The random streams of a played game (:func:`grimdice.engine.playing.streams`), and its chance
draws, both cheaper than NumPy's one-at-a-time calls and giving the same numbers.

* :class:`Stream` is a NumPy ``Generator`` whose scalar uniform draws (``random()`` with no
  arguments: the random players' draw at every decision) are taken from blocks drawn ahead, the
  same values in the same order as drawn one at a time (a block of ``random(n)`` is ``n``
  successive scalar draws). Any other call (another method, another form of ``random``, the bit
  generator, pickling) first puts the generator where the draws taken so far leave it, so a
  stream draws exactly as a plain ``Generator`` of the same seed, whatever is asked of it.
* :func:`pick` draws one outcome of a short list with its probability as NumPy's cumulative sum
  and sorted search would (the same floating-point sums: ``cumsum`` adds in order, ``sum`` adds
  pairwise as NumPy does), without building arrays.
"""

from __future__ import annotations

from bisect import bisect_right
from collections import deque
from collections.abc import Callable, Iterator, Sequence
from functools import partial
from itertools import accumulate, chain
from typing import Any

import numpy as np

BLOCK = 64  # uniform draws taken ahead at once
_F64 = np.float64
SHORT = 64  # outcome lists up to this long are drawn in plain Python (:func:`pick`)


class Stream(np.random.Generator):
    """A ``Generator`` drawing its scalar uniforms by blocks (see the module text).

    ``next_random()`` is ``random()`` with no arguments as a plain callable (no Python frame of its
    own but once a block): the same draws, for loops that draw many scalars."""

    def __init__(self, bit_generator: np.random.BitGenerator) -> None:
        super().__init__(bit_generator)
        self._block: Iterator[float] = iter(())  # the block being handed out
        self._before: Any = {}  # the bit generator's state before the block
        self.next_random: Callable[[], float] = partial(next, chain.from_iterable(self._blocks()))

    def _blocks(self) -> Iterator[Iterator[float]]:
        """The blocks of scalar draws, each drawn when the one before is used up."""
        while True:
            self._before = super().bit_generator.state
            self._block = iter(super().random(BLOCK).tolist())
            yield self._block

    def random(self, size: Any = None, dtype: Any = np.float64, out: Any = None) -> Any:
        """``Generator.random``; a scalar float64 draw comes from the block."""
        if size is None and out is None and dtype is _F64:
            return self.next_random()
        self._settle()
        return super().random(size, dtype, out)

    def _settle(self) -> None:
        """Put the bit generator where the draws handed out leave it (the block dropped)."""
        left = self._block.__length_hint__()  # type: ignore[attr-defined]
        if left:
            bits = super().bit_generator
            bits.state = self._before
            super().random(BLOCK - left)
            deque(self._block, maxlen=0)  # used up: the next scalar draws a new block

    @property
    def bit_generator(self) -> np.random.BitGenerator:
        self._settle()
        return super().bit_generator


def _settling(name: str) -> Any:
    base = getattr(np.random.Generator, name)

    def method(self: Stream, *args: Any, **kwargs: Any) -> Any:
        self._settle()
        return base(self, *args, **kwargs)

    method.__name__ = name
    method.__doc__ = base.__doc__
    return method


#: every other method settles the stream first (pickling too)
for _name in dir(np.random.Generator):
    _public = not _name.startswith("_") or _name in ("__reduce__", "__getstate__", "__setstate__")
    if _public and _name != "random" and callable(getattr(np.random.Generator, _name)):
        setattr(Stream, _name, _settling(_name))


def pairwise_sum(values: Sequence[float], lo: int = 0, n: int = -1) -> float:
    """The sum of ``values[lo:lo + n]`` added as NumPy's pairwise summation adds a float64 array
    (blocks of up to 128 in eight partial sums, halves above; under 8 in order)."""
    if n < 0:
        n = len(values)
    if n < 8:
        res = 0.0
        for i in range(lo, lo + n):
            res += values[i]
        return res
    if n <= 128:
        r = list(values[lo : lo + 8])
        i, whole = 8, n - n % 8
        while i < whole:
            for j in range(8):
                r[j] += values[lo + i + j]
            i += 8
        res = ((r[0] + r[1]) + (r[2] + r[3])) + ((r[4] + r[5]) + (r[6] + r[7]))
        for k in range(i, n):
            res += values[lo + k]
        return res
    half = n // 2
    half -= half % 8
    return pairwise_sum(values, lo, half) + pairwise_sum(values, lo + half, n - half)


def pick(outcomes: Sequence[tuple[Any, float]], rng: np.random.Generator) -> Any:
    """One outcome drawn with its probability (one uniform draw from ``rng``): the first whose
    cumulative probability exceeds the draw times the total, as ``np.searchsorted(np.cumsum(p),
    u * p.sum(), side="right")`` finds it."""
    probs = [p for _, p in outcomes]
    if len(probs) > SHORT or not all(type(p) is float for p in probs):
        arr = np.array(probs)
        i = int(np.searchsorted(np.cumsum(arr), rng.random() * arr.sum(), side="right"))
    else:
        i = bisect_right(list(accumulate(probs)), rng.random() * pairwise_sum(probs))
    return outcomes[min(i, len(outcomes) - 1)][0]


__all__ = ["BLOCK", "Stream", "pairwise_sum", "pick"]
