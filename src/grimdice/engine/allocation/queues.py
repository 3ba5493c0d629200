"""The defending unit's queues of models, and what a system tells the allocation chain about them.

A **queue** is models wounded one after another, in allocation order (40k's Bodyguard and attached
Characters, Heresy's closest-first models and its Precision target). It is described by one
number, the wounds it has lost so far ``c``: prefix sums of its models' wounds tell which model is
next, how many wounds it has left and how many models are destroyed. A system gives the chain
(:class:`~grimdice.engine.allocation.chain.Chain`) its queues, its **routing** (:data:`Route`: which
queue receives the next token of a kind in a given state) and the **law of one token** on one model
(:data:`TokenLaw`, giving a :data:`Law`).
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Mapping, Sequence
from dataclasses import dataclass
from functools import cached_property
from typing import TypeVar

import numpy as np

Law = Mapping[tuple[int, int], float]
"""The law of one token on one model: ``{(wounds lost, failed saves): probability}``.
An entry with no failed save loses no wound."""


@dataclass(frozen=True)
class Queue:
    """Models wounded one after another, in allocation order, by their wounds.

    ``types``: per model, an id shared by the models whose tokens have the same law (identical
    profiles), so the chain asks for each law once; by default every model is its own type."""

    wounds: tuple[int, ...]
    types: tuple[Hashable, ...] | None = None

    @cached_property
    def prefix(self) -> np.ndarray:
        """``prefix[i]``: wounds the queue has lost when model ``i`` starts receiving wounds."""
        return np.concatenate([[0], np.cumsum(self.wounds)]).astype(int)

    @cached_property
    def total(self) -> int:
        return int(self.prefix[-1])

    @cached_property
    def states(self) -> int:
        return self.total + 1

    def at(self, c: int) -> tuple[int, int] | None:
        """(model receiving the next wound, wounds it has left) in state ``c``; None when every
        model of the queue is destroyed."""
        if c >= self.total:
            return None
        i = int(np.searchsorted(self.prefix, c, side="right")) - 1
        return i, int(self.prefix[i + 1]) - c

    @cached_property
    def positions(self) -> list[tuple[int, int]]:
        """:meth:`at` of every state ``c`` in ``0..total-1``."""
        c = np.arange(self.total)
        i = np.searchsorted(self.prefix, c, side="right") - 1
        return list(zip(i.tolist(), (self.prefix[i + 1] - c).tolist(), strict=True))

    @cached_property
    def slots(self) -> Sequence[tuple[Hashable, int]]:
        """(type of the model receiving the next wound, wounds it has left) of every state ``c`` in
        ``0..total-1``: states with the same slot get the same token law."""
        if self.types is None:
            return self.positions
        return [(self.types[i], left) for i, left in self.positions]

    def destroyed(self) -> np.ndarray:
        """Models destroyed in each state ``c`` in ``0..total`` (read-only)."""
        return self._destroyed

    @cached_property
    def _destroyed(self) -> np.ndarray:
        out = np.searchsorted(self.prefix[1:], np.arange(self.states), side="right")
        out.setflags(write=False)
        return out


K = TypeVar("K", bound=Hashable)
"""A system's token kind (e.g. 40k ``(kind, group)``, Heresy ``(group, precision)``)."""

Route = Callable[[K, tuple[int, ...]], int | None]
"""``route(kind, state)``: the queue receiving the next token of ``kind`` (None: unit destroyed)."""

TokenLaw = Callable[[K, int | None, int, int], Law]
"""``law(kind, queue, model, left)``: the law of one token of ``kind`` on model ``model`` of
``queue`` with ``left`` wounds; ``queue`` is None once the unit is destroyed (left-over tokens)."""


__all__ = ["K", "Law", "Queue", "Route", "TokenLaw"]
