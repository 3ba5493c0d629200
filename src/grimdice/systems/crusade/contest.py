"""One roll-off as a game: the dice of both sides, their re-rolls and the defender's parry, solved
exactly and replayed by Monte Carlo. :class:`Contest` is the game as
:class:`grimdice.engine.game.State` objects (what :func:`~grimdice.engine.game.expectimax` solves);
:class:`Game` is the same game on plain integer states, solved phase by phase (:func:`solve`) with
the same values and decisions, bit for bit (``tests/crusade/test_contest_game.py``).

Shooting is the case with no defending dice (section II); melee and mind war are contested rolls
(sections IV, VII). Order (IV: "If attacker and defender both have rerolls, attacker must reroll
first"): the defender declares a parry (reading ``parry_declared``), both pools are rolled, the
attacker may re-roll one die (his own, or with RO one of the defender's), then the defender may.
Only the first die of each re-roll chain is worth re-rolling (:mod:`.rolls`), so a decision is
"which kind of re-roll, or none". The result of the final totals is given by the system's
``resolve`` (damage, graze choices, pulling back), as an expected feature vector.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

import numpy as np

from grimdice.dice.fold import face_law
from grimdice.engine.game import CHANCE, TERMINAL, TOL, Solution
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


def objective_keys(lay: Layout) -> tuple[np.ndarray, np.ndarray]:
    """Each player's lexicographic keys as rows over the feature vector: attacker (0): harm the
    defender first, then avoid harm and fails; defender (1): the reverse."""
    d, a = _harm_rows(lay, "def"), _harm_rows(lay, "att")
    af, df = np.zeros((1, lay.size)), np.zeros((1, lay.size))
    af[0, lay.slices["att_fail"].start + 1] = 1
    df[0, lay.slices["def_fail"].start + 1] = 1
    return np.vstack([d, -a, -af]), np.vstack([-d, a, -df])


def objective_for(lay: Layout) -> Callable[[int, np.ndarray], list[float]]:
    """The players' objectives (:func:`objective_keys`) as :func:`~.game.expectimax` reads them."""
    keys = objective_keys(lay)

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


def die_outcomes(kind: str) -> tuple[tuple[int, float], ...]:
    """The faces of a die of ``kind`` with their probabilities."""
    return face_law(DICE[kind].faces)


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


def _legal(spec: Spec, phase: int, a: Faces, d: Faces) -> list[str]:
    """The re-rolls open at the attacker's decision (``P_ARR``) or the defender's (``P_DRR``),
    "none" first (the tie-break preference)."""
    me, other, side = (a, d, spec.att) if phase == P_ARR else (d, a, spec.dfd)
    acts = ["none"]
    if side.own and me.own != NO_OWN:
        acts.append("own")
    if side.opp and other.opp_all != NO_OPP:
        acts.append("opp")
    return acts


def _drr_faces(spec: Spec, a: Faces, d: Faces) -> tuple[Faces, Faces]:
    """At the defender's decision only what he still reads is kept (the attacker has re-rolled):
    equivalent states are one (the solver memoises on states)."""
    return (
        Faces(a.total, a.maxes, NO_OWN, a.opp_all if spec.dfd.opp else NO_OPP, a.n),
        Faces(d.total, d.maxes, d.own if spec.dfd.own else NO_OWN, NO_OPP, d.n),
    )


def _reroll_kind(act: str, mine: Faces, theirs: Faces) -> str:
    """The kind of die a re-roll ``act`` rolls: the roller's best own die ("own") or the
    opponent's die he re-rolls ("opp")."""
    return OWN_CHAIN[mine.own][0] if act == "own" else opp_target(theirs)[0]


