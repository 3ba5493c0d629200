"""Rules Crusade scenario and profile models (``system: crusade``); see ``docs/crusade.md``.

Dice are written as in the rules (``2W+1R``, ``1R+1``); effect codes and abilities as in sections
VIII and IX (``[J, S, AP]``, ``["+F", IS]``), read by :data:`~.rules.RULES`.
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field

from grimdice.io.fields import Flag, Int, Number, StrictModel, Text, UniqueNames, applies

MAX_HITS = 20
MAX_WEAPONS = 8


class Weapon(StrictModel):
    """A weapon: its dice, kind (section IV: melee weapons parry, pistols add to melee, spiky only
    when defending) and effect codes."""

    name: Text = Field("weapon", min_length=1, max_length=60)
    dice: Text | Int
    kind: Literal["ranged", "melee", "pistol", "spiky", "shield", "grenade"] = "ranged"
    effects: list[Text] = Field(default_factory=list, max_length=40)


class Model(StrictModel):
    """A model (or a vehicle, or a structure: a building sector, barricade or catwalk: ``kind``) with
    armour and hits (sections II, VI)."""

    name: Text = Field("model", min_length=1, max_length=60)
    kind: Literal["model", "building", "barricade", "catwalk", "vehicle"] = "model"
    armour: Int = Field(0, ge=0, le=10, alias="armor")
    hits: Int = Field(1, ge=0, le=MAX_HITS)
    hits_left: Int | None = Field(None, ge=0, le=MAX_HITS)
    condition: Literal["unharmed", "stunned", "wounded", "ko"] = "unharmed"
    melee: Text | Int | None = None  # base melee dice, e.g. 1W+1R
    abilities: list[Text] = Field(default_factory=list, max_length=40)
    weapons: Annotated[list[Weapon], UniqueNames] = Field(default_factory=list, max_length=MAX_WEAPONS)


class Target(Model):
    """One of many targets (section VIII templates, split fire), with its own range, cover and what
    lies beyond it (VIII KNOCKBACK; default: the scenario's)."""

    range: Number | None = Field(None, ge=0, le=240)
    cover: Literal["none", "front", "full", "armoured", "smoke", "darkness"] | None = None
    knockback_into: Literal["open", "obstacle"] | None = None


#: the fields of a melee contest (IV), which a mind war (VII) fights as well
CONTEST = applies(action=["melee", "mindwar"])


class Scenario(StrictModel):
    """One attack: ``shoot`` (the attacker's ranged weapons, combined) or ``melee``."""

    system: Literal["crusade"]
    title: Text = Field("", max_length=200)
    action: Literal["shoot", "melee", "mindwar"] = "shoot"
    psychic_attack: Literal["mind war", "mind lance", "mind blast"] = Field(
        "mind war", json_schema_extra=applies(action=["mindwar"])
    )  # VII
    attacker: Model
    defender: Model
    weapons: Annotated[list[Text], UniqueNames] | None = Field(
        None, min_length=1, max_length=MAX_WEAPONS
    )  # names of the attacker's weapons used, each once (default: all that apply)
    range: Number = Field(0.0, ge=0, le=240)  # inches between firer and target (section II)
    cover: Literal["none", "front", "full", "armoured", "smoke", "darkness"] = "none"  # II, V, VI
    moved: Flag = False  # the firer moved this turn (SCOPE, SNIPER)
    latch: Literal["none", "target", "firer"] = "none"  # IX LATCH ON: a latcher on the target / firer
    knockback_into: Literal["open", "obstacle", "edge"] = "open"  # VIII KNOCKBACK
    fall: Number = Field(0.0, ge=0, le=120)  # inches fallen when knocked back off an edge (V FALLING)
    # IV PARRYING, for the defender
    parry: Literal["optimal", "always", "never"] = Field("optimal", json_schema_extra=CONTEST)
    awkward: Flag = Field(False, json_schema_extra=CONTEST)  # IV: the attacker is at awkward melee (a ladder)
    # IV: the n-th successive opponent meleed this turn
    opponent_number: Int = Field(1, ge=1, le=8, json_schema_extra=CONTEST)
    # VIII SPIKY, V DIVE ATTACK
    attack_mode: Literal["normal", "zoc", "dive", "overrun"] = Field("normal", json_schema_extra=CONTEST)
    # IX MOB: models joining the attacker
    mob: list[Model] = Field(default_factory=list, max_length=5, json_schema_extra=CONTEST)
    # IX VOLLEY FIRE: models firing 2-white basic weapons as one roll
    volley: Int = Field(0, ge=0, le=12, json_schema_extra=applies(action=["shoot"]))
    targets: Annotated[list[Target], UniqueNames] = Field(
        default_factory=list, max_length=6
    )  # VIII LINE/BLAST/FT/*/Rap
    explode_near: Annotated[list[Target], UniqueNames] = Field(
        default_factory=list, max_length=6
    )  # VIII EXPLODE: models near the bearer (range: inches from him), hit if within the radius
    inside: Annotated[list[Model], UniqueNames] = Field(
        default_factory=list, max_length=6
    )  # VI: models in the building shot at (2 reds when it collapses) or on the catwalk (they fall)
    connected: Annotated[list[Model], UniqueNames] = Field(
        default_factory=list, max_length=6
    )  # VI: building sectors connected to the one shot at (2 reds of collateral when it collapses)
    catwalk_height: Number = Field(0.0, ge=0, le=120)  # VI, V FALLING: inches a destroyed catwalk falls


__all__ = ["Model", "Scenario", "Target", "Weapon"]
