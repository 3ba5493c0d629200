"""One Page Rules Army Forge lists (``.json``) as ``system: onepage`` units.

An Army Forge list is JSON holding its units (at the top, ``{"units": [...]}``, or under ``list``
as a saved list, ``{"list": {"units": [...]}}``, or a bare list of units). Each unit has ``name``,
``size``, ``quality``, ``defense``, ``cost``, special rules (``rules`` or ``specialRules``: ``{"name":
"Tough", "rating": "3"}``), its final ``loadout`` (else ``equipment``: weapons with ``name``,
``count`` carried in the unit, ``range`` (0: melee), ``attacks``, ``specialRules``; items without
attacks whose ``content`` holds rules), ``selectionId``/``id``, ``joinToUnit`` (a Hero joined to a
unit, or with ``combined`` the second copy of a combined unit) and ``selectedUpgrades``.

The file is told apart from a New Recruit export by content (:func:`is_army_forge`). Each unit
becomes the onepage ``UnitSpec`` mapping (``Unit.spec``) written the way One Page 40k v2.21 writes
a unit: "Name [Size]", "Quality", "Equipment" (weapons written out, ``Name (24", A1, Rules)``,
dealt to the models by :func:`deal`), "Special Rules", "Cost". Every rule is
offered on its own to the onepage rule table (the :class:`RuleBook` the caller passes); what it
does not know (``AP(1)``, ``Deadly(3)``, ``Regeneration``...), and every field v2.21 has no place
for (``Defense``), is kept by name in ``Unit.unmapped``, never silently dropped. See ``docs/rosters.md``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Protocol

from grimdice.errors import ScenarioError
from grimdice.io.rosters.tree import Ability, Model, Profile, Roster, Unit, Weapon, number_refs

GAME = "One Page Rules (Army Forge)"
MAX_UNITS = 200
MAX_LOADOUT = 100
MAX_RULES = 60
MAX_NAME = 80


def _units_of(obj: object) -> list[Any] | None:
    if isinstance(obj, list):
        return obj
    if not isinstance(obj, dict):
        return None
    for box in (obj, obj.get("list")):
        if isinstance(box, dict) and isinstance(box.get("units"), list):
            return box["units"]
    return None


def _af_unit(u: object) -> bool:
    """A unit as Army Forge writes it: a ``quality``, and a ``defense``, a ``loadout`` or weapons
    as objects (a onepage target profile writes its equipment as text and has no Defense)."""
    if not isinstance(u, dict) or "quality" not in u:
        return False
    gear = u.get("equipment")
    return (
        "defense" in u
        or "loadout" in u
        or (isinstance(gear, list) and any(isinstance(e, dict) for e in gear))
    )


def is_saved_list(obj: object) -> bool:
    """An Army Forge *saved* list: its units hold only ids and upgrades (``selectionId``/``id``,
    ``selectedUpgrades``), not the profiles an export carries."""
    units = _units_of(obj)
    return bool(units) and all(
        isinstance(u, dict) and "quality" not in u and ("selectionId" in u or "selectedUpgrades" in u)
        for u in units or ()
    )


SAVED_LIST = (
    "this is an Army Forge saved list: its units hold only ids and upgrades, not their profiles; "
    "in Army Forge, export the list as JSON (the export whose units carry quality, defense and "
    "loadout) and give grimdice that file"
)


def is_army_forge(obj: object) -> bool:
    """An Army Forge list: units (at the top, under ``list``, or a bare list) written as Army Forge
    writes them (:func:`_af_unit`)."""
    units = _units_of(obj)
    return any(_af_unit(u) for u in units or ())


# --------------------------------------------------------------------------- field readers
def _int(v: object, where: str, lo: int, hi: int, what: str) -> int:
    """An integer (``4``, ``"4"``, ``"4+"``) within ``lo..hi``."""
    if isinstance(v, str) and v.strip().rstrip("+").strip().isdigit():
        v = int(v.strip().rstrip("+"))
    if isinstance(v, float) and v.is_integer():
        v = int(v)
    if not isinstance(v, int) or isinstance(v, bool) or not lo <= v <= hi:
        raise ScenarioError(where, f"{what} is a whole number {lo}..{hi}, got {str(v)[:40]!r}")
    return v


def _name(v: object, where: str) -> str:
    if not isinstance(v, str) or not v.strip():
        raise ScenarioError(where, "a name (text)")
    # the onepage notation "Name (Range, Attacks, Rules)" reserves brackets and commas
    text = " ".join(v.replace("(", " ").replace(")", " ").replace(",", " ").split())
    if not text or len(text) > MAX_NAME:
        raise ScenarioError(where, f"a name of 1..{MAX_NAME} characters, got {v[:40]!r}")
    return text


def _list(v: object, where: str, most: int) -> list[Any]:
    if v is None:
        return []
    if not isinstance(v, list) or len(v) > most:
        raise ScenarioError(where, f"a list of at most {most} entries")
    return v


def _rule_text(r: object, where: str) -> str:
    """``{"name": "Tough", "rating": "3"}`` -> ``Tough(3)``; a plain string as it is."""
    if isinstance(r, str) and r.strip():
        return r.strip()
    if not isinstance(r, dict) or not isinstance(r.get("name"), str) or not r["name"].strip():
        raise ScenarioError(where, 'a special rule is {"name": ..., "rating": ...} or text')
    rating = r.get("rating")
    name = r["name"].strip()
    if rating in (None, "", 0) or isinstance(rating, bool):
        return name
    return f"{name}({str(rating).strip()[:20]})"


def _rules(v: object, where: str) -> list[str]:
    return [_rule_text(r, f"{where}.{i}") for i, r in enumerate(_list(v, where, MAX_RULES))]


# --------------------------------------------------------------------------- the rule book
class RuleBook(Protocol):
    """What the reader asks of the One Page rules, supplied by the layer above (the reader does not
    import a system): :class:`grimdice.adapters.rosters.onepage_sides.OnePageBook`."""

    def accepts(self, text: str, weapon: bool) -> bool:
        """Whether the rule table knows ``text`` as a weapon rule (``weapon``) or a unit rule."""
        ...

    def join_refused(self, hero: Unit, host: Unit, where: str) -> str:
        """Why the rules do not let ``hero`` join ``host`` ("" if they do)."""
        ...


@dataclass
class _Gear:
    """One loadout weapon: the display profile and the onepage text."""

    weapon: Weapon
    text: str


def _weapon(e: dict[str, Any], where: str, notes: list[str], book: RuleBook) -> _Gear:
    name = _name(e.get("name"), f"{where}.name")
    rng = _int(e.get("range", 0) or 0, f"{where}.range", 0, 120, "range (inches; 0 is melee)")
    attacks = _int(e.get("attacks"), f"{where}.attacks", 1, 50, "attacks")
    count = _int(e.get("count", 1), f"{where}.count", 0, 1000, "count")
    rules = _rules(e.get("specialRules", e.get("rules")), f"{where}.specialRules")
    ok = []
    for r in rules:
        if book.accepts(r, weapon=True):
            ok.append(r)
        else:
            notes.append(f"{name}: weapon rule {r}")
    body = ([f'{rng}"'] if rng else []) + [f"A{attacks}", *ok]
    chars = {"range": f'{rng}"' if rng else "melee", "a": str(attacks), "special rules": ", ".join(rules)}
    prof = Profile(name, "melee weapon" if not rng else "ranged weapon", chars)
    return _Gear(Weapon(name, count, (prof,)), f"{name} ({', '.join(body)})")


def _merge_loadouts(a: list[Any], b: list[Any], where: str) -> list[Any]:
    """Two copies' loadouts as one unit's: the same weapon's counts added."""
    out: dict[str, dict[str, Any]] = {}
    for e in [*a, *b]:
        if not isinstance(e, dict):
            raise ScenarioError(where, "a weapon or item (an object with a name)")
        key = repr(sorted((k, repr(v)) for k, v in e.items() if k not in ("count", "id", "originalCount")))
        count = _int(e.get("count", 1), f"{where}.count", 0, 1000, "count")
        if key in out:
            out[key]["count"] += count
        else:
            out[key] = {**e, "count": count}
    return list(out.values())


