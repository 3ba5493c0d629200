"""The exact Rules Crusade engine: the attack's contest solved by expectimax (:mod:`.contest`)."""

from __future__ import annotations

from grimdice.result import Result
from grimdice.systems.crusade.attack import Attack
from grimdice.systems.crusade.contest import solve
from grimdice.systems.crusade.report import build_result


def exact_result(atk: Attack, title: str = "") -> Result:
    sol = solve(atk.spec)
    return build_result(atk, sol.value, "exact", title, {})
