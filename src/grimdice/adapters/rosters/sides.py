"""Roster units as each system's own scenario input (the dicts its ``Scenario`` model validates).

Nothing here models units: each function writes the mapping a system's pydantic models accept
(``attacker``/``defender`` of wh40k and heresy, ``attacker``/``target`` operatives of killteam),
and the system validates it. Weapon abilities and special rules are offered to the system's own
parser one at a time: those it accepts are passed on, the rest are kept by name in the unit's
``not_modelled`` list (never silently dropped).

Readings (documented in ``docs/rosters.md``; the text readings are :mod:`.readings`):

* by default a model fires every ranged weapon it carries, one mode of each (the first listed),
  leaving out Pistols when it has other ranged weapons (40k); ``weapons: melee`` picks melee
  weapons, or name the weapons or modes to use.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

from grimdice.engine.rules import RuleTable
from grimdice.errors import ScenarioError
from grimdice.io.rosters.readings import (
    NONE_TEXT,
    best,
    number,
    profile_invulnerable,
    protections,
    roll,
    split_rules,
    value,
    weapon_rule_notes,
)
from grimdice.io.rosters.tree import Ability, Model, Profile, Unit, Weapon, norm


# --------------------------------------------------------------------------- the systems' parsers
def _parser(system: str) -> Callable[[list[str], str], dict[str, Any]]:
    """The system's own parser of weapon abilities / special rules: its ``RULES`` table's."""
    from grimdice.systems.base import get_system

    table = getattr(get_system(system), "RULES", None)
    if not isinstance(table, RuleTable):
        raise ScenarioError("system", f"rosters cannot be read for {system!r} yet")
    return table.parse


def accepted(system: str, items: Iterable[str]) -> tuple[list[str], list[str]]:
    """(texts the system's parser accepts, texts it refuses), each tried on its own."""
    parse = _parser(system)
    ok: list[str] = []
    refused: list[str] = []
    for t in items:
        try:
            parse([t], "x")
        except ScenarioError:
            refused.append(t)
        else:
            ok.append(t)
    return ok, refused


# --------------------------------------------------------------------------- weapon choice
@dataclass
class Side:
    """One side of a scenario built from a roster unit, with what was not modelled."""

    data: dict[str, Any]
    models: int
    not_modelled: list[str] = field(default_factory=list)


def _has_keyword(p: Profile, word: str) -> bool:
    kws = p.char("keywords", "abilities", "type", "sr") or ""
    return any(norm(k).startswith(word) for k in split_rules(kws))


def choose(unit: Unit, weapons: object, where: str) -> list[list[tuple[Weapon, Profile, int]]]:
    """For each model group: the (weapon, mode, how many) it attacks with.

    ``weapons`` is None (ranged), ``"melee"``, ``"ranged"``, or names of weapons/modes.
    """
    if isinstance(weapons, str):
        weapons = (
            [w for w in weapons.split(",") if w.strip()]
            if weapons.lower()
            not in (
                "melee",
                "ranged",
            )
            else weapons.lower()
        )
    if weapons is None:
        weapons = "ranged"
    if not isinstance(weapons, (str, list)) or (
        isinstance(weapons, list) and not all(isinstance(w, str) for w in weapons)
    ):
        raise ScenarioError(where, "weapons is 'ranged', 'melee' or a list of weapon names")
    names = None if isinstance(weapons, str) else {norm(w) for w in weapons}
    found: set[str] = set()
    out = []
    for m in unit.models:
        picks = []
        for w, k in m.weapons:
            if names is None:
                melee = weapons == "melee"
                mode = next((p for p in w.modes if p.is_melee == melee), None)
                if mode is not None:
                    picks.append((w, mode, k))
            else:
                if norm(w.name) in names:
                    picks.append((w, w.modes[0], k))
                    found.add(norm(w.name))
                for p in w.modes:
                    if norm(w.mode_name(p)) in names and norm(w.mode_name(p)) != norm(w.name):
                        picks.append((w, p, k))
                        found.add(norm(w.mode_name(p)))
        if weapons == "ranged" and any(not _has_keyword(p, "pistol") for _, p, _ in picks):
            picks = [x for x in picks if not _has_keyword(x[1], "pistol")]
        out.append(picks)
    if names is not None and (missing := names - found):
        have = sorted({w.mode_name(p) for m in unit.models for w, _ in m.weapons for p in w.modes})
        raise ScenarioError(
            where, f"{unit.name} has no weapon {sorted(missing)[0]!r}; it has: {', '.join(have) or 'none'}"
        )
    if not any(out):
        what = weapons if isinstance(weapons, str) else "chosen"
        raise ScenarioError(where, f"{unit.name} has no {what} weapons to attack with")
    return out


def _abilities_of(unit: Unit, m: Model) -> list[Ability]:
    return [*unit.abilities, *m.abilities]


def _unit_notes(unit: Unit, used: Iterable[str]) -> list[str]:
    used_set = {norm(u) for u in used}
    names = dict.fromkeys(a.name for m in unit.models for a in _abilities_of(unit, m) if a.name)
    unmapped = [] if unit.spec is not None else [f"{unit.name}: {n}" for n in unit.unmapped]
    return unmapped + [f"{unit.name}: ability {n}" for n in names if norm(n) not in used_set]


def _profile(m: Model, unit: Unit, where: str) -> Profile:
    if m.profile is None:
        raise ScenarioError(
            where, f"{unit.name}: model {m.name!r} has no characteristics profile in the roster"
        )
    return m.profile


def _put(d: dict[str, Any], key: str, v: object) -> None:
    if v is not None:
        d[key] = v


# --------------------------------------------------------------------------- wh40k
def _wh40k_items(p: Profile) -> list[str]:
    return split_rules(p.char("keywords", "abilities"))


def _wh40k_weapon(w: Weapon, p: Profile, where: str, notes: list[str]) -> dict[str, Any]:
    ok, refused = accepted("wh40k", _wh40k_items(p))
    notes += [f"{w.mode_name(p)}: weapon ability {r}" for r in refused] + weapon_rule_notes(w, _wh40k_items)
    out: dict[str, Any] = {"name": w.mode_name(p)}
    _put(out, "range", number(p.char("range")))
    out["A"] = value(p.char("a"), f"{where}.A")
    skill = "WS" if p.is_melee else "BS"
    s = roll(p.char(skill, "bs/ws", "ws/bs", "skill"))
    if s is None and "torrent" in (norm(x) for x in ok):
        s = 2  # Torrent: hits automatically, the skill is never rolled
    if s is None:
        raise ScenarioError(f"{where}.{skill}", f"{w.mode_name(p)}: no {skill} in the roster")
    out[skill] = s
    out["S"] = value(p.char("s", "strength"), f"{where}.S")
    ap = p.char("ap")
    out["AP"] = 0 if ap is None or norm(ap) in NONE_TEXT else value(ap, f"{where}.AP")  # "-": no AP
    out["D"] = value(p.char("d"), f"{where}.D")
    out["abilities"] = ok
    return out


def _ld(p: Profile) -> int | None:
    """Leadership ``6+``; a 7+ (e.g. Orks) is left to the profiles' default, which is 7+."""
    x = roll(p.char("ld"))
    return x if x is not None and 2 <= x <= 6 else None


def wh40k_attacker(unit: Unit, weapons: object, where: str) -> Side:
    notes: list[str] = []
    models = []
    for m, picks in zip(unit.models, choose(unit, weapons, f"{where}.weapons"), strict=True):
        if not picks:
            continue
        p = _profile(m, unit, where)
        d: dict[str, Any] = {"name": m.name, "count": m.count}
        d["weapons"] = numbered([_wh40k_weapon(w, mp, where, notes) for w, mp, k in picks for _ in range(k)])
        _put(d, "M", number(p.char("m")))
        _put(d, "Ld", _ld(p))
        _put(d, "OC", number(p.char("oc")))
        models.append(d)
    data = {"name": unit.name, "models": numbered(models), "keywords": list(unit.keywords)}
    defensive = protections(a for m in unit.models for a in _abilities_of(unit, m))[2]  # used when defending
    return Side(data, sum(m["count"] for m in models), _unit_notes(unit, defensive) + dedupe(notes))


def _wh40k_defenders(unit: Unit, where: str) -> tuple[list[dict[str, Any]], list[str]]:
    used: list[str] = []
    out = []
    for m in unit.models:
        p = _profile(m, unit, where)
        inv, fnp, u = protections(_abilities_of(unit, m))
        inv = best(inv, profile_invulnerable(p))
        used += u
        d: dict[str, Any] = {"name": m.name, "count": m.count}
        d["T"] = value(p.char("t"), f"{where}.T")
        d["Sv"] = roll(p.char("sv", "save"))
        d["W"] = value(p.char("w"), f"{where}.W")
        _put(d, "invulnerable", inv)
        _put(d, "FNP", fnp)
        _put(d, "M", number(p.char("m")))
        _put(d, "Ld", _ld(p))
        _put(d, "OC", number(p.char("oc")))
        out.append(d)
    # the defender allocates: the largest model groups first, sergeants and specialists last
    out.sort(key=lambda d: -d["count"])
    return out, _unit_notes(unit, used)


def wh40k_defender(unit: Unit, leaders: list[Unit], where: str) -> Side:
    models, notes = _wh40k_defenders(unit, where)
    lead: list[dict[str, Any]] = []
    keywords = list(unit.keywords)
    for ld in leaders:
        ms, n = _wh40k_defenders(ld, f"{where}.leaders")
        lead += ms
        notes += n
        keywords += [k for k in ld.keywords if k not in keywords]
    data: dict[str, Any] = {"name": " + ".join([unit.name, *(u.name for u in leaders)]), "models": models}
    if lead:
        data["leaders"] = lead
    data["keywords"] = keywords
    return Side(data, sum(m["count"] for m in models + lead), dedupe(notes))


# --------------------------------------------------------------------------- heresy
_KINDS = re.compile(r"^(assault|heavy|rapid fire|pistol|salvo|ordnance|melee|primary weapon)\b\s*(.*)$")
_BLAST = re.compile(r"^(large blast|blast)\s*\(.*\)$")


def _heresy_rules(items: list[str], name: str, notes: list[str]) -> list[str]:
    fixed = []
    for t in items:
        m = _BLAST.match(norm(t))
        fixed.append(m.group(1).title() if m else t)  # "Blast (3\")": the template size is implied
    ok, refused = accepted("heresy", fixed)
    notes += [f"{name}: special rule {r}" for r in refused]
    return ok


def _heresy_items(p: Profile) -> list[str]:
    return split_rules(p.char("type"))


def _heresy_weapon(w: Weapon, p: Profile, where: str, notes: list[str]) -> dict[str, Any]:
    name = w.mode_name(p)
    notes += weapon_rule_notes(w, _heresy_items)
    parts = split_rules(p.char("type"))
    kind = _KINDS.match(norm(parts[0])) if parts else None
    rest = parts[1:] if kind else parts
    out: dict[str, Any] = {"name": name}
    s_text = p.char("strength", "s")
    ap = p.char("ap")
    out["AP"] = None if ap is None or norm(ap) in NONE_TEXT else value(ap, f"{where}.AP")
    if p.is_melee or (kind and kind.group(1) == "melee"):
        s = norm(s_text or "user")
        out["S"] = int(s) if s.isdigit() else s
        out["rules"] = ["Melee", *_heresy_rules(rest, name, notes)]
        return out
    _put(out, "range", number(p.char("range")))
    shots = kind.group(2).split("/")[0].strip() if kind else ""
    out["A"] = value(shots, f"{where}.A") if shots else 1  # "Rapid Fire", "Pistol": one shot (see docs)
    out["S"] = value(s_text, f"{where}.S")
    out["rules"] = ([kind.group(1).title()] if kind else []) + _heresy_rules(rest, name, notes)
    return out


def _heresy_model(m: Model, unit: Unit, where: str) -> tuple[dict[str, Any], list[str]]:
    p = _profile(m, unit, where)
    inv, fnp, used = protections(_abilities_of(unit, m))
    inv = best(inv, profile_invulnerable(p))
    d: dict[str, Any] = {"name": m.name, "count": m.count}
    for k in ("WS", "BS", "S", "T", "W", "I", "A"):
        _put(d, k, number(p.char(k)))
    _put(d, "Sv", roll(p.char("save", "sv")))
    _put(d, "invulnerable", inv)
    _put(d, "FNP", fnp)
    if any("eternal warrior" in norm(a.name) for a in _abilities_of(unit, m)):
        d["eternal_warrior"] = True
        used.append("Eternal Warrior")
    return d, used


def heresy_attacker(unit: Unit, weapons: object, where: str) -> Side:
    notes: list[str] = []
    used: list[str] = []
    models = []
    for m, picks in zip(unit.models, choose(unit, weapons, f"{where}.weapons"), strict=True):
        if not picks:
            continue
        d, u = _heresy_model(m, unit, where)
        used += u
        d["weapons"] = numbered([_heresy_weapon(w, mp, where, notes) for w, mp, k in picks for _ in range(k)])
        models.append(d)
    return Side(
        {"name": unit.name, "models": numbered(models)},
        sum(m["count"] for m in models),
        _unit_notes(unit, used) + dedupe(notes),
    )


def heresy_defender(unit: Unit, where: str) -> Side:
    """The unit as a Heresy target; a vehicle (armour values and hull points) is refused."""
    if any(m.profile is not None and m.profile.is_vehicle for m in unit.models):
        raise ScenarioError(
            where, f"{unit.name}: vehicles are not modelled as targets (armour values, hull points)"
        )
    models, used, types = [], [], []
    for m in unit.models:
        d, u = _heresy_model(m, unit, where)
        for k in ("BS",):
            d.pop(k, None)
        t = norm(_profile(m, unit, where).char("unit type", "type") or "infantry")
        types.append(t)
        if "character" in t:
            d["character"] = True
        used += u
        models.append(d)
    kind = types[0].split("(")[0].split()[0] if types and types[0] else "infantry"
    data: dict[str, Any] = {"name": unit.name, "models": numbered(models), "type": kind}
    if types and all("heavy" in t for t in types):
        data["heavy"] = True
    return Side(data, sum(m["count"] for m in models), _unit_notes(unit, used))


# --------------------------------------------------------------------------- killteam
_SHAPE_MARKS = {"▲": "triangle", "△": "triangle", "⬤": "circle", "●": "circle", "○": "circle",
                "■": "square", "□": "square", "⬟": "pentagon", "⬠": "pentagon"}  # fmt: skip


def kt_distance(text: str | None) -> float | None:
    """``'3⬤'`` -> 6 (three circles of 2"), ``'6"'`` -> 6, ``'⬟'`` -> 6."""
    from grimdice.systems.killteam.rules import SHAPES

    if text is None or norm(text) in NONE_TEXT:
        return None
    t = text.strip()
    m = re.fullmatch(r"(\d*)\s*([▲△⬤●○■□⬟⬠])", t)
    if m:
        return (int(m.group(1)) if m.group(1) else 1) * SHAPES[_SHAPE_MARKS[m.group(2)]]
    n = number(t)
    return None if n is None else float(n)


def _kt_items(p: Profile) -> list[str]:
    return split_rules(p.char("sr")) + split_rules(p.char("!", "crit", "critical"))


def _kt_weapon(w: Weapon, p: Profile, where: str, notes: list[str]) -> dict[str, Any]:
    name = w.mode_name(p).lstrip("⌖⚔ ").strip()
    notes += weapon_rule_notes(w, _kt_items)
    ok, refused = accepted("killteam", split_rules(p.char("sr")))
    crit, crit_refused = accepted("killteam", split_rules(p.char("!", "crit", "critical")))
    notes += [f"{name}: rule {r}" for r in refused + crit_refused]
    skill = "WS" if p.is_melee else "BS"
    out: dict[str, Any] = {"name": name, "A": value(p.char("a"), f"{where}.A")}
    out[skill] = roll(p.char("ws/bs", "bs/ws", skill))
    out["D"] = (p.char("d") or "").replace(" ", "")
    out["rules"] = ok
    out["critical"] = crit
    return out


def kt_operative(unit: Unit, weapons: object, where: str) -> Side:
    """One operative (the first model of the unit) with all its weapons; ``weapons`` picks the
    weapon used (``shots``), by default its first ranged one."""
    m = unit.models[0]
    p = _profile(m, unit, where)
    notes: list[str] = []
    inv, _, used = protections(_abilities_of(unit, m))
    inv = best(inv, profile_invulnerable(p))
    d: dict[str, Any] = {"name": unit.name}
    _put(d, "M", kt_distance(p.char("m")))
    for k in ("APL", "GA", "DF", "W"):
        _put(d, k, number(p.char(k)))
    _put(d, "SV", roll(p.char("sv", "save")))
    _put(d, "invulnerable", inv)
    d["weapons"] = numbered([_kt_weapon(w, mp, where, notes) for w, _ in m.weapons for mp in w.modes])
    if unit.model_count > 1:
        notes.append(f"{unit.model_count} models: the first ({m.name}) is the operative")
    side = Side(d, 1, _unit_notes(unit, used) + dedupe(notes))
    if weapons is not None or any(not x.get("WS") for x in d["weapons"]):
        picks = choose(unit, weapons, f"{where}.weapons")
        first = next((w.mode_name(mp).lstrip("⌖⚔ ").strip() for grp in picks for w, mp, _ in grp), None)
        side.data["_weapon"] = first
    return side


def numbered(entries: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Entries whose names repeat get ``#2``, ``#3``... (the systems key results by name, so a
    roster's two "Intercessor" model groups or a weapon taken twice become distinct entries)."""
    seen: dict[str, int] = {}
    for e in entries:
        name = e["name"]
        seen[name] = seen.get(name, 0) + 1
        if seen[name] > 1:
            e["name"] = f"{name} #{seen[name]}"
    return entries


def dedupe(xs: list[str]) -> list[str]:
    return list(dict.fromkeys(xs))
