"""How a One Page 40k scenario is resolved: the dispatch by attack (shooting, melee, automatic hits,
a Psyker's casting, a shooting with several targets) and the readings each result notes.

Each attack is one function; the exact tables come from :mod:`.exact` and :mod:`.psyker`, the
sampled ones from :mod:`.simulate`, and :mod:`.report` turns either into a :class:`Result`.
"""

from __future__ import annotations

from typing import Any

from grimdice.dice import Dist
from grimdice.engine.options import RunOptions
from grimdice.errors import ScenarioError
from grimdice.result import Result
from grimdice.systems.onepage.attack import melee_fire, melee_picks, removal
from grimdice.systems.onepage.checks import weapons_in_range_error, why_no_fire
from grimdice.systems.onepage.fielding import hazard_unit, scenario_targets, scenario_units, unit_rules
from grimdice.systems.onepage.profiles import Conditions, Scenario
from grimdice.systems.onepage.report import (
    LawOf,
    build,
    component_laws,
    melee_stages,
    shooting_stages,
    table_laws,
    top_states,
)
from grimdice.systems.onepage.units import Unit, UnitState, default_removal


def _choices(a: Unit, fires: list[Any]) -> list[dict[str, Any]]:
    return [
        {
            "weapon": str(f.odds.weapon),
            "models": f.instances,
            "dice": f.dice,
            **({"piercing": f.odds.option} if f.odds.option else {}),
        }
        for f in fires
    ]


def _orders(unit: Unit, orders: dict[int, tuple[int, ...]]) -> dict[str, list[str]] | None:
    if len(unit.removal_orders()) < 2 and unit.casualty_order == "optimal":
        return None
    return {str(w): [unit.groups[g].name for g in o] for w, o in sorted(orders.items())}


def _declared_orders(units: dict[str, Unit]) -> dict[str, Any]:
    """Tough(X) with a joined Hero: ``{"casualty_order_declared": {side: order}}`` for each side with
    one (``optimal``: the engine's best choice, per number of wounds, reported in
    ``*casualty_order``), else nothing."""
    declared = {
        side: u.casualty_order
        for side, u in units.items()
        if any(g.hero for g in u.groups) and not all(g.hero for g in u.groups)
    }
    return {"casualty_order_declared": declared} if declared else {}


def _most_melee_attacks(unit: Unit, assaulting: bool) -> int:
    """The most attacks a unit can make in a melee (its melee weapons, the assault bonus and Furious,
    a Vehicle's D6 automatic hits)."""
    per = [sum(w.attacks for w in g.weapons if w.melee) for g in unit.groups]
    bonus = (1 + int(unit.has("furious"))) if assaulting else 0
    auto = 6 if assaulting and unit.kind == "vehicle" else 0
    return sum(g.count * (p + bonus) for g, p in zip(unit.groups, per, strict=True)) + auto


def _melee_choice(a: Unit, sa: UnitState, d: Unit, sd: UnitState, c: Any) -> bool:
    """Either side has Piercing's option to pick for a melee weapon."""
    ca = c.model_copy(update={"action": "assault"})
    cd = c.model_copy(update={"action": "hold"})
    return len(melee_picks(a, sa, d, ca)) * len(melee_picks(d, sd, a, cd)) > 1


def hazard(sc: Scenario, options: RunOptions) -> Result:
    """Automatic hits on the defender: dangerous terrain or a destroyed transport."""
    d, sd = hazard_unit(sc)
    c = sc.conditions
    keys = ["joined_rules"] if sc.defender_hero is not None else []
    if len(d.removal_orders()) > 1:
        keys.append("casualty_order")
    if d.rolls_vehicle_damage:
        keys.append("vehicle_table")
    extra: dict[str, Any] = {"attack": sc.attack}
    extra.update(_declared_orders({"defender": d}))
    if options.exact:
        from grimdice.systems.onepage.exact import hazard_table

        st, table = hazard_table(d, sd, c, sc.attack)
        hits, law_of = st.hits, table_laws(table)
        extra["end_states"] = top_states((d,), table, (1,))
        orders = _orders(d, st.orders)
        if orders:
            extra["casualty_order"] = orders
            extra["casualty_objective"] = default_removal(d).objective
    else:
        from grimdice.systems.onepage.simulate import simulate_hazard

        hits, comps = simulate_hazard(d, sd, c, sc.attack, options)
        law_of = sampled_laws(d, comps, extra)
    return shooting_result(d, sd, hits, law_of, extra, keys, sc, options)


