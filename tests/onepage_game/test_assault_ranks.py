"""The assaulting models' placement rank by rank (assault_ranks.py), from the Beginner's Guide v2.21:
"move the assaulting [models] by up to 12" to get into base contact with an enemy model from the
target unit, or as close as possible ..., keeping unit coherency in mind" and "All models in a unit
that are in base contact with an enemy model from the target unit, or that are within 2" of a model
from the target unit may attack"."""

from __future__ import annotations

import math
from dataclasses import replace
from typing import Any

import numpy as np
import pytest
import shapely

from grimdice.engine.table.bases import coherent
from grimdice.engine.table.terrain import Table, Terrain
from grimdice.systems.onepage.game import GameState, Setup, army_from_mapping, deploy
from grimdice.systems.onepage.game.melee_moves import (
    assault_violations,
    assaulters_moved,
    signed_gaps,
    strikers,
)
from grimdice.systems.onepage.game.setup import GAP, MM

R = 32 / MM / 2  # an Infantry base's radius (32 mm)
STEP = 2 * R + GAP  # centre spacing in a rank
CHAMPION = {"name": "Champion", "quality": 3, "equipment": ["Power Weapon"], "cost": 40}
LINE = {"name": "Line", "size": 5, "quality": 5, "equipment": ["Hand Weapon"], "cost": 50}


def game(a: list[dict[str, Any]], b: list[dict[str, Any]], *pieces: Terrain) -> GameState:
    army = [
        {"kind": "army", "system": "onepage", "name": n, "units": list(u)} for n, u in (("A", a), ("B", b))
    ]
    setup = Setup((army_from_mapping(army[0], "a"), army_from_mapping(army[1], "b")), Table(terrain=pieces))
    return deploy(setup, 0, 0)


def test_a_second_rank_model_within_2_inches_strikes() -> None:
    """Ten models (two ranks of five) charge a lone champion 3" ahead of the front rank's middle.
    Around one 32 mm base at most six bases touch it (each takes 2 asin(R / 2R) = 60 degrees of the
    circle), so with all ten striking at least four strike from a second rank, within 2" but not in
    base contact. The rigid block counts 4 (the middle's 0", its neighbours' hypot(STEP, 2R) - 2R =
    0.90" and the back rank's middle 1.76"; the rest over 2")."""
    s = game([dict(LINE, size=10)], [CHAMPION])
    s = replace(s, anchors=((36.0, 20.0), (36.0, 20.0 + 2 * R + 3.0)))
    c = s.charged(0, 1)
    assert strikers(replace(c, charge=()), 0, 1) == (4, 1)
    moved = assaulters_moved(c, 0, 1)
    ends = signed_gaps(moved, R, c.models(1), R)[:, 0]
    assert (ends <= 2.0 + 1e-9).all()
    assert (ends <= 2e-3).sum() <= 6 and ((ends > 2e-3) & (ends <= 2.0)).sum() >= 4
    assert strikers(c, 0, 1) == (10, 1)
    assert s.apply(["assault", 0, 1]).pending[3][2:4] == (10, 1)  # the exact melee's strikers


def test_a_20_model_block_charging_a_rank_of_5_brings_the_hand_count_of_strikers() -> None:
    """Twenty models (four ranks of five) charge a rank of five 4" away head on. By hand: the front
    rank touches (5), the second stands 2R + STEP from the defenders' centres, 1.76" off (5): the
    rigid block's 10; the third and fourth ranks (3.52" and 5.28" off after the block's move, 8" of
    their 12" left) can each reach a spot within 2" of the rank's ends, outside its front: two
    columns of two (one in contact, one 0.6" out) on each flank, 8 more: at least 18 strike."""
    s = game([dict(LINE, size=20)], [LINE])
    s = replace(s, anchors=((36.0, 20.0), (36.0, 20.0 + 2 * R + 4.0)))
    c = s.charged(0, 1)
    assert strikers(replace(c, charge=()), 0, 1)[0] == 10
    pending = s.apply(["assault", 0, 1])
    got = pending.pending[3][2:4]
    assert got[0] >= 18 and got[1] == 5
    assert assault_violations(pending) == []


