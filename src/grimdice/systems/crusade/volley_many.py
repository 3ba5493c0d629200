"""VOLLEY FIRE at several targets (rules-crusade IX VOLLEY FIRE).

"For each die that rolls something, you may reroll another one of the dice along with it to
generate a "2 dice" roll. Then you may apply the roll to any target within the declared range."

Reading ``volley_targets`` (unverified): the pairing is the one of ``volley_fire``; the attacker
chooses the pairing, which pair to roll next and, after seeing its total, the living target it is
applied to (each target with its own range, cover, armour and force field); once every target is
killed the remaining rolls are not applied. He maximises the summed P(killed), then the summed
P(KO or killed), then the expected damage, then fewer fails (the objective of RAPID FIRE's aim and
split fire). Without re-rolls and JINK only (refused with several targets).

The game is solved by dynamic programming over (pairs left by kind, each target's state), bounded
by :data:`~.volley_rerolls.MAX_VOLLEY_STATES` (exact) and :data:`~.volley_rerolls.MAX_POLICY_STATES`
(Monte Carlo, which plays the same solved policy on literally rolled dice).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from functools import cache, lru_cache
from math import prod
from typing import TypeVar

import numpy as np

from grimdice.dice.dist import Dist
from grimdice.dice.sampler import Sampler
from grimdice.engine.options import RunOptions
from grimdice.errors import ScenarioError
from grimdice.result import Result
from grimdice.systems.crusade.attack import Attack, each_target
from grimdice.systems.crusade.damage import CONDITIONS, KILLED, State
from grimdice.systems.crusade.profiles import Scenario
from grimdice.systems.crusade.report import simulated_model, targets_result, with_fail_joint
from grimdice.systems.crusade.rerolls_many import best_for, terminal_value
from grimdice.systems.crusade.rolls import draw_dice, roll_dice
from grimdice.systems.crusade.rules import RULES
from grimdice.systems.crusade.simulate_walk import R_SIDES, W_SIDES, Walk, pack
from grimdice.systems.crusade.volley_rerolls import (
    KINDS,
    MAX_POLICY_STATES,
    MAX_VOLLEY_STATES,
    TOP,
    Left,
    _pairings,
    big_roll_law,
    pair_faces,
    volley_states,
)

States = tuple[State, ...]
T = TypeVar("T")


def volley_targets(sc: Scenario, exact: bool = True) -> list[Attack]:
    """Each target's single-shot attack (:func:`.volley.volley_attack`), checked for the volley."""
    from grimdice.systems.crusade.volley import _rerolls, volley_attack

    atks = each_target(sc, volley_attack)
    if any(_rerolls(a) for a in atks):
        raise ScenarioError(
            "volley",
            "volley fire at several targets is resolved without re-rolls (R) or JINK; "
            "remove them or fire at one target",
        )
    states = prod(len(CONDITIONS) * (a.dfd.body.hits + 1) for a in atks)
    size = volley_states(2 * sc.volley, states, rerolls=False)
    bound = MAX_VOLLEY_STATES if exact else MAX_POLICY_STATES
    if size > bound:
        raise ScenarioError(
            "volley",
            f"volley fire of {sc.volley} models at {len(atks)} targets has {size} states to solve "
            f"(at most {bound}{'' if exact else ', also for --simulate, which plays the solved policy'}: "
            "pairs left x every target's states); use fewer models or targets"
            + (" or --simulate N" if exact else ""),
        )
    for a in atks:
        a.notes.append(RULES.note("volley_targets"))
    return atks


def _shots(atks: list[Attack]):
    """Per target, ``shot(total, state) -> ((state, damage, p), ...)`` of one "2 dice" roll."""
    from grimdice.systems.crusade.volley import _shot

    return [_shot(a) for a in atks]


