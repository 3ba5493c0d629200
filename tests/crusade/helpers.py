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


def many(dice: str, codes, targets, graze: str = "S", **kw: Any):
    """One weapon of ``dice`` with the graze code and ``codes`` fired at ``targets``."""
    sc = {
        "system": "crusade",
        "attacker": model(name="firer", weapons=[gun(dice, [graze, *codes])]),
        "defender": model(),
        "targets": targets,
    }
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


#: the dice's faces, written out from the rule text (white 0,0,0,0,1,2; red 0,0,0,1,2,3)
FACES = {"W": (0, 0, 0, 0, 1, 2), "R": (0, 0, 0, 1, 2, 3)}


def better(a, b, tol: float = 1e-12) -> bool:
    """``a`` lexicographically better than ``b`` (differences within ``tol`` are ties)."""
    for x, y in zip(a, b, strict=True):
        if abs(x - y) > tol:
            return x > y
    return False


def best(options, key):
    """The first of the options with the best ``key`` (ties keep the earlier option)."""
    out = options[0]
    for v in options[1:]:
        if better(key(v), key(out)):
            out = v
    return out


def one_hit(state: str, dmg: int) -> tuple[str, int]:
    """A 1-hit target taking ``dmg`` points after armour (graze S: stunned + stun = KO; a KO'd model
    changes only when killed): (its new state, the damage counted)."""
    if state == "killed" or dmg <= 0:
        return state, 0
    if dmg >= 2:
        return "killed", dmg
    return {"unharmed": "stunned", "stunned": "ko", "ko": "ko"}[state], dmg
