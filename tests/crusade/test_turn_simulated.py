"""The vectorised Monte Carlo of a flamer turn with the attacker's re-roll and a jinking target
that is not the first (the jink's decision is the target's own): it agrees with the exact law."""

from pathlib import Path

from grimdice.io.scenario import load_scenario
from grimdice.systems.crusade import calculate
from tests.agreement import assert_agree

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "crusade-flamer.yaml"


def test_flamer_turn_with_a_jinking_third_target_agrees_with_exact():
    sc = load_scenario(EXAMPLE)
    ex, mc = calculate(sc), calculate(sc, simulate=20_000, seed=8)
    keys = ("damage", "models_destroyed", "fail")
    assert_agree({k: ex[k] for k in keys}, {k: mc[k] for k in keys}, 20_000)
    for name in list(ex.targets)[:3]:
        sub = ("condition", "damage")
        assert_agree({k: ex.targets[name][k] for k in sub}, {k: mc.targets[name][k] for k in sub}, 20_000)
