"""The exact engine: full distributions of every stage of a 40k attack, no sampling."""

from __future__ import annotations

from grimdice.dice.dist import Dist
from grimdice.dice.joint import Joint
from grimdice.result import Result
from grimdice.systems.wh40k.allocation import AllocationChain, token_save
from grimdice.systems.wh40k.report import build_result, hazardous_tests
from grimdice.systems.wh40k.sequence import attacks, group_stages, per_attack
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
    """Every stage's exact distribution, in order of the attack sequence."""
    stages = [group_stages(g) for g in groups]
    hits = _sum([h for h, _ in stages])
    wounds = _sum([t.total() for _, t in stages])
    track = not _saves_uniform(target, groups)
    max_tokens = sum(t.total().max for _, t in stages)
    chain = AllocationChain(target, groups, track, max_tokens)
    pending: list[int] = []
    for gi, (g, (_, tokens)) in enumerate(zip(groups, stages, strict=True)):
        if g.ab.devastating_wounds and tokens.table.shape[1] > 1:
            chain.absorb_with_devastating(gi, tokens.table)
            pending.append(gi)
        else:
            chain.absorb(gi, tokens.marginal(0))
    for gi in pending:
        chain.release_devastating(gi)
    out = chain.outcome()
    unsaved = out.pop("unsaved") if track else _sum([_unsaved_by_thinning(g, target) for g in groups])
    result: dict[str, Dist | dict] = {"hits": hits, "wounds": wounds}
    if any(g.ab.devastating_wounds for g in groups):
        result["devastating_wounds"] = _sum([_dev(t) for _, t in stages])
    result["unsaved"] = unsaved
    result.update(out)
    return result


def _dev(tokens: Joint) -> Dist:
    return tokens.marginal(1) if tokens.ndim > 1 else Dist.constant(0)


def exact_result(target: Target, groups: list[WeaponGroup], title: str = "") -> Result:
    tests = hazardous_tests(groups)
    failed = Dist.binomial(tests, HAZARDOUS_FAIL) if tests else None
    return build_result("exact", solve(target, groups), groups, failed, title)  # type: ignore[arg-type]
