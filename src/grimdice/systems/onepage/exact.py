"""The exact engine: laws of every stage of a shooting attack and of a melee, and of the end state.

Unit states are enumerated exactly (:class:`~grimdice.systems.onepage.units.UnitState` as the key of
a probability table); dice counts are binomial laws from the per-attack odds in ``attack.py``.
Wherever the text gives the defender a choice (the Tough order of a joined Hero), every option is
evaluated and the one keeping the most points alive (in expectation) is played and reported.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Hashable, Mapping
from dataclasses import dataclass, field, replace
from functools import lru_cache
from typing import Any, TypeVar

import numpy as np

from grimdice.dice import Dist, Joint
from grimdice.errors import ScenarioError
from grimdice.systems.onepage.attack import Fire, Picks
from grimdice.systems.onepage.rolls import damage_table, p_morale, p_pass
from grimdice.systems.onepage.units import (
    TABLES_KEPT,
    Removal,
    Unit,
    UnitState,
    best_removal,
    choose_order,
    memo,
    recall,
    value,
    wound,
)

K = TypeVar("K", bound=Hashable)
Table = dict  # {outcome: probability}


def add(table: dict, key: Hashable, p: float) -> None:
    if p > 0:
        table[key] = table.get(key, 0.0) + p


def law(table: Mapping[K, float], f: Callable[[K], int]) -> Dist:
    """The law of an integer feature of the outcomes of ``table``."""
    out: dict[int, float] = defaultdict(float)
    for k, p in table.items():
        out[f(k)] += p
    return Dist.from_mapping(out)


def sum_laws(laws: list[Dist]) -> Dist:
    out = Dist.constant(0)
    for d in laws:
        out = out + d
    return out


class Interner:
    """Unit states numbered in order of first appearance (``iid(state)`` -> int, ``iid.states[i]``):
    tables keyed by small ints instead of states (hashing states is the hot spot)."""

    def __init__(self) -> None:
        self.ids: dict[UnitState, int] = {}
        self.states: list[UnitState] = []

    def __call__(self, s: UnitState) -> int:
        i = self.ids.get(s)
        if i is None:
            i = self.ids[s] = len(self.states)
            self.states.append(s)
        return i


@dataclass
class Strike:
    """One side's attacks: hit and wound laws, and the table {(wounds caused, target state): p}."""

    hits: Dist
    wounds: Dist
    outcomes: Table
    orders: dict[int, tuple[int, ...]] = field(default_factory=dict)  # normal wounds -> removal order
    vehicle_extra: Dist = field(default_factory=lambda: Dist.constant(0))


@lru_cache(maxsize=4096)
def _bin(n: int, p: float) -> Dist:
    """Binomial(n, p) (immutable, so kept: a game asks for the same few laws again and again)."""
    return Dist.binomial(n, p) if n else Dist.constant(0)


def auto_hit_wounds(auto: Dist, p: float) -> Dist:
    """Wounds from a random number of automatic hits, each wounding with probability ``p``."""
    return Dist.bernoulli(p).sum_of(auto)


#: "x" weapons resolved one after another (each puts all its wounds on one model): the work grows
#: steeply with them (into 20 Tough(6) models and a hero, 16 take about 0.15 s, 24 about 0.5 s on the
#: shared machine; the bound could be raised once its worst targets are timed; see docs/limits.md)
MAX_X_FIRED = 16


@lru_cache(maxsize=4096)
def _hit_wound_law(pw: float, ph: float, dice: int) -> Joint:
    return Joint.categorical([pw, ph - pw, 1 - ph]).repeat(dice)


def _hit_wound(f_odds, dice: int) -> Joint:
    """Joint law of (wounds, hits that did not wound) of ``dice`` attacks with ``f_odds``."""
    return _hit_wound_law(f_odds.p_wound, f_odds.p_hit, dice)


def _pairs(d: Dist) -> list[tuple[tuple[int, int], float]]:
    """``[((k, 0), P(k))]`` over the outcomes of ``d`` with a positive probability, in order."""
    return [((k, 0), d[k]) for k in range(d.min, d.max + 1) if d[k] > 0]


