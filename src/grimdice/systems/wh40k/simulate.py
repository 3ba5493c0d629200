"""The Monte Carlo engine: the same rules, dice rolled literally, vectorised over trials.

It shares with the exact engine only the rule texts in :mod:`rolls` (what a face means) and the
resolved profiles; the probability calculus is independent, so agreement of the two engines is a
real check of both.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from grimdice.dice.sampler import Sampler, column_counts, column_layout, lookup, per_trial
from grimdice.engine.allocation.sampled import SampledUnit
from grimdice.engine.montecarlo import TrialFn, sized_batches
from grimdice.engine.options import RunOptions
from grimdice.engine.pipeline import CategoryRoll
from grimdice.result import Result
from grimdice.systems.wh40k.report import build_result, hazardous_tests
from grimdice.systems.wh40k.rolls import CRIT, FAIL, NORMAL, cover_applies, modified_damage
from grimdice.systems.wh40k.sequence import hit_roll, wound_roll
from grimdice.systems.wh40k.units import Profile, Target, WeaponGroup

NO_ROLL = 7  # a target no D6 reaches


def _roll_once(
    s: Sampler, counts: np.ndarray, roll: CategoryRoll, own: frozenset[int], available: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """(critical, normal) counts per trial of a pool with its own re-roll of the faces ``own``, and
    in the trials where the unit's one re-roll is ``available`` (updated in place) the first
    failed die not already re-rolled re-rolled once more.

    The dice are laid out by column (:func:`~grimdice.dice.sampler.column_layout`: row ``j`` holds
    every trial's ``j``-th die) and drawn as face indices (:meth:`~grimdice.dice.sampler.Sampler.draw`);
    only the dice rolled are counted (the first dice, the own re-rolls, the unit's re-roll)."""
    trials = counts.size
    rows, valid = column_layout(counts)
    if rows == 0:
        return np.zeros(trials, dtype=np.int64), np.zeros(trials, dtype=np.int64)
    s.dice += int(counts.sum())
    faces = s.draw((rows, trials)) + np.uint8(1)  # 1..6
    mine = np.isin(faces, sorted(own))
    if valid is not None:
        mine &= valid
    again = int(np.count_nonzero(mine))
    if again:
        s.dice += again
        faces = np.where(mine, s.draw(faces.shape) + np.uint8(1), faces)
    category = np.asarray(roll.categorize(np.arange(1, 7))).astype(np.uint8)  # by face - 1
    eligible = (lookup(faces, category, 1, np.uint8) == FAIL) & ~mine
    if valid is not None:
        eligible &= valid
    t = np.flatnonzero(available & eligible.any(axis=0))
    if t.size:
        faces[eligible[:, t].argmax(axis=0), t] = s.roll(t.size)
        available[t] = False
    cat = lookup(faces, category, 1, np.uint8)
    crit, normal = cat == CRIT, cat == NORMAL
    if valid is not None:
        crit &= valid
        normal &= valid
    return column_counts(crit), column_counts(normal)


def _attacks(s: Sampler, g: WeaponGroup, trials: int) -> np.ndarray:
    """Attacks per trial of the group's models."""
    if g.attacks.is_fixed:
        return np.full(trials, max(g.models * (g.attacks.constant + g.attack_bonus), 0), dtype=np.int64)
    n = s.expr(g.attacks, trials * g.models).reshape(trials, g.models).sum(axis=1)
    return np.maximum(n + g.attack_bonus * g.models, 0)


def roll_group(
    s: Sampler, g: WeaponGroup, trials: int, once: tuple[np.ndarray, np.ndarray] | None = None
) -> dict[str, np.ndarray]:
    """Hits, and normal and devastating wound tokens, per trial for one weapon group; ``once``:
    per trial, whether the unit's one Hit / one Wound re-roll is still available (updated).

    Without ``once``, every attack is one slot of a column layout
    (:func:`~grimdice.dice.sampler.column_layout`) holding its Hit and its Wound die, drawn as one
    36-sided byte (:meth:`~grimdice.dice.sampler.Sampler.draw_d6_pairs`); only the dice rolled
    are counted (a Wound die only for a hit that is not a Lethal Hit, re-rolls where made). The
    extra hits of Sustained Hits roll their Wound dice as a pool of their own."""
    n = _attacks(s, g, trials)
    if once is not None:
        return _roll_group_once(s, g, n, once)
    rows, valid = column_layout(n)
    hit_face, wound_face = s.draw_d6_pairs((rows, trials))
    if g.ab.torrent:
        hit = np.ones((rows, trials), dtype=bool) if valid is None else valid
        crit = np.zeros_like(hit)
    else:
        cat = hit_roll(g).categories(s, hit_face, valid)
        crit, hit = cat == CRIT, cat != FAIL
    wounding = hit & ~crit if g.ab.lethal_hits else hit
    cat = wound_roll(g).categories(s, wound_face, wounding)
    crit_w = cat == CRIT
    normal = cat == NORMAL
    if g.ab.lethal_hits:
        normal |= crit
    if not g.ab.devastating_wounds:
        normal |= crit_w
    crit_hits = column_counts(crit)
    hits = column_counts(hit)
    tokens = column_counts(normal)
    dev = column_counts(crit_w) if g.ab.devastating_wounds else np.zeros(trials, dtype=np.int64)
    sus = g.ab.sustained_hits
    if sus is not None:
        extra = (
            crit_hits * sus.constant
            if sus.is_fixed
            else per_trial(s.expr(sus, int(crit_hits.sum())), crit_hits)
        )
        hits = hits + extra
        crit_x, norm_x = wound_roll(g).sample(s, extra).T
        tokens = tokens + norm_x
        if g.ab.devastating_wounds:
            dev = dev + crit_x
        else:
            tokens = tokens + crit_x
    return {"hits": hits, "normal": tokens, "dev": dev}


def _roll_group_once(
    s: Sampler, g: WeaponGroup, n: np.ndarray, once: tuple[np.ndarray, np.ndarray]
) -> dict[str, np.ndarray]:
    """:func:`roll_group` with the unit's one Hit / one Wound re-roll."""
    trials = n.size
    if g.ab.torrent:
        crit_hits = np.zeros(trials, dtype=np.int64)
        normal_hits = n
    else:
        crit_hits, normal_hits = _roll_once(s, n, hit_roll(g), g.hit_reroll_faces(), once[0])
    extra = np.zeros(trials, dtype=np.int64)
    sus = g.ab.sustained_hits
    if sus is not None and sus.is_fixed:
        extra = crit_hits * sus.constant
    elif sus is not None and crit_hits.any():
        extra = per_trial(s.expr(sus, int(crit_hits.sum())), crit_hits)
    auto = crit_hits if g.ab.lethal_hits else np.zeros(trials, dtype=np.int64)
    to_roll = normal_hits + extra + (crit_hits - auto)
    crit_w, norm_w = _roll_once(s, to_roll, wound_roll(g), g.wound_reroll_faces(), once[1])
    dev = crit_w if g.ab.devastating_wounds else np.zeros(trials, dtype=np.int64)
    return {
        "hits": normal_hits + crit_hits + extra,
        "normal": auto + norm_w + (crit_w - dev),
        "dev": dev,
    }


def _save_needs(g: WeaponGroup, profiles: list[Profile]) -> tuple[np.ndarray, np.ndarray]:
    armour, invuln = [], []
    for p in profiles:
        cov = cover_applies(p.Sv, g.AP, g.melee, g.cover, g.ab.ignores_cover)
        armour.append(p.Sv - g.AP - (1 if cov else 0) - g.save_modifier)
        invuln.append(p.invulnerable or NO_ROLL)
    return np.array(armour), np.array(invuln)


@dataclass(frozen=True)
class _Slots:
    """Per-model tables of one kind of token (a weapon group's normal or devastating wounds),
    indexed by *slot*: bodyguard models ``0..nb-1``, then ``nb`` (the bodyguard gone), then the
    leaders ``nb+1..nb+nc``, then ``nb+nc+1`` (the leaders gone). A gone slot stands for the
    unit's last model: a wound allocated after the whole unit is destroyed still rolls its save
    (fast-rolled against the last model) and counts as unsaved if failed, but does nothing."""

    saved: np.ndarray  # [slot, face]: the saving throw with this unmodified face succeeds
    halve: np.ndarray
    reduction: np.ndarray
    fnp: np.ndarray  # Feel No Pain needed (NO_ROLL: none)
    live: np.ndarray  # a model is there

    @property
    def saved_flat(self) -> np.ndarray:
        """:attr:`saved` flattened: index ``slot * NO_ROLL + face``."""
        return self.saved.reshape(-1)

    @property
    def failed_flat(self) -> np.ndarray:
        """The saving throw fails, indexed ``slot * NO_ROLL + face``."""
        return ~self.saved_flat

    @property
    def hurt_flat(self) -> np.ndarray:
        """The saving throw fails and a model is there to lose wounds, indexed as :attr:`saved_flat`."""
        return (~self.saved & self.live[:, None]).reshape(-1)

    @property
    def modifies_damage(self) -> bool:
        """Some model halves or reduces damage (else a token's damage is its roll, with no bonus)."""
        return bool(self.halve.any() or self.reduction.any())

    @classmethod
    def of(cls, g: WeaponGroup, dev: bool, target: Target) -> _Slots:
        last = (target.leaders or target.bodyguard)[-1]
        profiles = [*target.bodyguard, last, *target.leaders, last]
        armour, invuln = _save_needs(g, profiles)
        face = np.arange(NO_ROLL)[None, :]
        saved = (face != 1) & ((face >= armour[:, None]) | (face >= invuln[:, None])) & (not dev)
        fnp = [p.fnp_mortal if dev else p.fnp for p in profiles]
        nb = len(target.bodyguard)
        live = np.ones(len(profiles), dtype=bool)
        live[[nb, len(profiles) - 1]] = False
        return cls(
            saved,
            np.array([p.halve_damage for p in profiles]),
            np.array([p.damage_reduction for p in profiles], dtype=np.int64),
            np.array([NO_ROLL if f is None else f for f in fnp], dtype=np.int64),
            live,
        )


def _fnp_lost(s: Sampler, d: np.ndarray, fnp: np.ndarray) -> np.ndarray:
    """Wounds lost from damage ``d`` per token: one Feel No Pain die per point where the model has
    one, every point lost where it has none. The dice are drawn in the column layout (row ``j``:
    every token's ``j``-th point; only the points' dice are counted) and summed row by row."""
    has = fnp < NO_ROLL
    if not has.any():
        return d
    lost = d.copy()
    dh, need = d[has], fnp[has]
    rows, valid = column_layout(dh)
    s.dice += int(dh.sum())
    faces = s.draw((rows, dh.size))  # face index: a roll of f is f - 1
    need = need - 1
    failed = np.zeros(dh.size, dtype=d.dtype)
    for j in range(rows):
        fails = faces[j] < need
        if valid is not None:
            fails &= valid[j]
        failed += fails
    lost[has] = failed
    return lost


BODYGUARD, LEADERS = 0, 1  # the unit's queues
UNSAVED = 0  # the unit's extra row: failed saves


def _unit(target: Target, trials: int) -> SampledUnit:
    """The target's queues per trial (the exact chain's: the Bodyguard, then the attached
    Characters) and its failed saves."""
    return SampledUnit(([p.W for p in target.bodyguard], [p.W for p in target.leaders]), trials, extra=1)


def _token(
    unit: SampledUnit,
    s: Sampler,
    g: WeaponGroup,
    slots: _Slots,
    table: np.ndarray | None,
    n: int,
    saves: np.ndarray | None,
) -> None:
    """One token of group ``g`` for each of the first ``n`` trials (``saves``: their save dice,
    rolled beforehand; none for a devastating wound): choose the model, take the save, roll
    damage and Feel No Pain. ``table``: :attr:`_Slots.failed_flat` ``| 2 *`` :attr:`_Slots.hurt_flat`."""
    nb, nc = unit.sizes
    pb = unit.queue(BODYGUARD, n)[0]
    pc = unit.queue(LEADERS, n)[0]
    unsaved = unit.extra(UNSAVED, n)
    if nc:
        to_ch = (pc < nc) & ((pb >= nb) | g.ab.precision)
        slot = np.where(to_ch, nb + 1 + pc, pb)
    else:
        to_ch = None
        slot = pb
    if saves is None or table is None:
        unsaved += 1
        k = np.flatnonzero(slots.live.take(slot))
    else:
        at = slot.astype(np.intp)
        at *= NO_ROLL
        at += saves
        v = table.take(at, mode="wrap")  # failed | hurt << 1 (in range: "wrap" is the fastest mode)
        unsaved += v & 1
        k = np.flatnonzero(v >> 1)
    if not k.size:
        return
    lost = _lost(s, g, slots, slot[k])
    on = None if to_ch is None else to_ch.take(k)
    if on is None or not on.any():
        unit.take(BODYGUARD, k, lost, n)
        return
    if on.all():
        unit.take(LEADERS, k, lost, n)
        return
    unit.take(LEADERS, k[on], lost if isinstance(lost, int) else lost[on], n)
    off = ~on
    unit.take(BODYGUARD, k[off], lost if isinstance(lost, int) else lost[off], n)


def _lost(s: Sampler, g: WeaponGroup, slots: _Slots, m: np.ndarray) -> np.ndarray | int:
    """Wounds lost by the models at slots ``m`` from one token each: damage rolled, modified,
    then Feel No Pain (one number for every token when nothing varies)."""
    fixed = g.damage.is_fixed and not (slots.modifies_damage or g.damage_bonus)
    fnp = None if slots.fnp.min() >= NO_ROLL else slots.fnp.take(m)
    if fixed and (fnp is None or fnp.min() >= NO_ROLL):
        return g.damage.constant  # the same for every token
    d = np.full(m.size, g.damage.constant) if g.damage.is_fixed else s.expr(g.damage, m.size)
    if slots.modifies_damage or g.damage_bonus:
        d = modified_damage(d, slots.halve[m], slots.reduction[m], g.damage_bonus)
    return d if fnp is None else _fnp_lost(s, d, fnp)


def _allocate(
    s: Sampler, target: Target, groups: list[WeaponGroup], rolled: list[dict], trials: int
) -> SampledUnit:
    """Allocate every trial's wound tokens one by one, in the order of the attack sequence: each
    group's normal wounds in group order, then the devastating wounds. The tokens of one kind are
    resolved in steps (step ``k``: the ``k``-th token of that kind in every trial holding one),
    with the trials reordered by their number of such tokens so those still holding one are a
    prefix; each trial meets its own tokens in its own order, so this is the literal sequence.
    Returns the unit (:func:`_unit`) with its trials in trial order."""
    unit = _unit(target, trials)
    kinds = [(g, False, r["normal"]) for g, r in zip(groups, rolled, strict=True)]
    kinds += [(g, True, r["dev"]) for g, r in zip(groups, rolled, strict=True)]
    for g, dev, count in kinds:
        top = int(count.max()) if trials else 0
        if not top:
            continue
        holding = unit.holding_first(count, top)  # trials with >= k tokens, first
        slots = _Slots.of(g, dev, target)
        table = None if dev else slots.failed_flat.astype(np.int8) | slots.hurt_flat.astype(np.int8) << 1
        # every token's save die at once, step k taking the next holding[k] (none for devastating wounds)
        saves = np.empty(0, dtype=np.int8) if dev else s.roll(int(holding[1:].sum()))
        start = np.concatenate([[0], np.cumsum(holding[1:])])
        for k in range(1, top + 1):
            n = int(holding[k])
            at = start[k - 1]
            _token(unit, s, g, slots, table, n, None if dev else saves[at : at + n])
    unit.in_trial_order()
    return unit


def _simulate_batch(
    s: Sampler, target: Target, groups: list[WeaponGroup], trials: int, once: tuple[bool, bool]
) -> dict[str, np.ndarray]:
    flags = (np.full(trials, once[0]), np.full(trials, once[1])) if any(once) else None
    rolled = [roll_group(s, g, trials, flags) for g in groups]
    unit = _allocate(s, target, groups, rolled, trials)
    pb, pc = unit.destroyed(BODYGUARD), unit.destroyed(LEADERS)
    db, dc = unit.damage(BODYGUARD), unit.damage(LEADERS)
    unsaved = unit.extra(UNSAVED)
    out = {
        "hits": sum(r["hits"] for r in rolled),
        "wounds": sum(r["normal"] + r["dev"] for r in rolled),
        "unsaved": unsaved,
        "damage": db + dc,
        "models_destroyed": pb + pc,
    }
    if any(g.ab.devastating_wounds for g in groups):
        out["devastating_wounds"] = sum(r["dev"] for r in rolled)
    if target.leaders:
        out["character_damage"] = dc
        out["characters_destroyed"] = pc
    tests = hazardous_tests(groups)
    if tests:
        out["hazardous_failed"] = column_counts(s.roll((tests, trials)) == 1)  # a 1 fails (column layout)
    return out


def trial_function(
    target: Target, groups: list[WeaponGroup], once: tuple[bool, bool] = (False, False)
) -> TrialFn:
    """``trial(sampler, size)``: ``size`` trials of every stage, in sub-batches bounding memory
    (drawn in sequence from the block's one stream, so a block's result is fixed by its seed): one
    cell per attack's dice slot, Sustained Hits' extra hits included."""
    per_trial = sum(
        g.models
        * (g.attacks.max + g.attack_bonus)
        * (1 + (g.ab.sustained_hits.max if g.ab.sustained_hits else 0))
        for g in groups
    )
    return sized_batches(lambda s, n: _simulate_batch(s, target, groups, n, once), per_trial)


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
