"""VOLLEY FIRE (rules-crusade IX, optional): many 2-white basic weapons fired as one big roll.

"All troops equipped with basic weapons that roll only 2 whites (no pluses) are eligible ... roll
all of the white dice together in one big roll. For each die that rolls something, you may reroll
another one of the dice along with it to generate a "2 dice" roll. Then you may apply the roll to
any target within the declared range. You may reroll each die only once."

The pairing of the re-rolled dice is ambiguous; the reading used (``volley_fire``, unverified):
each die of the big roll that shows something (1 or 2) is matched, in the order the dice lie, with
a die that showed nothing, which is re-rolled once; the pair (kept face + re-rolled face) is one
"2 dice" roll. When the blank dice run out, the remaining scoring dice pair with each other as
rolled (the re-roll is optional and would only lose a scoring face); an odd scoring die left over
makes no roll. Every "2 dice" roll is a shot at the defender (its range, cover, armour, force
field), the re-rolled pairs first, each on the state the previous left, until it is killed; a pair
showing two maxima fails (III).

Since the dice are exchangeable, the exact engine counts: ``K`` scoring dice of ``2N``
(binomial, 1/3 each), ``min(K, 2N - K)`` re-rolled pairs (a scoring face, 1 or 2 evenly, plus a
white) and ``max(0, K - (2N - K)) // 2`` kept pairs (two scoring faces).
"""

from __future__ import annotations

from collections import defaultdict
from functools import cache, lru_cache, partial
from math import comb

import numpy as np

from grimdice.dice.dist import Dist
from grimdice.dice.sampler import Sampler
from grimdice.engine.options import RunOptions
from grimdice.errors import ScenarioError
from grimdice.result import Result
from grimdice.systems.crusade.attack import Attack, shooting, shot_law
from grimdice.systems.crusade.damage import CONDITIONS, KILLED, State
from grimdice.systems.crusade.profiles import Scenario
from grimdice.systems.crusade.report import fail_by_conditions, fail_report, simulated_model, with_fail_joint
from grimdice.systems.crusade.rolls import Pool, draw_dice, roll_dice
from grimdice.systems.crusade.rules import RULES
from grimdice.systems.crusade.simulate_walk import R_SIDES, W_SIDES, Walk, digits, pack
from grimdice.systems.crusade.volley_rerolls import (
    KINDS,
    MAX_VOLLEY_STATES,
    SCORING,
    TOP,
    WHITE,
    check_size,
    pairs_of,
    solve_volley,
    volley_states,
)

P_SCORE = sum(1 for f in WHITE if f > 0) / len(WHITE)

Law = dict[tuple[int, bool], float]  # (pair total, failed) -> probability


def _law(pairs: list[tuple[int, int]]) -> Law:
    out: Law = defaultdict(float)
    p = 1.0 / len(pairs)
    for a, b in pairs:
        out[(a + b, a == TOP and b == TOP)] += p
    return dict(out)


REROLLED: Law = _law([(s, r) for s in SCORING for r in WHITE])  # a scoring face + a re-rolled white
KEPT: Law = _law([(s, t) for s in SCORING for t in SCORING])  # two scoring faces as rolled


def volley_attack(sc: Scenario) -> Attack:
    """The single-shot attack each "2 dice" roll makes; checks the volley's eligibility."""
    if sc.targets:
        raise ScenarioError("volley", "volley fire at several targets is resolved by volley_many")
    atk = shooting(sc)
    if len(atk.arms) != 1 or atk.arms[0].pool != Pool(white=2):
        names = ", ".join(f"{a.name} ({a.pool.text})" for a in atk.arms)
        raise ScenarioError(
            "volley", f"volley fire needs one basic weapon rolling only 2 whites (no pluses); got {names}"
        )
    atk.notes.append(RULES.note("volley_fire"))
    if atk.spec.att.own or atk.spec.dfd.opp:  # VIII R / IX JINK (:mod:`.volley_rerolls`)
        atk.notes.append(RULES.note("volley_rerolls"))
    return atk


