"""The contest solved exactly, phase by phase (:func:`solve`), and which dice the solved policy
re-rolls (:func:`rerolled_dice`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from grimdice.engine.game import CHANCE, TERMINAL, TOL, Solution
from grimdice.errors import ScenarioError
from grimdice.systems.crusade.contest.compiled import Game, Key
from grimdice.systems.crusade.contest.features import objective_keys
from grimdice.systems.crusade.contest.states import _PLAYER, P_ARR, P_DRR, Spec, opp_target
from grimdice.systems.crusade.rolls import OWN_CHAIN, pool_law


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


def check_size(spec: Spec) -> None:
    """Raises :class:`ScenarioError` when re-rolls make the contest too large to solve exactly."""
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


def solve(spec: Spec, game: Game | None = None) -> Solved:
    """The exact solution (values and policy) of the contest: :func:`~grimdice.engine.game.expectimax`
    on the compiled :class:`Game` (the same sums in the same order, the same tie-breaks: the values
    are those of the generic solver on :class:`~.states.Contest`, bit for bit; the tests check it);
    ``game``: the spec's compiled game when the caller has it already.

    Raises :class:`ScenarioError` when re-rolls make the game too large to solve exactly."""
    check_size(spec)
    if game is None:
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


__all__ = ["MAX_ROLL_PAIRS", "Solved", "check_size", "die_name", "rerolled_dice", "solve"]