def sampled_laws(d: Unit, comps: list[dict], extra: dict[str, Any]) -> LawOf:
    """The laws of a Monte Carlo run's components; its most likely end states go into ``extra``."""
    extra["end_states"] = top_states((d,), {(s,): p for s, p in comps[1].items()}, (0,))
    return component_laws(comps)


def shooting_result(
    d: Unit,
    sd: UnitState,
    hits: Dist,
    law_of: LawOf,
    extra: dict[str, Any],
    keys: list[str],
    sc: Scenario,
    options: RunOptions,
) -> Result:
    """The Result of hits on ``d`` (a shooting or automatic hits), with the "half killed" reading's
    note when a morale test can happen."""
    stages = shooting_stages(d, sd, hits, law_of)
    if stages["morale_test"][1] > 0:
        keys.append("half_killed")
    return build(options.method, stages, extra, sc.title, keys, options.simulate, options.seed)


def casting(sc: Scenario, options: RunOptions) -> Result:
    """A Psyker tries to manifest a power (Psyker(X)): the round's power dice, the dice rolled, the
    power manifested or not, perils and the Psyker's wounds (``psyker.casting_table``)."""
    from grimdice.systems.onepage.psyker import casting_table

    d, sd = hazard_unit(sc)
    psy = next((g for g in d.groups if g.hero), None)
    spec = sc.defender_hero if psy is not None and sc.defender_hero is not None else sc.defender
    rules = unit_rules(spec, "defender")
    if not rules.get("psyker"):
        field = "defender_hero" if psy is not None else "defender"
        raise ScenarioError(f"{field}.special_rules", "attack: psyker needs a Psyker(X) unit")
    x = int(rules["psyker"])
    c = sc.conditions
    levels, need = c.psyker_levels or x, c.power_need or x
    if options.exact:
        table = casting_table(d, sd, levels, c.power_dice, need)
    else:
        from grimdice.systems.onepage.simulate import simulate_casting

        table = simulate_casting(d, sd, levels, c.power_dice, need, options)
    law_of = table_laws(table)
    stages = {
        "power_dice": law_of(0, int),
        "dice_rolled": law_of(1, int),
        "manifested": law_of(2, int),
        "perils": law_of(3, int),
        "damage": law_of(4, int),
        "models_destroyed": law_of(5, lambda s: sd.models - s.models),
        "models_left": law_of(5, lambda s: s.models),
        "tough_wounds": law_of(5, lambda s: sum(s.damage)),
        "destroyed": law_of(5, lambda s: s.destroyed),
    }
    extra = {"attack": sc.attack, "psyker_levels": levels, "power_need": need, "power_dice": c.power_dice}
    return build(options.method, stages, extra, sc.title, ["psyker"], options.simulate, options.seed)


def _check_weapon_counts(sc: Scenario, a: Unit, targets: list[tuple[Unit, UnitState, Any]]) -> None:
    """Each target's ``weapons_in_range`` names the shooter's ranged weapons (an error naming the
    field of the target that gave it), before any target is resolved."""
    for i, (_, _, c) in enumerate(targets):
        if c.weapons_in_range is None:
            continue
        own = sc.other_targets[i - 1].conditions.weapons_in_range if i else None
        bad = weapons_in_range_error(a, c, f"other_targets.{i - 1}.conditions" if own else "conditions")
        if bad is not None:
            raise bad


