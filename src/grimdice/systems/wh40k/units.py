"""From validated scenario data to the values the attack sequence uses.

Orders, range, movement and charge conditions are applied here once, so the exact and the
simulated engines resolve exactly the same weapon groups and defending model profiles.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from grimdice.dice.expr import DiceExpr, parse
from grimdice.systems.wh40k.orders import (
    active_order,
    rapid_fire_attack_bonus,
    save_with_order,
    skill_with_order,
)
from grimdice.systems.wh40k.profiles import DefendingModel, RerollPolicy, Scenario
from grimdice.systems.wh40k.rolls import CRIT, FACES, FAIL, cap, cover_applies, roll_result, wound_target
from grimdice.systems.wh40k.rules import WeaponAbilities, parse_abilities

MAX_TOTAL_ATTACKS = 2000


@dataclass(frozen=True)
class Profile:
    """A defending model's characteristics after Orders."""

    name: str
    Sv: int
    W: int
    invulnerable: int | None
    fnp: int | None
    fnp_mortal: int | None  # the Feel No Pain used against mortal wounds (the better of the two)
    damage_reduction: int
    halve_damage: bool
    character: bool


@dataclass(frozen=True)
class WeaponGroup:
    """One weapon profile fired (or swung) by ``models`` models, with every condition applied."""

    name: str
    models: int
    attacks: DiceExpr  # per model
    attack_bonus: int  # per model: Rapid Fire at half range, Blast, FIRST RANK FIRE
    melee: bool
    S: int
    AP: int
    damage: DiceExpr
    damage_bonus: int  # Melta at half range
    ab: WeaponAbilities
    hit_target: int
    hit_modifier: int
    wound_target: int
    wound_modifier: int
    critical_hit: int
    critical_wound: int
    reroll_hits: RerollPolicy
    reroll_wounds: RerollPolicy
    cover: bool  # the target has the Benefit of Cover against this weapon (before Sv/AP check)
    save_modifier: int

    def hit_reroll_faces(self) -> frozenset[int]:
        return _reroll_faces(self.reroll_hits, self.hit_target, self.hit_modifier, self.critical_hit)

    def wound_reroll_faces(self) -> frozenset[int]:
        policy = self.reroll_wounds
        if self.ab.twin_linked and policy in (RerollPolicy.NONE, RerollPolicy.ONES):
            policy = RerollPolicy.FAILED  # Twin-linked: re-roll the Wound roll (a failed one)
        return _reroll_faces(policy, self.wound_target, self.wound_modifier, self.critical_wound)


def _reroll_faces(policy: RerollPolicy, target: int, modifier: int, critical: int) -> frozenset[int]:
    if policy is RerollPolicy.NONE:
        return frozenset()
    if policy is RerollPolicy.ONES:
        return frozenset({1})
    if policy is RerollPolicy.FAILED:
        return frozenset(f for f in FACES if roll_result(f, target, modifier, critical) == FAIL)
    return frozenset(f for f in FACES if roll_result(f, target, modifier, critical) != CRIT)


@dataclass(frozen=True)
class Target:
    """The defending unit: Bodyguard models then attached Leaders, in allocation order."""

    name: str
    T: int
    bodyguard: tuple[Profile, ...]
    leaders: tuple[Profile, ...]
    model_count: int
    keywords: frozenset[str]
    cover: bool

    @property
    def all_profiles(self) -> tuple[Profile, ...]:
        return self.bodyguard + self.leaders


def _profiles(models: list[DefendingModel], order, character: bool) -> tuple[Profile, ...]:
    out = []
    for m in models:
        p = Profile(
            m.name,
            save_with_order(m.Sv, order),
            m.W,
            m.invulnerable,
            m.fnp,
            min((x for x in (m.fnp, m.FNP_mortal) if x is not None), default=None),
            m.damage_reduction,
            m.halve_damage,
            character,
        )
        out.extend([p] * m.count)
    return tuple(out)


