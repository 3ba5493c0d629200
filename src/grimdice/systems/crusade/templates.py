"""Many targets from one attack (rules-crusade VIII): LINE EFFECT, BLAST, FLAMER TEMPLATE, SPLIT
FIRE (*) and RAPID FIRE, each target with its own range and cover.

* LINE: "Apply the roll to ALL eligible models in the line" — one roll, each target's own range and
  cover; * BLAST: "Center applies the total roll, and Outside applies highest die only
  (+modifiers)" — the first target is the centre; * FLAMER: "Roll seperately for each target";
* SPLIT FIRE: "Split the total up amongst any targets" — the total is the dice plus the weapon's
  plus, split once (the plus is not added to every share); the attacker picks the best split of
  each total, a target given nothing is not shot (range and cover per target);
* RAPID FIRE: two shots if all targets are within 6", each shot at a living target (reading
  ``rapid_fire_aim``).

Re-rolls (VIII R) and JINK (IX) act on the one roll of LINE, BLAST and SPLIT FIRE
(:mod:`.rerolls_many`), and on the several rolls of flamer templates and RAPID FIRE, one re-roll and
one jink a turn serving them all (:mod:`.shots`).
"""

from __future__ import annotations

from collections import defaultdict
from functools import cache
from itertools import product
from typing import Any

import numpy as np

from grimdice.dice.dist import Dist
from grimdice.dice.sampler import Sampler
from grimdice.engine.options import RunOptions
from grimdice.errors import ScenarioError
from grimdice.result import Result
from grimdice.systems.crusade.attack import Attack, each_target, shooting, shot_law
from grimdice.systems.crusade.damage import KILLED, KO, State
from grimdice.systems.crusade.explode import with_explosions
from grimdice.systems.crusade.profiles import Scenario
from grimdice.systems.crusade.report import simulated_model, targets_result, with_fail_joint
from grimdice.systems.crusade.rerolls_many import (
    SLOTS,
    reroll_law,
    reroll_slot,
    roll_law,
    summary,
)
from grimdice.systems.crusade.rolls import DICE, Pool, draw_dice, max_count, roll_dice, roll_pool
from grimdice.systems.crusade.rules import RULES
from grimdice.systems.crusade.shots import Turn, solve_turn
from grimdice.systems.crusade.simulate_walk import R_SIDES, W_SIDES, Walk, digits, pack
from grimdice.systems.crusade.template_modes import (
    check_buildings,
    mode_of,
    share_outcome,
    share_states,
    split_total,
    splits,
)
from grimdice.systems.crusade.turn_trial import TurnTrial, slot_counts, unpack_slots
from grimdice.systems.crusade.units import check_many_targets


def per_target(sc: Scenario) -> list[Attack]:
    """Each target as its own single-target shooting attack (its range, cover, armour, hits)."""
    return each_target(sc, shooting)


def total_high_law(white: int, red: int) -> dict[tuple[int, int, bool], float]:
    """``{(total, highest die, failed): p}`` of a pool (:func:`~.rerolls_many.roll_law`)."""
    return roll_law(Pool(white, red))


def target_states(atk: Attack, roll: int, start: State | None = None) -> list[tuple[float, State, int]]:
    """(p, end state, damage) of one target hit by ``roll`` (dice total), over its force field die;
    ``start``: the state an earlier shot left (RAPID FIRE)."""
    return [(p, s, d) for s, d, p in shot_law(atk, roll, start)]


def outcome_key(states: list[tuple[float, State, int]]) -> tuple[float, float, float]:
    """A target's worth to the attacker of its (p, end state, damage) law: (P(killed), P(KO or
    worse), expected damage), the values re-rolls and jinks are weighed by (VIII R, IX JINK)."""
    k = sum(p for p, s, _ in states if s[0] == KILLED)
    ko = sum(p for p, s, _ in states if s[0] >= KO)
    d = sum(p * dmg for p, _, dmg in states)
    return (k, ko, d)


