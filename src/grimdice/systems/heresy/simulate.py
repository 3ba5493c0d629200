"""The Monte Carlo engine: the same rules, dice rolled literally, vectorised over trials.

It shares with the exact engine only the rule predicates in :mod:`rolls` and the resolved
profiles. Each trial keeps every defending model's wounds left and allocates wounds one at a
time (closest living model first; Precision wounds to the chosen model while it lives), so
agreement of the two engines is a real check of both.
"""

from __future__ import annotations

import numpy as np

from grimdice.dice.dist import Dist
from grimdice.dice.sampler import Sampler
from grimdice.engine.montecarlo import TrialFn
from grimdice.engine.options import RunOptions
from grimdice.result import Result
from grimdice.systems.heresy.fight import Side, fight_result, steps
from grimdice.systems.heresy.report import build_result
from grimdice.systems.heresy.rolls import (
    FAIL,
    SPECIAL,
    hit_roll,
    mitigation_target,
    passes,
    wound_result,
    wounds_lost,
)
from grimdice.systems.heresy.units import StrikeGroup, Target

BATCH_CELLS = 10_000_000


def _per_trial(mask: np.ndarray) -> np.ndarray:
    return mask.sum(axis=1).astype(np.int64)


def _wound_rolls(s: Sampler, g: StrikeGroup, shape: tuple[int, ...]) -> np.ndarray:
    res = wound_result(s.roll(shape), g.wound_target, g.rules.rending, g.rules.breaching)
    if g.wound_reroll:
        again = wound_result(s.roll(shape), g.wound_target, g.rules.rending, g.rules.breaching)
        res = np.where(res == FAIL, again, res)
    return res


def roll_group(
    s: Sampler, g: StrikeGroup, gi: int, trials: int, models: np.ndarray | None = None
) -> dict[str, np.ndarray]:
    """Per trial: hits, Precision hits, Gets Hot 1s, and the wound codes in allocation order
    (``4*group + 2*precision + special``; -1 for none), Precision wounds first. ``models``: the
    number of the group's models making their attacks in each trial (default: all of them)."""
    per_model = s.expr(g.shots, trials * g.models).reshape(trials, g.models)
    if models is not None:
        per_model = per_model * (np.arange(g.models)[None, :] < models[:, None])
    n = np.maximum(per_model.sum(axis=1), 0)
    if g.rolls_to_hit:
        first, valid = s.pool(n)
        second = s.roll(first.shape)
        hit, final = hit_roll(first, second, g.hit_target, g.reroll_target)
        hit = np.asarray(hit) & valid
        prec = hit & (np.asarray(final) >= g.precision)
        ones = valid & (np.asarray(final) == 1)
    else:
        face, valid = s.pool(n)
        if g.rules.gets_hot and g.may_reroll_hits:
            face = np.where(face == 1, s.roll(face.shape), face)
        ones = valid & (face == 1) if g.rules.gets_hot else np.zeros_like(valid)
        fired = valid & ~ones
        per_shot = g.hits_per_shot.sample(s.rng, fired.size).reshape(fired.shape)
        nh = (np.maximum(per_shot, 0) * fired).sum(axis=1)
        _, hit = s.pool(nh)
        prec = np.zeros_like(hit)
    res = _wound_rolls(s, g, hit.shape)
    wound = hit & (res != FAIL)
    code = np.where(wound, 4 * gi + 2 * prec + (res == SPECIAL), -1)
    code = np.take_along_axis(code, np.argsort(~(wound & prec), axis=1, kind="stable"), axis=1)
    return {
        "hits": _per_trial(hit),
        "precision_hits": _per_trial(prec),
        "wounds": _per_trial(wound),
        "ones": _per_trial(ones) if g.rules.gets_hot else np.zeros(trials, dtype=np.int64),
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


def allocate(
    s: Sampler, target: Target, groups: list[StrikeGroup], codes: np.ndarray, left: np.ndarray | None = None
):
    """Allocate wounds one by one in every trial, from ``left`` (wounds left per model; default:
    an unhurt unit); returns (wounds left per model, failed saves)."""
    trials = codes.shape[0]
    W = np.array([p.W for p in target.profiles], dtype=np.int64)
    ew = np.array([p.eternal_warrior for p in target.profiles])
    left = np.tile(W, (trials, 1)) if left is None else left.copy()
    unsaved = np.zeros(trials, dtype=np.int64)
    tables = {(gi, sp): _tables(target, g, sp) for gi, g in enumerate(groups) for sp in (False, True)}
    k = target.precision_index
    rows = np.arange(trials)
    for j in range(codes.shape[1]):
        code = codes[:, j]
        alive = left > 0
        live = (code >= 0) & alive.any(axis=1)
        rec = alive.argmax(axis=1)
        if k is not None:
            rec = np.where(((code // 2) % 2 == 1) & alive[:, k], k, rec)
        for (gi, sp), (sv, rr, mt, inst) in tables.items():
            t = rows[live & (code // 4 == gi) & (code % 2 == int(sp))]
            if not t.size:
                continue
            m = rec[t]
            for _ in range(groups[gi].rules.brutal):  # Brutal (X): X wounds on the same model
                on = left[t, m] > 0
                t, m = t[on], m[on]
                failed = ~np.asarray(passes(s.roll(t.size), sv[m]), dtype=bool)
                again = failed & rr[m]  # Heavy: a failed armour save is re-rolled once
                failed[again] = ~np.asarray(passes(s.roll(int(again.sum())), sv[m][again]), dtype=bool)
                unsaved[t[failed]] += 1
                hurt = failed & ~np.asarray(passes(s.roll(t.size), mt[m]), dtype=bool)
                th, mh = t[hurt], m[hurt]
                left[th, mh] -= np.asarray(wounds_lost(left[th, mh], inst[mh], ew[mh]), dtype=np.int64)
    return left, unsaved


def merged_codes(rolled: list[dict[str, np.ndarray]]) -> np.ndarray:
    """The wound codes of several groups per trial, in group order, packed to the left and cut
    to the widest trial."""
    codes = np.concatenate([r["codes"] for r in rolled], axis=1)
    codes = np.take_along_axis(codes, np.argsort(codes < 0, axis=1, kind="stable"), axis=1)
    width = int((codes >= 0).sum(axis=1).max()) if codes.size else 0
    return codes[:, :width]


def _batch(s: Sampler, target: Target, groups: list[StrikeGroup], trials: int) -> dict[str, np.ndarray]:
    rolled = [roll_group(s, g, gi, trials) for gi, g in enumerate(groups)]
    left, unsaved = allocate(s, target, groups, merged_codes(rolled))
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
            rolled = [
                roll_group(s, g, gi, trials, alive[:, lo:hi].sum(axis=1))
                for gi, (g, lo, hi) in enumerate(here)
            ]
            struck.append(([g for g, _, _ in here], merged_codes(rolled) if rolled else None))
        for i, (groups, codes) in enumerate(struck):  # casualties are removed at the end of the step
            if codes is not None:
                left[1 - i], _ = allocate(s, sides[1 - i].target, groups, codes, left[1 - i])
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
