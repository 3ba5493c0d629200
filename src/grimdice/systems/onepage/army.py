"""Army files (``kind: army``): load, field (merges, joins) and check the army-building limits.

A unit entry may also carry fields only the game reads (``read_play_fields``): ``base: MM`` (a round
base diameter, 20-200 mm) and, for a Vehicle, ``arcs: {WEAPON: turret|front}`` (each ranged weapon's
mounting: "turrets which are able to turn 360° can fire in all directions, whilst weapons which are
mounted in the front of the vehicle can only fire straight"; unnamed weapons are turrets).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from grimdice.errors import ScenarioError
from grimdice.io.scenario import load_scenario, validate
from grimdice.systems.onepage.fielding import Fielded, field_army
from grimdice.systems.onepage.profiles import Army
from grimdice.systems.onepage.units import Unit

#: the error of a file without 'kind: army', saying what each kind of file has
ARMY_NEEDS = (
    "an army file has 'kind: army' (a Rules Crusade game file has 'system: crusade' and 'kind: game')"
)
ARCS = ("turret", "front")  # the text's mountings: a 360° turret, or "mounted in the front"


def _entries(raw: dict[str, Any]) -> list[Any]:
    """``raw``'s unit entries when they are a list (any other value is the army validation's error,
    naming ``units``)."""
    units = raw.get("units")
    return units if isinstance(units, list) else []


def read_play_fields(raw: dict[str, Any], where: str) -> tuple[dict[int, float], dict[int, dict[str, str]]]:
    """Pop the game's own fields from ``raw``'s unit entries (``raw`` is changed): bases (mm) and
    weapon arcs, keyed by the entry's index in ``units`` (names and labels may repeat: merged units,
    two Vehicles of one name); shapes and values checked here, weapon names by :func:`check_arcs`
    once the army is fielded."""
    bases: dict[int, float] = {}
    arcs: dict[int, dict[str, str]] = {}
    for i, u in enumerate(_entries(raw)):
        if not isinstance(u, dict):
            continue
        if "base" in u:
            b = u.pop("base")
            if isinstance(b, bool) or not isinstance(b, (int, float)) or not 20 <= b <= 200:
                raise ScenarioError(f"{where}.units.{i}.base", "a round base diameter of 20 to 200 mm")
            bases[i] = float(b)
        if "arcs" in u:
            a = u.pop("arcs")
            if not isinstance(a, dict) or not a:
                raise ScenarioError(
                    f"{where}.units.{i}.arcs",
                    "a mapping of weapon name to turret or front, e.g. {Lascannon: front}",
                )
            mounts: dict[str, str] = {}
            first: dict[str, str] = {}  # weapon (read without case) -> the name it was first given as
            for name, arc in a.items():
                if not isinstance(name, str) or arc not in ARCS:
                    raise ScenarioError(
                        f"{where}.units.{i}.arcs.{name}",
                        f"a weapon's arc is one of {', '.join(ARCS)}; got {arc!r}",
                    )
                key = name.strip().lower()
                if key in first:
                    raise ScenarioError(
                        f"{where}.units.{i}.arcs.{name}",
                        f"{first[key]!r} already has an arc (weapon names are read without case)",
                    )
                first[key], mounts[key] = name, str(arc)
            arcs[i] = mounts
    return bases, arcs


def fielded_entries(raw: dict[str, Any]) -> list[int]:
    """The index in ``raw``'s ``units`` of the entry each fielded unit stands for (``field_army``'s
    order, for an army without violations): every entry but a joined Hero/Psyker ("deployed as part
    of friendly Infantry units") and the second copy of a merged unit (its first copy stands for
    both)."""
    out: list[int] = []
    merges: set[Any] = set()
    for i, u in enumerate(_entries(raw)):
        if u.get("joins"):
            continue
        if u.get("merge"):
            if u["merge"] in merges:
                continue
            merges.add(u["merge"])
        out.append(i)
    return out


def check_arcs(
    raw: dict[str, Any], units: list[Unit], arcs: dict[int, dict[str, str]], where: str
) -> list[dict[str, str]]:
    """Every unit with ``arcs`` is a Vehicle ("When shooting Vehicles ...") and names its own ranged
    weapons; the mountings of each fielded unit, in order."""
    entries = fielded_entries(raw)
    out: list[dict[str, str]] = []
    for i, unit in zip(entries, units, strict=True):
        mounts = arcs.get(i, {})
        out.append(mounts)
        if not mounts:
            continue
        at = f"{where}.units.{i}.arcs"
        if unit.kind != "vehicle":
            raise ScenarioError(at, "weapon arcs are for Vehicle units (they have facings)")
        ranged = {w.name.lower() for g in unit.groups for w in g.weapons if w.range is not None}
        for name in mounts:
            if name not in ranged:
                has = ", ".join(sorted(ranged)) or "none"
                raise ScenarioError(f"{at}.{name}", f"not a ranged weapon of {unit.name}; it has {has}")
    for i in set(arcs) - set(entries):  # on a joined Hero or a merged unit's second copy
        raise ScenarioError(
            f"{where}.units.{i}.arcs", "weapon arcs are for Vehicle units (they have facings)"
        )
    return out


def load_army(path: str | Path) -> Army:
    data = load_scenario(path)
    if data.get("kind") != "army":
        raise ScenarioError("kind", ARMY_NEEDS)
    _bases, arcs = read_play_fields(data, "army")
    army = validate(Army, data)
    fielded = field_army(army)
    if arcs and not fielded.violations:  # with violations (reported by check_army) units and entries differ
        check_arcs(data, list(fielded.units), arcs, "army")
    return army


def check_army(path: str | Path, points: int | None = None) -> Fielded:
    """The fielded army and every violation of the limits (``points`` overrides the file's)."""
    if points is not None and not 1 <= points <= 100000:
        raise ScenarioError("--points", f"the game size is 1..100000 points, got {points}")
    return field_army(load_army(path), points)


__all__ = [
    "ARCS",
    "ARMY_NEEDS",
    "check_arcs",
    "check_army",
    "fielded_entries",
    "load_army",
    "read_play_fields",
]
