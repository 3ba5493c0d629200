"""Weapon special rules of Horus Heresy 2.0, parsed from the text players write.

Values in brackets may be written ``Rending (5+)``, ``rending 5+``, ``Rending(5)``. Unknown rules
are errors naming the field and listing what is allowed.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from grimdice.errors import ScenarioError
from grimdice.systems.heresy.rolls import NEVER

#: rules accepted so real profiles validate, with no effect on one attack's dice
NO_EFFECT = frozenset(
    {
        "assault",
        "heavy",
        "rapid fire",
        "pistol",
        "salvo",
        "ordnance",
        "one shot",
        "pinning",
        "two-handed",
        "specialist weapon",
        "concussive",
        "master-crafted",
    }
)

#: on/off rules (field name: the text with spaces and dashes as "_")
FLAGS = (
    "melee",
    "instant death",
    "armourbane",
    "fleshbane",
    "shred",
    "twin-linked",
    "gets hot",
    "blast",
    "large blast",
    "barrage",
    "template",
    "ignores cover",
    "unwieldy",
)

#: rules with a roll target X+ (2..6)
VALUED = ("rending", "breaching", "poisoned", "precision", "reaping blow", "brutal")
ALIASES = {"precision shots": "precision", "precision strikes": "precision"}

ALLOWED = (
    *FLAGS,
    "Rending (X+)",
    "Breaching (X+)",
    "Poisoned (X+) (Poisoned alone: 4+)",
    "Precision (X+) (also Precision Shots/Strikes)",
    "Reaping Blow (X)",
    "Brutal (X)",
    *sorted(NO_EFFECT),
)


@dataclass(frozen=True)
class WeaponRules:
    melee: bool = False
    instant_death: bool = False
    armourbane: bool = False
    fleshbane: bool = False
    shred: bool = False
    twin_linked: bool = False
    gets_hot: bool = False
    blast: bool = False
    barrage: bool = False
    template: bool = False
    ignores_cover: bool = False
    unwieldy: bool = False
    rending: int = NEVER
    breaching: int = NEVER
    poisoned: int = NEVER
    precision: int = NEVER
    reaping_blow: int = 0
    brutal: int = 1  # Brutal (X): an allocated wound is X wounds on that model

    @property
    def no_hit_roll(self) -> bool:
        """Blast, Barrage and Template weapons do not roll To Hit."""
        return self.blast or self.barrage or self.template

    @property
    def may_trigger_precision(self) -> bool:
        """Precision never triggers for Blast, Barrage, Template or Reaping Blow attacks."""
        return self.precision < NEVER and not self.no_hit_roll and not self.reaping_blow


_VALUE = re.compile(r"^([a-z -]+?)\s*\(?\s*(\d+)\s*\+?\s*\)?$")


def _norm(text: str) -> str:
    return re.sub(r"\s+", " ", text.strip().lower().replace("[", "").replace("]", ""))


def parse_rules(items: list[str], where: str) -> WeaponRules:
    kw: dict = {}
    for i, raw in enumerate(items):
        f = f"{where}.{i}"
        if not isinstance(raw, str):
            raise ScenarioError(f, f"a special rule is text, e.g. 'Rending (6+)'; got {raw!r}")
        a = _norm(raw)
        if a in NO_EFFECT or re.sub(r"\s*\(?\d+\)?$", "", a) in NO_EFFECT:
            continue
        if a in FLAGS:
            key = "blast" if a == "large blast" else a
            kw[key.replace("-", "_").replace(" ", "_")] = True
            continue
        name, value = a, None
        if m := _VALUE.match(a):
            name, value = m.group(1).strip(), int(m.group(2))
        name = ALIASES.get(name, name)
        if name == "poisoned" and value is None:
            value = 4  # "If no number is shown in brackets, the rule is Poisoned (4+)"
        if name == "reaping blow":
            kw["reaping_blow"] = 1 if value is None else _count(value, f)
        elif name == "brutal":
            if value is None:
                raise ScenarioError(f, f"{raw!r} needs its value, e.g. 'Brutal (2)'")
            kw["brutal"] = _count(value, f)
        elif name in VALUED:
            if value is None:
                raise ScenarioError(f, f"{raw!r} needs its value, e.g. '{name.title()} (5+)'")
            kw[name] = _target(value, f)
        else:
            raise ScenarioError(f, f"unknown special rule {raw!r}; allowed: {', '.join(ALLOWED)}")
    return WeaponRules(**kw)


def _target(x: int, where: str) -> int:
    if not 2 <= x <= 6:
        raise ScenarioError(where, f"a roll target is 2+ to 6+, got {x}+")
    return x


def _count(x: int, where: str) -> int:
    if not 1 <= x <= 10:
        raise ScenarioError(where, f"X is 1 to 10 here, got {x}")
    return x
