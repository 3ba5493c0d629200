"""Shooting attacks as an engine.game game, solved by the generic expectimax, give the same values
for both sides as the vectorised backward induction of ``solve.py``."""

import pytest

from grimdice.engine.game import expectimax
from grimdice.systems.killteam.solve import solve_sequence
from tests.killteam.shooting_game import Sequence, ShootingState
from tests.killteam.test_optimal_play import spec

CASES = {
    "balanced ceaseless rending cover": (
        [
            spec(
                dice=2,
                bs=3,
                normal=2,
                critical=3,
                df=2,
                sv=4,
                cover=True,
                balanced=True,
                ceaseless=True,
                rending=True,
            )
        ],
        4,
    ),
    "relentless lethal mw invulnerable": (
        [
            spec(
                dice=2,
                bs=4,
                normal=1,
                critical=2,
                df=2,
                sv=5,
                invulnerable=4,
                relentless=True,
                lethal=5,
                mw_per_crit=1,
                ap=1,
            )
        ],
        3,
    ),
    "two attacks, piercing": (
        [
            spec(dice=2, bs=3, normal=2, critical=3, df=2, sv=4, piercing=1),
            spec(dice=1, bs=2, normal=3, critical=3, df=2, sv=4),
        ],
        4,
    ),
}


@pytest.mark.parametrize("name", CASES)
@pytest.mark.parametrize("objectives", [("damage", "damage"), ("kill", "survival"), ("kill", "damage")])
def test_generic_expectimax_equals_backward_induction(name, objectives):
    specs, w0 = CASES[name]
    seq = Sequence(tuple(specs), w0, *objectives)
    generic = expectimax(ShootingState.start(seq), seq.objective).value
    first = solve_sequence(specs, w0, *objectives)[0]
    assert generic[0] == pytest.approx(first.value_attacker[w0], abs=1e-12)
    assert generic[1] == pytest.approx(first.value_defender[w0], abs=1e-12)
