"""Horus Heresy 2.0 (Age of Darkness): profiles, special rules, exact and simulated attacks,
Infiltrate deployment and Support Unit scoring helpers.

``calculate(scenario)`` is the entry point used by the CLI; see ``docs/heresy.md``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from grimdice.io.scenario import validate
from grimdice.result import Result
from grimdice.systems.heresy.profiles import Scenario
from grimdice.systems.heresy.units import resolve

__all__ = ["Scenario", "calculate"]


def calculate(
    scenario: Mapping[str, Any] | Scenario, *, simulate: int | None = None, seed: int | None = None
) -> Result:
    """Resolve every attack of the scenario: exactly, or by ``simulate`` seeded Monte Carlo trials."""
    sc = scenario if isinstance(scenario, Scenario) else validate(Scenario, scenario)
    target, groups = resolve(sc)
    if simulate is None:
        from grimdice.systems.heresy.exact import exact_result

        return exact_result(target, groups, sc.title)
    from grimdice.systems.heresy.simulate import simulated_result

    return simulated_result(target, groups, simulate, seed, sc.title)
