"""Running the engines on a solved shooting plan and assembling :class:`~grimdice.result.Result`s
(the plan is made, and the engine chosen, in :mod:`~grimdice.systems.killteam.evaluate`).

Per target operative the stages are, in the order of the shooting sequence: ``hits`` (retained
successful hits, normal and critical), ``critical_hits``, ``mortal_wounds`` (MW and Splash),
``saves`` (retained defence dice), ``unsaved`` (hits not cancelled), ``damage`` (wounds lost),
``models_destroyed`` (1 if incapacitated) and ``wounds_left``. With several target operatives
(Blast, Torrent, Fusillade, Splash) the top level is the original target's, each operative has its
own result under ``targets``, and ``operatives_incapacitated`` counts them all.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np

from grimdice.dice.dist import Dist
from grimdice.dice.sampler import Sampler
from grimdice.engine.montecarlo import Tally
from grimdice.engine.options import RunOptions
from grimdice.result import Result, stage_json
from grimdice.systems.killteam.exact import forward, marginal, wounds_left
from grimdice.systems.killteam.profiles import Scenario, Target
from grimdice.systems.killteam.shooting import (
    ResolvedShot,
    Secondary,
)
from grimdice.systems.killteam.simulate import PackedSequence, Packing, ShotTables
from grimdice.systems.killteam.solve import ShotPolicy

HOT_MW = 3  # Hot: three mortal wounds on the shooter per discarded attack dice result of 1
STAGES = (
    "hits",
    "critical_hits",
    "mortal_wounds",
    "saves",
    "unsaved",
    "damage",
    "models_destroyed",
    "wounds_left",
)


def objectives(sc: Scenario) -> tuple[str, str]:
    return sc.objectives.resolved("shoot")


def _stages_exact(tables: dict[str, np.ndarray], w0: int, mw_shift: int = 0) -> dict[str, Dist]:
    wl = wounds_left(tables["hits"])
    st = {k: marginal(tables[k]) for k in ("hits", "critical_hits", "mortal_wounds", "saves", "unsaved")}
    st["mortal_wounds"] = st["mortal_wounds"] + mw_shift
    st["damage"] = wl.map(lambda w: w0 - w)
    st["models_destroyed"] = wl.map(lambda w: int(w == 0))
    st["wounds_left"] = wl
    return {k: st[k] for k in STAGES}


def _extra(
    sc: Scenario, shots: list[ResolvedShot], hot: dict[str, Dist], stunned: Dist | None, notes: list[str]
) -> dict[str, Any]:
    a, d = objectives(sc)
    extra: dict[str, Any] = {
        "objectives": {
            "attacker": {"damage": "maximise expected wounds lost", "kill": "maximise kill chance"}[a],
            "defender": {"damage": "minimise expected wounds lost", "survival": "maximise survival chance"}[
                d
            ],
        }
    }
    if hot:
        extra["hot"] = {
            sh: {"self_mortal_wounds": stage_json(dist), "p_any": dist.prob_at_least(1)}
            for sh, dist in hot.items()
        }
    if stunned is not None:
        extra["stun"] = {"p_apl_reduced": stunned.prob_at_least(1)}
    if notes:
        extra["not_attacked"] = notes
    return extra


@dataclass(frozen=True)
class ShootingPlan:
    """Everything the engines need for the attacks against one target operative, solved."""

    scenario: Scenario
    target: Target
    shots: list[ResolvedShot]
    policies: list[ShotPolicy]  # the attacks against the target, in order
    secondaries: list[Secondary]  # other operatives affected (Blast, Torrent, Fusillade, Splash)
    secondary_policies: dict[int, list[ShotPolicy]]  # by Secondary.index
    hot: set[str]  # shooters with a Hot weapon
    stun: bool
    not_attacked: list[str]


def exact_result(plan: ShootingPlan) -> Result:
    """The exact laws of a plan: the target's stages, and with other operatives (Blast, Torrent,
    Fusillade, Splash) each one's stages mixed over the target's critical hits, and the count of
    operatives incapacitated."""
    sc, target, shots, notes = plan.scenario, plan.target, plan.shots, plan.not_attacked
    w0 = target.wounds_left
    start = np.zeros(w0 + 1)
    start[w0] = 1.0
    tables = forward(plan.policies, start)
    stages = _stages_exact(tables, w0)
    hot_d = {sh: marginal(tables[f"ones:{sh}"]).map(lambda o: HOT_MW * o) for sh in plan.hot}
    stunned = marginal(tables["stunned"]) if plan.stun else None
    res = Result("killteam", "exact", stages, title=sc.title)
    if not plan.secondaries:
        res.extra = _extra(sc, shots, hot_d, stunned, notes)
        return res
    crit_joint = tables["critical_hits"]  # P[w, crits]
    pc = crit_joint.sum(axis=0)
    sub: dict[str, Result] = {target.name: Result("killteam", "exact", dict(stages))}
    hot_parts = {sh: [hot_d[sh]] for sh in plan.hot}
    per_c_dead: list[list[float]] = []  # [secondary][c]
    for sd in plan.secondaries:
        mixed, dead, hot = _secondary_exact(plan, sd, pc)
        sub[sd.target.name] = Result("killteam", "exact", mixed)
        per_c_dead.append(dead)
        if hot is not None and sd.spec is not None:
            hot_parts[sd.spec.shooter].append(hot)
    res.stages["operatives_incapacitated"] = _incapacitated(pc, crit_joint[0], per_c_dead)
    hot_total = {sh: sum(ds, Dist.constant(0)) for sh, ds in hot_parts.items()}
    res.extra = _extra(sc, shots, hot_total, stunned, notes)
    res.targets = sub
    return res


def _secondary_exact(
    plan: ShootingPlan, sd: Secondary, pc: np.ndarray
) -> tuple[dict[str, Dist], list[float], Dist | None]:
    """One other operative's stages mixed over the target's critical hits (law ``pc``; Splash:
    that many times its mortal wounds first), P(it is incapacitated) per number of critical hits,
    and its Hot shooter's self mortal wounds (None: not Hot)."""
    wj = sd.target.wounds_left
    weights, parts, dead, ones = [], [], [], []
    for c in range(pc.size):
        if pc[c] <= 0:
            dead.append(0.0)
            continue
        st = np.zeros(wj + 1)
        st[max(wj - sd.splash * c, 0)] = 1.0
        t = forward(plan.secondary_policies[sd.index], st)
        weights.append(pc[c])
        parts.append(_stages_exact(t, wj, sd.splash * c))
        dead.append(float(t["hits"][0].sum()))
        if sd.spec is not None and sd.spec.rules.hot:
            ones.append(marginal(t[f"ones:{sd.spec.shooter}"]))
    total = float(sum(weights))
    w = [x / total for x in weights]
    mixed = {k: Dist.mixture(w, [p[k] for p in parts]) for k in STAGES}
    hot = Dist.mixture(w, ones).map(lambda o: HOT_MW * o) if ones else None
    return mixed, dead, hot


