"""The played games' streams and chance draws give NumPy's numbers (engine.draws)."""

from __future__ import annotations

import pickle
from fractions import Fraction

import numpy as np
import pytest

from grimdice.engine.draws import BLOCK, Stream, pairwise_sum, pick
from grimdice.engine.playing import streams


def _pair(seed: int) -> tuple[Stream, np.random.Generator]:
    ss = np.random.SeedSequence(seed)
    return Stream(np.random.PCG64(ss)), np.random.default_rng(ss)


def test_scalar_draws_are_the_generators_in_order() -> None:
    a, b = _pair(3)
    got = [a.random() for _ in range(3 * BLOCK + 5)]
    assert got == [b.random() for _ in range(3 * BLOCK + 5)]
    assert all(type(x) is float for x in got)


@pytest.mark.parametrize("seed", range(4))
def test_any_mix_of_calls_draws_as_a_plain_generator(seed: int) -> None:
    a, b = _pair(seed)
    order = np.random.default_rng(100 + seed).integers(0, 9, 2000)
    for op in order:
        if op <= 2:
            assert a.random() == b.random()
        elif op == 7:  # the same scalar draw as a plain callable
            assert a.next_random() == b.random()
        elif op == 8:
            assert a.bit_generator.state == b.bit_generator.state
        elif op == 3:
            assert int(a.integers(10)) == int(b.integers(10))
        elif op == 4:
            assert a.random(3).tolist() == b.random(3).tolist()
        elif op == 5:
            assert a.normal() == b.normal()
        else:
            assert a.bit_generator.random_raw() == b.bit_generator.random_raw()


def test_state_and_pickle_after_scalar_draws() -> None:
    a, b = _pair(9)
    for _ in range(5):
        a.random()
        b.random()
    assert a.bit_generator.state == b.bit_generator.state
    a.random()
    b.random()
    c = pickle.loads(pickle.dumps(a))
    assert c.random() == b.random()


def test_streams_of_a_seed_are_default_rngs_of_its_spawned_seeds() -> None:
    chance, players = streams(11, 2)
    ss = np.random.SeedSequence(11).spawn(3)
    for got, s in zip([chance, *players], ss, strict=True):
        want = np.random.default_rng(s)
        assert [got.random() for _ in range(70)] == [want.random() for _ in range(70)]


@pytest.mark.parametrize("n", [1, 2, 3, 7, 8, 9, 15, 16, 17, 64, 127, 128, 129, 300, 1000])
def test_pairwise_sum_is_numpys(n: int) -> None:
    rng = np.random.default_rng(n)
    for _ in range(50):
        p = rng.random(n) ** 5
        p = p / p.sum()
        assert pairwise_sum(p.tolist()) == p.sum()


def _numpy_pick(outcomes: list[tuple[int, float]], u: float) -> int:
    probs = np.array([p for _, p in outcomes])
    i = int(np.searchsorted(np.cumsum(probs), u * probs.sum(), side="right"))
    return outcomes[min(i, len(outcomes) - 1)][0]


@pytest.mark.parametrize("n", [1, 2, 3, 5, 9, 20, 64, 65, 200])
def test_pick_is_numpys_cumulative_search(n: int) -> None:
    rng = np.random.default_rng(1000 + n)
    for _ in range(200):
        p = rng.random(n) ** 3
        p = p / p.sum()
        outcomes = list(enumerate(p.tolist()))
        seed = int(rng.integers(1 << 30))
        u = np.random.default_rng(seed).random()
        assert pick(outcomes, np.random.default_rng(seed)) == _numpy_pick(outcomes, u)


def test_pick_at_the_edges_and_with_fractions() -> None:
    class Fixed:
        def __init__(self, u: float) -> None:
            self.u = u

        def random(self) -> float:
            return self.u

    outcomes = [("a", 0.25), ("b", 0.0), ("c", 0.75)]
    assert pick(outcomes, Fixed(0.0)) == "a"  # type: ignore[arg-type]
    assert pick(outcomes, Fixed(0.25)) == "c"  # type: ignore[arg-type]
    assert pick(outcomes, Fixed(0.999999)) == "c"  # type: ignore[arg-type]
    exact = [("x", Fraction(1, 3)), ("y", Fraction(2, 3))]
    assert pick(exact, Fixed(0.5)) == "y"  # type: ignore[arg-type]
