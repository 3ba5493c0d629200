"""Units as the text fields them: a unit from its profile (weapons, innate rules, variants, a joined
Hero or Psyker), an army with its merges, joins and army-building limits, and the units of a
calculation scenario (OP40k 2.21: "Heroes and Psykers may be deployed as part of friendly Infantry
units of same Quality"; "you may merge units by deploying two copies of the same Infantry unit as a
single big unit"; "three simple limits").
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any

from grimdice.errors import ScenarioError
from grimdice.io.fields import unique_names
from grimdice.systems.onepage.checks import check_joins, check_rule_texts, check_started_with
from grimdice.systems.onepage.profiles import Army, UnitSpec, Variant
from grimdice.systems.onepage.rules import RULES
from grimdice.systems.onepage.units import INNATE, SPECIAL, Group, Unit, UnitState
from grimdice.systems.onepage.weapons import DEFAULT_MELEE, Weapon, parse_weapon


def _weapons(items: Sequence[str], where: str) -> tuple[Weapon, ...]:
    """A model's equipment as weapons (the Weapon List, or ``Name (range, A, rules)``)."""
    ws = tuple(parse_weapon(t, f"{where}.{i}") for i, t in enumerate(items))
    if not any(w.melee for w in ws):
        # "Units without a melee weapon in their Equipment are always assumed to have Fists/Claws."
        ws = (*ws, parse_weapon(DEFAULT_MELEE, where))
    return ws


def unit_rules(spec: UnitSpec, where: str) -> dict[str, Any]:
    """The unit's special rules, with those Monsters, Walkers and Vehicles "always have" (:data:`INNATE`)."""
    check_rule_texts(spec.special_rules, f"{where}.special_rules")
    rules = RULES.parse(spec.special_rules, f"{where}.special_rules")
    for kind, innate in INNATE.items():
        if rules.get(kind):
            for r in innate:
                rules.setdefault(r, True)
    return rules


def groups_of(spec: UnitSpec, where: str, *, hero: bool = False) -> tuple[Group, ...]:
    """The unit's model groups: the models with its equipment, then each variant's (Tough(X), Armored
    and the points per model shared)."""
    rules = unit_rules(spec, where)
    tough = int(rules.get("tough", 1))
    n_var = sum(v.count for v in spec.variants)
    if n_var > spec.size:
        raise ScenarioError(f"{where}.variants", f"{n_var} variant models but the unit has {spec.size}")
    pts = spec.cost / spec.size if spec.cost else 1.0
    armored = bool(rules.get("armored"))
    out = []
    if spec.size - n_var:
        out.append(
            Group(
                spec.name,
                spec.size - n_var,
                tough,
                _weapons(spec.equipment, f"{where}.equipment"),
                armored,
                hero,
                pts,
            )
        )
    for i, v in enumerate(spec.variants):
        ws = _weapons(v.equipment, f"{where}.variants.{i}.equipment")
        out.append(
            Group(f"{spec.name} ({', '.join(w.name for w in ws)})", v.count, tough, ws, armored, hero, pts)
        )
    return tuple(out)


def resolve_unit(spec: UnitSpec, where: str, hero: UnitSpec | None = None, hero_where: str = "") -> Unit:
    """A unit from its spec, with a joined Hero/Psyker (checked by :func:`join_error`)."""
    rules = unit_rules(spec, where)
    groups = groups_of(spec, where)
    cost = spec.cost
    if hero is not None:
        err = join_error(hero, spec, hero_where, where)
        if err is not None:
            raise err
        groups = groups + groups_of(hero, hero_where, hero=True)
        cost += hero.cost
    try:
        unique_names(groups)  # results report model groups by name (casualty orders, end states)
    except ValueError as exc:
        field = f"{hero_where}.name" if hero is not None else f"{where}.variants"
        raise ScenarioError(field, f"{exc} (the unit's model groups)") from None
    check_started_with(spec, sum(g.count for g in groups), where)
    started = spec.started_with or sum(g.count for g in groups)
    unit = Unit(spec.name, spec.quality, groups, rules, cost, started)
    if spec.damage and spec.damage >= sum(g.count * g.tough for g in groups):
        raise ScenarioError(f"{where}.damage", "the damage would destroy the unit")
    return unit


