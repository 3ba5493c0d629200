"""The Resolve Successful Hits step solved for both sides' objectives by the engine's expectimax.

Each side's :class:`~grimdice.systems.killteam.fight.state.Objective` is a list of lexicographic
keys, each a linear function of the fight's features (wounds left, incapacitated, critical strikes
of each side; see :meth:`ResolutionState.returns`). :class:`FightKeys` holds them once and reads
them both per state (for :func:`grimdice.engine.game.expectimax`) and on arrays of states (for the
roll step's vectorised choices). :class:`Resolution` solves the strike/parry game from any dice
both sides retain, sharing the solved positions between starting positions.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from grimdice.engine.game import Solution, expectimax
from grimdice.systems.killteam.fight.state import (
    OBJECTIVE_KEYS,
    SIDES,
    Duel,
    Hits,
    Outcome,
    ResolutionState,
)

#: key values closer than this are equal when a side chooses (then the preference order decides)
FIGHT_TOL = 1e-9

_KEY_TEXT = {
    "kill": "p_enemy_incapacitated",
    "dealt": "expected_damage_dealt",
    "-taken": "expected_damage_taken",
    "-dead": "p_incapacitated",
    "crits": "expected_critical_strikes",
}


class FightKeys:
    """The objective keys of both sides: ``key = sign * features[index] + offset``."""

    def __init__(self, duel: Duel) -> None:
        self.objectives = (duel.attacker.objective, duel.defender.objective)
        wounds = (duel.attacker.wounds, duel.defender.wounds)
        self.terms: list[list[tuple[int, int, int]]] = []
        for side in (0, 1):
            other = 1 - side
            table = {
                "kill": (2 + other, 1, 0),  # P(enemy incapacitated)
                "dealt": (other, -1, wounds[other]),  # wounds the enemy lost
                "-taken": (side, 1, -wounds[side]),  # minus wounds lost
                "-dead": (2 + side, -1, 0),  # minus P(own operative incapacitated)
                "crits": (4 + side, 1, 0),  # own critical strikes
            }
            self.terms.append([table[k] for k in OBJECTIVE_KEYS[self.objectives[side]]])
        self._arrays = [tuple(np.array(col) for col in zip(*t, strict=True)) for t in self.terms]

    def __call__(self, side: int, features: np.ndarray | Sequence[float]) -> tuple[float, ...]:
        """The keys ``side`` maximises, for one feature vector (the expectimax objective)."""
        q = features.tolist() if isinstance(features, np.ndarray) else features
        return tuple([sign * q[i] + offset for i, sign, offset in self.terms[side]])

    def rows(self, features: np.ndarray, side: int) -> np.ndarray:
        """The keys of ``side`` for an array of feature vectors (features on the last axis)."""
        index, sign, offset = self._arrays[side]
        return features[..., index] * sign + offset

    def report(self, features: np.ndarray) -> dict[str, dict[str, Any]]:
        """Each side's objective and the value of its first key (and its tie-break)."""
        out: dict[str, dict[str, Any]] = {}
        for side, name in enumerate(SIDES):
            keys = self.rows(np.asarray(features, dtype=float), side)
            names = OBJECTIVE_KEYS[self.objectives[side]]
            out[name] = {"objective": self.objectives[side].value}
            for n, v in zip(names[:2], keys[:2], strict=True):
                out[name][_KEY_TEXT[n]] = float(abs(v) if n.startswith("-") else v)
        return out


class Resolution:
    """The resolution step of one fight, solved by :func:`~grimdice.engine.game.expectimax` from
    any starting dice; solved positions are shared between starting positions."""

    def __init__(self, duel: Duel, keys: FightKeys) -> None:
        self.duel = duel
        self.keys = keys
        self.solution: Solution | None = None

    def start(self, attacker: Hits, defender: Hits) -> ResolutionState:
        return ResolutionState.start(self.duel, attacker, defender)

    def features(self, attacker: Hits, defender: Hits) -> np.ndarray:
        """Features of the fight's end under both sides' best play from these retained dice."""
        root = self.start(attacker, defender)
        if self.solution is not None and root in self.solution.values:
            return self.solution.values[root]
        self.solution = expectimax(root, self.keys, tol=FIGHT_TOL, solution=self.solution)
        return self.solution.value

    def outcome(self, attacker: Hits, defender: Hits) -> Outcome:
        """How the fight ends (the resolution is deterministic once the dice are known)."""
        v = self.features(attacker, defender)
        return Outcome(int(v[0]), int(v[1]), int(v[4]), int(v[5]))

    @property
    def policy(self) -> dict[ResolutionState, Any]:
        return {} if self.solution is None else self.solution.policy

    def line(self, attacker: Hits, defender: Hits) -> list[str]:
        """The moves both sides play from these retained dice, in words."""
        self.features(attacker, defender)
        state = self.start(attacker, defender)
        out = []
        while state.to_move in (0, 1):
            move = self.policy[state]
            out.append(f"{SIDES[state.to_move]} {move.text}")
            state = state.apply(move)
        return out