def _shot(atk: Attack):
    """(state, damage, p) of one "2 dice" roll of ``total`` at a target in ``start``, memoised."""
    return cache(partial(shot_law, atk))


def _rerolls(atk: Attack) -> bool:
    """VIII R / IX JINK act on the volley."""
    return atk.spec.att.own or atk.spec.dfd.opp


def _solved(sc: Scenario, atk: Attack) -> bool:
    """Whether the attacker's pairing and order are solved (:mod:`.volley_rerolls`): always with
    re-rolls or JINK; without, up to ``MAX_VOLLEY_STATES`` states (the same bound for the exact
    engine and Monte Carlo, so both play the same volley), beyond it the dice pair in the order they
    lie (reading ``volley_die_order``)."""
    states = len(CONDITIONS) * (atk.dfd.body.hits + 1)
    return _rerolls(atk) or volley_states(2 * sc.volley, states, rerolls=False) <= MAX_VOLLEY_STATES


def _with_rerolls(sc: Scenario, atk: Attack, exact: bool = True):
    """The solved volley: the attacker's best pairing and order, with his re-roll and the target's
    jink if they have them (:mod:`.volley_rerolls`); for Monte Carlo (``exact=False``) the policy
    only."""
    dice = 2 * sc.volley
    if _rerolls(atk):
        check_size(dice, len(CONDITIONS) * (atk.dfd.body.hits + 1), exact)
    return solve_volley(dice, atk.dfd.start, atk.spec.att.own, atk.spec.dfd.opp, _shot(atk), exact)


def exact_volley(sc: Scenario) -> Result:
    atk = volley_attack(sc)
    dice = 2 * sc.volley
    shot = _shot(atk)
    if _solved(sc, atk):
        final_rr, choices, _ = _with_rerolls(sc, atk)
        res = _result(sc, atk, final_rr, "exact")
        if _rerolls(atk):
            res.extra["rerolls"] = choices
        return res
    # (state, damage, fails, rolls) -> p
    final: dict[tuple[State, int, int, int], float] = defaultdict(float)
    for k in range(dice + 1):
        pk = comb(dice, k) * P_SCORE**k * (1 - P_SCORE) ** (dice - k)
        rerolled, kept = pairs_of(k, dice)
        law = {(atk.dfd.start, 0, 0): 1.0}
        for pair in (REROLLED,) * rerolled + (KEPT,) * kept:
            nxt: dict[tuple[State, int, int], float] = defaultdict(float)
            for (s, dmg, fails), p in law.items():
                for (total, failed), q in pair.items():
                    for s2, d, r in shot(total, s):
                        nxt[(s2, dmg + d, fails + failed)] += p * q * r
            law = nxt
        for (s, dmg, fails), p in law.items():
            final[(s, dmg, fails, rerolled + kept)] += pk * p
    res = _result(sc, atk, final, "exact")
    res.notes.append(RULES.note("volley_die_order"))
    return res


def _result(sc: Scenario, atk: Attack, law, method: str, trials=None, seed=None) -> Result:
    stages_law: dict[str, dict[int, float]] = {
        k: defaultdict(float)
        for k in ("damage", "models_destroyed", "condition", "hits_left", "fail", "rolls")
    }
    for (s, dmg, fails, rolls), p in law.items():
        stages_law["damage"][dmg] += p
        stages_law["models_destroyed"][int(s[0] == KILLED)] += p
        stages_law["condition"][s[0]] += p
        stages_law["hits_left"][s[1]] += p
        stages_law["fail"][fails] += p
        stages_law["rolls"][rolls] += p
    stages = {k: Dist.from_mapping(dict(v), normalize=True) for k, v in stages_law.items()}
    cond = stages["condition"]
    p_fail = 1 - float(stages["fail"][0])
    joint: dict[int, float] = defaultdict(float)  # III: a pair failed and the target's condition
    for (s, _, fails, _), p in law.items():
        joint[s[0]] += p * (fails > 0)
    extra = {
        "end_state": {c: float(cond[i]) for i, c in enumerate(CONDITIONS)},
        "fail_effects": {
            **fail_report(p_fail, atk.arms, atk.att.armour),
            "by_result": fail_by_conditions(joint, atk.arms),
        },
        "resolved": {**atk.info, "volley_models": sc.volley, "volley_dice": f"{2 * sc.volley}W"},
    }
    return Result(
        "crusade",
        method,
        stages,
        extra=extra,
        trials=trials,
        seed=seed,
        title=sc.title,
        notes=list(atk.notes),
    )