def deal(name: str, size: int, weapons: list[Weapon]) -> list[Model]:
    """The unit's models grouped by loadout. A weapon carried by ``count`` models of ``size``: every
    model gets ``count // size``; the remaining ones go to the next models in turn, continuing after
    the models the previous partial weapon went to (a list that swaps 1 of 5 rifles for a fusion
    rifle gives 4 models a rifle and the 5th the fusion rifle, not one model both)."""
    loads: list[list[int]] = [[] for _ in range(size)]
    offset = 0
    for i, w in enumerate(weapons):
        full, rest = divmod(w.count, size)
        for m in range(size):
            loads[m] += [i] * full
        for k in range(rest):
            loads[(offset + k) % size].append(i)
        offset = (offset + rest) % size
    groups: dict[tuple[tuple[int, int], ...], int] = {}
    for load in loads:
        key = tuple((i, load.count(i)) for i in sorted(set(load)))
        groups[key] = groups.get(key, 0) + 1
    return [Model(name, n, None, [(weapons[i], k) for i, k in key]) for key, n in groups.items()]


def _unit(u: dict[str, Any], force: str, where: str, book: RuleBook) -> Unit:
    """One Army Forge unit as a roster unit with its onepage ``spec`` and what was not mapped."""
    notes: list[str] = []
    name = _name(u.get("name"), f"{where}.name")
    size = _int(u.get("size", 1), f"{where}.size", 1, 100, "size")
    quality = _int(u.get("quality"), f"{where}.quality", 2, 6, "quality")
    cost = max(0, _int(u.get("cost", 0) or 0, f"{where}.cost", 0, 5000, "cost") + _upgrade_costs(u, where))
    if u.get("defense") not in (None, ""):
        defense = _int(u.get("defense"), f"{where}.defense", 2, 6, "defense")
        notes.append(f"Defense {defense}+ (v2.21 has no Defense: blocks are Quality tests)")
    rule_texts = _rules(u.get("rules", u.get("specialRules")), f"{where}.rules")
    if "loadout" in u:
        loadout = _list(u.get("loadout"), f"{where}.loadout", MAX_LOADOUT)
    else:
        loadout = _list(u.get("equipment", u.get("weapons")), f"{where}.equipment", MAX_LOADOUT)
        if u.get("selectedUpgrades"):
            notes.append("upgrades (the file has no loadout with them applied)")
    gear: list[_Gear] = []
    for i, e in enumerate(loadout):
        w = f"{where}.loadout.{i}"
        if not isinstance(e, dict):
            raise ScenarioError(w, "a weapon or item (an object with a name)")
        if e.get("attacks") is not None:
            g = _weapon(e, w, notes, book)
            if g.weapon.count:
                gear.append(g)
            continue
        item = _name(e.get("name"), f"{w}.name")
        count = _int(e.get("count", 1), f"{w}.count", 0, 1000, "count")
        content = _list(e.get("content", e.get("specialRules")), f"{w}.content", MAX_RULES)
        item_rules = [_rule_text(r, f"{w}.content.{j}") for j, r in enumerate(content) if isinstance(r, dict)]
        if count >= size and item_rules:
            rule_texts += item_rules  # carried by every model: the unit's rules
        elif count:
            notes.append(f"item {item}" + (f" ({', '.join(item_rules)})" if item_rules else ""))
    special = []
    for r in rule_texts:
        if book.accepts(r, weapon=False):
            special.append(r)
        else:
            notes.append(f"rule {r}")
    models = deal(name, size, [g.weapon for g in gear])
    text_of = {id(g.weapon): g.text for g in gear}
    groups = sorted(models, key=lambda m: -m.count)  # the largest group is the unit's Equipment
    spec: dict[str, Any] = {"name": name, "size": size, "quality": quality}
    spec["equipment"] = [text_of[id(w)] for w, k in groups[0].weapons for _ in range(k)]
    variants = [
        {"count": m.count, "equipment": [text_of[id(w)] for w, k in m.weapons for _ in range(k)]}
        for m in groups[1:]
    ]
    if variants:
        spec["variants"] = variants
    spec["special_rules"] = list(dict.fromkeys(special))
    spec["cost"] = cost
    return Unit(
        name,
        force,
        models,
        [Ability(r) for r in rule_texts],
        [],
        points=float(cost),
        spec=spec,
        unmapped=list(dict.fromkeys(notes)),
    )


