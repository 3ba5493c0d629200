"""Validated Kill Team (2021) data: operative datacards, weapon profiles, targets and the scenario.

Characteristic names are the game's own: M, APL, GA, DF, SV, W (operatives); A, BS/WS, D
(weapons, D written ``"3/4"`` for normal/critical damage). Rolls are written ``3`` or ``"3+"``;
distances in inches or as shapes (triangle, circle, square, pentagon).
"""

from __future__ import annotations

from enum import StrEnum
from typing import Annotated, Any, Literal

from pydantic import BeforeValidator, Field, ValidationInfo, field_validator, model_validator

from grimdice.engine.table.bases import Base, distance
from grimdice.io.fields import (
    Flag,
    Int,
    Number,
    RangedOrMeleeWeapon,
    StrictModel,
    UniqueNames,
    applies,
    unique_names,
)

MAX_DICE = 12
MAX_WOUNDS = 40
MAX_SHOTS = 8
MAX_NEARBY = 8
INJURED_PENALTY = 1  # 2021 core book: an injured operative's BS/WS are worsened by 1


def _roll(v: object) -> object:
    """``3``, ``"3"`` or ``"3+"`` -> 3."""
    if isinstance(v, str):
        t = v.strip().removesuffix("+")
        if t.isdigit():
            return int(t)
        raise ValueError(f"a roll is written 3 or '3+', got {v!r}")
    return v


def _distance(v: object) -> object:
    if v is None or (isinstance(v, (int, float)) and not isinstance(v, bool)):
        return v
    from grimdice.errors import ScenarioError
    from grimdice.systems.killteam.rules import parse_distance

    try:
        return parse_distance(v, "")
    except ScenarioError as exc:
        raise ValueError(exc.message) from None


def _damage(v: object) -> object:
    """``"3/4"`` -> (3, 4); a single number ``3`` means 3/3."""
    if isinstance(v, bool):
        raise ValueError("damage is written normal/critical, e.g. '3/4'")
    if isinstance(v, int):
        return (v, v)
    if isinstance(v, dict) and set(v) == {"normal", "critical"}:
        return (v["normal"], v["critical"])
    if isinstance(v, (list, tuple)) and len(v) == 2:
        return tuple(v)
    if isinstance(v, str):
        parts = v.replace(" ", "").split("/")
        if len(parts) == 2 and all(p.isdigit() for p in parts):
            return (int(parts[0]), int(parts[1]))
    raise ValueError(f"damage is written normal/critical, e.g. '3/4', got {v!r}")


RollTarget = Annotated[Int, BeforeValidator(_roll), Field(ge=2, le=6)]
SaveRoll = Annotated[Int, BeforeValidator(_roll), Field(ge=2, le=7)]
Distance = Annotated[Number, BeforeValidator(_distance), Field(ge=0, le=100)]
Damage = Annotated[
    tuple[Annotated[Int, Field(ge=0, le=20)], Annotated[Int, Field(ge=0, le=20)]], BeforeValidator(_damage)
]


class Order(StrEnum):
    ENGAGE = "engage"
    CONCEAL = "conceal"


class Position(StrictModel):
    """Where an operative stands, seen from above: inches, with its base diameter in mm."""

    x: Number = Field(ge=-100, le=100)
    y: Number = Field(ge=-100, le=100)
    z: Number = Field(0.0, ge=0, le=50, description="height above the killzone floor")
    base: Number = Field(32.0, gt=0, le=200, description="base diameter in mm")

    def distance(self, other: Position) -> float:
        """Closest distance between the two bases (grimdice.engine.table.bases)."""
        return distance(Base(self.x, self.y, self.base, self.z), Base(other.x, other.y, other.base, other.z))


class Weapon(RangedOrMeleeWeapon):
    """A weapon profile: ranged (BS) or melee (WS), damage normal/critical, rules and ! rules."""

    name: str = "weapon"
    A: Int = Field(ge=1, le=MAX_DICE)
    BS: RollTarget | None = None
    WS: RollTarget | None = None
    D: Damage
    rules: list[Any] = Field(default_factory=list, description="special rules, e.g. 'Lethal 5+', 'AP1'")
    critical: list[Any] = Field(default_factory=list, description="critical hit (!) rules, e.g. 'MW3'")


