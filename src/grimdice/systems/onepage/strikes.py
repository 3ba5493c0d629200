"""One side's strike, exactly: the laws of its hits and wounds and the table of the target's end
states (:func:`strike`), the Vehicle damage table, and the morale tests that follow a strike.

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
from typing import TypeVar

from grimdice.dice import Dist, Joint
from grimdice.errors import ScenarioError
from grimdice.systems.onepage.attack import Fire
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
    steps: dict[tuple[int, ...], dict[int, dict[int, int]]] = {}
    for (w, h), pw in n_pairs:
        if w not in orders:
            orders[w], after[w] = best_removal(target, state, w, removal)
        if not singles_j:  # the keys differ by ``w`` (and ``h``): each is set once
            if pw > 0:
                out[(w, after[w], h) if with_hits else (w, after[w])] = pw
            continue
        order = orders[w]
        step = steps.setdefault(order, {})
        t = _x_rule(target, {(w, iid(after[w]), h): 1.0}, singles_j, order, step, iid)
        for (tot, i, hh), p in t.items():
            add(out, (tot, states[i], hh) if with_hits else (tot, states[i]), p * pw)
    total = Dist.from_mapping(_marginal(out, 0)) if out else Dist.constant(0)
    extra = Dist.constant(0)
    if target.rolls_vehicle_damage:
        out, extra = vehicle_damage(target, out, orders, facing, removal)
    return Strike(hits, total, out, orders, extra)


def _x_rule(
    target: Unit,
    t: dict[tuple[int, int, int], float],
    singles: list[list[tuple[tuple[int, int], float]]],
    order: tuple[int, ...],
    step: dict[int, dict[int, int]],
    iid: Interner,
) -> dict[tuple[int, int, int], float]:
    """The "x" rule's weapons resolved one after another from the table ``t`` {(wounds, state id,
    hits): p}: "all their wounds must be assigned to a single model" (:func:`~.units.wound`, in
    removal ``order``); ``step`` keeps each state's casualties per number of wounds (state id ->
    {wounds: state id after})."""
    states = iid.states
    for d in singles:
        nt: dict[tuple[int, int, int], float] = {}
        get = nt.get
        for (tot, i, hh), p in t.items():
            moves = step.get(i)
            if moves is None:
                moves = step[i] = {}
            for (k, kh), q in d:
                v = p * q
                if v > 0:
                    nj = moves.get(k)
                    if nj is None:
                        nj = moves[k] = iid(wound(target, states[i], k, order, single=True))
                    nk = (tot + k, nj, hh + kh)
                    nt[nk] = get(nk, 0.0) + v
        t = nt
    return t


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


def beats(k: tuple[float, float], than: tuple[float, float], eps: float = 1e-12) -> bool:
    """``k`` beats ``than`` lexicographically by more than rounding (the first option wins ties)."""
    if k[0] > than[0] + eps:
        return True
    return abs(k[0] - than[0]) <= eps and k[1] > than[1] + eps


__all__ = [
    "MAX_X_FIRED",
    "Interner",
    "Strike",
    "Table",
    "add",
    "auto_hit_wounds",
    "beats",
    "fear_fail",
    "half_killed_morale",
    "law",
    "loser_morale",
    "p_pass",
    "strike",
    "sum_laws",
    "vehicle_damage",
]
