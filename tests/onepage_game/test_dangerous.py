"""Dangerous terrain in the game: "roll one die for each model that moved into or across the
dangerous terrain. For each 1 you roll the unit takes one automatic hit." (dangerous.py)"""

from __future__ import annotations

from dataclasses import replace
from fractions import Fraction
from math import comb

import numpy as np
import pytest

from grimdice.engine.game import CHANCE
from grimdice.engine.table.terrain import Table, Terrain
from grimdice.systems.onepage.game import GameState, Setup, army_from_mapping, deploy
from grimdice.systems.onepage.game.batch import kills

WALKERS = {"name": "Walkers", "size": 5, "quality": 4, "equipment": ["Assault Rifle"], "cost": 50}
ENEMY = {"name": "Enemy", "size": 5, "quality": 5, "equipment": ["Hand Weapon"], "cost": 60}


def army(name: str, *units: dict) -> dict:
    return {"kind": "army", "system": "onepage", "name": name, "units": list(units)}


def strip(x0: float, x1: float) -> Table:
    mines = np.array([[x0, 24.0], [x1, 24.0], [x1, 26.0], [x0, 26.0]])
    return Table(terrain=(Terrain("mines", mines, frozenset({"dangerous"})),))


def duel(a: dict, table: Table, gap: float = 20.0) -> GameState:
    setup = Setup((army_from_mapping(army("A", a), "a"), army_from_mapping(army("B", ENEMY), "b")), table)
    s = deploy(setup, 0, 0)
    return replace(s, anchors=((36.0, 20.0), (36.0, 20.0 + gap)))


def lost_law(s: GameState) -> dict[int, float]:
    out: dict[int, float] = {}
    for i, p in s.chance_outcomes():
        k = 5 - sum(s.combat_table()[i][0][0].alive)
        out[k] = out.get(k, 0.0) + p
    return out


def binomial(n: int, p: Fraction) -> dict[int, Fraction]:
    return {k: comb(n, k) * p**k * (1 - p) ** (n - k) for k in range(n + 1)}


def test_a_run_across_dangerous_terrain_is_offered_and_rolls_per_model() -> None:
    s = duel(WALKERS, strip(0.0, 72.0))
    north = [a for a in s.legal_actions() if a[0] == "run" and a[3] > 5 and abs(a[2]) < 1e-9]
    assert north, "moves across dangerous terrain are offered"
    c = s.apply(north[0])
    assert c.current_player() == CHANCE and c.pending == ("dangerous", 0, 0, (5,))
    # each of the 5 models rolls a 1 with 1/6, and the automatic hit wounds on a failed 4+ block
    want = binomial(5, Fraction(1, 6) * Fraction(3, 6))
    got = lost_law(c)
    for k in range(6):
        assert got.get(k, 0.0) == pytest.approx(float(want[k]), abs=1e-12)
    # Run: "it may not shoot at any point" - the activation ends after the rolls
    after = c.apply(0)
    assert after.phase == "play" and after.player == 1 and after.activated[0]


def test_only_models_that_moved_through_roll_and_walk_then_shoots() -> None:
    s = duel(WALKERS, strip(35.5, 36.5), gap=14.0)  # only the middle model's path crosses it
    walk = next(a for a in s.legal_actions() if a[0] == "walk" and a[3] > 5 and abs(a[2]) < 1e-9)
    c = s.apply(walk)
    assert c.pending == ("dangerous", 0, 0, (1,))
    got = lost_law(c)
    assert got[1] == pytest.approx(1 / 12) and got[0] == pytest.approx(11 / 12)
    after = c.apply(0)
    assert after.phase == "shoot" and after.active == 0  # Walk: "it may shoot after having moved"
    sideways = next(a for a in s.legal_actions() if a[0] == "walk" and a[2] > 5)
    assert s.apply(sideways).phase == "shoot"  # no dangerous terrain on the way: no roll


def test_an_assault_through_dangerous_terrain_rolls_then_fights() -> None:
    s = duel(WALKERS, strip(0.0, 72.0), gap=8.0)
    assert ["assault", 0, 1] in s.legal_actions()
    c = s.apply(["assault", 0, 1])
    assert c.pending[:3] == ("dangerous", 0, 1)
    for i, _ in c.chance_outcomes():
        o = c.apply(i)
        if o.alive(0):
            assert o.phase == "combat" and o.pending[0] == "melee"
        else:  # destroyed by the mines: no melee
            assert o.phase == "play" and o.activated[0]


def test_flying_ignores_dangerous_terrain() -> None:
    s = duel(dict(WALKERS, special_rules=["Flying"]), strip(0.0, 72.0))
    north = next(a for a in s.legal_actions() if a[0] == "run" and a[3] > 5 and abs(a[2]) < 1e-9)
    assert s.apply(north).phase == "play"


def test_a_unit_lost_to_dangerous_terrain_is_nobodys_kill() -> None:
    units = [{"started": 5, "cost": 50}, {"started": 5, "cost": 60}]
    mines = {"phase": "combat", "kind": "dangerous", "unit": 0, "target": 0, "models": [0, 0]}
    shot = {"phase": "combat", "kind": "shoot", "unit": 0, "target": 1, "models": [5, 0]}
    assert kills({"units": units, "events": [mines]}) == [0.0, 0.0]
    assert kills({"units": units, "events": [shot]}) == [60.0, 0.0]
