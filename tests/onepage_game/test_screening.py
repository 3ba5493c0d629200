"""Line of sight through other units' models (screening.py): "draw a straight line from one model's
base to the other, and if it does not pass through any solid obstacle then the model has line of
sight. For the purpose of determining line of sight a model may ignore friendly models in its own
unit." Models of other units, friendly or enemy, are solid obstacles."""

from __future__ import annotations

from dataclasses import replace

import numpy as np

from grimdice.engine.table.sweeps import pairs_see
from grimdice.engine.table.terrain import Table
from grimdice.systems.onepage.ai.players import best_shot, best_shots
from grimdice.systems.onepage.game import GameState, Setup, army_from_mapping, deploy
from grimdice.systems.onepage.game.deployment import ON_TABLE
from grimdice.systems.onepage.game.queries import prefetch
from tests.onepage_game.test_transport import RHINO, army

SQUAD = {"name": "Squad", "size": 5, "quality": 4, "equipment": ["Assault Rifle"], "cost": 50}
SOLO = {"name": "Solo", "size": 1, "quality": 4, "equipment": ["Assault Rifle"], "cost": 10}
TARGET = {"name": "Target", "size": 1, "quality": 5, "equipment": ["Assault Rifle"], "cost": 60}
MORTAR = {"name": "Mortar", "size": 1, "quality": 4, "equipment": ['Mortar (48", A6, Indirect)'], "cost": 30}


def state(a: tuple[dict, ...], b: tuple[dict, ...], anchors: tuple[tuple[float, float], ...]) -> GameState:
    setup = Setup((army_from_mapping(army("A", *a), "a"), army_from_mapping(army("B", *b), "b")), Table())
    s = deploy(setup, 0, 0)
    return replace(s, anchors=anchors, place=(ON_TABLE,) * len(anchors))


def screened(screen: tuple[float, float]) -> bool:
    """Whether a base of 1" at ``screen`` (of a third unit) blocks the sight from a point base at
    (0, 0) to one at (10, 0): points, so that every one of the nine lines is the centre line."""
    a, b = np.array([[0.0, 0.0]]), np.array([[10.0, 0.0]])
    screens = (np.array([screen]), np.array([1.0]), np.array([2]), 0, 1)
    return not pairs_see(Table(), a, 0.0, b, np.zeros(1), screens)[0]


def test_a_line_through_a_base_is_blocked_and_a_grazing_line_is_not() -> None:
    assert screened((5.0, 0.5))  # passes 0.5" from the centre
    assert not screened((5.0, 1.0))  # touches the base: grazes (our reading)
    assert not screened((5.0, 1.5))  # misses
    assert not screened((12.0, 0.0))  # beyond the line's end
    assert screened((10.5, 0.0))  # the base reaches over the end point


def test_a_friendly_model_of_another_unit_blocks_sight() -> None:
    # shooter (36, 10), a friendly model of another unit at (36, 20) right between, the target at (36, 30)
    s = state((SOLO, dict(SOLO, name="Other")), (TARGET,), ((36.0, 10.0), (36.0, 20.0), (36.0, 30.0)))
    assert s.firing_sight(0, 2)[2:] == (0, 0.0)
    assert 2 not in s.valid_targets(0)
    aside = replace(s, anchors=((36.0, 10.0), (40.0, 20.0), (36.0, 30.0)))  # moved 4" aside
    assert aside.firing_sight(0, 2)[2] == 1 and 2 in aside.valid_targets(0)


def test_an_enemy_model_of_another_unit_blocks_sight_and_the_memo_follows_it() -> None:
    s = state((SOLO,), (TARGET, dict(TARGET, name="Other")), ((36.0, 10.0), (36.0, 30.0), (40.0, 20.0)))
    assert s.firing_sight(0, 1)[2] == 1  # asked first, with the screen aside: the memo must not keep it
    between = replace(s, anchors=((36.0, 10.0), (36.0, 30.0), (36.0, 20.0)))
    assert between.firing_sight(0, 1)[2:] == (0, 0.0)
    assert 1 not in between.valid_targets(0) and 2 in between.valid_targets(0)


def test_only_the_screened_models_lose_sight_and_the_shot_key_counts_them() -> None:
    # five shooters in a line 1.76" apart; a model at (36, 20) screens only the middle one's line to
    # the target at (36, 30) (the next lines pass about 0.88" from its centre, its base is 0.63")
    s = state((SQUAD, SOLO), (TARGET,), ((36.0, 10.0), (36.0, 20.0), (36.0, 30.0)))
    clear = replace(s, anchors=((36.0, 10.0), (50.0, 20.0), (36.0, 30.0)))
    assert clear.firing_sight(0, 2)[2] == 5
    assert s.firing_sight(0, 2)[2] == 4
    assert s.shot_key(0, 2)[1] == 4 and clear.shot_key(0, 2)[1] == 5  # different exact-engine laws


def test_embarked_units_do_not_block_sight() -> None:
    s = state(
        (SOLO, RHINO, dict(SOLO, name="Passenger")),
        (TARGET,),
        ((36.0, 10.0), (60.0, 10.0), (36.0, 20.0), (36.0, 30.0)),
    )
    assert s.firing_sight(0, 3)[2:] == (0, 0.0)  # the passengers on the table between
    aboard = replace(s, place=(ON_TABLE, ON_TABLE, 1, ON_TABLE))
    assert aboard.firing_sight(0, 3)[2] == 1


def test_indirect_weapons_fire_over_a_screen() -> None:
    s = state((MORTAR, SOLO), (TARGET,), ((36.0, 10.0), (36.0, 20.0), (36.0, 30.0)))
    assert s.firing_sight(0, 2)[2:] == (0, 0.0)
    assert 2 in s.valid_targets(0)  # "may be fired at enemies that are not within line of sight"
    assert s.shot_key(0, 2)[7] is True  # without line of sight: counts as in Cover


def test_the_ai_shot_values_use_the_screened_sight() -> None:
    s = state((SOLO, dict(SOLO, name="Other")), (TARGET,), ((36.0, 10.0), (36.0, 20.0), (36.0, 30.0)))
    ends = [(36.0, 10.0), (44.0, 10.0)]  # behind the screen, and aside of it
    prefetch(s, 0, ends)  # fills the terrain memo first, as the AI does
    fast = best_shots(s, 0, ends, "walk")
    assert fast is not None
    slow = [best_shot(s, 0, e, "walk")[0] for e in ends]
    assert fast == slow
    assert fast[0] == 0.0 < fast[1]
