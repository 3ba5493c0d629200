"""Heavy input: the exact engine refuses at once what it cannot finish in seconds, and says how."""

from pathlib import Path

import pytest
import yaml

from grimdice.errors import ScenarioError
from grimdice.systems import calculate
from grimdice.systems.onepage.exact import MAX_X_FIRED

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "onepage-shooting.yaml"


def meltaguns(n):
    sc = yaml.safe_load(EXAMPLE.read_text())
    sc["attacker"]["size"] = n
    sc["attacker"]["variants"] = [{"count": n, "equipment": ["Meltagun", "Pistol"]}]
    return sc


def test_too_many_x_weapons_are_refused_at_once_but_simulate():
    with pytest.raises(ScenarioError) as e:
        calculate(meltaguns(MAX_X_FIRED + 1))
    assert e.value.field == "attacker" and "--simulate" in e.value.message
    sim = calculate(meltaguns(MAX_X_FIRED + 1), simulate=500, seed=2)
    assert sim.method == "simulated" and sim["models_destroyed"].max <= 11
