"""The contest compiled to plain integer states (:class:`Game`): the same game as the
:class:`~grimdice.systems.crusade.contest.states.Contest` states, step by step, with each side's
faces interned and every transition memoised, for the solver and the Monte Carlo tables.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from grimdice.engine.game import CHANCE
from grimdice.systems.crusade.contest.states import (
    _PLAYER,
    P_ARR,
    P_ARR_ROLL,
    P_DRR,
    P_DRR_ROLL,
    P_END,
    P_PARRY,
    P_ROLL,
    REROLLS,
    Spec,
    _bare,
    _drr_faces,
    _legal,
    _reroll_kind,
    _returns,
    die_outcomes,
    reroll_opp,
    reroll_own,
)
from grimdice.systems.crusade.rolls import Faces, pool_law

Key = tuple[int, int, int, int, int, int]
"""A compiled contest state: ``(phase, parry, attacker faces id, defender faces id, arr, drr)``."""


class Game:
    """The :class:`~.states.Contest` of one spec with plain integer states (:data:`Key`): each side's
    :class:`Faces` interned (ids in :func:`pool_law` order first, so a rolled pool's id is its index
    in the law), the transitions memoised. Two keys are equal exactly when the :class:`Contest`
    states they stand for are, and every step is the Contest's own (the helpers of :mod:`.states`),
    so it is the same game: solved (:func:`~.solver.solve`), walked (:func:`~.solver.rerolled_dice`)
    and compiled for Monte Carlo without a state object per step."""

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


__all__ = ["Game", "Key"]
