"""The attack pipeline's building block: a roll, written once, with an exact and a sampled form.

A :class:`CategoryRoll` is one kind of dice roll of a system (a Hit roll, a Wound roll, a defence dice
roll, a Quality test): the die, the system's **predicate** from its ``rolls.py`` that sorts an
unmodified face into a result category (critical, normal, fail, ...), and which faces are
re-rolled once. From that single description come

* the exact law: :meth:`CategoryRoll.probs` (one die) and :meth:`CategoryRoll.pool` (counts per
  category from a pool of a fixed or random number of dice, every qualifying die re-rolled or only
  one);
* the sampled law: :meth:`CategoryRoll.sample` rolls the same dice literally for many trials at once.

A system's stages are then *token transforms* on these counts (a critical hit becomes an automatic
wound, a wound becomes a damage token...), written with :class:`~grimdice.dice.Joint` for the
exact engine and with NumPy arrays for the sampled one. The predicate must accept NumPy arrays of
faces (and plain ints), as every ``rolls.py`` predicate in grimdice does.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import cached_property

import numpy as np

from grimdice.dice.dist import Dist
from grimdice.dice.expr import D6, Die
from grimdice.dice.joint import Joint
from grimdice.dice.reroll import category_probs, pool_counts, reroll_die
from grimdice.dice.sampler import NARROW, Sampler, column_layout, count_categories, lookup

Categorize = Callable[[np.ndarray], np.ndarray]
FacePredicate = Callable[[np.ndarray], np.ndarray]


def _never(faces: np.ndarray) -> np.ndarray:
    return np.zeros(np.shape(faces), dtype=bool)


@dataclass(frozen=True)
class CategoryRoll:
    """One die roll sorted by ``categorize`` into ``0..ncat-1`` (the last category is
    "nothing" and gets no axis in pooled counts); faces where ``reroll`` holds are re-rolled once."""

    categorize: Categorize
    ncat: int
    die: Die = D6
    reroll: FacePredicate = _never

    def _category(self, face: int) -> int:
        return int(self.categorize(np.asarray(face)))

    def _rerolled(self, face: int) -> bool:
        return bool(self.reroll(np.asarray(face)))

    @cached_property
    def probs(self) -> np.ndarray:
        """``P(category c)`` of one die, after its re-roll."""
        face = reroll_die(self.die.dist, self._rerolled)
        return category_probs(face, self._category, self.ncat)

    def pool(self, n: int | Dist, *, only_one: bool = False) -> Joint:
        """Counts per category (all but the last) from ``n`` dice (a number or a law).

        ``only_one``: only one qualifying die of the whole pool may be re-rolled."""
        if isinstance(n, Dist):
            if only_one:
                return Joint.mixture(
                    [n[k] for k in range(n.min, n.max + 1) if n[k] > 0],
                    [self.pool(k, only_one=True) for k in range(n.min, n.max + 1) if n[k] > 0],
                )
            return Joint.categorical(self.probs).sum_of(n)
        if only_one:
            return pool_counts(self.die.dist, n, self._category, self.ncat, self._rerolled, only_one=True)
        return Joint.categorical(self.probs).repeat(n)

    @cached_property
    def _lookup(self) -> tuple[int, np.ndarray, np.ndarray]:
        """(lowest face, category by face - lowest, re-rolled by face - lowest): the predicates
        evaluated once per face value, so a sampled pool is sorted by table look-up."""
        faces = np.asarray(self.die.faces, dtype=np.int64)
        lo = int(faces.min())
        values = np.arange(lo, int(faces.max()) + 1)
        category = np.broadcast_to(np.asarray(self.categorize(values)), values.shape).astype(np.int8)
        rerolled = np.broadcast_to(np.asarray(self.reroll(values), dtype=bool), values.shape).copy()
        return lo, category, rerolled

    def categories(
        self, sampler: Sampler, faces: np.ndarray, rolled: np.ndarray | None, count: bool = True
    ) -> np.ndarray:
        """The category (uint8) of each die of a column layout showing ``faces`` (uint8, drawn with
        :meth:`~grimdice.dice.sampler.Sampler.draw`), after its re-roll; ``rolled``: which entries
        are dice (None: all; the others get the last category, "nothing"). Counts in the sampler
        the dice rolled (``count``: the first dice too) and the re-rolls. The die must be numbered
        ``lo..lo+n-1`` (a D6)."""
        lo, category, rerolled = self._lookup
        if self.die.faces != tuple(range(lo, lo + len(self.die.faces))):
            raise ValueError(f"categories() needs a numbered die, not {self.die.faces}")
        if count:
            sampler.dice += faces.size if rolled is None else int(np.count_nonzero(rolled))
        if rerolled.any():
            again = lookup(faces, rerolled, lo, np.uint8).view(bool)
            if rolled is not None:
                again &= rolled
            sampler.dice += int(np.count_nonzero(again))
            faces = np.where(again, sampler.draw(faces.shape, len(self.die.faces)) + np.uint8(lo), faces)
        cat = lookup(faces, category, lo, np.uint8)
        if rolled is not None:
            # "nothing" (the highest category) where no die was rolled; arithmetic, as masked
            # assignment is several times slower
            np.maximum(cat, np.logical_not(rolled).view(np.uint8) * np.uint8(self.ncat - 1), out=cat)
        return cat

    def sample(self, sampler: Sampler, counts: np.ndarray, *, only_one: bool = False) -> np.ndarray:
        """Roll ``counts[t]`` dice for each trial ``t``; ``(trials, ncat - 1)`` counts per category.

        The dice of all trials are rolled as a padded 2-D pool by column
        (:meth:`~grimdice.dice.sampler.Sampler.columns`) when the pools are narrow and at least half
        the slots are dice (the padding is drawn but is not dice and is not counted), else flat (no
        padding); re-rolled and sorted by table look-up, and counted per trial
        (:func:`~grimdice.dice.sampler.count_categories`)."""
        counts = np.asarray(counts, dtype=np.int64)
        lo, category, rerolled = self._lookup
        if only_one:
            rolls, dice = sampler.pool(counts, self.die)
            rolls = sampler.reroll_one(rolls, rerolled[rolls - lo] & dice, self.die)
            cat = np.where(dice, category[rolls - lo], self.ncat - 1)
            return np.stack([(cat == c).sum(axis=1) for c in range(self.ncat - 1)], axis=1)
        top = int(counts.max()) if counts.size else 0
        valid: np.ndarray | None = None
        if 0 < top <= NARROW and top * counts.size <= 2 * int(counts.sum()):  # little padding
            faces = sampler.columns(counts, self.die)
            _, valid = column_layout(counts)
        else:
            faces = sampler.flat(counts, self.die)
        if rerolled.any():
            mask = lookup(faces, rerolled, lo, np.uint8).view(bool)
            if valid is not None:
                mask &= valid
            k = int(np.count_nonzero(mask))
            if k:
                faces[mask] = sampler.roll(k, self.die)
        return count_categories(faces, category, counts, self.ncat, lo, valid)


__all__ = ["CategoryRoll"]
