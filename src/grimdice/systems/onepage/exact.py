"""The exact engine's scenarios: the best shooting at one target or several, the table of a
shooting's and of automatic hits' end states, and the melee (:mod:`.exact_melee`); each strike is
:func:`.strikes.strike`.
"""

from __future__ import annotations

from typing import Any

from grimdice.dice import Dist
from grimdice.systems.onepage.attack import Fire
from grimdice.systems.onepage.exact_melee import MAX_PAIRS, Melee, melee_table, melee_value, too_big
from grimdice.systems.onepage.strikes import (
    MAX_X_FIRED,
    Strike,
    Table,
    beats,
    fear_fail,
    half_killed_morale,
    law,
    loser_morale,
    strike,
    vehicle_damage,
)
from grimdice.systems.onepage.units import Removal, Unit, UnitState, recall, value
from grimdice.systems.onepage.weapons import Weapon

#: plans firing more "x" weapons than this are not compared (each is resolved model by model)
MAX_X_COMPARED = 6


def best_shooting(
    shooter: Unit, s_state: UnitState, target: Unit, t_state: UnitState, c
) -> tuple[list[Fire], int]:
    """The shooter's plan (the weapon each group fires, Piercing's option per weapon), chosen against
    the defender's optimal casualties: every plan of :func:`~.attack.shooting_options` is resolved
    exactly and the one destroying the most points in expectation (then the most wounds) is played;
    the greedy plan on ties; the greedy plan alone when a plan fires more than ``MAX_X_COMPARED``
    "x" weapons. Returns the plan and how many plans were compared."""
    from grimdice.systems.onepage.attack import removal, shooting_options

    plans = shooting_options(shooter, s_state, target, c)
    if len(plans) == 1 or any(sum(f.instances for f in p if f.odds.weapon.x) > MAX_X_COMPARED for p in plans):
        return plans[0], 1
    rem = removal(target, shooter, c, assaulting=False, strike_back=False)
    # the choice depends only on the plans, the target's state and objective (kept per target unit)
    key = (tuple(tuple(p) for p in plans), t_state, c.facing, rem)
    i = recall(target, "best_shooting", key, lambda: _best_plan(plans, target, t_state, c.facing, rem))
    return plans[i], len(plans)


def _best_plan(plans: list[list[Fire]], target: Unit, t_state: UnitState, facing: str, rem: Removal) -> int:
    """The index of :func:`best_shooting`'s plan among ``plans``."""
    best, best_key = 0, (-1.0, -1.0)
    for i, fires in enumerate(plans):
        key = plan_worth(fires, target, t_state, facing, rem)
        if beats(key, best_key):
            best, best_key = i, key
    return best


def plan_worth(
    fires: list[Fire], target: Unit, t_state: UnitState, facing: str, rem: Removal
) -> tuple[float, float]:
    """A plan's objective at one target: (points destroyed, wounds) in expectation, the target
    removing its casualties at best for ``rem``."""
    st = strike(fires, target, t_state, facing=facing, removal=rem)
    before = value(target, t_state)[0]
    pts = sum(p * (before - value(target, s)[0]) for (_, s), p in st.outcomes.items())
    return pts, st.wounds.mean()


MAX_TARGET_PLANS = 64  # plans of fire at several targets resolved exactly


