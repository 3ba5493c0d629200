"""The exact engine: full distributions of every stage of a 40k attack, no sampling."""

from __future__ import annotations

import numpy as np

from grimdice.dice.dist import Dist
from grimdice.dice.joint import Joint
from grimdice.result import Result
from grimdice.systems.wh40k.allocation import Allocation, token_save
from grimdice.systems.wh40k.report import build_result, hazardous_tests
from grimdice.systems.wh40k.sequence import attacks, per_attack
from grimdice.systems.wh40k.units import Target, WeaponGroup

HAZARDOUS_FAIL = 1 / 6  # a Hazardous test fails on a 1


def _sum(dists: list[Dist]) -> Dist:
    total = Dist.constant(0)
    for d in dists:
        total = total + d
    return total


def _saves_uniform(target: Target, groups: list[WeaponGroup]) -> bool:
    """True when every model of the unit saves each kind of token equally well."""
    for g in groups:
        for dev in (False, True):
            if len({token_save(g, p, dev) for p in target.all_profiles}) > 1:
                return False
    return True


def _unsaved_by_thinning(g: WeaponGroup, target: Target) -> Dist:
    """Failed saves of a group against a unit whose models all save alike: each normal wound
    fails its save with ``1 - P(save)``; Devastating Wounds Critical Wounds get no save."""
    p_fail = 1.0 - token_save(g, target.all_profiles[0], False)
    _, tokens = per_attack(g)
    per = Dist.mixture(
        [p for _, p in tokens.items()],
        [Dist.binomial(idx[0], p_fail) + (idx[1] if len(idx) > 1 else 0) for idx, _ in tokens.items()],
    )
    return per.sum_of(attacks(g))


def solve(target: Target, groups: list[WeaponGroup]) -> dict[str, Dist | dict]:
    """Every stage's exact distribution, in order of the attack sequence.

    Each group's stages are sums over its attacks of the per-attack laws (one-dimensional sums);
    the allocation chain absorbs a group's normal wounds by their count, or, with Devastating
    Wounds, attack by attack, holding the Devastating Wounds tokens back (see :mod:`allocation`)."""
    per = [per_attack(g) for g in groups]
    counts = [attacks(g) for g in groups]
    hits = _sum([h.sum_of(n) for (h, _), n in zip(per, counts, strict=True)])
    wound_laws = [t.total().sum_of(n) for (_, t), n in zip(per, counts, strict=True)]
    wounds = _sum(wound_laws)
    track = not _saves_uniform(target, groups)
    max_tokens = sum(w.max for w in wound_laws)
    normal = [t.marginal(0).sum_of(n) for (_, t), n in zip(per, counts, strict=True)]
    tables = [
        t.table if g.ab.devastating_wounds and t.table.shape[1] > 1 else None
        for g, (_, t) in zip(groups, per, strict=True)
    ]
    held = any(t is not None for t in tables)
    # the unit state; with held Devastating Wounds and failed saves to count, a second chain counts
    # them (each Devastating Wounds token is one failed save, allocated last: it cannot change
    # which model the other wounds go to), so no chain holds both axes at once
    alloc = Allocation(target, groups, track and not held, max_tokens)
    counter = Allocation(target, groups, True, max_tokens) if track and held else None
    alloc.plan(tables, counts, normal, False)
    if counter is not None:
        counter.plan(tables, counts, normal, True)
    alloc.run(tables, counts, normal)
    if counter is not None:
        counter.run(tables, counts, normal, count_only=True)
    out = outcome(alloc)
    unsaved = (
        (counter or alloc).chain.unsaved()
        if track
        else _sum([_unsaved_by_thinning(g, target) for g in groups])
    )
    result: dict[str, Dist | dict] = {"hits": hits, "wounds": wounds}
    if any(g.ab.devastating_wounds for g in groups):
        result["devastating_wounds"] = _sum(
            [_dev(t).sum_of(n) for (_, t), n in zip(per, counts, strict=True)]
        )
    result["unsaved"] = unsaved
    result.update(out)
    return result


def outcome(alloc: Allocation) -> dict[str, Dist]:
    """Damage and models destroyed (and the Characters' share) from the final unit state."""
    grid = alloc.chain.grid()
    nb, nc = grid.shape
    cb = np.arange(nb)[:, None]
    cc = np.arange(nc)[None, :]
    kb = alloc.bodyguard.destroyed()[:, None]
    kc = alloc.leaders.destroyed()[None, :]
    out = {
        "damage": Dist.from_outcomes(np.broadcast_to(cb + cc, grid.shape), grid),
        "models_destroyed": Dist.from_outcomes(np.broadcast_to(kb + kc, grid.shape), grid),
    }
    if alloc.leaders.total:
        lc = grid.sum(axis=0)
        out["character_damage"] = Dist(lc)
        out["characters_destroyed"] = Dist.from_outcomes(alloc.leaders.destroyed(), lc)
    return out


def _dev(tokens: Joint) -> Dist:
    return tokens.marginal(1) if tokens.ndim > 1 else Dist.constant(0)


def exact_result(target: Target, groups: list[WeaponGroup], title: str = "") -> Result:
    tests = hazardous_tests(groups)
    failed = Dist.binomial(tests, HAZARDOUS_FAIL) if tests else None
    return build_result("exact", solve(target, groups), groups, failed, title)  # type: ignore[arg-type]
