"""One roll-off as a game: the dice of both sides, their re-rolls and the defender's parry, solved
exactly with :func:`grimdice.engine.game.expectimax` and replayed by Monte Carlo.

Shooting is the case with no defending dice (section II); melee and mind war are contested rolls
(sections IV, VII). Order (IV: "If attacker and defender both have rerolls, attacker must reroll
first"): the defender declares a parry (reading ``parry_declared``), both pools are rolled, the
attacker may re-roll one die (his own, or with RO one of the defender's), then the defender may.
Only the first die of each re-roll chain is worth re-rolling (:mod:`.rolls`), so a decision is
"which kind of re-roll, or none". The result of the final totals is given by the system's
``resolve`` (damage, graze choices, pulling back), as an expected feature vector.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from grimdice.engine.game import CHANCE, TERMINAL, expectimax
from grimdice.errors import ScenarioError
from grimdice.systems.crusade.damage import CONDITIONS, KILLED, KO, STUNNED
from grimdice.systems.crusade.rolls import (
    DICE,
    MAXIMUM,
    NO_OPP,
    NO_OWN,
    OPP_CHAIN,
    OWN_CHAIN,
    OWN_RANK,
    Faces,
    Pool,
    opp_rank,
    pool_law,
)

REROLLS = ("none", "own", "opp")


class Layout:
    """Named one-hot segments of a feature vector (expected one-hots are distributions)."""

    def __init__(self, sizes: dict[str, int]) -> None:
        self.slices: dict[str, slice] = {}
        at = 0
        for name, n in sizes.items():
            self.slices[name] = slice(at, at + n)
            at += n
        self.size = at

    def onehot(self, **values: int) -> np.ndarray:
        v = np.zeros(self.size)
        for name, k in values.items():
            s = self.slices[name]
            v[s.start + min(k, s.stop - s.start - 1)] = 1.0
        return v

    def part(self, v: np.ndarray, name: str) -> np.ndarray:
        return v[self.slices[name]]


def layout_for(
    att_hits: int,
    def_hits: int,
    max_damage: int,
    bearer: bool = False,
    mob: int = 0,
    def_bearer: bool = False,
    target_near: bool = False,
) -> Layout:
    """The feature layout; ``bearer`` (a weapon the attacker uses may EXPLODE): also the attacker's
    end state (condition x hits left) alone and where his roll failed, the joint law EXPLODE's attack
    needs; ``def_bearer`` (the defender's melee weapon may EXPLODE): the same for the defender;
    ``mob`` (IX MOB, the models of a mob): how many of them are killed, KO'd or killed;
    ``target_near`` (shooting, the target also stands near the exploding bearer): the target's end
    state alone and where the attacker's roll failed (the state EXPLODE's attack finds him in)."""

    def states(side: str, hits: int, failed: str = "failed") -> dict[str, int]:
        return {
            f"{side}_state": len(CONDITIONS) * (hits + 1),
            f"{side}_state_{failed}": len(CONDITIONS) * (hits + 1),
        }

    return Layout(
        {
            **(states("att", att_hits) if bearer else {}),
            **(states("def", def_hits) if def_bearer else {}),
            **(states("def", def_hits, "att_failed") if target_near else {}),
            **({"mob_killed": mob + 1, "mob_ko": mob + 1} if mob else {}),
            "def_condition": len(CONDITIONS),
            "def_hits_left": def_hits + 1,
            "att_condition": len(CONDITIONS),
            "att_hits_left": att_hits + 1,
            "damage": max(1, max_damage) + 1,
            "att_damage": 2,
            "att_fail": 2,
            "def_fail": 2,
            "parry": 2,
            "att_reroll": 3,
            "def_reroll": 3,
            "pull_back": 2,
            "throw": 3,  # IX THROW instead of damage: 1 by the attacker, 2 by the defender
            "tie": 2,
            "big_kill": 2,
        }
    )


def harms(lay: Layout, v: np.ndarray, side: str) -> list[float]:
    """P(killed), P(KO or killed), P(wounded or worse), P(any condition), E[hits lost] of a side."""
    c = lay.part(v, f"{side}_condition")
    h = lay.part(v, f"{side}_hits_left")
    lost = float(np.dot(np.arange(h.size)[::-1], h))
    return [c[KILLED], c[KILLED] + c[KO], c[2:].sum(), c[STUNNED:].sum(), lost]


def _harm_rows(lay: Layout, side: str) -> np.ndarray:
    """The linear maps of :func:`harms` as rows over the feature vector."""
    rows = np.zeros((5, lay.size))
    c, h = lay.slices[f"{side}_condition"], lay.slices[f"{side}_hits_left"]
    rows[0, c.start + KILLED] = 1
    rows[1, [c.start + KILLED, c.start + KO]] = 1
    rows[2, c.start + 2 : c.stop] = 1
    rows[3, c.start + STUNNED : c.stop] = 1
    rows[4, h] = np.arange(h.stop - h.start)[::-1]
    if side == "att" and "mob_killed" in lay.slices:  # IX MOB: the mob's losses come first
        mob = np.zeros((2, lay.size))
        for j, name in enumerate(("mob_killed", "mob_ko")):
            m = lay.slices[name]
            mob[j, m] = np.arange(m.stop - m.start)
        rows = np.vstack([mob, rows])
    return rows


def objective_for(lay: Layout) -> Callable[[int, np.ndarray], list[float]]:
    """Attacker (0): harm the defender first, then avoid harm and fails; defender (1): the reverse."""
    d, a = _harm_rows(lay, "def"), _harm_rows(lay, "att")
    af, df = np.zeros((1, lay.size)), np.zeros((1, lay.size))
    af[0, lay.slices["att_fail"].start + 1] = 1
    df[0, lay.slices["def_fail"].start + 1] = 1
    keys = (np.vstack([d, -a, -af]), np.vstack([-d, a, -df]))

    def objective(player: int, v: np.ndarray) -> list[float]:
        return (keys[player] @ v).tolist()

    return objective


@dataclass(frozen=True)
class Side:
    pool: Pool
    own: bool = False  # may re-roll one of its own dice
    opp: bool = False  # may re-roll one of the opponent's dice


# ---------------------------------------------------------------------- re-roll transitions
def _maxes_after(f: Faces, kind: str, old: int, new: int) -> int:
    if f.failed:
        return 2  # III: "Rerolling will not undo a fail" (reading reroll_fail)
    return min(2, f.maxes - (old == MAXIMUM[kind]) + (new == MAXIMUM[kind]))


def reroll_own(f: Faces, new: int) -> Faces:
    """The owner re-rolls his best die (OWN_CHAIN[f.own]); it shows ``new``."""
    kind, old = OWN_CHAIN[f.own]
    return Faces(
        f.total - old + new, _maxes_after(f, kind, old, new), NO_OWN, min(f.opp, opp_rank(kind, new)), f.n
    )


def opp_target(f: Faces) -> tuple[str, int, bool]:
    """(kind, face, is the owner's own best die) of the die the opponent re-rolls."""
    if f.own != NO_OWN and opp_rank(*OWN_CHAIN[f.own]) < f.opp:
        return (*OWN_CHAIN[f.own], True)
    return (*OPP_CHAIN[f.opp], False)


def reroll_opp(f: Faces, new: int) -> Faces:
    """The opponent re-rolls this side's highest die; it shows ``new``."""
    kind, old, was_own = opp_target(f)
    own = OWN_RANK[(kind, new)] if was_own else min(f.own, OWN_RANK[(kind, new)])
    return Faces(f.total - old + new, _maxes_after(f, kind, old, new), own, NO_OPP, f.n)


def die_outcomes(kind: str) -> list[tuple[int, float]]:
    faces = DICE[kind].faces
    return [(g, faces.count(g) / len(faces)) for g in sorted(set(faces))]


# ---------------------------------------------------------------------- the game
P_PARRY, P_ROLL, P_ARR, P_ARR_ROLL, P_DRR, P_DRR_ROLL, P_END = range(7)


@dataclass(frozen=True)
class Spec:
    att: Side
    dfd: Side
    parries: tuple[int, ...]  # parry options of the defender (0: no parry)
    resolve: Callable[[int, int, int], np.ndarray]  # (attacker total, defender total, parry) -> features
    layout: Layout

    def __hash__(self) -> int:
        return id(self)


@dataclass(frozen=True)
class Contest:
    spec: Spec
    phase: int
    parry: int = 0
    a: Faces | None = None
    d: Faces | None = None
    arr: int = 0  # attacker's re-roll: index in REROLLS
    drr: int = 0

    def _mk(self, phase: int, **kw) -> Contest:
        """A copy with ``phase`` and the given fields (faster than ``dataclasses.replace``)."""
        return Contest(
            self.spec,
            phase,
            kw.get("parry", self.parry),
            kw.get("a", self.a),
            kw.get("d", self.d),
            kw.get("arr", self.arr),
            kw.get("drr", self.drr),
        )

    def current_player(self) -> int:
        return {P_PARRY: 1, P_ARR: 0, P_DRR: 1, P_END: TERMINAL}.get(self.phase, CHANCE)

    def legal_actions(self) -> list:
        s = self.spec
        if self.phase == P_PARRY:
            return list(s.parries)
        assert self.a is not None and self.d is not None
        me, other, side = (self.a, self.d, s.att) if self.phase == P_ARR else (self.d, self.a, s.dfd)
        acts = ["none"]
        if side.own and me.own != NO_OWN:
            acts.append("own")
        if side.opp and other.opp_all != NO_OPP:
            acts.append("opp")
        return acts

    def chance_outcomes(self) -> list:
        s = self.spec
        if self.phase == P_ROLL:
            return _rolls(
                s.att.pool.white,
                s.att.pool.red,
                s.dfd.pool.white,
                s.dfd.pool.red,
                s.att.own or s.att.opp or s.dfd.own or s.dfd.opp,
            )
        assert self.a is not None and self.d is not None
        if self.phase == P_ARR_ROLL:
            act, mine, theirs = REROLLS[self.arr], self.a, self.d
        else:
            act, mine, theirs = REROLLS[self.drr], self.d, self.a
        kind = OWN_CHAIN[mine.own][0] if act == "own" else opp_target(theirs)[0]
        return die_outcomes(kind)

    def apply(self, x):
        if self.phase == P_PARRY:
            return self._mk(P_ROLL, parry=x)
        if self.phase == P_ROLL:
            a, d = x
            return self._mk(P_ARR, a=a, d=d)._skip()
        if self.phase in (P_ARR, P_DRR):
            key = "arr" if self.phase == P_ARR else "drr"
            nxt = self._mk(self.phase + 1, **{key: REROLLS.index(x)})
            if x == "none":
                nxt = nxt._mk(self.phase + 2)
            return nxt._skip()
        assert self.a is not None and self.d is not None
        if self.phase == P_ARR_ROLL:
            if REROLLS[self.arr] == "own":
                return self._mk(P_DRR, a=reroll_own(self.a, x))._skip()
            return self._mk(P_DRR, d=reroll_opp(self.d, x))._skip()
        if REROLLS[self.drr] == "own":
            return self._mk(P_END, d=reroll_own(self.d, x))._end()
        return self._mk(P_END, a=reroll_opp(self.a, x))._end()

    def _end(self) -> Contest:
        assert self.a is not None and self.d is not None
        return self._mk(self.phase, a=_bare(self.a), d=_bare(self.d))

    def _skip(self) -> Contest:
        """Decision phases with only 'none' to play are passed; what no later step reads is
        forgotten, so equivalent states are one (the solver memoises on states)."""
        st = self
        while st.phase in (P_ARR, P_DRR) and st.legal_actions() == ["none"]:
            st = st._mk(st.phase + 2)
        if st.phase == P_DRR and st.a is not None and st.d is not None:
            a = Faces(st.a.total, st.a.maxes, NO_OWN, st.a.opp_all if st.spec.dfd.opp else NO_OPP, st.a.n)
            d = Faces(st.d.total, st.d.maxes, st.d.own if st.spec.dfd.own else NO_OWN, NO_OPP, st.d.n)
            st = st._mk(st.phase, a=a, d=d)
        if st.phase == P_END:
            st = st._end()
        return st

    def returns(self) -> np.ndarray:
        s, lay = self.spec, self.spec.layout
        assert self.a is not None and self.d is not None
        v = s.resolve(self.a.total, self.d.total, self.parry)
        out = v + lay.onehot(
            att_fail=int(self.a.failed),
            def_fail=int(self.d.failed) if self.d.n else 0,
            parry=int(self.parry > 0),
            att_reroll=self.arr,
            def_reroll=self.drr,
        )
        if self.a.failed and "att_state" in lay.slices:  # the bearer's state where his roll failed
            out[lay.slices["att_state_failed"]] = lay.part(v, "att_state")
        if self.d.n and self.d.failed and "def_state_failed" in lay.slices:  # the defending bearer's
            out[lay.slices["def_state_failed"]] = lay.part(v, "def_state")
        if self.a.failed and "def_state_att_failed" in lay.slices:  # the target near the bearer
            out[lay.slices["def_state_att_failed"]] = lay.part(v, "def_state")
        return out


def _bare(f: Faces) -> Faces:
    """Only the total, whether it failed and the dice count: all a finished roll needs."""
    return Faces(f.total, 2 if f.failed else 0, NO_OWN, NO_OPP, f.n)


@lru_cache(maxsize=64)
def _rolls(aw: int, ar: int, dw: int, dr: int, track: bool) -> list[tuple[tuple[Faces, Faces], float]]:
    return [((fa, fd), pa * pd) for fa, pa in pool_law(aw, ar, track) for fd, pd in pool_law(dw, dr, track)]


def root(spec: Spec) -> Contest:
    return Contest(spec, P_PARRY if len(spec.parries) > 1 else P_ROLL, spec.parries[0])


#: rolled-pool pairs the exact re-roll game solves (about 1-2 ms each on a slow shared core, so the
#: largest allowed game finishes in seconds; 20 000 took 30-40 s, see docs/limits.md)
MAX_ROLL_PAIRS = 4_000
SECONDS_PER_PAIR = 2e-3


def solve(spec: Spec):
    """The exact solution (values and policy) of the contest.

    Raises :class:`ScenarioError` when re-rolls make the game too large to solve exactly."""
    a, d = spec.att, spec.dfd
    track = a.own or a.opp or d.own or d.opp
    if track:
        pairs = len(pool_law(a.pool.white, a.pool.red)) * len(pool_law(d.pool.white, d.pool.red))
        if pairs * len(spec.parries) > MAX_ROLL_PAIRS:
            raise ScenarioError(
                "attacker.melee",
                f"{a.pool.text} against {d.pool.text} with re-rolls is too large to solve exactly "
                f"({pairs * len(spec.parries)} roll pairs, at most {MAX_ROLL_PAIRS}; about "
                f"{pairs * len(spec.parries) * SECONDS_PER_PAIR:.0f} s); use fewer dice or re-rolls",
            )
    return expectimax(root(spec), objective_for(spec.layout))


def die_name(kind: str, face: int) -> str:
    """A die as the reports write it: ``R0`` is a red die showing 0."""
    return f"{kind}{face}"


def rerolled_dice(spec: Spec, sol) -> dict[str, dict[str, float]]:
    """Which die each side re-rolls under the solved policy, and how often (VIII R / RO: "which die
    to re-roll" is the side's choice): ``{"attacker": {"own R0": p, "opponent W2": p}, ...}``,
    found by carrying the law of the game states forward from the root."""
    out: dict[str, dict[str, float]] = {"attacker": {}, "defender": {}}
    law: dict[Contest, float] = {root(spec): 1.0}
    while law:
        nxt: dict[Contest, float] = {}
        for st, p in law.items():
            player = st.current_player()
            if player == TERMINAL:
                continue
            if player == CHANCE:
                moves = [(st.apply(o), p * q) for o, q in st.chance_outcomes() if q > 0]
            else:
                act = sol.policy[st]
                if st.phase in (P_ARR, P_DRR) and act != "none":
                    assert st.a is not None and st.d is not None
                    mine, theirs = (st.a, st.d) if st.phase == P_ARR else (st.d, st.a)
                    kind, face = OWN_CHAIN[mine.own] if act == "own" else opp_target(theirs)[:2]
                    who = out["attacker" if st.phase == P_ARR else "defender"]
                    name = f"{'own' if act == 'own' else 'opponent'} {die_name(kind, face)}"
                    who[name] = who.get(name, 0.0) + p
                moves = [(st.apply(act), p)]
            for s2, q in moves:
                nxt[s2] = nxt.get(s2, 0.0) + q
        law = nxt
    return {k: dict(sorted(v.items())) for k, v in out.items()}


__all__ = [
    "Contest",
    "Layout",
    "Side",
    "Spec",
    "harms",
    "layout_for",
    "reroll_opp",
    "reroll_own",
    "rerolled_dice",
    "root",
    "solve",
]
