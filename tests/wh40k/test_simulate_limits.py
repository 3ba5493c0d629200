"""The Monte Carlo engine at the largest inputs a 40k scenario allows: the sampled queues and
counts stay within what the dice allow (no overflow of the per-trial state)."""

from __future__ import annotations

import pytest

from grimdice.systems.wh40k.profiles import MAX_MODELS, MAX_WOUNDS
from grimdice.systems.wh40k.units import MAX_TOTAL_ATTACKS

from .helpers import model, run, weapon


@pytest.mark.parametrize("wounds", [1, MAX_WOUNDS])
def test_the_largest_unit_under_the_most_attacks(wounds):
    """2000 attacks of D6+1 damage with Sustained Hits 1 and Devastating Wounds, half of them
    Precision, into 198 Bodyguard models and two Characters (200 models, each of ``wounds``
    wounds, Feel No Pain on the leaders): every trial's counts are within their bounds."""
    gun = weapon(A=10, BS=2, S=12, AP=-1, D="D6+1", abilities=["sustained hits 1", "devastating wounds"])
    sniper = dict(gun, name="sniper", abilities=[*gun["abilities"], "precision"])
    count = MAX_TOTAL_ATTACKS // 20
    leaders = [model(name=f"L{i}", W=wounds, Sv=3, FNP=5) for i in range(2)]
    r = run(
        [gun, sniper], model(count=MAX_MODELS - 2, W=wounds, Sv=4), count=count, leaders=leaders,
        simulate=300, seed=4,
    )  # fmt: skip
    most_wounds = 2 * MAX_TOTAL_ATTACKS  # every attack a Critical Hit: one extra hit each
    assert r["hits"].max <= most_wounds and r["wounds"].max <= most_wounds
    assert r["unsaved"].min >= 0 and r["unsaved"].max <= r["wounds"].max
    assert r["damage"].max <= MAX_MODELS * wounds and r["models_destroyed"].max <= MAX_MODELS
    assert r["character_damage"].max <= 2 * wounds and r["characters_destroyed"].max <= 2
    if wounds == 1:  # some 4000 hits at 2+ against 200 one-wound models: all of them destroyed
        assert r["models_destroyed"].min == MAX_MODELS