def _incapacitated(pc: np.ndarray, dead_c: np.ndarray, per_c_dead: list[list[float]]) -> Dist:
    """Operatives incapacitated: per number of critical hits ``c`` (law ``pc``), the target
    (``dead_c[c]``: P(incapacitated and ``c``)) and each other operative independently given ``c``."""
    mix_w, mix_d = [], []
    for c in range(pc.size):
        if pc[c] <= 0:
            continue
        others = Dist.constant(0)
        for dead in per_c_dead:
            others = others + Dist.bernoulli(min(max(dead[c], 0.0), 1.0))
        pd = float(dead_c[c])
        if pd > 0:
            mix_w.append(pd)
            mix_d.append(others + 1)
        if pc[c] - pd > 0:
            mix_w.append(float(pc[c] - pd))
            mix_d.append(others)
    return Dist.mixture([x / sum(mix_w) for x in mix_w], mix_d)


TOTALS = ("hits", "critical_hits", "mortal_wounds", "saves", "unsaved")


def _sequences(plan: ShootingPlan) -> tuple[PackedSequence, dict[int, PackedSequence]]:
    """The packed sequences of a plan: the attacks on the target, then on each other operative
    (Splash's mortal wounds start its total, at most Splash times the target's critical hits)."""
    first = [ShotTables.of(p) for p in plan.policies]
    primary = PackedSequence.of(first, (*TOTALS, "stunned") if plan.stun else TOTALS)
    crits = primary.packing.place("critical_hits")[2] - 1
    secondary = {
        sd.index: PackedSequence.of(
            [ShotTables.of(p) for p in plan.secondary_policies[sd.index]],
            TOTALS,
            {"mortal_wounds": sd.splash * crits},
        )
        for sd in plan.secondaries
    }
    return primary, secondary


