"""The AI's charges for its next activation, each valued when first asked for (``threat.charge_odds``).

A unit's possible charges next activation are valued by the exact melee law of each (a new
situation costs a new exact table), but a move's prospect reads only the enemies within its
Assault distance of the move's end: the enemies that no candidate end brings into reach are
never valued. The mapping holds the enemies whose charge is worth something (a positive value),
as ``threat.charge_odds`` describes; reading it whole values them all.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping


class Odds(Mapping[int, float]):
    """``{enemy: value}`` over ``near`` where ``value(enemy)`` is positive; each value computed once,
    when first read (:meth:`value`)."""

    def __init__(self, near: list[int], value: Callable[[int], float]) -> None:
        self.near = near
        self._value = value
        self._got: dict[int, float] = {}

    def value(self, t: int) -> float:
        """The value of the charge on ``t`` (of ``near``), positive or not."""
        got = self._got.get(t)
        if got is None:
            got = self._got[t] = self._value(t)
        return got

    def known(self, t: int) -> float | None:
        """The value of the charge on ``t`` when already computed, else ``None`` (nothing computed)."""
        return self._got.get(t)

    def __getitem__(self, t: int) -> float:
        if t not in self.near or self.value(t) <= 0:
            raise KeyError(t)
        return self.value(t)

    def __iter__(self) -> Iterator[int]:
        return (t for t in self.near if self.value(t) > 0)

    def __len__(self) -> int:
        return sum(1 for _ in self)


__all__ = ["Odds"]
