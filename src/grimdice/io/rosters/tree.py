"""The army in a roster file, as written there: units, models, weapon selections and abilities.

This is a reading of the BattleScribe roster tree (``roster/forces/force/selections/selection``,
each selection with ``profiles/profile/characteristics/characteristic``, ``rules/rule``,
``categories/category`` and ``costs/cost``), game-agnostic and still in the file's own words
(characteristics are text). :mod:`grimdice.io.rosters.systems` turns it into each system's own
scenario input; no unit model of the engines is duplicated here.

Readings of the tree (the format has no schema for them):

* a unit is a force's top-level selection of type ``unit`` or ``model`` (a single-model unit), or
  any top-level selection carrying a model profile or model children;
* a model is a selection of type ``model`` (or one carrying a model profile) inside a unit; a unit
  with none is itself its one model group (``number`` models);
* a selection's ``number`` is already the total for its parent (``number="4"`` bolt rifles under
  ``number="4"`` Intercessors: one each); weapons are dealt to the models of a group in turn, so 1
  plasma gun among 5 models gives 1 model with it and 4 without;
* a weapon selection whose profiles are named ``➤ Name - mode`` has one weapon with several modes
  (each a separate choice); other profiles of one selection are separate weapons carried together.
"""

from __future__ import annotations

import contextlib
import math
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from grimdice.errors import ScenarioError, shown
from grimdice.io.rosters.safe import Node, load_json, parse_json, parse_xml, read_bytes

MODE_MARK = "➤"
MAX_NAME = 100  # characters of a name kept (longer ones are cut, ending in "...")
MAX_NUMBER = 1000  # a selection's ``number`` (models or items it stands for)
MAX_UNITS = 200  # units in a roster (a 2000-point list has 10 to 40)
MAX_MODELS = 1000  # models in one unit
_MODEL_TYPES = {"unit", "model", "operative", "unit profile", "models"}
_POINTS = {"pts", "points", "pts.", "point"}


def norm(text: str) -> str:
    """Whitespace folded to single spaces and lower case: how type and characteristic names compare."""
    return re.sub(r"\s+", " ", text).strip().lower()


def clean_name(text: str) -> str:
    """A display name: the mode mark and Kill Team's ranged/melee marks dropped, whitespace folded,
    at most :data:`MAX_NAME` characters (a longer one is cut and ends in ``...``)."""
    text = text[: 4 * MAX_NAME]
    for mark in (MODE_MARK, "⌖", "⚔"):
        text = text.replace(mark, " ")
    text = re.sub(r"\s+", " ", text).strip()
    return text if len(text) <= MAX_NAME else text[: MAX_NAME - 3].rstrip() + "..."


@dataclass(frozen=True)
class Profile:
    """One profile: its name, normalised type name and characteristics (normalised name -> text)."""

    name: str
    type: str
    chars: dict[str, str]

    def char(self, *names: str) -> str | None:
        for n in names:
            if (v := self.chars.get(norm(n))) is not None:
                return v
        return None

    @property
    def is_model(self) -> bool:
        c = self.chars
        return self.type in _MODEL_TYPES or ("w" in c and ("t" in c or "df" in c))

    @property
    def is_weapon(self) -> bool:
        c = self.chars
        if "weapon" in self.type:
            return True
        skill = any(k in c for k in ("bs", "ws", "bs/ws", "ws/bs"))
        return "range" in c or ("a" in c and "d" in c and skill) or ("strength" in c and "ap" in c)

    @property
    def is_melee(self) -> bool:
        c = self.chars
        rng = norm(c.get("range", ""))
        kind = norm(c.get("type", ""))
        return (
            "melee" in self.type
            or rng == "melee"
            or kind.startswith("melee")
            or self.name.lstrip().startswith("⚔")
            or ("ws" in c and "bs" not in c)
        )

    @property
    def text(self) -> str:
        """The description of an ability profile (its characteristics' text, joined)."""
        return " ".join(v for v in self.chars.values() if v)


