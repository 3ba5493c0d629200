"""Rule systems. Each is a package exposing ``calculate(scenario, *, simulate=None, seed=None)``.

Systems never import each other; the front ends find them through :data:`SYSTEMS`.
"""

from __future__ import annotations

import importlib
from collections.abc import Mapping
from typing import Any, Protocol

from grimdice.errors import ScenarioError
from grimdice.result import Result

#: system key (the ``system:`` field of a scenario) -> module implementing it
SYSTEMS: dict[str, str] = {
    "wh40k": "grimdice.systems.wh40k",
    "killteam": "grimdice.systems.killteam",
    "heresy": "grimdice.systems.heresy",
}


class System(Protocol):
    def calculate(
        self, scenario: Mapping[str, Any], *, simulate: int | None = None, seed: int | None = None
    ) -> Result: ...


def get_system(name: str) -> System:
    """The module of a rule system, by its scenario key."""
    if name not in SYSTEMS:
        raise ScenarioError("system", f"unknown system {name!r}; allowed: {', '.join(sorted(SYSTEMS))}")
    return importlib.import_module(SYSTEMS[name])  # type: ignore[return-value]


def calculate(scenario: Mapping[str, Any], *, simulate: int | None = None, seed: int | None = None) -> Result:
    """Dispatch a scenario mapping to its system (exact, or simulated with ``simulate`` trials)."""
    if not isinstance(scenario, Mapping):
        raise ScenarioError("", "a scenario must be a mapping with a 'system' field")
    name = scenario.get("system")
    if not isinstance(name, str):
        raise ScenarioError("system", f"missing; allowed: {', '.join(sorted(SYSTEMS))}")
    return get_system(name).calculate(scenario, simulate=simulate, seed=seed)
