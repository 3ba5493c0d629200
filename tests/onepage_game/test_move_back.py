"""The 1" move back after a melee the defender survives (consolidation.move_back).

"If the defending unit was not completely destroyed, then the assaulting unit must move back by 1",
separating itself from the defending unit." It is a move like any other: "Vehicles may not move
sideways, and they move at half speed when reversing", "Vehicles may pivot ... by up to 90° at any
point during Walk, Run and Assault actions", "Units may not move into or through impassable terrain",
and "If a unit moves through dangerous terrain you must roll one die for each model that moved into
or across the dangerous terrain. For each 1 you roll the unit takes one automatic hit."
"""

from __future__ import annotations

import math
from dataclasses import replace
from fractions import Fraction

import numpy as np
import pytest

from grimdice.engine.game import CHANCE
from grimdice.engine.table.terrain import Table, Terrain
from grimdice.systems.onepage.game import GameState, Setup, army_from_mapping, deploy
from grimdice.systems.onepage.game.consolidation import BACK, KIND, back_moves
from grimdice.systems.onepage.game.facing import heading

BRUTES = {"name": "Brutes", "size": 5, "quality": 2, "equipment": ["Hand Weapon"], "cost": 50}
WALL = {"name": "Wall", "size": 10, "quality": 2, "equipment": ["Fists/Claws"], "cost": 50}
OGRE = {"name": "Ogre", "quality": 2, "equipment": ["Fists/Claws"], "special_rules": ["Tough(9)"], "cost": 40}
TANK = {"name": "Tank", "quality": 4, "equipment": ["Pistol"], "special_rules": ["Vehicle", "Tough(12)"]}


def state_of(
    a: dict, b: dict, anchors: list[tuple[float, float]], terrain: tuple[Terrain, ...] = ()
) -> GameState:
    def army(name: str, unit: dict) -> dict:
        return {"kind": "army", "system": "onepage", "name": name, "units": [unit]}

    setup = Setup(
        (army_from_mapping(army("A", a), "a"), army_from_mapping(army("B", b), "b")), Table(terrain=terrain)
    )
    return replace(deploy(setup, 0, 0), anchors=tuple(anchors))


def survived(s: GameState) -> list[tuple[GameState, float]]:
    """The outcomes of unit 0's assault on unit 1 in which both units are left on the table."""
    c = s.apply(["assault", 0, 1])
    assert c.current_player() == CHANCE and c.pending[0] == "melee"
    out = []
    for i, p in c.chance_outcomes():
        states = c.combat_table()[i][0]
        if not states[0].destroyed and not states[1].destroyed:
            out.append((c.apply(i), p))
    assert out
    return out


def in_contact(terrain: tuple[Terrain, ...] = ()) -> GameState:
    """Brutes that have already made their Assault move on the Wall (bases touching)."""
    charged = state_of(BRUTES, WALL, [(36.0, 20.0), (36.0, 26.0)]).apply(["assault", 0, 1])
    return state_of(BRUTES, WALL, list(charged.anchors), terrain)


def rear(s: GameState) -> float:
    """The back edge of unit 0's bases (terrain is met by any part of a base)."""
    return float(s.models(0)[:, 1].min()) - float(s.setup.radii[0])


def rect(x0: float, y0: float, x1: float, y1: float, trait: str) -> Terrain:
    return Terrain(trait, np.array([[x0, y0], [x1, y0], [x1, y1], [x0, y1]]), frozenset({trait}))


