"""Weapon abilities of Warhammer 40,000 10th edition: the rule table, and the values it parses to.

:data:`RULES` lists every ability grimdice accepts (its value, where it applies, what it does and the
rule text it follows); ``grimdice rules wh40k`` prints it and ``docs/wh40k.md`` embeds it. Texts are
read by the shared parser (:meth:`~grimdice.engine.rules.RuleTable.parse`, case-insensitive, brackets
optional) into :class:`WeaponAbilities`, whose fields the engines read.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from grimdice.dice.expr import DiceExpr
from grimdice.engine.rules import Param, Reading, Rule, RuleTable

CORE = "10th edition core rules, Weapon Abilities"
COMMENTARY = "10th edition Rules Commentary (Devastating Wounds, current wording)"
WEAPON, RANGED, MELEE = "weapon", "ranged weapon", "melee weapon"

RULES = RuleTable(
    "wh40k",
    [
        Rule(
            "Lethal Hits",
            Param.FLAG,
            WEAPON,
            "a Critical Hit wounds automatically (not a Critical Wound)",
            CORE,
        ),
        Rule(
            "Sustained Hits",
            Param.DICE,
            WEAPON,
            "a Critical Hit scores X extra hits (a number or D3/D6), which roll to wound normally",
            CORE,
            bounds=(0, 100),
            example="Sustained Hits 1",
        ),
        Rule(
            "Devastating Wounds",
            Param.FLAG,
            WEAPON,
            "a Critical Wound allows no saving throw of any kind; such attacks are allocated after all "
            "other attacks of the unit, as mortal wounds that do not spill over (excess lost); "
            "Feel No Pain against mortal wounds applies",
            COMMENTARY,
        ),
        Rule(
            "Anti-",
            Param.ROLL,
            WEAPON,
            "against a unit with the keyword, an unmodified Wound roll of X+ is a Critical Wound",
            CORE,
            keyed=True,
            field="anti",
            example="Anti-Infantry 4+",
        ),
        Rule("Twin-linked", Param.FLAG, WEAPON, "re-roll the Wound roll (failed rolls are re-rolled)", CORE),
        Rule("Torrent", Param.FLAG, RANGED, "hits automatically (no Hit roll, so no Critical Hits)", CORE),
        Rule(
            "Blast",
            Param.FLAG,
            RANGED,
            "+1 attack per five models in the target unit, per attacking model",
            CORE,
        ),
        Rule(
            "Melta", Param.COUNT, RANGED, "+X Damage at half range", CORE, bounds=(0, 50), example="Melta 2"
        ),
        Rule(
            "Rapid Fire",
            Param.DICE,
            RANGED,
            "+X attacks at half range (a number or dice)",
            CORE,
            bounds=(0, 100),
            example="Rapid Fire 1",
        ),
        Rule("Lance", Param.FLAG, WEAPON, "+1 to wound if the bearer charged", CORE),
        Rule("Heavy", Param.FLAG, RANGED, "+1 to hit if the unit remained stationary", CORE),
        Rule("Ignores Cover", Param.FLAG, RANGED, "the target does not get the Benefit of Cover", CORE),
        Rule("Indirect Fire", Param.FLAG, RANGED, "-1 to hit and the target has the Benefit of Cover", CORE),
        Rule(
            "Precision",
            Param.FLAG,
            WEAPON,
            "wounds are allocated to a CHARACTER of an attached unit while one remains",
            CORE,
        ),
        Rule(
            "Hazardous",
            Param.FLAG,
            WEAPON,
            "one test per model that used the weapon, failing on a 1; reported separately, not applied",
            CORE,
        ),
        *(
            Rule(name, Param.FLAG, where, "accepted, no effect on one attack sequence", CORE, effect=False)
            for name, where in (
                ("Assault", RANGED),
                ("Pistol", RANGED),
                ("Psychic", WEAPON),
                ("One Shot", RANGED),
                ("Extra Attacks", MELEE),
            )
        ),
    ],
    readings=[
        Reading(
            "bodyguard_toughness",
            "a Bodyguard unit whose models have different Toughness uses the highest",
            "10th edition core rules, Leader / Toughness of a unit",
            "the highest Toughness of the Bodyguard models is used for every Wound roll",
        )
    ],
    what="ability",
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


def parse_abilities(items: list[str], where: str) -> WeaponAbilities:
    """Read ability texts into :class:`WeaponAbilities` (errors name ``where.i`` and what is allowed)."""
    return WeaponAbilities(**RULES.parse(items, where))
