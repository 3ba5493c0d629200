"""IX INFILTRATE in a battle game: "During Battle games, you may start anywhere on the board out of
line of sight of enemy models" (reading ``infiltrate_battle``), on hand-built boards."""

from __future__ import annotations

import numpy as np

from grimdice.systems.crusade.ai import aim, objectives
from grimdice.systems.crusade.ai.players import ai_player
from grimdice.systems.crusade.game.scenario import build_setup
from grimdice.systems.crusade.game.state import initial_state, invariant_errors
from tests.crusade_game.helpers import MARINE, STEALER, at, scenario
from tests.crusade_game.table_helpers import put, rect, table, table_state
from tests.crusade_game.test_table import GANGER

# a wall from the top down to row 2 at column 5: squares west of it on rows 1-2 are out of the
# stealer's sight from (10, 1)
HALL = "############\n#....#.....#\n#....#.....#\n#..........#\n############"
SCOUT = dict(MARINE, name="Scout", abilities=["INFILTRATE"])
STALKER = dict(STEALER, name="Stalker", abilities=["INFILTRATE"])


def _battle(a, b, first=0, profiles=(SCOUT, MARINE, STEALER, STALKER)):
    s = initial_state(build_setup(scenario(HALL, a, b, profiles=list(profiles), first=first)))
    return s


def _places(s):
    return {a[1:] for a in s.legal_actions() if a[0] == "place"}


def test_an_infiltrator_names_a_start_out_of_sight_of_every_enemy_model():
    s = _battle([at("Scout", 1, 3), at("Marine", 2, 3)], [at("Stealer", 10, 1)])
    assert s.round == 0 and s.legal_actions() == [("activate", 0)]  # only the INFILTRATE model
    s = s.apply(("activate", 0))
    acts = s.legal_actions()
    assert ("end",) in acts and all(a[0] in ("place", "end") for a in acts)  # no move, no action
    board, stealer = s.setup.board, s.tokens[2].sq
    free = [(x, y) for y in range(1, 4) for x in range(1, 11) if HALL.split("\n")[y][x] == "."]
    expected = {
        q
        for q in free
        if q not in {(1, 3), (2, 3), stealer}
        and not board.sight(stealer, q, {}, {(1, 3), (2, 3), stealer})
        and max(abs(q[0] - 10), abs(q[1] - 1)) > 1
    }
    assert _places(s) == expected
    assert (4, 1) in expected and (1, 1) in expected  # behind the wall
    assert (6, 1) not in expected and (4, 3) not in expected  # in the open, seen
    assert (9, 1) not in expected and (1, 3) not in expected  # beside the enemy; taken


def test_a_placed_infiltrator_starts_hidden_there_and_the_game_goes_on():
    s = _battle([at("Scout", 1, 3), at("Marine", 2, 3)], [at("Stealer", 10, 1)])
    s = s.apply(("activate", 0)).apply(("place", 4, 1))
    assert s.tokens[0].sq == (4, 1) and s.tokens[0].hidden  # IX: "You may start Hidden"
    assert not invariant_errors(s)
    assert s.round == 1 and s.player == 0  # the stealers have no infiltrator: round 1
    assert {a for a in s.legal_actions()} == {("activate", 0), ("activate", 1)}
    stay = _battle([at("Scout", 1, 3)], [at("Stealer", 10, 1)]).apply(("activate", 0)).apply(("end",))
    assert stay.tokens[0].sq == (1, 3) and stay.tokens[0].hidden and stay.round == 1


def test_the_second_player_s_infiltrators_stay_out_of_sight_of_the_first_s_placed_ones():
    s = _battle([at("Scout", 1, 3)], [at("Stalker", 10, 3), at("Stealer", 10, 1)], first=0)
    s = s.apply(("activate", 0)).apply(("place", 4, 1))
    assert s.round == 0 and s.player == 1 and s.legal_actions() == [("activate", 1)]
    s = s.apply(("activate", 1))
    places = _places(s)
    board = s.setup.board
    assert places and all(not board.sight((4, 1), q, {}, s.occupied()) for q in places)
    assert (1, 2) not in places and (1, 3) not in places  # the scout sees down its side of the wall
    assert (8, 1) in places  # behind the wall from the scout, 2 squares from nobody
    after = s.apply(("place", *sorted(places)[0]))
    assert after.round == 1 and after.player == 0


def test_blip_games_keep_the_free_move_not_the_placement():
    blips = {"blips": [{"at": [10, 2], "models": ["Stealer"]}]}
    s = initial_state(
        build_setup(
            scenario(
                HALL, [at("Scout", 1, 3)], [at("Stealer", 10, 1)], profiles=[SCOUT, STEALER], force_b=blips
            )
        )
    ).apply(("activate", 0))
    assert not _places(s) and any(a[0] == "move" for a in s.legal_actions())


def test_the_ai_picks_the_hidden_place_nearest_its_goal():
    s = _battle([at("Scout", 1, 3)], [at("Stealer", 10, 3)]).apply(("activate", 0))
    choice = ai_player(s, np.random.default_rng(0))
    assert choice[0] == "place" and choice[1:] in _places(s)
    dist = aim.distances(s, objectives.goals(s, 0, 0))
    assert dist[choice[1:]] == min(dist[p] for p in _places(s)) < dist[(1, 3)]


def test_on_a_table_the_hidden_places_are_those_no_enemy_sees():
    wall = {"name": "wall", "kind": "wall", "shape": rect(5, 0, 6, 6), "height": 3}
    ganger = dict(GANGER, name="Scout", abilities=["INFILTRATE"])
    s = table_state(
        table(terrain=[wall]), [put("Scout", 0, 7)], [put("Ganger", 11, 3)], profiles=[ganger, GANGER]
    )
    s = s.apply(("activate", 0))
    places = _places(s)
    board, enemy = s.setup.board, s.tokens[1].sq
    assert places == {
        p
        for p in board.positions()
        if p != s.tokens[0].sq and not board.sight(enemy, p, {}) and board.range(enemy, p) > 1
    }
    assert (2, 2, 0) in places and (8, 3, 0) not in places


def test_battle_games_with_infiltrators_keep_the_invariants():
    from tests.crusade_game.test_games import _checked_game

    a = [at("Scout", 1, 3), at("Scout", 2, 3), at("Marine", 1, 2)]
    setup = build_setup(scenario(HALL, a, [at("Stalker", 10, 1)], profiles=[SCOUT, MARINE, STEALER, STALKER]))
    for players, seed in ((("random", "random"), 0), (("ai", "random"), 1), (("random", "ai"), 2)):
        log = _checked_game(setup, players, seed)
        assert log["actions"][0] in (["activate", 0], ["activate", 1])