@dataclass(frozen=True)
class Weapon:
    """A weapon selection: ``count`` carried in total by its model group, with one or more modes."""

    name: str
    count: int
    modes: tuple[Profile, ...]

    def mode_name(self, p: Profile) -> str:
        return clean_name(p.name) or self.name


@dataclass(frozen=True)
class Ability:
    name: str
    text: str = ""


@dataclass
class Model:
    """A group of ``count`` identical models: profile, weapons each carries, own abilities."""

    name: str
    count: int
    profile: Profile | None
    weapons: list[tuple[Weapon, int]]  # (weapon, how many each model carries)
    abilities: list[Ability] = field(default_factory=list)


@dataclass
class Unit:
    name: str
    force: str
    models: list[Model]
    abilities: list[Ability]
    keywords: list[str]
    points: float = 0.0
    ref: str = ""  # the name to refer to it by (``Name`` or ``Name#2`` when names repeat)
    #: the system's own unit input when the format gives the stats directly (Army Forge -> onepage)
    spec: dict[str, Any] | None = None
    #: Heroes the list joins to this unit (Army Forge ``joinToUnit``), each with its own ``spec``
    joined: list[Unit] = field(default_factory=list)
    #: what the format's reader could not map (fields and rules), kept by name
    unmapped: list[str] = field(default_factory=list)

    @property
    def model_count(self) -> int:
        return sum(m.count for m in self.models)


@dataclass
class Roster:
    name: str
    game: str
    units: list[Unit]
    points: float = 0.0
    source: str = ""

    def find(self, ref: str, where: str) -> Unit:
        """The unit named ``ref`` (case and whitespace ignored; ``Name#2`` for the second of a name)."""
        key = norm(ref)
        hits = [u for u in self.units if norm(u.ref) == key]
        if not hits:
            hits = [u for u in self.units if norm(u.name) == key]
        if len(hits) == 1:
            return hits[0]
        if hits:
            refs = ", ".join(u.ref for u in hits)
            raise ScenarioError(where, f"{len(hits)} units are named {ref!r}; name one of: {refs}")
        host = next((u for u in self.units for h in u.joined if norm(h.name) == key), None)
        if host is not None:
            raise ScenarioError(where, f"{ref} is joined to {host.ref} in the list; name {host.ref!r}")
        shown = ", ".join(u.ref for u in self.units[:40]) or "none"
        raise ScenarioError(where, f"no unit {ref!r} in {self.source or self.name}; it has: {shown}")


# --------------------------------------------------------------------------- reading the tree
def read_roster(path: str | Path, where: str = "roster") -> Roster:
    """Read a BattleScribe ``.ros``/``.rosz``, New Recruit / ListForge ``.json`` or One Page Rules
    Army Forge ``.json`` list (told apart by content, :func:`.armyforge.is_army_forge`)."""
    p = Path(path)
    data, kind = read_bytes(p, where)
    if kind == "json":
        from grimdice.io.rosters import armyforge

        obj = load_json(data, p.name, where)
        if armyforge.is_army_forge(obj):
            roster = armyforge.from_json(obj, where)
            roster.source = p.name
            return roster
        root = parse_json(obj, p.name, where)
    else:
        root = parse_xml(data, p.name, where)
    if root.tag != "roster":
        raise ScenarioError(where, f"{p.name} is not a roster (its root is <{root.tag}>)")
    roster = from_tree(root, where)
    roster.source = p.name
    return roster


_WHOLE = re.compile(r"\s*(-?\d{1,12})(?:\.0*)?\s*")


