"""The die-by-die fold of a pool (grimdice.dice.fold) against hand-computed laws and brute force."""

from __future__ import annotations

import itertools
from collections import defaultdict
from collections.abc import Hashable
from dataclasses import dataclass
from fractions import Fraction

import numpy as np
import pytest

from grimdice.dice.fold import PoolEvaluator, fold_law, fold_states, step_tables

WHITE = (0, 0, 0, 0, 1, 2)
RED = (0, 0, 0, 1, 2, 3)


@dataclass(frozen=True)
class Total(PoolEvaluator[int, int]):
    def initial_state(self) -> int:
        return 0

    def next_state(self, state: int, kind: Hashable, face: int) -> int:
        return state + face


@dataclass(frozen=True)
class TopTwo(PoolEvaluator[tuple[int, int], int]):
    """The two highest faces (a state smaller than the faces), their sum the outcome."""

    def initial_state(self) -> tuple[int, int]:
        return (0, 0)

    def next_state(self, state: tuple[int, int], kind: Hashable, face: int) -> tuple[int, int]:
        a, b = sorted((*state, face), reverse=True)[:2]
        return (a, b)

    def final_outcome(self, state: tuple[int, int]) -> int:
        return state[0] + state[1]


def brute(evaluator: PoolEvaluator, pool) -> dict:
    """Every side of every die enumerated, each combination 1 / sides^n."""
    out: dict = defaultdict(Fraction)
    for sides in itertools.product(*(faces for _, faces in pool)):
        state = evaluator.initial_state()
        for (kind, _), f in zip(pool, sides, strict=True):
            state = evaluator.next_state(state, kind, f)
        w = Fraction(1)
        for _, faces in pool:
            w /= len(faces)
        out[evaluator.final_outcome(state)] += w
    return out


def test_two_whites_by_hand() -> None:
    # a white shows 0 with 4/6, 1 with 1/6, 2 with 1/6: the total of two is 0 with 16/36,
    # 1 with 8/36, 2 with 8/36 + 1/36, 3 with 2/36, 4 with 1/36
    law = fold_law(Total(), (("W", WHITE), ("W", WHITE)))
    expected = {
        0: Fraction(16, 36),
        1: Fraction(8, 36),
        2: Fraction(9, 36),
        3: Fraction(2, 36),
        4: Fraction(1, 36),
    }
    assert law.keys() == expected.keys()
    for k, p in expected.items():
        assert law[k] == pytest.approx(float(p), abs=1e-15)


@pytest.mark.parametrize("pool", [(), (("R", RED),), (("W", WHITE), ("R", RED), ("R", RED), ("W", WHITE))])
def test_fold_matches_brute_force(pool) -> None:
    for ev in (Total(), TopTwo()):
        law, oracle = fold_law(ev, pool), brute(ev, pool)
        assert law.keys() == oracle.keys()
        for k, p in oracle.items():
            assert law[k] == pytest.approx(float(p), abs=1e-15)
        assert sum(fold_states(ev, pool).values()) == pytest.approx(1.0)


def test_step_tables_walk_every_side_to_its_state() -> None:
    pool = (("W", WHITE), ("R", RED), ("W", WHITE))
    ev = TopTwo()
    states, tables = step_tables(ev, pool)
    assert [t.shape[1] for t in tables] == [6, 6, 6]
    for sides in itertools.product(range(6), repeat=3):
        cur = 0
        state = ev.initial_state()
        for table, (kind, faces), j in zip(tables, pool, sides, strict=True):
            cur = int(table[cur, j])
            state = ev.next_state(state, kind, faces[j])
        assert states[cur] == state
    # the table's states are exactly those the law reaches
    assert set(states) == set(fold_states(ev, pool))
    assert np.all(tables[0] < len(tables[1]))


def test_face_law_of_a_red_die_by_hand() -> None:
    # a red die 0,0,0,1,2,3: 0 with 3/6, the others 1/6 each
    from grimdice.dice.fold import face_law

    assert face_law(RED) == ((0, 0.5), (1, 1 / 6), (2, 1 / 6), (3, 1 / 6))
