"""BattleScribe rosters (``.ros``/``.rosz``) and New Recruit / ListForge ``.json`` exports.

A reading of the roster tree (``roster/forces/force/selections/selection``, each selection with
``profiles/profile/characteristics/characteristic``, ``rules/rule``, ``categories/category`` and
``costs/cost``) into :mod:`.tree`'s units, still in the file's own words.

Readings of the tree (the format has no schema for them; ``docs/rosters.md``):

* a unit is a force's top-level selection of type ``unit`` or ``model`` (a single-model unit), or
  any top-level selection carrying a model profile or model children; its ``customName`` is the
  name shown (the datasheet's name is kept), its primary category its role;
* a model is a selection of type ``model`` (or one carrying a model or vehicle profile) inside a
  unit; a unit with none is itself its one model group (``number`` models);
* a selection's ``number`` is already the total for its parent (``number="4"`` bolt rifles under
  ``number="4"`` Intercessors: one each); weapons are dealt to the models of a group in turn, so 1
  plasma gun among 5 models gives 1 model with it and 4 without;
* a weapon selection with several profiles named as modes of one weapon (``➤ Name - mode``,
  ``Name (Sustained)``, ``Name, Standard``, ``Name - mode``) has one weapon with several modes (each
  a separate choice); other profiles of one selection are separate weapons carried together;
* rules attached to a weapon selection belong to that weapon, not to the unit;
* a selection with no profile, rule or child takes the profiles of the weapon of the same name
  elsewhere in the roster, or is listed as having no profile in the roster;
* a unit that records it is led by another (New Recruit ``leading``, ``attachedTo``...) gets
  that Leader attached; a Leader ability's list of units is kept as what the unit can lead.
"""

from __future__ import annotations

import contextlib
import math
import re
from collections.abc import Iterator

from grimdice.errors import ScenarioError, shown
from grimdice.io.rosters.safe import Node
from grimdice.io.rosters.tree import (
    MODE_MARK,
    Ability,
    Model,
    Profile,
    Roster,
    Unit,
    Weapon,
    clean_name,
    norm,
    number_refs,
)

MAX_NUMBER = 1000  # a selection's ``number`` (models or items it stands for)
MAX_UNITS = 200  # units in a roster (a 2000-point list has 10 to 40)
MAX_MODELS = 1000  # models in one unit
_POINTS = {"pts", "points", "pts.", "point"}
_WHOLE = re.compile(r"\s*(-?\d{1,12})(?:\.0*)?\s*")
#: selection attributes (or children) New Recruit may record an attachment in
ATTACH_KEYS = ("leading", "leads", "attachedTo", "attached", "supporting", "leader")
_MODE_NAME = re.compile(r"^(.+?)\s*(?:\((.+)\)|,\s*(.+)|\s+[-–—]\s+(.+))$")
_CAN_LEAD = re.compile(
    r"can be attached to (?:the following units?\s*:?)?\s*(.*)$", re.IGNORECASE | re.DOTALL
)


def _walk(node: Node, where: str) -> Iterator[tuple[Node, str]]:
    """Every selection below ``node`` with its dotted path of names (iterative)."""
    stack: list[tuple[Node, str]] = [(node, where)]
    while stack:
        n, path = stack.pop()
        for c in n.children:
            if c.tag == "selection":
                at = f"{path}.{clean_name(c.get('name'))[:40] or 'selection'}"
                yield c, at
                stack.append((c, at))
            else:
                stack.append((c, path))


def check_tree(root: Node, where: str) -> None:
    """Refuse, before any unit is built, a roster of more than :data:`MAX_UNITS` units (counted
    cheaply first: more than twice as many top-level selections) and a ``number`` that is not a
    whole number 0..:data:`MAX_NUMBER` (naming the selection)."""
    top = _top_selections(root)
    n = len(top) if len(top) > 2 * MAX_UNITS else sum(1 for _, sel in top if _is_unit(sel))
    if n > MAX_UNITS:
        what = "units" if len(top) <= 2 * MAX_UNITS else "top-level selections"
        raise ScenarioError(where, f"a roster holds at most {MAX_UNITS} units; this one has {n} {what}")
    for sel, at in _walk(root, where):
        text = sel.get("number", "1") or "1"
        m = _WHOLE.fullmatch(text[:40])
        if m is None or not 0 <= int(m.group(1)) <= MAX_NUMBER:
            raise ScenarioError(
                f"{at}.number", f"a whole number of models or items, 0..{MAX_NUMBER}; got {shown(text)}"
            )


def _top_selections(root: Node) -> list[tuple[str, Node]]:
    """(force catalogue, selection) of every force's top-level selections, nested forces included."""
    out = []
    for force in root.items("forces"):
        fname = force.get("catalogueName") or force.get("name")
        out += [(fname, sel) for sel in force.items("selections")]
        for sub in force.items("forces"):
            out += [(sub.get("catalogueName") or fname, sel) for sel in sub.items("selections")]
    return out


