"""A shooting at one model as an :class:`~.resolution.Attack` (rules-crusade II, III, VI, VIII, IX).

II: "-1 to your attack roll for every full 12" to target"; III: the roll against the target's
armour, the difference the damage; VI: cover is +1 armour; VIII and IX: the weapon codes and
abilities that change the roll, the armour or what the damage does.
"""

from __future__ import annotations

from functools import cache

import numpy as np

from grimdice.errors import ScenarioError
from grimdice.systems.crusade.contest import Side, Spec, layout_for
from grimdice.systems.crusade.damage import KILLED, State, chosen_graze, graze, knocked_back, take
from grimdice.systems.crusade.modifiers import any_arm, cover_of, shot_notes, shot_rerolls
from grimdice.systems.crusade.profiles import Scenario
from grimdice.systems.crusade.resolution import (
    FF_FACES,
    NO_FF,
    Attack,
    all_arms,
    explodes,
    fails,
    fall_hits,
    grazes_of,
    onehots,
    pool_sum,
)
from grimdice.systems.crusade.rolls import Pool
from grimdice.systems.crusade.rules import RULES
from grimdice.systems.crusade.units import SHOOTING_KINDS, STRUCTURES, Arm, Fighter, chosen_arms, fighter


def range_penalty(sc: Scenario, att: Fighter, arms: tuple[Arm, ...]) -> int:
    """II RANGE: "-1 to your attack roll for every full 12" to target"; none with VIII IGNORE RANGE
    or IX SNIPER when the firer did not move; at least -1 with VIII BARRAGE."""
    penalty = int(sc.range // 12)
    if all_arms(arms, "ir") or (att.has("sniper") and not sc.moved):
        return 0
    if all_arms(arms, "barrage"):
        return max(1, penalty)
    return penalty


def target_armour(sc: Scenario, dfd: Fighter, arms: tuple[Arm, ...]) -> int:
    """The armour the roll must beat: VI cover is +1 (armoured buildings always give it, even against
    BURN; SCOPE when the firer did not move, IGNORE FRONT COVER, BARRAGE and grenades ignore front
    cover; none within 1"); VIII IGNORES ARMOR: none at all."""
    cover = cover_of(sc.cover, dfd)
    grenades = all(a.kind == "grenade" for a in arms)  # VI: all grenades can ignore front cover
    ignores = cover != "armoured" and (  # VI: armoured buildings always give cover, even vs burn
        all_arms(arms, "burn")
        or (all_arms(arms, "scope") and not sc.moved)
        or (cover == "front" and (all_arms(arms, "ifc") or all_arms(arms, "barrage") or grenades))
    )
    cover_bonus = int(cover != "none" and sc.range >= 1 and not ignores)
    return 0 if all_arms(arms, "ia") else dfd.armour + cover_bonus  # VIII IGNORES ARMOR


def roll_modifier(sc: Scenario, dfd: Fighter, arms: tuple[Arm, ...], pool: Pool, penalty: int) -> int:
    """The dice's plus less the range penalty; IX LATCH ON (+1 against the target, -1 for it);
    VIII ARMOR PIERCING +1 against armour; VIII PENETRATING +1 against vehicles and structures (VI,
    reading ``structures``); VI: +1 for a line or area effect against a building."""
    bonus = pool.plus - penalty
    bonus += {"none": 0, "target": 1, "firer": -1}[sc.latch]  # IX LATCH ON: +1 vs the target, -1 for it
    if all_arms(arms, "ap") and dfd.armour > 0:
        bonus += 1  # VIII AP
    if dfd.kind in (*STRUCTURES, "vehicle") and all_arms(arms, "penetrating"):
        bonus += 1  # VIII +P, VI (barricades and catwalks too: reading structures)
    if dfd.kind == "building" and (
        all_arms(arms, "line")
        or all_arms(arms, "area")
        or all_arms(arms, "blast")
        or all_arms(arms, "flamer")
    ):
        bonus += 1  # VI: line or area effect +1 vs buildings
    return bonus


def _shot_outcome(sc: Scenario, att: Fighter, dfd: Fighter, arms: tuple[Arm, ...], armour: int, bonus: int):
    """The deterministic end of one roll ``total`` (less the force field's die ``ff``) from ``start``
    (default the target's state): III damage is the roll over the armour; VIII TIE, IX SWARM (at most
    one hit but by AREA or SCYTHE), IX PLAGUE (a tie wounds), VIII KNOCKBACK (a tie or better)."""
    codes = grazes_of(arms)
    kill_is_ko = all_arms(arms, "kill_is_ko")
    kb = all_arms(arms, "knockback")
    plague = any_arm(arms, "plague") or att.has("plague")
    into = sc.knockback_into == "obstacle"
    fall = fall_hits(sc)
    body = dfd.body

    def outcome(total: int, ff: int, start: State | None = None) -> tuple[State, int, bool]:
        if start is not None and start[0] == KILLED:
            return start, 0, False  # a dead model takes no more damage (RAPID FIRE's second shot)
        roll = total + bonus
        tie = roll == armour and roll >= 1  # VIII TIE (a zero roll never ties)
        dmg = max(0, roll - armour - ff)  # IX +F: a red die off the damage
        if body.swarm and not (all_arms(arms, "area") or all_arms(arms, "scythe")):
            dmg = min(dmg, 1)  # IX SWARM
        s = take(dfd.start if start is None else start, dmg, codes, body, kill_is_ko)
        if tie and plague:
            s = graze(s, "wound", body, kill_is_ko)  # IX PLAGUE / POISON
        if kb and roll >= armour and roll >= 1:
            s = knocked_back(s, body, into, fall_hits=fall)  # VIII KNOCKBACK: tie or exceed
        return s, dmg, tie

    return outcome


def shooting(sc: Scenario) -> Attack:
    """The attacker's chosen ranged weapons fired together at the defender (III: one roll of their
    dice; reading ``combined_effects``: a roll modifier acts if every weapon has it)."""
    att, dfd = fighter(sc.attacker, "attacker"), fighter(sc.defender, "defender")
    arms = chosen_arms(sc, att, SHOOTING_KINDS)
    if not arms:
        raise ScenarioError("attacker.weapons", "shooting needs at least one ranged or pistol weapon")
    pool = pool_sum([a.pool for a in arms])
    notes = (
        [RULES.note("structures")]
        if dfd.body.structure
        else [RULES.note("multi_hit"), RULES.note("graze_order")]
    )
    if len(arms) > 1:
        notes.append(RULES.note("combined_effects"))
    penalty = range_penalty(sc, att, arms)
    armour = target_armour(sc, dfd, arms)
    bonus = roll_modifier(sc, dfd, arms, pool, penalty)
    if penalty and pool.max_total + bonus < max(armour, 1):  # no roll can damage or tie
        notes.append(RULES.note("no_maximum_range"))
    return roll_against(sc, (att, dfd), arms, pool, (armour, bonus, penalty), notes)


def roll_against(
    sc: Scenario,
    sides: tuple[Fighter, Fighter],
    arms: tuple[Arm, ...],
    pool: Pool,
    mods: tuple[int, int, int],
    notes: list[str],
) -> Attack:
    """One roll of ``pool`` against the defender's armour (III: the remainder are hits): the
    attack's contest (the attacker's re-rolls, the defender's jink), given ``mods`` = (the armour to
    beat, the roll's modifier, the range penalty)."""
    att, dfd = sides
    armour, bonus, penalty = mods
    outcome = _shot_outcome(sc, att, dfd, arms, armour, bonus)
    lay = layout_for(
        att.body.hits,
        dfd.body.hits,
        max(0, pool.max_total - penalty + 2 - armour),
        explodes(arms),
        target_near=fails(arms),
    )
    ff = FF_FACES if dfd.body.force_field else NO_FF

    @cache
    def resolve(a: int, d: int, parry: int) -> np.ndarray:
        v = np.zeros(lay.size)
        for g, p in ff:
            s, dmg, tie = outcome(a, g)
            v += p * onehots(lay, s, att.start, dmg, 0, tie, False)
        return v

    own, jink = shot_rerolls(att, arms, dfd)
    notes += shot_notes(arms, att, dfd, own, jink)
    spec = Spec(Side(pool, own=own), Side(Pool(), opp=jink), (0,), resolve, lay)
    codes, kill_is_ko = grazes_of(arms), all_arms(arms, "kill_is_ko")
    info = {
        "range_penalty": penalty,
        "armour": armour,
        "modifier": bonus,
        "dice": pool.text,
        "graze": chosen_graze(dfd.start, codes, dfd.body, kill_is_ko),  # III/IV: the attacker's choice
    }
    return Attack(spec, outcome, lambda a, d, p: 0, att, dfd, arms, (), NO_FF, ff, notes, info)


__all__ = ["range_penalty", "roll_against", "roll_modifier", "shooting", "target_armour"]
