"""The game's two memos: one game's geometry, and the exact laws kept across the games of a worker.

A game asks the same geometric questions many times (a unit's model centres at an anchor, the
models of one unit that see another, the shooting situation of a unit at a candidate position):
the answers depend only on the units' anchors, models alive and sides, so they are kept per
:class:`~grimdice.systems.onepage.game.setup.Setup` (one table and one pair of armies) in a plain
dict, bounded by :data:`LIMIT` entries (cleared when full). Arrays handed out are read-only.

The exact engine's laws (and the AI's values read from them) are kept across the games a worker
plays (``GameJob.cache``) in a :class:`LawCache`: least recently used entries go first once it
holds :data:`LAW_LIMIT` of them, so a long run's memory stays bounded. Every entry equals what its
computation gives, so what is kept never changes a game, only its time.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Callable
from typing import Any, TypeVar

from grimdice.systems.onepage.attack import strikers
from grimdice.systems.onepage.units import UnitState, kept

T = TypeVar("T")

LIMIT = 200_000  # entries kept per setup before the memo starts again
MEMO_ATTR = "_geometry_memo"  # where a setup keeps its geometry memo
LAW_LIMIT = 20_000  # laws and values kept across games (least recently used go first)


class LawCache(OrderedDict[Any, Any]):
    """A dict bounded to ``limit`` entries, least recently used (read or written) evicted first."""

    def __init__(self, limit: int = LAW_LIMIT) -> None:
        super().__init__()
        if limit < 1:
            raise ValueError("a LawCache keeps at least one entry")
        self.limit = limit

    def get(self, key: Any, default: Any = None) -> Any:
        try:
            self.move_to_end(key)
        except KeyError:
            return default
        return super().__getitem__(key)

    def __setitem__(self, key: Any, value: Any) -> None:
        super().__setitem__(key, value)
        self.move_to_end(key)
        if len(self) > self.limit:
            self.popitem(last=False)


#: the kinds of chance node whose law ``combat.combat_law`` keeps under ``(kind, u, su, t, st, key)``
LAW_KINDS = ("shoot", "melee", "dangerous", "transport")


def law_situations(cache: dict[Any, Any]) -> list[tuple[Any, ...]]:
    """The situations ``(kind, u, su, t, st, key)`` whose combat laws ``cache`` holds (its other
    entries are the AI's values), in the cache's order: each, given to ``combat_law`` again, is its
    own key."""
    return [k for k in cache if isinstance(k, tuple) and len(k) == 6 and k[0] in LAW_KINDS]


def firing_state(su: UnitState, in_range: int) -> UnitState:
    """The shooter's state as the exact shooting reads it, the key of its law: only the models that
    fire ("All models in a unit that have line of sight to an enemy unit and that have a weapon that
    is within range of that unit may fire": the first ``in_range`` alive in listed group order, as
    :func:`~grimdice.systems.onepage.attack.shooters` counts them) and Shaken ("must re-roll
    successful hits"). Wounds on its Tough models, and models out of range, change nothing of the
    shooting, so states that differ only there share one law."""
    alive = strikers(su, in_range)
    return UnitState(alive, (0,) * len(alive), shaken=su.shaken)


def shot_state(su: UnitState, key: tuple[Any, ...]) -> UnitState:
    """:func:`firing_state` of a shooting with situation ``key`` (``GameState.shot_key``): when it
    counts the models per weapon (``key[0]``), every model alive stays, the counts naming which
    fire; else the first ``key[1]``."""
    return firing_state(su, su.models if isinstance(key[0], tuple) else key[1])


def memo(setup: Any) -> dict[Any, Any]:
    """The geometry memo of ``setup`` (created on first use, emptied when it reaches LIMIT)."""
    return kept(setup, MEMO_ATTR, LIMIT)


def recall(setup: Any, key: Any, compute: Callable[[], T]) -> T:
    """The memo's answer for ``key``, computed by ``compute()`` and kept the first time it is asked
    (the memo read straight from ``setup`` while it has room: the game asks it at every step)."""
    d: dict[Any, Any] | None = setup.__dict__.get(MEMO_ATTR)
    if d is None or len(d) >= LIMIT:
        d = memo(setup)
    hit: T | None = d.get(key)  # units.answer, inlined: the game asks it thousands of times
    if hit is None:
        hit = d[key] = compute()
    return hit


__all__ = [
    "LAW_KINDS",
    "LAW_LIMIT",
    "LIMIT",
    "LawCache",
    "firing_state",
    "law_situations",
    "memo",
    "recall",
    "shot_state",
]
