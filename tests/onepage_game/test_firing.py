"""Weapon arcs of Vehicles, Indirect and Limited weapons in the game (firing.py).

"When shooting Vehicles measure line of sight from the barrel of the weapon that they are firing,
being restricted by the firing arc of the weapon. This means that turrets which are able to turn 360°
can fire in all directions, whilst weapons which are mounted in the front of the vehicle can only fire
straight." / Indirect: "may be fired at enemies that are not within line of sight, however when fired
at targets not within line of sight they count as being in Cover." / Limited: "may only be fired once
per game."
"""

from __future__ import annotations

import json
from dataclasses import replace
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest
import yaml

from grimdice.dice import Dist
from grimdice.engine.table.terrain import Table, Terrain
from grimdice.errors import ScenarioError
from grimdice.systems.base import calculate
from grimdice.systems.onepage.ai import ai_player
from grimdice.systems.onepage.ai.players import best_shot
from grimdice.systems.onepage.army import load_army
from grimdice.systems.onepage.game import GameState, Setup, army_from_mapping, deploy, play, replay
from grimdice.systems.onepage.game.facing import heading
from grimdice.systems.onepage.game.state import combat_law

TANK = {
    "name": "Tank",
    "quality": 4,
    "equipment": ["Lascannon", "Machinegun"],
    "special_rules": ["Vehicle", "Tough(6)"],
    "cost": 100,
    "arcs": {"Lascannon": "front"},
}
TARGETS = {"name": "Targets", "size": 5, "quality": 5, "equipment": ["Hand Weapon"], "cost": 60}
MORTARS = {"name": "Mortars", "quality": 4, "equipment": ['Mortar (48", A6, Indirect)'], "cost": 40}
MISSILES = {
    "name": "Missiles",
    "quality": 4,
    "equipment": ['Missile (48", A6, Limited)', "Rifle"],
    "cost": 40,
}
SQUAD = {  # four Rifles and a Mortar
    "name": "Squad",
    "size": 5,
    "quality": 4,
    "equipment": ["Rifle"],
    "variants": [{"count": 1, "equipment": ['Mortar (48", A6, Indirect)']}],
}
WALL = Terrain(
    "ruins", np.array([[20.0, 24.0], [52.0, 24.0], [52.0, 26.0], [20.0, 26.0]]), frozenset({"blocks_sight"})
)


def army(name: str, *units: dict) -> dict:
    return {"kind": "army", "system": "onepage", "name": name, "units": list(units)}


def duel(a: dict, b: dict, at: tuple[float, float], table: Table | None = None) -> GameState:
    setup = Setup(
        (army_from_mapping(army("A", a), "a"), army_from_mapping(army("B", b), "b")), table or Table()
    )
    return replace(deploy(setup, 0, 0), anchors=((36.0, 20.0), at))


def shooting(s: GameState, action: str = "walk") -> GameState:
    return replace(s, phase="shoot", active=0, action=action)


def law(s: GameState, key: tuple) -> dict:
    return {k: p for k, p in combat_law(s.setup, "shoot", 0, s.units[0], 1, s.units[1], key)}


def test_arcs_are_checked_with_the_field_named(tmp_path: Path) -> None:
    with pytest.raises(ScenarioError, match=r"a\.units\.0\.arcs\.Lascannon"):
        army_from_mapping(army("A", dict(TANK, arcs={"Lascannon": "side"})), "a")
    with pytest.raises(ScenarioError, match=r"a\.units\.0\.arcs\.plasma cannon.*lascannon, machinegun"):
        army_from_mapping(army("A", dict(TANK, arcs={"Plasma Cannon": "front"})), "a")
    with pytest.raises(ScenarioError, match=r"a\.units\.0\.arcs.*Vehicle"):
        army_from_mapping(army("A", dict(TARGETS, arcs={"Hand Weapon": "front"})), "a")
    with pytest.raises(ScenarioError, match=r"a\.units\.0\.arcs.*mapping"):
        army_from_mapping(army("A", dict(TANK, arcs=["front"])), "a")
    path = tmp_path / "army.yaml"
    path.write_text(yaml.safe_dump(army("A", TANK, dict(TARGETS, base=28))))
    assert load_army(path).units[0].name == "Tank"  # the army format accepts the game's fields
    assert army_from_mapping(army("A", TANK), "a").arcs == ({"lascannon": "front"},)


def test_a_front_weapon_fires_only_at_targets_in_the_front_arc() -> None:
    plain = dict(TANK, equipment=["Machinegun"])
    plain.pop("arcs")
    behind = shooting(duel(TANK, TARGETS, (36.0, 8.0)))  # the tank faces north; the target is south
    key = behind.shot_key(0, 1)
    assert key[6] == "lascannon" and behind.legal_actions()[0] == ["shoot", 1]
    only_gun = shooting(duel(plain, TARGETS, (36.0, 8.0)))
    assert law(behind, key) == law(only_gun, only_gun.shot_key(0, 1))  # the Lascannon does not fire
    ahead = shooting(duel(TANK, TARGETS, (36.0, 32.0)))
    assert ahead.shot_key(0, 1)[6] == ""
    unarmed = shooting(duel(dict(TANK, equipment=["Lascannon"]), TARGETS, (36.0, 8.0)))
    assert unarmed.valid_targets(0) == [] and unarmed.legal_actions() == [["shoot", -1]]