def wall(x0: float, y0: float, x1: float, y1: float) -> Terrain:
    return Terrain("rock", np.array([[x0, y0], [x1, y0], [x1, y1], [x0, y1]]), frozenset({"impassable"}), 0.0)


def check(c: GameState, u: int, t: int, moved: np.ndarray, start: np.ndarray) -> None:
    """The end positions by hand: whole bases on the table and off impassable rock (shapely), no base
    over another (its unit's, the target's, another unit's), coherent, none newly within 1" of a
    unit other than the target, each within the Assault's 12" of where it started."""
    r = c.setup.radii[u]
    rock = [shapely.Polygon(p.corners) for p in c.setup.table.terrain if "impassable" in p.traits]
    for p in moved:
        disc = shapely.Point(p).buffer(r - 1e-3)
        assert not any(disc.intersects(q) for q in rock)
        assert r - 1e-6 <= p[0] <= 72.0 - r + 1e-6 and r - 1e-6 <= p[1] <= 48.0 - r + 1e-6
    n = len(moved)
    assert (signed_gaps(moved, r, moved, r)[~np.eye(n, dtype=bool)] >= -1e-6).all()
    assert (signed_gaps(moved, r, c.models(t), c.setup.radii[t]) >= -2e-3).all()
    assert coherent(moved, np.full(n, r))
    for v in range(len(c.units)):
        if v not in (u, t):
            rv = c.setup.radii[v]
            was = signed_gaps(start, r, c.models(v), rv).min(axis=1)
            now = signed_gaps(moved, r, c.models(v), rv).min(axis=1)
            assert (now >= np.minimum(1.0, was) - 1e-6).all()
    assert (np.linalg.norm(moved - start, axis=1) <= 12.0 + 1e-6).all()


@pytest.mark.parametrize("seed", [0, 2, 3, 4, 5, 6])  # seeds whose charge is legal
def test_the_final_positions_are_legal(seed: int) -> None:
    """Hand-built charges with rock beside the target and a friendly unit near it, the target at
    random places 2"-8" ahead: the end positions pass the hand check, and the game's own check
    (``assault_violations``) finds nothing; a position moved onto the rock is caught by it."""
    rng = np.random.default_rng(seed)
    tx, gap = 30.0 + 12.0 * rng.random(), 2.0 + 6.0 * rng.random()
    rock = wall(tx + 3.0, 28.0, tx + 6.0, 40.0)
    s = game([dict(LINE, size=15), dict(CHAMPION, name="Friend")], [dict(LINE, size=5)], rock)
    s = replace(s, anchors=((36.0, 20.0), (tx - 5.0, 20.0 + 2 * R + gap + 3.0), (tx, 20.0 + 2 * R + gap)))
    assert ["assault", 0, 2] in s.legal_actions()
    start = s.models(0)
    pending = s.apply(["assault", 0, 2])
    moved = assaulters_moved(pending, 0, 2)
    check(pending, 0, 2, moved, start)
    assert assault_violations(pending) == []
    assert strikers(pending, 0, 2)[0] >= strikers(replace(pending, charge=()), 0, 2)[0]
    # the checker is not blind: the same melee with a model's end on the rock is reported
    from grimdice.systems.onepage.game import assault_ranks, melee_moves

    c, _ = melee_moves.charge_of(pending, 0, 2)
    bad = moved.copy()
    bad[0] = (tx + 4.5, 34.0)
    assert any("over terrain" in line for line in assault_ranks.violations(c, bad, "Line"))


def test_models_cannot_take_a_spot_farther_than_12_inches() -> None:
    """A lone champion 11.5" ahead of a rank's east end: the west end model starts
    hypot(4 STEP, 11.5 + 2R) from it, so it can come within 2" only if that less 12" less 2R is
    under 2: it is (1.2"), and it must end no nearer than that bound."""
    s = game([LINE], [CHAMPION])
    s = replace(s, anchors=((36.0, 20.0), (36.0 + 2 * STEP, 20.0 + 2 * R + 11.5)))
    c = s.charged(0, 1)
    moved = assaulters_moved(c, 0, 1)
    bound = math.hypot(4 * STEP, 11.5 + 2 * R) - 2 * R - 12.0
    west = signed_gaps(moved, R, c.models(1), R)[0, 0]
    assert 0.0 < bound < 2.0
    assert bound - 1e-6 <= west <= 2.0