def _returns(spec: Spec, parry: int, a: Faces, d: Faces, arr: int, drr: int) -> np.ndarray:
    """The features of a finished contest: the resolution of the totals, the fails, the parry,
    the re-rolls taken, and the end states the EXPLODE attacks need where a roll failed."""
    lay = spec.layout
    v = spec.resolve(a.total, d.total, parry)
    out = v + _flags(lay, int(a.failed), int(d.failed) if d.n else 0, int(parry > 0), arr, drr)
    if a.failed and "att_state" in lay.slices:  # the bearer's state where his roll failed
        out[lay.slices["att_state_failed"]] = lay.part(v, "att_state")
    if d.n and d.failed and "def_state_failed" in lay.slices:  # the defending bearer's
        out[lay.slices["def_state_failed"]] = lay.part(v, "def_state")
    if a.failed and "def_state_att_failed" in lay.slices:  # the target near the bearer
        out[lay.slices["def_state_att_failed"]] = lay.part(v, "def_state")
    return out


@lru_cache(maxsize=4096)
def _flags(lay: Layout, att_fail: int, def_fail: int, parry: int, arr: int, drr: int) -> np.ndarray:
    """The one-hots of a finished contest's fails, parry and re-rolls (read-only, shared)."""
    v = lay.onehot(att_fail=att_fail, def_fail=def_fail, parry=parry, att_reroll=arr, def_reroll=drr)
    v.flags.writeable = False
    return v


@dataclass(frozen=True)
class Contest:
    """The contest as :class:`grimdice.engine.game.State` objects: the definition the generic
    :func:`~grimdice.engine.game.expectimax` solves (the tests' reference for :class:`Game`)."""

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
        return _PLAYER.get(self.phase, CHANCE)

    def legal_actions(self) -> list:
        if self.phase == P_PARRY:
            return list(self.spec.parries)
        assert self.a is not None and self.d is not None
        return _legal(self.spec, self.phase, self.a, self.d)

    def chance_outcomes(self) -> Sequence[tuple[Any, float]]:
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
            return die_outcomes(_reroll_kind(REROLLS[self.arr], self.a, self.d))
        return die_outcomes(_reroll_kind(REROLLS[self.drr], self.d, self.a))

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
            a, d = _drr_faces(st.spec, st.a, st.d)
            st = st._mk(st.phase, a=a, d=d)
        if st.phase == P_END:
            st = st._end()
        return st

    def returns(self) -> np.ndarray:
        assert self.a is not None and self.d is not None
        return _returns(self.spec, self.parry, self.a, self.d, self.arr, self.drr)


_PLAYER = {P_PARRY: 1, P_ARR: 0, P_DRR: 1, P_END: TERMINAL}


def _bare(f: Faces) -> Faces:
    """Only the total, whether it failed and the dice count: all a finished roll needs."""
    return Faces(f.total, 2 if f.failed else 0, NO_OWN, NO_OPP, f.n)


@lru_cache(maxsize=64)
def _rolls(aw: int, ar: int, dw: int, dr: int, track: bool) -> list[tuple[tuple[Faces, Faces], float]]:
    return [((fa, fd), pa * pd) for fa, pa in pool_law(aw, ar, track) for fd, pd in pool_law(dw, dr, track)]


def root(spec: Spec) -> Contest:
    return Contest(spec, P_PARRY if len(spec.parries) > 1 else P_ROLL, spec.parries[0])


# ---------------------------------------------------------------------- the compiled game
Key = tuple[int, int, int, int, int, int]
"""A compiled contest state: ``(phase, parry, attacker faces id, defender faces id, arr, drr)``."""


