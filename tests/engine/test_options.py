"""Run options: validated once, for the CLI and the Python API alike."""

import pytest

from grimdice.engine.options import MAX_TRIALS, RunOptions
from grimdice.errors import ScenarioError
from grimdice.systems import calculate

SC = {
    "system": "wh40k",
    "attacker": {"models": 1, "weapons": [{"name": "bolter", "A": 2, "BS": 3, "S": 4, "AP": 0, "D": 1}]},
    "defender": {"models": [{"count": 5, "T": 4, "Sv": 3, "W": 1}]},
}


@pytest.mark.parametrize(
    "kw, field",
    [
        ({"simulate": 0}, "simulate"),
        ({"simulate": -1}, "simulate"),
        ({"simulate": 1.5}, "simulate"),
        ({"simulate": "100"}, "simulate"),
        ({"simulate": True}, "simulate"),
        ({"simulate": MAX_TRIALS + 1}, "simulate"),
        ({"simulate": 10**12}, "simulate"),
        ({"seed": 3}, "seed"),
        ({"simulate": 10, "seed": -1}, "seed"),
        ({"simulate": 10, "seed": 1.5}, "seed"),
        ({"simulate": 10, "workers": 0}, "workers"),
    ],
)
def test_bad_run_options_name_the_option(kw, field):
    with pytest.raises(ScenarioError) as e:
        RunOptions(**kw)
    assert e.value.field == field
    with pytest.raises(ScenarioError):
        calculate(SC, **kw)


def test_good_options():
    o = RunOptions(100, 7)
    assert (o.simulate, o.seed, o.method, o.exact) == (100, 7, "simulated", False)
    assert RunOptions().method == "exact"


def test_options_run_the_shared_runner_and_check_the_scheduler():
    t = RunOptions(1000, 4).run(lambda s, n: {"x": s.roll(n) - 1})
    assert t.trials == 1000 and t.counts["x"].sum() == 1000
    with pytest.raises(ScenarioError) as e:
        RunOptions(scheduler="tcp://127.0.0.1:1")
    assert e.value.field == "scheduler"
    with pytest.raises(ScenarioError):
        RunOptions(10, scheduler="")
