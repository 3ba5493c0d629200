"""The Monte Carlo engine: the same rules rolled literally, die by die, vectorised over trials.

It shares with the exact engine only *decisions* (who fires what, the Piercing pick, the removal
order: ``attack.py`` and ``units.choose_order``), never probabilities; every die is rolled with the
seeded :class:`~grimdice.dice.Sampler` inside :func:`~grimdice.engine.montecarlo.run_trials`.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from functools import partial
from typing import Any

import numpy as np

from grimdice.dice import Dist, Sampler
from grimdice.engine.options import RunOptions
from grimdice.systems.onepage.attack import (
    Fire,
    Odds,
    Picks,
    Timing,
    at_tier,
    melee_fire,
    odds,
    removal,
)
from grimdice.systems.onepage.rolls import ARMORED_IGNORES, damage_result
from grimdice.systems.onepage.units import (
    Removal,
    Unit,
    UnitState,
    best_removal,
    choose_order,
    decode,
    encode,
    wound,
)
from grimdice.systems.onepage.weapons import Weapon


def morale_roll(sampler: Sampler, n: int, unit: Unit) -> np.ndarray:
    """A morale test per trial (Fearless: "roll one extra die and pick the highest result")."""
    face = sampler.roll(n)
    if unit.has("fearless"):
        face = np.maximum(face, sampler.roll(n))
    return face >= unit.quality


def roll_hits(sampler: Sampler, o: Odds, dice: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(hits, Rending hits that are automatic wounds) per trial."""
    rolls, valid = sampler.pool(dice)
    q = o.hit_q
    mask = valid & (((rolls < q) & o.reroll_fail) | ((rolls >= q) & o.reroll_success))
    if mask.any():
        rolls = sampler.reroll(rolls, mask)
    hit = valid & (rolls >= q)
    rend = hit & (rolls == 6) if o.rending else np.zeros_like(hit)
    return hit.sum(axis=1), rend.sum(axis=1)


def roll_blocks(sampler: Sampler, o: Odds, hits: np.ndarray) -> np.ndarray:
    """Wounds from normal hits: Armored ignores on 4+, then the target's block test (re-rolling
    successful blocks when the attacker picked that Piercing option)."""
    rolls, valid = sampler.pool(hits)
    live = valid.copy()
    if o.armored:
        live &= sampler.roll(rolls.shape) < ARMORED_IGNORES
    blocked = rolls >= o.block_q
    if o.reroll_blocks:
        redo = live & blocked
        if redo.any():
            rolls = sampler.reroll(rolls, redo)
            blocked = rolls >= o.block_q
    return (live & ~blocked).sum(axis=1)


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
    rows = np.stack(cols, axis=1)
    uniq, inv = np.unique(rows, axis=0, return_inverse=True)
    codes = np.empty(len(uniq), dtype=np.int64)
    for i, row in enumerate(uniq):
        order = choose_order(target, t_state, int(row[0]), removal)
        s = wound(target, t_state, int(row[0]), order)
        for k in row[1:]:
            s = wound(target, s, int(k), order, single=True)
        codes[i] = encode(target, s)
    total = rows.sum(axis=1)
    out = codes[np.asarray(inv).reshape(-1)]
    if target.kind in ("vehicle", "walker"):
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


def _table(tally: Any, name: str, f: Callable[[int], Any] = int) -> dict:
    d: Dist = tally.dist(name)
    return {f(k): p for k, p in d.to_dict().items() if p > 0}


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
            for code in np.unique(codes):
                out["killed"][codes == code] += sd.models - decode(d, int(code)).models
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


