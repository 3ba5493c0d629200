"""Validated 40k data: weapons, attacking and defending units, and the battle conditions.

Characteristic names are the game's own: A, BS, WS, S, AP, D (weapons); M, T, Sv, W, Ld, OC,
invulnerable, FNP (models). Rolls are written as the number before the ``+`` (``BS: 3``).
"""

from __future__ import annotations

from enum import StrEnum
from typing import Annotated, Literal

from pydantic import Field, field_validator, model_validator

from grimdice.io.fields import Flag, Int, RangedOrMeleeWeapon, StrictModel, Text, UniqueNames, dice_text

MAX_MODELS = 200
MAX_WOUNDS = 100
MAX_WEAPONS = 50

RollTarget = Annotated[Int, Field(ge=2, le=6)]
Leadership = Annotated[Int, Field(ge=2, le=12)]  # Ld X+: a 2D6 test
Count = Annotated[Int, Field(ge=1, le=MAX_MODELS)]


class RerollPolicy(StrEnum):
    """Which rolls are rerolled (once): none, 1s, failed rolls, or all but critical results."""

    NONE = "none"
    ONES = "ones"
    FAILED = "failed"
    NON_CRITICAL = "non_critical"


class Weapon(RangedOrMeleeWeapon):
    """A weapon profile. Exactly one of BS (ranged) or WS (melee)."""

    name: str = "weapon"
    range: Int | None = Field(None, ge=0, le=240, description='range in inches ("Melee" if absent)')
    A: Int | Text
    BS: RollTarget | None = None
    WS: RollTarget | None = None
    S: Annotated[Int, Field(ge=1, le=30)]
    AP: Annotated[Int, Field(ge=-6, le=0)] = 0
    D: Int | Text = 1
    abilities: list[str] = Field(default_factory=list)
    critical_hit: RollTarget = 6
    critical_wound: RollTarget = 6

    @field_validator("A")
    @classmethod
    def _a(cls, v: object) -> object:
        return dice_text(v, 0, 200, "A")

    @field_validator("D")
    @classmethod
    def _d(cls, v: object) -> object:
        return dice_text(v, 0, 50, "D")

    @field_validator("AP", mode="before")
    @classmethod
    def _ap(cls, v: object) -> object:
        if isinstance(v, int) and not isinstance(v, bool) and v > 0:
            raise ValueError(f"AP is written as 0 or negative, e.g. -1 (got {v})")
        return v


class Order(StrEnum):
    """The six Orders of Voice of Command (Astra Militarum)."""

    MOVE_MOVE_MOVE = "move move move"
    FIX_BAYONETS = "fix bayonets"
    TAKE_AIM = "take aim"
    FIRST_RANK_FIRE = "first rank, fire! second rank, fire"
    TAKE_COVER = "take cover"
    DUTY_AND_HONOUR = "duty and honour"

    @classmethod
    def from_text(cls, text: str) -> Order:
        key = "".join(ch for ch in text.lower() if ch.isalpha() or ch == " ").split()
        norm = " ".join(key)
        aliases = {
            "move move move": cls.MOVE_MOVE_MOVE,
            "fix bayonets": cls.FIX_BAYONETS,
            "take aim": cls.TAKE_AIM,
            "first rank fire second rank fire": cls.FIRST_RANK_FIRE,
            "first rank fire": cls.FIRST_RANK_FIRE,
            "take cover": cls.TAKE_COVER,
            "duty and honour": cls.DUTY_AND_HONOUR,
            "duty and honor": cls.DUTY_AND_HONOUR,
        }
        if norm not in aliases:
            allowed = (
                "MOVE! MOVE! MOVE!, FIX BAYONETS!, TAKE AIM!, FIRST RANK, FIRE! SECOND RANK, FIRE!, "
                "TAKE COVER!, DUTY AND HONOUR!"
            )
            raise ValueError(f"unknown order {text!r}; allowed: {allowed}")
        return aliases[norm]


def _order(v: object) -> object:
    if v is None or isinstance(v, Order):
        return v
    if not isinstance(v, str):
        raise ValueError("an order is written as text, e.g. 'take aim'")
    return Order.from_text(v)