def _upgrade_cost(up: object, unit_id: object) -> object:
    """One selected upgrade's cost: its ``cost``, else its option's ``cost``, else the option's
    ``costs`` entry for this unit (``unitId``) or its only one."""
    if not isinstance(up, dict):
        return 0
    found = up.get("option")
    option: dict[str, Any] = found if isinstance(found, dict) else {}
    for c in (up.get("cost"), option.get("cost")):
        if c is not None:
            return c
    costs = [c for c in option.get("costs") or () if isinstance(c, dict)]
    mine = [c for c in costs if c.get("unitId") == unit_id] or (costs if len(costs) == 1 else [])
    return mine[0].get("cost", 0) if mine else 0


def _upgrade_costs(u: dict[str, Any], where: str) -> int:
    """The points of the unit's ``selectedUpgrades`` (a unit's points include them)."""
    ups = _list(u.get("selectedUpgrades"), f"{where}.selectedUpgrades", MAX_LOADOUT)
    return sum(
        _int(_upgrade_cost(up, u.get("id")), f"{where}.selectedUpgrades.{i}.cost", -5000, 5000, "cost")
        for i, up in enumerate(ups)
    )


def _is_hero(u: dict[str, Any]) -> bool:
    rules = u.get("rules", u.get("specialRules"))
    names = [r.get("name") if isinstance(r, dict) else r for r in rules] if isinstance(rules, list) else []
    return any(isinstance(n, str) and n.strip().lower() in ("hero", "psyker") for n in names)


