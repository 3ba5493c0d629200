"""Validated Horus Heresy 2.0 data: weapons, attacking and defending units, and the conditions.

Characteristic names are the game's own: WS, BS, S, T, W, I, A, Ld (models); S, AP, special
rules (weapons). Saves are written as the number before the ``+`` (``Sv: 3``); ``AP: "-"`` or no AP
means no armour penetration. Defending models are listed closest to the attacker first: wounds are
allocated in that order.
"""

from __future__ import annotations

import re
from typing import Annotated, Literal

from pydantic import Field, field_validator, model_validator

from grimdice.io.fields import Flag, Int, StrictModel, Text, UniqueNames, dice_text

MAX_MODELS = 100
MAX_WEAPONS = 20

RollTarget = Annotated[Int, Field(ge=2, le=6)]
Char = Annotated[Int, Field(ge=1, le=10)]
#: a melee To Hit chart: row = the attacker's WS 1-10, column = the target's WS 1-10, the roll needed
WsChart = list[list[Int]]
Count = Annotated[Int, Field(ge=1, le=MAX_MODELS)]

UNIT_TYPES = ("infantry", "cavalry", "monstrous", "dreadnought", "automata", "primarch", "daemon")


_REL_S = re.compile(r"^(user|\+\d+|x\d+)$")


class Weapon(StrictModel):
    """A weapon profile. A melee weapon has ``Melee`` among its special rules."""

    name: str = "weapon"
    range: Int | None = Field(None, ge=0, le=240)
    A: Int | Text | None = Field(None, description="shots per model; melee: the model's A if absent")
    S: Int | Text
    AP: Int | None = None
    rules: list[str] = Field(default_factory=list)
    hits: Int | Text = Field(1, description="hits of one Blast/Barrage/Template shot (models under it)")

    @field_validator("A")
    @classmethod
    def _a(cls, v: object) -> object:
        return dice_text(v, 0, 50, "A")

    @field_validator("hits")
    @classmethod
    def _hits(cls, v: object) -> object:
        return dice_text(v, 0, 30, "hits")

    @field_validator("S", mode="before")
    @classmethod
    def _s(cls, v: object) -> object:
        if isinstance(v, bool):
            raise ValueError("S is a number 1-10, or for melee weapons User, +N or xN")
        if isinstance(v, int):
            if not 1 <= v <= 10:
                raise ValueError(f"S is 1 to 10 (got {v})")
            return v
        if isinstance(v, str) and _REL_S.match(v.strip().lower()):
            return v.strip().lower()
        raise ValueError("S is a number 1-10, or for melee weapons User, +N or xN")

    @field_validator("AP", mode="before")
    @classmethod
    def _ap(cls, v: object) -> object:
        if v is None or v == "-":
            return None
        if isinstance(v, bool) or not isinstance(v, int) or not 1 <= v <= 6:
            raise ValueError(f"AP is 1 to 6, or '-' for none (got {v!r})")
        return v

    @property
    def is_melee(self) -> bool:
        return any(isinstance(r, str) and r.strip().lower() == "melee" for r in self.rules)

    @model_validator(mode="after")
    def _shots(self) -> Weapon:
        if not self.is_melee and self.A is None:
            raise ValueError("a ranged weapon needs A (its shots); add 'Melee' to rules for a melee weapon")
        if not self.is_melee and isinstance(self.S, str):
            raise ValueError("only melee weapons have a relative S (User, +N, xN)")
        return self


class AttackingModel(StrictModel):
    name: str = "model"
    count: Count = 1
    WS: Char = 4
    BS: Char = 4
    S: Char = 4
    I: Char = 4  # noqa: E741 (the Initiative characteristic)
    A: Annotated[Int, Field(ge=1, le=10)] = 1
    Sv: RollTarget | None = None
    invulnerable: RollTarget | None = None
    FNP: RollTarget | None = None
    T: Char | None = Field(None, description="needed in a fight, where the defender strikes back")
    W: Annotated[Int, Field(ge=1, le=20)] = 1
    eternal_warrior: Flag = False
    weapons: Annotated[list[Weapon], UniqueNames] = Field(min_length=1, max_length=MAX_WEAPONS)


class AttackingUnit(StrictModel):
    """The attacking unit; in a fight its models are also listed closest to the enemy first."""

    name: str = "attacker"
    models: Annotated[list[AttackingModel], UniqueNames] = Field(min_length=1, max_length=MAX_WEAPONS)


