"""40k and Heresy Monte Carlo on the shared runner: a seed gives the same result whatever the
workers, progress is reported per block."""

from __future__ import annotations

from grimdice.engine.montecarlo import BLOCK
from grimdice.systems import calculate
from tests.heresy import helpers as hh

from . import helpers as wh

TRIALS = BLOCK + 5_000  # two blocks


def test_wh40k_same_seed_same_result_whatever_the_workers():
    sc = wh.scenario(wh.weapon(A=2, abilities=["devastating wounds"]), wh.model(count=3, W=2, Sv=4))
    seen: list[tuple[int, int]] = []
    one = calculate(sc, simulate=TRIALS, seed=11, workers=1, progress=lambda d, t: seen.append((d, t)))
    two = calculate(sc, simulate=TRIALS, seed=11, workers=2)
    assert one.to_json() == two.to_json()
    assert seen == [(BLOCK, TRIALS), (TRIALS, TRIALS)]
    assert calculate(sc, simulate=TRIALS, seed=12, workers=1).to_json() != one.to_json()


def test_heresy_same_seed_same_result_whatever_the_workers():
    sc = hh.scenario(hh.weapon(A=2, S=4, AP=4), hh.model(count=3, W=2, Sv=4))
    one = calculate(sc, simulate=TRIALS, seed=5, workers=1)
    two = calculate(sc, simulate=TRIALS, seed=5, workers=2)
    assert one.to_json() == two.to_json()


def test_heresy_fight_same_seed_same_result_whatever_the_workers():
    sc = hh.scenario(
        hh.melee(), hh.model(weapons=[{"name": "knife", "S": "user", "rules": ["Melee"]}], count=2)
    )
    sc["conditions"]["fight"] = True
    sc["attacker"]["models"][0].update(T=4, W=1, count=2)
    one = calculate(sc, simulate=TRIALS, seed=3, workers=1)
    two = calculate(sc, simulate=TRIALS, seed=3, workers=2)
    assert one.to_json() == two.to_json()
    assert one.extra["combat_resolution"]["margin"]["offset"] <= 0