def _combined(
    entries: list[dict[str, Any]], ids: dict[str, int], where: str
) -> tuple[dict[int, dict[str, Any]], set[int]]:
    """Combined units: the second copy joins the first as one unit of both sizes, costs, loadouts
    and upgrades. Returns (the first copies as merged, the indices of the copies merged away)."""
    merged: dict[int, dict[str, Any]] = {}
    gone: set[int] = set()
    for i, u in enumerate(entries):
        to = u.get("joinToUnit")
        if u.get("combined") and isinstance(to, str) and to in ids and not _is_hero(u) and ids[to] != i:
            first = ids[to]
            entry = merged.get(first, entries[first])
            load = "loadout" if "loadout" in entry and "loadout" in u else "equipment"
            w = f"{where}.units.{i}"
            ups = "selectedUpgrades"
            merged[first] = {
                **entry,
                "size": _int(entry.get("size", 1), w, 1, 100, "size")
                + _int(u.get("size", 1), w, 1, 100, "size"),
                "cost": _int(entry.get("cost", 0) or 0, w, 0, 5000, "cost")
                + _int(u.get("cost", 0) or 0, w, 0, 5000, "cost"),
                load: _merge_loadouts(
                    _list(entry.get(load), w, MAX_LOADOUT), _list(u.get(load), w, MAX_LOADOUT), f"{w}.{load}"
                ),
                ups: _list(entry.get(ups), w, MAX_LOADOUT) + _list(u.get(ups), w, MAX_LOADOUT),
            }
            gone.add(i)
    return merged, gone


