"""Every unit of one roster against every unit of another (or a list of target profiles), exactly.

Each cell is one exact calculation (the system's own ``calculate``), run in parallel over worker
processes. Exact results do not depend on the order or process they are computed in, so the matrix
is the same whatever the number of workers. A pair the system refuses (a unit with no weapons of
the chosen kind, or too many attacks for the exact engine) keeps the reason in its cell.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from grimdice.adapters.rosters.onepage_sides import onepage_scenario
from grimdice.adapters.rosters.resolve import SIDES, Picked, build_side, detect_system, load
from grimdice.engine.batch import parallel_map
from grimdice.engine.options import MAX_WORKERS
from grimdice.errors import GrimdiceError, ScenarioError
from grimdice.io.rosters.tree import Roster, Unit

MAX_CELLS = 10_000
MIN_PARALLEL = 64  # fewer distinct calculations run in-process: starting a worker (~1 s) costs more


#: what a cell can show: its JSON key and a label (``per100``: expected damage per 100 points of
#: the attacking unit, from the roster's points; no value when the unit has no points)
METRICS = {
    "damage": ("damage", "expected damage"),
    "destroyed": ("models_destroyed", "expected models destroyed"),
    "wipe": ("p_wipe", "P(wipe out)"),
    "per100": ("damage_per_100_points", "expected damage per 100 points"),
}


@dataclass(frozen=True)
class Cell:
    """Expected damage, expected models destroyed and P(all destroyed); or why there is none."""

    damage: float | None = None
    destroyed: float | None = None
    wipe: float | None = None
    error: str = ""
    per100: float | None = None

    def to_json(self) -> dict[str, Any]:
        if self.error:
            return {"error": self.error}
        return {
            "damage": self.damage,
            "models_destroyed": self.destroyed,
            "p_wipe": self.wipe,
            "damage_per_100_points": self.per100,
        }

    def value(self, metric: str) -> float | None:
        """The cell's value of one of :data:`METRICS` (None for a refused pair)."""
        return None if self.error else self.to_json()[METRICS[metric][0]]


@dataclass
class Matrix:
    system: str
    attackers: list[str]
    defenders: list[str]
    cells: list[list[Cell]]  # [attacker][defender]
    computed: int = 0  # distinct calculations (identical pairs are computed once)
    points: list[float] = field(default_factory=list)  # each attacker's points

    def to_json(self) -> dict[str, Any]:
        return {
            "system": self.system,
            "attackers": self.attackers,
            "defenders": self.defenders,
            "attacker_points": self.points,
            "cells": [
                {"attacker": a, "defender": d, **c.to_json()}
                for a, row in zip(self.attackers, self.cells, strict=True)
                for d, c in zip(self.defenders, row, strict=True)
            ],
        }


def _cell(task: tuple[str, dict[str, Any] | str, int]) -> Cell:
    """One exact calculation (run in a worker process)."""
    _system, scenario, models = task
    if isinstance(scenario, str):
        return Cell(error=scenario)
    from grimdice.systems.base import calculate

    try:
        r = calculate(scenario)
    except GrimdiceError as exc:
        return Cell(error=str(exc))
    killed = r.stages["models_destroyed"]
    return Cell(r.stages["damage"].mean(), killed.mean(), killed.prob_at_least(models))


def load_targets(path: Path, system: str) -> list[tuple[str, dict[str, Any] | str, int]]:
    """Target profiles from YAML/JSON: a list (or ``{targets: [...]}``) of the system's defenders."""
    import yaml

    from grimdice.io.scenario import load_scenario

    if path.suffix.lower() in (".yaml", ".yml"):
        try:
            data: Any = yaml.safe_load(path.read_text(encoding="utf-8"))
        except (OSError, yaml.YAMLError) as exc:
            raise ScenarioError("targets", f"{path} is not readable YAML: {exc}") from None
    elif path.suffix.lower() == ".json":
        from grimdice.io.rosters.safe import load_json, read_bytes

        data = load_json(read_bytes(path, "targets")[0], path.name, "targets")
    else:
        data = load_scenario(path)
    if isinstance(data, dict):
        data = data.get("targets")
    if not isinstance(data, list) or not data or not all(isinstance(t, dict) for t in data):
        raise ScenarioError("targets", f"{path.name} must hold a list of target profiles (or targets: [...])")
    out = []
    for i, t in enumerate(data):
        name = str(t.get("name", f"target {i + 1}"))
        if system == "killteam":
            n = 1
        elif system == "onepage":
            n = int(t.get("size", 1)) if isinstance(t.get("size", 1), int) else 1
        else:
            ms = [*(t.get("models") or []), *(t.get("leaders") or [])]
            n = sum(int(m.get("count", 1)) for m in ms if isinstance(m, dict)) or 1
        out.append((name, t, n))
    return out