class Game:
    """The :class:`Contest` of one spec with plain integer states (:data:`Key`): each side's
    :class:`Faces` interned (ids in :func:`pool_law` order first, so a rolled pool's id is its index
    in the law), the transitions memoised. Two keys are equal exactly when the :class:`Contest`
    states they stand for are, and every step is the Contest's own (the helpers above), so it is
    the same game: solved (:func:`solve`), walked (:func:`rerolled_dice`) and compiled for Monte
    Carlo without a state object per step."""

    def __init__(self, spec: Spec) -> None:
        self.spec = spec
        a, d = spec.att, spec.dfd
        self.track = a.own or a.opp or d.own or d.opp
        self.laws = tuple(pool_law(s.pool.white, s.pool.red, self.track) for s in (a, d))
        self.faces: tuple[list[Faces], list[Faces]] = ([], [])
        self._ids: tuple[dict[Faces, int], dict[Faces, int]] = ({}, {})
        for side, law in enumerate(self.laws):
            for f, _ in law:
                self._id(side, f)
        self._memo: dict[tuple, Key] = {}
        self._after_ids: dict[tuple, int] = {}  # faces ids after a step (bared, re-rolled)

    def _id(self, side: int, f: Faces) -> int:
        ids = self._ids[side]
        k = ids.get(f)
        if k is None:
            k = ids[f] = len(self.faces[side])
            self.faces[side].append(f)
        return k

    def root(self) -> Key:
        s = self.spec
        return (P_PARRY if len(s.parries) > 1 else P_ROLL, s.parries[0], -1, -1, 0, 0)

    @staticmethod
    def player(key: Key) -> int:
        return _PLAYER.get(key[0], CHANCE)

    def actions(self, key: Key) -> list:
        if key[0] == P_PARRY:
            return list(self.spec.parries)
        return _legal(self.spec, key[0], self.faces[0][key[2]], self.faces[1][key[3]])

    def child(self, key: Key, act) -> Key:
        """The state after a decision (the parry, or a re-roll: "none", "own", "opp")."""
        phase, parry, a, d, arr, _ = key
        if phase == P_PARRY:
            return (P_ROLL, act, -1, -1, 0, 0)
        i = REROLLS.index(act)
        if phase == P_ARR:
            return self._drr(parry, a, d, 0) if i == 0 else (P_ARR_ROLL, parry, a, d, i, 0)
        return self._end(parry, a, d, arr, 0) if i == 0 else (P_DRR_ROLL, parry, a, d, arr, i)

    def outcomes(self, key: Key) -> list[tuple[Key, float]]:
        """A chance state's children with their probabilities, in the Contest's order."""
        if key[0] == P_ROLL:
            la, ld = self.laws
            parry = key[1]
            return [
                (self.rolled(parry, i, j), pa * pd)
                for i, (_, pa) in enumerate(la)
                for j, (_, pd) in enumerate(ld)
            ]
        return [(self.rerolled(key, g), q) for g, q in die_outcomes(self.reroll_kind(key))]

    def rolled(self, parry: int, a: int, d: int) -> Key:
        """The state once both pools are rolled (their faces ids ``a``, ``d``)."""
        m = (P_ROLL, parry, a, d)
        k = self._memo.get(m)
        if k is None:
            if _legal(self.spec, P_ARR, self.faces[0][a], self.faces[1][d]) != ["none"]:
                k = (P_ARR, parry, a, d, 0, 0)
            else:
                k = self._drr(parry, a, d, 0)
            self._memo[m] = k
        return k

    def _drr(self, parry: int, a: int, d: int, arr: int) -> Key:
        m = (P_DRR, a, d)
        k = self._memo.get(m)
        if k is None:
            fa, fd = self.faces[0][a], self.faces[1][d]
            if _legal(self.spec, P_DRR, fa, fd) == ["none"]:
                k = self._memo[m] = (P_END, 0, self._bare(0, a), self._bare(1, d), 0, 0)
            else:
                ca, cd = _drr_faces(self.spec, fa, fd)
                k = self._memo[m] = (P_DRR, 0, self._id(0, ca), self._id(1, cd), 0, 0)
        return (k[0], parry, k[2], k[3], arr, 0)

    def _end(self, parry: int, a: int, d: int, arr: int, drr: int) -> Key:
        return (P_END, parry, self._bare(0, a), self._bare(1, d), arr, drr)

    def _bare(self, side: int, i: int) -> int:
        m = (P_END, side, i)
        k = self._after_ids.get(m)
        if k is None:
            k = self._after_ids[m] = self._id(side, _bare(self.faces[side][i]))
        return k

    def _after(self, side: int, i: int, act: int, g: int) -> int:
        """The faces id of side ``side`` after a re-roll ``act`` (1 its own, 2 the opponent's) shows ``g``."""
        m = (P_ROLL, side, i, act, g)
        k = self._after_ids.get(m)
        if k is None:
            f = self.faces[side][i]
            k = self._after_ids[m] = self._id(side, reroll_own(f, g) if act == 1 else reroll_opp(f, g))
        return k

    def reroll_kind(self, key: Key) -> str:
        """The kind of die a re-roll state rolls."""
        fa, fd = self.faces[0][key[2]], self.faces[1][key[3]]
        if key[0] == P_ARR_ROLL:
            return _reroll_kind(REROLLS[key[4]], fa, fd)
        return _reroll_kind(REROLLS[key[5]], fd, fa)

    def rerolled(self, key: Key, g: int) -> Key:
        """The state after a re-roll state's die shows ``g``."""
        phase, parry, a, d, arr, drr = key
        if phase == P_ARR_ROLL and arr == 1:
            return self._drr(parry, self._after(0, a, 1, g), d, arr)
        if phase == P_ARR_ROLL:
            return self._drr(parry, a, self._after(1, d, 2, g), arr)
        if drr == 1:
            return self._end(parry, a, self._after(1, d, 1, g), arr, drr)
        return self._end(parry, self._after(0, a, 2, g), d, arr, drr)

    def returns(self, key: Key) -> np.ndarray:
        _, parry, a, d, arr, drr = key
        return _returns(self.spec, parry, self.faces[0][a], self.faces[1][d], arr, drr)

    def settle(self, key: Key, policy: dict[Key, Any]) -> Key:
        """The first re-roll or terminal state from ``key``, the decisions played by ``policy``."""
        while _PLAYER.get(key[0], CHANCE) >= 0:
            key = self.child(key, policy[key])
        return key


