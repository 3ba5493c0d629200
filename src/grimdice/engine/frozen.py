"""A fast :func:`dataclasses.replace` for the frozen dataclasses game states are made of, the one
copy function of every game (the One Page game's states and units, the Rules Crusade game's
records).

A game copies its state at every step (and an AI at every candidate it weighs); ``dataclasses.replace``
reads every field and runs the generated ``__init__``, which for a frozen class sets each field
through ``object.__setattr__``. :func:`replace` builds the copy's ``__dict__`` from the instance's
directly: the same fields and values, and nothing else. An instance whose ``__dict__`` holds exactly
its fields (the usual case) is copied whole, its dict copied and the changes written over it; one that
keeps more (answers computed once per state) has its fields alone copied, one at a time, so that
what it keeps is not carried over, as with ``dataclasses.replace``. A change naming a field the class
does not have is a ``TypeError``, as there. Classes with a ``__post_init__``, fields left out of
``__init__`` or ``__slots__`` go through ``dataclasses.replace`` itself.

A class may carry some of those answers over: ``__carried__`` names them (a tuple of ``__dict__``
keys) and ``__carries__(src, changes)`` (a static method, given the original's ``__dict__`` and the
changed fields) says whether they still hold for the copy; when it does, the copy starts with them.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from typing import Any, TypeVar

T = TypeVar("T")

#: per class: its fields, or None: no fast path (see the module text)
_NAMES: dict[type, tuple[str, ...] | None] = {}
#: per class: how many fields it has, or -1: no fast path
_SIZES: dict[type, int] = {}
#: ``object.__new__`` and ``object.__setattr__``, looked up once (a copy is made at every step)
_NEW, _SET = object.__new__, object.__setattr__


def _names(cls: type) -> tuple[str, ...] | None:
    fields = dataclasses.fields(cls)
    plain = (
        not hasattr(cls, "__post_init__")
        and not hasattr(cls, "__slots__")
        and all(f.init and f._field_type is dataclasses._FIELD for f in fields)  # type: ignore[attr-defined]
    )
    return tuple(f.name for f in fields) if plain else None


def _learn(cls: type) -> int:
    """Read ``cls``'s fields into :data:`_NAMES` and :data:`_SIZES`; its size."""
    names = _NAMES[cls] = _names(cls)
    size = _SIZES[cls] = -1 if names is None else len(names)
    return size


def replace(obj: T, /, **changes: Any) -> T:
    """``dataclasses.replace(obj, **changes)``: a new object of ``obj``'s class with ``changes`` to
    its fields (an unknown field name is a ``TypeError``, as there)."""
    return replace_by(obj, changes)


def replace_by(obj: T, changes: Mapping[str, Any]) -> T:
    """:func:`replace` with the changes given as a mapping (no keyword arguments to pack)."""
    cls = type(obj)
    size = _SIZES.get(cls)
    if size is None:
        size = _learn(cls)
    if size >= 0:
        now = obj.__dict__
        if len(now) == size:  # its fields alone: the dict copied whole
            values = now.copy()
            values.update(changes)
            if len(values) == size:  # no unknown field named
                new = _NEW(cls)
                _SET(new, "__dict__", values)
                return new
        return _by_fields(obj, cls, changes)
    return dataclasses.replace(obj, **changes)  # type: ignore[type-var]


def _by_fields(obj: T, cls: type, changes: Mapping[str, Any]) -> T:
    """The copy of ``obj``'s fields alone, one at a time, with ``changes``."""
    names = _NAMES[cls]
    assert names is not None
    src = obj.__dict__
    new: T = object.__new__(cls)
    d = new.__dict__
    for name in names:
        d[name] = src[name]
    for name, value in changes.items():
        if name not in d:
            raise TypeError(f"{cls.__name__} has no field {name!r}")
        d[name] = value
    carried: tuple[str, ...] | None = getattr(cls, "__carried__", None)
    if carried is not None and len(src) > len(names) and cls.__carries__(src, changes):  # type: ignore[attr-defined]
        for name in carried:
            answer = src.get(name)
            if answer is not None:
                d[name] = answer
    return new


__all__ = ["replace", "replace_by"]
