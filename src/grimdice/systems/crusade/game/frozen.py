"""Copies of the game's frozen records (:class:`.state.GameState`, :class:`.state.Token`,
:class:`.state.Psy`) with some fields changed, made at every step of a game.

``dataclasses.replace`` checks every field and runs the class's ``__init__``; these records have
no ``__post_init__`` nor computed fields, so a copy of the instance's fields with the changes is
the same value, made several times faster. Only fields the class declares may be changed.
"""

from __future__ import annotations

from typing import Any, TypeVar

T = TypeVar("T")


#: each record class's fields
_FIELDS: dict[type, frozenset[str]] = {}


def altered(obj: T, **changes: Any) -> T:
    """A copy of the frozen dataclass ``obj`` with ``changes`` (see the module text)."""
    cls: type = type(obj)
    fields = _FIELDS.get(cls)
    if fields is None:
        fields = _FIELDS[cls] = frozenset(getattr(cls, "__dataclass_fields__", ()))
    if not fields.issuperset(changes):
        unknown = sorted(changes.keys() - fields)
        raise TypeError(f"{cls.__name__} has no field {unknown[0]!r}")
    values = obj.__dict__.copy()
    values.update(changes)
    new: T = object.__new__(cls)
    object.__setattr__(new, "__dict__", values)
    return new


__all__ = ["altered"]
