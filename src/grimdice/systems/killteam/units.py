"""Fights: validated operatives and melee weapons resolved into the fight engine's ``Fighter`` values.

The fight engine (the package :mod:`grimdice.systems.killteam.fight`) solves the fight exactly; this module
only reads the scenario: which melee weapon each side uses, WS worsened by 1 for an injured
operative (2021 core book), the weapon rules that act in fights (Lethal, Rending, Brutal, Stun,
Reap, Balanced, Ceaseless, Relentless), each side's objective, and for Reap the other enemy
operatives Visible to the attacker and within a triangle (1") of it or of the target.
"""

from __future__ import annotations

from typing import Any

from grimdice.engine.options import EXACT, RunOptions
from grimdice.errors import ScenarioError
from grimdice.result import Result
from grimdice.systems.killteam.profiles import Operative, Scenario, Weapon
from grimdice.systems.killteam.rules import REAP_RANGE, RULES, WeaponRules
from grimdice.systems.killteam.shooting import to_target, weapon_rules

#: weapon rules with an effect in a fight; the others (AP, MW, Hot, Heavy, ...) only act when shooting
FIGHT_RULES = ("lethal", "rending", "brutal", "stun", "reap", "balanced", "ceaseless", "relentless")


def melee_weapon(op: Operative, name: str | None, where: str, field: str) -> tuple[int, Weapon]:
    melee = [(j, w) for j, w in enumerate(op.weapons) if w.is_melee]
    if name is not None:
        for j, w in enumerate(op.weapons):
            if w.name == name:
                if not w.is_melee:
                    raise ScenarioError(
                        field, f"{w.name} is a ranged weapon (BS); a fight needs a melee weapon (WS)"
                    )
                return j, w
        raise ScenarioError(
            field,
            f"{op.name} has no weapon {name!r}; melee weapons: "
            f"{', '.join(w.name for _, w in melee) or 'none'}",
        )
    if len(melee) == 1:
        return melee[0]
    raise ScenarioError(
        field if melee else f"{where}.weapons",
        f"{op.name} has {len(melee)} melee weapons: "
        + (
            f"name the one used (allowed: {', '.join(w.name for _, w in melee)})"
            if melee
            else "give it one (WS)"
        ),
    )


def fighter(op: Operative, weapon: Weapon, rules: WeaponRules, objective: str) -> Any:
    """The fight engine's plain description of one side."""
    from grimdice.systems.killteam.fight import Fighter, Objective

    return Fighter(
        name=op.name,
        wounds=op.wounds_left,
        attacks=weapon.A,
        hit=op.skill_with(weapon),
        normal_damage=weapon.D[0],
        critical_damage=weapon.D[1],
        rules=rules.only(*FIGHT_RULES),
        objective=Objective(objective),
    )


def fight_scenario(sc: Scenario, options: RunOptions = EXACT) -> Result:
    """Resolve ``action: fight``: ``attacker`` fights ``target`` (each with one melee weapon)."""
    try:
        from grimdice.systems.killteam.fight import fight_result
    except ImportError:
        raise ScenarioError("action", "fights: not available yet") from None
    if sc.attacker is None:
        raise ScenarioError("attackers", "a fight has one attacker: give 'attacker'")
    if sc.target is None:
        raise ScenarioError("targets", "a fight has one defender: give 'target'")
    a_obj, d_obj = sc.objectives.resolved("fight")
    aj, aw = melee_weapon(sc.attacker, sc.weapon, "attacker", "weapon")
    dj, dw = melee_weapon(sc.target, sc.defender_weapon, "target", "defender_weapon")
    ar = weapon_rules(aw, f"attacker.weapons.{aj}")
    dr = weapon_rules(dw, f"target.weapons.{dj}")
    att = fighter(sc.attacker, aw, ar, a_obj)
    dfd = fighter(sc.target, dw, dr, d_obj)
    res = fight_result(
        att,
        dfd,
        simulate=options.simulate,
        seed=options.seed,
        workers=options.workers,
        progress=options.progress,
        scheduler=options.scheduler,
        title=sc.title,
    )
    ignored = sorted(
        {
            k
            for r in (ar, dr)
            for k, v in vars(r).items()
            if k not in FIGHT_RULES and v != WeaponRules.__dataclass_fields__[k].default
        }
    )
    if ignored:
        res.extra["rules_without_effect_in_fights"] = ignored
    if (ar.reap or dr.reap) and sc.nearby:
        res.notes.append(RULES.note("reap"))
    reapers = reap_bystanders(sc, ar, dr)
    if reapers:
        res.extra["reap_bystanders"] = reapers
    return res


def reap_bystanders(sc: Scenario, ar: WeaponRules, dr: WeaponRules) -> dict[str, list[str]]:
    """Reap x: the other enemy operatives of each Reap weapon's wielder in range (Visible to it and
    within a triangle of it or of its opponent). ``nearby`` are the defender's friends (Visible to
    the attacker as described); the defender's Reap has no listed bystanders."""
    out: dict[str, list[str]] = {}
    if ar.reap and sc.attacker is not None and sc.target is not None:
        names = []
        for i, nb in enumerate(sc.nearby):
            to_att = nb.gap(sc.attacker, nb.distance_to_attacker)
            if nb.visible_to_attacker and (
                to_target(nb, sc.target, i) <= REAP_RANGE or (to_att is not None and to_att <= REAP_RANGE)
            ):
                names.append(nb.name)
        if names:
            out[sc.attacker.name] = names
    return out
