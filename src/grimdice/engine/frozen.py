"""A fast :func:`dataclasses.replace` for the frozen dataclasses game states are made of.

A game copies its state at every step (and an AI at every candidate it weighs); ``dataclasses.replace``
reads every field and runs the generated ``__init__``, which for a frozen class sets each field
through ``object.__setattr__``. :func:`replace` builds the copy's ``__dict__`` from the fields
directly: the same fields and values, and nothing else (what a state keeps in its ``__dict__`` besides
its fields, such as answers computed once per state, is not carried over, as with
``dataclasses.replace``). Classes with a ``__post_init__``, fields left out of ``__init__`` or
``__slots__`` go through ``dataclasses.replace`` itself.

A class may carry some of those answers over: ``__carried__`` names them (a tuple of ``__dict__``
keys) and ``__carries__(src, changes)`` (a static method, given the original's ``__dict__`` and the
changed fields) says whether they still hold for the copy; when it does, the copy starts with them.
"""

from __future__ import annotations

import dataclasses
from typing import Any, TypeVar

T = TypeVar("T")

_NAMES: dict[type, tuple[str, ...] | None] = {}  # per class: its fields, or None: no fast path


def _names(cls: type) -> tuple[str, ...] | None:
    fields = dataclasses.fields(cls)
    plain = (
        not hasattr(cls, "__post_init__")
        and not hasattr(cls, "__slots__")
        and all(f.init and f._field_type is dataclasses._FIELD for f in fields)  # type: ignore[attr-defined]
    )
    return tuple(f.name for f in fields) if plain else None


def replace(obj: T, /, **changes: Any) -> T:
    """``dataclasses.replace(obj, **changes)``: a new object of ``obj``'s class with ``changes`` to
    its fields (an unknown field name is a ``TypeError``, as there)."""
    cls = type(obj)
    try:
        names = _NAMES[cls]
    except KeyError:
        names = _NAMES[cls] = _names(cls)
    if names is None:
        return dataclasses.replace(obj, **changes)  # type: ignore[type-var]
    src = obj.__dict__
    new = object.__new__(cls)
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


__all__ = ["replace"]
