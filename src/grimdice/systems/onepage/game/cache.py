"""Memos of one game's geometry, keyed by compact tuples of what the answer depends on.

A game asks the same geometric questions many times (a unit's model centres at an anchor, the
models of one unit that see another, the shooting situation of a unit at a candidate position):
the answers depend only on the units' anchors, models alive and sides, so they are kept per
:class:`~grimdice.systems.onepage.game.setup.Setup` (one table and one pair of armies) in a plain
dict, bounded by :data:`LIMIT` entries (cleared when full). Arrays handed out are read-only.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

T = TypeVar("T")

LIMIT = 200_000  # entries kept per setup before the memo starts again


def memo(setup: Any) -> dict[Any, Any]:
    """The geometry memo of ``setup`` (created on first use, emptied when it reaches LIMIT)."""
    d: dict[Any, Any] | None = setup.__dict__.get("_geometry_memo")
    if d is None or len(d) >= LIMIT:
        d = {}
        setup.__dict__["_geometry_memo"] = d
    return d


def recall(setup: Any, key: Any, compute: Callable[[], T]) -> T:
    """The memo's answer for ``key``, computed by ``compute()`` and kept the first time it is asked."""
    m = memo(setup)
    hit: T | None = m.get(key)
    if hit is None:
        hit = m[key] = compute()
    return hit


__all__ = ["LIMIT", "memo", "recall"]