def from_tree(root: Node, where: str) -> Roster:
    """The roster of a BattleScribe tree, its edition checked (:mod:`.editions`)."""
    from grimdice.io.rosters.editions import edition_of

    check_tree(root, where)
    game = root.get("gameSystemName")
    profiles = [p.chars for sel, _ in _walk(root, where) for p in _profiles(sel) if p.is_model]
    edition = edition_of(game, root.get("gameSystemId"), profiles, where)  # before reading units
    reader = _Reader(root)
    units: list[Unit] = []
    ids: dict[str, Unit] = {}
    attach: list[tuple[Unit, list[str]]] = []
    for fname, sel in _top_selections(root):
        if _is_unit(sel):
            u = reader.unit(sel, fname, f"{where}.{clean_name(sel.get('name'))[:40]}")
            units.append(u)
            ids[sel.get("id")] = u
            if targets := _attachments(sel):
                attach.append((u, targets))
    if not units:
        raise ScenarioError(where, "the roster holds no units")
    number_refs(units)
    _attach_leaders(units, ids, attach)
    return Roster(
        name=clean_name(root.get("name")) or "roster",
        game=game,
        units=units,
        points=_costs(root).get("pts", 0.0),
        edition=edition,
        limits=_costs(root, "costLimits"),
    )


def _attachments(sel: Node) -> list[str]:
    """The ids or names of the units ``sel`` is recorded as leading (attribute or child list)."""
    out: list[str] = []
    for key in ATTACH_KEYS:
        if sel.get(key):
            out += [t.strip() for t in sel.get(key).split(",") if t.strip()]
        box = sel.child(key)
        if box is not None:
            out += [x for c in box.children for x in (c.get("id") or c.get("name") or c.text,) if x]
            out += [box.text] if box.text else []
    return out


def _attach_leaders(units: list[Unit], ids: dict[str, Unit], attach: list[tuple[Unit, list[str]]]) -> None:
    by_name = {norm(u.ref): u for u in units} | {norm(u.name): u for u in units}
    for leader, targets in attach:
        for t in targets:
            host = ids.get(t) or by_name.get(norm(t))
            if host is None or host is leader:
                leader.unmapped.append(f"recorded as leading {shown(t)}, which is not a unit in the roster")
            elif leader not in host.led_by:
                host.led_by.append(leader)


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


def _costs(node: Node, box: str = "costs") -> dict[str, float]:
    """A node's own costs (or cost limits) by name, points as ``pts``; non-numbers left out."""
    out: dict[str, float] = {}
    for c in node.items(box):
        name = norm(c.get("name"))
        with contextlib.suppress(ValueError):
            v = float(c.get("value", "0")[:40] or 0)
            if math.isfinite(v):
                key = "pts" if name in _POINTS else clean_name(c.get("name"))
                out[key] = out.get(key, 0.0) + v
    return out


def _subtree_costs(node: Node) -> dict[str, float]:
    out = _costs(node)
    for s in node.items("selections"):
        for k, v in _subtree_costs(s).items():
            out[k] = out.get(k, 0.0) + v
    return out


def _abilities(sel: Node, weapon: bool = False) -> list[Ability]:
    """Ability profiles and rules of ``sel``; a weapon selection's rules are its weapon's."""
    out = [Ability(clean_name(p.name), p.text) for p in _profiles(sel) if not (p.is_model or p.is_weapon)]
    if not weapon:
        for r in sel.items("rules"):
            d = r.child("description")
            out.append(Ability(clean_name(r.get("name")), d.text if d is not None else ""))
    return out


def _modes(profs: list[Profile]) -> tuple[list[Profile], list[list[Profile]]]:
    """(single weapons, groups of modes): ``➤`` profiles are one weapon's modes; so are two or
    more profiles named ``Base (mode)``, ``Base, mode`` or ``Base - mode`` with the same base."""
    marked = [p for p in profs if p.name.lstrip().startswith(MODE_MARK)]
    rest = [p for p in profs if not p.name.lstrip().startswith(MODE_MARK)]
    groups: dict[str, list[Profile]] = {}
    for p in rest:
        m = _MODE_NAME.match(clean_name(p.name))
        if m:
            groups.setdefault(norm(m.group(1)), []).append(p)
    moded = {k: v for k, v in groups.items() if len(v) > 1}
    single = [p for p in rest if not any(p in v for v in moded.values())]
    out = [marked] if marked else []
    return single, out + list(moded.values())