def best_targets(
    shooter: Unit, s_state: UnitState, targets: list[tuple[Unit, UnitState, Any]]
) -> tuple[list[list[Fire]], int, bool]:
    """The shooter's fire at several target units: ``(fires per target, plans compared, split)``.

    "When shooting a unit must pick one valid target": every plan (:func:`~.attack.shooting_options`)
    at every target is compared. Relentless: "may fire all of their weapons when using Hold actions,
    even at different targets" (``split``): each weapon of each group of identical models is fired at
    one target (with its Piercing option), every assignment compared (up to ``MAX_TARGET_PLANS``;
    beyond, each weapon at the target where it destroys the most points in expectation alone). The
    objective is the shooter's (reading ``one_weapon``): the most points destroyed in expectation over
    all targets (each target removing its casualties at best), then the most wounds; the first listed
    on ties. Targets are independent given the plan, so a plan's value is a sum over targets."""
    from grimdice.systems.onepage.attack import merge, piercing_options, removal, shooters, shooting_options

    rems = [removal(d, shooter, c, assaulting=False, strike_back=False) for d, _, c in targets]
    cache: dict[tuple[int, tuple[Fire, ...]], tuple[float, float]] = {}

    def worth(i: int, fires: list[Fire]) -> tuple[float, float]:
        key = (i, tuple(fires))
        if key not in cache:
            d, sd, c = targets[i]
            cache[key] = plan_worth(fires, d, sd, c.facing, rems[i]) if fires else (0.0, 0.0)
        return cache[key]

    def total(per: list[list[Fire]]) -> tuple[float, float]:
        vs = [worth(i, merge(f)) for i, f in enumerate(per)]
        return (sum(v[0] for v in vs), sum(v[1] for v in vs))

    n = len(targets)
    split = shooter.has("relentless") and targets[0][2].action == "hold"
    cands: list[list[list[Fire]]] = []
    if not split:
        for i, (d, _, c) in enumerate(targets):
            for plan in shooting_options(shooter, s_state, d, c):
                cands.append([plan if j == i else [] for j in range(n)])
    else:
        # choice units: (group, weapon) -> [(target, Fire)] over the targets it can fire at
        units: dict[tuple[int, str], list[tuple[int, Fire]]] = {}
        for i, (d, _, c) in enumerate(targets):
            fired: dict[tuple[int, str], tuple[Weapon, int]] = {}  # a group's parts fire as one
            for gi, k, usable in shooters(shooter, s_state, c):
                for w in usable:
                    fired[gi, str(w)] = (w, fired.get((gi, str(w)), (w, 0))[1] + k)
            for key, (w, k) in fired.items():
                for o in piercing_options(w, shooter, d, c, melee=False, shaken=s_state.shaken):
                    units.setdefault(key, []).append((i, Fire(o, k)))
        size = 1
        for opts in units.values():
            size *= len(opts)
        if size <= MAX_TARGET_PLANS:
            plans: list[list[list[Fire]]] = [[[] for _ in range(n)]]
            for opts in units.values():
                plans = [[p[j] + ([f] if j == i else []) for j in range(n)] for p in plans for i, f in opts]
            cands = plans
        else:
            per: list[list[Fire]] = [[] for _ in range(n)]
            for opts in units.values():
                i, f = max(opts, key=lambda o: worth(o[0], [o[1]]))
                per[i].append(f)
            cands = [per]
    chosen, chosen_key = cands[0], total(cands[0])
    for cand in cands[1:]:
        cand_key = total(cand)
        if beats(cand_key, chosen_key):
            chosen, chosen_key = cand, cand_key
    return [merge(f) for f in chosen], len(cands), split


def shooting_table(
    shooter: Unit, s_state: UnitState, target: Unit, t_state: UnitState, c, fires: list[Fire] | None = None
) -> tuple[Strike, Table]:
    """A shooting attack: the strike and the table {(wounds, target state, morale test taken): p}.
    ``fires``: the shooter's plan (default: :func:`best_shooting`)."""
    from grimdice.systems.onepage.attack import removal

    if fires is None:
        fires, _ = best_shooting(shooter, s_state, target, t_state, c)
    rem = removal(target, shooter, c, assaulting=False, strike_back=False)
    st = strike(fires, target, t_state, facing=c.facing, removal=rem)
    return st, half_killed_morale(target, t_state, st.outcomes)


def hazard_hits(unit: Unit, state: UnitState, attack: str, models: int | None) -> Dist:
    """Automatic hits from no enemy: Transport(X) "If an Infantry unit is within a transport when it
    is destroyed, then the unit takes D6 automatic hits"; Dangerous Terrain "roll one die for each
    model that moved into or across the dangerous terrain. For each 1 you roll the unit takes one
    automatic hit" (``models``, default all; Flying units "may ignore terrain effects")."""
    from grimdice.dice import D6

    if attack == "transport":
        return D6.dist
    n = state.models if models is None else min(models, state.models)
    return Dist.binomial(n, 1 / 6) if n and not unit.has("flying") else Dist.constant(0)


def hazard_p(unit: Unit, c) -> float:
    """Chance an automatic hit wounds: Armored ignores it on a 4+, else a failed block (no Cover:
    Cover is against shooting)."""
    from grimdice.systems.onepage.attack import odds
    from grimdice.systems.onepage.weapons import Weapon

    return odds(Weapon("Automatic hits", None, 1), unit, unit, c, melee=True).p_wound_per_hit


def hazard_table(unit: Unit, state: UnitState, c, attack: str) -> tuple[Strike, Table]:
    """Automatic hits taken (``hazard_hits``): the strike and {(wounds, state, morale test taken): p};
    casualties chosen by :func:`~.units.default_removal` (the most points, then melee attacks)."""
    hits = hazard_hits(unit, state, attack, c.dangerous_models)
    st = strike([], unit, state, auto_hits=hits, auto_p=hazard_p(unit, c), facing=c.facing)
    return st, half_killed_morale(unit, state, st.outcomes)


__all__ = [
    "MAX_PAIRS",
    "MAX_X_COMPARED",
    "MAX_X_FIRED",
    "Melee",
    "Strike",
    "best_shooting",
    "best_targets",
    "fear_fail",
    "half_killed_morale",
    "hazard_table",
    "law",
    "loser_morale",
    "melee_table",
    "melee_value",
    "shooting_table",
    "strike",
    "too_big",
    "vehicle_damage",
]
