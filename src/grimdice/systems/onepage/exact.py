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
from typing import TypeVar

from grimdice.dice import Dist
from grimdice.errors import ScenarioError
from grimdice.systems.onepage.attack import Fire
from grimdice.systems.onepage.rolls import damage_table, p_morale, p_pass
from grimdice.systems.onepage.units import Removal, Unit, UnitState, best_removal, choose_order, value, wound

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


@dataclass
class Strike:
    """One side's attacks: hit and wound laws, and the table {(wounds caused, target state): p}."""

    hits: Dist
    wounds: Dist
    outcomes: Table
    orders: dict[int, tuple[int, ...]] = field(default_factory=dict)  # normal wounds -> removal order
    vehicle_extra: Dist = field(default_factory=lambda: Dist.constant(0))


def _bin(n: int, p: float) -> Dist:
    return Dist.binomial(n, p) if n else Dist.constant(0)


def auto_hit_wounds(auto: Dist, p: float) -> Dist:
    """Wounds from a random number of automatic hits, each wounding with probability ``p``."""
    return Dist.bernoulli(p).sum_of(auto)


#: "x" weapons resolved one after another (each puts all its wounds on one model): the work grows
#: steeply with them (into 20 Tough(6) models and a hero: 16 take about 1 s on a quiet slow core and
#: 6 s on a shared one, 24 took 30-55 s there; see docs/limits.md)
MAX_X_FIRED = 16


def strike(
    fires: list[Fire],
    target: Unit,
    state: UnitState,
    *,
    auto_hits: Dist | None = None,
    auto_p: float = 0.0,
    facing: str = "side",
    removal: Removal | None = None,
) -> Strike:
    """Resolve ``fires`` at ``target``: hits, wounds, casualties ("For every wound the opposing
    player must remove one model") with Tough, the "x" rule and the Vehicle damage table. The
    defender removes models in the order best for ``removal`` (per number of wounds)."""
    x_fired = sum(f.instances for f in fires if f.odds.weapon.x)
    if x_fired > MAX_X_FIRED:
        raise ScenarioError(
            "attacker",
            f'{x_fired} weapons with the "x" rule strike at once; the exact engine resolves at most '
            f"{MAX_X_FIRED} (each puts all its wounds on one model); use --simulate N",
        )
    hits = sum_laws([_bin(f.dice, f.odds.p_hit) for f in fires])
    normal = [_bin(f.dice, f.odds.p_wound) for f in fires if not f.odds.weapon.x]
    if auto_hits is not None:
        hits = hits + auto_hits
        normal.append(auto_hit_wounds(auto_hits, auto_p))
    n_law = sum_laws(normal)
    singles = [
        _bin(f.odds.weapon.attacks, f.odds.p_wound)
        for f in fires
        if f.odds.weapon.x
        for _ in range(f.instances)
    ]
    total = n_law + sum_laws(singles)
    out: Table = {}
    orders: dict[int, tuple[int, ...]] = {}
    for w in range(n_law.min, n_law.max + 1):
        pw = n_law[w]
        if pw <= 0:
            continue
        order, after = best_removal(target, state, w, removal)
        orders[w] = order
        t: Table = {(w, after): 1.0}
        for d in singles:
            nt: Table = {}
            for (tot, s), p in t.items():
                for k in range(d.min, d.max + 1):
                    add(nt, (tot + k, wound(target, s, k, order, single=True)), p * d[k])
            t = nt
        for k, p in t.items():
            add(out, k, p * pw)
    extra = Dist.constant(0)
    if target.kind in ("vehicle", "walker"):
        out, extra = vehicle_damage(target, out, orders, facing, removal)
    return Strike(hits, total, out, orders, extra)


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

    def go(tot: int, s: UnitState, more: int, p: float) -> None:
        if s.destroyed:
            add(out, (tot, s), p)
            extra[more] += p
            return
        add(out, (tot, s), p * g)
        add(out, (tot, replace(s, shaken=True)), p * sh)
        extra[more] += p * (g + sh)
        if not s.immobile:
            add(out, (tot, replace(s, immobile=True)), p * im)
            extra[more] += p * im
        else:
            go(tot, wound(unit, s, 1, choose_order(unit, s, 1, removal)), more + 1, p * im)

    for (tot, s), p in table.items():
        if tot == 0:
            add(out, (tot, s), p)
            extra[0] += p
        else:
            go(tot, s, 0, p)
    return out, Dist.from_mapping(extra)


