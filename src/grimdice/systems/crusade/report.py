"""Assembling a Rules Crusade :class:`~grimdice.result.Result` from the expected one-hot features
(exact) or their empirical frequencies (Monte Carlo)."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable
from typing import Any

import numpy as np

from grimdice.dice.dist import Dist
from grimdice.result import Result
from grimdice.systems.crusade.attack import Attack
from grimdice.systems.crusade.damage import CONDITIONS, KILLED, State, take
from grimdice.systems.crusade.rolls import Pool, total_law
from grimdice.systems.crusade.rules import FAILS


def _dist(v: np.ndarray) -> Dist:
    return Dist(np.clip(v, 0, None), normalize=True)


def model_result(
    law: dict[tuple[State, int], float], method: str, extra: dict[str, Any], **kw: Any
) -> Result:
    """One model's sub-result from the law of its (end state, damage): the stages ``damage``,
    ``models_destroyed``, ``condition``, ``hits_left`` and the ``end_state`` extra (``kw``: the
    other :class:`Result` fields)."""
    cond: dict[int, float] = defaultdict(float)
    dmg: dict[int, float] = defaultdict(float)
    hits: dict[int, float] = defaultdict(float)
    for ((c, h), d), p in law.items():
        cond[c] += p
        dmg[d] += p
        hits[h] += p
    stages = {
        "damage": Dist.from_mapping(dict(dmg), normalize=True),
        "models_destroyed": Dist.from_mapping({0: 1 - cond[KILLED], 1: cond[KILLED]}, normalize=True),
        "condition": Dist.from_mapping(dict(cond), normalize=True),
        "hits_left": Dist.from_mapping(dict(hits), normalize=True),
    }
    end = {"end_state": {c: float(cond[i]) for i, c in enumerate(CONDITIONS)}}
    return Result("crusade", method, stages, extra={**end, **extra}, **kw)


def fail_report(p_fail: float, arms: tuple, user_armour: int) -> dict[str, Any]:
    """III: the failing weapon is drawn at random among the weapons used; its fail effect."""
    n = len(arms)
    effects = {f: 0.0 for f in (*FAILS, "none")}
    weapons: dict[str, float] = {}
    for a in arms:
        effects[a.fail] += p_fail / n
        weapons[a.name] = weapons.get(a.name, 0.0) + p_fail / n
    return {"p_fail": p_fail, "effects": effects, "weapon": weapons}


def self_damage(
    p_fail: float, arms: tuple, user_armour: int, fails: tuple[str, ...] = ("malfunction", "explode")
) -> Dist:
    """VIII MALFUNCTION / EXPLODE: the failing weapon's dice rolled against the user's armour (or,
    with ``fails=("malfunction",)``, against the opponent's in melee)."""
    law = np.zeros(1 + max((a.pool.max_total for a in arms), default=0))
    law[0] = 1.0
    for a in arms:
        if a.fail not in fails:
            continue
        w = p_fail / len(arms)
        law[0] -= w
        for (t, _), p in total_law(a.pool.white, a.pool.red).items():
            law[max(0, t + a.pool.plus - user_armour)] += w * p
    return _dist(law)


def fail_by_result(rows: list[dict[str, Any]], arms: tuple) -> dict[str, dict[str, float]]:
    """III "The firing result still applies": for each weapon used that has a fail effect, P(the
    roll failed, that weapon is the one drawn, and the target ends in each condition), from the
    target's ``rows`` (:func:`bearer_states`)."""
    joint: dict[int, float] = defaultdict(float)
    for r in rows:
        joint[CONDITIONS.index(r["condition"])] += r["p_failed"]
    return fail_by_conditions(joint, arms)


def fail_by_conditions(joint: dict[int, float], arms: tuple) -> dict[str, dict[str, float]]:
    """:func:`fail_by_result` from ``joint``: P(a roll failed and the target in condition k)."""
    return {
        a.name: {c: float(joint.get(k, 0.0)) / len(arms) for k, c in enumerate(CONDITIONS)}
        for a in arms
        if a.fail != "none"
    }


def with_fail_joint(trial: Callable, keys: list[str]) -> Callable:
    """A Monte Carlo trial function plus ``fail_KEY`` for each condition output ``KEY``: the
    condition where a roll failed, else past the conditions (III: the fail joined with the result)."""

    def run(sampler: Any, size: int) -> dict[str, np.ndarray]:
        out = trial(sampler, size)
        for k in keys:
            out[f"fail_{k}"] = np.where(out["fail"] > 0, out[k], len(CONDITIONS))
        return out

    return run


def _malfunction_step(law: dict[State, float], arms: tuple, user: Any) -> dict[State, float]:
    """One fail on each state of ``law``: the failing weapon drawn among ``arms`` (III); a
    MALFUNCTION weapon's dice then roll at the user (his armour, the weapon's graze)."""
    out: dict[State, float] = defaultdict(float)
    for s, p in law.items():
        for a in arms:
            w = p / len(arms)
            if a.fail != "malfunction":
                out[s] += w
                continue
            for (t, _), q in total_law(a.pool.white, a.pool.red).items():
                out[take(s, max(0, t + a.pool.plus - user.armour), a.grazes, user.body)] += w * q
    return out


def _self_stages(law: dict[State, float]) -> dict[str, Dist]:
    cond: dict[int, float] = defaultdict(float)
    left: dict[int, float] = defaultdict(float)
    for (c, h), p in law.items():
        cond[c] += p
        left[h] += p
    return {
        "self_condition": Dist.from_mapping(dict(cond), normalize=True),
        "self_hits_left": Dist.from_mapping(dict(left), normalize=True),
    }


def malfunction_on_user(rows: list[dict[str, Any]], arms: tuple, user: Any) -> dict[str, Dist]:
    """VIII MALFUNCTION: "On a fail, roll the weapon dice vs. the user's armor": the user's end state
    (``self_condition``, ``self_hits_left``) once the failing weapon drawn (III) rolls at him, from
    his state where his roll failed (``rows``, :func:`bearer_states`), with the weapon's graze."""
    law: dict[State, float] = defaultdict(float)
    for r in rows:
        s = (CONDITIONS.index(r["condition"]), r["hits_left"])
        law[s] += r["p"] - r["p_failed"]
        for s2, q in _malfunction_step({s: r["p_failed"]}, arms, user).items():
            law[s2] += q
    return _self_stages(law)


def malfunction_after_fails(fails: Dist, arms: tuple, user: Any) -> dict[str, Dist]:
    """:func:`malfunction_on_user` for several rolls (many targets): each failed roll's weapon,
    drawn among ``arms``, rolls at the user in turn, on the state the last one left; ``fails`` is
    the law of the number of failed rolls."""
    law: dict[State, float] = defaultdict(float)
    now: dict[State, float] = {user.start: 1.0}
    for k in range(int(fails.max) + 1):
        for s, q in now.items():
            law[s] += float(fails[k]) * q
        now = _malfunction_step(now, arms, user)
    return _self_stages(law)


def bearer_states(every: np.ndarray, failed: np.ndarray, lay, side: str = "att") -> list[dict[str, Any]]:
    """A side's end states (condition x hits left codes) with their probability and the
    probability that his roll failed there: ``[{"condition", "hits_left", "p", "p_failed"}]``."""
    width = lay.slices[f"{side}_hits_left"].stop - lay.slices[f"{side}_hits_left"].start
    return [
        {"condition": CONDITIONS[k // width], "hits_left": k % width, "p": float(p), "p_failed": float(q)}
        for k, (p, q) in enumerate(zip(every, failed, strict=True))
        if p > 0
    ]


def malfunction_states(atk: Attack, v: np.ndarray) -> dict[str, Dist]:
    """VIII MALFUNCTION: "On a fail, roll the weapon dice vs. the user's armor (in melee, also roll
    against the opponent)": the end states the rolls leave, from the states where the roll failed:
    the user's (``self_condition``, ``self_hits_left``), in melee the defender's from the attacker's
    weapon (``malfunction_defender_condition``, ``..._hits_left``) and the defender's own
    (``defender_self_condition``, ``..._hits_left``)."""
    lay = atk.spec.layout
    out: dict[str, Dist] = {}

    def rows(state: str, failed: str, side: str) -> list[dict[str, Any]]:
        return bearer_states(lay.part(v, state), lay.part(v, failed), lay, side)

    if any(a.fail == "malfunction" for a in atk.arms):
        if "att_state" in lay.slices:
            out.update(malfunction_on_user(rows("att_state", "att_state_failed", "att"), atk.arms, atk.att))
        if atk.spec.dfd.pool != Pool() and "def_state_att_failed" in lay.slices:
            hit = malfunction_on_user(rows("def_state", "def_state_att_failed", "def"), atk.arms, atk.dfd)
            out.update({f"malfunction_defender_{k[5:]}": d for k, d in hit.items()})
    if any(a.fail == "malfunction" for a in atk.def_arms) and "def_state_failed" in lay.slices:
        own = malfunction_on_user(rows("def_state", "def_state_failed", "def"), atk.def_arms, atk.dfd)
        out.update({f"defender_{k}": d for k, d in own.items()})
    return out


Part = Callable[[str], np.ndarray]  # a named part of the solved contest's expected features


def _target_stages(part: Part) -> dict[str, Dist]:
    """The target's damage, condition and hits left, and the attacker's fail (III: two maxima)."""
    cond = part("def_condition")
    return {
        "damage": _dist(part("damage")),
        "models_destroyed": Dist([1 - cond[KILLED], cond[KILLED]])
        if 0 < cond[KILLED] < 1
        else Dist.constant(int(cond[KILLED] >= 1)),
        "condition": _dist(cond),
        "hits_left": _dist(part("def_hits_left")),
        "fail": _dist(part("att_fail")),
    }


def _fail_effects(atk: Attack, v: np.ndarray, part: Part, stages: dict[str, Dist]) -> dict[str, Any]:
    """What the attacker's fail does (III; VIII MALFUNCTION, EXPLODE), its self-damage added to
    ``stages``."""
    lay = atk.spec.layout
    p_fail = float(part("att_fail")[1])
    effects = fail_report(p_fail, atk.arms, atk.att.armour)
    if any(a.fail in ("malfunction", "explode") for a in atk.arms):
        stages["self_damage"] = self_damage(p_fail, atk.arms, atk.att.armour)
    if "att_state" in lay.slices:  # VIII EXPLODE acts on the bearer's state where his roll failed
        effects["bearer_states"] = bearer_states(part("att_state"), part("att_state_failed"), lay)
    if "def_state_att_failed" in lay.slices:  # III: the target's state where the roll failed
        rows = bearer_states(part("def_state"), part("def_state_att_failed"), lay, "def")
        effects["target_states"] = rows
        effects["by_result"] = fail_by_result(rows, atk.arms)
    stages.update(malfunction_states(atk, v))
    if atk.att.has("bad_guy") and atk.att.body.hits == 1:
        # VIII EXPLODE: "Bad Guy" models with one hit are killed if their weapon explodes
        effects["bearer_killed"] = effects["effects"]["explode"]
    return effects


def _melee_report(atk: Attack, part: Part, stages: dict[str, Dist], out: dict[str, Any]) -> None:
    """Both sides of a melee contest (VIII, IX): the attacker's condition and the defender's fail
    added to ``stages``, each side's choices and the defender's fail effects to ``out``."""
    lay = atk.spec.layout
    ac = part("att_condition")
    stages["attacker_condition"] = _dist(ac)
    stages["attacker_hits_left"] = _dist(part("att_hits_left"))
    stages["defender_fail"] = _dist(part("def_fail"))
    # VIII MALFUNCTION: "in melee, also roll against the opponent" (reported, as self_damage)
    if any(a.fail == "malfunction" for a in atk.arms):
        stages["malfunction_on_defender"] = self_damage(
            float(part("att_fail")[1]), atk.arms, atk.dfd.armour, ("malfunction",)
        )
    if any(a.fail == "malfunction" for a in atk.def_arms):
        stages["malfunction_on_attacker"] = self_damage(
            float(part("def_fail")[1]), atk.def_arms, atk.att.armour, ("malfunction",)
        )
    out["attacker_end_state"] = {c: float(ac[i]) for i, c in enumerate(CONDITIONS)}
    out["defender_fail_effects"] = fail_report(float(part("def_fail")[1]), atk.def_arms, atk.dfd.armour)
    if "def_state_failed" in lay.slices:  # VIII EXPLODE: the defender's weapon on his state where he failed
        out["defender_fail_effects"]["bearer_states"] = bearer_states(
            part("def_state"), part("def_state_failed"), lay, "def"
        )
    out["choices"] = _melee_choices(part)
    out["p_tie"] = float(part("tie")[1])
    if "mob_killed" in lay.slices:  # IX MOB: the mob's losses and its division of the hits
        stages["mob_models_destroyed"] = _dist(part("mob_killed"))
        stages["mob_ko_or_killed"] = _dist(part("mob_ko"))
        out["choices"]["mob_division"] = atk.info["mob_division"]


def _melee_choices(part: Part) -> dict[str, Any]:
    """How often each side parried, re-rolled (VIII REROLL: its own or the opponent's die), pulled
    back or threw (IX THROW instead of doing damage)."""
    return {
        "defender_parries": float(part("parry")[1]),
        "attacker_rerolls": dict(
            zip(("none", "own", "opponent"), map(float, part("att_reroll")), strict=True)
        ),
        "defender_rerolls": dict(
            zip(("none", "own", "opponent"), map(float, part("def_reroll")), strict=True)
        ),
        "attacker_pulls_back": float(part("pull_back")[1]),
        "attacker_throws": float(part("throw")[1]),
        "defender_throws": float(part("throw")[2]),
        "stun_plus_wound": "kill",
    }


def build_result(
    atk: Attack,
    v: np.ndarray,
    method: str,
    title: str,
    extra: dict[str, Any],
    trials: int | None = None,
    seed: int | None = None,
) -> Result:
    """The result of one solved contest ``v`` (expected features of :attr:`Attack.spec`'s layout):
    a shot at one target, or a melee contest with both sides reported."""
    lay = atk.spec.layout

    def part(name: str) -> np.ndarray:
        return lay.part(v, name)

    stages = _target_stages(part)
    cond = part("def_condition")
    out: dict[str, Any] = {"end_state": {c: float(cond[i]) for i, c in enumerate(CONDITIONS)}}
    out["fail_effects"] = _fail_effects(atk, v, part, stages)
    if atk.spec.dfd.pool != Pool():
        _melee_report(atk, part, stages, out)
    else:  # a shot: VIII REROLL, IX JINK
        out["choices"] = {
            "attacker_rerolls": float(part("att_reroll")[1]),
            "defender_jinks": float(part("def_reroll")[2]),
            "stun_plus_wound": "kill",
        }
        out["p_tie"] = float(part("tie")[1])
    if any(a.fx.get("volatile") for a in atk.dfd.arms):
        # VIII VOLATILE: the defender's volatile weapon explodes if he is killed by more than a graze
        out["defender_volatile_explodes"] = float(part("big_kill")[1])
    out["resolved"] = atk.info
    out.update(extra)
    return Result(
        "crusade", method, stages, extra=out, trials=trials, seed=seed, title=title, notes=list(atk.notes)
    )


def simulated_model(r: Result, condition: Dist, **stages: Dist) -> None:
    """Fill a one-model result from Monte Carlo: its ``condition`` and other ``stages``, then
    ``models_destroyed`` and the ``end_state`` extra from the condition (as :func:`model_result`)."""
    r.stages.update(condition=condition, **stages)
    killed = condition[KILLED]
    r.stages["models_destroyed"] = Dist.from_mapping({0: 1 - killed, 1: killed}, normalize=True)
    r.extra["end_state"] = {c: float(condition[i]) for i, c in enumerate(CONDITIONS)}


def targets_result(
    sc: Any,
    atks: list[Attack],
    method: str,
    stages: dict[str, Dist],
    per: list,
    extra: dict,
    fail_joint: list[dict[int, float]] | None = None,
    self_rolls: bool = True,
    **kw: Any,
) -> Result:
    """A result at many targets: ``stages`` (with ``fail``), one :func:`model_result` per target
    from ``per`` (its (end state, damage) law; Monte Carlo passes none and fills the stages after),
    ``extra`` plus the fail effects (``fail_joint``: per target, P(a roll failed and the target
    ends in each condition)), MALFUNCTION's rolls at the user (``self_rolls``: one user fires
    every roll), the attacks' notes (``kw``: trials, seed)."""
    targets = {
        f"{i}: {t.name}": model_result(law or {((0, 0), 0): 1.0}, method, {"resolved": a.info}, **kw)
        for i, (t, a, law) in enumerate(zip(sc.targets, atks, per, strict=True))
    }
    p_fail = 1 - float(stages["fail"][0])
    arms = atks[0].arms
    extra = {**extra, "fail_effects": fail_report(p_fail, arms, atks[0].att.armour)}
    if fail_joint is not None:  # III: the fail joined with each target's result, per weapon
        names = [f"{i}: {t.name}" for i, t in enumerate(sc.targets)]
        each = [fail_by_conditions(j, arms) for j in fail_joint]
        extra["fail_effects"]["by_result"] = {
            a.name: {n: e[a.name] for n, e in zip(names, each, strict=True)} for a in arms if a.fail != "none"
        }
    if self_rolls and any(a.fail == "malfunction" for a in arms):
        stages = {**stages, **malfunction_after_fails(stages["fail"], arms, atks[0].att)}
    notes = list(dict.fromkeys(n for a in atks for n in a.notes))
    return Result("crusade", method, stages, extra=extra, targets=targets, title=sc.title, notes=notes, **kw)
