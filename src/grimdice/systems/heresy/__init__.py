"""Horus Heresy 2.0 (Age of Darkness): profiles, special rules, exact and simulated attacks,
Infiltrate deployment and Support Unit scoring helpers.

``calculate(scenario)`` is the entry point used by the CLI; see ``docs/heresy.md``.
"""

from __future__ import annotations

from grimdice.engine.options import RunOptions
from grimdice.errors import ScenarioError
from grimdice.result import Result
from grimdice.systems.base import calculate_for
from grimdice.systems.heresy.profiles import Scenario
from grimdice.systems.heresy.rules import COMBAT_RESOLUTION, INSTANT_DEATH_STRENGTH, MELEE_HIT_CHART, RULES
from grimdice.systems.heresy.units import StrikeGroup, Target, resolve

__all__ = ["RULES", "Scenario", "calculate", "evaluate", "readings_used"]


#: the note of a melee hit with the scenario's own WS chart (instead of reading melee_to_hit_chart)
OWN_WS_CHART = "melee To Hit from the WS chart given in conditions.ws_chart"


def readings_used(
    target: Target, groups: list[StrikeGroup] | tuple[StrikeGroup, ...], ws_chart: object = "classic"
) -> list[str]:
    """The unverified readings (keys of :data:`RULES`) that groups striking ``target`` use; with the
    scenario's own ``ws_chart`` melee uses no reading of the chart."""
    used = []
    if any(g.melee for g in groups) and ws_chart == "classic":
        used.append(MELEE_HIT_CHART)
    if any(not g.rules.instant_death and g.S >= 2 * p.T for g in groups for p in target.profiles):
        used.append(INSTANT_DEATH_STRENGTH)
    return used


def _fight(sc: Scenario, options: RunOptions) -> Result:
    from grimdice.systems.heresy.fight import exact_fight, resolve_fight

    attacker, defender = resolve_fight(sc)
    if options.exact:
        result = exact_fight(attacker, defender, sc.title)
    else:
        from grimdice.systems.heresy.simulate import simulated_fight

        result = simulated_fight(attacker, defender, options, sc.title)
    chart = sc.conditions.ws_chart
    used = readings_used(defender.target, attacker.groups, chart) + readings_used(
        attacker.target, defender.groups, chart
    )
    result.notes.extend(RULES.note(k) for k in dict.fromkeys([*used, COMBAT_RESOLUTION]))
    if chart != "classic":
        result.notes.append(OWN_WS_CHART)
    return result


def evaluate(sc: Scenario, options: RunOptions) -> Result:
    """Resolve every attack of the scenario: exactly, or by ``options.simulate`` seeded trials."""
    if sc.conditions.fight:
        return _fight(sc, options)
    for mi, m in enumerate(sc.defender.models):
        if m.weapons:
            raise ScenarioError(
                f"defender.models.{mi}.weapons",
                "defending models strike back only in a fight: set conditions.fight: true",
            )
    target, groups = resolve(sc)
    if options.exact:
        from grimdice.systems.heresy.exact import exact_result

        result = exact_result(target, groups, sc.title)
    else:
        from grimdice.systems.heresy.simulate import simulated_result

        result = simulated_result(target, groups, options, sc.title)
    result.notes.extend(RULES.note(k) for k in readings_used(target, groups, sc.conditions.ws_chart))
    if sc.conditions.ws_chart != "classic" and any(g.melee for g in groups):
        result.notes.append(OWN_WS_CHART)
    return result


calculate = calculate_for("heresy")
