"""The Monte Carlo engine: the same rules, dice rolled literally, vectorised over trials.

It shares with the exact engine only the rule texts in :mod:`rolls` (what a face means) and the
resolved profiles; the probability calculus is independent, so agreement of the two engines is a
real check of both.
"""

from __future__ import annotations

import numpy as np

from grimdice.dice.sampler import Sampler
from grimdice.engine.montecarlo import TrialFn
from grimdice.engine.options import RunOptions
from grimdice.engine.pipeline import Roll
from grimdice.result import Result
from grimdice.systems.wh40k.report import build_result, hazardous_tests
from grimdice.systems.wh40k.rolls import CRIT, FAIL, NORMAL, cover_applies, modified_damage
from grimdice.systems.wh40k.sequence import hit_roll, wound_roll
from grimdice.systems.wh40k.units import Profile, Target, WeaponGroup

NO_ROLL = 7  # a target no D6 reaches
BATCH_CELLS = 20_000_000  # dice slots held in memory at once


def _per_trial(trial_idx: np.ndarray, values: np.ndarray, trials: int) -> np.ndarray:
    return np.bincount(trial_idx, weights=values, minlength=trials).astype(np.int64)


def _roll_once(
    s: Sampler, counts: np.ndarray, roll: Roll, own: frozenset[int], available: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """(critical, normal) counts per trial of a pool with its own re-roll of the faces ``own``, and
    in the trials where the unit's one re-roll is ``available`` (updated in place) the first
    failed die not already re-rolled re-rolled once more."""
    rolls, valid = s.pool(counts)
    mine = np.isin(rolls, sorted(own)) & valid
    if mine.any():
        rolls = np.where(mine, s.roll(rolls.shape), rolls)
    eligible = valid & ~mine & (np.asarray(roll.categorize(rolls)) == FAIL)
    t = np.flatnonzero(available & eligible.any(axis=1))
    if t.size:
        rolls[t, eligible[t].argmax(axis=1)] = s.roll(t.size)
        available[t] = False
    cat = np.asarray(roll.categorize(rolls))
    return ((cat == CRIT) & valid).sum(axis=1), ((cat == NORMAL) & valid).sum(axis=1)


def roll_group(
    s: Sampler, g: WeaponGroup, trials: int, once: tuple[np.ndarray, np.ndarray] | None = None
) -> dict[str, np.ndarray]:
    """Hits, and normal and devastating wound tokens, per trial for one weapon group; ``once``:
    per trial, whether the unit's one Hit / one Wound re-roll is still available (updated)."""
    n = s.expr(g.attacks, trials * g.models).reshape(trials, g.models).sum(axis=1)
    n = np.maximum(n + g.attack_bonus * g.models, 0)
    if g.ab.torrent:
        crit_hits = np.zeros(trials, dtype=np.int64)
        normal_hits = n
    elif once is not None:
        crit_hits, normal_hits = _roll_once(s, n, hit_roll(g), g.hit_reroll_faces(), once[0])
    else:
        crit_hits, normal_hits = hit_roll(g).sample(s, n).T
    extra = np.zeros(trials, dtype=np.int64)
    if g.ab.sustained_hits is not None and crit_hits.sum():
        owner = np.repeat(np.arange(trials), crit_hits)
        extra = _per_trial(owner, s.expr(g.ab.sustained_hits, owner.size), trials)
    auto = crit_hits if g.ab.lethal_hits else np.zeros(trials, dtype=np.int64)
    to_roll = normal_hits + extra + (crit_hits - auto)
    if once is not None:
        crit_w, norm_w = _roll_once(s, to_roll, wound_roll(g), g.wound_reroll_faces(), once[1])
    else:
        crit_w, norm_w = wound_roll(g).sample(s, to_roll).T
    dev = crit_w if g.ab.devastating_wounds else np.zeros(trials, dtype=np.int64)
    return {
        "hits": normal_hits + crit_hits + extra,
        "normal": auto + norm_w + (crit_w - dev),
        "dev": dev,
    }


class _Queue:
    """Per-trial position in one allocation queue (models in order, wounds left on the current)."""

    def __init__(self, profiles: tuple[Profile, ...], trials: int):
        self.profiles = profiles
        self.W = np.array([p.W for p in profiles] + [0], dtype=np.int64)
        self.idx = np.zeros(trials, dtype=np.int64)
        self.left = np.full(trials, self.W[0], dtype=np.int64)
        self.damage = np.zeros(trials, dtype=np.int64)

    @property
    def alive(self) -> np.ndarray:
        return self.idx < len(self.profiles)

    def field(self, name: str, default: int = 0) -> np.ndarray:
        vals = [getattr(p, name) for p in self.profiles] + [None]
        return np.array([default if v is None else int(v) for v in vals], dtype=np.int64)


def _allocate(s: Sampler, target: Target, groups: list[WeaponGroup], tokens: np.ndarray, trials: int):
    """Allocate tokens (codes ``2*group + devastating``) one by one in every trial."""
    bg, ch = _Queue(target.bodyguard, trials), _Queue(target.leaders, trials)
    last = (target.leaders or target.bodyguard)[-1]
    unsaved = np.zeros(trials, dtype=np.int64)
    for j in range(tokens.shape[1]):
        code = tokens[:, j]
        for gi, g in enumerate(groups):
            for dev in (False, True):
                t = np.flatnonzero(code == 2 * gi + int(dev))
                if t.size:
                    unsaved += _resolve(s, g, dev, t, bg, ch, last, trials)
    return bg, ch, unsaved


def _save_needs(g: WeaponGroup, profiles: list[Profile]) -> tuple[np.ndarray, np.ndarray]:
    armour, invuln = [], []
    for p in profiles:
        cov = cover_applies(p.Sv, g.AP, g.melee, g.cover, g.ab.ignores_cover)
        armour.append(p.Sv - g.AP - (1 if cov else 0) - g.save_modifier)
        invuln.append(p.invulnerable or NO_ROLL)
    return np.array(armour), np.array(invuln)


def _resolve(s, g: WeaponGroup, dev: bool, t: np.ndarray, bg: _Queue, ch: _Queue, last: Profile, trials):
    """One token for the trials ``t``: choose the model, roll the save, damage and Feel No Pain."""
    to_ch = ch.alive[t] & (~bg.alive[t] | (g.ab.precision and len(ch.profiles) > 0))
    failed = np.zeros(trials, dtype=np.int64)
    for q, sel in ((ch, to_ch), (bg, ~to_ch & bg.alive[t])):
        tt = t[sel]
        if not tt.size:
            continue
        i = q.idx[tt]
        armour, invuln = _save_needs(g, [*q.profiles, last])
        face = s.roll(tt.size)
        saved = (face != 1) & ((face >= armour[i]) | (face >= invuln[i])) & (not dev)
        hit = tt[~saved]
        failed[hit] = 1
        i = q.idx[hit]
        d = modified_damage(
            s.expr(g.damage, hit.size),
            q.field("halve_damage")[i].astype(bool),
            q.field("damage_reduction")[i],
            g.damage_bonus,
        )
        fnp = q.field("fnp_mortal" if dev else "fnp", NO_ROLL)[i]
        width = int(d.max()) if d.size else 0
        if width:
            fnp_dice = s.roll((hit.size, width))
            lost = ((np.arange(width)[None, :] < d[:, None]) & (fnp_dice < fnp[:, None])).sum(axis=1)
        else:
            lost = np.zeros(hit.size, dtype=np.int64)
        lost = np.minimum(lost, q.left[hit])
        q.left[hit] -= lost
        q.damage[hit] += lost
        dead = hit[q.left[hit] == 0]
        q.idx[dead] += 1
        q.left[dead] = q.W[q.idx[dead]]
    # left-over wounds once the whole unit is destroyed: saves fast-rolled against the last model
    gone = t[~bg.alive[t] & ~ch.alive[t]]
    gone = gone[~np.isin(gone, np.flatnonzero(failed))]
    if gone.size:
        armour, invuln = _save_needs(g, [last])
        face = s.roll(gone.size)
        saved = (face != 1) & ((face >= armour[0]) | (face >= invuln[0])) & (not dev)
        failed[gone[~saved]] = 1
    return failed


def _simulate_batch(
    s: Sampler, target: Target, groups: list[WeaponGroup], trials: int, once: tuple[bool, bool]
) -> dict[str, np.ndarray]:
    flags = (np.full(trials, once[0]), np.full(trials, once[1])) if any(once) else None
    rolled = [roll_group(s, g, trials, flags) for g in groups]
    counts = [r["normal"] for r in rolled] + [r["dev"] for r in rolled]
    codes = [2 * gi for gi in range(len(groups))] + [2 * gi + 1 for gi in range(len(groups))]
    width = int(sum(c.max() for c in counts)) if counts else 0
    tokens = np.full((trials, max(width, 1)), -1, dtype=np.int64)
    fill = np.zeros(trials, dtype=np.int64)
    for c, code in zip(counts, codes, strict=True):
        cols = fill[:, None] + np.arange(int(c.max()) if c.size else 0)[None, :]
        mask = np.arange(cols.shape[1])[None, :] < c[:, None]
        rows = np.repeat(np.arange(trials)[:, None], cols.shape[1], axis=1)
        tokens[rows[mask], cols[mask]] = code
        fill += c
    bg, ch, unsaved = _allocate(s, target, groups, tokens, trials)
    out = {
        "hits": sum(r["hits"] for r in rolled),
        "wounds": sum(r["normal"] + r["dev"] for r in rolled),
        "unsaved": unsaved,
        "damage": bg.damage + ch.damage,
        "models_destroyed": bg.idx + ch.idx,
    }
    if any(g.ab.devastating_wounds for g in groups):
        out["devastating_wounds"] = sum(r["dev"] for r in rolled)
    if target.leaders:
        out["character_damage"] = ch.damage
        out["characters_destroyed"] = ch.idx
    tests = hazardous_tests(groups)
    if tests:
        out["hazardous_failed"] = (s.roll((trials, tests)) == 1).sum(axis=1)
    return out


def trial_function(
    target: Target, groups: list[WeaponGroup], once: tuple[bool, bool] = (False, False)
) -> TrialFn:
    """``trial(sampler, size)``: ``size`` trials of every stage, in sub-batches bounding memory
    (drawn in sequence from the block's one stream, so a block's result is fixed by its seed)."""
    per_trial = sum(
        g.models
        * (g.attacks.max + g.attack_bonus)
        * (1 + (g.ab.sustained_hits.max if g.ab.sustained_hits else 0))
        for g in groups
    )
    batch = max(1000, BATCH_CELLS // max(per_trial, 1))

    def trial(s: Sampler, size: int) -> dict[str, np.ndarray]:
        parts = [
            _simulate_batch(s, target, groups, min(batch, size - i), once) for i in range(0, size, batch)
        ]
        return {k: np.concatenate([p[k] for p in parts]) for k in parts[0]}

    return trial


def simulated_result(
    target: Target,
    groups: list[WeaponGroup],
    options: RunOptions,
    title: str = "",
    once: tuple[bool, bool] = (False, False),
) -> Result:
    """``options.simulate`` seeded trials on the shared runner (``options.workers``, ``options.progress``)."""
    assert options.simulate is not None
    tally = options.run(trial_function(target, groups, once))
    dists = tally.dists()
    hz = dists.pop("hazardous_failed", None)
    return build_result("simulated", dists, groups, hz, title, options.simulate, options.seed)