class AttackingModel(StrictModel):
    name: str = "model"
    count: Count = 1
    weapons: Annotated[list[Weapon], UniqueNames] = Field(min_length=1, max_length=MAX_WEAPONS)
    M: Int = Field(6, ge=0, le=60)
    Ld: Leadership = 7
    OC: Int = Field(1, ge=0, le=20)
    keywords: list[str] = Field(default_factory=list)
    scouts: Int | None = Field(None, ge=1, le=24, description='Scouts x"')


class AttackingUnit(StrictModel):
    name: str = "attacker"
    models: Annotated[list[AttackingModel], UniqueNames] = Field(min_length=1, max_length=MAX_WEAPONS)
    order: Order | None = None
    battle_shocked: Flag = False
    keywords: list[str] = Field(default_factory=list)

    _check_order = field_validator("order", mode="before")(classmethod(lambda cls, v: _order(v)))


class DefendingModel(StrictModel):
    name: str = "model"
    count: Count = 1
    T: Annotated[Int, Field(ge=1, le=30)]
    Sv: Annotated[Int, Field(ge=2, le=7)]
    W: Annotated[Int, Field(ge=1, le=MAX_WOUNDS)]
    invulnerable: RollTarget | None = None
    FNP: RollTarget | Annotated[list[RollTarget], Field(min_length=1)] | None = None
    FNP_mortal: RollTarget | None = Field(None, description="Feel No Pain x+ against mortal wounds only")
    damage_reduction: Int = Field(0, ge=0, le=5, description="-X Damage to attacks allocated")
    halve_damage: Flag = False
    M: Int = Field(6, ge=0, le=60)
    Ld: Leadership = 7
    OC: Int = Field(1, ge=0, le=20)
    keywords: list[str] = Field(default_factory=list)
    scouts: Int | None = Field(None, ge=1, le=24)

    @property
    def fnp(self) -> int | None:
        """The Feel No Pain used: with several, only one applies, so the best (lowest) is used."""
        if self.FNP is None:
            return None
        return min(self.FNP) if isinstance(self.FNP, list) else self.FNP


class DefendingUnit(StrictModel):
    """The target. ``models`` are the Bodyguard (allocation order as listed); ``leaders`` are
    attached CHARACTER models (the Leader rule)."""

    name: str = "defender"
    models: list[DefendingModel] = Field(min_length=1, max_length=MAX_WEAPONS)
    leaders: list[DefendingModel] = Field(default_factory=list, max_length=2)
    keywords: list[str] = Field(default_factory=list)
    cover: Flag = False
    order: Order | None = None
    battle_shocked: Flag = False

    _check_order = field_validator("order", mode="before")(classmethod(lambda cls, v: _order(v)))

    @model_validator(mode="after")
    def _size(self) -> DefendingUnit:
        n = sum(m.count for m in self.models) + sum(m.count for m in self.leaders)
        if n > MAX_MODELS:
            raise ValueError(f"a unit has at most {MAX_MODELS} models, this one {n}")
        return self


class Conditions(StrictModel):
    """The situation of the attack: range, movement, charge, and extra modifiers or rerolls."""

    half_range: Flag = False
    remained_stationary: Flag = False
    charged: Flag = False
    hit_modifier: Int = Field(0, ge=-6, le=6)
    wound_modifier: Int = Field(0, ge=-6, le=6)
    save_modifier: Int = Field(0, ge=-6, le=6)
    reroll_hits: RerollPolicy = RerollPolicy.NONE
    reroll_wounds: RerollPolicy = RerollPolicy.NONE
    critical_hit: RollTarget | None = None
    critical_wound: RollTarget | None = None
    reroll_one_hit: bool = Field(False, description="one Hit roll of the whole attack may be re-rolled")
    reroll_one_wound: bool = Field(False, description="one Wound roll of the whole attack may be re-rolled")


class Scenario(StrictModel):
    system: Literal["wh40k"] = "wh40k"
    title: str = ""
    attacker: AttackingUnit
    defender: DefendingUnit
    conditions: Conditions = Field(default_factory=Conditions)
