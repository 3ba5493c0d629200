"""Army Forge units as onepage scenario sides (their ``spec`` is already the onepage unit input).

:func:`onepage_side` adds the joined Hero and, for an attacker, the ``attack`` its ``weapons``
choose (``ranged``: shooting, ``melee``: an assault, or named weapons); :func:`onepage_scenario`
places both sides in one onepage scenario. See ``docs/rosters.md``.
"""

from __future__ import annotations

from typing import Any

from grimdice.adapters.rosters.sides import Side, dedupe
from grimdice.errors import ScenarioError
from grimdice.io.rosters.tree import Unit, norm


class OnePageBook:
    """The One Page 40k v2.21 rules an Army Forge list is read against
    (:class:`grimdice.io.rosters.armyforge.RuleBook`)."""

    def accepts(self, text: str, weapon: bool) -> bool:
        """The onepage rule table knows ``text`` as a weapon rule (``weapon``) or a unit/model rule."""
        from grimdice.systems.onepage.rules import RULES

        if weapon and any(c in text for c in "(),"):
            return False  # the weapon notation "Name (24\", A1, Rules)" has no room for brackets or commas
        try:
            keys = RULES.parse([text], "rule")
        except ScenarioError:
            return False
        if not keys:
            return False
        kinds = {RULES[k].applies for k in keys}
        if weapon:
            return kinds <= {"weapon", "weapon or unit"}
        return "weapon" not in kinds

    def join_refused(self, hero: Unit, host: Unit, where: str) -> str:
        """Why One Page 40k v2.21 does not let ``hero`` join ``host`` ("" if it may)."""
        from grimdice.io.scenario import validate
        from grimdice.systems.onepage.fielding import join_error
        from grimdice.systems.onepage.profiles import UnitSpec

        if host.joined:
            return f"{host.name} already has a joined Hero (a unit takes one)"
        err = join_error(validate(UnitSpec, hero.spec), validate(UnitSpec, host.spec), where, where)
        return "" if err is None else f"v2.21 refuses the join ({err.message})"


ONEPAGE_BOOK = OnePageBook()


def _weapon_name(text: str) -> str:
    return text.split(" (", 1)[0].strip()


def _is_ranged(text: str) -> bool:
    from grimdice.systems.onepage.weapons import parse_weapon

    return not parse_weapon(text, "weapon").melee


def _texts(spec: dict[str, Any]) -> list[str]:
    return [*spec.get("equipment", []), *(t for v in spec.get("variants", []) for t in v["equipment"])]


def _onepage_weapons(
    specs: list[dict[str, Any]], weapons: object, where: str
) -> tuple[list[dict[str, Any]], str]:
    """The attacking specs (the unit, its Hero) and ``attack`` (``shooting``/``melee``) for
    ``weapons``: ``ranged`` (the default: shooting with every ranged weapon), ``melee`` (an
    assault), or names of weapons (only those are kept, all ranged or all melee)."""
    name = specs[0]["name"]
    if weapons is None or (isinstance(weapons, str) and weapons.strip().lower() in ("ranged", "melee")):
        attack = "melee" if isinstance(weapons, str) and weapons.strip().lower() == "melee" else "shooting"
        if attack == "shooting" and not any(_is_ranged(t) for s in specs for t in _texts(s)):
            raise ScenarioError(f"{where}.weapons", f"{name} has no ranged weapons to attack with")
        return specs, attack
    names = [w for w in weapons.split(",") if w.strip()] if isinstance(weapons, str) else weapons
    if not isinstance(names, list) or not names or not all(isinstance(w, str) for w in names):
        raise ScenarioError(f"{where}.weapons", "weapons is 'ranged', 'melee' or a list of weapon names")
    wanted = {norm(w) for w in names}

    def keep(texts: list[str]) -> list[str]:
        return [t for t in texts if norm(_weapon_name(t)) in wanted]

    out = []
    for s in specs:
        k = {**s, "equipment": keep(s.get("equipment", []))}
        if s.get("variants"):
            k["variants"] = [{**v, "equipment": keep(v["equipment"])} for v in s["variants"]]
        out.append(k)
    chosen = [t for s in out for t in _texts(s)]
    if missing := wanted - {norm(_weapon_name(t)) for t in chosen}:
        have = ", ".join(sorted({_weapon_name(t) for s in specs for t in _texts(s)}))
        raise ScenarioError(
            f"{where}.weapons", f"{name} has no weapon {sorted(missing)[0]!r}; it has: {have}"
        )
    ranged = {_is_ranged(t) for t in chosen}
    if len(ranged) > 1:
        raise ScenarioError(
            f"{where}.weapons", "name ranged weapons (shooting) or melee weapons (an assault), not both"
        )
    return out, "shooting" if ranged == {True} else "melee"


def onepage_side(unit: Unit, role: str, leaders: list[Unit], weapons: object, where: str) -> Side:
    """A onepage unit (an Army Forge list's ``spec``) with its joined Hero as ``_hero``; an attacker
    also gets ``_attack`` from ``weapons``. A Hero the v2.21 join rules refuse (different Quality,
    a Special host...) is left out and noted."""
    from grimdice.io.scenario import validate
    from grimdice.systems.onepage.fielding import join_error
    from grimdice.systems.onepage.profiles import UnitSpec

    if unit.spec is None:
        raise ScenarioError(where, f"{unit.name}: onepage units are read from Army Forge lists")
    spec = dict(unit.spec)
    notes = [f"{unit.name}: {n}" for n in unit.unmapped]
    hero: dict[str, Any] | None = None
    for h in leaders or unit.joined:
        if h.spec is None:
            raise ScenarioError(f"{where}.leaders", f"{h.name} is not an Army Forge unit")
        if hero is not None:
            notes.append(f"{h.name}: a second joined Hero is not modelled (a unit joins one)")
            continue
        err = join_error(validate(UnitSpec, h.spec), validate(UnitSpec, spec), f"{where}.leaders", where)
        if err is not None:
            notes.append(f"{h.name}: not joined to {unit.name} ({err.message})")
            continue
        hero = dict(h.spec)
        notes += [f"{h.name}: {n}" for n in h.unmapped]
    if role == "attacker":
        chosen, attack = _onepage_weapons([spec] if hero is None else [spec, hero], weapons, where)
        spec, hero = chosen[0], (chosen[1] if hero is not None else None)
        spec["_attack"] = attack
    if hero is not None:
        spec["_hero"] = hero
    models = unit.spec["size"] + (hero["size"] if hero else 0)
    return Side(spec, models, dedupe(notes))


def onepage_scenario(attacker: dict[str, Any], defender: dict[str, Any]) -> dict[str, Any]:
    """The onepage scenario of two sides from :func:`onepage_side` (heroes and attack placed)."""
    a, d = dict(attacker), dict(defender)
    sc: dict[str, Any] = {"system": "onepage", "attack": a.pop("_attack", "shooting")}
    for key, side in (("attacker", a), ("defender", d)):
        side.pop("_attack", None)
        hero = side.pop("_hero", None)
        sc[key] = side
        if hero is not None:
            sc[f"{key}_hero"] = hero
    return sc
