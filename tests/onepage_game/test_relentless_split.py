"""Relentless on Hold: "Units with this special rule may fire all of their weapons when using Hold
actions, even at different targets." One target per weapon profile (firing.split_actions), each
target's shooting resolved in turn with its own casualties and morale (docs/onepage-game.md)."""

from __future__ import annotations

import json
from dataclasses import replace
from fractions import Fraction

import pytest

from grimdice.engine.table.terrain import Table
from grimdice.systems.onepage.ai.players import best_shot, value_of_shot
from grimdice.systems.onepage.game import GameState, Setup, army_from_mapping, deploy, firing, play, replay
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


def split_scene(walker: dict = WALKER, action: str = "hold") -> GameState:
    setup = Setup(
        (
            army_from_mapping(army("A", walker), "a"),
            army_from_mapping(army("B", ENEMY, dict(ENEMY, name="E2")), "b"),
        ),
        Table(),
    )
    s = replace(
        deploy(setup, 0, 0), anchors=((36.0, 10.0), (30.0, 20.0), (42.0, 20.0)), place=(ON_TABLE,) * 3
    )
    return replace(s, phase="shoot", active=0, action=action, player=0)


def law(s: GameState) -> dict:
    """The pending shooting's law: the target's end state -> probability."""
    return {k[0]: p for k, p in s.combat_table()}


def alone(weapon: str, t: int) -> dict:
    """The law of the Dread carrying ``weapon`` only, shooting ``t`` (an independent unit)."""
    return law(split_scene(dict(WALKER, equipment=[weapon, "Dreadnought Fist"])).apply(["shoot", t]))


def test_each_target_takes_only_the_weapons_aimed_at_it_then_its_own_casualties_in_turn() -> None:
    s = split_scene()
    # the weapon profiles in name order: Assault Rifle at 1, Lascannon at 2, and the reverse
    assert [a for a in s.legal_actions() if len(a) > 2] == [
        ["shoot", 1, "split", 1, 2],
        ["shoot", 2, "split", 2, 1],
    ]
    first = s.apply(["shoot", 2, "split", 2, 1])
    assert first.phase == "combat" and first.pending[2] == 1  # ascending target order
    assert law(first) == pytest.approx(alone("Lascannon", 1))
    assert law(first) != pytest.approx(law(s.apply(["shoot", 1])))  # not both weapons at 1
    back = GameState.from_json(first.setup, json.loads(json.dumps(first.to_json())))
    assert back == first and hash(back) == hash(first)
    last = first.chance_outcomes()[-1][0]
    second = first.apply(last)
    assert second.phase == "combat" and second.pending[2] == 2 and second.volley == ()
    assert second.units[1] != s.units[1] and second.units[2] == s.units[2]  # 1 hit, 2 not yet
    assert law(second) == pytest.approx(alone("Assault Rifle", 2))
    done = second.apply(0)
    assert done.phase == "play" and done.activated[0]


def test_assault_rifle_alone_kills_one_model_with_the_hand_computed_chance() -> None:
    # Quality 3+ hits 4/6; the Quality 5 target blocks on 5+ (AP0): 4/6 fail; one attack
    kill = sum(p for st, p in alone("Assault Rifle", 1).items() if st.destroyed)
    assert kill == pytest.approx(float(Fraction(4, 6) * Fraction(4, 6)))


def test_no_split_on_walk_for_one_profile_or_without_relentless() -> None:
    assert all(len(a) <= 2 for a in split_scene(action="walk").legal_actions())
    plain = dict(WALKER, special_rules=[])
    assert all(len(a) <= 2 for a in split_scene(plain).legal_actions())
    one = dict(WALKER, equipment=["Lascannon", "Dreadnought Fist"])
    assert all(len(a) <= 2 for a in split_scene(one).legal_actions())