def strike(
    fires: list[Fire],
    target: Unit,
    state: UnitState,
    *,
    auto_hits: Dist | None = None,
    auto_p: float = 0.0,
    facing: str = "side",
    removal: Removal | None = None,
    with_hits: bool = False,
) -> Strike:
    """Resolve ``fires`` at ``target``: hits, wounds, casualties ("For every wound the opposing
    player must remove one model") with Tough, the "x" rule and the Vehicle damage table. The
    defender removes models in the order best for ``removal`` (per number of wounds).
    ``with_hits``: the outcome keys are (wounds, state, hits) (the joint law of the hits, for a side
    whose attacks are resolved in more than one step).

    Strikes are kept per target unit (:func:`~.units.memo`; a :class:`Strike` is never changed once
    built): a game asks for the same fire at the same target state from many positions and plans."""
    x_fired = sum(f.instances for f in fires if f.odds.weapon.x)
    if x_fired > MAX_X_FIRED:
        raise ScenarioError(
            "attacker",
            f'{x_fired} weapons with the "x" rule strike at once; the exact engine resolves at most '
            f"{MAX_X_FIRED} (each puts all its wounds on one model); use --simulate N",
        )
    auto_key = None if auto_hits is None else (auto_hits.min, auto_hits.pmf.tobytes())
    key = (tuple(fires), state, auto_key, auto_p, facing, removal, with_hits)
    return recall(
        target,
        "strike",
        key,
        lambda: _strike(fires, target, state, auto_hits, auto_p, facing, removal, with_hits),
        TABLES_KEPT,
    )


def _strike(
    fires: list[Fire],
    target: Unit,
    state: UnitState,
    auto_hits: Dist | None,
    auto_p: float,
    facing: str,
    removal: Removal | None,
    with_hits: bool,
) -> Strike:
    """:func:`strike`, computed."""
    hits = sum_laws([_bin(f.dice, f.odds.p_hit) for f in fires])
    if auto_hits is not None:
        hits = hits + auto_hits
    if with_hits:
        # (wounds, hits) jointly: per attack wound / hit without wound / miss
        j = Joint.unit(2)
        for f in fires:
            if not f.odds.weapon.x:
                j = j + _hit_wound(f.odds, f.dice)
        if auto_hits is not None:
            j = j + Joint.categorical([auto_p, 1 - auto_p, 0.0]).sum_of(auto_hits)
        n_pairs = [((w, w + m), p) for (w, m), p in j.items() if p > 0]
        singles_j = [
            [((w, w + m), p) for (w, m), p in _hit_wound(f.odds, f.odds.weapon.attacks).items() if p > 0]
            for f in fires
            if f.odds.weapon.x
            for _ in range(f.instances)
        ]
    else:
        normal = [_bin(f.dice, f.odds.p_wound) for f in fires if not f.odds.weapon.x]
        if auto_hits is not None:
            normal.append(auto_hit_wounds(auto_hits, auto_p))
        n_pairs = _pairs(sum_laws(normal))
        singles_j = [
            _pairs(_bin(f.odds.weapon.attacks, f.odds.p_wound))
            for f in fires
            if f.odds.weapon.x
            for _ in range(f.instances)
        ]
    out: Table = {}
    orders: dict[int, tuple[int, ...]] = {}
    after: dict[int, UnitState] = {}
    # the "x" rule's weapons are resolved one after another on states interned as small ints (hashing
    # a state is the hot spot), their casualties per (state, wounds) and removal order computed once
    iid = Interner()
    states = iid.states
    steps: dict[tuple[int, ...], dict[tuple[int, int], int]] = {}
    for (w, h), pw in n_pairs:
        if w not in orders:
            orders[w], after[w] = best_removal(target, state, w, removal)
        order = orders[w]
        if not singles_j:
            add(out, (w, after[w], h) if with_hits else (w, after[w]), 1.0 * pw)
            continue
        t: dict[tuple[int, int, int], float] = {(w, iid(after[w]), h): 1.0}
        step = steps.setdefault(order, {})
        for d in singles_j:
            nt: dict[tuple[int, int, int], float] = {}
            get = nt.get
            for (tot, i, hh), p in t.items():
                for (k, kh), q in d:
                    v = p * q
                    if v > 0:
                        nj = step.get((i, k))
                        if nj is None:
                            nj = step[(i, k)] = iid(wound(target, states[i], k, order, single=True))
                        nk = (tot + k, nj, hh + kh)
                        nt[nk] = get(nk, 0.0) + v
            t = nt
        for (tot, i, hh), p in t.items():
            add(out, (tot, states[i], hh) if with_hits else (tot, states[i]), p * pw)
    total = Dist.from_mapping(_marginal(out, 0)) if out else Dist.constant(0)
    extra = Dist.constant(0)
    if target.rolls_vehicle_damage:
        out, extra = vehicle_damage(target, out, orders, facing, removal)
    return Strike(hits, total, out, orders, extra)