def solve(dice: int, atks: list[Attack]):
    """The attacker's policy: ``pairing(n1, n2) -> Left``, ``pick(left, states) -> kind`` and
    ``aim(left, states, total) -> target`` (``left`` after this pair)."""
    shots = _shots(atks)
    n = len(atks)

    def best(options: Iterable[tuple[T, np.ndarray]]) -> tuple[np.ndarray, T]:
        """The attacker's best (value, choice) of ``options`` (ties keep the first)."""
        return best_for(-1, options, n)

    def roll(left: Left, states: States, kind: int) -> np.ndarray:
        """The value of rolling a pair of ``kind`` next (its total then aimed)."""
        rest = (*left[:kind], left[kind] - 1, *left[kind + 1 :])
        v = np.zeros(3 * n + 1)
        for (a, b), p in pair_faces(kind):
            w = aim(rest, states, a + b)[0].copy()
            w[-1] += a == TOP and b == TOP
            v += p * w
        return v

    def hit(left: Left, states: States, total: int, i: int) -> np.ndarray:
        """The value of applying a roll of ``total`` to target ``i``."""
        v = np.zeros(3 * n + 1)
        for s2, d, q in shots[i](total, states[i]):
            w = value(left, (*states[:i], s2, *states[i + 1 :]))[0].copy()
            w[3 * i + 2] += d
            v += q * w
        return v

    @cache
    def value(left: Left, states: States) -> tuple[np.ndarray, int]:
        """(expected [per target: killed, KO+, damage] + [fails], the kind of pair to roll next)."""
        if not any(left) or all(s[0] == KILLED for s in states):
            return terminal_value(states), -1
        return best((kind, roll(left, states, kind)) for kind, k in enumerate(left) if k)

    @cache
    def aim(left: Left, states: States, total: int) -> tuple[np.ndarray, int]:
        """(value, the living target the roll of ``total`` is applied to)."""
        return best((i, hit(left, states, total, i)) for i, st in enumerate(states) if st[0] != KILLED)

    @cache
    def pairing(n1: int, n2: int) -> Left:
        start = tuple(a.dfd.start for a in atks)
        return best((left, value(left, start)[0]) for left in _pairings(n1, n2, dice - n1 - n2))[1]

    return pairing, (lambda left, states: value(left, states)[1]), (lambda *a: aim(*a)[1])


#: (every target's end state, damage to each, failed pairs, "2 dice" rolls) -> probability
Final = dict[tuple[States, tuple[int, ...], int, int], float]


def end_law(sc: Scenario, atks: list[Attack]) -> tuple[Final, dict[str, float]]:
    """The volley's joint law of its end under the solved policy, and the expected rolls aimed at
    each target (``"i: name"``)."""
    dice = 2 * sc.volley
    pairing, pick, aim = solve(dice, atks)
    shots = _shots(atks)
    n = len(atks)
    start = tuple(a.dfd.start for a in atks)
    final: Final = defaultdict(float)
    aimed: dict[str, float] = defaultdict(float)
    # (pairs left, rolls, states, damage per target, fails) -> p
    law: dict[tuple, float] = defaultdict(float)
    for (n1, n2), p in big_roll_law(dice).items():
        left = pairing(n1, n2)
        law[(left, sum(left), start, (0,) * n, 0)] += p
    while law:
        nxt: dict[tuple, float] = defaultdict(float)
        for (left, rolls, states, dmg, fails), p0 in law.items():
            kind = pick(left, states)
            if kind < 0:
                final[(states, dmg, fails, rolls)] += p0
                continue
            rest = (*left[:kind], left[kind] - 1, *left[kind + 1 :])
            for (a, b), pf in pair_faces(kind):
                i = aim(rest, states, a + b)
                aimed[f"{i}: {sc.targets[i].name}"] += p0 * pf
                for s2, d, q in shots[i](a + b, states[i]):
                    dmg2 = (*dmg[:i], dmg[i] + d, *dmg[i + 1 :])
                    states2 = (*states[:i], s2, *states[i + 1 :])
                    nxt[(rest, rolls, states2, dmg2, fails + (a == TOP and b == TOP))] += p0 * pf * q
        law = nxt
    return dict(final), dict(aimed)


def exact_volley_many(sc: Scenario) -> Result:
    atks = volley_targets(sc)
    n = len(atks)
    final, aimed = end_law(sc, atks)
    per: list[dict[tuple[State, int], float]] = [defaultdict(float) for _ in atks]
    joint: list[dict[int, float]] = [defaultdict(float) for _ in atks]  # III: fail and result
    laws: dict[str, dict[int, float]] = {
        k: defaultdict(float) for k in ("damage", "models_destroyed", "fail", "rolls")
    }
    for (states, dmg, fails, rolls), p in final.items():
        for i in range(n):
            per[i][(states[i], dmg[i])] += p
            joint[i][states[i][0]] += p * (fails > 0)
        laws["damage"][sum(dmg)] += p
        laws["models_destroyed"][sum(s[0] == KILLED for s in states)] += p
        laws["fail"][fails] += p
        laws["rolls"][rolls] += p
    stages = {k: Dist.from_mapping(dict(v), normalize=True) for k, v in laws.items()}
    res = _result(sc, atks, stages, [dict(x) for x in per], "exact", fail_joint=joint)
    res.extra["aim"] = dict(aimed)  # expected "2 dice" rolls applied to each target
    return res


