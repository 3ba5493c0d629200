"""Army files (``kind: army``): load, field (merges, joins) and check the army-building limits."""

from __future__ import annotations

from pathlib import Path

from grimdice.errors import ScenarioError
from grimdice.io.scenario import load_scenario, validate
from grimdice.systems.onepage.profiles import Army
from grimdice.systems.onepage.units import Fielded, field_army


def load_army(path: str | Path) -> Army:
    data = load_scenario(path)
    if data.get("kind") != "army":
        raise ScenarioError("kind", "an army file has 'kind: army'")
    return validate(Army, data)


def check_army(path: str | Path, points: int | None = None) -> Fielded:
    """The fielded army and every violation of the limits (``points`` overrides the file's)."""
    if points is not None and not 1 <= points <= 100000:
        raise ScenarioError("--points", f"the game size is 1..100000 points, got {points}")
    return field_army(load_army(path), points)


__all__ = ["check_army", "load_army"]
