"""Validated profiles -> the resolved values the engines use (dice pools, effect codes, bodies)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from grimdice.engine.rules import normalise
from grimdice.errors import ScenarioError
from grimdice.systems.crusade.damage import CODE, Body, State
from grimdice.systems.crusade.profiles import Model, Scenario
from grimdice.systems.crusade.rolls import Pool, parse_pool
from grimdice.systems.crusade.rules import FAILS, GRAZES, RULES

#: VI STRUCTURES AND BUILDINGS: the kinds that take hits with no graze and no condition
STRUCTURES = ("building", "barricade", "catwalk")

#: the weapon kinds a shooting action fires (II; VI grenades)
SHOOTING_KINDS = ("ranged", "pistol", "grenade")

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

    @property
    def grazes(self) -> frozenset[str]:
        """The model's own graze codes (a profile's "Melee OOOOOO W"): its base melee's grazes."""
        return frozenset(g for g in GRAZES if self.fx.get(_GRAZE_FIELD[g]))


#: the weapon codes a model's abilities may carry: its base melee's graze results (III, VIII)
_MODEL_GRAZES = frozenset(_GRAZE_FIELD.values())


def _check_placement(codes: list, where: str, model: bool) -> None:
    """A weapon code in a model's abilities (other than a graze of its base melee), or a model
    ability in a weapon's effects, would be ignored, and so would a code given twice (``J`` and
    ``JAM`` too): one clear error naming it instead."""
    seen: dict[tuple[str, str], int] = {}
    for i, raw in enumerate(codes):
        found = RULES.match(normalise(str(raw)))
        if found is None:
            continue
        rule, keyword = found[0], found[1]
        if (rule.key, keyword) in seen:
            first = f"{where}.{seen[rule.key, keyword]}"
            raise ScenarioError(f"{where}.{i}", f"{rule.name} is given twice (also at {first})")
        seen[rule.key, keyword] = i
        if not rule.effect:
            continue
        if model and rule.applies == "weapon" and rule.key not in _MODEL_GRAZES:
            raise ScenarioError(
                f"{where}.{i}", f"{rule.name} is a weapon effect: put it in a weapon's effects (VIII)"
            )
        if not model and rule.applies == "model":
            raise ScenarioError(f"{where}.{i}", f"{rule.name} is a model ability: put it in abilities (IX)")


def fighter(m: Model, where: str) -> Fighter:
    fx = RULES.parse(m.abilities, f"{where}.abilities")
    _check_placement(m.abilities, f"{where}.abilities", model=True)
    arms = []
    for i, w in enumerate(m.weapons):
        wfx = RULES.parse(w.effects, f"{where}.weapons.{i}.effects")
        _check_placement(w.effects, f"{where}.weapons.{i}.effects", model=False)
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
    if m.kind in STRUCTURES and m.condition != "unharmed":
        raise ScenarioError(f"{where}.condition", f"a {m.kind} takes no conditions (VI): only unharmed")
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
        structure=m.kind in STRUCTURES,
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


__all__ = ["SHOOTING_KINDS", "STRUCTURES", "Arm", "Fighter", "chosen_arms", "fighter", "size_of"]


#: work bounds of many targets (VIII), so what is allowed finishes in seconds (docs/limits.md)
MAX_FLAMER_ROLLS = 20_000  # joint rolls of a flamer template: one roll per target, all combined
MAX_SPLITS = 30_000  # (roll, split) pairs SPLIT FIRE compares to choose the best split of each total
SECONDS_PER_TARGET_STEP = 6e-5  # one target's outcome in one joint roll or split (a slow shared core)


def check_many_targets(pool: Pool, mode: str, targets: int, exact: bool) -> None:
    """Refuse at once, with an estimate, many-target work past the bounds: a flamer template's
    exact joint law enumerates every combination of the targets' rolls (the distinct (total,
    fail) outcomes of the pool to the power of the targets); SPLIT FIRE compares every split of
    every total among the targets (also when simulated: the trials play the exact choice)."""
    from math import comb

    from grimdice.systems.crusade.templates import total_high_law

    law = total_high_law(pool.white, pool.red)
    if mode == "flamer" and exact:
        rolls = len({(t, f) for t, _, f in law}) ** targets
        if rolls > MAX_FLAMER_ROLLS:
            raise ScenarioError(
                "targets",
                f"a flamer template of {pool.text} at {targets} targets is {rolls} joint rolls to solve "
                f"exactly (at most {MAX_FLAMER_ROLLS}; about {_seconds(rolls * targets)}); "
                "use --simulate N or fewer targets",
            )
    if mode == "split_fire":
        splits = sum(comb(max(0, t + pool.plus) + targets - 1, targets - 1) for t, _, _ in law)
        if splits > MAX_SPLITS:
            raise ScenarioError(
                "targets",
                f"SPLIT FIRE of {pool.text} among {targets} targets compares {splits} splits "
                f"(at most {MAX_SPLITS}; about {_seconds(splits * targets)}); use fewer dice or targets",
            )


def _seconds(steps: int) -> str:
    s = steps * SECONDS_PER_TARGET_STEP
    return f"{s:.0f} s" if s < 3600 else f"{s / 3600:.0f} hours" if s < 86400 * 365 else "years"
