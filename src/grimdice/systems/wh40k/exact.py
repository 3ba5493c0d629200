"""The exact engine: full distributions of every stage of a 40k attack, no sampling."""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from grimdice.dice.dist import Dist
from grimdice.dice.joint import Joint
from grimdice.engine.allocation import upper
from grimdice.result import Result
from grimdice.systems.wh40k.allocation import Allocation, token_save
from grimdice.systems.wh40k.report import build_result, hazardous_tests
from grimdice.systems.wh40k.sequence import (
    FLAG_STATES,
    attacks,
    flag_index,
    flag_tables,
    flagged_sum,
    per_attack,
)
from grimdice.systems.wh40k.units import Target, WeaponGroup

HAZARDOUS_FAIL = 1 / 6  # a Hazardous test fails on a 1


def _sum(dists: list[Dist]) -> Dist:
    total = Dist.constant(0)
    for d in dists:
        total = total + d
    return total


def _saves_uniform(target: Target, groups: list[WeaponGroup]) -> bool:
    """True when every model of the unit saves each kind of token equally well."""
    profiles = set(target.all_profiles)
    for g in groups:
        for dev in (False, True):
            if len({token_save(g, p, dev) for p in profiles}) > 1:
                return False
    return True


def _unsaved_by_thinning(g: WeaponGroup, target: Target, tokens: Joint, count: Dist) -> Dist:
    """Failed saves of a group against a unit whose models all save alike: each normal wound
    fails its save with ``1 - P(save)``; Devastating Wounds Critical Wounds get no save
    (``tokens``: the group's wound tokens of one attack; ``count``: its attacks)."""
    return _unsaved_per_attack(tokens, 1.0 - token_save(g, target.all_profiles[0], False)).sum_of(count)


@lru_cache(maxsize=256)
def _unsaved_per_attack(tokens: Joint, p_fail: float) -> Dist:
    """Failed saves of one attack (built once per law: the per-attack laws are shared values)."""
    return Dist.mixture(
        [p for _, p in tokens.items()],
        [Dist.binomial(idx[0], p_fail) + (idx[1] if len(idx) > 1 else 0) for idx, _ in tokens.items()],
    )


@dataclass
class _Laws:
    """The laws the allocation starts from: the stages before it, and per group what one attack
    brings to the chain (``tables``: the attack's tokens, a flag-indexed dict when the unit has
    one re-roll; None where nothing is held back) and how many attacks there are."""

    hits: Dist
    wounds: Dist
    devastating: Dist
    max_tokens: int
    tables: list
    normal: list[Dist]
    wound_laws: list[Dist]
    per_tokens: list[Joint]
    track: bool  # failed saves counted by the chain
    f0: int | None  # the starting flag (which re-rolls are available); None: no flag axis


def _flagged_laws(groups: list[WeaponGroup], counts: list[Dist], once: tuple[bool, bool]) -> _Laws:
    """With a one-per-unit re-roll every law carries the flag axis (:func:`~sequence.per_attack_flagged`)."""
    f0 = flag_index(*once)
    flag_laws = [flag_tables(g) for g in groups]

    def stage(law) -> Dist:
        S = np.zeros((FLAG_STATES, 1))
        S[f0, 0] = 1.0
        for tabs, n in zip(flag_laws, counts, strict=True):
            S = flagged_sum(S, {k: law(t) for k, t in tabs.items()}, n)
        return Dist(S.sum(axis=0))

    def total(t: np.ndarray) -> np.ndarray:
        idx = np.add.outer(np.arange(t.shape[1]), np.arange(t.shape[2]))
        return np.bincount(idx.ravel(), weights=t.sum(axis=0).ravel())

    wounds = stage(total)
    return _Laws(
        hits=stage(lambda t: t.sum(axis=(1, 2))),
        wounds=wounds,
        devastating=stage(lambda t: t.sum(axis=(0, 1))),
        max_tokens=upper(wounds),  # failed saves beyond it: less than 1e-15 of mass
        tables=[{k: t.sum(axis=0) for k, t in tabs.items()} for tabs in flag_laws],
        normal=[],
        wound_laws=[],
        per_tokens=[],
        track=True,  # the attacks are no longer independent
        f0=f0,
    )