def join_error(hero: UnitSpec, host: UnitSpec, where: str, host_where: str) -> ScenarioError | None:
    """ "Heroes and Psykers may be deployed as part of friendly Infantry units of same Quality." """
    check_joins(hero, host, where)
    hr, rr = unit_rules(hero, where), unit_rules(host, host_where)
    if not (hr.get("hero") or hr.get("psyker")):
        return ScenarioError(
            f"{where}.joins", f"only Heroes and Psykers may join a unit; {hero.name} is neither"
        )
    if any(hr.get(k) for k in SPECIAL):
        return ScenarioError(f"{where}.joins", f"{hero.name} is a Special unit and cannot join")
    if any(rr.get(k) for k in SPECIAL):
        return ScenarioError(
            f"{where}.joins", f"{host.name} is not Infantry; Heroes join Infantry units only"
        )
    if rr.get("hero") or rr.get("psyker"):
        return ScenarioError(f"{where}.joins", f"{host.name} is itself a Hero/Psyker unit")
    if hero.quality != host.quality:
        return ScenarioError(
            f"{where}.joins",
            f"Quality {hero.quality}+ differs from {host.name}'s {host.quality}+ (same Quality required)",
        )
    return None


def merge_error(a: UnitSpec, b: UnitSpec, where: str) -> ScenarioError | None:
    """ "you may merge units by deploying two copies of the same Infantry unit as a single big unit, as
    long as any upgrades that affect all models in the unit are bought for both units." """
    ra = unit_rules(a, where)
    if any(ra.get(k) for k in SPECIAL) or ra.get("hero") or ra.get("psyker"):
        return ScenarioError(f"{where}.merge", f"{a.name} is not a plain Infantry unit and cannot merge")
    same = (a.name, a.size, a.quality, sorted(a.equipment), sorted(a.special_rules), a.cost) == (
        b.name,
        b.size,
        b.quality,
        sorted(b.equipment),
        sorted(b.special_rules),
        b.cost,
    )
    if not same:
        return ScenarioError(
            f"{where}.merge",
            f"{a.name!r} and {b.name!r} are not two copies of the same unit with the same upgrades",
        )
    return None


@dataclass
class Fielded:
    """An army's units as fielded (merges and joins applied) and every army-building violation."""

    units: list[Unit]
    violations: list[ScenarioError]
    points: int


def merged_variants(a: UnitSpec, b: UnitSpec) -> list[Variant]:
    """The variants of two merged copies of a unit: those with the same equipment are one model
    group (their counts added), as one entry would write them."""
    out: dict[tuple[str, ...], Variant] = {}
    for v in [*a.variants, *b.variants]:
        old = out.get(v.key)
        out[v.key] = v if old is None else old.model_copy(update={"count": old.count + v.count})
    return list(out.values())


def _army_limits(
    army: Army, rules: list[dict[str, Any]], limit: int | None
) -> tuple[int, list[ScenarioError]]:
    """ "1. The total point cost of all units and their upgrades may not exceed the chosen game size.
    2. You may not take more than one Hero unit. 3. You may not take more than two Special units.":
    the army's total cost and the limits it breaks."""
    bad: list[ScenarioError] = []
    total = sum(u.cost for u in army.units)
    if limit is not None and total > limit:
        bad.append(ScenarioError("units", f"total cost {total} pts exceeds the game size of {limit} pts"))
    heroes = [i for i, r in enumerate(rules) if r.get("hero")]
    if len(heroes) > 1:
        names = ", ".join(army.units[i].name for i in heroes)
        bad.append(ScenarioError(f"units.{heroes[1]}", f"more than one Hero unit ({len(heroes)}: {names})"))
    special = [i for i, r in enumerate(rules) if any(r.get(k) for k in SPECIAL)]
    if len(special) > 2:
        names = ", ".join(army.units[i].name for i in special)
        bad.append(
            ScenarioError(f"units.{special[2]}", f"more than two Special units ({len(special)}: {names})")
        )
    return total, bad


