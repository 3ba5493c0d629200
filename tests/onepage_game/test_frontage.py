"""The AI's estimate of a charge's strikers (ai/frontage.py) against the game's own placement of
the assaulting models (game/assault_ranks.py, melee_moves.py): an implementation apart."""

from __future__ import annotations

import math
from dataclasses import replace

import numpy as np
import pytest

from grimdice.engine.table.blocks import EPS
from grimdice.engine.table.terrain import Table, Terrain
from grimdice.systems.onepage.ai import threat
from grimdice.systems.onepage.game import melee_moves
from grimdice.systems.onepage.game.state import GameState
from tests.onepage_game.test_game import duel

MOB = {"name": "Mob", "size": 10, "quality": 5, "equipment": ["Hand Weapon"], "cost": 60}
FIVE = {"name": "Five", "size": 5, "quality": 5, "equipment": ["Hand Weapon"], "cost": 60}
LONE = {"name": "Lone", "size": 1, "quality": 5, "equipment": ["Hand Weapon"], "cost": 60}


def placed(state: GameState, v: int, u: int) -> tuple[int, int]:
    """The game's count of ``v``'s charge on ``u`` from :data:`threat.CLOSE` away: the block's
    Assault move, each model's own move on into contact, the defenders' 3" move."""
    dx, dy = state.charge_vector(v, u)
    far = math.hypot(dx, dy)
    step = max(0.0, far - threat.CLOSE) / far if far > EPS else 0.0
    return melee_moves.strikers(state.moved(v, dx * step, dy * step).charged(v, u), v, u)


@pytest.mark.parametrize(("a", "b"), [(LONE, MOB), (MOB, LONE), (MOB, MOB), (FIVE, MOB), (MOB, FIVE)])
@pytest.mark.parametrize("where", [(36.0, 30.0), (44.0, 27.0), (30.0, 26.0), (36.0, 40.0)])
def test_in_the_open_it_is_the_games_placement(a: dict, b: dict, where: tuple[float, float]) -> None:
    """On an open table, units of up to 10 models in front of, beside or diagonal to each other:
    both charges' counts are the ones the game's placement gives (a lone charger strikes and the
    target's models within 5" of it strike back; a block of 10 reaches a lone model with all)."""
    s = replace(duel(a, b), anchors=((36.0, 20.0), where))
    for v, u in ((0, 1), (1, 0)):
        assert threat.strikers(s, v, u) == placed(s, v, u)


def test_a_lone_model_at_the_end_of_a_line_is_struck_back_by_the_models_within_5_inches() -> None:
    """A lone model charging the Mob (two ranks of five, 1.76" apart) at the end of its line: only
    the Mob's models within 5" of where it ends strike back (3" move, then 2"); the game's count."""
    s = replace(duel(LONE, MOB), anchors=((36.0, 20.0), (52.0, 20.0)))
    got = threat.strikers(s, 0, 1)
    assert got == placed(s, 0, 1)
    assert got[0] == 1 and 1 < got[1] < 10


def test_a_lone_model_charging_a_lone_model_strikes_and_is_struck() -> None:
    s = replace(duel(LONE, LONE), anchors=((36.0, 14.0), (36.0, 30.0)))
    assert threat.strikers(s, 0, 1) == (1, 1) == placed(s, 0, 1)


def test_impassable_terrain_beside_the_target_leaves_fewer_spots() -> None:
    """Impassable rocks on both sides of a lone target (0.17" from its base) leave only spots in
    front of and behind it: fewer of the Mob's 10 models strike than in the open, where all do."""
    s = replace(duel(MOB, LONE), anchors=((36.0, 14.0), (36.0, 30.0)))
    assert threat.strikers(s, 0, 1) == (10, 1)
    rocks = tuple(
        Terrain(name, np.array([[x0, 27.0], [x1, 27.0], [x1, 34.0], [x0, 34.0]]), frozenset({"impassable"}))
        for name, x0, x1 in (("west", 31.0, 35.2), ("east", 36.8, 41.0))
    )
    walled = replace(s, setup=replace(s.setup, table=Table(terrain=rocks)))
    got = threat.strikers(walled, 0, 1)
    assert got[0] < 10 and got[1] == 1


def test_flying_models_reach_the_far_side_of_the_target() -> None:
    """20 models charging a lone model from the south: the spots behind it are reached only along
    straight paths that pass beside its base; Flying models ("may move through other units") reach
    them over it too, so more of them strike (the game's placement, which packs a crowd around one
    model more tightly than the estimate's spots, gets 18 for both)."""
    crowd = {**MOB, "size": 20}
    walkers = replace(duel(crowd, LONE), anchors=((36.0, 14.0), (36.0, 30.0)))
    flyers = replace(duel({**crowd, "special_rules": ["Flying"]}, LONE), anchors=((36.0, 14.0), (36.0, 30.0)))
    assert threat.strikers(flyers, 0, 1)[0] > threat.strikers(walkers, 0, 1)[0]
