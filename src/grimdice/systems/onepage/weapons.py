"""Weapons of One Page 40k v2.21: the text's Weapon List as data, and the "Other Weapons" notation.

"Weapons are separated into two categories, ranged weapons and melee weapons. Ranged weapons have a
ranged value and can be used for shooting. Melee weapons don't have a range value and can be used in
melee." — "Weapons that are not in the chart above are usually presented like this: Weapon Name
(Range, Attacks, Special Rules). Example: Chem Cannon (18", A6, Poison)"
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from grimdice.engine.rules import excerpt, normalise
from grimdice.errors import ScenarioError
from grimdice.systems.onepage.rules import RULES

#: "Units without a melee weapon in their Equipment are always assumed to have Fists/Claws."
DEFAULT_MELEE = "Fists/Claws"

#: the Weapon List of the text: name -> (range in inches or None for melee, attacks, "x")
WEAPON_LIST: dict[str, tuple[int | None, int, bool]] = {
    "Fists/Claws": (None, 1, False),
    "Hand Weapon": (None, 2, False),
    "Power Weapon": (None, 3, False),
    "Power Fist": (None, 4, False),
    "Dreadnought Fist": (None, 5, False),
    "Pistol": (12, 1, False),
    "Shotgun/Plasma Pistol": (12, 3, False),
    "Flamer": (12, 6, False),
    "Meltagun": (12, 6, True),
    "Carbine": (18, 1, False),
    "Assault Rifle": (24, 1, False),
    "Minigun/Plasmagun": (24, 3, False),
    "Grenade Launcher": (24, 6, False),
    "Multi-Melta": (24, 6, True),
    "Rifle": (30, 1, False),
    "Machinegun/Multi-Laser": (36, 3, False),
    "Plasma Cannon": (36, 6, False),
    "Autocannon": (48, 3, False),
    "Mortar/Missile Launcher": (48, 6, False),
    "Lascannon": (48, 6, True),
    "Battle Cannon": (48, 9, False),
}

#: every name a listed weapon answers to ("Fists", "Claws", "Plasma Pistol", ...)
_NAMES: dict[str, str] = {}
for _full in WEAPON_LIST:
    _NAMES[normalise(_full)] = _full
    for _part in _full.split("/"):
        _NAMES[normalise(_part)] = _full

_OTHER = re.compile(r"^(?P<name>[^()]+?)\s*\((?P<body>[^()]*)\)\s*$")


@dataclass(frozen=True)
class Weapon:
    """A resolved weapon: ``range`` in inches (None: melee), ``attacks``, the "x" rule, special rules."""

    name: str
    range: int | None
    attacks: int
    x: bool = False
    rules: dict[str, Any] = field(default_factory=dict, compare=False, hash=False)

    @property
    def melee(self) -> bool:
        return self.range is None

    @property
    def piercing(self) -> bool:
        """ "Weapons with "x" next to their Attack value count as having the Piercing special rule"."""
        return self.x or bool(self.rules.get("piercing"))

    def has(self, rule: str) -> bool:
        return bool(self.rules.get(rule))

    def __str__(self) -> str:
        rng = "-" if self.range is None else f'{self.range}"'
        parts = [rng, f"A{self.attacks}{'x' if self.x else ''}", *sorted(self.rules)]
        return f"{self.name} ({', '.join(parts)})"


def parse_weapon(text: object, where: str) -> Weapon:
    """A weapon from the list by name (``Meltagun``, ``Plasma Pistol``), or written out
    ``Chem Cannon (18", A6, Poison)`` / ``Claws (A2, Rending)`` (no range: melee)."""
    if not isinstance(text, str) or not text.strip():
        raise ScenarioError(
            where,
            f"a weapon is text, e.g. 'Meltagun' or 'Chem Cannon (18\", A6, Poison)'; got {excerpt(text)}",
        )
    key = normalise(text)
    if key in _NAMES:
        full = _NAMES[key]
        listed_range, attacks, x = WEAPON_LIST[full]
        shown = next((p for p in full.split("/") if normalise(p) == key), full)
        return Weapon(shown, listed_range, attacks, x)
    m = _OTHER.match(text.strip())
    if not m:
        raise ScenarioError(
            where,
            f"unknown weapon {excerpt(text)}; the list has {', '.join(WEAPON_LIST)}; "
            'other weapons are written Name (18", A6, Rules)',
        )
    parts = [p.strip() for p in m.group("body").split(",") if p.strip()]
    rng: int | None = None
    inches = re.fullmatch(r"(\d+)\s*(\"|''|in)?", parts[0]) if parts else None
    if inches is not None:
        rng = int(inches.group(1))
        if not 1 <= rng <= 120:
            raise ScenarioError(where, f"a weapon range is 1..120 inches, got {rng}")
        parts = parts[1:]
    elif parts and parts[0] in ("-", "—"):
        parts = parts[1:]
    if not parts:
        raise ScenarioError(
            where, f"{excerpt(text)} needs its attacks, e.g. 'Chem Cannon (18\", A6, Poison)'"
        )
    am = re.fullmatch(r"[aA]\s*(\d+)\s*(x?)", parts[0])
    if not am:
        raise ScenarioError(where, f"{excerpt(text)}: attacks are written A6 (or A6x), got {parts[0]!r}")
    attacks = int(am.group(1))
    if not 1 <= attacks <= 50:
        raise ScenarioError(where, f"a weapon has 1..50 attacks, got {attacks}")
    rules = RULES.parse(parts[1:], f"{where}.rules")
    for k in rules:
        if RULES[k].applies not in ("weapon", "weapon or unit"):
            raise ScenarioError(f"{where}.rules", f"{RULES[k].name} is a unit rule, not a weapon rule")
    return Weapon(m.group("name").strip(), rng, attacks, bool(am.group(2)), rules)


__all__ = ["DEFAULT_MELEE", "WEAPON_LIST", "Weapon", "parse_weapon"]
