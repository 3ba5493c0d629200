"""IX CLIMB: "May climb up or down any surface as part of your move. Measure the distance as normal."

V MOVEMENT's measure: "measure the vertical height and count it as part of your move"; a step to a
cell beside is 1" across (its length, sqrt 2", diagonally; reading ``diagonal_step``).
"""

from __future__ import annotations

import math

import numpy as np
import pytest

from grimdice.engine.game import CHANCE
from grimdice.systems.crusade.game.scenario import build_setup
from grimdice.systems.crusade.game.state import initial_state, invariant_errors
from tests.crusade_game.helpers import MARINE, STEALER, at, state
from tests.crusade_game.table_helpers import active, put, rect, table, table_scenario
from tests.crusade_game.test_table import GANGER, RUNNER, block, game
from tests.crusade_game.test_table_games import HEIGHTS, _checked, climber

SCALER = dict(RUNNER, name="Scaler", abilities=["CLIMB"])  # move 6, armour 1
CREEPER = dict(GANGER, name="Creeper", abilities=["CLIMB"])  # move 4
PROFILES = [GANGER, RUNNER, SCALER, CREEPER]
TOWER = table(terrain=[block(3, 2, 5, 6, 4)])  # a 4" block, no ladder


def on(board, who: str, x: int, y: int, z: int | None = None):
    return active(game(board, [put(who, x, y, z)], profiles=PROFILES))


def steps(s) -> dict[tuple, float]:
    """The active model's steps as the game offers them: (kind, x, y, z) -> cost."""
    from grimdice.systems.crusade.game.flight import steps_of

    return {(k, *to): c for k, to, c in steps_of(s)}


def test_climb_up_a_wall_measured_as_a_move():
    # "May climb up ... any surface as part of your move. Measure the distance as normal": 1"
    # across and 4" up, 5" of the Scaler's 6"; no roll (no chance node), nothing but the move spent
    s = on(TOWER, "Scaler", 2, 3)
    got = steps(s)
    assert got[("climb", 3, 3, 4)] == pytest.approx(5)
    assert got[("climb", 3, 2, 4)] == pytest.approx(math.sqrt(2) + 4)
    assert ("climb", 3, 3, 4) in s.legal_actions()
    after = s.apply(("climb", 3, 3, 4))
    assert after.current_player() != CHANCE and after.tokens[0].sq == (3, 3, 4)
    assert after.budget == pytest.approx(1) and after.tokens[0].cond == 0
    assert not invariant_errors(after)
    # without CLIMB the Runner has no way up (4" is no jump, there is no ladder nor rough surface)
    assert not [k for k in steps(on(TOWER, "Runner", 2, 3)) if k[1] == 3 and k[3] == 4]


def test_climb_costs_the_distance_so_a_short_move_needs_its_extra_move():
    # "as part of your move ... Measure the distance as normal": 5" is more than the Creeper's 4";
    # its extra full move (I) pays for it
    s = on(TOWER, "Creeper", 2, 3)
    assert ("climb", 3, 3, 4) not in s.legal_actions()
    s = s.apply(("extra",))
    assert ("climb", 3, 3, 4) in s.legal_actions()
    assert s.apply(("climb", 3, 3, 4)).budget == pytest.approx(8 - 5)


def test_climb_down_without_a_fall():
    # "climb ... down any surface": 4" down and 1" across, no FALL (V: "Jumping down 4" or more
    # counts as a FALL"), which stays the player's choice
    s = on(TOWER, "Scaler", 3, 3, 4)
    assert steps(s)[("climb", 2, 3, 0)] == pytest.approx(5)
    assert ("fall", 2, 3, 0) in s.legal_actions()
    after = s.apply(("climb", 2, 3, 0))
    assert after.tokens[0].sq == (2, 3, 0) and after.tokens[0].cond == 0 and after.budget == pytest.approx(1)


def test_a_climb_replaces_the_jump_up_beside():
    # V JUMPING up 2" beside: "adding 2" to the distance for every 1" up", a roll; a climber climbs
    # it for the height (1" + 2"), without a roll
    ledge = table(terrain=[block(3, 2, 5, 6, 2)])
    assert steps(on(ledge, "Runner", 2, 3))[("jump", 3, 3, 2)] == pytest.approx(5)
    got = steps(on(ledge, "Scaler", 2, 3))
    assert got[("climb", 3, 3, 2)] == pytest.approx(3) and ("jump", 3, 3, 2) not in got
    s = on(ledge, "Scaler", 2, 3).apply(("climb", 3, 3, 2))
    assert s.current_player() != CHANCE and s.tokens[0].sq == (3, 3, 2)


def test_climb_over_a_wall():
    # "any surface": up a 3" wall, across its cell and down the far side: 2" across, 3" up and 3"
    # down, 8": more than the Scaler's 6", so with its extra move (I); the Runner has no way over
    wall = table(terrain=[{"name": "wall", "kind": "wall", "shape": rect(5, 1, 6, 7), "height": 3}])
    s = on(wall, "Scaler", 4, 3)
    assert steps(s)[("climb", 6, 3, 0)] == pytest.approx(8)
    assert steps(s)[("climb", 6, 5, 0)] == pytest.approx(2 * math.sqrt(2) + 6)
    assert ("climb", 6, 3, 0) not in s.legal_actions()
    after = s.apply(("extra",)).apply(("climb", 6, 3, 0))
    assert after.tokens[0].sq == (6, 3, 0) and after.budget == pytest.approx(12 - 8)
    assert not [k for k in steps(on(wall, "Runner", 4, 3)) if k[1] >= 5]


