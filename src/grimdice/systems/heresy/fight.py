"""A two-sided melee (``conditions.fight``): both units strike, by Initiative step, highest first.

At each Initiative step every model of either unit whose Initiative (Unwieldy: step 1) equals the
step strikes; the two units' attacks at one step are simultaneous, and casualties are removed at
the end of the step, so a model removed at a higher step does not strike at a lower one. Each
unit's wounds go to the closest enemy model (the enemy's listed order) exactly as in a one-sided
attack; the surviving models, and so those that strike, are the later-listed ones.

Exact engine: a unit's state is the number of wounds its queue (listed order) has lost, ``c``; the
law of the pair ``(c_attacker, c_defender)`` is carried from step to step. Given the pair, the
striking models of each side are known and the two sides' attacks are independent, so one step is
``J'[a', d'] = sum_{a, d} J[a, d] A_{w(d)}[a, a'] D_{v(a)}[d, d']`` where ``D_v`` is the
defender's transition under the attacker's strikers ``v`` (one allocation chain run from
every state at once) and ``A_w`` the attacker's under the defender's strikers ``w``.

Combat resolution: each side scores the wounds its attacks made the enemy lose (see
``docs/heresy.md`` for the reading of the rule); the higher score wins, equal scores draw.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, replace

import numpy as np

from grimdice.dice.dist import Dist
from grimdice.errors import ScenarioError
from grimdice.result import Result
from grimdice.systems.heresy.allocation import Allocation
from grimdice.systems.heresy.exact import group_laws
from grimdice.systems.heresy.profiles import AttackingModel, DefendingModel, Scenario, Weapon
from grimdice.systems.heresy.rolls import NEVER
from grimdice.systems.heresy.units import (
    MAX_TOTAL_ATTACKS,
    Profile,
    StrikeGroup,
    Target,
    majority,
    resolve_target,
    strike_group,
)

#: exact fight limit: (attacker wounds + 1) x (defender wounds + 1) joint unit states
MAX_FIGHT_STATES = 4000

#: a defending model with no weapon listed fights with this one (its own S and A, no AP)
UNARMED = Weapon(name="close combat", S="user", rules=["Melee"])


@dataclass(frozen=True)
class Side:
    """One unit of a fight: itself as a target (models closest first) and its Strike Groups
    against the enemy, each with the range of its models in the queue."""

    name: str
    target: Target
    groups: tuple[StrikeGroup, ...]
    ranges: tuple[tuple[int, int], ...]  # queue indices [lo, hi) of each group's models

    @property
    def prefix(self) -> np.ndarray:
        """Wounds lost by the queue when model ``i`` is removed: ``prefix[i + 1]``."""
        return np.concatenate([[0], np.cumsum([p.W for p in self.target.profiles])]).astype(int)

    @property
    def states(self) -> int:
        return int(self.prefix[-1]) + 1

    def strikers(self, step: int, lost: np.ndarray) -> np.ndarray:
        """Striking models of each group at ``step`` (0 for the groups of other steps), per unit
        state ``lost`` (wounds the queue has lost; any shape): the group's models still alive."""
        lost = np.asarray(lost)
        alive_after = self.prefix[1:]  # model i lives while lost < alive_after[i]
        out = np.zeros((*lost.shape, len(self.groups)), dtype=int)
        for k, (g, (lo, hi)) in enumerate(zip(self.groups, self.ranges, strict=True)):
            if g.initiative == step:
                out[..., k] = (lost[..., None] < alive_after[None, lo:hi]).sum(axis=-1)
        return out

    def models_removed(self, lost: np.ndarray) -> np.ndarray:
        return (self.prefix[1:][None, :] <= np.asarray(lost)[:, None]).sum(axis=1)


def _attacker_profile(m: AttackingModel, mi: int) -> Profile:
    if m.T is None:
        raise ScenarioError(f"attacker.models.{mi}.T", "a fight needs the attacking models' T (and W)")
    opt = lambda x: NEVER if x is None else x  # noqa: E731
    return Profile(m.name, m.T, m.W, opt(m.Sv), opt(m.invulnerable), opt(m.FNP), NEVER, m.eternal_warrior)


def _side(sc: Scenario, field: str, models: list, me: Target, enemy: Target, charged: bool) -> Side:
    """The unit ``models`` (at ``field``), itself the target ``me``, striking at ``enemy``."""
    groups, ranges, start = [], [], 0
    for mi, m in enumerate(models):
        for wi, w in enumerate(m.weapons or [UNARMED]):
            where = f"{field}.models.{mi}.weapons.{wi}"
            if not w.is_melee:
                raise ScenarioError(where, f"a fight uses Melee weapons only; {w.name!r} is not one")
            label = f"{m.name}: {w.name}" if len(models) > 1 else w.name
            g = strike_group(sc, enemy, m, where, w, label, charged)
            groups.append(replace(g, precision=NEVER))  # Precision Hits are not picked out in a fight
            ranges.append((start, start + m.count))
        start += m.count
    most = sum(g.models * g.shots.max for g in groups)
    if most > MAX_TOTAL_ATTACKS:
        raise ScenarioError(field, f"at most {MAX_TOTAL_ATTACKS} attacks in a fight, this unit up to {most}")
    return Side(me.name, me, tuple(groups), tuple(ranges))


def _attacker_target(sc: Scenario) -> Target:
    models: list[AttackingModel] = sc.attacker.models
    queue = tuple(p for mi, m in enumerate(models) for p in [_attacker_profile(m, mi)] * m.count)
    return Target(
        name=sc.attacker.name,
        profiles=queue,
        precision_index=None,
        cover=NEVER,
        T=majority([(p.T, 1) for p in queue]),
        WS=majority([(m.WS, m.count) for m in models]),
        type="infantry",
        challenge=False,
    )


