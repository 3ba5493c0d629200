"""The exact Rules Crusade engine: the attack's contest solved by expectimax (:mod:`.contest`)."""

from __future__ import annotations

from grimdice.result import Result
from grimdice.systems.crusade.attack import Attack
from grimdice.systems.crusade.contest import rerolled_dice, solve
from grimdice.systems.crusade.report import build_result


def exact_result(atk: Attack, title: str = "") -> Result:
    sol = solve(atk.spec)
    res = build_result(atk, sol.value, "exact", title, {})
    a, d = atk.spec.att, atk.spec.dfd
    if a.own or a.opp or d.own or d.opp:  # VIII R / RO, IX JINK: which die each side re-rolls
        res.extra["choices"]["rerolled_dice"] = rerolled_dice(atk.spec, sol)
    return res
