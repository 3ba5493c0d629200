"""The played games' streams and chance draws give NumPy's numbers (engine.draws)."""

from __future__ import annotations

import pickle
from fractions import Fraction

import numpy as np
import pytest

from grimdice.engine.draws import BLOCK, Stream, pairwise_sum, pick
from grimdice.engine.playing import streams


def _pair(seed: int, kind: type = np.random.PCG64) -> tuple[Stream, np.random.Generator]:
    """A stream and a plain generator on bit generators ``kind`` of one seed (a PCG64 stream steps
    back over its block with ``advance``; another keeps the state its block started from)."""
    ss = np.random.SeedSequence(seed)
    return Stream(kind(ss)), np.random.Generator(kind(ss))


def test_scalar_draws_are_the_generators_in_order() -> None:
    a, b = _pair(3)
    got = [a.random() for _ in range(3 * BLOCK + 5)]
    assert got == [b.random() for _ in range(3 * BLOCK + 5)]
    assert all(type(x) is float for x in got)


MIXES = [*((s, np.random.PCG64) for s in range(4)), (4, np.random.PCG64DXSM)]


@pytest.mark.parametrize(("seed", "kind"), MIXES)
def test_any_mix_of_calls_draws_as_a_plain_generator(seed: int, kind: type) -> None:
    a, b = _pair(seed, kind)
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


BOUNDS = [1, 2, 3, 6, 7, 10, 25, 1000, 2**31 + 1, 2**32 - 1, 2**32, 2**32 + 5]


@pytest.mark.parametrize("seed", range(4))
def test_bounded_integers_mixed_with_other_calls_are_numpys(seed: int) -> None:
    """Scalar ``integers(n)`` (32-bit halves, the kept half, rejections) in any order with every
    other kind of call: the same numbers and the same generator state as a plain Generator."""
    a, b = _pair(seed)
    plan = np.random.default_rng(200 + seed)
    for step in range(3000):
        op = int(plan.integers(0, 10))
        if op <= 3:
            n = BOUNDS[int(plan.integers(0, len(BOUNDS)))]
            got, want = a.integers(n), b.integers(n)
            assert got == want and int(got) == int(want), (step, n)
        elif op <= 5:
            assert a.random() == b.random()
        elif op == 6:
            assert a.integers(0, 9, size=3).tolist() == b.integers(0, 9, size=3).tolist()
        elif op == 7:
            assert a.integers(5, endpoint=True) == b.integers(5, endpoint=True)
        elif op == 8:
            assert a.bit_generator.state == b.bit_generator.state
        else:
            assert a.normal() == b.normal()
    assert a.bit_generator.state == b.bit_generator.state


def test_a_stream_takes_over_the_half_its_generator_kept() -> None:
    bits, plain = np.random.PCG64(5), np.random.default_rng(5)
    np.random.Generator(bits).integers(7)  # leaves the high half of an output kept
    plain.integers(7)
    a = Stream(bits)
    assert [a.integers(9) for _ in range(5)] == [plain.integers(9) for _ in range(5)]
    assert a.random() == plain.random()
    assert a.bit_generator.state == plain.bit_generator.state


@pytest.mark.parametrize("seed", range(3))
def test_an_agreed_index_is_every_counts_next_draw_and_draws_nothing(seed: int) -> None:
    """``agreed_index(lo, hi)``: when it answers, ``integers(n)`` draws that number for every ``n``
    from ``lo`` to ``hi`` (each from a copy of the stream), and asking it draws nothing."""
    a, b = _pair(seed)
    plan = np.random.default_rng(300 + seed)
    answered = refused = 0
    for _ in range(1500):
        lo = int(plan.integers(2, 40))
        hi = lo + int(plan.integers(0, 3))
        got = a.agreed_index(lo, hi)
        if got is not None:
            answered += 1
            for n in range(lo, hi + 1):
                copy = pickle.loads(pickle.dumps(a))
                assert copy.integers(n) == got
        else:
            refused += 1
        if plan.random() < 0.5:  # the stream goes on as a plain Generator: nothing was drawn
            assert a.integers(lo) == b.integers(lo)
        else:
            assert a.random() == b.random()
    assert answered > 100 and refused > 100
    assert a.agreed_index(1, 3) is None and a.agreed_index(5, 4) is None


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
