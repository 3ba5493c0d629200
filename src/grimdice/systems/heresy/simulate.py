"""The Monte Carlo engine: the same rules, dice rolled literally, vectorised over trials.

It shares with the exact engine only the rule predicates in :mod:`rolls` and the resolved
profiles. Each trial keeps every defending model's wounds left and allocates wounds one at a
time (closest living model first; Precision wounds to the chosen model while it lives), so
agreement of the two engines is a real check of both.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from grimdice.dice.dist import Dist
from grimdice.dice.sampler import Sampler, per_trial
from grimdice.engine.montecarlo import TrialFn
from grimdice.engine.options import RunOptions
from grimdice.result import Result
from grimdice.systems.heresy.fight import Side, fight_result, steps
from grimdice.systems.heresy.report import build_result
from grimdice.systems.heresy.rolls import (
    FAIL,
    NEVER,
    SPECIAL,
    mitigation_target,
    passes,
    wound_result,
    wounds_lost,
)
from grimdice.systems.heresy.units import StrikeGroup, Target

BATCH_CELLS = 10_000_000


def _wound_results(s: Sampler, g: StrikeGroup, n: int) -> np.ndarray:
    """FAIL/WOUND/SPECIAL of ``n`` Wound rolls (a failed roll re-rolled once if the group may)."""
    res = np.asarray(wound_result(s.roll(n), g.wound_target, g.rules.rending, g.rules.breaching))
    if g.wound_reroll:
        again = np.flatnonzero(res == FAIL)
        res[again] = wound_result(s.roll(again.size), g.wound_target, g.rules.rending, g.rules.breaching)
    return res


def _precision_first(owner: np.ndarray, prec: np.ndarray, count: np.ndarray) -> np.ndarray:
    """The permutation putting each trial's Precision wounds before its others (each part in dice
    order) in a flat array of wounds grouped by trial (``owner``)."""
    start = np.cumsum(count) - count
    p = prec.astype(np.int64)
    rank_p = np.cumsum(p) - p  # Precision wounds before this one, over all trials
    rank_o = np.cumsum(1 - p) - (1 - p)
    n_p = per_trial(prec, count)
    base_p = (np.cumsum(n_p) - n_p)[owner]  # Precision wounds in earlier trials
    base_o = (np.cumsum(count - n_p) - (count - n_p))[owner]
    slot = np.where(prec, start[owner] + rank_p - base_p, start[owner] + n_p[owner] + rank_o - base_o)
    order = np.empty_like(slot)
    order[slot] = np.arange(slot.size)
    return order


def roll_group(
    s: Sampler, g: StrikeGroup, trials: int, models: np.ndarray | None = None
) -> dict[str, np.ndarray]:
    """Per trial: hits, Precision hits, wounds (``count``) and Gets Hot 1s; and ``codes``, the
    wounds of all trials laid flat, trial by trial in allocation order (Precision wounds first),
    each coded ``2*precision + special``. ``models``: the number of the group's models making
    their attacks in each trial (default: all of them). Dice are rolled flat, none for padding."""
    per_model = s.expr(g.shots, trials * g.models).reshape(trials, g.models)
    if models is not None:
        per_model = per_model * (np.arange(g.models)[None, :] < models[:, None])
    n = np.maximum(per_model.sum(axis=1), 0)
    if g.rolls_to_hit:
        final = s.flat(n)
        hit = (final != 1) & (final >= g.hit_target)
        if g.reroll_target is not None:
            miss = np.flatnonzero(~hit)
            final[miss] = s.roll(miss.size)
            hit[miss] = (final[miss] != 1) & (final[miss] >= g.reroll_target)
        prec = hit & (final >= g.precision)
        ones = final == 1
        nhits = per_trial(hit, n)
        prec_hits = per_trial(prec, n)
        prec = prec[hit]
    else:
        ones = np.zeros(int(n.sum()), dtype=bool)
        if g.rules.gets_hot:
            face = s.flat(n)
            if g.may_reroll_hits:
                redo = np.flatnonzero(face == 1)
                face[redo] = s.roll(redo.size)
            ones = face == 1
        fired = per_trial(~ones, n)
        per_shot = np.maximum(s.expr(g.hits_per_shot, int(fired.sum())), 0)
        nhits = per_trial(per_shot, fired)
        prec = np.zeros(int(nhits.sum()), dtype=bool)
        prec_hits = np.zeros(trials, dtype=np.int64)
    res = _wound_results(s, g, prec.size)
    wound = res != FAIL
    count = per_trial(wound, nhits)
    code = (prec.view(np.int8) << 1) | (res == SPECIAL).view(np.int8)
    code = code[wound]  # one compress for both bits
    prec = (code & 2) > 0
    if prec.any():
        code = code[_precision_first(np.repeat(np.arange(trials), count), prec, count)]
    return {
        "hits": nhits,
        "precision_hits": prec_hits,
        "wounds": count,
        "ones": per_trial(ones, n) if g.rules.gets_hot else np.zeros(trials, dtype=np.int64),
        "codes": code,
    }


def _tables(target: Target, g: StrikeGroup, special: bool):
    """Per model of the queue: save needed, armour re-rolled, Damage Mitigation needed, Instant Death."""
    sv, rr, mt, inst = [], [], [], []
    for p in target.profiles:
        i = g.is_instant_death(p)
        t, rerolled = g.save(p, special, target)
        sv.append(t)
        rr.append(rerolled)
        mt.append(
            mitigation_target(
                p.fnp, p.shrouded, melee=g.melee, ignores_cover=g.ignores_cover, instant_death=i
            )
        )
        inst.append(i)
    return np.array(sv), np.array(rr), np.array(mt), np.array(inst)


def _fails(s: Sampler, need: np.ndarray) -> np.ndarray:
    """One D6 test per entry of ``need`` (a natural 1 fails); none rolled where it cannot pass."""
    possible = need < NEVER
    every: Any = need
    if possible.all():  # the usual case: every test rolled
        return np.logical_not(passes(s.roll(need.size), every))
    failed = np.ones(need.size, dtype=bool)
    roll = np.flatnonzero(possible)
    needed: Any = need[roll]
    failed[roll] = np.logical_not(passes(s.roll(roll.size), needed))
    return failed


def _wound(s: Sampler, g: StrikeGroup, tables, code: np.ndarray, flat: np.ndarray, t, m, unsaved) -> None:
    """One wound of group ``g`` (codes ``2*precision + special``) on model ``m`` of trials ``t``
    (``flat``: wounds left per trial and model, flattened): the save (Heavy: a failed armour save
    re-rolled once), Damage Mitigation, wounds lost. ``tables``: :func:`_tables` of normal then
    special wounds, concatenated (index ``special * models + model``), and Eternal Warrior."""
    sv_t, rr_t, mt_t, inst_t, ew = tables
    models = ew.size
    heavy, instant = bool(rr_t.any()), bool(inst_t.any())
    for i in range(g.rules.brutal):  # Brutal (X): X wounds on the same model
        cell = t * models + m
        if i:  # the first wound finds its model alive (the closest living one, or the chosen one)
            on = flat[cell] > 0
            if not on.all():
                t, m, code, cell = t[on], m[on], code[on], cell[on]
        row = (code & 1) * models + m
        sv = sv_t[row]
        failed = _fails(s, sv)
        if heavy:
            again = np.flatnonzero(failed & rr_t[row])
            failed[again] = _fails(s, sv[again])
        unsaved[t[failed]] += 1
        hurt = np.flatnonzero(failed)
        hurt = hurt[_fails(s, mt_t[row[hurt]])]
        ch = cell[hurt]
        if instant:
            flat[ch] -= np.asarray(wounds_lost(flat[ch], inst_t[row[hurt]], ew[m[hurt]]), dtype=flat.dtype)
        else:  # a living model loses one wound (wounds_lost without Instant Death)
            flat[ch] -= 1


def allocate(
    s: Sampler,
    target: Target,
    groups: list[StrikeGroup],
    rolled: list[dict[str, np.ndarray]],
    left: np.ndarray | None = None,
):
    """Allocate wounds one by one in every trial, group after group (each group's in the order of
    :func:`roll_group`), from ``left`` (wounds left per model; default: an unhurt unit): each to
    the closest living model, a Precision wound to the chosen model while it lives. Resolved in
    steps (step ``k``: every trial's ``k``-th wound of the group, for the trials holding one), so
    each trial meets its own wounds in its own order. Returns (wounds left per model, failed saves)."""
    trials = rolled[0]["wounds"].size if rolled else (0 if left is None else left.shape[0])
    W = np.array([p.W for p in target.profiles], dtype=np.int64)
    ew = np.array([p.eternal_warrior for p in target.profiles])
    left = np.tile(W, (trials, 1)) if left is None else left.copy()
    unsaved = np.zeros(trials, dtype=np.int64)
    k = target.precision_index
    M = len(target.profiles)
    alive = np.ones((trials, M + 1), dtype=bool)  # a last column always "alive": M when none is
    np.greater(left, 0, out=alive[:, :M])
    first = alive.argmax(axis=1)  # the closest living model
    for g, r in zip(groups, rolled, strict=True):
        count = r["wounds"]
        top = int(count.max()) if trials else 0
        if not top:
            continue
        normal, special = _tables(target, g, False), _tables(target, g, True)
        tables = [np.concatenate([x, y]) for x, y in zip(normal, special, strict=True)] + [ew]
        # the trials by decreasing number of wounds: those holding a j-th wound are a prefix, and
        # their rows are read in increasing order (cache-friendly)
        order = np.argsort((top - count).astype(np.uint16 if top < 2**16 else np.int64), kind="stable")
        holding = np.bincount(count, minlength=top + 1)[::-1].cumsum()[::-1]
        start = (np.cumsum(count) - count)[order]
        rows, firsts, fails = left[order], first[order], np.zeros(trials, dtype=np.int64)
        flat = rows.reshape(-1)  # a view: wounds left of sorted trial t, model m at t * M + m
        for j in range(top):
            h = int(holding[j + 1])
            code = r["codes"][start[:h] + j]
            live = firsts[:h] < M
            t = np.arange(h) if live.all() else np.flatnonzero(live)
            code = code[t] if t.size < h else code
            m = firsts[t]
            if k is not None:
                m = np.where(((code & 2) > 0) & (rows[t, k] > 0), k, m)
            _wound(s, g, tables, code, flat, t, m, fails)
            gone = t[flat[t * M + firsts[t]] == 0]
            while gone.size:  # the closest living model: usually the next one
                firsts[gone] += 1
                nxt = firsts[gone]
                gone = gone[nxt < M]
                gone = gone[flat[gone * M + firsts[gone]] == 0]
        left[order], first[order] = rows, firsts
        unsaved[order] += fails
    return left, unsaved


def _batch(s: Sampler, target: Target, groups: list[StrikeGroup], trials: int) -> dict[str, np.ndarray]:
    rolled = [roll_group(s, g, trials) for g in groups]
    left, unsaved = allocate(s, target, groups, rolled)
    W = np.array([p.W for p in target.profiles], dtype=np.int64)
    out = {
        "hits": sum(r["hits"] for r in rolled),
        "wounds": sum(r["wounds"] for r in rolled),
        "unsaved": unsaved,
        "damage": (W[None, :] - left).sum(axis=1),
        "models_destroyed": (left == 0).sum(axis=1),
    }
    k = target.precision_index
    if k is not None:
        out["precision_hits"] = sum(r["precision_hits"] for r in rolled)
        out["precision_model_wounds"] = W[k] - left[:, k]
        out["precision_model_destroyed"] = (left[:, k] == 0).astype(np.int64)
    hot = [(g, r) for g, r in zip(groups, rolled, strict=True) if g.rules.gets_hot]
    if hot:
        out["gets_hot_wounds"] = sum(r["ones"] for _, r in hot)
        unsaved_hot = np.zeros(trials, dtype=np.int64)
        for g, r in hot:
            width = int(r["ones"].max()) if trials else 0
            if width:
                valid = np.arange(width)[None, :] < r["ones"][:, None]
                saved = np.asarray(passes(s.roll((trials, width)), g.firer_save))
                fnp = np.asarray(passes(s.roll((trials, width)), g.firer_fnp))
                unsaved_hot += (valid & ~saved & ~fnp).sum(axis=1)
        out["gets_hot_unsaved"] = unsaved_hot
    return out


def _sub_batches(batch_of, per_trial: int) -> TrialFn:
    """A trial function running ``batch_of(sampler, n)`` in sub-batches that bound memory (drawn
    in sequence from the block's one stream, so a block's result is fixed by its seed)."""
    batch = max(1000, BATCH_CELLS // max(per_trial, 1))

    def trial(s: Sampler, size: int) -> dict[str, np.ndarray]:
        parts = [batch_of(s, min(batch, size - i)) for i in range(0, size, batch)]
        return {k: np.concatenate([p[k] for p in parts]) for k in parts[0]}

    return trial


def simulated_result(
    target: Target, groups: list[StrikeGroup], options: RunOptions, title: str = ""
) -> Result:
    """``options.simulate`` seeded trials on the shared runner (``options.workers``, ``options.progress``)."""
    assert options.simulate is not None
    per_trial = max(1, sum(g.models * g.shots.max * max(1, g.hits_per_shot.max) for g in groups))
    per_trial *= max(1, len(target.profiles))
    trial = _sub_batches(lambda s, n: _batch(s, target, groups, n), per_trial)
    tally = options.run(trial)
    dists = tally.dists()
    hot = None
    if "gets_hot_wounds" in dists:
        hot = (dists.pop("gets_hot_wounds"), dists.pop("gets_hot_unsaved"))
    return build_result("simulated", dists, target, groups, hot, title, options.simulate, options.seed)


def _fight_batch(s: Sampler, attacker: Side, defender: Side, trials: int) -> list[np.ndarray]:
    """Wounds left per model of [attacker, defender] after the fight, per trial."""
    sides = (attacker, defender)
    left = [np.tile(np.array([p.W for p in x.target.profiles], dtype=np.int64), (trials, 1)) for x in sides]
    for step in steps(attacker, defender):
        struck = []
        for i, side in enumerate(sides):  # both units strike with the models alive at the step's start
            alive = left[i] > 0
            here = [
                (g, lo, hi)
                for g, (lo, hi) in zip(side.groups, side.ranges, strict=True)
                if g.initiative == step
            ]
            rolled = [roll_group(s, g, trials, alive[:, lo:hi].sum(axis=1)) for g, lo, hi in here]
            struck.append(([g for g, _, _ in here], rolled))
        for i, (groups, rolled) in enumerate(struck):  # casualties are removed at the end of the step
            if rolled:
                left[1 - i], _ = allocate(s, sides[1 - i].target, groups, rolled, left[1 - i])
    return left


def simulated_fight(attacker: Side, defender: Side, options: RunOptions, title: str = "") -> Result:
    """A two-sided fight rolled literally, ``options.simulate`` times on the shared runner."""
    assert options.simulate is not None
    Wa = np.array([p.W for p in attacker.target.profiles])
    Wd = np.array([p.W for p in defender.target.profiles])
    offset = int(Wa.sum())  # the margin dealt - taken, shifted to a non-negative count

    def batch(s: Sampler, n: int) -> dict[str, np.ndarray]:
        la, ld = _fight_batch(s, attacker, defender, n)
        taken, dealt = (Wa - la).sum(axis=1), (Wd - ld).sum(axis=1)
        return {
            "damage": dealt,
            "models_destroyed": (ld == 0).sum(axis=1),
            "damage_taken": taken,
            "models_lost": (la == 0).sum(axis=1),
            "margin": dealt - taken + offset,
        }

    per_trial = max(1, sum(g.models * g.shots.max for g in attacker.groups + defender.groups))
    per_trial *= max(len(attacker.target.profiles), len(defender.target.profiles))
    tally = options.run(_sub_batches(batch, per_trial))
    d = tally.dists()
    lost = (d["damage"], d["models_destroyed"], d["damage_taken"], d["models_lost"])
    m = d["margin"]
    margin = Dist(m.pmf, m.offset - offset)
    return fight_result("simulated", attacker, defender, lost, margin, title, options.simulate, options.seed)
