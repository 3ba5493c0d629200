"""Relentless on Hold: "Units with this special rule may fire all of their weapons when using Hold
actions, even at different targets." The game does not play the split yet (one target per shooting):
this test waits for it (strict xfail; docs/onepage-game.md, "What is tested where")."""

from __future__ import annotations

from dataclasses import replace

import pytest

from grimdice.engine.board import Table
from grimdice.systems.onepage.game import GameState, Setup, army_from_mapping, deploy
from grimdice.systems.onepage.game.deployment import ON_TABLE

WALKER = {
    "name": "Dread",
    "quality": 3,
    "equipment": ["Assault Rifle", "Lascannon"],
    "special_rules": ["Walker"],  # "Walkers always have the Armored and Relentless special rules"
}
ENEMY = {"name": "Enemy", "size": 1, "quality": 5, "equipment": ["Assault Rifle"], "cost": 60}


def army(name: str, *units: dict) -> dict:
    return {"kind": "army", "system": "onepage", "name": name, "units": list(units)}


def test_a_relentless_unit_on_hold_may_fire_its_weapons_at_different_targets() -> None:
    setup = Setup(
        (
            army_from_mapping(army("A", WALKER), "a"),
            army_from_mapping(army("B", ENEMY, dict(ENEMY, name="E2")), "b"),
        ),
        Table(),
    )
    s: GameState = deploy(setup, 0, 0)
    s = replace(s, anchors=((36.0, 10.0), (30.0, 20.0), (42.0, 20.0)), place=(ON_TABLE,) * 3)
    s = replace(s, phase="shoot", active=0, action="hold", player=0)
    assert set(s.valid_targets(0)) == {1, 2}
    # some shoot action names both targets (one weapon group at each)
    assert any(
        a[0] == "shoot" and {1, 2} <= {x for x in a[1:] if isinstance(x, int)} for a in s.legal_actions()
    )
