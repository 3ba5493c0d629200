"""Validated profiles -> the resolved values the engines use (dice pools, effect codes, bodies)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from grimdice.errors import ScenarioError
from grimdice.systems.crusade.damage import CODE, Body, State
from grimdice.systems.crusade.profiles import Model, Scenario
from grimdice.systems.crusade.rolls import Pool, parse_pool
from grimdice.systems.crusade.rules import FAILS, GRAZES, RULES

#: VIII EXPLODE: "SFT=1"A, FT=2"A, HFT=3"A" (the flamer templates' explosion radii, inches)
TEMPLATES = {"SFT": 1, "FT": 2, "HFT": 3}

# the graze codes as the rule table's fields
_GRAZE_FIELD = {"stun": "stun", "wound": "wound", "ko": "ko", "kill": "kill"}


@dataclass(frozen=True)
class Arm:
    """A resolved weapon."""

    name: str
    pool: Pool
    kind: str
    fx: dict[str, Any]
    template: str = ""  # VIII: the flamer template's code as written (SFT, FT, HFT), if any

    @property
    def grazes(self) -> frozenset[str]:
        return frozenset(g for g in GRAZES if self.fx.get(_GRAZE_FIELD[g]))

    @property
    def fail(self) -> str:
        return next((f for f in FAILS if self.fx.get(f)), "none")


@dataclass(frozen=True)
class Fighter:
    """A resolved model."""

    name: str
    kind: str
    armour: int
    body: Body
    start: State
    melee: Pool | None
    fx: dict[str, Any]
    arms: tuple[Arm, ...] = field(default=())

    def has(self, key: str) -> bool:
        return bool(self.fx.get(key))


def fighter(m: Model, where: str) -> Fighter:
    fx = RULES.parse(m.abilities, f"{where}.abilities")
    arms = []
    for i, w in enumerate(m.weapons):
        wfx = RULES.parse(w.effects, f"{where}.weapons.{i}.effects")
        template = next(
            (str(e).strip().upper() for e in w.effects if str(e).strip().upper() in TEMPLATES), ""
        )
        arms.append(Arm(w.name, parse_pool(w.dice, f"{where}.weapons.{i}.dice"), w.kind, wfx, template))
    for i, a in enumerate(arms):
        if fx.get("stupid") or (fx.get("animal") and a.kind != "spiky"):
            who = (
                "STUPID models may not use weapons"
                if fx.get("stupid")
                else "ANIMAL models use only spiky weapons"
            )
            raise ScenarioError(f"{where}.weapons.{i}", f"{who} (IX); {a.name!r} is a {a.kind} weapon")
    hits_left = m.hits if m.hits_left is None else m.hits_left
    if hits_left > m.hits:
        raise ScenarioError(f"{where}.hits_left", f"at most the model's hits ({m.hits}), got {hits_left}")
    body = Body(
        hits=m.hits,
        undead=bool(fx.get("undead")),
        ignore_stun=bool(fx.get("is")),
        nsb=bool(fx.get("nsb")),
        kb_immune=bool(fx.get("heavy") or fx.get("big")),
        force_field=bool(fx.get("force_field")),
        swarm=bool(fx.get("swarm")),
        fly=bool(fx.get("fly")),
        size=size_of(m.kind, fx),
    )
    melee = None if m.melee is None else parse_pool(m.melee, f"{where}.melee", allow_empty=True)
    return Fighter(m.name, m.kind, m.armour, body, (CODE[m.condition], hits_left), melee, fx, tuple(arms))


def size_of(kind: str, fx: dict[str, Any]) -> int:
    """V CARRYING: "Size range: SMALL < normal models < HEAVY < BIG and Light Vehicles < VEHICLES"
    as 0 .. 4 (IX: "Big models also count as HEAVY")."""
    if kind == "vehicle":
        return 4
    if fx.get("big"):
        return 3
    if fx.get("heavy"):
        return 2
    return 0 if fx.get("small") else 1


def chosen_arms(sc: Scenario, att: Fighter, kinds: tuple[str, ...]) -> tuple[Arm, ...]:
    """The attacker's weapons used: those named in ``weapons`` (else every weapon of ``kinds``)."""
    if sc.weapons is None:
        return tuple(a for a in att.arms if a.kind in kinds)
    names = {a.name: a for a in att.arms}
    out = []
    for i, n in enumerate(sc.weapons):
        if n not in names:
            raise ScenarioError(
                f"weapons.{i}", f"no attacker weapon {n!r}; allowed: {', '.join(names) or 'none'}"
            )
        if names[n].kind not in kinds:
            raise ScenarioError(
                f"weapons.{i}", f"{n!r} is a {names[n].kind} weapon; {sc.action} uses {', '.join(kinds)}"
            )
        out.append(names[n])
    return tuple(out)


__all__ = ["Arm", "Fighter", "chosen_arms", "fighter", "size_of"]