def _merges(army: Army, bad: list[ScenarioError]) -> tuple[dict[int, UnitSpec], set[int]]:
    """The merged units (:func:`merge_error`): ``(the first copy's index -> the merged spec, the second
    copies' indices)``; a merge naming other than two units, or two units that are not copies, goes
    into ``bad``."""
    merged: dict[str, list[int]] = {}
    for i, u in enumerate(army.units):
        if u.merge:
            merged.setdefault(u.merge, []).append(i)
    skip: set[int] = set()
    specs: dict[int, UnitSpec] = {}
    for key, idx in merged.items():
        if len(idx) != 2:
            bad.append(
                ScenarioError(
                    f"units.{idx[0]}.merge",
                    f"merge {key!r} names {len(idx)} units; a merge is two copies of the same unit",
                )
            )
            continue
        a, b = (army.units[j] for j in idx)
        err = merge_error(a, b, f"units.{idx[1]}")
        if err:
            bad.append(err)
            continue
        specs[idx[0]] = a.model_copy(
            update={"size": a.size + b.size, "cost": a.cost + b.cost, "variants": merged_variants(a, b)}
        )
        skip.add(idx[1])
    return specs, skip


def _labels(army: Army, skip: set[int], bad: list[ScenarioError]) -> dict[str, int]:
    """Each fielded unit's label (its name unless labelled) -> its index; a repeated one goes into
    ``bad``."""
    labels: dict[str, int] = {}
    for i, u in enumerate(army.units):
        if i in skip:
            continue
        lab = u.label or u.name
        if lab in labels:
            bad.append(ScenarioError(f"units.{i}.label", f"two units are called {lab!r}; give one a label"))
        labels[lab] = i
    return labels


def _joins(
    army: Army, labels: dict[str, int], specs: dict[int, UnitSpec], bad: list[ScenarioError]
) -> dict[int, int]:
    """Each host unit's index -> the Hero or Psyker joining it (:func:`join_error`); an unknown host,
    a second joiner or a join the text forbids goes into ``bad``."""
    joined: dict[int, int] = {}
    for i, u in enumerate(army.units):
        if not u.joins:
            continue
        host = labels.get(u.joins)
        if host is None:
            bad.append(
                ScenarioError(
                    f"units.{i}.joins", f"no unit labelled {u.joins!r}; labels: " + ", ".join(labels)
                )
            )
            continue
        if host in joined:
            bad.append(ScenarioError(f"units.{i}.joins", f"{u.joins!r} already has a joined Hero/Psyker"))
            continue
        err = join_error(u, specs.get(host, army.units[host]), f"units.{i}", f"units.{host}")
        if err:
            bad.append(err)
            continue
        joined[host] = i
    return joined


def field_army(army: Army, points: int | None = None) -> Fielded:
    """Apply merges and joins and check "three simple limits" (:func:`_army_limits`). Unknown weapons
    or rules raise at once."""
    limit = points if points is not None else army.points
    rules = [unit_rules(u, f"units.{i}") for i, u in enumerate(army.units)]
    for i, u in enumerate(army.units):
        groups_of(u, f"units.{i}")  # weapons parse (raises on unknown weapons)
    total, bad = _army_limits(army, rules, limit)
    specs, skip = _merges(army, bad)
    joined = _joins(army, _labels(army, skip, bad), specs, bad)
    out: list[Unit] = []
    heroes_joined = set(joined.values())
    for i, u in enumerate(army.units):
        if i in skip or i in heroes_joined:
            continue
        spec = specs.get(i, u)
        h = joined.get(i)
        if h is None:
            out.append(resolve_unit(spec, f"units.{i}"))
        else:
            out.append(resolve_unit(spec, f"units.{i}", army.units[h], f"units.{h}"))
    return Fielded(out, bad, total)


