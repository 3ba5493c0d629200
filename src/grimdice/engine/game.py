"""A game interface in the style of game-playing libraries, and an exact expectimax solver.

A game is a tree of **states** (as in OpenSpiel): at each state either a player chooses one of the
:meth:`~State.legal_actions`, or chance picks one of the :meth:`~State.chance_outcomes` with its
probability, until the state is terminal and :meth:`~State.returns` gives its value: a vector of
features (e.g. P(enemy destroyed), wounds dealt, wounds taken) that each player reads through its
own objective. States are immutable, hashable values: :meth:`~State.apply` returns the next state,
so cloning is free and solvers can memoise on states.

:func:`expectimax` solves such a game exactly: chance nodes average their children, and at each
decision the player to move picks the action that is best for its own objective (a lexicographic
key over the feature vector, compared with a tolerance); ties go to the first legal action, so a
state's action order is its tie-break preference. The result is the subgame-perfect equilibrium
of a perfect-information game, with the chosen action at every decision state reached.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol, TypeVar

import numpy as np

CHANCE = -1  # current_player() of a chance node
TERMINAL = -2  # current_player() of a terminal state

TOL = 1e-12  # values closer than this are equal when choosing


class State(Protocol):
    """What a game state offers its players and solvers (see the module text)."""

    def current_player(self) -> int:
        """The player to move (0, 1, ...), :data:`CHANCE` or :data:`TERMINAL`."""
        ...

    def legal_actions(self) -> Sequence[Any]:
        """The actions of the player to move, in tie-break preference order."""
        ...

    def chance_outcomes(self) -> Sequence[tuple[Any, float]]:
        """At a chance node, every outcome with its probability (summing to 1)."""
        ...

    def apply(self, action: Any) -> State:
        """The state after ``action`` (a player's action or a chance outcome)."""
        ...

    def returns(self) -> Sequence[float]:
        """At a terminal state, the feature vector every objective reads."""
        ...


def observe(state: Any, player: int) -> Any:
    """What ``player`` may know of ``state``: its information state. A game with hidden
    information gives it as ``state.observation(player)`` (a state of the same class, in which
    what the player may not know is replaced by what is public, so that states differing only in
    hidden information observe alike, and the player to move has the same legal actions in it); a
    game of perfect information has none, and its observation is the state itself. Players decide
    from the observation only (:func:`grimdice.engine.playing.play_game`)."""
    see = getattr(state, "observation", None)
    return state if see is None else see(player)


S = TypeVar("S", bound=Hashable)
Objective = Callable[[int, np.ndarray], Sequence[float]]
"""``objective(player, features) -> keys``: the lexicographic keys the player maximises."""


def lex_better(a: Sequence[float], b: Sequence[float], tol: float = TOL) -> bool:
    """Whether key vector ``a`` is better than ``b`` (first difference beyond ``tol`` decides)."""
    for x, y in zip(a, b, strict=True):
        if x > y + tol:
            return True
        if x < y - tol:
            return False
    return False


def lex_better_rows(a: np.ndarray, b: np.ndarray, tol: float = TOL) -> np.ndarray:
    """:func:`lex_better` row by row for arrays of key vectors (keys on the last axis)."""
    diff = np.asarray(a, dtype=np.float64) - np.asarray(b, dtype=np.float64)
    sig = np.abs(diff) > tol
    first = np.argmax(sig, axis=-1)
    d = np.take_along_axis(diff, first[..., None], axis=-1)[..., 0]
    return sig.any(axis=-1) & (d > 0)


@dataclass
class Solution:
    """The value (expected features) of every state solved, and the action chosen at each
    decision state."""

    root: Any
    values: dict[Any, np.ndarray] = field(default_factory=dict)
    policy: dict[Any, Any] = field(default_factory=dict)

    @property
    def value(self) -> np.ndarray:
        return self.values[self.root]

    def play(self, state: Any, chance: Callable[[Sequence[tuple[Any, float]]], Any]) -> Any:
        """Follow the policy from ``state`` to the end, ``chance`` picking chance outcomes."""
        while state.current_player() != TERMINAL:
            if state.current_player() == CHANCE:
                state = state.apply(chance(state.chance_outcomes()))
            else:
                state = state.apply(self.policy[state])
        return state


def expectimax(
    root: Any, objective: Objective, *, tol: float = TOL, solution: Solution | None = None
) -> Solution:
    """Solve the game from ``root`` exactly (see the module text). States must be hashable.

    ``solution``: an earlier solution of the same game (same objective) to extend; its values are
    reused, so many roots of one game share their common subgames. It is returned with ``root``
    set to the new root."""
    sol = Solution(root) if solution is None else solution
    sol.root = root
    values, policy = sol.values, sol.policy
    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(max(limit, 20_000))

    def value(s: Any) -> np.ndarray:
        v = values.get(s)
        if v is not None:
            return v
        player = s.current_player()
        if player == TERMINAL:
            v = np.asarray(s.returns(), dtype=np.float64)
        elif player == CHANCE:
            v = sum(p * value(s.apply(o)) for o, p in s.chance_outcomes() if p > 0)
        else:
            best_a, best_v, best_k = None, None, None
            for a in s.legal_actions():
                va = value(s.apply(a))
                ka = objective(player, va)
                if best_k is None or lex_better(ka, best_k, tol):
                    best_a, best_v, best_k = a, va, ka
            if best_v is None:
                raise ValueError(f"a decision state has no legal action: {s!r}")
            policy[s] = best_a
            v = best_v
        values[s] = v
        return v

    try:
        value(root)
    finally:
        sys.setrecursionlimit(limit)
    return sol


__all__ = [
    "CHANCE",
    "TERMINAL",
    "Objective",
    "Solution",
    "State",
    "expectimax",
    "lex_better",
    "lex_better_rows",
    "observe",
]