def _marginal(table: Table, i: int) -> dict[int, float]:
    m: dict[int, float] = defaultdict(float)
    for k, p in table.items():
        m[k[i]] += p
    return m


def vehicle_damage(
    unit: Unit,
    table: Table,
    orders: dict[int, tuple[int, ...]],
    facing: str,
    removal: Removal | None = None,
) -> tuple[Table, Dist]:
    """ "Whenever a Vehicle takes one or more wounds, you must roll once on the following table" —
    Glanced (1-2), Shaken (3-4), Immobile (5-6); "If a Vehicle that is Immobile suffers any additional
    Immobile result it immediately takes an additional wound and you must roll again for the new
    wound." Returns the table and the law of the additional wounds."""
    g, sh, im = damage_table(facing)
    out: Table = {}
    extra: dict[int, float] = defaultdict(float)

    def go(tot: int, s: UnitState, rest: tuple, more: int, p: float) -> None:
        if s.destroyed:
            add(out, (tot, s, *rest), p)
            extra[more] += p
            return
        add(out, (tot, s, *rest), p * g)
        add(out, (tot, replace(s, shaken=True), *rest), p * sh)
        extra[more] += p * (g + sh)
        if not s.immobile:
            add(out, (tot, replace(s, immobile=True), *rest), p * im)
            extra[more] += p * im
        else:
            go(tot, wound(unit, s, 1, choose_order(unit, s, 1, removal)), rest, more + 1, p * im)

    for (tot, s, *rest), p in table.items():
        if tot == 0:
            add(out, (tot, s, *rest), p)
            extra[0] += p
        else:
            go(tot, s, tuple(rest), 0, p)
    return out, Dist.from_mapping(extra)


def half_killed_morale(unit: Unit, before: UnitState, table: Table) -> Table:
    """ "Whenever half of its models are killed at once" the unit takes a morale test; "If the unit has
    taken the morale test because it lost half of its models, then it is Pinned." Outcome keys gain a
    flag: 1 when a test was taken. Kept per unit for a strike's table (never changed once built)."""
    m = memo(unit, "half_killed", TABLES_KEPT)
    key = (id(table), before)
    hit = m.get(key)
    if hit is None or hit[0] is not table:  # the table is kept, so its id is not reused
        hit = m[key] = (table, _half_killed_morale(unit, before, table))
    return hit[1]


def _half_killed_morale(unit: Unit, before: UnitState, table: Table) -> Table:
    p_ok = p_morale(unit.quality, unit.has("fearless"))
    out: Table = {}
    for (tot, s), p in table.items():
        killed = before.models - s.models
        if s.models and killed and 2 * killed >= before.models:
            add(out, (tot, s, 1), p * p_ok)
            add(out, (tot, replace(s, pinned=True), 1), p * (1 - p_ok))
        else:
            add(out, (tot, s, 0), p)
    return out


def fear_fail(unit: Unit, enemy: Unit) -> float:
    """Fear: "Enemy units without this special rule must take a morale test before fighting melee with
    a unit with this special rule. If the morale test is failed the unit strikes last"."""
    if enemy.has("fear") and not unit.has("fear"):
        return 1 - p_morale(unit.quality, unit.has("fearless"))
    return 0.0


def loser_morale(unit: Unit, s: UnitState) -> list[tuple[UnitState, float]]:
    """ "If the unit has taken the morale test because it lost in melee, and it still has more than
    half as many models as it started the game with, then it is Pinned. ... and it has half as many
    models as it started the game with, then it Routs." Routed units are "removed from play"."""
    if s.destroyed:
        return [(s, 1.0)]
    ok = p_morale(unit.quality, unit.has("fearless"))
    bad = replace(s, pinned=True) if 2 * s.models > unit.started_with else replace(s, routed=True)
    return [(s, ok), (bad, 1 - ok)]


