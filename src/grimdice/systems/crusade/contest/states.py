"""The rules of one roll-off as game states: the sides, the phases, the re-roll transitions and
the :class:`Contest` states (the definition :func:`~grimdice.engine.game.expectimax` solves, and the
steps :class:`~grimdice.systems.crusade.contest.compiled.Game` compiles).

Order (IV: "If attacker and defender both have rerolls, attacker must reroll first"): the defender
declares a parry (reading ``parry_declared``), both pools are rolled, the attacker may re-roll one
die (his own, or with RO one of the defender's), then the defender may. Only the first die of each
re-roll chain is worth re-rolling (:mod:`~grimdice.systems.crusade.rolls`), so a decision is
"which kind of re-roll, or none".
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

import numpy as np

from grimdice.dice.fold import face_law
from grimdice.engine.game import CHANCE, TERMINAL
from grimdice.systems.crusade.contest.features import Layout
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
    :func:`~grimdice.engine.game.expectimax` solves (the tests' reference for :class:`~.compiled.Game`)."""

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


__all__ = [
    "REROLLS",
    "Contest",
    "Side",
    "Spec",
    "die_outcomes",
    "opp_target",
    "reroll_opp",
    "reroll_own",
    "root",
]
