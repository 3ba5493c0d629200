"""EXPLODE's attack (rules-crusade VIII EXPLODE): "On a fail, make an attack from the weapon,
centered on the bearer (SFT=1"A, FT=2"A, HFT=3"A). The weapon is lost. "Bad Guy" models with one
hit should automatically be treated as killed if their weapon explodes".

The failing weapon is drawn at random among the weapons used (III), so each exploding weapon
explodes with P(fail) / (weapons used). Its attack is the weapon's dice against each model within
its radius of the bearer: the bearer himself (at the centre) and each of ``explode_near`` whose
``range`` (inches from the bearer) is within it, each with its own armour, cover (default none),
force field and abilities, at range 0 (the centre is the bearer). A weapon with an area code
``AREA X`` explodes with radius X; one with neither (reading ``explode_radius``) hits the bearer
only. Each model's result is its own distribution (mixed over whether and which weapon exploded); the
bearer's is on his state where his roll failed (in melee, the state the melee left him in: the
contest tracks the joint law of his end state and his fail), the others' on their state before the
attack. The attack's own :class:`Result` carries them as stages: ``bearer_condition`` and
``bearer_hits_left`` (his end state, the explosion included) and ``explosion_models_destroyed``
(how many of the bearer and the models near him it kills: given the exploding weapon and the
bearer's state the models' rolls are independent). Monte Carlo applies the same laws to its own
tally of the bearer's state and fail (the explosion's dice are not rolled literally).
"""

from __future__ import annotations

from collections import defaultdict

import numpy as np

from grimdice.dice.dist import Dist
from grimdice.errors import ScenarioError
from grimdice.result import Result
from grimdice.systems.crusade.attack import shooting, shot_law
from grimdice.systems.crusade.damage import CONDITIONS, KILLED, State
from grimdice.systems.crusade.profiles import Model, Scenario
from grimdice.systems.crusade.report import model_result
from grimdice.systems.crusade.rolls import total_law
from grimdice.systems.crusade.rules import RULES
from grimdice.systems.crusade.units import TEMPLATES, Arm, fighter


def radius(arm: Arm) -> float:
    """The explosion's radius in inches: the flamer template's, else the area code's, else 0."""
    if arm.template:
        return TEMPLATES[arm.template]
    return float(arm.fx.get("area") or 0)


def _hit(
    sc: Scenario, arm: Arm, model: Model, cover: str, starts: list[State], owner: Model
) -> dict[State, dict]:
    """For each start state, the law of (end state, damage) of ``model`` hit by ``arm``'s explosion
    (VIII EXPLODE; the ``shooting`` attack of the weapon of ``owner`` alone at range 0, its roll
    without re-rolls)."""
    # the explosion is an attack of the weapon's dice whatever its kind (a melee weapon may explode)
    weapon = [w.model_copy(update={"kind": "ranged"}) for w in owner.weapons if w.name == arm.name]
    bearer = owner.model_copy(update={"weapons": weapon})
    defender = Model.model_validate(model.model_dump(by_alias=True, exclude={"range", "cover"}))
    sub = sc.model_copy(
        update={
            "action": "shoot",
            "attacker": bearer,
            "defender": defender,
            "weapons": [arm.name],
            "range": 0.0,
            "cover": cover,
            "targets": [],
            "explode_near": [],
            "latch": "none",
            "moved": False,
        }
    )
    atk = shooting(sub)
    laws: dict[State, dict] = {}
    for start in starts:
        out: dict[tuple[State, int], float] = defaultdict(float)
        for (t, _), p in total_law(arm.pool.white, arm.pool.red).items():
            for s, dmg, q in shot_law(atk, t, start):
                out[(s, dmg)] += p * q
        laws[start] = dict(out)
    return laws


Starts = dict[State, tuple[float, float]]  # a model's state -> (P(state), P(state and the roll failed))


