"""Exact vs Monte Carlo on scenarios combining rules (the shared bound)."""

from __future__ import annotations

import pytest

from grimdice.systems.onepage import calculate
from tests.agreement import assert_agree
from tests.onepage.helpers import scenario

N = 20_000
MARINES = {
    "name": "Tactical Marines",
    "size": 6,
    "quality": 3,
    "equipment": ["Assault Rifle", "Hand Weapon"],
    "variants": [{"count": 1, "equipment": ["Meltagun", "Chain Claw (A2, Rending)"]}],
    "special_rules": ["Fearless"],
    "cost": 90,
}
CAPTAIN = {
    "name": "Captain",
    "quality": 3,
    "equipment": ["Power Weapon"],
    "special_rules": ["Hero", "Tough(3)", "Fearless"],
    "cost": 60,
}
BOYZ = {
    "name": "Boyz",
    "size": 8,
    "quality": 5,
    "equipment": ['Chem Gun (18", A1, Poison)', "Hand Weapon"],
    "special_rules": ["Furious", "Hatred"],
    "cost": 80,
}
BOSS = {
    "name": "Warboss",
    "quality": 5,
    "equipment": ["Klaw (A4x, Strikes Last)"],
    "special_rules": ["Hero", "Tough(3)", "Fear"],
    "cost": 70,
}
DREAD = {
    "name": "Dread",
    "quality": 3,
    "equipment": ["Multi-Melta", "Dreadnought Fist"],
    "special_rules": ["Walker", "Tough(3)"],
}
TANK = {
    "name": "Tank",
    "quality": 4,
    "equipment": ["Battle Cannon"],
    "special_rules": ["Vehicle", "Tough(4)"],
}

CASES = {
    "shoot-cover-poison-x-hero": scenario(
        "shooting",
        BOYZ,
        MARINES,
        defender_hero=CAPTAIN,
        attacker_hero=BOSS,
        conditions={"distance": 12, "cover": True},
    ),
    "shoot-melta-at-boyz-hero": scenario(
        "shooting", MARINES, BOYZ, defender_hero=BOSS, conditions={"distance": 10}
    ),
    "melee-fear-furious-tough-heroes": scenario(
        "melee", BOYZ, MARINES, attacker_hero=BOSS, defender_hero=CAPTAIN
    ),
    "melee-pinned-elevation": scenario(
        "melee",
        MARINES,
        BOYZ,
        attacker_hero=CAPTAIN,
        defender_hero=BOSS,
        conditions={"attacker_pinned": True, "defender_higher": True},
    ),
    # per-weapon tiers: the attacker strikes first (Lance), with the defender (bonus) and last (Maul)
    "melee-strike-tiers-per-weapon": scenario(
        "melee",
        {
            "name": "Lancers",
            "size": 3,
            "quality": 4,
            "equipment": ["Lance (A1, Strikes First)", "Maul (A1, Strikes Last, Rending)"],
        },
        {**BOYZ, "size": 4},
        defender_hero={**BOSS, "equipment": ["Hand Weapon"]},
    ),
    # Piercing's option per melee weapon chosen over the whole melee (the simulation plays the same)
    "melee-piercing-vs-armored": scenario(
        "melee",
        {**MARINES, "equipment": ["Power Sword (A2, Piercing)"], "variants": []},
        {**BOYZ, "size": 5, "special_rules": ["Armored"]},
        defender_hero={**BOSS, "equipment": ["Axe (A3, Poison)"]},
    ),
    "melee-tank-rams-walker": scenario("melee", TANK, DREAD, conditions={"facing": "front"}),
    "shoot-immobile-tank-rear": scenario(
        "shooting", DREAD, TANK, conditions={"facing": "rear", "immobile": True, "action": "hold"}
    ),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_exact_agrees_with_monte_carlo(name: str) -> None:
    sc = CASES[name]
    exact = calculate(sc)
    sim = calculate(sc, simulate=N, seed=7)
    assert_agree(exact.stages, sim.stages, N)
    assert abs(sum(exact[s].total() for s in exact.stages) - len(exact.stages)) < 1e-9
