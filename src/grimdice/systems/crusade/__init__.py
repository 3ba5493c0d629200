"""Rules Crusade (``system: crusade``): shooting with Space Crusade dice, fails, melee with parries
and re-rolls played optimally, and movement helpers. Rule text: ``rules-crusade.txt``; see
``docs/crusade.md``."""

from __future__ import annotations

from grimdice.engine.options import RunOptions
from grimdice.result import Result
from grimdice.systems.base import calculate_for
from grimdice.systems.crusade.attack import build
from grimdice.systems.crusade.explode import with_explosions
from grimdice.systems.crusade.modifiers import check_min_range
from grimdice.systems.crusade.profiles import Scenario, Target
from grimdice.systems.crusade.rules import RULES
from grimdice.systems.crusade.structures import check_structure_fields, with_collapse
from grimdice.systems.crusade.units import SHOOTING_KINDS, chosen_arms, fighter

__all__ = ["RULES", "Scenario", "calculate", "evaluate"]


#: the note of a volley whose weapon may EXPLODE (VIII): its chance is reported, its attack is not
VOLLEY_EXPLODE = (
    "not modelled: EXPLODE with VOLLEY FIRE - the chance a fail explodes is in fail_effects, but the "
    "explosion's attack on the bearer is not resolved (fire without volley to resolve it)"
)


#: the note of RAPID FIRE at one target beyond 6" (VIII Rap: "May fire weapon twice if all targets
#: are within 6"")
RAPID_FIRE_ONCE = 'RAPID FIRE: the target is beyond 6", so the weapon fires once (VIII Rap)'


#: the note of a volley whose weapon may MALFUNCTION (VIII): its roll falls on the failing model
VOLLEY_MALFUNCTION = (
    "not modelled: MALFUNCTION with VOLLEY FIRE - the chance is in fail_effects, but the weapon's roll "
    "against the failing model of the volley is not resolved"
)


#: the note of a rapid-fire weapon in a combined fire with weapons without it
RAPID_FIRE_COMBINED = (
    "not modelled: RAPID FIRE in a combined fire with weapons without it - one combined roll is "
    "resolved; fire the rapid-fire weapon alone for its second shot"
)


def rapid_fire_targets(sc: Scenario) -> tuple[Scenario, str]:
    """VIII RAPID FIRE: "May fire weapon twice if all targets are within 6"": a shot at one target
    with rapid-fire weapons only is its two shots (a one-target ``targets`` list); beyond 6" it
    fires once, with a note."""
    if sc.action != "shoot" or sc.targets or sc.volley:
        return sc, ""
    arms = chosen_arms(sc, fighter(sc.attacker, "attacker"), SHOOTING_KINDS)
    if any(a.fx.get("rapid_fire") for a in arms) and not all(a.fx.get("rapid_fire") for a in arms):
        return sc, RAPID_FIRE_COMBINED
    if not arms or not all(a.fx.get("rapid_fire") for a in arms):
        return sc, ""
    if sc.range > 6:
        return sc, RAPID_FIRE_ONCE
    for f in ("inside", "connected", "catwalk_height"):
        if getattr(sc, f):
            from grimdice.errors import ScenarioError

            raise ScenarioError(f, "a structure's collapse after RAPID FIRE's two shots is not modelled")
    target = Target.model_validate(
        {**sc.defender.model_dump(by_alias=True), "range": sc.range, "cover": sc.cover}
    )
    return sc.model_copy(update={"targets": [target]}), ""


def evaluate(sc: Scenario, options: RunOptions) -> Result:
    """Resolve the scenario's attack: exactly, or by ``options.simulate`` seeded trials."""
    check_structure_fields(sc)
    if sc.action == "shoot":
        check_min_range(sc, chosen_arms(sc, fighter(sc.attacker, "attacker"), SHOOTING_KINDS))
    if sc.volley:
        if sc.action != "shoot":
            from grimdice.errors import ScenarioError

            raise ScenarioError("volley", "volley fire is shooting (action: shoot)")
        from grimdice.systems.crusade.volley import exact_volley, simulated_volley

        if sc.explode_near:
            from grimdice.errors import ScenarioError

            raise ScenarioError(
                "explode_near", "EXPLODE's attack is not resolved with VOLLEY FIRE; fire without volley"
            )
        if sc.targets:
            from grimdice.systems.crusade.volley_many import exact_volley_many, simulated_volley_many

            res = exact_volley_many(sc) if options.exact else simulated_volley_many(sc, options)
        else:
            res = exact_volley(sc) if options.exact else simulated_volley(sc, options)
        if res.extra.get("fail_effects", {}).get("effects", {}).get("explode"):
            res.notes.append(VOLLEY_EXPLODE)
        if res.extra.get("fail_effects", {}).get("effects", {}).get("malfunction"):
            res.notes.append(VOLLEY_MALFUNCTION)
        return res
    if sc.action == "mindwar" and sc.psychic_attack == "mind blast":
        from grimdice.systems.crusade.psychic import mind_blast

        return mind_blast(sc, options)
    sc, note = rapid_fire_targets(sc)
    if sc.targets:
        from grimdice.systems.crusade.template_modes import area_only
        from grimdice.systems.crusade.templates import exact_many, per_target

        if sc.action != "shoot":
            from grimdice.errors import ScenarioError

            raise ScenarioError("targets", "many targets apply to shooting (action: shoot)")
        res = exact_many(sc, options)
        if area_only(per_target(sc)[0]):
            res.notes.append(RULES.note("area_targets"))
        return res
    atk = build(sc)
    if note:
        atk.notes.append(note)
    if options.exact:
        from grimdice.systems.crusade.exact import exact_result

        res = exact_result(atk, sc.title)
    else:
        from grimdice.systems.crusade.simulate import simulated_result

        res = simulated_result(atk, options, sc.title)
    res = with_explosions(sc, res, atk.arms, atk.def_arms)  # VIII EXPLODE: the failing weapon's attack
    return with_collapse(sc, res)  # VI: a destroyed structure collapses


calculate = calculate_for("crusade")
