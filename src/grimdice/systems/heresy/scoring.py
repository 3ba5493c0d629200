"""Support Unit (X) (seed rule text): a small Victory Points helper for controlling objectives.

A unit that includes any model with Support Unit (X) scores at most X Victory Points for
controlling an objective, regardless of the objective's value or any other special rule of its
models (such as Line (X)). Where models carry different values the lowest X is used (the
strictest reading; the rule text does not say).
"""

from __future__ import annotations

from collections.abc import Iterable


def support_unit_cap(values: Iterable[int | None]) -> int | None:
    """The cap for a unit from its models' Support Unit X values (None: no cap)."""
    caps = [v for v in values if v is not None]
    return min(caps) if caps else None


def objective_victory_points(
    objective_value: int, support_unit: Iterable[int | None] = (), bonus: int = 0
) -> int:
    """Victory Points a unit scores for controlling an objective worth ``objective_value``;
    ``bonus`` is what other rules (e.g. Line (X)) would add, before the Support Unit cap."""
    if objective_value < 0 or bonus < 0:
        raise ValueError("objective values and bonuses are not negative")
    vp = objective_value + bonus
    cap = support_unit_cap(support_unit)
    return vp if cap is None else min(vp, cap)