__all__ = [
    "Strike",
    "best_shooting",
    "fear_fail",
    "half_killed_morale",
    "law",
    "loser_morale",
    "p_pass",
    "strike",
]


# --------------------------------------------------------------------------- scenarios


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
        if _better(key, best_key):
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
            for gi, k, usable in shooters(shooter, s_state, c):
                for w in usable:
                    for o in piercing_options(w, shooter, d, c, melee=False, shaken=s_state.shaken):
                        units.setdefault((gi, str(w)), []).append((i, Fire(o, k)))
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
        if _better(cand_key, chosen_key):
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


@dataclass
class Melee:
    """The end of a melee: {(attacker state, defender state, winner): p} (winner 0 tie, 1 attacker,
    2 defender; states as indices into ``states``), the hit and wound laws of each side, and the
    choices played."""

    final: Table
    hits_a: Dist
    hits_d: Dist
    wounds_a: Dist
    wounds_d: Dist
    order_p: dict[str, float]
    orders: dict[str, dict[int, tuple[int, ...]]]
    states: list[UnitState]
    objectives: dict[str, str] = field(default_factory=dict)  # side -> casualty objective played
    picks: dict[str, Picks] = field(default_factory=dict)  # side -> Piercing's option per melee weapon
    plans_compared: int = 1  # combinations of both sides' Piercing options compared


#: joint outcomes of both strikes the exact melee settles, summed over its branches (Fear, strike
#: order): each costs 20-70 us on a slow shared core (more with Tough), so the largest allowed melee
#: finishes in seconds (100 Tough(50) models a side, 284 000, took 19 s there; see docs/limits.md)
MAX_PAIRS = 250_000
SECONDS_PER_PAIR = 7e-5


def too_big(pairs: int) -> ScenarioError:
    return ScenarioError(
        "attacker",
        f"too many attacks for the exact melee: at least {pairs} joint outcomes of both strikes to settle "
        f"(at most {MAX_PAIRS}; about {pairs * SECONDS_PER_PAIR:.0f} s or more); use --simulate N",
    )


