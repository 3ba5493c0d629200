"""Errors a user can act on: each names the input field at fault and what is allowed there.

Messages stay one short line whatever the input: :func:`shown` quotes a user's value with a bounded
``repr`` (nested values, long texts and huge integers are cut), and :class:`ScenarioError` cuts
its field and message to :data:`MAX_FIELD` and :data:`MAX_MESSAGE` characters.
"""

from __future__ import annotations

import reprlib
from collections.abc import Iterator
from contextlib import contextmanager

MAX_SHOWN = 60  # characters of a user's value quoted back in an error
MAX_FIELD = 120  # characters of a dotted field path (its keys are the user's text)
MAX_MESSAGE = 1000  # characters of an error message (room for a list of what is allowed)


def printable(text: str) -> str:
    """``text`` with every control or other non-printable character (escape sequences, bells,
    line breaks, tabs) written as a visible escape such as ``\\x1b``."""
    return "".join(ch if ch.isprintable() or ch == " " else ascii(ch)[1:-1] for ch in text)


def one_line(text: str, limit: int) -> str:
    """``text`` on one line (see :func:`printable`), cut to ``limit`` characters with ``...``."""
    flat = printable(text[: limit + 1])
    return flat if len(flat) <= limit else flat[: limit - 3] + "..."


class _Short(reprlib.Repr):
    """A ``repr`` whose work and output are bounded whatever the value (shared sub-lists of a YAML
    alias bomb, a 1 MB text, an integer of a million digits)."""

    def __init__(self, limit: int) -> None:
        super().__init__()
        self.maxlevel = 3
        self.maxtuple = self.maxlist = self.maxdict = self.maxset = 6
        self.maxstring = self.maxother = limit
        self.maxlong = 40

    def repr_int(self, x: int, level: int) -> str:
        if x.bit_length() > 128:  # repr of a huge int is slow (and refused beyond 4300 digits)
            return f"<a {int(x.bit_length() * 0.30103) + 1}-digit number>"
        return super().repr_int(x, level)

    def repr_instance(self, x: object, level: int) -> str:
        try:
            return one_line(repr(x), self.maxother)
        except Exception:
            return f"<{type(x).__name__}>"


def shown(value: object, limit: int = MAX_SHOWN) -> str:
    """A user's value quoted back in an error: a bounded one-line ``repr`` of ``limit`` characters."""
    return one_line(_Short(limit).repr(value), limit)


def _rebuilt(cls: type[BaseException], args: tuple[object, ...], state: dict[str, object]) -> BaseException:
    """An error of class ``cls`` from its ``args`` and attributes, without calling its
    ``__init__`` (whose signature each subclass chooses)."""
    exc = cls.__new__(cls, *args)
    exc.args = args
    exc.__dict__.update(state)
    return exc


class GrimdiceError(ValueError):
    """Base class of all user-facing input errors. Every one crosses a process boundary intact
    (pickled by its class, message and attributes such as ``field``), so an error raised in a
    worker process reaches the caller as it was raised."""

    def __reduce__(self) -> tuple[object, ...]:
        return _rebuilt, (type(self), self.args, dict(self.__dict__))


class ScenarioError(GrimdiceError):
    """A scenario or profile is malformed: ``field`` is the dotted path of the offending value."""

    def __init__(self, field: str, message: str) -> None:
        self.field = one_line(str(field), MAX_FIELD)
        self.message = one_line(str(message), MAX_MESSAGE)
        super().__init__(f"{self.field}: {self.message}" if self.field else self.message)


class RuleError(GrimdiceError):
    """A described action or position breaks a rule (e.g. an illegal Scouts move); ``field``, when
    known, is the dotted path of the input that describes it (see :func:`rule_at`)."""

    def __init__(self, message: str, field: str = "") -> None:
        self.field = one_line(str(field), MAX_FIELD)
        self.message = one_line(str(message), MAX_MESSAGE)
        super().__init__(f"{self.field}: {self.message}" if self.field else self.message)


@contextmanager
def rule_at(field: str) -> Iterator[None]:
    """Name ``field`` in a :class:`RuleError` raised inside that names no field yet (the rule checks
    are written on game values; the caller knows which input described them)."""
    try:
        yield
    except RuleError as exc:
        if exc.field:
            raise
        raise RuleError(exc.message, field) from None