def single_roll(atks: list[Attack], mode: str, t: int, h: int):
    """Per-target outcomes of one roll of total ``t`` and highest die ``h`` (LINE, BLAST, SPLIT
    FIRE), and the split chosen (split fire: the attacker's best split of the total, else None)."""
    if mode == "line":
        return [target_states(a, t) for a in atks], None
    if mode == "blast":
        return [target_states(atks[0], t)] + [target_states(a, h) for a in atks[1:]], None
    best, best_k = None, None
    for split in splits(split_total(atks[0].spec.att.pool, t), len(atks)):
        outs_s = [share_states(a, x) for a, x in zip(atks, split, strict=True)]
        k = tuple(sum(c) for c in zip(*(outcome_key(o) for o in outs_s), strict=True))
        if best_k is None or k > best_k:
            best, best_k = (split, outs_s), k
    assert best is not None  # splits yields at least one split of the total
    return best[1], best[0]


def rerolls_of(atks: list[Attack]) -> tuple[bool, tuple[int, ...]]:
    """(the attacker may re-roll one die, the targets that may jink); ``any()`` of it: either."""
    own = atks[0].spec.att.own
    jinkers = tuple(i for i, a in enumerate(atks) if a.spec.dfd.opp)
    return own, jinkers


def roll_rerolls(atks: list[Attack], mode: str, pool: Pool, jinkers: tuple[int, ...] | None = None):
    """VIII REROLL / IX JINK on a roll shared by the targets (:mod:`.rerolls_many`); ``jinkers``:
    the targets that jink (a subset of those that may; all of them when not given)."""
    own, may_jink = rerolls_of(atks)
    jinkers = may_jink if jinkers is None else jinkers

    @cache
    def value(roll: tuple[int, int, bool]) -> np.ndarray:
        outs, _ = single_roll(atks, mode, roll[0], roll[1])
        return np.array([x for o in outs for x in outcome_key(o)] + [float(roll[2])])

    return reroll_law(pool, own, jinkers, value, len(atks))


def prepared(sc: Scenario, exact: bool) -> tuple[list[Attack], str, Pool]:
    """Each target's attack, the template mode and the dice, once the many-target checks pass."""
    atks = per_target(sc)
    mode = mode_of(atks[0])
    pool = atks[0].spec.att.pool
    if mode == "rapid_fire" and (
        any((t.range if t.range is not None else sc.range) > 6 for t in sc.targets) or len(sc.targets) > 2
    ):
        raise ScenarioError(
            "targets", "RAPID FIRE fires twice only if all (at most 2) targets are within 6 inches"
        )
    check_many_targets(pool, mode, len(atks), exact)
    check_buildings(sc, mode)
    return atks, mode, pool


