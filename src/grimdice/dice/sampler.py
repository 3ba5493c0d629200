"""Seeded, vectorised Monte Carlo sampling of dice.

Every simulator in grimdice draws from one :class:`Sampler`, so a run is reproducible from its
seed. Pools of a random size are handled as padded 2-D arrays with a validity mask: row ``t`` is
trial ``t``, column ``j`` is die ``j``, and ``mask[t, j]`` says whether that die was rolled.
"""

from __future__ import annotations

from collections.abc import Collection

import numpy as np

from grimdice.dice.expr import D6, DiceExpr, Die


class Sampler:
    """Vectorised dice roller around ``numpy.random.default_rng(seed)``."""

    def __init__(self, seed: int | np.random.SeedSequence | None = None) -> None:
        self.seed = seed
        self.rng = np.random.default_rng(seed)

    def roll(self, shape: int | tuple[int, ...], die: Die = D6) -> np.ndarray:
        """Roll dice of one kind into an array of the given shape."""
        return die.sample(self.rng, shape)

    def expr(self, expr: DiceExpr, size: int) -> np.ndarray:
        """``size`` independent totals of a dice expression."""
        return expr.sample(self.rng, size)

    def reroll(self, rolls: np.ndarray, mask: np.ndarray, die: Die = D6) -> np.ndarray:
        """Reroll (once) every die where ``mask`` is true; returns a new array."""
        out = rolls.copy()
        k = int(mask.sum())
        if k:
            out[mask] = die.sample(self.rng, k)
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
            out[rows, cols] = die.sample(self.rng, rows.size)
        return out

    def pool(self, counts: np.ndarray, die: Die = D6) -> tuple[np.ndarray, np.ndarray]:
        """Roll ``counts[t]`` dice for each trial ``t``: returns ``(rolls, valid)`` padded 2-D."""
        counts = np.asarray(counts, dtype=np.int64)
        width = int(counts.max()) if counts.size else 0
        rolls = die.sample(self.rng, (counts.size, max(width, 1)))
        valid = np.arange(max(width, 1))[None, :] < counts[:, None]
        return rolls, valid