def _count(kills: list[float]) -> np.ndarray:
    """The law of the number of independent events of probabilities ``kills``."""
    law = np.array([1.0])
    for k in kills:
        law = np.convolve(law, [1 - k, k])
    return law


def explosions(
    sc: Scenario,
    arms: tuple[Arm, ...],
    bearer: Starts,
    method: str,
    side: str = "attacker",
    shot: Starts | None = None,
) -> tuple[dict[str, Result], dict[str, Dist]]:
    """One sub-result per model the explosion may hit (``explosion: <name>``; the bearer's on his
    state where the roll failed, ``bearer``), and the stages it adds to the attack's result:
    ``bearer_condition`` / ``bearer_hits_left`` (the bearer's end state, the explosion included) and
    ``explosion_models_destroyed`` (models killed by it: the bearer and those near him, one joint
    law). Nothing when no weapon used explodes.

    ``side="defender"``: the defender's exploding melee weapon on his fail in melee (his weapons
    used, his state where his roll failed); the stages are named ``defender_bearer_condition``,
    ``defender_bearer_hits_left``, ``defender_explosion_models_destroyed``. It hits the defender
    only: a weapon with a radius would also hit the attacker in base contact, whose state is joint
    with the defender's, which is not tracked, so that is refused.

    ``shot``: the target's end state and where the attacker's roll failed (shooting at one target):
    a model of ``explode_near`` with the target's name is that model (one model, not two), hit on
    the state the shot left him in (with the target's profile, the listed range and cover). The
    attacked model near the bearer in melee or among many targets is refused."""
    boom = [a for a in arms if a.fail == "explode"]
    defending = side == "defender"
    if not boom or sc.action == "mindwar":
        if sc.explode_near and not defending:
            raise ScenarioError("explode_near", "models near the bearer need a weapon used with EXPLODE (X)")
        return {}, {}
    owner = sc.defender if defending else sc.attacker
    if defending and any(radius(a) > 0 for a in boom):
        raise ScenarioError(
            "defender.weapons",
            "a defender's exploding melee weapon with a radius (SFT, FT, HFT, AREA) would also hit the "
            "attacker in base contact: not modelled (use an exploding weapon without a radius)",
        )
    n = len(arms)  # III: the failing weapon drawn at random among those used
    p_fail = sum(pf for _, pf in bearer.values())
    near: list[tuple[Model, float, str, bool]] = [(owner, 0.0, "none", True)]
    attacked = {t.name for t in sc.targets} if sc.targets else {sc.defender.name}
    for i, t in enumerate([] if defending else sc.explode_near):
        if t.name in attacked and (shot is None or sc.targets):
            raise ScenarioError(
                f"explode_near.{i}",
                f"{t.name} is attacked and near the bearer: modelled only when shooting at one target "
                "(in melee or among many targets list only models not attacked)",
            )
        near.append((sc.defender if t.name in attacked else t, t.range or 0.0, t.cover or "none", False))
    out: dict[str, Result] = {}
    # P(killed by arm's explosion | bearer state at the fail) per model, for the joint count
    killed: dict[tuple[str, State], list[float]] = defaultdict(list)
    bearer_law: dict[tuple[State, int], float] = {}
    for i, (model, dist, cover, is_bearer) in enumerate(near):
        me = fighter(model, side if is_bearer else f"explode_near.{i - 1}")
        own = shot if shot is not None and model is sc.defender else {me.start: (1.0, p_fail)}
        starts = bearer if is_bearer else own
        bad_guy = is_bearer and me.has("bad_guy") and me.body.hits == 1
        law: dict[tuple[State, int], float] = defaultdict(float)
        for s, (p, _) in starts.items():
            law[(s, 0)] += p
        for arm in boom:
            reach = is_bearer or dist <= radius(arm)
            hits = _hit(sc, arm, model, cover, list(starts), owner) if reach else {}
            mixed = 0.0  # a model near him: P(killed by it and the roll failed), over his states
            for s, (_, pf) in starts.items():
                hit = hits.get(s, {(s, 0): 1.0})
                if bad_guy and reach:
                    hit = {((KILLED, 0), dmg): q for (_, dmg), q in hit.items()}  # VIII: Bad Guys are killed
                law[(s, 0)] -= pf / n
                for key, q in hit.items():
                    law[key] += pf / n * q
                p_kill = sum(q for (s2, _), q in hit.items() if s2[0] == KILLED) if s[0] != KILLED else 0.0
                if is_bearer:
                    killed[(arm.name, s)].append(p_kill)
                mixed += pf * p_kill
            if not is_bearer:  # the others' do not depend on the bearer's state (a shot leaves him as he was)
                for b in bearer:
                    killed[(arm.name, b)].append(mixed / p_fail if p_fail else 0.0)
        name = f"explosion: {model.name}" + (
            (" (defender, bearer)" if defending else " (bearer)") if is_bearer else ""
        )
        extra = {"distance": dist, "in_radius": {a.name: is_bearer or dist <= radius(a) for a in boom}}
        out[name] = model_result(law, method, extra, notes=[RULES.note("explode_radius")])
        if is_bearer:
            bearer_law = law
    count = np.zeros(len(near) + 1)
    count[0] = 1.0
    for arm in boom:
        for b, (_, pf) in bearer.items():
            w = pf / n
            count[0] -= w
            law_b = _count(killed[(arm.name, b)])
            count[: law_b.size] += w * law_b
    cond: dict[int, float] = defaultdict(float)
    left: dict[int, float] = defaultdict(float)
    for ((c, h), _), p in bearer_law.items():
        cond[c] += p
        left[h] += p
    pre = "defender_" if defending else ""
    stages = {
        f"{pre}bearer_condition": Dist.from_mapping(dict(cond), normalize=True),
        f"{pre}bearer_hits_left": Dist.from_mapping(dict(left), normalize=True),
        f"{pre}explosion_models_destroyed": Dist(np.clip(count, 0, None), normalize=True),
    }
    return out, stages


