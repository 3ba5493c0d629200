"""Copies of the game's frozen records (:class:`.state.GameState`, :class:`.state.Token`,
:class:`.state.Psy`) with some fields changed, made at every step of a game.

``dataclasses.replace`` checks every field and runs the class's ``__init__``; these records have
no ``__post_init__`` nor computed fields, so a copy of the instance's fields with the changes is
the same value, made several times faster. Only fields the class declares may be changed: an
instance's ``__dict__`` holds exactly its declared fields, so a change naming another field is
seen as the copy growing a key.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

T = TypeVar("T")


def altered(obj: T, **changes: Any) -> T:
    """A copy of the frozen dataclass ``obj`` with ``changes`` (see the module text)."""
    return altered_by(obj, changes)


def altered_by(obj: T, changes: Mapping[str, Any]) -> T:
    """:func:`altered` with the changes given as a mapping (no keyword arguments to pack)."""
    now = obj.__dict__
    values = {**now, **changes}
    if len(values) != len(now):
        unknown = sorted(changes.keys() - now.keys())
        raise TypeError(f"{type(obj).__name__} has no field {unknown[0]!r}")
    new: T = object.__new__(type(obj))
    object.__setattr__(new, "__dict__", values)
    return new


__all__ = ["altered", "altered_by"]
