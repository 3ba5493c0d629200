"""The exposure never counts a unit as losing more than it is worth (ai/threat.py: ``stake`` and
``exposure``): several enemies that could each destroy a unit take from it at most its points, one
enemy alone takes its expected points, and each enemy added takes a share of what the others left."""

from __future__ import annotations

from dataclasses import replace

import pytest

from grimdice.engine.table.terrain import Table
from grimdice.systems.onepage.ai import threat
from grimdice.systems.onepage.ai.players import ATTRITION, PIN_TEMPO, worth
from grimdice.systems.onepage.game import GameState, Setup, army_from_mapping, deploy
from grimdice.systems.onepage.game.state import combat_law
from tests.onepage_game.test_game import army

GUNS = {"name": "Guns", "size": 10, "quality": 2, "equipment": ["Assault Rifle"], "cost": 100}
SCOUT = {"name": "Scout", "size": 1, "quality": 6, "equipment": ["Hand Weapon"], "cost": 30}


SPOTS = ((36.0, 20.0), (18.0, 36.0), (54.0, 36.0))  # south, west and east of the Scout


def ring(guns: int) -> GameState:
    """The Scout (the last unit) at (36, 36), ``guns`` units of Guns around it (:data:`SPOTS`),
    each in range (24") and sight, out of Assault reach (12")."""
    setup = Setup(
        (
            army_from_mapping(army("A", *[{**GUNS, "label": f"Guns {i}"} for i in range(guns)]), "a"),
            army_from_mapping(army("B", SCOUT), "b"),
        ),
        Table(),
    )
    s = deploy(setup, 0, 0)
    anchors = (*SPOTS[:guns], (36.0, 36.0))
    return replace(s, anchors=anchors)


def shot(s: GameState, v: int, u: int) -> float:
    """The expected points (pin at its share, attrition) of ``v``'s exact shooting law at ``u``,
    computed from the law itself."""
    at = threat.placed_at(s, u, None)
    key = at.shot_key(v, u, None, "hold")
    assert key[1] == GUNS["size"]  # every model sees and reaches
    law = combat_law(s.setup, "shoot", v, s.units[v], u, s.units[u], key)
    base = worth(s.setup, u, s.units[u], PIN_TEMPO)
    return sum(p * (worth(s.setup, u, st, PIN_TEMPO) - base) for (st,), p in law)


def test_the_stake_is_the_units_points_destroyed_less_what_it_already_gives_away() -> None:
    s = ring(1)
    scout = len(s.units) - 1
    assert threat.stake(s, scout) == pytest.approx(SCOUT["cost"] * (1 + ATTRITION), abs=1e-12)
    pinned = replace(s, units=(*s.units[:-1], replace(s.units[scout], pinned=True)))
    want = SCOUT["cost"] * (1 + ATTRITION) - PIN_TEMPO * SCOUT["cost"]  # round 1: a pin is a tempo
    assert threat.stake(pinned, scout) == pytest.approx(want, abs=1e-12)


def test_three_enemies_that_can_each_destroy_a_unit_take_at_most_its_points() -> None:
    """Three units of ten Quality 2+ rifles each nearly sure to destroy the lone Scout: their
    expected points add up to almost three times its stake, the exposure stays below it, and it is
    the stake x (1 - the product of each enemy's share left) computed from each enemy's own law."""
    s = ring(3)
    scout, most = 3, threat.stake(ring(3), 3)
    each = [shot(s, v, scout) for v in range(3)]
    assert all(b > 0.9 * most for b in each) and sum(each) > 2.7 * most  # the summed form's answer
    got = threat.exposure(s, scout)
    left = 1.0
    for b in each:
        left *= 1.0 - min(1.0, b / most)
    assert got == pytest.approx(most * (1.0 - left), abs=1e-9)
    assert got <= most <= SCOUT["cost"] * (1 + ATTRITION) + 1e-12


def test_one_enemy_alone_takes_its_expected_points_and_each_added_enemy_takes_more() -> None:
    values = [threat.exposure(ring(n), n) for n in (1, 2, 3)]
    one = ring(1)
    assert values[0] == pytest.approx(shot(one, 0, 1), abs=1e-12)  # the summed form's value
    assert values[0] < values[1] < values[2]


def test_the_partial_exposure_only_grows_so_the_limit_stops_early_above_it() -> None:
    """With ``limit`` below the full exposure, the enemies stop being read once the partial value
    passes it: the answer is over the limit (what choose needs) and below the full value (the
    third enemy left unread)."""
    s = ring(3)
    full = threat.exposure(s, 3)
    first = threat.exposure(ring(1), 1)
    cut = threat.exposure(s, 3, None, limit=0.5 * first)
    assert 0.5 * first < cut < full
