"""Pydantic building blocks every rule system's scenario models share (game-agnostic)."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict

from grimdice.dice.expr import DiceSyntaxError, parse


class StrictModel(BaseModel):
    """A frozen model that rejects unknown fields (so typos are errors naming the field)."""

    model_config = ConfigDict(extra="forbid", populate_by_name=True, frozen=True)


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
