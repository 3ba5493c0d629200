"""The one ``calculate`` every system shares: validate run options once, validate the scenario
with the system's own model, then run its exact or simulated engine.

A system package exposes

* ``Scenario`` — its pydantic scenario model (the ``system:`` field names the system);
* ``RULES`` — its :class:`~grimdice.engine.rules.RuleTable` (its rule index);
* ``evaluate(scenario, options) -> Result`` — the engines, given a validated scenario and
  :class:`~grimdice.engine.options.RunOptions` (``options.exact`` or ``options.simulate`` trials);
* ``calculate = base.calculate_for("name")`` — the public entry point.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping
from types import ModuleType
from typing import Any

from grimdice.engine.options import Progress, RunOptions
from grimdice.errors import ScenarioError
from grimdice.result import Result

#: system key (the ``system:`` field of a scenario) -> module implementing it
SYSTEMS: dict[str, str] = {
    "wh40k": "grimdice.systems.wh40k",
    "killteam": "grimdice.systems.killteam",
    "heresy": "grimdice.systems.heresy",
    "onepage": "grimdice.systems.onepage",
    "crusade": "grimdice.systems.crusade",
}


def get_system(name: object) -> ModuleType:
    """The module of a rule system, by its scenario key."""
    if not isinstance(name, str) or name not in SYSTEMS:
        shown = repr(name) if len(repr(name)) <= 40 else repr(name)[:37] + "..."
        raise ScenarioError("system", f"unknown system {shown}; allowed: {', '.join(sorted(SYSTEMS))}")
    return importlib.import_module(SYSTEMS[name])


def system_name(scenario: object) -> str:
    if not isinstance(scenario, Mapping):
        if hasattr(scenario, "system") and isinstance(scenario.system, str):
            return scenario.system
        raise ScenarioError("", "a scenario must be a mapping with a 'system' field")
    name = scenario.get("system")
    if not isinstance(name, str):
        raise ScenarioError("system", f"missing; allowed: {', '.join(sorted(SYSTEMS))}")
    return name


def run(name: str, scenario: Any, options: RunOptions) -> Result:
    """Validate ``scenario`` with system ``name``'s model and run its engines."""
    from grimdice.io.scenario import validate

    mod = get_system(name)
    sc = scenario if isinstance(scenario, mod.Scenario) else validate(mod.Scenario, scenario)
    return mod.evaluate(sc, options)


def calculate(
    scenario: Mapping[str, Any],
    *,
    simulate: int | None = None,
    seed: int | None = None,
    workers: int | None = None,
    progress: Progress | None = None,
    scheduler: str | None = None,
) -> Result:
    """Resolve a scenario of any system: exactly, or by ``simulate`` seeded Monte Carlo trials
    (on ``workers`` local processes, or on the Dask cluster at ``scheduler``)."""
    options = RunOptions(simulate, seed, workers, progress, scheduler)
    return run(system_name(scenario), scenario, options)


def calculate_for(name: str) -> Callable[..., Result]:
    """The ``calculate`` of one system (the same contract, the scenario's system fixed)."""

    def calculate(
        scenario: Any,
        *,
        simulate: int | None = None,
        seed: int | None = None,
        workers: int | None = None,
        progress: Progress | None = None,
        scheduler: str | None = None,
    ) -> Result:
        return run(name, scenario, RunOptions(simulate, seed, workers, progress, scheduler))

    calculate.__doc__ = f"Resolve a {name} scenario: exactly, or by ``simulate`` seeded Monte Carlo trials."
    return calculate
