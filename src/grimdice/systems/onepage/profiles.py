"""Pydantic models of One Page 40k unit profiles, armies and calculation scenarios.

A unit is written as the text lists a unit's stats: "Name [Size]", "Quality", "Equipment",
"Special Rules", "Cost".
"""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from grimdice.io.fields import StrictModel


class Variant(StrictModel):
    """``count`` models of the unit carry this equipment instead of the unit's (e.g. a Meltagun)."""

    count: int = Field(ge=1, le=100)
    equipment: list[str]


class UnitSpec(StrictModel):
    """One unit entry: the text's unit stats, plus how it is fielded in an army."""

    name: str = Field(min_length=1, max_length=80)
    size: int = Field(1, ge=1, le=100)
    quality: int = Field(ge=2, le=6, description="Quality X+ (2..6)")
    equipment: list[str] = Field(default_factory=list)
    variants: list[Variant] = Field(default_factory=list)
    special_rules: list[str] = Field(default_factory=list)
    cost: int = Field(0, ge=0, le=5000)
    label: str | None = Field(None, description="id for joins/merges (default: the name)")
    joins: str | None = Field(None, description="Hero/Psyker: label of the Infantry unit it joins")
    merge: str | None = Field(None, description="two entries with the same merge key form one unit")
    started_with: int | None = Field(None, ge=1, le=200, description="models at the start of the game")
    damage: int = Field(0, ge=0, le=100, description="wounds already on the unit (Tough order)")


class Army(StrictModel):
    kind: Literal["army"]
    system: Literal["onepage"]
    name: str = ""
    points: int | None = Field(None, ge=1, le=100000)
    units: list[UnitSpec] = Field(min_length=1, max_length=60)


class Conditions(StrictModel):
    """Scenario conditions: terrain, range and actions (see docs/onepage.md)."""

    distance: float = Field(0, ge=0, le=200, description="inches from the shooters to the target")
    in_range: int | None = Field(None, ge=0, le=200, description="models in range and line of sight")
    cover: bool = False
    elevated_target: bool = Field(False, description="target above the shooters: counts as in Cover")
    no_line_of_sight: bool = Field(False, description="Indirect fire only; target counts as in Cover")
    action: Literal["hold", "walk", "assault"] = "walk"
    piercing: Literal["best", "armored", "reroll"] = "best"
    attacker_higher: bool = Field(False, description="melee: assaulting from higher elevation")
    defender_higher: bool = Field(False, description="melee: assaulted from lower elevation")
    attacker_pinned: bool = False
    defender_pinned: bool = False
    attacker_shaken: bool = Field(False, description="attacking Vehicle is Shaken: re-rolls successful hits")
    facing: Literal["front", "side", "rear"] = "side"
    immobile: bool = Field(False, description="vehicle target already Immobile")


class Scenario(StrictModel):
    """``attack: shooting`` (attacker shoots defender) or ``melee`` (attacker assaults defender)."""

    system: Literal["onepage"]
    title: str = ""
    attack: Literal["shooting", "melee"] = "shooting"
    attacker: UnitSpec
    attacker_hero: UnitSpec | None = None
    defender: UnitSpec
    defender_hero: UnitSpec | None = None
    conditions: Conditions = Conditions()
