"""EXPLODE's attack (rules-crusade VIII EXPLODE): "On a fail, make an attack from the weapon,
centered on the bearer (SFT=1"A, FT=2"A, HFT=3"A). The weapon is lost. "Bad Guy" models with one
hit should automatically be treated as killed if their weapon explodes".

The failing weapon is drawn at random among the weapons used (III), so each exploding weapon
explodes with P(fail) / (weapons used). Its attack is the weapon's dice against each model within
its radius of the bearer: the bearer himself (at the centre) and each of ``explode_near`` whose
``range`` (inches from the bearer) is within it, each with its own armour, cover (default none),
force field and abilities, at range 0 (the centre is the bearer). A weapon with an area code
``AREA X`` explodes with radius X; one with neither (reading ``explode_radius``) hits the bearer
only. Each model's result is its own distribution (mixed over whether and which weapon exploded);
the bearer's is on his state before the attack, as are the others' (the joint law with the main
attack's result is not given).
"""

from __future__ import annotations

from collections import defaultdict

from grimdice.errors import ScenarioError
from grimdice.result import Result
from grimdice.systems.crusade.attack import FF_FACES, shooting
from grimdice.systems.crusade.damage import KILLED, State
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


def _hit(sc: Scenario, arm: Arm, model: Model, cover: str) -> dict[tuple[State, int], float]:
    """The law of (end state, damage) of ``model`` hit by ``arm``'s explosion (VIII EXPLODE; the
    ``shooting`` attack of the weapon alone at range 0, its roll without re-rolls)."""
    bearer = sc.attacker.model_copy(
        update={"weapons": [w for w in sc.attacker.weapons if w.name == arm.name]}
    )
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
    ff = FF_FACES if atk.dfd.body.force_field else ((0, 1.0),)
    out: dict[tuple[State, int], float] = defaultdict(float)
    for (t, _), p in total_law(arm.pool.white, arm.pool.red).items():
        for g, q in ff:
            s, dmg, _ = atk.outcome(t, g)
            out[(s, dmg)] += p * q
    return out


def explosions(sc: Scenario, arms: tuple[Arm, ...], p_fail: float, method: str) -> dict[str, Result]:
    """One sub-result per model the explosion may hit (``explosion: <name>``), or none when no
    weapon used explodes."""
    boom = [a for a in arms if a.fail == "explode"]
    if not boom or sc.action == "mindwar":
        if sc.explode_near:
            raise ScenarioError("explode_near", "models near the bearer need a weapon used with EXPLODE (X)")
        return {}
    each = p_fail / len(arms)  # III: the failing weapon drawn at random among those used
    near = [(sc.attacker, 0.0, "none", True)] + [
        (t, t.range or 0.0, t.cover or "none", False) for t in sc.explode_near
    ]
    out: dict[str, Result] = {}
    for i, (model, dist, cover, is_bearer) in enumerate(near):
        me = fighter(model, "attacker" if is_bearer else f"explode_near.{i - 1}")
        start = me.start
        law: dict[tuple[State, int], float] = defaultdict(float)
        law[(start, 0)] += 1.0
        for arm in boom:
            if dist > radius(arm) and not is_bearer:
                continue
            law[(start, 0)] -= each
            hit = _hit(sc, arm, model, cover)
            if is_bearer and me.has("bad_guy") and me.body.hits == 1:
                hit = {((KILLED, 0), dmg): p for (_, dmg), p in hit.items()}  # VIII: Bad Guys are killed
            for key, p in hit.items():
                law[key] += each * p
        name = f"explosion: {model.name}" + (" (bearer)" if is_bearer else "")
        extra = {"distance": dist, "in_radius": {a.name: is_bearer or dist <= radius(a) for a in boom}}
        out[name] = model_result(law, method, extra, notes=[RULES.note("explode_radius")])
    return out


def with_explosions(sc: Scenario, res: Result, arms: tuple[Arm, ...]) -> Result:
    """``res`` with the explosion's sub-results added to its ``targets``."""
    subs = explosions(sc, arms, 1 - float(res.stages["fail"][0]), res.method)
    if subs:
        res.targets.update(subs)
        res.notes.append(RULES.note("explode_radius"))
    return res


__all__ = ["explosions", "radius", "with_explosions"]
