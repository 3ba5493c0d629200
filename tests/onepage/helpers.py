"""Small builders for One Page 40k tests."""

from __future__ import annotations

from typing import Any

from grimdice.io.scenario import validate
from grimdice.systems.onepage.fielding import resolve_unit
from grimdice.systems.onepage.profiles import Conditions, UnitSpec
from grimdice.systems.onepage.units import Unit


def spec(name: str = "U", size: int = 1, quality: int = 4, equipment=(), rules=(), **kw: Any) -> UnitSpec:
    return validate(
        UnitSpec,
        {
            "name": name,
            "size": size,
            "quality": quality,
            "equipment": list(equipment),
            "special_rules": list(rules),
            **kw,
        },
    )


def unit(name: str = "U", size: int = 1, quality: int = 4, equipment=(), rules=(), **kw: Any) -> Unit:
    return resolve_unit(spec(name, size, quality, equipment, rules, **kw), "u")


def cond(**kw: Any) -> Conditions:
    return validate(Conditions, kw)


def scenario(attack: str, attacker: dict, defender: dict, **kw: Any) -> dict:
    return {"system": "onepage", "attack": attack, "attacker": attacker, "defender": defender, **kw}