def check_tree(root: Node, where: str) -> None:
    """Refuse, before any unit is built, a ``number`` that is not a whole number
    0..:data:`MAX_NUMBER` (naming the selection) and a roster of more than :data:`MAX_UNITS` units."""
    stack: list[tuple[Node, str]] = [(root, where)]
    while stack:
        node, path = stack.pop()
        for c in node.children:
            if c.tag != "selection":
                stack.append((c, path))
                continue
            at = f"{path}.{clean_name(c.get('name'))[:40] or 'selection'}"
            text = c.get("number", "1") or "1"
            m = _WHOLE.fullmatch(text[:40])
            if m is None or not 0 <= int(m.group(1)) <= MAX_NUMBER:
                raise ScenarioError(
                    f"{at}.number", f"a whole number of models or items, 0..{MAX_NUMBER}; got {shown(text)}"
                )
            stack.append((c, at))
    forces = [*root.items("forces")]
    forces += [sub for f in forces for sub in f.items("forces")]
    n = sum(1 for f in forces for sel in f.items("selections") if _is_unit(sel))
    if n > MAX_UNITS:
        raise ScenarioError(where, f"a roster holds at most {MAX_UNITS} units; this one has {n}")


def from_tree(root: Node, where: str) -> Roster:
    check_tree(root, where)
    units: list[Unit] = []
    for force in root.items("forces"):
        fname = force.get("catalogueName") or force.get("name")
        for sel in force.items("selections"):
            if _is_unit(sel):
                units.append(_unit(sel, fname, f"{where}.{clean_name(sel.get('name'))}"))
        for sub in force.items("forces"):  # allied / nested forces
            for sel in sub.items("selections"):
                if _is_unit(sel):
                    units.append(_unit(sel, sub.get("catalogueName") or fname, where))
    if not units:
        raise ScenarioError(where, "the roster holds no units")
    number_refs(units)
    return Roster(
        name=clean_name(root.get("name")) or "roster",
        game=root.get("gameSystemName"),
        units=units,
        points=_points(root, subtree=False),
    )


def number_refs(units: list[Unit]) -> None:
    """Each unit's ``ref``: its name, or ``Name#2``... when several units share the name."""
    seen: dict[str, int] = {}
    totals = {norm(u.name): 0 for u in units}
    for u in units:
        totals[norm(u.name)] += 1
    for u in units:
        seen[norm(u.name)] = seen.get(norm(u.name), 0) + 1
        u.ref = u.name if totals[norm(u.name)] == 1 else f"{u.name}#{seen[norm(u.name)]}"


def _number(sel: Node) -> int:
    """The selection's ``number`` (checked by :func:`check_tree`)."""
    m = _WHOLE.fullmatch(sel.get("number", "1") or "1")
    return int(m.group(1)) if m else 1


def _profiles(sel: Node) -> list[Profile]:
    out = []
    for p in sel.items("profiles"):
        chars = {norm(c.get("name")): c.text.strip() for c in p.items("characteristics") if c.get("name")}
        out.append(Profile(p.get("name").strip(), norm(p.get("typeName")), chars))
    return out


def _is_model(sel: Node) -> bool:
    return sel.get("type") == "model" or any(p.is_model for p in _profiles(sel))


def _is_unit(sel: Node) -> bool:
    if sel.get("type") in ("unit", "model"):
        return True
    return _is_model(sel) or any(_is_model(c) for c in sel.items("selections"))


def _points(node: Node, subtree: bool = True) -> float:
    total = 0.0
    for c in node.items("costs"):
        if norm(c.get("name")) in _POINTS:
            with contextlib.suppress(ValueError):
                v = float(c.get("value", "0")[:40] or 0)
                total += v if math.isfinite(v) else 0.0
    if subtree:
        total += sum(_points(s) for s in node.items("selections"))
    return total


def _abilities(sel: Node) -> list[Ability]:
    out = [Ability(clean_name(p.name), p.text) for p in _profiles(sel) if not (p.is_model or p.is_weapon)]
    for r in sel.items("rules"):
        d = r.child("description")
        out.append(Ability(clean_name(r.get("name")), d.text if d is not None else ""))
    return out


