"""Wound allocation model by model, rolled literally: the exact chain's queues, one state per trial.

The unit is the same as in :mod:`~grimdice.engine.allocation.chain`: one or more **queues**, each
models wounded one after another in allocation order (a wounded model keeps receiving wounds until
it is removed; damage beyond its wounds is lost). Where the chain keeps a law over the wounds each
queue has lost, a Monte Carlo engine keeps, per trial and per queue, two numbers: the position
of the model receiving the next wound (``at``; the queue's length once every model is removed) and
the wounds that model has left (``left``); the wounds the queue has lost follow from them.
The system routes each wound to a queue, as the chain's ``route`` does, and reads what the wound
does from its own rule tables, as the chain's token law.

All the rows of a unit live in one array (:class:`SampledUnit`), so reordering the trials (to keep
the trials still holding wounds a contiguous prefix) is one ``np.take``.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

ROWS = 2  # per queue: at, left
NO_MODEL = 1 << 30  # wounds "left" past the end of a queue: more than any loss takes


def take_wounds(
    at: np.ndarray, left: np.ndarray, wounds: np.ndarray, trials: np.ndarray, amount: np.ndarray | int
) -> None:
    """Trials ``trials`` lose ``amount`` wounds on the model receiving the next wound of one queue
    (``at``, ``left``: the queue's rows; ``wounds``: its models' wounds by position, then
    :data:`NO_MODEL`); a model left with none is removed (the damage beyond its wounds is lost) and
    the next one comes up. Every trial in ``trials`` must have a model there."""
    have = left.take(trials)
    have -= amount
    left[trials] = have
    removed = trials[have <= 0]
    if removed.size:
        at[removed] += 1
        left[removed] = wounds.take(at.take(removed))


def take_wounds_everywhere(
    at: np.ndarray, left: np.ndarray, wounds: np.ndarray, amount: np.ndarray
) -> np.ndarray:
    """:func:`take_wounds` in every trial at once (``amount``: per trial, 0 where no wound), the
    faster form when most trials take a wound (a queue with no model left takes 0). Returns the
    trials whose model was removed."""
    left -= amount
    removed = np.flatnonzero(left <= 0)
    if removed.size:
        at[removed] += 1
        left[removed] = wounds.take(at.take(removed))
    return removed


class SampledUnit:
    """The defending unit in every trial: for each queue (``queues``: its models' wounds, in
    allocation order) the rows ``at`` and ``left`` (see the module text), then ``extra`` rows a
    system counts alongside (e.g. failed saves), all in one int32 array ``state``."""

    def __init__(self, queues: Sequence[Sequence[int]], trials: int, extra: int = 0) -> None:
        self.wounds = [np.array([*w, NO_MODEL], dtype=np.int32) for w in queues]
        self.sizes = [len(w) for w in queues]
        self.state = np.zeros((ROWS * len(queues) + extra, trials), dtype=np.int32)
        for q, w in enumerate(self.wounds):
            self.state[ROWS * q + 1] = w[0]
        self.where = np.arange(trials)  # the trial in each column of the state

    def queue(self, q: int, n: int | None = None) -> tuple[np.ndarray, np.ndarray]:
        """(at, left) of queue ``q``: views of the first ``n`` trials' columns (all: None)."""
        rows = self.state[ROWS * q : ROWS * q + ROWS]
        at, left = rows if n is None else rows[:, :n]
        return at, left

    def extra(self, i: int, n: int | None = None) -> np.ndarray:
        """Extra row ``i`` (a view of the first ``n`` trials' columns; all: None)."""
        row = self.state[ROWS * len(self.wounds) + i]
        return row if n is None else row[:n]

    def take(self, q: int, trials: np.ndarray, amount: np.ndarray | int, n: int | None = None) -> None:
        """:func:`take_wounds` on queue ``q`` (``trials`` index the first ``n`` columns)."""
        at, left = self.queue(q, n)
        take_wounds(at, left, self.wounds[q], trials, amount)

    def take_everywhere(self, q: int, amount: np.ndarray) -> np.ndarray:
        """:func:`take_wounds_everywhere` on queue ``q``; the trials whose model was removed."""
        at, left = self.queue(q)
        return take_wounds_everywhere(at, left, self.wounds[q], amount)

    def destroyed(self, q: int) -> np.ndarray:
        """Models of queue ``q`` removed, per trial (int64)."""
        return self.queue(q)[0].astype(np.int64)

    def damage(self, q: int) -> np.ndarray:
        """Wounds queue ``q`` has lost, per trial (int64): those of the models removed and of the
        model receiving the next wound."""
        at, left = self.queue(q)
        w = self.wounds[q]
        before = np.concatenate([[0], np.cumsum(w[:-1], dtype=np.int64)])  # by position
        lost = before.take(at) + w.take(at)
        lost -= left
        return lost

    def reorder(self, order: np.ndarray) -> None:
        """Reorder the trials (column ``i`` becomes the old column ``order[i]``)."""
        self.state = np.take(self.state, order, axis=1)  # several times faster than state[:, order]
        self.where = self.where[order]

    def holding_first(self, count: np.ndarray, top: int) -> np.ndarray:
        """Reorder the trials by how many tokens of one kind each holds (``count``, in trial order;
        ``top``: its largest value), most first and otherwise in their order, so that step ``k`` of
        the tokens (the ``k``-th token of every trial holding one) is the first ``holding[k]``
        columns; returns ``holding`` (trials holding at least ``k`` tokens, ``k = 0..top``)."""
        c = count[self.where]
        order = np.argsort((top - c).astype(np.uint16 if top < 2**16 else np.int64), kind="stable")  # radix
        self.reorder(order)
        return np.bincount(c, minlength=top + 1)[::-1].cumsum()[::-1]

    def in_trial_order(self) -> None:
        """Put the trials back in their order (column ``t`` is trial ``t``)."""
        back = np.empty_like(self.where)
        back[self.where] = np.arange(self.where.size)
        self.reorder(back)


__all__ = ["NO_MODEL", "SampledUnit", "take_wounds", "take_wounds_everywhere"]
