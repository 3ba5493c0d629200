"""Weapon abilities of Warhammer 40,000 10th edition, parsed from the text players write.

Each ability is read into a field of :class:`WeaponAbilities`. The effects follow the 10th
edition core rules (Weapon Abilities section) and the current Rules Commentary for Devastating
Wounds; the engine code cites each where it applies it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from grimdice.dice.expr import DiceExpr, DiceSyntaxError, parse
from grimdice.errors import ScenarioError

#: abilities with no effect on a single attack sequence, accepted so real datasheets validate
NO_EFFECT = frozenset({"assault", "pistol", "psychic", "one shot", "extra attacks"})

#: abilities that are a plain on/off flag (field name: the text with spaces and dashes as "_")
FLAGS = (
    "lethal hits",
    "devastating wounds",
    "twin-linked",
    "torrent",
    "blast",
    "lance",
    "heavy",
    "ignores cover",
    "indirect fire",
    "precision",
    "hazardous",
)

ALLOWED = (
    *FLAGS,
    "sustained hits X (X a number or D3/D6)",
    "anti-KEYWORD X+",
    "melta X",
    "rapid fire X",
    *sorted(NO_EFFECT),
)


@dataclass(frozen=True)
class WeaponAbilities:
    lethal_hits: bool = False
    sustained_hits: DiceExpr | None = None
    devastating_wounds: bool = False
    anti: dict[str, int] = field(default_factory=dict)
    twin_linked: bool = False
    torrent: bool = False
    blast: bool = False
    melta: int = 0
    rapid_fire: DiceExpr | None = None
    lance: bool = False
    heavy: bool = False
    ignores_cover: bool = False
    indirect_fire: bool = False
    precision: bool = False
    hazardous: bool = False


_SUSTAINED = re.compile(r"^sustained hits\s+(\S+)$")
_ANTI = re.compile(r"^anti-(.+?)\s+(\d)\+$")
_MELTA = re.compile(r"^melta\s+(\d+)$")
_RAPID = re.compile(r"^rapid fire\s+(\S+)$")


def _norm(text: str) -> str:
    return re.sub(r"\s+", " ", text.strip().lower().replace("[", "").replace("]", ""))


def parse_abilities(items: list[str], where: str) -> WeaponAbilities:
    """Read ability texts (case-insensitive, brackets optional) into :class:`WeaponAbilities`.

    Unknown abilities are errors naming the field and listing what is allowed.
    """
    kw: dict = {"anti": {}}
    for i, raw in enumerate(items):
        f = f"{where}.{i}"
        if not isinstance(raw, str):
            raise ScenarioError(f, f"an ability is text, e.g. 'lethal hits'; got {raw!r}")
        a = _norm(raw)
        flag = a.replace("-", "_").replace(" ", "_")
        if a in NO_EFFECT:
            continue
        if a in FLAGS:
            kw[flag] = True
        elif m := _SUSTAINED.match(a):
            kw["sustained_hits"] = _dice(m.group(1), f)
        elif m := _ANTI.match(a):
            kw["anti"][m.group(1).strip()] = _target(int(m.group(2)), f)
        elif m := _MELTA.match(a):
            kw["melta"] = int(m.group(1))
        elif m := _RAPID.match(a):
            kw["rapid_fire"] = _dice(m.group(1), f)
        elif a in ("sustained hits", "melta", "rapid fire"):
            raise ScenarioError(f, f"{raw!r} needs its value, e.g. '{a} 1'")
        else:
            raise ScenarioError(f, f"unknown ability {raw!r}; allowed: {', '.join(ALLOWED)}")
    return WeaponAbilities(**kw)


def _dice(text: str, where: str) -> DiceExpr:
    try:
        d = parse(text)
    except DiceSyntaxError as exc:
        raise ScenarioError(where, str(exc)) from None
    if d.min < 0:
        raise ScenarioError(where, f"{text!r} can be negative")
    return d


def _target(x: int, where: str) -> int:
    if not 2 <= x <= 6:
        raise ScenarioError(where, f"a roll target is 2+ to 6+, got {x}+")
    return x