def shooting_trial(
    plan: ShootingPlan, primary: PackedSequence, secondary: dict[int, PackedSequence]
) -> Callable[[Sampler, int], dict[str, np.ndarray]]:
    """The Monte Carlo trial of a plan: ``size`` runs of every attack, rolled literally; outputs
    the packed totals of the primary target (``code<g>``, :class:`Packing`) and its
    ``wounds_left``, the same prefixed ``<index>:`` for each other operative, ``hot:<shooter>``
    (mortal wounds) and ``operatives_incapacitated``."""
    w0 = plan.target.wounds_left

    def trial(s: Sampler, n: int) -> dict[str, np.ndarray]:
        codes, w, ones = primary.play(s, np.full(n, w0))
        out = {f"code{g}": c for g, c in enumerate(codes)}
        out["wounds_left"] = w
        ones = {sh: ones.get(sh, np.zeros(n, dtype=np.int64)) for sh in plan.hot}
        if plan.secondaries:
            dead = (w == 0).astype(np.int64)
            crits = primary.packing.digit(codes, "critical_hits")
            for sd in plan.secondaries:
                wj = sd.target.wounds_left
                splash = sd.splash * crits
                seq = secondary[sd.index]
                c2, w2, ones2 = seq.play(s, np.maximum(wj - splash, 0), {"mortal_wounds": splash})
                out |= {f"{sd.index}:code{g}": c for g, c in enumerate(c2)}
                out[f"{sd.index}:wounds_left"] = w2
                dead += w2 == 0
                for sh, o in ones2.items():
                    ones[sh] += o
            out["operatives_incapacitated"] = dead
        for sh, o in ones.items():
            out[f"hot:{sh}"] = HOT_MW * o
        return out

    return trial


def _tallied_stages(tally: Tally, prefix: str, packing: Packing, w0: int) -> dict[str, Dist]:
    """The stages of one operative from its packed totals and wounds left (exact counts, the
    same as tallying each stage per trial)."""
    counts = packing.marginals([tally.counts[f"{prefix}code{g}"] for g in range(len(packing.groups))])
    left = tally.counts[f"{prefix}wounds_left"]
    counts["wounds_left"] = left
    damage = np.zeros(w0 + 1, dtype=np.int64)
    damage[w0 - np.arange(left.size)] = left
    counts["damage"] = damage
    counts["models_destroyed"] = np.array([tally.trials - left[0], left[0]])
    return {k: Dist(c / tally.trials) for k, c in counts.items()}


def simulated_result(plan: ShootingPlan, options: RunOptions) -> Result:
    trials, seed = options.simulate, options.seed
    assert trials is not None
    primary, secondary = _sequences(plan)
    tally = options.run(shooting_trial(plan, primary, secondary))
    w0 = plan.target.wounds_left
    got = _tallied_stages(tally, "", primary.packing, w0)
    stages = {k: got[k] for k in STAGES}
    res = Result("killteam", "simulated", stages, trials=trials, seed=seed, title=plan.scenario.title)
    stunned = got["stunned"] if plan.stun else None
    if plan.secondaries:
        sub = {plan.target.name: Result("killteam", "simulated", dict(stages), trials=trials, seed=seed)}
        for sd in plan.secondaries:
            got2 = _tallied_stages(tally, f"{sd.index}:", secondary[sd.index].packing, sd.target.wounds_left)
            st = {k: got2[k] for k in STAGES}
            sub[sd.target.name] = Result("killteam", "simulated", st, trials=trials, seed=seed)
        res.stages["operatives_incapacitated"] = tally.dist("operatives_incapacitated")
        res.targets = sub
    hot_d = {sh: tally.dist(f"hot:{sh}") for sh in plan.hot}
    res.extra = _extra(plan.scenario, plan.shots, hot_d, stunned, plan.not_attacked)
    return res


__all__ = ["STAGES", "ShootingPlan", "exact_result", "objectives", "shooting_trial", "simulated_result"]
