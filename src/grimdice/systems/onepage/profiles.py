"""Pydantic models of One Page 40k unit profiles, armies and calculation scenarios.

A unit is written as the text lists a unit's stats: "Name [Size]", "Quality", "Equipment",
"Special Rules", "Cost".
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field, field_validator, model_validator

from grimdice.io.fields import Flag, Int, Number, StrictModel, Text, applies


class Variant(StrictModel):
    """``count`` models of the unit carry this equipment instead of the unit's (e.g. a Meltagun)."""

    count: Int = Field(ge=1, le=100)
    equipment: Annotated[list[Text], Field(min_length=1, max_length=20)]

    @property
    def key(self) -> tuple[str, ...]:
        """Its equipment, in any order and case: variants with the same key are one model group."""
        return tuple(sorted(e.strip().lower() for e in self.equipment))


class UnitSpec(StrictModel):
    """One unit entry: the text's unit stats, plus how it is fielded in an army."""

    name: Text = Field(min_length=1, max_length=80)
    size: Int = Field(1, ge=1, le=100)
    quality: Int = Field(ge=2, le=6, description="Quality X+ (2..6)")
    equipment: Annotated[list[Text], Field(max_length=20)] = Field(default_factory=list)
    variants: Annotated[list[Variant], Field(max_length=20)] = Field(default_factory=list)
    special_rules: Annotated[list[Text], Field(max_length=40)] = Field(default_factory=list)
    cost: Int = Field(0, ge=0, le=5000)
    label: Text | None = Field(None, description="id for joins/merges (default: the name)")
    joins: Text | None = Field(None, description="Hero/Psyker: label of the Infantry unit it joins")
    merge: Text | None = Field(None, description="two entries with the same merge key form one unit")
    started_with: Int | None = Field(None, ge=1, le=200, description="models at the start of the game")
    damage: Int = Field(0, ge=0, le=100, description="wounds already on the unit (Tough order)")

    @field_validator("variants")
    @classmethod
    def _distinct_variants(cls, variants: list[Variant]) -> list[Variant]:
        """Variants name the model groups results are keyed by: two with the same equipment are one."""
        seen: set[tuple[str, ...]] = set()
        for v in variants:
            key = v.key
            if key in seen:
                raise ValueError(
                    f"two variants carry {', '.join(v.equipment)}; write one variant with their total count"
                )
            seen.add(key)
        return variants


class Army(StrictModel):
    kind: Literal["army"]
    system: Literal["onepage"]
    name: Text = ""
    points: Int | None = Field(None, ge=1, le=100000)
    units: list[UnitSpec] = Field(min_length=1, max_length=60)


#: Tough(X): "you must either accumulate wounds on the unit with this special rule first until it is
#: killed, or remove regular models as casualties before" (optimal: the engine's best choice)
CasualtyOrder = Literal["optimal", "hero first", "regulars first"]


MELEE, SHOOTING = applies(attack=["melee"]), applies(attack=["shooting"])  # fields of one attack kind
DANGEROUS, PSYKER = applies(attack=["dangerous"]), applies(attack=["psyker"])


