"""Whole games with the IX abilities of the game's own modules (CONTROL, LATCH ON, DETONATE,
TWO FISTED, FLY, JUMP PACK, MOB): every step legal, every state sound, replay equal, and the game
layer's conformance check."""

from __future__ import annotations

import pytest

from grimdice.engine.playing import conformance
from grimdice.systems.crusade.game.scenario import build_setup
from grimdice.systems.crusade.game.state import initial_state
from tests.crusade_game.helpers import MARINE, STEALER, at, scenario
from tests.crusade_game.test_games import _checked_game

HALL = """
############
#..........#
#....##....#
#..........#
#..........#
############
"""

PISTOL = {"name": "pistol", "dice": "1W+1R", "kind": "pistol", "effects": ["S"]}
CHARGE = {"name": "charge", "dice": "1R", "kind": "ranged", "effects": ["SFT"]}


def _profiles() -> list[dict]:
    return [
        dict(MARINE, name="Master", abilities=["CONTROL"]),
        dict(STEALER, name="Leech", abilities=["LATCH ON"]),
        dict(MARINE, name="Flyer", abilities=["FLY"]),
        dict(MARINE, name="Bomber", abilities=["DETONATE"], weapons=[CHARGE]),
        dict(
            MARINE, name="Gunslinger", abilities=["TWO FISTED"], weapons=[PISTOL, dict(PISTOL, name="other")]
        ),
        dict(STEALER, name="Ganger", abilities=["MOB"]),
        dict(MARINE, name="Packer", abilities=["JUMP PACK", "HEAVY"]),
    ]


def _setup():
    a = [at("Master", 1, 1), at("Leech", 8, 1), at("Flyer", 1, 3), at("Bomber", 2, 4)]
    b = [at("Gunslinger", 10, 1), at("Ganger", 9, 2), at("Ganger", 10, 3), at("Packer", 9, 4)]
    return build_setup(scenario(HALL, a, b, profiles=_profiles(), turns=5))


def _actions_of(players, seeds):
    kinds: set[str] = set()
    for seed in seeds:
        kinds |= {a[0] for a in _checked_game(_setup(), players, seed)["actions"]}
    return kinds


def test_random_games_keep_the_invariants_and_play_the_abilities():
    kinds = _actions_of(("random", "random"), range(6))
    assert {"latch", "fists", "detonate", "fly"} <= kinds


@pytest.mark.parametrize("players", [("ai", "random"), ("random", "ai")])
def test_ai_games_keep_the_invariants(players):
    _actions_of(players, (0,))


def test_the_game_conforms():
    assert conformance([initial_state(_setup())], seeds=(0,)) == []


def test_table_games_keep_the_invariants():
    from tests.crusade_game.table_helpers import put, table, table_scenario
    from tests.crusade_game.test_table import block

    board = table(w=12, h=8, terrain=[block(5, 2, 7, 4, 2)])
    a = [put("Master", 1, 1), put("Leech", 8, 1), put("Flyer", 1, 3), put("Bomber", 1, 5)]
    b = [put("Gunslinger", 10, 1), put("Ganger", 9, 2), put("Ganger", 10, 3), put("Packer", 10, 5)]
    setup = build_setup(table_scenario(board, a, b, profiles=_profiles(), turns=5))
    kinds: set[str] = set()
    for seed, players in ((49, ("random", "random")), (1, ("ai", "random")), (2, ("random", "ai"))):
        kinds |= {a[0] for a in _checked_game(setup, players, seed)["actions"]}
    assert {"fly", "latch"} <= kinds
