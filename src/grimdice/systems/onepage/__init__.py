"""One Page 40k v2.21 (Beginner's Guide): units and armies as game state, every special rule of
the text, exact and Monte Carlo shooting and melee. See ``docs/onepage.md``.
"""

from __future__ import annotations

from grimdice.systems.base import calculate_for
from grimdice.systems.onepage.evaluate import evaluate
from grimdice.systems.onepage.profiles import Scenario
from grimdice.systems.onepage.rules import RULES

__all__ = ["RULES", "Scenario", "calculate", "evaluate"]

calculate = calculate_for("onepage")
