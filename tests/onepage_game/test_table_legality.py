"""Legal play on the table, whole bases and whole paths: "Units may not move within 1" of other units
(friendly or enemy) when walking and running", "Units may not move into or through impassable
terrain", Flying "may move through other units and impassable terrain", an Assault needs "a clear
path", cover is "within or behind a piece of cover terrain"; and the invariant checker that finds
what breaks these rules in a state or a move."""

from __future__ import annotations

from dataclasses import replace

import numpy as np

from grimdice.engine.table.terrain import Table, Terrain
from grimdice.systems.onepage.game import GameState, Setup, army_from_mapping, deploy
from grimdice.systems.onepage.game.invariants import violations

RUNNER = {"name": "Runner", "quality": 4, "equipment": ["Rifle"], "cost": 10}
FLYER = dict(RUNNER, name="Flyer", special_rules=["Flying"])
POST = {"name": "Post", "quality": 4, "equipment": ["Rifle"], "cost": 10}
GUARD = {"name": "Guard", "quality": 4, "equipment": ["Rifle"], "cost": 10}


def state_of(
    mine: list[dict],
    theirs: list[dict],
    anchors: list[tuple[float, float]],
    terrain: tuple[Terrain, ...] = (),
) -> GameState:
    def army(name: str, units: list[dict]) -> dict:
        return {"kind": "army", "system": "onepage", "name": name, "units": units}

    setup = Setup(
        (army_from_mapping(army("A", mine), "a"), army_from_mapping(army("B", theirs), "b")),
        Table(terrain=terrain),
    )
    return replace(deploy(setup, 0, 0), anchors=tuple(anchors))


def rect(name: str, x0: float, y0: float, x1: float, y1: float, *traits: str) -> Terrain:
    return Terrain(name, np.array([[x0, y0], [x1, y0], [x1, y1], [x0, y1]]), frozenset(traits))


def test_a_run_may_not_pass_through_another_unit_flying_may() -> None:
    s = state_of([RUNNER], [POST], [(36.0, 8.0), (36.0, 14.0)])
    # 12" north ends 6" past the post, clear of it at the end: the path goes through its base
    assert s.placement_ok(0, (36.0, 8.0), (36.0, 20.0))[0] is False
    assert s.placement_ok(0, (36.0, 8.0), (44.0, 17.0))[0] is True  # around it
    fly = state_of([FLYER], [POST], [(36.0, 8.0), (36.0, 14.0)])
    assert fly.placement_ok(0, (36.0, 8.0), (36.0, 20.0))[0] is True
    assert all(not (a[0] == "run" and a[2] == 0.0 and a[3] > 7.0) for a in s.legal_actions())


def test_bases_in_contact_may_not_move_onto_each_other() -> None:
    r = 0.5 * 32 / 25.4  # a 32 mm base
    s = state_of([RUNNER], [POST], [(36.0, 10.0), (36.0, 10.0 + 2 * r)])  # touching
    assert s.gap(0, 1) == 0.0
    assert s.placement_ok(0, (36.0, 10.0), (36.0, 10.5))[0] is False  # onto the post's base
    assert s.placement_ok(0, (36.0, 10.0), (36.0, 8.0))[0] is True  # away from it


def test_an_assault_s_path_is_clear_of_other_units_and_ends_on_its_target_only() -> None:
    s = state_of([RUNNER], [GUARD, POST], [(36.0, 8.0), (36.0, 13.0), (36.0, 18.0)])
    assert ["assault", 0, 1] in s.legal_actions()
    assert ["assault", 0, 2] not in s.legal_actions()  # the guard stands in the way
    fly = state_of([FLYER], [GUARD, POST], [(36.0, 8.0), (36.0, 13.0), (36.0, 18.0)])
    assert ["assault", 0, 2] in fly.legal_actions()


def test_a_charge_ends_with_bases_touching_never_overlapping() -> None:
    """The block moves along the line of the closest pair until the first bases touch."""
    squad = dict(RUNNER, size=3)
    s = state_of([squad], [POST], [(36.0, 10.0), (37.6, 14.0)])
    c = s.charged(0, 1)
    d = np.hypot(*(c.models(0)[:, None, :] - c.models(1)[None, :, :]).transpose(2, 0, 1))
    assert d.min() >= 2 * c.setup.radii[0] - 0.002  # no base over the target's
    assert violations(c) == []


def test_large_bases_may_not_stand_partly_over_impassable_terrain() -> None:
    rock = rect("rock", 30.0, 14.0, 42.0, 20.0, "impassable")
    s = state_of([RUNNER], [POST], [(36.0, 8.0), (36.0, 40.0)], (rock,))
    r = float(s.setup.radii[0])
    assert s.placement_ok(0, (36.0, 8.0), (36.0, 14.0 - r - 0.05))[0] is True
    assert s.placement_ok(0, (36.0, 8.0), (36.0, 14.0 - r + 0.05))[0] is False  # the rim over the rock


def test_cover_comes_from_terrain_between_or_around_the_target_not_the_shooter_s_own() -> None:
    wood = rect("wood", 30.0, 6.0, 42.0, 12.0, "cover")
    inside = state_of([RUNNER], [POST], [(36.0, 9.0), (36.0, 30.0)], (wood,))
    assert inside.in_cover(0, 1) is False  # the shooter stands in the wood, the target in the open
    behind = state_of([RUNNER], [POST], [(36.0, 30.0), (36.0, 3.0)], (wood,))
    assert behind.in_cover(0, 1) is True  # the wood lies between


def test_the_checker_finds_overlaps_paths_through_units_and_impassable_terrain() -> None:
    rock = rect("rock", 30.0, 20.0, 42.0, 24.0, "impassable")
    s = state_of([RUNNER], [POST], [(36.0, 8.0), (36.0, 14.0)], (rock,))
    assert violations(s) == []
    through = replace(s, anchors=((36.0, 18.0), (36.0, 14.0)))
    found = violations(through, s, ["run", 0, 0.0, 10.0])
    assert any("moves through" in v for v in found)
    assert violations(through, s, ["scout", 0, 36.0, 18.0]) == []  # a placement: no path
    on_rock = replace(s, anchors=((36.0, 21.0), (36.0, 14.0)))
    assert any("over impassable" in v for v in violations(on_rock))
    overlap = replace(s, anchors=((36.0, 14.5), (36.0, 14.0)))
    assert any("overlaps" in v for v in violations(overlap))
    off = replace(s, anchors=((0.1, 8.0), (36.0, 14.0)))
    assert any("off the table" in v for v in violations(off))
