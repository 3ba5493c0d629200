"""Checks of One Page 40k unit entries and shootings that the field types cannot express: each
refuses, naming the field, what would otherwise be resolved without a word (a weapon rule on a
unit, a rule given twice with two values, fewer starting models than the unit has, a Hero joining
a unit its ``joins`` does not name, a shooting in which no weapon can fire)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from grimdice.engine.rules import normalise
from grimdice.errors import ScenarioError, shown
from grimdice.systems.onepage.profiles import UnitSpec
from grimdice.systems.onepage.rules import RULES


def check_rule_texts(texts: Sequence[object], where: str) -> None:
    """Refuse a weapon rule among a unit's special rules (Poison, Rending, Piercing, ...: the text
    gives them to "weapons with this special rule"; on a unit they would reach no weapon) and a
    rule with a value given twice with different values (``Tough(3)`` and ``Tough(6)``: a model
    has one Tough value). Unknown or malformed texts are left to ``RULES.parse``'s errors."""
    first: dict[tuple[str, str], tuple[str, str]] = {}
    for i, raw in enumerate(texts):
        found = RULES.match(normalise(raw)) if isinstance(raw, str) else None
        if found is None or not isinstance(raw, str):
            continue
        rule, keyword, value = found
        if rule.applies == "weapon":
            raise ScenarioError(
                f"{where}.{i}",
                f"{rule.name} is a weapon rule; give it in a weapon's text in the equipment, "
                f"e.g. 'Rifle (24\", A1, {rule.name})'",
            )
        key = (rule.key, keyword)
        if key in first and first[key][1] != value.strip():
            raise ScenarioError(
                f"{where}.{i}", f"{shown(raw)} repeats {shown(first[key][0])} with another value; give one"
            )
        first.setdefault(key, (raw, value.strip()))


def check_started_with(spec: UnitSpec, models: int, where: str) -> None:
    """``started_with`` counts the unit's models at the start of the game: never fewer than it has."""
    if spec.started_with is not None and spec.started_with < models:
        raise ScenarioError(
            f"{where}.started_with",
            f"{spec.started_with} models at the start, but the unit has {models} now; "
            "give at least that many (or leave it out)",
        )


def check_joins(hero: UnitSpec, host: UnitSpec, where: str) -> None:
    """A Hero whose ``joins`` names a unit joins that unit only."""
    label = host.label or host.name
    if hero.joins is not None and hero.joins != label:
        raise ScenarioError(
            f"{where}.joins", f"names {shown(hero.joins)}, but the unit it joins here is {shown(label)}"
        )


def why_no_fire(shooter: Any, c: Any, where: str = "conditions") -> ScenarioError | None:
    """Why no model of ``shooter`` can fire (an error naming the field at fault), or ``None``.
    A shooting in which nothing fires has an all-zero table that no setting of the attacker would
    change: the scenario is refused rather than answered with it."""
    from grimdice.systems.onepage.attack import usable_weapon

    ranged = [w for g in shooter.groups for w in g.weapons if w.range is not None]
    if not ranged:
        return ScenarioError("attacker.equipment", f"{shown(shooter.name)} has no ranged weapon to fire")
    if c.weapons_in_range is not None:
        bad = weapons_in_range_error(shooter, c, where)
        if bad is not None:
            return bad
    if any(usable_weapon(w, c) for w in ranged):
        if c.in_range == 0:
            return ScenarioError(f"{where}.in_range", "no model is in range: nothing fires")
        return None
    if c.weapons_in_range is not None and not any(c.weapons_in_range.values()):
        return ScenarioError(f"{where}.weapons_in_range", "no model has a weapon in range: nothing fires")
    longest = max(w.range for w in ranged)
    if c.weapons_in_range is None and c.distance > longest:
        return ScenarioError(
            f"{where}.distance",
            f'{c.distance:g}" is beyond every weapon of {shown(shooter.name)} (the longest: {longest}")',
        )
    if c.no_line_of_sight:
        return ScenarioError(f"{where}.no_line_of_sight", "no weapon in range is Indirect: nothing fires")
    return ScenarioError(f"{where}.limited_fired", "every weapon in range is Limited and already fired")


def weapons_in_range_error(shooter: Any, c: Any, where: str) -> ScenarioError | None:
    """``weapons_in_range`` names only the shooter's ranged weapons, each with no more models than
    carry it, and is not given with ``in_range`` (it counts the models itself)."""
    field = f"{where}.weapons_in_range"
    if c.in_range is not None:
        return ScenarioError(f"{where}.in_range", "give in_range or weapons_in_range, not both")
    carried: dict[str, int] = {}
    for g in shooter.groups:
        for name in {w.name.lower() for w in g.weapons if w.range is not None}:
            carried[name] = carried.get(name, 0) + g.count
    seen: set[str] = set()
    for name, k in c.weapons_in_range.items():
        key = name.strip().lower()
        if key not in carried:
            allowed = ", ".join(sorted(carried))
            what = f"{shown(shooter.name)} has no ranged weapon {name!r}; it has: {allowed}"
            return ScenarioError(f"{field}.{name}", what)
        if key in seen:
            return ScenarioError(f"{field}.{name}", "this weapon is named twice (names in any case are one)")
        seen.add(key)
        if k > carried[key]:
            return ScenarioError(f"{field}.{name}", f"{k} models, but only {carried[key]} carry it")
    return None


__all__ = ["check_joins", "check_rule_texts", "check_started_with", "weapons_in_range_error", "why_no_fire"]