def tasks_for(
    roster_a: Roster, defenders: list[tuple[str, dict[str, Any] | str, int]], system: str, weapons: object
) -> tuple[list[str], list[tuple[str, dict[str, Any] | str, int]]]:
    """Attacker names and one task per (attacker, defender) pair, row by row."""
    att_key, def_key = SIDES[system]
    names, tasks = [], []
    for u, name, _ in as_played(roster_a, system):
        names.append(name)
        try:
            side: dict[str, Any] | str = build_side(
                system, "attacker", Picked(u, leaders_of(u, system)), weapons, "attacker"
            ).data
        except GrimdiceError as exc:
            side = str(exc)
        for _dname, ddata, n in defenders:
            if isinstance(side, str) or isinstance(ddata, str):
                tasks.append((system, side if isinstance(side, str) else ddata, n))
                continue
            if system == "onepage":
                tasks.append((system, onepage_scenario(side, ddata), n))
                continue
            sc: dict[str, Any] = {"system": system, att_key: dict(side), def_key: ddata}
            kt_weapon = sc[att_key].pop("_weapon", None)
            if kt_weapon is not None and weapons == "melee":
                sc["action"], sc["weapon"] = "fight", kt_weapon  # a Kill Team fight, both sides strike
            elif kt_weapon is not None:
                sc["shots"] = [{"weapon": kt_weapon}]
            tasks.append((system, sc, n))
    return names, tasks


def leaders_of(u: Unit, system: str) -> list[Unit]:
    """The Leaders the roster records as attached to ``u`` (40k: a Leader and its Bodyguard are one
    unit)."""
    return list(u.led_by) if system == "wh40k" else []


def as_played(roster: Roster, system: str) -> list[tuple[Unit, str, float]]:
    """(unit, name, points) of each unit as it takes the field: a Bodyguard with the Leaders the
    roster attaches to it (``Squad + Captain``, points added), and no row of its own for a Leader
    so attached."""
    attached = {id(x) for u in roster.units for x in leaders_of(u, system)}
    out = []
    for u in roster.units:
        if id(u) in attached:
            continue
        lead = leaders_of(u, system)
        out.append((u, " + ".join([u.ref, *(x.ref for x in lead)]), u.points + sum(x.points for x in lead)))
    return out


def roster_defenders(roster: Roster, system: str) -> list[tuple[str, dict[str, Any] | str, int]]:
    out: list[tuple[str, dict[str, Any] | str, int]] = []
    for u, name, _ in as_played(roster, system):
        try:
            side = build_side(system, "defender", Picked(u, leaders_of(u, system)), None, "defender")
            out.append((name, side.data, side.models))
        except GrimdiceError as exc:
            out.append((name, str(exc), 1))
    return out


def compute(
    path_a: str | Path,
    path_b: str | Path,
    *,
    system: str | None = None,
    weapons: object = None,
    workers: int | None = None,
    progress: Callable[[int, int], None] | None = None,
    scheduler: str | None = None,
) -> Matrix:
    """The matrix of roster ``path_a``'s units attacking ``path_b``'s units (or target profiles)."""
    ra = load(path_a, "roster_a")
    system = system or detect_system(ra)
    if system not in SIDES:
        raise ScenarioError("--system", f"rosters cannot be read for {system!r}; allowed: {', '.join(SIDES)}")
    pb = Path(path_b)
    if pb.suffix.lower() in (".yaml", ".yml") or (pb.suffix.lower() == ".json" and _is_target_list(pb)):
        defenders = load_targets(pb, system)
    else:
        defenders = roster_defenders(load(pb, "roster_b"), system)
    names, tasks = tasks_for(ra, defenders, system, weapons)
    if len(tasks) > MAX_CELLS:
        raise ScenarioError("matrix", f"at most {MAX_CELLS} unit pairs, these rosters make {len(tasks)}")
    n = workers if workers is not None else (os.cpu_count() or 1)
    if not 1 <= n <= MAX_WORKERS:
        raise ScenarioError("--workers", f"1 to {MAX_WORKERS}, got {n}")
    # identical pairs (the same unit taken twice, e.g. three Boyz mobs) are computed once
    keys = [json.dumps(t, sort_keys=True) for t in tasks]
    unique = list(dict.fromkeys(keys))
    task_of = dict(zip(keys, tasks, strict=True))
    few = n == 1 or len(unique) < max(2, MIN_PARALLEL)
    cells_found = parallel_map(
        _cell,
        [task_of[key] for key in unique],
        workers=1 if few else min(n, len(unique)),
        scheduler=scheduler,
        progress=progress,
    )
    found = dict(zip(unique, cells_found, strict=True))
    results = [found[key] for key in keys]
    k = len(defenders)
    points = [pts for _, _, pts in as_played(ra, system)]
    cells = [[_per100(c, points[i]) for c in results[i * k : (i + 1) * k]] for i in range(len(names))]
    return Matrix(system, names, [d[0] for d in defenders], cells, len(unique), points)


def _per100(c: Cell, points: float) -> Cell:
    if c.error or c.damage is None or points <= 0:
        return c
    return replace(c, per100=c.damage * 100.0 / points)


def _is_target_list(p: Path) -> bool:
    """A ``.json`` second argument is a list of target profiles when the whole document (read
    within the roster limits) is a list, or a mapping with ``targets``, that is neither an Army
    Forge list nor a roster export (``roster``/``forces``); what a key's text says is not looked at."""
    from grimdice.io.rosters.armyforge import is_army_forge, is_saved_list
    from grimdice.io.rosters.safe import load_json, read_bytes

    try:
        doc = load_json(read_bytes(p, "roster_b")[0], p.name, "roster_b")
    except ScenarioError:
        return False  # the roster reader says what is wrong
    if is_army_forge(doc) or is_saved_list(doc):
        return False  # the roster reader reads it, or says which export to use
    if isinstance(doc, list):
        return True
    return isinstance(doc, dict) and "targets" in doc and not ({"roster", "forces"} & doc.keys())