def resolve_fight(sc: Scenario) -> tuple[Side, Side]:
    """(attacker, defender) of a fight, validated."""
    c = sc.conditions
    if c.challenge is not None:
        raise ScenarioError("conditions.challenge", "a Challenge is not modelled in a fight; leave it out")
    if c.precision_target is not None:
        raise ScenarioError(
            "conditions.precision_target",
            "Precision is not modelled in a fight (its wounds go to the closest model); leave it out",
        )
    a, d = _attacker_target(sc), resolve_target(sc, False)
    defender_models: list[DefendingModel] = sc.defender.models
    return (
        _side(sc, "attacker", sc.attacker.models, a, d, c.charged),
        _side(sc, "defender", defender_models, d, a, False),
    )


def steps(attacker: Side, defender: Side) -> list[int]:
    """The Initiative steps at which some model strikes, highest first."""
    return sorted({g.initiative for g in attacker.groups + defender.groups}, reverse=True)


def initiative_steps(attacker: Side, defender: Side) -> list[dict]:
    return [
        {
            "initiative": i,
            "attacker": [g.name for g in attacker.groups if g.initiative == i],
            "defender": [g.name for g in defender.groups if g.initiative == i],
        }
        for i in steps(attacker, defender)
    ]


def transition(enemy: Target, groups: tuple[StrikeGroup, ...], strikers: tuple[int, ...]) -> np.ndarray:
    """``M[c, c']``: the enemy queue goes from ``c`` to ``c'`` wounds lost when ``strikers[k]``
    models of ``groups[k]`` strike it (groups in order, each allocated in full)."""
    live = [replace(g, models=n) for g, n in zip(groups, strikers, strict=True) if n > 0]
    if not live:
        return np.eye(int(sum(p.W for p in enemy.profiles)) + 1)
    alloc = Allocation(enemy, live, [group_laws(g)[2] for g in live], count_unsaved=False)
    n = alloc.chain.n
    alloc.plan(batch=n)
    alloc.chain.state = np.eye(n)[:, None, :]  # one row per starting state
    alloc.run()
    return alloc.chain.state[:, 0, :]


def _classes(side: Side, step: int) -> dict[tuple[int, ...], np.ndarray]:
    """Unit states grouped by the strikers they give at ``step``."""
    by: dict[tuple[int, ...], list[int]] = defaultdict(list)
    for c, v in enumerate(side.strikers(step, np.arange(side.states))):
        by[tuple(int(x) for x in v)].append(c)
    return {v: np.array(cs) for v, cs in by.items()}


def solve_fight(attacker: Side, defender: Side) -> np.ndarray:
    """The exact joint law ``J[c_attacker, c_defender]`` of wounds lost by each unit."""
    na, nd = attacker.states, defender.states
    if na * nd > MAX_FIGHT_STATES:
        raise ScenarioError(
            "conditions.fight",
            f"an exact fight is limited to {MAX_FIGHT_STATES} joint unit states "
            f"(attacker wounds + 1) x (defender wounds + 1), this one {na} x {nd}; use --simulate N",
        )
    J = np.zeros((na, nd))
    J[0, 0] = 1.0
    for step in steps(attacker, defender):
        ca, cd = _classes(attacker, step), _classes(defender, step)
        into_d = {v: transition(defender.target, attacker.groups, v) for v in ca}
        into_a = {w: transition(attacker.target, defender.groups, w) for w in cd}
        new = np.zeros_like(J)
        for v, ia in ca.items():
            for w, id_ in cd.items():
                block = J[np.ix_(ia, id_)]
                if block.any():
                    new += into_a[w][ia].T @ block @ into_d[v][id_]
        J = new
    return J


def _margin(J: np.ndarray) -> Dist:
    """Law of (wounds the defender lost) - (wounds the attacker lost)."""
    diff = np.arange(J.shape[1])[None, :] - np.arange(J.shape[0])[:, None]
    lo = int(diff.min())
    pmf = np.bincount((diff - lo).ravel(), weights=J.ravel())
    return Dist(pmf, lo)


def fight_result(
    method: str,
    attacker: Side,
    defender: Side,
    lost: tuple[Dist, Dist, Dist, Dist],
    margin: Dist,
    title: str = "",
    trials: int | None = None,
    seed: int | None = None,
) -> Result:
    """``lost``: (damage, models_destroyed) of the defender, (damage_taken, models_lost) of the
    attacker; ``margin``: damage - damage_taken."""
    stages = dict(zip(("damage", "models_destroyed", "damage_taken", "models_lost"), lost, strict=True))
    resolution = {
        "attacker_wins": margin.prob_at_least(1),
        "draw": margin[0],
        "defender_wins": margin.prob_at_most(-1),
        "margin": {"offset": margin.min, "mean": margin.mean(), "pmf": [float(p) for p in margin.pmf]},
    }
    extra = {"combat_resolution": resolution, "initiative_steps": initiative_steps(attacker, defender)}
    return Result("heresy", method, stages, extra=extra, trials=trials, seed=seed, title=title)


def exact_fight(attacker: Side, defender: Side, title: str = "") -> Result:
    J = solve_fight(attacker, defender)
    ca, cd = np.arange(attacker.states), np.arange(defender.states)
    pa, pd = J.sum(axis=1), J.sum(axis=0)
    lost = (
        Dist(pd),
        Dist.from_outcomes(defender.models_removed(cd), pd),
        Dist(pa),
        Dist.from_outcomes(attacker.models_removed(ca), pa),
    )
    return fight_result("exact", attacker, defender, lost, _margin(J), title)
