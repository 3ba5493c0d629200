"""From validated scenario data to the values the attack sequence uses.

Snap Shots, the charge, Challenges and Precision targets are applied here once, so the exact and
the simulated engines resolve exactly the same strike groups and defending model profiles.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, replace

from grimdice.dice.expr import DiceExpr, parse
from grimdice.errors import ScenarioError
from grimdice.systems.heresy.profiles import AttackingModel, DefendingModel, Scenario, Weapon
from grimdice.systems.heresy.rolls import (
    NEVER,
    bs_hit_target,
    bs_reroll_target,
    instant_death,
    save_choice,
    save_target,
    wound_chart,
    ws_hit_target,
)
from grimdice.systems.heresy.rules import WeaponRules, parse_rules

MAX_TOTAL_ATTACKS = 1000
WALL_OF_DEATH = parse("D3")  # a Template fired as a Snap Shot inflicts D3 hits


@dataclass(frozen=True)
class Profile:
    """One defending model, in allocation order."""

    name: str
    T: int
    W: int
    Sv: int
    invulnerable: int
    fnp: int
    shrouded: int
    eternal_warrior: bool


@dataclass(frozen=True)
class Target:
    name: str
    profiles: tuple[Profile, ...]  # closest first; in a Challenge only the engaged model
    precision_index: int | None  # the model Precision wounds go to (None: no Precision attacks)
    cover: int
    T: int  # the unit's Toughness for Wound rolls (majority, ties: highest)
    WS: int  # the unit's WS for the melee To Hit chart (majority, ties: highest)
    type: str
    challenge: bool
    heavy: bool = False  # Heavy sub-type: re-roll failed armour saves against Blast and Template


@dataclass(frozen=True)
class StrikeGroup:
    """One weapon profile fired (or swung) by ``models`` identical models, conditions applied."""

    name: str
    models: int
    shots: DiceExpr  # attacks (shots) per model, bonuses included
    melee: bool
    S: int
    AP: int  # NEVER: no AP
    special_AP: int  # AP of Rending/Breaching wounds
    rules: WeaponRules
    hit_target: int  # 0: no To Hit roll (Blast, Barrage, Template)
    reroll_target: int | None  # a failed To Hit roll is re-rolled needing this
    may_reroll_hits: bool  # BS 6+ or Twin-linked: also re-rolls a Gets Hot 1 of a weapon with no To Hit roll
    hits_per_shot: DiceExpr  # Blast/Barrage/Template: hits of one shot
    precision: int  # NEVER: cannot make Precision Hits
    wound_target: int
    wound_reroll: bool
    ignores_cover: bool
    initiative: int
    firer_save: int  # Gets Hot: the firer's save against the weapon's own AP (no cover)
    firer_fnp: int

    @property
    def rolls_to_hit(self) -> bool:
        return self.hit_target > 0

    def save(self, p: Profile, special: bool, target: Target) -> tuple[int, bool]:
        """``(target number, armour re-rolled)`` of the save ``p`` takes against a wound of this
        group (AP 2 for a Rending/Breaching wound; cover only against shooting)."""
        ap = self.special_AP if special else self.AP
        cover = NEVER if self.melee or self.ignores_cover else target.cover
        heavy = target.heavy and (self.rules.blast or self.rules.barrage or self.rules.template)
        return save_choice(p.Sv, ap, p.invulnerable, cover, heavy)

    def is_instant_death(self, p: Profile) -> bool:
        return instant_death(self.S, p.T, self.rules.instant_death)


def majority(values: list[tuple[int, int]]) -> int:
    """The value most models have (ties: the highest), from ``(value, count)`` pairs."""
    c: Counter[int] = Counter()
    for v, n in values:
        c[v] += n
    return max(c, key=lambda v: (c[v], v))


def _profile(m: DefendingModel) -> Profile:
    opt = lambda x: NEVER if x is None else x  # noqa: E731
    return Profile(
        m.name, m.T, m.W, opt(m.Sv), opt(m.invulnerable), opt(m.FNP), opt(m.shrouded), m.eternal_warrior
    )


def _find(models: list[DefendingModel], name: str, field: str) -> int:
    """Index (in allocation order, models expanded) of the first model called ``name``."""
    i = 0
    for m in models:
        if m.name == name:
            return i
        i += m.count
    names = ", ".join(dict.fromkeys(m.name for m in models))
    raise ScenarioError(field, f"no defending model called {name!r}; models: {names}")


def resolve_target(sc: Scenario, any_precision: bool) -> Target:
    d, c = sc.defender, sc.conditions
    queue = tuple(p for m in d.models for p in [_profile(m)] * m.count)
    precision: int | None = None
    if c.challenge is not None:
        # Models Engaged in a Challenge may only allocate to the enemy model in the same Challenge
        i = _find(d.models, c.challenge, "conditions.challenge")
        if c.precision_target is not None and c.precision_target != c.challenge:
            raise ScenarioError(
                "conditions.precision_target",
                f"in a Challenge Precision may only choose the engaged model {c.challenge!r}",
            )
        queue = (queue[i],)
        precision = 0 if any_precision else None
    elif any_precision:
        if c.precision_target is not None:
            precision = _find(d.models, c.precision_target, "conditions.precision_target")
        else:
            chars = [i for i, m in enumerate(m for m in d.models for _ in range(m.count)) if m.character]
            precision = chars[0] if chars else len(queue) - 1
    elif c.precision_target is not None:
        _find(d.models, c.precision_target, "conditions.precision_target")
    return Target(
        name=d.name,
        profiles=queue,
        precision_index=precision,
        cover=NEVER if d.cover is None else d.cover,
        T=majority([(m.T, m.count) for m in d.models]),
        WS=majority([(m.WS, m.count) for m in d.models]),
        type=d.type,
        challenge=c.challenge is not None,
        heavy=d.heavy,
    )


def _strength(w: Weapon, m: AttackingModel | DefendingModel) -> int:
    if isinstance(w.S, int):
        return w.S
    if w.S == "user":
        return m.S
    if w.S.startswith("+"):
        return min(10, m.S + int(w.S[1:]))
    return min(10, m.S * int(w.S[1:]))


def _add(e: DiceExpr, k: int) -> DiceExpr:
    return e if k == 0 else DiceExpr(e.terms, e.constant + k, f"{e}+{k}")


def strike_group(
    sc: Scenario,
    t: Target,
    m: AttackingModel | DefendingModel,
    where: str,
    w: Weapon,
    name: str,
    charged: bool,
) -> StrikeGroup:
    """The strike group of weapon ``w`` (at ``where``) of the model entry ``m`` against ``t``;
    ``charged``: +1 Attack in melee. A defending model (in a fight) has only Melee weapons."""
    c = sc.conditions
    r = parse_rules(w.rules, f"{where}.rules")
    if r.melee and r.gets_hot:
        r = replace(r, gets_hot=False)  # Gets Hot applies when firing a weapon
    if c.challenge is not None and not r.melee:
        raise ScenarioError(
            "conditions.challenge", f"a Challenge is fought in melee; {w.name!r} is not a Melee weapon"
        )
    S = _strength(w, m)
    AP = NEVER if w.AP is None else w.AP
    hits = parse(w.hits)
    if r.melee:
        shots = _add(parse(w.A if w.A is not None else m.A), (1 if charged else 0))
        if r.reaping_blow and c.multiple_enemies_in_contact:
            shots = _add(shots, r.reaping_blow)
        chart = None if c.ws_chart == "classic" else c.ws_chart
        hit, reroll = ws_hit_target(m.WS, t.WS, chart), None
        may_reroll = r.twin_linked
    else:
        assert w.A is not None  # the Weapon model requires A for a ranged weapon
        shots = parse(w.A)
        bs = 1 if c.snap_shots else getattr(m, "BS", 1)  # Snap Shots are made at BS 1
        hit, reroll = bs_hit_target(bs), bs_reroll_target(bs)
        may_reroll = r.twin_linked or reroll is not None
        if r.no_hit_roll:
            hit, reroll = 0, None
            if c.snap_shots and not r.template:
                raise ScenarioError(
                    f"{where}.rules", "Blast and Barrage weapons cannot be fired as Snap Shots"
                )
            if c.snap_shots:
                hits = WALL_OF_DEATH
    if r.twin_linked and hit:
        reroll = hit  # re-roll failed To Hit rolls; the re-roll needs the same as the first roll
    precision = r.precision if r.may_trigger_precision and not (c.snap_shots and not r.melee) else NEVER
    wt = wound_chart(S, t.T)
    if r.fleshbane:
        wt = 2
    wt = min(wt, r.poisoned)
    reroll_wounds = (
        r.shred
        or (r.poisoned < NEVER and r.melee and S > t.T)
        or (r.armourbane and t.type in ("dreadnought", "automata"))
        or (r.twin_linked and r.template)
    )
    opt = lambda x: NEVER if x is None else x  # noqa: E731
    return StrikeGroup(
        name=name,
        models=m.count,
        shots=shots,
        melee=r.melee,
        S=S,
        AP=AP,
        special_AP=min(AP, 2) if r.melee and r.rending < NEVER else 2,
        rules=r,
        hit_target=hit,
        reroll_target=reroll,
        may_reroll_hits=may_reroll,
        hits_per_shot=hits,
        precision=precision,
        wound_target=wt,
        wound_reroll=reroll_wounds,
        ignores_cover=r.ignores_cover or r.template,
        initiative=1 if r.unwieldy else m.I,
        firer_save=save_target(opt(m.Sv), AP, opt(m.invulnerable), NEVER),
        firer_fnp=opt(m.FNP),
    )


def initiative_order(groups: list[StrikeGroup]) -> list[StrikeGroup]:
    """Shooting groups in the order listed, then melee Strike Groups by Initiative step, highest
    first (Unwieldy strikes at step 1); ties keep the listed order."""
    ranged = [g for g in groups if not g.melee]
    melee = sorted((g for g in groups if g.melee), key=lambda g: -g.initiative)
    return ranged + melee


def initiative_steps(groups: list[StrikeGroup]) -> list[dict]:
    """The Initiative steps of the melee Strike Groups: ``[{"initiative": I, "groups": [...]}]``."""
    steps: dict[int, list[str]] = {}
    for g in initiative_order(groups):
        if g.melee:
            steps.setdefault(g.initiative, []).append(g.name)
    return [{"initiative": i, "groups": names} for i, names in steps.items()]


def _attacker_weapons(sc: Scenario):
    """``(model entry, field path, weapon, group name)`` of every attacking weapon, as listed."""
    several = len(sc.attacker.models) > 1
    for mi, m in enumerate(sc.attacker.models):
        for wi, w in enumerate(m.weapons):
            yield m, f"attacker.models.{mi}.weapons.{wi}", w, f"{m.name}: {w.name}" if several else w.name


def resolve(sc: Scenario) -> tuple[Target, list[StrikeGroup]]:
    probe = Target("", (), None, NEVER, 1, 1, "infantry", False)
    any_precision = False
    for m, where, w, name in _attacker_weapons(sc):
        if strike_group(sc, probe, m, where, w, name, sc.conditions.charged).precision < NEVER:
            any_precision = True
    target = resolve_target(sc, any_precision)
    charged = sc.conditions.charged
    groups = [
        strike_group(sc, target, m, where, w, name, charged) for m, where, w, name in _attacker_weapons(sc)
    ]
    most = sum(g.models * g.shots.max * (g.hits_per_shot.max if not g.rolls_to_hit else 1) for g in groups)
    if most > MAX_TOTAL_ATTACKS:
        raise ScenarioError(
            "attacker", f"at most {MAX_TOTAL_ATTACKS} hits in one scenario, this one up to {most}"
        )
    return target, initiative_order(groups)
