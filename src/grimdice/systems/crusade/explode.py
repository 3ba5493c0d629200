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
from grimdice.systems.crusade.units import TEMPLATES, Arm, Fighter, fighter


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
    defender = Model.model_validate(
        model.model_dump(by_alias=True, exclude={"range", "cover", "knockback_into"})
    )
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


Near = tuple[Model, float, str, bool]  # a model the explosion may hit: (model, range, cover, is the bearer)


def _explodes(sc: Scenario, boom: list[Arm], defending: bool) -> bool:
    """Whether an explosion is to be resolved (a weapon used with EXPLODE, outside a mind war); refused:
    models near a bearer whose weapon does not explode, and a defender's exploding weapon with a
    radius (it would hit the attacker in base contact, whose state is joint with the defender's)."""
    if not boom or sc.action == "mindwar":
        if sc.explode_near and not defending:
            raise ScenarioError("explode_near", "models near the bearer need a weapon used with EXPLODE (X)")
        return False
    if defending and any(radius(a) > 0 for a in boom):
        raise ScenarioError(
            "defender.weapons",
            "a defender's exploding melee weapon with a radius (SFT, FT, HFT, AREA) would also hit the "
            "attacker in base contact: not modelled (use an exploding weapon without a radius)",
        )
    return True


def _near(sc: Scenario, owner: Model, defending: bool, shot: Starts | None) -> list[Near]:
    """VIII EXPLODE "centered on the bearer": the bearer at the centre, then each of ``explode_near``
    at its range (the attacked model itself only when shooting at one target)."""
    near: list[Near] = [(owner, 0.0, "none", True)]
    attacked = {t.name for t in sc.targets} if sc.targets else {sc.defender.name}
    for i, t in enumerate([] if defending else sc.explode_near):
        if t.name in attacked and (shot is None or sc.targets):
            raise ScenarioError(
                f"explode_near.{i}",
                f"{t.name} is attacked and near the bearer: modelled only when shooting at one target "
                "(in melee or among many targets list only models not attacked)",
            )
        near.append((sc.defender if t.name in attacked else t, t.range or 0.0, t.cover or "none", False))
    return near


Killed = dict[tuple[str, State], list[float]]  # (weapon, bearer state) -> P(killed) of each model


def _model_law(
    sc: Scenario,
    near: Near,
    me: Fighter,
    side: str,
    boom: list[Arm],
    n: int,
    starts: Starts,
    bearer: Starts,
    killed: Killed,
) -> dict[tuple[State, int], float]:
    """The law of (end state, damage) of one model near the explosion, mixed over which weapon (one in
    ``n`` used, III) exploded on the roll's fail; each model's P(killed) per weapon and bearer state
    is appended to ``killed`` (VIII EXPLODE: "'Bad Guy' models with one hit should automatically be
    treated as killed if their weapon explodes")."""
    model, dist, cover, is_bearer = near
    owner = sc.defender if side == "defender" else sc.attacker
    bad_guy = is_bearer and me.has("bad_guy") and me.body.hits == 1
    p_fail = sum(pf for _, pf in bearer.values())
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
    return law


def _models_destroyed(boom: list[Arm], bearer: Starts, killed: Killed, n: int, models: int) -> Dist:
    """How many of the ``models`` the explosion kills: given the exploding weapon and the bearer's
    state at the fail the models' rolls are independent (:func:`_count`)."""
    count = np.zeros(models + 1)
    count[0] = 1.0
    for arm in boom:
        for b, (_, pf) in bearer.items():
            w = pf / n
            count[0] -= w
            law_b = _count(killed[(arm.name, b)])
            count[: law_b.size] += w * law_b
    return Dist(np.clip(count, 0, None), normalize=True)


def _bearer_stages(law: dict[tuple[State, int], float]) -> tuple[Dist, Dist]:
    """The bearer's condition and hits left at the end, the explosion included."""
    cond: dict[int, float] = defaultdict(float)
    left: dict[int, float] = defaultdict(float)
    for ((c, h), _), p in law.items():
        cond[c] += p
        left[h] += p
    return Dist.from_mapping(dict(cond), normalize=True), Dist.from_mapping(dict(left), normalize=True)


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
    if not _explodes(sc, boom, defending):
        return {}, {}
    n = len(arms)  # III: the failing weapon drawn at random among those used
    p_fail = sum(pf for _, pf in bearer.values())
    near = _near(sc, sc.defender if defending else sc.attacker, defending, shot)
    out: dict[str, Result] = {}
    killed: Killed = defaultdict(list)
    bearer_law: dict[tuple[State, int], float] = {}
    for i, (model, dist, _, is_bearer) in enumerate(near):
        me = fighter(model, side if is_bearer else f"explode_near.{i - 1}")
        own = shot if shot is not None and model is sc.defender else {me.start: (1.0, p_fail)}
        law = _model_law(sc, near[i], me, side, boom, n, bearer if is_bearer else own, bearer, killed)
        name = f"explosion: {model.name}" + (
            (" (defender, bearer)" if defending else " (bearer)") if is_bearer else ""
        )
        extra = {"distance": dist, "in_radius": {a.name: is_bearer or dist <= radius(a) for a in boom}}
        out[name] = model_result(law, method, extra, notes=[RULES.note("explode_radius")])
        if is_bearer:
            bearer_law = law
    pre = "defender_" if defending else ""
    condition, hits_left = _bearer_stages(bearer_law)
    stages = {
        f"{pre}bearer_condition": condition,
        f"{pre}bearer_hits_left": hits_left,
        f"{pre}explosion_models_destroyed": _models_destroyed(boom, bearer, killed, n, len(near)),
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
