"""The exact melee: the end of a melee as a table of both units' end states and the winner, the
hit and wound laws of each side, and Piercing's options chosen over the whole melee (OP40k 2.21
Melee; see docs/onepage.md).
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field

import numpy as np

from grimdice.dice import D6, Dist
from grimdice.errors import ScenarioError
from grimdice.systems.onepage.attack import (
    Fire,
    Picks,
    Timing,
    at_tier,
    melee_fire,
    melee_picks,
    melee_removals,
    odds,
)
from grimdice.systems.onepage.strikes import Interner, Strike, Table, beats, fear_fail, loser_morale, strike
from grimdice.systems.onepage.units import Unit, UnitState, value
from grimdice.systems.onepage.weapons import Weapon


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


Columns = list[np.ndarray]  # attacker wounds, defender wounds, attacker state id, defender state id,
# attacker hits, defender hits (carried jointly across tiers, else 0), probability
Arrays = tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]  # (wounds, target state id, hits, p)
#: no strike: nothing caused, the target unchanged (state id -1)
NO_STRIKE: Arrays = (np.zeros(1, np.int64), np.full(1, -1, np.int64), np.zeros(1, np.int64), np.ones(1))


def _mix(acc: dict[int, float], law_: Dist, p: float) -> None:
    """``acc += p * law_`` (a law of counts mixed in with weight ``p``)."""
    for k in range(law_.min, law_.max + 1):
        acc[k] += p * law_[k]


def _add_counts(acc: dict[int, float], values: np.ndarray, p: np.ndarray) -> None:
    """``acc[v] += p`` over the outcomes ``values`` with probabilities ``p``."""
    for k, q in enumerate(np.bincount(values, weights=p)):
        if q > 0:
            acc[k] += float(q)


def _grid(base: np.ndarray, x1: np.ndarray, x2: np.ndarray) -> np.ndarray:
    """``base[r] + x1[i] + x2[j]`` over the (rows, strike 1, strike 2) grid, flat (every operand
    spans its whole axis, so the sum has the grid's shape)."""
    return (base[:, None, None] + x1[None, :, None] + x2[None, None, :]).ravel()


class _MeleeTable:
    """The exact melee of ``a`` assaulting ``d`` with Piercing's options ``pa``/``pd``, built branch by
    branch (Fear) and tier by tier (strike order); unit states are interned as small ints while the
    table is built (hashing states is the hot spot)."""

    def __init__(self, a: Unit, sa: UnitState, d: Unit, sd: UnitState, c, pa: Picks, pd: Picks) -> None:
        self.a, self.sa, self.d, self.sd, self.c, self.pa, self.pd = a, sa, d, sd, c, pa, pd
        self.ca = c.model_copy(update={"action": "assault"})
        self.cd = c.model_copy(update={"action": "hold"})
        # "Vehicles ... deal D6 automatic hits when using Assault actions."
        self.auto = D6.dist if a.kind == "vehicle" else None
        self.auto_p = odds(Weapon("Automatic hits", None, 1), a, d, self.ca, melee=True).p_wound_per_hit
        self.fear = fear_fail(a, d), fear_fail(d, a)
        self.hits_a: dict[int, float] = defaultdict(float)
        self.hits_d: dict[int, float] = defaultdict(float)
        self.order_p: dict[str, float] = defaultdict(float)
        self.orders: dict[str, dict[int, tuple[int, ...]]] = {}
        self.cache: dict[tuple, Strike] = {}
        self.objectives: dict[str, str] = {}
        # a side that still strikes after removing its casualties keeps what strikes back best
        self.rem_a, self.rem_d = melee_removals(a, d, c)
        self.fires_of: dict[tuple[str, UnitState], list[Fire]] = {}
        self.iid = Interner()
        self.states = self.iid.states
        self.fin: dict[tuple[int, int, int], float] = {}
        self.wounds_a: dict[int, float] = defaultdict(float)
        self.wounds_d: dict[int, float] = defaultdict(float)
        self.morale_cache: dict[tuple[int, int], list[tuple[int, float]]] = {}
        self.arr_cache: dict[int, Arrays] = {}
        self.settled = 0

    def side_fire(self, side: str, s_att: UnitState) -> list[Fire]:
        """All of ``side``'s melee attacks from state ``s_att`` (computed once per state)."""
        key = (side, s_att)
        if key not in self.fires_of:
            a, d, c = self.a, self.d, self.c
            if side == "a":
                fires = melee_fire(
                    a, s_att, d, self.ca, assaulting=True, placed=c.attacker_strikers, picks=self.pa
                )
            else:
                fires = melee_fire(
                    d, s_att, a, self.cd, assaulting=False, placed=c.defender_strikers, picks=self.pd
                )
            self.fires_of[key] = fires
        return self.fires_of[key]

    def hit(
        self,
        side: str,
        timing: Timing,
        tier: int,
        s_att: UnitState,
        s_tgt: UnitState,
        back: bool,
        joint: bool,
    ) -> Strike:
        """The strike of ``side``'s attacks of ``tier`` from ``s_att`` at the other side in ``s_tgt``
        (the attacker's automatic hits of a Vehicle in the tier of its unmodified weapons)."""
        key = (side, timing, tier, s_att, s_tgt, back, joint)
        if key not in self.cache:
            facing = self.c.facing
            if side == "a":
                fires = at_tier(timing, True, self.side_fire("a", s_att), tier)
                auto = self.auto
                here = auto is not None and s_att.models and timing.tier(True, Weapon("", None, 1)) == tier
                st = strike(
                    fires,
                    self.d,
                    s_tgt,
                    auto_hits=auto if here else None,
                    auto_p=self.auto_p,
                    facing=facing,
                    removal=self.rem_d[back],
                    with_hits=joint,
                )
            else:
                fires = at_tier(timing, False, self.side_fire("d", s_att), tier)
                st = strike(fires, self.a, s_tgt, facing=facing, removal=self.rem_a[back], with_hits=joint)
            self.cache[key] = st
            target = "defender" if side == "a" else "attacker"
            if target not in self.orders and st.orders:
                self.orders[target] = st.orders
                self.objectives[target] = (self.rem_d if side == "a" else self.rem_a)[back].objective
        return self.cache[key]

    def arrays(self, st: Strike | None, joint: bool) -> Arrays:
        """(wounds, target state id, hits, p) arrays of a strike's outcomes (hits 0 unless carried
        jointly); no strike: the target unchanged (state id -1)."""
        if st is None:
            return NO_STRIKE
        key = id(st)  # strikes stay alive in ``cache``
        if key not in self.arr_cache:
            iid = self.iid
            if joint:
                rows = [(w, iid(s_), h, p) for (w, s_, h), p in st.outcomes.items()]
            else:
                rows = [(w, iid(s_), 0, p) for (w, s_), p in st.outcomes.items()]
            w_, s_, h_, p_ = zip(*rows, strict=True)
            self.arr_cache[key] = (np.array(w_), np.array(s_), np.array(h_), np.array(p_, dtype=float))
        return self.arr_cache[key]

    def morale(self, side: int, i: int) -> list[tuple[int, float]]:
        """The loser's morale test from state ``i`` (:func:`~.strikes.loser_morale`), as state ids."""
        key = (side, i)
        if key not in self.morale_cache:
            unit = self.d if side == 1 else self.a
            self.morale_cache[key] = [
                (self.iid(s2), q) for s2, q in loser_morale(unit, self.states[i]) if q > 0
            ]
        return self.morale_cache[key]

    def settle(self, ia: int, i_d: int, win: int, p: float) -> None:
        """ "If a unit has caused more wounds than the other, then that unit counts as the winner. The
        opposing unit counts as the loser, and must then take a morale test." """
        fin = self.fin
        if win == 1:
            for j, q in self.morale(1, i_d):
                k = (ia, j, 1)
                fin[k] = fin.get(k, 0.0) + p * q
        elif win == 2:
            for j, q in self.morale(0, ia):
                k = (j, i_d, 2)
                fin[k] = fin.get(k, 0.0) + p * q
        else:
            k = (ia, i_d, 0)
            fin[k] = fin.get(k, 0.0) + p

    def budget(self, pairs: int) -> None:
        """Count the pairs about to be settled; refuse once the melee passes :data:`MAX_PAIRS`."""
        self.settled += pairs
        if self.settled > MAX_PAIRS:
            raise too_big(self.settled)

    def branch(self, a_fail: bool, d_fail: bool, p0: float, start: Columns) -> None:
        """One Fear branch (a side failing its Fear test strikes last, :meth:`~.attack.Timing.of`): the
        tiers of both sides' attacks in order, then the winner's and loser's morale."""
        a, sa, d, sd = self.a, self.sa, self.d, self.sd
        timing = Timing.of(a, sa, d, sd, self.c, a_fail, d_fail)
        ta, td = timing.tiers(True, self.side_fire("a", sa)), timing.tiers(False, self.side_fire("d", sd))
        if self.auto is not None:
            ta.add(timing.tier(True, Weapon("", None, 1)))
        self.order_p[Timing.label(ta, td)] += p0
        tiers = sorted(ta | td, reverse=True)
        ja, jd = len(ta) > 1, len(td) > 1  # hits carried jointly across tiers
        cols = start
        for n_t, t in enumerate(tiers):
            cols = self.tier(cols, timing, t, (ta, td), (ja, jd))
            if n_t < len(tiers) - 1 and cols[0].size > 1000:
                keys, inv = np.unique(np.stack(cols[:6]), axis=1, return_inverse=True)
                cols = [*keys, np.bincount(inv.reshape(-1), weights=cols[6])]
        self.close(cols, (ta, td), (ja, jd))

    def tier(
        self, cols: Columns, timing: Timing, t: int, sides: tuple[set, set], joint: tuple[bool, bool]
    ) -> Columns:
        """The outcomes after tier ``t``: each pair of unit states so far strikes at once (OP40k 2.21
        Melee: casualties removed after the tier)."""
        ta, td = sides
        a_back, d_back = any(x < t for x in ta), any(x < t for x in td)
        ia, i_d = cols[2], cols[3]
        pair = ia * (1 << 32) + i_d
        parts: list[list[np.ndarray]] = []
        for u in np.unique(pair):
            ia0, id0 = int(u >> 32), int(u & 0xFFFFFFFF)
            s_a, s_d = self.states[ia0], self.states[id0]
            live = not s_a.destroyed and not s_d.destroyed
            ra = self.hit("a", timing, t, s_a, s_d, d_back, joint[0]) if live and t in ta else None
            rd = self.hit("d", timing, t, s_d, s_a, a_back, joint[1]) if live and t in td else None
            parts.append(self.pair(cols, pair == u, (ia0, id0), (ra, rd), (t in ta, t in td), joint))
        return [np.concatenate(x) for x in zip(*parts, strict=True)]

    def pair(
        self,
        cols: Columns,
        m: np.ndarray,
        ids: tuple[int, int],
        strikes: tuple[Strike | None, Strike | None],
        striking: tuple[bool, bool],
        joint: tuple[bool, bool],
    ) -> Columns:
        """The rows ``m`` of one pair of unit states ``ids`` crossed with both strikes' outcomes."""
        wa, wd, _, _, ha, hd, p = cols
        (ra, rd), (ja, jd) = strikes, joint
        w1, j1, h1, p1 = self.arrays(ra, ja)
        w2, j2, h2, p2 = self.arrays(rd, jd)
        rows = int(m.sum())
        self.budget(rows * p1.size * p2.size)
        psum = float(p[m].sum())
        if striking[0] and not ja:
            _mix(self.hits_a, ra.hits if ra is not None else Dist.constant(0), psum)
        if striking[1] and not jd:
            _mix(self.hits_d, rd.hits if rd is not None else Dist.constant(0), psum)
        z1, z2 = np.zeros_like(w1), np.zeros_like(w2)
        zero = np.zeros(rows, np.int64)
        return [
            _grid(wa[m], w1, z2),
            _grid(wd[m], z1, w2),
            _grid(zero, z1, np.where(j2 < 0, ids[0], j2)),
            _grid(zero, np.where(j1 < 0, ids[1], j1), z2),
            _grid(ha[m], h1, z2),
            _grid(hd[m], z1, h2),
            (p[m][:, None, None] * p1[None, :, None] * p2[None, None, :]).ravel(),
        ]

    def close(self, cols: Columns, sides: tuple[set, set], joint: tuple[bool, bool]) -> None:
        """A branch's end: the wound and (jointly carried) hit laws, and the winner of each outcome
        settled (:meth:`settle`)."""
        wa, wd, ia, i_d, ha, hd, p = cols
        _add_counts(self.wounds_a, wa, p)
        _add_counts(self.wounds_d, wd, p)
        for acc, hh, jj, any_ in (
            (self.hits_a, ha, joint[0], sides[0]),
            (self.hits_d, hd, joint[1], sides[1]),
        ):
            if jj or not any_:
                _add_counts(acc, hh, p)
        win = np.where(wa > wd, 1, np.where(wd > wa, 2, 0))
        n_states = len(self.states)
        code = (ia * n_states + i_d) * 3 + win
        uniq, inv = np.unique(code, return_inverse=True)
        for cd_, q in zip(uniq.tolist(), np.bincount(inv.reshape(-1), weights=p).tolist(), strict=True):
            rest, w_ = divmod(cd_, 3)
            self.settle(rest // n_states, rest % n_states, w_, q)

    def run(self) -> Melee:
        """Every Fear branch (each side fails its test with :func:`~.strikes.fear_fail`), then the
        table and laws of the whole melee."""
        isa, isd = self.iid(self.sa), self.iid(self.sd)
        self.side_fire("a", self.sa)  # both sides' attacks from the start, before any branch
        self.side_fire("d", self.sd)
        fa, fd = self.fear
        for a_fail in (False, True):
            for d_fail in (False, True):
                p0 = (fa if a_fail else 1 - fa) * (fd if d_fail else 1 - fd)
                if p0 <= 0:
                    continue
                one = np.zeros(1, np.int64)
                self.branch(a_fail, d_fail, p0, [one, one, one + isa, one + isd, one, one, np.full(1, p0)])
        return Melee(
            self.fin,
            Dist.from_mapping(self.hits_a),
            Dist.from_mapping(self.hits_d),
            Dist.from_mapping(self.wounds_a),
            Dist.from_mapping(self.wounds_d),
            dict(self.order_p),
            self.orders,
            self.states,
            self.objectives,
            {"attacker": self.pa, "defender": self.pd},
        )


def _melee(a: Unit, sa: UnitState, d: Unit, sd: UnitState, c, pa: Picks, pd: Picks) -> Melee:
    """A melee: attacker assaults defender, with Piercing's options ``pa``/``pd`` per melee weapon.

    The attacks are resolved tier by tier (:class:`~.attack.Timing`: Strikes First weapons, then the
    others, then Strikes Last ones), each tier's attacks of both sides at once with casualties
    removed after it; a side whose attacks span several tiers carries its hits jointly with the
    outcomes (the later tiers' strikers depend on the earlier ones)."""
    return _MeleeTable(a, sa, d, sd, c, pa, pd).run()


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
            if answer_key is None or beats(k, answer_key):
                answer, answer_key = m, k
        assert answer is not None
        k = melee_value(answer, a, sa, d, sd, 0)
        if best_key is None or beats(k, best_key):
            best, best_key = answer, k
    assert best is not None
    best.plans_compared = n
    return best


__all__ = ["MAX_MELEE_PLANS", "MAX_PAIRS", "Melee", "melee_table", "melee_value", "too_big"]