class Conditions(StrictModel):
    """Scenario conditions: terrain, range and actions (see docs/onepage.md)."""

    distance: Number = Field(0, ge=0, le=200, description="inches from the shooters to the target")
    in_range: Int | None = Field(None, ge=0, le=200, description="models in range and line of sight")
    weapons_in_range: dict[Text, Annotated[int, Field(strict=True, ge=0, le=200)]] | None = Field(
        None,
        max_length=40,
        description="per ranged weapon (by name): models carrying it with line of sight and it in range",
    )
    cover: Flag = False
    elevated_target: Flag = Field(False, description="target above the shooters: counts as in Cover")
    no_line_of_sight: Flag = Field(False, description="Indirect fire only; target counts as in Cover")
    action: Literal["hold", "walk", "assault"] = "walk"
    piercing: Literal["best", "armored", "reroll"] = "best"
    attacker_higher: Flag = Field(
        False, description="melee: assaulting from higher elevation", json_schema_extra=MELEE
    )
    defender_higher: Flag = Field(
        False, description="melee: assaulted from lower elevation", json_schema_extra=MELEE
    )
    attacker_strikers: Int | None = Field(
        None,
        ge=0,
        le=200,
        description='melee: attacker models within 2" of the enemy (default: all)',
        json_schema_extra=MELEE,
    )
    defender_strikers: Int | None = Field(
        None,
        ge=0,
        le=200,
        description='melee: defender models within 2" of the enemy (default: all)',
        json_schema_extra=MELEE,
    )
    limited_fired: Flag = Field(False, description="Limited weapons were already fired this game")
    dangerous_models: Int | None = Field(
        None,
        ge=0,
        le=200,
        description="attack: dangerous - models that moved through it (default: all)",
        json_schema_extra=DANGEROUS,
    )
    psyker_levels: Int | None = Field(
        None,
        ge=1,
        le=30,
        description="attack: psyker - Psyker levels in the army (default: the Psyker's X)",
        json_schema_extra=PSYKER,
    )
    power_dice: Int | None = Field(
        None,
        ge=1,
        le=6,
        description="attack: psyker - power dice rolled (default: all of the round's)",
        json_schema_extra=PSYKER,
    )
    power_need: Int | None = Field(
        None,
        ge=1,
        le=6,
        description="attack: psyker - 4+ needed, the number in brackets (default: X)",
        json_schema_extra=PSYKER,
    )
    attacker_pinned: Flag = False
    defender_pinned: Flag = False
    attacker_casualty_order: CasualtyOrder = Field(
        "optimal",
        description="melee: the attacker's joined Hero with Tough: hero first or regulars first",
        json_schema_extra=MELEE,
    )
    defender_casualty_order: CasualtyOrder = Field(
        "optimal", description="the defender's joined Hero with Tough: hero first or regulars first"
    )
    attacker_shaken: Flag = Field(False, description="attacking Vehicle is Shaken: re-rolls successful hits")
    facing: Literal["front", "side", "rear"] = "side"
    immobile: Flag = Field(False, description="vehicle target already Immobile")


class TargetConditions(StrictModel):
    """What differs per target unit of a shooting (unset: as in the scenario's ``conditions``)."""

    distance: Number | None = Field(None, ge=0, le=200)
    in_range: Int | None = Field(None, ge=0, le=200)
    weapons_in_range: dict[Text, Annotated[int, Field(strict=True, ge=0, le=200)]] | None = Field(
        None, max_length=40
    )
    cover: Flag | None = None
    elevated_target: Flag | None = None
    no_line_of_sight: Flag | None = None
    pinned: Flag | None = None
    facing: Literal["front", "side", "rear"] | None = None
    immobile: Flag | None = None
    casualty_order: CasualtyOrder = "optimal"  # Tough(X) with a joined Hero (as defender_casualty_order)


class Target(StrictModel):
    """Another enemy unit the shooter may fire at: "When shooting a unit must pick one valid target";
    Relentless: "may fire all of their weapons when using Hold actions, even at different targets"."""

    unit: UnitSpec
    hero: UnitSpec | None = None
    conditions: TargetConditions = TargetConditions()


class Scenario(StrictModel):
    """``attack: shooting`` (attacker shoots defender), ``melee`` (attacker assaults defender),
    ``dangerous`` (the defender moved through dangerous terrain) or ``transport`` (the transport
    carrying the defender was destroyed) or ``psyker`` (the defender, or its joined ``defender_hero``,
    tries to manifest a power); the last three take no attacker."""

    system: Literal["onepage"]
    title: Text = ""
    attack: Literal["shooting", "melee", "dangerous", "transport", "psyker"] = "shooting"
    attacker: UnitSpec | None = None
    attacker_hero: UnitSpec | None = None
    defender: UnitSpec
    defender_hero: UnitSpec | None = None
    other_targets: Annotated[list[Target], Field(max_length=4)] = Field(
        default_factory=list,
        description="shooting: more enemy units the attacker may fire at",
        json_schema_extra=SHOOTING,
    )
    conditions: Conditions = Conditions()

    @model_validator(mode="after")
    def _distinct_heroes(self) -> Scenario:
        """A joined Hero is reported by name next to its host's models: the names must differ."""
        for side in ("attacker", "defender"):
            hero, host = getattr(self, f"{side}_hero"), getattr(self, side)
            if hero is not None and host is not None and hero.name == host.name:
                raise ValueError(f"{side}_hero is named {hero.name!r} like the unit it joins; rename one")
        names = [self.defender.name] + [t.unit.name for t in self.other_targets]
        if len(set(names)) < len(names):
            raise ValueError(f"target units need distinct names (results are keyed by them): {names}")
        if self.other_targets and self.attack != "shooting":
            raise ValueError("other_targets is for attack: shooting")
        return self