def exact_many(sc: Scenario, options: RunOptions) -> Result:
    atks, mode, pool = prepared(sc, options.exact)
    if mode == "rapid_fire" or (mode == "flamer" and any(rerolls_of(atks))):
        return _turn_result(sc, atks, mode, pool, options)
    solved = roll_rerolls(atks, mode, pool) if any(rerolls_of(atks)) else None
    if options.simulate is not None:
        return _simulated(sc, atks, mode, pool, options, solved[2] if solved else None)
    law = total_high_law(pool.white, pool.red)
    n = len(atks)
    # joint law: per-target (condition, hits, damage) given the roll; damage / kills across targets
    per: list[defaultdict[Any, float]] = [defaultdict(float) for _ in atks]
    kills: dict[int, float] = defaultdict(float)
    damage: dict[int, float] = defaultdict(float)
    fails: dict[int, float] = defaultdict(float)
    split_choice: dict[int, tuple[int, ...]] = {}
    fail_joint: list[dict[int, float]] = [defaultdict(float) for _ in atks]  # III: fail and result

    def add(p: float, outcomes: list[list[tuple[float, State, int]]], nfail: int) -> None:
        fails[nfail] += p
        for i, oc in enumerate(outcomes):
            for pp, s, _ in oc:
                fail_joint[i][s[0]] += p * pp * (nfail > 0)
        joint = {(0, 0): 1.0}
        for i, oc in enumerate(outcomes):
            nxt: dict[tuple[int, int], float] = defaultdict(float)
            for (kk, dd), q in joint.items():
                for pp, s, dmg in oc:
                    nxt[(kk + (s[0] == KILLED), dd + dmg)] += q * pp
                    per[i][(s, dmg)] += 0  # keep keys
            joint = nxt
            for pp, s, dmg in oc:
                per[i][(s, dmg)] += p * pp
        for (kk, dd), q in joint.items():
            kills[kk] += p * q
            damage[dd] += p * q

    if mode == "flamer":
        single = total_high_law(pool.white, pool.red)
        marg: defaultdict[Any, float] = defaultdict(float)
        for (t, _, f), p in single.items():
            marg[(t, f)] += p
        for combo in product(marg.items(), repeat=n):
            p = float(np.prod([q for _, q in combo]))
            outs = [target_states(atks[i], t) for i, ((t, _), _) in enumerate(combo)]
            add(p, outs, sum(f for (_, f), _ in combo))
    else:
        choices: dict[str, float] = {}
        if solved is not None:
            law, choices, _ = solved
        for (t, h, f), p in law.items():
            outs, split = single_roll(atks, mode, t, h)
            if split is not None:
                split_choice[t] = split
            add(p, outs, int(f))
        res = _result(sc, atks, mode, "exact", kills, damage, fails, per, split_choice, fail_joint=fail_joint)
        if choices:
            res.extra["rerolls"] = choices
        return res
    return _result(sc, atks, mode, "exact", kills, damage, fails, per, split_choice, fail_joint=fail_joint)


def _result(
    sc, atks, mode, method, kills, damage, fails, per, split_choice, trials=None, seed=None, fail_joint=None
) -> Result:
    stages = {
        "damage": Dist.from_mapping(dict(damage), normalize=True),
        "models_destroyed": Dist.from_mapping(dict(kills), normalize=True),
        "fail": Dist.from_mapping(dict(fails), normalize=True),
    }
    extra: dict = {"mode": mode}
    if split_choice:
        extra["split"] = {str(t): list(s) for t, s in sorted(split_choice.items())}
    res = targets_result(sc, atks, method, stages, per, extra, fail_joint, trials=trials, seed=seed)
    return with_explosions(sc, res, atks[0].arms)  # VIII EXPLODE: on any failed roll