class Operative(StrictModel):
    """An operative datacard (and its current state: ``wounds`` left, ``order``)."""

    name: str = "operative"
    M: Distance = 6.0
    APL: Int = Field(2, ge=0, le=4)
    GA: Int = Field(1, ge=1, le=10)
    DF: Int = Field(3, ge=0, le=MAX_DICE)
    SV: SaveRoll = 4
    W: Int = Field(ge=1, le=MAX_WOUNDS)
    wounds: Int | None = Field(None, ge=1, le=MAX_WOUNDS, description="wounds left (default: W)")
    invulnerable: RollTarget | None = Field(None, description="Invulnerable Save x+")
    rules: list[Any] = Field(default_factory=list, description="e.g. 'Invulnerable Save 4+'")
    order: Order = Order.ENGAGE
    weapons: Annotated[list[Weapon], UniqueNames] = Field(
        default_factory=list, max_length=20, description="picked by name (shots, fights): names are unique"
    )
    position: Position | None = Field(None, description="for distances not given explicitly")

    @model_validator(mode="after")
    def _wounds(self) -> Operative:
        if self.wounds is not None and self.wounds > self.W:
            raise ValueError(f"wounds left ({self.wounds}) cannot exceed W ({self.W})")
        return self

    @property
    def wounds_left(self) -> int:
        return self.W if self.wounds is None else self.wounds

    @property
    def injured(self) -> bool:
        """Injured (2021 core book): fewer than half its starting wounds remaining."""
        return 2 * self.wounds_left < self.W

    def gap(self, other: Operative, given: float | None = None) -> float | None:
        """``given`` if set, else the distance between the two positions (if both are known)."""
        if given is not None:
            return given
        if self.position is None or other.position is None:
            return None
        return self.position.distance(other.position)

    def skill_with(self, weapon: Weapon) -> int:
        """BS/WS of ``weapon`` in this operative's hands: worsened by 1 while injured (2021 core
        book); 7 means only a 6 (always a critical hit) succeeds."""
        return weapon.skill + (INJURED_PENALTY if self.injured else 0)


class Target(Operative):
    """The operative shot at, with its situation relative to the shooter."""

    cover: Flag = Field(False, description="in Cover (may retain one normal save)")
    hidden_from_above: Flag = Field(
        False, description="part of the base hidden from directly above (Barrage)"
    )
    obscured: Flag = False
    distance: Distance | None = Field(None, description="from the shooter")


class Nearby(Target):
    """Another enemy operative near the primary target (Blast, Torrent, Fusillade, Splash)."""

    distance_to_target: Distance | None = Field(None, description="from the primary target (or positions)")
    visible_to_target: Flag = Field(True, description="Visible to the primary target (Blast)")
    distance_to_attacker: Distance | None = Field(None, description="from the attacker (Reap)")
    visible_to_attacker: Flag = Field(True, description="Visible to the attacker (Reap)")
    distances: dict[str, Distance] = Field(default_factory=dict, description="to other nearby operatives")


class Action(StrEnum):
    NORMAL_MOVE = "normal move"
    FALL_BACK = "fall back"
    CHARGE = "charge"
    DASH = "dash"
    SHOOT = "shoot"
    FIGHT = "fight"
    OVERWATCH = "overwatch"
    PICK_UP = "pick up"
    OTHER = "other"


def _action(v: object) -> object:
    if isinstance(v, str):
        t = " ".join(v.strip().lower().replace("_", " ").replace("-", " ").split())
        if t not in {a.value for a in Action}:
            raise ValueError(f"unknown action {v!r}; allowed: {', '.join(a.value for a in Action)}")
        return t
    return v