def half_killed_sim(
    sampler: Sampler, d: Unit, before: int, codes: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """ "Whenever half of its models are killed at once": a morale test, Pinned when failed. Returns
    the new state codes and 1 where a test was taken."""
    codes = codes.copy()
    tested = np.zeros(codes.size, dtype=np.int64)
    ok = morale_roll(sampler, codes.size, d)
    cur = codes.copy()
    for code in np.unique(cur):
        s = decode(d, int(code))
        killed = before - s.models
        if s.models and killed and 2 * killed >= before:
            at = cur == code
            tested[at] = 1
            codes[at & ~ok] = encode(d, replace(s, pinned=True))
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

    def trial(sampler: Sampler, size: int) -> dict[str, np.ndarray]:
        if attack == "transport":
            hits = sampler.roll(size).astype(np.int64)
        elif models:
            rolls, valid = sampler.pool(np.full(size, models))
            hits = ((rolls == 1) & valid).sum(axis=1).astype(np.int64)
        else:
            hits = np.zeros(size, dtype=np.int64)
        wounds = roll_blocks(sampler, auto, hits)
        uniq, inv = np.unique(wounds, return_inverse=True)
        table = np.array([encode(d, best_removal(d, sd, int(w))[1]) for w in uniq], dtype=np.int64)
        codes = table[np.asarray(inv).reshape(-1)]
        if d.kind in ("vehicle", "walker"):
            codes = vehicle_sim(sampler, d, codes, wounds > 0, c.facing)
        codes, tested = half_killed_sim(sampler, d, sd.models, codes)
        return {"hits": hits, "wounds": wounds, "state": codes, "tested": tested}

    t = options.run(trial)
    comps = [_table(t, "wounds"), _table(t, "state", lambda k: decode(d, k)), _table(t, "tested")]
    return t.dist("hits"), comps


def simulate_melee(
    a: Unit,
    sa: UnitState,
    d: Unit,
    sd: UnitState,
    c: Any,
    options: RunOptions,
    picks: tuple[Picks, Picks] | None = None,
) -> tuple[tuple[Dist, Dist, Dist, Dist], list[dict], dict | None]:
    """Sampled melee; ``picks``: Piercing's options per melee weapon (attacker's, defender's), as the
    exact engine chose them (default: more wounds per attack)."""
    pa, pd = picks if picks is not None else (None, None)
    from grimdice.systems.onepage.exact import fear_fail

    ca = c.model_copy(update={"action": "assault"})
    cd = c.model_copy(update={"action": "hold"})
    auto = odds(Weapon("Automatic hits", None, 1), a, d, ca, melee=True) if a.kind == "vehicle" else None
    fa, fd = fear_fail(a, d) > 0, fear_fail(d, a) > 0
    timings = {(x, y): Timing.of(a, sa, d, sd, c, x, y) for x in (False, True) for y in (False, True)}

    rem_d = {
        b: removal(d, a, c, assaulting=False, strike_back=b, placed=c.defender_strikers)
        for b in (False, True)
    }
    rem_a = {
        b: removal(a, d, c, assaulting=True, strike_back=b, placed=c.attacker_strikers) for b in (False, True)
    }

    def fires_a(s: UnitState) -> list[Fire]:
        return melee_fire(a, s, d, ca, assaulting=True, placed=c.attacker_strikers, picks=pa)

    def fires_d(s: UnitState) -> list[Fire]:
        return melee_fire(d, s, a, cd, assaulting=False, placed=c.defender_strikers, picks=pd)

    unit_tier = Weapon("", None, 1)

    def tier_fires(timing: Timing, side_a: bool, t: int) -> Callable[[UnitState], list[Fire]]:
        """The attacks of one side at tier ``t``, from the side's state."""
        return lambda s: at_tier(timing, side_a, fires_a(s) if side_a else fires_d(s), t)

    size_d, size_a = code_range(d), code_range(a)
    joint_ok = size_a * size_d <= 2_000_000

    def alive(unit: Unit, codes: np.ndarray) -> np.ndarray:
        out = np.zeros(codes.size, dtype=bool)
        for code in np.unique(codes):
            out[codes == code] = not decode(unit, int(code)).destroyed
        return out

    def trial(sampler: Sampler, size: int) -> dict[str, np.ndarray]:
        # Fear: a morale test "before fighting melee"
        af = ~morale_roll(sampler, size, a) & fa
        df = ~morale_roll(sampler, size, d) & fd
        a_end = np.full(size, encode(a, sa), dtype=np.int64)
        d_end = np.full(size, encode(d, sd), dtype=np.int64)
        ha, wa, hd, wd = (np.zeros(size, dtype=np.int64) for _ in range(4))
        for (x, y), timing in timings.items():
            combo = (af == x) & (df == y)
            if not combo.any():
                continue
            ta = timing.tiers(True, fires_a(sa)) | (
                {timing.tier(True, unit_tier)} if auto is not None else set()
            )
            td = timing.tiers(False, fires_d(sd))
            for t in sorted(ta | td, reverse=True):
                live = combo & alive(a, a_end) & alive(d, d_end)
                a_before, d_before = a_end.copy(), d_end.copy()
                # each tier's attacks of both sides at once, from the states before it
                for side_a, tiers_, back in (
                    (True, ta, any(z < t for z in td)),
                    (False, td, any(z < t for z in ta)),
                ):
                    if t not in tiers_:
                        continue
                    att, tgt = (a, d) if side_a else (d, a)
                    att_codes, tgt_codes = (a_before, d_before) if side_a else (d_before, a_before)
                    for code in np.unique(tgt_codes[live]):
                        idx = live & (tgt_codes == code)
                        h, w, new = strike_sim(
                            sampler,
                            tier_fires(timing, side_a, t),
                            att,
                            att_codes[idx],
                            tgt,
                            decode(tgt, int(code)),
                            auto=auto if side_a and timing.tier(True, unit_tier) == t else None,
                            facing=c.facing,
                            removal=(rem_d if side_a else rem_a)[back],
                        )
                        if side_a:
                            ha[idx] += h
                            wa[idx] += w
                            d_end[idx] = new
                        else:
                            hd[idx] += h
                            wd[idx] += w
                            a_end[idx] = new
        winner = np.where(wa > wd, 1, np.where(wd > wa, 2, 0))
        ok_a, ok_d = morale_roll(sampler, size, a), morale_roll(sampler, size, d)
        for unit, codes, lost, ok in ((d, d_end, winner == 1, ok_d), (a, a_end, winner == 2, ok_a)):
            cur = codes.copy()
            for code in np.unique(cur[lost & ~ok]):
                s = decode(unit, int(code))
                if s.destroyed:
                    continue
                bad = replace(s, pinned=True) if 2 * s.models > unit.started_with else replace(s, routed=True)
                codes[lost & ~ok & (cur == code)] = encode(unit, bad)
        out = {"a": a_end, "d": d_end, "winner": winner, "wa": wa, "wd": wd, "ha": ha, "hd": hd}
        if joint_ok:
            out["joint"] = a_end * size_d + d_end
        return out

    t = options.run(trial)
    comps = [
        _table(t, "a", lambda k: decode(a, k)),
        _table(t, "d", lambda k: decode(d, k)),
        _table(t, "winner"),
    ]
    joint = None
    if joint_ok:
        joint = {(decode(a, k // size_d), decode(d, k % size_d)): p for k, p in _table(t, "joint").items()}
    return (t.dist("ha"), t.dist("hd"), t.dist("wa"), t.dist("wd")), comps, joint


def code_range(unit: Unit) -> int:
    """One more than the largest state code of ``unit`` (:func:`~.units.encode`)."""
    full = UnitState(
        tuple(g.count for g in unit.groups), tuple(g.tough - 1 for g in unit.groups), True, True, True, True
    )
    return encode(unit, full) + 1


def simulate_casting(
    unit: Unit, state: UnitState, levels: int, dice: int | None, need: int, options: RunOptions
) -> dict[tuple[int, int, int, int, int, UnitState], float]:
    """The casting of :func:`~.psyker.casting_table` rolled literally: D3 (a D6 halved, rounded up) +
    levels power dice, at most 6; ``dice`` of them rolled for 4+; two or more 6s: D3 wounds on the
    Psyker. Returns the sampled table with the same keys."""
    from grimdice.systems.onepage.psyker import psyker_group

    order = psyker_group(unit)

    def trial(sampler: Sampler, size: int) -> dict[str, np.ndarray]:
        pool = np.minimum((sampler.roll(size).astype(np.int64) + 1) // 2 + levels, 6)
        k = pool if dice is None else np.minimum(pool, dice)
        rolls, valid = sampler.pool(k)
        ok = ((rolls >= 4) & valid).sum(axis=1) >= need
        peril = ((rolls == 6) & valid).sum(axis=1) >= 2
        w = np.where(peril, (sampler.roll(size).astype(np.int64) + 1) // 2, 0)
        codes = np.empty(size, dtype=np.int64)
        for x in np.unique(w):
            codes[w == x] = encode(unit, wound(unit, state, int(x), order) if x else state)
        key = ((((pool * 7 + k) * 2 + ok) * 2 + peril) * 4 + w).astype(np.int64)
        return {"key": key * base + codes}

    base = code_range(unit)
    t = options.run(trial)
    out: dict[tuple[int, int, int, int, int, UnitState], float] = {}
    for code, p in _table(t, "key").items():
        rest, c = divmod(code, base)
        rest, w = divmod(rest, 4)
        rest, peril = divmod(rest, 2)
        rest, ok = divmod(rest, 2)
        pool, k = divmod(rest, 7)
        out[(pool, k, ok, peril, w, decode(unit, c))] = p
    return out
