"""Which models strike when only some are within reach (strike_order.py): a player puts his best
models where they strike, so a unit's strikers are its best groups' models, and the game's melee
law is exactly ``calculate()``'s for the unit written best first."""

from __future__ import annotations

from typing import Any

import pytest

from grimdice.dice import Dist
from grimdice.engine.table.terrain import Table
from grimdice.systems.base import calculate
from grimdice.systems.onepage.game import Setup, army_from_mapping, combat_law, deploy

MOB = {"name": "Mob", "size": 5, "quality": 5, "equipment": ["Hand Weapon"], "cost": 50}
MOB["variants"] = [{"count": 1, "equipment": ["Power Fist"]}]  # the Power Fist model listed last
FIST_FIRST = {
    "name": "Mob",
    "size": 5,
    "quality": 5,
    "equipment": ["Power Fist"],
    "variants": [{"count": 4, "equipment": ["Hand Weapon"]}],
}
SQUAD = {"name": "Squad", "size": 3, "quality": 4, "equipment": ["Hand Weapon"], "cost": 30}


def army(name: str, unit: dict[str, Any]) -> dict[str, Any]:
    return {"kind": "army", "system": "onepage", "name": name, "units": [unit]}


def law(stage: str, *, strikers: int) -> Dist:
    setup = Setup((army_from_mapping(army("A", MOB), "a"), army_from_mapping(army("B", SQUAD), "b")), Table())
    s = deploy(setup, 0, 0)
    got: dict[int, float] = {}
    for (sa, sd), p in combat_law(
        setup, "melee", 0, s.units[0], 1, s.units[1], (False, False, strikers, 3, "side")
    ):
        k = 5 - sa.models if stage == "attacker" else 3 - sd.models
        got[k] = got.get(k, 0.0) + p
    return Dist.from_mapping(got)


@pytest.mark.parametrize("strikers", [1, 2, 5])
def test_the_best_models_strike_first_and_the_law_is_calculates(strikers: int) -> None:
    """With fewer strikers than models, the Power Fist model (Attack 4 in the Weapon List), listed
    last, strikes before the Hand Weapon ones (Attack 2). The game's law of the Squad's losses equals
    calculate()'s for the Mob written Power Fist first, with the same strikers; with every model
    striking the order changes nothing."""
    scenario = {"system": "onepage", "attack": "melee", "attacker": FIST_FIRST, "defender": SQUAD}
    c = {"attacker_strikers": strikers, "defender_strikers": 3}
    ref = calculate(dict(scenario, conditions=c)).stages
    listed = calculate(dict(scenario, attacker=MOB, conditions=c)).stages
    got = law("defender", strikers=strikers)
    for k in range(4):
        assert got[k] == pytest.approx(ref["models_destroyed"][k], abs=1e-12)
    mine = law("attacker", strikers=strikers)
    for k in range(6):
        assert mine[k] == pytest.approx(ref["attacker_models_destroyed"][k], abs=1e-12)
    fist_ahead = ref["models_destroyed"].mean() > listed["models_destroyed"].mean() + 1e-3
    assert fist_ahead == (strikers < 5)
