"""Who shoots, per model and per weapon (shooting.weapon_counts, attack.shooters_by_weapon).

"All models in a unit that have line of sight to an enemy unit and that have a weapon that is within
range of that unit may fire one of their weapons at it." / "Sum the attacks from the weapons of all
models that can shoot at the target to determine how many attacks the unit has in total for this
shooting." A Flamer (12") model near the target fires even when the unit's Rifle models stand
farther off than 12".
"""

from __future__ import annotations

from dataclasses import replace
from fractions import Fraction
from typing import Any

import numpy as np
import pytest

from grimdice.engine.table.terrain import Table, Terrain
from grimdice.errors import ScenarioError
from grimdice.systems.base import calculate
from grimdice.systems.onepage.game import GameState, Setup, army_from_mapping, deploy
from grimdice.systems.onepage.game.cache import memo
from grimdice.systems.onepage.game.state import combat_law
from tests.onepage_game.test_firing import army, shooting

SQUAD = {  # four Rifles (30", A1) and a Flamer (12", A6), Quality 4+
    "name": "Squad",
    "size": 5,
    "quality": 4,
    "equipment": ["Rifle"],
    "variants": [{"count": 1, "equipment": ["Flamer"]}],
    "cost": 60,
}
BOYZ = {"name": "Boyz", "size": 5, "quality": 6, "equipment": ["Hand Weapon"], "cost": 50}
#: the Rifle models 20" from the Boyz, the Flamer model (the last, its own group) 5" from them
PLACES = np.array([[30.0, 9.0], [32.0, 9.0], [34.0, 9.0], [36.0, 9.0], [40.0, 23.8]])
#: a wall between the Flamer model and every Boyz model; the Rifle models see past its left end
WALL = Terrain(
    "wall", np.array([[33.0, 25.2], [47.0, 25.2], [47.0, 26.5], [33.0, 26.5]]), frozenset({"blocks_sight"})
)


def placed(table: Table, places: np.ndarray = PLACES, rank: float = 30.0) -> GameState:
    """The Squad at ``places`` (its formation set model by model), the Boyz in a rank at y = ``rank``."""
    setup = Setup((army_from_mapping(army("A", SQUAD), "a"), army_from_mapping(army("B", BOYZ), "b")), table)
    s = replace(deploy(setup, 0, 0), anchors=((36.0, 9.0), (36.0, rank)))
    flip = 1.0 if setup.owner[0] == s.south else -1.0
    setup.offsets = ((places - [36.0, 9.0]) / [1.0, -flip], *setup.offsets[1:])
    memo(setup).clear()  # the geometry kept for the former formation goes with it
    s = shooting(s)
    assert np.allclose(s.models(0), places) and np.allclose(s.models(1)[:, 1], rank)
    return s


def law_destroyed(s: GameState) -> dict[int, float]:
    key = s.shot_key(0, 1)
    out: dict[int, float] = {}
    for (st,), p in combat_law(s.setup, "shoot", 0, s.units[0], 1, s.units[1], key):
        out[5 - st.models] = out.get(5 - st.models, 0.0) + p
    return out


def scenario(**conditions: Any) -> dict[str, Any]:
    sides = {"attacker": SQUAD, "defender": BOYZ}
    return {"system": "onepage", "attack": "shooting", **sides, "conditions": conditions}


def test_the_flamer_model_in_range_fires_though_the_rifle_models_stand_farther() -> None:
    s = placed(Table())
    assert s.shot_key(0, 1)[:2] == ((("flamer", 1), ("rifle", 4)), 5)
    r = calculate(scenario(weapons_in_range={"Flamer": 1, "Rifle": 4}))
    # 4 Rifle attacks and 6 Flamer attacks, each hits on 4+ (1/2): 5 hits expected
    assert r.stages["hits"].mean() == pytest.approx(float(Fraction(10, 2)), abs=1e-12)
    got = law_destroyed(s)
    for k in range(6):
        assert got.get(k, 0.0) == pytest.approx(r.stages["models_destroyed"][k], abs=1e-12)
    # one distance (the farthest model's, 20") for the whole unit would silence the Flamer: 2 hits
    far = calculate(scenario(distance=20))
    assert far.stages["hits"].mean() == pytest.approx(2.0, abs=1e-12)


