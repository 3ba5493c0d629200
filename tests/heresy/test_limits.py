"""Heavy exact inputs either finish or are refused at once, naming the field and the reason."""

from __future__ import annotations

import pytest

from grimdice.errors import ScenarioError
from grimdice.systems.heresy import calculate

from .helpers import model, scenario, weapon


def test_precision_held_against_too_many_wounds_is_refused_at_once():
    sc = scenario(
        weapon(A=50, S=4, rules=["Precision (5+)"]),
        [model(name="a", count=20, W=1, Sv=3), model(name="sgt", W=2, Sv=2, character=True)],
        count=20,
    )
    with pytest.raises(ScenarioError, match=r"^defender: .*Precision wounds held.*use --simulate N"):
        calculate(sc)


def test_many_wounds_without_precision_finish_exactly():
    sc = scenario(weapon(A=50, S=4), [model(name="a", count=20, W=1, Sv=3)], count=20)
    r = calculate(sc)
    assert r["models_destroyed"].total() == pytest.approx(1.0, abs=1e-9)
    assert r["models_destroyed"].mean() == pytest.approx(20.0, abs=1e-6)