def _melee(a: Unit, sa: UnitState, d: Unit, sd: UnitState, c, pa: Picks, pd: Picks) -> Melee:
    """A melee: attacker assaults defender, with Piercing's options ``pa``/``pd`` per melee weapon.

    The attacks are resolved tier by tier (:class:`~.attack.Timing`: Strikes First weapons, then the
    others, then Strikes Last ones), each tier's attacks of both sides at once with casualties
    removed after it; a side whose attacks span several tiers carries its hits jointly with the
    outcomes (the later tiers' strikers depend on the earlier ones)."""
    from grimdice.dice import D6
    from grimdice.systems.onepage.attack import Timing, at_tier, melee_fire, odds, removal
    from grimdice.systems.onepage.weapons import Weapon

    ca = c.model_copy(update={"action": "assault"})
    cd = c.model_copy(update={"action": "hold"})
    # "Vehicles ... deal D6 automatic hits when using Assault actions."
    auto = D6.dist if a.kind == "vehicle" else None
    auto_p = odds(Weapon("Automatic hits", None, 1), a, d, ca, melee=True).p_wound_per_hit
    fa, fd = fear_fail(a, d), fear_fail(d, a)
    hits_a: dict[int, float] = defaultdict(float)
    hits_d: dict[int, float] = defaultdict(float)
    order_p: dict[str, float] = defaultdict(float)
    orders: dict[str, dict[int, tuple[int, ...]]] = {}
    cache: dict[tuple, Strike] = {}
    objectives: dict[str, str] = {}
    # a side that still strikes after removing its casualties keeps what strikes back best
    rem_d = {
        b: removal(d, a, c, assaulting=False, strike_back=b, placed=c.defender_strikers)
        for b in (False, True)
    }
    rem_a = {
        b: removal(a, d, c, assaulting=True, strike_back=b, placed=c.attacker_strikers) for b in (False, True)
    }

    fires_of: dict[tuple[str, UnitState], list[Fire]] = {}

    def side_fire(side: str, s_att: UnitState) -> list[Fire]:
        """All of ``side``'s melee attacks from state ``s_att`` (computed once per state)."""
        key = (side, s_att)
        if key not in fires_of:
            if side == "a":
                fires_of[key] = melee_fire(
                    a, s_att, d, ca, assaulting=True, placed=c.attacker_strikers, picks=pa
                )
            else:
                fires_of[key] = melee_fire(
                    d, s_att, a, cd, assaulting=False, placed=c.defender_strikers, picks=pd
                )
        return fires_of[key]

    def hit(
        side: str, timing: Timing, tier: int, s_att: UnitState, s_tgt: UnitState, back: bool, joint: bool
    ) -> Strike:
        """The strike of ``side``'s attacks of ``tier`` from ``s_att`` at the other side in ``s_tgt``."""
        key = (side, timing, tier, s_att, s_tgt, back, joint)
        if key not in cache:
            if side == "a":
                fires = at_tier(timing, True, side_fire("a", s_att), tier)
                auto_here = (
                    auto
                    if auto is not None and s_att.models and timing.tier(True, Weapon("", None, 1)) == tier
                    else None
                )
                st = strike(
                    fires,
                    d,
                    s_tgt,
                    auto_hits=auto_here,
                    auto_p=auto_p,
                    facing=c.facing,
                    removal=rem_d[back],
                    with_hits=joint,
                )
            else:
                fires = at_tier(timing, False, side_fire("d", s_att), tier)
                st = strike(fires, a, s_tgt, facing=c.facing, removal=rem_a[back], with_hits=joint)
            cache[key] = st
            target = "defender" if side == "a" else "attacker"
            if target not in orders and st.orders:
                orders[target] = st.orders
                objectives[target] = (rem_d if side == "a" else rem_a)[back].objective
        return cache[key]

    def mix(acc: dict[int, float], law_: Dist, p: float) -> None:
        for k in range(law_.min, law_.max + 1):
            acc[k] += p * law_[k]

    # states are interned as small ints while the table is built (hashing states is the hot spot)
    iid = Interner()
    states = iid.states
    fin: dict[tuple[int, int, int], float] = {}
    wounds_a: dict[int, float] = defaultdict(float)
    wounds_d: dict[int, float] = defaultdict(float)
    morale_cache: dict[tuple[int, int], list[tuple[int, float]]] = {}

    arr_cache: dict[int, tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]] = {}
    none = (np.zeros(1, np.int64), np.full(1, -1, np.int64), np.zeros(1, np.int64), np.ones(1))

    def arrs(st: Strike | None, joint: bool) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """(wounds, target state id, hits, p) arrays of a strike's outcomes (hits 0 unless carried
        jointly); no strike: the target unchanged (state id -1)."""
        if st is None:
            return none
        key = id(st)  # strikes stay alive in ``cache``
        if key not in arr_cache:
            if joint:
                rows = [(w, iid(s_), h, p) for (w, s_, h), p in st.outcomes.items()]
            else:
                rows = [(w, iid(s_), 0, p) for (w, s_), p in st.outcomes.items()]
            w_, s_, h_, p_ = zip(*rows, strict=True)
            arr_cache[key] = (np.array(w_), np.array(s_), np.array(h_), np.array(p_, dtype=float))
        return arr_cache[key]

    def morale(side: int, i: int) -> list[tuple[int, float]]:
        key = (side, i)
        if key not in morale_cache:
            unit = d if side == 1 else a
            morale_cache[key] = [(iid(s2), q) for s2, q in loser_morale(unit, states[i]) if q > 0]
        return morale_cache[key]

    def settle(ia: int, i_d: int, win: int, p: float) -> None:
        """ "If a unit has caused more wounds than the other, then that unit counts as the winner. The
        opposing unit counts as the loser, and must then take a morale test." """
        if win == 1:
            for j, q in morale(1, i_d):
                k = (ia, j, 1)
                fin[k] = fin.get(k, 0.0) + p * q
        elif win == 2:
            for j, q in morale(0, ia):
                k = (j, i_d, 2)
                fin[k] = fin.get(k, 0.0) + p * q
        else:
            k = (ia, i_d, 0)
            fin[k] = fin.get(k, 0.0) + p

    def add_counts(acc: dict[int, float], values: np.ndarray, p: np.ndarray) -> None:
        for k, q in enumerate(np.bincount(values, weights=p)):
            if q > 0:
                acc[k] += float(q)

    settled = [0]

    def budget(pairs: int) -> None:
        """Count the pairs about to be settled; refuse once the melee passes :data:`MAX_PAIRS`."""
        settled[0] += pairs
        if settled[0] > MAX_PAIRS:
            raise too_big(settled[0])

    isa, isd = iid(sa), iid(sd)
    all_a, all_d = side_fire("a", sa), side_fire("d", sd)
    for a_fail in (False, True):
        for d_fail in (False, True):
            p0 = (fa if a_fail else 1 - fa) * (fd if d_fail else 1 - fd)
            if p0 <= 0:
                continue
            timing = Timing.of(a, sa, d, sd, c, a_fail, d_fail)
            ta, td = timing.tiers(True, all_a), timing.tiers(False, all_d)
            if auto is not None:
                ta.add(timing.tier(True, Weapon("", None, 1)))
            order_p[Timing.label(ta, td)] += p0
            tiers = sorted(ta | td, reverse=True)
            ja, jd = len(ta) > 1, len(td) > 1  # hits carried jointly across tiers
            # the outcomes as columns: attacker wounds, defender wounds, attacker state, defender
            # state, attacker hits, defender hits, probability
            one = np.zeros(1, np.int64)
            cols = [one, one, one + isa, one + isd, one, one, np.full(1, p0)]
            for n_t, t in enumerate(tiers):
                a_back = any(x < t for x in ta)
                d_back = any(x < t for x in td)
                wa, wd, ia, i_d, ha, hd, p = cols
                pair = ia * (1 << 32) + i_d
                parts: list[list[np.ndarray]] = []
                for u in np.unique(pair):
                    m = pair == u
                    ia0, id0 = int(u >> 32), int(u & 0xFFFFFFFF)
                    s_a, s_d = states[ia0], states[id0]
                    live = not s_a.destroyed and not s_d.destroyed
                    ra = hit("a", timing, t, s_a, s_d, d_back, ja) if live and t in ta else None
                    rd = hit("d", timing, t, s_d, s_a, a_back, jd) if live and t in td else None
                    w1, j1, h1, p1 = arrs(ra, ja)
                    w2, j2, h2, p2 = arrs(rd, jd)
                    rows = int(m.sum())
                    budget(rows * p1.size * p2.size)
                    psum = float(p[m].sum())
                    if t in ta and not ja:
                        mix(hits_a, ra.hits if ra is not None else Dist.constant(0), psum)
                    if t in td and not jd:
                        mix(hits_d, rd.hits if rd is not None else Dist.constant(0), psum)

                    def grid(base: np.ndarray, x1: np.ndarray, x2: np.ndarray) -> np.ndarray:
                        """``base[r] + x1[i] + x2[j]`` over the (rows, strike 1, strike 2) grid, flat
                        (every operand spans its whole axis, so the sum has the grid's shape)."""
                        return (base[:, None, None] + x1[None, :, None] + x2[None, None, :]).ravel()

                    z1, z2 = np.zeros_like(w1), np.zeros_like(w2)
                    parts.append(
                        [
                            grid(wa[m], w1, z2),
                            grid(wd[m], z1, w2),
                            grid(np.zeros(rows, np.int64), z1, np.where(j2 < 0, ia0, j2)),
                            grid(np.zeros(rows, np.int64), np.where(j1 < 0, id0, j1), z2),
                            grid(ha[m], h1, z2),
                            grid(hd[m], z1, h2),
                            (p[m][:, None, None] * p1[None, :, None] * p2[None, None, :]).ravel(),
                        ]
                    )
                cols = [np.concatenate(x) for x in zip(*parts, strict=True)]
                if n_t < len(tiers) - 1 and cols[0].size > 1000:
                    keys, inv = np.unique(np.stack(cols[:6]), axis=1, return_inverse=True)
                    cols = [*keys, np.bincount(inv.reshape(-1), weights=cols[6])]
            wa, wd, ia, i_d, ha, hd, p = cols
            add_counts(wounds_a, wa, p)
            add_counts(wounds_d, wd, p)
            for acc, hh, joint, any_ in ((hits_a, ha, ja, ta), (hits_d, hd, jd, td)):
                if joint or not any_:
                    add_counts(acc, hh, p)
            win = np.where(wa > wd, 1, np.where(wd > wa, 2, 0))
            n_states = len(states)
            code = (ia * n_states + i_d) * 3 + win
            uniq, inv = np.unique(code, return_inverse=True)
            for cd_, q in zip(uniq.tolist(), np.bincount(inv.reshape(-1), weights=p).tolist(), strict=True):
                rest, w_ = divmod(cd_, 3)
                settle(rest // n_states, rest % n_states, w_, q)
    return Melee(
        fin,
        Dist.from_mapping(hits_a),
        Dist.from_mapping(hits_d),
        Dist.from_mapping(wounds_a),
        Dist.from_mapping(wounds_d),
        dict(order_p),
        orders,
        states,
        objectives,
        {"attacker": pa, "defender": pd},
    )


def melee_value(m: Melee, a: Unit, sa: UnitState, d: Unit, sd: UnitState, side: int) -> tuple[float, float]:
    """A side's objective in a melee (reading ``melee_piercing``): the expected points it removes from
    the enemy (killed or routed: "removed from play as a casualty") minus the expected points it
    loses; then P(win) - P(lose). ``side`` 0 attacker, 1 defender."""
    lost = [0.0, 0.0]
    won = [0.0, 0.0]
    for (ia, i_d, w), p in m.final.items():
        lost[0] += p * (value(a, sa)[0] - value(a, m.states[ia])[0])
        lost[1] += p * (value(d, sd)[0] - value(d, m.states[i_d])[0])
        if w:
            won[w - 1] += p
    return (lost[1 - side] - lost[side], won[side] - won[1 - side])


MAX_MELEE_PLANS = 16  # combinations of Piercing's options resolved as whole melees


def melee_table(
    a: Unit, sa: UnitState, d: Unit, sd: UnitState, c, picks: tuple[Picks, Picks] | None = None
) -> Melee:
    """A melee: attacker assaults defender (see the module text and docs/onepage.md).

    Piercing's option per melee weapon ("(pick one)") is chosen considering the whole melee: each
    side's objective is :func:`melee_value`; the attacker picks first, anticipating the defender's
    best answer to each pick (every combination resolved exactly, up to ``MAX_MELEE_PLANS``; beyond,
    or with ``picks`` given, the option with more wounds per attack). ``picks``: (attacker's,
    defender's) options to play instead."""
    from grimdice.systems.onepage.attack import melee_picks

    if picks is not None:
        return _melee(a, sa, d, sd, c, *picks)
    ca = c.model_copy(update={"action": "assault"})
    cd = c.model_copy(update={"action": "hold"})
    opts_a, opts_d = melee_picks(a, sa, d, ca), melee_picks(d, sd, a, cd)
    n = len(opts_a) * len(opts_d)
    if n == 1 or n > MAX_MELEE_PLANS:
        return _melee(a, sa, d, sd, c, opts_a[0], opts_d[0])
    best: Melee | None = None
    best_key: tuple[float, float] | None = None
    for pa in opts_a:
        answer: Melee | None = None
        answer_key: tuple[float, float] | None = None
        for pd in opts_d:
            m = _melee(a, sa, d, sd, c, pa, pd)
            k = melee_value(m, a, sa, d, sd, 1)
            if answer_key is None or _better(k, answer_key):
                answer, answer_key = m, k
        assert answer is not None
        k = melee_value(answer, a, sa, d, sd, 0)
        if best_key is None or _better(k, best_key):
            best, best_key = answer, k
    assert best is not None
    best.plans_compared = n
    return best


def _better(k: tuple[float, float], than: tuple[float, float], eps: float = 1e-12) -> bool:
    """``k`` beats ``than`` lexicographically by more than rounding (the first option wins ties)."""
    if k[0] > than[0] + eps:
        return True
    return abs(k[0] - than[0]) <= eps and k[1] > than[1] + eps
