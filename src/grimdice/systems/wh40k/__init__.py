"""Warhammer 40,000 10th edition: profiles, abilities, Orders, Scouts, exact and simulated attacks.

``calculate(scenario)`` is the entry point used by the CLI; see ``docs/wh40k.md``.
"""

from __future__ import annotations

from grimdice.engine.options import RunOptions
from grimdice.errors import ScenarioError
from grimdice.result import Result
from grimdice.systems.base import calculate_for
from grimdice.systems.wh40k.profiles import Scenario
from grimdice.systems.wh40k.rules import RULES
from grimdice.systems.wh40k.units import MAX_TOTAL_ATTACKS, resolve_groups, resolve_target

__all__ = ["RULES", "Scenario", "calculate", "evaluate"]


def evaluate(sc: Scenario, options: RunOptions) -> Result:
    """Resolve every attack of the scenario: exactly, or by ``options.simulate`` seeded trials."""
    target = resolve_target(sc)
    groups = resolve_groups(sc, target)
    most = sum(g.models * (g.attacks.max + g.attack_bonus) for g in groups)
    if most > MAX_TOTAL_ATTACKS:
        raise ScenarioError(
            "attacker", f"at most {MAX_TOTAL_ATTACKS} attacks in one scenario, this one up to {most}"
        )
    once = (sc.conditions.reroll_one_hit, sc.conditions.reroll_one_wound)
    if options.exact:
        from grimdice.systems.wh40k.exact import exact_result

        result = exact_result(target, groups, sc.title, once)
    else:
        from grimdice.systems.wh40k.simulate import simulated_result

        result = simulated_result(target, groups, options, sc.title, once)
    if len({m.T for m in sc.defender.models}) > 1:
        result.notes.append(RULES.note("bodyguard_toughness"))
    return result


calculate = calculate_for("wh40k")
