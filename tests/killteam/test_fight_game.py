"""The whole fight as an engine.game game, solved by the generic expectimax, gives the same values
as the layered solver (which evaluates the same game by vectorised layers)."""

import numpy as np
import pytest

from grimdice.engine.game import expectimax
from grimdice.systems.killteam.fight import Duel, FightKeys, solve_fight
from grimdice.systems.killteam.fight.game import FightState
from grimdice.systems.killteam.fight.resolve import FIGHT_TOL
from tests.killteam.helpers import fighter

CASES = {
    "balanced+ceaseless vs relentless rending": (
        fighter("a", 5, 2, 3, 2, 3, balanced=True, ceaseless=True, objective="damage_dealt"),
        fighter("d", 4, 2, 4, 2, 4, relentless=True, rending=True, objective="survive"),
    ),
    "stun brutal lethal vs balanced": (
        fighter("a", 6, 3, 3, 2, 4, stun=True, brutal=True, lethal=5),
        fighter("d", 5, 2, 3, 3, 3, balanced=True, objective="damage_taken"),
    ),
}


@pytest.mark.parametrize("name", CASES)
def test_generic_expectimax_equals_the_layered_solver(name):
    att, dfd = CASES[name]
    duel = Duel(att, dfd)
    generic = expectimax(FightState.start(duel), FightKeys(duel), tol=FIGHT_TOL).value
    sol = solve_fight(att, dfd)
    layered = sum(
        p * np.array([t[0], t[1], t[0] == 0, t[1] == 0, t[2], t[3]], float) for t, p in sol.terminals.items()
    )
    np.testing.assert_allclose(generic, layered, rtol=0, atol=1e-12)
