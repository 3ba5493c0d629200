"""Scenario builders for the Rules Crusade tests."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from grimdice.systems.crusade import calculate


def gun(dice: str = "1W", effects=(), kind: str = "ranged", name: str = "gun") -> dict[str, Any]:
    return {"name": name, "dice": dice, "kind": kind, "effects": list(effects)}


def model(**kw: Any) -> dict[str, Any]:
    m: dict[str, Any] = {"name": "m", "armour": 0, "hits": 1}
    m.update(kw)
    return m


def shoot(weapons, defender=None, attacker=None, **kw: Any):
    a = attacker or model(name="shooter")
    a = {**a, "weapons": weapons}
    sc = {"system": "crusade", "action": "shoot", "attacker": a, "defender": defender or model(name="target")}
    sc.update(kw)
    return sc


def fight(attacker, defender, **kw: Any):
    sc = {"system": "crusade", "action": "melee", "attacker": attacker, "defender": defender}
    sc.update(kw)
    return sc


def run(sc, **kw):
    return calculate(sc, **kw)


def close(x: float, f: Fraction | float) -> bool:
    return abs(x - float(f)) < 1e-12


def end(res, state: str) -> float:
    return res.extra["end_state"][state]
