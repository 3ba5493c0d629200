"""Warhammer 40,000 10th edition: profiles, abilities, Orders, Scouts, exact and simulated attacks.

``calculate(scenario)`` is the entry point used by the CLI; see ``docs/wh40k.md``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from grimdice.io.scenario import validate
from grimdice.result import Result
from grimdice.systems.wh40k.profiles import Scenario
from grimdice.systems.wh40k.units import MAX_TOTAL_ATTACKS, resolve_groups, resolve_target

__all__ = ["Scenario", "calculate"]


def calculate(
    scenario: Mapping[str, Any] | Scenario, *, simulate: int | None = None, seed: int | None = None
) -> Result:
    """Resolve every attack of the scenario: exactly, or by ``simulate`` seeded Monte Carlo trials."""
    from grimdice.errors import ScenarioError

    sc = scenario if isinstance(scenario, Scenario) else validate(Scenario, scenario)
    target = resolve_target(sc)
    groups = resolve_groups(sc, target)
    most = sum(g.models * (g.attacks.max + g.attack_bonus) for g in groups)
    if most > MAX_TOTAL_ATTACKS:
        raise ScenarioError(
            "attacker", f"at most {MAX_TOTAL_ATTACKS} attacks in one scenario, this one up to {most}"
        )
    if simulate is None:
        from grimdice.systems.wh40k.exact import exact_result

        return exact_result(target, groups, sc.title)
    from grimdice.systems.wh40k.simulate import simulated_result

    return simulated_result(target, groups, simulate, seed, sc.title)
