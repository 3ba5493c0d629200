"""MIND BLAST (rules-crusade VII): "Mind Blast: FT, roll seperately for each target in the template.
Mind Lance: as mind war. You may attack non-psykers with these attacks as well as psykers.
Non-psykers roll 1 white die and may not parry."

The text does not say what a mind blast rolls; the reading used (``mind_blast``, unverified): for
each target under the template the psyker makes a separate mind-war roll (1 red per Psy level,
minus 1 per full foot to that target) against the target's own (1 red per Psy level, parrying if
it is a psyker; a non-psyker 1 white, no parry), resolved as a mind war. The rolls are independent,
so the summed damage and kills are the convolution of the targets' results. Each contest's effect
on the psyker is reported per target, not combined.
"""

from __future__ import annotations

from dataclasses import replace

from grimdice.dice.dist import Dist
from grimdice.engine.options import RunOptions
from grimdice.errors import ScenarioError
from grimdice.result import Result
from grimdice.systems.crusade.attack import build, each_target
from grimdice.systems.crusade.profiles import Scenario
from grimdice.systems.crusade.rules import RULES


def mind_blast(sc: Scenario, options: RunOptions) -> Result:
    if not sc.targets:
        raise ScenarioError("targets", "a mind blast needs the targets under its flamer template")
    subs: dict[str, Result] = {}
    # VII: each target is mind-lanced, psykers and non-psykers alike (the scenario's cover kept)
    attacks = each_target(sc, build, own_cover=False, psychic_attack="mind lance")
    for i, (t, atk) in enumerate(zip(sc.targets, attacks, strict=True)):
        if options.exact:
            from grimdice.systems.crusade.exact import exact_result

            res = exact_result(atk, sc.title)
        else:
            from grimdice.systems.crusade.simulate import simulated_result

            seed = None if options.seed is None else options.seed + i  # separate rolls per target
            res = simulated_result(atk, replace(options, seed=seed), sc.title)
        res.notes = list(dict.fromkeys([*atk.notes, RULES.note("mind_blast")]))
        subs[f"{i}: {t.name}"] = res
    damage, kills = Dist.constant(0), Dist.constant(0)
    for r in subs.values():
        damage, kills = damage + r["damage"], kills + r["models_destroyed"]
    first = next(iter(subs.values()))
    notes = list(dict.fromkeys(n for r in subs.values() for n in r.notes))
    extra = {"mode": "mind blast", "resolved": {"incursion": first.extra["resolved"].get("incursion")}}
    return Result(
        "crusade",
        first.method,
        {"damage": damage, "models_destroyed": kills},
        extra=extra,
        targets=subs,
        trials=first.trials,
        seed=options.seed,
        title=sc.title,
        notes=notes,
    )


__all__ = ["mind_blast"]
