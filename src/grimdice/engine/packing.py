"""Two per-trial counts in one machine word, for the Monte Carlo engines' inner loops.

An allocation loop adds, per wound and per trial, a few small counts read from one table (e.g. the
failed saves and the dice the wound rolled). Packing them into one int32 *tally word* (the first
count in the low bits, the second above them) makes that one table look-up and one addition per
wound instead of two of each. The upper count grows fastest, so it is **flushed** into a total
(e.g. the sampler's dice count) before it can carry into the sign bit: :meth:`TallyWords.room`
says how many additions fit between flushes.
"""

from __future__ import annotations

import numpy as np

WORD_BITS = 31  # the bits of an int32 word below its sign bit


def pack(low: np.ndarray, high: np.ndarray, low_bits: int) -> np.ndarray:
    """Table entries (int32) adding ``low`` to a word's low count and ``high`` to its upper one."""
    return (np.asarray(low, dtype=np.int32) + (np.asarray(high, dtype=np.int32) << low_bits)).astype(np.int32)


class TallyWords:
    """Per trial, a count in the low ``low_bits`` bits of an int32 word and a second count above
    them (see the module text). The low count must stay below ``2**low_bits``."""

    def __init__(self, trials: int, low_bits: int) -> None:
        if not 0 < low_bits < WORD_BITS:
            raise ValueError(f"low_bits is 1 to {WORD_BITS - 1} (got {low_bits})")
        self.low_bits = low_bits
        self.words = np.zeros(trials, dtype=np.int32)
        self._mark = self.words.copy()

    @property
    def high_max(self) -> int:
        """The largest upper count one word holds above its low bits."""
        return (1 << (WORD_BITS - self.low_bits)) - 1

    def room(self, high_per_add: int) -> int:
        """Additions that fit between flushes when each adds at most ``high_per_add`` above (at
        least one: a word too small for one addition is refused)."""
        if high_per_add > self.high_max:
            raise ValueError(f"one addition of {high_per_add} does not fit above {self.low_bits} bits")
        return self.high_max // max(1, high_per_add)

    def add(self, entries: np.ndarray) -> None:
        """Add one table entry (:func:`pack`) to every trial's word."""
        self.words += entries

    def flush(self) -> int:
        """Clear the upper counts added since the last flush from the words; returns their sum
        over all trials."""
        self.words -= self._mark
        total = int((self.words >> self.low_bits).sum(dtype=np.int64))
        self.words &= (1 << self.low_bits) - 1
        self.words += self._mark
        self._mark = self.words.copy()
        return total

    def low(self) -> np.ndarray:
        """The low count per trial (int64)."""
        return (self.words & ((1 << self.low_bits) - 1)).astype(np.int64)


__all__ = ["TallyWords", "pack"]
