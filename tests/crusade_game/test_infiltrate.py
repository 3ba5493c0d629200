"""IX INFILTRATE's free move in a blip game, from the text's sentence."""

from __future__ import annotations

from grimdice.systems.crusade.game.scenario import build_setup
from grimdice.systems.crusade.game.state import initial_state
from tests.crusade_game.helpers import MARINE, STEALER, at, scenario

HALL = "############\n#..........#\n#..........#\n#..........#\n############"
SCOUT = dict(MARINE, name="Scout", abilities=["INFILTRATE"])
BLIPS = {"blips": [{"at": [10, 2], "models": ["Stealer"]}]}


def _game(blips=True, first=0):
    a = [at("Scout", 1, 1), at("Marine", 1, 3)]
    kw = {"force_b": BLIPS} if blips else {}
    s = initial_state(
        build_setup(
            scenario(
                HALL, a, [at("Stealer", 10, 1)], profiles=[SCOUT, MARINE, STEALER], first="roll-off", **kw
            )
        )
    )
    return s.apply(("first", first))  # I: the roll-off


def test_with_the_first_player_named_too():
    a = [at("Scout", 1, 1)]
    s = initial_state(
        build_setup(scenario(HALL, a, [at("Stealer", 10, 1)], profiles=[SCOUT, STEALER], force_b=BLIPS))
    )
    assert s.round == 0 and s.legal_actions() == [("activate", 0)]


def test_in_a_blip_game_infiltrators_take_a_free_move_at_the_start():
    # IX INFILTRATE: "During Blip games, you may take a free move at the start of the game."
    s = _game()
    assert s.round == 0 and s.player == 0
    acts = s.legal_actions()
    assert ("activate", 0) in acts and ("activate", 1) not in acts  # only the INFILTRATE model
    moving = s.apply(("activate", 0))
    assert moving.budget == 4  # its move
    assert not any(a[0] in ("shoot", "melee", "extra", "hide") for a in moving.legal_actions())  # no action
    moved = moving.apply(("move", 2, 1)).apply(("end",))
    assert moved.tokens[0].sq[:2] == (2, 1)
    # the other force has no infiltrator: the first round starts, the first player's models all fresh
    assert moved.round == 1 and moved.player == 0
    assert ("activate", 0) in moved.legal_actions() and ("activate", 1) in moved.legal_actions()


def test_the_free_move_is_only_in_blip_games():
    # in a battle game round 0 is the infiltrators' placement (test_infiltrate_battle.py), no move
    s = _game(blips=False).apply(("activate", 0))
    assert s.round == 0 and not any(a[0] == "move" for a in s.legal_actions())


def test_the_second_player_s_infiltrators_move_after_the_first_s_turn_zero():
    s = _game(first=1)  # the stealers go first but have no infiltrator: straight to the scouts' free move
    assert s.round == 0 and s.player == 0 and s.legal_actions() == [("activate", 0)]
    after = s.apply(("activate", 0)).apply(("end",))
    assert after.round == 1 and after.player == 1


def test_games_with_infiltrate_in_a_blip_game_keep_the_invariants():
    from tests.crusade_game.test_games import _checked_game

    a = [at("Scout", 1, 1), at("Scout", 1, 3), at("Marine", 1, 2)]
    b = [at("Stealer", 10, 1)]
    setup = build_setup(scenario(HALL, a, b, profiles=[SCOUT, MARINE, STEALER], force_b=BLIPS))
    log = _checked_game(setup, ("random", "random"), 0)
    assert log["actions"][0] in (["activate", 0], ["activate", 1])  # round 0: a scout's free move first