def _result(sc, atks, stages, per, method, trials=None, seed=None, fail_joint=None) -> Result:
    """The volley's result; MALFUNCTION's roll falls on the failing model of the volley, not
    resolved (``self_rolls=False``)."""
    resolved = {"volley_models": sc.volley, "volley_dice": f"{2 * sc.volley}W"}
    extra = {"resolved": resolved}
    return targets_result(
        sc, atks, method, stages, per, extra, fail_joint, self_rolls=False, trials=trials, seed=seed
    )


def simulated_volley_many(sc: Scenario, options: RunOptions) -> Result:
    """The big roll, the re-rolled blanks and the force fields' red dice rolled literally; the
    pairing, order and aim as the solved policy chooses."""
    atks = volley_targets(sc, exact=False)
    dice = 2 * sc.volley
    n = len(atks)
    pairing, pick, aim = solve(dice, atks)
    outcomes = [lru_cache(maxsize=None)(a.outcome) for a in atks]
    start = tuple(a.dfd.start for a in atks)
    names = [f"t{i}_{k}" for i in range(n) for k in ("damage", "condition", "hits_left")]

    walk = Walk(W_SIDES * R_SIDES)

    def step(state: tuple, key: int) -> tuple[tuple, tuple[int, ...]]:
        """The next pair under the solved policy, its re-rolled blank ``again`` and red die ``g``:
        ``(target aimed at or n, damage, failed, dice rolled after the big roll)``; ``done`` once
        the policy rolls no more."""
        left, states, done = state
        if done:
            return state, (n, 0, 0, 0)
        kind = pick(left, states)
        if kind < 0:
            return (left, states, True), (n, 0, 0, 0)
        again, g = divmod(key, R_SIDES)
        left = (*left[:kind], left[kind] - 1, *left[kind + 1 :])
        a, b0 = KINDS[kind]
        b = again if b0 is None else b0
        i = aim(left, states, a + b)
        s2, d, _ = outcomes[i](a + b, g if atks[i].dfd.body.force_field else 0, states[i])
        used = int(b0 is None) + int(atks[i].dfd.body.force_field)  # the re-rolled blank, the red die
        return (left, (*states[:i], s2, *states[i + 1 :]), False), (i, d, int(a == TOP and b == TOP), used)

    def trial(sampler: Sampler, size: int) -> dict[str, np.ndarray]:
        big = roll_dice(sampler, (size, dice), "W")
        again = draw_dice(sampler, (size, dice), "W")  # counted where a blank is re-rolled
        ff = draw_dice(sampler, (size, dice), "R")  # IX +F: rolled when the target aimed at has one
        out = {k: np.zeros(size, np.int64) for k in ("damage", "fail", *names)}
        firsts = pack([(big == 1).sum(axis=1), (big == 2).sum(axis=1)], (dice + 1, dice + 1))
        cur = walk.start(firsts, lambda c: (pairing(*divmod(c, dice + 1)), start, False))
        rolls = walk.table(cur, lambda st: (sum(st[0]),), 1)[0]
        for j in range(int(rolls.max(initial=0))):
            act = np.flatnonzero(j < rolls)
            cur[act], (i, d, failed, used) = walk.step(
                cur[act], pack([again[act, j], ff[act, j]], (W_SIDES, R_SIDES)), step, 4
            )
            sampler.dice += int(used.sum())
            out["fail"][act] += failed
            for k in range(n):
                out[f"t{k}_damage"][act] += np.where(i == k, d, 0)
        end = walk.table(cur, lambda st: [x for s in st[1] for x in s], 2 * n)
        out["rolls"] = rolls.astype(np.int64)
        out["models_destroyed"] = (end[0::2] == KILLED).sum(axis=0).astype(np.int64)
        for k in range(n):
            out["damage"] += out[f"t{k}_damage"]
            out[f"t{k}_condition"], out[f"t{k}_hits_left"] = end[2 * k], end[2 * k + 1]
        return out

    tally = options.run(with_fail_joint(trial, [f"t{k}_condition" for k in range(n)]))
    stages = {k: tally.dist(k) for k in ("damage", "models_destroyed", "fail", "rolls")}
    joint = [tally.dist(f"fail_t{k}_condition").to_dict() for k in range(n)]
    res = _result(sc, atks, stages, [None] * n, "simulated", tally.trials, options.seed, joint)
    for i, r in enumerate(res.targets.values()):
        simulated_model(r, **{k: tally.dist(f"t{i}_{k}") for k in ("condition", "damage", "hits_left")})
    return res


__all__ = ["end_law", "exact_volley_many", "simulated_volley_many", "solve", "volley_targets"]
