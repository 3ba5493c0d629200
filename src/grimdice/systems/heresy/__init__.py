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
from grimdice.systems.heresy.units import resolve

__all__ = ["Scenario", "calculate", "evaluate"]


def _fight(sc: Scenario, simulate: int | None, seed: int | None) -> Result:
    from grimdice.systems.heresy.fight import exact_fight, resolve_fight

    attacker, defender = resolve_fight(sc)
    if simulate is None:
        return exact_fight(attacker, defender, sc.title)
    from grimdice.systems.heresy.simulate import simulated_fight

    return simulated_fight(attacker, defender, simulate, seed, sc.title)


def evaluate(sc: Scenario, options: RunOptions) -> Result:
    """Resolve every attack of the scenario: exactly, or by ``options.simulate`` seeded trials."""
    simulate, seed = options.simulate, options.seed
    if sc.conditions.fight:
        return _fight(sc, simulate, seed)
    for mi, m in enumerate(sc.defender.models):
        if m.weapons:
            raise ScenarioError(
                f"defender.models.{mi}.weapons",
                "defending models strike back only in a fight: set conditions.fight: true",
            )
    target, groups = resolve(sc)
    if simulate is None:
        from grimdice.systems.heresy.exact import exact_result

        return exact_result(target, groups, sc.title)
    from grimdice.systems.heresy.simulate import simulated_result

    return simulated_result(target, groups, simulate, seed, sc.title)


calculate = calculate_for("heresy")