def test_on_hold_the_vehicle_pivots_to_bring_its_front_weapons_to_bear_unless_immobile() -> None:
    s = duel(dict(TANK, equipment=["Lascannon"]), TARGETS, (36.0, 8.0))
    assert best_shot(s, 0, None, "walk") == (0.0, ["shoot", -1])
    value, act = best_shot(s, 0, None, "hold")
    assert value > 0 and act == ["shoot", 1]  # the AI values the pivot
    held = s.apply(["hold", 0])
    assert held.shot_key(0, 1)[6] == "" and ai_player(held, np.random.default_rng(0)) == ["shoot", 1]
    after = held.apply(["shoot", 1])
    assert heading(after, 0) == pytest.approx(-np.pi / 2, abs=1e-6)  # turned south, to the target
    stuck = s.with_unit(0, replace(s.units[0], immobile=True))
    assert stuck.apply(["hold", 0]).legal_actions() == [["shoot", -1]]


def test_indirect_fire_needs_no_line_of_sight_and_counts_as_cover() -> None:
    s = shooting(duel(MORTARS, TARGETS, (36.0, 40.0), Table(terrain=(WALL,))), "hold")
    assert s.firing_sight(0, 1)[2:] == (0, 0.0) and s.valid_targets(0) == [1]
    c = s.apply(["shoot", 1])
    key = c.pending[3]
    assert key[7] is True and key[0] == 48.0
    got: dict[int, float] = {}
    for i, p in c.chance_outcomes():
        k = 5 - c.combat_table()[i][0][0].models
        got[k] = got.get(k, 0.0) + p
    r = calculate(
        {
            "system": "onepage",
            "attack": "shooting",
            "attacker": MORTARS,
            "defender": TARGETS,
            "conditions": {"distance": 48, "in_range": 1, "action": "hold", "no_line_of_sight": True},
        }
    )
    for k in range(6):
        assert got.get(k, 0.0) == pytest.approx(r.stages["models_destroyed"][k], abs=1e-12)
    # 6 shots: hit 4+ (1/2), Cover's Armored ignores on 4+ (1/2), block 5+ fails 2/3: a wound with
    # 1/6 per shot; 5 models, so the 6th wound of six is lost
    mean = Dist.from_mapping(got).mean()
    assert mean == pytest.approx(float(1 - Fraction(1, 6) ** 6), abs=1e-12)
    rifles = shooting(duel(dict(MORTARS, equipment=["Rifle"]), TARGETS, (36.0, 40.0), Table(terrain=(WALL,))))
    assert rifles.valid_targets(0) == []  # no Indirect weapon: no line of sight, no target
    mixed = shooting(duel(SQUAD, TARGETS, (36.0, 40.0), Table(terrain=(WALL,))), "hold")
    key = mixed.shot_key(0, 1)
    assert key[7] is True and key[1] == 5  # the Mortar model fires whatever its place in the unit
    alone = law(s, s.shot_key(0, 1))
    assert law(mixed, key) == pytest.approx(alone)  # the Mortar alone fires: the Rifles need sight


def test_limited_weapons_fire_once_per_game() -> None:
    s = shooting(duel(MISSILES, TARGETS, (36.0, 40.0)), "hold")
    assert s.legal_actions() == [["shoot", 1], ["shoot", 1, "limited"], ["shoot", -1]]
    held = s.apply(["shoot", 1])
    assert held.pending[3][8] is True and held.spent == ()
    rifle = shooting(duel(dict(MISSILES, equipment=["Rifle"]), TARGETS, (36.0, 40.0)), "hold")
    assert law(s, held.pending[3]) == law(rifle, rifle.shot_key(0, 1))  # held back: the Rifle only
    fired = s.apply(["shoot", 1, "limited"])
    assert fired.pending[3][8] is False and fired.spent == ((0, "missile"),)
    assert law(s, fired.pending[3]) != law(s, held.pending[3])
    back = GameState.from_json(fired.setup, json.loads(json.dumps(fired.to_json())))
    assert back == fired and hash(back) == hash(fired)
    again = shooting(replace(fired, phase="play", pending=()), "hold")
    assert again.legal_actions() == [["shoot", 1], ["shoot", -1]]  # "only be fired once per game"
    assert again.shot_key(0, 1)[8] is True


def test_games_with_arcs_indirect_and_limited_weapons_replay_exactly() -> None:
    a = army("A", TANK, MORTARS, MISSILES)
    b = army(
        "B", TARGETS, dict(TARGETS, name="More"), dict(TANK, name="Their tank", arcs={"Machinegun": "front"})
    )
    setup = Setup((army_from_mapping(a, "a"), army_from_mapping(b, "b")), Table(terrain=(WALL,)))
    kinds: set[str] = set()
    for seed, players in ((3, ("random", "ai")), (4, ("ai", "random"))):
        log = play(setup, seed, players)
        assert log == play(setup, seed, players)
        again = replay(json.loads(json.dumps(log)))
        assert again["events"] == log["events"] and again["scores"] == log["scores"]
        kinds |= {"limited" for a in log["actions"] if isinstance(a, list) and a[-1:] == ["limited"]}
    assert kinds == {"limited"}
