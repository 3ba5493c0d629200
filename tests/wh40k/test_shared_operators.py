"""Chains of equal queues and token signature share their token operators (engine.allocation.operators'
bounded cache): a result must not depend on which scenarios ran before it."""

from __future__ import annotations

import pytest

from grimdice.engine.allocation import operators
from grimdice.systems.wh40k import calculate
from grimdice.systems.wh40k.allocation import NORMAL, Allocation
from grimdice.systems.wh40k.exact import exact_result
from grimdice.systems.wh40k.units import resolve_groups, resolve_target

from .helpers import model, scenario, weapon

GUN = weapon(A=2, BS=3, S=5, AP=-1, D="D3")
UNIT = model(count=6, T=4, Sv=3, W=3, FNP=5)

# the same unit shape (6 x W3) under tokens that differ in one number each: a signature that left
# one of them out would hand a scenario another's operator
CASES = {
    "base": scenario(GUN, UNIT, count=10),
    "no FNP": scenario(GUN, model(count=6, T=4, Sv=3, W=3), count=10),
    "FNP 6+": scenario(GUN, model(count=6, T=4, Sv=3, W=3, FNP=6), count=10),
    "AP-2": scenario({**GUN, "AP": -2}, UNIT, count=10),
    "D2": scenario({**GUN, "D": 2}, UNIT, count=10),
    "invulnerable": scenario(GUN, model(count=6, T=4, Sv=3, W=3, FNP=5, invulnerable=3), count=10),
    "mixed saves": scenario(GUN, [model(count=5, T=4, Sv=3, W=3, FNP=5), model(count=1, T=4, Sv=2, W=3)]),
    "precision": scenario(
        {**GUN, "abilities": ["precision"]}, model(count=5, T=4, Sv=3, W=3), leaders=[model(W=3, Sv=3)]
    ),
    "no precision": scenario(GUN, model(count=5, T=4, Sv=3, W=3), leaders=[model(W=3, Sv=3)]),
    "devastating": scenario({**GUN, "abilities": ["devastating wounds"]}, UNIT, count=10),
}


@pytest.fixture
def fresh_cache():
    operators._SHARED.clear()
    yield
    operators._SHARED.clear()


def test_results_do_not_depend_on_what_ran_before(fresh_cache) -> None:
    alone = {}
    for name, sc in CASES.items():
        operators._SHARED.clear()
        alone[name] = calculate(sc).to_json()
    assert operators._SHARED  # the chains did share their operators
    for _ in range(2):  # every other scenario's operators now in the cache, in two orders
        for name, sc in CASES.items():
            assert calculate(sc).to_json() == alone[name], name
        for name, sc in reversed(CASES.items()):
            assert calculate(sc).to_json() == alone[name], name


def test_signature_tells_apart_what_changes_the_token(fresh_cache) -> None:
    from grimdice.io.scenario import validate
    from grimdice.systems.wh40k.profiles import Scenario

    def signature(name: str) -> tuple:
        sc = validate(Scenario, CASES[name])
        target = resolve_target(sc)
        return Allocation(target, resolve_groups(sc, target), False, 10).signature((NORMAL, 0))

    names = ["base", "no FNP", "FNP 6+", "AP-2", "D2", "invulnerable", "precision", "no precision"]
    sigs = [signature(n) for n in names]
    assert len(set(sigs)) == len(sigs)
    assert signature("base") == signature("base")


def test_the_cache_is_bounded(fresh_cache, monkeypatch) -> None:
    monkeypatch.setattr(operators, "SHARED_OPERATORS", 3)
    for sc in CASES.values():
        calculate(sc)
        assert len(operators._SHARED) <= 3
    target_sc = CASES["base"]
    from grimdice.io.scenario import validate
    from grimdice.systems.wh40k.profiles import Scenario

    sc = validate(Scenario, target_sc)
    target = resolve_target(sc)
    assert exact_result(target, resolve_groups(sc, target)).to_json() == calculate(target_sc).to_json()
