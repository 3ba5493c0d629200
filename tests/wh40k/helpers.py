"""Scenario builders for the 40k tests."""

from __future__ import annotations

from typing import Any

from grimdice.systems.wh40k import calculate


def weapon(**kw: Any) -> dict[str, Any]:
    w = {"name": "gun", "A": 1, "BS": 4, "S": 4, "AP": 0, "D": 1}
    if "WS" in kw:
        w.pop("BS")
    w.update(kw)
    return w


def model(**kw: Any) -> dict[str, Any]:
    m = {"name": "target", "count": 1, "T": 4, "Sv": 7, "W": 1}
    m.update(kw)
    return m


def scenario(
    weapons, defenders, *, count: int = 1, leaders=None, conditions=None, attacker=None, defender=None
) -> dict[str, Any]:
    weapons = weapons if isinstance(weapons, list) else [weapons]
    defenders = defenders if isinstance(defenders, list) else [defenders]
    d = {"models": defenders, **(defender or {})}
    if leaders:
        d["leaders"] = leaders
    return {
        "system": "wh40k",
        "attacker": {"models": [{"name": "shooter", "count": count, "weapons": weapons}], **(attacker or {})},
        "defender": d,
        "conditions": conditions or {},
    }


def run(*args, simulate=None, seed=None, **kw):
    return calculate(scenario(*args, **kw), simulate=simulate, seed=seed)
