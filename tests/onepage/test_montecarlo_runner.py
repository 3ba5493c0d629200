"""One Page's Monte Carlo on the shared runner: the result for a seed does not depend on the number
of worker processes (shooting with Armored, melee, a casting)."""

from pathlib import Path

import pytest

from grimdice.engine.montecarlo import BLOCK
from grimdice.io.scenario import load_scenario
from grimdice.systems.onepage import calculate

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
TRIALS = BLOCK + 7  # two blocks


@pytest.mark.parametrize("name", ["onepage-shooting", "onepage-melee-heroes", "onepage-psyker"])
def test_same_seed_same_result_whatever_the_workers(name):
    sc = load_scenario(EXAMPLES / f"{name}.yaml")
    one = calculate(sc, simulate=TRIALS, seed=11, workers=1).to_json()
    assert calculate(sc, simulate=TRIALS, seed=11, workers=2).to_json() == one
    assert calculate(sc, simulate=TRIALS, seed=12, workers=1).to_json() != one
