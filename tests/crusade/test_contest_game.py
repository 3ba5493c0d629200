"""The compiled contest (:class:`~grimdice.systems.crusade.contest.Game`, solved by
:func:`~grimdice.systems.crusade.contest.solve`) is the same game as the :class:`Contest` states the
generic :func:`~grimdice.engine.game.expectimax` solves: the same value, bit for bit, and the same
decision at every state, on fights with re-rolls on both sides, parries and force fields."""

from __future__ import annotations

import numpy as np
import pytest

from grimdice.engine.game import expectimax
from grimdice.systems.crusade.attack import build
from grimdice.systems.crusade.contest import P_PARRY, Contest, objective_for, root, solve
from grimdice.systems.crusade.profiles import Scenario
from tests.crusade.helpers import fight, gun, model, shoot

KNIFE = {"name": "knife", "dice": "1W", "kind": "melee", "effects": ["W"]}
SHIELD = {"name": "shield", "dice": "1W", "kind": "shield"}

CASES = {
    "ro_vs_r_parry": fight(
        model(melee="1W+1R", abilities=["RO"], weapons=[KNIFE]),
        model(melee="2W", hits=2, abilities=["R"], weapons=[SHIELD]),
    ),
    "r_vs_ro_force_fields": fight(
        model(melee="2W+1R", abilities=["R", "+F"]), model(melee="1R", abilities=["RO", "+F"]), parry="never"
    ),
    "two_r_compound": fight(
        model(melee="1W", abilities=["R"], weapons=[{**KNIFE, "effects": ["R", "KB"]}]),
        model(melee="1W+1R", armour=1, weapons=[KNIFE]),
        knockback_into="obstacle",
    ),
    "shooting_r_and_jink": shoot(
        [gun("2W+1R", ["S", "R"])], model(name="bike", abilities=["JINK"]), range=14
    ),
}


def _walk(state, key, sol, generic, seen):
    """Every state reached from ``state`` (a Contest) and ``key`` (its compiled twin), in step."""
    game = sol.game
    if key in seen:
        return
    seen.add(key)
    assert np.array_equal(sol.values[key], generic.values[state]), key
    player = state.current_player()
    if player == -2:
        return
    if player == -1:
        outs = state.chance_outcomes()
        kids = game.outcomes(key)
        assert [p for _, p in outs] == [p for _, p in kids]
        for (o, _), (k, _) in zip(outs, kids, strict=True):
            _walk(state.apply(o), k, sol, generic, seen)
        return
    assert sol.policy[key] == generic.policy[state], key
    for a in state.legal_actions():
        _walk(state.apply(a), game.child(key, a), sol, generic, seen)


@pytest.mark.parametrize("case", sorted(CASES))
def test_compiled_game_equals_the_generic_solver_bit_for_bit(case):
    spec = build(Scenario.model_validate(CASES[case])).spec
    generic = expectimax(root(spec), objective_for(spec.layout))
    sol = solve(spec)
    assert np.array_equal(sol.value, generic.value)
    seen: set = set()
    _walk(root(spec), sol.root, sol, generic, seen)
    assert len(seen) == len(generic.values)  # one compiled state per Contest state
    assert isinstance(root(spec), Contest) and (sol.root[0] == P_PARRY) == (len(spec.parries) > 1)
