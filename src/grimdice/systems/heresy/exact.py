"""The exact engine: full distributions of every stage of a Heresy attack, no sampling.

Per attack, the To Hit roll (with the BS 6+ or Twin-linked re-roll) and the Wound roll (with its
re-rolls) are enumerated face by face through :mod:`rolls`, giving the chance of a Precision
wound, a normal wound, or nothing, and the chance that a wound is a Rending/Breaching (AP 2) wound.
The attacks of a Strike Group are summed into a joint law of (Precision wounds, other wounds).

Wounds are then allocated by the shared exact Markov chain over the defending unit (see
:mod:`~grimdice.systems.heresy.allocation`): the models closest first and the Precision target
model are two queues, each described by the wounds it has lost, plus the count of failed saves.
"""

from __future__ import annotations

import numpy as np

from grimdice.dice.dist import Dist
from grimdice.dice.joint import Joint
from grimdice.result import Result
from grimdice.systems.heresy.allocation import Allocation, GroupLaw, p_pass
from grimdice.systems.heresy.report import build_result
from grimdice.systems.heresy.rolls import (
    FACES,
    FAIL,
    SPECIAL,
    hit_roll,
    wound_result,
)
from grimdice.systems.heresy.units import StrikeGroup, Target


def hit_probs(g: StrikeGroup) -> tuple[float, float, float]:
    """(P(Precision hit), P(other hit), P(final To Hit face is a 1)) of one attack rolling To Hit."""
    prec = norm = ones = 0.0
    for f1 in FACES:
        for f2 in FACES:
            hit, final = hit_roll(f1, f2, g.hit_target, g.reroll_target)
            if hit:
                if final >= g.precision:
                    prec += 1 / 36
                else:
                    norm += 1 / 36
            elif final == 1:
                ones += 1 / 36
    return prec, norm, ones


def wound_probs(g: StrikeGroup) -> tuple[float, float]:
    """(P(wound), P(the wound is AP 2 | wound)) of one Wound roll, after re-rolls."""
    w = s = 0.0
    for f1 in FACES:
        for f2 in FACES:
            res = wound_result(f1, g.wound_target, g.rules.rending, g.rules.breaching)
            if res == FAIL and g.wound_reroll:
                res = wound_result(f2, g.wound_target, g.rules.rending, g.rules.breaching)
            if res != FAIL:
                w += 1 / 36
                s += 1 / 36 if res == SPECIAL else 0.0
    return w, (s / w if w else 0.0)


def unfired_probability(g: StrikeGroup) -> float:
    """Gets Hot on a weapon that does not roll To Hit: a 1 before firing (re-rolled once by a
    model that may re-roll To Hit rolls: BS 6+ or Twin-linked)."""
    if not g.rules.gets_hot:
        return 0.0
    return 1 / 36 if g.may_reroll_hits else 1 / 6


def shots(g: StrikeGroup) -> Dist:
    """Total attacks of the group: every model rolls its own A."""
    return g.shots.dist.repeat(g.models).clip(0)


def per_attack(g: StrikeGroup) -> tuple[Dist, Dist, Joint, float]:
    """(hits, Precision hits, joint (Precision wounds, other wounds), P(Gets Hot)) of one attack."""
    pw, _ = wound_probs(g)
    if g.rolls_to_hit:
        pp, pn, ones = hit_probs(g)
        hits = Dist.bernoulli(pp + pn)
        tokens = Joint.categorical([pp * pw, pn * pw, 1.0 - (pp + pn) * pw])
        return hits, Dist.bernoulli(pp), tokens, ones if g.rules.gets_hot else 0.0
    unfired = unfired_probability(g)
    fired_hits = g.hits_per_shot.dist.clip(0)
    hits = Dist.mixture([unfired, 1 - unfired], [Dist.constant(0), fired_hits])
    wounds = Dist.bernoulli(pw).sum_of(hits)
    return hits, Dist.constant(0), Joint(np.asarray(wounds.pmf_from_zero())[None, :]), unfired


def gets_hot(groups: list[StrikeGroup]) -> tuple[Dist, Dist] | None:
    """(Gets Hot wounds suffered by the firers, of them unsaved after the firer's armour or
    invulnerable save and Feel No Pain; no cover, no Shrouded)."""
    hot = [g for g in groups if g.rules.gets_hot]
    if not hot:
        return None
    suffered, unsaved = [], []
    for g in hot:
        p = per_attack(g)[3]
        keep = (1 - p_pass(g.firer_save)) * (1 - p_pass(g.firer_fnp))
        suffered.append(Dist.bernoulli(p).sum_of(shots(g)))
        unsaved.append(Dist.bernoulli(p * keep).sum_of(shots(g)))
    return sum(suffered, Dist.constant(0)), sum(unsaved, Dist.constant(0))


def group_laws(g: StrikeGroup) -> tuple[Dist, Dist, GroupLaw]:
    """(hits, Precision hits, wounds per attack) of the whole group."""
    hits, prec, tokens, _ = per_attack(g)
    n = shots(g)
    table = tokens.table if tokens.ndim == 2 else tokens.table[:, None]
    return hits.sum_of(n), prec.sum_of(n), GroupLaw(table, n, wound_probs(g)[1])


def solve(target: Target, groups: list[StrikeGroup]) -> dict[str, Dist]:
    """Every stage's exact distribution, in order of the attack sequence."""
    stages = [group_laws(g) for g in groups]
    alloc = Allocation(target, groups, [x for _, _, x in stages], count_unsaved=True)
    alloc.plan()
    alloc.run()
    out: dict[str, Dist] = {"hits": sum((h for h, _, _ in stages), Dist.constant(0))}
    if target.precision_index is not None:
        out["precision_hits"] = sum((p for _, p, _ in stages), Dist.constant(0))
    out["wounds"] = sum((x.total() for _, _, x in stages), Dist.constant(0))
    out.update(outcome(alloc))
    return out


def outcome(alloc: Allocation) -> dict[str, Dist]:
    """Failed saves, damage and models destroyed (and the Precision model's) from the final state."""
    grid = alloc.chain.grid()
    c = np.arange(alloc.nc)[:, None]
    t = np.arange(alloc.nt)[None, :]
    dead_o = alloc.queue.destroyed()[:, None]
    dead_t = alloc.precision_queue.destroyed()[None, :]
    out = {
        "unsaved": alloc.chain.unsaved(),
        "damage": Dist.from_outcomes(np.broadcast_to(c + t, grid.shape), grid),
        "models_destroyed": Dist.from_outcomes(np.broadcast_to(dead_o + dead_t, grid.shape), grid),
    }
    if alloc.tp is not None:
        out["precision_model_wounds"] = Dist(grid.sum(axis=0))
        out["precision_model_destroyed"] = Dist.from_outcomes(np.broadcast_to(dead_t, grid.shape), grid)
    return out


def exact_result(target: Target, groups: list[StrikeGroup], title: str = "") -> Result:
    return build_result("exact", solve(target, groups), target, groups, gets_hot(groups), title)