class _Reader:
    """Reads units; knows every weapon of the roster by name (for selections without a profile)."""

    def __init__(self, root: Node) -> None:
        self.known: dict[str, tuple[Profile, ...]] = {}
        for sel, _ in _walk(root, ""):
            for w in self._weapons(sel, []):
                self.known.setdefault(norm(w.name), w.modes)

    def _weapons(self, sel: Node, missing: list[str]) -> list[Weapon]:
        """Weapons of one selection's own profiles (modes grouped), with its rules."""
        profs = [p for p in _profiles(sel) if p.is_weapon]
        n = _number(sel)
        rules = tuple(clean_name(r.get("name")) for r in sel.items("rules"))
        if not profs:
            if not sel.items("profiles") and not sel.items("rules") and not sel.items("selections"):
                name = clean_name(sel.get("name"))
                modes = self.known.get(norm(name))
                if modes:
                    return [Weapon(name, n, modes, rules)]
                if name:
                    missing.append(f"{name}: no profile in the roster")
            return []
        single, groups = _modes(profs)
        out = [Weapon(clean_name(p.name), n, (p,), rules) for p in single]
        for g in groups:
            base = clean_name(sel.get("name")) if g[0].name.lstrip().startswith(MODE_MARK) else ""
            m = _MODE_NAME.match(clean_name(g[0].name))
            out.append(Weapon(base or (m.group(1) if m else clean_name(g[0].name)), n, tuple(g), rules))
        return out

    def _gear(self, sel: Node, missing: list[str]) -> tuple[list[Weapon], list[Ability]]:
        """Weapons and abilities in the non-model selections below ``sel`` (recursively)."""
        weapons: list[Weapon] = []
        abilities: list[Ability] = []
        for c in sel.items("selections"):
            if _is_model(c):
                continue
            own = self._weapons(c, missing)
            weapons += own
            abilities += _abilities(c, weapon=bool(own))
            w, a = self._gear(c, missing)
            weapons += w
            abilities += a
        return weapons, abilities

    def unit(self, sel: Node, force: str, where: str) -> Unit:
        name = clean_name(sel.get("name"))
        custom = clean_name(sel.get("customName"))
        unit_profiles = [p for p in _profiles(sel) if p.is_model]
        abilities = _abilities(sel)
        missing: list[str] = []
        models: list[Model] = []
        nodes = _model_nodes(sel)
        if not nodes or sel.get("type") == "model":
            weapons, gear_ab = self._gear(sel, missing)
            if sel.get("type") == "model" or not nodes:
                weapons = self._weapons(sel, missing) + weapons
            prof = unit_profiles[0] if unit_profiles else None
            models = _deal(name, _number(sel), prof, weapons, gear_ab)
            if _number(sel) == 0:
                missing.append("number 0 in the roster (no models)")
        else:
            # unit-level gear outside any model is carried by the largest model group
            shared: list[Weapon] = []
            for c in sel.items("selections"):
                if not _is_model(c) and not _model_nodes(c):
                    own = self._weapons(c, missing)
                    w, a = self._gear(c, missing)
                    shared += own + w
                    abilities += _abilities(c, weapon=bool(own)) + a
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
                w, a = self._gear(m, missing)
                weapons = self._weapons(m, missing) + w + (shared if i == biggest else [])
                if _number(m) == 0:
                    missing.append(f"{mname}: number 0 in the roster (no such models)")
                models += _deal(mname, _number(m), prof, weapons, _abilities(m) + a)
        if sum(m.count for m in models) > MAX_MODELS:
            raise ScenarioError(where, f"{name}: a unit has at most {MAX_MODELS} models")
        role, faction, keywords = _categories(sel)
        costs = _subtree_costs(sel)
        return Unit(
            custom or name,
            force,
            models,
            abilities,
            keywords,
            points=costs.pop("pts", 0.0),
            unmapped=list(dict.fromkeys(missing)),
            datasheet=name if custom and custom != name else "",
            role=role,
            faction=faction,
            costs=costs,
            can_lead=_can_lead(abilities),
        )


def _categories(sel: Node) -> tuple[str, list[str], list[str]]:
    """(primary category, faction keywords, keywords): ``Faction: X`` categories are faction
    keywords; every category but those is a keyword (the engines read keywords such as Infantry)."""
    role, faction, keywords = "", [], []
    for c in sel.items("categories"):
        raw = clean_name(c.get("name"))
        k = raw.removeprefix("Faction:").strip()
        if not k:
            continue
        if c.get("primary") == "true" and not role:
            role = k
        if raw.startswith("Faction:"):
            faction.append(k)
        if k not in keywords:
            keywords.append(k)
    return role, faction, keywords


def _can_lead(abilities: list[Ability]) -> list[str]:
    """The units a Leader ability names ("can be attached to the following units: ■ A ■ B")."""
    for a in abilities:
        if norm(a.name) == "leader" and (m := _CAN_LEAD.search(a.text)):
            names = [clean_name(x).rstrip(".*† ") for x in re.split(r"[■•\n;]|,\s", m.group(1))]
            # the list ends where a sentence begins ("You can attach this model ... even if ...")
            return [x for x in names if x and len(x) <= 60 and " can " not in f" {x.lower()} "][:20]
    return []


def _model_nodes(sel: Node) -> list[Node]:
    out = []
    for c in sel.items("selections"):
        out += [c] if _is_model(c) else _model_nodes(c)
    return out


def _deal(
    name: str, count: int, profile: Profile | None, weapons: list[Weapon], abil: list[Ability]
) -> list[Model]:
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
