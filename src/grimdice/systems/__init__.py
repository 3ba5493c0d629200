"""Rule systems. Each is a package exposing ``Scenario``, ``RULES``, ``evaluate(scenario, options)``
and ``calculate(scenario, *, simulate=None, seed=None)`` (see :mod:`grimdice.systems.base`).

Systems never import each other; the front ends find them through :data:`SYSTEMS`.
"""

from grimdice.systems.base import SYSTEMS, calculate, get_system

__all__ = ["SYSTEMS", "calculate", "get_system"]
