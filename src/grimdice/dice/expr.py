"""Dice as players write them: ``D3``, ``D6``, ``2D6``, ``D6+1``, ``2D3+D6-1``, ``3``, custom dice.

:func:`parse` turns such text into a :class:`DiceExpr`, which knows its exact distribution
(:attr:`DiceExpr.dist`) and can be sampled in bulk with a NumPy generator.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cached_property, lru_cache

import numpy as np

from grimdice.dice.dist import Dist
from grimdice.errors import GrimdiceError, shown

MAX_DICE = 1000
MAX_SIDES = 1000
MAX_TERMS = 20  # dice terms and numbers in one expression
MAX_SPAN = 10_000  # max - min of a whole expression (checked from the text, before any work)
MAX_TEXT = 200  # characters of dice text
MAX_DIGITS = 9  # digits of one number in dice text


class DiceSyntaxError(GrimdiceError):
    """Raised for dice text that is not a sum of ``NdS`` terms and whole numbers, or is too large
    (a :class:`~grimdice.errors.GrimdiceError`, so a ``ValueError``: pydantic validators turn it
    into a field error)."""


@dataclass(frozen=True)
class Die:
    """A fair die with the given face values (``Die.d(6)`` is a D6; faces may repeat)."""

    faces: tuple[int, ...]

    def __post_init__(self) -> None:
        if not self.faces:
            raise ValueError("a die needs at least one face")

    @classmethod
    def d(cls, sides: int) -> Die:
        """A ``D<sides>`` numbered 1..sides."""
        if not 1 <= sides <= MAX_SIDES:
            raise ValueError(f"a die has 1 to {MAX_SIDES} sides, not {sides}")
        return cls(tuple(range(1, sides + 1)))

    @cached_property
    def dist(self) -> Dist:
        return Dist.from_faces(self.faces)

    def sample(self, rng: np.random.Generator, size: int | tuple[int, ...]) -> np.ndarray:
        faces = np.asarray(self.faces, dtype=np.int64)
        return faces[rng.integers(0, len(faces), size=size)]


D3 = Die.d(3)
D6 = Die.d(6)


@dataclass(frozen=True)
class DiceTerm:
    """``count`` dice of one kind, added (``sign=+1``) or subtracted (``sign=-1``)."""

    count: int
    die: Die
    sign: int = 1


@dataclass(frozen=True)
class DiceExpr:
    """A sum of dice terms and a constant, e.g. ``2D6+1``."""

    terms: tuple[DiceTerm, ...] = ()
    constant: int = 0
    text: str = ""

    @classmethod
    def fixed(cls, value: int) -> DiceExpr:
        return cls((), int(value), str(value))

    @cached_property
    def dist(self) -> Dist:
        """The exact distribution of the total."""
        total = Dist.constant(self.constant)
        for t in self.terms:
            part = t.die.dist.repeat(t.count)
            total = total + (part if t.sign > 0 else part.negate())
        return total

    @property
    def is_fixed(self) -> bool:
        return not self.terms

    @property
    def min(self) -> int:
        """The smallest total (from the terms, without building the distribution)."""
        return self.constant + sum(
            t.count * (min(t.die.faces) if t.sign > 0 else -max(t.die.faces)) for t in self.terms
        )

    @property
    def max(self) -> int:
        """The largest total (from the terms, without building the distribution)."""
        return self.constant + sum(
            t.count * (max(t.die.faces) if t.sign > 0 else -min(t.die.faces)) for t in self.terms
        )

    def sample(self, rng: np.random.Generator, size: int) -> np.ndarray:
        """``size`` independent totals."""
        out = np.full(size, self.constant, dtype=np.int64)
        for t in self.terms:
            out += t.sign * t.die.sample(rng, (size, t.count)).sum(axis=1)
        return out

    def __str__(self) -> str:
        return self.text or repr(self)


_TERM = re.compile(r"([+-]?)\s*(?:(\d*)\s*[dD]\s*(\d+)|(\d+))")


def parse(text: str | int | DiceExpr) -> DiceExpr:
    """Parse dice text such as ``"D6+1"``, ``"2D3"``, ``"3"`` (ints pass straight through).

    Sizes are checked from the text before anything is built: at most :data:`MAX_TEXT`
    characters, :data:`MAX_TERMS` terms, numbers of :data:`MAX_DIGITS` digits, :data:`MAX_DICE`
    dice of :data:`MAX_SIDES` sides per term, and a total range (max - min) of :data:`MAX_SPAN`.
    Raises :class:`DiceSyntaxError` naming what is allowed.
    """
    if isinstance(text, DiceExpr):
        return text
    if isinstance(text, bool):
        raise DiceSyntaxError(f"{text!r} is not dice; write e.g. 3, D3, D6+1 or 2D6")
    if isinstance(text, (int, np.integer)) and abs(int(text)) > 10**MAX_DIGITS:
        raise DiceSyntaxError(f"dice: numbers have at most {MAX_DIGITS} digits")
    if isinstance(text, (int, np.integer)):
        return DiceExpr.fixed(int(text))
    if not isinstance(text, str):
        raise DiceSyntaxError(f"{_short(text)} is not dice; write e.g. 3, D3, D6+1 or 2D6")
    return _parse_text(text)


@lru_cache(maxsize=1024)
def _parse_text(text: str) -> DiceExpr:
    """:func:`parse` of a text (the same text gives the same immutable expression, whose law is
    then built once)."""
    s = text.strip()
    if len(s) > MAX_TEXT:
        raise DiceSyntaxError(f"dice text of {len(s)} characters; at most {MAX_TEXT}")
    if re.search(rf"\d{{{MAX_DIGITS + 1}}}", s):
        raise DiceSyntaxError(f"dice {_short(text)}: numbers have at most {MAX_DIGITS} digits")
    pos = 0
    span = 0
    parts = 0
    terms: list[DiceTerm] = []
    const = 0
    first = True
    while pos < len(s):
        m = _TERM.match(s, pos)
        if not m or m.end() == pos or (not first and not m.group(1)):
            raise DiceSyntaxError(
                f"cannot read dice {_short(text)}: write a sum of whole numbers and NdS terms, "
                "e.g. 3, D3, D6+1, 2D6, D3+3"
            )
        parts += 1
        if parts > MAX_TERMS:
            raise DiceSyntaxError(f"dice {_short(text)}: at most {MAX_TERMS} terms")
        sign = -1 if m.group(1) == "-" else 1
        if m.group(4) is not None:
            const += sign * int(m.group(4))
        else:
            count = int(m.group(2)) if m.group(2) else 1
            sides = int(m.group(3))
            if not 1 <= count <= MAX_DICE:
                raise DiceSyntaxError(f"dice {_short(text)}: between 1 and {MAX_DICE} dice per term")
            if not 1 <= sides <= MAX_SIDES:
                raise DiceSyntaxError(f"dice {_short(text)}: a die has 1 to {MAX_SIDES} sides")
            span += count * (sides - 1)
            if span > MAX_SPAN:
                raise DiceSyntaxError(
                    f"dice {_short(text)}: too many outcomes (the total may range over at most {MAX_SPAN})"
                )
            terms.append(DiceTerm(count, Die.d(sides), sign))
        pos = m.end()
        while pos < len(s) and s[pos].isspace():
            pos += 1
        first = False
    if first:
        raise DiceSyntaxError("empty dice expression; write e.g. 3, D3, D6+1 or 2D6")
    return DiceExpr(tuple(terms), const, s.upper().replace(" ", ""))


def _short(value: object) -> str:
    return shown(value, 40)
