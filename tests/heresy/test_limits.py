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


@pytest.mark.parametrize("precision", [False, True])
def test_the_monte_carlo_at_the_largest_strike_counts_without_overflow(precision, monkeypatch):
    """The most hits a scenario allows (1000), every wound Brutal (10), AP 2 against 3+ saves with
    Feel No Pain (three dice a wound part), into 100 models of 20 wounds: every trial's failed
    saves, damage and models destroyed stay within what the dice allow, and the dice counted are
    between the least and the most the rules roll (the tally words flushed in time)."""
    from grimdice.engine.options import RunOptions
    from grimdice.systems.base import run as run_system
    from grimdice.systems.heresy.profiles import MAX_MODELS
    from grimdice.systems.heresy.units import MAX_TOTAL_ATTACKS

    rules = ["Brutal (10)", *(["Precision (4+)"] if precision else [])]
    models = [model(name="a", count=MAX_MODELS - 1, T=4, W=20, Sv=3, FNP=5), model(name="b", W=20, Sv=3)]
    sc = scenario(
        weapon(A=10, S=10, AP=2, rules=rules), models, count=MAX_TOTAL_ATTACKS // 10, shooter={"BS": 5}
    )
    if precision:
        sc["conditions"]["precision_target"] = "b"
    seen = {}
    run_trials = RunOptions.run

    def counting(self, trial):
        tally = run_trials(self, trial)
        seen["dice"] = tally.dice
        return tally

    monkeypatch.setattr(RunOptions, "run", counting)
    r = run_system("heresy", sc, RunOptions(200, 3, 1))
    brutal, hits = 10, MAX_TOTAL_ATTACKS
    assert r["unsaved"].max <= hits * brutal and r["unsaved"].min >= 0
    assert r["damage"].max <= MAX_MODELS * 20 and r["models_destroyed"].max <= MAX_MODELS
    assert r["unsaved"].mean() > 0
    # per trial: a To Hit die per shot, a Wound die per hit, at most 3 dice per wound part
    assert 200 * hits <= seen["dice"] <= 200 * (hits + hits + hits * brutal * 3)
