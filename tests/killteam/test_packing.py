"""The shooting Monte Carlo's packed totals (:class:`grimdice.systems.killteam.simulate.Packing`):
digits in mixed radix, a few totals to a code, read back exactly."""

import numpy as np
import pytest

from grimdice.systems.killteam import simulate
from grimdice.systems.killteam.simulate import Packing
from tests.killteam.helpers import run
from tests.killteam.test_exact_vs_simulated import CASES


def test_digits_group_under_the_limit_in_order(monkeypatch):
    monkeypatch.setattr(simulate, "PACK_LIMIT", 100)
    p = Packing.of({"a": 4, "b": 9, "c": 2, "d": 99})
    # 5 * 10 = 50 fits, 50 * 3 = 150 does not; 3 * 100 does not: d alone
    assert p.groups == ((("a", 5), ("b", 10)), (("c", 3),), (("d", 100),))
    assert p.place("a") == (0, 10, 5)
    assert p.place("b") == (0, 1, 10)
    assert p.place("d") == (2, 1, 100)


def test_sums_of_codes_read_back_as_sums_of_digits():
    p = Packing.of({"a": 6, "b": 6, "c": 3})  # bounds of sums: a, b <= 6, c <= 3
    rng = np.random.default_rng(1)
    parts = [{k: rng.integers(0, 3 if k != "c" else 2, size=50) for k in "abc"} for _ in range(3)]
    codes = [np.zeros(50, dtype=np.int64) for _ in p.groups]
    for part in parts:
        for k, v in part.items():
            g, place, _ = p.place(k)
            codes[g] += v * place
    for k in "abc":
        assert np.array_equal(p.digit(codes, k), sum(part[k] for part in parts))
    counts = [np.bincount(c) for c in codes]
    for k, hist in p.marginals(counts).items():
        want = np.bincount(sum(part[k] for part in parts), minlength=hist.size)
        assert np.array_equal(hist, want)


@pytest.mark.parametrize("name", list(CASES))
def test_packing_never_carries_a_digit_over(name, monkeypatch):
    """Each total alone in its code cannot carry into another: the packed run gives the same
    seeded result, so no digit of the packed run passed its radix (the bounds hold)."""
    kw = CASES[name]
    packed = run(simulate=3000, seed=11, **kw).to_json()
    monkeypatch.setattr(simulate, "PACK_LIMIT", 1)
    alone = run(simulate=3000, seed=11, **kw).to_json()
    assert packed == alone