class _VolleyTrial:
    """The trials of one volley (a :class:`Walk` over its states): the big roll and the re-rolled
    blanks rolled literally, paired and ordered as the solved ``policy`` chooses, or without one in
    the order the dice lie; the force field's red die rolled too."""

    def __init__(self, atk: Attack, dice: int, policy) -> None:
        self.atk, self.dice, self.policy = atk, dice, policy
        self.outcome = lru_cache(maxsize=None)(atk.outcome)
        self.shielded = atk.dfd.body.force_field
        self.walk = Walk(W_SIDES * W_SIDES * W_SIDES * R_SIDES)

    def shot_step(self, state: State, key: int) -> tuple[State, tuple[int, ...]]:
        """A "2 dice" roll of total ``key // R_SIDES`` with the red die ``key % R_SIDES``."""
        total, g = divmod(key, R_SIDES)
        s2, d, _ = self.outcome(total, g, state)
        return s2, (d,)

    def policy_step(self, state: tuple, key: int) -> tuple[tuple, tuple[int, ...]]:
        """The next pair under the solved policy: the re-rolled blank ``again``, the attacker's
        (VIII R) and the jink's (IX JINK) re-rolled dice ``spare``, the red die ``g``: ``(damage,
        failed, white dice re-rolled)``; a pair showing two maxima fails (III)."""
        pick_kind, reroll = self.policy[1], self.policy[2]
        left, rr, jk, s = state
        again, *spare, g = digits(key, (W_SIDES, W_SIDES, W_SIDES, R_SIDES))
        kind = pick_kind(left, rr, jk, s)
        left = (*left[:kind], left[kind] - 1, *left[kind + 1 :])
        a, b0 = KINDS[kind]
        b = again if b0 is None else b0
        failed = a == TOP and b == TOP
        used = int(b0 is None)
        for who in (-1, 0):
            die = reroll(left, rr, jk, s, a, b, kind, failed, who)
            if die < 0:
                continue
            w = spare[who + 1]
            used += 1
            a, b = (w, b) if die == 0 else (a, w)
            failed = failed or (a == TOP and b == TOP)
            rr, jk = (False, jk) if who < 0 else (rr, False)
        s2, d, _ = self.outcome(a + b, g, s)
        return (left, rr, jk, s2), (d, int(failed), used)

    def __call__(self, sampler: Sampler, size: int) -> dict[str, np.ndarray]:
        """One batch: the big roll, counted; the dice that may be rolled after it drawn ahead,
        counted where rolled."""
        dice = self.dice
        big = roll_dice(sampler, (size, dice), "W")
        again = draw_dice(sampler, (size, dice), "W")  # the re-rolled blanks, in pairing order
        ff = (  # IX +F: the force field's red die off each roll's damage, rolled literally
            draw_dice(sampler, (size, dice), "R") if self.shielded else np.zeros((size, dice), np.int8)
        )
        spare = (
            draw_dice(sampler, (size, dice, 2), "W") if self.policy else None
        )  # the attacker's, the jink's
        out = {k: np.zeros(size, np.int64) for k in ("damage", "fail")}
        if spare is None:
            rolls, end = self._in_order(sampler, big, again, ff, out)
        else:
            rolls, end = self._solved(sampler, big, again, spare, ff, out)
        out["rolls"] = rolls.astype(np.int64)
        out["condition"], out["hits_left"] = end
        return out

    def _in_order(self, sampler: Sampler, big, again, ff, out) -> tuple[np.ndarray, np.ndarray]:
        """(rolls, end) with the pairs in the order the dice lie (reading ``volley_die_order``): a
        scoring die with a re-rolled blank, then two kept scoring dice (IX VOLLEY FIRE)."""
        atk, dice, size = self.atk, self.dice, len(big)
        n1, n2 = (big == 1).sum(axis=1), (big == 2).sum(axis=1)
        order = np.argsort(big == 0, axis=1, kind="stable")  # the scoring dice first, in order
        scoring = np.take_along_axis(big, order, axis=1).astype(np.int64)
        k = n1 + n2
        n_re = np.minimum(k, dice - k)
        rolls = n_re + (k - n_re) // 2
        cur = self.walk.start(np.zeros(size, np.int64), lambda _: atk.dfd.start)
        for j in range(int(rolls.max(initial=0))):
            act = np.flatnonzero(j < rolls)
            re = j < n_re[act]  # a scoring die with a re-rolled blank, else two kept scoring dice
            at = np.where(re, j, n_re[act] + 2 * (j - n_re[act]))
            a = scoring[act, np.minimum(at, dice - 1)]
            b = np.where(re, again[act, j], scoring[act, np.minimum(at + 1, dice - 1)])
            out["fail"][act] += (a == TOP) & (b == TOP)
            sampler.dice += int(np.count_nonzero(re)) + (len(act) if self.shielded else 0)
            cur[act], (d,) = self.walk.step(
                cur[act], pack([a + b, ff[act, j]], (2 * W_SIDES - 1, R_SIDES)), self.shot_step, 1
            )
            out["damage"][act] += d
        return rolls, self.walk.table(cur, lambda st: st, 2)

    def _solved(self, sampler: Sampler, big, again, spare, ff, out) -> tuple[np.ndarray, np.ndarray]:
        """(rolls, end) under VIII R, IX JINK: the solved pairing, order and re-rolls, every die rolled."""
        atk, dice = self.atk, self.dice
        n1, n2 = (big == 1).sum(axis=1), (big == 2).sum(axis=1)
        pairing = self.policy[0]
        rr0, jk0 = atk.spec.att.own, atk.spec.dfd.opp
        firsts = pack([n1, n2], (dice + 1, dice + 1))
        cur = self.walk.start(firsts, lambda c: (pairing(*divmod(c, dice + 1)), rr0, jk0, atk.dfd.start))
        rolls = self.walk.table(cur, lambda st: (sum(st[0]),), 1)[0]
        for j in range(int(rolls.max(initial=0))):
            act = np.flatnonzero(j < rolls)
            key = pack(
                [again[act, j], spare[act, j, 0], spare[act, j, 1], ff[act, j]],
                (W_SIDES,) * 3 + (R_SIDES,),
            )
            cur[act], (d, failed, used) = self.walk.step(cur[act], key, self.policy_step, 3)
            sampler.dice += int(used.sum()) + (len(act) if self.shielded else 0)
            out["damage"][act] += d
            out["fail"][act] += failed
        return rolls, self.walk.table(cur, lambda st: st[3], 2)


def simulated_volley(sc: Scenario, options: RunOptions) -> Result:
    """The big roll and the re-rolled blanks rolled literally, paired and ordered as the solved
    policy chooses (:mod:`.volley_rerolls`; beyond its bound without re-rolls, in the order the dice
    lie); the force field's red die rolled too."""
    atk = volley_attack(sc)
    policy = _with_rerolls(sc, atk, exact=False)[2] if _solved(sc, atk) else None
    tally = options.run(with_fail_joint(_VolleyTrial(atk, 2 * sc.volley, policy), ["condition"]))
    res = _result(sc, atk, {(atk.dfd.start, 0, 0, 0): 1.0}, "simulated", tally.trials, options.seed)
    if policy is None:
        res.notes.append(RULES.note("volley_die_order"))
    simulated_model(res, **{k: tally.dist(k) for k in ("condition", "damage", "fail", "rolls", "hits_left")})
    res.extra["fail_effects"] = {
        **fail_report(1 - float(res.stages["fail"][0]), atk.arms, atk.att.armour),
        "by_result": fail_by_conditions(tally.dist("fail_condition").to_dict(), atk.arms),
    }
    return res


__all__ = ["KEPT", "REROLLED", "exact_volley", "pairs_of", "simulated_volley"]