class Activation(StrictModel):
    """The activation in which the shot is taken: order, actions (in order), AP, earlier uses."""

    order: Order | None = Field(None, description="the order it takes (default: the operative's order)")
    actions: list[Annotated[Action, BeforeValidator(_action)]] = Field(default_factory=lambda: [Action.SHOOT])
    APL: Int | None = Field(
        None, ge=0, le=6, description="action points available (default: the operative's)"
    )
    uses_before: Int = Field(0, ge=0, le=20, description="times this weapon was already selected this battle")


#: objectives each side may optimise, by action
SHOOT_OBJECTIVES = {"attacker": ("damage", "kill"), "defender": ("damage", "survival")}
FIGHT_OBJECTIVES = ("kill", "damage_dealt", "damage_taken")


class Objectives(StrictModel):
    """What each side optimises. Shooting: attacker ``damage`` (expected wounds lost) or ``kill``,
    defender ``damage`` (minimise expected wounds lost) or ``survival``; defaults ``damage``.
    Fights: each side ``kill`` (default), ``damage_dealt`` or ``damage_taken``."""

    attacker: str | None = None
    defender: str | None = None

    def resolved(self, action: str) -> tuple[str, str]:
        from grimdice.errors import ScenarioError

        out = []
        for side in ("attacker", "defender"):
            v = getattr(self, side)
            allowed = SHOOT_OBJECTIVES[side] if action == "shoot" else FIGHT_OBJECTIVES
            if v is None:
                v = allowed[0]
            if v not in allowed:
                raise ScenarioError(
                    f"objectives.{side}",
                    f"{v!r} is not an objective for {action}; allowed: {', '.join(allowed)}",
                )
            out.append(v)
        return out[0], out[1]


class Shot(StrictModel):
    """One shooting attack of the sequence: who shoots with which weapon."""

    attacker: str | None = None
    weapon: str | None = None
    distance: Distance | None = Field(None, description="to the target (default: target.distance)")
    activation: Activation | None = None
    split: dict[str, Int] | None = Field(None, description="Fusillade: attack dice per target name")


class Scenario(StrictModel):
    system: Literal["killteam"] = "killteam"
    action: Literal["shoot", "fight"] = "shoot"
    title: str = ""
    attacker: Operative | None = None
    attackers: Annotated[list[Operative], UniqueNames] | None = Field(
        None, min_length=1, max_length=MAX_SHOTS
    )
    shots: list[Shot] | None = Field(None, min_length=1, max_length=MAX_SHOTS)
    target: Target | None = None
    targets: Annotated[list[Target], UniqueNames] | None = Field(
        None, min_length=1, max_length=20, description="one attack against each of these profiles"
    )
    nearby: Annotated[list[Nearby], UniqueNames] = Field(default_factory=list, max_length=MAX_NEARBY)

    @field_validator("nearby")
    @classmethod
    def _nearby_named_apart_from_targets(cls, nearby: list[Nearby], info: ValidationInfo) -> list[Nearby]:
        """A result's per-operative sub-results (and a Fusillade ``split``) are keyed by name: no
        nearby operative may share a name with the target (or one of the targets)."""
        for t in [info.data.get("target"), *(info.data.get("targets") or [])]:
            if t is not None:
                unique_names([t, *nearby])
        return nearby

    objectives: Objectives = Field(default_factory=Objectives)
    # fights
    weapon: str | None = Field(
        None, description="fight: the attacker's melee weapon", json_schema_extra=applies(action=["fight"])
    )
    defender_weapon: str | None = Field(
        None, description="fight: the target's melee weapon", json_schema_extra=applies(action=["fight"])
    )

    @model_validator(mode="after")
    def _shape(self) -> Scenario:
        if (self.attacker is None) == (self.attackers is None):
            raise ValueError("give exactly one of attacker (one operative) or attackers (a list)")
        if (self.target is None) == (self.targets is None):
            raise ValueError("give exactly one of target (one operative) or targets (a list to compare)")
        return self

    @property
    def attacker_list(self) -> list[Operative]:
        return [self.attacker] if self.attacker is not None else list(self.attackers or [])

    @property
    def target_list(self) -> list[Target]:
        return [self.target] if self.target is not None else list(self.targets or [])