def test_a_model_without_line_of_sight_does_not_fire() -> None:
    s = placed(Table(terrain=(WALL,)))
    assert s.shot_key(0, 1)[:2] == ((("rifle", 4),), 4)  # the Flamer model sees no Boyz
    r = calculate(scenario(weapons_in_range={"Rifle": 4}))
    assert r.stages["hits"].mean() == pytest.approx(2.0, abs=1e-12)
    got = law_destroyed(s)
    for k in range(6):
        assert got.get(k, 0.0) == pytest.approx(r.stages["models_destroyed"][k], abs=1e-12)


def test_a_target_is_valid_only_for_a_model_with_a_weapon_in_range_of_it() -> None:
    """ "If at least one model in the unit has line of sight to an enemy unit and has a weapon that is
    within range of that unit": the Flamer model 14" off sees the Boyz within the unit's longest
    range (the Rifles' 30") but not within its Flamer's 12"; the Rifle models stand 34" off."""
    far = PLACES.copy()
    far[:4, 1], far[4, 1] = 5.0, 25.0
    s = placed(Table(), far, rank=40.0)
    assert s.firing_sight(0, 1)[2] == 1 and s.firers(0, 1) == ((), 0)
    assert s.valid_targets(0) == []
    near = far.copy()
    near[4, 1] = 28.0  # 11" off: the Flamer alone fires
    s = placed(Table(), near, rank=40.0)
    assert s.valid_targets(0) == [1] and s.shot_key(0, 1)[:2] == ((("flamer", 1),), 1)


PISTOLS = {"name": "Vets", "size": 5, "quality": 4, "equipment": ["Rifle", "Plasma Pistol"], "cost": 60}


def test_a_group_splits_by_the_weapons_in_range_of_its_models() -> None:
    """Two models have their Plasma Pistol (12", A3) in range, all five their Rifle (30", A1): the two
    fire the Pistol (the better weapon), the three others the Rifle: 6 + 3 attacks, 4.5 hits."""
    sc = scenario(weapons_in_range={"plasma pistol": 2, "Rifle": 5})
    sc["attacker"] = PISTOLS
    r = calculate(sc)
    assert sorted((f["weapon"].split(" (")[0], f["models"]) for f in r.extra["fired"]) == [
        ("Plasma Pistol", 2),
        ("Rifle", 3),
    ]
    assert r.stages["hits"].mean() == pytest.approx(4.5, abs=1e-12)
    # Relentless on Hold fires every weapon in range: 2 x 3 + 5 x 1 attacks
    sc["attacker"] = dict(PISTOLS, special_rules=["Relentless"])
    sc["conditions"]["action"] = "hold"
    assert calculate(sc).stages["hits"].mean() == pytest.approx(5.5, abs=1e-12)


@pytest.mark.parametrize(
    ("conditions", "field"),
    [
        ({"weapons_in_range": {"Lascannon": 1}}, "conditions.weapons_in_range.Lascannon"),
        ({"weapons_in_range": {"Flamer": 2}}, "conditions.weapons_in_range.Flamer"),
        ({"weapons_in_range": {"Rifle": 1}, "in_range": 1}, "conditions.in_range"),
        ({"weapons_in_range": {"Rifle": 0}}, "conditions.weapons_in_range"),
    ],
)
def test_weapons_in_range_is_checked_with_the_field_named(conditions: dict[str, Any], field: str) -> None:
    with pytest.raises(ScenarioError) as e:
        calculate(scenario(**conditions))
    assert e.value.field == field


def test_each_target_has_its_own_models_per_weapon() -> None:
    """Relentless on Hold splits its fire: the Plasma Pistols reach only the second unit (2 models),
    the Rifles both (5 models): 2 x 3 + 5 x 1 attacks in all, 5.5 hits, whatever the Rifles' target."""
    reach = {"Plasma Pistol": 2, "Rifle": 5}
    other = {"unit": dict(BOYZ, name="Grots"), "conditions": {"weapons_in_range": reach}}
    sc = scenario(action="hold", weapons_in_range={"Rifle": 5})
    sc.update(attacker=dict(PISTOLS, special_rules=["Relentless"]), other_targets=[other])
    r = calculate(sc)
    assert r.stages["hits"].mean() == pytest.approx(5.5, abs=1e-12)
    assert [f["models"] for f in r.extra["fired"]["Grots"] if f["weapon"].startswith("Plasma")] == [2]
    other["conditions"] = {"weapons_in_range": {"Pistol": 1}}
    with pytest.raises(ScenarioError) as e:
        calculate(sc)
    assert e.value.field == "other_targets.0.conditions.weapons_in_range.Pistol"
