"""Rules Crusade (``system: crusade``): shooting with Space Crusade dice, fails, melee with parries
and re-rolls played optimally, and movement helpers. Rule text: ``rules-crusade.txt``; see
``docs/crusade.md``."""

from __future__ import annotations

from grimdice.engine.options import RunOptions
from grimdice.result import Result
from grimdice.systems.base import calculate_for
from grimdice.systems.crusade.attack import build
from grimdice.systems.crusade.explode import with_explosions
from grimdice.systems.crusade.profiles import Scenario
from grimdice.systems.crusade.rules import RULES
from grimdice.systems.crusade.structures import check_structure_fields, with_collapse

__all__ = ["RULES", "Scenario", "calculate", "evaluate"]


#: the note of a volley whose weapon may EXPLODE (VIII): its chance is reported, its attack is not
VOLLEY_EXPLODE = (
    "not modelled: EXPLODE with VOLLEY FIRE - the chance a fail explodes is in fail_effects, but the "
    "explosion's attack on the bearer is not resolved (fire without volley to resolve it)"
)


def evaluate(sc: Scenario, options: RunOptions) -> Result:
    """Resolve the scenario's attack: exactly, or by ``options.simulate`` seeded trials."""
    check_structure_fields(sc)
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
        return res
    if sc.action == "mindwar" and sc.psychic_attack == "mind blast":
        from grimdice.systems.crusade.psychic import mind_blast

        return mind_blast(sc, options)
    if sc.targets:
        from grimdice.systems.crusade.templates import exact_many

        if sc.action != "shoot":
            from grimdice.errors import ScenarioError

            raise ScenarioError("targets", "many targets apply to shooting (action: shoot)")
        return exact_many(sc, options)
    atk = build(sc)
    if options.exact:
        from grimdice.systems.crusade.exact import exact_result

        res = exact_result(atk, sc.title)
    else:
        from grimdice.systems.crusade.simulate import simulated_result

        res = simulated_result(atk, options, sc.title)
    res = with_explosions(sc, res, atk.arms, atk.def_arms)  # VIII EXPLODE: the failing weapon's attack
    return with_collapse(sc, res)  # VI: a destroyed structure collapses


calculate = calculate_for("crusade")
