"""Copies of the game's frozen records (:class:`.state.GameState`, :class:`.state.Token`,
:class:`.state.Psy`) with some fields changed, made at every step of a game.

``dataclasses.replace`` checks every field and runs the class's ``__init__``; these records have
no ``__post_init__`` nor computed fields, so a copy of the instance's fields with the changes is
the same value, made several times faster. Only fields the class declares may be changed.
"""

from __future__ import annotations

from functools import cache
from typing import Any, TypeVar

T = TypeVar("T")


@cache
def _fields(cls: type) -> frozenset[str]:
    return frozenset(getattr(cls, "__dataclass_fields__", ()))


def altered(obj: T, **changes: Any) -> T:
    """A copy of the frozen dataclass ``obj`` with ``changes`` (see the module text)."""
    cls: type = type(obj)
    if not changes.keys() <= _fields(cls):
        unknown = sorted(changes.keys() - _fields(cls))
        raise TypeError(f"{cls.__name__} has no field {unknown[0]!r}")
    new: T = object.__new__(cls)
    new.__dict__.update(obj.__dict__)
    new.__dict__.update(changes)
    return new


__all__ = ["altered"]
