"""A pool of dice folded die by die into a small state: the exact law of the state, and the same walk
as look-up tables for dice rolled literally.

A :class:`PoolEvaluator` has the shape of icepool's multiset evaluators: an initial state, a step
``next_state(state, kind, face)`` taking one more die of ``kind`` showing ``face``, and a final
outcome read off the last state. A pool is a tuple of ``(kind, faces)``, one entry a die, ``faces``
its sides with repeats (``(0, 0, 0, 0, 1, 2)``: a face shown by two sides is twice as likely).

* :func:`face_law` - one die's faces with their probabilities;
* :func:`fold_law` - the exact law of the final outcome (memoised per evaluator and pool);
* :func:`fold_states` - the exact law of the last state, before the final outcome;
* :func:`step_tables` - the walk as one table per die, ``table[state id, side index]`` -> the next
  state's id, so that a Monte Carlo engine follows the rolled sides with one gather per die.

Evaluators must be hashable (e.g. frozen dataclasses): the laws are cached by evaluator and pool.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections import defaultdict
from collections.abc import Hashable
from functools import lru_cache
from typing import Generic, TypeVar

import numpy as np

St = TypeVar("St", bound=Hashable)
Out = TypeVar("Out", bound=Hashable)

#: one die of a pool: its kind (any label the evaluator reads) and its sides' faces
DieSpec = tuple[Hashable, tuple[int, ...]]
PoolSpec = tuple[DieSpec, ...]


class PoolEvaluator(ABC, Generic[St, Out]):
    """A fold over a pool's dice: :meth:`initial_state`, :meth:`next_state` per die, :meth:`final_outcome`."""

    @abstractmethod
    def initial_state(self) -> St:
        """The state before any die is read."""

    @abstractmethod
    def next_state(self, state: St, kind: Hashable, face: int) -> St:
        """The state after one more die of ``kind`` shows ``face``."""

    def final_outcome(self, state: St) -> Out:
        """The outcome of a pool that ended in ``state`` (the state itself unless overridden)."""
        return state  # type: ignore[return-value]


@lru_cache(maxsize=64)
def face_law(sides: tuple[int, ...]) -> tuple[tuple[int, float], ...]:
    """``((face, p), ...)`` of one die, its distinct faces in increasing order, each with probability
    sides showing it / sides."""
    return tuple((f, sides.count(f) / len(sides)) for f in sorted(set(sides)))


@lru_cache(maxsize=256)
def fold_states(evaluator: PoolEvaluator[St, Out], pool: PoolSpec) -> dict[St, float]:
    """``{last state: p}`` of the pool, die by die in the pool's order (states in first-reached order;
    each die's distinct faces in increasing order, with probability sides showing it / sides)."""
    law: dict[St, float] = {evaluator.initial_state(): 1.0}
    for kind, sides in pool:
        faces = sorted(set(sides))
        nxt: dict[St, float] = defaultdict(float)
        for state, p in law.items():
            for f in faces:
                nxt[evaluator.next_state(state, kind, f)] += p * sides.count(f) / len(sides)
        law = dict(nxt)
    return law


@lru_cache(maxsize=256)
def fold_law(evaluator: PoolEvaluator[St, Out], pool: PoolSpec) -> dict[Out, float]:
    """``{final outcome: p}`` of the pool (outcomes in first-reached order of their last states)."""
    out: dict[Out, float] = defaultdict(float)
    for state, p in fold_states(evaluator, pool).items():
        out[evaluator.final_outcome(state)] += p
    return dict(out)


def step_tables(evaluator: PoolEvaluator[St, Out], pool: PoolSpec) -> tuple[list[St], list[np.ndarray]]:
    """The walk of :func:`fold_states` over every side of every die: ``(last states, tables)``, one
    table per die, ``table[state id, side index]`` the id of the next state (ids in first-reached
    order; the last table's ids index the returned states)."""
    states: list[St] = [evaluator.initial_state()]
    tables: list[np.ndarray] = []
    for kind, sides in pool:
        ids: dict[St, int] = {}
        table = np.empty((len(states), len(sides)), dtype=np.intp)
        for i, state in enumerate(states):
            for j, f in enumerate(sides):
                table[i, j] = ids.setdefault(evaluator.next_state(state, kind, f), len(ids))
        states = list(ids)
        tables.append(table)
    return states, tables


__all__ = ["DieSpec", "PoolEvaluator", "PoolSpec", "face_law", "fold_law", "fold_states", "step_tables"]
