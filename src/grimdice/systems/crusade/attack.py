"""A scenario's attack as a :class:`~.contest.Spec`: the dice of both sides, their re-roll rights,
the parry options and the resolution of the final totals (sections II, III, IV, VIII, IX).

Each resolution is written once as a deterministic function of the final totals and of the force
field dice (``outcome``); the exact engine averages it over the red die of +F, Monte Carlo rolls it.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cache

import numpy as np

from grimdice.errors import ScenarioError
from grimdice.systems.crusade.contest import Layout, Side, Spec, layout_for, objective_for
from grimdice.systems.crusade.damage import (
    CONDITIONS,
    KILLED,
    Body,
    State,
    best_graze,
    chosen_graze,
    graze,
    knocked_back,
    take,
)
from grimdice.systems.crusade.mob import counts, division
from grimdice.systems.crusade.modifiers import (
    any_arm as _any,
)
from grimdice.systems.crusade.modifiers import (
    check_melee_bodies,
    cover_of,
    melee_latch,
    melee_notes,
    shot_notes,
    shot_rerolls,
)
from grimdice.systems.crusade.profiles import Scenario
from grimdice.systems.crusade.rolls import RED, Pool
from grimdice.systems.crusade.rules import RULES
from grimdice.systems.crusade.units import SHOOTING_KINDS, STRUCTURES, Arm, Fighter, chosen_arms, fighter

THROW = -1  # the attacker's choice to throw instead of doing damage (IX THROW)
D_THROW = -2  # the defender's choice to throw instead of doing damage (IX THROW)
THROWN = {THROW: 1, D_THROW: 2}  # the "throw" feature: who threw
FF_FACES = tuple((g, RED.faces.count(g) / 6) for g in sorted(set(RED.faces)))  # IX +F: one red die
NO_FF = ((0, 1.0),)


@dataclass
class Attack:
    """Everything an engine needs for one attack."""

    spec: Spec
    outcome: Callable[..., tuple]  # deterministic outcome (see the two builders)
    options: Callable[[int, int, int], int]  # attacker's resolution choice (pull-back), solved
    att: Fighter
    dfd: Fighter
    arms: tuple[Arm, ...]
    def_arms: tuple[Arm, ...]
    ff_att: tuple[tuple[int, float], ...]
    ff_def: tuple[tuple[int, float], ...]
    notes: list[str] = field(default_factory=list)
    info: dict = field(default_factory=dict)
    #: IX MOB: (at, dt, parry, pull) -> every mob model's end state (the lead attacker first)
    mob: Callable[[int, int, int, int], tuple[State, ...]] | None = None


def _all(arms: tuple[Arm, ...], key: str) -> bool:
    """Reading ``combined_effects``: a roll modifier acts on a combined fire if every weapon has it."""
    return bool(arms) and all(a.fx.get(key) for a in arms)


def _grazes(arms: tuple[Arm, ...]) -> frozenset[str]:
    out: frozenset[str] = frozenset()
    for a in arms:
        out |= a.grazes
    return out


def _sum(pools: list[Pool]) -> Pool:
    total = Pool()
    for p in pools:
        total = total + p
    return total


def _explodes(arms: tuple[Arm, ...]) -> bool:
    """VIII EXPLODE / MALFUNCTION: a weapon used explodes, or rolls against its user, on a fail (the
    bearer's state where his roll failed is then tracked)."""
    return any(a.fail in ("explode", "malfunction") for a in arms)


def _fails(arms: tuple[Arm, ...]) -> bool:
    """III: a weapon used has a fail effect (the target's state where the roll failed is tracked:
    P(fail and each result) is reported)."""
    return any(a.fail != "none" for a in arms)


def state_code(lay: Layout, side: str, s: State) -> int:
    """A side's end state as one code, condition x (hits left + 1) (VIII EXPLODE: a bearer's state)."""
    hits = lay.slices[f"{side}_hits_left"]
    return s[0] * (hits.stop - hits.start) + s[1]


def _onehots(
    lay: Layout, d: State, a: State, dmg: int, admg: int, tie: bool, pulled: bool, throw: int = 0
) -> np.ndarray:
    joint = {}
    for side, s in (("att", a), ("def", d)):  # a bearer's state as one code: condition x (hits left + 1)
        if f"{side}_state" in lay.slices:
            joint[f"{side}_state"] = state_code(lay, side, s)
    return lay.onehot(
        **joint,
        throw=throw,
        def_condition=d[0],
        def_hits_left=d[1],
        att_condition=a[0],
        att_hits_left=a[1],
        damage=dmg,
        att_damage=admg,
        tie=int(tie),
        pull_back=int(pulled),
        big_kill=int(d[0] == KILLED and dmg >= 2),  # VIII VOLATILE: killed by more than a graze
    )


# ---------------------------------------------------------------------- shooting (II, III, VIII)
def shooting(sc: Scenario) -> Attack:
    att, dfd = fighter(sc.attacker, "attacker"), fighter(sc.defender, "defender")
    arms = chosen_arms(sc, att, SHOOTING_KINDS)
    if not arms:
        raise ScenarioError("attacker.weapons", "shooting needs at least one ranged or pistol weapon")
    pool = _sum([a.pool for a in arms])
    notes = (
        [RULES.note("structures")]
        if dfd.body.structure
        else [RULES.note("multi_hit"), RULES.note("graze_order")]
    )
    if len(arms) > 1:
        notes.append(RULES.note("combined_effects"))
    # II RANGE: -1 per full foot; VIII IGNORE RANGE; IX SNIPER if the firer did not move; BARRAGE >= -1
    penalty = int(sc.range // 12)
    if _all(arms, "ir") or (att.has("sniper") and not sc.moved):
        penalty = 0
    elif _all(arms, "barrage"):
        penalty = max(1, penalty)
    cover = cover_of(sc.cover, dfd)
    grenades = all(a.kind == "grenade" for a in arms)  # VI: all grenades can ignore front cover
    ignores = cover != "armoured" and (  # VI: armoured buildings always give cover, even vs burn
        _all(arms, "burn")
        or (_all(arms, "scope") and not sc.moved)
        or (cover == "front" and (_all(arms, "ifc") or _all(arms, "barrage") or grenades))
    )
    cover_bonus = int(cover != "none" and sc.range >= 1 and not ignores)
    armour = 0 if _all(arms, "ia") else dfd.armour + cover_bonus  # VIII IGNORES ARMOR
    bonus = pool.plus - penalty
    bonus += {"none": 0, "target": 1, "firer": -1}[sc.latch]  # IX LATCH ON: +1 vs the target, -1 for it
    if _all(arms, "ap") and dfd.armour > 0:
        bonus += 1  # VIII AP
    if dfd.kind in (*STRUCTURES, "vehicle") and _all(arms, "penetrating"):
        bonus += 1  # VIII +P, VI (barricades and catwalks too: reading structures)
    if dfd.kind == "building" and (
        _all(arms, "line") or _all(arms, "area") or _all(arms, "blast") or _all(arms, "flamer")
    ):
        bonus += 1  # VI: line or area effect +1 vs buildings
    codes = _grazes(arms)
    kill_is_ko = _all(arms, "kill_is_ko")
    kb = _all(arms, "knockback")
    plague = _any(arms, "plague") or att.has("plague")
    into = sc.knockback_into == "obstacle"
    fall = _fall_hits(sc)
    body = dfd.body

    def outcome(total: int, ff: int, start: State | None = None) -> tuple[State, int, bool]:
        if start is not None and start[0] == KILLED:
            return start, 0, False  # a dead model takes no more damage (RAPID FIRE's second shot)
        roll = total + bonus
        tie = roll == armour and roll >= 1  # VIII TIE (a zero roll never ties)
        dmg = max(0, roll - armour - ff)  # IX +F: a red die off the damage
        if body.swarm and not (_all(arms, "area") or _all(arms, "scythe")):
            dmg = min(dmg, 1)  # IX SWARM
        s = take(dfd.start if start is None else start, dmg, codes, body, kill_is_ko)
        if tie and plague:
            s = graze(s, "wound", body, kill_is_ko)  # IX PLAGUE / POISON
        if kb and roll >= armour and roll >= 1:
            s = knocked_back(s, body, into, fall_hits=fall)  # VIII KNOCKBACK: tie or exceed
        return s, dmg, tie

    lay = layout_for(
        att.body.hits,
        dfd.body.hits,
        max(0, pool.max_total - penalty + 2 - armour),
        _explodes(arms),
        target_near=_fails(arms),
    )
    ff = FF_FACES if body.force_field else NO_FF

    @cache
    def resolve(a: int, d: int, parry: int) -> np.ndarray:
        v = np.zeros(lay.size)
        for g, p in ff:
            s, dmg, tie = outcome(a, g)
            v += p * _onehots(lay, s, att.start, dmg, 0, tie, False)
        return v

    own, jink = shot_rerolls(att, arms, dfd)
    notes += shot_notes(arms, att, dfd, own, jink)
    spec = Spec(Side(pool, own=own), Side(Pool(), opp=jink), (0,), resolve, lay)
    info = {
        "range_penalty": penalty,
        "armour": armour,
        "modifier": bonus,
        "dice": pool.text,
        "graze": chosen_graze(dfd.start, codes, body, kill_is_ko),  # III/IV: the attacker's choice
    }
    return Attack(spec, outcome, lambda a, d, p: 0, att, dfd, arms, (), NO_FF, ff, notes, info)


# ---------------------------------------------------------------------- melee (IV, VIII, IX)
def _rerolls(me: Fighter, arms: tuple[Arm, ...], foe: Fighter, foe_arms: tuple[Arm, ...], dive: bool) -> Side:
    """VIII R / RO (two re-rolls compound into RO), -R, NOR; V DIVE ATTACK: no re-rolls."""
    n = int(me.has("reroll")) + sum(bool(a.fx.get("reroll")) for a in arms)
    ro = me.has("ro") or _any(arms, "ro") or n >= 2
    level = 2 if ro else int(n >= 1)
    if foe.has("minus_reroll") or _any(foe_arms, "minus_reroll"):
        level = max(0, level - 1)
    if dive or foe.has("nor") or _any(foe_arms, "nor"):
        level = 0
    return Side(Pool(), own=level >= 1, opp=level == 2)


def _melee_pool(f: Fighter, arms: tuple[Arm, ...], where: str, grapple: bool) -> Pool:
    if f.melee is None:
        raise ScenarioError(f"{where}.melee", "melee needs the model's base melee dice, e.g. melee: 1W+1R")
    base = f.melee
    if f.body.swarm:  # IX SWARM: -1 red die per hit taken
        lost = f.body.hits - f.start[1]
        base = Pool(base.white, max(0, base.red - lost), base.plus)
    if grapple:
        return base  # IX GRAPPLE: base melee dice only
    return _sum([base] + [a.pool for a in arms])


def melee(sc: Scenario) -> Attack:
    att, dfd = fighter(sc.attacker, "attacker"), fighter(sc.defender, "defender")
    check_melee_bodies(att, dfd)
    special = sc.attack_mode != "normal"
    a_kinds = ("melee", "pistol", "shield") + (("spiky",) if special else ())
    arms = chosen_arms(sc, att, a_kinds)
    d_arms = tuple(a for a in dfd.arms if a.kind in ("melee", "pistol", "shield", "spiky"))
    grapple = att.has("grapple") or dfd.has("grapple")
    if grapple:
        arms, d_arms = (), ()
    mind = sc.action == "mindwar"
    members: list[tuple[State, Body]] = [(att.start, att.body)]
    if mind:  # VII MIND WAR: 1 red per psy level each; the attacker takes range penalties
        a_pool, d_pool, arms, d_arms, grapple = _mind_pools(sc, att, dfd)
    else:
        a_pool = _melee_pool(att, arms, "attacker", grapple)
        for i, m in enumerate(sc.mob):  # IX MOB: combined melee values
            mf = fighter(m, f"mob.{i}")
            members.append((mf.start, mf.body))
            a_pool = a_pool + _melee_pool(
                mf, tuple(a for a in mf.arms if a.kind in a_kinds), f"mob.{i}", grapple
            )
        mob_size = max(2, int(att.fx.get("mob") or 0)) if att.fx.get("mob") else 1
        if len(sc.mob) + 1 > mob_size:
            raise ScenarioError(
                "mob", f"{len(sc.mob) + 1} models mob only with MOB {len(sc.mob) + 1} on the attacker"
            )
        d_pool = _melee_pool(dfd, d_arms, "defender", grapple)
    if not mind and (a_pool.n == 0 or d_pool.n == 0):
        raise ScenarioError(
            "attacker.melee" if a_pool.n == 0 else "defender.melee", "a melee roll needs at least one die"
        )
    dive = sc.attack_mode == "dive"
    if dive:  # V DIVE ATTACK: "make a melee attack with +O" (reading dive_o: one more red die)
        a_pool = a_pool + Pool(red=1)
    # IV: awkward melee -1 (wounded unless FRENZY; a stunned model is meleed at awkward)
    a_mod = a_pool.plus - int(sc.awkward or (att.start[0] == 2 and not att.has("frenzy")))
    a_mod -= 0 if _any(arms, "scythe") else sc.opponent_number - 1  # IV successive opponents
    d_mod = d_pool.plus - int(dfd.start[0] == 1 or (dfd.start[0] == 2 and not dfd.has("frenzy")))
    if mind:
        a_mod, d_mod = a_pool.plus, 0
    a_mod += melee_latch(sc)
    # IV PARRYING: needs a melee weapon (IX GRAPPLE: anyone); +2 with a shield; VIII -P -1, +P ignores
    can_parry = grapple or any(a.kind in ("melee", "shield") for a in d_arms)
    if mind:  # VII: defending psykers may parry; non-psykers may not
        can_parry = bool(dfd.fx.get("psy"))
    parry_bonus = 2 if any(a.kind == "shield" for a in d_arms) else 1
    if _any(arms, "pass_parry"):
        parry_bonus -= 1
    if any(a.fx.get("penetrating") and a.kind in ("melee", "shield") for a in arms):
        parry_bonus = 0
    if sc.parry == "never" or not can_parry:
        parries: tuple[int, ...] = (0,)
    elif sc.parry == "always":
        parries = (parry_bonus + 100,)
    else:
        parries = (0, parry_bonus + 100)  # +100 marks "parrying" even at a +0 bonus
    # a model's own graze code is its base melee's (the Warp Spawn's W); VII MIND WAR: graze = stun
    codes = _grazes(arms) | (frozenset() if mind else att.grazes)
    d_codes = _grazes(d_arms) | (frozenset() if mind else dfd.grazes)
    kill_is_ko = _all(arms, "kill_is_ko")
    into = sc.knockback_into == "obstacle"
    fall = _fall_hits(sc)
    # IX THROW: "you may throw a smaller or equal sized opponent"; a throw into the open changes nothing
    a_throw = att.has("throw") and att.body.size >= dfd.body.size
    d_throw = dfd.has("throw") and dfd.body.size >= att.body.size
    throws = a_throw and (into or fall > 0)
    d_throws = d_throw and (into or fall > 0)
    a_tie_kb = _any(arms, "knockback") or a_throw
    d_tie_kb = _any(d_arms, "knockback") or d_throw
    a_plague = _any(arms, "plague") or att.has("plague")
    d_plague = _any(d_arms, "plague") or dfd.has("plague")
    cap_one = dfd.body.swarm and not _any(arms, "scythe")
    divide = division(tuple(members), d_codes) if len(members) > 1 else None  # IX MOB

    def mob_loses(at: int, dt: int, parry: int, pull: int) -> int:
        """The hits a losing mob divides (IX MOB, reading ``mob_losses``), else 0."""
        D = dt + d_mod + (parry - 100 if parry else 0)
        return D - at - a_mod if divide and at + a_mod < D and not parry and pull != D_THROW else 0

    def mob_states(at: int, dt: int, parry: int, pull: int) -> tuple[State, ...]:
        hits = mob_loses(at, dt, parry, pull)
        return divide(hits)[1] if hits and divide else tuple(m[0] for m in members)

    def outcome(at: int, dt: int, parry: int, pull: int, ffa: int, ffd: int) -> tuple:
        A = at + a_mod
        D = dt + d_mod + (parry - 100 if parry else 0)
        ds, as_ = dfd.start, att.start
        dmg = admg = 0
        tie = A == D or (parry and D >= A)  # VIII TIE: a parrying defender's win is a tie
        if A > D and pull == THROW:  # IX THROW: "or instead of doing damage", thrown 1" as KB
            ds = knocked_back(ds, dfd.body, into, by_size=att.body.size, fall_hits=fall)
        elif A > D and pull < A - D:  # IV: pull back to a lower roll
            if pull == 0:
                tie = True
            else:
                dmg = max(0, pull - ffd)
                if cap_one:
                    dmg = min(dmg, 1)
                ds = take(ds, dmg, codes, dfd.body, kill_is_ko)
        elif A > D:
            dmg = max(0, A - D - ffd)
            if cap_one:
                dmg = min(dmg, 1)
            ds = take(ds, dmg, codes, dfd.body, kill_is_ko)
        elif A < D and not parry and pull == D_THROW:  # IX THROW by the winning defender
            as_ = knocked_back(as_, att.body, into, by_size=dfd.body.size, fall_hits=fall)
        elif A < D and not parry and divide:  # IX MOB: the mob divides all the hits
            xs, states = divide(D - A)
            as_, admg = states[0], xs[0]
        elif A < D and not parry:  # IV: a losing attacker takes at most one hit, as a graze
            admg = max(0, 1 - ffa)
            if admg:
                h = as_[1]
                as_ = (as_[0], h - 1) if h >= 2 else best_graze(as_, d_codes, att.body)
        if tie:
            if a_tie_kb:
                ds = knocked_back(ds, dfd.body, into, by_size=att.body.size, fall_hits=fall)
            if d_tie_kb:
                as_ = knocked_back(as_, att.body, into, by_size=dfd.body.size, fall_hits=fall)
            if a_plague:
                ds = graze(ds, "wound", dfd.body, kill_is_ko)
            if d_plague:
                as_ = graze(as_, "wound", att.body)
        return ds, as_, dmg, admg, tie

    lay = layout_for(
        att.body.hits,
        dfd.body.hits,
        a_pool.max_total + 2,
        _explodes(arms),
        len(members) if divide else 0,
        _explodes(d_arms),  # VIII EXPLODE: the defender's melee weapon on his fail
        target_near=_fails(arms),
    )
    ffa = FF_FACES if att.body.force_field else NO_FF
    ffd = FF_FACES if dfd.body.force_field else NO_FF
    obj = objective_for(lay)

    def expected(at: int, dt: int, parry: int, pull: int) -> np.ndarray:
        v = np.zeros(lay.size)
        for ga, pa in ffa:
            for gd, pd in ffd:
                ds, as_, dmg, admg, tie = outcome(at, dt, parry, pull, ga, gd)
                v += pa * pd * _onehots(lay, ds, as_, dmg, admg, tie, 0 <= pull < 99, THROWN.get(pull, 0))
        if divide:  # IX MOB: how many of the mob are killed, KO'd or killed (the lead's ties included)
            states = mob_states(at, dt, parry, pull)
            for ga, pa in ffa:
                for gd, pd in ffd:
                    lead = outcome(at, dt, parry, pull, ga, gd)[1]
                    k, ko = counts((lead, *states[1:]))
                    v += pa * pd * lay.onehot(mob_killed=k, mob_ko=ko)
        return v

    @cache
    def choose(at: int, dt: int, parry: int) -> int:
        """The winner's resolution choice: the attacker's best pull-back (99: none; THROW: a throw
        instead of damage) when he wins; the defender's throw instead of his graze (IX THROW) when
        the attacker loses against a defender who does not parry."""
        margin = at + a_mod - dt - d_mod - (parry - 100 if parry else 0)
        if margin < 0 and not parry and d_throws:
            keep, throw = obj(1, expected(at, dt, parry, 99)), obj(1, expected(at, dt, parry, D_THROW))
            return D_THROW if _lex(throw, keep) else 99
        best, best_k = 99, obj(0, expected(at, dt, parry, 99))
        for pull in [*range(margin - 1, -1, -1), *((THROW,) if throws and margin > 0 else ())]:
            k = obj(0, expected(at, dt, parry, pull))
            if _lex(k, best_k):
                best, best_k = pull, k
        return best

    @cache
    def resolve(at: int, dt: int, parry: int) -> np.ndarray:
        return expected(at, dt, parry, choose(at, dt, parry))

    a_side = _rerolls(att, arms, dfd, d_arms, dive)
    d_side = _rerolls(dfd, d_arms, att, arms, dive)
    if mind:  # VII: psychic hoods give a re-roll in any mind war
        a_side, d_side = Side(Pool(), own=att.has("hood")), Side(Pool(), own=dfd.has("hood"))
    spec = Spec(
        Side(a_pool, a_side.own, a_side.opp), Side(d_pool, d_side.own, d_side.opp), parries, resolve, lay
    )
    notes = [RULES.note(k) for k in ("multi_hit", "graze_order", "melee_fails", "tie_effects")]
    notes += melee_notes(arms, dfd, grapple, a_side.own or d_side.own)
    if dive:
        notes.append(RULES.note("dive_o"))
    if len(parries) > 1:
        notes.append(RULES.note("parry_declared"))
    info = {
        "attacker_dice": a_pool.text,
        "defender_dice": d_pool.text,
        "attacker_modifier": a_mod,
        "defender_modifier": d_mod,
        "parry_bonus": parry_bonus if can_parry else None,
        "graze": chosen_graze(dfd.start, codes, dfd.body, kill_is_ko),  # IV: the attacker's choice
        "attacker_rerolls": "RO" if a_side.opp else ("R" if a_side.own else "none"),
        "defender_rerolls": "RO" if d_side.opp else ("R" if d_side.own else "none"),
    }
    if divide:
        notes.append(RULES.note("mob_losses"))
        if d_throw or d_tie_kb:  # IX THROW / VIII KNOCKBACK by the defender: on the lead attacker
            notes.append(RULES.note("mob_throw"))
        most = max(1, d_pool.max_total + d_mod + parry_bonus - a_mod)
        info["mob_division"] = {str(h): list(divide(h)[0]) for h in range(1, most + 1)}
    return Attack(
        spec, outcome, choose, att, dfd, arms, d_arms, ffa, ffd, notes, info, mob_states if divide else None
    )


def incursion(sc: Scenario) -> dict[str, float]:
    """VII INCURSION: "Treat the attack as a OO Mind War attack at range 0 vs. the Psyker, with no
    parry allowed" — the psyker's end state (reading ``incursion``: O is a red die)."""
    from grimdice.systems.crusade.contest import solve

    warp = sc.attacker.model_copy(update={"name": "warp", "abilities": ["Psy-2"], "weapons": []})
    sub = sc.model_copy(update={"attacker": warp, "defender": sc.attacker, "range": 0.0, "parry": "never"})
    atk = melee(sub)
    v = solve(atk.spec).value
    cond = atk.spec.layout.part(v, "def_condition")
    return {c: float(cond[i]) for i, c in enumerate(CONDITIONS)}


def _mind_pools(sc: Scenario, att: Fighter, dfd: Fighter) -> tuple:
    """VII MIND WAR / MIND LANCE pools: Psy-level reds, the attacker minus 1 per full foot; a
    non-psyker (mind lance only) rolls 1 white and may not parry. Graze = stun (no weapon codes)."""
    level = att.fx.get("psy")
    if not level:
        raise ScenarioError(
            "attacker.abilities", "a mind war needs a psyker attacker, e.g. abilities: [Psy-1]"
        )
    d_level = dfd.fx.get("psy")
    if not d_level and sc.psychic_attack != "mind lance":
        raise ScenarioError(
            "defender.abilities", "mind war attacks psykers only; use psychic_attack: mind lance"
        )
    penalty = int(sc.range // 12)
    d_pool = Pool(red=d_level) if d_level else Pool(white=1)
    return Pool(red=level, plus=-penalty), d_pool, (), (), False


def _fall_hits(sc: Scenario) -> int:
    """V FALLING: "For every 4" you fall, take 1 hit" when knocked back off an edge (VIII KB)."""
    if sc.knockback_into != "edge":
        if sc.fall:
            raise ScenarioError("fall", "a fall height applies with knockback_into: edge")
        return 0
    return int(sc.fall // 4)


def _lex(a: list[float], b: list[float]) -> bool:
    for x, y in zip(a, b, strict=True):
        if x > y + 1e-12:
            return True
        if x < y - 1e-12:
            return False
    return False


def build(sc: Scenario) -> Attack:
    """The attack of a scenario (shooting, melee, or a mind war played as a contested roll)."""
    atk = shooting(sc) if sc.action == "shoot" else melee(sc)
    if sc.action == "mindwar":
        n = atk.spec.att.pool.n
        # VII INCURSION: every die rolled at its maximum (1/6 per red die)
        atk.info["incursion"] = (1 / 6) ** n
        atk.info["incursion_psyker_end_state"] = end = incursion(sc)
        # VII: "If the Psyker is killed, replace the model with a Warp Spawn: (M6 A1 Melee OOOOOO W,
        # Scythes, Feral), with a number of hits equal to the original model's hits + 2."
        atk.info["warp_spawn"] = {
            "chance": atk.info["incursion"] * end["killed"],
            "profile": {  # as the text gives it (O read as a red die, reading incursion)
                "name": "Warp Spawn",
                "move": 6,
                "attacks": 1,
                "melee": "6R",
                "graze": "wound",
                "effects": ["SCYTHE", "FERAL"],
                "hits": sc.attacker.hits + 2,
            },
        }
        atk.notes.append(RULES.note("incursion"))
    return atk


__all__ = ["Attack", "build", "melee", "shooting"]


def shot_law(atk: Attack, total: int, start: State | None = None) -> tuple[tuple[State, int, float], ...]:
    """``(end state, damage, p)`` of one roll of dice ``total`` at the attack's target (from
    ``start``, else its own state), over the red die of its force field (IX +F) if it has one."""
    out: dict[tuple[State, int], float] = defaultdict(float)
    for g, p in FF_FACES if atk.dfd.body.force_field else NO_FF:
        s, d, _ = atk.outcome(total, g, start)
        out[(s, d)] += p
    return tuple((s, d, p) for (s, d), p in out.items())


def each_target(
    sc: Scenario, make: Callable[[Scenario], Attack], *, own_cover: bool = True, **update: object
) -> list[Attack]:
    """Each of ``sc.targets`` as its own single-target scenario (its profile, its range, and its
    cover when ``own_cover``; plus ``update``) made into an attack by ``make``; an error in a
    target's profile names ``targets.i``."""
    out = []
    for i, t in enumerate(sc.targets):
        data = t.model_dump(by_alias=True, exclude={"range", "cover"})
        fields: dict[str, object] = {
            "defender": type(sc.defender).model_validate(data),
            "range": sc.range if t.range is None else t.range,
            "targets": [],
            **update,
        }
        if own_cover:
            fields["cover"] = sc.cover if t.cover is None else t.cover
        try:
            out.append(make(sc.model_copy(update=fields)))
        except ScenarioError as e:
            raise ScenarioError(e.field.replace("defender", f"targets.{i}"), e.message) from None
    return out
