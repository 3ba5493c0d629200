"""Kill Team (2021 edition): operative datacards, weapon rules, shooting attacks and fights.

``calculate(scenario)`` is the entry point used by the CLI; ``RULES`` is the rule table (every
weapon rule of the seed text, and the unverified readings); see ``docs/killteam.md`` for the file
layout. Shooting attacks are solved in ``solve.py`` and reported in ``report.py``; fights map
validated profiles (``units.py``) onto the fight engine (the package ``fight``).
"""

from __future__ import annotations

from grimdice.engine.options import RunOptions
from grimdice.result import Result
from grimdice.systems.base import calculate_for
from grimdice.systems.killteam.profiles import Scenario
from grimdice.systems.killteam.rules import RULES

__all__ = ["RULES", "Scenario", "calculate", "evaluate"]


def evaluate(sc: Scenario, options: RunOptions) -> Result:
    """Resolve the scenario's shooting attacks or fight: exactly, or by ``options.simulate`` trials."""
    if sc.action == "fight":
        from grimdice.systems.killteam.units import fight_scenario

        return fight_scenario(sc, options)
    from grimdice.systems.killteam.report import compare, shoot_result

    results = {t.name: shoot_result(sc, t, options) for t in sc.target_list}
    if sc.targets is not None and len(results) != len(sc.targets):
        from grimdice.errors import ScenarioError

        raise ScenarioError("targets", "give each compared target a different name")
    return results[sc.target_list[0].name] if sc.target is not None else compare(results)


calculate = calculate_for("killteam")
