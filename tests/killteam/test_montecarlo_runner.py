"""Shooting and fights run their Monte Carlo on the shared runner: the result for a seed does not
depend on the number of worker processes, and progress is reported per block."""

from grimdice.engine.montecarlo import BLOCK
from grimdice.systems.killteam import calculate
from tests.killteam.helpers import gun, operative, scenario

TRIALS = BLOCK + 7  # two blocks


def _fight():
    def op(name, rules):
        return {"name": name, "W": 6, "weapons": [{"name": "b", "A": 2, "WS": 3, "D": "2/3", "rules": rules}]}

    return {"system": "killteam", "action": "fight", "attacker": op("a", ["Balanced"]), "target": op("d", [])}


def _shoot():
    near = [operative(name="n", W=4, distance_to_target=1)]
    return scenario(
        gun(A=3, rules=["Blast circle", "Hot"], critical=["Splash 1"]), operative(W=5), nearby=near
    )


def test_same_seed_same_result_whatever_the_workers():
    for sc in (_fight(), _shoot()):
        one = calculate(sc, simulate=TRIALS, seed=11, workers=1).to_json()
        two = calculate(sc, simulate=TRIALS, seed=11, workers=2).to_json()
        assert one == two
        assert calculate(sc, simulate=TRIALS, seed=12, workers=1).to_json() != one


def test_progress_is_reported_per_block():
    for sc in (_fight(), _shoot()):
        seen = []
        calculate(
            sc,
            simulate=TRIALS,
            seed=3,
            workers=1,
            progress=lambda done, total, seen=seen: seen.append((done, total)),
        )
        assert seen == [(BLOCK, TRIALS), (TRIALS, TRIALS)]