def scenario_units(sc: Any) -> tuple[Unit, UnitState, Unit, UnitState]:
    """The attacker and defender of a calculation scenario, with joined heroes and initial states."""
    if sc.attacker is None:
        raise ScenarioError("attacker", f"attack: {sc.attack} needs an attacker unit")
    c = sc.conditions
    a = resolve_unit(sc.attacker, "attacker", sc.attacker_hero, "attacker_hero")
    a = with_casualty_order(a, c.attacker_casualty_order, "conditions.attacker_casualty_order")
    d = resolve_unit(sc.defender, "defender", sc.defender_hero, "defender_hero")
    d = with_casualty_order(d, c.defender_casualty_order, "conditions.defender_casualty_order")
    sa = replace(a.initial(sc.attacker.damage), pinned=c.attacker_pinned, shaken=c.attacker_shaken)
    sd = replace(d.initial(sc.defender.damage), pinned=c.defender_pinned, immobile=c.immobile)
    return a, sa, d, sd


def hazard_unit(sc: Any) -> tuple[Unit, UnitState]:
    """The unit taking automatic hits in a ``dangerous`` or ``transport`` scenario (the defender)."""
    if sc.attacker is not None or sc.attacker_hero is not None:
        raise ScenarioError("attacker", f"attack: {sc.attack} has no attacker; describe the unit as defender")
    c = sc.conditions
    d = resolve_unit(sc.defender, "defender", sc.defender_hero, "defender_hero")
    d = with_casualty_order(d, c.defender_casualty_order, "conditions.defender_casualty_order")
    return d, replace(d.initial(sc.defender.damage), pinned=c.defender_pinned, immobile=c.immobile)


def with_casualty_order(unit: Unit, order: str, where: str) -> Unit:
    """Tough(X): "you must either accumulate wounds on the unit with this special rule first until it
    is killed, or remove regular models as casualties before starting to accumulate wounds on the
    unit with this special rule": the defender's declared choice (``optimal``: the engine's best
    one, per number of wounds). Declared on a unit without a joined Hero and regular models: an
    error naming the field."""
    if order == "optimal":
        return unit
    if not any(g.hero for g in unit.groups) or all(g.hero for g in unit.groups):
        raise ScenarioError(where, f"{order!r} needs a joined Hero and regular models in {unit.name!r}")
    return replace(unit, casualty_order=order)


def scenario_targets(sc: Any) -> list[tuple[Unit, UnitState, Any]]:
    """The target units of a shooting scenario: the defender, then ``other_targets``, each with its
    initial state and its conditions (the scenario's, with the target's own fields over them)."""
    _, _, d, sd = scenario_units(sc)
    out: list[tuple[Unit, UnitState, Any]] = [(d, sd, sc.conditions)]
    for i, t in enumerate(sc.other_targets):
        where = f"other_targets.{i}"
        u = resolve_unit(t.unit, f"{where}.unit", t.hero, f"{where}.hero")
        u = with_casualty_order(u, t.conditions.casualty_order, f"{where}.conditions.casualty_order")
        own = {k: v for k, v in t.conditions.model_dump(exclude={"casualty_order"}).items() if v is not None}
        if "pinned" in own:
            own["defender_pinned"] = own.pop("pinned")
        c = sc.conditions.model_copy(update=own)
        out.append((u, replace(u.initial(t.unit.damage), pinned=c.defender_pinned, immobile=c.immobile), c))
    return out


__all__ = [
    "Fielded",
    "field_army",
    "groups_of",
    "hazard_unit",
    "join_error",
    "merge_error",
    "resolve_unit",
    "scenario_targets",
    "scenario_units",
    "unit_rules",
    "with_casualty_order",
]
