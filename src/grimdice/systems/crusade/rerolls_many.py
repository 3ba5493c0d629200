"""Re-rolls and JINK when one roll is shot at many targets (rules-crusade VIII REROLL, IX JINK).

VIII REROLL: "Ranged attacks: may reroll one of your attack dice once per turn." IX JINK: "may
reroll 1 enemy die when fired upon, as long as driver is not stunned ... once per turn." For the
modes that roll once for every target (LINE, BLAST, SPLIT FIRE) the roll is a multiset of faces:
the attacker may re-roll one of his dice (maximising, summed over the targets, P(killed), then
P(KO or killed), then the expected damage, then avoiding a fail), then each target that may jink,
in the order listed, may re-roll one of the attacker's dice (minimising its own P(killed), P(KO or
killed), expected damage). Every die of every face is a choice (no chain shortcut), solved by
backward induction over the faces; a re-rolled maximum counts toward a fail and a fail once rolled
stays (reading ``reroll_fail``). The result is the law of the final (total, highest die, failed),
which the many-target engine applies as it applies a roll without re-rolls.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Hashable, Iterable, Sequence
from dataclasses import dataclass
from functools import cache, lru_cache
from math import comb
from typing import TypeVar

import numpy as np

from grimdice.dice.fold import PoolEvaluator, face_law, fold_law, fold_states
from grimdice.errors import ScenarioError
from grimdice.systems.crusade.damage import KILLED, KO, State
from grimdice.systems.crusade.rolls import DICE, MAXIMUM, Pool, pool_dice

#: (kind, face) slots of a rolled multiset
SLOTS: tuple[tuple[str, int], ...] = tuple((k, f) for k in ("W", "R") for f in sorted(set(DICE[k].faces)))
MAX_WORK = 1500  # rolled face sets x re-rolling sides the game solves (about 1.5 ms each)

Counts = tuple[int, ...]
Roll = tuple[int, int, bool]  # (total, highest die, failed)
T = TypeVar("T")


def multisets(pool: Pool) -> int:
    """How many distinct face multisets the pool can roll (the keys of :func:`multiset_law`):
    ``n`` dice of ``k`` distinct faces roll ``C(n + k - 1, k - 1)``."""
    out = 1
    for kind, n in (("W", pool.white), ("R", pool.red)):
        k = len(set(DICE[kind].faces))
        out *= comb(n + k - 1, k - 1)
    return out


SLOT = {kf: i for i, kf in enumerate(SLOTS)}


@dataclass(frozen=True)
class SlotCounts(PoolEvaluator[Counts, Counts]):
    """The rolled faces folded into counts per :data:`SLOTS` slot."""

    def initial_state(self) -> Counts:
        return (0,) * len(SLOTS)

    def next_state(self, state: Counts, kind: Hashable, face: int) -> Counts:
        i = SLOT[(str(kind), face)]
        return (*state[:i], state[i] + 1, *state[i + 1 :])


@dataclass(frozen=True)
class TotalHighFail(PoolEvaluator[tuple[int, int, int], Roll]):
    """The rolled faces folded into (total, highest die, maxima capped at 2); the outcome a
    :data:`Roll`, failed when two dice show their maximum (section III)."""

    def initial_state(self) -> tuple[int, int, int]:
        return (0, 0, 0)

    def next_state(self, state: tuple[int, int, int], kind: Hashable, face: int) -> tuple[int, int, int]:
        t, h, m = state
        return (t + face, max(h, face), min(2, m + (face == MAXIMUM[str(kind)])))

    def final_outcome(self, state: tuple[int, int, int]) -> Roll:
        t, h, m = state
        return (t, h, m >= 2)


def multiset_law(pool: Pool) -> dict[Counts, float]:
    """The exact law of the rolled faces as counts per :data:`SLOTS` slot."""
    return dict(fold_states(SlotCounts(), pool_dice(pool.white, pool.red)))


@lru_cache(maxsize=64)
def roll_law(pool: Pool) -> dict[Roll, float]:
    """``{(total, highest die, failed): p}`` of a roll nobody re-rolls (BLAST outside targets use
    the highest die)."""
    return fold_law(TotalHighFail(), pool_dice(pool.white, pool.red))


def reroll_slot(c: Counts, slot: int, face: int) -> Counts:
    """The counts after a die of ``slot`` is re-rolled and shows ``face`` (a die of the same kind)."""
    new = list(c)
    new[slot] -= 1
    new[SLOT[(SLOTS[slot][0], face)]] += 1
    return tuple(new)


def rerolled(c: Counts, slot: int) -> list[tuple[Counts, float]]:
    """The law of the counts after a die of ``slot`` is re-rolled (exact engines)."""
    return [(reroll_slot(c, slot, f), q) for f, q in face_law(DICE[SLOTS[slot][0]].faces)]


@cache
def summary(c: Counts, failed: bool) -> Roll:
    total = sum(n * f for n, (_, f) in zip(c, SLOTS, strict=True))
    high = max((f for n, (_, f) in zip(c, SLOTS, strict=True) if n), default=0)
    maxes = sum(n for n, (k, f) in zip(c, SLOTS, strict=True) if f == MAXIMUM[k])
    return total, high, failed or maxes >= 2


def side_key(player: int, v: np.ndarray, n_targets: int) -> tuple[float, ...]:
    """What a side maximises over ``v`` = [per target: P killed, P KO+, E damage] + [fails]: the
    attacker (``player`` < 0) the sums over the targets, then fewer fails; a jinking target
    ``player`` its own three, negated."""
    per = v[:-1].reshape(n_targets, 3)
    if player < 0:
        return (*per.sum(axis=0).round(12), -round(float(v[-1]), 12))
    return tuple(-per[player].round(12))


def best_for(player: int, options: Iterable[tuple[T, np.ndarray]], n_targets: int) -> tuple[np.ndarray, T]:
    """The ``(value, choice)`` of ``options`` that ``player`` prefers (:func:`side_key`; ties keep
    the first)."""
    out: tuple[np.ndarray, T] | None = None
    best: tuple[float, ...] = ()
    for choice, v in options:
        k = side_key(player, v, n_targets)
        if out is None or k > best:
            out, best = (v, choice), k
    if out is None:
        raise ValueError("no option to choose from")
    return out


def terminal_value(states: Sequence[State]) -> np.ndarray:
    """The value vector (:func:`side_key`) of the end: per target killed, KO or killed, no more
    damage, and no more fails."""
    v = np.zeros(3 * len(states) + 1)
    for i, s in enumerate(states):
        v[3 * i] = s[0] == KILLED
        v[3 * i + 1] = s[0] >= KO
    return v


def reroll_law(
    pool: Pool,
    own: bool,
    jinkers: tuple[int, ...],
    value: Callable[[Roll], np.ndarray],
    n_targets: int,
) -> tuple[dict[Roll, float], dict[str, float], Callable[[Counts, bool, int], int]]:
    """The law of the final roll when the attacker (``own``) and then each target in ``jinkers``
    may re-roll one die; ``value(roll)`` gives per target ``[P killed, P KO+, E damage]`` and the
    fail indicator last. Returns the law, how often each side re-rolled, and the policy
    ``(counts, failed, phase) -> slot to re-roll or -1`` (Monte Carlo plays it)."""
    sides = int(own) + len(jinkers)
    face_sets = multisets(pool)  # counted before the law is built: refused at once
    if face_sets * sides > MAX_WORK:
        raise ScenarioError(
            "attacker.weapons",
            f"{pool.text} with {sides} re-rolling sides at many targets is too large to solve exactly "
            f"({face_sets} rolled face sets x {sides}, at most {MAX_WORK}); use fewer dice or re-rolls",
        )
    start = multiset_law(pool)
    players = ((-1,) if own else ()) + jinkers  # -1: the attacker

    def key(player: int, v: np.ndarray) -> tuple[float, ...]:
        return side_key(player, v, n_targets)

    @cache
    def solve(c: Counts, failed: bool, phase: int) -> tuple[np.ndarray, int]:
        """(expected value vector, best slot to re-roll or -1) from ``phase`` on."""
        if phase == len(players):
            return value(summary(c, failed)), -1
        best_v, best_a = solve(c, failed, phase + 1)[0], -1
        best_k = key(players[phase], best_v)
        for i in range(len(SLOTS)):
            if not c[i]:
                continue
            v = after(c, failed, phase, i)
            k = key(players[phase], v)
            if k > best_k:
                best_v, best_a, best_k = v, i, k
        return best_v, best_a

    @cache
    def after(c: Counts, failed: bool, phase: int, i: int) -> np.ndarray:
        fail_now = summary(c, failed)[2]
        v = np.zeros(3 * n_targets + 1)
        for c2, q in rerolled(c, i):
            v += q * solve(c2, fail_now, phase + 1)[0]
        return v

    law: dict[Roll, float] = defaultdict(float)
    used = {p: 0.0 for p in players}

    def walk(c: Counts, failed: bool, phase: int, p: float) -> None:
        if phase == len(players):
            law[summary(c, failed)] += p
            return
        a = solve(c, failed, phase)[1]
        if a < 0:
            walk(c, failed, phase + 1, p)
            return
        used[players[phase]] += p
        fail_now = summary(c, failed)[2]
        for c2, q in rerolled(c, a):
            walk(c2, fail_now, phase + 1, p * q)

    for c, p in start.items():
        walk(c, False, 0, p)
    choices = {("attacker" if k < 0 else f"target {k}"): v for k, v in used.items()}
    return dict(law), choices, lambda c, failed, phase: solve(c, failed, phase)[1]


__all__ = [
    "SLOTS",
    "best_for",
    "multiset_law",
    "reroll_law",
    "reroll_slot",
    "rerolled",
    "roll_law",
    "side_key",
    "summary",
    "terminal_value",
]