def _independent_laws(target: Target, groups: list[WeaponGroup], counts: list[Dist]) -> _Laws:
    """Independent attacks: each group's stages are sums over its attacks of the per-attack laws."""
    per = [per_attack(g) for g in groups]
    wound_laws = [t.total().sum_of(n) for (_, t), n in zip(per, counts, strict=True)]
    wounds = _sum(wound_laws)
    devastating = (
        _sum([_dev(t).sum_of(n) for (_, t), n in zip(per, counts, strict=True)])
        if any(g.ab.devastating_wounds for g in groups)
        else Dist.constant(0)
    )
    return _Laws(
        hits=_sum([h.sum_of(n) for (h, _), n in zip(per, counts, strict=True)]),
        wounds=wounds,
        devastating=devastating,
        max_tokens=upper(wounds),  # failed saves beyond it: less than 1e-15 of mass
        tables=[
            t.table if g.ab.devastating_wounds and t.table.shape[1] > 1 else None
            for g, (_, t) in zip(groups, per, strict=True)
        ],
        normal=[t.marginal(0) for _, t in per],  # the normal wounds of one attack
        wound_laws=wound_laws,
        per_tokens=[t for _, t in per],
        track=not _saves_uniform(target, groups),
        f0=None,
    )


def solve(target: Target, groups: list[WeaponGroup], once: tuple[bool, bool] = (False, False)) -> dict:
    """Every stage's exact distribution, in order of the attack sequence.

    Each group's stages are sums over its attacks of the per-attack laws (one-dimensional sums);
    the allocation chain absorbs a group's normal wounds by their count, or, with Devastating
    Wounds, attack by attack, holding the Devastating Wounds tokens back (see :mod:`allocation`).

    ``once``: the unit has one Hit re-roll / one Wound re-roll for the whole attack; then every
    law carries a flag axis (which of them are still available) from attack to attack and from
    group to group (:func:`~sequence.per_attack_flagged`)."""
    counts = [attacks(g) for g in groups]
    flagged = any(once)
    laws = _flagged_laws(groups, counts, once) if flagged else _independent_laws(target, groups, counts)
    tables, track = laws.tables, laws.track
    held = any(t is not None for t in tables)
    # the unit state; with held Devastating Wounds and failed saves to count, a second chain counts
    # them (each Devastating Wounds token is one failed save, allocated last: it cannot change
    # which model the other wounds go to), so no chain holds both axes at once
    held = any(g.ab.devastating_wounds for g in groups) if flagged else held
    alloc = Allocation(target, groups, track and not held, laws.max_tokens, laws.f0)
    counter = Allocation(target, groups, True, laws.max_tokens, laws.f0) if track and held else None
    alloc.plan(tables, counts, laws.wound_laws, False)
    if counter is not None:
        counter.plan(tables, counts, laws.wound_laws, True)
    alloc.run(tables, counts, laws.normal)
    if counter is not None:
        counter.run(tables, counts, laws.normal, count_only=True)
    out = outcome(alloc)
    unsaved = (
        (counter or alloc).chain.unsaved()
        if track
        else _sum(
            [
                _unsaved_by_thinning(g, target, t, n)
                for g, t, n in zip(groups, laws.per_tokens, counts, strict=True)
            ]
        )
    )
    result: dict[str, Dist | dict] = {"hits": laws.hits, "wounds": laws.wounds}
    if any(g.ab.devastating_wounds for g in groups):
        result["devastating_wounds"] = laws.devastating
    result["unsaved"] = unsaved
    result.update(out)
    return result


def outcome(alloc: Allocation) -> dict[str, Dist]:
    """Damage and models destroyed (and the Characters' share) from the final unit state."""
    grid = alloc.chain.grid()
    if not alloc.leaders.total:  # no Characters: the Bodyguard's wounds lost are the damage
        lost = grid[:, 0]
        return {
            "damage": Dist(lost),
            "models_destroyed": Dist(np.bincount(alloc.bodyguard.destroyed(), weights=lost)),
        }
    nb, nc = grid.shape
    cb = np.arange(nb)[:, None]
    cc = np.arange(nc)[None, :]
    kb = alloc.bodyguard.destroyed()[:, None]
    kc = alloc.leaders.destroyed()[None, :]
    out = {
        "damage": Dist.from_outcomes(np.broadcast_to(cb + cc, grid.shape), grid),
        "models_destroyed": Dist.from_outcomes(np.broadcast_to(kb + kc, grid.shape), grid),
    }
    lc = grid.sum(axis=0)
    out["character_damage"] = Dist(lc)
    out["characters_destroyed"] = Dist.from_outcomes(alloc.leaders.destroyed(), lc)
    return out


def _dev(tokens: Joint) -> Dist:
    return tokens.marginal(1) if tokens.ndim > 1 else Dist.constant(0)


def exact_result(
    target: Target, groups: list[WeaponGroup], title: str = "", once: tuple[bool, bool] = (False, False)
) -> Result:
    tests = hazardous_tests(groups)
    failed = Dist.binomial(tests, HAZARDOUS_FAIL) if tests else None
    return build_result("exact", solve(target, groups, once), groups, failed, title)
