"""The fight scenario layer: profiles mapped onto the fight engine's Fighter (engine stubbed here;
the engine itself is tested in ``test_fight*.py``)."""

import sys
import types
from dataclasses import dataclass
from enum import StrEnum

import pytest

from grimdice.dice import Dist
from grimdice.errors import ScenarioError
from grimdice.result import Result
from grimdice.systems.killteam import calculate
from grimdice.systems.killteam.rules import NO_RULES, WeaponRules


class Objective(StrEnum):
    KILL = "kill"
    DAMAGE_DEALT = "damage_dealt"
    DAMAGE_TAKEN = "damage_taken"


@dataclass(frozen=True)
class Fighter:
    name: str
    wounds: int
    attacks: int
    hit: int
    normal_damage: int
    critical_damage: int
    rules: WeaponRules = NO_RULES
    objective: Objective = Objective.KILL


calls = []


def fight_result(attacker, defender, *, simulate=None, seed=None, title="", **run):
    calls.append((attacker, defender, simulate, seed, title))
    stages = {"damage": Dist.constant(0), "models_destroyed": Dist.constant(0)}
    return Result("killteam", "exact" if simulate is None else "simulated", stages, title=title)


@pytest.fixture
def stub(monkeypatch):
    mod = types.ModuleType("grimdice.systems.killteam.fight")
    mod.Fighter, mod.Objective, mod.fight_result = Fighter, Objective, fight_result
    monkeypatch.setitem(sys.modules, "grimdice.systems.killteam.fight", mod)
    calls.clear()
    return calls


def fight(**kw):
    sc = {
        "system": "killteam",
        "action": "fight",
        "title": "duel",
        "attacker": {
            "name": "Nob",
            "W": 12,
            "wounds": 5,
            "weapons": [
                {"name": "Slugga", "A": 4, "BS": 5, "D": "3/4"},
                {
                    "name": "Big choppa",
                    "A": 4,
                    "WS": 3,
                    "D": "5/6",
                    "rules": ["Brutal", "Reap 1"],
                    "critical": ["Rending", "MW2"],
                },
            ],
        },
        "target": {
            "name": "Sergeant",
            "W": 13,
            "weapons": [
                {"name": "Chainsword", "A": 5, "WS": 3, "D": "4/5", "rules": ["Relentless", "Lethal 5+"]}
            ],
        },
    }
    sc.update(kw)
    return calculate(sc)


def test_profiles_map_onto_fighters(stub):
    res = fight(objectives={"attacker": "damage_dealt", "defender": "damage_taken"})
    a, d, simulate, _, title = stub[0]
    assert a == Fighter(
        "Nob", 5, 4, 4, 5, 6, WeaponRules(brutal=True, reap=1, rending=True), objective=Objective.DAMAGE_DEALT
    )
    assert d == Fighter(
        "Sergeant", 13, 5, 3, 4, 5, WeaponRules(lethal=5, relentless=True), objective=Objective.DAMAGE_TAKEN
    )
    assert simulate is None and title == "duel"
    assert res.extra["rules_without_effect_in_fights"] == ["mw"]


def test_reap_bystanders_within_a_triangle(stub):
    res = fight(
        nearby=[
            {"name": "close", "W": 8, "distance_to_target": 1},
            {"name": "by me", "W": 8, "distance_to_target": 4, "distance_to_attacker": "triangle"},
            {"name": "far", "W": 8, "distance_to_target": 2},
            {"name": "unseen", "W": 8, "distance_to_target": 1, "visible_to_attacker": False},
        ]
    )
    assert res.extra["reap_bystanders"] == {"Nob": ["close", "by me"]}


def test_fight_errors(stub):
    with pytest.raises(ScenarioError, match="ranged weapon"):
        fight(weapon="Slugga")
    with pytest.raises(ScenarioError, match=r"objectives.attacker.*allowed: kill, damage_dealt"):
        fight(objectives={"attacker": "damage"})
    with pytest.raises(ScenarioError, match="no weapon 'Axe'"):
        fight(defender_weapon="Axe")


def test_without_the_fight_engine_a_clear_error(monkeypatch):
    monkeypatch.setitem(sys.modules, "grimdice.systems.killteam.fight", None)
    with pytest.raises(ScenarioError, match="fights: not available yet"):
        fight()
