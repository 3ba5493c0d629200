"""Kill Team (2021 edition): operative datacards, weapon rules, shooting attacks and fights.

``calculate(scenario)`` is the entry point used by the CLI; ``RULES`` is the rule table (every
weapon rule of the seed text, and the unverified readings); see ``docs/killteam.md`` for the file
layout. ``evaluate.py`` dispatches a scenario: shooting attacks are solved in ``solve.py`` and
run and reported in ``report.py``; fights map validated profiles (``units.py``) onto the fight
engine (the package ``fight``).
"""

from __future__ import annotations

from grimdice.systems.base import calculate_for
from grimdice.systems.killteam.evaluate import evaluate
from grimdice.systems.killteam.profiles import Scenario
from grimdice.systems.killteam.rules import RULES

__all__ = ["RULES", "Scenario", "calculate", "evaluate"]

calculate = calculate_for("killteam")