def _weapons(sel: Node) -> list[Weapon]:
    """Weapons of one selection's own profiles (modes grouped)."""
    profs = [p for p in _profiles(sel) if p.is_weapon]
    if not profs:
        return []
    n = _number(sel)
    modes = [p for p in profs if p.name.lstrip().startswith(MODE_MARK)]
    single = [p for p in profs if not p.name.lstrip().startswith(MODE_MARK)]
    out = [Weapon(clean_name(p.name), n, (p,)) for p in single]
    if modes:
        out.append(Weapon(clean_name(sel.get("name")), n, tuple(modes)))
    return out


def _gear(sel: Node) -> tuple[list[Weapon], list[Ability]]:
    """Weapons and abilities in the non-model selections below ``sel`` (recursively)."""
    weapons: list[Weapon] = []
    abilities: list[Ability] = []
    for c in sel.items("selections"):
        if _is_model(c):
            continue
        weapons += _weapons(c)
        abilities += _abilities(c)
        w, a = _gear(c)
        weapons += w
        abilities += a
    return weapons, abilities


def _model_nodes(sel: Node) -> list[Node]:
    out = []
    for c in sel.items("selections"):
        out += [c] if _is_model(c) else _model_nodes(c)
    return out


def _deal(name: str, count: int, profile: Profile | None, weapons: list[Weapon], abil: list[Ability]):
    """Split a group of ``count`` models by loadout: weapon totals dealt out to the models in turn."""
    if count <= 0:
        return []
    loadouts: dict[tuple[tuple[int, int], ...], int] = {}
    for j in range(count):
        load = tuple(
            (i, w.count // count + (1 if j < w.count % count else 0))
            for i, w in enumerate(weapons)
            if w.count // count + (1 if j < w.count % count else 0) > 0
        )
        loadouts[load] = loadouts.get(load, 0) + 1
    return [
        Model(name, n, profile, [(weapons[i], k) for i, k in load], list(abil))
        for load, n in loadouts.items()
    ]


def _unit(sel: Node, force: str, where: str) -> Unit:
    name = clean_name(sel.get("name"))
    own = _profiles(sel)
    unit_profiles = [p for p in own if p.is_model]
    abilities = _abilities(sel)
    keywords = []
    for c in sel.items("categories"):
        k = clean_name(c.get("name")).removeprefix("Faction: ").strip()
        if k and k not in keywords:
            keywords.append(k)
    models: list[Model] = []
    nodes = _model_nodes(sel)
    if not nodes or sel.get("type") == "model":
        weapons, gear_ab = _gear(sel)
        weapons = _weapons(sel) + weapons if sel.get("type") == "model" or not nodes else weapons
        prof = unit_profiles[0] if unit_profiles else None
        models = _deal(name, _number(sel), prof, weapons, gear_ab)
    else:
        # unit-level gear outside any model is carried by the largest model group
        shared, shared_ab = [], []
        for c in sel.items("selections"):
            if not _is_model(c) and not _model_nodes(c):
                shared += _weapons(c)
                w, a = _gear(c)
                shared += w
                shared_ab += _abilities(c) + a
        abilities += shared_ab
        biggest = max(range(len(nodes)), key=lambda i: _number(nodes[i]))
        for i, m in enumerate(nodes):
            mname = clean_name(m.get("name"))
            mprofs = [p for p in _profiles(m) if p.is_model]
            prof = (
                mprofs[0]
                if mprofs
                else next((p for p in unit_profiles if norm(p.name) == norm(mname)), None)
                or (unit_profiles[0] if unit_profiles else None)
            )
            w, a = _gear(m)
            weapons = _weapons(m) + w + (shared if i == biggest else [])
            models += _deal(mname, _number(m), prof, weapons, _abilities(m) + a)
    if sum(m.count for m in models) > MAX_MODELS:
        raise ScenarioError(where, f"{name}: a unit has at most {MAX_MODELS} models")
    return Unit(name, force, models, abilities, keywords, points=_points(sel))
