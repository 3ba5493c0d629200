"""A melee (or a mind war) as an :class:`~.resolution.Attack` (rules-crusade IV, V, VII, VIII, IX).

IV: "Both players roll their melee dice. The highest result wins, and the loser takes damage equal to
the difference" — the attacker's roll against the defender's (who may parry), the winner choosing to
pull back to a lower result; a losing attacker takes one hit as a graze. Each part is one function:
the weapons used (:func:`melee_arms`), the dice (:func:`melee_pools`, :func:`mind_pools`), the roll
modifiers (:func:`melee_dice`), parrying (:func:`parrying`), the effects of the weapons' codes
(:func:`melee_effects`), the end of a pair of totals (:class:`MeleeOutcome`), the winner's choice
(:func:`resolver`) and the re-rolls (:func:`melee_rerolls`).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import cache

import numpy as np

from grimdice.errors import ScenarioError
from grimdice.systems.crusade.contest import Layout, Side, Spec, layout_for, objective_for, solve
from grimdice.systems.crusade.damage import (
    CONDITIONS,
    Body,
    State,
    best_graze,
    chosen_graze,
    graze,
    knocked_back,
    take,
)
from grimdice.systems.crusade.mob import counts, division
from grimdice.systems.crusade.modifiers import any_arm, check_melee_bodies, melee_latch, melee_notes
from grimdice.systems.crusade.profiles import Scenario
from grimdice.systems.crusade.resolution import (
    D_THROW,
    FF_FACES,
    NO_FF,
    THROW,
    THROWN,
    Attack,
    all_arms,
    explodes,
    fails,
    fall_hits,
    grazes_of,
    lex_better,
    onehots,
    pool_sum,
)
from grimdice.systems.crusade.rolls import Pool
from grimdice.systems.crusade.rules import RULES
from grimdice.systems.crusade.units import Arm, Fighter, chosen_arms, fighter

Members = list[tuple[State, Body]]  # IX MOB: the lead attacker and the mob's other models


def melee_arms(
    sc: Scenario, att: Fighter, dfd: Fighter
) -> tuple[tuple[Arm, ...], tuple[Arm, ...], bool, tuple]:
    """``(attacker's weapons, defender's weapons, grapple, the attacker's weapon kinds)``: melee
    weapons, pistols and shields (IV), SPIKY in a special attack (VIII); IX GRAPPLE: "base melee dice
    only", no weapon at all."""
    special = sc.attack_mode != "normal"
    a_kinds = ("melee", "pistol", "shield") + (("spiky",) if special else ())
    arms = chosen_arms(sc, att, a_kinds)
    d_arms = tuple(a for a in dfd.arms if a.kind in ("melee", "pistol", "shield", "spiky"))
    grapple = att.has("grapple") or dfd.has("grapple")
    if grapple:
        arms, d_arms = (), ()
    return arms, d_arms, grapple, a_kinds


def _rerolls(me: Fighter, arms: tuple[Arm, ...], foe: Fighter, foe_arms: tuple[Arm, ...], dive: bool) -> Side:
    """VIII R / RO (two re-rolls compound into RO), -R, NOR; V DIVE ATTACK: no re-rolls."""
    n = int(me.has("reroll")) + sum(bool(a.fx.get("reroll")) for a in arms)
    ro = me.has("ro") or any_arm(arms, "ro") or n >= 2
    level = 2 if ro else int(n >= 1)
    if foe.has("minus_reroll") or any_arm(foe_arms, "minus_reroll"):
        level = max(0, level - 1)
    if dive or foe.has("nor") or any_arm(foe_arms, "nor"):
        level = 0
    return Side(Pool(), own=level >= 1, opp=level == 2)


def melee_rerolls(
    sc: Scenario, att: Fighter, dfd: Fighter, arms: tuple[Arm, ...], d_arms: tuple[Arm, ...]
) -> tuple[Side, Side]:
    """Each side's re-roll rights (:func:`_rerolls`); VII: "psychic hoods give a re-roll in any mind
    war" and nothing else does."""
    if sc.action == "mindwar":
        return Side(Pool(), own=att.has("hood")), Side(Pool(), own=dfd.has("hood"))
    dive = sc.attack_mode == "dive"
    return _rerolls(att, arms, dfd, d_arms, dive), _rerolls(dfd, d_arms, att, arms, dive)


def melee_pool(f: Fighter, arms: tuple[Arm, ...], where: str, grapple: bool) -> Pool:
    """A model's melee dice: its base melee and its weapons' dice (IX SWARM: -1 red die per hit
    taken; IX GRAPPLE: base melee dice only)."""
    if f.melee is None:
        raise ScenarioError(f"{where}.melee", "melee needs the model's base melee dice, e.g. melee: 1W+1R")
    base = f.melee
    if f.body.swarm:  # IX SWARM: -1 red die per hit taken
        lost = f.body.hits - f.start[1]
        base = Pool(base.white, max(0, base.red - lost), base.plus)
    if grapple:
        return base  # IX GRAPPLE: base melee dice only
    return pool_sum([base] + [a.pool for a in arms])


def melee_pools(
    sc: Scenario,
    att: Fighter,
    dfd: Fighter,
    arms: tuple[Arm, ...],
    d_arms: tuple[Arm, ...],
    grapple: bool,
    a_kinds: tuple,
    members: Members,
) -> tuple[Pool, Pool]:
    """Both sides' melee dice; IX MOB: "combined melee values" (each mob model is appended to
    ``members``), as many models as the attacker's MOB X."""
    a_pool = melee_pool(att, arms, "attacker", grapple)
    for i, m in enumerate(sc.mob):  # IX MOB: combined melee values
        mf = fighter(m, f"mob.{i}")
        members.append((mf.start, mf.body))
        a_pool = a_pool + melee_pool(mf, tuple(a for a in mf.arms if a.kind in a_kinds), f"mob.{i}", grapple)
    mob_size = max(2, int(att.fx.get("mob") or 0)) if att.fx.get("mob") else 1
    if len(sc.mob) + 1 > mob_size:
        raise ScenarioError(
            "mob", f"{len(sc.mob) + 1} models mob only with MOB {len(sc.mob) + 1} on the attacker"
        )
    return a_pool, melee_pool(dfd, d_arms, "defender", grapple)


def mind_pools(sc: Scenario, att: Fighter, dfd: Fighter) -> tuple:
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


@dataclass(frozen=True)
class MeleeDice:
    """Both sides' dice and the modifiers of their rolls."""

    a_pool: Pool
    d_pool: Pool
    a_mod: int
    d_mod: int


def melee_dice(
    sc: Scenario, att: Fighter, dfd: Fighter, arms: tuple[Arm, ...], a_pool: Pool, d_pool: Pool
) -> MeleeDice:
    """IV: "awkward melee -1" (a wounded model unless FRENZY; a stunned model is meleed at awkward),
    -1 per successive opponent (none with SCYTHE); V DIVE ATTACK: "make a melee attack with +O"
    (reading ``dive_o``: one more red die); IX LATCH ON; VII MIND WAR: the dice's plus only."""
    mind = sc.action == "mindwar"
    if not mind and (a_pool.n == 0 or d_pool.n == 0):
        raise ScenarioError(
            "attacker.melee" if a_pool.n == 0 else "defender.melee", "a melee roll needs at least one die"
        )
    if sc.attack_mode == "dive":  # V DIVE ATTACK (reading dive_o: one more red die)
        a_pool = a_pool + Pool(red=1)
    a_mod = a_pool.plus - int(sc.awkward or (att.start[0] == 2 and not att.has("frenzy")))
    a_mod -= 0 if any_arm(arms, "scythe") else sc.opponent_number - 1  # IV successive opponents
    d_mod = d_pool.plus - int(dfd.start[0] == 1 or (dfd.start[0] == 2 and not dfd.has("frenzy")))
    if mind:
        a_mod, d_mod = a_pool.plus, 0
    return MeleeDice(a_pool, d_pool, a_mod + melee_latch(sc), d_mod)


def parrying(
    sc: Scenario, dfd: Fighter, arms: tuple[Arm, ...], d_arms: tuple[Arm, ...], grapple: bool
) -> tuple[tuple[int, ...], int, bool]:
    """IV PARRYING: ``(the defender's parry options, the parry bonus, whether he may parry)``; it
    needs a melee weapon (IX GRAPPLE: anyone; VII: a psyker in a mind war), +2 with a shield, VIII
    PASS PARRY -1, PENETRATING melee weapons ignore it. An option is the bonus + 100 (parrying even
    at +0), 0 not parrying."""
    can_parry = grapple or any(a.kind in ("melee", "shield") for a in d_arms)
    if sc.action == "mindwar":  # VII: defending psykers may parry; non-psykers may not
        can_parry = bool(dfd.fx.get("psy"))
    bonus = 2 if any(a.kind == "shield" for a in d_arms) else 1
    if any_arm(arms, "pass_parry"):
        bonus -= 1
    if any(a.fx.get("penetrating") and a.kind in ("melee", "shield") for a in arms):
        bonus = 0
    if sc.parry == "never" or not can_parry:
        return (0,), bonus, can_parry
    if sc.parry == "always":
        return (bonus + 100,), bonus, can_parry
    return (0, bonus + 100), bonus, can_parry


@dataclass(frozen=True)
class MeleeEffects:
    """What the weapons' codes do to the loser or on a tie (IV graze codes, VIII KNOCKBACK, IX THROW,
    PLAGUE, SWARM)."""

    codes: frozenset[str]
    d_codes: frozenset[str]
    kill_is_ko: bool
    into: bool  # knocked back into an obstacle
    fall: int  # hits of a fall off an edge (V FALLING)
    throws: bool  # the attacker may throw instead of doing damage
    d_throw: bool  # the defender is able to throw
    d_throws: bool  # the defender may throw instead of his graze
    a_tie_kb: bool
    d_tie_kb: bool
    a_plague: bool
    d_plague: bool
    cap_one: bool  # IX SWARM: at most one hit but by SCYTHE


def melee_effects(
    sc: Scenario, att: Fighter, dfd: Fighter, arms: tuple[Arm, ...], d_arms: tuple[Arm, ...]
) -> MeleeEffects:
    """The codes of both sides (a model's own graze code is its base melee's; VII MIND WAR: graze =
    stun); IX THROW: "you may throw a smaller or equal sized opponent" (into the open it changes
    nothing); VIII KNOCKBACK and THROW on a tie; IX PLAGUE on a tie; IX SWARM."""
    mind = sc.action == "mindwar"
    into = sc.knockback_into == "obstacle"
    fall = fall_hits(sc)
    a_throw = att.has("throw") and att.body.size >= dfd.body.size
    d_throw = dfd.has("throw") and dfd.body.size >= att.body.size
    return MeleeEffects(
        codes=grazes_of(arms) | (frozenset() if mind else att.grazes),
        d_codes=grazes_of(d_arms) | (frozenset() if mind else dfd.grazes),
        kill_is_ko=all_arms(arms, "kill_is_ko"),
        into=into,
        fall=fall,
        throws=a_throw and (into or fall > 0),
        d_throw=d_throw,
        d_throws=d_throw and (into or fall > 0),
        a_tie_kb=any_arm(arms, "knockback") or a_throw,
        d_tie_kb=any_arm(d_arms, "knockback") or d_throw,
        a_plague=any_arm(arms, "plague") or att.has("plague"),
        d_plague=any_arm(d_arms, "plague") or dfd.has("plague"),
        cap_one=dfd.body.swarm and not any_arm(arms, "scythe"),
    )


@dataclass(frozen=True, eq=False)
class MeleeOutcome:
    """The deterministic end of a pair of melee totals ``(at, dt)``, the defender's ``parry``, the
    winner's choice ``pull`` and the force fields' dice ``(ffa, ffd)``: ``(defender's state,
    attacker's state, damage, attacker's damage, tie)``."""

    att: Fighter
    dfd: Fighter
    dice: MeleeDice
    fx: MeleeEffects
    members: tuple[tuple[State, Body], ...]
    divide: Callable[[int], tuple] | None

    def totals(self, at: int, dt: int, parry: int) -> tuple[int, int]:
        """The two rolls with their modifiers, the defender's parry bonus added."""
        return at + self.dice.a_mod, dt + self.dice.d_mod + (parry - 100 if parry else 0)

    def mob_loses(self, at: int, dt: int, parry: int, pull: int) -> int:
        """The hits a losing mob divides (IX MOB, reading ``mob_losses``), else 0."""
        A, D = self.totals(at, dt, parry)
        return D - A if self.divide and A < D and not parry and pull != D_THROW else 0

    def mob_states(self, at: int, dt: int, parry: int, pull: int) -> tuple[State, ...]:
        """Every mob model's end state (the lead attacker first)."""
        hits = self.mob_loses(at, dt, parry, pull)
        return self.divide(hits)[1] if hits and self.divide else tuple(m[0] for m in self.members)

    def __call__(self, at: int, dt: int, parry: int, pull: int, ffa: int, ffd: int) -> tuple:
        A, D = self.totals(at, dt, parry)
        ds, as_ = self.dfd.start, self.att.start
        dmg = admg = 0
        tie: bool | int = A == D or (parry and D >= A)  # VIII TIE: a parrying defender's win is a tie
        if A > D:
            ds, dmg, tie = self._attacker_wins(A - D, pull, ffd, tie)
        elif A < D and not parry:
            as_, admg = self._attacker_loses(D - A, pull, ffa)
        if tie:
            ds, as_ = self._tie(ds, as_)
        return ds, as_, dmg, admg, tie

    def _attacker_wins(
        self, margin: int, pull: int, ffd: int, tie: bool | int
    ) -> tuple[State, int, bool | int]:
        """IV: the loser takes the difference as damage (IX +F: a red die off it; IX SWARM: one hit),
        or the winner pulls back to a lower roll (to 0: a tie); IX THROW: "or instead of doing
        damage", thrown 1" as a knockback."""
        fx, dfd = self.fx, self.dfd
        if pull == THROW:
            return (
                knocked_back(dfd.start, dfd.body, fx.into, by_size=self.att.body.size, fall_hits=fx.fall),
                0,
                tie,
            )
        if pull < margin and pull == 0:
            return dfd.start, 0, True
        dmg = max(0, (pull if pull < margin else margin) - ffd)
        if fx.cap_one:
            dmg = min(dmg, 1)
        return take(dfd.start, dmg, fx.codes, dfd.body, fx.kill_is_ko), dmg, tie

    def _attacker_loses(self, margin: int, pull: int, ffa: int) -> tuple[State, int]:
        """IV: a losing attacker takes at most one hit, as a graze (IX +F: a red die off it); IX THROW
        by the winning defender instead; IX MOB: the mob divides all the hits."""
        att, fx = self.att, self.fx
        if pull == D_THROW:
            return knocked_back(
                att.start, att.body, fx.into, by_size=self.dfd.body.size, fall_hits=fx.fall
            ), 0
        if self.divide:
            xs, states = self.divide(margin)
            return states[0], xs[0]
        admg = max(0, 1 - ffa)
        as_ = att.start
        if admg:
            h = as_[1]
            as_ = (as_[0], h - 1) if h >= 2 else best_graze(as_, fx.d_codes, att.body)
        return as_, admg

    def _tie(self, ds: State, as_: State) -> tuple[State, State]:
        """On a tie: VIII KNOCKBACK and IX THROW knock the other back; IX PLAGUE wounds him."""
        att, dfd, fx = self.att, self.dfd, self.fx
        if fx.a_tie_kb:
            ds = knocked_back(ds, dfd.body, fx.into, by_size=att.body.size, fall_hits=fx.fall)
        if fx.d_tie_kb:
            as_ = knocked_back(as_, att.body, fx.into, by_size=dfd.body.size, fall_hits=fx.fall)
        if fx.a_plague:
            ds = graze(ds, "wound", dfd.body, fx.kill_is_ko)
        if fx.d_plague:
            as_ = graze(as_, "wound", att.body)
        return ds, as_


def resolver(
    out: MeleeOutcome, lay: Layout, ffa: tuple, ffd: tuple
) -> tuple[Callable[[int, int, int], int], Callable[[int, int, int], np.ndarray]]:
    """``(choose, resolve)``: the winner's resolution choice for a pair of totals and parry, and the
    expected end features under it (over both force fields' dice; IX MOB: how many of the mob are
    killed, and KO'd or killed, the lead's ties included)."""
    obj = objective_for(lay)

    def expected(at: int, dt: int, parry: int, pull: int) -> np.ndarray:
        v = np.zeros(lay.size)
        for ga, pa in ffa:
            for gd, pd in ffd:
                ds, as_, dmg, admg, tie = out(at, dt, parry, pull, ga, gd)
                v += pa * pd * onehots(lay, ds, as_, dmg, admg, tie, 0 <= pull < 99, THROWN.get(pull, 0))
        if out.divide:
            states = out.mob_states(at, dt, parry, pull)
            for ga, pa in ffa:
                for gd, pd in ffd:
                    lead = out(at, dt, parry, pull, ga, gd)[1]
                    k, ko = counts((lead, *states[1:]))
                    v += pa * pd * lay.onehot(mob_killed=k, mob_ko=ko)
        return v

    @cache
    def choose(at: int, dt: int, parry: int) -> int:
        """IV: the attacker's best pull-back (99: none; THROW: a throw instead of damage) when he
        wins; the defender's throw instead of his graze (IX THROW) when the attacker loses against a
        defender who does not parry."""
        A, D = out.totals(at, dt, parry)
        margin = A - D
        if margin < 0 and not parry and out.fx.d_throws:
            keep, throw = obj(1, expected(at, dt, parry, 99)), obj(1, expected(at, dt, parry, D_THROW))
            return D_THROW if lex_better(throw, keep) else 99
        best, best_k = 99, obj(0, expected(at, dt, parry, 99))
        for pull in [*range(margin - 1, -1, -1), *((THROW,) if out.fx.throws and margin > 0 else ())]:
            k = obj(0, expected(at, dt, parry, pull))
            if lex_better(k, best_k):
                best, best_k = pull, k
        return best

    @cache
    def resolve(at: int, dt: int, parry: int) -> np.ndarray:
        return expected(at, dt, parry, choose(at, dt, parry))

    return choose, resolve


def _report(
    sc: Scenario,
    out: MeleeOutcome,
    arms: tuple[Arm, ...],
    grapple: bool,
    parry: tuple,
    sides: tuple[Side, Side],
) -> tuple[list[str], dict]:
    """The readings a melee uses and what it reports of its dice, modifiers, parry and re-rolls."""
    dfd, dice, fx = out.dfd, out.dice, out.fx
    parries, parry_bonus, can_parry = parry
    a_side, d_side = sides
    notes = [RULES.note(k) for k in ("multi_hit", "graze_order", "melee_fails", "tie_effects")]
    notes += melee_notes(arms, dfd, grapple, a_side.own or d_side.own)
    if sc.attack_mode == "dive":
        notes.append(RULES.note("dive_o"))
    if len(parries) > 1:
        notes.append(RULES.note("parry_declared"))
    info = {
        "attacker_dice": dice.a_pool.text,
        "defender_dice": dice.d_pool.text,
        "attacker_modifier": dice.a_mod,
        "defender_modifier": dice.d_mod,
        "parry_bonus": parry_bonus if can_parry else None,
        "graze": chosen_graze(dfd.start, fx.codes, dfd.body, fx.kill_is_ko),  # IV: the attacker's choice
        "attacker_rerolls": "RO" if a_side.opp else ("R" if a_side.own else "none"),
        "defender_rerolls": "RO" if d_side.opp else ("R" if d_side.own else "none"),
    }
    if out.divide:
        notes.append(RULES.note("mob_losses"))
        if fx.d_throw or fx.d_tie_kb:  # IX THROW / VIII KNOCKBACK by the defender: on the lead attacker
            notes.append(RULES.note("mob_throw"))
        most = max(1, dice.d_pool.max_total + dice.d_mod + parry_bonus - dice.a_mod)
        info["mob_division"] = {str(h): list(out.divide(h)[0]) for h in range(1, most + 1)}
    return notes, info


def melee(sc: Scenario) -> Attack:
    """The melee of the scenario's attacker against its defender (IV), or a mind war (VII: "a melee
    attack" of psychic dice); a mob's combined melee (IX MOB)."""
    att, dfd = fighter(sc.attacker, "attacker"), fighter(sc.defender, "defender")
    check_melee_bodies(att, dfd)
    arms, d_arms, grapple, a_kinds = melee_arms(sc, att, dfd)
    members: Members = [(att.start, att.body)]
    if sc.action == "mindwar":  # VII MIND WAR: 1 red per psy level each; the attacker takes range penalties
        a_pool, d_pool, arms, d_arms, grapple = mind_pools(sc, att, dfd)
    else:
        a_pool, d_pool = melee_pools(sc, att, dfd, arms, d_arms, grapple, a_kinds, members)
    dice = melee_dice(sc, att, dfd, arms, a_pool, d_pool)
    parry = parrying(sc, dfd, arms, d_arms, grapple)
    fx = melee_effects(sc, att, dfd, arms, d_arms)
    divide = division(tuple(members), fx.d_codes) if len(members) > 1 else None  # IX MOB
    out = MeleeOutcome(att, dfd, dice, fx, tuple(members), divide)
    lay = layout_for(
        att.body.hits,
        dfd.body.hits,
        dice.a_pool.max_total + 2,
        explodes(arms),
        len(members) if divide else 0,
        explodes(d_arms),  # VIII EXPLODE: the defender's melee weapon on his fail
        target_near=fails(arms),
    )
    ffa = FF_FACES if att.body.force_field else NO_FF
    ffd = FF_FACES if dfd.body.force_field else NO_FF
    choose, resolve = resolver(out, lay, ffa, ffd)
    a_side, d_side = melee_rerolls(sc, att, dfd, arms, d_arms)
    spec = Spec(
        Side(dice.a_pool, a_side.own, a_side.opp),
        Side(dice.d_pool, d_side.own, d_side.opp),
        parry[0],
        resolve,
        lay,
    )
    notes, info = _report(sc, out, arms, grapple, parry, (a_side, d_side))
    return Attack(
        spec, out, choose, att, dfd, arms, d_arms, ffa, ffd, notes, info, out.mob_states if divide else None
    )


def incursion(sc: Scenario) -> dict[str, float]:
    """VII INCURSION: "Treat the attack as a OO Mind War attack at range 0 vs. the Psyker, with no
    parry allowed" — the psyker's end state (reading ``incursion``: O is a red die)."""
    warp = sc.attacker.model_copy(update={"name": "warp", "abilities": ["Psy-2"], "weapons": []})
    sub = sc.model_copy(update={"attacker": warp, "defender": sc.attacker, "range": 0.0, "parry": "never"})
    atk = melee(sub)
    v = solve(atk.spec).value
    cond = atk.spec.layout.part(v, "def_condition")
    return {c: float(cond[i]) for i, c in enumerate(CONDITIONS)}


__all__ = [
    "MeleeOutcome",
    "incursion",
    "melee",
    "melee_arms",
    "melee_dice",
    "melee_pool",
    "mind_pools",
    "parrying",
]