def _play_rerolls(sampler: Sampler, act, phases, kinds, faces, tot, high, failed) -> None:
    """Replay the solved re-roll policy on each rolled pool; updates the first roll's summaries.
    Vectorised over the pools (:class:`~.simulate_walk.Walk`): each distinct (counts per slot,
    failed) and re-rolled die of a phase stepped once through the policy."""
    spare = {k: draw_dice(sampler, (len(faces), max(1, phases)), k) for k in DICE}  # counted if rolled
    radix = len(kinds) + 1
    walk = Walk(2 * radix ** len(SLOTS))

    def step(state: tuple, key: int) -> tuple[tuple, tuple[int, ...]]:
        c, fail, phase = state
        a = act(c, fail, phase)
        if a < 0:
            return (c, fail, phase + 1), (0,)
        new = reroll_slot(c, a, digits(key, (W_SIDES, R_SIDES))[SLOTS[a][0] == "R"])
        return (new, summary(new, fail)[2], phase + 1), (1,)

    first = slot_counts(kinds, faces, radix) * 2 + failed[0].astype(np.int64)
    cur = walk.start(first, lambda code: (unpack_slots(code // 2, radix), bool(code % 2), 0))
    for phase in range(phases):
        cur, (rerolled,) = walk.step(
            cur, pack([spare["W"][:, phase], spare["R"][:, phase]], (W_SIDES, R_SIDES)), step, 1
        )
        sampler.dice += int(rerolled.sum())
    tot[0], high[0], failed[0] = walk.table(cur, lambda st: summary(st[0], st[1]), 3)


def _simulated(
    sc: Scenario, atks: list[Attack], mode: str, pool: Pool, options: RunOptions, act=None
) -> Result:
    n = len(atks)
    rolls = n if mode == "flamer" else 1
    split_table: dict[int, tuple[int, ...]] = {}
    if mode == "split_fire":
        ex = exact_many(sc, RunOptions())
        split_table = {int(t): tuple(s) for t, s in ex.extra["split"].items()}
    # the split's hits on target i per total rolled (a look-up table by total)
    top = max(split_table, default=0) + 1
    split_of = [np.array([split_table.get(t, (0,) * n)[i] for t in range(top)], np.int64) for i in range(n)]

    def trial(sampler: Sampler, size: int) -> dict[str, np.ndarray]:
        tot, high, failed = [], [], []
        for _ in range(rolls):
            kinds, faces = roll_pool(sampler, pool, size)
            tot.append(faces.sum(axis=1))
            high.append(faces.max(axis=1))
            failed.append((max_count(kinds, faces) >= 2).astype(np.int64))
        if act is not None:  # VIII R / IX JINK on the one roll, the dice re-rolled literally
            _play_rerolls(
                sampler,
                act,
                len(rerolls_of(atks)[1]) + int(rerolls_of(atks)[0]),
                kinds,
                faces,
                tot,
                high,
                failed,
            )
        shielded = [i for i, a in enumerate(atks) if a.dfd.body.force_field]
        ff = np.zeros((size, n), np.int8)  # IX +F: a red die for each target with a force field
        ff[:, shielded] = roll_dice(sampler, (size, len(shielded)), "R")
        out = {k: np.zeros(size, np.int64) for k in ("damage", "models_destroyed", "fail")}
        for i in range(n):
            out[f"cond{i}"] = np.zeros(size, np.int64)
            out[f"dmg{i}"] = np.zeros(size, np.int64)
            out[f"hits{i}"] = np.zeros(size, np.int64)
        out["fail"] = np.sum(failed, axis=0, dtype=np.int64)
        for i, a in enumerate(atks):
            if mode == "line":
                total = tot[0]
            elif mode == "blast":
                total = tot[0] if i == 0 else high[0]
            elif mode == "flamer":
                total = tot[i]
            else:
                total = split_of[i][tot[0]]  # the target's share of the split total
            g = ff[:, i].astype(np.int64)
            # each distinct (total, red die) resolved once, looked up for all trials
            uniq, inv = np.unique(np.asarray(total, np.int64) * R_SIDES + g, return_inverse=True)
            resolve = (lambda x, f, a=a: share_outcome(a, x, f)) if mode == "split_fire" else a.outcome
            ends = np.array(
                [(s[0], d, s[1]) for s, d, _ in (resolve(*divmod(int(c), R_SIDES)) for c in uniq)], np.int64
            ).reshape(-1, 3)[np.asarray(inv).reshape(-1)]
            out[f"cond{i}"], out[f"dmg{i}"], out[f"hits{i}"] = ends[:, 0], ends[:, 1], ends[:, 2]
            out["damage"] += ends[:, 1]
            out["models_destroyed"] += ends[:, 0] == KILLED
        return out

    conds = [f"cond{i}" for i in range(len(atks))]
    return _tally_result(sc, atks, mode, options.run(with_fail_joint(trial, conds)), options)


def _tally_result(sc: Scenario, atks: list[Attack], mode: str, tally, options: RunOptions) -> Result:
    """The many-target result from Monte Carlo counts (per target ``cond``/``dmg``/``hits`` i)."""
    dist = tally.dist
    res = _result(
        sc,
        atks,
        mode,
        "simulated",
        dist("models_destroyed").to_dict(),
        dist("damage").to_dict(),
        dist("fail").to_dict(),
        [{} for _ in atks],
        {},
        tally.trials,
        options.seed,
        [dist(f"fail_cond{i}").to_dict() for i in range(len(atks))],
    )
    for i, name in enumerate(list(res.targets)[: len(atks)]):  # the explosions' results follow
        simulated_model(
            res.targets[name], dist(f"cond{i}"), damage=dist(f"dmg{i}"), hits_left=dist(f"hits{i}")
        )
    return res


# ---------------------------------------------------------------------- several rolls with re-rolls
def turn_of(atks: list[Attack], mode: str, pool: Pool) -> Turn:
    """The rolls of the turn: one per target (flamer), or two shots (RAPID FIRE: "May fire weapon
    twice"), each aimed by the attacker at a target still alive, or held (reading ``rapid_fire_aim``)."""
    n = len(atks)
    rapid = mode == "rapid_fire"
    shots = (0, 0) if rapid else tuple(range(n))
    own, jinkers = rerolls_of(atks)
    return Turn(pool, shots, tuple(a.dfd.start for a in atks), own, jinkers, aim=rapid)


def _turn_result(sc: Scenario, atks: list[Attack], mode: str, pool: Pool, options: RunOptions) -> Result:
    """Flamer templates and RAPID FIRE with the attacker's re-roll and the targets' jinks
    (:mod:`.shots`, reading ``shots_in_turn``): exact, or Monte Carlo playing the solved policy."""
    turn = turn_of(atks, mode, pool)
    final, choices, policy, aim = solve_turn(turn, lambda i, t, start: target_states(atks[i], t, start))
    for a in atks:
        if any(rerolls_of(atks)):
            a.notes.append(RULES.note("shots_in_turn"))
        if turn.aim:
            a.notes.append(RULES.note("rapid_fire_aim"))
    aims = choices.pop("aim", None)
    if options.simulate is not None:
        res = _simulated_turn(sc, atks, mode, turn, policy, aim, options)
    else:
        res = _exact_turn(sc, atks, mode, final)
    if any(rerolls_of(atks)):
        res.extra["rerolls"] = choices
    if aims is not None:  # where each shot went (exact law; Monte Carlo plays the same aim)
        names = {f"target {i}": f"{i}: {t.name}" for i, t in enumerate(sc.targets)}
        aim_of: dict[str, dict[str, float]] = defaultdict(dict)
        for k, p in aims.items():
            roll, where = k.split(": ")
            aim_of[roll][names.get(where, where)] = p
        res.extra["aim"] = dict(aim_of)
    return res


def _exact_turn(sc: Scenario, atks: list[Attack], mode: str, final) -> Result:
    per: list[defaultdict[Any, float]] = [defaultdict(float) for _ in atks]
    kills: dict[int, float] = defaultdict(float)
    damage: dict[int, float] = defaultdict(float)
    fails: dict[int, float] = defaultdict(float)
    fail_joint: list[dict[int, float]] = [defaultdict(float) for _ in atks]  # III: fail and result
    for (states, dmgs, nfail), p in final.items():
        fails[nfail] += p
        for i, st in enumerate(states):
            fail_joint[i][st[0]] += p * (nfail > 0)
        kills[sum(s[0] == KILLED for s in states)] += p
        damage[sum(dmgs)] += p
        for i, (s, d) in enumerate(zip(states, dmgs, strict=True)):
            per[i][(s, d)] += p
    return _result(sc, atks, mode, "exact", kills, damage, fails, per, {}, fail_joint=fail_joint)


def _simulated_turn(sc, atks, mode, turn: Turn, policy, aim, options: RunOptions) -> Result:
    """The turn's rolls rolled literally and the solved policy (aim, re-rolls, jinks) played for
    all trials at once (:class:`~.turn_trial.TurnTrial`)."""
    trial = TurnTrial(atks, turn, policy, aim)
    conds = [f"cond{i}" for i in range(len(atks))]
    return _tally_result(sc, atks, mode, options.run(with_fail_joint(trial, conds)), options)
