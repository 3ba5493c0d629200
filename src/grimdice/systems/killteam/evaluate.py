"""Kill Team's entry point: a scenario's fight, or its shooting attacks against each target operative,
solved and run on the engine the options ask for (exact or Monte Carlo).

Shooting: the attacks are resolved (:mod:`shooting`), both sides' decisions solved
(:mod:`solve`) into a :class:`~grimdice.systems.killteam.report.ShootingPlan`, and the plan run
exactly or by trials (:mod:`report`). Fights map validated profiles onto the fight engine
(:mod:`units`, the package ``fight``). The engines are imported when a scenario is run.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from grimdice.engine.options import EXACT, RunOptions
from grimdice.errors import ScenarioError
from grimdice.result import Result
from grimdice.systems.killteam.profiles import Scenario, Target
from grimdice.systems.killteam.rules import OBSCURED, RULES

if TYPE_CHECKING:
    from grimdice.systems.killteam.shooting import ResolvedShot, Secondary


def evaluate(sc: Scenario, options: RunOptions) -> Result:
    """Resolve the scenario's shooting attacks or fight: exactly, or by ``options.simulate`` trials."""
    if sc.action == "fight":
        from grimdice.systems.killteam.units import fight_scenario

        return fight_scenario(sc, options)
    results = {t.name: shoot_result(sc, t, options) for t in sc.target_list}
    if sc.targets is not None and len(results) != len(sc.targets):
        raise ScenarioError("targets", "give each compared target a different name")
    return results[sc.target_list[0].name] if sc.target is not None else compare(results)


def shoot_result(sc: Scenario, target: Target, options: RunOptions = EXACT) -> Result:
    """All the shooting attacks of the scenario against ``target`` (and others, for a single
    Blast, Torrent, Fusillade or Splash attack)."""
    from grimdice.systems.killteam.report import ShootingPlan, exact_result, objectives, simulated_result
    from grimdice.systems.killteam.shooting import make_spec, resolve_shots, secondary_targets
    from grimdice.systems.killteam.solve import solve_sequence

    a_obj, d_obj = objectives(sc)
    shots = resolve_shots(sc)
    where = "target" if sc.target is not None else "targets"
    nearby = list(sc.nearby)
    secondaries: list[Secondary] = []
    notes: list[str] = []
    if len(shots) == 1 and nearby:
        spec, secondaries, notes = secondary_targets(shots[0], target, nearby, a_obj, d_obj)
        specs = [spec]
    else:
        if nearby and any(s.rules.multi_target or s.rules.splash for s in shots):
            raise ScenarioError(
                "nearby",
                f"Blast, Torrent, Fusillade and Splash act on other operatives for a single shooting attack; "
                f"this scenario has {len(shots)} (give one shot, or leave out nearby)",
            )
        specs = [make_spec(s, target, where) for s in shots]
    w0 = target.wounds_left
    pols = solve_sequence(specs, w0, a_obj, d_obj)
    sec_pols = {
        s.index: solve_sequence([s.spec], s.target.wounds_left, a_obj, d_obj) if s.spec else []
        for s in secondaries
    }
    plan = ShootingPlan(
        sc,
        target,
        shots,
        pols,
        secondaries,
        sec_pols,
        {s.attacker.name for s in shots if s.rules.hot},
        any(s.rules.stun for s in shots),
        notes,
    )
    res = exact_result(plan) if options.exact else simulated_result(plan, options)
    res.notes.extend(reading_notes(shots, nearby, notes))
    return res


def reading_notes(shots: list[ResolvedShot], nearby: list, not_attacked: list[str]) -> list[str]:
    """The unverified readings (rule table) a shooting result used: the lost distance symbols of
    Fusillade and Splash when other operatives were considered, and the 2021 Obscured reading when
    it excluded one."""
    out = []
    if len(shots) == 1 and nearby:
        if shots[0].rules.fusillade:
            out.append(RULES.note("fusillade"))
        if shots[0].rules.splash:
            out.append(RULES.note("splash"))
    if any("Obscured" in n for n in not_attacked):
        out.append(RULES.note(OBSCURED))
    return out


def compare(results: dict[str, Result]) -> Result:
    """One attack against several target profiles: the first at the top level, each under targets."""
    first = next(iter(results.values()))
    return Result(
        first.system,
        first.method,
        dict(first.stages),
        extra=dict(first.extra),
        targets=results,
        trials=first.trials,
        seed=first.seed,
        title=first.title,
        notes=list(dict.fromkeys(n for r in results.values() for n in r.notes)),
    )


__all__ = ["compare", "evaluate", "reading_notes", "shoot_result"]