def half_killed_morale(unit: Unit, before: UnitState, table: Table) -> Table:
    """ "Whenever half of its models are killed at once" the unit takes a morale test; "If the unit has
    taken the morale test because it lost half of its models, then it is Pinned." Outcome keys gain a
    flag: 1 when a test was taken."""
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
    before = value(target, t_state)[0]
    best, best_key = plans[0], (-1.0, -1.0)
    for fires in plans:
        st = strike(fires, target, t_state, facing=c.facing, removal=rem)
        pts = sum(p * (before - value(target, s)[0]) for (_, s), p in st.outcomes.items())
        key = (pts, st.wounds.mean())
        if key[0] > best_key[0] + 1e-12 or (
            abs(key[0] - best_key[0]) <= 1e-12 and key[1] > best_key[1] + 1e-12
        ):
            best, best_key = fires, key
    return best, len(plans)


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


def melee_table(a: Unit, sa: UnitState, d: Unit, sd: UnitState, c) -> Melee:
    """A melee: attacker assaults defender (see the module text and docs/onepage.md)."""
    from grimdice.dice import D6
    from grimdice.systems.onepage.attack import melee_fire, odds, removal, strike_order, strikes
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
    cache: dict[tuple[str, UnitState, UnitState, bool], Strike] = {}
    objectives: dict[str, str] = {}
    # the side struck first keeps what strikes back best; otherwise the most points
    rem_d = {
        b: removal(d, a, c, assaulting=False, strike_back=b, placed=c.defender_strikers)
        for b in (False, True)
    }
    rem_a = {
        b: removal(a, d, c, assaulting=True, strike_back=b, placed=c.attacker_strikers) for b in (False, True)
    }

    def hit_by_a(s_a: UnitState, s_d: UnitState, back: bool = False) -> Strike:
        key = ("a", s_a, s_d, back)
        if key not in cache:
            cache[key] = strike(
                melee_fire(a, s_a, d, ca, assaulting=True, placed=c.attacker_strikers),
                d,
                s_d,
                auto_hits=auto,
                auto_p=auto_p,
                facing=c.facing,
                removal=rem_d[back],
            )
            if "defender" not in orders:
                orders["defender"] = cache[key].orders
                objectives["defender"] = rem_d[back].objective
        return cache[key]

    def hit_by_d(s_d: UnitState, s_a: UnitState, back: bool = False) -> Strike:
        key = ("d", s_d, s_a, back)
        if key not in cache:
            cache[key] = strike(
                melee_fire(d, s_d, a, cd, assaulting=False, placed=c.defender_strikers),
                a,
                s_a,
                facing=c.facing,
                removal=rem_a[back],
            )
            if "attacker" not in orders:
                orders["attacker"] = cache[key].orders
                objectives["attacker"] = rem_a[back].objective
        return cache[key]

    def mix(acc: dict[int, float], law_: Dist, p: float) -> None:
        for k in range(law_.min, law_.max + 1):
            acc[k] += p * law_[k]

    # states are interned as small ints while the table is built (hashing states is the hot spot)
    ids: dict[UnitState, int] = {}
    states: list[UnitState] = []
    fin: dict[tuple[int, int, int], float] = {}
    wounds_a: dict[int, float] = defaultdict(float)
    wounds_d: dict[int, float] = defaultdict(float)
    morale_cache: dict[tuple[int, int], list[tuple[int, float]]] = {}

    def iid(s_: UnitState) -> int:
        i = ids.get(s_)
        if i is None:
            i = ids[s_] = len(states)
            states.append(s_)
        return i

    def outs(st: Strike) -> list[tuple[int, int, float]]:
        return [(w, iid(s_), p) for (w, s_), p in st.outcomes.items()]

    def morale(side: int, i: int) -> list[tuple[int, float]]:
        key = (side, i)
        if key not in morale_cache:
            unit = d if side == 1 else a
            morale_cache[key] = [(iid(s2), q) for s2, q in loser_morale(unit, states[i]) if q > 0]
        return morale_cache[key]

    def settle(wa: int, wd: int, ia: int, i_d: int, p: float) -> None:
        """ "If a unit has caused more wounds than the other, then that unit counts as the winner. The
        opposing unit counts as the loser, and must then take a morale test." """
        wounds_a[wa] += p
        wounds_d[wd] += p
        if wa > wd:
            for j, q in morale(1, i_d):
                k = (ia, j, 1)
                fin[k] = fin.get(k, 0.0) + p * q
        elif wd > wa:
            for j, q in morale(0, ia):
                k = (j, i_d, 2)
                fin[k] = fin.get(k, 0.0) + p * q
        else:
            k = (ia, i_d, 0)
            fin[k] = fin.get(k, 0.0) + p

    settled = [0]

    def budget(pairs: int) -> None:
        """Count the pairs about to be settled; refuse once the melee passes :data:`MAX_PAIRS`."""
        settled[0] += pairs
        if settled[0] > MAX_PAIRS:
            raise too_big(settled[0])

    isa, isd = iid(sa), iid(sd)
    for a_fail in (False, True):
        for d_fail in (False, True):
            p = (fa if a_fail else 1 - fa) * (fd if d_fail else 1 - fd)
            if p <= 0:
                continue
            # Pinned: "Pinned units have the Strikes Last special rule in melee"; Elevation: "If a
            # unit assaults an enemy unit from higher elevation, or is assaulted by a unit from lower
            # elevation, then it gets the Strikes First special rule for that melee."
            who = strike_order(
                strikes(a, "strikes_first") or c.attacker_higher,
                strikes(a, "strikes_last") or sa.pinned or a_fail,
                strikes(d, "strikes_first") or c.defender_higher,
                strikes(d, "strikes_last") or sd.pinned or d_fail,
            )
            order_p[who] += p
            if who == "both":
                ra, rd = hit_by_a(sa, sd), hit_by_d(sd, sa)
                budget(len(ra.outcomes) * len(rd.outcomes))
                mix(hits_a, ra.hits, p)
                mix(hits_d, rd.hits, p)
                od = outs(rd)
                for wa, i_d, p1 in outs(ra):
                    for wd, ia, p2 in od:
                        settle(wa, wd, ia, i_d, p * p1 * p2)
            elif who == "attacker":
                ra = hit_by_a(sa, sd, True)
                mix(hits_a, ra.hits, p)
                for wa, i_d, p1 in outs(ra):
                    if states[i_d].destroyed:
                        hits_d[0] += p * p1
                        settle(wa, 0, isa, i_d, p * p1)
                        continue
                    rd = hit_by_d(states[i_d], sa)
                    budget(len(rd.outcomes))
                    mix(hits_d, rd.hits, p * p1)
                    for wd, ia, p2 in outs(rd):
                        settle(wa, wd, ia, i_d, p * p1 * p2)
            else:
                rd = hit_by_d(sd, sa, True)
                mix(hits_d, rd.hits, p)
                for wd, ia, p1 in outs(rd):
                    if states[ia].destroyed:
                        hits_a[0] += p * p1
                        settle(0, wd, ia, isd, p * p1)
                        continue
                    ra = hit_by_a(states[ia], sd)
                    budget(len(ra.outcomes))
                    mix(hits_a, ra.hits, p * p1)
                    for wa, i_d, p2 in outs(ra):
                        settle(wa, wd, ia, i_d, p * p1 * p2)
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
    )