def _army_name(box: dict[str, Any], inner: dict[str, Any]) -> str:
    """The list's army name: the first of its ``armyName``, ``list.name`` and ``name`` given."""
    return next(
        (x for x in (box.get("armyName"), inner.get("name"), box.get("name")) if isinstance(x, str) and x),
        "Army Forge list",
    )


def _entries(raw: list[Any], where: str) -> list[dict[str, Any]]:
    """The list's units, each an object."""
    entries: list[dict[str, Any]] = []
    for i, u in enumerate(raw):
        if not isinstance(u, dict):
            raise ScenarioError(f"{where}.units.{i}", "a unit (an object with name, size, quality...)")
        entries.append(u)
    return entries


def _selection_ids(entries: list[dict[str, Any]]) -> dict[str, int]:
    """The index of the first unit with each selection id (``selectionId``, else ``id``)."""
    ids: dict[str, int] = {}
    for i, u in enumerate(entries):
        sid = u.get("selectionId", u.get("id"))
        if isinstance(sid, str) and sid:
            ids.setdefault(sid, i)
    return ids


def _join_heroes(
    entries: list[dict[str, Any]],
    ids: dict[str, int],
    gone: set[int],
    units: dict[int, Unit],
    where: str,
    book: RuleBook,
) -> None:
    """Heroes the list joins to a unit become part of it, not units of their own: "Heroes and
    Psykers may be deployed as part of friendly Infantry units of same Quality" (One Page 40k 2.21,
    Heroes & Psykers). A join that cannot be made keeps the unit apart, noted as unmapped."""
    for i, u in enumerate(entries):
        to = u.get("joinToUnit")
        if i in gone or not isinstance(to, str) or not to:
            continue
        j = ids.get(to)
        if j is None or j not in units or j == i:
            units[i].unmapped.append(f"joins unit {to[:40]!r}, which is not in the list")
            continue
        if not _is_hero(u):
            units[i].unmapped.append(f"joins {units[j].name} (not a Hero or Psyker: kept as its own unit)")
            continue
        host = units[j]
        refused = book.join_refused(units[i], host, f"{where}.units.{i}")
        if refused:
            units[i].unmapped.append(f"the list joins it to {host.name}; {refused}: kept as its own unit")
            continue
        hero = units.pop(i)
        host.joined.append(hero)
        host.models += hero.models
        host.points += hero.points


def from_json(obj: Any, where: str, book: RuleBook) -> Roster:
    """The roster of an Army Forge list (``obj`` as :func:`is_army_forge` recognised it), its rule
    texts and Hero joins judged by ``book``; a list for another One Page Rules game than Grimdark
    Future is refused (:mod:`.editions`)."""
    from grimdice.io.rosters.editions import army_forge_edition

    edition = army_forge_edition(obj.get("gameSystem") if isinstance(obj, dict) else None, where)
    raw = _units_of(obj) or []
    if len(raw) > MAX_UNITS:
        raise ScenarioError(where, f"at most {MAX_UNITS} units in a list, this one has {len(raw)}")
    box: dict[str, Any] = obj if isinstance(obj, dict) else {}
    listed = box.get("list")
    inner: dict[str, Any] = listed if isinstance(listed, dict) else {}
    army = _army_name(box, inner)
    entries = _entries(raw, where)
    ids = _selection_ids(entries)
    merged, gone = _combined(entries, ids, where)
    units: dict[int, Unit] = {}
    for i, u in enumerate(entries):
        if i not in gone:
            units[i] = _unit(merged.get(i, u), army, f"{where}.units.{i}", book)
    _join_heroes(entries, ids, gone, units, where, book)
    out = [units[i] for i in sorted(units)]
    if not out:
        raise ScenarioError(where, "the list holds no units")
    number_refs(out)
    points = box.get("listPoints", inner.get("points", box.get("points")))
    total = sum(u.points for u in out)
    return Roster(
        army,
        GAME,
        out,
        float(points) if isinstance(points, (int, float)) and not isinstance(points, bool) else total,
        edition=edition,
    )


__all__ = ["GAME", "RuleBook", "from_json", "is_army_forge"]