def bearer_starts(sc: Scenario, res: Result, side: str = "attacker") -> Starts | None:
    """The bearer's state at the end of the attack and where his roll failed: the contest's
    ``fail_effects.bearer_states`` (melee: the state the melee left; the defender's in
    ``defender_fail_effects``), else (shooting at many targets) the attacker's state before the
    attack with P(any roll failed); ``None`` when the defender's state is not tracked."""
    key = "defender_fail_effects" if side == "defender" else "fail_effects"
    rows = res.extra.get(key, {}).get("bearer_states")
    if rows is None:
        if side == "defender":
            return None
        return {fighter(sc.attacker, "attacker").start: (1.0, 1 - float(res.stages["fail"][0]))}
    return _starts(rows)


def _starts(rows: list[dict]) -> Starts:
    """The ``bearer_states`` rows of a report as :data:`Starts`."""
    return {(CONDITIONS.index(r["condition"]), r["hits_left"]): (r["p"], r["p_failed"]) for r in rows}


def with_explosions(
    sc: Scenario, res: Result, arms: tuple[Arm, ...], def_arms: tuple[Arm, ...] = ()
) -> Result:
    """``res`` with the explosions' sub-results added to its ``targets`` and their stages folded in:
    the attacker's weapons, then (melee) the defender's."""
    for side, used in (("attacker", arms), ("defender", def_arms)):
        starts = bearer_starts(sc, res, side)
        if starts is None:
            continue
        shooting = side == "attacker" and sc.action == "shoot"
        rows = res.extra.get("fail_effects", {}).get("target_states") if shooting else None
        shot = None if rows is None else _starts(rows)
        subs, stages = explosions(sc, used, starts, res.method, side, shot)
        if subs:
            res.targets.update(subs)
            res.stages.update(stages)
            note = RULES.note("explode_radius")
            if note not in res.notes:
                res.notes.append(note)
    return res


__all__ = ["explosions", "radius", "with_explosions"]