def resolve_target(sc: Scenario) -> Target:
    """Attached units use the Toughness of the Bodyguard models (Leader rule); where Bodyguard
    models differ, the highest Toughness is used (documented assumption)."""
    d = sc.defender
    order = active_order(d.order, d.battle_shocked)
    kws = {k.lower() for k in d.keywords}
    for m in [*d.models, *d.leaders]:
        kws |= {k.lower() for k in m.keywords}
    return Target(
        name=d.name,
        T=max(m.T for m in d.models),
        bodyguard=_profiles(d.models, order, False),
        leaders=_profiles(d.leaders, order, True),
        model_count=sum(m.count for m in d.models) + sum(m.count for m in d.leaders),
        keywords=frozenset(kws),
        cover=d.cover,
    )


def resolve_groups(sc: Scenario, target: Target) -> list[WeaponGroup]:
    a, c = sc.attacker, sc.conditions
    order = active_order(a.order, a.battle_shocked)
    groups: list[WeaponGroup] = []
    for mi, model in enumerate(a.models):
        for wi, w in enumerate(model.weapons):
            ab = parse_abilities(w.abilities, f"attacker.models.{mi}.weapons.{wi}.abilities")
            melee = w.is_melee
            bonus = 0
            if ab.rapid_fire is not None:
                bonus += rapid_fire_attack_bonus(True, order)
            if ab.blast:
                bonus += target.model_count // 5  # +1 attack per five models in the target
            attacks = parse(w.A)
            if ab.rapid_fire is not None and c.half_range:
                attacks = _add(attacks, ab.rapid_fire)
            hit_mod = c.hit_modifier + (1 if ab.heavy and c.remained_stationary and not melee else 0)
            hit_mod -= 1 if ab.indirect_fire else 0
            wound_mod = c.wound_modifier + (1 if ab.lance and c.charged else 0)
            crit_hit = min(w.critical_hit, c.critical_hit or 6)
            crit_wound = min(w.critical_wound, c.critical_wound or 6)
            for kw, x in ab.anti.items():
                if kw in target.keywords:
                    crit_wound = min(crit_wound, x)
            groups.append(
                WeaponGroup(
                    name=f"{model.name}: {w.name}" if len(a.models) > 1 else w.name,
                    models=model.count,
                    attacks=attacks,
                    attack_bonus=bonus,
                    melee=melee,
                    S=w.S,
                    AP=w.AP,
                    damage=parse(w.D),
                    damage_bonus=ab.melta if c.half_range else 0,
                    ab=ab,
                    hit_target=skill_with_order(w.skill, melee, order),
                    hit_modifier=cap(hit_mod),
                    wound_target=wound_target(w.S, target.T),
                    wound_modifier=cap(wound_mod),
                    critical_hit=crit_hit,
                    critical_wound=crit_wound,
                    reroll_hits=c.reroll_hits,
                    reroll_wounds=c.reroll_wounds,
                    cover=(target.cover or ab.indirect_fire) and not ab.ignores_cover and not melee,
                    save_modifier=c.save_modifier,
                )
            )
    return groups


def _add(a: DiceExpr, b: DiceExpr) -> DiceExpr:
    return DiceExpr(a.terms + b.terms, a.constant + b.constant, f"{a}+{b}")


def save_probability(g: WeaponGroup, p: Profile) -> float:
    """P(saving throw passes) for an attack of group ``g`` allocated to a model ``p``."""
    cov = cover_applies(p.Sv, g.AP, g.melee, g.cover, g.ab.ignores_cover)
    return _save_probability(p.Sv, g.AP, cov, g.save_modifier, p.invulnerable)


@lru_cache(maxsize=1024)
def _save_probability(Sv: int, AP: int, cover: bool, modifier: int, invulnerable: int | None) -> float:
    from grimdice.systems.wh40k.rolls import save_passes

    return sum(bool(save_passes(f, Sv, AP, cover, modifier, invulnerable)) for f in FACES) / 6