def test_a_weapon_is_only_aimed_at_a_target_in_its_range() -> None:
    s = split_scene(dict(WALKER, equipment=["Pistol", "Lascannon"]))
    s = replace(s, anchors=((36.0, 10.0), (30.0, 20.0), (36.0, 45.0)))  # 2 beyond the Pistol's 12"
    # profiles in name order (Lascannon, Pistol): the Pistol aims only at 1
    assert [a for a in s.legal_actions() if firing.is_split(a)] == [["shoot", 2, "split", 2, 1]]
    s = replace(s, anchors=((36.0, 10.0), (30.0, 20.0), (36.0, 70.0)))  # 2 beyond both
    assert not any(firing.is_split(a) for a in s.legal_actions())


def test_splits_are_capped() -> None:
    many = dict(WALKER, equipment=["Pistol", "Rifle", "Lascannon", "Autocannon", "Plasma Cannon"])
    setup = Setup(
        (
            army_from_mapping(army("A", many), "a"),
            army_from_mapping(army("B", *(dict(ENEMY, name=f"E{i}") for i in range(3))), "b"),
        ),
        Table(),
    )
    s = replace(
        deploy(setup, 0, 0),
        anchors=((36.0, 10.0), (30.0, 15.0), (36.0, 15.0), (42.0, 15.0)),
        place=(ON_TABLE,) * 4,
    )
    splits = firing.split_actions(s, 0, s.valid_targets(0, None, "hold"), "hold")
    assert len(splits) == firing.SPLIT_CAP  # 3**5 - 3 assignments name two targets or more
    assert len({tuple(a) for a in splits}) == len(splits)


def test_the_ai_takes_the_assignment_that_removes_the_most_expected_points() -> None:
    s = split_scene()
    value, choice = best_shot(s, 0, None, "hold")
    options = {}
    for a in s.legal_actions():
        if a[1] < 0:
            continue
        shots = firing.split_shots(s, 0, a, "hold") if firing.is_split(a) else [(a[1], s.shot_key(0, a[1]))]
        options[tuple(a)] = sum(value_of_shot(s, 0, t, key) for t, key in shots)
    assert value == pytest.approx(max(options.values())) and options[tuple(choice)] == pytest.approx(value)
    # two one-model targets of equal worth: one weapon at each beats both weapons at one
    assert firing.is_split(choice)


def test_games_with_split_fire_replay_exactly() -> None:
    a = army("A", WALKER, dict(WALKER, name="Dread 2"))
    b = army("B", *(dict(ENEMY, name=f"E{i}", size=3) for i in range(4)))
    setup = Setup((army_from_mapping(a, "a"), army_from_mapping(b, "b")), Table())
    splits = 0
    for seed, players in ((1, ("ai", "random")), (2, ("random", "ai"))):
        log = play(setup, seed, players)
        assert log == play(setup, seed, players)
        again = replay(json.loads(json.dumps(log)))
        assert again["events"] == log["events"] and again["scores"] == log["scores"]
        splits += sum(1 for x in log["actions"] if isinstance(x, list) and firing.is_split(x))
    assert splits > 0


def test_a_front_mounted_weapon_aims_only_at_the_target_the_vehicle_pivots_to() -> None:
    tank = {
        "name": "Tank",
        "quality": 4,
        "equipment": ["Lascannon", "Machinegun"],
        "special_rules": ["Vehicle", "Tough(6)"],
        "arcs": {"Lascannon": "front"},
    }
    s = split_scene(tank)
    splits = [a for a in s.legal_actions() if firing.is_split(a)]
    # profiles in name order (Lascannon, Machinegun): the Lascannon's target is the pivot's
    assert splits == [["shoot", 1, "split", 1, 2], ["shoot", 2, "split", 2, 1]]
    assert all(a[3] == a[1] for a in splits)
    front = split_scene(dict(tank, arcs={"Machinegun": "front"}))
    # the Vehicle pivots to the front-mounted Machinegun's target
    assert [a for a in front.legal_actions() if firing.is_split(a)] == [
        ["shoot", 2, "split", 1, 2],
        ["shoot", 1, "split", 2, 1],
    ]
    both = split_scene(dict(tank, arcs={"Machinegun": "front", "Lascannon": "front"}))
    assert not any(firing.is_split(a) for a in both.legal_actions())  # one front, one target
