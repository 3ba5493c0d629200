"""Pydantic building blocks every rule system's scenario models share (game-agnostic).

Strict field types: a scenario says what it means, so ``true`` is not the number 1, ``"3"`` or
``3.0`` is not a count, ``1`` is not ``true`` (:data:`Int`, :data:`Flag`, :data:`Number`,
:data:`Text`; use them as ``Int = Field(1, ge=1, le=20)`` or ``Annotated[Int, Field(...)]``).
Lists that need a value say so (``Field(min_length=1)``), and lists whose entries key results by
``name`` refuse two entries of the same name (:data:`UniqueNames`).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import Annotated, Any

from pydantic import AfterValidator, BaseModel, ConfigDict, Field, Strict, model_validator

from grimdice.dice.expr import DiceSyntaxError, parse
from grimdice.errors import shown

#: a whole number: not a bool, a float or text
Int = Annotated[int, Strict()]
#: a number of inches etc.: a whole or decimal number, not a bool or text
Number = Annotated[float, Strict()]
#: yes/no: ``true`` or ``false`` only (not 1, "yes")
Flag = Annotated[bool, Strict()]
#: text: not a number
Text = Annotated[str, Strict()]


def whole(lo: int, hi: int) -> Any:
    """A strict whole number from ``lo`` to ``hi``."""
    return Annotated[int, Strict(), Field(ge=lo, le=hi)]


def unique_names(items: Sequence[Any]) -> Sequence[Any]:
    """``items`` (entries with a ``name``, or the names themselves) if no name repeats; else a
    ``ValueError`` naming the first repeated name."""
    names = [x if isinstance(x, str) else getattr(x, "name", None) for x in items]
    dup = [n for n, c in Counter(n for n in names if n is not None).items() if c > 1]
    if dup:
        raise ValueError(
            f"two entries are named {shown(dup[0])}: results are keyed by name, give each a different name"
        )
    return items


#: after-validator of a list whose entries' ``name`` (or whose names) key the results or pick
#: entries: ``Annotated[list[X], UniqueNames]``
UniqueNames = AfterValidator(unique_names)


def applies(**when: Sequence[str]) -> dict[str, Any]:
    """A field's JSON-schema extra (``Field(..., json_schema_extra=applies(attack=["melee"]))``):
    the field applies only when the scenario's top-level field ``attack`` has one of the values.
    The rules read it as before; the page hides a field that does not apply (while it holds no
    value of its own)."""
    return {"applies": {k: list(v) for k, v in when.items()}}


class StrictModel(BaseModel):
    """A frozen model that rejects unknown fields (so typos are errors naming the field).

    Its validator is built when first used (``defer_build``), not when the class is defined: a
    scenario validates its nested models through its own validator, so the command line never
    builds the nested models' own (about 15 ms of ``grimdice calc``'s start-up for a 40k file)."""

    model_config = ConfigDict(extra="forbid", populate_by_name=True, frozen=True, defer_build=True)


class RangedOrMeleeWeapon(StrictModel):
    """A weapon with exactly one of ``BS`` (ranged) or ``WS`` (melee); subclasses declare both
    fields with their game's type (``int | None``)."""

    @model_validator(mode="after")
    def _one_skill(self) -> Any:
        if (getattr(self, "BS", None) is None) == (getattr(self, "WS", None) is None):
            raise ValueError("give exactly one of BS (ranged weapon) or WS (melee weapon)")
        return self

    @property
    def is_melee(self) -> bool:
        return getattr(self, "WS", None) is not None

    @property
    def skill(self) -> int:
        """The BS or WS roll needed (the number before the ``+``)."""
        # WS and BS are fields of the models that mix this in (declaring them here would add fields)
        return self.WS if self.is_melee else self.BS  # type: ignore[attr-defined]


def dice_text(v: object, lo: int, hi: int, what: str) -> object:
    """Validate a number or dice text (``D6``, ``D3+1``) whose values stay within ``lo..hi``;
    ``None`` passes through. Raises ``ValueError`` saying what is allowed."""
    if v is None:
        return v
    if isinstance(v, bool) or not isinstance(v, (int, str)):
        raise ValueError(f"{what} must be a number or dice such as D6 or D3+1")
    try:
        d = parse(v)
    except DiceSyntaxError as exc:
        raise ValueError(str(exc)) from None
    if d.min < lo or d.max > hi:
        raise ValueError(f"{what} must stay within {lo}..{hi}, {shown(v)} ranges {d.min}..{d.max}")
    return v
