"""Pydantic building blocks every rule system's scenario models share (game-agnostic)."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, model_validator

from grimdice.dice.expr import DiceSyntaxError, parse


class StrictModel(BaseModel):
    """A frozen model that rejects unknown fields (so typos are errors naming the field)."""

    model_config = ConfigDict(extra="forbid", populate_by_name=True, frozen=True)


class RangedOrMeleeWeapon(StrictModel):
    """A weapon with exactly one of ``BS`` (ranged) or ``WS`` (melee); subclasses declare both
    fields with their game's type (``int | None``)."""

    @model_validator(mode="after")
    def _one_skill(self):  # type: ignore[no-untyped-def]
        if (getattr(self, "BS", None) is None) == (getattr(self, "WS", None) is None):
            raise ValueError("give exactly one of BS (ranged weapon) or WS (melee weapon)")
        return self

    @property
    def is_melee(self) -> bool:
        return getattr(self, "WS", None) is not None

    @property
    def skill(self) -> int:
        """The BS or WS roll needed (the number before the ``+``)."""
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
        raise ValueError(f"{what} must stay within {lo}..{hi}, {v!r} ranges {d.min}..{d.max}")
    return v