class DefendingModel(StrictModel):
    name: str = "model"
    count: Count = 1
    WS: Char = 4
    T: Char
    W: Annotated[Int, Field(ge=1, le=20)] = 1
    I: Char = 4  # noqa: E741 (the Initiative characteristic)
    S: Char = 4
    A: Annotated[Int, Field(ge=1, le=10)] = 1
    weapons: Annotated[list[Weapon], UniqueNames] = Field(
        default_factory=list, max_length=MAX_WEAPONS, description="Melee weapons it fights with"
    )
    Sv: RollTarget | None = None
    invulnerable: RollTarget | None = None
    FNP: RollTarget | None = None
    shrouded: RollTarget | None = None
    eternal_warrior: Flag = False
    character: Flag = False
    support_unit: Int | None = Field(None, ge=0, le=10, description="Support Unit (X)")
    infiltrate: Int | None = Field(None, ge=0, le=36, description='Infiltrate (X)"')


class DefendingUnit(StrictModel):
    """The target; ``models`` are listed closest to the attacker first (allocation order). Their
    names are unique: ``conditions.precision_target`` and ``conditions.challenge`` pick a model by
    name, the result reports the chosen model by name, and in a fight the defender's strike groups
    are named after its models."""

    name: str = "defender"
    models: Annotated[list[DefendingModel], UniqueNames] = Field(min_length=1, max_length=MAX_WEAPONS)
    cover: RollTarget | None = Field(None, description="cover save X+ against Shooting Attacks")
    type: str = "infantry"
    heavy: Flag = Field(
        False, description="only Heavy sub-type models: re-roll failed armour saves vs Blast/Template"
    )

    @field_validator("type")
    @classmethod
    def _type(cls, v: str) -> str:
        if v.lower() not in UNIT_TYPES:
            raise ValueError(f"unknown unit type {v!r}; allowed: {', '.join(UNIT_TYPES)}")
        return v.lower()

    @model_validator(mode="after")
    def _size(self) -> DefendingUnit:
        n = sum(m.count for m in self.models)
        if n > MAX_MODELS:
            raise ValueError(f"a unit has at most {MAX_MODELS} models, this one {n}")
        return self


class Conditions(StrictModel):
    """The situation: Snap Shots, the charge, a Challenge, and the Precision target."""

    snap_shots: Flag = False
    charged: Flag = Field(False, description="+1 Attack to each charging model in melee")
    multiple_enemies_in_contact: Flag = Field(False, description="Reaping Blow (X) applies")
    challenge: str | None = Field(None, description="the defending model engaged in a Challenge")
    precision_target: str | None = Field(None, description="the model Precision wounds are allocated to")
    fight: Flag = Field(False, description="both units strike, by Initiative step; combat resolution")
    ws_chart: Literal["classic"] | WsChart = Field(
        "classic",
        description="melee To Hit: classic (3+ vs lower WS, 5+ vs more than double, else 4+) or the "
        "book's table as 10 rows (attacker WS 1-10) of 10 rolls (target WS 1-10), each 2-6",
    )

    @field_validator("ws_chart")
    @classmethod
    def _chart_shape(cls, chart: str | list[list[int]]) -> str | list[list[int]]:
        """A WS chart is 10 rows (attacker WS 1-10) of 10 rolls (target WS 1-10), each 2+ to 6+."""
        if isinstance(chart, str):
            return chart
        if len(chart) != 10 or any(len(row) != 10 for row in chart):
            raise ValueError(
                f"classic, or 10 rows (attacker WS 1-10) of 10 rolls (target WS 1-10); got {len(chart)} rows"
                + "".join(f", row {i + 1}: {len(r)} rolls" for i, r in enumerate(chart) if len(r) != 10)
            )
        for i, row in enumerate(chart):
            for j, x in enumerate(row):
                if not 2 <= x <= 6:
                    raise ValueError(f"attacker WS {i + 1} against WS {j + 1}: {x}; each roll is 2 to 6")
        return chart


class Scenario(StrictModel):
    system: Literal["heresy"] = "heresy"
    title: str = ""
    attacker: AttackingUnit
    defender: DefendingUnit
    conditions: Conditions = Field(default_factory=Conditions)