def several_targets(sc: Scenario, options: RunOptions) -> Result:
    """A shooting with ``other_targets``: the target (or, Relentless on Hold, the targets of each
    weapon) chosen by :func:`~.exact.best_targets`; stages per target prefixed ``NAME.`` and the
    totals ``hits``, ``wounds``/``damage``, ``models_destroyed`` over the targets (independent given
    the plan: their laws add up)."""
    from grimdice.systems.onepage.exact import best_targets, half_killed_morale, strike

    a, sa, _, _ = scenario_units(sc)
    targets = scenario_targets(sc)
    _check_weapon_counts(sc, a, targets)
    refused = [why_no_fire(a, c) for _, _, c in targets]
    if refused[0] is not None and all(r is not None for r in refused):
        raise refused[0]  # nothing can fire at any target: the first target's reason
    plan, n_plans, split = best_targets(a, sa, targets)
    heroes = [sc.attacker_hero, sc.defender_hero, *(t.hero for t in sc.other_targets)]
    keys: list[str] = ["joined_rules"] if any(h is not None for h in heroes) else []
    if n_plans > 1:
        keys.append("one_weapon")
    extra: dict[str, Any] = {
        "attack": sc.attack,
        "split_fire": split,
        "plans_compared": n_plans,
        "fired": {
            d.name: _choices(a, fires) for (d, _, _), fires in zip(targets, plan, strict=True) if fires
        },
    }
    extra.update(_declared_orders({d.name: d for d, _, _ in targets}))
    stages: dict[str, Dist] = {}
    totals = [Dist.constant(0)] * 3
    per: list[tuple[Dist, LawOf]] = []
    if not options.exact:
        from grimdice.systems.onepage.simulate import simulate_targets

        sims, tot = simulate_targets(a, sa, [(*t, f) for t, f in zip(targets, plan, strict=True)], options)
        per = [(h, component_laws(comps)) for h, comps in sims]
    for i, ((d, sd, c), fires) in enumerate(zip(targets, plan, strict=True)):
        if any(f.odds.weapon.x for f in fires):
            keys.append("x_rule")
        if fires and len(d.removal_orders()) > 1:
            keys.append("casualty_order")
        if fires and d.rolls_vehicle_damage:
            keys.append("vehicle_table")
        if options.exact:
            rem = removal(d, a, c, assaulting=False, strike_back=False)
            st = strike(fires, d, sd, facing=c.facing, removal=rem)
            hits, law_of = st.hits, table_laws(half_killed_morale(d, sd, st.outcomes))
        else:
            hits, law_of = per[i]
        sub = shooting_stages(d, sd, hits, law_of)
        if sub["morale_test"][1] > 0:
            keys.append("half_killed")
        for name, dist in sub.items():
            if name != "damage":
                stages[f"{d.name}.{name}"] = dist
        totals = [t + sub[k] for t, k in zip(totals, ("hits", "wounds", "models_destroyed"), strict=True)]
    if options.exact:
        stages.update(hits=totals[0], wounds=totals[1], damage=totals[1], models_destroyed=totals[2])
    else:
        stages.update(hits=tot["hits"], wounds=tot["wounds"], damage=tot["wounds"])
        stages["models_destroyed"] = tot["models_destroyed"]
    return build(options.method, stages, extra, sc.title, keys, options.simulate, options.seed)


def evaluate(sc: Scenario, options: RunOptions) -> Result:
    """Resolve the scenario's shooting or melee (or automatic hits: ``dangerous``, ``transport``;
    or a Psyker's ``psyker`` casting), exactly or by ``options.simulate`` seeded trials."""
    if sc.attack in ("dangerous", "transport"):
        return hazard(sc, options)
    if sc.attack == "psyker":
        return casting(sc, options)
    if sc.other_targets:
        return several_targets(sc, options)
    if sc.attack == "shooting":
        return shooting(sc, options)
    return melee(sc, options)