def test_a_vehicle_moves_back_in_reverse_at_half_speed_keeping_its_heading() -> None:
    s = state_of(TANK, WALL, [(36.0, 20.0), (36.0, 30.0)])
    charged = s.apply(["assault", 0, 1])
    start = charged.anchors[0]
    assert heading(charged, 0) == pytest.approx(math.pi / 2)  # it charged north, so it faces north
    for after, _p in survived(s):
        assert after.phase == "play" and after.activated[0]
        if after.units[0].immobile:  # "may not move or pivot until the end of the game"
            assert after.anchors[0] == start
            continue
        dx, dy = after.anchors[0][0] - start[0], after.anchors[0][1] - start[1]
        # straight away from the closest defending model, which is a reverse here: "they move at
        # half speed when reversing"
        ux, uy = after.charge_vector(0, 1, unit=True)
        assert (dx, dy) == pytest.approx((-ux * BACK / 2, -uy * BACK / 2), abs=2e-3)
        assert math.cos(heading(after, 0) - math.atan2(uy, ux)) == pytest.approx(1.0)  # still its front


def test_a_vehicle_pivots_rather_than_moving_sideways() -> None:
    # the Ogre already touches the Tank's east side: the charge does not turn it (heading north)
    s = state_of(TANK, OGRE, [(36.0, 24.0), (38.5, 24.0)])
    assert s.gap(0, 1) <= 0 and heading(s, 0) == pytest.approx(math.pi / 2)
    for after, _p in survived(s):
        if after.units[0].immobile:
            continue
        dx, dy = after.anchors[0][0] - 36.0, after.anchors[0][1] - 24.0
        assert (dx, dy) == pytest.approx((-BACK, 0.0), abs=2e-3)  # west, away from the Ogre
        # "may not move sideways": it pivots 90° (allowed during an Assault action) and goes forwards
        assert heading(after, 0) == pytest.approx(math.pi)


def test_the_move_back_rolls_for_dangerous_terrain_one_die_per_model() -> None:
    back = rear(in_contact())
    mines = rect(20.0, back - 3.0, 52.0, back - 0.3, "dangerous")  # just behind the Brutes
    s = in_contact((mines,))
    for after, _p in survived(s):
        assert after.current_player() == CHANCE
        assert after.pending[:2] == ("dangerous", 0) and after.action == KIND
        n = after.units[0].models
        assert after.pending[3] == (n,)  # every model moved into the mines
        # a model is lost when its die is a 1 and the Quality 2+ block fails: 1/6 * 1/6 each
        unchanged = sum(
            p for i, p in after.chance_outcomes() if after.combat_table()[i][0][0] == after.units[0]
        )
        assert unchanged == pytest.approx(float(Fraction(35, 36) ** n), abs=1e-12)
        for i, _p in after.chance_outcomes():
            assert after.apply(i).phase == "play"  # the rolls end the activation


def test_a_blocked_move_back_takes_the_nearest_legal_direction() -> None:
    back = rear(in_contact())
    # a ditch along the back, 0.4" away: straight back (1") and up to 60° off (0.5" back) run
    # into it, 75° off (0.26" back) passes
    post = rect(20.0, back - 3.0, 52.0, back - 0.4, "impassable")
    s = in_contact((post,))
    start = s.anchors[0]
    for after, _p in survived(s):
        dx, dy = after.anchors[0][0] - start[0], after.anchors[0][1] - start[1]
        assert math.hypot(dx, dy) == pytest.approx(BACK, abs=2e-3)  # "must move back by 1""
        ux, uy = s.charge_vector(0, 1, unit=True)
        off = math.degrees(math.acos(max(-1.0, min(1.0, -(dx * ux + dy * uy) / math.hypot(dx, dy)))))
        assert off == pytest.approx(75.0, abs=0.5)  # turned from straight back
        assert not post.contains(after.models(0)).any()
        before = replace(after, anchors=(start, after.anchors[1]))
        assert after.gap(0, 1) > before.gap(0, 1)  # "separating itself from the defending unit"


def test_no_legal_place_leaves_the_unit_where_it_is() -> None:
    back = rear(in_contact())
    pit = rect(20.0, back - 3.0, 52.0, back - 0.2, "impassable")  # all along the back, 0.2" away
    s = in_contact((pit,))
    for after, _p in survived(s):
        assert back_moves(replace(after, phase="play"), 0, 1) == []
        assert after.anchors[0] == s.anchors[0] and after.phase == "play"
