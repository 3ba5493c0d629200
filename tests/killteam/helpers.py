"""Scenario builders for the Kill Team tests."""

from __future__ import annotations

from typing import Any

from grimdice.systems.killteam import calculate


def gun(**kw: Any) -> dict[str, Any]:
    w = {"name": "gun", "A": 4, "BS": 3, "D": "3/4"}
    w.update(kw)
    return w


def operative(**kw: Any) -> dict[str, Any]:
    o = {"name": "target", "DF": 3, "SV": 4, "W": 10}
    o.update(kw)
    return o


def scenario(weapon=None, target=None, **kw: Any) -> dict[str, Any]:
    sc = {
        "system": "killteam",
        "attacker": {"name": "shooter", "W": 10, "weapons": [weapon or gun()]},
        "target": target or operative(),
    }
    sc.update(kw)
    return sc


def run(weapon=None, target=None, simulate=None, seed=None, **kw):
    return calculate(scenario(weapon, target, **kw), simulate=simulate, seed=seed)


def fighter(name, wounds, attacks, hit, nd, cd, objective="kill", **rules):
    """A fight engine Fighter; keyword arguments other than ``objective`` are weapon rules."""
    from grimdice.systems.killteam.fight import Fighter
    from grimdice.systems.killteam.rules import WeaponRules

    return Fighter(name, wounds, attacks, hit, nd, cd, rules=WeaponRules(**rules), objective=objective)
