"""Who strikes in the game's melee, model by model (melee_moves.py): the defenders' "move by up to 3"
to get into base contact" and "in base contact ... or that are within 2" of a model from the target
unit may attack"."""

from __future__ import annotations

from dataclasses import replace
from fractions import Fraction

import numpy as np
import pytest

from grimdice.dice import Dist
from grimdice.engine.table.terrain import Table, Terrain
from grimdice.systems.base import calculate
from grimdice.systems.onepage.game import GameState, Setup, army_from_mapping, deploy
from grimdice.systems.onepage.game.melee_moves import defenders_moved, difficult_near, strikers
from grimdice.systems.onepage.game.setup import GAP, MM

CHAMPION = {"name": "Champion", "quality": 3, "equipment": ["Power Weapon"], "cost": 40}
LINE = {"name": "Line", "size": 5, "quality": 5, "equipment": ["Hand Weapon"], "cost": 50}
R = 32 / MM / 2  # a 32 mm base's radius in inches
STEP = 2 * R + GAP  # centre spacing in a rank


def army(name: str, *units: dict) -> dict:
    return {"kind": "army", "system": "onepage", "name": name, "units": list(units)}


def flank_charge() -> GameState:
    """The champion touches the west end of a rank of 5 (centres 1.76" apart on y = 30)."""
    setup = Setup(
        (army_from_mapping(army("A", CHAMPION), "a"), army_from_mapping(army("B", LINE), "b")), Table()
    )
    s = deploy(setup, 0, 0)
    return replace(s, anchors=((36.0 - 2 * STEP - 2 * R, 30.0), (36.0, 30.0)))


def test_the_defenders_3_inch_move_and_the_2_inch_reach_count_model_by_model() -> None:
    s = flank_charge()
    assert s.gap(0, 1) == pytest.approx(0.0, abs=1e-9)
    # gaps from the champion to the rank: 0, 1.26+0.5, 2x, 3x, 4x 1.76" ... after up to 3" of move:
    # 0, 0, 0.52, 2.28, 4.04 - three defenders within 2"; the champion touches one: it strikes
    moved = defenders_moved(s.models(0), R, s.models(1), R)
    gaps = np.linalg.norm(moved - s.models(0)[0], axis=1) - 2 * R
    assert gaps == pytest.approx([0.0, 0.0, 2 * STEP - 3.0, 3 * STEP - 3.0, 4 * STEP - 3.0], abs=1e-9)
    assert strikers(s, 0, 1) == (1, 3)
    assert s.melee_key(0, 1)[2:4] == (1, 3)


def test_the_games_melee_law_uses_the_strikers_counted() -> None:
    s = flank_charge()
    c = s.apply(["assault", 0, 1])
    got: dict[int, float] = {}
    for i, p in c.chance_outcomes():
        k = 1 - sum(c.combat_table()[i][0][0].alive)
        got[k] = got.get(k, 0.0) + p
    scenario = {"system": "onepage", "attack": "melee", "attacker": CHAMPION, "defender": LINE}
    three = calculate(dict(scenario, conditions={"attacker_strikers": 1, "defender_strikers": 3}))
    every = calculate(scenario)
    law = Dist.from_mapping(got)
    # the champion's losses: exactly calculate()'s with 3 defenders striking, not with all 5
    assert law[1] == pytest.approx(three.stages["attacker_models_destroyed"][1], abs=1e-12)
    assert law[1] < every.stages["attacker_models_destroyed"][1] - 1e-3
    # by hand: 3 defenders x Hand Weapon (A2) = 6 attacks, hit on 5+ (1/3), the champion fails its
    # 3+ block with 1/3: it is killed unless all 6 miss, 1 - (8/9)^6 (strikes are simultaneous)
    assert law[1] == pytest.approx(float(1 - Fraction(8, 9) ** 6), abs=1e-12)


def test_head_on_everyone_strikes() -> None:
    setup = Setup(
        (army_from_mapping(army("A", LINE), "a"), army_from_mapping(army("B", dict(LINE, size=10)), "b")),
        Table(),
    )
    s = deploy(setup, 0, 0)
    s = replace(s, anchors=((36.0, 20.0), (36.0, 20.0 + 2 * R)))  # front ranks touch
    # the defenders' second rank is 1.76 - 1.26 = 0.5" behind contact: within 2" already
    assert strikers(s, 0, 1) == (5, 10)


def test_difficult_near_is_a_box_test_on_the_difficult_pieces_only() -> None:
    """The pieces' bounding boxes against the box around the points widened by the margin: a
    triangle's box reaches where the triangle does not, and other traits do not count."""
    tri = Terrain("slope", np.array([[10.0, 10.0], [20.0, 10.0], [10.0, 20.0]]), frozenset({"difficult"}))
    rock = Terrain(
        "rock", np.array([[40.0, 10.0], [50.0, 10.0], [50.0, 20.0], [40.0, 20.0]]), frozenset({"impassable"})
    )
    table = Table(terrain=(tri, rock))
    pts = np.array([[24.0, 24.0], [30.0, 30.0]])  # the box's corner (24, 24) is 4" from the box's (20, 20)
    assert not difficult_near(table, pts, 3.9)
    assert difficult_near(table, pts, 4.0)  # touching boxes count, the triangle itself is farther
    beside_rock = np.array([[45.0, 22.0]])  # 2" from the rock, far from the slope
    assert not difficult_near(table, beside_rock, 2.5)
    assert difficult_near(table, np.array([[15.0, 22.0]]), 2.0)
