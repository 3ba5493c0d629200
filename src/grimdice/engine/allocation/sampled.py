"""Wound allocation model by model, rolled literally: the exact chain's queues, one state per trial.

The unit is the same as in :mod:`~grimdice.engine.allocation.chain`: one or more **queues**, each
models wounded one after another in allocation order (a wounded model keeps receiving wounds until
it is removed; damage beyond its wounds is lost). Where the chain keeps a law over the wounds each
queue has lost, a Monte Carlo engine keeps, per trial and per queue, three numbers: the position
of the model receiving the next wound (``at``; the queue's length once every model is removed), the
wounds that model has left (``left``; 0 past the end) and the wounds the queue has lost (``lost``).
The system routes each wound to a queue, as the chain's ``route`` does, and reads what the wound
does from its own rule tables, as the chain's token law.

All the rows of a unit live in one array (:class:`SampledUnit`), so reordering the trials (to keep
the trials still holding wounds a contiguous prefix) is one ``np.take``.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

ROWS = 3  # per queue: at, left, lost


def take_wounds(
    at: np.ndarray,
    left: np.ndarray,
    lost: np.ndarray,
    wounds: np.ndarray,
    trials: np.ndarray,
    amount: np.ndarray | int,
) -> None:
    """Trials ``trials`` lose ``amount`` wounds (at most those left) on the model receiving the
    next wound of one queue (``at``, ``left``, ``lost``: the queue's rows; ``wounds``: its models'
    wounds by position, padded with a 0 past the end); a model left with none is removed and the
    next one comes up. Every trial in ``trials`` must have a model there."""
    have = left.take(trials)
    taken = np.minimum(amount, have)
    have -= taken
    left[trials] = have
    lost[trials] += taken
    removed = trials[have == 0]
    if removed.size:
        at[removed] += 1
        left[removed] = wounds.take(at.take(removed))


class SampledUnit:
    """The defending unit in every trial: for each queue (``queues``: its models' wounds, in
    allocation order) the rows ``at``, ``left`` and ``lost`` (see the module text), then ``extra``
    rows a system counts alongside (e.g. failed saves), all in one int32 array ``state``."""

    def __init__(self, queues: Sequence[Sequence[int]], trials: int, extra: int = 0) -> None:
        self.wounds = [np.array([*w, 0], dtype=np.int32) for w in queues]
        self.sizes = [len(w) for w in queues]
        self.state = np.zeros((ROWS * len(queues) + extra, trials), dtype=np.int32)
        for q, w in enumerate(self.wounds):
            self.state[ROWS * q + 1] = w[0]

    def queue(self, q: int, n: int | None = None) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """(at, left, lost) of queue ``q``: views of the first ``n`` trials' columns (all: None)."""
        rows = self.state[ROWS * q : ROWS * q + ROWS]
        at, left, lost = rows if n is None else rows[:, :n]
        return at, left, lost

    def extra(self, i: int, n: int | None = None) -> np.ndarray:
        """Extra row ``i`` (a view of the first ``n`` trials' columns; all: None)."""
        row = self.state[ROWS * len(self.wounds) + i]
        return row if n is None else row[:n]

    def take(self, q: int, trials: np.ndarray, amount: np.ndarray | int, n: int | None = None) -> None:
        """:func:`take_wounds` on queue ``q`` (``trials`` index the first ``n`` columns)."""
        at, left, lost = self.queue(q, n)
        take_wounds(at, left, lost, self.wounds[q], trials, amount)

    def alive(self, q: int) -> np.ndarray:
        """Per trial, whether queue ``q`` still has a model."""
        return self.queue(q)[0] < self.sizes[q]

    def reorder(self, order: np.ndarray) -> None:
        """Reorder the trials (column ``i`` becomes the old column ``order[i]``)."""
        self.state = np.take(self.state, order, axis=1)  # several times faster than state[:, order]


__all__ = ["SampledUnit", "take_wounds"]
