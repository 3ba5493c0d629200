"""Scenario builders for the Horus Heresy tests."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import pytest

from grimdice.systems.heresy import calculate


def weapon(**kw: Any) -> dict[str, Any]:
    w: dict[str, Any] = {"name": "gun", "A": 1, "S": 4, "AP": None, "rules": []}
    w.update(kw)
    return w


def melee(**kw: Any) -> dict[str, Any]:
    w: dict[str, Any] = {"name": "blade", "S": "user", "AP": None, "rules": ["Melee"]}
    w.update(kw)
    if "rules" in kw and "Melee" not in kw["rules"]:
        w["rules"] = ["Melee", *kw["rules"]]
    return w


def model(**kw: Any) -> dict[str, Any]:
    m: dict[str, Any] = {"name": "target", "count": 1, "T": 4, "W": 1}
    m.update(kw)
    return m


def scenario(weapons, defenders, *, count=1, shooter=None, conditions=None, defender=None) -> dict[str, Any]:
    weapons = weapons if isinstance(weapons, list) else [weapons]
    defenders = defenders if isinstance(defenders, list) else [defenders]
    att = {"name": "shooter", "count": count, "BS": 4, "WS": 4, "weapons": weapons, **(shooter or {})}
    return {
        "system": "heresy",
        "attacker": {"models": [att]},
        "defender": {"models": defenders, **(defender or {})},
        "conditions": conditions or {},
    }


def run(*args, simulate=None, seed=None, **kw):
    return calculate(scenario(*args, **kw), simulate=simulate, seed=seed)


def assert_names_field(sc: dict[str, Any], field: str, needle: str) -> None:
    """``calculate(sc)`` raises ScenarioError naming ``field``, its message containing ``needle``."""
    from grimdice.errors import ScenarioError

    with pytest.raises(ScenarioError) as e:
        calculate(sc)
    assert e.value.field == field, str(e.value)
    assert needle in str(e.value)


def approx(x):
    """pytest.approx for one Fraction or a list of them."""
    if isinstance(x, (list, tuple)):
        return pytest.approx([float(f) for f in x], abs=1e-12)
    return pytest.approx(float(x), abs=1e-12)


def pmf(d, upto):
    return [d[k] for k in range(upto + 1)]


F = Fraction
