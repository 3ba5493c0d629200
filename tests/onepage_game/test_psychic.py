"""Psyker power dice per round in the game (psychic.py): "Every round players with one or more units
with this special rule in their army receive D3+X power ... where X is the total number of Psyker
levels in their army, and each player may have a maximum of 6 power dice for each round." """

from __future__ import annotations

import json
from fractions import Fraction

import pytest

from grimdice.engine.game import CHANCE
from grimdice.engine.table.terrain import Table
from grimdice.systems.onepage.game import GameState, Setup, army_from_mapping, play, replay, states
from grimdice.systems.onepage.game.psychic import KIND, levels

SEER = {"name": "Seer", "quality": 4, "equipment": ["Pistol"], "special_rules": ["Psyker(2)"], "cost": 40}
WITCH = {"name": "Witch", "quality": 4, "equipment": ["Pistol"], "special_rules": ["Psyker(3)"], "cost": 40}
GUARD = {"name": "Guard", "size": 5, "quality": 4, "equipment": ["Rifle"], "cost": 50}
SAGE = {
    "name": "Sage",
    "quality": 4,
    "equipment": ["Pistol"],
    "special_rules": ["Psyker(1)"],
    "joins": "Guard",
}


def army(name: str, *units: dict) -> dict:
    return {"kind": "army", "system": "onepage", "name": name, "units": list(units)}


def start(a: dict, b: dict) -> GameState:
    setup = Setup((army_from_mapping(a, "a"), army_from_mapping(b, "b")), Table())
    s = GameState(setup).apply(0).apply(["side", "south"])
    while s.phase in ("deploy", "scout"):
        s = s.apply(s.legal_actions()[0])
    return s


def test_each_round_rolls_d3_plus_levels_at_most_6_for_armies_with_psykers() -> None:
    s = start(army("A", SEER, WITCH), army("B", GUARD, SAGE))
    assert s.phase == KIND and s.current_player() == CHANCE
    assert levels(s, 0) == 5 and levels(s, 1) == 1  # X: the total of the army's Psyker levels
    law = {tuple(a[1:]): p for a, p in s.chance_outcomes()}
    # army A: D3+5 capped at 6 is always 6; army B: D3+1 is 2, 3 or 4 with 1/3 each
    assert law == pytest.approx({(6, 2): 1 / 3, (6, 3): 1 / 3, (6, 4): 1 / 3})
    after = s.apply(["power", 6, 3])
    assert after.phase == "play" and after.power == (1, 6, 3)
    back = GameState.from_json(after.setup, json.loads(json.dumps(after.to_json())))
    assert back == after and back.legal_actions() == after.legal_actions()


def test_no_psyker_no_power_roll_and_levels_fall_with_the_psykers() -> None:
    s = start(army("A", GUARD), army("B", dict(GUARD, name="Other")))
    assert s.phase == "play" and s.power == ()
    t = start(army("A", SEER), army("B", GUARD))
    law = {tuple(a[1:]): p for a, p in t.chance_outcomes()}
    assert law == pytest.approx({(3, 0): 1 / 3, (4, 0): 1 / 3, (5, 0): 1 / 3})
    assert sum(law.values()) == pytest.approx(float(Fraction(1)))


def test_games_with_psykers_record_the_power_and_replay_exactly() -> None:
    setup = Setup(
        (army_from_mapping(army("A", SEER, GUARD), "a"), army_from_mapping(army("B", WITCH), "b")), Table()
    )
    log = play(setup, 5, ("random", "ai"))
    rolls = [a for a in log["actions"] if isinstance(a, list) and a[0] == "power"]
    assert 1 <= len(rolls) <= 4
    assert all(a[1] in (0, 3, 4, 5) and a[2] in (0, 4, 5, 6) for a in rolls)  # D3+2 and D3+3 (or 0: gone)
    again = replay(json.loads(json.dumps(log)))
    assert again["events"] == log["events"] and again["scores"] == log["scores"]
    assert states(log)[-1].power[0] == len(rolls)
