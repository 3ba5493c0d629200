"""Weapon special rules of Horus Heresy 2.0: the rule table, and the values it parses to.

:data:`RULES` lists every special rule grimdice accepts (its value, where it applies, what it does
and the rule text it follows) and the core-sequence readings that could not be verified against a
2.0 page; ``grimdice rules heresy`` prints it and ``docs/heresy.md`` embeds it. Values in brackets
may be written ``Rending (5+)``, ``rending 5+``, ``Rending(5)``; unknown rules are errors naming
the field and listing what is allowed.
"""

from __future__ import annotations

from dataclasses import dataclass

from grimdice.engine.rules import Param, Reading, Rule, RuleTable
from grimdice.systems.heresy.rolls import NEVER

BOOK = "Horus Heresy 2.0 rulebook"
SEED = "seed text (shared/rules/horus-heresy-2-special-rules.txt)"
WEAPON, SHOOTING, MELEE = "weapon", "shooting weapon", "melee weapon"

#: unverified core-sequence readings (their keys are the notes results carry)
MELEE_HIT_CHART = "melee_to_hit_chart"
COMBAT_RESOLUTION = "combat_resolution"
INSTANT_DEATH_STRENGTH = "instant_death_strength"

RULES = RuleTable(
    "heresy",
    [
        Rule("Melee", Param.FLAG, WEAPON, "a Melee weapon: WS chart To Hit, strikes in the Fight", BOOK),
        Rule(
            "Instant Death",
            Param.FLAG,
            WEAPON,
            "an unsaved wound removes the model outright (Eternal Warrior: one wound); no Feel No Pain",
            f"{BOOK} (Instant Death, Feel No Pain (X))",
        ),
        Rule(
            "Armourbane",
            Param.FLAG,
            WEAPON,
            "re-roll failed Wound rolls against Dreadnought/Automata (the vehicle part is not modelled)",
            f"{BOOK} (Armourbane (X))",
        ),
        Rule("Fleshbane", Param.FLAG, WEAPON, "wounds on 2+", BOOK),
        Rule("Shred", Param.FLAG, WEAPON, "re-roll failed Wound rolls", BOOK),
        Rule(
            "Twin-linked",
            Param.FLAG,
            WEAPON,
            "re-roll failed To Hit rolls (needing the same number); a Template re-rolls failed Wound rolls",
            f"{BOOK} (Twin-linked)",
        ),
        Rule(
            "Gets Hot",
            Param.FLAG,
            SHOOTING,
            "a final To Hit 1 wounds the firer (save and Feel No Pain allowed); a weapon with no To Hit "
            "roll rolls a D6 per shot first",
            f"{BOOK} (Gets Hot)",
        ),
        Rule(
            "Blast",
            Param.FLAG,
            SHOOTING,
            "no To Hit roll: each shot inflicts its hits; never a Snap Shot",
            BOOK,
            aliases=("Large Blast",),
        ),
        Rule("Barrage", Param.FLAG, SHOOTING, "as Blast (no To Hit roll, never a Snap Shot)", BOOK),
        Rule(
            "Template",
            Param.FLAG,
            SHOOTING,
            "automatic hits, Ignores Cover; as a Snap Shot (Wall of Death) D3 hits",
            BOOK,
        ),
        Rule("Ignores Cover", Param.FLAG, SHOOTING, "no cover save; no Shrouded", BOOK),
        Rule("Unwieldy", Param.FLAG, MELEE, "strikes at Initiative step 1", BOOK),
        Rule(
            "Rending",
            Param.ROLL,
            WEAPON,
            "a Wound roll of X+ wounds regardless of Toughness, at AP 2 (melee: the weapon's AP if better)",
            f"{BOOK} (Rending (X))",
            example="Rending (6+)",
        ),
        Rule(
            "Breaching",
            Param.ROLL,
            WEAPON,
            "a Wound roll of X+ that wounds is resolved at AP 2",
            f"{BOOK} (Breaching (X))",
            example="Breaching (5+)",
        ),
        Rule(
            "Poisoned",
            Param.ROLL,
            WEAPON,
            "wounds on X+ unless the chart needs less (alone: 4+); melee with S > T re-rolls failures",
            BOOK,
            default=4,
            example="Poisoned (4+)",
        ),
        Rule(
            "Precision",
            Param.ROLL,
            WEAPON,
            "an unmodified hitting roll of X+ is a Precision Hit: own group, its wounds go to the chosen "
            "model; never from Snap Shots, Blast, Barrage, Template or Reaping Blow",
            SEED,
            aliases=("Precision Shots", "Precision Strikes"),
            example="Precision (5+)",
        ),
        Rule(
            "Reaping Blow",
            Param.COUNT,
            MELEE,
            "+X Attacks when in contact with more than one enemy model (Reaping Blow alone: 1)",
            BOOK,
            bounds=(1, 10),
            default=1,
            example="Reaping Blow (1)",
        ),
        Rule(
            "Brutal",
            Param.COUNT,
            WEAPON,
            "an allocated wound is X wounds on that model, each saved separately, none spilling over",
            f"{BOOK} (Brutal (X))",
            bounds=(1, 10),
            example="Brutal (2)",
        ),
        *(
            Rule(name, Param.FLAG, where, "accepted, no effect on one attack's dice", BOOK, effect=False)
            for name, where in (
                ("Assault", SHOOTING),
                ("Heavy", SHOOTING),
                ("Rapid Fire", SHOOTING),
                ("Pistol", SHOOTING),
                ("Salvo", SHOOTING),
                ("Ordnance", SHOOTING),
                ("One Shot", SHOOTING),
                ("Pinning", SHOOTING),
                ("Two-handed", MELEE),
                ("Specialist Weapon", MELEE),
                ("Concussive", WEAPON),
                ("Master-crafted", WEAPON),
            )
        ),
    ],
    readings=[
        Reading(
            MELEE_HIT_CHART,
            "melee To Hit from WS: 3+ against a lower WS, 5+ against more than double, else 4+",
            f"{BOOK} as carried over from 7th edition (rolls.ws_hit_target)",
            "the 7th-edition WS chart values (3+/4+/5+) are used; the 2.0 rulebook changed the chart: "
            "give its table as conditions.ws_chart (10 rows, attacker WS 1-10, of 10 rolls, target WS "
            "1-10) to use it instead",
        ),
        Reading(
            COMBAT_RESOLUTION,
            "each side scores the wounds its blows made the enemy lose; the higher score wins",
            f"{BOOK} as carried over from 7th edition (fight._margin)",
            "wounds actually lost are counted, as in 7th edition (Instant Death counts the wounds the "
            "model had left; none beyond the last model); not checked against a 2.0 page",
        ),
        Reading(
            INSTANT_DEATH_STRENGTH,
            "an unsaved wound at Strength of at least twice the model's Toughness inflicts Instant Death",
            f"{BOOK} as carried over from 7th edition (rolls.instant_death)",
            "Instant Death at S >= 2 x T, as in 7th edition; not checked against a 2.0 page",
        ),
    ],
    what="special rule",
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


def parse_rules(items: list[str], where: str) -> WeaponRules:
    """Read special rule texts into :class:`WeaponRules` (errors name ``where.i`` and what is allowed)."""
    return WeaponRules(**RULES.parse(items, where))