def hut(armoured: bool = False) -> dict:
    return {
        "name": "hut",
        "shape": rect(4, 2, 7, 6),
        "height": 4,
        "armoured": armoured,
        "sectors": [{"name": "room", "shape": rect(4, 2, 7, 6)}],
        "doors": [[4, 3]] if armoured else [],
    }


@pytest.mark.parametrize("armoured", [False, True])
def test_climb_a_building_s_wall_onto_its_roof_not_through_it(armoured):
    # "up or down any surface": a building's outer wall to its roof (an armoured one too: it is
    # not entered, VI "cannot be entered via the roofs"); never from the roof into the building nor
    # from inside onto the roof (VI: by ladders or stairs only)
    board = table(buildings=[hut(armoured)])
    assert steps(on(board, "Scaler", 3, 3))[("climb", 4, 3, 4)] == pytest.approx(5)
    edge = steps(on(board, "Scaler", 4, 3, 4))
    assert edge[("climb", 3, 3, 0)] == pytest.approx(5)
    indoors = [k for k in edge if k[0] == "climb" and 4 <= k[1] <= 6 and 2 <= k[2] <= 5]
    assert indoors == []
    assert not [k for k in steps(on(board, "Scaler", 5, 3, 0)) if k[0] == "climb"]


def test_climb_is_asked_the_zone_of_control():
    # V ZOC: "If a troop moves within 1" of an enemy and then tries to move past the enemy": a
    # climb is part of the move
    data = table_scenario(TOWER, [put("Scaler", 2, 2)], [put("Ganger", 1, 4)], profiles=PROFILES)
    s = active(initial_state(build_setup(data))).apply(("move", 2, 3, 0))  # now beside the Ganger
    assert not s.zoc and s.tokens[0].sq == (2, 3, 0)
    after = s.apply(("climb", 3, 3, 4))
    assert after.zoc and after.zoc[0] == (3, 3, 4) and after.tokens[0].sq == (2, 3, 0)
    assert after.apply(("pass",)).tokens[0].sq == (3, 3, 4)


def test_climb_does_nothing_on_a_grid():
    # X: no heights on a grid; a hulk's walls reach its ceiling
    hall = "#######\n#A...B#\n#.#...#\n#######"
    climbing = dict(MARINE, abilities=[*MARINE["abilities"], "CLIMB"])
    plain = state(hall, [at("Marine", 1, 1)], [at("Stealer", 5, 1)])
    climbs = state(hall, [at("Marine", 1, 1)], [at("Stealer", 5, 1)], profiles=[climbing, STEALER])
    assert active(climbs).legal_actions() == active(plain).legal_actions()


def test_random_games_with_climbers_keep_the_invariants():
    # the climbs come from the move generator: the random player makes them; no model ends in a
    # wall or at a height its cell does not offer (checked on every state)
    a = [put("Scaler", 2, 2), put("Creeper", 2, 5)]
    data = table_scenario(HEIGHTS, a, [put("Scaler", 13, 2), put("Ganger", 8, 2)], turns=6)
    data["profiles"] = PROFILES
    setup = build_setup(data)
    seen: set[str] = set()
    for seed in range(3):
        _, kinds = _checked(setup, (_climbs, _climbs), seed)
        seen.update(kinds)
    assert "climb" in seen


def _climbs(s, rng: np.random.Generator):
    acts = [a for a in s.legal_actions() if a[0] == "climb"]
    if acts and rng.random() < 0.7:
        return acts[int(rng.integers(len(acts)))]
    return climber(s, rng)


def test_the_random_player_s_draw_offers_the_climbs():
    # the random player's draw (sampling.py) builds the same steps as the legal actions, climbs too
    from grimdice.engine import playing
    from grimdice.engine.game import TERMINAL
    from grimdice.systems.crusade.game.sampling import kind_of, random_action, support

    a = [put("Scaler", 2, 2), put("Creeper", 2, 5)]
    data = table_scenario(HEIGHTS, a, [put("Scaler", 13, 2), put("Ganger", 8, 2)], turns=4)
    data["profiles"] = PROFILES
    # any seed will do: the climbers start beside the towers, and each of seeds 0 to 9 offers
    # climbs in 2 to 13 of its states; 5 is one of them
    game = playing.play_game(initial_state(build_setup(data)), [playing.random_bot] * 2, 5)
    rng = np.random.default_rng(5)
    climbed = 0
    for s in game.states:
        if s.current_player() in (CHANCE, TERMINAL):
            continue
        legal = s.legal_actions()
        got = support(s)
        if got is not None:
            grouped: dict[str, set] = {}
            for act in legal:
                grouped.setdefault(kind_of(act), set()).add(act)
            assert got == grouped
            climbed += any(act[0] == "climb" for act in legal)
        assert random_action(s, rng) in legal
    assert climbed > 0
