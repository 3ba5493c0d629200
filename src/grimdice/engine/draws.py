"""The random streams of a played game (:func:`grimdice.engine.playing.streams`), and its chance
draws, both cheaper than NumPy's one-at-a-time calls and giving the same numbers.

* :class:`Stream` is a NumPy ``Generator`` whose scalar uniform draws (``random()`` with no
  arguments: the chance draws) and scalar bounded integers (``integers(n)``: the random players'
  draw at every decision) are taken from a block of the bit generator's raw 64-bit outputs drawn
  ahead, with NumPy's own arithmetic: a uniform is the top 53 bits of one output, an integer below
  ``n`` is Lemire's multiply-and-reject on 32-bit halves (the low half of an output first, the high
  half kept for the next), as ``Generator.integers`` draws a scalar ``int64`` below 2**32. Any other
  call (another method, another form of ``random`` or ``integers``, the bit generator, pickling)
  first puts the generator where the draws taken so far leave it (the raw outputs used and the half
  kept: a PCG64 steps back over the outputs drawn ahead and not used, another bit generator is put
  back where its block started and steps over those used), so a stream draws exactly as a plain
  ``Generator`` of the same seed, whatever is asked of it.
  ``next_random()`` is the scalar ``random()`` in one plain call.
* :func:`pick` draws one outcome of a short list with its probability as NumPy's cumulative sum
  and sorted search would (the same floating-point sums: ``cumsum`` adds in order, ``sum`` adds
  pairwise as NumPy does), without building arrays.
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Callable, Sequence
from itertools import accumulate
from typing import Any, cast

import numpy as np

BLOCK = 64  # uniform draws taken ahead at once
_F64 = np.float64
_I64 = np.int64
_TO_DOUBLE = 1.0 / 9007199254740992.0  # NumPy's next_double: the top 53 bits times 2**-53
SHORT = 64  # outcome lists up to this long are drawn in plain Python (:func:`pick`)


class Stream(np.random.Generator):
    """A ``Generator`` drawing its scalar uniforms and bounded integers by blocks (see the module
    text)."""

    #: ``random()`` with no arguments, in one plain call with nothing to check (a function over the
    #: stream's block, not a method): for loops that draw many scalar uniforms (the Crusade random
    #: player's draw)
    next_random: Callable[[], float]

    def __init__(self, bit_generator: np.random.BitGenerator) -> None:
        super().__init__(bit_generator)
        self._block: list[int] = []  # raw outputs drawn ahead, not yet used (last first)
        self._before: Any = None  # the bit generator's state before the block
        self._half = 0  # the high 32-bit half kept for the next 32-bit draw (NumPy's ``uinteger``)
        self._has_half = False  # whether it is still to be used (NumPy's ``has_uint32``)
        self._owned = False  # whether the stream draws ahead of the bit generator's own state
        #: PCG64 steps back over the outputs drawn ahead (``advance``): no state kept at each block
        self._rewinds = type(bit_generator) is np.random.PCG64
        self.next_random = _scalar_draw(self._block.pop, self._raw)

    def _own(self) -> None:
        """Take over the bit generator's position: the half it kept becomes the stream's."""
        state = super().bit_generator.state
        self._half, self._has_half = int(state["uinteger"]), bool(state["has_uint32"])
        self._before = None
        self._owned = True

    def _raw(self) -> int:
        """The next raw 64-bit output (``next_uint64``)."""
        try:
            return self._block.pop()
        except IndexError:
            if not self._owned:
                self._own()
            bits = super().bit_generator
            if not self._rewinds:
                self._before = bits.state
            block = bits.random_raw(BLOCK).tolist()
            block.reverse()
            self._block[:] = block
            return self._block.pop()

    def _uint32(self) -> int:
        """NumPy's ``next_uint32``: the half kept, else the low half of a raw output (keeping the
        high half)."""
        if not self._owned:
            self._own()
        if self._has_half:
            self._has_half = False
            return self._half
        raw = self._raw()
        self._half, self._has_half = raw >> 32, True
        return raw & 0xFFFFFFFF

    def random(self, size: Any = None, dtype: Any = np.float64, out: Any = None) -> Any:
        """``Generator.random``; a scalar float64 draw comes from the block (``next_double``)."""
        if size is None and out is None and dtype is _F64:
            return (self._raw() >> 11) * _TO_DOUBLE
        self._settle()
        return super().random(size, dtype, out)

    def integers(
        self, low: Any, high: Any = None, size: Any = None, dtype: Any = np.int64, endpoint: bool = False
    ) -> Any:
        """``Generator.integers``; a scalar ``int64`` from 0 below ``low`` (``integers(n)``, ``n`` up
        to 2**32) comes from the block (Lemire's bounded draw on 32-bit halves, as NumPy's
        ``buffered_bounded_lemire_uint32``) as a plain ``int``."""
        if high is None and size is None and dtype is _I64 and not endpoint and type(low) is int:
            if 1 < low <= 0xFFFFFFFF:
                m = self._uint32() * low
                if (m & 0xFFFFFFFF) < low:
                    threshold = (0xFFFFFFFF - (low - 1)) % low
                    while (m & 0xFFFFFFFF) < threshold:
                        m = self._uint32() * low
                return m >> 32
            if low == 1:
                return 0
        self._settle()
        return super().integers(low, high, size, dtype, endpoint)

    def agreed_index(self, low: int, high: int) -> int | None:
        """The number ``integers(n)`` would draw next for every ``n`` from ``low`` to ``high``
        (``2 <= low <= high < 2**32``) when it is the same for all of them, else None; nothing is
        drawn. Each of those draws then takes the same 32 bits (none is rejected), so a caller that
        knows only that its count of choices lies between ``low`` and ``high`` may draw with any of
        them and take the same choice (the random player's draw among moves whose last few are
        costly to find: ``onepage.game.sampling``)."""
        if not 2 <= low <= high <= 0xFFFFFFFF:
            return None
        if not self._owned:
            self._own()
        if self._has_half:
            bits = self._half
        else:
            if not self._block:
                self._block.append(self._raw())  # the next output drawn ahead, not used
            bits = self._block[-1] & 0xFFFFFFFF
        first = (bits * low) >> 32
        for n in range(low, high + 1):
            m = bits * n
            if (m & 0xFFFFFFFF) < n or m >> 32 != first:
                return None
        return first

    def _settle(self) -> None:
        """Put the bit generator where the draws handed out leave it (the block dropped, the half
        kept handed back)."""
        if self._owned:
            bits = super().bit_generator
            if self._rewinds:
                if self._block:
                    cast(np.random.PCG64, bits).advance(-len(self._block))  # the outputs drawn ahead
            elif self._before is not None:
                bits.state = self._before
                used = BLOCK - len(self._block)
                if used:
                    bits.random_raw(used)
            bits.state = {**bits.state, "has_uint32": int(self._has_half), "uinteger": self._half}
            self._block.clear()
            self._before, self._owned = None, False

    @property
    def bit_generator(self) -> np.random.BitGenerator:
        self._settle()
        return super().bit_generator


def _scalar_draw(pop: Callable[[], int], raw: Callable[[], int]) -> Callable[[], float]:
    """:attr:`Stream.next_random`: the top 53 bits of the next raw output of the block (``pop``: its
    list's ``pop``, the list refilled in place) or, the block used up, of the stream's ``raw``."""

    def next_random() -> float:
        try:
            return (pop() >> 11) * _TO_DOUBLE  # outputs in the block: owned already
        except IndexError:
            return (raw() >> 11) * _TO_DOUBLE

    return next_random


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
    if _public and _name not in ("random", "integers") and callable(getattr(np.random.Generator, _name)):
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
