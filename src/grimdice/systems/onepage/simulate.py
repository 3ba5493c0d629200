"""The Monte Carlo engine: the same rules rolled literally, die by die, vectorised over trials.

It shares with the exact engine only *decisions* (who fires what, the Piercing pick, the removal
order: ``attack.py`` and ``units.choose_order``), never probabilities; every die is rolled with the
seeded :class:`~grimdice.dice.Sampler` inside :func:`~grimdice.engine.montecarlo.run_trials`.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from functools import cache, partial
from typing import Any

import numpy as np

from grimdice.dice import Dist, Sampler
from grimdice.engine.options import RunOptions
from grimdice.engine.pipeline import CategoryRoll
from grimdice.systems.onepage.attack import (
    Fire,
    Odds,
    odds,
    removal,
)
from grimdice.systems.onepage.rolls import ARMORED_IGNORES, damage_result, passes
from grimdice.systems.onepage.units import (
    Removal,
    Unit,
    UnitState,
    best_removal,
    choose_order,
    decode,
    encode,
    recall,
    wound,
)
from grimdice.systems.onepage.weapons import Weapon


def morale_roll(sampler: Sampler, n: int, unit: Unit) -> np.ndarray:
    """A morale test per trial (Fearless: "roll one extra die and pick the highest result")."""
    face = sampler.roll(n)
    if unit.has("fearless"):
        face = np.maximum(face, sampler.roll(n))
    return face >= unit.quality


def _passed(faces: np.ndarray, q: int) -> np.ndarray:
    """:func:`~.rolls.passes` as an array (the form a :class:`CategoryRoll` predicate returns)."""
    return np.asarray(passes(faces, q))


def _hit_category(faces: np.ndarray, q: int, rending: bool) -> np.ndarray:
    """0: a hit on a 6 with Rending (an automatic wound), 1: another hit, 2: a miss."""
    hit = _passed(faces, q)
    return np.asarray(np.where(hit & (np.asarray(faces) == 6) & rending, 0, np.where(hit, 1, 2)))


def _hit_rerolled(faces: np.ndarray, q: int, fail: bool, success: bool) -> np.ndarray:
    """The hit dice re-rolled once (Linked/Hatred: failed hits; a Shaken vehicle: successful hits)."""
    hit = _passed(faces, q)
    return (~hit & fail) | (hit & success)


@cache
def hit_roll(q: int, reroll_fail: bool, reroll_success: bool, rending: bool) -> CategoryRoll:
    """The hit test as a core :class:`~grimdice.engine.pipeline.CategoryRoll` (one per characteristic, so
    its per-face tables are built once): counts of Rending hits and of other hits."""
    return CategoryRoll(
        partial(_hit_category, q=q, rending=rending),
        3,
        reroll=partial(_hit_rerolled, q=q, fail=reroll_fail, success=reroll_success),
    )


def _fails(faces: np.ndarray, q: int) -> np.ndarray:
    """0 where the test fails (the die counts), 1 where it passes."""
    return _passed(faces, q).astype(np.int8)


@cache
def block_roll(q: int, reroll_blocks: bool) -> CategoryRoll:
    """The block test as a CategoryRoll counting the failed blocks (wounds); successful blocks re-rolled
    when the attacker picked that Piercing option. The Armored roll is ``block_roll(4, False)``:
    its count is the hits not ignored ("On a 4+ the hit is ignored")."""
    if reroll_blocks:
        return CategoryRoll(partial(_fails, q=q), 2, reroll=partial(_passed, q=q))
    return CategoryRoll(partial(_fails, q=q), 2)


def roll_hits(sampler: Sampler, o: Odds, dice: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(hits, Rending hits that are automatic wounds) per trial."""
    counts = hit_roll(o.hit_q, o.reroll_fail, o.reroll_success, o.rending).sample(sampler, dice)
    return counts[:, 0] + counts[:, 1], counts[:, 0]