def _opening(sc: Scenario, a: Unit, d: Unit) -> tuple[list[str], dict[str, Any]]:
    """The reading keys and extras every one-target shooting or melee starts with: joined Heroes,
    and the declared casualty orders of the sides that lose models."""
    keys: list[str] = []
    if sc.attacker_hero is not None or sc.defender_hero is not None:
        keys.append("joined_rules")
    sides = {"defender": d} if sc.attack == "shooting" else {"attacker": a, "defender": d}
    return keys, {"attack": sc.attack, **_declared_orders(sides)}


def _shooting_keys(d: Unit, fires: list[Any], n_plans: int) -> list[str]:
    """The readings a shooting at ``d`` uses: the casualty order, one weapon's choice among plans,
    the "x" rule and the Vehicle damage table."""
    keys = []
    if len(d.removal_orders()) > 1:
        keys.append("casualty_order")
    if n_plans > 1:
        keys.append("one_weapon")
    if any(f.odds.weapon.x for f in fires):
        keys.append("x_rule")
    if d.rolls_vehicle_damage:
        keys.append("vehicle_table")
    return keys


def shooting(sc: Scenario, options: RunOptions) -> Result:
    """A shooting at one target (OP40k 2.21 Shooting: "Sum the attacks from the weapons of all models
    that can shoot ... roll to hit ... the target rolls to block"), the weapons chosen by
    :func:`~.exact.best_shooting`."""
    from grimdice.systems.onepage.exact import best_shooting

    a, sa, d, sd = scenario_units(sc)
    c = sc.conditions
    keys, extra = _opening(sc, a, d)
    refused = why_no_fire(a, c)
    if refused is not None:
        raise refused
    fires, n_plans = best_shooting(a, sa, d, sd, c)
    extra["fired"] = _choices(a, fires)
    extra["plans_compared"] = n_plans
    keys += _shooting_keys(d, fires, n_plans)
    if options.exact:
        from grimdice.systems.onepage.exact import shooting_table

        st, table = shooting_table(a, sa, d, sd, c, fires)
        hits, law_of = st.hits, table_laws(table)
        extra["end_states"] = top_states((d,), table, (1,))
        orders = _orders(d, st.orders)
        if orders:
            extra["casualty_order"] = orders
            extra["casualty_objective"] = removal(d, a, c, assaulting=False, strike_back=False).objective
    else:
        from grimdice.systems.onepage.simulate import simulate_targets

        hits, comps = simulate_targets(a, sa, [(d, sd, c, fires)], options)[0][0]
        law_of = sampled_laws(d, comps, extra)
    return shooting_result(d, sd, hits, law_of, extra, keys, sc, options)


def melee_keys(a: Unit, d: Unit) -> list[str]:
    """The readings a melee of ``a`` assaulting ``d`` uses: who strikes, the assault bonus's weapon
    rules, wounds lost to the "x" rule or beyond the last model, the casualty order, strike tiers,
    Rending and Linked (their text says "firing"), the Vehicle damage table and Furious."""
    keys = ["who_strikes"]
    melee_weapons = [w for u in (a, d) for g in u.groups for w in g.weapons if w.melee]
    if any(w.rules or w.x for g in a.groups for w in g.weapons if w.melee):
        keys.append("assault_bonus")  # the bonus attacks lack these weapon rules
    if any(w.x for w in melee_weapons) or any(
        _most_melee_attacks(side, side is a) >= sum(g.count * g.tough for g in target.groups)
        for side, target in ((a, d), (d, a))
    ):
        keys.append("melee_wounds")  # wounds can be lost to the "x" rule or beyond the last model
    if any(len(u.removal_orders()) > 1 for u in (a, d)):
        keys.append("casualty_order")
    if any(w.has(r) for w in melee_weapons for r in ("strikes_first", "strikes_last")):
        keys.append("strike_tiers")
    if any(w.x for w in melee_weapons):
        keys.append("x_rule")
    # Rending/Linked say "firing": their use in melee is a reading
    keys += [r for r in ("rending", "linked") if any(w.has(r) for w in melee_weapons)]
    if any(u.rolls_vehicle_damage for u in (a, d)):
        keys.append("vehicle_table")
    if a.has("furious"):
        keys.append("furious")
    return keys