@dataclass
class Solved(Solution):
    """The solved contest as a :class:`~grimdice.engine.game.Solution` of the compiled
    :attr:`game`: values and policy keyed by its :data:`Key` states (walked with the game's own
    steps, :meth:`Game.settle`, not :meth:`~grimdice.engine.game.Solution.play`)."""

    game: Game = field(kw_only=True)


#: rolled-pool pairs the exact re-roll game solves (about 0.1 ms each on the shared 2-core machine
#: with the compiled game: 2 800 pairs of 3W+1R against 3W+1R, both with re-rolls, in 0.3 s)
MAX_ROLL_PAIRS = 4_000
SECONDS_PER_PAIR = 2e-4


def solve(spec: Spec) -> Solved:
    """The exact solution (values and policy) of the contest: :func:`~grimdice.engine.game.expectimax`
    on the compiled :class:`Game` (the same sums in the same order, the same tie-breaks: the values
    are those of the generic solver on :class:`Contest`, bit for bit; the tests check it).

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
    game = Game(spec)
    root = game.root()
    keys: list[Key] = [root]  # every state reached
    edges: list[tuple[Sequence[int], Sequence[Any]]] = []  # its children, their probabilities or actions
    index = {root: 0}
    for key in keys:  # grows while it is walked
        player = _PLAYER.get(key[0], CHANCE)
        if player == TERMINAL:
            edges.append(((), ()))
            continue
        if player == CHANCE:
            kids, labels = zip(*((k, p) for k, p in game.outcomes(key) if p > 0), strict=True)
        else:
            labels = tuple(game.actions(key))
            kids = tuple(game.child(key, a) for a in labels)
        for k in kids:
            if k not in index:
                index[k] = len(keys)
                keys.append(k)
        edges.append(([index[k] for k in kids], labels))
    table = np.empty((len(keys), spec.layout.size))
    policy: dict[Key, Any] = {}
    objective = objective_keys(spec.layout)
    by_phase: dict[int, list[int]] = {}
    for i, key in enumerate(keys):
        by_phase.setdefault(key[0], []).append(i)
    for phase in sorted(by_phase, reverse=True):  # a state's children are in later phases
        nodes = by_phase[phase]
        player = _PLAYER.get(phase, CHANCE)
        if player == TERMINAL:
            table[nodes] = [game.returns(keys[i]) for i in nodes]
            continue
        groups: dict[int, list[int]] = {}
        for i in nodes:
            groups.setdefault(len(edges[i][0]), []).append(i)
        for group in groups.values():
            kids = table[np.array([edges[i][0] for i in group])]  # (states, children, features)
            if player == CHANCE:  # as sum(): 0, then each child times its probability, in order
                probs = np.array([edges[i][1] for i in group])
                table[group] = np.add.accumulate(probs[:, :, None] * kids, axis=1)[:, -1]
                continue
            best = _first_best(kids @ objective[player].T)
            table[group] = kids[np.arange(len(group)), best]
            for i, b in zip(group, best.tolist(), strict=True):
                policy[keys[i]] = edges[i][1][b]
    return Solved(root, dict(zip(keys, table, strict=True)), policy, game=game)


def _first_best(keys: np.ndarray) -> np.ndarray:
    """Per row of ``keys`` (states, actions, keys), the first action whose keys no later one beats
    (:func:`~grimdice.engine.game.lex_better` with :data:`~grimdice.engine.game.TOL`, row by row)."""
    rows = np.arange(keys.shape[0])
    best = np.zeros(keys.shape[0], dtype=np.intp)
    for j in range(1, keys.shape[1]):
        a, b = keys[:, j], keys[rows, best]
        gt, lt = a > b + TOL, a < b - TOL
        decided = gt | lt
        first = decided.argmax(axis=1)
        better = decided.any(axis=1) & gt[rows, first]
        best[better] = j
    return best


def die_name(kind: str, face: int) -> str:
    """A die as the reports write it: ``R0`` is a red die showing 0."""
    return f"{kind}{face}"


def rerolled_dice(spec: Spec, sol: Solved) -> dict[str, dict[str, float]]:
    """Which die each side re-rolls under the solved policy, and how often (VIII R / RO: "which die
    to re-roll" is the side's choice): ``{"attacker": {"own R0": p, "opponent W2": p}, ...}``,
    found by carrying the law of the game states forward from the root."""
    game = sol.game
    out: dict[str, dict[str, float]] = {"attacker": {}, "defender": {}}
    law: dict[Key, float] = {sol.root: 1.0}
    while law:
        nxt: dict[Key, float] = {}
        for st, p in law.items():
            player = game.player(st)
            if player == TERMINAL:
                continue
            if player == CHANCE:
                moves = [(k, p * q) for k, q in game.outcomes(st) if q > 0]
            else:
                act = sol.policy[st]
                if st[0] in (P_ARR, P_DRR) and act != "none":
                    fa, fd = game.faces[0][st[2]], game.faces[1][st[3]]
                    mine, theirs = (fa, fd) if st[0] == P_ARR else (fd, fa)
                    kind, face = OWN_CHAIN[mine.own] if act == "own" else opp_target(theirs)[:2]
                    who = out["attacker" if st[0] == P_ARR else "defender"]
                    name = f"{'own' if act == 'own' else 'opponent'} {die_name(kind, face)}"
                    who[name] = who.get(name, 0.0) + p
                moves = [(game.child(st, act), p)]
            for s2, q in moves:
                nxt[s2] = nxt.get(s2, 0.0) + q
        law = nxt
    return {k: dict(sorted(v.items())) for k, v in out.items()}


__all__ = [
    "Contest",
    "Game",
    "Layout",
    "Side",
    "Solved",
    "Spec",
    "harms",
    "layout_for",
    "reroll_opp",
    "reroll_own",
    "rerolled_dice",
    "root",
    "solve",
]