def roll_blocks(sampler: Sampler, o: Odds, hits: np.ndarray) -> np.ndarray:
    """Wounds from normal hits: Armored ignores on 4+ (one die per hit), then the target's block
    test for the hits not ignored (re-rolling successful blocks when the attacker picked that
    Piercing option)."""
    if o.armored:
        hits = block_roll(ARMORED_IGNORES, False).sample(sampler, hits)[:, 0]
    return block_roll(o.block_q, o.reroll_blocks).sample(sampler, hits)[:, 0]


def strike_sim(
    sampler: Sampler,
    fires_of: Callable[[UnitState], list[Fire]],
    att: Unit,
    att_codes: np.ndarray,
    target: Unit,
    t_state: UnitState,
    *,
    auto: Odds | None = None,
    facing: str = "side",
    removal: Removal | None = None,
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(hits, wounds caused, target state codes) per trial, the attackers in states ``att_codes``."""
    n = att_codes.size
    hits = np.zeros(n, dtype=np.int64)
    normal = np.zeros(n, dtype=np.int64)
    singles: list[tuple[np.ndarray, np.ndarray]] = []  # (trial indices, wounds) per "x" weapon fired
    for code in np.unique(att_codes):
        idx = np.flatnonzero(att_codes == code)
        s = decode(att, int(code))
        for f in fires_of(s):
            o = f.odds
            if o.weapon.x:
                for _ in range(f.instances):
                    h, r = roll_hits(sampler, o, np.full(idx.size, o.weapon.attacks))
                    hits[idx] += h
                    singles.append((idx, r + roll_blocks(sampler, o, h - r)))
            else:
                h, r = roll_hits(sampler, o, np.full(idx.size, f.dice))
                hits[idx] += h
                normal[idx] += r + roll_blocks(sampler, o, h - r)
        if auto is not None and s.models:
            # "Vehicles ... deal D6 automatic hits when using Assault actions."
            h = sampler.roll(idx.size)
            hits[idx] += h
            normal[idx] += roll_blocks(sampler, auto, h)
    cols = [normal]
    for idx, w in singles:
        col = np.zeros(n, dtype=np.int64)
        col[idx] = w
        cols.append(col)
    key = cols[0]
    for c in cols[1:]:  # the rows' ranks, one column at a time (no overflow however many columns)
        key = distinct(key * (int(c.max()) + 1) + c)[1]
    uniq, inv = distinct(key)
    first = np.empty(uniq.size, dtype=np.int64)
    first[inv] = np.arange(n)  # a trial of each distinct row
    codes = np.empty(len(uniq), dtype=np.int64)
    for i, t in enumerate(first.tolist()):
        order = choose_order(target, t_state, int(normal[t]), removal)
        s = wound(target, t_state, int(normal[t]), order)
        for c in cols[1:]:
            s = wound(target, s, int(c[t]), order, single=True)
        codes[i] = encode(target, s)
    total = sum(cols[1:], cols[0])
    out = codes[inv]
    if target.rolls_vehicle_damage:
        out = vehicle_sim(sampler, target, out, total > 0, facing, removal)
    return hits, total, out


def vehicle_sim(
    sampler: Sampler,
    unit: Unit,
    codes: np.ndarray,
    wounded: np.ndarray,
    facing: str,
    removal: Removal | None = None,
) -> np.ndarray:
    """The Vehicle damage table rolled literally (two dice lowest in front, highest in the rear)."""
    codes = codes.copy()
    alive = np.array([not decode(unit, int(c)).destroyed for c in codes], dtype=bool)
    active = wounded & alive
    while active.any():
        idx = np.flatnonzero(active)
        f = sampler.roll(idx.size)
        if facing != "side":
            g = sampler.roll(idx.size)
            f = np.minimum(f, g) if facing == "front" else np.maximum(f, g)
        r = damage_result(f)
        active[:] = False
        cur = codes[idx].copy()  # the states before this roll (codes change below)
        for code in np.unique(cur):
            s = decode(unit, int(code))
            at = idx[cur == code]
            rr = r[cur == code]
            codes[at[rr == 1]] = encode(unit, replace(s, shaken=True))
            im = at[rr == 2]
            if not s.immobile:
                codes[im] = encode(unit, replace(s, immobile=True))
            else:
                s2 = wound(unit, s, 1, choose_order(unit, s, 1, removal))
                codes[im] = encode(unit, s2)
                if not s2.destroyed:
                    active[im] = True
    return codes


def distinct(key: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``(uniq, inv)`` of non-negative integer keys, ``key == uniq[inv]`` (``np.unique`` with
    ``return_inverse``): by counting when the keys are few, in O(trials), else by sorting."""
    if key.size and int(key.max()) < 4 * key.size:
        seen = np.bincount(key) > 0
        uniq = np.flatnonzero(seen)
        rank = np.cumsum(seen) - 1
        return uniq, rank[key]
    uniq, inv = np.unique(key, return_inverse=True)
    return uniq, np.asarray(inv).reshape(-1)


def _table(tally: Any, name: str, f: Callable[[int], Any] = int) -> dict:
    """The outcomes of ``name`` seen in the trials, by ``f(code)``, with their frequencies (the
    seen codes only: a joint code's range may be large)."""
    counts = tally.counts[name]
    seen = np.flatnonzero(counts)
    return {f(int(k)): float(counts[k]) / tally.trials for k in seen}


def _fixed(fires: list[Fire], _state: UnitState) -> list[Fire]:
    """The same fires whatever the shooter's state (a shooting plan)."""
    return fires


def simulate_targets(
    a: Unit, sa: UnitState, targets: list[tuple[Unit, UnitState, Any, list[Fire]]], options: RunOptions
) -> tuple[list[tuple[Dist, list[dict]]], dict[str, Dist]]:
    """Sampled shooting at one or more targets (each with the fires aimed at it), in the same trials:
    per target (hits, [wounds, state, morale test taken]), and the totals over the targets (``hits``,
    ``wounds``, ``models_destroyed``)."""
    rems = [removal(d, a, c, assaulting=False, strike_back=False) for d, _, c, _ in targets]

    def trial(sampler: Sampler, size: int) -> dict[str, np.ndarray]:
        att = np.full(size, encode(a, sa), dtype=np.int64)
        out: dict[str, np.ndarray] = {k: np.zeros(size, dtype=np.int64) for k in ("hits", "wounds", "killed")}
        for i, ((d, sd, c, fires), rem) in enumerate(zip(targets, rems, strict=True)):
            hits, tot, codes = strike_sim(
                sampler, partial(_fixed, fires), a, att, d, sd, facing=c.facing, removal=rem
            )
            codes, tested = half_killed_sim(sampler, d, sd.models, codes)
            out.update({f"hits{i}": hits, f"wounds{i}": tot, f"state{i}": codes, f"tested{i}": tested})
            out["hits"] += hits
            out["wounds"] += tot
            uniq, inv = distinct(codes)
            out["killed"] += np.array([sd.models - decode(d, k).models for k in uniq.tolist()])[inv]
        return out

    t = options.run(trial)
    per = [
        (
            t.dist(f"hits{i}"),
            [
                _table(t, f"wounds{i}"),
                _table(t, f"state{i}", partial(decode, d)),
                _table(t, f"tested{i}"),
            ],
        )
        for i, (d, _, _, _) in enumerate(targets)
    ]
    return per, {"hits": t.dist("hits"), "wounds": t.dist("wounds"), "models_destroyed": t.dist("killed")}


def _half_killed(d: Unit, before: int, code: int) -> tuple[int, int]:
    """(1 if a unit in state ``code`` that had ``before`` models takes the half-killed morale test,
    else 0; its state code after a failed test)."""
    s = decode(d, code)
    killed = before - s.models
    if s.models and killed and 2 * killed >= before:
        return 1, encode(d, replace(s, pinned=True))
    return 0, code


def half_killed_sim(
    sampler: Sampler, d: Unit, before: int, codes: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """ "Whenever half of its models are killed at once": a morale test, Pinned when failed. Returns
    the new state codes and 1 where a test was taken."""
    ok = morale_roll(sampler, codes.size, d)
    uniq, inv = distinct(codes)
    # per distinct state: (1 where a test is taken, the state after a failed test)
    laws = [
        recall(d, "half_killed", (before, code), partial(_half_killed, d, before, code))
        for code in uniq.tolist()
    ]
    tested_by, failed_by = (np.array(col, dtype=np.int64) for col in zip(*laws, strict=True))
    tested = tested_by[inv]
    codes = np.where(ok, codes, failed_by[inv])
    return codes, tested


def simulate_hazard(
    d: Unit, sd: UnitState, c: Any, attack: str, options: RunOptions
) -> tuple[Dist, list[dict]]:
    """Automatic hits rolled literally: D6 for a destroyed transport, one die per model in dangerous
    terrain (each 1 is a hit); then Armored (4+ ignores), blocks, casualties and the morale test."""
    auto = odds(Weapon("Automatic hits", None, 1), d, d, c, melee=True)
    models = sd.models if c.dangerous_models is None else min(c.dangerous_models, sd.models)
    if d.has("flying"):
        models = 0

    removed: list[int] = []

    def trial(sampler: Sampler, size: int) -> dict[str, np.ndarray]:
        if attack == "transport":
            hits = sampler.roll(size).astype(np.int64)
        elif models:
            rolls, valid = sampler.pool(np.full(size, models))
            hits = ((rolls == 1) & valid).sum(axis=1).astype(np.int64)
        else:
            hits = np.zeros(size, dtype=np.int64)
        wounds = roll_blocks(sampler, auto, hits)
        # the state after w wounds, for every w up to the most seen (kept between blocks)
        for w in range(len(removed), int(wounds.max()) + 1):
            removed.append(encode(d, best_removal(d, sd, w)[1]))
        codes = np.array(removed, dtype=np.int64)[wounds]
        if d.rolls_vehicle_damage:
            codes = vehicle_sim(sampler, d, codes, wounds > 0, c.facing)
        codes, tested = half_killed_sim(sampler, d, sd.models, codes)
        return {"hits": hits, "wounds": wounds, "state": codes, "tested": tested}

    t = options.run(trial)
    comps = [_table(t, "wounds"), _table(t, "state", lambda k: decode(d, k)), _table(t, "tested")]
    return t.dist("hits"), comps


def simulate_casting(
    unit: Unit, state: UnitState, levels: int, dice: int | None, need: int, options: RunOptions
) -> dict[tuple[int, int, int, int, int, UnitState], float]:
    """The casting of :func:`~.psyker.casting_table` rolled literally: D3 (a D6 halved, rounded up) +
    levels power dice, at most 6; ``dice`` of them rolled for 4+; two or more 6s: D3 wounds on the
    Psyker. Returns the sampled table with the same keys."""
    from grimdice.systems.onepage.psyker import psyker_group

    order = psyker_group(unit)
    # the Psyker's state after ``w`` wounds of Perils (w = 0..3, one state each)
    after = [wound(unit, state, w, order) if w else state for w in range(4)]

    def trial(sampler: Sampler, size: int) -> dict[str, np.ndarray]:
        pool = np.minimum((sampler.roll(size).astype(np.int64) + 1) // 2 + levels, 6)
        k = pool if dice is None else np.minimum(pool, dice)
        sixes, others = CAST_ROLL.sample(sampler, k).T
        ok = sixes + others >= need
        peril = sixes >= 2
        w = np.where(peril, (sampler.roll(size).astype(np.int64) + 1) // 2, 0)
        return {"key": (((pool * 7 + k) * 2 + ok) * 2 + peril) * 4 + w}

    t = options.run(trial)
    out: dict[tuple[int, int, int, int, int, UnitState], float] = {}
    for code, p in _table(t, "key").items():
        rest, w = divmod(code, 4)
        rest, peril = divmod(rest, 2)
        rest, ok = divmod(rest, 2)
        pool, k = divmod(rest, 7)
        out[(pool, k, ok, peril, w, after[w])] = p
    return out


def _cast_category(faces: np.ndarray) -> np.ndarray:
    """A power die: 0 a six (two or more: Perils), 1 another success (4+), 2 a failure."""
    f = np.asarray(faces)
    return np.asarray(np.where(f == 6, 0, np.where(_passed(f, 4), 1, 2)))


#: the power dice of a casting: "roll ... for 4+" (sixes counted apart for Perils of the Warp)
CAST_ROLL = CategoryRoll(_cast_category, 3)