def _melee_solution(
    a: Unit, sa: UnitState, d: Unit, sd: UnitState, c: Conditions, options: RunOptions, keys: list[str]
) -> Any:
    """The exact melee (:func:`~.exact.melee_table`), when the result is exact or either side has
    Piercing's option to pick; a Monte Carlo run whose options are too many to solve plays the
    default option instead (noted), else None."""
    from grimdice.systems.onepage.exact import melee_table

    if not (options.exact or _melee_choice(a, sa, d, sd, c)):
        return None
    try:
        return melee_table(a, sa, d, sd, c)  # also the Piercing options the simulation plays
    except ScenarioError:
        if options.exact:
            raise
        keys.append("melee_piercing_default")
        return None


def _melee_fires(
    a: Unit, sa: UnitState, d: Unit, sd: UnitState, c: Conditions, picks: tuple[dict, dict]
) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """What each side strikes with (OP40k 2.21 Melee: "the assaulting unit receives a bonus of 1
    Attack per assaulting model"; "the defending unit gets to strike back")."""
    sides = ((a, sa, d, "assault", True, c.attacker_strikers), (d, sd, a, "hold", False, c.defender_strikers))
    att, dfd = (
        _choices(
            u,
            melee_fire(
                u, su, foe, c.model_copy(update={"action": act}), assaulting=first, placed=n, picks=pk
            ),
        )
        for (u, su, foe, act, first, n), pk in zip(sides, picks, strict=True)
    )
    return att, dfd


def _exact_melee_laws(a: Unit, d: Unit, m: Any, extra: dict[str, Any]) -> tuple[tuple, LawOf]:
    """The stage laws of the exact melee ``m``; its end states, strike order and casualty orders go
    into ``extra``."""
    laws = (m.hits_a, m.hits_d, m.wounds_a, m.wounds_d)
    law_of = table_laws(m.final, {0: m.states, 1: m.states})
    extra["end_states"] = top_states((a, d), m.final, (0, 1), states=m.states)
    extra["strike_order"] = m.order_p
    for side, unit in (("attacker", a), ("defender", d)):
        o = _orders(unit, m.orders.get(side, {}))
        if o:
            extra[f"{side}_casualty_order"] = o
            extra[f"{side}_casualty_objective"] = m.objectives[side]
    return laws, law_of


def melee(sc: Scenario, options: RunOptions) -> Result:
    """A melee (OP40k 2.21 Melee): the attacker strikes with the assault bonus, the defender strikes
    back, and the loser tests morale; Piercing's options picked by :func:`~.exact.melee_table`."""
    a, sa, d, sd = scenario_units(sc)
    c = sc.conditions
    keys, extra = _opening(sc, a, d)
    keys += melee_keys(a, d)
    m = _melee_solution(a, sa, d, sd, c, options, keys)
    picks = (m.picks["attacker"], m.picks["defender"]) if m is not None else ({}, {})
    if m is not None and m.plans_compared > 1:
        keys.append("melee_piercing")
        extra["melee_piercing"] = {
            side: {str(w): o for w, o in pk.items()} for side, pk in m.picks.items() if pk
        }
        extra["melee_plans_compared"] = m.plans_compared
    extra["attacker_fires"], extra["defender_fires"] = _melee_fires(a, sa, d, sd, c, picks)
    if options.exact:
        laws, law_of = _exact_melee_laws(a, d, m, extra)
    else:
        from grimdice.systems.onepage.sampled_melee import simulate_melee

        laws, comps, joint = simulate_melee(a, sa, d, sd, c, options, picks)
        law_of = component_laws(comps)
        if joint is not None:
            extra["end_states"] = top_states((a, d), joint, (0, 1))
    stages = melee_stages(a, sa, d, sd, laws, law_of)
    return build(options.method, stages, extra, sc.title, keys, options.simulate, options.seed)


__all__ = ["casting", "evaluate", "hazard", "melee", "melee_keys", "several_targets", "shooting"]
